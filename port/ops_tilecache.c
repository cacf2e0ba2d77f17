/*
** ops_tilecache.c -- protocol ops of the run-time tile cache (spec/build3d-runtime.md
** section 10, RT-150 .. RT-153): tilecache.soup, .chunk, .heightfield (cached builds),
** .add_obstacle, .remove_obstacle, .add_volume, .remove_volume, .update, .queue,
** .snapshot_save, .snapshot_load. Table opd_ops_tilecache.
**
** Handles (RT-151): a build answers a `cache` handle, which owns the cache, and a `mesh`
** handle borrowed from it (opd_put_borrowed): the mesh ops work on it, dropping it frees
** nothing, and once the cache handle is dropped it names no live object. The arguments
** of the build ops are decoded by ops_pipeline.h as build3d.* decode theirs; obstacles and
** volumes by the settings decoders (ops_settings.h) under the names `obstacle`, `volume`.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "onepath_tilecache.h"
#include "ops_pipeline.h"
#include "ops_settings.h"

/* RT-152 (CONF-042): the cache handle, resolved before any other argument is read. */
static op_status get_cache(opd_session *s, const opj *args, op_tilecache **c, op_error *err) {
  int64_t h;
  if (opj_int(opj_get(args, "cache"), INT64_MIN, INT64_MAX, &h))
    return opd_arg_error(err, "cache", "must be a tile cache handle");
  *c = opd_lookup(s, OPD_TILECACHE, h);
  if (!*c) return op_fail_i(err, OP_E_ARGUMENT, "cache", h, "no live tile cache has this handle");
  return OP_OK;
}

/* RT-152: id and max_tiles are integers in 0 .. 2^32 - 1, else an argument error naming
** them with the empty value (CONF-013: not of the u32 form). */
static op_status get_u32(const opj *args, const char *key, uint32_t *out, op_error *err) {
  int64_t v;
  if (opj_int(opj_get(args, key), 0, UINT32_MAX, &v))
    return opd_arg_error(err, key, "must be an integer in 0..2^32-1");
  *out = (uint32_t)v;
  return OP_OK;
}

/* RT-153: `queued`, the queue length after the operation. */
static void write_queued(opj_w *res, const op_tilecache *c) {
  opj_w_key(res, "queued");
  opj_w_int(res, op_tilecache_queue_length(c));
}

/* ------------------------------------------------------------------ builds */

/* RT-151: `repair` absent or null is on; otherwise a boolean. */
static op_status get_repair(const opj *args, int *on, op_error *err) {
  const opj *v = opj_get(args, "repair");
  *on = 1;
  if (!v || v->type == OPJ_NULL) return OP_OK;
  if (v->type != OPJ_BOOL) return opd_arg_error(err, "repair", "must be a boolean");
  *on = v->b;
  return OP_OK;
}

/* The session's thread count (opd_set_threads; POLY-228: no byte depends on it). */
static op_status build_cached(opd_pl_args *a, uint32_t threads, op_pipeline_result *r,
                              op_tilecache **c, op_error *err) {
  op_pipeline_options o;
  memset(&o, 0, sizeof o);
  o.threads = threads;
  switch (a->input) {
  case OPD_PL_SOUP: return op_pipeline_build_soup_cached_opt(&a->sd.s, &a->soup, &o, &a->hooks, r, c, err);
  case OPD_PL_CHUNK:
    return op_pipeline_build_chunk_cached_opt(&a->sd.s, a->chunk, &o, &a->hooks, r, c, err);
  default: return op_pipeline_build_heightfield_cached_opt(&a->sd.s, &a->cols, &o, &a->hooks, r, c, err);
  }
}

/* RT-151: the handles, in this order: the cache, its mesh (borrowed), the tiles. A failure
** to allocate one drops those put before (a failed op keeps no handle). */
static op_status answer(opd_session *ss, opd_pl_args *a, const op_pipeline_result *r,
                        op_tilecache *c, opj_w *res, op_error *err) {
  int64_t hc = opd_put(ss, OPD_TILECACHE, c); /* takes ownership */
  if (hc < 0) return opd_put_error(err, hc);
  int64_t hm = opd_put_borrowed(ss, OPD_MESH, op_tilecache_mesh(c), hc);
  if (hm < 0) {
    opd_drop(ss, OPD_TILECACHE, hc);
    return opd_put_error(err, hm);
  }
  opj_w_key(res, "cache");
  opj_w_int(res, hc);
  opj_w_key(res, "mesh");
  opj_w_int(res, hm);
  op_status st = opd_pl_answer_tiles(ss, a, r, res, err);
  if (st != OP_OK) {
    opd_drop(ss, OPD_MESH, hm);
    opd_drop(ss, OPD_TILECACHE, hc);
  }
  return st;
}

