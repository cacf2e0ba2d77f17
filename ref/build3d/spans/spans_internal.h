/*
** spans_internal.h -- helpers shared by the span stages (raster.c, filter.c, compact.c,
** erode.c): grid lines and cell centres (SPAN-100), direction offsets (SPAN-140).
** Normative text: spec/build3d-spans.md.
** Internal: not part of the public API.
*/
#ifndef OP_SPANS_INTERNAL_H
#define OP_SPANS_INTERNAL_H

#include <math.h>

#include "onepath_build3d.h"

/* v is finite and lo <= v <= hi (the range checks of SPAN-030 .. SPAN-072). */
static inline int opsp_within(double v, double lo, double hi) {
  return isfinite(v) && v >= lo && v <= hi;
}

/* Direction d: 0 = -x, 1 = +z, 2 = +x, 3 = -z (SPAN-140). */
static const int opsp_dir_dx[4] = {-1, 0, 1, 0};
static const int opsp_dir_dz[4] = {0, 1, 0, -1};

/* World x of the grid's column line k (0..width): origin[0] + (gx0 + k) * cs, the
** integer converted exactly, one product, one sum (SPAN-100). */
static inline double opsp_grid_line_x(const op_hf_grid *g, int32_t k) {
  return g->origin[0] + (double)((int64_t)g->gx0 + k) * g->cs;
}
static inline double opsp_grid_line_z(const op_hf_grid *g, int32_t k) {
  return g->origin[2] + (double)((int64_t)g->gz0 + k) * g->cs;
}
/* Cell centre: origin + ((g + k) + 0.5) * cs (SPAN-161). */
static inline double opsp_grid_centre_x(const op_hf_grid *g, int32_t k) {
  return g->origin[0] + ((double)((int64_t)g->gx0 + k) + 0.5) * g->cs;
}
static inline double opsp_grid_centre_z(const op_hf_grid *g, int32_t k) {
  return g->origin[2] + ((double)((int64_t)g->gz0 + k) + 0.5) * g->cs;
}

/* The first and last column (axis 0) or row (axis 2) whose cell centre may lie within
** [lo, hi]; 0 when none. Only saves time for the volume (SPAN-161) and obstacle (RT-022)
** markings: two spare cells on each side are far more than rounding can move the exact
** test past the box (every coordinate is within +-2^21 + 255 cells, cs >= 2^-16), so
** every column outside the range fails the exact test. */
static inline int opsp_centre_range(const op_hf_grid *g, int axis, double lo, double hi,
                                    int32_t *a, int32_t *b) {
  int32_t cnt = axis == 0 ? g->width : g->depth;
  double o = axis == 0 ? g->origin[0] : g->origin[2];
  double g0 = (double)(axis == 0 ? g->gx0 : g->gz0);
  double e0 = (lo - o) / g->cs - g0 - 2, e1 = (hi - o) / g->cs - g0 + 2;
  if (!(e1 >= 0) || !(e0 <= (double)(cnt - 1))) return 0;
  *a = e0 < 0 ? 0 : (int32_t)e0;
  *b = e1 > (double)(cnt - 1) ? cnt - 1 : (int32_t)e1;
  return *a <= *b;
}

/* The span above s in its column, or NULL. */
static inline op_hf_span *opsp_hf_next(const op_hf *hf, const op_hf_span *s) {
  return s->next == OP_HF_NONE ? NULL : &hf->pool[s->next];
}
static inline op_hf_span *opsp_hf_first(const op_hf *hf, int32_t x, int32_t z) {
  uint32_t i = hf->head[(size_t)z * (size_t)hf->grid.width + (size_t)x];
  return i == OP_HF_NONE ? NULL : &hf->pool[i];
}

/* op_hf_rasterize without re-checking the soup and the triangle list (SPAN-103), for
** callers that checked them once for a whole build: the tile stage (compact.c), whose
** list is ascending by construction, and the pipeline (pipeline.c). Same result. */
op_status opsp_rasterize_trusted(op_hf *hf, const op_soup *soup, const uint32_t *tris,
                                 uint32_t n, double slope_cos, int32_t climb, op_error *err);
