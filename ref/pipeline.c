/*
** pipeline.c -- Mesh3DPipeline: BuildSoup, BuildChunk, BuildHeightfield
** (spec/build3d-polys.md section 5, POLY-220 .. POLY-226). Every stage for every tile of
** the grid, rows (tz) ascending and within a row columns (tx) ascending: spans
** (SPAN-180), regions (REG-005), contours (REG-200), polygons (POLY-020), detail
** (POLY-200), tile (POLY-210), TiledNavMesh.AddTile (MESH-012).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spans_internal.h"
#include "assembly.h"
#include "contours.h"
#include "internal.h"
#include "onepath_pipeline.h"
#include "polys.h"
#include "regions.h"

typedef enum { SRC_SOUP, SRC_CHUNK, SRC_COLUMNS } src_kind;

typedef struct build_ctx {
  const op_settings *s;
  op_cell_settings cell;
  src_kind kind;
  const op_soup *soup;
  const op_chunked *chunk;
  const op_solid_columns *cols;
  double origin[3], ymax; /* tiling origin; soup frame's greatest y */
  int32_t ntx, ntz;
  op_tiling tiling;
  const op_pipeline_hooks *hooks;
} build_ctx;

/* POLY-225: the error of a tile's stage keeps kind, field and value; its message is
** prefixed with the tile. */
static op_status tile_error(op_error *err, op_status st, int32_t tx, int32_t tz) {
  if (st != OP_OK && err) {
    char m[sizeof err->message];
    snprintf(m, sizeof m, "tile (%d, %d): %.200s", (int)tx, (int)tz, err->message);
    memcpy(err->message, m, sizeof m);
  }
  return st;
}

/* POLY-223: stages 1-3 of tile (tx, tz); *out NULL when the tile is not built. */
static op_status spans_tile(const build_ctx *c, int32_t tx, int32_t tz, op_chf **out,
                            op_error *err) {
  switch (c->kind) {
  case SRC_SOUP:
    /* the soup was validated once for the whole build (SPAN-052, POLY-223) */
    return op_spans_build_tile_trusted(c->s, c->soup, c->origin, c->origin[1], c->ymax, tx,
                                       tz, out, err);
  case SRC_CHUNK:
    return op_spans_build_tile_chunked(c->s, c->chunk, c->origin, c->origin[1], c->ymax, tx,
                                       tz, out, err);
  default:
    return op_spans_build_tile_columns(c->s, c->cols, tx, tz, out, err);
  }
}

/* POLY-223: regions, contours, polygons, detail and tile of one built tile. */
static op_status tile_stages(const build_ctx *c, const op_chf *chf, int32_t tx, int32_t tz,
                             op_tile **tile, op_error *err) {
  const op_settings *s = c->s;
  op_regions rg;
  op_contour_set cs;
  op_pmesh pm;
  op_detail_mesh dm;
  memset(&rg, 0, sizeof rg);
  memset(&cs, 0, sizeof cs);
  memset(&pm, 0, sizeof pm);
  memset(&dm, 0, sizeof dm);
  op_status st = op_regions_build(chf, s->partition, c->cell.border, s->min_region_area,
                                  s->merge_region_area, &rg, err); /* REG-005 */
  if (st == OP_OK) {
    op_contour_params p;
    p.border = c->cell.border;
    p.max_error = s->max_simplification_error;
    p.max_edge_len = c->cell.max_edge_len;
    st = op_contours_build(chf, rg.reg, &p, &cs, err); /* REG-200 */
  }
  if (st == OP_OK)
    st = op_pmesh_build(&cs, &chf->grid, c->cell.border, s->max_verts_per_poly, &pm,
                        err); /* POLY-020 */
  if (st == OP_OK) st = op_detail_build(s, &pm, chf, &dm, err); /* POLY-200 */
  if (st == OP_OK)
    st = op_tile_assemble(&pm, &dm, tx, tz, 0, &c->tiling, chf->grid.origin[1], tile,
                          err); /* POLY-210, layer 0 (POLY-217) */
  op_detail_free(&dm);
  op_pmesh_free(&pm);
  op_contour_set_free(&cs);
  op_regions_free(&rg);
  return st;
}

