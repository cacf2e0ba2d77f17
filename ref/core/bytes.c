/*
** bytes.c -- the little-endian byte writer of ref/core/bytes.h, shared by the tile, mesh and
** snapshot serializations (spec/navmesh-format.md FMT-040, spec/navmesh-mesh.md MESH-040,
** spec/navmesh-snapshot.md SNAP-002).
*/
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"

int opc_buf_reserve(opc_buf *b, size_t extra) {
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

void opc_put(opc_buf *b, const void *src, size_t n) {
  if (n == 0 || opc_buf_reserve(b, n)) return;
  memcpy(b->p + b->len, src, n);
  b->len += n;
}

void opc_put_u8(opc_buf *b, uint8_t v) { opc_put(b, &v, 1); }

void opc_put_u16(opc_buf *b, uint16_t v) {
  uint8_t q[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
  opc_put(b, q, 2);
}

void opc_put_u32(opc_buf *b, uint32_t v) {
  uint8_t q[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  opc_put(b, q, 4);
}

void opc_put_u64(opc_buf *b, uint64_t v) {
  opc_put_u32(b, (uint32_t)v);
  opc_put_u32(b, (uint32_t)(v >> 32));
}

void opc_put_f32(opc_buf *b, float v) {
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  opc_put_u32(b, u);
}

void opc_put_f64(opc_buf *b, double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  opc_put_u64(b, u);
}
