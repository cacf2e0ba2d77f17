/*
** ops_spans.c -- protocol operations of the span stages (spec/build3d-spans.md section 9,
** SPAN-190 .. SPAN-192): spans.build_tile, spans.build and spans.build_columns. Table
** opd_ops_spans. Settings come as a full settings object (SPAN-093, decoded by
** port/ops_settings.c) or as a preset name with optional volumes (SPAN-190).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "ops_settings.h"
#include "onepath_build3d.h"

/* The decoded common arguments: settings (a settings object, or a preset with optional
** volumes) and triangles. */
typedef struct spans_args {
  op_settings s;
  opd_settings_dec d;     /* the settings object, when given (owns its lists) */
  op_convex_volume *vols; /* the volumes argument, with a preset */
  int have_settings;      /* 1 when the settings argument was given */
  op_trimesh m;
} spans_args;

static void args_free(spans_args *a) {
  free(a->vols);
  opd_settings_dec_free(&a->d);
  op_trimesh_free(&a->m);
}

/* SPAN-190: the settings: a settings object (it wins over preset; volumes then belong in
** it), or a preset with optional volumes; validated before any input is read. */
static op_status dec_settings_arg(const opj *args, spans_args *a, op_error *err) {
  memset(a, 0, sizeof *a);
  const opj *js = opj_get(args, "settings"), *jv = opj_get(args, "volumes");
  op_status st;
  if (js && js->type != OPJ_NULL) {
    a->have_settings = 1;
    if (jv && jv->type != OPJ_NULL)
      return opd_arg_error(err, "volumes", "with settings, give the volumes in settings.volumes");
    st = opd_settings_decode_valid(js, &a->d, err); /* SPAN-093, SPAN-030 */
    if (st == OP_OK) a->s = a->d.s;
    return st;
  }
  const opj *p = opj_get(args, "preset");
  if (!p || p->type != OPJ_STR) return opd_arg_error(err, "preset", "must be a preset name");
  st = op_settings_preset(p->str, &a->s, err);
  if (st != OP_OK) {
    if (err) snprintf(err->field, sizeof err->field, "preset");
    return st;
  }
  /* SPAN-190: the volumes argument has the form of SPAN-093, fields "volumes[i]..." */
  if ((st = opd_volumes_decode(jv, "volumes", &a->vols, &a->s.nvolumes, err)) != OP_OK) return st;
  a->s.volumes = a->vols;
  return op_settings_validate(&a->s, err); /* SPAN-031 on the volumes, unprefixed */
}

/* Prefixes err->field with pre (the argument an input error lies in). */
static op_status prefix_field(op_status st, const char *pre, op_error *err) {
  if (st != OP_OK && err) {
    char f[sizeof err->field];
    snprintf(f, sizeof f, "%s%.80s", pre, err->field);
    memcpy(err->field, f, sizeof f);
  }
  return st;
}

/* SPAN-190: settings, then soup or level. */
static op_status dec_args(const opj *args, spans_args *a, op_error *err) {
  op_status st = dec_settings_arg(args, a, err);
  if (st != OP_OK) return st;
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
    return prefix_field(st, "soup.", err);
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
  /* the generator's own fields inside the level argument; a rule stairs puts on the
  ** given settings object names the settings (as level.generate, LVL-070) */
  if (st != OP_OK && st != OP_E_NOMEM && err && a->have_settings && strcmp(err->field, "name") &&
      strcmp(err->field, "size"))
    return prefix_field(st, "settings.", err);
  return prefix_field(st, "level.", err);
}

/* The answer of one tile (SPAN-190, SPAN-192); c NULL when the tile is not built. */
static op_status write_tile(opj_w *res, const op_chf *c, op_error *err) {
  op_bytes b = {NULL, 0};
  op_status st = OP_OK;
  if (c) st = op_chf_save(c, &b, err);
  if (st != OP_OK) return st;
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
  op_bytes_free(&b);
  return OP_OK;
}

/* SPAN-190, SPAN-192: tile is [tx, tz], two 32-bit integers. */
static op_status dec_tile(const opj *args, int64_t *tx, int64_t *tz, op_error *err) {
  const opj *jt = opj_get(args, "tile");
  if (!jt || jt->type != OPJ_ARR || jt->n != 2 || opj_int(jt->items[0], INT32_MIN, INT32_MAX, tx) ||
      opj_int(jt->items[1], INT32_MIN, INT32_MAX, tz))
    return opd_arg_error(err, "tile", "must be [tx, tz], two integers");
  return OP_OK;
}

