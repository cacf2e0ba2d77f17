/*
** test_polys.c -- the polygon stage (spec/build3d-polys.md sections 1-3): the tile
** coordinate map and its orientation bound, BuildPolyMesh on hand-made contours (expected
** values derived by hand in the comments), and properties on generated levels.
*/
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "optest.h"
#include "build3d/polys/polys.h"
#include "build3d/regions/regions.h"

/* A contour set with one contour per list (vertices x, z pairs; y = 0), on a grid of
** w x d cells. Only the fields the polygon stage reads are filled. */
typedef struct hand {
  op_contour_set cs;
  op_hf_grid grid;
} hand;

static void hand_make(hand *h, int32_t w, int32_t d, const int32_t *const *lists,
                      const uint32_t *counts, uint32_t n) {
  memset(h, 0, sizeof *h);
  h->grid.cs = 0.3;
  h->grid.ch = 0.2;
  h->grid.width = w;
  h->grid.depth = d;
  h->grid.height = 64;
  h->cs.width = w;
  h->cs.depth = d;
  uint32_t total = 0;
  for (uint32_t i = 0; i < n; i++) total += counts[i];
  h->cs.contours = calloc(n, sizeof *h->cs.contours);
  h->cs.verts = calloc(total, sizeof *h->cs.verts);
  h->cs.ncontours = n;
  h->cs.nverts = total;
  uint32_t at = 0;
  for (uint32_t i = 0; i < n; i++) {
    h->cs.contours[i].reg = (uint16_t)(i + 1);
    h->cs.contours[i].area = 63;
    h->cs.contours[i].vert_start = at;
    h->cs.contours[i].nverts = counts[i];
    for (uint32_t k = 0; k < counts[i]; k++) {
      h->cs.verts[at + k].x = lists[i][2 * k];
      h->cs.verts[at + k].z = lists[i][2 * k + 1];
    }
    at += counts[i];
  }
}
static void hand_free(hand *h) {
  free(h->cs.contours);
  free(h->cs.verts);
}

static const uint16_t *P(const op_pmesh *pm, uint32_t p) { return pm->polys + (size_t)p * pm->nvp; }
static const uint16_t *N(const op_pmesh *pm, uint32_t p) { return pm->neis + (size_t)p * pm->nvp; }
static int V(const op_pmesh *pm, uint32_t i, int32_t x, int32_t z) {
  return pm->verts[3 * i] == x && pm->verts[3 * i + 2] == z;
}

/* Properties every polygon mesh has (POLY-043, POLY-060, POLY-061, FMT-016..FMT-021):
** convex and counter-clockwise in float32 checked with op_orient2d_f32 directly, the
** turning count of FMT-018 is 1, neighbours mutual, portals on their side. Returns the
** twice-area sum in cells. */
static int64_t check_mesh(opt_state *opt_s_, const op_pmesh *pm) {
  int64_t area2 = 0;
  for (uint32_t p = 0; p < pm->npolys; p++) {
    uint32_t n = op_pmesh_poly_nverts(pm, p);
    OPT_CHECK(n >= 3 && n <= pm->nvp);
    const uint16_t *v = P(pm, p);
    int ups = 0;
    for (uint32_t j = 0; j < n; j++) {
      const int32_t *a = pm->verts + 3 * (size_t)v[(j + n - 1) % n];
      const int32_t *b = pm->verts + 3 * (size_t)v[j];
      const int32_t *c = pm->verts + 3 * (size_t)v[(j + 1) % n];
      float fa[2] = {op_tilemap_xz(&pm->map, a[0]), op_tilemap_xz(&pm->map, a[2])};
      float fb[2] = {op_tilemap_xz(&pm->map, b[0]), op_tilemap_xz(&pm->map, b[2])};
      float fc[2] = {op_tilemap_xz(&pm->map, c[0]), op_tilemap_xz(&pm->map, c[2])};
      OPT_CHECK(op_orient2d_f32(fa, fb, fc) > 0);
      OPT_CHECK(v[j] < pm->nverts);
      int up_prev = fb[1] > fa[1] || (fb[1] == fa[1] && fb[0] > fa[0]);
      int up = fc[1] > fb[1] || (fc[1] == fb[1] && fc[0] > fb[0]);
      ups += !up_prev && up;
      area2 += (int64_t)b[0] * c[2] - (int64_t)c[0] * b[2];
      OPT_CHECK(b[0] >= 0 && b[0] <= pm->map.width && b[2] >= 0 && b[2] <= pm->map.depth);
      uint16_t code = N(pm, p)[j];
      if (code != 0 && code < 0x8000) {
        uint32_t q = code - 1u, nq = op_pmesh_poly_nverts(pm, q), back = 0;
        OPT_CHECK(q != p && q < pm->npolys);
        for (uint32_t e = 0; q < pm->npolys && e < nq; e++)
          if (P(pm, q)[e] == v[(j + 1) % n] && P(pm, q)[(e + 1) % nq] == v[j])
            back += N(pm, q)[e] == p + 1;
        OPT_CHECK(back == 1);
      } else if (code >= 0x8000) {
        uint32_t s = code & 3u;
        OPT_CHECK((code & ~3u) == 0x8000);
        if (s == 0) OPT_CHECK(b[0] == 0 && c[0] == 0);
        if (s == 1) OPT_CHECK(b[2] == pm->map.depth && c[2] == pm->map.depth);
        if (s == 2) OPT_CHECK(b[0] == pm->map.width && c[0] == pm->map.width);
        if (s == 3) OPT_CHECK(b[2] == 0 && c[2] == 0);
      }
    }
    OPT_CHECK(ups == 1);
    for (uint32_t j = n; j < pm->nvp; j++) OPT_CHECK(v[j] == OP_PMESH_NULL);
  }
  /* POLY-071: every vertex used */
  uint8_t *used = calloc(pm->nverts + 1, 1);
  for (size_t i = 0; i < (size_t)pm->npolys * pm->nvp; i++)
    if (pm->polys[i] != OP_PMESH_NULL) used[pm->polys[i]] = 1;
  for (uint32_t i = 0; i < pm->nverts; i++) OPT_CHECK(used[i]);
  free(used);
  return area2;
}

