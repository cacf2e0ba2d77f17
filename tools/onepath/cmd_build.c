/*
** cmd_build.c -- `onepath build` (docs/cli.md): a 3D mesh from an OBJ file or a level
** generator (spec/levels.md) by Mesh3DPipeline.BuildSoup or BuildChunk (POLY-220,
** SPAN-181), with obstacles and volumes in the settings (SPAN-003, SPAN-004), then
** report_mesh: the mesh bytes (MESH-040), their hash and the summary. --threads N and
** --tile-range (a part build, merged by `onepath merge`, cmd_merge.c) are options of
** the build (POLY-228, POLY-229), not settings.
*/
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct build_opts {
  cli_input3d in;
  const char *mode; /* "soup" or "chunk" */
  double chunk_size;
  cli_outputs outs;
  cli_shapes sh;
  uint32_t threads;      /* --threads N (POLY-228): 0 = the processors online */
  int tile_range;        /* --tile-range X0:X1,Z0:Z1 (POLY-229) */
  int32_t range[4];      /* x0, x1, z0, z1 */
} build_opts;

/* Mesh3DPipeline.BuildSoup or BuildChunk (POLY-220) with a progress bar per tile; with a
** tile range, a part build whose manifest goes beside its tiles (cli_part_write). */
static int build3d_run(cli_ctx *ctx, cli_input3d *in, const build_opts *b) {
  const char *mode = b->mode;
  double chunk_size = b->chunk_size;
  const cli_outputs *out = &b->outs;
  op_pipeline_options opt;
  memset(&opt, 0, sizeof opt);
  opt.threads = b->threads;
  opt.tile_range = b->tile_range;
  opt.x0 = b->range[0];
  opt.x1 = b->range[1];
  opt.z0 = b->range[2];
  opt.z1 = b->range[3];
  op_soup soup = op_trimesh_soup(&in->m);
  op_pipeline_result res;
  memset(&res, 0, sizeof res);
  op_error e;
  cli_progress pg;
  cli_progress_init(&pg);
  op_pipeline_hooks hooks = {&pg, cli_on_progress, NULL};
  double t0 = cli_now();
  op_status st;
  if (!strcmp(mode, "chunk")) {
    op_chunked *ch = NULL;
    if (chunk_size <= 0) chunk_size = (double)in->s.tile_cells * in->s.cell_size;
    st = op_chunked_create(&soup, chunk_size, &ch, &e);
    if (st == OP_OK) st = op_pipeline_build_chunk_opt(&in->s, ch, &opt, &hooks, &res, &e);
    op_chunked_free(ch);
  } else {
    st = op_pipeline_build_soup_opt(&in->s, &soup, &opt, &hooks, &res, &e);
  }
  double t1 = cli_now();
  cli_progress_done(&pg);
  if (st != OP_OK) return cli_fail_op(ctx, !strcmp(mode, "chunk") ? "BuildChunk" : "BuildSoup", &e);
  printf("input: %s (%" PRIu32 " vertices, %" PRIu32 " triangles), preset %s, partition %s, "
         "mode %s\n", in->label, in->m.nverts, in->m.ntris, in->preset,
         cli_partition_name(in->s.partition), mode);
  if (in->s.nobstacles || in->s.nvolumes)
    printf("settings: %" PRIu32 " obstacles, %" PRIu32 " volumes\n", in->s.nobstacles,
           in->s.nvolumes);
  printf("tile grid: %" PRId32 " x %" PRId32 ", %" PRIu32 " with spans, %" PRIu32
         " with polygons\n", res.ntx, res.ntz, res.nbuilt, res.ntiles);
  if (res.ntiles == 0 && !b->tile_range) cli_explain_no_tiles(in); /* a part may be empty */
  int rc = cli_report_mesh(ctx, res.mesh, out, t1 - t0);
  if (!rc && b->tile_range) rc = cli_part_write(ctx, out->tiles, &res, b->range);
  op_pipeline_result_free(&res);
  return rc;
}

/* One option of build that is not an input option; 0 or the exit code. */
static int build_option(cli_ctx *ctx, cli_args *a, build_opts *b) {
  const char *o = a->argv[a->i], *v;
  if (cli_is_shape_option(o)) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    return cli_shape_parse(ctx, o, v, &b->sh);
  }
  if (!strcmp(o, "--out") || !strcmp(o, "-o")) {
    if (!(b->outs.mesh = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
  } else if (!strcmp(o, "--snapshot")) {
    if (!(b->outs.snapshot = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
  } else if (!strcmp(o, "--tiles")) {
    if (!(b->outs.tiles = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
  } else if (!strcmp(o, "--mode")) {
    if (!(b->mode = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    if (strcmp(b->mode, "soup") && strcmp(b->mode, "chunk"))
      return cli_usage_error(ctx, "--mode '%s': expected soup or chunk", b->mode);
  } else if (!strcmp(o, "--chunk-size")) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    if (cli_parse_double(v, &b->chunk_size) || !(b->chunk_size > 0))
      return cli_usage_error(ctx, "--chunk-size '%s': expected a positive number", v);
  } else if (!strcmp(o, "--threads")) {
    long long n;
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    if (cli_parse_i64(v, 0, OP_PIPELINE_MAX_THREADS, &n))
      return cli_usage_error(ctx, "--threads '%s': expected 0 (the processors online) to %u",
                             v, OP_PIPELINE_MAX_THREADS);
    b->threads = (uint32_t)n;
  } else if (!strcmp(o, "--tile-range")) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    if (cli_parse_tile_range(v, b->range))
      return cli_usage_error(ctx, "--tile-range '%s': expected X0:X1,Z0:Z1 with 0 <= X0 <= X1 "
                             "and 0 <= Z0 <= Z1", v);
    b->tile_range = 1;
  } else {
    return cli_usage_error(ctx, "unknown argument '%s'", o);
  }
  return 0;
}

int cli_cmd_build(cli_ctx *ctx, int argc, char **argv) {
  build_opts b;
  memset(&b, 0, sizeof b);
  b.mode = "soup";
  int rc = cli_input_init(ctx, &b.in, argc);
  cli_args a = {argc, argv, 0};
  for (a.i = 0; a.i < argc && !rc; a.i++) {
    int st = 0, r = cli_input_option(ctx, &a, &b.in, &st);
    if (r < 0) rc = st;
    else if (r == 0) rc = build_option(ctx, &a, &b);
  }
  if (!rc) rc = cli_input_finish(ctx, &b.in);
  /* Regions.Spans.Volumes and Obstacles (SPAN-003, SPAN-004), after the preset's none */
  if (!rc) rc = cli_shapes_validate(ctx, &b.in.s, &b.sh);
  b.in.s.nvolumes = b.sh.nvol;
  b.in.s.volumes = b.sh.vol;
  b.in.s.nobstacles = b.sh.nobst;
  b.in.s.obstacles = b.sh.obst;
  if (!rc && b.tile_range && !b.outs.tiles)
    rc = cli_usage_error(ctx, "--tile-range needs --tiles DIR (the part's tiles and manifest)");
  if (!rc) rc = build3d_run(ctx, &b.in, &b);
  cli_shapes_free(&b.sh);
  cli_input_free(&b.in);
  return rc;
}
