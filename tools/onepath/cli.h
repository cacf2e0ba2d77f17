/*
** cli.h -- the internal interface between the files of `onepath`, the command-line tool
** of the OnePath reference kit (docs/cli.md; tools/, not part of libonepath). Prefix cli_.
** The tool uses only the library's public headers (include/onepath*.h) and svg.h.
**
**   main.c          the command table and --help
**   args.c          errors and usage errors, option values, --set/--preset, the 3D input
**   io.c            files, the clock, the progress bar
**   shapes.c        --cylinder, --box, --obox, --volume (obstacles and volumes)
**   meshfile.c      a mesh, tile or snapshot file or a live mesh as a list of tiles
**   summary.c       the summary of a mesh (counts, tiles hash, area) and report_mesh
**   cmd_*.c         one file per command (cmd_path.c: a find path drawn on the mesh)
**   draw_mesh.c     the SVG picture of a mesh (svg --mesh, tilecache --svg)
**   draw_stages.c   the SVG picture of one stage of one 3D tile (svg --stage)
** Exit status: 0 success, 1 the operation failed (I/O, build error), 2 bad arguments.
*/
#ifndef OP_TOOLS_CLI_H
#define OP_TOOLS_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "onepath.h"
#include "onepath_build2d.h"
#include "onepath_build3d.h"
#include "onepath_pipeline.h"
#include "onepath_stages.h"
#include "onepath_tilecache.h"
#include "svg.h"

#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

/* ------------------------------------------------------------------ args.c */

/* The context of one run of the tool, made by main and passed to every command and to
** every function that reports a message or reads a file (no global state). */
typedef struct cli_ctx {
  const char *cmd;   /* the name messages start with ("onepath build") */
  uint64_t max_file; /* the file-size cap: --max-file-size, else CLI_MAX_FILE_DEFAULT */
} cli_ctx;
/* One FILE and one optional flag (info --tiles, hash --parts); 0 or a usage exit status. */
int cli_file_args(cli_ctx *ctx, int argc, char **argv, const char *flag, const char **file,
                  int *on);
