/*
** test_tilecache_errors.c -- the error answers of the run-time tile cache that the other
** tests leave out (spec/build3d-runtime.md, spec/navmesh-snapshot.md): the C argument rules
** of RT-002 for the accessors, the live-count limits of RT-026 and RT-040 reached for
** real, an Update whose stage fails (RT-061: error prefixed with the tile, nothing changed)
** on the general and the layer-first path, a TCAC payload cut at every byte (SNAP-003), the
** protocol ops' cache-first rule (RT-152) and their pass-through of the cache's errors, and
** the argument checks of the internal repair / layer-first / obstacle / batch entry points,
** units without a walkable span (RT-088, RT-013), and cached builds that fail (RT-002,
** POLY-222).
**
** Expected values come from the clause text (field names, limits, the offset at which the
** bytes end computed from SNAP-016/SNAP-017's layout walked here), or from a second route
** (the state saved before and after a failed call).
**
** Not tested here, because v0 cannot reach them: RT-064 (off-mesh links; v0 builds carry
** none, POLY-217, and the reference has no branch for them). Out-of-memory paths are left to
** the fuzzers' allocation hooks (test_mesh_batch covers opm_batch's).
*/
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "fixtures3d.h"
#include "core/internal.h"
#include "navmesh/mesh_internal.h"
#include "build3d/spans/obstacles.h"
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
#include "optest.h"
#include "build3d/pipeline/pipeline_internal.h"
#include "build3d/runtime/repair.h"
#include "navmesh/snapshot_internal.h"
#include "build3d/runtime/tilecache.h"

/* ------------------------------------------------------------ helpers */

static op_settings humanoid(op_partition p, uint32_t tile_cells) {
  op_settings s = fx_humanoid(p); /* layer first with Layers (RT-080) */
  s.tile_cells = tile_cells;
  return s;
}

/* The level name (seed 5) of the given size into *m and the cache built from it with s;
** NULL (and *m freed) when either fails. */
static op_tilecache *cached_level(const op_settings *s, const char *name, uint32_t size,
                                  op_trimesh *m) {
  memset(m, 0, sizeof *m);
  op_error e;
  if (op_level_generate(name, 5, size, NULL, m, &e) != OP_OK) {
    fprintf(stderr, "  level: %s\n", e.message);
    op_trimesh_free(m);
    return NULL;
  }
  op_soup soup = op_trimesh_soup(m);
  op_tilecache *c = fx_cache(s, &soup);
  if (!c) op_trimesh_free(m);
  return c;
}

static int err_is(op_status st, const op_error *e, op_status kind, const char *field,
                  const char *value) {
  int ok = st == kind && e->kind == kind && strcmp(e->field, field) == 0 &&
           (!value || strcmp(e->value, value) == 0);
  if (!ok)
    fprintf(stderr, "  got %s %s=%s (%s), want %s %s=%s\n", op_status_name(st), e->field,
            e->value, e->message, op_status_name(kind), field, value ? value : "*");
  return ok;
}

/* Everything a failed call must leave as it was (RT-001, RT-061): the state snapshot (ids,
** obstacles, volumes, queue, the mesh's slots), the mesh's canonical bytes, every unit's
** last-built areas and the statistics. */
typedef struct state {
  op_bytes snap, mesh, last;
  op_tilecache_stats stats;
} state;

static state take(const op_tilecache *c) {
  state s;
  memset(&s, 0, sizeof s);
  s.snap = fx_cache_snapshot(c);
  s.mesh = fx_mesh_bytes(c->mesh);
  size_t n = 0;
  for (uint32_t i = 0; i < c->ntiles; i++)
    for (uint32_t L = 0; L < c->tiles[i].k.nunits; L++) {
      const op_chf *h = c->ctx.layer_first ? c->tiles[i].k.units[L].view : c->tiles[i].k.base.chf;
      n += 1 + (h ? h->nspans : 0);
    }
  s.last.data = malloc(n ? n : 1);
  s.last.len = n;
  size_t at = 0;
  for (uint32_t i = 0; s.last.data && i < c->ntiles; i++)
    for (uint32_t L = 0; L < c->tiles[i].k.nunits; L++) {
      const optc_unit *u = &c->tiles[i].units[L];
      const op_chf *h = c->ctx.layer_first ? c->tiles[i].k.units[L].view : c->tiles[i].k.base.chf;
      uint32_t ns = h ? h->nspans : 0;
      s.last.data[at++] = u->last != NULL;
      if (ns) {
        if (u->last) memcpy(s.last.data + at, u->last, ns);
        else memset(s.last.data + at, 0xEE, ns);
      }
      at += ns;
    }
  op_tilecache_stats_get(c, &s.stats);
  return s;
}

static int same_state(const state *a, const state *b) {
  return fx_same(&a->snap, &b->snap) && fx_same(&a->mesh, &b->mesh) &&
         fx_same(&a->last, &b->last) && memcmp(&a->stats, &b->stats, sizeof a->stats) == 0;
}

static void state_free(state *s) {
  op_bytes_free(&s->snap);
  op_bytes_free(&s->mesh);
  free(s->last.data);
  memset(s, 0, sizeof *s);
}

/* ------------------------------------------------------------ RT-002 */

