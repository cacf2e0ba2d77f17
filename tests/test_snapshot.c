/*
** test_snapshot.c -- unit tests of mesh snapshots (spec/navmesh-snapshot.md, SNAP-xxx).
**
** Tiles are 4x4 squares on the tiling origin (0,0,0), cell size 1 (as in test_mesh.c).
*/
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "navmesh/mesh_internal.h"
#include "optest.h"

/* Two polygons: [0,4]x[0,1] and [0,4]x[1,4], every outer edge a portal. */
static op_tile *tile2(int x, int z, int layer, double oy) {
  const float verts[18] = {0, 0, 0, 4, 0, 0, 0, 0, 1, 4, 0, 1, 0, 0, 4, 4, 0, 4};
  op_poly_desc polys[2];
  memset(polys, 0, sizeof polys);
  for (int k = 0; k < 2; k++) {
    op_poly_desc *p = &polys[k];
    p->nverts = 4;
    p->flags = (uint16_t)(k + 1);
    p->verts[0] = (uint16_t)(2 * k);
    p->verts[1] = (uint16_t)(2 * k + 1);
    p->verts[2] = (uint16_t)(2 * k + 3);
    p->verts[3] = (uint16_t)(2 * k + 2);
    p->neis[0] = k == 0 ? (OP_NEI_PORTAL | 3u) : 1u;
    p->neis[1] = OP_NEI_PORTAL | 2u;
    p->neis[2] = k == 1 ? (OP_NEI_PORTAL | 1u) : 2u;
    p->neis[3] = OP_NEI_PORTAL | 0u;
  }
  op_tile_desc d;
  memset(&d, 0, sizeof d);
  d.x = x, d.z = z, d.layer = layer;
  d.tiling = fx_tiling(0.5);
  d.origin_y = oy;
  d.nverts = 6;
  d.verts = verts;
  d.npolys = 2;
  d.polys = polys;
  op_tile *t = NULL;
  op_error e;
  if (op_tile_create(&d, &t, &e)) fprintf(stderr, "tile2: %s\n", e.message);
  return t;
}

static op_ref add(op_mesh *m, int x, int z, int layer, double oy) {
  op_tile *t = tile2(x, z, layer, oy);
  op_ref r = 0;
  op_error e;
  if (op_mesh_add_tile(m, t, &r, &e)) fprintf(stderr, "add: %s\n", e.message);
  op_tile_free(t);
  return r;
}

/* A mesh with history: tiles in slots 0, 2, 3; slot 1 empty at generation 2; slot 3
** replaced (generation 2); edits on slot 0 and slot 3. */
static op_mesh *busy(void) {
  op_error e;
  op_mesh *m = fx_mesh(0.5, 8);
  op_ref a = add(m, 0, 0, 0, 0.0);
  add(m, 5, 5, 0, 0.0);
  add(m, 1, 0, 0, 0.25);
  add(m, 0, 1, 1, 0.0);
  op_mesh_remove_tile(m, 5, 5, 0, &e);
  op_tile *t = tile2(0, 1, 1, 0.125);
  op_ref r = 0;
  op_mesh_replace_tile(m, t, &r, &e);
  op_tile_free(t);
  op_mesh_set_poly_flags(m, a + 1, 0x1234, &e);
  op_mesh_set_poly_area(m, r, 17, &e);
  return m;
}

