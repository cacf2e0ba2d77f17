/*
** test_layerfirst.c -- layer-first tiles and the pipeline contract (ref/build3d/pipeline/pipeline.c,
** ref/build3d/pipeline/layerfirst.c, ref/build3d/pipeline/pipeline_internal.h; spec/build3d-runtime.md RT-010, RT-015,
** RT-080 .. RT-087): which builds are layer first; a one-layer tile equals the general path byte for byte and a tile of
** several layers has the general path's walkable area within 1 % on the generated levels;
** the layer view; the layers are made before the settings' volumes and obstacles; the
** settings' Obstacles change the tiles they cover and no others, on both paths; the
** limits of RT-082 and RT-086; a run with keep gives the plain build's bytes.
**
** Every expected value comes from a second route (the general path, a separate marking,
** an independent count) or from a property; the figures of RT-087 are printed.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "core/internal.h"
#include "navmesh/mesh_internal.h"
#include "build3d/spans/obstacles.h"
#include "optest.h"
#include "build3d/pipeline/pipeline_internal.h"

/* ------------------------------------------------------------ helpers */

typedef struct lvl {
  const char *name;
  uint64_t seed;
  uint32_t size;
} lvl;

/* The levels of the build3d/soup-* scenarios (conformance/lib/pipeline3d.lua). */
static const lvl LEVELS[4] = {
    {"terrain", 0xa1, 24}, {"city", 7, 2}, {"stairs", 0xa1, 12}, {"dungeon", 3, 16}};

static int gen(const lvl *l, const op_settings *s, op_trimesh *m) {
  op_error e;
  memset(m, 0, sizeof *m);
  return op_level_generate(l->name, l->seed, l->size, s, m, &e) == OP_OK;
}

/* 1 when both saves succeeded (sx into x, sy into y) with the same bytes; frees both. */
static int saved_eq(op_status sx, op_bytes *x, op_status sy, op_bytes *y) {
  int eq = sx == OP_OK && sy == OP_OK && fx_same(x, y);
  op_bytes_free(x);
  op_bytes_free(y);
  return eq;
}

/* 1 when both tiles are absent or both serialize to the same bytes. */
static int tile_eq(const op_tile *a, const op_tile *b) {
  if (!a || !b) return a == b;
  op_bytes x = {NULL, 0}, y = {NULL, 0};
  op_error e;
  return saved_eq(op_tile_save(a, &x, &e), &x, op_tile_save(b, &y, &e), &y);
}

static int chf_eq(const op_chf *a, const op_chf *b) {
  if (!a || !b) return a == b;
  op_bytes x = {NULL, 0}, y = {NULL, 0};
  op_error e;
  return saved_eq(op_chf_save(a, &x, &e), &x, op_chf_save(b, &y, &e), &y);
}

/* The walkable area of a tile: the sum of its polygons' areas (shoelace on x, z of the
** stored binary32 positions, in binary64). */
static double tile_area(const op_tile *t) {
  if (!t) return 0;
  op_tile_desc v;
  op_tile_view(t, &v);
  double a2 = 0;
  for (uint32_t i = 0; i < v.npolys; i++) {
    const op_poly_desc *q = &v.polys[i];
    for (uint32_t j = 0; j < q->nverts; j++) {
      const float *a = v.verts + 3 * q->verts[j], *b = v.verts + 3 * q->verts[(j + 1) % q->nverts];
      a2 += (double)a[0] * b[2] - (double)a[2] * b[0];
    }
  }
  return a2 / 2;
}

static int mesh_eq(const op_mesh *a, const op_mesh *b) {
  op_bytes x = {NULL, 0}, y = {NULL, 0};
  op_error e;
  return saved_eq(op_mesh_save(a, &x, &e), &x, op_mesh_save(b, &y, &e), &y);
}

/* ------------------------------------------------------------ RT-087 */

/* Every tile of the four levels: one layer -> the layer path's tile equals the general
** path's byte for byte; several layers -> the walkable areas agree within 1 %. */
/* The levels of RT-087's test: the scenarios' four with Humanoid, four larger ones with
** Humanoid, the scenarios' four with Small. */
static const lvl MORE[4] = {{"terrain", 5, 48}, {"city", 11, 3}, {"stairs", 9, 20},
                            {"dungeon", 12, 30}};

