/*
** erode.c -- stage 3 of the 3D build: erosion of the walkable area by the agent radius
** (a two-pass chamfer distance over the span links) and the marking of area volumes
** (spec/build3d-spans.md section 6, SPAN-150 .. SPAN-163).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "build3d/spans/spans_internal.h"
#include "build3d/spans/volumes.h"

/* The arrays the erosion reads, copied out of the heightfield once: the distances are
** bytes, and a byte store may alias anything, so reading through chf would reload every
** field after each store. step[dir] is the column index of the neighbour in direction dir
** minus the column's. */
typedef struct erode_view {
  const op_chf_span *spans;
  const uint32_t *cell_index;
  const uint8_t *cell_count;
  int64_t step[4];
} erode_view;

/* The span linked from span i of column c in direction dir (link != 63). */
static uint32_t nei_of(const erode_view *e, int64_t c, uint32_t i, int dir) {
  return e->cell_index[c + e->step[dir]] + e->spans[i].link[dir];
}

/* SPAN-153: one pass step: through direction da to span a, and from a through db. */
static void relax(const erode_view *e, uint8_t *dist, int64_t c, uint32_t i, int da, int db) {
  if (e->spans[i].link[da] == OP_CHF_NOT_CONNECTED) return;
  uint32_t a = nei_of(e, c, i, da);
  int nd = dist[a] + 2;
  if (nd > 255) nd = 255;
  if (nd < dist[i]) dist[i] = (uint8_t)nd;
  if (e->spans[a].link[db] == OP_CHF_NOT_CONNECTED) return;
  uint32_t b = nei_of(e, c + e->step[da], a, db);
  nd = dist[b] + 3;
  if (nd > 255) nd = 255;
  if (nd < dist[i]) dist[i] = (uint8_t)nd;
}

/* SPAN-150 .. SPAN-155 */
op_status op_chf_erode(op_chf *chf, int32_t radius, op_error *err) {
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "null", "the heightfield is missing");
  if (radius < 0) return op_fail_i(err, OP_E_RANGE, "radius", radius, "must be >= 0");
  const int64_t ncol = (int64_t)chf->grid.width * chf->grid.depth;
  uint8_t *dist = malloc(chf->nspans ? chf->nspans : 1);
  if (!dist) return op_fail(err, OP_E_NOMEM, "chf", "", "out of memory for the distances");
  erode_view e;
  e.spans = chf->spans;
  e.cell_index = chf->cell_index;
  e.cell_count = chf->cell_count;
  for (int dir = 0; dir < 4; dir++)
    e.step[dir] = (int64_t)op_dir_dz[dir] * chf->grid.width + op_dir_dx[dir];
  const uint8_t *areas = chf->areas;
  /* SPAN-151: boundary spans start at 0, every other span at 255. */
  for (int64_t c = 0; c < ncol; c++)
    for (uint32_t i = e.cell_index[c], end = i + e.cell_count[c]; i < end; i++) {
      int nc = 0;
      if (areas[i] != OP_AREA_NULL)
        for (int dir = 0; dir < 4; dir++)
          if (e.spans[i].link[dir] != OP_CHF_NOT_CONNECTED &&
              areas[nei_of(&e, c, i, dir)] != OP_AREA_NULL)
            nc++;
      dist[i] = nc == 4 ? 255 : 0;
    }
  /* SPAN-152, SPAN-153: forward pass, rows then columns ascending (column index c =
  ** z * width + x ascending). */
  for (int64_t c = 0; c < ncol; c++)
    for (uint32_t i = e.cell_index[c], end = i + e.cell_count[c]; i < end; i++) {
      relax(&e, dist, c, i, 0, 3); /* (-1, 0), then (-1, -1) */
      relax(&e, dist, c, i, 3, 2); /* (0, -1), then (1, -1) */
    }
  /* SPAN-154: backward pass, rows then columns descending (c descending), spans
  ** ascending. */
  for (int64_t c = ncol - 1; c >= 0; c--)
    for (uint32_t i = e.cell_index[c], end = i + e.cell_count[c]; i < end; i++) {
      relax(&e, dist, c, i, 2, 1); /* (1, 0), then (1, 1) */
      relax(&e, dist, c, i, 1, 0); /* (0, 1), then (-1, 1) */
    }
  /* SPAN-155 */
  int thr = radius > 127 ? 255 : 2 * radius;
  for (uint32_t i = 0; i < chf->nspans; i++)
    if (dist[i] < thr) chf->areas[i] = OP_AREA_NULL;
  free(dist);
  return OP_OK;
}

