/*
** cmd_svg.c -- `onepath svg` (docs/cli.md): a top-down SVG picture of a mesh, tile or
** snapshot file (--mesh FILE [--color area|poly|tile] [--layers A-B], draw_mesh.c) or of
** one stage of one 3D tile (--stage spans|regions|contours|polys with the input options of
** build and --tile TX,TZ, draw_stages.c). Written to --out FILE or stdout.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct svg_opts {
  cli_input3d in;
  const char *mesh, *out, *stage, *color;
  int32_t tx, tz;
  cli_layer_pick pick;
  int have_layers;
} svg_opts;

/* --layers A-B or A: layer numbers 0..255, A <= B. */
static int parse_layers(const char *v, cli_layer_pick *pk) {
  char buf[64];
  snprintf(buf, sizeof buf, "%s", v);
  char *dash = strchr(buf, '-');
  long long lo, hi;
  if (dash) *dash = 0;
  if (cli_parse_i64(buf, 0, 255, &lo)) return -1;
  if (!dash) hi = lo;
  else if (cli_parse_i64(dash + 1, 0, 255, &hi) || hi < lo) return -1;
  pk->lo = (int32_t)lo;
  pk->hi = (int32_t)hi;
  return 0;
}

/* --tile TX,TZ: two integers. */
static int parse_tile(cli_ctx *ctx, const char *v, int32_t *tx, int32_t *tz) {
  char buf[64];
  snprintf(buf, sizeof buf, "%s", v);
  char *comma = strchr(buf, ',');
  if (comma) *comma = 0;
  long long x, z;
  if (!comma || cli_parse_i64(buf, INT32_MIN, INT32_MAX, &x) ||
      cli_parse_i64(comma + 1, INT32_MIN, INT32_MAX, &z))
    return cli_usage_error(ctx, "--tile '%s': expected TX,TZ (two integers)", v);
  *tx = (int32_t)x;
  *tz = (int32_t)z;
  return 0;
}

/* One option of svg that is not an input option; 0 or the exit code. */
static int svg_option(cli_ctx *ctx, cli_args *a, svg_opts *o) {
  const char *w = a->argv[a->i], *v;
  if (!strcmp(w, "--mesh")) {
    if (!(o->mesh = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
  } else if (!strcmp(w, "--out")) {
    if (!(o->out = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
  } else if (!strcmp(w, "--stage")) {
    if (!(o->stage = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    if (strcmp(o->stage, "spans") && strcmp(o->stage, "regions") &&
        strcmp(o->stage, "contours") && strcmp(o->stage, "polys"))
      return cli_usage_error(ctx, "--stage '%s': expected spans, regions, contours or polys",
                             o->stage);
  } else if (!strcmp(w, "--color")) {
    if (!(o->color = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    if (strcmp(o->color, "area") && strcmp(o->color, "poly") && strcmp(o->color, "tile"))
      return cli_usage_error(ctx, "--color '%s': expected area, poly or tile", o->color);
  } else if (!strcmp(w, "--layers")) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    if (parse_layers(v, &o->pick))
      return cli_usage_error(ctx,
          "--layers '%s': expected A-B or A, layer numbers 0..255, A <= B", v);
    o->have_layers = 1;
  } else if (!strcmp(w, "--tile")) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    return parse_tile(ctx, v, &o->tx, &o->tz);
  } else {
    return cli_usage_error(ctx, "unknown argument '%s'", w);
  }
  return 0;
}

/* The combinations of --mesh and --stage; the input when a stage is drawn. */
static int svg_check(cli_ctx *ctx, svg_opts *o) {
  const cli_input3d *in = &o->in;
  if (o->mesh && (o->stage || in->obj || in->level || in->nsets))
    return cli_usage_error(ctx,
        "--mesh draws a file: it takes no --stage, --obj, --level or --set");
  if (!o->mesh && !o->stage)
    return cli_usage_error(ctx, "give --mesh FILE, or --stage with --obj/--level");
  if (!o->mesh && o->have_layers)
    return cli_usage_error(ctx, "--layers picks the panels of --mesh FILE");
  return o->mesh ? 0 : cli_input_finish(ctx, &o->in);
}

/* A mesh, tile or snapshot file (svg --mesh). The file is read under the default cap, as
** before the context: --max-file-size caps the --stage --obj input only (docs/cli.md). */
static int svg_mesh(cli_ctx *ctx, const char *file, const char *color_mode, cli_layer_pick *pk,
                    FILE *f) {
  cli_mesh l;
  cli_ctx mesh_ctx = *ctx;
  mesh_ctx.max_file = CLI_MAX_FILE_DEFAULT;
  if (cli_mesh_load(&mesh_ctx, file, &l)) return CLI_EXIT_FAIL;
  char title[160];
  snprintf(title, sizeof title, "%s %s - stage: mesh (colour per %s)", l.kind, file, color_mode);
  int rc = cli_svg_mesh_draw(ctx, &l, title, color_mode, pk, NULL, f);
  cli_mesh_free(&l);
  return rc;
}

int cli_cmd_svg(cli_ctx *ctx, int argc, char **argv) {
  svg_opts o;
  memset(&o, 0, sizeof o);
  o.color = "area";
  o.pick.hi = 255;
  int rc = cli_input_init(ctx, &o.in, argc);
  cli_args a = {argc, argv, 0};
  for (a.i = 0; a.i < argc && !rc; a.i++) {
    int st = 0, r = cli_input_option(ctx, &a, &o.in, &st);
    if (r < 0) rc = st;
    else if (r == 0) rc = svg_option(ctx, &a, &o);
  }
  if (!rc) rc = svg_check(ctx, &o);
  FILE *f = NULL;
  if (!rc) {
    f = o.out ? fopen(o.out, "w") : stdout;
    if (!f) rc = cli_fail(ctx, "cannot create '%s': %s", o.out, strerror(errno));
  }
  if (!rc && o.mesh) rc = svg_mesh(ctx, o.mesh, o.color, &o.pick, f);
  else if (!rc) rc = cli_svg_stage(ctx, &o.in, o.stage, o.tx, o.tz, f);
  if (f && f != stdout && fclose(f) != 0 && !rc) rc = cli_fail(ctx, "cannot write '%s'", o.out);
  cli_input_free(&o.in);
  return rc;
}
