/*
** offmesh_slots.c -- off-mesh link definitions given with a build (spec/build3d-polys.md
** POLY-241, POLY-244; spec/build2d-tiles.md T2D-091, T2D-093): the checks of a definition
** list and the slots (FMT-027) a built tile receives. Shared by the 3D pipeline
** (build3d/pipeline/offmesh_defs.c, which chooses the column and layer) and the 2D builder
** (build2d/tiles/build2d.c, which chooses the tile).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/internal.h"
#include "navmesh/offmesh_slots.h"

#define OM_COORD_MAX 2097152.0 /* 2^21 */

/* POLY-241 step 1: one coordinate. */
static op_status check_coord(double v, uint32_t i, const char *name, op_error *err) {
  if (isfinite(v) && v >= -OM_COORD_MAX && v <= OM_COORD_MAX) return OP_OK;
  char f[64];
  snprintf(f, sizeof f, "offmesh[%u].%s", i, name);
  return op_fail_d(err, OP_E_RANGE, f, v,
                   "an off-mesh link's points are finite and in [-2^21, 2^21]");
}

/* POLY-241 for definition i, in its order. */
static op_status check_one(const op_offmesh_link *l, uint32_t i, op_error *err) {
  static const char *const names[6] = {"start.x", "start.y", "start.z",
                                       "end.x",   "end.y",   "end.z"};
  for (int k = 0; k < 6; k++) {
    double v = k < 3 ? l->start[k] : l->end[k - 3];
    op_status st = check_coord(v, i, names[k], err);
    if (st != OP_OK) return st;
  }
  char f[64];
  if (!isfinite(l->radius) || l->radius < 0x1p-16 || l->radius > 0x1p16) {
    snprintf(f, sizeof f, "offmesh[%u].radius", i);
    return op_fail_d(err, OP_E_RANGE, f, l->radius,
                     "an off-mesh link's radius is in [2^-16, 2^16]");
  }
  if (l->area > 63) {
    snprintf(f, sizeof f, "offmesh[%u].area", i);
    return op_fail_i(err, OP_E_RANGE, f, l->area, "an area is in [0, 63]");
  }
  if (l->bidirectional > 1) {
    snprintf(f, sizeof f, "offmesh[%u].bidirectional", i);
    return op_fail_i(err, OP_E_RANGE, f, l->bidirectional, "bidirectional is 0 or 1");
  }
  return OP_OK;
}

op_status opt_om_check(const op_offmesh_link *defs, uint32_t n, op_error *err) {
  if (n > OP_OFFMESH_MAX_LINKS)
    return op_fail_i(err, OP_E_LIMIT, "offmesh", n,
                     "a build takes at most 65536 off-mesh link definitions");
  if (n && !defs)
    return op_fail(err, OP_E_ARGUMENT, "offmesh", "NULL",
                   "off-mesh link definitions are required when their count is not 0");
  for (uint32_t i = 0; i < n; i++) {
    op_status st = check_one(&defs[i], i, err);
    if (st != OP_OK) return st;
  }
  return OP_OK;
}

/* POLY-244: slot fields of definition l in the tile of view v. */
static void make_slot(const op_offmesh_link *l, const op_tile_desc *v, op_offmesh_desc *s) {
  double w = (double)v->tiling.tile_cells * v->tiling.cell_size; /* FMT-005 */
  double x0 = v->tiling.origin[0] + (double)v->x * w;
  double z0 = v->tiling.origin[2] + (double)v->z * w;
  float fw = (float)w; /* FMT-008 */
  s->start[0] = (float)(l->start[0] - x0);
  s->start[1] = (float)(l->start[1] - v->origin_y);
  s->start[2] = (float)(l->start[2] - z0);
  if (s->start[0] > fw) s->start[0] = fw;
  if (s->start[2] > fw) s->start[2] = fw;
  s->end[0] = (float)(l->end[0] - x0);
  s->end[1] = (float)(l->end[1] - v->origin_y);
  s->end[2] = (float)(l->end[2] - z0);
  s->radius = (float)l->radius;
  s->flags = l->flags;
  s->area = l->area;
  s->bidirectional = l->bidirectional;
  s->user_id = l->user_id;
}

op_status opt_om_remake(op_tile **t, const op_offmesh_link *defs, const uint32_t *idx,
                        uint32_t n, op_alloc_count *al, op_error *err) {
  op_tile_desc v;
  op_tile_view(*t, &v);
  op_offmesh_desc *s = opc_calloc(al, n, sizeof *s); /* CONF-059 */
  if (!s) return opc_nomem(err, "offmesh");
  double ylim = 16384.0 * v.tiling.cell_size; /* FMT-011 */
  for (uint32_t k = 0; k < n; k++) {
    const op_offmesh_link *l = &defs[idx[k]];
    make_slot(l, &v, &s[k]);
    double y = (double)s[k].start[1];
    if (y < -ylim || y > ylim) {
      char f[64];
      snprintf(f, sizeof f, "offmesh[%u].start.y", idx[k]);
      free(s);
      return op_fail_d(err, OP_E_RANGE, f, l->start[1],
                       "an off-mesh link starts more than 16384 cell sizes from its tile's "
                       "vertical origin (FMT-011)");
    }
  }
  v.noffmesh = n;
  v.offmesh = s;
  op_tile *nt = NULL;
  op_status st = op_tile_create(&v, &nt, err); /* POLY-217, FMT-050 */
  free(s);
  if (st != OP_OK) return st;
  op_tile_free(*t);
  *t = nt;
  return OP_OK;
}
