/*
** compact.c -- stage 2b of the 3D build: the compact (open-span) heightfield, its
** neighbour links, the span graph, one tile's stages 1 to 3 in order, and the canonical
** bytes that checkpoints hash (spec/build3d-spans.md sections 5, 7 and 8, SPAN-130 ..
** SPAN-146, SPAN-170, SPAN-171, SPAN-180 .. SPAN-185).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
      const op_chf_span *col[4]; /* per direction (op_dir_dx, op_dir_dz): the column's spans */
      uint32_t n[4] = {0, 0, 0, 0};
      for (int dir = 0; dir < 4; dir++) {
        int32_t nx = x + op_dir_dx[dir], nz = z + op_dir_dz[dir];
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
      for (const op_hf_span *s = op_hf_first(hf, x, z); s; s = op_hf_next(hf, s))
        if (s->area != OP_AREA_NULL) c++;
      if (c > OP_CHF_MAX_COLUMN) {
        char field[64];
        snprintf(field, sizeof field, "column[%d,%d]", (int)x, (int)z);
        return op_fail_i(err, OP_E_LIMIT, field, c, "more than 63 open spans in a column");
      }
      total += c;
    }
  op_chf *chf = calloc(1, sizeof *chf);
  if (chf) {
    chf->cell_index = calloc(ncol, sizeof *chf->cell_index);
    chf->cell_count = calloc(ncol, sizeof *chf->cell_count);
    chf->spans = calloc(total ? total : 1, sizeof *chf->spans);
    chf->areas = calloc(total ? total : 1, sizeof *chf->areas);
  }
  if (!chf || !chf->cell_index || !chf->cell_count || !chf->spans || !chf->areas) {
    op_chf_free(chf);
    return op_fail(err, OP_E_NOMEM, "hf", "", "out of memory for the compact heightfield");
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
      for (const op_hf_span *s = op_hf_first(hf, x, z); s; s = op_hf_next(hf, s)) {
        if (s->area == OP_AREA_NULL) continue;
        const op_hf_span *n = op_hf_next(hf, s);
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
    return op_fail(err, OP_E_NOMEM, "chf", "", "out of memory for the span graph");
  }
  int64_t step[4]; /* column index of the neighbour in direction dir minus the column's */
  for (int dir = 0; dir < 4; dir++)
    step[dir] = (int64_t)op_dir_dz[dir] * chf->grid.width + op_dir_dx[dir];
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

static void put_u32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

/* SPAN-170: the canonical bytes of a compact heightfield. */
op_status op_chf_save(const op_chf *chf, op_bytes *out, op_error *err) {
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "null", "the heightfield is missing");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  const size_t ncol = (size_t)chf->grid.width * (size_t)chf->grid.depth;
  const size_t len = 40 + ncol + 8 * (size_t)chf->nspans;
  uint8_t *p = malloc(len);
  if (!p) return op_fail(err, OP_E_NOMEM, "chf", "", "out of memory for the bytes");
  memcpy(p, "OPCHF001", 8);
  put_u32(p + 8, (uint32_t)chf->grid.gx0);
  put_u32(p + 12, (uint32_t)chf->grid.gz0);
  put_u32(p + 16, (uint32_t)chf->grid.width);
  put_u32(p + 20, (uint32_t)chf->grid.depth);
  put_u32(p + 24, (uint32_t)chf->grid.height);
  put_u32(p + 28, (uint32_t)chf->walkable_height);
  put_u32(p + 32, (uint32_t)chf->walkable_climb);
  put_u32(p + 36, chf->nspans);
  uint8_t *q = p + 40;
  for (size_t c = 0; c < ncol; c++) *q++ = chf->cell_count[c];
  for (uint32_t i = 0; i < chf->nspans; i++) {
    const op_chf_span *s = &chf->spans[i];
    q[0] = (uint8_t)s->y;
    q[1] = (uint8_t)(s->y >> 8);
    q[2] = s->h;
    q[3] = chf->areas[i];
    memcpy(q + 4, s->link, 4);
    q += 8;
  }
  out->data = p;
  out->len = len;
  return OP_OK;
}

/* ------------------------------------------------------------ one tile (section 7) */

