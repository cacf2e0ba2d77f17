/*
** contours.c -- contours of a region partition, part 1: boundary edges, the loop walk,
** corner heights, raw vertices, the edge -> loop map, and the stage's entry point
** (spec/build3d-regions.md section 6, REG-200 .. REG-208, REG-214, REG-215, REG-221).
** Simplification and hole joining are in contours_simplify.c.
*/
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "build3d/contours/contours.h"
#include "core/alloc.h"
#include "core/bytes.h"
#include "core/internal.h"

void op_contour_set_free(op_contour_set *cs) {
  if (!cs) return;
  free(cs->loops);
  free(cs->raw);
  free(cs->raw_edge);
  free(cs->simp);
  free(cs->edge_loop);
  free(cs->contours);
  free(cs->verts);
  memset(cs, 0, sizeof *cs);
}

/* REG-201: a region value that is traced. */
static int traced_region(uint16_t r) { return r != 0 && !(r & OP_CONTOUR_BORDER_REG); }

/* REG-204 */
int opct_is_boundary(const op_span_graph *g, const uint16_t *reg, uint32_t i, int d) {
  uint32_t n = opct_nei(g, i, d);
  return n == OP_CONTOUR_NONE || reg[n] != reg[i];
}

/* REG-205, REG-206: height and tile-border flag of the corner where edge (i, d) starts. */
static void corner(const op_chf *chf, const op_span_graph *g, const uint16_t *reg, uint32_t i,
                   int d, int32_t *y, uint8_t *flags) {
  int e = (d + 3) & 3;
  uint32_t a = opct_nei(g, i, d), b = opct_nei(g, i, e);
  uint32_t da = a != OP_CONTOUR_NONE ? opct_nei(g, a, e) : OP_CONTOUR_NONE;
  uint32_t db = b != OP_CONTOUR_NONE ? opct_nei(g, b, d) : OP_CONTOUR_NONE;
  uint32_t cell[4] = {i, a, db != OP_CONTOUR_NONE ? db : da, b}; /* cyclic: s, A, D, B */
  int32_t h = chf->spans[i].y;
  uint32_t all[4] = {a, b, da, db};
  for (int k = 0; k < 4; k++)
    if (all[k] != OP_CONTOUR_NONE && chf->spans[all[k]].y > h) h = chf->spans[all[k]].y;
  *y = h;
  uint16_t r[4];
  uint8_t ar[4];
  for (int k = 0; k < 4; k++) {
    r[k] = cell[k] != OP_CONTOUR_NONE ? reg[cell[k]] : 0;
    ar[k] = cell[k] != OP_CONTOUR_NONE ? chf->areas[cell[k]] : 0;
  }
  for (int j = 0; j < 4; j++) {
    int j1 = (j + 1) & 3, j2 = (j + 2) & 3, j3 = (j + 3) & 3;
    int ext = (r[j] & OP_CONTOUR_BORDER_REG) && r[j] == r[j1] && ar[j] == ar[j1];
    int in = traced_region(r[j2]) && traced_region(r[j3]) && ar[j2] == ar[j3];
    if (ext && in) {
      *flags |= OP_CVERT_TILE_BORDER;
      break;
    }
  }
}

/* REG-207: the raw vertex of boundary edge (i, d). */
static op_cvert raw_vertex(const op_chf *chf, const op_span_graph *g, const uint16_t *reg,
                           uint32_t i, int d) {
  op_cvert v;
  uint32_t c = g->column[i];
  int32_t x = (int32_t)(c % (uint32_t)chf->grid.width);
  int32_t z = (int32_t)(c / (uint32_t)chf->grid.width);
  /* the corner where the edge starts in walk order: d=0 (x,z), 1 (x,z+1), 2 (x+1,z+1),
  ** 3 (x+1,z) */
  v.x = x + (d == 2 || d == 3);
  v.z = z + (d == 1 || d == 2);
  v.flags = 0;
  corner(chf, g, reg, i, d, &v.y, &v.flags);
  uint32_t n = opct_nei(g, i, d);
  v.reg = n != OP_CONTOUR_NONE ? reg[n] : 0;
  v.area = n != OP_CONTOUR_NONE ? chf->areas[n] : 0;
  if (n != OP_CONTOUR_NONE && chf->areas[n] != chf->areas[i]) v.flags |= OP_CVERT_AREA_BORDER;
  return v;
}

