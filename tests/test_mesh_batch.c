/*
** test_mesh_batch.c -- opm_batch (ref/navmesh/mesh.c, mesh_internal.h), the all-or-nothing form of
** AddTile / ReplaceTile / RemoveTile (MESH-001, MESH-011 .. MESH-015, MESH-024), and the
** tile cache's Update that commits through it (RT-061, RT-065).
**
** Every expected value comes from a second route: the same changes made by the public
** single operations one after another on a twin mesh (restored from a snapshot), compared
** byte for byte (op_mesh_save and op_mesh_snapshot_save, so slots, generations, empty
** slots, edits and links included); and, for failures, the bytes taken before the call.
** Memory failures are made by the per-mesh test hook opm_test_fail_alloc (k-th allocation
** of a batch fails), for every k until the batch needs no more.
*/
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "navmesh/mesh_internal.h"
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
#include "optest.h"
#include "build3d/runtime/tilecache.h"

/* ------------------------------------------------------------ mesh helpers */

static const float CUTS[4][4] = {{0, 4}, {0, 1, 4}, {0, 2.5f, 4}, {0, 1, 3, 4}};
static const int NCUT[4] = {1, 2, 2, 3};

/* Both byte forms of a mesh (MESH-040 and the snapshot, which adds the empty slots). */
typedef struct image {
  op_bytes mesh, snap;
} image;

static image take(const op_mesh *m) {
  image i = {fx_mesh_bytes(m), fx_mesh_snapshot(m)};
  return i;
}

static int same_image(const image *a, const image *b) {
  return fx_same(&a->mesh, &b->mesh) && fx_same(&a->snap, &b->snap);
}

static void image_free(image *i) {
  op_bytes_free(&i->mesh);
  op_bytes_free(&i->snap);
}

/* 1 when m's images equal *was. */
static int unchanged(const op_mesh *m, const image *was) {
  image a = take(m);
  int ok = same_image(was, &a);
  image_free(&a);
  return ok;
}

/* 1 when the two meshes have the same images. */
static int same_meshes(const op_mesh *m, const op_mesh *r) {
  image a = take(m), b = take(r);
  int ok = same_image(&a, &b);
  image_free(&a);
  image_free(&b);
  return ok;
}

/* m's state into n (same parameters) through a snapshot. */
static int restore(op_mesh *n, const image *i) {
  op_error e;
  return op_mesh_snapshot_load(n, i->snap.data, i->snap.len, &e) == OP_OK;
}

/* The sequential route: each change as the single public operation it amounts to (the
** rule stated for opm_batch, which is RT-065's cases 2 to 5). Stops at the first error:
** its index in *bad, its status returned, e filled. done[j] what change j did. */
static op_status sequential(op_mesh *m, const opm_change *ch, size_t n, opm_done *done,
                            size_t *bad, op_error *e) {
  for (size_t j = 0; j < n; j++) {
    op_ref r = 0;
    int there = op_mesh_poly_ref(m, ch[j].x, ch[j].z, ch[j].layer, 0, &r, e) == OP_OK;
    op_status st = OP_OK;
    done[j] = OPM_NONE;
    if (ch[j].tile && there) { /* MESH-015 */
      st = op_mesh_replace_tile(m, ch[j].tile, NULL, e);
      done[j] = OPM_REPLACED;
    } else if (ch[j].tile) { /* MESH-012 */
      st = op_mesh_add_tile(m, ch[j].tile, NULL, e);
      done[j] = OPM_ADDED;
    } else if (there) { /* MESH-014 */
      st = op_mesh_remove_tile(m, ch[j].x, ch[j].z, ch[j].layer, e);
      done[j] = OPM_REMOVED;
    }
    if (st) {
      *bad = j;
      return st;
    }
  }
  return OP_OK;
}

