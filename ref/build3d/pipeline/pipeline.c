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
** before the first tile. With threads (POLY-228) workers make the tiles (workers.c) and the
** calling thread adds them in the order above, so the mesh is the same for any count: a
** worker's tile depends only on the context, read-only while they run, and everything a
** build orders (the mesh, the hooks, the first error) happens on the calling thread.
** The top file of the folder: nothing in ref/build3d/pipeline/ calls it.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build3d/polys/assembly.h"
#include "core/alloc.h"
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
    return opsp_build_tile_indexed(s, c->soup, c->tri_index, c->origin, c->origin[1],
                                   c->ymax, tx, tz, out, err);
  case OPL_CHUNK: {
    /* SPAN-064 builds a chunked tile from its chunk query and says it equals the soup's
    ** tile (SPAN-181) byte for byte; the per-build index of the chunked mesh's soup gives
    ** that tile without a query per tile (O(chunks) each), so the chunks only made it */
    op_soup cs = op_chunked_soup(c->chunk);
    if (c->tri_index)
      return opsp_build_tile_indexed(s, &cs, c->tri_index, c->origin, c->origin[1], c->ymax,
                                     tx, tz, out, err);
    return op_spans_build_tile_chunked(s, c->chunk, c->origin, c->origin[1], c->ymax, tx, tz,
                                       out, err);
  }
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

/* ---- the general path (POLY-223), its tiles made by opl_par_run (POLY-228) ---- */

/* Item i of a run: the i-th tile of the range (the whole grid, or a part's, POLY-229) in
** the order of POLY-223, rows then columns. */
static void pos_of(const opl_ctx *c, uint64_t i, int32_t *tx, int32_t *tz) {
  *tx = c->rx0 + (int32_t)(i % (uint64_t)c->rnx);
  *tz = c->rz0 + (int32_t)(i / (uint64_t)c->rnx);
}

/* What a worker makes of one tile of the general path: steps 1 to 6. */
typedef struct gen_slot {
  int built;      /* 0: the tile is not built (SPAN-182) */
  opl_base b;     /* the cached build's base; freed by the worker in a plain build */
  op_tile *tile;  /* NULL: no polygon */
} gen_slot;

static op_status gen_work(void *ud, uint64_t i, void *slot, op_error *err) {
  const run_state *rs = ud;
  const opl_ctx *c = rs->c;
  gen_slot *g = slot;
  int32_t tx, tz;
  pos_of(c, i, &tx, &tz);
  op_status st = opl_tile_base(c, tx, tz, &g->b, err);
  g->built = st == OP_OK && g->b.chf;
  if (g->built) st = opl_tile_general(c, g->b.chf, tx, tz, &g->tile, err);
  if (!rs->keep) opl_base_free(&g->b); /* only the tile waits for its turn */
  return st;
}

static void gen_drop(void *ud, void *slot) {
  gen_slot *g = slot;
  op_tile_free(g->tile);
  opl_base_free(&g->b);
}

/* Step 7 of the tile, in POLY-223's order: added to the mesh (and kept), then progress. */
static op_status gen_take_tile(run_state *rs, int32_t tx, int32_t tz, gen_slot *g,
                               op_status st, const op_error *werr, op_error *err) {
  if (st != OP_OK) {
    if (err) *err = *werr;
    return st;
  }
  if (!g->built) return OP_OK;
  rs->r.nbuilt++;
  if (g->tile) /* POLY-223 step 6: the column's slots (POLY-242, POLY-244) */
    st = opl_offmesh_attach(rs->c, tx, tz, &g->tile, 1, &rs->r.noffmesh, err);
  if (st == OP_OK) st = add_tile(rs, tx, tz, g->tile, err);
  if (st == OP_OK && rs->keep) {
    opl_unit *u = calloc(1, sizeof *u);
    if (!u) {
      st = opc_nomem(err, "tiles");
    } else {
      u->tile = g->tile; /* the mesh copied it on add; the kept copy is this one */
      g->tile = NULL;
      st = keep_push(rs, tx, tz, &g->b, u, 1, err);
    }
  }
  return st;
}

static op_status gen_take(void *ud, uint64_t i, void *slot, op_status st,
                          const op_error *werr, op_error *err) {
  run_state *rs = ud;
  int32_t tx, tz;
  pos_of(rs->c, i, &tx, &tz);
  st = opl_tile_error(err, gen_take_tile(rs, tx, tz, slot, st, werr, err), tx, tz);
  gen_drop(ud, slot);
  if (st == OP_OK) progress(rs);
  return st;
}

