/*
** pipeline_internal.h -- the pieces of Mesh3DPipeline that the run-time tile cache shares
** (internal; not part of the public API). Normative text: spec/build3d-polys.md section 5
** (POLY-220 .. POLY-227) and spec/build3d-runtime.md (RT-010, RT-015, RT-016, RT-080 ..
** RT-088).
**
** CONTRACT between the files of ref/build3d/pipeline/ (which implement it) and
** ref/build3d/runtime/tilecache*.c (which use it). Add to it; do not change a signature
** below without updating every user. Within the folder calls go one way only:
** units.c (the kept data and its free functions) and workers.c (the work queue of a
** parallel build, POLY-228) < stages.c (the stages of one tile,
** include/onepath_stages.h) < layerfirst.c (RT-081 .. RT-085) < offmesh_defs.c (off-mesh link
** definitions, POLY-240 .. POLY-245) < pipeline.c (the build).
**
** The plain build is opl_run(ctx, out, NULL); the cached build is opl_run(ctx, out,
** &keep) and takes ownership of what keep holds, so a cached build runs the same code as
** the plain one (RT-015).
*/
#ifndef OP_PIPELINE_INTERNAL_H
#define OP_PIPELINE_INTERNAL_H

#include "onepath_build3d.h"
#include "onepath_pipeline.h"
#include "onepath_stages.h"
#include "onepath_tilecache.h"
#include "build3d/contours/contours.h"
#include "build3d/regions/regions.h"

typedef enum { OPL_SOUP, OPL_CHUNK, OPL_COLUMNS } opl_source;

/* Everything a build (and every later rebuild of a cache) needs besides the input. */
typedef struct opl_ctx {
  op_settings s;          /* a copy of the settings; its volume and obstacle lists are
                             borrowed from the caller during the build only (RT-017): a
                             cache empties them (nvolumes = nobstacles = 0) after it */
  op_cell_settings cell;  /* SPAN-020 .. SPAN-025 */
  op_stage_params params; /* the per-tile stages' parameters (opl_stage_params_fill) */
  opl_source kind;
  const op_soup *soup;    /* build time only */
  const op_chunked *chunk;
  const op_solid_columns *cols;
  double origin[3], ymax; /* tiling origin (POLY-221); soup frame's greatest y */
  int32_t ntx, ntz;       /* POLY-221 */
  op_tiling tiling;       /* POLY-224 */
  int layer_first;        /* RT-080: 1 when every tile is built layer first */
  const op_pipeline_hooks *hooks; /* build time only; may be NULL */
  uint32_t threads;       /* POLY-228: workers of opl_run; 0 or 1 = one at a time (the
                             tile cache's first build leaves it 0) */
  const struct opsp_tri_index *tri_index; /* opl_run only: a soup's triangle index */
  int ranged;             /* POLY-229: 1 = only the tiles rx0 .. rx0 + rnx - 1, rz0 ..
                             rz0 + rnz - 1 (clipped, possibly none); 0 = the whole grid */
  int32_t rx0, rz0, rnx, rnz;
  const op_offmesh_link *offmesh; /* POLY-240: build time only, borrowed; the cached builds
                                     leave it NULL (no links) */
  uint32_t noffmesh;
  uint32_t *om_order;   /* opl_run only (offmesh_defs.c): the definitions with a column, by
                           column then index; NULL when none */
  int64_t *om_col;      /* their columns tz * ntx + tx, in om_order's order */
  uint32_t om_n;
  op_alloc_count *om_alloc; /* CONF-059 (tests only): counts the off-mesh steps'
                               allocations, all on the calling thread; NULL = none */
} opl_ctx;

/* POLY-220 steps 1 to 4 for each input kind (settings, detail rule, input, grid and its
** limits POLY-222), filling *c. On failure *c is unusable and nothing was allocated. */
op_status opl_begin_soup(opl_ctx *c, const op_settings *s, const op_soup *soup,
                           const op_pipeline_hooks *h, op_error *err);
op_status opl_begin_chunk(opl_ctx *c, const op_settings *s, const op_chunked *ch,
                            const op_pipeline_hooks *h, op_error *err);