/* SPAN-190 */
static op_status op_spans_build_tile_op(opd_session *ss, const opj *args, opj_w *res,
                                        op_error *err) {
  spans_args a;
  op_status st = dec_args(args, &a, err);
  int64_t tx = 0, tz = 0;
  if (st == OP_OK) st = dec_tile(args, &tx, &tz, err);
  /* SPAN-190: chunk_size, when present and not null, builds from the chunked mesh */
  const opj *jc = opj_get(args, "chunk_size");
  int chunked = jc && jc->type != OPJ_NULL;
  double csize = 0;
  if (st == OP_OK && chunked && opj_double(jc, &csize))
    st = opd_arg_error(err, "chunk_size", "must be a number");
  op_chf *c = NULL;
  if (st == OP_OK) {
    op_soup soup = op_trimesh_soup(&a.m);
    double o[3], ymax;
    st = op_soup_frame(&soup, o, &ymax, err);
    if (st == OP_OK && !chunked)
      st = op_spans_build_tile_counted(&a.s, &soup, o, o[1], ymax, (int32_t)tx, (int32_t)tz,
                                       opd_alloc(ss), &c, err); /* CONF-059 */
    if (st == OP_OK && chunked) { /* SPAN-064: the same bytes as the soup's */
      op_chunked *ch = NULL;
      st = op_chunked_create(&soup, csize, &ch, err);
      if (st == OP_OK)
        st = op_spans_build_tile_chunked(&a.s, ch, o, o[1], ymax, (int32_t)tx, (int32_t)tz, &c,
                                         err);
      op_chunked_free(ch);
    }
  }
  if (st == OP_OK) st = write_tile(res, c, err);
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

/* SPAN-192: the columns argument, decoded (argument errors naming columns.*); the
** checks of SPAN-072 are the library's. */
typedef struct columns_arg {
  op_solid_columns h;
  uint32_t *col_start; /* owned */
  op_solid_span *spans; /* owned */
} columns_arg;

static op_status dec_columns(const opj *jc, columns_arg *ca, op_error *err) {
  char f[96];
  memset(ca, 0, sizeof *ca);
  if (!jc || jc->type != OPJ_OBJ) return opd_arg_error(err, "columns", "must be an object");
  const opj *o = opj_get(jc, "origin");
  if (!o || o->type != OPJ_ARR || o->n != 3 || opj_double(o->items[0], &ca->h.origin[0]) ||
      opj_double(o->items[1], &ca->h.origin[1]) || opj_double(o->items[2], &ca->h.origin[2]))
    return opd_arg_error(err, "columns.origin", "must be [x, y, z], three numbers");
  int64_t w, d;
  if (opj_int(opj_get(jc, "width"), 0, UINT32_MAX, &w))
    return opd_arg_error(err, "columns.width", "must be an integer in 0..2^32-1");
  if (opj_int(opj_get(jc, "depth"), 0, UINT32_MAX, &d))
    return opd_arg_error(err, "columns.depth", "must be an integer in 0..2^32-1");
  ca->h.width = (uint32_t)w;
  ca->h.depth = (uint32_t)d;
  const opj *cs = opj_get(jc, "col_start");
  if (!cs || cs->type != OPJ_ARR || (uint64_t)cs->n != (uint64_t)w * (uint64_t)d + 1)
    return opd_arg_error(err, "columns.col_start", "must be an array of width * depth + 1 integers");
  ca->col_start = malloc(cs->n * sizeof *ca->col_start);
  if (!ca->col_start) return opd_nomem(err, "columns.col_start");
  for (size_t i = 0; i < cs->n; i++) {
    int64_t v;
    snprintf(f, sizeof f, "columns.col_start[%zu]", i);
    if (opj_int(cs->items[i], 0, UINT32_MAX, &v))
      return opd_arg_error(err, f, "must be an integer in 0..2^32-1");
    ca->col_start[i] = (uint32_t)v;
  }
  const opj *sp = opj_get(jc, "spans");
  if (!sp || sp->type != OPJ_ARR)
    return opd_arg_error(err, "columns.spans", "must be an array of [ymin, ymax, area]");
  ca->spans = calloc(sp->n + 1, sizeof *ca->spans);
  if (!ca->spans) return opd_nomem(err, "columns.spans");
  for (size_t i = 0; i < sp->n; i++) {
    const opj *s = sp->items[i];
    int64_t y0, y1, ar;
    snprintf(f, sizeof f, "columns.spans[%zu]", i);
    if (s->type != OPJ_ARR || s->n != 3 || opj_int(s->items[0], INT32_MIN, INT32_MAX, &y0) ||
        opj_int(s->items[1], INT32_MIN, INT32_MAX, &y1) || opj_int(s->items[2], 0, UINT32_MAX, &ar))
      return opd_arg_error(err, f, "a span is [ymin, ymax, area], three integers");
    if (ar > 255) { /* 64..255 are the library's out_of_range, in SPAN-072's order */
      snprintf(f, sizeof f, "columns.spans[%zu].area", i);
      return op_fail_i(err, OP_E_RANGE, f, (long long)ar, "an area id is 0..63");
    }
    ca->spans[i].ymin = (int32_t)y0;
    ca->spans[i].ymax = (int32_t)y1;
    ca->spans[i].area = (uint8_t)ar;
  }
  ca->h.col_start = ca->col_start;
  ca->h.nspans = (uint32_t)sp->n;
  ca->h.spans = ca->spans;
  return OP_OK;
}

/* SPAN-192 */
static op_status op_spans_build_columns_op(opd_session *ss, const opj *args, opj_w *res,
                                           op_error *err) {
  (void)ss;
  spans_args a;
  columns_arg ca;
  memset(&ca, 0, sizeof ca);
  op_status st = dec_settings_arg(args, &a, err);
  if (st == OP_OK) st = dec_columns(opj_get(args, "columns"), &ca, err);
  if (st == OP_OK) st = prefix_field(op_solid_columns_validate(&ca.h, &a.s, err), "columns.", err);
  int64_t tx = 0, tz = 0;
  if (st == OP_OK) st = dec_tile(args, &tx, &tz, err);
  op_chf *c = NULL;
  if (st == OP_OK)
    st = op_spans_build_tile_columns(&a.s, &ca.h, (int32_t)tx, (int32_t)tz, &c, err);
  if (st == OP_OK) st = write_tile(res, c, err);
  op_chf_free(c);
  free(ca.col_start);
  free(ca.spans);
  args_free(&a);
  return st;
}

const opd_op opd_ops_spans[] = {
    {"spans.build_tile", op_spans_build_tile_op},
    {"spans.build", op_spans_build_op},
    {"spans.build_columns", op_spans_build_columns_op},
    {NULL, NULL},
};
