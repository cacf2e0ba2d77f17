/*
** tilemap.c -- the tile coordinate map of the 3D build: cells to tile-local float32 and
** the filtered orientation bound (spec/build3d-polys.md section 1, POLY-001 .. POLY-007).
** Declarations: polys.h (internal) and op_tilemap in onepath_stages.h.
*/
#include <string.h>

#include "core/internal.h"
#include "math/opmath.h"
#include "build3d/polys/polys.h"

/* POLY-001 .. POLY-006 */
op_status op_tilemap_init(op_tilemap *m, const op_hf_grid *g, int32_t border, op_error *err) {
  if (border < 0) return op_fail_i(err, OP_E_RANGE, "Border", border, "must be >= 0");
  if (g->width < 2 * (int64_t)border)
    return op_fail_i(err, OP_E_ARGUMENT, "grid.width", g->width,
                     "must be at least twice the border");
  if (g->depth < 2 * (int64_t)border)
    return op_fail_i(err, OP_E_ARGUMENT, "grid.depth", g->depth,
                     "must be at least twice the border");
  memset(m, 0, sizeof *m);
  m->width = g->width - 2 * border;
  m->depth = g->depth - 2 * border;
  m->border = border;
  m->cells_across = g->width > g->depth ? g->width : g->depth; /* POLY-005 */
  int64_t w = m->cells_across;
  m->orient_bound = ((w * w) >> 19) + 1; /* POLY-006 */
  m->cs = g->cs;
  m->ch = g->ch;
  m->y_offset = 0.0;
  return OP_OK;
}

/* POLY-003: f32(c * cs); -0 cannot arise for c >= 0, but is mapped to +0 anyway. */
float op_tilemap_xz(const op_tilemap *m, int32_t c) {
  float f = op_to_f32((double)c * m->cs);
  return f == 0.0f ? 0.0f : f;
}

/* POLY-003, POLY-004 */
void op_tilemap_pos(const op_tilemap *m, int32_t x, int32_t y, int32_t z, float out[3]) {
  out[0] = op_tilemap_xz(m, x);
  float fy = op_to_f32(m->y_offset + (double)y * m->ch);
  out[1] = fy == 0.0f ? 0.0f : fy;
  out[2] = op_tilemap_xz(m, z);
}

/* POLY-007: filtered orientation of the mapped points. */
int op_tilemap_orient(const op_tilemap *m, const int32_t a[2], const int32_t b[2],
                      const int32_t c[2]) {
  int64_t d = ((int64_t)b[0] - a[0]) * ((int64_t)c[1] - a[1]) -
              ((int64_t)b[1] - a[1]) * ((int64_t)c[0] - a[0]);
  if (d >= m->orient_bound) return 1;
  if (d <= -m->orient_bound) return -1;
  float fa[2] = {op_tilemap_xz(m, a[0]), op_tilemap_xz(m, a[1])};
  float fb[2] = {op_tilemap_xz(m, b[0]), op_tilemap_xz(m, b[1])};
  float fc[2] = {op_tilemap_xz(m, c[0]), op_tilemap_xz(m, c[1])};
  return op_orient2d_f32(fa, fb, fc);
}
