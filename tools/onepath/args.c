/*
** args.c -- argument handling of the onepath tool (docs/cli.md): error and usage-error
** messages, option values and numbers, --set KEY=VALUE of the 3D settings (SPAN-001
** names) and of the 2D settings (T2D-010 names), --preset, and the 3D input shared by
** build, svg --stage and tilecache (--obj or --level, applied by op_obj_parse or
** op_level_generate of spec/levels.md, checked by op_settings_validate, SPAN-030).
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_usage_error(cli_ctx *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", ctx->cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n(try `onepath --help`)\n");
  va_end(ap);
  return CLI_EXIT_USAGE;
}

int cli_fail(cli_ctx *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", ctx->cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return CLI_EXIT_FAIL;
}

int cli_fail_op(cli_ctx *ctx, const char *what, const op_error *e) {
  return cli_fail(ctx,
      "%s failed: %s error, field '%s' (value %s): %s", what, op_status_name(e->kind),
              e->field, e->value[0] ? e->value : "-", e->message);
}

int cli_invalid_setting(cli_ctx *ctx, const op_error *e) {
  fprintf(stderr, "%s: invalid setting '%s' (value %s): %s\n", ctx->cmd, e->field,
          e->value[0] ? e->value : "-", e->message);
  return CLI_EXIT_USAGE;
}

/* The value of option argv[i] (the next word); NULL after reporting an error. */
const char *cli_opt_value(cli_ctx *ctx, cli_args *a) {
  if (a->i + 1 >= a->argc) {
    cli_usage_error(ctx, "option '%s' needs a value", a->argv[a->i]);
    return NULL;
  }
  return a->argv[++a->i];
}

int cli_parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno == ERANGE) return -1;
  *out = v;
  return 0;
}

