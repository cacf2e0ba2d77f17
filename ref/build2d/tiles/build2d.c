/*
** build2d.c -- the 2D builder's settings, snap grid rule, tile data and assembly
** (spec/build2d-tiles.md: settings T2D-010..T2D-013, snap grid T2D-020..T2D-022, tile
** data T2D-050..T2D-056, assembly T2D-060..T2D-061, entry points T2D-001..T2D-003, the work
** budget T2D-080..T2D-083).
**
** Stages: Resolve (g2_region_from_outlines / _from_tilemap, g2_region_difference),
** Shrink (g2_region_shrink), Slice (t2_slice_region, ref/build2d/tiles/slice2d.c), Tile data
** (NavTileAssembler.FromPolygons, below: op_tile_create), Assemble (op_mesh_add_tile).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build2d/tiles/slice2d.h"
#include "onepath_build2d.h"
#include "math/opmath.h"
#include "navmesh/offmesh_slots.h"

#define TWO21 2097152.0

/* ------------------------------------------------------------ settings */

/* T2D-011 */
op_status op_settings2d_preset(const char *name, op_settings2d *out, op_error *err) {
  op_settings2d s;
  memset(&s, 0, sizeof s);
  if (name && strcmp(name, "Humanoid") == 0) {
    s.cell_size = 0.3; s.cell_height = 0.1; s.agent_radius = 0.6; s.agent_height = 2;
    s.agent_climb = 0.9; s.max_slope = 45; s.tile_cells = 64;
  } else if (name && strcmp(name, "Small") == 0) {
    s.cell_size = 0.15; s.cell_height = 0.05; s.agent_radius = 0.3; s.agent_height = 1;
    s.agent_climb = 0.4; s.max_slope = 45; s.tile_cells = 32;
  } else if (name && strcmp(name, "Large") == 0) {
    s.cell_size = 0.5; s.cell_height = 0.3; s.agent_radius = 1.5; s.agent_height = 4;
    s.agent_climb = 1.2; s.max_slope = 40; s.tile_cells = 128;
  } else {
    return op_fail(err, OP_E_ARGUMENT, "name", name ? name : "",
                   "preset name must be Humanoid, Small or Large");
  }
  s.max_verts_per_poly = 6;
  s.snap_bits = OP_SNAP_BITS_NULL;
  s.origin[0] = s.origin[1] = 0;
  s.floor_y = 0;
  s.area = 0;
  s.flags = 1;
  *out = s;
  return OP_OK;
}

/* T2D-021: the largest b in 0..16 with 2^-b >= cell_size / 256, i.e. 2^(8-b) >= cell_size. */
int op_finest_snap_bits(double cell_size) {
  for (int b = 16; b >= 0; b--) {
    double lim = b <= 8 ? (double)((int64_t)1 << (8 - b)) : 1.0 / (double)((int64_t)1 << (b - 8));
    if (lim >= cell_size) return b;
  }
  return -1;
}

static int in_range(double v, double lo, double hi) { return v >= lo && v <= hi; }

