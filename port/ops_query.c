/*
** ops_query.c -- protocol ops query.* (spec/query.md section "Protocol", QRY-090 .. QRY-092):
** nearest polygon, polygon height, closest points, find path and straight path on a mesh of
** the session.
**
** Arguments are decoded in the order of QRY-090's args column, each completely before the
** next (QRY-091); decoding problems are argument errors naming the argument with the empty
** value (CONF-035). The range checks are the library's (op_query_*), in the query's own order.
** Every polygon of an answer is {ref, id: [x, z, layer, index]} (QRY-024). Each op makes a
** query object for its own call, so the protocol holds no query state between requests.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "onepath_query.h"
#include "ops_query.h"

op_status opd_q_get_mesh(opd_session *s, const opj *args, op_mesh **m, op_error *err) {
  int64_t h;
  if (opj_int(opj_get(args, "mesh"), INT64_MIN, INT64_MAX, &h))
    return opd_arg_error(err, "mesh", "must be a mesh handle");
  *m = opd_lookup(s, OPD_MESH, h);
  if (!*m) return op_fail_i(err, OP_E_ARGUMENT, "mesh", h, "no live mesh has this handle");
  return OP_OK;
}

/* QRY-091: a list of exactly three protocol doubles. */
op_status opd_q_get_point(const opj *args, const char *key, double out[3], op_error *err) {
  const opj *v = opj_get(args, key);
  if (!v || v->type != OPJ_ARR || v->n != 3)
    return opd_arg_error(err, key, "must be a list of three numbers");
  for (int k = 0; k < 3; k++) {
    if (opj_double(v->items[k], &out[k])) {
      char f[48];
      snprintf(f, sizeof f, "%s[%d]", key, k);
      return opd_arg_error(err, f, "must be a number");
    }
  }
  return OP_OK;
}

static op_status get_ref_v(const opj *v, const char *field, op_ref *out, op_error *err) {
  uint64_t r;
  if (opj_u64hex(v, &r)) return opd_arg_error(err, field, "must be a 16-hex-digit reference");
  *out = r;
  return OP_OK;
}

/* An optional u32 (absent: the default def). */
op_status opd_q_get_opt_u32(const opj *args, const char *key, uint32_t def, uint32_t *out,
                            op_error *err) {
  const opj *v = opj_get(args, key);
  *out = def;
  if (!v) return OP_OK;
  int64_t x;
  if (opj_int(v, 0, UINT32_MAX, &x)) return opd_arg_error(err, key, "must be an integer (u32)");
  *out = (uint32_t)x;
  return OP_OK;
}

/* QRY-091: filter {include?, exclude?, costs?}; *given 0 when absent. */
static op_status get_filter(const opj *args, op_query_filter *f, int *given, op_error *err) {
  op_query_filter_init(f);
  const opj *jf = opj_get(args, "filter");
  *given = jf != NULL;
  if (!jf) return OP_OK;
  if (jf->type != OPJ_OBJ) return opd_arg_error(err, "filter", "must be an object");
  int64_t x;
  const opj *v = opj_get(jf, "include");
  if (v) {
    if (opj_int(v, 0, 0xFFFF, &x)) return opd_arg_error(err, "filter.include", "must be a u16");
    f->include_flags = (uint16_t)x;
  }
  v = opj_get(jf, "exclude");
  if (v) {
    if (opj_int(v, 0, 0xFFFF, &x)) return opd_arg_error(err, "filter.exclude", "must be a u16");
    f->exclude_flags = (uint16_t)x;
  }
  v = opj_get(jf, "costs");
  if (v) {
    if (v->type != OPJ_ARR || v->n != OP_QUERY_AREAS)
      return opd_arg_error(err, "filter.costs", "must be a list of 64 numbers");
    for (int i = 0; i < OP_QUERY_AREAS; i++) {
      if (opj_double(v->items[i], &f->area_cost[i])) {
        char name[32];
        snprintf(name, sizeof name, "filter.costs[%d]", i);
        return opd_arg_error(err, name, "must be a number");
      }
    }
  }
  return OP_OK;
}

