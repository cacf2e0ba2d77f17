/*
** repair.c -- the repair of a layer after spans were removed (spec/build3d-runtime.md
** section 8, RT-100 .. RT-106): the preconditions (RT-101) with the connectivity search
** and its budget (RT-102), the repaired regions (RT-103), the loops traced again next to
** the removed spans (RT-104) and the re-assembly of the regions they touch (RT-105). The
** result is the contour set REG-200 gives for the same areas, byte for byte (RT-106).
** Contract: ref/build3d/runtime/repair.h; caller: ref/build3d/runtime/tilecache.c.
** Speed (no result changes): the scan for removed spans and the region runs compare eight
** bytes at a time where nothing differs, and RT-101 (b)'s neighbour test is skipped when the
** layer has no region below MinRegionArea, since only a span of such a region can fail it.
** The corner fix of RT-104 tests its cheap exits inline before recomputing a raw vertex.
*/
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/internal.h"
#include "build3d/runtime/repair.h"
#include "build3d/spans/spans_internal.h"

#define RP_NONE OP_CONTOUR_NONE
#define RP_MAX_JOINED (2 + 2 * OP_CHF_MAX_COLUMN) /* -x, -z links, plus reverse links */

/* A loop traced by the repair (RT-104), in the trace buffers. */
typedef struct rp_new {
  uint32_t key;          /* start key after rotation (its smallest edge key) */
  uint32_t raw0, nraw;   /* into rp.traw / rp.tkey */
  uint32_t simp0, nsimp; /* into rp.tsimp */
  uint16_t reg;
  uint8_t area;
  int64_t area2;
} rp_new;

/* The state of one repair; every pointer is owned and freed by rp_free. */
typedef struct rp {
  const op_chf *view;      /* first-build areas A0 */
  op_chf va;               /* the same view with the areas in force A */
  const op_span_graph *g;
  const uint16_t *reg0;
  const op_contour_set *cs0;
  const op_contour_params *p;
  uint32_t n, nreg, min_area;
  int edge_map;            /* 1: the result gets its edge map (REG-214); 0: not made */
  /* RT-101 */
  uint8_t *removed;        /* n */
  uint32_t *rem, nrem;     /* removed spans, ascending */
  uint32_t *size, *lost, *first; /* nreg + 1: spans, removed spans, first span not removed */
  /* RT-102 */
  uint8_t *tag;            /* n: RP_INSET | RP_RING | RP_SEEN (a span of region r is only
                           ** tagged while r is checked: no epochs, no reset) */
  uint32_t *queue;         /* n */
  uint64_t *pairs;         /* (region << 32) | ring span */
  uint32_t npairs, budget, count;
  /* RT-103 .. RT-105 */
  uint16_t *reg;           /* n: repaired regions */
  uint8_t *newown;         /* 4n bits: edge owned by a new loop */
  uint8_t *gone;           /* cs0->nloops */
  uint32_t *newidx;        /* cs0->nloops: final loop number, RP_NONE when gone */
  uint8_t *dirty;          /* nreg + 1: region re-assembled */
  op_cvert *traw;
  uint32_t *tkey, tn, tcap;
  uint32_t *tsimp;
  rp_new *nw;
  uint32_t nnew, capnew;
  op_alloc_count *al;      /* CONF-059: NULL, or the counter of every allocation above */
} rp;


static void rp_free(rp *w) {
  free(w->removed);
  free(w->rem);
  free(w->size);
  free(w->lost);
  free(w->first);
  free(w->tag);
  free(w->queue);
  free(w->pairs);
  free(w->reg);
  free(w->newown);
  free(w->gone);
  free(w->newidx);
  free(w->dirty);
  free(w->traw);
  free(w->tkey);
  free(w->tsimp);
  free(w->nw);
}

static int ordinary(uint16_t r) { return r != 0 && !(r & OP_REG_BORDER); } /* REG-001 */

/* RT-105: region r is re-assembled (r an ordinary region of the layer). */
static int is_dirty(const rp *w, uint16_t r) { return r <= w->nreg && w->dirty[r]; }
static void set_dirty(rp *w, uint16_t r) {
  if (r <= w->nreg) w->dirty[r] = 1;
}

/* ------------------------------------------------------------ RT-101 (a) */

/* Each ordinary region's size, removed count and first span not removed (the removed
** spans known). The spans are taken in runs of one region (a column's spans and the next
** columns' mostly share one): a run adds its length to the size at once, and grows four
** region values (one 8-byte word) at a time. */
static void region_counts(rp *w) {
  const uint16_t *reg0 = w->reg0;
  const uint8_t *removed = w->removed;
  uint32_t *size = w->size, *first = w->first, nreg = w->nreg;
  for (uint32_t i = 0, j; i < w->n; i = j) {
    uint16_t r = reg0[i];
    const uint64_t r4 = 0x0001000100010001u * r; /* four spans of region r */
    j = i + 1;
    for (uint64_t x; j + 4 <= w->n && (memcpy(&x, reg0 + j, 8), x == r4);) j += 4;
    while (j < w->n && reg0[j] == r) j++;
    if (!ordinary(r) || r > nreg) continue;
    size[r] += j - i;
    for (uint32_t k = i; k < j && first[r] == RP_NONE; k++)
      if (!removed[k]) first[r] = k;
  }
  for (uint32_t k = 0; k < w->nrem; k++) {
    uint16_t r = reg0[w->rem[k]];
    if (ordinary(r) && r <= nreg) w->lost[r]++;
  }
}

