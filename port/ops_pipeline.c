/*
** ops_pipeline.c -- protocol operations of the whole 3D build (spec/build3d-polys.md
** section 6, POLY-230 .. POLY-233): build3d.soup, build3d.chunk, build3d.heightfield, with
** the optional work budget of spec/build3d-spans.md section 11 (SPAN-205).
** Table opd_ops_pipeline. The argument decoding and the tile part of the answer are
** shared with the tile cache's build ops (ops_pipeline.h; port/ops_tilecache.c, RT-151).
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "ops_pipeline.h"
#include "ops_stage.h"

/* POLY-233: the tile hook keeps a copy of every tile the build adds. */
static void keep_tile(void *ud, int32_t tx, int32_t tz, const op_tile *tile) {
  (void)tx;
  (void)tz;
  opd_tile_copies *c = ud;
  op_bytes b = {NULL, 0};
  op_tile *copy = NULL;
  if (c->failed) return;
  if (c->n == c->cap) {
    uint32_t nc = c->cap ? 2 * c->cap : 16;
    op_tile **nt = realloc(c->t, nc * sizeof *nt);
    if (!nt) {
      c->failed = 1;
      return;
    }
    c->t = nt;
    c->cap = nc;
  }
  if (op_tile_save(tile, &b, NULL) != OP_OK || op_tile_load(b.data, b.len, &copy, NULL) != OP_OK)
    c->failed = 1;
  else
    c->t[c->n++] = copy;
  op_bytes_free(&b);
}

static void copies_free(opd_tile_copies *c) {
  for (uint32_t i = 0; i < c->n; i++) op_tile_free(c->t[i]);
  free(c->t);
  memset(c, 0, sizeof *c);
}

void opd_pl_args_free(opd_pl_args *a) {
  copies_free(&a->tc);
  op_chunked_free(a->chunk);
  a->chunk = NULL;
  opd_settings_dec_free(&a->sd);
  op_trimesh_free(&a->m);
  free(a->col_start);
  free(a->spans);
  a->col_start = NULL;
  a->spans = NULL;
}

/* POLY-230: settings | preset (+ partition, detail_sample_distance overrides). */
static op_status dec_settings(const opj *args, opd_pl_args *a, op_error *err) {
  const opj *js = opj_get(args, "settings"), *jp = opj_get(args, "preset");
  if ((js != NULL) == (jp != NULL))
    return opd_arg_error(err, "settings", "give exactly one of settings and preset");
  op_status st;
  if (js) {
    st = opd_settings_decode(js, &a->sd, err);
    if (st == OP_OK) st = op_settings_validate(&a->sd.s, err);
    if (st == OP_OK) st = op_detail_check(&a->sd.s, err); /* POLY-202 */
    return opd_settings_prefix(st, err);
  }
  memset(&a->sd, 0, sizeof a->sd);
  if (jp->type != OPJ_STR) return opd_arg_error(err, "preset", "must be a preset name");
  if ((st = op_settings_preset(jp->str, &a->sd.s, err)) != OP_OK) {
    if (err) snprintf(err->field, sizeof err->field, "preset");
    return st;
  }
  const opj *v = opj_get(args, "partition");
  if (v) {
    int k = -1;
    for (int j = 0; j < 3 && v->type == OPJ_STR; j++)
      if (!strcmp(v->str, opd_partition_names[j])) k = j;
    if (k < 0)
      return op_fail(err, OP_E_ARGUMENT, "partition", v->type == OPJ_STR ? v->str : "",
                     "watershed, monotone or layers");
    a->sd.s.partition = (op_partition)k;
  }
  v = opj_get(args, "detail_sample_distance");
  if (v && opj_double(v, &a->sd.s.detail_sample_distance))
    return opd_arg_error(err, "detail_sample_distance", "must be a number");
  st = op_settings_validate(&a->sd.s, err); /* the overridden members by their own names */
  return st == OP_OK ? op_detail_check(&a->sd.s, err) : st;
}

