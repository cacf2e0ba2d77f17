/*
** test_region.c -- Regions (spec/build2d-geometry.md sections 1, 2, 4): snapping, union
** of outlines, tile maps, difference, canonical form, order independence.
** Expected rings are worked out by hand from the clauses named by each test.
*/
#include <stdlib.h>
#include <string.h>

#include "build2d/geometry/g2d.h"
#include "optest.h"

/* Compare a region with expected rings given as flat (x, y) grid lists. */
typedef struct exring {
  int n;
  const int64_t *xy;
} exring;

static int region_is(const g2_region *r, const exring *rings, int nr) {
  if ((int)r->nrings != nr) return 0;
  for (int k = 0; k < nr; k++) {
    size_t a = r->ring_start[k], b = r->ring_start[k + 1];
    if ((int)(b - a) != rings[k].n) return 0;
    for (int i = 0; i < rings[k].n; i++)
      if (r->pts[a + i].x != rings[k].xy[2 * i] || r->pts[a + i].y != rings[k].xy[2 * i + 1])
        return 0;
  }
  return 1;
}

static int region_eq(const g2_region *a, const g2_region *b) {
  if (a->nrings != b->nrings || a->npts != b->npts) return 0;
  for (size_t i = 0; i <= a->nrings; i++)
    if (a->ring_start[i] != b->ring_start[i]) return 0;
  for (size_t i = 0; i < a->npts; i++)
    if (g2_point_cmp(a->pts[i], b->pts[i])) return 0;
  return 1;
}

OPT_TEST(snap_rounding, "G2D-002") {
  int64_t g = 0;
  OPT_CHECK(g2_snap_coord(1.5, 0, "x", &g, NULL) == OP_OK && g == 2);
  OPT_CHECK(g2_snap_coord(2.5, 0, "x", &g, NULL) == OP_OK && g == 2);
  OPT_CHECK(g2_snap_coord(-0.5, 0, "x", &g, NULL) == OP_OK && g == 0);
  OPT_CHECK(g2_snap_coord(-1.5, 0, "x", &g, NULL) == OP_OK && g == -2);
  /* 0.3 * 256 = 76.8 -> 77 */
  OPT_CHECK(g2_snap_coord(0.3, 8, "x", &g, NULL) == OP_OK && g == 77);
  /* 2^21 at 16 bits = 2^37 exactly */
  OPT_CHECK(g2_snap_coord(2097152.0, 16, "x", &g, NULL) == OP_OK && g == ((int64_t)1 << 37));
  OPT_CHECK(g2_snap_coord(-2097152.0, 16, "x", &g, NULL) == OP_OK && g == -((int64_t)1 << 37));
  /* half a unit at 16 bits: 2^-17 -> 0.5 -> 0 (even); 3 * 2^-17 -> 1.5 -> 2 */
  OPT_CHECK(g2_snap_coord(0x1p-17, 16, "x", &g, NULL) == OP_OK && g == 0);
  OPT_CHECK(g2_snap_coord(0x3p-17, 16, "x", &g, NULL) == OP_OK && g == 2);
}

OPT_TEST(snap_range_errors, "G2D-003") {
  op_error e;
  int64_t g = 42;
  OPT_CHECK(g2_snap_coord(2097152.5, 0, "Outlines[0][1].x", &g, &e) == OP_E_RANGE);
  OPT_CHECK(strcmp(e.field, "Outlines[0][1].x") == 0 && g == 42);
  OPT_CHECK(strstr(e.message, "2097152.5") != NULL);
  OPT_CHECK(g2_snap_coord(0.0 / 0.0, 0, "x", &g, &e) == OP_E_RANGE);
  OPT_CHECK(g2_snap_coord(1.0, 17, "x", &g, &e) == OP_E_RANGE && strcmp(e.field, "SnapBits") == 0);
  OPT_CHECK(g2_snap_coord(1.0, -1, "x", &g, &e) == OP_E_RANGE);
}

static op_status outl(const double *const *xy, const size_t *cnt, size_t n, int sb,
                      g2_region *r) {
  g2_outline o[16];
  for (size_t i = 0; i < n; i++) { o[i].xy = xy[i]; o[i].count = cnt[i]; }
  return g2_region_from_outlines(o, n, sb, r, NULL);
}

