/*
** settings.c -- NavSettings: whole cells (SPAN-020), validation (SPAN-030 .. SPAN-033),
** derived cell values (SPAN-021 .. SPAN-025) and presets (SPAN-040). Implements
** spec/build3d-spans.md section 1; the volume and obstacle checks are shared with the
** run-time cache (volumes.c opv_validate, obstacles.c opob_validate). The builder's
** inputs (section 2) are ref/build3d/spans/inputs.c. Also the work budget of a build
** (section 11, SPAN-200 .. SPAN-204).
*/
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onepath_build3d.h"
#include "core/internal.h"
#include "math/opmath.h"
#include "build3d/spans/obstacles.h"
#include "build3d/spans/spans_internal.h"
#include "build3d/spans/volumes.h"

/* ------------------------------------------------------------ whole cells */

/* SPAN-020: both rules work on q = fl(a / b) and n = RoundHalfEven(q). */
int64_t op_cells_ceil(double a, double b) {
  double q = a / b;
  double n = op_rint_even(q);
  return (int64_t)n + (n < q ? 1 : 0);
}

int64_t op_cells_floor(double a, double b) {
  double q = a / b;
  double n = op_rint_even(q);
  return (int64_t)n - (n > q ? 1 : 0);
}

/* ------------------------------------------------------------ validation */

/* SPAN-030 rows 3, 4, 5 and 12: a field that is valid on its own but too many cells of the
** cell size (or height) it is measured in. The error names the row's field with its value
** (SPAN-030); the message names the limit that was passed and the other field, so a caller
** who changed the cell size sees why another setting is blamed. */
static op_status cells_fail(op_error *err, const char *field, double v, const char *per,
                            double unit, const char *limit) {
  char a[40], b[40], q[40], why[200];
  op_format_double(a, sizeof a, v);
  op_format_double(b, sizeof b, unit);
  snprintf(q, sizeof q, "%.6g", v / unit);
  if (snprintf(why, sizeof why, "%s %s is %s cells of %s %s; the limit is %s: raise %s or "
               "lower %s", field, a, q, per, b, limit, per, field) >= (int)sizeof why)
    why[sizeof why - 1] = '\0';
  return op_fail(err, OP_E_RANGE, field, a, "%s", why);
}

