/*
** hash.c -- op_hash64: XXH3-64 with seed 0 (spec/navmesh-format.md, content id FMT-043;
** spec/conformance.md, checkpoint hashes). Uses libxxhash.
*/
#include <xxhash.h>

#include "onepath.h"

uint64_t op_hash64(const void *data, size_t len) {
  /* XXH3_64bits is XXH3-64 with seed 0 and the default secret. */
  return (uint64_t)XXH3_64bits(data, len);
}
