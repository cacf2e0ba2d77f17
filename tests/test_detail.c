/*
** test_detail.c -- the detail mesh (build3d-polys.md section 4) and NavTileAssembler
** (section 5.1) on hand-made polygon meshes. Expected values are derived by hand from the
** clauses (the arithmetic written out in each test), never copied from the output.
*/
#include <math.h>
#include <stdlib.h>

#include "assembly.h"
#include "internal.h"
#include "optest.h"

static op_settings no_sampling(void) {
  op_settings s;
  op_error e;
  op_settings_preset("Humanoid", &s, &e);
  s.detail_sample_distance = 0;
  return s;
}

OPT_TEST(detail_threshold, "POLY-202") {
  op_settings s = no_sampling();
  op_error e;
  OPT_CHECK(op_detail_check(&s, &e) == OP_OK);
  s.detail_sample_distance = 0.9; /* SPAN-025: at or below 0.9 cells, no sampling */
  OPT_CHECK(op_detail_check(&s, &e) == OP_OK);
  s.detail_sample_distance = 0.9000000000000001; /* the double above 0.9: it samples */
  OPT_CHECK(op_detail_check(&s, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "detail_sample_distance") == 0 &&
            strcmp(e.value, "0.9000000000000001") == 0);
  op_settings_preset("Humanoid", &s, &e); /* the presets sample, 6 cells */
  OPT_CHECK(op_detail_check(&s, &e) == OP_E_ARGUMENT && strcmp(e.value, "6") == 0);
}

/* A hand-made tile: TileSize 8, Border 2 (grid 12 x 12), one square polygon over the whole
** tile with rows 5, 7, 5, 6 at its corners, portal codes on all four sides. */
typedef struct hand {
  op_hf_grid grid;
  op_tiling tiling;
  op_pmesh pm;
  int32_t verts[3 * 4];
  uint16_t polys[6], neis[6], regs[1], flags[1];
  uint8_t areas[1];
} hand;

static void hand_init(hand *h, double cs, double ch) {
  op_error e;
  memset(h, 0, sizeof *h);
  h->grid.origin[0] = 10;
  h->grid.origin[1] = 3;
  h->grid.origin[2] = -4;
  h->grid.cs = cs;
  h->grid.ch = ch;
  h->grid.gx0 = -2;
  h->grid.gz0 = -2;
  h->grid.width = 12;
  h->grid.depth = 12;
  h->grid.height = 100;
  h->tiling.origin[0] = 10;
  h->tiling.origin[1] = 3;
  h->tiling.origin[2] = -4;
  h->tiling.cell_size = cs;
  h->tiling.cell_height = ch;
  h->tiling.tile_cells = 8;
  h->tiling.max_verts_per_poly = 6;
  op_tilemap_init(&h->pm.map, &h->grid, 2, &e);
  static const int32_t v[12] = {0, 5, 0, 8, 7, 0, 8, 5, 8, 0, 6, 8};
  memcpy(h->verts, v, sizeof v);
  static const uint16_t p[6] = {0, 1, 2, 3, OP_PMESH_NULL, OP_PMESH_NULL};
  static const uint16_t n[6] = {0x8003, 0x8002, 0x8001, 0x8000, 0, 0};
  memcpy(h->polys, p, sizeof p);
  memcpy(h->neis, n, sizeof n);
  h->regs[0] = 1;
  h->areas[0] = 63;
  h->flags[0] = 0; /* POLY-076: the polygon stage leaves flags 0 */
  h->pm.nvp = 6;
  h->pm.nverts = 4;
  h->pm.verts = h->verts;
  h->pm.npolys = 1;
  h->pm.polys = h->polys;
  h->pm.neis = h->neis;
  h->pm.regs = h->regs;
  h->pm.areas = h->areas;
  h->pm.flags = h->flags;
}

OPT_TEST(no_detail_mesh, "POLY-201") {
  hand h;
  hand_init(&h, 0.5, 0.25);
  op_settings s = no_sampling();
  op_detail_mesh d;
  memset(&d, 0xff, sizeof d);
  op_error e;
  OPT_CHECK(op_detail_build(&s, &h.pm, NULL, &d, &e) == OP_OK);
  OPT_CHECK(d.ndetail == 0 && d.nverts == 0 && d.ntris == 0 && !d.detail && !d.verts && !d.tris);
  s.detail_sample_distance = 6;
  memset(&d, 0x5a, sizeof d);
  OPT_CHECK(op_detail_build(&s, &h.pm, NULL, &d, &e) == OP_E_ARGUMENT);
  OPT_CHECK(d.ndetail == 0x5a5a5a5au); /* a failed call changes nothing */
}