/* RT-101: the removed spans (A0 != 0, A = 0), and (a): 1 when every changed span is
** removed. Also each ordinary region's size, removed count and first span not removed. */
static op_status scan(rp *w, const uint8_t *areas, int *only_removed, op_error *err) {
  uint32_t n = w->n, nr = w->nreg + 1;
  w->removed = opc_calloc(w->al, n ? n : 1, 1);
  w->rem = opc_malloc(w->al, (n ? n : 1) * sizeof *w->rem);
  w->size = opc_calloc(w->al, nr, sizeof *w->size);
  w->lost = opc_calloc(w->al, nr, sizeof *w->lost);
  w->first = opc_malloc(w->al, nr * sizeof *w->first);
  if (!w->removed || !w->rem || !w->size || !w->lost || !w->first) return opc_nomem(err, "cache");
  for (uint32_t r = 0; r < nr; r++) w->first[r] = RP_NONE;
  const uint8_t *a0 = w->view->areas;
  uint32_t *rem = w->rem, nrem = 0;
  int only = 1;
  for (uint32_t i = 0; i < n;) { /* eight spans at a time where nothing changed */
    uint64_t x, y;
    if (i + 8 <= n) {
      memcpy(&x, areas + i, 8), memcpy(&y, a0 + i, 8);
      if (x == y) {
        i += 8;
        continue;
      }
    }
    for (uint32_t e = i + 8 < n ? i + 8 : n; i < e; i++) {
      if (areas[i] == a0[i]) continue;
      if (a0[i] != OP_AREA_NULL && areas[i] == OP_AREA_NULL) {
        w->removed[i] = 1;
        rem[nrem++] = i;
      } else {
        only = 0;
      }
    }
  }
  w->nrem = nrem;
  *only_removed = only;
  region_counts(w);
  return OP_OK;
}

/* ------------------------------------------------------------ RT-101 (b) */

/* The column (x, z) of span u (SPAN-140). */
typedef struct rp_col {
  int32_t x, z;
} rp_col;

static rp_col column_of(const rp *w, uint32_t u) {
  uint32_t c = w->g->column[u], wd = (uint32_t)w->view->grid.width;
  rp_col k = {(int32_t)(c % wd), (int32_t)(c / wd)};
  return k;
}

/* The spans in the column of span u (at uc) moved by -(dx_d, dz_d) whose link in direction
** d names u (a link to u from the other side, REG-003): appended to out. */
static uint32_t links_to(const rp *w, uint32_t u, rp_col uc, int d, uint32_t *out, uint32_t k) {
  int32_t wd = w->view->grid.width, dp = w->view->grid.depth;
  int32_t x = uc.x - opsp_dir_dx[d];
  int32_t z = uc.z - opsp_dir_dz[d]; /* SPAN-140 */
  if (x < 0 || z < 0 || x >= wd || z >= dp) return k;
  size_t cc = (size_t)z * (size_t)wd + (size_t)x;
  for (uint32_t v = w->view->cell_index[cc], e = v + w->view->cell_count[cc]; v < e; v++)
    if (w->g->nei[4 * (size_t)v + (size_t)d] == u) out[k++] = v;
  return k;
}

/* RT-101 (b), second half: span s belongs to an ordinary region of fewer than
** MinRegionArea spans. */
static int small_region(const rp *w, uint32_t s) {
  uint16_t r = w->reg0[s];
  return ordinary(r) && r <= w->nreg && w->size[r] < w->min_area;
}

/* RT-101 (b): 1 when it holds. */
static int check_small(const rp *w) {
  uint32_t keep = w->min_area > 1 ? w->min_area : 1;
  for (uint32_t k = 0; k < w->nrem; k++) { /* no region shrinks below max(min, 1) */
    uint16_t r = w->reg0[w->rem[k]];
    if (ordinary(r) && r <= w->nreg && w->size[r] - w->lost[r] < keep) return 0;
  }
  if (w->min_area == 0) return 1;
  int any_small = 0; /* no small region in the layer: no span can be next to one */
  for (uint32_t r = 1; r <= w->nreg && !any_small; r++)
    any_small = ordinary((uint16_t)r) && w->size[r] < w->min_area;
  if (!any_small) return 1;
  uint32_t nb[4 + 4 * OP_CHF_MAX_COLUMN];
  for (uint32_t k = 0; k < w->nrem; k++) { /* small regions are not touched */
    uint32_t r = w->rem[k], m = 0;
    if (small_region(w, r)) return 0;
    const rp_col rc = column_of(w, r);
    for (int d = 0; d < 4; d++) {
      uint32_t s = w->g->nei[4 * (size_t)r + (size_t)d];
      if (s != OP_HF_NONE) nb[m++] = s;
      m = links_to(w, r, rc, d, nb, m);
    }
    for (uint32_t j = 0; j < m; j++)
      if (small_region(w, nb[j])) return 0;
  }
  return 1;
}

