/*
** regions_filter.c -- what every partition shares (spec/build3d-regions.md sections 1
** and 5): the argument checks (REG-004), the border ring (REG-012), island removal
** (REG-100 .. REG-104), merging (REG-110 .. REG-116) and the numbering rule (REG-150).
** The lowest file of the folder: it calls no other regions_*.c file.
**
** Speed-up (not in the spec): section 5 reads the spans once. One pass over the spans and
** their links gathers the ids' sizes, REG-100's unions, REG-102/REG-103's kept ids and the
** id pairs of REG-111 and REG-112; REG-104 then removes whole ids, merging runs on the
** pairs whose ids both survived, and the numbering maps each span's provisional id to its
** final one. It gives the spec's result because an island is a union of whole ids and
** removing an island only turns its own ids' labels to 0, so the neighbours, overlaps and
** sizes seen after REG-104 are exactly those of the surviving ids before it.
*/
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "build3d/regions/regions.h"

void op_regions_free(op_regions *r) {
  if (!r) return;
  free(r->reg);
  free(r->dist);
  memset(r, 0, sizeof *r);
}

static void paint_column(const op_chf *chf, int32_t x, int32_t z, uint32_t *lab) {
  size_t c = (size_t)z * (size_t)chf->grid.width + (size_t)x;
  for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++)
    if (chf->areas[i] != OP_AREA_NULL) lab[i] = OP_REG_WORK_BORDER;
}

/* The walkable spans of the ring's columns (REG-012) get the border label: whole rows at
** the top and bottom, the first and last `border` columns of the rows between. */
void opr_paint_border(const op_chf *chf, int32_t border, uint32_t *lab) {
  if (border <= 0) return;
  const int32_t w = chf->grid.width, d = chf->grid.depth;
  const int32_t left = border < w ? border : w, right = w - border > left ? w - border : left;
  for (int32_t z = 0; z < d; z++) {
    if (z < border || z >= d - border) {
      for (int32_t x = 0; x < w; x++) paint_column(chf, x, z, lab);
      continue;
    }
    for (int32_t x = 0; x < left; x++) paint_column(chf, x, z, lab);
    for (int32_t x = right; x < w; x++) paint_column(chf, x, z, lab);
  }
}

/* SPAN-140, SPAN-146: see regions.h. */
uint32_t *opr_links(const op_chf *chf) {
  uint32_t *nb = malloc(4 * sizeof *nb * (chf->nspans ? chf->nspans : 1));
  if (!nb) return NULL;
  int64_t step[4]; /* column index of the neighbour in direction d minus the column's */
  for (int d = 0; d < 4; d++) step[d] = (int64_t)opsp_dir_dz[d] * chf->grid.width + opsp_dir_dx[d];
  const int64_t ncol = (int64_t)chf->grid.width * chf->grid.depth;
  for (int64_t c = 0; c < ncol; c++)
    for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++)
      for (int d = 0; d < 4; d++) {
        uint8_t l = chf->spans[i].link[d]; /* a linked neighbour lies inside the grid */
        nb[4 * (size_t)i + (size_t)d] =
            l == OP_CHF_NOT_CONNECTED ? OP_HF_NONE : chf->cell_index[c + step[d]] + l;
      }
  return nb;
}

/* ---- opr_set (regions.h): binary search in the ascending array. */

int opr_set_has(const opr_set *s, uint32_t x) {
  uint32_t lo = 0, hi = s->n;
  while (lo < hi) {
    uint32_t m = (lo + hi) / 2;
    if (s->v[m] < x) lo = m + 1; else hi = m;
  }
  return lo < s->n && s->v[lo] == x;
}

int opr_set_add(opr_set *s, uint32_t x) {
  uint32_t lo = 0, hi = s->n;
  while (lo < hi) {
    uint32_t m = (lo + hi) / 2;
    if (s->v[m] < x) lo = m + 1; else hi = m;
  }
  if (lo < s->n && s->v[lo] == x) return 1;
  if (s->n == s->cap) {
    uint32_t nc = s->cap ? s->cap * 2 : 4;
    uint32_t *nv = realloc(s->v, sizeof *nv * nc);
    if (!nv) return 0;
    s->v = nv;
    s->cap = nc;
  }
  memmove(s->v + lo + 1, s->v + lo, sizeof *s->v * (s->n - lo));
  s->v[lo] = x;
  s->n++;
  return 1;
}

