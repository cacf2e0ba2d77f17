/*
** g2d.h -- internal 2D geometry types of the 2D builder (spec/build2d-geometry.md):
** the snap grid (G2D-001..), the planar straight-line graph (PSLG), the canonical Region,
** the snap-rounded arrangement, and the Region operations (from outlines, from a tile
** map, difference, shrink), the triangulation and the convex partition. Implemented by
** the .c files of ref/build2d/geometry/; used from above by ref/build2d/tiles/ (whose Slice
** stage, t2_, is declared in ref/build2d/tiles/slice2d.h) and ref/build3d/polys/ (the detail
** mesh's CDT). Internal: not public API.
**
** Stability: additive changes only.
*/
#ifndef OP_G2D_H
#define OP_G2D_H

#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"
#include "onepath_geometry2d.h"

/* ------------------------------------------------------------------ snap grid */

/* G2D-001..G2D-005: the grid unit is 2^-snap_bits world units, snap_bits in [0, 16];
** world coordinates are finite with |x| <= 2^21, so grid coordinates are integers with
** |g| <= 2^37. Products of two coordinate differences need up to 2^77: __int128. */
#define G2_SNAP_BITS_MAX 16
#define G2_WORLD_MAX 2097152.0 /* 2^21 */
#define G2_GRID_MAX ((int64_t)1 << 37)

__extension__ typedef __int128 g2_i128; /* exact products (G2D-004) */

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

/* Room for element n of a growing array v of *cap elements of `size` bytes (the one
** helper of the 2D builder's growing lists): v itself when n < *cap, else v reallocated
** to twice *cap (`first` when *cap is 0) and *cap updated. NULL when out of memory (v and
** *cap unchanged; v still owned by the caller). Each typed list keeps a four-line push
** over it (ptvec, segvec in arrange.c; ringbuf, pslgbuf in region.c): the shape repeats
** because C has no generic element type, not the logic. */
void *g2_grow(void *v, size_t *cap, size_t n, size_t size, size_t first);

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
/* The same with G2D-058's maximum of passes lowered to max_passes (1 .. 64; the slicer's
** arrangement under a host's limits.max_snap_passes, T2D-083). */
op_status g2_arrange_limited(const g2_point *pts, size_t npts, const g2_seg *segs,
                             size_t nsegs, int max_passes, g2_pslg *out, op_error *err);

/* ------------------------------------------------------------------ Region */

/* g2_point, g2_region, g2_outline, g2_region_free, g2_region_from_outlines,
** g2_region_from_tilemap, g2_region_difference, g2_region_shrink, g2_polys and
** g2_polys_free are declared in include/onepath_geometry2d.h (kit tier). */

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
  uint64_t made;  /* triangles created while building, flips included: the work count
                  ** that tests bound (informative, G2D section 6.3) */
} g2_cdt;
void g2_cdt_free(g2_cdt *c); /* NULL-safe; zeroes the struct */
op_status g2_cdt_build(const g2_pslg *g, g2_cdt *out, op_error *err);
/* Tests only (spec/conformance.md CONF-059): g2_region_from_tilemap with its corner lines
** and edge lists (not its arrangement) counted on al. */
op_status g2_region_from_tilemap_counted(const uint8_t *cells, int32_t width, int32_t height,
                                         double ox, double oy, double cell_size,
                                         int snap_bits, op_alloc_count *al, g2_region *out,
                                         op_error *err);
/* Tests only (spec/conformance.md CONF-059): the same, every allocation counted on al. */
op_status g2_cdt_build_counted(const g2_pslg *g, op_alloc_count *al, g2_cdt *out,
                               op_error *err);

/* Convex partition (G2D-220..): Hertel-Mehlhorn over the given counter-clockwise
** triangles (3 point indices each). Bit i of fixed[t] set: edge i of triangle t may not
** be removed. Polygons of at most max_verts vertices, each starting at its smallest
** point index, sorted by (first, second) vertex. Polygon p is
** verts[start[p] .. start[p + 1]). */
/* (g2_polys and g2_polys_free: include/onepath_geometry2d.h) */
op_status g2_partition(const g2_point *pts, size_t npts, const uint32_t *tris,
                       const uint8_t *fixed, size_t ntris, uint32_t max_verts,
                       g2_polys *out, op_error *err);

#endif
