/*
** internal.h -- helpers shared by the ref/ files; not part of the public API.
*/
#ifndef OP_INTERNAL_H
#define OP_INTERNAL_H

#include "onepath.h"

/* Fill err (if non-NULL) and return kind. `field` is the spec'd field name, `value`
** the offending value already formatted; fmt/... is the sentence for people. The
** message always ends up naming field and value. (CONF-0xx error contract) */
op_status op_fail(op_error *err, op_status kind, const char *field, const char *value,
                  const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Same, formatting a double value in shortest round-trip form ("NaN", "Infinity",
** "-Infinity", "-0" for the special values). */
op_status op_fail_d(op_error *err, op_status kind, const char *field, double value,
                    const char *why);
/* Same, for an integer value. */
op_status op_fail_i(op_error *err, op_status kind, const char *field, long long value,
                    const char *why);

/* Shortest text that reads back as the same double (buffer of at least 32 bytes). */
void op_format_double(char *buf, size_t size, double v);

/* Clear err to OP_OK. */
void op_clear(op_error *err);

#endif
