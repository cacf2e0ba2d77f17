/*
** cmd_hash.c -- `onepath hash FILE [--parts]` (docs/cli.md): the XXH3-64 (op_hash64, seed 0)
** of a file and, for a mesh or snapshot, of the parts of its mesh serialization
** (spec/navmesh-mesh.md MESH-044: the header, then one part per tile record).
*/
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The parts of file's mesh serialization: the file itself for a mesh, op_mesh_save of
** the loaded mesh for a snapshot; nothing for a tile. */
static int print_parts(cli_ctx *ctx, const char *file, const uint8_t *d, size_t n) {
  cli_mesh l;
  if (cli_mesh_load(ctx, file, &l)) return CLI_EXIT_FAIL;
  int rc = 0;
  if (!strcmp(l.kind, "mesh")) {
    rc = cli_print_mesh_parts(ctx, d, n, file);
  } else if (l.mesh) {
    op_bytes b = {NULL, 0};
    op_error e;
    if (op_mesh_save(l.mesh, &b, &e)) {
      rc = cli_fail_op(ctx, "serializing the mesh", &e);
    } else {
      printf("(parts of the mesh serialization of this %s, %016" PRIx64 ")\n", l.kind,
             op_hash64(b.data, b.len));
      rc = cli_print_mesh_parts(ctx, b.data, b.len, file);
    }
    op_bytes_free(&b);
  }
  cli_mesh_free(&l);
  return rc;
}

int cli_cmd_hash(cli_ctx *ctx, int argc, char **argv) {
  const char *file = NULL;
  int parts = 0;
  int rc0 = cli_file_args(ctx, argc, argv, "--parts", &file, &parts);
  if (rc0) return rc0;
  uint8_t *d;
  size_t n;
  if (cli_read_file(ctx, file, &d, &n)) return CLI_EXIT_FAIL;
  printf("%016" PRIx64 "  %s\n", op_hash64(d, n), file);
  int rc = parts ? print_parts(ctx, file, d, n) : 0;
  free(d);
  return rc;
}
