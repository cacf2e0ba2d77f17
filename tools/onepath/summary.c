/*
** summary.c -- what the onepath tool prints about a mesh (docs/cli.md, `build` and
** `info`): counts of tiles, distinct layer numbers (FMT-002, RT-080 .. RT-086), polygons,
** vertices, detail triangles and off-mesh links; tile positions; the "tiles hash" of the
** tile list (x, z, layer and content id, FMT-050); the walkable area and world bounds
** (FMT-005 tile origins); and report_mesh, which also writes the mesh (MESH-040), its
** snapshot (spec/navmesh-snapshot.md) and its tiles (FMT-040).
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* World x0, z0 of a tile (FMT-005). */
void cli_tile_world_origin(const op_tile_desc *v, double *x0, double *z0) {
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
static void summarize_layers(tile_key *keys, uint32_t n, cli_summary *s) {
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

void cli_summarize(const op_tile *const *tiles, uint32_t n, cli_summary *s) {
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
    cli_tile_world_origin(&v, &x0, &z0);
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

void cli_print_summary(FILE *f, const cli_summary *s) {
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


/* --tiles DIR: DIR/tile_X_Z_L.optl, the tile's own bytes (FMT-040), in slot order. */
static int write_tiles(cli_ctx *ctx, const cli_mesh *l, const char *dir) {
  /* DIR is created when missing (its parent must exist) */
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    return cli_fail(ctx, "cannot create the directory '%s': %s", dir, strerror(errno));
  for (uint32_t t = 0; t < l->ntiles; t++) {
    op_tile_desc v;
    op_tile_view(l->tiles[t], &v);
    op_bytes tb = {NULL, 0};
    op_error e;
    char path[4096];
    snprintf(path, sizeof path, "%s/tile_%" PRId32 "_%" PRId32 "_%" PRId32 ".optl", dir, v.x,
             v.z, v.layer);
    int rc = 0;
    if (op_tile_save(l->tiles[t], &tb, &e)) rc = cli_fail_op(ctx, "tile", &e);
    else if (cli_write_file(ctx, path, tb.data, tb.len)) rc = CLI_EXIT_FAIL;
    op_bytes_free(&tb);
    if (rc) return rc;
  }
  if (l->ntiles) printf("tiles: %" PRIu32 " tile files written to %s\n", l->ntiles, dir);
  return 0;
}

int cli_report_mesh(cli_ctx *ctx, const op_mesh *m, const cli_outputs *o, double seconds) {
  const char *out = o->mesh;
  op_bytes b = {NULL, 0};
  op_error e;
  if (op_mesh_save(m, &b, &e)) return cli_fail_op(ctx, "serializing the mesh", &e);
  int rc = 0;
  if (out && cli_write_file(ctx, out, b.data, b.len)) rc = CLI_EXIT_FAIL;
  cli_mesh l;
  memset(&l, 0, sizeof l);
  if (!rc && cli_mesh_view(ctx, m, "mesh", &l)) rc = CLI_EXIT_FAIL;
  if (!rc && o->snapshot) {
    op_bytes sb = {NULL, 0};
    if (op_mesh_snapshot_save(m, &sb, &e)) rc = cli_fail_op(ctx, "snapshot", &e);
    else if (cli_write_file(ctx, o->snapshot, sb.data, sb.len)) rc = CLI_EXIT_FAIL;
    else printf("snapshot: %zu bytes, hash %016" PRIx64 ", written to %s\n", sb.len,
                op_hash64(sb.data, sb.len), o->snapshot);
    op_bytes_free(&sb);
  }
  if (!rc && o->tiles) rc = write_tiles(ctx, &l, o->tiles);
  if (!rc) {
    cli_summary s;
    cli_summarize(l.tiles, l.ntiles, &s);
    printf("hash: %016" PRIx64 "\n", op_hash64(b.data, b.len));
    printf("bytes: %zu%s%s\n", b.len, out ? "  written to " : "", out ? out : "");
    cli_print_summary(stdout, &s);
    printf("build time: %.3f s\n", seconds);
  }
  cli_mesh_free(&l);
  op_bytes_free(&b);
  return rc;
}
