/*
** test_build2d.c -- the 2D builder's tiles (spec/build2d-tiles.md, T2D): settings and
** presets, the snap grid rule, tile lines, slicing, tile data, assembly, limits, and
** the properties every output has (convex counter-clockwise polygons, portal codes on
** tile lines, the union of polygons equal to the region, input order irrelevant).
** Expected values are derived by hand in the comments.
*/
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "onepath_build2d.h"
#include "optest.h"

static op_settings2d large0(void) {
  op_settings2d s;
  op_settings2d_preset("Large", &s, NULL);
  s.agent_radius = 0; /* no shrink: the region is the outlines' union */
  return s;
}

OPT_TEST(presets, "T2D-011") {
  op_settings2d s;
  OPT_CHECK(op_settings2d_preset("Humanoid", &s, NULL) == OP_OK);
  OPT_CHECK(s.agent_radius == 0.6 && s.agent_height == 2 && s.agent_climb == 0.9 &&
            s.max_slope == 45 && s.cell_size == 0.3 && s.tile_cells == 64 &&
            s.max_verts_per_poly == 6 && s.snap_bits == OP_SNAP_BITS_NULL &&
            s.floor_y == 0 && s.area == 0 && s.flags == 1);
  OPT_CHECK(op_settings2d_preset("Small", &s, NULL) == OP_OK);
  OPT_CHECK(s.agent_radius == 0.3 && s.agent_height == 1 && s.agent_climb == 0.4 &&
            s.max_slope == 45 && s.cell_size == 0.15 && s.tile_cells == 32);
  OPT_CHECK(op_settings2d_preset("Large", &s, NULL) == OP_OK);
  OPT_CHECK(s.agent_radius == 1.5 && s.agent_height == 4 && s.agent_climb == 1.2 &&
            s.max_slope == 40 && s.cell_size == 0.5 && s.tile_cells == 128);
  op_error e;
  OPT_CHECK(op_settings2d_preset("huge", &s, &e) == OP_E_ARGUMENT && !strcmp(e.field, "name"));
}

OPT_TEST(finest_snap_bits, "T2D-021") {
  /* the largest b <= 16 with 2^(8-b) >= CellSize */
  OPT_CHECK(op_finest_snap_bits(0.3) == 9);   /* 2^-1 >= 0.3 > 2^-2 */
  OPT_CHECK(op_finest_snap_bits(0.15) == 10); /* 2^-2 >= 0.15 > 2^-3 */
  OPT_CHECK(op_finest_snap_bits(0.5) == 9);   /* 2^-1 = 0.5 */
  OPT_CHECK(op_finest_snap_bits(1.0 / 65536) == 16);
  OPT_CHECK(op_finest_snap_bits(256) == 0);
  OPT_CHECK(op_finest_snap_bits(257) == -1);
}

OPT_TEST(snap_bits_too_fine, "T2D-022") {
  op_settings2d s = large0();
  op_error e;
  s.snap_bits = 10; /* finest for 0.5 is 9 */
  OPT_CHECK(op_settings2d_validate(&s, &e) == OP_E_ARGUMENT);
  OPT_CHECK(!strcmp(e.field, "SnapBits") && !strcmp(e.value, "10"));
  OPT_CHECK(strstr(e.message, "SnapBits = 9") != NULL);
  s.snap_bits = 17;
  OPT_CHECK(op_settings2d_validate(&s, &e) == OP_E_RANGE && !strcmp(e.field, "SnapBits"));
  s.snap_bits = 9;
  OPT_CHECK(op_settings2d_validate(&s, &e) == OP_OK);
}

