/*
** mesh_internal.h -- the TiledNavMesh's internal state, shared by ref/mesh.c
** (spec/navmesh-mesh.md) and ref/snapshot.c (spec/navmesh-snapshot.md).
** Not part of the public API.
*/
#ifndef OP_MESH_INTERNAL_H
#define OP_MESH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"

/* MESH-010: reference bit widths. */
#define OPM_GEN_BITS 22
#define OPM_SLOT_BITS 22
#define OPM_POLY_BITS 20
#define OPM_GEN_MAX ((1u << OPM_GEN_BITS) - 1u)
#define OPM_MAX_SLOTS (1u << OPM_SLOT_BITS)
#define OPM_MAX_POLYS (1u << OPM_POLY_BITS)
/* MESH-030: the largest area id a run-time edit may set (the tile format's range). */
#define OPM_AREA_MAX 63u
/* MESH-021: side byte of an internal link; tedge byte of an internal link. */
#define OPM_INTERNAL 0xFFu

/* One link of a polygon (MESH-021). */
typedef struct opm_link {
  uint32_t poly;  /* the polygon (index in its tile) the link belongs to */
  uint8_t edge;   /* edge of that polygon */
  uint8_t side;   /* portal side 0..3, or OPM_INTERNAL */
  uint8_t tedge;  /* edge of the target polygon (external links), else OPM_INTERNAL */
  op_ref target;  /* reference of the target polygon */
  float lo, hi;   /* overlap interval along the shared line (external links), else 0 */
} opm_link;

typedef struct opm_slot {
  uint32_t gen;        /* MESH-011: 1..OPM_GEN_MAX */
  op_tile *tile;       /* NULL when the slot is empty; owned */
  op_tile_desc view;   /* view of tile (valid while tile lives) */
  uint16_t *flags;     /* current flags per polygon (owned) */
  uint8_t *area;       /* current area per polygon (owned) */
  opm_link *links;     /* canonical order (MESH-022), owned */
  uint32_t nlinks;
} opm_slot;

struct op_mesh {
  op_mesh_params params;
  opm_slot *slots; /* slots [0, nslots) are materialised; later slots are empty, gen 1 */
  uint32_t nslots, capslots;
};

/* --- used by snapshot.c --- */

/* Validates mesh parameters (MESH-002..MESH-004). */
op_status opm_check_params(const op_mesh_params *p, op_error *err);
/* Compares a tiling to the mesh's field by field (MESH-005); `prefix` is prepended to
** the field name ("tiling." or "params.tiling."); kind is the error kind to raise. */
op_status opm_check_tiling(const op_tiling *want, const op_tiling *got, const char *prefix,
                           op_status kind, op_error *err);
/* Initialise an empty mesh state. */
void opm_init(op_mesh *m, const op_mesh_params *p);
/* Free everything the state owns (not m itself). */
void opm_clear(op_mesh *m);
/* Make sure slots [0, n) exist (new ones empty, gen 1). 0 or -1 (no memory). */
int opm_reserve(op_mesh *m, uint32_t n);
/* Installs an owned tile into empty slot s with generation gen: allocates the per
** polygon state from the tile's own flags and area. No links. 0 or -1 (no memory;
** then nothing changed and the tile is still the caller's). */
int opm_install(op_mesh *m, uint32_t s, uint32_t gen, op_tile *t);
/* Slot holding the tile at (x, z, layer), or -1. */
int64_t opm_find(const op_mesh *m, int32_t x, int32_t z, int32_t layer);
/* Recompute the links of every occupied slot (MESH-020..MESH-024). 0 or -1. */
int opm_relink_all(op_mesh *m);
/* MESH-010 */
static inline op_ref opm_make_ref(uint32_t gen, uint32_t slot, uint32_t poly) {
  return ((op_ref)gen << (OPM_SLOT_BITS + OPM_POLY_BITS)) |
         ((op_ref)slot << OPM_POLY_BITS) | (op_ref)poly;
}

/* --- little-endian byte writer (oom flag sticks) --- */
typedef struct opm_buf {
  uint8_t *p;
  size_t len, cap;
  int oom;
} opm_buf;

int opm_buf_reserve(opm_buf *b, size_t extra);
void opm_put(opm_buf *b, const void *src, size_t n);
void opm_put_u8(opm_buf *b, uint8_t v);
void opm_put_u16(opm_buf *b, uint16_t v);
void opm_put_u32(opm_buf *b, uint32_t v);
void opm_put_u64(opm_buf *b, uint64_t v);
void opm_put_f32(opm_buf *b, float v);
void opm_put_f64(opm_buf *b, double v);
void opm_put_params(opm_buf *b, const op_mesh_params *p);

static inline uint32_t opm_rd_u32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t opm_rd_u64(const uint8_t *p) {
  return (uint64_t)opm_rd_u32(p) | ((uint64_t)opm_rd_u32(p + 4) << 32);
}
static inline double opm_rd_f64(const uint8_t *p) {
  uint64_t u = opm_rd_u64(p);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

#endif
