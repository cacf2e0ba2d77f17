/*
** cmd_build2d.c -- `onepath build2d` (docs/cli.md): a 2D mesh from an outline text file
** by NavMesh.Build2D (op_build2d_outlines, spec/build2d-tiles.md; settings T2D-010, checked
** by op_settings2d_validate), then report_mesh. The outline format: `outline` or
** `obstacle` starts a ring, each following line `X Z` is a point, `#` starts a comment.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The outline text format (docs/cli.md): `outline` or `obstacle` starts a ring; each
** following line `X Z` is a point; `#` starts a comment; blank lines are ignored. */
typedef struct rings {
  op_outline2d *o;
  size_t n, cap;
  double *xy;
  size_t nxy, capxy;
  int *is_obstacle;
} rings;

static int parse_outlines(cli_ctx *ctx, const char *path, const char *text, rings *r) {
  int line = 0, cur = -1;
  const char *p = text;
  size_t *starts = NULL;
  while (*p) {
    line++;
    const char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char buf[256];
    if (len >= sizeof buf) { free(starts); return cli_fail(ctx,
        "%s: line %d: too long", path, line); }
    memcpy(buf, p, len);
    buf[len] = 0;
    p = end ? end + 1 : p + len;
    char *hash = strchr(buf, '#');
    if (hash) *hash = 0;
    char w1[64], w2[64], w3[8];
    int k = sscanf(buf, "%63s %63s %7s", w1, w2, w3);
    if (k <= 0) continue;
    if (k == 1 && (!strcmp(w1, "outline") || !strcmp(w1, "obstacle"))) {
      if (r->n == r->cap) {
        size_t nc = r->cap ? 2 * r->cap : 8;
        op_outline2d *no = realloc(r->o, nc * sizeof *no);
        if (no) r->o = no;
        int *ni = realloc(r->is_obstacle, nc * sizeof *ni);
        if (ni) r->is_obstacle = ni;
        size_t *ns = realloc(starts, nc * sizeof *ns);
        if (ns) starts = ns;
        if (!no || !ni || !ns) { free(starts); return cli_fail(ctx, "out of memory"); }
        r->cap = nc;
      }
      r->is_obstacle[r->n] = w1[1] == 'b';
      starts[r->n] = r->nxy / 2;
      r->o[r->n].count = 0;
      cur = (int)r->n++;
      continue;
    }
    double x, z;
    if (k != 2 || cli_parse_double(w1, &x) || cli_parse_double(w2, &z)) {
      free(starts);
      return cli_fail(ctx,
          "%s: line %d: expected `outline`, `obstacle` or two numbers `X Z`", path, line);
    }
    if (cur < 0) {
      free(starts);
      return cli_fail(ctx,
          "%s: line %d: a point before the first `outline` or `obstacle`", path, line);
    }
    if (r->nxy + 2 > r->capxy) {
      size_t nc = r->capxy ? 2 * r->capxy : 64;
      double *nx = realloc(r->xy, nc * sizeof *nx);
      if (!nx) { free(starts); return cli_fail(ctx, "out of memory"); }
      r->xy = nx;
      r->capxy = nc;
    }
    r->xy[r->nxy++] = x;
    r->xy[r->nxy++] = z;
    r->o[cur].count++;
  }
  for (size_t i = 0; i < r->n; i++) r->o[i].xy = r->xy + 2 * starts[i];
  free(starts);
  return 0;
}


static void rings_free(rings *r) {
  free(r->o);
  free(r->xy);
  free(r->is_obstacle);
}

typedef struct build2d_opts {
  const char *file, *preset;
  cli_outputs outs;
  const char **sets; /* the --set values, in order */
  int nsets;
} build2d_opts;

