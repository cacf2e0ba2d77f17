/*
** inputs.c -- the 3D builder's inputs: the triangle soup (SPAN-050 .. SPAN-052), the
** chunked triangle mesh (SPAN-060 .. SPAN-063) and the heightfield of solid columns
** (SPAN-070 .. SPAN-073). Implements spec/build3d-spans.md section 2; the OBJ reader is
** ref/build3d/spans/obj.c, the level generators ref/levels/levels.c.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onepath_build3d.h"
#include "core/internal.h"
#include "build3d/spans/spans_internal.h"

/* ------------------------------------------------------------ soup */

/* SPAN-051, SPAN-052 */
op_status op_soup_validate(const op_soup *s, op_error *err) {
  if (s->nverts > OP_SOUP_MAX_VERTS)
    return op_fail_i(err, OP_E_LIMIT, "verts", s->nverts, "at most 2^24 vertices");
  if (s->ntris > OP_SOUP_MAX_TRIS)
    return op_fail_i(err, OP_E_LIMIT, "tris", s->ntris, "at most 2^24 triangles");
  if ((s->nverts && !s->verts) || (s->ntris && !s->tris))
    return op_fail(err, OP_E_ARGUMENT, s->nverts && !s->verts ? "verts" : "tris", "",
                   "array missing");
  static const char axis[3] = {'x', 'y', 'z'};
  for (uint32_t i = 0; i < s->nverts; i++)
    for (int k = 0; k < 3; k++) {
      double v = s->verts[3 * (size_t)i + (size_t)k];
      if (!opsp_within(v, -OP_COORD_LIMIT, OP_COORD_LIMIT)) {
        char f[48];
        snprintf(f, sizeof f, "verts[%u].%c", i, axis[k]);
        return op_fail_d(err, OP_E_RANGE, f, v, "a coordinate must be finite and within +-2^21");
      }
    }
  for (uint32_t t = 0; t < s->ntris; t++)
    for (int k = 0; k < 3; k++) {
      uint32_t v = s->tris[3 * (size_t)t + (size_t)k];
      if (v >= s->nverts) {
        char f[48];
        snprintf(f, sizeof f, "tris[%u][%d]", t, k);
        return op_fail_i(err, OP_E_RANGE, f, v, "a vertex index must be less than nverts");
      }
    }
  return OP_OK;
}

void op_trimesh_free(op_trimesh *m) {
  if (!m) return;
  free(m->verts);
  free(m->tris);
  memset(m, 0, sizeof *m);
}

op_soup op_trimesh_soup(const op_trimesh *m) {
  op_soup s;
  s.nverts = m->nverts;
  s.verts = m->verts;
  s.ntris = m->ntris;
  s.tris = m->tris;
  return s;
}

/* ------------------------------------------------------------ chunked mesh */

typedef struct chunk {
  int64_t kx, kz;
  double bmin[2], bmax[2];
  uint32_t first, count; /* range in op_chunked.order */
} chunk;

struct op_chunked {
  double *verts;
  uint32_t *tris;
  uint32_t nverts, ntris;
  double size;
  uint32_t nchunks;
  chunk *chunks;
  uint32_t *order; /* triangles grouped by chunk, ascending within each */
};

typedef struct keyed {
  int64_t kx, kz;
  uint32_t tri;
} keyed;

/* SPAN-062: by kz, then kx, then triangle index (ascending within a chunk). */
static int keyed_cmp(const void *pa, const void *pb) {
  const keyed *a = pa, *b = pb;
  if (a->kz != b->kz) return a->kz < b->kz ? -1 : 1;
  if (a->kx != b->kx) return a->kx < b->kx ? -1 : 1;
  return a->tri < b->tri ? -1 : a->tri > b->tri;
}

void op_chunked_free(op_chunked *c) {
  if (!c) return;
  free(c->verts);
  free(c->tris);
  free(c->chunks);
  free(c->order);
  free(c);
}

static op_status chunk_nomem(op_chunked *c, keyed *k, op_error *err) {
  free(k);
  op_chunked_free(c);
  return opc_nomem(err, "soup");
}

