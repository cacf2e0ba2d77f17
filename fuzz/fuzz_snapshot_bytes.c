/*
** fuzz_snapshot_bytes.c -- untrusted mesh snapshot bytes (navmesh-snapshot.md).
**
** Oracle: loading into a mesh either fails with a named field and leaves the mesh's
** serialization byte for byte unchanged (SNAP atomic load), or succeeds, and then a
** new snapshot of the mesh equals the input bytes.
*/
#include <stdlib.h>
#include <string.h>

#include "onepath.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static op_mesh *new_mesh(void) {
  op_mesh_params p;
  memset(&p, 0, sizeof p);
  p.tiling.cell_size = 0.5;
  p.tiling.cell_height = 0.25;
  p.tiling.tile_cells = 8;
  p.tiling.max_verts_per_poly = 6;
  p.walkable_climb = 0.5;
  p.max_tiles = 16;
  op_mesh *m = NULL;
  if (op_mesh_create(&p, &m, NULL) != OP_OK) abort();
  return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  op_mesh *m = new_mesh();
  op_bytes before = {0}, after = {0};
  op_error err;
  if (op_mesh_save(m, &before, NULL) != OP_OK) abort();
  op_status st = op_mesh_snapshot_load(m, data, size, &err);
  if (st != OP_OK) {
    if (err.kind != st || err.field[0] == '\0') abort();
    if (op_mesh_save(m, &after, NULL) != OP_OK) abort();
    if (after.len != before.len || memcmp(after.data, before.data, before.len) != 0) abort();
  } else {
    if (op_mesh_snapshot_save(m, &after, NULL) != OP_OK) abort();
    if (after.len != size || memcmp(after.data, data, size) != 0) abort();
  }
  op_bytes_free(&before);
  op_bytes_free(&after);
  op_mesh_free(m);
  return 0;
}