/* One option of build2d; 0 or the exit code. */
static int build2d_option(cli_ctx *ctx, cli_args *a, build2d_opts *b) {
  const char *o = a->argv[a->i], *v;
  if (!strcmp(o, "--outlines")) {
    if (!(b->file = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
  } else if (!strcmp(o, "--out")) {
    if (!(b->outs.mesh = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
  } else if (!strcmp(o, "--snapshot")) {
    if (!(b->outs.snapshot = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
  } else if (!strcmp(o, "--tiles")) {
    if (!(b->outs.tiles = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
  } else if (!strcmp(o, "--preset")) {
    if (!(b->preset = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    if (cli_check_preset(b->preset))
      return cli_usage_error(ctx, "--preset '%s': expected Humanoid, Small or Large", b->preset);
  } else if (!strcmp(o, "--set")) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    b->sets[b->nsets++] = v;
  } else if (!strcmp(o, "--max-file-size")) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    if (cli_parse_size(v, &ctx->max_file))
      return cli_usage_error(ctx, "--max-file-size '%s': expected a byte count (K, M, G allowed), "
                             "at most 1T", v);
  } else {
    return cli_usage_error(ctx, "unknown argument '%s'", o);
  }
  return 0;
}

/* The settings: the preset, then every --set in order, validated (T2D-010). */
static int build2d_settings(cli_ctx *ctx, const build2d_opts *b, op_settings2d *s) {
  op_error e;
  if (!b->file) return cli_usage_error(ctx, "--outlines FILE is required");
  if (op_settings2d_preset(b->preset, s, &e)) return cli_fail_op(ctx, "preset", &e);
  for (int i = 0; i < b->nsets; i++) {
    int rc = cli_set_2d(ctx, s, b->sets[i]);
    if (rc) return rc;
  }
  if (op_settings2d_validate(s, &e)) return cli_invalid_setting(ctx, &e);
  return 0;
}

/* Builds the rings of r (walkable outlines and obstacles) and reports the mesh. */
static int build2d_run(cli_ctx *ctx, const build2d_opts *b, const op_settings2d *s,
                       const rings *r) {
  op_outline2d *walk = malloc((r->n + 1) * sizeof *walk);
  op_outline2d *obst = malloc((r->n + 1) * sizeof *obst);
  size_t nw = 0, no = 0;
  int rc = walk && obst ? 0 : cli_fail(ctx, "out of memory");
  for (size_t i = 0; !rc && i < r->n; i++) {
    if (r->is_obstacle[i]) obst[no++] = r->o[i];
    else walk[nw++] = r->o[i];
  }
  op_mesh *m = NULL;
  op_error e;
  if (!rc) {
    double t0 = cli_now();
    cli_progress pg;
    cli_progress_init(&pg);
    cli_progress_update(&pg, 0, 1, "building (2D builder: one step)");
    if (op_build2d_outlines(s, walk, nw, obst, no, &m, &e)) rc = cli_fail_op(ctx, "build2d", &e);
    cli_progress_update(&pg, 1, 1, "built");
    cli_progress_done(&pg);
    double t1 = cli_now();
    if (!rc) {
      printf("input: %s (%zu outlines, %zu obstacles), preset %s\n", b->file, nw, no,
             b->preset);
      rc = cli_report_mesh(ctx, m, &b->outs, t1 - t0);
    }
  }
  op_mesh_free(m);
  free(walk);
  free(obst);
  return rc;
}

int cli_cmd_build2d(cli_ctx *ctx, int argc, char **argv) {
  build2d_opts b;
  memset(&b, 0, sizeof b);
  b.preset = "Humanoid";
  b.sets = calloc((size_t)argc + 1, sizeof *b.sets);
  int rc = b.sets ? 0 : cli_fail(ctx, "out of memory");
  cli_args a = {argc, argv, 0};
  for (a.i = 0; a.i < argc && !rc; a.i++) rc = build2d_option(ctx, &a, &b);
  op_settings2d s;
  if (!rc) rc = build2d_settings(ctx, &b, &s);
  uint8_t *text = NULL;
  size_t n;
  rings r;
  memset(&r, 0, sizeof r);
  if (!rc && cli_read_file_max(ctx, b.file, ctx->max_file, &text, &n)) rc = CLI_EXIT_FAIL;
  if (!rc) rc = parse_outlines(ctx, b.file, (const char *)text, &r);
  if (!rc) rc = build2d_run(ctx, &b, &s, &r);
  rings_free(&r);
  free(text);
  free(b.sets);
  return rc;
}
