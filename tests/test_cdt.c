/*
** test_cdt.c -- the constrained Delaunay triangulation (spec/build2d-geometry.md,
** section 6, G2D-200 .. G2D-207).
**
** Expected values are derived by hand (squares, a 3x3 grid) or by independent oracles
** written here from the spec text: a brute-force "empty circle under the tie rule"
** enumeration of all triples (G2D-203, G2D-204), Euler's count of triangles of a
** convex hull, and exact area sums.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build2d/geometry/g2d.h"
#include "optest.h"

static int64_t orient_t(g2_point a, g2_point b, g2_point c) {
  g2_i128 d = (g2_i128)(b.x - a.x) * (c.y - a.y) - (g2_i128)(b.y - a.y) * (c.x - a.x);
  return d > 0 ? 1 : d < 0 ? -1 : 0;
}

/* in-circle in long double for small coordinates (an independent evaluation) */
static int incircle_small(g2_point a, g2_point b, g2_point c, g2_point d) {
  long long adx = a.x - d.x, ady = a.y - d.y, bdx = b.x - d.x, bdy = b.y - d.y;
  long long cdx = c.x - d.x, cdy = c.y - d.y;
  long long v = (adx * adx + ady * ady) * (bdx * cdy - bdy * cdx) +
                (bdx * bdx + bdy * bdy) * (cdx * ady - cdy * adx) +
                (cdx * cdx + cdy * cdy) * (adx * bdy - ady * bdx);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

/* G2D-203 written again from the spec text: d counts as inside circle (a, b, c). */
static int inside_tb(const g2_point *p, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  int s = incircle_small(p[a], p[b], p[c], p[d]);
  if (s) return s > 0;
  uint32_t m = a > b ? a : b;
  if (c > m) m = c;
  if (d > m) return 1;
  if (m == a) return orient_t(p[d], p[b], p[c]) < 0;
  if (m == b) return orient_t(p[a], p[d], p[c]) < 0;
  return orient_t(p[a], p[b], p[d]) < 0;
}

static int cmp_pt(const void *x, const void *y) {
  const g2_point *a = x, *b = y;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  if (a->y != b->y) return a->y < b->y ? -1 : 1;
  return 0;
}

static g2_pslg mk(const g2_point *pts, size_t n, const g2_seg *segs, size_t ns) {
  g2_pslg g;
  g.pts = (g2_point *)pts;
  g.npts = n;
  g.segs = (g2_seg *)segs;
  g.nsegs = ns;
  return g;
}

static int has_tri(const g2_cdt *c, uint32_t a, uint32_t b, uint32_t d) {
  for (size_t t = 0; t < c->ntris; t++)
    if (c->tri[3 * t] == a && c->tri[3 * t + 1] == b && c->tri[3 * t + 2] == d) return 1;
  return 0;
}

OPT_TEST(incircle_exact_large, "G2D-202") {
  const int64_t M = (int64_t)1 << 37;
  g2_point a = {-M, -M}, b = {M, -M}, c = {M, M}, d = {-M, M};
  OPT_CHECK(g2_incircle(a, b, c, d) == 0);   /* four corners of a square: cocircular */
  g2_point din = {-M + 1, M}, dout = {-M - 1, M};
  OPT_CHECK(g2_incircle(a, b, c, din) == 1);  /* moved one unit inwards */
  OPT_CHECK(g2_incircle(a, b, c, dout) == -1);
  /* a circle through three points 2^38 apart and a point one unit off it: the
  ** determinant's terms reach 2^155, beyond 128 bits */
  g2_point e = {M - 1, M};
  OPT_CHECK(g2_incircle(a, b, c, e) == 1);
  OPT_CHECK(g2_incircle(b, a, c, e) == -1); /* clockwise triangle: sign flips */
}

OPT_TEST(square_tie_rule, "G2D-203") {
  /* (0,0)=0, (0,1)=1, (1,0)=2, (1,1)=3: cocircular; the diagonal goes to point 3 */
  g2_point p[4] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  g2_pslg g = mk(p, 4, NULL, 0);
  g2_cdt c;
  OPT_CHECK(g2_cdt_build(&g, &c, NULL) == OP_OK);
  OPT_CHECK(c.ntris == 2);
  OPT_CHECK(has_tri(&c, 0, 2, 3) && has_tri(&c, 0, 3, 1));
  OPT_CHECK(c.tri[0] == 0 && c.tri[1] == 2 && c.tri[2] == 3); /* G2D-207 order */
  OPT_CHECK(c.nei[3 * 0 + 2] == 1 && c.nei[3 * 1 + 0] == 0);  /* across edge 3-0 / 0-3 */
  OPT_CHECK(c.wind[0] == 0 && c.wind[1] == 0);               /* no boundary */
  g2_cdt_free(&c);
}

OPT_TEST(square_constraint, "G2D-204") {
  /* the other diagonal 1-2 as a constraint, the boundary counter-clockwise: winding 1 */
  g2_point p[4] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  g2_seg s[5] = {{1, 2, G2_SEG_CUT, 0}, {0, 2, G2_SEG_BOUNDARY, 1}, {2, 3, G2_SEG_BOUNDARY, 1},
                 {1, 3, G2_SEG_BOUNDARY, -1}, {0, 1, G2_SEG_BOUNDARY, -1}};
  g2_pslg g = mk(p, 4, s, 5);
  g2_cdt c;
  OPT_CHECK(g2_cdt_build(&g, &c, NULL) == OP_OK);
  OPT_CHECK(c.ntris == 2);
  OPT_CHECK(has_tri(&c, 0, 2, 1) && has_tri(&c, 1, 2, 3));
  OPT_CHECK(c.wind[0] == 1 && c.wind[1] == 1);
  OPT_CHECK(c.cons[0] == 7 && c.cons[1] == 7);
  g2_cdt_free(&c);
}

/* Brute force (G2D-204): the triangles are exactly the counter-clockwise triples whose
** circle holds no other point under the tie rule. */
static int brute_match(const g2_point *p, size_t n, const g2_cdt *c) {
  size_t count = 0;
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = a + 1; b < n; b++)
      for (uint32_t d = a + 1; d < n; d++) {
        if (d == b || orient_t(p[a], p[b], p[d]) <= 0) continue;
        int empty = 1;
        for (uint32_t q = 0; q < n && empty; q++)
          if (q != a && q != b && q != d && inside_tb(p, a, b, d, q)) empty = 0;
        if (!empty) continue;
        count++;
        if (!has_tri(c, a, b, d)) return 0;
      }
  return count == c->ntris;
}

