/*
** regions_watershed.c -- the watershed partition (spec/build3d-regions.md section 2):
** distance field (REG-020 .. REG-024), blur (REG-025), flooding by levels (REG-030 ..
** REG-036), expansion (REG-040 .. REG-044), then section 5. The levels' candidate lists
** come from one counting sort by level (near-linear in the spans; REG-031's list, the
** same output bytes).
*/
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "build3d/regions/regions.h"
#include "build3d/spans/spans_internal.h"

/* REG-022: relax i through (da, db). */
static void relax(const uint32_t *nb, uint16_t *dist, uint32_t i, int da, int db) {
  uint32_t a = nb[4 * (size_t)i + da];
  if (a == OP_HF_NONE) return;
  if ((uint32_t)dist[a] + 2 < dist[i]) dist[i] = (uint16_t)(dist[a] + 2);
  uint32_t b = nb[4 * (size_t)a + db];
  if (b == OP_HF_NONE) return;
  if ((uint32_t)dist[b] + 3 < dist[i]) dist[i] = (uint16_t)(dist[b] + 3);
}

static uint16_t distance_nb(const op_chf *chf, const uint32_t *nb, uint16_t *dist) {
  uint32_t n = chf->nspans;
  /* REG-021: start values. */
  for (uint32_t i = 0; i < n; i++) {
    int same = 0;
    for (int d = 0; d < 4; d++) {
      uint32_t j = nb[4 * (size_t)i + d];
      if (j != OP_HF_NONE && chf->areas[j] == chf->areas[i]) same++;
    }
    dist[i] = same == 4 ? 0xffff : 0;
  }
  /* REG-023: forward pass (column order is span order). */
  for (uint32_t i = 0; i < n; i++) {
    relax(nb, dist, i, 0, 3);
    relax(nb, dist, i, 3, 2);
  }
  /* REG-024: backward pass: rows z descending, x descending, spans lowest up. */
  for (int32_t z = chf->grid.depth - 1; z >= 0; z--)
    for (int32_t x = chf->grid.width - 1; x >= 0; x--) {
      size_t c = (size_t)z * (size_t)chf->grid.width + (size_t)x;
      for (uint32_t i = chf->cell_index[c], e = i + chf->cell_count[c]; i < e; i++) {
        relax(nb, dist, i, 2, 1);
        relax(nb, dist, i, 1, 0);
      }
    }
  uint16_t mx = 0;
  for (uint32_t i = 0; i < n; i++)
    if (dist[i] > mx) mx = dist[i];
  return mx;
}

static uint16_t blur_nb(const op_chf *chf, const uint32_t *nb, const uint16_t *src, uint16_t *dst) {
  uint16_t mx = 0;
  for (uint32_t i = 0; i < chf->nspans; i++) {
    uint32_t cd = src[i];
    if (cd <= 2) { /* REG-025: threshold */
      dst[i] = (uint16_t)cd;
    } else {
      uint32_t s = cd;
      for (int d = 0; d < 4; d++) {
        uint32_t a = nb[4 * (size_t)i + d];
        if (a == OP_HF_NONE) { s += 2 * cd; continue; }
        s += src[a];
        uint32_t b = nb[4 * (size_t)a + ((d + 1) & 3)];
        s += b == OP_HF_NONE ? cd : src[b];
      }
      dst[i] = (uint16_t)((s + 5) / 9);
    }
    if (dst[i] > mx) mx = dst[i];
  }
  return mx;
}

uint16_t opr_distance(const op_chf *chf, uint16_t *dist) {
  uint32_t *nb = opr_links(chf);
  if (!nb) return 0; /* callers inside the library use distance_nb */
  uint16_t m = distance_nb(chf, nb, dist);
  free(nb);
  return m;
}

uint16_t opr_blur(const op_chf *chf, const uint16_t *src, uint16_t *dst) {
  uint32_t *nb = opr_links(chf);
  if (!nb) return 0;
  uint16_t m = blur_nb(chf, nb, src, dst);
  free(nb);
  return m;
}

typedef struct ws {
  const op_chf *chf;
  const uint32_t *nb;
  const uint16_t *dist; /* blurred */
  uint32_t *lab;
  uint32_t *fd;         /* flood distance of REG-040 */
  uint32_t *cand;       /* candidate list */
  uint32_t *stack;
  uint32_t *pend;       /* pending labels (3 per entry) */
  uint64_t work;        /* spans visited (the test's operation count, opr_watershed_work) */
} ws;

static int ordinary(uint32_t l) { return l != 0 && l != OP_REG_WORK_BORDER; }

