/*
** slice2d.c -- the Slice stage of the 2D builder (spec/build2d-tiles.md, section
** "Slicing", T2D-030 .. T2D-044): tile lines, cut lines strictly inside the region's
** bounding box, one snap-rounded arrangement of boundary and cut segments
** (g2_arrange), the constrained Delaunay triangulation (g2_cdt_build), triangles to
** tiles by the integer centroid rule, and the convex partition of each tile
** (g2_partition). Output: per tile, in ascending (row, column) order, its used points
** in (x, y) order and its convex polygons.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build2d/tiles/slice2d.h"
#include "onepath_build2d.h"
#include "math/opmath.h"

void t2_slice_free(t2_slice *s) {
  if (!s) return;
  for (size_t i = 0; i < s->ntiles; i++) {
    free(s->tiles[i].pts);
    g2_polys_free(&s->tiles[i].polys);
  }
  free(s->tiles);
  memset(s, 0, sizeof *s);
}

/* T2D-030: line k is fl(origin + fl(k * tile_world)), rounded to the grid once. Lines
** beyond +-2^21 saturate (they lie outside every region). */
int64_t t2_tile_line(double origin, double tile_world, int64_t k, int snap_bits, int *ok) {
  double L = origin + (double)k * tile_world;
  *ok = 1;
  if (!(L >= -G2_WORLD_MAX && L <= G2_WORLD_MAX)) {
    *ok = 0;
    return L < 0 ? -(G2_GRID_MAX * 4) : G2_GRID_MAX * 4;
  }
  double scale = (double)((int64_t)1 << snap_bits);
  return op_round_half_even(L * scale);
}

static double line_world(double origin, double tile_world, int64_t k) {
  return origin + (double)k * tile_world;
}

/* The cut lines of one axis (T2D-031, T2D-032, T2D-033): the lines k with
** lo < g(k) < hi, ascending; *kfirst is the first such k (or the k after the tile
** holding lo when there is none). */
static op_status cut_lines(double origin, double tile_world, double cell_size, int snap_bits,
                           int64_t lo, int64_t hi, const char *axis, int64_t **out, size_t *n,
                           int64_t *kfirst, op_error *err) {
  double unit = 1.0 / (double)((int64_t)1 << snap_bits);
  int ok;
  int64_t k = op_round_half_even(((double)lo * unit - origin) / tile_world);
  while (t2_tile_line(origin, tile_world, k, snap_bits, &ok) > lo) k--;
  while (t2_tile_line(origin, tile_world, k, snap_bits, &ok) <= lo) k++;
  *kfirst = k;
  size_t cap = 16, cnt = 0;
  int64_t *v = malloc(cap * sizeof *v);
  if (!v) return opc_nomem(err, "region");
  for (;; k++) {
    int64_t g = t2_tile_line(origin, tile_world, k, snap_bits, &ok);
    if (g >= hi) break;
    char field[32];
    snprintf(field, sizeof field, "tile_line.%s", axis);
    if (cnt == OP_BUILD2D_MAX_LINES) { /* T2D-032 */
      free(v);
      snprintf(field, sizeof field, "tile_lines.%s", axis);
      return op_fail_i(err, OP_E_LIMIT, field, (long long)cnt + 1,
                       "more than 2^12 tile lines cross the region on one axis; use larger tiles");
    }
    double L = line_world(origin, tile_world, k);
    double dev = (double)g * unit - L;
    if (dev < 0) dev = -dev;
    if (dev > cell_size / 1024.0) { /* T2D-031 */
      free(v);
      return op_fail_d(err, OP_E_ARGUMENT, field, L,
                       "tile line is farther than CellSize/1024 from the snap grid; use a tile "
                       "origin and size on the grid or a finer SnapBits");
    }
    int64_t *w = g2_grow(v, &cap, cnt, sizeof *w, 16);
    if (!w) { free(v); return opc_nomem(err, "region"); }
    v = w;
    v[cnt++] = g;
  }
  *out = v;
  *n = cnt;
  return OP_OK;
}

