/*
** ops_regions.c -- protocol operations of the region partitions (spec/build3d-regions.md
** section 5, REG-180 .. REG-182): regions.build on the canonical bytes of a compact
** heightfield (SPAN-170), regions.layers (the layer assignment). Table opd_ops_regions.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "onepath_build3d.h"
#include "onepath_stages.h"

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static op_status bad(op_error *err, const char *field, long long v, const char *why) {
  return op_fail_i(err, OP_E_FORMAT, field, v, why);
}

/* REG-181: a compact heightfield from the bytes of SPAN-170, checked; format errors name
** chf.<field>. */
static op_status chf_load(const uint8_t *p, size_t n, op_chf **out, op_error *err) {
  if (n < 40 || memcmp(p, "OPCHF001", 8) != 0)
    return bad(err, "chf.magic", (long long)n, "not the bytes of a compact heightfield");
  int32_t gx0 = (int32_t)rd32(p + 8), gz0 = (int32_t)rd32(p + 12);
  uint32_t w = rd32(p + 16), d = rd32(p + 20), h = rd32(p + 24);
  uint32_t wh = rd32(p + 28), wc = rd32(p + 32), ns = rd32(p + 36);
  if (w < 1 || w > OP_HF_MAX_SIDE) return bad(err, "chf.width", w, "1..16384");
  if (d < 1 || d > OP_HF_MAX_SIDE) return bad(err, "chf.depth", d, "1..16384");
  if (h < 1 || h > OP_HF_MAX_HEIGHT) return bad(err, "chf.height", h, "1..65535");
  if (wh > 0x7fffffff) return bad(err, "chf.walkable_height", wh, "at most 2^31 - 1");
  if (wc > 0x7fffffff) return bad(err, "chf.walkable_climb", wc, "at most 2^31 - 1");
  size_t cols = (size_t)w * d;
  if ((n - 40) < cols || (n - 40 - cols) / 8 < ns || n != 40 + cols + 8 * (size_t)ns)
    return bad(err, "chf.nspans", ns, "the length does not match");
  op_chf *c = calloc(1, sizeof *c);
  if (!c) return opd_nomem(err, "memory");
  c->cell_index = malloc(sizeof *c->cell_index * cols);
  c->cell_count = malloc(cols);
  c->spans = malloc(sizeof *c->spans * (ns ? ns : 1));
  c->areas = malloc(ns ? ns : 1);
  if (!c->cell_index || !c->cell_count || !c->spans || !c->areas) {
    op_chf_free(c);
    return opd_nomem(err, "memory");
  }
  c->grid.gx0 = gx0;
  c->grid.gz0 = gz0;
  c->grid.width = (int32_t)w;
  c->grid.depth = (int32_t)d;
  c->grid.height = (int32_t)h;
  c->grid.cs = c->grid.ch = 1;
  c->walkable_height = (int32_t)wh;
  c->walkable_climb = (int32_t)wc;
  c->nspans = ns;
  uint64_t sum = 0;
  for (size_t k = 0; k < cols; k++) {
    c->cell_index[k] = (uint32_t)sum;
    c->cell_count[k] = p[40 + k];
    if (p[40 + k] > OP_CHF_MAX_COLUMN) {
      op_chf_free(c);
      return bad(err, "chf.count", p[40 + k], "at most 63 spans in a column");
    }
    sum += p[40 + k];
  }
  if (sum != ns) {
    op_chf_free(c);
    return bad(err, "chf.nspans", ns, "not the sum of the column counts");
  }
  const uint8_t *q = p + 40 + cols;
  for (uint32_t i = 0; i < ns; i++, q += 8) {
    c->spans[i].y = (uint16_t)(q[0] | q[1] << 8);
    c->spans[i].h = q[2];
    c->areas[i] = q[3];
    if (q[3] > 63) {
      op_chf_free(c);
      return bad(err, "chf.area", q[3], "an area id is 0..63");
    }
    memcpy(c->spans[i].link, q + 4, 4);
  }
  /* Links must name a span of the neighbour column inside the grid. */
  static const int dx[4] = {-1, 0, 1, 0}, dz[4] = {0, 1, 0, -1};
  for (uint32_t z = 0; z < d; z++)
    for (uint32_t x = 0; x < w; x++) {
      size_t k = (size_t)z * w + x;
      for (uint32_t i = c->cell_index[k]; i < c->cell_index[k] + c->cell_count[k]; i++)
        for (int dd = 0; dd < 4; dd++) {
          uint8_t l = c->spans[i].link[dd];
          if (l == OP_CHF_NOT_CONNECTED) continue;
          int64_t nx = (int64_t)x + dx[dd], nz = (int64_t)z + dz[dd];
          if (nx < 0 || nz < 0 || nx >= w || nz >= d ||
              l >= c->cell_count[(size_t)nz * w + (size_t)nx]) {
            op_chf_free(c);
            return bad(err, "chf.link", l, "a link names no span of the neighbour column");
          }
        }
    }
  *out = c;
  return OP_OK;
}

