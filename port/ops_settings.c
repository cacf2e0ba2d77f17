/*
** ops_settings.c -- the protocol's settings object (spec/build3d-spans.md SPAN-093): decoding
** a JSON settings object into op_settings, shared by port/ops_build3d.c (settings.validate,
** level.generate) and port/ops_spans.c (spans.build, spans.build_tile, spans.build_columns);
** its obstacle and volume decoders also by port/ops_tilecache.c (RT-152).
** Decoding raises argument and out_of_range errors naming "settings.<member>"; validation
** (SPAN-030) is the library's, its field names prefixed the same way.
*/
#include "ops_settings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


const char *const opd_partition_names[3] = {"watershed", "monotone", "layers"}; /* SPAN-002 */
const char *const opd_shape_names[3] = {"cylinder", "box", "oriented_box"};    /* SPAN-004 */

static op_status dec_double(const opj *o, const char *key, const char *field, double *out,
                            op_error *err) {
  if (opj_double(opj_get(o, key), out))
    return opd_arg_error(err, field, "must be a number"); /* SPAN-093 */
  return OP_OK;
}

/* SPAN-093: an integral number, then 0..2^32-1 (out_of_range naming it, the value the
** number's binary64 text, CONF-013). */
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


static op_status dec_vec3(const opj *o, const char *key, const char *pre, double out[3],
                          op_error *err) {
  char f[96];
  snprintf(f, sizeof f, "%s.%s", pre, key);
  const opj *v = opj_get(o, key);
  if (!v || v->type != OPJ_ARR || v->n != 3 || opj_double(v->items[0], &out[0]) ||
      opj_double(v->items[1], &out[1]) || opj_double(v->items[2], &out[2]))
    return opd_arg_error(err, f, "must be an array of 3 numbers");
  return OP_OK;
}

/* SPAN-093, RT-152: one obstacle object at field pre; `shape` first (any value but the three
** strings: argument, empty value), then only the members of its shape, in the order of its
** form, each read whole (a malformed array item names the whole member). */
op_status opd_obstacle_decode(const opj *o, const char *pre, op_obstacle *ob, op_error *err) {
  char f[96];
  op_status st;
  if (!o || o->type != OPJ_OBJ) return opd_arg_error(err, pre, "must be an object");
  const opj *sh = opj_get(o, "shape");
  int k = -1;
  for (int j = 0; j < 3 && sh && sh->type == OPJ_STR; j++)
    if (strcmp(sh->str, opd_shape_names[j]) == 0) k = j;
  snprintf(f, sizeof f, "%s.shape", pre);
  if (k < 0) return opd_arg_error(err, f, "must be cylinder, box or oriented_box");
  ob->shape = (op_obstacle_shape)k;
  if (k == OP_OBSTACLE_BOX) {
    if ((st = dec_vec3(o, "bmin", pre, ob->bmin, err))) return st;
    return dec_vec3(o, "bmax", pre, ob->bmax, err);
  }
  if ((st = dec_vec3(o, "center", pre, ob->center, err))) return st;
  if (k == OP_OBSTACLE_CYLINDER) {
    snprintf(f, sizeof f, "%s.radius", pre);
    if (opj_double(opj_get(o, "radius"), &ob->radius)) return opd_arg_error(err, f, "must be a number");
    snprintf(f, sizeof f, "%s.height", pre);
    if (opj_double(opj_get(o, "height"), &ob->height)) return opd_arg_error(err, f, "must be a number");
    return OP_OK;
  }
  if ((st = dec_vec3(o, "half", pre, ob->half, err))) return st;
  snprintf(f, sizeof f, "%s.yaw", pre);
  if (opj_double(opj_get(o, "yaw"), &ob->yaw)) return opd_arg_error(err, f, "must be a number");
  return OP_OK;
}

/* SPAN-093, RT-152: one volume object at field pre: `points` (an array, {} is not one; its
** length before its items), `ymin`, `ymax`, `area` (outside u32: out_of_range with the
** number's binary64 text; above 63: out_of_range, here, before RT-040's checks). */
op_status opd_volume_decode(const opj *o, const char *pre, op_convex_volume *v, op_error *err) {
  char f[96];
  op_status st;
  if (!o || o->type != OPJ_OBJ) return opd_arg_error(err, pre, "must be an object");
  const opj *pts = opj_get(o, "points");
  snprintf(f, sizeof f, "%s.points", pre);
  if (!pts || pts->type != OPJ_ARR) return opd_arg_error(err, f, "must be an array of [x, z]");
  if (pts->n > OP_VOLUME_MAX_POINTS) {
    snprintf(f, sizeof f, "%s.npoints", pre);
    return op_fail_i(err, OP_E_RANGE, f, (long long)pts->n, "a volume has 3 to 12 points");
  }
  v->npoints = (uint32_t)pts->n;
  for (size_t j = 0; j < pts->n; j++) {
    const opj *p = pts->items[j];
    snprintf(f, sizeof f, "%s.points[%zu]", pre, j);
    if (p->type != OPJ_ARR || p->n != 2 || opj_double(p->items[0], &v->points[j][0]) ||
        opj_double(p->items[1], &v->points[j][1]))
      return opd_arg_error(err, f, "a point is [x, z], two numbers");
  }
  snprintf(f, sizeof f, "%s.ymin", pre);
  if ((st = dec_double(o, "ymin", f, &v->ymin, err))) return st;
  snprintf(f, sizeof f, "%s.ymax", pre);
  if ((st = dec_double(o, "ymax", f, &v->ymax, err))) return st;
  uint32_t area;
  snprintf(f, sizeof f, "%s.area", pre);
  if ((st = dec_u32(o, "area", f, &area, err))) return st;
  if (area > 63) return op_fail_i(err, OP_E_RANGE, f, area, "an area id is 0..63");
  v->area = (uint8_t)area;
  return OP_OK;
}