OPT_TEST(round_trip, "SNAP-008") {
  op_error e;
  op_mesh *m = busy();
  op_bytes s = fx_mesh_snapshot(m), ms = fx_mesh_bytes(m);
  op_mesh *n = fx_mesh(0.5, 8);
  add(n, 7, 7, 0, 0.0); /* some other state, replaced entirely */
  OPT_CHECK(op_mesh_snapshot_load(n, s.data, s.len, &e) == OP_OK);
  op_bytes ns = fx_mesh_bytes(n), ss = fx_mesh_snapshot(n);
  OPT_CHECK(fx_same(&ms, &ns));
  OPT_CHECK(fx_same(&s, &ss));
  /* same references */
  op_ref r1 = 0, r2 = 0;
  OPT_CHECK(op_mesh_poly_ref(m, 0, 1, 1, 1, &r1, &e) == OP_OK &&
            op_mesh_poly_ref(n, 0, 1, 1, 1, &r2, &e) == OP_OK && r1 == r2);
  OPT_CHECK(r1 == opm_make_ref(2, 3, 1));
  uint16_t fl;
  uint8_t ar;
  OPT_CHECK(op_mesh_get_poly(n, opm_make_ref(1, 0, 1), &fl, &ar, &e) == OP_OK && fl == 0x1234);
  OPT_CHECK(op_mesh_get_poly(n, opm_make_ref(2, 3, 0), &fl, &ar, &e) == OP_OK && ar == 17);
  /* SNAP-011: the empty slot's generation survives: the next add gets slot 1, gen 2 */
  op_ref a1 = add(m, 9, 9, 0, 0.0), a2 = add(n, 9, 9, 0, 0.0);
  OPT_CHECK(a1 == opm_make_ref(2, 1, 0) && a2 == a1);
  op_bytes_free(&s);
  op_bytes_free(&ms);
  op_bytes_free(&ns);
  op_bytes_free(&ss);
  op_mesh_free(m);
  op_mesh_free(n);
}

/* SNAP-002..SNAP-005, SNAP-010: an empty mesh's snapshot, byte by byte. */
OPT_TEST(empty_layout, "SNAP-002") {
  op_mesh *m = fx_mesh(0.5, 8);
  op_bytes s = fx_mesh_snapshot(m);
  OPT_CHECK(s.len == 4 + 4 + 60 + 4 + 16 + 4 + 4);
  if (s.len == 96) {
    OPT_CHECK(!memcmp(s.data, "OPSN", 4) && opc_rd_u32(s.data + 4) == 1);
    OPT_CHECK(opc_rd_f64(s.data + 56) == 0.5 && opc_rd_u32(s.data + 64) == 8);
    OPT_CHECK(opc_rd_u32(s.data + 68) == 1);                 /* one section */
    OPT_CHECK(!memcmp(s.data + 72, "SLOT", 4));              /* tag */
    OPT_CHECK(opc_rd_u32(s.data + 76) == 1);                 /* section version */
    OPT_CHECK(opc_rd_u64(s.data + 80) == 8);                 /* payload length */
    OPT_CHECK(opc_rd_u32(s.data + 88) == 0);                 /* nfree */
    OPT_CHECK(opc_rd_u32(s.data + 92) == 0);                 /* ntiles */
  }
  /* removing a tile leaves a record of its empty slot: slot 0, generation 2 */
  op_error e;
  add(m, 0, 0, 0, 0.0);
  OPT_CHECK(op_mesh_remove_tile(m, 0, 0, 0, &e) == OP_OK);
  op_bytes s2 = fx_mesh_snapshot(m);
  OPT_CHECK(s2.len == 96 + 8 && opc_rd_u64(s2.data + 80) == 16 && opc_rd_u32(s2.data + 88) == 1 &&
            opc_rd_u32(s2.data + 92) == 0 && opc_rd_u32(s2.data + 96) == 2 &&
            opc_rd_u32(s2.data + 100) == 0);
  op_bytes_free(&s);
  op_bytes_free(&s2);
  op_mesh_free(m);
}

/* SNAP-003, SNAP-008: every truncation fails and leaves the mesh unchanged. */
OPT_TEST(truncation, "SNAP-003") {
  op_mesh *m = busy();
  op_bytes s = fx_mesh_snapshot(m);
  op_mesh *n = fx_mesh(0.5, 8);
  add(n, 3, 3, 0, 0.0);
  op_bytes before = fx_mesh_bytes(n);
  int all_fail = 1, all_same = 1, all_format = 1;
  for (size_t len = 0; len < s.len; len++) {
    op_error e;
    op_status st = op_mesh_snapshot_load(n, s.data, len, &e);
    if (st == OP_OK) all_fail = 0;
    if (st != OP_E_FORMAT) all_format = 0;
    op_bytes after = fx_mesh_bytes(n);
    if (!fx_same(&before, &after)) all_same = 0;
    op_bytes_free(&after);
  }
  OPT_CHECK(all_fail && all_same && all_format);
  op_bytes_free(&s);
  op_bytes_free(&before);
  op_mesh_free(m);
  op_mesh_free(n);
}

