/*
** ops_stage.c -- argument decoding shared by the per-tile stage ops of the 3D builder
** (contours.build_tile REG-223, polys.build_tile POLY-091): a preset, an optional
** partition, a triangle soup or a generated level, and a tile; the stages of that tile
** (include/onepath_stages.h, op_stage_run_tile).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops_stage.h"

/* Prefixes err->field with `pre` (the argument that holds the failing member). */
void opd_prefix_field(op_error *err, const char *pre) {
  if (!err) return;
  char f[sizeof err->field];
  snprintf(f, sizeof f, "%s%.80s", pre, err->field);
  memcpy(err->field, f, sizeof f);
}

/* REG-223, POLY-091: preset, partition, soup | level, tile (the forms of SPAN-190). */
op_status opd_stage_tile_args(const opj *args, op_settings *s, op_trimesh *m, int32_t *tx,
                          int32_t *tz, op_error *err) {
  const opj *p = opj_get(args, "preset");
  if (!p || p->type != OPJ_STR) return opd_arg_error(err, "preset", "must be a preset name");
  op_status st = op_settings_preset(p->str, s, err);
  if (st != OP_OK) {
    if (err) snprintf(err->field, sizeof err->field, "preset");
    return st;
  }
  const opj *jp = opj_get(args, "partition");
  if (jp && jp->type != OPJ_NULL) {
    if (jp->type != OPJ_STR) return opd_arg_error(err, "partition", "must be a partition name");
    if (!strcmp(jp->str, "watershed")) s->partition = OP_PARTITION_WATERSHED;
    else if (!strcmp(jp->str, "monotone")) s->partition = OP_PARTITION_MONOTONE;
    else if (!strcmp(jp->str, "layers")) s->partition = OP_PARTITION_LAYERS;
    else return op_fail(err, OP_E_ARGUMENT, "partition", jp->str, "watershed, monotone or layers");
  }
  const opj *js = opj_get(args, "soup"), *jl = opj_get(args, "level");
  if ((js != NULL) == (jl != NULL))
    return opd_arg_error(err, "soup", "give exactly one of soup and level");
  if (js) {
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (opj_hexbytes(js, &bytes, &len))
      return opd_arg_error(err, "soup", "must be hex bytes of a triangle soup");
    st = op_soup_load(bytes, len, m, err);
    free(bytes);
    if (st != OP_OK) opd_prefix_field(err, "soup.");
  } else {
    const opj *n = opj_get(jl, "name");
    uint64_t seed;
    int64_t size;
    if (!n || n->type != OPJ_STR) return opd_arg_error(err, "level.name", "must be a string");
    if (opj_u64hex(opj_get(jl, "seed"), &seed))
      return opd_arg_error(err, "level.seed", "must be 16 lower-case hex digits");
    if (opj_int(opj_get(jl, "size"), 0, UINT32_MAX, &size))
      return opd_arg_error(err, "level.size", "must be an integer");
    st = op_level_generate(n->str, seed, (uint32_t)size, s, m, err);
    if (st != OP_OK) opd_prefix_field(err, "level.");
  }
  if (st != OP_OK) return st;
  int64_t x = 0, z = 0;
  const opj *jt = opj_get(args, "tile");
  if (!jt || jt->type != OPJ_ARR || jt->n != 2 || opj_int(jt->items[0], INT32_MIN, INT32_MAX, &x) ||
      opj_int(jt->items[1], INT32_MIN, INT32_MAX, &z))
    return opd_arg_error(err, "tile", "must be [tx, tz], two integers");
  *tx = (int32_t)x;
  *tz = (int32_t)z;
  return OP_OK;
}

/* REG-223, POLY-091: the stages every per-tile op runs before its own. */
op_status opd_stage_run(const opj *args, op_stage last, opd_stage *st, op_error *err) {
  memset(st, 0, sizeof *st);
  int32_t tx = 0, tz = 0;
  op_status r = opd_stage_tile_args(args, &st->s, &st->m, &tx, &tz, err);
  if (r != OP_OK) return r;
  op_soup soup = op_trimesh_soup(&st->m);
  return op_stage_run_tile(&st->s, &soup, tx, tz, last, &st->t, err);
}

void opd_stage_free(opd_stage *st) {
  op_stage_tile_free(&st->t);
  op_trimesh_free(&st->m);
}
