/*
** corridor_internal.h -- shared by corridor.c and corridor_ops.c (spec/query-corridor.md):
** the corridor's state, its common checks, the head point, the merges and the splice.
** Internal: not part of the public API (include/onepath_query.h).
*/
#ifndef OPQ_CORRIDOR_INTERNAL_H
#define OPQ_CORRIDOR_INTERNAL_H

#include "query/surface_internal.h"

/* QCR-201 */
struct op_corridor {
  uint32_t max_path, n;
  double pos[3], target[3];
  op_query_poly *polys; /* c[0 .. n-1] */
  op_query_poly *tmp;   /* max_path entries: the next list while it is built */
};

/* QCR-202: c and q given; need: c not empty. */
op_status opq_cor_begin(op_corridor *c, op_query *q, int need, op_error *err);
/* QRY-033, the default filter for NULL. */
op_status opq_cor_filter(const op_query_filter *in, op_query_filter *f, op_error *err);
/* QCR-220: c[k] resolves (field path[k]) and passes f. */
op_status opq_cor_end_poly(op_query *q, const op_corridor *c, uint32_t k,
                           const op_query_filter *f, opq_poly *P, op_error *err);
/* QCR-203 */
void opq_cor_head_point(const opq_poly *P, const double p[3], double out[3]);
/* QCR-221, QCR-222, QCR-242 (with QCR-204's cut in *cut). */
void opq_cor_merge_head(op_corridor *c, const op_query_poly *V, uint32_t m, int *cut);
void opq_cor_merge_tail(op_corridor *c, const op_query_poly *V, uint32_t m, int *cut);
int opq_cor_splice(op_corridor *c, const op_query_poly *V, uint32_t m, int *cut);
/* QCR-250: the first invalid polygon of c[0 .. N-1], or N. */
uint32_t opq_cor_first_invalid(op_query *q, const op_corridor *c, uint32_t N,
                               const op_query_filter *f, op_corridor_reason *reason);

#endif
