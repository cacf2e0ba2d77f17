/*
** nearest_index.c -- the polygon boxes that FindNearestPoly prunes with (spec/query.md,
** section 6, QRY-052: a port may prune with bounding boxes provided the pruning never drops a
** candidate). Not normative: an index decides no answer, it only skips polygons that cannot
** be candidates (nearest.c says why).
**
** Speed-up not in the spec: each tile's per-polygon plane boxes (min and max of the
** polygon's tile-local binary32 x and z, exact, mapped to world x and z by QRY-010's map of
** the tile's own frame) are computed once and kept in the query object,
** keyed by the tile's content id (op_tile_content_id, a hash of the tile's canonical bytes),
** so a box is a function of the tile's content only and a replaced, removed or reloaded tile
** can never be matched with boxes of other content. The mesh's current flags, areas and links
** are still read on every call (QRY-002); the boxes hold geometry, which a tile never changes.
**
** Find path's per-tile data (find_data), kept the same way per tile content: the polygons'
** centres (QRY-064) and the midpoints of internal portals (QRY-063), both computed by the
** spec's own formulas on the same values, so the same bits; and per polygon a guess of its
** run in the tile's links, which are mesh state (MESH-066): a guess is used only after the
** links confirm it exactly (opq_link_run), else the run is searched and the guess replaced.
*/
#include <stdlib.h>

#include "core/internal.h"
#include "query/nearest_index.h"

void opq_nidx_free(opq_nidx *x) {
  if (!x) return;
  for (uint32_t i = 0; i < OPQ_NIDX_TILES; i++) {
    free(x->t[i].box);
    free(x->t[i].cen);
    free(x->t[i].run);
    free(x->t[i].ebase);
    free(x->t[i].mid);
  }
  free(x->cand);
  free(x->tiles);
  free(x);
}

op_status opq_nidx_get(op_query *q, opq_nidx **out, op_error *err) {
  if (!q->nidx) {
    q->nidx = calloc(1, sizeof *q->nidx);
    if (!q->nidx) return opc_nomem(err, "query");
  }
  *out = q->nidx;
  return OP_OK;
}

/* QRY-010: FMT-005's x0, x1, z0, z1 (binary64, in its order) and FMT-008's fW of tile
** (tx, tz) of v's tiling; opq_frame (poly.c) uses it too. */
void opq_tile_frame(const op_tile_desc *v, int32_t tx, int32_t tz, double *x0, double *z0,
                    double *x1, double *z1, float *fw) {
  double W = (double)v->tiling.tile_cells * v->tiling.cell_size;
  *x0 = v->tiling.origin[0] + (double)tx * W;
  *x1 = v->tiling.origin[0] + ((double)tx + 1.0) * W;
  *z0 = v->tiling.origin[2] + (double)tz * W;
  *z1 = v->tiling.origin[2] + ((double)tz + 1.0) * W;
  *fw = (float)W;
}

/* Speed-up not in the spec: the centres of the polygons of e's tile and the midpoints of its
** internal portals, computed once per tile content with the frame find path reads the tile
** with (the same opq_poly fields, so the same values), and room for the link run guesses. No
** memory: e->cen, e->run and e->mid stay NULL and find path computes each value itself. */
static int find_room(opq_ntile *t, uint32_t npolys, uint32_t nedges) {
  if (npolys > t->fcap || !t->cen || !t->run || !t->ebase) {
    uint32_t cap = npolys ? npolys : 1;
    double *c = realloc(t->cen, sizeof *c * 3 * cap);
    if (c) t->cen = c;
    uint32_t *r = realloc(t->run, sizeof *r * 2 * cap);
    if (r) t->run = r;
    uint32_t *b = realloc(t->ebase, sizeof *b * cap);
    if (b) t->ebase = b;
    if (!c || !r || !b) return 0;
    t->fcap = cap;
  }
  if (nedges > t->medges || !t->mid) {
    uint32_t cap = nedges ? nedges : 1;
    double *m = realloc(t->mid, sizeof *m * 3 * cap);
    if (!m) return 0;
    t->mid = m;
    t->medges = cap;
  }
  return 1;
}

static void find_data(opq_nidx *x, uint32_t slot, opq_ftile *e) {
  const op_tile_desc *v = &e->o->view;
  opq_ntile *t = &x->t[slot & (OPQ_NIDX_TILES - 1)];
  uint64_t id = op_tile_content_id(e->o->tile);
  e->cen = NULL, e->run = NULL, e->ebase = NULL, e->mid = NULL;
  if (!(t->fnpolys == v->npolys && t->fcontent == id && t->cen)) {
    uint32_t nedges = 0;
    for (uint32_t i = 0; i < v->npolys; i++) nedges += v->polys[i].nverts;
    t->fnpolys = 0; /* nothing valid until it is all made */
    if (!find_room(t, v->npolys, nedges)) return;
    opq_poly P;
    P.v = *v;
    P.x0 = e->x0, P.z0 = e->z0, P.oy = v->origin_y;
    P.x1 = e->x1, P.z1 = e->z1, P.fw = e->fw; /* QRY-010 */
    uint32_t eb = 0;
    for (uint32_t i = 0; i < v->npolys; i++) {
      P.p = &v->polys[i];
      P.n = P.p->nverts;
      opq_centre(&P, &t->cen[3 * i]); /* QRY-064 */
      t->run[2 * i] = t->run[2 * i + 1] = 0; /* a guess; opq_link_run verifies it */
      t->ebase[i] = eb;
      for (uint32_t j = 0; j < P.n; j++) { /* QRY-063, internal link on edge j */
        double a[3], b[3], *M = &t->mid[3 * (eb + j)];
        opq_vert(&P, j, a);
        opq_vert(&P, (j + 1u) % P.n, b);
        for (int k = 0; k < 3; k++) M[k] = (a[k] + b[k]) * 0.5;
      }
      eb += P.n;
    }
    t->fcontent = id;
    t->fnpolys = v->npolys;
  }
  e->cen = t->cen, e->run = t->run, e->ebase = t->ebase, e->mid = t->mid;
}

