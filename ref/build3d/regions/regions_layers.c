/*
** regions_layers.c -- the layer partition (spec/build3d-regions.md section 4): layers
** from an area-blind sweep (REG-070 .. REG-078), then regions = connected spans of one
** area within one layer (REG-080 .. REG-083), then island removal and numbering.
*/
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "build3d/regions/regions.h"

op_status op_regions_layer_assign(const op_chf *chf, uint16_t *layer, uint32_t *nlayers,
                                  op_error *err) {
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "null", "no compact heightfield given");
  if (!layer || !nlayers) return op_fail(err, OP_E_ARGUMENT, "layer", "null", "no output given");
  uint32_t n = chf->nspans, n1 = n ? n : 1;
  op_status st = OP_OK;
  uint32_t nids = 1, nl = 0;
  uint32_t *lab = calloc(n1, sizeof *lab);
  uint32_t *queue = NULL, *lid = NULL, *map = NULL;
  opr_set *adj = NULL, *ovl = NULL, fl = {0};
  int64_t step[4];
  if (!lab) return opc_nomem(err, "memory");
  opr_col_steps(chf, step);
  /* REG-071: the area-blind sweep over the whole grid (no ring). */
  st = opr_sweep(chf, 0, 1, lab, &nids, err);
  if (st != OP_OK) goto done;
  adj = calloc(nids, sizeof *adj);
  ovl = calloc(nids, sizeof *ovl);
  queue = malloc(sizeof *queue * nids);
  lid = calloc(nids, sizeof *lid);
  map = calloc(nids + 1, sizeof *map);
  if (!adj || !ovl || !queue || !lid || !map) { st = opc_nomem(err, "memory"); goto done; }
  /* REG-072: adjacency through links; REG-073: overlap in a column. */
  for (int32_t z = 0; z < chf->grid.depth; z++)
    for (int32_t x = 0; x < chf->grid.width; x++) {
      size_t c = (size_t)z * (size_t)chf->grid.width + (size_t)x;
      uint32_t b = chf->cell_index[c], e = b + chf->cell_count[c];
      for (uint32_t i = b; i < e; i++) {
        if (!lab[i]) continue;
        for (int d = 0; d < 4; d++) {
          uint32_t j = opr_nei(chf, step, i, c, d);
          if (j == OP_HF_NONE || !lab[j] || lab[j] == lab[i]) continue;
          if (!opr_set_add(&adj[lab[i]], lab[j]) || !opr_set_add(&adj[lab[j]], lab[i])) {
            st = opc_nomem(err, "memory");
            goto done;
          }
        }
        for (uint32_t k = i + 1; k < e; k++)
          if (lab[k] && lab[k] != lab[i])
            if (!opr_set_add(&ovl[lab[i]], lab[k]) || !opr_set_add(&ovl[lab[k]], lab[i])) {
              st = opc_nomem(err, "memory");
              goto done;
            }
      }
    }
  /* REG-074 .. REG-075: layers grow breadth first from the least unassigned sweep. */
  for (uint32_t r = 1; r < nids; r++) {
    if (lid[r]) continue;
    lid[r] = ++nl;
    fl.n = 0;
    for (uint32_t k = 0; k < ovl[r].n; k++)
      if (!opr_set_add(&fl, ovl[r].v[k])) { st = opc_nomem(err, "memory"); goto done; }
    uint32_t head = 0, tail = 0;
    queue[tail++] = r;
    while (head < tail) {
      uint32_t q = queue[head++];
      for (uint32_t k = 0; k < adj[q].n; k++) {
        uint32_t t = adj[q].v[k];
        if (lid[t] || opr_set_has(&fl, t)) continue;
        lid[t] = nl;
        for (uint32_t m = 0; m < ovl[t].n; m++)
          if (!opr_set_add(&fl, ovl[t].v[m])) { st = opc_nomem(err, "memory"); goto done; }
        queue[tail++] = t;
      }
    }
  }
  if (nl > 65535) {
    st = op_fail_i(err, OP_E_LIMIT, "layers", (long long)nl, "more layers than 65535 (REG-077)");
    goto done;
  }
  /* REG-077: layers numbered from 0 in the order of their first span. */
  {
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
      if (lab[i] && !map[lid[lab[i]]]) map[lid[lab[i]]] = ++k;
  }
  for (uint32_t i = 0; i < n; i++) layer[i] = lab[i] ? (uint16_t)(map[lid[lab[i]]] - 1) : 0;
  /* REG-078: a non-walkable span takes the layer of its first walkable neighbour. */
  for (int32_t z = 0; z < chf->grid.depth; z++)
    for (int32_t x = 0; x < chf->grid.width; x++) {
      size_t c = (size_t)z * (size_t)chf->grid.width + (size_t)x;
      for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++) {
        if (lab[i]) continue;
        for (int d = 0; d < 4; d++) {
          uint32_t j = opr_nei(chf, step, i, c, d);
          if (j != OP_HF_NONE && lab[j]) { layer[i] = (uint16_t)(map[lid[lab[j]]] - 1); break; }
        }
      }
    }
  *nlayers = nl;
