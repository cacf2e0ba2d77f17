/*
** test_contours.c -- unit tests of the contour stage (spec/build3d-regions.md section 6,
** REG-200 .. REG-221). Expected values are derived by hand from the clauses (the
** derivation is in the comment above each check) or by an independent computation in
** this file (boundary edges recomputed from the raw links, areas from span counts).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "build3d/contours/contours.h"
#include "fixtures3d.h"
#include "optest.h"
#include "build3d/regions/regions.h"

/* ------------------------------------------------------------ hand-made fields */

/* A single-layer compact heightfield from a map of depth rows (row z = map[z]) of width
** characters: '.' no span; 'a'..'z' region 1..26; 'A'..'D' border region 0x8000|1..4;
** '0' a span of area 63 without region. Every span has floor 0 and links to the spans
** of the 4 neighbour cells. Region values go to *reg (malloc'd). */
static op_chf *make_chf(const char *const *map, int32_t w, int32_t d, uint16_t **reg) {
  op_chf *c = calloc(1, sizeof *c);
  c->grid.width = w;
  c->grid.depth = d;
  c->grid.height = 100;
  c->grid.cs = 1;
  c->grid.ch = 1;
  c->walkable_height = 2;
  c->walkable_climb = 1;
  c->cell_index = calloc((size_t)(w * d), sizeof *c->cell_index);
  c->cell_count = calloc((size_t)(w * d), 1);
  uint32_t n = 0;
  for (int32_t z = 0; z < d; z++)
    for (int32_t x = 0; x < w; x++) {
      c->cell_index[z * w + x] = n;
      if (map[z][x] != '.') {
        c->cell_count[z * w + x] = 1;
        n++;
      }
    }
  c->nspans = n;
  c->spans = calloc(n ? n : 1, sizeof *c->spans);
  c->areas = calloc(n ? n : 1, 1);
  *reg = calloc(n ? n : 1, sizeof **reg);
  static const int dx[4] = {-1, 0, 1, 0}, dz[4] = {0, 1, 0, -1};
  for (int32_t z = 0; z < d; z++)
    for (int32_t x = 0; x < w; x++) {
      char ch = map[z][x];
      if (ch == '.') continue;
      uint32_t i = c->cell_index[z * w + x];
      c->spans[i].y = 0;
      c->spans[i].h = 255;
      c->areas[i] = 63;
      (*reg)[i] = ch >= 'a' && ch <= 'z'   ? (uint16_t)(ch - 'a' + 1)
                  : ch >= 'A' && ch <= 'D' ? (uint16_t)(0x8000 | (ch - 'A' + 1))
                                           : 0;
      for (int k = 0; k < 4; k++) {
        int32_t nx = x + dx[k], nz = z + dz[k];
        int ok = nx >= 0 && nz >= 0 && nx < w && nz < d && map[nz][nx] != '.';
        c->spans[i].link[k] = ok ? 0 : OP_CHF_NOT_CONNECTED;
      }
    }
  return c;
}

static op_contour_params params(int32_t border, double e, int32_t len) {
  op_contour_params p;
  p.border = border;
  p.max_error = e;
  p.max_edge_len = len;
  return p;
}

static int vert_is(const op_cvert *v, int32_t x, int32_t z) { return v->x == x && v->z == z; }

/* ------------------------------------------------------------------- tracing */

/* One cell (0,0) of region 1. REG-208: the loop starts at key 0 (span 0, -x); every side
** is a boundary, so the walk turns four times: keys 0,1,2,3. REG-205: starts (0,0),
** (0,1), (1,1), (1,0). REG-215: 2A = (0*1-0*0)+(0*1-1*1)+(1*0-1*1)+(1*0-0*0) = -2. */
OPT_TEST(contour_single_cell, "REG-208") {
  const char *map[] = {"a"};
  uint16_t *reg;
  op_chf *c = make_chf(map, 1, 1, &reg);
  op_contour_params p = params(0, 0, 0);
  op_contour_set cs;
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
  OPT_CHECK(cs.nloops == 1 && cs.nraw == 4);
  OPT_CHECK(vert_is(&cs.raw[0], 0, 0) && vert_is(&cs.raw[1], 0, 1) && vert_is(&cs.raw[2], 1, 1) &&
            vert_is(&cs.raw[3], 1, 0));
  for (uint32_t k = 0; k < 4; k++) {
    OPT_CHECK(cs.raw_edge[k] == k && cs.edge_loop[k] == 0);
    OPT_CHECK(cs.raw[k].reg == 0 && cs.raw[k].area == 0 && cs.raw[k].flags == 0);
  }
  OPT_CHECK(cs.loops[0].area2 == -2 && !cs.loops[0].hole && cs.loops[0].reg == 1);
  /* REG-209, REG-210 with error 0: extremes (0,0) and (1,1); (0,1) and (1,0) lie at
  ** squared distance 1/2 > 0 from the diagonal: all four kept. */
  OPT_CHECK(cs.loops[0].nsimp == 4 && cs.ncontours == 1 && cs.contours[0].nverts == 4);
  op_contour_set_free(&cs);
  /* error 1.3: 1/2 <= 1.69, only the two extremes remain: empty (REG-213), no contour */
  p = params(0, 1.3, 0);
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
  OPT_CHECK(cs.nloops == 1 && cs.loops[0].nsimp == 0 && cs.ncontours == 0);
  op_contour_set_free(&cs);
  op_chf_free(c);
  free(reg);
}

/* Two cells "ab". REG-208: loop 0 (region 1) from key 0 owns keys 0..3; loop 1
** (region 2) from key 4 (span 1, -x, which faces region 1) owns 4..7. REG-207: the
** vertex of edge (0, +x) = key 2 starts at (1,1) and faces region 2, area 63. */
OPT_TEST(contour_edge_keys, "REG-202") {
  const char *map[] = {"ab"};
  uint16_t *reg;
  op_chf *c = make_chf(map, 2, 1, &reg);
  op_contour_params p = params(0, 0, 0);
  op_contour_set cs;
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
  OPT_CHECK(cs.nloops == 2 && cs.loops[0].start_key == 0 && cs.loops[1].start_key == 4);
  for (uint32_t k = 0; k < 8; k++) OPT_CHECK(cs.edge_loop[k] == k / 4 && cs.raw_edge[k] == k);
  OPT_CHECK(vert_is(&cs.raw[2], 1, 1) && cs.raw[2].reg == 2 && cs.raw[2].area == 63);
  OPT_CHECK(!(cs.raw[2].flags & OP_CVERT_AREA_BORDER));
  /* loop 1's first vertex: span 1 (column 1), -x, starts at (1,0), faces region 1 */
  OPT_CHECK(vert_is(&cs.raw[4], 1, 0) && cs.raw[4].reg == 1);
  op_contour_set_free(&cs);
  /* REG-207: different areas make the area-border flag */
  c->areas[1] = 5;
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
  OPT_CHECK((cs.raw[2].flags & OP_CVERT_AREA_BORDER) && cs.raw[2].area == 5);
  op_contour_set_free(&cs);
  op_chf_free(c);
  free(reg);
}

