/*
** tilecache.c -- the run-time tile cache (spec/build3d-runtime.md): the cached builds
** (RT-015, RT-016), the cache's mesh (RT-018), obstacles and area volumes added and
** removed at run time (RT-020 .. RT-043, RT-053), the queue (RT-050, RT-051) and Update
** (RT-060 .. RT-066) on the general and the layer-first path (RT-080 .. RT-088), with the
** repair of ref/build3d/runtime/repair.c (RT-101 .. RT-106) when the switch is on.
**
** The state is ref/build3d/runtime/tilecache.h's. The fingerprint (RT-131) is
** ref/build3d/runtime/fingerprint.c's; SaveState and RestoreState are in
** ref/build3d/runtime/tilecache_snapshot.c, which calls down into this file. The build steps
** are ref/build3d/pipeline/pipeline.c's (ref/build3d/pipeline/pipeline_internal.h), so a
** cached build runs the plain build's code (RT-015).
** Speed (no result changes): RT-050's widened grid box of every tile is computed once at the
** build into one array (qbox), so queueing an obstacle reads 32 bytes per tile instead of
** following each tile's heightfield pointer, a cache miss per tile on a large level.
*/
#include <assert.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "core/alloc.h"
#include "core/internal.h"
#include "navmesh/mesh_internal.h"
#include "build3d/spans/obstacles.h"
#include "build3d/runtime/repair.h"
#include "build3d/spans/spans_internal.h"
#include "build3d/runtime/tilecache.h"
#include "build3d/spans/volumes.h"

static op_status no_cache(op_error *err) {
  return op_fail(err, OP_E_ARGUMENT, "cache", "NULL", "a tile cache is required");
}

/* Cache order (RT-011; tilecache.h): k comes before tile (tx, tz) when its tz is smaller,
** or equal with a smaller tx. */
static int before(const opl_keep_tile *k, int32_t tx, int32_t tz) {
  return k->tz < tz || (k->tz == tz && k->tx < tx);
}

/* ------------------------------------------------------------ units */

/* The compact heightfield a unit's areas live in: the layer view (layer first, RT-083)
** or the tile's heightfield (general path). NULL for an empty layer. */
static const op_chf *unit_chf(const op_tilecache *c, const optc_tile *t, uint32_t L) {
  return c->ctx.layer_first ? t->k.units[L].view : t->k.base.chf;
}

/* RT-088: the x/z box of the unit's walkable columns, from X(gx0 + xmin) to
** X(gx0 + xmax + 1) and likewise on z, over columns with a non-zero first-build area. */
static void unit_walkable_box(const op_chf *h, optc_unit *u) {
  int32_t x0 = INT32_MAX, x1 = -1, z0 = INT32_MAX, z1 = -1;
  const op_hf_grid *g = &h->grid;
  for (int32_t z = 0; z < g->depth; z++)
    for (int32_t x = 0; x < g->width; x++) {
      size_t col = (size_t)z * (size_t)g->width + (size_t)x;
      uint32_t i = h->cell_index[col], end = i + h->cell_count[col];
      while (i < end && h->areas[i] == OP_AREA_NULL) i++;
      if (i == end) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (z < z0) z0 = z;
      if (z > z1) z1 = z;
    }
  u->walkable = x1 >= 0;
  if (!u->walkable) return;
  u->wmin[0] = opsp_grid_line_x(g, x0);
  u->wmax[0] = opsp_grid_line_x(g, x1 + 1);
  u->wmin[1] = opsp_grid_line_z(g, z0);
  u->wmax[1] = opsp_grid_line_z(g, z1 + 1);
}

static int boxes_touch(const double amin[2], const double amax[2], const double bmin[2],
                       const double bmax[2]) {
  return amin[0] <= bmax[0] && bmin[0] <= amax[0] && amin[1] <= bmax[1] && bmin[1] <= amax[1];
}

/* RT-088: an obstacle's box widened by one cell on each side against the unit's box. */
static int obstacle_touches(const optc_unit *u, const opob_obst *p) {
  if (!u->walkable) return 0;
  double lo[2] = {p->bmin[0] - p->cs, p->bmin[1] - p->cs};
  double hi[2] = {p->bmax[0] + p->cs, p->bmax[1] + p->cs};
  return boxes_touch(lo, hi, u->wmin, u->wmax);
}

/* RT-041: the unit's areas in force, written to out (the unit's span count): a copy of
** its first-build areas, then the live obstacles in the order they were added, then the
** live volumes likewise (RT-088 leaves out what cannot touch the unit). Returns 1 when an
** obstacle or a volume was applied (else out is untouched: the areas in force are the
** first-build areas). *vsel: a volume selects a span (RT-101 (a)). */
static int unit_areas(const op_tilecache *c, const optc_tile *t, uint32_t L, uint8_t *out,
                      int *vsel) {
  const op_chf *h = unit_chf(c, t, L);
  const optc_unit *u = &t->units[L];
  *vsel = 0;
  if (!h || !u->walkable) return 0;
  op_chf tmp = *h; /* the same spans and grid, the areas in out */
  tmp.areas = out;
  int touched = 0;
  for (uint32_t i = 0; i < c->nobst; i++) { /* RT-041: obstacles in the order added */
    if (c->obst[i].dead || !obstacle_touches(u, &c->obst[i].prep)) continue;
    if (!touched) memcpy(out, h->areas, h->nspans);
    touched = 1;
    opob_mark(&tmp, &c->obst[i].prep); /* RT-022 */
  }
  for (uint32_t i = 0; i < c->nvols; i++) { /* then volumes in the order added */
    if (c->vols[i].dead || !boxes_touch(c->vols[i].bmin, c->vols[i].bmax, u->wmin, u->wmax))
      continue;
    if (!touched) memcpy(out, h->areas, h->nspans);
    touched = 1;
    if (opv_mark(&tmp, &c->vols[i].v)) *vsel = 1; /* SPAN-161 .. SPAN-163 */
  }
  return touched;
}

