/*
** poly.c -- reading one polygon of the mesh for the queries, canonical polygon ids, position
** checks and the query object (spec/query.md: QRY-002, QRY-010, QRY-020 .. QRY-024, QRY-060).
**
** A query reads the mesh only through its public readers (op_mesh_tile_by_ref, op_tile_view,
** op_mesh_get_poly, op_mesh_poly_links; MESH-060 .. MESH-066), so it keeps nothing of the mesh
** between calls (QRY-002), and it writes nothing to the mesh (QRY-001: the mesh is const).
** Within one call, opq_poly_get_q keeps each tile's entry, view and link list in a small cache
** of the query object (the mesh cannot change during a call), so that a search resolves one
** reference per polygon read instead of three; its answers and errors are opq_poly_get's.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "query/query_internal.h"
#include "query/nearest_index.h"

/* QRY-022: the mesh's own error (MESH-016), renamed to the query's argument. */
op_status opq_poly_get(const op_mesh *m, op_ref ref, const char *field, opq_poly *out,
                       op_error *err) {
  op_mesh_tile te;
  op_status st = op_mesh_tile_by_ref(m, ref, &te, err);
  if (st == OP_OK) st = op_mesh_get_poly(m, ref, &out->flags, &out->area, err);
  if (st == OP_OK) st = op_mesh_poly_links(m, ref, &out->links, &out->nlinks, err);
  if (st != OP_OK) {
    if (err) snprintf(err->field, sizeof err->field, "%s", field);
    return st;
  }
  out->ref = ref;
  op_tile_view(te.tile, &out->v);
  uint32_t index = (uint32_t)(ref & 0xFFFFFu); /* MESH-010 */
  out->id.x = te.x, out->id.z = te.z, out->id.layer = te.layer, out->id.poly = index;
  out->p = &out->v.polys[index];
  out->n = out->p->nverts;
  opq_frame(out, te.x, te.z);
  return OP_OK;
}

/* QRY-010: FMT-005's x0, x1, z0, z1 (binary64, in its order) and FMT-008's fW. */
void opq_frame(opq_poly *P, int32_t tx, int32_t tz) {
  opq_tile_frame(&P->v, tx, tz, &P->x0, &P->z0, &P->x1, &P->z1, &P->fw);
  P->oy = P->v.origin_y;
}

void opq_begin(op_query *q) {
  q->epoch++;
}

op_status opq_poly_get_q(op_query *q, op_ref ref, const char *field, opq_poly *out,
                         op_error *err) {
  uint32_t slot = (uint32_t)(ref >> 20) & 0x3FFFFFu, gen = (uint32_t)(ref >> 42); /* MESH-010 */
  uint32_t index = (uint32_t)(ref & 0xFFFFFu);
  opq_tcache *c = &q->tc[slot & (OPQ_TCACHE - 1)];
  if (c->epoch != q->epoch || c->slot != slot || c->gen != gen) {
    if (op_mesh_tile_by_ref(q->mesh, ref, &c->te, NULL) != OP_OK ||
        op_mesh_tile_links(q->mesh, c->te.x, c->te.z, c->te.layer, &c->links, &c->nlinks, NULL) !=
            OP_OK) {
      c->epoch = 0;
      return opq_poly_get(q->mesh, ref, field, out, err); /* the error, by the slow path */
    }
    c->epoch = q->epoch, c->slot = slot, c->gen = gen;
    op_tile_view(c->te.tile, &c->v);
    opq_poly F;
    F.v = c->v;
    opq_frame(&F, c->te.x, c->te.z);
    c->x0 = F.x0, c->z0 = F.z0, c->x1 = F.x1, c->z1 = F.z1, c->fw = F.fw;
  }
  if (index >= c->te.npolys || op_mesh_get_poly(q->mesh, ref, &out->flags, &out->area, NULL))
    return opq_poly_get(q->mesh, ref, field, out, err);
  /* MESH-066: the polygon's run of its tile's links (sorted by polygon first, MESH-024) */
  uint32_t lo = 0, hi = c->nlinks;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (c->links[mid].poly < index) lo = mid + 1;
    else hi = mid;
  }
  uint32_t end = lo;
  while (end < c->nlinks && c->links[end].poly == index) end++;
  out->links = c->links + lo;
  out->nlinks = end - lo;
  out->ref = ref;
  out->v = c->v;
  out->id.x = c->te.x, out->id.z = c->te.z, out->id.layer = c->te.layer, out->id.poly = index;
  out->p = &out->v.polys[index];
  out->n = out->p->nverts;
  out->x0 = c->x0, out->z0 = c->z0, out->oy = c->v.origin_y;
  out->x1 = c->x1, out->z1 = c->z1, out->fw = c->fw;
  return OP_OK;
}