/* REG-203: a one-way link is no neighbour. Span 0 links +x to span 1, which does not link
** back: both spans are region 1, yet the shared side is a boundary from both sides, so
** the region has two loops of 4 edges (keys 0.. and 4..). */
OPT_TEST(contour_one_way_link, "REG-203") {
  const char *map[] = {"aa"};
  uint16_t *reg;
  op_chf *c = make_chf(map, 2, 1, &reg);
  c->spans[1].link[0] = OP_CHF_NOT_CONNECTED;
  op_contour_params p = params(0, 0, 0);
  op_contour_set cs;
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
  OPT_CHECK(cs.nloops == 2 && cs.loops[0].nraw == 4 && cs.loops[1].nraw == 4);
  OPT_CHECK(cs.raw[2].reg == 0); /* the far side of a one-way link is "none" */
  op_contour_set_free(&cs);
  c->spans[1].link[0] = 0; /* mutual again: one loop of 6 edges */
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
  OPT_CHECK(cs.nloops == 1 && cs.loops[0].nraw == 6 && cs.loops[0].area2 == -4);
  op_contour_set_free(&cs);
  op_chf_free(c);
  free(reg);
}

/* REG-205: the corner height is the greatest floor among the span, its two side
** neighbours and the diagonal. 2x2 cells, region 1, floors (0,0)=0, (1,0)=1, (0,1)=2,
** (1,1)=3 (all linked): the corner (1,1) shared by the four gets height 3; the corner
** (0,0) only touches cell (0,0) and gets 0; (1,0) touches (0,0) and (1,0): 1. */
OPT_TEST(contour_corner_height, "REG-205") {
  const char *map[] = {"aa", "aa"};
  uint16_t *reg;
  op_chf *c = make_chf(map, 2, 2, &reg);
  c->spans[1].y = 1;
  c->spans[2].y = 2;
  c->spans[3].y = 3;
  op_contour_params p = params(0, 0, 0);
  op_contour_set cs;
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
  OPT_CHECK(cs.nloops == 1 && cs.nraw == 8);
  int seen = 0;
  for (uint32_t k = 0; k < cs.nraw; k++) {
    const op_cvert *v = &cs.raw[k];
    if (vert_is(v, 0, 0)) seen += v->y == 0;
    if (vert_is(v, 1, 0)) seen += v->y == 1;
    if (vert_is(v, 0, 1)) seen += v->y == 2;
    if (vert_is(v, 2, 2)) seen += v->y == 3;
    OPT_CHECK(!vert_is(v, 1, 1)); /* an interior corner is never on the loop */
  }
  OPT_CHECK(seen == 4);
  op_contour_set_free(&cs);
  op_chf_free(c);
  free(reg);
}

/* ------------------------------------------------------------------- holes */

/* A 5x5 region with the centre cell empty. REG-208: loop 0 is the outline (key 0), loop 1
** the hole, starting at span 7 (cell (2,1)), +z: key 29, corner (2,2); its raw vertices
** (2,2), (3,2), (3,3), (2,3): 2A = -2 + 3 + 3 - 2 = 2 > 0, a hole (REG-215). Outline
** 2A = -2 * 25 + 2 ... checked as the sum rule: outline + hole = -2 * 24 spans.
** REG-209/210 with error 0: outline = its 4 corners (0,0), (0,5), (5,5), (5,0) (raw
** order up the -x side first); hole = its 4 corners. REG-216/217: hole leftmost (2,2);
** outline corners by squared distance: (0,0) 8, (0,5) 13, (5,0) 13, (5,5) 18; (0,0) is in
** the cone and the diagonal meets nothing: joined list (REG-219) =
** (0,0) (0,5) (5,5) (5,0) (0,0) (2,2) (3,2) (3,3) (2,3) (2,2). */
OPT_TEST(contour_hole_joined, "REG-219") {
  const char *map[] = {"aaaaa", "aaaaa", "aa.aa", "aaaaa", "aaaaa"};
  uint16_t *reg;
  op_chf *c = make_chf(map, 5, 5, &reg);
  op_contour_params p = params(0, 0, 0);
  op_contour_set cs;
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
  OPT_CHECK(cs.nloops == 2);
  OPT_CHECK(cs.loops[1].start_key == 29 && cs.loops[1].hole && cs.loops[1].area2 == 2);
  OPT_CHECK(!cs.loops[0].hole && cs.loops[0].area2 == -50);
  OPT_CHECK(cs.loops[0].area2 + cs.loops[1].area2 == -2 * 24);
  static const int32_t want[10][2] = {{0, 0}, {0, 5}, {5, 5}, {5, 0}, {0, 0},
                                      {2, 2}, {3, 2}, {3, 3}, {2, 3}, {2, 2}};
  OPT_CHECK(cs.ncontours == 1 && cs.contours[0].nverts == 10 && cs.unjoined_holes == 0);
  if (cs.ncontours == 1 && cs.contours[0].nverts == 10)
    for (int k = 0; k < 10; k++)
      OPT_CHECK(vert_is(&cs.verts[k], want[k][0], want[k][1]));
  op_contour_set_free(&cs);
  op_chf_free(c);
  free(reg);
}