void opd_q_w_point(opj_w *res, const char *key, const double p[3]) {
  opj_w_key(res, key);
  opj_w_arr_begin(res);
  for (int k = 0; k < 3; k++) opj_w_double(res, p[k]);
  opj_w_arr_end(res);
}

/* QRY-024 */
void opd_q_w_poly(opj_w *res, const op_query_poly *p) {
  opj_w_obj_begin(res);
  opj_w_key(res, "ref");
  opj_w_u64hex(res, p->ref);
  opj_w_key(res, "id");
  opj_w_arr_begin(res);
  opj_w_int(res, p->id.x);
  opj_w_int(res, p->id.z);
  opj_w_int(res, p->id.layer);
  opj_w_int(res, p->id.poly);
  opj_w_arr_end(res);
  opj_w_obj_end(res);
}

/* QRY-091's filter for the corridor ops (port/ops_corridor.c). */
op_status opd_q_get_filter(const opj *args, op_query_filter *f, op_error *err) {
  int given;
  return get_filter(args, f, &given, err);
}

/* A u64 reference argument (QRY-091). */
op_status opd_q_get_ref(const opj *args, const char *key, op_ref *out, op_error *err) {
  return get_ref_v(opj_get(args, key), key, out, err);
}

static op_status new_query(const op_mesh *m, uint32_t nodes, op_query **q, op_error *err) {
  return op_query_create(m, nodes, q, err);
}

/* query.nearest_poly {mesh, center, half_extents, filter?} -> {found, poly?, point?} */
static op_status op_nearest(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh *m;
  double c[3], h[3];
  op_query_filter f;
  int given;
  op_status st = opd_q_get_mesh(s, args, &m, err);
  if (!st) st = opd_q_get_point(args, "center", c, err);
  if (!st) st = opd_q_get_point(args, "half_extents", h, err);
  if (!st) st = get_filter(args, &f, &given, err);
  op_query *q = NULL;
  if (!st) st = new_query(m, OP_QUERY_DEFAULT_NODES, &q, err);
  op_query_nearest n;
  if (!st) st = op_query_nearest_poly(q, c, h, &f, &n, err);
  op_query_free(q);
  if (st) return st;
  opj_w_key(res, "found");
  opj_w_bool(res, n.found);
  if (n.found) {
    opj_w_key(res, "poly");
    opd_q_w_poly(res, &n.poly);
    opd_q_w_point(res, "point", n.point);
  }
  return OP_OK;
}

/* query.poly_height {mesh, poly, x, z} -> {inside, height?} */
static op_status op_height(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh *m;
  op_ref r = 0;
  double x = 0, z = 0;
  op_status st = opd_q_get_mesh(s, args, &m, err);
  if (!st) st = get_ref_v(opj_get(args, "poly"), "poly", &r, err);
  if (!st && opj_double(opj_get(args, "x"), &x)) st = opd_arg_error(err, "x", "must be a number");
  if (!st && opj_double(opj_get(args, "z"), &z)) st = opd_arg_error(err, "z", "must be a number");
  op_query *q = NULL;
  if (!st) st = new_query(m, OP_QUERY_DEFAULT_NODES, &q, err);
  int inside = 0;
  double hgt = 0;
  if (!st) st = op_query_poly_height(q, r, x, z, &inside, &hgt, err);
  op_query_free(q);
  if (st) return st;
  opj_w_key(res, "inside");
  opj_w_bool(res, inside);
  if (inside) {
    opj_w_key(res, "height");
    opj_w_double(res, hgt);
  }
  return OP_OK;
}

/* query.closest_point / query.closest_point_boundary {mesh, poly, pos} */
static op_status closest(opd_session *s, const opj *args, opj_w *res, op_error *err, int bound) {
  op_mesh *m;
  op_ref r = 0;
  double p[3], out[3];
  op_status st = opd_q_get_mesh(s, args, &m, err);
  if (!st) st = get_ref_v(opj_get(args, "poly"), "poly", &r, err);
  if (!st) st = opd_q_get_point(args, "pos", p, err);
  op_query *q = NULL;
  if (!st) st = new_query(m, OP_QUERY_DEFAULT_NODES, &q, err);
  int over = 0;
  if (!st)
    st = bound ? op_query_closest_point_boundary(q, r, p, out, err)
               : op_query_closest_point(q, r, p, out, &over, err);
  op_query_free(q);
  if (st) return st;
  opd_q_w_point(res, "point", out);
  if (!bound) {
    opj_w_key(res, "over");
    opj_w_bool(res, over);
  }
  return OP_OK;
}

