/*
** onepath_build3d.h -- public declarations of the 3D builder (libonepath).
**
** Settings (NavSettings -> op_settings) and the builder's inputs: triangle soups,
** chunked triangle meshes, heightfields of solid columns, the Wavefront OBJ reader and
** the level generators. Normative text: spec/build3d-spans.md sections 1 ("Settings",
** clauses 001 to 099) and 2 ("Inputs"), spec/levels.md (LVL). Later stages (spans,
** regions, polygons) add their declarations at the end of this header.
**
** Conventions as in onepath.h: every function that can fail returns an op_status and
** fills the op_error; a failed call changes nothing; arrays in descriptions are borrowed
** for the call only unless a comment says otherwise.
*/
#ifndef ONEPATH_BUILD3D_H
#define ONEPATH_BUILD3D_H

#include "onepath.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------- settings (build3d-spans.md 1) */

/* PartitionType (SPAN-002). */
typedef enum op_partition {
  OP_PARTITION_WATERSHED = 0,
  OP_PARTITION_MONOTONE = 1,
  OP_PARTITION_LAYERS = 2
} op_partition;

#define OP_VOLUME_MAX_POINTS 12 /* SPAN-003 */
#define OP_COORD_LIMIT 2097152.0 /* 2^21: |coordinate| bound of every input (SPAN-030) */

/* ConvexVolume: a build-time area volume (SPAN-003). The marking rule is SPAN's
** stage 3; this is only the validated description. */
typedef struct op_convex_volume {
  uint32_t npoints;                        /* 3..OP_VOLUME_MAX_POINTS */
  double points[OP_VOLUME_MAX_POINTS][2];  /* (x, z) world, in order */
  double ymin, ymax;                       /* world, ymin <= ymax */
  uint8_t area;                            /* 0..63; 0 makes spans non-walkable */
} op_convex_volume;

/* An obstacle of Mesh3DPipeline.Obstacles (SPAN-004): described and validated here,
** applied by the run-time stage (build3d-runtime.md). */
typedef enum op_obstacle_shape {
  OP_OBSTACLE_CYLINDER = 0,
  OP_OBSTACLE_BOX = 1,
  OP_OBSTACLE_ORIENTED_BOX = 2
} op_obstacle_shape;

typedef struct op_obstacle {
  op_obstacle_shape shape;
  double center[3];        /* cylinder: base centre; oriented box: centre */
  double radius, height;   /* cylinder: radius > 0, height >= 0 */
  double bmin[3], bmax[3]; /* box: min and max corners */
  double half[3];          /* oriented box: half sizes hx > 0, hy >= 0, hz > 0 */
  double yaw;              /* oriented box: radians, from +x towards +z */
} op_obstacle;

/* NavSettings (SPAN-001). Units in the comments; "cells" are cell_size on x/z, cell
** heights on y. */
typedef struct op_settings {
  double cell_size;      /* CellSize, world units on x and z */
  double cell_height;    /* CellHeight, world units on y */
  double agent_radius;   /* AgentRadius, world */
  double agent_height;   /* AgentHeight, world */
  double agent_climb;    /* AgentMaxClimb, world */
  double max_slope;      /* AgentMaxSlope, degrees */
  uint32_t tile_cells;   /* TileSize, cells per tile side (without border) */
  op_partition partition;
  uint32_t min_region_area;   /* MinRegionArea, spans */
  uint32_t merge_region_area; /* MergeRegionArea, spans */
  double max_simplification_error; /* MaxSimplificationError, cells */
  double max_edge_len;             /* MaxEdgeLen, world; 0 = no limit */
  uint32_t max_verts_per_poly;     /* MaxVertsPerPoly, 3..OP_MAX_VERTS_PER_POLY */
  double detail_sample_distance;   /* DetailSampleDistance, cells; <= 0.9 = no sampling */
  double detail_sample_max_error;  /* DetailSampleMaxError, cell heights */
  uint32_t nvolumes;                   /* Regions.Spans.Volumes */
  const op_convex_volume *volumes;     /* borrowed; nvolumes items */
  uint32_t nobstacles;                 /* Obstacles (applied by the run-time stage) */
  const op_obstacle *obstacles;        /* borrowed; nobstacles items */
} op_settings;

