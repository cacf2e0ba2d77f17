/*
** cmd_tilecache.c -- `onepath tilecache` (docs/cli.md): the run-time tile cache of
** spec/build3d-runtime.md. A cached build (BuildSoupCached or BuildChunkCached, RT-015),
** then the steps in command-line order: AddObstacle (RT-020 .. RT-027), AddVolume
** (RT-040 .. RT-043), RemoveObstacle, RemoveVolume, UpdateAll or Update(N) (RT-060 ..
** RT-066), optionally without the repair (RT-107); then the stats, the fingerprint, the
** cache snapshot (SNAP-016), the mesh report and a picture with the live shapes.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One step of `onepath tilecache`, in command-line order (docs/cli.md). */
typedef enum tc_kind { TC_ADD_OBST, TC_ADD_VOL, TC_REMOVE, TC_REMOVE_VOL, TC_UPDATE } tc_kind;
typedef struct tc_op {
  tc_kind kind;
  uint32_t index; /* obstacle or volume index in the shapes, or the id to remove */
  char text[96];  /* the option or line it came from */
} tc_op;

typedef struct tc_ops {
  tc_op *op;
  uint32_t n, cap;
} tc_ops;

static int tc_push(cli_ctx *ctx, tc_ops *ops, tc_kind k, uint32_t index, const char *text) {
  if (ops->n == ops->cap) {
    uint32_t nc = ops->cap ? 2 * ops->cap : 16;
    tc_op *no = realloc(ops->op, nc * sizeof *no);
    if (!no) return cli_fail(ctx, "out of memory");
    ops->op = no;
    ops->cap = nc;
  }
  tc_op *o = &ops->op[ops->n++];
  o->kind = k;
  o->index = index;
  snprintf(o->text, sizeof o->text, "%s", text);
  return 0;
}

/* One step given as an option name (--cylinder ... --remove, --remove-volume, --update) or
** as a line of an --ops file (the same words without the dashes). */
static int tc_step(cli_ctx *ctx, const char *word, const char *v, cli_shapes *sh, tc_ops *ops) {
  char opt[32];
  snprintf(opt, sizeof opt, "--%s", word);
  char text[96];
  snprintf(text, sizeof text, "%s%s%s", opt, v ? " " : "", v ? v : "");
  if (cli_is_shape_option(opt)) {
    int vol = !strcmp(opt, "--volume");
    int rc = cli_shape_parse(ctx, opt, v, sh);
    if (rc) return rc;
    return tc_push(ctx,
        ops, vol ? TC_ADD_VOL : TC_ADD_OBST, vol ? sh->nvol - 1 : sh->nobst - 1, text);
  }
  if (!strcmp(opt, "--remove") || !strcmp(opt, "--remove-volume")) {
    long long id;
    if (cli_parse_i64(v, 1, 4294967294LL, &id))
      return cli_usage_error(ctx, "%s '%s': expected an id, 1 to 4294967294", opt, v);
    return tc_push(ctx, ops, opt[8] ? TC_REMOVE_VOL : TC_REMOVE, (uint32_t)id, text);
  }
  return tc_push(ctx, ops, TC_UPDATE, 0, text);
}

/* --ops FILE: one step per line, `cylinder X,Y,Z,R,H`, `box ...`, `obox ...`, `volume ...`,
** `remove ID`, `remove-volume ID`, `update`; `#` starts a comment. */
static int tc_ops_file(cli_ctx *ctx, const char *path, uint64_t max, cli_shapes *sh, tc_ops *ops) {
  uint8_t *d;
  size_t n;
  if (cli_read_file_max(ctx, path, max, &d, &n)) return CLI_EXIT_FAIL;
  int rc = 0, line = 0;
  char *p = (char *)d;
  while (!rc && *p) {
    line++;
    char *end = strchr(p, '\n');
    if (end) *end = 0;
    char *hash = strchr(p, '#');
    if (hash) *hash = 0;
    char w1[32], w2[512], w3[8];
    int k = sscanf(p, "%31s %511s %7s", w1, w2, w3);
    int known = k > 0 && (!strcmp(w1, "cylinder") || !strcmp(w1, "box") || !strcmp(w1, "obox") ||
                !strcmp(w1, "volume") || !strcmp(w1, "remove") || !strcmp(w1, "remove-volume"));
    if (k <= 0) {
    } else if (k == 1 && !strcmp(w1, "update")) {
      rc = tc_push(ctx, ops, TC_UPDATE, 0, "update");
    } else if (k == 2 && known) {
      rc = tc_step(ctx, w1, w2, sh, ops);
      if (rc) fprintf(stderr, "(in %s, line %d)\n", path, line);
    } else {
      rc = cli_usage_error(ctx,
          "%s: line %d: expected `cylinder|box|obox|volume NUMBERS`, `remove ID`, "
                       "`remove-volume ID` or `update`", path, line);
    }
    p = end ? end + 1 : p + strlen(p);
  }
  free(d);
  return rc;
}