int cli_parse_i64(const char *s, long long lo, long long hi, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (end == s || *end || errno || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

int cli_parse_hex64(const char *s, uint64_t *out) {
  const char *p = s;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
  size_t n = strlen(p);
  if (n == 0 || n > 16) return -1;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    int c = p[i], d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return -1;
    v = v << 4 | (uint64_t)d;
  }
  *out = v;
  return 0;
}

int cli_parse_partition(const char *s, op_partition *p) {
  if (!strcmp(s, "watershed")) *p = OP_PARTITION_WATERSHED;
  else if (!strcmp(s, "monotone")) *p = OP_PARTITION_MONOTONE;
  else if (!strcmp(s, "layers")) *p = OP_PARTITION_LAYERS;
  else return -1;
  return 0;
}
const char *cli_partition_name(op_partition p) {
  return p == OP_PARTITION_MONOTONE ? "monotone" : p == OP_PARTITION_LAYERS ? "layers"
                                                                            : "watershed";
}


int cli_check_preset(const char *name) {
  return strcmp(name, "Humanoid") && strcmp(name, "Small") && strcmp(name, "Large");
}

/* The --set keys of the 3D settings (SPAN-001 names) with the ranges op_settings_validate
** enforces (SPAN-030) and their units, for --set, `COMMAND --help` and suggestions. */
typedef struct set_key {
  const char *name;
  char kind; /* 'd' double, 'u' uint32, 'p' partition */
  size_t off;
  long long lo, hi; /* 'u': the accepted integers */
  const char *range;
} set_key;

static const set_key SET_KEYS[] = {
  {"cell_size", 'd', offsetof(op_settings, cell_size), 0, 0, "[2^-16, 2^16] world units"},
  {"cell_height", 'd', offsetof(op_settings, cell_height), 0, 0, "[2^-16, 2^16] world units"},
  {"agent_radius", 'd', offsetof(op_settings, agent_radius), 0, 0,
   ">= 0 world units, at most 255 cells (agent_radius / cell_size)"},
  {"agent_height", 'd', offsetof(op_settings, agent_height), 0, 0,
   "> 0 world units, at most 255 cell heights"},
  {"agent_climb", 'd', offsetof(op_settings, agent_climb), 0, 0,
   ">= 0 world units, below 256 cell heights"},
  {"max_slope", 'd', offsetof(op_settings, max_slope), 0, 0, "[0, 90] degrees"},
  {"tile_cells", 'u', offsetof(op_settings, tile_cells), 1, 8192, "1..8192 cells"},
  {"partition", 'p', offsetof(op_settings, partition), 0, 0, "watershed, monotone or layers"},
  {"min_region_area", 'u', offsetof(op_settings, min_region_area), 0, 1 << 24,
   "0..2^24 cells"},
  {"merge_region_area", 'u', offsetof(op_settings, merge_region_area), 0, 1 << 24,
   "0..2^24 cells"},
  {"max_simplification_error", 'd', offsetof(op_settings, max_simplification_error), 0, 0,
   "[0, 1024] cells"},
  {"max_edge_len", 'd', offsetof(op_settings, max_edge_len), 0, 0,
   ">= 0 world units, below 65536 cells"},
  {"max_verts_per_poly", 'u', offsetof(op_settings, max_verts_per_poly), 3,
   OP_MAX_VERTS_PER_POLY, "3..12 vertices"},
  {"detail_sample_distance", 'd', offsetof(op_settings, detail_sample_distance), 0, 0,
   "[0, 65536] cells (0..0.9: no sampling)"},
  {"detail_sample_max_error", 'd', offsetof(op_settings, detail_sample_max_error), 0, 0,
   "[0, 65536] cell heights"},
};
#define NSET_KEYS (sizeof SET_KEYS / sizeof *SET_KEYS)

void cli_print_set_keys(FILE *f) {
  fputs("--set keys (op_settings, SPAN-001; ranges of op_settings_validate, SPAN-030):\n", f);
  for (size_t i = 0; i < NSET_KEYS; i++)
    fprintf(f, "  %-25s %s\n", SET_KEYS[i].name, SET_KEYS[i].range);
}

/* Levenshtein distance of two short words (at most 63 characters of each). */
static size_t edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 63) la = 63;
  if (lb > 63) lb = 63;
  size_t row[64];
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (row[j] + 1 < best) best = row[j] + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* An unknown key: the nearest keys (edit distance at most 3, the least found). */
static int unknown_key(cli_ctx *ctx, const char *key, const char *const *names, size_t n) {
  size_t best = 4;
  for (size_t i = 0; i < n; i++) {
    size_t d = edit_distance(key, names[i]);
    if (d < best) best = d;
  }
  char hint[512] = "";
  size_t at = 0;
  for (size_t i = 0; best <= 3 && i < n; i++)
    if (edit_distance(key, names[i]) == best && at < sizeof hint - 80)
      at += (size_t)snprintf(hint + at, sizeof hint - at, "%s'%s'", at ? " or " : "; did you mean ",
                             names[i]);
  return cli_usage_error(ctx,
      "--set: unknown setting '%s'%s%s (`onepath COMMAND --help` lists the keys)",
                         key, hint, at ? "?" : "");
}

/* --set key=value for the 3D settings (SPAN-001 names). */
static int set_3d(cli_ctx *ctx, op_settings *s, const char *kv) {
  const char *eq = strchr(kv, '=');
  if (!eq || eq == kv) return cli_usage_error(ctx, "--set '%s': expected key=value", kv);
  char key[64];
  size_t kl = (size_t)(eq - kv);
  if (kl >= sizeof key) return cli_usage_error(ctx, "--set '%s': unknown setting", kv);
  memcpy(key, kv, kl);
  key[kl] = 0;
  const char *v = eq + 1;
  for (size_t i = 0; i < NSET_KEYS; i++) {
    const set_key *k = &SET_KEYS[i];
    if (strcmp(key, k->name)) continue;
    if (k->kind == 'd') {
      double d;
      if (cli_parse_double(v, &d))
        return cli_usage_error(ctx,
            "setting %s: '%s' is not a number (range %s)", key, v, k->range);
      memcpy((char *)s + k->off, &d, sizeof d);
    } else if (k->kind == 'u') {
      long long n;
      if (cli_parse_i64(v, k->lo, k->hi, &n))
        return cli_usage_error(ctx, "setting %s: '%s' is not an integer in %s", key, v, k->range);
      uint32_t u = (uint32_t)n;
      memcpy((char *)s + k->off, &u, sizeof u);
    } else if (cli_parse_partition(v, &s->partition)) {
      return cli_usage_error(ctx,
          "setting partition: '%s' is not watershed, monotone or layers", v);
    }
    return 0;
  }
  const char *names[NSET_KEYS];
  for (size_t i = 0; i < NSET_KEYS; i++) names[i] = SET_KEYS[i].name;
  return unknown_key(ctx, key, names, NSET_KEYS);
}