OPT_TEST(one_layer_equals_general, "RT-087") {
  uint32_t all_single = 0, all_same = 0;
  for (int l = 0; l < 12; l++) {
    op_settings s = fx_humanoid(OP_PARTITION_LAYERS);
    const lvl *lv = l >= 4 && l < 8 ? &MORE[l - 4] : &LEVELS[l % 4];
    if (l >= 8) { /* the Small preset */
      op_error e0;
      op_settings_preset("Small", &s, &e0);
      s.detail_sample_distance = 0;
      s.partition = OP_PARTITION_LAYERS;
    }
    op_trimesh m;
    OPT_CHECK(gen(lv, &s, &m));
    op_soup soup = op_trimesh_soup(&m);
    opl_ctx c;
    op_error e;
    OPT_CHECK(opl_begin_soup(&c, &s, &soup, NULL, &e) == OP_OK);
    OPT_CHECK(c.layer_first == 1); /* RT-080 */
    uint32_t built = 0, single = 0, multi = 0, same = 0, maxl = 0, nl_sum = 0;
    double ga = 0, la = 0, worst = 0;
    for (int32_t tz = 0; tz < c.ntz; tz++)
      for (int32_t tx = 0; tx < c.ntx; tx++) {
        opl_base b;
        OPT_CHECK(opl_tile_base(&c, tx, tz, &b, &e) == OP_OK);
        if (!b.chf) continue;
        built++;
        nl_sum += b.nlayers;
        if (b.nlayers > maxl) maxl = b.nlayers;
        op_tile *g = NULL;
        OPT_CHECK(opl_tile_general(&c, b.chf, tx, tz, &g, &e) == OP_OK);
        double ta = 0;
        for (uint32_t L = 0; L < b.nlayers; L++) {
          opl_unit u;
          OPT_CHECK(opl_layer_unit(&c, &b, tx, tz, L, &u, &e) == OP_OK);
          if (b.nlayers == 1) {
            single++;
            same += tile_eq(g, u.tile);
            OPT_CHECK(tile_eq(g, u.tile));
          }
          if (u.tile) {
            op_tile_desc v;
            op_tile_view(u.tile, &v);
            OPT_CHECK(v.layer == (int32_t)L && v.x == tx && v.z == tz); /* RT-085 */
          }
          ta += tile_area(u.tile);
          opl_unit_free(&u);
        }
        if (b.nlayers > 1) {
          multi++;
          double gt = tile_area(g), d = gt > ta ? gt - ta : ta - gt;
          ga += gt;
          la += ta;
          if (gt > 0 && d / gt > worst) worst = d / gt;
        }
        op_tile_free(g);
        opl_base_free(&b);
      }
    double tot = ga > la ? ga - la : la - ga;
    all_single += single;
    all_same += same;
    printf("     %-8s %-5s tiles built %u, layers %u (max %u per tile), one-layer %u (%u equal), "
           "several %u: area general %.2f, layer first %.2f (%.3f %%), worst tile %.3f %%\n",
           lv->name, l >= 8 ? "Small" : "Hum.", built, nl_sum, maxl, single, same, multi, ga, la,
           ga > 0 ? 100 * tot / ga : 0.0, 100 * worst);
    OPT_CHECK(built > 0 && same == single);
    OPT_CHECK(tot <= 0.01 * ga); /* RT-087: within 1 % over the tiles of several layers */
    OPT_CHECK(worst <= 0.01);    /* and on each of them */
    op_trimesh_free(&m);
  }
  printf("     one-layer tiles: %u, equal to the general path: %u\n", all_single, all_same);
  OPT_CHECK(all_single >= 10 && all_same == all_single);
}

/* ------------------------------------------------------------ RT-083 */

