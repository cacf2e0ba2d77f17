/*
** test_regions.c -- region partitions (spec/build3d-regions.md sections 1 to 5): the
** distance field and its blur on a square, the three partitions on hand-made floors,
** island removal at its edges (exactly MinRegionArea, one span less, kept by another
** area, kept by the border), a region cut by a volume, a hole inside a region, merging
** and numbering, layers on stacked floors, errors; then properties on generated levels.
** Expected values are derived by hand from the clauses (see each comment).
*/
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "core/internal.h"
#include "onepath_build3d.h"
#include "optest.h"
#include "build3d/regions/regions.h"

/* A floor from a map: rows[z][x] is '.' for no span, or a digit/letter: a solid span
** [0, 10] whose area is (c - '0') for digits ('1' -> 1), 63 for '#'. With up = 1 a
** second floor [30, 40] (area 63) is added in every column whose char is 'B' (the lower
** floor there has area 63 too). cs 1, ch 0.1, walkable height 20, climb 3. */
static op_chf *map_chf(const char *const *rows, int w, int d) {
  op_hf *hf = fx_hf(w, d, 1, 0.1, 100);
  op_chf *c = NULL;
  if (!hf) return NULL;
  for (int z = 0; z < d; z++)
    for (int x = 0; x < w; x++) {
      char ch = rows[z][x];
      if (ch == '.') continue;
      int area = ch == '#' || ch == 'B' ? 63 : ch - '0';
      op_hf_add_span(hf, x, z, 0, 10, (uint8_t)area, 0, NULL);
      if (ch == 'B') op_hf_add_span(hf, x, z, 30, 40, 63, 0, NULL);
    }
  op_chf_build(hf, 20, 3, &c, NULL);
  op_hf_free(hf);
  return c;
}

/* Region value of the lowest (k = 0) or second (k = 1) span of column (x, z); -1 if none. */
static int reg_at(const op_chf *c, const op_regions *r, int x, int z, int k) {
  size_t i = (size_t)z * c->grid.width + x;
  if (c->cell_count[i] <= (unsigned)k) return -1;
  return r->reg[c->cell_index[i] + k];
}

static const char *const SQ7[7] = {"#######", "#######", "#######", "#######",
                                   "#######", "#######", "#######"};

/* REG-021 .. REG-024: on a 7 x 7 floor of one area the outer ring lacks a link (distance
** 0) and the chamfer distance of (x, z) is 2 * min(x, z, 6 - x, 6 - z). */
OPT_TEST(distance_square, "REG-023") {
  op_chf *c = map_chf(SQ7, 7, 7);
  uint16_t dist[49];
  OPT_CHECK(c && c->nspans == 49);
  OPT_CHECK(opr_distance(c, dist) == 6);
  for (int z = 0; z < 7; z++)
    for (int x = 0; x < 7; x++) {
      int m = x;
      if (z < m) m = z;
      if (6 - x < m) m = 6 - x;
      if (6 - z < m) m = 6 - z;
      OPT_CHECK(dist[z * 7 + x] == 2 * m);
    }
  op_chf_free(c);
}

/* REG-025 by hand on the same field: values <= 2 stay; centre (3, 3) = 6: its four
** neighbours 4 and the four "next" diagonals 4: (6 + 8 * 4 + 5) / 9 = 43 / 9 = 4.
** (2, 2) = 4: (1,2)=2 then (1,3)=2; (2,3)=4 then (3,3)=6; (3,2)=4 then (3,1)=2;
** (2,1)=2 then (1,1)=2: (4 + 2+2+4+6+4+2+2+2 + 5) / 9 = 33 / 9 = 3. (3, 2) = 4: (2,2)=4
** then (2,3)=4; (3,3)=6 then (4,3)=4; (4,2)=4 then (4,1)=2; (3,1)=2 then (2,1)=2:
** (4 + 4+4+6+4+4+2+2+2 + 5) / 9 = 37 / 9 = 4. */
OPT_TEST(blur_square, "REG-025") {
  op_chf *c = map_chf(SQ7, 7, 7);
  uint16_t raw[49], bl[49];
  opr_distance(c, raw);
  OPT_CHECK(opr_blur(c, raw, bl) == 4);
  OPT_CHECK(bl[3 * 7 + 3] == 4 && bl[2 * 7 + 2] == 3 && bl[2 * 7 + 3] == 4);
  OPT_CHECK(bl[1 * 7 + 1] == 2 && bl[0] == 0 && bl[1 * 7 + 3] == 2);
  op_chf_free(c);
}