/* SPAN-030 checks some settings in cells (agent_radius / cell_size, ...): when the
** setting refused is not one the command line gave but a --set changed the unit, name it
** too, so `--set cell_size=0.001` is not left unmentioned. */
static int invalid_3d(cli_ctx *ctx, const cli_input3d *in, const op_error *e) {
  int named = 0;
  const char *unit = NULL;
  for (int i = 0; i < in->nsets; i++) {
    const char *kv = in->sets[i] + 1;
    size_t fl = strlen(e->field);
    if (!strncmp(kv, e->field, fl) && kv[fl] == '=') named = 1;
    if (!strncmp(kv, "cell_size=", 10) || !strncmp(kv, "cell_height=", 12)) unit = kv;
  }
  if (named || !unit) return cli_invalid_setting(ctx, e);
  fprintf(stderr, "note: the limit is in cells; '--set %s' changed the cell size\n", unit);
  return cli_invalid_setting(ctx, e);
}

/* --set key=value for the 2D settings (T2D-010 names). */
int cli_set_2d(cli_ctx *ctx, op_settings2d *s, const char *kv) {
  const char *eq = strchr(kv, '=');
  if (!eq || eq == kv) return cli_usage_error(ctx, "--set '%s': expected key=value", kv);
  char key[64];
  size_t kl = (size_t)(eq - kv);
  if (kl >= sizeof key) return cli_usage_error(ctx, "--set '%s': unknown setting", kv);
  memcpy(key, kv, kl);
  key[kl] = 0;
  const char *v = eq + 1;
  double *dbl = NULL;
  if (!strcmp(key, "cell_size")) dbl = &s->cell_size;
  else if (!strcmp(key, "cell_height")) dbl = &s->cell_height;
  else if (!strcmp(key, "agent_radius")) dbl = &s->agent_radius;
  else if (!strcmp(key, "agent_height")) dbl = &s->agent_height;
  else if (!strcmp(key, "agent_climb")) dbl = &s->agent_climb;
  else if (!strcmp(key, "max_slope")) dbl = &s->max_slope;
  else if (!strcmp(key, "floor_y")) dbl = &s->floor_y;
  if (dbl) {
    if (cli_parse_double(v, dbl)) return cli_usage_error(ctx,
        "setting %s: '%s' is not a number", key, v);
    return 0;
  }
  long long n;
  if (!strcmp(key, "tile_cells") || !strcmp(key, "max_verts_per_poly")) {
    if (cli_parse_i64(v, 0, UINT32_MAX, &n))
      return cli_usage_error(ctx, "setting %s: '%s' is not a non-negative integer (range: see "
                             "`onepath build2d --help`)", key, v);
    if (key[0] == 't') s->tile_cells = (uint32_t)n;
    else s->max_verts_per_poly = (uint32_t)n;
    return 0;
  }
  if (!strcmp(key, "area")) {
    if (cli_parse_i64(v, 0, 255, &n)) return cli_usage_error(ctx,
        "setting area: '%s' is not in [0, 255]", v);
    s->area = (uint8_t)n;
    return 0;
  }
  if (!strcmp(key, "flags")) {
    if (cli_parse_i64(v, 0, 65535, &n))
      return cli_usage_error(ctx, "setting flags: '%s' is not in [0, 65535]", v);
    s->flags = (uint16_t)n;
    return 0;
  }
  if (!strcmp(key, "snap_bits")) {
    if (!strcmp(v, "null")) { s->snap_bits = OP_SNAP_BITS_NULL; return 0; }
    if (cli_parse_i64(v, 0, INT32_MAX, &n))
      return cli_usage_error(ctx,
          "setting snap_bits: '%s' is not null or a non-negative integer", v);
    s->snap_bits = (int32_t)n;
    return 0;
  }
  if (!strcmp(key, "origin")) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", v);
    char *comma = strchr(buf, ',');
    if (!comma) return cli_usage_error(ctx, "setting origin: '%s' is not X,Z", v);
    *comma = 0;
    if (cli_parse_double(buf, &s->origin[0]) || cli_parse_double(comma + 1, &s->origin[1]))
      return cli_usage_error(ctx, "setting origin: '%s' is not X,Z", v);
    return 0;
  }
  static const char *const names2d[] = {"cell_size", "cell_height", "agent_radius",
    "agent_height", "agent_climb", "max_slope", "floor_y", "tile_cells", "max_verts_per_poly",
    "area", "flags", "snap_bits", "origin"};
  return unknown_key(ctx, key, names2d, sizeof names2d / sizeof *names2d);
}