static op_status op_closest(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  return closest(s, args, res, err, 0);
}

static op_status op_closest_boundary(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  return closest(s, args, res, err, 1);
}

void opd_q_w_polys(opj_w *res, const char *key, const op_query_poly *p, uint32_t n) {
  opj_w_key(res, key);
  opj_w_arr_begin(res);
  for (uint32_t i = 0; i < n; i++) opd_q_w_poly(res, &p[i]);
  opj_w_arr_end(res);
}

static void w_end(opj_w *res, const char *key, const op_query_poly *p, const double pt[3]) {
  opj_w_key(res, key);
  opj_w_obj_begin(res);
  opj_w_key(res, "poly");
  opd_q_w_poly(res, p);
  opd_q_w_point(res, "point", pt);
  opj_w_obj_end(res);
}

static void w_path(opj_w *res, const op_query_path *p);

/* The arguments after the endpoints of query.find_path and query.find_path_from, in QRY-091's
** order: filter, max_nodes, max_path; then the query object (max_nodes checked as it is made,
** QRY-060). */
static op_status path_tail(op_mesh *m, const opj *args, op_query_filter *f, uint32_t *maxp,
                           op_query **q, op_error *err) {
  int given;
  uint32_t nodes = 0;
  op_status st = get_filter(args, f, &given, err);
  if (!st) st = opd_q_get_opt_u32(args, "max_nodes", OP_QUERY_DEFAULT_NODES, &nodes, err);
  if (!st) st = opd_q_get_opt_u32(args, "max_path", OP_QUERY_DEFAULT_PATH, maxp, err);
  if (!st) st = new_query(m, nodes, q, err);
  return st;
}

/* query.find_path {mesh, start, end, filter?, max_nodes?, max_path?} */
static op_status op_find_path(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh *m;
  double a[3], b[3];
  op_query_filter f;
  uint32_t maxp = 0;
  /* QRY-091: max_nodes is checked as the query object is made (QRY-060), before QRY-061 */
  op_status st = opd_q_get_mesh(s, args, &m, err);
  if (!st) st = opd_q_get_point(args, "start", a, err);
  if (!st) st = opd_q_get_point(args, "end", b, err);
  op_query *q = NULL;
  if (!st) st = path_tail(m, args, &f, &maxp, &q, err);
  op_query_path p;
  if (!st) st = op_query_find_path(q, a, b, &f, maxp, &p, err);
  if (!st) w_path(res, &p);
  op_query_free(q);
  return st;
}

/* query.find_path_from {mesh, start_poly, start, end_poly, end, filter?, max_nodes?, max_path?}
** (QRY-074; its args read as QRY-091 says, max_nodes checked as the query object is made) */
static op_status op_find_path_from(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh *m;
  double a[3], b[3];
  op_ref ra = 0, rb = 0;
  op_query_filter f;
  uint32_t maxp = 0;
  op_status st = opd_q_get_mesh(s, args, &m, err);
  if (!st) st = get_ref_v(opj_get(args, "start_poly"), "start_poly", &ra, err);
  if (!st) st = opd_q_get_point(args, "start", a, err);
  if (!st) st = get_ref_v(opj_get(args, "end_poly"), "end_poly", &rb, err);
  if (!st) st = opd_q_get_point(args, "end", b, err);
  op_query *q = NULL;
  if (!st) st = path_tail(m, args, &f, &maxp, &q, err);
  op_query_path p;
  if (!st) st = op_query_find_path_from(q, ra, a, rb, b, &f, maxp, &p, err);
  if (!st) w_path(res, &p);
  op_query_free(q);
  return st;
}