/* ---------------------------------------------------------------- the map */

/* POLY-005, POLY-006: W = max bordered side; bound ((W*W) >> 19) + 1. W = 16384:
** 2^28 >> 19 = 512, bound 513. W = 1000: 10^6 >> 19 = 1 (524288 <= 10^6 < 2^20), bound 2.
** W = 700: 490000 < 524288, bound 1. */
OPT_TEST(map_bound_values, "POLY-006") {
  op_hf_grid g;
  memset(&g, 0, sizeof g);
  g.cs = 0.3;
  g.ch = 0.2;
  g.height = 10;
  op_tilemap m;
  g.width = 16384;
  g.depth = 100;
  OPT_CHECK(op_tilemap_init(&m, &g, 3, NULL) == OP_OK);
  OPT_CHECK(m.cells_across == 16384 && m.orient_bound == 513);
  OPT_CHECK(m.width == 16378 && m.depth == 94 && m.border == 3);
  g.width = 900;
  g.depth = 1000;
  OPT_CHECK(op_tilemap_init(&m, &g, 0, NULL) == OP_OK);
  OPT_CHECK(m.cells_across == 1000 && m.orient_bound == 2);
  g.width = 700;
  g.depth = 700;
  OPT_CHECK(op_tilemap_init(&m, &g, 0, NULL) == OP_OK);
  OPT_CHECK(m.orient_bound == 1);
  op_error e;
  g.width = 5;
  OPT_CHECK(op_tilemap_init(&m, &g, 3, &e) == OP_E_ARGUMENT && !strcmp(e.field, "grid.width"));
}

/* POLY-003, POLY-004: x = f32(x * cs) with the product in binary64: cs = 0.1, x = 3:
** 3 * 0.1 = 0.30000000000000004 in binary64, whose nearest float32 is 0.3f; y offset. */
OPT_TEST(map_positions, "POLY-003") {
  op_hf_grid g;
  memset(&g, 0, sizeof g);
  g.cs = 0.1;
  g.ch = 0.25;
  g.width = g.depth = 20;
  g.height = 10;
  op_tilemap m;
  OPT_CHECK(op_tilemap_init(&m, &g, 2, NULL) == OP_OK);
  float p[3];
  op_tilemap_pos(&m, 3, 5, 16, p);
  OPT_CHECK(p[0] == 0.3f && p[1] == 1.25f && p[2] == (float)1.6);
  m.y_offset = -2.0;
  op_tilemap_pos(&m, 0, 8, 0, p);
  OPT_CHECK(p[0] == 0.0f && p[1] == 0.0f && !__builtin_signbit(p[1]) && p[2] == 0.0f);
}

