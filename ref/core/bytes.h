/*
** bytes.h -- little-endian byte writing and reading shared by the serializations of
** spec/navmesh-format.md (FMT-040: tiles), spec/navmesh-mesh.md (MESH-040: meshes) and
** spec/navmesh-snapshot.md (SNAP-002: snapshots): integers little-endian, f32 and f64 as
** their IEEE-754 bit patterns, no padding. Not part of the public API.
**
** opc_buf is a growing writer whose out-of-memory flag sticks (every later put is a no-op,
** the caller checks oom once at the end); a writer over a buffer of known size is an
** opc_buf whose capacity is reserved up front (then no put reallocates). opc_rd_* read
** from a pointer the caller has bounds-checked.
*/
#ifndef OP_CORE_BYTES_H
#define OP_CORE_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------ writer */

typedef struct opc_buf {
  uint8_t *p;      /* owned (realloc'd) unless the caller handed in a fixed buffer */
  size_t len, cap; /* bytes written, bytes allocated */
  int oom;         /* sticks: once set, every put is a no-op */
} opc_buf;

/* Room for `extra` more bytes: 0, or -1 (no memory: oom set, nothing written). */
int opc_buf_reserve(opc_buf *b, size_t extra);
void opc_put(opc_buf *b, const void *src, size_t n);
void opc_put_u8(opc_buf *b, uint8_t v);
void opc_put_u16(opc_buf *b, uint16_t v);
void opc_put_u32(opc_buf *b, uint32_t v);
void opc_put_u64(opc_buf *b, uint64_t v);
void opc_put_f32(opc_buf *b, float v);
void opc_put_f64(opc_buf *b, double v);

/* ------------------------------------------------------------ reader */

static inline uint16_t opc_rd_u16(const uint8_t *p) {
  return (uint16_t)((unsigned)p[0] | ((unsigned)p[1] << 8));
}
static inline uint32_t opc_rd_u32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t opc_rd_u64(const uint8_t *p) {
  return (uint64_t)opc_rd_u32(p) | ((uint64_t)opc_rd_u32(p + 4) << 32);
}
static inline float opc_rd_f32(const uint8_t *p) {
  uint32_t u = opc_rd_u32(p);
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static inline double opc_rd_f64(const uint8_t *p) {
  uint64_t u = opc_rd_u64(p);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

#endif
