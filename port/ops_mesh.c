/*
** ops_mesh.c -- protocol ops mesh.* (spec/navmesh-mesh.md section "Protocol", MESH-050;
** spec/navmesh-snapshot.md; docs/porting.md).
**
** Argument decoding problems are argument errors naming the argument ("x", "ref",
** "tiling.cell_size", ...); every rule of the mesh itself is checked by the op_mesh_*
** functions, which name their own fields. References travel as 16-hex-digit strings.
*/
#include <stdio.h>
#include <stdlib.h>

#include "dispatch.h"

static op_status get_int_v(const opj *v, const char *key, int64_t lo, int64_t hi, int64_t *out,
                           op_error *err) {
  if (opj_int(v, lo, hi, out)) {
    char why[96];
    snprintf(why, sizeof why, "must be an integer in [%lld, %lld]", (long long)lo, (long long)hi);
    return opd_arg_error(err, key, why);
  }
  return OP_OK;
}

static op_status get_int(const opj *args, const char *key, int64_t lo, int64_t hi, int64_t *out,
                         op_error *err) {
  return get_int_v(opj_get(args, key), key, lo, hi, out, err);
}

static op_status get_double(const opj *v, const char *field, double *out, op_error *err) {
  if (opj_double(v, out)) return opd_arg_error(err, field, "must be a number");
  return OP_OK;
}

