/*
** mesh_links.c -- stitching of the TiledNavMesh (spec/navmesh-mesh.md, MESH-020..MESH-026):
** each tile's portal edges by side, the column index, the internal and external links of a
** tile in canonical order (MESH-024), and the all-or-nothing relink of the single
** operations and of a snapshot load (which also remakes the canonical tile order of the
** readers, MESH-061, ref/navmesh/mesh_order.c).
**
** Stitching is kept cheap for the tile cache's frequent swaps: each tile's portal edges are
** listed once by side when it enters the mesh (opm_occ.portals), a relink finds a
** neighbouring column's tiles through a column index sorted by (z, x, layer) instead of
** scanning every slot, and a batch (mesh_batch.c) recomputes, for a tile next to a changed
** column, only the links of its edges facing one. None of this changes which links are
** made or their order.
*/
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

#include "navmesh/mesh_internal.h"

/* ------------------------------------------------------------ portal edges */

/* MESH-021, MESH-022: edge j of polygon Q lies on side s (its code is 0x8000 | s exactly);
** its interval [b0, b1] along the side's axis. */
static void portal_at(const op_tile_desc *v, uint32_t q, uint32_t j, unsigned s,
                      opm_portal *out) {
  const op_poly_desc *Q = &v->polys[q];
  const int k = (s & 1u) ? 0 : 2; /* MESH-022: along x for sides 1, 3; along z for 0, 2 */
  const float *wa = &v->verts[3 * Q->verts[j]];
  const float *wb = &v->verts[3 * Q->verts[(j + 1) % Q->nverts]];
  out->q = q, out->j = j;
  out->b0 = wb[k] < wa[k] ? wb[k] : wa[k];
  out->b1 = wb[k] > wa[k] ? wb[k] : wa[k];
}

/* The portal edges of tile v by side (opm_occ.portals, .side_at in o) and the count of its
** edges that are not walls (.nlinked). 0, or -1 (no memory). */
int opm_portals_make(const op_tile_desc *v, opm_occ *o, opm_alloc *al) {
  uint32_t count[4] = {0, 0, 0, 0};
  o->nlinked = 0;
  for (uint32_t q = 0; q < v->npolys; q++)
    for (uint32_t j = 0; j < v->polys[q].nverts; j++) {
      o->nlinked += v->polys[q].neis[j] != OP_NEI_WALL;
      if ((v->polys[q].neis[j] & ~3u) == OP_NEI_PORTAL) count[v->polys[q].neis[j] & 3u]++;
    }
  o->side_at[0] = 0;
  for (unsigned s = 0; s < 4; s++) o->side_at[s + 1] = o->side_at[s] + count[s];
  o->portals = opm_malloc(al, ((size_t)o->side_at[4] + 1) * sizeof *o->portals);
  if (!o->portals) return -1;
  uint32_t at[4] = {o->side_at[0], o->side_at[1], o->side_at[2], o->side_at[3]};
  for (uint32_t q = 0; q < v->npolys; q++)
    for (uint32_t j = 0; j < v->polys[q].nverts; j++) {
      unsigned c = v->polys[q].neis[j];
      if ((c & ~3u) == OP_NEI_PORTAL) portal_at(v, q, j, c & 3u, &o->portals[at[c & 3u]++]);
    }
  return 0;
}

/* ------------------------------------------------------------ stitching */

typedef struct link_vec {
  op_link *v;
  uint32_t n, cap;
  int oom;
  opm_alloc *al; /* a batch's allocation hook, or NULL */
  uint32_t first; /* the capacity of the first allocation */
} link_vec;

static void lv_push(link_vec *lv, const op_link *l) {
  if (lv->oom) return;
  if (lv->n == lv->cap) {
    uint32_t cap = lv->cap ? lv->cap * 2 : lv->first;
    op_link *p = opm_realloc(lv->al, lv->v, (size_t)cap * sizeof *p);
    if (!p) { lv->oom = 1; return; }
    lv->v = p;
    lv->cap = cap;
  }
  lv->v[lv->n++] = *l;
}

static double absd(double v) { return v < 0 ? -v : v; } /* exact; no libm */

