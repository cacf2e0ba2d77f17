/*
** test_filter.c -- the filters of the solid heightfield (spec/build3d-spans.md section 4):
** low-hanging obstacles, ledges (climb exactly at the limit and one beyond), low
** clearance (a ceiling exactly one row too low). Expected values by hand from the clauses.
*/
#include <string.h>

#include "onepath_build3d.h"
#include "optest.h"

/* 3 x 3 columns, 100 rows (ch 0.1). */
static op_hf *mk3(void) {
  op_hf_grid g;
  memset(&g, 0, sizeof g);
  g.cs = 1;
  g.ch = 0.1;
  g.width = g.depth = 3;
  g.height = 100;
  op_hf *hf = NULL;
  op_hf_create(&g, &hf, NULL);
  return hf;
}

static void add(op_hf *hf, int x, int z, int smin, int smax, int area) {
  op_hf_add_span(hf, x, z, smin, smax, (uint8_t)area, 0, NULL);
}

static const op_hf_span *sp(const op_hf *hf, int x, int z, int k) {
  uint32_t i = hf->head[z * hf->grid.width + x];
  while (k-- > 0 && i != OP_HF_NONE) i = hf->pool[i].next;
  return i == OP_HF_NONE ? NULL : &hf->pool[i];
}

/* Every column [0, top] walkable, the centre column's floor at `centre`. */
static op_hf *plateau(int top, int centre) {
  op_hf *hf = mk3();
  for (int z = 0; z < 3; z++)
    for (int x = 0; x < 3; x++) add(hf, x, z, 0, (x == 1 && z == 1) ? centre : top, 63);
  return hf;
}

/* SPAN-121: a non-walkable span 3 rows above a walkable one becomes walkable with climb 3
** (|5 - 2| = 3 <= 3), stays with climb 2; of a stack of two only the first changes. */
OPT_TEST(filter_low_hanging, "SPAN-121") {
  op_hf *hf = mk3();
  add(hf, 0, 0, 0, 2, 63);
  add(hf, 0, 0, 3, 5, 0);
  op_hf_filter_low_hanging(hf, 2);
  OPT_CHECK(sp(hf, 0, 0, 1)->area == 0);
  op_hf_filter_low_hanging(hf, 3);
  OPT_CHECK(sp(hf, 0, 0, 1)->area == 63);
  op_hf_free(hf);
  hf = mk3();
  add(hf, 0, 0, 0, 2, 7);
  add(hf, 0, 0, 3, 4, 0);
  add(hf, 0, 0, 5, 6, 0);
  op_hf_filter_low_hanging(hf, 10);
  OPT_CHECK(sp(hf, 0, 0, 1)->area == 7); /* takes the area below, 7 */
  OPT_CHECK(sp(hf, 0, 0, 2)->area == 0); /* the flag passed up was "not walkable" */
  op_hf_free(hf);
}

/* SPAN-122: a flat plateau is no ledge for the centre (every neighbour floor at the same
** row: minh = 0, amin = amax = 10); the ring has neighbours outside the grid and
** bot = 10 > 0, so every ring span is a ledge. */
OPT_TEST(filter_ledge_flat, "SPAN-122") {
  op_hf *hf = plateau(10, 10);
  op_hf_filter_ledges(hf, 20, 3);
  OPT_CHECK(sp(hf, 1, 1, 0)->area == 63);
  OPT_CHECK(sp(hf, 0, 0, 0)->area == 0 && sp(hf, 1, 0, 0)->area == 0);
  OPT_CHECK(sp(hf, 2, 1, 0)->area == 0 && sp(hf, 1, 2, 0)->area == 0);
  op_hf_free(hf);
}

