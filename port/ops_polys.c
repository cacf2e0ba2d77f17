/*
** ops_polys.c -- protocol operation of the polygon stage (spec/build3d-polys.md
** section 3, POLY-091): polys.build_tile. Table opd_ops_polys.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "onepath_build3d.h"
#include "../ref/contours.h"
#include "../ref/internal.h"
#include "../ref/polys.h"
#include "../ref/regions.h"

/* Prefixes err->field with `pre` (the argument that holds the failing member). */
static void prefix_field(op_error *err, const char *pre) {
  if (!err) return;
  char f[sizeof err->field];
  snprintf(f, sizeof f, "%s%.80s", pre, err->field);
  memcpy(err->field, f, sizeof f);
}

/* POLY-091: preset, partition, soup | level, tile (as REG-223). */
static op_status dec_args(const opj *args, op_settings *s, op_trimesh *m, int32_t *tx,
                          int32_t *tz, op_error *err) {
  const opj *p = opj_get(args, "preset");
  if (!p || p->type != OPJ_STR) return opd_arg_error(err, "preset", "must be a preset name");
  op_status st = op_settings_preset(p->str, s, err);
  if (st != OP_OK) {
    if (err) snprintf(err->field, sizeof err->field, "preset");
    return st;
  }
  const opj *jp = opj_get(args, "partition");
  if (jp && jp->type != OPJ_NULL) {
    if (jp->type != OPJ_STR) return opd_arg_error(err, "partition", "must be a partition name");
    if (!strcmp(jp->str, "watershed")) s->partition = OP_PARTITION_WATERSHED;
    else if (!strcmp(jp->str, "monotone")) s->partition = OP_PARTITION_MONOTONE;
    else if (!strcmp(jp->str, "layers")) s->partition = OP_PARTITION_LAYERS;
    else return opd_arg_error(err, "partition", "watershed, monotone or layers");
  }
  const opj *js = opj_get(args, "soup"), *jl = opj_get(args, "level");
  if ((js != NULL) == (jl != NULL))
    return opd_arg_error(err, "soup", "give exactly one of soup and level");
  if (js) {
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (opj_hexbytes(js, &bytes, &len))
      return opd_arg_error(err, "soup", "must be hex bytes of a triangle soup");
    st = op_soup_load(bytes, len, m, err);
    free(bytes);
    if (st != OP_OK) prefix_field(err, "soup.");
  } else {
    const opj *n = opj_get(jl, "name");
    uint64_t seed;
    int64_t size;
    if (!n || n->type != OPJ_STR) return opd_arg_error(err, "level.name", "must be a string");
    if (opj_u64hex(opj_get(jl, "seed"), &seed))
      return opd_arg_error(err, "level.seed", "must be 16 lower-case hex digits");
    if (opj_int(opj_get(jl, "size"), 0, UINT32_MAX, &size))
      return opd_arg_error(err, "level.size", "must be an integer");
    st = op_level_generate(n->str, seed, (uint32_t)size, s, m, err);
    if (st != OP_OK) prefix_field(err, "level.");
  }
  if (st != OP_OK) return st;
  int64_t x = 0, z = 0;
  const opj *jt = opj_get(args, "tile");
  if (!jt || jt->type != OPJ_ARR || jt->n != 2 || opj_int(jt->items[0], INT32_MIN, INT32_MAX, &x) ||
      opj_int(jt->items[1], INT32_MIN, INT32_MAX, &z))
    return opd_arg_error(err, "tile", "must be [tx, tz], two integers");
  *tx = (int32_t)x;
  *tz = (int32_t)z;
  return OP_OK;
}

/* POLY-091 */
static op_status op_polys_build_tile_op(opd_session *ss, const opj *args, opj_w *res,
                                        op_error *err) {
  (void)ss;
  op_settings s;
  op_trimesh m;
  memset(&m, 0, sizeof m);
  int32_t tx = 0, tz = 0;
  op_status st = dec_args(args, &s, &m, &tx, &tz, err);
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