/* SNAP-008, SNAP-009: corrupting any byte (three patterns) either fails with the mesh
** unchanged, or loads a state whose snapshot is exactly the corrupted bytes. */
OPT_TEST(corruption, "SNAP-009") {
  op_mesh *m = busy();
  op_bytes s = fx_mesh_snapshot(m);
  op_mesh *n = fx_mesh(0.5, 8);
  add(n, 3, 3, 0, 0.0);
  op_bytes before = fx_mesh_bytes(n), sbefore = fx_mesh_snapshot(n);
  static const uint8_t pats[3] = {0x01, 0x80, 0xFF};
  int bad = 0, loaded = 0, failed = 0;
  uint8_t *c = malloc(s.len);
  for (size_t off = 0; c && off < s.len; off++) {
    for (int k = 0; k < 3; k++) {
      memcpy(c, s.data, s.len);
      c[off] ^= pats[k];
      op_error e;
      op_status st = op_mesh_snapshot_load(n, c, s.len, &e);
      if (st == OP_OK) {
        loaded++;
        op_bytes re = fx_mesh_snapshot(n);
        if (re.len != s.len || memcmp(re.data, c, s.len)) bad++;
        op_bytes_free(&re);
        /* restore the reference state for the next round */
        if (op_mesh_snapshot_load(n, sbefore.data, sbefore.len, &e)) bad++;
      } else {
        failed++;
        if (st != OP_E_FORMAT) bad++;
        op_bytes after = fx_mesh_bytes(n);
        if (!fx_same(&before, &after)) bad++;
        op_bytes_free(&after);
      }
    }
  }
  OPT_CHECK(c != NULL && bad == 0 && failed > 0);
  fprintf(stderr, "corruption: %d loaded, %d failed\n", loaded, failed);
  free(c);
  op_bytes_free(&s);
  op_bytes_free(&before);
  op_bytes_free(&sbefore);
  op_mesh_free(m);
  op_mesh_free(n);
}

/* SNAP-006: parameters must equal the mesh's. */
OPT_TEST(params_must_match, "SNAP-006") {
  op_error e;
  op_mesh *m = busy();
  op_bytes s = fx_mesh_snapshot(m);
  op_mesh *n = fx_mesh(0.75, 8);
  OPT_CHECK(op_mesh_snapshot_load(n, s.data, s.len, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "params.walkable_climb") && !strcmp(e.value, "0.5"));
  op_mesh_free(n);
  n = fx_mesh(0.5, 9);
  OPT_CHECK(op_mesh_snapshot_load(n, s.data, s.len, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "params.max_tiles") && !strcmp(e.value, "8"));
  op_mesh_free(n);
  op_bytes_free(&s);
  op_mesh_free(m);
}

