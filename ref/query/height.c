/*
** height.c -- the queries on one polygon (spec/query.md, section 5: QRY-044 .. QRY-046):
** GetPolyHeight, ClosestPointOnPoly, ClosestPointOnPolyBoundary, on the geometry of geom.c.
*/
#include "query/query_internal.h"

static op_status need(const void *p, const char *field, op_error *err) {
  return p ? OP_OK : op_fail(err, OP_E_ARGUMENT, field, "NULL", "%s is required", field);
}

/* QRY-044: x, z, then the reference. */
op_status op_query_poly_height(op_query *q, op_ref poly, double x, double z, int *inside,
                               double *height, op_error *err) {
  op_status st = need(q, "query", err);
  if (!st) st = need(inside, "inside", err);
  if (!st) st = need(height, "height", err);
  double p[3] = {0.0, 0.0, 0.0};
  if (!st) st = opq_check_coord(x, "x", &p[0], err);
  if (!st) st = opq_check_coord(z, "z", &p[2], err);
  opq_poly P;
  if (!st) st = opq_poly_get(q->mesh, poly, "poly", &P, err);
  if (st) return st;
  *inside = opq_inside(&P, p);
  if (*inside) *height = opq_height(&P, p[0], p[2]);
  return OP_OK;
}

/* QRY-045: pos, then the reference. */
op_status op_query_closest_point(op_query *q, op_ref poly, const double pos[3], double out[3],
                                 int *over, op_error *err) {
  op_status st = need(q, "query", err);
  if (!st) st = need(out, "out", err);
  if (!st) st = need(over, "over", err);
  double p[3];
  if (!st) st = opq_check_pos(pos, "pos", p, err);
  opq_poly P;
  if (!st) st = opq_poly_get(q->mesh, poly, "poly", &P, err);
  if (st) return st;
  *over = opq_closest(&P, p, out);
  return OP_OK;
}

/* QRY-046 */
op_status op_query_closest_point_boundary(op_query *q, op_ref poly, const double pos[3],
                                          double out[3], op_error *err) {
  op_status st = need(q, "query", err);
  if (!st) st = need(out, "out", err);
  double p[3];
  if (!st) st = opq_check_pos(pos, "pos", p, err);
  opq_poly P;
  if (!st) st = opq_poly_get(q->mesh, poly, "poly", &P, err);
  if (st) return st;
  opq_boundary(&P, p, out);
  out[1] = opq_height(&P, out[0], out[2]);
  return OP_OK;
}
