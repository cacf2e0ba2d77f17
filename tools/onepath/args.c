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

/* The one process-wide setting of the tool: written once by main before the command
** runs (cli_set_command), read by the message functions below. */
static const char *g_cmd = "onepath";

void cli_set_command(const char *name) { g_cmd = name; }

int cli_usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", g_cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n(try `onepath --help`)\n");
  va_end(ap);
  return CLI_EXIT_USAGE;
}

int cli_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", g_cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return CLI_EXIT_FAIL;
}

int cli_fail_op(const char *what, const op_error *e) {
  return cli_fail("%s failed: %s error, field '%s' (value %s): %s", what, op_status_name(e->kind),
              e->field, e->value[0] ? e->value : "-", e->message);
}

int cli_invalid_setting(const op_error *e) {
  fprintf(stderr, "%s: invalid setting '%s' (value %s): %s\n", g_cmd, e->field,
          e->value[0] ? e->value : "-", e->message);
  return CLI_EXIT_USAGE;
}

/* The value of option argv[i] (the next word); NULL after reporting an error. */
const char *cli_opt_value(cli_args *a) {
  if (a->i + 1 >= a->argc) {
    cli_usage_error("option '%s' needs a value", a->argv[a->i]);
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

/* --set key=value for the 3D settings (SPAN-001 names). */
static int set_3d(op_settings *s, const char *kv) {
  const char *eq = strchr(kv, '=');
  if (!eq || eq == kv) return cli_usage_error("--set '%s': expected key=value", kv);
  char key[64];
  size_t kl = (size_t)(eq - kv);
  if (kl >= sizeof key) return cli_usage_error("--set '%s': unknown setting", kv);
  memcpy(key, kv, kl);
  key[kl] = 0;
  const char *v = eq + 1;
  static const struct { const char *name; size_t off; } dbl[] = {
    {"cell_size", offsetof(op_settings, cell_size)},
    {"cell_height", offsetof(op_settings, cell_height)},
    {"agent_radius", offsetof(op_settings, agent_radius)},
    {"agent_height", offsetof(op_settings, agent_height)},
    {"agent_climb", offsetof(op_settings, agent_climb)},
    {"max_slope", offsetof(op_settings, max_slope)},
    {"max_simplification_error", offsetof(op_settings, max_simplification_error)},
    {"max_edge_len", offsetof(op_settings, max_edge_len)},
    {"detail_sample_distance", offsetof(op_settings, detail_sample_distance)},
    {"detail_sample_max_error", offsetof(op_settings, detail_sample_max_error)},
  };
  static const struct { const char *name; size_t off; } u32[] = {
    {"tile_cells", offsetof(op_settings, tile_cells)},
    {"min_region_area", offsetof(op_settings, min_region_area)},
    {"merge_region_area", offsetof(op_settings, merge_region_area)},
    {"max_verts_per_poly", offsetof(op_settings, max_verts_per_poly)},
  };
  for (size_t i = 0; i < sizeof dbl / sizeof *dbl; i++)
    if (!strcmp(key, dbl[i].name)) {
      double d;
      if (cli_parse_double(v, &d)) return cli_usage_error("setting %s: '%s' is not a number", key, v);
      memcpy((char *)s + dbl[i].off, &d, sizeof d);
      return 0;
    }
  for (size_t i = 0; i < sizeof u32 / sizeof *u32; i++)
    if (!strcmp(key, u32[i].name)) {
      long long n;
      if (cli_parse_i64(v, 0, UINT32_MAX, &n))
        return cli_usage_error("setting %s: '%s' is not an integer in [0, 2^32 - 1]", key, v);
      uint32_t u = (uint32_t)n;
      memcpy((char *)s + u32[i].off, &u, sizeof u);
      return 0;
    }
  if (!strcmp(key, "partition")) {
    if (cli_parse_partition(v, &s->partition))
      return cli_usage_error("setting partition: '%s' is not watershed, monotone or layers", v);
    return 0;
  }
  return cli_usage_error("--set: unknown setting '%s'", key);
}

/* --set key=value for the 2D settings (T2D-010 names). */
int cli_set_2d(op_settings2d *s, const char *kv) {
  const char *eq = strchr(kv, '=');
  if (!eq || eq == kv) return cli_usage_error("--set '%s': expected key=value", kv);
  char key[64];
  size_t kl = (size_t)(eq - kv);
  if (kl >= sizeof key) return cli_usage_error("--set '%s': unknown setting", kv);
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
    if (cli_parse_double(v, dbl)) return cli_usage_error("setting %s: '%s' is not a number", key, v);
    return 0;
  }
  long long n;
  if (!strcmp(key, "tile_cells") || !strcmp(key, "max_verts_per_poly")) {
    if (cli_parse_i64(v, 0, UINT32_MAX, &n))
      return cli_usage_error("setting %s: '%s' is not an integer in [0, 2^32 - 1]", key, v);
    if (key[0] == 't') s->tile_cells = (uint32_t)n;
    else s->max_verts_per_poly = (uint32_t)n;
    return 0;
  }
  if (!strcmp(key, "area")) {
    if (cli_parse_i64(v, 0, 255, &n)) return cli_usage_error("setting area: '%s' is not in [0, 255]", v);
    s->area = (uint8_t)n;
    return 0;
  }
  if (!strcmp(key, "flags")) {
    if (cli_parse_i64(v, 0, 65535, &n))
      return cli_usage_error("setting flags: '%s' is not in [0, 65535]", v);
    s->flags = (uint16_t)n;
    return 0;
  }
  if (!strcmp(key, "snap_bits")) {
    if (!strcmp(v, "null")) { s->snap_bits = OP_SNAP_BITS_NULL; return 0; }
    if (cli_parse_i64(v, 0, INT32_MAX, &n))
      return cli_usage_error("setting snap_bits: '%s' is not null or a non-negative integer", v);
    s->snap_bits = (int32_t)n;
    return 0;
  }
  if (!strcmp(key, "origin")) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", v);
    char *comma = strchr(buf, ',');
    if (!comma) return cli_usage_error("setting origin: '%s' is not X,Z", v);
    *comma = 0;
    if (cli_parse_double(buf, &s->origin[0]) || cli_parse_double(comma + 1, &s->origin[1]))
      return cli_usage_error("setting origin: '%s' is not X,Z", v);
    return 0;
  }
  return cli_usage_error("--set: unknown setting '%s'", key);
}