op_status opl_begin_columns(opl_ctx *c, const op_settings *s,
                              const op_solid_columns *cols, const op_pipeline_hooks *h,
                              op_error *err);

/* The part of one tile that depends only on the geometry and the settings (RT-010,
** RT-081). */
typedef struct opl_base {
  op_chf *chf;          /* stages 1-3 + the settings' Obstacles (RT-010): the first-build
                           areas; NULL when the tile is not built (SPAN-182, SPAN-185) */
  uint16_t *layer;      /* layer first: nspans, each span's layer (RT-081); else NULL */
  uint32_t nlayers;     /* layer first: RT-081's count (RT-082 limit); general path: 1 */
} opl_base;

/* Stages 1 to 3 of tile (tx, tz), RT-010's marking and (layer first) RT-081's layers.
** On failure *out is zeroed and nothing is kept. Errors are not yet prefixed with the
** tile (opl_tile_error does that). */
op_status opl_tile_base(const opl_ctx *c, int32_t tx, int32_t tz, opl_base *out,
                          op_error *err);
void opl_base_free(opl_base *b); /* frees and zeroes; NULL-safe (units.c) */

/* General path (POLY-223 steps 2 to 6): regions, contours, polygons, detail, tile with
** layer 0, from chf with whatever areas it holds. *tile NULL when no polygon. */
op_status opl_tile_general(const opl_ctx *c, const op_chf *chf, int32_t tx, int32_t tz,
                             op_tile **tile, op_error *err);

/* RT-083: the view of layer L of a tile: *view a compact heightfield with the tile's grid
** and only layer L's spans (areas copied from chf), *map[view span] = the tile's span
** index (ascending). Both owned by the caller (op_chf_free, free). */
op_status opl_layer_view(const op_chf *chf, const uint16_t *layer, uint32_t L,
                           op_chf **view, uint32_t **map, op_error *err);

/* RT-084 and REG-200 on a layer view with its current areas: the layer's regions and its
** contours (with the REG-214 loop data the repair keeps, RT-100). On failure both are
** zeroed. */
op_status opl_layer_contours(const opl_ctx *c, const op_chf *view, op_regions *rg,
                               op_contour_set *cs, op_error *err);
/* RT-085 after the contours: polygons (POLY-020, welding within the layer), detail
** (POLY-200) and the tile of layer L (POLY-210, y0 the grid's). *tile NULL when no
** polygon. view carries the areas the contours were made from. */
op_status opl_layer_tile(const opl_ctx *c, const op_chf *view, const op_contour_set *cs,
                           int32_t tx, int32_t tz, int32_t L, op_tile **tile,
                           op_error *err);

/* The first build of one unit (a layer, or the whole tile on the general path). */
typedef struct opl_unit {
  op_chf *view;          /* layer first: layer view with first-build areas; else NULL */
  uint32_t *map;         /* layer first: view span -> tile span; else NULL */
  op_regions rg;         /* layer first: first-build regions (RT-100); else zeroed */
  op_contour_set cs;     /* layer first: first-build contours (RT-100); else zeroed */
  op_tile *tile;         /* the first build's tile data, or NULL (no polygon) */
} opl_unit;

/* Everything the first build made of one built tile. */
typedef struct opl_keep_tile {
  int32_t tx, tz;
  opl_base base;
  uint32_t nunits;       /* base.nlayers */
  opl_unit *units;     /* nunits, layer ascending */
} opl_keep_tile;

/* The kept data of a whole build, tiles in cache order (tz, then tx, ascending; RT-011). */
typedef struct opl_keep {
  uint32_t ntiles;
  opl_keep_tile *tiles;
} opl_keep;

/* POLY-220 steps 5 and 6 (general path) or RT-086 (layer first) after opl_begin_*: the
** mesh and the result. keep NULL: the plain build (nothing kept). keep not NULL: *keep
** receives every built tile's data (the cached build). On failure nothing is returned
** and *keep is zeroed. */
op_status opl_run(opl_ctx *c, op_pipeline_result *out, opl_keep *keep,
                    op_error *err);
void opl_unit_free(opl_unit *u); /* frees and zeroes; NULL-safe (units.c) */
void opl_keep_free(opl_keep *k); /* frees and zeroes; NULL-safe (units.c) */