static void print_queue(const op_tilecache *c) {
  uint32_t q = op_tilecache_queue_length(c);
  printf("queue %" PRIu32 "%s", q, q ? ":" : "");
  for (uint32_t i = 0; i < q && i < 8; i++) {
    int32_t tx, tz;
    op_tilecache_queued(c, i, &tx, &tz);
    printf(" (%" PRId32 ",%" PRId32 ")", tx, tz);
  }
  printf("%s\n", q > 8 ? " ..." : "");
}

static void print_stats(const op_tilecache *c) {
  op_tilecache_stats st;
  op_tilecache_stats_get(c, &st);
  printf("stats: tiles processed %" PRIu64 "; units skipped %" PRIu64 ", first %" PRIu64
         ", built %" PRIu64 ", repaired %" PRIu64 ", repair fallbacks %" PRIu64 "\n",
         st.tiles_processed, st.units_skipped, st.units_first, st.units_built, st.units_repaired,
         st.repair_fallbacks);
  printf("stats: spans built %" PRIu64 ", removed %" PRIu64 "; tiles kept %" PRIu64
         ", replaced %" PRIu64 ", added %" PRIu64 ", removed %" PRIu64 "\n", st.spans_built,
         st.spans_removed, st.tiles_kept, st.tiles_replaced, st.tiles_added, st.tiles_removed);
}

/* Live obstacles and volumes (for the picture), in the order added. */
typedef struct tc_live {
  op_obstacle *obst;
  uint32_t *obst_id, nobst;
  op_convex_volume *vol;
  uint32_t *vol_id, nvol;
} tc_live;

static void tc_live_remove(uint32_t *ids, void *items, size_t size, uint32_t *n, uint32_t id) {
  for (uint32_t i = 0; i < *n; i++)
    if (ids[i] == id) {
      memmove(ids + i, ids + i + 1, (*n - i - 1) * sizeof *ids);
      memmove((char *)items + i * size, (char *)items + (i + 1) * size, (*n - i - 1) * size);
      (*n)--;
      return;
    }
}