/* Dyadic sizes: every value exact. ymin = 5, Y = 1.25, origin_y = 3 + 1.25 = 4.25; local y
** = (row - 5) * 0.25: 0, 0.5, 0, 0.25; x, z = cells * 0.5: 0 or 4 (= fW = 8 * 0.5). */
/* (POLY-216: the tile's flags are 1 whatever the polygon mesh holds.) */
OPT_TEST(assemble_exact, "POLY-212") {
  hand h;
  hand_init(&h, 0.5, 0.25);
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 3, -1, 0, &h.tiling, 3.0, &t, &e) == OP_OK);
  OPT_CHECK(t != NULL);
  if (!t) return;
  op_tile_desc v;
  op_tile_view(t, &v);
  OPT_CHECK(v.x == 3 && v.z == -1 && v.layer == 0 && v.origin_y == 4.25);
  static const float want[12] = {0, 0, 0, 4, 0.5f, 0, 4, 0, 4, 0, 0.25f, 4};
  OPT_CHECK(v.nverts == 4 && memcmp(v.verts, want, sizeof want) == 0);
  OPT_CHECK(v.npolys == 1 && v.polys[0].nverts == 4 && v.polys[0].area == 63 &&
            v.polys[0].flags == 1);
  OPT_CHECK(v.polys[0].neis[0] == 0x8003 && v.polys[0].neis[1] == 0x8002 &&
            v.polys[0].neis[2] == 0x8001 && v.polys[0].neis[3] == 0x8000);
  OPT_CHECK(v.ndetail == 0 && v.noffmesh == 0);
  /* the same tile written by hand through NavTile.Create has the same content id */
  op_tile_desc d;
  memset(&d, 0, sizeof d);
  d.x = 3;
  d.z = -1;
  d.tiling = h.tiling;
  d.origin_y = 4.25;
  d.nverts = 4;
  d.verts = want;
  op_poly_desc p;
  memset(&p, 0, sizeof p);
  p.nverts = 4;
  p.area = 63;
  p.flags = 1;
  for (int j = 0; j < 4; j++) p.verts[j] = (uint16_t)j;
  p.neis[0] = 0x8003;
  p.neis[1] = 0x8002;
  p.neis[2] = 0x8001;
  p.neis[3] = 0x8000;
  d.npolys = 1;
  d.polys = &p;
  op_tile *t2 = NULL;
  OPT_CHECK(op_tile_create(&d, &t2, &e) == OP_OK);
  OPT_CHECK(t2 && op_tile_content_id(t2) == op_tile_content_id(t));
  op_tile_free(t2);
  op_tile_free(t);
}

/* Non-dyadic sizes: the roundings of POLY-212 and POLY-213 written out. cs = 0.3,
** ch = 0.2: Y = fl(5 * 0.2); local y of row 7 = f32(fl(-Y + fl(7 * 0.2))); x of 8 cells =
** f32(fl(8 * 0.3)) which is fW itself (FMT-008). */
OPT_TEST(assemble_roundings, "POLY-213") {
  hand h;
  hand_init(&h, 0.3, 0.2);
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 3.0, &t, &e) == OP_OK);
  if (!t) return;
  op_tile_desc v;
  op_tile_view(t, &v);
  volatile double five = 5, seven = 7, six = 6, eight = 8, ch = 0.2, cs = 0.3;
  double Y = five * ch;
  OPT_CHECK(v.origin_y == 3.0 + Y);
  OPT_CHECK(v.verts[4] == (float)(-Y + seven * ch));
  OPT_CHECK(v.verts[10] == (float)(-Y + six * ch));
  OPT_CHECK(v.verts[1] == 0.0f && !signbit(v.verts[1]));
  OPT_CHECK(v.verts[3] == (float)(eight * cs) && v.verts[3] == (float)(8 * 0.3));
  op_tile_free(t);
}

OPT_TEST(assemble_empty, "POLY-211") {
  hand h;
  hand_init(&h, 0.5, 0.25);
  h.pm.npolys = 0;
  op_tile *t = (op_tile *)&h; /* overwritten with NULL */
  op_error e;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 0, &t, &e) == OP_OK && t == NULL);
}

OPT_TEST(assemble_outside, "POLY-213") {
  hand h;
  hand_init(&h, 0.5, 0.25);
  h.verts[2 * 3 + 2] = 9; /* vertex 2's z: 9 > TileSize 8 */
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 0, &t, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "pmesh.verts[2].z") == 0 && strcmp(e.value, "9") == 0 && !t);
  h.verts[2 * 3 + 2] = 8;
  h.verts[1 * 3 + 0] = -1;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 0, &t, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "pmesh.verts[1].x") == 0 && strcmp(e.value, "-1") == 0);
}

/* cs = 2^-10: FMT-011's bound is 16384 * 2^-10 = 16 world units; with ch = 1 a tile whose
** rows span 5 .. 25 has a vertex 20 above its origin: limit naming cell_size. Rows 5 .. 21
** (16 above) pass: the bound is inclusive. */
OPT_TEST(assemble_height_limit, "POLY-215") {
  hand h;
  hand_init(&h, 1.0 / 1024, 1.0);
  h.verts[1 * 3 + 1] = 25;
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 0, &t, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "cell_size") == 0 && strcmp(e.value, "0.0009765625") == 0);
  h.verts[1 * 3 + 1] = 21;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 0, &t, &e) == OP_OK && t);
  op_tile_free(t);
}

OPT_TEST(assemble_nvp, "POLY-210") {
  hand h;
  hand_init(&h, 0.5, 0.25);
  h.tiling.max_verts_per_poly = 5;
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 0, &t, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "pmesh.nvp") == 0);
}

OPT_MAIN_BEGIN
OPT_RUN(detail_threshold);
OPT_RUN(no_detail_mesh);
OPT_RUN(assemble_exact);
OPT_RUN(assemble_roundings);
OPT_RUN(assemble_empty);
OPT_RUN(assemble_outside);
OPT_RUN(assemble_height_limit);
OPT_RUN(assemble_nvp);
OPT_MAIN_END
