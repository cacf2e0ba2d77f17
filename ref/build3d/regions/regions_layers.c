/*
** regions_layers.c -- the layer partition (spec/build3d-regions.md section 4): layers
** from an area-blind sweep (REG-070 .. REG-078), then regions = connected spans of one
** area within one layer (REG-080 .. REG-083), then island removal and numbering.
**
** Speed-up (not in the spec): relate_sweeps skips a link whose pair of sweep regions is the
** last pair it added in that direction, since adding a member a set holds changes nothing,
** and skips -x links, which always join spans of one sweep region (REG-052 with b = 0).
** The regions of REG-080 are labelled in one pass in span order (the -x and -z neighbours
** come earlier, so they are labelled) with a union-find over labels instead of spans; the
** sets are the same, and their provisional ids may leave gaps, which section 5 allows.
*/
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "build3d/regions/regions.h"

/* ------------------------------------------------------------ layers (REG-070 .. REG-078) */

/* The working state of the layer assignment: sweep labels and, per sweep region, its
** adjacent and overlapping regions and its layer. */
typedef struct lwork {
  const op_chf *chf;
  int64_t step[4];
  uint32_t *lab;   /* nspans: sweep region of each span (0: none) */
  uint32_t nids;   /* sweep regions 1 .. nids - 1 */
  opr_set *adj;    /* nids: adjacent sweep regions (REG-072) */
  opr_set *ovl;    /* nids: overlapping sweep regions (REG-073) */
  uint32_t *queue; /* nids: the breadth-first queue of REG-074 */
  uint32_t *lid;   /* nids: layer of each sweep region, 1-based (0: none yet) */
  uint32_t *map;   /* nids + 1: layer -> its number + 1 (REG-077) */
  opr_set fl;      /* the sweep regions the growing layer overlaps */
  uint32_t nl;     /* layers grown */
} lwork;

static void lwork_free(lwork *w) {
  if (w->adj)
    for (uint32_t r = 0; r < w->nids; r++) free(w->adj[r].v);
  if (w->ovl)
    for (uint32_t r = 0; r < w->nids; r++) free(w->ovl[r].v);
  free(w->adj);
  free(w->ovl);
  free(w->fl.v);
  free(w->queue);
  free(w->lid);
  free(w->map);
  free(w->lab);
}

/* Both directions of a symmetric relation: 0, or -1 (no memory). */
static int add_pair(opr_set *rel, uint32_t a, uint32_t b) {
  return opr_set_add(&rel[a], b) && opr_set_add(&rel[b], a) ? 0 : -1;
}

/* REG-072: adjacency through links; REG-073: overlap in a column. */
static op_status relate_sweeps(lwork *w, op_error *err) {
  const op_chf *chf = w->chf;
  const uint32_t *lab = w->lab;
  uint32_t last_a[4] = {0, 0, 0, 0}, last_b[4] = {0, 0, 0, 0}; /* last pair per direction */
  for (int32_t z = 0; z < chf->grid.depth; z++)
    for (int32_t x = 0; x < chf->grid.width; x++) {
      size_t c = (size_t)z * (size_t)chf->grid.width + (size_t)x;
      uint32_t b = chf->cell_index[c], e = b + chf->cell_count[c];
      for (uint32_t i = b; i < e; i++) {
        if (!lab[i]) continue;
        /* d = 0 (-x) never relates two sweep regions: a walkable span continues the sweep
        ** of its walkable -x neighbour (REG-052 with b = 0), so both have one id. */
        for (int d = 1; d < 4; d++) {
          uint32_t j = opr_nei(chf, w->step, i, c, d);
          if (j == OP_HF_NONE || !lab[j] || lab[j] == lab[i]) continue;
          if (last_a[d] == lab[i] && last_b[d] == lab[j]) continue; /* in the sets already */
          last_a[d] = lab[i];
          last_b[d] = lab[j];
          if (add_pair(w->adj, lab[i], lab[j])) return opc_nomem(err, "memory");
        }
        for (uint32_t k = i + 1; k < e; k++)
          if (lab[k] && lab[k] != lab[i] && add_pair(w->ovl, lab[i], lab[k]))
            return opc_nomem(err, "memory");
      }
    }
  return OP_OK;
}

/* REG-074: sweep region t joins the growing layer; what it overlaps is barred from it. */
static int join_layer(lwork *w, uint32_t t) {
  w->lid[t] = w->nl;
  for (uint32_t m = 0; m < w->ovl[t].n; m++)
    if (!opr_set_add(&w->fl, w->ovl[t].v[m])) return -1;
  return 0;
}

/* REG-074 .. REG-075: layers grow breadth first from the least unassigned sweep region,
** through adjacency, never taking a region the layer already overlaps. */
static op_status grow_layers(lwork *w, op_error *err) {
  for (uint32_t r = 1; r < w->nids; r++) {
    if (w->lid[r]) continue;
    w->nl++;
    w->fl.n = 0;
    if (join_layer(w, r)) return opc_nomem(err, "memory");
    uint32_t head = 0, tail = 0;
    w->queue[tail++] = r;
    while (head < tail) {
      uint32_t q = w->queue[head++];
      for (uint32_t k = 0; k < w->adj[q].n; k++) {
        uint32_t t = w->adj[q].v[k];
        if (w->lid[t] || opr_set_has(&w->fl, t)) continue;
        if (join_layer(w, t)) return opc_nomem(err, "memory");
        w->queue[tail++] = t;
      }
    }
  }
  return OP_OK;
}