/* The view of every layer of every city tile: its spans are exactly layer L's, in column
** order (map ascending, each span's floor, clearance and area copied), and its links are
** the tile's links to spans of L, re-indexed; the views of all layers hold every span once. */
OPT_TEST(layer_view, "RT-083") {
  op_settings s = fx_humanoid(OP_PARTITION_LAYERS);
  op_trimesh m;
  OPT_CHECK(gen(&LEVELS[1], &s, &m));
  op_soup soup = op_trimesh_soup(&m);
  opl_ctx c;
  op_error e;
  OPT_CHECK(opl_begin_soup(&c, &s, &soup, NULL, &e) == OP_OK);
  uint32_t bad = 0, views = 0;
  for (int32_t tz = 0; tz < c.ntz; tz++)
    for (int32_t tx = 0; tx < c.ntx; tx++) {
      opl_base b;
      OPT_CHECK(opl_tile_base(&c, tx, tz, &b, &e) == OP_OK);
      if (!b.chf) continue;
      const op_chf *t = b.chf;
      const int32_t w = t->grid.width;
      uint32_t total = 0;
      for (uint32_t L = 0; L < b.nlayers; L++) {
        op_chf *v = NULL;
        uint32_t *map = NULL;
        OPT_CHECK(opl_layer_view(t, b.layer, L, &v, &map, &e) == OP_OK);
        views++;
        uint32_t expect = 0;
        for (uint32_t i = 0; i < t->nspans; i++) expect += b.layer[i] == L;
        bad += v->nspans != expect;
        total += v->nspans;
        for (uint32_t k = 0; k < v->nspans; k++) {
          uint32_t i = map[k];
          bad += (k > 0 && map[k - 1] >= i) || b.layer[i] != L;
          bad += v->spans[k].y != t->spans[i].y || v->spans[k].h != t->spans[i].h ||
                 v->areas[k] != t->areas[i];
        }
        for (int32_t z = 0; z < t->grid.depth; z++)
          for (int32_t x = 0; x < w; x++) {
            size_t col = (size_t)z * (size_t)w + (size_t)x;
            for (uint32_t k = v->cell_index[col]; k < v->cell_index[col] + v->cell_count[col]; k++) {
              bad += map[k] < t->cell_index[col] || map[k] >= t->cell_index[col] + t->cell_count[col];
              for (int d = 0; d < 4; d++) {
                uint8_t tl = t->spans[map[k]].link[d], vl = v->spans[k].link[d];
                uint32_t tj = OP_HF_NONE, vj = OP_HF_NONE;
                if (tl != OP_CHF_NOT_CONNECTED) {
                  size_t nc = (size_t)(z + (d == 1) - (d == 3)) * (size_t)w + (size_t)(x + (d == 2) - (d == 0));
                  tj = t->cell_index[nc] + tl;
                  if (b.layer[tj] != L) tj = OP_HF_NONE; /* dropped */
                  if (vl != OP_CHF_NOT_CONNECTED) vj = map[v->cell_index[nc] + vl];
                } else if (vl != OP_CHF_NOT_CONNECTED) {
                  bad++;
                }
                bad += tj != vj;
              }
            }
          }
        op_chf_free(v);
        free(map);
      }
      bad += total != t->nspans;
      opl_base_free(&b);
    }
  printf("     city: %u layer views checked\n", views);
  OPT_CHECK(bad == 0 && views > 0);
  op_trimesh_free(&m);
}

/* ------------------------------------------------------------ RT-081, RT-010 */

/* A cylinder and a box on the middle of a level, wall to wall in height. */
static void middle_obstacles(const op_trimesh *m, op_obstacle o[2]) {
  double mn[3], mx[3];
  for (int k = 0; k < 3; k++) mn[k] = mx[k] = m->verts[k];
  for (uint32_t v = 0; v < m->nverts; v++)
    for (int k = 0; k < 3; k++) {
      double p = m->verts[3 * (size_t)v + k];
      if (p < mn[k]) mn[k] = p;
      if (p > mx[k]) mx[k] = p;
    }
  double cx = (mn[0] + mx[0]) / 2, cz = (mn[2] + mx[2]) / 2;
  o[0] = fx_cylinder(cx, mn[1] - 1, cz, 1.5, mx[1] - mn[1] + 2);
  o[1] = fx_box(mn[0] + 3, mn[1] - 1, cz + 4, mn[0] + 5, mx[1] + 1, cz + 6);
}