/* SPAN-030: the fields in table order; the first failure is reported. */
op_status op_settings_validate(const op_settings *s, op_error *err) {
  const double m16 = 0x1p-16, p16 = 0x1p16;
  if (!opsp_within(s->cell_size, m16, p16))
    return op_fail_d(err, OP_E_RANGE, "cell_size", s->cell_size, "cell_size must be finite and in [2^-16, 2^16]");
  if (!opsp_within(s->cell_height, m16, p16))
    return op_fail_d(err, OP_E_RANGE, "cell_height", s->cell_height,
                 "cell_height must be finite and in [2^-16, 2^16]");
  if (!isfinite(s->agent_radius) || !(s->agent_radius >= 0))
    return op_fail_d(err, OP_E_RANGE, "agent_radius", s->agent_radius,
                 "agent_radius must be finite, >= 0 and at most 255 cells");
  if (!(s->agent_radius / s->cell_size <= 255))
    return cells_fail(err, "agent_radius", s->agent_radius, "cell_size", s->cell_size,
                      "255 cells");
  if (!isfinite(s->agent_height) || !(s->agent_height > 0))
    return op_fail_d(err, OP_E_RANGE, "agent_height", s->agent_height,
                 "agent_height must be finite, > 0 and at most 255 cell heights");
  if (!(s->agent_height / s->cell_height <= 255))
    return cells_fail(err, "agent_height", s->agent_height, "cell_height", s->cell_height,
                      "255 cells");
  if (!isfinite(s->agent_climb) || !(s->agent_climb >= 0))
    return op_fail_d(err, OP_E_RANGE, "agent_climb", s->agent_climb,
                 "agent_climb must be finite, >= 0 and below 256 cell heights");
  if (!(s->agent_climb / s->cell_height < 256))
    return cells_fail(err, "agent_climb", s->agent_climb, "cell_height", s->cell_height,
                      "below 256 cells");
  if (!opsp_within(s->max_slope, 0, 90))
    return op_fail_d(err, OP_E_RANGE, "max_slope", s->max_slope, "max_slope must be in [0, 90] degrees");
  if (s->tile_cells < 1 || s->tile_cells > 8192)
    return op_fail_i(err, OP_E_RANGE, "tile_cells", s->tile_cells, "tile_cells must be in 1..8192");
  if ((unsigned)s->partition > OP_PARTITION_LAYERS)
    return op_fail_i(err, OP_E_ARGUMENT, "partition", (long long)s->partition,
                     "partition must be watershed, monotone or layers");
  if (s->min_region_area > (1u << 24))
    return op_fail_i(err, OP_E_RANGE, "min_region_area", s->min_region_area,
                     "min_region_area must be at most 2^24");
  if (s->merge_region_area > (1u << 24))
    return op_fail_i(err, OP_E_RANGE, "merge_region_area", s->merge_region_area,
                     "merge_region_area must be at most 2^24");
  if (!opsp_within(s->max_simplification_error, 0, 1024))
    return op_fail_d(err, OP_E_RANGE, "max_simplification_error", s->max_simplification_error,
                 "max_simplification_error must be in [0, 1024] cells");
  if (!isfinite(s->max_edge_len) || !(s->max_edge_len >= 0))
    return op_fail_d(err, OP_E_RANGE, "max_edge_len", s->max_edge_len,
                 "max_edge_len must be finite, >= 0 and below 65536 cells");
  if (!(s->max_edge_len / s->cell_size < 65536))
    return cells_fail(err, "max_edge_len", s->max_edge_len, "cell_size", s->cell_size,
                      "below 65536 cells");
  if (s->max_verts_per_poly < 3 || s->max_verts_per_poly > OP_MAX_VERTS_PER_POLY)
    return op_fail_i(err, OP_E_RANGE, "max_verts_per_poly", s->max_verts_per_poly,
                     "max_verts_per_poly must be in 3..12");
  if (!opsp_within(s->detail_sample_distance, 0, 65536))
    return op_fail_d(err, OP_E_RANGE, "detail_sample_distance", s->detail_sample_distance,
                 "detail_sample_distance must be in [0, 65536] cells");
  if (!opsp_within(s->detail_sample_max_error, 0, 65536))
    return op_fail_d(err, OP_E_RANGE, "detail_sample_max_error", s->detail_sample_max_error,
                 "detail_sample_max_error must be in [0, 65536] cell heights");
  if (s->nvolumes > 65536)
    return op_fail_i(err, OP_E_LIMIT, "volumes", s->nvolumes, "at most 65536 volumes");
  if (s->nvolumes && !s->volumes)
    return op_fail_i(err, OP_E_ARGUMENT, "volumes", s->nvolumes, "volumes missing");
  char pf[48];
  for (uint32_t i = 0; i < s->nvolumes; i++) { /* SPAN-031 */
    snprintf(pf, sizeof pf, "volumes[%u].", i);
    op_status st = opv_validate(&s->volumes[i], pf, err);
    if (st != OP_OK) return st;
  }
  if (s->nobstacles > 65536)
    return op_fail_i(err, OP_E_LIMIT, "obstacles", s->nobstacles, "at most 65536 obstacles");
  if (s->nobstacles && !s->obstacles)
    return op_fail_i(err, OP_E_ARGUMENT, "obstacles", s->nobstacles, "obstacles missing");
  for (uint32_t i = 0; i < s->nobstacles; i++) { /* SPAN-033 */
    snprintf(pf, sizeof pf, "obstacles[%u].", i);
    op_status st = opob_validate(&s->obstacles[i], pf, err);
    if (st != OP_OK) return st;
  }
  return OP_OK;
}

/* SPAN-021 .. SPAN-025 */
op_status op_settings_derive(const op_settings *s, op_cell_settings *out, op_error *err) {
  op_status st = op_settings_validate(s, err); /* SPAN-032 */
  if (st != OP_OK) return st;
  op_cell_settings d;
  memset(&d, 0, sizeof d);
  d.walkable_radius = (int32_t)op_cells_ceil(s->agent_radius, s->cell_size);   /* SPAN-021 */
  d.walkable_height = (int32_t)op_cells_ceil(s->agent_height, s->cell_height); /* SPAN-021 */
  d.walkable_climb = (int32_t)op_cells_floor(s->agent_climb, s->cell_height);  /* SPAN-021 */
  d.border = d.walkable_radius + 3;                                            /* SPAN-022 */
  d.grid_cells = (int32_t)s->tile_cells + 2 * d.border;                        /* SPAN-022 */
  d.max_edge_len = (int32_t)op_cells_floor(s->max_edge_len, s->cell_size);     /* SPAN-023 */
  const double deg = 0x1.1df46a2529d39p-6;                                     /* SPAN-024 */
  double sn, cs;
  st = op_sincos(s->max_slope * deg, &sn, &cs, err);
  if (st != OP_OK) return st; /* cannot happen: |slope| <= 90 */
  d.slope_cos = cs;
  d.detail_sample_dist = s->detail_sample_distance <= 0.9 /* SPAN-025 */
                             ? 0.0
                             : s->cell_size * s->detail_sample_distance;
  d.detail_sample_max_error = s->cell_height * s->detail_sample_max_error;
  *out = d;
  return OP_OK;
}