/* Named errors for hand-made faults (SNAP-004, SNAP-005, SNAP-011, SNAP-013, SNAP-014). */
OPT_TEST(named_errors, "SNAP-013") {
  op_error e;
  op_mesh *m = busy();
  op_bytes s = fx_mesh_snapshot(m);
  op_mesh *n = fx_mesh(0.5, 8);
  uint8_t *c = malloc(s.len + 1);
  /* unknown section tag */
  memcpy(c, s.data, s.len);
  memcpy(c + 72, "TCAC", 4);
  OPT_CHECK(op_mesh_snapshot_load(n, c, s.len, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "sections[0].tag"));
  /* busy(): 88 nfree = 1, 92 free[0] = (slot 1, generation 2), 100 ntiles = 3, 104
  ** tiles[0].slot = 0, 108 .generation, 112 .x */
  OPT_CHECK(opc_rd_u32(s.data + 88) == 1 && opc_rd_u32(s.data + 92) == 1 &&
            opc_rd_u32(s.data + 96) == 2 && opc_rd_u32(s.data + 100) == 3);
  memcpy(c, s.data, s.len);
  memset(c + 108, 0, 4);
  OPT_CHECK(op_mesh_snapshot_load(n, c, s.len, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "tiles[0].generation") && !strcmp(e.value, "0"));
  /* generation 2^22 */
  c[108] = 0, c[109] = 0, c[110] = 0x40, c[111] = 0;
  OPT_CHECK(op_mesh_snapshot_load(n, c, s.len, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "tiles[0].generation"));
  /* an empty slot of generation 1 */
  memcpy(c, s.data, s.len);
  c[96] = 1;
  OPT_CHECK(op_mesh_snapshot_load(n, c, s.len, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "free[0].generation"));
  /* slot index beyond max_tiles */
  memcpy(c, s.data, s.len);
  c[104] = 8;
  OPT_CHECK(op_mesh_snapshot_load(n, c, s.len, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "tiles[0].slot"));
  /* a tile in the slot listed as empty */
  c[104] = 1;
  OPT_CHECK(op_mesh_snapshot_load(n, c, s.len, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "tiles[0].slot") && !strcmp(e.value, "1"));
  /* record x differs from the tile's own */
  memcpy(c, s.data, s.len);
  c[112] = 1;
  OPT_CHECK(op_mesh_snapshot_load(n, c, s.len, &e) == OP_E_FORMAT && !strcmp(e.field, "tiles[0].x"));
  /* a trailing byte */
  memcpy(c, s.data, s.len);
  c[s.len] = 0;
  OPT_CHECK(op_mesh_snapshot_load(n, c, s.len + 1, &e) == OP_E_FORMAT && !strcmp(e.field, "length"));
  /* magic and version */
  memcpy(c, s.data, s.len);
  c[0] = 'X';
  OPT_CHECK(op_mesh_snapshot_load(n, c, s.len, &e) == OP_E_FORMAT && !strcmp(e.field, "magic"));
  memcpy(c, s.data, s.len);
  c[4] = 2;
  OPT_CHECK(op_mesh_snapshot_load(n, c, s.len, &e) == OP_E_FORMAT && !strcmp(e.field, "version"));
  /* truncated: the section's length runs past the end */
  OPT_CHECK(op_mesh_snapshot_load(n, s.data, 98, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "sections[0].length"));
  /* the same with the section length fitted (98 - 88 = 10): the data ends inside
  ** free[0].generation */
  memcpy(c, s.data, 98);
  memset(c + 80, 0, 8);
  c[80] = 10;
  OPT_CHECK(op_mesh_snapshot_load(n, c, 98, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "free[0].generation"));
  /* a tile's own error is reported inside its record */
  memcpy(c, s.data, s.len);
  c[128] ^= 0xFF; /* tiles[0]'s tile bytes start at 104 + 24 = 128 (its magic) */
  OPT_CHECK(op_mesh_snapshot_load(n, c, s.len, &e) == OP_E_FORMAT &&
            !strncmp(e.field, "tiles[0].tile.", 14));
  free(c);
  op_bytes_free(&s);
  op_mesh_free(m);
  op_mesh_free(n);
}

