/*
** test_raster.c -- the solid heightfield: grid, slope test, clipping, span rows, span
** insertion and merging, heightfield input (spec/build3d-spans.md section 3). Every
** expected value is worked out by hand from the clause named by the test.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onepath_build3d.h"
#include "optest.h"

/* A small grid: origin 0, cs 1, ch 0.5, 4 x 4 columns, 20 rows (y in [0, 10]). */
static op_hf_grid grid4(void) {
  op_hf_grid g;
  memset(&g, 0, sizeof g);
  g.cs = 1;
  g.ch = 0.5;
  g.width = g.depth = 4;
  g.height = 20;
  return g;
}

static op_hf *mk(void) {
  op_hf_grid g = grid4();
  op_hf *hf = NULL;
  if (op_hf_create(&g, &hf, NULL) != OP_OK) return NULL;
  return hf;
}

/* Number of spans in column (x, z), and the k-th span (from the lowest). */
static int ncol(const op_hf *hf, int x, int z) {
  int n = 0;
  for (uint32_t i = hf->head[z * hf->grid.width + x]; i != OP_HF_NONE; i = hf->pool[i].next) n++;
  return n;
}
static const op_hf_span *colspan(const op_hf *hf, int x, int z, int k) {
  uint32_t i = hf->head[z * hf->grid.width + x];
  while (k-- > 0 && i != OP_HF_NONE) i = hf->pool[i].next;
  return i == OP_HF_NONE ? NULL : &hf->pool[i];
}
static int total(const op_hf *hf) {
  int n = 0;
  for (int z = 0; z < hf->grid.depth; z++)
    for (int x = 0; x < hf->grid.width; x++) n += ncol(hf, x, z);
  return n;
}

static double cos45(void) {
  double s, c;
  op_sincos(45 * 0x1.1df46a2529d39p-6, &s, &c, NULL);
  return c;
}

/* SPAN-104 with SPAN-024: cos(45 deg) rounds above 1/sqrt(2), so c2 = 0.5 + 2^-53 and a
** ramp rising 1 per 1 (ny^2 = 1, L = 2) fails: 1 > fl(c2 * 2) = 1 + 2^-52 is false. */
OPT_TEST(raster_slope_at_limit, "SPAN-104") {
  double c = cos45();
  OPT_CHECK(c == 0x1.6a09e667f3bcdp-1);
  OPT_CHECK(c * c == 0x1.0000000000001p-1);
  double v0[3] = {0, 0, 0}, v1[3] = {0, 1, 1}, v2[3] = {1, 0, 0};
  /* e0 = (0,1,1), e1 = (1,0,0): nx = 0, ny = 1*1 - 0*0 = 1, nz = 0*0 - 1*1 = -1 */
  OPT_CHECK(!op_tri_walkable(v0, v1, v2, c));
  /* a little less steep: rise 0.999 -> L = 1.998001, c2 * L < 1 */
  double w1[3] = {0, 0.999, 1};
  OPT_CHECK(op_tri_walkable(v0, w1, v2, c));
  /* the 45 degree ramp at a 60 degree limit (cos < 0.5000001) */
  double s, c60;
  op_sincos(60 * 0x1.1df46a2529d39p-6, &s, &c60, NULL);
  OPT_CHECK(op_tri_walkable(v0, v1, v2, c60));
}

/* SPAN-104 step 3 and 5: flat at a 0 degree limit (c = 1): 1 > 1 is false; a floor
** wound the other way (ny < 0) and a vertical triangle (ny = 0) never walk. */
OPT_TEST(raster_slope_edges, "SPAN-104") {
  double v0[3] = {0, 0, 0}, v1[3] = {0, 0, 1}, v2[3] = {1, 0, 0};
  OPT_CHECK(op_tri_walkable(v0, v1, v2, 0.5));
  OPT_CHECK(!op_tri_walkable(v0, v1, v2, 1.0));
  OPT_CHECK(!op_tri_walkable(v0, v2, v1, 0.0));
  double w0[3] = {0, 0, 0}, w1[3] = {0, 1, 0}, w2[3] = {0, 0, 1};
  OPT_CHECK(!op_tri_walkable(w0, w1, w2, 0.0));
}