/* A blocked diagonal (REG-217, REG-218). Region a on 12 x 6 cells with a notch at cell
** (9,0) and two single-cell holes, A at (5,2) and B at (7,1). Error 0: the outline keeps
** (0,0) (0,6) (12,6) (12,0) (10,0) (10,1) (9,1) (9,0) (REG-209/210: extremes, then the
** farthest points; the notch's (9,1) beats (10,1) on x at equal distance). Holes in order
** of leftmost vertex: A (5,2) before B (7,1). From A's corner (5,2) the candidates by
** squared distance: (9,1) 17, (9,0) 20, (10,1) 26 -- all in their cones, but the diagonals
** to (9,1) and (10,1) cross B's edge x = 7 and the one to (9,0) passes through B's corner
** (7,1): blocked (B is not yet joined); then (0,0) 29 (tied with (10,0), lower index)
** is valid. A joins at (0,0). Then B's corner (7,1): nearest (6,2), A's corner, d2 = 2,
** reflex in the joined outline and in its cone: B joins there. Joined list (REG-219):
** (6,2) (6,3) (5,3) (5,2) (0,0) (0,6) (12,6) (12,0) (10,0) (10,1) (9,1) (9,0) (0,0) (5,2)
** (6,2) (7,1) (8,1) (8,2) (7,2) (7,1). */
OPT_TEST(contour_hole_blocked_diagonal, "REG-218") {
  const char *map[] = {"aaaaaaaaa.aa", "aaaaaaa.aaaa", "aaaaa.aaaaaa",
                       "aaaaaaaaaaaa", "aaaaaaaaaaaa", "aaaaaaaaaaaa"};
  uint16_t *reg;
  op_chf *c = make_chf(map, 12, 6, &reg);
  op_contour_params p = params(0, 0, 0);
  op_contour_set cs;
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
  OPT_CHECK(cs.nloops == 3 && cs.loops[0].nsimp == 8 && cs.loops[1].hole && cs.loops[2].hole);
  static const int32_t want[20][2] = {{6, 2}, {6, 3}, {5, 3}, {5, 2}, {0, 0},  {0, 6}, {12, 6},
                                      {12, 0}, {10, 0}, {10, 1}, {9, 1}, {9, 0}, {0, 0}, {5, 2},
                                      {6, 2}, {7, 1}, {8, 1}, {8, 2}, {7, 2}, {7, 1}};
  OPT_CHECK(cs.ncontours == 1 && cs.unjoined_holes == 0);
  OPT_CHECK(cs.ncontours == 1 && cs.contours[0].nverts == 20);
  if (cs.ncontours == 1 && cs.contours[0].nverts == 20)
    for (int k = 0; k < 20; k++) OPT_CHECK(vert_is(&cs.verts[k], want[k][0], want[k][1]));
  op_contour_set_free(&cs);
  op_chf_free(c);
  free(reg);
}

/* ------------------------------------------------------------ tile border */

/* 6x6 grid, border 1: strips A (-x, column 0), B (+x, column 5), C (-z, row 0), D (+z,
** row 5); inside, region a on columns 1-2 and region b on columns 3-4. REG-206: a corner
** is a tile-border vertex when two cells of one border strip and two interior cells of
** one area surround it: every corner on the tile's border lines (x or z equal to 1 or 5)
** except the tile's own corners (1,1), (1,5), (5,1), (5,5), whose cells include two
** strips; among them (3,1) and (3,5), where the a|b boundary meets the tile border.
** REG-209: region a's side keys change at its 4 corners only (A, D, b, C), so its
** simplified form is exactly (1,1), (1,5), (3,5), (3,1); REG-211: no segment is
** refined (they face the border or region b, all of area 63). */
OPT_TEST(contour_tile_border, "REG-206") {
  const char *map[] = {"ACCCCB", "AaabbB", "AaabbB", "AaabbB", "AaabbB", "ADDDDB"};
  uint16_t *reg;
  op_chf *c = make_chf(map, 6, 6, &reg);
  op_contour_params p = params(1, 0, 0);
  op_contour_set cs;
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
  OPT_CHECK(cs.nloops == 2 && cs.loops[0].reg == 1 && cs.loops[1].reg == 2);
  int wrong = 0, junction = 0;
  for (uint32_t k = 0; k < cs.nraw; k++) {
    const op_cvert *v = &cs.raw[k];
    int on_line = v->x == 1 || v->x == 5 || v->z == 1 || v->z == 5;
    int tile_corner = (v->x == 1 || v->x == 5) && (v->z == 1 || v->z == 5);
    int expect = on_line && !tile_corner;
    wrong += expect != ((v->flags & OP_CVERT_TILE_BORDER) != 0);
    junction += (vert_is(v, 3, 1) || vert_is(v, 3, 5)) && (v->flags & OP_CVERT_TILE_BORDER);
  }
  OPT_CHECK(wrong == 0 && junction == 4); /* each junction once per region */
  const op_cloop *l = &cs.loops[0];
  OPT_CHECK(l->nsimp == 4);
  if (l->nsimp == 4) {
    const op_cvert *r = cs.raw + l->raw_start;
    const uint32_t *s = cs.simp + l->simp_start;
    OPT_CHECK(vert_is(&r[s[0]], 1, 1) && vert_is(&r[s[1]], 1, 5) && vert_is(&r[s[2]], 3, 5) &&
              vert_is(&r[s[3]], 3, 1));
    OPT_CHECK(r[s[0]].reg == (0x8000 | 1) && r[s[1]].reg == (0x8000 | 4) && r[s[2]].reg == 2 &&
              r[s[3]].reg == (0x8000 | 3));
  }
  op_contour_set_free(&cs);
  op_chf_free(c);
  free(reg);
}

/* REG-209 with REG-012's single border value: a 3 x 3 region inside a ring of width 1 whose
** spans all carry 0x8001 ('A'). Its loop has 12 raw edges, every one facing (0x8001, 63):
** one side key, but the edge direction changes at the tile's corners, so the change
** points are the raw vertices starting each side: raw 0 (1,1) (direction 0, +z), raw 3
** (1,4) (direction 1), raw 6 (4,4), raw 9 (4,1). REG-211/212: border segments are neither
** refined nor split. The contour is the tile's square; its corners are not tile-border
** vertices (REG-206), the 8 other raw vertices are. */
OPT_TEST(contour_tile_corners, "REG-209") {
  const char *map[] = {"AAAAA", "AaaaA", "AaaaA", "AaaaA", "AAAAA"};
  uint16_t *reg;
  op_chf *c = make_chf(map, 5, 5, &reg);
  for (int k = 0; k < 2; k++) {
    op_contour_params p = params(1, k ? 1.3 : 0, k ? 1 : 0);
    op_contour_set cs;
    OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
    OPT_CHECK(cs.nloops == 1 && cs.nraw == 12 && cs.loops[0].nsimp == 4);
    if (cs.nloops == 1 && cs.loops[0].nsimp == 4) {
      const uint32_t *s = cs.simp;
      OPT_CHECK(s[0] == 0 && s[1] == 3 && s[2] == 6 && s[3] == 9);
      OPT_CHECK(vert_is(&cs.raw[0], 1, 1) && vert_is(&cs.raw[3], 1, 4) &&
                vert_is(&cs.raw[6], 4, 4) && vert_is(&cs.raw[9], 4, 1));
    }
    int tb = 0;
    for (uint32_t j = 0; j < cs.nraw; j++) {
      OPT_CHECK(cs.raw[j].reg == 0x8001 && cs.raw[j].area == 63);
      tb += (cs.raw[j].flags & OP_CVERT_TILE_BORDER) != 0;
    }
    OPT_CHECK(tb == 8 && !(cs.raw[0].flags & OP_CVERT_TILE_BORDER));
    OPT_CHECK(cs.ncontours == 1 && cs.nverts == 4);
    op_contour_set_free(&cs);
  }
  op_chf_free(c);
  free(reg);
}

