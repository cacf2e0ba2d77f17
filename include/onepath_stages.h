/*
** onepath_stages.h -- the per-tile stages of the 3D build after the spans (libonepath,
** kit tier): the region partition, the contours, the polygon mesh, the detail mesh and
** the tile assembler, each as a function from the stage before it to a plain artifact.
** Normative text: spec/build3d-regions.md and spec/build3d-polys.md.
**
** Kit tier: for the protocol server (port/), the tools, the fuzz harnesses and the
** benchmarks, which run or picture one stage at a time. A game embeds onepath.h and
** onepath_pipeline.h instead. The artifact structs are TRANSPARENT and read-only to the
** caller: their fields are documented here and may be read directly; only the stage's own
** functions make, change and free them. Stable: changes are additive only.
**
** Conventions as in onepath.h: every function that can fail returns an op_status and
** fills the op_error; a failed call changes nothing.
*/
#ifndef ONEPATH_STAGES_H
#define ONEPATH_STAGES_H

#include "onepath.h"
#include "onepath_build3d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------- regions (spec/build3d-regions.md sections 1-5) */

#define OP_REG_NONE 0u
#define OP_REG_BORDER 0x8000u   /* flag bit of a border region value (REG-030) */
#define OP_REG_ID_MASK 0x7fffu  /* the id bits of a region value */
#define OP_REG_BORDER_REGION 0x8001u /* the value of every border-ring span (REG-012) */
#define OP_REG_MAX_REGIONS 32767u /* ordinary regions per partition, at most (REG-006) */

typedef struct op_regions {
  op_partition partition; /* the partition that made it */
  int32_t border;         /* border width in cells it was made with */
  uint32_t nspans;        /* = chf->nspans */
  uint16_t *reg;          /* nspans: region value per span (see above); owned */
  uint16_t *dist;         /* nspans: the (blurred) distance field value of the span
                             (REG-020, REG-025) for the watershed, 0 for the others; owned */
  uint16_t max_dist;      /* greatest value in dist */
  uint16_t nregions;      /* ordinary regions: ids 1..nregions (REG-150) */
} op_regions;

/* Watershed partition (REG-020 .. REG-044, then section 5). chf is not changed. border
** >= 0 in cells; min_region_area and merge_region_area in spans (MinRegionArea,
** MergeRegionArea). On failure *out is zeroed. */
op_status op_regions_watershed(const op_chf *chf, int32_t border, uint32_t min_region_area,
                               uint32_t merge_region_area, op_regions *out, op_error *err);
/* Monotone partition (REG-050 .. REG-058, then section 5). */
op_status op_regions_monotone(const op_chf *chf, int32_t border, uint32_t min_region_area,
                              uint32_t merge_region_area, op_regions *out, op_error *err);
/* Layer partition (section 4, REG-070 .. REG-083, then REG-105).
** merge_region_area is not used by layers. */
op_status op_regions_layers(const op_chf *chf, int32_t border, uint32_t min_region_area,
                            op_regions *out, op_error *err);
/* The partition named by p (REG-005). */
op_status op_regions_build(const op_chf *chf, op_partition p, int32_t border,
                           uint32_t min_region_area, uint32_t merge_region_area,
                           op_regions *out, op_error *err);
/* Frees the arrays and zeroes *r; NULL-safe. */
void op_regions_free(op_regions *r);
/* The canonical bytes of a partition (REG-160): what checkpoints hash. */
op_status op_regions_save(const op_regions *r, op_bytes *out, op_error *err);

/* ------------------------------ contours (spec/build3d-regions.md section 6) */

#define OP_CONTOUR_BORDER_REG OP_REG_BORDER /* border region bit (REG-012, REG-201) */
#define OP_CONTOUR_NONE 0xffffffffu     /* "no loop" in the edge map (REG-214) */
#define OP_CVERT_TILE_BORDER 1u         /* vertex flag: tile-border vertex (REG-206) */
#define OP_CVERT_AREA_BORDER 2u         /* vertex flag: area border (REG-207) */
#define OP_CONTOUR_MAX_SPANS 0x3fffffffu /* edge keys fit 32 bits (REG-202) */

/* A contour vertex (REG-207): a corner of the grid, its height, and what lies on the
** other side of the edge it starts. */
typedef struct op_cvert {
  int32_t x, y, z;
  uint16_t reg;   /* region id across the edge the vertex starts (0: none) */
  uint8_t area;   /* area across that edge (0: none) */
  uint8_t flags;  /* OP_CVERT_* */
} op_cvert;

