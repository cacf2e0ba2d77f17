/*
** test_budget.c -- the work budget (spec/build3d-spans.md section 11, SPAN-200 .. SPAN-204;
** spec/build2d-tiles.md section 8, T2D-080 .. T2D-082) and the watershed's operation count
** (spec/build3d-regions.md REG-031): limits exactly reached pass, one above fails naming
** the limit; a refused build visits no tile; the watershed's visited spans grow linearly
** with the spans (counted, never timed).
*/
#include <stdlib.h>
#include <string.h>

#include "build3d/regions/regions.h"
#include "fixtures3d.h"
#include "onepath_build2d.h"
#include "onepath_build3d.h"
#include "onepath_pipeline.h"
#include "onepath_stages.h"
#include "onepath_tilecache.h"
#include "optest.h"


static op_cell_settings cells(int32_t grid) {
  op_cell_settings c;
  memset(&c, 0, sizeof c);
  c.grid_cells = grid;
  return c;
}

OPT_TEST(budget_defaults, "SPAN-201") {
  op_build_limits l;
  op_build_limits_default(&l);
  OPT_CHECK(l.max_tile_grid_cells == 4194304u && l.max_tiles == 65536u &&
            l.max_build_cells == 16777216u);
}

OPT_TEST(budget_at_and_above, "SPAN-203") {
  op_error e;
  op_cell_settings c = cells(2048);
  OPT_CHECK(op_build_budget_check(&c, 1, NULL, &e) == OP_OK);
  c = cells(2049);
  OPT_CHECK(op_build_budget_check(&c, 1, NULL, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "limits.max_tile_grid_cells") == 0 && strcmp(e.value, "4198401") == 0);
  op_build_limits up = {4198401u, 0, 0};
  OPT_CHECK(op_build_budget_check(&c, 1, &up, &e) == OP_OK);
  c = cells(9);
  OPT_CHECK(op_build_budget_check(&c, 65536, NULL, &e) == OP_OK);
  OPT_CHECK(op_build_budget_check(&c, 65537, NULL, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "limits.max_tiles") == 0 && strcmp(e.value, "65537") == 0);
  c = cells(64);
  OPT_CHECK(op_build_budget_check(&c, 4096, NULL, &e) == OP_OK);
  OPT_CHECK(op_build_budget_check(&c, 4097, NULL, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "limits.max_build_cells") == 0 && strcmp(e.value, "16781312") == 0);
}

static void count_progress(void *ud, uint64_t done, uint64_t total) {
  (void)done;
  (void)total;
  (*(uint64_t *)ud)++;
}

/* SPAN-204: a refused build starts no tile (the progress hook is never called). */
OPT_TEST(budget_before_work, "SPAN-204") {
  op_settings s = fx_humanoid(OP_PARTITION_WATERSHED);
  s.cell_size = 1.0 / 4096;
  s.cell_height = 1.0 / 4096;
  s.agent_radius = 2.0 / 4096;
  s.agent_height = 20.0 / 4096;
  s.agent_climb = 9.0 / 4096;
  s.max_edge_len = 0;
  s.tile_cells = 4096;
  double v[12] = {0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0};
  uint32_t t[6] = {0, 1, 2, 0, 2, 3};
  op_soup soup = {4, v, 2, t};
  uint64_t calls = 0;
  op_pipeline_hooks h = {&calls, count_progress, NULL};
  op_pipeline_result r;
  op_error e;
  OPT_CHECK(op_pipeline_build_soup(&s, &soup, &h, &r, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "limits.max_tile_grid_cells") == 0 && calls == 0);
  /* RT-016: the cached build is refused the same way, before any tile, with no cache */
  op_tilecache *c = NULL;
  memset(&e, 0, sizeof e);
  OPT_CHECK(op_pipeline_build_soup_cached(&s, &soup, &h, &r, &c, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "limits.max_tile_grid_cells") == 0 && calls == 0 && c == NULL);
}

