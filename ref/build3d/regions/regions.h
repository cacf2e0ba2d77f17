/*
** regions.h -- the region partition of a compact heightfield (spec/build3d-regions.md
** sections 1 to 5, clauses REG-001 .. REG-170), shared by the REGIONS files
** (regions_*.c) and the CONTOURS files (section 6). Internal: not part of the public API.
** Stable: changes are additive only.
**
** A partition gives every span of an op_chf a 16-bit region value:
**   0                         no region (not walkable, or removed by a rule of section 5);
**   1 .. nregions             an ordinary region, numbered by REG-150 (the rank of the
**                             region's first span in column order);
**   OP_REG_BORDER_REGION      the border region (REG-012): every walkable span in the border
**                             ring of width `border` cells. It is one region; it is never
**                             traced as a contour; it marks the tile border.
*/
#ifndef OP_REGIONS_H
#define OP_REGIONS_H

#include "onepath_build3d.h"
#include "onepath_stages.h"
#include "build3d/spans/spans_internal.h"

/* The partition (op_regions, op_regions_build, ...) is declared in onepath_stages.h. */

/* ---- helpers shared by the regions_*.c files (and usable by tests) ---- */

/* The links as absolute span indices (SPAN-140, SPAN-146): nb[4 * i + d] is span i's
** neighbour in direction d, or OP_HF_NONE. Made once per pass (the distance field, the
** blur, the flooding, island removal and merging look at every link several times).
** Returns a malloc'd array of 4 * nspans entries (the caller frees it), NULL when out of
** memory. */
uint32_t *opr_links(const op_chf *chf);

/* step[d]: the column index of the neighbour in direction d minus the column's
** (SPAN-140 directions). */
static inline void opr_col_steps(const op_chf *chf, int64_t step[4]) {
  for (int d = 0; d < 4; d++) step[d] = (int64_t)opsp_dir_dz[d] * chf->grid.width + opsp_dir_dx[d];
}
/* Span i's (of column c) neighbour in direction d (absolute index) or OP_HF_NONE, as
** opr_links gives it (REG-003; a linked neighbour lies inside the grid). */
static inline uint32_t opr_nei(const op_chf *chf, const int64_t step[4], uint32_t i, int64_t c,
                               int d) {
  uint8_t l = chf->spans[i].link[d];
  return l == OP_CHF_NOT_CONNECTED ? OP_HF_NONE : chf->cell_index[c + step[d]] + l;
}

/* A small ascending set of u32 (the adjacency and overlap lists of REG-072, REG-073,
** REG-111, REG-112); zero-initialised is empty; the owner frees v. */
typedef struct opr_set {
  uint32_t *v;
  uint32_t n, cap;
} opr_set;
int opr_set_has(const opr_set *s, uint32_t x);
/* Adds x keeping the set ascending; 0 on allocation failure (the set unchanged). */
int opr_set_add(opr_set *s, uint32_t x);
void opr_set_del(opr_set *s, uint32_t x);

/* The distance field of REG-020 .. REG-024 (before the blur) into dist[nspans]; returns
** the greatest value. */
uint16_t opr_distance(const op_chf *chf, uint16_t *dist);
/* The blur of REG-025 (threshold 2): src -> dst (both nspans); returns the greatest. */
uint16_t opr_blur(const op_chf *chf, const uint16_t *src, uint16_t *dst);

/* Working labels (u32) used between the partition and section 5: 0 = none,
** OP_REG_WORK_BORDER = the border region, else an ordinary provisional id. */
#define OP_REG_WORK_BORDER 0x80000000u

/* The border ring (REG-012): lab[i] = OP_REG_WORK_BORDER for every span with area != 0
** in a column with x < b, x >= width - b, z < b or z >= depth - b (b = border); other
** entries untouched. */
void opr_paint_border(const op_chf *chf, int32_t border, uint32_t *lab);

/* regions_watershed.c: the watershed partition (REG-020 .. REG-044) that also counts the spans
** its level lists visit into *work (NULL: not counted); op_regions_watershed is this without
** the count. For tests: the count shows the cost is near-linear in the spans. */
op_status opr_watershed_work(const op_chf *chf, int32_t border, uint32_t min_region_area,
                             uint32_t merge_region_area, op_regions *out, uint64_t *work,
                             op_error *err);

/* Checks the arguments every partition takes (REG-004: chf not NULL, border >= 0, out not
** NULL), then zeroes *out and allocates out->reg and out->dist (zeroed) for chf. */
op_status opr_begin(const op_chf *chf, int32_t border, op_partition p,
                    op_regions *out, op_error *err);

/* Section 5 on a working labelling lab[nspans] (ordinary provisional ids 1..nids-1, in
** any order, possibly unused): removes small islands (REG-100 ..), merges (REG-110 ..;
** skipped when merge_region_area is 0 and for layers), then numbers the result by
** REG-150 into out->reg / out->nregions (out->reg allocated by the caller, nspans). */
op_status opr_filter(const op_chf *chf, const uint32_t *lab, uint32_t nids,
                     uint32_t min_region_area, uint32_t merge_region_area,
                     op_regions *out, op_error *err);
/* The same for the layer partition (REG-083): no merging, and only links between spans of
** one layer (layer[nspans]) count for islands (REG-105). */
op_status opr_filter_layered(const op_chf *chf, const uint32_t *lab, uint32_t nids,
                             const uint16_t *layer, uint32_t min_region_area,
                             op_regions *out, op_error *err);

/* The sweep of REG-051 .. REG-056 (regions_monotone.c), shared with the layer partition
** (REG-071: any_area = 1, no ring). lab: 0 or OP_REG_WORK_BORDER on entry; labels every
** walkable span of the columns inside the ring with ids 1 .. *nids - 1. */
op_status opr_sweep(const op_chf *chf, int32_t border, int any_area, uint32_t *lab,
                    uint32_t *nids, op_error *err);

/* op_regions_layer_assign (REG-070 .. REG-078) is public: onepath_stages.h. */
/* The regions of section 4 for a given layer assignment (REG-080 .. REG-083), then
** island removal and numbering (section 5). */
op_status opr_layers_from(const op_chf *chf, const uint16_t *layer, int32_t border,
                          uint32_t min_region_area, op_regions *out, op_error *err);

#endif