/* RT-150, RT-151: the args of build3d.<input> with every check made while reading them
** (settings, input, chunk_size, columns), then repair, then the cached build. */
static op_status build_op(opd_session *ss, const opj *args, opj_w *res, op_error *err,
                          opd_pl_input input) {
  opd_pl_args a;
  op_pipeline_result r;
  op_tilecache *c = NULL;
  int repair = 1;
  memset(&r, 0, sizeof r);
  op_status st = opd_pl_decode(args, input, &a, err);
  if (st == OP_OK) st = get_repair(args, &repair, err);
  if (st == OP_OK) st = build_cached(&a, opd_threads(ss), &r, &c, err);
  if (st == OP_OK) {
    op_tilecache_set_repair(c, repair); /* RT-107 */
    st = answer(ss, &a, &r, c, res, err);
  }
  op_pipeline_result_free(&r);
  opd_pl_args_free(&a);
  return st;
}

static op_status soup_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  return build_op(ss, args, res, err, OPD_PL_SOUP);
}

static op_status chunk_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  return build_op(ss, args, res, err, OPD_PL_CHUNK);
}

static op_status heightfield_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  return build_op(ss, args, res, err, OPD_PL_COLUMNS);
}

/* ------------------------------------------------------------------ obstacles, volumes */

/* tilecache.add_obstacle {cache, obstacle} -> {id, queued} (RT-023 .. RT-026, RT-050) */
static op_status add_obstacle_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  op_tilecache *c;
  op_obstacle o;
  uint32_t id = 0;
  memset(&o, 0, sizeof o);
  op_status st = get_cache(ss, args, &c, err);
  if (st == OP_OK) st = opd_obstacle_decode(opj_get(args, "obstacle"), "obstacle", &o, err);
  if (st == OP_OK) {
    op_tilecache_set_alloc(c, opd_alloc(ss)); /* CONF-059: this request's counter */
    st = op_tilecache_add_obstacle(c, &o, &id, err);
    op_tilecache_set_alloc(c, NULL);
  }
  if (st != OP_OK) return st;
  opj_w_key(res, "id");
  opj_w_int(res, id);
  write_queued(res, c);
  return OP_OK;
}

/* tilecache.add_volume {cache, volume} -> {id, queued} (RT-040, RT-050) */
static op_status add_volume_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  op_tilecache *c;
  op_convex_volume v;
  uint32_t id = 0;
  memset(&v, 0, sizeof v);
  op_status st = get_cache(ss, args, &c, err);
  if (st == OP_OK) st = opd_volume_decode(opj_get(args, "volume"), "volume", &v, err);
  if (st == OP_OK) {
    op_tilecache_set_alloc(c, opd_alloc(ss)); /* CONF-059 */
    st = op_tilecache_add_volume(c, &v, &id, err);
    op_tilecache_set_alloc(c, NULL);
  }
  if (st != OP_OK) return st;
  opj_w_key(res, "id");
  opj_w_int(res, id);
  write_queued(res, c);
  return OP_OK;
}

/* tilecache.remove_obstacle / remove_volume {cache, id} -> {queued} (RT-053) */
static op_status remove_op(opd_session *ss, const opj *args, opj_w *res, op_error *err,
                           int volume) {
  op_tilecache *c;
  uint32_t id = 0;
  op_status st = get_cache(ss, args, &c, err);
  if (st == OP_OK) st = get_u32(args, "id", &id, err);
  if (st == OP_OK)
    st = volume ? op_tilecache_remove_volume(c, id, err) : op_tilecache_remove_obstacle(c, id, err);
  if (st != OP_OK) return st;
  write_queued(res, c);
  return OP_OK;
}