/* SNAP-014: two records holding tiles at one position. Built by hand from a mesh with
** two tiles whose second record is rewritten to the first one's tile. */
OPT_TEST(duplicate_position, "SNAP-014") {
  op_error e;
  op_mesh *m = fx_mesh(0.5, 8);
  add(m, 0, 0, 0, 0.0);
  op_bytes one = fx_mesh_snapshot(m);
  size_t rec = one.len - 96; /* the one record (slot 0) */
  opc_buf b = {NULL, 0, 0, 0};
  opc_put(&b, one.data, 80);
  opc_put_u64(&b, 8 + 2 * rec);
  opc_put_u32(&b, 0);
  opc_put_u32(&b, 2);
  opc_put(&b, one.data + 96, rec);
  opc_put(&b, one.data + 96, rec);
  b.p[96 + rec] = 1; /* second record: slot 1 */
  op_mesh *n = fx_mesh(0.5, 8);
  OPT_CHECK(!b.oom && op_mesh_snapshot_load(n, b.p, b.len, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "tiles[1].x") && !strcmp(e.value, "0,0,0"));
  /* same slot twice */
  b.p[96 + rec] = 0;
  OPT_CHECK(op_mesh_snapshot_load(n, b.p, b.len, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "tiles[1].slot"));
  free(b.p);
  op_bytes_free(&one);
  op_mesh_free(m);
  op_mesh_free(n);
}

/* A slot record: slot index and generation. */
typedef struct slot_rec {
  uint32_t slot, gen;
} slot_rec;

/* A snapshot written field by field from SNAP-002, SNAP-005 and SNAP-010 (not by the
** implementation): parameters p, empty-slot records fr[0..nfree), then one tile record per
** tr[i] holding tiles[i], without edits. */
static opc_buf snap_bytes(const op_mesh_params *p, const slot_rec *fr, uint32_t nfree,
                          const slot_rec *tr, op_tile *const *tiles, uint32_t ntiles) {
  opc_buf pay = {NULL, 0, 0, 0}, b = {NULL, 0, 0, 0};
  opc_put_u32(&pay, nfree);
  for (uint32_t i = 0; i < nfree; i++) {
    opc_put_u32(&pay, fr[i].slot);
    opc_put_u32(&pay, fr[i].gen);
  }
  opc_put_u32(&pay, ntiles);
  for (uint32_t i = 0; i < ntiles; i++) {
    op_tile_desc v;
    op_tile_view(tiles[i], &v);
    op_bytes tb = {NULL, 0};
    op_error e;
    if (op_tile_save(tiles[i], &tb, &e)) fprintf(stderr, "snap_bytes: %s\n", e.message);
    opc_put_u32(&pay, tr[i].slot);
    opc_put_u32(&pay, tr[i].gen);
    opc_put_u32(&pay, (uint32_t)v.x);
    opc_put_u32(&pay, (uint32_t)v.z);
    opc_put_u32(&pay, (uint32_t)v.layer);
    opc_put_u32(&pay, (uint32_t)tb.len);
    opc_put(&pay, tb.data, tb.len);
    opc_put_u32(&pay, 0); /* nedits */
    op_bytes_free(&tb);
  }
  opc_put(&b, "OPSN", 4);
  opc_put_u32(&b, 1);
  opm_put_params(&b, p);
  opc_put_u32(&b, 1);
  opc_put(&b, "SLOT", 4);
  opc_put_u32(&b, 1);
  opc_put_u64(&b, pay.len);
  opc_put(&b, pay.p, pay.len);
  if (pay.oom) b.oom = 1;
  free(pay.p);
  return b;
}

static int read_file(const char *path, opc_buf *out) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  uint8_t chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) opc_put(out, chunk, n);
  fclose(f);
  return out->oom ? -1 : 0;
}