/* T2D-012: in this order; each violation out_of_range naming the field. */
op_status op_settings2d_validate(const op_settings2d *s, op_error *err) {
  const double cmin = 1.0 / 65536.0, cmax = 65536.0;
  if (!in_range(s->cell_size, cmin, cmax))
    return op_fail_d(err, OP_E_RANGE, "CellSize", s->cell_size, "must be in [2^-16, 2^16]");
  if (!in_range(s->cell_height, cmin, cmax))
    return op_fail_d(err, OP_E_RANGE, "CellHeight", s->cell_height, "must be in [2^-16, 2^16]");
  if (!in_range(s->agent_radius, 0, TWO21))
    return op_fail_d(err, OP_E_RANGE, "AgentRadius", s->agent_radius, "must be in [0, 2^21]");
  if (!in_range(s->agent_height, 0, TWO21))
    return op_fail_d(err, OP_E_RANGE, "AgentHeight", s->agent_height, "must be in [0, 2^21]");
  if (!in_range(s->agent_climb, 0, TWO21))
    return op_fail_d(err, OP_E_RANGE, "AgentMaxClimb", s->agent_climb, "must be in [0, 2^21]");
  if (!in_range(s->max_slope, 0, 90))
    return op_fail_d(err, OP_E_RANGE, "AgentMaxSlope", s->max_slope, "must be in [0, 90]");
  if (s->tile_cells < 1 || s->tile_cells > 8192)
    return op_fail_i(err, OP_E_RANGE, "TileSize", s->tile_cells, "must be in [1, 8192] cells");
  if (s->max_verts_per_poly < 3 || s->max_verts_per_poly > OP_MAX_VERTS_PER_POLY)
    return op_fail_i(err, OP_E_RANGE, "MaxVertsPerPoly", s->max_verts_per_poly,
                     "must be in [3, 12]");
  if (s->snap_bits != OP_SNAP_BITS_NULL && (s->snap_bits < 0 || s->snap_bits > G2_SNAP_BITS_MAX))
    return op_fail_i(err, OP_E_RANGE, "SnapBits", s->snap_bits, "must be null or in [0, 16]");
  int finest = op_finest_snap_bits(s->cell_size); /* T2D-020, T2D-021 */
  if (finest < 0)
    return op_fail_d(err, OP_E_RANGE, "CellSize", s->cell_size,
                     "no snap grid of unit >= CellSize / 256 exists (CellSize above 256)");
  if (s->snap_bits != OP_SNAP_BITS_NULL && s->snap_bits > finest) {
    char v[16], why[128];
    snprintf(v, sizeof v, "%d", (int)s->snap_bits);
    snprintf(why, sizeof why, "grid finer than CellSize / 256; use SnapBits = %d or less", finest);
    return op_fail(err, OP_E_ARGUMENT, "SnapBits", v, "%s", why);
  }
  if (!in_range(s->origin[0], -TWO21, TWO21))
    return op_fail_d(err, OP_E_RANGE, "TileOrigin.x", s->origin[0], "must be in [-2^21, 2^21]");
  if (!in_range(s->origin[1], -TWO21, TWO21))
    return op_fail_d(err, OP_E_RANGE, "TileOrigin.z", s->origin[1], "must be in [-2^21, 2^21]");
  if (!in_range(s->floor_y, -TWO21, TWO21))
    return op_fail_d(err, OP_E_RANGE, "FloorY", s->floor_y, "must be in [-2^21, 2^21]");
  if (s->area > 63) return op_fail_i(err, OP_E_RANGE, "Area", s->area, "must be in [0, 63]");
  return OP_OK;
}

/* ------------------------------------------------------------ tile data (T2D-050..) */

/* The tiling of the format (FMT-005) for 2D settings: the floor height is the y origin
** (T2D-051); shared by every tile (T2D-055) and the mesh (T2D-060). */
static void tiling_of(const op_settings2d *s, op_tiling *t) {
  t->origin[0] = s->origin[0];
  t->origin[1] = s->floor_y;
  t->origin[2] = s->origin[1];
  t->cell_size = s->cell_size;
  t->cell_height = s->cell_height;
  t->tile_cells = s->tile_cells;
  t->max_verts_per_poly = s->max_verts_per_poly;
}

/* T2D-052: grid coordinate -> tile-local binary32. */
static float to_local(int64_t g, int64_t glo, int64_t ghi, double x0, float fW, int snap_bits) {
  if (g == glo) return 0.0f;
  if (g == ghi) return fW;
  double unit = 1.0 / (double)((int64_t)1 << snap_bits);
  double v = (double)g * unit - x0;
  float f = op_to_f32(v);
  if (f < 0.0f) f = 0.0f;
  if (f > fW) f = fW;
  return f;
}

typedef struct pedge { uint32_t u, v, poly; } pedge;

static int pedge_cmp(const void *pa, const void *pb) {
  const pedge *a = pa, *b = pb;
  if (a->u != b->u) return a->u < b->u ? -1 : 1;
  if (a->v != b->v) return a->v < b->v ? -1 : 1;
  return 0;
}