/* Runs the steps; prints one line per step. */
static int tc_run_ops(cli_ctx *ctx, op_tilecache *c, const cli_shapes *sh, const tc_ops *ops,
                      tc_live *lv,
                      uint32_t step) {
  op_error e;
  for (uint32_t i = 0; i < ops->n; i++) {
    const tc_op *o = &ops->op[i];
    uint32_t id = 0, processed = 0;
    switch (o->kind) {
    case TC_ADD_OBST:
      if (op_tilecache_add_obstacle(c, &sh->obst[o->index], &id, &e)) return cli_fail_op(ctx,
          o->text, &e);
      printf("add obstacle #%" PRIu32 ": ", id);
      cli_print_obstacle(&sh->obst[o->index]);
      printf("; ");
      lv->obst[lv->nobst] = sh->obst[o->index];
      lv->obst_id[lv->nobst++] = id;
      break;
    case TC_ADD_VOL:
      if (op_tilecache_add_volume(c, &sh->vol[o->index], &id, &e)) return cli_fail_op(ctx,
          o->text, &e);
      printf("add volume V%" PRIu32 ": area %u, %" PRIu32 " points, y %g .. %g; ", id,
             (unsigned)sh->vol[o->index].area, sh->vol[o->index].npoints, sh->vol[o->index].ymin,
             sh->vol[o->index].ymax);
      lv->vol[lv->nvol] = sh->vol[o->index];
      lv->vol_id[lv->nvol++] = id;
      break;
    case TC_REMOVE:
    case TC_REMOVE_VOL: {
      int vol = o->kind == TC_REMOVE_VOL;
      op_status s = vol ? op_tilecache_remove_volume(c, o->index, &e)
                        : op_tilecache_remove_obstacle(c, o->index, &e);
      if (s == OP_E_ARGUMENT)
        return cli_usage_error(ctx, "'%s': no live %s has id %" PRIu32 " (%s)", o->text,
                           vol ? "volume" : "obstacle", o->index, e.message);
      if (s) return cli_fail_op(ctx, o->text, &e);
      printf("remove %s %s%" PRIu32 "; ", vol ? "volume" : "obstacle", vol ? "V" : "#", o->index);
      if (vol) tc_live_remove(lv->vol_id, lv->vol, sizeof *lv->vol, &lv->nvol, o->index);
      else tc_live_remove(lv->obst_id, lv->obst, sizeof *lv->obst, &lv->nobst, o->index);
      break;
    }
    case TC_UPDATE:
      if (step) {
        while (op_tilecache_queue_length(c)) {
          if (op_tilecache_update(c, step, &processed, &e)) return cli_fail_op(ctx, "Update", &e);
          printf("update(%" PRIu32 "): %" PRIu32 " tiles processed; ", step, processed);
          print_queue(c);
        }
        continue;
      }
      if (op_tilecache_update_all(c, &processed, &e)) return cli_fail_op(ctx, "UpdateAll", &e);
      printf("update all: %" PRIu32 " tiles processed; ", processed);
      break;
    }
    print_queue(c);
  }
  return 0;
}


typedef struct tc_opts {
  cli_input3d in;
  const char *mode, *svg_out, *snap_out, *color;
  cli_outputs outs;
  double chunk_size;
  long long step;
  int no_repair;
  cli_shapes sh;
  tc_ops ops;
} tc_opts;

/* The output options of tilecache; 1 consumed, 0 not ours, -1 a usage error. */
static int tc_output_option(cli_ctx *ctx, cli_args *a, tc_opts *t) {
  const char *o = a->argv[a->i];
  const char **dst = !strcmp(o, "--out") || !strcmp(o, "-o") ? &t->outs.mesh
                     : !strcmp(o, "--snapshot")              ? &t->snap_out
                     : !strcmp(o, "--tiles")                 ? &t->outs.tiles
                     : !strcmp(o, "--svg")                   ? &t->svg_out
                                                             : NULL;
  if (!dst) return 0;
  return (*dst = cli_opt_value(ctx, a)) ? 1 : -1;
}

/* One option of tilecache that is not an input option; 0 or the exit code. */
static int tc_option(cli_ctx *ctx, cli_args *a, tc_opts *t) {
  const char *o = a->argv[a->i], *v;
  int r = tc_output_option(ctx, a, t);
  if (r) return r > 0 ? 0 : CLI_EXIT_USAGE;
  if (cli_is_shape_option(o) || !strcmp(o, "--remove") || !strcmp(o, "--remove-volume")) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    return tc_step(ctx, o + 2, v, &t->sh, &t->ops);
  }
  if (!strcmp(o, "--update")) return tc_push(ctx, &t->ops, TC_UPDATE, 0, "--update");
  if (!strcmp(o, "--no-repair")) {
    t->no_repair = 1;
    return 0;
  }
  if (!strcmp(o, "--ops") || !strcmp(o, "--color") || !strcmp(o, "--step") ||
      !strcmp(o, "--mode") || !strcmp(o, "--chunk-size")) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
  } else {
    return cli_usage_error(ctx, "unknown argument '%s'", o);
  }
  if (!strcmp(o, "--ops")) return tc_ops_file(ctx, v, ctx->max_file, &t->sh, &t->ops);
  if (!strcmp(o, "--color")) {
    t->color = v;
    if (strcmp(v, "area") && strcmp(v, "poly") && strcmp(v, "tile"))
      return cli_usage_error(ctx, "--color '%s': expected area, poly or tile", v);
  } else if (!strcmp(o, "--step")) {
    if (cli_parse_i64(v, 1, UINT32_MAX, &t->step))
      return cli_usage_error(ctx, "--step '%s': expected a tile count, 1 to 4294967295", v);
  } else if (!strcmp(o, "--mode")) {
    t->mode = v;
    if (strcmp(v, "soup") && strcmp(v, "chunk"))
      return cli_usage_error(ctx, "--mode '%s': expected soup or chunk", v);
  } else if (cli_parse_double(v, &t->chunk_size) || !(t->chunk_size > 0)) {
    return cli_usage_error(ctx, "--chunk-size '%s': expected a positive number", v);
  }
  return 0;
}