/* MESH-023: world height of an edge (endpoints a, b as (along, y_world)) at along u. */
static double edge_y(float pa, double ya, float pb, double yb, float u) {
  if (u == pa) return ya;
  if (u == pb) return yb;
  double t = ((double)u - (double)pa) / ((double)pb - (double)pa);
  return ya + (yb - ya) * t;
}

/* MESH-023: edges whose gaps at the ends of their overlap are g0 and g1 link when the gaps
** have opposite signs (the edges cross), or when either is within twice the climb. */
static int gap_links(double g0, double g1, double climb) {
  const double reach = 2 * climb; /* exact */
  if ((g0 < 0 && g1 > 0) || (g0 > 0 && g1 < 0)) return 1;
  return absd(g0) <= reach || absd(g1) <= reach;
}

/* The column index (opm_col_index, mesh_internal.h): (x, z, layer) is unique in a mesh
** (MESH-012), so its order is total. It is the order in which a tiled build adds its tiles
** (rows of z, then x, then layers), hence usually the slots' own order. */

static int ent_less(const opm_col_ent *p, const opm_col_ent *q) {
  if (p->z != q->z) return p->z < q->z;
  if (p->x != q->x) return p->x < q->x;
  return p->layer < q->layer;
}

/* Sorts e[0..n) by ent_less: nothing to do when they are in order already (the usual
** case), else a bottom-up merge sort through tmp (n entries). Returns the array that holds
** the result (e or tmp). */
static opm_col_ent *ent_sort(opm_col_ent *e, opm_col_ent *tmp, uint32_t n) {
  uint32_t i = 1;
  while (i < n && ent_less(&e[i - 1], &e[i])) i++;
  if (i >= n) return e;
  for (uint32_t w = 1; w < n; w *= 2) {
    for (uint32_t lo = 0; lo < n; lo += 2 * w) { /* merge [lo, mid) and [mid, hi) */
      uint32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      uint32_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi) tmp[k++] = ent_less(&e[b], &e[a]) ? e[b++] : e[a++];
      while (a < mid) tmp[k++] = e[a++];
      while (b < hi) tmp[k++] = e[b++];
    }
    opm_col_ent *t = e;
    e = tmp;
    tmp = t;
  }
  return e;
}

/* The index of the occupied slots of m whose column lies in the box x0..x1, z0..z1
** (box = {x0, x1, z0, z1}). 0, or -1 (no memory). ci->e owns the allocation (twice the
** entries: the second half is the sort's buffer), ci->s the sorted entries in it. */
int opm_col_index_make(const op_mesh *m, const int64_t box[4], opm_col_index *ci,
                       opm_alloc *al) {
  ci->n = 0;
  ci->e = opm_malloc(al, 2 * ((size_t)m->nslots + 1) * sizeof *ci->e);
  if (!ci->e) return -1;
  for (uint32_t i = 0; i < m->nslots; i++) {
    const opm_occ *o = m->slots[i].occ;
    if (!o || o->view.x < box[0] || o->view.x > box[1] || o->view.z < box[2] ||
        o->view.z > box[3])
      continue;
    opm_col_ent *e = &ci->e[ci->n++];
    e->x = o->view.x, e->z = o->view.z, e->layer = o->view.layer, e->pos = i;
  }
  ci->s = ent_sort(ci->e, ci->e + m->nslots + 1, ci->n);
  return 0;
}

/* The tiles of column (x, z) in ci, ascending by layer (MESH-021, MESH-024): the first
** entry of the run; its length in *k. */
static const opm_col_ent *column_tiles(const opm_col_index *ci, int64_t x, int64_t z,
                                       uint32_t *k) {
  uint32_t lo = 0, hi = ci->n;
  while (lo < hi) { /* [0, lo) before column (x, z), [hi, n) at or after it */
    uint32_t mid = lo + (hi - lo) / 2;
    const opm_col_ent *e = &ci->s[mid];
    if (e->z < z || (e->z == z && e->x < x)) lo = mid + 1;
    else hi = mid;
  }
  uint32_t end = lo;
  while (end < ci->n && ci->s[end].x == x && ci->s[end].z == z) end++;
  *k = end - lo;
  return &ci->s[lo];
}