/* T2D-053, T2D-054: the polygon descriptions of one tile: vertices, area and flags, and
** per edge its neighbour: the polygon across (its twin edge), a portal on a tile line
** (side 0 x low, 1 z high, 2 x high, 3 z low), else a wall. e: one scratch entry per
** polygon edge. */
static void poly_descs(const op_settings2d *s, const t2_tile_polys *tp, pedge *e,
                       op_poly_desc *polys) {
  const g2_polys *pp = &tp->polys;
  size_t nv = pp->start[pp->npolys];
  size_t k = 0;
  for (size_t p = 0; p < pp->npolys; p++) {
    uint32_t s0 = pp->start[p], n = pp->start[p + 1] - s0;
    for (uint32_t j = 0; j < n; j++) {
      e[k].u = pp->verts[s0 + j];
      e[k].v = pp->verts[s0 + (j + 1) % n];
      e[k].poly = (uint32_t)p;
      k++;
    }
  }
  qsort(e, nv, sizeof *e, pedge_cmp);
  for (size_t p = 0; p < pp->npolys; p++) { /* T2D-053, T2D-054 */
    uint32_t s0 = pp->start[p], n = pp->start[p + 1] - s0;
    op_poly_desc *d = &polys[p];
    d->nverts = (uint8_t)n;
    d->area = s->area;
    d->flags = s->flags;
    for (uint32_t j = 0; j < n; j++) {
      uint32_t u = pp->verts[s0 + j], v = pp->verts[s0 + (j + 1) % n];
      d->verts[j] = (uint16_t)u;
      pedge key = {v, u, 0};
      pedge *hit = bsearch(&key, e, nv, sizeof *e, pedge_cmp);
      g2_point a = tp->pts[u], b = tp->pts[v];
      if (hit) d->neis[j] = (uint16_t)(hit->poly + 1);
      else if (a.x == tp->line[0] && b.x == tp->line[0]) d->neis[j] = OP_NEI_PORTAL | 0;
      else if (a.y == tp->line[3] && b.y == tp->line[3]) d->neis[j] = OP_NEI_PORTAL | 1;
      else if (a.x == tp->line[2] && b.x == tp->line[2]) d->neis[j] = OP_NEI_PORTAL | 2;
      else if (a.y == tp->line[1] && b.y == tp->line[1]) d->neis[j] = OP_NEI_PORTAL | 3;
      else d->neis[j] = OP_NEI_WALL;
    }
  }
}

/* NavTileAssembler.FromPolygons: one tile's polygons -> a validated tile (T2D-050 ..
** T2D-055). */
static op_status assemble_tile(const op_settings2d *s, int snap_bits, double W,
                               const t2_tile_polys *tp, op_tile **out, op_error *err) {
  const g2_polys *pp = &tp->polys;
  size_t nv = pp->start[pp->npolys];
  float *verts = malloc((3 * tp->npts + 1) * sizeof *verts);
  op_poly_desc *polys = calloc(pp->npolys + 1, sizeof *polys);
  pedge *e = malloc((nv + 1) * sizeof *e);
  if (!verts || !polys || !e) {
    free(verts); free(polys); free(e);
    return opc_nomem(err, "region");
  }
  /* T2D-051, T2D-052: the tile's extent as the format computes it (FMT-005) */
  double x0 = s->origin[0] + (double)tp->col * W;
  double z0 = s->origin[1] + (double)tp->row * W;
  float fW = op_to_f32(W);
  for (size_t i = 0; i < tp->npts; i++) {
    verts[3 * i] = to_local(tp->pts[i].x, tp->line[0], tp->line[2], x0, fW, snap_bits);
    verts[3 * i + 1] = 0.0f;
    verts[3 * i + 2] = to_local(tp->pts[i].y, tp->line[1], tp->line[3], z0, fW, snap_bits);
  }
  poly_descs(s, tp, e, polys); /* T2D-053, T2D-054 */
  op_tile_desc td;
  memset(&td, 0, sizeof td);
  td.x = (int32_t)tp->col;
  td.z = (int32_t)tp->row;
  td.layer = 0;
  tiling_of(s, &td.tiling);
  td.origin_y = s->floor_y;
  op_status st;
  if (tp->npts > 65535) /* FMT-030, before the narrowing to u16 indices */
    st = op_fail_i(err, OP_E_LIMIT, "header.nverts", (long long)tp->npts, "too many vertices in a tile");
  else if (pp->npolys > 32767)
    st = op_fail_i(err, OP_E_LIMIT, "header.npolys", (long long)pp->npolys, "too many polygons in a tile");
  else {
    td.nverts = (uint32_t)tp->npts;
    td.verts = verts;
    td.npolys = (uint32_t)pp->npolys;
    td.polys = polys;
    st = op_tile_create(&td, out, err); /* T2D-055 */
  }
  free(verts);
  free(polys);
  free(e);
  return st;
}

/* ------------------------------------------------------------ pipeline */

