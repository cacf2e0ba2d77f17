/*
** layerfirst.c -- layer-first tiles (spec/build3d-runtime.md section 7, RT-080 .. RT-087):
** the layers of a tile on its eroded walkability (RT-081, RT-082), the view of one layer
** (RT-083), its regions and contours (RT-084, REG-200) and its tile (RT-085). The
** two-pass pipeline of RT-086 that calls these is in pipeline.c.
*/
#include <stdlib.h>
#include <string.h>

#include "build3d/polys/assembly.h"
#include "core/internal.h"
#include "build3d/pipeline/pipeline_internal.h"
#include "build3d/polys/polys.h"
#include "build3d/spans/spans_internal.h"

#define LF_MAX_LAYERS 256u /* RT-082: a tile's layer is at most 255 (FMT-002) */

/* RT-081, RT-082: REG-071 .. REG-078 on chf's current walkability (the caller passes the
** heightfield after erosion, before any volume or obstacle); the count is the greatest
** layer plus 1, 1 when no span is walkable. */
op_status opl_base_layers(const op_chf *chf, uint16_t **layer, uint32_t *nlayers,
                            op_error *err) {
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "NULL", "no compact heightfield given");
  if (!layer || !nlayers)
    return op_fail(err, OP_E_ARGUMENT, "layer", "NULL", "no output given");
  uint16_t *l = malloc((chf->nspans ? chf->nspans : 1) * sizeof *l);
  if (!l) return opc_nomem(err, "layers");
  uint32_t n = 0;
  op_status st = op_regions_layer_assign(chf, l, &n, err); /* REG-071 .. REG-078 */
  if (st == OP_OK && n > LF_MAX_LAYERS) /* RT-082 */
    st = op_fail_i(err, OP_E_LIMIT, "layers", (long long)n,
                   "a tile has more than 256 layers (RT-082; a tile's layer is at most 255, "
                   "FMT-002)");
  if (st != OP_OK) {
    free(l);
    return st;
  }
  *layer = l;
  *nlayers = n ? n : 1;
  return OP_OK;
}

static op_chf *view_alloc(const op_chf *chf, uint32_t nv) {
  size_t ncol = (size_t)chf->grid.width * (size_t)chf->grid.depth;
  op_chf *v = calloc(1, sizeof *v);
  if (!v) return NULL;
  v->grid = chf->grid;
  v->walkable_height = chf->walkable_height;
  v->walkable_climb = chf->walkable_climb;
  v->nspans = nv;
  /* not zeroed: view_fill and view_links write every element */
  v->cell_index = malloc((ncol ? ncol : 1) * sizeof *v->cell_index);
  v->cell_count = malloc((ncol ? ncol : 1) * sizeof *v->cell_count);
  v->spans = malloc((nv ? nv : 1) * sizeof *v->spans);
  v->areas = malloc((nv ? nv : 1) * sizeof *v->areas);
  if (!v->cell_index || !v->cell_count || !v->spans || !v->areas) {
    op_chf_free(v);
    return NULL;
  }
  return v;
}

/* RT-083: the spans of layer L in column order; vidx[tile span] = view span. */
static void view_fill(const op_chf *chf, const uint16_t *layer, uint32_t L, op_chf *v,
                      uint32_t *map, uint32_t *vidx) {
  size_t ncol = (size_t)chf->grid.width * (size_t)chf->grid.depth;
  uint32_t k = 0;
  for (size_t c = 0; c < ncol; c++) {
    v->cell_index[c] = k;
    for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++) {
      if (layer[i] != L) continue;
      vidx[i] = k;
      map[k] = i;
      v->spans[k] = chf->spans[i];
      v->areas[k] = chf->areas[i];
      k++;
    }
    v->cell_count[c] = (uint8_t)(k - v->cell_index[c]);
  }
}

/* RT-083: a link to a span of layer L is re-indexed in the view's column; any other link
** is dropped (NOT_CONNECTED). */
static void view_links(const op_chf *chf, const uint16_t *layer, uint32_t L, op_chf *v,
                       const uint32_t *map, const uint32_t *vidx) {
  int64_t step[4]; /* column index of the neighbour in direction d minus the column's */
  for (int d = 0; d < 4; d++) step[d] = (int64_t)opsp_dir_dz[d] * chf->grid.width + opsp_dir_dx[d];
  const int64_t ncol = (int64_t)chf->grid.width * chf->grid.depth;
  const uint32_t *ci = chf->cell_index, *vci = v->cell_index;
  for (int64_t c = 0; c < ncol; c++)
    for (uint32_t k = vci[c], e = k + v->cell_count[c]; k < e; k++) {
      const op_chf_span *s = &chf->spans[map[k]];
      uint8_t link[4];
      for (int d = 0; d < 4; d++) {
        link[d] = OP_CHF_NOT_CONNECTED;
        if (s->link[d] != OP_CHF_NOT_CONNECTED) { /* a linked neighbour lies inside the grid */
          int64_t nc = c + step[d];
          uint32_t j = ci[nc] + s->link[d];
          if (layer[j] == L) link[d] = (uint8_t)(vidx[j] - vci[nc]);
        }
      }
      memcpy(v->spans[k].link, link, sizeof link);
    }
}