/* POLY-007: the filtered test equals op_orient2d_f32 of the mapped points on random
** triples and on nearly collinear triples; and the bound itself holds: whenever the
** cell determinant has magnitude >= the bound, op_orient2d_f32 has its sign. */
OPT_TEST(map_orient_bound, "POLY-007") {
  static const double CS[6] = {0.3, 0.1, 1.0 / 7.0, 0.0123456789, 3.3, 0.7071067811865476};
  static const int32_t WS[4] = {16384, 9000, 1500, 64};
  op_prng r;
  op_prng_seed(&r, 5);
  long exact_calls = 0, fast = 0, near_bound = 0, bad = 0, flips = 0;
  for (int ci = 0; ci < 6; ci++)
    for (int wi = 0; wi < 4; wi++) {
      op_hf_grid g;
      memset(&g, 0, sizeof g);
      g.cs = CS[ci];
      g.ch = 0.2;
      g.width = g.depth = WS[wi];
      g.height = 10;
      op_tilemap m;
      OPT_CHECK(op_tilemap_init(&m, &g, 0, NULL) == OP_OK);
      int32_t W = m.cells_across;
      for (int it = 0; it < 20000; it++) {
        int32_t a[2], b[2], c[2];
        for (int k = 0; k < 2; k++) {
          a[k] = (int32_t)op_prng_below(&r, (uint64_t)W + 1);
          b[k] = (int32_t)op_prng_below(&r, (uint64_t)W + 1);
        }
        if (it % 2 == 0) {
          for (int k = 0; k < 2; k++) c[k] = (int32_t)op_prng_below(&r, (uint64_t)W + 1);
        } else {
          /* nearly collinear: c = a + t (b - a) + small offset, clamped to [0, W] */
          int64_t t = (int64_t)op_prng_below(&r, 1024);
          for (int k = 0; k < 2; k++) {
            int64_t v = a[k] + ((b[k] - (int64_t)a[k]) * t) / 1023 +
                        (int64_t)op_prng_below(&r, 7) - 3;
            c[k] = (int32_t)(v < 0 ? 0 : v > W ? W : v);
          }
        }
        float fa[2] = {op_tilemap_xz(&m, a[0]), op_tilemap_xz(&m, a[1])};
        float fb[2] = {op_tilemap_xz(&m, b[0]), op_tilemap_xz(&m, b[1])};
        float fc[2] = {op_tilemap_xz(&m, c[0]), op_tilemap_xz(&m, c[1])};
        int want = op_orient2d_f32(fa, fb, fc);
        int got = op_tilemap_orient(&m, a, b, c);
        bad += got != want;
        int64_t d = ((int64_t)b[0] - a[0]) * ((int64_t)c[1] - a[1]) -
                    ((int64_t)b[1] - a[1]) * ((int64_t)c[0] - a[0]);
        int64_t ad = d < 0 ? -d : d;
        if (ad >= m.orient_bound) {
          fast++;
          bad += want != (d > 0 ? 1 : -1);
          near_bound += ad < 2 * m.orient_bound;
        } else {
          exact_calls++;
          flips += want != (d > 0 ? 1 : d < 0 ? -1 : 0);
        }
      }
    }
  printf("     %ld fast, %ld exact (%ld where binary32 and cells differ in sign), %ld fast within "
         "twice the bound, %ld disagreements\n", fast, exact_calls, flips, near_bound, bad);
  OPT_CHECK(bad == 0);
  OPT_CHECK(exact_calls > 1000 && near_bound > 100);
}

/* ------------------------------------------------------- hand-made contours */

static const int32_t SQUARE[] = {0, 0, 0, 4, 4, 4, 4, 0}; /* clockwise: an outline */

/* Square 4 x 4, border 0, nvp 6. Working list (POLY-021) (0,0),(4,0),(4,4),(0,4), ids
** 0..3 in that order (POLY-031). Every vertex is an ear, all diagonals 32: position 0
** first (POLY-024): triangle (3,0,1), then (1,2,3). They share 1-3; merged (POLY-044)
** (3,0,1,2), rotated (POLY-070) to (0,1,2,3). Edges on z=0, x=4, z=4, x=0: portals 3, 2,
** 1, 0 (POLY-061). With nvp 3 the triangles stay: (0,1,3) rotated, (1,2,3), linked
** across 1-3 (POLY-060). */
OPT_TEST(poly_square, "POLY-024") {
  const int32_t *l[1] = {SQUARE};
  uint32_t n[1] = {4};
  hand h;
  hand_make(&h, 4, 4, l, n, 1);
  op_pmesh pm;
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, 6, &pm, NULL) == OP_OK);
  OPT_CHECK(pm.nverts == 4 && pm.npolys == 1);
  OPT_CHECK(V(&pm, 0, 0, 0) && V(&pm, 1, 4, 0) && V(&pm, 2, 4, 4) && V(&pm, 3, 0, 4));
  OPT_CHECK(P(&pm, 0)[0] == 0 && P(&pm, 0)[1] == 1 && P(&pm, 0)[2] == 2 && P(&pm, 0)[3] == 3 &&
            P(&pm, 0)[4] == OP_PMESH_NULL);
  OPT_CHECK(N(&pm, 0)[0] == 0x8003 && N(&pm, 0)[1] == 0x8002 && N(&pm, 0)[2] == 0x8001 &&
            N(&pm, 0)[3] == 0x8000);
  OPT_CHECK(pm.regs[0] == 1 && pm.areas[0] == 63 && pm.flags[0] == 0);
  OPT_CHECK(check_mesh(opt_s_, &pm) == 32);
  op_pmesh_free(&pm);
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, 3, &pm, NULL) == OP_OK);
  OPT_CHECK(pm.npolys == 2);
  OPT_CHECK(P(&pm, 0)[0] == 0 && P(&pm, 0)[1] == 1 && P(&pm, 0)[2] == 3);
  OPT_CHECK(P(&pm, 1)[0] == 1 && P(&pm, 1)[1] == 2 && P(&pm, 1)[2] == 3);
  OPT_CHECK(N(&pm, 0)[0] == 0x8003 && N(&pm, 0)[1] == 2 && N(&pm, 0)[2] == 0x8000);
  OPT_CHECK(N(&pm, 1)[0] == 0x8002 && N(&pm, 1)[1] == 0x8001 && N(&pm, 1)[2] == 1);
  OPT_CHECK(check_mesh(opt_s_, &pm) == 32);
  op_pmesh_free(&pm);
  hand_free(&h);
}