OPT_TEST(grid_cocircular_unique, "G2D-204") {
  /* a 4x4 grid: every unit square cocircular; the result is the brute-force one */
  g2_point p[16];
  for (int i = 0; i < 16; i++) { p[i].x = i / 4; p[i].y = i % 4; }
  g2_pslg g = mk(p, 16, NULL, 0);
  g2_cdt c;
  OPT_CHECK(g2_cdt_build(&g, &c, NULL) == OP_OK);
  OPT_CHECK(c.ntris == 18); /* 2n - h - 2 with h = 12 hull points */
  OPT_CHECK(brute_match(p, 16, &c));
  g2_cdt_free(&c);
}

OPT_TEST(random_delaunay_brute, "G2D-204") {
  op_prng r;
  op_prng_seed(&r, 7);
  for (int round = 0; round < 60; round++) {
    size_t n = 3 + op_prng_below(&r, 22);
    int span = round < 30 ? 5 : 1000; /* small spans: many cocircular and collinear sets */
    g2_point p[32];
    for (size_t i = 0; i < n; i++) {
      p[i].x = (int64_t)op_prng_below(&r, (uint64_t)span);
      p[i].y = (int64_t)op_prng_below(&r, (uint64_t)span);
    }
    qsort(p, n, sizeof *p, cmp_pt);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
      if (!m || cmp_pt(&p[m - 1], &p[i])) p[m++] = p[i];
    g2_pslg g = mk(p, m, NULL, 0);
    g2_cdt c;
    OPT_CHECK(g2_cdt_build(&g, &c, NULL) == OP_OK);
    OPT_CHECK(brute_match(p, m, &c));
    for (size_t t = 0; t < c.ntris; t++) /* G2D-207 form */
      OPT_CHECK(c.tri[3 * t] < c.tri[3 * t + 1] && c.tri[3 * t] < c.tri[3 * t + 2]);
    g2_cdt_free(&c);
  }
}

