/*
** polys.h -- internal header of the polygon stage of the 3D build (stage 3, part 1):
** the tile coordinate map (cells -> tile-local float32) with its orientation bound,
** and the polygon mesh in cells that the detail mesh and the tile assembler consume.
** Normative text: spec/build3d-polys.md sections 1-3 (clauses POLY-001 .. POLY-090).
** Not part of the public API. Stable: later changes are additive only.
**
** Cell coordinates of the polygon mesh are TILE-LOCAL: the contour stage's bordered
** corner coordinates minus the border (POLY-003), so x in [0, width], z in [0, depth]
** for every vertex, and y is a floor row of the tile's heightfield grid.
*/
#ifndef OP_POLYS_H
#define OP_POLYS_H

#include "onepath_build3d.h"
#include "onepath_stages.h"
#include "build3d/contours/contours.h"

/* The tile map type and the polygon mesh (op_tilemap, op_pmesh, op_pmesh_build, ...) are
** declared in onepath_stages.h. */

/* ---------------------------------------------------------------- §1 the map */

/* POLY-001 .. POLY-006: the map of a tile whose bordered heightfield grid is g (as the
** spans stage builds it) and whose border is `border` cells on every side.
** OP_E_RANGE `Border` when border < 0, OP_E_ARGUMENT `grid.width` / `grid.depth` when a
** side is less than twice the border. */
op_status op_tilemap_init(op_tilemap *m, const op_hf_grid *g, int32_t border, op_error *err);

/* POLY-003, POLY-004: tile-local float32 position of the tile-local cell point
** (x, y, z): out = { f32(x * cs), f32(y_offset + y * ch), f32(z * cs) }, every product
** and sum in binary64, each coordinate rounded once to binary32 (-0 becomes +0). */
void op_tilemap_pos(const op_tilemap *m, int32_t x, int32_t y, int32_t z, float out[3]);
/* The x (or z) coordinate alone: f32(c * cs). */
float op_tilemap_xz(const op_tilemap *m, int32_t c);

/* POLY-007: the sign (-1, 0, +1) of Orient2D(Float32) of the mapped points of tile-local
** cells a, b, c (each { x, z }): the exact cell determinant decides when its magnitude is
** at least m->orient_bound, else op_orient2d_f32 on the mapped positions. Always equal to
** op_orient2d_f32 on the mapped positions for points with 0 <= x, z <= cells_across. */
int op_tilemap_orient(const op_tilemap *m, const int32_t a[2], const int32_t b[2],
                      const int32_t c[2]);

#endif
