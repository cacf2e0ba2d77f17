/*
** test_partition.c -- the Hertel-Mehlhorn convex partition (spec/build2d-geometry.md,
** section 6, G2D-220 .. G2D-225). Expected polygons derived by hand; random cases
** checked against oracles written from the spec: every polygon convex and
** counter-clockwise exactly, at most MaxVertsPerPoly vertices, areas summing to the
** triangles', and no remaining diagonal removable (G2D-225).
*/
#include <stdlib.h>
#include <string.h>

#include "build2d/geometry/g2d.h"
#include "optest.h"

static int orient_t(g2_point a, g2_point b, g2_point c) {
  g2_i128 d = (g2_i128)(b.x - a.x) * (c.y - a.y) - (g2_i128)(b.y - a.y) * (c.x - a.x);
  return d > 0 ? 1 : d < 0 ? -1 : 0;
}

/* the allowed turn of G2D-223: left, or straight on in the same direction */
static int turn_ok_t(g2_point a, g2_point b, g2_point c) {
  int o = orient_t(a, b, c);
  if (o) return o > 0;
  return (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y) > 0;
}

static int poly_is(const g2_polys *r, size_t k, const uint32_t *v, uint32_t n) {
  if (k >= r->npolys || r->start[k + 1] - r->start[k] != n) return 0;
  return !memcmp(&r->verts[r->start[k]], v, n * sizeof *v);
}

OPT_TEST(square_merges, "G2D-223") {
  g2_point p[4] = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  uint32_t t[6] = {0, 2, 3, 0, 3, 1};
  g2_polys r;
  OPT_CHECK(g2_partition(p, 4, t, NULL, 2, 6, &r, NULL) == OP_OK);
  uint32_t want[4] = {0, 2, 3, 1};
  OPT_CHECK(r.npolys == 1 && poly_is(&r, 0, want, 4));
  g2_polys_free(&r);
  /* max 3 vertices: nothing merges; a fixed diagonal: nothing merges */
  OPT_CHECK(g2_partition(p, 4, t, NULL, 2, 3, &r, NULL) == OP_OK);
  OPT_CHECK(r.npolys == 2);
  g2_polys_free(&r);
  uint8_t fx[2] = {4, 0}; /* edge 2 of triangle 0 is 3 -> 0 */
  OPT_CHECK(g2_partition(p, 4, t, fx, 2, 6, &r, NULL) == OP_OK);
  OPT_CHECK(r.npolys == 2);
  g2_polys_free(&r);
}

OPT_TEST(longest_first, "G2D-222") {
  /* convex pentagon, fan from 0; |0-2|^2 = 34 > |0-3|^2 = 29: with 4 vertices at most,
  ** 0-2 goes first, then 0-3 would make 5 vertices */
  g2_point p[5] = {{0, 0}, {4, 0}, {5, 3}, {2, 5}, {-1, 3}};
  uint32_t t[9] = {0, 1, 2, 0, 2, 3, 0, 3, 4};
  g2_polys r;
  OPT_CHECK(g2_partition(p, 5, t, NULL, 3, 4, &r, NULL) == OP_OK);
  uint32_t w0[4] = {0, 1, 2, 3}, w1[3] = {0, 3, 4};
  OPT_CHECK(r.npolys == 2 && poly_is(&r, 0, w0, 4) && poly_is(&r, 1, w1, 3));
  g2_polys_free(&r);
  /* move point 2 so that |0-3| is the longer one: then 0-3 goes first */
  p[3].x = 2; p[3].y = 7; /* |0-3|^2 = 53 */
  OPT_CHECK(g2_partition(p, 5, t, NULL, 3, 4, &r, NULL) == OP_OK);
  uint32_t v0[3] = {0, 1, 2}, v1[4] = {0, 2, 3, 4};
  OPT_CHECK(r.npolys == 2 && poly_is(&r, 0, v0, 3) && poly_is(&r, 1, v1, 4));
  g2_polys_free(&r);
  OPT_CHECK(g2_partition(p, 5, t, NULL, 3, 5, &r, NULL) == OP_OK);
  uint32_t all[5] = {0, 1, 2, 3, 4};
  OPT_CHECK(r.npolys == 1 && poly_is(&r, 0, all, 5));
  g2_polys_free(&r);
}

