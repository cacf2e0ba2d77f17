/*
** ops_stage.h -- helpers shared by the per-tile stage ops (port/ops_contours.c,
** port/ops_polys.c, port/ops_pipeline.c).
*/
#ifndef OPD_OPS_STAGE_H
#define OPD_OPS_STAGE_H

#include "dispatch.h"
#include "onepath_build3d.h"
#include "onepath_stages.h"

/* Prefixes err->field with `pre` (the argument that holds the failing member). */
void opd_prefix_field(op_error *err, const char *pre);

/* REG-223 / POLY-091 arguments: preset, partition?, soup | level, tile. On success *m
** holds the triangles (the caller frees them as it frees a loaded soup). */
op_status opd_stage_tile_args(const opj *args, op_settings *s, op_trimesh *m, int32_t *tx,
                              int32_t *tz, op_error *err);

/* One tile of the args taken through the stages (op_stage_run_tile) for the per-tile
** stage ops: the state each op reads its answer from. t.chf is NULL when the tile is not
** built (SPAN-182); then every later artifact stays empty. */
typedef struct opd_stage {
  op_settings s;
  op_trimesh m;    /* the args' triangles */
  op_stage_tile t;
} opd_stage;

/* Decodes the args (opd_stage_tile_args) and runs the tile's stages up to `last`
** (op_stage_run_tile: stages 1-3 SPAN-180, regions REG-005, contours REG-200, polygons
** POLY-020, detail POLY-200). Always leaves *st ready for opd_stage_free, also on failure. */
op_status opd_stage_run(const opj *args, op_stage last, opd_stage *st, op_error *err);
void opd_stage_free(opd_stage *st);

#endif