/* -------------------------------------------------------- simplification */

static op_cvert cv(int32_t x, int32_t z, uint16_t reg, uint8_t area) {
  op_cvert v;
  v.x = x;
  v.y = 0;
  v.z = z;
  v.reg = reg;
  v.area = area;
  v.flags = 0;
  return v;
}

static uint32_t simp_climb(const op_cvert *raw, uint32_t n, uint8_t area, double e, int32_t len,
                           int32_t climb, uint32_t *out) {
  uint8_t keep[64];
  uint32_t stack[256];
  return opct_simplify(raw, n, area, e, len, climb, out, keep, stack);
}

/* The loops below are flat (every y 0), so REG-225 keeps nothing whatever the climb. */
static uint32_t simp(const op_cvert *raw, uint32_t n, uint8_t area, double e, int32_t len,
                     uint32_t *out) {
  return simp_climb(raw, n, area, e, len, 0, out);
}

/* REG-210: v1 = (2,1) lies at distance exactly 1 from the segment (0,0)-(4,0) that faces a
** wall (reg 0). Change points v0 and v2 (REG-209). Error 1: 1 > 1 is false, not kept;
** the largest double below 1: kept. (2,-3) faces region 5 of the loop's area: never
** refined (REG-211) though 3 cells away; with area 7 it is refined and kept. */
OPT_TEST(simplify_error_exact, "REG-210") {
  op_cvert raw[4] = {cv(0, 0, 0, 0), cv(2, 1, 0, 0), cv(4, 0, 5, 63), cv(2, -3, 5, 63)};
  uint32_t out[4];
  OPT_CHECK(simp(raw, 4, 63, 1.0, 0, out) == 0); /* {0, 2}: fewer than 3 -> empty */
  uint32_t m = simp(raw, 4, 63, nextafter(1.0, 0.0), 0, out);
  OPT_CHECK(m == 3 && out[0] == 0 && out[1] == 1 && out[2] == 2);
  raw[2].area = raw[3].area = 7; /* REG-211: another area is refined */
  m = simp(raw, 4, 63, 1.0, 0, out);
  OPT_CHECK(m == 3 && out[0] == 0 && out[1] == 2 && out[2] == 3);
  op_cvert r2[4] = {cv(0, 0, 0, 0), cv(1, 1, 0, 0), cv(4, 0, 5, 63), cv(2, -3, 5, 63)};
  /* squared distance of (1,1) to (0,0)-(4,0): t = 4 in (0,16): cross^2/L = 16/16 = 1 */
  OPT_CHECK(simp(r2, 4, 63, 1.0, 0, out) == 0);
  OPT_CHECK(simp(r2, 4, 63, 0.9999, 0, out) == 3);
  /* endpoint clamp: (-1,1) is before a (t = -4 <= 0): squared distance to a = 2.
  ** e = sqrt(2): E2 = fl(e * e) = 2.0000000000000004 (REG-210), 2 is not above it: not
  ** kept; e = 1.414: E2 < 2, kept. */
  op_cvert r3[4] = {cv(0, 0, 0, 0), cv(-1, 1, 0, 0), cv(4, 0, 5, 63), cv(2, -3, 5, 63)};
  OPT_CHECK(simp(r3, 4, 63, sqrt(2.0), 0, out) == 0);
  OPT_CHECK(simp(r3, 4, 63, 1.414, 0, out) == 3);
}

/* REG-210 tie-break: (1,1) and (3,1) are both at squared distance 1 from (0,0)-(4,0);
** the least x, (1,1), is kept first. Then (3,1) against (1,1)-(4,0): L = 10, t = 2*3 +
** 0*(-1) = 6, cross = 3*0 - (-1)*2 = 2, squared distance 4/10 <= 0.5^2? no: 0.4 > 0.25,
** kept with e = 0.5; with e = 0.64 (E2 = 0.4096 > 0.4) not kept. */
OPT_TEST(simplify_tie_break, "REG-210") {
  op_cvert raw[5] = {cv(0, 0, 0, 0), cv(1, 1, 0, 0), cv(3, 1, 0, 0), cv(4, 0, 5, 63),
                     cv(2, -3, 5, 63)};
  uint32_t out[5];
  uint32_t m = simp(raw, 5, 63, 0.64, 0, out);
  OPT_CHECK(m == 3 && out[0] == 0 && out[1] == 1 && out[2] == 3);
  m = simp(raw, 5, 63, 0.5, 0, out);
  OPT_CHECK(m == 4 && out[1] == 1 && out[2] == 2);
}

/* REG-212: a wall of 8 unit edges from (0,0) to (8,0) (change points v0, v8, v9, v10). Length
** exactly 8 with MaxEdgeLen 8: not split; 7: split at 0 + 8/2 = v4 (4,0); 3: then the
** halves (4 > 3) at v2 and v6. The segment facing region 5 (length 8 back along z=1)
** is never split. */
OPT_TEST(simplify_max_edge_len, "REG-212") {
  op_cvert raw[11];
  for (int k = 0; k <= 8; k++) raw[k] = cv(k, 0, k < 8 ? 0 : 5, k < 8 ? 0 : 63);
  raw[9] = cv(8, 1, 6, 63); /* regions 5, 6, 7 of area 63: change points, never split */
  raw[10] = cv(0, 1, 7, 63);
  uint32_t out[11];
  uint32_t m = simp(raw, 11, 63, 0, 8, out);
  OPT_CHECK(m == 4 && out[0] == 0 && out[1] == 8 && out[2] == 9 && out[3] == 10);
  m = simp(raw, 11, 63, 0, 7, out);
  OPT_CHECK(m == 5 && out[1] == 4 && out[2] == 8);
  m = simp(raw, 11, 63, 0, 3, out);
  OPT_CHECK(m == 7 && out[1] == 2 && out[2] == 4 && out[3] == 6 && out[4] == 8);
  /* the same wall walked backwards with 7 edges, (7,0) to (0,0): k = 7, b before a in
  ** (x, z) order: a + ceil(7/2) = v4 = (3,0); forwards it would be 0 + 3 = (3,0) too. */
  op_cvert rb[10];
  for (int k = 0; k <= 7; k++) rb[k] = cv(7 - k, 0, k < 7 ? 0 : 5, k < 7 ? 0 : 63);
  rb[8] = cv(0, 1, 6, 63);
  rb[9] = cv(7, 1, 7, 63);
  m = simp(rb, 10, 63, 0, 6, out);
  OPT_CHECK(m == 5 && out[1] == 4 && vert_is(&rb[out[1]], 3, 0));
  op_cvert rf[10];
  for (int k = 0; k <= 7; k++) rf[k] = cv(k, 0, k < 7 ? 0 : 5, k < 7 ? 0 : 63);
  rf[8] = cv(7, 1, 6, 63);
  rf[9] = cv(0, 1, 7, 63);
  m = simp(rf, 10, 63, 0, 6, out);
  OPT_CHECK(m == 5 && out[1] == 3 && vert_is(&rf[out[1]], 3, 0));
}