void opr_set_del(opr_set *s, uint32_t x) {
  for (uint32_t k = 0; k < s->n; k++)
    if (s->v[k] == x) {
      memmove(s->v + k, s->v + k + 1, sizeof *s->v * (s->n - k - 1));
      s->n--;
      return;
    }
}

/* A working label of an ordinary region (not 0, not the border label). */
static int ordinary_work(uint32_t l) { return l != 0 && l != OP_REG_WORK_BORDER; }

/* REG-102, REG-103: island span u (ordinary label) linked to span v keeps its island when
** v has the border label or is walkable with another area. */
static int touches(const op_chf *chf, const uint32_t *lab, uint32_t u, uint32_t v) {
  return lab[v] == OP_REG_WORK_BORDER ||
         (chf->areas[v] != OP_AREA_NULL && chf->areas[v] != chf->areas[u]);
}

/* Root of provisional id l in the union-find par (path halving). */
static uint32_t island_root(uint32_t *par, uint32_t l) {
  while (par[l] != l) l = par[l] = par[par[l]];
  return l;
}

/* A growable list of id pairs (a, b), two u32 each. */
typedef struct pair_list {
  uint32_t *v;
  size_t n, cap; /* pairs */
} pair_list;

static int pair_push(pair_list *p, uint32_t a, uint32_t b) {
  if (p->n == p->cap) {
    size_t nc = p->cap ? 2 * p->cap : 256;
    uint32_t *nv = realloc(p->v, sizeof *nv * 2 * nc);
    if (!nv) return 0;
    p->v = nv;
    p->cap = nc;
  }
  p->v[2 * p->n] = a;
  p->v[2 * p->n + 1] = b;
  p->n++;
  return 1;
}

/* The state of section 5: per provisional id its span count, area, whether REG-104 left
** it (alive), final id (to), neighbours (adj, REG-111) and overlapping regions (ovl,
** REG-112). The sets start as slices of one pool (own 0) and get their own array when they
** grow (own 1). */
typedef struct merge_state {
  uint32_t nids;
  uint32_t *count;
  uint8_t *area;
  uint8_t *alive;
  uint32_t *to;
  opr_set *adj, *ovl;
  uint8_t *own_adj, *own_ovl;
  uint32_t *pool_adj, *pool_ovl;
} merge_state;

static void merge_free(merge_state *m) {
  for (uint32_t r = 0; m->adj && m->own_adj && r < m->nids; r++)
    if (m->own_adj[r]) free(m->adj[r].v);
  for (uint32_t r = 0; m->ovl && m->own_ovl && r < m->nids; r++)
    if (m->own_ovl[r]) free(m->ovl[r].v);
  free(m->adj);
  free(m->ovl);
  free(m->own_adj);
  free(m->own_ovl);
  free(m->pool_adj);
  free(m->pool_ovl);
  free(m->count);
  free(m->area);
  free(m->alive);
  free(m->to);
}

/* opr_set_add for a set that may be a slice of a pool (*own 0): it gets its own array
** before it grows. 0 on allocation failure. */
static int pset_add(opr_set *s, uint8_t *own, uint32_t x) {
  if (opr_set_has(s, x)) return 1;
  if (s->n == s->cap && !*own) {
    uint32_t nc = s->cap ? s->cap * 2 : 4;
    uint32_t *nv = malloc(sizeof *nv * nc);
    if (!nv) return 0;
    if (s->n) memcpy(nv, s->v, sizeof *nv * s->n);
    s->v = nv;
    s->cap = nc;
    *own = 1;
  }
  return opr_set_add(s, x);
}