/* POLY-230: soup | level (the forms of SPAN-190). */
static op_status dec_soup(const opj *args, opd_pl_args *a, op_error *err) {
  const opj *js = opj_get(args, "soup"), *jl = opj_get(args, "level");
  op_status st;
  if ((js != NULL) == (jl != NULL))
    return opd_arg_error(err, "soup", "give exactly one of soup and level");
  if (js) {
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (opj_hexbytes(js, &bytes, &len))
      return opd_arg_error(err, "soup", "must be hex bytes of a triangle soup");
    st = op_soup_load(bytes, len, &a->m, err);
    free(bytes);
    if (st != OP_OK) opd_prefix_field(err, "soup.");
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
  st = op_level_generate(n->str, seed, (uint32_t)size, &a->sd.s, &a->m, err);
  if (st != OP_OK) opd_prefix_field(err, "level.");
  return st;
}

/* POLY-232: columns {origin, width, depth, spans: per column [[ymin, ymax, area], ...]}. */
static op_status dec_columns(const opj *args, opd_pl_args *a, op_error *err) {
  op_solid_columns *c = &a->cols;
  const opj *jc = opj_get(args, "columns");
  if (!jc || jc->type != OPJ_OBJ) return opd_arg_error(err, "columns", "must be an object");
  memset(c, 0, sizeof *c);
  const opj *o = opj_get(jc, "origin");
  if (!o || o->type != OPJ_ARR || o->n != 3 || opj_double(o->items[0], &c->origin[0]) ||
      opj_double(o->items[1], &c->origin[1]) || opj_double(o->items[2], &c->origin[2]))
    return opd_arg_error(err, "columns.origin", "must be [x, y, z]");
  int64_t w, d;
  if (opj_int(opj_get(jc, "width"), 0, UINT32_MAX, &w))
    return opd_arg_error(err, "columns.width", "must be an integer in 0..2^32-1");
  if (opj_int(opj_get(jc, "depth"), 0, UINT32_MAX, &d))
    return opd_arg_error(err, "columns.depth", "must be an integer in 0..2^32-1");
  const opj *js = opj_get(jc, "spans");
  int empty = js && js->type == OPJ_OBJ && js->n == 0; /* {} is the empty array */
  if (!js || (js->type != OPJ_ARR && !empty) || (uint64_t)js->n != (uint64_t)w * (uint64_t)d)
    return opd_arg_error(err, "columns.spans", "must be an array of width * depth columns");
  size_t total = 0;
  for (size_t i = 0; i < js->n; i++) {
    /* POLY-232: {} (an empty Lua table) is the empty column too */
    if (js->items[i]->type != OPJ_ARR && !(js->items[i]->type == OPJ_OBJ && js->items[i]->n == 0)) {
      char f[64];
      snprintf(f, sizeof f, "columns.spans[%zu]", i);
      return opd_arg_error(err, f, "must be an array of spans");
    }
    total += js->items[i]->n;
  }
  if (total > (1u << 24))
    return op_fail_i(err, OP_E_LIMIT, "columns.spans", (long long)total, "at most 2^24 spans");
  a->col_start = calloc(js->n + 1, sizeof *a->col_start);
  a->spans = calloc(total + 1, sizeof *a->spans);
  if (!a->col_start || !a->spans) return opd_nomem(err, "columns");
  size_t k = 0;
  for (size_t i = 0; i < js->n; i++) {
    a->col_start[i] = (uint32_t)k;
    const opj *col = js->items[i];
    for (size_t j = 0; j < col->n; j++, k++) {
      const opj *sp = col->items[j];
      int64_t y0, y1, ar;
      if (!sp || sp->type != OPJ_ARR || sp->n != 3 ||
          opj_int(sp->items[0], INT32_MIN, INT32_MAX, &y0) ||
          opj_int(sp->items[1], INT32_MIN, INT32_MAX, &y1) || opj_int(sp->items[2], 0, 255, &ar)) {
        char f[64];
        snprintf(f, sizeof f, "columns.spans[%zu][%zu]", i, j);
        return opd_arg_error(err, f, "must be [ymin, ymax, area], integers");
      }
      a->spans[k].ymin = (int32_t)y0;
      a->spans[k].ymax = (int32_t)y1;
      a->spans[k].area = (uint8_t)ar;
    }
  }
  a->col_start[js->n] = (uint32_t)k;
  c->width = (uint32_t)w;
  c->depth = (uint32_t)d;
  c->col_start = a->col_start;
  c->nspans = (uint32_t)k;
  c->spans = a->spans;
  /* POLY-232: SPAN-072's fields under columns. */
  op_status st = op_solid_columns_validate(c, &a->sd.s, err);
  if (st != OP_OK) opd_prefix_field(err, "columns.");
  return st;
}

/* POLY-231: chunk_size, then the chunked mesh of the soup. */
static op_status dec_chunk(const opj *args, opd_pl_args *a, op_error *err) {
  double size = 0;
  if (opj_double(opj_get(args, "chunk_size"), &size))
    return opd_arg_error(err, "chunk_size", "must be a number");
  return op_chunked_create(&a->soup, size, &a->chunk, err);
}

op_status opd_pl_decode(const opj *args, opd_pl_input input, opd_pl_args *a, op_error *err) {
  memset(a, 0, sizeof *a);
  a->input = input;
  a->hooks.ud = &a->tc;
  a->hooks.tile = keep_tile;
  op_status st = dec_settings(args, a, err);
  if (st != OP_OK) return st;
  if (input == OPD_PL_COLUMNS) return dec_columns(args, a, err);
  if ((st = dec_soup(args, a, err)) != OP_OK) return st;
  a->soup = op_trimesh_soup(&a->m);
  return input == OPD_PL_CHUNK ? dec_chunk(args, a, err) : OP_OK;
}

op_status opd_pl_answer_tiles(opd_session *ss, opd_pl_args *a, const op_pipeline_result *r,
                              opj_w *res, op_error *err) {
  opd_tile_copies *tc = &a->tc;
  if (tc->failed || tc->n != r->ntiles)
    return opd_nomem(err, "tiles");
  int64_t *th = calloc((size_t)tc->n + 1, sizeof *th);
  if (!th) return opd_nomem(err, "tiles");
  uint32_t put = 0;
  for (; put < tc->n; put++) {
    th[put] = opd_put(ss, OPD_TILE, tc->t[put]); /* takes ownership */
    tc->t[put] = NULL;
    if (th[put] < 0) break;
  }
  if (put < tc->n) { /* POLY-233: a failed op creates no handle */
    int64_t bad = th[put];
    for (uint32_t i = 0; i < put; i++) opd_drop(ss, OPD_TILE, th[i]);
    free(th);
    return opd_put_error(err, bad);
  }
  opj_w_key(res, "ntx");
  opj_w_int(res, r->ntx);
  opj_w_key(res, "ntz");
  opj_w_int(res, r->ntz);
  opj_w_key(res, "built");
  opj_w_int(res, r->nbuilt);
  opj_w_key(res, "npolys");
  opj_w_int(res, (int64_t)r->npolys);
  opj_w_key(res, "tiles");
  opj_w_arr_begin(res);
  for (uint32_t i = 0; i < r->ntiles; i++) {
    const op_pipeline_tile *t = &r->tiles[i];
    opj_w_obj_begin(res);
    opj_w_key(res, "x");
    opj_w_int(res, t->x);
    opj_w_key(res, "z");
    opj_w_int(res, t->z);
    opj_w_key(res, "layer");
    opj_w_int(res, t->layer);
    opj_w_key(res, "nverts");
    opj_w_int(res, t->nverts);
    opj_w_key(res, "npolys");
    opj_w_int(res, t->npolys);
    opj_w_key(res, "content_id");
    opj_w_u64hex(res, t->content_id);
    opj_w_key(res, "tile");
    opj_w_int(res, th[i]);
    opj_w_obj_end(res);
  }
  opj_w_arr_end(res);
  free(th);
  return OP_OK;
}

/* SPAN-205: the optional `limits` object {max_tile_grid_cells, max_tiles, max_build_cells},
** each an integer in [0, 2^53] (0 or absent: the default of SPAN-201). */
static op_status dec_limits(const opj *args, op_build_limits *l, op_error *err) {
  static const char *const names[3] = {"max_tile_grid_cells", "max_tiles", "max_build_cells"};
  memset(l, 0, sizeof *l);
  const opj *jl = opj_get(args, "limits");
  if (!jl || jl->type == OPJ_NULL) return OP_OK;
  if (jl->type != OPJ_OBJ) return opd_arg_error(err, "limits", "must be an object");
  uint64_t *dst[3] = {&l->max_tile_grid_cells, &l->max_tiles, &l->max_build_cells};
  size_t known = 0;
  for (int k = 0; k < 3; k++) {
    const opj *v = opj_get(jl, names[k]);
    if (!v) continue;
    known++;
    int64_t x;
    if (opj_int(v, 0, (int64_t)1 << 53, &x)) {
      char f[48];
      snprintf(f, sizeof f, "limits.%s", names[k]);
      return opd_arg_error(err, f, "must be an integer in 0..2^53");
    }
    *dst[k] = (uint64_t)x;
  }
  if (known != jl->n)
    return opd_arg_error(err, "limits", "members: max_tile_grid_cells, max_tiles, max_build_cells");
  return OP_OK;
}

/* POLY-234: one number member of an off-mesh definition. */
static op_status om_num(const opj *v, const char *field, double *out, op_error *err) {
  if (opj_double(v, out)) return opd_arg_error(err, field, "must be a number");
  return OP_OK;
}

/* POLY-234: a point [x, y, z] of numbers. */
static op_status om_point(const opj *o, const char *key, size_t i, double out[3],
                          op_error *err) {
  char f[64];
  snprintf(f, sizeof f, "offmesh[%zu].%s", i, key);
  const opj *v = opj_get(o, key);
  if (!v || v->type != OPJ_ARR || v->n != 3)
    return opd_arg_error(err, f, "must be an array of 3 numbers");
  for (int k = 0; k < 3; k++) {
    char fk[80];
    snprintf(fk, sizeof fk, "%s[%d]", f, k);
    op_status st = om_num(v->items[k], fk, &out[k], err);
    if (st != OP_OK) return st;
  }
  return OP_OK;
}

/* POLY-234: one integer member in [0, hi]. */
static op_status om_int(const opj *o, const char *key, size_t i, int64_t hi, int64_t *out,
                        op_error *err) {
  char f[64];
  snprintf(f, sizeof f, "offmesh[%zu].%s", i, key);
  if (opj_int(opj_get(o, key), 0, hi, out)) {
    char why[64];
    snprintf(why, sizeof why, "must be an integer in [0, %lld]", (long long)hi);
    return opd_arg_error(err, f, why);
  }
  return OP_OK;
}

/* POLY-234: item i of `offmesh`, members in the clause's order. */
static op_status om_item(const opj *o, size_t i, op_offmesh_link *l, op_error *err) {
  char f[64];
  snprintf(f, sizeof f, "offmesh[%zu]", i);
  if (!o || o->type != OPJ_OBJ) return opd_arg_error(err, f, "must be an object");
  op_status st = om_point(o, "start", i, l->start, err);
  if (st == OP_OK) st = om_point(o, "end", i, l->end, err);
  snprintf(f, sizeof f, "offmesh[%zu].radius", i);
  if (st == OP_OK) st = om_num(opj_get(o, "radius"), f, &l->radius, err);
  int64_t v = 0;
  const opj *jb = opj_get(o, "bidirectional");
  if (st == OP_OK && jb && jb->type == OPJ_BOOL)
    l->bidirectional = (uint8_t)(jb->b != 0);
  else if (st == OP_OK && (st = om_int(o, "bidirectional", i, 1, &v, err)) == OP_OK)
    l->bidirectional = (uint8_t)v;
  if (st == OP_OK && (st = om_int(o, "area", i, 255, &v, err)) == OP_OK) l->area = (uint8_t)v;
  if (st == OP_OK && (st = om_int(o, "flags", i, 65535, &v, err)) == OP_OK)
    l->flags = (uint16_t)v;
  if (st == OP_OK && (st = om_int(o, "user_id", i, UINT32_MAX, &v, err)) == OP_OK)
    l->user_id = (uint32_t)v;
  return st;
}

/* POLY-234: the optional `offmesh` list into *out (owned, freed by the caller); *has 1 when
** the request has the member. */
op_status opd_dec_offmesh(const opj *args, op_offmesh_link **out, uint32_t *n, int *has,
                         op_error *err) {
  *out = NULL;
  *n = 0;
  const opj *jo = opj_get(args, "offmesh");
  *has = jo != NULL;
  if (!jo) return OP_OK;
  if (jo->type != OPJ_ARR) return opd_arg_error(err, "offmesh", "must be an array");
  if (jo->n > OP_PIPELINE_MAX_OFFMESH)
    return op_fail_i(err, OP_E_LIMIT, "offmesh", (long long)jo->n,
                     "a build takes at most 65536 off-mesh link definitions");
  op_offmesh_link *l = calloc(jo->n + 1, sizeof *l);
  if (!l) return opd_nomem(err, "args");
  for (size_t i = 0; i < jo->n; i++) {
    op_status st = om_item(jo->items[i], i, &l[i], err);
    if (st != OP_OK) {
      free(l);
      return st;
    }
  }
  *out = l;
  *n = (uint32_t)jo->n;
  return OP_OK;
}

/* POLY-235: the optional `tile_range` {x0, x1, z0, z1} (integers in -2^31 .. 2^31 - 1) into
** the options; its values are checked by the build (POLY-229, after the grid's limits). */
static op_status dec_range(const opj *args, op_pipeline_options *o, op_error *err) {
  static const char *const names[4] = {"x0", "x1", "z0", "z1"};
  const opj *jr = opj_get(args, "tile_range");
  if (!jr || jr->type == OPJ_NULL) return OP_OK;
  if (jr->type != OPJ_OBJ) return opd_arg_error(err, "tile_range", "must be an object");
  int32_t *dst[4] = {&o->x0, &o->x1, &o->z0, &o->z1};
  for (int k = 0; k < 4; k++) {
    const opj *v = opj_get(jr, names[k]);
    int64_t x;
    if (!v || opj_int(v, INT32_MIN, INT32_MAX, &x)) {
      char f[32];
      snprintf(f, sizeof f, "tile_range.%s", names[k]);
      return opd_arg_error(err, f, "must be an integer in -2^31..2^31-1");
    }
    *dst[k] = (int32_t)x;
  }
  if (jr->n != 4) return opd_arg_error(err, "tile_range", "members: x0, x1, z0, z1");
  o->tile_range = 1;
  return OP_OK;
}

/* POLY-230 .. POLY-233: decode, build, the mesh becomes a session handle, then the tiles. */
static op_status build_op(opd_session *ss, const opj *args, opj_w *res, op_error *err,
                          opd_pl_input input) {
  opd_pl_args a;
  op_build_limits lim;
  op_pipeline_result r;
  memset(&r, 0, sizeof r);
  op_pipeline_options o;
  memset(&o, 0, sizeof o);
  op_offmesh_link *om = NULL;
  int has_om = 0;
  op_status st = opd_pl_decode(args, input, &a, err);
  if (st == OP_OK) st = dec_limits(args, &lim, err);
  if (st == OP_OK) st = opd_dec_offmesh(args, &om, &o.noffmesh, &has_om, err); /* POLY-234 */
  if (st == OP_OK) st = dec_range(args, &o, err);                        /* POLY-235 */
  o.limits = &lim;
  o.offmesh = om;
  o.alloc = opd_alloc(ss); /* CONF-059: NULL unless fail_alloc armed this request */
  if (st == OP_OK) {
    if (input == OPD_PL_SOUP)
      st = op_pipeline_build_soup_opt(&a.sd.s, &a.soup, &o, &a.hooks, &r, err);
    else if (input == OPD_PL_CHUNK)
      st = op_pipeline_build_chunk_opt(&a.sd.s, a.chunk, &o, &a.hooks, &r, err);
    else
      st = op_pipeline_build_heightfield_opt(&a.sd.s, &a.cols, &o, &a.hooks, &r, err);
  }
  free(om);
  if (st == OP_OK) {
    int64_t h = opd_put(ss, OPD_MESH, r.mesh); /* takes ownership */
    r.mesh = NULL;
    if (h < 0) st = opd_put_error(err, h);
    if (st == OP_OK) {
      opj_w_key(res, "mesh");
      opj_w_int(res, h);
      st = opd_pl_answer_tiles(ss, &a, &r, res, err);
      if (st != OP_OK) opd_drop(ss, OPD_MESH, h);
      if (st == OP_OK && has_om) { /* POLY-234: the slots stored */
        opj_w_key(res, "offmesh");
        opj_w_int(res, r.noffmesh);
      }
    }
  }
  op_pipeline_result_free(&r);
  opd_pl_args_free(&a);
  return st;
}

static op_status build_soup_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  return build_op(ss, args, res, err, OPD_PL_SOUP); /* POLY-230 */
}

static op_status build_chunk_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  return build_op(ss, args, res, err, OPD_PL_CHUNK); /* POLY-231 */
}

static op_status build_heightfield_op(opd_session *ss, const opj *args, opj_w *res,
                                      op_error *err) {
  return build_op(ss, args, res, err, OPD_PL_COLUMNS); /* POLY-232 */
}

const opd_op opd_ops_pipeline[] = {
    {"build3d.soup", build_soup_op},
    {"build3d.chunk", build_chunk_op},
    {"build3d.heightfield", build_heightfield_op},
    {NULL, NULL},
};