/* RT-101: spans with a non-zero first-build area and area 0 in force. */
static uint64_t count_removed(const uint8_t *a0, const uint8_t *a, uint32_t n) {
  uint64_t k = 0;
  for (uint32_t i = 0; i < n; i++) k += a0[i] != OP_AREA_NULL && a[i] == OP_AREA_NULL;
  return k;
}

/* ------------------------------------------------------------ the cached build */

static void tile_free(optc_tile *t) {
  for (uint32_t L = 0; t->units && L < t->k.nunits; L++) {
    free(t->units[L].last);
    op_span_graph_free(&t->units[L].vgraph);
  }
  free(t->units);
  for (uint32_t L = 0; t->k.units && L < t->k.nunits; L++) opl_unit_free(&t->k.units[L]);
  free(t->k.units);
  opl_base_free(&t->k.base);
  memset(t, 0, sizeof *t);
}

void op_tilecache_free(op_tilecache *c) {
  if (!c) return;
  for (uint32_t i = 0; c->tiles && i < c->ntiles; i++) tile_free(&c->tiles[i]);
  free(c->tiles);
  free(c->obst);
  free(c->vols);
  free(c->queue);
  free(c->qbox);
  op_mesh_free(c->mesh);
  free(c);
}

/* RT-011 item 4 for one adopted tile: the heightfield's hash (RT-131), and per unit its
** last-built areas (the first-build ones, RT-012) and its walkable box (RT-088). No span
** graph of the whole tile is kept (RT-011 item 2): no rebuild reads one (the general path
** builds its own, the repair uses the layer view's, optc_unit.vgraph). */
static op_status tile_prepare(op_tilecache *c, optc_tile *t, op_error *err) {
  op_status st;
  op_bytes b = {NULL, 0};
  if ((st = op_chf_save(t->k.base.chf, &b, err)) != OP_OK) return st; /* SPAN-170 */
  t->chf_hash = op_hash64(b.data, b.len);
  op_bytes_free(&b);
  t->units = calloc(t->k.nunits ? t->k.nunits : 1, sizeof *t->units);
  if (!t->units) return opc_nomem(err, "cache");
  for (uint32_t L = 0; L < t->k.nunits; L++) {
    const op_chf *h = unit_chf(c, t, L);
    uint32_t n = h ? h->nspans : 0;
    t->units[L].last = malloc(n ? n : 1);
    if (!t->units[L].last) return opc_nomem(err, "cache");
    if (n) memcpy(t->units[L].last, h->areas, n); /* RT-012 */
    if (h) unit_walkable_box(h, &t->units[L]);
  }
  return OP_OK;
}

/* RT-050: each tile's bordered grid widened by R + 1 cells, the box opob_grid_overlaps
** (ref/build3d/spans/obstacles.c) computes, by the same expressions; kept in one array so
** that queueing reads 32 bytes per tile, not each tile's heightfield. */
static op_status queue_boxes(op_tilecache *c, op_error *err) {
  c->qbox = malloc(4 * (size_t)(c->ntiles ? c->ntiles : 1) * sizeof *c->qbox);
  if (!c->qbox) return opc_nomem(err, "cache");
  int64_t w = (int64_t)c->ctx.cell.walkable_radius + 1;
  for (uint32_t i = 0; i < c->ntiles; i++) {
    const op_hf_grid *g = &c->tiles[i].k.base.chf->grid;
    double *q = &c->qbox[4 * (size_t)i];
    q[0] = g->origin[0] + (double)((int64_t)g->gx0 - w) * g->cs;
    q[1] = g->origin[0] + (double)((int64_t)g->gx0 + g->width + w) * g->cs;
    q[2] = g->origin[2] + (double)((int64_t)g->gz0 - w) * g->cs;
    q[3] = g->origin[2] + (double)((int64_t)g->gz0 + g->depth + w) * g->cs;
  }
  return OP_OK;
}