/* Stages 2 to 4 (T2D-002): shrink, slice, tile data. */
static op_status region_tiles(const op_settings2d *s, int snap_bits, const g2_region *region,
                              const op_build2d_options *opt, op_tile ***tiles_out,
                              size_t *ntiles_out, op_error *err) {
  op_status st = OP_OK;
  const op_build2d_limits *lim = opt->limits;
  g2_region shrunk;
  memset(&shrunk, 0, sizeof shrunk);
  const g2_region *r = region;
  if (s->agent_radius > 0) { /* T2D-002 stage 2 */
    st = g2_region_shrink(region, s->agent_radius, s->cell_size, &shrunk, err);
    if (st) return st;
    r = &shrunk;
  }
  double W = (double)s->tile_cells * s->cell_size; /* FMT-005 */
  /* T2D-080, T2D-081: the budget after the shrink, before the arrangement; 0 = default */
  uint64_t mt = lim && lim->max_tiles ? lim->max_tiles : OP_BUDGET2D_TILES;
  uint64_t mc = lim && lim->max_grid_cells ? lim->max_grid_cells : OP_BUDGET2D_GRID_CELLS;
  st = t2_slice_budget(r, s->origin, W, s->cell_size, s->tile_cells, mt, mc, err);
  if (st) { g2_region_free(&shrunk); return st; }
  t2_slice sl;
  int mp = lim ? (int)lim->max_snap_passes : 0; /* T2D-083, G2D-058: 0 = 64 */
  st = t2_slice_region_counted(r, s->origin, W, s->cell_size, s->max_verts_per_poly, mp,
                               lim ? lim->alloc : NULL, &sl, err); /* CONF-059 */
  g2_region_free(&shrunk);
  if (st) return st;
  op_tile **tiles = calloc(sl.ntiles + 1, sizeof *tiles);
  if (!tiles) { t2_slice_free(&sl); return opc_nomem(err, "mesh"); }
  for (size_t i = 0; i < sl.ntiles && !st; i++)
    st = assemble_tile(s, snap_bits, W, &sl.tiles[i], &tiles[i], err);
  size_t n = sl.ntiles;
  t2_slice_free(&sl);
  uint32_t slots = 0;
  if (!st) st = t2_offmesh_attach(s, opt->offmesh, opt->noffmesh, tiles, n, &slots, err);
  if (st) { op_build2d_tiles_free(tiles, n); return st; }
  if (opt->slots_stored) *opt->slots_stored = slots;
  *tiles_out = tiles;
  *ntiles_out = n;
  return OP_OK;
}

void op_build2d_tiles_free(op_tile **tiles, size_t n) {
  if (!tiles) return;
  for (size_t i = 0; i < n; i++) op_tile_free(tiles[i]);
  free(tiles);
}

/* T2D-060, T2D-061: stage 5. */
op_status op_build2d_assemble(const op_settings2d *s, op_tile *const *tiles, size_t n,
                              op_mesh **out, op_error *err) {
  op_status st = op_settings2d_validate(s, err);
  if (st) return st;
  if (n > ((size_t)1 << 22))
    return op_fail_i(err, OP_E_LIMIT, "max_tiles", (long long)n, "more than 2^22 tiles");
  op_mesh_params mp;
  memset(&mp, 0, sizeof mp);
  tiling_of(s, &mp.tiling);
  mp.walkable_climb = s->agent_climb;
  mp.max_tiles = n ? (uint32_t)n : 1;
  op_mesh *m = NULL;
  st = op_mesh_create(&mp, &m, err);
  for (size_t i = 0; i < n && !st; i++) { /* in the given order: ascending (row, column) */
    op_ref ref;
    st = op_mesh_add_tile(m, tiles[i], &ref, err);
  }
  if (st) { op_mesh_free(m); return st; }
  *out = m;
  return OP_OK;
}

static op_status finish(const op_settings2d *s, int snap_bits, const g2_region *r,
                        const op_build2d_options *opt, op_tile ***tiles, size_t *ntiles,
                        op_mesh **out, op_error *err) {
  op_tile **t = NULL;
  size_t n = 0;
  op_status st = region_tiles(s, snap_bits, r, opt, &t, &n, err);
  if (st) return st;
  if (out) {
    st = op_build2d_assemble(s, t, n, out, err);
    if (st) { op_build2d_tiles_free(t, n); return st; }
  }
  if (tiles) { *tiles = t; *ntiles = n; }
  else op_build2d_tiles_free(t, n);
  return OP_OK;
}

