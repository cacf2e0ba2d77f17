/*
** ops_polys.c -- protocol operation of the polygon stage (spec/build3d-polys.md
** section 3, POLY-091): polys.build_tile. Table opd_ops_polys.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "ops_stage.h"
#include "onepath_build3d.h"
#include "../ref/contours.h"
#include "../ref/internal.h"
#include "../ref/polys.h"
#include "../ref/regions.h"


/* POLY-091 */
static op_status op_polys_build_tile_op(opd_session *ss, const opj *args, opj_w *res,
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
  op_pmesh pm;
  memset(&pm, 0, sizeof pm);
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
    if (st == OP_OK)
      st = op_pmesh_build(&cs, &c->grid, cell.border, s.max_verts_per_poly, &pm, err);
    if (st == OP_OK) st = op_pmesh_save(&pm, &b, err);
  }
  if (st == OP_OK) {
    uint32_t portals = 0, links = 0;
    for (size_t i = 0; i < (size_t)pm.npolys * pm.nvp; i++) {
      portals += pm.neis[i] >= 0x8000u;
      links += pm.neis[i] != 0 && pm.neis[i] < 0x8000u;
    }
    opj_w_key(res, "built");
    opj_w_bool(res, c != NULL);
    opj_w_key(res, "ncontours");
    opj_w_int(res, cs.ncontours);
    opj_w_key(res, "nverts");
    opj_w_int(res, pm.nverts);
    opj_w_key(res, "npolys");
    opj_w_int(res, pm.npolys);
    opj_w_key(res, "portals");
    opj_w_int(res, portals);
    opj_w_key(res, "links");
    opj_w_int(res, links);
    opj_w_key(res, "untriangulated");
    opj_w_int(res, pm.untriangulated);
    opj_w_key(res, "bytes");
    opj_w_hexbytes(res, b.data, b.len);
  }
  op_bytes_free(&b);
  op_pmesh_free(&pm);
  op_contour_set_free(&cs);
  op_regions_free(&rg);
  op_chf_free(c);
  op_trimesh_free(&m);
  return st;
}

const opd_op opd_ops_polys[] = {
    {"polys.build_tile", op_polys_build_tile_op},
    {NULL, NULL},
};
