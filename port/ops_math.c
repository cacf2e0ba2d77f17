/*
** ops_math.c -- protocol ops of spec/math.md section 5: math.sincos,
** math.orient2d_i64, math.orient2d_f32, prng.new, prng.next_u64, prng.below,
** prng.unit (MATH-050 .. MATH-055). Every argument is decoded and checked before any
** state changes.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

#define MATH_MAX_COUNT 65536 /* MATH-054 */

/* CONF-035, CONF-013: an argument that is absent or not of its form is an argument error
** with the empty value text. */
static op_status bad_arg(op_error *err, const char *field, const char *why) {
  return op_fail(err, OP_E_ARGUMENT, field, "", "%s", why);
}

/* A point: an array of exactly two items. */
static op_status get_pair(const opj *args, const char *key, const opj **out, op_error *err) {
  const opj *v = opj_get(args, key);
  if (!v || v->type != OPJ_ARR || v->n != 2)
    return bad_arg(err, key, "a point is an array of two coordinates");
  *out = v;
  return OP_OK;
}

/* ------------------------------------------------------------ math.sincos */

static op_status op_math_sincos(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  const opj *v = opj_get(args, "a");
  double a, sn, cs;
  if (opj_double(v, &a)) return bad_arg(err, "a", "a must be a number"); /* MATH-050 */
  op_status st = op_sincos(a, &sn, &cs, err);                                /* MATH-030 */
  if (st != OP_OK) return st;
  opj_w_key(res, "s");
  opj_w_double(res, sn);
  opj_w_key(res, "c");
  opj_w_double(res, cs);
  return OP_OK;
}

/* ------------------------------------------------------ math.orient2d_i64 */

/* MATH-051: a JSON integer (CONF-032) with |v| <= 2^53, or a decimal string -?[0-9]+ in
** int64. Value texts (CONF-013): empty for a value not of the form; the exact decimal
** integer for an integral number beyond 2^53 (never through binary64, CONF-032); the string
** as given for a decimal string outside int64. */
static op_status get_coord_i64(const opj *v, const char *field, int64_t *out, op_error *err) {
  if (v && v->type == OPJ_NUM) {
    int64_t x;
    if (opj_int(v, INT64_MIN, INT64_MAX, &x))
      return bad_arg(err, field, "a coordinate number must be an integer");
    if (x < -9007199254740992LL || x > 9007199254740992LL)
      return op_fail_i(err, OP_E_ARGUMENT, field, x, "a coordinate number must have |v| <= 2^53");
    *out = x;
    return OP_OK;
  }
  if (!v || v->type != OPJ_STR)
    return bad_arg(err, field, "a coordinate is an integer number or a decimal string");
  const char *p = v->str;
  size_t n = v->len, i = 0;
  int neg = 0;
  if (n > 0 && p[0] == '-') { neg = 1; i = 1; }
  if (i == n) return bad_arg(err, field, "a decimal string needs digits");
  /* Accumulate the magnitude, saturating once it exceeds 2^63. */
  const uint64_t lim = (uint64_t)1 << 63;
  uint64_t mag = 0;
  int over = 0;
  for (; i < n; i++) {
    if (p[i] < '0' || p[i] > '9')
      return bad_arg(err, field, "a decimal string is an optional '-' and digits");
    unsigned d = (unsigned)(p[i] - '0');
    if (!over && mag > (lim - d) / 10) over = 1;
    if (!over) mag = mag * 10 + d;
  }
  if (over || mag > lim || (!neg && mag == lim)) /* CONF-013: the string as given, cut by CONF-012 */
    return op_fail(err, OP_E_RANGE, field, p, "coordinate outside the 64-bit range");
  *out = neg ? (int64_t)(0u - mag) : (int64_t)mag;
  return OP_OK;
}

static op_status op_math_orient_i64(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  static const char *keys[3] = {"a", "b", "c"};
  int64_t pt[3][2];
  for (int i = 0; i < 3; i++) {
    const opj *arr = NULL;
    op_status st = get_pair(args, keys[i], &arr, err);
    if (st != OP_OK) return st;
    for (int j = 0; j < 2; j++) {
      char field[8];
      snprintf(field, sizeof field, "%s[%d]", keys[i], j);
      st = get_coord_i64(opj_at(arr, (size_t)j), field, &pt[i][j], err);
      if (st != OP_OK) return st;
    }
  }
  opj_w_key(res, "sign");
  opj_w_int(res, op_orient2d_i64(pt[0], pt[1], pt[2])); /* MATH-020 */
  return OP_OK;
}

/* ------------------------------------------------------ math.orient2d_f32 */