static op_status convert_outlines(const op_outline2d *o, size_t n, g2_outline **out,
                                  op_error *err) {
  *out = malloc((n + 1) * sizeof **out);
  if (!*out) return opc_nomem(err, "outlines");
  for (size_t i = 0; i < n; i++) {
    (*out)[i].xy = o[i].xy;
    (*out)[i].count = o[i].count;
  }
  return OP_OK;
}

static op_status subtract(const op_outline2d *obstacles, size_t nobs, g2_region *r,
                          op_error *err) {
  if (nobs == 0) return OP_OK;
  g2_outline *ob;
  op_status st = convert_outlines(obstacles, nobs, &ob, err);
  if (st) return st;
  g2_region d;
  st = g2_region_difference(r, ob, nobs, &d, err);
  free(ob);
  if (st) return st;
  g2_region_free(r);
  *r = d;
  return OP_OK;
}

/* T2D-001: NavMesh.Build2D from outlines (tiles and/or mesh). */
static op_status outlines_run(const op_settings2d *s, const op_outline2d *outlines,
                              size_t noutlines, const op_outline2d *obstacles,
                              size_t nobstacles, const op_build2d_options *opt,
                              op_tile ***tiles, size_t *ntiles, op_mesh **out,
                              op_error *err) {
  op_status st = op_settings2d_validate(s, err);
  if (!st) st = opt_om_check(opt->offmesh, opt->noffmesh, err); /* T2D-091 */
  if (st) return st;
  int b = s->snap_bits == OP_SNAP_BITS_NULL ? op_finest_snap_bits(s->cell_size) : s->snap_bits;
  g2_outline *o;
  st = convert_outlines(outlines, noutlines, &o, err);
  if (st) return st;
  g2_region r;
  st = g2_region_from_outlines(o, noutlines, b, &r, err);
  free(o);
  if (st) return st;
  st = subtract(obstacles, nobstacles, &r, err);
  if (!st) st = finish(s, b, &r, opt, tiles, ntiles, out, err);
  g2_region_free(&r);
  return st;
}

/* T2D-001: NavMesh.Build2D from a tile map (tiles and/or mesh). */
static op_status tilemap_run(const op_settings2d *s, const uint8_t *cells, int32_t width,
                             int32_t height, const double map_origin[2], double map_cell,
                             const op_outline2d *obstacles, size_t nobstacles,
                             const op_build2d_options *opt, op_tile ***tiles, size_t *ntiles,
                             op_mesh **out, op_error *err) {
  op_status st = op_settings2d_validate(s, err);
  if (!st) st = opt_om_check(opt->offmesh, opt->noffmesh, err); /* T2D-091 */
  if (st) return st;
  const op_build2d_limits *lim = opt->limits;
  int b = s->snap_bits == OP_SNAP_BITS_NULL ? op_finest_snap_bits(s->cell_size) : s->snap_bits;
  g2_region r;
  st = g2_region_from_tilemap_counted(cells, width, height, map_origin[0], map_origin[1],
                                      map_cell, b, lim ? lim->alloc : NULL, &r,
                                      err); /* CONF-059 */
  if (st) return st;
  st = subtract(obstacles, nobstacles, &r, err);
  if (!st) st = finish(s, b, &r, opt, tiles, ntiles, out, err);
  g2_region_free(&r);
  return st;
}

/* The options of a build given only a budget (NULL: the defaults). */
static op_build2d_options opts_of(const op_build2d_limits *lim) {
  op_build2d_options o = {lim, NULL, 0, NULL};
  return o;
}

op_status op_build2d_outlines_opt(const op_settings2d *s, const op_outline2d *outlines,
                                  size_t noutlines, const op_outline2d *obstacles,
                                  size_t nobstacles, const op_build2d_options *opt,
                                  op_tile ***tiles, size_t *ntiles, op_mesh **out,
                                  op_error *err) {
  op_build2d_options o = opt ? *opt : opts_of(NULL);
  return outlines_run(s, outlines, noutlines, obstacles, nobstacles, &o, tiles, ntiles, out, err);
}

