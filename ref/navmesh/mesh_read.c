/*
** mesh_read.c -- reading a TiledNavMesh (spec/navmesh-mesh.md, "Reading a mesh",
** MESH-060..MESH-066): its parameters, its tiles in canonical order (x, then z, then layer),
** a tile by position or by any polygon reference, and the links of a tile or of one polygon.
**
** The canonical tile order is op_mesh.order (mesh_internal.h): the occupied slots' keys
** (x, z, layer, slot index), sorted; kept by AddTile / RemoveTile, remade by a batch
** (batch_links) or a load (opm_relink_all) (mesh_order.c), so it never depends on slot order or on the history of the mesh (MESH-061). TileAtIndex is
** one array access, TileAt a binary search.
**
** PolyLinks: MESH-024's canonical order sorts a tile's links by polygon first, so one
** polygon's links are a contiguous run found by binary search on `poly` in the tile's own
** array (no per-polygon index is kept). TileLinks and PolyLinks hand out the mesh's own
** arrays (op_link is the mesh's link record), without copying.
*/
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "navmesh/mesh_internal.h"

/* ------------------------------------------------------------ the tile order */

/* The position in m->order of the tile at (x, z, layer), or -1. */
static int64_t order_find(const op_mesh *m, int32_t x, int32_t z, int32_t layer) {
  uint32_t lo = 0, hi = m->norder;
  while (lo < hi) { /* [0, lo) before (x, z, layer), [hi, n) at or after it */
    uint32_t mid = lo + (hi - lo) / 2;
    if (opm_tkey_cmp(&m->order[mid], x, z, layer) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo < m->norder && opm_tkey_cmp(&m->order[lo], x, z, layer) == 0 ? (int64_t)lo : -1;
}

/* ------------------------------------------------------------ helpers */

static void fill(const opm_slot *sl, op_mesh_tile *out) {
  const opm_occ *o = sl->occ;
  out->x = o->view.x, out->z = o->view.z, out->layer = o->view.layer;
  out->slot = sl->index;
  out->generation = sl->gen;
  out->base = opm_make_ref(sl->gen, sl->index, 0); /* MESH-013 */
  out->tile = o->tile;
  out->npolys = o->view.npolys;
  out->nlinks = o->nlinks;
}

static op_status need(const void *p, const char *field, op_error *err) {
  return p ? OP_OK : op_fail(err, OP_E_ARGUMENT, field, "NULL", "%s is required", field);
}

/* MESH-063, MESH-065: the slot of the tile at (x, z, layer), or argument `tile`. */
static op_status slot_at_pos(const op_mesh *m, int32_t x, int32_t z, int32_t layer,
                             const opm_slot **sl, op_error *err) {
  int64_t k = order_find(m, x, z, layer);
  if (k < 0) return opm_fail_pos(err, x, z, layer, "no tile at this position");
  *sl = opm_slot_at(m, m->order[k].slot);
  assert(*sl && (*sl)->occ && (*sl)->occ->view.x == x && (*sl)->occ->view.z == z);
  return OP_OK;
}

/* ------------------------------------------------------------ public API */

void op_mesh_get_params(const op_mesh *m, op_mesh_params *out) {
  if (m && out) *out = m->params; /* MESH-060 */
}

uint32_t op_mesh_tile_count(const op_mesh *m) { return m ? m->norder : 0; } /* MESH-060 */

/* MESH-025: the off-mesh link slots of all tiles; the queries connect slots (QRY-070) only
** when there are any. */
uint32_t op_mesh_offmesh_count(const op_mesh *m) {
  uint32_t n = 0;
  for (uint32_t i = 0; m && i < m->nslots; i++)
    if (m->slots[i].occ) n += m->slots[i].occ->view.noffmesh;
  return n;
}

op_status op_mesh_tile_at_index(const op_mesh *m, uint32_t index, op_mesh_tile *out,
                                op_error *err) {
  op_status st = need(m, "mesh", err);
  if (!st) st = need(out, "out", err);
  if (st) return st;
  memset(out, 0, sizeof *out);
  if (index >= m->norder) /* MESH-062 */
    return op_fail_i(err, OP_E_RANGE, "index", index, "index beyond the mesh's tile count");
  const opm_slot *sl = opm_slot_at(m, m->order[index].slot); /* MESH-061 */
  assert(sl && sl->occ);
  fill(sl, out);
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_tile_at(const op_mesh *m, int32_t x, int32_t z, int32_t layer, op_mesh_tile *out,
                          op_error *err) {
  const opm_slot *sl;
  op_status st = need(m, "mesh", err);
  if (!st) st = need(out, "out", err);
  if (st) return st;
  memset(out, 0, sizeof *out);
  if ((st = slot_at_pos(m, x, z, layer, &sl, err))) return st; /* MESH-063 */
  fill(sl, out);
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_tile_by_ref(const op_mesh *m, op_ref ref, op_mesh_tile *out, op_error *err) {
  const opm_slot *sl;
  uint32_t p;
  op_status st = need(m, "mesh", err);
  if (!st) st = need(out, "out", err);
  if (st) return st;
  memset(out, 0, sizeof *out);
  if ((st = opm_resolve(m, ref, &sl, &p, err))) return st; /* MESH-064: MESH-016's checks */
  fill(sl, out);
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_tile_links(const op_mesh *m, int32_t x, int32_t z, int32_t layer,
                             const op_link **links, uint32_t *n, op_error *err) {
  const opm_slot *sl;
  op_status st = need(m, "mesh", err);
  if (!st) st = need(links, "links", err);
  if (!st) st = need(n, "n", err);
  if (st) return st;
  *links = NULL;
  *n = 0;
  if ((st = slot_at_pos(m, x, z, layer, &sl, err))) return st; /* MESH-065 */
  *links = sl->occ->links; /* MESH-024's order, the mesh's own array */
  *n = sl->occ->nlinks;
  op_clear(err);
  return OP_OK;
}

/* The first of the n links l (canonical order, MESH-024: by polygon first) whose polygon
** is >= p. */
static uint32_t lower_poly(const op_link *l, uint32_t n, uint32_t p) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) { /* [0, lo) below p, [hi, n) at or above it */
    uint32_t mid = lo + (hi - lo) / 2;
    if (l[mid].poly < p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

op_status op_mesh_poly_links(const op_mesh *m, op_ref poly, const op_link **links, uint32_t *n,
                             op_error *err) {
  const opm_slot *sl;
  uint32_t p;
  op_status st = need(m, "mesh", err);
  if (!st) st = need(links, "links", err);
  if (!st) st = need(n, "n", err);
  if (st) return st;
  *links = NULL;
  *n = 0;
  if ((st = opm_resolve(m, poly, &sl, &p, err))) return st; /* MESH-066: MESH-016's checks */
  const opm_occ *o = sl->occ;
  uint32_t a = lower_poly(o->links, o->nlinks, p), b = lower_poly(o->links, o->nlinks, p + 1);
  if (b > a) { /* MESH-066: a contiguous run of the tile's canonical list */
    *links = o->links + a;
    *n = b - a;
  }
  op_clear(err);
  return OP_OK;
}
