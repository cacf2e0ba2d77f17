/*
** test_tilecache_snapshot.c -- unit tests of the tile cache's fingerprint and snapshots
** (spec/build3d-runtime.md RT-130 .. RT-134; spec/navmesh-snapshot.md SNAP-016 .. SNAP-022,
** SNAP-024), and the C argument rules of the cache (RT-002, RT-023, RT-024, RT-026).
**
** Caches are real ones (op_pipeline_build_soup_cached) on generated levels: `terrain` with
** Humanoid settings, Layers and no detail sampling (layer-first path, RT-080), TileSize 16
** so a small level has several tiles. Expected values come from independent routes: the
** key bytes laid out here by hand (RT-131), byte sizes from SNAP-016/SNAP-017's table, and
** equality of two routes (save -> load -> save, restore -> UpdateAll vs UpdateAll).
*/
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "artifact.h"
#include "fixtures3d.h"
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
#include "optest.h"
#include "navmesh/snapshot_internal.h"
#include "build3d/runtime/tilecache.h"

/* ------------------------------------------------------------ fixtures */

static op_settings settings(uint32_t tile_cells) {
  op_settings s = fx_humanoid(OP_PARTITION_LAYERS);
  s.tile_cells = tile_cells;
  return s;
}

typedef struct level {
  op_trimesh m;
  op_soup soup;
} level;

static int gen(level *L, const char *name, uint64_t seed, uint32_t size) {
  op_error e;
  memset(L, 0, sizeof *L);
  if (op_level_generate(name, seed, size, NULL, &L->m, &e)) {
    fprintf(stderr, "level: %s\n", e.message);
    return -1;
  }
  L->soup = op_trimesh_soup(&L->m);
  return 0;
}

static op_bytes msave(op_tilecache *c) { return fx_mesh_bytes(op_tilecache_mesh(c)); }

/* The centre of the level's x/z box and its least y. */
static void centre(const level *L, double c[3]) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (uint32_t i = 0; i < L->soup.nverts; i++)
    for (int k = 0; k < 3; k++) {
      double v = L->soup.verts[3 * i + k];
      if (v < lo[k]) lo[k] = v;
      if (v > hi[k]) hi[k] = v;
    }
  c[0] = (lo[0] + hi[0]) / 2, c[1] = lo[1], c[2] = (lo[2] + hi[2]) / 2;
}

/* Obstacles of all three shapes (and one added and removed) and two volumes around the
** level's centre, then one Update(1), so the queue usually stays non-empty. */
static void busy(op_tilecache *c, const level *L, int variant) {
  op_error e;
  double m[3];
  centre(L, m);
  double d = variant * 3.5;
  op_obstacle cyl = fx_cylinder(m[0] + 2 + d, m[1] - 1, m[2] - 3, 1.25, 40);
  op_obstacle box = fx_box(m[0] - 6, m[1] - 1, m[2] + 1 + d, m[0] - 4, m[1] + 40, m[2] + 2.5 + d);
  op_obstacle obb = fx_obox(m[0] - d, m[1] + 10, m[2] + 5, 2, 30, 0.75, 0.6);
  op_obstacle gone = cyl;
  gone.center[0] -= 7;
  uint32_t id, gone_id = 0;
  if (op_tilecache_add_obstacle(c, &gone, &gone_id, &e)) fprintf(stderr, "obst: %s\n", e.message);
  if (op_tilecache_add_obstacle(c, &cyl, &id, &e)) fprintf(stderr, "obst: %s\n", e.message);
  if (op_tilecache_add_obstacle(c, &box, &id, &e)) fprintf(stderr, "obst: %s\n", e.message);
  if (op_tilecache_remove_obstacle(c, gone_id, &e)) fprintf(stderr, "rm: %s\n", e.message);
  if (op_tilecache_add_obstacle(c, &obb, &id, &e)) fprintf(stderr, "obst: %s\n", e.message);
  op_convex_volume v;
  memset(&v, 0, sizeof v);
  v.npoints = 4;
  const double pts[4][2] = {{-3, -2}, {3, -2.5}, {3.5, 2}, {-2, 3}};
  for (int j = 0; j < 4; j++)
    v.points[j][0] = m[0] + pts[j][0] + d, v.points[j][1] = m[2] + pts[j][1];
  v.ymin = m[1] - 1, v.ymax = m[1] + 50, v.area = 7;
  if (op_tilecache_add_volume(c, &v, &id, &e)) fprintf(stderr, "vol: %s\n", e.message);
  v.npoints = 3, v.area = 0;
  v.points[0][0] += 4;
  if (op_tilecache_add_volume(c, &v, &id, &e)) fprintf(stderr, "vol: %s\n", e.message);
  uint32_t done = 0;
  if (op_tilecache_update(c, 1, &done, &e)) fprintf(stderr, "update: %s\n", e.message);
}

/* A level and one or two caches of it (tile_cells 16), the first nbusy of them after busy()
** (variant 0 for a, 1 for b). Returns gen's result; a cache that could not be built is NULL
** (and then none is made busy). fix_free frees what was made. */
typedef struct fix {
  level L;
  op_tilecache *a, *b;
} fix;

static int fix_make(fix *f, const char *name, uint64_t seed, uint32_t size, int ncaches,
                    int nbusy) {
  op_settings s = settings(16);
  f->a = f->b = NULL;
  if (gen(&f->L, name, seed, size)) return -1;
  f->a = fx_cache(&s, &f->L.soup);
  if (ncaches > 1) f->b = fx_cache(&s, &f->L.soup);
  if (!f->a || (ncaches > 1 && !f->b)) return 0;
  if (nbusy > 0) busy(f->a, &f->L, 0);
  if (nbusy > 1) busy(f->b, &f->L, 1);
  return 0;
}

static void fix_free(fix *f) {
  op_tilecache_free(f->a);
  op_tilecache_free(f->b);
  op_trimesh_free(&f->L.m);
}

/* ------------------------------------------------------------ RT-131 */

static void put_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void put_d(uint8_t *p, double v) {
  uint64_t u;
  memcpy(&u, &v, 8);
  put_le(p, u, 8);
}