/* With volumes and Obstacles in the settings, a tile's base holds: the layers of the tile
** without them (RT-081: computed before any volume or obstacle), and the areas of the base
** without obstacles, marked with opob_chf_mark afterwards (RT-010). A volume of area
** 0 over the middle and the two obstacles; every level, both paths. */
OPT_TEST(base_marks_after_layers, "RT-081") {
  uint32_t changed = 0, layered = 0;
  for (int l = 0; l < 4; l++)
    for (int p = 0; p < 2; p++) {
      op_settings s = fx_humanoid(p ? OP_PARTITION_LAYERS : OP_PARTITION_WATERSHED);
      op_trimesh m;
      OPT_CHECK(gen(&LEVELS[l], &s, &m));
      op_soup soup = op_trimesh_soup(&m);
      op_obstacle o[2];
      middle_obstacles(&m, o);
      double x0 = o[0].center[0] - 4, z0 = o[0].center[2] - 8;
      op_convex_volume vol = fx_quad(x0, z0, x0 + 3, z0 + 3, o[0].center[1],
                                     o[0].center[1] + o[0].height, 0);
      op_settings sv = s, so = s;
      sv.nvolumes = 1, sv.volumes = &vol;
      so.nvolumes = 1, so.volumes = &vol, so.nobstacles = 2, so.obstacles = o;
      opl_ctx c0, cv, co;
      op_error e;
      OPT_CHECK(opl_begin_soup(&c0, &s, &soup, NULL, &e) == OP_OK);
      OPT_CHECK(opl_begin_soup(&cv, &sv, &soup, NULL, &e) == OP_OK);
      OPT_CHECK(opl_begin_soup(&co, &so, &soup, NULL, &e) == OP_OK);
      for (int32_t tz = 0; tz < c0.ntz; tz++)
        for (int32_t tx = 0; tx < c0.ntx; tx++) {
          opl_base b0, bv, bo;
          OPT_CHECK(opl_tile_base(&c0, tx, tz, &b0, &e) == OP_OK);
          OPT_CHECK(opl_tile_base(&cv, tx, tz, &bv, &e) == OP_OK);
          OPT_CHECK(opl_tile_base(&co, tx, tz, &bo, &e) == OP_OK);
          OPT_CHECK(!b0.chf == !bo.chf && !b0.chf == !bv.chf);
          if (b0.chf && bv.chf && bo.chf) {
            OPT_CHECK(b0.nlayers == bo.nlayers && bv.nlayers == bo.nlayers);
            if (p) {
              OPT_CHECK(memcmp(b0.layer, bo.layer, b0.chf->nspans * sizeof *b0.layer) == 0);
              layered += b0.nlayers > 1;
            } else {
              OPT_CHECK(!bo.layer && bo.nlayers == 1);
            }
            OPT_CHECK(opob_chf_mark(bv.chf, o, 2, c0.cell.walkable_radius, NULL, &e) ==
                      OP_OK);
            OPT_CHECK(chf_eq(bv.chf, bo.chf));
            changed += !chf_eq(b0.chf, bo.chf);
          }
          opl_base_free(&b0);
          opl_base_free(&bv);
          opl_base_free(&bo);
        }
      op_trimesh_free(&m);
    }
  printf("     bases changed by the volume and obstacles: %u; layered tiles compared: %u\n",
         changed, layered);
  OPT_CHECK(changed > 0 && layered > 0);
}

typedef struct tid {
  int32_t x, z, layer;
  uint64_t id;
} tid;

/* The content id of (x, z, layer) in a result, or 0. */
static uint64_t find_id(const op_pipeline_result *r, int32_t x, int32_t z, int32_t layer) {
  for (uint32_t i = 0; i < r->ntiles; i++)
    if (r->tiles[i].x == x && r->tiles[i].z == z && r->tiles[i].layer == layer)
      return r->tiles[i].content_id;
  return 0;
}

/* 1 when every tile at (x, z) is the same in both results (same layers, same ids). */
static int position_same(const op_pipeline_result *a, const op_pipeline_result *b, int32_t x,
                         int32_t z) {
  for (int32_t L = 0; L < 256; L++)
    if (find_id(a, x, z, L) != find_id(b, x, z, L)) return 0;
  return 1;
}

