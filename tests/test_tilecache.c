/*
** test_tilecache.c -- the run-time tile cache (spec/build3d-runtime.md): cached equals
** plain (RT-015), obstacles baked equal obstacles in the settings (RT-027), volumes
** (RT-043), sliced updates (RT-062), the queue (RT-050, RT-051), the shortcuts (RT-013),
** the errors (RT-023, RT-040, RT-053) and the mesh's refusal (RT-018), and the repair
** against building from scratch (RT-106), on the generated levels terrain and city.
**
** Every expected value comes from a second route: a plain build with the same obstacles
** and volumes in the settings, a second cache driven differently, or the boxes of RT-025
** and RT-050 computed here from the clause text.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "core/internal.h"
#include "navmesh/mesh_internal.h"
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
#include "optest.h"
#include "build3d/runtime/tilecache.h"

/* ------------------------------------------------------------ helpers */

/* The canonical bytes of a mesh (MESH-040) and their hash. */
static uint64_t mesh_hash(const op_mesh *m) {
  op_bytes b = {NULL, 0};
  if (op_mesh_save(m, &b, NULL) != OP_OK) return 0;
  uint64_t h = op_hash64(b.data, b.len);
  op_bytes_free(&b);
  return h;
}

/* A mesh's tiles as (x, z, layer, content id), in ascending order: what RT-027 compares
** ("tile for tile"; slots and generations may differ). */
typedef struct tkey {
  int32_t x, z, layer;
  uint64_t id;
} tkey;

static int tkey_cmp(const void *a, const void *b) {
  const tkey *p = a, *q = b;
  if (p->z != q->z) return p->z < q->z ? -1 : 1;
  if (p->x != q->x) return p->x < q->x ? -1 : 1;
  if (p->layer != q->layer) return p->layer < q->layer ? -1 : 1;
  return p->id < q->id ? -1 : p->id > q->id;
}

static uint32_t tiles_of(const op_mesh *m, tkey **out) {
  tkey *k = calloc(m->nslots ? m->nslots : 1, sizeof *k);
  uint32_t n = 0;
  for (uint32_t i = 0; k && i < m->nslots; i++) {
    const opm_occ *o = m->slots[i].occ;
    if (!o) continue;
    k[n].x = o->view.x, k[n].z = o->view.z, k[n].layer = o->view.layer;
    k[n++].id = op_tile_content_id(o->tile);
  }
  qsort(k, n, sizeof *k, tkey_cmp);
  *out = k;
  return n;
}

/* 1 when both meshes hold the same tiles at the same (x, z, layer); say, when not. */
static int same_tiles_v(const op_mesh *a, const op_mesh *b, int verbose) {
  tkey *ka = NULL, *kb = NULL;
  uint32_t na = tiles_of(a, &ka), nb = tiles_of(b, &kb);
  int same = ka && kb && na == nb && memcmp(ka, kb, (size_t)na * sizeof *ka) == 0;
  if (!same && ka && kb && verbose) {
    uint32_t i = 0;
    while (i < na && i < nb && tkey_cmp(&ka[i], &kb[i]) == 0) i++;
    fprintf(stderr, "  tiles differ: %u vs %u tiles, first difference at %u\n", na, nb, i);
  }
  free(ka);
  free(kb);
  return same;
}
static int same_tiles(const op_mesh *a, const op_mesh *b) { return same_tiles_v(a, b, 1); }
static int differ(const op_mesh *a, const op_mesh *b) { return !same_tiles_v(a, b, 0); }

static op_mesh *plain(const op_settings *s, const op_trimesh *m) {
  op_soup soup = op_trimesh_soup(m);
  return fx_plain(s, &soup);
}

static op_tilecache *cached(const op_settings *s, const op_trimesh *m) {
  op_soup soup = op_trimesh_soup(m);
  return fx_cache(s, &soup);
}

/* The terrain level (seed 5) of the given size into *m, the Humanoid settings for p into
** *s, and the cache built from them; NULL (and *m freed) when it fails. */
static op_tilecache *terrain_cache(uint32_t size, op_partition p, op_trimesh *m,
                                   op_settings *s) {
  *m = fx_level("terrain", 5, size);
  *s = fx_humanoid(p);
  op_tilecache *c = cached(s, m);
  if (!c) op_trimesh_free(m);
  return c;
}

static int update_all(op_tilecache *c) {
  op_error e;
  uint32_t k = 0, n = op_tilecache_queue_length(c);
  if (op_tilecache_update_all(c, &k, &e) != OP_OK) {
    fprintf(stderr, "  update: %s\n", e.message);
    return 0;
  }
  return k == n && op_tilecache_queue_length(c) == 0;
}

static const op_partition PARTS[3] = {OP_PARTITION_WATERSHED, OP_PARTITION_MONOTONE,
                                      OP_PARTITION_LAYERS};
static const char *const LEVELS[2] = {"terrain", "city"};
static const uint32_t SIZES[2] = {40, 2};

/* Obstacles A, B, C inside the level's x/z range [0, E] (E = 40 terrain, 56 city). */
static void three_obstacles(int lv, op_obstacle o[3]) {
  if (lv == 0) {
    o[0] = fx_cylinder(12.5, -10, 14.25, 2.5, 30);
    o[1] = fx_box(20, -10, 4, 27, 20, 9.5);
    o[2] = fx_obox(30, 0, 28, 4, 20, 1.5, 0.7);
  } else {
    o[0] = fx_cylinder(4, -1, 20, 2, 5);         /* a street */
    o[1] = fx_box(26, -1, 2, 30, 2, 54);         /* across the middle street */
    o[2] = fx_obox(36, 10, 14, 6, 20, 1, 2.3);   /* roofs and a street */
  }
}

/* ------------------------------------------------------------ RT-015 */

/* RT-015, RT-002: the cached build's mesh is the plain build's, byte for byte, with the
** same grid, built count and tile list; out->mesh is NULL. */
OPT_TEST(cached_equals_plain, "RT-015, RT-002, RT-016, RT-080") {
  for (int lv = 0; lv < 2; lv++) {
    op_trimesh m = fx_level(LEVELS[lv], 5, SIZES[lv]);
    op_soup soup = op_trimesh_soup(&m);
    for (int p = 0; p < 3; p++) {
      op_settings s = fx_humanoid(PARTS[p]);
      op_pipeline_result r, rc;
      op_tilecache *c = NULL;
      OPT_CHECK(op_pipeline_build_soup(&s, &soup, NULL, &r, NULL) == OP_OK);
      OPT_CHECK(op_pipeline_build_soup_cached(&s, &soup, NULL, &rc, &c, NULL) == OP_OK);
      if (!c || !r.mesh) continue;
      OPT_CHECK(rc.mesh == NULL); /* RT-002 */
      OPT_CHECK(mesh_hash(r.mesh) == mesh_hash(op_tilecache_mesh(c)));
      OPT_CHECK(r.ntx == rc.ntx && r.ntz == rc.ntz && r.nbuilt == rc.nbuilt &&
                r.ntiles == rc.ntiles && r.npolys == rc.npolys);
      for (uint32_t i = 0; r.ntiles == rc.ntiles && i < r.ntiles; i++) {
        const op_pipeline_tile *a = &r.tiles[i], *b = &rc.tiles[i];
        OPT_CHECK(a->x == b->x && a->z == b->z && a->layer == b->layer &&
                  a->nverts == b->nverts && a->npolys == b->npolys &&
                  a->content_id == b->content_id);
      }
      OPT_CHECK(c->ntiles == r.nbuilt && op_tilecache_queue_length(c) == 0);
      uint32_t maxl = 0; /* RT-080: city has tiles of several layers (bridges) */
      for (uint32_t i = 0; i < c->ntiles; i++)
        if (c->tiles[i].k.nunits > maxl) maxl = c->tiles[i].k.nunits;
      OPT_CHECK(!c->ctx.layer_first || lv == 0 || maxl > 1);
      OPT_CHECK(c->ctx.layer_first || maxl == 1);
      OPT_CHECK(op_tilecache_repair(c) == 1); /* RT-101: on by default */
      op_pipeline_result_free(&r);
      op_pipeline_result_free(&rc);
      op_tilecache_free(c);
    }
    op_trimesh_free(&m);
  }
}