/* Number of lines g[j] with 3 * g[j] <= s (T2D-040). */
static size_t count_le(const int64_t *g, size_t n, int64_t s) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (3 * g[mid] <= s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

typedef struct ttri { int64_t row, col; uint32_t t; } ttri;

static int ttri_cmp(const void *pa, const void *pb) {
  const ttri *a = pa, *b = pb;
  if (a->row != b->row) return a->row < b->row ? -1 : 1;
  if (a->col != b->col) return a->col < b->col ? -1 : 1;
  return a->t < b->t ? -1 : a->t > b->t;
}

static int u32_cmp(const void *pa, const void *pb) {
  uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
  return a < b ? -1 : a > b;
}

/* One tile: partition its triangles, keep the used points (T2D-041, T2D-042). */
static op_status make_tile(const g2_pslg *g, const g2_cdt *c, const ttri *tt, size_t n,
                           uint32_t max_verts, t2_tile_polys *out, op_error *err) {
  uint32_t *tris = malloc(3 * n * sizeof *tris);
  uint8_t *fixed = malloc(n);
  if (!tris || !fixed) { free(tris); free(fixed); return opc_nomem(err, "region"); }
  for (size_t i = 0; i < n; i++) {
    memcpy(&tris[3 * i], &c->tri[3 * (size_t)tt[i].t], 3 * sizeof *tris);
    fixed[i] = c->cons[tt[i].t]; /* constraint edges stay (G2D-221) */
  }
  g2_polys pp;
  op_status st = g2_partition(g->pts, g->npts, tris, fixed, n, max_verts, &pp, err);
  free(tris);
  free(fixed);
  if (st) return st;
  size_t nv = pp.start[pp.npolys];
  uint32_t *used = malloc((nv + 1) * sizeof *used);
  if (!used) { g2_polys_free(&pp); return opc_nomem(err, "region"); }
  memcpy(used, pp.verts, nv * sizeof *used);
  qsort(used, nv, sizeof *used, u32_cmp);
  size_t nu = 0;
  for (size_t i = 0; i < nv; i++)
    if (!nu || used[nu - 1] != used[i]) used[nu++] = used[i];
  out->pts = malloc((nu + 1) * sizeof *out->pts);
  if (!out->pts) { free(used); g2_polys_free(&pp); return opc_nomem(err, "region"); }
  for (size_t i = 0; i < nu; i++) out->pts[i] = g->pts[used[i]];
  out->npts = nu;
  for (size_t i = 0; i < nv; i++) { /* binary search: index in the used list */
    size_t lo = 0, hi = nu;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (used[mid] < pp.verts[i]) lo = mid + 1;
      else hi = mid;
    }
    pp.verts[i] = (uint32_t)lo;
  }
  free(used);
  out->polys = pp;
  return OP_OK;
}

/* The cut lines of both axes (T2D-031 .. T2D-033) with their first k. */
typedef struct cuts {
  int64_t box[4]; /* the region's bounding box: xmin, ymin, xmax, ymax (T2D-031) */
  int64_t *g[2];  /* cut lines along x, along y (owned) */
  size_t n[2];
  int64_t k[2];   /* the first line's k on each axis */
} cuts;

/* T2D-031 .. T2D-033: the bounding box of r (npts > 0), the cut lines of both axes and the
** limits on them (T2D-032; tile coordinates within 32 bits). */
static op_status slice_cuts(const g2_region *r, const double origin[2], double tile_world,
                            double cell_size, cuts *cu, op_error *err) {
  int64_t *b = cu->box;
  b[0] = b[2] = r->pts[0].x;
  b[1] = b[3] = r->pts[0].y;
  for (size_t i = 1; i < r->npts; i++) { /* T2D-031: the bounding box */
    if (r->pts[i].x < b[0]) b[0] = r->pts[i].x;
    if (r->pts[i].x > b[2]) b[2] = r->pts[i].x;
    if (r->pts[i].y < b[1]) b[1] = r->pts[i].y;
    if (r->pts[i].y > b[3]) b[3] = r->pts[i].y;
  }
  op_status st = cut_lines(origin[0], tile_world, cell_size, r->snap_bits, b[0], b[2], "x",
                           &cu->g[0], &cu->n[0], &cu->k[0], err);
  if (!st) st = cut_lines(origin[1], tile_world, cell_size, r->snap_bits, b[1], b[3], "z",
                          &cu->g[1], &cu->n[1], &cu->k[1], err);
  if (st) return st;
  size_t nx = cu->n[0], ny = cu->n[1];
  if ((uint64_t)nx * ny > OP_BUILD2D_MAX_CROSSINGS) /* T2D-032 */
    return op_fail_i(err, OP_E_LIMIT, "tile_crossings", (long long)(nx * ny),
                     "more than 2^20 crossings of tile lines; use larger tiles");
  if (cu->k[0] - 1 < INT32_MIN || cu->k[0] + (int64_t)nx > INT32_MAX)
    return op_fail_i(err, OP_E_RANGE, "tile.x", (long long)(cu->k[0] - 1),
                     "tile column beyond 32 bits");
  if (cu->k[1] - 1 < INT32_MIN || cu->k[1] + (int64_t)ny > INT32_MAX)
    return op_fail_i(err, OP_E_RANGE, "tile.z", (long long)(cu->k[1] - 1),
                     "tile row beyond 32 bits");
  return OP_OK;
}