/* The fuzz regression fuzz/regressions/snapshot_bytes/high-empty-slot-104b: max_tiles 2^22
** and one empty-slot record at the last slot, 4194303, generation 2. It loads (SNAP-007) and
** the mesh stores one slot for it, not 2^22 (MESH-004's note: slots cost memory only once
** used); everything else behaves as SNAP-007 and MESH-011/012 say. */
OPT_TEST(high_empty_slot_sparse, "SNAP-007") {
  op_error e;
  op_mesh_params p; /* the file's parameters */
  memset(&p, 0, sizeof p);
  p.tiling.cell_size = 0.5;
  p.tiling.cell_height = 0.25;
  p.tiling.tile_cells = 8;
  p.tiling.max_verts_per_poly = 6;
  p.walkable_climb = 0.5;
  p.max_tiles = 1u << 22;
  const slot_rec last = {(1u << 22) - 1u, 2};
  opc_buf want = snap_bytes(&p, &last, 1, NULL, NULL, 0), file = {NULL, 0, 0, 0};
  OPT_CHECK(read_file(OP_SOURCE_DIR "/fuzz/regressions/snapshot_bytes/high-empty-slot-104b",
                      &file) == 0);
  OPT_CHECK(!want.oom && want.len == 104 && file.len == 104 && !memcmp(want.p, file.p, 104));
  op_mesh *m = NULL;
  OPT_CHECK(op_mesh_create(&p, &m, &e) == OP_OK);
  for (int k = 0; k < 2; k++) { /* loading twice stays as small */
    OPT_CHECK(op_mesh_snapshot_load(m, file.p, file.len, &e) == OP_OK);
    OPT_CHECK(opm_stored_slots(m) == 1 && opm_slot_capacity(m) <= 8);
  }
  op_bytes s = fx_mesh_snapshot(m), ms = fx_mesh_bytes(m);
  OPT_CHECK(s.len == file.len && !memcmp(s.data, file.p, file.len)); /* SNAP-009 */
  OPT_CHECK(ms.len == 72 && opc_rd_u32(ms.data + 68) == 0);           /* MESH-040: no tiles */
  op_bytes_free(&s);
  op_bytes_free(&ms);
  op_mesh_free(m);
  free(want.p);
  free(file.p);

  /* The same record with this file's tiles (cell size 1, 4 cells): adding takes the lowest
  ** empty slot, 0, at generation 1 (MESH-011, MESH-012); the last slot keeps generation 2 and
  ** holds no tile (MESH-016). */
  m = fx_mesh(0.5, 1u << 22);
  op_mesh_params q = p;
  q.tiling = fx_tiling(0.5);
  want = snap_bytes(&q, &last, 1, NULL, NULL, 0);
  OPT_CHECK(op_mesh_snapshot_load(m, want.p, want.len, &e) == OP_OK);
  OPT_CHECK(add(m, 0, 0, 0, 0.0) == opm_make_ref(1, 0, 0) && opm_stored_slots(m) == 2);
  uint16_t fl;
  uint8_t ar;
  OPT_CHECK(op_mesh_get_poly(m, opm_make_ref(2, last.slot, 0), &fl, &ar, &e) == OP_E_ARGUMENT &&
            !strcmp(e.field, "ref") && !strcmp(e.value, "00000bfffff00000"));
  op_mesh_free(m);
  free(want.p);

  /* A tile record at slot 4194302, generation 7, next to an added tile: references and
  ** links name the high slot; two slots stored. */
  m = fx_mesh(0.5, 1u << 22);
  op_tile *t = tile2(0, 0, 0, 0.0);
  const slot_rec high = {(1u << 22) - 2u, 7};
  want = snap_bytes(&q, NULL, 0, &high, &t, 1);
  op_tile_free(t);
  OPT_CHECK(op_mesh_snapshot_load(m, want.p, want.len, &e) == OP_OK && opm_stored_slots(m) == 1);
  op_ref r = 0, hr = opm_make_ref(7, high.slot, 0);
  OPT_CHECK(op_mesh_poly_ref(m, 0, 0, 0, 1, &r, &e) == OP_OK && r == hr + 1);
  OPT_CHECK(add(m, 1, 0, 0, 0.0) == opm_make_ref(1, 0, 0) && opm_stored_slots(m) == 2);
  const opm_occ *o = opm_occ_at(m, 0); /* MESH-021: side 2 of (0,0,0) meets side 0 of (1,0,0) */
  int to_high = 0;
  for (uint32_t k = 0; o && k < o->nlinks; k++) to_high += o->links[k].target == hr ||
                                                           o->links[k].target == hr + 1;
  OPT_CHECK(to_high == 2);
  op_bytes s2 = fx_mesh_snapshot(m);
  op_mesh *n = fx_mesh(0.5, 1u << 22); /* SNAP-008: a round trip gives the same mesh */
  OPT_CHECK(op_mesh_snapshot_load(n, s2.data, s2.len, &e) == OP_OK && opm_stored_slots(n) == 2);
  op_bytes a = fx_mesh_bytes(m), b = fx_mesh_bytes(n);
  OPT_CHECK(fx_same(&a, &b));
  op_bytes_free(&a);
  op_bytes_free(&b);
  op_bytes_free(&s2);
  op_mesh_free(n);
  op_mesh_free(m);
  free(want.p);
}

