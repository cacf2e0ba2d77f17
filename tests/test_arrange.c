/*
** test_arrange.c -- the snap-rounded arrangement (spec/build2d-geometry.md section 3):
** hand-worked crossings at half-pixel ties, the second pass, 128-bit extremes near
** 2^37, limits and errors, and the guarantees of G2D-060 on random inputs.
*/
#include <stdlib.h>
#include <string.h>

#include "build2d/geometry/g2d.h"
#include "optest.h"

typedef struct exseg {
  uint32_t a, b;
} exseg;

static int pslg_is(const g2_pslg *g, const int64_t *pxy, size_t np, const exseg *s,
                   size_t ns) {
  if (g->npts != np || g->nsegs != ns) return 0;
  for (size_t i = 0; i < np; i++)
    if (g->pts[i].x != pxy[2 * i] || g->pts[i].y != pxy[2 * i + 1]) return 0;
  for (size_t i = 0; i < ns; i++)
    if (g->segs[i].a != s[i].a || g->segs[i].b != s[i].b) return 0;
  return 1;
}

static op_status arr(const int64_t *xy, size_t nseg, g2_pslg *out) {
  g2_point p[64];
  g2_seg s[32];
  for (size_t i = 0; i < nseg; i++) {
    p[2 * i].x = xy[4 * i]; p[2 * i].y = xy[4 * i + 1];
    p[2 * i + 1].x = xy[4 * i + 2]; p[2 * i + 1].y = xy[4 * i + 3];
    s[i].a = (uint32_t)(2 * i); s[i].b = (uint32_t)(2 * i + 1);
    s[i].flags = G2_SEG_BOUNDARY; s[i].wind = 1;
  }
  return g2_arrange(p, 2 * nseg, s, nseg, out, NULL);
}

OPT_TEST(tie_at_pixel_corner, "G2D-053") {
  /* (0,0)-(1,1) and (0,1)-(1,0) cross at (1/2, 1/2) -> (0, 0) (ties to even). The
  ** second meets the closed cell of (0,0) there and goes (0,1) -> (0,0) -> (1,0); the
  ** first meets neither open-in-y cell (0,1) nor open-in-x cell (1,0). */
  static const int64_t in[] = {0, 0, 1, 1, 0, 1, 1, 0};
  static const int64_t pts[] = {0, 0, 0, 1, 1, 0, 1, 1};
  static const exseg want[] = {{0, 1}, {0, 2}, {0, 3}};
  g2_pslg g = {0};
  OPT_CHECK(arr(in, 2, &g) == OP_OK && pslg_is(&g, pts, 4, want, 3));
  g2_pslg_free(&g);
}

OPT_TEST(tie_to_even_x, "G2D-053") {
  /* (0,0)-(3,1) and (1,1)-(2,0) cross at (3/2, 1/2) -> (2, 0), a vertex. The first
  ** meets the closed cell [3/2,5/2]x[-1/2,1/2] of (2,0) at its corner: (0,0)->(2,0)->(3,1). */
  static const int64_t in[] = {0, 0, 3, 1, 1, 1, 2, 0};
  static const int64_t pts[] = {0, 0, 1, 1, 2, 0, 3, 1};
  static const exseg want[] = {{0, 2}, {1, 2}, {2, 3}};
  g2_pslg g = {0};
  OPT_CHECK(arr(in, 2, &g) == OP_OK && pslg_is(&g, pts, 4, want, 3));
  g2_pslg_free(&g);
}