/* T2D-034: the boundary segments of r and the cut segments across the box, one
** arrangement (*arr). Cut segments along x come first, then along y, as lines ascend. */
static op_status slice_arrange(const g2_region *r, const cuts *cu, int max_passes,
                               g2_pslg *arr, op_error *err) {
  g2_pslg base;
  memset(&base, 0, sizeof base);
  op_status st = g2_region_to_pslg(r, &base, err);
  if (st) return st;
  size_t nx = cu->n[0], ny = cu->n[1];
  size_t np = base.npts + 2 * (nx + ny), ns = base.nsegs + nx + ny;
  g2_point *pts = malloc((np + 1) * sizeof *pts);
  g2_seg *segs = malloc((ns + 1) * sizeof *segs);
  if (!pts || !segs) st = opc_nomem(err, "region");
  if (!st) {
    memcpy(pts, base.pts, base.npts * sizeof *pts);
    memcpy(segs, base.segs, base.nsegs * sizeof *segs);
    size_t ip = base.npts, is = base.nsegs;
    for (int ax = 0; ax < 2; ax++) /* ax 0: x = g, y across the box; ax 1: y = g */
      for (size_t j = 0; j < cu->n[ax]; j++, ip += 2, is++) {
        int64_t g = cu->g[ax][j], lo = cu->box[1 - ax], hi = cu->box[3 - ax];
        pts[ip].x = ax ? lo : g;
        pts[ip].y = ax ? g : lo;
        pts[ip + 1].x = ax ? hi : g;
        pts[ip + 1].y = ax ? g : hi;
        segs[is].a = (uint32_t)ip;
        segs[is].b = (uint32_t)ip + 1;
        segs[is].flags = G2_SEG_CUT;
        segs[is].wind = 0;
      }
    st = g2_arrange_limited(pts, np, segs, ns, max_passes, arr, err); /* G2D-058, T2D-083 */
  }
  free(pts);
  free(segs);
  g2_pslg_free(&base);
  return st;
}

/* T2D-035, T2D-040, T2D-041: the inside triangles (winding > 0) with their tiles by the
** integer centroid rule, sorted by (row, column, triangle), into *tt (owned) and *nin. */
static op_status slice_triangles(const g2_pslg *arr, const g2_cdt *cdt, const cuts *cu,
                                 ttri **tt, size_t *nin, op_error *err) {
  ttri *v = malloc((cdt->ntris + 1) * sizeof *v);
  if (!v) return opc_nomem(err, "region");
  size_t n = 0;
  for (size_t t = 0; t < cdt->ntris; t++) {
    if (cdt->wind[t] <= 0) continue; /* T2D-035: inside by the winding alone */
    const uint32_t *c = &cdt->tri[3 * t];
    int64_t sx = arr->pts[c[0]].x + arr->pts[c[1]].x + arr->pts[c[2]].x; /* T2D-040 */
    int64_t sy = arr->pts[c[0]].y + arr->pts[c[1]].y + arr->pts[c[2]].y;
    v[n].col = cu->k[0] - 1 + (int64_t)count_le(cu->g[0], cu->n[0], sx);
    v[n].row = cu->k[1] - 1 + (int64_t)count_le(cu->g[1], cu->n[1], sy);
    v[n].t = (uint32_t)t;
    n++;
  }
  qsort(v, n, sizeof *v, ttri_cmp); /* T2D-041 */
  *tt = v;
  *nin = n;
  return OP_OK;
}

/* T2D-041, T2D-042: one tile per run of equal (row, column) in tt, in that order, each
** with its grid lines (T2D-030) and its partition (make_tile), into res. */
static op_status slice_tiles(const g2_pslg *arr, const g2_cdt *cdt, const ttri *tt, size_t nin,
                             const double origin[2], double tile_world, int snap_bits,
                             uint32_t max_verts, t2_slice *res, op_error *err) {
  size_t ntiles = 0;
  for (size_t i = 0; i < nin; i++)
    if (!i || tt[i].row != tt[i - 1].row || tt[i].col != tt[i - 1].col) ntiles++;
  res->tiles = calloc(ntiles + 1, sizeof *res->tiles);
  if (!res->tiles) return opc_nomem(err, "region");
  for (size_t i = 0; i < nin;) {
    size_t j = i + 1;
    while (j < nin && tt[j].row == tt[i].row && tt[j].col == tt[i].col) j++;
    t2_tile_polys *tp = &res->tiles[res->ntiles];
    int ok;
    tp->col = tt[i].col;
    tp->row = tt[i].row;
    tp->line[0] = t2_tile_line(origin[0], tile_world, tp->col, snap_bits, &ok);
    tp->line[1] = t2_tile_line(origin[1], tile_world, tp->row, snap_bits, &ok);
    tp->line[2] = t2_tile_line(origin[0], tile_world, tp->col + 1, snap_bits, &ok);
    tp->line[3] = t2_tile_line(origin[1], tile_world, tp->row + 1, snap_bits, &ok);
    op_status st = make_tile(arr, cdt, tt + i, j - i, max_verts, tp, err);
    if (st) return st;
    res->ntiles++;
    i = j;
  }
  return OP_OK;
}