static op_status run_general(run_state *rs, op_error *err) {
  opl_ctx *c = rs->c;
  uint64_t n = (uint64_t)c->rnx * (uint64_t)c->rnz;
  rs->r.slots = (uint32_t)n;
  op_status st = create_mesh(rs, n ? (uint32_t)n : 1, err); /* an empty part: one slot */
  /* POLY-223: rows, then columns: item i is the i-th tile of the range (pos_of) */
  opl_par p = {c->threads, n, sizeof(gen_slot), rs, gen_work, gen_take, gen_drop};
  return st == OP_OK ? opl_par_run(&p, err) : st;
}

/* ---- the layer-first path (RT-086) ---- */

/* A built tile's base in pass 1 of RT-086. */
typedef struct lf_entry {
  int32_t tx, tz;
  opl_base base;
} lf_entry;

/* Pass 1: the bases in the order of POLY-223. */
typedef struct lf_pass1 {
  run_state *rs;
  lf_entry *e;
  uint32_t n, cap;
  uint64_t sum;
} lf_pass1;

static op_status lf_base_work(void *ud, uint64_t i, void *slot, op_error *err) {
  const lf_pass1 *p = ud;
  const opl_ctx *c = p->rs->c;
  int32_t tx, tz;
  pos_of(c, i, &tx, &tz);
  return opl_tile_base(c, tx, tz, slot, err);
}

static void lf_base_drop(void *ud, void *slot) { opl_base_free(slot); }

static op_status lf_base_take(void *ud, uint64_t i, void *slot, op_status st,
                              const op_error *werr, op_error *err) {
  lf_pass1 *p = ud;
  opl_base *b = slot;
  const opl_ctx *c = p->rs->c;
  int32_t tx, tz;
  pos_of(c, i, &tx, &tz);
  if (st != OP_OK) {
    if (err) *err = *werr;
    return opl_tile_error(err, st, tx, tz);
  }
  p->sum += b->chf ? b->nlayers : 1; /* RT-086 (b) */
  if (!b->chf) return OP_OK;
  if (p->n == p->cap) {
    uint32_t nc = p->cap ? 2 * p->cap : 16;
    lf_entry *ne = realloc(p->e, nc * sizeof *ne);
    if (!ne) {
      opl_base_free(b);
      return opc_nomem(err, "tiles");
    }
    p->e = ne;
    p->cap = nc;
  }
  p->e[p->n].tx = tx;
  p->e[p->n].tz = tz;
  p->e[p->n++].base = *b;
  memset(b, 0, sizeof *b);
  return OP_OK;
}

/* Pass (d): each built tile's layers (RT-085), made by a worker, added in order. */
typedef struct lf_pass2 {
  run_state *rs;
  lf_entry *e;
  int64_t last; /* the last grid position whose progress was reported */
} lf_pass2;

typedef struct lf_slot {
  opl_unit *units; /* the first `nok` made; nunits allocated */
  uint32_t nunits, nok;
} lf_slot;

static op_status lf_layers_work(void *ud, uint64_t i, void *slot, op_error *err) {
  const lf_pass2 *p = ud;
  const lf_entry *e = &p->e[i];
  lf_slot *l = slot;
  uint32_t n = e->base.nlayers;
  l->units = calloc(n, sizeof *l->units);
  if (!l->units) return opc_nomem(err, "layers");
  l->nunits = n;
  op_status st = OP_OK;
  for (uint32_t L = 0; st == OP_OK && L < n; L++) {
    st = opl_layer_unit(p->rs->c, &e->base, e->tx, e->tz, L, &l->units[L], err);
    if (st == OP_OK) l->nok = L + 1;
  }
  return st;
}

static void lf_layers_drop(void *ud, void *slot) {
  lf_slot *l = slot;
  for (uint32_t L = 0; l->units && L < l->nunits; L++) opl_unit_free(&l->units[L]);
  free(l->units);
  memset(l, 0, sizeof *l);
}

static void lf_progress_to(lf_pass2 *p, int64_t pos) { /* positions (last, pos] */
  for (; p->last < pos; p->last++) progress(p->rs);
}