/* ------------------------------------------------------------ RT-101 (c), RT-102 */

/* Span v is of region r and not removed. */
static int kept_in(const rp *w, uint32_t v, uint16_t r) {
  return w->reg0[v] == r && !w->removed[v];
}

/* RT-084's joined relation within ordinary region r (one area, outside the ring): the
** spans of r that are not removed and are u's -x or -z neighbour or have u as theirs,
** ascending. */
static uint32_t joined(const rp *w, uint32_t u, uint16_t r, uint32_t *out) {
  uint32_t k = 0, tmp[RP_MAX_JOINED];
  uint32_t a = w->g->nei[4 * (size_t)u + 0], b = w->g->nei[4 * (size_t)u + 3];
  if (a != OP_HF_NONE) tmp[k++] = a;
  if (b != OP_HF_NONE) tmp[k++] = b;
  const rp_col uc = column_of(w, u);
  k = links_to(w, u, uc, 0, tmp, k); /* spans whose -x link is u: column x + 1 */
  k = links_to(w, u, uc, 3, tmp, k); /* spans whose -z link is u: column z + 1 */
  uint32_t m = 0;
  for (uint32_t j = 0; j < k; j++) {
    if (!kept_in(w, tmp[j], r)) continue;
    uint32_t v = tmp[j], q = m++; /* insertion, ascending; the columns differ: no repeats */
    while (q > 0 && out[q - 1] > v) {
      out[q] = out[q - 1];
      q--;
    }
    out[q] = v;
  }
  return m;
}

static int pair_cmp(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return (a > b) - (a < b);
}

/* RT-101 (c): the ring of every region that lost spans, as sorted (region, span) pairs. */
static op_status rings(rp *w, op_error *err) {
  size_t cap = 4 * (size_t)w->nrem + RP_MAX_JOINED;
  w->pairs = opc_malloc(w->al, cap * sizeof *w->pairs);
  if (!w->pairs) return opc_nomem(err, "cache");
  uint32_t nb[RP_MAX_JOINED];
  for (uint32_t k = 0; k < w->nrem; k++) {
    uint32_t r = w->rem[k];
    uint16_t rg = w->reg0[r];
    if (!ordinary(rg) || rg > w->nreg) continue;
    if (w->npairs + RP_MAX_JOINED > cap) {
      uint64_t *np = opc_realloc(w->al, w->pairs, 2 * cap * sizeof *np);
      if (!np) return opc_nomem(err, "cache");
      w->pairs = np;
      cap *= 2;
    }
    uint32_t m = joined(w, r, rg, nb);
    for (uint32_t j = 0; j < m; j++) w->pairs[w->npairs++] = ((uint64_t)rg << 32) | nb[j];
  }
  if (w->npairs > 1) qsort(w->pairs, w->npairs, sizeof *w->pairs, pair_cmp);
  uint32_t m = 0;
  for (uint32_t k = 0; k < w->npairs; k++)
    if (m == 0 || w->pairs[k] != w->pairs[m - 1]) w->pairs[m++] = w->pairs[k];
  w->npairs = m;
  return OP_OK;
}

/* Tags of w->tag: every span tagged while region r is checked is a span of r (the ring,
** joined() and the searches reach only spans of r), and each region is checked once. */
#define RP_INSET 1u       /* in the local set of RT-102 step 1 */
#define RP_RING 2u        /* a ring span */
#define RP_SEEN_LOCAL 4u  /* reached by step 1 */
#define RP_SEEN_GLOBAL 8u /* reached by step 2 */

/* RT-102 step 1 (global 0) or step 2 (global 1) for region r whose ring is
** ring[0 .. nring - 1] (ascending; its spans tagged RP_RING). Local: only the spans tagged
** RP_INSET. Returns 1 when every ring span is reached, 0 when the search ends without, -1
** when the layer's count exceeds the budget. */
static int search(rp *w, uint16_t r, const uint64_t *ring, uint32_t nring, int global) {
  const uint8_t mark = global ? RP_SEEN_GLOBAL : RP_SEEN_LOCAL;
  uint32_t head = 0, tail = 0, reached = 1;
  uint32_t nb[RP_MAX_JOINED];
  uint32_t s0 = (uint32_t)ring[0];
  w->tag[s0] |= mark;
  w->queue[tail++] = s0;
  for (;;) {
    if (reached == nring) return 1;
    if (head == tail) return 0;
    uint32_t u = w->queue[head++];
    if (global && ++w->count > w->budget) return -1;
    uint32_t m = joined(w, u, r, nb);
    for (uint32_t j = 0; j < m; j++) {
      uint32_t v = nb[j];
      if ((w->tag[v] & mark) || (!global && !(w->tag[v] & RP_INSET))) continue;
      w->tag[v] |= mark;
      if (w->tag[v] & RP_RING) reached++;
      w->queue[tail++] = v;
    }
  }
}

