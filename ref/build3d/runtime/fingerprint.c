/*
** fingerprint.c -- the tile cache's fingerprint (spec/build3d-runtime.md section 9, RT-131):
** op_hash64 of a key over the settings, the origin, the tiling and every cached tile's
** heightfield hash. Computed once by the cached build (ref/build3d/runtime/tilecache.c) and
** compared by RestoreState (ref/build3d/runtime/tilecache_snapshot.c, SNAP-019 (d)); it
** reads only ref/build3d/runtime/tilecache.h's state, so both files call down into it.
*/
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack: the key is hashed streaming */
#include <xxhash.h>

#include <string.h>

#include "core/bytes.h"
#include "build3d/runtime/tilecache.h"

typedef struct key {
  XXH3_state_t st;
} key;

static void key_put(key *k, const void *p, size_t n) { XXH3_64bits_update(&k->st, p, n); }

/* The key's integers are little-endian (RT-131), encoded by ref/core/bytes.h over a fixed
** 8-byte buffer (so the streaming hash needs no allocation). */
static void key_u64(key *k, uint64_t v) {
  uint8_t q[8];
  opc_buf b = {q, 0, sizeof q, 0}; /* capacity 8: never reallocates */
  opc_put_u64(&b, v);
  key_put(k, q, b.len);
}

static void key_u32(key *k, uint32_t v) {
  uint8_t q[4];
  opc_buf b = {q, 0, sizeof q, 0}; /* capacity 4: never reallocates */
  opc_put_u32(&b, v);
  key_put(k, q, b.len);
}

/* RT-131: every f64 of the key (settings, origin_x, y0, origin_z) with -0.0 as +0.0. */
static void key_f64(key *k, double v) {
  uint64_t u;
  if (v == 0) v = 0.0;
  memcpy(&u, &v, sizeof u);
  key_u64(k, u);
}

/* RT-131: op_hash64 (XXH3-64, seed 0) of the key bytes, hashed as they are laid out (the
** streaming form gives the one-shot hash of the same bytes, and needs no allocation). */
uint64_t optc_fingerprint_compute(const op_tilecache *c) {
  key k;
  XXH3_64bits_reset(&k.st);
  const op_settings *s = &c->ctx.s;
  key_put(&k, "OPTCKEY1", 8);
  key_f64(&k, s->cell_size);
  key_f64(&k, s->cell_height);
  key_f64(&k, s->agent_radius);
  key_f64(&k, s->agent_height);
  key_f64(&k, s->agent_climb);
  key_f64(&k, s->max_slope);
  key_u32(&k, s->tile_cells);
  key_u32(&k, (uint32_t)s->partition);
  key_u32(&k, s->min_region_area);
  key_u32(&k, s->merge_region_area);
  key_f64(&k, s->max_simplification_error);
  key_f64(&k, s->max_edge_len);
  key_u32(&k, s->max_verts_per_poly);
  key_f64(&k, s->detail_sample_distance);
  key_f64(&k, s->detail_sample_max_error);
  key_f64(&k, c->ctx.origin[0]); /* origin_x (POLY-221) */
  key_f64(&k, c->ctx.origin[1]); /* y0 of every grid (SPAN-102) */
  key_f64(&k, c->ctx.origin[2]); /* origin_z */
  key_u32(&k, (uint32_t)c->ctx.ntx);
  key_u32(&k, (uint32_t)c->ctx.ntz);
  key_u32(&k, c->ntiles);
  for (uint32_t i = 0; i < c->ntiles; i++) { /* cache order */
    key_u32(&k, (uint32_t)c->tiles[i].k.tx);
    key_u32(&k, (uint32_t)c->tiles[i].k.tz);
    key_u64(&k, c->tiles[i].chf_hash);
  }
  return (uint64_t)XXH3_64bits_digest(&k.st);
}