/* POLY-243, POLY-244: the column's slots over its layers made. */
static op_status lf_attach(run_state *rs, const lf_entry *e, lf_slot *l, op_error *err) {
  if (rs->c->om_n == 0 || l->nok == 0) return OP_OK;
  op_tile **t = opc_malloc(rs->c->om_alloc, l->nok * sizeof *t); /* CONF-059 */
  if (!t) return opc_nomem(err, "offmesh");
  for (uint32_t L = 0; L < l->nok; L++) t[L] = l->units[L].tile;
  op_status st = opl_offmesh_attach(rs->c, e->tx, e->tz, t, l->nok, &rs->r.noffmesh, err);
  for (uint32_t L = 0; L < l->nok; L++) l->units[L].tile = t[L]; /* remade or the same */
  free(t);
  return st;
}

/* RT-086 (d) for one built tile: the layers made, ascending, each added (then kept or
** freed), then the worker's error if a layer failed. */
static op_status lf_layers_take_tile(lf_pass2 *p, lf_entry *e, lf_slot *l, op_status ws,
                                     const op_error *werr, op_error *err) {
  run_state *rs = p->rs;
  if (!l->units) {
    if (err) *err = *werr;
    return ws;
  }
  op_status st = lf_attach(rs, e, l, err); /* POLY-243, POLY-244 */
  for (uint32_t L = 0; st == OP_OK && L < l->nok; L++) {
    st = add_tile(rs, e->tx, e->tz, l->units[L].tile, err);
    if (!rs->keep) opl_unit_free(&l->units[L]); /* the plain build keeps nothing */
  }
  if (st == OP_OK && ws != OP_OK) {
    if (err) *err = *werr;
    st = ws;
  }
  if (st == OP_OK && rs->keep) {
    st = keep_push(rs, e->tx, e->tz, &e->base, l->units, l->nunits, err);
    memset(l, 0, sizeof *l); /* moved into the kept data, or freed by keep_push */
  }
  return st;
}

static op_status lf_layers_take(void *ud, uint64_t i, void *slot, op_status ws,
                                const op_error *werr, op_error *err) {
  lf_pass2 *p = ud;
  lf_entry *e = &p->e[i];
  const opl_ctx *c = p->rs->c;
  int64_t pos = (int64_t)(e->tz - c->rz0) * c->rnx + (e->tx - c->rx0);
  lf_progress_to(p, pos - 1);
  op_status st = opl_tile_error(err, lf_layers_take_tile(p, e, slot, ws, werr, err), e->tx,
                                e->tz);
  lf_layers_drop(ud, slot);
  opl_base_free(&e->base); /* kept ones were moved out (zeroed) */
  if (st == OP_OK) lf_progress_to(p, pos);
  return st;
}

