/*
** ops_corridor.c -- protocol ops of the path corridor (spec/query-corridor.md section 9,
** QCR-290 .. QCR-292): corridor.create and corridor.state, and the operations reset, set,
** move_position, move_target, move_over_offmesh, find_corners, optimize_visibility, optimize_topology,
** is_valid, fix and replan on a corridor of the session and a mesh of the session.
**
** A corridor is a session object (kind corridor, freed by drop). Arguments are decoded in the
** order of QCR-290's args column, each completely before the next (QCR-291); then the query
** object of the call is made (its max_nodes checked, QRY-060), then the library's checks run
** in the operation's own order. Every answer but create's ends with the state members
** position, target and path (QCR-260).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "onepath_query.h"
#include "ops_query.h"

static op_status get_corridor(opd_session *s, const opj *args, op_corridor **c, op_error *err) {
  int64_t h;
  if (opj_int(opj_get(args, "corridor"), INT64_MIN, INT64_MAX, &h))
    return opd_arg_error(err, "corridor", "must be a corridor handle");
  *c = opd_lookup(s, OPD_CORRIDOR, h);
  if (!*c) return op_fail_i(err, OP_E_ARGUMENT, "corridor", h, "no live corridor has this handle");
  return OP_OK;
}

/* {corridor, mesh} at the head of every operation's args. */
static op_status get_head(opd_session *s, const opj *args, op_corridor **c, op_mesh **m,
                          op_error *err) {
  op_status st = get_corridor(s, args, c, err);
  if (!st) st = opd_q_get_mesh(s, args, m, err);
  return st;
}

/* QCR-260 */
static void w_state(opj_w *res, const op_corridor *c) {
  op_corridor_state cs;
  op_corridor_state_get(c, &cs);
  opd_q_w_point(res, "position", cs.position);
  opd_q_w_point(res, "target", cs.target);
  opd_q_w_polys(res, "path", cs.polys, cs.npolys);
}

static void w_bool(opj_w *res, const char *key, int v) {
  opj_w_key(res, key);
  opj_w_bool(res, v);
}

/* corridor.create {max_path?} -> {handle} */
static op_status op_create(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  uint32_t mp = 0;
  op_status st = opd_q_get_opt_u32(args, "max_path", OP_CORRIDOR_DEFAULT_PATH, &mp, err);
  op_corridor *c = NULL;
  if (!st) st = op_corridor_create(mp, &c, err);
  if (st) return st;
  int64_t h = opd_put(s, OPD_CORRIDOR, c);
  if (h < 0) return opd_put_error(err, h);
  opj_w_key(res, "handle");
  opj_w_int(res, h);
  return OP_OK;
}

/* corridor.state {corridor} -> {max_path, state} */
static op_status op_state(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_corridor *c;
  op_status st = get_corridor(s, args, &c, err);
  if (st) return st;
  op_corridor_state cs;
  op_corridor_state_get(c, &cs);
  opj_w_key(res, "max_path");
  opj_w_int(res, cs.max_path);
  w_state(res, c);
  return OP_OK;
}

/* corridor.reset {corridor, mesh, poly, pos} */
static op_status op_reset(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_corridor *c;
  op_mesh *m;
  op_ref r = 0;
  double p[3];
  op_status st = get_head(s, args, &c, &m, err);
  if (!st) st = opd_q_get_ref(args, "poly", &r, err);
  if (!st) st = opd_q_get_point(args, "pos", p, err);
  op_query *q = NULL;
  if (!st) st = op_query_create(m, 1, &q, err);
  if (!st) st = op_corridor_reset(c, q, r, p, err);
  op_query_free(q);
  if (!st) w_state(res, c);
  return st;
}

/* corridor.set {corridor, mesh, start, end, path} */
static op_status op_set(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_corridor *c;
  op_mesh *m;
  double a[3], b[3];
  op_status st = get_head(s, args, &c, &m, err);
  if (!st) st = opd_q_get_point(args, "start", a, err);
  if (!st) st = opd_q_get_point(args, "end", b, err);
  const opj *jp = opj_get(args, "path");
  if (!st && (!jp || jp->type != OPJ_ARR)) st = opd_arg_error(err, "path", "must be a list");
  op_ref *refs = NULL;
  size_t n = st ? 0 : jp->n;
  if (!st && n > 0 && !(refs = malloc(sizeof *refs * n))) st = opd_nomem(err, "path");
  for (size_t i = 0; i < n && !st; i++) {
    uint64_t r;
    char f[32];
    snprintf(f, sizeof f, "path[%zu]", i);
    if (opj_u64hex(jp->items[i], &r)) st = opd_arg_error(err, f, "must be a 16-hex-digit reference");
    else refs[i] = r;
  }
  op_query *q = NULL;
  if (!st) st = op_query_create(m, 1, &q, err);
  uint32_t np = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
  if (!st) st = op_corridor_set(c, q, a, b, refs, np, err);
  free(refs);
  op_query_free(q);
  if (!st) w_state(res, c);
  return st;
}

