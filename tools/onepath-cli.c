/*
** onepath-cli.c -- `onepath`, the command-line tool of the OnePath reference kit
** (docs/cli.md). Subcommands:
**   build    a 3D mesh from an OBJ file or a level generator (Mesh3DPipeline), with
**            obstacles and volumes in the settings when given
**   tilecache a cached build, obstacles and volumes added and removed at run time,
**            Update / UpdateAll (build3d-runtime.md), the mesh and a picture of it
**   build2d  a 2D mesh from an outline text file (NavMesh.Build2D, build2d-tiles.md)
**   svg      a top-down SVG picture of a mesh/tile/snapshot file or of one stage of
**            one 3D tile (spans, regions, contours, polygons)
**   hash     XXH3-64 (op_hash64) of a file, and of its parts for a mesh
**   info     a summary of a mesh, tile or snapshot file (tile cache snapshots too)
** The tool uses the library's public headers and, for the stage pictures, the internal
** stage headers of ref/ (regions.h, contours.h): tools are part of the kit.
** Exit status: 0 success, 1 the operation failed (I/O, build error), 2 bad arguments.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "onepath.h"
#include "onepath_build2d.h"
#include "onepath_build3d.h"
#include "build3d/contours/contours.h"
#include "build3d/regions/regions.h"
#include "svg.h"
#ifdef OP_HAVE_PIPELINE
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
#endif
#ifdef OP_HAVE_POLYS
#include "build3d/polys/polys.h"
#endif

#define EXIT_FAIL 1
#define EXIT_USAGE 2

static const char *g_cmd = "onepath";

static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", g_cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n(try `onepath --help`)\n");
  va_end(ap);
  return EXIT_USAGE;
}

static int fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: ", g_cmd);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return EXIT_FAIL;
}

static int fail_op(const char *what, const op_error *e) {
  return fail("%s failed: %s error, field '%s' (value %s): %s", what, op_status_name(e->kind),
              e->field, e->value[0] ? e->value : "-", e->message);
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ files */

static int read_file(const char *path, uint8_t **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return fail("cannot open '%s': %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap + 1);
  for (;;) {
    if (!buf) { fclose(f); return fail("out of memory reading '%s'", path); }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    cap *= 2;
    uint8_t *nb = realloc(buf, cap + 1);
    if (!nb) free(buf);
    buf = nb;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) { free(buf); return fail("cannot read '%s'", path); }
  buf[n] = 0; /* text readers may treat it as a string */
  *data = buf;
  *len = n;
  return 0;
}

static int write_file(const char *path, const uint8_t *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return fail("cannot create '%s': %s", path, strerror(errno));
  size_t put = fwrite(data, 1, len, f);
  if (fclose(f) != 0 || put != len) return fail("cannot write '%s'", path);
  return 0;
}

/* --------------------------------------------------------- argument parsing */

typedef struct args {
  int argc;
  char **argv;
  int i;
} args;

/* The value of option argv[i] (the next word); NULL after reporting an error. */
static const char *opt_value(args *a) {
  if (a->i + 1 >= a->argc) {
    usage_error("option '%s' needs a value", a->argv[a->i]);
    return NULL;
  }
  return a->argv[++a->i];
}

static int parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno == ERANGE) return -1;
  *out = v;
  return 0;
}

static int parse_i64(const char *s, long long lo, long long hi, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (end == s || *end || errno || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

static int parse_hex64(const char *s, uint64_t *out) {
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

static int parse_partition(const char *s, op_partition *p) {
  if (!strcmp(s, "watershed")) *p = OP_PARTITION_WATERSHED;
  else if (!strcmp(s, "monotone")) *p = OP_PARTITION_MONOTONE;
  else if (!strcmp(s, "layers")) *p = OP_PARTITION_LAYERS;
  else return -1;
  return 0;
}
static const char *partition_name(op_partition p) {
  return p == OP_PARTITION_MONOTONE ? "monotone" : p == OP_PARTITION_LAYERS ? "layers"
                                                                            : "watershed";
}

/* --set key=value for the 3D settings (SPAN-001 names). */
static int set_3d(op_settings *s, const char *kv) {
  const char *eq = strchr(kv, '=');
  if (!eq || eq == kv) return usage_error("--set '%s': expected key=value", kv);
  char key[64];
  size_t kl = (size_t)(eq - kv);
  if (kl >= sizeof key) return usage_error("--set '%s': unknown setting", kv);
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
      if (parse_double(v, &d)) return usage_error("setting %s: '%s' is not a number", key, v);
      memcpy((char *)s + dbl[i].off, &d, sizeof d);
      return 0;
    }
  for (size_t i = 0; i < sizeof u32 / sizeof *u32; i++)
    if (!strcmp(key, u32[i].name)) {
      long long n;
      if (parse_i64(v, 0, UINT32_MAX, &n))
        return usage_error("setting %s: '%s' is not an integer in [0, 2^32 - 1]", key, v);
      uint32_t u = (uint32_t)n;
      memcpy((char *)s + u32[i].off, &u, sizeof u);
      return 0;
    }
  if (!strcmp(key, "partition")) {
    if (parse_partition(v, &s->partition))
      return usage_error("setting partition: '%s' is not watershed, monotone or layers", v);
    return 0;
  }
  return usage_error("--set: unknown setting '%s'", key);
}

/* --set key=value for the 2D settings (T2D-010 names). */
static int set_2d(op_settings2d *s, const char *kv) {
  const char *eq = strchr(kv, '=');
  if (!eq || eq == kv) return usage_error("--set '%s': expected key=value", kv);
  char key[64];
  size_t kl = (size_t)(eq - kv);
  if (kl >= sizeof key) return usage_error("--set '%s': unknown setting", kv);
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
    if (parse_double(v, dbl)) return usage_error("setting %s: '%s' is not a number", key, v);
    return 0;
  }
  long long n;
  if (!strcmp(key, "tile_cells") || !strcmp(key, "max_verts_per_poly")) {
    if (parse_i64(v, 0, UINT32_MAX, &n))
      return usage_error("setting %s: '%s' is not an integer in [0, 2^32 - 1]", key, v);
    if (key[0] == 't') s->tile_cells = (uint32_t)n;
    else s->max_verts_per_poly = (uint32_t)n;
    return 0;
  }
  if (!strcmp(key, "area")) {
    if (parse_i64(v, 0, 255, &n)) return usage_error("setting area: '%s' is not in [0, 255]", v);
    s->area = (uint8_t)n;
    return 0;
  }
  if (!strcmp(key, "flags")) {
    if (parse_i64(v, 0, 65535, &n))
      return usage_error("setting flags: '%s' is not in [0, 65535]", v);
    s->flags = (uint16_t)n;
    return 0;
  }
  if (!strcmp(key, "snap_bits")) {
    if (!strcmp(v, "null")) { s->snap_bits = OP_SNAP_BITS_NULL; return 0; }
    if (parse_i64(v, 0, INT32_MAX, &n))
      return usage_error("setting snap_bits: '%s' is not null or a non-negative integer", v);
    s->snap_bits = (int32_t)n;
    return 0;
  }
  if (!strcmp(key, "origin")) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", v);
    char *comma = strchr(buf, ',');
    if (!comma) return usage_error("setting origin: '%s' is not X,Z", v);
    *comma = 0;
    if (parse_double(buf, &s->origin[0]) || parse_double(comma + 1, &s->origin[1]))
      return usage_error("setting origin: '%s' is not X,Z", v);
    return 0;
  }
  return usage_error("--set: unknown setting '%s'", key);
}

/* ---------------------------------------------------------- progress bar */

typedef struct progress {
  int on;       /* stderr is a terminal */
  double start;
  int last_pct;
} progress;

static void progress_init(progress *p) {
  p->on = isatty(2);
  p->start = now_seconds();
  p->last_pct = -1;
}
static void progress_update(progress *p, uint64_t done, uint64_t total, const char *what) {
  if (!p->on || total == 0) return;
  /* only long builds get a bar: nothing is drawn in the first quarter second */
  if (p->last_pct < 0 && now_seconds() - p->start < 0.25) return;
  int pct = (int)(done * 100 / total);
  if (pct == p->last_pct && done != total) return;
  p->last_pct = pct;
  char bar[41];
  int fill = (int)(done * 40 / total);
  for (int i = 0; i < 40; i++) bar[i] = i < fill ? '#' : '.';
  bar[40] = 0;
  fprintf(stderr, "\r[%s] %3d%% %" PRIu64 "/%" PRIu64 " %s %.1fs", bar, pct, done, total, what,
          now_seconds() - p->start);
  fflush(stderr);
}
static void progress_done(progress *p) {
  if (p->on && p->last_pct >= 0) fputc('\n', stderr);
}