OPT_TEST(settings_order, "T2D-012") {
  op_settings2d s = large0();
  op_error e;
  s.cell_size = 0;
  s.tile_cells = 0;
  OPT_CHECK(op_settings2d_validate(&s, &e) == OP_E_RANGE && !strcmp(e.field, "CellSize"));
  s = large0();
  s.tile_cells = 8193;
  OPT_CHECK(op_settings2d_validate(&s, &e) == OP_E_RANGE && !strcmp(e.field, "TileSize"));
  s = large0();
  s.max_verts_per_poly = 2;
  OPT_CHECK(op_settings2d_validate(&s, &e) == OP_E_RANGE && !strcmp(e.field, "MaxVertsPerPoly"));
  s = large0();
  s.area = 64;
  OPT_CHECK(op_settings2d_validate(&s, &e) == OP_E_RANGE && !strcmp(e.field, "Area"));
  s = large0();
  s.origin[1] = 1.0 / 0.0;
  OPT_CHECK(op_settings2d_validate(&s, &e) == OP_E_RANGE && !strcmp(e.field, "TileOrigin.z"));
}

/* Rectangle [10, 150] x [10, 90], Large (cell 0.5, tile 128 cells = 64 units): X lines
** 64 and 128 and the Z line 64 are strictly inside; six tiles, each a rectangle. */
OPT_TEST(rectangle_six_tiles, "T2D-041") {
  op_settings2d s = large0();
  double sq[8] = {10, 10, 150, 10, 150, 90, 10, 90};
  op_outline2d o = {sq, 4};
  op_tile **t = NULL;
  size_t n = 0;
  op_error e;
  OPT_CHECK(op_build2d_outlines_tiles(&s, &o, 1, NULL, 0, &t, &n, &e) == OP_OK);
  OPT_CHECK(n == 6);
  /* ascending (row, column): (0,0) (1,0) (2,0) (0,1) (1,1) (2,1) as (x, z) */
  int want[6][2] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}};
  for (size_t i = 0; i < n && i < 6; i++) {
    op_tile_desc v;
    op_tile_view(t[i], &v);
    OPT_CHECK(v.x == want[i][0] && v.z == want[i][1]);
    OPT_CHECK(v.nverts == 4 && v.npolys == 1);
  }
  if (n == 6) {
    /* tile (0,0): points (10,10) (10,64) (64,10) (64,64) in (x, y) order; local = world;
    ** the polygon 0 -> 2 -> 3 -> 1: edge 2->3 on x = 64 (portal side 2), edge 3->1 on
    ** z = 64 (portal side 1), the others walls */
    op_tile_desc v;
    op_tile_view(t[0], &v);
    float wv[12] = {10, 0, 10, 10, 0, 64, 64, 0, 10, 64, 0, 64};
    OPT_CHECK(!memcmp(v.verts, wv, sizeof wv));
    const op_poly_desc *p = &v.polys[0];
    OPT_CHECK(p->verts[0] == 0 && p->verts[1] == 2 && p->verts[2] == 3 && p->verts[3] == 1);
    OPT_CHECK(p->neis[0] == 0 && p->neis[1] == 0x8002 && p->neis[2] == 0x8001 && p->neis[3] == 0);
    OPT_CHECK(p->flags == 1 && p->area == 0);
    OPT_CHECK(v.origin_y == 0 && v.tiling.tile_cells == 128 && v.tiling.cell_size == 0.5);
    /* tile (1,1): [64,128] x [64,90], local x = world - 64, z = world - 64:
    ** points (0,0) (0,26) (64,0) (64,26); edges: bottom on z = 0 side 3, right x = 64
    ** side 2, top z = 26 wall, left x = 0 side 0 */
    op_tile_view(t[4], &v);
    float wv4[12] = {0, 0, 0, 0, 0, 26, 64, 0, 0, 64, 0, 26};
    OPT_CHECK(!memcmp(v.verts, wv4, sizeof wv4));
    p = &v.polys[0];
    OPT_CHECK(p->neis[0] == 0x8003 && p->neis[1] == 0x8002 && p->neis[2] == 0 && p->neis[3] == 0x8000);
  }
  op_build2d_tiles_free(t, n);
}