/* Ring of a polygon with a hole: outer square 0..8, hole square 3..5 (clockwise). */
OPT_TEST(hole_winding, "G2D-206") {
  g2_point q[8] = {{0, 0}, {8, 0}, {8, 8}, {0, 8}, {3, 3}, {3, 5}, {5, 5}, {5, 3}};
  g2_point p[8];
  memcpy(p, q, sizeof p);
  qsort(p, 8, sizeof *p, cmp_pt);
  uint32_t idx[8];
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++)
      if (p[j].x == q[i].x && p[j].y == q[i].y) idx[i] = (uint32_t)j;
  g2_seg s[8];
  for (int r = 0; r < 2; r++)
    for (int i = 0; i < 4; i++) {
      uint32_t a = idx[4 * r + i], b = idx[4 * r + (i + 1) % 4];
      g2_seg *x = &s[4 * r + i];
      x->a = a < b ? a : b;
      x->b = a < b ? b : a;
      x->flags = G2_SEG_BOUNDARY;
      x->wind = a < b ? 1 : -1;
    }
  g2_pslg g = mk(p, 8, s, 8);
  g2_cdt c;
  OPT_CHECK(g2_cdt_build(&g, &c, NULL) == OP_OK);
  /* 8 points, hull of 4: 2*8 - 4 - 2 = 10 triangles; 2 in the hole (wind 0), 8 inside */
  OPT_CHECK(c.ntris == 10);
  g2_i128 area_in = 0;
  int n0 = 0, n1 = 0;
  for (size_t t = 0; t < c.ntris; t++) {
    g2_point a = p[c.tri[3 * t]], b = p[c.tri[3 * t + 1]], d = p[c.tri[3 * t + 2]];
    g2_i128 a2 = (g2_i128)(b.x - a.x) * (d.y - a.y) - (g2_i128)(b.y - a.y) * (d.x - a.x);
    if (c.wind[t] == 1) { n1++; area_in += a2; }
    else if (c.wind[t] == 0) n0++;
  }
  OPT_CHECK(n0 == 2 && n1 == 8);
  OPT_CHECK(area_in == 2 * (64 - 4)); /* twice the area of the region */
  g2_cdt_free(&c);
}

OPT_TEST(segment_order_irrelevant, "G2D-205") {
  /* a 5x5 grid with three constraints given in two orders: same output */
  g2_point p[25];
  for (int i = 0; i < 25; i++) { p[i].x = i / 5; p[i].y = i % 5; }
  g2_seg s1[3] = {{0, 7, G2_SEG_CUT, 0}, {4, 7, G2_SEG_CUT, 0}, {15, 21, G2_SEG_CUT, 0}};
  g2_seg s2[3] = {s1[2], s1[0], s1[1]};
  g2_pslg g1 = mk(p, 25, s1, 3), g2 = mk(p, 25, s2, 3);
  g2_cdt c1, c2;
  OPT_CHECK(g2_cdt_build(&g1, &c1, NULL) == OP_OK);
  OPT_CHECK(g2_cdt_build(&g2, &c2, NULL) == OP_OK);
  OPT_CHECK(c1.ntris == c2.ntris && c1.ntris == 32);
  OPT_CHECK(!memcmp(c1.tri, c2.tri, 3 * c1.ntris * sizeof *c1.tri));
  g2_cdt_free(&c1);
  g2_cdt_free(&c2);
}

