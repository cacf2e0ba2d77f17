/*
** raycast.c -- RayCast along the surface (spec/query-surface.md section 2, QSF-103 .. QSF-108;
** built on spec/query.md): from a start point inside a start polygon toward an end point in the ground
** plane, polygon by polygon through the links the filter allows, until the end point is
** inside the polygon reached (end), no link takes the ray on (wall) or the visited list is
** full (limit).
**
** QRY-014: which edge the ray leaves by and whether a link's portal holds the crossing are
** exact signs (QRY-011) of the vertices and portal ends against the line from start to end;
** the hit parameter, normal and cost are binary64 in the written order.
*/
#include <math.h>
#include <stdio.h>

#include "core/internal.h"
#include "query/surface_internal.h"

const char *op_ray_status_name(op_ray_status s) {
  switch (s) {
  case OP_RAY_END: return "end";
  case OP_RAY_WALL: return "wall";
  case OP_RAY_LIMIT: return "limit";
  }
  return "";
}

typedef struct ray {
  op_query *q;
  const op_query_filter *f;
  double s[3], e[3];
  int with_costs;
} ray;

/* QSF-104: the candidate exit edges of P in the order they are tried; returns their count. */
static uint32_t exit_order(const ray *r, const opq_poly *P, double (*v)[3], uint32_t *order) {
  int side[OP_MAX_VERTS_PER_POLY];
  uint32_t n = P->n, k = 0;
  for (uint32_t j = 0; j < n; j++) {
    opq_vert(P, j, v[j]);
    side[j] = opq_orient(r->s, r->e, v[j]);
  }
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t j = 0; j < n; j++) {
      uint32_t b = (j + 1) % n;
      if (side[j] > 0 || side[b] < 0) continue;
      if ((pass == 0) != (side[b] > 0)) continue;
      if (opq_orient(v[j], v[b], r->e) < 0) order[k++] = j;
    }
  }
  return k;
}

/* QSF-105: the parameter where the ray meets the line of edge a -> b, at least t_in. */
static double edge_t(const ray *r, const double a[3], const double b[3], double t_in) {
  double dx = r->e[0] - r->s[0], dz = r->e[2] - r->s[2];
  double ux = b[0] - a[0], uz = b[2] - a[2];
  double den = dx * uz - dz * ux;
  double num = (a[0] - r->s[0]) * uz - (a[2] - r->s[2]) * ux;
  double t = den != 0.0 ? num / den : 0.0;
  if (t > 1.0) t = 1.0;
  if (t < t_in) t = t_in;
  return t;
}

/* QSF-103: the first link of edge j (canonical order) that is open and holds the crossing. */
static const op_link *take_link(const ray *r, const opq_poly *P, uint32_t j) {
  for (uint32_t i = 0; i < P->nlinks; i++) {
    const op_link *lk = &P->links[i];
    if (lk->edge != j || !opq_link_open(r->q, lk, r->f)) continue;
    double L[3], R[3];
    opq_portal(P, lk, L, R);
    if (opq_orient(r->s, r->e, R) <= 0 && opq_orient(r->s, r->e, L) >= 0) return lk;
  }
  return NULL;
}

/* QSF-107: the ray's point at t. */
static void at(const ray *r, double t, double p[3]) {
  p[0] = r->s[0] + (r->e[0] - r->s[0]) * t;
  p[1] = r->s[1] + (r->e[1] - r->s[1]) * t;
  p[2] = r->s[2] + (r->e[2] - r->s[2]) * t;
}

static double seg_cost(const ray *r, const opq_poly *P, double ta, double tb) {
  if (!r->with_costs) return 0.0;
  double a[3], b[3];
  at(r, ta, a);
  at(r, tb, b);
  return opq_dist(a, b) * r->f->area_cost[P->area];
}

