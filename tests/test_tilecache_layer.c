/*
** test_tilecache_layer.c -- TileCache.Layer (spec/build3d-runtime.md RT-154) at the C API:
** on the generated terrain (layer first), after cylinders of several sizes, every layer of
** every cached tile is the same with the repair on and off (RT-106) and the same as the first
** build of a fresh cache with the cylinders in the settings (RT-010, RT-100); the call changes
** neither the snapshot nor the queue; its errors (NULL cache, a cache on the general path,
** no cached tile, a layer past the count) name their values. The protocol side is the
** scenario build3d/tilecache-layer.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
#include "optest.h"
#include "build3d/runtime/tilecache.h"

static int same_bytes(const op_bytes *a, const op_bytes *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static int same_layer(const op_tilecache_layer_data *a, const op_tilecache_layer_data *b) {
  return a->nspans == b->nspans && a->nregions == b->nregions &&
         same_bytes(&a->regions, &b->regions) && same_bytes(&a->contours, &b->contours) &&
         same_bytes(&a->edges, &b->edges);
}

/* Every layer of every tile of a: equal in b and c (c may be NULL). Returns the count of
** differences; *n gets the layers compared. */
static int compare_all(op_tilecache *a, op_tilecache *b, op_tilecache *c, int *n) {
  int bad = 0;
  for (uint32_t i = 0; i < a->ntiles; i++)
    for (uint32_t L = 0; L < a->tiles[i].k.nunits; L++) {
      op_tilecache_layer_data x, y, z;
      int32_t tx = a->tiles[i].k.tx, tz = a->tiles[i].k.tz;
      if (op_tilecache_layer(a, tx, tz, L, &x, NULL) != OP_OK) return bad + 1000;
      if (op_tilecache_layer(b, tx, tz, L, &y, NULL) != OP_OK) bad++;
      else bad += !same_layer(&x, &y), op_tilecache_layer_data_free(&y);
      if (c && op_tilecache_layer(c, tx, tz, L, &z, NULL) != OP_OK) bad++;
      else if (c) bad += !same_layer(&x, &z), op_tilecache_layer_data_free(&z);
      op_tilecache_layer_data_free(&x);
      ++*n;
    }
  return bad;
}

OPT_TEST(repair_equals_scratch, "RT-154") {
  op_trimesh m = fx_level("terrain", 5, 30);
  op_settings s = fx_humanoid(OP_PARTITION_LAYERS);
  op_soup soup = op_trimesh_soup(&m);
  op_tilecache *on = fx_cache(&s, &soup), *off = fx_cache(&s, &soup);
  OPT_CHECK(on && off);
  if (!on || !off) goto done;
  op_tilecache_set_repair(off, 0);
  const double R[3] = {0.4, 1.1, 2.5};
  int bad = 0, n = 0;
  for (int k = 0; k < 9; k++) {
    op_obstacle o = fx_cylinder(3.0 + 3.7 * k, -100, 4.0 + 2.9 * k, R[k % 3], 400);
    uint32_t id1 = 0, id2 = 0;
    OPT_CHECK(op_tilecache_add_obstacle(on, &o, &id1, NULL) == OP_OK);
    OPT_CHECK(op_tilecache_add_obstacle(off, &o, &id2, NULL) == OP_OK);
    op_bytes s0 = fx_cache_snapshot(on);
    uint32_t q0 = op_tilecache_queue_length(on);
    op_settings fs = s;
    fs.obstacles = &o, fs.nobstacles = 1;
    op_tilecache *fresh = fx_cache(&fs, &soup);
    OPT_CHECK(fresh != NULL);
    bad += compare_all(on, off, fresh, &n);
    op_bytes s1 = fx_cache_snapshot(on);
    OPT_CHECK(fx_same(&s0, &s1) && op_tilecache_queue_length(on) == q0); /* changes nothing */
    op_bytes_free(&s0), op_bytes_free(&s1);
    op_tilecache_free(fresh);
    OPT_CHECK(op_tilecache_remove_obstacle(on, id1, NULL) == OP_OK);
    OPT_CHECK(op_tilecache_remove_obstacle(off, id2, NULL) == OP_OK);
  }
  OPT_CHECK(bad == 0 && n > 9);
done:
  op_tilecache_free(on);
  op_tilecache_free(off);
  op_trimesh_free(&m);
}

OPT_TEST(errors, "RT-154") {
  op_error e;
  op_tilecache_layer_data d;
  OPT_CHECK(op_tilecache_layer(NULL, 0, 0, 0, &d, &e) == OP_E_ARGUMENT &&
            strcmp(e.field, "cache") == 0 && strcmp(e.value, "NULL") == 0);
  op_trimesh m = fx_level("terrain", 5, 30);
  op_soup soup = op_trimesh_soup(&m);
  op_settings s = fx_humanoid(OP_PARTITION_LAYERS);
  op_settings w = fx_humanoid(OP_PARTITION_WATERSHED);
  op_tilecache *c = fx_cache(&s, &soup), *g = fx_cache(&w, &soup);
  OPT_CHECK(c && g);
  if (c && g) {
    OPT_CHECK(op_tilecache_layer(g, 0, 0, 0, &d, &e) == OP_E_ARGUMENT &&
              strcmp(e.field, "cache") == 0);
    OPT_CHECK(op_tilecache_layer(c, -1, 7, 0, &d, &e) == OP_E_ARGUMENT &&
              strcmp(e.field, "tile") == 0 && strcmp(e.value, "-1,7") == 0);
    int32_t tx = c->tiles[0].k.tx, tz = c->tiles[0].k.tz;
    uint32_t nl = c->tiles[0].k.nunits;
    OPT_CHECK(op_tilecache_layer(c, tx, tz, nl, &d, &e) == OP_E_RANGE &&
              strcmp(e.field, "layer") == 0);
    OPT_CHECK(op_tilecache_layer(c, tx, tz, nl - 1, &d, &e) == OP_OK);
    OPT_CHECK(d.regions.len == 2 * (size_t)d.nspans && d.edges.len == 16 * (size_t)d.nspans);
    op_tilecache_layer_data_free(&d);
    op_tilecache_layer_data_free(NULL);
  }
  op_tilecache_free(c);
  op_tilecache_free(g);
  op_trimesh_free(&m);
}

OPT_MAIN_BEGIN
OPT_RUN(repair_equals_scratch);
OPT_RUN(errors);
OPT_MAIN_END