/* A random batch of up to 8 changes on a 3 x 3 x 2 grid of positions: 3 in 4 a strip tile
** (one in 40 with a foreign cell height: MESH-005's error), else no tile. With 14 or 15 slots for
** up to 24 positions, MESH-012's limit error comes too. */
static size_t random_changes(op_prng *g, opm_change *ch, int wide) {
  size_t n = (size_t)op_prng_below(g, 9);
  for (size_t j = 0; j < n; j++) {
    int x = (int)op_prng_below(g, wide ? 4 : 3), z = (int)op_prng_below(g, 3);
    int layer = (int)op_prng_below(g, 2), c = (int)op_prng_below(g, 4);
    ch[j].x = x, ch[j].z = z, ch[j].layer = layer, ch[j].done = OPM_NONE;
    ch[j].tile = NULL;
    if (op_prng_below(g, 4) == 0) continue;
    double oy = 0.25 * (double)op_prng_below(g, 5); /* gaps of 0 .. 1 against climb 0.5 */
    float slope = op_prng_below(g, 3) == 0 ? 0.125f : 0.0f;
    double cellh = op_prng_below(g, 40) == 0 ? 0.25 : 0.5;
    ch[j].tile = fx_strip_tile(x, z, layer, oy, NCUT[c], CUTS[c], 0.0f, slope, 0.0f, cellh);
  }
  return n;
}

static void changes_free(opm_change *ch, size_t n) {
  for (size_t j = 0; j < n; j++) op_tile_free((op_tile *)ch[j].tile);
}

/* Some polygon edits (MESH-030), the same on both meshes (same state, same references). */
static void random_edits(op_prng *g, op_mesh *a, op_mesh *b) {
  for (int k = 0; k < 2; k++) {
    int x = (int)op_prng_below(g, 4), z = (int)op_prng_below(g, 3);
    int layer = (int)op_prng_below(g, 2);
    op_ref r = 0;
    op_error e;
    if (op_mesh_poly_ref(a, x, z, layer, 0, &r, &e) != OP_OK) continue;
    uint16_t fl = (uint16_t)op_prng_below(g, 65536);
    op_mesh_set_poly_flags(a, r, fl, &e);
    op_mesh_set_poly_flags(b, r, fl, &e);
  }
}

/* Generations near the wrap (MESH-011): one stored slot of each mesh (the same one) set to
** 2^22 - 1 or 2^22 - 2, then every link recomputed (the references in links carry it). */
static void near_wrap(op_prng *g, op_mesh *a, op_mesh *b) {
  if (!a->nslots || a->nslots != b->nslots) return;
  uint32_t k = (uint32_t)op_prng_below(g, a->nslots);
  uint32_t gen = OPM_GEN_MAX - (uint32_t)op_prng_below(g, 2);
  a->slots[k].gen = b->slots[k].gen = gen;
  opm_relink_all(a);
  opm_relink_all(b);
}

/* ------------------------------------------------------------ the mesh batch */