static op_status push_tile(op_pipeline_result *r, uint32_t *cap, const op_tile *t,
                           op_error *err) {
  if (r->ntiles == *cap) {
    uint32_t nc = *cap ? 2 * *cap : 16;
    op_pipeline_tile *n = realloc(r->tiles, nc * sizeof *n);
    if (!n) return op_fail(err, OP_E_NOMEM, "tiles", "", "out of memory");
    r->tiles = n;
    *cap = nc;
  }
  op_tile_desc v;
  op_tile_view(t, &v);
  op_pipeline_tile *e = &r->tiles[r->ntiles++];
  e->x = v.x;
  e->z = v.z;
  e->layer = v.layer;
  e->nverts = v.nverts;
  e->npolys = v.npolys;
  e->content_id = op_tile_content_id(t);
  r->npolys += v.npolys;
  return OP_OK;
}

/* POLY-222: the grid against the format's limits. */
static op_status check_limits(const build_ctx *c, op_error *err) {
  uint64_t n = (uint64_t)c->ntx * (uint64_t)c->ntz;
  if (n > (1u << 22))
    return op_fail_i(err, OP_E_LIMIT, "tile_cells", c->s->tile_cells,
                     "the level needs more tiles than a mesh has slots (2^22, MESH-004); "
                     "raise tile_cells");
  double w = (double)c->tiling.tile_cells * c->tiling.cell_size; /* FMT-005 */
  double x1 = c->origin[0] + (double)c->ntx * w, z1 = c->origin[2] + (double)c->ntz * w;
  if (x1 > 2097152.0 || z1 > 2097152.0)
    return op_fail_i(err, OP_E_LIMIT, "tile_cells", c->s->tile_cells,
                     "the last tile ends beyond 2^21 (FMT-006); lower tile_cells");
  return OP_OK;
}

/* POLY-220 .. POLY-225: the common part of the three entry points. */
static op_status run(build_ctx *c, op_pipeline_result *out, op_error *err) {
  op_status st = check_limits(c, err);
  if (st != OP_OK) return st;
  op_mesh_params mp; /* POLY-224 */
  memset(&mp, 0, sizeof mp);
  mp.tiling = c->tiling;
  mp.walkable_climb = (double)c->cell.walkable_climb * c->s->cell_height;
  mp.max_tiles = (uint32_t)((uint64_t)c->ntx * (uint64_t)c->ntz);
  op_pipeline_result r;
  memset(&r, 0, sizeof r);
  r.ntx = c->ntx;
  r.ntz = c->ntz;
  st = op_mesh_create(&mp, &r.mesh, err);
  uint32_t cap = 0;
  uint64_t total = mp.max_tiles, done = 0;
  for (int32_t tz = 0; st == OP_OK && tz < c->ntz; tz++) {     /* POLY-223: rows */
    for (int32_t tx = 0; st == OP_OK && tx < c->ntx; tx++) {   /* then columns */
      op_chf *chf = NULL;
      op_tile *tile = NULL;
      st = spans_tile(c, tx, tz, &chf, err);
      if (st == OP_OK && chf) {
        r.nbuilt++;
        st = tile_stages(c, chf, tx, tz, &tile, err);
      }
      if (st == OP_OK && tile) {
        op_ref ref;
        st = op_mesh_add_tile(r.mesh, tile, &ref, err); /* MESH-012 */
        if (st == OP_OK) st = push_tile(&r, &cap, tile, err);
        if (st == OP_OK && c->hooks && c->hooks->tile) c->hooks->tile(c->hooks->ud, tx, tz, tile);
      }
      op_tile_free(tile);
      op_chf_free(chf);
      st = tile_error(err, st, tx, tz);
      done++;
      if (st == OP_OK && c->hooks && c->hooks->progress)
        c->hooks->progress(c->hooks->ud, done, total);
    }
  }
  if (st != OP_OK) { /* POLY-225: nothing is returned */
    op_pipeline_result_free(&r);
    return st;
  }
  *out = r;
  return OP_OK;
}

