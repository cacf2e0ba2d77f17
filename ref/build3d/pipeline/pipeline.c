/*
** pipeline.c -- Mesh3DPipeline: BuildSoup, BuildChunk, BuildHeightfield
** (spec/build3d-polys.md section 5, POLY-220 .. POLY-226) and the pieces the run-time tile
** cache shares with it (pipeline_internal.h; spec/build3d-runtime.md RT-010, RT-015, RT-016,
** RT-086). Every stage for every tile of the grid, rows (tz) ascending and within a row
** columns (tx) ascending: spans (SPAN-180) with the settings' volumes and Obstacles
** (RT-010), then on the general path regions (REG-005), contours (REG-200), polygons
** (POLY-020) and detail (POLY-200) by stages.c, tile (POLY-210), TiledNavMesh.AddTile
** (MESH-012); on the layer-first path (RT-080) the two passes of RT-086, each layer built by
** layerfirst.c. The work budget (spec/build3d-spans.md section 11, SPAN-204) is checked
** before the first tile. The top file of the folder: nothing in ref/build3d/pipeline/ calls it.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build3d/polys/assembly.h"
#include "core/internal.h"
#include "build3d/spans/obstacles.h"
#include "build3d/pipeline/pipeline_internal.h"
#include "build3d/polys/polys.h"
#include "build3d/spans/spans_internal.h"

#define PL_MAX_SLOTS (1u << 22) /* MESH-004 */

/* POLY-225: the error of a tile's stage keeps kind, field and value; its message is
** prefixed with the tile. */
op_status opl_tile_error(op_error *err, op_status st, int32_t tx, int32_t tz) {
  if (st != OP_OK && err) {
    char m[sizeof err->message];
    snprintf(m, sizeof m, "tile (%d, %d): %.200s", (int)tx, (int)tz, err->message);
    memcpy(err->message, m, sizeof m);
  }
  return st;
}

/* ------------------------------------------------------------------ one tile */

/* POLY-223 step 1: stages 1-3 of tile (tx, tz) with the settings s; *out NULL when the
** tile is not built. */
static op_status spans_tile(const opl_ctx *c, const op_settings *s, int32_t tx, int32_t tz,
                            op_chf **out, op_error *err) {
  switch (c->kind) {
  case OPL_SOUP:
    /* the soup was validated once for the whole build (SPAN-052, POLY-223) */
    return opsp_build_tile_trusted(s, c->soup, c->origin, c->origin[1], c->ymax, tx, tz,
                                       out, err);
  case OPL_CHUNK:
    return op_spans_build_tile_chunked(s, c->chunk, c->origin, c->origin[1], c->ymax, tx, tz,
                                       out, err);
  default:
    return op_spans_build_tile_columns(s, c->cols, tx, tz, out, err);
  }
}

/* RT-010, RT-081: stages 1 and 2 and the erosion (the settings' volumes left out: the
** volumes are the last part of stage 3, SPAN-180, so marking them afterwards gives the
** same areas), then (layer first) the layers on the eroded walkability, then the
** settings' volumes in list order and the settings' Obstacles in list order (RT-022). */
op_status opl_tile_base(const opl_ctx *c, int32_t tx, int32_t tz, opl_base *out,
                          op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  memset(out, 0, sizeof *out);
  if (!c) return op_fail(err, OP_E_ARGUMENT, "ctx", "NULL", "a build context is required");
  op_settings s = c->s;
  s.nvolumes = 0;
  s.volumes = NULL;
  opl_base b;
  memset(&b, 0, sizeof b);
  b.nlayers = 1; /* RT-086 (b): a position whose tile is not built counts 1 */
  op_status st = spans_tile(c, &s, tx, tz, &b.chf, err);
  if (st == OP_OK && b.chf && c->layer_first)
    st = opl_base_layers(b.chf, &b.layer, &b.nlayers, err); /* RT-081, RT-082 */
  if (st == OP_OK && b.chf)
    st = op_chf_mark_volumes(b.chf, c->s.volumes, c->s.nvolumes, err); /* SPAN-160 */
  if (st == OP_OK && b.chf)
    st = opob_chf_mark(b.chf, c->s.obstacles, c->s.nobstacles,
                               c->cell.walkable_radius, NULL, err); /* RT-010 */
  if (st != OP_OK) {
    opl_base_free(&b);
    return st;
  }
  *out = b;
  return OP_OK;
}

