/*
** test_obstacles.c -- obstacles of step 4 of the 3D run-time build (ref/build3d/spans/obstacles.c):
** each shape's grown footprint at its boundary (exact binary64 inputs: on the boundary
** included, one ulp beyond excluded), the oriented box at yaw 0, pi/2, -pi/2 and +-pi/4,
** the floor-height range ends, marking of small hand-made compact heightfields (border
** and global indices, area-0 spans, other areas), idempotence and order, validation
** errors (kind, field, value) and the x/z box and tile-queue test.
**
** Clauses: spec/build3d-runtime.md RT-020 (growth), RT-021 (footprint and height tests),
** RT-022 (marking), RT-023 (validation), RT-025 (box), RT-050 (queueing); SPAN-033. Expected values are derived by hand in
** the comments (cell size 1 and origin 0 unless stated: column x has centre x + 0.5).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "build3d/spans/obstacles.h"
#include "onepath_build3d.h"
#include "optest.h"

#define HALF_PI 1.5707963267948966 /* fl(pi / 2) */
#define QUARTER_PI 0.78539816339744831 /* fl(pi / 4) */

/* ------------------------------------------------------------ helpers */

/* An n x n flat floor (one solid span [0, 10] per column, floor row 10; ch 0.1, so the
** floor height is fl(10 * 0.1) = 1.0), area 63, on a grid with the given origin, cs and
** global first column/row. */
static op_chf *floor_grid(int n, double ox, double oz, double cs, int gx0, int gz0) {
  op_hf_grid g = fx_grid(n, n, cs, 0.1, 1000);
  g.origin[0] = ox;
  g.origin[2] = oz;
  g.gx0 = gx0;
  g.gz0 = gz0;
  op_hf *hf = NULL;
  op_chf *c = NULL;
  if (op_hf_create(&g, &hf, NULL) != OP_OK) return NULL;
  for (int z = 0; z < n; z++)
    for (int x = 0; x < n; x++) op_hf_add_span(hf, x, z, 0, 10, 63, 0, NULL);
  op_chf_build(hf, 2, 1, &c, NULL);
  op_hf_free(hf);
  return c;
}

static op_chf *floor_chf(int n) { return floor_grid(n, 0, 0, 1, 0, 0); }

static int area_at(const op_chf *c, int x, int z) {
  size_t i = (size_t)z * (size_t)c->grid.width + (size_t)x;
  return c->cell_count[i] ? c->areas[c->cell_index[i]] : -1;
}

static int zero_count(const op_chf *c) {
  int n = 0;
  for (uint32_t i = 0; i < c->nspans; i++) n += c->areas[i] == 0;
  return n;
}

/* Marks one obstacle with radius R on a fresh n x n floor; returns the floor. */
static op_chf *marked(int n, op_obstacle o, int R, size_t *count) {
  op_chf *c = floor_chf(n);
  size_t k = 0;
  if (c && opob_chf_mark(c, &o, 1, R, &k, NULL) != OP_OK) k = (size_t)-1;
  if (count) *count = k;
  return c;
}

/* ------------------------------------------------------------ cylinder */

/* RT-020 (obstacle growth), RT-021 (obstacle footprint test). Cylinder at (0.5, _, 0.5), r = 2,
** R = 2 cells of 1: g = 2, r + g = 4, (r + g)^2 = 16. Column (4, 0): dx = 4.5 - 0.5 = 4,
** dz = 0, 16 <= 16: included. Moving the centre to 0.5 - 2^-50: dx = 4 + 2^-50 (exact),
** dx*dx = 16 + 2^-47 + 2^-100 rounds to 16 + 2^-47 (spacing 2^-48 above 16): excluded.
** Marked columns of an 8 x 8 floor: offsets (a, b) = (x, z) with a^2 + b^2 <= 16:
** a = 0: b 0..4 (5); a = 1: 0..3 (4); a = 2: 0..3 (4); a = 3: 0..2 (3); a = 4: 0 (1) =
** 17; the moved centre loses (4, 0) only ((0, 4) now has dx = 2^-50, dx*dx = 2^-100,
** 16 + 2^-100 rounds to 16): 16. */
OPT_TEST(cylinder_boundary_axis, "RT-021") {
  opob_obst p;
  OPT_CHECK(opob_growth(2, 1.0) == 2.0);
  OPT_CHECK(opob_prepare(&(op_obstacle){0}, 2, 1.0, &p, NULL) == OP_E_RANGE); /* r = 0 */
  op_obstacle o = fx_cylinder(0.5, 0, 0.5, 2, 3);
  OPT_CHECK(opob_prepare(&o, 2, 1.0, &p, NULL) == OP_OK);
  OPT_CHECK(p.g == 2 && p.rg == 4 && p.rg2 == 16);
  OPT_CHECK(opob_footprint(&p, 4.5, 0.5));
  OPT_CHECK(opob_footprint(&p, 0.5, 4.5));
  OPT_CHECK(!opob_footprint(&p, 4.5, 1.5));
  size_t k;
  op_chf *c = marked(8, o, 2, &k);
  OPT_CHECK(c && k == 17 && zero_count(c) == 17);
  OPT_CHECK(c && area_at(c, 4, 0) == 0 && area_at(c, 0, 4) == 0 && area_at(c, 3, 2) == 0);
  OPT_CHECK(c && area_at(c, 3, 3) == 63 && area_at(c, 4, 1) == 63 && area_at(c, 5, 0) == 63);
  op_chf_free(c);

  o.center[0] = 0.5 - 0x1p-50;
  OPT_CHECK(opob_prepare(&o, 2, 1.0, &p, NULL) == OP_OK);
  OPT_CHECK(!opob_footprint(&p, 4.5, 0.5));
  OPT_CHECK(opob_footprint(&p, 0.5, 4.5));
  c = marked(8, o, 2, &k);
  OPT_CHECK(c && k == 16 && area_at(c, 4, 0) == 63 && area_at(c, 0, 4) == 0);
  op_chf_free(c);
}