/* REG-031 .. REG-036: a one-area square is one watershed region: the first candidate at
** level 2 floods (to level 0) every span of the area. Monotone: every row adopts the
** row below (REG-055). Layers: one component. dist holds the blurred field. */
OPT_TEST(square_one_region, "REG-036") {
  op_chf *c = map_chf(SQ7, 7, 7);
  for (int p = 0; p < 3; p++) {
    op_regions r;
    OPT_CHECK(op_regions_build(c, (op_partition)p, 0, 0, 0, &r, NULL) == OP_OK);
    OPT_CHECK(r.nregions == 1 && r.nspans == 49);
    for (int i = 0; i < 49; i++) OPT_CHECK(r.reg[i] == 1);
    if (p == 0) OPT_CHECK(r.max_dist == 4 && r.dist[24] == 4);
    else OPT_CHECK(r.max_dist == 0);
    op_regions_free(&r);
  }
  op_chf_free(c);
}

/* REG-100, REG-104: a 4-span island (2 x 2) apart from a big floor. MinRegionArea 4 keeps
** it (not fewer than 4); 5 removes it (4 < 5). Numbering (REG-150): the floor's first
** span is (0, 0): region 1; the island's first span (6, 1): region 2. Every partition. */
static const char *const ISLAND[4] = {"####....", "####..##", "####..##", "####...."};
OPT_TEST(island_min_area_edge, "REG-104") {
  op_chf *c = map_chf(ISLAND, 8, 4);
  for (int p = 0; p < 3; p++) {
    op_regions r;
    OPT_CHECK(op_regions_build(c, (op_partition)p, 0, 4, 0, &r, NULL) == OP_OK);
    OPT_CHECK(r.nregions == 2 && reg_at(c, &r, 0, 0, 0) == 1 && reg_at(c, &r, 6, 1, 0) == 2 &&
              reg_at(c, &r, 7, 2, 0) == 2);
    op_regions_free(&r);
    OPT_CHECK(op_regions_build(c, (op_partition)p, 0, 5, 0, &r, NULL) == OP_OK);
    OPT_CHECK(r.nregions == 1 && reg_at(c, &r, 0, 0, 0) == 1 && reg_at(c, &r, 6, 1, 0) == 0 &&
              reg_at(c, &r, 7, 2, 0) == 0);
    op_regions_free(&r);
  }
  op_chf_free(c);
}

/* REG-102: a 2-span island of area 1 beside a 2-span island of area 2 (linked). With
** MinRegionArea 5 both stay: each touches a walkable span of another area. The lone
** 2-span island of area 3 goes. Numbering: (0,0) area 1 -> 1, (2,0) area 2 -> 2. */
static const char *const TWO_AREAS[2] = {"1122.33", "......."};
OPT_TEST(island_kept_by_other_area, "REG-102") {
  op_chf *c = map_chf(TWO_AREAS, 7, 2);
  for (int p = 0; p < 3; p++) {
    op_regions r;
    OPT_CHECK(op_regions_build(c, (op_partition)p, 0, 5, 0, &r, NULL) == OP_OK);
    OPT_CHECK(r.nregions == 2);
    OPT_CHECK(reg_at(c, &r, 0, 0, 0) == 1 && reg_at(c, &r, 1, 0, 0) == 1);
    OPT_CHECK(reg_at(c, &r, 2, 0, 0) == 2 && reg_at(c, &r, 3, 0, 0) == 2);
    OPT_CHECK(reg_at(c, &r, 5, 0, 0) == 0 && reg_at(c, &r, 6, 0, 0) == 0);
    op_regions_free(&r);
  }
  op_chf_free(c);
}

/* REG-012, REG-103: border 1 on a 6 x 6 map: every walkable ring span has the border
** value. The 1-span island at (1, 1) links to the ring: kept with MinRegionArea 10. The
** 1-span island at (3, 3) links to nothing walkable: removed. */
static const char *const RING[6] = {"######", "##...#", "#.....", "#..#..", "#.....",
                                    "######"};
OPT_TEST(border_ring_keeps, "REG-103") {
  op_chf *c = map_chf(RING, 6, 6);
  for (int p = 0; p < 3; p++) {
    op_regions r;
    OPT_CHECK(op_regions_build(c, (op_partition)p, 1, 10, 0, &r, NULL) == OP_OK);
    OPT_CHECK(reg_at(c, &r, 0, 0, 0) == (int)OP_REG_BORDER_REGION);
    OPT_CHECK(reg_at(c, &r, 5, 5, 0) == (int)OP_REG_BORDER_REGION);
    OPT_CHECK(reg_at(c, &r, 1, 1, 0) == 1 && r.nregions == 1);
    OPT_CHECK(reg_at(c, &r, 3, 3, 0) == 0);
    op_regions_free(&r);
  }
  op_chf_free(c);
}