/* POLY-223 steps 2 to 6: regions, contours, polygons and detail (stages.c), then the
** tile with layer 0 (POLY-210, POLY-217). */
op_status opl_tile_general(const opl_ctx *c, const op_chf *chf, int32_t tx, int32_t tz,
                            op_tile **tile, op_error *err) {
  *tile = NULL;
  op_stage_tile t;
  memset(&t, 0, sizeof t);
  t.params = c->params;
  op_status st = opl_stages_on(&c->s, chf, OP_STAGE_DETAIL, &t, err); /* steps 2 to 5 */
  if (st == OP_OK)
    st = op_tile_assemble(&t.pmesh, &t.detail, tx, tz, 0, &c->tiling, chf->grid.origin[1],
                          tile, err); /* POLY-210, layer 0 (POLY-217) */
  op_stage_tile_free(&t); /* t.chf is NULL: chf stays the caller's */
  return st;
}

/* ------------------------------------------------------------------ the build */

/* POLY-224 */
void opl_mesh_params(const opl_ctx *c, uint32_t max_tiles, op_mesh_params *mp) {
  memset(mp, 0, sizeof *mp);
  mp->tiling = c->tiling;
  mp->walkable_climb = (double)c->cell.walkable_climb * c->s.cell_height;
  mp->max_tiles = max_tiles;
}

/* The state of one run: the result being made, and the kept data (cached build). */
typedef struct run_state {
  opl_ctx *c;
  op_pipeline_result r;
  uint32_t cap;         /* r.tiles allocated */
  opl_keep *keep;     /* NULL: plain build */
  uint32_t capkeep;
  uint64_t done, total; /* progress */
} run_state;

