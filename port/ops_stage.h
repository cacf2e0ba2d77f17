/*
** ops_stage.h -- helpers shared by the per-tile stage ops (port/ops_contours.c,
** port/ops_polys.c, port/ops_pipeline.c).
*/
#ifndef OPD_OPS_STAGE_H
#define OPD_OPS_STAGE_H

#include "dispatch.h"
#include "onepath_build3d.h"

/* Prefixes err->field with `pre` (the argument that holds the failing member). */
void opd_prefix_field(op_error *err, const char *pre);

/* REG-223 / POLY-091 arguments: preset, partition?, soup | level, tile. On success *m
** holds the triangles (the caller frees them as it frees a loaded soup). */
op_status opd_stage_tile_args(const opj *args, op_settings *s, op_trimesh *m, int32_t *tx,
                              int32_t *tz, op_error *err);

#endif
