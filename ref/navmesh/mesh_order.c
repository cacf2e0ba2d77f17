/*
** mesh_order.c -- the canonical tile order of a TiledNavMesh (spec/navmesh-mesh.md, MESH-061):
** the occupied slots' keys (x, z, layer, slot index) sorted by x, then z, then layer. Made
** wherever links are computed (mesh_links.c for the single operations and a snapshot load,
** mesh_batch.c for a batch) and read by the mesh readers (mesh_read.c). Its own file so that
** the stitching and the readers both sit above it: no call circle among the navmesh files.
** A single AddTile / RemoveTile keeps the order current by one insertion or erasure (binary
** search, then a move of the entries after it) instead of a sort of every tile, and the
** single operations find tiles and columns through it: a tiled build adding T tiles costs
** O(T log T) searches, not T sorts of T keys (issue 17: 16,384 2D tiles took 24 s).
*/
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "navmesh/mesh_internal.h"

/* Stored slots (mesh_internal.h): ascending by index, only those that hold state. The
** lookup lives here, below mesh.c and mesh_links.c, which both use it (no call circle). */
uint32_t opm_lower_slot(const op_mesh *m, uint32_t s) {
  /* the dense case first: indices strictly ascend, so slot s at position s means every
  ** position below holds an index below s, and s is the answer of the search */
  if (s < m->nslots && m->slots[s].index == s) return s;
  uint32_t lo = 0, hi = m->nslots;
  while (lo < hi) { /* binary search: entries [0, lo) are below s, [hi, n) at or above */
    uint32_t mid = lo + (hi - lo) / 2;
    if (m->slots[mid].index < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

int opm_tkey_cmp(const opm_tkey *p, int32_t x, int32_t z, int32_t layer) {
  if (p->x != x) return p->x < x ? -1 : 1; /* MESH-061: x, then z, then layer */
  if (p->z != z) return p->z < z ? -1 : 1;
  return (p->layer > layer) - (p->layer < layer);
}

static int tkey_qcmp(const void *a, const void *b) {
  const opm_tkey *q = b;
  return opm_tkey_cmp(a, q->x, q->z, q->layer);
}

int opm_order_make(const op_mesh *m, opm_tkey **out, uint32_t *n, opm_alloc *al) {
  opm_tkey *e = opm_malloc(al, ((size_t)m->nslots + 1) * sizeof *e);
  if (!e) return -1;
  uint32_t k = 0;
  for (uint32_t i = 0; i < m->nslots; i++) {
    const opm_occ *o = m->slots[i].occ;
    if (!o) continue;
    e[k].x = o->view.x, e[k].z = o->view.z, e[k].layer = o->view.layer;
    e[k++].slot = m->slots[i].index;
  }
  /* (x, z, layer) is unique in a mesh (MESH-012): a total order, whatever qsort does */
  qsort(e, k, sizeof *e, tkey_qcmp);
  *out = e;
  *n = k;
  return 0;
}


/* The first position in m->order whose key is not below (x, z, layer). */
uint32_t opm_order_lower(const op_mesh *m, int32_t x, int32_t z, int32_t layer) {
  uint32_t lo = 0, hi = m->norder;
  while (lo < hi) { /* [0, lo) below the key, [hi, norder) at or above it */
    uint32_t mid = lo + (hi - lo) / 2;
    if (opm_tkey_cmp(&m->order[mid], x, z, layer) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

int opm_order_reserve(op_mesh *m) {
  if (m->norder < m->caporder) return 0;
  uint32_t cap = m->caporder ? 2 * m->caporder : 16;
  opm_tkey *e = opm_realloc(m->alloc, m->order, (size_t)cap * sizeof *e); /* CONF-059 */
  if (!e) return -1;
  m->order = e;
  m->caporder = cap;
  return 0;
}

void opm_order_insert(op_mesh *m, int32_t x, int32_t z, int32_t layer, uint32_t slot) {
  assert(m->norder < m->caporder); /* opm_order_reserve first */
  uint32_t at = opm_order_lower(m, x, z, layer);
  assert(at == m->norder || opm_tkey_cmp(&m->order[at], x, z, layer) != 0); /* MESH-012 */
  memmove(&m->order[at + 1], &m->order[at], (size_t)(m->norder - at) * sizeof *m->order);
  m->order[at].x = x, m->order[at].z = z, m->order[at].layer = layer, m->order[at].slot = slot;
  m->norder++;
}

void opm_order_erase(op_mesh *m, int32_t x, int32_t z, int32_t layer) {
  uint32_t at = opm_order_lower(m, x, z, layer);
  assert(at < m->norder && opm_tkey_cmp(&m->order[at], x, z, layer) == 0);
  memmove(&m->order[at], &m->order[at + 1], (size_t)(m->norder - at - 1) * sizeof *m->order);
  m->norder--;
}
