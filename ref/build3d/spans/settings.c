/*
** settings.c -- NavSettings (validation, derived cell values, presets) and the 3D
** builder's inputs: triangle soup, chunked triangle mesh, heightfield of solid columns.
** Implements spec/build3d-spans.md sections 1 and 2 (SPAN-001 .. SPAN-073); the OBJ
** reader is ref/build3d/spans/obj.c, the level generators ref/levels/levels.c.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onepath_build3d.h"
#include "core/internal.h"
#include "math/opmath.h"

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

static int finite_in(double v, double lo, double hi) { return isfinite(v) && v >= lo && v <= hi; }

static op_status bad_d(op_error *err, const char *field, double v, const char *why) {
  return op_fail_d(err, OP_E_RANGE, field, v, why);
}

/* SPAN-031 */
static op_status check_volume(const op_convex_volume *v, uint32_t i, op_error *err) {
  char f[96];
  if (v->npoints < 3 || v->npoints > OP_VOLUME_MAX_POINTS) {
    snprintf(f, sizeof f, "volumes[%u].npoints", i);
    return op_fail_i(err, OP_E_RANGE, f, v->npoints, "a volume has 3 to 12 points");
  }
  for (uint32_t j = 0; j < v->npoints; j++)
    for (int k = 0; k < 2; k++)
      if (!finite_in(v->points[j][k], -OP_COORD_LIMIT, OP_COORD_LIMIT)) {
        snprintf(f, sizeof f, "volumes[%u].points[%u].%c", i, j, k ? 'z' : 'x');
        return bad_d(err, f, v->points[j][k], "a coordinate must be finite and within +-2^21");
      }
  if (!finite_in(v->ymin, -OP_COORD_LIMIT, OP_COORD_LIMIT)) {
    snprintf(f, sizeof f, "volumes[%u].ymin", i);
    return bad_d(err, f, v->ymin, "ymin must be finite and within +-2^21");
  }
  snprintf(f, sizeof f, "volumes[%u].ymax", i);
  if (!finite_in(v->ymax, -OP_COORD_LIMIT, OP_COORD_LIMIT))
    return bad_d(err, f, v->ymax, "ymax must be finite and within +-2^21");
  if (!(v->ymin <= v->ymax)) return bad_d(err, f, v->ymax, "ymax must not be below ymin");
  if (v->area > 63) {
    snprintf(f, sizeof f, "volumes[%u].area", i);
    return op_fail_i(err, OP_E_RANGE, f, v->area, "an area id is 0..63");
  }
  return OP_OK;
}

static int in_range(double v) { return finite_in(v, -OP_COORD_LIMIT, OP_COORD_LIMIT); }

static op_status obst_bad(op_error *err, uint32_t i, const char *name, double v,
                          const char *why) {
  char f[96];
  snprintf(f, sizeof f, "obstacles[%u].%s", i, name);
  return bad_d(err, f, v, why);
}

static const char *const xyz_names[3][3] = {
    {"center.x", "center.y", "center.z"}, {"bmin.x", "bmin.y", "bmin.z"},
    {"bmax.x", "bmax.y", "bmax.z"}};

