/*
** mesh.c -- the TiledNavMesh (spec/navmesh-mesh.md, clauses MESH-xxx): parameters,
** slots and generations, polygon references, stitching, run-time polygon edits and
** the canonical whole-mesh serialization.
**
** Tiles are used only through the public tile API (op_tile_view, op_tile_save) and
** op_tile_clone (a copy of a valid tile, ref/navmesh/tile.c). Every operation either completes or
** leaves the mesh unchanged (MESH-001).
** opm_batch (mesh_internal.h) applies several adds, replaces and removes as one
** all-or-nothing step: it plans the final slots in a copy of the slot array, allocates
** every tile copy, polygon state and link array, and only then commits (for the tile cache,
** RT-065).
**
** Stitching (MESH-020..MESH-024) is kept cheap for the tile cache's frequent swaps: each
** tile's portal edges are listed once by side when it enters the mesh (opm_occ.portals),
** a relink finds a neighbouring column's tiles through a column index sorted by
** (z, x, layer) instead of scanning every slot, and a batch recomputes, for a tile next to
** a changed column, only the links of its edges facing one. None of this changes which
** links are made or their order.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navmesh/mesh_internal.h"

/* ------------------------------------------------------------ byte writer */

int opm_buf_reserve(opm_buf *b, size_t extra) {
  if (b->oom) return -1;
  if (b->cap - b->len >= extra) return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap - b->len < extra) {
    if (cap > SIZE_MAX / 2) { b->oom = 1; return -1; }
    cap *= 2;
  }
  uint8_t *p = realloc(b->p, cap);
  if (!p) { b->oom = 1; return -1; }
  b->p = p;
  b->cap = cap;
  return 0;
}

void opm_put(opm_buf *b, const void *src, size_t n) {
  if (n == 0 || opm_buf_reserve(b, n)) return;
  memcpy(b->p + b->len, src, n);
  b->len += n;
}

