/*
** bench_build2d.c -- benchmark of the 2D builder (spec/build2d-tiles.md, issue 8): build
** time against region size and tile count. Not a test: it checks nothing but that each
** build succeeds, and prints one table row per build.
**
** Workloads (deterministic, op_prng):
**   tilemap  cave-like random tile maps of N x N cells (55 % walkable, 4 rounds of a 5-of-9
**            smoothing rule), one world unit per cell, CellSize 1 (SnapBits 8);
**   outline  "levels" of side S world units: a wobbly outer ring of S/2 odd-angle vertices
**            and (S/16)^2 obstacles (rotated rectangles and triangles at random angles,
**            some overlapping), CellSize 0.5 (SnapBits 9).
** Each is built with TileSize 32, 64 and 128 cells, and some also with AgentRadius 0.5 (the
** shrink stage); every time is the minimum of 3 builds (1 with "quick"). Columns: the
** region's ring vertices; the time of the region stage alone (g2_region_from_tilemap /
** _from_outlines and the obstacle difference: kit tier, include/onepath_geometry2d.h); the
** total build time
** (op_build2d_*_tiles + op_build2d_assemble: region, shrink, slice, triangulation,
** partition, tiles, mesh); tiles, polygons and triangles (the sum of nverts - 2 over the
** polygons: the inside triangles the partition merged); microseconds per triangle.
**
**   bench-build2d [quick|full]     (default: full; quick stops at 200^2 and S = 400)
*/
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "onepath.h"
#include "onepath_build2d.h"
#include "onepath_geometry2d.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

typedef struct stats {
  size_t tiles, polys, tris, verts;
} stats;

static void mesh_stats(op_tile **t, size_t n, stats *s) {
  memset(s, 0, sizeof *s);
  s->tiles = n;
  for (size_t i = 0; i < n; i++) {
    op_tile_desc v;
    op_tile_view(t[i], &v);
    s->polys += v.npolys;
    s->verts += v.nverts;
    for (uint32_t p = 0; p < v.npolys; p++) s->tris += (size_t)v.polys[p].nverts - 2;
  }
}

static void row(const char *kind, const char *size, uint32_t tc, double radius, size_t rverts,
                double t_region, double t_total, const stats *s) {
  printf("| %-7s | %-10s | %4u | %4.1f | %8zu | %9.1f | %9.1f | %6zu | %8zu | %8zu | %6.2f |\n", kind,
         size, tc, radius, rverts, t_region, t_total, s->tiles, s->polys, s->tris,
         s->tris ? 1e3 * t_total / (double)s->tris : 0.0);
  fflush(stdout);
}

static size_t region_verts(const g2_region *r) { return r->npts; }

/* ---------------------------------------------------------------- tile maps */

static uint8_t *cave(int n, uint64_t seed) {
  op_prng r;
  op_prng_seed(&r, seed);
  uint8_t *a = malloc((size_t)n * n), *b = malloc((size_t)n * n);
  if (!a || !b) abort();
  for (int i = 0; i < n * n; i++) a[i] = op_prng_below(&r, 100) < 55;
  for (int round = 0; round < 4; round++) {
    for (int y = 0; y < n; y++)
      for (int x = 0; x < n; x++) {
        int c = 0;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++) {
            int xx = x + dx, yy = y + dy;
            c += (xx >= 0 && yy >= 0 && xx < n && yy < n) ? a[yy * n + xx] : 0;
          }
        b[y * n + x] = c >= 5;
      }
    uint8_t *t = a; a = b; b = t;
  }
  free(b);
  return a;
}

static int g_reps = 3; /* each time is the minimum over this many builds */

