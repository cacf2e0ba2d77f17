/*
** alloc.h -- the counted allocator of the reference (spec/conformance.md, "Session ops",
** CONF-059: the test-only allocation-failure knob). A stage that takes an
** op_alloc_count (include/onepath.h) allocates through these; NULL counts nothing and
** never fails, so the plain builds behave exactly as with malloc. The counter is the
** caller's object (the protocol's session), never global state.
*/
#ifndef OPC_ALLOC_H
#define OPC_ALLOC_H

#include <stddef.h>

#include "onepath.h"

/* CONF-059: counts one allocation on a (NULL: none); 1 when it is the one that must fail
** (the count reaches a->fail_at), else 0. */
int opc_alloc_fail(op_alloc_count *a);

/* malloc, calloc, realloc counted on a: NULL (p untouched for realloc) when the count says
** this allocation fails, else the C library's answer. */
void *opc_malloc(op_alloc_count *a, size_t size);
void *opc_calloc(op_alloc_count *a, size_t n, size_t size);
void *opc_realloc(op_alloc_count *a, void *p, size_t size);

#endif