/* POLY-220 step 1 and 2: settings, then the detail rule. */
static op_status begin(build_ctx *c, const op_settings *s, const op_pipeline_hooks *h,
                       op_pipeline_result *out, op_error *err) {
  memset(c, 0, sizeof *c);
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  if (!s) return op_fail(err, OP_E_ARGUMENT, "settings", "NULL", "settings are required");
  c->s = s;
  c->hooks = h;
  op_status st = op_settings_derive(s, &c->cell, err); /* SPAN-030, SPAN-020..025 */
  if (st == OP_OK) st = op_detail_check(s, err);      /* POLY-202 */
  return st;
}

static void set_tiling(build_ctx *c) { /* POLY-224 */
  for (int k = 0; k < 3; k++) c->tiling.origin[k] = c->origin[k];
  c->tiling.cell_size = c->s->cell_size;
  c->tiling.cell_height = c->s->cell_height;
  c->tiling.tile_cells = c->s->tile_cells;
  c->tiling.max_verts_per_poly = c->s->max_verts_per_poly;
}

/* POLY-221: the soup's frame and tile range (SPAN-181, SPAN-183). */
static op_status soup_grid(build_ctx *c, const op_soup *soup, op_error *err) {
  op_status st = op_soup_validate(soup, err); /* SPAN-052 */
  if (st == OP_OK) st = op_soup_frame(soup, c->origin, &c->ymax, err);
  if (st == OP_OK) st = op_spans_tile_range(c->s, soup, &c->ntx, &c->ntz, err);
  if (st == OP_OK) set_tiling(c);
  return st;
}

op_status op_pipeline_build_soup(const op_settings *s, const op_soup *soup,
                                 const op_pipeline_hooks *hooks, op_pipeline_result *out,
                                 op_error *err) {
  build_ctx c;
  op_status st = begin(&c, s, hooks, out, err);
  if (st != OP_OK) return st;
  if (!soup) return op_fail(err, OP_E_ARGUMENT, "soup", "NULL", "a soup is required");
  c.kind = SRC_SOUP;
  c.soup = soup;
  st = soup_grid(&c, soup, err);
  return st == OP_OK ? run(&c, out, err) : st;
}

op_status op_pipeline_build_chunk(const op_settings *s, const op_chunked *ch,
                                  const op_pipeline_hooks *hooks, op_pipeline_result *out,
                                  op_error *err) {
  build_ctx c;
  op_status st = begin(&c, s, hooks, out, err);
  if (st != OP_OK) return st;
  if (!ch) return op_fail(err, OP_E_ARGUMENT, "chunks", "NULL", "a chunked mesh is required");
  op_soup soup = op_chunked_soup(ch); /* POLY-226: the frame of the chunked mesh's soup */
  c.kind = SRC_CHUNK;
  c.chunk = ch;
  st = soup_grid(&c, &soup, err);
  return st == OP_OK ? run(&c, out, err) : st;
}

op_status op_pipeline_build_heightfield(const op_settings *s, const op_solid_columns *cols,
                                        const op_pipeline_hooks *hooks,
                                        op_pipeline_result *out, op_error *err) {
  build_ctx c;
  op_status st = begin(&c, s, hooks, out, err);
  if (st != OP_OK) return st;
  if (!cols) return op_fail(err, OP_E_ARGUMENT, "columns", "NULL", "columns are required");
  st = op_solid_columns_validate(cols, s, err); /* SPAN-072 */
  if (st != OP_OK) return st;
  c.kind = SRC_COLUMNS;
  c.cols = cols;
  for (int k = 0; k < 3; k++) c.origin[k] = cols->origin[k]; /* POLY-221 */
  uint64_t t = s->tile_cells;
  uint64_t nx = ((uint64_t)cols->width + t - 1) / t, nz = ((uint64_t)cols->depth + t - 1) / t;
  if (nx < 1) nx = 1;
  if (nz < 1) nz = 1;
  if (nx * nz > (1u << 22)) /* POLY-222, before the conversion to i32 */
    return op_fail_i(err, OP_E_LIMIT, "tile_cells", s->tile_cells,
                     "the level needs more tiles than a mesh has slots (2^22, MESH-004); "
                     "raise tile_cells");
  c.ntx = (int32_t)nx;
  c.ntz = (int32_t)nz;
  set_tiling(&c);
  return run(&c, out, err);
}

void op_pipeline_result_free(op_pipeline_result *r) {
  if (!r) return;
  op_mesh_free(r->mesh);
  free(r->tiles);
  memset(r, 0, sizeof *r);
}
