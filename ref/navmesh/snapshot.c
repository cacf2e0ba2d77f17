/*
** snapshot.c -- mesh snapshots (spec/navmesh-snapshot.md, clauses SNAP-xxx): the mesh's
** tiles and dynamic state (slots, generations, polygon edits) as bytes, and the
** validating restore that swaps the state in only when everything is valid.
** Snapshots are canonical (SNAP-009): every rule below admits one encoding only.
** The header, section framing and SLOT payload are shared with the tile cache snapshot
** (ref/build3d/runtime/tilecache_snapshot.c) through ref/navmesh/snapshot_internal.h.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navmesh/snapshot_internal.h"

/* ------------------------------------------------------------ save */

/* SNAP-002 */
void opsn_put_header(opc_buf *b, const op_mesh_params *p, uint32_t nsections) {
  opc_put(b, "OPSN", 4);
  opc_put_u32(b, OPSN_VERSION);
  opm_put_params(b, p);
  opc_put_u32(b, nsections);
}

/* SNAP-005 */
size_t opsn_section_begin(opc_buf *b, uint32_t tag) {
  opc_put_u32(b, tag);
  opc_put_u32(b, OPSN_SECTION_VERSION);
  size_t at = b->len;
  opc_put_u64(b, 0); /* patched by opsn_section_end */
  return at;
}

void opsn_section_end(opc_buf *b, size_t len_at) {
  if (b->oom) return;
  uint64_t plen = b->len - (len_at + 8);
  for (int k = 0; k < 8; k++) b->p[len_at + k] = (uint8_t)(plen >> (8 * k));
}

op_status opsn_finish(opc_buf *b, op_bytes *out, op_error *err) {
  if (b->oom) {
    free(b->p);
    return opc_nomem(err, "snapshot");
  }
  out->data = b->p;
  out->len = b->len;
  op_clear(err);
  return OP_OK;
}

/* SNAP-010, SNAP-011 */
op_status opsn_put_slots(opc_buf *b, const op_mesh *m, op_error *err) {
  uint32_t nfree = 0, ntiles = 0;
  for (uint32_t i = 0; i < m->nslots; i++) { /* the stored slots, ascending by index */
    nfree += !m->slots[i].occ && m->slots[i].gen != 1;
    ntiles += m->slots[i].occ != NULL;
  }
  opc_put_u32(b, nfree); /* empty slots of generation > 1, ascending */
  for (uint32_t i = 0; i < m->nslots; i++) {
    if (m->slots[i].occ || m->slots[i].gen == 1) continue;
    opc_put_u32(b, m->slots[i].index);
    opc_put_u32(b, m->slots[i].gen);
  }
  opc_put_u32(b, ntiles); /* occupied slots, ascending */
  for (uint32_t i = 0; i < m->nslots; i++) {
    if (!m->slots[i].occ) continue;
    op_status st = opm_put_tile_record(b, &m->slots[i], err); /* without links (SNAP-001) */
    if (st) return st;
  }
  return OP_OK;
}

op_status op_mesh_snapshot_save(const op_mesh *m, op_bytes *out, op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output is required");
  opc_buf b = {NULL, 0, 0, 0};
  opsn_put_header(&b, &m->params, 1); /* one section (SNAP-004) */
  size_t at = opsn_section_begin(&b, OPSN_TAG_SLOT);
  op_status st = opsn_put_slots(&b, m, err);
  if (st) {
    free(b.p);
    return st;
  }
  opsn_section_end(&b, at);
  return opsn_finish(&b, out, err);
}

/* ------------------------------------------------------------ reader */

static op_status vfail(opsn_rd *r, const char *value, const char *why, const char *fmt,
                       va_list ap) {
  char field[96];
  vsnprintf(field, sizeof field, fmt, ap);
  return op_fail(r->err, OP_E_FORMAT, field, value, "%s", why);
}

op_status opsn_fail(opsn_rd *r, const char *value, const char *why, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  op_status st = vfail(r, value, why, fmt, ap);
  va_end(ap);
  return st;
}