/* L shape, cells x 0..4 z 0..2 plus x 0..2 z 2..4, nvp 6. Ids: 0 (0,0), 1 (4,0), 2 (4,2),
** 3 (2,2), 4 (2,4), 5 (0,4). Ears at first: positions 1 (diagonal 20), 2 (8), 4 (8), 5 (20);
** position 0's diagonal (0,4)-(4,0) touches (2,2). Clipping: (1,2,3), then (0,1,3) [8,
** position 1 beats position 3], then (5,0,3), last (3,4,5). Merging: (0,1) and (2,3) both
** share an edge of length^2 8; the first pair wins: (1,2,3,0); T3 moves into slot 1; then
** (3,4,5) with (5,0,3) -> (3,4,5,0). (0,1,2,3) and (0,3,4,5) after rotation; (0,3,4,5)'s
** edge 0->3 is shared with (0,1,2,3)'s edge 3->0. */
OPT_TEST(poly_l_shape, "POLY-045") {
  static const int32_t L[] = {0, 0, 0, 4, 2, 4, 2, 2, 4, 2, 4, 0};
  const int32_t *l[1] = {L};
  uint32_t n[1] = {6};
  hand h;
  hand_make(&h, 4, 4, l, n, 1);
  op_pmesh pm;
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, 6, &pm, NULL) == OP_OK);
  OPT_CHECK(pm.nverts == 6 && pm.npolys == 2);
  OPT_CHECK(V(&pm, 0, 0, 0) && V(&pm, 1, 4, 0) && V(&pm, 2, 4, 2) && V(&pm, 3, 2, 2) &&
            V(&pm, 4, 2, 4) && V(&pm, 5, 0, 4));
  OPT_CHECK(P(&pm, 0)[0] == 0 && P(&pm, 0)[1] == 1 && P(&pm, 0)[2] == 2 && P(&pm, 0)[3] == 3);
  OPT_CHECK(P(&pm, 1)[0] == 0 && P(&pm, 1)[1] == 3 && P(&pm, 1)[2] == 4 && P(&pm, 1)[3] == 5);
  OPT_CHECK(N(&pm, 0)[0] == 0x8003 && N(&pm, 0)[1] == 0x8002 && N(&pm, 0)[2] == 0 &&
            N(&pm, 0)[3] == 2);
  OPT_CHECK(N(&pm, 1)[0] == 1 && N(&pm, 1)[1] == 0 && N(&pm, 1)[2] == 0x8001 &&
            N(&pm, 1)[3] == 0x8000);
  OPT_CHECK(check_mesh(opt_s_, &pm) == 2 * 12);
  op_pmesh_free(&pm);
  hand_free(&h);
}