OPT_TEST(square_ccw_and_cw, "G2D-021") {
  /* one square either orientation -> the same CCW ring starting at (0,0) (G2D-093) */
  static const double ccw[] = {0, 0, 4, 0, 4, 4, 0, 4};
  static const double cw[] = {4, 4, 4, 0, 0, 0, 0, 4};
  static const int64_t want[] = {0, 0, 4, 0, 4, 4, 0, 4};
  exring ex = {4, want};
  g2_region r = {0};
  const double *a[1] = {ccw};
  size_t c[1] = {4};
  OPT_CHECK(outl(a, c, 1, 0, &r) == OP_OK && region_is(&r, &ex, 1));
  g2_region_free(&r);
  a[0] = cw;
  OPT_CHECK(outl(a, c, 1, 0, &r) == OP_OK && region_is(&r, &ex, 1));
  OPT_CHECK(g2_region_area2(&r) == 32);
  g2_region_free(&r);
}

OPT_TEST(overlap_opposite_orientation, "G2D-022") {
  /* [0,4]^2 CCW and [2,6]^2 CW: covered by either -> an L-free octagon-like union
  ** (0,0) (4,0) (4,2) (6,2) (6,6) (2,6) (2,4) (0,4). The crossings (4,2) and (2,4)
  ** are grid points. Area 16 + 16 - 4 = 28 -> twice 56. */
  static const double a0[] = {0, 0, 4, 0, 4, 4, 0, 4};
  static const double a1[] = {2, 2, 2, 6, 6, 6, 6, 2};
  static const int64_t want[] = {0, 0, 4, 0, 4, 2, 6, 2, 6, 6, 2, 6, 2, 4, 0, 4};
  exring ex = {8, want};
  g2_region r = {0};
  const double *a[2] = {a0, a1};
  size_t c[2] = {4, 4};
  OPT_CHECK(outl(a, c, 2, 0, &r) == OP_OK && region_is(&r, &ex, 1));
  OPT_CHECK(g2_region_area2(&r) == 56);
  g2_region_free(&r);
}

OPT_TEST(nested_is_union, "G2D-022") {
  /* a small square inside a big one, opposite orientation: still covered -> big square */
  static const double big[] = {0, 0, 10, 0, 10, 10, 0, 10};
  static const double small[] = {2, 2, 2, 8, 8, 8, 8, 2};
  static const int64_t want[] = {0, 0, 10, 0, 10, 10, 0, 10};
  exring ex = {4, want};
  g2_region r = {0};
  const double *a[2] = {small, big};
  size_t c[2] = {4, 4};
  OPT_CHECK(outl(a, c, 2, 0, &r) == OP_OK && region_is(&r, &ex, 1));
  g2_region_free(&r);
}

OPT_TEST(difference_hole, "G2D-035") {
  /* [0,10]^2 minus [2,8]^2 -> outer CCW ring and a CW hole starting at (2,2):
  ** (2,2) (2,8) (8,8) (8,2). Rings sorted by first vertex: outer (0,0) first. */
  static const double big[] = {0, 0, 10, 0, 10, 10, 0, 10};
  static const double hole[] = {2, 2, 8, 2, 8, 8, 2, 8};
  static const int64_t w0[] = {0, 0, 10, 0, 10, 10, 0, 10};
  static const int64_t w1[] = {2, 2, 2, 8, 8, 8, 8, 2};
  exring ex[2] = {{4, w0}, {4, w1}};
  g2_region r = {0}, d = {0};
  const double *a[1] = {big};
  size_t c[1] = {4};
  OPT_CHECK(outl(a, c, 1, 0, &r) == OP_OK);
  g2_outline ob = {hole, 4};
  OPT_CHECK(g2_region_difference(&r, &ob, 1, &d, NULL) == OP_OK && region_is(&d, ex, 2));
  OPT_CHECK(g2_region_area2(&d) == 2 * (100 - 36));
  g2_region_free(&d);
  /* the same obstacle given on the grid, by one difference and by the union tree */
  static const g2_point hg[] = {{2, 2}, {8, 2}, {8, 8}, {2, 8}};
  g2_grid_outline gob = {hg, 4};
  OPT_CHECK(g2_region_difference_grid(&r, &gob, 1, &d, NULL) == OP_OK && region_is(&d, ex, 2));
  g2_region_free(&d);
  OPT_CHECK(g2_region_minus_tree(&r, &gob, 1, &d, NULL) == OP_OK && region_is(&d, ex, 2));
  g2_region_free(&d);
  /* an obstacle that covers everything -> empty region */
  static const double all[] = {-1, -1, 11, -1, 11, 11, -1, 11};
  g2_outline ob2 = {all, 4};
  OPT_CHECK(g2_region_difference(&r, &ob2, 1, &d, NULL) == OP_OK && d.nrings == 0);
  g2_region_free(&d);
  g2_region_free(&r);
}