/* RT-101 (c) by RT-102: 1 when every region that lost spans is one piece. */
static op_status check_split(rp *w, int *ok, op_error *err) {
  *ok = 1;
  op_status st = rings(w, err);
  if (st != OP_OK) return st;
  uint32_t n1 = w->n ? w->n : 1;
  w->tag = opc_calloc(w->al, n1, 1);
  w->queue = opc_malloc(w->al, n1 * sizeof *w->queue);
  if (!w->tag || !w->queue) return opc_nomem(err, "cache");
  w->budget = w->n / 4 > 256 ? w->n / 4 : 256; /* RT-102 */
  w->count = 0;
  uint32_t nb[RP_MAX_JOINED];
  for (uint32_t k = 0; k < w->npairs;) { /* regions in ascending number */
    uint16_t r = (uint16_t)(w->pairs[k] >> 32);
    uint32_t e = k;
    while (e < w->npairs && (uint16_t)(w->pairs[e] >> 32) == r) e++;
    for (uint32_t j = k; j < e; j++) { /* the local set: the ring and its joined spans */
      uint32_t s = (uint32_t)w->pairs[j];
      w->tag[s] |= RP_RING | RP_INSET;
      uint32_t m = joined(w, s, r, nb);
      for (uint32_t q = 0; q < m; q++) w->tag[nb[q]] |= RP_INSET;
    }
    int res = search(w, r, w->pairs + k, e - k, 0);
    if (res != 1) res = search(w, r, w->pairs + k, e - k, 1);
    if (res != 1) {
      *ok = 0;
      return OP_OK;
    }
    k = e;
  }
  return OP_OK;
}

/* RT-101 (d): the first spans not removed ascend with the region number. */
static int check_numbers(const rp *w) {
  uint32_t prev = 0;
  for (uint32_t r = 1; r <= w->nreg; r++) {
    uint32_t f = w->first[r];
    if (f == RP_NONE) return 0; /* (b) excludes this; a region with no span at all */
    if (r > 1 && f <= prev) return 0;
    prev = f;
  }
  return 1;
}

/* ------------------------------------------------------------ RT-103, RT-104 */

static int traced(uint16_t r) { return ordinary(r); } /* REG-201 */

static int key_cmp(const void *x, const void *y) {
  uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
  return (a > b) - (a < b);
}

static void reverse(op_cvert *v, uint32_t *k, uint32_t a, uint32_t b) { /* [a, b) */
  while (a + 1 < b) {
    b--;
    op_cvert tv = v[a];
    v[a] = v[b];
    v[b] = tv;
    uint32_t tk = k[a];
    k[a] = k[b];
    k[b] = tk;
    a++;
  }
}

/* RT-104: rotates the loop traced into [a, b) to start at its smallest edge key (the
** start REG-208's scan gives). */
static void rotate_to_least(rp *w, uint32_t a, uint32_t b) {
  uint32_t m = a;
  for (uint32_t j = a + 1; j < b; j++)
    if (w->tkey[j] < w->tkey[m]) m = j;
  if (m == a) return;
  reverse(w->traw, w->tkey, a, m);
  reverse(w->traw, w->tkey, m, b);
  reverse(w->traw, w->tkey, a, b);
}

static op_status push_new(rp *w, const rp_new *l, op_error *err) {
  if (w->nnew == w->capnew) {
    uint32_t nc = w->capnew ? 2 * w->capnew : 16;
    rp_new *nv = opc_realloc(w->al, w->nw, (size_t)nc * sizeof *nv);
    if (!nv) return opc_nomem(err, "cache");
    w->nw = nv;
    w->capnew = nc;
  }
  w->nw[w->nnew++] = *l;
  return OP_OK;
}

/* RT-104: one new loop from start key `key`. */
static op_status trace_one(rp *w, uint32_t key, op_error *err) {
  uint32_t a = w->tn;
  op_status st = opct_walk(&w->va, w->g, w->reg, key, &w->traw, &w->tkey, &w->tn, &w->tcap,
                           w->al, err); /* REG-208 */
  if (st != OP_OK) return st;
  for (uint32_t j = a; j < w->tn; j++) {
    uint32_t k = w->tkey[j], o = w->cs0->edge_loop[k];
    w->newown[k >> 3] |= (uint8_t)(1u << (k & 7));
    if (o != RP_NONE) w->gone[o] = 1; /* an old loop with an edge in a new loop */
  }
  rotate_to_least(w, a, w->tn);
  rp_new l;
  memset(&l, 0, sizeof l);
  l.key = w->tkey[a];
  l.raw0 = a;
  l.nraw = w->tn - a;
  l.reg = w->reg[l.key >> 2];
  l.area = w->va.areas[l.key >> 2];
  l.area2 = opct_area2(w->traw + a, l.nraw); /* REG-215 */
  return push_new(w, &l, err);
}