/* A plain build with Obstacles in the settings differs from the build without them only
** at tiles the obstacles can reach (opob_tile_queued on the tile's grid: the grid
** widened by R + 1 cells meets the grown box), and differs at one at least; every level,
** both paths. */
OPT_TEST(obstacles_change_covered_tiles_only, "RT-010") {
  uint32_t diff = 0, covered = 0, outside = 0;
  for (int l = 0; l < 4; l++)
    for (int p = 0; p < 2; p++) {
      op_settings s = fx_humanoid(p ? OP_PARTITION_LAYERS : OP_PARTITION_WATERSHED);
      op_trimesh m;
      OPT_CHECK(gen(&LEVELS[l], &s, &m));
      op_soup soup = op_trimesh_soup(&m);
      op_obstacle o[2];
      middle_obstacles(&m, o);
      op_settings so = s;
      so.nobstacles = 2, so.obstacles = o;
      op_pipeline_result r0, r1;
      op_error e;
      OPT_CHECK(op_pipeline_build_soup(&s, &soup, NULL, &r0, &e) == OP_OK);
      OPT_CHECK(op_pipeline_build_soup(&so, &soup, NULL, &r1, &e) == OP_OK);
      OPT_CHECK(r0.ntx == r1.ntx && r0.ntz == r1.ntz && r0.nbuilt == r1.nbuilt);
      opl_ctx c;
      OPT_CHECK(opl_begin_soup(&c, &s, &soup, NULL, &e) == OP_OK);
      opob_obst q[2];
      for (int k = 0; k < 2; k++)
        OPT_CHECK(opob_prepare(&o[k], c.cell.walkable_radius, s.cell_size, &q[k], &e) == OP_OK);
      for (int32_t tz = 0; tz < c.ntz; tz++)
        for (int32_t tx = 0; tx < c.ntx; tx++) {
          op_hf_grid g;
          OPT_CHECK(op_hf_grid_tile(&s, &c.cell, c.origin, tx, tz, c.origin[1], c.ymax, &g, &e) ==
                    OP_OK);
          int reach = opob_tile_queued(&q[0], &g) || opob_tile_queued(&q[1], &g);
          int same = position_same(&r0, &r1, tx, tz);
          covered += reach;
          if (!reach) {
            outside++;
            OPT_CHECK(same);
          }
          diff += !same;
        }
      op_pipeline_result_free(&r0);
      op_pipeline_result_free(&r1);
      op_trimesh_free(&m);
    }
  printf("     positions reached %u, not reached %u (all equal), changed %u\n", covered, outside,
         diff);
  OPT_CHECK(diff > 0 && outside > 0);
}

/* The plain build with Obstacles equals, tile for tile, the stages run on the base built
** without them and marked afterwards (RT-010; general path: opl_tile_general). */
OPT_TEST(obstacles_equal_marking_after, "RT-010") {
  op_settings s = fx_humanoid(OP_PARTITION_WATERSHED);
  op_trimesh m;
  OPT_CHECK(gen(&LEVELS[1], &s, &m));
  op_soup soup = op_trimesh_soup(&m);
  op_obstacle o[2];
  middle_obstacles(&m, o);
  op_settings so = s;
  so.nobstacles = 2, so.obstacles = o;
  op_pipeline_result r;
  op_error e;
  OPT_CHECK(op_pipeline_build_soup(&so, &soup, NULL, &r, &e) == OP_OK);
  opl_ctx c;
  OPT_CHECK(opl_begin_soup(&c, &s, &soup, NULL, &e) == OP_OK);
  uint32_t k = 0, bad = 0;
  for (int32_t tz = 0; tz < c.ntz; tz++)
    for (int32_t tx = 0; tx < c.ntx; tx++) {
      opl_base b;
      OPT_CHECK(opl_tile_base(&c, tx, tz, &b, &e) == OP_OK);
      if (b.chf) {
        op_tile *t = NULL;
        OPT_CHECK(opob_chf_mark(b.chf, o, 2, c.cell.walkable_radius, NULL, &e) == OP_OK);
        OPT_CHECK(opl_tile_general(&c, b.chf, tx, tz, &t, &e) == OP_OK);
        if (t) {
          bad += k >= r.ntiles || r.tiles[k].content_id != op_tile_content_id(t);
          k++;
        }
        op_tile_free(t);
      }
      opl_base_free(&b);
    }
  OPT_CHECK(bad == 0 && k == r.ntiles);
  op_pipeline_result_free(&r);
  op_trimesh_free(&m);
}

/* ------------------------------------------------------------ RT-015, RT-086 */