/* REG-205 .. REG-207 for one edge, exported for the run-time repair (RT-104), which
** compares a surviving loop's raw vertex for the old and the new regions. */
op_cvert opct_raw_vertex(const op_chf *chf, const op_span_graph *g, const uint16_t *reg,
                         uint32_t i, int d) {
  return raw_vertex(chf, g, reg, i, d);
}

static op_status push_vertex(op_cvert v, uint32_t key, op_cvert **verts, uint32_t **keys,
                             uint32_t *n, uint32_t *cap, op_alloc_count *al, op_error *err) {
  if (*n == *cap) {
    uint32_t nc = *cap ? *cap * 2 : 64;
    op_cvert *nv = opc_realloc(al, *verts, (size_t)nc * sizeof *nv);
    if (!nv) return opc_nomem(err, "memory");
    *verts = nv;
    uint32_t *nk = opc_realloc(al, *keys, (size_t)nc * sizeof *nk);
    if (!nk) return opc_nomem(err, "memory");
    *keys = nk;
    *cap = nc;
  }
  (*verts)[*n] = v;
  (*keys)[*n] = key;
  (*n)++;
  return OP_OK;
}

/* REG-208: the walk. */
op_status opct_walk(const op_chf *chf, const op_span_graph *g, const uint16_t *reg,
                    uint32_t start, op_cvert **verts, uint32_t **keys, uint32_t *n,
                    uint32_t *cap, op_alloc_count *al, op_error *err) {
  uint32_t i = start >> 2;
  int d = (int)(start & 3);
  uint64_t steps = 0, limit = 4 * (uint64_t)chf->nspans + 4;
  for (;;) {
    if (opct_is_boundary(g, reg, i, d)) {
      op_status st = push_vertex(raw_vertex(chf, g, reg, i, d), 4 * i + (uint32_t)d, verts, keys,
                                 n, cap, al, err);
      if (st != OP_OK) return st;
      d = (d + 1) & 3; /* turn: next side of the same span */
    } else {
      i = opct_nei(g, i, d);
      d = (d + 3) & 3; /* step into the neighbour, look back along the wall */
    }
    if (4 * i + (uint32_t)d == start) return OP_OK;
    if (++steps > limit)
      return op_fail_i(err, OP_E_LIMIT, "reg", (long long)start,
                       "the contour walk from this edge key does not close");
  }
}

/* REG-215 */
int64_t opct_area2(const op_cvert *v, uint32_t n) {
  int64_t a = 0;
  for (uint32_t j = 0; j < n; j++) {
    const op_cvert *p = &v[j], *q = &v[(j + 1) % n];
    a += (int64_t)p->x * q->z - (int64_t)q->x * p->z;
  }
  return a;
}

/* REG-200: argument checks, in order. */
static op_status check_args(const op_chf *chf, const uint16_t *reg, const op_contour_params *p,
                            const op_contour_set *out, op_error *err) {
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "null", "the heightfield is missing");
  if (!reg) return op_fail(err, OP_E_ARGUMENT, "reg", "null", "the region ids are missing");
  if (!p) return op_fail(err, OP_E_ARGUMENT, "params", "null", "the parameters are missing");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  int32_t side = chf->grid.width < chf->grid.depth ? chf->grid.width : chf->grid.depth;
  if (p->border < 0 || (int64_t)p->border * 2 > side)
    return op_fail_i(err, OP_E_RANGE, "border", p->border,
                     "must be >= 0 and at most half the grid's side");
  if (!isfinite(p->max_error) || p->max_error < 0 || p->max_error > 1024)
    return op_fail_d(err, OP_E_RANGE, "max_simplification_error", p->max_error,
                     "must be finite, 0 to 1024");
  if (p->max_edge_len < 0 || p->max_edge_len > 65535)
    return op_fail_i(err, OP_E_RANGE, "max_edge_len", p->max_edge_len, "must be 0 to 65535");
  if (chf->nspans > OP_CONTOUR_MAX_SPANS)
    return op_fail_i(err, OP_E_LIMIT, "nspans", (long long)chf->nspans,
                     "edge keys must fit 32 bits");
  return OP_OK;
}

