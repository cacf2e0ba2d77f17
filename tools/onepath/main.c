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
**   path      FindPath and FindStraightPath between two points, printed and drawn on
**             the mesh picture (cmd_path.c)
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
  "  merge    DIR... [--out|-o FILE]   the parts of build --tile-range X0:X1,Z0:Z1\n"
  "           --tiles DIR as the mesh of one build (build --threads N: tiles at once)\n"
  "  path     --mesh FILE | --obj FILE | --level NAME [SETTINGS] --from X,Y,Z --to X,Y,Z\n"
  "           [--svg FILE.svg [--color area|poly|tile]] [--crossings none|area|all]\n"
  "           find path + straight path (spec/query.md), printed and drawn on the mesh\n"
  "\n"
  "SHAPE: --cylinder X,Y,Z,R,H | --box MINX,MINY,MINZ,MAXX,MAXY,MAXZ |\n"
  "       --obox CX,CY,CZ,HX,HY,HZ,YAW | --volume AREA,YMIN,YMAX,X1,Z1,X2,Z2,X3,Z3[,...]\n"
  "levels: terrain, city, stairs, dungeon, hills (levels.md). partitions: watershed, monotone,\n"
  "layers. Pictures are top-down: +x right, +z down. See docs/cli.md.\n"
  "exit status: 0 success, 1 the operation failed, 2 bad arguments\n";

#define INPUT3D_HELP \
  "input (exactly one):\n" \
  "  --obj FILE             a Wavefront OBJ file (v and f lines)\n" \
  "  --level NAME           terrain, city, stairs, dungeon or hills (levels.md)\n" \
  "  --seed HEX             1 to 16 hex digits (default 1)\n" \
  "  --size N               the generator's size (default 16, 2, 8, 12, 16)\n" \
  "settings (preset first, then --set and --partition in order):\n" \
  "  --preset NAME          Humanoid (default), Small or Large\n" \
  "  --set KEY=VALUE        one setting, keys below\n" \
  "  --partition P          watershed, monotone or layers\n" \
  "  --max-file-size BYTES  cap on each file read (default 256M; K, M, G allowed)\n"
#define SHAPE_HELP \
  "  --cylinder X,Y,Z,R,H   base centre, radius, height\n" \
  "  --box MINX,MINY,MINZ,MAXX,MAXY,MAXZ\n" \
  "  --obox CX,CY,CZ,HX,HY,HZ,YAW   centre, half sizes, yaw in radians\n" \
  "  --volume AREA,YMIN,YMAX,X1,Z1,X2,Z2,X3,Z3[,...]   3 to 12 points, area 0..63\n"
#define MODE_HELP \
  "  --mode soup|chunk      BuildSoup (default) or BuildChunk\n" \
  "  --chunk-size WORLD     chunk side (default one tile)\n"

static const char *HELP_BUILD =
  "usage: onepath build INPUT [SETTINGS] [SHAPE]... [OPTIONS]\n"
  "build a 3D mesh (Mesh3DPipeline), write it, print its XXH3-64 hash and a summary\n"
  INPUT3D_HELP
  "obstacles and volumes (into the settings' Obstacles and Volumes):\n" SHAPE_HELP
  "options:\n" MODE_HELP
  "  --out|-o FILE          the mesh bytes (op_mesh_save)\n"
  "  --snapshot FILE        a mesh snapshot\n"
  "  --tiles DIR            one file per tile, DIR/tile_X_Z_L.optl (DIR is created)\n"
  "  --threads N            tiles built at once: 0 (default) = the processors online,\n"
  "                         1 = one at a time; the bytes are the same (POLY-228)\n"
  "  --tile-range X0:X1,Z0:Z1  only the tiles X0..X1, Z0..Z1 (inclusive), a part for\n"
  "                         onepath merge: needs --tiles DIR, writes DIR/part_*.txt\n";

static const char *HELP_MERGE =
  "usage: onepath merge DIR... [--out|-o FILE] [--snapshot FILE] [--tiles DIR]\n"
  "the parts of onepath build --tile-range (their part_*.txt and tiles) assembled into\n"
  "the mesh one build of the whole level gives, byte for byte (POLY-229); the parts'\n"
  "ranges must cover the grid once; prints the hash and summary as build does\n";

static const char *HELP_TILECACHE =
  "usage: onepath tilecache INPUT [SETTINGS] [STEP]... [OPTIONS]\n"
  "a cached build (BuildSoupCached), then the steps in order, then UpdateAll\n"
  INPUT3D_HELP
  "steps:\n" SHAPE_HELP
  "  --remove ID            RemoveObstacle\n"
  "  --remove-volume ID     RemoveVolume\n"
  "  --update               UpdateAll (or Update(N) with --step N)\n"
  "  --ops FILE             steps from a file, one per line (docs/cli.md)\n"
  "options:\n" MODE_HELP
  "  --step N               Update(N) in a loop instead of UpdateAll\n"
  "  --no-repair            TileCache.Repair off (RT-107)\n"
  "  --out|-o FILE  --snapshot FILE (the cache snapshot)  --tiles DIR\n"
  "  --svg FILE.svg [--color area|poly|tile]   the mesh with the live shapes\n";

