/*
** corridor_ops.c -- the path corridor's operations that run a query (spec/query-corridor.md,
** QCR-220 .. QCR-253): MovePosition and MoveTarget (a move along the surface merged into the
** list), MoveOverOffmesh (the off-mesh link at the head crossed, QCR-223), FindCorners (a straight path with three rules), OptimizeVisibility (a raycast and a
** splice), OptimizeTopology (a search in the query object's pool and a splice) and Replan.
** Built on spec/query.md and spec/query-surface.md.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "query/corridor_internal.h"

/* QCR-220 .. QCR-222: tail 0 moves the position from c[0], 1 the target from c[n-1]. */
static op_status move(op_corridor *c, op_query *q, int tail, const double pos[3],
                      const op_query_filter *filter, uint32_t max_visited, int *truncated,
                      int *search_truncated, op_error *err) {
  op_status st = opq_cor_begin(c, q, 1, err);
  double p[3];
  op_query_filter f;
  if (!st) st = opq_check_pos(pos, "pos", p, err);
  if (!st) st = opq_cor_filter(filter, &f, err);
  if (st) return st;
  if (max_visited < 1 || max_visited > OP_QUERY_MAX_VISITED)
    return op_fail_i(err, OP_E_RANGE, "max_visited", (long long)max_visited,
                     "must be in [1, 65536]");
  opq_begin(q);
  uint32_t k = tail ? c->n - 1 : 0;
  opq_poly P;
  if ((st = opq_cor_end_poly(q, c, k, &f, &P, err))) return st;
  op_query_poly *V = malloc(sizeof *V * max_visited);
  if (!V) return opc_nomem(err, "corridor");
  op_query_move mv;
  double *from = tail ? c->target : c->pos;
  st = op_query_move_along_surface(q, P.ref, from, p, &f, V, max_visited, &mv, err);
  if (!st) {
    int cut = 0;
    memcpy(from, mv.point, sizeof mv.point);
    if (tail) opq_cor_merge_tail(c, V, mv.nvisited, &cut); /* QCR-222 */
    else opq_cor_merge_head(c, V, mv.nvisited, &cut);      /* QCR-221 */
    if (truncated) *truncated = cut;
    if (search_truncated) *search_truncated = mv.truncated;
  }
  free(V);
  return st;
}

op_status op_corridor_move_position(op_corridor *c, op_query *q, const double pos[3],
                                    const op_query_filter *filter, uint32_t max_visited,
                                    int *truncated, int *search_truncated, op_error *err) {
  return move(c, q, 0, pos, filter, max_visited, truncated, search_truncated, err);
}

op_status op_corridor_move_target(op_corridor *c, op_query *q, const double pos[3],
                                  const op_query_filter *filter, uint32_t max_visited,
                                  int *truncated, int *search_truncated, op_error *err) {
  return move(c, q, 1, pos, filter, max_visited, truncated, search_truncated, err);
}

const char *op_offmesh_move_name(op_offmesh_move s) {
  switch (s) {
  case OP_OFFMESH_CROSSED: return "crossed";
  case OP_OFFMESH_NO_LINK: return "no_link";
  case OP_OFFMESH_TOO_FAR: return "too_far";
  default: return "";
  }
}

/* QCR-223: the head link of c (QRY-072's connection of the step c[0] -> c[1]), or -1. */
static int32_t head_link(op_query *q, const opq_poly *P0, op_ref to, op_status *st,
                         op_error *err) {
  for (uint32_t k = 0; k < P0->nlinks; k++)
    if (P0->links[k].target == to) return -1; /* linked: not an off-mesh step */
  int built = 0;
  return opq_conn_to(q, P0, to, &built, st, err);
}

