/*
** onepath_geometry2d.h -- the 2D builder's geometry stages one at a time (libonepath, kit
** tier): the grid point, the canonical Region and its operations (from outlines, from a
** tile map, difference, shrink), the convex polygons of a partition and the Slice stage's
** tiles. Normative text: spec/build2d-geometry.md (G2D-010, G2D-020 .., G2D-030 ..,
** G2D-035, G2D-090 .., G2D-120 .., G2D-220 ..) and spec/build2d-tiles.md (T2D-030 ..
** T2D-044).
**
** Kit tier: for the fuzz harnesses and the benchmarks, which check the builder's tiles
** against its own region and slice stages or time the region stage alone. A game uses
** onepath_build2d.h. These declarations moved here unchanged from the internal headers
** ref/build2d/geometry/g2d.h and ref/build2d/tiles/slice2d.h (which include this file);
** the g2_ / t2_ prefixes are kept. The structs are transparent and read-only to the
** caller; only the functions below make and free them.
**
** Conventions as in onepath.h: every function that can fail returns an op_status and
** fills the op_error; a failed call leaves *out untouched.
*/
#ifndef ONEPATH_GEOMETRY2D_H
#define ONEPATH_GEOMETRY2D_H

#include <stddef.h>
#include <stdint.h>

#include "onepath.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------- the grid and the Region (G2D) */

/* A point of the snap grid (G2D-001 .. G2D-005): world value times 2^snap_bits. */
typedef struct g2_point {
  int64_t x, y; /* grid coordinates */
} g2_point;

/* A canonical region (G2D-090..): closed rings on the grid; the region lies to the left
** of every directed ring edge (outer rings counter-clockwise, holes clockwise); each ring
** starts at its lexicographically smallest vertex; no vertex repeats inside a ring; rings
** sorted by their first vertex, then by the second vertex (G2D-094). Ring r is
** pts[ring_start[r] .. ring_start[r + 1]); ring_start has nrings + 1 entries
** (ring_start[0] = 0; regions made by this module always have the array, but a zeroed
** struct, ring_start NULL and nrings 0, is also a valid empty region). */
typedef struct g2_region {
  int snap_bits;
  g2_point *pts;       /* owned */
  size_t npts;
  size_t *ring_start;  /* owned, nrings + 1 entries */
  size_t nrings;
} g2_region;

void g2_region_free(g2_region *r); /* frees the arrays, zeroes the struct; NULL-safe */

/* One closed outline in world coordinates: count points, x = xy[2i], y = xy[2i + 1];
** the closing edge from the last point to the first is implied. */
typedef struct g2_outline {
  const double *xy;
  size_t count;
} g2_outline;

/* Union of the outlines (G2D-020..): a point is inside when some outline winds around
** it a non-zero number of times. Field names in errors: "Outlines[i][j].x" / ".y". */
op_status g2_region_from_outlines(const g2_outline *outlines, size_t n, int snap_bits,
                                  g2_region *out, op_error *err);

/* Union of the true cells of a tile map (G2D-030..): cells[row * width + col] != 0 is
** walkable; cell (col, row) spans world [ox + col*cell, ox + (col+1)*cell] x
** [oy + row*cell, oy + (row+1)*cell], each corner rounded to the grid. */
op_status g2_region_from_tilemap(const uint8_t *cells, int32_t width, int32_t height,
                                 double ox, double oy, double cell_size, int snap_bits,
                                 g2_region *out, op_error *err);

/* Region minus the union of the obstacle outlines (G2D-035). */
op_status g2_region_difference(const g2_region *r, const g2_outline *obstacles, size_t n,
                               g2_region *out, op_error *err);

/* Shrink by the agent radius (G2D-120..): radius 0 copies the region. */
op_status g2_region_shrink(const g2_region *r, double agent_radius, double cell_size,
                           g2_region *out, op_error *err);

/* ------------------------------------------------ convex polygons (G2D-220..) */

/* Polygons of a convex partition, each starting at its smallest point index, sorted by
** (first, second) vertex. Polygon p is verts[start[p] .. start[p + 1]). */
typedef struct g2_polys {
  size_t npolys;
  uint32_t *start; /* owned, npolys + 1 */
  uint32_t *verts; /* owned */
} g2_polys;
void g2_polys_free(g2_polys *p); /* NULL-safe; zeroes the struct */

/* ------------------------------------------ the Slice stage (T2D-030 .. T2D-044) */

/* Tile lines, the arrangement with cut lines, the triangulation, triangles to tiles, the
** convex partition per tile. Tile lines along x are the grid values of the world values
** fl(origin_x + fl(k * tile_world)) (T2D-030), along y the same from origin_y. */
typedef struct t2_tile_polys {
  int64_t col, row;   /* tile coordinates (x, z of the format) */
  int64_t line[4];    /* grid lines: x low, y low, x high, y high */
  g2_point *pts;      /* owned: used points in (x, y) order */
  size_t npts;
  g2_polys polys;     /* indices into pts */
} t2_tile_polys;
typedef struct t2_slice {
  t2_tile_polys *tiles; /* owned; ascending (row, col) */
  size_t ntiles;
} t2_slice;
void t2_slice_free(t2_slice *s); /* NULL-safe; zeroes the struct */
/* The Slice stage of region r (T2D-030 .. T2D-044): its tiles with their convex polygons. */
op_status t2_slice_region(const g2_region *r, const double origin[2], double tile_world,
                          double cell_size, uint32_t max_verts, t2_slice *out,
                          op_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ONEPATH_GEOMETRY2D_H */