/* MESH-020: the internal link of edge i of polygon p (neighbour code `code`). */
static void link_internal(link_vec *lv, const opm_slot *sl, uint32_t p, uint32_t i,
                          uint16_t code) {
  op_link l = {p, (uint8_t)i, OP_LINK_INTERNAL, OP_LINK_INTERNAL,
               opm_make_ref(sl->gen, sl->index, (uint32_t)code - 1u), 0.0f, 0.0f};
  lv_push(lv, &l);
}

/* One portal edge being linked: its polygon and edge, side, along axis k (MESH-022), end
** points, interval [a0, a1] and world heights (MESH-023). */
typedef struct portal {
  uint32_t p, i;
  unsigned side;
  int k;
  const float *va, *vb;
  float a0, a1;
  double ya, yb;
} portal;

/* MESH-021..MESH-023: the links of portal edge e to the polygons of tile N (slot ns): to
** N's portal edges on the opposite side, in the order of q, then k (MESH-024). */
static void link_tile(link_vec *lv, const op_mesh *m, const portal *e, const opm_slot *ns) {
  const opm_occ *no = ns->occ;
  const op_tile_desc *N = &no->view;
  const unsigned opp = (e->side + 2u) & 3u;
  const int k = e->k;
  for (uint32_t x = no->side_at[opp]; x < no->side_at[opp + 1]; x++) {
    const opm_portal *w = &no->portals[x];
    float lo = w->b0 > e->a0 ? w->b0 : e->a0, hi = w->b1 < e->a1 ? w->b1 : e->a1; /* MESH-022 */
    if (!(lo < hi)) continue;
    const op_poly_desc *Q = &N->polys[w->q];
    const float *wa = &N->verts[3 * Q->verts[w->j]];
    const float *wb = &N->verts[3 * Q->verts[(w->j + 1) % Q->nverts]];
    double za = N->origin_y + (double)wa[1], zb = N->origin_y + (double)wb[1];
    double g0 = edge_y(e->va[k], e->ya, e->vb[k], e->yb, lo) - edge_y(wa[k], za, wb[k], zb, lo);
    double g1 = edge_y(e->va[k], e->ya, e->vb[k], e->yb, hi) - edge_y(wa[k], za, wb[k], zb, hi);
    if (!gap_links(g0, g1, m->params.walkable_climb)) continue; /* MESH-023 */
    op_link l = {e->p, (uint8_t)e->i, (uint8_t)e->side, (uint8_t)w->j,
                 opm_make_ref(ns->gen, ns->index, w->q), lo, hi};
    lv_push(lv, &l);
  }
}

/* MESH-021: the external links of edge i of polygon p of tile T (code `code`): to the tiles
** of the neighbouring column, ascending by layer (MESH-024). */
static void link_portal(link_vec *lv, const op_mesh *m, const opm_col_index *ci,
                        const op_tile_desc *T, uint32_t p, uint32_t i, uint16_t code) {
  static const int dx[4] = {-1, 0, 1, 0}, dz[4] = {0, 1, 0, -1};
  const op_poly_desc *P = &T->polys[p];
  portal e;
  e.p = p, e.i = i, e.side = code & 3u;
  e.k = (e.side & 1u) ? 0 : 2; /* MESH-022: along x for sides 1, 3; along z for 0, 2 */
  e.va = &T->verts[3 * P->verts[i]];
  e.vb = &T->verts[3 * P->verts[(i + 1) % P->nverts]];
  e.a0 = e.vb[e.k] < e.va[e.k] ? e.vb[e.k] : e.va[e.k];
  e.a1 = e.vb[e.k] > e.va[e.k] ? e.vb[e.k] : e.va[e.k];
  e.ya = T->origin_y + (double)e.va[1], e.yb = T->origin_y + (double)e.vb[1];
  uint32_t n;
  const opm_col_ent *col =
      column_tiles(ci, (int64_t)T->x + dx[e.side], (int64_t)T->z + dz[e.side], &n);
  for (uint32_t c = 0; c < n; c++) link_tile(lv, m, &e, &m->slots[col[c].pos]);
}