OPT_TEST(segment_through_point_rejected, "G2D-200") {
  g2_point p[25];
  for (int i = 0; i < 25; i++) { p[i].x = i / 5; p[i].y = i % 5; }
  g2_seg s[1] = {{0, 12, G2_SEG_CUT, 0}}; /* (0,0)-(2,2) passes through (1,1) */
  g2_pslg g = mk(p, 25, s, 1);
  g2_cdt c;
  op_error e;
  memset(&c, 0, sizeof c);
  OPT_CHECK(g2_cdt_build(&g, &c, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "segments") == 0);
  OPT_CHECK(c.ntris == 0 && c.tri == NULL);
}

OPT_TEST(constrained_locally_delaunay, "G2D-204") {
  /* random points with random non-crossing constraints (edges of a star from one
  ** point to others it sees without crossing earlier ones): each constraint present,
  ** every other edge locally Delaunay under the tie rule */
  op_prng r;
  op_prng_seed(&r, 11);
  for (int round = 0; round < 40; round++) {
    size_t n = 5 + op_prng_below(&r, 40);
    g2_point p[64];
    for (size_t i = 0; i < n; i++) {
      p[i].x = (int64_t)op_prng_below(&r, 50);
      p[i].y = (int64_t)op_prng_below(&r, 50);
    }
    qsort(p, n, sizeof *p, cmp_pt);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
      if (!m || cmp_pt(&p[m - 1], &p[i])) p[m++] = p[i];
    /* constraints: from point 0 to every point j such that no other point lies on the
    ** segment (rays from one point cross nothing) */
    g2_seg s[64];
    size_t ns = 0;
    for (uint32_t j = 1; j < m; j++) {
      int clear = 1;
      for (uint32_t q = 1; q < m && clear; q++) {
        if (q == j || orient_t(p[0], p[j], p[q]) != 0) continue;
        int64_t dx = p[j].x - p[0].x, dy = p[j].y - p[0].y;
        int64_t qx = p[q].x - p[0].x, qy = p[q].y - p[0].y;
        int64_t dot = qx * dx + qy * dy, len = dx * dx + dy * dy;
        if (dot > 0 && dot < len) clear = 0;
      }
      if (clear && op_prng_below(&r, 2)) { s[ns].a = 0; s[ns].b = j; s[ns].flags = G2_SEG_CUT; s[ns].wind = 0; ns++; }
    }
    g2_pslg g = mk(p, m, s, ns);
    g2_cdt c;
    OPT_CHECK(g2_cdt_build(&g, &c, NULL) == OP_OK);
    for (size_t k = 0; k < ns; k++) {
      int found = 0;
      for (size_t t = 0; t < c.ntris && !found; t++)
        for (int i = 0; i < 3; i++) {
          uint32_t u = c.tri[3 * t + i], w = c.tri[3 * t + (i + 1) % 3];
          if ((u == s[k].a && w == s[k].b) || (u == s[k].b && w == s[k].a)) {
            found = 1;
            OPT_CHECK((c.cons[t] >> i) & 1);
          }
        }
      OPT_CHECK(found);
    }
    for (size_t t = 0; t < c.ntris; t++)
      for (int i = 0; i < 3; i++) {
        uint32_t nb = c.nei[3 * t + i];
        if (nb == G2_NO_TRI || ((c.cons[t] >> i) & 1)) continue;
        uint32_t u = c.tri[3 * t + i], w = c.tri[3 * t + (i + 1) % 3], x = c.tri[3 * t + (i + 2) % 3];
        uint32_t d = 0;
        for (int j = 0; j < 3; j++)
          if (c.tri[3 * nb + j] != u && c.tri[3 * nb + j] != w) d = c.tri[3 * nb + j];
        OPT_CHECK(!inside_tb(p, u, w, x, d));
      }
    g2_cdt_free(&c);
  }
}