/* MESH-024, MESH-012, MESH-014, MESH-015, MESH-011: on random histories the batch leaves
** exactly the bytes of the single operations one after another (lowest empty slot, same
** slot with the next generation, removal, wrap to 1 and its erased entry, edits kept or
** dropped, links); a batch whose sequence fails (MESH-005, MESH-012's limit) fails with the
** same kind and field at the same change and changes nothing (MESH-001). */
OPT_TEST(batch_equals_sequential, "MESH-024, MESH-012, MESH-014, MESH-015, MESH-011, MESH-001") {
  op_prng g;
  op_prng_seed(&g, 20261201);
  op_mesh *m = fx_mesh(0.5, 15), *r = fx_mesh(0.5, 15);
  int bad = 0, failed_rounds = 0, limit = 0, foreign = 0, wrapped = 0, wraps = 0, rounds = 2000;
  uint64_t kinds[4] = {0, 0, 0, 0};
  uint32_t most_links = 0;
  for (int round = 0; round < rounds; round++) {
    opm_change ch[8];
    opm_done seq_done[8];
    size_t n = random_changes(&g, ch, round % 3 == 0);
    image before = take(m), rbefore = take(r);
    uint32_t top_gen[16], ntop = 0; /* slots at the last generation before the batch */
    for (uint32_t k = 0; k < m->nslots && ntop < 16; k++)
      if (m->slots[k].gen == OPM_GEN_MAX) top_gen[ntop++] = m->slots[k].index;
    size_t sbad = SIZE_MAX, bbad = 0;
    op_error es, eb;
    op_status ss = sequential(r, ch, n, seq_done, &sbad, &es);
    op_status sb = opm_batch(m, ch, n, &bbad, &eb);
    if (ss != OP_OK) { /* the same error, nothing changed */
      failed_rounds++;
      limit += !strcmp(es.field, "max_tiles");
      foreign += !strcmp(es.field, "tiling.cell_height");
      if (sb != ss || strcmp(es.field, eb.field) || strcmp(es.value, eb.value) || bbad != sbad ||
          !unchanged(m, &before))
        bad++, fprintf(stderr, "  round %d: sequential %d %s at %zu, batch %d %s at %zu\n", round,
                       (int)ss, es.field, sbad, (int)sb, eb.field, bbad);
      if (!restore(r, &rbefore)) bad++;
    } else {
      if (sb != OP_OK || !same_meshes(m, r))
        bad++, fprintf(stderr, "  round %d differs\n", round);
      for (size_t j = 0; sb == OP_OK && j < n; j++) {
        if (ch[j].done != seq_done[j]) bad++;
        kinds[ch[j].done]++;
      }
      for (uint32_t k = 0; k < ntop; k++) { /* MESH-011: the generation wrapped to 1 */
        const opm_slot *sl = opm_slot_at(m, top_gen[k]);
        wraps += !sl || sl->gen == 1;
      }
    }
    image_free(&before);
    image_free(&rbefore);
    changes_free(ch, n);
    random_edits(&g, m, r);
    if (op_prng_below(&g, 25) == 0) near_wrap(&g, m, r), wrapped++;
    uint32_t links = 0;
    for (uint32_t k = 0; k < m->nslots; k++) links += m->slots[k].occ ? m->slots[k].occ->nlinks : 0;
    if (links > most_links) most_links = links;
  }
  fprintf(stderr, "batch_equals_sequential: %d rounds, %d failing (%d max_tiles, %d tiling), "
          "added %llu, replaced %llu, removed %llu, nothing %llu, wraps set %d, wrapped %d, "
          "at most %u links\n", rounds, failed_rounds, limit, foreign,
          (unsigned long long)kinds[OPM_ADDED], (unsigned long long)kinds[OPM_REPLACED],
          (unsigned long long)kinds[OPM_REMOVED], (unsigned long long)kinds[OPM_NONE], wrapped,
          wraps, most_links);
  OPT_CHECK(bad == 0);
  /* the history is not trivial: every kind, failures of both sorts, wraps, many links */
  OPT_CHECK(limit >= 10 && foreign >= 10 && kinds[OPM_ADDED] > 100 && kinds[OPM_REPLACED] > 100 &&
            kinds[OPM_REMOVED] > 50 && wrapped >= 10 && wraps >= 5 && most_links >= 60);
  op_mesh_free(m);
  op_mesh_free(r);
}

/* MESH-001 for the batch: the k-th allocation fails, for every k until the batch needs
** no more; each failure is out_of_memory `mesh` and leaves the bytes as they were; the
** first k that succeeds gives the sequential route's bytes. */
OPT_TEST(batch_out_of_memory, "MESH-001, MESH-024") {
  op_prng g;
  op_prng_seed(&g, 7);
  op_mesh *m = fx_mesh(0.5, 14), *r = fx_mesh(0.5, 14);
  int bad = 0, fails = 0, batches = 0;
  for (int round = 0; round < 120; round++) {
    opm_change ch[8];
    opm_done seq_done[8];
    size_t n = random_changes(&g, ch, 1);
    image before = take(m);
    size_t sbad = 0, bbad = 0;
    op_error e;
    if (sequential(r, ch, n, seq_done, &sbad, &e) != OP_OK) {
      if (!restore(r, &before)) bad++;
      image_free(&before);
      changes_free(ch, n);
      continue;
    }
    op_status st = OP_E_NOMEM;
    uint32_t k = 1;
    for (; st == OP_E_NOMEM && k < 100000; k++) {
      opm_test_fail_alloc(m, k);
      st = opm_batch(m, ch, n, &bbad, &e);
      if (st == OP_OK) break;
      if (st != OP_E_NOMEM || strcmp(e.field, "mesh") || !unchanged(m, &before)) bad++;
      fails++;
    }
    opm_test_fail_alloc(m, 0);
    batches++;
    if (st != OP_OK || !same_meshes(m, r)) bad++;
    image_free(&before);
    changes_free(ch, n);
    random_edits(&g, m, r);
  }
  fprintf(stderr, "batch_out_of_memory: %d batches, %d failed allocations checked\n", batches,
          fails);
  OPT_CHECK(bad == 0 && batches >= 60 && fails >= 500);
  op_mesh_free(m);
  op_mesh_free(r);
}

