/*
** ops_build3d.c -- protocol ops of the 3D builder's settings and inputs:
** settings.preset, settings.validate, obj.parse, chunks.query (spec/build3d-spans.md
** SPAN-090 .. SPAN-094) and level.generate (spec/levels.md LVL-070). Arguments are decoded and
** checked before anything is computed; these ops create no session state.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "onepath_build3d.h"
#include "../ref/internal.h"
#include "../ref/opmath.h"

static const char *partition_names[3] = {"watershed", "monotone", "layers"};

/* ------------------------------------------------------------ settings JSON */

static op_status dec_double(const opj *o, const char *key, const char *field, double *out,
                            op_error *err) {
  if (opj_double(opj_get(o, key), out))
    return opd_arg_error(err, field, "must be a number"); /* SPAN-093 */
  return OP_OK;
}

/* SPAN-093: an integral number, then 0..2^32-1 (out_of_range naming it). */
static op_status dec_u32(const opj *o, const char *key, const char *field, uint32_t *out,
                         op_error *err) {
  const opj *v = opj_get(o, key);
  int64_t i;
  if (v && v->type == OPJ_NUM && isfinite(v->num) && op_rint_even(v->num) == v->num &&
      (v->num > 4294967295.0 || v->num < 0))
    return op_fail_d(err, OP_E_RANGE, field, v->num, "must be in 0..2^32-1");
  if (!v || v->type != OPJ_NUM || opj_int(v, -((int64_t)1 << 53), (int64_t)1 << 53, &i))
    return opd_arg_error(err, field, "must be an integer");
  if (i < 0 || i > (int64_t)UINT32_MAX)
    return op_fail_i(err, OP_E_RANGE, field, (long long)i, "must be in 0..2^32-1");
  *out = (uint32_t)i;
  return OP_OK;
}

typedef struct dec_settings {
  op_settings s;
  op_convex_volume *vols; /* owned */
  op_obstacle *obst;      /* owned */
} dec_settings;

static const char *shape_names[3] = {"cylinder", "box", "oriented_box"};

static op_status dec_vec3(const opj *o, const char *key, size_t i, double out[3],
                          op_error *err) {
  char f[96];
  snprintf(f, sizeof f, "settings.obstacles[%zu].%s", i, key);
  const opj *v = opj_get(o, key);
  if (!v || v->type != OPJ_ARR || v->n != 3 || opj_double(v->items[0], &out[0]) ||
      opj_double(v->items[1], &out[1]) || opj_double(v->items[2], &out[2]))
    return opd_arg_error(err, f, "must be an array of 3 numbers");
  return OP_OK;
}

/* SPAN-093: one obstacle object; only the members of its shape are read. */
static op_status dec_obstacle(const opj *o, size_t i, op_obstacle *ob, op_error *err) {
  char f[96];
  op_status st;
  snprintf(f, sizeof f, "settings.obstacles[%zu]", i);
  if (!o || o->type != OPJ_OBJ) return opd_arg_error(err, f, "must be an object");
  const opj *sh = opj_get(o, "shape");
  int k = -1;
  for (int j = 0; j < 3 && sh && sh->type == OPJ_STR; j++)
    if (strcmp(sh->str, shape_names[j]) == 0) k = j;
  snprintf(f, sizeof f, "settings.obstacles[%zu].shape", i);
  if (k < 0) return opd_arg_error(err, f, "must be cylinder, box or oriented_box");
  ob->shape = (op_obstacle_shape)k;
  if (k == OP_OBSTACLE_BOX) {
    if ((st = dec_vec3(o, "bmin", i, ob->bmin, err))) return st;
    return dec_vec3(o, "bmax", i, ob->bmax, err);
  }
  if ((st = dec_vec3(o, "center", i, ob->center, err))) return st;
  if (k == OP_OBSTACLE_CYLINDER) {
    snprintf(f, sizeof f, "settings.obstacles[%zu].radius", i);
    if (opj_double(opj_get(o, "radius"), &ob->radius)) return opd_arg_error(err, f, "must be a number");
    snprintf(f, sizeof f, "settings.obstacles[%zu].height", i);
    if (opj_double(opj_get(o, "height"), &ob->height)) return opd_arg_error(err, f, "must be a number");
    return OP_OK;
  }
  if ((st = dec_vec3(o, "half", i, ob->half, err))) return st;
  snprintf(f, sizeof f, "settings.obstacles[%zu].yaw", i);
  if (opj_double(opj_get(o, "yaw"), &ob->yaw)) return opd_arg_error(err, f, "must be a number");
  return OP_OK;
}

