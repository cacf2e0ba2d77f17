/*
** mesh_order.c -- the canonical tile order of a TiledNavMesh (spec/navmesh-mesh.md, MESH-061):
** the occupied slots' keys (x, z, layer, slot index) sorted by x, then z, then layer. Made
** wherever links are computed (mesh_links.c for the single operations and a snapshot load,
** mesh_batch.c for a batch) and read by the mesh readers (mesh_read.c). Its own file so that
** the stitching and the readers both sit above it: no call circle among the navmesh files.
*/
#include <stdint.h>
#include <stdlib.h>

#include "navmesh/mesh_internal.h"

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

