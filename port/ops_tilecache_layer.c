/*
** ops_tilecache_layer.c -- protocol op tilecache.layer (spec/build3d-runtime.md section 10,
** RT-154): a cached layer-first tile's layer for the areas in force -- its region values,
** contour set (REG-222) and edge map (REG-214). Listed in opd_ops_tilecache
** (port/ops_tilecache.c).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "onepath_tilecache.h"

/* RT-154 (after RT-152's `cache`): `tile` [tx, tz], two integers of i32, else argument
** `tile` (empty value); `layer` an integer of u32, else argument `layer` (empty value). */
static op_status get_args(const opj *args, int32_t *tx, int32_t *tz, uint32_t *layer,
                          op_error *err) {
  const opj *t = opj_get(args, "tile");
  int64_t x, z, l;
  if (!t || t->type != OPJ_ARR || t->n != 2 || opj_int(opj_at(t, 0), INT32_MIN, INT32_MAX, &x) ||
      opj_int(opj_at(t, 1), INT32_MIN, INT32_MAX, &z))
    return opd_arg_error(err, "tile", "must be [tx, tz], two 32-bit integers");
  if (opj_int(opj_get(args, "layer"), 0, UINT32_MAX, &l))
    return opd_arg_error(err, "layer", "must be an integer in 0..2^32-1");
  *tx = (int32_t)x, *tz = (int32_t)z, *layer = (uint32_t)l;
  return OP_OK;
}

/* tilecache.layer {cache, tile, layer} -> {nspans, nregions, regions, bytes, edges} (RT-154) */
op_status opd_tilecache_layer_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  int64_t h;
  if (opj_int(opj_get(args, "cache"), INT64_MIN, INT64_MAX, &h)) /* RT-152 */
    return opd_arg_error(err, "cache", "must be a tile cache handle");
  op_tilecache *c = opd_lookup(ss, OPD_TILECACHE, h);
  if (!c) return op_fail_i(err, OP_E_ARGUMENT, "cache", h, "no live tile cache has this handle");
  int32_t tx = 0, tz = 0;
  uint32_t layer = 0;
  op_tilecache_layer_data d;
  memset(&d, 0, sizeof d);
  op_status st = get_args(args, &tx, &tz, &layer, err);
  if (st == OP_OK) {
    op_tilecache_set_alloc(c, opd_alloc(ss)); /* CONF-059: this request's counter */
    st = op_tilecache_layer(c, tx, tz, layer, &d, err);
    op_tilecache_set_alloc(c, NULL);
  }
  if (st == OP_E_ARGUMENT && strcmp(err->field, "cache") == 0) /* RT-154: the handle as value */
    return op_fail_i(err, OP_E_ARGUMENT, "cache", h, "the cache's tiles are not built layer first");
  if (st != OP_OK) return st;
  opj_w_key(res, "nspans");
  opj_w_int(res, d.nspans);
  opj_w_key(res, "nregions");
  opj_w_int(res, d.nregions);
  opj_w_key(res, "regions");
  opj_w_hexbytes(res, d.regions.data, d.regions.len);
  opj_w_key(res, "bytes");
  opj_w_hexbytes(res, d.contours.data, d.contours.len);
  opj_w_key(res, "edges");
  opj_w_hexbytes(res, d.edges.data, d.edges.len);
  op_tilecache_layer_data_free(&d);
  return OP_OK;
}
