/*
** offmesh.c -- off-mesh connections (spec/query.md, "Off-mesh links": QRY-070): each off-mesh
** link slot of a tile (FMT-027) snapped at its start to the nearest polygon of its own tile and
** at its end to the nearest polygon of the mesh, within (radius, walkable_climb, radius), with
** no filter; one connection, or two when bidirectional. Made per query call from the tiles as
** they stand (the mesh stores none, MESH-025), so they are a function of the set of tiles.
** Find path (QRY-071) and straight path (QRY-072) read them by start polygon.
*/
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "query/query_internal.h"

typedef struct snap {
  int found;
  double d, q[3];
  op_ref ref;
} snap;

/* QRY-070 steps 1, 2: the nearest polygon of tile te to c in the box c +- h, every polygon a
** candidate (QRY-051 without the filter); polygons ascending, so equal distances keep the
** smaller id (QRY-052), tiles being visited in canonical order by the caller. */
static void snap_tile(const op_mesh_tile *te, const double c[3], const double h[3], snap *best) {
  opq_poly P;
  memset(&P, 0, sizeof P);
  op_tile_view(te->tile, &P.v);
  opq_frame(&P, te->x, te->z);
  P.id.x = te->x, P.id.z = te->z, P.id.layer = te->layer;
  for (uint32_t i = 0; i < te->npolys; i++) {
    P.p = &P.v.polys[i];
    P.n = P.p->nverts;
    P.id.poly = i;
    P.ref = te->base + i; /* MESH-010 */
    double q[3];
    opq_closest(&P, c, q);
    int in = 1;
    for (int k = 0; k < 3; k++)
      if (!(c[k] - h[k] <= q[k] && q[k] <= c[k] + h[k])) in = 0;
    if (!in) continue;
    double d = opq_dist2(c, q);
    if (!best->found || d < best->d) {
      best->found = 1, best->d = d, best->ref = P.ref;
      memcpy(best->q, q, sizeof best->q);
    }
  }
}

static op_status push(op_query *q, const snap *f, const snap *t, const op_offmesh_desc *o,
                      op_error *err) {
  if (q->nconns == q->cap_conns) {
    uint32_t nc = q->cap_conns ? 2 * q->cap_conns : 16;
    opq_conn *c = realloc(q->conns, sizeof *c * nc);
    if (!c) return opc_nomem(err, "query");
    q->conns = c;
    q->cap_conns = nc;
  }
  opq_conn *c = &q->conns[q->nconns];
  c->from = f->ref, c->to = t->ref, c->seq = q->nconns++;
  memcpy(c->a, f->q, sizeof c->a);
  memcpy(c->b, t->q, sizeof c->b);
  c->flags = o->flags, c->area = o->area, c->user_id = o->user_id;
  return OP_OK;
}

/* QRY-070 steps 1 to 3 for slot o of tile te (its frame in T). */
static op_status connect(op_query *q, const op_mesh_tile *te, const opq_poly *T,
                         const op_offmesh_desc *o, double climb, op_error *err) {
  double S[3], E[3], h[3] = {(double)o->radius, climb, (double)o->radius};
  opq_local(T, o->start, S); /* QRY-010 */
  opq_local(T, o->end, E);
  snap a = {0, 0.0, {0, 0, 0}, 0}, b = {0, 0.0, {0, 0, 0}, 0};
  snap_tile(te, S, h, &a);
  if (!a.found) return OP_OK;
  uint32_t nt = op_mesh_tile_count(q->mesh);
  for (uint32_t ti = 0; ti < nt; ti++) {
    op_mesh_tile e2;
    op_status st = op_mesh_tile_at_index(q->mesh, ti, &e2, err);
    if (st) return st;
    snap_tile(&e2, E, h, &b);
  }
  if (!b.found || a.ref == b.ref) return OP_OK;
  op_status st = push(q, &a, &b, o, err);
  if (!st && o->bidirectional) st = push(q, &b, &a, o, err);
  return st;
}

static int conn_cmp(const void *x, const void *y) {
  const opq_conn *a = x, *b = y;
  if (a->from != b->from) return a->from < b->from ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

op_status opq_conns_build(op_query *q, op_error *err) {
  q->nconns = 0;
  if (op_mesh_offmesh_count(q->mesh) == 0) return OP_OK; /* no slot: no connection */
  op_mesh_params mp;
  op_mesh_get_params(q->mesh, &mp);
  uint32_t nt = op_mesh_tile_count(q->mesh);
  for (uint32_t ti = 0; ti < nt; ti++) { /* MESH-061: canonical order */
    op_mesh_tile te;
    op_status st = op_mesh_tile_at_index(q->mesh, ti, &te, err);
    if (st) return st;
    opq_poly T;
    memset(&T, 0, sizeof T);
    op_tile_view(te.tile, &T.v);
    if (T.v.noffmesh == 0) continue;
    opq_frame(&T, te.x, te.z);
    for (uint32_t k = 0; k < T.v.noffmesh; k++)
      if ((st = connect(q, &te, &T, &T.v.offmesh[k], mp.walkable_climb, err))) return st;
  }
  if (q->nconns > 1) qsort(q->conns, q->nconns, sizeof *q->conns, conn_cmp);
  return OP_OK;
}

uint32_t opq_conn_first(const op_query *q, op_ref ref) {
  uint32_t lo = 0, hi = q->nconns;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (q->conns[mid].from < ref) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* QRY-072 (query_internal.h) */
int32_t opq_conn_to(op_query *q, const opq_poly *P, op_ref to, int *built, op_status *st,
                    op_error *err) {
  if (!*built) {
    *built = 1;
    if ((*st = opq_conns_build(q, err))) return -1;
  }
  for (uint32_t c = opq_conn_first(q, P->ref); c < q->nconns && q->conns[c].from == P->ref; c++)
    if (q->conns[c].to == to) return (int32_t)c;
  return -1;
}
