/*
** raster.c -- stage 1 of the 3D build: the solid heightfield of one bordered tile grid,
** span insertion and merging, the slope test and the rasterization of triangles and of
** heightfield input (spec/build3d-spans.md section 3, SPAN-100 .. SPAN-113).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/internal.h"
#include "math/opmath.h"
#include "build3d/spans/spans_internal.h"

#define COORD_LIMIT 2097152.0 /* 2^21 */

static int finite_in(double v, double lim) { return v >= -lim && v <= lim; }

/* SPAN-100 */
op_status op_hf_grid_validate(const op_hf_grid *g, op_error *err) {
  static const char *on[3] = {"grid.origin.x", "grid.origin.y", "grid.origin.z"};
  if (!g) return op_fail(err, OP_E_ARGUMENT, "grid", "null", "the grid is missing");
  for (int i = 0; i < 3; i++)
    if (!finite_in(g->origin[i], COORD_LIMIT))
      return op_fail_d(err, OP_E_RANGE, on[i], g->origin[i],
                       "must be finite and within +-2^21");
  if (!(g->cs > 0 && g->cs <= COORD_LIMIT))
    return op_fail_d(err, OP_E_RANGE, "grid.cs", g->cs, "must be in (0, 2^21]");
  if (!(g->ch > 0 && g->ch <= COORD_LIMIT))
    return op_fail_d(err, OP_E_RANGE, "grid.ch", g->ch, "must be in (0, 2^21]");
  if (g->width < 1 || g->width > OP_HF_MAX_SIDE)
    return op_fail_i(err, OP_E_RANGE, "grid.width", g->width, "must be in [1, 16384]");
  if (g->depth < 1 || g->depth > OP_HF_MAX_SIDE)
    return op_fail_i(err, OP_E_RANGE, "grid.depth", g->depth, "must be in [1, 16384]");
  if (g->height < 1 || g->height > OP_HF_MAX_HEIGHT)
    return op_fail_i(err, OP_E_RANGE, "grid.height", g->height, "must be in [1, 65535]");
  if (g->gx0 < -(1 << 30) || g->gx0 > (1 << 30))
    return op_fail_i(err, OP_E_RANGE, "grid.gx0", g->gx0, "must be in [-2^30, 2^30]");
  if (g->gz0 < -(1 << 30) || g->gz0 > (1 << 30))
    return op_fail_i(err, OP_E_RANGE, "grid.gz0", g->gz0, "must be in [-2^30, 2^30]");
  return OP_OK;
}

/* SPAN-109: Snap(q) = RoundHalfEven(q * 2^20) * 2^-20 (both products exact), so a
** quotient within 2^-21 of an integer is that integer. */
static double snap(double q) {
  return op_rint_even(q * 1048576.0) * (1.0 / 1048576.0);
}

/* SPAN-102: ceil of a binary64 quotient q >= 0 that is at most 2^31 (exact integer rule). */
static int64_t ceil_nonneg(double q) {
  int64_t n = (int64_t)q; /* truncation = floor for q >= 0 */
  if ((double)n < q) n++;
  return n;
}

/* SPAN-102 */
op_status op_hf_grid_tile(const op_settings *s, const op_cell_settings *c,
                          const double origin[3], int32_t tx, int32_t tz, double y0,
                          double y1, op_hf_grid *out, op_error *err) {
  static const char *on[3] = {"origin.x", "origin.y", "origin.z"};
  if (!s || !c || !origin || !out)
    return op_fail(err, OP_E_ARGUMENT, "settings", "null", "an argument is missing");
  for (int i = 0; i < 3; i++)
    if (!finite_in(origin[i], COORD_LIMIT))
      return op_fail_d(err, OP_E_RANGE, on[i], origin[i], "must be finite and within +-2^21");
  if (!finite_in(y0, COORD_LIMIT))
    return op_fail_d(err, OP_E_RANGE, "y0", y0, "must be finite and within +-2^21");
  if (!finite_in(y1, COORD_LIMIT) || y1 < y0)
    return op_fail_d(err, OP_E_RANGE, "y1", y1, "must be finite, within +-2^21 and >= y0");
  int64_t T = (int64_t)s->tile_cells, B = c->border;
  int64_t gx0 = (int64_t)tx * T - B, gz0 = (int64_t)tz * T - B;
  if (gx0 < -(1 << 30) || gx0 > (1 << 30))
    return op_fail_i(err, OP_E_RANGE, "tx", tx, "the tile's first column is out of range");
  if (gz0 < -(1 << 30) || gz0 > (1 << 30))
    return op_fail_i(err, OP_E_RANGE, "tz", tz, "the tile's first row is out of range");
  double q = snap((y1 - y0) / s->cell_height);
  if (!(q <= (double)(OP_HF_MAX_HEIGHT - 1)))
    return op_fail_d(err, OP_E_LIMIT, "y1", y1, "more than 65534 rows above y0");
  int64_t h = ceil_nonneg(q) + 1; /* one spare row: a top surface at y1 keeps its row */
  op_hf_grid g;
  g.origin[0] = origin[0];
  g.origin[1] = y0;
  g.origin[2] = origin[2];
  g.cs = s->cell_size;
  g.ch = s->cell_height;
  g.gx0 = (int32_t)gx0;
  g.gz0 = (int32_t)gz0;
  g.width = g.depth = (int32_t)(T + 2 * B);
  g.height = (int32_t)h;
  op_status st = op_hf_grid_validate(&g, err);
  if (st != OP_OK) return st;
  *out = g;
  return OP_OK;
}

