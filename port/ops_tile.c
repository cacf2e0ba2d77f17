/*
** ops_tile.c -- protocol ops tile.create, tile.load, tile.save, tile.view
** (spec/navmesh-format.md, section "Protocol", FMT-070 .. FMT-073; docs/porting.md).
**
** Argument decoding problems are argument errors naming the JSON path of the argument
** ("verts[3][1]", "polys[2].neis", "tiling.cell_size"); every rule of the format itself is
** checked by op_tile_create / op_tile_load, which name the tile's field.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

/* Everything decoded from tile.create's args; owns its arrays. */
typedef struct targs {
  op_tile_desc d;
  float *verts, *dverts;
  op_poly_desc *polys;
  op_detail_desc *detail;
  uint8_t *dtris;
  op_offmesh_desc *offmesh;
} targs;

static void targs_free(targs *a) {
  free(a->verts);
  free(a->dverts);
  free(a->polys);
  free(a->detail);
  free(a->dtris);
  free(a->offmesh);
}


static op_status get_int(const opj *v, const char *field, int64_t lo, int64_t hi, int64_t *out,
                         op_error *err) {
  if (opj_int(v, lo, hi, out)) {
    char why[96];
    snprintf(why, sizeof why, "must be an integer in [%lld, %lld]", (long long)lo, (long long)hi);
    return opd_arg_error(err, field, why);
  }
  return OP_OK;
}

static op_status get_double(const opj *v, const char *field, double *out, op_error *err) {
  if (opj_double(v, out)) return opd_arg_error(err, field, "must be a number");
  return OP_OK;
}

/* FMT-071: a float32 field travels as a double that float32 represents exactly
** (non-finite values pass, so that the format's own rule reports them). */
static op_status get_f32(const opj *v, const char *field, float *out, op_error *err) {
  double d;
  if (opj_double(v, &d)) return opd_arg_error(err, field, "must be a number");
  float f = (float)d;
  if (isfinite(d) && (!isfinite(f) || (double)f != d))
    return opd_arg_error(err, field, "not exactly representable as float32");
  *out = f;
  return OP_OK;
}

static op_status get_vec3(const opj *v, const char *field, float out[3], op_error *err) {
  if (!v || v->type != OPJ_ARR || v->n != 3) return opd_arg_error(err, field, "must be an array of 3 numbers");
  char f[96];
  for (int k = 0; k < 3; k++) {
    snprintf(f, sizeof f, "%s[%d]", field, k);
    op_status s = get_f32(v->items[k], f, &out[k], err);
    if (s) return s;
  }
  return OP_OK;
}

/* An optional array member: absent or null gives n = 0. */
static op_status get_arr(const opj *args, const char *key, int required, const opj **out,
                         op_error *err) {
  const opj *v = opj_get(args, key);
  if (!v || v->type == OPJ_NULL) {
    if (required) return opd_arg_error(err, key, "must be an array");
    *out = NULL;
    return OP_OK;
  }
  if (v->type != OPJ_ARR) return opd_arg_error(err, key, "must be an array");
  if (v->n > 0x7FFFFFFFu) return opd_arg_error(err, key, "too many items");
  *out = v;
  return OP_OK;
}

static op_status dec_tiling(const opj *args, op_tiling *t, op_error *err) {
  const opj *jt = opj_get(args, "tiling");
  if (!jt || jt->type != OPJ_OBJ) return opd_arg_error(err, "tiling", "must be an object");
  const opj *jo = opj_get(jt, "origin");
  if (!jo || jo->type != OPJ_ARR || jo->n != 3)
    return opd_arg_error(err, "tiling.origin", "must be an array of 3 numbers");
  char f[64];
  op_status s;
  for (int k = 0; k < 3; k++) {
    snprintf(f, sizeof f, "tiling.origin[%d]", k);
    if ((s = get_double(jo->items[k], f, &t->origin[k], err))) return s;
  }
  if ((s = get_double(opj_get(jt, "cell_size"), "tiling.cell_size", &t->cell_size, err))) return s;
  if ((s = get_double(opj_get(jt, "cell_height"), "tiling.cell_height", &t->cell_height, err))) return s;
  int64_t v;
  if ((s = get_int(opj_get(jt, "tile_cells"), "tiling.tile_cells", 0, UINT32_MAX, &v, err))) return s;
  t->tile_cells = (uint32_t)v;
  if ((s = get_int(opj_get(jt, "max_verts_per_poly"), "tiling.max_verts_per_poly", 0, UINT32_MAX, &v, err)))
    return s;
  t->max_verts_per_poly = (uint32_t)v;
  return OP_OK;
}