static op_status budget_over(op_error *err, const char *field, uint64_t v, uint64_t lim,
                             const char *what) {
  char m[200];
  snprintf(m, sizeof m, "%s: %llu, more than the budget %llu (T2D-082); raise %s or use "
           "larger tiles", what, (unsigned long long)v, (unsigned long long)lim, field);
  return op_fail_i(err, OP_E_LIMIT, field, v > (uint64_t)INT64_MAX ? INT64_MAX : (long long)v,
                   m);
}

/* T2D-080 .. T2D-082 */
op_status t2_slice_budget(const g2_region *r, const double origin[2], double tile_world,
                          double cell_size, uint32_t tile_cells, uint64_t max_tiles,
                          uint64_t max_cells, op_error *err) {
  if (r->npts == 0) return OP_OK; /* T2D-081: no cut lines, no tiles */
  cuts cu;
  memset(&cu, 0, sizeof cu);
  op_status st = slice_cuts(r, origin, tile_world, cell_size, &cu, err); /* T2D-031..033 */
  free(cu.g[0]);
  free(cu.g[1]);
  if (st) return st;
  /* T2D-081: n X cut lines bound n + 1 columns; at most 4097 x 4097 (T2D-032) */
  uint64_t tiles = ((uint64_t)cu.n[0] + 1) * ((uint64_t)cu.n[1] + 1);
  uint64_t per = (uint64_t)tile_cells * tile_cells;
  uint64_t cells = tiles * per; /* <= 4097^2 * 8192^2 < 2^64 */
  if (tiles > max_tiles) /* T2D-082, in this order */
    return budget_over(err, "limits.max_tiles", tiles, max_tiles, "tiles of the sliced box");
  if (cells > max_cells)
    return budget_over(err, "limits.max_grid_cells", cells, max_cells,
                       "grid cells of the sliced box's tiles");
  return OP_OK;
}

/* T2D-030 .. T2D-044: the steps above in order; on failure *out is untouched. */
op_status t2_slice_region(const g2_region *r, const double origin[2], double tile_world,
                          double cell_size, uint32_t max_verts, t2_slice *out,
                          op_error *err) {
  return t2_slice_region_counted(r, origin, tile_world, cell_size, max_verts, 0, NULL, out,
                                 err);
}

op_status t2_slice_region_counted(const g2_region *r, const double origin[2],
                                  double tile_world, double cell_size, uint32_t max_verts,
                                  int max_passes, op_alloc_count *al, t2_slice *out,
                                  op_error *err) {
  if (max_passes < 1 || max_passes > G2_MAX_SNAP_PASSES) max_passes = G2_MAX_SNAP_PASSES;
  t2_slice res;
  memset(&res, 0, sizeof res);
  if (r->npts == 0) { *out = res; return OP_OK; }
  cuts cu;
  memset(&cu, 0, sizeof cu);
  g2_pslg arr;
  memset(&arr, 0, sizeof arr);
  g2_cdt cdt;
  memset(&cdt, 0, sizeof cdt);
  ttri *tt = NULL;
  size_t nin = 0;
  op_status st = slice_cuts(r, origin, tile_world, cell_size, &cu, err);
  if (!st) st = slice_arrange(r, &cu, max_passes, &arr, err);
  if (!st) st = g2_cdt_build_counted(&arr, al, &cdt, err); /* T2D-035; CONF-059 */
  if (!st) st = slice_triangles(&arr, &cdt, &cu, &tt, &nin, err);
  if (!st) st = slice_tiles(&arr, &cdt, tt, nin, origin, tile_world, r->snap_bits, max_verts,
                            &res, err);
  free(cu.g[0]);
  free(cu.g[1]);
  free(tt);
  g2_pslg_free(&arr);
  g2_cdt_free(&cdt);
  if (st) { t2_slice_free(&res); return st; }
  *out = res;
  return OP_OK;
}
