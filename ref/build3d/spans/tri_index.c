/*
** tri_index.c -- a triangle index for a whole soup build, so that finding a tile's
** triangles (SPAN-181) costs the tile's share of the level, not the whole level: one pass
** over the soup files every triangle, in ascending index, under each bin (a square of
** k x k tiles, usually k = 1) whose tiles' bordered boxes its xz bounding box may meet.
**
** Why the result is the same: a bin's list is ascending (triangles are filed in index
** order) and holds every triangle that SPAN-181's exact box test keeps for any tile of the
** bin (the filing test is looser by two cells, far more than rounding can move), and
** build_from (spans_tile.c) still applies that exact test to the list; so each tile keeps
** exactly the triangles of the full scan, in the same order.
**
** Not normative: spec/build3d-spans.md SPAN-181 is the rule, this file only speeds it up.
*/
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "build3d/spans/spans_internal.h"

struct opsp_tri_index {
  op_soup soup;          /* a copy of the counts; the arrays are borrowed */
  double ox, oz, cs;     /* the tiling origin's x and z, the cell size */
  int64_t T, B;          /* tile_cells, border (SPAN-022) */
  int32_t ntx, ntz;      /* the tile range (SPAN-183) */
  int32_t k;             /* tiles per bin side */
  int32_t nbx, nbz;      /* bins per axis */
  uint32_t *off;         /* nbx * nbz + 1 offsets into tri */
  uint32_t *tri;         /* every bin's triangles, ascending within a bin */
};

/* Tiles at most 2^20 bins; a build whose lists would exceed this many entries (huge
** triangles over many tiles) uses coarser bins, down to one bin (the plain scan). */
#define IX_MAX_BINS (1u << 20)
#define IX_MIN_CAP ((uint64_t)1 << 22)

/* The first and last tile on one axis whose bordered box [t*T - B, (t+1)*T + B] (in cells
** from the origin) may meet the cell interval [e0, e1], widened by two cells (the argument
** of opsp_centre_range: coordinates within +-2^21, cs >= 2^-16, so rounding moves the
** exact comparisons of SPAN-181 by far less than a cell); clamped to [0, nt - 1]. */
static int tile_span(double e0, double e1, int64_t T, int64_t B, int32_t nt, int32_t *a,
                     int32_t *b) {
  double lo = (e0 - 2 - (double)B - (double)T) / (double)T; /* t >= lo */
  double hi = (e1 + 2 + (double)B) / (double)T;             /* t <= hi */
  if (!(hi >= 0) || !(lo <= (double)(nt - 1))) return 0;
  /* lo may be any real: the first integer t >= lo is ceil(lo), clamped at 0 */
  int32_t ta = lo <= 0 ? 0 : (int32_t)lo + ((double)(int32_t)lo < lo);
  int32_t tb = hi >= (double)(nt - 1) ? nt - 1 : (int32_t)hi;
  if (ta > tb) return 0;
  *a = ta;
  *b = tb;
  return 1;
}

/* The bin range of triangle t, or 0 when it lies under no tile of the range. */
static int tri_bins(const opsp_tri_index *ix, uint32_t t, int32_t r[4]) {
  const op_soup *s = &ix->soup;
  const double *v[3];
  for (int i = 0; i < 3; i++) v[i] = &s->verts[3 * (size_t)s->tris[3 * (size_t)t + i]];
  double mnx = v[0][0], mxx = v[0][0], mnz = v[0][2], mxz = v[0][2];
  for (int i = 1; i < 3; i++) {
    if (v[i][0] < mnx) mnx = v[i][0];
    if (v[i][0] > mxx) mxx = v[i][0];
    if (v[i][2] < mnz) mnz = v[i][2];
    if (v[i][2] > mxz) mxz = v[i][2];
  }
  int32_t x0, x1, z0, z1;
  if (!tile_span((mnx - ix->ox) / ix->cs, (mxx - ix->ox) / ix->cs, ix->T, ix->B, ix->ntx, &x0,
                 &x1))
    return 0;
  if (!tile_span((mnz - ix->oz) / ix->cs, (mxz - ix->oz) / ix->cs, ix->T, ix->B, ix->ntz, &z0,
                 &z1))
    return 0;
  r[0] = x0 / ix->k;
  r[1] = x1 / ix->k;
  r[2] = z0 / ix->k;
  r[3] = z1 / ix->k;
  return 1;
}

void opsp_tri_index_free(opsp_tri_index *ix) {
  if (!ix) return;
  free(ix->off);
  free(ix->tri);
  free(ix);
}

