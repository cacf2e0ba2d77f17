/*
** internal.h -- helpers shared by the ref/ files; not part of the public API.
*/
#ifndef OP_INTERNAL_H
#define OP_INTERNAL_H

#include "onepath.h"

/* The error helpers (op_fail, op_fail_d, op_fail_i, op_format_double, op_clear) are
** public: include/onepath.h, "errors". */

#endif