op_status op_corridor_move_over_offmesh(op_corridor *c, op_query *q, double radius,
                                        op_offmesh_move *status, op_corridor_link *link,
                                        op_error *err) {
  op_status st = opq_cor_begin(c, q, 1, err);
  if (st) return st;
  if (!status) return op_fail(err, OP_E_ARGUMENT, "status", "NULL", "status is required");
  if (!(radius >= 0.0 && radius <= 4194304.0))
    return op_fail_d(err, OP_E_RANGE, "radius", radius, "must be finite in [0, 2^22]");
  opq_begin(q);
  opq_poly P0, P1;
  if ((st = opq_poly_get_q(q, c->polys[0].ref, "path[0]", &P0, err))) return st;
  int32_t k = -1; /* a list of one polygon has no head step */
  if (c->n >= 2) {
    if ((st = opq_poly_get_q(q, c->polys[1].ref, "path[1]", &P1, err))) return st;
    k = head_link(q, &P0, P1.ref, &st, err);
    if (st) return st;
  }
  if (k < 0) { /* rule 1 */
    *status = OP_OFFMESH_NO_LINK;
    return OP_OK;
  }
  const opq_conn *L = &q->conns[k];
  double dx = c->pos[0] - L->a[0], dz = c->pos[2] - L->a[2];
  if (dx * dx + dz * dz > radius * radius) { /* rule 2 */
    *status = OP_OFFMESH_TOO_FAR;
    return OP_OK;
  }
  if (link) { /* rule 3 */
    memcpy(link->start, L->a, sizeof link->start);
    memcpy(link->end, L->b, sizeof link->end);
    link->flags = L->flags, link->area = L->area, link->user_id = L->user_id;
  }
  opq_cor_head_point(&P1, L->b, c->pos);
  memmove(c->polys, c->polys + 1, sizeof *c->polys * (c->n - 1));
  c->n--;
  *status = OP_OFFMESH_CROSSED;
  return OP_OK;
}

/* QCR-230, QCR-231 */
op_status op_corridor_find_corners(op_corridor *c, op_query *q, uint32_t max_corners,
                                   const op_query_corner **corners, uint32_t *ncorners,
                                   int *truncated, op_error *err) {
  op_status st = opq_cor_begin(c, q, 1, err);
  if (st) return st;
  if (!corners || !ncorners)
    return op_fail(err, OP_E_ARGUMENT, "corners", "NULL", "corners is required");
  if (max_corners < 1 || max_corners > OP_CORRIDOR_MAX_CORNERS)
    return op_fail_i(err, OP_E_RANGE, "max_corners", (long long)max_corners,
                     "must be in [1, 65536]");
  op_ref *refs = malloc(sizeof *refs * c->n);
  if (!refs) return opc_nomem(err, "corridor");
  for (uint32_t i = 0; i < c->n; i++) refs[i] = c->polys[i].ref;
  const op_query_corner *sc;
  uint32_t nc;
  st = op_query_straight_path(q, c->pos, c->target, refs, c->n, OP_CROSS_NONE,
                              OP_QUERY_MAX_CORNERS, &sc, &nc, err);
  free(refs);
  if (st) return st;
  uint32_t a = 0; /* rule 1 */
  while (a < nc && sc[a].point[0] == c->pos[0] && sc[a].point[2] == c->pos[2] &&
         !(sc[a].flags & OP_CORNER_OFFMESH))
    a++;
  uint32_t b = a; /* rule 2: up to the first OFFMESH corner, included */
  while (b < nc && !(sc[b].flags & OP_CORNER_OFFMESH)) b++;
  if (b < nc) b++;
  int cut = b - a > max_corners; /* rule 3 */
  if (cut) b = a + max_corners;
  *corners = sc + a;
  *ncorners = b - a;
  if (truncated) *truncated = cut;
  return OP_OK;
}

/* QCR-240's goal coordinate bound. */
static double clamp22(double v) {
  if (v > 4194304.0) return 4194304.0;
  if (v < -4194304.0) return -4194304.0;
  return v;
}