/* CONF-059 (tests only): op_hf_create and op_chf_erode with their allocations counted on
** al (NULL: not counted); the heightfield keeps al for its growth and its compaction. */
op_status opsp_hf_create_counted(const op_hf_grid *g, op_alloc_count *al, op_hf **out,
                                 op_error *err);
op_status opsp_chf_erode_counted(op_chf *chf, int32_t radius, op_alloc_count *al,
                                 op_error *err);
/* op_spans_build_tile for a soup already validated (op_soup_validate, SPAN-052). */
op_status opsp_build_tile_trusted(const op_settings *s, const op_soup *soup,
                                  const double origin[3], double y0, double y1, int32_t tx,
                                  int32_t tz, op_chf **out, op_error *err);

/* A triangle index for a whole soup build (tri_index.c): per tile, a list of candidate
** triangles, ascending, that holds every triangle SPAN-181 selects for that tile (and
** possibly a few more, which SPAN-181's exact box test then drops). Built once per build,
** read-only afterwards (safe to query from several threads at once). */
typedef struct opsp_tri_index opsp_tri_index;
/* The index of a soup already validated (SPAN-052) for the tiles 0 <= tx < ntx,
** 0 <= tz < ntz of the tiling origin `origin` (SPAN-181, SPAN-183) with the settings s
** (cell_size, tile_cells and the border of SPAN-022 are what it reads). The soup's
** arrays are borrowed: they must outlive the index (the op_soup struct itself may be a
** temporary, e.g. op_chunked_soup's result: a chunked build may use the index of its
** soup, since SPAN-064 makes its tiles those of the soup). */
op_status opsp_tri_index_build(const op_settings *s, const op_soup *soup,
                               const double origin[3], int32_t ntx, int32_t ntz,
                               opsp_tri_index **out, op_error *err);
void opsp_tri_index_free(opsp_tri_index *ix); /* NULL is fine */
/* The side of the index's bins in tiles (1 unless the lists would be too long). */
int32_t opsp_tri_index_bin_side(const opsp_tri_index *ix);
/* The candidate list of tile (tx, tz), borrowed from the index: *n = 0 when none (or the
** tile is outside the index's range). */
void opsp_tri_index_query(const opsp_tri_index *ix, int32_t tx, int32_t tz,
                          const uint32_t **tris, uint32_t *n);
/* build_from (spans_tile.c) with a candidate list already made, for a soup already
** validated: cand ascending and each < ntris (a chunk query's result, or an index list);
** SPAN-181's box test is applied to it, SPAN-182 decides whether the tile is built. */
op_status opsp_build_tile_cand_trusted(const op_settings *s, const op_soup *soup,
                                       const double origin[3], double y0, double y1,
                                       int32_t tx, int32_t tz, const uint32_t *cand,
                                       uint32_t ncand, op_chf **out, op_error *err);
/* 1 when ix was built for this soup, cell size, tile size, border and origin and
** (tx, tz) is in its range: only then may its candidate lists replace the scan. */
int opsp_tri_index_fits(const opsp_tri_index *ix, const op_settings *s,
                        const op_cell_settings *c, const op_soup *soup,
                        const double origin[3], int32_t tx, int32_t tz);
/* opsp_build_tile_trusted through the index (same result, byte for byte): ix NULL, or an
** index built with other cell_size, tile_cells, border or origin, falls back to the scan. */
op_status opsp_build_tile_indexed(const op_settings *s, const op_soup *soup,
                                  const opsp_tri_index *ix, const double origin[3], double y0,
                                  double y1, int32_t tx, int32_t tz, op_chf **out,
                                  op_error *err);

/* The "top of the open space" of a column's top span (SPAN-120). */
#define OP_HF_OPEN_TOP 65535

#endif