op_status op_hf_create(const op_hf_grid *g, op_hf **out, op_error *err) {
  return opsp_hf_create_counted(g, NULL, out, err);
}

/* CONF-059: every allocation of the heightfield's life is counted on al. */
op_status opsp_hf_create_counted(const op_hf_grid *g, op_alloc_count *al, op_hf **out,
                                 op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  op_status st = op_hf_grid_validate(g, err);
  if (st != OP_OK) return st;
  op_hf *hf = opc_calloc(al, 1, sizeof *hf);
  size_t ncol = (size_t)g->width * (size_t)g->depth;
  if (hf) hf->alloc = al;
  if (hf) hf->head = opc_malloc(al, ncol * sizeof *hf->head);
  if (!hf || !hf->head) {
    free(hf);
    return opc_nomem(err, "grid");
  }
  for (size_t i = 0; i < ncol; i++) hf->head[i] = OP_HF_NONE;
  hf->grid = *g;
  hf->free_list = OP_HF_NONE;
  *out = hf;
  return OP_OK;
}

void op_hf_free(op_hf *hf) {
  if (!hf) return;
  free(hf->head);
  free(hf->pool);
  free(hf);
}

/* A free span slot, growing the pool when needed; OP_HF_NONE when out of memory.
** The pool never shrinks, so a reserved slot stays valid. */
static int hf_reserve(op_hf *hf) {
  if (hf->free_list != OP_HF_NONE || hf->npool < hf->cap) return 1;
  uint32_t ncap = hf->cap ? hf->cap * 2 : 1024;
  if (hf->cap >= 0x40000000u) return 0;
  op_hf_span *np = opc_realloc(hf->alloc, hf->pool, (size_t)ncap * sizeof *np);
  if (!np) return 0;
  hf->pool = np;
  hf->cap = ncap;
  return 1;
}

static uint32_t hf_take(op_hf *hf) { /* requires hf_reserve() == 1 */
  uint32_t i;
  if (hf->free_list != OP_HF_NONE) {
    i = hf->free_list;
    hf->free_list = hf->pool[i].next;
  } else {
    i = hf->npool++;
  }
  hf->count++;
  return i;
}

static void hf_release(op_hf *hf, uint32_t i) {
  hf->pool[i].next = hf->free_list;
  hf->free_list = i;
  hf->count--;
}

/* SPAN-110, SPAN-111: insert [smin, smax) with area into column (x, z), merging every
** span it overlaps or touches. Requires a reserved slot; cannot fail. */
static void hf_insert(op_hf *hf, int32_t x, int32_t z, uint16_t smin, uint16_t smax,
                      uint8_t area, int32_t climb) {
  uint32_t *headp = &hf->head[(size_t)z * (size_t)hf->grid.width + (size_t)x];
  uint32_t ni = hf_take(hf);
  op_hf_span *ns = &hf->pool[ni];
  ns->smin = smin;
  ns->smax = smax;
  ns->area = area;
  ns->next = OP_HF_NONE;
  uint32_t prev = OP_HF_NONE, cur = *headp;
  while (cur != OP_HF_NONE) {
    op_hf_span *c = &hf->pool[cur];
    if (c->smin > ns->smax) break;          /* wholly above: stop (SPAN-110) */
    if (c->smax < ns->smin) {               /* wholly below: go up */
      prev = cur;
      cur = c->next;
      continue;
    }
    /* overlaps or touches: merge (SPAN-111) */
    if (c->smin < ns->smin) ns->smin = c->smin;
    if (c->smax > ns->smax) ns->smax = c->smax;
    int32_t dtop = (int32_t)ns->smax - (int32_t)c->smax;
    if (dtop < 0) dtop = -dtop;
    if (dtop <= climb && c->area > ns->area) ns->area = c->area;
    uint32_t nx = c->next;
    hf_release(hf, cur);
    if (prev == OP_HF_NONE) *headp = nx;
    else hf->pool[prev].next = nx;
    cur = nx;
  }
  if (prev == OP_HF_NONE) {
    ns->next = *headp;
    *headp = ni;
  } else {
    ns->next = hf->pool[prev].next;
    hf->pool[prev].next = ni;
  }
}

