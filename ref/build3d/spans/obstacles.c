/*
** obstacles.c -- step 4 of the 3D run-time build: obstacles (cylinder, box, oriented box)
** grown by the agent radius, marking the spans of a compact heightfield with area 0, and
** the x/z box that decides which cached tiles an operation queues.
**
** Implements the seed's "Obstacles (step 4)" and "Which tiles rebuild" rules of
** spec/build3d-runtime.md section 3 (RT-020 .. RT-025) and RT-050, and
** the validation of SPAN-004 / SPAN-033 (spec/build3d-spans.md). Declarations and the
** exact formulas: ref/build3d/spans/obstacles.h. Every binary64 expression is written in the order the
** rules state it, one rounding per operation (MATH-002).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "build3d/spans/obstacles.h"
#include "build3d/spans/spans_internal.h"

/* ------------------------------------------------------------ validation */

/* "In range": finite with magnitude at most 2^21 (SPAN-033). */
static int in_range(double v) { return isfinite(v) && v >= -OP_COORD_LIMIT && v <= OP_COORD_LIMIT; }

static double absd(double v) { return v < 0 ? -v : v; }

static op_status bad(op_error *err, const char *prefix, const char *name, double v,
                     const char *why) {
  char f[96];
  snprintf(f, sizeof f, "%s%s", prefix, name);
  return op_fail_d(err, OP_E_RANGE, f, v, why);
}

static const char *const xyz_name[3][3] = {{"center.x", "center.y", "center.z"},
                                           {"bmin.x", "bmin.y", "bmin.z"},
                                           {"bmax.x", "bmax.y", "bmax.z"}};

static const char *const shape_prefix[3] = {"cylinder.", "box.", "oriented_box."};

/* A size (radius, height, half size) under the seed's rule (every number within +-2^21;
** seed = 1, prefix NULL) or SPAN-033's (finite; its extents are checked after). */
static int size_ok(double v, int seed) { return seed ? in_range(v) : isfinite(v); }

/* SPAN-033 2 (RT-023): centre, radius (size, then extents), height. */
static op_status check_cylinder(const op_obstacle *o, const char *pf, int seed, op_error *err) {
  const double *c = o->center;
  for (int k = 0; k < 3; k++)
    if (!in_range(c[k]))
      return bad(err, pf, xyz_name[0][k], c[k], "must be finite and within +-2^21");
  double r = o->radius, h = o->height;
  if (!size_ok(r, seed) || !(r > 0))
    return bad(err, pf, "radius", r, "radius must be finite, > 0 and at most 2^21");
  if (!in_range(c[0] - r) || !in_range(c[0] + r) || !in_range(c[2] - r) || !in_range(c[2] + r))
    return bad(err, pf, "radius", r, "the cylinder leaves +-2^21 on x or z");
  if (!size_ok(h, seed) || !(h >= 0))
    return bad(err, pf, "height", h, "height must be finite, >= 0 and at most 2^21");
  if (!in_range(c[1] + h)) return bad(err, pf, "height", h, "the top leaves +-2^21");
  return OP_OK;
}

/* SPAN-033 3: six corner values in order, then bmin <= bmax per axis. */
static op_status check_box(const op_obstacle *o, const char *pf, op_error *err) {
  for (int k = 0; k < 3; k++)
    if (!in_range(o->bmin[k]))
      return bad(err, pf, xyz_name[1][k], o->bmin[k], "must be finite and within +-2^21");
  for (int k = 0; k < 3; k++)
    if (!in_range(o->bmax[k]))
      return bad(err, pf, xyz_name[2][k], o->bmax[k], "must be finite and within +-2^21");
  for (int k = 0; k < 3; k++)
    if (!(o->bmin[k] <= o->bmax[k]))
      return bad(err, pf, xyz_name[2][k], o->bmax[k], "bmax must not be below bmin");
  return OP_OK;
}

