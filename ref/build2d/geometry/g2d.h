/*
** g2d.h -- internal 2D geometry types of the 2D builder (spec/build2d-geometry.md):
** the snap grid (G2D-001..), the planar straight-line graph (PSLG), the canonical Region,
** the snap-rounded arrangement, and the Region operations (from outlines, from a tile
** map, difference, shrink). Shared by ref/build2d/geometry/region.c, ref/build2d/geometry/arrange.c, ref/build2d/geometry/shrink.c (2D
** GEOMETRY) and the triangulation / tile code (2D TILES). Internal: not public API.
**
** Stability: additive changes only.
*/
#ifndef OP_G2D_H
#define OP_G2D_H

#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"

/* ------------------------------------------------------------------ snap grid */

/* G2D-001..G2D-005: the grid unit is 2^-snap_bits world units, snap_bits in [0, 16];
** world coordinates are finite with |x| <= 2^21, so grid coordinates are integers with
** |g| <= 2^37. Products of two coordinate differences need up to 2^77: __int128. */
#define G2_SNAP_BITS_MAX 16
#define G2_WORLD_MAX 2097152.0 /* 2^21 */
#define G2_GRID_MAX ((int64_t)1 << 37)

__extension__ typedef __int128 g2_i128; /* exact products (G2D-004) */

typedef struct g2_point {
  int64_t x, y; /* grid coordinates */
} g2_point;

/* World coordinate -> grid (G2D-002): RoundHalfEven(w * 2^snap_bits). `field` names the
** value in the error (OP_E_RANGE when w is not finite or |w| > 2^21; OP_E_RANGE naming
** "SnapBits" when snap_bits is outside [0, 16]). */
op_status g2_snap_coord(double w, int snap_bits, const char *field, int64_t *out,
                        op_error *err);

/* Grid -> world (exact: g * 2^-snap_bits). */
double g2_grid_to_world(int64_t g, int snap_bits);

/* Sign (-1, 0, 1) of the cross product (b - a) x (c - a), exact (G2D-004). */
int g2_orient(g2_point a, g2_point b, g2_point c);

/* Lexicographic order of points: x first, then y (G2D-010). Returns -1, 0, 1. */
int g2_point_cmp(g2_point a, g2_point b);

/* ------------------------------------------------------------------ PSLG */

/* Segment flags (G2D-040). A segment may carry both. */
#define G2_SEG_BOUNDARY 1u /* part of a region boundary / outline edge */
#define G2_SEG_CUT 2u      /* a cut segment (tile line); changes no winding */

typedef struct g2_seg {
  uint32_t a, b;  /* point indices; in arrangement output a < b (points sorted) */
  uint32_t flags; /* G2_SEG_BOUNDARY | G2_SEG_CUT */
  int32_t wind;   /* winding change: crossing a->b from its right side to its left side
                  ** adds `wind` to the winding number. An outline edge a->b has +1; a
                  ** region boundary edge with the region on its left has +1 (on its
                  ** right: -1). Cut segments have 0. (G2D-041) */
} g2_seg;

typedef struct g2_pslg {
  g2_point *pts; /* owned */
  size_t npts;
  g2_seg *segs;  /* owned */
  size_t nsegs;
} g2_pslg;

void g2_pslg_free(g2_pslg *g); /* frees the arrays, zeroes the struct; NULL-safe */

/* ------------------------------------------------------------------ arrangement */

/* Limits (G2D-070): input segments and proper crossings found in one pass. */
#define G2_MAX_SEGMENTS ((size_t)1 << 22)
#define G2_MAX_CROSSINGS ((size_t)1 << 22)
#define G2_MAX_SNAP_PASSES 64

/* The snap-rounded arrangement (G2D-050..G2D-070) of the input segments (endpoints are
** indices into pts; zero-length segments are ignored). Output: points sorted
** lexicographically (distinct), segments with a < b sorted by (a, b), pairwise meeting
** only at shared endpoints; segments that coincide after rounding are merged: their
** flags OR-ed and their winds added with the sign of their direction relative to a->b.
** A merged boundary segment whose wind sums to 0 keeps G2_SEG_BOUNDARY. On error, *out
** is untouched. */
op_status g2_arrange(const g2_point *pts, size_t npts, const g2_seg *segs, size_t nsegs,
                     g2_pslg *out, op_error *err);

/* ------------------------------------------------------------------ Region */

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

/* The region's boundary as a PSLG: every ring edge a segment with G2_SEG_BOUNDARY,
** wind +1, directed as in the ring (a, b not sorted). Points in ring order. */
op_status g2_region_to_pslg(const g2_region *r, g2_pslg *out, op_error *err);

/* Exact twice-area of the region (sum over rings of the shoelace sum); >= 0. */
g2_i128 g2_region_area2(const g2_region *r);

/* A closed outline of grid points (internal producers such as the shrink). */
typedef struct g2_grid_outline {
  const g2_point *pts;
  size_t count;
} g2_grid_outline;