/* opl_run with keep gives the plain build's mesh bytes and tile list; keep holds every
** built tile in cache order with one unit per layer, whose tiles are the tiles added. */
OPT_TEST(keep_equals_plain, "RT-015") {
  for (int l = 0; l < 4; l++)
    for (int p = 0; p < 2; p++) {
      op_settings s = fx_humanoid(p ? OP_PARTITION_LAYERS : OP_PARTITION_MONOTONE);
      op_trimesh m;
      OPT_CHECK(gen(&LEVELS[l], &s, &m));
      op_soup soup = op_trimesh_soup(&m);
      opl_ctx c;
      op_error e;
      op_pipeline_result r0, r1;
      opl_keep k;
      OPT_CHECK(op_pipeline_build_soup(&s, &soup, NULL, &r0, &e) == OP_OK);
      OPT_CHECK(opl_begin_soup(&c, &s, &soup, NULL, &e) == OP_OK);
      OPT_CHECK(opl_run(&c, &r1, &k, &e) == OP_OK);
      OPT_CHECK(mesh_eq(r0.mesh, r1.mesh));
      OPT_CHECK(r0.ntiles == r1.ntiles && r0.nbuilt == r1.nbuilt && r0.npolys == r1.npolys);
      OPT_CHECK(k.ntiles == r1.nbuilt);
      uint32_t n = 0, bad = 0;
      for (uint32_t i = 0; i < k.ntiles; i++) {
        const opl_keep_tile *t = &k.tiles[i];
        if (i > 0) bad += !(k.tiles[i - 1].tz < t->tz ||
                            (k.tiles[i - 1].tz == t->tz && k.tiles[i - 1].tx < t->tx));
        bad += !t->base.chf || t->nunits != t->base.nlayers || !!t->base.layer != p;
        uint32_t spans = 0;
        for (uint32_t L = 0; L < t->nunits; L++) {
          const opl_unit *u = &t->units[L];
          bad += p ? (!u->view || !u->map) : (u->view || u->map || u->rg.reg || u->cs.loops);
          if (u->view) spans += u->view->nspans;
          if (u->tile) {
            bad += n >= r1.ntiles || r1.tiles[n].content_id != op_tile_content_id(u->tile) ||
                   r1.tiles[n].layer != (int32_t)L;
            n++;
          }
        }
        if (p) bad += spans != t->base.chf->nspans;
      }
      OPT_CHECK(bad == 0 && n == r1.ntiles);
      opl_keep_free(&k);
      OPT_CHECK(k.ntiles == 0 && k.tiles == NULL);
      op_pipeline_result_free(&r0);
      op_pipeline_result_free(&r1);
      op_trimesh_free(&m);
    }
}

/* RT-086 (b), (c): max_tiles is the sum over the grid of the layer counts, 1 for a position
** not built; (d) tiles in the order of POLY-223 with the layers ascending. */
OPT_TEST(slot_count, "RT-086") {
  for (int l = 0; l < 4; l++) {
    op_settings s = fx_humanoid(OP_PARTITION_LAYERS);
    op_trimesh m;
    OPT_CHECK(gen(&LEVELS[l], &s, &m));
    op_soup soup = op_trimesh_soup(&m);
    opl_ctx c;
    op_error e;
    op_pipeline_result r;
    OPT_CHECK(opl_begin_soup(&c, &s, &soup, NULL, &e) == OP_OK);
    uint64_t sum = 0;
    for (int32_t tz = 0; tz < c.ntz; tz++)
      for (int32_t tx = 0; tx < c.ntx; tx++) {
        opl_base b;
        OPT_CHECK(opl_tile_base(&c, tx, tz, &b, &e) == OP_OK);
        sum += b.chf ? b.nlayers : 1;
        opl_base_free(&b);
      }
    OPT_CHECK(opl_run(&c, &r, NULL, &e) == OP_OK);
    OPT_CHECK(r.mesh->params.max_tiles == sum);
    printf("     %-8s grid %d x %d, slots %llu\n", LEVELS[l].name, (int)r.ntx, (int)r.ntz,
           (unsigned long long)sum);
    for (uint32_t i = 1; i < r.ntiles; i++) {
      const op_pipeline_tile *a = &r.tiles[i - 1], *b = &r.tiles[i];
      OPT_CHECK(a->z < b->z || (a->z == b->z && (a->x < b->x || (a->x == b->x && a->layer < b->layer))));
    }
    op_pipeline_result_free(&r);
    op_trimesh_free(&m);
  }
}

/* ------------------------------------------------------------ RT-082 */

/* One tile of n x n columns (n = 64 = TileSize): pits one cell wide, floor row 10, between
** walls up to row 40 (a step of 30 rows: no link, and the wall tops are ledges). With
** AgentRadius 0 nothing is eroded, so every pit is a walkable island of its own: its own
** sweep region and its own layer (REG-074). pits(x, z) says where the pits are. */
typedef int (*pit_fn)(int x, int z);
static int pits_all(int x, int z) { return (x & 1) && (z & 1) && x < 63 && z < 63; }
static int pits_few(int x, int z) { return (x & 1) && (z & 1) && x < 20 && z < 20; }

