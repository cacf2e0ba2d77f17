/*
** onepath.h -- public interface of libonepath, the OnePath reference implementation.
**
** Every name has the prefix op_ (types op_*, constants OP_*). Objects are opaque
** handles created and freed through this interface; every function that can fail
** returns an op_status and, when given a non-NULL op_error, fills it with the
** error kind, the field it concerns and the offending value (spec/conformance.md,
** CONF-0xx; each section lists the errors its operations raise).
**
** The language-neutral names of the spec (NavTile.Create, TiledNavMesh.AddTile, ...)
** are given beside each C function.
*/
#ifndef ONEPATH_H
#define ONEPATH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OP_VERSION_STRING "0.1.0"

/* ------------------------------------------------------------------ errors */

/* Error kinds (spec/conformance.md). The seeds' exception names map as:
** ArgumentException -> OP_E_ARGUMENT, ArgumentOutOfRangeException -> OP_E_RANGE,
** FormatException / InvalidDataException -> OP_E_FORMAT, a spec'd limit exceeded ->
** OP_E_LIMIT, allocation failure -> OP_E_NOMEM. */
typedef enum op_status {
  OP_OK = 0,
  OP_E_ARGUMENT = 1,
  OP_E_RANGE = 2,
  OP_E_FORMAT = 3,
  OP_E_LIMIT = 4,
  OP_E_NOMEM = 5
} op_status;

/* Tests only (spec/conformance.md CONF-059): an allocation counter the host owns (the
** protocol: its session). The *_counted builds count in n every allocation they make and
** make the one that brings n to fail_at fail as if memory ran out (fail_at 0: never). */
typedef struct op_alloc_count {
  uint64_t n;       /* allocations counted so far */
  uint64_t fail_at; /* 0, or k: the k-th counted allocation fails */
} op_alloc_count;

typedef struct op_error {
  op_status kind;
  char field[96];    /* spec'd name of the offending field, e.g. "polys[3].verts[1]" */
  char value[64];    /* the offending value as text (numbers: shortest round-trip form) */
  char message[256]; /* a sentence for people: names the field and the value */
} op_error;

/* Stable lower-case name of a kind: "ok", "argument", "out_of_range", "format",
** "limit", "out_of_memory". */
const char *op_status_name(op_status s);

/* Error helpers, for the library and for hosts built on it (the protocol server, tools)
** that report their own errors in the library's form (CONF-0xx error contract). */