/* Values derived from valid settings (SPAN-020 .. SPAN-025). */
typedef struct op_cell_settings {
  int32_t walkable_radius; /* ceil(agent_radius / cell_size), cells */
  int32_t walkable_height; /* ceil(agent_height / cell_height), cell heights */
  int32_t walkable_climb;  /* floor(agent_climb / cell_height), cell heights */
  int32_t border;          /* walkable_radius + 3, cells */
  int32_t grid_cells;      /* tile_cells + 2 * border: side of a tile's bordered grid */
  int32_t max_edge_len;    /* floor(max_edge_len / cell_size), cells; 0 = no limit */
  double slope_cos;        /* cosine of max_slope from SinCos */
  double detail_sample_dist;      /* world: 0, or cell_size * detail_sample_distance */
  double detail_sample_max_error; /* world: cell_height * detail_sample_max_error */
} op_cell_settings;

/* NavSettings.Humanoid / Small / Large (SPAN-040): name is "Humanoid", "Small" or
** "Large" (exact), else OP_E_ARGUMENT naming "name". No volumes. */
op_status op_settings_preset(const char *name, op_settings *out, op_error *err);
/* Validates every field in the order of SPAN-030 (first failure reported). */
op_status op_settings_validate(const op_settings *s, op_error *err);
/* Validates, then derives the cell values. */
op_status op_settings_derive(const op_settings *s, op_cell_settings *out, op_error *err);

/* The whole-cell rules of SPAN-021 on the binary64 quotient fl(a / b) (a >= 0, b > 0,
** the quotient at most 2^31 - 1 after rounding; callers check). */
int64_t op_cells_ceil(double a, double b);
int64_t op_cells_floor(double a, double b);

/* ------------------------------------------ work budget (build3d-spans.md 11) */

/* The work budget of a 3D build (SPAN-200 .. SPAN-204): limits on the work a build may
** start, estimated from the settings and the tile grid before any tile is made. Not part
** of the settings (their bytes do not change); a host passes raised limits to the
** *_limited builds (onepath_pipeline.h) or the protocol's `limits` argument. A member 0
** means its default. */
#define OP_BUDGET_TILE_GRID_CELLS (1u << 22) /* SPAN-201: GridCells^2 per tile */
#define OP_BUDGET_TILES (1u << 16)           /* SPAN-201: tiles of the grid */
#define OP_BUDGET_BUILD_CELLS (1u << 24)     /* SPAN-201: tiles x GridCells^2 */
typedef struct op_build_limits {
  uint64_t max_tile_grid_cells; /* 0: OP_BUDGET_TILE_GRID_CELLS */
  uint64_t max_tiles;           /* 0: OP_BUDGET_TILES */
  uint64_t max_build_cells;     /* 0: OP_BUDGET_BUILD_CELLS */
} op_build_limits;
/* The defaults (SPAN-201). */
void op_build_limits_default(op_build_limits *out);
/* SPAN-202, SPAN-203: the budget of a build of ntiles tiles with the derived cell values
** c; lim NULL = the defaults. A `limit` error names `limits.<member>` with the estimate. */
op_status op_build_budget_check(const op_cell_settings *c, uint64_t ntiles,
                                const op_build_limits *lim, op_error *err);

/* ------------------------------------------------ inputs (build3d-spans.md 2) */

#define OP_SOUP_MAX_VERTS (1u << 24) /* SPAN-051 */
#define OP_SOUP_MAX_TRIS (1u << 24)  /* SPAN-051 */

/* BuildSoup input: an indexed triangle soup, binary64 vertices (SPAN-050). */
typedef struct op_soup {
  uint32_t nverts;
  const double *verts;   /* 3 * nverts: x, y, z */
  uint32_t ntris;
  const uint32_t *tris;  /* 3 * ntris vertex indices */
} op_soup;

/* Validates a soup (SPAN-051, SPAN-052). */
op_status op_soup_validate(const op_soup *s, op_error *err);

