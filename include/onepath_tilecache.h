/*
** onepath_tilecache.h -- public interface of the run-time tile cache (libonepath):
** the cached builds (Mesh3DPipeline.BuildSoupCached, BuildChunkCached,
** BuildHeightfieldCached), obstacles and volumes added and removed while a game runs, the
** queue of stale tiles and Update, repair, the fingerprint and snapshots of the cache's
** state. Normative text: spec/build3d-runtime.md (RT) and spec/navmesh-snapshot.md
** (SNAP-016 and after). The cache owns the mesh it keeps current (op_tilecache_mesh);
** read it with the mesh readers of onepath.h.
**
** Conventions as in onepath.h: every function that can fail returns an op_status and
** fills the op_error; a failed call changes nothing.
*/
#ifndef ONEPATH_TILECACHE_H
#define ONEPATH_TILECACHE_H

#include "onepath.h"
#include "onepath_build3d.h"
#include "onepath_pipeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TileCache: the per-tile data of a cached build, its obstacles, volumes and queue, and the
** mesh it keeps current (owned by the cache). Opaque; op_tilecache_free. */
typedef struct op_tilecache op_tilecache;

/* Mesh3DPipeline.BuildSoupCached / BuildChunkCached / BuildHeightfieldCached (RT-015,
** RT-016): the plain build's mesh, byte for byte, owned by *cache (out->mesh is NULL,
** RT-002; out may be NULL). On failure *cache is untouched. */
op_status op_pipeline_build_soup_cached(const op_settings *s, const op_soup *soup,
                                        const op_pipeline_hooks *hooks,
                                        op_pipeline_result *out, op_tilecache **cache,
                                        op_error *err);
op_status op_pipeline_build_chunk_cached(const op_settings *s, const op_chunked *c,
                                         const op_pipeline_hooks *hooks,
                                         op_pipeline_result *out, op_tilecache **cache,
                                         op_error *err);
op_status op_pipeline_build_heightfield_cached(const op_settings *s,
                                               const op_solid_columns *cols,
                                               const op_pipeline_hooks *hooks,
                                               op_pipeline_result *out,
                                               op_tilecache **cache, op_error *err);

/* The same with options (POLY-228): only opt->threads is read (0 = the processors online,
** 1 = one tile at a time, at most OP_PIPELINE_MAX_THREADS, else out_of_range `threads`);
** the mesh and the cache are those of any thread count, byte for byte. A cached build is of
** the whole grid under the default budget (RT-016): opt->tile_range set is argument
** `tile_range`, opt->limits set argument `limits`. opt NULL = the builds above. */
op_status op_pipeline_build_soup_cached_opt(const op_settings *s, const op_soup *soup,
                                            const op_pipeline_options *opt,
                                            const op_pipeline_hooks *hooks,
                                            op_pipeline_result *out, op_tilecache **cache,
                                            op_error *err);
op_status op_pipeline_build_chunk_cached_opt(const op_settings *s, const op_chunked *c,
                                             const op_pipeline_options *opt,
                                             const op_pipeline_hooks *hooks,
                                             op_pipeline_result *out, op_tilecache **cache,
                                             op_error *err);
op_status op_pipeline_build_heightfield_cached_opt(const op_settings *s,
                                                   const op_solid_columns *cols,
                                                   const op_pipeline_options *opt,
                                                   const op_pipeline_hooks *hooks,
                                                   op_pipeline_result *out,
                                                   op_tilecache **cache, op_error *err);

/* TileCache.Mesh (RT-018): borrowed, lives with the cache. */
op_mesh *op_tilecache_mesh(op_tilecache *c);
/* TileCache.AddObstacle / RemoveObstacle / AddVolume / RemoveVolume (RT-023 .. RT-053). */
op_status op_tilecache_add_obstacle(op_tilecache *c, const op_obstacle *o, uint32_t *id,
                                    op_error *err);
op_status op_tilecache_remove_obstacle(op_tilecache *c, uint32_t id, op_error *err);
op_status op_tilecache_add_volume(op_tilecache *c, const op_convex_volume *v, uint32_t *id,
                                  op_error *err);
op_status op_tilecache_remove_volume(op_tilecache *c, uint32_t id, op_error *err);
/* TileCache.Update(maxTiles) / UpdateAll (RT-060 .. RT-066). processed may be NULL. */
op_status op_tilecache_update(op_tilecache *c, uint32_t max_tiles, uint32_t *processed,
                              op_error *err);