/* The union of the polygons is the region: twice the area summed over the tiles (grid
** exact: every local coordinate is a multiple of 2^-9 here) equals the region's. */
static double mesh_area(op_tile **t, size_t n) {
  double a = 0;
  for (size_t i = 0; i < n; i++) {
    op_tile_desc v;
    op_tile_view(t[i], &v);
    for (uint32_t p = 0; p < v.npolys; p++) {
      const op_poly_desc *d = &v.polys[p];
      for (uint32_t j = 0; j < d->nverts; j++) {
        const float *a0 = &v.verts[3 * d->verts[j]], *a1 = &v.verts[3 * d->verts[(j + 1) % d->nverts]];
        a += (double)a0[0] * a1[2] - (double)a0[2] * a1[0];
      }
    }
  }
  return a / 2;
}

/* Every polygon convex and counter-clockwise exactly on float32 (FMT-017's predicate)
** and, having passed NavTile.Create, inside its tile. */
static int all_convex(op_tile **t, size_t n) {
  for (size_t i = 0; i < n; i++) {
    op_tile_desc v;
    op_tile_view(t[i], &v);
    for (uint32_t p = 0; p < v.npolys; p++) {
      const op_poly_desc *d = &v.polys[p];
      for (uint32_t j = 0; j < d->nverts; j++) {
        const float *a = &v.verts[3 * d->verts[j]], *b = &v.verts[3 * d->verts[(j + 1) % d->nverts]],
                    *c = &v.verts[3 * d->verts[(j + 2) % d->nverts]];
        float pa[2] = {a[0], a[2]}, pb[2] = {b[0], b[2]}, pc[2] = {c[0], c[2]};
        if (op_orient2d_f32(pa, pb, pc) < 0) return 0;
      }
    }
  }
  return 1;
}

OPT_TEST(holes_overlaps_area, "T2D-043") {
  /* two overlapping squares [0,100]^2 and [50,150]x[50,150] (area 10000 + 10000 - 2500)
  ** minus a hole [20,40]^2 (obstacle, 400) and a hole [60,140]x[100,120] given as an
  ** obstacle (80 x 20 = 1600): 17500 - 400 - 1600 = 15500 */
  op_settings2d s = large0();
  double a[8] = {0, 0, 100, 0, 100, 100, 0, 100};
  double b[8] = {150, 150, 50, 150, 50, 50, 150, 50}; /* clockwise: any orientation */
  double h1[8] = {20, 20, 40, 20, 40, 40, 20, 40};
  double h2[8] = {60, 100, 140, 100, 140, 120, 60, 120};
  op_outline2d o[2] = {{a, 4}, {b, 4}}, ob[2] = {{h1, 4}, {h2, 4}};
  op_tile **t = NULL;
  size_t n = 0;
  op_error e;
  OPT_CHECK(op_build2d_outlines_tiles(&s, o, 2, ob, 2, &t, &n, &e) == OP_OK);
  double area = 0;
  for (size_t i = 0; i < n; i++) { /* local coordinates are offsets inside each tile */
    area += mesh_area(&t[i], 1);
  }
  OPT_CHECK(area == 15500);
  OPT_CHECK(all_convex(t, n));
  /* 45-degree world: a diamond of half-diagonal 100 around (100, 100): area 20000 */
  double d[8] = {100, 0, 200, 100, 100, 200, 0, 100};
  op_outline2d od = {d, 4};
  op_tile **t2 = NULL;
  size_t n2 = 0;
  OPT_CHECK(op_build2d_outlines_tiles(&s, &od, 1, NULL, 0, &t2, &n2, &e) == OP_OK);
  OPT_CHECK(mesh_area(t2, n2) == 20000);
  OPT_CHECK(all_convex(t2, n2));
  /* lines 64, 128, 192 on both axes (the box is [0, 200]^2), 16 cells (x, z). Empty:
  ** (3,0), (0,3), (3,3), (3,2), (2,3), since |x - 100| + |y - 100| > 100 there (for
  ** x >= 192 the diamond needs 92 < y < 108). (0,0) holds x + y >= 100 and (3,1) the
  ** tip around (200, 100). 16 - 5 = 11 tiles */
  OPT_CHECK(n2 == 11);
  op_build2d_tiles_free(t2, n2);
  op_build2d_tiles_free(t, n);
}