/* REG-225: a loop whose first side runs along the tile border (border region 0x8001, area
** 63) from (0,0) to (8,0) over a hill of heights 0 1 3 6 7 6 3 1 0 (cell heights); then
** regions 5 and 6 (change points v8, v9, v10; v0 after v10). Border segment v0-v8: L = 8,
** the farthest vertex in height is v4, num = |7 * 8 - 0| = 56. Climb 7: 56 > 56 is false,
** nothing kept; climb 6: v4 kept, then v0-v4 (L = 4, heights 0 -> 7): v1 |1*4 - 7*1| = 3,
** v2 |3*4 - 7*2| = 2, v3 |6*4 - 7*3| = 3, and 3 > 6 * 4 is false (v4-v8 the same by
** symmetry). Climb 0 keeps every vertex off the straight line: all 11. The same side as a
** wall (reg 0) is not refined by height (REG-211: collinear, nothing kept). */
OPT_TEST(simplify_border_height, "REG-225") {
  static const int32_t H[9] = {0, 1, 3, 6, 7, 6, 3, 1, 0};
  op_cvert raw[11];
  for (int k = 0; k <= 8; k++) {
    raw[k] = cv(k, 0, k < 8 ? OP_REG_BORDER_REGION : 5, 63);
    raw[k].y = H[k];
  }
  raw[9] = cv(8, 1, 6, 63);
  raw[10] = cv(0, 1, 7, 63);
  uint32_t out[11];
  uint32_t m = simp_climb(raw, 11, 63, 1.3, 0, 7, out);
  OPT_CHECK(m == 4 && out[0] == 0 && out[1] == 8 && out[2] == 9 && out[3] == 10);
  m = simp_climb(raw, 11, 63, 1.3, 0, 6, out);
  OPT_CHECK(m == 5 && out[0] == 0 && out[1] == 4 && out[2] == 8);
  m = simp_climb(raw, 11, 63, 1.3, 0, 2, out);
  OPT_CHECK(m == 5 && out[1] == 4);
  m = simp_climb(raw, 11, 63, 1.3, 0, 0, out);
  OPT_CHECK(m == 11);
  for (int k = 0; k < 8; k++) raw[k].reg = 0, raw[k].area = 0; /* a wall: not by height */
  m = simp_climb(raw, 11, 63, 1.3, 0, 0, out);
  OPT_CHECK(m == 4 && out[1] == 8);
}

/* REG-213: v0 and v1 share (0,0) (different side keys, both change points): the first of
** the pair, v0, is dropped; three remain. */
OPT_TEST(simplify_degenerate, "REG-213") {
  op_cvert raw[4] = {cv(0, 0, 9, 63), cv(0, 0, 8, 63), cv(2, 2, 7, 63), cv(2, 0, 6, 63)};
  uint32_t out[4];
  uint32_t m = simp(raw, 4, 63, 0, 0, out);
  OPT_CHECK(m == 3 && out[0] == 1 && out[1] == 2 && out[2] == 3);
}

/* REG-222: one cell, error 0: header 44 bytes; one loop record 24 + 4 raw records of
** 20 + 4 indices of 4; one contour record 11 + 4 vertex records of 16: 239 bytes. The
** loop record follows the header: reg 1, area 63, hole 0, start key 0, nraw 4, nsimp 4,
** area2 -2. */
static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

OPT_TEST(contour_bytes, "REG-222") {
  const char *map[] = {"a"};
  uint16_t *reg;
  op_chf *c = make_chf(map, 1, 1, &reg);
  op_contour_params p = params(0, 0, 0);
  op_contour_set cs;
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
  op_bytes b = {NULL, 0};
  OPT_CHECK(op_contours_save(&cs, &b, NULL) == OP_OK);
  OPT_CHECK(b.len == 239);
  if (b.len == 239) {
    OPT_CHECK(!memcmp(b.data, "OPCTR001", 8));
    OPT_CHECK(rd32(b.data + 8) == 1 && rd32(b.data + 12) == 1 && rd32(b.data + 16) == 0);
    OPT_CHECK(rd32(b.data + 20) == 1 && rd32(b.data + 24) == 1 && rd32(b.data + 28) == 4);
    OPT_CHECK(rd32(b.data + 32) == 4 && rd32(b.data + 36) == 1 && rd32(b.data + 40) == 0);
    const uint8_t *l = b.data + 44;
    OPT_CHECK(l[0] == 1 && l[1] == 0 && l[2] == 63 && l[3] == 0 && rd32(l + 4) == 0);
    OPT_CHECK(rd32(l + 8) == 4 && rd32(l + 12) == 4);
    OPT_CHECK(rd32(l + 16) == 0xfffffffeu && rd32(l + 20) == 0xffffffffu); /* -2 as i64 */
    /* first raw record: (0, 0, 0), reg 0, area 0, flags 0, then edge key 0 */
    const uint8_t *v = l + 24;
    OPT_CHECK(rd32(v) == 0 && rd32(v + 4) == 0 && rd32(v + 8) == 0 && rd32(v + 12) == 0 &&
              rd32(v + 16) == 0);
    /* second raw vertex (0, 1): z = 1, edge key 1 */
    OPT_CHECK(rd32(v + 20 + 8) == 1 && rd32(v + 20 + 16) == 1);
  }
  op_bytes_free(&b);
  op_contour_set_free(&cs);
  op_chf_free(c);
  free(reg);
}

/* ------------------------------------------------------------------ errors */