/* POLY-228: a cached build's thread count changes no byte: threads 1 and 3 give the mesh
** and, after the same obstacle and UpdateAll, the same mesh again; a count above
** OP_PIPELINE_MAX_THREADS is out_of_range `threads`, a part build (RT-016: whole grid) is
** argument `tile_range`, and neither creates a cache. */
OPT_TEST(cached_threads, "POLY-228, RT-016") {
  op_trimesh m = fx_level("city", 5, 2);
  op_soup soup = op_trimesh_soup(&m);
  op_settings s = fx_humanoid(OP_PARTITION_LAYERS);
  op_obstacle o[3];
  three_obstacles(1, o);
  uint64_t h[2][2] = {{0, 0}, {0, 0}};
  for (int k = 0; k < 2; k++) {
    op_pipeline_options opt;
    memset(&opt, 0, sizeof opt);
    opt.threads = k ? 3 : 1;
    op_tilecache *c = NULL;
    uint32_t id;
    OPT_CHECK(op_pipeline_build_soup_cached_opt(&s, &soup, &opt, NULL, NULL, &c, NULL) == OP_OK);
    if (!c) continue;
    h[k][0] = mesh_hash(op_tilecache_mesh(c));
    OPT_CHECK(op_tilecache_add_obstacle(c, &o[1], &id, NULL) == OP_OK);
    OPT_CHECK(update_all(c));
    h[k][1] = mesh_hash(op_tilecache_mesh(c));
    op_tilecache_free(c);
  }
  OPT_CHECK(h[0][0] == h[1][0] && h[0][1] == h[1][1] && h[0][0] != h[0][1]);
  op_pipeline_options bad;
  memset(&bad, 0, sizeof bad);
  bad.threads = OP_PIPELINE_MAX_THREADS + 1;
  op_tilecache *c = NULL;
  op_error e;
  OPT_CHECK(op_pipeline_build_soup_cached_opt(&s, &soup, &bad, NULL, NULL, &c, &e) == OP_E_RANGE &&
            !strcmp(e.field, "threads") && c == NULL);
  bad.threads = 1;
  bad.tile_range = 1;
  OPT_CHECK(op_pipeline_build_soup_cached_opt(&s, &soup, &bad, NULL, NULL, &c, &e) == OP_E_ARGUMENT &&
            !strcmp(e.field, "tile_range") && c == NULL);
  op_trimesh_free(&m);
}

/* RT-015 for BuildChunkCached; RT-002: out may be NULL. */
OPT_TEST(cached_chunk_equals_plain, "RT-015, RT-002") {
  op_trimesh m = fx_level("city", 5, 2);
  op_soup soup = op_trimesh_soup(&m);
  op_chunked *ch = NULL;
  OPT_CHECK(op_chunked_create(&soup, 10, &ch, NULL) == OP_OK);
  op_settings s = fx_humanoid(OP_PARTITION_LAYERS);
  op_pipeline_result r;
  op_tilecache *c = NULL;
  OPT_CHECK(op_pipeline_build_chunk(&s, ch, NULL, &r, NULL) == OP_OK);
  OPT_CHECK(op_pipeline_build_chunk_cached(&s, ch, NULL, NULL, &c, NULL) == OP_OK);
  if (c) OPT_CHECK(mesh_hash(r.mesh) == mesh_hash(op_tilecache_mesh(c)));
  op_pipeline_result_free(&r);
  op_tilecache_free(c);
  op_chunked_free(ch);
  op_trimesh_free(&m);
}

/* A heightfield input of W x W columns: a bumpy ground and, over part of it, a deck with
** room below (two layers where both are). Owned arrays: free(*start), free(*spans). */
#define HF_W 150u
static op_solid_columns deck_columns(uint32_t **start, op_solid_span **spans) {
  op_solid_columns h;
  memset(&h, 0, sizeof h);
  *start = malloc((HF_W * HF_W + 1) * sizeof **start);
  *spans = malloc(2 * HF_W * HF_W * sizeof **spans);
  if (!*start || !*spans) return h;
  uint32_t n = 0;
  for (uint32_t z = 0; z < HF_W; z++)
    for (uint32_t x = 0; x < HF_W; x++) {
      (*start)[z * HF_W + x] = n;
      op_solid_span g = {0, (int32_t)(10 + (x * 7 + z * 3) % 5), 63};
      (*spans)[n++] = g;
      if (x >= 40 && x < 100 && z >= 40 && z < 100) {
        op_solid_span d = {40, 42, 63};
        (*spans)[n++] = d;
      }
    }
  (*start)[HF_W * HF_W] = n;
  h.origin[0] = 1.5, h.origin[1] = -2, h.origin[2] = -3;
  h.width = h.depth = HF_W;
  h.col_start = *start;
  h.nspans = n;
  h.spans = *spans;
  return h;
}

/* RT-015 for BuildHeightfieldCached, and RT-027 on it: an obstacle on the deck and one
** below it, baked, equal a fresh build with them in Obstacles. */
OPT_TEST(cached_heightfield, "RT-015, RT-027") {
  uint32_t *start = NULL;
  op_solid_span *spans = NULL;
  op_solid_columns h = deck_columns(&start, &spans);
  for (int p = 0; p < 3; p += 2) {
    op_settings s = fx_humanoid(PARTS[p]);
    op_obstacle o[2] = {fx_cylinder(22, 1.5, 20, 1.5, 1), fx_box(30, -2, 14, 33, 0, 30)};
    op_settings s2 = s;
    s2.nobstacles = 2;
    s2.obstacles = o;
    op_pipeline_result r, r2;
    op_tilecache *c = NULL;
    OPT_CHECK(op_pipeline_build_heightfield(&s, &h, NULL, &r, NULL) == OP_OK);
    OPT_CHECK(op_pipeline_build_heightfield(&s2, &h, NULL, &r2, NULL) == OP_OK);
    OPT_CHECK(op_pipeline_build_heightfield_cached(&s, &h, NULL, NULL, &c, NULL) == OP_OK);
    if (!c || !r.mesh || !r2.mesh) continue;
    OPT_CHECK(mesh_hash(r.mesh) == mesh_hash(op_tilecache_mesh(c)));
    for (int k = 0; k < 2; k++) OPT_CHECK(op_tilecache_add_obstacle(c, &o[k], NULL, NULL) == OP_OK);
    OPT_CHECK(update_all(c));
    OPT_CHECK(differ(r.mesh, r2.mesh));
    OPT_CHECK(same_tiles(op_tilecache_mesh(c), r2.mesh));
    op_pipeline_result_free(&r);
    op_pipeline_result_free(&r2);
    op_tilecache_free(c);
  }
  free(start);
  free(spans);
}

