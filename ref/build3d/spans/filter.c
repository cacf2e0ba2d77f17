/*
** filter.c -- stage 2a of the 3D build: the three filters of the solid heightfield, in
** the order the build runs them: low-hanging walkable obstacles, ledges, low clearance
** (spec/build3d-spans.md section 4, SPAN-120 .. SPAN-123).
*/
#include "core/internal.h"
#include "build3d/spans/spans_internal.h"

/* SPAN-121 */
void op_hf_filter_low_hanging(op_hf *hf, int32_t climb) {
  if (!hf) return;
  /* read through locals: the area stores are bytes, which may alias any field of hf */
  const uint32_t *head = hf->head;
  op_hf_span *pool = hf->pool;
  const size_t ncol = (size_t)hf->grid.width * (size_t)hf->grid.depth;
  for (size_t c = 0; c < ncol; c++) { /* every column, z then x */
    int prev_walkable = 0;
    uint8_t prev_area = OP_AREA_NULL;
    int32_t prev_top = 0;
    for (uint32_t i = head[c]; i != OP_HF_NONE; i = pool[i].next) {
      op_hf_span *s = &pool[i];
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

/* SPAN-120: the floor (smax) and the top of the open space above (the next span's smin, or
** OP_HF_OPEN_TOP for the top span of a column) of span i of the pool. */
static void floor_top(const op_hf_span *pool, uint32_t i, int32_t *bot, int32_t *top) {
  uint32_t n = pool[i].next;
  *bot = pool[i].smax;
  *top = n == OP_HF_NONE ? OP_HF_OPEN_TOP : (int32_t)pool[n].smin;
}

/* What SPAN-122 gathers over a span's neighbours. */
typedef struct ledge_acc {
  int32_t minh;       /* lowest drop to a neighbour floor */
  int32_t amin, amax; /* range of reachable neighbour floors */
} ledge_acc;

/* SPAN-122: one neighbour column (its first span ni) of the span with floor bot and top of
** open space top. */
static void ledge_column(const op_hf_span *pool, uint32_t ni, int32_t bot, int32_t top,
                         int32_t walkable_height, int32_t climb, ledge_acc *a) {
  /* the open space below the column's first span: floor at row -climb */
  int32_t nbot = -climb, ntop = ni != OP_HF_NONE ? (int32_t)pool[ni].smin : OP_HF_OPEN_TOP;
  int32_t lo = bot > nbot ? bot : nbot, hi = top < ntop ? top : ntop;
  if (hi - lo > walkable_height && nbot - bot < a->minh) a->minh = nbot - bot;
  for (; ni != OP_HF_NONE; ni = pool[ni].next) {
    floor_top(pool, ni, &nbot, &ntop);
    lo = bot > nbot ? bot : nbot;
    hi = top < ntop ? top : ntop;
    if (hi - lo > walkable_height) {
      if (nbot - bot < a->minh) a->minh = nbot - bot;
      int32_t dh = nbot - bot;
      if (dh < 0) dh = -dh;
      if (dh <= climb) {
        if (nbot < a->amin) a->amin = nbot;
        if (nbot > a->amax) a->amax = nbot;
      }
    }
  }
}

/* SPAN-122: a neighbour outside the grid is a drop to row -climb. */
static void ledge_outside(int32_t bot, int32_t climb, ledge_acc *a) {
  if (-climb - bot < a->minh) a->minh = -climb - bot;
}

/* SPAN-122 */
void op_hf_filter_ledges(op_hf *hf, int32_t walkable_height, int32_t climb) {
  if (!hf) return;
  const int32_t w = hf->grid.width, d = hf->grid.depth;
  /* read through locals: the area stores are bytes, which may alias any field of hf */
  const uint32_t *head = hf->head;
  op_hf_span *pool = hf->pool;
  for (int32_t z = 0; z < d; z++)
    for (int32_t x = 0; x < w; x++) {
      const size_t c = (size_t)z * (size_t)w + (size_t)x;
      for (uint32_t si = head[c]; si != OP_HF_NONE; si = pool[si].next) {
        if (pool[si].area == OP_AREA_NULL) continue;
        int32_t bot, top;
        floor_top(pool, si, &bot, &top);
        ledge_acc a = {OP_HF_OPEN_TOP, bot, bot};
        /* the neighbours in direction order (-x, +z, +x, -z; opsp_dir_dx, opsp_dir_dz) */
        if (x > 0) ledge_column(pool, head[c - 1], bot, top, walkable_height, climb, &a);
        else ledge_outside(bot, climb, &a);
        if (z + 1 < d)
          ledge_column(pool, head[c + (size_t)w], bot, top, walkable_height, climb, &a);
        else ledge_outside(bot, climb, &a);
        if (x + 1 < w) ledge_column(pool, head[c + 1], bot, top, walkable_height, climb, &a);
        else ledge_outside(bot, climb, &a);
        if (z > 0)
          ledge_column(pool, head[c - (size_t)w], bot, top, walkable_height, climb, &a);
        else ledge_outside(bot, climb, &a);
        if (a.minh < -climb) pool[si].area = OP_AREA_NULL;               /* a drop: ledge */
        else if (a.amax - a.amin > climb) pool[si].area = OP_AREA_NULL; /* too steep around */
      }
    }
}

/* SPAN-123 */
void op_hf_filter_low_height(op_hf *hf, int32_t walkable_height) {
  if (!hf) return;
  const uint32_t *head = hf->head; /* locals, as in op_hf_filter_ledges */
  op_hf_span *pool = hf->pool;
  const size_t ncol = (size_t)hf->grid.width * (size_t)hf->grid.depth;
  for (size_t c = 0; c < ncol; c++)
    for (uint32_t i = head[c]; i != OP_HF_NONE; i = pool[i].next) {
      int32_t bot, top;
      floor_top(pool, i, &bot, &top);
      if (top - bot <= walkable_height) pool[i].area = OP_AREA_NULL;
    }
}
