/*
** math.c -- the deterministic math library (spec/math.md, section prefix MATH):
** exact orientation predicates on int64 and float32 points, SinCos, and the PRNG.
** Only +, -, * and comparisons of IEEE-754 binary64 (each rounded to nearest, ties to
** even, in the written order; built with -ffp-contract=off: MATH-002, MATH-003, MATH-005)
** and exact integer arithmetic (MATH-010). No libm (MATH-004). No global mutable state.
*/
#include "core/internal.h"
#include "math/opmath.h"

/* ------------------------------------------------- error-free transformations */

/* TwoSum (MATH-033): s = fl(a + b) and e with s + e == a + b exactly. */
static void two_sum(double a, double b, double *s, double *e) {
  double x = a + b;
  double bv = x - a;
  double av = x - bv;
  *e = (a - av) + (b - bv);
  *s = x;
}

/* --------------------------------------------------------- Orient2D on int64 */

/* b - a as a sign (-1, 0, +1) and a magnitude in [0, 2^64 - 1] (MATH-021). */
static void diff_i64(int64_t b, int64_t a, int *sg, uint64_t *mag) {
  if (b >= a) {
    *sg = b > a;
    *mag = (uint64_t)b - (uint64_t)a;
  } else {
    *sg = -1;
    *mag = (uint64_t)a - (uint64_t)b;
  }
}

/* MATH-020, MATH-021: sign of (bx-ax)(cy-ay) - (by-ay)(cx-ax), exact for every int64. */
int op_orient2d_i64(const int64_t a[2], const int64_t b[2], const int64_t c[2]) {
  int s1, s2, s3, s4;
  uint64_t m1, m2, m3, m4;
  diff_i64(b[0], a[0], &s1, &m1); /* bx - ax */
  diff_i64(b[1], a[1], &s2, &m2); /* by - ay */
  diff_i64(c[0], a[0], &s3, &m3); /* cx - ax */
  diff_i64(c[1], a[1], &s4, &m4); /* cy - ay */
  int sp = s1 * s4, sq = s2 * s3;  /* signs of the two products */
  unsigned __int128 p = (unsigned __int128)m1 * m4; /* MATH-010: 128-bit products */
  unsigned __int128 q = (unsigned __int128)m2 * m3;
  if (sp != sq) return sp > sq ? 1 : -1;
  if (sp == 0 || p == q) return 0;
  return (p > q) ? sp : -sp;
}

/* ------------------------------------------------------- Orient2D on float32 */

