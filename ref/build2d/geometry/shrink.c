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

static op_status nomem(op_error *err) {
  return op_fail(err, OP_E_NOMEM, "memory", "allocation", "out of memory");
}

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
  double rg = agent_radius * scale; /* exact */
  int n = g2_arc_steps(agent_radius, cell_size);
  double theta = G2_TWO_PI / (double)n; /* G2D-124 */
  double s1, c1;
  op_sincos(theta, &s1, &c1, NULL);
  double rho = rg * sqrt(theta / s1); /* equal area */
  double *cs = malloc((size_t)n * 2 * sizeof *cs);
  size_t nobs = 0, npts = 0;
  for (size_t k = 0; k < r->nrings; k++) {
    size_t a = r->ring_start[k], b = r->ring_start[k + 1];
    for (size_t i = a; i < b; i++) {
      g2_point u = r->pts[i == a ? b - 1 : i - 1], v = r->pts[i], w = r->pts[i + 1 < b ? i + 1 : a];
      nobs++;
      npts += 4;
      if (g2_orient(u, v, w) < 0) { nobs++; npts += (size_t)n; } /* G2D-125 reflex */
    }
  }
  g2_point *pts = malloc((npts ? npts : 1) * sizeof *pts);
  g2_grid_outline *obs = malloc((nobs ? nobs : 1) * sizeof *obs);
  op_status st = OP_OK;
  if (!cs || !pts || !obs) { st = nomem(err); goto done; }
  for (int k = 0; k < n; k++) { /* G2D-124 */
    double ak = (double)k * theta;
    op_sincos(ak, &cs[2 * k], &cs[2 * k + 1], NULL);
  }
  size_t np = 0, no = 0;
  for (size_t k = 0; k < r->nrings; k++) {
    size_t a = r->ring_start[k], b = r->ring_start[k + 1];
    for (size_t i = a; i < b; i++) {
      g2_point u = r->pts[i == a ? b - 1 : i - 1], v = r->pts[i], w = r->pts[i + 1 < b ? i + 1 : a];
      /* G2D-126: the rectangle around edge v -> w */
      double dx = (double)(w.x - v.x), dy = (double)(w.y - v.y);
      double len = sqrt(dx * dx + dy * dy);
      double mx = (dy * rg) / len, my = (-dx * rg) / len;
      double cx[4] = {(double)v.x + mx, (double)w.x + mx, (double)w.x - mx, (double)v.x - mx};
      double cy[4] = {(double)v.y + my, (double)w.y + my, (double)w.y - my, (double)v.y - my};
      obs[no].pts = pts + np;
      obs[no].count = 4;
      no++;
      for (int c = 0; c < 4; c++) {
        if (!in_grid(cx[c]) || !in_grid(cy[c])) { /* G2D-127 */
          st = op_fail_d(err, OP_E_RANGE, "AgentRadius", agent_radius,
                         "the shrink reaches beyond +-2^37 grid units");
          goto done;
        }
        pts[np].x = to_grid(cx[c]);
        pts[np].y = to_grid(cy[c]);
        np++;
      }
      /* G2D-125: the polygon around a reflex vertex */
      if (g2_orient(u, v, w) < 0) {
        obs[no].pts = pts + np;
        obs[no].count = (size_t)n;
        no++;
        for (int q = 0; q < n; q++) {
          double x = (double)v.x + rho * cs[2 * q + 1];
          double y = (double)v.y + rho * cs[2 * q];
          if (!in_grid(x) || !in_grid(y)) { /* G2D-127 */
            st = op_fail_d(err, OP_E_RANGE, "AgentRadius", agent_radius,
                           "the shrink reaches beyond +-2^37 grid units");
            goto done;
          }
          pts[np].x = to_grid(x);
          pts[np].y = to_grid(y);
          np++;
        }
      }
    }
  }
  st = g2_region_minus_tree(r, obs, no, out, err); /* G2D-128 */
done:
  free(cs);
  free(pts);
  free(obs);
  return st;
}