/* An owned triangle list (from the OBJ reader and the level generators). */
typedef struct op_trimesh {
  uint32_t nverts, ntris;
  double *verts;   /* 3 * nverts, owned */
  uint32_t *tris;  /* 3 * ntris, owned */
  uint32_t cap_verts, cap_tris; /* internal */
} op_trimesh;
void op_trimesh_free(op_trimesh *m); /* frees the arrays and zeroes *m; NULL-safe */
op_soup op_trimesh_soup(const op_trimesh *m);

/* The canonical triangle serialization (LVL-010): the bytes that checkpoints hash. */
op_status op_soup_save(const op_soup *s, op_bytes *out, op_error *err);
/* Reads canonical triangle bytes back (LVL-011): layout errors, then SPAN-052. *out owns
** its arrays (op_trimesh_free); on failure *out is untouched. For protocol ops that take
** a soup as the hex bytes level.generate or obj.parse returned. */
op_status op_soup_load(const uint8_t *data, size_t len, op_trimesh *out, op_error *err);

/* BuildChunk input (SPAN-060 .. SPAN-064): the soup (copied) grouped into chunks of a
** square xz grid of side chunk_size. */
typedef struct op_chunked op_chunked;
op_status op_chunked_create(const op_soup *soup, double chunk_size, op_chunked **out,
                            op_error *err);
void op_chunked_free(op_chunked *c);
op_soup op_chunked_soup(const op_chunked *c); /* view; lives as long as c */
uint32_t op_chunked_count(const op_chunked *c);
/* Chunk i's bounds (x, z) and triangles (ascending indices into the soup). */
void op_chunked_chunk(const op_chunked *c, uint32_t i, double bmin[2], double bmax[2],
                      const uint32_t **tris, uint32_t *ntris);
/* The triangles of every chunk whose bounds meet the closed box [bmin, bmax] (x, z),
** ascending (SPAN-063). *tris is malloc'd (owned by the caller; NULL when *n is 0). */
op_status op_chunked_query(const op_chunked *c, const double bmin[2], const double bmax[2],
                           uint32_t **tris, uint32_t *n, op_error *err);

/* BuildHeightfield input (SPAN-070 .. SPAN-073): solid spans per column, given directly. */
#define OP_SOLID_MAX_ROW 65535 /* SPAN-071 */
typedef struct op_solid_span {
  int32_t ymin, ymax; /* rows: solid from origin_y + ymin*ch to origin_y + ymax*ch */
  uint8_t area;       /* 0 = not walkable, 1..63 walkable area id of the top */
} op_solid_span;
typedef struct op_solid_columns {
  double origin[3];          /* world position of column (0, 0)'s minimum corner */
  uint32_t width, depth;     /* columns on x and on z */
  const uint32_t *col_start; /* width * depth + 1 offsets into spans; column (x, z) is
                                index z * width + x */
  uint32_t nspans;
  const op_solid_span *spans;
} op_solid_columns;
op_status op_solid_columns_validate(const op_solid_columns *h, const op_settings *s,
                                    op_error *err);

/* Wavefront OBJ reader (SPAN-080 .. SPAN-088): v and f lines; errors name "line N". */
op_status op_obj_parse(const char *text, size_t len, op_trimesh *out, op_error *err);

/* ------------------------------------------------------ levels (levels.md) */

/* Level generators (LVL): name "terrain", "city", "stairs" or "dungeon"; size as each
** generator states; settings used by "stairs" only (NULL: Humanoid). */
op_status op_level_generate(const char *name, uint64_t seed, uint32_t size,
                            const op_settings *settings, op_trimesh *out, op_error *err);

/* --- spans (SPANS engineer) --- */

/* Stages 1-3 of the 3D build: rasterization, filters, compaction, erosion, area
** volumes, one tile in order, canonical bytes (spec/build3d-spans.md sections 3 to 9,
** SPAN-100 and up). */

#define OP_AREA_NULL 0          /* not walkable (SPAN-101) */
#define OP_AREA_WALKABLE 63     /* area of a walkable triangle (SPAN-104) */
#define OP_HF_MAX_HEIGHT 65535  /* rows of a heightfield (SPAN-100) */
#define OP_HF_MAX_SIDE 16384    /* columns per side of a heightfield grid (SPAN-100) */
#define OP_HF_NONE 0xffffffffu  /* "no span" in span indices */
#define OP_CHF_NOT_CONNECTED 63 /* link value: no neighbour (SPAN-142) */
#define OP_CHF_MAX_COLUMN 63    /* open spans per column (SPAN-141) */

