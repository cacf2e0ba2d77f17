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

#include "build2d/geometry/g2d.h"
#include "onepath_build2d.h"
#include "math/opmath.h"

void g2_slice_free(g2_slice *s) {
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
int64_t g2_tile_line(double origin, double tile_world, int64_t k, int snap_bits, int *ok) {
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
  while (g2_tile_line(origin, tile_world, k, snap_bits, &ok) > lo) k--;
  while (g2_tile_line(origin, tile_world, k, snap_bits, &ok) <= lo) k++;
  *kfirst = k;
  size_t cap = 16, cnt = 0;
  int64_t *v = malloc(cap * sizeof *v);
  if (!v) return op_fail(err, OP_E_NOMEM, "region", "", "out of memory");
  for (;; k++) {
    int64_t g = g2_tile_line(origin, tile_world, k, snap_bits, &ok);
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
    if (cnt == cap) {
      cap *= 2;
      int64_t *w = realloc(v, cap * sizeof *w);
      if (!w) { free(v); return op_fail(err, OP_E_NOMEM, "region", "", "out of memory"); }
      v = w;
    }
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
                           uint32_t max_verts, g2_tile_polys *out, op_error *err) {
  uint32_t *tris = malloc(3 * n * sizeof *tris);
  uint8_t *fixed = malloc(n);
  if (!tris || !fixed) { free(tris); free(fixed); return op_fail(err, OP_E_NOMEM, "region", "", "out of memory"); }
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
  if (!used) { g2_polys_free(&pp); return op_fail(err, OP_E_NOMEM, "region", "", "out of memory"); }
  memcpy(used, pp.verts, nv * sizeof *used);
  qsort(used, nv, sizeof *used, u32_cmp);
  size_t nu = 0;
  for (size_t i = 0; i < nv; i++)
    if (!nu || used[nu - 1] != used[i]) used[nu++] = used[i];
  out->pts = malloc((nu + 1) * sizeof *out->pts);
  if (!out->pts) { free(used); g2_polys_free(&pp); return op_fail(err, OP_E_NOMEM, "region", "", "out of memory"); }
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

op_status g2_slice_region(const g2_region *r, const double origin[2], double tile_world,
                          double cell_size, uint32_t max_verts, g2_slice *out,
                          op_error *err) {
  g2_slice res;
  memset(&res, 0, sizeof res);
  if (r->npts == 0) { *out = res; return OP_OK; }
  /* T2D-031: the bounding box */
  int64_t xmin = r->pts[0].x, xmax = xmin, ymin = r->pts[0].y, ymax = ymin;
  for (size_t i = 1; i < r->npts; i++) {
    if (r->pts[i].x < xmin) xmin = r->pts[i].x;
    if (r->pts[i].x > xmax) xmax = r->pts[i].x;
    if (r->pts[i].y < ymin) ymin = r->pts[i].y;
    if (r->pts[i].y > ymax) ymax = r->pts[i].y;
  }
  int64_t *gx = NULL, *gy = NULL, kx, ky;
  size_t nx = 0, ny = 0;
  g2_pslg base, arr;
  memset(&base, 0, sizeof base);
  memset(&arr, 0, sizeof arr);
  g2_cdt cdt;
  memset(&cdt, 0, sizeof cdt);
  g2_point *pts = NULL;
  g2_seg *segs = NULL;
  ttri *tt = NULL;
  op_status st = cut_lines(origin[0], tile_world, cell_size, r->snap_bits, xmin, xmax, "x",
                           &gx, &nx, &kx, err);
  if (!st) st = cut_lines(origin[1], tile_world, cell_size, r->snap_bits, ymin, ymax, "z",
                          &gy, &ny, &ky, err);
  if (st) goto done;
  if ((uint64_t)nx * ny > OP_BUILD2D_MAX_CROSSINGS) { /* T2D-032 */
    st = op_fail_i(err, OP_E_LIMIT, "tile_crossings", (long long)(nx * ny),
                   "more than 2^20 crossings of tile lines; use larger tiles");
    goto done;
  }
  if (kx - 1 < INT32_MIN || kx + (int64_t)nx > INT32_MAX) {
    st = op_fail_i(err, OP_E_RANGE, "tile.x", (long long)(kx - 1), "tile column beyond 32 bits");
    goto done;
  }
  if (ky - 1 < INT32_MIN || ky + (int64_t)ny > INT32_MAX) {
    st = op_fail_i(err, OP_E_RANGE, "tile.z", (long long)(ky - 1), "tile row beyond 32 bits");
    goto done;
  }
  /* T2D-034: boundary segments and cut segments, one arrangement */
  st = g2_region_to_pslg(r, &base, err);
  if (st) goto done;
  size_t np = base.npts + 2 * (nx + ny), ns = base.nsegs + nx + ny;
  pts = malloc((np + 1) * sizeof *pts);
  segs = malloc((ns + 1) * sizeof *segs);
  if (!pts || !segs) { st = op_fail(err, OP_E_NOMEM, "region", "", "out of memory"); goto done; }
  memcpy(pts, base.pts, base.npts * sizeof *pts);
  memcpy(segs, base.segs, base.nsegs * sizeof *segs);
  size_t ip = base.npts, is = base.nsegs;
  for (size_t j = 0; j < nx; j++) {
    pts[ip].x = gx[j]; pts[ip].y = ymin;
    pts[ip + 1].x = gx[j]; pts[ip + 1].y = ymax;
    segs[is].a = (uint32_t)ip; segs[is].b = (uint32_t)ip + 1;
    segs[is].flags = G2_SEG_CUT; segs[is].wind = 0;
    ip += 2; is++;
  }
  for (size_t j = 0; j < ny; j++) {
    pts[ip].x = xmin; pts[ip].y = gy[j];
    pts[ip + 1].x = xmax; pts[ip + 1].y = gy[j];
    segs[is].a = (uint32_t)ip; segs[is].b = (uint32_t)ip + 1;
    segs[is].flags = G2_SEG_CUT; segs[is].wind = 0;
    ip += 2; is++;
  }
  st = g2_arrange(pts, np, segs, ns, &arr, err);
  if (st) goto done;
  /* T2D-035: the triangulation, inside by the winding alone */
  st = g2_cdt_build(&arr, &cdt, err);
  if (st) goto done;
  tt = malloc((cdt.ntris + 1) * sizeof *tt);
  if (!tt) { st = op_fail(err, OP_E_NOMEM, "region", "", "out of memory"); goto done; }
  size_t nin = 0;
  for (size_t t = 0; t < cdt.ntris; t++) {
    if (cdt.wind[t] <= 0) continue;
    const uint32_t *v = &cdt.tri[3 * t];
    int64_t sx = arr.pts[v[0]].x + arr.pts[v[1]].x + arr.pts[v[2]].x; /* T2D-040 */
    int64_t sy = arr.pts[v[0]].y + arr.pts[v[1]].y + arr.pts[v[2]].y;
    tt[nin].col = kx - 1 + (int64_t)count_le(gx, nx, sx);
    tt[nin].row = ky - 1 + (int64_t)count_le(gy, ny, sy);
    tt[nin].t = (uint32_t)t;
    nin++;
  }
  qsort(tt, nin, sizeof *tt, ttri_cmp); /* T2D-041 */
  size_t ntiles = 0;
  for (size_t i = 0; i < nin; i++)
    if (!i || tt[i].row != tt[i - 1].row || tt[i].col != tt[i - 1].col) ntiles++;
  res.tiles = calloc(ntiles + 1, sizeof *res.tiles);
  if (!res.tiles) { st = op_fail(err, OP_E_NOMEM, "region", "", "out of memory"); goto done; }
  for (size_t i = 0; i < nin;) {
    size_t j = i + 1;
    while (j < nin && tt[j].row == tt[i].row && tt[j].col == tt[i].col) j++;
    g2_tile_polys *tp = &res.tiles[res.ntiles];
    int ok;
    tp->col = tt[i].col;
    tp->row = tt[i].row;
    tp->line[0] = g2_tile_line(origin[0], tile_world, tp->col, r->snap_bits, &ok);
    tp->line[1] = g2_tile_line(origin[1], tile_world, tp->row, r->snap_bits, &ok);
    tp->line[2] = g2_tile_line(origin[0], tile_world, tp->col + 1, r->snap_bits, &ok);
    tp->line[3] = g2_tile_line(origin[1], tile_world, tp->row + 1, r->snap_bits, &ok);
    st = make_tile(&arr, &cdt, tt + i, j - i, max_verts, tp, err);
    if (st) goto done;
    res.ntiles++;
    i = j;
  }
done:
  free(gx);
  free(gy);
  free(pts);
  free(segs);
  free(tt);
  g2_pslg_free(&base);
  g2_pslg_free(&arr);
  g2_cdt_free(&cdt);
  if (st) { g2_slice_free(&res); return st; }
  *out = res;
  return OP_OK;
}