/* The chf argument (hex bytes). */
static op_status dec_chf(const opj *args, op_chf **c, op_error *err) {
  uint8_t *b = NULL;
  size_t len = 0;
  if (opj_hexbytes(opj_get(args, "chf"), &b, &len))
    return opd_arg_error(err, "chf", "must be hex bytes of a compact heightfield");
  op_status st = chf_load(b, len, c, err);
  free(b);
  return st;
}

/* REG-180 */
static op_status regions_build_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  (void)ss;
  const opj *jp = opj_get(args, "partition");
  op_partition part;
  if (!jp || jp->type != OPJ_STR) return opd_arg_error(err, "partition", "must be a name");
  if (strcmp(jp->str, "watershed") == 0) part = OP_PARTITION_WATERSHED;
  else if (strcmp(jp->str, "monotone") == 0) part = OP_PARTITION_MONOTONE;
  else if (strcmp(jp->str, "layers") == 0) part = OP_PARTITION_LAYERS;
  else return op_fail(err, OP_E_ARGUMENT, "partition", jp->str, "watershed, monotone or layers");
  int64_t border, mina, merge = 0;
  if (opj_int(opj_get(args, "border"), INT32_MIN, INT32_MAX, &border))
    return opd_arg_error(err, "border", "must be an integer");
  if (opj_int(opj_get(args, "min_region_area"), 0, UINT32_MAX, &mina))
    return opd_arg_error(err, "min_region_area", "must be an integer in 0..2^32 - 1");
  const opj *jm = opj_get(args, "merge_region_area");
  if (jm && opj_int(jm, 0, UINT32_MAX, &merge))
    return opd_arg_error(err, "merge_region_area", "must be an integer in 0..2^32 - 1");
  op_chf *c = NULL;
  op_status st = dec_chf(args, &c, err);
  if (st != OP_OK) return st;
  op_regions r;
  memset(&r, 0, sizeof r);
  st = op_regions_build(c, part, (int32_t)border, (uint32_t)mina, (uint32_t)merge, &r, err);
  op_bytes b = {NULL, 0};
  if (st == OP_OK) st = op_regions_save(&r, &b, err);
  if (st == OP_OK) {
    uint32_t border_spans = 0, none = 0;
    for (uint32_t i = 0; i < r.nspans; i++) {
      border_spans += r.reg[i] == OP_REG_BORDER_REGION;
      none += r.reg[i] == 0 && c->areas[i] != 0;
    }
    opj_w_key(res, "nspans");
    opj_w_int(res, r.nspans);
    opj_w_key(res, "nregions");
    opj_w_int(res, r.nregions);
    opj_w_key(res, "border_spans");
    opj_w_int(res, border_spans);
    opj_w_key(res, "removed");
    opj_w_int(res, none);
    opj_w_key(res, "max_dist");
    opj_w_int(res, r.max_dist);
    opj_w_key(res, "regions");
    opj_w_arr_begin(res);
    for (uint32_t i = 0; i < r.nspans; i++) opj_w_int(res, r.reg[i]);
    opj_w_arr_end(res);
    opj_w_key(res, "bytes");
    opj_w_hexbytes(res, b.data, b.len);
  }
  op_bytes_free(&b);
  op_regions_free(&r);
  op_chf_free(c);
  return st;
}

/* REG-182 */
static op_status regions_layers_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  (void)ss;
  op_chf *c = NULL;
  op_status st = dec_chf(args, &c, err);
  if (st != OP_OK) return st;
  uint16_t *layer = malloc(sizeof *layer * (c->nspans ? c->nspans : 1));
  uint32_t nl = 0;
  if (!layer) st = opd_nomem(err, "memory");
  if (st == OP_OK) st = op_regions_layer_assign(c, layer, &nl, err);
  if (st == OP_OK) {
    opj_w_key(res, "nlayers");
    opj_w_int(res, nl);
    opj_w_key(res, "layers");
    opj_w_arr_begin(res);
    for (uint32_t i = 0; i < c->nspans; i++) opj_w_int(res, layer[i]);
    opj_w_arr_end(res);
  }
  free(layer);
  op_chf_free(c);
  return st;
}

const opd_op opd_ops_regions[] = {
    {"regions.build", regions_build_op},
    {"regions.layers", regions_layers_op},
    {NULL, NULL},
};