void opq_link_run(const opq_ftile *e, uint32_t poly, uint32_t *lo, uint32_t *hi) {
  const op_link *L = e->o->links;
  uint32_t n = e->o->nlinks;
  if (e->run) { /* the guess is the run when poly's links are exactly [a, b) */
    uint32_t a = e->run[2 * poly], b = e->run[2 * poly + 1];
    if (a <= b && b <= n && (a == 0 || L[a - 1].poly < poly) && (b == n || L[b].poly > poly) &&
        (a == b || (L[a].poly == poly && L[b - 1].poly == poly))) {
      *lo = a, *hi = b;
      return;
    }
  }
  uint32_t a = 0, b = n;
  while (a < b) {
    uint32_t mid = a + (b - a) / 2;
    if (L[mid].poly < poly) a = mid + 1;
    else b = mid;
  }
  uint32_t end = a;
  while (end < n && L[end].poly == poly) end++;
  *lo = a, *hi = end;
  if (e->run) e->run[2 * poly] = a, e->run[2 * poly + 1] = end;
}

const opq_ftile *opq_ftile_fill(op_query *q, opq_nidx *x, op_ref ref) {
  uint32_t gen = (uint32_t)(ref >> (OPM_SLOT_BITS + OPM_POLY_BITS)); /* MESH-010 */
  uint32_t slot = (uint32_t)(ref >> OPM_POLY_BITS) & (OPM_MAX_SLOTS - 1u);
  uint32_t index = (uint32_t)ref & (OPM_MAX_POLYS - 1u);
  opq_ftile *e = &x->ft[slot & (OPQ_NIDX_TILES - 1)];
  if (e->epoch != q->epoch || e->slot != slot || e->gen != gen) {
    const opm_slot *sl = ref ? opm_slot_at(q->mesh, slot) : NULL; /* MESH-016's checks */
    if (!sl || !sl->occ || sl->gen != gen) return NULL;
    e->epoch = q->epoch, e->slot = slot, e->gen = gen, e->o = sl->occ;
    opq_tile_frame(&e->o->view, e->o->view.x, e->o->view.z, &e->x0, &e->z0, &e->x1, &e->z1,
                   &e->fw);
    find_data(x, slot, e);
  }
  return index < e->o->view.npolys ? e : NULL;
}

/* The boxes of polygon i: min x, min z, max x, max z of its vertices (tile-local), then mapped
** to world x and z as opq_local maps a local coordinate (QRY-010; the map is monotone, so the
** world box is the box of the world vertices). */
static void poly_box(const op_tile_desc *v, uint32_t i, const opq_poly *F, double out[4]) {
  const op_poly_desc *p = &v->polys[i];
  float b[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (uint32_t k = 0; k < p->nverts; k++) {
    const float *l = &v->verts[3 * p->verts[k]];
    if (k == 0 || l[0] < b[0]) b[0] = l[0];
    if (k == 0 || l[2] < b[1]) b[1] = l[2];
    if (k == 0 || l[0] > b[2]) b[2] = l[0];
    if (k == 0 || l[2] > b[3]) b[3] = l[2];
  }
  out[0] = b[0] == F->fw ? F->x1 : F->x0 + (double)b[0];
  out[1] = b[1] == F->fw ? F->z1 : F->z0 + (double)b[1];
  out[2] = b[2] == F->fw ? F->x1 : F->x0 + (double)b[2];
  out[3] = b[3] == F->fw ? F->z1 : F->z0 + (double)b[3];
}

const double *opq_nidx_boxes(opq_nidx *x, const op_mesh_tile *te, const op_tile_desc *v,
                             op_error *err) {
  opq_ntile *e = &x->t[te->slot & (OPQ_NIDX_TILES - 1)];
  uint64_t id = op_tile_content_id(te->tile);
  if (e->box && e->content == id && e->npolys == v->npolys) return e->box;
  if (v->npolys > e->cap || !e->box) {
    uint32_t cap = v->npolys ? v->npolys : 1;
    double *b = realloc(e->box, sizeof *b * 4 * cap);
    if (!b) {
      opc_nomem(err, "query");
      return NULL;
    }
    e->box = b;
    e->cap = cap;
  }
  opq_poly F; /* the tile's world frame (QRY-010), as nearest.c's tile_ref makes it */
  opq_tile_frame(v, te->x, te->z, &F.x0, &F.z0, &F.x1, &F.z1, &F.fw);
  for (uint32_t i = 0; i < v->npolys; i++) poly_box(v, i, &F, &e->box[4 * i]);
  e->content = id;
  e->npolys = v->npolys;
  return e->box;
}

op_status opq_nidx_reserve(opq_nidx *x, uint32_t ncand, uint32_t ntiles, op_error *err) {
  if (ncand > x->capc) {
    uint32_t cap = x->capc ? x->capc : 64;
    while (cap < ncand) cap *= 2;
    opq_ncand *c = realloc(x->cand, sizeof *c * cap);
    if (!c) return opc_nomem(err, "query");
    x->cand = c;
    x->capc = cap;
  }
  if (ntiles > x->capt) {
    uint32_t cap = x->capt ? x->capt : 16;
    while (cap < ntiles) cap *= 2;
    opq_ntref *t = realloc(x->tiles, sizeof *t * cap);
    if (!t) return opc_nomem(err, "query");
    x->tiles = t;
    x->capt = cap;
  }
  return OP_OK;
}
