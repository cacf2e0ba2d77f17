/*
** fuzz_tilecache_snapshot.c -- untrusted tile cache snapshot bytes (navmesh-snapshot.md
** section 6, SNAP-016 .. SNAP-024; build3d-runtime.md RT-130 .. RT-134).
**
** Fixture: ONE small real cache (tilecache_fixture.h: terrain seed 5 size 12, Humanoid,
** Layers, TileSize 16), built lazily on the first input and kept in a static of this harness
** (the library keeps no static state; the other byte harnesses make their mesh per input,
** but a cache build costs 1.3 ms plain, several times that instrumented, against about 0.1 ms
** for one input here: 7000 - 11000 inputs/s with libFuzzer instead of a few hundred; and every
** input leaves the fixture as it found it, which the oracles below check byte for byte).
** Right after the build the fixture is restored from its own snapshot once, so that its
** hidden state (RT-133: a restore forgets the units' last-built areas) is the same before
** every input, whatever the inputs before it did: a replay of one input behaves as in the
** campaign. Its base snapshot B and base mesh bytes M are kept.
**
** Oracles, for each input X:
**  1. SNAP-023: TiledNavMesh.RestoreState on the cache's mesh refuses X with argument
**     `mesh` (empty value), whatever X holds, and changes nothing.
**  2. TileCache.RestoreState(X) fails: the error's kind is the returned status, format
**     (SNAP-019; never argument, X is not NULL), with a field and a value; the cache's
**     snapshot is still B and its mesh bytes still M (SNAP-021).
**  3. or it succeeds: SaveState gives exactly X (SNAP-022); the cache mesh's plain snapshot
**     is X's header with `nsections` 1 and X's `SLOT` section (SNAP-016, SNAP-018: two
**     routes to the same SLOT bytes); that plain snapshot loads into a fresh mesh of the
**     same parameters with the cache mesh's bytes, links included (SNAP-007, MESH-024);
**     UpdateAll succeeds and empties the queue (RT-060); the snapshot after it restores
**     and re-saves to itself (SNAP-022 again, after an update); restoring B then succeeds
**     and gives back B and M byte for byte (RT-133, SNAP-020).
** On an oracle failure the harness prints "ORACLE FAILED: ..." and aborts.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onepath.h"
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
#include "tilecache_fixture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fixture {
  op_trimesh level;
  op_tilecache *cache;
  op_bytes snap; /* B */
  op_bytes mesh; /* M */
} fixture;

static void fail(const char *what, const op_error *e) {
  fprintf(stderr, "ORACLE FAILED: %s", what);
  if (e) fprintf(stderr, " [%s %s=%s: %s]", op_status_name(e->kind), e->field, e->value, e->message);
  fputc('\n', stderr);
  abort();
}

static int same(const op_bytes *a, const uint8_t *b, size_t n) {
  return a->len == n && (n == 0 || memcmp(a->data, b, n) == 0);
}

static op_bytes cache_snap(const op_tilecache *c) {
  op_bytes b = {0};
  op_error e;
  if (op_tilecache_snapshot_save(c, &b, &e) != OP_OK) fail("TileCache.SaveState failed", &e);
  return b;
}

static op_bytes mesh_bytes(op_mesh *m) {
  op_bytes b = {0};
  op_error e;
  if (op_mesh_save(m, &b, &e) != OP_OK) fail("TiledNavMesh.Save failed", &e);
  return b;
}

/* The lazily built fixture (see the header comment); aborts when it cannot be built. */
static fixture *fixture_get(void) {
  static fixture fx;
  static int ready;
  if (ready) return &fx;
  op_error e;
  if (tcfix_build(&fx.level, &fx.cache, &e) != OP_OK) fail("fixture build failed", &e);
  op_bytes b = cache_snap(fx.cache);
  if (op_tilecache_snapshot_load(fx.cache, b.data, b.len, &e) != OP_OK)
    fail("fixture: restoring its own snapshot failed", &e);
  fx.snap = cache_snap(fx.cache);
  if (!same(&fx.snap, b.data, b.len)) fail("fixture: snapshot changed by its own restore", NULL);
  op_bytes_free(&b);
  fx.mesh = mesh_bytes(op_tilecache_mesh(fx.cache));
  ready = 1;
  return &fx;
}

static uint32_t rd_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd_u64(const uint8_t *p) { return (uint64_t)rd_u32(p) | (uint64_t)rd_u32(p + 4) << 32; }

