/*
** artifact_mesh.c -- names the parts of a whole-mesh serialization (spec/navmesh-mesh.md,
** "Serialization", MESH-040 .. MESH-044) and of a snapshot (spec/navmesh-snapshot.md,
** SNAP-002 .. SNAP-013; the tile cache snapshot's TCAC section, SNAP-016, SNAP-017), so
** the runner can say which tile of a port's answer first differs from the reference's.
**
** Parts of a mesh: "header" (72 bytes), then "tile X,Z,L" per tile record (its 24-byte
** record header, the tile's own bytes, its edits and its links).
** Parts of a snapshot: "header" (72 bytes), then per section "section TAG" (its 16-byte
** header); in the SLOT section "free" (the count and the empty-slot records), "ntiles",
** then "tile X,Z,L" per tile record (record header, tile bytes, edits); in the TCAC
** section of a tile cache snapshot (SNAP-016, SNAP-017) "ids" (fingerprint and next ids,
** 16 bytes), "nobstacles", "obstacle ID" per obstacle record, "nvolumes", "volume ID" per
** volume record, "queue" (the count and the entries); any other section is one part
** "payload".
** Tile records of both start with the same 24-byte header, so opa_tile_record_skip is 24.
** The walk only frames (counts and lengths); it never validates values.
*/
#include <stdio.h>

#include "artifact.h"

#define REC_HDR 24u /* MESH-041, SNAP-012: slot, generation, x, z, layer, tile_length */

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

typedef struct walk {
  const uint8_t *p;
  size_t n, off;
} walk;

static int skip(walk *w, uint64_t len) {
  if (len > w->n - w->off) return -1;
  w->off += (size_t)len;
  return 0;
}

static int count(walk *w, uint32_t *v) {
  if (w->n - w->off < 4) return -1;
  *v = rd32(w->p + w->off);
  w->off += 4;
  return 0;
}

/* One tile record; with_links for mesh records. Reports the part. */
static int tile_record(walk *w, int with_links, opa_cb cb, void *ud) {
  size_t start = w->off;
  if (w->n - w->off < REC_HDR) return -1;
  const uint8_t *h = w->p + w->off;
  int32_t x = (int32_t)rd32(h + 8), z = (int32_t)rd32(h + 12), l = (int32_t)rd32(h + 16);
  uint32_t tlen = rd32(h + 20), k;
  w->off += REC_HDR;
  if (skip(w, tlen) || count(w, &k) || skip(w, (uint64_t)k * 8u)) return -1;
  if (with_links && (count(w, &k) || skip(w, (uint64_t)k * 24u))) return -1;
  char name[64];
  snprintf(name, sizeof name, "tile %ld,%ld,%ld", (long)x, (long)z, (long)l);
  if (cb) cb(ud, name, start, w->off - start);
  return 0;
}

int opa_mesh_parts(const uint8_t *p, size_t n, opa_cb cb, void *ud) {
  if (!p || n < 72) return -1;
  if (cb) cb(ud, "header", 0, 72);
  walk w = {p, n, 72};
  uint32_t ntiles = rd32(p + 68);
  for (uint32_t i = 0; i < ntiles; i++)
    if (tile_record(&w, 1, cb, ud)) return -1;
  return w.off == n ? 0 : -1;
}

/* SNAP-017: the byte size of an obstacle record of this shape, or 0 for no shape. */
static uint64_t obstacle_size(uint32_t shape) {
  static const uint64_t size[3] = {48, 56, 64};
  return shape < 3 ? size[shape] : 0;
}

/* One part "WHAT ID" for a record of `len` bytes starting with its u32 id. */
static int id_record(walk *w, const char *what, uint64_t len, opa_cb cb, void *ud) {
  size_t start = w->off;
  if (len < 8 || w->n - w->off < 8) return -1;
  uint32_t id = rd32(w->p + w->off);
  if (skip(w, len)) return -1;
  char name[48];
  snprintf(name, sizeof name, "%s %lu", what, (unsigned long)id);
  if (cb) cb(ud, name, start, w->off - start);
  return 0;
}

/* The TCAC payload (SNAP-016): ids, the obstacle and volume records, the queue. */
static int tcac_parts(walk *w, opa_cb cb, void *ud) {
  uint32_t k;
  if (w->n - w->off < 16) return -1;
  if (cb) cb(ud, "ids", w->off, 16);
  w->off += 16;
  if (count(w, &k)) return -1;
  if (cb) cb(ud, "nobstacles", w->off - 4, 4);
  for (uint32_t i = 0; i < k; i++) {
    if (w->n - w->off < 8) return -1;
    if (id_record(w, "obstacle", obstacle_size(rd32(w->p + w->off + 4)), cb, ud)) return -1;
  }
  if (count(w, &k)) return -1;
  if (cb) cb(ud, "nvolumes", w->off - 4, 4);
  for (uint32_t i = 0; i < k; i++) {
    if (w->n - w->off < 8) return -1;
    uint32_t np = rd32(w->p + w->off + 4);
    if (id_record(w, "volume", 8 + 16 * (uint64_t)np + 20, cb, ud)) return -1;
  }
  size_t qs = w->off;
  if (count(w, &k) || skip(w, (uint64_t)k * 8u)) return -1;
  if (cb) cb(ud, "queue", qs, w->off - qs);
  return 0;
}

int opa_snapshot_parts(const uint8_t *p, size_t n, opa_cb cb, void *ud) {
  if (!p || n < 72) return -1;
  if (cb) cb(ud, "header", 0, 72);
  walk w = {p, n, 72};
  uint32_t nsec = rd32(p + 68);
  for (uint32_t s = 0; s < nsec; s++) {
    if (n - w.off < 16) return -1;
    const uint8_t *h = p + w.off;
    char name[64];
    snprintf(name, sizeof name, "section %c%c%c%c", h[0] >= 32 && h[0] < 127 ? h[0] : '?',
             h[1] >= 32 && h[1] < 127 ? h[1] : '?', h[2] >= 32 && h[2] < 127 ? h[2] : '?',
             h[3] >= 32 && h[3] < 127 ? h[3] : '?');
    uint64_t plen = (uint64_t)rd32(h + 8) | (uint64_t)rd32(h + 12) << 32;
    if (cb) cb(ud, name, w.off, 16);
    w.off += 16;
    if (plen > n - w.off) return -1;
    size_t end = w.off + (size_t)plen;
    walk sub = {p, end, w.off};
    if (h[0] == 'T' && h[1] == 'C' && h[2] == 'A' && h[3] == 'C') { /* SNAP-016 */
      if (tcac_parts(&sub, cb, ud) || sub.off != end) return -1;
      w.off = end;
      continue;
    }
    if (h[0] != 'S' || h[1] != 'L' || h[2] != 'O' || h[3] != 'T') { /* unknown: one part */
      if (cb) cb(ud, "payload", w.off, (size_t)plen);
      w.off = end;
      continue;
    }
    uint32_t k;
    size_t fs = sub.off;
    if (count(&sub, &k) || skip(&sub, (uint64_t)k * 8u)) return -1;
    if (cb) cb(ud, "free", fs, sub.off - fs);
    if (count(&sub, &k)) return -1;
    if (cb) cb(ud, "ntiles", sub.off - 4, 4);
    for (uint32_t i = 0; i < k; i++)
      if (tile_record(&sub, 0, cb, ud)) return -1;
    if (sub.off != end) return -1;
    w.off = end;
  }
  return w.off == n ? 0 : -1;
}

size_t opa_tile_record_skip(const uint8_t *part, size_t len) {
  (void)part;
  return len < REC_HDR ? len : REC_HDR;
}