static void bench_tilemap(int n, uint32_t tc, double radius) {
  uint8_t *cells = cave(n, 1000 + (uint64_t)n);
  op_settings2d s;
  op_settings2d_preset("Large", &s, NULL);
  s.cell_size = 1.0;
  s.agent_radius = radius;
  s.tile_cells = tc;
  double mo[2] = {0, 0};
  op_error e;
  int sb = op_finest_snap_bits(s.cell_size);
  double best_r = 1e300, best_t = 1e300;
  size_t rv = 0;
  stats st;
  for (int rep = 0; rep < g_reps; rep++) {
    g2_region r;
    double t0 = now_ms();
    if (g2_region_from_tilemap(cells, n, n, 0, 0, 1.0, sb, &r, &e)) { fprintf(stderr, "region: %s\n", e.message); exit(1); }
    double t1 = now_ms();
    rv = region_verts(&r);
    g2_region_free(&r);
    op_tile **t = NULL;
    size_t nt = 0;
    double t2 = now_ms();
    op_mesh *m = NULL;
    if (op_build2d_tilemap_tiles(&s, cells, n, n, mo, 1.0, NULL, 0, &t, &nt, &e) ||
        op_build2d_assemble(&s, t, nt, &m, &e)) {
      fprintf(stderr, "tilemap %d: %s %s %s\n", n, op_status_name(e.kind), e.field, e.message);
      exit(1);
    }
    double t3 = now_ms();
    if (t1 - t0 < best_r) best_r = t1 - t0;
    if (t3 - t2 < best_t) best_t = t3 - t2;
    mesh_stats(t, nt, &st);
    op_mesh_free(m);
    op_build2d_tiles_free(t, nt);
  }
  char size[32];
  snprintf(size, sizeof size, "%dx%d", n, n);
  row("tilemap", size, tc, radius, rv, best_r, best_t, &st);
  free(cells);
}

/* ---------------------------------------------------------------- outline levels */

typedef struct level {
  double *xy;        /* all points */
  op_outline2d *out; /* 1 outline */
  op_outline2d *obs;
  size_t nobs;
} level;

static void make_level(double S, uint64_t seed, level *L) {
  op_prng r;
  op_prng_seed(&r, seed);
  size_t nring = (size_t)(S / 2);
  size_t nobs = (size_t)((S / 16) * (S / 16));
  L->xy = malloc((2 * nring + 8 * nobs + 2) * sizeof *L->xy);
  L->out = malloc(sizeof *L->out);
  L->obs = malloc((nobs + 1) * sizeof *L->obs);
  if (!L->xy || !L->out || !L->obs) abort();
  double c = S / 2, *p = L->xy;
  for (size_t i = 0; i < nring; i++) { /* wobbly ring, odd angles */
    double a = 6.283185307179586 * ((double)i + 0.3 * op_prng_unit(&r)) / (double)nring;
    double rad = S * (0.44 + 0.05 * op_prng_unit(&r));
    p[2 * i] = c + rad * cos(a);
    p[2 * i + 1] = c + rad * sin(a);
  }
  L->out[0].xy = p;
  L->out[0].count = nring;
  p += 2 * nring;
  for (size_t k = 0; k < nobs; k++) { /* obstacles on a jittered grid, random angles */
    double cx = S * 0.1 + S * 0.8 * op_prng_unit(&r), cy = S * 0.1 + S * 0.8 * op_prng_unit(&r);
    double a = 6.283185307179586 * op_prng_unit(&r), w = 1 + 4 * op_prng_unit(&r),
           h = 1 + 4 * op_prng_unit(&r);
    double ca = cos(a), sa = sin(a);
    size_t n = op_prng_below(&r, 3) == 0 ? 3 : 4;
    for (size_t j = 0; j < n; j++) {
      double lx, ly;
      if (n == 4) { lx = (j == 1 || j == 2) ? w : -w; ly = j >= 2 ? h : -h; }
      else { lx = j == 0 ? -w : j == 1 ? w : 0; ly = j == 2 ? h : -h; }
      p[2 * j] = cx + lx * ca - ly * sa;
      p[2 * j + 1] = cy + lx * sa + ly * ca;
    }
    L->obs[k].xy = p;
    L->obs[k].count = n;
    p += 2 * n;
  }
  L->nobs = nobs;
}

