/*
** corridor.c -- the path corridor object (spec/query-corridor.md, QCR): its state, the common
** checks, the merges at the head and the tail, the splice, Reset, Set, IsValid and Fix. The
** moves, corners, optimisations and Replan are in corridor_ops.c. Built on spec/query.md and
** spec/query-surface.md (closest points, the inside rule, find path and straight path).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "query/corridor_internal.h"

/* QCR-201 */
op_status op_corridor_create(uint32_t max_path, op_corridor **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  *out = NULL;
  if (max_path < 1 || max_path > OP_CORRIDOR_MAX_PATH)
    return op_fail_i(err, OP_E_RANGE, "max_path", (long long)max_path, "must be in [1, 65536]");
  op_corridor *c = calloc(1, sizeof *c);
  if (!c) return opc_nomem(err, "corridor");
  c->max_path = max_path;
  c->polys = malloc(sizeof *c->polys * max_path);
  c->tmp = malloc(sizeof *c->tmp * max_path);
  if (!c->polys || !c->tmp) {
    op_corridor_free(c);
    return opc_nomem(err, "corridor");
  }
  *out = c;
  return OP_OK;
}

void op_corridor_free(op_corridor *c) {
  if (!c) return;
  free(c->polys);
  free(c->tmp);
  free(c);
}

/* QCR-260 */
void op_corridor_state_get(const op_corridor *c, op_corridor_state *out) {
  memcpy(out->position, c->pos, sizeof c->pos);
  memcpy(out->target, c->target, sizeof c->target);
  out->polys = c->polys;
  out->npolys = c->n;
  out->max_path = c->max_path;
}

/* QCR-202: the corridor and query given, and (need) the corridor not empty. */
op_status opq_cor_begin(op_corridor *c, op_query *q, int need, op_error *err) {
  if (!c) return op_fail(err, OP_E_ARGUMENT, "corridor", "NULL", "corridor is required");
  if (!q) return op_fail(err, OP_E_ARGUMENT, "query", "NULL", "query is required");
  if (need && c->n == 0)
    return op_fail(err, OP_E_ARGUMENT, "corridor", "empty", "the corridor has no polygon");
  return OP_OK;
}

/* QRY-033 (the default filter for NULL). */
op_status opq_cor_filter(const op_query_filter *in, op_query_filter *f, op_error *err) {
  if (!in) {
    op_query_filter_init(f);
    return OP_OK;
  }
  op_status st = op_query_filter_check(in, err);
  if (!st) *f = *in;
  return st;
}

/* QCR-220: c[k] resolves and passes f; field path[k]. */
op_status opq_cor_end_poly(op_query *q, const op_corridor *c, uint32_t k,
                           const op_query_filter *f, opq_poly *P, op_error *err) {
  char name[32];
  snprintf(name, sizeof name, "path[%u]", (unsigned)k);
  op_status st = opq_poly_get_q(q, c->polys[k].ref, name, P, err);
  if (st) return st;
  if (!op_query_filter_passes(f, P->flags)) {
    char v[20];
    snprintf(v, sizeof v, "%016llx", (unsigned long long)P->ref);
    return op_fail(err, OP_E_ARGUMENT, name, v, "the polygon does not pass the filter");
  }
  return OP_OK;
}

/* QCR-203: the head point of P from p. */
void opq_cor_head_point(const opq_poly *P, const double p[3], double out[3]) {
  opq_closest(P, p, out);
  opq_make_inside(P, out);
  out[1] = opq_height(P, out[0], out[2]);
}

/* Appends src[0 .. cnt-1] (step +1, or -1 from src backwards) to tmp, cutting at max_path
** (QCR-204). */
static void put(op_corridor *c, uint32_t *k, const op_query_poly *src, uint32_t cnt, int back,
                int *cut) {
  for (uint32_t t = 0; t < cnt; t++) {
    if (*k == c->max_path) {
      *cut = 1;
      return;
    }
    c->tmp[(*k)++] = back ? *(src - t) : src[t];
  }
}

