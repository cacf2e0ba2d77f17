/*
** onepath_build2d.h -- public declarations of the 2D builder (libonepath).
**
** A walkable region of the plane (outlines, or the true cells of a tile map, minus
** obstacles) becomes a stitched tiled mesh (op_mesh). Normative text:
** spec/build2d-tiles.md (T2D) for the stages, settings, tile lines and tiles;
** spec/build2d-geometry.md (G2D) for regions, shrink, arrangement, triangulation and
** convex partition.
**
** Language-neutral names: NavSettings -> op_settings2d (2D fields only),
** NavSettings.Humanoid/Small/Large -> op_settings2d_preset, TileSlicer.FinestSnapBits ->
** op_finest_snap_bits, TileSlicer.MinUnitDivisor -> OP_MIN_UNIT_DIVISOR,
** NavMesh.Build2D(outlines) -> op_build2d_outlines, NavMesh.Build2D(tile map) ->
** op_build2d_tilemap.
**
** Conventions as in onepath.h: every function that can fail returns an op_status and
** fills the op_error; a failed call changes nothing and creates nothing; arrays are
** borrowed for the call only.
*/
#ifndef ONEPATH_BUILD2D_H
#define ONEPATH_BUILD2D_H

#include "onepath.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OP_MIN_UNIT_DIVISOR 256      /* T2D-020: grid unit >= CellSize / 256 */
#define OP_SNAP_BITS_NULL (-1)       /* T2D-021: SnapBits null = FinestSnapBits */
#define OP_BUILD2D_MAX_LINES 4096    /* T2D-032: cut lines per axis, 2^12 */
#define OP_BUILD2D_MAX_CROSSINGS (1u << 20) /* T2D-032: X lines times Z lines */

/* The settings the 2D builder reads (T2D-010). */
typedef struct op_settings2d {
  double cell_size;        /* CellSize, world units */
  double cell_height;      /* CellHeight, world units (the tiling's; no voxels in 2D) */
  double agent_radius;     /* AgentRadius, world units; the shrink distance */
  double agent_height;     /* AgentHeight (carried, unused by the 2D stages) */
  double agent_climb;      /* AgentMaxClimb: the mesh's walkable climb */
  double max_slope;        /* AgentMaxSlope, degrees (carried, unused) */
  uint32_t tile_cells;     /* TileSize, cells per tile side, 1..8192 */
  uint32_t max_verts_per_poly; /* MaxVertsPerPoly, 3..12 */
  int32_t snap_bits;       /* SnapBits, 0..16, or OP_SNAP_BITS_NULL */
  double origin[2];        /* TileOrigin: world (X, Z) of tile (0, 0)'s minimum corner */
  double floor_y;          /* FloorY: world Y of every vertex */
  uint8_t area;            /* Area of every polygon, 0..63 */
  uint16_t flags;          /* Flags of every polygon */
} op_settings2d;

/* NavSettings.Humanoid / Small / Large (T2D-011): name exact, else OP_E_ARGUMENT "name". */
op_status op_settings2d_preset(const char *name, op_settings2d *out, op_error *err);

/* Validates the settings in the order of T2D-012. */
op_status op_settings2d_validate(const op_settings2d *s, op_error *err);

/* TileSlicer.FinestSnapBits(cellSize) (T2D-021): the largest b in 0..16 with
** 2^-b >= cell_size / 256; -1 when none (cell_size > 256). cell_size must be finite
** and positive. */
int op_finest_snap_bits(double cell_size);

/* One closed outline (x = world X, y = world Z): count points at xy[2i], xy[2i + 1];
** the closing edge is implied. */
typedef struct op_outline2d {
  const double *xy;
  size_t count;
} op_outline2d;

/* NavMesh.Build2D from outlines (T2D-001): the union of `outlines` minus the union of
** `obstacles`, shrunk, sliced, partitioned, assembled. *out is a new mesh (owned by
** the caller, op_mesh_free). */
op_status op_build2d_outlines(const op_settings2d *s, const op_outline2d *outlines,
                              size_t noutlines, const op_outline2d *obstacles,
                              size_t nobstacles, op_mesh **out, op_error *err);

/* NavMesh.Build2D from a tile map (T2D-001): cells[row * width + col] != 0 is walkable;
** cell (col, row) spans [map_origin[0] + col * map_cell, ... + map_cell] in X and the
** same in Z from map_origin[1]. */
op_status op_build2d_tilemap(const op_settings2d *s, const uint8_t *cells, int32_t width,
                             int32_t height, const double map_origin[2], double map_cell,
                             const op_outline2d *obstacles, size_t nobstacles,
                             op_mesh **out, op_error *err);

