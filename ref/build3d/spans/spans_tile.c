/*
** spans_tile.c -- one tile through stages 1 to 3 of the 3D build, and every tile of a
** soup: the frame (SPAN-181), the tile's triangles and grid (SPAN-180 .. SPAN-185), the
** tile range (SPAN-183) and the all-tiles bytes (SPAN-171). Implements
** spec/build3d-spans.md sections 7 and 8 over the stages of raster.c, filter.c,
** compact.c, erode.c and volumes.c. A build of many tiles (op_spans_build_all, the
** pipeline) finds each tile's triangles through one triangle index (tri_index.c) instead
** of scanning the soup per tile; the box test of SPAN-181 is unchanged, so is the result.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/internal.h"
#include "core/bytes.h"
#include "build3d/spans/spans_internal.h"

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
  if (st == OP_OK) st = opsp_chf_erode_counted(chf, c->walkable_radius, hf->alloc, err);
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
static op_status build_from_al(const op_settings *s, const op_cell_settings *c,
                               const op_soup *soup, const op_hf_grid *g, const uint32_t *cand,
                               uint32_t ncand, op_alloc_count *al, op_chf **out,
                               op_error *err) { /* CONF-059: al counts its allocations */
  const double bx0 = opsp_grid_line_x(g, 0), bx1 = opsp_grid_line_x(g, g->width);
  const double bz0 = opsp_grid_line_z(g, 0), bz1 = opsp_grid_line_z(g, g->depth);
  uint32_t total = cand ? ncand : soup->ntris;
  uint32_t *sel = opc_malloc(al, (total ? total : 1) * sizeof *sel);
  if (!sel) return opc_nomem(err, "soup");
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
  op_status st = opsp_hf_create_counted(g, al, &hf, err);
  /* The soup was checked once for the build (SPAN-052; a chunked mesh's copy was checked
  ** when it was made, SPAN-060), and sel is ascending and in range by construction (a
  ** subsequence of 0..ntris-1, of a chunk query's ascending list, or of a tri_index.c
  ** list), so nothing is checked again per tile. */
  if (st == OP_OK)
    st = opsp_rasterize_trusted(hf, soup, sel, n, c->slope_cos, c->walkable_climb, err);
  free(sel);
  if (st == OP_OK) st = finish_tile(hf, s, c, out, err);
  op_hf_free(hf);
  return st;
}

static op_status build_from(const op_settings *s, const op_cell_settings *c, const op_soup *soup,
                            const op_hf_grid *g, const uint32_t *cand, uint32_t ncand,
                            op_chf **out, op_error *err) {
  return build_from_al(s, c, soup, g, cand, ncand, NULL, out, err);
}

/* A tile from settings and a soup already validated (al: CONF-059, NULL = not counted). */
static op_status build_checked(const op_settings *s, const op_cell_settings *c,
                               const op_soup *soup, const double origin[3], double y0,
                               double y1, int32_t tx, int32_t tz, op_alloc_count *al,
                               op_chf **out, op_error *err) {
  op_hf_grid g;
  op_status st = op_hf_grid_tile(s, c, origin, tx, tz, y0, y1, &g, err);
  if (st != OP_OK) return st;
  return build_from_al(s, c, soup, &g, NULL, 0, al, out, err);
}

/* SPAN-180, SPAN-181, SPAN-182 */
op_status op_spans_build_tile(const op_settings *s, const op_soup *soup, const double origin[3],
                              double y0, double y1, int32_t tx, int32_t tz, op_chf **out,
                              op_error *err) {
  return op_spans_build_tile_counted(s, soup, origin, y0, y1, tx, tz, NULL, out, err);
}

/* CONF-059: the same, every allocation of the tile's stages counted on al. */
op_status op_spans_build_tile_counted(const op_settings *s, const op_soup *soup,
                                      const double origin[3], double y0, double y1, int32_t tx,
                                      int32_t tz, op_alloc_count *al, op_chf **out,
                                      op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  *out = NULL;
  op_cell_settings c;
  op_status st = op_settings_derive(s, &c, err);
  if (st != OP_OK) return st;
  st = op_soup_validate(soup, err);
  if (st != OP_OK) return st;
  return build_checked(s, &c, soup, origin, y0, y1, tx, tz, al, out, err);
}