/* The rotated half extents on x and z (SPAN-033 4):
** ex = fl(fl(a * |c|) + fl(b * |s|)), ez = fl(fl(a * |s|) + fl(b * |c|)). */
static void rotated_extent(double a, double b, double s, double c, double *ex, double *ez) {
  double as = absd(s), ac = absd(c);
  *ex = a * ac + b * as;
  *ez = a * as + b * ac;
}

/* SPAN-033 4: centre, half sizes, yaw, then the rotated extents. */
static op_status check_oriented(const op_obstacle *o, const char *pf, int seed, op_error *err) {
  const double *c = o->center, *hs = o->half;
  for (int k = 0; k < 3; k++)
    if (!in_range(c[k]))
      return bad(err, pf, xyz_name[0][k], c[k], "must be finite and within +-2^21");
  if (!size_ok(hs[0], seed) || !(hs[0] > 0))
    return bad(err, pf, "half.x", hs[0], "half.x must be finite, > 0 and at most 2^21");
  if (!size_ok(hs[1], seed) || !(hs[1] >= 0))
    return bad(err, pf, "half.y", hs[1], "half.y must be finite, >= 0 and at most 2^21");
  if (!size_ok(hs[2], seed) || !(hs[2] > 0))
    return bad(err, pf, "half.z", hs[2], "half.z must be finite, > 0 and at most 2^21");
  if (!in_range(o->yaw)) return bad(err, pf, "yaw", o->yaw, "yaw must be finite and within +-2^21");
  double sn, cs, ex, ez;
  op_sincos(o->yaw, &sn, &cs, NULL); /* cannot fail: yaw is in range */
  rotated_extent(hs[0], hs[2], sn, cs, &ex, &ez);
  if (!in_range(c[0] - ex) || !in_range(c[0] + ex))
    return bad(err, pf, "half.x", hs[0], "the box leaves +-2^21 on x");
  if (!in_range(c[2] - ez) || !in_range(c[2] + ez))
    return bad(err, pf, "half.z", hs[2], "the box leaves +-2^21 on z");
  if (!in_range(c[1] - hs[1]) || !in_range(c[1] + hs[1]))
    return bad(err, pf, "half.y", hs[1], "the box leaves +-2^21 on y");
  return OP_OK;
}

/* SPAN-033, RT-023. With a prefix ("obstacles[i].", "obstacle.") exactly SPAN-033's
** rules, so that AddObstacle accepts what the settings accept (RT-027); without one the
** seed's stricter bound on every number and the shape's name as prefix. */
op_status opob_validate(const op_obstacle *o, const char *prefix, op_error *err) {
  if (!o) return op_fail(err, OP_E_ARGUMENT, "obstacle", "null", "the obstacle is missing");
  if ((unsigned)o->shape > OP_OBSTACLE_ORIENTED_BOX) {
    char f[96];
    snprintf(f, sizeof f, "%sshape", prefix ? prefix : "");
    return op_fail_i(err, OP_E_ARGUMENT, f, (long long)o->shape,
                     "shape must be cylinder, box or oriented_box");
  }
  const char *pf = prefix ? prefix : shape_prefix[o->shape];
  switch (o->shape) {
    case OP_OBSTACLE_CYLINDER: return check_cylinder(o, pf, !prefix, err);
    case OP_OBSTACLE_BOX: return check_box(o, pf, err);
    default: return check_oriented(o, pf, !prefix, err);
  }
}

/* ------------------------------------------------------------ prepared shape */

/* RT-020: obstacle growth -- WalkableRadius cells times the cell size, binary64. */
double opob_growth(int32_t radius_cells, double cs) { return (double)radius_cells * cs; }