static op_status dec_volume(const opj *o, size_t i, op_convex_volume *v, op_error *err) {
  char f[96];
  op_status st;
  snprintf(f, sizeof f, "settings.volumes[%zu]", i);
  if (!o || o->type != OPJ_OBJ) return opd_arg_error(err, f, "must be an object");
  const opj *pts = opj_get(o, "points");
  snprintf(f, sizeof f, "settings.volumes[%zu].points", i);
  if (!pts || pts->type != OPJ_ARR) return opd_arg_error(err, f, "must be an array of [x, z]");
  if (pts->n > OP_VOLUME_MAX_POINTS) {
    snprintf(f, sizeof f, "settings.volumes[%zu].npoints", i);
    return op_fail_i(err, OP_E_RANGE, f, (long long)pts->n, "a volume has 3 to 12 points");
  }
  v->npoints = (uint32_t)pts->n;
  for (size_t j = 0; j < pts->n; j++) {
    const opj *p = pts->items[j];
    snprintf(f, sizeof f, "settings.volumes[%zu].points[%zu]", i, j);
    if (p->type != OPJ_ARR || p->n != 2 || opj_double(p->items[0], &v->points[j][0]) ||
        opj_double(p->items[1], &v->points[j][1]))
      return opd_arg_error(err, f, "a point is [x, z], two numbers");
  }
  snprintf(f, sizeof f, "settings.volumes[%zu].ymin", i);
  if ((st = dec_double(o, "ymin", f, &v->ymin, err))) return st;
  snprintf(f, sizeof f, "settings.volumes[%zu].ymax", i);
  if ((st = dec_double(o, "ymax", f, &v->ymax, err))) return st;
  uint32_t area;
  snprintf(f, sizeof f, "settings.volumes[%zu].area", i);
  if ((st = dec_u32(o, "area", f, &area, err))) return st;
  if (area > 63) return op_fail_i(err, OP_E_RANGE, f, area, "an area id is 0..63");
  v->area = (uint8_t)area;
  return OP_OK;
}