OPT_TEST(degenerate_outlines, "G2D-024") {
  /* two points, a collinear triangle, an empty outline -> nothing */
  static const double seg[] = {0, 0, 5, 5};
  static const double flat[] = {0, 0, 2, 0, 5, 0};
  g2_region r = {0};
  const double *a[3] = {seg, flat, seg};
  size_t c[3] = {2, 3, 0};
  OPT_CHECK(outl(a, c, 3, 0, &r) == OP_OK && r.nrings == 0 && r.npts == 0);
  g2_region_free(&r);
}

OPT_TEST(bowtie_nonzero, "G2D-021") {
  /* bow-tie (0,0) (4,4) (4,0) (0,4): lobes of winding -1 and +1, both inside; they meet
  ** at (2,2) -> two rings touching there. Left lobe (0,0) (2,2) (0,4) has CCW order
  ** (0,0) (2,2) (0,4); right lobe (2,2) (4,0) (4,4). */
  static const double bt[] = {0, 0, 4, 4, 4, 0, 0, 4};
  static const int64_t w0[] = {0, 0, 2, 2, 0, 4};
  static const int64_t w1[] = {2, 2, 4, 0, 4, 4};
  exring ex[2] = {{3, w0}, {3, w1}};
  g2_region r = {0};
  const double *a[1] = {bt};
  size_t c[1] = {4};
  OPT_CHECK(outl(a, c, 1, 0, &r) == OP_OK && region_is(&r, ex, 2));
  g2_region_free(&r);
}

OPT_TEST(collinear_removed, "G2D-084") {
  /* a square given with extra points on its sides -> four corners only */
  static const double sq[] = {0, 0, 2, 0, 4, 0, 4, 3, 4, 4, 1, 4, 0, 4, 0, 1};
  static const int64_t want[] = {0, 0, 4, 0, 4, 4, 0, 4};
  exring ex = {4, want};
  g2_region r = {0};
  const double *a[1] = {sq};
  size_t c[1] = {8};
  OPT_CHECK(outl(a, c, 1, 0, &r) == OP_OK && region_is(&r, &ex, 1));
  g2_region_free(&r);
}

OPT_TEST(corner_touch_two_rings, "G2D-082") {
  /* squares [0,2]^2 and [2,4]^2 touch at (2,2) -> two rings, sorted by first vertex */
  static const double s0[] = {2, 2, 4, 2, 4, 4, 2, 4};
  static const double s1[] = {0, 0, 2, 0, 2, 2, 0, 2};
  static const int64_t w0[] = {0, 0, 2, 0, 2, 2, 0, 2};
  static const int64_t w1[] = {2, 2, 4, 2, 4, 4, 2, 4};
  exring ex[2] = {{4, w0}, {4, w1}};
  g2_region r = {0};
  const double *a[2] = {s0, s1};
  size_t c[2] = {4, 4};
  OPT_CHECK(outl(a, c, 2, 0, &r) == OP_OK && region_is(&r, ex, 2));
  g2_region_free(&r);
}

OPT_TEST(tilemap_cells, "G2D-032") {
  /* 3 x 2 map, cell 1, origin (0,0), snap 0:
  **   row 1: 1 1 0
  **   row 0: 1 0 1
  ** cells (0,0) (0,1) (1,1) form an L; cell (2,0) is separate and touches (1,1) at the
  ** corner (2,1). L ring: (0,0) (1,0) (1,1) (2,1) (2,2) (0,2); square: (2,0) (3,0) (3,1)
  ** (2,1). Sorted by first vertex. */
  static const uint8_t cells[] = {1, 0, 1, 1, 1, 0};
  static const int64_t w0[] = {0, 0, 1, 0, 1, 1, 2, 1, 2, 2, 0, 2};
  static const int64_t w1[] = {2, 0, 3, 0, 3, 1, 2, 1};
  exring ex[2] = {{6, w0}, {4, w1}};
  g2_region r = {0};
  OPT_CHECK(g2_region_from_tilemap(cells, 3, 2, 0, 0, 1, 0, &r, NULL) == OP_OK);
  OPT_CHECK(region_is(&r, ex, 2));
  g2_region_free(&r);
  /* cell 0.3 at snap 8: corner x = RoundHalfEven(0.3 * k * 256) for the double 0.3 * k */
  static const uint8_t one[] = {1};
  OPT_CHECK(g2_region_from_tilemap(one, 1, 1, 0.3, 0, 0.3, 8, &r, NULL) == OP_OK);
  OPT_CHECK(r.nrings == 1 && r.npts == 4 && r.pts[0].x == 77 && r.pts[1].x == 154 &&
            r.pts[2].y == 77);
  g2_region_free(&r);
}