static op_status remove_obstacle_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  return remove_op(ss, args, res, err, 0);
}

static op_status remove_volume_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  return remove_op(ss, args, res, err, 1);
}

/* ------------------------------------------------------------------ queue, update */

/* tilecache.update {cache, max_tiles?} -> {processed, queued} (RT-060; absent or null
** max_tiles: UpdateAll) */
static op_status update_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  op_tilecache *c;
  uint32_t max = 0, done = 0;
  op_status st = get_cache(ss, args, &c, err);
  const opj *jm = opj_get(args, "max_tiles");
  int all = !jm || jm->type == OPJ_NULL;
  if (st == OP_OK && !all) st = get_u32(args, "max_tiles", &max, err);
  if (st == OP_OK) {
    op_tilecache_set_alloc(c, opd_alloc(ss)); /* CONF-059 */
    st = all ? op_tilecache_update_all(c, &done, err) : op_tilecache_update(c, max, &done, err);
    op_tilecache_set_alloc(c, NULL);
  }
  if (st != OP_OK) return st;
  opj_w_key(res, "processed");
  opj_w_int(res, done);
  write_queued(res, c);
  return OP_OK;
}

/* tilecache.queue {cache} -> {queue: [[tx, tz], ...]} in queue order (RT-051, RT-153) */
static op_status queue_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  op_tilecache *c;
  op_status st = get_cache(ss, args, &c, err);
  if (st != OP_OK) return st;
  uint32_t n = op_tilecache_queue_length(c);
  opj_w_key(res, "queue");
  opj_w_arr_begin(res);
  for (uint32_t i = 0; i < n; i++) {
    int32_t tx = 0, tz = 0;
    op_tilecache_queued(c, i, &tx, &tz);
    opj_w_arr_begin(res);
    opj_w_int(res, tx);
    opj_w_int(res, tz);
    opj_w_arr_end(res);
  }
  opj_w_arr_end(res);
  return OP_OK;
}

/* ------------------------------------------------------------------ snapshots */

/* tilecache.snapshot_save {cache} -> {bytes} (RT-132, SNAP-018) */
static op_status snapshot_save_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  op_tilecache *c;
  op_bytes b = {NULL, 0};
  op_status st = get_cache(ss, args, &c, err);
  if (st == OP_OK) st = op_tilecache_snapshot_save(c, &b, err);
  if (st != OP_OK) return st;
  opj_w_key(res, "bytes");
  opj_w_hexbytes(res, b.data, b.len);
  op_bytes_free(&b);
  return OP_OK;
}

/* tilecache.snapshot_load {cache, bytes} -> {} (RT-133, SNAP-019 .. SNAP-021) */
static op_status snapshot_load_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  (void)res;
  op_tilecache *c;
  op_status st = get_cache(ss, args, &c, err);
  if (st != OP_OK) return st;
  uint8_t *data = NULL;
  size_t len = 0;
  if (opj_hexbytes(opj_get(args, "bytes"), &data, &len))
    return opd_arg_error(err, "bytes", "must be a string of hex digit pairs");
  op_tilecache_set_alloc(c, opd_alloc(ss)); /* CONF-059 */
  st = op_tilecache_snapshot_load(c, data, len, err);
  op_tilecache_set_alloc(c, NULL);
  free(data);
  return st;
}

/* tilecache.layer (RT-154): port/ops_tilecache_layer.c */
op_status opd_tilecache_layer_op(opd_session *ss, const opj *args, opj_w *res, op_error *err);

const opd_op opd_ops_tilecache[] = {
    {"tilecache.soup", soup_op},
    {"tilecache.chunk", chunk_op},
    {"tilecache.heightfield", heightfield_op},
    {"tilecache.add_obstacle", add_obstacle_op},
    {"tilecache.remove_obstacle", remove_obstacle_op},
    {"tilecache.add_volume", add_volume_op},
    {"tilecache.remove_volume", remove_volume_op},
    {"tilecache.update", update_op},
    {"tilecache.queue", queue_op},
    {"tilecache.snapshot_save", snapshot_save_op},
    {"tilecache.snapshot_load", snapshot_load_op},
    {"tilecache.layer", opd_tilecache_layer_op},
    {NULL, NULL},
};
