/*
** test_compact.c -- the compact heightfield (spec/build3d-spans.md sections 5 and 7):
** open spans, clearance cap, links with the climb and height tests at their limits, the
** lowest qualifying neighbour, non-mutual links, the span graph, the column limit, the
** canonical bytes. Expected values by hand from the clauses.
*/
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "onepath_build3d.h"
#include "optest.h"

static op_hf *mk(int w, int d) {
  return fx_hf(w, d, 1, 0.1, 1000);
}

static void add(op_hf *hf, int x, int z, int smin, int smax, int area) {
  op_hf_add_span(hf, x, z, smin, smax, (uint8_t)area, 0, NULL);
}

/* SPAN-131, SPAN-132: order column by column, area 0 spans dropped, floor = smax,
** clearance = next smin - smax, capped at 255 for the top span (65535 - 10). */
OPT_TEST(compact_spans, "SPAN-132") {
  op_hf *hf = mk(2, 1);
  add(hf, 0, 0, 0, 10, 63);
  add(hf, 0, 0, 40, 50, 0);
  add(hf, 0, 0, 60, 70, 5);
  add(hf, 1, 0, 0, 12, 63);
  op_chf *c = NULL;
  OPT_CHECK(op_chf_build(hf, 20, 3, &c, NULL) == OP_OK);
  OPT_CHECK(c && c->nspans == 3);
  OPT_CHECK(c->cell_index[0] == 0 && c->cell_count[0] == 2);
  OPT_CHECK(c->cell_index[1] == 2 && c->cell_count[1] == 1);
  OPT_CHECK(c->spans[0].y == 10 && c->spans[0].h == 30 && c->areas[0] == 63);
  OPT_CHECK(c->spans[1].y == 70 && c->spans[1].h == 255 && c->areas[1] == 5);
  OPT_CHECK(c->spans[2].y == 12 && c->spans[2].h == 255 && c->areas[2] == 63);
  /* SPAN-142: span 0 (y 10, h 30) and span 2 (y 12): bot 12, top min(40, 267) = 40,
  ** 28 >= 20, |12 - 10| = 2 <= 3: linked +x (dir 2) to index 0 of column 1 */
  OPT_CHECK(c->spans[0].link[2] == 0 && c->spans[2].link[0] == 0);
  OPT_CHECK(c->spans[1].link[2] == OP_CHF_NOT_CONNECTED); /* |12 - 70| > 3 */
  OPT_CHECK(c->spans[0].link[0] == OP_CHF_NOT_CONNECTED);  /* outside the grid */
  OPT_CHECK(c->spans[0].link[1] == OP_CHF_NOT_CONNECTED && c->spans[0].link[3] == OP_CHF_NOT_CONNECTED);
  op_chf_free(c);
  op_hf_free(hf);
}

/* SPAN-142: climb exactly at the limit links (|13 - 10| = 3 <= 3), one more does not. */
OPT_TEST(compact_link_climb_limit, "SPAN-142") {
  op_hf *hf = mk(3, 1);
  add(hf, 0, 0, 0, 10, 63);
  add(hf, 1, 0, 0, 13, 63);
  add(hf, 2, 0, 0, 17, 63);
  op_chf *c = NULL;
  OPT_CHECK(op_chf_build(hf, 20, 3, &c, NULL) == OP_OK);
  OPT_CHECK(c->spans[0].link[2] == 0 && c->spans[1].link[0] == 0);
  OPT_CHECK(c->spans[1].link[2] == OP_CHF_NOT_CONNECTED); /* |17 - 13| = 4 */
  OPT_CHECK(c->spans[2].link[0] == OP_CHF_NOT_CONNECTED);
  op_chf_free(c);
  op_hf_free(hf);
}

/* SPAN-142: the shared gap exactly WalkableHeight high links (>=); one row less does
** not. Column 0: floor 10 under a ceiling at 30; column 1: floor 10 (open to the top):
** top = min(30, 265) = 30, 30 - 10 = 20 >= 20. Ceiling at 29: 19 < 20. */
OPT_TEST(compact_link_height_limit, "SPAN-142") {
  op_hf *hf = mk(2, 2);
  add(hf, 0, 0, 0, 10, 63);
  add(hf, 0, 0, 30, 40, 63);
  add(hf, 1, 0, 0, 10, 63);
  add(hf, 0, 1, 0, 10, 63);
  add(hf, 0, 1, 29, 40, 63);
  add(hf, 1, 1, 0, 10, 63);
  op_chf *c = NULL;
  OPT_CHECK(op_chf_build(hf, 20, 3, &c, NULL) == OP_OK);
  /* spans: column (0,0): 0 (y 10), 1 (y 40); (1,0): 2; (0,1): 3 (y 10), 4 (y 40); (1,1): 5 */
  OPT_CHECK(c->nspans == 6);
  OPT_CHECK(c->spans[0].link[2] == 0);
  OPT_CHECK(c->spans[3].link[2] == OP_CHF_NOT_CONNECTED);
  /* +z from span 0 (y 10, h 20) to column (0,1): span 3, y 10, h 19: top = 29, 19 < 20 */
  OPT_CHECK(c->spans[0].link[1] == OP_CHF_NOT_CONNECTED);
  op_chf_free(c);
  op_hf_free(hf);
}