/* SPAN-200 through the C wrappers no request reaches: op_pipeline_build_soup_limited takes
** the host's budget (a budget one tile short refuses a 4-tile build naming max_tiles), and
** a cached build refuses any budget (RT-016: it has no limits argument). */
OPT_TEST(budget_c_wrappers, "SPAN-200, RT-016") {
  op_settings s = fx_humanoid(OP_PARTITION_MONOTONE);
  s.tile_cells = 16;
  double w = 16 * s.cell_size * 2;
  double v[12] = {0, 0, 0, 0, 0, w, w, 0, w, w, 0, 0};
  uint32_t t[6] = {0, 1, 2, 0, 2, 3};
  op_soup soup = {4, v, 2, t};
  op_build_limits lim = {0, 3, 0};
  op_pipeline_result r;
  op_error e;
  memset(&e, 0, sizeof e);
  OPT_CHECK(op_pipeline_build_soup_limited(&s, &soup, &lim, NULL, &r, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "limits.max_tiles") == 0 && strcmp(e.value, "4") == 0);
  lim.max_tiles = 4;
  OPT_CHECK(op_pipeline_build_soup_limited(&s, &soup, &lim, NULL, &r, &e) == OP_OK);
  op_pipeline_result_free(&r);
  op_pipeline_options o;
  memset(&o, 0, sizeof o);
  o.limits = &lim;
  op_tilecache *c = NULL;
  OPT_CHECK(op_pipeline_build_soup_cached_opt(&s, &soup, &o, NULL, &r, &c, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "limits") == 0 && c == NULL);
}

/* T2D-082: 3 x 3 tiles at max_tiles 9 pass, at 8 fail before the arrangement. */
OPT_TEST(budget_2d, "T2D-082") {
  op_settings2d s;
  op_settings2d_preset("Large", &s, NULL);
  s.cell_size = 1;
  s.tile_cells = 1;
  s.agent_radius = 0;
  s.snap_bits = 0;
  double xy[8] = {0, 0, 3, 0, 3, 3, 0, 3};
  op_outline2d o = {xy, 4};
  op_build2d_limits l = {9, 0, 0, NULL};
  op_mesh *m = NULL;
  op_error e;
  OPT_CHECK(op_build2d_outlines_limited(&s, &o, 1, NULL, 0, &l, &m, &e) == OP_OK);
  op_mesh_free(m);
  m = NULL;
  l.max_tiles = 8;
  OPT_CHECK(op_build2d_outlines_limited(&s, &o, 1, NULL, 0, &l, &m, &e) == OP_E_LIMIT);
  OPT_CHECK(m == NULL && strcmp(e.field, "limits.max_tiles") == 0 && strcmp(e.value, "9") == 0);
}

/* A flat square floor of side w (one span per column, area 63). */
static op_chf *floor_chf(int w) {
  op_hf *hf = fx_hf(w, w, 1, 0.1, 100);
  op_chf *c = NULL;
  if (!hf) return NULL;
  for (int z = 0; z < w; z++)
    for (int x = 0; x < w; x++) op_hf_add_span(hf, x, z, 0, 10, 63, 0, NULL);
  op_chf_build(hf, 20, 3, &c, NULL);
  op_hf_free(hf);
  return c;
}

/* REG-031: the visited spans per span stay bounded as the floor grows (the levels grow
** with the side: a scan per level would make the count grow with the side too). */
OPT_TEST(watershed_work_linear, "REG-031") {
  double per[3] = {0, 0, 0};
  int sides[3] = {64, 128, 256};
  for (int k = 0; k < 3; k++) {
    op_chf *c = floor_chf(sides[k]);
    OPT_CHECK(c != NULL);
    if (!c) return;
    op_regions r;
    uint64_t work = 0;
    OPT_CHECK(opr_watershed_work(c, 0, 8, 20, &r, &work, NULL) == OP_OK);
    per[k] = (double)work / (double)(sides[k] * sides[k]);
    op_regions_free(&r);
    op_chf_free(c);
  }
  /* levels: 64 -> about 64, 256 -> about 256; the count per span must not follow */
  OPT_CHECK(per[0] > 0 && per[2] < 2.0 * per[0] && per[2] < 16.0);
}

OPT_MAIN_BEGIN
OPT_RUN(budget_defaults);
OPT_RUN(budget_at_and_above);
OPT_RUN(budget_before_work);
OPT_RUN(budget_c_wrappers);
OPT_RUN(budget_2d);
OPT_RUN(watershed_work_linear);
OPT_MAIN_END