/* One traced loop (REG-208 .. REG-214). */
typedef struct op_cloop {
  uint16_t reg;        /* region of the loop's spans */
  uint8_t area;        /* area of its start span */
  uint8_t hole;        /* 1 when raw area2 > 0 (REG-215) */
  uint32_t start_key;  /* smallest edge key of the loop, 4 * span + dir */
  uint32_t raw_start;  /* first raw vertex in set->raw / set->raw_edge */
  uint32_t nraw;
  uint32_t simp_start; /* first entry in set->simp */
  uint32_t nsimp;      /* 0 when the simplified form has fewer than 3 vertices */
  int64_t area2;       /* twice the signed area of the raw loop (REG-215) */
} op_cloop;

/* One contour of a region: an outline with its holes joined (REG-216 .. REG-220). */
typedef struct op_contour {
  uint16_t reg;
  uint8_t area;
  uint32_t loop;       /* the outline loop it comes from */
  uint32_t vert_start; /* into set->verts */
  uint32_t nverts;
} op_contour;

typedef struct op_contour_set {
  int32_t width, depth, border;
  uint32_t nspans;
  uint32_t nloops;
  op_cloop *loops;       /* in order of start_key */
  uint32_t nraw;
  op_cvert *raw;         /* raw vertices of every loop */
  uint32_t *raw_edge;    /* nraw: the edge key each raw vertex starts */
  uint32_t nsimp;
  uint32_t *simp;        /* simplified forms: raw indices relative to their loop, ascending */
  uint32_t *edge_loop;   /* 4 * nspans: owning loop of each edge key, or OP_CONTOUR_NONE */
  uint32_t ncontours;
  op_contour *contours;  /* in order of their outline loop */
  uint32_t nverts;
  op_cvert *verts;
  uint32_t unjoined_holes; /* holes with no valid diagonal (REG-219) */
} op_contour_set;

/* Parameters of the stage (REG-200). */
typedef struct op_contour_params {
  int32_t border;        /* Border, cells (>= 0) */
  double max_error;      /* MaxSimplificationError, cells, 0..1024 */
  int32_t max_edge_len;  /* MaxEdgeLenCells, 0 = no limit, 0..65535 */
} op_contour_params;

/* BuildContours: traces, simplifies and joins (REG-200 .. REG-221). reg: nspans region
** ids (borrowed). On failure *out is untouched. */
op_status op_contours_build(const op_chf *chf, const uint16_t *reg, const op_contour_params *p,
                            op_contour_set *out, op_error *err);
/* Tests only (spec/conformance.md CONF-059): op_contours_build with every allocation of the
** trace, the simplification and the join counted on al (NULL: none); the counted one that
** fails is out_of_memory `memory` (REG-200). */
op_status op_contours_build_counted(const op_chf *chf, const uint16_t *reg,
                                    const op_contour_params *p, op_alloc_count *al,
                                    op_contour_set *out, op_error *err);
void op_contour_set_free(op_contour_set *cs); /* frees the arrays, zeroes *cs; NULL-safe */
/* The canonical bytes of a contour set (REG-222): what checkpoints hash. */
op_status op_contours_save(const op_contour_set *cs, op_bytes *out, op_error *err);

/* ----------------------------- polygons (spec/build3d-polys.md sections 1-3) */

#define OP_PMESH_MAX_VERTS 65535u  /* POLY-080: vertices per tile */
#define OP_PMESH_MAX_POLYS 32767u  /* POLY-080: polygons per tile */
#define OP_PMESH_NULL 0xffffu      /* unused vertex slot of a polygon (POLY-070) */

/* The tile coordinate map (POLY-001 .. POLY-007). Filled by op_tilemap_init; the
** fields are read-only afterwards except y_offset, which the tile assembler may set
** (build3d-polys.md §5 defines the tile's vertical origin). */
typedef struct op_tilemap {
  int32_t width, depth;   /* the tile's own cells on x and z (border excluded) */
  int32_t border;         /* border cells on each side (POLY-002) */
  int32_t cells_across;   /* W = max(bordered width, bordered depth) (POLY-005) */
  int64_t orient_bound;   /* ((W * W) >> 19) + 1, cell areas (POLY-006) */
  double cs, ch;          /* cell size (x, z) and cell height (y), world units */
  double y_offset;        /* world units added to row * ch before rounding (POLY-004);
                          ** 0 from op_tilemap_init */
} op_tilemap;

/* POLY-001 .. POLY-006: the map of a tile whose bordered heightfield grid is g (as the
** spans stage builds it) and whose border is `border` cells on every side.
** OP_E_RANGE `Border` when border < 0, OP_E_ARGUMENT `grid.width` / `grid.depth` when a
** side is less than twice the border. */
op_status op_tilemap_init(op_tilemap *m, const op_hf_grid *g, int32_t border, op_error *err);

