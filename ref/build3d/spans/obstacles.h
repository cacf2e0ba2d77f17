/*
** obstacles.h -- the obstacles of step 4 of the 3D run-time build (internal; not part of
** the public API): validation of an op_obstacle, the shape prepared for one grid (growth
** by the agent radius), the footprint and floor-height tests, the marking of a compact
** heightfield, the x/z box of the grown shape and the tile-queue test.
**
** Normative text: spec/build3d-runtime.md section 3 (RT-020 .. RT-025) and RT-050, and
** spec/build3d-spans.md SPAN-004,
** SPAN-033 (what an obstacle is and how it is validated), SPAN-100 (grids).
**
** Every binary64 formula below is evaluated exactly in the order written (math.md
** MATH-002): fl() around each operation, no contraction.
*/
#ifndef OP_OBSTACLES_H
#define OP_OBSTACLES_H

#include <stddef.h>

#include "onepath_build3d.h"

/* An obstacle prepared for a grid of cell size cs and an agent of WalkableRadius R
** cells (opob_prepare). All fields are derived, binary64, in the order stated. */
typedef struct opob_obst {
  op_obstacle_shape shape;
  int32_t radius_cells; /* R = WalkableRadius (cells, SPAN-021) */
  double cs;            /* the grid's cell size the growth was computed for */
  double g;             /* growth: fl(R * cs)                       RT-020 */
  /* cylinder */
  double cx, cz;        /* base centre x, z (also the oriented box's centre) */
  double rg;            /* fl(r + g) */
  double rg2;           /* fl(rg * rg) */
  /* box */
  double x0, x1, z0, z1; /* fl(bmin.x - g), fl(bmax.x + g), fl(bmin.z - g), fl(bmax.z + g) */
  /* oriented box */
  double s, c;          /* SinCos(yaw) (math.md) */
  double hxg, hzg;      /* fl(hx + g), fl(hz + g) */
  /* every shape */
  double ymin, ymax;    /* the height range, both ends included (RT-021) */
  double bmin[2], bmax[2]; /* x/z box of the grown footprint (opob_box) */
} opob_obst;

/* SPAN-033, RT-023: checks one obstacle in the order of SPAN-033. Field names are
** `prefix` + the SPAN-033 name ("radius", "center.x", "bmax.z", "half.y", "yaw", ...):
** "obstacles[i]." for the settings' list, "obstacle." for TileCache.AddObstacle; with a
** prefix the rules are exactly SPAN-033's (a radius, height or half size need only be
** finite, its extents being checked), so the cache accepts what the settings accept.
** prefix NULL means the shape's own name and a dot: "cylinder.", "box.",
** "oriented_box." (so "cylinder.radius"), and the seed's stricter rule ("every number is
** finite and within +-2^21, as is every extent"). A shape that is none of the three is
** OP_E_ARGUMENT `prefix`"shape" (prefix NULL: "shape"); every other failure is
** OP_E_RANGE naming the field and its value (op_fail_d). o NULL: OP_E_ARGUMENT
** "obstacle". Never changes anything. */
op_status opob_validate(const op_obstacle *o, const char *prefix, op_error *err);

/* RT-020: obstacle growth. g = fl((double)R * cs): WalkableRadius cells times the cell size,
** binary64 (R >= 0, converted exactly). */
double opob_growth(int32_t radius_cells, double cs);

/* Validates o (opob_validate with prefix NULL), then fills *out for cell size cs
** (> 0, finite) and radius R (>= 0; else OP_E_RANGE "cs" / "radius_cells"). On failure
** *out is untouched. */
op_status opob_prepare(const op_obstacle *o, int32_t radius_cells, double cs, opob_obst *out,
                       op_error *err);

/* opob_prepare without the checks, for an obstacle validated already (with any prefix)
** and cs > 0, R >= 0. */
void opob_prepare_valid(const op_obstacle *o, int32_t radius_cells, double cs, opob_obst *out);