/* RT-025: the x/z box of the footprint grown by `grow`. */
void opob_box(const op_obstacle *o, double grow, double bmin[2], double bmax[2]) {
  if (o->shape == OP_OBSTACLE_BOX) {
    bmin[0] = o->bmin[0] - grow;
    bmax[0] = o->bmax[0] + grow;
    bmin[1] = o->bmin[2] - grow;
    bmax[1] = o->bmax[2] + grow;
    return;
  }
  double ex, ez;
  if (o->shape == OP_OBSTACLE_CYLINDER) {
    ex = ez = o->radius + grow;
  } else {
    double sn, cs;
    op_sincos(o->yaw, &sn, &cs, NULL);
    rotated_extent(o->half[0] + grow, o->half[2] + grow, sn, cs, &ex, &ez);
  }
  bmin[0] = o->center[0] - ex;
  bmax[0] = o->center[0] + ex;
  bmin[1] = o->center[2] - ez;
  bmax[1] = o->center[2] + ez;
}

op_status opob_prepare(const op_obstacle *o, int32_t radius_cells, double cs, opob_obst *out,
                       op_error *err) {
  op_status st = opob_validate(o, NULL, err);
  if (st != OP_OK) return st;
  if (!isfinite(cs) || !(cs > 0)) return op_fail_d(err, OP_E_RANGE, "cs", cs, "cs must be finite and > 0");
  if (radius_cells < 0)
    return op_fail_i(err, OP_E_RANGE, "radius_cells", radius_cells, "radius_cells must be >= 0");
  opob_prepare_valid(o, radius_cells, cs, out);
  return OP_OK;
}

/* RT-020, RT-021, RT-025 for a validated obstacle. */
void opob_prepare_valid(const op_obstacle *o, int32_t radius_cells, double cs, opob_obst *out) {
  opob_obst p;
  memset(&p, 0, sizeof p);
  p.shape = o->shape;
  p.radius_cells = radius_cells;
  p.cs = cs;
  p.g = opob_growth(radius_cells, cs); /* RT-020: obstacle growth */
  switch (o->shape) {
    case OP_OBSTACLE_CYLINDER:
      p.cx = o->center[0];
      p.cz = o->center[2];
      p.rg = o->radius + p.g;
      p.rg2 = p.rg * p.rg;
      p.ymin = o->center[1];
      p.ymax = o->center[1] + o->height;
      break;
    case OP_OBSTACLE_BOX:
      p.x0 = o->bmin[0] - p.g;
      p.x1 = o->bmax[0] + p.g;
      p.z0 = o->bmin[2] - p.g;
      p.z1 = o->bmax[2] + p.g;
      p.ymin = o->bmin[1];
      p.ymax = o->bmax[1];
      break;
    default:
      p.cx = o->center[0];
      p.cz = o->center[2];
      op_sincos(o->yaw, &p.s, &p.c, NULL); /* math.md SinCos; yaw validated */
      p.hxg = o->half[0] + p.g;
      p.hzg = o->half[2] + p.g;
      p.ymin = o->center[1] - o->half[1];
      p.ymax = o->center[1] + o->half[1];
      break;
  }
  opob_box(o, p.g, p.bmin, p.bmax);
  *out = p;
}

/* ------------------------------------------------------------ the two tests */

/* RT-021: obstacle footprint test (boundary included; the order of obstacles.h). */
int opob_footprint(const opob_obst *p, double x, double z) {
  if (p->shape == OP_OBSTACLE_BOX) return p->x0 <= x && x <= p->x1 && p->z0 <= z && z <= p->z1;
  double dx = x - p->cx;
  double dz = z - p->cz;
  if (p->shape == OP_OBSTACLE_CYLINDER) return dx * dx + dz * dz <= p->rg2;
  double u = dx * p->c + dz * p->s;
  double v = dz * p->c - dx * p->s;
  return absd(u) <= p->hxg && absd(v) <= p->hzg;
}

/* RT-021: obstacle height test (both ends included). */
int opob_height(const opob_obst *p, double fy) { return p->ymin <= fy && fy <= p->ymax; }

/* The floor height of a row, as SPAN-162 computes it for volumes. */
double opob_floor_y(const op_hf_grid *g, int32_t row) { return g->origin[1] + (double)row * g->ch; }

