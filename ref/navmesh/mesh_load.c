/*
** mesh_load.c -- TiledNavMesh.Deserialize (spec/navmesh-mesh.md section 9, MESH-067 ..
** MESH-070): a new mesh from the canonical bytes of MESH-040, the inverse of op_mesh_save.
** Every field is read and checked in byte order by the bounded reader of the snapshot
** (ref/navmesh/snapshot_internal.h: SNAP-003's short reads, SNAP-013's tile records); the
** links are recomputed (MESH-024) and must equal the links the bytes hold (MESH-069), so
** that saving the loaded mesh gives back exactly the bytes (MESH-070).
*/
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navmesh/snapshot_internal.h"

/* Where the held links of one tile record are (MESH-043): nlinks records from `at`. */
typedef struct held_links {
  size_t at;
  uint32_t n;
} held_links;

/* MESH-068: `tiles[i].nlinks` and the link records, read whole (24 bytes each); the pad
** byte is 0. */
static op_status read_links(opsn_rd *r, uint32_t i, held_links *h) {
  op_status st = opsn_read_u32(r, &h->n, "tiles[%u].nlinks", i);
  if (st) return st;
  h->at = r->off;
  for (uint32_t k = 0; k < h->n; k++) {
    if ((st = opsn_need(r, 24, "tiles[%u].links[%u]", i, k))) return st;
    const uint8_t pad = r->p[r->off + 7];
    if (pad != 0) return opsn_fail_u(r, pad, "must be 0", "tiles[%u].links[%u].pad", i, k);
    r->off += 24;
  }
  return OP_OK;
}

static op_status link_f32(opsn_rd *r, uint32_t i, uint32_t k, const char *name, const uint8_t *q,
                          float want) {
  uint32_t got = opc_rd_u32(q), w;
  memcpy(&w, &want, sizeof w);
  if (got == w) return OP_OK;
  float f;
  memcpy(&f, &got, sizeof f);
  char buf[32];
  op_format_double(buf, sizeof buf, (double)f);
  return opsn_fail(r, buf, "differs from the recomputed link", "tiles[%u].links[%u].%s", i, k,
                   name);
}

/* MESH-069: the held links of record i against the recomputed ones (o), field by field in
** record order, then the count. */
static op_status compare_links(opsn_rd *r, uint32_t i, const held_links *h, const opm_occ *o) {
  const uint32_t n = h->n < o->nlinks ? h->n : o->nlinks;
  static const char *const why = "differs from the recomputed link";
  for (uint32_t k = 0; k < n; k++) {
    const uint8_t *q = r->p + h->at + 24 * (size_t)k;
    const op_link *l = &o->links[k];
    if (opc_rd_u32(q) != l->poly)
      return opsn_fail_u(r, opc_rd_u32(q), why, "tiles[%u].links[%u].poly", i, k);
    const uint8_t want[3] = {l->edge, l->side, l->target_edge};
    static const char *const names[3] = {"edge", "side", "target_edge"};
    for (int f = 0; f < 3; f++)
      if (q[4 + f] != want[f])
        return opsn_fail_u(r, q[4 + f], why, "tiles[%u].links[%u].%s", i, k, names[f]);
    const uint64_t t = opc_rd_u64(q + 8);
    if (t != l->target) {
      char buf[20];
      snprintf(buf, sizeof buf, "%016llx", (unsigned long long)t); /* as MESH-016 */
      return opsn_fail(r, buf, why, "tiles[%u].links[%u].target", i, k);
    }
    op_status st = link_f32(r, i, k, "lo", q + 16, l->lo);
    if (!st) st = link_f32(r, i, k, "hi", q + 20, l->hi);
    if (st) return st;
  }
  if (h->n != o->nlinks)
    return opsn_fail_u(r, h->n, "differs from the number of recomputed links",
                       "tiles[%u].nlinks", i);
  return OP_OK;
}

/* MESH-067, MESH-068: the header; *p the parameters, *ntiles the record count. */
static op_status read_header(opsn_rd *r, op_mesh_params *p, uint32_t *ntiles) {
  op_status st = opsn_read_magic_version(r, "OPMS", "not a OnePath mesh serialization");
  if (!st) st = opsn_read_params_block(r, p);
  if (!st) st = opm_check_params_block(p, r->err); /* MESH-067 */
  if (!st) st = opsn_read_u32(r, ntiles, "ntiles");
  if (st) return st;
  if (*ntiles > p->max_tiles)
    return opsn_fail_u(r, *ntiles, "more tile records than max_tiles", "ntiles");
  return OP_OK;
}

/* MESH-068, MESH-069: everything after the header, into tmp (links recomputed). */
static op_status read_records(opsn_rd *r, op_mesh *tmp, uint32_t ntiles) {
  /* a record is at least 32 bytes, so record i is read whole only when i < len / 32: no
  ** more entries than that are ever written, whatever ntiles claims */
  const size_t cap = ntiles < r->n / 32 ? ntiles : r->n / 32;
  held_links *held = opm_malloc(tmp->alloc, (cap + 1) * sizeof *held); /* CONF-059 */
  if (!held) return opc_nomem(r->err, "mesh");
  op_status st = OP_OK;
  int64_t prev = -1;
  uint32_t j = 0, s = 0;
  for (uint32_t i = 0; i < ntiles && !st; i++) {
    st = opsn_read_tile_record(r, tmp, i, prev, NULL, &j, &s, "mesh"); /* SNAP-013 steps */
    if (!st) {
      assert(i < cap + 1);
      st = read_links(r, i, &held[i]);
    }
    prev = s;
  }
  if (!st && r->off != r->n) /* MESH-068: the data ends after the last record */
    st = opsn_fail_u(r, r->n, "bytes after the last tile record", "length");
  if (!st && opm_relink_all(tmp)) st = opc_nomem(r->err, "mesh"); /* MESH-024 */
  for (uint32_t i = 0; i < ntiles && !st; i++) { /* stored slots = records, in order */
    assert(tmp->slots[i].occ);
    st = compare_links(r, i, &held[i], tmp->slots[i].occ);
  }
  free(held);
  return st;
}

op_status op_mesh_load(const uint8_t *data, size_t len, op_mesh **out, op_error *err) {
  return op_mesh_load_counted(data, len, NULL, out, err);
}

/* CONF-059: the working copy counts on al (its tiles, slots, states, links, order); the
** mesh made does not keep al. */
op_status op_mesh_load_counted(const uint8_t *data, size_t len, op_alloc_count *al,
                               op_mesh **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output is required");
  *out = NULL;
  if (!data && len) return op_fail(err, OP_E_ARGUMENT, "data", "NULL", "data is required");
  static const uint8_t empty[1] = {0};
  opsn_rd r = {data ? data : empty, len, 0, err};
  op_mesh_params p;
  uint32_t ntiles;
  op_status st = read_header(&r, &p, &ntiles);
  if (st) return st;
  op_mesh tmp;
  opm_init(&tmp, &p);
  tmp.alloc = al; /* CONF-059 */
  st = read_records(&r, &tmp, ntiles);
  op_mesh *m = NULL;
  if (!st && !(m = opm_malloc(al, sizeof *m))) st = opc_nomem(err, "mesh");
  if (st) { /* MESH-070: a failed load makes no mesh */
    opm_clear(&tmp);
    return st;
  }
  *m = tmp;
  m->alloc = NULL; /* the counter was the load's */
  *out = m;
  op_clear(err);
  return OP_OK;
}