/* The sets of a symmetric relation from its list of pairs (both orders listed, duplicates
** allowed): the pairs whose ids are both alive, sorted by (a, b) with two stable counting
** sorts (by b, then by a), duplicates dropped; set a is the slice of the pool that holds
** a's b's, ascending: what opr_set_add of every pair would give. 0 when out of memory. */
static int sets_from_pairs(const pair_list *p, const uint8_t *alive, uint32_t nids,
                           opr_set *sets, uint8_t **own, uint32_t **pool) {
  size_t np = p->n;
  uint32_t *cnt = calloc((size_t)nids + 1, sizeof *cnt);
  uint32_t *tmp = malloc(sizeof *tmp * 2 * (np ? np : 1));
  uint32_t *out = malloc(sizeof *out * (np ? np : 1));
  *own = calloc(nids, 1);
  if (!cnt || !tmp || !out || !*own) {
    free(cnt), free(tmp), free(out);
    return 0;
  }
  *pool = out;
  /* by b (stable), only pairs of alive ids */
  for (size_t k = 0; k < np; k++)
    if (alive[p->v[2 * k]] && alive[p->v[2 * k + 1]]) cnt[p->v[2 * k + 1] + 1]++;
  for (uint32_t r = 0; r < nids; r++) cnt[r + 1] += cnt[r];
  size_t nlive = cnt[nids];
  for (size_t k = 0; k < np; k++) {
    uint32_t a = p->v[2 * k], b = p->v[2 * k + 1];
    if (!alive[a] || !alive[b]) continue;
    uint32_t at = cnt[b]++;
    tmp[2 * (size_t)at] = a;
    tmp[2 * (size_t)at + 1] = b;
  }
  /* by a (stable): within one a, the b's ascending */
  memset(cnt, 0, sizeof *cnt * ((size_t)nids + 1));
  for (size_t k = 0; k < nlive; k++) cnt[tmp[2 * k] + 1]++;
  for (uint32_t r = 0; r < nids; r++) cnt[r + 1] += cnt[r];
  uint32_t *fill = cnt; /* cnt[r] becomes the end of r's pairs; start recomputed below */
  uint32_t *bs = malloc(sizeof *bs * ((size_t)nids + 1));
  if (!bs) {
    free(cnt), free(tmp);
    return 0;
  }
  memcpy(bs, cnt, sizeof *bs * ((size_t)nids + 1));
  for (size_t k = 0; k < nlive; k++) out[fill[tmp[2 * k]]++] = tmp[2 * k + 1];
  /* duplicates dropped in place, each set a slice of the pool */
  for (uint32_t r = 0; r < nids; r++) {
    uint32_t b0 = bs[r], e = bs[r + 1], m = 0;
    for (uint32_t k = b0; k < e; k++)
      if (m == 0 || out[b0 + m - 1] != out[k]) out[b0 + m++] = out[k];
    sets[r].v = out + b0;
    sets[r].n = sets[r].cap = m;
  }
  free(bs);
  free(cnt);
  free(tmp);
  return 1;
}

/* REG-114: region r merges into best; the neighbours and overlaps of r become best's.
** Returns 0 when out of memory. */
static int merge_into_best(merge_state *m, uint32_t r, uint32_t best) {
  m->to[r] = best;
  m->count[best] += m->count[r];
  m->count[r] = 0;
  opr_set *sets[2] = {m->adj, m->ovl};
  uint8_t *own[2] = {m->own_adj, m->own_ovl};
  for (int s = 0; s < 2; s++) {
    opr_set *g = sets[s];
    for (uint32_t k = 0; k < g[r].n; k++) {
      uint32_t u = g[r].v[k];
      opr_set_del(&g[u], r);
      if (u != best && (!pset_add(&g[u], &own[s][u], best) || !pset_add(&g[best], &own[s][best], u)))
        return 0;
    }
    if (s == 0) opr_set_del(&g[best], r);
  }
  m->adj[r].n = m->ovl[r].n = 0;
  return 1;
}

/* REG-113 .. REG-116: passes in ascending provisional id until one merges nothing. */
static int merge_passes(merge_state *m, uint32_t merge_area) {
  for (uint32_t merged = 1; merged;) {
    merged = 0;
    for (uint32_t r = 1; r < m->nids; r++) {
      if (m->to[r] != r || m->count[r] == 0 || m->count[r] >= merge_area) continue;
      uint32_t best = 0;
      for (uint32_t k = 0; k < m->adj[r].n; k++) {
        uint32_t t = m->adj[r].v[k];
        if (m->area[t] != m->area[r] || opr_set_has(&m->ovl[r], t)) continue;
        if (best == 0 || m->count[t] < m->count[best]) best = t; /* ascending: ties to least id */
      }
      if (best == 0) continue;
      if (!merge_into_best(m, r, best)) return 0;
      merged++;
    }
  }
  return 1;
}