/* SPAN-033 */
static op_status check_obstacle(const op_obstacle *o, uint32_t i, op_error *err) {
  const char *why = "must be finite and within +-2^21";
  if ((unsigned)o->shape > OP_OBSTACLE_ORIENTED_BOX) {
    char f[64];
    snprintf(f, sizeof f, "obstacles[%u].shape", i);
    return op_fail_i(err, OP_E_ARGUMENT, f, (long long)o->shape,
                     "shape must be cylinder, box or oriented_box");
  }
  if (o->shape == OP_OBSTACLE_BOX) {
    for (int k = 0; k < 3; k++)
      if (!in_range(o->bmin[k])) return obst_bad(err, i, xyz_names[1][k], o->bmin[k], why);
    for (int k = 0; k < 3; k++)
      if (!in_range(o->bmax[k])) return obst_bad(err, i, xyz_names[2][k], o->bmax[k], why);
    for (int k = 0; k < 3; k++)
      if (!(o->bmin[k] <= o->bmax[k]))
        return obst_bad(err, i, xyz_names[2][k], o->bmax[k], "bmax must not be below bmin");
    return OP_OK;
  }
  const double *c = o->center;
  for (int k = 0; k < 3; k++)
    if (!in_range(c[k])) return obst_bad(err, i, xyz_names[0][k], c[k], why);
  if (o->shape == OP_OBSTACLE_CYLINDER) {
    double r = o->radius, h = o->height;
    if (!isfinite(r) || !(r > 0) || !in_range(c[0] - r) || !in_range(c[0] + r) ||
        !in_range(c[2] - r) || !in_range(c[2] + r))
      return obst_bad(err, i, "radius", r, "radius must be > 0 and keep the cylinder within +-2^21");
    if (!isfinite(h) || !(h >= 0) || !in_range(c[1] + h))
      return obst_bad(err, i, "height", h, "height must be >= 0 and keep the top within +-2^21");
    return OP_OK;
  }
  const double *hs = o->half;
  if (!isfinite(hs[0]) || !(hs[0] > 0))
    return obst_bad(err, i, "half.x", hs[0], "half.x must be finite and > 0");
  if (!isfinite(hs[1]) || !(hs[1] >= 0))
    return obst_bad(err, i, "half.y", hs[1], "half.y must be finite and >= 0");
  if (!isfinite(hs[2]) || !(hs[2] > 0))
    return obst_bad(err, i, "half.z", hs[2], "half.z must be finite and > 0");
  if (!finite_in(o->yaw, -OP_COORD_LIMIT, OP_COORD_LIMIT))
    return obst_bad(err, i, "yaw", o->yaw, "yaw must be finite and within +-2^21");
  double sn, cs;
  op_sincos(o->yaw, &sn, &cs, NULL);
  double as = sn < 0 ? -sn : sn, ac = cs < 0 ? -cs : cs;
  double ex = hs[0] * ac + hs[2] * as, ez = hs[0] * as + hs[2] * ac;
  if (!in_range(c[0] - ex) || !in_range(c[0] + ex))
    return obst_bad(err, i, "half.x", hs[0], "the box leaves +-2^21 on x");
  if (!in_range(c[2] - ez) || !in_range(c[2] + ez))
    return obst_bad(err, i, "half.z", hs[2], "the box leaves +-2^21 on z");
  if (!in_range(c[1] - hs[1]) || !in_range(c[1] + hs[1]))
    return obst_bad(err, i, "half.y", hs[1], "the box leaves +-2^21 on y");
  return OP_OK;
}