/* RT-021 (obstacle footprint test), off the axes. Centre (0.5, 0.5), r = 3, R = 2: r + g = 5;
** column (3, 4): dx = 3, dz = 4, 9 + 16 = 25 <= 25 = 5 * 5: included. r = 3 - 2^-50
** (exact): r + g = 5 - 2^-50 (exact, spacing 2^-50 in [4, 8)); its square
** 25 - 2.5 * 2^-48 + 2^-100 rounds to 25 - 2^-47 (spacing 2^-48 in [16, 32)) < 25:
** excluded, while (2, 4) (4 + 16 = 20) stays. */
OPT_TEST(cylinder_boundary_diagonal, "RT-021") {
  opob_obst p;
  op_obstacle o = fx_cylinder(0.5, 0, 0.5, 3, 1);
  OPT_CHECK(opob_prepare(&o, 2, 1.0, &p, NULL) == OP_OK && p.rg2 == 25);
  OPT_CHECK(opob_footprint(&p, 3.5, 4.5) && opob_footprint(&p, 4.5, 3.5));
  o.radius = 3 - 0x1p-50;
  OPT_CHECK(opob_prepare(&o, 2, 1.0, &p, NULL) == OP_OK);
  OPT_CHECK(p.rg == 5 - 0x1p-50 && p.rg2 == 25 - 0x1p-47);
  OPT_CHECK(!opob_footprint(&p, 3.5, 4.5) && !opob_footprint(&p, 4.5, 3.5));
  OPT_CHECK(opob_footprint(&p, 2.5, 4.5));
  size_t k;
  op_chf *c = marked(8, o, 2, &k);
  OPT_CHECK(c && area_at(c, 3, 4) == 63 && area_at(c, 4, 3) == 63 && area_at(c, 2, 4) == 0);
  op_chf_free(c);
}

/* ------------------------------------------------------------ box */

/* RT-021 (obstacle footprint test). Box x, z in [2.5, 3.5], R = 2: grown [0.5, 5.5]: columns
** 0..5 (centres 0.5 and 5.5 on the boundary) on both axes: 36 of an 8 x 8 floor.
** bmin.x = 2.5 + 2^-51 (exact): fl(bmin.x - 2) = 0.5 + 2^-51 > 0.5: column x = 0 out
** (30). bmax.z = 3.5 - 2^-50: fl(bmax.z + 2) = 5.5 - 2^-50 (exact in [4, 8)) < 5.5:
** row z = 5 out as well (5 x 5 = 25). */
OPT_TEST(box_boundary, "RT-021") {
  size_t k;
  op_obstacle o = fx_box(2.5, 0, 2.5, 3.5, 2, 3.5);
  op_chf *c = marked(8, o, 2, &k);
  OPT_CHECK(c && k == 36 && area_at(c, 0, 0) == 0 && area_at(c, 5, 5) == 0 &&
            area_at(c, 6, 5) == 63 && area_at(c, 5, 6) == 63);
  op_chf_free(c);
  o.bmin[0] = 2.5 + 0x1p-51;
  opob_obst p;
  OPT_CHECK(opob_prepare(&o, 2, 1.0, &p, NULL) == OP_OK && p.x0 == 0.5 + 0x1p-51);
  OPT_CHECK(!opob_footprint(&p, 0.5, 2.5) && opob_footprint(&p, 1.5, 2.5));
  c = marked(8, o, 2, &k);
  OPT_CHECK(c && k == 30 && area_at(c, 0, 3) == 63 && area_at(c, 1, 3) == 0);
  op_chf_free(c);
  o.bmax[2] = 3.5 - 0x1p-50;
  OPT_CHECK(opob_prepare(&o, 2, 1.0, &p, NULL) == OP_OK && p.z1 == 5.5 - 0x1p-50);
  c = marked(8, o, 2, &k);
  OPT_CHECK(c && k == 25 && area_at(c, 3, 5) == 63 && area_at(c, 3, 4) == 0);
  op_chf_free(c);
}

/* ------------------------------------------------------------ oriented box */

