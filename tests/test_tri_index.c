/*
** test_tri_index.c -- the per-build triangle index (ref/build3d/spans/tri_index.c) only
** accelerates SPAN-181: for every tile, the index's list filtered by SPAN-181's box test is
** exactly the full scan's selection, in ascending index, and the tiles built through it are
** byte-identical to op_spans_build_tile's (which scans the soup). Also the terrain
** generator's new range (LVL-030: 1..1024).
*/
#include <stdlib.h>
#include <string.h>

#include "optest.h"
#include "onepath.h"
#include "onepath_build3d.h"
#include "build3d/spans/spans_internal.h"

/* SPAN-181's selection for tile (tx, tz), written out here from the clause's text: the
** triangles whose xz bounding box meets [X(gx0), X(gx0 + width)] x [Z(gz0), Z(gz0 +
** depth)], ascending. From the list l[0..nl-1] (NULL: every triangle). */
static uint32_t select_tris(const op_soup *so, const op_hf_grid *g, const uint32_t *l,
                            uint32_t nl, uint32_t *out) {
  double bx0 = opsp_grid_line_x(g, 0), bx1 = opsp_grid_line_x(g, g->width);
  double bz0 = opsp_grid_line_z(g, 0), bz1 = opsp_grid_line_z(g, g->depth);
  uint32_t n = 0, total = l ? nl : so->ntris;
  for (uint32_t k = 0; k < total; k++) {
    uint32_t t = l ? l[k] : k;
    double mnx = 1e300, mxx = -1e300, mnz = 1e300, mxz = -1e300;
    for (int i = 0; i < 3; i++) {
      const double *v = &so->verts[3 * (size_t)so->tris[3 * (size_t)t + i]];
      if (v[0] < mnx) mnx = v[0];
      if (v[0] > mxx) mxx = v[0];
      if (v[2] < mnz) mnz = v[2];
      if (v[2] > mxz) mxz = v[2];
    }
    if (mxx >= bx0 && mnx <= bx1 && mxz >= bz0 && mnz <= bz1) out[n++] = t;
  }
  return n;
}

/* Every tile of the soup build: the index's lists are ascending, cover the scan's
** selection exactly, and the tiles are the same bytes. Returns the number of tiles whose
** scan selection was non-empty (so a caller can see the case was not vacuous). */
static int check_soup(opt_state *opt_s_, const op_settings *s, const op_soup *so, int stride,
                      int *nonempty) {
  op_error e;
  int32_t ntx = 0, ntz = 0;
  double o[3], ymax;
  op_cell_settings c;
  OPT_CHECK(op_settings_derive(s, &c, &e) == OP_OK);
  OPT_CHECK(op_spans_tile_range(s, so, &ntx, &ntz, &e) == OP_OK);
  OPT_CHECK(op_soup_frame(so, o, &ymax, &e) == OP_OK);
  opsp_tri_index *ix = NULL;
  OPT_CHECK(opsp_tri_index_build(s, so, o, ntx, ntz, &ix, &e) == OP_OK && ix);
  if (!ix) return 0;
  uint32_t *a = malloc((so->ntris + 1) * sizeof *a), *b = malloc((so->ntris + 1) * sizeof *b);
  int ok = a && b, tiles_checked = 0;
  *nonempty = 0;
  for (int32_t tz = 0; ok && tz < ntz; tz++)
    for (int32_t tx = 0; tx < ntx; tx++) {
      if ((tx + tz) % stride != 0) continue; /* stride 1: every tile */
      op_hf_grid g;
      OPT_CHECK(op_hf_grid_tile(s, &c, o, tx, tz, o[1], ymax, &g, &e) == OP_OK);
      const uint32_t *l;
      uint32_t nl;
      opsp_tri_index_query(ix, tx, tz, &l, &nl);
      for (uint32_t k = 1; k < nl; k++) OPT_CHECK(l[k - 1] < l[k]); /* ascending, once */
      uint32_t na = select_tris(so, &g, NULL, 0, a);
      uint32_t nb = select_tris(so, &g, l, nl, b);
      OPT_CHECK(na == nb && memcmp(a, b, na * sizeof *a) == 0);
      if (na) (*nonempty)++;
      op_chf *c1 = NULL, *c2 = NULL;
      OPT_CHECK(op_spans_build_tile(s, so, o, o[1], ymax, tx, tz, &c1, &e) == OP_OK);
      OPT_CHECK(opsp_build_tile_indexed(s, so, ix, o, o[1], ymax, tx, tz, &c2, &e) == OP_OK);
      OPT_CHECK((c1 == NULL) == (c2 == NULL));
      if (c1 && c2) {
        op_bytes b1 = {NULL, 0}, b2 = {NULL, 0};
        OPT_CHECK(op_chf_save(c1, &b1, &e) == OP_OK && op_chf_save(c2, &b2, &e) == OP_OK);
        OPT_CHECK(b1.len == b2.len && memcmp(b1.data, b2.data, b1.len) == 0);
        op_bytes_free(&b1);
        op_bytes_free(&b2);
      }
      op_chf_free(c1);
      op_chf_free(c2);
      tiles_checked++;
    }
  free(a);
  free(b);
  opsp_tri_index_free(ix);
  return tiles_checked;
}