OPT_TEST(contour_errors, "REG-200") {
  const char *map[] = {"a"};
  uint16_t *reg;
  op_chf *c = make_chf(map, 1, 1, &reg);
  op_contour_set cs;
  memset(&cs, 0x5a, sizeof cs);
  op_contour_set before = cs;
  op_error e;
  op_contour_params p = params(0, 0, 0);
  OPT_CHECK(op_contours_build(NULL, reg, &p, &cs, &e) == OP_E_ARGUMENT && !strcmp(e.field, "chf"));
  OPT_CHECK(op_contours_build(c, NULL, &p, &cs, &e) == OP_E_ARGUMENT && !strcmp(e.field, "reg"));
  OPT_CHECK(op_contours_build(c, reg, NULL, &cs, &e) == OP_E_ARGUMENT &&
            !strcmp(e.field, "params"));
  OPT_CHECK(op_contours_build(c, reg, &p, NULL, &e) == OP_E_ARGUMENT && !strcmp(e.field, "out"));
  p = params(-1, 0, 0);
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, &e) == OP_E_RANGE && !strcmp(e.field, "border") &&
            !strcmp(e.value, "-1"));
  p = params(1, 0, 0); /* 2 * 1 > 1 */
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, &e) == OP_E_RANGE && !strcmp(e.field, "border"));
  p = params(0, 1024.5, 0);
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, &e) == OP_E_RANGE &&
            !strcmp(e.field, "max_simplification_error") && !strcmp(e.value, "1024.5"));
  p = params(0, NAN, 0);
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, &e) == OP_E_RANGE &&
            !strcmp(e.field, "max_simplification_error"));
  p = params(0, 1024, 65536);
  OPT_CHECK(op_contours_build(c, reg, &p, &cs, &e) == OP_E_RANGE &&
            !strcmp(e.field, "max_edge_len") && !strcmp(e.value, "65536"));
  OPT_CHECK(!memcmp(&cs, &before, sizeof cs)); /* a failed call changes nothing */
  op_chf_free(c);
  free(reg);
}

/* -------------------------------------------------- properties on levels */

/* An independent labelling for the property tests: spans of non-zero area in the border
** ring get region 0x8001; the others, connected components under mutual links of equal
** area, numbered by first span. Recomputes mutual links from the raw link bytes. */
static uint32_t nei_of(const op_chf *c, uint32_t i, int d, int32_t x, int32_t z) {
  static const int dx[4] = {-1, 0, 1, 0}, dz[4] = {0, 1, 0, -1};
  uint8_t l = c->spans[i].link[d];
  if (l == OP_CHF_NOT_CONNECTED) return OP_CONTOUR_NONE;
  int32_t nx = x + dx[d], nz = z + dz[d];
  uint32_t n = c->cell_index[nz * c->grid.width + nx] + l;
  uint8_t back = c->spans[n].link[(d + 2) & 3];
  if (back == OP_CHF_NOT_CONNECTED || c->cell_index[z * c->grid.width + x] + back != i)
    return OP_CONTOUR_NONE;
  return n;
}

static void span_cols(const op_chf *c, int32_t *col) {
  for (int32_t k = 0; k < c->grid.width * c->grid.depth; k++)
    for (uint32_t i = c->cell_index[k]; i < c->cell_index[k] + c->cell_count[k]; i++) {
      col[2 * i] = k % c->grid.width;
      col[2 * i + 1] = k / c->grid.width;
    }
}

static uint16_t *label(const op_chf *c, int32_t border, int32_t *col) {
  uint32_t n = c->nspans;
  uint16_t *reg = calloc(n ? n : 1, sizeof *reg);
  uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
  uint16_t next = 1;
  for (uint32_t i = 0; i < n; i++) {
    int32_t x = col[2 * i], z = col[2 * i + 1];
    if (c->areas[i] && (x < border || z < border || x >= c->grid.width - border ||
                        z >= c->grid.depth - border))
      reg[i] = 0x8001;
  }
  for (uint32_t i = 0; i < n; i++) {
    if (reg[i] || !c->areas[i] || next >= 0x7fff) continue;
    uint32_t sp = 0;
    stack[sp++] = i;
    reg[i] = next;
    while (sp) {
      uint32_t s = stack[--sp];
      for (int d = 0; d < 4; d++) {
        uint32_t m = nei_of(c, s, d, col[2 * s], col[2 * s + 1]);
        if (m != OP_CONTOUR_NONE && !reg[m] && c->areas[m] == c->areas[s]) {
          reg[m] = next;
          stack[sp++] = m;
        }
      }
    }
    next++;
  }
  free(stack);
  return reg;
}

typedef struct prop_stats {
  int tiles, loops, holes, unjoined, simple_checked, crossing, bad;
  int simple_contours, multi_skipped;
} prop_stats;

static int sgn(int64_t v) { return (v > 0) - (v < 0); }
static int orient3(const op_cvert *a, const op_cvert *b, const op_cvert *c) {
  return sgn((int64_t)(b->x - a->x) * (c->z - a->z) - (int64_t)(c->x - a->x) * (b->z - a->z));
}

/* No two segments of the closed list cross properly (each strictly on both sides of the
** other): what the polygon stage needs of an outline with its holes joined. */
static int crosses(const op_cvert *v, uint32_t n) {
  for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = a + 1; b < n; b++) {
      const op_cvert *p = &v[a], *q = &v[(a + 1) % n], *r = &v[b], *t = &v[(b + 1) % n];
      if (orient3(p, q, r) * orient3(p, q, t) < 0 && orient3(r, t, p) * orient3(r, t, q) < 0) {
        if (getenv("OPT_DUMP")) {
          fprintf(stderr, "crossing %u-%u x %u-%u of %u:", a, (a + 1) % n, b, (b + 1) % n, n);
          for (uint32_t k = 0; k < n; k++)
            fprintf(stderr, " (%d,%d r%u a%u f%u)", v[k].x, v[k].z, v[k].reg, v[k].area, v[k].flags);
          fprintf(stderr, "\n");
        }
        return 1;
      }
    }
  return 0;
}

