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
#include "contours.h"

#define OP_PMESH_MAX_VERTS 65535u  /* POLY-080: vertices per tile */
#define OP_PMESH_MAX_POLYS 32767u  /* POLY-080: polygons per tile */
#define OP_PMESH_NULL 0xffffu      /* unused vertex slot of a polygon (POLY-070) */

/* ---------------------------------------------------------------- §1 the map */

/* The tile coordinate map (POLY-001 .. POLY-007). Filled by op_tilemap_init; the
** fields are read-only afterwards except y_offset, which the tile assembler may set
** (build3d-polys.md §5 defines the tile's vertical origin). */
typedef struct op_tilemap {
  int32_t width, depth;   /* the tile's own cells on x and z (border excluded) */
  int32_t border;         /* border cells on each side (POLY-002) */
  int32_t cells_across;   /* W = max(bordered width, bordered depth) (POLY-005) */
  int64_t orient_bound;   /* ((W * W) >> 19) + 1, cell areas (POLY-006) */
  double cs, ch;          /* cell size (x, z) and cell height (y), world units */
  double y_offset;        /* world units added to row * ch before rounding (POLY-004);
                          ** 0 from op_tilemap_init */
} op_tilemap;

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

/* ----------------------------------------------------------- §3 the polygons */

/* The polygon mesh of one tile, in cells (POLY-070 .. POLY-077). */
typedef struct op_pmesh {
  op_tilemap map;
  uint32_t nvp;      /* MaxVertsPerPoly, 3..OP_MAX_VERTS_PER_POLY */
  uint32_t nverts;
  int32_t *verts;    /* 3 * nverts: x, y, z tile-local cells */
  uint32_t npolys;
  uint16_t *polys;   /* npolys * nvp: vertex indices, counter-clockwise in (x, z) as
                     ** FMT-017 counts it; OP_PMESH_NULL fills the slots after the last */
  uint16_t *neis;    /* npolys * nvp: neighbour code of edge j (verts[j] -> verts[j+1]):
                     ** 0 wall, k+1 internal polygon k, 0x8000|side portal (POLY-060) */
  uint16_t *regs;    /* npolys: region id of the contour it comes from */
  uint8_t *areas;    /* npolys: area id (1..63) */
  uint16_t *flags;   /* npolys: POLY-076 */
  uint32_t untriangulated; /* contours whose triangulation stopped early (POLY-027) */
} op_pmesh;

/* Number of used slots of polygon p (3..nvp). */
static inline uint32_t op_pmesh_poly_nverts(const op_pmesh *pm, uint32_t p) {
  const uint16_t *v = pm->polys + (size_t)p * pm->nvp;
  uint32_t n = 0;
  while (n < pm->nvp && v[n] != OP_PMESH_NULL) n++;
  return n;
}

/* BuildPolyMesh (POLY-011 .. POLY-090): cs is the contour set of the tile (borrowed),
** grid its bordered heightfield grid (the chf's grid), border and nvp (MaxVertsPerPoly)
** the settings. On failure *out is untouched. */
op_status op_pmesh_build(const op_contour_set *cs, const op_hf_grid *grid, int32_t border,
                         uint32_t nvp, op_pmesh *out, op_error *err);
void op_pmesh_free(op_pmesh *pm); /* frees the arrays and zeroes *pm; NULL-safe */
/* The canonical bytes of a polygon mesh (POLY-090): what checkpoints hash. */
op_status op_pmesh_save(const op_pmesh *pm, op_bytes *out, op_error *err);

#endif