/* SPAN-143, SPAN-146: several qualifying neighbours: the lowest is linked, and links need
** not be mutual. WalkableHeight 1, climb 3. Column 0: floor 8, open (h 255, top 263).
** Column 1: floor 7 under a slab [10, 11] (h 3, top 10), and floor 11 on the slab.
** Spans: 0 = (0,0) y 8; 1 = (1,0) y 7; 2 = (1,0) y 11.
** 0 -> +x: ns y 7: bot 8, top min(263, 10) = 10, 2 >= 1, |7 - 8| = 1: index 0 (span 1);
**          (ns y 11 would qualify too: bot 11, top 263, |11 - 8| = 3; the lowest wins.)
** 1 -> -x: ns y 8: bot 8, top min(10, 263) = 10, 2 >= 1, |1| <= 3: index 0 (span 0).
** 2 -> -x: ns y 8: bot 11, top min(266, 263) = 263, |8 - 11| = 3: index 0 (span 0).
** So 0 <-> 1 is mutual, and 2 -> 0 is not (0 links +x to 1, not to 2). */
OPT_TEST(compact_lowest_and_graph, "SPAN-143") {
  op_hf *hf = mk(2, 1);
  add(hf, 0, 0, 0, 8, 63);
  add(hf, 1, 0, 0, 7, 63);
  add(hf, 1, 0, 10, 11, 63);
  op_chf *c = NULL;
  OPT_CHECK(op_chf_build(hf, 1, 3, &c, NULL) == OP_OK);
  OPT_CHECK(c && c->nspans == 3);
  OPT_CHECK(c->spans[0].y == 8 && c->spans[1].y == 7 && c->spans[1].h == 3 && c->spans[2].y == 11);
  OPT_CHECK(c->spans[0].link[2] == 0);
  OPT_CHECK(c->spans[1].link[0] == 0);
  OPT_CHECK(c->spans[2].link[0] == 0);
  op_span_graph g;
  OPT_CHECK(op_span_graph_build(c, &g, NULL) == OP_OK);
  OPT_CHECK(g.nspans == 3 && g.column[0] == 0 && g.column[1] == 1 && g.column[2] == 1);
  OPT_CHECK(g.nei[4 * 0 + 2] == 1 && g.nei[4 * 1 + 0] == 0 && g.nei[4 * 2 + 0] == 0);
  OPT_CHECK(g.nei[4 * 0 + 0] == OP_HF_NONE && g.nei[4 * 2 + 2] == OP_HF_NONE);
  OPT_CHECK(g.mutual[0] == (1u << 2) && g.mutual[1] == 1u && g.mutual[2] == 0);
  op_span_graph_free(&g);
  OPT_CHECK(g.column == NULL);
  op_chf_free(c);
  op_hf_free(hf);
}

/* SPAN-141: a column of 64 open spans is a limit error naming it; 63 is fine. */
OPT_TEST(compact_column_limit, "SPAN-141") {
  op_hf *hf = mk(2, 1);
  for (int k = 0; k < 63; k++) add(hf, 1, 0, 2 * k, 2 * k + 1, 63);
  op_chf *c = NULL;
  op_error e;
  OPT_CHECK(op_chf_build(hf, 1, 0, &c, &e) == OP_OK && c->nspans == 63);
  OPT_CHECK(c->spans[62].y == 125);
  op_chf_free(c);
  c = NULL;
  add(hf, 1, 0, 126, 127, 63);
  OPT_CHECK(op_chf_build(hf, 1, 0, &c, &e) == OP_E_LIMIT && !c);
  OPT_CHECK(!strcmp(e.field, "column[1,0]") && !strcmp(e.value, "64"));
  OPT_CHECK(op_chf_build(hf, -1, 0, &c, &e) == OP_E_RANGE && !strcmp(e.field, "walkable_height"));
  op_hf_free(hf);
}