static op_status pit_build(pit_fn f, opl_ctx *c, op_settings *s, op_solid_columns *cols,
                           uint32_t *start, op_solid_span *spans, op_error *e) {
  const int n = 64;
  for (int z = 0; z < n; z++)
    for (int x = 0; x < n; x++) {
      int i = z * n + x;
      start[i] = (uint32_t)i;
      spans[i].ymin = 0;
      spans[i].ymax = f(x, z) ? 10 : 40;
      spans[i].area = 63;
    }
  start[n * n] = (uint32_t)(n * n);
  memset(cols, 0, sizeof *cols);
  cols->width = cols->depth = (uint32_t)n;
  cols->col_start = start;
  cols->nspans = (uint32_t)(n * n);
  cols->spans = spans;
  *s = fx_humanoid(OP_PARTITION_LAYERS);
  s->agent_radius = 0;
  s->min_region_area = 0;
  return opl_begin_columns(c, s, cols, NULL, e);
}

OPT_TEST(layer_limit, "RT-082") {
  static uint32_t start[64 * 64 + 1];
  static op_solid_span spans[64 * 64];
  op_solid_columns cols;
  op_settings s;
  opl_ctx c;
  op_error e;
  /* under the limit: 100 pits, 100 layers at least (the walls' tops are ledges) */
  OPT_CHECK(pit_build(pits_few, &c, &s, &cols, start, spans, &e) == OP_OK);
  OPT_CHECK(c.ntx == 1 && c.ntz == 1 && c.cell.walkable_radius == 0);
  opl_base b;
  OPT_CHECK(opl_tile_base(&c, 0, 0, &b, &e) == OP_OK);
  uint32_t nl = 0;
  uint16_t *lay = b.chf ? malloc(b.chf->nspans * sizeof *lay) : NULL;
  OPT_CHECK(lay && op_regions_layer_assign(b.chf, lay, &nl, &e) == OP_OK);
  printf("     100 pits: %u layers\n", b.nlayers);
  OPT_CHECK(b.nlayers == nl && nl >= 100 && nl <= 256);
  free(lay);
  opl_base_free(&b);
  /* over it: 31 x 31 pits */
  OPT_CHECK(pit_build(pits_all, &c, &s, &cols, start, spans, &e) == OP_OK);
  op_chf *chf = NULL;
  OPT_CHECK(op_spans_build_tile_columns(&s, &cols, 0, 0, &chf, &e) == OP_OK && chf);
  lay = chf ? malloc(chf->nspans * sizeof *lay) : NULL;
  nl = 0;
  OPT_CHECK(lay && op_regions_layer_assign(chf, lay, &nl, &e) == OP_OK);
  OPT_CHECK(nl >= 31 * 31);
  free(lay);
  op_chf_free(chf);
  memset(&b, 0x55, sizeof b);
  OPT_CHECK(opl_tile_base(&c, 0, 0, &b, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "layers") == 0 && b.chf == NULL && b.layer == NULL);
  char want[32];
  snprintf(want, sizeof want, "%u", nl);
  OPT_CHECK(strcmp(e.value, want) == 0);
  /* the whole build fails with the tile named, nothing returned, keep zeroed */
  op_pipeline_result r;
  opl_keep k;
  memset(&r, 0, sizeof r);
  OPT_CHECK(opl_run(&c, &r, &k, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "layers") == 0 && strncmp(e.message, "tile (0, 0): ", 13) == 0);
  OPT_CHECK(r.mesh == NULL && k.ntiles == 0 && k.tiles == NULL);
  OPT_CHECK(op_pipeline_build_heightfield(&s, &cols, NULL, &r, &e) == OP_E_LIMIT);
  /* the general path has no such limit (its tiles are layer 0) */
  s.partition = OP_PARTITION_MONOTONE;
  OPT_CHECK(op_pipeline_build_heightfield(&s, &cols, NULL, &r, &e) == OP_OK);
  op_pipeline_result_free(&r);
}

/* ------------------------------------------------------------ RT-086 (b) */

