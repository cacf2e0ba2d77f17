/*
** offmesh_defs.c -- off-mesh link definitions given with a 3D build (spec/build3d-polys.md
** section 5.2.1, POLY-240 .. POLY-245): the column each start lies in, the layer of a
** layer-first column, and which definitions a tile receives; the validation (POLY-241) and
** the slots themselves (POLY-244) are navmesh/offmesh_slots.c's, shared with the 2D builder.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build3d/pipeline/pipeline_internal.h"
#include "core/alloc.h"
#include "core/internal.h"
#include "navmesh/offmesh_slots.h"

/* POLY-241: the count, then each definition completely, i ascending. */
op_status opl_offmesh_check(const opl_ctx *c, op_error *err) {
  return opt_om_check(c->offmesh, c->noffmesh, err); /* navmesh/offmesh_slots.c */
}

/* FMT-005: the extent of column t on one axis (o the tiling origin's coordinate). */
static double lo_of(double o, int32_t t, double w) { return o + (double)t * w; }
static double hi_of(double o, int32_t t, double w) { return o + (double)(t + 1) * w; }

/* POLY-242 on one axis: the t in [0, n) with lo(t) <= v < hi(t), or -1. The estimate is
** corrected by the exact test, which alone decides. */
static int32_t column_of(double v, double o, double w, int32_t n) {
  if (n <= 0 || v < lo_of(o, 0, w) || v >= hi_of(o, n - 1, w)) return -1;
  double e = (v - o) / w;
  int32_t t = e <= 0 ? 0 : (e >= (double)(n - 1) ? n - 1 : (int32_t)e);
  while (t > 0 && v < lo_of(o, t, w)) t--;
  while (t < n - 1 && v >= hi_of(o, t, w)) t++;
  return t;
}

typedef struct om_key {
  int64_t col;
  uint32_t i;
} om_key;

static int key_cmp(const void *a, const void *b) {
  const om_key *x = a, *y = b;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  return x->i < y->i ? -1 : (x->i > y->i);
}

/* POLY-242: every definition's column; those in none are dropped here. */
op_status opl_offmesh_plan(opl_ctx *c, op_error *err) {
  c->om_order = NULL;
  c->om_col = NULL;
  c->om_n = 0;
  if (c->noffmesh == 0) return OP_OK;
  om_key *k = opc_malloc(c->om_alloc, c->noffmesh * sizeof *k); /* CONF-059 */
  if (!k) return opc_nomem(err, "offmesh");
  double w = (double)c->tiling.tile_cells * c->tiling.cell_size; /* FMT-005 */
  uint32_t n = 0;
  for (uint32_t i = 0; i < c->noffmesh; i++) {
    const op_offmesh_link *l = &c->offmesh[i];
    int32_t tx = column_of(l->start[0], c->tiling.origin[0], w, c->ntx);
    int32_t tz = column_of(l->start[2], c->tiling.origin[2], w, c->ntz);
    if (tx < 0 || tz < 0) continue; /* in no column: dropped */
    k[n].col = (int64_t)tz * c->ntx + tx;
    k[n].i = i;
    n++;
  }
  if (n == 0) {
    free(k);
    return OP_OK;
  }
  qsort(k, n, sizeof *k, key_cmp);
  c->om_order = opc_malloc(c->om_alloc, n * sizeof *c->om_order);
  c->om_col = opc_malloc(c->om_alloc, n * sizeof *c->om_col);
  if (!c->om_order || !c->om_col) {
    free(k);
    opl_offmesh_plan_free(c);
    return opc_nomem(err, "offmesh");
  }
  for (uint32_t j = 0; j < n; j++) {
    c->om_order[j] = k[j].i;
    c->om_col[j] = k[j].col;
  }
  c->om_n = n;
  free(k);
  return OP_OK;
}

void opl_offmesh_plan_free(opl_ctx *c) {
  free(c->om_order);
  free(c->om_col);
  c->om_order = NULL;
  c->om_col = NULL;
  c->om_n = 0;
}

/* The first planned definition of column col (om_n when none). */
static uint32_t first_of(const opl_ctx *c, int64_t col) {
  uint32_t lo = 0, hi = c->om_n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (c->om_col[mid] < col)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* POLY-243: the vertical distance of y from a tile's vertices' world y range. */
static double layer_dist(const op_tile *t, double y) {
  op_tile_desc v;
  op_tile_view(t, &v);
  double lo = 0, hi = 0;
  for (uint32_t i = 0; i < v.nverts; i++) {
    double wy = v.origin_y + (double)v.verts[3 * (size_t)i + 1]; /* FMT-007 */
    if (i == 0 || wy < lo) lo = wy;
    if (i == 0 || wy > hi) hi = wy;
  }
  if (y < lo) return lo - y;
  if (y > hi) return y - hi;
  return 0.0;
}

/* POLY-243: the candidate of least distance, the lowest layer on a tie; -1 when none. */
static int32_t layer_of(op_tile *const *tiles, uint32_t n, double y) {
  int32_t best = -1;
  double bd = 0;
  for (uint32_t L = 0; L < n; L++) {
    if (!tiles[L]) continue;
    double d = layer_dist(tiles[L], y);
    if (best < 0 || d < bd) {
      best = (int32_t)L;
      bd = d;
    }
  }
  return best;
}

/* POLY-242 .. POLY-244 for column (tx, tz) and its tiles (layers ascending). */
op_status opl_offmesh_attach(const opl_ctx *c, int32_t tx, int32_t tz, op_tile **tiles,
                             uint32_t n, uint32_t *count, op_error *err) {
  if (c->om_n == 0) return OP_OK;
  int64_t col = (int64_t)tz * c->ntx + tx;
  uint32_t j0 = first_of(c, col), j1 = j0;
  while (j1 < c->om_n && c->om_col[j1] == col) j1++;
  if (j0 == j1) return OP_OK;
  uint32_t m = j1 - j0;
  uint32_t *idx = opc_malloc(c->om_alloc, m * sizeof *idx); /* CONF-059 */
  int32_t *lay = opc_malloc(c->om_alloc, m * sizeof *lay);
  op_status st = OP_OK;
  if (!idx || !lay) st = opc_nomem(err, "offmesh");
  for (uint32_t j = 0; st == OP_OK && j < m; j++) /* POLY-243 */
    lay[j] = layer_of(tiles, n, c->offmesh[c->om_order[j0 + j]].start[1]);
  for (uint32_t L = 0; st == OP_OK && L < n; L++) { /* POLY-244: definition order */
    uint32_t k = 0;
    for (uint32_t j = 0; j < m; j++)
      if (lay[j] == (int32_t)L) idx[k++] = c->om_order[j0 + j];
    if (k == 0) continue;
    st = opt_om_remake(&tiles[L], c->offmesh, idx, k, c->om_alloc, err); /* POLY-244 */
    if (st == OP_OK) *count += k;
  }
  free(idx);
  free(lay);
  return st;
}