/* RT-131: the fingerprint is op_hash64 of the key laid out by the table, written here byte
** by byte from the settings, the grid and the cached tiles' heightfield bytes (SPAN-170). */
OPT_TEST(fingerprint_key, "RT-131") {
  level L;
  op_settings s = settings(16);
  OPT_CHECK(gen(&L, "terrain", 5, 12) == 0);
  op_tilecache *c = fx_cache(&s, &L.soup);
  OPT_CHECK(c != NULL);
  if (!c) return;
  size_t n = 144 + 16 * (size_t)c->ntiles;
  uint8_t *k = calloc(n, 1);
  memcpy(k, "OPTCKEY1", 8);
  const double d1[6] = {s.cell_size, s.cell_height, s.agent_radius, s.agent_height,
                        s.agent_climb, s.max_slope};
  for (int i = 0; i < 6; i++) put_d(k + 8 + 8 * i, d1[i]);
  put_le(k + 56, s.tile_cells, 4);
  put_le(k + 60, (uint32_t)s.partition, 4);
  put_le(k + 64, s.min_region_area, 4);
  put_le(k + 68, s.merge_region_area, 4);
  put_d(k + 72, s.max_simplification_error);
  put_d(k + 80, s.max_edge_len);
  put_le(k + 88, s.max_verts_per_poly, 4);
  put_d(k + 92, s.detail_sample_distance + 0.0);
  put_d(k + 100, s.detail_sample_max_error);
  /* the soup's frame (SPAN-102): least x, y, z over every vertex */
  double lo[3] = {1e300, 1e300, 1e300}, hi_y = -1e300;
  for (uint32_t i = 0; i < L.soup.nverts; i++) {
    for (int j = 0; j < 3; j++)
      if (L.soup.verts[3 * i + j] < lo[j]) lo[j] = L.soup.verts[3 * i + j];
    if (L.soup.verts[3 * i + 1] > hi_y) hi_y = L.soup.verts[3 * i + 1];
  }
  put_d(k + 108, lo[0]);
  put_d(k + 116, lo[1]);
  put_d(k + 124, lo[2]);
  op_pipeline_result r;
  op_error e;
  OPT_CHECK(op_pipeline_build_soup(&s, &L.soup, NULL, &r, &e) == OP_OK);
  put_le(k + 132, (uint32_t)r.ntx, 4);
  put_le(k + 136, (uint32_t)r.ntz, 4);
  put_le(k + 140, r.nbuilt, 4);
  OPT_CHECK(c->ntiles == r.nbuilt && r.ntx * r.ntz >= 4);
  /* per built tile in cache order: tx, tz, op_hash64 of its heightfield's SPAN-170 bytes
  ** (stages 1 to 3 from the public per-tile build, plus the settings' obstacles: none) */
  uint32_t at = 0;
  for (int32_t tz = 0; tz < r.ntz; tz++)
    for (int32_t tx = 0; tx < r.ntx; tx++) {
      op_chf *h = NULL;
      op_bytes hb = {NULL, 0};
      if (op_spans_build_tile(&s, &L.soup, lo, lo[1], hi_y, tx, tz, &h, &e) != OP_OK) {
        fprintf(stderr, "tile %d,%d: %s %s\n", tx, tz, e.field, e.message);
        continue;
      }
      if (!h) continue; /* not built (SPAN-182) */
      OPT_CHECK(op_chf_save(h, &hb, &e) == OP_OK);
      op_chf_free(h);
      if (at < c->ntiles) {
        put_le(k + 144 + 16 * at, (uint32_t)tx, 4);
        put_le(k + 148 + 16 * at, (uint32_t)tz, 4);
        put_le(k + 152 + 16 * at, op_hash64(hb.data, hb.len), 8);
      }
      at++;
      op_bytes_free(&hb);
    }
  OPT_CHECK(at == c->ntiles);
  OPT_CHECK(op_tilecache_fingerprint(c) == op_hash64(k, n));
  OPT_CHECK(optc_fingerprint_compute(c) == op_hash64(k, n));
  /* a -0.0 setting is written as +0.0 */
  c->ctx.s.detail_sample_distance = -0.0;
  OPT_CHECK(optc_fingerprint_compute(c) == op_hash64(k, n));
  c->ctx.s.detail_sample_distance = 0.0;
  free(k);
  op_pipeline_result_free(&r);
  op_tilecache_free(c);
  op_trimesh_free(&L.m);
}

/* ------------------------------------------------------------ SNAP-016 .. SNAP-018 */

/* SNAP-016, SNAP-017: the layout of a busy cache's snapshot, from the table. */
OPT_TEST(layout, "SNAP-016") {
  fix f;
  OPT_CHECK(fix_make(&f, "terrain", 5, 12, 1, 1) == 0);
  op_tilecache *c = f.a;
  if (!c) return;
  op_bytes ms = {NULL, 0};
  op_error e;
  OPT_CHECK(op_mesh_snapshot_save(op_tilecache_mesh(c), &ms, &e) == OP_OK);
  op_bytes b = fx_cache_snapshot(c);
  /* the first 68 + 4 bytes as the mesh snapshot's, nsections 2; SLOT section the same */
  size_t slot_end = ms.len;
  OPT_CHECK(b.len > slot_end + 16 && !memcmp(b.data, ms.data, 68));
  OPT_CHECK(opc_rd_u32(b.data + 68) == 2 && opc_rd_u32(ms.data + 68) == 1);
  OPT_CHECK(!memcmp(b.data + 72, ms.data + 72, ms.len - 72));
  const uint8_t *h = b.data + slot_end;
  OPT_CHECK(!memcmp(h, "TCAC", 4) && opc_rd_u32(h + 4) == 1);
  uint64_t plen = opc_rd_u64(h + 8);
  OPT_CHECK(slot_end + 16 + plen == b.len);
  const uint8_t *p = h + 16;
  /* live: obstacles 2 (cylinder), 3 (box), 4 (oriented box); volumes 1, 2; queue > 0 */
  OPT_CHECK(optc_live_obstacles(c) == 3 && optc_live_volumes(c) == 2 && c->nqueue > 0);
  size_t want = 8 + 4 + 4 + 4 + 48 + 56 + 64 + 4 + (8 + 4 * 16 + 20) + (8 + 3 * 16 + 20) + 4 +
                8 * (size_t)c->nqueue;
  OPT_CHECK(plen == want);
  OPT_CHECK(opc_rd_u64(p) == op_tilecache_fingerprint(c));
  OPT_CHECK(opc_rd_u32(p + 8) == 5 && opc_rd_u32(p + 12) == 3); /* next ids */
  OPT_CHECK(opc_rd_u32(p + 16) == 3);
  OPT_CHECK(opc_rd_u32(p + 20) == 2 && opc_rd_u32(p + 24) == 0);          /* id 2 cylinder */
  OPT_CHECK(opc_rd_f64(p + 28 + 24) == 1.25);                             /* radius */
  OPT_CHECK(opc_rd_u32(p + 68) == 3 && opc_rd_u32(p + 72) == 1);          /* id 3 box */
  OPT_CHECK(opc_rd_u32(p + 124) == 4 && opc_rd_u32(p + 128) == 2);        /* id 4 oriented */
  OPT_CHECK(opc_rd_f64(p + 132 + 48) == 0.6);                             /* yaw */
  const uint8_t *q = p + 188;
  OPT_CHECK(opc_rd_u32(q) == 2 && opc_rd_u32(q + 4) == 1 && opc_rd_u32(q + 8) == 4);
  OPT_CHECK(opc_rd_u32(q + 12 + 64 + 16) == 7); /* area of volume 1 */
  q += 4 + 92;
  OPT_CHECK(opc_rd_u32(q) == 2 && opc_rd_u32(q + 4) == 3);
  q += 8 + 48 + 16;
  OPT_CHECK(opc_rd_u32(q) == 0); /* area of volume 2 */
  q += 4;
  OPT_CHECK(opc_rd_u32(q) == c->nqueue);
  for (uint32_t i = 0; i < c->nqueue; i++) {
    int32_t tx = 0, tz = 0;
    op_tilecache_queued(c, i, &tx, &tz);
    OPT_CHECK((int32_t)opc_rd_u32(q + 4 + 8 * i) == tx && (int32_t)opc_rd_u32(q + 8 + 8 * i) == tz);
  }
  op_bytes_free(&b);
  op_bytes_free(&ms);
  fix_free(&f);
}