static void commit(op_corridor *c, uint32_t k) {
  op_query_poly *p = c->polys;
  c->polys = c->tmp;
  c->tmp = p;
  c->n = k;
}

/* The least j with V[j] = r, or m. */
static uint32_t in_route(const op_query_poly *V, uint32_t m, op_ref r) {
  uint32_t j = 0;
  while (j < m && V[j].ref != r) j++;
  return j;
}

/* QCR-221: the greatest i with c[i] in V, j the least with V[j] = c[i]; the list becomes
** V[m-1] .. V[j], then c[i+1 ..]. V[0] = c[0]. */
void opq_cor_merge_head(op_corridor *c, const op_query_poly *V, uint32_t m, int *cut) {
  uint32_t i = c->n, j = m;
  while (i > 0 && j == m) j = in_route(V, m, c->polys[--i].ref);
  if (j == m) return; /* not reached: V[0] = c[0] */
  uint32_t k = 0;
  *cut = 0;
  put(c, &k, &V[m - 1], m - j, 1, cut);
  put(c, &k, &c->polys[i + 1], c->n - (i + 1), 0, cut);
  commit(c, k);
}

/* QCR-222: the least i with c[i] in V, j the least with V[j] = c[i]; the list becomes c[0 ..
** i], then V[j+1 ..]. V[0] = c[n-1]. */
void opq_cor_merge_tail(op_corridor *c, const op_query_poly *V, uint32_t m, int *cut) {
  uint32_t i = 0, j = m;
  for (; i < c->n; i++)
    if ((j = in_route(V, m, c->polys[i].ref)) < m) break;
  if (j == m) return; /* not reached: V[0] = c[n-1] */
  uint32_t k = 0;
  *cut = 0;
  put(c, &k, c->polys, i + 1, 0, cut);
  put(c, &k, &V[j + 1], m - (j + 1), 0, cut);
  commit(c, k);
}

/* QCR-242: the greatest i with c[i] in V, j the least with V[j] = c[i]; j = 0: nothing; else
** V[0 .. j-1], then c[i ..]. Returns spliced. */
int opq_cor_splice(op_corridor *c, const op_query_poly *V, uint32_t m, int *cut) {
  uint32_t i = c->n, j = m;
  while (i > 0 && j == m) j = in_route(V, m, c->polys[--i].ref);
  if (j == m || j == 0) return 0;
  uint32_t k = 0;
  *cut = 0;
  put(c, &k, V, j, 0, cut);
  put(c, &k, &c->polys[i], c->n - i, 0, cut);
  commit(c, k);
  return 1;
}

/* QCR-210 */
op_status op_corridor_reset(op_corridor *c, op_query *q, op_ref poly, const double pos[3],
                            op_error *err) {
  op_status st = opq_cor_begin(c, q, 0, err);
  double p[3];
  if (!st) st = opq_check_pos(pos, "pos", p, err);
  if (st) return st;
  opq_begin(q);
  opq_poly P;
  if ((st = opq_poly_get_q(q, poly, "poly", &P, err))) return st;
  opq_qpoly(&P, &c->polys[0]);
  c->n = 1;
  opq_cor_head_point(&P, p, c->pos);
  memcpy(c->target, c->pos, sizeof c->pos);
  return OP_OK;
}

/* QCR-211 */
op_status op_corridor_set(op_corridor *c, op_query *q, const double start[3],
                          const double end[3], const op_ref *path, uint32_t npath,
                          op_error *err) {
  op_status st = opq_cor_begin(c, q, 0, err);
  if (st) return st;
  const op_query_corner *corners;
  uint32_t nc;
  /* QRY-080's checks, in its order (the corners themselves are not used) */
  st = op_query_straight_path(q, start, end, path, npath, OP_CROSS_NONE, OP_QUERY_MAX_CORNERS,
                              &corners, &nc, err);
  if (st) return st;
  if (npath > c->max_path)
    return op_fail_i(err, OP_E_LIMIT, "path", (long long)npath,
                     "the path is longer than the corridor's max_path");
  double s[3], e[3];
  opq_check_pos(start, "start", s, err); /* passed above: -0 made +0 */
  opq_check_pos(end, "end", e, err);
  opq_begin(q);
  opq_poly P;
  for (uint32_t i = 0; i < npath; i++) {
    if ((st = opq_poly_get_q(q, path[i], "path", &P, err))) return st; /* resolved above */
    opq_qpoly(&P, &c->tmp[i]);
    if (i == 0) opq_cor_head_point(&P, s, c->pos);
  }
  opq_closest(&P, e, c->target);
  commit(c, npath);
  return OP_OK;
}