/* SPAN-093: decode (argument errors), no validation. */
static op_status dec_settings_obj(const opj *o, dec_settings *d, op_error *err) {
  memset(d, 0, sizeof *d);
  if (!o || o->type != OPJ_OBJ) return opd_arg_error(err, "settings", "must be an object");
  op_settings *s = &d->s;
  op_status st;
  if ((st = dec_double(o, "cell_size", "settings.cell_size", &s->cell_size, err))) return st;
  if ((st = dec_double(o, "cell_height", "settings.cell_height", &s->cell_height, err))) return st;
  if ((st = dec_double(o, "agent_radius", "settings.agent_radius", &s->agent_radius, err))) return st;
  if ((st = dec_double(o, "agent_height", "settings.agent_height", &s->agent_height, err))) return st;
  if ((st = dec_double(o, "agent_climb", "settings.agent_climb", &s->agent_climb, err))) return st;
  if ((st = dec_double(o, "max_slope", "settings.max_slope", &s->max_slope, err))) return st;
  if ((st = dec_u32(o, "tile_cells", "settings.tile_cells", &s->tile_cells, err))) return st;
  const opj *p = opj_get(o, "partition");
  int pi = -1;
  for (int k = 0; k < 3 && p && p->type == OPJ_STR; k++)
    if (strcmp(p->str, partition_names[k]) == 0) pi = k;
  if (pi < 0)
    return opd_arg_error(err, "settings.partition", "must be watershed, monotone or layers");
  s->partition = (op_partition)pi;
  if ((st = dec_u32(o, "min_region_area", "settings.min_region_area", &s->min_region_area, err)))
    return st;
  if ((st = dec_u32(o, "merge_region_area", "settings.merge_region_area", &s->merge_region_area,
                    err)))
    return st;
  if ((st = dec_double(o, "max_simplification_error", "settings.max_simplification_error",
                       &s->max_simplification_error, err)))
    return st;
  if ((st = dec_double(o, "max_edge_len", "settings.max_edge_len", &s->max_edge_len, err)))
    return st;
  if ((st = dec_u32(o, "max_verts_per_poly", "settings.max_verts_per_poly",
                    &s->max_verts_per_poly, err)))
    return st;
  if ((st = dec_double(o, "detail_sample_distance", "settings.detail_sample_distance",
                       &s->detail_sample_distance, err)))
    return st;
  if ((st = dec_double(o, "detail_sample_max_error", "settings.detail_sample_max_error",
                       &s->detail_sample_max_error, err)))
    return st;
  const opj *jv = opj_get(o, "volumes");
  /* SPAN-093: absent, null and {} are the empty list */
  if (jv && jv->type != OPJ_NULL && !(jv->type == OPJ_OBJ && jv->n == 0)) {
    if (jv->type != OPJ_ARR) return opd_arg_error(err, "settings.volumes", "must be an array");
    if (jv->n > 65536)
      return op_fail_i(err, OP_E_LIMIT, "settings.volumes", (long long)jv->n, "at most 65536 volumes");
    d->vols = calloc(jv->n + 1, sizeof *d->vols);
    if (!d->vols) return op_fail(err, OP_E_NOMEM, "settings.volumes", "", "out of memory");
    for (size_t i = 0; i < jv->n; i++)
      if ((st = dec_volume(jv->items[i], i, &d->vols[i], err))) return st;
    s->nvolumes = (uint32_t)jv->n;
    s->volumes = d->vols;
  }
  const opj *jo = opj_get(o, "obstacles");
  if (jo && jo->type != OPJ_NULL && !(jo->type == OPJ_OBJ && jo->n == 0)) {
    if (jo->type != OPJ_ARR) return opd_arg_error(err, "settings.obstacles", "must be an array");
    if (jo->n > 65536)
      return op_fail_i(err, OP_E_LIMIT, "settings.obstacles", (long long)jo->n,
                       "at most 65536 obstacles");
    d->obst = calloc(jo->n + 1, sizeof *d->obst);
    if (!d->obst) return op_fail(err, OP_E_NOMEM, "settings.obstacles", "", "out of memory");
    for (size_t i = 0; i < jo->n; i++)
      if ((st = dec_obstacle(jo->items[i], i, &d->obst[i], err))) return st;
    s->nobstacles = (uint32_t)jo->n;
    s->obstacles = d->obst;
  }
  return OP_OK;
}

/* Errors of validation carry "settings." before the field (SPAN-093). */
static op_status prefix_settings(op_status st, op_error *err) {
  if (st != OP_OK && err) {
    char f[sizeof err->field];
    snprintf(f, sizeof f, "settings.%.80s", err->field);
    memcpy(err->field, f, sizeof f);
  }
  return st;
}