/* ------------------------------------------------------- mesh files */

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static double rdf64(const uint8_t *p) {
  uint64_t u = 0;
  for (int i = 7; i >= 0; i--) u = u << 8 | p[i];
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* A mesh, tile or snapshot file read into tiles (owned). */
typedef struct loaded {
  const char *kind;    /* "mesh", "tile", "snapshot" */
  int has_params;
  op_mesh_params params;
  uint32_t ntiles;
  op_tile **tiles;
  uint32_t nlinks;     /* links in the mesh serialization (mesh, snapshot) */
  uint32_t nedits;
  /* byte ranges of the parts (MESH-044) for `hash --parts` */
  size_t *part_off, *part_len;
  size_t *link_off;    /* per tile: offset of its link records in mesh_bytes (MESH-043) */
  uint32_t *link_n;    /* per tile: number of link records */
  uint8_t *mesh_bytes; /* the OPMS bytes parsed (for snapshots: re-serialized), owned */
  size_t mesh_len;
  int tcac;                /* a tile cache snapshot: its TCAC section (SNAP-016) */
  uint64_t tc_fingerprint;
  uint32_t tc_nobstacles;
} loaded;

static void loaded_free(loaded *l) {
  for (uint32_t i = 0; i < l->ntiles; i++) op_tile_free(l->tiles[i]);
  free(l->tiles);
  free(l->part_off);
  free(l->part_len);
  free(l->link_off);
  free(l->link_n);
  free(l->mesh_bytes);
  memset(l, 0, sizeof *l);
}

static void read_params(const uint8_t *p, op_mesh_params *mp) {
  for (int i = 0; i < 3; i++) mp->tiling.origin[i] = rdf64(p + 8 * i);
  mp->tiling.cell_size = rdf64(p + 24);
  mp->tiling.cell_height = rdf64(p + 32);
  mp->tiling.tile_cells = rd32(p + 40);
  mp->tiling.max_verts_per_poly = rd32(p + 44);
  mp->walkable_climb = rdf64(p + 48);
  mp->max_tiles = rd32(p + 56);
}

/* Parses the serialization of MESH-040 .. MESH-043 (data is copied into l). */
static int parse_mesh_bytes(const uint8_t *d, size_t n, const char *path, loaded *l) {
  if (n < 72) return fail("'%s': mesh file shorter than its 72-byte header", path);
  if (rd32(d + 4) != 1) return fail("'%s': mesh version %" PRIu32 " is not 1", path, rd32(d + 4));
  l->has_params = 1;
  read_params(d + 8, &l->params);
  uint32_t nt = rd32(d + 68);
  if (nt > (n - 72) / 32) return fail("'%s': ntiles %" PRIu32 " does not fit the file", path, nt);
  l->tiles = calloc(nt ? nt : 1, sizeof *l->tiles);
  l->part_off = calloc((size_t)nt + 1, sizeof(size_t));
  l->part_len = calloc((size_t)nt + 1, sizeof(size_t));
  l->link_off = calloc(nt ? nt : 1, sizeof(size_t));
  l->link_n = calloc(nt ? nt : 1, sizeof(uint32_t));
  l->mesh_bytes = malloc(n);
  if (!l->tiles || !l->part_off || !l->part_len || !l->mesh_bytes || !l->link_off || !l->link_n)
    return fail("out of memory");
  memcpy(l->mesh_bytes, d, n);
  l->mesh_len = n;
  l->part_off[0] = 0;
  l->part_len[0] = 72;
  size_t at = 72;
  for (uint32_t t = 0; t < nt; t++) {
    size_t start = at;
    if (n - at < 24) return fail("'%s': tile record %" PRIu32 " is cut short", path, t);
    uint32_t tl = rd32(d + at + 20);
    at += 24;
    if (n - at < tl) return fail("'%s': tile record %" PRIu32 " is cut short", path, t);
    op_error e;
    if (op_tile_load(d + at, tl, &l->tiles[t], &e)) {
      char what[64];
      snprintf(what, sizeof what, "reading tile record %" PRIu32, t);
      return fail_op(what, &e);
    }
    l->ntiles++;
    at += tl;
    if (n - at < 4) return fail("'%s': tile record %" PRIu32 " is cut short", path, t);
    uint32_t ne = rd32(d + at);
    at += 4;
    if ((n - at) / 8 < ne) return fail("'%s': edits of tile %" PRIu32 " cut short", path, t);
    at += (size_t)ne * 8;
    l->nedits += ne;
    if (n - at < 4) return fail("'%s': tile record %" PRIu32 " is cut short", path, t);
    uint32_t nl = rd32(d + at);
    at += 4;
    if ((n - at) / 24 < nl) return fail("'%s': links of tile %" PRIu32 " cut short", path, t);
    l->link_off[t] = at;
    l->link_n[t] = nl;
    at += (size_t)nl * 24;
    l->nlinks += nl;
    l->part_off[t + 1] = start;
    l->part_len[t + 1] = at - start;
  }
  if (at != n) return fail("'%s': %zu bytes after the last tile record", path, n - at);
  return 0;
}

static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* A tile cache snapshot (SNAP-016: sections SLOT and TCAC) is read as the mesh snapshot of
** its SLOT section: the TCAC section is cut out of d (in place, *n shrinks) and its
** fingerprint and live obstacle count kept in l. Returns 1 when it cut one. */
static int snapshot_mesh_only(uint8_t *d, size_t *n, loaded *l) {
  if (*n < 72 || rd32(d + 68) < 2) return 0;
  size_t at = 72;
  for (uint32_t k = 0, ns = rd32(d + 68); k < ns; k++) {
    if (*n - at < 16) return 0;
    uint64_t len = rd64(d + at + 8);
    if (len > *n - at - 16) return 0;
    if (!memcmp(d + at, "TCAC", 4)) {
      if (len >= 20) {
        l->tcac = 1;
        l->tc_fingerprint = rd64(d + at + 16);
        l->tc_nobstacles = rd32(d + at + 16 + 16);
      }
      size_t cut = 16 + (size_t)len;
      memmove(d + at, d + at + cut, *n - at - cut);
      *n -= cut;
      uint32_t ns1 = ns - 1;
      for (int b = 0; b < 4; b++) d[68 + b] = (uint8_t)(ns1 >> (8 * b));
      return 1;
    }
    at += 16 + (size_t)len;
  }
  return 0;
}

static int load_any(const char *path, loaded *l) {
  memset(l, 0, sizeof *l);
  uint8_t *d;
  size_t n;
  if (read_file(path, &d, &n)) return EXIT_FAIL;
  int rc = 0;
  if (n >= 4 && !memcmp(d, "OPMS", 4)) {
    l->kind = "mesh";
    rc = parse_mesh_bytes(d, n, path, l);
  } else if (n >= 4 && !memcmp(d, "OPTL", 4)) {
    l->kind = "tile";
    l->tiles = calloc(1, sizeof *l->tiles);
    op_error e;
    if (!l->tiles) rc = fail("out of memory");
    else if (op_tile_load(d, n, &l->tiles[0], &e)) rc = fail_op("reading the tile", &e);
    else {
      l->ntiles = 1;
      op_tile_desc v;
      op_tile_view(l->tiles[0], &v);
      l->params.tiling = v.tiling;
    }
  } else if (n >= 4 && !memcmp(d, "OPSN", 4)) {
    l->kind = "snapshot";
    if (snapshot_mesh_only(d, &n, l)) l->kind = "tile cache snapshot";
    op_mesh_params mp;
    op_mesh *m = NULL;
    op_error e;
    op_bytes b = {NULL, 0};
    if (n < 72) rc = fail("'%s': snapshot shorter than its header", path);
    else {
      read_params(d + 8, &mp);
      if (op_mesh_create(&mp, &m, &e)) rc = fail_op("creating the mesh of the snapshot", &e);
      else if (op_mesh_snapshot_load(m, d, n, &e)) rc = fail_op("reading the snapshot", &e);
      else if (op_mesh_save(m, &b, &e)) rc = fail_op("serializing the mesh", &e);
      else rc = parse_mesh_bytes(b.data, b.len, path, l);
    }
    op_bytes_free(&b);
    op_mesh_free(m);
  } else {
    rc = fail("'%s' is not a mesh (OPMS), tile (OPTL) or snapshot (OPSN) file", path);
  }
  free(d);
  if (rc) loaded_free(l);
  return rc ? EXIT_FAIL : 0;
}

/* World x0, z0 of a tile (FMT-005). */
static void tile_world_origin(const op_tile_desc *v, double *x0, double *z0) {
  double w = (double)v->tiling.tile_cells * v->tiling.cell_size;
  *x0 = v->tiling.origin[0] + (double)v->x * w;
  *z0 = v->tiling.origin[2] + (double)v->z * w;
}

/* Walkable area of one polygon: the absolute shoelace area of its (x, z) in world units. */
static double poly_area(const op_tile_desc *v, const op_poly_desc *p) {
  double a = 0;
  for (int j = 0; j < p->nverts; j++) {
    const float *u = v->verts + 3 * p->verts[j];
    const float *w = v->verts + 3 * p->verts[(j + 1) % p->nverts];
    a += (double)u[0] * (double)w[2] - (double)w[0] * (double)u[2];
  }
  return fabs(a) * 0.5;
}

typedef struct summary {
  uint32_t tiles, layers, polys, verts, detail_tris, offmesh;
  uint32_t positions;     /* distinct (x, z) with at least one tile */
  uint32_t max_at;        /* the most tiles (layers) at one position (RT-080 .. RT-086) */
  int32_t max_x, max_z;   /* the first such position in tile order */
  int32_t layer_lo, layer_hi; /* least and greatest layer number */
  double area;
  double bmin[3], bmax[3];
  uint64_t tiles_hash;    /* tiles_hash() of the tile list */
} summary;

/* A tile's place in the "tiles hash" order: (x, z, layer) ascending. */
typedef struct tile_key {
  int32_t x, z, layer;
  uint64_t content_id;
} tile_key;

static int tile_key_cmp(const void *pa, const void *pb) {
  const tile_key *a = pa, *b = pb;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  if (a->z != b->z) return a->z < b->z ? -1 : 1;
  if (a->layer != b->layer) return a->layer < b->layer ? -1 : 1;
  return 0;
}

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* The "tiles hash" (docs/cli.md): op_hash64 of the tiles sorted by (x, z, layer), 20
** bytes each (x, z, layer as i32 and the content id as u64, little-endian). It names the
** tile list and not the slots or generations, so two meshes with the same tiles (RT-027)
** have the same tiles hash even when their bytes differ. keys: scratch of n entries. */
static uint64_t tiles_hash(tile_key *keys, uint32_t n) {
  qsort(keys, n, sizeof *keys, tile_key_cmp);
  uint8_t *b = malloc((size_t)n * 20 + 1);
  if (!b) return 0;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t *p = b + (size_t)i * 20;
    put32(p, (uint32_t)keys[i].x);
    put32(p + 4, (uint32_t)keys[i].z);
    put32(p + 8, (uint32_t)keys[i].layer);
    put32(p + 12, (uint32_t)keys[i].content_id);
    put32(p + 16, (uint32_t)(keys[i].content_id >> 32));
  }
  uint64_t h = op_hash64(b, (size_t)n * 20);
  free(b);
  return h;
}

/* Layers, positions and the tiles hash of n tiles (keys: scratch of n entries). */
static void summarize_layers(tile_key *keys, uint32_t n, summary *s) {
  /* layer numbers are 0..255 (FMT-002, RT-082): a bitmap counts the distinct ones */
  uint8_t seen[256 / 8];
  memset(seen, 0, sizeof seen);
  s->layer_lo = n ? INT32_MAX : 0;
  s->layer_hi = n ? INT32_MIN : 0;
  for (uint32_t t = 0; t < n; t++) {
    int32_t L = keys[t].layer;
    if (L < s->layer_lo) s->layer_lo = L;
    if (L > s->layer_hi) s->layer_hi = L;
    if (L >= 0 && L < 256 && !(seen[L >> 3] & (1u << (L & 7)))) {
      seen[L >> 3] |= (uint8_t)(1u << (L & 7));
      s->layers++;
    }
  }
  /* positions and the most layers at one of them, before the sort of tiles_hash */
  tile_key *sorted = malloc((size_t)n * sizeof *sorted + 1);
  if (sorted) {
    memcpy(sorted, keys, (size_t)n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, tile_key_cmp);
    for (uint32_t i = 0, j; i < n; i = j) {
      for (j = i; j < n && sorted[j].x == sorted[i].x && sorted[j].z == sorted[i].z; j++) {}
      s->positions++;
      if (j - i > s->max_at) {
        s->max_at = j - i;
        s->max_x = sorted[i].x;
        s->max_z = sorted[i].z;
      }
    }
    free(sorted);
  }
  s->tiles_hash = tiles_hash(keys, n);
}

static void summarize(op_tile *const *tiles, uint32_t n, summary *s) {
  memset(s, 0, sizeof *s);
  s->tiles = n;
  tile_key *keys = malloc((size_t)n * sizeof *keys + 1);
  for (int i = 0; i < 3; i++) { s->bmin[i] = INFINITY; s->bmax[i] = -INFINITY; }
  for (uint32_t t = 0; t < n; t++) {
    op_tile_desc v;
    op_tile_view(tiles[t], &v);
    if (keys) {
      keys[t].x = v.x;
      keys[t].z = v.z;
      keys[t].layer = v.layer;
      keys[t].content_id = op_tile_content_id(tiles[t]);
    }
    s->polys += v.npolys;
    s->verts += v.nverts;
    s->detail_tris += v.ndetail_tris;
    s->offmesh += v.noffmesh;
    double x0, z0;
    tile_world_origin(&v, &x0, &z0);
    for (uint32_t p = 0; p < v.npolys; p++) s->area += poly_area(&v, &v.polys[p]);
    for (uint32_t i = 0; i < v.nverts; i++) {
      double w[3] = {x0 + v.verts[3 * i], v.origin_y + v.verts[3 * i + 1], z0 + v.verts[3 * i + 2]};
      for (int c = 0; c < 3; c++) {
        if (w[c] < s->bmin[c]) s->bmin[c] = w[c];
        if (w[c] > s->bmax[c]) s->bmax[c] = w[c];
      }
    }
  }
  if (keys) summarize_layers(keys, n, s);
  free(keys);
}

static void print_summary(FILE *f, const summary *s) {
  fprintf(f, "tiles: %" PRIu32 "  layers: %" PRIu32 "  polygons: %" PRIu32
             "  vertices: %" PRIu32 "  detail triangles: %" PRIu32 "  off-mesh links: %" PRIu32
             "\n", s->tiles, s->layers, s->polys, s->verts, s->detail_tris, s->offmesh);
  if (s->tiles)
    fprintf(f, "tile positions: %" PRIu32 "  layer numbers %" PRId32 "..%" PRId32
               "  most layers at one position: %" PRIu32 " (tile %" PRId32 ",%" PRId32 ")\n",
            s->positions, s->layer_lo, s->layer_hi, s->max_at, s->max_x, s->max_z);
  fprintf(f, "tiles hash: %016" PRIx64 "\n", s->tiles_hash);
  fprintf(f, "walkable area: %.6g square world units\n", s->area);
  if (s->verts)
    fprintf(f, "bounds: (%.6g, %.6g, %.6g) .. (%.6g, %.6g, %.6g)\n", s->bmin[0], s->bmin[1],
            s->bmin[2], s->bmax[0], s->bmax[1], s->bmax[2]);
}

/* Extra outputs of build and build2d. */
typedef struct outputs {
  const char *mesh;     /* --out: op_mesh_save bytes */
  const char *snapshot; /* --snapshot: op_mesh_snapshot_save bytes */
  const char *tiles;    /* --tiles DIR: one NavTile.Serialize file per tile */
} outputs;

/* Writes the mesh (and snapshot, tiles) and prints the hash and summary. */
static int report_mesh(const op_mesh *m, const outputs *o, double seconds) {
  const char *out = o->mesh;
  op_bytes b = {NULL, 0};
  op_error e;
  if (op_mesh_save(m, &b, &e)) return fail_op("serializing the mesh", &e);
  int rc = 0;
  if (out && write_file(out, b.data, b.len)) rc = EXIT_FAIL;
  loaded l;
  memset(&l, 0, sizeof l);
  if (!rc && parse_mesh_bytes(b.data, b.len, "(built mesh)", &l)) rc = EXIT_FAIL;
  if (!rc && o->snapshot) {
    op_bytes sb = {NULL, 0};
    if (op_mesh_snapshot_save(m, &sb, &e)) rc = fail_op("snapshot", &e);
    else if (write_file(o->snapshot, sb.data, sb.len)) rc = EXIT_FAIL;
    else printf("snapshot: %zu bytes, hash %016" PRIx64 ", written to %s\n", sb.len,
                op_hash64(sb.data, sb.len), o->snapshot);
    op_bytes_free(&sb);
  }
  for (uint32_t t = 0; !rc && o->tiles && t < l.ntiles; t++) {
    op_tile_desc v;
    op_tile_view(l.tiles[t], &v);
    op_bytes tb = {NULL, 0};
    char path[4096];
    snprintf(path, sizeof path, "%s/tile_%" PRId32 "_%" PRId32 "_%" PRId32 ".optl", o->tiles,
             v.x, v.z, v.layer);
    if (op_tile_save(l.tiles[t], &tb, &e)) rc = fail_op("tile", &e);
    else if (write_file(path, tb.data, tb.len)) rc = EXIT_FAIL;
    op_bytes_free(&tb);
    if (!rc && t + 1 == l.ntiles)
      printf("tiles: %" PRIu32 " tile files written to %s\n", l.ntiles, o->tiles);
  }
  if (!rc) {
    summary s;
    summarize(l.tiles, l.ntiles, &s);
    printf("hash: %016" PRIx64 "\n", op_hash64(b.data, b.len));
    printf("bytes: %zu%s%s\n", b.len, out ? "  written to " : "", out ? out : "");
    print_summary(stdout, &s);
    printf("build time: %.3f s\n", seconds);
  }
  loaded_free(&l);
  op_bytes_free(&b);
  return rc;
}