/* MESH-018: the batch is the cache's way in; the public operations still refuse. Empty and
** no-op batches change nothing. A tile at another position than its change is refused. */
OPT_TEST(batch_edges, "MESH-018, MESH-012, MESH-014") {
  op_mesh *m = fx_mesh(0.5, 4);
  op_error e;
  size_t bad = 0;
  image i0 = take(m);
  OPT_CHECK(opm_batch(m, NULL, 0, &bad, &e) == OP_OK && bad == SIZE_MAX);
  opm_change ch[3];
  memset(ch, 0, sizeof ch);
  ch[0].x = 1; /* no tile where none is: nothing */
  OPT_CHECK(opm_batch(m, ch, 1, &bad, &e) == OP_OK && ch[0].done == OPM_NONE);
  OPT_CHECK(unchanged(m, &i0));
  m->cache_owned = 1;
  op_tile *t = fx_strip_tile(0, 0, 0, 0.0, 1, CUTS[0], 0.0f, 0.0f, 0.0f, 0.5);
  OPT_CHECK(op_mesh_add_tile(m, t, NULL, &e) == OP_E_ARGUMENT && !strcmp(e.field, "mesh"));
  ch[0].tile = t, ch[0].x = 0;
  ch[1].x = 5, ch[1].tile = t; /* t is at (0, 0, 0): refused, nothing of change 0 kept */
  OPT_CHECK(opm_batch(m, ch, 2, &bad, &e) == OP_E_ARGUMENT && !strcmp(e.field, "tile") &&
            !strcmp(e.value, "0,0,0") && bad == 1);
  OPT_CHECK(unchanged(m, &i0));
  /* add, then replace and remove in the same batch: slot 0, generation 1 + 2 (MESH-011) */
  ch[1] = ch[0];
  ch[2] = ch[0], ch[2].tile = NULL;
  OPT_CHECK(opm_batch(m, ch, 3, &bad, &e) == OP_OK && ch[0].done == OPM_ADDED &&
            ch[1].done == OPM_REPLACED && ch[2].done == OPM_REMOVED);
  OPT_CHECK(m->nslots == 1 && m->slots[0].index == 0 && m->slots[0].gen == 3 && !m->slots[0].occ);
  OPT_CHECK(m->cache_owned == 1);
  op_tile_free(t);
  image_free(&i0);
  op_mesh_free(m);
}

/* ------------------------------------------------------------ the cache */

static op_tilecache *city_cache(op_partition p, op_trimesh *level) {
  op_settings s = fx_humanoid(p);
  op_soup soup = op_trimesh_soup(level);
  return fx_cache(&s, &soup);
}

/* Everything a failed Update must leave as it was (RT-061): the mesh's two byte forms, the
** cache's snapshot (queue, obstacles, ids), the queue read back, the stats. */
typedef struct cache_image {
  image mesh;
  op_bytes cache;
  uint32_t nq;
  int32_t q[256][2];
  op_tilecache_stats stats;
} cache_image;

static cache_image cache_take(const op_tilecache *c) {
  cache_image i;
  memset(&i, 0, sizeof i);
  i.mesh = take(c->mesh);
  op_error e;
  if (op_tilecache_snapshot_save(c, &i.cache, &e))
    fprintf(stderr, "cache snapshot: %s\n", e.message);
  i.nq = op_tilecache_queue_length(c);
  for (uint32_t k = 0; k < i.nq && k < 256; k++) op_tilecache_queued(c, k, &i.q[k][0], &i.q[k][1]);
  op_tilecache_stats_get(c, &i.stats);
  return i;
}

static int cache_same(const cache_image *a, const cache_image *b) {
  return same_image(&a->mesh, &b->mesh) && fx_same(&a->cache, &b->cache) && a->nq == b->nq &&
         memcmp(a->q, b->q, sizeof a->q) == 0 && memcmp(&a->stats, &b->stats, sizeof a->stats) == 0;
}

static void cache_image_free(cache_image *i) {
  image_free(&i->mesh);
  op_bytes_free(&i->cache);
}

/* The tile the mesh holds at (x, z, layer), or NULL. */
static const op_tile *tile_at(const op_mesh *m, int32_t x, int32_t z, int32_t layer) {
  int64_t f = opm_find(m, x, z, layer);
  return f >= 0 ? m->slots[f].occ->tile : NULL;
}

/* The highest layer of any tile in column (x, z) of m, or -1. */
static int32_t top_layer(const op_mesh *m, int32_t x, int32_t z) {
  int32_t top = -1;
  for (uint32_t k = 0; k < m->nslots; k++) {
    const opm_occ *o = m->slots[k].occ;
    if (o && o->view.x == x && o->view.z == z && o->view.layer > top) top = o->view.layer;
  }
  return top;
}

