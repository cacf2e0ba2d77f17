/*
** compact.c -- stage 2b of the 3D build: the compact (open-span) heightfield, its
** neighbour links, the span graph and its canonical bytes (spec/build3d-spans.md
** sections 5 and 8, SPAN-130 .. SPAN-146, SPAN-170). One tile's stages 1 to 3 in order
** are spans_tile.c.
*/
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/alloc.h"
#include "core/internal.h"
#include "build3d/spans/spans_internal.h"

void op_chf_free(op_chf *chf) {
  if (!chf) return;
  free(chf->cell_index);
  free(chf->cell_count);
  free(chf->spans);
  free(chf->areas);
  free(chf);
}

/* SPAN-142, SPAN-143: the link of span s to the neighbour column whose spans are
** col[0..n-1]: the lowest one that passes, or NOT_CONNECTED. */
static uint8_t find_link(const op_chf_span *s, const op_chf_span *col, uint32_t n,
                         int32_t walkable_height, int32_t climb) {
  for (uint32_t k = 0; k < n; k++) { /* lowest first (SPAN-143) */
    const op_chf_span *ns = &col[k];
    int32_t bot = s->y > ns->y ? s->y : ns->y;
    int32_t top1 = (int32_t)s->y + s->h, top2 = (int32_t)ns->y + ns->h;
    int32_t top = top1 < top2 ? top1 : top2;
    int32_t dy = (int32_t)ns->y - (int32_t)s->y;
    if (dy < 0) dy = -dy;
    if (top - bot >= walkable_height && dy <= climb) return (uint8_t)k;
  }
  return OP_CHF_NOT_CONNECTED;
}

/* SPAN-142: links, per span, per direction (a neighbour column outside the grid has no
** span). Read through locals: links are bytes, and a byte store may alias any field of
** chf. */
static void chf_links(op_chf *chf) {
  op_chf_span *spans = chf->spans;
  const uint32_t *cell_index = chf->cell_index;
  const uint8_t *cell_count = chf->cell_count;
  const int32_t w = chf->grid.width, d = chf->grid.depth;
  const int32_t wh = chf->walkable_height, climb = chf->walkable_climb;
  for (int32_t z = 0; z < d; z++)
    for (int32_t x = 0; x < w; x++) {
      size_t c = (size_t)z * (size_t)w + (size_t)x;
      if (cell_count[c] == 0) continue;
      const op_chf_span *col[4]; /* per direction (opsp_dir_dx, opsp_dir_dz): the column's spans */
      uint32_t n[4] = {0, 0, 0, 0};
      for (int dir = 0; dir < 4; dir++) {
        int32_t nx = x + opsp_dir_dx[dir], nz = z + opsp_dir_dz[dir];
        col[dir] = spans;
        if (nx < 0 || nz < 0 || nx >= w || nz >= d) continue;
        size_t nc = (size_t)nz * (size_t)w + (size_t)nx;
        col[dir] = &spans[cell_index[nc]];
        n[dir] = cell_count[nc];
      }
      for (uint32_t i = cell_index[c], e = i + cell_count[c]; i < e; i++) {
        uint8_t link[4];
        for (int dir = 0; dir < 4; dir++)
          link[dir] = find_link(&spans[i], col[dir], n[dir], wh, climb);
        memcpy(spans[i].link, link, sizeof link);
      }
    }
}

/* SPAN-130 .. SPAN-143 */
op_status op_chf_build(const op_hf *hf, int32_t walkable_height, int32_t climb,
                       op_chf **out, op_error *err) {
  if (!hf) return op_fail(err, OP_E_ARGUMENT, "hf", "null", "the heightfield is missing");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  if (walkable_height < 0)
    return op_fail_i(err, OP_E_RANGE, "walkable_height", walkable_height, "must be >= 0");
  if (climb < 0) return op_fail_i(err, OP_E_RANGE, "climb", climb, "must be >= 0");
  const int32_t w = hf->grid.width, d = hf->grid.depth;
  const size_t ncol = (size_t)w * (size_t)d;
  /* SPAN-131, SPAN-141: count the open spans; a column holds at most 63. */
  uint32_t total = 0;
  for (int32_t z = 0; z < d; z++)
    for (int32_t x = 0; x < w; x++) {
      uint32_t c = 0;
      for (const op_hf_span *s = opsp_hf_first(hf, x, z); s; s = opsp_hf_next(hf, s))
        if (s->area != OP_AREA_NULL) c++;
      if (c > OP_CHF_MAX_COLUMN) {
        char field[64];
        snprintf(field, sizeof field, "column[%d,%d]", (int)x, (int)z);
        return op_fail_i(err, OP_E_LIMIT, field, c, "more than 63 open spans in a column");
      }
      total += c;
    }
  op_alloc_count *al = hf->alloc; /* CONF-059 */
  op_chf *chf = opc_calloc(al, 1, sizeof *chf);
  if (chf) {
    chf->cell_index = opc_calloc(al, ncol, sizeof *chf->cell_index);
    chf->cell_count = opc_calloc(al, ncol, sizeof *chf->cell_count);
    chf->spans = opc_calloc(al, total ? total : 1, sizeof *chf->spans);
    chf->areas = opc_calloc(al, total ? total : 1, sizeof *chf->areas);
  }
  if (!chf || !chf->cell_index || !chf->cell_count || !chf->spans || !chf->areas) {
    op_chf_free(chf);
    return opc_nomem(err, "hf");
  }
  chf->grid = hf->grid;
  chf->walkable_height = walkable_height;
  chf->walkable_climb = climb;
  chf->nspans = total;
  /* SPAN-131, SPAN-132: open spans column by column, floor = top of the solid span. */
  uint32_t idx = 0;
  for (int32_t z = 0; z < d; z++)
    for (int32_t x = 0; x < w; x++) {
      size_t c = (size_t)z * (size_t)w + (size_t)x;
      chf->cell_index[c] = idx;
      for (const op_hf_span *s = opsp_hf_first(hf, x, z); s; s = opsp_hf_next(hf, s)) {
        if (s->area == OP_AREA_NULL) continue;
        const op_hf_span *n = opsp_hf_next(hf, s);
        int32_t bot = s->smax, top = n ? (int32_t)n->smin : OP_HF_OPEN_TOP;
        int32_t h = top - bot;
        chf->spans[idx].y = (uint16_t)bot;
        chf->spans[idx].h = (uint8_t)(h > 255 ? 255 : h); /* SPAN-132 */
        chf->areas[idx] = s->area;
        idx++;
        chf->cell_count[c]++;
      }
    }
  chf_links(chf); /* SPAN-142 */
  *out = chf;
  return OP_OK;
}