/* REG-150 with a volume (SPAN-162): a 9 x 3 floor whose column x = 4 a volume makes
** non-walkable is cut in two regions: left (first span (0,0)) 1, right ((5,0)) 2; the
** cut spans have no region. Every partition. */
OPT_TEST(cut_by_volume, "REG-150") {
  static const char *const F[3] = {"#########", "#########", "#########"};
  op_chf *c = map_chf(F, 9, 3);
  op_convex_volume v;
  memset(&v, 0, sizeof v);
  v.npoints = 4;
  double pts[4][2] = {{4.1, -1}, {4.9, -1}, {4.9, 4}, {4.1, 4}};
  memcpy(v.points, pts, sizeof pts);
  v.ymin = -10;
  v.ymax = 10;
  v.area = 0;
  OPT_CHECK(op_chf_mark_volumes(c, &v, 1, NULL) == OP_OK);
  for (int p = 0; p < 3; p++) {
    op_regions r;
    OPT_CHECK(op_regions_build(c, (op_partition)p, 0, 0, 0, &r, NULL) == OP_OK);
    OPT_CHECK(r.nregions == 2);
    for (int z = 0; z < 3; z++) {
      OPT_CHECK(reg_at(c, &r, 4, z, 0) == 0);
      for (int x = 0; x < 4; x++) OPT_CHECK(reg_at(c, &r, x, z, 0) == 1);
      for (int x = 5; x < 9; x++) OPT_CHECK(reg_at(c, &r, x, z, 0) == 2);
    }
    op_regions_free(&r);
  }
  op_chf_free(c);
}

/* A hole at (3, 3) of a 7 x 7 floor. Layers: one region (a ring is connected).
** Monotone sweep (REG-052 .. REG-056): rows 0..2 one region R1 (each row adopts the
** one below); row 3 has two sweeps (x 0..2 and 4..6) both linking to R1 (3 + 3 links,
** so neither has all of R1's 6): new R2, R3; row 4 links to R2 and R3: conflict, new R4;
** rows 5, 6 adopt R4. Sizes 21, 3, 3, 21. Without merging: 4 regions numbered by first
** span: (0,0) 1, (0,3) 2, (4,3) 3, (0,4) 4. With MergeRegionArea 4 (REG-113 .. REG-114):
** R2 (3 < 4) takes its least neighbour among R1 (21) and R4 (21): a tie, least id R1
** (now 24); R3 (3) takes R4 (21 < 24). Two regions: first spans (0,0) -> 1, (4,3) -> 2. */
OPT_TEST(hole_and_merge, "REG-114") {
  static const char *const H[7] = {"#######", "#######", "#######", "###.###",
                                   "#######", "#######", "#######"};
  op_chf *c = map_chf(H, 7, 7);
  op_regions r;
  OPT_CHECK(op_regions_layers(c, 0, 0, &r, NULL) == OP_OK && r.nregions == 1);
  op_regions_free(&r);
  OPT_CHECK(op_regions_monotone(c, 0, 0, 0, &r, NULL) == OP_OK && r.nregions == 4);
  OPT_CHECK(reg_at(c, &r, 6, 2, 0) == 1 && reg_at(c, &r, 2, 3, 0) == 2 &&
            reg_at(c, &r, 4, 3, 0) == 3 && reg_at(c, &r, 0, 4, 0) == 4 &&
            reg_at(c, &r, 6, 6, 0) == 4);
  op_regions_free(&r);
  OPT_CHECK(op_regions_monotone(c, 0, 0, 4, &r, NULL) == OP_OK && r.nregions == 2);
  OPT_CHECK(reg_at(c, &r, 0, 0, 0) == 1 && reg_at(c, &r, 2, 3, 0) == 1 &&
            reg_at(c, &r, 4, 3, 0) == 2 && reg_at(c, &r, 0, 4, 0) == 2);
  op_regions_free(&r);
  /* MergeRegionArea 3: 3 < 3 is false, nothing merges. */
  OPT_CHECK(op_regions_monotone(c, 0, 0, 3, &r, NULL) == OP_OK && r.nregions == 4);
  op_regions_free(&r);
  op_chf_free(c);
}