/* The work budget of a 2D build (T2D-080 .. T2D-083): checked after stage 2 (shrink) and
** the cut-line limits (T2D-032), before the arrangement. Not part of the settings; a member
** 0 means its default. The builds above use the defaults, the *_limited ones the host's. */
#define OP_BUDGET2D_TILES (1u << 14)            /* T2D-081: tiles of the sliced box */
#define OP_BUDGET2D_GRID_CELLS (1ull << 28)     /* T2D-081: tiles x TileSize^2 */
typedef struct op_build2d_limits {
  uint64_t max_tiles;      /* 0: OP_BUDGET2D_TILES */
  uint64_t max_grid_cells; /* 0: OP_BUDGET2D_GRID_CELLS */
  uint64_t max_snap_passes; /* 0: 64 (G2D-058); 1 .. 64 lowers the slicer's maximum (T2D-083) */
  op_alloc_count *alloc;   /* tests only (spec/conformance.md CONF-059): NULL, or the
                              counter of the triangulation's allocations (T2D-035) */
} op_build2d_limits;
op_status op_build2d_outlines_limited(const op_settings2d *s, const op_outline2d *outlines,
                                      size_t noutlines, const op_outline2d *obstacles,
                                      size_t nobstacles, const op_build2d_limits *lim,
                                      op_mesh **out, op_error *err);
op_status op_build2d_tilemap_limited(const op_settings2d *s, const uint8_t *cells,
                                     int32_t width, int32_t height,
                                     const double map_origin[2], double map_cell,
                                     const op_outline2d *obstacles, size_t nobstacles,
                                     const op_build2d_limits *lim, op_mesh **out,
                                     op_error *err);
op_status op_build2d_outlines_tiles_limited(const op_settings2d *s,
                                            const op_outline2d *outlines, size_t noutlines,
                                            const op_outline2d *obstacles, size_t nobstacles,
                                            const op_build2d_limits *lim, op_tile ***tiles,
                                            size_t *ntiles, op_error *err);
op_status op_build2d_tilemap_tiles_limited(const op_settings2d *s, const uint8_t *cells,
                                           int32_t width, int32_t height,
                                           const double map_origin[2], double map_cell,
                                           const op_outline2d *obstacles, size_t nobstacles,
                                           const op_build2d_limits *lim, op_tile ***tiles,
                                           size_t *ntiles, op_error *err);

/* A 2D build with options (T2D-080 .. T2D-083, T2D-090 .. T2D-094): the work budget and
** off-mesh link definitions (borrowed for the call). Either output may be NULL: tiles gives
** stages 1 to 4's tiles (owned by the caller, op_build2d_tiles_free), out the mesh. */
typedef struct op_build2d_options {
  const op_build2d_limits *limits; /* NULL: the defaults */
  const op_offmesh_link *offmesh;  /* T2D-090; none when noffmesh is 0 */
  uint32_t noffmesh;
  uint32_t *slots_stored;          /* NULL, or receives the slots stored over all tiles */
} op_build2d_options;
op_status op_build2d_outlines_opt(const op_settings2d *s, const op_outline2d *outlines,
                                  size_t noutlines, const op_outline2d *obstacles,
                                  size_t nobstacles, const op_build2d_options *opt,
                                  op_tile ***tiles, size_t *ntiles, op_mesh **out,
                                  op_error *err);
op_status op_build2d_tilemap_opt(const op_settings2d *s, const uint8_t *cells, int32_t width,
                                 int32_t height, const double map_origin[2], double map_cell,
                                 const op_outline2d *obstacles, size_t nobstacles,
                                 const op_build2d_options *opt, op_tile ***tiles,
                                 size_t *ntiles, op_mesh **out, op_error *err);

/* The stages separately (T2D-002): stages 1 to 4 give the validated tiles in ascending
** (row, column) order (*tiles malloc'd, owned by the caller: op_build2d_tiles_free);
** stage 5 stitches given tiles into a new mesh of the settings' tiling. */
op_status op_build2d_outlines_tiles(const op_settings2d *s, const op_outline2d *outlines,
                                    size_t noutlines, const op_outline2d *obstacles,
                                    size_t nobstacles, op_tile ***tiles, size_t *ntiles,
                                    op_error *err);
op_status op_build2d_tilemap_tiles(const op_settings2d *s, const uint8_t *cells,
                                   int32_t width, int32_t height, const double map_origin[2],
                                   double map_cell, const op_outline2d *obstacles,
                                   size_t nobstacles, op_tile ***tiles, size_t *ntiles,
                                   op_error *err);
void op_build2d_tiles_free(op_tile **tiles, size_t n);
op_status op_build2d_assemble(const op_settings2d *s, op_tile *const *tiles, size_t n,
                              op_mesh **out, op_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ONEPATH_BUILD2D_H */