/* SPAN-110 */
op_status op_hf_add_span(op_hf *hf, int32_t x, int32_t z, int32_t smin, int32_t smax,
                         uint8_t area, int32_t climb, op_error *err) {
  if (!hf) return op_fail(err, OP_E_ARGUMENT, "hf", "null", "the heightfield is missing");
  if (x < 0 || x >= hf->grid.width)
    return op_fail_i(err, OP_E_RANGE, "x", x, "column outside the grid");
  if (z < 0 || z >= hf->grid.depth)
    return op_fail_i(err, OP_E_RANGE, "z", z, "row outside the grid");
  if (smin < 0 || smin >= hf->grid.height)
    return op_fail_i(err, OP_E_RANGE, "smin", smin, "must be in [0, height - 1]");
  if (smax <= smin || smax > hf->grid.height)
    return op_fail_i(err, OP_E_RANGE, "smax", smax, "must be in [smin + 1, height]");
  if (area > 63) return op_fail_i(err, OP_E_RANGE, "area", area, "must be in [0, 63]");
  if (climb < 0) return op_fail_i(err, OP_E_RANGE, "climb", climb, "must be >= 0");
  if (!hf_reserve(hf))
    return opc_nomem(err, "hf");
  hf_insert(hf, x, z, (uint16_t)smin, (uint16_t)smax, area, climb);
  return OP_OK;
}

/* SPAN-104: the slope test, binary64 in the stated order. */
int op_tri_walkable(const double v0[3], const double v1[3], const double v2[3],
                    double slope_cos) {
  double e0x = v1[0] - v0[0], e0y = v1[1] - v0[1], e0z = v1[2] - v0[2];
  double e1x = v2[0] - v0[0], e1y = v2[1] - v0[1], e1z = v2[2] - v0[2];
  double nx = e0y * e1z - e0z * e1y;
  double ny = e0z * e1x - e0x * e1z;
  double nz = e0x * e1y - e0y * e1x;
  if (!(ny > 0)) return 0;
  double len2 = (nx * nx + ny * ny) + nz * nz;
  double c2 = slope_cos * slope_cos;
  return ny * ny > c2 * len2;
}

/* ---------------------------------------------------------------- clipping */

#define POLY_MAX 48 /* SPAN-106: 3 -> 6 -> 12 -> 24 -> 48 vertices at most */

/* SPAN-106 step 1: the crossing point q of the edge from vertex pj to vertex pi, whose d
** (dj, di) have opposite signs. It is computed from the endpoint nearer the line (a tie:
** the one with d > 0), so the point does not depend on the edge's direction and keeps its
** precision. */
static void crossing(const double *pj, double dj, const double *pi, double di, double L,
                     int axis, double q[3]) {
  const double *a = dj > 0 ? pj : pi, *b = dj > 0 ? pi : pj; /* d_a > 0 > d_b */
  double da = dj > 0 ? dj : di, db = dj > 0 ? di : dj;
  int near_a = da <= -db;
  const double *p = near_a ? a : b, *r = near_a ? b : a;
  double dp = near_a ? da : db, dr = near_a ? db : da;
  double s = dp / (dp - dr);
  q[0] = p[0] + (r[0] - p[0]) * s;
  q[1] = p[1] + (r[1] - p[1]) * s;
  q[2] = p[2] + (r[2] - p[2]) * s;
  q[axis] = L;
}

