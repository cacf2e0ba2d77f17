/*
** mesh_internal.h -- the TiledNavMesh's internal state (spec/navmesh-mesh.md), shared by
** the mesh's files in ref/navmesh/: mesh.c (state, slots, the single operations, edits,
** serialization), mesh_load.c (Deserialize, MESH-067 .. MESH-070), mesh_links.c (stitching,
** MESH-020..MESH-024), mesh_batch.c (opm_batch, for the tile cache), mesh_read.c (the readers, MESH-060..MESH-066) and snapshot.c
** (spec/navmesh-snapshot.md). Not part of the public API.
*/
#ifndef OP_MESH_INTERNAL_H
#define OP_MESH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bytes.h"
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

/* A link is the public op_link (include/onepath.h, MESH-021): the mesh's arrays are what
** op_mesh_tile_links hands out. */

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
  op_link *links;      /* canonical order (MESH-024): by polygon first; owned */
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

/* One tile of the canonical tile order (MESH-061): its position and its slot index (not a
** position in op_mesh.slots, which moves when slots are inserted or erased). */
typedef struct opm_tkey {
  int32_t x, z, layer;
  uint32_t slot;
} opm_tkey;

/* Slots are stored sparsely (MESH-004's note): `slots` lists, ascending by index, exactly
** the slots that hold state (occupied, or empty with a generation other than 1). Every slot
** not listed is empty with generation 1 (MESH-011). So memory follows the number of slots
** that hold state, never max_tiles or the highest slot index. Entries move when one is
** inserted or erased: keep positions, not pointers, across those; `occ` never moves. */
struct op_mesh {
  op_mesh_params params;
  opm_slot *slots;
  uint32_t nslots, capslots; /* entries in use, entries allocated */
  opm_tkey *order;           /* the occupied slots in canonical tile order (MESH-061), owned;
                                kept by AddTile / RemoveTile (one insertion or erasure) and
                                by a batch's working copy, remade by a load, so it is current
                                after every operation; NULL in a load's working copy */
  uint32_t norder;           /* entries of order: the number of tiles */
  uint32_t caporder;         /* entries allocated in order */
  uint64_t visits;           /* tests only: tile entries the single operations' relinks
                                looked at (a cost count, never a clock) */
  int cache_owned;           /* RT-018: 1 when a tile cache owns the mesh; then the public
                                AddTile, RemoveTile, ReplaceTile and RestoreState refuse
                                (argument `mesh`) and only the cache changes which tiles it
                                holds, through opm_batch */
  uint32_t fail_alloc_after; /* tests only (opm_test_fail_alloc): 0, or k: the k-th
                                allocation of every opm_batch on this mesh fails */
  op_alloc_count *alloc;     /* tests only (CONF-059, op_mesh_set_alloc): NULL, or the
                                counter of every allocation the operations on this mesh
                                make (the single operations, the batch, a snapshot
                                restore); the host's object, never owned */
};

/* --- defined in tile.c --- */

/* A copy of the valid tile t (same bytes, arrays and content id) without re-validating it;
** NULL when memory runs out. For the mesh's private copies of tiles (MESH-012). */
op_tile *opt_clone(const op_tile *t);
/* opt_clone with its allocations counted on al (CONF-059; NULL: none). */
op_tile *opt_clone_counted(const op_tile *t, op_alloc_count *al);
/* op_tile_load (FMT-051) with its allocations counted on al (CONF-059; NULL: none). */
op_status opt_load_counted(const uint8_t *data, size_t len, op_alloc_count *al, op_tile **out,
                           op_error *err);

/* --- allocation hook (CONF-059: ref/core/alloc.h's counter) --- */

/* The allocations of the mesh's operations are counted on an op_alloc_count (NULL: none,
** never failing): the mesh's own (op_mesh.alloc, which the host sets), or, for opm_batch
** with opm_test_fail_alloc set, a counter of that one batch. */
typedef op_alloc_count opm_alloc;

static inline int opm_alloc_fails(opm_alloc *a) { return opc_alloc_fail(a); }
static inline void *opm_malloc(opm_alloc *a, size_t n) { return opc_malloc(a, n); }
static inline void *opm_calloc(opm_alloc *a, size_t n, size_t size) {
  return opc_calloc(a, n, size);
}
static inline void *opm_realloc(opm_alloc *a, void *p, size_t n) {
  return opc_realloc(a, p, n);
}