static op_status dec_polys(const opj *jp, targs *a, op_error *err) {
  size_t n = jp ? jp->n : 0;
  a->polys = calloc(n + 1, sizeof *a->polys);
  if (!a->polys) return opd_nomem(err, "args");
  a->d.npolys = (uint32_t)n;
  char f[96];
  op_status s;
  int64_t v;
  for (size_t i = 0; i < n; i++) {
    const opj *o = jp->items[i];
    op_poly_desc *p = &a->polys[i];
    snprintf(f, sizeof f, "polys[%zu]", i);
    if (o->type != OPJ_OBJ) return opd_arg_error(err, f, "must be an object");
    /* FMT-074: verts completely (length, then elements), then neis completely */
    const opj *jv = opj_get(o, "verts"), *jn = opj_get(o, "neis");
    snprintf(f, sizeof f, "polys[%zu].verts", i);
    if (!jv || jv->type != OPJ_ARR || jv->n > OP_MAX_VERTS_PER_POLY)
      return opd_arg_error(err, f, "must be an array of at most 12 vertex indices");
    p->nverts = (uint8_t)jv->n;
    for (size_t j = 0; j < jv->n; j++) {
      snprintf(f, sizeof f, "polys[%zu].verts[%zu]", i, j);
      if ((s = get_int(jv->items[j], f, 0, 65535, &v, err))) return s;
      p->verts[j] = (uint16_t)v;
    }
    snprintf(f, sizeof f, "polys[%zu].neis", i);
    if (!jn || jn->type != OPJ_ARR || jn->n != jv->n)
      return opd_arg_error(err, f, "must be an array as long as verts");
    for (size_t j = 0; j < jn->n; j++) {
      snprintf(f, sizeof f, "polys[%zu].neis[%zu]", i, j);
      if ((s = get_int(jn->items[j], f, 0, 65535, &v, err))) return s;
      p->neis[j] = (uint16_t)v;
    }
    snprintf(f, sizeof f, "polys[%zu].area", i);
    if ((s = get_int(opj_get(o, "area"), f, 0, 255, &v, err))) return s;
    p->area = (uint8_t)v;
    snprintf(f, sizeof f, "polys[%zu].flags", i);
    if ((s = get_int(opj_get(o, "flags"), f, 0, 65535, &v, err))) return s;
    p->flags = (uint16_t)v;
  }
  return OP_OK;
}

static op_status dec_points(const opj *jv, const char *name, float **out, uint32_t *count,
                            op_error *err) {
  size_t n = jv ? jv->n : 0;
  *out = calloc(3 * n + 1, sizeof(float));
  if (!*out) return opd_nomem(err, "args");
  *count = (uint32_t)n;
  char f[64];
  for (size_t i = 0; i < n; i++) {
    snprintf(f, sizeof f, "%s[%zu]", name, i);
    op_status s = get_vec3(jv->items[i], f, &(*out)[3 * i], err);
    if (s) return s;
  }
  return OP_OK;
}

/* FMT-074: detail records, members in FMT-070's order: vert_base, vert_count, tri_base,
** tri_count. */
static op_status dec_detail(const opj *jd, targs *a, op_error *err) {
  size_t n = jd ? jd->n : 0;
  a->detail = calloc(n + 1, sizeof *a->detail);
  if (!a->detail) return opd_nomem(err, "args");
  a->d.ndetail = (uint32_t)n;
  char f[96];
  op_status s;
  static const char *keys[4] = {"vert_base", "vert_count", "tri_base", "tri_count"};
  for (size_t i = 0; i < n; i++) {
    const opj *o = jd->items[i];
    snprintf(f, sizeof f, "detail[%zu]", i);
    if (o->type != OPJ_OBJ) return opd_arg_error(err, f, "must be an object");
    int64_t r[4];
    for (int k = 0; k < 4; k++) {
      snprintf(f, sizeof f, "detail[%zu].%s", i, keys[k]);
      if ((s = get_int(opj_get(o, keys[k]), f, 0, (k % 2) == 0 ? UINT32_MAX : 255, &r[k], err)))
        return s;
    }
    a->detail[i].vert_base = (uint32_t)r[0];
    a->detail[i].vert_count = (uint8_t)r[1];
    a->detail[i].tri_base = (uint32_t)r[2];
    a->detail[i].tri_count = (uint8_t)r[3];
  }
  return OP_OK;
}

