/*
** ops_query_surface.c -- protocol ops of the surface queries (spec/query-surface.md section
** "Protocol", QSF-190 .. QSF-192; on spec/query.md): query.raycast, query.move_along_surface,
** query.polys_in_box, query.random_point and query.distance_to_wall on a mesh of the session.
**
** Arguments are decoded in the order of QSF-190's args column, each completely before the
** next (QSF-191, as QRY-091); decoding problems are argument errors naming the argument with
** the empty value (CONF-035). The range checks are the library's, in the query's own order.
** Polygons are {ref, id: [x, z, layer, index]} (QRY-024). Each op makes a query object and
** its visited buffer for its own call: the protocol holds no query state between requests.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "onepath_query.h"
#include "ops_query.h"



/* QRY-091's filter {include?, exclude?, costs?} */
static op_status get_filter(const opj *args, op_query_filter *f, op_error *err) {
  op_query_filter_init(f);
  const opj *jf = opj_get(args, "filter");
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
  if (!v) return OP_OK;
  if (v->type != OPJ_ARR || v->n != OP_QUERY_AREAS)
    return opd_arg_error(err, "filter.costs", "must be a list of 64 numbers");
  for (int i = 0; i < OP_QUERY_AREAS; i++) {
    if (opj_double(v->items[i], &f->area_cost[i])) {
      char name[32];
      snprintf(name, sizeof name, "filter.costs[%d]", i);
      return opd_arg_error(err, name, "must be a number");
    }
  }
  return OP_OK;
}





/* The common head {mesh, poly, start, end, filter?} of both ops (QSF-190). */
typedef struct surf_args {
  op_mesh *m;
  op_ref poly;
  double start[3], end[3];
  op_query_filter f;
} surf_args;

static op_status get_head(opd_session *s, const opj *args, surf_args *a, op_error *err) {
  uint64_t r = 0;
  op_status st = opd_q_get_mesh(s, args, &a->m, err);
  if (!st && opj_u64hex(opj_get(args, "poly"), &r))
    st = opd_arg_error(err, "poly", "must be a 16-hex-digit reference");
  a->poly = r;
  if (!st) st = opd_q_get_point(args, "start", a->start, err);
  if (!st) st = opd_q_get_point(args, "end", a->end, err);
  if (!st) st = get_filter(args, &a->f, err);
  return st;
}

/* A buffer of n polygons (1 when n is out of range: the library reports the range). */
static op_status new_buffer(uint32_t n, op_query_poly **out, op_error *err) {
  size_t k = n >= 1 && n <= OP_QUERY_MAX_VISITED ? n : 1;
  *out = malloc(sizeof **out * k);
  return *out ? OP_OK : opd_nomem(err, "max_visited");
}

/* query.raycast {mesh, poly, start, end, filter?, costs?, max_visited?} */
static op_status op_raycast(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  surf_args a;
  int costs = 0;
  uint32_t maxv = 0;
  op_status st = get_head(s, args, &a, err);
  const opj *jc = opj_get(args, "costs");
  if (!st && jc) {
    if (jc->type != OPJ_BOOL) st = opd_arg_error(err, "costs", "must be true or false");
    else costs = jc->b;
  }
  if (!st) st = opd_q_get_opt_u32(args, "max_visited", OP_QUERY_DEFAULT_VISITED, &maxv, err);
  op_query *q = NULL;
  op_query_poly *vis = NULL;
  if (!st) st = op_query_create(a.m, 1, &q, err);
  if (!st) st = new_buffer(maxv, &vis, err);
  op_query_ray r;
  if (!st) st = op_query_raycast(q, a.poly, a.start, a.end, &a.f, costs, vis, maxv, &r, err);
  if (!st) {
    opj_w_key(res, "status");
    opj_w_str(res, op_ray_status_name(r.status));
    opj_w_key(res, "t");
    opj_w_double(res, r.t);
    if (r.status == OP_RAY_WALL) {
      opd_q_w_point(res, "normal", r.normal);
      opj_w_key(res, "edge");
      opj_w_int(res, r.edge);
    }
    opd_q_w_polys(res, "path", vis, r.npolys);
    if (costs) {
      opj_w_key(res, "cost");
      opj_w_double(res, r.cost);
    }
  }
  free(vis);
  op_query_free(q);
  return st;
}

/* query.move_along_surface {mesh, poly, start, end, filter?, max_visited?} */
static op_status op_move(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  surf_args a;
  uint32_t maxv = 0;
  op_status st = get_head(s, args, &a, err);
  if (!st) st = opd_q_get_opt_u32(args, "max_visited", OP_QUERY_DEFAULT_VISITED, &maxv, err);
  op_query *q = NULL;
  op_query_poly *vis = NULL;
  if (!st) st = op_query_create(a.m, 1, &q, err);
  if (!st) st = new_buffer(maxv, &vis, err);
  op_query_move mv;
  if (!st) st = op_query_move_along_surface(q, a.poly, a.start, a.end, &a.f, vis, maxv, &mv, err);
  if (!st) {
    opd_q_w_point(res, "point", mv.point);
    opj_w_key(res, "poly");
    opd_q_w_poly(res, &mv.poly);
    opd_q_w_polys(res, "visited", vis, mv.nvisited);
    opj_w_key(res, "truncated");
    opj_w_bool(res, mv.truncated);
  }
  free(vis);
  op_query_free(q);
  return st;
}