/* RT-016: the cache around a finished opl_run: adopts keep's tiles (cache order) and
** the mesh, empties the settings' lists (RT-017). */
static op_status adopt(opl_ctx *ctx, op_pipeline_result *r, opl_keep *keep,
                       op_tilecache **out, op_error *err) {
  op_tilecache *c = calloc(1, sizeof *c);
  optc_tile *tiles = calloc(keep->ntiles ? keep->ntiles : 1, sizeof *tiles);
  uint32_t *queue = malloc((keep->ntiles ? keep->ntiles : 1) * sizeof *queue);
  if (!c || !tiles || !queue) {
    free(c), free(tiles), free(queue);
    opl_keep_free(keep);
    op_pipeline_result_free(r);
    return opc_nomem(err, "cache");
  }
  c->tiles = tiles;
  c->queue = queue;
  c->ntiles = keep->ntiles;
  for (uint32_t i = 0; i < keep->ntiles; i++) {
    c->tiles[i].k = keep->tiles[i]; /* moved */
    assert(i == 0 || before(&c->tiles[i - 1].k, c->tiles[i].k.tx, c->tiles[i].k.tz));
  }
  free(keep->tiles);
  memset(keep, 0, sizeof *keep);
  c->mesh = r->mesh; /* RT-002: the mesh belongs to the cache */
  r->mesh = NULL;
  c->ctx = *ctx;
  c->ctx.s.nvolumes = 0, c->ctx.s.volumes = NULL; /* RT-017: never read again */
  c->ctx.s.nobstacles = 0, c->ctx.s.obstacles = NULL;
  c->ctx.soup = NULL, c->ctx.chunk = NULL, c->ctx.cols = NULL, c->ctx.hooks = NULL;
  c->next_obstacle_id = c->next_volume_id = 1; /* RT-130 */
  c->repair = 1;                               /* RT-101: on by default */
  op_status st = queue_boxes(c, err);
  for (uint32_t i = 0; st == OP_OK && i < c->ntiles; i++) st = tile_prepare(c, &c->tiles[i], err);
  if (st != OP_OK) {
    op_tilecache_free(c);
    op_pipeline_result_free(r);
    return st;
  }
  if (c->mesh) c->mesh->cache_owned = 1; /* RT-018 */
  c->fingerprint = optc_fingerprint_compute(c); /* RT-131 */
  *out = c;
  return OP_OK;
}

/* RT-016: the plain build's code with keep, then the cache. */
static op_status build_cached(opl_ctx *ctx, uint32_t threads, op_pipeline_result *out,
                              op_tilecache **cache, op_error *err) {
  op_pipeline_result r;
  opl_keep keep;
  memset(&r, 0, sizeof r);
  memset(&keep, 0, sizeof keep);
  op_status st = opl_check_budget(ctx, NULL, err); /* RT-016: SPAN-204's default budget */
  ctx->threads = opl_threads_resolve(threads); /* POLY-228: the same bytes for any thread count */
  if (st == OP_OK) st = opl_run(ctx, &r, &keep, err);
  if (st != OP_OK) return st;
  op_tilecache *c = NULL;
  if ((st = adopt(ctx, &r, &keep, &c, err)) != OP_OK) return st;
  if (out) *out = r; /* RT-002: mesh NULL */
  else op_pipeline_result_free(&r);
  *cache = c;
  op_clear(err);
  return OP_OK;
}

/* The options of a cached build: only `threads` (POLY-228) is read; a cached build is of the
** whole grid under the default budget (RT-016), so tile_range and limits must be unset. */
static op_status cached_opt(const op_pipeline_options *opt, op_tilecache **cache, uint32_t *threads,
                            op_error *err) {
  *threads = 0;
  if (!cache) return op_fail(err, OP_E_ARGUMENT, "cache", "NULL", "output pointer is required");
  if (!opt) return OP_OK;
  if (opt->threads > OP_PIPELINE_MAX_THREADS)
    return op_fail_i(err, OP_E_RANGE, "threads", (long long)opt->threads,
                     "threads must be 0 (the processors online) to 256");
  if (opt->tile_range)
    return op_fail_i(err, OP_E_ARGUMENT, "tile_range", (long long)opt->tile_range,
                     "a cached build is of the whole grid (RT-016)");
  if (opt->limits)
    return op_fail(err, OP_E_ARGUMENT, "limits", "set", "a cached build runs under the default budget (RT-016)");
  *threads = opt->threads;
  return OP_OK;
}

/* The three public entry points differ only in their input and its opl_begin_* step; the
** repeated shape is kept (one line each to factor out would cost clarity). */
op_status op_pipeline_build_soup_cached_opt(const op_settings *s, const op_soup *soup,
                                            const op_pipeline_options *opt,
                                            const op_pipeline_hooks *hooks,
                                            op_pipeline_result *out, op_tilecache **cache,
                                            op_error *err) {
  uint32_t threads;
  op_status st = cached_opt(opt, cache, &threads, err);
  if (st != OP_OK) return st;
  opl_ctx ctx;
  st = opl_begin_soup(&ctx, s, soup, hooks, err);
  return st == OP_OK ? build_cached(&ctx, threads, out, cache, err) : st;
}

op_status op_pipeline_build_chunk_cached_opt(const op_settings *s, const op_chunked *ch,
                                             const op_pipeline_options *opt,
                                             const op_pipeline_hooks *hooks,
                                             op_pipeline_result *out, op_tilecache **cache,
                                             op_error *err) {
  uint32_t threads;
  op_status st = cached_opt(opt, cache, &threads, err);
  if (st != OP_OK) return st;
  opl_ctx ctx;
  st = opl_begin_chunk(&ctx, s, ch, hooks, err);
  return st == OP_OK ? build_cached(&ctx, threads, out, cache, err) : st;
}