/* ------------------------------------------------------------ RT-027, RT-043 */

/* RT-027: a cache after A, B, C and UpdateAll holds, tile for tile, the tiles of a fresh
** build with A, B, C in Obstacles; removing them gives back the first build's tiles. */
OPT_TEST(obstacles_bake, "RT-027, RT-041, RT-022, RT-063") {
  for (int lv = 0; lv < 2; lv++) {
    op_trimesh m = fx_level(LEVELS[lv], 5, SIZES[lv]);
    for (int p = 0; p < 3; p++) {
      op_settings s = fx_humanoid(PARTS[p]);
      op_obstacle o[3];
      three_obstacles(lv, o);
      op_tilecache *c = cached(&s, &m);
      op_mesh *first = plain(&s, &m);
      op_settings s3 = s;
      s3.nobstacles = 3;
      s3.obstacles = o;
      op_mesh *fresh = plain(&s3, &m);
      if (!c || !first || !fresh) {
        OPT_CHECK(0);
        continue;
      }
      uint32_t id[3] = {0, 0, 0};
      for (int k = 0; k < 3; k++)
        OPT_CHECK(op_tilecache_add_obstacle(c, &o[k], &id[k], NULL) == OP_OK && id[k] == (uint32_t)k + 1);
      OPT_CHECK(op_tilecache_queue_length(c) > 0);
      OPT_CHECK(differ(op_tilecache_mesh(c), fresh)); /* not before the update */
      OPT_CHECK(update_all(c));
      OPT_CHECK(differ(first, fresh)); /* the obstacles change the level */
      OPT_CHECK(same_tiles(op_tilecache_mesh(c), fresh));
      for (int k = 0; k < 3; k++) OPT_CHECK(op_tilecache_remove_obstacle(c, id[k], NULL) == OP_OK);
      OPT_CHECK(update_all(c));
      OPT_CHECK(same_tiles(op_tilecache_mesh(c), first));
      op_tilecache_stats st;
      op_tilecache_stats_get(c, &st);
      OPT_CHECK(st.units_built + st.units_repaired > 0 && st.units_first > 0);
      op_mesh_free(first);
      op_mesh_free(fresh);
      op_tilecache_free(c);
    }
    op_trimesh_free(&m);
  }
}

/* RT-017, RT-010: the settings' Obstacles are read once, at the build: overwriting the
** list afterwards changes nothing; the cache then adds C, and the result is a fresh build
** with A and C in Obstacles (A stays: pipeline obstacles are never removed). */
OPT_TEST(settings_read_once, "RT-017, RT-010") {
  op_trimesh m = fx_level("city", 5, 2);
  for (int p = 0; p < 3; p += 2) {
    op_settings s = fx_humanoid(PARTS[p]);
    op_obstacle o[3];
    three_obstacles(1, o);
    op_obstacle list[1] = {o[0]};
    s.nobstacles = 1;
    s.obstacles = list;
    op_tilecache *c = cached(&s, &m);
    op_obstacle ac[2] = {o[0], o[2]};
    op_settings s2 = s;
    s2.nobstacles = 2;
    s2.obstacles = ac;
    op_mesh *fresh = plain(&s2, &m);
    if (!c || !fresh) {
      OPT_CHECK(0);
      continue;
    }
    list[0] = o[1]; /* after the build: no effect */
    s.nobstacles = 0;
    OPT_CHECK(op_tilecache_add_obstacle(c, &o[2], NULL, NULL) == OP_OK);
    OPT_CHECK(update_all(c));
    OPT_CHECK(same_tiles(op_tilecache_mesh(c), fresh));
    op_mesh_free(fresh);
    op_tilecache_free(c);
  }
  op_trimesh_free(&m);
}

/* RT-043: a volume added at run time gives the mesh of a build with it last in the
** settings' volumes (after a settings volume), with an area id and with area 0. */
OPT_TEST(volume_runtime_equals_settings, "RT-043, RT-040, RT-041, RT-042") {
  for (int lv = 0; lv < 2; lv++) {
    op_trimesh m = fx_level(LEVELS[lv], 5, SIZES[lv]);
    for (int p = 0; p < 3; p += 2) {
      op_convex_volume v[3] = {fx_quad(3, 3, 21, 17, -20, 40, 7),
                               fx_quad(15, 10, 35, 30, -20, 40, 9),
                               fx_quad(30, 2, 36, 37, -20, 40, 0)};
      op_settings s = fx_humanoid(PARTS[p]);
      s.nvolumes = 1;
      s.volumes = v;
      op_tilecache *c = cached(&s, &m);
      op_settings s3 = s;
      s3.nvolumes = 3;
      op_mesh *fresh = plain(&s3, &m), *first = plain(&s, &m);
      if (!c || !fresh || !first) {
        OPT_CHECK(0);
        continue;
      }
      uint32_t id1 = 0, id2 = 0;
      OPT_CHECK(op_tilecache_add_volume(c, &v[1], &id1, NULL) == OP_OK && id1 == 1);
      OPT_CHECK(op_tilecache_add_volume(c, &v[2], &id2, NULL) == OP_OK && id2 == 2);
      OPT_CHECK(update_all(c));
      OPT_CHECK(differ(first, fresh));
      OPT_CHECK(same_tiles(op_tilecache_mesh(c), fresh));
      OPT_CHECK(op_tilecache_remove_volume(c, id1, NULL) == OP_OK);
      OPT_CHECK(op_tilecache_remove_volume(c, id2, NULL) == OP_OK);
      OPT_CHECK(update_all(c));
      OPT_CHECK(same_tiles(op_tilecache_mesh(c), first));
      op_mesh_free(fresh);
      op_mesh_free(first);
      op_tilecache_free(c);
    }
    op_trimesh_free(&m);
  }
}

/* ------------------------------------------------------------ RT-062, RT-013 */

