/*
** regions_watershed.c -- the watershed partition (spec/build3d-regions.md section 2):
** distance field (REG-020 .. REG-024), blur (REG-025), flooding by levels (REG-030 ..
** REG-036), expansion (REG-040 .. REG-044), then section 5.
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
} ws;

static int ordinary(uint32_t l) { return l != 0 && l != OP_REG_WORK_BORDER; }

/* REG-040 .. REG-044: expansion of labelled regions into the candidates. */
static void expand(ws *w, uint32_t ncand, uint32_t max_iter) {
  uint32_t iter = 0;
  for (;;) {
    uint32_t np = 0;
    for (uint32_t k = 0; k < ncand; k++) {
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
      }
    }
    for (uint32_t k = 0; k < np; k++) {
      w->lab[w->pend[3 * k]] = w->pend[3 * k + 1];
      w->fd[w->pend[3 * k]] = w->pend[3 * k + 2];
    }
    if (np == 0) break;
    iter++;
    if (max_iter && iter >= max_iter) break;
  }
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

op_status op_regions_watershed(const op_chf *chf, int32_t border, uint32_t min_region_area,
                               uint32_t merge_region_area, op_regions *out, op_error *err) {
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
  if (!nb || !raw || !w.lab || !w.fd || !w.cand || !w.stack || !w.pend) {
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
  /* REG-031 .. REG-031: levels from the top, step 2. */
  uint32_t next = 1;
  uint32_t level = ((uint32_t)res.max_dist + 1) & ~1u;
  if (level < 2) level = 2; /* REG-031: level 0 is always flooded */
  while (level > 0) {
    level -= 2;
    uint32_t nc = 0;
    for (uint32_t i = 0; i < n; i++)
      if (chf->areas[i] != OP_AREA_NULL && w.lab[i] == 0 && w.dist[i] >= level) w.cand[nc++] = i;
    expand(&w, nc, 8);
    for (uint32_t k = 0; k < nc; k++) {
      uint32_t i = w.cand[k];
      if (w.lab[i] != 0) continue;
      if (flood(&w, i, level, next)) next++;
    }
  }
  /* REG-038: the last expansion, with no iteration limit. */
  {
    uint32_t nc = 0;
    for (uint32_t i = 0; i < n; i++)
      if (chf->areas[i] != OP_AREA_NULL && w.lab[i] == 0) w.cand[nc++] = i;
    expand(&w, nc, 0);
  }
  st = opr_filter(chf, w.lab, next, min_region_area, merge_region_area, &res, err);
done:
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