op_status op_pipeline_build_heightfield_cached_opt(const op_settings *s,
                                                   const op_solid_columns *cols,
                                                   const op_pipeline_options *opt,
                                                   const op_pipeline_hooks *hooks,
                                                   op_pipeline_result *out,
                                                   op_tilecache **cache, op_error *err) {
  uint32_t threads;
  op_status st = cached_opt(opt, cache, &threads, err);
  if (st != OP_OK) return st;
  opl_ctx ctx;
  st = opl_begin_columns(&ctx, s, cols, hooks, err);
  return st == OP_OK ? build_cached(&ctx, threads, out, cache, err) : st;
}

op_status op_pipeline_build_soup_cached(const op_settings *s, const op_soup *soup,
                                        const op_pipeline_hooks *hooks,
                                        op_pipeline_result *out, op_tilecache **cache,
                                        op_error *err) {
  return op_pipeline_build_soup_cached_opt(s, soup, NULL, hooks, out, cache, err);
}

op_status op_pipeline_build_chunk_cached(const op_settings *s, const op_chunked *ch,
                                         const op_pipeline_hooks *hooks,
                                         op_pipeline_result *out, op_tilecache **cache,
                                         op_error *err) {
  return op_pipeline_build_chunk_cached_opt(s, ch, NULL, hooks, out, cache, err);
}

op_status op_pipeline_build_heightfield_cached(const op_settings *s,
                                               const op_solid_columns *cols,
                                               const op_pipeline_hooks *hooks,
                                               op_pipeline_result *out,
                                               op_tilecache **cache, op_error *err) {
  return op_pipeline_build_heightfield_cached_opt(s, cols, NULL, hooks, out, cache, err);
}

/* ------------------------------------------------------------ accessors */

op_mesh *op_tilecache_mesh(op_tilecache *c) { return c ? c->mesh : NULL; }

void op_tilecache_set_alloc(op_tilecache *c, op_alloc_count *a) { /* CONF-059: tests only */
  if (!c) return;
  c->alloc = a;
  op_mesh_set_alloc(c->mesh, a); /* the batch of Update and the restore count there too */
}

uint32_t op_tilecache_queue_length(const op_tilecache *c) { return c ? c->nqueue : 0; }

int op_tilecache_queued(const op_tilecache *c, uint32_t i, int32_t *tx, int32_t *tz) {
  if (!c || i >= c->nqueue) return 0;
  const optc_tile *t = &c->tiles[c->queue[i]];
  if (tx) *tx = t->k.tx;
  if (tz) *tz = t->k.tz;
  return 1;
}

void op_tilecache_set_repair(op_tilecache *c, int on) { /* RT-107 */
  if (c) c->repair = on != 0;
}

int op_tilecache_repair(const op_tilecache *c) { return c ? c->repair : 0; }

uint64_t op_tilecache_fingerprint(const op_tilecache *c) { return c ? c->fingerprint : 0; }

void op_tilecache_stats_get(const op_tilecache *c, op_tilecache_stats *out) {
  if (!out) return;
  if (c) *out = c->stats;
  else memset(out, 0, sizeof *out);
}

void op_tilecache_stats_reset(op_tilecache *c) {
  if (c) memset(&c->stats, 0, sizeof c->stats);
}

int64_t optc_find_tile(const op_tilecache *c, int32_t tx, int32_t tz) {
  uint32_t lo = 0, hi = c->ntiles;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (before(&c->tiles[mid].k, tx, tz)) lo = mid + 1;
    else hi = mid;
  }
  if (lo < c->ntiles && c->tiles[lo].k.tx == tx && c->tiles[lo].k.tz == tz) return lo;
  return -1;
}

void optc_forget_last(op_tilecache *c) { /* RT-133 */
  for (uint32_t i = 0; i < c->ntiles; i++)
    for (uint32_t L = 0; L < c->tiles[i].k.nunits; L++) {
      free(c->tiles[i].units[L].last);
      c->tiles[i].units[L].last = NULL;
    }
}

void optc_queue_clear(op_tilecache *c) {
  for (uint32_t i = 0; i < c->nqueue; i++) c->tiles[c->queue[i]].queued = 0;
  c->nqueue = 0;
}

void optc_queue_push(op_tilecache *c, uint32_t i) { /* RT-051 */
  if (i >= c->ntiles || c->tiles[i].queued) return;
  assert(c->nqueue < c->ntiles); /* tilecache.h: distinct entries, so room for one more */
  c->tiles[i].queued = 1;
  c->queue[c->nqueue++] = i;
}

/* ------------------------------------------------------------ obstacles and volumes */

/* RT-024, RT-040: -0.0 stored as +0.0; every other value (NaN payloads of fields a shape
** does not use included) is left as it is. */
static void plus_zero(double *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (v[i] == 0) v[i] = 0.0;
}

/* RT-050, RT-051: every cached tile whose widened grid touches the box, in cache order. */
static void queue_box(op_tilecache *c, const double bmin[2], const double bmax[2]) {
  for (uint32_t i = 0; i < c->ntiles; i++) {
    const double *q = &c->qbox[4 * (size_t)i]; /* opob_grid_overlaps' test on its box */
    if (q[0] <= bmax[0] && bmin[0] <= q[1] && q[2] <= bmax[1] && bmin[1] <= q[3])
      optc_queue_push(c, i);
  }
}

