/*
** main.c -- `onepath`, the command-line tool of the OnePath reference kit (docs/cli.md):
** the command table and --help. Subcommands, one file each:
**   build     a 3D mesh from an OBJ file or a level generator (Mesh3DPipeline), with
**             obstacles and volumes in the settings when given (cmd_build.c)
**   tilecache a cached build, obstacles and volumes added and removed at run time,
**             Update / UpdateAll (build3d-runtime.md), the mesh and a picture of it
**             (cmd_tilecache.c)
**   build2d   a 2D mesh from an outline text file (NavMesh.Build2D, build2d-tiles.md)
**             (cmd_build2d.c)
**   svg       a top-down SVG picture of a mesh/tile/snapshot file or of one stage of
**             one 3D tile (spans, regions, contours, polygons) (cmd_svg.c)
**   hash      XXH3-64 (op_hash64) of a file, and of its parts for a mesh (cmd_hash.c)
**   info      a summary of a mesh, tile or snapshot file (tile cache snapshots too)
**             (cmd_info.c)
** The tool uses only the library's public headers (include/onepath*.h); cli.h lists the
** files. Exit status: 0 success, 1 the operation failed (I/O, build error), 2 bad arguments.
*/
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *HELP =
  "usage: onepath COMMAND [OPTIONS]\n"
  "\n"
  "commands:\n"
  "  build    --obj FILE | --level NAME [--seed HEX] [--size N]\n"
  "           [--preset Humanoid|Small|Large] [--set KEY=VALUE]... [--partition P]\n"
  "           [--mode soup|chunk [--chunk-size WORLD]] [--out|-o FILE]\n"
  "           [--snapshot FILE] [--tiles DIR] [SHAPE]...\n"
  "           build a 3D mesh (Mesh3DPipeline), write it (op_mesh_save bytes), print its\n"
  "           XXH3-64 hash and a summary; SHAPEs go into Obstacles and Volumes\n"
  "  tilecache  the input, settings and --mode options of build, then steps in order:\n"
  "           SHAPE | --remove ID | --remove-volume ID | --update | --ops FILE,\n"
  "           and [--step N] [--no-repair] [--out|-o FILE] [--snapshot FILE]\n"
  "           [--tiles DIR] [--svg FILE.svg [--color area|poly|tile]]\n"
  "           cached build (BuildSoupCached), obstacles and volumes at run time,\n"
  "           UpdateAll (or Update(N) with --step); prints ids, queue, stats, hashes\n"
  "  build2d  --outlines FILE [--preset NAME] [--set KEY=VALUE]... [--out FILE]\n"
  "           [--snapshot FILE] [--tiles DIR]\n"
  "           build a 2D mesh from an outline text file (NavMesh.Build2D)\n"
  "  svg      --mesh FILE [--color area|poly|tile] [--layers A-B] [--out FILE.svg]\n"
  "           picture of a mesh, tile or snapshot file, one panel per layer (at most 64)\n"
  "  svg      --stage spans|regions|contours|polys --obj FILE | --level NAME\n"
  "           [--seed HEX] [--size N] [--preset NAME] [--set KEY=VALUE]... [--partition P]\n"
  "           [--tile TX,TZ] [--out FILE.svg]\n"
  "           picture of one stage of one 3D tile\n"
  "  hash     FILE [--parts]   XXH3-64 of the file (and of a mesh's parts)\n"
  "  info     FILE [--tiles]   summary of a mesh, tile or snapshot file\n"
  "\n"
  "SHAPE: --cylinder X,Y,Z,R,H | --box MINX,MINY,MINZ,MAXX,MAXY,MAXZ |\n"
  "       --obox CX,CY,CZ,HX,HY,HZ,YAW | --volume AREA,YMIN,YMAX,X1,Z1,X2,Z2,X3,Z3[,...]\n"
  "levels: terrain, city, stairs, dungeon (levels.md). partitions: watershed, monotone,\n"
  "layers. Pictures are top-down: +x right, +z down. See docs/cli.md.\n"
  "exit status: 0 success, 1 the operation failed, 2 bad arguments\n";

typedef struct command {
  const char *name;    /* the word after onepath */
  const char *prefix;  /* what its messages start with */
  int (*run)(int argc, char **argv);
} command;

static const command COMMANDS[] = {
  {"build", "onepath build", cli_cmd_build},
  {"build2d", "onepath build2d", cli_cmd_build2d},
  {"svg", "onepath svg", cli_cmd_svg},
  {"hash", "onepath hash", cli_cmd_hash},
  {"info", "onepath info", cli_cmd_info},
  {"tilecache", "onepath tilecache", cli_cmd_tilecache},
};

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(HELP, stderr);
    return CLI_EXIT_USAGE;
  }
  const char *c = argv[1];
  if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
    fputs(HELP, stdout);
    return 0;
  }
  if (!strcmp(c, "--version")) {
    printf("onepath %s\n", OP_VERSION_STRING);
    return 0;
  }
  for (int i = 2; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(HELP, stdout);
      return 0;
    }
  for (size_t k = 0; k < sizeof COMMANDS / sizeof *COMMANDS; k++)
    if (!strcmp(c, COMMANDS[k].name)) {
      cli_set_command(COMMANDS[k].prefix);
      return COMMANDS[k].run(argc - 2, argv + 2);
    }
  return cli_usage_error("unknown command '%s'", c);
}