void op_span_graph_free(op_span_graph *g) {
  if (!g) return;
  free(g->column);
  free(g->nei);
  free(g->mutual);
  memset(g, 0, sizeof *g);
}

/* SPAN-146 */
op_status op_span_graph_build(const op_chf *chf, op_span_graph *out, op_error *err) {
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "null", "the heightfield is missing");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  op_span_graph g;
  size_t n = chf->nspans ? chf->nspans : 1;
  g.nspans = chf->nspans;
  g.column = malloc(n * sizeof *g.column);
  g.nei = malloc(4 * n * sizeof *g.nei);
  g.mutual = calloc(n, 1);
  if (!g.column || !g.nei || !g.mutual) {
    op_span_graph_free(&g);
    return opc_nomem(err, "chf");
  }
  int64_t step[4]; /* column index of the neighbour in direction dir minus the column's */
  for (int dir = 0; dir < 4; dir++)
    step[dir] = (int64_t)opsp_dir_dz[dir] * chf->grid.width + opsp_dir_dx[dir];
  const int64_t ncol = (int64_t)chf->grid.width * chf->grid.depth;
  for (int64_t c = 0; c < ncol; c++)
    for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++) {
      g.column[i] = (uint32_t)c;
      for (int dir = 0; dir < 4; dir++) {
        uint8_t l = chf->spans[i].link[dir]; /* a linked neighbour lies inside the grid */
        g.nei[4 * (size_t)i + dir] =
            l == OP_CHF_NOT_CONNECTED ? OP_HF_NONE : chf->cell_index[c + step[dir]] + l;
      }
    }
  for (uint32_t i = 0; i < chf->nspans; i++)
    for (int dir = 0; dir < 4; dir++) {
      uint32_t j = g.nei[4 * (size_t)i + dir];
      if (j != OP_HF_NONE && g.nei[4 * (size_t)j + ((dir + 2) & 3)] == i)
        g.mutual[i] |= (uint8_t)(1u << dir);
    }
  *out = g;
  return OP_OK;
}

/* SPAN-170: the canonical bytes of a compact heightfield. */
op_status op_chf_save(const op_chf *chf, op_bytes *out, op_error *err) {
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "null", "the heightfield is missing");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  const size_t ncol = (size_t)chf->grid.width * (size_t)chf->grid.depth;
  const size_t len = 40 + ncol + 8 * (size_t)chf->nspans;
  opc_buf b = {NULL, 0, 0, 0};
  if (opc_buf_reserve(&b, len)) return opc_nomem(err, "chf"); /* exact size: no put reallocates */
  opc_put(&b, "OPCHF001", 8);
  opc_put_u32(&b, (uint32_t)chf->grid.gx0);
  opc_put_u32(&b, (uint32_t)chf->grid.gz0);
  opc_put_u32(&b, (uint32_t)chf->grid.width);
  opc_put_u32(&b, (uint32_t)chf->grid.depth);
  opc_put_u32(&b, (uint32_t)chf->grid.height);
  opc_put_u32(&b, (uint32_t)chf->walkable_height);
  opc_put_u32(&b, (uint32_t)chf->walkable_climb);
  opc_put_u32(&b, chf->nspans);
  opc_put(&b, chf->cell_count, ncol);
  /* the span records written in place: the exact size is reserved above (the tile cache
  ** saves every tile's heightfield for its fingerprint, RT-131, so this loop is hot) */
  uint8_t *w = b.p + b.len;
  for (uint32_t i = 0; i < chf->nspans; i++, w += 8) {
    const op_chf_span *s = &chf->spans[i];
    w[0] = (uint8_t)(s->y & 0xffu), w[1] = (uint8_t)(s->y >> 8); /* little-endian u16 */
    w[2] = s->h, w[3] = chf->areas[i];
    memcpy(w + 4, s->link, 4);
  }
  b.len += 8 * (size_t)chf->nspans;
  assert(!b.oom && b.len == len);
  out->data = b.p;
  out->len = b.len;
  return OP_OK;
}
