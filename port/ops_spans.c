/*
** ops_spans.c -- protocol operations of the span stages (spec/build3d-spans.md section 9,
** SPAN-190, SPAN-191): spans.build_tile and spans.build. Table opd_ops_spans.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "onepath_build3d.h"
#include "../ref/internal.h"

/* The decoded common arguments: settings (a preset with optional volumes) and triangles. */
typedef struct spans_args {
  op_settings s;
  op_convex_volume *vols;
  op_trimesh m;
} spans_args;

static void args_free(spans_args *a) {
  free(a->vols);
  op_trimesh_free(&a->m);
}

/* SPAN-190: volumes as in SPAN-093, fields "volumes[i]...". */
static op_status dec_volumes(const opj *jv, spans_args *a, op_error *err) {
  char f[96];
  if (jv->type != OPJ_ARR) return opd_arg_error(err, "volumes", "must be an array");
  if (jv->n > 65536)
    return op_fail_i(err, OP_E_LIMIT, "volumes", (long long)jv->n, "at most 65536 volumes");
  a->vols = calloc(jv->n + 1, sizeof *a->vols);
  if (!a->vols) return op_fail(err, OP_E_NOMEM, "volumes", "", "out of memory");
  for (size_t i = 0; i < jv->n; i++) {
    const opj *o = jv->items[i];
    op_convex_volume *v = &a->vols[i];
    snprintf(f, sizeof f, "volumes[%zu]", i);
    if (o->type != OPJ_OBJ) return opd_arg_error(err, f, "must be an object");
    const opj *pts = opj_get(o, "points");
    snprintf(f, sizeof f, "volumes[%zu].points", i);
    if (!pts || pts->type != OPJ_ARR) return opd_arg_error(err, f, "must be an array of [x, z]");
    if (pts->n > OP_VOLUME_MAX_POINTS) {
      snprintf(f, sizeof f, "volumes[%zu].npoints", i);
      return op_fail_i(err, OP_E_RANGE, f, (long long)pts->n, "a volume has 3 to 12 points");
    }
    v->npoints = (uint32_t)pts->n;
    for (size_t j = 0; j < pts->n; j++) {
      const opj *p = pts->items[j];
      snprintf(f, sizeof f, "volumes[%zu].points[%zu]", i, j);
      if (p->type != OPJ_ARR || p->n != 2 || opj_double(p->items[0], &v->points[j][0]) ||
          opj_double(p->items[1], &v->points[j][1]))
        return opd_arg_error(err, f, "a point is [x, z], two numbers");
    }
    snprintf(f, sizeof f, "volumes[%zu].ymin", i);
    if (opj_double(opj_get(o, "ymin"), &v->ymin)) return opd_arg_error(err, f, "must be a number");
    snprintf(f, sizeof f, "volumes[%zu].ymax", i);
    if (opj_double(opj_get(o, "ymax"), &v->ymax)) return opd_arg_error(err, f, "must be a number");
    int64_t area;
    snprintf(f, sizeof f, "volumes[%zu].area", i);
    if (opj_int(opj_get(o, "area"), 0, UINT32_MAX, &area))
      return opd_arg_error(err, f, "must be an integer");
    if (area > 63) return op_fail_i(err, OP_E_RANGE, f, area, "an area id is 0..63");
    v->area = (uint8_t)area;
  }
  a->s.nvolumes = (uint32_t)jv->n;
  a->s.volumes = a->vols;
  return OP_OK;
}

