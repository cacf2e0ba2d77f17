/*
** cmd_merge.c -- part builds and `onepath merge` (docs/cli.md, spec/build3d-polys.md
** POLY-229): `onepath build --tile-range X0:X1,Z0:Z1 --tiles DIR` writes, beside the
** range's tile files, a manifest DIR/part_X0_X1_Z0_Z1.txt (the grid, the range clipped to
** it, the mesh parameters and the slot count of POLY-224, the tiles); `onepath merge
** DIR... -o FILE` checks that the parts' ranges cover the grid once, creates the mesh with
** the parts' summed slots and adds every tile in the order of POLY-223, so the bytes are
** those of one build of the whole level.
*/
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define PART_MAGIC "onepath-part 1"

/* "X0:X1,Z0:Z1", non-negative integers, X0 <= X1 and Z0 <= Z1; 0 or -1. */
int cli_parse_tile_range(const char *s, int32_t r[4]) {
  long long v[4];
  char tail;
  if (sscanf(s, "%lld:%lld,%lld:%lld%c", &v[0], &v[1], &v[2], &v[3], &tail) != 4) return -1;
  for (int k = 0; k < 4; k++)
    if (v[k] < 0 || v[k] > 8191) return -1; /* SPAN-183: at most 8192 tiles an axis */
  if (v[1] < v[0] || v[3] < v[2]) return -1;
  for (int k = 0; k < 4; k++) r[k] = (int32_t)v[k];
  return 0;
}

/* The manifest of a part build: range r as asked, clipped to the grid here. */
int cli_part_write(cli_ctx *ctx, const char *dir, const op_pipeline_result *res,
                   const int32_t r[4]) {
  char path[4096];
  snprintf(path, sizeof path, "%s/part_%" PRId32 "_%" PRId32 "_%" PRId32 "_%" PRId32 ".txt",
           dir, r[0], r[1], r[2], r[3]);
  FILE *f = fopen(path, "w");
  if (!f) return cli_fail(ctx, "cannot write '%s'", path);
  op_mesh_params mp;
  op_mesh_get_params(res->mesh, &mp);
  int32_t x1 = r[1] < res->ntx - 1 ? r[1] : res->ntx - 1;
  int32_t z1 = r[3] < res->ntz - 1 ? r[3] : res->ntz - 1;
  fprintf(f, PART_MAGIC "\n");
  fprintf(f, "grid %" PRId32 " %" PRId32 "\n", res->ntx, res->ntz);
  if (r[0] <= x1 && r[2] <= z1)
    fprintf(f, "range %" PRId32 " %" PRId32 " %" PRId32 " %" PRId32 "\n", r[0], x1, r[2], z1);
  else
    fprintf(f, "range none\n");
  fprintf(f, "slots %" PRIu32 "\n", res->slots);
  /* binary64 values as C99 hexadecimal floats: read back exactly */
  fprintf(f, "origin %a %a %a\n", mp.tiling.origin[0], mp.tiling.origin[1],
          mp.tiling.origin[2]);
  fprintf(f, "cell_size %a\ncell_height %a\n", mp.tiling.cell_size, mp.tiling.cell_height);
  fprintf(f, "tile_cells %" PRIu32 "\nmax_verts_per_poly %" PRIu32 "\n", mp.tiling.tile_cells,
          mp.tiling.max_verts_per_poly);
  fprintf(f, "walkable_climb %a\n", mp.walkable_climb);
  fprintf(f, "tiles %" PRIu32 "\n", res->ntiles);
  for (uint32_t k = 0; k < res->ntiles; k++)
    fprintf(f, "tile %" PRId32 " %" PRId32 " %" PRId32 "\n", res->tiles[k].x, res->tiles[k].z,
            res->tiles[k].layer);
  if (fclose(f)) return cli_fail(ctx, "cannot write '%s'", path);
  printf("part: tiles %" PRId32 "..%" PRId32 " x %" PRId32 "..%" PRId32 " of %" PRId32 " x %" PRId32
         ", %" PRIu32 " slots, manifest %s\n", r[0], x1, r[2], z1, res->ntx, res->ntz,
         res->slots, path);
  return 0;
}

/* ------------------------------------------------------------------ merge */

typedef struct mtile {
  int32_t x, z, layer;
  uint32_t part;
} mtile;

typedef struct part {
  char path[4096];
  const char *dir;
  int32_t ntx, ntz, r[4];
  int empty;
  uint32_t slots;
  op_mesh_params mp;
} part;

