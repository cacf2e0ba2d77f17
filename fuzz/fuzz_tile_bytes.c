/*
** fuzz_tile_bytes.c -- untrusted tile bytes (navmesh-format.md).
**
** Oracle: op_tile_load either rejects the input with an error kind and a named field,
** or accepts it, and then the tile re-serializes to exactly the input bytes (FMT
** canonical form: one tile has one byte string) with the same content id.
*/
#include <stdlib.h>
#include <string.h>

#include "onepath.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  op_tile *t = NULL;
  op_error err;
  op_status st = op_tile_load(data, size, &t, &err);
  if (st != OP_OK) {
    if (t != NULL || err.kind != st || err.field[0] == '\0') abort();
    return 0;
  }
  op_bytes out = {0};
  if (op_tile_save(t, &out, &err) != OP_OK) abort();
  if (out.len != size || memcmp(out.data, data, size) != 0) abort();
  if (op_tile_content_id(t) == 0 && size > 0) { /* a zero id is allowed, just rare */ }
  op_bytes_free(&out);
  op_tile_free(t);
  return 0;
}
