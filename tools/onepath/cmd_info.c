/*
** cmd_info.c -- `onepath info FILE [--tiles]` (docs/cli.md): a summary of a mesh, tile or
** snapshot file: its kind, size and hash, the tiling (FMT section "Tiling"), the mesh
** parameters (MESH-002 .. MESH-004), links (MESH-043) and edited polygons (MESH-042), the
** TCAC section of a tile cache snapshot (SNAP-016), the summary of summary.c and, with
** --tiles, one line per tile with its content id (FMT-050).
*/
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void print_info(const char *file, size_t n, uint64_t h, const cli_mesh *l) {
  printf("%s: %s file, %zu bytes, hash %016" PRIx64 "\n", file, l->kind, n, h);
  const op_tiling *tg = &l->params.tiling;
  printf("tiling: origin (%.17g, %.17g, %.17g) cell_size %.17g cell_height %.17g tile_cells %"
         PRIu32 " max_verts_per_poly %" PRIu32 "\n", tg->origin[0], tg->origin[1],
         tg->origin[2], tg->cell_size, tg->cell_height, tg->tile_cells, tg->max_verts_per_poly);
  if (l->tcac)
    printf("tile cache: fingerprint %016" PRIx64 ", %" PRIu32 " live obstacles (TCAC section, "
           "SNAP-016; the rest is the mesh)\n", l->tc_fingerprint, l->tc_nobstacles);
  if (l->has_params)
    printf("mesh: walkable_climb %.17g max_tiles %" PRIu32 "  links %" PRIu32
           "  edited polygons %" PRIu32 "\n", l->params.walkable_climb, l->params.max_tiles,
           l->nlinks, l->nedits);
  cli_summary s;
  cli_summarize(l->tiles, l->ntiles, &s);
  cli_print_summary(stdout, &s);
}

static void print_tiles(const cli_mesh *l) {
  for (uint32_t t = 0; t < l->ntiles; t++) {
    op_tile_desc v;
    op_tile_view(l->tiles[t], &v);
    cli_summary ts;
    cli_summarize(&l->tiles[t], 1, &ts);
    printf("  tile %" PRId32 ",%" PRId32 ",%" PRId32 ": polygons %" PRIu32 " vertices %" PRIu32
           " area %.6g content id %016" PRIx64 "\n", v.x, v.z, v.layer, v.npolys, v.nverts,
           ts.area, op_tile_content_id(l->tiles[t]));
  }
}

int cli_cmd_info(cli_ctx *ctx, int argc, char **argv) {
  const char *file = NULL;
  int tiles = 0;
  int rc0 = cli_file_args(ctx, argc, argv, "--tiles", &file, &tiles);
  if (rc0) return rc0;
  uint8_t *d;
  size_t n;
  if (cli_read_file(ctx, file, &d, &n)) return CLI_EXIT_FAIL;
  uint64_t h = op_hash64(d, n);
  free(d);
  cli_mesh l;
  if (cli_mesh_load(ctx, file, &l)) return CLI_EXIT_FAIL;
  print_info(file, n, h, &l);
  if (tiles) print_tiles(&l);
  cli_mesh_free(&l);
  return 0;
}