/* MATH-022, MATH-023: the exact sign of the real determinant of float32 points.
** The determinant expands to six products of two float32 values; each is exact in
** binary64 (24 + 24 significant bits, exponents within [-298, 256]), so the
** determinant is exactly the sum of six doubles. A forward error bound decides the
** sign of the plainly rounded sum when it can; otherwise the six terms are summed
** exactly into a nonoverlapping expansion whose largest component gives the sign. */
int op_orient2d_f32(const float a[2], const float b[2], const float c[2]) {
  double ax = a[0], ay = a[1], bx = b[0], by = b[1], cx = c[0], cy = c[1];
  double t[6];
  t[0] = bx * cy;
  t[1] = -(bx * ay);
  t[2] = -(ax * cy);
  t[3] = -(by * cx);
  t[4] = by * ax;
  t[5] = ay * cx;

  /* Filter (informative in the spec): |fl(sum) - sum| <= 5u/(1-5u) * sum|t_i|, and
  ** 2^-50 * fl(sum|t_i|) exceeds that bound (u = 2^-53). */
  double s = t[0], m = t[0] < 0 ? -t[0] : t[0];
  for (int i = 1; i < 6; i++) {
    s = s + t[i];
    m = m + (t[i] < 0 ? -t[i] : t[i]);
  }
  double bound = m * 0x1p-50;
  if (s > bound) return 1;
  if (s < -bound) return -1;

  /* Exact: grow a nonoverlapping expansion (increasing magnitude) one term at a
  ** time with TwoSum; every step is exact, nothing over- or underflows. */
  double e[6];
  int n = 0;
  for (int i = 0; i < 6; i++) {
    double q = t[i];
    for (int j = 0; j < n; j++) {
      double h;
      two_sum(q, e[j], &q, &h);
      e[j] = h;
    }
    e[n++] = q;
  }
  for (int j = n - 1; j >= 0; j--) {
    if (e[j] > 0) return 1;
    if (e[j] < 0) return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------- SinCos */

/* MATH-032: constants, exactly as in the spec's table. */
static const double INV_PIO2 = 0x1.45f306dc9c883p-1; /* 2/pi rounded */
static const double PIO2_1 = 0x1.921fb544p+0;        /* pi/2 split: 31 bits */
static const double PIO2_2 = 0x1.0b4611a6p-34;       /* next bits, <= 32 */
static const double PIO2_3 = 0x1.3198a2ep-69;        /* next bits, <= 32 */
static const double PIO2_4 = 0x1.b839a252049c1p-104; /* rest, rounded */

/* Taylor coefficients (-1)^(n/2) / n!, each rounded to nearest double. */
static const double S3 = -0x1.5555555555555p-3;
static const double S5 = 0x1.1111111111111p-7;
static const double S7 = -0x1.a01a01a01a01ap-13;
static const double S9 = 0x1.71de3a556c734p-19;
static const double S11 = -0x1.ae64567f544e4p-26;
static const double S13 = 0x1.6124613a86d09p-33;
static const double S15 = -0x1.ae7f3e733b81fp-41;
static const double S17 = 0x1.952c77030ad4ap-49;

static const double C4 = 0x1.5555555555555p-5;
static const double C6 = -0x1.6c16c16c16c17p-10;
static const double C8 = 0x1.a01a01a01a01ap-16;
static const double C10 = -0x1.27e4fb7789f5cp-22;
static const double C12 = 0x1.1eed8eff8d898p-29;
static const double C14 = -0x1.93974a8c07c9dp-37;
static const double C16 = 0x1.ae7f3e733b81fp-45;
static const double C18 = -0x1.6827863b97d97p-53;

/* MATH-035: sine of the reduced argument x + y (|y| <= ulp(x)/2). Kept apart from
** kernel_cos though the Horner shape is alike: the two clauses fix different
** coefficients and tails, each written out in the spec's order. */
static double kernel_sin(double x, double y) {
  double z = x * x;
  double v = z * x;
  double p = S17;
  p = S15 + z * p;
  p = S13 + z * p;
  p = S11 + z * p;
  p = S9 + z * p;
  p = S7 + z * p;
  p = S5 + z * p;
  p = S3 + z * p;
  double w = v * p;               /* ~ sin(x) - x */
  double t = y - (0.5 * z) * y;   /* ~ y * cos(x) */
  return x + (w + t);
}

/* MATH-036: cosine of the reduced argument x + y. */
static double kernel_cos(double x, double y) {
  double z = x * x;
  double q = C18;
  q = C16 + z * q;
  q = C14 + z * q;
  q = C12 + z * q;
  q = C10 + z * q;
  q = C8 + z * q;
  q = C6 + z * q;
  q = C4 + z * q;
  double hz = 0.5 * z;
  double w = 1.0 - hz;
  double e = (1.0 - w) - hz;      /* exact: w + e == 1 - hz */
  return w + (e + ((z * z) * q - x * y));
}

op_status op_sincos(double a, double *s, double *c, op_error *err) {
  op_clear(err);
  /* MATH-030, MATH-006: domain, checked before anything (the negated test also rejects
  ** NaN). */
  if (!(a >= -0x1p21 && a <= 0x1p21))
    return op_fail_d(err, OP_E_RANGE, "a", a,
                     "SinCos needs a finite angle with |a| <= 2^21 (2097152)");
  /* MATH-031, MATH-011: zeros keep their sign. */
  if (a == 0) {
    *s = a;
    *c = 1.0;
    return OP_OK;
  }
  /* MATH-034: argument reduction. */
  int64_t k = op_round_half_even(a * INV_PIO2); /* MATH-007 */
  double kd = (double)k;
  double t1 = kd * PIO2_1, t2 = kd * PIO2_2, t3 = kd * PIO2_3; /* exact */
  double t4 = kd * PIO2_4;                                       /* rounded */
  double h = a - t1, l, e;                                       /* exact */
  two_sum(h, -t2, &h, &l);
  two_sum(h, -t3, &h, &e);
  l = l + e;
  two_sum(h, -t4, &h, &e);
  l = l + e;
  double x, y;
  two_sum(h, l, &x, &y);
  double sr = kernel_sin(x, y), cr = kernel_cos(x, y);
  /* MATH-037: quadrant. */
  switch ((uint64_t)k & 3u) {
  case 0: *s = sr; *c = cr; break;
  case 1: *s = cr; *c = -sr; break;
  case 2: *s = -sr; *c = -cr; break;
  default: *s = -cr; *c = sr; break;
  }
  return OP_OK;
}

/* --------------------------------------------------------------------- PRNG */

/* MATH-040: the state is the plain value op_prng (four u64 words, include/onepath.h);
** every function below reads and writes only the state it is given. */

/* MATH-041: one SplitMix64 step on the 64-bit state *x. */
static uint64_t splitmix64(uint64_t *x) {
  *x += 0x9e3779b97f4a7c15u;
  uint64_t z = *x;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static uint64_t rotl64(uint64_t v, unsigned r) {
  return (v << r) | (v >> (64u - r)); /* r in 1..63 */
}

/* MATH-042 */
void op_prng_seed(op_prng *r, uint64_t seed) {
  uint64_t x = seed;
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

/* MATH-043: xoshiro256** output and state step. */
uint64_t op_prng_next_u64(op_prng *r) {
  uint64_t *s = r->s;
  uint64_t out = rotl64(s[1] * 5u, 7) * 9u;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl64(s[3], 45);
  return out;
}

/* MATH-044: uniform in [0, n) by rejecting the lowest 2^64 mod n outputs. n == 0 is
** outside the domain: returns 0 and leaves the state unchanged. */
uint64_t op_prng_below(op_prng *r, uint64_t n) {
  if (n == 0) return 0;
  uint64_t reject = (0u - n) % n; /* 2^64 mod n */
  for (;;) {
    uint64_t x = op_prng_next_u64(r);
    if (x >= reject) return x % n;
  }
}

/* MATH-045: the top 53 bits scaled by 2^-53 (exact). */
double op_prng_unit(op_prng *r) {
  return (double)(op_prng_next_u64(r) >> 11) * 0x1p-53;
}