void opq_qpoly(const opq_poly *P, op_query_poly *out) {
  out->ref = P->ref;
  out->id = P->id;
}

op_status op_query_poly_id(const op_mesh *m, op_ref ref, op_poly_id *out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  opq_poly P;
  op_status st = opq_poly_get(m, ref, "poly", &P, err);
  if (st == OP_OK) *out = P.id;
  return st;
}

/* QRY-023 */
int op_poly_id_compare(const op_poly_id *a, const op_poly_id *b) {
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  if (a->z != b->z) return a->z < b->z ? -1 : 1;
  if (a->layer != b->layer) return a->layer < b->layer ? -1 : 1;
  if (a->poly != b->poly) return a->poly < b->poly ? -1 : 1;
  return 0;
}

/* QRY-020: finite, |v| <= 2^22; -0 taken as +0. */
op_status opq_check_coord(double v, const char *name, double *out, op_error *err) {
  if (!(v >= -4194304.0 && v <= 4194304.0))
    return op_fail_d(err, OP_E_RANGE, name, v, "must be finite with magnitude at most 2^22");
  *out = v == 0.0 ? 0.0 : v;
  return OP_OK;
}

op_status opq_check_pos(const double in[3], const char *name, double out[3], op_error *err) {
  if (!in) return op_fail(err, OP_E_ARGUMENT, name, "NULL", "%s is required", name);
  for (int k = 0; k < 3; k++) {
    if (in[k] >= -4194304.0 && in[k] <= 4194304.0) { /* the field name only on failure */
      out[k] = in[k] == 0.0 ? 0.0 : in[k];
      continue;
    }
    char f[48];
    snprintf(f, sizeof f, "%s[%d]", name, k);
    return opq_check_coord(in[k], f, &out[k], err);
  }
  return OP_OK;
}

/* ------------------------------------------------------------------ the query object */

/* QRY-060 */
op_status op_query_create(const op_mesh *m, uint32_t max_nodes, op_query **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  *out = NULL;
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (max_nodes < 1 || max_nodes > OP_QUERY_MAX_NODES)
    return op_fail_i(err, OP_E_RANGE, "max_nodes", (long long)max_nodes, "must be in [1, 65536]");
  op_query *q = calloc(1, sizeof *q);
  if (!q) return opc_nomem(err, "query");
  q->mesh = m;
  q->max_nodes = max_nodes;
  q->hcap = 1;
  while (q->hcap < 2 * max_nodes) q->hcap *= 2;
  q->nodes = malloc(sizeof *q->nodes * max_nodes);
  q->heap = malloc(sizeof *q->heap * max_nodes);
  q->hash = malloc(sizeof *q->hash * q->hcap);
  q->hstamp = calloc(q->hcap, sizeof *q->hstamp); /* stamp 0: every slot free */
  if (!q->nodes || !q->heap || !q->hash || !q->hstamp) {
    op_query_free(q);
    return opc_nomem(err, "query");
  }
  *out = q;
  return OP_OK;
}

void op_query_free(op_query *q) {
  if (!q) return;
  free(q->nodes);
  free(q->heap);
  free(q->hash);
  free(q->hstamp);
  free(q->polys);
  free(q->corners);
  opq_nidx_free(q->nidx);
  free(q->conns);
  free(q);
}