/* ------------------------------------------------------------- inputs */

typedef struct input3d {
  const char *obj, *level;
  uint64_t seed;
  long long size; /* -1: the generator's default */
  op_settings s;
  const char *preset;
  op_trimesh m;
  char label[160];
} input3d;

static uint32_t default_size(const char *level) {
  if (!strcmp(level, "terrain")) return 16;
  if (!strcmp(level, "city")) return 2;
  if (!strcmp(level, "stairs")) return 8;
  return 12; /* dungeon */
}

/* Keeps one --preset (P) or --set (S) value, in command-line order, for the settings
** builder; sets has room for argc entries. 0, or the exit code of the failure. */
static int keep_setting(char **sets, int *nsets, const char *opt, const char *val) {
  size_t l = strlen(val) + 2;
  sets[*nsets] = malloc(l);
  if (!sets[*nsets]) return fail("out of memory");
  snprintf(sets[(*nsets)++], l, "%c%s", opt[2] == 'p' ? 'P' : 'S', val);
  return 0;
}

/* Handles one option shared by build and svg; 1 consumed, 0 not ours, -1 error. */
static int input_option(args *a, input3d *in, int *status) {
  const char *o = a->argv[a->i], *v;
  if (!strcmp(o, "--obj") || !strcmp(o, "--level") || !strcmp(o, "--seed") ||
      !strcmp(o, "--size") || !strcmp(o, "--preset") || !strcmp(o, "--set") ||
      !strcmp(o, "--partition")) {
    if (!(v = opt_value(a))) { *status = EXIT_USAGE; return -1; }
  } else {
    return 0;
  }
  if (!strcmp(o, "--obj")) in->obj = v;
  else if (!strcmp(o, "--level")) {
    if (strcmp(v, "terrain") && strcmp(v, "city") && strcmp(v, "stairs") && strcmp(v, "dungeon")) {
      *status = usage_error("--level '%s': expected terrain, city, stairs or dungeon", v);
      return -1;
    }
    in->level = v;
  } else if (!strcmp(o, "--seed")) {
    if (parse_hex64(v, &in->seed)) {
      *status = usage_error("--seed '%s': expected 1 to 16 hex digits", v);
      return -1;
    }
  } else if (!strcmp(o, "--size")) {
    if (parse_i64(v, 0, UINT32_MAX, &in->size)) {
      *status = usage_error("--size '%s': expected a non-negative integer", v);
      return -1;
    }
  } else if (!strcmp(o, "--preset")) {
    /* the preset is applied first, whatever the order of the options: see finish */
    if (strcmp(v, "Humanoid") && strcmp(v, "Small") && strcmp(v, "Large")) {
      *status = usage_error("--preset '%s': expected Humanoid, Small or Large", v);
      return -1;
    }
    in->preset = v;
  } else if (!strcmp(o, "--set") || !strcmp(o, "--partition")) {
    /* collected later, after the preset */
    return 2;
  }
  return 1;
}

/* Applies preset then --set/--partition in order, validates, loads the geometry. */
static int input_finish(input3d *in, char **sets, int nsets) {
  op_error e;
  if (!in->preset) in->preset = "Humanoid";
  if (op_settings_preset(in->preset, &in->s, &e)) return fail_op("preset", &e);
  for (int i = 0; i < nsets; i++) {
    if (sets[i][0] == 'P') { /* --partition */
      if (parse_partition(sets[i] + 1, &in->s.partition))
        return usage_error("--partition '%s': expected watershed, monotone or layers",
                           sets[i] + 1);
    } else {
      int rc = set_3d(&in->s, sets[i] + 1);
      if (rc) return rc;
    }
  }
  if (op_settings_validate(&in->s, &e)) {
    fprintf(stderr, "%s: invalid setting '%s' (value %s): %s\n", g_cmd, e.field,
            e.value[0] ? e.value : "-", e.message);
    return EXIT_USAGE;
  }
  if (!!in->obj == !!in->level) return usage_error("give exactly one of --obj FILE and --level NAME");
  if (in->obj) {
    uint8_t *d;
    size_t n;
    if (read_file(in->obj, &d, &n)) return EXIT_FAIL;
    int bad = op_obj_parse((const char *)d, n, &in->m, &e);
    free(d);
    if (bad) return fail_op(in->obj, &e);
    snprintf(in->label, sizeof in->label, "%s", in->obj);
  } else {
    uint32_t size = in->size < 0 ? default_size(in->level) : (uint32_t)in->size;
    if (op_level_generate(in->level, in->seed, size, &in->s, &in->m, &e))
      return fail_op("level generation", &e);
    snprintf(in->label, sizeof in->label, "level %s seed %016" PRIx64 " size %" PRIu32, in->level,
             in->seed, size);
  }
  return 0;
}

#ifdef OP_HAVE_PIPELINE
static void on_progress(void *ud, uint64_t done, uint64_t total) {
  progress_update((progress *)ud, done, total, "tiles");
}

/* Mesh3DPipeline.BuildSoup or BuildChunk (POLY-220) with a progress bar per tile. */
static int build3d_run(input3d *in, const char *mode, double chunk_size, const outputs *out) {
  op_soup soup = op_trimesh_soup(&in->m);
  op_pipeline_result res;
  memset(&res, 0, sizeof res);
  op_error e;
  progress pg;
  progress_init(&pg);
  op_pipeline_hooks hooks = {&pg, on_progress, NULL};
  double t0 = now_seconds();
  op_status st;
  if (!strcmp(mode, "chunk")) {
    op_chunked *ch = NULL;
    if (chunk_size <= 0) chunk_size = (double)in->s.tile_cells * in->s.cell_size;
    st = op_chunked_create(&soup, chunk_size, &ch, &e);
    if (st == OP_OK) st = op_pipeline_build_chunk(&in->s, ch, &hooks, &res, &e);
    op_chunked_free(ch);
  } else {
    st = op_pipeline_build_soup(&in->s, &soup, &hooks, &res, &e);
  }
  double t1 = now_seconds();
  progress_done(&pg);
  if (st != OP_OK) return fail_op(!strcmp(mode, "chunk") ? "BuildChunk" : "BuildSoup", &e);
  printf("input: %s (%" PRIu32 " vertices, %" PRIu32 " triangles), preset %s, partition %s, "
         "mode %s\n", in->label, in->m.nverts, in->m.ntris, in->preset,
         partition_name(in->s.partition), mode);
  if (in->s.nobstacles || in->s.nvolumes)
    printf("settings: %" PRIu32 " obstacles, %" PRIu32 " volumes\n", in->s.nobstacles,
           in->s.nvolumes);
  printf("tile grid: %" PRId32 " x %" PRId32 ", %" PRIu32 " with spans, %" PRIu32
         " with polygons\n", res.ntx, res.ntz, res.nbuilt, res.ntiles);
  int rc = report_mesh(res.mesh, out, t1 - t0);
  op_pipeline_result_free(&res);
  return rc;
}
#endif

/* ------------------------------------------- obstacles and volumes */

/* Obstacles and volumes given on the command line (--cylinder, --box, --obox, --volume),
** each with the text it came from, for messages. */
typedef struct shapes {
  op_obstacle *obst;
  char **obst_text;
  uint32_t nobst, capo;
  op_convex_volume *vol;
  char **vol_text;
  uint32_t nvol, capv;
} shapes;

static void shapes_free(shapes *sh) {
  for (uint32_t i = 0; i < sh->nobst; i++) free(sh->obst_text[i]);
  for (uint32_t i = 0; i < sh->nvol; i++) free(sh->vol_text[i]);
  free(sh->obst);
  free(sh->obst_text);
  free(sh->vol);
  free(sh->vol_text);
  memset(sh, 0, sizeof *sh);
}

/* Comma-separated numbers: between lo and hi of them into out; the count, or -1. */
static int parse_numbers(const char *v, int lo, int hi, double *out) {
  char buf[1024];
  if (strlen(v) >= sizeof buf) return -1;
  snprintf(buf, sizeof buf, "%s", v);
  int n = 0;
  char *p = buf;
  for (;;) {
    char *comma = strchr(p, ',');
    if (comma) *comma = 0;
    if (n == hi || parse_double(p, &out[n])) return -1;
    n++;
    if (!comma) break;
    p = comma + 1;
  }
  return n < lo ? -1 : n;
}

static char *dup_text(const char *opt, const char *v) {
  size_t l = strlen(opt) + strlen(v) + 2;
  char *t = malloc(l);
  if (t) snprintf(t, l, "%s %s", opt, v);
  return t;
}

/* Parses the value of --cylinder, --box, --obox or --volume (opt names which) into sh.
** Returns 0 or a usage error. */
static int shape_parse(const char *opt, const char *v, shapes *sh) {
  double x[3 + 2 * OP_VOLUME_MAX_POINTS];
  if (!strcmp(opt, "--volume")) {
    int n = parse_numbers(v, 9, 3 + 2 * OP_VOLUME_MAX_POINTS, x);
    if (n < 0 || (n - 3) % 2)
      return usage_error("--volume '%s': expected AREA,YMIN,YMAX,X1,Z1,X2,Z2,X3,Z3[,...] "
                         "(3 to %d points)", v, OP_VOLUME_MAX_POINTS);
    if (!(x[0] >= 0 && x[0] <= 255 && x[0] == (double)(int)x[0]))
      return usage_error("--volume '%s': area '%g' is not an integer in [0, 255]", v, x[0]);
    if (sh->nvol == sh->capv) {
      uint32_t nc = sh->capv ? 2 * sh->capv : 8;
      op_convex_volume *nv = realloc(sh->vol, nc * sizeof *nv);
      if (nv) sh->vol = nv;
      char **nt = realloc(sh->vol_text, nc * sizeof *nt);
      if (nt) sh->vol_text = nt;
      if (!nv || !nt) return fail("out of memory");
      sh->capv = nc;
    }
    op_convex_volume *cv = &sh->vol[sh->nvol];
    memset(cv, 0, sizeof *cv);
    cv->area = (uint8_t)x[0];
    cv->ymin = x[1];
    cv->ymax = x[2];
    cv->npoints = (uint32_t)(n - 3) / 2;
    for (uint32_t k = 0; k < cv->npoints; k++) {
      cv->points[k][0] = x[3 + 2 * k];
      cv->points[k][1] = x[4 + 2 * k];
    }
    if (!(sh->vol_text[sh->nvol] = dup_text(opt, v))) return fail("out of memory");
    sh->nvol++;
    return 0;
  }
  op_obstacle o;
  memset(&o, 0, sizeof o);
  if (!strcmp(opt, "--cylinder")) {
    if (parse_numbers(v, 5, 5, x) < 0)
      return usage_error("--cylinder '%s': expected X,Y,Z,R,H (base centre, radius, height)", v);
    o.shape = OP_OBSTACLE_CYLINDER;
    memcpy(o.center, x, sizeof o.center);
    o.radius = x[3];
    o.height = x[4];
  } else if (!strcmp(opt, "--box")) {
    if (parse_numbers(v, 6, 6, x) < 0)
      return usage_error("--box '%s': expected MINX,MINY,MINZ,MAXX,MAXY,MAXZ", v);
    o.shape = OP_OBSTACLE_BOX;
    memcpy(o.bmin, x, sizeof o.bmin);
    memcpy(o.bmax, x + 3, sizeof o.bmax);
  } else {
    if (parse_numbers(v, 7, 7, x) < 0)
      return usage_error("--obox '%s': expected CX,CY,CZ,HX,HY,HZ,YAW (centre, half sizes, "
                         "yaw in radians)", v);
    o.shape = OP_OBSTACLE_ORIENTED_BOX;
    memcpy(o.center, x, sizeof o.center);
    memcpy(o.half, x + 3, sizeof o.half);
    o.yaw = x[6];
  }
  if (sh->nobst == sh->capo) {
    uint32_t nc = sh->capo ? 2 * sh->capo : 8;
    op_obstacle *no = realloc(sh->obst, nc * sizeof *no);
    if (no) sh->obst = no;
    char **nt = realloc(sh->obst_text, nc * sizeof *nt);
    if (nt) sh->obst_text = nt;
    if (!no || !nt) return fail("out of memory");
    sh->capo = nc;
  }
  sh->obst[sh->nobst] = o;
  if (!(sh->obst_text[sh->nobst] = dup_text(opt, v))) return fail("out of memory");
  sh->nobst++;
  return 0;
}