/* RT-065 by the public single operations, one unit at a time: on r (the mesh before the
** Update, restored from its snapshot) for the n queued tiles q in queue order, layers
** ascending, with T the tile the cache's mesh holds after the Update. Counts the cases
** (case 1 here also counts the units RT-013 step 1 skipped, which the cache does not). */
static int sequential_swaps(op_mesh *r, const op_mesh *after, const int32_t (*q)[2], uint32_t n,
                            uint64_t cases[5]) {
  op_error e;
  for (uint32_t i = 0; i < n; i++) {
    int32_t x = q[i][0], z = q[i][1];
    int32_t top = top_layer(r, x, z), t2 = top_layer(after, x, z);
    for (int32_t L = 0; L <= (t2 > top ? t2 : top); L++) {
      const op_tile *T = tile_at(after, x, z, L), *M = tile_at(r, x, z, L);
      op_status st = OP_OK;
      if (T && M && op_tile_content_id(T) == op_tile_content_id(M)) cases[1]++; /* keep */
      else if (T && M) st = op_mesh_replace_tile(r, T, NULL, &e), cases[2]++;
      else if (T) st = op_mesh_add_tile(r, T, NULL, &e), cases[3]++;
      else if (M) st = op_mesh_remove_tile(r, x, z, L, &e), cases[4]++;
      if (st) {
        fprintf(stderr, "  sequential swap (%d, %d, %d): %s\n", x, z, L, e.message);
        return 0;
      }
    }
  }
  return 1;
}

/* Polygon edits on the cache's mesh (MESH-018 allows them): flags of polygon 0 of every
** third tile, so that kept tiles carry edits and replaced ones drop them (RT-066). */
static void edit_some(op_mesh *m, uint16_t flags) {
  op_error e;
  for (uint32_t k = 0; k < m->nslots; k += 3)
    if (m->slots[k].occ)
      op_mesh_set_poly_flags(m, opm_make_ref(m->slots[k].gen, m->slots[k].index, 0), flags, &e);
}

/* One Update of the cache, checked both ways: with the k-th batch allocation failing for
** every k (each a failure that changes nothing, RT-061), then without (the result equals
** the single operations one after another, RT-065, slots and generations included). */
static int checked_update(op_tilecache *c, uint32_t budget, int *fails, uint64_t cases[5]) {
  int ok = 1;
  cache_image before = cache_take(c);
  uint32_t k = 1, done = 0;
  op_error e;
  op_status st = OP_E_NOMEM;
  for (; st == OP_E_NOMEM && k < 100000; k++) {
    opm_test_fail_alloc(c->mesh, k);
    st = op_tilecache_update(c, budget, &done, &e);
    if (st == OP_OK) break;
    cache_image after = cache_take(c);
    if (st != OP_E_NOMEM || strcmp(e.field, "mesh") || !cache_same(&before, &after)) {
      fprintf(stderr, "  update failing at allocation %u: %d %s %s\n", k, (int)st, e.field,
              e.message);
      ok = 0;
    }
    cache_image_free(&after);
    (*fails)++;
  }
  opm_test_fail_alloc(c->mesh, 0);
  uint32_t n = before.nq < budget ? before.nq : budget;
  if (st != OP_OK || done != n) ok = 0;
  op_mesh *r = NULL;
  op_error e2;
  if (op_mesh_create(&c->mesh->params, &r, &e2) != OP_OK || !restore(r, &before.mesh)) ok = 0;
  uint64_t cs[5] = {0, 0, 0, 0, 0};
  if (r && !sequential_swaps(r, c->mesh, (const int32_t(*)[2])before.q, n, cs)) ok = 0;
  if (!same_meshes(c->mesh, r))
    ok = 0, fprintf(stderr, "  update differs from the single operations\n");
  op_tilecache_stats now;
  op_tilecache_stats_get(c, &now);
  uint64_t kept = now.tiles_kept - before.stats.tiles_kept;
  uint64_t skipped = now.units_skipped - before.stats.units_skipped; /* RT-013 step 1 */
  if (kept > cs[1] || cs[1] > kept + skipped || /* a skipped unit keeps its tile, if any */
      now.tiles_replaced - before.stats.tiles_replaced != cs[2] ||
      now.tiles_added - before.stats.tiles_added != cs[3] ||
      now.tiles_removed - before.stats.tiles_removed != cs[4])
    ok = 0, fprintf(stderr, "  RT-065 case counts differ\n");
  for (int i = 1; i < 5; i++) cases[i] += cs[i];
  op_mesh_free(r);
  cache_image_free(&before);
  return ok;
}