/* SPAN-181: the frame of a soup build: least x, y, z and greatest y over every vertex. */
op_status op_soup_frame(const op_soup *soup, double origin[3], double *ymax, op_error *err) {
  op_status st = op_soup_validate(soup, err);
  if (st != OP_OK) return st;
  double mn[3] = {0, 0, 0}, my = 0;
  for (uint32_t v = 0; v < soup->nverts; v++) {
    const double *p = &soup->verts[3 * (size_t)v];
    for (int c = 0; c < 3; c++)
      if (v == 0 || p[c] < mn[c]) mn[c] = p[c];
    if (v == 0 || p[1] > my) my = p[1];
  }
  for (int c = 0; c < 3; c++) origin[c] = mn[c];
  *ymax = my;
  return OP_OK;
}

/* SPAN-180: the stages after rasterization, on a solid heightfield. */
static op_status finish_tile(op_hf *hf, const op_settings *s, const op_cell_settings *c,
                             op_chf **out, op_error *err) {
  op_hf_filter_low_hanging(hf, c->walkable_climb);
  op_hf_filter_ledges(hf, c->walkable_height, c->walkable_climb);
  op_hf_filter_low_height(hf, c->walkable_height);
  op_chf *chf = NULL;
  op_status st = op_chf_build(hf, c->walkable_height, c->walkable_climb, &chf, err);
  if (st == OP_OK) st = op_chf_erode(chf, c->walkable_radius, err);
  if (st == OP_OK) st = op_chf_mark_volumes(chf, s->volumes, s->nvolumes, err);
  if (st != OP_OK) {
    op_chf_free(chf);
    return st;
  }
  *out = chf;
  return OP_OK;
}

/* SPAN-181, SPAN-182: the tile from candidate triangles cand[0..ncand-1] (ascending; NULL =
** every triangle of the soup): keeps those whose xz box meets the grid's closed box. */
static op_status build_from(const op_settings *s, const op_cell_settings *c, const op_soup *soup,
                            const op_hf_grid *g, const uint32_t *cand, uint32_t ncand,
                            op_chf **out, op_error *err) {
  const double bx0 = op_grid_line_x(g, 0), bx1 = op_grid_line_x(g, g->width);
  const double bz0 = op_grid_line_z(g, 0), bz1 = op_grid_line_z(g, g->depth);
  uint32_t total = cand ? ncand : soup->ntris;
  uint32_t *sel = malloc((total ? total : 1) * sizeof *sel);
  if (!sel) return op_fail(err, OP_E_NOMEM, "soup", "", "out of memory for the triangle list");
  uint32_t n = 0;
  int walkable = 0;
  for (uint32_t k = 0; k < total; k++) {
    uint32_t t = cand ? cand[k] : k;
    const double *v[3];
    for (int i = 0; i < 3; i++) v[i] = &soup->verts[3 * (size_t)soup->tris[3 * (size_t)t + i]];
    double mnx = v[0][0], mxx = v[0][0]; /* x first: most triangles of a level miss on x */
    for (int i = 1; i < 3; i++) {
      if (v[i][0] < mnx) mnx = v[i][0];
      if (v[i][0] > mxx) mxx = v[i][0];
    }
    if (mxx < bx0 || mnx > bx1) continue;
    double mnz = v[0][2], mxz = v[0][2];
    for (int i = 1; i < 3; i++) {
      if (v[i][2] < mnz) mnz = v[i][2];
      if (v[i][2] > mxz) mxz = v[i][2];
    }
    if (mxz < bz0 || mnz > bz1) continue;
    sel[n++] = t;
    if (!walkable && op_tri_walkable(v[0], v[1], v[2], c->slope_cos)) walkable = 1;
  }
  if (!walkable) { /* SPAN-182: the tile is not built */
    free(sel);
    return OP_OK;
  }
  op_hf *hf = NULL;
  op_status st = op_hf_create(g, &hf, err);
  /* The soup was checked by the caller; without candidates sel is ascending and in range
  ** by construction, so only a candidate list (chunked input) is checked again. */
  if (st == OP_OK && cand)
    st = op_hf_rasterize(hf, soup, sel, n, c->slope_cos, c->walkable_climb, err);
  else if (st == OP_OK)
    st = op_hf_rasterize_trusted(hf, soup, sel, n, c->slope_cos, c->walkable_climb, err);
  free(sel);
  if (st == OP_OK) st = finish_tile(hf, s, c, out, err);
  op_hf_free(hf);
  return st;
}

/* A tile from settings and a soup already validated. */
static op_status build_checked(const op_settings *s, const op_cell_settings *c,
                               const op_soup *soup, const double origin[3], double y0,
                               double y1, int32_t tx, int32_t tz, op_chf **out, op_error *err) {
  op_hf_grid g;
  op_status st = op_hf_grid_tile(s, c, origin, tx, tz, y0, y1, &g, err);
  if (st != OP_OK) return st;
  return build_from(s, c, soup, &g, NULL, 0, out, err);
}