/* BuildSoupCached or BuildChunkCached (RT-015); prints the input and the grid. */
static int tc_build(cli_ctx *ctx, tc_opts *t, op_tilecache **c, double *seconds) {
  cli_input3d *in = &t->in;
  int chunk = !strcmp(t->mode, "chunk");
  op_soup soup = op_trimesh_soup(&in->m);
  op_pipeline_result res;
  memset(&res, 0, sizeof res);
  op_error e;
  cli_progress pg;
  cli_progress_init(&pg);
  op_pipeline_hooks hooks = {&pg, cli_on_progress, NULL};
  double t0 = cli_now();
  op_status st;
  if (chunk) {
    op_chunked *ch = NULL;
    double size = t->chunk_size > 0 ? t->chunk_size : (double)in->s.tile_cells * in->s.cell_size;
    st = op_chunked_create(&soup, size, &ch, &e);
    if (st == OP_OK) st = op_pipeline_build_chunk_cached(&in->s, ch, &hooks, &res, c, &e);
    op_chunked_free(ch);
  } else {
    st = op_pipeline_build_soup_cached(&in->s, &soup, &hooks, &res, c, &e);
  }
  *seconds = cli_now() - t0;
  cli_progress_done(&pg);
  int rc = 0;
  if (st != OP_OK) {
    rc = cli_fail_op(ctx, chunk ? "BuildChunkCached" : "BuildSoupCached", &e);
  } else {
    printf("input: %s (%" PRIu32 " vertices, %" PRIu32 " triangles), preset %s, partition "
           "%s, mode %s\n", in->label, in->m.nverts, in->m.ntris, in->preset,
           cli_partition_name(in->s.partition), t->mode);
    printf("tile grid: %" PRId32 " x %" PRId32 ", %" PRIu32 " with spans, %" PRIu32
           " tiles; cached build %.3f s\n", res.ntx, res.ntz, res.nbuilt, res.ntiles, *seconds);
    if (res.ntiles == 0) cli_explain_no_tiles(in);
    if (t->no_repair) op_tilecache_set_repair(*c, 0);
    printf("repair: %s\n", op_tilecache_repair(*c) ? "on" : "off");
    op_tilecache_stats_reset(*c);
  }
  op_pipeline_result_free(&res);
  return rc;
}

/* --snapshot FILE: TileCache.SaveState (RT-132, SNAP-016). */
static int tc_snapshot(cli_ctx *ctx, const op_tilecache *c, const char *path) {
  op_bytes sb = {NULL, 0};
  op_error e;
  int rc = 0;
  if (op_tilecache_snapshot_save(c, &sb, &e)) rc = cli_fail_op(ctx, "the cache snapshot", &e);
  else if (cli_write_file(ctx, path, sb.data, sb.len)) rc = CLI_EXIT_FAIL;
  else printf("cache snapshot: %zu bytes, hash %016" PRIx64 ", written to %s\n", sb.len,
              op_hash64(sb.data, sb.len), path);
  op_bytes_free(&sb);
  return rc;
}

