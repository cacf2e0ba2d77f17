/*
** offmesh2d.c -- off-mesh link definitions of a 2D build (spec/build2d-tiles.md section 9):
** the tile each definition's start lies in (T2D-092) and the slots it gives that tile
** (T2D-093, by navmesh/offmesh_slots.c's POLY-244). The checks (T2D-091) are
** navmesh/offmesh_slots.c's too; build2d.c calls both.
*/
#include <stdlib.h>

#include "build2d/tiles/slice2d.h"
#include "navmesh/offmesh_slots.h"

/* T2D-051: x0 of column c (z0 of row c) on one axis, as FMT-005 computes it. */
static double line_of(double o, int64_t c, double W) { return o + (double)c * W; }

/* T2D-092 on one axis: the c in [lo, hi] with line(c) <= v < line(c + 1), or INT64_MIN. The
** lines ascend with c (each a monotone rounding of a monotone value), so the greatest c with
** line(c) <= v is found by bisection, then v < line(c + 1) decides. */
static int64_t cell_of(double v, double o, double W, int64_t lo, int64_t hi) {
  if (lo > hi || v < line_of(o, lo, W)) return INT64_MIN;
  while (lo < hi) { /* invariant: line(lo) <= v; the answer is in [lo, hi] */
    int64_t mid = lo + (hi - lo + 1) / 2;
    if (line_of(o, mid, W) <= v) lo = mid;
    else hi = mid - 1;
  }
  return v < line_of(o, lo + 1, W) ? lo : INT64_MIN;
}

typedef struct om_pick {
  size_t tile;
  uint32_t i;
} om_pick;

static int pick_cmp(const void *a, const void *b) {
  const om_pick *x = a, *y = b;
  if (x->tile != y->tile) return x->tile < y->tile ? -1 : 1;
  return x->i < y->i ? -1 : (x->i > y->i);
}

/* The index of tile (c, r) in tiles (ascending row, then column: T2D-041), or ntiles. */
static size_t tile_index(op_tile *const *tiles, size_t ntiles, int64_t c, int64_t r) {
  size_t lo = 0, hi = ntiles;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    op_tile_desc v;
    op_tile_view(tiles[mid], &v);
    if (v.z < r || (v.z == r && v.x < c)) lo = mid + 1;
    else hi = mid;
  }
  if (lo == ntiles) return ntiles;
  op_tile_desc v;
  op_tile_view(tiles[lo], &v);
  return v.x == c && v.z == r ? lo : ntiles;
}

/* T2D-092, T2D-093: every definition's tile, then each tile with links remade with its slots
** (definition order), tiles in T2D-041's order; *count gets the slots stored. */
op_status t2_offmesh_attach(const op_settings2d *s, const op_offmesh_link *defs, uint32_t n,
                            op_tile **tiles, size_t ntiles, uint32_t *count, op_error *err) {
  *count = 0;
  if (n == 0 || ntiles == 0) return OP_OK;
  double W = (double)s->tile_cells * s->cell_size; /* T2D-013 */
  int64_t c0 = INT64_MAX, c1 = INT64_MIN, r0 = INT64_MAX, r1 = INT64_MIN;
  for (size_t t = 0; t < ntiles; t++) {
    op_tile_desc v;
    op_tile_view(tiles[t], &v);
    if (v.x < c0) c0 = v.x;
    if (v.x > c1) c1 = v.x;
    if (v.z < r0) r0 = v.z;
    if (v.z > r1) r1 = v.z;
  }
  om_pick *p = malloc(sizeof *p * n);
  uint32_t *idx = malloc(sizeof *idx * n);
  if (!p || !idx) {
    free(p);
    free(idx);
    return opc_nomem(err, "offmesh");
  }
  uint32_t np = 0;
  for (uint32_t i = 0; i < n; i++) {
    int64_t c = cell_of(defs[i].start[0], s->origin[0], W, c0, c1);
    int64_t r = cell_of(defs[i].start[2], s->origin[1], W, r0, r1);
    size_t t = c == INT64_MIN || r == INT64_MIN ? ntiles : tile_index(tiles, ntiles, c, r);
    if (t == ntiles) continue; /* in no tile of the build: dropped */
    p[np].tile = t;
    p[np].i = i;
    np++;
  }
  qsort(p, np, sizeof *p, pick_cmp);
  op_status st = OP_OK;
  for (uint32_t a = 0; a < np && st == OP_OK;) {
    uint32_t b = a, k = 0;
    while (b < np && p[b].tile == p[a].tile) idx[k++] = p[b++].i;
    st = opt_om_remake(&tiles[p[a].tile], defs, idx, k, NULL, err); /* POLY-244 */
    if (st == OP_OK) *count += k;
    a = b;
  }
  free(p);
  free(idx);
  return st;
}
