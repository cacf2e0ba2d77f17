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
  opd_stage ts;
  op_stage_tile *t = &ts.t;
  const op_pmesh *pm = &t->pmesh;
  op_bytes b = {NULL, 0};
  /* the stages up to the contours, then POLY-020 as op_stage_run_tile runs it (stages.c),
  ** its allocations counted on the session's counter (CONF-059; NULL unless armed) */
  op_status st = opd_stage_run(args, OP_STAGE_CONTOURS, &ts, err);
  if (st == OP_OK && t->chf)
    st = op_pmesh_build_counted(&t->contours, &t->chf->grid, t->params.border,
                                t->params.max_verts_per_poly, opd_alloc(ss), &t->pmesh, err);
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