static int is_shape_option(const char *o) {
  return !strcmp(o, "--cylinder") || !strcmp(o, "--box") || !strcmp(o, "--obox") ||
         !strcmp(o, "--volume");
}

/* Checks every obstacle and volume of sh by SPAN-031 / SPAN-033 (op_settings_validate on
** a copy of s holding only them); a failure is a usage error naming the option. */
static int shapes_validate(const op_settings *s, const shapes *sh) {
  op_settings t = *s;
  t.nvolumes = sh->nvol;
  t.volumes = sh->vol;
  t.nobstacles = sh->nobst;
  t.obstacles = sh->obst;
  op_error e;
  if (op_settings_validate(&t, &e) == OP_OK) return 0;
  unsigned long idx;
  if (sscanf(e.field, "obstacles[%lu]", &idx) == 1 && idx < sh->nobst)
    return usage_error("'%s': invalid %s (value %s): %s", sh->obst_text[idx], e.field,
                       e.value[0] ? e.value : "-", e.message);
  if (sscanf(e.field, "volumes[%lu]", &idx) == 1 && idx < sh->nvol)
    return usage_error("'%s': invalid %s (value %s): %s", sh->vol_text[idx], e.field,
                       e.value[0] ? e.value : "-", e.message);
  return usage_error("invalid setting '%s' (value %s): %s", e.field, e.value[0] ? e.value : "-",
                     e.message);
}

static void print_obstacle(const op_obstacle *o) {
  if (o->shape == OP_OBSTACLE_CYLINDER)
    printf("cylinder centre (%g, %g, %g) radius %g height %g", o->center[0], o->center[1],
           o->center[2], o->radius, o->height);
  else if (o->shape == OP_OBSTACLE_BOX)
    printf("box (%g, %g, %g) .. (%g, %g, %g)", o->bmin[0], o->bmin[1], o->bmin[2], o->bmax[0],
           o->bmax[1], o->bmax[2]);
  else
    printf("oriented box centre (%g, %g, %g) half (%g, %g, %g) yaw %g", o->center[0],
           o->center[1], o->center[2], o->half[0], o->half[1], o->half[2], o->yaw);
}


/* ------------------------------------------------------------ commands */

