/*
** surface.c -- what the surface queries share (spec/query-surface.md section 1, on spec/query.md): the
** argument checks in their order (QSF-101), the links a walk may take (QSF-102), a polygon's
** centre and the rule that makes an answer point inside its polygon (QSF-115).
*/
#include <stdio.h>

#include "core/internal.h"
#include "query/surface_internal.h"

/* QSF-101 */
op_status opq_surf_args(op_query *q, op_ref ref, const double start[3], const double end[3],
                        const op_query_filter *filter, const op_query_poly *visited,
                        uint32_t max_visited, double s[3], double e[3], op_query_filter *f,
                        opq_poly *P, op_error *err) {
  if (!q) return op_fail(err, OP_E_ARGUMENT, "query", "NULL", "query is required");
  op_status st = opq_check_pos(start, "start", s, err);
  if (!st) st = opq_check_pos(end, "end", e, err);
  if (st) return st;
  if (!filter) {
    op_query_filter_init(f);
  } else {
    if ((st = op_query_filter_check(filter, err))) return st;
    *f = *filter;
  }
  if (max_visited < 1 || max_visited > OP_QUERY_MAX_VISITED)
    return op_fail_i(err, OP_E_RANGE, "max_visited", (long long)max_visited,
                     "must be in [1, 65536]");
  if (!visited) return op_fail(err, OP_E_ARGUMENT, "visited", "NULL", "visited is required");
  opq_begin(q);
  if ((st = opq_poly_get_q(q, ref, "poly", P, err))) return st;
  if (!op_query_filter_passes(f, P->flags)) {
    char v[20];
    snprintf(v, sizeof v, "%016llx", (unsigned long long)ref);
    return op_fail(err, OP_E_ARGUMENT, "poly", v, "the start polygon does not pass the filter");
  }
  return OP_OK;
}

/* QSF-102: a link (MESH-020, MESH-021) whose target passes the filter. The walks of this
** file read only the links of a polygon (opq_poly's links), never the off-mesh connections
** of offmesh.c (QRY-070): those are find path's and straight path's alone. */
int opq_link_open(const op_query *q, const op_link *lk, const op_query_filter *f) {
  uint16_t flags;
  uint8_t area;
  if (op_mesh_get_poly(q->mesh, lk->target, &flags, &area, NULL) != OP_OK) return 0;
  return op_query_filter_passes(f, flags);
}

/* QSF-115: the first of p + (C - p)·f, f = 2^-40, 2^-30, 2^-20, 2^-10, 0.5, that is inside,
** else vertex 0. */
void opq_make_inside(const opq_poly *P, double p[3]) {
  static const double fs[5] = {0x1p-40, 0x1p-30, 0x1p-20, 0x1p-10, 0.5};
  if (opq_inside(P, p)) return;
  double c[3], t[3] = {0.0, 0.0, 0.0};
  opq_centre(P, c);
  for (int k = 0; k < 5; k++) {
    t[0] = p[0] + (c[0] - p[0]) * fs[k];
    t[2] = p[2] + (c[2] - p[2]) * fs[k];
    if (opq_inside(P, t)) {
      p[0] = t[0], p[2] = t[2];
      return;
    }
  }
  opq_vert(P, 0, t);
  p[0] = t[0], p[2] = t[2];
}

/* A tile's frame for reading its polygons in index order (QRY-010, FMT-005). */
void opq_surf_frame(const op_mesh_tile *te, opq_poly *P) {
  op_tile_view(te->tile, &P->v);
  opq_frame(P, te->x, te->z); /* x0, x1, z0, z1, fW, origin_y */
  P->id.x = te->x, P->id.z = te->z, P->id.layer = te->layer;
  P->links = NULL;
  P->nlinks = 0;
}

/* Polygon i of the tile framed in P, with its current flags and area (MESH-030). */
op_status opq_surf_poly(const op_mesh *m, const op_mesh_tile *te, uint32_t i, opq_poly *P,
                        op_error *err) {
  P->p = &P->v.polys[i];
  P->n = P->p->nverts;
  P->id.poly = i;
  P->ref = te->base + i; /* MESH-010 */
  return op_mesh_get_poly(m, P->ref, &P->flags, &P->area, err);
}
