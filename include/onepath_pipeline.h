/*
** onepath_pipeline.h -- public entry points of the whole 3D build (libonepath):
** Mesh3DPipeline.BuildSoup, BuildChunk and BuildHeightfield run every stage for every
** tile in the order of spec/build3d-polys.md section 5 (POLY-220 .. POLY-227) and return a
** stitched TiledNavMesh (op_mesh).
**
** Conventions as in onepath.h: every function that can fail returns an op_status and
** fills the op_error; a failed call changes nothing and returns nothing.
*/
#ifndef ONEPATH_PIPELINE_H
#define ONEPATH_PIPELINE_H

#include "onepath.h"
#include "onepath_build3d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One tile added to the mesh, in build order (POLY-224). */
typedef struct op_pipeline_tile {
  int32_t x, z, layer;
  uint32_t nverts, npolys;
  uint64_t content_id;
} op_pipeline_tile;

/* The result of a build. Owned by the caller: op_pipeline_result_free. */
typedef struct op_pipeline_result {
  op_mesh *mesh;            /* the stitched mesh (POLY-224) */
  int32_t ntx, ntz;         /* the tile grid (POLY-221) */
  uint32_t nbuilt;          /* tiles whose spans were built (SPAN-182) */
  uint32_t ntiles;          /* tiles added to the mesh (with at least one polygon) */
  op_pipeline_tile *tiles;  /* ntiles, in build order */
  uint64_t npolys;          /* polygons over all tiles */
  uint32_t slots;           /* the mesh slots the build's tile positions count (POLY-224's
                               max_tiles; a part build: its range's share, POLY-229) */
  uint32_t noffmesh;        /* off-mesh link slots stored over all tiles (POLY-244) */
} op_pipeline_result;

/* op_offmesh_link (POLY-240) is in onepath.h: the 2D builder takes it too (T2D-090). */
#define OP_PIPELINE_MAX_OFFMESH OP_OFFMESH_MAX_LINKS /* definitions per build (POLY-241) */

/* Optional observers of a build (NULL members are skipped; they cannot change it).
** progress: after each tile of the grid (done of total), including tiles not built.
** tile: after each tile added to the mesh; the tile is the mesh's input (borrowed for
** the call). */
typedef struct op_pipeline_hooks {
  void *ud;
  void (*progress)(void *ud, uint64_t done, uint64_t total);
  void (*tile)(void *ud, int32_t tx, int32_t tz, const op_tile *tile);
} op_pipeline_hooks;

/* Mesh3DPipeline.BuildSoup (POLY-220): settings s, triangle soup. hooks may be NULL. */
op_status op_pipeline_build_soup(const op_settings *s, const op_soup *soup,
                                 const op_pipeline_hooks *hooks, op_pipeline_result *out,
                                 op_error *err);
/* Mesh3DPipeline.BuildChunk (POLY-220): the same mesh as BuildSoup of the chunked mesh's
** soup, byte for byte (SPAN-181). */
op_status op_pipeline_build_chunk(const op_settings *s, const op_chunked *c,
                                  const op_pipeline_hooks *hooks, op_pipeline_result *out,
                                  op_error *err);
/* Mesh3DPipeline.BuildHeightfield (POLY-220): solid columns (SPAN-070). */
op_status op_pipeline_build_heightfield(const op_settings *s, const op_solid_columns *cols,
                                        const op_pipeline_hooks *hooks,
                                        op_pipeline_result *out, op_error *err);
/* The same builds under a host's work budget (SPAN-200 .. SPAN-204; lim NULL = the
** defaults, which the three builds above use). The budget is checked after the settings,
** the input and the grid's format limits (POLY-222), before any tile is built. */
op_status op_pipeline_build_soup_limited(const op_settings *s, const op_soup *soup,
                                         const op_build_limits *lim,
                                         const op_pipeline_hooks *hooks,
                                         op_pipeline_result *out, op_error *err);
op_status op_pipeline_build_chunk_limited(const op_settings *s, const op_chunked *c,
                                          const op_build_limits *lim,
                                          const op_pipeline_hooks *hooks,
                                          op_pipeline_result *out, op_error *err);
op_status op_pipeline_build_heightfield_limited(const op_settings *s,
                                                const op_solid_columns *cols,
                                                const op_build_limits *lim,
                                                const op_pipeline_hooks *hooks,
                                                op_pipeline_result *out, op_error *err);
/* How a build runs (POLY-228, POLY-229): not settings, not part of any bytes (except the
** off-mesh link definitions at its end, POLY-240). A zeroed
** struct (or NULL) is the defaults. With threads, worker threads make the tiles (each with
** its own memory: a build's peak memory grows with the count) and the calling thread adds
** them to the mesh and calls the hooks, in tile order. */
#define OP_PIPELINE_MAX_THREADS 256u
typedef struct op_pipeline_options {
  const op_build_limits *limits; /* the work budget (SPAN-200); NULL: the defaults */
  uint32_t threads;              /* tiles built at once: 0 = the processors online
                                    (sysconf), 1 = one at a time; at most
                                    OP_PIPELINE_MAX_THREADS (POLY-228) */
  int tile_range;                /* 1: a part build (POLY-229), only the tiles with tx in
                                    x0..x1 and tz in z0..z1 (inclusive, clipped to the grid) */
  int32_t x0, x1, z0, z1;
  /* A build input, unlike the members above (it changes the tiles): off-mesh link
  ** definitions (POLY-240 .. POLY-245), borrowed for the call; none when noffmesh is 0. */
  const op_offmesh_link *offmesh;
  uint32_t noffmesh;
  /* tests only (spec/conformance.md CONF-059): NULL, or the counter of the allocations of
  ** the off-mesh steps (POLY-242 .. POLY-244), made on the calling thread in POLY-223's
  ** order whatever the thread count */
  op_alloc_count *alloc;
} op_pipeline_options;

/* The three builds with options (POLY-228); opt NULL = the defaults, as the builds above.
** The mesh and the result are those of threads = 1, byte for byte. */
op_status op_pipeline_build_soup_opt(const op_settings *s, const op_soup *soup,
                                     const op_pipeline_options *opt,
                                     const op_pipeline_hooks *hooks, op_pipeline_result *out,
                                     op_error *err);
op_status op_pipeline_build_chunk_opt(const op_settings *s, const op_chunked *c,
                                      const op_pipeline_options *opt,
                                      const op_pipeline_hooks *hooks,
                                      op_pipeline_result *out, op_error *err);
op_status op_pipeline_build_heightfield_opt(const op_settings *s,
                                            const op_solid_columns *cols,
                                            const op_pipeline_options *opt,
                                            const op_pipeline_hooks *hooks,
                                            op_pipeline_result *out, op_error *err);

/* Frees the mesh and the tile list, zeroes *r; NULL-safe. */
void op_pipeline_result_free(op_pipeline_result *r);

/* The cached builds and the run-time tile cache: onepath_tilecache.h. */

#ifdef __cplusplus
}
#endif
#endif /* ONEPATH_PIPELINE_H */