done:
  if (adj)
    for (uint32_t r = 0; r < nids; r++) free(adj[r].v);
  if (ovl)
    for (uint32_t r = 0; r < nids; r++) free(ovl[r].v);
  free(adj);
  free(ovl);
  free(fl.v);
  free(queue);
  free(lid);
  free(map);
  free(lab);
  return st;
}

op_status opr_layers_from(const op_chf *chf, const uint16_t *layer, int32_t border,
                          uint32_t min_region_area, op_regions *out, op_error *err) {
  op_regions res;
  op_status st = opr_begin(chf, border, OP_PARTITION_LAYERS, &res, err);
  if (st == OP_OK && !layer)
    st = op_fail(err, OP_E_ARGUMENT, "layer", "null", "no layer assignment given");
  if (st != OP_OK) {
    op_regions_free(&res);
    if (out) memset(out, 0, sizeof *out);
    return st;
  }
  uint32_t n = chf->nspans, n1 = n ? n : 1;
  uint32_t *lab = calloc(n1, sizeof *lab);
  uint32_t *par = malloc(sizeof *par * n1);
  uint32_t nids = 1;
  int64_t step[4];
  if (!lab || !par) { st = opc_nomem(err, "memory"); goto done; }
  opr_col_steps(chf, step);
  opr_paint_border(chf, border, lab); /* REG-080 */
  /* REG-080: union of spans joined by a -x or -z link: both walkable, outside the ring,
  ** one area, one layer. */
  for (uint32_t i = 0; i < n; i++) par[i] = i;
  for (int32_t z = 0; z < chf->grid.depth; z++)
    for (int32_t x = 0; x < chf->grid.width; x++) {
      size_t c = (size_t)z * (size_t)chf->grid.width + (size_t)x;
      for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++) {
        if (chf->areas[i] == OP_AREA_NULL || lab[i] == OP_REG_WORK_BORDER) continue;
        static const int dirs[2] = {0, 3};
        for (int k = 0; k < 2; k++) {
          uint32_t j = opr_nei(chf, step, i, c, dirs[k]);
          if (j == OP_HF_NONE || chf->areas[j] != chf->areas[i] || lab[j] == OP_REG_WORK_BORDER ||
              layer[j] != layer[i])
            continue;
          uint32_t a = i, b = j;
          while (par[a] != a) a = par[a] = par[par[a]];
          while (par[b] != b) b = par[b] = par[par[b]];
          if (a != b) { if (a < b) par[b] = a; else par[a] = b; }
        }
      }
    }
  /* REG-082: provisional ids in the order of each component's first span. */
  for (uint32_t i = 0; i < n; i++) {
    if (chf->areas[i] == OP_AREA_NULL || lab[i] == OP_REG_WORK_BORDER) continue;
    uint32_t r = i;
    while (par[r] != r) r = par[r];
    if (r == i) lab[i] = nids++;
    else lab[i] = lab[r];
  }
  st = opr_filter_layered(chf, lab, nids, layer, min_region_area, &res, err);
done:
  free(lab);
  free(par);
  if (st != OP_OK) {
    op_regions_free(&res);
    memset(out, 0, sizeof *out);
    return st;
  }
  *out = res;
  return OP_OK;
}

op_status op_regions_layers(const op_chf *chf, int32_t border, uint32_t min_region_area,
                            op_regions *out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result given");
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "null", "no compact heightfield given");
  if (border < 0)
    return op_fail_i(err, OP_E_RANGE, "border", (long long)border, "border must be at least 0");
  uint16_t *layer = malloc(sizeof *layer * (chf->nspans ? chf->nspans : 1));
  if (!layer) return opc_nomem(err, "memory");
  uint32_t nl = 0;
  op_status st = op_regions_layer_assign(chf, layer, &nl, err);
  if (st == OP_OK) st = opr_layers_from(chf, layer, border, min_region_area, out, err);
  else memset(out, 0, sizeof *out);
  free(layer);
  return st;
}