/* RT-103: the repaired regions. RT-104: the new loops, and which old loops are gone. */
static op_status trace_new(rp *w, op_error *err) {
  uint32_t n = w->n, nl = w->cs0->nloops;
  w->reg = opc_malloc(w->al, (n ? n : 1) * sizeof *w->reg);
  w->newown = opc_calloc(w->al, ((size_t)4 * n + 8) / 8, 1);
  w->gone = opc_calloc(w->al, nl ? nl : 1, 1);
  uint32_t *cand = opc_malloc(w->al, (4 * (size_t)w->nrem + 1) * sizeof *cand);
  if (!w->reg || !w->newown || !w->gone || !cand) {
    free(cand);
    return opc_nomem(err, "cache");
  }
  memcpy(w->reg, w->reg0, (size_t)n * sizeof *w->reg);
  for (uint32_t k = 0; k < w->nrem; k++) w->reg[w->rem[k]] = 0; /* RT-103 */
  uint32_t nc = 0;
  for (uint32_t k = 0; k < w->nrem; k++) {
    uint32_t r = w->rem[k];
    for (int d = 0; d < 4; d++) {
      uint32_t o = w->cs0->edge_loop[4 * (size_t)r + (size_t)d];
      if (o != RP_NONE) w->gone[o] = 1; /* an old loop owning an edge of a removed span */
      uint32_t s = opct_nei(w->g, r, d); /* r is across edge (s, d + 2) (REG-203) */
      if (s != OP_CONTOUR_NONE && !w->removed[s] && traced(w->reg[s]))
        cand[nc++] = 4 * s + (uint32_t)((d + 2) & 3);
    }
  }
  if (nc > 1) qsort(cand, nc, sizeof *cand, key_cmp);
  op_status st = OP_OK;
  for (uint32_t k = 0; k < nc && st == OP_OK; k++)
    if (!(w->newown[cand[k] >> 3] & (1u << (cand[k] & 7)))) st = trace_one(w, cand[k], err);
  free(cand);
  return st;
}

static int new_cmp(const void *x, const void *y) {
  const rp_new *a = x, *b = y;
  return (a->key > b->key) - (a->key < b->key);
}

/* REG-209 .. REG-213, REG-225 for every new loop (after rotation). */
static op_status simplify_new(rp *w, op_error *err) {
  uint32_t maxn = 1;
  for (uint32_t k = 0; k < w->nnew; k++)
    if (w->nw[k].nraw > maxn) maxn = w->nw[k].nraw;
  w->tsimp = opc_malloc(w->al, ((size_t)w->tn + 1) * sizeof *w->tsimp);
  uint8_t *keep = opc_malloc(w->al, maxn);
  uint32_t *stack = opc_malloc(w->al, 4 * (size_t)maxn * sizeof *stack);
  if (!w->tsimp || !keep || !stack) {
    free(keep);
    free(stack);
    return opc_nomem(err, "cache");
  }
  uint32_t ns = 0;
  for (uint32_t k = 0; k < w->nnew; k++) {
    rp_new *l = &w->nw[k];
    l->simp0 = ns;
    l->nsimp = opct_simplify(w->traw + l->raw0, l->nraw, l->area, w->p->max_error,
                             w->p->max_edge_len, w->view->walkable_climb, w->tsimp + ns, keep,
                             stack); /* REG-225 */
    ns += l->nsimp;
  }
  free(keep);
  free(stack);
  if (w->nnew > 1) qsort(w->nw, w->nnew, sizeof *w->nw, new_cmp); /* ascending start key */
  return OP_OK;
}

/* ------------------------------------------------------------ RT-105 */

/* REG-214: the edge map of the repaired layer (its loops assembled): the old owners
** renumbered, then the edges of the new loops. */
static void edge_map(const rp *w, op_contour_set *out) {
  const uint32_t *el0 = w->cs0->edge_loop, *nidx = w->newidx;
  uint32_t *el = out->edge_loop;
  for (size_t e = 0, ne = 4 * (size_t)w->n; e < ne; e++) {
    uint32_t ow = el0[e];
    el[e] = ow == RP_NONE ? RP_NONE : nidx[ow];
  }
  for (uint32_t k = 0; k < out->nloops; k++) {
    const op_cloop *l = &out->loops[k];
    if (w->newown[l->start_key >> 3] & (1u << (l->start_key & 7))) /* a new loop */
      for (uint32_t q = 0; q < l->nraw; q++) el[out->raw_edge[l->raw_start + q]] = k;
  }
}