OPT_TEST(second_pass, "G2D-058") {
  /* (0,0)-(5,1) and (3,0)-(2,1) cross at (5/2, 1/2) -> (2, 0) (2.5 -> 2, 0.5 -> 0).
  ** Pass 1: (0,0)->(2,0)->(5,1) and (3,0)->(2,0)->(2,1). Pass 2: the piece (2,0)-(5,1)
  ** (y = (x-2)/3) meets the cell (5/2,7/2)x[-1/2,1/2] of the vertex (3,0) -> it goes
  ** (2,0)->(3,0)->(5,1), and (2,0)-(3,0) merges with the piece already there. Pass 3
  ** changes nothing. */
  static const int64_t in[] = {0, 0, 5, 1, 3, 0, 2, 1};
  static const int64_t pts[] = {0, 0, 2, 0, 2, 1, 3, 0, 5, 1};
  static const exseg want[] = {{0, 1}, {1, 2}, {1, 3}, {3, 4}};
  g2_pslg g = {0};
  OPT_CHECK(arr(in, 2, &g) == OP_OK && pslg_is(&g, pts, 5, want, 4));
  /* merged piece (2,0)-(3,0): boundary flag from both, winds: +1 from the first
  ** (direction +x) and -1 from (3,0)->(2,0) -> 0 */
  OPT_CHECK(g.nsegs == 4 && g.segs[2].wind == 0 && g.segs[2].flags == G2_SEG_BOUNDARY);
  g2_pslg_free(&g);
}

OPT_TEST(extreme_128bit, "G2D-004") {
  /* M = 2^37. (-M,-M+1)-(M,M) and (-M,M)-(M,-M+3): the denominator is about 2^77;
  ** the crossing, by exact rational arithmetic (Python fractions), is
  ** (68719476736/137438953471, 549755813885/549755813884) = (0.50000000000364, 1.0000...)
  ** -> (1, 1). */
  const int64_t M = (int64_t)1 << 37;
  const int64_t in[] = {-M, -M + 1, M, M, -M, M, M, -M + 3};
  const int64_t pts[] = {-M, -M + 1, -M, M, 1, 1, M, -M + 3, M, M};
  static const exseg want[] = {{0, 2}, {1, 2}, {2, 3}, {2, 4}};
  g2_pslg g = {0};
  OPT_CHECK(arr(in, 2, &g) == OP_OK && pslg_is(&g, pts, 5, want, 4));
  g2_pslg_free(&g);
  /* the diagonals of the full square cross at (0, 0) exactly */
  const int64_t in2[] = {-M, -M, M, M, -M, M, M, -M};
  const int64_t pts2[] = {-M, -M, -M, M, 0, 0, M, -M, M, M};
  OPT_CHECK(arr(in2, 2, &g) == OP_OK && pslg_is(&g, pts2, 5, want, 4));
  g2_pslg_free(&g);
}

OPT_TEST(errors, "G2D-070") {
  op_error e;
  g2_pslg g = {0};
  g2_point p[2] = {{0, 0}, {((int64_t)1 << 37) + 1, 0}};
  g2_seg s[1] = {{0, 1, G2_SEG_BOUNDARY, 1}};
  OPT_CHECK(g2_arrange(p, 2, s, 1, &g, &e) == OP_E_RANGE && strcmp(e.field, "x") == 0 &&
            g.pts == NULL);
  p[1].x = 1;
  s[0].b = 2;
  OPT_CHECK(g2_arrange(p, 2, s, 1, &g, &e) == OP_E_ARGUMENT && g.pts == NULL);
  /* the segment limit is checked before the segments are read */
  OPT_CHECK(g2_arrange(p, 2, s, G2_MAX_SEGMENTS + 1, &g, &e) == OP_E_LIMIT &&
            strcmp(e.field, "segments") == 0);
}

OPT_TEST(zero_length_and_duplicates, "G2D-050") {
  /* a zero-length segment vanishes; the same segment twice in opposite directions
  ** merges into one with winds summed (+1 - 1 = 0) */
  static const int64_t in[] = {3, 3, 3, 3, 0, 0, 4, 0, 4, 0, 0, 0};
  static const int64_t pts[] = {0, 0, 4, 0};
  static const exseg want[] = {{0, 1}};
  g2_pslg g = {0};
  OPT_CHECK(arr(in, 3, &g) == OP_OK && pslg_is(&g, pts, 2, want, 1) && g.segs[0].wind == 0);
  g2_pslg_free(&g);
}

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
  return *s;
}