/* REG-040 .. REG-044: expansion of labelled regions into the candidates. Every candidate
** of one iteration reads the labels of the iteration's start (the new labels are applied
** after the pass), so the order of the candidates does not matter; candidates that got a
** label leave the list (*ncand shrinks), so an iteration costs the candidates still open,
** not all of them. */
static void expand(ws *w, uint32_t *ncand, uint32_t max_iter) {
  uint32_t iter = 0, nc = *ncand;
  for (;;) {
    uint32_t np = 0, keep = 0;
    for (uint32_t k = 0; k < nc; k++) {
      uint32_t i = w->cand[k];
      if (w->lab[i] != 0) continue;
      uint32_t best = 0, bd = 0xffffffffu;
      for (int d = 0; d < 4; d++) {
        uint32_t a = w->nb[4 * (size_t)i + d];
        if (a == OP_HF_NONE || w->chf->areas[a] != w->chf->areas[i]) continue;
        if (!ordinary(w->lab[a])) continue;
        if (w->fd[a] + 2 < bd) { best = w->lab[a]; bd = w->fd[a] + 2; }
      }
      if (best) {
        w->pend[3 * np] = i;
        w->pend[3 * np + 1] = best;
        w->pend[3 * np + 2] = bd;
        np++;
      } else {
        w->cand[keep++] = i; /* still open; ascending order is kept */
      }
    }
    nc = keep;
    for (uint32_t k = 0; k < np; k++) {
      w->lab[w->pend[3 * k]] = w->pend[3 * k + 1];
      w->fd[w->pend[3 * k]] = w->pend[3 * k + 2];
    }
    if (np == 0) break;
    w->work += np;
    iter++;
    if (max_iter && iter >= max_iter) break;
  }
  *ncand = nc;
}

/* REG-033 .. REG-036: flood a new region r from seed s at level L. Returns 1 when the
** seed kept its label. */
static int flood(ws *w, uint32_t s, uint32_t level, uint32_t r) {
  const op_chf *chf = w->chf;
  uint8_t area = chf->areas[s];
  uint32_t lev = level >= 2 ? level - 2 : 0;
  uint32_t top = 0, count = 0;
  w->stack[top++] = s;
  w->lab[s] = r;
  w->fd[s] = 0;
  while (top) {
    uint32_t c = w->stack[--top];
    w->work++;
    int conflict = 0;
    for (int d = 0; d < 4 && !conflict; d++) {
      uint32_t a = w->nb[4 * (size_t)c + d];
      if (a == OP_HF_NONE || chf->areas[a] != area) continue;
      uint32_t la = w->lab[a];
      if (la == OP_REG_WORK_BORDER) continue;
      if (la != 0 && la != r) { conflict = 1; break; }
      uint32_t b = w->nb[4 * (size_t)a + ((d + 1) & 3)];
      if (b == OP_HF_NONE || chf->areas[b] != area) continue;
      uint32_t lb = w->lab[b];
      if (lb != 0 && lb != r && lb != OP_REG_WORK_BORDER) conflict = 1;
    }
    if (conflict) { w->lab[c] = 0; continue; }
    count++;
    for (int d = 0; d < 4; d++) {
      uint32_t a = w->nb[4 * (size_t)c + d];
      if (a == OP_HF_NONE || chf->areas[a] != area) continue;
      if (w->dist[a] >= lev && w->lab[a] == 0) {
        w->lab[a] = r;
        w->fd[a] = 0;
        w->stack[top++] = a;
      }
    }
  }
  return count > 0;
}

/* The partition; *work (when not NULL) receives the spans visited by the levels'
** candidate lists, expansions and floods (a count of operations for the unit tests). */
/* REG-031: the non-null spans sorted once by level key min(dist / 2, top) (a counting
** sort: span order kept inside a key); key k's spans are order[bstart[k] .. bstart[k + 1]).
** bstart has top + 2 entries, zeroed by the caller; fill the same size (scratch). */
static void level_sort(const op_chf *chf, const uint16_t *dist, uint32_t top, uint32_t *bstart,
                       uint32_t *fill, uint32_t *order) {
  uint32_t n = chf->nspans;
  for (uint32_t i = 0; i < n; i++) {
    if (chf->areas[i] == OP_AREA_NULL) continue;
    uint32_t key = (uint32_t)dist[i] / 2;
    bstart[(key < top ? key : top) + 1]++;
  }
  for (uint32_t k = 0; k <= top; k++) bstart[k + 1] += bstart[k];
  memcpy(fill, bstart, sizeof *fill * ((size_t)top + 2));
  for (uint32_t i = 0; i < n; i++) {
    if (chf->areas[i] == OP_AREA_NULL) continue;
    uint32_t key = (uint32_t)dist[i] / 2;
    order[fill[key < top ? key : top]++] = i;
  }
}