/* REG-100, REG-104: an island can be several regions of one area that touch. The 7 x 7
** floor with a hole at (3, 3) is one island of 48 spans; the monotone partition makes it
** four regions (21, 3, 3, 21; hole_and_merge). MinRegionArea 48: the island is not fewer
** than 48, all four stay although each is smaller; 49: all removed. Same for every
** partition (the island is the same set of spans). Merging everything (MergeRegionArea
** 400, REG-113 .. REG-116): pass 1 visits R1 (21): neighbours R2, R3 (3 each, R4 is not
** linked to R1): least size, least id: into R2 (24); R2 (24): into R3 (3 < R4's 21): 27;
** R3 (27): into R4: 48; R4 has no neighbour left. One region with a hole. */
OPT_TEST(island_of_regions, "REG-104") {
  static const char *const H[7] = {"#######", "#######", "#######", "###.###",
                                   "#######", "#######", "#######"};
  op_chf *c = map_chf(H, 7, 7);
  OPT_CHECK(c && c->nspans == 48);
  for (int p = 0; p < 3; p++) {
    op_regions r;
    OPT_CHECK(op_regions_build(c, (op_partition)p, 0, 48, 0, &r, NULL) == OP_OK);
    int kept = 0;
    for (uint32_t i = 0; i < r.nspans; i++) kept += r.reg[i] != 0;
    OPT_CHECK(kept == 48 && r.nregions >= 1);
    if (p == 1) OPT_CHECK(r.nregions == 4);
    op_regions_free(&r);
    OPT_CHECK(op_regions_build(c, (op_partition)p, 0, 49, 0, &r, NULL) == OP_OK);
    OPT_CHECK(r.nregions == 0);
    for (uint32_t i = 0; i < r.nspans; i++) OPT_CHECK(r.reg[i] == 0);
    op_regions_free(&r);
  }
  op_regions r;
  OPT_CHECK(op_regions_monotone(c, 0, 0, 400, &r, NULL) == OP_OK && r.nregions == 1);
  for (uint32_t i = 0; i < r.nspans; i++) OPT_CHECK(r.reg[i] == 1);
  op_regions_free(&r);
  op_chf_free(c);
}

/* REG-102, REG-104 with volumes (SPAN-162) on the 9 x 3 floor of cut_by_volume: column
** x = 4 cut by a volume of area 0 leaves two islands of 12 spans (4 x 3) that touch no
** walkable span of another area (area-0 spans are not walkable): MinRegionArea 12 keeps
** both (regions 1, 2), 13 removes both. A volume of area 5 instead: the strip (3 spans,
** area 5) and both sides touch another walkable area, so MinRegionArea 13 keeps all
** three, numbered by first span along row 0: left 1, strip 2, right 3. */
static op_chf *cut_floor(uint8_t area) {
  static const char *const F[3] = {"#########", "#########", "#########"};
  op_chf *c = map_chf(F, 9, 3);
  op_convex_volume v;
  memset(&v, 0, sizeof v);
  v.npoints = 4;
  double pts[4][2] = {{4.1, -1}, {4.9, -1}, {4.9, 4}, {4.1, 4}};
  memcpy(v.points, pts, sizeof pts);
  v.ymin = -10;
  v.ymax = 10;
  v.area = area;
  if (c) op_chf_mark_volumes(c, &v, 1, NULL);
  return c;
}
OPT_TEST(cut_by_volume_edges, "REG-102") {
  op_chf *c = cut_floor(0), *c5 = cut_floor(5);
  OPT_CHECK(c && c5 && c->areas[4] == 0 && c5->areas[4] == 5);
  for (int p = 0; p < 3; p++) {
    op_regions r;
    OPT_CHECK(op_regions_build(c, (op_partition)p, 0, 12, 0, &r, NULL) == OP_OK);
    OPT_CHECK(r.nregions == 2 && reg_at(c, &r, 0, 0, 0) == 1 && reg_at(c, &r, 8, 2, 0) == 2);
    op_regions_free(&r);
    OPT_CHECK(op_regions_build(c, (op_partition)p, 0, 13, 0, &r, NULL) == OP_OK);
    OPT_CHECK(r.nregions == 0 && reg_at(c, &r, 0, 0, 0) == 0 && reg_at(c, &r, 8, 2, 0) == 0);
    op_regions_free(&r);
    OPT_CHECK(op_regions_build(c5, (op_partition)p, 0, 13, 0, &r, NULL) == OP_OK);
    OPT_CHECK(r.nregions == 3 && reg_at(c5, &r, 0, 0, 0) == 1 && reg_at(c5, &r, 4, 1, 0) == 2 &&
              reg_at(c5, &r, 8, 2, 0) == 3);
    op_regions_free(&r);
  }
  op_chf_free(c);
  op_chf_free(c5);
}