static op_status push_tile(run_state *rs, const op_tile *t, op_error *err) {
  op_pipeline_result *r = &rs->r;
  if (r->ntiles == rs->cap) {
    uint32_t nc = rs->cap ? 2 * rs->cap : 16;
    op_pipeline_tile *n = realloc(r->tiles, nc * sizeof *n);
    if (!n) return opc_nomem(err, "tiles");
    r->tiles = n;
    rs->cap = nc;
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

/* MESH-012: adds a tile (if any) to the mesh and the list, then the tile hook. */
static op_status add_tile(run_state *rs, int32_t tx, int32_t tz, const op_tile *tile,
                          op_error *err) {
  if (!tile) return OP_OK;
  op_ref ref;
  op_status st = op_mesh_add_tile(rs->r.mesh, tile, &ref, err);
  if (st == OP_OK) st = push_tile(rs, tile, err);
  const op_pipeline_hooks *h = rs->c->hooks;
  if (st == OP_OK && h && h->tile) h->tile(h->ud, tx, tz, tile);
  return st;
}

static void progress(run_state *rs) {
  const op_pipeline_hooks *h = rs->c->hooks;
  rs->done++;
  if (h && h->progress) h->progress(h->ud, rs->done, rs->total);
}

/* Moves a built tile's base and units into the kept data (RT-011); on failure frees
** them. base and units are zeroed either way. */
static op_status keep_push(run_state *rs, int32_t tx, int32_t tz, opl_base *base,
                           opl_unit *units, uint32_t nunits, op_error *err) {
  opl_keep *k = rs->keep;
  if (k->ntiles == rs->capkeep) {
    uint32_t nc = rs->capkeep ? 2 * rs->capkeep : 16;
    opl_keep_tile *n = realloc(k->tiles, nc * sizeof *n);
    if (!n) {
      for (uint32_t i = 0; i < nunits; i++) opl_unit_free(&units[i]);
      free(units);
      opl_base_free(base);
      return opc_nomem(err, "tiles");
    }
    k->tiles = n;
    rs->capkeep = nc;
  }
  opl_keep_tile *t = &k->tiles[k->ntiles++];
  t->tx = tx;
  t->tz = tz;
  t->base = *base;
  t->nunits = nunits;
  t->units = units;
  memset(base, 0, sizeof *base);
  return OP_OK;
}

static op_status create_mesh(run_state *rs, uint32_t max_tiles, op_error *err) {
  op_mesh_params mp; /* POLY-224 */
  opl_mesh_params(rs->c, max_tiles, &mp);
  return op_mesh_create(&mp, &rs->r.mesh, err);
}

/* POLY-223: the general path, one tile at a time (steps 1 to 7). */
static op_status one_general(run_state *rs, int32_t tx, int32_t tz, op_error *err) {
  opl_base b;
  op_tile *tile = NULL;
  op_status st = opl_tile_base(rs->c, tx, tz, &b, err);
  if (st != OP_OK || !b.chf) return st;
  rs->r.nbuilt++;
  st = opl_tile_general(rs->c, b.chf, tx, tz, &tile, err);
  if (st == OP_OK) st = add_tile(rs, tx, tz, tile, err);
  if (st == OP_OK && rs->keep) {
    opl_unit *u = calloc(1, sizeof *u);
    if (!u) {
      st = opc_nomem(err, "tiles");
    } else {
      u->tile = tile; /* the mesh copied it on add; the kept copy is this one */
      tile = NULL;
      st = keep_push(rs, tx, tz, &b, u, 1, err);
    }
  }
  op_tile_free(tile);
  opl_base_free(&b);
  return st;
}

static op_status run_general(run_state *rs, op_error *err) {
  opl_ctx *c = rs->c;
  op_status st = create_mesh(rs, (uint32_t)((uint64_t)c->ntx * (uint64_t)c->ntz), err);
  for (int32_t tz = 0; st == OP_OK && tz < c->ntz; tz++)     /* POLY-223: rows */
    for (int32_t tx = 0; st == OP_OK && tx < c->ntx; tx++) { /* then columns */
      st = opl_tile_error(err, one_general(rs, tx, tz, err), tx, tz);
      if (st == OP_OK) progress(rs);
    }
  return st;
}

/* RT-086 (d) for one built tile: its layers ascending, each made by RT-085 and added. */
static op_status one_layered(run_state *rs, int32_t tx, int32_t tz, opl_base *b,
                             op_error *err) {
  uint32_t n = b->nlayers;
  opl_unit *units = calloc(n, sizeof *units);
  if (!units) return opc_nomem(err, "layers");
  op_status st = OP_OK;
  for (uint32_t L = 0; st == OP_OK && L < n; L++) {
    opl_unit *u = &units[L];
    st = opl_layer_unit(rs->c, b, tx, tz, L, u, err);
    if (st == OP_OK) st = add_tile(rs, tx, tz, u->tile, err);
    if (!rs->keep) opl_unit_free(u); /* the plain build keeps nothing */
  }
  if (st == OP_OK && rs->keep) return keep_push(rs, tx, tz, b, units, n, err);
  for (uint32_t L = 0; L < n; L++) opl_unit_free(&units[L]);
  free(units);
  return st;
}

/* A built tile's base in pass 1 of RT-086. */
typedef struct lf_entry {
  int32_t tx, tz;
  opl_base base;
} lf_entry;

/* RT-086 (a): every tile's base in the order of POLY-223; *sum the slot count (b). */
static op_status lf_bases(run_state *rs, lf_entry **out, uint32_t *nout, uint64_t *sum,
                          op_error *err) {
  opl_ctx *c = rs->c;
  lf_entry *e = NULL;
  uint32_t n = 0, cap = 0;
  uint64_t s = 0;
  op_status st = OP_OK;
  for (int32_t tz = 0; st == OP_OK && tz < c->ntz; tz++)
    for (int32_t tx = 0; st == OP_OK && tx < c->ntx; tx++) {
      opl_base b;
      st = opl_tile_error(err, opl_tile_base(c, tx, tz, &b, err), tx, tz);
      if (st != OP_OK) break;
      s += b.chf ? b.nlayers : 1;
      if (!b.chf) continue;
      if (n == cap) {
        uint32_t nc = cap ? 2 * cap : 16;
        lf_entry *ne = realloc(e, nc * sizeof *ne);
        if (!ne) {
          opl_base_free(&b);
          st = opc_nomem(err, "tiles");
          break;
        }
        e = ne;
        cap = nc;
      }
      e[n].tx = tx;
      e[n].tz = tz;
      e[n++].base = b;
    }
  *out = e;
  *nout = n;
  *sum = s;
  return st;
}

/* RT-086: the layer-first build. */
static op_status run_layers(run_state *rs, op_error *err) {
  lf_entry *e = NULL;
  uint32_t n = 0;
  uint64_t sum = 0;
  op_status st = lf_bases(rs, &e, &n, &sum, err);
  if (st == OP_OK && sum > PL_MAX_SLOTS) /* RT-086 (b) */
    st = op_fail_i(err, OP_E_LIMIT, "tile_cells", rs->c->s.tile_cells,
                   "the level's layers need more tiles than a mesh has slots (2^22, MESH-004, "
                   "RT-086); raise tile_cells");
  if (st == OP_OK) st = create_mesh(rs, (uint32_t)sum, err); /* RT-086 (c) */
  rs->r.nbuilt = n;
  uint32_t k = 0;
  for (int32_t tz = 0; st == OP_OK && tz < rs->c->ntz; tz++) /* RT-086 (d) */
    for (int32_t tx = 0; st == OP_OK && tx < rs->c->ntx; tx++) {
      if (k < n && e[k].tx == tx && e[k].tz == tz) {
        st = opl_tile_error(err, one_layered(rs, tx, tz, &e[k].base, err), tx, tz);
        opl_base_free(&e[k].base); /* kept ones were moved out (zeroed) */
        k++;
      }
      if (st == OP_OK) progress(rs);
    }
  for (uint32_t i = 0; i < n; i++) opl_base_free(&e[i].base);
  free(e);
  return st;
}

/* POLY-222: the grid against the format's limits. */
static op_status check_limits(const opl_ctx *c, op_error *err) {
  uint64_t n = (uint64_t)c->ntx * (uint64_t)c->ntz;
  if (n > PL_MAX_SLOTS)
    return op_fail_i(err, OP_E_LIMIT, "tile_cells", c->s.tile_cells,
                     "the level needs more tiles than a mesh has slots (2^22, MESH-004); "
                     "raise tile_cells");
  double w = (double)c->tiling.tile_cells * c->tiling.cell_size; /* FMT-005 */
  double x1 = c->origin[0] + (double)c->ntx * w, z1 = c->origin[2] + (double)c->ntz * w;
  if (x1 > 2097152.0 || z1 > 2097152.0)
    return op_fail_i(err, OP_E_LIMIT, "tile_cells", c->s.tile_cells,
                     "the last tile ends beyond 2^21 (FMT-006); lower tile_cells");
  return OP_OK;
}

/* POLY-220 steps 5 and 6, or RT-086; keep receives the kept data of a cached build. */
op_status opl_run(opl_ctx *c, op_pipeline_result *out, opl_keep *keep,
                    op_error *err) {
  if (keep) memset(keep, 0, sizeof *keep);
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  if (!c) return op_fail(err, OP_E_ARGUMENT, "ctx", "NULL", "a build context is required");
  op_status st = check_limits(c, err);
  if (st != OP_OK) return st;
  run_state rs;
  memset(&rs, 0, sizeof rs);
  rs.c = c;
  rs.keep = keep;
  rs.r.ntx = c->ntx;
  rs.r.ntz = c->ntz;
  rs.total = (uint64_t)c->ntx * (uint64_t)c->ntz;
  st = c->layer_first ? run_layers(&rs, err) : run_general(&rs, err);
  if (st != OP_OK) { /* POLY-225: nothing is returned */
    op_pipeline_result_free(&rs.r);
    opl_keep_free(keep);
    return st;
  }
  *out = rs.r;
  return OP_OK;
}

/* ------------------------------------------------------------------ begin */

/* POLY-220 steps 1 and 2: settings, then the detail rule; RT-080's choice. */
static op_status begin(opl_ctx *c, const op_settings *s, const op_pipeline_hooks *h,
                       op_error *err) {
  if (c) memset(c, 0, sizeof *c);
  if (!c) return op_fail(err, OP_E_ARGUMENT, "ctx", "NULL", "a context is required");
  if (!s) return op_fail(err, OP_E_ARGUMENT, "settings", "NULL", "settings are required");
  c->s = *s;
  c->hooks = h;
  op_status st = op_settings_derive(s, &c->cell, err); /* SPAN-030, SPAN-020..025 */
  if (st == OP_OK) opl_stage_params_fill(s, &c->cell, &c->params); /* stages.c */
  if (st == OP_OK) st = op_detail_check(s, err);      /* POLY-202 */
  /* RT-080: Layers without detail sampling is built layer first */
  c->layer_first = s->partition == OP_PARTITION_LAYERS && c->cell.detail_sample_dist == 0;
  return st;
}

static void set_tiling(opl_ctx *c) { /* POLY-224 */
  for (int k = 0; k < 3; k++) c->tiling.origin[k] = c->origin[k];
  c->tiling.cell_size = c->s.cell_size;
  c->tiling.cell_height = c->s.cell_height;
  c->tiling.tile_cells = c->s.tile_cells;
  c->tiling.max_verts_per_poly = c->s.max_verts_per_poly;
}

/* POLY-221: the soup's frame and tile range (SPAN-181, SPAN-183). */
static op_status soup_grid(opl_ctx *c, const op_soup *soup, op_error *err) {
  op_status st = op_soup_validate(soup, err); /* SPAN-052 */
  if (st == OP_OK) st = op_soup_frame(soup, c->origin, &c->ymax, err);
  if (st == OP_OK) st = op_spans_tile_range(&c->s, soup, &c->ntx, &c->ntz, err);
  if (st == OP_OK) set_tiling(c);
  return st;
}

op_status opl_begin_soup(opl_ctx *c, const op_settings *s, const op_soup *soup,
                           const op_pipeline_hooks *h, op_error *err) {
  op_status st = begin(c, s, h, err);
  if (st != OP_OK) return st;
  if (!soup) return op_fail(err, OP_E_ARGUMENT, "soup", "NULL", "a soup is required");
  c->kind = OPL_SOUP;
  c->soup = soup;
  return soup_grid(c, soup, err);
}

op_status opl_begin_chunk(opl_ctx *c, const op_settings *s, const op_chunked *ch,
                            const op_pipeline_hooks *h, op_error *err) {
  op_status st = begin(c, s, h, err);
  if (st != OP_OK) return st;
  if (!ch) return op_fail(err, OP_E_ARGUMENT, "chunks", "NULL", "a chunked mesh is required");
  op_soup soup = op_chunked_soup(ch); /* POLY-226: the frame of the chunked mesh's soup */
  c->kind = OPL_CHUNK;
  c->chunk = ch;
  return soup_grid(c, &soup, err);
}

op_status opl_begin_columns(opl_ctx *c, const op_settings *s,
                              const op_solid_columns *cols, const op_pipeline_hooks *h,
                              op_error *err) {
  op_status st = begin(c, s, h, err);
  if (st != OP_OK) return st;
  if (!cols) return op_fail(err, OP_E_ARGUMENT, "columns", "NULL", "columns are required");
  st = op_solid_columns_validate(cols, s, err); /* SPAN-072 */
  if (st != OP_OK) return st;
  c->kind = OPL_COLUMNS;
  c->cols = cols;
  for (int k = 0; k < 3; k++) c->origin[k] = cols->origin[k]; /* POLY-221 */
  uint64_t t = s->tile_cells;
  uint64_t nx = ((uint64_t)cols->width + t - 1) / t, nz = ((uint64_t)cols->depth + t - 1) / t;
  if (nx < 1) nx = 1;
  if (nz < 1) nz = 1;
  if (nx * nz > PL_MAX_SLOTS) /* POLY-222, before the conversion to i32 */
    return op_fail_i(err, OP_E_LIMIT, "tile_cells", s->tile_cells,
                     "the level needs more tiles than a mesh has slots (2^22, MESH-004); "
                     "raise tile_cells");
  c->ntx = (int32_t)nx;
  c->ntz = (int32_t)nz;
  set_tiling(c);
  return OP_OK;
}

/* ------------------------------------------------------------------ entry points */

/* SPAN-204: the work budget after the grid's format limits (POLY-222), before any tile. */
static op_status budget_run(opl_ctx *c, const op_build_limits *lim, op_pipeline_result *out,
                            op_error *err) {
  op_status st = check_limits(c, err); /* POLY-222 first; opl_run repeats it (cheap) */
  if (st == OP_OK)
    st = op_build_budget_check(&c->cell, (uint64_t)c->ntx * (uint64_t)c->ntz, lim, err);
  return st == OP_OK ? opl_run(c, out, NULL, err) : st;
}

op_status op_pipeline_build_soup_limited(const op_settings *s, const op_soup *soup,
                                         const op_build_limits *lim,
                                         const op_pipeline_hooks *hooks,
                                         op_pipeline_result *out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  opl_ctx c;
  op_status st = opl_begin_soup(&c, s, soup, hooks, err);
  return st == OP_OK ? budget_run(&c, lim, out, err) : st;
}

op_status op_pipeline_build_chunk_limited(const op_settings *s, const op_chunked *ch,
                                          const op_build_limits *lim,
                                          const op_pipeline_hooks *hooks,
                                          op_pipeline_result *out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  opl_ctx c;
  op_status st = opl_begin_chunk(&c, s, ch, hooks, err);
  return st == OP_OK ? budget_run(&c, lim, out, err) : st;
}

op_status op_pipeline_build_heightfield_limited(const op_settings *s,
                                                const op_solid_columns *cols,
                                                const op_build_limits *lim,
                                                const op_pipeline_hooks *hooks,
                                                op_pipeline_result *out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  opl_ctx c;
  op_status st = opl_begin_columns(&c, s, cols, hooks, err);
  return st == OP_OK ? budget_run(&c, lim, out, err) : st;
}

op_status op_pipeline_build_soup(const op_settings *s, const op_soup *soup,
                                 const op_pipeline_hooks *hooks, op_pipeline_result *out,
                                 op_error *err) {
  return op_pipeline_build_soup_limited(s, soup, NULL, hooks, out, err); /* SPAN-201 */
}

op_status op_pipeline_build_chunk(const op_settings *s, const op_chunked *ch,
                                  const op_pipeline_hooks *hooks, op_pipeline_result *out,
                                  op_error *err) {
  return op_pipeline_build_chunk_limited(s, ch, NULL, hooks, out, err);
}

op_status op_pipeline_build_heightfield(const op_settings *s, const op_solid_columns *cols,
                                        const op_pipeline_hooks *hooks,
                                        op_pipeline_result *out, op_error *err) {
  return op_pipeline_build_heightfield_limited(s, cols, NULL, hooks, out, err);
}

void op_pipeline_result_free(op_pipeline_result *r) {
  if (!r) return;
  op_mesh_free(r->mesh);
  free(r->tiles);
  memset(r, 0, sizeof *r);
}