static const char *HELP_BUILD2D =
  "usage: onepath build2d --outlines FILE [OPTIONS]\n"
  "build a 2D mesh from an outline text file (NavMesh.Build2D)\n"
  "  --outlines FILE        `outline` / `obstacle` blocks of `X Z` lines (docs/cli.md)\n"
  "  --preset NAME          Humanoid (default), Small or Large (T2D-011)\n"
  "  --set KEY=VALUE        cell_size, cell_height, agent_radius, agent_height,\n"
  "                         agent_climb, max_slope, floor_y (numbers), tile_cells,\n"
  "                         max_verts_per_poly (integers), area (0..255), flags (0..65535),\n"
  "                         snap_bits (integer or null), origin (X,Z); checked by\n"
  "                         op_settings2d_validate (T2D-012)\n"
  "  --max-file-size BYTES  cap on the outline file (default 256M)\n"
  "  --out FILE  --snapshot FILE  --tiles DIR\n";

static const char *HELP_SVG =
  "usage: onepath svg --mesh FILE [--color area|poly|tile] [--layers A-B] [--out FILE.svg]\n"
  "       onepath svg --stage spans|regions|contours|polys INPUT [SETTINGS] [--tile TX,TZ]\n"
  "                   [--out FILE.svg]\n"
  "a top-down picture (+x right, +z down) of a mesh, tile or snapshot file (one panel per\n"
  "layer, at most 64) or of one stage of one 3D tile\n"
  INPUT3D_HELP;

static const char *HELP_PATH =
  "usage: onepath path --mesh FILE --from X,Y,Z --to X,Y,Z [OPTIONS]\n"
  "       onepath path INPUT [SETTINGS] --from X,Y,Z --to X,Y,Z [OPTIONS]\n"
  "FindPath (QRY-061 .. QRY-069) from --from to --to with the default filter, then\n"
  "FindStraightPath over its polygons (or over the partial route when there is no path);\n"
  "prints the accepted endpoints, found or no_path with the reason, the polygons by\n"
  "canonical id (x,z,layer,index) and the corners; a mesh or snapshot file, or the mesh\n"
  "BuildSoup makes of INPUT (as onepath build)\n"
  INPUT3D_HELP
  "options:\n"
  "  --from X,Y,Z  --to X,Y,Z   the endpoints (world coordinates)\n"
  "  --svg FILE.svg         the mesh picture (onepath svg --mesh) with the corridor and\n"
  "                         the straight path drawn on it\n"
  "  --color area|poly|tile the polygons' colours in the picture (default area)\n"
  "  --crossings none|area|all   extra corners at portal crossings (QRY-084)\n"
  "  --max-nodes N          the node pool (1..65536, default 8192, QRY-060)\n"
  "  --max-path N           the longest path (1..65536, default 8192, QRY-061)\n";

static const char *HELP_HASH =
  "usage: onepath hash FILE [--parts]\n"
  "XXH3-64 (op_hash64) of the file; --parts: of each part of a mesh (MESH-044)\n";

static const char *HELP_INFO =
  "usage: onepath info FILE [--tiles]\n"
  "kind, size, hash, tiling, parameters and summary of a mesh, tile or snapshot file;\n"
  "--tiles: one line per tile\n";

typedef struct command {
  const char *name;    /* the word after onepath */
  const char *prefix;  /* what its messages start with */
  int (*run)(cli_ctx *ctx, int argc, char **argv);
  int set_keys;        /* its --help lists the 3D --set keys */
} command;

static const command COMMANDS[] = {
  {"build", "onepath build", cli_cmd_build, 1},
  {"build2d", "onepath build2d", cli_cmd_build2d, 0},
  {"svg", "onepath svg", cli_cmd_svg, 1},
  {"hash", "onepath hash", cli_cmd_hash, 0},
  {"info", "onepath info", cli_cmd_info, 0},
  {"tilecache", "onepath tilecache", cli_cmd_tilecache, 1},
  {"merge", "onepath merge", cli_cmd_merge, 0},
  {"path", "onepath path", cli_cmd_path, 1},
};

static const char *command_help(const char *name) {
  if (!strcmp(name, "build")) return HELP_BUILD;
  if (!strcmp(name, "build2d")) return HELP_BUILD2D;
  if (!strcmp(name, "svg")) return HELP_SVG;
  if (!strcmp(name, "hash")) return HELP_HASH;
  if (!strcmp(name, "info")) return HELP_INFO;
  if (!strcmp(name, "merge")) return HELP_MERGE;
  if (!strcmp(name, "path")) return HELP_PATH;
  return HELP_TILECACHE;
}

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
  for (size_t k = 0; k < sizeof COMMANDS / sizeof *COMMANDS; k++)
    if (!strcmp(c, COMMANDS[k].name)) {
      for (int i = 2; i < argc; i++) /* onepath COMMAND --help: that command's options */
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
          fputs(command_help(c), stdout);
          if (COMMANDS[k].set_keys) cli_print_set_keys(stdout);
          fputs("exit status: 0 success, 1 the operation failed, 2 bad arguments\n", stdout);
          return 0;
        }
      cli_ctx run = {COMMANDS[k].prefix, CLI_MAX_FILE_DEFAULT};
      return COMMANDS[k].run(&run, argc - 2, argv + 2);
    }
  cli_ctx top = {"onepath", CLI_MAX_FILE_DEFAULT};
  return cli_usage_error(&top, "unknown command '%s'", c);
}
