/*
** mesh_internal.h -- the TiledNavMesh's internal state, shared by ref/navmesh/mesh.c
** (spec/navmesh-mesh.md) and ref/navmesh/snapshot.c (spec/navmesh-snapshot.md).
** Not part of the public API.
*/
#ifndef OP_MESH_INTERNAL_H
#define OP_MESH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/internal.h"

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

/* A portal edge of a tile, as a neighbour's edges are matched against it (MESH-021,
** MESH-022): edge j of polygon q, whose code is 0x8000 | side exactly; [b0, b1] its interval
** along the side's axis. */
typedef struct opm_portal {
  uint32_t q, j;
  float b0, b1;
} opm_portal;

/* The occupant of a slot: its tile, the polygons' current state and the links. */
typedef struct opm_occ {
  op_tile *tile;       /* owned */
  op_tile_desc view;   /* view of tile (valid while tile lives) */
  uint16_t *flags;     /* current flags per polygon (owned) */
  uint8_t *area;       /* current area per polygon (owned) */
  opm_link *links;     /* canonical order (MESH-022), owned */
  uint32_t nlinks;
  opm_portal *portals; /* the tile's portal edges (owned; made once, the tile never changes):
                          side 0's, then 1's, 2's, 3's; each side's by q, then j */
  uint32_t side_at[5]; /* side s's are portals[side_at[s] .. side_at[s + 1]) */
  uint32_t nlinked;    /* edges that are not walls: about the number of links (one per
                          internal edge, MESH-020, usually one per portal edge, MESH-021) */
} opm_occ;

/* A slot that holds state: a tile, or a generation other than the initial 1. */
typedef struct opm_slot {
  uint32_t index;      /* the slot index, below max_tiles */
  uint32_t gen;        /* MESH-011: 1..OPM_GEN_MAX */
  opm_occ *occ;        /* the tile and its state, owned; NULL when the slot is empty */
} opm_slot;

/* Slots are stored sparsely (MESH-004's note): `slots` lists, ascending by index, exactly
** the slots that hold state (occupied, or empty with a generation other than 1). Every slot
** not listed is empty with generation 1 (MESH-011). So memory follows the number of slots
** that hold state, never max_tiles or the highest slot index. Entries move when one is
** inserted or erased: keep positions, not pointers, across those; `occ` never moves. */
struct op_mesh {
  op_mesh_params params;
  opm_slot *slots;
  uint32_t nslots, capslots; /* entries in use, entries allocated */
  int cache_owned;           /* RT-018: 1 when a tile cache owns the mesh; then the public
                                AddTile, RemoveTile, ReplaceTile and RestoreState refuse
                                (argument `mesh`) and only the cache changes which tiles it
                                holds, through opm_batch */
  uint32_t fail_alloc_after; /* tests only (opm_test_fail_alloc): 0, or k: the k-th
                                allocation of every opm_batch on this mesh fails */
};

/* --- defined in tile.c --- */

/* A copy of the valid tile t (same bytes, arrays and content id) without re-validating it;
** NULL when memory runs out. For the mesh's private copies of tiles (MESH-012). */
op_tile *op_tile_clone(const op_tile *t);

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
/* The stored slot with index s, or NULL: then slot s is empty with generation 1. */
opm_slot *opm_slot_at(const op_mesh *m, uint32_t s);
/* The tile state of slot s, or NULL when the slot is empty. */
static inline opm_occ *opm_occ_at(const op_mesh *m, uint32_t s) {
  const opm_slot *sl = opm_slot_at(m, s);
  return sl ? sl->occ : NULL;
}
/* Makes room for n stored slots (capacity only). 0 or -1 (no memory; nothing changed). */
int opm_reserve(op_mesh *m, uint32_t n);
/* Appends a stored slot, empty, with index s (above every stored index) and generation
** gen. The new entry, or NULL (no memory; then nothing changed). */
opm_slot *opm_append(op_mesh *m, uint32_t s, uint32_t gen);
/* Installs an owned tile into the stored slot at position k (empty) and sets its
** generation to gen: allocates the per polygon state from the tile's own flags and area.
** No links. 0 or -1 (no memory; then nothing changed and the tile is still the caller's). */
int opm_install(op_mesh *m, uint32_t k, uint32_t gen, op_tile *t);
/* Position in m->slots of the slot holding the tile at (x, z, layer), or -1. */
int64_t opm_find(const op_mesh *m, int32_t x, int32_t z, int32_t layer);
/* Recompute the links of every occupied slot (MESH-020..MESH-024). 0 or -1. */
int opm_relink_all(op_mesh *m);
/* For tests: the number of stored slots and of entries allocated for them. */
static inline uint32_t opm_stored_slots(const op_mesh *m) { return m->nslots; }
static inline uint32_t opm_slot_capacity(const op_mesh *m) { return m->capslots; }
/* MESH-010 */
static inline op_ref opm_make_ref(uint32_t gen, uint32_t slot, uint32_t poly) {
  return ((op_ref)gen << (OPM_SLOT_BITS + OPM_POLY_BITS)) |
         ((op_ref)slot << OPM_POLY_BITS) | (op_ref)poly;
}

/* --- used by tilecache.c: several tile changes as one all-or-nothing operation --- */

/* What one change of a batch did (MESH-012, MESH-014, MESH-015). */
typedef enum opm_done { OPM_NONE = 0, OPM_ADDED, OPM_REPLACED, OPM_REMOVED } opm_done;

/* One change of a batch: position (x, z, layer) is to hold a copy of `tile` (whose own
** position must be this one), or no tile when `tile` is NULL. */
typedef struct opm_change {
  int32_t x, z, layer;
  const op_tile *tile;   /* borrowed; the mesh keeps a copy */
  opm_done done;         /* set by a successful opm_batch */
} opm_change;

/* Applies the n changes in order, each as the single operation it amounts to against the
** state the changes before it left: a tile where a tile is: ReplaceTile (MESH-015); a tile
** where none is: AddTile (MESH-012, the lowest empty slot); NULL where a tile is:
** RemoveTile (MESH-014); NULL where none is: nothing. The result (slots, generations,
** tiles, edits, links) is exactly that of those single operations one after another, but
** the batch is all or nothing (MESH-001): it checks every change and allocates every tile
** copy, polygon state and link array first, then commits with no failure point. Errors are
** the single operations' (the first failing change's check, in the same order; out of
** memory is out_of_memory `mesh`). On error nothing changed and *failed (when not NULL) is
** the index of the change whose check or copy failed, or SIZE_MAX when the failure is no
** one change's (memory for the batch's own arrays or the links). Ignores cache_owned: this
** is how a tile cache changes its mesh's tiles (MESH-018, RT-065). */
op_status opm_batch(op_mesh *m, opm_change *ch, size_t n, size_t *failed, op_error *err);
/* For tests only: from now on the k-th allocation (1 = the first) of each opm_batch on m
** fails as if memory ran out; 0 turns this off. (A snapshot load resets it to 0.) */
void opm_test_fail_alloc(op_mesh *m, uint32_t k);

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
