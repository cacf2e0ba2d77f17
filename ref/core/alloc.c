/*
** alloc.c -- the counted allocator (spec/conformance.md CONF-059; ref/core/alloc.h).
*/
#include "core/alloc.h"

#include <stdlib.h>

int opc_alloc_fail(op_alloc_count *a) { /* CONF-059: the fail_at-th counted one fails */
  return a && ++a->n == a->fail_at;
}

void *opc_malloc(op_alloc_count *a, size_t size) {
  return opc_alloc_fail(a) ? NULL : malloc(size);
}

void *opc_calloc(op_alloc_count *a, size_t n, size_t size) {
  return opc_alloc_fail(a) ? NULL : calloc(n, size);
}

void *opc_realloc(op_alloc_count *a, void *p, size_t size) {
  return opc_alloc_fail(a) ? NULL : realloc(p, size);
}