/* SPAN-106: one of the two polygons of Split(P, L, axis) into out: A (coordinate <= L) when
** above is 0, B (coordinate >= L) when it is 1. Returns its vertex count; an output with
** fewer than 3 vertices is empty (0). d_i = fl(L - p_i.axis) is computed as the walk
** reaches vertex i (d_j is the previous vertex's). */
static int split(const double (*in)[3], int n, double L, int axis, int above,
                 double (*out)[3]) {
  int m = 0;
  double dj = L - in[n - 1][axis];
  for (int i = 0, j = n - 1; i < n; j = i++) {
    double di = L - in[i][axis];
    if ((dj > 0 && di < 0) || (dj < 0 && di > 0)) crossing(in[j], dj, in[i], di, L, axis, out[m++]);
    if (above ? di <= 0 : di >= 0) memcpy(out[m++], in[i], sizeof in[i]); /* step 2 */
    dj = di;
  }
  return m < 3 ? 0 : m;
}

/* The piece of polygon p inside the strip [lo, hi] of an axis (SPAN-106); mn and mx are
** p's least and greatest coordinate on that axis (the caller has them: they are the same
** for every cell of a row). */
static int clip_strip(const double (*p)[3], int n, double lo, double hi, int axis, double mn,
                      double mx, double (*tmp)[3], double (*out)[3]) {
  /* A split with every vertex on one side (or on the line) returns the polygon as it is,
  ** in the same order: skip it (same result, less work). The piece above lo has its
  ** vertices at most mx (its new ones at lo), so with mx <= hi the split at hi is skipped
  ** too. */
  if (mn >= lo && mx <= hi) {
    memcpy(out, p, (size_t)n * sizeof *p);
    return n;
  }
  if (mn >= lo) return split(p, n, hi, axis, 0, out);
  if (mx <= hi) return split(p, n, lo, axis, 1, out);
  int nt = split(p, n, lo, axis, 1, tmp);
  return nt == 0 ? 0 : split((const double (*)[3])tmp, nt, hi, axis, 0, out);
}

/* What the cell stage reads of a cell's piece: its vertex count, whether every vertex lies
** on the cell's upper line x = xtop (SPAN-105 step 3) and its least and greatest y
** (SPAN-108), gathered vertex by vertex in the piece's order instead of storing it. */
typedef struct piece_stats {
  int n, on_top;
  double xtop, ymin, ymax;
} piece_stats;

static void stats_init(piece_stats *st, double xtop) {
  st->n = 0;
  st->on_top = 1;
  st->xtop = xtop;
  st->ymin = st->ymax = 0; /* set by the first vertex */
}

static void stats_add(piece_stats *st, const double v[3]) {
  if (st->n == 0) {
    st->ymin = st->ymax = v[1];
  } else {
    if (v[1] < st->ymin) st->ymin = v[1];
    if (v[1] > st->ymax) st->ymax = v[1];
  }
  if (v[0] != st->xtop) st->on_top = 0;
  st->n++;
}

/* split (SPAN-106) on the x axis, the output's vertices, the same in the same order, going
** to out (from stats_init) instead of an array. Returns the output's count, 0 when below
** 3 (empty). */
static int split_stats(const double (*in)[3], int n, double L, int above, piece_stats *out) {
  double dj = L - in[n - 1][0];
  for (int i = 0, j = n - 1; i < n; j = i++) {
    double di = L - in[i][0];
    if ((dj > 0 && di < 0) || (dj < 0 && di > 0)) {
      double q[3];
      crossing(in[j], dj, in[i], di, L, 0, q);
      stats_add(out, q);
    }
    if (above ? di <= 0 : di >= 0) stats_add(out, in[i]); /* step 2 */
    dj = di;
  }
  return out->n < 3 ? 0 : out->n;
}

/* clip_strip on the x axis for the cell [lo, hi] of a row piece p, as statistics: the same
** splits, the last one into st. Returns the piece's count (0: empty). */
static int clip_cell(const double (*p)[3], int n, double lo, double hi, double mn, double mx,
                     double (*tmp)[3], piece_stats *st) {
  stats_init(st, hi);
  if (mn >= lo && mx <= hi) {
    for (int i = 0; i < n; i++) stats_add(st, p[i]);
    return n;
  }
  if (mn >= lo) return split_stats(p, n, hi, 0, st);
  if (mx <= hi) return split_stats(p, n, lo, 1, st);
  int nt = split(p, n, lo, 0, 1, tmp);
  return nt == 0 ? 0 : split_stats((const double (*)[3])tmp, nt, hi, 0, st);
}