/* RT-021 (obstacle footprint test) at yaw 0: SinCos(0) = (0, 1) exactly (MATH-031), so
** u = dx, v = dz. Centre (3, 3), hx = 0.5, hz = 1.5, R = 2: |dx| <= 2.5, |dz| <= 3.5:
** x in 0..5 (centres 0.5..5.5), z in 0..6 (0.5..6.5): 42 columns of an 8 x 8 floor, the
** outer ones on the boundary. hx = 0.5 - 2^-51: hx + g = 2.5 - 2^-51 (exact): columns 0
** and 5 out: 4 x 7 = 28. */
OPT_TEST(oriented_yaw0, "RT-021") {
  op_obstacle o = fx_obox(3, 0, 3, 0.5, 1, 1.5, 0);
  opob_obst p;
  OPT_CHECK(opob_prepare(&o, 2, 1.0, &p, NULL) == OP_OK);
  OPT_CHECK(p.s == 0 && p.c == 1 && p.hxg == 2.5 && p.hzg == 3.5);
  size_t k;
  op_chf *c = marked(8, o, 2, &k);
  OPT_CHECK(c && k == 42);
  for (int z = 0; c && z < 8; z++)
    for (int x = 0; x < 8; x++) OPT_CHECK(area_at(c, x, z) == ((x <= 5 && z <= 6) ? 0 : 63));
  op_chf_free(c);
  o.half[0] = 0.5 - 0x1p-51;
  c = marked(8, o, 2, &k);
  OPT_CHECK(c && k == 28 && area_at(c, 0, 3) == 63 && area_at(c, 5, 3) == 63 &&
            area_at(c, 1, 6) == 0);
  op_chf_free(c);
}

/* RT-021 (obstacle footprint test) at yaw fl(pi/2): SinCos gives s = 1 (sin of a point
** 6.1e-17 short of pi/2 is 1 - 1.9e-33, rounding to 1) and c = cos(fl(pi/2)) ~ 6.12e-17,
** positive and below 2^-53. The yaw turns +x towards +z, so the box's x half size now lies
** along z: the same box as above covers |dx| <= 3.5, |dz| <= 2.5: x in 0..6, z in 0..5.
** At the boundary the small terms vanish in the rounding: column (6, 0): dx = 3.5,
** dz = -2.5, u = fl(fl(3.5c) - 2.5) with 3.5c ~ 2.14e-16 below half the spacing of 2.5
** (2^-52 ~ 2.22e-16): u = -2.5; v = fl(fl(-2.5c) - 3.5) = -3.5 likewise. At yaw -pi/2
** (s = -1, same c, MATH: SinCos(-a) = (-s, c)) the footprint is the same set. */
OPT_TEST(oriented_yaw_half_pi, "RT-021") {
  double s, cc;
  OPT_CHECK(op_sincos(HALF_PI, &s, &cc, NULL) == OP_OK && s == 1.0 && cc > 0 && cc < 0x1p-53);
  for (int sign = -1; sign <= 1; sign += 2) {
    op_obstacle o = fx_obox(3, 0, 3, 0.5, 1, 1.5, sign * HALF_PI);
    size_t k;
    op_chf *c = marked(8, o, 2, &k);
    OPT_CHECK(c && k == 42);
    for (int z = 0; c && z < 8; z++)
      for (int x = 0; x < 8; x++)
        OPT_CHECK(area_at(c, x, z) == ((x <= 6 && z <= 5) ? 0 : 63));
    op_chf_free(c);
  }
}

/* RT-021 (obstacle footprint test), rotated. Yaw fl(pi/4): s and c both ~0.70711 (SinCos
** within an ulp or two of sqrt(1/2)). Centre (4, 4), hx = 3, hz = 1, R = 0: with
** dx = x - 3.5, dz = z - 3.5, S = dx + dz = x + z - 7, D = dz - dx = z - x (integers),
** u ~ 0.70711 S and v ~ 0.70711 D: inside iff |S| <= 4.2426 and |D| <= 1.4142, that is
** |x + z - 7| <= 4 and |z - x| <= 1 (no point within 0.2 of a boundary). R = 1 (g = 1):
** |S| <= 5.657, |D| <= 2.828: |x + z - 7| <= 5, |z - x| <= 2. Yaw -pi/4 turns the long
** axis onto x = -z: the roles of S and D swap. */
OPT_TEST(oriented_rotated, "RT-021") {
  for (int R = 0; R <= 1; R++)
    for (int sign = -1; sign <= 1; sign += 2) {
      op_obstacle o = fx_obox(4, 0, 4, 3, 1, 1, sign * QUARTER_PI);
      size_t k;
      op_chf *c = marked(8, o, R, &k);
      int want = 0;
      for (int z = 0; c && z < 8; z++)
        for (int x = 0; x < 8; x++) {
          int S = abs(x + z - 7), D = abs(z - x);
          int along = sign > 0 ? S : D, across = sign > 0 ? D : S;
          int in = along <= 4 + R && across <= 1 + R;
          want += in;
          OPT_CHECK(area_at(c, x, z) == (in ? 0 : 63));
        }
      OPT_CHECK(c && (int)k == want);
      op_chf_free(c);
    }
}

/* ------------------------------------------------------------ height */

/* A 1 x 1 grid whose column has floors at rows 10, 20, 30 (solid [0,10], [15,20],
** [25,30]); ch 0.5: floor heights fl(10 * 0.5) = 5, 10, 15 (exact). */
static op_chf *three_floors(void) {
  op_hf *hf = fx_hf(1, 1, 1, 0.5, 1000);
  op_chf *c = NULL;
  if (!hf) return NULL;
  op_hf_add_span(hf, 0, 0, 0, 10, 63, 0, NULL);
  op_hf_add_span(hf, 0, 0, 15, 20, 63, 0, NULL);
  op_hf_add_span(hf, 0, 0, 25, 30, 63, 0, NULL);
  op_chf_build(hf, 1, 1, &c, NULL);
  op_hf_free(hf);
  return c;
}