/* The properties of REG-204, REG-208, REG-209..213, REG-214 (the edge map and the edge
** key of every raw vertex), REG-215, REG-219 on one tile. */
static void check_tile(opt_state *opt_s_, const op_chf *c, const uint16_t *reg, int32_t *col,
                       const op_contour_set *cs, prop_stats *st, int strict) {
  /* REG-204 / REG-208: an edge is owned iff it is a boundary edge (recomputed here) */
  for (uint32_t i = 0; i < c->nspans; i++)
    for (int d = 0; d < 4; d++) {
      int traced = reg[i] && !(reg[i] & 0x8000);
      uint32_t m = nei_of(c, i, d, col[2 * i], col[2 * i + 1]);
      int boundary = traced && (m == OP_CONTOUR_NONE || reg[m] != reg[i]);
      uint32_t o = cs->edge_loop[4 * i + d];
      OPT_CHECK(boundary ? o != OP_CONTOUR_NONE : o == OP_CONTOUR_NONE);
      if (boundary && o != OP_CONTOUR_NONE) OPT_CHECK(cs->loops[o].reg == reg[i]);
    }
  uint32_t owned = 0;
  for (size_t k = 0; k < 4 * (size_t)c->nspans; k++) owned += cs->edge_loop[k] != OP_CONTOUR_NONE;
  OPT_CHECK(owned == cs->nraw); /* each owned edge appears in exactly one loop once */
  int64_t *sum = calloc(0x8000, sizeof *sum);
  int64_t *cnt = calloc(0x8000, sizeof *cnt);
  for (uint32_t i = 0; i < c->nspans; i++)
    if (reg[i] && !(reg[i] & 0x8000)) cnt[reg[i]]++;
  uint32_t prev_key = 0, holes_in = 0, joined_verts = 0, outline_verts = 0;
  for (uint32_t o = 0; o < cs->nloops; o++) {
    const op_cloop *l = &cs->loops[o];
    OPT_CHECK(o == 0 || l->start_key > prev_key);
    prev_key = l->start_key;
    const op_cvert *r = cs->raw + l->raw_start;
    for (uint32_t j = 0; j < l->nraw; j++) {
      uint32_t key = cs->raw_edge[l->raw_start + j];
      OPT_CHECK(cs->edge_loop[key] == o && key >= l->start_key);
      const op_cvert *a = &r[j], *b = &r[(j + 1) % l->nraw];
      int32_t step = abs(a->x - b->x) + abs(a->z - b->z);
      if (step != 1) st->bad++; /* closed chain of unit steps */
    }
    OPT_CHECK(cs->raw_edge[l->raw_start] == l->start_key);
    OPT_CHECK(l->area2 == opct_area2(r, l->nraw));
    sum[l->reg] += l->area2;
    OPT_CHECK(l->nsimp == 0 || l->nsimp >= 3);
    for (uint32_t k = 1; k < l->nsimp; k++)
      OPT_CHECK(cs->simp[l->simp_start + k] > cs->simp[l->simp_start + k - 1]);
    if (l->nsimp && l->hole) {
      holes_in++;
      joined_verts += l->nsimp + 2;
    }
    if (l->nsimp && !l->hole) outline_verts += l->nsimp;
    st->loops++;
    st->holes += l->hole;
  }
  /* REG-215: the loops of a region wind so that they sum to -2 per span */
  for (uint32_t rr = 1; rr < 0x8000; rr++)
    if (cnt[rr]) OPT_CHECK(sum[rr] == -2 * cnt[rr]);
  /* REG-215: outlines wind clockwise (negative), holes counter-clockwise (positive), and
  ** every traced region has at least one outline */
  uint8_t *has_outline = calloc(0x8000, 1);
  for (uint32_t o = 0; o < cs->nloops; o++) {
    const op_cloop *l = &cs->loops[o];
    OPT_CHECK(l->hole ? l->area2 > 0 : l->area2 < 0);
    if (!l->hole) has_outline[l->reg] = 1;
  }
  for (uint32_t rr = 1; rr < 0x8000; rr++)
    if (cnt[rr]) OPT_CHECK(has_outline[rr]);
  free(has_outline);
  free(sum);
  free(cnt);
  /* REG-219, REG-220: every vertex of a contour comes from an outline or a joined hole */
  uint32_t joined = holes_in - cs->unjoined_holes;
  (void)joined;
  OPT_CHECK(cs->nverts <= outline_verts + joined_verts);
  uint32_t tot = 0;
  for (uint32_t k = 0; k < cs->ncontours; k++) tot += cs->contours[k].nverts;
  OPT_CHECK(tot == cs->nverts);
  /* REG-220 simple: a joined contour whose region holds at most one span per column (its
  ** cells are a plane set seen from above; always so under the layer partition) has no two
  ** segments that cross properly. With MaxSimplificationError 0 this must hold (strict);
  ** with an error above 0 REG-210's note allows a simplified form to cut a narrow passage
  ** short and cross itself: those are counted, not failed. */
  uint8_t *multi = calloc(0x8000, 1);
  for (int32_t k = 0; k < c->grid.width * c->grid.depth; k++)
    for (uint32_t i = c->cell_index[k]; i < c->cell_index[k] + c->cell_count[k]; i++)
      for (uint32_t j = i + 1; j < c->cell_index[k] + c->cell_count[k]; j++)
        if (reg[i] && !(reg[i] & 0x8000) && reg[i] == reg[j]) multi[reg[i]] = 1;
  int single = 1;
  for (int32_t k = 0; k < c->grid.width * c->grid.depth; k++) single &= c->cell_count[k] <= 1;
  for (uint32_t k = 0; k < cs->ncontours; k++) {
    if (multi[cs->contours[k].reg]) {
      st->multi_skipped++;
      continue;
    }
    int x = crosses(cs->verts + cs->contours[k].vert_start, cs->contours[k].nverts);
    if (strict) OPT_CHECK(!x);
    st->crossing += x;
    st->simple_contours++;
  }
  free(multi);
  st->simple_checked += single;
  st->unjoined += (int)cs->unjoined_holes;
  st->tiles++;
}

/* One level at one preset: every tile, partitioned by `part` (0..2, the partitions of
** sections 2 to 5 with the preset's MinRegionArea and MergeRegionArea) or, with part -1,
** by the independent labelling above; contours with the preset's MaxSimplificationError
** (simplicity counted) and again with error 0 (simplicity required). */
static void run_level(opt_state *opt_s_, const char *name, uint32_t size, const char *preset,
                      int part, prop_stats *st) {
  fx_level_tiles lt;
  OPT_CHECK(fx_level_tiles_open(&lt, name, size, preset) == 0);
  const op_settings s = lt.s;
  const op_cell_settings cell = lt.cell;
  for (int32_t tz = 0; tz < lt.nz; tz++)
    for (int32_t tx = 0; tx < lt.nx; tx++) {
      op_chf *c = NULL;
      OPT_CHECK(fx_level_tile(&lt, tx, tz, &c) == OP_OK);
      if (!c) continue;
      int32_t *col = malloc(2 * ((size_t)c->nspans + 1) * sizeof *col);
      span_cols(c, col);
      uint16_t *reg = NULL;
      op_regions rg;
      memset(&rg, 0, sizeof rg);
      if (part >= 0) {
        op_error e;
        op_status rs = op_regions_build(c, (op_partition)part, cell.border, s.min_region_area,
                                        s.merge_region_area, &rg, &e);
        if (rs != OP_OK) {
          fprintf(stderr, "regions: %s %s\n", e.field, e.message);
          st->bad++;
        }
        reg = rg.reg;
      } else {
        reg = label(c, cell.border, col);
      }
      for (int k = 0; reg && k < 2; k++) {
        op_contour_params p =
            params(cell.border, k ? 0.0 : s.max_simplification_error, cell.max_edge_len);
        op_contour_set cs;
        op_error e;
        op_status cst = op_contours_build(c, reg, &p, &cs, &e);
        OPT_CHECK(cst == OP_OK);
        if (cst == OP_OK) {
          check_tile(opt_s_, c, reg, col, &cs, k ? &st[1] : &st[0], k);
          op_contour_set_free(&cs);
        }
      }
      if (part >= 0) op_regions_free(&rg);
      else free(reg);
      free(col);
      op_chf_free(c);
    }
  fx_level_tiles_close(&lt);
}

