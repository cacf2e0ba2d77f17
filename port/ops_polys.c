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
#include "onepath_stages.h"

/* POLY-091 */
static op_status op_polys_build_tile_op(opd_session *ss, const opj *args, opj_w *res,
                                        op_error *err) {
  (void)ss;
  opd_stage ts;
  const op_stage_tile *t = &ts.t;
  const op_pmesh *pm = &t->pmesh;
  op_bytes b = {NULL, 0};
  op_status st = opd_stage_run(args, OP_STAGE_POLYS, &ts, err);
  if (st == OP_OK && t->chf) st = op_pmesh_save(pm, &b, err);
  if (st == OP_OK) {
    uint32_t portals = 0, links = 0;
    for (size_t i = 0; i < (size_t)pm->npolys * pm->nvp; i++) {
      portals += pm->neis[i] >= 0x8000u;
      links += pm->neis[i] != 0 && pm->neis[i] < 0x8000u;
    }
    opj_w_key(res, "built");
    opj_w_bool(res, t->chf != NULL);
    opj_w_key(res, "ncontours");
    opj_w_int(res, t->contours.ncontours);
    opj_w_key(res, "nverts");
    opj_w_int(res, pm->nverts);
    opj_w_key(res, "npolys");
    opj_w_int(res, pm->npolys);
    opj_w_key(res, "portals");
    opj_w_int(res, portals);
    opj_w_key(res, "links");
    opj_w_int(res, links);
    opj_w_key(res, "untriangulated");
    opj_w_int(res, pm->untriangulated);
    opj_w_key(res, "bytes");
    opj_w_hexbytes(res, b.data, b.len);
  }
  op_bytes_free(&b);
  opd_stage_free(&ts);
  return st;
}

const opd_op opd_ops_polys[] = {
    {"polys.build_tile", op_polys_build_tile_op},
    {NULL, NULL},
};