/* 1 when the segments (a,b) and (c,d) intersect other than at a shared endpoint. */
static int bad_pair(g2_point a, g2_point b, g2_point c, g2_point d) {
  int o1 = g2_orient(a, b, c), o2 = g2_orient(a, b, d);
  int o3 = g2_orient(c, d, a), o4 = g2_orient(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return 1; /* proper crossing */
  /* a point of one strictly inside the other */
  g2_point q[4] = {c, d, a, b};
  g2_point s0[4] = {a, a, c, c}, s1[4] = {b, b, d, d};
  for (int k = 0; k < 4; k++) {
    if (g2_orient(s0[k], s1[k], q[k]) != 0) continue;
    if (!g2_point_cmp(q[k], s0[k]) || !g2_point_cmp(q[k], s1[k])) continue;
    int64_t lx = s0[k].x < s1[k].x ? s0[k].x : s1[k].x, hx = s0[k].x ^ s1[k].x ^ lx;
    int64_t ly = s0[k].y < s1[k].y ? s0[k].y : s1[k].y, hy = s0[k].y ^ s1[k].y ^ ly;
    if (q[k].x >= lx && q[k].x <= hx && q[k].y >= ly && q[k].y <= hy) return 1;
  }
  return 0;
}

static int same_pslg(const g2_pslg *a, const g2_pslg *b) {
  if (a->npts != b->npts || a->nsegs != b->nsegs) return 0;
  for (size_t i = 0; i < a->npts; i++)
    if (g2_point_cmp(a->pts[i], b->pts[i])) return 0;
  for (size_t i = 0; i < a->nsegs; i++)
    if (a->segs[i].a != b->segs[i].a || a->segs[i].b != b->segs[i].b ||
        a->segs[i].wind != b->segs[i].wind || a->segs[i].flags != b->segs[i].flags)
      return 0;
  return 1;
}

static void random_case(uint64_t *seed, int64_t range, int64_t offset, int nseg,
                        opt_state *opt_s_) {
  g2_point p[2 * 40], p2[2 * 40];
  g2_seg s[40], s2[40];
  for (int i = 0; i < nseg; i++) {
    for (int k = 0; k < 2; k++) {
      p[2 * i + k].x = offset + (int64_t)(rng_next(seed) % (uint64_t)range);
      p[2 * i + k].y = offset + (int64_t)(rng_next(seed) % (uint64_t)range);
    }
    s[i].a = (uint32_t)(2 * i); s[i].b = (uint32_t)(2 * i + 1);
    s[i].flags = (rng_next(seed) & 1) ? G2_SEG_BOUNDARY : G2_SEG_CUT;
    s[i].wind = s[i].flags == G2_SEG_CUT ? 0 : 1;
  }
  g2_pslg g = {0}, g2 = {0};
  OPT_CHECK(g2_arrange(p, 2 * (size_t)nseg, s, (size_t)nseg, &g, NULL) == OP_OK);
  /* G2D-060: segments meet only at shared endpoints */
  int bad = 0;
  for (size_t i = 0; i < g.nsegs; i++)
    for (size_t j = i + 1; j < g.nsegs; j++)
      bad += bad_pair(g.pts[g.segs[i].a], g.pts[g.segs[i].b], g.pts[g.segs[j].a],
                      g.pts[g.segs[j].b]);
  OPT_CHECK(bad == 0);
  /* G2D-059: points sorted and distinct, a < b, segments sorted and distinct */
  for (size_t i = 1; i < g.npts; i++) OPT_CHECK(g2_point_cmp(g.pts[i - 1], g.pts[i]) < 0);
  for (size_t i = 0; i < g.nsegs; i++) {
    OPT_CHECK(g.segs[i].a < g.segs[i].b);
    if (i) OPT_CHECK(g.segs[i - 1].a < g.segs[i].a ||
                     (g.segs[i - 1].a == g.segs[i].a && g.segs[i - 1].b < g.segs[i].b));
  }
  /* G2D-060: every input endpoint of a non-degenerate segment is an output point */
  for (int i = 0; i < 2 * nseg; i++) {
    if (!g2_point_cmp(p[s[i / 2].a], p[s[i / 2].b])) continue;
    size_t k = 0;
    while (k < g.npts && g2_point_cmp(g.pts[k], p[i])) k++;
    OPT_CHECK(k < g.npts);
  }
  /* G2D-060: the total winding is kept: sum over output of wind * (b - a) equals the
  ** sum over input (each closed chain of pieces replaces its segment) */
  {
    g2_i128 sx = 0, sy = 0, tx = 0, ty = 0;
    for (int i = 0; i < nseg; i++) {
      sx += (g2_i128)s[i].wind * (p[s[i].b].x - p[s[i].a].x);
      sy += (g2_i128)s[i].wind * (p[s[i].b].y - p[s[i].a].y);
    }
    for (size_t i = 0; i < g.nsegs; i++) {
      tx += (g2_i128)g.segs[i].wind * (g.pts[g.segs[i].b].x - g.pts[g.segs[i].a].x);
      ty += (g2_i128)g.segs[i].wind * (g.pts[g.segs[i].b].y - g.pts[g.segs[i].a].y);
    }
    OPT_CHECK(sx == tx && sy == ty);
  }
  /* G2D-061: input order and direction do not matter */
  int perm[40];
  for (int i = 0; i < nseg; i++) perm[i] = i;
  for (int i = nseg - 1; i > 0; i--) {
    int j = (int)(rng_next(seed) % (uint64_t)(i + 1));
    int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
  }
  for (int i = 0; i < nseg; i++) {
    int flip = (int)(rng_next(seed) & 1);
    p2[2 * i] = p[s[perm[i]].a + (flip ? 1u : 0u)];
    p2[2 * i + 1] = p[s[perm[i]].a + (flip ? 0u : 1u)];
    s2[i] = s[perm[i]];
    s2[i].a = (uint32_t)(2 * i); s2[i].b = (uint32_t)(2 * i + 1);
    if (flip) s2[i].wind = -s2[i].wind;
  }
  OPT_CHECK(g2_arrange(p2, 2 * (size_t)nseg, s2, (size_t)nseg, &g2, NULL) == OP_OK);
  OPT_CHECK(same_pslg(&g, &g2));
  g2_pslg_free(&g);
  g2_pslg_free(&g2);
}

OPT_TEST(random_small_grid, "G2D-060") {
  uint64_t seed = 0x1234567887654321ull;
  for (int t = 0; t < 300; t++) random_case(&seed, 12, 0, 4 + t % 20, opt_s_);
}

OPT_TEST(random_large, "G2D-060") {
  uint64_t seed = 0xfeedfacecafebeefull;
  const int64_t M = (int64_t)1 << 37;
  for (int t = 0; t < 100; t++) random_case(&seed, 2 * M + 1, -M, 30, opt_s_);
  for (int t = 0; t < 100; t++) random_case(&seed, 1000, M - 1000, 30, opt_s_);
}

OPT_TEST(random_order_independence, "G2D-061") {
  uint64_t seed = 0x0badc0de0badc0deull;
  for (int t = 0; t < 200; t++) random_case(&seed, 64, -32, 25, opt_s_);
}

OPT_MAIN_BEGIN
OPT_RUN(tie_at_pixel_corner);
OPT_RUN(tie_to_even_x);
OPT_RUN(second_pass);
OPT_RUN(extreme_128bit);
OPT_RUN(errors);
OPT_RUN(zero_length_and_duplicates);
OPT_RUN(random_small_grid);
OPT_RUN(random_large);
OPT_RUN(random_order_independence);
OPT_MAIN_END