static double rd_f64(const uint8_t *p) {
  uint64_t u = rd_u64(p);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* Oracle 1 (SNAP-023). */
static void check_mesh_refuses(fixture *fx, const uint8_t *data, size_t size) {
  op_error e;
  op_status st = op_mesh_snapshot_load(op_tilecache_mesh(fx->cache), data, size, &e);
  if (st != OP_E_ARGUMENT || e.kind != st || strcmp(e.field, "mesh") != 0 || e.value[0])
    fail("RestoreState on the cache's mesh is not argument `mesh` (SNAP-023)", st ? &e : NULL);
}

/* Oracle 2 (SNAP-019, SNAP-021). */
static void check_failed(fixture *fx, op_status st, const op_error *e) {
  if (e->kind != st) fail("error kind differs from the status", e);
  if (st != OP_E_FORMAT) fail("a failed restore is not a format error (SNAP-019)", e);
  if (!e->field[0] || !e->value[0] || !e->message[0]) fail("error without field or value", e);
  op_bytes s = cache_snap(fx->cache), m = mesh_bytes(op_tilecache_mesh(fx->cache));
  if (!same(&s, fx->snap.data, fx->snap.len)) fail("a failed restore changed the cache's snapshot (SNAP-021)", e);
  if (!same(&m, fx->mesh.data, fx->mesh.len)) fail("a failed restore changed the mesh bytes (SNAP-021)", e);
  op_bytes_free(&s);
  op_bytes_free(&m);
}

/* Oracle 3, part: the SLOT route. data is an accepted snapshot (so its framing is sound). */
static void check_slot_route(fixture *fx, const uint8_t *data, size_t size) {
  op_mesh *cm = op_tilecache_mesh(fx->cache);
  op_bytes plain = {0};
  op_error e;
  if (op_mesh_snapshot_save(cm, &plain, &e) != OP_OK) fail("SaveState of the cache's mesh failed", &e);
  if (size < 88) fail("accepted snapshot shorter than a header and a section header", NULL);
  uint64_t slot_len = rd_u64(data + 80);
  if (slot_len > size - 88) fail("accepted snapshot with a SLOT section beyond its end", NULL);
  size_t want = 88 + (size_t)slot_len;
  if (plain.len != want || memcmp(plain.data, data, 68) != 0 || rd_u32(plain.data + 68) != 1 ||
      memcmp(plain.data + 72, data + 72, want - 72) != 0)
    fail("the cache mesh's plain snapshot is not the input's SLOT section (SNAP-016, SNAP-018)", NULL);
  op_mesh_params p;
  memset(&p, 0, sizeof p);
  for (int i = 0; i < 3; i++) p.tiling.origin[i] = rd_f64(data + 8 + 8 * i);
  p.tiling.cell_size = rd_f64(data + 32);
  p.tiling.cell_height = rd_f64(data + 40);
  p.tiling.tile_cells = rd_u32(data + 48);
  p.tiling.max_verts_per_poly = rd_u32(data + 52);
  p.walkable_climb = rd_f64(data + 56);
  p.max_tiles = rd_u32(data + 64);
  op_mesh *m2 = NULL;
  if (op_mesh_create(&p, &m2, &e) != OP_OK) fail("a mesh of the snapshot's parameters", &e);
  if (op_mesh_snapshot_load(m2, plain.data, plain.len, &e) != OP_OK)
    fail("the cache mesh's plain snapshot does not load into a fresh mesh", &e);
  op_bytes b1 = mesh_bytes(cm), b2 = mesh_bytes(m2);
  if (!same(&b1, b2.data, b2.len)) fail("fresh mesh from the SLOT section differs from the cache's mesh", NULL);
  op_bytes_free(&b1);
  op_bytes_free(&b2);
  op_bytes_free(&plain);
  op_mesh_free(m2);
}

/* Oracle 3 (SNAP-022, RT-060, RT-133): X was accepted. */
static void check_loaded(fixture *fx, const uint8_t *data, size_t size) {
  op_error e;
  op_bytes s = cache_snap(fx->cache);
  if (!same(&s, data, size)) fail("SaveState after RestoreState is not the input (SNAP-022)", NULL);
  op_bytes_free(&s);
  check_slot_route(fx, data, size);
  uint32_t done = 0;
  if (op_tilecache_update_all(fx->cache, &done, &e) != OP_OK) fail("UpdateAll after a restore failed", &e);
  if (op_tilecache_queue_length(fx->cache) != 0) fail("UpdateAll left a queue", NULL);
  s = cache_snap(fx->cache);
  if (op_tilecache_snapshot_load(fx->cache, s.data, s.len, &e) != OP_OK)
    fail("the snapshot after UpdateAll does not restore", &e);
  op_bytes s2 = cache_snap(fx->cache);
  if (!same(&s2, s.data, s.len)) fail("the snapshot after UpdateAll is not canonical (SNAP-022)", NULL);
  op_bytes_free(&s);
  op_bytes_free(&s2);
  if (op_tilecache_snapshot_load(fx->cache, fx->snap.data, fx->snap.len, &e) != OP_OK)
    fail("restoring the fixture's snapshot failed", &e);
  s = cache_snap(fx->cache);
  op_bytes m = mesh_bytes(op_tilecache_mesh(fx->cache));
  if (!same(&s, fx->snap.data, fx->snap.len)) fail("the fixture's snapshot does not restore byte for byte", NULL);
  if (!same(&m, fx->mesh.data, fx->mesh.len)) fail("the fixture's mesh bytes do not come back", NULL);
  op_bytes_free(&s);
  op_bytes_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint8_t none[1] = {0};
  if (!data) data = none; /* a non-NULL pointer for the empty input */
  fixture *fx = fixture_get();
  check_mesh_refuses(fx, data, size);
  op_error e;
  op_status st = op_tilecache_snapshot_load(fx->cache, data, size, &e);
  if (getenv("OP_FUZZ_VERBOSE")) /* what each input did, for corpus work */
    fprintf(stderr, "%zu bytes: %s %s %s\n", size, st ? op_status_name(st) : "accepted",
            st ? e.field : "", st ? e.value : "");
  if (st != OP_OK) check_failed(fx, st, &e);
  else check_loaded(fx, data, size);
  return 0;
}