/* POLY-224 mesh parameters with the given max_tiles. */
void opl_mesh_params(const opl_ctx *c, uint32_t max_tiles, op_mesh_params *mp);

/* POLY-225: prefixes err's message with "tile (tx, tz): " when st is not OP_OK. */
op_status opl_tile_error(op_error *err, op_status st, int32_t tx, int32_t tz);

/* ---- the stages of one tile (ref/build3d/pipeline/stages.c) ---- */

/* The one derivation of op_stage_params from valid settings s and their cell values c
** (op_stage_params_derive validates and derives c first). */
void opl_stage_params_fill(const op_settings *s, const op_cell_settings *c,
                           op_stage_params *out);
/* POLY-223 steps 2 to 5 on chf (borrowed) up to `last` with t->params: t->regions,
** t->contours, t->pmesh, t->detail (t->chf untouched). s is read by the detail stage only.
** On failure what was made stays in t for the caller to free. */
op_status opl_stages_on(const op_settings *s, const op_chf *chf, op_stage last,
                        op_stage_tile *t, op_error *err);

/* SPAN-204 for a build of the whole grid (the cached builds, RT-016): the grid's format
** limits (POLY-222), then the work budget lim (NULL: the defaults). */
op_status opl_check_budget(const opl_ctx *c, const op_build_limits *lim, op_error *err);

/* ---- the work queue of a parallel build (ref/build3d/pipeline/workers.c) ---- */

/* POLY-228: the thread count of options value `threads` (0 = the processors online). */
uint32_t opl_threads_resolve(uint32_t threads);

/* Items 0 .. n-1: work(i) on up to `threads` worker threads, each into its own zeroed slot
** of slot_size bytes with its own error; take(i) on the calling thread in index order
** with work's status and error (take owns the slot's contents then, also on failure);
** the first take that fails ends the run with its status, and drop frees the slots made
** after it. threads 0 or 1 (or no thread could start): work and take in turn. */
typedef struct opl_par {
  uint32_t threads;
  uint64_t n;
  size_t slot_size;
  void *ud;
  op_status (*work)(void *ud, uint64_t i, void *slot, op_error *err);
  op_status (*take)(void *ud, uint64_t i, void *slot, op_status st, const op_error *werr,
                    op_error *err);
  void (*drop)(void *ud, void *slot);
} opl_par;
op_status opl_par_run(const opl_par *p, op_error *err);

/* ---- additions (ref/build3d/pipeline/layerfirst.c) ---- */

/* RT-081, RT-082: every span's layer (*layer, chf->nspans entries, owned by the caller)
** from chf's current walkability (the caller passes it after erosion, before any volume or
** obstacle) and the layer count (greatest layer + 1; 1 when no span is walkable). More
** than 256 layers: limit `layers` with the count. */
op_status opl_base_layers(const op_chf *chf, uint16_t **layer, uint32_t *nlayers,
                            op_error *err);

/* RT-083 .. RT-085 for layer L of a built layer-first tile b, with the areas b->chf holds:
** fills *u (view, map, regions, contours, tile; the tile NULL when the layer has no
** polygon). On failure *u is zeroed. */
op_status opl_layer_unit(const opl_ctx *c, const opl_base *b, int32_t tx, int32_t tz,
                           uint32_t L, opl_unit *u, op_error *err);

/* Off-mesh link definitions (offmesh_defs.c, POLY-240 .. POLY-244). opl_offmesh_check validates
** c->offmesh (POLY-241); opl_offmesh_plan sorts the definitions by column (POLY-242) into
** c->om_*, opl_offmesh_plan_free frees them. opl_offmesh_attach gives the n tiles of column
** (tx, tz) (its layers ascending; NULL entries are skipped) their slots (POLY-243, POLY-244),
** replacing each tile that receives any by a new one, and adds the slots stored to *count. */
op_status opl_offmesh_check(const opl_ctx *c, op_error *err);
op_status opl_offmesh_plan(opl_ctx *c, op_error *err);
void opl_offmesh_plan_free(opl_ctx *c);
op_status opl_offmesh_attach(const opl_ctx *c, int32_t tx, int32_t tz, op_tile **tiles,
                             uint32_t n, uint32_t *count, op_error *err);

#endif
