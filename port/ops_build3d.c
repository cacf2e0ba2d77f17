/*
** ops_build3d.c -- protocol ops of the 3D builder's settings and inputs:
** settings.preset, settings.validate, obj.parse, chunks.query (spec/build3d-spans.md
** SPAN-090 .. SPAN-094) and level.generate (spec/levels.md LVL-070). Arguments are decoded and
** checked before anything is computed; these ops create no session state. The settings
** object (SPAN-093) is decoded by port/ops_settings.c, shared with port/ops_spans.c.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "ops_settings.h"
#include "onepath_build3d.h"

static void write_settings(opj_w *w, const op_settings *s) {
  opj_w_obj_begin(w);
  opj_w_key(w, "cell_size"); opj_w_double(w, s->cell_size);
  opj_w_key(w, "cell_height"); opj_w_double(w, s->cell_height);
  opj_w_key(w, "agent_radius"); opj_w_double(w, s->agent_radius);
  opj_w_key(w, "agent_height"); opj_w_double(w, s->agent_height);
  opj_w_key(w, "agent_climb"); opj_w_double(w, s->agent_climb);
  opj_w_key(w, "max_slope"); opj_w_double(w, s->max_slope);
  opj_w_key(w, "tile_cells"); opj_w_int(w, s->tile_cells);
  opj_w_key(w, "partition"); opj_w_str(w, opd_partition_names[s->partition]);
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
    for (uint32_t i = 0; i < s->nobstacles; i++) opd_obstacle_write(w, &s->obstacles[i]);
    opj_w_arr_end(w);
  }
  if (s->nvolumes == 0) { /* SPAN-093: written only when there are volumes */
    opj_w_obj_end(w);
    return;
  }
  opj_w_key(w, "volumes");
  opj_w_arr_begin(w);
  for (uint32_t i = 0; i < s->nvolumes; i++) opd_volume_write(w, &s->volumes[i]);
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
  opd_settings_dec d;
  op_status st = opd_settings_decode(opj_get(args, "settings"), &d, err);
  op_cell_settings c;
  if (st == OP_OK) st = opd_settings_prefix(op_settings_derive(&d.s, &c, err), err);
  opd_settings_dec_free(&d);
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
  opd_settings_dec d;
  memset(&d, 0, sizeof d);
  const opj *js = opj_get(args, "settings");
  int have = js && js->type != OPJ_NULL;
  op_status st = OP_OK;
  if (have) st = opd_settings_decode(js, &d, err);
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
        opd_settings_prefix(st, err);
      if (st == OP_OK) {
        st = write_mesh(res, &m, err);
        op_trimesh_free(&m);
      }
    }
  }
  opd_settings_dec_free(&d);
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
