/*
** fuzz_snapshot_bytes.c -- untrusted mesh snapshot bytes (navmesh-snapshot.md).
**
** Oracle: loading into a mesh either fails with a named field and leaves the mesh's
** serialization byte for byte unchanged (SNAP atomic load), or succeeds, and then a
** new snapshot of the mesh equals the input bytes. Added oracle: an accepted snapshot also
** loads into a second fresh mesh with the same parameters, and both meshes serialize
** (MESH-040, links included) to the same bytes -- loading, link recomputation included, is
** deterministic. (Loads into non-empty meshes are fuzz_mesh_ops's job.)
*/
#include <stdlib.h>
#include <string.h>

#include "onepath.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static double rd_f64(const uint8_t *p) {
  uint64_t u = 0;
  for (int i = 7; i >= 0; i--) u = (u << 8) | p[i];
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

static uint32_t rd_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A mesh whose parameters are those the snapshot names (SNAP-002 params block, bytes
** 8..67, laid out as MESH-040's), so that inputs get past the SNAP-006 equality check;
** fixed defaults when the input is too short or names invalid parameters. */
static op_mesh *new_mesh(const uint8_t *data, size_t size) {
  op_mesh_params p;
  memset(&p, 0, sizeof p);
  p.tiling.cell_size = 0.5;
  p.tiling.cell_height = 0.25;
  p.tiling.tile_cells = 8;
  p.tiling.max_verts_per_poly = 6;
  p.walkable_climb = 0.5;
  p.max_tiles = 16;
  op_mesh *m = NULL;
  if (size >= 68) {
    op_mesh_params q;
    memset(&q, 0, sizeof q);
    for (int i = 0; i < 3; i++) q.tiling.origin[i] = rd_f64(data + 8 + 8 * i);
    q.tiling.cell_size = rd_f64(data + 32);
    q.tiling.cell_height = rd_f64(data + 40);
    q.tiling.tile_cells = rd_u32(data + 48);
    q.tiling.max_verts_per_poly = rd_u32(data + 52);
    q.walkable_climb = rd_f64(data + 56);
    q.max_tiles = rd_u32(data + 64);
    if (op_mesh_create(&q, &m, NULL) == OP_OK) return m;
  }
  if (op_mesh_create(&p, &m, NULL) != OP_OK) abort();
  return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  op_mesh *m = new_mesh(data, size);
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
    op_mesh *m2 = new_mesh(data, size);
    op_bytes b1 = {0}, b2 = {0};
    if (op_mesh_snapshot_load(m2, data, size, &err) != OP_OK) abort();
    if (op_mesh_save(m, &b1, NULL) != OP_OK || op_mesh_save(m2, &b2, NULL) != OP_OK) abort();
    if (b1.len != b2.len || memcmp(b1.data, b2.data, b1.len) != 0) abort();
    op_bytes_free(&b1);
    op_bytes_free(&b2);
    op_mesh_free(m2);
  }
  op_bytes_free(&before);
  op_bytes_free(&after);
  op_mesh_free(m);
  return 0;
}