/* Areas of the three floors after marking o (R = 0) as a 3-digit mask: 1 = set to 0. */
static int height_mask(op_obstacle o) {
  op_chf *c = three_floors();
  if (!c || c->nspans != 3) return -1;
  if (opob_chf_mark(c, &o, 1, 0, NULL, NULL) != OP_OK) return -2;
  int m = (c->areas[0] == 0) * 100 + (c->areas[1] == 0) * 10 + (c->areas[2] == 0);
  op_chf_free(c);
  return m;
}

/* RT-021 (obstacle height test), both ends included: cylinder [y, y + h], box [min y, max y],
** oriented box [y - hy, y + hy]; floors 5, 10, 15 (mask: lowest floor first). */
OPT_TEST(height_range_ends, "RT-021") {
  OPT_CHECK(height_mask(fx_cylinder(0.5, 5, 0.5, 1, 5)) == 110);                 /* [5, 10] */
  OPT_CHECK(height_mask(fx_cylinder(0.5, 5 + 0x1p-50, 0.5, 1, 5)) == 10);        /* 5 just below */
  OPT_CHECK(height_mask(fx_cylinder(0.5, 10, 0.5, 1, 0)) == 10);               /* h = 0: [10, 10] */
  /* fl(10 + (5 - 2^-50)) is a tie (spacing 2^-49 in [8, 16)) and rounds to even: 15 */
  OPT_CHECK(height_mask(fx_cylinder(0.5, 10, 0.5, 1, 5 - 0x1p-50)) == 11);
  OPT_CHECK(height_mask(fx_cylinder(0.5, 10, 0.5, 1, 5 - 0x1p-49)) == 10);       /* 15 - 2^-49 */
  OPT_CHECK(height_mask(fx_box(0, 10, 0, 1, 15, 1)) == 11);                 /* [10, 15] */
  OPT_CHECK(height_mask(fx_box(0, -100, 0, 1, 5, 1)) == 100);               /* [-100, 5] */
  OPT_CHECK(height_mask(fx_box(0, 15 + 0x1p-49, 0, 1, 20, 1)) == 0);        /* above all */
  OPT_CHECK(height_mask(fx_obox(0.5, 10, 0.5, 1, 5, 1, 0)) == 111);         /* [5, 15] */
  OPT_CHECK(height_mask(fx_obox(0.5, 10, 0.5, 1, 0, 1, 0)) == 10);          /* [10, 10] */
  OPT_CHECK(height_mask(fx_obox(0.5, 10, 0.5, 1, 4.5, 1, 0)) == 10);        /* [5.5, 14.5] */
  OPT_CHECK(height_mask(fx_obox(0.5, 2, 0.5, 1, 2, 1, 0)) == 0);            /* [0, 4] */
  opob_obst p;
  op_obstacle o = fx_cylinder(0, 5, 0, 1, 5);
  OPT_CHECK(opob_prepare(&o, 0, 1, &p, NULL) == OP_OK);
  OPT_CHECK(opob_height(&p, 5) && opob_height(&p, 10) && !opob_height(&p, 10.000001));
}

/* ------------------------------------------------------------ marking */

/* RT-022 (obstacle marking). Only non-zero areas are touched (an area-0 span is not counted),
** any non-zero area (here 5) becomes 0, columns without spans are skipped, and marking is
** idempotent and independent of order: A then B equals B then A, and a second pass
** changes nothing. */
OPT_TEST(marking_idempotent, "RT-022") {
  op_obstacle a = fx_cylinder(2, 0, 2, 1.5, 2), b = fx_box(3, 0, 0, 5, 2, 8);
  op_chf *c1 = floor_chf(8), *c2 = floor_chf(8);
  OPT_CHECK(c1 && c2);
  if (!c1 || !c2) return;
  c1->areas[c1->cell_index[2 * 8 + 2]] = 0; /* (2, 2): already non-walkable */
  c2->areas[c2->cell_index[2 * 8 + 2]] = 0;
  c1->areas[c1->cell_index[1 * 8 + 1]] = 5; /* (1, 1): another area id */
  c2->areas[c2->cell_index[1 * 8 + 1]] = 5;
  op_obstacle ab[2] = {a, b}, ba[2] = {b, a};
  size_t k1, k2, k3;
  OPT_CHECK(opob_chf_mark(c1, ab, 2, 0, &k1, NULL) == OP_OK);
  OPT_CHECK(opob_chf_mark(c2, ba, 2, 0, &k2, NULL) == OP_OK);
  OPT_CHECK(memcmp(c1->areas, c2->areas, c1->nspans) == 0);
  /* a: centre (2, 2), r 1.5: centres (x+0.5, z+0.5) with (x-1.5)^2 + (z-1.5)^2 <= 2.25:
  ** offsets (+-0.5, +-0.5) (0.5) and (+-0.5, +-1.5), (+-1.5, +-0.5) (2.5 > 2.25 out):
  ** columns (1..2) x (1..2), 4 columns, (2, 2) already 0: 3 changed. b: x in [3, 5]:
  ** columns 3, 4 (centres 3.5, 4.5; 2.5 and 5.5 outside), every z: 16. Total 19. */
  OPT_CHECK(k1 == 19 && zero_count(c1) == 20);
  OPT_CHECK(area_at(c1, 1, 1) == 0 && area_at(c1, 2, 1) == 0 && area_at(c1, 0, 1) == 63);
  OPT_CHECK(area_at(c1, 3, 7) == 0 && area_at(c1, 5, 0) == 63);
  OPT_CHECK(opob_chf_mark(c1, ab, 2, 0, &k3, NULL) == OP_OK && k3 == 0);
  OPT_CHECK(memcmp(c1->areas, c2->areas, c1->nspans) == 0);
  op_chf_free(c1);
  op_chf_free(c2);
}