/* FMT-074: detail triangles, each an array of 4 u8 (length, then elements). */
static op_status dec_dtris(const opj *jt, targs *a, op_error *err) {
  size_t nt = jt ? jt->n : 0;
  a->dtris = calloc(4 * nt + 1, 1);
  if (!a->dtris) return opd_nomem(err, "args");
  a->d.ndetail_tris = (uint32_t)nt;
  char f[96];
  op_status s;
  int64_t v;
  for (size_t i = 0; i < nt; i++) {
    const opj *o = jt->items[i];
    snprintf(f, sizeof f, "detail_tris[%zu]", i);
    if (o->type != OPJ_ARR || o->n != 4) return opd_arg_error(err, f, "must be an array of 4 integers");
    for (int k = 0; k < 4; k++) {
      snprintf(f, sizeof f, "detail_tris[%zu][%d]", i, k);
      if ((s = get_int(o->items[k], f, 0, 255, &v, err))) return s;
      a->dtris[4 * i + (size_t)k] = (uint8_t)v;
    }
  }
  return OP_OK;
}

static op_status dec_offmesh(const opj *jo, targs *a, op_error *err) {
  size_t n = jo ? jo->n : 0;
  a->offmesh = calloc(n + 1, sizeof *a->offmesh);
  if (!a->offmesh) return opd_nomem(err, "args");
  a->d.noffmesh = (uint32_t)n;
  char f[96];
  op_status s;
  int64_t v;
  for (size_t i = 0; i < n; i++) {
    const opj *o = jo->items[i];
    op_offmesh_desc *m = &a->offmesh[i];
    snprintf(f, sizeof f, "offmesh[%zu]", i);
    if (o->type != OPJ_OBJ) return opd_arg_error(err, f, "must be an object");
    snprintf(f, sizeof f, "offmesh[%zu].start", i);
    if ((s = get_vec3(opj_get(o, "start"), f, m->start, err))) return s;
    snprintf(f, sizeof f, "offmesh[%zu].end", i);
    if ((s = get_vec3(opj_get(o, "end"), f, m->end, err))) return s;
    snprintf(f, sizeof f, "offmesh[%zu].radius", i);
    if ((s = get_f32(opj_get(o, "radius"), f, &m->radius, err))) return s;
    snprintf(f, sizeof f, "offmesh[%zu].flags", i);
    if ((s = get_int(opj_get(o, "flags"), f, 0, 65535, &v, err))) return s;
    m->flags = (uint16_t)v;
    snprintf(f, sizeof f, "offmesh[%zu].area", i);
    if ((s = get_int(opj_get(o, "area"), f, 0, 255, &v, err))) return s;
    m->area = (uint8_t)v;
    snprintf(f, sizeof f, "offmesh[%zu].bidirectional", i);
    const opj *jb = opj_get(o, "bidirectional");
    if (jb && jb->type == OPJ_BOOL) {
      m->bidirectional = (uint8_t)(jb->b != 0);
    } else {
      if ((s = get_int(jb, f, 0, 255, &v, err))) return s;
      m->bidirectional = (uint8_t)v;
    }
    snprintf(f, sizeof f, "offmesh[%zu].user_id", i);
    if ((s = get_int(opj_get(o, "user_id"), f, 0, UINT32_MAX, &v, err))) return s;
    m->user_id = (uint32_t)v;
  }
  return OP_OK;
}

