/*
** polys.h -- internal header of the polygon stage of the 3D build (stage 3, part 1):
** what the polygon files share beyond the public stage types of onepath_stages.h (the
** tile coordinate map and the polygon mesh in cells live there).
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

/* The tile map (op_tilemap and its functions op_tilemap_init, _pos, _xz, _orient: the
** spec's TileMap binding) and the polygon mesh (op_pmesh, op_pmesh_build, ...) are declared
** in onepath_stages.h. */

#endif