/* SPAN-180, SPAN-181, SPAN-182 */
op_status op_spans_build_tile(const op_settings *s, const op_soup *soup, const double origin[3],
                              double y0, double y1, int32_t tx, int32_t tz, op_chf **out,
                              op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  *out = NULL;
  op_cell_settings c;
  op_status st = op_settings_derive(s, &c, err);
  if (st != OP_OK) return st;
  st = op_soup_validate(soup, err);
  if (st != OP_OK) return st;
  return build_checked(s, &c, soup, origin, y0, y1, tx, tz, out, err);
}

op_status op_spans_build_tile_trusted(const op_settings *s, const op_soup *soup,
                                      const double origin[3], double y0, double y1, int32_t tx,
                                      int32_t tz, op_chf **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  *out = NULL;
  op_cell_settings c;
  op_status st = op_settings_derive(s, &c, err);
  if (st != OP_OK) return st;
  return build_checked(s, &c, soup, origin, y0, y1, tx, tz, out, err);
}

/* SPAN-180, SPAN-181, SPAN-064: the same tile from a chunked mesh: the triangles of the
** chunks that meet the grid's box, then the box test of SPAN-181 on each. */
op_status op_spans_build_tile_chunked(const op_settings *s, const op_chunked *ch,
                                      const double origin[3], double y0, double y1, int32_t tx,
                                      int32_t tz, op_chf **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  *out = NULL;
  if (!ch) return op_fail(err, OP_E_ARGUMENT, "chunked", "null", "the chunked mesh is missing");
  op_cell_settings c;
  op_status st = op_settings_derive(s, &c, err);
  if (st != OP_OK) return st;
  op_soup soup = op_chunked_soup(ch);
  op_hf_grid g;
  st = op_hf_grid_tile(s, &c, origin, tx, tz, y0, y1, &g, err);
  if (st != OP_OK) return st;
  double bmin[2] = {op_grid_line_x(&g, 0), op_grid_line_z(&g, 0)};
  double bmax[2] = {op_grid_line_x(&g, g.width), op_grid_line_z(&g, g.depth)};
  uint32_t *tris = NULL, n = 0;
  st = op_chunked_query(ch, bmin, bmax, &tris, &n, err);
  if (st != OP_OK) return st;
  st = n ? build_from(s, &c, &soup, &g, tris, n, out, err) : OP_OK;
  free(tris);
  return st;
}

/* SPAN-180, SPAN-185 */
op_status op_spans_build_tile_columns(const op_settings *s, const op_solid_columns *cols,
                                      int32_t tx, int32_t tz, op_chf **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  *out = NULL;
  op_cell_settings c;
  op_status st = op_settings_derive(s, &c, err);
  if (st != OP_OK) return st;
  st = op_solid_columns_validate(cols, s, err);
  if (st != OP_OK) return st;
  op_hf_grid g;
  st = op_hf_grid_tile(s, &c, cols->origin, tx, tz, cols->origin[1], cols->origin[1], &g, err);
  if (st != OP_OK) return st;
  g.height = OP_HF_MAX_HEIGHT; /* SPAN-102: a heightfield build has every row */
  int walkable = 0;
  for (int32_t z = 0; z < g.depth && !walkable; z++) {
    int64_t iz = (int64_t)g.gz0 + z;
    if (iz < 0 || iz >= (int64_t)cols->depth) continue;
    for (int32_t x = 0; x < g.width && !walkable; x++) {
      int64_t ix = (int64_t)g.gx0 + x;
      if (ix < 0 || ix >= (int64_t)cols->width) continue;
      size_t ci = (size_t)iz * cols->width + (size_t)ix;
      for (uint32_t k = cols->col_start[ci]; k < cols->col_start[ci + 1]; k++)
        if (cols->spans[k].area != OP_AREA_NULL) walkable = 1;
    }
  }
  if (!walkable) return OP_OK;
  op_hf *hf = NULL;
  st = op_hf_create(&g, &hf, err);
  if (st == OP_OK) st = op_hf_add_columns(hf, cols, c.walkable_climb, err);
  if (st == OP_OK) st = finish_tile(hf, s, &c, out, err);
  op_hf_free(hf);
  return st;
}

