/*
** slice2d.h -- the Slice stage of the 2D builder (internal; not public API): tile lines,
** the arrangement with cut lines, the triangulation, triangles to tiles, the convex
** partition per tile. Normative text: spec/build2d-tiles.md (T2D-030 .. T2D-044).
** Implemented in ref/build2d/tiles/slice2d.c, used by ref/build2d/tiles/build2d.c. Sits over
** the 2D geometry (ref/build2d/geometry/g2d.h), which never includes it.
*/
#ifndef OP_SLICE2D_H
#define OP_SLICE2D_H

#include "build2d/geometry/g2d.h"
#include "onepath_build2d.h"

/* Slice (spec/build2d-tiles.md, T2D-030..T2D-044; ref/build2d/tiles/slice2d.c; 2D TILES): tile lines,
** the arrangement with cut lines, the triangulation, triangles to tiles, the convex
** partition per tile. Tile lines along x are the grid values of the world values
** fl(origin_x + fl(k * tile_world)) (T2D-030), along y the same from origin_y. */
/* t2_tile_polys, t2_slice, t2_slice_free and t2_slice_region are declared in
** include/onepath_geometry2d.h (kit tier), included by g2d.h. */
/* t2_slice_region under a host's limits: the arrangement's maximum of passes lowered to
** max_passes (G2D-058, T2D-083; outside 1 .. 64, as 0: the default 64) and, tests only
** (spec/conformance.md CONF-059), the triangulation's allocations (g2_cdt_build_counted)
** counted on al (NULL counts nothing). */
op_status t2_slice_region_counted(const g2_region *r, const double origin[2],
                                  double tile_world, double cell_size, uint32_t max_verts,
                                  int max_passes, op_alloc_count *al, t2_slice *out,
                                  op_error *err);
/* The grid value of tile line k (T2D-030); 0 and *ok = 0 when |value| > 2^21. */
int64_t t2_tile_line(double origin, double tile_world, int64_t k, int snap_bits, int *ok);

/* The work budget (T2D-080 .. T2D-082): the cut lines of r (T2D-031 .. T2D-033, with their
** errors), then tiles = (X cut lines + 1) x (Z cut lines + 1) against max_tiles and tiles x
** tile_cells^2 against max_cells (both already resolved from their defaults). An empty
** region passes. */
op_status t2_slice_budget(const g2_region *r, const double origin[2], double tile_world,
                          double cell_size, uint32_t tile_cells, uint64_t max_tiles,
                          uint64_t max_cells, op_error *err);

/* T2D-092, T2D-093 (offmesh2d.c): the definitions' slots added to the tiles (ascending row,
** then column) they lie in; *count the slots stored. */
op_status t2_offmesh_attach(const op_settings2d *s, const op_offmesh_link *defs, uint32_t n,
                            op_tile **tiles, size_t ntiles, uint32_t *count, op_error *err);

#endif
