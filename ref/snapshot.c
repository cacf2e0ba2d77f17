/*
** snapshot.c -- mesh snapshots (spec/navmesh-snapshot.md, clauses SNAP-xxx): the mesh's
** tiles and dynamic state (slots, generations, polygon edits) as bytes, and the
** validating restore that swaps the state in only when everything is valid.
** Snapshots are canonical (SNAP-009): every rule below admits one encoding only.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"

#define SNAP_VERSION 1u
#define SNAP_TAG_SLOTS 0x544f4c53u /* "SLOT" little-endian, SNAP-010 */
#define SNAP_SLOTS_VERSION 1u
#define SNAP_MAX_SECTIONS 16u /* SNAP-004 */

/* ------------------------------------------------------------ save */

/* SNAP-010, SNAP-011: one tile record (the occupied stored slot sl), without links
** (SNAP-001). */
static void put_tile_record(opm_buf *b, const opm_slot *sl, op_error *err, int *fail) {
  const opm_occ *s = sl->occ;
  op_bytes tb = {NULL, 0};
  if (op_tile_save(s->tile, &tb, err)) {
    *fail = 1;
    return;
  }
  opm_put_u32(b, sl->index);
  opm_put_u32(b, sl->gen);
  opm_put_u32(b, (uint32_t)s->view.x);
  opm_put_u32(b, (uint32_t)s->view.z);
  opm_put_u32(b, (uint32_t)s->view.layer);
  opm_put_u32(b, (uint32_t)tb.len);
  opm_put(b, tb.data, tb.len);
  op_bytes_free(&tb);
  uint32_t nedits = 0; /* SNAP-011, MESH-042: only edited polygons */
  for (uint32_t p = 0; p < s->view.npolys; p++)
    nedits += s->flags[p] != s->view.polys[p].flags || s->area[p] != s->view.polys[p].area;
  opm_put_u32(b, nedits);
  for (uint32_t p = 0; p < s->view.npolys; p++) {
    if (s->flags[p] == s->view.polys[p].flags && s->area[p] == s->view.polys[p].area) continue;
    opm_put_u32(b, p);
    opm_put_u16(b, s->flags[p]);
    opm_put_u8(b, s->area[p]);
    opm_put_u8(b, 0);
  }
}

op_status op_mesh_snapshot_save(const op_mesh *m, op_bytes *out, op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output is required");
  opm_buf b = {NULL, 0, 0, 0};
  opm_put(&b, "OPSN", 4); /* SNAP-002 */
  opm_put_u32(&b, SNAP_VERSION);
  opm_put_params(&b, &m->params);
  opm_put_u32(&b, 1); /* one section in v0 (SNAP-004) */
  opm_put_u32(&b, SNAP_TAG_SLOTS); /* SNAP-005, SNAP-010 */
  opm_put_u32(&b, SNAP_SLOTS_VERSION);
  size_t len_at = b.len;
  opm_put_u64(&b, 0); /* patched below */
  size_t start = b.len;
  uint32_t nfree = 0, ntiles = 0;
  for (uint32_t i = 0; i < m->nslots; i++) { /* the stored slots, ascending by index */
    nfree += !m->slots[i].occ && m->slots[i].gen != 1;
    ntiles += m->slots[i].occ != NULL;
  }
  opm_put_u32(&b, nfree); /* SNAP-010, SNAP-011: empty slots of generation > 1, ascending */
  for (uint32_t i = 0; i < m->nslots; i++) {
    if (m->slots[i].occ || m->slots[i].gen == 1) continue;
    opm_put_u32(&b, m->slots[i].index);
    opm_put_u32(&b, m->slots[i].gen);
  }
  opm_put_u32(&b, ntiles); /* SNAP-010, SNAP-011: occupied slots, ascending */
  int fail = 0;
  for (uint32_t i = 0; i < m->nslots && !fail; i++)
    if (m->slots[i].occ) put_tile_record(&b, &m->slots[i], err, &fail);
  if (fail || b.oom) {
    free(b.p);
    return fail ? err->kind : op_fail(err, OP_E_NOMEM, "snapshot", "-", "out of memory");
  }
  uint64_t plen = b.len - start;
  for (int k = 0; k < 8; k++) b.p[len_at + k] = (uint8_t)(plen >> (8 * k));
  out->data = b.p;
  out->len = b.len;
  op_clear(err);
  return OP_OK;
}

/* ------------------------------------------------------------ load */

typedef struct rd {
  const uint8_t *p;
  size_t n, off;
  op_error *err;
} rd;

static op_status vfail(rd *r, const char *value, const char *why, const char *fmt, va_list ap) {
  char field[96];
  vsnprintf(field, sizeof field, fmt, ap);
  return op_fail(r->err, OP_E_FORMAT, field, value, "%s", why);
}