/* A 6 x 6 square with a 2 x 2 hole joined at (0,0)-(2,2) as the contour stage joins
** (REG-219). The duplicate corners weld (POLY-031): 8 vertices. Polygons cover 36 - 4
** cells (twice: 64), none covers the hole's centre (3,3), all convex in float32. */
OPT_TEST(poly_square_with_hole, "POLY-031") {
  static const int32_t H[] = {0, 0, 2, 2, 4, 2, 4, 4, 2, 4, 2, 2, 0, 0, 0, 6, 6, 6, 6, 0};
  const int32_t *l[1] = {H};
  uint32_t n[1] = {10};
  hand h;
  hand_make(&h, 6, 6, l, n, 1);
  for (uint32_t nvp = 3; nvp <= 12; nvp++) {
    op_pmesh pm;
    OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, nvp, &pm, NULL) == OP_OK);
    OPT_CHECK(pm.nverts == 8 && pm.untriangulated == 0);
    OPT_CHECK(check_mesh(opt_s_, &pm) == 64);
    for (uint32_t p = 0; p < pm.npolys; p++) { /* (3,3) strictly inside? (doubled: 6,6) */
      uint32_t k = op_pmesh_poly_nverts(&pm, p), inside = 1;
      for (uint32_t j = 0; j < k; j++) {
        const int32_t *a = pm.verts + 3 * P(&pm, p)[j], *b = pm.verts + 3 * P(&pm, p)[(j + 1) % k];
        int64_t o = (int64_t)(2 * b[0] - 2 * a[0]) * (6 - 2 * a[2]) -
                    (int64_t)(2 * b[2] - 2 * a[2]) * (6 - 2 * a[0]);
        if (o <= 0) inside = 0;
      }
      OPT_CHECK(!inside);
    }
    if (nvp == 3) OPT_CHECK(pm.npolys == 8); /* 10 vertices - 2 = 8 triangles */
    op_pmesh_free(&pm);
  }
  hand_free(&h);
}

/* A contour touching the tile border: border 2, bordered grid 8 x 8 (own 4 x 4); the
** rectangle x 2..4, z 2..6 in bordered cells is x 0..2, z 0..4 in the tile. One polygon
** (0,0),(2,0),(2,4),(0,4); edges z=0 -> portal 3, x=2 -> wall (not the tile's side),
** z=4 -> portal 1, x=0 -> portal 0. A vertex in the border strip is refused (POLY-012). */
OPT_TEST(poly_tile_border, "POLY-061") {
  static const int32_t R[] = {2, 2, 2, 6, 4, 6, 4, 2};
  const int32_t *l[1] = {R};
  uint32_t n[1] = {4};
  hand h;
  hand_make(&h, 8, 8, l, n, 1);
  op_pmesh pm;
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 2, 4, &pm, NULL) == OP_OK);
  OPT_CHECK(pm.npolys == 1 && pm.nverts == 4);
  OPT_CHECK(V(&pm, 0, 0, 0) && V(&pm, 1, 2, 0) && V(&pm, 2, 2, 4) && V(&pm, 3, 0, 4));
  OPT_CHECK(N(&pm, 0)[0] == 0x8003 && N(&pm, 0)[1] == 0 && N(&pm, 0)[2] == 0x8001 &&
            N(&pm, 0)[3] == 0x8000);
  float p[3];
  op_tilemap_pos(&pm.map, 2, 0, 4, p);
  OPT_CHECK(p[0] == (float)0.6 && p[2] == (float)1.2);
  check_mesh(opt_s_, &pm);
  op_pmesh_free(&pm);
  h.cs.verts[0].x = 1;
  op_error e;
  memset(&pm, 0x5a, sizeof pm);
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 2, 4, &pm, &e) == OP_E_ARGUMENT &&
            !strcmp(e.field, "contours.verts"));
  OPT_CHECK(pm.nvp == 0x5a5a5a5au); /* untouched on failure */
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 2, 13, &pm, &e) == OP_E_RANGE &&
            !strcmp(e.field, "MaxVertsPerPoly"));
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 2, 2, &pm, &e) == OP_E_RANGE);
  hand_free(&h);
}