/* --- mesh.c: parameters, state, slots --- */

/* Validates mesh parameters (MESH-002..MESH-004). */
op_status opm_check_params(const op_mesh_params *p, op_error *err);
/* MESH-067: the checks of a parameter block read from bytes (format errors `params.*`). */
op_status opm_check_params_block(const op_mesh_params *p, op_error *err);
/* Compares a tiling to the mesh's field by field (MESH-005); `prefix` is prepended to
** the field name ("tiling." or "params.tiling."); kind is the error kind to raise. */
op_status opm_check_tiling(const op_tiling *want, const op_tiling *got, const char *prefix,
                           op_status kind, op_error *err);
/* Checks shared by AddTile and ReplaceTile (MESH-005, MESH-010); *v the tile's view. */
op_status opm_check_tile(const op_mesh *m, const op_tile *t, op_tile_desc *v, op_error *err);
/* Argument error `tile` with the value "x,z,layer" of v (MESH-012, MESH-014, MESH-017). */
op_status opm_fail_pos(op_error *err, int32_t x, int32_t z, int32_t layer, const char *why);
/* MESH-010, MESH-016: resolves reference r: its tile state and polygon, or argument `ref`
** (and `mesh` for a NULL mesh). */
op_status opm_resolve(const op_mesh *m, op_ref r, const opm_slot **slot, uint32_t *poly,
                      op_error *err);
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
/* Inserts an empty stored slot (index s, generation gen) at position k, which keeps the
** indices ascending. The entry, or NULL (no memory; then nothing changed). */
opm_slot *opm_insert_slot(op_mesh *m, uint32_t k, uint32_t s, uint32_t gen);
/* Removes the stored slot at position k (its occupant already freed or moved). */
void opm_erase_slot(op_mesh *m, uint32_t k);
/* Appends a stored slot, empty, with index s (above every stored index) and generation
** gen. The new entry, or NULL (no memory; then nothing changed). */
opm_slot *opm_append(op_mesh *m, uint32_t s, uint32_t gen);
/* The state of tile t entering the mesh (MESH-030), without links; NULL: no memory (t not
** taken). Allocates through al (NULL: never fails on purpose). */
opm_occ *opm_occ_new(op_tile *t, opm_alloc *al);
void opm_occ_free(opm_occ *o);
/* Installs an owned tile into the stored slot at position k (empty) and sets its
** generation to gen: allocates the per polygon state from the tile's own flags and area.
** No links. 0 or -1 (no memory; then nothing changed and the tile is still the caller's). */
int opm_install(op_mesh *m, uint32_t k, uint32_t gen, op_tile *t);
/* Position in m->slots of the slot holding the tile at (x, z, layer), or -1. */
int64_t opm_find(const op_mesh *m, int32_t x, int32_t z, int32_t layer);
/* MESH-012: the lowest-numbered empty slot (max_tiles or above when none is free). */
uint32_t opm_lowest_free(const op_mesh *m);
/* MESH-011: the generation after g. */
static inline uint32_t opm_next_gen(uint32_t g) { return g >= OPM_GEN_MAX ? 1u : g + 1u; }
/* A private copy of t (MESH-012): opt_clone counted on al, out_of_memory `mesh`
** (MESH-001) when it fails. */
op_status opm_copy_tile(const op_tile *t, op_tile **out, opm_alloc *al, op_error *err);
/* For tests: the number of stored slots and of entries allocated for them. */
static inline uint32_t opm_stored_slots(const op_mesh *m) { return m->nslots; }
static inline uint32_t opm_slot_capacity(const op_mesh *m) { return m->capslots; }
/* MESH-010 */
static inline op_ref opm_make_ref(uint32_t gen, uint32_t slot, uint32_t poly) {
  return ((op_ref)gen << (OPM_SLOT_BITS + OPM_POLY_BITS)) |
         ((op_ref)slot << OPM_POLY_BITS) | (op_ref)poly;
}

/* --- mesh.c: serialization pieces shared with snapshot.c --- */

/* MESH-040: the parameter block (shared by mesh and snapshot layouts). */
void opm_put_params(opc_buf *b, const op_mesh_params *p);
/* MESH-041, MESH-042 (SNAP-011): the record of the occupied stored slot sl up to its edits
** (its links, MESH-043, are the mesh serialization's alone). On error (a tile that does not
** serialize) err is set and its kind returned. */
op_status opm_put_tile_record(opc_buf *b, const opm_slot *sl, op_error *err);

