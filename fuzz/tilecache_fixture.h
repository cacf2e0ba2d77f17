/*
** tilecache_fixture.h -- the one small tile cache of the tile-cache snapshot harness
** (fuzz_tilecache_snapshot.c) and of its seed generator (mkcorpus_bytes.c). Both must build
** the same cache: a snapshot loads only into a cache of the same fingerprint (RT-131,
** SNAP-019 step 1), so a seed saved from another cache never gets past `fingerprint`.
**
** The level is the `terrain` generator, seed 5, size 12; the settings are Humanoid with
** Layers, no detail sampling and TileSize 16 (as tests/test_tilecache_snapshot.c), so the
** cache has several tiles and a build takes a few milliseconds.
*/
#ifndef OP_FUZZ_TILECACHE_FIXTURE_H
#define OP_FUZZ_TILECACHE_FIXTURE_H

#include <string.h>

#include "onepath_build3d.h"
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"

#define TCFIX_LEVEL "terrain"
#define TCFIX_SEED 5u
#define TCFIX_SIZE 12u

/* The fixture's settings (SPAN-001). */
static inline op_settings tcfix_settings(void) {
  op_settings s;
  memset(&s, 0, sizeof s);
  op_settings_preset("Humanoid", &s, NULL);
  s.detail_sample_distance = 0;
  s.partition = OP_PARTITION_LAYERS;
  s.tile_cells = 16;
  return s;
}

/* Builds the fixture cache into *c (and its level into *m, which the caller frees after the
** cache or keeps); returns the status of the first failing call. */
static inline op_status tcfix_build(op_trimesh *m, op_tilecache **c, op_error *e) {
  op_settings s = tcfix_settings();
  memset(m, 0, sizeof *m);
  *c = NULL;
  op_status st = op_level_generate(TCFIX_LEVEL, TCFIX_SEED, TCFIX_SIZE, NULL, m, e);
  if (st != OP_OK) return st;
  op_soup soup = op_trimesh_soup(m);
  return op_pipeline_build_soup_cached(&s, &soup, NULL, NULL, c, e);
}

/* The centre of the level's x/z box and its least y (where the seeds put their shapes). */
static inline void tcfix_centre(const op_trimesh *m, double c[3]) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (uint32_t i = 0; i < m->nverts; i++)
    for (int k = 0; k < 3; k++) {
      double v = m->verts[3 * i + k];
      if (v < lo[k]) lo[k] = v;
      if (v > hi[k]) hi[k] = v;
    }
  c[0] = (lo[0] + hi[0]) / 2;
  c[1] = lo[1];
  c[2] = (lo[2] + hi[2]) / 2;
}

#endif
