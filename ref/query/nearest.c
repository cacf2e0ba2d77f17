/*
** nearest.c -- FindNearestPoly (spec/query.md, section 6: QRY-050 .. QRY-052): the polygon
** passing the filter whose closest point to the centre lies in the search box and is nearest
** (Euclidean, the vertical included), ties to the smallest canonical id.
**
** Tiles are visited in canonical order, the first by a binary search on the tiles' x extents,
** and pruned by their extent and by each polygon's bounding box with a margin of 2^-10 world
** units, far above the rounding of a closest point (coordinates are at most 2^23, so an ulp is
** at most 2^-29): pruning never drops a candidate, and the result is the one QRY-052 defines
** over all polygons.
**
** Speed-up not in the spec: the polygon boxes are kept per tile content in the query object
** (nearest_index.c), and the polygons whose box meets the search box are evaluated in order of
** a lower bound of their distance (the plane gap to the box widened by the margin, so that
** the bound never exceeds the computed Dist2: rounding is monotone), stopping once the bound
** exceeds the best distance; equal distances go to the smallest canonical id explicitly, so
** the order of evaluation decides nothing.
*/
#include <stdlib.h>

#include "query/nearest_index.h"

#define MARGIN 0x1p-10

static int outside(double mn, double mx, double lo, double hi) {
  return mx < lo - MARGIN || mn > hi + MARGIN;
}

/* A polygon's plane gap to the centre on one axis, with the margin (0 when within). */
static double gap(double mn, double mx, double c) {
  double g = mn - MARGIN - c;
  if (g > 0.0) return g;
  g = c - mx - MARGIN;
  return g > 0.0 ? g : 0.0;
}

/* The x0 of the tiles at tile x tx (FMT-005; every tile has the mesh's tiling, MESH-005). */
static double tile_x0(const op_mesh_params *mp, int32_t tx) {
  double W = (double)mp->tiling.tile_cells * mp->tiling.cell_size;
  return mp->tiling.origin[0] + (double)tx * W;
}

/* The first tile of the canonical order (MESH-061, ascending x) whose x extent is not wholly
** left of lo. */
static uint32_t first_tile(const op_mesh *m, const op_mesh_params *mp, double fW, double lo) {
  uint32_t a = 0, b = m->norder;
  while (a < b) {
    uint32_t mid = a + (b - a) / 2;
    if (tile_x0(mp, m->order[mid].x) + fW < lo - MARGIN) a = mid + 1;
    else b = mid;
  }
  return a;
}

/* Tile k of the canonical order as a call reads it. */
static void tile_ref(const op_mesh *m, const opm_tkey *k, opq_ntref *t) {
  const opm_slot *sl = opm_slot_at(m, k->slot);
  const opm_occ *o = sl->occ;
  t->te.x = k->x, t->te.z = k->z, t->te.layer = k->layer;
  t->te.slot = sl->index, t->te.generation = sl->gen;
  t->te.base = opm_make_ref(sl->gen, sl->index, 0); /* MESH-013 */
  t->te.tile = o->tile;
  t->te.npolys = o->view.npolys, t->te.nlinks = o->nlinks;
  t->v = o->view;
  t->flags = o->flags, t->area = o->area;
  opq_tile_frame(&t->v, k->x, k->z, &t->x0, &t->z0, &t->x1, &t->z1, &t->fw);
}

/* The candidates of the tile t (index ti): polygons whose box meets the search box. */
static op_status tile_cands(opq_nidx *x, uint32_t ti, const double c[3], const double lo[3],
                            const double hi[3], uint32_t *nc, op_error *err) {
  const opq_ntref *t = &x->tiles[ti];
  const double *box = opq_nidx_boxes(x, &t->te, &t->v, err); /* world (QRY-010) */
  if (!box) return OP_E_NOMEM;
  op_status st = opq_nidx_reserve(x, *nc + t->v.npolys, 0, err);
  if (st) return st;
  for (uint32_t i = 0; i < t->v.npolys; i++) {
    const double *b = &box[4 * i];
    double mnx = b[0], mnz = b[1], mxx = b[2], mxz = b[3];
    if (outside(mnx, mxx, lo[0], hi[0]) || outside(mnz, mxz, lo[2], hi[2])) continue;
    double gx = gap(mnx, mxx, c[0]), gz = gap(mnz, mxz, c[2]);
    opq_ncand *k = &x->cand[(*nc)++];
    k->lb = gx * gx + gz * gz;
    k->tile = ti;
    k->poly = i;
  }
  return OP_OK;
}

static int cand_cmp(const void *pa, const void *pb) {
  const opq_ncand *a = pa, *b = pb;
  if (a->lb != b->lb) return a->lb < b->lb ? -1 : 1;
  if (a->tile != b->tile) return a->tile < b->tile ? -1 : 1;
  return a->poly < b->poly ? -1 : a->poly > b->poly;
}

static void sort_cands(opq_ncand *c, uint32_t n) {
  if (n > 32) {
    qsort(c, n, sizeof *c, cand_cmp);
    return;
  }
  for (uint32_t i = 1; i < n; i++) {
    opq_ncand k = c[i];
    uint32_t j = i;
    while (j > 0 && cand_cmp(&c[j - 1], &k) > 0) c[j] = c[j - 1], j--;
    c[j] = k;
  }
}