/* SPAN-122: the centre 3 rows above its neighbours (climb 3): minh = -3, not < -3, and
** amin = 7, amax = 10: 3, not > 3: walkable. 4 rows above: minh = -4 < -3: a ledge. */
OPT_TEST(filter_ledge_climb_limit, "SPAN-122") {
  op_hf *hf = plateau(7, 10);
  op_hf_filter_ledges(hf, 20, 3);
  OPT_CHECK(sp(hf, 1, 1, 0)->area == 63);
  op_hf_free(hf);
  hf = plateau(6, 10);
  op_hf_filter_ledges(hf, 20, 3);
  OPT_CHECK(sp(hf, 1, 1, 0)->area == 0);
  op_hf_free(hf);
}

/* SPAN-122: the steep-slope rule: -x neighbour 3 below, +x neighbour 3 above (climb 3):
** minh = -3, but amax - amin = 13 - 7 = 6 > 3: not walkable. */
OPT_TEST(filter_ledge_steep, "SPAN-122") {
  op_hf *hf = plateau(10, 10);
  op_hf *h2 = mk3();
  for (int z = 0; z < 3; z++)
    for (int x = 0; x < 3; x++) add(h2, x, z, 0, x == 0 ? 7 : x == 2 ? 13 : 10, 63);
  op_hf_filter_ledges(h2, 20, 3);
  OPT_CHECK(sp(h2, 1, 1, 0)->area == 0);
  op_hf_free(h2);
  op_hf_free(hf);
}

/* SPAN-122 step 2: an empty neighbour column is a drop to -climb: with bot = 10,
** minh = -3 - 10 < -3, a ledge. A neighbour floor with too little room above it (a solid
** span [0, 5] under a slab [8, 30]: min(top, 8) - max(10, 5) < 20) is not reachable and
** counts no drop; the slab's top 30 is 20 above: minh = min(0, 20) stays >= -3. */
OPT_TEST(filter_ledge_gaps, "SPAN-122") {
  op_hf *hf = mk3();
  for (int z = 0; z < 3; z++)
    for (int x = 0; x < 3; x++)
      if (!(x == 0 && z == 1)) add(hf, x, z, 0, 10, 63);
  op_hf_filter_ledges(hf, 20, 3);
  OPT_CHECK(sp(hf, 1, 1, 0)->area == 0);
  op_hf_free(hf);
  hf = mk3();
  for (int z = 0; z < 3; z++)
    for (int x = 0; x < 3; x++)
      if (!(x == 0 && z == 1)) add(hf, x, z, 0, 10, 63);
  add(hf, 0, 1, 0, 5, 63);
  add(hf, 0, 1, 8, 30, 63);
  op_hf_filter_ledges(hf, 20, 3);
  OPT_CHECK(sp(hf, 1, 1, 0)->area == 63);
  op_hf_free(hf);
}

/* SPAN-123: walkable height 20: a ceiling 20 rows above the floor (clearance = 20 <= 20)
** removes the floor; 21 rows keeps it. The top span of a column (clearance 65535 - 10)
** is kept; the ceiling slab's own top is kept too. */
OPT_TEST(filter_low_height, "SPAN-123") {
  op_hf *hf = mk3();
  add(hf, 0, 0, 0, 10, 63);
  add(hf, 0, 0, 30, 40, 63);
  add(hf, 1, 0, 0, 10, 63);
  add(hf, 1, 0, 31, 40, 63);
  add(hf, 2, 0, 0, 10, 63);
  op_hf_filter_low_height(hf, 20);
  OPT_CHECK(sp(hf, 0, 0, 0)->area == 0);
  OPT_CHECK(sp(hf, 1, 0, 0)->area == 63);
  OPT_CHECK(sp(hf, 2, 0, 0)->area == 63);
  OPT_CHECK(sp(hf, 0, 0, 1)->area == 63);
  op_hf_free(hf);
}

OPT_MAIN_BEGIN
OPT_RUN(filter_low_hanging);
OPT_RUN(filter_ledge_flat);
OPT_RUN(filter_ledge_climb_limit);
OPT_RUN(filter_ledge_steep);
OPT_RUN(filter_ledge_gaps);
OPT_RUN(filter_low_height);
OPT_MAIN_END