/* The loops of the repaired layer in ascending start key: surviving old loops and new
** loops, with their raw vertices, edge keys and simplified forms; the edge map when asked. */
static op_status assemble_loops(rp *w, op_contour_set *out, op_error *err) {
  const op_contour_set *c0 = w->cs0;
  uint32_t nl = 0, nraw = 0, nsimp = 0;
  w->newidx = opc_malloc(w->al, ((size_t)c0->nloops + 1) * sizeof *w->newidx);
  if (!w->newidx) return opc_nomem(err, "cache");
  for (uint32_t o = 0; o < c0->nloops; o++)
    if (!w->gone[o]) {
      nl++;
      nraw += c0->loops[o].nraw;
      nsimp += c0->loops[o].nsimp;
    }
  for (uint32_t k = 0; k < w->nnew; k++) {
    nl++;
    nraw += w->nw[k].nraw;
    nsimp += w->nw[k].nsimp;
  }
  out->loops = opc_malloc(w->al, ((size_t)nl + 1) * sizeof *out->loops);
  out->raw = opc_malloc(w->al, ((size_t)nraw + 1) * sizeof *out->raw);
  out->raw_edge = opc_malloc(w->al, ((size_t)nraw + 1) * sizeof *out->raw_edge);
  out->simp = opc_malloc(w->al, ((size_t)nsimp + 1) * sizeof *out->simp);
  if (w->edge_map)
    out->edge_loop = opc_malloc(w->al, (4 * (size_t)w->n + 1) * sizeof *out->edge_loop);
  if (!out->loops || !out->raw || !out->raw_edge || !out->simp || (w->edge_map && !out->edge_loop))
    return opc_nomem(err, "cache");
  uint32_t o = 0, j = 0;
  for (uint32_t k = 0; k < nl; k++) {
    while (o < c0->nloops && w->gone[o]) w->newidx[o++] = RP_NONE;
    op_cloop *l = &out->loops[k];
    if (o < c0->nloops && (j == w->nnew || c0->loops[o].start_key < w->nw[j].key)) {
      *l = c0->loops[o]; /* a surviving loop: its raw vertices and simplified form */
      memcpy(out->raw + out->nraw, c0->raw + l->raw_start, (size_t)l->nraw * sizeof *out->raw);
      memcpy(out->raw_edge + out->nraw, c0->raw_edge + l->raw_start,
             (size_t)l->nraw * sizeof *out->raw_edge);
      memcpy(out->simp + out->nsimp, c0->simp + l->simp_start,
             (size_t)l->nsimp * sizeof *out->simp);
      w->newidx[o++] = k;
    } else {
      const rp_new *q = &w->nw[j++];
      memset(l, 0, sizeof *l);
      l->reg = q->reg;
      l->area = q->area;
      l->hole = q->area2 > 0; /* REG-215 */
      l->start_key = q->key;
      l->nraw = q->nraw;
      l->nsimp = q->nsimp;
      l->area2 = q->area2;
      memcpy(out->raw + out->nraw, w->traw + q->raw0, (size_t)q->nraw * sizeof *out->raw);
      memcpy(out->raw_edge + out->nraw, w->tkey + q->raw0, (size_t)q->nraw * sizeof *out->raw_edge);
      memcpy(out->simp + out->nsimp, w->tsimp + q->simp0, (size_t)q->nsimp * sizeof *out->simp);
    }
    l->raw_start = out->nraw;
    l->simp_start = out->nsimp;
    out->nraw += l->nraw;
    out->nsimp += l->nsimp;
  }
  while (o < c0->nloops) w->newidx[o++] = RP_NONE;
  out->nloops = nl;
  if (w->edge_map) edge_map(w, out);
  return OP_OK;
}

/* RT-104: a surviving loop's raw vertex whose corner has a removed span as its diagonal
** cell (REG-206's D) is recomputed (only its tile-border flag can change); its region is
** re-assembled. */
static void fix_corner_at(rp *w, op_contour_set *out, uint32_t i, int d, uint32_t key,
                          uint32_t o) {
  op_cvert a = opct_raw_vertex(w->view, w->g, w->reg0, i, d);
  op_cvert b = opct_raw_vertex(&w->va, w->g, w->reg, i, d);
  if (a.flags == b.flags && a.reg == b.reg && a.area == b.area && a.y == b.y) return;
  const op_cloop *l = &out->loops[w->newidx[o]];
  for (uint32_t q = 0; q < l->nraw; q++)
    if (out->raw_edge[l->raw_start + q] == key) out->raw[l->raw_start + q] = b;
  set_dirty(w, l->reg);
}

/* fix_corner_at's cheap tests first, inline (most corners next to a removed span are of a
** removed span or of a gone loop). */
static inline void fix_corner(rp *w, op_contour_set *out, uint32_t i, int d) {
  if (i == OP_CONTOUR_NONE || w->removed[i]) return;
  uint32_t key = 4 * i + (uint32_t)d, o = w->cs0->edge_loop[key];
  if (o == RP_NONE || w->gone[o]) return;
  fix_corner_at(w, out, i, d, key, o);
}

static void fix_corners(rp *w, op_contour_set *out) {
  for (uint32_t k = 0; k < w->nrem; k++) {
    uint32_t r = w->rem[k];
    for (int d = 0; d < 4; d++) { /* r as DB of edge (i, d), then as DA */
      int d1 = (d + 1) & 3, d2 = (d + 2) & 3;
      uint32_t b = opct_nei(w->g, r, d2), a = opct_nei(w->g, r, d1);
      if (b != OP_CONTOUR_NONE) fix_corner(w, out, opct_nei(w->g, b, d1), d);
      if (a != OP_CONTOUR_NONE) fix_corner(w, out, opct_nei(w->g, a, d2), d);
    }
  }
}