static void write_settings(opj_w *w, const op_settings *s) {
  opj_w_obj_begin(w);
  opj_w_key(w, "cell_size"); opj_w_double(w, s->cell_size);
  opj_w_key(w, "cell_height"); opj_w_double(w, s->cell_height);
  opj_w_key(w, "agent_radius"); opj_w_double(w, s->agent_radius);
  opj_w_key(w, "agent_height"); opj_w_double(w, s->agent_height);
  opj_w_key(w, "agent_climb"); opj_w_double(w, s->agent_climb);
  opj_w_key(w, "max_slope"); opj_w_double(w, s->max_slope);
  opj_w_key(w, "tile_cells"); opj_w_int(w, s->tile_cells);
  opj_w_key(w, "partition"); opj_w_str(w, partition_names[s->partition]);
  opj_w_key(w, "min_region_area"); opj_w_int(w, s->min_region_area);
  opj_w_key(w, "merge_region_area"); opj_w_int(w, s->merge_region_area);
  opj_w_key(w, "max_simplification_error"); opj_w_double(w, s->max_simplification_error);
  opj_w_key(w, "max_edge_len"); opj_w_double(w, s->max_edge_len);
  opj_w_key(w, "max_verts_per_poly"); opj_w_int(w, s->max_verts_per_poly);
  opj_w_key(w, "detail_sample_distance"); opj_w_double(w, s->detail_sample_distance);
  opj_w_key(w, "detail_sample_max_error"); opj_w_double(w, s->detail_sample_max_error);
  if (s->nobstacles) { /* SPAN-093: written only when there are obstacles */
    opj_w_key(w, "obstacles");
    opj_w_arr_begin(w);
    for (uint32_t i = 0; i < s->nobstacles; i++) {
      const op_obstacle *o = &s->obstacles[i];
      opj_w_obj_begin(w);
      opj_w_key(w, "shape");
      opj_w_str(w, shape_names[o->shape]);
      const char *k1 = o->shape == OP_OBSTACLE_BOX ? "bmin" : "center";
      const double *v1 = o->shape == OP_OBSTACLE_BOX ? o->bmin : o->center;
      opj_w_key(w, k1);
      opj_w_arr_begin(w);
      for (int k = 0; k < 3; k++) opj_w_double(w, v1[k]);
      opj_w_arr_end(w);
      if (o->shape == OP_OBSTACLE_CYLINDER) {
        opj_w_key(w, "radius"); opj_w_double(w, o->radius);
        opj_w_key(w, "height"); opj_w_double(w, o->height);
      } else {
        const double *v2 = o->shape == OP_OBSTACLE_BOX ? o->bmax : o->half;
        opj_w_key(w, o->shape == OP_OBSTACLE_BOX ? "bmax" : "half");
        opj_w_arr_begin(w);
        for (int k = 0; k < 3; k++) opj_w_double(w, v2[k]);
        opj_w_arr_end(w);
        if (o->shape == OP_OBSTACLE_ORIENTED_BOX) { opj_w_key(w, "yaw"); opj_w_double(w, o->yaw); }
      }
      opj_w_obj_end(w);
    }
    opj_w_arr_end(w);
  }
  if (s->nvolumes == 0) { /* SPAN-093: written only when there are volumes */
    opj_w_obj_end(w);
    return;
  }
  opj_w_key(w, "volumes");
  opj_w_arr_begin(w);
  for (uint32_t i = 0; i < s->nvolumes; i++) {
    const op_convex_volume *v = &s->volumes[i];
    opj_w_obj_begin(w);
    opj_w_key(w, "points");
    opj_w_arr_begin(w);
    for (uint32_t j = 0; j < v->npoints; j++) {
      opj_w_arr_begin(w);
      opj_w_double(w, v->points[j][0]);
      opj_w_double(w, v->points[j][1]);
      opj_w_arr_end(w);
    }
    opj_w_arr_end(w);
    opj_w_key(w, "ymin"); opj_w_double(w, v->ymin);
    opj_w_key(w, "ymax"); opj_w_double(w, v->ymax);
    opj_w_key(w, "area"); opj_w_int(w, v->area);
    opj_w_obj_end(w);
  }
  opj_w_arr_end(w);
  opj_w_obj_end(w);
}

/* ------------------------------------------------------------ ops */