op_status opsp_build_tile_trusted(const op_settings *s, const op_soup *soup,
                                  const double origin[3], double y0, double y1, int32_t tx,
                                  int32_t tz, op_chf **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  *out = NULL;
  op_cell_settings c;
  op_status st = op_settings_derive(s, &c, err);
  if (st != OP_OK) return st;
  return build_checked(s, &c, soup, origin, y0, y1, tx, tz, NULL, out, err);
}

/* The same tile through a per-build triangle index (tri_index.c): its candidate list
** replaces the scan of every triangle; build_from's box test does the rest (SPAN-181). */
op_status opsp_build_tile_indexed(const op_settings *s, const op_soup *soup,
                                  const opsp_tri_index *ix, const double origin[3], double y0,
                                  double y1, int32_t tx, int32_t tz, op_chf **out,
                                  op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  *out = NULL;
  op_cell_settings c;
  op_status st = op_settings_derive(s, &c, err);
  if (st != OP_OK) return st;
  if (!opsp_tri_index_fits(ix, s, &c, soup, origin, tx, tz))
    return build_checked(s, &c, soup, origin, y0, y1, tx, tz, NULL, out, err);
  op_hf_grid g;
  st = op_hf_grid_tile(s, &c, origin, tx, tz, y0, y1, &g, err);
  if (st != OP_OK) return st;
  const uint32_t *cand;
  uint32_t n;
  opsp_tri_index_query(ix, tx, tz, &cand, &n);
  return n ? build_from(s, &c, soup, &g, cand, n, out, err) : OP_OK; /* none: not built */
}

op_status opsp_build_tile_cand_trusted(const op_settings *s, const op_soup *soup,
                                       const double origin[3], double y0, double y1,
                                       int32_t tx, int32_t tz, const uint32_t *cand,
                                       uint32_t ncand, op_chf **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  *out = NULL;
  op_cell_settings c;
  op_status st = op_settings_derive(s, &c, err);
  if (st != OP_OK) return st;
  op_hf_grid g;
  st = op_hf_grid_tile(s, &c, origin, tx, tz, y0, y1, &g, err);
  if (st != OP_OK) return st;
  return ncand ? build_from(s, &c, soup, &g, cand, ncand, out, err) : OP_OK;
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
  double bmin[2] = {opsp_grid_line_x(&g, 0), opsp_grid_line_z(&g, 0)};
  double bmax[2] = {opsp_grid_line_x(&g, g.width), opsp_grid_line_z(&g, g.depth)};
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
  opsp_tri_index *ix = NULL; /* one index for every tile of the build (tri_index.c) */
  st = opsp_tri_index_build(s, soup, o, ntx, ntz, &ix, err);
  if (st != OP_OK) return st;
  opc_buf b = {NULL, 0, 0, 0}; /* SPAN-171: built tiles in the order of SPAN-183 */
  uint32_t built = 0;
  opc_put(&b, "OPSPB001", 8);
  opc_put_u32(&b, (uint32_t)ntx);
  opc_put_u32(&b, (uint32_t)ntz);
  opc_put_u32(&b, 0); /* the count of built tiles, filled in below */
  for (int32_t tz = 0; tz < ntz && !b.oom && st == OP_OK; tz++)
    for (int32_t tx = 0; tx < ntx && !b.oom && st == OP_OK; tx++) {
      op_chf *c = NULL;
      st = opsp_build_tile_indexed(s, soup, ix, o, o[1], ymax, tx, tz, &c, err);
      if (st != OP_OK || !c) continue;
      op_bytes tb = {NULL, 0};
      st = op_chf_save(c, &tb, err);
      op_chf_free(c);
      if (st != OP_OK) break;
      opc_put_u32(&b, (uint32_t)tx);
      opc_put_u32(&b, (uint32_t)tz);
      opc_put_u32(&b, (uint32_t)tb.len);
      opc_put(&b, tb.data, tb.len);
      op_bytes_free(&tb);
      built++;
    }
  opsp_tri_index_free(ix);
  if (st == OP_OK && b.oom) st = opc_nomem(err, "out");
  if (st != OP_OK) {
    free(b.p);
    return st;
  }
  const uint8_t nb[4] = {(uint8_t)built, (uint8_t)(built >> 8), (uint8_t)(built >> 16),
                         (uint8_t)(built >> 24)};
  memcpy(b.p + 16, nb, 4);
  out->data = b.p;
  out->len = b.len;
  return OP_OK;
}
