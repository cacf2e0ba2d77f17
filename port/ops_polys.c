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
#include "../ref/build3d/contours/contours.h"
#include "../ref/core/internal.h"
#include "../ref/build3d/polys/polys.h"
#include "../ref/build3d/regions/regions.h"


/* POLY-091 */
static op_status op_polys_build_tile_op(opd_session *ss, const opj *args, opj_w *res,
                                        op_error *err) {
  (void)ss;
  opd_stage t;
  op_pmesh pm;
  memset(&pm, 0, sizeof pm);
  op_bytes b = {NULL, 0};
  op_status st = opd_stage_contours(args, &t, err);
  if (st == OP_OK && t.c) {
    st = op_pmesh_build(&t.cs, &t.c->grid, t.cell.border, t.s.max_verts_per_poly, &pm, err);
    if (st == OP_OK) st = op_pmesh_save(&pm, &b, err);
  }
  if (st == OP_OK) {
    uint32_t portals = 0, links = 0;
    for (size_t i = 0; i < (size_t)pm.npolys * pm.nvp; i++) {
      portals += pm.neis[i] >= 0x8000u;
      links += pm.neis[i] != 0 && pm.neis[i] < 0x8000u;
    }
    opj_w_key(res, "built");
    opj_w_bool(res, t.c != NULL);
    opj_w_key(res, "ncontours");
    opj_w_int(res, t.cs.ncontours);
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
  opd_stage_free(&t);
  return st;
}

const opd_op opd_ops_polys[] = {
    {"polys.build_tile", op_polys_build_tile_op},
    {NULL, NULL},
};