/* MESH-020..MESH-024: all links of the polygons of the stored slot at position s, in
** canonical order; ci indexes (at least) the four columns next to the tile's. Off-mesh
** link slots of the tile take no part (MESH-025). `redo` is OPM_ALL_SIDES, or, for a tile
** whose links are current except towards some neighbouring columns, the mask (bit s) of
** the sides facing those: the links of the edges on the other sides, and the internal
** links, depend on nothing that changed and are kept from the tile's current ones (in
** canonical order, so one cursor walks them along). */
int opm_compute_links(const op_mesh *m, uint32_t s, unsigned redo, const opm_col_index *ci,
                      op_link **out, uint32_t *nout, opm_alloc *al) {
  const opm_slot *sl = &m->slots[s];
  const op_tile_desc *T = &sl->occ->view;
  const op_link *old = redo == OPM_ALL_SIDES ? NULL : sl->occ->links;
  const uint32_t nold = old ? sl->occ->nlinks : 0;
  uint32_t c = 0; /* cursor in old */
  link_vec lv = {NULL, 0, 0, 0, al, sl->occ->nlinked + 8}; /* usually no growth */
  for (uint32_t p = 0; p < T->npolys; p++) {
    const op_poly_desc *P = &T->polys[p];
    for (uint32_t i = 0; i < P->nverts; i++) {
      uint16_t code = P->neis[i];
      if (code == OP_NEI_WALL) continue;
      uint32_t c0 = c;
      while (c < nold && old[c].poly == p && old[c].edge == i) c++;
      if (old && !((code & OP_NEI_PORTAL) && ((redo >> (code & 3u)) & 1u)))
        for (uint32_t k = c0; k < c; k++) lv_push(&lv, &old[k]); /* kept */
      else if (code & OP_NEI_PORTAL) link_portal(&lv, m, ci, T, p, i, code);
      else link_internal(&lv, sl, p, i, code);
    }
  }
  if (lv.oom) {
    free(lv.v);
    return -1;
  }
  *out = lv.v;
  *nout = lv.n;
  return 0;
}

/* The index of the occupied slots whose column lies in the small box (at most 5 columns
** wide in x), found through m->order: for each x, the run of keys (x, z0..z1, any layer). */
static int col_index_near(const op_mesh *m, const int64_t box[4], opm_col_index *ci) {
  ci->n = 0;
  uint32_t cap = 0;
  for (int64_t x = box[0]; x <= box[1]; x++) { /* count first: one allocation */
    if (x < INT32_MIN || x > INT32_MAX) continue;
    int32_t z0 = box[2] < INT32_MIN ? INT32_MIN : (int32_t)box[2];
    for (uint32_t i = opm_order_lower(m, (int32_t)x, z0, INT32_MIN);
         i < m->norder && m->order[i].x == x && m->order[i].z <= box[3]; i++)
      cap++;
  }
  ci->e = opm_malloc(m->alloc, 2 * ((size_t)cap + 1) * sizeof *ci->e); /* CONF-059 */
  if (!ci->e) return -1;
  for (int64_t x = box[0]; x <= box[1]; x++) {
    if (x < INT32_MIN || x > INT32_MAX) continue;
    int32_t z0 = box[2] < INT32_MIN ? INT32_MIN : (int32_t)box[2];
    for (uint32_t i = opm_order_lower(m, (int32_t)x, z0, INT32_MIN);
         i < m->norder && m->order[i].x == x && m->order[i].z <= box[3]; i++) {
      opm_col_ent *e = &ci->e[ci->n++];
      e->x = m->order[i].x, e->z = m->order[i].z, e->layer = m->order[i].layer;
      e->pos = opm_lower_slot(m, m->order[i].slot);
      assert(e->pos < m->nslots && m->slots[e->pos].occ);
    }
  }
  ci->s = ent_sort(ci->e, ci->e + cap + 1, ci->n);
  return 0;
}