OPT_TEST(tilemap_errors, "G2D-031") {
  static const uint8_t one[] = {1};
  op_error e;
  g2_region r = {0};
  OPT_CHECK(g2_region_from_tilemap(one, 1, 1, 0, 0, -1, 0, &r, &e) == OP_E_RANGE &&
            strcmp(e.field, "CellSize") == 0 && r.pts == NULL);
  OPT_CHECK(g2_region_from_tilemap(one, 1, 1, 2097152.0, 0, 1, 0, &r, &e) == OP_E_RANGE &&
            strcmp(e.field, "OriginX") == 0 && r.pts == NULL);
  OPT_CHECK(g2_region_from_tilemap(one, -1, 1, 0, 0, 1, 0, &r, &e) == OP_E_RANGE &&
            strcmp(e.field, "Width") == 0);
}

OPT_TEST(outline_errors, "G2D-020") {
  static const double bad[] = {0, 0, 1, 0, 1, 1e300};
  op_error e;
  g2_region r = {0};
  g2_outline o = {bad, 3};
  OPT_CHECK(g2_region_from_outlines(&o, 1, 0, &r, &e) == OP_E_RANGE);
  OPT_CHECK(strcmp(e.field, "Outlines[0][2].y") == 0 && r.pts == NULL);
  OPT_CHECK(g2_region_from_outlines(&o, 1, 99, &r, &e) == OP_E_RANGE &&
            strcmp(e.field, "SnapBits") == 0);
}

/* xorshift for shuffles (test-only) */
static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
  return *s;
}