/* RT-002: the functions without op_error take a NULL cache (and NULL outputs) without
** error; op_tilecache_queued writes only the outputs given, and nothing past the queue;
** the updates and removals with a NULL cache are argument `cache` (value NULL), as is a
** cached build without its output pointer, for each of the three inputs. */
OPT_TEST(null_rules, "RT-002") {
  op_tilecache_stats st;
  memset(&st, 0xAB, sizeof st);
  op_tilecache_stats_get(NULL, &st);
  op_tilecache_stats zero;
  memset(&zero, 0, sizeof zero);
  OPT_CHECK(memcmp(&st, &zero, sizeof st) == 0);
  op_tilecache_stats_reset(NULL);
  OPT_CHECK(op_tilecache_queued(NULL, 0, NULL, NULL) == 0);
  OPT_CHECK(op_tilecache_repair(NULL) == 0 && op_tilecache_fingerprint(NULL) == 0 &&
            op_tilecache_mesh(NULL) == NULL && op_tilecache_queue_length(NULL) == 0);
  op_tilecache_set_repair(NULL, 1);
  op_error e;
  uint32_t k = 77;
  OPT_CHECK(err_is(op_tilecache_update(NULL, 1, &k, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(err_is(op_tilecache_update_all(NULL, &k, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(k == 77); /* RT-001: a failed call writes none of its outputs */
  OPT_CHECK(err_is(op_tilecache_remove_volume(NULL, 1, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(err_is(op_tilecache_remove_obstacle(NULL, 1, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  op_convex_volume v = fx_quad(0, 0, 1, 1, 0, 1, 1);
  OPT_CHECK(err_is(op_tilecache_add_volume(NULL, &v, NULL, &e), &e, OP_E_ARGUMENT, "cache", "NULL"));
  op_settings s = humanoid(OP_PARTITION_WATERSHED, 32);
  /* `cache` before the settings and the input: both of those are NULL here */
  OPT_CHECK(err_is(op_pipeline_build_soup_cached(NULL, NULL, NULL, NULL, NULL, &e), &e,
                   OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(err_is(op_pipeline_build_chunk_cached(NULL, NULL, NULL, NULL, NULL, &e), &e,
                   OP_E_ARGUMENT, "cache", "NULL"));
  OPT_CHECK(err_is(op_pipeline_build_heightfield_cached(&s, NULL, NULL, NULL, NULL, &e), &e,
                   OP_E_ARGUMENT, "cache", "NULL"));

  op_trimesh m;
  op_tilecache *c = cached_level(&s, "terrain", 20, &m);
  OPT_CHECK(c != NULL);
  if (!c) return;
  op_obstacle o = fx_cylinder(5, -10, 5, 1, 30);
  OPT_CHECK(op_tilecache_add_obstacle(c, &o, NULL, NULL) == OP_OK); /* NULL id allowed */
  uint32_t n = op_tilecache_queue_length(c);
  OPT_CHECK(n >= 1);
  int32_t tx = -5, tz = -5;
  OPT_CHECK(op_tilecache_queued(c, 0, NULL, &tz) == 1 && tz >= 0);  /* only tz written */
  OPT_CHECK(op_tilecache_queued(c, 0, &tx, NULL) == 1 && tx >= 0);  /* only tx written */
  tx = tz = -5;
  OPT_CHECK(op_tilecache_queued(c, n, &tx, &tz) == 0 && tx == -5 && tz == -5);
  op_tilecache_stats_get(c, NULL); /* no output: nothing happens */
  OPT_CHECK(op_tilecache_update_all(c, NULL, NULL) == OP_OK); /* NULL processed allowed */
  op_tilecache_stats_get(c, &st);
  OPT_CHECK(st.tiles_processed == n);
  op_tilecache_stats_reset(c);
  op_tilecache_stats_get(c, &st);
  OPT_CHECK(memcmp(&st, &zero, sizeof st) == 0);
  op_tilecache_free(c);
  op_trimesh_free(&m);
}

/* ------------------------------------------------------------ RT-026, RT-040 */

/* RT-026, RT-040: with 65536 live obstacles (volumes) the next add is a limit error
** `obstacles` (`volumes`) with the value 65536, checked after validation and before the id
** limit, and it changes nothing; removing one makes room again. The shapes lie outside the
** level so that no tile is queued (RT-050) and the adds stay cheap. */
OPT_TEST(live_count_limits, "RT-026, RT-040") {
  op_settings s = humanoid(OP_PARTITION_MONOTONE, 64);
  op_trimesh m;
  op_tilecache *c = cached_level(&s, "terrain", 10, &m);
  OPT_CHECK(c != NULL);
  if (!c) return;
  op_error e;
  op_obstacle far = fx_cylinder(-100000, 0, -100000, 1, 1);
  op_convex_volume vfar = fx_quad(-100000, -100000, -99999, -99999, 0, 1, 3);
  uint32_t id = 0, bad = 0;
  for (uint32_t i = 0; i < OPTC_MAX_LIVE; i++) {
    bad += op_tilecache_add_obstacle(c, &far, &id, NULL) != OP_OK || id != i + 1;
    bad += op_tilecache_add_volume(c, &vfar, &id, NULL) != OP_OK || id != i + 1;
  }
  OPT_CHECK(bad == 0);
  OPT_CHECK(op_tilecache_queue_length(c) == 0);
  state before = take(c);
  id = 12345;
  OPT_CHECK(err_is(op_tilecache_add_obstacle(c, &far, &id, &e), &e, OP_E_LIMIT, "obstacles", "65536"));
  OPT_CHECK(err_is(op_tilecache_add_volume(c, &vfar, &id, &e), &e, OP_E_LIMIT, "volumes", "65536"));
  OPT_CHECK(id == 12345);
  /* validation first (RT-023, RT-040) */
  op_obstacle nan = far;
  nan.radius = NAN;
  OPT_CHECK(err_is(op_tilecache_add_obstacle(c, &nan, &id, &e), &e, OP_E_RANGE, "obstacle.radius", "NaN"));
  op_convex_volume v64 = vfar;
  v64.area = 64;
  OPT_CHECK(err_is(op_tilecache_add_volume(c, &v64, &id, &e), &e, OP_E_RANGE, "volume.area", "64"));
  /* the live count before the id limit */
  c->next_obstacle_id = OPTC_ID_END;
  c->next_volume_id = OPTC_ID_END;
  OPT_CHECK(err_is(op_tilecache_add_obstacle(c, &far, &id, &e), &e, OP_E_LIMIT, "obstacles", "65536"));
  OPT_CHECK(err_is(op_tilecache_add_volume(c, &vfar, &id, &e), &e, OP_E_LIMIT, "volumes", "65536"));
  c->next_obstacle_id = c->next_volume_id = OPTC_MAX_LIVE + 1;
  state after = take(c);
  OPT_CHECK(same_state(&before, &after));
  /* one removed: room for one more, with the next id */
  OPT_CHECK(op_tilecache_remove_obstacle(c, 77, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_add_obstacle(c, &far, &id, NULL) == OP_OK && id == OPTC_MAX_LIVE + 1);
  OPT_CHECK(op_tilecache_remove_volume(c, 1, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_add_volume(c, &vfar, &id, NULL) == OP_OK && id == OPTC_MAX_LIVE + 1);
  OPT_CHECK(optc_live_obstacles(c) == OPTC_MAX_LIVE && optc_live_volumes(c) == OPTC_MAX_LIVE);
  state_free(&before);
  state_free(&after);
  op_tilecache_free(c);
  op_trimesh_free(&m);
}

/* ------------------------------------------------------------ RT-061 */

/* A flat square of n x n cells at y = 0 from (0, 0). */
static op_soup plane(double side, double verts[12], uint32_t tris[6]) {
  double v[12] = {0, 0, 0, side, 0, 0, side, 0, side, 0, 0, side};
  uint32_t t[6] = {0, 2, 1, 0, 3, 2};
  memcpy(verts, v, sizeof v);
  memcpy(tris, t, sizeof t);
  op_soup s = {4, verts, 2, tris};
  return s;
}

/* One diagonal stripe of cells: the cells (i, j) of the level's cell lattice with
** i + j = d, whose centres ((i + 0.5) cs, (j + 0.5) cs) have u + v = d + 1 in cell units;
** the band d + 0.5 < u + v < d + 1.5, as a parallelogram well past the grid (convex). */
static op_convex_volume stripe(double cs, int d, double n, uint8_t area) {
  op_convex_volume v;
  memset(&v, 0, sizeof v);
  v.npoints = 4;
  double lo = d + 0.5, hi = d + 1.5, a = -40, b = n + 40;
  double p[4][2] = {{a, lo - a}, {b, lo - b}, {b, hi - b}, {a, hi - a}};
  for (int k = 0; k < 4; k++) v.points[k][0] = p[k][0] * cs, v.points[k][1] = p[k][1] * cs;
  v.ymin = -1, v.ymax = 1, v.area = area;
  return v;
}

/* RT-061 with REG-006: volumes on every other diagonal turn one flat tile into a
** checkerboard of two areas, so every walkable cell is its own region (a region joins
** only spans of one area, RT-084 / REG-080; islands touching another area stay, REG-100),
** more than the 32767 ordinary regions a partition may have. The first build had one
** region. Update fails with limit `regions` (a count above 32767), its message prefixed
** with the tile, and the queue, the mesh, the last-built areas and the statistics are as
** before; once the volumes are removed the queue empties and the mesh has the first build's
** bytes again (RT-027). General path (Monotone) and layer first (Layers, repair on: the
** volumes fail precondition (a) and the layer is built by RT-085). */
static void checkerboard_case(opt_state *opt_s_, op_partition part) {
  const uint32_t N = 200;
  op_settings s = humanoid(part, N);
  double verts[12];
  uint32_t tris[6];
  op_soup soup = plane(N * s.cell_size, verts, tris);
  op_tilecache *c = NULL;
  op_error e;
  OPT_CHECK(op_pipeline_build_soup_cached(&s, &soup, NULL, NULL, &c, &e) == OP_OK);
  if (!c) return;
  OPT_CHECK(c->ntiles == 1 && c->ctx.layer_first == (part == OP_PARTITION_LAYERS));
  op_bytes first = fx_mesh_bytes(c->mesh);
  uint8_t walk = 0; /* the first build's walkable area, so the stripes differ from it */
  const op_chf *h = c->tiles[0].k.base.chf;
  for (uint32_t i = 0; i < h->nspans && !walk; i++) walk = h->areas[i];
  uint8_t other = walk == 7 ? 9 : 7;
  uint32_t ids[400], nv = 0;
  for (int d = -40; d <= 2 * (int)N + 40 && nv < 400; d += 2) {
    op_convex_volume v = stripe(s.cell_size, d, N, other);
    OPT_CHECK(op_tilecache_add_volume(c, &v, &ids[nv], NULL) == OP_OK);
    nv++;
  }
  OPT_CHECK(op_tilecache_queue_length(c) == 1);
  state before = take(c);
  uint32_t k = 99;
  op_status st = op_tilecache_update_all(c, &k, &e);
  OPT_CHECK(st == OP_E_LIMIT && e.kind == OP_E_LIMIT && strcmp(e.field, "regions") == 0);
  /* every walkable span outside the border ring (REG-012) is a region of its own */
  uint32_t want = 0, bd = (uint32_t)c->ctx.cell.border;
  for (int32_t z = (int32_t)bd; z < h->grid.depth - (int32_t)bd; z++)
    for (int32_t x = (int32_t)bd; x < h->grid.width - (int32_t)bd; x++) {
      size_t col = (size_t)z * (size_t)h->grid.width + (size_t)x;
      for (uint32_t i = h->cell_index[col], end = i + h->cell_count[col]; i < end; i++)
        want += h->areas[i] != OP_AREA_NULL;
    }
  char wv[16];
  snprintf(wv, sizeof wv, "%u", want);
  OPT_CHECK(want > 32767 && strcmp(e.value, wv) == 0);
  OPT_CHECK(strncmp(e.message, "tile (0, 0): ", 13) == 0);
  OPT_CHECK(k == 99);
  state after = take(c);
  OPT_CHECK(same_state(&before, &after));
  /* the same through Update(1) */
  OPT_CHECK(op_tilecache_update(c, 1, &k, &e) == OP_E_LIMIT && k == 99);
  for (uint32_t i = 0; i < nv; i++) OPT_CHECK(op_tilecache_remove_volume(c, ids[i], NULL) == OP_OK);
  OPT_CHECK(op_tilecache_update_all(c, &k, &e) == OP_OK && k == 1);
  op_bytes back = fx_mesh_bytes(c->mesh);
  OPT_CHECK(fx_same(&first, &back));
  op_bytes_free(&back);
  op_bytes_free(&first);
  state_free(&before);
  state_free(&after);
  op_tilecache_free(c);
}

/* The live ids in cache order, through the snapshot's own view (dead entries skipped). */
static uint32_t live_ids(const op_tilecache *c, int vol, uint32_t *out) {
  uint32_t n = 0;
  if (vol) {
    for (uint32_t i = 0; i < c->nvols; i++)
      if (!c->vols[i].dead) out[n++] = c->vols[i].id;
  } else {
    for (uint32_t i = 0; i < c->nobst; i++)
      if (!c->obst[i].dead) out[n++] = c->obst[i].id;
  }
  return n;
}

/* RT-041 keeps obstacles and volumes in the order they were added; removing them (issue
** 17 item 6) must not cost O(live) moves each: 65,536 obstacles removed oldest first cost
** 2^31 entry moves with a memmove per removal. This counts the moves instead of timing
** them: at most one move per removal, amortised (tilecache.h), in every removal order. */
OPT_TEST(removal_cost_and_order, "RT-041, RT-026, RT-053") {
  op_settings s = humanoid(OP_PARTITION_MONOTONE, 64);
  op_trimesh m;
  op_tilecache *c = cached_level(&s, "terrain", 10, &m);
  OPT_CHECK(c != NULL);
  if (!c) return;
  op_obstacle far = fx_cylinder(-100000, 0, -100000, 1, 1);
  op_convex_volume vfar = fx_quad(-100000, -100000, -99999, -99999, 0, 1, 3);
  uint32_t *ids = malloc(OPTC_MAX_LIVE * sizeof *ids), id = 0, bad = 0;
  OPT_CHECK(ids != NULL);
  if (!ids) return;
  for (int pass = 0; pass < 3; pass++) { /* oldest first, newest first, odd then even */
    uint32_t first = 0;
    for (uint32_t i = 0; i < OPTC_MAX_LIVE; i++) {
      bad += op_tilecache_add_obstacle(c, &far, &id, NULL) != OP_OK;
      bad += op_tilecache_add_volume(c, &vfar, NULL, NULL) != OP_OK;
      if (i == 0) first = id;
    }
    uint64_t moved0 = c->moved;
    for (uint32_t k = 0; k < OPTC_MAX_LIVE; k++) {
      uint32_t j = pass == 0 ? k : pass == 1 ? OPTC_MAX_LIVE - 1 - k
                 : k < OPTC_MAX_LIVE / 2 ? 2 * k + 1 : 2 * (k - OPTC_MAX_LIVE / 2);
      bad += op_tilecache_remove_obstacle(c, first + j, NULL) != OP_OK;
      bad += op_tilecache_remove_volume(c, first + j, NULL) != OP_OK;
      if (k == OPTC_MAX_LIVE / 2 && pass == 2) { /* the evens left, in the order added */
        uint32_t n = live_ids(c, 0, ids);
        for (uint32_t q = 0; q < n; q++) bad += ids[q] != first + 2 * (q + 1);
        bad += n != OPTC_MAX_LIVE / 2 - 1;
        op_error e;
        bad += op_tilecache_remove_obstacle(c, first + 1, &e) != OP_E_ARGUMENT; /* dead: RT-053 */
      }
    }
    bad += optc_live_obstacles(c) != 0 || optc_live_volumes(c) != 0;
    OPT_CHECK(c->moved - moved0 <= 2u * OPTC_MAX_LIVE); /* obstacles + volumes: <= 1 each */
  }
  OPT_CHECK(bad == 0);
  free(ids);
  op_tilecache_free(c);
  op_trimesh_free(&m);
}

OPT_TEST(update_stage_fails_general, "RT-061, REG-006") {
  checkerboard_case(opt_s_, OP_PARTITION_MONOTONE);
}

OPT_TEST(update_stage_fails_layer_first, "RT-061, RT-063, REG-006") {
  checkerboard_case(opt_s_, OP_PARTITION_LAYERS);
}

/* ------------------------------------------------------------ SNAP-003 in the TCAC payload */

/* One field of the TCAC payload: where it starts (from the payload's first byte), its size
** and its name. */
typedef struct tfield {
  size_t at, size;
  char name[64];
} tfield;

typedef struct twalk {
  tfield *f;
  size_t n, cap, at;
  const uint8_t *p;
} twalk;

static void tw_add(twalk *w, size_t size, const char *fmt, ...) {
  if (w->n == w->cap) {
    w->cap = w->cap ? 2 * w->cap : 64;
    w->f = realloc(w->f, w->cap * sizeof *w->f);
  }
  tfield *f = &w->f[w->n++];
  f->at = w->at, f->size = size;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(f->name, sizeof f->name, fmt, ap);
  va_end(ap);
  w->at += size;
}

static uint32_t tw_u32(const twalk *w, size_t at) { return opc_rd_u32(w->p + at); }

/* SNAP-016, SNAP-017: the payload's fields in byte order, walked from the layout table:
** fingerprint u64, next ids, obstacle records (id, shape, 5/6/7 f64 by shape), volume
** records (id, npoints, the points' x and z, ymin, ymax, area u32), the queue's (x, z). */
static void walk_tcac(twalk *w) {
  static const char *const names[3][7] = {
      {"center.x", "center.y", "center.z", "radius", "height", NULL, NULL},
      {"bmin.x", "bmin.y", "bmin.z", "bmax.x", "bmax.y", "bmax.z", NULL},
      {"center.x", "center.y", "center.z", "half.x", "half.y", "half.z", "yaw"}};
  tw_add(w, 8, "fingerprint");
  tw_add(w, 4, "next_obstacle_id");
  tw_add(w, 4, "next_volume_id");
  uint32_t n = tw_u32(w, w->at);
  tw_add(w, 4, "nobstacles");
  for (uint32_t i = 0; i < n; i++) {
    tw_add(w, 4, "obstacles[%u].id", i);
    uint32_t shape = tw_u32(w, w->at);
    tw_add(w, 4, "obstacles[%u].shape", i);
    for (int k = 0; k < 7 && names[shape][k]; k++) tw_add(w, 8, "obstacles[%u].%s", i, names[shape][k]);
  }
  n = tw_u32(w, w->at);
  tw_add(w, 4, "nvolumes");
  for (uint32_t i = 0; i < n; i++) {
    tw_add(w, 4, "volumes[%u].id", i);
    uint32_t np = tw_u32(w, w->at);
    tw_add(w, 4, "volumes[%u].npoints", i);
    for (uint32_t j = 0; j < np; j++) {
      tw_add(w, 8, "volumes[%u].points[%u].x", i, j);
      tw_add(w, 8, "volumes[%u].points[%u].z", i, j);
    }
    tw_add(w, 8, "volumes[%u].ymin", i);
    tw_add(w, 8, "volumes[%u].ymax", i);
    tw_add(w, 4, "volumes[%u].area", i);
  }
  n = tw_u32(w, w->at);
  tw_add(w, 4, "nqueue");
  for (uint32_t i = 0; i < n; i++) {
    tw_add(w, 4, "queue[%u].x", i);
    tw_add(w, 4, "queue[%u].z", i);
  }
}

/* SNAP-015, SNAP-005: the offset of the TCAC section's tag (header 72 bytes, then the SLOT
** section: tag, version, u64 length, payload). */
static size_t tcac_tag_at(const op_bytes *b) {
  size_t slot = 72;
  uint64_t len = (uint64_t)opc_rd_u32(b->data + slot + 8) |
                 ((uint64_t)opc_rd_u32(b->data + slot + 12) << 32);
  return slot + 16 + (size_t)len;
}

/* SNAP-003: a TCAC payload whose section length says it ends at byte c (every c inside the
** payload) fails at the field that does not fit, naming it, with the value c counted from
** the snapshot's first byte; SNAP-021: and changes nothing. The walk above must also end
** exactly at the payload's end (the layout is complete). */
OPT_TEST(tcac_cut_everywhere, "SNAP-003, SNAP-017, SNAP-021") {
  op_settings s = humanoid(OP_PARTITION_LAYERS, 16);
  op_trimesh m;
  op_tilecache *a = cached_level(&s, "terrain", 6, &m);
  op_soup soup = op_trimesh_soup(&m);
  op_tilecache *b = NULL;
  if (a) op_pipeline_build_soup_cached(&s, &soup, NULL, NULL, &b, NULL);
  if (!a || !b) {
    OPT_CHECK(0);
    op_tilecache_free(a);
    op_trimesh_free(&m);
    return;
  }
  /* every shape, volumes of 3 and 5 points, a queue of several tiles */
  op_obstacle cyl = fx_cylinder(8, -10, 8, 1.5, 40), box = fx_box(2, -10, 14, 5, 30, 17);
  op_obstacle obb = fx_obox(15, 0, 5, 2, 30, 1, 0.4);
  OPT_CHECK(op_tilecache_add_obstacle(a, &cyl, NULL, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_add_obstacle(a, &box, NULL, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_add_obstacle(a, &obb, NULL, NULL) == OP_OK);
  op_convex_volume v3 = fx_quad(3, 3, 9, 9, -10, 40, 5);
  v3.npoints = 3;
  op_convex_volume v5 = fx_quad(10, 10, 16, 16, -10, 40, 6);
  v5.npoints = 5;
  v5.points[4][0] = 13, v5.points[4][1] = 18;
  OPT_CHECK(op_tilecache_add_volume(a, &v3, NULL, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_add_volume(a, &v5, NULL, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_queue_length(a) >= 2);
  op_bytes sa = fx_cache_snapshot(a);
  size_t t = tcac_tag_at(&sa), p0 = t + 16;
  OPT_CHECK(sa.len > p0 && opc_rd_u32(sa.data + t) == OPSN_TAG_TCAC);
  twalk w;
  memset(&w, 0, sizeof w);
  w.p = sa.data + p0;
  walk_tcac(&w);
  OPT_CHECK(p0 + w.at == sa.len);
  state before = take(b);
  uint8_t *cut = malloc(sa.len);
  size_t bad = 0, fi = 0;
  for (size_t c = 0; cut && c < sa.len - p0; c++) {
    while (fi < w.n && w.f[fi].at + w.f[fi].size <= c) fi++; /* the field holding byte c */
    memcpy(cut, sa.data, p0 + c);
    uint64_t len = c;
    for (int k = 0; k < 8; k++) cut[t + 8 + k] = (uint8_t)(len >> (8 * k));
    op_error e;
    char want[32];
    snprintf(want, sizeof want, "%zu", p0 + c);
    op_status st = op_tilecache_snapshot_load(b, cut, p0 + c, &e);
    if (fi >= w.n || st != OP_E_FORMAT || strcmp(e.field, w.f[fi].name) || strcmp(e.value, want)) {
      if (bad++ < 5)
        fprintf(stderr, "  cut at %zu: got %s %s=%s, want format %s=%s\n", c, op_status_name(st),
                e.field, e.value, fi < w.n ? w.f[fi].name : "?", want);
    }
  }
  OPT_CHECK(bad == 0);
  state after = take(b);
  OPT_CHECK(same_state(&before, &after));
  /* the whole payload loads (the walk's counterpart) */
  OPT_CHECK(op_tilecache_snapshot_load(b, sa.data, sa.len, NULL) == OP_OK);
  op_bytes sb = fx_cache_snapshot(b);
  OPT_CHECK(fx_same(&sa, &sb));
  op_bytes_free(&sb);
  free(cut);
  free(w.f);
  state_free(&before);
  state_free(&after);
  op_bytes_free(&sa);
  op_tilecache_free(a);
  op_tilecache_free(b);
  op_trimesh_free(&m);
}

/* ------------------------------------------------------------ RT-152 */

static opj_doc *run(opd_session *s, const char *req) {
  opj_w w;
  opj_w_init(&w);
  opd_execute(s, req, strlen(req), &w);
  opj_doc *d = w.buf ? opj_parse(w.buf, w.len, NULL, 0) : NULL;
  opj_w_free(&w);
  return d;
}

static int answer_err(opd_session *s, const char *req, const char *kind, const char *field,
                      const char *value) {
  opj_doc *d = run(s, req);
  const opj *er = d ? opj_get(opj_root(d), "error") : NULL;
  const opj *k = opj_get(er, "kind"), *f = opj_get(er, "field"), *v = opj_get(er, "value");
  int ok = k && f && v && k->type == OPJ_STR && f->type == OPJ_STR && v->type == OPJ_STR &&
           strcmp(k->str, kind) == 0 && strcmp(f->str, field) == 0 &&
           (!value || strcmp(v->str, value) == 0);
  if (!ok) fprintf(stderr, "  unexpected answer to %s\n", req);
  opj_free(d);
  return ok;
}

static int64_t answer_int(opd_session *s, const char *req, const char *key) {
  opj_doc *d = run(s, req);
  const opj *ok = d ? opj_get(opj_root(d), "ok") : NULL;
  int64_t v = -1;
  if (!ok || (key && opj_int(opj_get(ok, key), INT64_MIN, INT64_MAX, &v))) v = -1;
  if (ok && !key) v = 0;
  opj_free(d);
  return v;
}

#define LEVEL "\"preset\":\"Humanoid\",\"partition\":\"monotone\",\"detail_sample_distance\":0," \
              "\"level\":{\"name\":\"terrain\",\"seed\":\"00000000000000a1\",\"size\":4}"

/* RT-152: the cache handle is resolved before the op's other arguments (add_volume,
** snapshot_load with arguments that would fail too); the cache's own errors pass through
** with their kind, field and value (RT-053's unknown id; RT-023's obstacle range; RT-040's
** volume area); max_tiles 0 processes nothing (RT-060). */
OPT_TEST(protocol_errors, "RT-152, RT-053, RT-060") {
  opd_session *s = opd_session_new();
  OPT_CHECK(answer_err(s, "{\"id\":1,\"op\":\"tilecache.add_volume\",\"args\":{\"cache\":9,"
                          "\"volume\":3}}", "argument", "cache", "9"));
  OPT_CHECK(answer_err(s, "{\"id\":1,\"op\":\"tilecache.snapshot_load\",\"args\":{\"cache\":9,"
                          "\"bytes\":\"zz\"}}", "argument", "cache", "9"));
  OPT_CHECK(answer_err(s, "{\"id\":1,\"op\":\"tilecache.remove_volume\",\"args\":{\"cache\":9,"
                          "\"id\":1}}", "argument", "cache", "9"));
  int64_t c = answer_int(s, "{\"id\":1,\"op\":\"tilecache.soup\",\"args\":{" LEVEL "}}", "cache");
  OPT_CHECK(c == 1);
  OPT_CHECK(answer_err(s, "{\"id\":2,\"op\":\"tilecache.remove_volume\",\"args\":{\"cache\":1,"
                          "\"id\":5}}", "argument", "id", "5"));
  OPT_CHECK(answer_err(s, "{\"id\":2,\"op\":\"tilecache.remove_obstacle\",\"args\":{\"cache\":1,"
                          "\"id\":0}}", "argument", "id", "0"));
  OPT_CHECK(answer_err(s, "{\"id\":3,\"op\":\"tilecache.add_obstacle\",\"args\":{\"cache\":1,"
                          "\"obstacle\":{\"shape\":\"cylinder\",\"center\":[1,2,3],\"radius\":0,"
                          "\"height\":1}}}", "out_of_range", "obstacle.radius", "0"));
  OPT_CHECK(answer_err(s, "{\"id\":4,\"op\":\"tilecache.add_volume\",\"args\":{\"cache\":1,"
                          "\"volume\":{\"points\":[[0,0],[1,0],[1,1]],\"ymin\":0,\"ymax\":1,"
                          "\"area\":64}}}", "out_of_range", "volume.area", "64"));
  OPT_CHECK(answer_int(s, "{\"id\":5,\"op\":\"tilecache.add_volume\",\"args\":{\"cache\":1,"
                          "\"volume\":{\"points\":[[1,1],[3,1],[3,3]],\"ymin\":-50,\"ymax\":50,"
                          "\"area\":2}}}", "id") == 1);
  int64_t q = answer_int(s, "{\"id\":6,\"op\":\"tilecache.update\",\"args\":{\"cache\":1,"
                            "\"max_tiles\":0}}", "queued");
  OPT_CHECK(q >= 1);
  OPT_CHECK(answer_int(s, "{\"id\":6,\"op\":\"tilecache.update\",\"args\":{\"cache\":1,"
                          "\"max_tiles\":0}}", "processed") == 0);
  /* a snapshot of other bytes: the load's format error passes through */
  OPT_CHECK(answer_err(s, "{\"id\":7,\"op\":\"tilecache.snapshot_load\",\"args\":{\"cache\":1,"
                          "\"bytes\":\"4f50534e\"}}", "format", "version", "4"));
  OPT_CHECK(answer_int(s, "{\"id\":8,\"op\":\"tilecache.update\",\"args\":{\"cache\":1}}",
                       "processed") == q);
  opd_session_free(s);
}

/* ------------------------------------------------------------ internal entry points */

/* The repair's argument checks (ref/build3d/runtime/repair.h: the view, its graph, the first build's
** regions and contours must describe the same spans): each mismatch is argument naming the
** part, checked in the order of the parameters, and the result is not written. */
OPT_TEST(repair_arguments, "RT-100") {
  op_chf view;
  op_span_graph g;
  op_regions rg;
  op_contour_set cs, out;
  op_contour_params p;
  memset(&view, 0, sizeof view);
  memset(&g, 0, sizeof g);
  memset(&rg, 0, sizeof rg);
  memset(&cs, 0, sizeof cs);
  memset(&p, 0, sizeof p);
  view.nspans = g.nspans = rg.nspans = cs.nspans = 3;
  uint8_t areas[3] = {1, 1, 1};
  oprp_result res = (oprp_result)77;
  op_error e;
  g.nspans = 2;
  OPT_CHECK(err_is(oprp_layer(&view, &g, &rg, &cs, areas, 0, &p, 0, &res, &out, NULL, &e),
                   &e, OP_E_ARGUMENT, "graph", NULL));
  g.nspans = 3, rg.nspans = 4;
  OPT_CHECK(err_is(oprp_layer(&view, &g, &rg, &cs, areas, 0, &p, 0, &res, &out, NULL, &e),
                   &e, OP_E_ARGUMENT, "regions", NULL));
  rg.nspans = 3, cs.nspans = 0;
  OPT_CHECK(err_is(oprp_layer_tile(&view, &g, &rg, &cs, areas, 0, &p, 0, &res, &out, NULL, &e),
                   &e, OP_E_ARGUMENT, "contours", NULL));
  cs.nspans = 3;
  OPT_CHECK(err_is(oprp_layer(NULL, &g, &rg, &cs, areas, 0, &p, 0, &res, &out, NULL, &e),
                   &e, OP_E_ARGUMENT, "view", NULL));
  OPT_CHECK(err_is(oprp_layer(&view, &g, &rg, &cs, NULL, 0, &p, 0, &res, &out, NULL, &e),
                   &e, OP_E_ARGUMENT, "areas", NULL));
  OPT_CHECK(err_is(oprp_layer(&view, &g, &rg, &cs, areas, 0, NULL, 0, &res, &out, NULL, &e),
                   &e, OP_E_ARGUMENT, "params", NULL));
  OPT_CHECK(err_is(oprp_layer(&view, &g, &rg, &cs, areas, 0, &p, 0, NULL, &out, NULL, &e),
                   &e, OP_E_ARGUMENT, "out", NULL));
  OPT_CHECK(res == 77);
}

/* The layer-first steps' argument checks (ref/build3d/pipeline/pipeline_internal.h): a missing input or
** output is argument naming it; opl_layer_tile clears *tile first. */
OPT_TEST(layerfirst_arguments, "RT-083, RT-085") {
  op_chf chf;
  memset(&chf, 0, sizeof chf);
  uint16_t *layer = NULL;
  uint32_t n = 0;
  op_error e;
  OPT_CHECK(err_is(opl_base_layers(NULL, &layer, &n, &e), &e, OP_E_ARGUMENT, "chf", NULL));
  OPT_CHECK(err_is(opl_base_layers(&chf, NULL, &n, &e), &e, OP_E_ARGUMENT, "layer", NULL));
  OPT_CHECK(err_is(opl_base_layers(&chf, &layer, NULL, &e), &e, OP_E_ARGUMENT, "layer", NULL));
  op_chf *view = NULL;
  uint32_t *map = NULL;
  uint16_t l0 = 0;
  OPT_CHECK(err_is(opl_layer_view(NULL, &l0, 0, &view, &map, &e), &e, OP_E_ARGUMENT, "chf", NULL));
  OPT_CHECK(err_is(opl_layer_view(&chf, NULL, 0, &view, &map, &e), &e, OP_E_ARGUMENT, "layer", NULL));
  OPT_CHECK(err_is(opl_layer_view(&chf, &l0, 0, NULL, &map, &e), &e, OP_E_ARGUMENT, "view", NULL));
  OPT_CHECK(view == NULL && map == NULL);
  opl_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  op_regions rg;
  op_contour_set cs;
  OPT_CHECK(err_is(opl_layer_contours(&ctx, &chf, NULL, &cs, &e), &e, OP_E_ARGUMENT, "out", NULL));
  OPT_CHECK(err_is(opl_layer_contours(&ctx, NULL, &rg, &cs, &e), &e, OP_E_ARGUMENT, "view", NULL));
  op_tile *tile = (op_tile *)&ctx; /* not NULL: must be cleared */
  OPT_CHECK(err_is(opl_layer_tile(&ctx, NULL, &cs, 0, 0, 0, &tile, &e), &e, OP_E_ARGUMENT, "view", NULL));
  OPT_CHECK(tile == NULL);
  OPT_CHECK(err_is(opl_layer_tile(&ctx, &chf, &cs, 0, 0, 0, NULL, &e), &e, OP_E_ARGUMENT, "tile", NULL));
  opl_unit u;
  opl_base b;
  memset(&b, 0, sizeof b);
  OPT_CHECK(err_is(opl_layer_unit(&ctx, &b, 0, 0, 0, &u, &e), &e, OP_E_ARGUMENT, "base", NULL));
  OPT_CHECK(err_is(opl_layer_unit(&ctx, &b, 0, 0, 0, NULL, &e), &e, OP_E_ARGUMENT, "unit", NULL));
}

/* SNAP-019 6: a tile record at a position where the cache has no cached tile fails after
** the TCAC payload with format `tiles[i].x` (i the record's index, records ascending by
** slot) and the value "x,z,layer". A snapshot of a cache whose level has such a tile is
** made by hiding the receiving cache's last cached tile (ntiles lowered by hand, restored
** before the free; find_tile searches tiles[0 .. ntiles)), the sender's queue being empty
** so that the queue check (SNAP-019 5) passes. SNAP-019 3: a record's SPAN-033 failure is
** a format error also when the caller passes no op_error. */
OPT_TEST(tile_at_no_cached_tile, "SNAP-019") {
  op_settings s = humanoid(OP_PARTITION_WATERSHED, 16);
  op_trimesh m;
  op_tilecache *a = cached_level(&s, "terrain", 6, &m);
  op_soup soup = op_trimesh_soup(&m);
  op_tilecache *b = NULL;
  if (a) op_pipeline_build_soup_cached(&s, &soup, NULL, NULL, &b, NULL);
  if (!a || !b || a->ntiles < 2) {
    OPT_CHECK(0);
    op_tilecache_free(a);
    op_tilecache_free(b);
    op_trimesh_free(&m);
    return;
  }
  op_obstacle cyl = fx_cylinder(8, -10, 8, 1.5, 40);
  OPT_CHECK(op_tilecache_add_obstacle(a, &cyl, NULL, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_update_all(a, NULL, NULL) == OP_OK && a->nqueue == 0);
  op_bytes sa = fx_cache_snapshot(a);
  /* the last cached tile, and its first tile record in ascending slot order */
  const opl_keep_tile *last = &b->tiles[b->ntiles - 1].k;
  uint32_t rec = 0, found = 0;
  int32_t layer = 0;
  for (uint32_t k = 0; k < a->mesh->nslots && !found; k++) {
    const opm_occ *o = a->mesh->slots[k].occ;
    if (!o) continue;
    if (o->view.x == last->tx && o->view.z == last->tz) found = 1, layer = o->view.layer;
    else rec++;
  }
  OPT_CHECK(found);
  state before = take(b);
  b->ntiles--;
  op_error e;
  char fv[48], vv[48];
  snprintf(fv, sizeof fv, "tiles[%u].x", rec);
  snprintf(vv, sizeof vv, "%d,%d,%d", last->tx, last->tz, layer);
  OPT_CHECK(err_is(op_tilecache_snapshot_load(b, sa.data, sa.len, &e), &e, OP_E_FORMAT, fv, vv));
  b->ntiles++;
  state after = take(b);
  OPT_CHECK(same_state(&before, &after));
  /* the first obstacle's radius (after id, shape, centre) made -1: format, err NULL */
  uint8_t *c = malloc(sa.len);
  if (c) {
    memcpy(c, sa.data, sa.len);
    size_t ob = tcac_tag_at(&sa) + 16 + 8 + 4 + 4 + 4;
    double r = -1;
    uint64_t u;
    memcpy(&u, &r, 8);
    for (int k = 0; k < 8; k++) c[ob + 8 + 24 + k] = (uint8_t)(u >> (8 * k));
    OPT_CHECK(op_tilecache_snapshot_load(b, c, sa.len, NULL) == OP_E_FORMAT);
    OPT_CHECK(err_is(op_tilecache_snapshot_load(b, c, sa.len, &e), &e, OP_E_FORMAT,
                     "obstacles[0].radius", "-1"));
    free(c);
  }
  state again = take(b);
  OPT_CHECK(same_state(&before, &again));
  state_free(&before);
  state_free(&after);
  state_free(&again);
  op_bytes_free(&sa);
  op_tilecache_free(a);
  op_tilecache_free(b);
  op_trimesh_free(&m);
}

/* ------------------------------------------------------------ POLY-222 for columns */

/* POLY-222 with solid columns: 2049 x 2049 columns (within SPAN-072's 2^26) at TileSize 1
** need 2049^2 = 4198401 > 2^22 tiles: limit `tile_cells` with the value 1, for the cached
** and the plain build, and no cache is made. */
OPT_TEST(columns_tile_count_limit, "POLY-222, RT-016") {
  const uint32_t n = 2049;
  uint32_t *starts = calloc((size_t)n * n + 1, sizeof *starts);
  if (!starts) return; /* no memory for the fixture: nothing to test */
  op_settings s = humanoid(OP_PARTITION_WATERSHED, 1);
  op_solid_columns cols;
  memset(&cols, 0, sizeof cols);
  cols.width = cols.depth = n;
  cols.col_start = starts;
  op_error e;
  op_tilecache *c = NULL;
  OPT_CHECK((uint64_t)n * n > (1u << 22));
  OPT_CHECK(err_is(op_pipeline_build_heightfield_cached(&s, &cols, NULL, NULL, &c, &e), &e,
                   OP_E_LIMIT, "tile_cells", "1"));
  OPT_CHECK(c == NULL);
  op_pipeline_result r;
  OPT_CHECK(err_is(op_pipeline_build_heightfield(&s, &cols, NULL, &r, &e), &e, OP_E_LIMIT,
                   "tile_cells", "1"));
  free(starts);
}

/* The preparation of an obstacle for a grid (ref/build3d/spans/obstacles.h, RT-020, RT-025) checks its
** grid arguments after the obstacle: a cell size that is not finite and above 0 is
** out_of_range `cs`, a negative growth out_of_range `radius_cells`; a valid call fills
** the box of RT-025 (box shape: bmin - g, bmax + g with g = radius_cells * cs). */
OPT_TEST(obstacle_prepare_arguments, "RT-025") {
  op_obstacle o = fx_box(1, 0, 2, 3, 1, 5);
  opob_obst p;
  op_error e;
  OPT_CHECK(err_is(opob_prepare(&o, 2, NAN, &p, &e), &e, OP_E_RANGE, "cs", "NaN"));
  OPT_CHECK(err_is(opob_prepare(&o, 2, 0.0, &p, &e), &e, OP_E_RANGE, "cs", "0"));
  OPT_CHECK(err_is(opob_prepare(&o, 2, INFINITY, &p, &e), &e, OP_E_RANGE, "cs", "Infinity"));
  OPT_CHECK(err_is(opob_prepare(&o, -1, 0.5, &p, &e), &e, OP_E_RANGE, "radius_cells", "-1"));
  OPT_CHECK(opob_prepare(&o, 2, 0.5, &p, &e) == OP_OK);
  OPT_CHECK(p.bmin[0] == 0 && p.bmax[0] == 4 && p.bmin[1] == 1 && p.bmax[1] == 6);
}

/* ------------------------------------------------------------ RT-088, RT-013 */

/* A mesh built plainly with obstacles and volumes in the settings (RT-027, RT-043's route). */
static op_mesh *plain_with(const op_settings *s0, const op_soup *soup, const op_obstacle *o,
                           const op_convex_volume *v) {
  op_settings s = *s0;
  s.nobstacles = 1, s.obstacles = o;
  s.nvolumes = 1, s.volumes = v;
  return fx_plain(&s, soup);
}

/* RT-088, RT-013, RT-027: a level that is one flat strip two cells wide is built (its
** triangles are walkable, SPAN-182) but the filters and the erosion by the agent radius (at
** least one cell) leave no walkable span, so no unit has walkable columns (its compact
** heightfield may even hold no span at all: an empty unit): an obstacle and a volume over
** it queue its tiles (RT-050), and Update finds every unit's areas in force equal to its
** last-built ones (nothing can mark a span of area 0, SPAN-161, RT-022): each processed
** unit is skipped (RT-013 step 1), the mesh keeps its bytes, and it has the tiles of a
** plain build with the obstacle and the volume in the settings. Both paths. */
static void strip_case(opt_state *opt_s_, op_partition part) {
  op_settings s = humanoid(part, 32);
  double w = 48 * s.cell_size, d = 2 * s.cell_size, h = 0;
  double verts[12] = {0, 0, 0, w, 0, 0, w, 0, d, 0, 0, d};
  uint32_t tris[6] = {0, 2, 1, 0, 3, 2};
  op_soup soup = {4, verts, 2, tris};
  op_tilecache *c = NULL;
  op_error e;
  OPT_CHECK(op_pipeline_build_soup_cached(&s, &soup, NULL, NULL, &c, &e) == OP_OK);
  if (!c) return;
  OPT_CHECK(c->ntiles >= 1 && c->ctx.cell.walkable_radius >= 1);
  uint32_t units = 0;
  for (uint32_t i = 0; i < c->ntiles; i++) {
    units += c->tiles[i].k.nunits;
    const op_chf *hf = c->tiles[i].k.base.chf;
    uint32_t walk = 0;
    for (uint32_t j = 0; j < hf->nspans; j++) walk += hf->areas[j] != OP_AREA_NULL;
    OPT_CHECK(walk == 0); /* the fixture: no walkable span (the filters and erosion) */
  }
  op_bytes first = fx_mesh_bytes(c->mesh);
  op_obstacle o = fx_cylinder(w / 2, -1, d / 2, w / 3, h + 2);
  op_convex_volume v = fx_quad(0.25 * w, -1, 0.75 * w, d + 1, -1, h + 1, 4);
  OPT_CHECK(op_tilecache_add_obstacle(c, &o, NULL, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_add_volume(c, &v, NULL, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_queue_length(c) == c->ntiles);
  op_tilecache_stats_reset(c);
  uint32_t k = 0;
  OPT_CHECK(op_tilecache_update_all(c, &k, &e) == OP_OK && k == c->ntiles);
  op_tilecache_stats st;
  op_tilecache_stats_get(c, &st);
  OPT_CHECK(st.units_skipped == units && st.units_built == 0 && st.units_first == 0);
  op_bytes now = fx_mesh_bytes(c->mesh);
  OPT_CHECK(fx_same(&first, &now));
  op_mesh *pm = plain_with(&s, &soup, &o, &v);
  OPT_CHECK(pm != NULL);
  if (pm) {
    op_bytes pb = fx_mesh_bytes(pm);
    OPT_CHECK(fx_same(&first, &pb)); /* no tile at all on either side */
    op_bytes_free(&pb);
    op_mesh_free(pm);
  }
  op_bytes_free(&now);
  op_bytes_free(&first);
  op_tilecache_free(c);
}

OPT_TEST(no_walkable_unit_general, "RT-088, RT-013, RT-027") {
  strip_case(opt_s_, OP_PARTITION_WATERSHED);
}

OPT_TEST(no_walkable_unit_layer_first, "RT-088, RT-013, RT-027") {
  strip_case(opt_s_, OP_PARTITION_LAYERS);
}

/* ------------------------------------------------------------ RT-002, POLY-222, POLY-225 */

/* A cached build fails as the plain build does and makes no cache: the input checked after
** `cache` (argument `soup` / `chunks`, value NULL), and POLY-222's far-corner limit found
** by the run (a level ending just below 2^21 with TileSize 8192: the last tile would end
** beyond 2^21, limit `tile_cells` with the value 8192). *cache is not written. */
OPT_TEST(cached_build_fails, "RT-002, RT-016, POLY-222") {
  op_settings s = humanoid(OP_PARTITION_WATERSHED, 8192);
  op_tilecache *c = (op_tilecache *)&s; /* a sentinel: must stay */
  op_error e;
  OPT_CHECK(err_is(op_pipeline_build_soup_cached(&s, NULL, NULL, NULL, &c, &e), &e,
                   OP_E_ARGUMENT, "soup", "NULL"));
  OPT_CHECK(err_is(op_pipeline_build_chunk_cached(&s, NULL, NULL, NULL, &c, &e), &e,
                   OP_E_ARGUMENT, "chunks", "NULL"));
  const double x0 = 2097100;
  double verts[9] = {x0, 0, 0, x0 + 20, 0, 0, x0, 0, 20};
  uint32_t tris[3] = {0, 1, 2};
  op_soup soup = {3, verts, 1, tris};
  OPT_CHECK(x0 + 8192 * s.cell_size > 2097152.0); /* the premise, POLY-222 */
  OPT_CHECK(err_is(op_pipeline_build_soup_cached(&s, &soup, NULL, NULL, &c, &e), &e, OP_E_LIMIT,
                   "tile_cells", "8192"));
  op_pipeline_result r;
  OPT_CHECK(err_is(op_pipeline_build_soup(&s, &soup, NULL, &r, &e), &e, OP_E_LIMIT,
                   "tile_cells", "8192"));
  OPT_CHECK(c == (op_tilecache *)&s);
}

/* ------------------------------------------------------------ opm_batch */

/* The batch the cache's Update swaps through (ref/navmesh/mesh_internal.h; RT-061, MESH-001): a
** NULL mesh is argument `mesh`, changes missing for a non-empty batch argument `changes`,
** both with *failed left at SIZE_MAX (no change failed) and the mesh unchanged; an empty
** batch (NULL changes, NULL failed) succeeds and changes nothing. */
OPT_TEST(batch_arguments, "MESH-001, RT-061") {
  op_settings s = humanoid(OP_PARTITION_WATERSHED, 32);
  op_trimesh m;
  op_tilecache *c = cached_level(&s, "terrain", 8, &m);
  OPT_CHECK(c != NULL);
  if (!c) return;
  op_bytes b0 = fx_mesh_bytes(c->mesh);
  op_error e;
  size_t bad = 5;
  OPT_CHECK(err_is(opm_batch(NULL, NULL, 0, &bad, &e), &e, OP_E_ARGUMENT, "mesh", "NULL"));
  OPT_CHECK(bad == SIZE_MAX);
  bad = 5;
  OPT_CHECK(err_is(opm_batch(c->mesh, NULL, 1, &bad, &e), &e, OP_E_ARGUMENT, "changes", "NULL"));
  OPT_CHECK(bad == SIZE_MAX);
  OPT_CHECK(opm_batch(c->mesh, NULL, 0, NULL, &e) == OP_OK);
  op_bytes b1 = fx_mesh_bytes(c->mesh);
  OPT_CHECK(fx_same(&b0, &b1));
  op_bytes_free(&b0);
  op_bytes_free(&b1);
  op_tilecache_free(c);
  op_trimesh_free(&m);
}

/* ------------------------------------------------------------ RT-104, RT-106 */

/* The tiles of a mesh as sorted (x, z, layer, content id) keys: RT-027's "has the tiles of"
** (slots and generations may differ). */
static size_t tile_keys(const op_mesh *m, uint64_t *k, size_t cap) {
  size_t n = 0;
  for (uint32_t i = 0; i < m->nslots; i++) {
    const opm_occ *o = m->slots[i].occ;
    if (!o || n + 4 > cap) continue;
    k[n++] = (uint64_t)(uint32_t)o->view.x;
    k[n++] = (uint64_t)(uint32_t)o->view.z;
    k[n++] = (uint64_t)(uint32_t)o->view.layer;
    k[n++] = op_tile_content_id(o->tile);
  }
  for (size_t a = 4; a < n; a += 4) /* insertion sort of the 4-tuples */
    for (size_t b = a; b > 0 && memcmp(&k[b - 4], &k[b], 24) > 0; b -= 4)
      for (int q = 0; q < 4; q++) {
        uint64_t t = k[b - 4 + q];
        k[b - 4 + q] = k[b + q];
        k[b + q] = t;
      }
  return n;
}

static int same_tiles(const op_mesh *a, const op_mesh *b) {
  uint64_t ka[64], kb[64];
  size_t na = tile_keys(a, ka, 64), nb = tile_keys(b, kb, 64);
  return na == nb && memcmp(ka, kb, na * sizeof *ka) == 0;
}

/* RT-101 .. RT-106 with many new loops: 5 x 4 small cylinders close together inside one
** flat layer's one region (Layers, layer first) open 20 holes in one Update, more loops than
** the repair's first buffer holds (16). The preconditions hold (removal only, no region
** small, none split within RT-102's budget, numbers kept), so the layer is repaired, and the
** mesh has the tiles of (1) a cache with the repair off, which builds the layer by RT-085
** (RT-106, RT-107), and (2) a plain build with the 20 obstacles in the settings (RT-027). */
OPT_TEST(repair_many_holes, "RT-104, RT-106, RT-027") {
  const uint32_t N = 128;
  op_settings s = humanoid(OP_PARTITION_LAYERS, N);
  double verts[12];
  uint32_t tris[6];
  double cs = s.cell_size, side = N * cs;
  op_soup soup = plane(side, verts, tris);
  op_tilecache *a = NULL, *b = NULL;
  OPT_CHECK(op_pipeline_build_soup_cached(&s, &soup, NULL, NULL, &a, NULL) == OP_OK);
  OPT_CHECK(op_pipeline_build_soup_cached(&s, &soup, NULL, NULL, &b, NULL) == OP_OK);
  if (!a || !b) {
    op_tilecache_free(a);
    op_tilecache_free(b);
    return;
  }
  op_tilecache_set_repair(b, 0);
  op_obstacle o[20];
  for (int i = 0; i < 20; i++) {
    double x = (44.5 + 8 * (i % 5)) * cs, z = (48.5 + 8 * (i / 5)) * cs; /* cell centres */
    o[i] = fx_cylinder(x, -1, z, 0.5 * cs, 3);
    OPT_CHECK(op_tilecache_add_obstacle(a, &o[i], NULL, NULL) == OP_OK);
    OPT_CHECK(op_tilecache_add_obstacle(b, &o[i], NULL, NULL) == OP_OK);
  }
  op_tilecache_stats_reset(a);
  OPT_CHECK(op_tilecache_update_all(a, NULL, NULL) == OP_OK);
  OPT_CHECK(op_tilecache_update_all(b, NULL, NULL) == OP_OK);
  op_tilecache_stats st;
  op_tilecache_stats_get(a, &st);
  OPT_CHECK(st.units_repaired == 1 && st.repair_fallbacks == 0);
  OPT_CHECK(same_tiles(a->mesh, b->mesh));
  op_settings sp = s;
  sp.nobstacles = 20, sp.obstacles = o;
  op_pipeline_result r;
  op_error e;
  OPT_CHECK(op_pipeline_build_soup(&sp, &soup, NULL, &r, &e) == OP_OK);
  if (r.mesh) {
    OPT_CHECK(same_tiles(a->mesh, r.mesh));
    op_pipeline_result_free(&r);
  }
  op_tilecache_free(a);
  op_tilecache_free(b);
}

/* POLY-225, RT-016 with REG-006: the checkerboard of update_stage_fails_* given as the
** settings' volumes makes the FIRST build's tile exceed 32767 regions: the cached build
** fails as the plain build does (limit `regions`, the same count, message prefixed with the
** tile), and no cache is made. General path and layer first. */
static void first_build_fails_case(opt_state *opt_s_, op_partition part) {
  const uint32_t N = 200;
  op_settings s = humanoid(part, N);
  double verts[12];
  uint32_t tris[6];
  op_soup soup = plane(N * s.cell_size, verts, tris);
  op_convex_volume *v = calloc(400, sizeof *v);
  if (!v) return;
  uint32_t nv = 0;
  for (int d = -40; d <= 2 * (int)N + 40 && nv < 400; d += 2)
    v[nv++] = stripe(s.cell_size, d, N, 7); /* not OP_AREA_WALKABLE (63, SPAN-104) */
  s.nvolumes = nv, s.volumes = v;
  op_tilecache *c = (op_tilecache *)&s; /* a sentinel: must stay */
  op_error e1, e2;
  op_pipeline_result r;
  op_status st1 = op_pipeline_build_soup_cached(&s, &soup, NULL, NULL, &c, &e1);
  op_status st2 = op_pipeline_build_soup(&s, &soup, NULL, &r, &e2);
  OPT_CHECK(st1 == OP_E_LIMIT && strcmp(e1.field, "regions") == 0);
  OPT_CHECK(strtoul(e1.value, NULL, 10) > 32767);
  OPT_CHECK(strncmp(e1.message, "tile (0, 0): ", 13) == 0);
  OPT_CHECK(st2 == st1 && strcmp(e2.field, e1.field) == 0 && strcmp(e2.value, e1.value) == 0 &&
            strcmp(e2.message, e1.message) == 0);
  OPT_CHECK(c == (op_tilecache *)&s);
  free(v);
}

OPT_TEST(first_build_fails_general, "POLY-225, RT-016, REG-006") {
  first_build_fails_case(opt_s_, OP_PARTITION_MONOTONE);
}

OPT_TEST(first_build_fails_layer_first, "POLY-225, RT-016, RT-086, REG-006") {
  first_build_fails_case(opt_s_, OP_PARTITION_LAYERS);
}

OPT_MAIN_BEGIN
OPT_RUN(null_rules);
OPT_RUN(live_count_limits);
OPT_RUN(removal_cost_and_order);
OPT_RUN(update_stage_fails_general);
OPT_RUN(update_stage_fails_layer_first);
OPT_RUN(tcac_cut_everywhere);
OPT_RUN(protocol_errors);
OPT_RUN(repair_arguments);
OPT_RUN(layerfirst_arguments);
OPT_RUN(tile_at_no_cached_tile);
OPT_RUN(columns_tile_count_limit);
OPT_RUN(obstacle_prepare_arguments);
OPT_RUN(no_walkable_unit_general);
OPT_RUN(no_walkable_unit_layer_first);
OPT_RUN(cached_build_fails);
OPT_RUN(batch_arguments);
OPT_RUN(repair_many_holes);
OPT_RUN(first_build_fails_general);
OPT_RUN(first_build_fails_layer_first);
OPT_MAIN_END
