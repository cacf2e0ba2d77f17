/*
** regions_monotone.c -- the monotone partition (spec/build3d-regions.md section 3,
** REG-050 .. REG-058), then section 5. The sweep of REG-051 .. REG-056 is shared with
** the layer partition (section 4), which runs it ignoring area ids.
**
** Speed-up (not in the spec): while a row is swept, lab holds its spans' sweep numbers and a
** list keeps the row's walkable spans, so the ids of REG-055 are given from that list, not
** by a second scan of the row's columns. The -x neighbour read in REG-052 lies in the same
** row (still a sweep number) and the -z neighbour of REG-054 in the row before (an id).
*/
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "build3d/regions/regions.h"

/* REG-051 .. REG-056. lab: 0 or OP_REG_WORK_BORDER on entry (the ring painted); the
** sweep labels every walkable span of the columns inside the ring with ids 1..*nids-1.
** any_area: treat every walkable span as one area (section 4). */
op_status opr_sweep(const op_chf *chf, int32_t border, int any_area, uint32_t *lab,
                    uint32_t *nids, op_error *err) {
  int32_t w = chf->grid.width, dpt = chf->grid.depth;
  int32_t x0 = border, x1 = w - border, z0 = border, z1 = dpt - border;
  uint32_t n = chf->nspans;
  int64_t step[4];
  opr_col_steps(chf, step);
  /* Per row: its walkable spans in sweep order (row; lab holds their sweep until the row's
  ** ids are known), per sweep its neighbour below, its count, its final id; per final id
  ** the links counted from this row, and the ids whose count this row made nonzero. */
  uint32_t *row = malloc(sizeof *row * (n ? n : 1));
  uint32_t *snei = malloc(sizeof *snei * (n + 2));
  uint32_t *sns = malloc(sizeof *sns * (n + 2));
  uint32_t *sid = malloc(sizeof *sid * (n + 2));
  uint32_t *below = calloc(n + 2, sizeof *below);
  uint32_t *hit = malloc(sizeof *hit * (n + 2));
  if (!row || !snei || !sns || !sid || !below || !hit) {
    free(row); free(snei); free(sns); free(sid); free(below); free(hit);
    return opc_nomem(err, "memory");
  }
  const uint32_t UNSET = 0, CONFLICT = 0xffffffffu;
  uint32_t next = 1;
  for (int32_t z = z0; z < z1; z++) {
    uint32_t nsw = 0, nhit = 0, nrow = 0; /* sweeps 1..nsw; hit[0 .. nhit); row[0 .. nrow) */
    for (int32_t x = x0; x < x1; x++) {
      size_t c = (size_t)z * (size_t)w + (size_t)x;
      for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++) {
        if (chf->areas[i] == OP_AREA_NULL) continue;
        /* REG-052: continue the sweep of the -x neighbour. */
        uint32_t s = 0;
        uint32_t a = opr_nei(chf, step, i, c, 0);
        if (a != OP_HF_NONE && x - 1 >= x0 && chf->areas[a] != OP_AREA_NULL &&
            (any_area || chf->areas[a] == chf->areas[i]))
          s = lab[a]; /* this row's span: still its sweep */
        if (s == 0) { /* REG-053: a new sweep */
          s = ++nsw;
          snei[s] = UNSET;
          sns[s] = 0;
        }
        /* REG-054: the region below (-z). */
        uint32_t b = opr_nei(chf, step, i, c, 3);
        if (b != OP_HF_NONE && z - 1 >= z0 && chf->areas[b] != OP_AREA_NULL &&
            (any_area || chf->areas[b] == chf->areas[i])) {
          uint32_t r = lab[b];
          if (r != 0 && r != OP_REG_WORK_BORDER) {
            if (snei[s] == UNSET || snei[s] == r) {
              snei[s] = r;
              sns[s]++;
              if (below[r]++ == 0) hit[nhit++] = r;
            } else {
              snei[s] = CONFLICT;
            }
          }
        }
        lab[i] = s;
        row[nrow++] = i;
      }
    }
    /* REG-055: each sweep in order adopts its region below or takes a new id. */
    for (uint32_t s = 1; s <= nsw; s++) {
      uint32_t r = snei[s];
      if (r != UNSET && r != CONFLICT && below[r] == sns[s])
        sid[s] = r;
      else
        sid[s] = next++;
    }
    /* Clear the counts of this row and give the row's spans their ids. */
    for (uint32_t k = 0; k < nhit; k++) below[hit[k]] = 0;
    for (uint32_t k = 0; k < nrow; k++) lab[row[k]] = sid[lab[row[k]]];
  }
  *nids = next;
  free(row); free(snei); free(sns); free(sid); free(below); free(hit);
  return OP_OK;
}

op_status op_regions_monotone(const op_chf *chf, int32_t border, uint32_t min_region_area,
                              uint32_t merge_region_area, op_regions *out, op_error *err) {
  op_regions res;
  op_status st = opr_begin(chf, border, OP_PARTITION_MONOTONE, &res, err);
  if (st != OP_OK) {
    if (out) memset(out, 0, sizeof *out);
    return st;
  }
  uint32_t *lab = calloc(chf->nspans ? chf->nspans : 1, sizeof *lab);
  uint32_t nids = 1;
  if (!lab) st = opc_nomem(err, "memory");
  if (st == OP_OK) {
    opr_paint_border(chf, border, lab); /* REG-050 */
    st = opr_sweep(chf, border, 0, lab, &nids, err);
  }
  if (st == OP_OK)
    st = opr_filter(chf, lab, nids, min_region_area, merge_region_area, &res, err);
  free(lab);
  if (st != OP_OK) {
    op_regions_free(&res);
    memset(out, 0, sizeof *out);
    return st;
  }
  *out = res;
  return OP_OK;
}