op_status opsn_fail_u(opsn_rd *r, uint64_t v, const char *why, const char *fmt, ...) {
  char value[32];
  snprintf(value, sizeof value, "%llu", (unsigned long long)v);
  va_list ap;
  va_start(ap, fmt);
  op_status st = vfail(r, value, why, fmt, ap);
  va_end(ap);
  return st;
}

/* SNAP-003: reading past the end is a format error naming the field being read. */
static op_status vneed(opsn_rd *r, size_t k, const char *fmt, va_list ap) {
  if (r->n - r->off >= k) return OP_OK;
  char value[32];
  snprintf(value, sizeof value, "%zu", r->n);
  return vfail(r, value, "data ends inside this field", fmt, ap);
}

op_status opsn_need(opsn_rd *r, size_t k, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  op_status st = vneed(r, k, fmt, ap);
  va_end(ap);
  return st;
}

op_status opsn_read_u32(opsn_rd *r, uint32_t *v, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  op_status st = vneed(r, 4, fmt, ap);
  va_end(ap);
  if (st) return st;
  *v = opc_rd_u32(r->p + r->off);
  r->off += 4;
  return OP_OK;
}

/* SNAP-003: the 60-byte parameter block `params` (MESH-040's bytes 8 .. 67), read whole. */
op_status opsn_read_params_block(opsn_rd *r, op_mesh_params *got) {
  op_status st = opsn_need(r, 60, "params");
  if (st) return st;
  const uint8_t *q = r->p + r->off;
  for (int i = 0; i < 3; i++) got->tiling.origin[i] = opc_rd_f64(q + 8 * i);
  got->tiling.cell_size = opc_rd_f64(q + 24);
  got->tiling.cell_height = opc_rd_f64(q + 32);
  got->tiling.tile_cells = opc_rd_u32(q + 40);
  got->tiling.max_verts_per_poly = opc_rd_u32(q + 44);
  got->walkable_climb = opc_rd_f64(q + 48);
  got->max_tiles = opc_rd_u32(q + 56);
  r->off += 60;
  return OP_OK;
}

/* SNAP-006: the snapshot's parameters equal the mesh's. */
static op_status read_params(opsn_rd *r, const op_mesh_params *want) {
  op_mesh_params got;
  op_status st = opsn_read_params_block(r, &got);
  if (st) return st;
  if ((st = opm_check_tiling(&want->tiling, &got.tiling, "params.tiling.", OP_E_FORMAT, r->err)))
    return st;
  uint64_t wc, gc;
  memcpy(&wc, &want->walkable_climb, sizeof wc);
  memcpy(&gc, &got.walkable_climb, sizeof gc);
  if (gc != wc)
    return op_fail_d(r->err, OP_E_FORMAT, "params.walkable_climb", got.walkable_climb,
                     "differs from the mesh's walkable_climb");
  if (got.max_tiles != want->max_tiles)
    return op_fail_i(r->err, OP_E_FORMAT, "params.max_tiles", got.max_tiles,
                     "differs from the mesh's max_tiles");
  return OP_OK;
}

/* SNAP-015 (and MESH-067 with magic "OPMS"): the magic, then the version 1. */
op_status opsn_read_magic_version(opsn_rd *r, const char *magic, const char *what) {
  op_status st = opsn_need(r, 4, "magic");
  if (st) return st;
  if (memcmp(r->p + r->off, magic, 4) != 0) {
    const uint8_t *q = r->p + r->off;
    char hex[16];
    snprintf(hex, sizeof hex, "%02x%02x%02x%02x", q[0], q[1], q[2], q[3]);
    return opsn_fail(r, hex, what, "magic");
  }
  r->off += 4;
  uint32_t ver;
  if ((st = opsn_read_u32(r, &ver, "version"))) return st;
  if (ver != OPSN_VERSION) return opsn_fail_u(r, ver, "unsupported version", "version");
  return OP_OK;
}

/* SNAP-015: magic, version, params, nsections. */
op_status opsn_read_header(opsn_rd *r, const op_mesh_params *want, uint32_t *nsec) {
  op_status st = opsn_read_magic_version(r, "OPSN", "not a OnePath mesh snapshot");
  if (st) return st;
  if ((st = read_params(r, want))) return st;
  if ((st = opsn_read_u32(r, nsec, "nsections"))) return st;
  if (*nsec < 1 || *nsec > OPSN_MAX_SECTIONS) /* SNAP-004 */
    return opsn_fail_u(r, *nsec, "section count must be in 1..16", "nsections");
  return OP_OK;
}

