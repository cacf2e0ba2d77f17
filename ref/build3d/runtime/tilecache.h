/*
** tilecache.h -- the run-time tile cache's state (internal; not part of the public API).
** Normative text: spec/build3d-runtime.md (RT-011 .. RT-134) and
** spec/navmesh-snapshot.md (SNAP-016 .. SNAP-022).
**
** CONTRACT between ref/build3d/runtime/tilecache.c (the cache: build, obstacles, volumes,
** queue, Update), ref/build3d/runtime/fingerprint.c (RT-131),
** ref/build3d/runtime/tilecache_snapshot.c (SaveState, RestoreState) and
** ref/build3d/runtime/repair.c. Calls go one way: tilecache_snapshot.c -> tilecache.c ->
** fingerprint.c, repair.c. Fields may be added at the end of a struct; do not change the
** meaning of one below without updating every user.
**
** Invariants:
**   - tiles[] is in cache order (tz, then tx, ascending) and never changes after the build;
**   - obst[0 .. nobst) and vols[0 .. nvols) hold entries in ascending id (the order they
**     were added); a removed entry stays in place with dead = 1 until the next compaction
**     (RT-041's order is kept, a removal costs O(log n) plus amortised O(1) moves);
**     ndead_obst <= nobst / 2 after every removal (likewise volumes), so walking the array
**     costs at most twice the live count;
**   - every id in obst[] is below next_obstacle_id (likewise volumes); ids start at 1;
**   - queue[] holds distinct indices into tiles[], and tiles[i].queued is 1 exactly for
**     those;
**   - for a unit whose last-built areas are known (last != NULL), the mesh holds the tile
**     of those areas at (tx, tz, layer) (RT-134).
**   The first four are assert()ed where they are maintained (tilecache.c: adopt, the adds,
**   optc_queue_push; tilecache_snapshot.c: commit); the last is not cheap to check.
*/
#ifndef OP_TILECACHE_H
#define OP_TILECACHE_H

#include "build3d/spans/obstacles.h"
#include "build3d/pipeline/pipeline_internal.h"

#define OPTC_MAX_LIVE 65536u         /* RT-026, RT-040 */
#define OPTC_ID_END 4294967295u      /* RT-026: the first id that is never handed out */

typedef struct optc_obstacle {
  uint32_t id;
  op_obstacle o;      /* as added, -0.0 stored as +0.0 (RT-024) */
  opob_obst prep;       /* prepared for the cache's grid (growth, SinCos, box; RT-020, RT-025) */
  uint8_t dead;         /* 1: removed, awaiting compaction (not state, not saved) */
} optc_obstacle;

typedef struct optc_volume {
  uint32_t id;
  op_convex_volume v; /* as added, -0.0 stored as +0.0 (RT-040) */
  double bmin[2], bmax[2]; /* x/z box (RT-042) */
  uint8_t dead;         /* as for obstacles */
} optc_volume;

/* Run-time state of one unit (a layer, or the whole tile on the general path). */
typedef struct optc_unit {
  uint8_t *last;      /* last-built areas (the unit's span count), or NULL = unknown */
  /* added by ref/build3d/runtime/tilecache.c: */
  int walkable;       /* RT-088: 1 when a span of the unit has a non-zero first-build area */
  double wmin[2], wmax[2]; /* RT-088: x/z box of the unit's walkable columns (cell lines) */
  op_span_graph vgraph;    /* layer first: the view's span graph (SPAN-146) for the repair,
                              built on first use (not state); else zeroed */
} optc_unit;

typedef struct optc_tile {
  opl_keep_tile k;  /* the first build (grid, chf with first-build areas, layers, units) */
  optc_unit *units;  /* k.nunits */
  uint64_t chf_hash;  /* op_hash64 of the SPAN-170 bytes of k.base.chf (RT-131) */
  int queued;         /* 1 while the tile is in the queue */
} optc_tile;

struct op_tilecache {
  opl_ctx ctx;      /* settings copy (lists emptied), grid, tiling, layer_first */
  op_mesh *mesh;      /* owned; cache_owned set (RT-018) */
  uint32_t ntiles;
  optc_tile *tiles;  /* cache order */
  optc_obstacle *obst;
  uint32_t nobst, capobst;
  optc_volume *vols;
  uint32_t nvols, capvols;
  uint32_t next_obstacle_id, next_volume_id; /* RT-130 */
  uint32_t *queue;    /* indices into tiles, queue order; capacity ntiles */
  uint32_t nqueue;
  int repair;         /* RT-107: not state */
  uint64_t fingerprint; /* RT-131, computed once at the build */
  op_tilecache_stats stats;
  uint32_t ndead_obst, ndead_vols; /* removed entries still in obst[] / vols[] */
  uint64_t moved;     /* entries moved by compactions (a cost count for the tests) */
  double *qbox;       /* 4 per tile, cache order: RT-050's widened grid box (lx, hx, lz, hz)
                         as opob_grid_overlaps makes it; made at the build (not state) */
  op_alloc_count *alloc; /* tests only (CONF-059, op_tilecache_set_alloc): NULL, or the
                            counter of the allocations of the cache's operations (its own,
                            the repair's, its mesh's); the host's object (not state) */
};

/* The number of live obstacles / volumes (RT-026, RT-042's limits count these). */
uint32_t optc_live_obstacles(const op_tilecache *c);
uint32_t optc_live_volumes(const op_tilecache *c);

/* The index in c->tiles of the cached tile (tx, tz), or -1. */
int64_t optc_find_tile(const op_tilecache *c, int32_t tx, int32_t tz);
/* RT-133: forgets the last-built areas of every unit of every cached tile. */
void optc_forget_last(op_tilecache *c);
/* RT-131 (ref/build3d/runtime/fingerprint.c): the fingerprint of a cache whose ctx and
** tiles (chf_hash) are set. */
uint64_t optc_fingerprint_compute(const op_tilecache *c);
/* Queue helpers for the snapshot: empties the queue (clearing every queued flag). */
void optc_queue_clear(op_tilecache *c);
/* Appends tile index i when it is not queued yet (RT-051). */
void optc_queue_push(op_tilecache *c, uint32_t i);
/* RT-041 for unit L of tile index ti (ref/build3d/runtime/tilecache.c's unit_areas, for
** ref/build3d/runtime/tilecache_layer.c): the areas in force in out (the unit's span count);
** 1 when they differ from the first-build areas (else out is not meaningful). *vsel as for
** RT-101 (a). */
int optc_unit_areas(const op_tilecache *c, uint32_t ti, uint32_t L, uint8_t *out, int *vsel);

#endif