OPT_TEST(order_independence, "G2D-025") {
  /* random polygons; shuffling outline order, start vertex and orientation gives the
  ** same canonical region */
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (int trial = 0; trial < 40; trial++) {
    enum { NO = 4, MAXP = 7 };
    double xy[NO][2 * MAXP], xy2[NO][2 * MAXP];
    size_t cnt[NO];
    for (int i = 0; i < NO; i++) {
      cnt[i] = 3 + rng_next(&seed) % (MAXP - 2);
      for (size_t j = 0; j < 2 * cnt[i]; j++)
        xy[i][j] = (double)(int)(rng_next(&seed) % 41) * 0.25 - 2.0; /* snap 1: ties */
    }
    int perm[NO] = {0, 1, 2, 3};
    for (int i = NO - 1; i > 0; i--) {
      int j = (int)(rng_next(&seed) % (uint64_t)(i + 1));
      int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    size_t cnt2[NO];
    for (int i = 0; i < NO; i++) {
      int src = perm[i];
      size_t n = cnt[src], rot = rng_next(&seed) % n;
      int rev = (int)(rng_next(&seed) & 1);
      cnt2[i] = n;
      for (size_t j = 0; j < n; j++) {
        size_t k = (rot + (rev ? n - j : j)) % n;
        xy2[i][2 * j] = xy[src][2 * k];
        xy2[i][2 * j + 1] = xy[src][2 * k + 1];
      }
    }
    const double *a[NO], *b[NO];
    for (int i = 0; i < NO; i++) { a[i] = xy[i]; b[i] = xy2[i]; }
    g2_region r1 = {0}, r2 = {0};
    OPT_CHECK(outl(a, cnt, NO, 1, &r1) == OP_OK);
    OPT_CHECK(outl(b, cnt2, NO, 1, &r2) == OP_OK);
    OPT_CHECK(region_eq(&r1, &r2));
    /* canonical-form invariants (G2D-090, G2D-093, G2D-094) */
    for (size_t k = 0; k < r1.nrings; k++) {
      size_t s = r1.ring_start[k], e = r1.ring_start[k + 1];
      OPT_CHECK(e - s >= 3);
      for (size_t i = s + 1; i < e; i++) OPT_CHECK(g2_point_cmp(r1.pts[s], r1.pts[i]) < 0);
      if (k) OPT_CHECK(g2_point_cmp(r1.pts[r1.ring_start[k - 1]], r1.pts[s]) <= 0);
    }
    OPT_CHECK(g2_region_area2(&r1) > 0 || r1.nrings == 0);
    /* idempotence: the region's own rings give the region again (G2D-095) */
    {
      g2_region r3 = {0};
      double *flat = malloc(2 * r1.npts * sizeof *flat + 1);
      g2_outline *os = malloc((r1.nrings + 1) * sizeof *os);
      for (size_t i = 0; i < r1.npts; i++) {
        flat[2 * i] = g2_grid_to_world(r1.pts[i].x, 1);
        flat[2 * i + 1] = g2_grid_to_world(r1.pts[i].y, 1);
      }
      /* holes as obstacles: outer rings (CCW) union, then minus holes */
      size_t no = 0, nh = 0;
      g2_outline *hs = malloc((r1.nrings + 1) * sizeof *hs);
      for (size_t k = 0; k < r1.nrings; k++) {
        size_t s = r1.ring_start[k], e = r1.ring_start[k + 1];
        g2_region one = {1, r1.pts + s, e - s, NULL, 1};
        size_t st2[2] = {0, e - s};
        one.ring_start = st2;
        g2_outline oo = {flat + 2 * s, e - s};
        if (g2_region_area2(&one) > 0) os[no++] = oo; else hs[nh++] = oo;
      }
      g2_region u = {0};
      OPT_CHECK(g2_region_from_outlines(os, no, 1, &u, NULL) == OP_OK);
      OPT_CHECK(g2_region_difference(&u, hs, nh, &r3, NULL) == OP_OK);
      OPT_CHECK(region_eq(&r1, &r3));
      g2_region_free(&u);
      g2_region_free(&r3);
      free(flat); free(os); free(hs);
    }
    g2_region_free(&r1);
    g2_region_free(&r2);
  }
}


/* Winding of the region's rings around the point (px + 1/2, py + 1/2): a ray to the
** right, counting edges that cross the height py + 1/2 (independent of region.c). */
static int ring_winding_at_centre(const g2_region *r, int64_t px, int64_t py) {
  int w = 0;
  for (size_t k = 0; k < r->nrings; k++) {
    size_t a = r->ring_start[k], b = r->ring_start[k + 1];
    for (size_t i = a; i < b; i++) {
      g2_point p = r->pts[i], q = r->pts[i + 1 < b ? i + 1 : a];
      /* doubled coordinates: the point is (2px + 1, 2py + 1) */
      int64_t y2 = 2 * py + 1, x2 = 2 * px + 1;
      int64_t py2 = 2 * p.y, qy2 = 2 * q.y;
      if ((py2 < y2) == (qy2 < y2)) continue;
      /* crossing x (doubled) = 2 p.x + (y2 - py2) * (qx - px) * 2 / (qy2 - py2) > x2 ? */
      g2_i128 num = (g2_i128)(y2 - py2) * (2 * (q.x - p.x)) + (g2_i128)(2 * p.x - x2) * (qy2 - py2);
      int right = (qy2 > py2) ? num > 0 : num < 0;
      if (right) w += (qy2 > py2) ? 1 : -1;
    }
  }
  return w;
}

OPT_TEST(rectangles_oracle, "G2D-090") {
  /* random axis-aligned rectangles on [0,16]^2 (snap 0: every crossing is a grid point,
  ** nothing moves): the union and the difference (first half minus second half) must
  ** hold exactly the unit cells covered, by a brute-force count; every cell centre has
  ** winding 1 inside and 0 outside (G2D-090) */
  uint64_t seed = 0x5151515151515151ull;
  for (int trial = 0; trial < 60; trial++) {
    enum { NR = 6, S = 16 };
    double xy[NR][8];
    int cov[S][S] = {{0}}, covb[S][S] = {{0}};
    g2_outline o[NR];
    for (int i = 0; i < NR; i++) {
      int x0 = (int)(rng_next(&seed) % S), x1 = (int)(rng_next(&seed) % S);
      int y0 = (int)(rng_next(&seed) % S), y1 = (int)(rng_next(&seed) % S);
      if (x0 > x1) { int t = x0; x0 = x1; x1 = t; }
      if (y0 > y1) { int t = y0; y0 = y1; y1 = t; }
      x1++; y1++;
      int cw = (int)(rng_next(&seed) & 1);
      double pts[8] = {x0, y0, x1, y0, x1, y1, x0, y1};
      for (int k = 0; k < 4; k++) {
        int src = cw ? 3 - k : k;
        xy[i][2 * k] = pts[2 * src];
        xy[i][2 * k + 1] = pts[2 * src + 1];
      }
      o[i].xy = xy[i];
      o[i].count = 4;
      for (int x = x0; x < x1; x++)
        for (int y = y0; y < y1; y++) {
          cov[x][y] = 1;
          if (i < NR / 2) covb[x][y] |= 1; else covb[x][y] |= 2;
        }
    }
    g2_region u = {0}, a = {0}, d = {0};
    OPT_CHECK(g2_region_from_outlines(o, NR, 0, &u, NULL) == OP_OK);
    OPT_CHECK(g2_region_from_outlines(o, NR / 2, 0, &a, NULL) == OP_OK);
    OPT_CHECK(g2_region_difference(&a, o + NR / 2, NR - NR / 2, &d, NULL) == OP_OK);
    long cells = 0, cellsd = 0;
    int bad = 0;
    for (int x = 0; x < S; x++)
      for (int y = 0; y < S; y++) {
        cells += cov[x][y];
        cellsd += covb[x][y] == 1;
        bad += ring_winding_at_centre(&u, x, y) != cov[x][y];
        bad += ring_winding_at_centre(&d, x, y) != (covb[x][y] == 1);
      }
    OPT_CHECK(bad == 0);
    OPT_CHECK(g2_region_area2(&u) == 2 * cells);
    OPT_CHECK(g2_region_area2(&d) == 2 * cellsd);
    g2_region_free(&u);
    g2_region_free(&a);
    g2_region_free(&d);
  }
}

OPT_TEST(extreme_coordinates, "G2D-004") {
  /* the whole world [-2^21, 2^21]^2 at 16 snap bits (grid +-2^37) minus a diamond whose
  ** edges cross nothing: twice the area is 2 (2^38)^2 - 2 * (diamond area). The diamond
  ** (0,-2^20) (2^20,0) (0,2^20) (-2^20,0) in world units is 2^36 grid units from the
  ** centre: area 2 (2^36)^2 = 2^73, so area2 = 2^77 - 2^74. Holes run clockwise and start
  ** at their smallest vertex (-2^36, 0), followed by (0, 2^36). */
  static const double world[] = {-2097152, -2097152, 2097152, -2097152, 2097152, 2097152,
                                 -2097152, 2097152};
  static const double dia[] = {0, -1048576, 1048576, 0, 0, 1048576, -1048576, 0};
  g2_region r = {0}, d = {0};
  g2_outline o = {world, 4}, h = {dia, 4};
  OPT_CHECK(g2_region_from_outlines(&o, 1, 16, &r, NULL) == OP_OK);
  OPT_CHECK(g2_region_area2(&r) == (g2_i128)1 << 77);
  OPT_CHECK(g2_region_difference(&r, &h, 1, &d, NULL) == OP_OK && d.nrings == 2);
  OPT_CHECK(g2_region_area2(&d) == ((g2_i128)1 << 77) - ((g2_i128)1 << 74));
  const int64_t E = (int64_t)1 << 36;
  OPT_CHECK(d.nrings == 2 && d.pts[d.ring_start[1]].x == -E && d.pts[d.ring_start[1]].y == 0 &&
            d.pts[d.ring_start[1] + 1].x == 0 && d.pts[d.ring_start[1] + 1].y == E);
  g2_region_free(&r);
  g2_region_free(&d);
}

OPT_MAIN_BEGIN
OPT_RUN(snap_rounding);
OPT_RUN(snap_range_errors);
OPT_RUN(square_ccw_and_cw);
OPT_RUN(overlap_opposite_orientation);
OPT_RUN(nested_is_union);
OPT_RUN(difference_hole);
OPT_RUN(degenerate_outlines);
OPT_RUN(bowtie_nonzero);
OPT_RUN(collinear_removed);
OPT_RUN(corner_touch_two_rings);
OPT_RUN(tilemap_cells);
OPT_RUN(tilemap_errors);
OPT_RUN(outline_errors);
OPT_RUN(order_independence);
OPT_RUN(rectangles_oracle);
OPT_RUN(extreme_coordinates);
OPT_MAIN_END