/* corridor.move_position / move_target {corridor, mesh, pos, filter?, max_visited?} */
static op_status do_move(opd_session *s, const opj *args, opj_w *res, op_error *err, int tail) {
  op_corridor *c;
  op_mesh *m;
  double p[3];
  op_query_filter f;
  uint32_t maxv = 0;
  op_status st = get_head(s, args, &c, &m, err);
  if (!st) st = opd_q_get_point(args, "pos", p, err);
  if (!st) st = opd_q_get_filter(args, &f, err);
  if (!st) st = opd_q_get_opt_u32(args, "max_visited", OP_QUERY_DEFAULT_VISITED, &maxv, err);
  op_query *q = NULL;
  if (!st) st = op_query_create(m, 1, &q, err);
  int cut = 0, strunc = 0;
  if (!st)
    st = tail ? op_corridor_move_target(c, q, p, &f, maxv, &cut, &strunc, err)
              : op_corridor_move_position(c, q, p, &f, maxv, &cut, &strunc, err);
  op_query_free(q);
  if (st) return st;
  w_bool(res, "truncated", cut);
  w_bool(res, "search_truncated", strunc);
  w_state(res, c);
  return OP_OK;
}

static op_status op_move_position(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  return do_move(s, args, res, err, 0);
}

static op_status op_move_target(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  return do_move(s, args, res, err, 1);
}

/* corridor.move_over_offmesh {corridor, mesh, radius} -> {status, link?} (QCR-223) */
static op_status op_over_offmesh(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_corridor *c;
  op_mesh *m;
  double radius = 0;
  op_status st = get_head(s, args, &c, &m, err);
  if (!st && opj_double(opj_get(args, "radius"), &radius))
    st = opd_arg_error(err, "radius", "must be a number");
  op_query *q = NULL;
  if (!st) st = op_query_create(m, 1, &q, err);
  op_offmesh_move ms = OP_OFFMESH_NO_LINK;
  op_corridor_link lk;
  if (!st) st = op_corridor_move_over_offmesh(c, q, radius, &ms, &lk, err);
  op_query_free(q);
  if (st) return st;
  opj_w_key(res, "status");
  opj_w_str(res, op_offmesh_move_name(ms));
  if (ms == OP_OFFMESH_CROSSED) {
    opj_w_key(res, "link");
    opj_w_obj_begin(res);
    opd_q_w_point(res, "start", lk.start);
    opd_q_w_point(res, "end", lk.end);
    opj_w_key(res, "flags");
    opj_w_int(res, lk.flags);
    opj_w_key(res, "area");
    opj_w_int(res, lk.area);
    opj_w_key(res, "user_id");
    opj_w_int(res, lk.user_id);
    opj_w_obj_end(res);
  }
  w_state(res, c);
  return OP_OK;
}

/* corridor.find_corners {corridor, mesh, max_corners?} -> {corners, truncated} */
static op_status op_corners(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_corridor *c;
  op_mesh *m;
  uint32_t maxc = 0;
  op_status st = get_head(s, args, &c, &m, err);
  if (!st) st = opd_q_get_opt_u32(args, "max_corners", OP_CORRIDOR_DEFAULT_CORNERS, &maxc, err);
  op_query *q = NULL;
  if (!st) st = op_query_create(m, 1, &q, err);
  const op_query_corner *k = NULL;
  uint32_t nk = 0;
  int cut = 0;
  if (!st) st = op_corridor_find_corners(c, q, maxc, &k, &nk, &cut, err);
  if (!st) {
    opj_w_key(res, "corners");
    opj_w_arr_begin(res);
    for (uint32_t i = 0; i < nk; i++) {
      opj_w_obj_begin(res);
      opd_q_w_point(res, "point", k[i].point);
      opj_w_key(res, "flags");
      opj_w_int(res, k[i].flags);
      opj_w_key(res, "poly");
      opd_q_w_poly(res, &k[i].poly);
      opj_w_obj_end(res);
    }
    opj_w_arr_end(res);
    w_bool(res, "truncated", cut);
    w_state(res, c);
  }
  op_query_free(q);
  return st;
}

/* corridor.optimize_visibility {corridor, mesh, next, range, filter?, max_visited?} */
static op_status op_visibility(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_corridor *c;
  op_mesh *m;
  double nx[3], range = 0;
  op_query_filter f;
  uint32_t maxv = 0;
  op_status st = get_head(s, args, &c, &m, err);
  if (!st) st = opd_q_get_point(args, "next", nx, err);
  if (!st && opj_double(opj_get(args, "range"), &range))
    st = opd_arg_error(err, "range", "must be a number");
  if (!st) st = opd_q_get_filter(args, &f, err);
  if (!st) st = opd_q_get_opt_u32(args, "max_visited", OP_CORRIDOR_DEFAULT_RAY, &maxv, err);
  op_query *q = NULL;
  if (!st) st = op_query_create(m, 1, &q, err);
  int sp = 0, cut = 0;
  if (!st) st = op_corridor_optimize_visibility(c, q, nx, range, &f, maxv, &sp, &cut, err);
  op_query_free(q);
  if (st) return st;
  w_bool(res, "spliced", sp);
  w_bool(res, "truncated", cut);
  w_state(res, c);
  return OP_OK;
}