static op_status ffail(rd *r, const char *value, const char *why, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  op_status st = vfail(r, value, why, fmt, ap);
  va_end(ap);
  return st;
}

/* SNAP-003: reading past the end is a format error naming the field being read. */
static op_status need(rd *r, size_t k, const char *fmt, ...) {
  if (r->n - r->off >= k) return OP_OK;
  char value[32];
  snprintf(value, sizeof value, "%zu", r->n);
  va_list ap;
  va_start(ap, fmt);
  op_status st = vfail(r, value, "data ends inside this field", fmt, ap);
  va_end(ap);
  return st;
}

static uint32_t take_u32(rd *r) {
  uint32_t v = opm_rd_u32(r->p + r->off);
  r->off += 4;
  return v;
}

static op_status read_u32(rd *r, uint32_t *v, const char *fmt, ...) {
  if (r->n - r->off < 4) {
    char value[32];
    snprintf(value, sizeof value, "%zu", r->n);
    va_list ap;
    va_start(ap, fmt);
    op_status st = vfail(r, value, "data ends inside this field", fmt, ap);
    va_end(ap);
    return st;
  }
  *v = take_u32(r);
  return OP_OK;
}

static op_status fail_u(rd *r, uint64_t v, const char *why, const char *fmt, ...) {
  char value[32];
  snprintf(value, sizeof value, "%llu", (unsigned long long)v);
  va_list ap;
  va_start(ap, fmt);
  op_status st = vfail(r, value, why, fmt, ap);
  va_end(ap);
  return st;
}

/* SNAP-006: the snapshot's parameters equal the mesh's. */
static op_status read_params(rd *r, const op_mesh_params *want) {
  op_status st = need(r, 60, "params");
  if (st) return st;
  const uint8_t *q = r->p + r->off;
  op_mesh_params got;
  for (int i = 0; i < 3; i++) got.tiling.origin[i] = opm_rd_f64(q + 8 * i);
  got.tiling.cell_size = opm_rd_f64(q + 24);
  got.tiling.cell_height = opm_rd_f64(q + 32);
  got.tiling.tile_cells = opm_rd_u32(q + 40);
  got.tiling.max_verts_per_poly = opm_rd_u32(q + 44);
  got.walkable_climb = opm_rd_f64(q + 48);
  got.max_tiles = opm_rd_u32(q + 56);
  r->off += 60;
  if ((st = opm_check_tiling(&want->tiling, &got.tiling, "params.tiling.", OP_E_FORMAT, r->err)))
    return st;
  uint64_t wc;
  memcpy(&wc, &want->walkable_climb, sizeof wc);
  if (opm_rd_u64(q + 48) != wc)
    return op_fail_d(r->err, OP_E_FORMAT, "params.walkable_climb", got.walkable_climb,
                     "differs from the mesh's walkable_climb");
  if (got.max_tiles != want->max_tiles)
    return op_fail_i(r->err, OP_E_FORMAT, "params.max_tiles", got.max_tiles,
                     "differs from the mesh's max_tiles");
  return OP_OK;
}

/* SNAP-013 steps 2-4: tile record i's position and tile, checked against tmp; the tile
** becomes the caller's (*out). */
static op_status read_tile(rd *r, const op_mesh *tmp, uint32_t i, op_tile **out) {
  op_status st;
  uint32_t pos[3], tlen;
  static const char *const pn[3] = {"x", "z", "layer"};
  for (int k = 0; k < 3; k++)
    if ((st = read_u32(r, &pos[k], "tiles[%u].%s", i, pn[k]))) return st;
  if ((st = read_u32(r, &tlen, "tiles[%u].tile_length", i))) return st;
  if ((st = need(r, tlen, "tiles[%u].tile", i))) return st;
  op_tile *t = NULL;
  op_error te;
  op_clear(&te);
  st = op_tile_load(r->p + r->off, tlen, &t, &te);
  if (st) { /* SNAP-013: the tile's own error, inside this record */
    if (st == OP_E_NOMEM) return op_fail(r->err, st, "snapshot", "-", "out of memory");
    return ffail(r, te.value, te.message, "tiles[%u].tile.%s", i, te.field);
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
      return ffail(r, buf, "differs from the tile's own coordinate", "tiles[%u].%s", i, pn[k]);
    }
  }
  if (v.npolys > OPM_MAX_POLYS) {
    op_tile_free(t);
    return fail_u(r, v.npolys, "more polygons than a reference holds", "tiles[%u].tile.npolys", i);
  }
  if (opm_find(tmp, v.x, v.z, v.layer) >= 0) { /* SNAP-014 */
    op_tile_free(t);
    char buf[64];
    snprintf(buf, sizeof buf, "%ld,%ld,%ld", (long)v.x, (long)v.z, (long)v.layer);
    return ffail(r, buf, "two tile records at the same position", "tiles[%u].x", i);
  }
  *out = t;
  return OP_OK;
}