typedef struct merge {
  part *parts;
  uint32_t nparts, capparts;
  mtile *tiles;
  uint64_t ntiles, captiles;
} merge;

static int bad_manifest(cli_ctx *ctx, const char *path, int line, const char *what) {
  return cli_fail(ctx, "%s line %d: %s", path, line, what);
}

/* Reads one manifest into p, its tiles appended to m. */
static int part_read(cli_ctx *ctx, merge *m, part *p, uint32_t index) {
  FILE *f = fopen(p->path, "r");
  if (!f) return cli_fail(ctx, "cannot open '%s'", p->path);
  char line[512];
  int ln = 0, rc = 0;
  uint32_t ntiles = 0, seen = 0;
  double o[3], cs, ch, climb;
  unsigned tc, mv;
  const char *want[] = {PART_MAGIC, "grid", "range", "slots", "origin", "cell_size",
                        "cell_height", "tile_cells", "max_verts_per_poly", "walkable_climb",
                        "tiles"};
  for (int k = 0; k < 11 && !rc; k++) {
    ln++;
    if (!fgets(line, sizeof line, f) || strncmp(line, want[k], strlen(want[k]))) {
      rc = bad_manifest(ctx, p->path, ln, "not an onepath part manifest (expected the line "
                                          "order of onepath build --tile-range)");
      break;
    }
    const char *v = line + strlen(want[k]);
    int ok = 1;
    switch (k) {
    case 1: ok = sscanf(v, "%" SCNd32 " %" SCNd32, &p->ntx, &p->ntz) == 2 && p->ntx > 0 &&
                 p->ntz > 0; break;
    case 2:
      if (!strncmp(v, " none", 5)) p->empty = 1;
      else ok = sscanf(v, "%" SCNd32 " %" SCNd32 " %" SCNd32 " %" SCNd32, &p->r[0], &p->r[1],
                       &p->r[2], &p->r[3]) == 4 && p->r[0] >= 0 && p->r[0] <= p->r[1] &&
                p->r[1] < p->ntx && p->r[2] >= 0 && p->r[2] <= p->r[3] && p->r[3] < p->ntz;
      break;
    case 3: ok = sscanf(v, "%" SCNu32, &p->slots) == 1; break;
    case 4: ok = sscanf(v, "%la %la %la", &o[0], &o[1], &o[2]) == 3; break;
    case 5: ok = sscanf(v, "%la", &cs) == 1; break;
    case 6: ok = sscanf(v, "%la", &ch) == 1; break;
    case 7: ok = sscanf(v, "%u", &tc) == 1; break;
    case 8: ok = sscanf(v, "%u", &mv) == 1; break;
    case 9: ok = sscanf(v, "%la", &climb) == 1; break;
    case 10: ok = sscanf(v, "%" SCNu32, &ntiles) == 1; break;
    default: break;
    }
    if (!ok) rc = bad_manifest(ctx, p->path, ln, "a value is missing or out of range");
  }
  if (!rc) {
    memset(&p->mp, 0, sizeof p->mp);
    for (int k = 0; k < 3; k++) p->mp.tiling.origin[k] = o[k];
    p->mp.tiling.cell_size = cs;
    p->mp.tiling.cell_height = ch;
    p->mp.tiling.tile_cells = tc;
    p->mp.tiling.max_verts_per_poly = mv;
    p->mp.walkable_climb = climb;
  }
  for (; !rc && seen < ntiles; seen++) {
    ln++;
    mtile t;
    char tail;
    if (!fgets(line, sizeof line, f) ||
        sscanf(line, "tile %" SCNd32 " %" SCNd32 " %" SCNd32 "%c", &t.x, &t.z, &t.layer,
               &tail) != 4 || tail != '\n') {
      rc = bad_manifest(ctx, p->path, ln, "expected 'tile X Z LAYER'");
      break;
    }
    if (p->empty || t.x < p->r[0] || t.x > p->r[1] || t.z < p->r[2] || t.z > p->r[3]) {
      rc = bad_manifest(ctx, p->path, ln, "a tile outside the part's range");
      break;
    }
    t.part = index;
    if (m->ntiles == m->captiles) {
      uint64_t nc = m->captiles ? 2 * m->captiles : 64;
      mtile *n = realloc(m->tiles, nc * sizeof *n);
      if (!n) {
        rc = cli_fail(ctx, "out of memory");
        break;
      }
      m->tiles = n;
      m->captiles = nc;
    }
    m->tiles[m->ntiles++] = t;
  }
  fclose(f);
  return rc;
}