/* RT-062: Update(1) until the queue is empty gives the bytes of UpdateAll (the same
** operations on two caches), whatever the slicing; RT-060: Update(0) does nothing. */
OPT_TEST(sliced_update, "RT-062, RT-060") {
  op_trimesh m = fx_level("city", 5, 2);
  for (int p = 0; p < 3; p += 2) {
    op_settings s = fx_humanoid(PARTS[p]);
    op_tilecache *a = cached(&s, &m), *b = cached(&s, &m);
    if (!a || !b) {
      OPT_CHECK(0);
      continue;
    }
    op_obstacle o[3];
    three_obstacles(1, o);
    for (int round = 0; round < 2; round++) {
      for (int k = 0; k < 3; k++) {
        if (round == 0) {
          OPT_CHECK(op_tilecache_add_obstacle(a, &o[k], NULL, NULL) == OP_OK);
          OPT_CHECK(op_tilecache_add_obstacle(b, &o[k], NULL, NULL) == OP_OK);
        } else if (k != 1) {
          OPT_CHECK(op_tilecache_remove_obstacle(a, (uint32_t)k + 1, NULL) == OP_OK);
          OPT_CHECK(op_tilecache_remove_obstacle(b, (uint32_t)k + 1, NULL) == OP_OK);
        }
      }
      uint32_t q = op_tilecache_queue_length(a), k = 7, steps = 0;
      OPT_CHECK(q == op_tilecache_queue_length(b) && q > 1);
      uint64_t h0 = mesh_hash(op_tilecache_mesh(a));
      OPT_CHECK(op_tilecache_update(a, 0, &k, NULL) == OP_OK && k == 0); /* RT-060 */
      OPT_CHECK(op_tilecache_queue_length(a) == q && mesh_hash(op_tilecache_mesh(a)) == h0);
      while (op_tilecache_queue_length(a) > 0 && steps <= q) {
        int32_t t0x, t0z, t1x, t1z;
        op_tilecache_queued(a, 1, &t1x, &t1z);
        OPT_CHECK(op_tilecache_update(a, 1, &k, NULL) == OP_OK && k == 1);
        /* RT-060: the rest of the queue keeps its order */
        if (op_tilecache_queue_length(a) > 0) {
          OPT_CHECK(op_tilecache_queued(a, 0, &t0x, &t0z) == 1);
          OPT_CHECK(t0x == t1x && t0z == t1z);
        }
        steps++;
      }
      OPT_CHECK(steps == q);
      OPT_CHECK(update_all(b));
      OPT_CHECK(mesh_hash(op_tilecache_mesh(a)) == mesh_hash(op_tilecache_mesh(b)));
    }
    op_tilecache_free(a);
    op_tilecache_free(b);
  }
  op_trimesh_free(&m);
}