/* --svg FILE: the cache's mesh with the live obstacles and volumes on top. */
static int tc_picture(cli_ctx *ctx, const tc_opts *t, op_tilecache *c, const tc_live *lv) {
  op_error e;
  cli_mesh l;
  memset(&l, 0, sizeof l);
  op_cell_settings cell;
  int rc = 0;
  if (cli_mesh_view(ctx, op_tilecache_mesh(c), "mesh", &l)) rc = CLI_EXIT_FAIL;
  else if (op_settings_derive(&t->in.s, &cell, &e)) rc = cli_fail_op(ctx, "settings", &e);
  FILE *f = NULL;
  if (!rc && !(f = fopen(t->svg_out, "w")))
    rc = cli_fail(ctx, "cannot create '%s': %s", t->svg_out, strerror(errno));
  if (!rc) {
    cli_overlay ov = {lv->obst, lv->obst_id, lv->nobst, lv->vol, lv->vol_id, lv->nvol,
                      (double)cell.walkable_radius * t->in.s.cell_size};
    cli_layer_pick pk;
    memset(&pk, 0, sizeof pk);
    pk.hi = 255;
    char title[320];
    snprintf(title, sizeof title, "tile cache: %s - %" PRIu32 " obstacles, %" PRIu32
             " volumes - stage: mesh (colour per %s)", t->in.label, lv->nobst, lv->nvol,
             t->color);
    rc = cli_svg_mesh_draw(ctx, &l, title, t->color, &pk, &ov, f);
    if (fclose(f) != 0 && !rc) rc = cli_fail(ctx, "cannot write '%s'", t->svg_out);
    if (!rc) printf("picture: %s\n", t->svg_out);
  }
  cli_mesh_free(&l);
  return rc;
}

static int tc_live_init(cli_ctx *ctx, tc_live *lv, const cli_shapes *sh) {
  lv->obst = malloc((sh->nobst + 1) * sizeof *lv->obst);
  lv->obst_id = malloc((sh->nobst + 1) * sizeof *lv->obst_id);
  lv->vol = malloc((sh->nvol + 1) * sizeof *lv->vol);
  lv->vol_id = malloc((sh->nvol + 1) * sizeof *lv->vol_id);
  if (!lv->obst || !lv->obst_id || !lv->vol || !lv->vol_id) return cli_fail(ctx, "out of memory");
  return 0;
}

static void tc_live_free(tc_live *lv) {
  free(lv->obst);
  free(lv->obst_id);
  free(lv->vol);
  free(lv->vol_id);
}

/* The arguments, checked; the final update added (the queue is emptied, RT-027). */
static int tc_args(cli_ctx *ctx, int argc, char **argv, tc_opts *t) {
  int rc = cli_input_init(ctx, &t->in, argc);
  cli_args a = {argc, argv, 0};
  for (a.i = 0; a.i < argc && !rc; a.i++) {
    int st = 0, r = cli_input_option(ctx, &a, &t->in, &st);
    if (r < 0) rc = st;
    else if (r == 0) rc = tc_option(ctx, &a, t);
  }
  if (!rc) rc = cli_input_finish(ctx, &t->in);
  if (!rc) rc = cli_shapes_validate(ctx, &t->in.s, &t->sh);
  if (!rc && (t->ops.n == 0 || t->ops.op[t->ops.n - 1].kind != TC_UPDATE))
    rc = tc_push(ctx, &t->ops, TC_UPDATE, 0, "(final update)");
  return rc;
}

int cli_cmd_tilecache(cli_ctx *ctx, int argc, char **argv) {
  tc_opts t;
  memset(&t, 0, sizeof t);
  t.mode = "soup";
  t.color = "area";
  int rc = tc_args(ctx, argc, argv, &t);
  op_tilecache *c = NULL;
  tc_live lv;
  memset(&lv, 0, sizeof lv);
  if (!rc) rc = tc_live_init(ctx, &lv, &t.sh);
  double build_s = 0;
  if (!rc) rc = tc_build(ctx, &t, &c, &build_s);
  double t2 = cli_now();
  if (!rc) rc = tc_run_ops(ctx, c, &t.sh, &t.ops, &lv, (uint32_t)t.step);
  double t3 = cli_now();
  if (!rc) {
    print_stats(c);
    printf("fingerprint: %016" PRIx64 "\n", op_tilecache_fingerprint(c));
    printf("updates: %.3f s\n", t3 - t2);
  }
  if (!rc && t.snap_out) rc = tc_snapshot(ctx, c, t.snap_out);
  if (!rc) rc = cli_report_mesh(ctx, op_tilecache_mesh(c), &t.outs, build_s);
  if (!rc && t.svg_out) rc = tc_picture(ctx, &t, c, &lv);
  op_tilecache_free(c);
  tc_live_free(&lv);
  free(t.ops.op);
  cli_shapes_free(&t.sh);
  cli_input_free(&t.in);
  return rc;
}
