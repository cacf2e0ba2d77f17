/*
** error.c -- error kinds and the error record every failing call fills
** (spec/conformance.md, "Errors").
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

const char *op_status_name(op_status s) {
  switch (s) {
  case OP_OK: return "ok";
  case OP_E_ARGUMENT: return "argument";
  case OP_E_RANGE: return "out_of_range";
  case OP_E_FORMAT: return "format";
  case OP_E_LIMIT: return "limit";
  case OP_E_NOMEM: return "out_of_memory";
  }
  return "unknown";
}

void op_bytes_free(op_bytes *b) {
  if (!b) return;
  free(b->data);
  b->data = NULL;
  b->len = 0;
}

void op_clear(op_error *err) {
  if (!err) return;
  memset(err, 0, sizeof *err);
  err->kind = OP_OK;
}

void op_format_double(char *buf, size_t size, double v) {
  if (isnan(v)) { snprintf(buf, size, "NaN"); return; }
  if (isinf(v)) { snprintf(buf, size, v > 0 ? "Infinity" : "-Infinity"); return; }
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, size, "%.*g", prec, v);
    if (strtod(buf, NULL) == v && (v != 0 || signbit(v) == signbit(strtod(buf, NULL))))
      return;
  }
}

static void copy_trunc(char *dst, size_t size, const char *src) {
  size_t n = src ? strlen(src) : 0;
  if (n >= size) n = size - 1;
  if (n) memcpy(dst, src, n);
  dst[n] = '\0';
}

op_status op_fail(op_error *err, op_status kind, const char *field, const char *value,
                  const char *fmt, ...) {
  if (!err) return kind;
  char why[192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  err->kind = kind;
  copy_trunc(err->field, sizeof err->field, field);
  copy_trunc(err->value, sizeof err->value, value);
  snprintf(err->message, sizeof err->message, "%s: %s = %s", why, field ? field : "?",
           value ? value : "?");
  return kind;
}

op_status op_fail_d(op_error *err, op_status kind, const char *field, double value,
                    const char *why) {
  char buf[40];
  op_format_double(buf, sizeof buf, value);
  return op_fail(err, kind, field, buf, "%s", why);
}

op_status op_fail_i(op_error *err, op_status kind, const char *field, long long value,
                    const char *why) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", value);
  return op_fail(err, kind, field, buf, "%s", why);
}

/* CONF-010: out_of_memory names the object whose allocation failed; the value is empty. */
op_status opc_nomem(op_error *err, const char *field) {
  if (!err) return OP_E_NOMEM;
  op_fail(err, OP_E_NOMEM, field, "", "out of memory");
  snprintf(err->message, sizeof err->message, "out of memory (%s)", field ? field : "?");
  return OP_E_NOMEM;
}