/* The bordered grid of one heightfield (SPAN-100). Column x, row z is global cell
** (gx0 + x, gz0 + z); cell lines are origin + g * cs (x and z); height row r lies at
** origin[1] + r * ch. */
typedef struct op_hf_grid {
  double origin[3];
  double cs, ch;
  int32_t gx0, gz0;
  int32_t width, depth; /* 1..OP_HF_MAX_SIDE */
  int32_t height;       /* rows, 1..OP_HF_MAX_HEIGHT */
} op_hf_grid;

/* The solid heightfield: per column a list of solid spans, ascending, disjoint and
** not touching (SPAN-101). Read-only outside the library. */
typedef struct op_hf_span {
  uint16_t smin, smax; /* rows: solid from smin to smax, smin < smax */
  uint8_t area;        /* 0..63 (area of the span's top) */
  uint32_t next;       /* next span up in the column, or OP_HF_NONE */
} op_hf_span;
typedef struct op_hf {
  op_hf_grid grid;
  uint32_t *head;   /* width * depth: lowest span of column z * width + x, or OP_HF_NONE */
  op_hf_span *pool; /* span storage (indices stable) */
  uint32_t npool, cap, free_list, count; /* count = live spans */
  op_alloc_count *alloc; /* tests only (CONF-059): NULL, or the counter of its allocations */
} op_hf;

/* Validates a grid (SPAN-100). */
op_status op_hf_grid_validate(const op_hf_grid *g, op_error *err);
/* The grid of tile (tx, tz) (SPAN-102): cell sizes of the (validated) settings s, its
** derived cell values c (border), tiling origin (x, z), rows from y0 up to y1. */
op_status op_hf_grid_tile(const op_settings *s, const op_cell_settings *c,
                          const double origin[3], int32_t tx, int32_t tz, double y0,
                          double y1, op_hf_grid *out, op_error *err);
/* An empty heightfield on a validated grid. */
op_status op_hf_create(const op_hf_grid *g, op_hf **out, op_error *err);
void op_hf_free(op_hf *hf); /* NULL-safe */
/* Adds one solid span with the merge rule of SPAN-110 (climb in rows, >= 0). */
op_status op_hf_add_span(op_hf *hf, int32_t x, int32_t z, int32_t smin, int32_t smax,
                         uint8_t area, int32_t climb, op_error *err);
/* The slope test of SPAN-104: 1 when the triangle is walkable for slope_cos. */
int op_tri_walkable(const double v0[3], const double v1[3], const double v2[3],
                    double slope_cos);
/* Rasterizes triangles tris[0..n-1] of the soup (indices into the soup's triangles,
** ascending; NULL = every triangle) into hf (SPAN-103 to SPAN-111). slope_cos and
** climb as op_cell_settings. On failure hf is unchanged. */
op_status op_hf_rasterize(op_hf *hf, const op_soup *soup, const uint32_t *tris, uint32_t n,
                          double slope_cos, int32_t climb, op_error *err);
/* Adds the spans of a heightfield input (SPAN-113). On failure hf is unchanged. */
op_status op_hf_add_columns(op_hf *hf, const op_solid_columns *cols, int32_t climb,
                            op_error *err);

/* Filters (SPAN-120 to SPAN-123), in place; never fail on a valid heightfield. */
void op_hf_filter_low_hanging(op_hf *hf, int32_t climb);
void op_hf_filter_ledges(op_hf *hf, int32_t walkable_height, int32_t climb);
void op_hf_filter_low_height(op_hf *hf, int32_t walkable_height);