/* MESH-051: a handle is resolved as it is read, before the next argument is decoded. */
static op_status get_mesh(opd_session *s, const opj *args, op_mesh **m, op_error *err) {
  int64_t h;
  if (opj_int(opj_get(args, "mesh"), INT64_MIN, INT64_MAX, &h))
    return opd_arg_error(err, "mesh", "must be a mesh handle");
  *m = opd_lookup(s, OPD_MESH, h);
  if (!*m) return op_fail_i(err, OP_E_ARGUMENT, "mesh", h, "no live mesh has this handle");
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

static op_status get_ref(const opj *args, op_ref *r, op_error *err) {
  uint64_t v;
  if (opj_u64hex(opj_get(args, "ref"), &v))
    return opd_arg_error(err, "ref", "must be a 16-hex-digit reference");
  *r = v;
  return OP_OK;
}

static op_status get_pos(const opj *args, int32_t pos[3], op_error *err) {
  static const char *const keys[3] = {"x", "z", "layer"};
  for (int k = 0; k < 3; k++) {
    int64_t v;
    op_status st = get_int(args, keys[k], INT32_MIN, INT32_MAX, &v, err);
    if (st) return st;
    pos[k] = (int32_t)v;
  }
  return OP_OK;
}

static void write_ref(opj_w *res, op_ref r) {
  opj_w_key(res, "ref");
  opj_w_u64hex(res, r);
}

static op_status dec_params(const opj *args, op_mesh_params *p, op_error *err) {
  const opj *jt = opj_get(args, "tiling");
  if (!jt || jt->type != OPJ_OBJ) return opd_arg_error(err, "tiling", "must be an object");
  const opj *jo = opj_get(jt, "origin");
  if (!jo || jo->type != OPJ_ARR || jo->n != 3)
    return opd_arg_error(err, "tiling.origin", "must be an array of 3 numbers");
  char f[64];
  op_status st;
  for (int k = 0; k < 3; k++) {
    snprintf(f, sizeof f, "tiling.origin[%d]", k);
    if ((st = get_double(jo->items[k], f, &p->tiling.origin[k], err))) return st;
  }
  if ((st = get_double(opj_get(jt, "cell_size"), "tiling.cell_size", &p->tiling.cell_size, err)))
    return st;
  if ((st = get_double(opj_get(jt, "cell_height"), "tiling.cell_height", &p->tiling.cell_height,
                       err)))
    return st;
  int64_t v;
  if ((st = get_int_v(opj_get(jt, "tile_cells"), "tiling.tile_cells", 0, UINT32_MAX, &v, err)))
    return st;
  p->tiling.tile_cells = (uint32_t)v;
  if ((st = get_int_v(opj_get(jt, "max_verts_per_poly"), "tiling.max_verts_per_poly", 0,
                      UINT32_MAX, &v, err)))
    return st;
  p->tiling.max_verts_per_poly = (uint32_t)v;
  if ((st = get_double(opj_get(args, "walkable_climb"), "walkable_climb", &p->walkable_climb, err)))
    return st;
  if ((st = get_int(args, "max_tiles", 0, UINT32_MAX, &v, err))) return st;
  p->max_tiles = (uint32_t)v;
  return OP_OK;
}

/* mesh.create {tiling, walkable_climb, max_tiles} -> {handle} */
static op_status op_create(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh_params p;
  op_status st = dec_params(args, &p, err);
  if (st) return st;
  op_mesh *m = NULL;
  if ((st = op_mesh_create(&p, &m, err))) return st;
  int64_t h = opd_put(s, OPD_MESH, m);
  if (h < 0) return opd_put_error(err, h); /* CONF-043 */
  opj_w_key(res, "handle");
  opj_w_int(res, h);
  return OP_OK;
}

/* mesh.add_tile / mesh.replace_tile {mesh, tile} -> {ref} */
static op_status add_or_replace(opd_session *s, const opj *args, opj_w *res, op_error *err,
                                int replace) {
  op_mesh *m;
  const op_tile *t;
  op_status st = get_mesh(s, args, &m, err);
  if (!st) st = get_tile(s, args, &t, err);
  if (st) return st;
  op_ref r = 0;
  op_mesh_set_alloc(m, opd_alloc(s)); /* CONF-059: this request's counter */
  st = replace ? op_mesh_replace_tile(m, t, &r, err) : op_mesh_add_tile(m, t, &r, err);
  op_mesh_set_alloc(m, NULL);
  if (st) return st;
  write_ref(res, r);
  return OP_OK;
}

static op_status op_add(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  return add_or_replace(s, args, res, err, 0);
}

static op_status op_replace(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  return add_or_replace(s, args, res, err, 1);
}

/* mesh.remove_tile {mesh, x, z, layer} -> {} */
static op_status op_remove(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  (void)res;
  op_mesh *m;
  int32_t pos[3];
  op_status st = get_mesh(s, args, &m, err);
  if (!st) st = get_pos(args, pos, err);
  if (st) return st;
  op_mesh_set_alloc(m, opd_alloc(s)); /* CONF-059 */
  st = op_mesh_remove_tile(m, pos[0], pos[1], pos[2], err);
  op_mesh_set_alloc(m, NULL);
  return st;
}

/* mesh.poly_ref {mesh, x, z, layer, poly} -> {ref} */
static op_status op_poly_ref(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh *m;
  int32_t pos[3];
  int64_t poly;
  op_status st = get_mesh(s, args, &m, err);
  if (!st) st = get_pos(args, pos, err);
  if (!st) st = get_int(args, "poly", 0, UINT32_MAX, &poly, err);
  if (st) return st;
  op_ref r = 0;
  if ((st = op_mesh_poly_ref(m, pos[0], pos[1], pos[2], (uint32_t)poly, &r, err))) return st;
  write_ref(res, r);
  return OP_OK;
}

/* mesh.set_poly_flags {mesh, ref, flags} -> {} */
static op_status op_set_flags(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  (void)res;
  op_mesh *m;
  op_ref r = 0;
  int64_t v;
  op_status st = get_mesh(s, args, &m, err);
  if (!st) st = get_ref(args, &r, err);
  if (!st) st = get_int(args, "flags", 0, 65535, &v, err);
  if (st) return st;
  return op_mesh_set_poly_flags(m, r, (uint16_t)v, err);
}

/* mesh.set_poly_area {mesh, ref, area} -> {} (area 64..255 is the mesh's range error) */
static op_status op_set_area(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  (void)res;
  op_mesh *m;
  op_ref r = 0;
  int64_t v;
  op_status st = get_mesh(s, args, &m, err);
  if (!st) st = get_ref(args, &r, err);
  if (!st) st = get_int(args, "area", 0, 255, &v, err);
  if (st) return st;
  return op_mesh_set_poly_area(m, r, (uint8_t)v, err);
}

/* mesh.get_poly {mesh, ref} -> {flags, area} */
static op_status op_get_poly(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh *m;
  op_ref r = 0;
  op_status st = get_mesh(s, args, &m, err);
  if (!st) st = get_ref(args, &r, err);
  if (st) return st;
  uint16_t fl = 0;
  uint8_t ar = 0;
  if ((st = op_mesh_get_poly(m, r, &fl, &ar, err))) return st;
  opj_w_key(res, "flags");
  opj_w_int(res, fl);
  opj_w_key(res, "area");
  opj_w_int(res, ar);
  return OP_OK;
}

static op_status write_bytes(opj_w *res, op_bytes *b) {
  opj_w_key(res, "bytes");
  opj_w_hexbytes(res, b->data, b->len);
  op_bytes_free(b);
  return OP_OK;
}

/* mesh.save {mesh} -> {bytes} */
static op_status op_save(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh *m;
  op_status st = get_mesh(s, args, &m, err);
  if (st) return st;
  op_bytes b = {NULL, 0};
  if ((st = op_mesh_save(m, &b, err))) return st;
  return write_bytes(res, &b);
}

/* mesh.snapshot_save {mesh} -> {bytes} */
static op_status op_snap_save(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh *m;
  op_status st = get_mesh(s, args, &m, err);
  if (st) return st;
  op_bytes b = {NULL, 0};
  if ((st = op_mesh_snapshot_save(m, &b, err))) return st;
  return write_bytes(res, &b);
}

/* mesh.snapshot_load {mesh, bytes} -> {} */
static op_status op_snap_load(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  (void)res;
  op_mesh *m;
  op_status st = get_mesh(s, args, &m, err);
  if (st) return st;
  uint8_t *data = NULL;
  size_t len = 0;
  if (opj_hexbytes(opj_get(args, "bytes"), &data, &len))
    return opd_arg_error(err, "bytes", "must be a string of hex digit pairs");
  op_mesh_set_alloc(m, opd_alloc(s)); /* CONF-059 */
  st = op_mesh_snapshot_load(m, data, len, err);
  op_mesh_set_alloc(m, NULL);
  free(data);
  return st;
}

/* mesh.load {bytes} (MESH-068) / mesh.snapshot_open {bytes} (SNAP-026) -> {handle}: a new
** mesh from the bytes alone. */
static op_status load_new(opd_session *s, const opj *args, opj_w *res, op_error *err,
                          int snapshot) {
  uint8_t *data = NULL;
  size_t len = 0;
  if (opj_hexbytes(opj_get(args, "bytes"), &data, &len))
    return opd_arg_error(err, "bytes", "must be a string of hex digit pairs");
  op_mesh *m = NULL;
  op_status st = snapshot ? op_mesh_snapshot_open(data, len, &m, err)
                          : op_mesh_load_counted(data, len, opd_alloc(s), &m, err); /* CONF-059 */
  free(data);
  if (st) return st;
  int64_t h = opd_put(s, OPD_MESH, m);
  if (h < 0) return opd_put_error(err, h); /* CONF-043 */
  opj_w_key(res, "handle");
  opj_w_int(res, h);
  return OP_OK;
}

/* mesh.snapshot_params {bytes} (SNAP-025) -> {tiling, walkable_climb, max_tiles}: the
** snapshot's parameters in the shape mesh.create takes; nothing after them is read. */
static op_status op_snap_params(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  (void)s;
  uint8_t *data = NULL;
  size_t len = 0;
  if (opj_hexbytes(opj_get(args, "bytes"), &data, &len))
    return opd_arg_error(err, "bytes", "must be a string of hex digit pairs");
  op_mesh_params p;
  op_status st = op_mesh_snapshot_params(data, len, &p, err);
  free(data);
  if (st) return st;
  opj_w_key(res, "tiling");
  opj_w_obj_begin(res);
  opj_w_key(res, "origin");
  opj_w_arr_begin(res);
  for (int k = 0; k < 3; k++) opj_w_double(res, p.tiling.origin[k]);
  opj_w_arr_end(res);
  opj_w_key(res, "cell_size");
  opj_w_double(res, p.tiling.cell_size);
  opj_w_key(res, "cell_height");
  opj_w_double(res, p.tiling.cell_height);
  opj_w_key(res, "tile_cells");
  opj_w_int(res, p.tiling.tile_cells);
  opj_w_key(res, "max_verts_per_poly");
  opj_w_int(res, p.tiling.max_verts_per_poly);
  opj_w_obj_end(res);
  opj_w_key(res, "walkable_climb");
  opj_w_double(res, p.walkable_climb);
  opj_w_key(res, "max_tiles");
  opj_w_int(res, p.max_tiles);
  return OP_OK;
}

static op_status op_load(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  return load_new(s, args, res, err, 0);
}

static op_status op_snap_open(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  return load_new(s, args, res, err, 1);
}

const opd_op opd_ops_mesh[] = {
    {"mesh.create", op_create},
    {"mesh.add_tile", op_add},
    {"mesh.replace_tile", op_replace},
    {"mesh.remove_tile", op_remove},
    {"mesh.poly_ref", op_poly_ref},
    {"mesh.set_poly_flags", op_set_flags},
    {"mesh.set_poly_area", op_set_area},
    {"mesh.get_poly", op_get_poly},
    {"mesh.save", op_save},
    {"mesh.snapshot_save", op_snap_save},
    {"mesh.snapshot_load", op_snap_load},
    {"mesh.load", op_load},
    {"mesh.snapshot_open", op_snap_open},
    {"mesh.snapshot_params", op_snap_params},
    {NULL, NULL},
};