/* REG-112: overlapping regions never merge. A 5 x 3 floor whose middle row carries a
** second floor 30 rows up ('B'): the upper spans link only to each other (climb 3 < 30),
** so they are a 5-span region sharing 5 columns with the floor. Monotone, merge 100: the
** floor rows 0, 1, 2 are one region? Row 1's lower spans adopt row 0's region; the upper
** row is a separate sweep with no region below: new id. Sizes 15 and 5: the 5 < 100
** could only merge into the floor, which overlaps it: 2 regions stay. Layers: the two
** are different layers (REG-075), layer 0 the floor (first span (0,0)), layer 1 the
** upper row; regions 1 (floor) and 2 (first span: column (0,1)'s second span). */
OPT_TEST(stacked_no_merge, "REG-112") {
  static const char *const S[3] = {"#####", "BBBBB", "#####"};
  op_chf *c = map_chf(S, 5, 3);
  OPT_CHECK(c && c->nspans == 20);
  op_regions r;
  OPT_CHECK(op_regions_monotone(c, 0, 0, 100, &r, NULL) == OP_OK && r.nregions == 2);
  OPT_CHECK(reg_at(c, &r, 0, 0, 0) == 1 && reg_at(c, &r, 2, 1, 0) == 1 &&
            reg_at(c, &r, 2, 1, 1) == 2);
  op_regions_free(&r);
  uint16_t layer[20];
  uint32_t nl = 0;
  OPT_CHECK(op_regions_layer_assign(c, layer, &nl, NULL) == OP_OK && nl == 2);
  OPT_CHECK(layer[0] == 0 && layer[c->cell_index[5] + 1] == 1 && layer[c->cell_index[5]] == 0);
  OPT_CHECK(op_regions_layers(c, 0, 0, &r, NULL) == OP_OK && r.nregions == 2);
  OPT_CHECK(reg_at(c, &r, 4, 2, 0) == 1 && reg_at(c, &r, 0, 1, 1) == 2);
  op_regions_free(&r);
  op_chf_free(c);
}

/* REG-074, REG-077, REG-080: a ramp that climbs over a floor. Row z = 0: a ramp, column x
** with floor row 10 + 3x (x = 0..10), each step within climb 3. Row z = 1: a deck at row
** 40 over x = 0..10, and under it (x = 0..3) a floor at row 10 (clearance 30 - 10 = 20).
** Links -z: the lower floor at x = 0, 1 reaches the ramp (rows 10, 13); the deck at
** x = 9, 10 (rows 37, 40). Layer sweep: row 0 is one sweep R1; in row 1 the lower floor
** opens sweep 1 (x = 0, lowest span first), the deck sweep 2; both link down to R1 (2 + 2
** links, neither has all 4): new R2 (lower), R3 (deck). R2 and R3 overlap (columns
** x = 0..3). Layers from R1: R2 adjacent, not in the floor set: joins, the floor set
** takes R3; R3 adjacent to R1 but in the floor set: skipped; R3 opens layer 2. Layer
** numbers by first span: R1's span 0 -> layer 0, the deck -> layer 1. Regions: the ramp
** and the lower floor (15 spans, joined by the -z link at x = 0) -> 1, the deck (11) -> 2.
** Monotone keeps the three sweeps: ramp 1, lower floor 2 (first span: column (0, 1)'s
** lowest), deck 3. */
OPT_TEST(ramp_over_floor_layers, "REG-074") {
  op_hf_grid g = fx_grid(11, 2, 1, 0.1, 100);
  op_hf *hf = NULL;
  op_chf *c = NULL;
  OPT_CHECK(op_hf_create(&g, &hf, NULL) == OP_OK);
  for (int x = 0; x <= 10; x++) {
    op_hf_add_span(hf, x, 0, 0, 10 + 3 * x, 63, 0, NULL);
    if (x <= 3) op_hf_add_span(hf, x, 1, 0, 10, 63, 0, NULL);
    op_hf_add_span(hf, x, 1, 30, 40, 63, 0, NULL);
  }
  OPT_CHECK(op_chf_build(hf, 20, 3, &c, NULL) == OP_OK && c->nspans == 26);
  op_hf_free(hf);
  uint16_t layer[26];
  uint32_t nl = 0;
  OPT_CHECK(op_regions_layer_assign(c, layer, &nl, NULL) == OP_OK && nl == 2);
  uint32_t low0 = c->cell_index[11], deck0 = c->cell_index[11] + 1;
  OPT_CHECK(layer[0] == 0 && layer[10] == 0 && layer[low0] == 0 && layer[deck0] == 1 &&
            layer[c->nspans - 1] == 1);
  op_regions r;
  OPT_CHECK(op_regions_layers(c, 0, 0, &r, NULL) == OP_OK && r.nregions == 2);
  OPT_CHECK(reg_at(c, &r, 10, 0, 0) == 1 && reg_at(c, &r, 3, 1, 0) == 1 &&
            reg_at(c, &r, 0, 1, 1) == 2 && reg_at(c, &r, 10, 1, 0) == 2);
  op_regions_free(&r);
  OPT_CHECK(op_regions_monotone(c, 0, 0, 0, &r, NULL) == OP_OK && r.nregions == 3);
  OPT_CHECK(reg_at(c, &r, 5, 0, 0) == 1 && reg_at(c, &r, 2, 1, 0) == 2 &&
            reg_at(c, &r, 2, 1, 1) == 3 && reg_at(c, &r, 7, 1, 0) == 3);
  op_regions_free(&r);
  op_chf_free(c);
}