/* SPAN-190: preset, volumes, soup or level. */
static op_status dec_args(const opj *args, spans_args *a, op_error *err) {
  memset(a, 0, sizeof *a);
  const opj *p = opj_get(args, "preset");
  if (!p || p->type != OPJ_STR) return opd_arg_error(err, "preset", "must be a preset name");
  op_status st = op_settings_preset(p->str, &a->s, err);
  if (st != OP_OK) {
    if (err) snprintf(err->field, sizeof err->field, "preset");
    return st;
  }
  const opj *jv = opj_get(args, "volumes");
  if (jv && jv->type != OPJ_NULL && (st = dec_volumes(jv, a, err)) != OP_OK) return st;
  const opj *js = opj_get(args, "soup"), *jl = opj_get(args, "level");
  if ((js != NULL) == (jl != NULL))
    return opd_arg_error(err, "soup", "give exactly one of soup and level");
  if (js) {
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (opj_hexbytes(js, &bytes, &len))
      return opd_arg_error(err, "soup", "must be hex bytes of a triangle soup");
    st = op_soup_load(bytes, len, &a->m, err);
    free(bytes);
    if (st != OP_OK && err) {
      char f[sizeof err->field];
      snprintf(f, sizeof f, "soup.%.80s", err->field);
      memcpy(err->field, f, sizeof f);
    }
    return st;
  }
  const opj *n = opj_get(jl, "name");
  uint64_t seed;
  int64_t size;
  if (!n || n->type != OPJ_STR) return opd_arg_error(err, "level.name", "must be a string");
  if (opj_u64hex(opj_get(jl, "seed"), &seed))
    return opd_arg_error(err, "level.seed", "must be 16 lower-case hex digits");
  if (opj_int(opj_get(jl, "size"), 0, UINT32_MAX, &size))
    return opd_arg_error(err, "level.size", "must be an integer");
  st = op_level_generate(n->str, seed, (uint32_t)size, &a->s, &a->m, err);
  if (st != OP_OK && err) { /* the generator's fields, inside the level argument */
    char f[sizeof err->field];
    snprintf(f, sizeof f, "level.%.80s", err->field);
    memcpy(err->field, f, sizeof f);
  }
  return st;
}

/* SPAN-190 */
static op_status op_spans_build_tile_op(opd_session *ss, const opj *args, opj_w *res,
                                        op_error *err) {
  (void)ss;
  spans_args a;
  op_status st = dec_args(args, &a, err);
  int64_t tx = 0, tz = 0;
  const opj *jt = opj_get(args, "tile");
  if (st == OP_OK && (!jt || jt->type != OPJ_ARR || jt->n != 2 ||
                      opj_int(jt->items[0], INT32_MIN, INT32_MAX, &tx) ||
                      opj_int(jt->items[1], INT32_MIN, INT32_MAX, &tz)))
    st = opd_arg_error(err, "tile", "must be [tx, tz], two integers");
  op_chf *c = NULL;
  if (st == OP_OK) {
    op_soup soup = op_trimesh_soup(&a.m);
    double o[3], ymax;
    st = op_soup_frame(&soup, o, &ymax, err);
    if (st == OP_OK)
      st = op_spans_build_tile(&a.s, &soup, o, o[1], ymax, (int32_t)tx, (int32_t)tz, &c, err);
  }
  op_bytes b = {NULL, 0};
  if (st == OP_OK && c) st = op_chf_save(c, &b, err);
  if (st == OP_OK) {
    uint32_t walk = 0;
    for (uint32_t i = 0; c && i < c->nspans; i++) walk += c->areas[i] != 0;
    opj_w_key(res, "built");
    opj_w_bool(res, c != NULL);
    opj_w_key(res, "nspans");
    opj_w_int(res, c ? c->nspans : 0);
    opj_w_key(res, "walkable");
    opj_w_int(res, walk);
    opj_w_key(res, "bytes");
    opj_w_hexbytes(res, b.data, b.len);
  }
  op_bytes_free(&b);
  op_chf_free(c);
  args_free(&a);
  return st;
}

/* SPAN-191 */
static op_status op_spans_build_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  (void)ss;
  spans_args a;
  op_status st = dec_args(args, &a, err);
  op_bytes b = {NULL, 0};
  if (st == OP_OK) {
    op_soup soup = op_trimesh_soup(&a.m);
    st = op_spans_build_all(&a.s, &soup, &b, err);
  }
  if (st == OP_OK) {
    const uint8_t *p = b.data;
    opj_w_key(res, "ntx");
    opj_w_int(res, (int64_t)(p[8] | p[9] << 8 | p[10] << 16 | (uint32_t)p[11] << 24));
    opj_w_key(res, "ntz");
    opj_w_int(res, (int64_t)(p[12] | p[13] << 8 | p[14] << 16 | (uint32_t)p[15] << 24));
    opj_w_key(res, "built");
    opj_w_int(res, (int64_t)(p[16] | p[17] << 8 | p[18] << 16 | (uint32_t)p[19] << 24));
    opj_w_key(res, "bytes");
    opj_w_hexbytes(res, b.data, b.len);
  }
  op_bytes_free(&b);
  args_free(&a);
  return st;
}

const opd_op opd_ops_spans[] = {
    {"spans.build_tile", op_spans_build_tile_op},
    {"spans.build", op_spans_build_op},
    {NULL, NULL},
};
