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
#include "../ref/contours.h"
#include "../ref/internal.h"
#include "../ref/regions.h"


/* REG-223 */
static op_status op_contours_build_tile_op(opd_session *ss, const opj *args, opj_w *res,
                                           op_error *err) {
  (void)ss;
  op_settings s;
  op_trimesh m;
  memset(&m, 0, sizeof m);
  int32_t tx = 0, tz = 0;
  op_status st = opd_stage_tile_args(args, &s, &m, &tx, &tz, err);
  op_cell_settings cell;
  if (st == OP_OK) st = op_settings_derive(&s, &cell, err);
  op_chf *c = NULL;
  if (st == OP_OK) {
    op_soup soup = op_trimesh_soup(&m);
    double o[3], ymax;
    st = op_soup_frame(&soup, o, &ymax, err);
    if (st == OP_OK) st = op_spans_build_tile(&s, &soup, o, o[1], ymax, tx, tz, &c, err);
  }
  op_regions rg;
  memset(&rg, 0, sizeof rg);
  op_contour_set cs;
  memset(&cs, 0, sizeof cs);
  op_bytes b = {NULL, 0};
  if (st == OP_OK && c)
    st = op_regions_build(c, s.partition, cell.border, s.min_region_area, s.merge_region_area,
                          &rg, err);
  if (st == OP_OK && c) {
    op_contour_params p;
    p.border = cell.border;
    p.max_error = s.max_simplification_error;
    p.max_edge_len = cell.max_edge_len;
    st = op_contours_build(c, rg.reg, &p, &cs, err);
    if (st == OP_OK) st = op_contours_save(&cs, &b, err);
  }
  if (st == OP_OK) {
    opj_w_key(res, "built");
    opj_w_bool(res, c != NULL);
    opj_w_key(res, "nregions");
    opj_w_int(res, c ? rg.nregions : 0);
    opj_w_key(res, "nloops");
    opj_w_int(res, cs.nloops);
    opj_w_key(res, "ncontours");
    opj_w_int(res, cs.ncontours);
    opj_w_key(res, "nverts");
    opj_w_int(res, cs.nverts);
    opj_w_key(res, "unjoined");
    opj_w_int(res, cs.unjoined_holes);
    opj_w_key(res, "bytes");
    opj_w_hexbytes(res, b.data, b.len);
  }
  op_bytes_free(&b);
  op_contour_set_free(&cs);
  op_regions_free(&rg);
  op_chf_free(c);
  op_trimesh_free(&m);
  return st;
}

const opd_op opd_ops_contours[] = {
    {"contours.build_tile", op_contours_build_tile_op},
    {NULL, NULL},
};