static uint32_t default_size(const char *level) {
  if (!strcmp(level, "terrain") || !strcmp(level, "hills")) return 16;
  if (!strcmp(level, "city")) return 2;
  if (!strcmp(level, "stairs")) return 8;
  return 12; /* dungeon */
}

int cli_input_init(cli_ctx *ctx, cli_input3d *in, int argc) {
  memset(in, 0, sizeof *in);
  in->size = -1;
  in->seed = 1;
  in->sets = calloc((size_t)argc + 1, sizeof *in->sets);
  return in->sets ? 0 : cli_fail(ctx, "out of memory");
}

void cli_input_free(cli_input3d *in) {
  for (int i = 0; i < in->nsets; i++) free(in->sets[i]);
  free(in->sets);
  op_trimesh_free(&in->m);
  memset(in, 0, sizeof *in);
}

/* Keeps one --partition (P) or --set (S) value, in command-line order, for the settings
** builder; sets has room for argc entries. 0, or the exit code of the failure. */
static int keep_setting(cli_ctx *ctx, cli_input3d *in, const char *opt, const char *val) {
  size_t l = strlen(val) + 2;
  char *k = malloc(l);
  if (!k) return cli_fail(ctx, "out of memory");
  snprintf(k, l, "%c%s", opt[2] == 'p' ? 'P' : 'S', val);
  in->sets[in->nsets++] = k;
  return 0;
}

/* Handles one option shared by build, svg and tilecache; 1 consumed, 0 not ours, -1 error. */
int cli_input_option(cli_ctx *ctx, cli_args *a, cli_input3d *in, int *status) {
  const char *o = a->argv[a->i], *v;
  if (!strcmp(o, "--obj") || !strcmp(o, "--level") || !strcmp(o, "--seed") ||
      !strcmp(o, "--size") || !strcmp(o, "--preset") || !strcmp(o, "--set") ||
      !strcmp(o, "--partition") || !strcmp(o, "--max-file-size")) {
    if (!(v = cli_opt_value(ctx, a))) { *status = CLI_EXIT_USAGE; return -1; }
  } else {
    return 0;
  }
  if (!strcmp(o, "--obj")) in->obj = v;
  else if (!strcmp(o, "--max-file-size")) {
    if (cli_parse_size(v, &ctx->max_file)) {
      *status = cli_usage_error(ctx,
          "--max-file-size '%s': expected a byte count (K, M, G allowed), "
                                "at most 1T", v);
      return -1;
    }
  } else if (!strcmp(o, "--level")) {
    if (strcmp(v, "terrain") && strcmp(v, "city") && strcmp(v, "stairs") && strcmp(v, "dungeon") &&
        strcmp(v, "hills")) {
      *status = cli_usage_error(ctx, "--level '%s': expected terrain, city, stairs, dungeon or hills", v);
      return -1;
    }
    in->level = v;
  } else if (!strcmp(o, "--seed")) {
    if (cli_parse_hex64(v, &in->seed)) {
      *status = cli_usage_error(ctx, "--seed '%s': expected 1 to 16 hex digits", v);
      return -1;
    }
  } else if (!strcmp(o, "--size")) {
    if (cli_parse_i64(v, 0, UINT32_MAX, &in->size)) {
      *status = cli_usage_error(ctx, "--size '%s': expected a non-negative integer", v);
      return -1;
    }
  } else if (!strcmp(o, "--preset")) {
    /* the preset is applied first, whatever the order of the options: see finish */
    if (cli_check_preset(v)) {
      *status = cli_usage_error(ctx, "--preset '%s': expected Humanoid, Small or Large", v);
      return -1;
    }
    in->preset = v;
  } else if (!strcmp(o, "--set") || !strcmp(o, "--partition")) {
    /* collected in order, applied after the preset */
    if ((*status = keep_setting(ctx, in, o, v))) return -1;
  }
  return 1;
}