static void bench_outline(double S, uint32_t tc, double radius) {
  level L;
  make_level(S, 77 + (uint64_t)S, &L);
  op_settings2d s;
  op_settings2d_preset("Large", &s, NULL);
  s.cell_size = 0.5;
  s.agent_radius = radius;
  s.tile_cells = tc;
  op_error e;
  int sb = op_finest_snap_bits(s.cell_size);
  double best_r = 1e300, best_t = 1e300;
  size_t rv = 0;
  stats st;
  g2_outline *go = malloc((L.nobs + 1) * sizeof *go);
  if (!go) abort();
  for (int rep = 0; rep < g_reps; rep++) {
    g2_region r, d;
    double t0 = now_ms();
    go[0].xy = L.out[0].xy;
    go[0].count = L.out[0].count;
    if (g2_region_from_outlines(go, 1, sb, &r, &e)) { fprintf(stderr, "region: %s\n", e.message); exit(1); }
    for (size_t k = 0; k < L.nobs; k++) {
      go[k].xy = L.obs[k].xy;
      go[k].count = L.obs[k].count;
    }
    if (g2_region_difference(&r, go, L.nobs, &d, &e)) { fprintf(stderr, "region: %s\n", e.message); exit(1); }
    double t1 = now_ms();
    rv = region_verts(&d);
    g2_region_free(&r);
    g2_region_free(&d);
    op_tile **t = NULL;
    size_t nt = 0;
    op_mesh *m = NULL;
    double t2 = now_ms();
    if (op_build2d_outlines_tiles(&s, L.out, 1, L.obs, L.nobs, &t, &nt, &e) ||
        op_build2d_assemble(&s, t, nt, &m, &e)) {
      fprintf(stderr, "outline %g: %s %s %s\n", S, op_status_name(e.kind), e.field, e.message);
      exit(1);
    }
    double t3 = now_ms();
    if (t1 - t0 < best_r) best_r = t1 - t0;
    if (t3 - t2 < best_t) best_t = t3 - t2;
    mesh_stats(t, nt, &st);
    op_mesh_free(m);
    op_build2d_tiles_free(t, nt);
  }
  free(go);
  char size[32];
  snprintf(size, sizeof size, "S=%g/%zu", S, L.nobs);
  row("outline", size, tc, radius, rv, best_r, best_t, &st);
  free(L.xy);
  free(L.out);
  free(L.obs);
}

int main(int argc, char **argv) {
  int quick = argc > 1 && !strcmp(argv[1], "quick");
  if (quick) g_reps = 1;
  static const uint32_t tcs[] = {32, 64, 128};
  printf("| input   | size       | tile | r    | region v | region ms | total ms  | tiles  | polygons | tris     | us/tri |\n");
  printf("|---------|------------|------|------|----------|-----------|-----------|--------|----------|----------|--------|\n");
  static const int ns[] = {50, 100, 200, 400};
  for (size_t i = 0; i < 4; i++) {
    if (quick && ns[i] > 200) break;
    for (size_t k = 0; k < 3; k++) bench_tilemap(ns[i], tcs[k], 0);
  }
  static const double ss[] = {100, 200, 400, 800};
  for (size_t i = 0; i < 4; i++) {
    if (quick && ss[i] > 400) break;
    for (size_t k = 0; k < 3; k++) bench_outline(ss[i], tcs[k], 0);
  }
  /* with the shrink (AgentRadius 0.5: round joins, union tree, difference) */
  for (size_t i = 0; i < 3; i++) {
    if (quick && ns[i] > 100) break;
    bench_tilemap(ns[i], 64, 0.5);
  }
  for (size_t i = 0; i < 3; i++) {
    if (quick && ss[i] > 200) break;
    bench_outline(ss[i], 64, 0.5);
  }
  return 0;
}
