/*
** ops_stage.h -- helpers shared by the per-tile stage ops (port/ops_contours.c,
** port/ops_polys.c, port/ops_pipeline.c).
*/
#ifndef OPD_OPS_STAGE_H
#define OPD_OPS_STAGE_H

#include "dispatch.h"
#include "onepath_build3d.h"
#include "../ref/build3d/contours/contours.h"
#include "../ref/build3d/regions/regions.h"

/* Prefixes err->field with `pre` (the argument that holds the failing member). */
void opd_prefix_field(op_error *err, const char *pre);

/* REG-223 / POLY-091 arguments: preset, partition?, soup | level, tile. On success *m
** holds the triangles (the caller frees them as it frees a loaded soup). */
op_status opd_stage_tile_args(const opj *args, op_settings *s, op_trimesh *m, int32_t *tx,
                              int32_t *tz, op_error *err);

/* One tile taken through spans, regions and contours for the per-tile stage ops: the
** state each op reads its answer from. c is NULL when the tile is not built (SPAN-182);
** then rg and cs stay empty. */
typedef struct opd_stage {
  op_settings s;
  op_cell_settings cell;
  op_trimesh m;
  op_chf *c;
  op_regions rg;
  op_contour_set cs;
} opd_stage;

/* Decodes the args (opd_stage_tile_args) and runs stages 1-3 (SPAN-180), the regions
** (REG-160) and the contours (REG-200) of the tile. Always leaves *t ready for
** opd_stage_free, also on failure. */
op_status opd_stage_contours(const opj *args, opd_stage *t, op_error *err);
void opd_stage_free(opd_stage *t);

#endif
