/*
** query_filter.c -- the query filter (spec/query.md, section 4: QRY-030 .. QRY-033): include and
** exclude flag masks on a polygon's current flags, a cost per area id, and its checks.
*/
#include <stdio.h>

#include "query/query_internal.h"

/* QRY-030 */
void op_query_filter_init(op_query_filter *f) {
  if (!f) return;
  f->include_flags = 0xFFFFu;
  f->exclude_flags = 0;
  for (int i = 0; i < OP_QUERY_AREAS; i++) f->area_cost[i] = 1.0;
}

/* QRY-030's default filter as one constant, for the queries given no filter (the same
** values op_query_filter_init writes; a pointer to it saves a copy of 64 costs per call). */
#define OPQ_ONE8 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0
_Static_assert(OP_QUERY_AREAS == 64, "the default filter below lists 64 costs");
static const op_query_filter default_filter = {
    0xFFFFu, 0, {OPQ_ONE8, OPQ_ONE8, OPQ_ONE8, OPQ_ONE8, OPQ_ONE8, OPQ_ONE8, OPQ_ONE8, OPQ_ONE8}};

const op_query_filter *opq_filter_default(void) { return &default_filter; }

/* QRY-033: cost by cost, finite in [0, 2^24]. */
op_status op_query_filter_check(const op_query_filter *f, op_error *err) {
  if (!f) return op_fail(err, OP_E_ARGUMENT, "filter", "NULL", "filter is required");
  for (int i = 0; i < OP_QUERY_AREAS; i++) {
    double c = f->area_cost[i];
    if (!(c >= 0.0 && c <= 16777216.0)) {
      char name[32];
      snprintf(name, sizeof name, "filter.costs[%d]", i);
      return op_fail_d(err, OP_E_RANGE, name, c, "a cost must be finite and in [0, 2^24]");
    }
  }
  return OP_OK;
}

/* QRY-031 */
int op_query_filter_passes(const op_query_filter *f, uint16_t flags) {
  return opq_passes(f, flags);
}