/* corridor.optimize_topology {corridor, mesh, filter?, max_nodes?} */
static op_status op_topology(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_corridor *c;
  op_mesh *m;
  op_query_filter f;
  uint32_t nodes = 0;
  op_status st = get_head(s, args, &c, &m, err);
  if (!st) st = opd_q_get_filter(args, &f, err);
  if (!st)
    st = opd_q_get_opt_u32(args, "max_nodes", OP_CORRIDOR_DEFAULT_TOPOLOGY_NODES, &nodes, err);
  op_query *q = NULL;
  if (!st) st = op_query_create(m, nodes, &q, err);
  int sp = 0, cut = 0;
  if (!st) st = op_corridor_optimize_topology(c, q, &f, &sp, &cut, err);
  op_query_free(q);
  if (st) return st;
  w_bool(res, "spliced", sp);
  w_bool(res, "truncated", cut);
  w_state(res, c);
  return OP_OK;
}

/* corridor.is_valid {corridor, mesh, max_look_ahead?, filter?} */
static op_status op_is_valid(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_corridor *c;
  op_mesh *m;
  op_query_filter f;
  uint32_t la = 0;
  op_status st = get_head(s, args, &c, &m, err);
  if (!st) st = opd_q_get_opt_u32(args, "max_look_ahead", OP_CORRIDOR_MAX_PATH, &la, err);
  if (!st) st = opd_q_get_filter(args, &f, err);
  op_query *q = NULL;
  if (!st) st = op_query_create(m, 1, &q, err);
  op_corridor_validity v;
  if (!st) st = op_corridor_is_valid(c, q, la, &f, &v, err);
  op_query_free(q);
  if (st) return st;
  w_bool(res, "valid", v.valid);
  opj_w_key(res, "checked");
  opj_w_int(res, v.checked);
  if (!v.valid) {
    opj_w_key(res, "index");
    opj_w_int(res, v.index);
    opj_w_key(res, "reason");
    opj_w_str(res, op_corridor_reason_name(v.reason));
  }
  w_state(res, c);
  return OP_OK;
}

/* corridor.fix {corridor, mesh, safe_poly, safe_pos, filter?} */
static op_status op_fix(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_corridor *c;
  op_mesh *m;
  op_ref r = 0;
  double p[3];
  op_query_filter f;
  op_status st = get_head(s, args, &c, &m, err);
  if (!st) st = opd_q_get_ref(args, "safe_poly", &r, err);
  if (!st) st = opd_q_get_point(args, "safe_pos", p, err);
  if (!st) st = opd_q_get_filter(args, &f, err);
  op_query *q = NULL;
  if (!st) st = op_query_create(m, 1, &q, err);
  uint32_t kept = 0;
  if (!st) st = op_corridor_fix(c, q, r, p, &f, &kept, err);
  op_query_free(q);
  if (st) return st;
  opj_w_key(res, "kept");
  opj_w_int(res, kept);
  w_state(res, c);
  return OP_OK;
}

/* corridor.replan {corridor, mesh, end, filter?, max_nodes?} -> {status, nodes, reason?} */
static op_status op_replan(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_corridor *c;
  op_mesh *m;
  double e[3];
  op_query_filter f;
  uint32_t nodes = 0;
  op_status st = get_head(s, args, &c, &m, err);
  if (!st) st = opd_q_get_point(args, "end", e, err);
  if (!st) st = opd_q_get_filter(args, &f, err);
  if (!st) st = opd_q_get_opt_u32(args, "max_nodes", OP_QUERY_DEFAULT_NODES, &nodes, err);
  op_query *q = NULL;
  if (!st) st = op_query_create(m, nodes, &q, err);
  op_query_path p;
  if (!st) st = op_corridor_replan(c, q, e, &f, &p, err);
  if (!st) {
    opj_w_key(res, "status");
    opj_w_str(res, op_path_status_name(p.status));
    opj_w_key(res, "nodes");
    opj_w_int(res, p.nodes);
    if (p.status != OP_PATH_FOUND) {
      opj_w_key(res, "reason");
      opj_w_str(res, op_path_reason_name(p.reason));
    }
    w_state(res, c);
  }
  op_query_free(q);
  return st;
}

extern const opd_op opd_ops_corridor[]; /* registered in port/dispatch.c */
const opd_op opd_ops_corridor[] = {
    {"corridor.create", op_create},
    {"corridor.find_corners", op_corners},
    {"corridor.fix", op_fix},
    {"corridor.is_valid", op_is_valid},
    {"corridor.move_over_offmesh", op_over_offmesh},
    {"corridor.move_position", op_move_position},
    {"corridor.move_target", op_move_target},
    {"corridor.optimize_topology", op_topology},
    {"corridor.optimize_visibility", op_visibility},
    {"corridor.replan", op_replan},
    {"corridor.reset", op_reset},
    {"corridor.set", op_set},
    {"corridor.state", op_state},
    {NULL, NULL},
};