/* ------------------------------------------------------------ presets */

/* SPAN-040 */
op_status op_settings_preset(const char *name, op_settings *out, op_error *err) {
  op_settings s;
  memset(&s, 0, sizeof s);
  if (name && strcmp(name, "Humanoid") == 0) {
    s.cell_size = 0.3; s.cell_height = 0.1; s.agent_radius = 0.6; s.agent_height = 2;
    s.agent_climb = 0.9; s.max_slope = 45; s.tile_cells = 64; s.max_edge_len = 12;
  } else if (name && strcmp(name, "Small") == 0) {
    s.cell_size = 0.15; s.cell_height = 0.05; s.agent_radius = 0.3; s.agent_height = 1;
    s.agent_climb = 0.4; s.max_slope = 45; s.tile_cells = 32; s.max_edge_len = 6;
  } else if (name && strcmp(name, "Large") == 0) {
    s.cell_size = 0.5; s.cell_height = 0.3; s.agent_radius = 1.5; s.agent_height = 4;
    s.agent_climb = 1.2; s.max_slope = 40; s.tile_cells = 128; s.max_edge_len = 20;
  } else {
    return op_fail(err, OP_E_ARGUMENT, "name", name ? name : "",
                   "preset name must be Humanoid, Small or Large");
  }
  s.max_verts_per_poly = 6;
  s.partition = OP_PARTITION_WATERSHED;
  s.min_region_area = 64;
  s.merge_region_area = 400;
  s.max_simplification_error = 1.3;
  s.detail_sample_distance = 6;
  s.detail_sample_max_error = 1;
  s.nvolumes = 0;
  s.volumes = NULL;
  s.nobstacles = 0;
  s.obstacles = NULL;
  *out = s;
  return OP_OK;
}

/* ------------------------------------------------------------ work budget */

void op_build_limits_default(op_build_limits *out) { /* SPAN-201 */
  out->max_tile_grid_cells = OP_BUDGET_TILE_GRID_CELLS;
  out->max_tiles = OP_BUDGET_TILES;
  out->max_build_cells = OP_BUDGET_BUILD_CELLS;
}

static uint64_t sat_mul(uint64_t a, uint64_t b) {
  return (a != 0 && b > UINT64_MAX / a) ? UINT64_MAX : a * b;
}

static op_status over(op_error *err, const char *field, uint64_t value, uint64_t limit,
                      const char *what) {
  char m[200];
  snprintf(m, sizeof m, "%s: %llu, more than the budget %llu (SPAN-203); raise %s or use "
           "fewer, smaller tiles", what, (unsigned long long)value, (unsigned long long)limit,
           field);
  long long v = value > (uint64_t)INT64_MAX ? INT64_MAX : (long long)value;
  return op_fail_i(err, OP_E_LIMIT, field, v, m);
}

op_status op_build_budget_check(const op_cell_settings *c, uint64_t ntiles,
                                const op_build_limits *lim, op_error *err) {
  if (!c) return op_fail(err, OP_E_ARGUMENT, "cell", "NULL", "derived cell values are required");
  op_build_limits L;
  op_build_limits_default(&L);
  if (lim) { /* SPAN-201: 0 keeps the default */
    if (lim->max_tile_grid_cells) L.max_tile_grid_cells = lim->max_tile_grid_cells;
    if (lim->max_tiles) L.max_tiles = lim->max_tiles;
    if (lim->max_build_cells) L.max_build_cells = lim->max_build_cells;
  }
  assert(c->grid_cells > 0);
  uint64_t g = (uint64_t)c->grid_cells;
  uint64_t tile = g * g; /* SPAN-202: a tile's bordered grid, GridCells^2 */
  uint64_t build = sat_mul(ntiles, tile); /* SPAN-202: every tile of the grid */
  if (tile > L.max_tile_grid_cells) /* SPAN-203, in this order */
    return over(err, "limits.max_tile_grid_cells", tile, L.max_tile_grid_cells,
                "cells of one tile's bordered grid");
  if (ntiles > L.max_tiles)
    return over(err, "limits.max_tiles", ntiles, L.max_tiles, "tiles of the build's grid");
  if (build > L.max_build_cells)
    return over(err, "limits.max_build_cells", build, L.max_build_cells,
                "cells of every tile's grid");
  return OP_OK;
}