static int cmd_build(int argc, char **argv) {
  g_cmd = "onepath build";
  input3d in;
  memset(&in, 0, sizeof in);
  in.size = -1;
  in.seed = 1;
  const char *mode = "soup";
  outputs outs = {NULL, NULL, NULL};
  double chunk_size = 0;
  shapes sh;
  memset(&sh, 0, sizeof sh);
  char **sets = calloc((size_t)argc + 1, sizeof *sets);
  int nsets = 0, rc = 0;
  args a = {argc, argv, 0};
  for (a.i = 0; a.i < argc && !rc; a.i++) {
    int st = 0;
    int r = input_option(&a, &in, &st);
    if (r < 0) { rc = st; break; }
    if (r == 2) { /* a --preset or --set value, kept in order */
      if ((rc = keep_setting(sets, &nsets, argv[a.i - 1], argv[a.i]))) break;
      continue;
    }
    if (r == 1) continue;
    if (is_shape_option(argv[a.i])) {
      const char *v = opt_value(&a);
      rc = v ? shape_parse(argv[a.i - 1], v, &sh) : EXIT_USAGE;
    } else if (!strcmp(argv[a.i], "--out") || !strcmp(argv[a.i], "-o")) {
      if (!(outs.mesh = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(argv[a.i], "--snapshot")) {
      if (!(outs.snapshot = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(argv[a.i], "--tiles")) {
      if (!(outs.tiles = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(argv[a.i], "--mode")) {
      if (!(mode = opt_value(&a))) rc = EXIT_USAGE;
      else if (strcmp(mode, "soup") && strcmp(mode, "chunk"))
        rc = usage_error("--mode '%s': expected soup or chunk", mode);
    } else if (!strcmp(argv[a.i], "--chunk-size")) {
      const char *v = opt_value(&a);
      if (!v) rc = EXIT_USAGE;
      else if (parse_double(v, &chunk_size) || !(chunk_size > 0))
        rc = usage_error("--chunk-size '%s': expected a positive number", v);
    } else {
      rc = usage_error("unknown argument '%s'", argv[a.i]);
    }
  }
  if (!rc) rc = input_finish(&in, sets, nsets);
  /* Regions.Spans.Volumes and Obstacles (SPAN-003, SPAN-004), after the preset's none */
  if (!rc) rc = shapes_validate(&in.s, &sh);
  in.s.nvolumes = sh.nvol;
  in.s.volumes = sh.vol;
  in.s.nobstacles = sh.nobst;
  in.s.obstacles = sh.obst;
#ifdef OP_HAVE_PIPELINE
  if (!rc) rc = build3d_run(&in, mode, chunk_size, &outs);
#else
  if (!rc)
    rc = fail("not available in this build: the 3D pipeline (include/onepath_pipeline.h, "
              "Mesh3DPipeline.BuildSoup) is not part of this library yet; "
              "`onepath build2d` and `onepath svg --stage spans|regions|contours` work");
  (void)outs;
  (void)mode;
  (void)chunk_size;
#endif
  for (int i = 0; i < nsets; i++) free(sets[i]);
  free(sets);
  shapes_free(&sh);
  op_trimesh_free(&in.m);
  return rc;
}

/* The outline text format (docs/cli.md): `outline` or `obstacle` starts a ring; each
** following line `X Z` is a point; `#` starts a comment; blank lines are ignored. */
typedef struct rings {
  op_outline2d *o;
  size_t n, cap;
  double *xy;
  size_t nxy, capxy;
  int *is_obstacle;
} rings;

static int parse_outlines(const char *path, const char *text, rings *r) {
  int line = 0, cur = -1;
  const char *p = text;
  size_t *starts = NULL;
  while (*p) {
    line++;
    const char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char buf[256];
    if (len >= sizeof buf) { free(starts); return fail("%s: line %d: too long", path, line); }
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
        if (!no || !ni || !ns) { free(starts); return fail("out of memory"); }
        r->cap = nc;
      }
      r->is_obstacle[r->n] = w1[1] == 'b';
      starts[r->n] = r->nxy / 2;
      r->o[r->n].count = 0;
      cur = (int)r->n++;
      continue;
    }
    double x, z;
    if (k != 2 || parse_double(w1, &x) || parse_double(w2, &z)) {
      free(starts);
      return fail("%s: line %d: expected `outline`, `obstacle` or two numbers `X Z`", path, line);
    }
    if (cur < 0) {
      free(starts);
      return fail("%s: line %d: a point before the first `outline` or `obstacle`", path, line);
    }
    if (r->nxy + 2 > r->capxy) {
      size_t nc = r->capxy ? 2 * r->capxy : 64;
      double *nx = realloc(r->xy, nc * sizeof *nx);
      if (!nx) { free(starts); return fail("out of memory"); }
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

static int cmd_build2d(int argc, char **argv) {
  g_cmd = "onepath build2d";
  const char *file = NULL, *preset = "Humanoid";
  outputs outs = {NULL, NULL, NULL};
  char **sets = calloc((size_t)argc + 1, sizeof *sets);
  int nsets = 0, rc = 0;
  args a = {argc, argv, 0};
  for (a.i = 0; a.i < argc && !rc; a.i++) {
    const char *o = argv[a.i];
    if (!strcmp(o, "--outlines")) {
      if (!(file = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(o, "--out")) {
      if (!(outs.mesh = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(o, "--snapshot")) {
      if (!(outs.snapshot = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(o, "--tiles")) {
      if (!(outs.tiles = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(o, "--preset")) {
      if (!(preset = opt_value(&a))) rc = EXIT_USAGE;
      else if (strcmp(preset, "Humanoid") && strcmp(preset, "Small") && strcmp(preset, "Large"))
        rc = usage_error("--preset '%s': expected Humanoid, Small or Large", preset);
    } else if (!strcmp(o, "--set")) {
      const char *v = opt_value(&a);
      if (!v) rc = EXIT_USAGE;
      else sets[nsets++] = (char *)v;
    } else {
      rc = usage_error("unknown argument '%s'", o);
    }
  }
  op_settings2d s;
  op_error e;
  if (!rc && !file) rc = usage_error("--outlines FILE is required");
  if (!rc && op_settings2d_preset(preset, &s, &e)) rc = fail_op("preset", &e);
  for (int i = 0; !rc && i < nsets; i++) rc = set_2d(&s, sets[i]);
  if (!rc && op_settings2d_validate(&s, &e)) {
    fprintf(stderr, "%s: invalid setting '%s' (value %s): %s\n", g_cmd, e.field,
            e.value[0] ? e.value : "-", e.message);
    rc = EXIT_USAGE;
  }
  free(sets);
  uint8_t *text = NULL;
  size_t n;
  rings r;
  memset(&r, 0, sizeof r);
  if (!rc && read_file(file, &text, &n)) rc = EXIT_FAIL;
  if (!rc) rc = parse_outlines(file, (const char *)text, &r);
  op_outline2d *walk = NULL, *obst = NULL;
  size_t nw = 0, no = 0;
  if (!rc) {
    walk = malloc((r.n + 1) * sizeof *walk);
    obst = malloc((r.n + 1) * sizeof *obst);
    if (!walk || !obst) rc = fail("out of memory");
    for (size_t i = 0; !rc && i < r.n; i++) {
      if (r.is_obstacle[i]) obst[no++] = r.o[i];
      else walk[nw++] = r.o[i];
    }
  }
  op_mesh *m = NULL;
  if (!rc) {
    double t0 = now_seconds();
    progress pg;
    progress_init(&pg);
    progress_update(&pg, 0, 1, "building (2D builder: one step)");
    if (op_build2d_outlines(&s, walk, nw, obst, no, &m, &e)) rc = fail_op("build2d", &e);
    progress_update(&pg, 1, 1, "built");
    progress_done(&pg);
    double t1 = now_seconds();
    if (!rc) {
      printf("input: %s (%zu outlines, %zu obstacles), preset %s\n", file, nw, no, preset);
      rc = report_mesh(m, &outs, t1 - t0);
    }
  }
  op_mesh_free(m);
  free(walk);
  free(obst);
  free(r.o);
  free(r.xy);
  free(r.is_obstacle);
  free(text);
  return rc;
}

static int cmd_hash(int argc, char **argv) {
  g_cmd = "onepath hash";
  const char *file = NULL;
  int parts = 0;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--parts")) parts = 1;
    else if (argv[i][0] == '-' && argv[i][1]) return usage_error("unknown argument '%s'", argv[i]);
    else if (file) return usage_error("unexpected argument '%s' (one FILE only)", argv[i]);
    else file = argv[i];
  }
  if (!file) return usage_error("a FILE is required");
  uint8_t *d;
  size_t n;
  if (read_file(file, &d, &n)) return EXIT_FAIL;
  printf("%016" PRIx64 "  %s\n", op_hash64(d, n), file);
  free(d);
  if (parts) {
    loaded l;
    if (load_any(file, &l)) return EXIT_FAIL;
    if (!l.mesh_bytes) {
      loaded_free(&l);
      return 0;
    }
    if (strcmp(l.kind, "mesh"))
      printf("(parts of the mesh serialization of this %s, %016" PRIx64 ")\n", l.kind,
             op_hash64(l.mesh_bytes, l.mesh_len));
    for (uint32_t t = 0; t <= l.ntiles; t++) {
      const uint8_t *p = l.mesh_bytes + l.part_off[t];
      if (t == 0) printf("  part %zu %016" PRIx64 " header\n", l.part_len[t], op_hash64(p, l.part_len[t]));
      else
        printf("  part %zu %016" PRIx64 " tile %" PRId32 ",%" PRId32 ",%" PRId32 "\n",
               l.part_len[t], op_hash64(p, l.part_len[t]), (int32_t)rd32(p + 8),
               (int32_t)rd32(p + 12), (int32_t)rd32(p + 16));
    }
    loaded_free(&l);
  }
  return 0;
}

static int cmd_info(int argc, char **argv) {
  g_cmd = "onepath info";
  const char *file = NULL;
  int tiles = 0;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--tiles")) tiles = 1;
    else if (argv[i][0] == '-' && argv[i][1]) return usage_error("unknown argument '%s'", argv[i]);
    else if (file) return usage_error("unexpected argument '%s' (one FILE only)", argv[i]);
    else file = argv[i];
  }
  if (!file) return usage_error("a FILE is required");
  uint8_t *d;
  size_t n;
  if (read_file(file, &d, &n)) return EXIT_FAIL;
  uint64_t h = op_hash64(d, n);
  free(d);
  loaded l;
  if (load_any(file, &l)) return EXIT_FAIL;
  printf("%s: %s file, %zu bytes, hash %016" PRIx64 "\n", file, l.kind, n, h);
  const op_tiling *tg = &l.params.tiling;
  printf("tiling: origin (%.17g, %.17g, %.17g) cell_size %.17g cell_height %.17g tile_cells %" PRIu32
         " max_verts_per_poly %" PRIu32 "\n", tg->origin[0], tg->origin[1], tg->origin[2],
         tg->cell_size, tg->cell_height, tg->tile_cells, tg->max_verts_per_poly);
  if (l.tcac)
    printf("tile cache: fingerprint %016" PRIx64 ", %" PRIu32 " live obstacles (TCAC section, "
           "SNAP-016; the rest is the mesh)\n", l.tc_fingerprint, l.tc_nobstacles);
  if (l.has_params)
    printf("mesh: walkable_climb %.17g max_tiles %" PRIu32 "  links %" PRIu32 "  edited polygons %"
           PRIu32 "\n", l.params.walkable_climb, l.params.max_tiles, l.nlinks, l.nedits);
  summary s;
  summarize(l.tiles, l.ntiles, &s);
  print_summary(stdout, &s);
  for (uint32_t t = 0; tiles && t < l.ntiles; t++) {
    op_tile_desc v;
    op_tile_view(l.tiles[t], &v);
    summary ts;
    summarize(&l.tiles[t], 1, &ts);
    printf("  tile %" PRId32 ",%" PRId32 ",%" PRId32 ": polygons %" PRIu32 " vertices %" PRIu32
           " area %.6g content id %016" PRIx64 "\n", v.x, v.z, v.layer, v.npolys, v.nverts,
           ts.area, op_tile_content_id(l.tiles[t]));
  }
  loaded_free(&l);
  return 0;
}

/* --------------------------------------------------------------- svg */

/* Obstacles and volumes drawn over a mesh picture (onepath tilecache --svg). */
typedef struct overlay {
  const op_obstacle *obst;
  const uint32_t *obst_id;
  uint32_t nobst;
  const op_convex_volume *vol;
  const uint32_t *vol_id;
  uint32_t nvol;
  double grow; /* RT-020: g = WalkableRadius * cell_size */
} overlay;

/* The footprint of obstacle o grown by g (RT-021) as a closed path of at most 48 points;
** returns the point count. Circles are drawn as 48-gons (a picture, not the test). */
static int obstacle_outline(const op_obstacle *o, double g, double *xz) {
  if (o->shape == OP_OBSTACLE_CYLINDER) {
    double r = o->radius + g;
    for (int i = 0; i < 48; i++) {
      double t = (double)i * (6.283185307179586 / 48.0);
      xz[2 * i] = o->center[0] + r * cos(t);
      xz[2 * i + 1] = o->center[2] + r * sin(t);
    }
    return 48;
  }
  if (o->shape == OP_OBSTACLE_BOX) {
    double x0 = o->bmin[0] - g, z0 = o->bmin[2] - g, x1 = o->bmax[0] + g, z1 = o->bmax[2] + g;
    double q[8] = {x0, z0, x1, z0, x1, z1, x0, z1};
    memcpy(xz, q, sizeof q);
    return 4;
  }
  /* oriented box: u along (c, s), v along (-s, c) (RT-021's yaw, +x towards +z) */
  double c = cos(o->yaw), sn = sin(o->yaw), hx = o->half[0] + g, hz = o->half[2] + g;
  static const int su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
  for (int i = 0; i < 4; i++) {
    double u = su[i] * hx, v = sv[i] * hz;
    xz[2 * i] = o->center[0] + u * c - v * sn;
    xz[2 * i + 1] = o->center[2] + u * sn + v * c;
  }
  return 4;
}

static void draw_overlay(svg_scene *sc, int p, const overlay *ov) {
  double xz[96];
  char lab[32];
  for (uint32_t i = 0; i < ov->nvol; i++) {
    const op_convex_volume *v = &ov->vol[i];
    double pts[2 * OP_VOLUME_MAX_POINTS], cx = 0, cz = 0;
    for (uint32_t k = 0; k < v->npoints; k++) {
      pts[2 * k] = v->points[k][0];
      pts[2 * k + 1] = v->points[k][1];
      cx += pts[2 * k] / v->npoints;
      cz += pts[2 * k + 1] / v->npoints;
    }
    char c[8];
    svg_palette(v->area, c);
    svg_path(sc, p, pts, (int)v->npoints, 1, c, 0.35, "#1f3b99", 2.0, 1);
    snprintf(lab, sizeof lab, "V%" PRIu32 " area %u", ov->vol_id[i], (unsigned)v->area);
    svg_label(sc, p, cx, cz, 11, "#1f3b99", lab);
  }
  for (uint32_t i = 0; i < ov->nobst; i++) {
    const op_obstacle *o = &ov->obst[i];
    int n = obstacle_outline(o, ov->grow, xz);
    svg_path(sc, p, xz, n, 1, "none", 1, "#8b0000", 1.4, 1);
    n = obstacle_outline(o, 0, xz);
    svg_path(sc, p, xz, n, 1, "#8b0000", 0.45, "#8b0000", 1.8, 0);
    double cx = o->shape == OP_OBSTACLE_BOX ? 0.5 * (o->bmin[0] + o->bmax[0]) : o->center[0];
    double cz = o->shape == OP_OBSTACLE_BOX ? 0.5 * (o->bmin[2] + o->bmax[2]) : o->center[2];
    snprintf(lab, sizeof lab, "#%" PRIu32, ov->obst_id[i]);
    svg_label(sc, p, cx, cz, 12, "#ffffff", lab);
  }
}

/* Which layers a mesh picture shows: every layer number in [lo, hi] that has a tile,
** ascending, at most SVG_MAX_PANELS of them. */
typedef struct layer_pick {
  int32_t lo, hi;        /* the --layers range (default 0..255) */
  int32_t shown[SVG_MAX_PANELS];
  uint32_t nshown;
  uint32_t left_out;     /* layers in range with tiles but past the panel limit */
  int32_t left_lo, left_hi;
  uint32_t left_tiles;   /* tiles of the layers left out or outside the range */
  uint32_t out_of_range; /* layers with tiles outside [lo, hi] */
} layer_pick;

static void pick_layers(const loaded *l, layer_pick *pk) {
  uint32_t count[256];
  memset(count, 0, sizeof count);
  for (uint32_t t = 0; t < l->ntiles; t++) {
    op_tile_desc v;
    op_tile_view(l->tiles[t], &v);
    if (v.layer >= 0 && v.layer < 256) count[v.layer]++;
  }
  pk->nshown = pk->left_out = pk->left_tiles = pk->out_of_range = 0;
  pk->left_lo = pk->left_hi = -1;
  for (int32_t L = 0; L < 256; L++) {
    if (!count[L]) continue;
    if (L < pk->lo || L > pk->hi) {
      pk->out_of_range++;
      pk->left_tiles += count[L];
    } else if (pk->nshown < SVG_MAX_PANELS) {
      pk->shown[pk->nshown++] = L;
    } else {
      if (!pk->left_out) pk->left_lo = L;
      pk->left_hi = L;
      pk->left_out++;
      pk->left_tiles += count[L];
    }
  }
}

/* A mesh: one panel per layer (at most SVG_MAX_PANELS, the rest named in a note);
** polygons coloured per area, per polygon or per tile; walls dark, portal edges red,
** internal edges thin; obstacles and volumes of ov (may be NULL) on top. */
static int svg_mesh_draw(const loaded *l, const char *title, const char *color_mode,
                         layer_pick *pk, const overlay *ov, FILE *f) {
  double bx0 = INFINITY, bz0 = INFINITY, bx1 = -INFINITY, bz1 = -INFINITY;
  for (uint32_t t = 0; t < l->ntiles; t++) {
    op_tile_desc v;
    op_tile_view(l->tiles[t], &v);
    double x0, z0, w = (double)v.tiling.tile_cells * v.tiling.cell_size;
    tile_world_origin(&v, &x0, &z0);
    if (x0 < bx0) bx0 = x0;
    if (z0 < bz0) bz0 = z0;
    if (x0 + w > bx1) bx1 = x0 + w;
    if (z0 + w > bz1) bz1 = z0 + w;
  }
  pick_layers(l, pk);
  if (l->ntiles == 0) { bx0 = bz0 = 0; bx1 = bz1 = 1; }
  int npanel = pk->nshown ? (int)pk->nshown : 1;
  summary sm;
  summarize(l->tiles, l->ntiles, &sm);
  char sub[200], note[200] = "";
  snprintf(sub, sizeof sub, "cell_size %g, tile_cells %" PRIu32 ", %" PRIu32 " tiles, %" PRIu32
           " layers, %" PRIu32 " polygons, walkable area %.6g", l->params.tiling.cell_size,
           l->params.tiling.tile_cells, sm.tiles, sm.layers, sm.polys, sm.area);
  if (pk->left_out)
    snprintf(note, sizeof note, "%" PRIu32 " layers not shown (%" PRId32 "..%" PRId32 "): at most %d "
             "panels; %" PRIu32 " tiles left out; see them with --layers %" PRId32 "-%" PRId32,
             pk->left_out, pk->left_lo, pk->left_hi, SVG_MAX_PANELS, pk->left_tiles,
             pk->left_lo, pk->left_hi);
  else if (pk->out_of_range)
    snprintf(note, sizeof note, "only layers %" PRId32 "..%" PRId32 " (--layers): %" PRIu32
             " other layers with %" PRIu32 " tiles not shown", pk->lo, pk->hi, pk->out_of_range,
             pk->left_tiles);
  else if (pk->nshown == 0 && l->ntiles)
    snprintf(note, sizeof note, "no tile has a layer in 0..255");
  svg_scene sc;
  svg_scene_init(&sc, f, title, sub);
  svg_scene_note(&sc, note);
  /* up to 4 panels in one row, more in rows of ceil(sqrt(n)) */
  int per_row = npanel;
  if (npanel > 4) for (per_row = 1; per_row * per_row < npanel; per_row++) {}
  sc.per_row = per_row;
  for (int k = 0; k < npanel; k++) {
    char cap[96];
    if (!pk->nshown) {
      snprintf(cap, sizeof cap, "no tiles");
    } else {
      uint32_t nt = 0, np = 0;
      for (uint32_t t = 0; t < l->ntiles; t++) {
        op_tile_desc v;
        op_tile_view(l->tiles[t], &v);
        if (v.layer == pk->shown[k]) { nt++; np += v.npolys; }
      }
      snprintf(cap, sizeof cap, "layer %" PRId32 ": %" PRIu32 " tile%s, %" PRIu32 " polygon%s",
               pk->shown[k], nt, nt == 1 ? "" : "s", np, np == 1 ? "" : "s");
    }
    svg_panel_add(&sc, bx0, bz0, bx1, bz1, cap);
  }
  /* legend: the areas (or a note for the other modes), then the line styles */
  if (!strcmp(color_mode, "area")) {
    int seen[256] = {0};
    for (uint32_t t = 0; t < l->ntiles; t++) {
      op_tile_desc v;
      op_tile_view(l->tiles[t], &v);
      for (uint32_t p = 0; p < v.npolys; p++) seen[v.polys[p].area] = 1;
    }
    for (int a = 0; a < 256; a++)
      if (seen[a]) {
        char c[8], lab[32];
        svg_palette((uint32_t)a, c);
        snprintf(lab, sizeof lab, "area %d", a);
        svg_legend_add(&sc, c, 0, lab);
      }
  } else {
    char c[8];
    svg_palette(1, c);
    svg_legend_add(&sc, c, 0, !strcmp(color_mode, "poly") ? "one colour per polygon"
                                                          : "one colour per tile");
  }
  svg_legend_add(&sc, "#222222", 1, "wall edge");
  if (l->link_n) {
    svg_legend_add(&sc, "#d62728", 1, "portal edge, linked");
    svg_legend_add(&sc, "#ff8c00", 2, "portal edge, no link");
  } else {
    svg_legend_add(&sc, "#d62728", 1, "portal edge (tile side)");
  }
  svg_legend_add(&sc, "#bbbbbb", 1, "internal edge (thin, white)");
  svg_legend_add(&sc, "#555555", 2, "tile lines");
  if (sm.offmesh) svg_legend_add(&sc, "#9400d3", 1, "off-mesh link");
  if (ov && ov->nobst) {
    svg_legend_add(&sc, "#8b0000", 0, "obstacle #id (as given)");
    svg_legend_add(&sc, "#8b0000", 2, "obstacle grown by the radius");
  }
  if (ov && ov->nvol) svg_legend_add(&sc, "#1f3b99", 2, "volume Vid (fill: its area)");
  /* the other layers' polygons, faint, under each panel's own (small meshes only) */
  int context = pk->nshown > 1 && (uint64_t)pk->nshown * sm.polys <= 100000;
  if (context) svg_legend_add(&sc, "#e2e2e2", 0, "other layers (context)");
  svg_scene_begin(&sc, npanel == 1 ? 1000 : npanel <= 4 ? 700 : 360);
  double px = sc.scale;
  for (uint32_t t = 0; context && t < l->ntiles; t++) {
    op_tile_desc v;
    op_tile_view(l->tiles[t], &v);
    double x0, z0;
    tile_world_origin(&v, &x0, &z0);
    for (int p = 0; p < (int)pk->nshown; p++) {
      if (pk->shown[p] == v.layer) continue;
      for (uint32_t q = 0; q < v.npolys; q++) {
        const op_poly_desc *pd = &v.polys[q];
        double xz[2 * OP_MAX_VERTS_PER_POLY];
        for (int j = 0; j < pd->nverts; j++) {
          xz[2 * j] = x0 + v.verts[3 * pd->verts[j]];
          xz[2 * j + 1] = z0 + v.verts[3 * pd->verts[j] + 2];
        }
        svg_path(&sc, p, xz, pd->nverts, 1, "#e2e2e2", 1, "none", 0, 0);
      }
    }
  }
  for (uint32_t t = 0; t < l->ntiles; t++) {
    op_tile_desc v;
    op_tile_view(l->tiles[t], &v);
    int p;
    for (p = 0; p < (int)pk->nshown && pk->shown[p] != v.layer; p++) {}
    if (p == (int)pk->nshown) continue;
    double x0, z0, w = (double)v.tiling.tile_cells * v.tiling.cell_size;
    tile_world_origin(&v, &x0, &z0);
    for (uint32_t q = 0; q < v.npolys; q++) {
      const op_poly_desc *pd = &v.polys[q];
      double xz[2 * OP_MAX_VERTS_PER_POLY];
      for (int j = 0; j < pd->nverts; j++) {
        xz[2 * j] = x0 + v.verts[3 * pd->verts[j]];
        xz[2 * j + 1] = z0 + v.verts[3 * pd->verts[j] + 2];
      }
      char c[8];
      uint32_t id = !strcmp(color_mode, "area") ? pd->area
                    : !strcmp(color_mode, "poly") ? q * 7919u + t * 104729u
                                                  : t;
      svg_palette(id, c);
      svg_path(&sc, p, xz, pd->nverts, 1, c, 1, "#ffffff", px > 40 ? 1.0 : 0.5, 0);
    }
    /* MESH-043: which portal edges have an external link in the mesh */
    uint8_t *linked = NULL;
    if (l->link_n && v.npolys) {
      linked = calloc((size_t)v.npolys * OP_MAX_VERTS_PER_POLY, 1);
      if (!linked) return fail("out of memory");
      for (uint32_t k = 0; k < l->link_n[t]; k++) {
        const uint8_t *r = l->mesh_bytes + l->link_off[t] + 24 * (size_t)k;
        uint32_t poly = rd32(r);
        if (r[5] != 0xFF && poly < v.npolys && r[4] < OP_MAX_VERTS_PER_POLY)
          linked[(size_t)poly * OP_MAX_VERTS_PER_POLY + r[4]] = 1;
      }
    }
    for (uint32_t q = 0; q < v.npolys; q++) { /* walls and portals on top */
      const op_poly_desc *pd = &v.polys[q];
      for (int j = 0; j < pd->nverts; j++) {
        uint16_t nc = pd->neis[j];
        if (nc != OP_NEI_WALL && !(nc & OP_NEI_PORTAL)) continue;
        const float *a = v.verts + 3 * pd->verts[j];
        const float *b = v.verts + 3 * pd->verts[(j + 1) % pd->nverts];
        int open = nc != OP_NEI_WALL && linked && !linked[(size_t)q * OP_MAX_VERTS_PER_POLY + j];
        svg_line(&sc, p, x0 + a[0], z0 + a[2], x0 + b[0], z0 + b[2],
                 nc == OP_NEI_WALL ? "#222222" : open ? "#ff8c00" : "#d62728", open ? 2.6 : 1.6,
                 open);
      }
    }
    free(linked);
    svg_line(&sc, p, x0, z0, x0 + w, z0, "#555555", 0.8, 1);
    svg_line(&sc, p, x0 + w, z0, x0 + w, z0 + w, "#555555", 0.8, 1);
    svg_line(&sc, p, x0 + w, z0 + w, x0, z0 + w, "#555555", 0.8, 1);
    svg_line(&sc, p, x0, z0 + w, x0, z0, "#555555", 0.8, 1);
    for (uint32_t k = 0; k < v.noffmesh; k++) {
      const op_offmesh_desc *om = &v.offmesh[k];
      svg_line(&sc, p, x0 + om->start[0], z0 + om->start[2], x0 + om->end[0], z0 + om->end[2],
               "#9400d3", 1.5, 0);
      svg_dot(&sc, p, x0 + om->start[0], z0 + om->start[2], 2.5, "#9400d3");
    }
  }
  for (int p = 0; ov && p < npanel; p++) draw_overlay(&sc, p, ov);
  svg_scene_end(&sc);
  return 0;
}

/* A mesh, tile or snapshot file (svg --mesh). */
static int svg_mesh(const char *file, const char *color_mode, layer_pick *pk, FILE *f) {
  loaded l;
  if (load_any(file, &l)) return EXIT_FAIL;
  char title[160];
  snprintf(title, sizeof title, "%s %s - stage: mesh (colour per %s)", l.kind, file, color_mode);
  int rc = svg_mesh_draw(&l, title, color_mode, pk, NULL, f);
  loaded_free(&l);
  return rc;
}

/* One stage of one 3D tile. */
typedef struct stage_data {
  op_cell_settings cell;
  op_chf *chf;
  op_regions reg;
  int have_reg;
  op_contour_set cs;
  int have_cs;
#ifdef OP_HAVE_POLYS
  op_pmesh pm;
  int have_pm;
#endif
} stage_data;

static void stage_free(stage_data *d) {
  op_chf_free(d->chf);
  if (d->have_reg) op_regions_free(&d->reg);
  if (d->have_cs) op_contour_set_free(&d->cs);
#ifdef OP_HAVE_POLYS
  if (d->have_pm) op_pmesh_free(&d->pm);
#endif
}

/* World x/z of grid corner coordinates of the bordered grid. */
static double gx(const op_chf *c, double x) { return c->grid.origin[0] + x * c->grid.cs; }
static double gz(const op_chf *c, double z) { return c->grid.origin[2] + z * c->grid.cs; }

static void region_color(uint16_t r, char c[8]) {
  if (r == OP_REG_NONE) snprintf(c, 8, "#dddddd");
  else if (r & OP_REG_BORDER) snprintf(c, 8, "#666666");
  else svg_palette(r, c);
}

/* Draws the spans of level k (the k-th open span of each column, from below) as runs of
** equal colour along x. mode 0: spans (height shade), 1: regions, 2: walkable or not. */
static void draw_span_level(svg_scene *sc, int p, const stage_data *d, int k, int mode,
                            int ymin, int ymax) {
  const op_chf *c = d->chf;
  for (int32_t z = 0; z < c->grid.depth; z++) {
    int32_t run_x = -1;
    char run_c[8] = "", cur[8];
    for (int32_t x = 0; x <= c->grid.width; x++) {
      cur[0] = 0;
      if (x < c->grid.width) {
        size_t col = (size_t)z * (size_t)c->grid.width + (size_t)x;
        if (c->cell_count[col] > k) {
          uint32_t i = c->cell_index[col] + (uint32_t)k;
          if (mode == 2) {
            snprintf(cur, sizeof cur, "%s", c->areas[i] ? "#d8d8d8" : "#b0b0b0");
          } else if (mode == 0) {
            double t = ymax > ymin ? (double)(c->spans[i].y - ymin) / (ymax - ymin) : 0.5;
            svg_shade(t, c->areas[i] != 0, cur);
          } else {
            region_color(d->reg.reg[i], cur);
          }
        }
      }
      if (run_x >= 0 && strcmp(cur, run_c)) {
        svg_rect(sc, p, gx(c, run_x), gz(c, z), gx(c, x), gz(c, z + 1), run_c, "none", 0);
        run_x = -1;
      }
      if (cur[0] && run_x < 0) {
        run_x = x;
        memcpy(run_c, cur, sizeof run_c);
      }
    }
  }
}

static void draw_grid_frame(svg_scene *sc, int p, const op_chf *c, int32_t border) {
  double w = c->grid.width, h = c->grid.depth;
  double b = border;
  double xz[8] = {gx(c, b), gz(c, b), gx(c, w - b), gz(c, b), gx(c, w - b), gz(c, h - b),
                  gx(c, b), gz(c, h - b)};
  svg_path(sc, p, xz, 4, 1, "none", 1, "#1f3b99", 1.4, 1);
}

/* --layers A-B or A: layer numbers 0..255, A <= B. */
static int parse_layers(const char *v, layer_pick *pk) {
  char buf[64];
  snprintf(buf, sizeof buf, "%s", v);
  char *dash = strchr(buf, '-');
  long long lo, hi;
  if (dash) *dash = 0;
  if (parse_i64(buf, 0, 255, &lo)) return -1;
  if (!dash) hi = lo;
  else if (parse_i64(dash + 1, 0, 255, &hi) || hi < lo) return -1;
  pk->lo = (int32_t)lo;
  pk->hi = (int32_t)hi;
  return 0;
}

static int cmd_svg(int argc, char **argv) {
  g_cmd = "onepath svg";
  input3d in;
  memset(&in, 0, sizeof in);
  in.size = -1;
  in.seed = 1;
  const char *mesh = NULL, *out = NULL, *stage = NULL, *color = "area";
  long long tx = 0, tz = 0;
  layer_pick lpick;
  memset(&lpick, 0, sizeof lpick);
  lpick.hi = 255;
  int have_layers = 0;
  char **sets = calloc((size_t)argc + 1, sizeof *sets);
  int nsets = 0, rc = 0;
  args a = {argc, argv, 0};
  for (a.i = 0; a.i < argc && !rc; a.i++) {
    int st = 0;
    int r = input_option(&a, &in, &st);
    if (r < 0) { rc = st; break; }
    if (r == 2) { /* a --preset or --set value, kept in order */
      if ((rc = keep_setting(sets, &nsets, argv[a.i - 1], argv[a.i]))) break;
      continue;
    }
    if (r == 1) continue;
    const char *o = argv[a.i], *v;
    if (!strcmp(o, "--mesh")) {
      if (!(mesh = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(o, "--out")) {
      if (!(out = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(o, "--stage")) {
      if (!(stage = opt_value(&a))) rc = EXIT_USAGE;
      else if (strcmp(stage, "spans") && strcmp(stage, "regions") && strcmp(stage, "contours") &&
               strcmp(stage, "polys"))
        rc = usage_error("--stage '%s': expected spans, regions, contours or polys", stage);
    } else if (!strcmp(o, "--color")) {
      if (!(color = opt_value(&a))) rc = EXIT_USAGE;
      else if (strcmp(color, "area") && strcmp(color, "poly") && strcmp(color, "tile"))
        rc = usage_error("--color '%s': expected area, poly or tile", color);
    } else if (!strcmp(o, "--layers")) {
      if (!(v = opt_value(&a))) rc = EXIT_USAGE;
      else if (parse_layers(v, &lpick))
        rc = usage_error("--layers '%s': expected A-B or A, layer numbers 0..255, A <= B", v);
      else have_layers = 1;
    } else if (!strcmp(o, "--tile")) {
      if (!(v = opt_value(&a))) rc = EXIT_USAGE;
      else {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", v);
        char *comma = strchr(buf, ',');
        if (comma) *comma = 0;
        if (!comma || parse_i64(buf, INT32_MIN, INT32_MAX, &tx) ||
            parse_i64(comma + 1, INT32_MIN, INT32_MAX, &tz))
          rc = usage_error("--tile '%s': expected TX,TZ (two integers)", v);
      }
    } else {
      rc = usage_error("unknown argument '%s'", o);
    }
  }
  if (!rc && mesh && (stage || in.obj || in.level || nsets))
    rc = usage_error("--mesh draws a file: it takes no --stage, --obj, --level or --set");
  if (!rc && !mesh && !stage) rc = usage_error("give --mesh FILE, or --stage with --obj/--level");
  if (!rc && !mesh && have_layers) rc = usage_error("--layers picks the panels of --mesh FILE");
  if (!rc && !mesh) rc = input_finish(&in, sets, nsets);
  for (int i = 0; i < nsets; i++) free(sets[i]);
  free(sets);
  FILE *f = NULL;
  if (!rc) {
    f = out ? fopen(out, "w") : stdout;
    if (!f) rc = fail("cannot create '%s': %s", out, strerror(errno));
  }
  if (!rc && mesh) rc = svg_mesh(mesh, color, &lpick, f);
  else if (!rc) {
    stage_data d;
    memset(&d, 0, sizeof d);
    op_error e;
    op_soup soup = op_trimesh_soup(&in.m);
    double org[3], ymax;
    if (op_settings_derive(&in.s, &d.cell, &e)) rc = fail_op("settings", &e);
    else if (op_soup_frame(&soup, org, &ymax, &e)) rc = fail_op("frame", &e);
    else if (op_spans_build_tile(&in.s, &soup, org, org[1], ymax, (int32_t)tx, (int32_t)tz, &d.chf,
                                 &e))
      rc = fail_op("spans", &e);
    else if (!d.chf) {
      int32_t ntx = 0, ntz = 0;
      op_spans_tile_range(&in.s, &soup, &ntx, &ntz, &e);
      rc = fail("tile %lld,%lld is not built (no walkable triangle meets it); the level has "
                "tiles 0..%d x 0..%d", tx, tz, (int)ntx - 1, (int)ntz - 1);
    }
    if (!rc && strcmp(stage, "spans")) {
      if (op_regions_build(d.chf, in.s.partition, d.cell.border, in.s.min_region_area,
                           in.s.merge_region_area, &d.reg, &e))
        rc = fail_op("regions", &e);
      else d.have_reg = 1;
    }
    if (!rc && (!strcmp(stage, "contours") || !strcmp(stage, "polys"))) {
      op_contour_params cp = {d.cell.border, in.s.max_simplification_error, d.cell.max_edge_len};
      if (op_contours_build(d.chf, d.reg.reg, &cp, &d.cs, &e)) rc = fail_op("contours", &e);
      else d.have_cs = 1;
    }
#ifdef OP_HAVE_POLYS
    if (!rc && !strcmp(stage, "polys")) {
      if (op_pmesh_build(&d.cs, &d.chf->grid, d.cell.border, in.s.max_verts_per_poly, &d.pm, &e))
        rc = fail_op("polygons", &e);
      else d.have_pm = 1;
    }
#else
    if (!rc && !strcmp(stage, "polys"))
      rc = fail("stage polys: not available in this build (ref/build3d/polys/polys.h, the polygon stage, "
                "is not part of this library yet)");
#endif
    if (!rc) {
      const op_chf *c = d.chf;
      int levels = 0, ymin = INT32_MAX, ymx = 0;
      for (size_t col = 0; col < (size_t)c->grid.width * (size_t)c->grid.depth; col++)
        if (c->cell_count[col] > levels) levels = c->cell_count[col];
      for (uint32_t i = 0; i < c->nspans; i++) {
        if (c->spans[i].y < ymin) ymin = c->spans[i].y;
        if (c->spans[i].y > ymx) ymx = c->spans[i].y;
      }
      int shown = levels > 6 ? 6 : levels;
      int flat = !strcmp(stage, "contours") || !strcmp(stage, "polys");
      /* Contours and polygons: one panel per span level, a region drawn in the panel of its
      ** lowest span (rlev), so regions stacked over each other appear side by side. */
      uint8_t *rlev = NULL;
      if (flat) {
        rlev = malloc(65536);
        if (!rlev) {
          stage_free(&d);
          op_trimesh_free(&in.m);
          if (f != stdout) fclose(f);
          return fail("out of memory");
        }
        memset(rlev, 0xff, 65536);
        int top = 0;
        for (size_t col = 0; col < (size_t)c->grid.width * (size_t)c->grid.depth; col++)
          for (int k = 0; k < c->cell_count[col]; k++) {
            uint16_t r = d.reg.reg[c->cell_index[col] + (uint32_t)k];
            int lk = k > 5 ? 5 : k;
            if (r && !(r & OP_REG_BORDER) && lk < rlev[r]) rlev[r] = (uint8_t)lk;
          }
        for (int r = 1; r < 65536; r++)
          if (rlev[r] != 0xff && rlev[r] > top) top = rlev[r];
        shown = top + 1;
      }
#define RLEV(r) (rlev[(r)] == 0xff ? 0 : rlev[(r)])
      char title[320], sub[200];
      snprintf(title, sizeof title, "%s - preset %s - stage: %s - tile %lld,%lld", in.label,
               in.preset, stage, tx, tz);
      snprintf(sub, sizeof sub,
               "partition %s, cell_size %g, cell_height %g, tile_cells %" PRIu32 ", border %"
               PRId32 " cells; %" PRIu32 " open spans%s", partition_name(in.s.partition),
               in.s.cell_size, in.s.cell_height, in.s.tile_cells, d.cell.border, c->nspans,
               levels > shown && !flat ? " (only the 6 lowest levels shown)" : "");
      svg_scene sc;
      svg_scene_init(&sc, f, title, sub);
      double x0 = gx(c, 0), z0 = gz(c, 0), x1 = gx(c, c->grid.width), z1 = gz(c, c->grid.depth);
      for (int k = 0; k < (shown ? shown : 1); k++) {
        char cap[96];
        if (!strcmp(stage, "contours") && k == 0)
          snprintf(cap, sizeof cap, "%" PRIu32 " loops, %" PRIu32 " contours%s", d.cs.nloops,
                   d.cs.ncontours, shown > 1 ? "; regions from span level 0" : "");
        else if (flat && k > 0)
          snprintf(cap, sizeof cap, "regions whose lowest span is at level %d%s", k,
                   k == 5 ? " or above" : "");
#ifdef OP_HAVE_POLYS
        else if (!strcmp(stage, "polys"))
          snprintf(cap, sizeof cap, "%" PRIu32 " polygons, %" PRIu32 " vertices (MaxVertsPerPoly %"
                   PRIu32 ")%s", d.pm.npolys, d.pm.nverts, d.pm.nvp,
                   shown > 1 ? "; level 0" : "");
#endif
        else if (shown > 1)
          snprintf(cap, sizeof cap, "span level %d (the %d%s open span of each column)", k, k + 1,
                   k == 0 ? "st" : k == 1 ? "nd" : k == 2 ? "rd" : "th");
        else
          snprintf(cap, sizeof cap, "all columns (one open span each)");
        svg_panel_add(&sc, x0, z0, x1, z1, cap);
      }
      char col[8];
      if (!strcmp(stage, "spans")) {
        svg_shade(0.9, 1, col); svg_legend_add(&sc, col, 0, "walkable, high floor");
        svg_shade(0.1, 1, col); svg_legend_add(&sc, col, 0, "walkable, low floor");
        svg_shade(0.9, 0, col); svg_legend_add(&sc, col, 0, "not walkable, high");
        svg_shade(0.1, 0, col); svg_legend_add(&sc, col, 0, "not walkable, low");
      } else {
        if (!strcmp(stage, "polys")) {
          svg_legend_add(&sc, "#d8d8d8", 0, "walkable span");
          svg_legend_add(&sc, "#b0b0b0", 0, "not walkable span");
        } else {
          svg_legend_add(&sc, "#666666", 0, "border region");
          svg_legend_add(&sc, "#dddddd", 0, "no region");
        }
        for (uint16_t r = 1; r <= d.reg.nregions; r++) {
          char lab[32];
          svg_palette(r, col);
          snprintf(lab, sizeof lab, "region %u", (unsigned)r);
          svg_legend_add(&sc, col, 0, lab);
        }
      }
      if (!strcmp(stage, "contours")) {
        svg_legend_add(&sc, "#000000", 2, "raw loop (traced edges)");
        svg_legend_add(&sc, "#000000", 1, "simplified contour");
      }
      if (!strcmp(stage, "polys")) {
        svg_legend_add(&sc, "#222222", 1, "wall edge");
        svg_legend_add(&sc, "#d62728", 1, "portal edge (tile side)");
        svg_legend_add(&sc, "#bbbbbb", 1, "internal edge (white)");
      }
      svg_legend_add(&sc, "#1f3b99", 2, "tile square (inside the border)");
      svg_scene_begin(&sc, shown > 1 ? 520 : 900);
      for (int k = 0; k < (shown ? shown : 1); k++) {
        if (!strcmp(stage, "contours")) {
          draw_span_level(&sc, k, &d, k, 1, ymin, ymx);
        } else if (!strcmp(stage, "polys")) {
          /* the regions faintly, under the polygons */
          draw_span_level(&sc, k, &d, k, 2, ymin, ymx);
        } else {
          draw_span_level(&sc, k, &d, k, strcmp(stage, "spans") ? 1 : 0, ymin, ymx);
        }
        draw_grid_frame(&sc, k, c, d.cell.border);
      }
      if (!strcmp(stage, "contours")) {
        /* raw loops: thin dashed; simplified forms of the joined contours: thick */
        size_t cap = 0;
        for (uint32_t li = 0; li < d.cs.nloops; li++)
          if (d.cs.loops[li].nraw > cap) cap = d.cs.loops[li].nraw;
        for (uint32_t ci = 0; ci < d.cs.ncontours; ci++)
          if (d.cs.contours[ci].nverts > cap) cap = d.cs.contours[ci].nverts;
        double *xz = malloc((cap + 1) * 2 * sizeof *xz);
        if (!xz) rc = fail("out of memory");
        for (uint32_t li = 0; !rc && li < d.cs.nloops; li++) {
          const op_cloop *lp = &d.cs.loops[li];
          for (uint32_t j = 0; j < lp->nraw; j++) {
            xz[2 * j] = gx(c, d.cs.raw[lp->raw_start + j].x);
            xz[2 * j + 1] = gz(c, d.cs.raw[lp->raw_start + j].z);
          }
          svg_path(&sc, RLEV(lp->reg), xz, (int)lp->nraw, 1, "none", 1, "#000000", 0.9, 1);
        }
        for (uint32_t ci = 0; !rc && ci < d.cs.ncontours; ci++) {
          const op_contour *ct = &d.cs.contours[ci];
          for (uint32_t j = 0; j < ct->nverts; j++) {
            xz[2 * j] = gx(c, d.cs.verts[ct->vert_start + j].x);
            xz[2 * j + 1] = gz(c, d.cs.verts[ct->vert_start + j].z);
          }
          int pk = RLEV(ct->reg);
          svg_path(&sc, pk, xz, (int)ct->nverts, 1, "none", 1, "#000000", 2.2, 0);
          for (uint32_t j = 0; j < ct->nverts; j++)
            svg_dot(&sc, pk, xz[2 * j], xz[2 * j + 1], 2.2, "#000000");
        }
        free(xz);
      }
#ifdef OP_HAVE_POLYS
      if (!strcmp(stage, "polys")) {
        /* tile-local cells (POLY-003): bordered corner = cell + border */
        const op_pmesh *pm = &d.pm;
        double bd = d.cell.border;
        for (uint32_t q = 0; q < pm->npolys; q++) {
          uint32_t nv = op_pmesh_poly_nverts(pm, q);
          const uint16_t *pv = pm->polys + (size_t)q * pm->nvp;
          double xz[2 * OP_MAX_VERTS_PER_POLY];
          for (uint32_t j = 0; j < nv; j++) {
            xz[2 * j] = gx(c, pm->verts[3 * pv[j]] + bd);
            xz[2 * j + 1] = gz(c, pm->verts[3 * pv[j] + 2] + bd);
          }
          svg_palette(pm->regs[q], col);
          svg_path(&sc, RLEV(pm->regs[q]), xz, (int)nv, 1, col, 0.85, "#ffffff", 1.0, 0);
        }
        for (uint32_t q = 0; q < pm->npolys; q++) {
          uint32_t nv = op_pmesh_poly_nverts(pm, q);
          const uint16_t *pv = pm->polys + (size_t)q * pm->nvp;
          const uint16_t *pn = pm->neis + (size_t)q * pm->nvp;
          for (uint32_t j = 0; j < nv; j++) {
            if (pn[j] != 0 && !(pn[j] & 0x8000u)) continue;
            const int32_t *va = pm->verts + 3 * pv[j], *vb = pm->verts + 3 * pv[(j + 1) % nv];
            svg_line(&sc, RLEV(pm->regs[q]), gx(c, va[0] + bd), gz(c, va[2] + bd),
                     gx(c, vb[0] + bd), gz(c, vb[2] + bd), pn[j] == 0 ? "#222222" : "#d62728",
                     1.8, 0);
          }
          for (uint32_t j = 0; j < nv; j++)
            svg_dot(&sc, RLEV(pm->regs[q]), gx(c, pm->verts[3 * pv[j]] + bd),
                    gz(c, pm->verts[3 * pv[j] + 2] + bd), 1.8, "#000000");
        }
      }
#endif
      svg_scene_end(&sc);
#undef RLEV
      free(rlev);
    }
    stage_free(&d);
  }
  if (f && f != stdout && fclose(f) != 0 && !rc) rc = fail("cannot write '%s'", out);
  op_trimesh_free(&in.m);
  return rc;
}

#ifdef OP_HAVE_PIPELINE
/* ------------------------------------------------------------ tilecache */

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

static int tc_push(tc_ops *ops, tc_kind k, uint32_t index, const char *text) {
  if (ops->n == ops->cap) {
    uint32_t nc = ops->cap ? 2 * ops->cap : 16;
    tc_op *no = realloc(ops->op, nc * sizeof *no);
    if (!no) return fail("out of memory");
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
static int tc_step(const char *word, const char *v, shapes *sh, tc_ops *ops) {
  char opt[32];
  snprintf(opt, sizeof opt, "--%s", word);
  char text[96];
  snprintf(text, sizeof text, "%s%s%s", opt, v ? " " : "", v ? v : "");
  if (is_shape_option(opt)) {
    int vol = !strcmp(opt, "--volume");
    int rc = shape_parse(opt, v, sh);
    if (rc) return rc;
    return tc_push(ops, vol ? TC_ADD_VOL : TC_ADD_OBST, vol ? sh->nvol - 1 : sh->nobst - 1, text);
  }
  if (!strcmp(opt, "--remove") || !strcmp(opt, "--remove-volume")) {
    long long id;
    if (parse_i64(v, 1, 4294967294LL, &id))
      return usage_error("%s '%s': expected an id, 1 to 4294967294", opt, v);
    return tc_push(ops, opt[8] ? TC_REMOVE_VOL : TC_REMOVE, (uint32_t)id, text);
  }
  return tc_push(ops, TC_UPDATE, 0, text);
}

/* --ops FILE: one step per line, `cylinder X,Y,Z,R,H`, `box ...`, `obox ...`, `volume ...`,
** `remove ID`, `remove-volume ID`, `update`; `#` starts a comment. */
static int tc_ops_file(const char *path, shapes *sh, tc_ops *ops) {
  uint8_t *d;
  size_t n;
  if (read_file(path, &d, &n)) return EXIT_FAIL;
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
      rc = tc_push(ops, TC_UPDATE, 0, "update");
    } else if (k == 2 && known) {
      rc = tc_step(w1, w2, sh, ops);
      if (rc) fprintf(stderr, "(in %s, line %d)\n", path, line);
    } else {
      rc = usage_error("%s: line %d: expected `cylinder|box|obox|volume NUMBERS`, `remove ID`, "
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
static int tc_run_ops(op_tilecache *c, const shapes *sh, const tc_ops *ops, tc_live *lv,
                      uint32_t step) {
  op_error e;
  for (uint32_t i = 0; i < ops->n; i++) {
    const tc_op *o = &ops->op[i];
    uint32_t id = 0, processed = 0;
    switch (o->kind) {
    case TC_ADD_OBST:
      if (op_tilecache_add_obstacle(c, &sh->obst[o->index], &id, &e)) return fail_op(o->text, &e);
      printf("add obstacle #%" PRIu32 ": ", id);
      print_obstacle(&sh->obst[o->index]);
      printf("; ");
      lv->obst[lv->nobst] = sh->obst[o->index];
      lv->obst_id[lv->nobst++] = id;
      break;
    case TC_ADD_VOL:
      if (op_tilecache_add_volume(c, &sh->vol[o->index], &id, &e)) return fail_op(o->text, &e);
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
        return usage_error("'%s': no live %s has id %" PRIu32 " (%s)", o->text,
                           vol ? "volume" : "obstacle", o->index, e.message);
      if (s) return fail_op(o->text, &e);
      printf("remove %s %s%" PRIu32 "; ", vol ? "volume" : "obstacle", vol ? "V" : "#", o->index);
      if (vol) tc_live_remove(lv->vol_id, lv->vol, sizeof *lv->vol, &lv->nvol, o->index);
      else tc_live_remove(lv->obst_id, lv->obst, sizeof *lv->obst, &lv->nobst, o->index);
      break;
    }
    case TC_UPDATE:
      if (step) {
        while (op_tilecache_queue_length(c)) {
          if (op_tilecache_update(c, step, &processed, &e)) return fail_op("Update", &e);
          printf("update(%" PRIu32 "): %" PRIu32 " tiles processed; ", step, processed);
          print_queue(c);
        }
        continue;
      }
      if (op_tilecache_update_all(c, &processed, &e)) return fail_op("UpdateAll", &e);
      printf("update all: %" PRIu32 " tiles processed; ", processed);
      break;
    }
    print_queue(c);
  }
  return 0;
}

static int cmd_tilecache(int argc, char **argv) {
  g_cmd = "onepath tilecache";
  input3d in;
  memset(&in, 0, sizeof in);
  in.size = -1;
  in.seed = 1;
  const char *mode = "soup", *svg_out = NULL, *snap_out = NULL, *color = "area";
  outputs outs = {NULL, NULL, NULL};
  double chunk_size = 0;
  long long step = 0;
  int no_repair = 0;
  shapes sh;
  memset(&sh, 0, sizeof sh);
  tc_ops ops = {NULL, 0, 0};
  char **sets = calloc((size_t)argc + 1, sizeof *sets);
  int nsets = 0, rc = sets ? 0 : fail("out of memory");
  args a = {argc, argv, 0};
  for (a.i = 0; a.i < argc && !rc; a.i++) {
    int st = 0;
    int r = input_option(&a, &in, &st);
    if (r < 0) { rc = st; break; }
    if (r == 2) { /* a --preset or --set value, kept in order */
      if ((rc = keep_setting(sets, &nsets, argv[a.i - 1], argv[a.i]))) break;
      continue;
    }
    if (r == 1) continue;
    const char *o = argv[a.i], *v;
    if (is_shape_option(o) || !strcmp(o, "--remove") || !strcmp(o, "--remove-volume")) {
      if (!(v = opt_value(&a))) rc = EXIT_USAGE;
      else rc = tc_step(o + 2, v, &sh, &ops);
    } else if (!strcmp(o, "--update")) {
      rc = tc_push(&ops, TC_UPDATE, 0, "--update");
    } else if (!strcmp(o, "--ops")) {
      if (!(v = opt_value(&a))) rc = EXIT_USAGE;
      else rc = tc_ops_file(v, &sh, &ops);
    } else if (!strcmp(o, "--out") || !strcmp(o, "-o")) {
      if (!(outs.mesh = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(o, "--snapshot")) {
      if (!(snap_out = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(o, "--tiles")) {
      if (!(outs.tiles = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(o, "--svg")) {
      if (!(svg_out = opt_value(&a))) rc = EXIT_USAGE;
    } else if (!strcmp(o, "--color")) {
      if (!(color = opt_value(&a))) rc = EXIT_USAGE;
      else if (strcmp(color, "area") && strcmp(color, "poly") && strcmp(color, "tile"))
        rc = usage_error("--color '%s': expected area, poly or tile", color);
    } else if (!strcmp(o, "--step")) {
      if (!(v = opt_value(&a))) rc = EXIT_USAGE;
      else if (parse_i64(v, 1, UINT32_MAX, &step))
        rc = usage_error("--step '%s': expected a tile count, 1 to 4294967295", v);
    } else if (!strcmp(o, "--no-repair")) {
      no_repair = 1;
    } else if (!strcmp(o, "--mode")) {
      if (!(mode = opt_value(&a))) rc = EXIT_USAGE;
      else if (strcmp(mode, "soup") && strcmp(mode, "chunk"))
        rc = usage_error("--mode '%s': expected soup or chunk", mode);
    } else if (!strcmp(o, "--chunk-size")) {
      if (!(v = opt_value(&a))) rc = EXIT_USAGE;
      else if (parse_double(v, &chunk_size) || !(chunk_size > 0))
        rc = usage_error("--chunk-size '%s': expected a positive number", v);
    } else {
      rc = usage_error("unknown argument '%s'", o);
    }
  }
  if (!rc) rc = input_finish(&in, sets, nsets);
  if (!rc) rc = shapes_validate(&in.s, &sh);
  /* the queue is emptied at the end (RT-027's "queue emptied") */
  if (!rc && (ops.n == 0 || ops.op[ops.n - 1].kind != TC_UPDATE))
    rc = tc_push(&ops, TC_UPDATE, 0, "(final update)");
  op_tilecache *c = NULL;
  tc_live lv;
  memset(&lv, 0, sizeof lv);
  if (!rc) {
    lv.obst = malloc((sh.nobst + 1) * sizeof *lv.obst);
    lv.obst_id = malloc((sh.nobst + 1) * sizeof *lv.obst_id);
    lv.vol = malloc((sh.nvol + 1) * sizeof *lv.vol);
    lv.vol_id = malloc((sh.nvol + 1) * sizeof *lv.vol_id);
    if (!lv.obst || !lv.obst_id || !lv.vol || !lv.vol_id) rc = fail("out of memory");
  }
  double t0 = now_seconds(), t1 = t0;
  if (!rc) {
    op_soup soup = op_trimesh_soup(&in.m);
    op_pipeline_result res;
    memset(&res, 0, sizeof res);
    op_error e;
    progress pg;
    progress_init(&pg);
    op_pipeline_hooks hooks = {&pg, on_progress, NULL};
    op_status st;
    if (!strcmp(mode, "chunk")) {
      op_chunked *ch = NULL;
      if (chunk_size <= 0) chunk_size = (double)in.s.tile_cells * in.s.cell_size;
      st = op_chunked_create(&soup, chunk_size, &ch, &e);
      if (st == OP_OK) st = op_pipeline_build_chunk_cached(&in.s, ch, &hooks, &res, &c, &e);
      op_chunked_free(ch);
    } else {
      st = op_pipeline_build_soup_cached(&in.s, &soup, &hooks, &res, &c, &e);
    }
    t1 = now_seconds();
    progress_done(&pg);
    if (st != OP_OK) {
      rc = fail_op(!strcmp(mode, "chunk") ? "BuildChunkCached" : "BuildSoupCached", &e);
    } else {
      printf("input: %s (%" PRIu32 " vertices, %" PRIu32 " triangles), preset %s, partition "
             "%s, mode %s\n", in.label, in.m.nverts, in.m.ntris, in.preset,
             partition_name(in.s.partition), mode);
      printf("tile grid: %" PRId32 " x %" PRId32 ", %" PRIu32 " with spans, %" PRIu32
             " tiles; cached build %.3f s\n", res.ntx, res.ntz, res.nbuilt, res.ntiles, t1 - t0);
      if (no_repair) op_tilecache_set_repair(c, 0);
      printf("repair: %s\n", op_tilecache_repair(c) ? "on" : "off");
      op_tilecache_stats_reset(c);
    }
    op_pipeline_result_free(&res);
  }
  double t2 = now_seconds();
  if (!rc) rc = tc_run_ops(c, &sh, &ops, &lv, (uint32_t)step);
  double t3 = now_seconds();
  if (!rc) {
    print_stats(c);
    printf("fingerprint: %016" PRIx64 "\n", op_tilecache_fingerprint(c));
    printf("updates: %.3f s\n", t3 - t2);
  }
  if (!rc && snap_out) {
    op_bytes sb = {NULL, 0};
    op_error e;
    if (op_tilecache_snapshot_save(c, &sb, &e)) rc = fail_op("the cache snapshot", &e);
    else if (write_file(snap_out, sb.data, sb.len)) rc = EXIT_FAIL;
    else printf("cache snapshot: %zu bytes, hash %016" PRIx64 ", written to %s\n", sb.len,
                op_hash64(sb.data, sb.len), snap_out);
    op_bytes_free(&sb);
  }
  if (!rc) rc = report_mesh(op_tilecache_mesh(c), &outs, t1 - t0);
  if (!rc && svg_out) {
    op_bytes b = {NULL, 0};
    op_error e;
    loaded l;
    memset(&l, 0, sizeof l);
    op_cell_settings cell;
    if (op_mesh_save(op_tilecache_mesh(c), &b, &e)) rc = fail_op("serializing the mesh", &e);
    else if (parse_mesh_bytes(b.data, b.len, "(cache mesh)", &l)) rc = EXIT_FAIL;
    else if (op_settings_derive(&in.s, &cell, &e)) rc = fail_op("settings", &e);
    FILE *f = NULL;
    if (!rc && !(f = fopen(svg_out, "w")))
      rc = fail("cannot create '%s': %s", svg_out, strerror(errno));
    if (!rc) {
      overlay ov = {lv.obst, lv.obst_id, lv.nobst, lv.vol, lv.vol_id, lv.nvol,
                    (double)cell.walkable_radius * in.s.cell_size};
      layer_pick pk;
      memset(&pk, 0, sizeof pk);
      pk.hi = 255;
      char title[320];
      snprintf(title, sizeof title, "tile cache: %s - %" PRIu32 " obstacles, %" PRIu32
               " volumes - stage: mesh (colour per %s)", in.label, lv.nobst, lv.nvol, color);
      rc = svg_mesh_draw(&l, title, color, &pk, &ov, f);
      if (fclose(f) != 0 && !rc) rc = fail("cannot write '%s'", svg_out);
      if (!rc) printf("picture: %s\n", svg_out);
    }
    loaded_free(&l);
    op_bytes_free(&b);
  }
  op_tilecache_free(c);
  free(lv.obst);
  free(lv.obst_id);
  free(lv.vol);
  free(lv.vol_id);
  free(ops.op);
  shapes_free(&sh);
  for (int i = 0; i < nsets; i++) free(sets[i]);
  free(sets);
  op_trimesh_free(&in.m);
  return rc;
}
#endif

/* --------------------------------------------------------------- main */

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

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(HELP, stderr);
    return EXIT_USAGE;
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
  if (!strcmp(c, "build")) return cmd_build(argc - 2, argv + 2);
  if (!strcmp(c, "build2d")) return cmd_build2d(argc - 2, argv + 2);
  if (!strcmp(c, "svg")) return cmd_svg(argc - 2, argv + 2);
  if (!strcmp(c, "hash")) return cmd_hash(argc - 2, argv + 2);
  if (!strcmp(c, "info")) return cmd_info(argc - 2, argv + 2);
#ifdef OP_HAVE_PIPELINE
  if (!strcmp(c, "tilecache")) return cmd_tilecache(argc - 2, argv + 2);
#endif
  return usage_error("unknown command '%s'", c);
}