/* REG-077: layers numbered from 0 in the order of their first span; REG-078: a span that
** is not walkable takes the layer of its first walkable neighbour (else 0). */
static void number_layers(lwork *w, uint16_t *layer) {
  const op_chf *chf = w->chf;
  const uint32_t *lab = w->lab, *lid = w->lid;
  uint32_t *map = w->map, k = 0;
  for (uint32_t i = 0; i < chf->nspans; i++) { /* a layer's number is set at its first span */
    if (!lab[i]) { layer[i] = 0; continue; }
    uint32_t l = lid[lab[i]];
    if (!map[l]) map[l] = ++k;
    layer[i] = (uint16_t)(map[l] - 1);
  }
  for (int32_t z = 0; z < chf->grid.depth; z++)
    for (int32_t x = 0; x < chf->grid.width; x++) {
      size_t c = (size_t)z * (size_t)chf->grid.width + (size_t)x;
      for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++) {
        if (lab[i]) continue;
        for (int d = 0; d < 4; d++) {
          uint32_t j = opr_nei(chf, w->step, i, c, d);
          if (j != OP_HF_NONE && lab[j]) { layer[i] = (uint16_t)(map[lid[lab[j]]] - 1); break; }
        }
      }
    }
}

/* REG-070: the layer of every span, and the number of layers. */
op_status op_regions_layer_assign(const op_chf *chf, uint16_t *layer, uint32_t *nlayers,
                                  op_error *err) {
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "null", "no compact heightfield given");
  if (!layer || !nlayers) return op_fail(err, OP_E_ARGUMENT, "layer", "null", "no output given");
  lwork w;
  memset(&w, 0, sizeof w);
  w.chf = chf;
  w.nids = 1;
  w.lab = calloc(chf->nspans ? chf->nspans : 1, sizeof *w.lab);
  if (!w.lab) return opc_nomem(err, "memory");
  opr_col_steps(chf, w.step);
  /* REG-071: the area-blind sweep over the whole grid (no ring). */
  op_status st = opr_sweep(chf, 0, 1, w.lab, &w.nids, err);
  if (st == OP_OK) {
    w.adj = calloc(w.nids, sizeof *w.adj);
    w.ovl = calloc(w.nids, sizeof *w.ovl);
    w.queue = malloc(sizeof *w.queue * w.nids);
    w.lid = calloc(w.nids, sizeof *w.lid);
    w.map = calloc(w.nids + 1, sizeof *w.map);
    if (!w.adj || !w.ovl || !w.queue || !w.lid || !w.map) st = opc_nomem(err, "memory");
  }
  if (st == OP_OK) st = relate_sweeps(&w, err);
  if (st == OP_OK) st = grow_layers(&w, err);
  if (st == OP_OK && w.nl > 65535)
    st = op_fail_i(err, OP_E_LIMIT, "layers", (long long)w.nl, "more layers than 65535 (REG-077)");
  if (st == OP_OK) {
    number_layers(&w, layer);
    *nlayers = w.nl;
  }
  lwork_free(&w);
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
  uint32_t *par = malloc(sizeof *par * ((size_t)n1 + 1)); /* per provisional label */
  uint32_t nids = 1;
  int64_t step[4];
  if (!lab || !par) { st = opc_nomem(err, "memory"); goto done; }
  opr_col_steps(chf, step);
  opr_paint_border(chf, border, lab); /* REG-080 */
  /* REG-080, REG-082 in one pass (see the file's header): a span joined to its -x or -z
  ** neighbour (both walkable, outside the ring, one area, one layer) takes that one's
  ** label, else a new label; two joined neighbours with different labels unite them. */
  par[0] = 0;
  for (int32_t z = 0; z < chf->grid.depth; z++)
    for (int32_t x = 0; x < chf->grid.width; x++) {
      size_t c = (size_t)z * (size_t)chf->grid.width + (size_t)x;
      for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++) {
        if (chf->areas[i] == OP_AREA_NULL || lab[i] == OP_REG_WORK_BORDER) continue;
        static const int dirs[2] = {0, 3};
        uint32_t li = 0;
        for (int k = 0; k < 2; k++) {
          uint32_t j = opr_nei(chf, step, i, c, dirs[k]);
          if (j == OP_HF_NONE || chf->areas[j] != chf->areas[i] || lab[j] == OP_REG_WORK_BORDER ||
              layer[j] != layer[i])
            continue;
          uint32_t lj = lab[j]; /* an earlier span: labelled */
          if (li == 0) { li = lj; continue; }
          if (lj == li) continue;
          uint32_t a = li, b = lj;
          while (par[a] != a) a = par[a] = par[par[a]];
          while (par[b] != b) b = par[b] = par[par[b]];
          if (a != b) { if (a < b) par[b] = a; else par[a] = b; }
        }
        if (li == 0) { li = nids++; par[li] = li; }
        lab[i] = li;
      }
    }
  /* Each label to its set's least label (par[l] <= l: one ascending pass flattens), which is
  ** the label its first span opened: the ids ascend with the sets' first spans (REG-082). */
  for (uint32_t l = 1; l < nids; l++) par[l] = par[par[l]];
  for (uint32_t i = 0; i < n; i++)
    if (lab[i] != 0 && lab[i] != OP_REG_WORK_BORDER) lab[i] = par[lab[i]];
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
