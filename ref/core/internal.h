/*
** internal.h -- helpers shared by the ref/ files; not part of the public API
** (spec/conformance.md, "Errors").
*/
#ifndef OP_INTERNAL_H
#define OP_INTERNAL_H

#include "onepath.h"

/* The error helpers (op_fail, op_fail_d, op_fail_i, op_format_double, op_clear) are
** public: include/onepath.h, "errors". */

/* An allocation failure (spec/conformance.md, "Errors"; CONF-010: never expected by a
** scenario): fills err with kind OP_E_NOMEM, the given field (each section's error table
** names it), an empty value and the message "out of memory (FIELD)". Returns OP_E_NOMEM. */
op_status opc_nomem(op_error *err, const char *field);

#endif