/* RT-022 (obstacle marking) over the whole grid, border included, with global indices: a grid
** at origin (10, 20), cs 0.5, first column/row -2 (a tile's border): column 0's centre is
** fl(10 + fl(fl(-2 + 0.5) * 0.5)) = 9.25, row 0's 19.25. A box x in [9, 9.5], z in
** [19, 19.5] (R = 0) holds exactly the centre (9.25, 19.25): one span, column (0, 0). With
** R = 1 (g = 0.5): [8.5, 10] x [18.5, 20]: centres 9.25, 9.75 on each axis: 4 spans. */
OPT_TEST(marking_border_global, "RT-022") {
  op_obstacle o = fx_box(9, 0, 19, 9.5, 2, 19.5);
  for (int R = 0; R <= 1; R++) {
    op_chf *c = floor_grid(6, 10, 20, 0.5, -2, -2);
    size_t k = 0;
    OPT_CHECK(c && opob_chf_mark(c, &o, 1, R, &k, NULL) == OP_OK);
    OPT_CHECK(k == (R ? 4u : 1u) && c && area_at(c, 0, 0) == 0);
    OPT_CHECK(c && area_at(c, 1, 1) == (R ? 0 : 63) && area_at(c, 2, 0) == 63);
    op_chf_free(c);
  }
}

/* RT-022 (obstacle marking). A list is validated in full before anything is marked: a bad
** second obstacle leaves the first unapplied (the heightfield unchanged) and names
** obstacles[1]. A cell size other than the prepared one marks nothing. */
OPT_TEST(marking_list_atomic, "RT-022") {
  op_obstacle l[2] = {fx_cylinder(2, 0, 2, 1, 2), fx_cylinder(2, 0, 2, -1, 2)};
  op_chf *c = floor_chf(4);
  op_error e;
  OPT_CHECK(c && opob_chf_mark(c, l, 2, 0, NULL, &e) == OP_E_RANGE);
  OPT_CHECK(strcmp(e.field, "obstacles[1].radius") == 0 && strcmp(e.value, "-1") == 0);
  OPT_CHECK(c && zero_count(c) == 0);
  OPT_CHECK(opob_chf_mark(c, l, 1, -1, NULL, &e) == OP_E_RANGE);
  opob_obst p;
  OPT_CHECK(opob_prepare(&l[0], 0, 0.5, &p, NULL) == OP_OK);
  OPT_CHECK(c && opob_mark(c, &p) == 0 && zero_count(c) == 0);
  op_chf_free(c);
}

/* RT-022 (obstacle marking) over every column: the marking (which skips columns far from the
** grown box) equals testing every column of the grid with the footprint and height tests,
** on random obstacles, also far from the origin and with a small cell size. */
OPT_TEST(marking_every_column, "RT-022") {
  op_prng r;
  op_prng_seed(&r, 5);
  static const double frames[3][2] = {{0, 0.5}, {2097000, 0x1p-10}, {-2097000.25, 3}};
  int differ = 0, changed = 0;
  for (int it = 0; it < 1500; it++) {
    const double *f = frames[it % 3];
    int R = (int)op_prng_below(&r, 5), n = 12;
    op_chf *c = floor_grid(n, f[0], f[0], f[1], -R - 3, 7);
    if (!c) { OPT_CHECK(c != NULL); return; }
    const op_hf_grid *g = &c->grid;
    double ext = f[1] * n;
    double x = f[0] + (op_prng_unit(&r) * 1.6 - 0.3) * ext + (-R - 3) * f[1];
    double z = f[0] + (op_prng_unit(&r) * 1.6 - 0.3) * ext + 7 * f[1];
    double a = (0.05 + op_prng_unit(&r)) * ext / 3, b = (0.05 + op_prng_unit(&r)) * ext / 3;
    op_obstacle o;
    switch (op_prng_below(&r, 3)) {
      case 0: o = fx_cylinder(x, 0.5, z, a, 1); break;
      case 1: o = fx_box(x - a, 0, z - b, x, 1, z); break;
      default: o = fx_obox(x, 1, z, a, 0, b, (op_prng_unit(&r) - 0.5) * 7); break;
    }
    opob_obst p;
    op_error e;
    if (opob_prepare(&o, R, f[1], &p, &e) != OP_OK) {
      fprintf(stderr, "prepare: %s\n", e.message);
      OPT_CHECK(0);
      op_chf_free(c);
      return;
    }
    size_t want = 0;
    for (int zz = 0; zz < n; zz++)
      for (int xx = 0; xx < n; xx++) {
        double px = g->origin[0] + ((double)(g->gx0 + xx) + 0.5) * g->cs;
        double pz = g->origin[2] + ((double)(g->gz0 + zz) + 0.5) * g->cs;
        double fy = g->origin[1] + (double)c->spans[c->cell_index[zz * n + xx]].y * g->ch;
        want += opob_footprint(&p, px, pz) && opob_height(&p, fy);
      }
    size_t k = opob_mark(c, &p);
    differ += k != want;
    changed += k > 0;
    op_chf_free(c);
  }
  OPT_CHECK(differ == 0 && changed > 300);
}