/* query.polys_in_box {mesh, center, half_extents, filter?, max_polys?} */
static op_status op_polys_box(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh *m;
  double c[3], h[3];
  op_query_filter f;
  uint32_t maxp = 0, n = 0;
  int trunc = 0;
  op_status st = opd_q_get_mesh(s, args, &m, err);
  if (!st) st = opd_q_get_point(args, "center", c, err);
  if (!st) st = opd_q_get_point(args, "half_extents", h, err);
  if (!st) st = get_filter(args, &f, err);
  if (!st) st = opd_q_get_opt_u32(args, "max_polys", OP_QUERY_DEFAULT_POLYS, &maxp, err);
  op_query *q = NULL;
  op_query_poly *polys = NULL;
  if (!st) st = op_query_create(m, 1, &q, err);
  if (!st) st = new_buffer(maxp, &polys, err);
  if (!st) st = op_query_polys_in_box(q, c, h, &f, polys, maxp, &n, &trunc, err);
  if (!st) {
    opd_q_w_polys(res, "polys", polys, n);
    opj_w_key(res, "truncated");
    opj_w_bool(res, trunc);
  }
  free(polys);
  op_query_free(q);
  return st;
}

/* query.random_point {mesh, prng, filter?} */
static op_status op_random(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh *m;
  op_query_filter f;
  op_prng *r = NULL;
  int64_t h;
  op_status st = opd_q_get_mesh(s, args, &m, err);
  if (!st && opj_int(opj_get(args, "prng"), INT64_MIN, INT64_MAX, &h))
    st = opd_arg_error(err, "prng", "must be a prng handle");
  if (!st && !(r = opd_lookup(s, OPD_PRNG, h)))
    st = op_fail_i(err, OP_E_ARGUMENT, "prng", h, "no live prng has this handle");
  if (!st) st = get_filter(args, &f, err);
  op_query *q = NULL;
  op_query_random out;
  if (!st) st = op_query_create(m, 1, &q, err);
  if (!st) st = op_query_random_point(q, &f, r, &out, err);
  if (!st) {
    opj_w_key(res, "found");
    opj_w_bool(res, out.found);
    if (out.found) {
      opj_w_key(res, "poly");
      opd_q_w_poly(res, &out.poly);
      opd_q_w_point(res, "point", out.point);
    }
  }
  op_query_free(q);
  return st;
}

/* query.distance_to_wall {mesh, poly, center, radius, filter?, max_visited?} */
static op_status op_wall(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_mesh *m;
  uint64_t ref = 0;
  double c[3], radius = 0;
  op_query_filter f;
  uint32_t maxv = 0;
  op_status st = opd_q_get_mesh(s, args, &m, err);
  if (!st && opj_u64hex(opj_get(args, "poly"), &ref))
    st = opd_arg_error(err, "poly", "must be a 16-hex-digit reference");
  if (!st) st = opd_q_get_point(args, "center", c, err);
  if (!st && opj_double(opj_get(args, "radius"), &radius))
    st = opd_arg_error(err, "radius", "must be a number");
  if (!st) st = get_filter(args, &f, err);
  if (!st) st = opd_q_get_opt_u32(args, "max_visited", OP_QUERY_DEFAULT_VISITED, &maxv, err);
  op_query *q = NULL;
  op_query_wall w;
  if (!st) st = op_query_create(m, 1, &q, err);
  if (!st) st = op_query_distance_to_wall(q, ref, c, radius, &f, maxv, &w, err);
  if (!st) {
    opj_w_key(res, "found");
    opj_w_bool(res, w.found);
    opj_w_key(res, "distance");
    opj_w_double(res, w.distance);
    if (w.found) {
      opd_q_w_point(res, "point", w.point);
      opd_q_w_point(res, "normal", w.normal);
    }
    opj_w_key(res, "visited");
    opj_w_int(res, w.nvisited);
    opj_w_key(res, "truncated");
    opj_w_bool(res, w.truncated);
  }
  op_query_free(q);
  return st;
}

extern const opd_op opd_ops_query_surface[]; /* registered in port/dispatch.c */
const opd_op opd_ops_query_surface[] = {
    {"query.distance_to_wall", op_wall},
    {"query.move_along_surface", op_move},
    {"query.polys_in_box", op_polys_box},
    {"query.random_point", op_random},
    {"query.raycast", op_raycast},
    {NULL, NULL},
};