static op_status op_math_orient_f32(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  static const char *keys[3] = {"a", "b", "c"};
  float pt[3][2];
  for (int i = 0; i < 3; i++) {
    const opj *arr = NULL;
    op_status st = get_pair(args, keys[i], &arr, err);
    if (st != OP_OK) return st;
    for (int j = 0; j < 2; j++) {
      char field[8];
      snprintf(field, sizeof field, "%s[%d]", keys[i], j);
      const opj *v = opj_at(arr, (size_t)j);
      double d;
      if (!v || v->type != OPJ_NUM || opj_double(v, &d))
        return bad_arg(err, field, "a coordinate must be a finite number");
      if (!op_is_f32(d)) /* MATH-052, MATH-009 */
        return op_fail_d(err, OP_E_ARGUMENT, field, d, "coordinate is not exactly a float32");
      pt[i][j] = op_to_f32(d);
    }
  }
  opj_w_key(res, "sign");
  opj_w_int(res, op_orient2d_f32(pt[0], pt[1], pt[2])); /* MATH-022 */
  return OP_OK;
}

/* ------------------------------------------------------------------- prng */

static op_status op_prng_new(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  const opj *v = opj_get(args, "seed");
  uint64_t seed;
  if (opj_u64hex(v, &seed)) /* MATH-053 */
    return bad_arg(err, "seed", "seed must be 16 lower-case hex digits");
  op_prng *r = malloc(sizeof *r);
  if (!r) return opd_nomem(err, "seed");
  op_prng_seed(r, seed); /* MATH-042 */
  int64_t h = opd_put(s, OPD_PRNG, r);
  if (h <= 0) /* opd_put freed r; MATH-055, CONF-043 */
    return opd_put_error(err, h);
  opj_w_key(res, "handle");
  opj_w_int(res, h);
  return OP_OK;
}

/* MATH-054: the PRNG handle, then the count (form, then range); prng.below checks n after
** both. A handle that is an integer but not a live PRNG is reported with its decimal value
** (CONF-042, CONF-013). */
static op_status get_prng_count(opd_session *s, const opj *args, op_prng **r, int64_t *count,
                                op_error *err) {
  const opj *v = opj_get(args, "prng");
  int64_t h;
  if (opj_int(v, INT64_MIN, INT64_MAX, &h))
    return bad_arg(err, "prng", "prng must be the handle of a PRNG of this session");
  if (!(*r = opd_lookup(s, OPD_PRNG, h)))
    return op_fail_i(err, OP_E_ARGUMENT, "prng", h, "no PRNG of this session has this handle");
  v = opj_get(args, "count");
  if (opj_int(v, INT64_MIN, INT64_MAX, count))
    return bad_arg(err, "count", "count must be an integer");
  if (*count < 0 || *count > MATH_MAX_COUNT)
    return op_fail_i(err, OP_E_RANGE, "count", *count, "count must be in 0..65536");
  return OP_OK;
}

static op_status op_prng_next(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_prng *r;
  int64_t count;
  op_status st = get_prng_count(s, args, &r, &count, err);
  if (st != OP_OK) return st;
  opj_w_key(res, "values");
  opj_w_arr_begin(res);
  for (int64_t i = 0; i < count; i++) opj_w_u64hex(res, op_prng_next_u64(r)); /* MATH-043 */
  opj_w_arr_end(res);
  return OP_OK;
}

static op_status op_prng_below_op(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_prng *r;
  int64_t count;
  op_status st = get_prng_count(s, args, &r, &count, err);
  if (st != OP_OK) return st;
  const opj *v = opj_get(args, "n");
  uint64_t n;
  if (opj_u64hex(v, &n)) return bad_arg(err, "n", "n must be 16 lower-case hex digits"); /* MATH-054 */
  if (n == 0) return op_fail(err, OP_E_RANGE, "n", "0000000000000000", "n must be at least 1");
  opj_w_key(res, "values");
  opj_w_arr_begin(res);
  for (int64_t i = 0; i < count; i++) opj_w_u64hex(res, op_prng_below(r, n)); /* MATH-044 */
  opj_w_arr_end(res);
  return OP_OK;
}

static op_status op_prng_unit_op(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_prng *r;
  int64_t count;
  op_status st = get_prng_count(s, args, &r, &count, err);
  if (st != OP_OK) return st;
  opj_w_key(res, "values");
  opj_w_arr_begin(res);
  for (int64_t i = 0; i < count; i++) opj_w_double(res, op_prng_unit(r)); /* MATH-045 */
  opj_w_arr_end(res);
  return OP_OK;
}

const opd_op opd_ops_math[] = {
    {"math.sincos", op_math_sincos},
    {"math.orient2d_i64", op_math_orient_i64},
    {"math.orient2d_f32", op_math_orient_f32},
    {"prng.new", op_prng_new},
    {"prng.next_u64", op_prng_next},
    {"prng.below", op_prng_below_op},
    {"prng.unit", op_prng_unit_op},
    {NULL, NULL},
};
