/*
** ops_contours.c -- protocol operation of the contour stage (spec/build3d-regions.md
** section 6, REG-223): contours.build_tile. Table opd_ops_contours.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "ops_stage.h"
#include "onepath_build3d.h"
#include "onepath_stages.h"

/* REG-223 */
static op_status op_contours_build_tile_op(opd_session *ss, const opj *args, opj_w *res,
                                           op_error *err) {
  opd_stage ts;
  op_stage_tile *t = &ts.t;
  op_bytes b = {NULL, 0};
  /* the stages up to the regions, then REG-200 as op_stage_run_tile runs it (stages.c),
  ** its allocations counted on the session's counter (CONF-059; NULL unless armed) */
  op_status st = opd_stage_run(args, OP_STAGE_REGIONS, &ts, err);
  if (st == OP_OK && t->chf)
    st = op_contours_build_counted(t->chf, t->regions.reg, &t->params.contours, opd_alloc(ss),
                                   &t->contours, err);
  if (st == OP_OK && t->chf) st = op_contours_save(&t->contours, &b, err);
  if (st == OP_OK) {
    opj_w_key(res, "built");
    opj_w_bool(res, t->chf != NULL);
    opj_w_key(res, "nregions");
    opj_w_int(res, t->chf ? t->regions.nregions : 0);
    opj_w_key(res, "nloops");
    opj_w_int(res, t->contours.nloops);
    opj_w_key(res, "ncontours");
    opj_w_int(res, t->contours.ncontours);
    opj_w_key(res, "nverts");
    opj_w_int(res, t->contours.nverts);
    opj_w_key(res, "unjoined");
    opj_w_int(res, t->contours.unjoined_holes);
    opj_w_key(res, "bytes");
    opj_w_hexbytes(res, b.data, b.len);
  }
  op_bytes_free(&b);
  opd_stage_free(&ts);
  return st;
}

const opd_op opd_ops_contours[] = {
    {"contours.build_tile", op_contours_build_tile_op},
    {NULL, NULL},
};
