/*
** erode.c -- stage 3 of the 3D build, part 1: erosion of the walkable area by the agent
** radius, a two-pass chamfer distance over the span links (spec/build3d-spans.md
** section 6, SPAN-150 .. SPAN-153). The area volumes (SPAN-160 ..) are volumes.c.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/internal.h"
#include "build3d/spans/spans_internal.h"

/* The arrays the erosion reads, copied out of the heightfield once: the distances are
** bytes, and a byte store may alias anything, so reading through chf would reload every
** field after each store. step[dir] is the column index of the neighbour in direction dir
** minus the column's. */
typedef struct erode_view {
  const op_chf_span *spans;
  const uint32_t *cell_index;
  const uint8_t *cell_count;
  int64_t step[4];
} erode_view;

/* The span linked from span i of column c in direction dir (link != 63). */
static uint32_t nei_of(const erode_view *e, int64_t c, uint32_t i, int dir) {
  return e->cell_index[c + e->step[dir]] + e->spans[i].link[dir];
}

/* SPAN-153: one pass step: through direction da to span a, and from a through db. */
static void relax(const erode_view *e, uint8_t *dist, int64_t c, uint32_t i, int da, int db) {
  if (e->spans[i].link[da] == OP_CHF_NOT_CONNECTED) return;
  uint32_t a = nei_of(e, c, i, da);
  int nd = dist[a] + 2;
  if (nd > 255) nd = 255;
  if (nd < dist[i]) dist[i] = (uint8_t)nd;
  if (e->spans[a].link[db] == OP_CHF_NOT_CONNECTED) return;
  uint32_t b = nei_of(e, c + e->step[da], a, db);
  nd = dist[b] + 3;
  if (nd > 255) nd = 255;
  if (nd < dist[i]) dist[i] = (uint8_t)nd;
}

/* SPAN-150 .. SPAN-155 */
op_status op_chf_erode(op_chf *chf, int32_t radius, op_error *err) {
  return opsp_chf_erode_counted(chf, radius, NULL, err);
}

/* CONF-059: the distance array counted on al. */
op_status opsp_chf_erode_counted(op_chf *chf, int32_t radius, op_alloc_count *al,
                                 op_error *err) {
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "null", "the heightfield is missing");
  if (radius < 0) return op_fail_i(err, OP_E_RANGE, "radius", radius, "must be >= 0");
  const int64_t ncol = (int64_t)chf->grid.width * chf->grid.depth;
  uint8_t *dist = opc_malloc(al, chf->nspans ? chf->nspans : 1);
  if (!dist) return opc_nomem(err, "chf");
  erode_view e;
  e.spans = chf->spans;
  e.cell_index = chf->cell_index;
  e.cell_count = chf->cell_count;
  for (int dir = 0; dir < 4; dir++)
    e.step[dir] = (int64_t)opsp_dir_dz[dir] * chf->grid.width + opsp_dir_dx[dir];
  const uint8_t *areas = chf->areas;
  /* SPAN-151: boundary spans start at 0, every other span at 255. */
  for (int64_t c = 0; c < ncol; c++)
    for (uint32_t i = e.cell_index[c], end = i + e.cell_count[c]; i < end; i++) {
      int nc = 0;
      if (areas[i] != OP_AREA_NULL)
        for (int dir = 0; dir < 4; dir++)
          if (e.spans[i].link[dir] != OP_CHF_NOT_CONNECTED &&
              areas[nei_of(&e, c, i, dir)] != OP_AREA_NULL)
            nc++;
      dist[i] = nc == 4 ? 255 : 0;
    }
  /* SPAN-152, SPAN-153: forward pass, rows then columns ascending (column index c =
  ** z * width + x ascending). */
  for (int64_t c = 0; c < ncol; c++)
    for (uint32_t i = e.cell_index[c], end = i + e.cell_count[c]; i < end; i++) {
      relax(&e, dist, c, i, 0, 3); /* (-1, 0), then (-1, -1) */
      relax(&e, dist, c, i, 3, 2); /* (0, -1), then (1, -1) */
    }
  /* SPAN-154: backward pass, rows then columns descending (c descending), spans
  ** ascending. */
  for (int64_t c = ncol - 1; c >= 0; c--)
    for (uint32_t i = e.cell_index[c], end = i + e.cell_count[c]; i < end; i++) {
      relax(&e, dist, c, i, 2, 1); /* (1, 0), then (1, 1) */
      relax(&e, dist, c, i, 1, 0); /* (0, 1), then (-1, 1) */
    }
  /* SPAN-155 */
  int thr = radius > 127 ? 255 : 2 * radius;
  for (uint32_t i = 0; i < chf->nspans; i++)
    if (dist[i] < thr) chf->areas[i] = OP_AREA_NULL;
  free(dist);
  return OP_OK;
}