/* ------------------------------------------------------------ validation */

typedef struct bad_case {
  op_obstacle o;
  op_status kind;
  const char *field, *value;
  int span033; /* 1: SPAN-033 (op_settings_validate) reports the same */
} bad_case;

#define BIG 0x1.0000000000001p21 /* one ulp above 2^21 */

/* SPAN-033, RT-023 (obstacle validation): every number finite and within +-2^21, sizes
** positive, box min <= max, every extent within +-2^21; kind, field (the shape's name as
** prefix) and value (shortest form: NaN, Infinity). op_settings_validate with the
** obstacle as obstacles[0] reports the same field (prefix obstacles[0].) where SPAN-033
** has the rule; the per-number bound on radius, height and half sizes is the seed's
** ("every number ... within +-2^21") and not in SPAN-033 (span033 = 0). */
OPT_TEST(validation_errors, "SPAN-033") {
  const double M = 0x1p21;
  bad_case cs[] = {
      {fx_cylinder(NAN, 0, 0, 1, 1), OP_E_RANGE, "cylinder.center.x", "NaN", 1},
      {fx_cylinder(0, INFINITY, 0, 1, 1), OP_E_RANGE, "cylinder.center.y", "Infinity", 1},
      {fx_cylinder(0, 0, -INFINITY, 1, 1), OP_E_RANGE, "cylinder.center.z", "-Infinity", 1},
      {fx_cylinder(BIG, 0, 0, 1, 1), OP_E_RANGE, "cylinder.center.x", "2097152.0000000005", 1},
      {fx_cylinder(0, 0, 0, 0, 1), OP_E_RANGE, "cylinder.radius", "0", 1},
      {fx_cylinder(0, 0, 0, -0.0, 1), OP_E_RANGE, "cylinder.radius", "-0", 1},
      {fx_cylinder(0, 0, 0, -2, 1), OP_E_RANGE, "cylinder.radius", "-2", 1},
      {fx_cylinder(0, 0, 0, NAN, 1), OP_E_RANGE, "cylinder.radius", "NaN", 1},
      {fx_cylinder(0, 0, 0, INFINITY, 1), OP_E_RANGE, "cylinder.radius", "Infinity", 1},
      {fx_cylinder(M - 1, 0, 0, 2, 1), OP_E_RANGE, "cylinder.radius", "2", 1},
      {fx_cylinder(0, 0, -M + 1, 1.5, 1), OP_E_RANGE, "cylinder.radius", "1.5", 1},
      {fx_cylinder(0, 0, 0, 1, -1), OP_E_RANGE, "cylinder.height", "-1", 1},
      {fx_cylinder(0, 0, 0, 1, NAN), OP_E_RANGE, "cylinder.height", "NaN", 1},
      {fx_cylinder(0, M - 1, 0, 1, 2), OP_E_RANGE, "cylinder.height", "2", 1},
      {fx_cylinder(0, -M, 0, 1, M + 2), OP_E_RANGE, "cylinder.height", "2097154", 0},
      {fx_box(NAN, 0, 0, 1, 1, 1), OP_E_RANGE, "box.bmin.x", "NaN", 1},
      {fx_box(0, 0, -BIG, 1, 1, 1), OP_E_RANGE, "box.bmin.z", "-2097152.0000000005", 1},
      {fx_box(0, 0, 0, 1, INFINITY, 1), OP_E_RANGE, "box.bmax.y", "Infinity", 1},
      {fx_box(0, 2, 0, 1, 1, 1), OP_E_RANGE, "box.bmax.y", "1", 1},
      {fx_box(0, 0, 0, -1, 1, -1), OP_E_RANGE, "box.bmax.x", "-1", 1},
      {fx_obox(0, NAN, 0, 1, 1, 1, 0), OP_E_RANGE, "oriented_box.center.y", "NaN", 1},
      {fx_obox(0, 0, 0, 0, 1, 1, 0), OP_E_RANGE, "oriented_box.half.x", "0", 1},
      {fx_obox(0, 0, 0, 1, -1, 1, 0), OP_E_RANGE, "oriented_box.half.y", "-1", 1},
      {fx_obox(0, 0, 0, 1, 1, -0.0, 0), OP_E_RANGE, "oriented_box.half.z", "-0", 1},
      {fx_obox(0, 0, 0, 1, 1, INFINITY, 0), OP_E_RANGE, "oriented_box.half.z", "Infinity", 1},
      {fx_obox(0, 0, 0, 1, 1, 1, NAN), OP_E_RANGE, "oriented_box.yaw", "NaN", 1},
      {fx_obox(0, 0, 0, 1, 1, 1, -BIG), OP_E_RANGE, "oriented_box.yaw", "-2097152.0000000005", 1},
      {fx_obox(M - 1, 0, 0, 2, 1, 1, 0), OP_E_RANGE, "oriented_box.half.x", "2", 1},
      /* yaw pi/2: ez = fl(fl(2 * 1) + fl(1 * c)) = 2 (c tiny): z leaves, half.z named */
      {fx_obox(0, 0, M - 1, 2, 1, 1, HALF_PI), OP_E_RANGE, "oriented_box.half.z", "1", 1},
      {fx_obox(0, -M, 0, 1, 0.5, 1, 0), OP_E_RANGE, "oriented_box.half.y", "0.5", 1},
      {fx_obox(0, 0, 0, 1.5 * M, 1, 1, QUARTER_PI), OP_E_RANGE, "oriented_box.half.x",
       "3145728", 0},
  };
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    op_error e;
    memset(&e, 0, sizeof e);
    op_status st = opob_validate(&cs[i].o, NULL, &e);
    int ok = st == cs[i].kind && strcmp(e.field, cs[i].field) == 0 &&
             strcmp(e.value, cs[i].value) == 0;
    if (!ok) fprintf(stderr, "case %zu: got %d %s %s\n", i, (int)st, e.field, e.value);
    OPT_CHECK(ok);
    opob_obst p;
    memset(&p, 0x5a, sizeof p);
    opob_obst q = p;
    OPT_CHECK(opob_prepare(&cs[i].o, 1, 1.0, &p, NULL) == cs[i].kind);
    OPT_CHECK(memcmp(&p, &q, sizeof p) == 0); /* untouched on failure */
    if (!cs[i].span033) continue;
    op_settings s;
    op_settings_preset("Humanoid", &s, NULL);
    s.nobstacles = 1;
    s.obstacles = &cs[i].o;
    char want[96];
    snprintf(want, sizeof want, "obstacles[0].%s", strchr(cs[i].field, '.') + 1);
    OPT_CHECK(op_settings_validate(&s, &e) == cs[i].kind && strcmp(e.field, want) == 0);
  }
  op_obstacle o = fx_cylinder(0, 0, 0, 1, 1);
  o.shape = (op_obstacle_shape)7;
  op_error e;
  OPT_CHECK(opob_validate(&o, NULL, &e) == OP_E_ARGUMENT && strcmp(e.field, "shape") == 0);
  OPT_CHECK(opob_validate(&o, "obstacles[2].", &e) == OP_E_ARGUMENT &&
            strcmp(e.field, "obstacles[2].shape") == 0 && strcmp(e.value, "7") == 0);
  OPT_CHECK(opob_validate(NULL, NULL, &e) == OP_E_ARGUMENT);
  /* the limits themselves are accepted */
  OPT_CHECK(opob_validate(&(op_obstacle){.shape = OP_OBSTACLE_BOX,
                                            .bmin = {-M, -M, -M}, .bmax = {M, M, M}},
                             NULL, NULL) == OP_OK);
  o = fx_cylinder(M - 1, -M, -M + 1, 1, M);
  OPT_CHECK(opob_validate(&o, NULL, NULL) == OP_OK);
  o = fx_obox(M - 2, M, 0, 2, 0, 1, 0);
  OPT_CHECK(opob_validate(&o, NULL, NULL) == OP_OK);
}