/* REG-031 .. REG-038: from `level` down to 0 in steps of 2, the candidates of each level
** (the previous level's still unlabelled merged with the level's own spans, ascending), the
** expansion and the floods; then the last expansion with no iteration limit. *cand2 is
** scratch of nspans entries swapped with w->cand (both stay owned by the caller). Returns
** the next free label. */
static uint32_t flood_levels(ws *w, uint32_t level, const uint32_t *bstart,
                             const uint32_t *order, uint32_t **cand2) {
  uint32_t next = 1, nc = 0; /* nc: open candidates of the previous level, ascending */
  while (level > 0) {
    level -= 2;
    uint32_t key = level / 2, b = bstart[key], be = bstart[key + 1], m = 0, k = 0;
    while (k < nc || b < be) { /* merge: both ascending, disjoint */
      uint32_t i;
      if (b >= be || (k < nc && w->cand[k] < order[b])) i = w->cand[k++];
      else i = order[b++];
      if (w->lab[i] == 0) (*cand2)[m++] = i;
    }
    w->work += nc + (bstart[key + 1] - bstart[key]);
    uint32_t *t = w->cand;
    w->cand = *cand2;
    *cand2 = t;
    nc = m;
    expand(w, &m, 8); /* the open ones stay in w->cand[0 .. m) in order */
    for (uint32_t j = 0; j < m; j++) {
      uint32_t i = w->cand[j];
      if (w->lab[i] != 0) continue;
      if (flood(w, i, level, next)) next++;
    }
    nc = m; /* labelled ones are dropped by the next merge */
  }
  /* REG-038: the last expansion, with no iteration limit; the candidates are the
  ** unlabelled spans, which are all among the last level's (level 0 takes every span). */
  uint32_t m = 0;
  for (uint32_t j = 0; j < nc; j++)
    if (w->lab[w->cand[j]] == 0) w->cand[m++] = w->cand[j];
  expand(w, &m, 0);
  return next;
}

op_status opr_watershed_work(const op_chf *chf, int32_t border, uint32_t min_region_area,
                             uint32_t merge_region_area, op_regions *out, uint64_t *work,
                             op_error *err) {
  if (work) *work = 0;
  op_regions res;
  op_status st = opr_begin(chf, border, OP_PARTITION_WATERSHED, &res, err);
  if (st != OP_OK) {
    if (out) memset(out, 0, sizeof *out);
    return st;
  }
  uint32_t n = chf->nspans, n1 = n ? n : 1;
  ws w;
  memset(&w, 0, sizeof w);
  w.chf = chf;
  uint32_t *nb = opr_links(chf);
  uint16_t *raw = malloc(sizeof *raw * n1);
  w.lab = calloc(n1, sizeof *w.lab);
  w.fd = calloc(n1, sizeof *w.fd);
  w.cand = malloc(sizeof *w.cand * n1);
  w.stack = malloc(sizeof *w.stack * n1);
  w.pend = malloc(sizeof *w.pend * 3 * (size_t)n1);
  uint32_t *cand2 = malloc(sizeof *cand2 * n1), *order = malloc(sizeof *order * n1);
  uint32_t *bstart = NULL, *fill = NULL; /* per level key: start of its spans in order */
  if (!nb || !raw || !w.lab || !w.fd || !w.cand || !w.stack || !w.pend || !cand2 || !order) {
    st = opc_nomem(err, "memory");
    goto done;
  }
  w.nb = nb;
  /* REG-020 .. REG-025 */
  distance_nb(chf, nb, raw);
  res.max_dist = blur_nb(chf, nb, raw, res.dist);
  w.dist = res.dist;
  /* REG-030: border ring first. */
  opr_paint_border(chf, border, w.lab);
  /* REG-031: levels from the top, step 2. The candidates of a level are the spans not
  ** null, not labelled, with dist >= level. Instead of a scan of every span per level
  ** (levels x spans: the cost that grew faster than the cells), the spans are sorted once
  ** by level (counting sort, span order kept inside a level) and a level's candidates are
  ** the previous level's candidates still unlabelled merged with its own spans still
  ** unlabelled, in ascending span order: the same list as the scan. No label goes back to
  ** 0 except inside flood, for spans that flood itself labelled, so no other span with
  ** dist >= level can be unlabelled. */
  uint32_t next = 1;
  uint32_t level = ((uint32_t)res.max_dist + 1) & ~1u;
  if (level < 2) level = 2; /* REG-031: level 0 is always flooded */
  uint32_t top = (level - 2) / 2; /* the first level's key: dist >= level - 2 */
  bstart = calloc((size_t)top + 2, sizeof *bstart);
  fill = malloc(sizeof *fill * ((size_t)top + 2));
  if (!bstart || !fill) {
    st = opc_nomem(err, "memory");
    goto done;
  }
  level_sort(chf, w.dist, top, bstart, fill, order);
  next = flood_levels(&w, level, bstart, order, &cand2);
  if (work) *work = w.work;
  st = opr_filter(chf, w.lab, next, min_region_area, merge_region_area, &res, err);
done:
  free(cand2);
  free(order);
  free(bstart);
  free(fill);
  free(nb);
  free(raw);
  free(w.lab);
  free(w.fd);
  free(w.cand);
  free(w.stack);
  free(w.pend);
  if (st != OP_OK) {
    op_regions_free(&res);
    memset(out, 0, sizeof *out);
    return st;
  }
  *out = res;
  return OP_OK;
}

op_status op_regions_watershed(const op_chf *chf, int32_t border, uint32_t min_region_area,
                               uint32_t merge_region_area, op_regions *out, op_error *err) {
  return opr_watershed_work(chf, border, min_region_area, merge_region_area, out, NULL, err);
}