/* SPAN-105 step 3: 1 when every vertex lies on the line axis = L (a piece lying in the
** upper line of its cell belongs to the next cell). */
static int on_line(const double (*p)[3], int n, double L, int axis) {
  for (int i = 0; i < n; i++)
    if (p[i][axis] != L) return 0;
  return 1;
}

/* SPAN-107: the first and last row (or column) index k in [0, cnt-1] that can hold a
** piece of [tmin, tmax]: first k with line(k+1) >= tmin, last k with line(k) <= tmax.
** Other indices give empty pieces; the estimate only saves time. */
static int index_range(const op_hf_grid *g, int axis, double tmin, double tmax, int32_t cnt,
                       int32_t *k0, int32_t *k1) {
  double o = axis == 0 ? g->origin[0] : g->origin[2];
  int32_t g0 = axis == 0 ? g->gx0 : g->gz0;
#define LINE(k) (axis == 0 ? opsp_grid_line_x(g, (k)) : opsp_grid_line_z(g, (k)))
  if (tmax < LINE(0) || tmin > LINE(cnt)) return 0;
  double e = (tmin - o) / g->cs - (double)g0;
  int32_t a = e < 0 ? 0 : e > (double)(cnt - 1) ? cnt - 1 : (int32_t)e;
  while (a > 0 && LINE(a) >= tmin) a--;
  while (a < cnt - 1 && LINE(a + 1) < tmin) a++;
  e = (tmax - o) / g->cs - (double)g0;
  int32_t b = e < 0 ? 0 : e > (double)(cnt - 1) ? cnt - 1 : (int32_t)e;
  while (b < cnt - 1 && LINE(b + 1) <= tmax) b++;
  while (b > 0 && LINE(b) > tmax) b--;
#undef LINE
  *k0 = a;
  *k1 = b;
  return a <= b;
}

/* SPAN-108: the rows of a piece's heights; 0 when the piece adds no span. */
static int span_rows(const op_hf_grid *g, double ymin, double ymax, uint16_t *smin,
                     uint16_t *smax) {
  double qa = snap((ymin - g->origin[1]) / g->ch); /* SPAN-109 */
  double qb = snap((ymax - g->origin[1]) / g->ch);
  double H = (double)g->height;
  if (qb < 0 || qa > H) return 0;
  if (qa < 0) qa = 0;
  if (qb > H) qb = H;
  int32_t lo = (int32_t)qa; /* floor: qa >= 0 */
  if (lo > g->height - 1) lo = g->height - 1;
  int32_t hi = (int32_t)qb;
  if ((double)hi < qb) hi++; /* ceil */
  if (hi < lo + 1) hi = lo + 1;
  *smin = (uint16_t)lo;
  *smax = (uint16_t)hi;
  return 1;
}

/* SPAN-105, SPAN-106, SPAN-107, SPAN-108: one triangle. Returns 0 when out of memory (the heightfield then
** holds part of the triangle; the caller restores it). */
static int raster_tri(op_hf *hf, const double *v0, const double *v1, const double *v2,
                      uint8_t area, int32_t climb) {
  const op_hf_grid *g = &hf->grid;
  double tri[3][3], tmp[POLY_MAX][3], row[POLY_MAX][3];
  memcpy(tri[0], v0, sizeof tri[0]);
  memcpy(tri[1], v1, sizeof tri[1]);
  memcpy(tri[2], v2, sizeof tri[2]);
  double mn[3], mx[3];
  for (int c = 0; c < 3; c++) {
    mn[c] = mx[c] = tri[0][c];
    for (int i = 1; i < 3; i++) {
      if (tri[i][c] < mn[c]) mn[c] = tri[i][c];
      if (tri[i][c] > mx[c]) mx[c] = tri[i][c];
    }
  }
  int32_t z0, z1;
  if (!index_range(g, 2, mn[2], mx[2], g->depth, &z0, &z1)) return 1;
  int32_t xa, xb;
  if (!index_range(g, 0, mn[0], mx[0], g->width, &xa, &xb)) return 1;
  for (int32_t z = z0; z <= z1; z++) {
    const double ztop = opsp_grid_line_z(g, z + 1);
    int nr = clip_strip((const double (*)[3])tri, 3, opsp_grid_line_z(g, z), ztop, 2, mn[2], mx[2],
                        tmp, row);
    if (nr == 0 || on_line(row, nr, ztop, 2)) continue; /* SPAN-105 step 3 */
    double rmin = row[0][0], rmax = row[0][0];
    for (int i = 1; i < nr; i++) {
      if (row[i][0] < rmin) rmin = row[i][0];
      if (row[i][0] > rmax) rmax = row[i][0];
    }
    int32_t x0, x1;
    if (!index_range(g, 0, rmin, rmax, g->width, &x0, &x1)) continue;
    for (int32_t x = x0; x <= x1; x++) {
      piece_stats cell;
      int nc = clip_cell((const double (*)[3])row, nr, opsp_grid_line_x(g, x),
                         opsp_grid_line_x(g, x + 1), rmin, rmax, tmp, &cell);
      if (nc == 0 || cell.on_top) continue; /* SPAN-105 step 3 */
      uint16_t smin, smax;
      if (!span_rows(g, cell.ymin, cell.ymax, &smin, &smax)) continue;
      if (!hf_reserve(hf)) return 0;
      hf_insert(hf, x, z, smin, smax, area, climb);
    }
  }
  return 1;
}