/* A grid of 2^22 positions (TileSize 1, so a soup 2048 x 2048 cells across) whose only
** built tiles are under a deck over a floor (two layers each): the grid passes POLY-222,
** the sum of the layer counts exceeds 2^22, a limit error tile_cells with TileSize. */
OPT_TEST(slot_limit, "RT-086") {
  op_settings s = fx_humanoid(OP_PARTITION_LAYERS);
  s.tile_cells = 1;
  const double w = 0.3 * 2048 - 0.15; /* the last vertex inside tile column 2047 */
  /* floor 0..3 at y 0, deck 0..3 at y 3, a vertical triangle far away */
  double v[] = {0, 0, 0, 0, 0, 3, 3, 0, 3, 3, 0, 0, 0, 3, 0, 0, 3, 3, 3, 3, 3, 3, 3, 0,
                w, 0, w, w, 1, w, w - 0.01, 0, w};
  uint32_t t[] = {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7, 8, 9, 10};
  op_soup soup = {11, v, 5, t};
  opl_ctx c;
  op_error e;
  OPT_CHECK(opl_begin_soup(&c, &s, &soup, NULL, &e) == OP_OK);
  printf("     grid %d x %d\n", (int)c.ntx, (int)c.ntz);
  OPT_CHECK((uint64_t)c.ntx * (uint64_t)c.ntz <= (1u << 22));
  OPT_CHECK((uint64_t)c.ntx * (uint64_t)c.ntz > (1u << 22) - 4);
  opl_base b;
  OPT_CHECK(opl_tile_base(&c, 5, 5, &b, &e) == OP_OK && b.chf && b.nlayers == 2);
  opl_base_free(&b);
  op_pipeline_result r;
  memset(&r, 0, sizeof r);
  OPT_CHECK(opl_run(&c, &r, NULL, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "tile_cells") == 0 && strcmp(e.value, "1") == 0 && r.mesh == NULL);
  OPT_CHECK(strstr(e.message, "RT-086") != NULL);
  /* the general path builds it (one slot per position) */
  s.partition = OP_PARTITION_WATERSHED;
  OPT_CHECK(opl_begin_soup(&c, &s, &soup, NULL, &e) == OP_OK && !c.layer_first);
}

/* ------------------------------------------------------------ RT-080 */

/* Layers with detail sampling (DetailSampleDistance above 0.9) is built on the general
** path: every tile has layer 0 and max_tiles is ntx * ntz; without sampling it is layer
** first; the other partitions never are. */
OPT_TEST(when_layer_first, "RT-080") {
  op_settings s = fx_humanoid(OP_PARTITION_LAYERS);
  op_trimesh m;
  OPT_CHECK(gen(&LEVELS[1], &s, &m));
  op_soup soup = op_trimesh_soup(&m);
  opl_ctx c;
  op_error e;
  const double dist[3] = {0, 0.9, 6};
  for (int k = 0; k < 3; k++) {
    s.detail_sample_distance = dist[k];
    for (int p = 0; p < 3; p++) {
      s.partition = (op_partition)p;
      OPT_CHECK(opl_begin_soup(&c, &s, &soup, NULL, &e) == OP_OK);
      OPT_CHECK(c.layer_first == (p == OP_PARTITION_LAYERS && k < 2));
    }
  }
  s.partition = OP_PARTITION_LAYERS;
  s.detail_sample_distance = 6;
  op_pipeline_result r;
  memset(&r, 0, sizeof r);
  OPT_CHECK(op_pipeline_build_soup(&s, &soup, NULL, &r, &e) == OP_OK); /* POLY-202 */
  if (r.mesh) {
    OPT_CHECK(r.mesh->params.max_tiles == (uint32_t)(r.ntx * r.ntz) && r.ntiles > 0);
    for (uint32_t i = 0; i < r.ntiles; i++) OPT_CHECK(r.tiles[i].layer == 0);
    op_pipeline_result_free(&r);
  }
  op_trimesh_free(&m);
}

OPT_MAIN_BEGIN
OPT_RUN(one_layer_equals_general);
OPT_RUN(layer_view);
OPT_RUN(base_marks_after_layers);
OPT_RUN(obstacles_change_covered_tiles_only);
OPT_RUN(obstacles_equal_marking_after);
OPT_RUN(keep_equals_plain);
OPT_RUN(slot_count);
OPT_RUN(layer_limit);
OPT_RUN(slot_limit);
OPT_RUN(when_layer_first);
OPT_MAIN_END
