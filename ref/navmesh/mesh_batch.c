/*
** mesh_batch.c -- opm_batch (ref/navmesh/mesh_internal.h): several adds, replaces and
** removes of tiles of a TiledNavMesh (spec/navmesh-mesh.md, MESH-011..MESH-015, MESH-024)
** as one all-or-nothing step (MESH-001), for the tile cache (spec/build3d-runtime.md,
** RT-065). It plans the final slots in a copy of the slot array, allocates every tile copy,
** polygon state, link array and the tile order (MESH-061), and only then commits.
** The copy carries a copy of the mesh's tile order, kept current change by change as AddTile
** and RemoveTile keep the mesh's, so finding a tile is a binary search and the final order
** needs no sort (a replace-only batch, the tile cache's usual one, leaves it as it was).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "navmesh/mesh_internal.h"

/* ------------------------------------------------------------ the batch */

/* A batch under way. tmp is the mesh as the changes so far leave it, in a slot array of
** its own; the occupants it shares with the mesh are not written before the commit, so the
** mesh is unchanged until then (MESH-001). */
typedef struct batch {
  op_mesh tmp;
  opm_occ **fresh, **drop; /* occupants made by the batch; occupants leaving the mesh */
  size_t nfresh, ndrop;
  uint32_t *list, nlist;   /* positions in tmp whose links are recomputed (MESH-024) */
  uint8_t *redo;           /* per entry of list: the sides to relink (opm_compute_links) */
  op_link **nl;            /* their new links, nc[i] of them */
  uint32_t *nc;
  opm_tkey *order;         /* tmp's tile order (MESH-061), kept by batch_put: the final one */
  uint32_t norder;
  int relinked;            /* batch_links ran: links and order are to be committed */
  opm_alloc *al;           /* CONF-059: &own (opm_test_fail_alloc set), else the mesh's */
  opm_alloc own;           /* the counter of this batch alone (opm_test_fail_alloc) */
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
  op_status st = opm_copy_tile(t, &copy, b->al, err); /* CONF-059: counted */
  if (st) return st;
  opm_occ *o = opm_occ_new(copy, b->al);
  if (!o) {
    op_tile_free(copy);
    return opc_nomem(err, "mesh");
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
  sl->gen = opm_next_gen(sl->gen); /* MESH-011 */
  if (sl->gen == 1) opm_erase_slot(&b->tmp, f); /* wrapped: empty at generation 1, no state */
}

/* One change against tmp: the checks of MESH-012 / MESH-015 in their order, then the
** slot it takes (MESH-011, MESH-012, MESH-015) or leaves (MESH-014). */
static op_status batch_put(batch *b, opm_change *c, op_error *err) {
  op_mesh *t = &b->tmp;
  op_tile_desc v;
  op_status st;
  c->done = OPM_NONE;
  if (c->tile && (st = opm_check_tile(t, c->tile, &v, err))) /* MESH-005, MESH-010 */
    return st;
  if (c->tile && (v.x != c->x || v.z != c->z || v.layer != c->layer))
    return opm_fail_pos(err, v.x, v.z, v.layer, "the tile is not at the change's position");
  int64_t f = opm_find(t, c->x, c->z, c->layer);
  if (!c->tile) { /* MESH-014 where a tile is, else nothing */
    if (f >= 0) {
      batch_remove(b, (uint32_t)f);
      opm_order_erase(t, c->x, c->z, c->layer); /* MESH-061 */
      c->done = OPM_REMOVED;
    }
    return OP_OK;
  }
  uint32_t s = f >= 0 ? 0 : opm_lowest_free(t); /* MESH-012: the lowest free slot */
  if (f < 0 && s >= t->params.max_tiles)
    return op_fail_i(err, OP_E_LIMIT, "max_tiles", t->params.max_tiles, "no free slot");
  opm_occ *o = NULL;
  if ((st = batch_copy(b, c->tile, &o, err))) return st;
  if (f >= 0) { /* MESH-015: same slot, next generation; the old tile and its edits leave */
    opm_slot *sl = &t->slots[f];
    b->drop[b->ndrop++] = sl->occ;
    sl->occ = o;
    sl->gen = opm_next_gen(sl->gen);
    c->done = OPM_REPLACED;
    return OP_OK;
  }
  uint32_t k = opm_lower_slot(t, s);
  if ((k == t->nslots || t->slots[k].index != s) && !opm_insert_slot(t, k, s, 1))
    return opc_nomem(err, "mesh"); /* not reached: room for every add is reserved */
  t->slots[k].occ = o; /* MESH-011: with the slot's generation */
  opm_order_insert(t, c->x, c->z, c->layer, s); /* MESH-061; room reserved by opm_batch */
  c->done = OPM_ADDED;
  return OP_OK;
}

/* The columns (x, z) the batch changed, sorted by col_cmp, and their box lo..hi (x in
** [0], z in [1]). NULL: no memory. */
static opm_col *changed_columns(batch *b, const opm_change *ch, size_t n, uint32_t *ncol,
                                int64_t lo[2], int64_t hi[2]) {
  opm_col *cols = opm_malloc(b->al, (n + 1) * sizeof *cols);
  *ncol = 0;
  lo[0] = lo[1] = INT64_MAX, hi[0] = hi[1] = INT64_MIN;
  for (size_t j = 0; cols && j < n; j++) {
    if (ch[j].done == OPM_NONE) continue;
    cols[*ncol].x = ch[j].x, cols[(*ncol)++].z = ch[j].z;
    if (ch[j].x < lo[0]) lo[0] = ch[j].x;
    if (ch[j].x > hi[0]) hi[0] = ch[j].x;
    if (ch[j].z < lo[1]) lo[1] = ch[j].z;
    if (ch[j].z > hi[1]) hi[1] = ch[j].z;
  }
  if (cols) qsort(cols, *ncol, sizeof *cols, col_cmp);
  return cols;
}

/* plan_relink for the occupied slot at position i of tmp. */
static void plan_one(batch *b, const opm_col *cols, uint32_t ncol, const int64_t lo[2],
                     const int64_t hi[2], uint32_t i) {
  const opm_occ *o = b->tmp.slots[i].occ;
  if (!o) return;
  int64_t x = o->view.x, z = o->view.z;
  unsigned redo = OPM_ALL_SIDES; /* a tile the batch put in: all its links */
  if (o->nlinks != OPM_FRESH) { /* else the sides facing a changed column */
    if (x < lo[0] - 1 || x > hi[0] + 1 || z < lo[1] - 1 || z > hi[1] + 1) return;
    if (!(redo = facing(cols, ncol, x, z))) return;
  }
  b->redo[b->nlist] = (uint8_t)redo;
  b->list[b->nlist++] = i;
}

/* The positions of tmp to relink and, per entry, the sides to redo (b->list, b->redo):
** every tile the batch put in (all sides), and every other tile with a side facing a
** changed column (those sides). Every such tile lies within one column of the changed
** columns' box: when that box is at most three columns wide in x, its tiles are found
** through tmp's order (a run of keys per x), else by a scan of the slots. The list's order
** does not matter: each entry's links are computed from tmp alone. */
static void plan_relink(batch *b, const opm_col *cols, uint32_t ncol, const int64_t lo[2],
                        const int64_t hi[2]) {
  const op_mesh *t = &b->tmp;
  if (ncol == 0) return; /* then no tile the batch put in is left in tmp either */
  if (hi[0] - lo[0] > 2 || lo[0] - 1 < INT32_MIN || hi[0] + 1 > INT32_MAX) {
    for (uint32_t i = 0; i < t->nslots; i++) plan_one(b, cols, ncol, lo, hi, i);
    return;
  }
  int32_t z0 = lo[1] - 1 < INT32_MIN ? INT32_MIN : (int32_t)(lo[1] - 1);
  for (int64_t x = lo[0] - 1; x <= hi[0] + 1; x++)
    for (uint32_t k = opm_order_lower(t, (int32_t)x, z0, INT32_MIN);
         k < t->norder && t->order[k].x == x && t->order[k].z <= hi[1] + 1; k++)
      plan_one(b, cols, ncol, lo, hi, opm_lower_slot(t, t->order[k].slot));
}

/* MESH-024 on tmp: the links of every tile the batch put in and of every tile in a column
** next to a changed one (a tile links only to the four neighbouring columns, MESH-021; the
** single operations relink exactly those, change by change). Links are a function of the
** final tiles, slots and generations, so computing them once on the final state gives the
** sequential route's links; every other tile keeps its own, and a tile next to a changed
** column recomputes only the links of its edges facing one (opm_compute_links' mask).
** The final tile order (MESH-061) is tmp's, kept by batch_put. */
static op_status batch_links(batch *b, const opm_change *ch, size_t n, op_error *err) {
  const op_mesh *t = &b->tmp;
  uint32_t ncol;
  int64_t lo[2], hi[2];
  opm_col *cols = changed_columns(b, ch, n, &ncol, lo, hi);
  /* the tiles relinked lie within 1 of the box (or in it, when fresh), so their
  ** neighbouring columns within 2 */
  const int64_t box[4] = {lo[0] - 2, hi[0] + 2, lo[1] - 2, hi[1] + 2};
  opm_col_index ci = {NULL, NULL, 0};
  if (cols) opm_col_index_make(t, box, &ci, b->al);
  b->list = ci.e ? opm_malloc(b->al, ((size_t)t->nslots + 1) * sizeof *b->list) : NULL;
  b->nl = b->list ? opm_calloc(b->al, (size_t)t->nslots + 1, sizeof *b->nl) : NULL;
  b->nc = b->nl ? opm_calloc(b->al, (size_t)t->nslots + 1, sizeof *b->nc) : NULL;
  b->redo = b->nc ? opm_malloc(b->al, (size_t)t->nslots + 1) : NULL;
  int rc = b->redo ? 0 : -1;
  if (rc == 0) plan_relink(b, cols, ncol, lo, hi);
  for (uint32_t i = 0; rc == 0 && i < b->nlist; i++)
    rc = opm_compute_links(t, b->list[i], b->redo[i], &ci, &b->nl[i], &b->nc[i], b->al);
  free(cols);
  free(ci.e);
  if (rc) return opc_nomem(err, "mesh");
  b->relinked = 1;
  return OP_OK;
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
  if (b->relinked) { /* MESH-061: the order of the final tiles */
    free(m->order);
    m->order = b->order;
    m->norder = t->norder;
    m->caporder = t->caporder;
    b->order = NULL;
  }
  for (size_t k = 0; k < b->ndrop; k++) opm_occ_free(b->drop[k]); /* MESH-031: edits dropped */
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
  for (size_t k = 0; k < b->nfresh; k++) opm_occ_free(b->fresh[k]);
  for (uint32_t i = 0; b->nl && i < b->nlist; i++) free(b->nl[i]);
  free(b->fresh);
  free(b->drop);
  free(b->list);
  free(b->redo);
  free(b->nl);
  free(b->nc);
  free(b->order);
  free(b->tmp.slots);
}

op_status opm_batch(op_mesh *m, opm_change *ch, size_t n, size_t *failed, op_error *err) {
  if (failed) *failed = SIZE_MAX;
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (n && !ch) return op_fail(err, OP_E_ARGUMENT, "changes", "NULL", "changes are required");
  batch b;
  memset(&b, 0, sizeof b);
  b.own.fail_at = m->fail_alloc_after; /* tests: this batch's own k-th allocation */
  b.al = m->fail_alloc_after ? &b.own : m->alloc; /* else the host's counter (CONF-059) */
  size_t cap = m->nslots;
  for (size_t j = 0; j < n && cap < m->params.max_tiles; j++) cap += ch[j].tile != NULL;
  if (cap > m->params.max_tiles) cap = m->params.max_tiles; /* stored slots <= max_tiles */
  b.tmp = *m; /* MESH-012: every add's new entry fits; no growth later */
  b.tmp.alloc = b.al;
  b.tmp.slots = opm_malloc(b.al, (cap ? cap : 1) * sizeof *b.tmp.slots);
  b.tmp.capslots = (uint32_t)(cap ? cap : 1);
  b.fresh = b.tmp.slots ? opm_malloc(b.al, (n + 1) * sizeof *b.fresh) : NULL;
  b.drop = b.fresh ? opm_malloc(b.al, (n + 1) * sizeof *b.drop) : NULL;
  /* tmp's own tile order (the mesh keeps its own): a copy, with room for every add; a mesh
  ** without one (none is current only in a load's working copy) gets it made */
  b.order = b.drop ? opm_malloc(b.al, (cap + 1) * sizeof *b.order) : NULL;
  op_status st = b.order ? OP_OK : opc_nomem(err, "mesh");
  if (st == OP_OK && m->nslots) memcpy(b.tmp.slots, m->slots, m->nslots * sizeof *m->slots);
  if (st == OP_OK && m->order) {
    if (m->norder) memcpy(b.order, m->order, (size_t)m->norder * sizeof *b.order);
    b.norder = m->norder;
  } else if (st == OP_OK) {
    opm_tkey *e = NULL;
    if (opm_order_make(m, &e, &b.norder, b.al)) st = opc_nomem(err, "mesh");
    else memcpy(b.order, e, (size_t)b.norder * sizeof *b.order), free(e);
  }
  b.tmp.order = b.order, b.tmp.norder = b.norder, b.tmp.caporder = (uint32_t)cap + 1;
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