/* REG-002: a heightfield with no open span gives no region, in every partition. */
OPT_TEST(empty_heightfield, "REG-002") {
  static const char *const E[2] = {"...", "..."};
  op_chf *c = map_chf(E, 3, 2);
  OPT_CHECK(c && c->nspans == 0);
  for (int p = 0; p < 3; p++) {
    op_regions r;
    OPT_CHECK(op_regions_build(c, (op_partition)p, 1, 8, 8, &r, NULL) == OP_OK &&
              r.nregions == 0 && r.nspans == 0);
    op_regions_free(&r);
  }
  op_chf_free(c);
}

/* REG-006: a checkerboard of areas 1 and 2 makes every span a region of its own (its four
** neighbours have the other area: its own island, kept by REG-102). 181 x 181 = 32761
** regions fit; 182 x 182 = 33124 > 32767 is a limit error naming "regions" with the count. */
OPT_TEST(region_limit, "REG-006") {
  for (int k = 0; k < 2; k++) {
    int n = k ? 182 : 181;
    char *buf = malloc((size_t)n * (n + 1));
    const char **rows = malloc(sizeof *rows * n);
    for (int z = 0; z < n; z++) {
      for (int x = 0; x < n; x++) buf[z * (n + 1) + x] = (char)('1' + ((x + z) & 1));
      buf[z * (n + 1) + n] = 0;
      rows[z] = buf + z * (n + 1);
    }
    op_chf *c = map_chf(rows, n, n);
    for (int p = 0; p < 3; p++) {
      op_regions r;
      op_error e;
      op_status st = op_regions_build(c, (op_partition)p, 0, 4, 0, &r, &e);
      if (k == 0) OPT_CHECK(st == OP_OK && r.nregions == 32761);
      else OPT_CHECK(st == OP_E_LIMIT && strcmp(e.field, "regions") == 0 &&
                     strcmp(e.value, "33124") == 0 && r.reg == NULL);
      op_regions_free(&r);
    }
    op_chf_free(c);
    free(rows);
    free(buf);
  }
}

/* REG-004: errors; a failed call leaves *out zeroed. */
OPT_TEST(errors, "REG-004") {
  op_chf *c = map_chf(SQ7, 7, 7);
  op_regions r;
  op_error e;
  memset(&r, 0x5a, sizeof r);
  OPT_CHECK(op_regions_watershed(c, -1, 0, 0, &r, &e) == OP_E_RANGE &&
            strcmp(e.field, "border") == 0 && strcmp(e.value, "-1") == 0 && r.reg == NULL);
  OPT_CHECK(op_regions_monotone(NULL, 0, 0, 0, &r, &e) == OP_E_ARGUMENT &&
            strcmp(e.field, "chf") == 0);
  OPT_CHECK(op_regions_layers(c, -2, 0, &r, &e) == OP_E_RANGE && strcmp(e.field, "border") == 0);
  OPT_CHECK(op_regions_build(c, (op_partition)7, 0, 0, 0, &r, &e) == OP_E_ARGUMENT &&
            strcmp(e.field, "partition") == 0);
  op_chf_free(c);
}

/* REG-160: canonical bytes: magic, header, then reg and dist per span. */
OPT_TEST(save_bytes, "REG-160") {
  op_chf *c = map_chf(SQ7, 7, 7);
  op_regions r;
  op_bytes b = {0};
  OPT_CHECK(op_regions_watershed(c, 0, 0, 0, &r, NULL) == OP_OK);
  OPT_CHECK(op_regions_save(&r, &b, NULL) == OP_OK && b.len == 28 + 4 * 49);
  OPT_CHECK(memcmp(b.data, "OPREG001", 8) == 0 && b.data[16] == 49 && b.data[20] == 1 &&
            b.data[24] == 4);
  OPT_CHECK(b.data[28] == 1 && b.data[29] == 0 && b.data[28 + 98 + 48] == 4);
  op_bytes_free(&b);
  op_regions_free(&r);
  op_chf_free(c);
}

/* ---- properties on generated levels ---- */

static uint32_t nb_of(const op_chf *c, uint32_t i, int x, int z, int d) {
  static const int dx[4] = {-1, 0, 1, 0}, dz[4] = {0, 1, 0, -1};
  uint8_t l = c->spans[i].link[d];
  if (l == OP_CHF_NOT_CONNECTED) return OP_HF_NONE;
  return c->cell_index[(size_t)(z + dz[d]) * c->grid.width + (x + dx[d])] + l;
}