/* Two regions meeting on the tile's +x side at (4,2), a tile-border vertex (REG-206 flag set
** on both copies). Contour 1 (region 1, z 0..2): ids 0 (0,0), 1 (4,0), 2 (4,2), 3 (0,2);
** contour 2 (region 2, z 2..4): (0,2) welds to 3, (4,2) to 2, then 4 (4,4), 5 (0,4). Each
** rectangle: triangles (3,0,1) + (1,2,3) -> (0,1,2,3); (5,3,2) + (2,4,5) -> (5,3,2,4),
** rotated (2,4,5,3). The vertex (4,2) is kept (POLY-032): two portals on side 2. */
OPT_TEST(poly_tile_border_vertex, "POLY-032") {
  static const int32_t A[] = {0, 0, 0, 2, 4, 2, 4, 0}, B[] = {0, 2, 0, 4, 4, 4, 4, 2};
  const int32_t *l[2] = {A, B};
  uint32_t n[2] = {4, 4};
  hand h;
  hand_make(&h, 4, 4, l, n, 2);
  h.cs.verts[2].flags = OP_CVERT_TILE_BORDER;
  h.cs.verts[7].flags = OP_CVERT_TILE_BORDER;
  op_pmesh pm;
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, 6, &pm, NULL) == OP_OK);
  OPT_CHECK(pm.nverts == 6 && pm.npolys == 2);
  OPT_CHECK(V(&pm, 2, 4, 2) && V(&pm, 3, 0, 2) && V(&pm, 4, 4, 4) && V(&pm, 5, 0, 4));
  OPT_CHECK(P(&pm, 0)[0] == 0 && P(&pm, 0)[1] == 1 && P(&pm, 0)[2] == 2 && P(&pm, 0)[3] == 3);
  OPT_CHECK(P(&pm, 1)[0] == 2 && P(&pm, 1)[1] == 4 && P(&pm, 1)[2] == 5 && P(&pm, 1)[3] == 3);
  OPT_CHECK(N(&pm, 0)[0] == 0x8003 && N(&pm, 0)[1] == 0x8002 && N(&pm, 0)[2] == 2 &&
            N(&pm, 0)[3] == 0x8000);
  OPT_CHECK(N(&pm, 1)[0] == 0x8002 && N(&pm, 1)[1] == 0x8001 && N(&pm, 1)[2] == 0x8000 &&
            N(&pm, 1)[3] == 1);
  OPT_CHECK(pm.regs[0] == 1 && pm.regs[1] == 2);
  OPT_CHECK(check_mesh(opt_s_, &pm) == 32);
  op_pmesh_free(&pm);
  hand_free(&h);
}


/* POLY-030: the two rectangles of poly_tile_border_vertex with contour 2's copy of (0,2) at
** row 3 (|3 - 0| > 2: a new vertex, id 4) and its copy of (4,2) at row 2 (welded to id 2,
** which keeps row 0). Then 4 (0,2,y3), 5 (4,4), 6 (0,4): 7 vertices, no shared edge. */
OPT_TEST(poly_weld_tolerance, "POLY-030") {
  static const int32_t A[] = {0, 0, 0, 2, 4, 2, 4, 0}, B[] = {0, 2, 0, 4, 4, 4, 4, 2};
  const int32_t *l[2] = {A, B};
  uint32_t n[2] = {4, 4};
  hand h;
  hand_make(&h, 4, 4, l, n, 2);
  h.cs.verts[4].y = 3;
  h.cs.verts[7].y = 2;
  op_pmesh pm;
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, 6, &pm, NULL) == OP_OK);
  OPT_CHECK(pm.nverts == 7 && pm.npolys == 2);
  OPT_CHECK(pm.verts[3 * 2 + 1] == 0 && V(&pm, 2, 4, 2));
  OPT_CHECK(pm.verts[3 * 4 + 1] == 3 && V(&pm, 4, 0, 2) && V(&pm, 5, 4, 4) && V(&pm, 6, 0, 4));
  for (uint32_t k = 0; k < 2 * pm.nvp; k++) OPT_CHECK(pm.neis[k] == 0 || pm.neis[k] >= 0x8000);
  check_mesh(opt_s_, &pm);
  op_pmesh_free(&pm);
  hand_free(&h);
}

/* A convex octagon (8 vertices): merged into one polygon exactly when nvp >= 8; with
** nvp 3..7 every polygon has at most nvp vertices and there are at least 2 (POLY-042). */
OPT_TEST(poly_merge_at_limit, "POLY-042") {
  static const int32_t O[] = {2, 0, 0, 2, 0, 4, 2, 6, 4, 6, 6, 4, 6, 2, 4, 0}; /* clockwise */
  const int32_t *l[1] = {O};
  uint32_t n[1] = {8};
  hand h;
  hand_make(&h, 6, 6, l, n, 1);
  for (uint32_t nvp = 3; nvp <= 12; nvp++) {
    op_pmesh pm;
    OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, nvp, &pm, NULL) == OP_OK);
    OPT_CHECK(check_mesh(opt_s_, &pm) == 2 * 28); /* 36 - 4 half cells */
    if (nvp >= 8) OPT_CHECK(pm.npolys == 1 && op_pmesh_poly_nverts(&pm, 0) == 8);
    else OPT_CHECK(pm.npolys >= 2);
    if (nvp == 3) OPT_CHECK(pm.npolys == 6);
    op_pmesh_free(&pm);
  }
  hand_free(&h);
}