/* "NAME: message" and the --help hint on stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(cli_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* "NAME: message" on stderr; returns CLI_EXIT_FAIL. */
int cli_fail(cli_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A library error: its kind, field, value and message; returns CLI_EXIT_FAIL. */
int cli_fail_op(cli_ctx *ctx, const char *what, const op_error *e);
/* A setting refused by op_settings_validate / op_settings2d_validate; CLI_EXIT_USAGE. */
int cli_invalid_setting(cli_ctx *ctx, const op_error *e);

typedef struct cli_args {
  int argc;
  char **argv;
  int i;
} cli_args;

/* The value of option argv[i] (the next word); NULL after reporting a usage error. */
const char *cli_opt_value(cli_ctx *ctx, cli_args *a);
int cli_parse_double(const char *s, double *out);
int cli_parse_i64(const char *s, long long lo, long long hi, long long *out);
int cli_parse_hex64(const char *s, uint64_t *out);
int cli_parse_partition(const char *s, op_partition *p);
const char *cli_partition_name(op_partition p);
/* --set key=value for the 2D settings (T2D-010 names). */
int cli_set_2d(cli_ctx *ctx, op_settings2d *s, const char *kv);
/* The 3D --set keys with their ranges and units (COMMAND --help). */
void cli_print_set_keys(FILE *f);
/* 0 when name is Humanoid, Small or Large. */
int cli_check_preset(const char *name);

/* The 3D input of build, svg --stage and tilecache: an OBJ file or a generated level and
** the settings (preset first, then --set and --partition in command-line order). */
typedef struct cli_input3d {
  const char *obj, *level;
  uint64_t seed;
  long long size; /* -1: the generator's default */
  op_settings s;
  const char *preset;
  op_trimesh m;
  char label[160];
  char **sets;    /* the --set (S) and --partition (P) values in order, owned */
  int nsets;
} cli_input3d;

/* Ready for cli_input_option; room for argc settings. 0 or CLI_EXIT_FAIL. */
int cli_input_init(cli_ctx *ctx, cli_input3d *in, int argc);
void cli_input_free(cli_input3d *in);
/* Handles one input or settings option at a->argv[a->i]; 1 consumed, 0 not ours,
** -1 error (*status: the exit code). */
int cli_input_option(cli_ctx *ctx, cli_args *a, cli_input3d *in, int *status);
/* Applies preset then --set/--partition in order, validates, loads the geometry. */
int cli_input_finish(cli_ctx *ctx, cli_input3d *in);
/* A build with no tile: says why on stderr (no triangle, none walkable, faces down). */
void cli_explain_no_tiles(const cli_input3d *in);

/* -------------------------------------------------------------------- io.c */

double cli_now(void);
/* Every file the tool reads is capped (docs/cli.md): 256 MiB unless --max-file-size
** BYTES (build, tilecache, svg --stage, build2d) says otherwise. */
#define CLI_MAX_FILE_DEFAULT (UINT64_C(256) << 20)
/* The whole file, NUL-terminated (owned by the caller); 0 or CLI_EXIT_FAIL (reported); a
** file over max bytes is an error naming the cap. */
int cli_read_file_max(cli_ctx *ctx, const char *path, uint64_t max, uint8_t **data, size_t *len);
/* cli_read_file_max with the default cap (mesh, tile and snapshot files, hash, info). */
int cli_read_file(cli_ctx *ctx, const char *path, uint8_t **data, size_t *len);
/* A size: digits with an optional K, M or G (binary) suffix, at most 2^40; 0 or -1. */
int cli_parse_size(const char *s, uint64_t *out);
int cli_write_file(cli_ctx *ctx, const char *path, const uint8_t *data, size_t len);

typedef struct cli_progress {
  int on; /* stderr is a terminal */
  double start;
  int last_pct;
} cli_progress;

void cli_progress_init(cli_progress *p);
void cli_progress_update(cli_progress *p, uint64_t done, uint64_t total, const char *what);
void cli_progress_done(cli_progress *p);
/* op_pipeline_hooks progress callback: ud is a cli_progress. */
void cli_on_progress(void *ud, uint64_t done, uint64_t total);

/* ---------------------------------------------------------------- shapes.c */

/* Obstacles and volumes given on the command line (--cylinder, --box, --obox, --volume),
** each with the text it came from, for messages. */
typedef struct cli_shapes {
  op_obstacle *obst;
  char **obst_text;
  uint32_t nobst, capo;
  op_convex_volume *vol;
  char **vol_text;
  uint32_t nvol, capv;
} cli_shapes;

void cli_shapes_free(cli_shapes *sh);
int cli_is_shape_option(const char *o);
/* Parses the value of --cylinder, --box, --obox or --volume (opt names which) into sh. */
int cli_shape_parse(cli_ctx *ctx, const char *opt, const char *v, cli_shapes *sh);
/* SPAN-031 / SPAN-033 checks of every shape; a failure is a usage error naming it. */
int cli_shapes_validate(cli_ctx *ctx, const op_settings *s, const cli_shapes *sh);
void cli_print_obstacle(const op_obstacle *o);

/* -------------------------------------------------------------- meshfile.c */

/* The tiles of a mesh in slot order (the order of its serialization, MESH-040), of a
** snapshot, or the one tile of a tile file. */
typedef struct cli_mesh {
  const char *kind;       /* "mesh", "tile", "snapshot", "tile cache snapshot" */
  int has_params;         /* a mesh or snapshot: params and links are known */
  op_mesh_params params;  /* a tile file: its tiling only */
  uint32_t ntiles;
  const op_tile **tiles;  /* slot order; owned by mesh (or by tile for a tile file) */
  uint32_t nlinks, nedits;
  const op_mesh *mesh;    /* NULL for a tile file */
  op_mesh *own_mesh;      /* the mesh read from a file, owned */
  op_tile *own_tile;      /* the tile of a tile file, owned */
  int tcac;               /* a tile cache snapshot: its TCAC section (SNAP-016) */
  uint64_t tc_fingerprint;
  uint32_t tc_nobstacles;
} cli_mesh;

/* A live mesh's tiles (borrowed: valid until the mesh changes). 0 or CLI_EXIT_FAIL. */
int cli_mesh_view(cli_ctx *ctx, const op_mesh *m, const char *kind, cli_mesh *out);
/* A mesh (OPMS), tile (OPTL) or snapshot (OPSN) file. 0 or CLI_EXIT_FAIL (reported). */
int cli_mesh_load(cli_ctx *ctx, const char *path, cli_mesh *out);
void cli_mesh_free(cli_mesh *l);
/* MESH-043: linked[p * OP_MAX_VERTS_PER_POLY + e] = 1 for every edge e of polygon p of
** tile t that has an external link (linked: npolys * OP_MAX_VERTS_PER_POLY, zeroed). */
int cli_mesh_linked_edges(cli_ctx *ctx, const cli_mesh *l, uint32_t t, uint8_t *linked);
/* hash --parts: the parts (MESH-044) of a mesh serialization, one line each. */
int cli_print_mesh_parts(cli_ctx *ctx, const uint8_t *d, size_t n, const char *path);

/* --------------------------------------------------------------- summary.c */

typedef struct cli_summary {
  uint32_t tiles, layers, polys, verts, detail_tris, offmesh;
  uint32_t positions;         /* distinct (x, z) with at least one tile */
  uint32_t max_at;            /* the most tiles (layers) at one position (RT-080 .. RT-086) */
  int32_t max_x, max_z;       /* the first such position in tile order */
  int32_t layer_lo, layer_hi; /* least and greatest layer number */
  double area;
  double bmin[3], bmax[3];
  uint64_t tiles_hash;        /* the "tiles hash" of the tile list (docs/cli.md) */
} cli_summary;

/* World x0, z0 of a tile (FMT-005). */
void cli_tile_world_origin(const op_tile_desc *v, double *x0, double *z0);
void cli_summarize(const op_tile *const *tiles, uint32_t n, cli_summary *s);
void cli_print_summary(FILE *f, const cli_summary *s);

/* Extra outputs of build, build2d and tilecache. */
typedef struct cli_outputs {
  const char *mesh;     /* --out: op_mesh_save bytes */
  const char *snapshot; /* --snapshot: op_mesh_snapshot_save bytes */
  const char *tiles;    /* --tiles DIR: one NavTile.Serialize file per tile */
} cli_outputs;

/* Writes the mesh (and snapshot, tiles) and prints the hash and summary. */
int cli_report_mesh(cli_ctx *ctx, const op_mesh *m, const cli_outputs *o, double seconds);

/* ------------------------------------------------------------- draw_mesh.c */

/* Obstacles and volumes drawn over a mesh picture (onepath tilecache --svg). */
typedef struct cli_overlay {
  const op_obstacle *obst;
  const uint32_t *obst_id;
  uint32_t nobst;
  const op_convex_volume *vol;
  const uint32_t *vol_id;
  uint32_t nvol;
  double grow; /* RT-020: g = WalkableRadius * cell_size */
} cli_overlay;

/* Drawn over a mesh picture by its caller (onepath path, cmd_path.c): legend entries, then
** each panel's drawing (layer: the panel's layer), last. */
typedef struct cli_drawing {
  void (*legend)(svg_scene *sc, const void *ud);
  void (*draw)(svg_scene *sc, int panel, int32_t layer, const void *ud);
  const void *ud;
} cli_drawing;

/* Which layers a mesh picture shows: every layer number in [lo, hi] that has a tile,
** ascending, at most SVG_MAX_PANELS of them. */
typedef struct cli_layer_pick {
  int32_t lo, hi;        /* the --layers range (default 0..255) */
  int32_t shown[SVG_MAX_PANELS];
  uint32_t nshown;
  uint32_t left_out;     /* layers in range with tiles but past the panel limit */
  int32_t left_lo, left_hi;
  uint32_t left_tiles;   /* tiles of the layers left out or outside the range */
  uint32_t out_of_range; /* layers with tiles outside [lo, hi] */
} cli_layer_pick;

/* A mesh: one panel per picked layer; polygons coloured per area, polygon or tile; ov
** (may be NULL) on top. */
int cli_svg_mesh_draw(cli_ctx *ctx, const cli_mesh *l, const char *title, const char *color_mode,
                      cli_layer_pick *pk, const cli_overlay *ov, FILE *f);
/* The same with dr (may be NULL) drawn on top. */
int cli_svg_mesh_draw_ex(cli_ctx *ctx, const cli_mesh *l, const char *title,
                         const char *color_mode, cli_layer_pick *pk, const cli_overlay *ov,
                         const cli_drawing *dr, FILE *f);

/* ----------------------------------------------------------- draw_stages.c */

/* svg --stage NAME: the picture of one stage of tile (tx, tz) of the input. */
int cli_svg_stage(cli_ctx *ctx, const cli_input3d *in, const char *stage, int32_t tx, int32_t tz,
                  FILE *f);

/* ---------------------------------------------------------------- commands */

int cli_cmd_build(cli_ctx *ctx, int argc, char **argv);
int cli_cmd_build2d(cli_ctx *ctx, int argc, char **argv);
int cli_cmd_tilecache(cli_ctx *ctx, int argc, char **argv);
int cli_cmd_svg(cli_ctx *ctx, int argc, char **argv);
int cli_cmd_hash(cli_ctx *ctx, int argc, char **argv);
int cli_cmd_info(cli_ctx *ctx, int argc, char **argv);
int cli_cmd_merge(cli_ctx *ctx, int argc, char **argv);
int cli_cmd_path(cli_ctx *ctx, int argc, char **argv);
/* Part builds (cmd_merge.c, POLY-229): "X0:X1,Z0:Z1" into r (0 or -1), and the manifest of
** a part build written into its tiles directory. */
int cli_parse_tile_range(const char *s, int32_t r[4]);
int cli_part_write(cli_ctx *ctx, const char *dir, const op_pipeline_result *res,
                   const int32_t r[4]);

#endif