static int gen(const char *name, uint32_t size, const op_settings *s, op_trimesh *m) {
  op_error e;
  memset(m, 0, sizeof *m);
  return op_level_generate(name, 5, size, s, m, &e) == OP_OK;
}

/* SPAN-181 on the generated levels at the three presets. */
OPT_TEST(index_equals_scan_levels, "SPAN-181") {
  static const char *presets[3] = {"Humanoid", "Small", "Large"};
  static const char *names[4] = {"terrain", "city", "stairs", "dungeon"};
  static const uint32_t sizes[4] = {40, 2, 8, 16};
  for (int p = 0; p < 3; p++)
    for (int l = 0; l < 4; l++) {
      op_settings s;
      op_error e;
      OPT_CHECK(op_settings_preset(presets[p], &s, &e) == OP_OK);
      op_trimesh m;
      OPT_CHECK(gen(names[l], sizes[l], &s, &m));
      op_soup so = op_trimesh_soup(&m);
      int nonempty = 0;
      int n = check_soup(opt_s_, &s, &so, 1, &nonempty);
      OPT_CHECK(n >= 1 && nonempty >= 1);
      op_trimesh_free(&m);
    }
}

/* SPAN-181's closed box: triangles that touch a tile's box only at its boundary line (their
** greatest x equal to X(gx0) of a tile, their least z equal to Z(gz0 + depth) of another)
** are selected; a triangle one ulp short of a line is not. Ten-cell tiles of one unit. */
OPT_TEST(index_boundary_touch, "SPAN-181") {
  /* (check_soup's bins are one tile here: opsp_tri_index_bin_side is 1 for small levels) */
  op_settings s;
  op_error e;
  OPT_CHECK(op_settings_preset("Humanoid", &s, &e) == OP_OK);
  s.cell_size = 1;
  s.tile_cells = 10;
  op_cell_settings c;
  OPT_CHECK(op_settings_derive(&s, &c, &e) == OP_OK);
  OPT_CHECK(c.border == 4); /* radius 0.6 -> 1 cell, + 3 (SPAN-022) */
  const double B = (double)c.border;
  /* vertex 0..2: a floor from (0,0) to (60,60) (frame and range); then small triangles
  ** whose max x is exactly X(gx0) of tile 2 (20 - B), whose max x is one ulp below it, and
  ** whose max x is 2^-30 short of it, and whose min z is exactly Z(gz0 + depth) of tile 1
  ** (20 + B) */
  double x20 = 20 - B, below = x20 - 0x1p-30, z20 = 20 + B;
  double v[] = {0, 0, 0, 0, 0, 60, 60, 0, 60,            /* floor part 1 */
                60, 0, 0,                                 /* floor part 2 */
                x20 - 1, 1, 31, x20 - 1, 1, 33, x20, 1, 32, /* touches tile 2 on x */
                below - 1, 2, 41, below - 1, 2, 43, below, 2, 42,
                31, 3, z20, 31, 3, z20 + 1, 33, 3, z20 + 0.5}; /* touches tile 1 on z */
  uint32_t t[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  op_soup so = {13, v, 5, t};
  OPT_CHECK(op_soup_validate(&so, &e) == OP_OK);
  int nonempty = 0;
  OPT_CHECK(check_soup(opt_s_, &s, &so, 1, &nonempty) == 36 && nonempty == 36);
  /* the derivation, by hand: tile (2, 3)'s box is [20 - B, 30 + B] x [30 - B, 40 + B]; it
  ** holds the floor (0, 1) and the touching triangle 2 (x up to 20 - B, z 31..33), not
  ** triangle 3 (x 2^-30 short of 20 - B) nor triangle 4 (z 24..25 < 30 - B, B = 4 here) */
  double o[3], ymax;
  OPT_CHECK(op_soup_frame(&so, o, &ymax, &e) == OP_OK);
  opsp_tri_index *ix = NULL;
  OPT_CHECK(opsp_tri_index_build(&s, &so, o, 6, 6, &ix, &e) == OP_OK);
  op_hf_grid g;
  OPT_CHECK(op_hf_grid_tile(&s, &c, o, 2, 3, o[1], ymax, &g, &e) == OP_OK);
  OPT_CHECK(opsp_grid_line_x(&g, 0) == x20);
  const uint32_t *l;
  uint32_t nl, sel[8];
  opsp_tri_index_query(ix, 2, 3, &l, &nl);
  uint32_t ns = select_tris(&so, &g, l, nl, sel);
  OPT_CHECK(ns == 3 && sel[0] == 0 && sel[1] == 1 && sel[2] == 2);
  OPT_CHECK(op_hf_grid_tile(&s, &c, o, 2, 4, o[1], ymax, &g, &e) == OP_OK);
  opsp_tri_index_query(ix, 2, 4, &l, &nl);
  ns = select_tris(&so, &g, l, nl, sel);
  OPT_CHECK(ns == 2 && sel[0] == 0 && sel[1] == 1); /* triangle 3 is 2^-30 short */
  opsp_tri_index_free(ix);
}

/* SPAN-181 with coarse bins: many triangles as wide as the level make the per-tile lists
** too long, so the index files them under squares of several tiles (tri_index.c); the
** selection and the tiles stay those of the scan. */
OPT_TEST(index_coarse_bins, "SPAN-181") {
  op_settings s;
  op_error e;
  OPT_CHECK(op_settings_preset("Humanoid", &s, &e) == OP_OK);
  s.cell_size = 1;
  s.tile_cells = 1;
  s.agent_radius = 0;
  enum { N = 400 };
  /* N walkable slivers, each from x = 0 to 300 and 40 long in z, over 300 x 340 tiles of
  ** one cell: N * 300 * (about 50 rows) = 6e6 entries > max(16 N, 2^22): k > 1 */
  double *v = malloc(sizeof(double) * 9 * N);
  uint32_t *t = malloc(sizeof(uint32_t) * 3 * N);
  for (int i = 0; i < N; i++) {
    double z = (double)i * 300.0 / N;
    double q[9] = {0, 0, z, 0, 0, z + 40, 300, 0, z};
    memcpy(v + 9 * i, q, sizeof q);
    for (int k = 0; k < 3; k++) t[3 * i + k] = (uint32_t)(3 * i + k);
  }
  op_soup so = {3 * N, v, N, t};
  int32_t ntx, ntz;
  OPT_CHECK(op_spans_tile_range(&s, &so, &ntx, &ntz, &e) == OP_OK);
  OPT_CHECK(ntx == 300 && ntz >= 300);
  /* the per-tile lists: each sliver spans every column and about 41 + 2 * B rows */
  double o[3], ymax;
  OPT_CHECK(op_soup_frame(&so, o, &ymax, &e) == OP_OK);
  opsp_tri_index *ix = NULL;
  OPT_CHECK(opsp_tri_index_build(&s, &so, o, ntx, ntz, &ix, &e) == OP_OK);
  OPT_CHECK(opsp_tri_index_bin_side(ix) > 1);
  /* a tile's list then holds the slivers of a whole bin: more than the tile's selection */
  op_cell_settings c;
  OPT_CHECK(op_settings_derive(&s, &c, &e) == OP_OK);
  uint32_t *sel = malloc(sizeof(uint32_t) * N);
  int wider = 0;
  for (int32_t tz = 0; tz < ntz && !wider; tz += 7) {
    op_hf_grid g;
    OPT_CHECK(op_hf_grid_tile(&s, &c, o, 0, tz, o[1], ymax, &g, &e) == OP_OK);
    const uint32_t *l;
    uint32_t nl;
    opsp_tri_index_query(ix, 0, tz, &l, &nl);
    if (select_tris(&so, &g, l, nl, sel) < nl) wider = 1;
  }
  OPT_CHECK(wider);
  opsp_tri_index_free(ix);
  /* and one tile in 31 (the check builds each tile twice) */
  int nonempty = 0;
  OPT_CHECK(check_soup(opt_s_, &s, &so, 31, &nonempty) >= 1000 && nonempty >= 1000);
  free(sel);
  free(v);
  free(t);
}

/* LVL-030: the terrain's range reaches 1024 (a 1 km square: (N + 1)^2 vertices, 2 N^2
** triangles); 1025 is out of range. */
OPT_TEST(terrain_1024, "LVL-030") {
  op_trimesh m;
  op_error e;
  OPT_CHECK(gen("terrain", 1024, NULL, &m));
  OPT_CHECK(m.nverts == 1025u * 1025u && m.ntris == 2u * 1024u * 1024u);
  OPT_CHECK(m.verts[3 * (size_t)(m.nverts - 1)] == 1024 && m.verts[3 * (size_t)(m.nverts - 1) + 2] == 1024);
  op_trimesh_free(&m);
  memset(&m, 0, sizeof m);
  OPT_CHECK(op_level_generate("terrain", 1, 1025, NULL, &m, &e) == OP_E_RANGE &&
            strcmp(e.field, "size") == 0 && strcmp(e.value, "1025") == 0);
}

OPT_MAIN_BEGIN
OPT_RUN(index_equals_scan_levels);
OPT_RUN(index_boundary_touch);
OPT_RUN(index_coarse_bins);
OPT_RUN(terrain_1024);
OPT_MAIN_END