/* POLY-080: unit squares on an n x n lattice (each its own contour, clockwise) at spacing
** `step`. step 1: squares share corners, (n+1)^2 vertices, with nvp 3 two triangles each;
** n = 128: 16641 vertices, 32768 triangles: the 32768th polygon is a limit error npolys
** (value 32768). step 3: disjoint squares, 4 vertices each; n = 128: the 65536th vertex is
** a limit error nverts (value 65536); n = 127 (64516 vertices) builds. */
static void lattice(hand *h, int32_t n, int32_t step) {
  uint32_t nc = (uint32_t)(n * n);
  memset(h, 0, sizeof *h);
  h->grid.cs = 0.3;
  h->grid.ch = 0.2;
  h->grid.width = h->grid.depth = n * step + 1;
  h->grid.height = 8;
  h->cs.width = h->cs.depth = h->grid.width;
  h->cs.ncontours = nc;
  h->cs.nverts = 4 * nc;
  h->cs.contours = calloc(nc, sizeof *h->cs.contours);
  h->cs.verts = calloc(4 * (size_t)nc, sizeof *h->cs.verts);
  static const int32_t SQ[8] = {0, 0, 0, 1, 1, 1, 1, 0};
  for (uint32_t c = 0; c < nc; c++) {
    int32_t x0 = (int32_t)(c % (uint32_t)n) * step, z0 = (int32_t)(c / (uint32_t)n) * step;
    h->cs.contours[c].reg = 1;
    h->cs.contours[c].area = 1;
    h->cs.contours[c].vert_start = 4 * c;
    h->cs.contours[c].nverts = 4;
    for (int k = 0; k < 4; k++) {
      h->cs.verts[4 * c + k].x = x0 + SQ[2 * k];
      h->cs.verts[4 * c + k].z = z0 + SQ[2 * k + 1];
    }
  }
}

OPT_TEST(poly_limits, "POLY-080") {
  hand h;
  op_pmesh pm;
  op_error e;
  lattice(&h, 128, 1);
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, 3, &pm, &e) == OP_E_LIMIT &&
            !strcmp(e.field, "npolys") && !strcmp(e.value, "32768"));
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, 4, &pm, NULL) == OP_OK);
  OPT_CHECK(pm.nverts == 129 * 129 && pm.npolys == 128 * 128);
  op_pmesh_free(&pm);
  hand_free(&h);
  lattice(&h, 128, 3);
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, 6, &pm, &e) == OP_E_LIMIT &&
            !strcmp(e.field, "nverts") && !strcmp(e.value, "65536"));
  hand_free(&h);
  lattice(&h, 127, 3);
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, 6, &pm, NULL) == OP_OK);
  OPT_CHECK(pm.nverts == 4 * 127 * 127 && pm.npolys == 127 * 127);
  op_pmesh_free(&pm);
  hand_free(&h);
}


/* A comb: base z 0..1 over x 0..2K, teeth of width 1 and height T at even x; a contour of
** 4K + 2 vertices. Triangulation completes (POLY-024 .. POLY-027); the polygons cover
** twice the area 2 (K * 1 * (T - 1) + 2K * 1) cells and are convex in float32. */
OPT_TEST(poly_comb, "POLY-027") {
  const int32_t K = 300, T = 7;
  uint32_t n = 4 * (uint32_t)K + 2, k = 0;
  int32_t *c = malloc(2 * (size_t)n * sizeof *c);
  /* counter-clockwise first: (0,0), (2K,0), then the top from right to left */
  int32_t *ccw = malloc(2 * (size_t)n * sizeof *ccw);
  ccw[2 * k] = 0, ccw[2 * k + 1] = 0, k++;
  ccw[2 * k] = 2 * K, ccw[2 * k + 1] = 0, k++;
  for (int32_t i = K - 1; i >= 0; i--) {
    ccw[2 * k] = 2 * i + 2, ccw[2 * k + 1] = 1, k++;
    ccw[2 * k] = 2 * i + 1, ccw[2 * k + 1] = 1, k++;
    ccw[2 * k] = 2 * i + 1, ccw[2 * k + 1] = T, k++;
    ccw[2 * k] = 2 * i, ccw[2 * k + 1] = T, k++;
  }
  OPT_CHECK(k == n);
  for (uint32_t j = 0; j < n; j++) { /* reversed: clockwise, as outlines come */
    c[2 * j] = ccw[2 * (n - 1 - j)];
    c[2 * j + 1] = ccw[2 * (n - 1 - j) + 1];
  }
  const int32_t *l[1] = {c};
  hand h;
  hand_make(&h, 2 * K, T, l, &n, 1);
  op_pmesh pm;
  OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, 6, &pm, NULL) == OP_OK);
  OPT_CHECK(pm.untriangulated == 0);
  OPT_CHECK(check_mesh(opt_s_, &pm) == 2 * ((int64_t)K * (T - 1) + 2 * K));
  printf("     comb of %u vertices: %u polygons\n", n, pm.npolys);
  op_pmesh_free(&pm);
  hand_free(&h);
  free(c);
  free(ccw);
}