/* Room for one more entry of n, capacity *cap (grown by doubling; counted on al, CONF-059). */
static int grow(op_alloc_count *al, void **arr, uint32_t n, uint32_t *cap, size_t size) {
  if (n < *cap) return 1;
  uint32_t nc = *cap ? 2 * *cap : 8;
  if (nc > 2 * OPTC_MAX_LIVE) nc = 2 * OPTC_MAX_LIVE; /* live + dead (tilecache.h) */
  void *p = opc_realloc(al, *arr, (size_t)nc * size);
  if (!p) return 0;
  *arr = p;
  *cap = nc;
  return 1;
}

op_status op_tilecache_add_obstacle(op_tilecache *c, const op_obstacle *o, uint32_t *id,
                                    op_error *err) {
  if (!c) return no_cache(err);
  op_status st = opob_validate(o, "obstacle.", err); /* RT-023 */
  if (st != OP_OK) return st;
  if (optc_live_obstacles(c) >= OPTC_MAX_LIVE) /* RT-026 */
    return op_fail_i(err, OP_E_LIMIT, "obstacles", OPTC_MAX_LIVE, "at most 65536 live obstacles");
  if (c->next_obstacle_id >= OPTC_ID_END)
    return op_fail_i(err, OP_E_LIMIT, "obstacle_id", OPTC_ID_END, "obstacle ids are used up");
  optc_obstacle e;
  memset(&e, 0, sizeof e);
  e.o = *o;
  plus_zero(e.o.center, 3), plus_zero(&e.o.radius, 1), plus_zero(&e.o.height, 1); /* RT-024 */
  plus_zero(e.o.bmin, 3), plus_zero(e.o.bmax, 3), plus_zero(e.o.half, 3), plus_zero(&e.o.yaw, 1);
  /* RT-020, RT-025: grown by the agent radius (validated above) */
  opob_prepare_valid(&e.o, c->ctx.cell.walkable_radius, c->ctx.s.cell_size, &e.prep);
  if (!grow(c->alloc, (void **)&c->obst, c->nobst, &c->capobst, sizeof *c->obst))
    return opc_nomem(err, "obstacles");
  e.id = c->next_obstacle_id++; /* RT-130 */
  assert(e.id >= 1 && (c->nobst == 0 || c->obst[c->nobst - 1].id < e.id)); /* ascending ids */
  c->obst[c->nobst++] = e;
  queue_box(c, e.prep.bmin, e.prep.bmax); /* RT-050 */
  if (id) *id = e.id;
  op_clear(err);
  return OP_OK;
}

op_status op_tilecache_add_volume(op_tilecache *c, const op_convex_volume *v, uint32_t *id,
                                  op_error *err) {
  if (!c) return no_cache(err);
  op_status st = opv_validate(v, "volume.", err); /* RT-040: SPAN-031 */
  if (st != OP_OK) return st;
  if (optc_live_volumes(c) >= OPTC_MAX_LIVE)
    return op_fail_i(err, OP_E_LIMIT, "volumes", OPTC_MAX_LIVE, "at most 65536 live volumes");
  if (c->next_volume_id >= OPTC_ID_END)
    return op_fail_i(err, OP_E_LIMIT, "volume_id", OPTC_ID_END, "volume ids are used up");
  optc_volume e;
  memset(&e, 0, sizeof e);
  e.v = *v;
  plus_zero(&e.v.points[0][0], 2 * (size_t)e.v.npoints); /* RT-040: -0.0 as +0.0 */
  plus_zero(&e.v.ymin, 1), plus_zero(&e.v.ymax, 1);
  opv_box(&e.v, e.bmin, e.bmax); /* RT-042 */
  if (!grow(c->alloc, (void **)&c->vols, c->nvols, &c->capvols, sizeof *c->vols))
    return opc_nomem(err, "volumes");
  e.id = c->next_volume_id++; /* RT-130 */
  assert(e.id >= 1 && (c->nvols == 0 || c->vols[c->nvols - 1].id < e.id)); /* ascending ids */
  c->vols[c->nvols++] = e;
  queue_box(c, e.bmin, e.bmax); /* RT-050 */
  if (id) *id = e.id;
  op_clear(err);
  return OP_OK;
}

uint32_t optc_live_obstacles(const op_tilecache *c) { return c->nobst - c->ndead_obst; }
uint32_t optc_live_volumes(const op_tilecache *c) { return c->nvols - c->ndead_vols; }

/* The position of id among n entries of ascending ids (stride bytes apart), or -1. Dead
** entries keep their ids, so the search still sees an ascending array. */
static int64_t find_id(const void *arr, uint32_t n, size_t stride, uint32_t id) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    uint32_t m = *(const uint32_t *)((const char *)arr + (size_t)mid * stride);
    if (m < id) lo = mid + 1;
    else hi = mid;
  }
  if (lo < n && *(const uint32_t *)((const char *)arr + (size_t)lo * stride) == id) return lo;
  return -1;
}