static int finite_in(double v, double lim) { return v >= -lim && v <= lim; }

/* SPAN-031: one volume's checks, the fields named prefix + SPAN-031's names (RT-040:
** "volume." at run time). */
op_status op_volume_validate(const op_convex_volume *v, const char *prefix, op_error *err) {
  char field[96];
  const char *pf = prefix ? prefix : "";
  if (!v) return op_fail(err, OP_E_ARGUMENT, "volume", "null", "the volume is missing");
  if (v->npoints < 3 || v->npoints > OP_VOLUME_MAX_POINTS) {
    snprintf(field, sizeof field, "%snpoints", pf);
    return op_fail_i(err, OP_E_RANGE, field, v->npoints, "must be in [3, 12]");
  }
  for (uint32_t j = 0; j < v->npoints; j++)
    for (int c = 0; c < 2; c++)
      if (!finite_in(v->points[j][c], 2097152.0)) {
        snprintf(field, sizeof field, "%spoints[%u].%c", pf, j, c ? 'z' : 'x');
        return op_fail_d(err, OP_E_RANGE, field, v->points[j][c],
                         "must be finite and within +-2^21");
      }
  if (!finite_in(v->ymin, 2097152.0)) {
    snprintf(field, sizeof field, "%symin", pf);
    return op_fail_d(err, OP_E_RANGE, field, v->ymin, "must be finite and within +-2^21");
  }
  if (!finite_in(v->ymax, 2097152.0) || v->ymax < v->ymin) {
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
  return op_volume_validate(v, pf, err);
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

/* The first and last column (axis 0) or row (axis 2) whose centre may lie in
** [lo, hi]; the crossing rule decides (this only saves time: one spare cell on each
** side is far more than the rounding of SPAN-161 can move a crossing). */
static int centre_range(const op_hf_grid *g, int axis, double lo, double hi, int32_t *a,
                        int32_t *b) {
  int32_t cnt = axis == 0 ? g->width : g->depth;
  double o = axis == 0 ? g->origin[0] : g->origin[2];
  double g0 = (double)(axis == 0 ? g->gx0 : g->gz0);
  double e0 = (lo - o) / g->cs - g0 - 2, e1 = (hi - o) / g->cs - g0 + 2;
  if (e1 < 0 || e0 > (double)(cnt - 1)) return 0;
  *a = e0 < 0 ? 0 : (int32_t)e0;
  *b = e1 > (double)(cnt - 1) ? cnt - 1 : (int32_t)e1;
  return *a <= *b;
}

/* RT-042: the volume's x/z box, exact minima and maxima over its points. */
void op_volume_box(const op_convex_volume *v, double bmin[2], double bmax[2]) {
  bmin[0] = bmax[0] = v->points[0][0];
  bmin[1] = bmax[1] = v->points[0][1];
  for (uint32_t j = 1; j < v->npoints; j++)
    for (int c = 0; c < 2; c++) {
      if (v->points[j][c] < bmin[c]) bmin[c] = v->points[j][c];
      if (v->points[j][c] > bmax[c]) bmax[c] = v->points[j][c];
    }
}

/* SPAN-161 .. SPAN-163 for one volume; the number of spans it selects. */
size_t op_volume_mark(op_chf *chf, const op_convex_volume *vol) {
  const op_hf_grid *g = &chf->grid;
  double bmin[2], bmax[2];
  op_volume_box(vol, bmin, bmax);
  int32_t x0, x1, z0, z1;
  if (!centre_range(g, 0, bmin[0], bmax[0], &x0, &x1) ||
      !centre_range(g, 2, bmin[1], bmax[1], &z0, &z1))
    return 0;
  size_t n = 0;
  for (int32_t z = z0; z <= z1; z++) {
    double pz = op_grid_centre_z(g, z);
    for (int32_t x = x0; x <= x1; x++) {
      size_t c = (size_t)z * (size_t)g->width + (size_t)x;
      if (chf->cell_count[c] == 0) continue;
      if (!point_in(vol, op_grid_centre_x(g, x), pz)) continue;
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
  for (uint32_t k = 0; k < n; k++) op_volume_mark(chf, &v[k]); /* SPAN-162: list order */
  return OP_OK;
}
