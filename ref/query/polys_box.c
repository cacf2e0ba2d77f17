/*
** polys_box.c -- QueryPolygons (spec/query-surface.md section 4, QSF-120 .. QSF-122; on
** spec/query.md): the polygons passing the filter whose bounds meet a box, in canonical-id
** order, with a cap and a truncation flag.
**
** Tiles are read in canonical order (MESH-061) and polygons in index order, which is the
** canonical-id order of QRY-023, so the answer is a prefix of that order.
*/
#include "core/internal.h"
#include "query/surface_internal.h"

/* QSF-121: P's world bounds meet the closed box [lo, hi]. */
static int meets(const opq_poly *P, const double lo[3], const double hi[3]) {
  double mn[3] = {0, 0, 0}, mx[3] = {0, 0, 0}, v[3];
  for (uint32_t k = 0; k < P->n; k++) {
    opq_vert(P, k, v);
    for (int a = 0; a < 3; a++) {
      if (k == 0 || v[a] < mn[a]) mn[a] = v[a];
      if (k == 0 || v[a] > mx[a]) mx[a] = v[a];
    }
  }
  for (int a = 0; a < 3; a++)
    if (mx[a] < lo[a] || mn[a] > hi[a]) return 0;
  return 1;
}

static op_status collect(const op_mesh *m, const double lo[3], const double hi[3],
                         const op_query_filter *f, op_query_poly *polys, uint32_t max_polys,
                         uint32_t *n, int *truncated, op_error *err) {
  uint32_t nt = op_mesh_tile_count(m);
  for (uint32_t ti = 0; ti < nt; ti++) {
    op_mesh_tile te;
    opq_poly P;
    op_status st = op_mesh_tile_at_index(m, ti, &te, err);
    if (st) return st;
    opq_surf_frame(&te, &P);
    for (uint32_t i = 0; i < te.npolys; i++) {
      if ((st = opq_surf_poly(m, &te, i, &P, err))) return st;
      if (!op_query_filter_passes(f, P.flags) || !meets(&P, lo, hi)) continue;
      if (*n == max_polys) { /* QSF-122 */
        *truncated = 1;
        return OP_OK;
      }
      opq_qpoly(&P, &polys[(*n)++]);
    }
  }
  return OP_OK;
}

/* QSF-120 */
op_status op_query_polys_in_box(op_query *q, const double center[3], const double half_extents[3],
                                const op_query_filter *filter, op_query_poly *polys,
                                uint32_t max_polys, uint32_t *npolys, int *truncated,
                                op_error *err) {
  if (!q) return op_fail(err, OP_E_ARGUMENT, "query", "NULL", "query is required");
  if (!npolys || !truncated) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  double c[3], lo[3], hi[3];
  op_status st = opq_check_pos(center, "center", c, err);
  if (st) return st;
  if (!half_extents) return op_fail(err, OP_E_ARGUMENT, "half_extents", "NULL", "required");
  static const char *const names[3] = {"half_extents[0]", "half_extents[1]", "half_extents[2]"};
  for (int k = 0; k < 3; k++) { /* QRY-021 */
    double v = half_extents[k];
    if (!(v > 0.0 && v <= 4194304.0))
      return op_fail_d(err, OP_E_RANGE, names[k], v, "must be finite and in (0, 2^22]");
    lo[k] = c[k] - v;
    hi[k] = c[k] + v;
  }
  op_query_filter f;
  op_query_filter_init(&f);
  if (filter) {
    if ((st = op_query_filter_check(filter, err))) return st;
    f = *filter;
  }
  if (max_polys < 1 || max_polys > OP_QUERY_MAX_POLYS)
    return op_fail_i(err, OP_E_RANGE, "max_polys", (long long)max_polys, "must be in [1, 65536]");
  if (!polys) return op_fail(err, OP_E_ARGUMENT, "polys", "NULL", "polys is required");
  *npolys = 0;
  *truncated = 0;
  return collect(q->mesh, lo, hi, &f, polys, max_polys, npolys, truncated, err);
}