OPT_TEST(tie_by_indices, "G2D-222") {
  /* a square split into 4 triangles by its centre 4: the four spokes have equal length;
  ** max 4 vertices: spoke 0-4 (lowest pair) goes first, merging (0,1,4)+(4,1..)?
  ** points: 0=(0,0) 1=(2,0) 2=(2,2) 3=(0,2) 4=(1,1) centre.
  ** triangles (0,1,4) (1,2,4) (2,3,4) (3,0,4); spokes sorted (0,4) (1,4) (2,4) (3,4).
  ** (0,4): merges (3,0,4) and (0,1,4) into 3,0,1,4 -- at 4 the angle is 180 degrees
  ** (3, 4, 1 collinear), allowed; 4 vertices. (1,4): 5 vertices, refused. (2,4): merges
  ** (1,2,4) and (2,3,4) into 1,2,3,4 (4 vertices). (3,4): refused (6). */
  g2_point p[5] = {{0, 0}, {2, 0}, {2, 2}, {0, 2}, {1, 1}};
  uint32_t t[12] = {0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4};
  g2_polys r;
  OPT_CHECK(g2_partition(p, 5, t, NULL, 4, 4, &r, NULL) == OP_OK);
  uint32_t w0[4] = {0, 1, 4, 3}, w1[4] = {1, 2, 3, 4};
  OPT_CHECK(r.npolys == 2 && poly_is(&r, 0, w0, 4) && poly_is(&r, 1, w1, 4));
  g2_polys_free(&r);
}

OPT_TEST(reflex_kept, "G2D-223") {
  /* L shape: (0,0) (2,0) (2,1) (1,1) (1,2) (0,2), reflex at (1,1) = 3 */
  g2_point p[6] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  uint32_t t[12] = {0, 1, 2, 0, 2, 3, 0, 3, 5, 3, 4, 5};
  g2_polys r;
  OPT_CHECK(g2_partition(p, 6, t, NULL, 4, 12, &r, NULL) == OP_OK);
  /* diagonals: 0-2 (5), 0-3 (2), 3-5 (2). 0-2 merges into 0,1,2,3. 0-3: joining
  ** 0,1,2,3 and 0,3,5 gives a reflex turn at 3 ((2,1) -> (1,1) -> (0,2)): refused.
  ** 3-5 merges (0,3,5) and (3,4,5) into 0,3,4,5. */
  uint32_t w0[4] = {0, 1, 2, 3}, w1[4] = {0, 3, 4, 5};
  OPT_CHECK(r.npolys == 2 && poly_is(&r, 0, w0, 4) && poly_is(&r, 1, w1, 4));
  g2_polys_free(&r);
}

OPT_TEST(bad_input, "G2D-220") {
  g2_point p[3] = {{0, 0}, {1, 0}, {0, 1}};
  uint32_t cw[3] = {0, 2, 1};
  g2_polys r;
  memset(&r, 0, sizeof r);
  op_error e;
  OPT_CHECK(g2_partition(p, 3, cw, NULL, 1, 6, &r, &e) == OP_E_ARGUMENT);
  OPT_CHECK(r.npolys == 0 && r.start == NULL);
  uint32_t ok[3] = {0, 1, 2};
  OPT_CHECK(g2_partition(p, 3, ok, NULL, 1, 13, &r, &e) == OP_E_RANGE);
  OPT_CHECK(strcmp(e.field, "MaxVertsPerPoly") == 0);
}

static int cmp_pt(const void *x, const void *y) {
  const g2_point *a = x, *b = y;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  if (a->y != b->y) return a->y < b->y ? -1 : 1;
  return 0;
}