/* The compact (open-span) heightfield (SPAN-130 to SPAN-146). */
typedef struct op_chf_span {
  uint16_t y;        /* floor row (top of the solid span) */
  uint8_t h;         /* clearance in rows, capped at 255 */
  uint8_t link[4];   /* per direction (-x, +z, +x, -z): index in the neighbour column,
                        or OP_CHF_NOT_CONNECTED */
} op_chf_span;
typedef struct op_chf {
  op_hf_grid grid;
  int32_t walkable_height, walkable_climb;
  uint32_t *cell_index; /* width * depth: first span of the column */
  uint8_t *cell_count;  /* width * depth: spans in the column */
  uint32_t nspans;
  op_chf_span *spans;   /* column by column (rows z ascending, then x), then y ascending */
  uint8_t *areas;       /* nspans */
} op_chf;
op_status op_chf_build(const op_hf *hf, int32_t walkable_height, int32_t climb,
                       op_chf **out, op_error *err);
void op_chf_free(op_chf *chf); /* NULL-safe */
/* The span graph (SPAN-146): column and absolute neighbour index per span. */
typedef struct op_span_graph {
  uint32_t nspans;
  uint32_t *column;     /* nspans: z * width + x */
  uint32_t *nei;        /* 4 * nspans: absolute span index per direction, or OP_HF_NONE */
  uint8_t *mutual;      /* nspans: bit d set when nei[d] links back in direction (d+2)%4 */
} op_span_graph;
op_status op_span_graph_build(const op_chf *chf, op_span_graph *out, op_error *err);
void op_span_graph_free(op_span_graph *g); /* frees the arrays and zeroes *g */

/* Erosion (SPAN-150 .. SPAN-155): radius in cells (>= 0). On failure chf is unchanged. */
op_status op_chf_erode(op_chf *chf, int32_t radius, op_error *err);
/* Area volumes (SPAN-160 .. SPAN-163), in list order. Validated first; on failure chf
** is unchanged. */
op_status op_chf_mark_volumes(op_chf *chf, const op_convex_volume *v, uint32_t n,
                              op_error *err);
/* The canonical bytes of a compact heightfield (SPAN-170): what checkpoints hash. */
op_status op_chf_save(const op_chf *chf, op_bytes *out, op_error *err);

/* One tile, stages 1 to 3 (SPAN-180 to SPAN-185). */
/* The frame of a soup build (SPAN-181): origin = least x, y, z; *ymax = greatest y. */
op_status op_soup_frame(const op_soup *soup, double origin[3], double *ymax, op_error *err);
/* Tile (tx, tz) of a soup build with tiling origin and vertical range [y0, y1]. *out is
** NULL (and OP_OK) when the tile is not built (no walkable triangle meets its grid). */
op_status op_spans_build_tile(const op_settings *s, const op_soup *soup, const double origin[3],
                              double y0, double y1, int32_t tx, int32_t tz, op_chf **out,
                              op_error *err);
/* Tests only (spec/conformance.md CONF-059): the same, with every allocation of the tile's
** stages (selection, heightfield, compaction, erosion) counted on al; NULL counts nothing. */
op_status op_spans_build_tile_counted(const op_settings *s, const op_soup *soup,
                                      const double origin[3], double y0, double y1, int32_t tx,
                                      int32_t tz, op_alloc_count *al, op_chf **out,
                                      op_error *err);
/* The same tile from a chunked mesh (SPAN-064, SPAN-181): byte for byte the soup's. */
op_status op_spans_build_tile_chunked(const op_settings *s, const op_chunked *ch,
                                      const double origin[3], double y0, double y1, int32_t tx,
                                      int32_t tz, op_chf **out, op_error *err);
/* Tile (tx, tz) of a heightfield build (SPAN-185); *out NULL when not built. */
op_status op_spans_build_tile_columns(const op_settings *s, const op_solid_columns *cols,
                                      int32_t tx, int32_t tz, op_chf **out, op_error *err);
/* The tiles of a soup build (SPAN-183): tx in [0, *ntx), tz in [0, *ntz). */
op_status op_spans_tile_range(const op_settings *s, const op_soup *soup, int32_t *ntx,
                              int32_t *ntz, op_error *err);
/* Every tile of a soup build, the canonical bytes of SPAN-171 (owned by the caller). */
op_status op_spans_build_all(const op_settings *s, const op_soup *soup, op_bytes *out,
                             op_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ONEPATH_BUILD3D_H */