/* SNAP-022, SNAP-020: save -> load (into a fresh cache of the same level) -> save gives the
** same bytes, for obstacles of all three shapes, volumes and a non-empty queue; the loaded
** cache's mesh serializes as the original's. On the layer-first path (Layers) and on the
** general path (Watershed). */
OPT_TEST(canonical_round_trip, "SNAP-022") {
  level L;
  OPT_CHECK(gen(&L, "terrain", 5, 12) == 0);
  for (int path = 0; path < 2; path++) {
    op_settings s = settings(16);
    if (path) s.partition = OP_PARTITION_WATERSHED;
    op_tilecache *a = fx_cache(&s, &L.soup), *b = fx_cache(&s, &L.soup);
    if (!a || !b) return;
    OPT_CHECK(a->ctx.layer_first == !path);
    busy(a, &L, 0);
    busy(b, &L, 1); /* another state, replaced entirely */
    op_bytes sa = fx_cache_snapshot(a), ma = msave(a);
    op_error e;
    OPT_CHECK(optc_live_obstacles(a) == 3 && optc_live_volumes(a) == 2 &&
              op_tilecache_queue_length(a) > 0);
    OPT_CHECK(op_tilecache_snapshot_load(b, sa.data, sa.len, &e) == OP_OK);
    op_bytes sb = fx_cache_snapshot(b), mb = msave(b);
    OPT_CHECK(fx_same(&sa, &sb));
    OPT_CHECK(fx_same(&ma, &mb));
    OPT_CHECK(op_tilecache_queue_length(b) == op_tilecache_queue_length(a));
    OPT_CHECK(op_tilecache_mesh(b)->cache_owned == 1); /* RT-018 kept through the swap */
    /* and onto itself */
    OPT_CHECK(op_tilecache_snapshot_load(a, sa.data, sa.len, &e) == OP_OK);
    op_bytes sa2 = fx_cache_snapshot(a);
    OPT_CHECK(fx_same(&sa, &sa2));
    op_bytes_free(&sa), op_bytes_free(&ma), op_bytes_free(&sb), op_bytes_free(&mb);
    op_bytes_free(&sa2);
    op_tilecache_free(a);
    op_tilecache_free(b);
  }
  op_trimesh_free(&L.m);
}

/* RT-134: restore then UpdateAll gives the mesh (and snapshot) of the original cache after
** UpdateAll; later calls agree (ids handed out, queue). Restored onto b (another history,
** emptied queue) and onto c (a's history, emptied queue: its last-built areas equal the
** areas in force of a's queued tiles, whose tiles a's mesh does not hold yet, so a restore
** that kept them would skip those tiles, RT-133). */
OPT_TEST(restore_then_update, "RT-134") {
  level L;
  op_settings s = settings(16);
  OPT_CHECK(gen(&L, "terrain", 5, 12) == 0);
  op_tilecache *a = fx_cache(&s, &L.soup), *b = fx_cache(&s, &L.soup), *c = fx_cache(&s, &L.soup);
  if (!a || !b || !c) return;
  busy(a, &L, 0);
  busy(b, &L, 1);
  busy(c, &L, 0);
  op_error e;
  OPT_CHECK(op_tilecache_queue_length(a) > 0);
  OPT_CHECK(op_tilecache_update_all(b, NULL, &e) == OP_OK); /* b's units all known */
  OPT_CHECK(op_tilecache_update_all(c, NULL, &e) == OP_OK);
  op_bytes sa = fx_cache_snapshot(a);
  OPT_CHECK(op_tilecache_snapshot_load(b, sa.data, sa.len, &e) == OP_OK);
  OPT_CHECK(op_tilecache_snapshot_load(c, sa.data, sa.len, &e) == OP_OK);
  OPT_CHECK(op_tilecache_update_all(a, NULL, &e) == OP_OK);
  OPT_CHECK(op_tilecache_update_all(b, NULL, &e) == OP_OK);
  OPT_CHECK(op_tilecache_update_all(c, NULL, &e) == OP_OK);
  op_bytes ma = msave(a), mb = msave(b), ta = fx_cache_snapshot(a), tb = fx_cache_snapshot(b);
  op_bytes mc = msave(c), tc = fx_cache_snapshot(c);
  OPT_CHECK(fx_same(&ma, &mb) && fx_same(&ta, &tb));
  OPT_CHECK(fx_same(&ma, &mc) && fx_same(&ta, &tc));
  op_bytes_free(&mc), op_bytes_free(&tc);
  op_tilecache_free(c);
  /* the same ids next, the same queue after a removal */
  double m[3];
  centre(&L, m);
  op_obstacle o = fx_cylinder(m[0], m[1], m[2], 2, 50);
  uint32_t ia = 0, ib = 0;
  OPT_CHECK(op_tilecache_add_obstacle(a, &o, &ia, &e) == OP_OK);
  OPT_CHECK(op_tilecache_add_obstacle(b, &o, &ib, &e) == OP_OK && ia == ib && ia == 5);
  OPT_CHECK(op_tilecache_remove_volume(a, 1, &e) == OP_OK);
  OPT_CHECK(op_tilecache_remove_volume(b, 1, &e) == OP_OK);
  OPT_CHECK(op_tilecache_update_all(a, NULL, &e) == OP_OK);
  OPT_CHECK(op_tilecache_update_all(b, NULL, &e) == OP_OK);
  op_bytes ma2 = msave(a), mb2 = msave(b), ta2 = fx_cache_snapshot(a), tb2 = fx_cache_snapshot(b);
  OPT_CHECK(fx_same(&ma2, &mb2) && fx_same(&ta2, &tb2) && !fx_same(&ma, &ma2));
  op_bytes_free(&sa), op_bytes_free(&ma), op_bytes_free(&mb), op_bytes_free(&ta);
  op_bytes_free(&tb), op_bytes_free(&ma2), op_bytes_free(&mb2), op_bytes_free(&ta2);
  op_bytes_free(&tb2);
  op_tilecache_free(a);
  op_tilecache_free(b);
  op_trimesh_free(&L.m);
}

/* 1 when c's mesh bytes (mesh = 1) or its snapshot bytes (mesh = 0) still equal was. */
static int still(op_tilecache *c, const op_bytes *was, int mesh) {
  op_bytes cur = mesh ? msave(c) : fx_cache_snapshot(c);
  int ok = fx_same(was, &cur);
  op_bytes_free(&cur);
  return ok;
}

/* A restore that must fail: expected kind, field, value; the mesh's bytes and the cache's
** snapshot bytes are as before (SNAP-021). */
static int fails_unchanged(op_tilecache *c, const uint8_t *p, size_t n, op_status kind,
                           const char *field, const char *value) {
  op_bytes m0 = msave(c), t0 = fx_cache_snapshot(c);
  op_error e;
  op_status st = op_tilecache_snapshot_load(c, p, n, &e);
  int ok = st == kind && (!field || !strcmp(e.field, field)) &&
           (!value || !strcmp(e.value, value)) && still(c, &m0, 1) && still(c, &t0, 0);
  if (!ok)
    fprintf(stderr, "  got %s %s=%s (%s), want %s %s=%s\n", op_status_name(st), e.field,
            e.value, e.message, op_status_name(kind), field ? field : "*", value ? value : "*");
  op_bytes_free(&m0), op_bytes_free(&t0);
  return ok;
}