static int mesh_bytes(const op_settings2d *s, const op_outline2d *o, size_t n, op_bytes *b) {
  op_mesh *m = NULL;
  if (op_build2d_outlines(s, o, n, NULL, 0, &m, NULL)) return -1;
  int rc = op_mesh_save(m, b, NULL) ? -1 : 0;
  op_mesh_free(m);
  return rc;
}

OPT_TEST(shuffled_input_same_bytes, "T2D-044") {
  op_settings2d s = large0();
  double a[10] = {3, 7, 97, 11, 141, 60, 90, 133, 12, 95};
  double b[8] = {60, 40, 200, 30, 210, 90, 70, 100};
  /* a rotated to start elsewhere and given in the other orientation; b first */
  double a2[10] = {141, 60, 97, 11, 3, 7, 12, 95, 90, 133};
  double b2[8] = {210, 90, 70, 100, 60, 40, 200, 30};
  op_outline2d o1[2] = {{a, 5}, {b, 4}}, o2[2] = {{b2, 4}, {a2, 5}};
  op_bytes x, y;
  OPT_CHECK(mesh_bytes(&s, o1, 2, &x) == 0);
  OPT_CHECK(mesh_bytes(&s, o2, 2, &y) == 0);
  OPT_CHECK(x.len == y.len && !memcmp(x.data, y.data, x.len));
  op_bytes_free(&x);
  op_bytes_free(&y);
}

OPT_TEST(tile_line_off_grid, "T2D-031") {
  /* Humanoid: cell 0.3, tile 64 cells = 19.2; SnapBits 9 (unit 1/512): line 1 at 19.2
  ** rounds to 9830/512 = 19.19921875, 0.00078 away > 0.3/1024 = 0.000293: rejected */
  op_settings2d s;
  op_settings2d_preset("Humanoid", &s, NULL);
  s.agent_radius = 0;
  double a[8] = {1, 1, 30, 1, 30, 10, 1, 10};
  op_outline2d o = {a, 4};
  op_mesh *m = NULL;
  op_error e;
  OPT_CHECK(op_build2d_outlines(&s, &o, 1, NULL, 0, &m, &e) == OP_E_ARGUMENT);
  OPT_CHECK(!strcmp(e.field, "tile_line.x") && !strcmp(e.value, "19.2"));
  OPT_CHECK(m == NULL);
  /* inside one tile no line is cut: accepted */
  double b[8] = {1, 1, 18, 1, 18, 10, 1, 10};
  op_outline2d ob = {b, 4};
  OPT_CHECK(op_build2d_outlines(&s, &ob, 1, NULL, 0, &m, &e) == OP_OK);
  op_mesh_free(m);
}

OPT_TEST(line_limits, "T2D-032") {
  op_settings2d s = large0();
  s.cell_size = 1;
  s.tile_cells = 1;
  s.snap_bits = 0;
  double a[8] = {0, 0, 5000, 0, 5000, 2, 0, 2}; /* 4999 X lines */
  op_outline2d o = {a, 4};
  op_mesh *m = NULL;
  op_error e;
  OPT_CHECK(op_build2d_outlines(&s, &o, 1, NULL, 0, &m, &e) == OP_E_LIMIT);
  OPT_CHECK(!strcmp(e.field, "tile_lines.x") && !strcmp(e.value, "4097"));
  double b[8] = {0, 0, 2000, 0, 2000, 2000, 0, 2000}; /* 1999 x 1999 crossings */
  op_outline2d ob = {b, 4};
  OPT_CHECK(op_build2d_outlines(&s, &ob, 1, NULL, 0, &m, &e) == OP_E_LIMIT);
  OPT_CHECK(!strcmp(e.field, "tile_crossings") && !strcmp(e.value, "3996001"));
}