/* ------------------------------------------------------------ marking */

/* RT-022: obstacle marking -- every column of the grid (border included), every span with a
** non-zero area, footprint test on the cell centre, height test on the floor. */
size_t opob_mark(op_chf *chf, const opob_obst *p) {
  if (!chf || !p || chf->grid.cs != p->cs) return 0;
  const op_hf_grid *g = &chf->grid;
  int32_t x0, x1, z0, z1;
  if (!opsp_centre_range(g, 0, p->bmin[0], p->bmax[0], &x0, &x1) ||
      !opsp_centre_range(g, 2, p->bmin[1], p->bmax[1], &z0, &z1))
    return 0;
  size_t n = 0;
  for (int32_t z = z0; z <= z1; z++) {
    double pz = opsp_grid_centre_z(g, z); /* SPAN-161 cell centre */
    for (int32_t x = x0; x <= x1; x++) {
      size_t col = (size_t)z * (size_t)g->width + (size_t)x;
      if (chf->cell_count[col] == 0) continue;
      if (!opob_footprint(p, opsp_grid_centre_x(g, x), pz)) continue;
      uint32_t end = chf->cell_index[col] + chf->cell_count[col];
      for (uint32_t i = chf->cell_index[col]; i < end; i++) {
        if (chf->areas[i] == OP_AREA_NULL) continue;
        if (!opob_height(p, opob_floor_y(g, chf->spans[i].y))) continue;
        chf->areas[i] = OP_AREA_NULL;
        n++;
      }
    }
  }
  return n;
}

op_status opob_chf_mark(op_chf *chf, const op_obstacle *o, uint32_t n,
                        int32_t radius_cells, size_t *nmarked, op_error *err) {
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "null", "the heightfield is missing");
  if (n && !o) return op_fail(err, OP_E_ARGUMENT, "obstacles", "null", "the obstacles are missing");
  if (radius_cells < 0)
    return op_fail_i(err, OP_E_RANGE, "radius_cells", radius_cells, "radius_cells must be >= 0");
  for (uint32_t k = 0; k < n; k++) { /* all checked before any marking */
    char pf[48];
    snprintf(pf, sizeof pf, "obstacles[%u].", k);
    op_status st = opob_validate(&o[k], pf, err);
    if (st != OP_OK) return st;
  }
  size_t total = 0;
  for (uint32_t k = 0; k < n; k++) { /* list order (order does not change the result) */
    opob_obst p;
    opob_prepare_valid(&o[k], radius_cells, chf->grid.cs, &p); /* validated above */
    total += opob_mark(chf, &p);
  }
  if (nmarked) *nmarked = total;
  return OP_OK;
}

/* ------------------------------------------------------------ queueing */

/* RT-050: the bordered grid widened by R + 1 cells (cell lines of SPAN-100) against a
** closed x/z box, touching counts. */
int opob_grid_overlaps(const op_hf_grid *grid, int32_t radius_cells, const double bmin[2],
                       const double bmax[2]) {
  int64_t w = (int64_t)radius_cells + 1;
  double lx = grid->origin[0] + (double)((int64_t)grid->gx0 - w) * grid->cs;
  double hx = grid->origin[0] + (double)((int64_t)grid->gx0 + grid->width + w) * grid->cs;
  double lz = grid->origin[2] + (double)((int64_t)grid->gz0 - w) * grid->cs;
  double hz = grid->origin[2] + (double)((int64_t)grid->gz0 + grid->depth + w) * grid->cs;
  return lx <= bmax[0] && bmin[0] <= hx && lz <= bmax[1] && bmin[1] <= hz;
}

/* RT-050, RT-025: the grown shape's box against the widened grid. */
int opob_tile_queued(const opob_obst *p, const op_hf_grid *grid) {
  return opob_grid_overlaps(grid, p->radius_cells, p->bmin, p->bmax);
}