/* SPAN-090 */
static op_status op_settings_preset_op(opd_session *ss, const opj *args, opj_w *res,
                                       op_error *err) {
  const opj *n = opj_get(args, "name");
  if (!n || n->type != OPJ_STR) return opd_arg_error(err, "name", "must be a string");
  op_settings s;
  op_status st = op_settings_preset(n->str, &s, err);
  if (st != OP_OK) return st;
  opj_w_key(res, "settings");
  write_settings(res, &s);
  return OP_OK;
}

/* SPAN-091 */
static op_status op_settings_validate_op(opd_session *ss, const opj *args, opj_w *res,
                                         op_error *err) {
  dec_settings d;
  op_status st = dec_settings_obj(opj_get(args, "settings"), &d, err);
  op_cell_settings c;
  if (st == OP_OK) st = prefix_settings(op_settings_derive(&d.s, &c, err), err);
  free(d.vols);
  free(d.obst);
  if (st != OP_OK) return st;
  opj_w_key(res, "derived");
  opj_w_obj_begin(res);
  opj_w_key(res, "walkable_radius"); opj_w_int(res, c.walkable_radius);
  opj_w_key(res, "walkable_height"); opj_w_int(res, c.walkable_height);
  opj_w_key(res, "walkable_climb"); opj_w_int(res, c.walkable_climb);
  opj_w_key(res, "border"); opj_w_int(res, c.border);
  opj_w_key(res, "grid_cells"); opj_w_int(res, c.grid_cells);
  opj_w_key(res, "max_edge_len"); opj_w_int(res, c.max_edge_len);
  opj_w_key(res, "slope_cos"); opj_w_double(res, c.slope_cos);
  opj_w_key(res, "detail_sample_dist"); opj_w_double(res, c.detail_sample_dist);
  opj_w_key(res, "detail_sample_max_error"); opj_w_double(res, c.detail_sample_max_error);
  opj_w_obj_end(res);
  return OP_OK;
}

static op_status write_mesh(opj_w *res, const op_trimesh *m, op_error *err) {
  op_soup s = op_trimesh_soup(m);
  op_bytes b = {NULL, 0};
  op_status st = op_soup_save(&s, &b, err); /* LVL-010 */
  if (st != OP_OK) return st;
  opj_w_key(res, "nverts"); opj_w_int(res, m->nverts);
  opj_w_key(res, "ntris"); opj_w_int(res, m->ntris);
  opj_w_key(res, "bytes"); opj_w_hexbytes(res, b.data, b.len);
  op_bytes_free(&b);
  return OP_OK;
}

/* SPAN-092 */
static op_status op_obj_parse_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  const opj *t = opj_get(args, "text");
  if (!t || t->type != OPJ_STR) return opd_arg_error(err, "text", "must be a string");
  op_trimesh m;
  op_status st = op_obj_parse(t->str, t->len, &m, err);
  if (st != OP_OK) return st;
  st = write_mesh(res, &m, err);
  op_trimesh_free(&m);
  return st;
}