/* MESH-024: the links of the listed occupied slots (positions), all-or-nothing: everything
** is computed first, then swapped in. The listed tiles' neighbouring columns lie in box
** ({x0, x1, z0, z1}); a box at most 5 columns wide is indexed through m->order (current
** for the single operations), a wider one by a scan of the slots. The tile order is the
** caller's (mesh.c keeps it; opm_relink_all remakes it). */
int opm_relink(op_mesh *m, const uint32_t *list, uint32_t n, const int64_t box[4]) {
  opm_col_index ci;
  int near = m->order && box[0] > INT64_MIN && box[1] < INT64_MAX && box[1] - box[0] <= 4;
  int ok = (near ? col_index_near(m, box, &ci) : opm_col_index_make(m, box, &ci, m->alloc)) == 0;
  m->visits += near ? (ok ? ci.n : 0) : m->nslots;
  op_link **nl = ok ? opm_calloc(m->alloc, (size_t)n + 1, sizeof *nl) : NULL; /* CONF-059 */
  uint32_t *nc = nl ? opm_calloc(m->alloc, (size_t)n + 1, sizeof *nc) : NULL;
  int rc = (!ok || !nl || !nc) ? -1 : 0;
  for (uint32_t i = 0; rc == 0 && i < n; i++)
    rc = opm_compute_links(m, list[i], OPM_ALL_SIDES, &ci, &nl[i], &nc[i], m->alloc);
  if (rc == 0) {
    for (uint32_t i = 0; i < n; i++) {
      opm_occ *o = m->slots[list[i]].occ;
      free(o->links);
      o->links = nl[i];
      o->nlinks = nc[i];
    }
  } else {
    for (uint32_t i = 0; nl && i < n; i++) free(nl[i]);
  }
  if (ok) free(ci.e);
  free(nl);
  free(nc);
  return rc;
}

/* Every tile's links and the tile order (MESH-061), for a snapshot or mesh load. */
int opm_relink_all(op_mesh *m) {
  static const int64_t all[4] = {INT64_MIN, INT64_MAX, INT64_MIN, INT64_MAX};
  uint32_t *list = opm_malloc(m->alloc, ((size_t)m->nslots + 1) * sizeof *list); /* CONF-059 */
  opm_tkey *order = NULL;
  uint32_t n = 0, norder = 0;
  if (!list || opm_order_make(m, &order, &norder, m->alloc)) {
    free(list);
    return -1;
  }
  for (uint32_t i = 0; i < m->nslots; i++)
    if (m->slots[i].occ) list[n++] = i;
  int rc = opm_relink(m, list, n, all); /* the wide box scans the slots, not m->order */
  free(list);
  if (rc) {
    free(order);
    return rc;
  }
  free(m->order);
  m->order = order;
  m->norder = m->caporder = norder;
  return 0;
}

/* MESH-024: the tiles of the four columns next to column (x, z), and `self`; through
** m->order when the mesh has one (current for the single operations), else a scan. */
int opm_affected(const op_mesh *m, int32_t x, int32_t z, uint32_t self, uint32_t **out,
                 uint32_t *n) {
  uint32_t *list = opm_malloc(m->alloc, ((size_t)m->nslots + 1) * sizeof *list); /* CONF-059 */
  if (!list) return -1;
  uint32_t k = 0;
  if (self != UINT32_MAX) list[k++] = self;
  if (m->order) {
    static const int dx[4] = {-1, 0, 0, 1}, dz[4] = {0, -1, 1, 0};
    for (int d = 0; d < 4; d++) {
      int64_t cx = (int64_t)x + dx[d], cz = (int64_t)z + dz[d];
      if (cx < INT32_MIN || cx > INT32_MAX || cz < INT32_MIN || cz > INT32_MAX) continue;
      for (uint32_t i = opm_order_lower(m, (int32_t)cx, (int32_t)cz, INT32_MIN);
           i < m->norder && m->order[i].x == cx && m->order[i].z == cz; i++) {
        uint32_t pos = opm_lower_slot(m, m->order[i].slot);
        if (pos != self) list[k++] = pos;
      }
    }
  } else {
    for (uint32_t i = 0; i < m->nslots; i++) {
      const opm_occ *o = m->slots[i].occ;
      if (!o || i == self) continue;
      int64_t ddx = (int64_t)o->view.x - x, ddz = (int64_t)o->view.z - z;
      if ((ddx == 0 && (ddz == 1 || ddz == -1)) || (ddz == 0 && (ddx == 1 || ddx == -1)))
        list[k++] = i;
    }
  }
  *out = list;
  *n = k;
  return 0;
}