/* RT-013: an obstacle added and removed before the update leaves every unit's areas equal
** to its last-built ones (step 1: nothing done, the mesh bytes kept, slots included);
** after an update with it and its removal, step 2 brings back the first build's tiles. */
OPT_TEST(shortcuts, "RT-013, RT-014, RT-130") {
  op_trimesh m;
  op_settings s;
  op_tilecache *c = terrain_cache(40, OP_PARTITION_WATERSHED, &m, &s);
  OPT_CHECK(c != NULL);
  if (!c) return;
  uint64_t h0 = mesh_hash(op_tilecache_mesh(c));
  op_obstacle o = fx_cylinder(20, -10, 20, 3, 30);
  uint32_t id = 0;
  OPT_CHECK(op_tilecache_add_obstacle(c, &o, &id, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_remove_obstacle(c, id, NULL) == OP_OK);
  uint32_t q = op_tilecache_queue_length(c);
  OPT_CHECK(q == 4); /* the middle of a 4-tile level touches every tile */
  OPT_CHECK(update_all(c));
  op_tilecache_stats st;
  op_tilecache_stats_get(c, &st);
  OPT_CHECK(st.tiles_processed == q && st.units_skipped == q && st.units_built == 0);
  OPT_CHECK(mesh_hash(op_tilecache_mesh(c)) == h0);
  OPT_CHECK(op_tilecache_add_obstacle(c, &o, &id, NULL) == OP_OK && id == 2); /* RT-130 */
  OPT_CHECK(update_all(c));
  OPT_CHECK(mesh_hash(op_tilecache_mesh(c)) != h0);
  op_tilecache_stats_reset(c);
  OPT_CHECK(op_tilecache_remove_obstacle(c, id, NULL) == OP_OK);
  OPT_CHECK(update_all(c));
  op_tilecache_stats_get(c, &st);
  OPT_CHECK(st.units_first == st.tiles_replaced + st.tiles_added + st.tiles_removed +
                                  st.tiles_kept && st.units_first > 0 && st.units_built == 0);
  op_mesh *first = plain(&s, &m);
  OPT_CHECK(first && same_tiles(first, op_tilecache_mesh(c)));
  op_mesh_free(first);
  op_tilecache_free(c);
  op_trimesh_free(&m);
}

/* ------------------------------------------------------------ RT-050, RT-051 */

/* RT-050, RT-051: the tiles queued by an obstacle are those whose grid widened by R + 1
** cells touches the grown box, in cache order, each once; the box and the grid computed
** here from the clause text (RT-025 for a cylinder and an oriented box). */
OPT_TEST(queue_order, "RT-050, RT-051, RT-025") {
  op_trimesh m;
  op_settings s;
  op_tilecache *c = terrain_cache(60, OP_PARTITION_WATERSHED, &m, &s);
  OPT_CHECK(c != NULL);
  if (!c) return;
  op_cell_settings cell;
  op_settings_derive(&s, &cell, NULL);
  double cs = s.cell_size, g = (double)cell.walkable_radius * cs; /* RT-020 */
  int32_t R = cell.walkable_radius, T = (int32_t)s.tile_cells, B = cell.border;
  op_obstacle o[3] = {fx_cylinder(19.0, -5, 41.5, 1.25, 20), fx_obox(40, -5, 12, 3, 20, 0.5, 2.0),
                      fx_box(58, -5, 57, 59, 20, 59.5)}; /* the last: the last tile's corner */
  double ox = c->ctx.origin[0], oz = c->ctx.origin[2];
  uint32_t want[64], nwant = 0;
  for (int k = 0; k < 3; k++) {
    double bmin[2], bmax[2];
    if (k == 2) { /* RT-025 box */
      bmin[0] = o[2].bmin[0] - g, bmax[0] = o[2].bmax[0] + g;
      bmin[1] = o[2].bmin[2] - g, bmax[1] = o[2].bmax[2] + g;
    } else if (k == 0) { /* RT-025 cylinder */
      bmin[0] = o[0].center[0] - (o[0].radius + g), bmax[0] = o[0].center[0] + (o[0].radius + g);
      bmin[1] = o[0].center[2] - (o[0].radius + g), bmax[1] = o[0].center[2] + (o[0].radius + g);
    } else { /* RT-025 oriented box, SinCos of math.md */
      double sn, cn;
      op_sincos(o[1].yaw, &sn, &cn, NULL);
      double ex = (o[1].half[0] + g) * fabs(cn) + (o[1].half[2] + g) * fabs(sn);
      double ez = (o[1].half[0] + g) * fabs(sn) + (o[1].half[2] + g) * fabs(cn);
      bmin[0] = o[1].center[0] - ex, bmax[0] = o[1].center[0] + ex;
      bmin[1] = o[1].center[2] - ez, bmax[1] = o[1].center[2] + ez;
    }
    for (uint32_t i = 0; i < c->ntiles; i++) { /* cache order */
      int32_t tx = c->tiles[i].k.tx, tz = c->tiles[i].k.tz;
      int32_t gx0 = tx * T - B, gz0 = tz * T - B, w = T + 2 * B;
      double lx = ox + (double)(gx0 - R - 1) * cs, hx = ox + (double)(gx0 + w + R + 1) * cs;
      double lz = oz + (double)(gz0 - R - 1) * cs, hz = oz + (double)(gz0 + w + R + 1) * cs;
      int hit = lx <= bmax[0] && bmin[0] <= hx && lz <= bmax[1] && bmin[1] <= hz;
      int dup = 0;
      for (uint32_t j = 0; j < nwant; j++) dup |= want[j] == i;
      if (hit && !dup && nwant < 64) want[nwant++] = i;
    }
    OPT_CHECK(op_tilecache_add_obstacle(c, &o[k], NULL, NULL) == OP_OK);
  }
  OPT_CHECK(nwant > 1 && nwant < c->ntiles && want[nwant - 1] == c->ntiles - 1);
  OPT_CHECK(op_tilecache_queue_length(c) == nwant);
  for (uint32_t j = 0; j < nwant; j++) {
    int32_t tx = -1, tz = -1;
    OPT_CHECK(op_tilecache_queued(c, j, &tx, &tz) == 1);
    OPT_CHECK(tx == c->tiles[want[j]].k.tx && tz == c->tiles[want[j]].k.tz);
    OPT_CHECK(optc_find_tile(c, tx, tz) == (int64_t)want[j]);
  }
  OPT_CHECK(op_tilecache_queued(c, nwant, NULL, NULL) == 0);
  OPT_CHECK(optc_find_tile(c, -1, 0) == -1);
  op_tilecache_free(c);
  op_trimesh_free(&m);
}

/* ------------------------------------------------------------ errors */

typedef struct snap {
  uint64_t mesh;
  uint32_t nq;
  int32_t q[64][2];
} snap;

static snap take(const op_tilecache *c) {
  snap s;
  memset(&s, 0, sizeof s);
  s.mesh = mesh_hash(c->mesh);
  s.nq = op_tilecache_queue_length(c);
  for (uint32_t i = 0; i < s.nq && i < 64; i++) op_tilecache_queued(c, i, &s.q[i][0], &s.q[i][1]);
  return s;
}

static int err_is(op_status st, const op_error *e, op_status kind, const char *field,
                  const char *value) {
  int ok = st == kind && strcmp(e->field, field) == 0 && (!value || strcmp(e->value, value) == 0);
  if (!ok) fprintf(stderr, "  got %d %s '%s', want %d %s '%s'\n", (int)st, e->field, e->value,
                   (int)kind, field, value ? value : "*");
  return ok;
}

/* RT-023, RT-040, RT-053: every bad call names its kind, field and value, and leaves the
** mesh bytes and the queue as they were (RT-001: a failed call changes nothing). */
OPT_TEST(errors_change_nothing, "RT-023, RT-040, RT-053, RT-002") {
  op_trimesh m;
  op_settings s;
  op_tilecache *c = terrain_cache(40, OP_PARTITION_WATERSHED, &m, &s);
  OPT_CHECK(c != NULL);
  if (!c) return;
  op_obstacle ok = fx_cylinder(5, 0, 5, 1, 2);
  uint32_t id = 0;
  OPT_CHECK(op_tilecache_add_obstacle(c, &ok, &id, NULL) == OP_OK && id == 1);
  snap before = take(c);
  OPT_CHECK(before.nq > 0);
  const double M = 0x1p21, BIG = 0x1.0000000000001p21;
  struct {
    op_obstacle o;
    op_status kind;
    const char *field, *value;
  } bad[] = {
      {fx_cylinder(NAN, 0, 0, 1, 1), OP_E_RANGE, "obstacle.center.x", "NaN"},
      {fx_cylinder(0, INFINITY, 0, 1, 1), OP_E_RANGE, "obstacle.center.y", "Infinity"},
      {fx_cylinder(0, 0, BIG, 1, 1), OP_E_RANGE, "obstacle.center.z", "2097152.0000000005"},
      {fx_cylinder(0, 0, 0, 0, 1), OP_E_RANGE, "obstacle.radius", "0"},
      {fx_cylinder(0, 0, 0, -1, 1), OP_E_RANGE, "obstacle.radius", "-1"},
      {fx_cylinder(M - 1, 0, 0, 2, 1), OP_E_RANGE, "obstacle.radius", "2"},
      {fx_cylinder(0, 0, 0, 1, -0.5), OP_E_RANGE, "obstacle.height", "-0.5"},
      {fx_box(0, 0, 0, 1, -INFINITY, 1), OP_E_RANGE, "obstacle.bmax.y", "-Infinity"},
      {fx_box(0, 0, 2, 1, 1, 1), OP_E_RANGE, "obstacle.bmax.z", "1"},
      {fx_obox(0, 0, 0, 0, 1, 1, 0), OP_E_RANGE, "obstacle.half.x", "0"},
      {fx_obox(0, 0, 0, 1, -1, 1, 0), OP_E_RANGE, "obstacle.half.y", "-1"},
      {fx_obox(0, 0, 0, 1, 1, -2, 0), OP_E_RANGE, "obstacle.half.z", "-2"},
      {fx_obox(0, 0, 0, 1, 1, 1, NAN), OP_E_RANGE, "obstacle.yaw", "NaN"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    op_error e;
    memset(&e, 0, sizeof e);
    OPT_CHECK(err_is(op_tilecache_add_obstacle(c, &bad[i].o, &id, &e), &e, bad[i].kind,
                     bad[i].field, bad[i].value));
  }
  op_error e;
  op_obstacle shape = ok;
  shape.shape = (op_obstacle_shape)3;
  OPT_CHECK(err_is(op_tilecache_add_obstacle(c, &shape, &id, &e), &e, OP_E_ARGUMENT,
                   "obstacle.shape", "3"));
  OPT_CHECK(err_is(op_tilecache_add_obstacle(c, NULL, &id, &e), &e, OP_E_ARGUMENT, "obstacle", NULL));
  op_convex_volume v = fx_quad(0, 0, 4, 4, 0, 1, 3);
  op_convex_volume vb = v;
  vb.npoints = 2;
  OPT_CHECK(err_is(op_tilecache_add_volume(c, &vb, &id, &e), &e, OP_E_RANGE, "volume.npoints", "2"));
  vb = v;
  vb.points[2][1] = NAN;
  OPT_CHECK(err_is(op_tilecache_add_volume(c, &vb, &id, &e), &e, OP_E_RANGE, "volume.points[2].z", "NaN"));
  vb = v;
  vb.ymax = -1;
  OPT_CHECK(err_is(op_tilecache_add_volume(c, &vb, &id, &e), &e, OP_E_RANGE, "volume.ymax", "-1"));
  vb = v;
  vb.area = 64;
  OPT_CHECK(err_is(op_tilecache_add_volume(c, &vb, &id, &e), &e, OP_E_RANGE, "volume.area", "64"));
  OPT_CHECK(err_is(op_tilecache_add_volume(c, NULL, &id, &e), &e, OP_E_ARGUMENT, "volume", NULL));
  /* RT-053: unknown, zero, removed */
  OPT_CHECK(err_is(op_tilecache_remove_obstacle(c, 0, &e), &e, OP_E_ARGUMENT, "id", "0"));
  OPT_CHECK(err_is(op_tilecache_remove_obstacle(c, 2, &e), &e, OP_E_ARGUMENT, "id", "2"));
  OPT_CHECK(err_is(op_tilecache_remove_volume(c, 1, &e), &e, OP_E_ARGUMENT, "id", "1"));
  OPT_CHECK(err_is(op_tilecache_remove_obstacle(c, 4294967295u, &e), &e, OP_E_ARGUMENT, "id",
                   "4294967295"));
  snap after = take(c);
  OPT_CHECK(memcmp(&before, &after, sizeof before) == 0);
  OPT_CHECK(op_tilecache_remove_obstacle(c, 1, NULL) == OP_OK);
  snap removed = take(c);
  OPT_CHECK(err_is(op_tilecache_remove_obstacle(c, 1, &e), &e, OP_E_ARGUMENT, "id", "1"));
  after = take(c);
  OPT_CHECK(memcmp(&removed, &after, sizeof after) == 0);
  uint32_t vid = 0;
  OPT_CHECK(op_tilecache_add_volume(c, &v, &vid, NULL) == OP_OK && vid == 1);
  OPT_CHECK(op_tilecache_remove_volume(c, vid, NULL) == OP_OK);
  removed = take(c);
  OPT_CHECK(err_is(op_tilecache_remove_volume(c, vid, &e), &e, OP_E_ARGUMENT, "id", "1"));
  after = take(c);
  OPT_CHECK(memcmp(&removed, &after, sizeof after) == 0);
  OPT_CHECK(err_is(op_tilecache_add_obstacle(NULL, &ok, &id, &e), &e, OP_E_ARGUMENT, "cache", NULL));
  op_tilecache_free(c);
  op_trimesh_free(&m);
}

/* RT-026, RT-040: the id limits (the next id set by hand: 2^32 - 1 adds would take too
** long), checked after validation; RT-024: -0.0 stored as +0.0. */
OPT_TEST(limits_and_zero, "RT-026, RT-024, RT-023, RT-040") {
  op_trimesh m;
  op_settings s;
  op_tilecache *c = terrain_cache(20, OP_PARTITION_MONOTONE, &m, &s);
  OPT_CHECK(c != NULL);
  if (!c) return;
  op_error e;
  uint32_t id = 0;
  op_obstacle o = fx_cylinder(-0.0, -0.0, 5, 1, -0.0);
  OPT_CHECK(op_tilecache_add_obstacle(c, &o, &id, NULL) == OP_OK && id == 1);
  OPT_CHECK(!signbit(c->obst[0].o.center[0]) && !signbit(c->obst[0].o.center[1]) &&
            !signbit(c->obst[0].o.height) && c->obst[0].o.center[2] == 5);
  op_convex_volume v = fx_quad(-0.0, 0, 3, 3, -0.0, 1, 2);
  OPT_CHECK(op_tilecache_add_volume(c, &v, &id, NULL) == OP_OK && id == 1);
  OPT_CHECK(!signbit(c->vols[0].v.points[0][0]) && !signbit(c->vols[0].v.points[3][0]) &&
            !signbit(c->vols[0].v.ymin));
  /* RT-023 is SPAN-033: a height above 2^21 whose top is within +-2^21, a half size whose
  ** rotated extent is, are valid (the settings accept them too) */
  op_obstacle tall = fx_cylinder(3, -0x1p21, 3, 1, 0x1p21 + 2);
  op_obstacle wide = fx_obox(0, 0, 0, 1.25 * 0x1p21, 1, 1, 0x1.921fb54442d18p-1);
  op_settings sv = s;
  sv.nobstacles = 1;
  sv.obstacles = &tall;
  OPT_CHECK(op_settings_validate(&sv, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_add_obstacle(c, &tall, &id, NULL) == OP_OK && id == 2);
  sv.obstacles = &wide;
  OPT_CHECK(op_settings_validate(&sv, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_add_obstacle(c, &wide, &id, NULL) == OP_OK && id == 3);
  snap before = take(c);
  c->next_obstacle_id = 4294967294u;
  OPT_CHECK(op_tilecache_add_obstacle(c, &o, &id, NULL) == OP_OK && id == 4294967294u);
  OPT_CHECK(op_tilecache_remove_obstacle(c, id, NULL) == OP_OK);
  before = take(c);
  OPT_CHECK(err_is(op_tilecache_add_obstacle(c, &o, &id, &e), &e, OP_E_LIMIT, "obstacle_id",
                   "4294967295"));
  op_obstacle nan = o;
  nan.radius = NAN; /* validation first */
  OPT_CHECK(err_is(op_tilecache_add_obstacle(c, &nan, &id, &e), &e, OP_E_RANGE, "obstacle.radius", "NaN"));
  c->next_volume_id = 4294967295u;
  OPT_CHECK(err_is(op_tilecache_add_volume(c, &v, &id, &e), &e, OP_E_LIMIT, "volume_id",
                   "4294967295"));
  snap after = take(c);
  OPT_CHECK(memcmp(&before, &after, sizeof before) == 0);
  op_tilecache_free(c);
  op_trimesh_free(&m);
}

/* RT-018: AddTile, RemoveTile and ReplaceTile on the cache's mesh fail with argument
** `mesh` (empty value) and change nothing; polygon edits are allowed. */
OPT_TEST(mesh_refuses, "RT-018, MESH-018") {
  op_trimesh m = fx_level("terrain", 5, 20);
  op_settings s = fx_humanoid(OP_PARTITION_WATERSHED);
  op_tilecache *c = cached(&s, &m);
  op_mesh *other = plain(&s, &m);
  if (!c || !other) {
    OPT_CHECK(0);
    op_trimesh_free(&m);
    return;
  }
  op_mesh *cm = op_tilecache_mesh(c);
  const opm_occ *occ = NULL;
  for (uint32_t i = 0; i < other->nslots && !occ; i++) occ = other->slots[i].occ;
  OPT_CHECK(occ != NULL);
  uint64_t h = mesh_hash(cm);
  op_error e;
  if (occ) {
    OPT_CHECK(err_is(op_mesh_add_tile(cm, occ->tile, NULL, &e), &e, OP_E_ARGUMENT, "mesh", ""));
    OPT_CHECK(err_is(op_mesh_replace_tile(cm, occ->tile, NULL, &e), &e, OP_E_ARGUMENT, "mesh", ""));
    OPT_CHECK(err_is(op_mesh_remove_tile(cm, occ->view.x, occ->view.z, occ->view.layer, &e), &e,
                     OP_E_ARGUMENT, "mesh", ""));
    /* the same calls on a mesh no cache owns work */
    OPT_CHECK(op_mesh_remove_tile(other, occ->view.x, occ->view.z, occ->view.layer, NULL) == OP_OK);
  }
  OPT_CHECK(mesh_hash(cm) == h);
  op_ref ref = 0;
  OPT_CHECK(op_mesh_poly_ref(cm, 0, 0, 0, 0, &ref, NULL) == OP_OK);
  OPT_CHECK(op_mesh_set_poly_flags(cm, ref, 5, NULL) == OP_OK);
  OPT_CHECK(mesh_hash(cm) != h);
  op_mesh_free(other);
  op_tilecache_free(c);
  op_trimesh_free(&m);
}

/* RT-065 case 1, RT-066: a tile queued and found unchanged keeps its polygon edits. */
OPT_TEST(edits_survive_unchanged, "RT-065, RT-066, RT-134") {
  op_trimesh m;
  op_settings s;
  op_tilecache *c = terrain_cache(40, OP_PARTITION_WATERSHED, &m, &s);
  OPT_CHECK(c != NULL);
  if (!c) return;
  op_mesh *cm = op_tilecache_mesh(c);
  op_ref ref = 0;
  uint16_t fl = 0;
  OPT_CHECK(op_mesh_poly_ref(cm, 1, 1, 0, 0, &ref, NULL) == OP_OK);
  OPT_CHECK(op_mesh_set_poly_flags(cm, ref, 9, NULL) == OP_OK);
  uint32_t id;
  op_obstacle far = fx_cylinder(5, -10, 5, 1, 30); /* changes tile (0, 0) */
  OPT_CHECK(op_tilecache_add_obstacle(c, &far, &id, NULL) == OP_OK);
  op_obstacle nothing = fx_cylinder(30, 100, 30, 1, 1); /* above the terrain: queues (1, 1),
                                                        marks nothing */
  OPT_CHECK(op_tilecache_add_obstacle(c, &nothing, &id, NULL) == OP_OK);
  int queued = 0;
  for (uint32_t i = 0; i < op_tilecache_queue_length(c); i++) {
    int32_t tx, tz;
    op_tilecache_queued(c, i, &tx, &tz);
    queued |= tx == 1 && tz == 1;
  }
  OPT_CHECK(queued);
  OPT_CHECK(update_all(c));
  op_tilecache_stats st;
  op_tilecache_stats_get(c, &st);
  OPT_CHECK(st.tiles_kept + st.units_skipped > 0 && st.tiles_replaced > 0);
  OPT_CHECK(op_mesh_get_poly(cm, ref, &fl, NULL, NULL) == OP_OK && fl == 9);
  /* RT-134: with the last-built areas forgotten (as after a restore, RT-133) step 1 is not
  ** taken; step 2 gives the first build's tile, whose content id is M's: case 1 keeps it */
  optc_forget_last(c);
  op_tilecache_stats_reset(c);
  OPT_CHECK(op_tilecache_add_obstacle(c, &nothing, &id, NULL) == OP_OK);
  uint64_t h = mesh_hash(cm);
  OPT_CHECK(update_all(c));
  op_tilecache_stats_get(c, &st);
  OPT_CHECK(st.units_skipped == 0 && st.tiles_kept == st.tiles_processed && st.tiles_kept > 0);
  OPT_CHECK(op_mesh_get_poly(cm, ref, &fl, NULL, NULL) == OP_OK && fl == 9);
  OPT_CHECK(mesh_hash(cm) == h);
  op_tilecache_free(c);
  op_trimesh_free(&m);
}

/* ------------------------------------------------------------ RT-106 */

/* A tiny deterministic generator for the random histories (splitmix64). */
static uint64_t rnd(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
static double rndu(uint64_t *s) { return (double)(rnd(s) >> 11) * 0x1p-53; }

/* The id of live obstacle (or volume) number r mod live count, in cache order. */
static uint32_t live_obstacle_id(const op_tilecache *c, uint64_t r) {
  uint32_t k = (uint32_t)(r % optc_live_obstacles(c));
  for (uint32_t i = 0; i < c->nobst; i++)
    if (!c->obst[i].dead && k-- == 0) return c->obst[i].id;
  return 0;
}
static uint32_t live_volume_id(const op_tilecache *c, uint64_t r) {
  uint32_t k = (uint32_t)(r % optc_live_volumes(c));
  for (uint32_t i = 0; i < c->nvols; i++)
    if (!c->vols[i].dead && k-- == 0) return c->vols[i].id;
  return 0;
}

typedef struct hist_fail {
  uint32_t n; /* calls that failed */
} hist_fail;

static op_obstacle random_obstacle(uint64_t *r, double E) {
  double x = 2 + rndu(r) * (E - 4), z = 2 + rndu(r) * (E - 4);
  switch (rnd(r) % 3) {
  case 0: return fx_cylinder(x, -2, z, 0.3 + rndu(r) * 3, 1 + rndu(r) * 20);
  case 1: return fx_box(x, -2, z, x + 0.5 + rndu(r) * 4, 2 + rndu(r) * 20, z + 0.5 + rndu(r) * 4);
  default:
    return fx_obox(x, 0, z, 0.5 + rndu(r) * 3, 2 + rndu(r) * 20, 0.3 + rndu(r) * 2,
                   rndu(r) * 6.28);
  }
}

static uint64_t snap_hash(const op_tilecache *c) {
  op_bytes b = {NULL, 0};
  if (op_tilecache_snapshot_save(c, &b, NULL) != OP_OK) return 0;
  uint64_t h = op_hash64(b.data, b.len);
  op_bytes_free(&b);
  return h;
}

/* One random history on two caches, the repair on in one and off in the other: obstacle
** adds and removals, volumes, sliced updates. The number of updates whose mesh bytes
** differ, plus one when the final snapshots differ. */
static uint32_t history(op_tilecache *on, op_tilecache *off, uint64_t r, int steps, double E,
                        hist_fail *f) {
  uint32_t live[64], nlive = 0, vlive[8], nv = 0, mism = 0;
  for (int step = 0; step < steps; step++) {
    uint64_t what = rnd(&r) % 10;
    if (what < 5 && nlive < 64) {
      op_obstacle o = random_obstacle(&r, E);
      uint32_t a = 0, b = 0;
      f->n += op_tilecache_add_obstacle(on, &o, &a, NULL) != OP_OK;
      f->n += op_tilecache_add_obstacle(off, &o, &b, NULL) != OP_OK || a != b;
      live[nlive++] = a;
    } else if (what < 8 && nlive > 0) {
      uint32_t k = (uint32_t)(rnd(&r) % nlive);
      f->n += op_tilecache_remove_obstacle(on, live[k], NULL) != OP_OK;
      f->n += op_tilecache_remove_obstacle(off, live[k], NULL) != OP_OK;
      live[k] = live[--nlive];
    } else if (what == 8 && nv < 8) {
      double x = rndu(&r) * (E - 8), z = rndu(&r) * (E - 8);
      op_convex_volume v = fx_quad(x, z, x + 3 + rndu(&r) * 8, z + 3 + rndu(&r) * 8, -1,
                                1 + rndu(&r) * 20, (uint8_t)(rnd(&r) % 4 == 0 ? 0 : 1 + rnd(&r) % 60));
      uint32_t a = 0;
      f->n += op_tilecache_add_volume(on, &v, &a, NULL) != OP_OK;
      f->n += op_tilecache_add_volume(off, &v, NULL, NULL) != OP_OK;
      vlive[nv++] = a;
    } else if (nv > 0) {
      f->n += op_tilecache_remove_volume(on, vlive[nv - 1], NULL) != OP_OK;
      f->n += op_tilecache_remove_volume(off, vlive[--nv], NULL) != OP_OK;
    }
    uint32_t budget = (uint32_t)(rnd(&r) % 4); /* 0 .. 2 tiles, or all */
    if (budget == 3) budget = 0xffffffffu;
    f->n += op_tilecache_update(on, budget, NULL, NULL) != OP_OK;
    f->n += op_tilecache_update(off, budget, NULL, NULL) != OP_OK;
    if (mesh_hash(on->mesh) != mesh_hash(off->mesh)) mism++;
  }
  while (nlive) { /* empty the cache again for the next history */
    f->n += op_tilecache_remove_obstacle(on, live[--nlive], NULL) != OP_OK;
    f->n += op_tilecache_remove_obstacle(off, live[nlive], NULL) != OP_OK;
  }
  while (nv) {
    f->n += op_tilecache_remove_volume(on, vlive[--nv], NULL) != OP_OK;
    f->n += op_tilecache_remove_volume(off, vlive[nv], NULL) != OP_OK;
  }
  if (snap_hash(on) != snap_hash(off)) mism++;
  f->n += !update_all(on) || !update_all(off);
  if (mesh_hash(on->mesh) != mesh_hash(off->mesh)) mism++;
  return mism;
}

/* RT-106: with the repair on and off, random histories (adds, removals, volumes, sliced
** updates) give the same mesh bytes after every update and the same snapshots, on city
** (several layers per tile) and terrain with Layers; RT-107: the switch is not state. */
OPT_TEST(repair_equals_scratch, "RT-106, RT-101, RT-107") {
  for (int lv = 0; lv < 2; lv++) {
    op_trimesh m = fx_level(LEVELS[lv], 5, SIZES[lv]);
    op_settings s = fx_humanoid(OP_PARTITION_LAYERS);
    op_tilecache *on = cached(&s, &m), *off = cached(&s, &m);
    if (!on || !off) {
      OPT_CHECK(0);
      op_trimesh_free(&m);
      continue;
    }
    op_tilecache_set_repair(off, 0);
    OPT_CHECK(op_tilecache_repair(on) == 1 && op_tilecache_repair(off) == 0);
    hist_fail f = {0};
    uint32_t mism = 0;
    for (uint64_t h = 0; h < 100; h++)
      mism += history(on, off, 1000 * (uint64_t)lv + h, 12, lv ? 56 : 40, &f);
    OPT_CHECK(mism == 0 && f.n == 0);
    op_tilecache_stats st;
    op_tilecache_stats_get(on, &st);
    OPT_CHECK(!on->ctx.layer_first || st.units_repaired > 0);
    fprintf(stderr, "  %s: %llu layers repaired, %llu fallbacks, %llu built\n", LEVELS[lv],
            (unsigned long long)st.units_repaired, (unsigned long long)st.repair_fallbacks,
            (unsigned long long)st.units_built);
    op_tilecache_free(on);
    op_tilecache_free(off);
    op_trimesh_free(&m);
  }
}

/* RT-027, RT-043, RT-062 on random histories: whenever the queue is empty, the cache's
** tiles are those of a fresh build whose Obstacles are the live obstacles (in id order) and
** whose volumes are the live volumes after the settings' own; every partition. */
OPT_TEST(random_histories_bake, "RT-027, RT-043, RT-062") {
  op_trimesh m = fx_level("city", 5, 2);
  uint32_t checks = 0, bad = 0, fails = 0;
  for (int p = 0; p < 3; p++) {
    op_settings s = fx_humanoid(PARTS[p]);
    op_convex_volume sv[17];
    sv[0] = fx_quad(10, 30, 50, 34, -1, 30, 4); /* a settings volume: run-time ones come after */
    s.nvolumes = 1;
    s.volumes = sv;
    op_tilecache *c = cached(&s, &m);
    if (!c) {
      OPT_CHECK(0);
      continue;
    }
    uint64_t r = 77 + (uint64_t)p;
    for (int step = 0; step < 40; step++) {
      uint64_t what = rnd(&r) % 8;
      if (what < 4 && optc_live_obstacles(c) < 12) {
        op_obstacle o = random_obstacle(&r, 56);
        fails += op_tilecache_add_obstacle(c, &o, NULL, NULL) != OP_OK;
      } else if (what < 6 && optc_live_obstacles(c) > 0) {
        fails += op_tilecache_remove_obstacle(c, live_obstacle_id(c, rnd(&r)), NULL) != OP_OK;
      } else if (what == 6 && optc_live_volumes(c) < 4) {
        double x = rndu(&r) * 48, z = rndu(&r) * 48;
        op_convex_volume v = fx_quad(x, z, x + 3 + rndu(&r) * 8, z + 3 + rndu(&r) * 8, -1,
                                  1 + rndu(&r) * 20, (uint8_t)(rnd(&r) % 3 == 0 ? 0 : 1 + rnd(&r) % 60));
        fails += op_tilecache_add_volume(c, &v, NULL, NULL) != OP_OK;
      } else if (optc_live_volumes(c) > 0) {
        fails += op_tilecache_remove_volume(c, live_volume_id(c, rnd(&r)), NULL) != OP_OK;
      }
      fails += op_tilecache_update(c, (uint32_t)(rnd(&r) % 3), NULL, NULL) != OP_OK;
      if (step % 5 != 4) continue;
      fails += !update_all(c);
      op_obstacle lo[12];
      uint32_t no = 0, nv = 0;
      for (uint32_t i = 0; i < c->nobst; i++)
        if (!c->obst[i].dead) lo[no++] = c->obst[i].o;
      for (uint32_t i = 0; i < c->nvols; i++)
        if (!c->vols[i].dead) sv[1 + nv++] = c->vols[i].v;
      op_settings f = s;
      f.nobstacles = no;
      f.obstacles = lo;
      f.nvolumes = 1 + nv;
      op_mesh *fresh = plain(&f, &m);
      checks++;
      bad += !fresh || !same_tiles(op_tilecache_mesh(c), fresh);
      op_mesh_free(fresh);
    }
    op_tilecache_free(c);
  }
  OPT_CHECK(checks == 24 && bad == 0 && fails == 0);
  op_trimesh_free(&m);
}

OPT_MAIN_BEGIN
OPT_RUN(cached_equals_plain);
OPT_RUN(cached_threads);
OPT_RUN(cached_chunk_equals_plain);
OPT_RUN(cached_heightfield);
OPT_RUN(obstacles_bake);
OPT_RUN(settings_read_once);
OPT_RUN(volume_runtime_equals_settings);
OPT_RUN(sliced_update);
OPT_RUN(shortcuts);
OPT_RUN(queue_order);
OPT_RUN(errors_change_nothing);
OPT_RUN(limits_and_zero);
OPT_RUN(mesh_refuses);
OPT_RUN(edits_survive_unchanged);
OPT_RUN(random_histories_bake);
OPT_RUN(repair_equals_scratch);
OPT_MAIN_END
