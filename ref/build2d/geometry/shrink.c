/*
** shrink.c -- the shrink of a region by the agent radius (spec/build2d-geometry.md
** section 5, G2D-120..G2D-128): the region minus the union of one rectangle around
** every ring edge and one equal-area polygon around every reflex ring vertex, all
** resolved by the difference of G2D-035.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "build2d/geometry/g2d.h"
#include "math/opmath.h"

#define G2_HALF_PI 0x1.921fb54442d18p+0 /* binary64 nearest pi/2 (G2D-123) */
#define G2_TWO_PI 0x1.921fb54442d18p+2  /* binary64 nearest 2 pi (G2D-124) */
#define G2_ARC_K 0.0825                  /* G2D-122 */

/* G2D-123: the number of polygon vertices for a radius and cell size (n >= 8, n <= 1024,
** a multiple of 4). */
int g2_arc_steps(double agent_radius, double cell_size) {
  double c4 = cell_size * 0.25, c2 = cell_size * 0.5;
  double k = G2_ARC_K * agent_radius;
  double tol = k < c2 ? k : c2; /* G2D-122 */
  if (c4 > tol) tol = c4;
  double u = (8.0 * tol) / agent_radius;
  double w = G2_HALF_PI / sqrt(u);
  int64_t m;
  if (!(w <= 256.0)) {
    m = 256;
  } else {
    m = (int64_t)w; /* w > 0: truncation is floor */
    if ((double)m < w) m += 1;
  }
  if (m < 2) m = 2;
  return (int)(4 * m);
}

static int64_t to_grid(double v) { return op_round_half_even(v); } /* MATH-007 */

static int in_grid(double v) {
  return v >= -(double)G2_GRID_MAX && v <= (double)G2_GRID_MAX;
}

/* The obstacles of one shrink, written in ring order: their points and outlines. */
typedef struct shrink_obs {
  double rg, rho, agent_radius; /* radius in grid units; the polygon's radius (G2D-124) */
  int n;                        /* vertices of a vertex polygon (G2D-123) */
  const double *cs;             /* n (sin, cos) pairs of k * theta (G2D-124) */
  g2_point *pts;
  size_t np;
  g2_grid_outline *obs;
  size_t no;
} shrink_obs;

/* G2D-127: one corner onto the grid, or a range error when it lies beyond +-2^37. */
static op_status put_corner(shrink_obs *so, double x, double y, op_error *err) {
  if (!in_grid(x) || !in_grid(y))
    return op_fail_d(err, OP_E_RANGE, "AgentRadius", so->agent_radius,
                     "the shrink reaches beyond +-2^37 grid units");
  so->pts[so->np].x = to_grid(x);
  so->pts[so->np].y = to_grid(y);
  so->np++;
  return OP_OK;
}

/* G2D-126: the rectangle around edge v -> w. */
static op_status edge_rect(shrink_obs *so, g2_point v, g2_point w, op_error *err) {
  double dx = (double)(w.x - v.x), dy = (double)(w.y - v.y);
  double len = sqrt(dx * dx + dy * dy);
  double mx = (dy * so->rg) / len, my = (-dx * so->rg) / len;
  double cx[4] = {(double)v.x + mx, (double)w.x + mx, (double)w.x - mx, (double)v.x - mx};
  double cy[4] = {(double)v.y + my, (double)w.y + my, (double)w.y - my, (double)v.y - my};
  so->obs[so->no].pts = so->pts + so->np;
  so->obs[so->no].count = 4;
  so->no++;
  op_status st = OP_OK;
  for (int c = 0; st == OP_OK && c < 4; c++) st = put_corner(so, cx[c], cy[c], err);
  return st;
}