/* SPAN-183: the tiles of a soup build: tx = 0 .. ntx - 1 with ntx the least n >= 1 such
** that the line X(n * TileSize) is at or beyond the greatest x (likewise z). */
static op_status tile_count(double o, double mx, double cs, int64_t T, const char *field,
                            int32_t *out, op_error *err) {
  double e = (mx - o) / (cs * (double)T);
  int64_t n = e < 1 ? 1 : e > 8192 ? 8193 : (int64_t)e;
  while (n > 1 && o + (double)((n - 1) * T) * cs >= mx) n--;
  while (n <= 8192 && o + (double)(n * T) * cs < mx) n++;
  if (n > 8192) return op_fail_d(err, OP_E_LIMIT, field, mx, "more than 8192 tiles on an axis");
  *out = (int32_t)n;
  return OP_OK;
}

op_status op_spans_tile_range(const op_settings *s, const op_soup *soup, int32_t *ntx,
                              int32_t *ntz, op_error *err) {
  op_cell_settings c;
  op_status st = op_settings_derive(s, &c, err);
  if (st != OP_OK) return st;
  double o[3], ymax;
  st = op_soup_frame(soup, o, &ymax, err);
  if (st != OP_OK) return st;
  double mx = o[0], mz = o[2];
  for (uint32_t v = 0; v < soup->nverts; v++) {
    if (soup->verts[3 * (size_t)v] > mx) mx = soup->verts[3 * (size_t)v];
    if (soup->verts[3 * (size_t)v + 2] > mz) mz = soup->verts[3 * (size_t)v + 2];
  }
  int32_t a = 0, b = 0;
  st = tile_count(o[0], mx, s->cell_size, s->tile_cells, "verts.x", &a, err);
  if (st == OP_OK) st = tile_count(o[2], mz, s->cell_size, s->tile_cells, "verts.z", &b, err);
  if (st != OP_OK) return st;
  *ntx = a;
  *ntz = b;
  return OP_OK;
}

/* A growable byte buffer for op_spans_build_all. */
typedef struct bbuf {
  uint8_t *p;
  size_t n, cap;
} bbuf;

static int bb_put(bbuf *b, const void *src, size_t n) {
  if (b->n + n > b->cap) {
    size_t nc = b->cap ? b->cap : 256;
    while (nc < b->n + n) nc *= 2;
    uint8_t *np = realloc(b->p, nc);
    if (!np) return 0;
    b->p = np;
    b->cap = nc;
  }
  memcpy(b->p + b->n, src, n);
  b->n += n;
  return 1;
}

static int bb_u32(bbuf *b, uint32_t v) {
  uint8_t q[4];
  put_u32(q, v);
  return bb_put(b, q, 4);
}

/* SPAN-183, SPAN-171 */
op_status op_spans_build_all(const op_settings *s, const op_soup *soup, op_bytes *out,
                             op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  int32_t ntx, ntz;
  op_status st = op_spans_tile_range(s, soup, &ntx, &ntz, err);
  if (st != OP_OK) return st;
  double o[3], ymax;
  st = op_soup_frame(soup, o, &ymax, err);
  if (st != OP_OK) return st;
  op_cell_settings cs;
  st = op_settings_derive(s, &cs, err);
  if (st != OP_OK) return st;
  bbuf b = {NULL, 0, 0};
  uint32_t built = 0;
  int ok = bb_put(&b, "OPSPB001", 8) && bb_u32(&b, (uint32_t)ntx) && bb_u32(&b, (uint32_t)ntz) &&
           bb_u32(&b, 0);
  for (int32_t tz = 0; tz < ntz && ok && st == OP_OK; tz++)
    for (int32_t tx = 0; tx < ntx && ok && st == OP_OK; tx++) {
      op_chf *c = NULL;
      st = build_checked(s, &cs, soup, o, o[1], ymax, tx, tz, &c, err);
      if (st != OP_OK || !c) continue;
      op_bytes tb = {NULL, 0};
      st = op_chf_save(c, &tb, err);
      op_chf_free(c);
      if (st != OP_OK) break;
      ok = bb_u32(&b, (uint32_t)tx) && bb_u32(&b, (uint32_t)tz) && bb_u32(&b, (uint32_t)tb.len) &&
           bb_put(&b, tb.data, tb.len);
      op_bytes_free(&tb);
      built++;
    }
  if (st == OP_OK && !ok) st = op_fail(err, OP_E_NOMEM, "out", "", "out of memory for the bytes");
  if (st != OP_OK) {
    free(b.p);
    return st;
  }
  put_u32(b.p + 16, built);
  out->data = b.p;
  out->len = b.n;
  return OP_OK;
}
