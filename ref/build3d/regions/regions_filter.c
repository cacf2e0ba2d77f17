/*
** regions_filter.c -- what every partition shares (spec/build3d-regions.md sections 1
** and 5): the argument checks (REG-004), the border ring (REG-012), island removal
** (REG-100 .. REG-104), merging (REG-110 .. REG-116) and the numbering rule (REG-150).
** The lowest file of the folder: it calls no other regions_*.c file.
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

/* REG-012 */
int opr_in_ring(const op_chf *chf, int32_t border, int32_t x, int32_t z) {
  int32_t w = chf->grid.width, d = chf->grid.depth;
  return x < border || z < border || x >= w - border || z >= d - border;
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

/* REG-150: ordinary ids renumbered 1.. in the order of each region's first span. */
op_status opr_number(const uint32_t *lab, uint32_t nids, op_regions *out,
                     op_error *err) {
  uint32_t *map = calloc(nids ? nids : 1, sizeof *map);
  if (!map) return opc_nomem(err, "memory");
  uint32_t n = 0;
  for (uint32_t i = 0; i < out->nspans; i++) {
    uint32_t l = lab[i];
    if (l == 0 || l == OP_REG_WORK_BORDER) continue;
    if (!map[l]) map[l] = ++n;
  }
  if (n > OP_REG_MAX_REGIONS) {
    free(map);
    return op_fail_i(err, OP_E_LIMIT, "regions", (long long)n,
                     "more regions than 32767 in one partition (REG-006)");
  }
  for (uint32_t i = 0; i < out->nspans; i++) {
    uint32_t l = lab[i];
    out->reg[i] = l == 0 ? 0 : l == OP_REG_WORK_BORDER ? OP_REG_BORDER_REGION : (uint16_t)map[l];
  }
  out->nregions = (uint16_t)n;
  free(map);
  return OP_OK;
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

/* REG-100 .. REG-104: islands (connected spans of one area with ordinary labels, through
** links in either direction) smaller than min_area and touching neither a walkable span of
** another area nor the border region lose their labels. lab is changed in place.
** Every provisional id below nids is one connected set of spans of one area (the sweep,
** REG-052 .. REG-055, and REG-080 build them so), so an island is a union of whole ids:
** the union-find runs over ids, not spans, and gives the same islands. */
static op_status remove_islands(const op_chf *chf, const uint16_t *layer,
                                uint32_t *lab, uint32_t nids, uint32_t min_area,
                                op_error *err) {
  uint32_t n = chf->nspans;
  if (min_area == 0 || n == 0 || nids <= 1) return OP_OK;
  uint32_t *par = malloc(sizeof *par * nids);
  uint32_t *size = calloc(nids, sizeof *size);
  uint8_t *keep = calloc(nids, 1);
  if (!par || !size || !keep) {
    free(par), free(size), free(keep);
    return opc_nomem(err, "memory");
  }
  for (uint32_t r = 0; r < nids; r++) par[r] = r;
  /* One pass over every link i -> j (in one layer): REG-100, union-find over ids, joins
  ** the ids of i and j when both are ordinary and of one area; REG-102, REG-103, looked at
  ** from both ends: an id is kept when one of its spans u is linked to the border label or
  ** to a walkable span of another area. Two spans of one id are of one area: no test. */
  int64_t step[4];
  opr_col_steps(chf, step);
  const int64_t ncol = (int64_t)chf->grid.width * chf->grid.depth;
  for (int64_t c = 0; c < ncol; c++)
    for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++) {
      const uint32_t li = lab[i];
      const int oi = ordinary_work(li);
      if (oi) size[li]++;
      for (int d = 0; d < 4; d++) {
        uint32_t j = opr_nei(chf, step, i, c, d);
        if (j == OP_HF_NONE || lab[j] == li || (layer && layer[j] != layer[i])) continue;
        const uint32_t lj = lab[j];
        const int oj = ordinary_work(lj);
        if (oi && touches(chf, lab, i, j)) keep[li] = 1;
        if (oj && touches(chf, lab, j, i)) keep[lj] = 1;
        if (!oi || !oj || chf->areas[j] != chf->areas[i]) continue;
        uint32_t a = island_root(par, li), b = island_root(par, lj);
        if (a != b) { if (a < b) par[b] = a; else par[a] = b; }
      }
    }
  /* Each island's size, and kept (REG-102, REG-103) when one of its ids is. */
  for (uint32_t r = 1; r < nids; r++) {
    uint32_t t = island_root(par, r);
    if (t == r) continue;
    size[t] += size[r];
    keep[t] |= keep[r];
  }
  for (uint32_t i = 0; i < n; i++) {
    if (!ordinary_work(lab[i])) continue;
    uint32_t t = island_root(par, lab[i]);
    if (!keep[t] && size[t] < min_area) lab[i] = 0; /* REG-104 */
  }
  free(par);
  free(size);
  free(keep);
  return OP_OK;
}

/* The state of the merging of section 5: per provisional id its span count, area, final
** id (to), neighbours (adj, REG-111) and overlapping regions (ovl, REG-112). */
typedef struct merge_state {
  uint32_t nids;
  uint32_t *count;
  uint8_t *area;
  uint32_t *to;
  opr_set *adj, *ovl;
} merge_state;

static void merge_free(merge_state *m) {
  if (m->adj)
    for (uint32_t r = 0; r < m->nids; r++) free(m->adj[r].v);
  if (m->ovl)
    for (uint32_t r = 0; r < m->nids; r++) free(m->ovl[r].v);
  free(m->adj);
  free(m->ovl);
  free(m->count);
  free(m->area);
  free(m->to);
}

/* Span counts, areas and REG-111's adjacency through a link in either direction.
** Returns 0 when out of memory. */
static int merge_adjacency(const op_chf *chf, const uint32_t *lab, merge_state *m) {
  int64_t step[4];
  opr_col_steps(chf, step);
  const int64_t ncol = (int64_t)chf->grid.width * chf->grid.depth;
  for (int64_t c = 0; c < ncol; c++)
    for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++) {
      uint32_t li = lab[i];
      if (!ordinary_work(li)) continue;
      m->count[li]++;
      m->area[li] = chf->areas[i];
      for (int d = 0; d < 4; d++) { /* REG-111 */
        uint32_t j = opr_nei(chf, step, i, c, d);
        if (j == OP_HF_NONE) continue;
        uint32_t lj = lab[j];
        if (!ordinary_work(lj) || lj == li) continue;
        if (!opr_set_add(&m->adj[li], lj) || !opr_set_add(&m->adj[lj], li)) return 0;
      }
    }
  return 1;
}