static op_status push_loop(op_contour_set *cs, uint32_t *cap, const op_cloop *l,
                           op_alloc_count *al, op_error *err) {
  if (cs->nloops == *cap) {
    uint32_t nc = *cap ? *cap * 2 : 16;
    op_cloop *nl = opc_realloc(al, cs->loops, (size_t)nc * sizeof *nl);
    if (!nl) return opc_nomem(err, "memory");
    cs->loops = nl;
    *cap = nc;
  }
  cs->loops[cs->nloops++] = *l;
  return OP_OK;
}

/* REG-202, REG-208, REG-214: every loop, in order of its smallest edge key. */
static op_status trace_all(const op_chf *chf, const op_span_graph *g, const uint16_t *reg,
                           op_contour_set *cs, op_alloc_count *al, op_error *err) {
  uint32_t cap = 0, lcap = 0;
  /* every edge without a loop: OP_CONTOUR_NONE is all ones, so one memset */
  _Static_assert(OP_CONTOUR_NONE == 0xffffffffu, "edge_loop is cleared bytewise");
  memset(cs->edge_loop, 0xff, 4 * (size_t)chf->nspans * sizeof *cs->edge_loop);
  for (uint32_t i = 0; i < chf->nspans; i++) {
    if (!traced_region(reg[i])) continue;
    for (int d = 0; d < 4; d++) {
      uint32_t key = 4 * i + (uint32_t)d;
      if (cs->edge_loop[key] != OP_CONTOUR_NONE || !opct_is_boundary(g, reg, i, d)) continue;
      op_cloop l;
      memset(&l, 0, sizeof l);
      l.reg = reg[i];
      l.area = chf->areas[i];
      l.start_key = key;
      l.raw_start = cs->nraw;
      op_status st = opct_walk(chf, g, reg, key, &cs->raw, &cs->raw_edge, &cs->nraw, &cap, al,
                                 err);
      if (st != OP_OK) return st;
      l.nraw = cs->nraw - l.raw_start;
      for (uint32_t j = l.raw_start; j < cs->nraw; j++) cs->edge_loop[cs->raw_edge[j]] = cs->nloops;
      l.area2 = opct_area2(cs->raw + l.raw_start, l.nraw);
      l.hole = l.area2 > 0;
      st = push_loop(cs, &lcap, &l, al, err);
      if (st != OP_OK) return st;
    }
  }
  return OP_OK;
}

/* REG-209 .. REG-213, REG-225 for every loop. */
static op_status simplify_all(op_contour_set *cs, const op_contour_params *p, int32_t climb,
                              op_alloc_count *al, op_error *err) {
  cs->simp = opc_malloc(al, ((size_t)cs->nraw + 1) * sizeof *cs->simp);
  if (!cs->simp) return opc_nomem(err, "memory");
  cs->nsimp = 0;
  uint32_t maxn = 1;
  for (uint32_t k = 0; k < cs->nloops; k++)
    if (cs->loops[k].nraw > maxn) maxn = cs->loops[k].nraw;
  uint8_t *keep = opc_malloc(al, maxn);
  uint32_t *stack = opc_malloc(al, 4 * (size_t)maxn * sizeof *stack);
  if (!keep || !stack) {
    free(keep);
    free(stack);
    return opc_nomem(err, "memory");
  }
  for (uint32_t k = 0; k < cs->nloops; k++) {
    op_cloop *l = &cs->loops[k];
    l->simp_start = cs->nsimp;
    l->nsimp = opct_simplify(cs->raw + l->raw_start, l->nraw, l->area, p->max_error,
                             p->max_edge_len, climb, cs->simp + cs->nsimp, keep, stack);
    cs->nsimp += l->nsimp;
  }
  free(keep);
  free(stack);
  return OP_OK;
}

/* REG-200, REG-221 */
op_status op_contours_build(const op_chf *chf, const uint16_t *reg, const op_contour_params *p,
                            op_contour_set *out, op_error *err) {
  return op_contours_build_counted(chf, reg, p, NULL, out, err);
}

