/*
** nearest.c -- FindNearestPoly (spec/query.md, section 6: QRY-050 .. QRY-052): the polygon
** passing the filter whose closest point to the centre lies in the search box and is nearest
** (Euclidean, the vertical included), ties to the smallest canonical id.
**
** Tiles are visited in canonical order and pruned by their extent and by each polygon's
** bounding box with a margin of 2^-10 world units, far above the rounding of a closest point
** (coordinates are at most 2^23, so an ulp is at most 2^-29): pruning never drops a candidate,
** and the result is the one QRY-052 defines over all polygons.
*/
#include "query/query_internal.h"

#define MARGIN 0x1p-10

static int outside(double mn, double mx, double lo, double hi) {
  return mx < lo - MARGIN || mn > hi + MARGIN;
}

op_status opq_nearest(const op_mesh *m, const double c[3], const double h[3],
                      const op_query_filter *f, op_query_nearest *out, op_error *err) {
  double lo[3], hi[3];
  for (int k = 0; k < 3; k++) { /* QRY-050 */
    lo[k] = c[k] - h[k];
    hi[k] = c[k] + h[k];
  }
  out->found = 0;
  double best = 0.0;
  uint32_t nt = op_mesh_tile_count(m);
  for (uint32_t ti = 0; ti < nt; ti++) {
    op_mesh_tile te;
    op_status st = op_mesh_tile_at_index(m, ti, &te, err);
    if (st) return st;
    opq_poly P;
    op_tile_view(te.tile, &P.v);
    opq_frame(&P, te.x, te.z); /* QRY-010: world x of local [0, fW] within [x0, max(x0 + fW, x1)] */
    double xm = P.x0 + (double)P.fw, zm = P.z0 + (double)P.fw;
    if (outside(P.x0, xm > P.x1 ? xm : P.x1, lo[0], hi[0]) ||
        outside(P.z0, zm > P.z1 ? zm : P.z1, lo[2], hi[2]))
      continue;
    P.id.x = te.x, P.id.z = te.z, P.id.layer = te.layer;
    P.links = NULL;
    P.nlinks = 0;
    for (uint32_t i = 0; i < te.npolys; i++) {
      P.p = &P.v.polys[i];
      P.n = P.p->nverts;
      P.id.poly = i;
      P.ref = te.base + i; /* MESH-010 */
      double mn[3] = {0, 0, 0}, mx[3] = {0, 0, 0}, v[3];
      for (uint32_t k = 0; k < P.n; k++) {
        opq_vert(&P, k, v);
        for (int a = 0; a < 3; a++) {
          if (k == 0 || v[a] < mn[a]) mn[a] = v[a];
          if (k == 0 || v[a] > mx[a]) mx[a] = v[a];
        }
      }
      if (outside(mn[0], mx[0], lo[0], hi[0]) || outside(mn[2], mx[2], lo[2], hi[2])) continue;
      if (op_mesh_get_poly(m, P.ref, &P.flags, &P.area, NULL) != OP_OK &&
          (st = op_mesh_get_poly(m, P.ref, &P.flags, &P.area, err)))
        return st;
      if (!op_query_filter_passes(f, P.flags)) continue; /* QRY-031 */
      double q[3];
      opq_closest(&P, c, q); /* QRY-051 */
      int in = 1;
      for (int a = 0; a < 3; a++)
        if (!(lo[a] <= q[a] && q[a] <= hi[a])) in = 0;
      if (!in) continue;
      double d = opq_dist2(c, q);
      /* QRY-052: least distance, then smallest canonical id (tiles and polygons are visited
      ** in canonical order, so on equal distances the first one stays) */
      if (!out->found || d < best) {
        out->found = 1;
        best = d;
        opq_qpoly(&P, &out->poly);
        out->point[0] = q[0], out->point[1] = q[1], out->point[2] = q[2];
      }
    }
  }
  return OP_OK;
}

/* QRY-050: center, half_extents, filter, in this order. */
op_status op_query_nearest_poly(op_query *q, const double center[3], const double half_extents[3],
                                const op_query_filter *filter, op_query_nearest *out,
                                op_error *err) {
  if (!q) return op_fail(err, OP_E_ARGUMENT, "query", "NULL", "query is required");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  double c[3], h[3];
  op_status st = opq_check_pos(center, "center", c, err);
  if (st) return st;
  if (!half_extents) return op_fail(err, OP_E_ARGUMENT, "half_extents", "NULL", "required");
  static const char *const names[3] = {"half_extents[0]", "half_extents[1]", "half_extents[2]"};
  for (int k = 0; k < 3; k++) { /* QRY-021 */
    double v = half_extents[k];
    if (!(v > 0.0 && v <= 4194304.0))
      return op_fail_d(err, OP_E_RANGE, names[k], v, "must be finite and in (0, 2^22]");
    h[k] = v;
  }
  op_query_filter def;
  if (!filter) {
    op_query_filter_init(&def);
    filter = &def;
  } else if ((st = op_query_filter_check(filter, err))) {
    return st;
  }
  return opq_nearest(q->mesh, c, h, filter, out, err);
}