/* FMT-070, FMT-074: decodes tile.create's args into a->d, in FMT-070's order. */
static op_status dec_tile(const opj *args, targs *a, op_error *err) {
  memset(a, 0, sizeof *a);
  int64_t v;
  op_status s;
  if ((s = get_int(opj_get(args, "x"), "x", INT32_MIN, INT32_MAX, &v, err))) return s;
  a->d.x = (int32_t)v;
  if ((s = get_int(opj_get(args, "z"), "z", INT32_MIN, INT32_MAX, &v, err))) return s;
  a->d.z = (int32_t)v;
  if ((s = get_int(opj_get(args, "layer"), "layer", INT32_MIN, INT32_MAX, &v, err))) return s;
  a->d.layer = (int32_t)v;
  if ((s = dec_tiling(args, &a->d.tiling, err))) return s;
  if ((s = get_double(opj_get(args, "origin_y"), "origin_y", &a->d.origin_y, err))) return s;
  /* FMT-074: each list completely (its form, then its elements) before the next one. */
  const opj *jv, *jp, *jd, *jdv, *jdt, *jo;
  if ((s = get_arr(args, "verts", 1, &jv, err))) return s;
  if ((s = dec_points(jv, "verts", &a->verts, &a->d.nverts, err))) return s;
  if ((s = get_arr(args, "polys", 1, &jp, err))) return s;
  if ((s = dec_polys(jp, a, err))) return s;
  if ((s = get_arr(args, "detail", 0, &jd, err))) return s;
  if ((s = dec_detail(jd, a, err))) return s;
  if ((s = get_arr(args, "detail_verts", 0, &jdv, err))) return s;
  if ((s = dec_points(jdv, "detail_verts", &a->dverts, &a->d.ndetail_verts, err))) return s;
  if ((s = get_arr(args, "detail_tris", 0, &jdt, err))) return s;
  if ((s = dec_dtris(jdt, a, err))) return s;
  if ((s = get_arr(args, "offmesh", 0, &jo, err))) return s;
  if ((s = dec_offmesh(jo, a, err))) return s;
  a->d.verts = a->verts;
  a->d.polys = a->polys;
  a->d.detail = a->detail;
  a->d.detail_verts = a->dverts;
  a->d.detail_tris = a->dtris;
  a->d.offmesh = a->offmesh;
  return OP_OK;
}

static op_status put_tile(opd_session *s, op_tile *t, opj_w *res, op_error *err) {
  uint64_t id = op_tile_content_id(t);
  int64_t h = opd_put(s, OPD_TILE, t);
  if (h < 0) return opd_put_error(err, h); /* CONF-043 */
  opj_w_key(res, "handle");
  opj_w_int(res, h);
  opj_w_key(res, "content_id");
  opj_w_u64hex(res, id);
  return OP_OK;
}

static op_status get_tile(opd_session *s, const opj *args, const op_tile **t, op_error *err) {
  int64_t h;
  if (opj_int(opj_get(args, "tile"), INT64_MIN, INT64_MAX, &h))
    return opd_arg_error(err, "tile", "must be a tile handle");
  *t = opd_lookup(s, OPD_TILE, h);
  if (!*t) return op_fail_i(err, OP_E_ARGUMENT, "tile", h, "no live tile has this handle");
  return OP_OK;
}

/* tile.create {x, z, layer, tiling, origin_y, verts, polys, detail?, detail_verts?,
** detail_tris?, offmesh?} -> {handle, content_id} */
static op_status op_create(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  targs a;
  op_status st = dec_tile(args, &a, err);
  op_tile *t = NULL;
  if (!st) st = op_tile_create(&a.d, &t, err);
  targs_free(&a);
  if (st) return st;
  return put_tile(s, t, res, err);
}

/* tile.load {bytes} -> {handle, content_id} */
static op_status op_load(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  uint8_t *b;
  size_t n;
  if (opj_hexbytes(opj_get(args, "bytes"), &b, &n))
    return opd_arg_error(err, "bytes", "must be lower-case hex text");
  op_tile *t = NULL;
  op_status st = op_tile_load(b, n, &t, err);
  free(b);
  if (st) return st;
  return put_tile(s, t, res, err);
}

/* tile.save {tile} -> {bytes} */
static op_status op_save(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  const op_tile *t;
  op_status st = get_tile(s, args, &t, err);
  if (st) return st;
  op_bytes b = {NULL, 0};
  if ((st = op_tile_save(t, &b, err))) return st;
  opj_w_key(res, "bytes");
  opj_w_hexbytes(res, b.data, b.len);
  op_bytes_free(&b);
  return OP_OK;
}

static void w_vec3(opj_w *w, const float *v) {
  opj_w_arr_begin(w);
  for (int k = 0; k < 3; k++) opj_w_double(w, (double)v[k]);
  opj_w_arr_end(w);
}