/* SNAP-013 step 5: the edits of tile record i (its tile state o). */
static op_status read_edits(rd *r, opm_occ *o, uint32_t i) {
  uint32_t n;
  op_status st = read_u32(r, &n, "tiles[%u].nedits", i);
  if (st) return st;
  if (n > o->view.npolys)
    return fail_u(r, n, "more edits than polygons", "tiles[%u].nedits", i);
  int64_t prev = -1;
  for (uint32_t k = 0; k < n; k++) {
    if ((st = need(r, 8, "tiles[%u].edits[%u]", i, k))) return st;
    const uint8_t *q = r->p + r->off;
    uint32_t p = opm_rd_u32(q);
    uint16_t fl = (uint16_t)(q[4] | (q[5] << 8));
    uint8_t ar = q[6], pad = q[7];
    if ((int64_t)p <= prev || p >= o->view.npolys)
      return fail_u(r, p, "polygon indices must ascend and lie within the tile",
                    "tiles[%u].edits[%u].poly", i, k);
    if (ar > OPM_AREA_MAX)
      return fail_u(r, ar, "area id out of range", "tiles[%u].edits[%u].area", i, k);
    if (pad != 0) return fail_u(r, pad, "must be 0", "tiles[%u].edits[%u].pad", i, k);
    if (fl == o->view.polys[p].flags && ar == o->view.polys[p].area)
      return fail_u(r, fl, "an edit must differ from the tile's own flags or area",
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
static op_status read_slot_gen(rd *r, const op_mesh *tmp, const char *what, uint32_t i,
                               int64_t prev, uint32_t *s, uint32_t *gen) {
  op_status st;
  if ((st = read_u32(r, s, "%s[%u].slot", what, i))) return st;
  if ((int64_t)*s <= prev || *s >= tmp->params.max_tiles)
    return fail_u(r, *s, "slot indices must ascend and be below max_tiles", "%s[%u].slot", what, i);
  if ((st = read_u32(r, gen, "%s[%u].generation", what, i))) return st;
  if (*gen < 1 || *gen > OPM_GEN_MAX)
    return fail_u(r, *gen, "generation must be in 1..2^22-1", "%s[%u].generation", what, i);
  return OP_OK;
}

/* The empty-slot records of a snapshot: n checked records of 8 bytes at p. */
typedef struct free_recs {
  const uint8_t *p;
  uint32_t n;
} free_recs;

static uint32_t free_slot(const free_recs *f, uint32_t j) {
  return opm_rd_u32(f->p + 8 * (size_t)j);
}
static uint32_t free_gen(const free_recs *f, uint32_t j) {
  return opm_rd_u32(f->p + 8 * (size_t)j + 4);
}

/* SNAP-010, SNAP-012, SNAP-013: the slot section's payload. tmp stores the tiles only; the
** empty-slot records, checked here, stay in the input (*fr) until merge_free. */
static op_status read_slots(rd *r, op_mesh *tmp, free_recs *fr) {
  uint32_t nfree, ntiles, s, gen;
  op_status st = read_u32(r, &nfree, "nfree");
  if (st) return st;
  if (nfree > tmp->params.max_tiles)
    return fail_u(r, nfree, "more slot records than max_tiles", "nfree");
  fr->p = r->p + r->off;
  int64_t prev = -1;
  for (uint32_t i = 0; i < nfree; i++) {
    if ((st = read_slot_gen(r, tmp, "free", i, prev, &s, &gen))) return st;
    if (gen == 1) /* SNAP-012 */
      return fail_u(r, gen, "an empty slot of generation 1 is not recorded",
                    "free[%u].generation", i);
    prev = s;
  }
  fr->n = nfree;
  if ((st = read_u32(r, &ntiles, "ntiles"))) return st;
  if (ntiles > tmp->params.max_tiles)
    return fail_u(r, ntiles, "more tile records than max_tiles", "ntiles");
  prev = -1;
  uint32_t j = 0; /* the first empty-slot record not below the tile record's slot */
  for (uint32_t i = 0; i < ntiles; i++) {
    if ((st = read_slot_gen(r, tmp, "tiles", i, prev, &s, &gen))) return st;
    while (j < nfree && free_slot(fr, j) < s) j++; /* both lists ascend */
    if (j < nfree && free_slot(fr, j) == s) /* SNAP-013: listed as empty */
      return fail_u(r, s, "slot is also listed as empty", "tiles[%u].slot", i);
    prev = s;
    op_tile *t = NULL;
    if ((st = read_tile(r, tmp, i, &t))) return st;
    if (!opm_append(tmp, s, gen) || opm_install(tmp, tmp->nslots - 1, gen, t)) {
      op_tile_free(t);
      return op_fail(r->err, OP_E_NOMEM, "snapshot", "-", "out of memory");
    }
    if ((st = read_edits(r, tmp->slots[tmp->nslots - 1].occ, i))) return st;
  }
  return OP_OK;
}

/* SNAP-007: merges the checked empty-slot records into tmp's stored slots (the tiles; both
** ascend, no slot in both), from the back, in place. Done after the links are computed, so
** that stitching scans only the tiles. 0 or -1 (no memory). */
static int merge_free(op_mesh *tmp, const free_recs *fr) {
  uint32_t t = tmp->nslots, w = tmp->nslots + fr->n, j = fr->n;
  if (opm_reserve(tmp, w)) return -1;
  while (j > 0) {
    if (t > 0 && tmp->slots[t - 1].index > free_slot(fr, j - 1)) {
      tmp->slots[--w] = tmp->slots[--t];
    } else {
      j--;
      w--;
      tmp->slots[w].index = free_slot(fr, j);
      tmp->slots[w].gen = free_gen(fr, j);
      tmp->slots[w].occ = NULL;
    }
  }
  tmp->nslots += fr->n;
  return 0;
}

/* SNAP-002..SNAP-006, SNAP-015: parse and check everything, in byte order, into tmp
** (the tiles) and *fr (the empty-slot records). */
static op_status parse(rd *r, op_mesh *tmp, free_recs *fr) {
  op_status st = need(r, 4, "magic");
  if (st) return st;
  if (memcmp(r->p, "OPSN", 4) != 0) {
    char hex[16];
    snprintf(hex, sizeof hex, "%02x%02x%02x%02x", r->p[0], r->p[1], r->p[2], r->p[3]);
    return ffail(r, hex, "not a OnePath mesh snapshot", "magic");
  }
  r->off = 4;
  uint32_t ver, nsec;
  if ((st = read_u32(r, &ver, "version"))) return st;
  if (ver != SNAP_VERSION) return fail_u(r, ver, "unsupported snapshot version", "version");
  if ((st = read_params(r, &tmp->params))) return st;
  if ((st = read_u32(r, &nsec, "nsections"))) return st;
  if (nsec < 1 || nsec > SNAP_MAX_SECTIONS)
    return fail_u(r, nsec, "section count must be in 1..16", "nsections");
  int have_slots = 0;
  for (uint32_t k = 0; k < nsec; k++) {
    uint32_t tag, sver;
    if ((st = read_u32(r, &tag, "sections[%u].tag", k))) return st;
    if (tag != SNAP_TAG_SLOTS || have_slots) /* SNAP-005 */
      return fail_u(r, tag, have_slots ? "duplicate section" : "unknown section tag",
                    "sections[%u].tag", k);
    if ((st = read_u32(r, &sver, "sections[%u].version", k))) return st;
    if (sver != SNAP_SLOTS_VERSION)
      return fail_u(r, sver, "unsupported section version", "sections[%u].version", k);
    if ((st = need(r, 8, "sections[%u].length", k))) return st;
    uint64_t plen = opm_rd_u64(r->p + r->off);
    r->off += 8;
    if (plen > r->n - r->off)
      return fail_u(r, plen, "section runs past the end of the data", "sections[%u].length", k);
    rd sub = {r->p, r->off + (size_t)plen, r->off, r->err};
    if ((st = read_slots(&sub, tmp, fr))) return st;
    if (sub.off != sub.n)
      return fail_u(r, plen, "section length differs from its content", "sections[%u].length", k);
    r->off = sub.off;
    have_slots = 1;
  }
  if (r->off != r->n) /* SNAP-004 */
    return fail_u(r, r->n, "bytes after the last section", "length");
  return OP_OK;
}

op_status op_mesh_snapshot_load(op_mesh *m, const uint8_t *data, size_t len, op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (!data && len) return op_fail(err, OP_E_ARGUMENT, "data", "NULL", "data is required");
  static const uint8_t empty[1] = {0};
  rd r = {data ? data : empty, len, 0, err};
  op_mesh tmp;
  opm_init(&tmp, &m->params);
  free_recs fr = {NULL, 0};
  op_status st = parse(&r, &tmp, &fr);
  if (!st && (opm_relink_all(&tmp) || merge_free(&tmp, &fr))) /* SNAP-001, SNAP-007 */
    st = op_fail(err, OP_E_NOMEM, "snapshot", "-", "out of memory");
  if (st) {
    opm_clear(&tmp);
    return st;
  }
  op_mesh old = *m; /* SNAP-008: swap only after everything is valid */
  *m = tmp;
  opm_clear(&old);
  op_clear(err);
  return OP_OK;
}