void opm_put_u8(opm_buf *b, uint8_t v) { opm_put(b, &v, 1); }
void opm_put_u16(opm_buf *b, uint16_t v) {
  uint8_t q[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
  opm_put(b, q, 2);
}
void opm_put_u32(opm_buf *b, uint32_t v) {
  uint8_t q[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  opm_put(b, q, 4);
}
void opm_put_u64(opm_buf *b, uint64_t v) {
  opm_put_u32(b, (uint32_t)v);
  opm_put_u32(b, (uint32_t)(v >> 32));
}
void opm_put_f32(opm_buf *b, float v) {
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  opm_put_u32(b, u);
}
void opm_put_f64(opm_buf *b, double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  opm_put_u64(b, u);
}

/* MESH-040: the parameter block (shared by mesh and snapshot layouts). */
void opm_put_params(opm_buf *b, const op_mesh_params *p) {
  for (int i = 0; i < 3; i++) opm_put_f64(b, p->tiling.origin[i]);
  opm_put_f64(b, p->tiling.cell_size);
  opm_put_f64(b, p->tiling.cell_height);
  opm_put_u32(b, p->tiling.tile_cells);
  opm_put_u32(b, p->tiling.max_verts_per_poly);
  opm_put_f64(b, p->walkable_climb);
  opm_put_u32(b, p->max_tiles);
}

/* ------------------------------------------------------------ parameters */

static op_status check_coord(double v, const char *field, op_error *err) {
  if (!isfinite(v) || v < -2097152.0 || v > 2097152.0) /* MESH-002: |v| <= 2^21 */
    return op_fail_d(err, OP_E_RANGE, field, v, "must be finite and within +-2^21");
  return OP_OK;
}

op_status opm_check_params(const op_mesh_params *p, op_error *err) {
  static const char *const onames[3] = {"tiling.origin[0]", "tiling.origin[1]",
                                        "tiling.origin[2]"};
  op_status st;
  if (!p) return op_fail(err, OP_E_ARGUMENT, "params", "NULL", "parameters are required");
  for (int i = 0; i < 3; i++) /* MESH-002 */
    if ((st = check_coord(p->tiling.origin[i], onames[i], err))) return st;
  const double smin = 1.0 / 65536.0, smax = 65536.0; /* MESH-002: the format's ranges */
  if (!isfinite(p->tiling.cell_size) || p->tiling.cell_size < smin || p->tiling.cell_size > smax)
    return op_fail_d(err, OP_E_RANGE, "tiling.cell_size", p->tiling.cell_size,
                     "must be finite and within [2^-16, 2^16]");
  if (!isfinite(p->tiling.cell_height) || p->tiling.cell_height < smin ||
      p->tiling.cell_height > smax) /* MESH-002 */
    return op_fail_d(err, OP_E_RANGE, "tiling.cell_height", p->tiling.cell_height,
                     "must be finite and within [2^-16, 2^16]");
  if (p->tiling.tile_cells < 1 || p->tiling.tile_cells > 8192) /* MESH-002 */
    return op_fail_i(err, OP_E_RANGE, "tiling.tile_cells", p->tiling.tile_cells,
                     "must be in 1..8192");
  if (p->tiling.max_verts_per_poly < 3 || p->tiling.max_verts_per_poly > OP_MAX_VERTS_PER_POLY)
    return op_fail_i(err, OP_E_RANGE, "tiling.max_verts_per_poly", /* MESH-002 */
                     p->tiling.max_verts_per_poly, "must be in 3..12");
  if (!isfinite(p->walkable_climb) || p->walkable_climb < 0) /* MESH-003 */
    return op_fail_d(err, OP_E_RANGE, "walkable_climb", p->walkable_climb,
                     "must be finite and >= 0");
  if (p->max_tiles < 1 || p->max_tiles > OPM_MAX_SLOTS) /* MESH-004 */
    return op_fail_i(err, OP_E_RANGE, "max_tiles", p->max_tiles, "must be in 1..2^22");
  return OP_OK;
}

static int same_f64(double a, double b) { /* MESH-005: equal bit patterns */
  uint64_t ua, ub;
  memcpy(&ua, &a, sizeof ua);
  memcpy(&ub, &b, sizeof ub);
  return ua == ub;
}

op_status opm_check_tiling(const op_tiling *want, const op_tiling *got, const char *prefix,
                           op_status kind, op_error *err) {
  static const char *const names[5] = {"origin[0]", "origin[1]", "origin[2]", "cell_size",
                                       "cell_height"};
  const double wv[5] = {want->origin[0], want->origin[1], want->origin[2], want->cell_size,
                        want->cell_height};
  const double gv[5] = {got->origin[0], got->origin[1], got->origin[2], got->cell_size,
                        got->cell_height};
  char field[96];
  for (int i = 0; i < 5; i++) { /* MESH-005, in this field order */
    if (!same_f64(wv[i], gv[i])) {
      snprintf(field, sizeof field, "%s%s", prefix, names[i]);
      return op_fail_d(err, kind, field, gv[i], "differs from the mesh's tiling");
    }
  }
  if (want->tile_cells != got->tile_cells) {
    snprintf(field, sizeof field, "%stile_cells", prefix);
    return op_fail_i(err, kind, field, got->tile_cells, "differs from the mesh's tiling");
  }
  if (want->max_verts_per_poly != got->max_verts_per_poly) {
    snprintf(field, sizeof field, "%smax_verts_per_poly", prefix);
    return op_fail_i(err, kind, field, got->max_verts_per_poly,
                     "differs from the mesh's tiling");
  }
  return OP_OK;
}

/* ------------------------------------------------------------ allocation hook */

/* The allocations of one opm_batch, counted so that a test can make the k-th fail
** (op_mesh.fail_alloc_after, 0 = never). A NULL hook (the single operations) never fails. */
typedef struct opm_alloc {
  uint32_t n, fail_at;
} opm_alloc;

static int alloc_fails(opm_alloc *a) { return a && a->fail_at && ++a->n == a->fail_at; }

static void *al_malloc(opm_alloc *a, size_t n) { return alloc_fails(a) ? NULL : malloc(n); }

static void *al_calloc(opm_alloc *a, size_t n, size_t size) {
  return alloc_fails(a) ? NULL : calloc(n, size);
}

static void *al_realloc(opm_alloc *a, void *p, size_t n) {
  return alloc_fails(a) ? NULL : realloc(p, n);
}

/* ------------------------------------------------------------ state */

void opm_init(op_mesh *m, const op_mesh_params *p) {
  memset(m, 0, sizeof *m);
  m->params = *p;
}

static void occ_free(opm_occ *o) {
  if (!o) return;
  op_tile_free(o->tile);
  free(o->flags);
  free(o->area);
  free(o->links);
  free(o->portals);
  free(o);
}

void opm_clear(op_mesh *m) {
  for (uint32_t k = 0; k < m->nslots; k++) occ_free(m->slots[k].occ);
  free(m->slots);
  m->slots = NULL;
  m->nslots = m->capslots = 0;
}

/* Stored slots (mesh_internal.h): ascending by index, only those that hold state. The
** position of the first stored slot whose index is >= s (m->nslots if none). */
static uint32_t lower_slot(const op_mesh *m, uint32_t s) {
  uint32_t lo = 0, hi = m->nslots;
  while (lo < hi) { /* binary search: entries [0, lo) are below s, [hi, n) at or above */
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->slots[mid].index < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

opm_slot *opm_slot_at(const op_mesh *m, uint32_t s) {
  uint32_t k = lower_slot(m, s);
  return k < m->nslots && m->slots[k].index == s ? &m->slots[k] : NULL;
}

int opm_reserve(op_mesh *m, uint32_t n) {
  if (n <= m->capslots) return 0;
  uint32_t cap = m->capslots ? m->capslots : 8;
  while (cap < n) cap *= 2; /* n <= max_tiles <= 2^22 stored slots: no overflow */
  opm_slot *p = realloc(m->slots, (size_t)cap * sizeof *p);
  if (!p) return -1;
  m->slots = p;
  m->capslots = cap;
  return 0;
}

/* Inserts an empty stored slot (index s, generation gen) at position k, which keeps the
** indices ascending. The entry, or NULL (no memory; then nothing changed). */
static opm_slot *insert_slot(op_mesh *m, uint32_t k, uint32_t s, uint32_t gen) {
  if (opm_reserve(m, m->nslots + 1)) return NULL;
  memmove(&m->slots[k + 1], &m->slots[k], (size_t)(m->nslots - k) * sizeof *m->slots);
  m->slots[k].index = s;
  m->slots[k].gen = gen;
  m->slots[k].occ = NULL;
  m->nslots++;
  return &m->slots[k];
}

/* Removes the stored slot at position k (its occupant already freed or moved). */
static void erase_slot(op_mesh *m, uint32_t k) {
  memmove(&m->slots[k], &m->slots[k + 1], (size_t)(m->nslots - k - 1) * sizeof *m->slots);
  m->nslots--;
}

opm_slot *opm_append(op_mesh *m, uint32_t s, uint32_t gen) {
  return insert_slot(m, m->nslots, s, gen);
}

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
static int portals_make(const op_tile_desc *v, opm_occ *o, opm_alloc *al) {
  uint32_t count[4] = {0, 0, 0, 0};
  o->nlinked = 0;
  for (uint32_t q = 0; q < v->npolys; q++)
    for (uint32_t j = 0; j < v->polys[q].nverts; j++) {
      o->nlinked += v->polys[q].neis[j] != OP_NEI_WALL;
      if ((v->polys[q].neis[j] & ~3u) == OP_NEI_PORTAL) count[v->polys[q].neis[j] & 3u]++;
    }
  o->side_at[0] = 0;
  for (unsigned s = 0; s < 4; s++) o->side_at[s + 1] = o->side_at[s] + count[s];
  o->portals = al_malloc(al, ((size_t)o->side_at[4] + 1) * sizeof *o->portals);
  if (!o->portals) return -1;
  uint32_t at[4] = {o->side_at[0], o->side_at[1], o->side_at[2], o->side_at[3]};
  for (uint32_t q = 0; q < v->npolys; q++)
    for (uint32_t j = 0; j < v->polys[q].nverts; j++) {
      unsigned c = v->polys[q].neis[j];
      if ((c & ~3u) == OP_NEI_PORTAL) portal_at(v, q, j, c & 3u, &o->portals[at[c & 3u]++]);
    }
  return 0;
}

/* The state of tile t entering the mesh: t (owned from then on), its view, each polygon's
** flags and area from the tile's own (MESH-030), its portal edges, no links. NULL: no
** memory (t not taken). */
static opm_occ *occ_new(op_tile *t, opm_alloc *al) {
  op_tile_desc v;
  op_tile_view(t, &v);
  size_t n = v.npolys ? v.npolys : 1;
  opm_occ *o = al_calloc(al, 1, sizeof *o);
  uint16_t *fl = o ? al_malloc(al, n * sizeof *fl) : NULL;
  uint8_t *ar = fl ? al_malloc(al, n) : NULL;
  if (!ar || portals_make(&v, o, al)) {
    free(o);
    free(fl);
    free(ar);
    return NULL;
  }
  for (uint32_t i = 0; i < v.npolys; i++) { /* MESH-030: edits start from the tile's values */
    fl[i] = v.polys[i].flags;
    ar[i] = v.polys[i].area;
  }
  o->tile = t;
  o->view = v;
  o->flags = fl;
  o->area = ar;
  return o;
}

int opm_install(op_mesh *m, uint32_t k, uint32_t gen, op_tile *t) {
  opm_occ *o = occ_new(t, NULL);
  if (!o) return -1;
  m->slots[k].occ = o;
  m->slots[k].gen = gen;
  return 0;
}

int64_t opm_find(const op_mesh *m, int32_t x, int32_t z, int32_t layer) {
  for (uint32_t k = 0; k < m->nslots; k++) {
    const opm_occ *o = m->slots[k].occ;
    if (o && o->view.x == x && o->view.z == z && o->view.layer == layer) return k;
  }
  return -1;
}

/* MESH-012: the lowest-numbered empty slot (max_tiles or above when none is free). The
** leading stored slots that are occupied and numbered 0, 1, 2, ... without a gap are the
** only full slots below it: the first gap (a slot not stored) or the first stored empty
** slot ends them. */
static uint32_t lowest_free(const op_mesh *m) {
  uint32_t s = 0;
  while (s < m->nslots && m->slots[s].index == s && m->slots[s].occ) s++;
  return s;
}

static uint32_t next_gen(uint32_t g) { /* MESH-011 */
  return g >= OPM_GEN_MAX ? 1u : g + 1u;
}

/* ------------------------------------------------------------ stitching */

typedef struct link_vec {
  opm_link *v;
  uint32_t n, cap;
  int oom;
  opm_alloc *al; /* a batch's allocation hook, or NULL */
  uint32_t first; /* the capacity of the first allocation */
} link_vec;

static void lv_push(link_vec *lv, const opm_link *l) {
  if (lv->oom) return;
  if (lv->n == lv->cap) {
    uint32_t cap = lv->cap ? lv->cap * 2 : lv->first;
    opm_link *p = al_realloc(lv->al, lv->v, (size_t)cap * sizeof *p);
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

/* A column index: occupied slots sorted by their tile's (z, x, layer), so that the tiles of
** a column, ascending by layer (MESH-021, MESH-024), are one run found by binary search.
** (x, z, layer) is unique in a mesh (MESH-012), so the order is total. It is the order in
** which a tiled build adds its tiles (rows of z, then x, then layers), hence usually the
** slots' own order. */
typedef struct col_ent {
  int32_t x, z, layer;
  uint32_t pos; /* position in m->slots */
} col_ent;

typedef struct col_index {
  col_ent *e; /* the allocation */
  col_ent *s; /* the n entries, sorted (in e) */
  uint32_t n;
} col_index;

static int ent_less(const col_ent *p, const col_ent *q) {
  if (p->z != q->z) return p->z < q->z;
  if (p->x != q->x) return p->x < q->x;
  return p->layer < q->layer;
}

/* Sorts e[0..n) by ent_less: nothing to do when they are in order already (the usual
** case), else a bottom-up merge sort through tmp (n entries). Returns the array that holds
** the result (e or tmp). */
static col_ent *ent_sort(col_ent *e, col_ent *tmp, uint32_t n) {
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
    col_ent *t = e;
    e = tmp;
    tmp = t;
  }
  return e;
}

/* The index of the occupied slots of m whose column lies in the box x0..x1, z0..z1
** (box = {x0, x1, z0, z1}). 0, or -1 (no memory). ci->e owns the allocation (twice the
** entries: the second half is the sort's buffer), ci->s the sorted entries in it. */
static int col_index_make(const op_mesh *m, const int64_t box[4], col_index *ci,
                          opm_alloc *al) {
  ci->n = 0;
  ci->e = al_malloc(al, 2 * ((size_t)m->nslots + 1) * sizeof *ci->e);
  if (!ci->e) return -1;
  for (uint32_t i = 0; i < m->nslots; i++) {
    const opm_occ *o = m->slots[i].occ;
    if (!o || o->view.x < box[0] || o->view.x > box[1] || o->view.z < box[2] ||
        o->view.z > box[3])
      continue;
    col_ent *e = &ci->e[ci->n++];
    e->x = o->view.x, e->z = o->view.z, e->layer = o->view.layer, e->pos = i;
  }
  ci->s = ent_sort(ci->e, ci->e + m->nslots + 1, ci->n);
  return 0;
}

/* The tiles of column (x, z) in ci, ascending by layer (MESH-021, MESH-024): the first
** entry of the run; its length in *k. */
static const col_ent *column_tiles(const col_index *ci, int64_t x, int64_t z, uint32_t *k) {
  uint32_t lo = 0, hi = ci->n;
  while (lo < hi) { /* [0, lo) before column (x, z), [hi, n) at or after it */
    uint32_t mid = lo + (hi - lo) / 2;
    const col_ent *e = &ci->s[mid];
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
  opm_link l = {p, (uint8_t)i, OPM_INTERNAL, OPM_INTERNAL,
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
    if (!(absd(g0) <= m->params.walkable_climb) ||
        !(absd(g1) <= m->params.walkable_climb)) /* MESH-023 */
      continue;
    opm_link l = {e->p, (uint8_t)e->i, (uint8_t)e->side, (uint8_t)w->j,
                  opm_make_ref(ns->gen, ns->index, w->q), lo, hi};
    lv_push(lv, &l);
  }
}

/* MESH-021: the external links of edge i of polygon p of tile T (code `code`): to the tiles
** of the neighbouring column, ascending by layer (MESH-024). */
static void link_portal(link_vec *lv, const op_mesh *m, const col_index *ci,
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
  const col_ent *col =
      column_tiles(ci, (int64_t)T->x + dx[e.side], (int64_t)T->z + dz[e.side], &n);
  for (uint32_t c = 0; c < n; c++) link_tile(lv, m, &e, &m->slots[col[c].pos]);
}

/* Every side (the mask of compute_links). */
#define OPM_ALL_SIDES 0xFu

/* MESH-020..MESH-024: all links of the polygons of the stored slot at position s, in
** canonical order; ci indexes (at least) the four columns next to the tile's. Off-mesh
** link slots of the tile take no part (MESH-025). `redo` is OPM_ALL_SIDES, or, for a tile
** whose links are current except towards some neighbouring columns, the mask (bit s) of
** the sides facing those: the links of the edges on the other sides, and the internal
** links, depend on nothing that changed and are kept from the tile's current ones (in
** canonical order, so one cursor walks them along). */
static int compute_links(const op_mesh *m, uint32_t s, unsigned redo, const col_index *ci,
                         opm_link **out, uint32_t *nout, opm_alloc *al) {
  const opm_slot *sl = &m->slots[s];
  const op_tile_desc *T = &sl->occ->view;
  const opm_link *old = redo == OPM_ALL_SIDES ? NULL : sl->occ->links;
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

/* Recompute the links of the listed occupied slots (positions) all-or-nothing (MESH-024). */
static int relink(op_mesh *m, const uint32_t *list, uint32_t n) {
  static const int64_t all[4] = {INT64_MIN, INT64_MAX, INT64_MIN, INT64_MAX};
  col_index ci;
  int ok = col_index_make(m, all, &ci, NULL) == 0;
  opm_link **nl = calloc((size_t)n + 1, sizeof *nl);
  uint32_t *nc = calloc((size_t)n + 1, sizeof *nc);
  int rc = (!ok || !nl || !nc) ? -1 : 0;
  for (uint32_t i = 0; rc == 0 && i < n; i++)
    rc = compute_links(m, list[i], OPM_ALL_SIDES, &ci, &nl[i], &nc[i], NULL);
  if (rc == 0) {
    for (uint32_t i = 0; i < n; i++) {
      opm_occ *o = m->slots[list[i]].occ;
      free(o->links);
      o->links = nl[i];
      o->nlinks = nc[i];
    }
  } else if (nl) {
    for (uint32_t i = 0; i < n; i++) free(nl[i]);
  }
  free(ci.e);
  free(nl);
  free(nc);
  return rc;
}

int opm_relink_all(op_mesh *m) {
  uint32_t *list = malloc(((size_t)m->nslots + 1) * sizeof *list);
  if (!list) return -1;
  uint32_t n = 0;
  for (uint32_t i = 0; i < m->nslots; i++)
    if (m->slots[i].occ) list[n++] = i;
  int rc = relink(m, list, n);
  free(list);
  return rc;
}

/* The occupied slots (positions) whose links depend on column (x, z): the tiles of the
** four neighbouring columns, plus position `self` when it is not UINT32_MAX (MESH-024). */
static int affected(const op_mesh *m, int32_t x, int32_t z, uint32_t self, uint32_t **out,
                    uint32_t *n) {
  uint32_t *list = malloc(((size_t)m->nslots + 1) * sizeof *list);
  if (!list) return -1;
  uint32_t k = 0;
  if (self != UINT32_MAX) list[k++] = self;
  for (uint32_t i = 0; i < m->nslots; i++) {
    const opm_occ *o = m->slots[i].occ;
    if (!o || i == self) continue;
    int64_t ddx = (int64_t)o->view.x - x, ddz = (int64_t)o->view.z - z;
    if ((ddx == 0 && (ddz == 1 || ddz == -1)) || (ddz == 0 && (ddx == 1 || ddx == -1)))
      list[k++] = i;
  }
  *out = list;
  *n = k;
  return 0;
}

/* ------------------------------------------------------------ public API */

op_status op_mesh_create(const op_mesh_params *p, op_mesh **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  *out = NULL;
  op_status st = opm_check_params(p, err); /* MESH-002..MESH-004 */
  if (st) return st;
  op_mesh_params q = *p; /* MESH-002: -0.0 becomes +0.0 (as FMT-012 does for tiles) */
  for (int i = 0; i < 3; i++) q.tiling.origin[i] += 0.0;
  q.walkable_climb += 0.0;
  op_mesh *m = malloc(sizeof *m);
  if (!m) return op_fail(err, OP_E_NOMEM, "mesh", "-", "out of memory");
  opm_init(m, &q);
  *out = m;
  op_clear(err);
  return OP_OK;
}

void op_mesh_free(op_mesh *m) {
  if (!m) return;
  opm_clear(m);
  free(m);
}

static op_status nomem(op_error *err) {
  return op_fail(err, OP_E_NOMEM, "mesh", "-", "out of memory");
}

static op_status fail_pos(op_error *err, const op_tile_desc *v, const char *why) {
  char buf[64];
  snprintf(buf, sizeof buf, "%ld,%ld,%ld", (long)v->x, (long)v->z, (long)v->layer);
  return op_fail(err, OP_E_ARGUMENT, "tile", buf, "%s", why);
}

/* A private copy of t (MESH-012). t is valid (op_tile_create or op_tile_load made it), so
** it is copied as it is (op_tile_clone), not saved and re-validated. */
static op_status copy_tile(const op_tile *t, op_tile **out, op_error *err) {
  *out = op_tile_clone(t);
  return *out ? OP_OK : op_fail(err, OP_E_NOMEM, "tile", "-", "out of memory");
}

/* Checks shared by AddTile and ReplaceTile (MESH-005, MESH-010). */
static op_status check_tile(const op_mesh *m, const op_tile *t, op_tile_desc *v, op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (!t) return op_fail(err, OP_E_ARGUMENT, "tile", "NULL", "tile is required");
  op_tile_view(t, v);
  op_status st = opm_check_tiling(&m->params.tiling, &v->tiling, "tiling.", OP_E_ARGUMENT, err);
  if (st) return st;
  if (v->npolys > OPM_MAX_POLYS) /* MESH-010 */
    return op_fail_i(err, OP_E_LIMIT, "npolys", v->npolys, "more polygons than a reference holds");
  return OP_OK;
}

/* Undoes a failed AddTile into the stored slot at position k: frees the occupant
** installed there, if any, and erases the entry when AddTile inserted it (`fresh`). */
static void undo_add(op_mesh *m, uint32_t k, int fresh) {
  occ_free(m->slots[k].occ);
  m->slots[k].occ = NULL;
  if (fresh) erase_slot(m, k);
}

/* MESH-018, RT-018: a tile cache's mesh changes its tiles only through the cache, which clears
** cache_owned around its own calls; a direct call is an argument error `mesh`. */
static op_status refuse_cache_owned(const op_mesh *m, op_error *err) {
  if (m && m->cache_owned)
    return op_fail(err, OP_E_ARGUMENT, "mesh", "",
                   "the mesh belongs to a tile cache; only the cache changes its tiles");
  return OP_OK;
}

op_status op_mesh_add_tile(op_mesh *m, const op_tile *t, op_ref *tile_ref, op_error *err) {
  op_tile_desc v;
  op_status st = refuse_cache_owned(m, err); /* RT-018: before any other check */
  if (!st) st = check_tile(m, t, &v, err);
  if (st) return st;
  if (opm_find(m, v.x, v.z, v.layer) >= 0) /* MESH-012 */
    return fail_pos(err, &v, "a tile already occupies this position");
  uint32_t s = lowest_free(m); /* MESH-012: the lowest free slot */
  if (s >= m->params.max_tiles)
    return op_fail_i(err, OP_E_LIMIT, "max_tiles", m->params.max_tiles, "no free slot");
  uint32_t k = lower_slot(m, s);
  int fresh = k == m->nslots || m->slots[k].index != s; /* not stored: generation 1 */
  if (fresh && !insert_slot(m, k, s, 1)) return nomem(err); /* MESH-011 */
  op_tile *copy = NULL;
  if ((st = copy_tile(t, &copy, err))) {
    undo_add(m, k, fresh);
    return st;
  }
  if (opm_install(m, k, m->slots[k].gen, copy)) { /* MESH-011: the slot's generation */
    op_tile_free(copy);
    undo_add(m, k, fresh);
    return nomem(err);
  }
  uint32_t *list = NULL, n = 0;
  if (affected(m, v.x, v.z, k, &list, &n) || relink(m, list, n)) {
    free(list);
    undo_add(m, k, fresh);
    return nomem(err);
  }
  free(list);
  if (tile_ref) *tile_ref = opm_make_ref(m->slots[k].gen, s, 0); /* MESH-013 */
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_remove_tile(op_mesh *m, int32_t x, int32_t z, int32_t layer, op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (refuse_cache_owned(m, err)) return OP_E_ARGUMENT; /* RT-018 */
  int64_t f = opm_find(m, x, z, layer);
  if (f < 0) { /* MESH-014 */
    op_tile_desc v;
    v.x = x, v.z = z, v.layer = layer;
    return fail_pos(err, &v, "no tile at this position");
  }
  uint32_t k = (uint32_t)f;
  opm_occ *keep = m->slots[k].occ;
  m->slots[k].occ = NULL; /* tentatively empty while the neighbours are relinked */
  uint32_t *list = NULL, n = 0;
  if (affected(m, x, z, UINT32_MAX, &list, &n) || relink(m, list, n)) {
    free(list);
    m->slots[k].occ = keep;
    return nomem(err);
  }
  free(list);
  occ_free(keep);
  m->slots[k].gen = next_gen(m->slots[k].gen); /* MESH-011, MESH-014 */
  if (m->slots[k].gen == 1) erase_slot(m, k); /* wrapped: empty at generation 1, no state */
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_replace_tile(op_mesh *m, const op_tile *t, op_ref *tile_ref, op_error *err) {
  op_tile_desc v;
  op_status st = refuse_cache_owned(m, err); /* RT-018: before any other check */
  if (!st) st = check_tile(m, t, &v, err);
  if (st) return st;
  int64_t f = opm_find(m, v.x, v.z, v.layer);
  if (f < 0) return fail_pos(err, &v, "no tile at this position to replace"); /* MESH-015 */
  uint32_t k = (uint32_t)f;
  op_tile *copy = NULL;
  if ((st = copy_tile(t, &copy, err))) return st;
  opm_occ *keep = m->slots[k].occ;
  uint32_t keep_gen = m->slots[k].gen;
  m->slots[k].occ = NULL;
  if (opm_install(m, k, next_gen(keep_gen), copy)) { /* MESH-011, MESH-015 */
    op_tile_free(copy);
    m->slots[k].occ = keep;
    return nomem(err);
  }
  uint32_t *list = NULL, n = 0;
  if (affected(m, v.x, v.z, k, &list, &n) || relink(m, list, n)) {
    free(list);
    occ_free(m->slots[k].occ);
    m->slots[k].occ = keep;
    m->slots[k].gen = keep_gen;
    return nomem(err);
  }
  free(list);
  occ_free(keep); /* MESH-031: the old tile's edits are dropped with it */
  if (tile_ref) *tile_ref = opm_make_ref(m->slots[k].gen, m->slots[k].index, 0);
  op_clear(err);
  return OP_OK;
}

/* ------------------------------------------------------------ batch (all or nothing) */

/* A batch under way. tmp is the mesh as the changes so far leave it, in a slot array of
** its own; the occupants it shares with the mesh are not written before the commit, so the
** mesh is unchanged until then (MESH-001). */
typedef struct batch {
  op_mesh tmp;
  opm_occ **fresh, **drop; /* occupants made by the batch; occupants leaving the mesh */
  size_t nfresh, ndrop;
  uint32_t *list, nlist;   /* positions in tmp whose links are recomputed (MESH-024) */
  uint8_t *redo;           /* per entry of list: the sides to relink (compute_links) */
  opm_link **nl;           /* their new links, nc[i] of them */
  uint32_t *nc;
  opm_alloc al;
} batch;

typedef struct opm_col {
  int32_t x, z;
} opm_col;

static int col_cmp(const void *a, const void *b) {
  const opm_col *p = a, *q = b;
  if (p->x != q->x) return p->x < q->x ? -1 : 1;
  return (p->z > q->z) - (p->z < q->z);
}

/* 1 when column (x, z) is among the n columns c, sorted by col_cmp (binary search). */
static int col_has(const opm_col *c, uint32_t n, int64_t x, int64_t z) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) { /* [0, lo) before (x, z), [hi, n) at or after it */
    uint32_t mid = lo + (hi - lo) / 2;
    if (c[mid].x < x || (c[mid].x == x && c[mid].z < z)) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && c[lo].x == x && c[lo].z == z;
}

/* The sides (bit s, MESH-021) of a tile at column (x, z) that face one of the n sorted
** columns c. */
static unsigned facing(const opm_col *c, uint32_t n, int64_t x, int64_t z) {
  return (unsigned)col_has(c, n, x - 1, z) | (unsigned)col_has(c, n, x, z + 1) << 1 |
         (unsigned)col_has(c, n, x + 1, z) << 2 | (unsigned)col_has(c, n, x, z - 1) << 3;
}

/* nlinks of an occupant the batch made, until the commit gives it its links. */
#define OPM_FRESH UINT32_MAX

/* A private copy of t (MESH-012) with its polygon state (MESH-030), owned by the batch. */
static op_status batch_copy(batch *b, const op_tile *t, opm_occ **out, op_error *err) {
  op_tile *copy = NULL;
  if (alloc_fails(&b->al)) return nomem(err); /* the copy counts as one allocation */
  op_status st = copy_tile(t, &copy, err);
  if (st) return st;
  opm_occ *o = occ_new(copy, &b->al);
  if (!o) {
    op_tile_free(copy);
    return nomem(err);
  }
  o->nlinks = OPM_FRESH; /* no links yet: batch_links computes them */
  b->fresh[b->nfresh++] = o;
  *out = o;
  return OP_OK;
}

/* MESH-014 on tmp: the slot at position f becomes empty and its generation grows. */
static void batch_remove(batch *b, uint32_t f) {
  opm_slot *sl = &b->tmp.slots[f];
  b->drop[b->ndrop++] = sl->occ;
  sl->occ = NULL;
  sl->gen = next_gen(sl->gen); /* MESH-011 */
  if (sl->gen == 1) erase_slot(&b->tmp, f); /* wrapped: empty at generation 1, no state */
}

/* One change against tmp: the checks of MESH-012 / MESH-015 in their order, then the
** slot it takes (MESH-011, MESH-012, MESH-015) or leaves (MESH-014). */
static op_status batch_put(batch *b, opm_change *c, op_error *err) {
  op_mesh *t = &b->tmp;
  op_tile_desc v;
  op_status st;
  c->done = OPM_NONE;
  if (c->tile && (st = check_tile(t, c->tile, &v, err))) return st; /* MESH-005, MESH-010 */
  if (c->tile && (v.x != c->x || v.z != c->z || v.layer != c->layer))
    return fail_pos(err, &v, "the tile is not at the change's position");
  int64_t f = opm_find(t, c->x, c->z, c->layer);
  if (!c->tile) { /* MESH-014 where a tile is, else nothing */
    if (f >= 0) {
      batch_remove(b, (uint32_t)f);
      c->done = OPM_REMOVED;
    }
    return OP_OK;
  }
  uint32_t s = f >= 0 ? 0 : lowest_free(t); /* MESH-012: the lowest free slot */
  if (f < 0 && s >= t->params.max_tiles)
    return op_fail_i(err, OP_E_LIMIT, "max_tiles", t->params.max_tiles, "no free slot");
  opm_occ *o = NULL;
  if ((st = batch_copy(b, c->tile, &o, err))) return st;
  if (f >= 0) { /* MESH-015: same slot, next generation; the old tile and its edits leave */
    opm_slot *sl = &t->slots[f];
    b->drop[b->ndrop++] = sl->occ;
    sl->occ = o;
    sl->gen = next_gen(sl->gen);
    c->done = OPM_REPLACED;
    return OP_OK;
  }
  uint32_t k = lower_slot(t, s);
  if ((k == t->nslots || t->slots[k].index != s) && !insert_slot(t, k, s, 1))
    return nomem(err); /* not reached: room for every add is reserved */
  t->slots[k].occ = o; /* MESH-011: with the slot's generation */
  c->done = OPM_ADDED;
  return OP_OK;
}

/* MESH-024 on tmp: the links of every tile the batch put in and of every tile in a column
** next to a changed one (a tile links only to the four neighbouring columns, MESH-021; the
** single operations relink exactly those, change by change). Links are a function of the
** final tiles, slots and generations, so computing them once on the final state gives the
** sequential route's links; every other tile keeps its own, and a tile next to a changed
** column recomputes only the links of its edges facing one (compute_links' mask). */
static op_status batch_links(batch *b, const opm_change *ch, size_t n, op_error *err) {
  const op_mesh *t = &b->tmp;
  opm_col *cols = al_malloc(&b->al, (n + 1) * sizeof *cols);
  uint32_t ncol = 0;
  int64_t lo[2] = {INT64_MAX, INT64_MAX}, hi[2] = {INT64_MIN, INT64_MIN}; /* their box */
  for (size_t j = 0; cols && j < n; j++) {
    if (ch[j].done == OPM_NONE) continue;
    cols[ncol].x = ch[j].x, cols[ncol++].z = ch[j].z;
    if (ch[j].x < lo[0]) lo[0] = ch[j].x;
    if (ch[j].x > hi[0]) hi[0] = ch[j].x;
    if (ch[j].z < lo[1]) lo[1] = ch[j].z;
    if (ch[j].z > hi[1]) hi[1] = ch[j].z;
  }
  /* the tiles relinked lie within 1 of the box (or in it, when fresh), so their
  ** neighbouring columns within 2 */
  const int64_t box[4] = {lo[0] - 2, hi[0] + 2, lo[1] - 2, hi[1] + 2};
  col_index ci = {NULL, NULL, 0};
  if (cols) col_index_make(t, box, &ci, &b->al);
  b->list = ci.e ? al_malloc(&b->al, ((size_t)t->nslots + 1) * sizeof *b->list) : NULL;
  b->nl = b->list ? al_calloc(&b->al, (size_t)t->nslots + 1, sizeof *b->nl) : NULL;
  b->nc = b->nl ? al_calloc(&b->al, (size_t)t->nslots + 1, sizeof *b->nc) : NULL;
  b->redo = b->nc ? al_malloc(&b->al, (size_t)t->nslots + 1) : NULL;
  int rc = b->redo ? 0 : -1;
  if (rc == 0) qsort(cols, ncol, sizeof *cols, col_cmp);
  for (uint32_t i = 0; rc == 0 && i < t->nslots; i++) {
    const opm_occ *o = t->slots[i].occ;
    if (!o) continue;
    int64_t x = o->view.x, z = o->view.z;
    unsigned redo = OPM_ALL_SIDES; /* a tile the batch put in: all its links */
    if (o->nlinks != OPM_FRESH) { /* else the sides facing a changed column */
      if (x < lo[0] - 1 || x > hi[0] + 1 || z < lo[1] - 1 || z > hi[1] + 1) continue;
      if (!(redo = facing(cols, ncol, x, z))) continue;
    }
    b->redo[b->nlist] = (uint8_t)redo;
    b->list[b->nlist++] = i;
  }
  for (uint32_t i = 0; rc == 0 && i < b->nlist; i++)
    rc = compute_links(t, b->list[i], b->redo[i], &ci, &b->nl[i], &b->nc[i], &b->al);
  free(cols);
  free(ci.e);
  return rc ? nomem(err) : OP_OK;
}

/* No failure point: the new links, the departures, then tmp's slots become the mesh's. */
static void batch_commit(op_mesh *m, batch *b) {
  op_mesh *t = &b->tmp;
  for (uint32_t i = 0; i < b->nlist; i++) {
    opm_occ *o = t->slots[b->list[i]].occ;
    free(o->links);
    o->links = b->nl[i];
    o->nlinks = b->nc[i];
    b->nl[i] = NULL;
  }
  for (size_t k = 0; k < b->ndrop; k++) occ_free(b->drop[k]); /* MESH-031: edits dropped */
  b->nfresh = 0; /* the mesh owns them now */
  if (t->nslots <= m->capslots) { /* keep the mesh's array (and capacity) */
    if (t->nslots) memcpy(m->slots, t->slots, (size_t)t->nslots * sizeof *t->slots);
    free(t->slots);
  } else {
    free(m->slots);
    m->slots = t->slots;
    m->capslots = t->capslots;
  }
  m->nslots = t->nslots;
  t->slots = NULL;
}

static void batch_free(batch *b) {
  for (size_t k = 0; k < b->nfresh; k++) occ_free(b->fresh[k]);
  for (uint32_t i = 0; b->nl && i < b->nlist; i++) free(b->nl[i]);
  free(b->fresh);
  free(b->drop);
  free(b->list);
  free(b->redo);
  free(b->nl);
  free(b->nc);
  free(b->tmp.slots);
}

op_status opm_batch(op_mesh *m, opm_change *ch, size_t n, size_t *failed, op_error *err) {
  if (failed) *failed = SIZE_MAX;
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (n && !ch) return op_fail(err, OP_E_ARGUMENT, "changes", "NULL", "changes are required");
  batch b;
  memset(&b, 0, sizeof b);
  b.al.fail_at = m->fail_alloc_after;
  size_t cap = m->nslots;
  for (size_t j = 0; j < n && cap < m->params.max_tiles; j++) cap += ch[j].tile != NULL;
  if (cap > m->params.max_tiles) cap = m->params.max_tiles; /* stored slots <= max_tiles */
  b.tmp = *m; /* MESH-012: every add's new entry fits; no growth later */
  b.tmp.slots = al_malloc(&b.al, (cap ? cap : 1) * sizeof *b.tmp.slots);
  b.tmp.capslots = (uint32_t)(cap ? cap : 1);
  b.fresh = b.tmp.slots ? al_malloc(&b.al, (n + 1) * sizeof *b.fresh) : NULL;
  b.drop = b.fresh ? al_malloc(&b.al, (n + 1) * sizeof *b.drop) : NULL;
  op_status st = b.drop ? OP_OK : nomem(err);
  if (st == OP_OK && m->nslots) memcpy(b.tmp.slots, m->slots, m->nslots * sizeof *m->slots);
  for (size_t j = 0; st == OP_OK && j < n; j++)
    if ((st = batch_put(&b, &ch[j], err)) && failed) *failed = j;
  if (st == OP_OK && (b.nfresh || b.ndrop)) st = batch_links(&b, ch, n, err);
  if (st == OP_OK) batch_commit(m, &b);
  batch_free(&b);
  if (st == OP_OK) op_clear(err);
  return st;
}

void opm_test_fail_alloc(op_mesh *m, uint32_t k) {
  if (m) m->fail_alloc_after = k;
}

/* MESH-010, MESH-016: decode and check a polygon reference; its tile state and polygon. */
static op_status resolve(const op_mesh *m, op_ref r, opm_occ **occ, uint32_t *poly,
                         op_error *err) {
  char buf[24];
  snprintf(buf, sizeof buf, "%016llx", (unsigned long long)r);
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  uint32_t gen = (uint32_t)(r >> (OPM_SLOT_BITS + OPM_POLY_BITS));
  uint32_t s = (uint32_t)(r >> OPM_POLY_BITS) & (OPM_MAX_SLOTS - 1u);
  uint32_t p = (uint32_t)r & (OPM_MAX_POLYS - 1u);
  if (r == 0) return op_fail(err, OP_E_ARGUMENT, "ref", buf, "null reference");
  const opm_slot *sl = opm_slot_at(m, s);
  if (!sl || !sl->occ)
    return op_fail(err, OP_E_ARGUMENT, "ref", buf, "no tile in the reference's slot");
  if (sl->gen != gen)
    return op_fail(err, OP_E_ARGUMENT, "ref", buf, "stale reference (generation differs)");
  if (p >= sl->occ->view.npolys)
    return op_fail(err, OP_E_ARGUMENT, "ref", buf, "polygon index beyond the tile's polygons");
  *occ = sl->occ;
  *poly = p;
  return OP_OK;
}

op_status op_mesh_set_poly_flags(op_mesh *m, op_ref poly, uint16_t flags, op_error *err) {
  opm_occ *o;
  uint32_t p;
  op_status st = resolve(m, poly, &o, &p, err);
  if (st) return st;
  o->flags[p] = flags; /* MESH-030 */
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_set_poly_area(op_mesh *m, op_ref poly, uint8_t area, op_error *err) {
  opm_occ *o;
  uint32_t p;
  op_status st = resolve(m, poly, &o, &p, err);
  if (st) return st;
  if (area > OPM_AREA_MAX) /* MESH-030 */
    return op_fail_i(err, OP_E_RANGE, "area", area, "area id out of range");
  o->area[p] = area;
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_get_poly(const op_mesh *m, op_ref poly, uint16_t *flags, uint8_t *area,
                           op_error *err) {
  opm_occ *o;
  uint32_t p;
  op_status st = resolve(m, poly, &o, &p, err);
  if (st) return st;
  if (flags) *flags = o->flags[p];
  if (area) *area = o->area[p];
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_poly_ref(const op_mesh *m, int32_t x, int32_t z, int32_t layer,
                           uint32_t poly, op_ref *out, op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  int64_t f = opm_find(m, x, z, layer);
  if (f < 0) { /* MESH-017 */
    op_tile_desc v;
    v.x = x, v.z = z, v.layer = layer;
    return fail_pos(err, &v, "no tile at this position");
  }
  const opm_slot *s = &m->slots[f];
  if (poly >= s->occ->view.npolys)
    return op_fail_i(err, OP_E_RANGE, "poly", poly, "polygon index beyond the tile's polygons");
  if (out) *out = opm_make_ref(s->gen, s->index, poly); /* MESH-010, MESH-017 */
  op_clear(err);
  return OP_OK;
}

/* MESH-040..MESH-043: the canonical whole-mesh serialization. */
op_status op_mesh_save(const op_mesh *m, op_bytes *out, op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output is required");
  opm_buf b = {NULL, 0, 0, 0};
  uint32_t count = 0;
  for (uint32_t i = 0; i < m->nslots; i++) count += m->slots[i].occ != NULL;
  opm_put(&b, "OPMS", 4); /* MESH-040 */
  opm_put_u32(&b, 1);
  opm_put_params(&b, &m->params);
  opm_put_u32(&b, count);
  for (uint32_t i = 0; i < m->nslots; i++) { /* MESH-041: ascending slot order */
    const opm_occ *s = m->slots[i].occ;
    if (!s) continue;
    op_bytes tb = {NULL, 0};
    op_status st = op_tile_save(s->tile, &tb, err);
    if (st) {
      free(b.p);
      return st;
    }
    opm_put_u32(&b, m->slots[i].index);
    opm_put_u32(&b, m->slots[i].gen);
    opm_put_u32(&b, (uint32_t)s->view.x);
    opm_put_u32(&b, (uint32_t)s->view.z);
    opm_put_u32(&b, (uint32_t)s->view.layer);
    opm_put_u32(&b, (uint32_t)tb.len);
    opm_put(&b, tb.data, tb.len);
    op_bytes_free(&tb);
    uint32_t nedits = 0; /* MESH-042 */
    for (uint32_t p = 0; p < s->view.npolys; p++)
      nedits += s->flags[p] != s->view.polys[p].flags || s->area[p] != s->view.polys[p].area;
    opm_put_u32(&b, nedits);
    for (uint32_t p = 0; p < s->view.npolys; p++) {
      if (s->flags[p] == s->view.polys[p].flags && s->area[p] == s->view.polys[p].area) continue;
      opm_put_u32(&b, p);
      opm_put_u16(&b, s->flags[p]);
      opm_put_u8(&b, s->area[p]);
      opm_put_u8(&b, 0);
    }
    opm_put_u32(&b, s->nlinks); /* MESH-043 */
    for (uint32_t k = 0; k < s->nlinks; k++) {
      const opm_link *l = &s->links[k];
      opm_put_u32(&b, l->poly);
      opm_put_u8(&b, l->edge);
      opm_put_u8(&b, l->side);
      opm_put_u8(&b, l->tedge);
      opm_put_u8(&b, 0);
      opm_put_u64(&b, l->target);
      opm_put_f32(&b, l->lo);
      opm_put_f32(&b, l->hi);
    }
  }
  if (b.oom) {
    free(b.p);
    return nomem(err);
  }
  out->data = b.p;
  out->len = b.len;
  op_clear(err);
  return OP_OK;
}