/* REG-150 through a map of provisional ids: span i's region is fin[lab[i]] (0: none),
** fin NULL the identity; numbers 1.. in the order of each region's first span. */
static op_status number_mapped(const uint32_t *lab, const uint32_t *fin, uint32_t nids,
                               op_regions *out, op_error *err) {
  uint32_t *map = calloc(nids ? nids : 1, sizeof *map);
  if (!map) return opc_nomem(err, "memory");
  uint32_t n = 0;
  for (uint32_t i = 0; i < out->nspans; i++) {
    uint32_t l = lab[i];
    if (l == 0) { out->reg[i] = 0; continue; }
    if (l == OP_REG_WORK_BORDER) { out->reg[i] = OP_REG_BORDER_REGION; continue; }
    if (fin) l = fin[l];
    if (l == 0) { out->reg[i] = 0; continue; }
    if (!map[l]) map[l] = ++n;
    out->reg[i] = (uint16_t)map[l]; /* the caller drops out->reg on OP_E_LIMIT */
  }
  free(map);
  if (n > OP_REG_MAX_REGIONS)
    return op_fail_i(err, OP_E_LIMIT, "regions", (long long)n,
                     "more regions than 32767 in one partition (REG-006)");
  out->nregions = (uint16_t)n;
  return OP_OK;
}

/* The one pass of filter over the spans and their links (see the file's header): counts
** and areas per id, REG-102/REG-103's keep, REG-100's unions in par, and when merging the
** pairs of REG-111 (pa) and REG-112 (po). layer: REG-105's restriction (no merging then).
** Returns 0 when out of memory. */
static int gather(const op_chf *chf, const uint32_t *lab, const uint16_t *layer,
                  const int merging, merge_state *m, uint32_t *par, uint8_t *keep,
                  uint32_t *col, pair_list *pa, pair_list *po) {
  int64_t step[4];
  opr_col_steps(chf, step);
  const int64_t ncol = (int64_t)chf->grid.width * chf->grid.depth;
  uint32_t last_a[4] = {0, 0, 0, 0}, last_b[4] = {0, 0, 0, 0}; /* last pair per direction */
  for (int64_t c = 0; c < ncol; c++) {
    uint32_t k = 0;
    for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++) {
      const uint32_t li = lab[i];
      const int oi = ordinary_work(li);
      if (oi) {
        m->count[li]++;
        if (merging) {
          m->area[li] = chf->areas[i];
          col[k++] = li;
        }
      }
      for (int d = 0; d < 4; d++) {
        uint32_t j = opr_nei(chf, step, i, c, d);
        if (j == OP_HF_NONE || lab[j] == li || (layer && layer[j] != layer[i])) continue;
        const uint32_t lj = lab[j];
        const int oj = ordinary_work(lj);
        /* REG-102, REG-103 from both ends; REG-100: union of the two ids. */
        if (oi && touches(chf, lab, i, j)) keep[li] = 1;
        if (oj && touches(chf, lab, j, i)) keep[lj] = 1;
        /* A pair met again in this direction (ids are one-area sets) adds nothing. */
        if (!oi || !oj || (last_a[d] == li && last_b[d] == lj)) continue;
        last_a[d] = li;
        last_b[d] = lj;
        if (merging && (!pair_push(pa, li, lj) || !pair_push(pa, lj, li))) return 0; /* REG-111 */
        if (chf->areas[j] != chf->areas[i]) continue;
        uint32_t a = island_root(par, li), b = island_root(par, lj);
        if (a != b) { if (a < b) par[b] = a; else par[a] = b; }
      }
    }
    for (uint32_t a = 0; k > 1 && a < k; a++) /* REG-112 */
      for (uint32_t b = a + 1; b < k; b++)
        if (col[a] != col[b] && (!pair_push(po, col[a], col[b]) || !pair_push(po, col[b], col[a])))
          return 0;
  }
  return 1;
}

