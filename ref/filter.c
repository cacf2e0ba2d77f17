/*
** filter.c -- stage 2a of the 3D build: the three filters of the solid heightfield, in
** the order the build runs them: low-hanging walkable obstacles, ledges, low clearance
** (spec/build3d-spans.md section 4, SPAN-120 .. SPAN-123).
*/
#include "internal.h"
#include "spans_internal.h"

/* SPAN-120: the open space above a span runs from its smax to the next span's smin, or
** to OP_HF_OPEN_TOP for the top span of a column. */
static int32_t open_top(const op_hf *hf, const op_hf_span *s) {
  const op_hf_span *n = op_hf_next(hf, s);
  return n ? (int32_t)n->smin : OP_HF_OPEN_TOP;
}

/* SPAN-121 */
void op_hf_filter_low_hanging(op_hf *hf, int32_t climb) {
  if (!hf) return;
  for (int32_t z = 0; z < hf->grid.depth; z++)
    for (int32_t x = 0; x < hf->grid.width; x++) {
      int prev_walkable = 0;
      uint8_t prev_area = OP_AREA_NULL;
      int32_t prev_top = 0;
      for (op_hf_span *s = op_hf_first(hf, x, z); s; s = op_hf_next(hf, s)) {
        int walkable = s->area != OP_AREA_NULL; /* before this span's own change */
        if (!walkable && prev_walkable) {
          int32_t d = (int32_t)s->smax - prev_top;
          if (d < 0) d = -d;
          if (d <= climb) s->area = prev_area;
        }
        prev_walkable = walkable;
        prev_area = s->area;
        prev_top = s->smax;
      }
    }
}

/* SPAN-122 */
void op_hf_filter_ledges(op_hf *hf, int32_t walkable_height, int32_t climb) {
  if (!hf) return;
  const int32_t w = hf->grid.width, d = hf->grid.depth;
  for (int32_t z = 0; z < d; z++)
    for (int32_t x = 0; x < w; x++)
      for (op_hf_span *s = op_hf_first(hf, x, z); s; s = op_hf_next(hf, s)) {
        if (s->area == OP_AREA_NULL) continue;
        const int32_t bot = s->smax, top = open_top(hf, s);
        int32_t minh = OP_HF_OPEN_TOP; /* lowest drop to a neighbour floor */
        int32_t amin = bot, amax = bot; /* range of reachable neighbour floors */
        for (int dir = 0; dir < 4; dir++) {
          int32_t nx = x + op_dir_dx[dir], nz = z + op_dir_dz[dir];
          if (nx < 0 || nz < 0 || nx >= w || nz >= d) { /* outside the grid */
            if (-climb - bot < minh) minh = -climb - bot;
            continue;
          }
          const op_hf_span *ns = op_hf_first(hf, nx, nz);
          /* the open space below the column's first span: floor at row -climb */
          int32_t nbot = -climb, ntop = ns ? (int32_t)ns->smin : OP_HF_OPEN_TOP;
          int32_t lo = bot > nbot ? bot : nbot, hi = top < ntop ? top : ntop;
          if (hi - lo > walkable_height && nbot - bot < minh) minh = nbot - bot;
          for (; ns; ns = op_hf_next(hf, ns)) {
            nbot = ns->smax;
            ntop = open_top(hf, ns);
            lo = bot > nbot ? bot : nbot;
            hi = top < ntop ? top : ntop;
            if (hi - lo > walkable_height) {
              if (nbot - bot < minh) minh = nbot - bot;
              int32_t dh = nbot - bot;
              if (dh < 0) dh = -dh;
              if (dh <= climb) {
                if (nbot < amin) amin = nbot;
                if (nbot > amax) amax = nbot;
              }
            }
          }
        }
        if (minh < -climb) s->area = OP_AREA_NULL;           /* a drop: ledge */
        else if (amax - amin > climb) s->area = OP_AREA_NULL; /* too steep around */
      }
}

/* SPAN-123 */
void op_hf_filter_low_height(op_hf *hf, int32_t walkable_height) {
  if (!hf) return;
  for (int32_t z = 0; z < hf->grid.depth; z++)
    for (int32_t x = 0; x < hf->grid.width; x++)
      for (op_hf_span *s = op_hf_first(hf, x, z); s; s = op_hf_next(hf, s))
        if (open_top(hf, s) - (int32_t)s->smax <= walkable_height) s->area = OP_AREA_NULL;
}