/* Removes the dead entries of obst[] (or vols[]) in one stable pass once they outnumber
** the live ones, so that RT-041's order is kept and each removal costs amortised O(1)
** moves (tilecache.h). The "dead" byte is at dead_off within each entry. */
static void compact(void *arr, uint32_t *n, uint32_t *ndead, size_t stride, size_t dead_off,
                    uint64_t *moved) {
  if (2 * (uint64_t)*ndead <= *n) return;
  char *a = arr;
  uint32_t k = 0;
  for (uint32_t i = 0; i < *n; i++) {
    if (a[(size_t)i * stride + dead_off]) continue;
    if (k != i) memcpy(a + (size_t)k * stride, a + (size_t)i * stride, stride), ++*moved;
    k++;
  }
  *n = k;
  *ndead = 0;
}

static op_status unknown_id(op_error *err, uint32_t id, const char *what) {
  return op_fail_i(err, OP_E_ARGUMENT, "id", (long long)id, what); /* RT-053 */
}

op_status op_tilecache_remove_obstacle(op_tilecache *c, uint32_t id, op_error *err) {
  if (!c) return no_cache(err);
  int64_t k = find_id(c->obst, c->nobst, sizeof *c->obst, id);
  if (k < 0 || c->obst[k].dead) return unknown_id(err, id, "no live obstacle has this id");
  queue_box(c, c->obst[k].prep.bmin, c->obst[k].prep.bmax); /* RT-050: the removed box */
  c->obst[k].dead = 1, c->ndead_obst++;
  compact(c->obst, &c->nobst, &c->ndead_obst, sizeof *c->obst, offsetof(optc_obstacle, dead),
          &c->moved);
  op_clear(err);
  return OP_OK;
}

op_status op_tilecache_remove_volume(op_tilecache *c, uint32_t id, op_error *err) {
  if (!c) return no_cache(err);
  int64_t k = find_id(c->vols, c->nvols, sizeof *c->vols, id);
  if (k < 0 || c->vols[k].dead) return unknown_id(err, id, "no live volume has this id");
  queue_box(c, c->vols[k].bmin, c->vols[k].bmax);
  c->vols[k].dead = 1, c->ndead_vols++;
  compact(c->vols, &c->nvols, &c->ndead_vols, sizeof *c->vols, offsetof(optc_volume, dead),
          &c->moved);
  op_clear(err);
  return OP_OK;
}

/* ------------------------------------------------------------ Update */

/* What Update does for one unit, decided before the mesh changes (RT-061). */
typedef struct tc_step {
  uint32_t tile, unit;
  int skip;          /* RT-013 step 1: nothing to do */
  uint8_t *areas;    /* the areas in force when they differ from the first build's (owned) */
  uint8_t *last;     /* a fresh last-built list when the unit's is unknown (owned) */
  op_tile *tile_new; /* T: owned when own, else the first build's (borrowed) */
  int own;
} tc_step;

static void steps_free(tc_step *st, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(st[i].areas);
    free(st[i].last);
    if (st[i].own) op_tile_free(st[i].tile_new);
  }
  free(st);
}

/* The statistics of one repair attempt: repaired, or a fallback and its reason (RT-101). */
static void count_repair(op_tilecache_stats *sl, oprp_result res) {
  if (res == OPRP_DONE) {
    sl->units_repaired++;
    return;
  }
  sl->repair_fallbacks++;
  sl->fallbacks_not_removal += res == OPRP_NOT_REMOVAL; /* (a) */
  sl->fallbacks_small += res == OPRP_SMALL;             /* (b) */
  sl->fallbacks_split += res == OPRP_SPLIT;             /* (c) */
  sl->fallbacks_renumber += res == OPRP_RENUMBER;       /* (d) */
}

/* RT-101 .. RT-105 through ref/build3d/runtime/repair.c: *done 1 and *cs set when the layer was
** repaired; 0 when the switch is on but a precondition failed (the caller builds the
** layer by RT-085; RT-106: the same tile data either way). Counts the removed spans
** (RT-101) in sl. The view's span graph is built on first use and kept (not state). */
static op_status try_repair(op_tilecache *c, optc_tile *t, uint32_t L, const uint8_t *a,
                            int vsel, op_contour_set *cs, int *done, op_tilecache_stats *sl,
                            op_error *err) {
  opl_unit *u = &t->k.units[L];
  optc_unit *tu = &t->units[L];
  op_status st = OP_OK;
  if (!tu->vgraph.column && u->view->nspans) /* built once, kept (not state) */
    st = op_span_graph_build(u->view, &tu->vgraph, err);
  if (st != OP_OK) return st;
  oprp_result res = OPRP_NOTHING;
  uint32_t nremoved = 0;
  st = oprp_layer_counted(u->view, &tu->vgraph, &u->rg, &u->cs, a, vsel,
                          &c->ctx.params.contours /* REG-200 */, c->ctx.params.min_region_area,
                          &res, cs, &nremoved, 0 /* oprp_layer_tile */, c->alloc, err);
  if (st != OP_OK) return st;
  *done = res == OPRP_DONE;
  sl->spans_removed += nremoved;
  count_repair(sl, res);
  return OP_OK;
}