/* tile.view {tile} -> the shape of tile.create's args (FMT-073) */
static op_status op_view(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  const op_tile *t;
  op_status st = get_tile(s, args, &t, err);
  if (st) return st;
  op_tile_desc d;
  op_tile_view(t, &d);
  opj_w_key(res, "x");
  opj_w_int(res, d.x);
  opj_w_key(res, "z");
  opj_w_int(res, d.z);
  opj_w_key(res, "layer");
  opj_w_int(res, d.layer);
  opj_w_key(res, "tiling");
  opj_w_obj_begin(res);
  opj_w_key(res, "origin");
  opj_w_arr_begin(res);
  for (int k = 0; k < 3; k++) opj_w_double(res, d.tiling.origin[k]);
  opj_w_arr_end(res);
  opj_w_key(res, "cell_size");
  opj_w_double(res, d.tiling.cell_size);
  opj_w_key(res, "cell_height");
  opj_w_double(res, d.tiling.cell_height);
  opj_w_key(res, "tile_cells");
  opj_w_int(res, d.tiling.tile_cells);
  opj_w_key(res, "max_verts_per_poly");
  opj_w_int(res, d.tiling.max_verts_per_poly);
  opj_w_obj_end(res);
  opj_w_key(res, "origin_y");
  opj_w_double(res, d.origin_y);
  opj_w_key(res, "verts");
  opj_w_arr_begin(res);
  for (uint32_t i = 0; i < d.nverts; i++) w_vec3(res, &d.verts[3 * (size_t)i]);
  opj_w_arr_end(res);
  opj_w_key(res, "polys");
  opj_w_arr_begin(res);
  for (uint32_t i = 0; i < d.npolys; i++) {
    const op_poly_desc *p = &d.polys[i];
    opj_w_obj_begin(res);
    opj_w_key(res, "verts");
    opj_w_arr_begin(res);
    for (unsigned j = 0; j < p->nverts; j++) opj_w_int(res, p->verts[j]);
    opj_w_arr_end(res);
    opj_w_key(res, "neis");
    opj_w_arr_begin(res);
    for (unsigned j = 0; j < p->nverts; j++) opj_w_int(res, p->neis[j]);
    opj_w_arr_end(res);
    opj_w_key(res, "area");
    opj_w_int(res, p->area);
    opj_w_key(res, "flags");
    opj_w_int(res, p->flags);
    opj_w_obj_end(res);
  }
  opj_w_arr_end(res);
  opj_w_key(res, "detail");
  opj_w_arr_begin(res);
  for (uint32_t i = 0; i < d.ndetail; i++) {
    opj_w_obj_begin(res);
    opj_w_key(res, "vert_base");
    opj_w_int(res, d.detail[i].vert_base);
    opj_w_key(res, "vert_count");
    opj_w_int(res, d.detail[i].vert_count);
    opj_w_key(res, "tri_base");
    opj_w_int(res, d.detail[i].tri_base);
    opj_w_key(res, "tri_count");
    opj_w_int(res, d.detail[i].tri_count);
    opj_w_obj_end(res);
  }
  opj_w_arr_end(res);
  opj_w_key(res, "detail_verts");
  opj_w_arr_begin(res);
  for (uint32_t i = 0; i < d.ndetail_verts; i++) w_vec3(res, &d.detail_verts[3 * (size_t)i]);
  opj_w_arr_end(res);
  opj_w_key(res, "detail_tris");
  opj_w_arr_begin(res);
  for (uint32_t i = 0; i < d.ndetail_tris; i++) {
    opj_w_arr_begin(res);
    for (int k = 0; k < 4; k++) opj_w_int(res, d.detail_tris[4 * (size_t)i + (size_t)k]);
    opj_w_arr_end(res);
  }
  opj_w_arr_end(res);
  opj_w_key(res, "offmesh");
  opj_w_arr_begin(res);
  for (uint32_t i = 0; i < d.noffmesh; i++) {
    const op_offmesh_desc *m = &d.offmesh[i];
    opj_w_obj_begin(res);
    opj_w_key(res, "start");
    w_vec3(res, m->start);
    opj_w_key(res, "end");
    w_vec3(res, m->end);
    opj_w_key(res, "radius");
    opj_w_double(res, (double)m->radius);
    opj_w_key(res, "flags");
    opj_w_int(res, m->flags);
    opj_w_key(res, "area");
    opj_w_int(res, m->area);
    opj_w_key(res, "bidirectional");
    opj_w_bool(res, m->bidirectional != 0);
    opj_w_key(res, "user_id");
    opj_w_int(res, m->user_id);
    opj_w_obj_end(res);
  }
  opj_w_arr_end(res);
  return OP_OK;
}

const opd_op opd_ops_format[] = {
    {"tile.create", op_create},
    {"tile.load", op_load},
    {"tile.save", op_save},
    {"tile.view", op_view},
    {NULL, NULL},
};