/* CONF-059: every allocation of the trace, the simplification and the join counted on al. */
op_status op_contours_build_counted(const op_chf *chf, const uint16_t *reg,
                                    const op_contour_params *p, op_alloc_count *al,
                                    op_contour_set *out, op_error *err) {
  op_status st = check_args(chf, reg, p, out, err);
  if (st != OP_OK) return st;
  op_span_graph g;
  st = op_span_graph_build(chf, &g, err);
  if (st != OP_OK) return st;
  op_contour_set cs;
  memset(&cs, 0, sizeof cs);
  cs.width = chf->grid.width;
  cs.depth = chf->grid.depth;
  cs.border = p->border;
  cs.nspans = chf->nspans;
  cs.edge_loop = opc_malloc(al, (4 * (size_t)chf->nspans + 1) * sizeof *cs.edge_loop);
  if (!cs.edge_loop) st = opc_nomem(err, "memory");
  if (st == OP_OK) st = trace_all(chf, &g, reg, &cs, al, err);
  op_span_graph_free(&g);
  if (st == OP_OK) st = simplify_all(&cs, p, chf->walkable_climb, al, err);
  if (st == OP_OK) st = opct_join_counted(&cs, al, err);
  if (st != OP_OK) {
    op_contour_set_free(&cs);
    return st;
  }
  *out = cs;
  return OP_OK;
}

/* ------------------------------------------------------------ bytes (REG-222) */

static void wvert(opc_buf *b, const op_cvert *v) {
  opc_put_u32(b, (uint32_t)v->x);
  opc_put_u32(b, (uint32_t)v->y);
  opc_put_u32(b, (uint32_t)v->z);
  opc_put_u16(b, v->reg);
  opc_put_u8(b, v->area);
  opc_put_u8(b, v->flags);
}

/* REG-222 */
op_status op_contours_save(const op_contour_set *cs, op_bytes *out, op_error *err) {
  if (!cs) return op_fail(err, OP_E_ARGUMENT, "contours", "null", "the contour set is missing");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  size_t len = 8 + 9 * 4 + (size_t)cs->nloops * 24 + (size_t)cs->nraw * 20 +
               (size_t)cs->nsimp * 4 + (size_t)cs->ncontours * 11 + (size_t)cs->nverts * 16;
  opc_buf b = {NULL, 0, 0, 0};
  if (opc_buf_reserve(&b, len)) return opc_nomem(err, "memory"); /* exact size: no put reallocates */
  opc_put(&b, "OPCTR001", 8);
  opc_put_u32(&b, (uint32_t)cs->width);
  opc_put_u32(&b, (uint32_t)cs->depth);
  opc_put_u32(&b, (uint32_t)cs->border);
  opc_put_u32(&b, cs->nspans);
  opc_put_u32(&b, cs->nloops);
  opc_put_u32(&b, cs->nraw);
  opc_put_u32(&b, cs->nsimp);
  opc_put_u32(&b, cs->ncontours);
  opc_put_u32(&b, cs->unjoined_holes);
  for (uint32_t k = 0; k < cs->nloops; k++) {
    const op_cloop *l = &cs->loops[k];
    opc_put_u16(&b, l->reg);
    opc_put_u8(&b, l->area);
    opc_put_u8(&b, l->hole);
    opc_put_u32(&b, l->start_key);
    opc_put_u32(&b, l->nraw);
    opc_put_u32(&b, l->nsimp);
    opc_put_u64(&b, (uint64_t)l->area2);
    for (uint32_t j = 0; j < l->nraw; j++) {
      wvert(&b, &cs->raw[l->raw_start + j]);
      opc_put_u32(&b, cs->raw_edge[l->raw_start + j]);
    }
    for (uint32_t j = 0; j < l->nsimp; j++) opc_put_u32(&b, cs->simp[l->simp_start + j]);
  }
  for (uint32_t k = 0; k < cs->ncontours; k++) {
    const op_contour *c = &cs->contours[k];
    opc_put_u16(&b, c->reg);
    opc_put_u8(&b, c->area);
    opc_put_u32(&b, c->loop);
    opc_put_u32(&b, c->nverts);
    for (uint32_t j = 0; j < c->nverts; j++) wvert(&b, &cs->verts[c->vert_start + j]);
  }
  assert(!b.oom && b.len == len);
  out->data = b.p;
  out->len = b.len;
  return OP_OK;
}