/* SPAN-170: header fields and one span record. */
OPT_TEST(compact_bytes, "SPAN-170") {
  op_hf *hf = mk(2, 1);
  add(hf, 1, 0, 0, 300, 9);
  op_chf *c = NULL;
  OPT_CHECK(op_chf_build(hf, 20, 3, &c, NULL) == OP_OK);
  op_bytes b = {0, 0};
  OPT_CHECK(op_chf_save(c, &b, NULL) == OP_OK);
  OPT_CHECK(b.len == 40 + 2 + 8);
  OPT_CHECK(!memcmp(b.data, "OPCHF001", 8));
  OPT_CHECK(b.data[16] == 2 && b.data[20] == 1 && b.data[24] == 0xe8 && b.data[25] == 3);
  OPT_CHECK(b.data[28] == 20 && b.data[32] == 3 && b.data[36] == 1);
  OPT_CHECK(b.data[40] == 0 && b.data[41] == 1);
  const uint8_t rec[8] = {0x2c, 0x01, 255, 9, 63, 63, 63, 63};
  OPT_CHECK(!memcmp(b.data + 42, rec, 8));
  op_bytes_free(&b);
  op_chf_free(c);
  op_hf_free(hf);
}

/* SPAN-180, SPAN-181, SPAN-182: one tile of a 3 x 3 floor at y = 0 with the Humanoid
** preset (cs 0.3, ch 0.1, radius 2, height 20, climb 9, border 5, 74 x 74 grid from global
** cell -5). Frame: origin (0, 0, 0), rows [0, 0] -> height 1. X(10) = fl(10 * 0.3) = 3
** exactly, so the floor covers global cells 0..9 on x and z: 100 spans [0, 1], walkable.
** Ledges (SPAN-122 step 2): a span next to an empty column sees a drop to -9 from 1:
** -10 < -9, so the floor's outer ring (36 spans) gets area 0 and is not compacted: 64
** open spans. Erosion radius 2 (thr 4) on that 8 x 8 keeps 2 * min(i, j, 7 - i, 7 - j)
** >= 4: the 4 x 4 centre, 16 spans. Tile (5, 5) has no triangle: not built. */
OPT_TEST(compact_tile_pipeline, "SPAN-180") {
  double v[] = {0, 0, 0, 0, 0, 3, 3, 0, 3, 3, 0, 0};
  uint32_t t[] = {0, 1, 2, 0, 2, 3};
  op_soup soup = {4, v, 2, t};
  op_settings s;
  OPT_CHECK(op_settings_preset("Humanoid", &s, NULL) == OP_OK);
  double o[3], ymax;
  OPT_CHECK(op_soup_frame(&soup, o, &ymax, NULL) == OP_OK);
  OPT_CHECK(o[0] == 0 && o[1] == 0 && o[2] == 0 && ymax == 0);
  op_chf *c = NULL;
  OPT_CHECK(op_spans_build_tile(&s, &soup, o, o[1], ymax, 0, 0, &c, NULL) == OP_OK);
  OPT_CHECK(c && c->grid.gx0 == -5 && c->grid.width == 74 && c->grid.height == 1);
  OPT_CHECK(c && c->nspans == 64);
  int walk = 0;
  for (uint32_t i = 0; c && i < c->nspans; i++) walk += c->areas[i] != 0;
  OPT_CHECK(walk == 16);
  /* global cell (5, 5) = local (10, 10): distance 2 * min(4, 4, 3, 3) = 6: walkable */
  size_t cell = (size_t)10 * 74 + 10;
  OPT_CHECK(c && c->cell_count[cell] == 1 && c->areas[c->cell_index[cell]] == 63);
  op_chf_free(c);
  c = NULL;
  OPT_CHECK(op_spans_build_tile(&s, &soup, o, o[1], ymax, 5, 5, &c, NULL) == OP_OK && !c);
  /* a wall alone (not walkable) builds no tile either (SPAN-182) */
  double w[] = {0, 0, 0, 0, 3, 0, 0, 0, 3};
  uint32_t wt[] = {0, 1, 2};
  op_soup ws = {3, w, 1, wt};
  OPT_CHECK(op_spans_build_tile(&s, &ws, o, 0, 3, 0, 0, &c, NULL) == OP_OK && !c);
}

/* SPAN-183: the tiles of a soup build with the Humanoid preset (tile 64 cells of 0.3):
** X(64) = fl(0 + fl(64 * 0.3)) = 19.199999999999999 = the binary64 of 19.2. A soup with
** greatest x 3 has one tile column; 19.2 still one (X(64) >= 19.2); 19.3 two. */
OPT_TEST(compact_tile_range, "SPAN-183") {
  op_settings s;
  OPT_CHECK(op_settings_preset("Humanoid", &s, NULL) == OP_OK);
  double v[] = {0, 0, 0, 0, 0, 3, 3, 0, 0};
  uint32_t t[] = {0, 1, 2};
  op_soup soup = {3, v, 1, t};
  int32_t nx = 0, nz = 0;
  OPT_CHECK(op_spans_tile_range(&s, &soup, &nx, &nz, NULL) == OP_OK && nx == 1 && nz == 1);
  v[6] = 19.2;
  OPT_CHECK(op_spans_tile_range(&s, &soup, &nx, &nz, NULL) == OP_OK && nx == 1);
  v[6] = 19.3;
  v[5] = 40;
  OPT_CHECK(op_spans_tile_range(&s, &soup, &nx, &nz, NULL) == OP_OK && nx == 2 && nz == 3);
}