static const char *const LEVEL_NAMES[4] = {"terrain", "city", "stairs", "dungeon"};
static const uint32_t LEVEL_SIZES[4] = {48, 2, 10, 12};
static const char *const PRESETS[3] = {"Humanoid", "Small", "Large"};

static void print_stats(const char *what, const prop_stats *st) {
  for (int k = 0; k < 2; k++)
    printf("     %s, error %s: %d tiles, %d loops, %d holes, %d unjoined; %d contours checked "
           "for crossings (%d skipped: region with two spans in a column), %d crossing\n",
           what, k ? "0" : "preset", st[k].tiles, st[k].loops, st[k].holes, st[k].unjoined,
           st[k].simple_contours, st[k].multi_skipped, st[k].crossing);
}

/* Properties on every generator at every preset with the independent labelling above:
** every boundary edge owned by exactly one loop, loops closed (unit steps), starting at
** their smallest key, winding consistently (outlines negative, holes positive, the loops
** of a region summing to -2 per span), simplified forms valid, contours simple at error 0. */
OPT_TEST(contour_properties_levels, "REG-208") {
  prop_stats st[2];
  memset(st, 0, sizeof st);
  for (int P = 0; P < 3; P++)
    for (int L = 0; L < 4; L++) run_level(opt_s_, LEVEL_NAMES[L], LEVEL_SIZES[L], PRESETS[P], -1, st);
  print_stats("levels (own labelling)", st);
  OPT_CHECK(st[0].tiles > 0 && st[0].loops > 0 && st[0].bad == 0 && st[1].bad == 0);
}

/* The same properties on the three partitions of sections 2 to 5, every generator, every
** preset, every tile. */
OPT_TEST(contour_properties_regions, "REG-224") {
  static const char *const pn[3] = {"watershed", "monotone", "layers"};
  for (int part = 0; part < 3; part++) {
    prop_stats st[2];
    memset(st, 0, sizeof st);
    for (int P = 0; P < 3; P++)
      for (int L = 0; L < 4; L++)
        run_level(opt_s_, LEVEL_NAMES[L], LEVEL_SIZES[L], PRESETS[P], part, st);
    char what[64];
    snprintf(what, sizeof what, "levels (%s)", pn[part]);
    print_stats(what, st);
    OPT_CHECK(st[0].tiles > 0 && st[0].bad == 0 && st[1].bad == 0 && st[1].crossing == 0);
  }
}

/* Many holes (REG-216 .. REG-219): random 24x24 fields of regions a and b (left and right
** halves, area 63) with random empty cells, border 1 empty. Every hole is joined, the
** joined contours do not cross themselves, and the vertex count is outline + holes + 2
** per joined hole (REG-219). Also the properties of check_tile. */
OPT_TEST(contour_random_holes, "REG-219") {
  prop_stats st;
  memset(&st, 0, sizeof st);
  op_prng rng;
  op_prng_seed(&rng, 42);
  int holes = 0;
  for (int trial = 0; trial < 40; trial++) {
    char rows[24][25];
    const char *map[24];
    for (int z = 0; z < 24; z++) {
      for (int x = 0; x < 24; x++) {
        int edge = x == 0 || z == 0 || x == 23 || z == 23;
        int empty = edge || op_prng_below(&rng, 100) < 12;
        rows[z][x] = empty ? '.' : (x < 12 ? 'a' : 'b');
      }
      rows[z][24] = 0;
      map[z] = rows[z];
    }
    uint16_t *reg;
    op_chf *c = make_chf(map, 24, 24, &reg);
    int32_t *col = malloc(2 * ((size_t)c->nspans + 1) * sizeof *col);
    span_cols(c, col);
    op_contour_params p = params(1, trial % 2 ? 1.3 : 0, trial % 3 ? 0 : 4);
    op_contour_set cs;
    OPT_CHECK(op_contours_build(c, reg, &p, &cs, NULL) == OP_OK);
    check_tile(opt_s_, c, reg, col, &cs, &st, p.max_error == 0);
    uint32_t expect = 0;
    for (uint32_t o = 0; o < cs.nloops; o++)
      if (cs.loops[o].nsimp) expect += cs.loops[o].nsimp + (cs.loops[o].hole ? 2 : 0);
    OPT_CHECK(cs.unjoined_holes == 0 && cs.nverts == expect);
    for (uint32_t o = 0; o < cs.nloops; o++) holes += cs.loops[o].hole && cs.loops[o].nsimp;
    op_contour_set_free(&cs);
    free(col);
    op_chf_free(c);
    free(reg);
  }
  printf("     random fields: %d tiles, %d loops, %d joined holes, %d crossing (error 1.3)\n",
         st.tiles, st.loops, holes, st.crossing);
  OPT_CHECK(holes > 0 && st.bad == 0 && st.simple_checked == 40);
}

OPT_MAIN_BEGIN
OPT_RUN(contour_single_cell);
OPT_RUN(contour_edge_keys);
OPT_RUN(contour_one_way_link);
OPT_RUN(contour_corner_height);
OPT_RUN(contour_hole_joined);
OPT_RUN(contour_hole_blocked_diagonal);
OPT_RUN(contour_tile_border);
OPT_RUN(contour_tile_corners);
OPT_RUN(simplify_error_exact);
OPT_RUN(simplify_tie_break);
OPT_RUN(simplify_max_edge_len);
OPT_RUN(simplify_border_height);
OPT_RUN(simplify_degenerate);
OPT_RUN(contour_bytes);
OPT_RUN(contour_errors);
OPT_RUN(contour_properties_levels);
OPT_RUN(contour_properties_regions);
OPT_RUN(contour_random_holes);
OPT_MAIN_END
