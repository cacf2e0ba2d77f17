/*
** test_erode.c -- erosion by the agent radius and area volumes (spec/build3d-spans.md
** section 6): chamfer distances on a square, the threshold, a hole, volumes on cell
** centres (edges of the crossing rule), height range, order, and a volume over an eroded
** edge. Expected values by hand from the clauses.
*/
#include <math.h>
#include <string.h>

#include "fixtures3d.h"
#include "onepath_build3d.h"
#include "optest.h"

/* An n x n flat floor: every column one solid span [0, 10] (floor row 10), area 63,
** origin 0, cs 1, ch 0.1 (floor height 1.0 = fl(0 + fl(10 * 0.1))). Optionally a hole
** (no span) at (hx, hz). */
static op_chf *floor_chf(int n, int hx, int hz) {
  op_hf *hf = fx_hf(n, n, 1, 0.1, 100);
  op_chf *c = NULL;
  if (!hf) return NULL;
  for (int z = 0; z < n; z++)
    for (int x = 0; x < n; x++)
      if (!(x == hx && z == hz)) op_hf_add_span(hf, x, z, 0, 10, 63, 0, NULL);
  op_chf_build(hf, 20, 3, &c, NULL);
  op_hf_free(hf);
  return c;
}

static int area_at(const op_chf *c, int x, int z) {
  size_t i = (size_t)z * c->grid.width + x;
  return c->cell_count[i] ? c->areas[c->cell_index[i]] : -1;
}

static int walkable_count(const op_chf *c) {
  int n = 0;
  for (uint32_t i = 0; i < c->nspans; i++) n += c->areas[i] != 0;
  return n;
}

/* SPAN-151 .. SPAN-155 on a 7 x 7 floor: the outer ring has links outside the grid
** missing, so distance 0; the chamfer distance of (x, z) is then 2 * min(x, z, 6 - x,
** 6 - z) (straight steps of 2 reach the ring first; a diagonal step costs 3 > 2).
** radius 1 (thr 2) removes the ring: 5 x 5 = 25 left; radius 2 (thr 4) leaves the 3 x 3
** centre; radius 3 (thr 6) leaves only (3, 3) (distance 6); radius 0 removes nothing. */
OPT_TEST(erode_square, "SPAN-155") {
  static const int left[4] = {49, 25, 9, 1};
  for (int r = 0; r < 4; r++) {
    op_chf *c = floor_chf(7, -1, -1);
    OPT_CHECK(c && op_chf_erode(c, r, NULL) == OP_OK);
    OPT_CHECK(walkable_count(c) == left[r]);
    if (r == 3) OPT_CHECK(area_at(c, 3, 3) == 63 && area_at(c, 2, 3) == 0);
    op_chf_free(c);
  }
}

/* SPAN-151, SPAN-152: a hole at (4, 4) of a 9 x 9 floor. Boundary (distance 0): the
** outer ring and the hole's four neighbours (a missing link). Without the hole the
** distance is 2 * min(x, z, 8 - x, 8 - z), and radius 2 (thr 4) would keep x, z in 2..6.
** Near the hole: its diagonals (3, 3) etc. and (2, 4), (4, 2) etc. are one straight step
** from a neighbour: 2; (2, 3) is one diagonal step from (3, 4): 0 + 3 = 3 < 4. Only the
** corners (2, 2), (6, 2), (2, 6), (6, 6) keep 4 (straight from the second ring: 2 + 2;
** diagonal from (3, 3): 2 + 3 = 5): 4 spans stay. */
OPT_TEST(erode_hole, "SPAN-152") {
  op_chf *c = floor_chf(9, 4, 4);
  OPT_CHECK(c && c->nspans == 80);
  OPT_CHECK(op_chf_erode(c, 2, NULL) == OP_OK);
  OPT_CHECK(walkable_count(c) == 4);
  OPT_CHECK(area_at(c, 2, 2) == 63 && area_at(c, 6, 2) == 63 && area_at(c, 2, 6) == 63 &&
            area_at(c, 6, 6) == 63);
  OPT_CHECK(area_at(c, 3, 3) == 0 && area_at(c, 2, 3) == 0 && area_at(c, 4, 2) == 0);
  op_chf_free(c);
}