/* the answer of query.find_path and query.find_path_from (QRY-090) */
static void w_path(opj_w *res, const op_query_path *pp) {
  const op_query_path p = *pp;
  opj_w_key(res, "status");
  opj_w_str(res, op_path_status_name(p.status));
  w_end(res, "start", &p.start_poly, p.start_point);
  w_end(res, "end", &p.end_poly, p.end_point);
  opj_w_key(res, "nodes");
  opj_w_int(res, p.nodes);
  if (p.status == OP_PATH_FOUND) {
    opd_q_w_polys(res, "path", p.polys, p.npolys);
    opj_w_key(res, "cost");
    opj_w_double(res, p.cost);
  } else {
    opj_w_key(res, "reason");
    opj_w_str(res, op_path_reason_name(p.reason));
    opd_q_w_polys(res, "partial", p.polys, p.npolys);
  }
}

/* query.straight_path {mesh, start, end, path, crossings?, max_corners?} */
static op_status op_straight(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh *m;
  double a[3], b[3];
  op_status st = opd_q_get_mesh(s, args, &m, err);
  if (!st) st = opd_q_get_point(args, "start", a, err);
  if (!st) st = opd_q_get_point(args, "end", b, err);
  const opj *jp = opj_get(args, "path");
  if (!st && (!jp || jp->type != OPJ_ARR)) st = opd_arg_error(err, "path", "must be a list");
  op_ref *refs = NULL;
  size_t n = st ? 0 : jp->n;
  if (!st && n > 0) {
    refs = malloc(sizeof *refs * n);
    if (!refs) st = opd_nomem(err, "path");
  }
  for (size_t i = 0; i < n && !st; i++) {
    char f[32];
    snprintf(f, sizeof f, "path[%zu]", i);
    st = get_ref_v(jp->items[i], f, &refs[i], err);
  }
  op_crossings cr = OP_CROSS_NONE;
  const opj *jc = opj_get(args, "crossings");
  int bad_cross = 0;
  if (!st && jc) {
    if (jc->type != OPJ_STR) st = opd_arg_error(err, "crossings", "must be a text");
    else if (!strcmp(jc->str, "none")) cr = OP_CROSS_NONE;
    else if (!strcmp(jc->str, "area")) cr = OP_CROSS_AREA;
    else if (!strcmp(jc->str, "all")) cr = OP_CROSS_ALL;
    else bad_cross = 1;
  }
  uint32_t maxc = 0;
  if (!st) st = opd_q_get_opt_u32(args, "max_corners", OP_QUERY_DEFAULT_CORNERS, &maxc, err);
  op_query *q = NULL;
  if (!st) st = new_query(m, OP_QUERY_DEFAULT_NODES, &q, err);
  const op_query_corner *c = NULL;
  uint32_t nc = 0;
  if (!st) {
    /* QRY-080's order: the path is checked before crossings, so an unknown text is passed on
    ** as a value the library rejects in its turn; the error then names the text (QRY-092) */
    op_crossings pass = bad_cross ? (op_crossings)99 : cr;
    uint32_t np = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
    st = op_query_straight_path(q, a, b, refs, np, pass, maxc, &c, &nc, err);
    if (st && bad_cross && err && !strcmp(err->field, "crossings"))
      op_fail(err, OP_E_ARGUMENT, "crossings", jc->str, "crossings is none, area or all");
  }
  free(refs);
  if (st) {
    op_query_free(q);
    return st;
  }
  opj_w_key(res, "corners");
  opj_w_arr_begin(res);
  for (uint32_t i = 0; i < nc; i++) {
    opj_w_obj_begin(res);
    opd_q_w_point(res, "point", c[i].point);
    opj_w_key(res, "flags");
    opj_w_int(res, c[i].flags);
    opj_w_key(res, "poly");
    opd_q_w_poly(res, &c[i].poly);
    opj_w_obj_end(res);
  }
  opj_w_arr_end(res);
  op_query_free(q);
  return OP_OK;
}

extern const opd_op opd_ops_query[]; /* registered in port/dispatch.c */
const opd_op opd_ops_query[] = {
    {"query.closest_point", op_closest},
    {"query.closest_point_boundary", op_closest_boundary},
    {"query.find_path", op_find_path},
    {"query.find_path_from", op_find_path_from},
    {"query.nearest_poly", op_nearest},
    {"query.poly_height", op_height},
    {"query.straight_path", op_straight},
    {NULL, NULL},
};