/* POLY-003, POLY-004: tile-local float32 position of the tile-local cell point
** (x, y, z): out = { f32(x * cs), f32(y_offset + y * ch), f32(z * cs) }, every product
** and sum in binary64, each coordinate rounded once to binary32 (-0 becomes +0). */
void op_tilemap_pos(const op_tilemap *m, int32_t x, int32_t y, int32_t z, float out[3]);
/* The x (or z) coordinate alone: f32(c * cs). */
float op_tilemap_xz(const op_tilemap *m, int32_t c);

/* POLY-007: the sign (-1, 0, +1) of Orient2D(Float32) of the mapped points of tile-local
** cells a, b, c (each { x, z }): the exact cell determinant decides when its magnitude is
** at least m->orient_bound, else op_orient2d_f32 on the mapped positions. Always equal to
** op_orient2d_f32 on the mapped positions for points with 0 <= x, z <= cells_across. */
int op_tilemap_orient(const op_tilemap *m, const int32_t a[2], const int32_t b[2],
                      const int32_t c[2]);

/* ----------------------------------------------------------- §3 the polygons */

/* The polygon mesh of one tile, in cells (POLY-070 .. POLY-077). */
typedef struct op_pmesh {
  op_tilemap map;
  uint32_t nvp;      /* MaxVertsPerPoly, 3..OP_MAX_VERTS_PER_POLY */
  uint32_t nverts;
  int32_t *verts;    /* 3 * nverts: x, y, z tile-local cells */
  uint32_t npolys;
  uint16_t *polys;   /* npolys * nvp: vertex indices, counter-clockwise in (x, z) as
                     ** FMT-017 counts it; OP_PMESH_NULL fills the slots after the last */
  uint16_t *neis;    /* npolys * nvp: neighbour code of edge j (verts[j] -> verts[j+1]):
                     ** 0 wall, k+1 internal polygon k, 0x8000|side portal (POLY-060) */
  uint16_t *regs;    /* npolys: region id of the contour it comes from */
  uint8_t *areas;    /* npolys: area id (1..63) */
  uint16_t *flags;   /* npolys: POLY-076 */
  uint32_t untriangulated; /* contours whose triangulation stopped early (POLY-027) */
} op_pmesh;

/* Number of used slots of polygon p (3..nvp). */
static inline uint32_t op_pmesh_poly_nverts(const op_pmesh *pm, uint32_t p) {
  const uint16_t *v = pm->polys + (size_t)p * pm->nvp;
  uint32_t n = 0;
  while (n < pm->nvp && v[n] != OP_PMESH_NULL) n++;
  return n;
}

/* BuildPolyMesh (POLY-011 .. POLY-090): cs is the contour set of the tile (borrowed),
** grid its bordered heightfield grid (the chf's grid), border and nvp (MaxVertsPerPoly)
** the settings. On failure *out is untouched. */
op_status op_pmesh_build(const op_contour_set *cs, const op_hf_grid *grid, int32_t border,
                         uint32_t nvp, op_pmesh *out, op_error *err);
/* Tests only (spec/conformance.md CONF-059): op_pmesh_build with every allocation counted on
** al (NULL: none); the counted one that fails is out_of_memory `polys` (POLY-011). */
op_status op_pmesh_build_counted(const op_contour_set *cs, const op_hf_grid *grid,
                                 int32_t border, uint32_t nvp, op_alloc_count *al,
                                 op_pmesh *out, op_error *err);
void op_pmesh_free(op_pmesh *pm); /* frees the arrays and zeroes *pm; NULL-safe */
/* The canonical bytes of a polygon mesh (POLY-090): what checkpoints hash. */
op_status op_pmesh_save(const op_pmesh *pm, op_bytes *out, op_error *err);

/* -------- detail mesh and tile assembly (spec/build3d-polys.md sections 4-5) */

/* The detail mesh of one tile in the format's form (FMT-022 .. FMT-026). All zero and
** NULL when the tile has no detail mesh. Arrays owned. */
typedef struct op_detail_mesh {
  uint32_t ndetail;          /* 0 or npolys */
  op_detail_desc *detail;
  uint32_t nverts;
  float *verts;              /* 3 * nverts, tile-local */
  uint32_t ntris;
  uint8_t *tris;             /* 4 * ntris */
} op_detail_mesh;

#define OP_DETAIL_UNIT 16          /* POLY-204: detail units per cell */
#define OP_DETAIL_MAX_POINTS 128   /* POLY-208: points per polygon (its vertices included) */
#define OP_DETAIL_MAX_EDGE_SEGS 32 /* POLY-206: segments per sampled polygon edge */