static uint32_t default_size(const char *level) {
  if (!strcmp(level, "terrain")) return 16;
  if (!strcmp(level, "city")) return 2;
  if (!strcmp(level, "stairs")) return 8;
  return 12; /* dungeon */
}

int cli_input_init(cli_input3d *in, int argc) {
  memset(in, 0, sizeof *in);
  in->size = -1;
  in->seed = 1;
  in->sets = calloc((size_t)argc + 1, sizeof *in->sets);
  return in->sets ? 0 : cli_fail("out of memory");
}

void cli_input_free(cli_input3d *in) {
  for (int i = 0; i < in->nsets; i++) free(in->sets[i]);
  free(in->sets);
  op_trimesh_free(&in->m);
  memset(in, 0, sizeof *in);
}

/* Keeps one --partition (P) or --set (S) value, in command-line order, for the settings
** builder; sets has room for argc entries. 0, or the exit code of the failure. */
static int keep_setting(cli_input3d *in, const char *opt, const char *val) {
  size_t l = strlen(val) + 2;
  char *k = malloc(l);
  if (!k) return cli_fail("out of memory");
  snprintf(k, l, "%c%s", opt[2] == 'p' ? 'P' : 'S', val);
  in->sets[in->nsets++] = k;
  return 0;
}

/* Handles one option shared by build, svg and tilecache; 1 consumed, 0 not ours, -1 error. */
int cli_input_option(cli_args *a, cli_input3d *in, int *status) {
  const char *o = a->argv[a->i], *v;
  if (!strcmp(o, "--obj") || !strcmp(o, "--level") || !strcmp(o, "--seed") ||
      !strcmp(o, "--size") || !strcmp(o, "--preset") || !strcmp(o, "--set") ||
      !strcmp(o, "--partition")) {
    if (!(v = cli_opt_value(a))) { *status = CLI_EXIT_USAGE; return -1; }
  } else {
    return 0;
  }
  if (!strcmp(o, "--obj")) in->obj = v;
  else if (!strcmp(o, "--level")) {
    if (strcmp(v, "terrain") && strcmp(v, "city") && strcmp(v, "stairs") && strcmp(v, "dungeon")) {
      *status = cli_usage_error("--level '%s': expected terrain, city, stairs or dungeon", v);
      return -1;
    }
    in->level = v;
  } else if (!strcmp(o, "--seed")) {
    if (cli_parse_hex64(v, &in->seed)) {
      *status = cli_usage_error("--seed '%s': expected 1 to 16 hex digits", v);
      return -1;
    }
  } else if (!strcmp(o, "--size")) {
    if (cli_parse_i64(v, 0, UINT32_MAX, &in->size)) {
      *status = cli_usage_error("--size '%s': expected a non-negative integer", v);
      return -1;
    }
  } else if (!strcmp(o, "--preset")) {
    /* the preset is applied first, whatever the order of the options: see finish */
    if (cli_check_preset(v)) {
      *status = cli_usage_error("--preset '%s': expected Humanoid, Small or Large", v);
      return -1;
    }
    in->preset = v;
  } else if (!strcmp(o, "--set") || !strcmp(o, "--partition")) {
    /* collected in order, applied after the preset */
    if ((*status = keep_setting(in, o, v))) return -1;
  }
  return 1;
}

/* Applies preset then --set/--partition in order, validates, loads the geometry. */
int cli_input_finish(cli_input3d *in) {
  char **sets = in->sets;
  int nsets = in->nsets;
  op_error e;
  if (!in->preset) in->preset = "Humanoid";
  if (op_settings_preset(in->preset, &in->s, &e)) return cli_fail_op("preset", &e);
  for (int i = 0; i < nsets; i++) {
    if (sets[i][0] == 'P') { /* --partition */
      if (cli_parse_partition(sets[i] + 1, &in->s.partition))
        return cli_usage_error("--partition '%s': expected watershed, monotone or layers",
                           sets[i] + 1);
    } else {
      int rc = set_3d(&in->s, sets[i] + 1);
      if (rc) return rc;
    }
  }
  if (op_settings_validate(&in->s, &e)) return cli_invalid_setting(&e);
  if (!!in->obj == !!in->level) return cli_usage_error("give exactly one of --obj FILE and --level NAME");
  if (in->obj) {
    uint8_t *d;
    size_t n;
    if (cli_read_file(in->obj, &d, &n)) return CLI_EXIT_FAIL;
    int bad = op_obj_parse((const char *)d, n, &in->m, &e);
    free(d);
    if (bad) return cli_fail_op(in->obj, &e);
    snprintf(in->label, sizeof in->label, "%s", in->obj);
  } else {
    uint32_t size = in->size < 0 ? default_size(in->level) : (uint32_t)in->size;
    if (op_level_generate(in->level, in->seed, size, &in->s, &in->m, &e))
      return cli_fail_op("level generation", &e);
    snprintf(in->label, sizeof in->label, "level %s seed %016" PRIx64 " size %" PRIu32, in->level,
             in->seed, size);
  }
  return 0;
}