/* Obstacle history step k on cache c (ids of the live ones in id[]). */
static int obstacle_step(op_tilecache *c, int k, uint32_t id[3]) {
  op_obstacle big = fx_box(-1, -10, -1, 30, 40, 30), small = fx_cylinder(40, -1, 40, 2, 5);
  op_obstacle far = fx_box(33, -10, 33, 58, 40, 58);
  op_error e;
  int ok = 1;
  if (k == 0) { /* whole tiles emptied (removals), a street cut (replaces) */
    edit_some(c->mesh, 0x5a5a);
    ok &= op_tilecache_add_obstacle(c, &big, &id[0], &e) == OP_OK;
    ok &= op_tilecache_add_obstacle(c, &small, &id[1], &e) == OP_OK;
  } else if (k == 1) { /* the first tiles come back (adds), others go */
    edit_some(c->mesh, 0x0f0f);
    ok &= op_tilecache_remove_obstacle(c, id[0], &e) == OP_OK;
    ok &= op_tilecache_add_obstacle(c, &far, &id[2], &e) == OP_OK;
  } else {
    ok &= op_tilecache_remove_obstacle(c, id[1], &e) == OP_OK;
    ok &= op_tilecache_remove_obstacle(c, id[2], &e) == OP_OK;
  }
  return ok;
}

/* RT-061, RT-065, RT-062: Update on the city, layer-first and general path, through
** obstacles that empty whole tiles (removals, then adds when they go) and cut streets
** (replaces), the budget slicing the queue. Every failing allocation of the commit leaves
** mesh, queue, snapshot and stats untouched; every success equals the single operations in
** queue order; and a twin cache that never fails, driven alike, stays byte-identical after
** every Update (so a failure leaves no trace, the last-built areas included: RT-013). */
OPT_TEST(update_all_or_nothing, "RT-061, RT-065, RT-062, MESH-001") {
  op_trimesh level;
  memset(&level, 0, sizeof level);
  op_level_generate("city", 5, 2, NULL, &level, NULL);
  static const op_partition parts[2] = {OP_PARTITION_LAYERS, OP_PARTITION_WATERSHED};
  static const uint32_t budget[3] = {3, 2, 100};
  int bad = 0, fails = 0, updates = 0;
  uint64_t cases[5] = {0, 0, 0, 0, 0};
  for (int p = 0; p < 2; p++) {
    op_tilecache *c = city_cache(parts[p], &level), *twin = city_cache(parts[p], &level);
    uint32_t id[3] = {0, 0, 0}, tid[3] = {0, 0, 0};
    for (int k = 0; c && twin && k < 3; k++) {
      if (!obstacle_step(c, k, id) || !obstacle_step(twin, k, tid)) bad++;
      while (op_tilecache_queue_length(c)) {
        uint32_t done = 0;
        op_error e;
        if (!checked_update(c, budget[k], &fails, cases)) bad++;
        if (op_tilecache_update(twin, budget[k], &done, &e) != OP_OK) bad++;
        cache_image a = cache_take(c), b = cache_take(twin);
        if (!cache_same(&a, &b)) bad++, fprintf(stderr, "  differs from the twin cache\n");
        cache_image_free(&a);
        cache_image_free(&b);
        updates++;
      }
    }
    if (!c || !twin) bad++;
    op_tilecache_free(c);
    op_tilecache_free(twin);
  }
  op_trimesh_free(&level);
  fprintf(stderr, "update_all_or_nothing: %d updates, %d failing allocations checked, kept %llu, "
          "replaced %llu, added %llu, removed %llu\n", updates, fails,
          (unsigned long long)cases[1], (unsigned long long)cases[2],
          (unsigned long long)cases[3], (unsigned long long)cases[4]);
  OPT_CHECK(bad == 0);
  OPT_CHECK(cases[2] > 0 && cases[3] > 0 && cases[4] > 0 && fails > 50);
}

OPT_MAIN_BEGIN
OPT_RUN(batch_equals_sequential);
OPT_RUN(batch_out_of_memory);
OPT_RUN(batch_edges);
OPT_RUN(update_all_or_nothing);
OPT_MAIN_END