const char *op_corridor_reason_name(op_corridor_reason r) {
  switch (r) {
  case OP_CORRIDOR_STALE: return "stale";
  case OP_CORRIDOR_FILTERED: return "filtered";
  default: return "";
  }
}

/* QCR-250, QCR-251: the first invalid polygon among c[0 .. N-1], or N. */
uint32_t opq_cor_first_invalid(op_query *q, const op_corridor *c, uint32_t N,
                               const op_query_filter *f, op_corridor_reason *reason) {
  opq_poly P;
  op_error scratch;
  for (uint32_t i = 0; i < N; i++) {
    if (opq_poly_get_q(q, c->polys[i].ref, "path", &P, &scratch)) {
      *reason = OP_CORRIDOR_STALE;
      return i;
    }
    if (!op_query_filter_passes(f, P.flags)) {
      *reason = OP_CORRIDOR_FILTERED;
      return i;
    }
  }
  *reason = OP_CORRIDOR_OK;
  return N;
}

/* QCR-251 */
op_status op_corridor_is_valid(op_corridor *c, op_query *q, uint32_t max_look_ahead,
                               const op_query_filter *filter, op_corridor_validity *out,
                               op_error *err) {
  op_status st = opq_cor_begin(c, q, 1, err);
  if (st) return st;
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  if (max_look_ahead < 1 || max_look_ahead > OP_CORRIDOR_MAX_PATH)
    return op_fail_i(err, OP_E_RANGE, "max_look_ahead", (long long)max_look_ahead,
                     "must be in [1, 65536]");
  op_query_filter f;
  if ((st = opq_cor_filter(filter, &f, err))) return st;
  opq_begin(q);
  uint32_t N = max_look_ahead < c->n ? max_look_ahead : c->n;
  out->checked = N;
  out->index = opq_cor_first_invalid(q, c, N, &f, &out->reason);
  out->valid = out->index == N;
  if (out->valid) out->index = 0;
  return OP_OK;
}

/* QCR-252 */
op_status op_corridor_fix(op_corridor *c, op_query *q, op_ref safe_poly, const double safe_pos[3],
                          const op_query_filter *filter, uint32_t *kept, op_error *err) {
  op_status st = opq_cor_begin(c, q, 1, err);
  double sp[3];
  if (!st) st = opq_check_pos(safe_pos, "safe_pos", sp, err);
  op_query_filter f;
  if (!st) st = opq_cor_filter(filter, &f, err);
  if (st) return st;
  opq_begin(q);
  opq_poly S, L;
  if ((st = opq_poly_get_q(q, safe_poly, "safe_poly", &S, err))) return st;
  if (!op_query_filter_passes(&f, S.flags)) {
    char v[20];
    snprintf(v, sizeof v, "%016llx", (unsigned long long)safe_poly);
    return op_fail(err, OP_E_ARGUMENT, "safe_poly", v, "the polygon does not pass the filter");
  }
  op_corridor_reason why;
  uint32_t k = opq_cor_first_invalid(q, c, c->n, &f, &why);
  if (kept) *kept = k;
  if (k == c->n) return OP_OK;
  if (k == 0) {
    opq_qpoly(&S, &c->polys[0]);
    c->n = 1;
    opq_cor_head_point(&S, sp, c->pos);
    L = S;
  } else {
    if ((st = opq_poly_get_q(q, c->polys[k - 1].ref, "path", &L, err))) return st; /* valid */
    c->n = k;
  }
  double t[3];
  opq_closest(&L, c->target, t);
  memcpy(c->target, t, sizeof t);
  return OP_OK;
}