/* RT-063: unit L built from areas a (not the first build's). */
static op_status build_unit(op_tilecache *c, optc_tile *t, uint32_t L, uint8_t *a, int vsel,
                            op_tile **tile, op_tilecache_stats *sl, op_error *err) {
  const op_chf *h = unit_chf(c, t, L);
  op_chf tmp = *h;
  tmp.areas = a;
  sl->spans_built += h->nspans;
  if (!c->ctx.layer_first) { /* POLY-223 steps 2 to 6 on a copy with the areas in force */
    sl->spans_removed += count_removed(h->areas, a, h->nspans);
    sl->units_built++;
    return opl_tile_general(&c->ctx, &tmp, t->k.tx, t->k.tz, tile, err);
  }
  op_contour_set cs;
  op_regions rg;
  memset(&cs, 0, sizeof cs);
  memset(&rg, 0, sizeof rg);
  int done = 0;
  op_status st = OP_OK;
  if (c->repair) st = try_repair(c, t, L, a, vsel, &cs, &done, sl, err); /* RT-063 */
  else sl->spans_removed += count_removed(h->areas, a, h->nspans);
  if (st == OP_OK && !done) {
    sl->units_built++;
    st = opl_layer_contours(&c->ctx, &tmp, &rg, &cs, err); /* RT-084, RT-085 */
  }
  if (st == OP_OK) st = opl_layer_tile(&c->ctx, &tmp, &cs, t->k.tx, t->k.tz, (int32_t)L, tile, err);
  op_contour_set_free(&cs);
  op_regions_free(&rg);
  return st;
}


/* RT-062, RT-013 for unit L of tile t: fills *s (areas in force, shortcut, new tile). */
static op_status plan_unit(op_tilecache *c, uint32_t ti, uint32_t L, tc_step *s,
                           op_tilecache_stats *sl, op_error *err) {
  optc_tile *t = &c->tiles[ti];
  optc_unit *u = &t->units[L];
  const op_chf *h = unit_chf(c, t, L);
  uint32_t n = h ? h->nspans : 0;
  s->tile = ti, s->unit = L;
  s->areas = opc_malloc(c->alloc, n ? n : 1); /* CONF-059 */
  if (!s->areas) return opc_nomem(err, "cache");
  int vsel = 0;
  int changed = unit_areas(c, t, L, s->areas, &vsel); /* RT-041 */
  if (changed && memcmp(s->areas, h->areas, n) == 0) changed = 0;
  const uint8_t *a = changed ? s->areas : (h ? h->areas : NULL);
  if (u->last && (n == 0 || memcmp(u->last, a, n) == 0)) { /* RT-013 step 1 */
    s->skip = 1;
    sl->units_skipped++;
  } else if (!changed) { /* RT-013 step 2: the first build's tile data */
    s->tile_new = t->k.units[L].tile;
    sl->units_first++;
  } else { /* RT-013 step 3, RT-063 */
    op_status st = build_unit(c, t, L, s->areas, vsel, &s->tile_new, sl, err);
    if (st != OP_OK) return st;
    s->own = 1;
  }
  if (!changed) { /* the areas in force are the first build's: nothing to keep */
    free(s->areas);
    s->areas = NULL;
  }
  if (!s->skip && !u->last && !(s->last = opc_malloc(c->alloc, n ? n : 1)))
    return opc_nomem(err, "cache");
  return OP_OK;
}

static void stats_add(op_tilecache_stats *to, const op_tilecache_stats *d) {
  to->units_skipped += d->units_skipped;
  to->units_first += d->units_first;
  to->units_built += d->units_built;
  to->units_repaired += d->units_repaired;
  to->repair_fallbacks += d->repair_fallbacks;
  to->spans_built += d->spans_built;
  to->spans_removed += d->spans_removed;
  to->fallbacks_not_removal += d->fallbacks_not_removal;
  to->fallbacks_small += d->fallbacks_small;
  to->fallbacks_split += d->fallbacks_split;
  to->fallbacks_renumber += d->fallbacks_renumber;
}

/* RT-061: every unit of the first k queued tiles decided and built, nothing changed yet. */
static op_status plan(op_tilecache *c, uint32_t k, tc_step **out, size_t *nout,
                      op_tilecache_stats *sl, op_error *err) {
  size_t n = 0;
  for (uint32_t q = 0; q < k; q++) n += c->tiles[c->queue[q]].k.nunits;
  tc_step *st = opc_calloc(c->alloc, n ? n : 1, sizeof *st); /* CONF-059 */
  if (!st) return opc_nomem(err, "cache");
  size_t j = 0;
  op_status s = OP_OK;
  for (uint32_t q = 0; s == OP_OK && q < k; q++) {
    uint32_t ti = c->queue[q];
    for (uint32_t L = 0; s == OP_OK && L < c->tiles[ti].k.nunits; L++)
      s = plan_unit(c, ti, L, &st[j++], sl, err);
    s = opl_tile_error(err, s, c->tiles[ti].k.tx, c->tiles[ti].k.tz); /* RT-061 */
  }
  if (s != OP_OK) {
    steps_free(st, j);
    return s;
  }
  *out = st;
  *nout = n;
  return OP_OK;
}

