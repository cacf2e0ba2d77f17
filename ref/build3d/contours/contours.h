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
#include "onepath_stages.h"
#include "build3d/regions/regions.h"

/* The contour set (op_contour_set, op_contours_build, ...) is declared in onepath_stages.h. */

/* ---- pieces shared by contours.c and contours_simplify.c (and the run-time repair) */

/* REG-203: the neighbour across edge (i, d): g->nei when the mutual bit is set. */
static inline uint32_t opct_nei(const op_span_graph *g, uint32_t i, int d) {
  return (g->mutual[i] >> d) & 1u ? g->nei[4 * (size_t)i + (size_t)d] : OP_CONTOUR_NONE;
}
/* REG-204: edge (i, d) is a boundary edge of i's region. */
int opct_is_boundary(const op_span_graph *g, const uint16_t *reg, uint32_t i, int d);

/* REG-208: walks the loop that starts at boundary edge key `start`, appending raw
** vertices and edge keys to the arrays (grown by realloc; *n, *cap updated). Returns
** OP_OK, OP_E_NOMEM, or OP_E_LIMIT when the walk does not close (never for a valid
** span graph). */
op_status opct_walk(const op_chf *chf, const op_span_graph *g, const uint16_t *reg,
                    uint32_t start, op_cvert **verts, uint32_t **keys, uint32_t *n,
                    uint32_t *cap, op_alloc_count *al, op_error *err); /* al: CONF-059 */

/* REG-205 .. REG-207: the raw vertex of boundary edge (i, d) for the regions reg and the
** areas chf->areas (the record opct_walk appends for that edge). */
op_cvert opct_raw_vertex(const op_chf *chf, const op_span_graph *g, const uint16_t *reg,
                         uint32_t i, int d);

/* REG-209 .. REG-213, REG-225 (climb: WalkableClimb, cell heights): the simplified form of
** one raw loop, as ascending raw indices in
** out (room for nraw entries). Returns the count (0 when fewer than 3 remain). Scratch:
** keep (nraw bytes) and stack (4 * nraw entries), owned by the caller. */
uint32_t opct_simplify(const op_cvert *raw, uint32_t nraw, uint8_t loop_area,
                       double max_error, int32_t max_edge_len, int32_t climb, uint32_t *out,
                       uint8_t *keep, uint32_t *stack);

/* REG-215: twice the signed area of a closed vertex list (x, z). */
int64_t opct_area2(const op_cvert *v, uint32_t n);

/* REG-216 .. REG-220: joins the holes of every region into its outlines and fills
** cs->contours / cs->verts from cs->loops and their simplified forms. */
op_status opct_join(op_contour_set *cs, op_error *err);
/* opct_join with its allocations counted on al (CONF-059; NULL: none). */
op_status opct_join_counted(op_contour_set *cs, op_alloc_count *al, op_error *err);

#endif