/* QCR-240 */
op_status op_corridor_optimize_visibility(op_corridor *c, op_query *q, const double next[3],
                                          double range, const op_query_filter *filter,
                                          uint32_t max_visited, int *spliced, int *truncated,
                                          op_error *err) {
  op_status st = opq_cor_begin(c, q, 1, err);
  double N[3];
  if (!st) st = opq_check_pos(next, "next", N, err);
  if (st) return st;
  if (!(range > 0.0 && range <= 4194304.0))
    return op_fail_d(err, OP_E_RANGE, "range", range, "must be in (0, 2^22]");
  op_query_filter f;
  if ((st = opq_cor_filter(filter, &f, err))) return st;
  if (max_visited < 1 || max_visited > OP_QUERY_MAX_VISITED)
    return op_fail_i(err, OP_E_RANGE, "max_visited", (long long)max_visited,
                     "must be in [1, 65536]");
  opq_begin(q);
  opq_poly P0;
  if ((st = opq_cor_end_poly(q, c, 0, &f, &P0, err))) return st;
  int sp = 0, cut = 0;
  const double *P = c->pos;
  double dx = N[0] - P[0], dz = N[2] - P[2];
  double d = sqrt(dx * dx + dz * dz);
  if (d != 0.0) {
    double G[3];
    if (d <= range) {
      memcpy(G, N, sizeof G);
    } else {
      double k = range / d;
      for (int i = 0; i < 3; i++) G[i] = clamp22(P[i] + (N[i] - P[i]) * k);
    }
    op_query_poly *V = malloc(sizeof *V * max_visited);
    if (!V) return opc_nomem(err, "corridor");
    op_query_ray r;
    st = op_query_raycast(q, P0.ref, P, G, &f, 0, V, max_visited, &r, err);
    if (!st && r.status == OP_RAY_END && r.npolys >= 2) sp = opq_cor_splice(c, V, r.npolys, &cut);
    free(V);
  }
  if (spliced) *spliced = sp;
  if (truncated) *truncated = cut;
  return st;
}

/* QCR-241 */
op_status op_corridor_optimize_topology(op_corridor *c, op_query *q,
                                        const op_query_filter *filter, int *spliced,
                                        int *truncated, op_error *err) {
  op_status st = opq_cor_begin(c, q, 1, err);
  op_query_filter f;
  if (!st) st = opq_cor_filter(filter, &f, err);
  if (st) return st;
  int sp = 0, cut = 0;
  if (c->n >= 3) {
    opq_begin(q);
    opq_poly S, E;
    if ((st = opq_cor_end_poly(q, c, 0, &f, &S, err))) return st;
    if ((st = opq_cor_end_poly(q, c, c->n - 1, &f, &E, err))) return st;
    op_query_nearest sn, en;
    sn.found = en.found = 1;
    opq_qpoly(&S, &sn.poly);
    opq_qpoly(&E, &en.poly);
    memcpy(sn.point, c->pos, sizeof sn.point);
    memcpy(en.point, c->target, sizeof en.point);
    op_query_path path;
    if ((st = opq_search(q, &sn, &en, &f, c->max_path, &path, err))) return st;
    if (path.npolys >= 2) sp = opq_cor_splice(c, path.polys, path.npolys, &cut);
  }
  if (spliced) *spliced = sp;
  if (truncated) *truncated = cut;
  return OP_OK;
}

/* QCR-253 */
op_status op_corridor_replan(op_corridor *c, op_query *q, const double end[3],
                             const op_query_filter *filter, op_query_path *out, op_error *err) {
  op_status st = opq_cor_begin(c, q, 1, err);
  if (!st && !out) st = op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  double e[3];
  op_query_filter f;
  if (!st) st = opq_check_pos(end, "end", e, err);
  if (!st) st = opq_cor_filter(filter, &f, err);
  if (st) return st;
  opq_begin(q);
  opq_poly S;
  if ((st = opq_cor_end_poly(q, c, 0, &f, &S, err))) return st;
  op_mesh_params mp; /* QRY-061's acceptance box */
  op_mesh_get_params(q->mesh, &mp);
  double ext[3];
  ext[0] = 2.0 * mp.tiling.cell_size;
  ext[1] = mp.walkable_climb + 2.0 * mp.tiling.cell_height;
  ext[2] = ext[0];
  op_query_nearest sn, en;
  if ((st = opq_nearest(q, e, ext, &f, &en, err))) return st;
  if (!en.found) {
    char a[32], b[32], z[32], v[100];
    op_format_double(a, sizeof a, e[0]);
    op_format_double(b, sizeof b, e[1]);
    op_format_double(z, sizeof z, e[2]);
    snprintf(v, sizeof v, "%s,%s,%s", a, b, z);
    return op_fail(err, OP_E_RANGE, "end", v, "no polygon accepts the end");
  }
  sn.found = 1;
  opq_qpoly(&S, &sn.poly);
  memcpy(sn.point, c->pos, sizeof sn.point);
  if ((st = opq_search(q, &sn, &en, &f, c->max_path, out, err))) return st;
  if (out->status == OP_PATH_FOUND) {
    memcpy(c->polys, out->polys, sizeof *out->polys * out->npolys);
    c->n = out->npolys;
    memcpy(c->target, en.point, sizeof en.point);
  }
  return OP_OK;
}