/* Checks on one partition; returns the number of failed properties. */
static int check_partition(const op_chf *c, const op_regions *r, int border, uint32_t minarea,
                           const uint16_t *layer) {
  uint32_t n = c->nspans;
  int bad = 0;
  int32_t *xs = malloc(sizeof *xs * (n + 1)), *zs = malloc(sizeof *zs * (n + 1));
  uint32_t *par = malloc(sizeof *par * (n + 1));
  uint32_t *first = calloc((size_t)r->nregions + 2, sizeof *first);
  uint32_t *sz = calloc(n + 1, sizeof *sz);
  uint8_t *flag = calloc(n + 1, 1);
  for (int z = 0; z < c->grid.depth; z++)
    for (int x = 0; x < c->grid.width; x++) {
      size_t col = (size_t)z * c->grid.width + x;
      for (uint32_t i = c->cell_index[col]; i < c->cell_index[col] + c->cell_count[col]; i++) {
        xs[i] = x;
        zs[i] = z;
        /* regions of a layer partition hold at most one span per column (REG-075) */
        if (layer)
          for (uint32_t k = i + 1; k < c->cell_index[col] + c->cell_count[col]; k++)
            if (r->reg[i] && r->reg[i] == r->reg[k] && r->reg[i] != OP_REG_BORDER_REGION) bad++;
      }
    }
  for (uint32_t i = 0; i < n; i++) {
    par[i] = i;
    int ring = xs[i] < border || zs[i] < border || xs[i] >= c->grid.width - border ||
               zs[i] >= c->grid.depth - border;
    uint16_t v = r->reg[i];
    /* REG-012: ring spans that are walkable are the border region, only they. */
    if ((ring && c->areas[i]) != (v == OP_REG_BORDER_REGION)) bad++;
    if (v && !c->areas[i]) bad++;
    if (v && v != OP_REG_BORDER_REGION) {
      if (v > r->nregions) bad++;
      else if (!first[v]) first[v] = i + 1;
    }
  }
  /* REG-150: first spans ascend with the id. */
  for (uint32_t k = 1; k <= r->nregions; k++)
    if (!first[k] || (k > 1 && first[k] < first[k - 1])) bad++;
  /* Regions are connected and of one area: union through links inside a region. */
  for (uint32_t i = 0; i < n; i++) {
    uint16_t v = r->reg[i];
    if (!v || v == OP_REG_BORDER_REGION) continue;
    for (int d = 0; d < 4; d++) {
      uint32_t j = nb_of(c, i, xs[i], zs[i], d);
      if (j == OP_HF_NONE || r->reg[j] != v) continue;
      if (c->areas[j] != c->areas[i]) bad++;
      uint32_t a = i, b = j;
      while (par[a] != a) a = par[a];
      while (par[b] != b) b = par[b];
      if (a != b) par[a < b ? b : a] = a < b ? a : b;
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    uint16_t v = r->reg[i];
    if (!v || v == OP_REG_BORDER_REGION) continue;
    uint32_t a = i;
    while (par[a] != a) a = par[a];
    if (a != first[v] - 1) bad++;
  }
  /* Every walkable span without a region was removed by REG-104: its unlabelled same-area
  ** component is smaller than MinRegionArea and touches no walkable span of another area,
  ** no border span, and no labelled span of its own area (links in its own layer). */
  for (uint32_t i = 0; i < n; i++) par[i] = i;
  for (uint32_t i = 0; i < n; i++) {
    if (!c->areas[i] || r->reg[i]) continue;
    for (int d = 0; d < 4; d++) {
      uint32_t j = nb_of(c, i, xs[i], zs[i], d);
      if (j == OP_HF_NONE || (layer && layer[j] != layer[i]) || !c->areas[j]) continue;
      if (c->areas[j] != c->areas[i] || r->reg[j]) { flag[i] = 1; continue; }
      uint32_t a = i, b = j;
      while (par[a] != a) a = par[a];
      while (par[b] != b) b = par[b];
      if (a != b) par[a < b ? b : a] = a < b ? a : b;
    }
  }
  for (uint32_t i = 0; i < n; i++) {
    if (!c->areas[i] || r->reg[i]) continue;
    uint32_t a = i;
    while (par[a] != a) a = par[a];
    sz[a]++;
    if (flag[i]) flag[a] |= 2;
  }
  for (uint32_t i = 0; i < n; i++)
    if (sz[i] && (sz[i] >= minarea || (flag[i] & 2))) bad++;
  free(xs); free(zs); free(par); free(first); free(sz); free(flag);
  return bad;
}

/* REG-170 on every generator at every preset, every tile: the properties of
** check_partition for the three partitions with no rule (MinRegionArea 0), island removal
** only, and the preset's MinRegionArea and MergeRegionArea; each run is repeated and must
** give the same bytes. */
OPT_TEST(levels_properties, "REG-170") {
  static const char *names[4] = {"terrain", "city", "stairs", "dungeon"};
  static const uint32_t sizes[4] = {24, 2, 10, 16};
  static const char *presets[3] = {"Humanoid", "Small", "Large"};
  int tiles = 0, removed_runs = 0;
  for (int P = 0; P < 3; P++)
    for (int L = 0; L < 4; L++) {
      op_settings s;
      OPT_CHECK(op_settings_preset(presets[P], &s, NULL) == OP_OK);
      op_cell_settings cs;
      OPT_CHECK(op_settings_derive(&s, &cs, NULL) == OP_OK);
      op_trimesh m;
      memset(&m, 0, sizeof m);
      OPT_CHECK(op_level_generate(names[L], 3, sizes[L], &s, &m, NULL) == OP_OK);
      op_soup soup = op_trimesh_soup(&m);
      double o[3], ymax;
      int32_t nx = 0, nz = 0;
      OPT_CHECK(op_soup_frame(&soup, o, &ymax, NULL) == OP_OK);
      OPT_CHECK(op_spans_tile_range(&s, &soup, &nx, &nz, NULL) == OP_OK);
      int level_tiles = 0;
      for (int32_t tz = 0; tz < nz; tz++)
        for (int32_t tx = 0; tx < nx; tx++) {
          op_chf *c = NULL;
          OPT_CHECK(op_spans_build_tile(&s, &soup, o, o[1], ymax, tx, tz, &c, NULL) == OP_OK);
          if (!c) continue;
          level_tiles++;
          uint16_t *layer = malloc(sizeof *layer * (c->nspans + 1));
          uint32_t nl = 0;
          OPT_CHECK(op_regions_layer_assign(c, layer, &nl, NULL) == OP_OK);
          for (int p = 0; p < 3; p++) {
            uint32_t mins[3] = {0, s.min_region_area, s.min_region_area};
            uint32_t merges[3] = {0, 0, s.merge_region_area};
            for (int k = 0; k < 3; k++) {
              op_regions r;
              OPT_CHECK(op_regions_build(c, (op_partition)p, cs.border, mins[k], merges[k], &r,
                                         NULL) == OP_OK);
              int bad = check_partition(c, &r, cs.border, mins[k] ? mins[k] : 1,
                                        p == 2 ? layer : NULL);
              if (bad)
                fprintf(stderr, "%s %s tile %d,%d partition %d min %u: %d bad\n", names[L],
                        presets[P], tx, tz, p, mins[k], bad);
              OPT_CHECK(bad == 0);
              for (uint32_t i = 0; i < c->nspans; i++)
                if (c->areas[i] && !r.reg[i]) {
                  removed_runs++;
                  break;
                }
              /* determinism: a second run gives the same bytes */
              op_regions r2;
              op_bytes b1 = {0}, b2 = {0};
              OPT_CHECK(op_regions_build(c, (op_partition)p, cs.border, mins[k], merges[k], &r2,
                                         NULL) == OP_OK);
              op_regions_save(&r, &b1, NULL);
              op_regions_save(&r2, &b2, NULL);
              OPT_CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
              op_bytes_free(&b1);
              op_bytes_free(&b2);
              op_regions_free(&r2);
              op_regions_free(&r);
            }
          }
          free(layer);
          op_chf_free(c);
        }
      OPT_CHECK(level_tiles > 0);
      tiles += level_tiles;
      op_trimesh_free(&m);
    }
  printf("     %d tiles x 3 partitions x 3 rule sets; %d runs removed spans by REG-104\n", tiles,
         removed_runs);
  OPT_CHECK(removed_runs > 0); /* the removal branch of the property was exercised */
}

OPT_MAIN_BEGIN
OPT_RUN(distance_square);
OPT_RUN(blur_square);
OPT_RUN(square_one_region);
OPT_RUN(island_min_area_edge);
OPT_RUN(island_kept_by_other_area);
OPT_RUN(border_ring_keeps);
OPT_RUN(cut_by_volume);
OPT_RUN(hole_and_merge);
OPT_RUN(island_of_regions);
OPT_RUN(cut_by_volume_edges);
OPT_RUN(stacked_no_merge);
OPT_RUN(ramp_over_floor_layers);
OPT_RUN(empty_heightfield);
OPT_RUN(region_limit);
OPT_RUN(errors);
OPT_RUN(save_bytes);
OPT_RUN(levels_properties);
OPT_MAIN_END
