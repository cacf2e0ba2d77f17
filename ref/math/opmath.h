/*
** opmath.h -- numeric helpers of the numeric model (spec/math.md, "Numeric model") for
** the other ref/ files: round half to even of a double, the double -> float32
** conversion rule and its range test, the float32 membership test. No libm.
** Internal: not part of the public API.
*/
#ifndef OP_OPMATH_H
#define OP_OPMATH_H

#include <stdint.h>

/* Largest finite float32 and the smallest magnitude that rounds to infinity when
** converted: FLT_MAX + half an ulp of FLT_MAX = 2^128 - 2^103 (a tie, and ties go to
** the even neighbour, which is 2^128 = infinity). (MATH-008) */
#define OP_F32_MAX 0x1.fffffep127
#define OP_F32_OVERFLOW 0x1.ffffffp127

/* Round half to even of x to an integer-valued double (MATH-007). x must be finite
** (callers check); values with |x| >= 2^52 are already integers and come back as is.
** The sign of a zero result follows x (-0.3 -> -0.0), which never matters to callers
** that convert to an integer. */
static inline double op_rint_even(double x) {
  const double two52 = 4503599627370496.0; /* 2^52 */
  double ax = x < 0 ? -x : x;
  if (!(ax < two52)) return x;
  /* ax + 2^52 lies in [2^52, 2^53): its ulp is 1, so the sum is ax rounded to an
  ** integer, ties to even; subtracting 2^52 again is exact. */
  double r = (ax + two52) - two52;
  return x < 0 ? -r : r;
}

/* Round half to even of x to a signed 64-bit integer (MATH-007). Requires
** -2^63 <= x < 2^63 (callers check their field's range first). */
static inline int64_t op_round_half_even(double x) {
  return (int64_t)op_rint_even(x);
}

/* 1 when the conversion of x to float32 is finite, i.e. |x| < 2^128 - 2^103
** (MATH-008); 0 for larger magnitudes, infinities and NaN. */
static inline int op_f32_fits(double x) {
  return x > -OP_F32_OVERFLOW && x < OP_F32_OVERFLOW;
}

/* The conversion double -> float32: round to nearest, ties to even (MATH-008).
** Requires op_f32_fits(x). */
static inline float op_to_f32(double x) {
  return (float)x;
}

/* 1 when x is finite and exactly a float32 value (MATH-009): converting it to
** float32 and back gives x. */
static inline int op_is_f32(double x) {
  return op_f32_fits(x) && (double)(float)x == x;
}

#endif