op_status op_chunked_create(const op_soup *soup, double chunk_size, op_chunked **out,
                            op_error *err) {
  op_status st = op_soup_validate(soup, err); /* SPAN-060 */
  if (st != OP_OK) return st;
  if (!opsp_within(chunk_size, 0x1p-16, OP_COORD_LIMIT))
    return op_fail_d(err, OP_E_RANGE, "chunk_size", chunk_size, "chunk_size must be finite and in [2^-16, 2^21]");
  op_chunked *c = calloc(1, sizeof *c);
  keyed *k = NULL;
  if (!c) return chunk_nomem(c, k, err);
  c->nverts = soup->nverts;
  c->ntris = soup->ntris;
  c->size = chunk_size;
  c->verts = malloc(3 * (size_t)soup->nverts * sizeof(double) + 1);
  c->tris = malloc(3 * (size_t)soup->ntris * sizeof(uint32_t) + 1);
  c->order = malloc((size_t)soup->ntris * sizeof(uint32_t) + 1);
  k = malloc((size_t)soup->ntris * sizeof *k + 1);
  if (!c->verts || !c->tris || !c->order || !k) return chunk_nomem(c, k, err);
  if (soup->nverts) memcpy(c->verts, soup->verts, 3 * (size_t)soup->nverts * sizeof(double));
  if (soup->ntris) memcpy(c->tris, soup->tris, 3 * (size_t)soup->ntris * sizeof(uint32_t));
  for (uint32_t t = 0; t < c->ntris; t++) { /* SPAN-061 */
    double mn[2], mx[2];
    for (int a = 0; a < 2; a++) {
      int ax = a ? 2 : 0;
      double v0 = c->verts[3 * (size_t)c->tris[3 * (size_t)t] + (size_t)ax];
      mn[a] = mx[a] = v0;
      for (int j = 1; j < 3; j++) {
        double v = c->verts[3 * (size_t)c->tris[3 * (size_t)t + (size_t)j] + (size_t)ax];
        if (v < mn[a]) mn[a] = v;
        if (v > mx[a]) mx[a] = v;
      }
    }
    /* SPAN-061: FloorCells' is the rule of SPAN-020 for c of either sign. */
    k[t].kx = op_cells_floor((mn[0] + mx[0]) * 0.5, chunk_size);
    k[t].kz = op_cells_floor((mn[1] + mx[1]) * 0.5, chunk_size);
    k[t].tri = t;
  }
  if (c->ntris) qsort(k, c->ntris, sizeof *k, keyed_cmp); /* SPAN-062 */
  uint32_t n = 0;
  for (uint32_t t = 0; t < c->ntris; t++)
    if (t == 0 || k[t].kx != k[t - 1].kx || k[t].kz != k[t - 1].kz) n++;
  c->chunks = calloc((size_t)n + 1, sizeof *c->chunks);
  if (!c->chunks) return chunk_nomem(c, k, err);
  c->nchunks = n;
  uint32_t ci = 0;
  for (uint32_t t = 0; t < c->ntris; t++) {
    if (t > 0 && (k[t].kx != k[t - 1].kx || k[t].kz != k[t - 1].kz)) ci++;
    chunk *ch = &c->chunks[ci];
    c->order[t] = k[t].tri;
    for (int j = 0; j < 3; j++) {
      const double *v = &c->verts[3 * (size_t)c->tris[3 * (size_t)k[t].tri + (size_t)j]];
      if (ch->count == 0 && j == 0) {
        ch->kx = k[t].kx;
        ch->kz = k[t].kz;
        ch->first = t;
        ch->bmin[0] = ch->bmax[0] = v[0];
        ch->bmin[1] = ch->bmax[1] = v[2];
      }
      if (v[0] < ch->bmin[0]) ch->bmin[0] = v[0];
      if (v[0] > ch->bmax[0]) ch->bmax[0] = v[0];
      if (v[2] < ch->bmin[1]) ch->bmin[1] = v[2];
      if (v[2] > ch->bmax[1]) ch->bmax[1] = v[2];
    }
    ch->count++;
  }
  free(k);
  *out = c;
  return OP_OK;
}

op_soup op_chunked_soup(const op_chunked *c) {
  op_soup s;
  s.nverts = c->nverts;
  s.verts = c->verts;
  s.ntris = c->ntris;
  s.tris = c->tris;
  return s;
}

uint32_t op_chunked_count(const op_chunked *c) { return c->nchunks; }

void op_chunked_chunk(const op_chunked *c, uint32_t i, double bmin[2], double bmax[2],
                      const uint32_t **tris, uint32_t *ntris) {
  const chunk *ch = &c->chunks[i];
  bmin[0] = ch->bmin[0];
  bmin[1] = ch->bmin[1];
  bmax[0] = ch->bmax[0];
  bmax[1] = ch->bmax[1];
  *tris = c->order + ch->first;
  *ntris = ch->count;
}

static int u32_cmp(const void *pa, const void *pb) {
  uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
  return a < b ? -1 : a > b;
}

/* SPAN-063: closed-box overlap; the union sorted ascending (each triangle is in one
** chunk, so no duplicates arise). */
op_status op_chunked_query(const op_chunked *c, const double bmin[2], const double bmax[2],
                           uint32_t **tris, uint32_t *n, op_error *err) {
  size_t total = 0;
  for (uint32_t i = 0; i < c->nchunks; i++) {
    const chunk *ch = &c->chunks[i];
    if (ch->bmin[0] <= bmax[0] && ch->bmax[0] >= bmin[0] && ch->bmin[1] <= bmax[1] &&
        ch->bmax[1] >= bmin[1])
      total += ch->count;
  }
  *tris = NULL;
  *n = 0;
  if (total == 0) return OP_OK;
  uint32_t *r = malloc(total * sizeof *r);
  if (!r) return opc_nomem(err, "chunks");
  size_t k = 0;
  for (uint32_t i = 0; i < c->nchunks; i++) {
    const chunk *ch = &c->chunks[i];
    if (ch->bmin[0] <= bmax[0] && ch->bmax[0] >= bmin[0] && ch->bmin[1] <= bmax[1] &&
        ch->bmax[1] >= bmin[1]) {
      memcpy(r + k, c->order + ch->first, ch->count * sizeof *r);
      k += ch->count;
    }
  }
  qsort(r, total, sizeof *r, u32_cmp);
  *tris = r;
  *n = (uint32_t)total;
  return OP_OK;
}