/* REG-112: overlap = two regions with spans in one column. Returns 0 when out of memory. */
static int merge_overlaps(const op_chf *chf, const uint32_t *lab, merge_state *m) {
  uint32_t *col = malloc(sizeof *col * (OP_CHF_MAX_COLUMN + 1));
  if (!col) return 0;
  const int64_t ncol = (int64_t)chf->grid.width * chf->grid.depth;
  for (int64_t c = 0; c < ncol; c++) {
    uint32_t k = 0;
    for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++)
      if (ordinary_work(lab[i])) col[k++] = lab[i];
    for (uint32_t a = 0; a < k; a++)
      for (uint32_t b = a + 1; b < k; b++)
        if (col[a] != col[b] &&
            (!opr_set_add(&m->ovl[col[a]], col[b]) || !opr_set_add(&m->ovl[col[b]], col[a]))) {
          free(col);
          return 0;
        }
  }
  free(col);
  return 1;
}

/* REG-114: region r merges into best; the neighbours and overlaps of r become best's.
** Returns 0 when out of memory. */
static int merge_into_best(merge_state *m, uint32_t r, uint32_t best) {
  m->to[r] = best;
  m->count[best] += m->count[r];
  m->count[r] = 0;
  opr_set *sets[2] = {m->adj, m->ovl};
  for (int s = 0; s < 2; s++) {
    opr_set *g = sets[s];
    for (uint32_t k = 0; k < g[r].n; k++) {
      uint32_t u = g[r].v[k];
      opr_set_del(&g[u], r);
      if (u != best && (!opr_set_add(&g[u], best) || !opr_set_add(&g[best], u))) return 0;
    }
    if (s == 0) opr_set_del(&g[best], r);
  }
  m->adj[r].n = m->ovl[r].n = 0;
  return 1;
}

/* REG-110 .. REG-116: merging of small regions into a neighbour of the same area. */
static op_status merge_regions(const op_chf *chf, uint32_t *lab,
                               uint32_t nids, uint32_t merge_area, op_error *err) {
  if (merge_area == 0 || nids <= 1) return OP_OK;
  merge_state m;
  memset(&m, 0, sizeof m);
  m.nids = nids;
  m.count = calloc(nids, sizeof *m.count);
  m.area = calloc(nids, 1);
  m.to = malloc(sizeof *m.to * nids); /* final id of each provisional id */
  m.adj = calloc(nids, sizeof *m.adj);
  m.ovl = calloc(nids, sizeof *m.ovl);
  int ok = m.count && m.area && m.to && m.adj && m.ovl;
  if (ok) {
    for (uint32_t r = 0; r < nids; r++) m.to[r] = r;
    ok = merge_adjacency(chf, lab, &m) && merge_overlaps(chf, lab, &m);
  }
  /* REG-113 .. REG-114: passes in ascending provisional id until one merges nothing. */
  for (uint32_t merged = 1; ok && merged;) {
    merged = 0;
    for (uint32_t r = 1; r < nids && ok; r++) {
      if (m.to[r] != r || m.count[r] == 0 || m.count[r] >= merge_area) continue;
      uint32_t best = 0;
      for (uint32_t k = 0; k < m.adj[r].n; k++) {
        uint32_t t = m.adj[r].v[k];
        if (m.area[t] != m.area[r] || opr_set_has(&m.ovl[r], t)) continue;
        if (best == 0 || m.count[t] < m.count[best]) best = t; /* ascending: ties to least id */
      }
      if (best == 0) continue;
      ok = merge_into_best(&m, r, best);
      merged++;
    }
  }
  if (ok)
    for (uint32_t i = 0; i < chf->nspans; i++) {
      uint32_t li = lab[i];
      if (!ordinary_work(li)) continue;
      while (m.to[li] != li) li = m.to[li];
      lab[i] = li;
    }
  merge_free(&m);
  return ok ? OP_OK : opc_nomem(err, "memory");
}

static op_status filter(const op_chf *chf, const uint32_t *lab_in, uint32_t nids,
                        const uint16_t *layer, uint32_t min_region_area,
                        uint32_t merge_region_area, op_regions *out, op_error *err) {
  uint32_t n = chf->nspans;
  uint32_t *lab = malloc(sizeof *lab * (n ? n : 1));
  if (!lab) return opc_nomem(err, "memory");
  if (n) memcpy(lab, lab_in, sizeof *lab * n);
  op_status st = remove_islands(chf, layer, lab, nids, min_region_area, err);
  if (st == OP_OK) st = merge_regions(chf, lab, nids, merge_region_area, err);
  if (st == OP_OK) st = opr_number(lab, nids, out, err);
  free(lab);
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