/* G2D-035 with obstacles already on the grid (each resolved alone by stage A). */
op_status g2_region_difference_grid(const g2_region *r, const g2_grid_outline *obstacles,
                                    size_t n, g2_region *out, op_error *err);

/* r minus the union of the obstacles, the union formed by the balanced tree of G2D-128
** (each obstacle resolved alone by stage A, then merged pairwise). */
op_status g2_region_minus_tree(const g2_region *r, const g2_grid_outline *obstacles, size_t n,
                               g2_region *out, op_error *err);

/* A deep copy (ring_start gets nrings + 1 entries, at least one). */
op_status g2_region_copy(const g2_region *r, g2_region *out, op_error *err);

/* G2D-123: vertices of the polygon standing for a circle of the agent radius (a multiple
** of 4 in [8, 1024]). agent_radius > 0, cell_size > 0. */
int g2_arc_steps(double agent_radius, double cell_size);

/* Shrink by the agent radius (G2D-120..): radius 0 copies the region. */
op_status g2_region_shrink(const g2_region *r, double agent_radius, double cell_size,
                           g2_region *out, op_error *err);


/* ------------------------------------ triangulation and partition (2D TILES) */
/* Added by the 2D TILES engineer (additive): spec/build2d-geometry.md section 6,
** G2D-200.. ; implemented in ref/build2d/geometry/cdt.c and ref/build2d/geometry/partition.c. */

/* Exact in-circle sign of d against the circle through a, b, c (G2D-202): +1 inside
** when a, b, c are counter-clockwise, -1 outside, 0 on it. 256-bit exact. */
int g2_incircle(g2_point a, g2_point b, g2_point c, g2_point d);

/* The constrained Delaunay triangulation (G2D-200..G2D-207) of an arrangement's PSLG
** (points distinct and sorted, segments meeting only at shared endpoints and holding
** no point in their interior). Every triangle of the points' convex hull, each
** counter-clockwise starting at its smallest point index, sorted by (v0, v1, v2);
** nei[3t+i] is the triangle across edge i (tri[3t+i] -> tri[3t+(i+1)%3]) or
** G2_NO_TRI; bit i of cons[t] marks a constraint edge; wind[t] is the winding number. */
#define G2_NO_TRI 0xffffffffu
typedef struct g2_cdt {
  size_t ntris;
  uint32_t *tri;  /* owned, 3 * ntris */
  uint32_t *nei;  /* owned, 3 * ntris */
  uint8_t *cons;  /* owned, ntris */
  int32_t *wind;  /* owned, ntris */
} g2_cdt;
void g2_cdt_free(g2_cdt *c); /* NULL-safe; zeroes the struct */
op_status g2_cdt_build(const g2_pslg *g, g2_cdt *out, op_error *err);

/* Convex partition (G2D-220..): Hertel-Mehlhorn over the given counter-clockwise
** triangles (3 point indices each). Bit i of fixed[t] set: edge i of triangle t may not
** be removed. Polygons of at most max_verts vertices, each starting at its smallest
** point index, sorted by (first, second) vertex. Polygon p is
** verts[start[p] .. start[p + 1]). */
typedef struct g2_polys {
  size_t npolys;
  uint32_t *start; /* owned, npolys + 1 */
  uint32_t *verts; /* owned */
} g2_polys;
void g2_polys_free(g2_polys *p); /* NULL-safe; zeroes the struct */
op_status g2_partition(const g2_point *pts, size_t npts, const uint32_t *tris,
                       const uint8_t *fixed, size_t ntris, uint32_t max_verts,
                       g2_polys *out, op_error *err);


/* Slice (spec/build2d-tiles.md, T2D-030..T2D-044; ref/build2d/tiles/slice2d.c; 2D TILES): tile lines,
** the arrangement with cut lines, the triangulation, triangles to tiles, the convex
** partition per tile. Tile lines along x are the grid values of the world values
** fl(origin_x + fl(k * tile_world)) (T2D-030), along y the same from origin_y. */
typedef struct g2_tile_polys {
  int64_t col, row;   /* tile coordinates (x, z of the format) */
  int64_t line[4];    /* grid lines: x low, y low, x high, y high */
  g2_point *pts;      /* owned: used points in (x, y) order */
  size_t npts;
  g2_polys polys;     /* indices into pts */
} g2_tile_polys;
typedef struct g2_slice {
  g2_tile_polys *tiles; /* owned; ascending (row, col) */
  size_t ntiles;
} g2_slice;
void g2_slice_free(g2_slice *s); /* NULL-safe; zeroes the struct */
/* The grid value of tile line k (T2D-030); 0 and *ok = 0 when |value| > 2^21. */
int64_t g2_tile_line(double origin, double tile_world, int64_t k, int snap_bits, int *ok);
op_status g2_slice_region(const g2_region *r, const double origin[2], double tile_world,
                          double cell_size, uint32_t max_verts, g2_slice *out,
                          op_error *err);

#endif