op_status opsn_read_tag(opsn_rd *r, uint32_t k, uint32_t *tag) {
  return opsn_read_u32(r, tag, "sections[%u].tag", k);
}

/* SNAP-005, SNAP-015: version, then length. */
op_status opsn_open_section(opsn_rd *r, uint32_t k, opsn_rd *sub) {
  uint32_t sver;
  op_status st = opsn_read_u32(r, &sver, "sections[%u].version", k);
  if (st) return st;
  if (sver != OPSN_SECTION_VERSION)
    return opsn_fail_u(r, sver, "unsupported section version", "sections[%u].version", k);
  if ((st = opsn_need(r, 8, "sections[%u].length", k))) return st;
  uint64_t plen = opc_rd_u64(r->p + r->off);
  r->off += 8;
  if (plen > r->n - r->off)
    return opsn_fail_u(r, plen, "section runs past the end of the data", "sections[%u].length", k);
  sub->p = r->p;
  sub->n = r->off + (size_t)plen;
  sub->off = r->off;
  sub->err = r->err;
  return OP_OK;
}

op_status opsn_close_section(opsn_rd *r, const opsn_rd *sub, uint32_t k) {
  if (sub->off != sub->n)
    return opsn_fail_u(r, sub->n - r->off, "section length differs from its content",
                       "sections[%u].length", k);
  r->off = sub->off;
  return OP_OK;
}

op_status opsn_check_end(opsn_rd *r) {
  if (r->off != r->n) /* SNAP-004 */
    return opsn_fail_u(r, r->n, "bytes after the last section", "length");
  return OP_OK;
}

/* ------------------------------------------------------------ SLOT payload */

/* SNAP-013 steps 2-4: tile record i's position and tile, checked against tmp; the tile
** becomes the caller's (*out). */
static op_status read_tile(opsn_rd *r, const op_mesh *tmp, uint32_t i, op_tile **out,
                           const char *nomem) {
  op_status st;
  uint32_t pos[3], tlen;
  static const char *const pn[3] = {"x", "z", "layer"};
  for (int k = 0; k < 3; k++)
    if ((st = opsn_read_u32(r, &pos[k], "tiles[%u].%s", i, pn[k]))) return st;
  if ((st = opsn_read_u32(r, &tlen, "tiles[%u].tile_length", i))) return st;
  if ((st = opsn_need(r, tlen, "tiles[%u].tile", i))) return st;
  op_tile *t = NULL;
  op_error te;
  op_clear(&te);
  st = opt_load_counted(r->p + r->off, tlen, tmp->alloc, &t, &te); /* CONF-059 */
  if (st) { /* SNAP-013: the tile's own error, inside this record */
    if (st == OP_E_NOMEM) return opc_nomem(r->err, nomem);
    return opsn_fail(r, te.value, te.message, "tiles[%u].tile.%s", i, te.field);
  }
  r->off += tlen;
  op_tile_desc v;
  op_tile_view(t, &v);
  char prefix[48];
  snprintf(prefix, sizeof prefix, "tiles[%u].tile.tiling.", i);
  if ((st = opm_check_tiling(&tmp->params.tiling, &v.tiling, prefix, OP_E_FORMAT, r->err))) {
    op_tile_free(t);
    return st;
  }
  const int32_t tv[3] = {v.x, v.z, v.layer};
  for (int k = 0; k < 3; k++) {
    if ((int32_t)pos[k] != tv[k]) {
      op_tile_free(t);
      char buf[16];
      snprintf(buf, sizeof buf, "%ld", (long)(int32_t)pos[k]);
      return opsn_fail(r, buf, "differs from the tile's own coordinate", "tiles[%u].%s", i, pn[k]);
    }
  }
  if (v.npolys > OPM_MAX_POLYS) {
    op_tile_free(t);
    return opsn_fail_u(r, v.npolys, "more polygons than a reference holds",
                       "tiles[%u].tile.npolys", i);
  }
  if (opm_find(tmp, v.x, v.z, v.layer) >= 0) { /* SNAP-014 */
    op_tile_free(t);
    char buf[64];
    snprintf(buf, sizeof buf, "%ld,%ld,%ld", (long)v.x, (long)v.z, (long)v.layer);
    return opsn_fail(r, buf, "two tile records at the same position", "tiles[%u].x", i);
  }
  *out = t;
  return OP_OK;
}