static int name_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every DIR/part_*.txt, in name order. */
static int dir_parts(cli_ctx *ctx, merge *m, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return cli_fail(ctx, "cannot open directory '%s'", dir);
  char **names = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  struct dirent *e;
  while (!rc && (e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (strncmp(e->d_name, "part_", 5) || len < 9 || strcmp(e->d_name + len - 4, ".txt"))
      continue;
    if (n == cap) {
      size_t nc = cap ? 2 * cap : 8;
      char **nn = realloc(names, nc * sizeof *nn);
      if (!nn) {
        rc = cli_fail(ctx, "out of memory");
        break;
      }
      names = nn;
      cap = nc;
    }
    if (!(names[n] = malloc(len + 1))) {
      rc = cli_fail(ctx, "out of memory");
      break;
    }
    memcpy(names[n++], e->d_name, len + 1);
  }
  closedir(d);
  if (!rc && n == 0) rc = cli_fail(ctx, "'%s' holds no part manifest (part_*.txt)", dir);
  if (!rc) qsort(names, n, sizeof *names, name_cmp);
  for (size_t k = 0; k < n && !rc; k++) {
    if (m->nparts == m->capparts) {
      uint32_t nc = m->capparts ? 2 * m->capparts : 8;
      part *np = realloc(m->parts, nc * sizeof *np);
      if (!np) {
        rc = cli_fail(ctx, "out of memory");
        break;
      }
      m->parts = np;
      m->capparts = nc;
    }
    part *p = &m->parts[m->nparts];
    memset(p, 0, sizeof *p);
    p->dir = dir;
    snprintf(p->path, sizeof p->path, "%s/%s", dir, names[k]);
    rc = part_read(ctx, m, p, m->nparts);
    if (!rc) m->nparts++;
  }
  for (size_t k = 0; k < n; k++) free(names[k]);
  free(names);
  return rc;
}

static int same_params(const op_mesh_params *a, const op_mesh_params *b) {
  for (int k = 0; k < 3; k++)
    if (a->tiling.origin[k] != b->tiling.origin[k]) return 0;
  return a->tiling.cell_size == b->tiling.cell_size &&
         a->tiling.cell_height == b->tiling.cell_height &&
         a->tiling.tile_cells == b->tiling.tile_cells &&
         a->tiling.max_verts_per_poly == b->tiling.max_verts_per_poly &&
         a->walkable_climb == b->walkable_climb;
}

/* The parts are of one build (grid and parameters) and cover its grid exactly once;
** *slots their sum. */
static int check_cover(cli_ctx *ctx, const merge *m, uint64_t *slots) {
  const part *a = &m->parts[0];
  uint64_t cells = (uint64_t)a->ntx * (uint64_t)a->ntz;
  uint8_t *cov = calloc(cells, 1);
  if (!cov) return cli_fail(ctx, "out of memory");
  int rc = 0;
  *slots = 0;
  for (uint32_t i = 0; i < m->nparts && !rc; i++) {
    const part *p = &m->parts[i];
    if (p->ntx != a->ntx || p->ntz != a->ntz || !same_params(&p->mp, &a->mp)) {
      rc = cli_fail(ctx, "%s is a part of another build than %s (grid or mesh parameters "
                    "differ)", p->path, a->path);
      break;
    }
    *slots += p->slots;
    if (p->empty) continue;
    for (int32_t z = p->r[2]; z <= p->r[3] && !rc; z++)
      for (int32_t x = p->r[0]; x <= p->r[1] && !rc; x++) {
        uint8_t *c = &cov[(uint64_t)z * (uint64_t)a->ntx + (uint64_t)x];
        if (*c) rc = cli_fail(ctx, "tile (%" PRId32 ", %" PRId32 ") is in two parts (%s)", x,
                              z, p->path);
        *c = 1;
      }
  }
  for (uint64_t k = 0; k < cells && !rc; k++)
    if (!cov[k])
      rc = cli_fail(ctx, "tile (%" PRIu64 ", %" PRIu64 ") of the %" PRId32 " x %" PRId32
                    " grid is in no part", k % (uint64_t)a->ntx, k / (uint64_t)a->ntx, a->ntx,
                    a->ntz);
  free(cov);
  return rc;
}

static int tile_cmp(const void *pa, const void *pb) { /* POLY-223, RT-086 (d) */
  const mtile *a = pa, *b = pb;
  if (a->z != b->z) return a->z < b->z ? -1 : 1;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return a->layer < b->layer ? -1 : a->layer > b->layer;
}

/* Loads the tile file of t and adds it to mesh. */
static int add_one(cli_ctx *ctx, const merge *m, const mtile *t, op_mesh *mesh) {
  char path[4200];
  snprintf(path, sizeof path, "%s/tile_%" PRId32 "_%" PRId32 "_%" PRId32 ".optl",
           m->parts[t->part].dir, t->x, t->z, t->layer);
  uint8_t *data = NULL;
  size_t len = 0;
  if (cli_read_file(ctx, path, &data, &len)) return CLI_EXIT_FAIL;
  op_tile *tile = NULL;
  op_error e;
  int rc = 0;
  if (op_tile_load(data, len, &tile, &e)) {
    rc = cli_fail_op(ctx, path, &e);
  } else {
    op_tile_desc v;
    op_tile_view(tile, &v);
    op_ref ref;
    if (v.x != t->x || v.z != t->z || v.layer != t->layer)
      rc = cli_fail(ctx, "%s holds tile (%" PRId32 ", %" PRId32 ", %" PRId32 ")", path, v.x, v.z,
                    v.layer);
    else if (op_mesh_add_tile(mesh, tile, &ref, &e))
      rc = cli_fail_op(ctx, path, &e);
  }
  op_tile_free(tile);
  free(data);
  return rc;
}

int cli_cmd_merge(cli_ctx *ctx, int argc, char **argv) {
  cli_outputs outs;
  memset(&outs, 0, sizeof outs);
  merge m;
  memset(&m, 0, sizeof m);
  const char **dirs = calloc((size_t)argc + 1, sizeof *dirs);
  if (!dirs) return cli_fail(ctx, "out of memory");
  int ndirs = 0, rc = 0;
  for (int i = 0; i < argc && !rc; i++) {
    const char *o = argv[i];
    if (!strcmp(o, "--out") || !strcmp(o, "-o")) {
      if (i + 1 >= argc) rc = cli_usage_error(ctx, "option '%s' needs a value", o);
      else outs.mesh = argv[++i];
    } else if (!strcmp(o, "--tiles") || !strcmp(o, "--snapshot")) {
      if (i + 1 >= argc) rc = cli_usage_error(ctx, "option '%s' needs a value", o);
      else if (o[2] == 't') outs.tiles = argv[++i];
      else outs.snapshot = argv[++i];
    } else if (o[0] == '-') {
      rc = cli_usage_error(ctx, "unknown argument '%s'", o);
    } else {
      dirs[ndirs++] = o;
    }
  }
  if (!rc && ndirs == 0) rc = cli_usage_error(ctx, "no part directory given");
  double t0 = cli_now();
  for (int i = 0; i < ndirs && !rc; i++) rc = dir_parts(ctx, &m, dirs[i]);
  uint64_t slots = 0;
  if (!rc) rc = check_cover(ctx, &m, &slots);
  op_mesh *mesh = NULL;
  if (!rc) {
    op_mesh_params mp = m.parts[0].mp; /* POLY-224 with the whole grid's slots */
    mp.max_tiles = slots > UINT32_MAX ? UINT32_MAX : (uint32_t)slots;
    op_error e;
    if (op_mesh_create(&mp, &mesh, &e)) rc = cli_fail_op(ctx, "TiledNavMesh.Create", &e);
  }
  if (!rc) {
    qsort(m.tiles, m.ntiles, sizeof *m.tiles, tile_cmp);
    for (uint64_t k = 0; k < m.ntiles && !rc; k++) {
      if (k && !tile_cmp(&m.tiles[k - 1], &m.tiles[k]))
        rc = cli_fail(ctx, "tile (%" PRId32 ", %" PRId32 ", %" PRId32 ") is listed twice",
                      m.tiles[k].x, m.tiles[k].z, m.tiles[k].layer);
      else
        rc = add_one(ctx, &m, &m.tiles[k], mesh);
    }
  }
  if (!rc) {
    printf("merged: %" PRIu32 " parts, %" PRIu64 " tiles, %" PRIu64 " slots, grid %" PRId32
           " x %" PRId32 "\n", m.nparts, m.ntiles, slots, m.parts[0].ntx, m.parts[0].ntz);
    rc = cli_report_mesh(ctx, mesh, &outs, cli_now() - t0);
  }
  op_mesh_free(mesh);
  free(m.parts);
  free(m.tiles);
  free(dirs);
  return rc;
}