/* ------------------------------------------------------------ solid columns */

/* SPAN-072 (settings first: SPAN-030). */
op_status op_solid_columns_validate(const op_solid_columns *h, const op_settings *s,
                                    op_error *err) {
  op_status st = op_settings_validate(s, err);
  if (st != OP_OK) return st;
  char f[64];
  for (int k = 0; k < 3; k++)
    if (!opsp_within(h->origin[k], -OP_COORD_LIMIT, OP_COORD_LIMIT)) {
      snprintf(f, sizeof f, "origin[%d]", k);
      return op_fail_d(err, OP_E_RANGE, f, h->origin[k], "origin must be finite and within +-2^21");
    }
  if (h->width < 1 || h->width > 65536)
    return op_fail_i(err, OP_E_RANGE, "width", h->width, "width must be in 1..65536");
  if (h->depth < 1 || h->depth > 65536)
    return op_fail_i(err, OP_E_RANGE, "depth", h->depth, "depth must be in 1..65536");
  uint64_t ncols = (uint64_t)h->width * h->depth;
  if (ncols > (1u << 26))
    return op_fail_i(err, OP_E_LIMIT, "depth", h->depth, "width * depth must be at most 2^26");
  if (h->nspans > (1u << 26))
    return op_fail_i(err, OP_E_LIMIT, "spans", h->nspans, "at most 2^26 spans");
  if (!(h->origin[0] + (double)h->width * s->cell_size <= OP_COORD_LIMIT))
    return op_fail_i(err, OP_E_RANGE, "width", h->width, "the far corner leaves +-2^21");
  if (!(h->origin[2] + (double)h->depth * s->cell_size <= OP_COORD_LIMIT))
    return op_fail_i(err, OP_E_RANGE, "depth", h->depth, "the far corner leaves +-2^21");
  if (!h->col_start || (h->nspans && !h->spans))
    return op_fail(err, OP_E_ARGUMENT, h->col_start ? "spans" : "col_start", "", "array missing");
  if (h->col_start[0] != 0)
    return op_fail_i(err, OP_E_ARGUMENT, "col_start[0]", h->col_start[0], "col_start[0] must be 0");
  for (uint64_t i = 0; i < ncols; i++)
    if (h->col_start[i] > h->col_start[i + 1]) {
      snprintf(f, sizeof f, "col_start[%llu]", (unsigned long long)(i + 1));
      return op_fail_i(err, OP_E_ARGUMENT, f, h->col_start[i + 1], "col_start must not decrease");
    }
  if (h->col_start[ncols] != h->nspans) {
    snprintf(f, sizeof f, "col_start[%llu]", (unsigned long long)ncols);
    return op_fail_i(err, OP_E_ARGUMENT, f, h->col_start[ncols], "the last offset must be nspans");
  }
  uint64_t col = 0;
  for (uint32_t i = 0; i < h->nspans; i++) {
    while (h->col_start[col + 1] <= i) col++; /* column of span i */
    const op_solid_span *sp = &h->spans[i];
    if (sp->ymin < 0) {
      snprintf(f, sizeof f, "spans[%u].ymin", i);
      return op_fail_i(err, OP_E_RANGE, f, sp->ymin, "ymin must be >= 0");
    }
    snprintf(f, sizeof f, "spans[%u].ymax", i);
    if (!(sp->ymin < sp->ymax) || sp->ymax > OP_SOLID_MAX_ROW)
      return op_fail_i(err, OP_E_RANGE, f, sp->ymax, "ymax must be above ymin and at most 65535");
    if (sp->area > 63) {
      snprintf(f, sizeof f, "spans[%u].area", i);
      return op_fail_i(err, OP_E_RANGE, f, sp->area, "an area id is 0..63");
    }
    if (!(h->origin[1] + (double)sp->ymax * s->cell_height <= OP_COORD_LIMIT))
      return op_fail_i(err, OP_E_RANGE, f, sp->ymax, "the span's top leaves +-2^21");
    if (i > h->col_start[col] && !(sp->ymin > h->spans[i - 1].ymax)) {
      snprintf(f, sizeof f, "spans[%u].ymin", i);
      return op_fail_i(err, OP_E_ARGUMENT, f, sp->ymin,
                       "spans of a column must ascend and not touch");
    }
  }
  return OP_OK;
}