/* SPAN-030: the fields in table order; the first failure is reported. */
op_status op_settings_validate(const op_settings *s, op_error *err) {
  const double m16 = 0x1p-16, p16 = 0x1p16;
  if (!finite_in(s->cell_size, m16, p16))
    return bad_d(err, "cell_size", s->cell_size, "cell_size must be finite and in [2^-16, 2^16]");
  if (!finite_in(s->cell_height, m16, p16))
    return bad_d(err, "cell_height", s->cell_height,
                 "cell_height must be finite and in [2^-16, 2^16]");
  if (!isfinite(s->agent_radius) || !(s->agent_radius >= 0) ||
      !(s->agent_radius / s->cell_size <= 255))
    return bad_d(err, "agent_radius", s->agent_radius,
                 "agent_radius must be finite, >= 0 and at most 255 cells");
  if (!isfinite(s->agent_height) || !(s->agent_height > 0) ||
      !(s->agent_height / s->cell_height <= 255))
    return bad_d(err, "agent_height", s->agent_height,
                 "agent_height must be finite, > 0 and at most 255 cell heights");
  if (!isfinite(s->agent_climb) || !(s->agent_climb >= 0) ||
      !(s->agent_climb / s->cell_height < 256))
    return bad_d(err, "agent_climb", s->agent_climb,
                 "agent_climb must be finite, >= 0 and below 256 cell heights");
  if (!finite_in(s->max_slope, 0, 90))
    return bad_d(err, "max_slope", s->max_slope, "max_slope must be in [0, 90] degrees");
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
  if (!finite_in(s->max_simplification_error, 0, 1024))
    return bad_d(err, "max_simplification_error", s->max_simplification_error,
                 "max_simplification_error must be in [0, 1024] cells");
  if (!isfinite(s->max_edge_len) || !(s->max_edge_len >= 0) ||
      !(s->max_edge_len / s->cell_size < 65536))
    return bad_d(err, "max_edge_len", s->max_edge_len,
                 "max_edge_len must be finite, >= 0 and below 65536 cells");
  if (s->max_verts_per_poly < 3 || s->max_verts_per_poly > OP_MAX_VERTS_PER_POLY)
    return op_fail_i(err, OP_E_RANGE, "max_verts_per_poly", s->max_verts_per_poly,
                     "max_verts_per_poly must be in 3..12");
  if (!finite_in(s->detail_sample_distance, 0, 65536))
    return bad_d(err, "detail_sample_distance", s->detail_sample_distance,
                 "detail_sample_distance must be in [0, 65536] cells");
  if (!finite_in(s->detail_sample_max_error, 0, 65536))
    return bad_d(err, "detail_sample_max_error", s->detail_sample_max_error,
                 "detail_sample_max_error must be in [0, 65536] cell heights");
  if (s->nvolumes > 65536)
    return op_fail_i(err, OP_E_LIMIT, "volumes", s->nvolumes, "at most 65536 volumes");
  if (s->nvolumes && !s->volumes)
    return op_fail_i(err, OP_E_ARGUMENT, "volumes", s->nvolumes, "volumes missing");
  for (uint32_t i = 0; i < s->nvolumes; i++) {
    op_status st = check_volume(&s->volumes[i], i, err);
    if (st != OP_OK) return st;
  }
  if (s->nobstacles > 65536)
    return op_fail_i(err, OP_E_LIMIT, "obstacles", s->nobstacles, "at most 65536 obstacles");
  if (s->nobstacles && !s->obstacles)
    return op_fail_i(err, OP_E_ARGUMENT, "obstacles", s->nobstacles, "obstacles missing");
  for (uint32_t i = 0; i < s->nobstacles; i++) {
    op_status st = check_obstacle(&s->obstacles[i], i, err);
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

/* ------------------------------------------------------------ soup */

/* SPAN-051, SPAN-052 */
op_status op_soup_validate(const op_soup *s, op_error *err) {
  if (s->nverts > OP_SOUP_MAX_VERTS)
    return op_fail_i(err, OP_E_LIMIT, "verts", s->nverts, "at most 2^24 vertices");
  if (s->ntris > OP_SOUP_MAX_TRIS)
    return op_fail_i(err, OP_E_LIMIT, "tris", s->ntris, "at most 2^24 triangles");
  if ((s->nverts && !s->verts) || (s->ntris && !s->tris))
    return op_fail(err, OP_E_ARGUMENT, s->nverts && !s->verts ? "verts" : "tris", "",
                   "array missing");
  static const char axis[3] = {'x', 'y', 'z'};
  for (uint32_t i = 0; i < s->nverts; i++)
    for (int k = 0; k < 3; k++) {
      double v = s->verts[3 * (size_t)i + (size_t)k];
      if (!finite_in(v, -OP_COORD_LIMIT, OP_COORD_LIMIT)) {
        char f[48];
        snprintf(f, sizeof f, "verts[%u].%c", i, axis[k]);
        return bad_d(err, f, v, "a coordinate must be finite and within +-2^21");
      }
    }
  for (uint32_t t = 0; t < s->ntris; t++)
    for (int k = 0; k < 3; k++) {
      uint32_t v = s->tris[3 * (size_t)t + (size_t)k];
      if (v >= s->nverts) {
        char f[48];
        snprintf(f, sizeof f, "tris[%u][%d]", t, k);
        return op_fail_i(err, OP_E_RANGE, f, v, "a vertex index must be less than nverts");
      }
    }
  return OP_OK;
}

void op_trimesh_free(op_trimesh *m) {
  if (!m) return;
  free(m->verts);
  free(m->tris);
  memset(m, 0, sizeof *m);
}

op_soup op_trimesh_soup(const op_trimesh *m) {
  op_soup s;
  s.nverts = m->nverts;
  s.verts = m->verts;
  s.ntris = m->ntris;
  s.tris = m->tris;
  return s;
}

/* ------------------------------------------------------------ chunked mesh */

typedef struct chunk {
  int64_t kx, kz;
  double bmin[2], bmax[2];
  uint32_t first, count; /* range in op_chunked.order */
} chunk;

struct op_chunked {
  double *verts;
  uint32_t *tris;
  uint32_t nverts, ntris;
  double size;
  uint32_t nchunks;
  chunk *chunks;
  uint32_t *order; /* triangles grouped by chunk, ascending within each */
};

typedef struct keyed {
  int64_t kx, kz;
  uint32_t tri;
} keyed;

/* SPAN-062: by kz, then kx, then triangle index (ascending within a chunk). */
static int keyed_cmp(const void *pa, const void *pb) {
  const keyed *a = pa, *b = pb;
  if (a->kz != b->kz) return a->kz < b->kz ? -1 : 1;
  if (a->kx != b->kx) return a->kx < b->kx ? -1 : 1;
  return a->tri < b->tri ? -1 : a->tri > b->tri;
}

/* SPAN-061: FloorCells' of a coordinate of either sign. */
static int64_t floor_key(double c, double size) {
  double q = c / size;
  double n = op_rint_even(q);
  return (int64_t)n - (n > q ? 1 : 0);
}

void op_chunked_free(op_chunked *c) {
  if (!c) return;
  free(c->verts);
  free(c->tris);
  free(c->chunks);
  free(c->order);
  free(c);
}

static op_status chunk_nomem(op_chunked *c, keyed *k, op_error *err) {
  free(k);
  op_chunked_free(c);
  return op_fail(err, OP_E_NOMEM, "soup", "", "out of memory");
}

op_status op_chunked_create(const op_soup *soup, double chunk_size, op_chunked **out,
                            op_error *err) {
  op_status st = op_soup_validate(soup, err); /* SPAN-060 */
  if (st != OP_OK) return st;
  if (!finite_in(chunk_size, 0x1p-16, OP_COORD_LIMIT))
    return bad_d(err, "chunk_size", chunk_size, "chunk_size must be finite and in [2^-16, 2^21]");
  op_chunked *c = calloc(1, sizeof *c);
  keyed *k = NULL;
  if (!c) return chunk_nomem(c, k, err);
  c->nverts = soup->nverts;
  c->ntris = soup->ntris;
  c->size = chunk_size;
  c->verts = malloc(3 * (size_t)soup->nverts * sizeof(double) + 1);
  c->tris = malloc(3 * (size_t)soup->ntris * sizeof(uint32_t) + 1);
  c->order = malloc((size_t)soup->ntris * sizeof(uint32_t) + 1);
  k = malloc((size_t)soup->ntris * sizeof *k + 1);
  if (!c->verts || !c->tris || !c->order || !k) return chunk_nomem(c, k, err);
  if (soup->nverts) memcpy(c->verts, soup->verts, 3 * (size_t)soup->nverts * sizeof(double));
  if (soup->ntris) memcpy(c->tris, soup->tris, 3 * (size_t)soup->ntris * sizeof(uint32_t));
  for (uint32_t t = 0; t < c->ntris; t++) { /* SPAN-061 */
    double mn[2], mx[2];
    for (int a = 0; a < 2; a++) {
      int ax = a ? 2 : 0;
      double v0 = c->verts[3 * (size_t)c->tris[3 * (size_t)t] + (size_t)ax];
      mn[a] = mx[a] = v0;
      for (int j = 1; j < 3; j++) {
        double v = c->verts[3 * (size_t)c->tris[3 * (size_t)t + (size_t)j] + (size_t)ax];
        if (v < mn[a]) mn[a] = v;
        if (v > mx[a]) mx[a] = v;
      }
    }
    k[t].kx = floor_key((mn[0] + mx[0]) * 0.5, chunk_size);
    k[t].kz = floor_key((mn[1] + mx[1]) * 0.5, chunk_size);
    k[t].tri = t;
  }
  if (c->ntris) qsort(k, c->ntris, sizeof *k, keyed_cmp); /* SPAN-062 */
  uint32_t n = 0;
  for (uint32_t t = 0; t < c->ntris; t++)
    if (t == 0 || k[t].kx != k[t - 1].kx || k[t].kz != k[t - 1].kz) n++;
  c->chunks = calloc((size_t)n + 1, sizeof *c->chunks);
  if (!c->chunks) return chunk_nomem(c, k, err);
  c->nchunks = n;
  uint32_t ci = 0;
  for (uint32_t t = 0; t < c->ntris; t++) {
    if (t > 0 && (k[t].kx != k[t - 1].kx || k[t].kz != k[t - 1].kz)) ci++;
    chunk *ch = &c->chunks[ci];
    c->order[t] = k[t].tri;
    for (int j = 0; j < 3; j++) {
      const double *v = &c->verts[3 * (size_t)c->tris[3 * (size_t)k[t].tri + (size_t)j]];
      if (ch->count == 0 && j == 0) {
        ch->kx = k[t].kx;
        ch->kz = k[t].kz;
        ch->first = t;
        ch->bmin[0] = ch->bmax[0] = v[0];
        ch->bmin[1] = ch->bmax[1] = v[2];
      }
      if (v[0] < ch->bmin[0]) ch->bmin[0] = v[0];
      if (v[0] > ch->bmax[0]) ch->bmax[0] = v[0];
      if (v[2] < ch->bmin[1]) ch->bmin[1] = v[2];
      if (v[2] > ch->bmax[1]) ch->bmax[1] = v[2];
    }
    ch->count++;
  }
  free(k);
  *out = c;
  return OP_OK;
}

op_soup op_chunked_soup(const op_chunked *c) {
  op_soup s;
  s.nverts = c->nverts;
  s.verts = c->verts;
  s.ntris = c->ntris;
  s.tris = c->tris;
  return s;
}

uint32_t op_chunked_count(const op_chunked *c) { return c->nchunks; }

void op_chunked_chunk(const op_chunked *c, uint32_t i, double bmin[2], double bmax[2],
                      const uint32_t **tris, uint32_t *ntris) {
  const chunk *ch = &c->chunks[i];
  bmin[0] = ch->bmin[0];
  bmin[1] = ch->bmin[1];
  bmax[0] = ch->bmax[0];
  bmax[1] = ch->bmax[1];
  *tris = c->order + ch->first;
  *ntris = ch->count;
}

static int u32_cmp(const void *pa, const void *pb) {
  uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
  return a < b ? -1 : a > b;
}

/* SPAN-063: closed-box overlap; the union sorted ascending (each triangle is in one
** chunk, so no duplicates arise). */
op_status op_chunked_query(const op_chunked *c, const double bmin[2], const double bmax[2],
                           uint32_t **tris, uint32_t *n, op_error *err) {
  size_t total = 0;
  for (uint32_t i = 0; i < c->nchunks; i++) {
    const chunk *ch = &c->chunks[i];
    if (ch->bmin[0] <= bmax[0] && ch->bmax[0] >= bmin[0] && ch->bmin[1] <= bmax[1] &&
        ch->bmax[1] >= bmin[1])
      total += ch->count;
  }
  *tris = NULL;
  *n = 0;
  if (total == 0) return OP_OK;
  uint32_t *r = malloc(total * sizeof *r);
  if (!r) return op_fail(err, OP_E_NOMEM, "chunks", "", "out of memory");
  size_t k = 0;
  for (uint32_t i = 0; i < c->nchunks; i++) {
    const chunk *ch = &c->chunks[i];
    if (ch->bmin[0] <= bmax[0] && ch->bmax[0] >= bmin[0] && ch->bmin[1] <= bmax[1] &&
        ch->bmax[1] >= bmin[1]) {
      memcpy(r + k, c->order + ch->first, ch->count * sizeof *r);
      k += ch->count;
    }
  }
  qsort(r, total, sizeof *r, u32_cmp);
  *tris = r;
  *n = (uint32_t)total;
  return OP_OK;
}

/* ------------------------------------------------------------ solid columns */

/* SPAN-072 (settings first: SPAN-030). */
op_status op_solid_columns_validate(const op_solid_columns *h, const op_settings *s,
                                    op_error *err) {
  op_status st = op_settings_validate(s, err);
  if (st != OP_OK) return st;
  char f[64];
  for (int k = 0; k < 3; k++)
    if (!finite_in(h->origin[k], -OP_COORD_LIMIT, OP_COORD_LIMIT)) {
      snprintf(f, sizeof f, "origin[%d]", k);
      return bad_d(err, f, h->origin[k], "origin must be finite and within +-2^21");
    }
  if (h->width < 1 || h->width > 65536)
    return op_fail_i(err, OP_E_RANGE, "width", h->width, "width must be in 1..65536");
  if (h->depth < 1 || h->depth > 65536)
    return op_fail_i(err, OP_E_RANGE, "depth", h->depth, "depth must be in 1..65536");
  uint64_t ncols = (uint64_t)h->width * h->depth;
  if (ncols > (1u << 26))
    return op_fail_i(err, OP_E_LIMIT, "depth", h->depth, "width * depth must be at most 2^26");
  if (h->nspans > (1u << 26))
    return op_fail_i(err, OP_E_LIMIT, "spans", h->nspans, "at most 2^26 spans");
  if (!(h->origin[0] + (double)h->width * s->cell_size <= OP_COORD_LIMIT))
    return op_fail_i(err, OP_E_RANGE, "width", h->width, "the far corner leaves +-2^21");
  if (!(h->origin[2] + (double)h->depth * s->cell_size <= OP_COORD_LIMIT))
    return op_fail_i(err, OP_E_RANGE, "depth", h->depth, "the far corner leaves +-2^21");
  if (!h->col_start || (h->nspans && !h->spans))
    return op_fail(err, OP_E_ARGUMENT, h->col_start ? "spans" : "col_start", "", "array missing");
  if (h->col_start[0] != 0)
    return op_fail_i(err, OP_E_ARGUMENT, "col_start[0]", h->col_start[0], "col_start[0] must be 0");
  for (uint64_t i = 0; i < ncols; i++)
    if (h->col_start[i] > h->col_start[i + 1]) {
      snprintf(f, sizeof f, "col_start[%llu]", (unsigned long long)(i + 1));
      return op_fail_i(err, OP_E_ARGUMENT, f, h->col_start[i + 1], "col_start must not decrease");
    }
  if (h->col_start[ncols] != h->nspans) {
    snprintf(f, sizeof f, "col_start[%llu]", (unsigned long long)ncols);
    return op_fail_i(err, OP_E_ARGUMENT, f, h->col_start[ncols], "the last offset must be nspans");
  }
  uint64_t col = 0;
  for (uint32_t i = 0; i < h->nspans; i++) {
    while (h->col_start[col + 1] <= i) col++; /* column of span i */
    const op_solid_span *sp = &h->spans[i];
    if (sp->ymin < 0) {
      snprintf(f, sizeof f, "spans[%u].ymin", i);
      return op_fail_i(err, OP_E_RANGE, f, sp->ymin, "ymin must be >= 0");
    }
    snprintf(f, sizeof f, "spans[%u].ymax", i);
    if (!(sp->ymin < sp->ymax) || sp->ymax > OP_SOLID_MAX_ROW)
      return op_fail_i(err, OP_E_RANGE, f, sp->ymax, "ymax must be above ymin and at most 65535");
    if (sp->area > 63) {
      snprintf(f, sizeof f, "spans[%u].area", i);
      return op_fail_i(err, OP_E_RANGE, f, sp->area, "an area id is 0..63");
    }
    if (!(h->origin[1] + (double)sp->ymax * s->cell_height <= OP_COORD_LIMIT))
      return op_fail_i(err, OP_E_RANGE, f, sp->ymax, "the span's top leaves +-2^21");
    if (i > h->col_start[col] && !(sp->ymin > h->spans[i - 1].ymax)) {
      snprintf(f, sizeof f, "spans[%u].ymin", i);
      return op_fail_i(err, OP_E_ARGUMENT, f, sp->ymin,
                       "spans of a column must ascend and not touch");
    }
  }
  return OP_OK;
}