/* MESH-011, MESH-012 with stored slots: the lowest empty slot may be a stored one (with its
** generation) or a slot never stored (generation 1); a slot that wraps back to generation 1
** when emptied holds no state any more (SNAP-011: not recorded). */
OPT_TEST(lowest_free_and_wrap, "MESH-012") {
  op_error e;
  op_mesh_params q;
  q.tiling = fx_tiling(0.5);
  q.walkable_climb = 0.5;
  q.max_tiles = 8;
  /* free: slot 1 at generation 3, slot 6 at 2; tiles: slot 0 (generation 1), slot 2
  ** (generation 2^22 - 1) */
  const slot_rec fr[2] = {{1, 3}, {6, 2}}, tr[2] = {{0, 1}, {2, (1u << 22) - 1u}};
  op_tile *t[2] = {tile2(0, 0, 0, 0.0), tile2(9, 9, 0, 0.0)};
  opc_buf b = snap_bytes(&q, fr, 2, tr, t, 2);
  op_tile_free(t[0]);
  op_tile_free(t[1]);
  op_mesh *m = fx_mesh(0.5, 8);
  OPT_CHECK(op_mesh_snapshot_load(m, b.p, b.len, &e) == OP_OK && opm_stored_slots(m) == 4);
  /* slots in order 1 (gen 3), 3, 4, 5 (gen 1), 6 (gen 2), 7 (gen 1), then none */
  static const uint32_t want_slot[6] = {1, 3, 4, 5, 6, 7}, want_gen[6] = {3, 1, 1, 1, 2, 1};
  for (int k = 0; k < 6; k++)
    OPT_CHECK(add(m, 20 + 2 * k, 0, 0, 0.0) == opm_make_ref(want_gen[k], want_slot[k], 0));
  op_tile *extra = tile2(40, 0, 0, 0.0);
  op_ref r = 0;
  OPT_CHECK(op_mesh_add_tile(m, extra, &r, &e) == OP_E_LIMIT && !strcmp(e.field, "max_tiles"));
  OPT_CHECK(opm_stored_slots(m) == 8);
  /* slot 2 wraps: removing its tile gives generation 1, so it is no longer stored, and a
  ** snapshot records no empty slot */
  OPT_CHECK(op_mesh_remove_tile(m, 9, 9, 0, &e) == OP_OK && opm_stored_slots(m) == 7);
  op_bytes s = fx_mesh_snapshot(m);
  OPT_CHECK(s.len > 96 && opc_rd_u32(s.data + 88) == 0 && opc_rd_u32(s.data + 92) == 7);
  OPT_CHECK(op_mesh_add_tile(m, extra, &r, &e) == OP_OK && r == opm_make_ref(1, 2, 0));
  op_tile_free(extra);
  op_bytes_free(&s);
  free(b.p);
  op_mesh_free(m);
}

OPT_MAIN_BEGIN
OPT_RUN(round_trip);
OPT_RUN(empty_layout);
OPT_RUN(truncation);
OPT_RUN(corruption);
OPT_RUN(params_must_match);
OPT_RUN(named_errors);
OPT_RUN(duplicate_position);
OPT_RUN(high_empty_slot_sparse);
OPT_RUN(lowest_free_and_wrap);
OPT_MAIN_END
