/*
** ops_session.c -- the session ops of the port protocol: hello, drop, echo
** (spec/conformance.md, "Session ops" CONF-050 .. CONF-053).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

#define OPD_PROTOCOL "onepath-port/1" /* CONF-050; v1: hello's ops decide skipping (CONF-055) */
#define OPD_IMPLEMENTATION "onepath-ref " OP_VERSION_STRING

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* CONF-050: hello -> {protocol, implementation, ops: [names sorted by byte value]} */
static op_status op_hello(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  (void)s;
  (void)args;
  size_t ntables, n = 0;
  const opd_op *const *tables = opd_op_tables(&ntables);
  for (size_t t = 0; t < ntables; t++)
    for (const opd_op *o = tables[t]; o->name; o++) n++;
  const char **names = malloc((n ? n : 1) * sizeof *names);
  if (!names) return op_fail(err, OP_E_NOMEM, "ops", "", "cannot list the ops");
  size_t k = 0;
  for (size_t t = 0; t < ntables; t++)
    for (const opd_op *o = tables[t]; o->name; o++)
      if (opd_find_op(o->name) == o) names[k++] = o->name; /* a shadowed duplicate is not listed */
  qsort(names, k, sizeof *names, cmp_names);
  opj_w_key(res, "protocol");
  opj_w_str(res, OPD_PROTOCOL);
  opj_w_key(res, "implementation");
  opj_w_str(res, OPD_IMPLEMENTATION);
  opj_w_key(res, "ops");
  opj_w_arr_begin(res);
  for (size_t i = 0; i < k; i++) opj_w_str(res, names[i]);
  opj_w_arr_end(res);
  free(names);
  return OP_OK;
}

/* CONF-041: drop {handle} -> {} ; a handle that is not live is an argument error. */
static op_status op_drop(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  (void)res;
  int64_t h;
  const opj *jh = opj_get(args, "handle");
  if (opj_int(jh, INT64_MIN, INT64_MAX, &h))
    return opd_arg_error(err, "handle", "handle must be an integer");
  if (opd_drop_any(s, h))
    return op_fail_i(err, OP_E_ARGUMENT, "handle", h, "no live object has this handle");
  return OP_OK;
}

/* CONF-059 (tests only): fail_alloc {after} -> {} arms the session: the next request's
** after-th counted allocation fails; after 0 arms nothing. */
static op_status op_fail_alloc(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  (void)res;
  int64_t k;
  if (opj_int(opj_get(args, "after"), INT64_MIN, INT64_MAX, &k))
    return opd_arg_error(err, "after", "after must be an integer");
  if (k < 0 || k > (int64_t)UINT32_MAX)
    return op_fail_i(err, OP_E_RANGE, "after", k, "after must be in [0, 2^32 - 1]");
  opd_arm_alloc(s, (uint64_t)k);
  return OP_OK;
}

/* CONF-053: echo reads each member as the value form its name says and writes it back
** in canonical form; it lets a port check its value encodings. */
static op_status echo_member(const char *name, const opj *arr, opj_w *res, op_error *err) {
  char field[96];
  if (arr->type != OPJ_ARR) return opd_arg_error(err, name, "echo members are arrays");
  /* Decode everything first: a failed call writes nothing meaningful. */
  opj_w_key(res, name);
  opj_w_arr_begin(res);
  for (size_t i = 0; i < arr->n; i++) {
    const opj *v = arr->items[i];
    snprintf(field, sizeof field, "%s[%zu]", name, i);
    if (strcmp(name, "f64") == 0) {
      double d;
      if (opj_double(v, &d)) return opd_arg_error(err, field, "not a double");
      opj_w_double(res, d);
    } else if (strcmp(name, "i64") == 0) {
      int64_t x;
      if (opj_int(v, INT64_MIN, INT64_MAX, &x)) return opd_arg_error(err, field, "not a 64-bit integer");
      opj_w_int(res, x);
    } else if (strcmp(name, "u64") == 0) {
      uint64_t x;
      if (opj_u64hex(v, &x)) return opd_arg_error(err, field, "not 16 lower-case hex digits");
      opj_w_u64hex(res, x);
    } else if (strcmp(name, "bytes") == 0) {
      uint8_t *b;
      size_t n;
      if (opj_hexbytes(v, &b, &n)) return opd_arg_error(err, field, "not lower-case hex bytes");
      opj_w_hexbytes(res, b, n);
      free(b);
    } else { /* str */
      if (!v || v->type != OPJ_STR) return opd_arg_error(err, field, "not a string");
      opj_w_strn(res, v->str, v->len);
    }
  }
  opj_w_arr_end(res);
  return OP_OK;
}

static op_status op_echo(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  (void)s;
  static const char *const names[] = {"f64", "i64", "u64", "bytes", "str"};
  for (size_t i = 0; i < args->n; i++) {
    int known = 0;
    for (size_t k = 0; k < 5; k++) known |= strcmp(args->keys[i], names[k]) == 0;
    if (!known) return opd_arg_error(err, args->keys[i], "unknown echo member");
  }
  for (size_t k = 0; k < 5; k++) {
    const opj *a = opj_get(args, names[k]);
    if (a) {
      op_status st = echo_member(names[k], a, res, err);
      if (st) return st;
    }
  }
  return OP_OK;
}

const opd_op opd_ops_session[] = {
    {"drop", op_drop},
    {"echo", op_echo},
    {"fail_alloc", op_fail_alloc},
    {"hello", op_hello},
    {NULL, NULL},
};