op_status op_tilecache_update_all(op_tilecache *c, uint32_t *processed, op_error *err);
/* TileCache.QueueLength and Queue[i] (RT-051): 1 and the tile when i < length, else 0. */
uint32_t op_tilecache_queue_length(const op_tilecache *c);
int op_tilecache_queued(const op_tilecache *c, uint32_t i, int32_t *tx, int32_t *tz);
/* TileCache.Repair (RT-101, RT-107): on (1) by default. */
void op_tilecache_set_repair(op_tilecache *c, int on);
int op_tilecache_repair(const op_tilecache *c);
/* TileCache.Fingerprint (RT-131). */
uint64_t op_tilecache_fingerprint(const op_tilecache *c);
/* TileCache.SaveState / RestoreState (RT-132, RT-133; navmesh-snapshot.md SNAP-016 ..
** SNAP-022). A failed restore changes nothing. */
op_status op_tilecache_snapshot_save(const op_tilecache *c, op_bytes *out, op_error *err);
op_status op_tilecache_snapshot_load(op_tilecache *c, const uint8_t *data, size_t len,
                                     op_error *err);
/* Tests only (spec/conformance.md CONF-059): from now on the cache's operations (AddObstacle,
** AddVolume, Update with its repair and its mesh's batch, SaveState, RestoreState, Layer)
** count on a (NULL: nothing, the default) the allocations they make of their own data and
** fail the one a says; a stays the host's and is set on the cache's mesh too
** (op_mesh_set_alloc). The protocol sets it for one request and clears it after. */
void op_tilecache_set_alloc(op_tilecache *c, op_alloc_count *a);
/* Frees the cache and its mesh; NULL-safe. */
void op_tilecache_free(op_tilecache *c);

/* TileCache.Layer (RT-154): layer `layer` of the cached layer-first tile (tx, tz) for the
** areas in force now (RT-041), as Update builds it (RT-085; the repair RT-101 .. RT-105 when
** the switch is on and its preconditions hold, the same bytes, RT-106): the region value of
** every span of the layer view (u16 each), the contour set's canonical bytes (REG-222) and
** its edge map (u32 per edge key, REG-214), little-endian. Errors: argument `cache` (not
** layer first), argument `tile` ("tx,tz": no cached tile there), out_of_range `layer` (not
** below the tile's layer count). Release with op_tilecache_layer_data_free. */
typedef struct op_tilecache_layer_data {
  uint32_t nspans;   /* spans of the layer view */
  uint32_t nregions; /* ordinary regions (REG-150) */
  op_bytes regions;  /* 2 * nspans bytes */
  op_bytes contours; /* REG-222 */
  op_bytes edges;    /* 16 * nspans bytes */
} op_tilecache_layer_data;
op_status op_tilecache_layer(op_tilecache *c, int32_t tx, int32_t tz, uint32_t layer,
                             op_tilecache_layer_data *out, op_error *err);
void op_tilecache_layer_data_free(op_tilecache_layer_data *d); /* frees the byte strings; NULL-safe */

/* Counters of the work a cache did (for benchmarks and tests; not state, never in a
** snapshot). Cumulative since the build; op_tilecache_stats_reset zeroes them. */
typedef struct op_tilecache_stats {
  uint64_t tiles_processed;  /* tiles taken from the queue by Update */
  uint64_t units_skipped;    /* RT-013 step 1: areas equal the last build */
  uint64_t units_first;      /* RT-013 step 2: the first build's tile data reused */
  uint64_t units_built;      /* units built from scratch (RT-085 or the general path) */
  uint64_t units_repaired;   /* layers repaired (RT-101 .. RT-105) */
  uint64_t repair_fallbacks; /* layers where the repair was on but a precondition failed */
  uint64_t spans_built;      /* spans of the units built or repaired */
  uint64_t spans_removed;    /* removed spans (RT-101) of the units repaired or built */
  uint64_t tiles_kept, tiles_replaced, tiles_added, tiles_removed; /* RT-065 cases */
  /* repair_fallbacks by reason, the first precondition of RT-101 that failed: */
  uint64_t fallbacks_not_removal; /* (a): an area changed to something other than 0, or a
                                     run-time volume selects a span */
  uint64_t fallbacks_small;       /* (b): a region too small, or one that would become so */
  uint64_t fallbacks_split;       /* (c): a region may be in pieces, or the budget ran out */
  uint64_t fallbacks_renumber;    /* (d): the regions' numbers would change */
} op_tilecache_stats;
void op_tilecache_stats_get(const op_tilecache *c, op_tilecache_stats *out);
void op_tilecache_stats_reset(op_tilecache *c);

#ifdef __cplusplus
}
#endif
#endif /* ONEPATH_TILECACHE_H */
