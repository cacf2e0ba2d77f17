/*
** stages.c -- the stages of one tile in order (kit tier, include/onepath_stages.h): the
** parameters of the per-tile stages derived from the settings in one place, and one tile
** of a soup build taken through spans, regions, contours, polygons and detail.
** Normative text: spec/build3d-polys.md section 5 (POLY-223, the general path of one
** tile), spec/build3d-spans.md (SPAN-020 .. SPAN-025, SPAN-180, SPAN-181),
** spec/build3d-regions.md (REG-005, REG-200), spec/build3d-runtime.md (RT-010).
** The pipeline (pipeline.c, layerfirst.c) and the protocol server use these, so the
** sequence and its parameters exist once.
*/
#include <assert.h>
#include <string.h>

#include "core/internal.h"
#include "build3d/spans/obstacles.h"
#include "build3d/pipeline/pipeline_internal.h"

/* The one derivation of the stage parameters from valid settings s and their cell values
** c (SPAN-020 .. SPAN-025). */
void opl_stage_params_fill(const op_settings *s, const op_cell_settings *c,
                           op_stage_params *out) {
  assert(s && c && out);
  memset(out, 0, sizeof *out);
  out->partition = s->partition;                 /* REG-005 */
  out->border = c->border;                       /* SPAN-024 */
  out->min_region_area = s->min_region_area;
  out->merge_region_area = s->merge_region_area;
  out->contours.border = c->border;              /* REG-200 */
  out->contours.max_error = s->max_simplification_error;
  out->contours.max_edge_len = c->max_edge_len;  /* SPAN-025 */
  out->max_verts_per_poly = s->max_verts_per_poly; /* POLY-020 */
}

op_status op_stage_params_derive(const op_settings *s, op_stage_params *out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  memset(out, 0, sizeof *out);
  op_cell_settings c;
  op_status st = op_settings_derive(s, &c, err); /* SPAN-030, SPAN-020 .. SPAN-025 */
  if (st == OP_OK) opl_stage_params_fill(s, &c, out);
  return st;
}

/* POLY-223 steps 2 to 5 on chf (borrowed, not changed) up to `last`: regions (REG-005),
** contours (REG-200), polygons (POLY-020), detail (POLY-200) into t's artifacts (t->chf
** is not touched). s is read by the detail stage only. On failure the artifacts made so
** far stay in t for the caller to free. */
op_status opl_stages_on(const op_settings *s, const op_chf *chf, op_stage last,
                        op_stage_tile *t, op_error *err) {
  assert(s && chf && t);
  const op_stage_params *p = &t->params;
  op_status st = OP_OK;
  if (last >= OP_STAGE_REGIONS) /* REG-005 */
    st = op_regions_build(chf, p->partition, p->border, p->min_region_area,
                          p->merge_region_area, &t->regions, err);
  if (st == OP_OK && last >= OP_STAGE_CONTOURS) /* REG-200 */
    st = op_contours_build(chf, t->regions.reg, &p->contours, &t->contours, err);
  if (st == OP_OK && last >= OP_STAGE_POLYS) /* POLY-020 */
    st = op_pmesh_build(&t->contours, &chf->grid, p->border, p->max_verts_per_poly, &t->pmesh,
                        err);
  if (st == OP_OK && last >= OP_STAGE_DETAIL) /* POLY-200 */
    st = op_detail_build(s, &t->pmesh, chf, &t->detail, err);
  return st;
}

/* SPAN-181, SPAN-180, RT-010: the tile's compact heightfield with the settings' volumes
** and Obstacles, NULL when the tile is not built (SPAN-182). */
static op_status spans_tile(const op_settings *s, const op_soup *soup, const op_cell_settings *c,
                            int32_t tx, int32_t tz, op_chf **out, op_error *err) {
  double o[3], ymax;
  op_status st = op_soup_frame(soup, o, &ymax, err); /* SPAN-181 */
  if (st == OP_OK) st = op_spans_build_tile(s, soup, o, o[1], ymax, tx, tz, out, err);
  if (st == OP_OK && *out && s->nobstacles) /* RT-010 */
    st = opob_chf_mark(*out, s->obstacles, s->nobstacles, c->walkable_radius, NULL, err);
  return st;
}

op_status op_stage_run_tile(const op_settings *s, const op_soup *soup, int32_t tx, int32_t tz,
                            op_stage last, op_stage_tile *out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  memset(out, 0, sizeof *out);
  if (!soup) return op_fail(err, OP_E_ARGUMENT, "soup", "NULL", "a soup is required");
  if (last < OP_STAGE_SPANS || last > OP_STAGE_DETAIL)
    return op_fail_i(err, OP_E_ARGUMENT, "last", (long long)last, "not a stage");
  op_status st = op_settings_derive(s, &out->cell, err); /* SPAN-030 */
  if (st != OP_OK) return st;
  opl_stage_params_fill(s, &out->cell, &out->params);
  if (last >= OP_STAGE_DETAIL) st = op_detail_check(s, err); /* POLY-202 */
  if (st == OP_OK) st = spans_tile(s, soup, &out->cell, tx, tz, &out->chf, err);
  if (st == OP_OK && out->chf) st = opl_stages_on(s, out->chf, last, out, err);
  return st;
}

void op_stage_tile_free(op_stage_tile *t) {
  if (!t) return;
  op_detail_free(&t->detail);
  op_pmesh_free(&t->pmesh);
  op_contour_set_free(&t->contours);
  op_regions_free(&t->regions);
  op_chf_free(t->chf);
  memset(t, 0, sizeof *t);
}
