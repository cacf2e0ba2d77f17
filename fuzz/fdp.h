/*
** fdp.h -- a small fuzzed-data producer for the structured harnesses (fuzz_mesh_ops.c and,
** with the run-time tile cache, the obstacle-history harness).
**
** The producer reads typed values from the front of the fuzzer's input bytes. It never
** fails: when the bytes run out every read returns a defined default (the low end of the
** asked range, false, 0, 0.0), so a short input decodes to a short, simple trace and every
** input decodes to exactly one trace. Reads take as few bytes as their range needs, so a
** one-byte change of the input changes one decision (what libFuzzer's mutators expect).
**
** Header-only (static inline), no allocation, no global state.
*/
#ifndef OP_FUZZ_FDP_H
#define OP_FUZZ_FDP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct fdp {
  const uint8_t *p;
  size_t n; /* bytes left */
} fdp;

static inline void fdp_init(fdp *f, const uint8_t *data, size_t size) {
  f->p = data;
  f->n = data ? size : 0;
}

static inline size_t fdp_left(const fdp *f) { return f->n; }

/* One byte; 0 when the input is used up. */
static inline uint8_t fdp_u8(fdp *f) {
  if (f->n == 0) return 0;
  f->n--;
  return *f->p++;
}

/* An integer in [lo, hi] (inclusive; lo <= hi, else lo): as many bytes as hi - lo needs,
** little-endian, reduced modulo the range size. lo when the input is used up. */
static inline uint64_t fdp_range(fdp *f, uint64_t lo, uint64_t hi) {
  if (hi <= lo) return lo;
  uint64_t span = hi - lo, acc = 0;
  int bytes = 0;
  for (uint64_t s = span; s != 0 && f->n > 0; s >>= 8) acc |= (uint64_t)fdp_u8(f) << (8 * bytes++);
  if (span == UINT64_MAX) return acc;
  return lo + acc % (span + 1);
}

static inline int64_t fdp_srange(fdp *f, int64_t lo, int64_t hi) {
  if (hi <= lo) return lo;
  return (int64_t)((uint64_t)lo + fdp_range(f, 0, (uint64_t)hi - (uint64_t)lo));
}

/* One of n choices, 0 .. n-1 (0 when used up or n == 0). */
static inline size_t fdp_choice(fdp *f, size_t n) { return n ? (size_t)fdp_range(f, 0, n - 1) : 0; }

/* False when used up. */
static inline int fdp_bool(fdp *f) { return (int)(fdp_u8(f) & 1); }

static inline uint16_t fdp_u16(fdp *f) { return (uint16_t)fdp_range(f, 0, 0xFFFF); }
static inline uint32_t fdp_u32(fdp *f) { return (uint32_t)fdp_range(f, 0, 0xFFFFFFFFu); }
static inline uint64_t fdp_u64(fdp *f) { return fdp_range(f, 0, UINT64_MAX); }

/* A raw binary64 bit pattern (any value, NaNs included); 0.0 when used up. */
static inline double fdp_double_bits(fdp *f) {
  uint64_t u = fdp_u64(f);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* One value of a table (the first when used up). */
static inline double fdp_pick_double(fdp *f, const double *set, size_t n) {
  return n ? set[fdp_choice(f, n)] : 0.0;
}

/* Copies up to n bytes into out and zero-fills the rest; returns how many came from the
** input. */
static inline size_t fdp_bytes(fdp *f, uint8_t *out, size_t n) {
  size_t k = n < f->n ? n : f->n;
  if (k) memcpy(out, f->p, k);
  if (n > k) memset(out + k, 0, n - k);
  f->p += k;
  f->n -= k;
  return k;
}

#endif