/* Random point sets triangulated by the CDT, partitioned, and checked (G2D-225). */
OPT_TEST(random_properties, "G2D-225") {
  op_prng rng;
  op_prng_seed(&rng, 3);
  for (int round = 0; round < 80; round++) {
    size_t n = 4 + op_prng_below(&rng, 60);
    g2_point p[64];
    for (size_t i = 0; i < n; i++) {
      p[i].x = (int64_t)op_prng_below(&rng, 30);
      p[i].y = (int64_t)op_prng_below(&rng, 30);
    }
    qsort(p, n, sizeof *p, cmp_pt);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
      if (!m || cmp_pt(&p[m - 1], &p[i])) p[m++] = p[i];
    g2_pslg g = {p, m, NULL, 0};
    g2_cdt c;
    OPT_CHECK(g2_cdt_build(&g, &c, NULL) == OP_OK);
    uint32_t mv = 3 + (uint32_t)op_prng_below(&rng, 10);
    g2_polys r;
    OPT_CHECK(g2_partition(p, m, c.tri, NULL, c.ntris, mv, &r, NULL) == OP_OK);
    g2_i128 at = 0, ap = 0;
    for (size_t t = 0; t < c.ntris; t++)
      at += (g2_i128)(p[c.tri[3 * t + 1]].x - p[c.tri[3 * t]].x) * (p[c.tri[3 * t + 2]].y - p[c.tri[3 * t]].y) -
            (g2_i128)(p[c.tri[3 * t + 1]].y - p[c.tri[3 * t]].y) * (p[c.tri[3 * t + 2]].x - p[c.tri[3 * t]].x);
    for (size_t k = 0; k < r.npolys; k++) {
      uint32_t s = r.start[k], nv = r.start[k + 1] - s;
      OPT_CHECK(nv >= 3 && nv <= mv);
      for (uint32_t i = 1; i < nv; i++) OPT_CHECK(r.verts[s] < r.verts[s + i]);
      for (uint32_t i = 0; i < nv; i++) {
        g2_point a = p[r.verts[s + i]], b = p[r.verts[s + (i + 1) % nv]], d = p[r.verts[s + (i + 2) % nv]];
        OPT_CHECK(turn_ok_t(a, b, d));
        ap += (g2_i128)a.x * b.y - (g2_i128)a.y * b.x;
      }
      if (k) OPT_CHECK(r.verts[r.start[k - 1]] < r.verts[s] ||
                       (r.verts[r.start[k - 1]] == r.verts[s] && r.verts[r.start[k - 1] + 1] < r.verts[s + 1]));
    }
    OPT_CHECK(at == ap);
    /* no two polygons sharing an edge could still merge */
    for (size_t k = 0; k < r.npolys; k++)
      for (size_t l = 0; l < r.npolys; l++) {
        if (k == l) continue;
        uint32_t sk = r.start[k], nk = r.start[k + 1] - sk, sl = r.start[l], nl = r.start[l + 1] - sl;
        for (uint32_t i = 0; i < nk; i++)
          for (uint32_t j = 0; j < nl; j++) {
            uint32_t u = r.verts[sk + i], v = r.verts[sk + (i + 1) % nk];
            if (r.verts[sl + j] != v || r.verts[sl + (j + 1) % nl] != u) continue;
            if (nk + nl - 2 > mv) continue;
            uint32_t A = r.verts[sk + (i + nk - 1) % nk], B = r.verts[sk + (i + 2) % nk];
            uint32_t D = r.verts[sl + (j + 2) % nl], C = r.verts[sl + (j + nl - 1) % nl];
            OPT_CHECK(!turn_ok_t(p[A], p[u], p[D]) || !turn_ok_t(p[C], p[v], p[B]));
          }
      }
    g2_polys_free(&r);
    g2_cdt_free(&c);
  }
}

OPT_MAIN_BEGIN
OPT_RUN(square_merges);
OPT_RUN(longest_first);
OPT_RUN(tie_by_indices);
OPT_RUN(reflex_kept);
OPT_RUN(bad_input);
OPT_RUN(random_properties);
OPT_MAIN_END
