/*
** volumes.c -- stage 3 of the 3D build, part 2: area volumes (spec/build3d-spans.md
** section 6, SPAN-031 checks, SPAN-160 .. SPAN-163) one at a time and as a list; the
** one-volume form serves the run-time cache (spec/build3d-runtime.md RT-040 .. RT-043).
** Declarations: volumes.h (internal) and op_chf_mark_volumes in onepath_build3d.h.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "build3d/spans/spans_internal.h"
#include "build3d/spans/volumes.h"

/* SPAN-031: one volume's checks, the fields named prefix + SPAN-031's names (RT-040:
** "volume." at run time). */
op_status opv_validate(const op_convex_volume *v, const char *prefix, op_error *err) {
  char field[96];
  const char *pf = prefix ? prefix : "";
  if (!v) return op_fail(err, OP_E_ARGUMENT, "volume", "null", "the volume is missing");
  if (v->npoints < 3 || v->npoints > OP_VOLUME_MAX_POINTS) {
    snprintf(field, sizeof field, "%snpoints", pf);
    return op_fail_i(err, OP_E_RANGE, field, v->npoints, "must be in [3, 12]");
  }
  for (uint32_t j = 0; j < v->npoints; j++)
    for (int c = 0; c < 2; c++)
      if (!opsp_within(v->points[j][c], -OP_COORD_LIMIT, OP_COORD_LIMIT)) {
        snprintf(field, sizeof field, "%spoints[%u].%c", pf, j, c ? 'z' : 'x');
        return op_fail_d(err, OP_E_RANGE, field, v->points[j][c],
                         "must be finite and within +-2^21");
      }
  if (!opsp_within(v->ymin, -OP_COORD_LIMIT, OP_COORD_LIMIT)) {
    snprintf(field, sizeof field, "%symin", pf);
    return op_fail_d(err, OP_E_RANGE, field, v->ymin, "must be finite and within +-2^21");
  }
  if (!opsp_within(v->ymax, -OP_COORD_LIMIT, OP_COORD_LIMIT) || v->ymax < v->ymin) {
    snprintf(field, sizeof field, "%symax", pf);
    return op_fail_d(err, OP_E_RANGE, field, v->ymax,
                     "must be finite, within +-2^21 and >= ymin");
  }
  if (v->area > 63) {
    snprintf(field, sizeof field, "%sarea", pf);
    return op_fail_i(err, OP_E_RANGE, field, v->area, "must be in [0, 63]");
  }
  return OP_OK;
}

/* SPAN-160: volume k of a list. */
static op_status check_volume(const op_convex_volume *v, uint32_t k, op_error *err) {
  char pf[48];
  snprintf(pf, sizeof pf, "volumes[%u].", k);
  return opv_validate(v, pf, err);
}

/* SPAN-161: the crossing rule for point (px, pz), binary64 in the stated order. */
static int point_in(const op_convex_volume *v, double px, double pz) {
  int in = 0;
  for (uint32_t i = 0, j = v->npoints - 1; i < v->npoints; j = i++) {
    double xi = v->points[i][0], zi = v->points[i][1];
    double xj = v->points[j][0], zj = v->points[j][1];
    if ((zi > pz) != (zj > pz)) {
      double t = (xj - xi) * (pz - zi) / (zj - zi) + xi;
      if (px < t) in = !in;
    }
  }
  return in;
}

/* RT-042: the volume's x/z box, exact minima and maxima over its points. */
void opv_box(const op_convex_volume *v, double bmin[2], double bmax[2]) {
  bmin[0] = bmax[0] = v->points[0][0];
  bmin[1] = bmax[1] = v->points[0][1];
  for (uint32_t j = 1; j < v->npoints; j++)
    for (int c = 0; c < 2; c++) {
      if (v->points[j][c] < bmin[c]) bmin[c] = v->points[j][c];
      if (v->points[j][c] > bmax[c]) bmax[c] = v->points[j][c];
    }
}

/* SPAN-161 .. SPAN-163 for one volume; the number of spans it selects. */
size_t opv_mark(op_chf *chf, const op_convex_volume *vol) {
  const op_hf_grid *g = &chf->grid;
  double bmin[2], bmax[2];
  opv_box(vol, bmin, bmax);
  int32_t x0, x1, z0, z1;
  if (!opsp_centre_range(g, 0, bmin[0], bmax[0], &x0, &x1) ||
      !opsp_centre_range(g, 2, bmin[1], bmax[1], &z0, &z1))
    return 0;
  size_t n = 0;
  for (int32_t z = z0; z <= z1; z++) {
    double pz = opsp_grid_centre_z(g, z);
    for (int32_t x = x0; x <= x1; x++) {
      size_t c = (size_t)z * (size_t)g->width + (size_t)x;
      if (chf->cell_count[c] == 0) continue;
      if (!point_in(vol, opsp_grid_centre_x(g, x), pz)) continue;
      for (uint32_t i = chf->cell_index[c]; i < chf->cell_index[c] + chf->cell_count[c]; i++) {
        if (chf->areas[i] == OP_AREA_NULL) continue; /* SPAN-163 */
        double fy = g->origin[1] + (double)chf->spans[i].y * g->ch;
        if (fy >= vol->ymin && fy <= vol->ymax) {
          chf->areas[i] = vol->area;
          n++;
        }
      }
    }
  }
  return n;
}

/* SPAN-160 .. SPAN-163 */
op_status op_chf_mark_volumes(op_chf *chf, const op_convex_volume *v, uint32_t n,
                              op_error *err) {
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "null", "the heightfield is missing");
  if (n && !v) return op_fail(err, OP_E_ARGUMENT, "volumes", "null", "the volumes are missing");
  for (uint32_t k = 0; k < n; k++) {
    op_status st = check_volume(&v[k], k, err);
    if (st != OP_OK) return st;
  }
  for (uint32_t k = 0; k < n; k++) opv_mark(chf, &v[k]); /* SPAN-162: list order */
  return OP_OK;
}