/* RT-133, SNAP-019 1, SNAP-021: a snapshot of a cache of another level (same mesh
** parameters, one vertex moved) or of other settings fails with format `fingerprint`
** (the snapshot's fingerprint, 16 hex digits) and changes nothing. */
OPT_TEST(fingerprint_mismatch, "SNAP-019") {
  level L, L2;
  op_settings s = settings(16);
  OPT_CHECK(gen(&L, "terrain", 5, 12) == 0 && gen(&L2, "terrain", 5, 12) == 0);
  /* another level: lift one inner vertex (the frame, so the mesh parameters, stay) */
  double lo = 1e300, hi = -1e300;
  for (uint32_t i = 0; i < L2.soup.nverts; i++) {
    double y = L2.m.verts[3 * i + 1];
    lo = y < lo ? y : lo, hi = y > hi ? y : hi;
  }
  uint32_t mid = L2.soup.nverts / 2;
  L2.m.verts[3 * mid + 1] = (L2.m.verts[3 * mid + 1] + lo) / 2 + (hi - lo) / 8;
  op_settings s2 = s;
  s2.min_region_area = s.min_region_area + 5; /* other settings, same mesh parameters */
  op_tilecache *a = fx_cache(&s, &L.soup), *b = fx_cache(&s, &L2.soup), *d = fx_cache(&s2, &L.soup);
  if (!a || !b || !d) return;
  OPT_CHECK(op_tilecache_fingerprint(a) != op_tilecache_fingerprint(b));
  OPT_CHECK(op_tilecache_fingerprint(a) != op_tilecache_fingerprint(d));
  busy(a, &L, 0);
  busy(b, &L2, 1);
  busy(d, &L, 1);
  op_bytes sa = fx_cache_snapshot(a);
  char hex[24];
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)op_tilecache_fingerprint(a));
  OPT_CHECK(strlen(hex) == 16);
  OPT_CHECK(fails_unchanged(b, sa.data, sa.len, OP_E_FORMAT, "fingerprint", hex));
  OPT_CHECK(fails_unchanged(d, sa.data, sa.len, OP_E_FORMAT, "fingerprint", hex));
  op_bytes_free(&sa);
  op_tilecache_free(a);
  op_tilecache_free(b);
  op_tilecache_free(d);
  op_trimesh_free(&L.m);
  op_trimesh_free(&L2.m);
}

/* SNAP-024, SNAP-020: a mesh-only load of a tile cache snapshot is rejected at
** `sections[1].tag` (TCAC as a u32) and changes nothing; a plain mesh snapshot is not a tile
** cache snapshot (`nsections` 1). */
OPT_TEST(mesh_only_load, "SNAP-020") {
  level L;
  op_settings s = settings(16);
  OPT_CHECK(gen(&L, "terrain", 5, 12) == 0);
  op_tilecache *a = fx_cache(&s, &L.soup);
  op_pipeline_result r;
  op_error e;
  OPT_CHECK(op_pipeline_build_soup(&s, &L.soup, NULL, &r, &e) == OP_OK);
  if (!a || !r.mesh) return;
  busy(a, &L, 0);
  op_bytes sa = fx_cache_snapshot(a), ms = {NULL, 0}, before = {NULL, 0}, after = {NULL, 0};
  OPT_CHECK(op_mesh_save(r.mesh, &before, &e) == OP_OK);
  char tag[16];
  snprintf(tag, sizeof tag, "%u", (unsigned)('T' | 'C' << 8 | 'A' << 16 | (uint32_t)'C' << 24));
  OPT_CHECK(op_mesh_snapshot_load(r.mesh, sa.data, sa.len, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "sections[1].tag") && !strcmp(e.value, tag) &&
            !strcmp(tag, "1128350548"));
  OPT_CHECK(op_mesh_save(r.mesh, &after, &e) == OP_OK && fx_same(&before, &after));
  /* a plain mesh snapshot (of the cache's own mesh) given to the cache */
  OPT_CHECK(op_mesh_snapshot_save(op_tilecache_mesh(a), &ms, &e) == OP_OK);
  OPT_CHECK(fails_unchanged(a, ms.data, ms.len, OP_E_FORMAT, "nsections", "1"));
  op_bytes_free(&sa), op_bytes_free(&ms), op_bytes_free(&before), op_bytes_free(&after);
  op_pipeline_result_free(&r);
  op_tilecache_free(a);
  op_trimesh_free(&L.m);
}

/* SNAP-023, RT-018: the cache's mesh refuses op_mesh_snapshot_load (argument `mesh`, empty
** value), even of its own valid snapshot, and changes nothing; saving works; the flag
** survives the cache's own restores. */
OPT_TEST(cache_mesh_refuses_restore, "SNAP-023") {
  fix f;
  OPT_CHECK(fix_make(&f, "terrain", 5, 12, 1, 1) == 0);
  op_tilecache *a = f.a;
  if (!a) return;
  op_error e;
  op_bytes ms = {NULL, 0}, sa = fx_cache_snapshot(a);
  OPT_CHECK(op_mesh_snapshot_save(op_tilecache_mesh(a), &ms, &e) == OP_OK && ms.len > 96);
  for (int round = 0; round < 2; round++) {
    op_bytes m0 = msave(a), m1;
    OPT_CHECK(op_mesh_snapshot_load(op_tilecache_mesh(a), ms.data, ms.len, &e) == OP_E_ARGUMENT &&
              !strcmp(e.field, "mesh") && !strcmp(e.value, ""));
    OPT_CHECK(op_mesh_snapshot_load(op_tilecache_mesh(a), NULL, 0, &e) == OP_E_ARGUMENT &&
              !strcmp(e.field, "mesh"));
    m1 = msave(a);
    OPT_CHECK(fx_same(&m0, &m1));
    op_bytes_free(&m0), op_bytes_free(&m1);
    OPT_CHECK(op_tilecache_snapshot_load(a, sa.data, sa.len, &e) == OP_OK); /* then again */
  }
  op_bytes_free(&ms), op_bytes_free(&sa);
  fix_free(&f);
}

/* ------------------------------------------------------------ named errors (SNAP-019) */

/* The offset of the TCAC payload in a tile cache snapshot. */
static size_t tcac_at(const op_bytes *b) {
  size_t off = 72;
  off += 16 + (size_t)opc_rd_u64(b->data + off + 8);
  return off + 16;
}

static void set32(uint8_t *p, uint32_t v) { put_le(p, v, 4); }