/* SPAN-151, SPAN-153, SPAN-154: spans next to a non-walkable span are boundary spans. A
** 9 x 9 floor whose row z = 0 and column x = 0 are set to area 0 before erosion: the
** spans with x = 1 or z = 1, and the outer ring x = 8 or z = 8, start at 0; inside
** (x, z in 2..7) the distance is 2 * min(x - 1, z - 1, 8 - x, 8 - z). Radius 2 (thr 4)
** keeps x, z in 3..6 (16 spans); radius 1 (thr 2) keeps x, z in 2..7 (36 spans). */
OPT_TEST(erode_weights, "SPAN-153") {
  static const int left[3] = {0, 36, 16};
  for (int r = 1; r <= 2; r++) {
    op_chf *c = floor_chf(9, -1, -1);
    for (int k = 0; k < 9; k++) {
      c->areas[c->cell_index[k]] = 0;     /* row z = 0 */
      c->areas[c->cell_index[k * 9]] = 0; /* column x = 0 */
    }
    OPT_CHECK(op_chf_erode(c, r, NULL) == OP_OK);
    OPT_CHECK(walkable_count(c) == left[r]);
    if (r == 2)
      OPT_CHECK(area_at(c, 3, 3) == 63 && area_at(c, 6, 6) == 63 && area_at(c, 2, 5) == 0);
    op_chf_free(c);
  }
}

static op_convex_volume square(double x0, double z0, double x1, double z1, double ymin,
                               double ymax, int area) {
  op_convex_volume v;
  memset(&v, 0, sizeof v);
  v.npoints = 4;
  v.points[0][0] = x0; v.points[0][1] = z0;
  v.points[1][0] = x1; v.points[1][1] = z0;
  v.points[2][0] = x1; v.points[2][1] = z1;
  v.points[3][0] = x0; v.points[3][1] = z1;
  v.ymin = ymin;
  v.ymax = ymax;
  v.area = (uint8_t)area;
  return v;
}

/* SPAN-161: a square [1.5, 3.5] x [1.5, 3.5] on cell centres 0.5, 1.5, ...: a centre on
** the left edge (px = 1.5 < t = 3.5 of the right edge only) is inside, on the right edge
** (3.5 < 3.5 false) outside; on the bottom edge (zi > pz differs: 1.5 > 1.5 false,
** 3.5 > 1.5 true) inside, on the top edge (both false) outside: columns 1, 2 x rows 1, 2. */
OPT_TEST(volume_edges, "SPAN-161") {
  op_chf *c = floor_chf(5, -1, -1);
  op_convex_volume v = square(1.5, 1.5, 3.5, 3.5, 0, 2, 7);
  OPT_CHECK(op_chf_mark_volumes(c, &v, 1, NULL) == OP_OK);
  int n7 = 0;
  for (int z = 0; z < 5; z++)
    for (int x = 0; x < 5; x++) {
      int in = (x == 1 || x == 2) && (z == 1 || z == 2);
      OPT_CHECK(area_at(c, x, z) == (in ? 7 : 63));
      n7 += area_at(c, x, z) == 7;
    }
  OPT_CHECK(n7 == 4);
  op_chf_free(c);
}

/* SPAN-162: the floor height is fl(0 + fl(10 * 0.1)) = 1.0 (10 * 0.1 rounds to 1): a
** range [1, 1] includes it, [1.0000000000000002, 2] and [0, 0.9999999999999999] do
** not. The later volume wins where two overlap. */
OPT_TEST(volume_height_and_order, "SPAN-162") {
  OPT_CHECK(10 * 0.1 == 1.0);
  op_chf *c = floor_chf(5, -1, -1);
  op_convex_volume v[4] = {square(0, 0, 5, 5, 1, 1, 7),
                           square(0, 0, 5, 5, nextafter(1.0, 2.0), 2, 8),
                           square(0, 0, 5, 5, 0, nextafter(1.0, 0.0), 9),
                           square(0, 0, 2, 5, -1, 1, 11)};
  OPT_CHECK(op_chf_mark_volumes(c, v, 4, NULL) == OP_OK);
  OPT_CHECK(area_at(c, 0, 0) == 11 && area_at(c, 1, 4) == 11);
  OPT_CHECK(area_at(c, 2, 0) == 7 && area_at(c, 4, 4) == 7);
  op_chf_free(c);
}