/* SNAP-013 step 5: the edits of tile record i (its tile state o). */
static op_status read_edits(opsn_rd *r, opm_occ *o, uint32_t i) {
  uint32_t n;
  op_status st = opsn_read_u32(r, &n, "tiles[%u].nedits", i);
  if (st) return st;
  if (n > o->view.npolys)
    return opsn_fail_u(r, n, "more edits than polygons", "tiles[%u].nedits", i);
  int64_t prev = -1;
  for (uint32_t k = 0; k < n; k++) {
    if ((st = opsn_need(r, 8, "tiles[%u].edits[%u]", i, k))) return st;
    const uint8_t *q = r->p + r->off;
    uint32_t p = opc_rd_u32(q);
    uint16_t fl = (uint16_t)(q[4] | (q[5] << 8));
    uint8_t ar = q[6], pad = q[7];
    if ((int64_t)p <= prev || p >= o->view.npolys)
      return opsn_fail_u(r, p, "polygon indices must ascend and lie within the tile",
                         "tiles[%u].edits[%u].poly", i, k);
    if (ar > OPM_AREA_MAX)
      return opsn_fail_u(r, ar, "area id out of range", "tiles[%u].edits[%u].area", i, k);
    if (pad != 0) return opsn_fail_u(r, pad, "must be 0", "tiles[%u].edits[%u].pad", i, k);
    if (fl == o->view.polys[p].flags && ar == o->view.polys[p].area)
      return opsn_fail_u(r, fl, "an edit must differ from the tile's own flags or area",
                         "tiles[%u].edits[%u].flags", i, k);
    o->flags[p] = fl;
    o->area[p] = ar;
    prev = p;
    r->off += 8;
  }
  return OP_OK;
}

/* SNAP-012, SNAP-013 step 1: a slot index and a generation of list `what` ("free" or
** "tiles"), item i. */
static op_status read_slot_gen(opsn_rd *r, const op_mesh *tmp, const char *what, uint32_t i,
                               int64_t prev, uint32_t *s, uint32_t *gen) {
  op_status st;
  if ((st = opsn_read_u32(r, s, "%s[%u].slot", what, i))) return st;
  if ((int64_t)*s <= prev || *s >= tmp->params.max_tiles)
    return opsn_fail_u(r, *s, "slot indices must ascend and be below max_tiles", "%s[%u].slot",
                       what, i);
  if ((st = opsn_read_u32(r, gen, "%s[%u].generation", what, i))) return st;
  if (*gen < 1 || *gen > OPM_GEN_MAX)
    return opsn_fail_u(r, *gen, "generation must be in 1..2^22-1", "%s[%u].generation", what, i);
  return OP_OK;
}

static uint32_t free_slot(const opsn_slots *s, uint32_t j) {
  return opc_rd_u32(s->free_p + 8 * (size_t)j);
}
static uint32_t free_gen(const opsn_slots *s, uint32_t j) {
  return opc_rd_u32(s->free_p + 8 * (size_t)j + 4);
}

void opsn_slots_init(opsn_slots *s, const op_mesh_params *p) {
  opm_init(&s->tmp, p);
  s->free_p = NULL;
  s->nfree = 0;
}

void opsn_slots_free(opsn_slots *s) {
  opm_clear(&s->tmp);
  s->free_p = NULL;
  s->nfree = 0;
}