/* ------------------------------------------------------------ queueing */

/* RT-050 (which tiles rebuild): the x/z box of the grown shape. g = 1. Cylinder (10, _, 10),
** r 1: [8, 12]^2. Box [1, 2] x [3, 5]: [0, 3] x [2, 6]. Oriented box centre (0, 0),
** hx 2, hz 1: yaw 0: ex = 3 * 1 + 2 * 0 = 3, ez = 3 * 0 + 2 * 1 = 2; yaw pi/2 (s = 1,
** c < 2^-53): ex = fl(fl(3c) + 2) = 2, ez = fl(3 + fl(2c)) = 3. */
OPT_TEST(queue_box, "RT-050") {
  opob_obst p;
  op_obstacle o = fx_cylinder(10, 0, 10, 1, 1);
  OPT_CHECK(opob_prepare(&o, 2, 0.5, &p, NULL) == OP_OK && p.g == 1);
  OPT_CHECK(p.bmin[0] == 8 && p.bmax[0] == 12 && p.bmin[1] == 8 && p.bmax[1] == 12);
  o = fx_box(1, 0, 3, 2, 1, 5);
  OPT_CHECK(opob_prepare(&o, 2, 0.5, &p, NULL) == OP_OK);
  OPT_CHECK(p.bmin[0] == 0 && p.bmax[0] == 3 && p.bmin[1] == 2 && p.bmax[1] == 6);
  o = fx_obox(0, 0, 0, 2, 1, 1, 0);
  OPT_CHECK(opob_prepare(&o, 2, 0.5, &p, NULL) == OP_OK);
  OPT_CHECK(p.bmin[0] == -3 && p.bmax[0] == 3 && p.bmin[1] == -2 && p.bmax[1] == 2);
  o.yaw = HALF_PI;
  OPT_CHECK(opob_prepare(&o, 2, 0.5, &p, NULL) == OP_OK);
  OPT_CHECK(p.bmin[0] == -2 && p.bmax[0] == 2 && p.bmin[1] == -3 && p.bmax[1] == 3);
  double b0[2], b1[2];
  /* ungrown: ex = fl(fl(2c) + 1) with 2c ~ 1.22e-16 above half the spacing above 1
  ** (2^-53 ~ 1.11e-16): 1 + 2^-52; ez = fl(2 + fl(c)) = 2 (c below 2^-52). */
  opob_box(&o, 0, b0, b1);
  OPT_CHECK(b0[0] == -1 - 0x1p-52 && b1[0] == 1 + 0x1p-52 && b0[1] == -2 && b1[1] == 2);
}

