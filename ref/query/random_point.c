/*
** random_point.c -- FindRandomPoint (spec/query-surface.md section 5, QSF-130 .. QSF-133; on
** spec/query.md and the PRNG of math.md): a point drawn uniformly by area over the
** polygons passing the filter: polygon areas by a written fan sum, a polygon chosen on the
** cumulative sum in canonical order, a fan triangle chosen the same way inside it, a point in
** the triangle by the square-root rule, then made inside the polygon.
*/
#include <math.h>

#include "core/internal.h"
#include "query/surface_internal.h"

/* QSF-131: the signed area of triangle (a, b, c) in the plane. */
static double tri_area(const double a[3], const double b[3], const double c[3]) {
  return ((b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0])) * 0.5;
}

/* QSF-131: the fan sum of P's triangle areas, i = 1 .. n-2. */
static double poly_area(const opq_poly *P) {
  double a[3], b[3], c[3], s = 0.0;
  opq_vert(P, 0, a);
  for (uint32_t i = 1; i + 1 < P->n; i++) {
    opq_vert(P, i, b);
    opq_vert(P, i + 1, c);
    s = s + tri_area(a, b, c);
  }
  return s;
}

/* QSF-132: walks the candidates in canonical order; with pick < 0 returns the total in *acc,
** else stops at the first whose cumulative area exceeds pick (the last one at worst). */
static op_status walk(const op_mesh *m, const op_query_filter *f, double pick, double *acc,
                      opq_poly *chosen, int *found, op_error *err) {
  uint32_t nt = op_mesh_tile_count(m);
  *acc = 0.0;
  for (uint32_t ti = 0; ti < nt; ti++) {
    op_mesh_tile te;
    opq_poly P;
    op_status st = op_mesh_tile_at_index(m, ti, &te, err);
    if (st) return st;
    opq_surf_frame(&te, &P);
    for (uint32_t i = 0; i < te.npolys; i++) {
      if ((st = opq_surf_poly(m, &te, i, &P, err))) return st;
      if (!op_query_filter_passes(f, P.flags)) continue;
      double a = poly_area(&P);
      if (!(a > 0.0)) continue;
      *acc = *acc + a;
      *chosen = P;
      *found = 1;
      if (pick >= 0.0 && pick < *acc) return OP_OK;
    }
  }
  return OP_OK;
}

/* QSF-133: the fan triangle by u2, the point by u3, u4. */
static void draw_point(const opq_poly *P, double area, op_prng *r, double out[3]) {
  double a[3], b[3], c[3], acc = 0.0, target = op_prng_unit(r) * area;
  opq_vert(P, 0, a);
  uint32_t pick = 0;
  for (uint32_t i = 1; i + 1 < P->n; i++) {
    opq_vert(P, i, b);
    opq_vert(P, i + 1, c);
    double t = tri_area(a, b, c);
    if (!(t > 0.0)) continue;
    acc = acc + t;
    pick = i;
    if (target < acc) break;
  }
  opq_vert(P, pick, b);
  opq_vert(P, pick + 1, c);
  double s = sqrt(op_prng_unit(r)), u4 = op_prng_unit(r);
  double w1 = s * (1.0 - u4), w2 = s * u4;
  out[0] = (a[0] + (b[0] - a[0]) * w1) + (c[0] - a[0]) * w2;
  out[2] = (a[2] + (b[2] - a[2]) * w1) + (c[2] - a[2]) * w2;
  opq_make_inside(P, out);
  out[1] = opq_height(P, out[0], out[2]);
}

/* QSF-130 */
op_status op_query_random_point(op_query *q, const op_query_filter *filter, op_prng *prng,
                                op_query_random *out, op_error *err) {
  if (!q) return op_fail(err, OP_E_ARGUMENT, "query", "NULL", "query is required");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  op_query_filter f;
  op_query_filter_init(&f);
  op_status st;
  if (filter) {
    if ((st = op_query_filter_check(filter, err))) return st;
    f = *filter;
  }
  if (!prng) return op_fail(err, OP_E_ARGUMENT, "prng", "NULL", "prng is required");
  double total;
  opq_poly P;
  out->found = 0;
  if ((st = walk(q->mesh, &f, -1.0, &total, &P, &out->found, err)) || !out->found) return st;
  double pick = op_prng_unit(prng) * total, acc;
  if ((st = walk(q->mesh, &f, pick, &acc, &P, &out->found, err))) return st;
  opq_qpoly(&P, &out->poly);
  draw_point(&P, poly_area(&P), prng, out->point);
  return OP_OK;
}