/* A copy of the heightfield's mutable state, to restore after a failure. */
typedef struct hf_backup {
  uint32_t *head;
  op_hf_span *pool;
  uint32_t npool, free_list, count;
} hf_backup;

static int hf_save(const op_hf *hf, hf_backup *b) {
  size_t ncol = (size_t)hf->grid.width * (size_t)hf->grid.depth;
  b->head = opc_malloc(hf->alloc, ncol * sizeof *b->head);
  b->pool = hf->npool ? opc_malloc(hf->alloc, (size_t)hf->npool * sizeof *b->pool) : NULL;
  if (!b->head || (hf->npool && !b->pool)) {
    free(b->head);
    free(b->pool);
    return 0;
  }
  memcpy(b->head, hf->head, ncol * sizeof *b->head);
  if (hf->npool) memcpy(b->pool, hf->pool, (size_t)hf->npool * sizeof *b->pool);
  b->npool = hf->npool;
  b->free_list = hf->free_list;
  b->count = hf->count;
  return 1;
}

static void hf_restore(op_hf *hf, hf_backup *b) {
  size_t ncol = (size_t)hf->grid.width * (size_t)hf->grid.depth;
  memcpy(hf->head, b->head, ncol * sizeof *b->head);
  if (b->npool) memcpy(hf->pool, b->pool, (size_t)b->npool * sizeof *b->pool);
  hf->npool = b->npool;
  hf->free_list = b->free_list;
  hf->count = b->count;
}

static void hf_backup_free(hf_backup *b) {
  free(b->head);
  free(b->pool);
}

/* SPAN-103: the soup's own checks (SPAN-051, SPAN-052), then the triangle list. */
static op_status check_soup(const op_soup *soup, const uint32_t *tris, uint32_t n,
                            op_error *err) {
  char field[64];
  if (!soup) return op_fail(err, OP_E_ARGUMENT, "soup", "null", "the soup is missing");
  op_status st = op_soup_validate(soup, err);
  if (st != OP_OK) return st;
  if (tris) {
    for (uint32_t i = 0; i < n; i++) {
      if (tris[i] >= soup->ntris) {
        snprintf(field, sizeof field, "tris[%u]", i);
        return op_fail_i(err, OP_E_RANGE, field, tris[i], "triangle index out of range");
      }
      if (i > 0 && tris[i] <= tris[i - 1]) {
        snprintf(field, sizeof field, "tris[%u]", i);
        return op_fail_i(err, OP_E_ARGUMENT, field, tris[i],
                         "triangle indices must be strictly ascending");
      }
    }
  }
  return OP_OK;
}

/* SPAN-103, SPAN-104, SPAN-105, SPAN-108, SPAN-110 */
op_status op_hf_rasterize(op_hf *hf, const op_soup *soup, const uint32_t *tris, uint32_t n,
                          double slope_cos, int32_t climb, op_error *err) {
  if (!hf) return op_fail(err, OP_E_ARGUMENT, "hf", "null", "the heightfield is missing");
  op_status st = check_soup(soup, tris, n, err);
  if (st != OP_OK) return st;
  return opsp_rasterize_trusted(hf, soup, tris, n, slope_cos, climb, err);
}