/* G2D-125: the equal-area polygon around the reflex vertex v. */
static op_status vertex_polygon(shrink_obs *so, g2_point v, op_error *err) {
  so->obs[so->no].pts = so->pts + so->np;
  so->obs[so->no].count = (size_t)so->n;
  so->no++;
  op_status st = OP_OK;
  for (int q = 0; st == OP_OK && q < so->n; q++)
    st = put_corner(so, (double)v.x + so->rho * so->cs[2 * q + 1],
                    (double)v.y + so->rho * so->cs[2 * q], err);
  return st;
}

/* Ring vertex i of ring [a, b) with its neighbours: u before, w after. */
static void ring_corner(const g2_region *r, size_t a, size_t b, size_t i, g2_point *u,
                        g2_point *v, g2_point *w) {
  *u = r->pts[i == a ? b - 1 : i - 1];
  *v = r->pts[i];
  *w = r->pts[i + 1 < b ? i + 1 : a];
}

/* G2D-120 .. G2D-128: the checks, the obstacles of every ring edge and reflex vertex in
** ring order, then the region minus their union. */
op_status g2_region_shrink(const g2_region *r, double agent_radius, double cell_size,
                           g2_region *out, op_error *err) {
  /* G2D-120 */
  if (!(agent_radius >= 0 && agent_radius <= 4096.0))
    return op_fail_d(err, OP_E_RANGE, "AgentRadius", agent_radius,
                     "must be finite and in [0, 4096]");
  if (!(cell_size > 0 && cell_size <= G2_WORLD_MAX))
    return op_fail_d(err, OP_E_RANGE, "CellSize", cell_size, "must be in (0, 2^21]");
  if (agent_radius == 0 || r->nrings == 0) return g2_region_copy(r, out, err); /* G2D-121 */

  double scale = (double)((int64_t)1 << r->snap_bits);
  shrink_obs so;
  memset(&so, 0, sizeof so);
  so.agent_radius = agent_radius;
  so.rg = agent_radius * scale; /* exact */
  so.n = g2_arc_steps(agent_radius, cell_size);
  double theta = G2_TWO_PI / (double)so.n; /* G2D-124 */
  double s1, c1;
  op_sincos(theta, &s1, &c1, NULL);
  so.rho = so.rg * sqrt(theta / s1); /* equal area */
  double *cs = malloc((size_t)so.n * 2 * sizeof *cs);
  size_t nobs = 0, npts = 0;
  g2_point u, v, w;
  for (size_t k = 0; k < r->nrings; k++)
    for (size_t i = r->ring_start[k]; i < r->ring_start[k + 1]; i++) {
      ring_corner(r, r->ring_start[k], r->ring_start[k + 1], i, &u, &v, &w);
      nobs++;
      npts += 4;
      if (g2_orient(u, v, w) < 0) { nobs++; npts += (size_t)so.n; } /* G2D-125 reflex */
    }
  so.pts = malloc((npts ? npts : 1) * sizeof *so.pts);
  so.obs = malloc((nobs ? nobs : 1) * sizeof *so.obs);
  op_status st = OP_OK;
  if (!cs || !so.pts || !so.obs) st = opc_nomem(err, "memory");
  for (int k = 0; st == OP_OK && k < so.n; k++) { /* G2D-124 */
    double ak = (double)k * theta;
    op_sincos(ak, &cs[2 * k], &cs[2 * k + 1], NULL);
  }
  so.cs = cs;
  for (size_t k = 0; st == OP_OK && k < r->nrings; k++)
    for (size_t i = r->ring_start[k]; st == OP_OK && i < r->ring_start[k + 1]; i++) {
      ring_corner(r, r->ring_start[k], r->ring_start[k + 1], i, &u, &v, &w);
      st = edge_rect(&so, v, w, err);                                   /* G2D-126 */
      if (st == OP_OK && g2_orient(u, v, w) < 0) st = vertex_polygon(&so, v, err); /* G2D-125 */
    }
  if (st == OP_OK) st = g2_region_minus_tree(r, so.obs, so.no, out, err); /* G2D-128 */
  free(cs);
  free(so.pts);
  free(so.obs);
  return st;
}