/* SPAN-185, SPAN-113: a heightfield input of 10 x 10 columns, each one solid span [0, 10]
** walkable, origin 0, Humanoid: tile (0, 0) holds them all at local 5..14. The outer
** ring is a ledge (drop from 10 to -9), 64 open spans, erosion radius 2 leaves 16. A
** tile whose grid holds no input column is not built. */
OPT_TEST(compact_tile_columns, "SPAN-185") {
  op_settings s;
  OPT_CHECK(op_settings_preset("Humanoid", &s, NULL) == OP_OK);
  op_solid_span sp[100];
  uint32_t cs[101];
  for (int i = 0; i < 100; i++) {
    sp[i].ymin = 0;
    sp[i].ymax = 10;
    sp[i].area = 63;
    cs[i] = (uint32_t)i;
  }
  cs[100] = 100;
  op_solid_columns in;
  memset(&in, 0, sizeof in);
  in.width = in.depth = 10;
  in.col_start = cs;
  in.nspans = 100;
  in.spans = sp;
  op_chf *c = NULL;
  op_error e;
  OPT_CHECK(op_spans_build_tile_columns(&s, &in, 0, 0, &c, &e) == OP_OK);
  OPT_CHECK(c && c->nspans == 64 && c->grid.height == 65535);
  int walk = 0;
  for (uint32_t i = 0; c && i < c->nspans; i++) walk += c->areas[i] != 0;
  OPT_CHECK(walk == 16);
  OPT_CHECK(c && c->spans[0].y == 10);
  op_chf_free(c);
  c = NULL;
  OPT_CHECK(op_spans_build_tile_columns(&s, &in, 3, 0, &c, &e) == OP_OK && !c);
}

/* SPAN-064, SPAN-181: every tile of a generated city (size 2, Humanoid) built from the
** chunked mesh (chunk sizes 7.5 and 24) has the same canonical bytes as from the soup, and
** is built or not built alike. The comparison is an independent check (no value pasted). */
OPT_TEST(compact_chunked_equals_soup, "SPAN-181") {
  op_settings s;
  OPT_CHECK(op_settings_preset("Humanoid", &s, NULL) == OP_OK);
  op_trimesh m;
  memset(&m, 0, sizeof m);
  OPT_CHECK(op_level_generate("city", 7, 2, &s, &m, NULL) == OP_OK);
  op_soup soup = op_trimesh_soup(&m);
  double o[3], ymax;
  OPT_CHECK(op_soup_frame(&soup, o, &ymax, NULL) == OP_OK);
  int32_t nx = 0, nz = 0;
  OPT_CHECK(op_spans_tile_range(&s, &soup, &nx, &nz, NULL) == OP_OK && nx >= 2);
  const double sizes[2] = {7.5, 24};
  int built = 0, same = 0, tiles = 0;
  for (int k = 0; k < 2; k++) {
    op_chunked *ch = NULL;
    OPT_CHECK(op_chunked_create(&soup, sizes[k], &ch, NULL) == OP_OK);
    for (int32_t tz = -1; tz <= nz; tz++)
      for (int32_t tx = -1; tx <= nx; tx++) {
        op_chf *a = NULL, *b = NULL;
        OPT_CHECK(op_spans_build_tile(&s, &soup, o, o[1], ymax, tx, tz, &a, NULL) == OP_OK);
        OPT_CHECK(op_spans_build_tile_chunked(&s, ch, o, o[1], ymax, tx, tz, &b, NULL) == OP_OK);
        tiles++;
        if (a && b) {
          op_bytes ba = {0, 0}, bb = {0, 0};
          op_chf_save(a, &ba, NULL);
          op_chf_save(b, &bb, NULL);
          same += ba.len == bb.len && !memcmp(ba.data, bb.data, ba.len);
          built++;
          op_bytes_free(&ba);
          op_bytes_free(&bb);
        } else {
          same += !a && !b;
        }
        op_chf_free(a);
        op_chf_free(b);
      }
    op_chunked_free(ch);
  }
  OPT_CHECK(built > 0 && same == tiles);
  op_trimesh_free(&m);
}

OPT_MAIN_BEGIN
OPT_RUN(compact_spans);
OPT_RUN(compact_link_climb_limit);
OPT_RUN(compact_link_height_limit);
OPT_RUN(compact_lowest_and_graph);
OPT_RUN(compact_column_limit);
OPT_RUN(compact_bytes);
OPT_RUN(compact_tile_pipeline);
OPT_RUN(compact_tile_range);
OPT_RUN(compact_tile_columns);
OPT_RUN(compact_chunked_equals_soup);
OPT_MAIN_END