static op_status rast(op_hf *hf, const double *verts, uint32_t nv, const uint32_t *tris,
                      uint32_t nt, double sc, int climb, op_error *e) {
  op_soup s;
  s.nverts = nv;
  s.verts = verts;
  s.ntris = nt;
  s.tris = tris;
  return op_hf_rasterize(hf, &s, NULL, 0, sc, climb, e);
}

/* SPAN-105, SPAN-108: a flat triangle inside cell (1, 1) at y = 1.2: qa = qb = 2.4,
** smin = 2, smax = ceil(2.4) = 3, walkable. */
OPT_TEST(raster_one_cell, "SPAN-108") {
  op_hf *hf = mk();
  double v[] = {1.2, 1.2, 1.2, 1.2, 1.2, 1.8, 1.8, 1.2, 1.2};
  uint32_t t[] = {0, 1, 2};
  OPT_CHECK(rast(hf, v, 3, t, 1, 0.5, 2, NULL) == OP_OK);
  OPT_CHECK(total(hf) == 1);
  const op_hf_span *s = colspan(hf, 1, 1, 0);
  OPT_CHECK(s && s->smin == 2 && s->smax == 3 && s->area == OP_AREA_WALKABLE);
  op_hf_free(hf);
}

/* SPAN-106: a triangle filling half of cell (1, 1) with two edges on cell lines: the
** cells beyond those lines get a piece of 1 or 2 vertices, which is empty. Flat at
** y = 1: qa = qb = 2, smin = 2, smax = max(2, smin + 1) = 3. */
OPT_TEST(raster_touching_lines, "SPAN-106") {
  op_hf *hf = mk();
  double v[] = {1, 1, 1, 1, 1, 2, 2, 1, 1};
  uint32_t t[] = {0, 1, 2};
  OPT_CHECK(rast(hf, v, 3, t, 1, 0.5, 2, NULL) == OP_OK);
  OPT_CHECK(total(hf) == 1);
  const op_hf_span *s = colspan(hf, 1, 1, 0);
  OPT_CHECK(s && s->smin == 2 && s->smax == 3 && s->area == OP_AREA_WALKABLE);
  op_hf_free(hf);
}

/* SPAN-105 step 3, SPAN-106: a vertical triangle lying in the cell line x = 2 (z in
** [1.2, 1.8], row 1): the splits put all three vertices into columns 1 and 2, but in
** column 1 they all lie on its upper line x = 2, so that piece is empty: only column 2
** (x in [2, 3]) gets the span, rows [0, 4] (y 0 to 2), area 0 (ny = 0). Likewise a wall
** in the line z = 3 (x in [0.2, 0.8]) goes to row 3 only. */
OPT_TEST(raster_wall_on_line, "SPAN-105") {
  op_hf *hf = mk();
  double v[] = {2, 0, 1.2, 2, 2, 1.2, 2, 0, 1.8,
                0.2, 0, 3, 0.8, 0, 3, 0.2, 1, 3};
  uint32_t t[] = {0, 1, 2, 3, 4, 5};
  OPT_CHECK(rast(hf, v, 6, t, 2, 0.5, 2, NULL) == OP_OK);
  OPT_CHECK(total(hf) == 2);
  const op_hf_span *b = colspan(hf, 2, 1, 0), *c = colspan(hf, 0, 3, 0);
  OPT_CHECK(ncol(hf, 1, 1) == 0 && ncol(hf, 0, 2) == 0);
  OPT_CHECK(b && b->smin == 0 && b->smax == 4 && b->area == 0);
  OPT_CHECK(c && c->smin == 0 && c->smax == 2 && c->area == 0);
  op_hf_free(hf);
}