/* REG-216 .. REG-219 on the loops of the dirty regions of set `src` (their raw vertices
** and simplified forms; loops in ascending start key): the joined contours in *tmp, with
** tmp->loops[t] a copy of src->loops[map[t]]. */
static op_status join_dirty(const rp *w, const op_contour_set *src, op_contour_set *tmp,
                            uint32_t **map, op_error *err) {
  memset(tmp, 0, sizeof *tmp);
  *map = opc_malloc(w->al, ((size_t)src->nloops + 1) * sizeof **map);
  tmp->loops = opc_malloc(w->al, ((size_t)src->nloops + 1) * sizeof *tmp->loops);
  if (!*map || !tmp->loops) return opc_nomem(err, "cache");
  for (uint32_t o = 0; o < src->nloops; o++)
    if (is_dirty(w, src->loops[o].reg)) {
      (*map)[tmp->nloops] = o;
      tmp->loops[tmp->nloops++] = src->loops[o];
    }
  tmp->raw = src->raw;
  tmp->simp = src->simp;
  return opct_join_counted(tmp, w->al, err);
}

static void tmp_free(op_contour_set *tmp, uint32_t *map) {
  free(tmp->loops);
  free(tmp->contours);
  free(tmp->verts);
  free(map);
}

/* RT-105: the contours: those of untouched regions copied, the dirty regions' joined
** again, all in ascending start key of their outline loop (REG-220). */
static op_status assemble_contours(rp *w, op_contour_set *out, op_error *err) {
  const op_contour_set *c0 = w->cs0;
  op_contour_set tmp;
  uint32_t *map = NULL;
  op_status st = join_dirty(w, out, &tmp, &map, err);
  uint32_t old_unjoined = 0;
  if (st == OP_OK && c0->unjoined_holes) { /* the dirty regions' share of the old count */
    op_contour_set t0;
    uint32_t *m0 = NULL;
    st = join_dirty(w, c0, &t0, &m0, err);
    old_unjoined = t0.unjoined_holes;
    tmp_free(&t0, m0);
  }
  uint32_t nc = tmp.ncontours, nv = tmp.nverts;
  for (uint32_t k = 0; k < c0->ncontours; k++)
    if (!is_dirty(w, c0->contours[k].reg)) {
      nc++;
      nv += c0->contours[k].nverts;
    }
  if (st == OP_OK) {
    out->contours = opc_malloc(w->al, ((size_t)nc + 1) * sizeof *out->contours);
    out->verts = opc_malloc(w->al, ((size_t)nv + 1) * sizeof *out->verts);
    if (!out->contours || !out->verts) st = opc_nomem(err, "cache");
  }
  if (st != OP_OK) {
    tmp_free(&tmp, map);
    return st;
  }
  uint32_t a = 0, b = 0;
  for (uint32_t k = 0; k < nc; k++) {
    while (a < c0->ncontours && is_dirty(w, c0->contours[a].reg)) a++;
    uint32_t la = a < c0->ncontours ? w->newidx[c0->contours[a].loop] : RP_NONE;
    uint32_t lb = b < tmp.ncontours ? map[tmp.contours[b].loop] : RP_NONE;
    const op_contour_set *src = la < lb ? c0 : &tmp;
    const op_contour *c = la < lb ? &c0->contours[a++] : &tmp.contours[b++];
    op_contour *d = &out->contours[k];
    *d = *c;
    d->loop = la < lb ? la : lb;
    d->vert_start = out->nverts;
    memcpy(out->verts + out->nverts, src->verts + c->vert_start,
           (size_t)c->nverts * sizeof *out->verts);
    out->nverts += c->nverts;
  }
  out->ncontours = nc;
  out->unjoined_holes = c0->unjoined_holes - old_unjoined + tmp.unjoined_holes;
  tmp_free(&tmp, map);
  return OP_OK;
}

/* RT-105: the regions with a new or a gone loop. */
static op_status mark_dirty(rp *w, op_error *err) {
  w->dirty = opc_calloc(w->al, (size_t)w->nreg + 1, 1);
  if (!w->dirty) return opc_nomem(err, "cache");
  for (uint32_t k = 0; k < w->nnew; k++) set_dirty(w, w->nw[k].reg);
  for (uint32_t o = 0; o < w->cs0->nloops; o++)
    if (w->gone[o]) set_dirty(w, w->cs0->loops[o].reg);
  return OP_OK;
}

/* RT-103 .. RT-105 once the preconditions hold. */
static op_status repair(rp *w, op_contour_set *out, op_error *err) {
  op_contour_set cs;
  memset(&cs, 0, sizeof cs);
  cs.width = w->cs0->width;
  cs.depth = w->cs0->depth;
  cs.border = w->cs0->border;
  cs.nspans = w->n;
  op_status st = trace_new(w, err);
  if (st == OP_OK) st = simplify_new(w, err);
  if (st == OP_OK) st = mark_dirty(w, err);
  if (st == OP_OK) st = assemble_loops(w, &cs, err);
  if (st == OP_OK) fix_corners(w, &cs);
  if (st == OP_OK) st = assemble_contours(w, &cs, err);
  if (st != OP_OK) {
    op_contour_set_free(&cs);
    return st;
  }
  *out = cs;
  return OP_OK;
}

