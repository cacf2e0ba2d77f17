/*
** contours.h -- internal header of the contour stage of the 3D build (stage 2, part 2):
** boundary edges, loop tracing, corner heights, simplification, degenerate segments,
** holes joined to outlines. Normative text: spec/build3d-regions.md section 6
** ("Contours", clauses REG-200 and up). Not part of the public API.
**
** Every loop keeps its raw vertices, the edge each raw vertex starts, its simplified
** form and the edge -> loop ownership map as explicit data (REG-214), so that the
** run-time repair (build3d-runtime.md) can reuse traced loops.
**
** Coordinates are corner coordinates of the tile's bordered grid: x in [0, width],
** z in [0, depth]; y is a floor row. The polygon stage subtracts the border.
*/
#ifndef OP_CONTOURS_H
#define OP_CONTOURS_H

#include "onepath_build3d.h"
#include "regions.h"

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
void op_contour_set_free(op_contour_set *cs); /* frees the arrays, zeroes *cs; NULL-safe */
/* The canonical bytes of a contour set (REG-222): what checkpoints hash. */
op_status op_contours_save(const op_contour_set *cs, op_bytes *out, op_error *err);

/* ---- pieces shared by contours.c and contours_simplify.c (and the run-time repair) */

/* REG-203: the neighbour across edge (i, d): g->nei when the mutual bit is set. */
static inline uint32_t op_contour_nei(const op_span_graph *g, uint32_t i, int d) {
  return (g->mutual[i] >> d) & 1u ? g->nei[4 * (size_t)i + (size_t)d] : OP_CONTOUR_NONE;
}
/* REG-204: edge (i, d) is a boundary edge of i's region. */
int op_contour_is_boundary(const op_span_graph *g, const uint16_t *reg, uint32_t i, int d);

/* REG-208: walks the loop that starts at boundary edge key `start`, appending raw
** vertices and edge keys to the arrays (grown by realloc; *n, *cap updated). Returns
** OP_OK, OP_E_NOMEM, or OP_E_LIMIT when the walk does not close (never for a valid
** span graph). */
op_status op_contour_walk(const op_chf *chf, const op_span_graph *g, const uint16_t *reg,
                          uint32_t start, op_cvert **verts, uint32_t **keys, uint32_t *n,
                          uint32_t *cap, op_error *err);

/* REG-205 .. REG-207: the raw vertex of boundary edge (i, d) for the regions reg and the
** areas chf->areas (the record op_contour_walk appends for that edge). */
op_cvert op_contour_raw_vertex(const op_chf *chf, const op_span_graph *g, const uint16_t *reg,
                               uint32_t i, int d);

/* REG-209 .. REG-213: the simplified form of one raw loop, as ascending raw indices in
** out (room for nraw entries). Returns the count (0 when fewer than 3 remain). Scratch:
** keep (nraw bytes) and stack (4 * nraw entries), owned by the caller. */
uint32_t op_contour_simplify(const op_cvert *raw, uint32_t nraw, uint8_t loop_area,
                             double max_error, int32_t max_edge_len, uint32_t *out,
                             uint8_t *keep, uint32_t *stack);

/* REG-215: twice the signed area of a closed vertex list (x, z). */
int64_t op_contour_area2(const op_cvert *v, uint32_t n);

/* REG-216 .. REG-220: joins the holes of every region into its outlines and fills
** cs->contours / cs->verts from cs->loops and their simplified forms. */
op_status op_contours_join(op_contour_set *cs, op_error *err);

#endif