/* SPAN-105, SPAN-106, SPAN-108: a ramp y = x / 2 across columns 0 and 1 of row 0
** (ch = 0.25 here). Split at x = 1: on edge v1 -> v2, d = 1 and -1, s = 0.5, y = 0.5;
** on v2 -> v0 likewise y = 0.5. Column 0: y in [0, 0.5] -> rows [0, 2]; column 1:
** y in [0.5, 1] -> rows [2, 4]; column 2 gets only the vertex v2: empty. Walkable at
** c = 1/2 (ny = 1.2, L = 1.8: 1.44 > 0.25 * 1.8). */
OPT_TEST(raster_clip_ramp, "SPAN-106") {
  op_hf_grid g = grid4();
  g.ch = 0.25;
  op_hf *hf = NULL;
  OPT_CHECK(op_hf_create(&g, &hf, NULL) == OP_OK);
  double v[] = {0, 0, 0.2, 0, 0, 0.8, 2, 1, 0.2};
  uint32_t t[] = {0, 1, 2};
  OPT_CHECK(rast(hf, v, 3, t, 1, 0.5, 0, NULL) == OP_OK);
  OPT_CHECK(total(hf) == 2);
  const op_hf_span *a = colspan(hf, 0, 0, 0), *b = colspan(hf, 1, 0, 0);
  OPT_CHECK(a && a->smin == 0 && a->smax == 2 && a->area == OP_AREA_WALKABLE);
  OPT_CHECK(b && b->smin == 2 && b->smax == 4 && b->area == OP_AREA_WALKABLE);
  op_hf_free(hf);
}