/* SPAN-093: a volume list at field pre ("settings.volumes", or "volumes" for the volumes
** argument of SPAN-190): absent, null and {} are the empty list. *out is malloc'd (owned by
** the caller, also on failure; NULL for the empty list). */
op_status opd_volumes_decode(const opj *jv, const char *pre, op_convex_volume **out,
                             uint32_t *n, op_error *err) {
  *out = NULL;
  *n = 0;
  if (!jv || jv->type == OPJ_NULL || (jv->type == OPJ_OBJ && jv->n == 0)) return OP_OK;
  if (jv->type != OPJ_ARR) return opd_arg_error(err, pre, "must be an array");
  if (jv->n > 65536)
    return op_fail_i(err, OP_E_LIMIT, pre, (long long)jv->n, "at most 65536 volumes");
  *out = calloc(jv->n + 1, sizeof **out);
  if (!*out) return opd_nomem(err, pre);
  for (size_t i = 0; i < jv->n; i++) {
    char f[96];
    snprintf(f, sizeof f, "%s[%zu]", pre, i);
    op_status st = opd_volume_decode(jv->items[i], f, &(*out)[i], err);
    if (st != OP_OK) return st;
  }
  *n = (uint32_t)jv->n;
  return OP_OK;
}

/* SPAN-093: decode (argument errors), no validation. */
op_status opd_settings_decode(const opj *o, opd_settings_dec *d, op_error *err) {
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
    if (strcmp(p->str, opd_partition_names[k]) == 0) pi = k;
  if (pi < 0) /* SPAN-093: an unknown name has its text as value, another type the empty one */
    return op_fail(err, OP_E_ARGUMENT, "settings.partition", p && p->type == OPJ_STR ? p->str : "",
                   "must be watershed, monotone or layers");
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
  /* SPAN-093: absent, null and {} are the empty list */
  if ((st = opd_volumes_decode(opj_get(o, "volumes"), "settings.volumes", &d->vols, &s->nvolumes,
                               err)))
    return st;
  s->volumes = d->vols;
  const opj *jo = opj_get(o, "obstacles");
  if (jo && jo->type != OPJ_NULL && !(jo->type == OPJ_OBJ && jo->n == 0)) {
    if (jo->type != OPJ_ARR) return opd_arg_error(err, "settings.obstacles", "must be an array");
    if (jo->n > 65536)
      return op_fail_i(err, OP_E_LIMIT, "settings.obstacles", (long long)jo->n,
                       "at most 65536 obstacles");
    d->obst = calloc(jo->n + 1, sizeof *d->obst);
    if (!d->obst) return opd_nomem(err, "settings.obstacles");
    for (size_t i = 0; i < jo->n; i++) {
      char f[96];
      snprintf(f, sizeof f, "settings.obstacles[%zu]", i);
      if ((st = opd_obstacle_decode(jo->items[i], f, &d->obst[i], err))) return st;
    }
    s->nobstacles = (uint32_t)jo->n;
    s->obstacles = d->obst;
  }
  return OP_OK;
}

/* Errors of validation carry "settings." before the field (SPAN-093). */
op_status opd_settings_prefix(op_status st, op_error *err) {
  if (st != OP_OK && err) {
    char f[sizeof err->field];
    snprintf(f, sizeof f, "settings.%.80s", err->field);
    memcpy(err->field, f, sizeof f);
  }
  return st;
}

void opd_settings_dec_free(opd_settings_dec *d) {
  if (!d) return;
  free(d->vols);
  free(d->obst);
  d->vols = NULL;
  d->obst = NULL;
}

/* SPAN-093, then SPAN-030 (SPAN-032: nothing is derived from invalid settings). */
op_status opd_settings_decode_valid(const opj *o, opd_settings_dec *d, op_error *err) {
  op_status st = opd_settings_decode(o, d, err);
  if (st == OP_OK) st = opd_settings_prefix(op_settings_validate(&d->s, err), err);
  return st;
}

/* ------------------------------------------------------------ writing (SPAN-093) */

static void write_vec3(opj_w *w, const char *key, const double v[3]) {
  opj_w_key(w, key);
  opj_w_arr_begin(w);
  for (int k = 0; k < 3; k++) opj_w_double(w, v[k]);
  opj_w_arr_end(w);
}

void opd_obstacle_write(opj_w *w, const op_obstacle *o) {
  opj_w_obj_begin(w);
  opj_w_key(w, "shape");
  opj_w_str(w, opd_shape_names[o->shape]);
  if (o->shape == OP_OBSTACLE_CYLINDER) {
    write_vec3(w, "center", o->center);
    opj_w_key(w, "radius"); opj_w_double(w, o->radius);
    opj_w_key(w, "height"); opj_w_double(w, o->height);
  } else if (o->shape == OP_OBSTACLE_BOX) {
    write_vec3(w, "bmin", o->bmin);
    write_vec3(w, "bmax", o->bmax);
  } else {
    write_vec3(w, "center", o->center);
    write_vec3(w, "half", o->half);
    opj_w_key(w, "yaw"); opj_w_double(w, o->yaw);
  }
  opj_w_obj_end(w);
}

void opd_volume_write(opj_w *w, const op_convex_volume *v) {
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