/* RT-086: the layer-first build. */
static op_status run_layers(run_state *rs, op_error *err) {
  opl_ctx *c = rs->c;
  lf_pass1 p1;
  memset(&p1, 0, sizeof p1);
  p1.rs = rs;
  opl_par a = {c->threads, (uint64_t)c->rnx * (uint64_t)c->rnz, sizeof(opl_base), &p1,
               lf_base_work, lf_base_take, lf_base_drop};
  op_status st = opl_par_run(&a, err); /* RT-086 (a) */
  if (st == OP_OK && p1.sum > PL_MAX_SLOTS) /* RT-086 (b) */
    st = op_fail_i(err, OP_E_LIMIT, "tile_cells", c->s.tile_cells,
                   "the level's layers need more tiles than a mesh has slots (2^22, MESH-004, "
                   "RT-086); raise tile_cells");
  rs->r.slots = (uint32_t)p1.sum;
  if (st == OP_OK) st = create_mesh(rs, p1.sum ? (uint32_t)p1.sum : 1, err); /* RT-086 (c) */
  rs->r.nbuilt = p1.n;
  if (st == OP_OK) { /* RT-086 (d) */
    lf_pass2 p2 = {rs, p1.e, -1};
    opl_par b = {c->threads, p1.n, sizeof(lf_slot), &p2, lf_layers_work, lf_layers_take,
                 lf_layers_drop};
    st = opl_par_run(&b, err);
    if (st == OP_OK) lf_progress_to(&p2, (int64_t)c->rnx * c->rnz - 1);
  }
  for (uint32_t i = 0; i < p1.n; i++) opl_base_free(&p1.e[i].base);
  free(p1.e);
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
  if (!c->ranged) { /* the whole grid */
    c->rx0 = c->rz0 = 0;
    c->rnx = c->ntx;
    c->rnz = c->ntz;
  }
  rs.total = (uint64_t)c->rnx * (uint64_t)c->rnz;
  /* SPAN-181 through the soup's triangle index, made once per build and only read by the
  ** workers (the index accelerates the selection rule, byte for byte) */
  opsp_tri_index *ix = NULL;
  op_soup cs;
  if (c->kind == OPL_SOUP && c->soup)
    st = opsp_tri_index_build(&c->s, c->soup, c->origin, c->ntx, c->ntz, &ix, err);
  if (c->kind == OPL_CHUNK && c->chunk) { /* the chunked mesh's soup (SPAN-060's copy) */
    cs = op_chunked_soup(c->chunk);
    st = opsp_tri_index_build(&c->s, &cs, c->origin, c->ntx, c->ntz, &ix, err);
  }
  c->tri_index = ix;
  if (st == OP_OK) st = opl_offmesh_plan(c, err); /* POLY-242 */
  if (st == OP_OK) st = c->layer_first ? run_layers(&rs, err) : run_general(&rs, err);
  c->tri_index = NULL;
  opsp_tri_index_free(ix);
  opl_offmesh_plan_free(c);
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
  /* SPAN-052 first: op_soup_frame validates the soup before it reads it (its errors are
  ** op_soup_validate's), once per build; no tile validates it again (opsp_build_tile_indexed,
  ** and the chunk path since the chunked mesh was validated when made, SPAN-060) */
  op_status st = op_soup_frame(soup, c->origin, &c->ymax, err);
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

/* POLY-228: the options before anything else; their thread count into the context. */
static op_status options_check(const op_pipeline_options *opt, op_error *err) {
  if (opt && opt->threads > OP_PIPELINE_MAX_THREADS)
    return op_fail_i(err, OP_E_RANGE, "threads", (long long)opt->threads,
                     "threads must be 0 (the processors online) to 256");
  return OP_OK; /* the tile range needs the grid: set_range */
}

/* POLY-229: a part build's range, clipped to the grid (possibly empty). */
static op_status set_range(opl_ctx *c, const op_pipeline_options *opt, op_error *err) {
  if (!opt || !opt->tile_range) return OP_OK;
  const int32_t v[4] = {opt->x0, opt->x1, opt->z0, opt->z1};
  static const char *const f[4] = {"tile_range.x0", "tile_range.x1", "tile_range.z0",
                                   "tile_range.z1"};
  for (int k = 0; k < 4; k++)
    if (v[k] < 0 || (k % 2 == 1 && v[k] < v[k - 1]))
      return op_fail_i(err, OP_E_RANGE, f[k], v[k],
                       "a tile range needs 0 <= x0 <= x1 and 0 <= z0 <= z1");
  int32_t x1 = opt->x1 < c->ntx - 1 ? opt->x1 : c->ntx - 1;
  int32_t z1 = opt->z1 < c->ntz - 1 ? opt->z1 : c->ntz - 1;
  c->ranged = 1;
  c->rx0 = opt->x0;
  c->rz0 = opt->z0;
  c->rnx = opt->x0 <= x1 ? x1 - opt->x0 + 1 : 0;
  c->rnz = opt->z0 <= z1 ? z1 - opt->z0 + 1 : 0;
  if (c->rnx == 0 || c->rnz == 0) c->rnx = c->rnz = 0;
  return OP_OK;
}

/* SPAN-204, RT-016: a whole build's work budget after the grid's format limits (POLY-222);
** the cached builds' check (they build every tile of the grid). */
op_status opl_check_budget(const opl_ctx *c, const op_build_limits *lim, op_error *err) {
  op_status st = check_limits(c, err);
  if (st == OP_OK)
    st = op_build_budget_check(&c->cell, (uint64_t)c->ntx * (uint64_t)c->ntz, lim, err);
  return st;
}

/* SPAN-204: the work budget after the grid's format limits (POLY-222), before any tile
** (a part build counts the tiles of its range, POLY-229). */
static op_status budget_run(opl_ctx *c, const op_pipeline_options *opt,
                            op_pipeline_result *out, op_error *err) {
  op_status st = check_limits(c, err); /* POLY-222 first; opl_run repeats it (cheap) */
  c->offmesh = opt ? opt->offmesh : NULL; /* POLY-240 */
  c->noffmesh = opt ? opt->noffmesh : 0;
  c->om_alloc = opt ? opt->alloc : NULL; /* CONF-059 */
  if (st == OP_OK) st = opl_offmesh_check(c, err); /* POLY-241 */
  if (st == OP_OK) st = set_range(c, opt, err);
  uint64_t ntiles = c->ranged ? (uint64_t)c->rnx * (uint64_t)c->rnz
                              : (uint64_t)c->ntx * (uint64_t)c->ntz;
  if (st == OP_OK) st = op_build_budget_check(&c->cell, ntiles, opt ? opt->limits : NULL, err);
  c->threads = opl_threads_resolve(opt ? opt->threads : 0); /* POLY-228 */
  return st == OP_OK ? opl_run(c, out, NULL, err) : st;
}

op_status op_pipeline_build_soup_opt(const op_settings *s, const op_soup *soup,
                                     const op_pipeline_options *opt,
                                     const op_pipeline_hooks *hooks, op_pipeline_result *out,
                                     op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  opl_ctx c;
  op_status st = options_check(opt, err);
  if (st == OP_OK) st = opl_begin_soup(&c, s, soup, hooks, err);
  return st == OP_OK ? budget_run(&c, opt, out, err) : st;
}

op_status op_pipeline_build_chunk_opt(const op_settings *s, const op_chunked *ch,
                                      const op_pipeline_options *opt,
                                      const op_pipeline_hooks *hooks,
                                      op_pipeline_result *out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  opl_ctx c;
  op_status st = options_check(opt, err);
  if (st == OP_OK) st = opl_begin_chunk(&c, s, ch, hooks, err);
  return st == OP_OK ? budget_run(&c, opt, out, err) : st;
}

op_status op_pipeline_build_heightfield_opt(const op_settings *s,
                                            const op_solid_columns *cols,
                                            const op_pipeline_options *opt,
                                            const op_pipeline_hooks *hooks,
                                            op_pipeline_result *out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  opl_ctx c;
  op_status st = options_check(opt, err);
  if (st == OP_OK) st = opl_begin_columns(&c, s, cols, hooks, err);
  return st == OP_OK ? budget_run(&c, opt, out, err) : st;
}

op_status op_pipeline_build_soup_limited(const op_settings *s, const op_soup *soup,
                                         const op_build_limits *lim,
                                         const op_pipeline_hooks *hooks,
                                         op_pipeline_result *out, op_error *err) {
  op_pipeline_options o;
  memset(&o, 0, sizeof o);
  o.limits = lim;
  return op_pipeline_build_soup_opt(s, soup, &o, hooks, out, err);
}

op_status op_pipeline_build_chunk_limited(const op_settings *s, const op_chunked *ch,
                                          const op_build_limits *lim,
                                          const op_pipeline_hooks *hooks,
                                          op_pipeline_result *out, op_error *err) {
  op_pipeline_options o;
  memset(&o, 0, sizeof o);
  o.limits = lim;
  return op_pipeline_build_chunk_opt(s, ch, &o, hooks, out, err);
}

op_status op_pipeline_build_heightfield_limited(const op_settings *s,
                                                const op_solid_columns *cols,
                                                const op_build_limits *lim,
                                                const op_pipeline_hooks *hooks,
                                                op_pipeline_result *out, op_error *err) {
  op_pipeline_options o;
  memset(&o, 0, sizeof o);
  o.limits = lim;
  return op_pipeline_build_heightfield_opt(s, cols, &o, hooks, out, err);
}

op_status op_pipeline_build_soup(const op_settings *s, const op_soup *soup,
                                 const op_pipeline_hooks *hooks, op_pipeline_result *out,
                                 op_error *err) {
  return op_pipeline_build_soup_opt(s, soup, NULL, hooks, out, err); /* SPAN-201 */
}

op_status op_pipeline_build_chunk(const op_settings *s, const op_chunked *ch,
                                  const op_pipeline_hooks *hooks, op_pipeline_result *out,
                                  op_error *err) {
  return op_pipeline_build_chunk_opt(s, ch, NULL, hooks, out, err);
}

op_status op_pipeline_build_heightfield(const op_settings *s, const op_solid_columns *cols,
                                        const op_pipeline_hooks *hooks,
                                        op_pipeline_result *out, op_error *err) {
  return op_pipeline_build_heightfield_opt(s, cols, NULL, hooks, out, err);
}

void op_pipeline_result_free(op_pipeline_result *r) {
  if (!r) return;
  op_mesh_free(r->mesh);
  free(r->tiles);
  memset(r, 0, sizeof *r);
}