/* SPAN-163: a volume over an eroded edge. 7 x 7 floor eroded by radius 1: the ring is
** area 0. A volume with area 5 over the whole grid marks only the 25 walkable spans; the
** ring stays 0 (volumes never make a span walkable). Then a volume with area 0 over the
** column x = 3 (centres 3.5: square [3, 4] x [0, 7]) removes 5 spans and nothing
** around them (no growing): 20 left, and (2, 3), (4, 3) keep area 5. A later volume
** with area 9 over everything cannot bring them back. */
OPT_TEST(volume_over_eroded_edge, "SPAN-163") {
  op_chf *c = floor_chf(7, -1, -1);
  OPT_CHECK(op_chf_erode(c, 1, NULL) == OP_OK);
  OPT_CHECK(walkable_count(c) == 25);
  op_convex_volume v[3] = {square(-1, -1, 8, 8, 0, 2, 5), square(3, 0, 4, 7, 0, 2, 0),
                           square(-1, -1, 8, 8, 0, 2, 9)};
  OPT_CHECK(op_chf_mark_volumes(c, v, 2, NULL) == OP_OK);
  OPT_CHECK(walkable_count(c) == 20);
  OPT_CHECK(area_at(c, 0, 3) == 0 && area_at(c, 1, 3) == 5 && area_at(c, 3, 3) == 0);
  OPT_CHECK(area_at(c, 2, 3) == 5 && area_at(c, 4, 3) == 5);
  OPT_CHECK(op_chf_mark_volumes(c, v + 2, 1, NULL) == OP_OK);
  OPT_CHECK(walkable_count(c) == 20 && area_at(c, 3, 2) == 0 && area_at(c, 2, 2) == 9);
  op_chf_free(c);
}

/* SPAN-160, SPAN-031: volumes are all checked before any marking; the first bad field is
** named; nothing changes. Erode: negative radius. */
OPT_TEST(volume_errors, "SPAN-160") {
  op_chf *c = floor_chf(3, -1, -1);
  op_convex_volume v[2] = {square(0, 0, 3, 3, 0, 2, 5), square(0, 0, 3, 3, 0, 2, 5)};
  v[1].points[2][1] = NAN;
  op_error e;
  OPT_CHECK(op_chf_mark_volumes(c, v, 2, &e) == OP_E_RANGE &&
            !strcmp(e.field, "volumes[1].points[2].z"));
  OPT_CHECK(area_at(c, 1, 1) == 63);
  v[1] = square(0, 0, 3, 3, 2, 1, 5);
  OPT_CHECK(op_chf_mark_volumes(c, v, 2, &e) == OP_E_RANGE && !strcmp(e.field, "volumes[1].ymax"));
  v[1] = square(0, 0, 3, 3, 0, 1, 64);
  OPT_CHECK(op_chf_mark_volumes(c, v, 2, &e) == OP_E_RANGE && !strcmp(e.field, "volumes[1].area"));
  v[1].npoints = 2;
  OPT_CHECK(op_chf_mark_volumes(c, v, 2, &e) == OP_E_RANGE &&
            !strcmp(e.field, "volumes[1].npoints"));
  OPT_CHECK(area_at(c, 1, 1) == 63);
  OPT_CHECK(op_chf_erode(c, -1, &e) == OP_E_RANGE && !strcmp(e.field, "radius"));
  op_chf_free(c);
}

OPT_MAIN_BEGIN
OPT_RUN(erode_square);
OPT_RUN(erode_hole);
OPT_RUN(erode_weights);
OPT_RUN(volume_edges);
OPT_RUN(volume_height_and_order);
OPT_RUN(volume_over_eroded_edge);
OPT_RUN(volume_errors);
OPT_MAIN_END
