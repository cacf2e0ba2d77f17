/*
** opmath.h -- the numeric model of spec/math.md ("Numeric model", MATH-007 .. MATH-009)
** for the ref/ files. The helpers themselves (op_rint_even, op_round_half_even,
** op_f32_fits, op_to_f32, op_is_f32, OP_F32_MAX, OP_F32_OVERFLOW) are public:
** include/onepath.h, "math". Kept so that the ref/ files and tests that include it need no
** change; it only checks the constants' values. Internal: not part of the public API.
*/
#ifndef OP_OPMATH_H
#define OP_OPMATH_H

#include "onepath.h"

/* MATH-008: the public header writes the constants as exact decimal integers (so C++11
** reads them); tests/test_math.c (f32_conversion) checks them against the hex-float values. */

#endif