/* QRY-051 for one candidate: 1 when it is a candidate, with its distance and point. */
static int eval_cand(const opq_ntref *t, uint32_t i, const op_query_filter *f, const double c[3],
                     const double lo[3], const double hi[3], opq_poly *P, double *d, double q[3]) {
  P->v = t->v;
  P->x0 = t->x0, P->z0 = t->z0, P->oy = t->v.origin_y;
  P->x1 = t->x1, P->z1 = t->z1, P->fw = t->fw; /* QRY-010 */
  P->id.x = t->te.x, P->id.z = t->te.z, P->id.layer = t->te.layer, P->id.poly = i;
  P->links = NULL;
  P->nlinks = 0;
  P->p = &P->v.polys[i];
  P->n = P->p->nverts;
  P->ref = t->te.base + i; /* MESH-010 */
  P->flags = t->flags[i], P->area = t->area[i]; /* MESH-030: current */
  if (!opq_passes(f, P->flags)) return 0; /* QRY-031 */
  opq_closest(P, c, q); /* QRY-051 */
  for (int a = 0; a < 3; a++)
    if (!(lo[a] <= q[a] && q[a] <= hi[a])) return 0;
  *d = opq_dist2(c, q);
  return 1;
}

/* The tiles of the search box, in canonical order, into x->tiles; their count in *ntiles. */
static op_status box_tiles(const op_mesh *m, opq_nidx *x, const double lo[3], const double hi[3],
                           uint32_t *ntiles, op_error *err) {
  op_mesh_params mp;
  op_mesh_get_params(m, &mp);
  double W = (double)mp.tiling.tile_cells * mp.tiling.cell_size;
  double fW = (double)(float)W; /* FMT-008 */
  uint32_t n = 0;
  op_status st = OP_OK;
  for (uint32_t ti = first_tile(m, &mp, fW, lo[0]); ti < m->norder; ti++) {
    const opm_tkey *k = &m->order[ti];
    double x0 = tile_x0(&mp, k->x);
    if (x0 > hi[0] + MARGIN) break; /* every later tile is right of the box */
    double z0 = mp.tiling.origin[2] + (double)k->z * W;
    if (outside(x0, x0 + fW, lo[0], hi[0]) || outside(z0, z0 + fW, lo[2], hi[2])) continue;
    if ((st = opq_nidx_reserve(x, 0, n + 1, err))) break;
    tile_ref(m, k, &x->tiles[n++]);
  }
  *ntiles = n;
  return st;
}

op_status opq_nearest(op_query *q, const double c[3], const double h[3],
                      const op_query_filter *f, op_query_nearest *out, op_error *err) {
  double lo[3], hi[3];
  for (int k = 0; k < 3; k++) { /* QRY-050 */
    lo[k] = c[k] - h[k];
    hi[k] = c[k] + h[k];
  }
  out->found = 0;
  opq_nidx *x;
  uint32_t ntiles = 0, nc = 0;
  op_status st = opq_nidx_get(q, &x, err);
  if (!st) st = box_tiles(q->mesh, x, lo, hi, &ntiles, err);
  for (uint32_t ti = 0; !st && ti < ntiles; ti++) st = tile_cands(x, ti, c, lo, hi, &nc, err);
  if (st) return st;
  sort_cands(x->cand, nc);
  double best = 0.0;
  uint32_t bt = 0, bp = 0;
  for (uint32_t k = 0; k < nc; k++) {
    const opq_ncand *cd = &x->cand[k];
    if (out->found && cd->lb > best) break; /* no later candidate can win or tie */
    if (out->found && cd->lb == best && (cd->tile > bt || (cd->tile == bt && cd->poly > bp)))
      continue; /* it could only tie, with a greater id */
    opq_poly P;
    double d = 0.0, qp[3];
    if (!eval_cand(&x->tiles[cd->tile], cd->poly, f, c, lo, hi, &P, &d, qp)) continue;
    /* QRY-052: least distance, then smallest canonical id (tile order, then polygon index) */
    if (!out->found || d < best ||
        (d == best && (cd->tile < bt || (cd->tile == bt && cd->poly < bp)))) {
      out->found = 1;
      best = d, bt = cd->tile, bp = cd->poly;
      opq_qpoly(&P, &out->poly);
      out->point[0] = qp[0], out->point[1] = qp[1], out->point[2] = qp[2];
    }
  }
  return OP_OK;
}

/* QRY-050: center, half_extents, filter, in this order. */
op_status op_query_nearest_poly(op_query *q, const double center[3], const double half_extents[3],
                                const op_query_filter *filter, op_query_nearest *out,
                                op_error *err) {
  if (!q) return op_fail(err, OP_E_ARGUMENT, "query", "NULL", "query is required");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  double c[3], h[3];
  op_status st = opq_check_pos(center, "center", c, err);
  if (st) return st;
  if (!half_extents) return op_fail(err, OP_E_ARGUMENT, "half_extents", "NULL", "required");
  static const char *const names[3] = {"half_extents[0]", "half_extents[1]", "half_extents[2]"};
  for (int k = 0; k < 3; k++) { /* QRY-021 */
    double v = half_extents[k];
    if (!(v > 0.0 && v <= 4194304.0))
      return op_fail_d(err, OP_E_RANGE, names[k], v, "must be finite and in (0, 2^22]");
    h[k] = v;
  }
  if (!filter) {
    filter = opq_filter_default();
  } else if ((st = op_query_filter_check(filter, err))) {
    return st;
  }
  return opq_nearest(q, c, h, filter, out, err);
}