/* Section 5 on the working labels (see the file's header): one pass over the spans and
** their links gathers everything (id sizes and areas, REG-100's joins, REG-102 and REG-103's
** kept ids, REG-111's and REG-112's pairs); REG-104 then works on ids, merging on the alive
** ids' sets, and the numbering reads lab through the resulting id map. */
static op_status filter(const op_chf *chf, const uint32_t *lab, uint32_t nids,
                        const uint16_t *layer, uint32_t min_area,
                        uint32_t merge_area, op_regions *out, op_error *err) {
  const uint32_t n = chf->nspans;
  const int islands = min_area != 0 && n != 0 && nids > 1;
  const int merging = merge_area != 0 && nids > 1; /* never with layer (REG-083) */
  if (!islands && !merging) return number_mapped(lab, NULL, nids, out, err);
  merge_state m;
  memset(&m, 0, sizeof m);
  m.nids = nids;
  pair_list pa = {NULL, 0, 0}, po = {NULL, 0, 0};
  uint32_t *par = malloc(sizeof *par * nids), *isz = NULL, *fin = NULL;
  uint8_t *keep = calloc(nids, 1);
  uint32_t *col = merging ? malloc(sizeof *col * (OP_CHF_MAX_COLUMN + 1)) : NULL;
  m.count = calloc(nids, sizeof *m.count);
  m.area = calloc(nids, 1);
  m.alive = malloc(nids);
  int ok = par && keep && m.count && m.area && m.alive && (!merging || col);
  if (ok)
    for (uint32_t r = 0; r < nids; r++) par[r] = r;
  if (ok) { /* the three calls let the compiler drop the tests of layer and merging */
    if (layer) ok = gather(chf, lab, layer, 0, &m, par, keep, col, &pa, &po);
    else if (merging) ok = gather(chf, lab, NULL, 1, &m, par, keep, col, &pa, &po);
    else ok = gather(chf, lab, NULL, 0, &m, par, keep, col, &pa, &po);
  }
  /* REG-104 on ids: an island is a union of whole ids (each id is one connected set of one
  ** area: REG-052 .. REG-055, REG-080, REG-033), its size the sum of its ids' counts. */
  if (ok) {
    memset(m.alive, 1, nids);
    if (islands) {
      isz = malloc(sizeof *isz * nids);
      ok = isz != NULL;
    }
  }
  if (ok && islands) {
    memcpy(isz, m.count, sizeof *isz * nids);
    for (uint32_t r = 1; r < nids; r++) {
      uint32_t t = island_root(par, r);
      if (t == r) continue;
      isz[t] += isz[r];
      keep[t] |= keep[r];
    }
    for (uint32_t r = 1; r < nids; r++) {
      uint32_t t = island_root(par, r);
      if (!keep[t] && isz[t] < min_area) {
        m.alive[r] = 0;
        m.count[r] = 0;
      }
    }
  }
  /* REG-110 .. REG-116 on the ids REG-104 left. */
  if (ok && merging) {
    m.to = malloc(sizeof *m.to * nids);
    m.adj = calloc(nids, sizeof *m.adj);
    m.ovl = calloc(nids, sizeof *m.ovl);
    ok = m.to && m.adj && m.ovl &&
         sets_from_pairs(&pa, m.alive, nids, m.adj, &m.own_adj, &m.pool_adj) &&
         sets_from_pairs(&po, m.alive, nids, m.ovl, &m.own_ovl, &m.pool_ovl);
    if (ok) {
      for (uint32_t r = 0; r < nids; r++) m.to[r] = r;
      ok = merge_passes(&m, merge_area);
    }
  }
  /* The final id of each provisional id (0: removed). */
  if (ok) {
    fin = malloc(sizeof *fin * nids);
    ok = fin != NULL;
  }
  if (ok) {
    for (uint32_t r = 0; r < nids; r++) {
      uint32_t t = r;
      if (m.to)
        while (m.to[t] != t) t = m.to[t];
      fin[r] = m.alive[r] ? t : 0;
    }
  }
  op_status st = ok ? number_mapped(lab, fin, nids, out, err) : opc_nomem(err, "memory");
  merge_free(&m);
  free(pa.v);
  free(po.v);
  free(par);
  free(isz);
  free(fin);
  free(keep);
  free(col);
  return st;
}

op_status opr_filter(const op_chf *chf, const uint32_t *lab, uint32_t nids,
                     uint32_t min_region_area, uint32_t merge_region_area,
                     op_regions *out, op_error *err) {
  return filter(chf, lab, nids, NULL, min_region_area, merge_region_area, out, err);
}

op_status opr_filter_layered(const op_chf *chf, const uint32_t *lab, uint32_t nids,
                             const uint16_t *layer, uint32_t min_region_area,
                             op_regions *out, op_error *err) {
  return filter(chf, lab, nids, layer, min_region_area, 0, out, err);
}

/* REG-004 */
op_status opr_begin(const op_chf *chf, int32_t border, op_partition p,
                    op_regions *out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result given");
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "null", "no compact heightfield given");
  if (border < 0)
    return op_fail_i(err, OP_E_RANGE, "border", (long long)border, "border must be at least 0");
  op_regions r;
  memset(&r, 0, sizeof r);
  r.partition = p;
  r.border = border;
  r.nspans = chf->nspans;
  r.reg = calloc(chf->nspans ? chf->nspans : 1, sizeof *r.reg);
  r.dist = calloc(chf->nspans ? chf->nspans : 1, sizeof *r.dist);
  if (!r.reg || !r.dist) {
    free(r.reg);
    free(r.dist);
    return opc_nomem(err, "memory");
  }
  *out = r;
  return OP_OK;
}