/* SNAP-019 2 to 6: each rule names its field and value, and changes nothing. */
OPT_TEST(named_errors, "SNAP-019") {
  fix f;
  OPT_CHECK(fix_make(&f, "terrain", 5, 12, 2, 1) == 0);
  op_tilecache *a = f.a, *b = f.b;
  if (!a || !b) return;
  op_bytes sa = fx_cache_snapshot(a);
  uint8_t *c = malloc(sa.len);
  size_t t = tcac_at(&sa), ob = t + 20, vo = ob + 48 + 56 + 64, qu = vo + 4 + 92 + 76;
  OPT_CHECK(opc_rd_u32(sa.data + qu) == a->nqueue && a->nqueue >= 1);
#define CASE(stmt, field, value)                                                  \
  do {                                                                            \
    memcpy(c, sa.data, sa.len);                                                   \
    stmt;                                                                         \
    OPT_CHECK(fails_unchanged(b, c, sa.len, OP_E_FORMAT, field, value));         \
  } while (0)
  CASE(set32(c + t + 8, 0), "next_obstacle_id", "0");
  CASE(set32(c + t + 12, 0), "next_volume_id", "0");
  CASE(set32(c + t + 8, 4), "obstacles[2].id", "4"); /* not below next_obstacle_id */
  CASE(set32(c + ob + 48, 2), "obstacles[1].id", "2"); /* not ascending */
  CASE(set32(c + ob + 4, 3), "obstacles[0].shape", "3");
  CASE(put_le(c + ob + 8 + 8, 0x8000000000000000ull, 8), "obstacles[0].center.y", "-0");
  CASE(put_d(c + ob + 8 + 24, -1.0), "obstacles[0].radius", "-1");
  CASE(put_d(c + ob + 48 + 8 + 24, -2097152.5), "obstacles[1].bmax.x", "-2097152.5");
  CASE(put_d(c + ob + 104 + 8 + 48, 1.0 / 0.0), "obstacles[2].yaw", "Infinity");
  CASE(set32(c + vo, 65537), "nvolumes", "65537");
  CASE(set32(c + vo + 4, 0), "volumes[0].id", "0");
  CASE(set32(c + vo + 8, 13), "volumes[0].npoints", "13");
  CASE(put_le(c + vo + 12 + 8, 0x8000000000000000ull, 8), "volumes[0].points[0].z", "-0");
  CASE(set32(c + vo + 4 + 88, 64), "volumes[0].area", "64");
  CASE(set32(c + vo + 4 + 88, 300), "volumes[0].area", "300");
  CASE(put_d(c + vo + 4 + 8 + 64, 2097153), "volumes[0].ymin", "2097153");
  {
    char v[32];
    snprintf(v, sizeof v, "%u", a->ntiles + 1); /* the count as read (SNAP-019, review E7) */
    CASE(set32(c + qu, a->ntiles + 1), "nqueue", v);
  }
  {
    char v[32];
    snprintf(v, sizeof v, "%d,%d", 1000, (int32_t)opc_rd_u32(sa.data + qu + 8));
    CASE(set32(c + qu + 4, 1000), "queue[0].x", v);
  }
  /* a queue entry twice (when there are two) */
  if (a->nqueue >= 2) {
    char v[32];
    snprintf(v, sizeof v, "%d,%d", (int32_t)opc_rd_u32(sa.data + qu + 4),
             (int32_t)opc_rd_u32(sa.data + qu + 8));
    CASE(memcpy(c + qu + 12, c + qu + 4, 8), "queue[1].x", v);
  }
  CASE(put_le(c + t - 8, opc_rd_u64(sa.data + t - 8) + 1, 8), "sections[1].length", NULL);
  CASE(set32(c + 68, 3), "nsections", "3");
  CASE(memcpy(c + t - 16, "SLOT", 4), "sections[1].tag", NULL);
  CASE(set32(c + t - 12, 2), "sections[1].version", "2");
  free(c);
  /* trailing bytes: SNAP-004 after the TCAC payload */
  uint8_t *longer = calloc(sa.len + 1, 1);
  memcpy(longer, sa.data, sa.len);
  char lv[32];
  snprintf(lv, sizeof lv, "%zu", sa.len + 1);
  OPT_CHECK(fails_unchanged(b, longer, sa.len + 1, OP_E_FORMAT, "length", lv));
  free(longer);
#undef CASE
  op_bytes_free(&sa);
  fix_free(&f);
}

/* SNAP-019 6: a tile record that lies on no unit of the cache (a layer at or above the
** tile's layer count) fails after the TCAC payload, naming the record. The cache is
** changed by hand to have fewer layers on a tile its mesh holds a layer of. */
OPT_TEST(tile_on_no_unit, "SNAP-019") {
  fix f;
  OPT_CHECK(fix_make(&f, "terrain", 5, 12, 1, 0) == 0);
  op_tilecache *a = f.a;
  if (!a) return;
  op_bytes sa = fx_cache_snapshot(a);
  /* the first tile record: slot, generation, x, z, layer */
  const uint8_t *rec = sa.data + 72 + 16 + 4 + 8 * (size_t)opc_rd_u32(sa.data + 88) + 4;
  int32_t x = (int32_t)opc_rd_u32(rec + 8), z = (int32_t)opc_rd_u32(rec + 12);
  int32_t l = (int32_t)opc_rd_u32(rec + 16);
  int64_t k = optc_find_tile(a, x, z);
  OPT_CHECK(k >= 0);
  if (k < 0) return;
  uint32_t keep = a->tiles[k].k.nunits;
  a->tiles[k].k.nunits = (uint32_t)l; /* layer l is now beyond the count */
  char v[48];
  snprintf(v, sizeof v, "%d,%d,%d", x, z, l);
  OPT_CHECK(fails_unchanged(a, sa.data, sa.len, OP_E_FORMAT, "tiles[0].x", v));
  a->tiles[k].k.nunits = keep;
  op_bytes_free(&sa);
  fix_free(&f);
}

/* ------------------------------------------------------------ the C arguments, id limits */

/* A flat solid-column level of n x n columns, one walkable span each, at origin o. */
typedef struct flat {
  uint32_t start[33 * 33];
  op_solid_span spans[32 * 32];
  op_solid_columns cols;
} flat;

static void flat_make(flat *f, uint32_t n, double ox, double oy, double oz) {
  for (uint32_t i = 0; i < n * n; i++) {
    f->start[i] = i;
    f->spans[i].ymin = 0, f->spans[i].ymax = 2, f->spans[i].area = OP_AREA_WALKABLE;
  }
  f->start[n * n] = n * n;
  f->cols.origin[0] = ox, f->cols.origin[1] = oy, f->cols.origin[2] = oz;
  f->cols.width = f->cols.depth = n;
  f->cols.col_start = f->start;
  f->cols.nspans = n * n;
  f->cols.spans = f->spans;
}

static op_tilecache *flat_cache(const op_settings *s, const flat *f) {
  op_tilecache *c = NULL;
  op_error e;
  if (op_pipeline_build_heightfield_cached(s, &f->cols, NULL, NULL, &c, &e))
    fprintf(stderr, "flat cache: %s %s %s\n", op_status_name(e.kind), e.field, e.message);
  return c;
}

/* RT-131 (review B1): every f64 of the key is written with -0.0 as +0.0, the origin and y0
** included: a heightfield cache at origin (-0, -0, -0) has the fingerprint and the snapshot
** of one at (+0, +0, +0); moving the origin by one cell changes the fingerprint. */
OPT_TEST(fingerprint_negative_zero_origin, "RT-131") {
  op_settings s = settings(16);
  flat *fp = calloc(1, sizeof *fp), *fn = calloc(1, sizeof *fn), *fm = calloc(1, sizeof *fm);
  OPT_CHECK(fp && fn && fm);
  if (!fp || !fn || !fm) return;
  flat_make(fp, 32, 0.0, 0.0, 0.0);
  flat_make(fn, 32, -0.0, -0.0, -0.0);
  flat_make(fm, 32, s.cell_size, 0.0, 0.0);
  op_tilecache *a = flat_cache(&s, fp), *b = flat_cache(&s, fn), *d = flat_cache(&s, fm);
  OPT_CHECK(a && b && d);
  if (a && b && d) {
    OPT_CHECK(op_tilecache_fingerprint(a) == op_tilecache_fingerprint(b));
    OPT_CHECK(op_tilecache_fingerprint(a) != op_tilecache_fingerprint(d));
    op_bytes sa = fx_cache_snapshot(a), sb = fx_cache_snapshot(b);
    OPT_CHECK(sa.len > 0 && fx_same(&sa, &sb)); /* MESH-002 writes +0.0 too */
    op_error e;
    OPT_CHECK(op_tilecache_snapshot_load(b, sa.data, sa.len, &e) == OP_OK);
    op_bytes_free(&sa), op_bytes_free(&sb);
  }
  op_tilecache_free(a), op_tilecache_free(b), op_tilecache_free(d);
  free(fp), free(fn), free(fm);
}

static int is_err(op_status st, const op_error *e, op_status kind, const char *field,
                  const char *value) {
  int ok = st == kind && !strcmp(e->field, field) && (!value || !strcmp(e->value, value));
  if (!ok)
    fprintf(stderr, "  got %s %s=%s, want %s %s=%s\n", op_status_name(st), e->field, e->value,
            op_status_name(kind), field, value ? value : "*");
  return ok;
}