/* ------------------------------------------------------------ entry point */

static op_status check_args(const op_chf *view, const op_span_graph *g, const op_regions *rg0,
                            const op_contour_set *cs0, const uint8_t *areas,
                            const op_contour_params *p, const oprp_result *result,
                            const op_contour_set *out, op_error *err) {
  if (!view) return op_fail(err, OP_E_ARGUMENT, "view", "null", "no layer view given");
  if (!g || g->nspans != view->nspans)
    return op_fail(err, OP_E_ARGUMENT, "graph", "", "no span graph of the view given");
  if (!rg0 || rg0->nspans != view->nspans)
    return op_fail(err, OP_E_ARGUMENT, "regions", "", "no first-build regions of the view");
  if (!cs0 || cs0->nspans != view->nspans)
    return op_fail(err, OP_E_ARGUMENT, "contours", "", "no first-build contours of the view");
  if (!areas) return op_fail(err, OP_E_ARGUMENT, "areas", "null", "no areas given");
  if (!p) return op_fail(err, OP_E_ARGUMENT, "params", "null", "no parameters given");
  if (!result || !out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result given");
  return OP_OK;
}

/* RT-101 .. RT-105; the edge map of the result when edge_map is 1. */
static op_status repair_layer(const op_chf *view, const op_span_graph *g, const op_regions *rg0,
                              const op_contour_set *cs0, const uint8_t *areas,
                              int volume_selects, const op_contour_params *p,
                              uint32_t min_region_area, oprp_result *result,
                              op_contour_set *out, uint32_t *nremoved, int edge_map,
                              op_alloc_count *al, op_error *err) {
  op_status st = check_args(view, g, rg0, cs0, areas, p, result, out, err);
  if (st != OP_OK) return st;
  memset(out, 0, sizeof *out);
  rp w;
  memset(&w, 0, sizeof w);
  w.view = view;
  w.va = *view;
  w.va.areas = (uint8_t *)(uintptr_t)areas; /* read only: the walk reads areas */
  w.g = g;
  w.reg0 = rg0->reg;
  w.cs0 = cs0;
  w.p = p;
  w.n = view->nspans;
  w.nreg = rg0->nregions;
  w.min_area = min_region_area;
  w.edge_map = edge_map;
  w.al = al; /* CONF-059 */
  int only_removed = 0, ok = 1;
  oprp_result res = OPRP_DONE;
  st = scan(&w, areas, &only_removed, err);
  if (st == OP_OK) {
    if (nremoved) *nremoved = w.nrem;
    if (volume_selects || !only_removed) res = OPRP_NOT_REMOVAL; /* (a) */
    else if (w.nrem == 0) res = OPRP_NOTHING;
    else if (!check_small(&w)) res = OPRP_SMALL; /* (b) */
  }
  if (st == OP_OK && res == OPRP_DONE) {
    st = check_split(&w, &ok, err); /* (c) */
    if (st == OP_OK && !ok) res = OPRP_SPLIT;
    else if (st == OP_OK && !check_numbers(&w)) res = OPRP_RENUMBER; /* (d) */
  }
  if (st == OP_OK && res == OPRP_DONE) st = repair(&w, out, err);
  rp_free(&w);
  if (st != OP_OK) {
    memset(out, 0, sizeof *out);
    return st;
  }
  *result = res;
  return OP_OK;
}

/* The two entry points of repair.h: the same repair_layer, with (1) or without (0) the
** edge map (REG-214). Kept as two thin wrappers on purpose: the contract names both. */
op_status oprp_layer(const op_chf *view, const op_span_graph *g, const op_regions *rg0,
                     const op_contour_set *cs0, const uint8_t *areas, int volume_selects,
                     const op_contour_params *p, uint32_t min_region_area, oprp_result *result,
                     op_contour_set *out, uint32_t *nremoved, op_error *err) {
  return repair_layer(view, g, rg0, cs0, areas, volume_selects, p, min_region_area, result, out,
                      nremoved, 1, NULL, err);
}

op_status oprp_layer_tile(const op_chf *view, const op_span_graph *g, const op_regions *rg0,
                          const op_contour_set *cs0, const uint8_t *areas, int volume_selects,
                          const op_contour_params *p, uint32_t min_region_area,
                          oprp_result *result, op_contour_set *out, uint32_t *nremoved,
                          op_error *err) {
  return repair_layer(view, g, rg0, cs0, areas, volume_selects, p, min_region_area, result, out,
                      nremoved, 0, NULL, err);
}

op_status oprp_layer_counted(const op_chf *view, const op_span_graph *g, const op_regions *rg0,
                             const op_contour_set *cs0, const uint8_t *areas, int volume_selects,
                             const op_contour_params *p, uint32_t min_region_area,
                             oprp_result *result, op_contour_set *out, uint32_t *nremoved,
                             int edge_map, op_alloc_count *al, op_error *err) {
  return repair_layer(view, g, rg0, cs0, areas, volume_selects, p, min_region_area, result, out,
                      nremoved, edge_map, al, err);
}