/* The bordered grid of tile (tx, tz) for tile size 16, R = 2, border 5, cs 0.5, origin 0
** (SPAN-102: gx0 = 16 tx - 5, width 26). */
static op_hf_grid tile_grid(int tx, int tz) {
  op_hf_grid g;
  memset(&g, 0, sizeof g);
  g.cs = 0.5;
  g.ch = 0.1;
  g.gx0 = 16 * tx - 5;
  g.gz0 = 16 * tz - 5;
  g.width = g.depth = 26;
  g.height = 100;
  return g;
}

/* RT-050 (which tiles rebuild). Tile tx's grid covers x in [8tx - 2.5, 8tx + 10.5]; widened by
** R + 1 = 3 cells (1.5): [8tx - 4, 8tx + 12]. Cylinder (20, _, 4), r 1, g 1: box x
** [18, 22], z [2, 6]: tx 1 ([4, 20]), 2 ([12, 28]) and 3 ([20, 36], touching at 20) are
** queued, 0 and 4 not; on z, tz 0 ([-4, 12]) and tz 1 ([4, 20]) meet [2, 6], tz 2
** ([12, 28]) does not.
** A box whose grown min x is exactly 12 touches tile 0 (hi 12); one ulp more does not. */
OPT_TEST(queue_tiles, "RT-050") {
  opob_obst p;
  op_obstacle o = fx_cylinder(20, 0, 4, 1, 1);
  OPT_CHECK(opob_prepare(&o, 2, 0.5, &p, NULL) == OP_OK);
  static const int want[5][2] = {{0, 0}, {1, 1}, {1, 1}, {1, 1}, {0, 0}};
  for (int tx = 0; tx < 5; tx++)
    for (int tz = 0; tz < 2; tz++) {
      op_hf_grid g = tile_grid(tx, tz);
      OPT_CHECK(opob_tile_queued(&p, &g) == want[tx][tz]);
    }
  op_hf_grid g2 = tile_grid(0, 2); /* z [12, 28] vs [2, 6] */
  OPT_CHECK(!opob_tile_queued(&p, &g2));
  o = fx_box(13, 0, 0, 14, 1, 1);
  OPT_CHECK(opob_prepare(&o, 2, 0.5, &p, NULL) == OP_OK && p.bmin[0] == 12);
  op_hf_grid g0 = tile_grid(0, 0);
  OPT_CHECK(opob_tile_queued(&p, &g0));
  o.bmin[0] = 13 + 0x1p-49; /* grown: 12 + 2^-49 (exact) */
  OPT_CHECK(opob_prepare(&o, 2, 0.5, &p, NULL) == OP_OK && p.bmin[0] == 12 + 0x1p-49);
  OPT_CHECK(!opob_tile_queued(&p, &g0));
}

/* RT-050 (which tiles rebuild), generous: whenever marking a tile's bordered grid changes a
** span, the tile is queued -- random obstacles of the three shapes (any yaw, radius up to
** 6 cells) around a 4-cell tile with its border. */
OPT_TEST(queue_covers_marking, "RT-050") {
  op_prng r;
  op_prng_seed(&r, 77);
  int marked_tiles = 0, bad = 0;
  for (int it = 0; it < 3000; it++) {
    int R = (int)op_prng_below(&r, 7);
    int border = R + 3, n = 4 + 2 * border;
    op_chf *c = floor_grid(n, 1.25, -0.75, 0.5, -border, -border);
    if (!c) { OPT_CHECK(c != NULL); return; }
    double span = 0.5 * (n + 8);
    double x = 1.25 + (op_prng_unit(&r) * span - span / 2 + 1), z = -0.75 + (op_prng_unit(&r) * span - span / 2 + 1);
    double a = 0.1 + op_prng_unit(&r) * 3, b = 0.1 + op_prng_unit(&r) * 3;
    op_obstacle o;
    switch (op_prng_below(&r, 3)) {
      case 0: o = fx_cylinder(x, 0, z, a, 5); break;
      case 1: o = fx_box(x - a, 0, z - b, x, 5, z); break;
      default: o = fx_obox(x, 0.5, z, a, 1, b, (op_prng_unit(&r) - 0.5) * 7); break;
    }
    opob_obst p;
    OPT_CHECK(opob_prepare(&o, R, 0.5, &p, NULL) == OP_OK);
    size_t k = opob_mark(c, &p);
    if (k) marked_tiles++;
    if (k && !opob_tile_queued(&p, &c->grid)) bad++;
    op_chf_free(c);
  }
  OPT_CHECK(bad == 0 && marked_tiles > 500);
}

OPT_MAIN_BEGIN
OPT_RUN(cylinder_boundary_axis);
OPT_RUN(cylinder_boundary_diagonal);
OPT_RUN(box_boundary);
OPT_RUN(oriented_yaw0);
OPT_RUN(oriented_yaw_half_pi);
OPT_RUN(oriented_rotated);
OPT_RUN(height_range_ends);
OPT_RUN(marking_idempotent);
OPT_RUN(marking_border_global);
OPT_RUN(marking_list_atomic);
OPT_RUN(marking_every_column);
OPT_RUN(validation_errors);
OPT_RUN(queue_box);
OPT_RUN(queue_tiles);
OPT_RUN(queue_covers_marking);
OPT_MAIN_END