/* Applies preset then --set/--partition in order, validates, loads the geometry. */
int cli_input_finish(cli_ctx *ctx, cli_input3d *in) {
  char **sets = in->sets;
  int nsets = in->nsets;
  op_error e;
  if (!in->preset) in->preset = "Humanoid";
  if (op_settings_preset(in->preset, &in->s, &e)) return cli_fail_op(ctx, "preset", &e);
  for (int i = 0; i < nsets; i++) {
    if (sets[i][0] == 'P') { /* --partition */
      if (cli_parse_partition(sets[i] + 1, &in->s.partition))
        return cli_usage_error(ctx, "--partition '%s': expected watershed, monotone or layers",
                           sets[i] + 1);
    } else {
      int rc = set_3d(ctx, &in->s, sets[i] + 1);
      if (rc) return rc;
    }
  }
  if (op_settings_validate(&in->s, &e)) return invalid_3d(ctx, in, &e);
  if (!!in->obj == !!in->level) return cli_usage_error(ctx,
      "give exactly one of --obj FILE and --level NAME");
  if (in->obj) {
    uint8_t *d;
    size_t n;
    if (cli_read_file_max(ctx, in->obj, ctx->max_file, &d, &n)) return CLI_EXIT_FAIL;
    int bad = op_obj_parse((const char *)d, n, &in->m, &e);
    free(d);
    if (bad) return cli_fail_op(ctx, in->obj, &e);
    snprintf(in->label, sizeof in->label, "%s", in->obj);
  } else {
    uint32_t size = in->size < 0 ? default_size(in->level) : (uint32_t)in->size;
    if (op_level_generate(in->level, in->seed, size, &in->s, &in->m, &e))
      return cli_fail_op(ctx, "level generation", &e);
    snprintf(in->label, sizeof in->label, "level %s seed %016" PRIx64 " size %" PRIu32, in->level,
             in->seed, size);
  }
  return 0;
}

/* A build with no tile: why (docs/cli.md). Counts the triangles the slope test of SPAN-104
** (op_tri_walkable) accepts and those facing down (normal y <= 0, a floor wound the other
** way), and prints the reason on stderr. */
void cli_explain_no_tiles(const cli_input3d *in) {
  op_cell_settings cell;
  op_error e;
  if (op_settings_derive(&in->s, &cell, &e)) return;
  uint32_t walk = 0, down = 0;
  for (uint32_t t = 0; t < in->m.ntris; t++) {
    const double *v[3];
    for (int k = 0; k < 3; k++) v[k] = &in->m.verts[3 * (size_t)in->m.tris[3 * (size_t)t + (size_t)k]];
    if (op_tri_walkable(v[0], v[1], v[2], cell.slope_cos)) walk++;
    /* y of (v1 - v0) x (v2 - v0): the triangle faces down (or is vertical) when <= 0 */
    double ny = (v[1][2] - v[0][2]) * (v[2][0] - v[0][0]) - (v[1][0] - v[0][0]) * (v[2][2] - v[0][2]);
    if (!(ny > 0)) down++;
  }
  if (in->m.ntris == 0) {
    fprintf(stderr, "note: no tile built: the input has no triangle\n");
  } else if (walk == 0) {
    fprintf(stderr, "note: no tile built: 0 of %" PRIu32 " triangles walkable", in->m.ntris);
    if (down) fprintf(stderr, "; %" PRIu32 " faces down: check the winding", down);
    else fprintf(stderr, "; all steeper than max_slope %g degrees", in->s.max_slope);
    fputc('\n', stderr);
  } else {
    fprintf(stderr, "note: no tile built: %" PRIu32 " of %" PRIu32 " triangles walkable, but no "
            "walkable area is left (agent_radius %g, agent_height %g, min_region_area %" PRIu32
            ")\n", walk, in->m.ntris, in->s.agent_radius, in->s.agent_height,
            in->s.min_region_area);
  }
}

/* The arguments of a command that takes one FILE and one optional flag (info --tiles, hash
** --parts): 0, or the usage error's exit status. */
int cli_file_args(cli_ctx *ctx, int argc, char **argv, const char *flag, const char **file,
                  int *on) {
  *file = NULL;
  *on = 0;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], flag)) *on = 1;
    else if (argv[i][0] == '-' && argv[i][1])
      return cli_usage_error(ctx, "unknown argument '%s'", argv[i]);
    else if (*file) return cli_usage_error(ctx, "unexpected argument '%s' (one FILE only)", argv[i]);
    else *file = argv[i];
  }
  if (!*file) return cli_usage_error(ctx, "a FILE is required");
  return 0;
}