/* The same, for a soup and triangle list the caller has already checked (SPAN-103). */
op_status opsp_rasterize_trusted(op_hf *hf, const op_soup *soup, const uint32_t *tris,
                                 uint32_t n, double slope_cos, int32_t climb, op_error *err) {
  if (!(slope_cos >= 0 && slope_cos <= 1))
    return op_fail_d(err, OP_E_RANGE, "slope_cos", slope_cos, "must be in [0, 1]");
  if (climb < 0) return op_fail_i(err, OP_E_RANGE, "climb", climb, "must be >= 0");
  uint32_t count = tris ? n : soup->ntris;
  hf_backup b;
  if (!hf_save(hf, &b))
    return opc_nomem(err, "hf");
  for (uint32_t i = 0; i < count; i++) { /* SPAN-103: input order */
    uint32_t t = tris ? tris[i] : i;
    const double *v0 = &soup->verts[3 * (size_t)soup->tris[3 * (size_t)t]];
    const double *v1 = &soup->verts[3 * (size_t)soup->tris[3 * (size_t)t + 1]];
    const double *v2 = &soup->verts[3 * (size_t)soup->tris[3 * (size_t)t + 2]];
    uint8_t area = op_tri_walkable(v0, v1, v2, slope_cos) ? OP_AREA_WALKABLE : OP_AREA_NULL;
    if (!raster_tri(hf, v0, v1, v2, area, climb)) {
      hf_restore(hf, &b);
      hf_backup_free(&b);
      return opc_nomem(err, "hf");
    }
  }
  hf_backup_free(&b);
  return OP_OK;
}

/* SPAN-113: heightfield input, straight into the grid. */
op_status op_hf_add_columns(op_hf *hf, const op_solid_columns *cols, int32_t climb,
                            op_error *err) {
  if (!hf) return op_fail(err, OP_E_ARGUMENT, "hf", "null", "the heightfield is missing");
  if (!cols || !cols->col_start || (cols->nspans && !cols->spans))
    return op_fail(err, OP_E_ARGUMENT, "cols", "null", "the heightfield input is missing");
  if (climb < 0) return op_fail_i(err, OP_E_RANGE, "climb", climb, "must be >= 0");
  const op_hf_grid *g = &hf->grid;
  if (cols->origin[0] != g->origin[0] || cols->origin[1] != g->origin[1] ||
      cols->origin[2] != g->origin[2])
    return op_fail(err, OP_E_ARGUMENT, "grid", "origin",
                   "the grid's origin differs from the heightfield input's");
  /* Pass 1: check every span that would be inserted; pass 2 inserts. */
  for (int pass = 0; pass < 2; pass++) {
    hf_backup b;
    if (pass == 1 && !hf_save(hf, &b))
      return opc_nomem(err, "hf");
    for (int32_t z = 0; z < g->depth; z++) {
      int64_t iz = (int64_t)g->gz0 + z;
      if (iz < 0 || iz >= (int64_t)cols->depth) continue;
      for (int32_t x = 0; x < g->width; x++) {
        int64_t ix = (int64_t)g->gx0 + x;
        if (ix < 0 || ix >= (int64_t)cols->width) continue;
        size_t c = (size_t)iz * cols->width + (size_t)ix;
        if (pass == 0 && (cols->col_start[c] > cols->col_start[c + 1] ||
                          cols->col_start[c + 1] > cols->nspans)) {
          char field[48];
          snprintf(field, sizeof field, "col_start[%zu]", c + 1);
          return op_fail_i(err, OP_E_ARGUMENT, field, cols->col_start[c + 1],
                           "column offsets must ascend up to nspans");
        }
        for (uint32_t s = cols->col_start[c]; s < cols->col_start[c + 1]; s++) {
          const op_solid_span *sp = &cols->spans[s];
          if (pass == 0) {
            if (sp->ymin < 0 || sp->ymax <= sp->ymin || sp->ymax > g->height ||
                sp->area > 63) {
              char field[48];
              snprintf(field, sizeof field, "spans[%u].ymax", s);
              return op_fail_i(err, OP_E_RANGE, field, sp->ymax,
                               "outside the grid's rows (or not a valid span)");
            }
            continue;
          }
          if (!hf_reserve(hf)) {
            hf_restore(hf, &b);
            hf_backup_free(&b);
            return opc_nomem(err, "hf");
          }
          hf_insert(hf, x, z, (uint16_t)sp->ymin, (uint16_t)sp->ymax, sp->area, climb);
        }
      }
    }
    if (pass == 1) hf_backup_free(&b);
  }
  return OP_OK;
}