/* SNAP-010, SNAP-012, SNAP-013: the slot section's payload. s->tmp stores the tiles only;
** the empty-slot records, checked here, stay in the input until opsn_slots_finish. */
op_status opsn_read_slots(opsn_rd *r, opsn_slots *sl) {
  op_mesh *tmp = &sl->tmp;
  uint32_t nfree, ntiles, s, gen;
  op_status st = opsn_read_u32(r, &nfree, "nfree");
  if (st) return st;
  if (nfree > tmp->params.max_tiles)
    return opsn_fail_u(r, nfree, "more slot records than max_tiles", "nfree");
  sl->free_p = r->p + r->off;
  int64_t prev = -1;
  for (uint32_t i = 0; i < nfree; i++) {
    if ((st = read_slot_gen(r, tmp, "free", i, prev, &s, &gen))) return st;
    if (gen == 1) /* SNAP-012 */
      return opsn_fail_u(r, gen, "an empty slot of generation 1 is not recorded",
                         "free[%u].generation", i);
    prev = s;
  }
  sl->nfree = nfree;
  if ((st = opsn_read_u32(r, &ntiles, "ntiles"))) return st;
  if (ntiles > tmp->params.max_tiles)
    return opsn_fail_u(r, ntiles, "more tile records than max_tiles", "ntiles");
  prev = -1;
  uint32_t j = 0; /* the first empty-slot record not below the tile record's slot */
  for (uint32_t i = 0; i < ntiles; i++) {
    if ((st = opsn_read_tile_record(r, tmp, i, prev, sl, &j, &s, "snapshot"))) return st;
    prev = s;
  }
  return OP_OK;
}

/* SNAP-013 steps 1 .. 5 (MESH-068 for a mesh serialization, empties NULL). */
op_status opsn_read_tile_record(opsn_rd *r, op_mesh *tmp, uint32_t i, int64_t prev,
                                const opsn_slots *empties, uint32_t *j, uint32_t *slot,
                                const char *nomem) {
  uint32_t s, gen;
  op_status st;
  if ((st = read_slot_gen(r, tmp, "tiles", i, prev, &s, &gen))) return st;
  if (empties) {
    while (*j < empties->nfree && free_slot(empties, *j) < s) (*j)++; /* both lists ascend */
    if (*j < empties->nfree && free_slot(empties, *j) == s) /* SNAP-013: listed as empty */
      return opsn_fail_u(r, s, "slot is also listed as empty", "tiles[%u].slot", i);
  }
  op_tile *t = NULL;
  if ((st = read_tile(r, tmp, i, &t, nomem))) return st;
  if (!opm_append(tmp, s, gen) || opm_install(tmp, tmp->nslots - 1, gen, t)) {
    op_tile_free(t);
    return opc_nomem(r->err, nomem);
  }
  *slot = s;
  return read_edits(r, tmp->slots[tmp->nslots - 1].occ, i);
}

/* SNAP-007: merges the checked empty-slot records into tmp's stored slots (the tiles; both
** ascend, no slot in both), from the back, in place. Done after the links are computed, so
** that stitching scans only the tiles. 0 or -1 (no memory). */
static int merge_free(opsn_slots *sl) {
  op_mesh *tmp = &sl->tmp;
  uint32_t t = tmp->nslots, w = tmp->nslots + sl->nfree, j = sl->nfree;
  if (opm_reserve(tmp, w)) return -1;
  while (j > 0) {
    if (t > 0 && tmp->slots[t - 1].index > free_slot(sl, j - 1)) {
      tmp->slots[--w] = tmp->slots[--t];
    } else {
      j--;
      w--;
      tmp->slots[w].index = free_slot(sl, j);
      tmp->slots[w].gen = free_gen(sl, j);
      tmp->slots[w].occ = NULL;
    }
  }
  tmp->nslots += sl->nfree;
  sl->nfree = 0;
  return 0;
}

/* SNAP-001, SNAP-007 */
op_status opsn_slots_finish(opsn_slots *s, op_error *err) {
  if (opm_relink_all(&s->tmp) || merge_free(s))
    return opc_nomem(err, "snapshot");
  return OP_OK;
}

/* SNAP-008: swap only after everything is valid. */
void opsn_slots_commit(opsn_slots *s, op_mesh *m) {
  op_mesh old = *m;
  s->tmp.cache_owned = m->cache_owned; /* RT-018: opm_init cleared it */
  s->tmp.alloc = m->alloc;             /* CONF-059: the host's counter stays */
  *m = s->tmp;
  opm_clear(&old);
  opm_init(&s->tmp, &m->params);
  s->free_p = NULL;
  s->nfree = 0;
}

/* ------------------------------------------------------------ mesh load */