/* LVL-070 */
static op_status op_level_generate_op(opd_session *ss, const opj *args, opj_w *res,
                                      op_error *err) {
  const opj *n = opj_get(args, "name");
  if (!n || n->type != OPJ_STR) return opd_arg_error(err, "name", "must be a string");
  uint64_t seed;
  if (opj_u64hex(opj_get(args, "seed"), &seed))
    return opd_arg_error(err, "seed", "must be 16 lower-case hex digits");
  const opj *jsz = opj_get(args, "size");
  int64_t size;
  if (!jsz || jsz->type != OPJ_NUM || opj_int(jsz, -((int64_t)1 << 53), (int64_t)1 << 53, &size))
    return opd_arg_error(err, "size", "must be an integer");
  dec_settings d;
  memset(&d, 0, sizeof d);
  const opj *js = opj_get(args, "settings");
  int have = js && js->type != OPJ_NULL;
  op_status st = OP_OK;
  if (have) st = dec_settings_obj(js, &d, err);
  op_trimesh m;
  if (st == OP_OK) {
    if (size < 0 || size > (int64_t)UINT32_MAX) {
      /* the name is checked first (LVL-022), then the size */
      st = op_level_generate(n->str, seed, 0, NULL, &m, err);
      if (st == OP_OK) op_trimesh_free(&m); /* cannot happen: size 0 is outside every range */
      if (st == OP_OK || st == OP_E_RANGE)
        st = op_fail_i(err, OP_E_RANGE, "size", (long long)size, "size outside the generator's range");
    } else {
      st = op_level_generate(n->str, seed, (uint32_t)size, have ? &d.s : NULL, &m, err);
      if (st != OP_OK && have && err && st != OP_E_NOMEM && strcmp(err->field, "name") &&
          strcmp(err->field, "size"))
        prefix_settings(st, err);
      if (st == OP_OK) {
        st = write_mesh(res, &m, err);
        op_trimesh_free(&m);
      }
    }
  }
  free(d.vols);
  free(d.obst);
  return st;
}

/* Prefixes err->field with "soup." (LVL-011 errors inside a soup argument). */
static op_status prefix_soup(op_status st, op_error *err) {
  if (st != OP_OK && err) {
    char f[sizeof err->field];
    snprintf(f, sizeof f, "soup.%.80s", err->field);
    memcpy(err->field, f, sizeof f);
  }
  return st;
}

/* SPAN-094 */
static op_status op_chunks_query_op(opd_session *ss, const opj *args, opj_w *res, op_error *err) {
  uint8_t *bytes = NULL;
  size_t len = 0;
  if (opj_hexbytes(opj_get(args, "soup"), &bytes, &len))
    return opd_arg_error(err, "soup", "must be hex bytes of a triangle soup");
  double size, box[2][2];
  static const char *bk[2] = {"bmin", "bmax"};
  op_status st = OP_OK;
  if (opj_double(opj_get(args, "chunk_size"), &size))
    st = opd_arg_error(err, "chunk_size", "must be a number");
  for (int b = 0; b < 2 && st == OP_OK; b++) {
    const opj *v = opj_get(args, bk[b]);
    if (!v || v->type != OPJ_ARR || v->n != 2 || v->items[0]->type != OPJ_NUM ||
        v->items[1]->type != OPJ_NUM || opj_double(v->items[0], &box[b][0]) ||
        opj_double(v->items[1], &box[b][1]))
      st = opd_arg_error(err, bk[b], "must be [x, z], two finite numbers");
  }
  op_trimesh m;
  memset(&m, 0, sizeof m);
  if (st == OP_OK) st = prefix_soup(op_soup_load(bytes, len, &m, err), err);
  free(bytes);
  if (st != OP_OK) return st;
  op_soup soup = op_trimesh_soup(&m);
  op_chunked *c = NULL;
  st = op_chunked_create(&soup, size, &c, err);
  op_trimesh_free(&m);
  if (st != OP_OK) return st;
  uint32_t *tris = NULL, n = 0;
  st = op_chunked_query(c, box[0], box[1], &tris, &n, err);
  if (st == OP_OK) {
    opj_w_key(res, "nchunks");
    opj_w_int(res, op_chunked_count(c));
    opj_w_key(res, "tris");
    opj_w_arr_begin(res);
    for (uint32_t i = 0; i < n; i++) opj_w_int(res, tris[i]);
    opj_w_arr_end(res);
  }
  free(tris);
  op_chunked_free(c);
  return st;
}

const opd_op opd_ops_build3d[] = {
    {"chunks.query", op_chunks_query_op},
    {"settings.preset", op_settings_preset_op},
    {"settings.validate", op_settings_validate_op},
    {"obj.parse", op_obj_parse_op},
    {"level.generate", op_level_generate_op},
    {NULL, NULL},
};