/* A straight vertex: the square of poly_square with (0,2) in the middle of its x = 0 side.
** It is never an ear tip (orient 0, POLY-023); the contour still triangulates completely
** (POLY-027), the polygons cover the square and are strictly convex in float32 (POLY-043). */
OPT_TEST(poly_straight_vertex, "POLY-027") {
  static const int32_t S[] = {0, 0, 0, 2, 0, 4, 4, 4, 4, 0};
  const int32_t *l[1] = {S};
  uint32_t n[1] = {5};
  hand h;
  hand_make(&h, 4, 4, l, n, 1);
  for (uint32_t nvp = 3; nvp <= 6; nvp++) {
    op_pmesh pm;
    OPT_CHECK(op_pmesh_build(&h.cs, &h.grid, 0, nvp, &pm, NULL) == OP_OK);
    OPT_CHECK(pm.untriangulated == 0);
    OPT_CHECK(check_mesh(opt_s_, &pm) == 32);
    op_pmesh_free(&pm);
  }
  hand_free(&h);
}

/* ------------------------------------------------------------ levels */

typedef struct lstats {
  long tiles, polys, verts, untri;
} lstats;

static void run_level(opt_state *opt_s_, const char *name, uint32_t size, const char *preset,
                      int part, lstats *st) {
  fx_level_tiles lt;
  OPT_CHECK(fx_level_tiles_open(&lt, name, size, preset) == 0);
  const op_settings s = lt.s;
  const op_cell_settings cell = lt.cell;
  for (int32_t tz = 0; tz < lt.nz; tz++)
    for (int32_t tx = 0; tx < lt.nx; tx++) {
      op_chf *c = NULL;
      OPT_CHECK(fx_level_tile(&lt, tx, tz, &c) == OP_OK);
      if (!c) continue;
      op_regions rg;
      memset(&rg, 0, sizeof rg);
      op_error e;
      op_status rs = op_regions_build(c, (op_partition)part, cell.border, s.min_region_area,
                                      s.merge_region_area, &rg, &e);
      OPT_CHECK(rs == OP_OK);
      if (rs == OP_OK) {
        op_contour_params p;
        p.border = cell.border;
        p.max_error = s.max_simplification_error;
        p.max_edge_len = cell.max_edge_len;
        op_contour_set cs;
        OPT_CHECK(op_contours_build(c, rg.reg, &p, &cs, &e) == OP_OK);
        op_pmesh pm;
        op_status ps = op_pmesh_build(&cs, &c->grid, cell.border, s.max_verts_per_poly, &pm, &e);
        OPT_CHECK(ps == OP_OK);
        if (ps == OP_OK) {
          check_mesh(opt_s_, &pm);
          st->tiles++;
          st->polys += pm.npolys;
          st->verts += pm.nverts;
          st->untri += pm.untriangulated;
          op_pmesh_free(&pm);
        }
        op_contour_set_free(&cs);
        op_regions_free(&rg);
      }
      op_chf_free(c);
    }
  fx_level_tiles_close(&lt);
}

/* POLY-043, POLY-060, POLY-061, POLY-071 on every generator, preset and partition:
** every output polygon convex and counter-clockwise in float32 (checked with
** op_orient2d_f32 itself), turning once, neighbours mutual, portals on their sides,
** vertices inside the tile and all used. */
OPT_TEST(poly_properties_levels, "POLY-043") {
  static const char *const NAMES[4] = {"terrain", "city", "stairs", "dungeon"};
  static const uint32_t SIZES[4] = {48, 2, 10, 12};
  static const char *const PRESETS[3] = {"Humanoid", "Small", "Large"};
  lstats st;
  memset(&st, 0, sizeof st);
  for (int li = 0; li < 4; li++)
    for (int pi = 0; pi < 3; pi++)
      for (int part = 0; part < 3; part++) run_level(opt_s_, NAMES[li], SIZES[li], PRESETS[pi], part, &st);
  printf("     %ld tiles, %ld polygons, %ld vertices, %ld contours not fully triangulated\n",
         st.tiles, st.polys, st.verts, st.untri);
  OPT_CHECK(st.tiles > 0 && st.polys > 0);
}

OPT_MAIN_BEGIN
OPT_RUN(map_bound_values);
OPT_RUN(map_positions);
OPT_RUN(map_orient_bound);
OPT_RUN(poly_square);
OPT_RUN(poly_l_shape);
OPT_RUN(poly_square_with_hole);
OPT_RUN(poly_tile_border);
OPT_RUN(poly_tile_border_vertex);
OPT_RUN(poly_weld_tolerance);
OPT_RUN(poly_merge_at_limit);
OPT_RUN(poly_straight_vertex);
OPT_RUN(poly_limits);
OPT_RUN(poly_comb);
OPT_RUN(poly_properties_levels);
OPT_MAIN_END