/* SNAP-002..SNAP-006, SNAP-015: parse and check everything, in byte order, into s. */
static op_status parse(opsn_rd *r, opsn_slots *s) {
  uint32_t nsec;
  op_status st = opsn_read_header(r, &s->tmp.params, &nsec);
  if (st) return st;
  for (uint32_t k = 0; k < nsec; k++) {
    uint32_t tag;
    if ((st = opsn_read_tag(r, k, &tag))) return st;
    if (tag != OPSN_TAG_SLOT || k > 0) /* SNAP-005, SNAP-024: SLOT, once */
      return opsn_fail_u(r, tag, k > 0 && tag == OPSN_TAG_SLOT ? "duplicate section"
                                                               : "unknown section tag",
                         "sections[%u].tag", k);
    opsn_rd sub;
    if ((st = opsn_open_section(r, k, &sub))) return st;
    if ((st = opsn_read_slots(&sub, s))) return st;
    if ((st = opsn_close_section(r, &sub, k))) return st;
  }
  return opsn_check_end(r); /* SNAP-004 */
}

op_status op_mesh_snapshot_load(op_mesh *m, const uint8_t *data, size_t len, op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (m->cache_owned) /* SNAP-023, RT-018: only the cache restores its mesh */
    return op_fail(err, OP_E_ARGUMENT, "mesh", "",
                   "the mesh belongs to a tile cache: restore the cache's snapshot instead");
  if (!data && len) return op_fail(err, OP_E_ARGUMENT, "data", "NULL", "data is required");
  static const uint8_t empty[1] = {0};
  opsn_rd r = {data ? data : empty, len, 0, err};
  opsn_slots s;
  opsn_slots_init(&s, &m->params);
  s.tmp.alloc = m->alloc; /* CONF-059: the restore's allocations are the mesh's */
  op_status st = parse(&r, &s);
  if (!st) st = opsn_slots_finish(&s, err);
  if (st) {
    opsn_slots_free(&s);
    return st;
  }
  opsn_slots_commit(&s, m);
  op_clear(err);
  return OP_OK;
}

/* ------------------------------------------------ opening without the parameters */

/* SNAP-025: magic, version, the parameter block and MESH-067's checks of it. */
static op_status read_own_params(opsn_rd *r, op_mesh_params *p) {
  op_status st = opsn_read_magic_version(r, "OPSN", "not a OnePath mesh snapshot");
  if (!st) st = opsn_read_params_block(r, p);
  if (!st) st = opm_check_params_block(p, r->err);
  return st;
}

op_status op_mesh_snapshot_params(const uint8_t *data, size_t len, op_mesh_params *out,
                                  op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output is required");
  if (!data && len) return op_fail(err, OP_E_ARGUMENT, "data", "NULL", "data is required");
  static const uint8_t empty[1] = {0};
  opsn_rd r = {data ? data : empty, len, 0, err};
  op_mesh_params p;
  op_status st = read_own_params(&r, &p); /* SNAP-025 */
  if (st) return st;
  *out = p;
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_snapshot_open(const uint8_t *data, size_t len, op_mesh **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output is required");
  *out = NULL;
  if (!data && len) return op_fail(err, OP_E_ARGUMENT, "data", "NULL", "data is required");
  static const uint8_t empty[1] = {0};
  opsn_rd r = {data ? data : empty, len, 0, err};
  op_mesh_params p;
  op_status st = read_own_params(&r, &p); /* SNAP-026: SNAP-025 first */
  if (st) return st;
  /* SNAP-026: then a load into a mesh with those parameters (SNAP-015 from the first byte;
  ** its SNAP-006 check passes, the parameters being the snapshot's own). */
  r.off = 0;
  opsn_slots s;
  opsn_slots_init(&s, &p);
  st = parse(&r, &s);
  if (!st) st = opsn_slots_finish(&s, err);
  op_mesh *m = NULL;
  if (!st && !(m = malloc(sizeof *m))) st = opc_nomem(err, "snapshot");
  if (st) {
    opsn_slots_free(&s);
    return st;
  }
  opm_init(m, &p);
  opsn_slots_commit(&s, m);
  *out = m;
  op_clear(err);
  return OP_OK;
}