OPT_TEST(near_coordinate_bound, "T2D-050") {
  /* a square touching x = 2^21: the tile [2^21 - 64, 2^21] is inside the bound */
  op_settings2d s = large0();
  double M = 2097152.0;
  double a[8] = {M - 100, -M, M, -M, M, -M + 100, M - 100, -M + 100};
  op_outline2d o = {a, 4};
  op_mesh *m = NULL;
  op_error e;
  OPT_CHECK(op_build2d_outlines(&s, &o, 1, NULL, 0, &m, &e) == OP_OK);
  op_mesh_free(m);
  m = NULL;
  /* with origin 1, the tile holding x near 2^21 spans [2^21 - 63, 2^21 + 1]: the tile
  ** validator rejects it naming the tile (FMT-006) */
  s.origin[0] = 1;
  OPT_CHECK(op_build2d_outlines(&s, &o, 1, NULL, 0, &m, &e) == OP_E_RANGE);
  OPT_CHECK(!strcmp(e.field, "header.x") && !strcmp(e.value, "32767"));
  OPT_CHECK(m == NULL);
}

OPT_TEST(empty_region, "T2D-060") {
  op_settings2d s = large0();
  op_mesh *m = NULL;
  OPT_CHECK(op_build2d_outlines(&s, NULL, 0, NULL, 0, &m, NULL) == OP_OK);
  OPT_CHECK(m != NULL);
  op_mesh_free(m);
}

/* The protocol op through its table (port/ops_build2d.c), independent of whether the
** dispatcher lists the table yet. */
static op_status run_op(opd_session *ss, const char *name, const char *json, opj_w *w, op_error *e) {
  const opd_op *op = NULL;
  for (const opd_op *o = opd_ops_build2d; o->name; o++)
    if (!strcmp(o->name, name)) op = o;
  if (!op) return OP_E_ARGUMENT;
  opj_doc *d = opj_parse(json, strlen(json), NULL, 0);
  if (!d) return OP_E_ARGUMENT;
  op_status st = op->fn(ss, opj_root(d), w, e);
  opj_free(d);
  return st;
}

OPT_TEST(protocol_ops, "T2D-071") {
  opd_session *ss = opd_session_new();
  opj_w w;
  op_error e;
  opj_w_init(&w);
  OPT_CHECK(run_op(ss, "build2d.outlines",
                   "{\"settings\": {\"preset\": \"Large\", \"agent_radius\": 0},"
                   " \"outlines\": [[[10, 10], [150, 10], [150, 90], [10, 90]]]}", &w, &e) == OP_OK);
  OPT_CHECK(w.buf && strstr(w.buf, "\"handle\":1") && strstr(w.buf, "\"tiles\":[{\"x\":0,\"z\":0,\"handle\":2"));
  opj_w_free(&w);
  opj_w_init(&w);
  OPT_CHECK(run_op(ss, "build2d.outlines", "{\"settings\": {\"preset\": \"Large\", \"bogus\": 1},"
                   " \"outlines\": []}", &w, &e) == OP_E_ARGUMENT);
  OPT_CHECK(!strcmp(e.field, "settings.bogus"));
  OPT_CHECK(run_op(ss, "build2d.tilemap", "{\"settings\": {\"preset\": \"Large\"}, \"width\": 2,"
                   " \"height\": 1, \"cells\": [1], \"map_origin\": [0, 0], \"map_cell\": 1}",
                   &w, &e) == OP_E_ARGUMENT);
  OPT_CHECK(!strcmp(e.field, "cells"));
  OPT_CHECK(run_op(ss, "build2d.finest_snap_bits", "{\"cell_size\": 0.15}", &w, &e) == OP_OK);
  OPT_CHECK(w.buf && strstr(w.buf, "\"snap_bits\":10"));
  opj_w_free(&w);
  opd_session_free(ss);
}

OPT_MAIN_BEGIN
OPT_RUN(presets);
OPT_RUN(finest_snap_bits);
OPT_RUN(snap_bits_too_fine);
OPT_RUN(settings_order);
OPT_RUN(rectangle_six_tiles);
OPT_RUN(holes_overlaps_area);
OPT_RUN(shuffled_input_same_bytes);
OPT_RUN(tile_line_off_grid);
OPT_RUN(line_limits);
OPT_RUN(near_coordinate_bound);
OPT_RUN(empty_region);
OPT_RUN(protocol_ops);
OPT_MAIN_END