/* RT-021: obstacle footprint test. 1 when the world point (x, z) (a cell centre) lies in the
** grown footprint, boundary included:
**   cylinder:     dx = fl(x - cx); dz = fl(z - cz); fl(fl(dx*dx) + fl(dz*dz)) <= rg2
**                 with rg2 = fl(rg * rg), rg = fl(r + g);
**   box:          x0 <= x <= x1 and z0 <= z <= z1 (x0 = fl(bmin.x - g), x1 = fl(bmax.x + g),
**                 likewise z);
**   oriented box: dx, dz as the cylinder's; u = fl(fl(dx*c) + fl(dz*s));
**                 v = fl(fl(dz*c) - fl(dx*s)); |u| <= fl(hx + g) and |v| <= fl(hz + g). */
int opob_footprint(const opob_obst *p, double x, double z);

/* RT-021: obstacle height test. 1 when ymin <= fy <= ymax:
**   cylinder [y, fl(y + h)]; box [bmin.y, bmax.y]; oriented box [fl(y - hy), fl(y + hy)]. */
int opob_height(const opob_obst *p, double fy);

/* The world floor height of row `row` of grid g: fl(origin.y + fl(row * ch)) (as SPAN-162). */
double opob_floor_y(const op_hf_grid *g, int32_t row);

/* RT-022: obstacle marking. On chf (whose grid cell size must equal p->cs; else nothing is
** done and 0 is returned), every span with a non-zero area whose column's cell centre
** (SPAN-161: fl(ox + fl(fl(gx + 0.5) * cs)), global gx = gx0 + x, likewise z) passes the
** footprint test and whose floor height passes the height test gets area 0. Every column
** of the grid, border included, is considered. Idempotent. Returns the number of spans
** changed (0 on a second application). */
size_t opob_mark(op_chf *chf, const opob_obst *p);

/* The list form: validates every obstacle first (prefix "obstacles[i].", SPAN-033 order,
** all before any marking; a failure changes nothing), then marks them in list order with
** R = radius_cells. *nmarked (may be NULL) receives the number of spans changed. */
op_status opob_chf_mark(op_chf *chf, const op_obstacle *o, uint32_t n,
                        int32_t radius_cells, size_t *nmarked, op_error *err);

/* The x/z bounding box of the shape's footprint grown by `grow` (>= 0, binary64), in the
** order written:
**   cylinder:     [fl(cx - fl(r + grow)), fl(cx + fl(r + grow))], same on z;
**   box:          [fl(bmin.x - grow), fl(bmax.x + grow)], same on z;
**   oriented box: ex = fl(fl(fl(hx + grow) * |c|) + fl(fl(hz + grow) * |s|)),
**                 ez = fl(fl(fl(hx + grow) * |s|) + fl(fl(hz + grow) * |c|)),
**                 [fl(cx - ex), fl(cx + ex)] x [fl(cz - ez), fl(cz + ez)].
** opob_prepare stores the box for grow = g in p->bmin, p->bmax. o must be valid. */
void opob_box(const op_obstacle *o, double grow, double bmin[2], double bmax[2]);

/* RT-050: which tiles rebuild. 1 when the tile whose bordered build grid is `grid` is queued by
** an operation on the prepared obstacle p: the grid widened by R + 1 cells, i.e. the
** closed box [X(gx0 - R - 1), X(gx0 + width + R + 1)] x [Z(gz0 - R - 1),
** Z(gz0 + depth + R + 1)] (cell lines of SPAN-100: fl(ox + fl(g * cs))), overlaps the
** closed x/z box p->bmin..p->bmax (touching counts): lo <= bmax and bmin <= hi on x
** and on z. Height is ignored. */
int opob_tile_queued(const opob_obst *p, const op_hf_grid *grid);

/* RT-050 for any closed x/z box (an obstacle's RT-025 box, a volume's RT-042 box): 1 when
** the grid widened by radius_cells + 1 cells touches [bmin, bmax]. */
int opob_grid_overlaps(const op_hf_grid *grid, int32_t radius_cells, const double bmin[2],
                       const double bmax[2]);

#endif