op_status opsp_tri_index_build(const op_settings *s, const op_soup *soup,
                               const double origin[3], int32_t ntx, int32_t ntz,
                               opsp_tri_index **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "null", "no result pointer");
  *out = NULL;
  if (!s || !soup || !origin)
    return op_fail(err, OP_E_ARGUMENT, "soup", "null", "an argument is missing");
  if (ntx < 1 || ntz < 1) return op_fail_i(err, OP_E_ARGUMENT, "ntx", ntx, "empty tile range");
  op_cell_settings c;
  op_status st = op_settings_derive(s, &c, err);
  if (st != OP_OK) return st;
  opsp_tri_index *ix = calloc(1, sizeof *ix);
  if (!ix) return opc_nomem(err, "soup");
  ix->soup = *soup;
  ix->ox = origin[0];
  ix->oz = origin[2];
  ix->cs = s->cell_size;
  ix->T = s->tile_cells;
  ix->B = c.border;
  ix->ntx = ntx;
  ix->ntz = ntz;
  ix->k = 1;
  while (((uint64_t)(ntx + ix->k - 1) / ix->k) * ((uint64_t)(ntz + ix->k - 1) / ix->k) >
         IX_MAX_BINS)
    ix->k *= 2;
  const uint64_t cap = 16 * (uint64_t)soup->ntris > IX_MIN_CAP ? 16 * (uint64_t)soup->ntris
                                                                : IX_MIN_CAP;
  uint64_t total;
  for (;;) { /* count the entries; coarser bins while there are too many */
    ix->nbx = (int32_t)((ntx + ix->k - 1) / ix->k);
    ix->nbz = (int32_t)((ntz + ix->k - 1) / ix->k);
    total = 0;
    for (uint32_t t = 0; t < soup->ntris; t++) {
      int32_t r[4];
      if (tri_bins(ix, t, r))
        total += (uint64_t)(r[1] - r[0] + 1) * (uint64_t)(r[3] - r[2] + 1);
    }
    if (total <= cap || (ix->nbx == 1 && ix->nbz == 1)) break;
    ix->k *= 2;
  }
  const size_t nbins = (size_t)ix->nbx * (size_t)ix->nbz;
  ix->off = calloc(nbins + 1, sizeof *ix->off);
  ix->tri = malloc((total ? (size_t)total : 1) * sizeof *ix->tri);
  if (!ix->off || !ix->tri || total > UINT32_MAX) {
    opsp_tri_index_free(ix);
    return opc_nomem(err, "soup");
  }
  for (uint32_t t = 0; t < soup->ntris; t++) { /* per bin counts, then offsets */
    int32_t r[4];
    if (!tri_bins(ix, t, r)) continue;
    for (int32_t bz = r[2]; bz <= r[3]; bz++)
      for (int32_t bx = r[0]; bx <= r[1]; bx++) ix->off[(size_t)bz * ix->nbx + bx + 1]++;
  }
  for (size_t b = 0; b < nbins; b++) ix->off[b + 1] += ix->off[b];
  uint32_t *fill = malloc((nbins ? nbins : 1) * sizeof *fill);
  if (!fill) {
    opsp_tri_index_free(ix);
    return opc_nomem(err, "soup");
  }
  memcpy(fill, ix->off, nbins * sizeof *fill);
  for (uint32_t t = 0; t < soup->ntris; t++) { /* ascending t: every list ascending */
    int32_t r[4];
    if (!tri_bins(ix, t, r)) continue;
    for (int32_t bz = r[2]; bz <= r[3]; bz++)
      for (int32_t bx = r[0]; bx <= r[1]; bx++) ix->tri[fill[(size_t)bz * ix->nbx + bx]++] = t;
  }
  free(fill);
  *out = ix;
  return OP_OK;
}

int32_t opsp_tri_index_bin_side(const opsp_tri_index *ix) { return ix ? ix->k : 0; }

void opsp_tri_index_query(const opsp_tri_index *ix, int32_t tx, int32_t tz,
                          const uint32_t **tris, uint32_t *n) {
  *tris = NULL;
  *n = 0;
  if (!ix || tx < 0 || tz < 0 || tx >= ix->ntx || tz >= ix->ntz) return;
  size_t b = (size_t)(tz / ix->k) * (size_t)ix->nbx + (size_t)(tx / ix->k);
  *tris = ix->tri + ix->off[b];
  *n = ix->off[b + 1] - ix->off[b];
}

/* The index answers for these tiles of this soup with these settings (else: the scan). */
int opsp_tri_index_fits(const opsp_tri_index *ix, const op_settings *s,
                        const op_cell_settings *c, const op_soup *soup,
                        const double origin[3], int32_t tx, int32_t tz) {
  return ix && ix->soup.verts == soup->verts && ix->soup.tris == soup->tris &&
         ix->soup.nverts == soup->nverts && ix->soup.ntris == soup->ntris && ix->cs == s->cell_size && ix->T == (int64_t)s->tile_cells &&
         ix->B == (int64_t)c->border && ix->ox == origin[0] && ix->oz == origin[2] && tx >= 0 &&
         tz >= 0 && tx < ix->ntx && tz < ix->ntz;
}