/* Fill err (if non-NULL) and return kind. `field` is the spec'd field name, `value`
** the offending value already formatted; fmt/... is the sentence for people. The
** message always ends up naming field and value. (CONF-0xx) */
op_status op_fail(op_error *err, op_status kind, const char *field, const char *value,
                  const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Same, formatting a double value in shortest round-trip form ("NaN", "Infinity",
** "-Infinity", "-0" for the special values). */
op_status op_fail_d(op_error *err, op_status kind, const char *field, double value,
                    const char *why);
/* Same, for an integer value. */
op_status op_fail_i(op_error *err, op_status kind, const char *field, long long value,
                    const char *why);

/* Shortest text that reads back as the same double (buffer of at least 32 bytes). */
void op_format_double(char *buf, size_t size, double v);

/* Clear err to OP_OK. */
void op_clear(op_error *err);


/* Bytes owned by the caller after a successful call; release with op_bytes_free. */
typedef struct op_bytes {
  uint8_t *data;
  size_t len;
} op_bytes;
void op_bytes_free(op_bytes *b);

/* -------------------------------------------------------------- math (math.md) */

/* Deterministic sine and cosine of an angle in radians (MATH section "SinCos").
** Bit-identical on every conforming port. Non-finite or |a| > 2^21 -> OP_E_RANGE. */
op_status op_sincos(double a, double *s, double *c, op_error *err);

/* Exact orientation of (a, b, c) on an integer grid: the sign (-1, 0, +1) of
** (b-a) x (c-a). Exact for every int64 input (math.md, integer orientation). */
int op_orient2d_i64(const int64_t a[2], const int64_t b[2], const int64_t c[2]);

/* Exact orientation of float32 points (filter then exact fallback). */
int op_orient2d_f32(const float a[2], const float b[2], const float c[2]);

/* The spec'd PRNG (MATH section "PRNG"). State is a plain value type. */
typedef struct op_prng {
  uint64_t s[4];
} op_prng;
void op_prng_seed(op_prng *r, uint64_t seed);
uint64_t op_prng_next_u64(op_prng *r);
/* Uniform integer in [0, n), n >= 1, by the spec'd rejection rule. */
uint64_t op_prng_below(op_prng *r, uint64_t n);
/* Uniform double in [0, 1) with 53 random bits. */
double op_prng_unit(op_prng *r);

/* The numeric model (math.md, "Numeric model"): round half to even, the conversion
** double -> float32 and its range, the float32 membership test. Inline, no libm; the same
** rules every port implements (language-neutral: RoundHalfEven, ToFloat32, IsFloat32). */

/* Largest finite float32, 0x1.fffffep127, and the smallest magnitude that rounds to
** infinity when converted, 0x1.ffffffp127 = FLT_MAX + half an ulp of FLT_MAX = 2^128 -
** 2^103 (a tie, and ties go to the even neighbour, 2^128 = infinity). Written as the exact
** decimal integers so that C and C++ (before C++17) read the same doubles. (MATH-008) */
#define OP_F32_MAX 340282346638528859811704183484516925440.0
#define OP_F32_OVERFLOW 340282356779733661637539395458142568448.0

/* Round half to even of x to an integer-valued double (MATH-007). x must be finite
** (callers check); values with |x| >= 2^52 are already integers and come back as is.
** The sign of a zero result follows x (-0.3 -> -0.0), which never matters to callers
** that convert to an integer. */
static inline double op_rint_even(double x) {
  const double two52 = 4503599627370496.0; /* 2^52 */
  double ax = x < 0 ? -x : x;
  if (!(ax < two52)) return x;
  /* ax + 2^52 lies in [2^52, 2^53): its ulp is 1, so the sum is ax rounded to an
  ** integer, ties to even; subtracting 2^52 again is exact. */
  double r = (ax + two52) - two52;
  return x < 0 ? -r : r;
}

/* Round half to even of x to a signed 64-bit integer (MATH-007). Requires
** -2^63 <= x < 2^63 (callers check their field's range first). */
static inline int64_t op_round_half_even(double x) {
  return (int64_t)op_rint_even(x);
}

/* 1 when the conversion of x to float32 is finite, i.e. |x| < 2^128 - 2^103
** (MATH-008); 0 for larger magnitudes, infinities and NaN. */
static inline int op_f32_fits(double x) {
  return x > -OP_F32_OVERFLOW && x < OP_F32_OVERFLOW;
}

/* The conversion double -> float32: round to nearest, ties to even (MATH-008).
** Requires op_f32_fits(x). */
static inline float op_to_f32(double x) {
  return (float)x;
}

/* 1 when x is finite and exactly a float32 value (MATH-009): converting it to
** float32 and back gives x. */
static inline int op_is_f32(double x) {
  return op_f32_fits(x) && (double)(float)x == x;
}

/* -------------------------------------------------- tiles (navmesh-format.md) */

#define OP_MAX_VERTS_PER_POLY 12 /* the format's upper bound on MaxVertsPerPoly */

/* Neighbour codes of a polygon edge (FMT section "Polygons"). */
#define OP_NEI_WALL 0u
#define OP_NEI_PORTAL 0x8000u /* | side: 0 = -x, 1 = +z, 2 = +x, 3 = -z */

/* The tiling a tile belongs to; equal in every tile of one mesh. */
typedef struct op_tiling {
  double origin[3];     /* world position of tile (0,0)'s minimum corner */
  double cell_size;     /* world units per cell on x and z */
  double cell_height;   /* world units per cell on y */
  uint32_t tile_cells;  /* cells per tile side, 1..8192 */
  uint32_t max_verts_per_poly; /* 3..OP_MAX_VERTS_PER_POLY */
} op_tiling;

typedef struct op_poly_desc {
  uint8_t nverts;
  uint8_t area;
  uint16_t flags;
  uint16_t verts[OP_MAX_VERTS_PER_POLY]; /* indices into the tile's vertices */
  uint16_t neis[OP_MAX_VERTS_PER_POLY];  /* edge i runs verts[i] -> verts[i+1 mod n] */
} op_poly_desc;

typedef struct op_detail_desc {
  uint32_t vert_base; /* first detail vertex of this polygon */
  uint32_t tri_base;  /* first detail triangle of this polygon */
  uint8_t vert_count; /* extra detail vertices (beyond the polygon's own) */
  uint8_t tri_count;
} op_detail_desc;

typedef struct op_offmesh_desc {
  float start[3];  /* tile-local */
  float end[3];    /* tile-local (may lie outside the tile) */
  float radius;
  uint16_t flags;
  uint8_t area;
  uint8_t bidirectional;
  uint32_t user_id;
} op_offmesh_desc;

/* An off-mesh link definition given with a build (build3d-polys.md POLY-240, build2d-tiles.md
** T2D-090): world points, binary64. The build stores it as a slot (op_offmesh_desc) of the
** tile its start lies in. */
typedef struct op_offmesh_link {
  double start[3];       /* world; its tile is the one it lies in (POLY-242, T2D-092) */
  double end[3];         /* world; may lie in any tile, or none */
  double radius;         /* [2^-16, 2^16] (POLY-241) */
  uint16_t flags;        /* any */
  uint8_t area;          /* [0, 63] */
  uint8_t bidirectional; /* 0 or 1 */
  uint32_t user_id;      /* any */
} op_offmesh_link;
#define OP_OFFMESH_MAX_LINKS 65536u /* definitions per build (POLY-241) */

/* Everything NavTile.Create takes. Arrays are borrowed for the call only. */
typedef struct op_tile_desc {
  int32_t x, z, layer;
  op_tiling tiling;
  double origin_y;           /* world y of tile-local y = 0 */
  uint32_t nverts;
  const float *verts;        /* 3 * nverts tile-local float32 (x, y, z) */
  uint32_t npolys;
  const op_poly_desc *polys;
  uint32_t ndetail;          /* 0 (no detail) or npolys */
  const op_detail_desc *detail;
  uint32_t ndetail_verts;
  const float *detail_verts; /* 3 * ndetail_verts */
  uint32_t ndetail_tris;
  const uint8_t *detail_tris; /* 4 * ndetail_tris: three indices and edge flags */
  uint32_t noffmesh;
  const op_offmesh_desc *offmesh;
} op_tile_desc;

typedef struct op_tile op_tile; /* an immutable, validated tile */

/* NavTile.Create: validate and build a tile; computes its content id. */
op_status op_tile_create(const op_tile_desc *d, op_tile **out, op_error *err);
/* NavTile.Deserialize: parse canonical bytes; same validation as create. */
op_status op_tile_load(const uint8_t *data, size_t len, op_tile **out, op_error *err);
/* NavTile.Serialize: canonical little-endian bytes. */
op_status op_tile_save(const op_tile *t, op_bytes *out, op_error *err);
uint64_t op_tile_content_id(const op_tile *t);
/* A read-only view of the tile's fields (pointers live as long as the tile). */
void op_tile_view(const op_tile *t, op_tile_desc *view);
void op_tile_free(op_tile *t);

/* -------------------------------------------- tiled mesh (navmesh-mesh.md) */

typedef uint64_t op_ref; /* 0 is the null reference */

typedef struct op_mesh_params {
  op_tiling tiling;
  double walkable_climb; /* world units; vertical tolerance when stitching */
  uint32_t max_tiles;    /* number of slots, 1..2^22 */
} op_mesh_params;

typedef struct op_mesh op_mesh;

op_status op_mesh_create(const op_mesh_params *p, op_mesh **out, op_error *err);
void op_mesh_free(op_mesh *m);
/* TiledNavMesh.AddTile: copies the tile into a free slot and stitches it.
** *tile_ref receives the reference of the tile (its polygon 0's base). */
op_status op_mesh_add_tile(op_mesh *m, const op_tile *t, op_ref *tile_ref, op_error *err);
/* TiledNavMesh.RemoveTile by tile coordinates. */
op_status op_mesh_remove_tile(op_mesh *m, int32_t x, int32_t z, int32_t layer, op_error *err);
/* TiledNavMesh.ReplaceTile: the tile at t's coordinates is replaced in its slot
** (new generation). */
op_status op_mesh_replace_tile(op_mesh *m, const op_tile *t, op_ref *tile_ref, op_error *err);
/* Run-time polygon edits. */
op_status op_mesh_set_poly_flags(op_mesh *m, op_ref poly, uint16_t flags, op_error *err);
op_status op_mesh_set_poly_area(op_mesh *m, op_ref poly, uint8_t area, op_error *err);
op_status op_mesh_get_poly(const op_mesh *m, op_ref poly, uint16_t *flags, uint8_t *area,
                           op_error *err);
/* Reference of polygon `poly` of the tile at (x, z, layer); OP_E_ARGUMENT if absent. */
op_status op_mesh_poly_ref(const op_mesh *m, int32_t x, int32_t z, int32_t layer,
                           uint32_t poly, op_ref *out, op_error *err);
/* Canonical serialization of the whole mesh (tiles, slots, links, edits) and its hash. */
op_status op_mesh_save(const op_mesh *m, op_bytes *out, op_error *err);
/* TiledNavMesh.Deserialize (MESH-067 .. MESH-070): a new mesh from op_mesh_save bytes, with
** their parameters, slots, generations, tiles and edits; every field checked (format errors
** naming it), the links recomputed and compared with the bytes' own. Saving it gives back
** exactly data. On error *out is NULL. Free with op_mesh_free. */
op_status op_mesh_load(const uint8_t *data, size_t len, op_mesh **out, op_error *err);
/* Tests only (spec/conformance.md CONF-059): from now on the mesh counts on a (NULL:
** nothing, the default) every allocation its AddTile, RemoveTile, ReplaceTile, RestoreState
** and a tile cache's batch make, and fails the one a says; a stays the host's. The protocol
** sets it for one request. op_mesh_load_counted: op_mesh_load with its allocations counted
** on a (the new mesh does not keep a). */
void op_mesh_set_alloc(op_mesh *m, op_alloc_count *a);
op_status op_mesh_load_counted(const uint8_t *data, size_t len, op_alloc_count *a,
                               op_mesh **out, op_error *err);

/* ------------------------- reading a mesh (navmesh-mesh.md, "Reading a mesh") */

/* One tile held by a mesh. `tile` is the mesh's own copy: read its arrays with op_tile_view;
** valid until the mesh next changes. */
typedef struct op_mesh_tile {
  int32_t x, z, layer;
  uint32_t slot, generation;
  op_ref base;          /* reference of polygon 0 (what op_mesh_add_tile returned) */
  const op_tile *tile;
  uint32_t npolys, nlinks;
} op_mesh_tile;

/* One link of a polygon edge (MESH-020, MESH-021). */
#define OP_LINK_INTERNAL 0xFFu
typedef struct op_link {
  uint32_t poly;        /* polygon index in its tile */
  uint8_t edge;         /* edge of that polygon */
  uint8_t side;         /* portal side 0..3, or OP_LINK_INTERNAL */
  uint8_t target_edge;  /* edge of the target polygon (external links), else OP_LINK_INTERNAL */
  op_ref target;        /* the polygon on the other side */
  float lo, hi;         /* overlap interval along the shared line (external), else 0 */
} op_link;

/* TiledNavMesh.GetParams (MESH-060): the parameters as stored (-0.0 made +0.0, MESH-002).
** Nothing is written when m or out is NULL. */
void op_mesh_get_params(const op_mesh *m, op_mesh_params *out);
/* TiledNavMesh.TileCount (MESH-060): the number of tiles (0 for a NULL mesh). */
uint32_t op_mesh_tile_count(const op_mesh *m);
/* The number of off-mesh link slots over all tiles of the mesh (MESH-025; 0 for NULL). */
uint32_t op_mesh_offmesh_count(const op_mesh *m);
/* TiledNavMesh.TileAtIndex (MESH-061, MESH-062): tiles in canonical order: x, then z, then
** layer, ascending. OP_E_RANGE `index` past the end. */
op_status op_mesh_tile_at_index(const op_mesh *m, uint32_t index, op_mesh_tile *out, op_error *err);
/* TiledNavMesh.TileAt (MESH-063): OP_E_ARGUMENT `tile` when no tile is at (x, z, layer). */
op_status op_mesh_tile_at(const op_mesh *m, int32_t x, int32_t z, int32_t layer, op_mesh_tile *out,
                          op_error *err);
/* TiledNavMesh.TileByRef (MESH-064): the tile of any polygon reference; OP_E_ARGUMENT `ref`
** for 0, a stale generation, an empty slot or a polygon index past the tile's count. */
op_status op_mesh_tile_by_ref(const op_mesh *m, op_ref ref, op_mesh_tile *out, op_error *err);
/* TiledNavMesh.TileLinks (MESH-065): the tile's links in MESH-024's canonical order (the
** mesh's own array, valid until the mesh next changes); errors as op_mesh_tile_at. */
op_status op_mesh_tile_links(const op_mesh *m, int32_t x, int32_t z, int32_t layer,
                             const op_link **links, uint32_t *n, op_error *err);
/* TiledNavMesh.PolyLinks (MESH-066): one polygon's links, a contiguous run of its tile's
** canonical list (errors as op_mesh_tile_by_ref). */
op_status op_mesh_poly_links(const op_mesh *m, op_ref poly, const op_link **links, uint32_t *n,
                             op_error *err);

/* ------------------------------------------ snapshots (navmesh-snapshot.md) */

op_status op_mesh_snapshot_save(const op_mesh *m, op_bytes *out, op_error *err);
/* Restores m from snapshot bytes; on any error m is unchanged. */
op_status op_mesh_snapshot_load(op_mesh *m, const uint8_t *data, size_t len, op_error *err);
/* The parameters a snapshot holds (SNAP-025): the magic, version and parameter block,
** checked as a load checks them and as Create would (format errors `params.*`). */
op_status op_mesh_snapshot_params(const uint8_t *data, size_t len, op_mesh_params *out,
                                  op_error *err);
/* A new mesh with the snapshot's parameters and state (SNAP-026): op_mesh_snapshot_params,
** then a load into a mesh created with them. On error *out is NULL. */
op_status op_mesh_snapshot_open(const uint8_t *data, size_t len, op_mesh **out, op_error *err);

/* ------------------------------------------------------------- hashing */

/* XXH3-64 with seed 0 of a byte string: the hash of every checkpoint and content id. */
uint64_t op_hash64(const void *data, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* ONEPATH_H */
