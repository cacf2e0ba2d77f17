/*
** fuzz_tile_bytes.c -- untrusted tile bytes (navmesh-format.md).
**
** Oracle: op_tile_load either rejects the input with an error kind and a named field,
** or accepts it, and then the tile re-serializes to exactly the input bytes (FMT
** canonical form: one tile has one byte string) with the same content id. Added oracles:
** the content id is the XXH3-64 of every byte before it (FMT-043), and Create agrees with
** Deserialize: creating a tile from the accepted tile's own fields (op_tile_view) succeeds
** and serializes to the same bytes (FMT-044: Create and Deserialize run the same rules).
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
  uint64_t id = 0;
  for (int i = 7; i >= 0; i--) id = (id << 8) | data[size - 8 + (size_t)i];
  if (size < 8 || op_tile_content_id(t) != id || op_hash64(data, size - 8) != id) abort();
  op_tile_desc v;
  op_tile_view(t, &v);
  op_tile *t2 = NULL;
  op_bytes out2 = {0};
  if (op_tile_create(&v, &t2, &err) != OP_OK) abort();
  if (op_tile_save(t2, &out2, &err) != OP_OK) abort();
  if (out2.len != size || memcmp(out2.data, data, size) != 0) abort();
  op_bytes_free(&out2);
  op_tile_free(t2);
  op_bytes_free(&out);
  op_tile_free(t);
  return 0;
}