/* --- mesh_links.c: stitching (MESH-020..MESH-024) --- */

/* Every side (the mask of opm_compute_links). */
#define OPM_ALL_SIDES 0xFu

/* The portal edges of tile v by side (o->portals, o->side_at) and the count of its edges
** that are not walls (o->nlinked). 0, or -1 (no memory). */
int opm_portals_make(const op_tile_desc *v, opm_occ *o, opm_alloc *al);

/* A column index: occupied slots sorted by their tile's (z, x, layer), so that the tiles of
** a column, ascending by layer (MESH-021, MESH-024), are one run found by binary search. */
typedef struct opm_col_ent {
  int32_t x, z, layer;
  uint32_t pos; /* position in m->slots */
} opm_col_ent;

typedef struct opm_col_index {
  opm_col_ent *e; /* the allocation (owned) */
  opm_col_ent *s; /* the n entries, sorted (in e) */
  uint32_t n;
} opm_col_index;

/* The index of the occupied slots of m whose column lies in the box x0..x1, z0..z1
** (box = {x0, x1, z0, z1}). 0, or -1 (no memory). Free ci->e. */
int opm_col_index_make(const op_mesh *m, const int64_t box[4], opm_col_index *ci,
                       opm_alloc *al);
/* MESH-020..MESH-024: all links of the polygons of the stored slot at position s, in
** canonical order, into a new array *out (*nout links); ci indexes (at least) the four
** columns next to the tile's. `redo` is OPM_ALL_SIDES, or the mask (bit s) of the sides
** whose external links are recomputed, the others kept from the tile's current links.
** 0, or -1 (no memory). */
int opm_compute_links(const op_mesh *m, uint32_t s, unsigned redo, const opm_col_index *ci,
                      op_link **out, uint32_t *nout, opm_alloc *al);
/* The occupied slots (positions) whose links depend on column (x, z): the tiles of the
** four neighbouring columns, plus position `self` when it is not UINT32_MAX (MESH-024).
** 0, or -1 (no memory). */
int opm_affected(const op_mesh *m, int32_t x, int32_t z, uint32_t self, uint32_t **out,
                 uint32_t *n);
/* Recomputes the links of the listed occupied slots (positions) all-or-nothing (MESH-024);
** box = {x0, x1, z0, z1} holds the columns next to every listed tile. The tile order is
** not touched: the single operations keep it current themselves (mesh_order.c). 0, or -1
** (no memory; nothing changed). */
int opm_relink(op_mesh *m, const uint32_t *list, uint32_t n, const int64_t box[4]);
/* Recompute the links of every occupied slot (MESH-020..MESH-024) and the order. 0 or -1. */
int opm_relink_all(op_mesh *m);

/* --- mesh_order.c: the canonical tile order (MESH-061) --- */

/* The position of the first stored slot whose index is >= s (m->nslots if none);
** in mesh_order.c. */
uint32_t opm_lower_slot(const op_mesh *m, uint32_t s);
/* -1, 0, +1 as key p comes before, at or after (x, z, layer). */
int opm_tkey_cmp(const opm_tkey *p, int32_t x, int32_t z, int32_t layer);
/* The occupied slots of m in canonical tile order, into a new array *out of *n entries
** (never NULL on success). 0, or -1 (no memory). */
int opm_order_make(const op_mesh *m, opm_tkey **out, uint32_t *n, opm_alloc *al);
/* The first position of m->order whose key is not below (x, z, layer) (binary search). */
uint32_t opm_order_lower(const op_mesh *m, int32_t x, int32_t z, int32_t layer);
/* Room in m->order for one more key: 0, or -1 (no memory; nothing changed). */
int opm_order_reserve(op_mesh *m);
/* Inserts the key of a tile not in the order (after opm_order_reserve), or erases the key
** of a tile in it; the order stays sorted (MESH-061). */
void opm_order_insert(op_mesh *m, int32_t x, int32_t z, int32_t layer, uint32_t slot);
void opm_order_erase(op_mesh *m, int32_t x, int32_t z, int32_t layer);

/* --- mesh_batch.c: several tile changes as one all-or-nothing operation (tilecache.c) --- */

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

#endif