op_status op_build2d_tilemap_opt(const op_settings2d *s, const uint8_t *cells, int32_t width,
                                 int32_t height, const double map_origin[2], double map_cell,
                                 const op_outline2d *obstacles, size_t nobstacles,
                                 const op_build2d_options *opt, op_tile ***tiles,
                                 size_t *ntiles, op_mesh **out, op_error *err) {
  op_build2d_options o = opt ? *opt : opts_of(NULL);
  return tilemap_run(s, cells, width, height, map_origin, map_cell, obstacles, nobstacles, &o,
                     tiles, ntiles, out, err);
}

op_status op_build2d_outlines(const op_settings2d *s, const op_outline2d *outlines,
                              size_t noutlines, const op_outline2d *obstacles,
                              size_t nobstacles, op_mesh **out, op_error *err) {
  op_build2d_options o = opts_of(NULL);
  return outlines_run(s, outlines, noutlines, obstacles, nobstacles, &o, NULL, NULL, out, err);
}

op_status op_build2d_outlines_tiles(const op_settings2d *s, const op_outline2d *outlines,
                                    size_t noutlines, const op_outline2d *obstacles,
                                    size_t nobstacles, op_tile ***tiles, size_t *ntiles,
                                    op_error *err) {
  op_build2d_options o = opts_of(NULL);
  return outlines_run(s, outlines, noutlines, obstacles, nobstacles, &o, tiles, ntiles, NULL,
                      err);
}

op_status op_build2d_tilemap(const op_settings2d *s, const uint8_t *cells, int32_t width,
                             int32_t height, const double map_origin[2], double map_cell,
                             const op_outline2d *obstacles, size_t nobstacles,
                             op_mesh **out, op_error *err) {
  op_build2d_options o = opts_of(NULL);
  return tilemap_run(s, cells, width, height, map_origin, map_cell, obstacles, nobstacles,
                     &o, NULL, NULL, out, err);
}

op_status op_build2d_tilemap_tiles(const op_settings2d *s, const uint8_t *cells,
                                   int32_t width, int32_t height, const double map_origin[2],
                                   double map_cell, const op_outline2d *obstacles,
                                   size_t nobstacles, op_tile ***tiles, size_t *ntiles,
                                   op_error *err) {
  op_build2d_options o = opts_of(NULL);
  return tilemap_run(s, cells, width, height, map_origin, map_cell, obstacles, nobstacles,
                     &o, tiles, ntiles, NULL, err);
}

/* T2D-083: the same builds under a host's budget (lim NULL = the defaults). */
op_status op_build2d_outlines_limited(const op_settings2d *s, const op_outline2d *outlines,
                                      size_t noutlines, const op_outline2d *obstacles,
                                      size_t nobstacles, const op_build2d_limits *lim,
                                      op_mesh **out, op_error *err) {
  op_build2d_options o = opts_of(lim);
  return outlines_run(s, outlines, noutlines, obstacles, nobstacles, &o, NULL, NULL, out, err);
}

op_status op_build2d_tilemap_limited(const op_settings2d *s, const uint8_t *cells,
                                     int32_t width, int32_t height,
                                     const double map_origin[2], double map_cell,
                                     const op_outline2d *obstacles, size_t nobstacles,
                                     const op_build2d_limits *lim, op_mesh **out,
                                     op_error *err) {
  op_build2d_options o = opts_of(lim);
  return tilemap_run(s, cells, width, height, map_origin, map_cell, obstacles, nobstacles,
                     &o, NULL, NULL, out, err);
}

op_status op_build2d_outlines_tiles_limited(const op_settings2d *s,
                                            const op_outline2d *outlines, size_t noutlines,
                                            const op_outline2d *obstacles, size_t nobstacles,
                                            const op_build2d_limits *lim, op_tile ***tiles,
                                            size_t *ntiles, op_error *err) {
  op_build2d_options o = opts_of(lim);
  return outlines_run(s, outlines, noutlines, obstacles, nobstacles, &o, tiles, ntiles, NULL,
                      err);
}

op_status op_build2d_tilemap_tiles_limited(const op_settings2d *s, const uint8_t *cells,
                                           int32_t width, int32_t height,
                                           const double map_origin[2], double map_cell,
                                           const op_outline2d *obstacles, size_t nobstacles,
                                           const op_build2d_limits *lim, op_tile ***tiles,
                                           size_t *ntiles, op_error *err) {
  op_build2d_options o = opts_of(lim);
  return tilemap_run(s, cells, width, height, map_origin, map_cell, obstacles, nobstacles,
                     &o, tiles, ntiles, NULL, err);
}