/* RT-002 (review E11, W2): the C NULL arguments, their order and value texts; the functions
** without op_error on a NULL cache; op_tilecache_queued out of range writes nothing. */
OPT_TEST(null_arguments, "RT-002") {
  fix f;
  OPT_CHECK(fix_make(&f, "terrain", 5, 12, 1, 0) == 0);
  op_tilecache *a = f.a;
  if (!a) return;
  op_error e;
  double m[3];
  centre(&f.L, m);
  op_obstacle o = fx_cylinder(m[0], m[1] - 1, m[2], 1, 40);
  op_convex_volume v;
  memset(&v, 0, sizeof v);
  v.npoints = 3;
  v.points[0][0] = m[0], v.points[0][1] = m[2];
  v.points[1][0] = m[0] + 1, v.points[1][1] = m[2];
  v.points[2][0] = m[0], v.points[2][1] = m[2] + 1;
  v.ymin = m[1] - 1, v.ymax = m[1] + 40, v.area = 3;
  uint32_t id = 0, k = 0;
  op_bytes b = {NULL, 0};
  /* cache first, before the other pointers */
  OPT_CHECK(is_err(op_tilecache_add_obstacle(NULL, NULL, &id, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(is_err(op_tilecache_add_volume(NULL, NULL, &id, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(is_err(op_tilecache_remove_obstacle(NULL, 1, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(is_err(op_tilecache_remove_volume(NULL, 1, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(is_err(op_tilecache_update(NULL, 1, &k, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(is_err(op_tilecache_update_all(NULL, &k, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(is_err(op_tilecache_snapshot_save(NULL, NULL, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(is_err(op_tilecache_snapshot_load(NULL, NULL, 5, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(is_err(op_pipeline_build_soup_cached(NULL, NULL, NULL, NULL, NULL, &e), &e,
                   OP_E_ARGUMENT, "cache", "NULL"));
  /* then the other pointers */
  OPT_CHECK(is_err(op_tilecache_add_obstacle(a, NULL, &id, &e), &e, OP_E_ARGUMENT, "obstacle", "null"));
  OPT_CHECK(is_err(op_tilecache_add_volume(a, NULL, &id, &e), &e, OP_E_ARGUMENT, "volume", "null"));
  OPT_CHECK(is_err(op_tilecache_snapshot_save(a, NULL, &e), &e, OP_E_ARGUMENT, "out", "NULL"));
  OPT_CHECK(is_err(op_tilecache_snapshot_load(a, NULL, 5, &e), &e, OP_E_ARGUMENT, "data", "NULL"));
  /* NULL data with len 0: the empty byte string (SNAP-003: magic does not fit at offset 0) */
  OPT_CHECK(is_err(op_tilecache_snapshot_load(a, NULL, 0, &e), &e, OP_E_FORMAT, "magic", "0"));
  /* NULL id and processed are allowed */
  OPT_CHECK(op_tilecache_add_obstacle(a, &o, NULL, &e) == OP_OK);
  OPT_CHECK(op_tilecache_add_volume(a, &v, NULL, &e) == OP_OK);
  uint32_t n = op_tilecache_queue_length(a);
  OPT_CHECK(n >= 1);
  int32_t tx = 77, tz = 88;
  OPT_CHECK(op_tilecache_queued(a, n, &tx, &tz) == 0 && tx == 77 && tz == 88);
  OPT_CHECK(op_tilecache_queued(a, 0, NULL, &tz) == 1 && tz != 88);
  OPT_CHECK(op_tilecache_update(a, 1, NULL, &e) == OP_OK && op_tilecache_queue_length(a) == n - 1);
  OPT_CHECK(op_tilecache_update_all(a, NULL, &e) == OP_OK && op_tilecache_queue_length(a) == 0);
  /* the functions without op_error on a NULL cache */
  OPT_CHECK(op_tilecache_mesh(NULL) == NULL);
  OPT_CHECK(op_tilecache_queue_length(NULL) == 0 && op_tilecache_repair(NULL) == 0);
  OPT_CHECK(op_tilecache_fingerprint(NULL) == 0);
  OPT_CHECK(op_tilecache_queued(NULL, 0, &tx, &tz) == 0);
  op_tilecache_set_repair(NULL, 1);
  op_tilecache_free(NULL);
  op_bytes_free(&b);
  fix_free(&f);
}

/* RT-023, RT-024 (review E3, E5): C's unknown shape is argument obstacle.shape with its
** decimal value; a -0.0 radius, half.x or half.z is checked as given (value -0); a -0.0 in
** a field that passes is stored as +0.0 (the snapshot equals that of the +0.0 obstacle). */
OPT_TEST(obstacle_values, "RT-024") {
  fix f;
  OPT_CHECK(fix_make(&f, "terrain", 5, 12, 2, 0) == 0);
  op_tilecache *a = f.a, *b = f.b;
  if (!a || !b) return;
  op_error e;
  uint32_t id;
  op_obstacle o;
  memset(&o, 0, sizeof o);
  o.shape = (op_obstacle_shape)5;
  OPT_CHECK(is_err(op_tilecache_add_obstacle(a, &o, &id, &e), &e, OP_E_ARGUMENT, "obstacle.shape", "5"));
  o.shape = OP_OBSTACLE_CYLINDER, o.center[0] = 3, o.center[2] = 3, o.radius = -0.0, o.height = 1;
  OPT_CHECK(is_err(op_tilecache_add_obstacle(a, &o, &id, &e), &e, OP_E_RANGE, "obstacle.radius", "-0"));
  memset(&o, 0, sizeof o);
  o.shape = OP_OBSTACLE_ORIENTED_BOX, o.center[0] = 3, o.center[2] = 3;
  o.half[0] = 1, o.half[1] = 1, o.half[2] = -0.0;
  OPT_CHECK(is_err(op_tilecache_add_obstacle(a, &o, &id, &e), &e, OP_E_RANGE, "obstacle.half.z", "-0"));
  o.half[2] = 1, o.half[1] = -0.0, o.yaw = -0.0, o.center[1] = -0.0;
  OPT_CHECK(op_tilecache_add_obstacle(a, &o, &id, &e) == OP_OK && id == 1);
  o.half[1] = 0.0, o.yaw = 0.0, o.center[1] = 0.0;
  OPT_CHECK(op_tilecache_add_obstacle(b, &o, &id, &e) == OP_OK && id == 1);
  op_bytes sa = fx_cache_snapshot(a), sb = fx_cache_snapshot(b);
  OPT_CHECK(fx_same(&sa, &sb));
  op_bytes_free(&sa), op_bytes_free(&sb);
  fix_free(&f);
}

/* SNAP-019, SNAP-022 (found by fuzz/history, input snapshot-half-z): every obstacle that
** AddObstacle accepts (SPAN-033's rule: sizes finite and positive, extents within 2^21; a
** size itself may exceed 2^21) restores from the cache's own snapshot. The restore once
** re-validated with a stricter rule and refused its own snapshot. */
OPT_TEST(restore_accepts_what_add_accepts, "SNAP-022") {
  fix f;
  OPT_CHECK(fix_make(&f, "terrain", 5, 12, 2, 0) == 0);
  op_tilecache *a = f.a, *b = f.b;
  if (!a || !b) return;
  op_error e;
  uint32_t id;
  /* an oriented box thin on x, half.z above 2^21, turned ~90 deg */
  op_obstacle o = fx_obox(4, 1.5, 13, 0.609375, 3, 2097152.5, 1e6);
  op_status st = op_tilecache_add_obstacle(a, &o, &id, &e);
  o = fx_cylinder(3, -2097152.0, 3, 1, 2097152.0 + 2); /* taller than 2^21, standing at -2^21 */
  OPT_CHECK(op_tilecache_add_obstacle(a, &o, &id, &e) == OP_OK);
  op_bytes sa = fx_cache_snapshot(a);
  OPT_CHECK(op_tilecache_snapshot_load(b, sa.data, sa.len, &e) == OP_OK);
  op_bytes sb = fx_cache_snapshot(b);
  OPT_CHECK(fx_same(&sa, &sb));
  OPT_CHECK(optc_live_obstacles(b) == (st == OP_OK ? 2u : 1u));
  op_bytes_free(&sa), op_bytes_free(&sb);
  fix_free(&f);
}

/* RT-026, RT-040, RT-130, SNAP-020 (review: the id limits are reachable): a snapshot whose
** next ids are 4294967294 restores; the adds hand out 4294967294 and then fail with limit
** obstacle_id (volume_id), value 4294967295, changing nothing. */
OPT_TEST(id_limits_after_restore, "RT-026") {
  fix f;
  OPT_CHECK(fix_make(&f, "terrain", 5, 12, 1, 0) == 0);
  op_tilecache *a = f.a;
  if (!a) return;
  op_bytes sa = fx_cache_snapshot(a);
  size_t t = tcac_at(&sa);
  put_le(sa.data + t + 8, 4294967294u, 4);
  put_le(sa.data + t + 12, 4294967294u, 4);
  op_error e;
  OPT_CHECK(op_tilecache_snapshot_load(a, sa.data, sa.len, &e) == OP_OK);
  op_obstacle o = fx_cylinder(3, 0, 3, 1, 1);
  op_convex_volume v;
  memset(&v, 0, sizeof v);
  v.npoints = 3;
  v.points[1][0] = 1, v.points[2][1] = 1, v.ymax = 1, v.area = 3;
  uint32_t id = 0;
  OPT_CHECK(op_tilecache_add_obstacle(a, &o, &id, &e) == OP_OK && id == 4294967294u);
  OPT_CHECK(op_tilecache_add_volume(a, &v, &id, &e) == OP_OK && id == 4294967294u);
  op_bytes t0 = fx_cache_snapshot(a);
  OPT_CHECK(is_err(op_tilecache_add_obstacle(a, &o, &id, &e), &e, OP_E_LIMIT, "obstacle_id", "4294967295"));
  OPT_CHECK(is_err(op_tilecache_add_volume(a, &v, &id, &e), &e, OP_E_LIMIT, "volume_id", "4294967295"));
  /* RT-026: RT-023's checks come first */
  o.radius = 0;
  OPT_CHECK(is_err(op_tilecache_add_obstacle(a, &o, &id, &e), &e, OP_E_RANGE, "obstacle.radius", "0"));
  op_bytes t1 = fx_cache_snapshot(a);
  OPT_CHECK(fx_same(&t0, &t1));
  /* RT-130: a removed id is unknown; a restore of the first snapshot lowers the next ids */
  OPT_CHECK(op_tilecache_remove_obstacle(a, 4294967294u, &e) == OP_OK);
  OPT_CHECK(is_err(op_tilecache_remove_obstacle(a, 4294967294u, &e), &e, OP_E_ARGUMENT, "id", "4294967294"));
  put_le(sa.data + t + 8, 1, 4);
  put_le(sa.data + t + 12, 1, 4);
  OPT_CHECK(op_tilecache_snapshot_load(a, sa.data, sa.len, &e) == OP_OK);
  o.radius = 1;
  OPT_CHECK(op_tilecache_add_obstacle(a, &o, &id, &e) == OP_OK && id == 1);
  op_bytes_free(&sa), op_bytes_free(&t0), op_bytes_free(&t1);
  fix_free(&f);
}

/* SNAP-019 (review E8): the checks run in byte order, so a bad SLOT payload is reported
** even when the second section's tag is wrong too; (review E7) a range failure carries the
** field's value as read. */
OPT_TEST(byte_order_and_values, "SNAP-019") {
  fix f;
  OPT_CHECK(fix_make(&f, "terrain", 5, 12, 2, 1) == 0);
  op_tilecache *a = f.a, *b = f.b;
  if (!a || !b) return;
  op_bytes sa = fx_cache_snapshot(a);
  uint8_t *c = malloc(sa.len);
  size_t t = tcac_at(&sa), ob = t + 20;
  memcpy(c, sa.data, sa.len);
  put_le(c + 88, 4294967295u, 4); /* SLOT nfree, SNAP-012 */
  memcpy(c + t - 16, "XXXX", 4);
  OPT_CHECK(fails_unchanged(b, c, sa.len, OP_E_FORMAT, "nfree", "4294967295"));
  memcpy(c, sa.data, sa.len);
  memcpy(c + t - 16, "XXXX", 4);
  char tag[16];
  snprintf(tag, sizeof tag, "%u", (unsigned)('X' | 'X' << 8 | 'X' << 16 | (uint32_t)'X' << 24));
  OPT_CHECK(fails_unchanged(b, c, sa.len, OP_E_FORMAT, "sections[1].tag", tag));
  memcpy(c, sa.data, sa.len);
  put_le(c + t + 16, 65537, 4);
  OPT_CHECK(fails_unchanged(b, c, sa.len, OP_E_FORMAT, "nobstacles", "65537"));
  memcpy(c, sa.data, sa.len);
  put_le(c + ob + 4, 7, 4);
  OPT_CHECK(fails_unchanged(b, c, sa.len, OP_E_FORMAT, "obstacles[0].shape", "7"));
  free(c);
  op_bytes_free(&sa);
  fix_free(&f);
}

/* ------------------------------------------------------------ robustness */

/* SNAP-003, SNAP-021: every truncation fails with a format error and changes nothing. */
OPT_TEST(truncation, "SNAP-021") {
  fix f;
  OPT_CHECK(fix_make(&f, "terrain", 7, 6, 2, 2) == 0);
  op_tilecache *b = f.b;
  if (!f.a || !b) return;
  op_bytes sa = fx_cache_snapshot(f.a), m0 = msave(b), t0 = fx_cache_snapshot(b);
  int bad = 0;
  for (size_t n = 0; n < sa.len; n++) {
    op_error e;
    op_status st = op_tilecache_snapshot_load(b, sa.data, n, &e);
    if (st != OP_E_FORMAT) bad++;
    if (n % 7 == 0 || n + 200 > sa.len) /* the mesh's bytes: every 7th length and the tail */
      bad += !still(b, &m0, 1);
    bad += !still(b, &t0, 0);
  }
  fprintf(stderr, "truncation: %zu lengths\n", sa.len);
  OPT_CHECK(bad == 0);
  op_bytes_free(&sa), op_bytes_free(&m0), op_bytes_free(&t0);
  fix_free(&f);
}

/* SNAP-021, SNAP-022: every single-byte corruption (three patterns per byte) either loads a
** state whose snapshot is exactly the corrupted bytes, or fails with a format error and
** changes nothing. */
OPT_TEST(corruption, "SNAP-022") {
  fix f;
  OPT_CHECK(fix_make(&f, "terrain", 7, 6, 2, 2) == 0);
  op_tilecache *b = f.b;
  if (!f.a || !b) return;
  op_bytes sa = fx_cache_snapshot(f.a), m0 = msave(b), t0 = fx_cache_snapshot(b);
  static const uint8_t pats[3] = {0x01, 0x80, 0xFF};
  int bad = 0, loaded = 0, failed = 0;
  uint8_t *c = malloc(sa.len);
  for (size_t off = 0; c && off < sa.len; off++)
    for (int k = 0; k < 3; k++) {
      memcpy(c, sa.data, sa.len);
      c[off] ^= pats[k];
      op_error e;
      op_status st = op_tilecache_snapshot_load(b, c, sa.len, &e);
      if (st == OP_OK) {
        loaded++;
        op_bytes re = fx_cache_snapshot(b);
        bad += re.len != sa.len || memcmp(re.data, c, sa.len) != 0;
        op_bytes_free(&re);
        bad += op_tilecache_snapshot_load(b, t0.data, t0.len, &e) != OP_OK; /* back */
        bad += !still(b, &m0, 1);
      } else {
        failed++;
        bad += st != OP_E_FORMAT;
        bad += !still(b, &t0, 0);
      }
    }
  fprintf(stderr, "corruption: %zu bytes, %d loaded, %d failed\n", sa.len, loaded, failed);
  OPT_CHECK(c != NULL && bad == 0 && failed > 0 && loaded > 0);
  free(c);
  op_bytes_free(&sa), op_bytes_free(&m0), op_bytes_free(&t0);
  fix_free(&f);
}

/* ------------------------------------------------------------ artifact parts */

typedef struct parts {
  int n;
  char name[64][32];
  size_t off[64], len[64];
} parts;

static void part_cb(void *ud, const char *name, size_t off, size_t len) {
  parts *p = ud;
  if (p->n >= 64) return;
  snprintf(p->name[p->n], sizeof p->name[0], "%s", name);
  p->off[p->n] = off;
  p->len[p->n] = len;
  p->n++;
}

/* The note after SNAP-022 (CONF-062): a tile cache snapshot's parts are a mesh snapshot's,
** then "section TCAC", "ids", "nobstacles", one part per obstacle record named by its id,
** "nvolumes", one per volume record, "queue"; they tile the bytes exactly. */
OPT_TEST(artifact_parts, "SNAP-016") {
  fix f;
  OPT_CHECK(fix_make(&f, "terrain", 7, 6, 1, 1) == 0);
  op_tilecache *a = f.a;
  if (!a) return;
  op_bytes sa = fx_cache_snapshot(a), ms = {NULL, 0};
  op_error e;
  OPT_CHECK(op_mesh_snapshot_save(op_tilecache_mesh(a), &ms, &e) == OP_OK);
  parts p, q;
  memset(&p, 0, sizeof p);
  memset(&q, 0, sizeof q);
  OPT_CHECK(opa_snapshot_parts(sa.data, sa.len, part_cb, &p) == 0);
  OPT_CHECK(opa_snapshot_parts(ms.data, ms.len, part_cb, &q) == 0);
  static const char *const tail[9] = {"section TCAC", "ids", "nobstacles", "obstacle 2",
                                      "obstacle 3", "obstacle 4", "nvolumes", "volume 1",
                                      "volume 2"};
  OPT_CHECK(p.n == q.n + 10);
  for (int i = 0; i < q.n && i < p.n; i++)
    OPT_CHECK(!strcmp(p.name[i], q.name[i]) && p.len[i] == q.len[i]);
  for (int i = 0; i < 9 && q.n + i < p.n; i++) OPT_CHECK(!strcmp(p.name[q.n + i], tail[i]));
  if (p.n == q.n + 10) {
    OPT_CHECK(!strcmp(p.name[p.n - 1], "queue") && p.len[p.n - 1] == 4 + 8 * (size_t)a->nqueue);
    const size_t lens[9] = {16, 16, 4, 48, 56, 64, 4, 92, 76};
    for (int i = 0; i < 9; i++) OPT_CHECK(p.len[q.n + i] == lens[i]);
  }
  size_t at = 0;
  for (int i = 0; i < p.n; i++) {
    OPT_CHECK(p.off[i] == at);
    at = p.off[i] + p.len[i];
  }
  OPT_CHECK(at == sa.len);
  /* framing only: every truncation and corruption stays within the bytes */
  uint8_t *c = malloc(sa.len);
  int oob = 0;
  for (size_t off = 0; c && off < sa.len; off++) {
    memcpy(c, sa.data, sa.len);
    c[off] ^= 0xFF;
    for (size_t len = sa.len; len + 3 > sa.len && len > 0; len--) {
      memset(&p, 0, sizeof p);
      opa_snapshot_parts(c, len, part_cb, &p);
      for (int i = 0; i < p.n; i++) oob += p.off[i] > len || p.len[i] > len - p.off[i];
    }
  }
  OPT_CHECK(c != NULL && oob == 0);
  free(c);
  op_bytes_free(&sa), op_bytes_free(&ms);
  fix_free(&f);
}

/* ------------------------------------------------------------ figures */

static double now(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC); /* C11 */
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* RT-132, RT-133 on the benchmark level (city 4, seed 1, Humanoid, Layers, TileSize 64, no
** detail sampling): prints the snapshot's size and the restore's time; checks the round
** trip. */
OPT_TEST(city_figures, "RT-133") {
  level L;
  op_settings s = settings(64);
  OPT_CHECK(gen(&L, "city", 1, 4) == 0);
  op_tilecache *a = fx_cache(&s, &L.soup), *b = fx_cache(&s, &L.soup);
  if (!a || !b) return;
  op_bytes s0 = fx_cache_snapshot(a);
  busy(a, &L, 0);
  op_error e;
  OPT_CHECK(op_tilecache_update_all(a, NULL, &e) == OP_OK);
  busy(a, &L, 1);
  op_bytes sa = fx_cache_snapshot(a), ms = {NULL, 0};
  OPT_CHECK(op_mesh_snapshot_save(op_tilecache_mesh(a), &ms, &e) == OP_OK);
  int reps = 20;
  double t0 = now();
  for (int i = 0; i < reps; i++)
    OPT_CHECK(op_tilecache_snapshot_load(b, sa.data, sa.len, &e) == OP_OK);
  double dt = (now() - t0) / reps;
  op_bytes sb = fx_cache_snapshot(b);
  OPT_CHECK(fx_same(&sa, &sb));
  t0 = now();
  for (int i = 0; i < reps; i++) {
    op_bytes x = fx_cache_snapshot(a);
    op_bytes_free(&x);
  }
  double ds = (now() - t0) / reps;
  fprintf(stderr,
          "city 4: %u cached tiles, snapshot %zu bytes fresh, %zu busy (mesh part %zu, TCAC %zu); "
          "restore %.3f ms, save %.3f ms\n",
          a->ntiles, s0.len, sa.len, ms.len, sa.len - ms.len, 1e3 * dt, 1e3 * ds);
  op_bytes_free(&s0), op_bytes_free(&sa), op_bytes_free(&ms), op_bytes_free(&sb);
  op_tilecache_free(a);
  op_tilecache_free(b);
  op_trimesh_free(&L.m);
}

OPT_MAIN_BEGIN
OPT_RUN(fingerprint_key);
OPT_RUN(layout);
OPT_RUN(canonical_round_trip);
OPT_RUN(restore_then_update);
OPT_RUN(fingerprint_mismatch);
OPT_RUN(mesh_only_load);
OPT_RUN(cache_mesh_refuses_restore);
OPT_RUN(named_errors);
OPT_RUN(tile_on_no_unit);
OPT_RUN(fingerprint_negative_zero_origin);
OPT_RUN(null_arguments);
OPT_RUN(obstacle_values);
OPT_RUN(restore_accepts_what_add_accepts);
OPT_RUN(id_limits_after_restore);
OPT_RUN(byte_order_and_values);
OPT_RUN(truncation);
OPT_RUN(corruption);
OPT_RUN(artifact_parts);
OPT_RUN(city_figures);
OPT_MAIN_END
