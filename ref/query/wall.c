/*
** wall.c -- FindDistanceToWall (spec/query-surface.md section 6, QSF-140 .. QSF-143; on
** spec/query.md): a breadth-first search from the start polygon over the polygons whose
** portals come within the radius of the centre, in the written order of QSF-112; the wall
** point nearest the centre among their wall edges, its distance and the normal toward the
** centre.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/internal.h"
#include "query/surface_internal.h"

typedef struct wsearch {
  op_query *q;
  const op_query_filter *f;
  double c[3], r2;
  op_ref *refs;        /* nodes in creation order (the queue) */
  int32_t *hash;
  uint32_t n, cap, hmask;
  int truncated, found;
  double best[3], best_d;
} wsearch;

static uint32_t wslot(const wsearch *w, op_ref r) {
  uint32_t i = (uint32_t)((r * 0x9E3779B97F4A7C15ull) >> 32) & w->hmask;
  while (w->hash[i] >= 0 && w->refs[w->hash[i]] != r) i = (i + 1) & w->hmask;
  return i;
}

static void offer(wsearch *w, const opq_poly *P, const op_link *lk) {
  double L[3], R[3], x[3];
  opq_portal(P, lk, L, R);
  if (opq_seg_closest(R, L, w->c, x) > w->r2) return;
  uint32_t s = wslot(w, lk->target);
  if (w->hash[s] >= 0) return;
  if (w->n == w->cap) {
    w->truncated = 1;
    return;
  }
  w->refs[w->n] = lk->target;
  w->hash[s] = (int32_t)w->n++;
}

/* QSF-141: the wall edges and open links of P, edges in order. */
static void expand(wsearch *w, const opq_poly *P) {
  for (uint32_t j = 0; j < P->n; j++) {
    int open = 0;
    for (uint32_t k = 0; k < P->nlinks; k++) {
      const op_link *lk = &P->links[k];
      if (lk->edge != j || !opq_link_open(w->q, lk, w->f)) continue;
      open = 1;
      offer(w, P, lk);
    }
    if (open) continue;
    double a[3], b[3], x[3];
    opq_vert(P, j, a);
    opq_vert(P, (j + 1) % P->n, b);
    double d = opq_seg_closest(a, b, w->c, x);
    if (d <= w->r2 && (!w->found || d < w->best_d)) {
      w->found = 1;
      w->best_d = d;
      w->best[0] = x[0], w->best[1] = x[1], w->best[2] = x[2];
    }
  }
}

/* QSF-142 */
static op_status search(wsearch *w, op_error *err) {
  for (uint32_t i = 0; i < w->n; i++) {
    opq_poly P;
    op_status st = opq_poly_get_q(w->q, w->refs[i], "poly", &P, err);
    if (st) return st;
    expand(w, &P);
  }
  return OP_OK;
}

/* QSF-143 */
static void answer(const wsearch *w, double radius, op_query_wall *out) {
  out->found = w->found;
  out->nvisited = w->n;
  out->truncated = w->truncated;
  for (int k = 0; k < 3; k++) out->point[k] = out->normal[k] = 0.0;
  out->distance = radius;
  if (!w->found) return;
  out->distance = sqrt(w->best_d);
  for (int k = 0; k < 3; k++) out->point[k] = w->best[k];
  double dx = w->c[0] - w->best[0], dz = w->c[2] - w->best[2];
  double len = sqrt(dx * dx + dz * dz);
  if (len > 0.0) {
    out->normal[0] = dx / len + 0.0; /* -0 written as +0 */
    out->normal[2] = dz / len + 0.0;
  }
}

/* QSF-140: center, radius, filter, max_visited, poly, in this order. */
static op_status check(op_query *q, op_ref ref, const double center[3], double radius,
                       const op_query_filter *filter, uint32_t max_visited, wsearch *w,
                       op_query_filter *f, opq_poly *P, op_error *err) {
  if (!q) return op_fail(err, OP_E_ARGUMENT, "query", "NULL", "query is required");
  op_status st = opq_check_pos(center, "center", w->c, err);
  if (st) return st;
  if (!(radius > 0.0 && radius <= 4194304.0))
    return op_fail_d(err, OP_E_RANGE, "radius", radius, "must be finite and in (0, 2^22]");
  op_query_filter_init(f);
  if (filter) {
    if ((st = op_query_filter_check(filter, err))) return st;
    *f = *filter;
  }
  if (max_visited < 1 || max_visited > OP_QUERY_MAX_VISITED)
    return op_fail_i(err, OP_E_RANGE, "max_visited", (long long)max_visited,
                     "must be in [1, 65536]");
  opq_begin(q);
  if ((st = opq_poly_get_q(q, ref, "poly", P, err))) return st;
  if (!op_query_filter_passes(f, P->flags)) {
    char v[20];
    snprintf(v, sizeof v, "%016llx", (unsigned long long)ref);
    return op_fail(err, OP_E_ARGUMENT, "poly", v, "the start polygon does not pass the filter");
  }
  return OP_OK;
}

op_status op_query_distance_to_wall(op_query *q, op_ref start_ref, const double center[3],
                                    double radius, const op_query_filter *filter,
                                    uint32_t max_visited, op_query_wall *out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  wsearch w;
  op_query_filter f;
  opq_poly P;
  op_status st = check(q, start_ref, center, radius, filter, max_visited, &w, &f, &P, err);
  if (st) return st;
  w.q = q, w.f = &f, w.r2 = radius * radius, w.cap = max_visited, w.n = 0;
  w.truncated = 0, w.found = 0, w.best_d = 0.0;
  uint32_t hcap = 1;
  while (hcap < 2 * max_visited) hcap *= 2;
  w.hmask = hcap - 1;
  w.refs = malloc(sizeof *w.refs * max_visited);
  w.hash = malloc(sizeof *w.hash * hcap);
  if (!w.refs || !w.hash) {
    free(w.refs);
    free(w.hash);
    return opc_nomem(err, "query");
  }
  for (uint32_t i = 0; i < hcap; i++) w.hash[i] = -1;
  w.hash[wslot(&w, P.ref)] = 0;
  w.refs[w.n++] = P.ref;
  st = search(&w, err);
  if (!st) answer(&w, radius, out);
  free(w.refs);
  free(w.hash);
  return st;
}
