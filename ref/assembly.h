/*
** assembly.h -- internal header of the detail mesh and the tile assembler of the 3D build
** (stage 3, part 2): spec/build3d-polys.md sections 4 and 5 (POLY-200 .. POLY-217,
** POLY-250 .. POLY-257).
** Not part of the public API.
*/
#ifndef OP_ASSEMBLY_H
#define OP_ASSEMBLY_H

#include "onepath_build3d.h"
#include "polys.h"

/* The detail mesh of one tile in the format's form (FMT-022 .. FMT-026). All zero and
** NULL when the tile has no detail mesh. Arrays owned. */
typedef struct op_detail_mesh {
  uint32_t ndetail;          /* 0 or npolys */
  op_detail_desc *detail;
  uint32_t nverts;
  float *verts;              /* 3 * nverts, tile-local */
  uint32_t ntris;
  uint8_t *tris;             /* 4 * ntris */
} op_detail_mesh;

#define OP_DETAIL_UNIT 16          /* POLY-204: detail units per cell */
#define OP_DETAIL_MAX_POINTS 128   /* POLY-208: points per polygon (its vertices included) */
#define OP_DETAIL_MAX_EDGE_SEGS 32 /* POLY-206: segments per sampled polygon edge */

/* POLY-202: the detail rule, the pipeline's validation hook: accepts every valid
** setting (sampling is specified); OP_E_ARGUMENT `settings` for NULL only. */
op_status op_detail_check(const op_settings *s, op_error *err);
/* POLY-203: the sample step S in cells: 0 without sampling (DetailSampleDistance <= 0.9),
** else max(1, floor(DetailSampleDistance)). */
int32_t op_detail_step(const op_settings *s);
/* POLY-200 .. POLY-209, POLY-250 .. POLY-257: the detail mesh of the polygon mesh pm on
** chf, the compact heightfield the polygons were built from (may be NULL without
** sampling; only its width and depth are checked). Reads s->detail_sample_distance and
** s->detail_sample_max_error only (OP_E_RANGE by SPAN-030 rows 14, 15); positions use pm's
** map. Each polygon must be strictly convex, counter-clockwise and simple on the tile's own
** cells with rows 0..65535, else OP_E_ARGUMENT `pmesh.polys[p]`. Vertices are tile-local
** with the vertical origin of POLY-212. On failure *out is untouched. */
op_status op_detail_build(const op_settings *s, const op_pmesh *pm, const op_chf *chf,
                          op_detail_mesh *out, op_error *err);
void op_detail_free(op_detail_mesh *d); /* frees the arrays, zeroes *d; NULL-safe */

/* NavTileAssembler (POLY-210 .. POLY-216): the tile (tx, tz, layer) of polygon mesh pm
** with detail mesh dm (NULL: none), on tiling t, row 0 of its grid at world height y0.
** *out is NULL (and OP_OK) when pm has no polygon (POLY-211). */
op_status op_tile_assemble(const op_pmesh *pm, const op_detail_mesh *dm, int32_t tx,
                           int32_t tz, int32_t layer, const op_tiling *t, double y0,
                           op_tile **out, op_error *err);

#endif