op_status opl_layer_view(const op_chf *chf, const uint16_t *layer, uint32_t L,
                           op_chf **view, uint32_t **map, op_error *err) {
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "NULL", "no compact heightfield given");
  if (!layer) return op_fail(err, OP_E_ARGUMENT, "layer", "NULL", "no layers given");
  if (!view || !map) return op_fail(err, OP_E_ARGUMENT, "view", "NULL", "no output given");
  uint32_t nv = 0;
  for (uint32_t i = 0; i < chf->nspans; i++) nv += layer[i] == L;
  op_chf *v = view_alloc(chf, nv);
  uint32_t *m = malloc((nv ? nv : 1) * sizeof *m);
  uint32_t *vidx = malloc((chf->nspans ? chf->nspans : 1) * sizeof *vidx);
  if (!v || !m || !vidx) {
    op_chf_free(v);
    free(m);
    free(vidx);
    return opc_nomem(err, "view");
  }
  view_fill(chf, layer, L, v, m, vidx);
  view_links(chf, layer, L, v, m, vidx);
  free(vidx);
  *view = v;
  *map = m;
  return OP_OK;
}

/* RT-084: REG-080, REG-082, REG-083 on the view with every span in one layer (the layer
** array all 0) is exactly RT-084's rule: the view's links are its only links, so the
** join and island tests (REG-100 .. REG-105) read the view's links. Then REG-200. */
op_status opl_layer_contours(const opl_ctx *c, const op_chf *view, op_regions *rg,
                               op_contour_set *cs, op_error *err) {
  if (!rg || !cs) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "no output given");
  memset(rg, 0, sizeof *rg);
  memset(cs, 0, sizeof *cs);
  if (!c || !view) return op_fail(err, OP_E_ARGUMENT, "view", "NULL", "no layer view given");
  uint16_t *zero = calloc(view->nspans ? view->nspans : 1, sizeof *zero);
  if (!zero) return opc_nomem(err, "regions");
  op_status st = opr_layers_from(view, zero, c->params.border, c->params.min_region_area, rg,
                                 err); /* RT-084 */
  free(zero);
  if (st == OP_OK)
    st = op_contours_build(view, rg->reg, &c->params.contours, cs, err); /* REG-200 */
  if (st != OP_OK) {
    op_regions_free(rg);
    op_contour_set_free(cs);
    memset(rg, 0, sizeof *rg);
    memset(cs, 0, sizeof *cs);
  }
  return st;
}

/* RT-085: polygons (POLY-011; the view's contours only, so vertices weld within the
** layer), detail (POLY-200) and the tile with layer L, y0 the grid's (POLY-210). */
op_status opl_layer_tile(const opl_ctx *c, const op_chf *view, const op_contour_set *cs,
                           int32_t tx, int32_t tz, int32_t L, op_tile **tile,
                           op_error *err) {
  if (!tile) return op_fail(err, OP_E_ARGUMENT, "tile", "NULL", "no output given");
  *tile = NULL;
  if (!c || !view || !cs)
    return op_fail(err, OP_E_ARGUMENT, "view", "NULL", "no layer view given");
  op_pmesh pm;
  op_detail_mesh dm;
  memset(&pm, 0, sizeof pm);
  memset(&dm, 0, sizeof dm);
  op_status st = op_pmesh_build(cs, &view->grid, c->params.border, c->params.max_verts_per_poly,
                                &pm, err); /* POLY-020 */
  if (st == OP_OK) st = op_detail_build(&c->s, &pm, view, &dm, err); /* POLY-200 */
  if (st == OP_OK)
    st = op_tile_assemble(&pm, &dm, tx, tz, L, &c->tiling, view->grid.origin[1], tile,
                          err); /* POLY-210, layer L (POLY-217) */
  op_detail_free(&dm);
  op_pmesh_free(&pm);
  return st;
}

/* RT-083 .. RT-085 for layer L of a tile's base with its first-build areas: the unit's
** view, map, regions, contours and tile. On failure *u is zeroed. */
op_status opl_layer_unit(const opl_ctx *c, const opl_base *b, int32_t tx, int32_t tz,
                           uint32_t L, opl_unit *u, op_error *err) {
  if (!u) return op_fail(err, OP_E_ARGUMENT, "unit", "NULL", "no output given");
  memset(u, 0, sizeof *u);
  if (!c || !b || !b->chf || !b->layer)
    return op_fail(err, OP_E_ARGUMENT, "base", "NULL", "no layered tile given");
  op_status st = opl_layer_view(b->chf, b->layer, L, &u->view, &u->map, err); /* RT-083 */
  if (st == OP_OK) st = opl_layer_contours(c, u->view, &u->rg, &u->cs, err); /* RT-084 */
  if (st == OP_OK)
    st = opl_layer_tile(c, u->view, &u->cs, tx, tz, (int32_t)L, &u->tile, err); /* RT-085 */
  if (st != OP_OK) opl_unit_free(u);
  return st;
}