/* POLY-202: the detail rule, the pipeline's validation hook: accepts every valid
** setting (sampling is specified); OP_E_ARGUMENT `settings` for NULL only. */
op_status op_detail_check(const op_settings *s, op_error *err);
/* POLY-203: the sample step S in cells: 0 without sampling (DetailSampleDistance <= 0.9),
** else max(1, floor(DetailSampleDistance)). */
int32_t op_detail_step(const op_settings *s);
/* POLY-200 .. POLY-209, POLY-250 .. POLY-257: the detail mesh of the polygon mesh pm on
** chf, the compact heightfield the polygons were built from (may be NULL without
** sampling; only its width and depth are checked). Reads s->detail_sample_distance and
** s->detail_sample_max_error only (OP_E_RANGE by SPAN-030 rows 14, 15); positions use pm's
** map. Each polygon must be strictly convex, counter-clockwise and simple on the tile's own
** cells with rows 0..65535, else OP_E_ARGUMENT `pmesh.polys[p]`. Vertices are tile-local
** with the vertical origin of POLY-212. On failure *out is untouched. */
op_status op_detail_build(const op_settings *s, const op_pmesh *pm, const op_chf *chf,
                          op_detail_mesh *out, op_error *err);
void op_detail_free(op_detail_mesh *d); /* frees the arrays, zeroes *d; NULL-safe */

/* NavTileAssembler (POLY-210 .. POLY-216): the tile (tx, tz, layer) of polygon mesh pm
** with detail mesh dm (NULL: none), on tiling t, row 0 of its grid at world height y0.
** *out is NULL (and OP_OK) when pm has no polygon (POLY-211). */
op_status op_tile_assemble(const op_pmesh *pm, const op_detail_mesh *dm, int32_t tx,
                           int32_t tz, int32_t layer, const op_tiling *t, double y0,
                           op_tile **out, op_error *err);

/* ------------------ the layer assignment alone (spec/build3d-regions.md section 4) */

/* REG-070 .. REG-078: layer[nspans] (room given by the caller) receives every span's layer,
** 0-based, numbered by first span; *nlayers the number of layers. Depends on which spans
** are walkable (area != 0), not on area ids. */
op_status op_regions_layer_assign(const op_chf *chf, uint16_t *layer, uint32_t *nlayers,
                                  op_error *err);

/* --------------------- the stages of one tile in order (spec/build3d-polys.md §5) */

/* The parameters of the per-tile stages after the spans, derived from settings in ONE
** place (SPAN-020 .. SPAN-025 for the cell values; REG-005, REG-200, POLY-020). */
typedef struct op_stage_params {
  op_partition partition;                /* PartitionType */
  int32_t border;                        /* cells (SPAN-024) */
  uint32_t min_region_area, merge_region_area; /* spans */
  op_contour_params contours;            /* border, max_error, max_edge_len (REG-200) */
  uint32_t max_verts_per_poly;           /* MaxVertsPerPoly (POLY-020) */
} op_stage_params;

/* Validates s (SPAN-030) and derives the stage parameters. On failure *out is zeroed. */
op_status op_stage_params_derive(const op_settings *s, op_stage_params *out, op_error *err);

/* The stages, in order; `last` of op_stage_run_tile names the last one run. */
typedef enum op_stage {
  OP_STAGE_SPANS = 1, /* stages 1-3 of the spans (SPAN-180) */
  OP_STAGE_REGIONS,   /* REG-005 */
  OP_STAGE_CONTOURS,  /* REG-200 */
  OP_STAGE_POLYS,     /* POLY-020 */
  OP_STAGE_DETAIL     /* POLY-200 */
} op_stage;

/* One tile taken through the stages. chf is NULL when the tile is not built (SPAN-182);
** then every later artifact stays empty (zeroed). Every member is owned by the struct. */
typedef struct op_stage_tile {
  op_stage_params params;
  op_cell_settings cell;
  op_chf *chf;
  op_regions regions;
  op_contour_set contours;
  op_pmesh pmesh;
  op_detail_mesh detail;
} op_stage_tile;

/* Runs tile (tx, tz) of a soup build (frame SPAN-181) through stages 1-3 (SPAN-180, the
** settings' volumes included) and the settings' Obstacles (RT-010), then the general path
** of POLY-223 on up to `last`: what Mesh3DPipeline builds for that tile before the tile
** assembler (a layer-first build, RT-080, builds per layer instead). *out is always ready
** for op_stage_tile_free, also on failure. */
op_status op_stage_run_tile(const op_settings *s, const op_soup *soup, int32_t tx, int32_t tz,
                            op_stage last, op_stage_tile *out, op_error *err);
/* Frees every artifact and zeroes *t; NULL-safe. */
void op_stage_tile_free(op_stage_tile *t);

#ifdef __cplusplus
}
#endif
#endif /* ONEPATH_STAGES_H */
