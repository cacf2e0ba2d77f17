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
#include "../ref/build3d/contours/contours.h"
#include "../ref/core/internal.h"
#include "../ref/build3d/regions/regions.h"


/* REG-223 */
static op_status op_contours_build_tile_op(opd_session *ss, const opj *args, opj_w *res,
                                           op_error *err) {
  (void)ss;
  opd_stage t;
  op_bytes b = {NULL, 0};
  op_status st = opd_stage_contours(args, &t, err);
  if (st == OP_OK && t.c) st = op_contours_save(&t.cs, &b, err);
  if (st == OP_OK) {
    opj_w_key(res, "built");
    opj_w_bool(res, t.c != NULL);
    opj_w_key(res, "nregions");
    opj_w_int(res, t.c ? t.rg.nregions : 0);
    opj_w_key(res, "nloops");
    opj_w_int(res, t.cs.nloops);
    opj_w_key(res, "ncontours");
    opj_w_int(res, t.cs.ncontours);
    opj_w_key(res, "nverts");
    opj_w_int(res, t.cs.nverts);
    opj_w_key(res, "unjoined");
    opj_w_int(res, t.cs.unjoined_holes);
    opj_w_key(res, "bytes");
    opj_w_hexbytes(res, b.data, b.len);
  }
  op_bytes_free(&b);
  opd_stage_free(&t);
  return st;
}

const opd_op opd_ops_contours[] = {
    {"contours.build_tile", op_contours_build_tile_op},
    {NULL, NULL},
};