/* SPAN-108 steps 2-4: rows are clamped to [0, height]: a flat triangle at y = 12
** (qa = 24 > 20) adds nothing; at y = 10 (qa = 20 = H) it gives [19, 20]; at y = -1
** (qb < 0) nothing; a wall from y = -3 to 30 gives [0, 20]. */
OPT_TEST(raster_row_clamp, "SPAN-108") {
  op_hf *hf = mk();
  double v[] = {1.2, 12, 1.2, 1.2, 12, 1.8, 1.8, 12, 1.2,   /* y = 12, cell (1,1) */
                2.2, 10, 1.2, 2.2, 10, 1.8, 2.8, 10, 1.2,   /* y = 10, cell (2,1) */
                1.2, -1, 2.2, 1.2, -1, 2.8, 1.8, -1, 2.2,   /* y = -1, cell (1,2) */
                0.5, -3, 0.2, 0.5, 30, 0.2, 0.5, -3, 0.8};  /* wall in cell (0,0) */
  uint32_t t[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  OPT_CHECK(rast(hf, v, 12, t, 4, 0.5, 2, NULL) == OP_OK);
  OPT_CHECK(total(hf) == 2);
  const op_hf_span *a = colspan(hf, 2, 1, 0), *w = colspan(hf, 0, 0, 0);
  OPT_CHECK(a && a->smin == 19 && a->smax == 20);
  OPT_CHECK(w && w->smin == 0 && w->smax == 20 && w->area == 0);
  op_hf_free(hf);
}

/* SPAN-109, ch = 0.1: a flat triangle at y = 0.3 has q = 0.3 / 0.1 = 2.9999999999999996,
** snapped to 3: rows [3, 4] (without the snap: [2, 3]). A wall from y = 0 to
** 0.30000000000000004 (0.1 + 0.2) has qb = 3.0000000000000004, snapped 3: [0, 3]
** (without: ceil gives 4). A flat at y = 2.95 (q = 29.5, far from an integer): [29, 30]. */
OPT_TEST(raster_snap, "SPAN-109") {
  OPT_CHECK(0.3 / 0.1 == 2.9999999999999996 && (0.1 + 0.2) / 0.1 == 3.0000000000000004);
  op_hf_grid g = grid4();
  g.ch = 0.1;
  g.height = 100;
  op_hf *hf = NULL;
  OPT_CHECK(op_hf_create(&g, &hf, NULL) == OP_OK);
  double y = 0.1 + 0.2;
  double v[] = {1.2, 0.3, 1.2, 1.2, 0.3, 1.8, 1.8, 0.3, 1.2,
                2.5, 0, 1.2, 2.5, y, 1.2, 2.5, 0, 1.8,
                0.2, 2.95, 1.2, 0.2, 2.95, 1.8, 0.8, 2.95, 1.2};
  uint32_t t[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  OPT_CHECK(rast(hf, v, 9, t, 3, 0.5, 0, NULL) == OP_OK);
  const op_hf_span *a = colspan(hf, 1, 1, 0), *b = colspan(hf, 2, 1, 0), *c = colspan(hf, 0, 1, 0);
  OPT_CHECK(a && a->smin == 3 && a->smax == 4);
  OPT_CHECK(b && b->smin == 0 && b->smax == 3);
  OPT_CHECK(c && c->smin == 29 && c->smax == 30);
  op_hf_free(hf);
}

/* SPAN-100: cell lines come from global indices: a grid with gx0 = 1 puts global column
** 1 (x in [1, 2]) at local column 0; the ramp's piece in global column 0 lies outside
** the grid and global column 2 gets only a vertex, so one span, rows [2, 4]. */
OPT_TEST(raster_global_lines, "SPAN-100") {
  op_hf_grid g = grid4();
  g.ch = 0.25;
  g.gx0 = 1;
  op_hf *hf = NULL;
  OPT_CHECK(op_hf_create(&g, &hf, NULL) == OP_OK);
  double v[] = {0, 0, 0.2, 0, 0, 0.8, 2, 1, 0.2};
  uint32_t t[] = {0, 1, 2};
  OPT_CHECK(rast(hf, v, 3, t, 1, 0.5, 0, NULL) == OP_OK);
  OPT_CHECK(total(hf) == 1);
  const op_hf_span *b = colspan(hf, 0, 0, 0);
  OPT_CHECK(b && b->smin == 2 && b->smax == 4);
  op_hf_free(hf);
}

static op_hf *col_with(const int32_t (*sp)[3], int n, int climb) {
  op_hf *hf = mk();
  for (int i = 0; i < n; i++)
    if (op_hf_add_span(hf, 0, 0, sp[i][0], sp[i][1], (uint8_t)sp[i][2], climb, NULL) != OP_OK)
      return NULL;
  return hf;
}

/* SPAN-110: disjoint spans stay apart; touching spans merge; one span swallowing three. */
OPT_TEST(raster_merge_shape, "SPAN-110") {
  const int32_t a[][3] = {{0, 5, 63}, {6, 8, 63}};
  op_hf *hf = col_with(a, 2, 1);
  OPT_CHECK(hf && ncol(hf, 0, 0) == 2);
  op_hf_free(hf);
  const int32_t b[][3] = {{0, 5, 63}, {5, 6, 63}};
  hf = col_with(b, 2, 1);
  OPT_CHECK(hf && ncol(hf, 0, 0) == 1 && colspan(hf, 0, 0, 0)->smax == 6);
  op_hf_free(hf);
  /* [0,2] a0, [4,6] a0, [8,10] a5, then [1,9] a0 with climb 1: merging [0,2] gives
  ** [0,9], t = 7 > 1; [4,6]: t = 3; [8,10]: smax -> 10, t = 0 -> max(0, 5) = 5. */
  const int32_t c[][3] = {{0, 2, 0}, {4, 6, 0}, {8, 10, 5}, {1, 9, 0}};
  hf = col_with(c, 4, 1);
  OPT_CHECK(hf && ncol(hf, 0, 0) == 1);
  const op_hf_span *s = hf ? colspan(hf, 0, 0, 0) : NULL;
  OPT_CHECK(s && s->smin == 0 && s->smax == 10 && s->area == 5);
  OPT_CHECK(hf && hf->count == 1);
  op_hf_free(hf);
}

/* SPAN-111: climb exactly at the limit merges areas (t = |7 - 5| = 2 <= 2), one more
** does not (t = 3: the new top's area 0 stays); an old span reaching higher gives t = 0. */
OPT_TEST(raster_merge_area_climb, "SPAN-111") {
  const int32_t a[][3] = {{0, 5, 63}, {2, 7, 0}};
  op_hf *hf = col_with(a, 2, 2);
  const op_hf_span *s = hf ? colspan(hf, 0, 0, 0) : NULL;
  OPT_CHECK(s && s->smin == 0 && s->smax == 7 && s->area == 63);
  op_hf_free(hf);
  const int32_t b[][3] = {{0, 5, 63}, {2, 8, 0}};
  hf = col_with(b, 2, 2);
  s = hf ? colspan(hf, 0, 0, 0) : NULL;
  OPT_CHECK(s && s->smax == 8 && s->area == 0);
  op_hf_free(hf);
  const int32_t c[][3] = {{0, 10, 0}, {2, 4, 63}};
  hf = col_with(c, 2, 0);
  s = hf ? colspan(hf, 0, 0, 0) : NULL;
  OPT_CHECK(s && s->smin == 0 && s->smax == 10 && s->area == 63);
  op_hf_free(hf);
  /* new span above by more than climb keeps its own (walkable) area */
  const int32_t d[][3] = {{0, 5, 0}, {3, 8, 63}};
  hf = col_with(d, 2, 2);
  s = hf ? colspan(hf, 0, 0, 0) : NULL;
  OPT_CHECK(s && s->smax == 8 && s->area == 63);
  op_hf_free(hf);
}

/* SPAN-103: two overlapping triangles in one cell merge in input order. Floor at y = 1
** (rows [2, 3], walkable) then a flat triangle at y = 2.6 (rows [5, 6]) and a wall from
** y = 0 to 2.4 (rows [0, 5], area 0) merging both: with climb 1, merging the floor
** span [2,3]: new [0,5], t = 2 > 1, area 0; then [5,6] touches: [0,6], t = 0 -> 63. */
OPT_TEST(raster_input_order, "SPAN-103") {
  op_hf *hf = mk();
  double v[] = {1.2, 1, 1.2, 1.2, 1, 1.8, 1.8, 1, 1.2,
                1.2, 2.6, 1.2, 1.2, 2.6, 1.8, 1.8, 2.6, 1.2,
                1.5, 0, 1.2, 1.5, 2.4, 1.2, 1.5, 0, 1.8};
  uint32_t t[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  OPT_CHECK(rast(hf, v, 9, t, 3, 0.5, 1, NULL) == OP_OK);
  OPT_CHECK(ncol(hf, 1, 1) == 1);
  const op_hf_span *s = colspan(hf, 1, 1, 0);
  OPT_CHECK(s && s->smin == 0 && s->smax == 6 && s->area == 63);
  op_hf_free(hf);
}

/* SPAN-103, SPAN-110, SPAN-100: errors name the field, and a failed call changes nothing. */
OPT_TEST(raster_errors, "SPAN-103") {
  op_hf *hf = mk();
  op_error e;
  OPT_CHECK(op_hf_add_span(hf, 4, 0, 0, 1, 63, 0, &e) == OP_E_RANGE && !strcmp(e.field, "x"));
  OPT_CHECK(op_hf_add_span(hf, 0, 0, 3, 3, 63, 0, &e) == OP_E_RANGE && !strcmp(e.field, "smax"));
  OPT_CHECK(op_hf_add_span(hf, 0, 0, 0, 21, 63, 0, &e) == OP_E_RANGE && !strcmp(e.field, "smax"));
  OPT_CHECK(op_hf_add_span(hf, 0, 0, 0, 1, 64, 0, &e) == OP_E_RANGE && !strcmp(e.field, "area"));
  OPT_CHECK(op_hf_add_span(hf, 0, 0, 0, 1, 63, 0, &e) == OP_OK);
  double v[] = {1.2, 1, 1.2, 1.2, 1, 1.8, 1.8, 1, 1.2};
  uint32_t bad[] = {0, 1, 3};
  OPT_CHECK(rast(hf, v, 3, bad, 1, 0.5, 1, &e) == OP_E_RANGE && !strcmp(e.field, "tris[0][2]"));
  double nanv[] = {1.2, 1, 1.2, 1.2, 1, 1.8, 1.8, 1, NAN};
  uint32_t t[] = {0, 1, 2};
  OPT_CHECK(rast(hf, nanv, 3, t, 1, 0.5, 1, &e) == OP_E_RANGE && !strcmp(e.field, "verts[2].z"));
  OPT_CHECK(total(hf) == 1);
  op_soup s = {3, v, 1, t};
  uint32_t list[] = {1};
  OPT_CHECK(op_hf_rasterize(hf, &s, list, 1, 0.5, 1, &e) == OP_E_RANGE &&
            !strcmp(e.field, "tris[0]"));
  OPT_CHECK(total(hf) == 1);
  op_hf_grid g = grid4();
  g.height = 65536;
  op_hf *h2 = NULL;
  OPT_CHECK(op_hf_create(&g, &h2, &e) == OP_E_RANGE && !strcmp(e.field, "grid.height") && !h2);
  g = grid4();
  g.cs = 0;
  OPT_CHECK(op_hf_grid_validate(&g, &e) == OP_E_RANGE && !strcmp(e.field, "grid.cs"));
  op_hf_free(hf);
}

/* SPAN-102: tile (1, 2) of the Humanoid preset: border 5, tile 64: gx0 = 64 - 5 = 59,
** gz0 = 128 - 5 = 123, 74 columns; y range [0, 2.05] at ch 0.1: q = 20.499999999999996
** (2.05 / 0.1 rounded), snapped 20.5, ceil 21, plus the spare row: 22. [0, 6553.4]:
** q = 65533.99999999999, snapped 65534, height 65535; [0, 6553.5]: 65535 + 1 > 65535, a limit error.
** [0, 3]: 3 / 0.1 = 30: height 31, so a floor at y = 3 keeps rows [30, 31]. */
OPT_TEST(raster_tile_grid, "SPAN-102") {
  op_settings s;
  memset(&s, 0, sizeof s);
  s.cell_size = 0.3;
  s.cell_height = 0.1;
  s.tile_cells = 64;
  op_cell_settings c;
  memset(&c, 0, sizeof c);
  c.border = 5;
  double o[3] = {-10, 0, 7};
  op_hf_grid g;
  op_error e;
  OPT_CHECK(op_hf_grid_tile(&s, &c, o, 1, 2, 0, 2.05, &g, &e) == OP_OK);
  OPT_CHECK(g.gx0 == 59 && g.gz0 == 123 && g.width == 74 && g.depth == 74);
  OPT_CHECK(g.height == 22 && g.origin[0] == -10 && g.origin[2] == 7);
  OPT_CHECK(op_hf_grid_tile(&s, &c, o, 0, 0, 0, 6553.4, &g, &e) == OP_OK && g.height == 65535);
  OPT_CHECK(op_hf_grid_tile(&s, &c, o, 0, 0, 0, 6553.5, &g, &e) == OP_E_LIMIT &&
            !strcmp(e.field, "y1"));
  OPT_CHECK(op_hf_grid_tile(&s, &c, o, 0, 0, 0, 3, &g, &e) == OP_OK && g.height == 31);
  OPT_CHECK(op_hf_grid_tile(&s, &c, o, 0, 0, 1, 0.5, &g, &e) == OP_E_RANGE &&
            !strcmp(e.field, "y1"));
}

/* SPAN-113: heightfield input. Input 2 x 1 columns at origin 0; the grid starts at
** global column 1 (gx0 = 1), so only input column (1, 0) enters, as local column 0. */
OPT_TEST(raster_columns, "SPAN-113") {
  op_hf_grid g = grid4();
  g.gx0 = 1;
  op_hf *hf = NULL;
  OPT_CHECK(op_hf_create(&g, &hf, NULL) == OP_OK);
  op_solid_span sp[3] = {{0, 2, 63}, {0, 3, 0}, {5, 9, 63}};
  uint32_t cs[3] = {0, 1, 3};
  op_solid_columns in;
  memset(&in, 0, sizeof in);
  in.width = 2;
  in.depth = 1;
  in.col_start = cs;
  in.nspans = 3;
  in.spans = sp;
  OPT_CHECK(op_hf_add_columns(hf, &in, 1, NULL) == OP_OK);
  OPT_CHECK(total(hf) == 2 && ncol(hf, 0, 0) == 2);
  const op_hf_span *a = colspan(hf, 0, 0, 0), *b = colspan(hf, 0, 0, 1);
  OPT_CHECK(a && a->smin == 0 && a->smax == 3 && a->area == 0);
  OPT_CHECK(b && b->smin == 5 && b->smax == 9 && b->area == 63);
  /* a span above the grid's rows: error, nothing changes */
  op_solid_span sp2[1] = {{0, 21, 63}};
  uint32_t cs2[3] = {0, 0, 1};
  in.spans = sp2;
  in.col_start = cs2;
  in.nspans = 1;
  op_error e;
  OPT_CHECK(op_hf_add_columns(hf, &in, 1, &e) == OP_E_RANGE && !strcmp(e.field, "spans[0].ymax"));
  OPT_CHECK(total(hf) == 2);
  in.origin[1] = 1;
  OPT_CHECK(op_hf_add_columns(hf, &in, 1, &e) == OP_E_ARGUMENT && !strcmp(e.field, "grid"));
  op_hf_free(hf);
}

/* Compare the spans (rows, optionally areas) of column (xa, za) of a and (xb, zb) of b. */
static int same_column(const op_hf *a, int xa, int za, const op_hf *b, int xb, int zb,
                       int with_area) {
  uint32_t i = a->head[za * a->grid.width + xa], j = b->head[zb * b->grid.width + xb];
  for (; i != OP_HF_NONE && j != OP_HF_NONE; i = a->pool[i].next, j = b->pool[j].next) {
    const op_hf_span *p = &a->pool[i], *q = &b->pool[j];
    if (p->smin != q->smin || p->smax != q->smax) return 0;
    if (with_area && p->area != q->area) return 0;
  }
  return i == OP_HF_NONE && j == OP_HF_NONE;
}

/* SPAN-106, SPAN-103: properties on 300 random triangles (PRNG of math.md, seed 5) in a
** 16 x 16 grid: (1) the crossing of an edge does not depend on the direction it is walked,
** so rotating a triangle's vertices (v1, v2, v0) gives the same spans and areas, and
** reversing them (v0, v2, v1) the same rows; (2) rasterizing the list in one call equals
** one call per triangle in the same order; (3) every column stays ascending with gaps. */
OPT_TEST(raster_properties, "SPAN-106") {
  op_hf_grid g;
  memset(&g, 0, sizeof g);
  g.origin[0] = -1.25;
  g.origin[1] = -2;
  g.origin[2] = 0.5;
  g.cs = 0.3;
  g.ch = 0.1;
  g.width = g.depth = 16;
  g.height = 80;
  op_prng r;
  op_prng_seed(&r, 5);
  enum { N = 300 };
  static double v[N * 9], vr[N * 9], vw[N * 9];
  static uint32_t t[N * 3];
  for (int i = 0; i < N; i++) {
    double cx = -1.25 + 4.8 * op_prng_unit(&r), cz = 0.5 + 4.8 * op_prng_unit(&r);
    for (int k = 0; k < 3; k++) {
      v[9 * i + 3 * k] = cx + 1.2 * (op_prng_unit(&r) - 0.5);
      v[9 * i + 3 * k + 1] = -2 + 8 * op_prng_unit(&r);
      v[9 * i + 3 * k + 2] = cz + 1.2 * (op_prng_unit(&r) - 0.5);
    }
    for (int k = 0; k < 3; k++)
      for (int c = 0; c < 3; c++) {
        vr[9 * i + 3 * k + c] = v[9 * i + 3 * ((k + 1) % 3) + c];
        vw[9 * i + 3 * k + c] = v[9 * i + 3 * ((3 - k) % 3) + c];
      }
    for (int k = 0; k < 3; k++) t[3 * i + k] = (uint32_t)(3 * i + k);
  }
  op_hf *a = NULL, *b = NULL, *c = NULL, *d = NULL;
  OPT_CHECK(op_hf_create(&g, &a, NULL) == OP_OK && op_hf_create(&g, &b, NULL) == OP_OK);
  OPT_CHECK(op_hf_create(&g, &c, NULL) == OP_OK && op_hf_create(&g, &d, NULL) == OP_OK);
  op_soup sa = {3 * N, v, N, t}, sr = {3 * N, vr, N, t}, sw = {3 * N, vw, N, t};
  double sc = 0.5;
  OPT_CHECK(op_hf_rasterize(a, &sa, NULL, 0, sc, 0, NULL) == OP_OK);
  OPT_CHECK(op_hf_rasterize(b, &sr, NULL, 0, sc, 0, NULL) == OP_OK);
  OPT_CHECK(op_hf_rasterize(c, &sw, NULL, 0, 0.0, 0, NULL) == OP_OK);
  for (uint32_t i = 0; i < N; i++)
    OPT_CHECK(op_hf_rasterize(d, &sa, &i, 1, sc, 0, NULL) == OP_OK);
  int rot = 1, rev = 1, one = 1, order = 1;
  for (int z = 0; z < 16; z++)
    for (int x = 0; x < 16; x++) {
      rot &= same_column(a, x, z, b, x, z, 1);
      rev &= same_column(a, x, z, c, x, z, 0);
      one &= same_column(a, x, z, d, x, z, 1);
      uint32_t i = a->head[z * 16 + x];
      while (i != OP_HF_NONE && a->pool[i].next != OP_HF_NONE) {
        order &= a->pool[i].smin < a->pool[i].smax &&
                 a->pool[i].smax < a->pool[a->pool[i].next].smin;
        i = a->pool[i].next;
      }
    }
  OPT_CHECK(rot && rev && one && order);
  OPT_CHECK(a->count > 100);
  op_hf_free(a);
  op_hf_free(b);
  op_hf_free(c);
  op_hf_free(d);
}

/* SPAN-100, SPAN-102: neighbouring tiles share border cells; cell lines come from global
** indices, so a shared cell gets the same solid spans in both tiles' heightfields (city
** level, Humanoid: tile (0, 0) covers global columns -5..68, tile (1, 0) 59..132). */
OPT_TEST(raster_tiles_agree, "SPAN-100") {
  op_settings s;
  op_cell_settings c;
  OPT_CHECK(op_settings_preset("Humanoid", &s, NULL) == OP_OK);
  OPT_CHECK(op_settings_derive(&s, &c, NULL) == OP_OK);
  op_trimesh m;
  memset(&m, 0, sizeof m);
  OPT_CHECK(op_level_generate("city", 3, 2, &s, &m, NULL) == OP_OK);
  op_soup soup = op_trimesh_soup(&m);
  double o[3], ymax;
  OPT_CHECK(op_soup_frame(&soup, o, &ymax, NULL) == OP_OK);
  op_hf_grid g0, g1;
  OPT_CHECK(op_hf_grid_tile(&s, &c, o, 0, 0, o[1], ymax, &g0, NULL) == OP_OK);
  OPT_CHECK(op_hf_grid_tile(&s, &c, o, 1, 0, o[1], ymax, &g1, NULL) == OP_OK);
  op_hf *a = NULL, *b = NULL;
  OPT_CHECK(op_hf_create(&g0, &a, NULL) == OP_OK && op_hf_create(&g1, &b, NULL) == OP_OK);
  OPT_CHECK(op_hf_rasterize(a, &soup, NULL, 0, c.slope_cos, c.walkable_climb, NULL) == OP_OK);
  OPT_CHECK(op_hf_rasterize(b, &soup, NULL, 0, c.slope_cos, c.walkable_climb, NULL) == OP_OK);
  int agree = 1, nonempty = 0;
  for (int gx = 59; gx <= 68; gx++)
    for (int z = 0; z < g0.depth; z++) {
      agree &= same_column(a, gx - g0.gx0, z, b, gx - g1.gx0, z, 1);
      nonempty += a->head[z * g0.width + (gx - g0.gx0)] != OP_HF_NONE;
    }
  OPT_CHECK(agree && nonempty > 0);
  op_hf_free(a);
  op_hf_free(b);
  op_trimesh_free(&m);
}

OPT_MAIN_BEGIN
OPT_RUN(raster_slope_at_limit);
OPT_RUN(raster_slope_edges);
OPT_RUN(raster_one_cell);
OPT_RUN(raster_touching_lines);
OPT_RUN(raster_wall_on_line);
OPT_RUN(raster_clip_ramp);
OPT_RUN(raster_row_clamp);
OPT_RUN(raster_snap);
OPT_RUN(raster_global_lines);
OPT_RUN(raster_merge_shape);
OPT_RUN(raster_merge_area_climb);
OPT_RUN(raster_input_order);
OPT_RUN(raster_errors);
OPT_RUN(raster_tile_grid);
OPT_RUN(raster_columns);
OPT_RUN(raster_properties);
OPT_RUN(raster_tiles_agree);
OPT_MAIN_END