/* QSF-106: the hit edge's unit normal, pointing into P. */
static void wall(op_query_ray *out, const double a[3], const double b[3]) {
  double ux = b[0] - a[0], uz = b[2] - a[2];
  double len = sqrt(ux * ux + uz * uz);
  out->normal[0] = len > 0.0 ? -uz / len : 0.0;
  out->normal[1] = 0.0;
  out->normal[2] = len > 0.0 ? ux / len : 0.0;
  if (out->normal[0] == 0.0) out->normal[0] = 0.0; /* -0 written as +0 */
  if (out->normal[2] == 0.0) out->normal[2] = 0.0;
}

/* QSF-104 fallback: the lowest edge with the end strictly outside its line. */
static uint32_t lowest_outside(const ray *r, double (*v)[3], uint32_t n) {
  for (uint32_t j = 0; j < n; j++)
    if (opq_orient(v[j], v[(j + 1) % n], r->e) < 0) return j;
  return 0;
}

/* QSF-103 .. QSF-106: the walk. */
static op_status walk(ray *r, opq_poly *P, op_query_poly *visited, uint32_t max_visited,
                      op_query_ray *out, op_error *err) {
  double t_in = 0.0, v[OP_MAX_VERTS_PER_POLY][3];
  uint32_t order[2 * OP_MAX_VERTS_PER_POLY];
  opq_qpoly(P, &visited[0]);
  out->npolys = 1;
  for (;;) {
    if (opq_inside(P, r->e)) {
      out->status = OP_RAY_END;
      out->t = 1.0;
      out->cost += seg_cost(r, P, t_in, 1.0);
      return OP_OK;
    }
    uint32_t nc = exit_order(r, P, v, order), j = 0;
    const op_link *lk = NULL;
    for (uint32_t c = 0; c < nc && !lk; c++) lk = take_link(r, P, j = order[c]);
    if (!lk) {
      j = nc > 0 ? order[0] : lowest_outside(r, v, P->n);
      double t = edge_t(r, v[j], v[(j + 1) % P->n], t_in);
      out->status = OP_RAY_WALL;
      out->t = t;
      out->edge = j;
      wall(out, v[j], v[(j + 1) % P->n]);
      out->cost += seg_cost(r, P, t_in, t);
      return OP_OK;
    }
    double t = edge_t(r, v[j], v[(j + 1) % P->n], t_in);
    out->cost += seg_cost(r, P, t_in, t);
    if (out->npolys == max_visited) {
      out->status = OP_RAY_LIMIT;
      out->t = t;
      return OP_OK;
    }
    op_status st = opq_poly_get_q(r->q, lk->target, "poly", P, err);
    if (st) return st;
    opq_qpoly(P, &visited[out->npolys++]);
    t_in = t;
  }
}

/* QSF-101 .. QSF-103 */
op_status op_query_raycast(op_query *q, op_ref start_ref, const double start[3],
                           const double end[3], const op_query_filter *filter, int with_costs,
                           op_query_poly *visited, uint32_t max_visited, op_query_ray *out,
                           op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  ray r;
  op_query_filter f;
  opq_poly P;
  op_status st = opq_surf_args(q, start_ref, start, end, filter, visited, max_visited, r.s, r.e,
                               &f, &P, err);
  if (st) return st;
  if (!opq_inside(&P, r.s)) { /* QSF-103 */
    char a[32], b[32], c[32], val[100];
    op_format_double(a, sizeof a, r.s[0]);
    op_format_double(b, sizeof b, r.s[1]);
    op_format_double(c, sizeof c, r.s[2]);
    snprintf(val, sizeof val, "%s,%s,%s", a, b, c);
    return op_fail(err, OP_E_ARGUMENT, "start", val, "the start is not inside the start polygon");
  }
  r.q = q, r.f = &f, r.with_costs = with_costs != 0;
  out->status = OP_RAY_END;
  out->t = 0.0, out->edge = 0, out->npolys = 0, out->cost = 0.0;
  out->normal[0] = out->normal[1] = out->normal[2] = 0.0;
  return walk(&r, &P, visited, max_visited, out, err);
}