/* RT-065 for one planned unit: T against the tile M that the mesh holds at (tx, tz, L).
** Case 1 (same content id) and case 5 (neither) need no change: 0; else the change for
** the batch (cases 2 to 4: T where M is, T where none is, none where M is): 1. The mesh is
** read before any change: the units of one Update are at distinct positions (distinct
** queued tiles, distinct layers). */
static int swap_change(const op_tilecache *c, const tc_step *s, opm_change *ch, uint64_t *kept) {
  const optc_tile *t = &c->tiles[s->tile];
  int32_t L = c->ctx.layer_first ? (int32_t)s->unit : 0;
  int64_t f = opm_find(c->mesh, t->k.tx, t->k.tz, L);
  const op_tile *M = f >= 0 ? c->mesh->slots[f].occ->tile : NULL, *T = s->tile_new;
  if (T && M && op_tile_content_id(T) == op_tile_content_id(M)) { /* case 1: M stays */
    ++*kept;
    return 0;
  }
  ch->x = t->k.tx, ch->z = t->k.tz, ch->layer = L, ch->tile = T, ch->done = OPM_NONE;
  return T || M;
}

/* RT-065, RT-061: the planned units' swaps go into the mesh in queue order, layers
** ascending, as one all-or-nothing batch (opm_batch: the slots, generations and links of
** ReplaceTile, AddTile and RemoveTile one after another, MESH-012, MESH-014, MESH-015; it
** ignores the mesh's refusal, RT-018). On failure nothing changed. Then each unit's
** last-built areas become its areas in force (RT-062), which cannot fail. */
static op_status commit(op_tilecache *c, tc_step *st, size_t n, op_error *err) {
  opm_change *ch = opc_malloc(c->alloc, (n ? n : 1) * sizeof *ch); /* CONF-059 */
  size_t *from = ch ? opc_malloc(c->alloc, (n ? n : 1) * sizeof *from) : NULL;
  size_t nch = 0, bad = SIZE_MAX;
  if (!ch || !from) {
    free(ch), free(from);
    return opc_nomem(err, "cache");
  }
  uint64_t kept = 0;
  for (size_t j = 0; j < n; j++)
    if (!st[j].skip && swap_change(c, &st[j], &ch[nch], &kept)) from[nch++] = j;
  op_status e = opm_batch(c->mesh, ch, nch, &bad, err);
  if (e != OP_OK && bad < nch) {
    const optc_tile *t = &c->tiles[st[from[bad]].tile];
    e = opl_tile_error(err, e, t->k.tx, t->k.tz);
  }
  for (size_t k = 0; e == OP_OK && k < nch; k++) {
    c->stats.tiles_replaced += ch[k].done == OPM_REPLACED;
    c->stats.tiles_added += ch[k].done == OPM_ADDED;
    c->stats.tiles_removed += ch[k].done == OPM_REMOVED;
  }
  free(ch);
  free(from);
  if (e != OP_OK) return e;
  c->stats.tiles_kept += kept;
  for (size_t j = 0; j < n; j++) {
    tc_step *s = &st[j];
    if (s->skip) continue;
    optc_tile *t = &c->tiles[s->tile];
    optc_unit *u = &t->units[s->unit];
    if (!u->last) u->last = s->last, s->last = NULL;
    const op_chf *h = unit_chf(c, t, s->unit);
    uint32_t ns = h ? h->nspans : 0;
    if (ns) memcpy(u->last, s->areas ? s->areas : h->areas, ns);
  }
  return OP_OK;
}

op_status op_tilecache_update(op_tilecache *c, uint32_t max_tiles, uint32_t *processed,
                              op_error *err) {
  if (!c) return no_cache(err);
  uint32_t k = max_tiles < c->nqueue ? max_tiles : c->nqueue; /* RT-060 */
  tc_step *st = NULL;
  size_t n = 0;
  op_tilecache_stats sl;
  memset(&sl, 0, sizeof sl);
  op_status s = k ? plan(c, k, &st, &n, &sl, err) : OP_OK;
  if (s != OP_OK) return s; /* RT-061: nothing changed */
  /* RT-061: the commit is all or nothing too (opm_batch); a failed swap changes nothing. */
  s = commit(c, st, n, err);
  steps_free(st, n);
  if (s != OP_OK) return s;
  for (uint32_t q = 0; q < k; q++) c->tiles[c->queue[q]].queued = 0;
  memmove(c->queue, c->queue + k, (size_t)(c->nqueue - k) * sizeof *c->queue);
  c->nqueue -= k;
  stats_add(&c->stats, &sl);
  c->stats.tiles_processed += k;
  if (processed) *processed = k;
  op_clear(err);
  return OP_OK;
}

op_status op_tilecache_update_all(op_tilecache *c, uint32_t *processed, op_error *err) {
  if (!c) return no_cache(err);
  return op_tilecache_update(c, c->nqueue, processed, err); /* RT-060 */
}

int optc_unit_areas(const op_tilecache *c, uint32_t ti, uint32_t L, uint8_t *out, int *vsel) {
  const optc_tile *t = &c->tiles[ti]; /* RT-041, with plan_unit's test for "changed" */
  const op_chf *h = unit_chf(c, t, L);
  return unit_areas(c, t, L, out, vsel) && memcmp(out, h->areas, h->nspans) != 0;
}