OPT_TEST(collinear_only, "G2D-200") {
  g2_point p[3] = {{0, 0}, {1, 1}, {2, 2}};
  g2_seg s[1] = {{0, 1, G2_SEG_BOUNDARY, 1}};
  g2_pslg g = mk(p, 3, s, 1);
  g2_cdt c;
  OPT_CHECK(g2_cdt_build(&g, &c, NULL) == OP_OK);
  OPT_CHECK(c.ntris == 0);
  g2_cdt_free(&c);
}

/* The work count (G2D section 6.3, informative; issue 17): a ring of two long rows of
** points, n + 1 per row, zigzagging by one unit, `height` apart. Returns the triangles
** created per point while building its triangulation, 0 on failure. */
static double rows_work(uint32_t n, int64_t height) {
  size_t np = 2 * ((size_t)n + 1);
  g2_point *p = malloc(np * sizeof *p);
  g2_seg *s = malloc(np * sizeof *s);
  if (!p || !s) { free(p); free(s); return 0; }
  for (uint32_t i = 0; i <= n; i++) { /* sorted by G2D-010: x, then the lower row first */
    p[2 * i].x = p[2 * i + 1].x = i;
    p[2 * i].y = i % 2;
    p[2 * i + 1].y = height + i % 2;
  }
  size_t ns = 0; /* the ring: both rows, closed at x = 0 and x = n */
  for (uint32_t i = 0; i < n; i++) {
    g2_seg lo = {2 * i, 2 * i + 2, G2_SEG_BOUNDARY, 1}, hi = {2 * i + 1, 2 * i + 3,
                                                               G2_SEG_BOUNDARY, -1};
    s[ns++] = lo;
    s[ns++] = hi;
  }
  g2_seg l = {0, 1, G2_SEG_BOUNDARY, -1}, r = {2 * n, 2 * n + 1, G2_SEG_BOUNDARY, 1};
  s[ns++] = l;
  s[ns++] = r;
  g2_pslg g = mk(p, np, s, ns);
  g2_cdt c;
  double w = 0;
  if (g2_cdt_build(&g, &c, NULL) == OP_OK && c.ntris > np / 2) w = (double)c.made / np;
  g2_cdt_free(&c);
  free(p);
  free(s);
  return w;
}

/* Counted, never timed: the triangles created per point stay bounded as the rows grow
** 8-fold, for a thin strip and for rows as far apart as they are long. A Hilbert order
** alone re-flips a fan of O(n) triangles at each insertion here (per-point work grew
** about 2x per doubling, 10 s for 32,770 points); the biased randomised order of
** cdt.c keeps it near constant. */
OPT_TEST(rows_work_linear, "G2D-205") {
  const int64_t heights[2] = {64, 0};
  for (int k = 0; k < 2; k++) {
    double w512 = rows_work(512, heights[k] ? heights[k] : 512);
    double w4096 = rows_work(4096, heights[k] ? heights[k] : 4096);
    fprintf(stderr, "  rows height %s: %.2f triangles per point at 1,026 points, %.2f at 8,194\n",
            heights[k] ? "64" : "n", w512, w4096);
    OPT_CHECK(w512 > 0 && w4096 > 0);
    OPT_CHECK(w4096 < 40);
    OPT_CHECK(w4096 < 1.5 * w512);
  }
}

OPT_MAIN_BEGIN
OPT_RUN(incircle_exact_large);
OPT_RUN(square_tie_rule);
OPT_RUN(square_constraint);
OPT_RUN(grid_cocircular_unique);
OPT_RUN(random_delaunay_brute);
OPT_RUN(hole_winding);
OPT_RUN(segment_order_irrelevant);
OPT_RUN(segment_through_point_rejected);
OPT_RUN(constrained_locally_delaunay);
OPT_RUN(collinear_only);
OPT_RUN(rows_work_linear);
OPT_MAIN_END
