/*
** meshfile.c -- mesh, tile and snapshot files of the onepath tool (docs/cli.md: info,
** hash --parts, svg --mesh) and live meshes, as a list of tiles in slot order.
**
** A mesh's tiles, links and edits are read through the library's mesh readers
** (op_mesh_tile_count, op_mesh_tile_at_index, op_mesh_tile_links, op_mesh_get_poly;
** spec/navmesh-mesh.md MESH-060 .. MESH-066). The files are loaded by the library: a tile by
** op_tile_load (FMT-040), a mesh file by op_mesh_load (MESH-067 .. MESH-070), a snapshot by
** op_mesh_snapshot_open (spec/navmesh-snapshot.md SNAP-026), which need no parameters
** first. The parts of `hash --parts` (MESH-044) need no framing: op_mesh_load has checked
** that the bytes are op_mesh_save's, so each record's length follows from the loaded mesh
** (24 + tile bytes + 4 + 8 per edit + 4 + 24 per link, MESH-041 .. MESH-043).
**
** Read by hand, the one piece left: a tile cache snapshot (SNAP-016) is shown as the mesh
** snapshot of its SLOT section, so snapshot_mesh_only walks the section headers (SNAP-005),
** cuts the TCAC section out and keeps its fingerprint and obstacle count for `info`; no
** library call reads a TCAC section without the tile cache it was saved from.
*/
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* ---------------------------------------------------------- live meshes */

typedef struct slot_tile {
  uint32_t slot;
  const op_tile *tile;
} slot_tile;

static int slot_cmp(const void *pa, const void *pb) {
  const slot_tile *a = pa, *b = pb;
  return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* MESH-031 / MESH-042: polygons of tile mt whose current flags or area differ from the
** tile's own. */
static uint32_t count_edits(const op_mesh *m, const op_mesh_tile *mt) {
  op_tile_desc v;
  op_tile_view(mt->tile, &v);
  uint32_t n = 0;
  for (uint32_t p = 0; p < v.npolys; p++) {
    op_ref ref;
    uint16_t flags;
    uint8_t area;
    if (op_mesh_poly_ref(m, mt->x, mt->z, mt->layer, p, &ref, NULL) == OP_OK &&
        op_mesh_get_poly(m, ref, &flags, &area, NULL) == OP_OK &&
        (flags != v.polys[p].flags || area != v.polys[p].area))
      n++;
  }
  return n;
}

int cli_mesh_view(cli_ctx *ctx, const op_mesh *m, const char *kind, cli_mesh *out) {
  memset(out, 0, sizeof *out);
  out->kind = kind;
  out->has_params = 1;
  out->mesh = m;
  op_mesh_get_params(m, &out->params);
  uint32_t n = op_mesh_tile_count(m);
  slot_tile *st = malloc((size_t)n * sizeof *st + 1);
  out->tiles = malloc((size_t)n * sizeof *out->tiles + 1);
  if (!st || !out->tiles) {
    free(st);
    return cli_fail(ctx, "out of memory");
  }
  for (uint32_t i = 0; i < n; i++) {
    op_mesh_tile mt;
    op_error e;
    if (op_mesh_tile_at_index(m, i, &mt, &e)) {
      free(st);
      return cli_fail_op(ctx, "reading the mesh's tiles", &e);
    }
    st[i].slot = mt.slot;
    st[i].tile = mt.tile;
    out->nlinks += mt.nlinks;
    out->nedits += count_edits(m, &mt);
  }
  /* the serialization's order (MESH-040: ascending slot), which the pictures follow */
  qsort(st, n, sizeof *st, slot_cmp);
  for (uint32_t i = 0; i < n; i++) out->tiles[i] = st[i].tile;
  out->ntiles = n;
  free(st);
  return 0;
}

void cli_mesh_free(cli_mesh *l) {
  free(l->tiles);
  op_mesh_free(l->own_mesh);
  op_tile_free(l->own_tile);
  memset(l, 0, sizeof *l);
}

int cli_mesh_linked_edges(cli_ctx *ctx, const cli_mesh *l, uint32_t t, uint8_t *linked) {
  op_tile_desc v;
  op_tile_view(l->tiles[t], &v);
  const op_link *links;
  uint32_t n;
  op_error e;
  if (op_mesh_tile_links(l->mesh, v.x, v.z, v.layer, &links, &n, &e))
    return cli_fail_op(ctx, "reading the tile's links", &e);
  for (uint32_t k = 0; k < n; k++)
    if (links[k].side != OP_LINK_INTERNAL && links[k].poly < v.npolys &&
        links[k].edge < OP_MAX_VERTS_PER_POLY)
      linked[(size_t)links[k].poly * OP_MAX_VERTS_PER_POLY + links[k].edge] = 1;
  return 0;
}

/* ------------------------------------------------ parts of a mesh serialization */

/* One tile record's place (MESH-041 .. MESH-043), from the loaded mesh's readers. */
typedef struct record {
  uint32_t slot;
  int32_t x, z, layer;
  size_t len; /* 24 + tile bytes + 4 + 8 * edits + 4 + 24 * links */
} record;

static int record_cmp(const void *pa, const void *pb) {
  const record *a = pa, *b = pb;
  return a->slot < b->slot ? -1 : a->slot > b->slot;
}

int cli_print_mesh_parts(cli_ctx *ctx, const uint8_t *d, size_t n, const char *path) {
  op_mesh *m = NULL;
  op_error e;
  (void)path;
  if (op_mesh_load(d, n, &m, &e)) /* MESH-068: d is then exactly op_mesh_save of m */
    return cli_fail_op(ctx, "reading the mesh", &e);
  uint32_t nt = op_mesh_tile_count(m);
  record *r = malloc((size_t)nt * sizeof *r + 1);
  int rc = r ? 0 : cli_fail(ctx, "out of memory");
  for (uint32_t i = 0; i < nt && !rc; i++) {
    op_mesh_tile mt;
    op_bytes tb = {NULL, 0};
    if (op_mesh_tile_at_index(m, i, &mt, &e) || op_tile_save(mt.tile, &tb, &e)) {
      rc = cli_fail_op(ctx, "reading the mesh's tiles", &e);
      break;
    }
    r[i].slot = mt.slot;
    r[i].x = mt.x;
    r[i].z = mt.z;
    r[i].layer = mt.layer;
    r[i].len = 24 + tb.len + 4 + 8 * (size_t)count_edits(m, &mt) + 4 + 24 * (size_t)mt.nlinks;
    op_bytes_free(&tb);
  }
  if (!rc) {
    qsort(r, nt, sizeof *r, record_cmp); /* MESH-040: records in ascending slot order */
    printf("  part %d %016" PRIx64 " header\n", 72, op_hash64(d, 72)); /* MESH-044 */
    size_t at = 72;
    for (uint32_t i = 0; i < nt; i++) {
      printf("  part %zu %016" PRIx64 " tile %" PRId32 ",%" PRId32 ",%" PRId32 "\n", r[i].len,
             op_hash64(d + at, r[i].len), r[i].x, r[i].z, r[i].layer);
      at += r[i].len;
    }
  }
  free(r);
  op_mesh_free(m);
  return rc;
}

/* ---------------------------------------------------------------- files */

/* The TCAC section of a tile cache snapshot (SNAP-016, SNAP-017). */
typedef struct tcac_info {
  int found;
  uint64_t fingerprint;
  uint32_t nobstacles;
} tcac_info;

/* A tile cache snapshot (SNAP-016: sections SLOT and TCAC) is read as the mesh snapshot of
** its SLOT section: the TCAC section is cut out of d (in place, *n shrinks) and its
** fingerprint and live obstacle count kept in tc. Returns 1 when it cut one. */
static int snapshot_mesh_only(uint8_t *d, size_t *n, tcac_info *tc) {
  if (*n < 72 || rd32(d + 68) < 2) return 0;
  size_t at = 72;
  for (uint32_t k = 0, ns = rd32(d + 68); k < ns; k++) {
    if (*n - at < 16) return 0;
    uint64_t len = rd64(d + at + 8);
    if (len > *n - at - 16) return 0;
    if (!memcmp(d + at, "TCAC", 4)) {
      if (len >= 20) {
        tc->found = 1;
        tc->fingerprint = rd64(d + at + 16);
        tc->nobstacles = rd32(d + at + 16 + 16);
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

static int load_mesh_bytes(cli_ctx *ctx, const uint8_t *d, size_t n, cli_mesh *l) {
  op_error e;
  op_mesh *m = NULL;
  if (op_mesh_load(d, n, &m, &e)) /* MESH-068 */
    return cli_fail_op(ctx, "reading the mesh", &e);
  int rc = cli_mesh_view(ctx, m, "mesh", l); /* zeroes *l first */
  l->own_mesh = m;
  return rc;
}

static int load_snapshot(cli_ctx *ctx, uint8_t *d, size_t n, cli_mesh *l) {
  tcac_info tc = {0, 0, 0};
  int cut = snapshot_mesh_only(d, &n, &tc);
  op_mesh *m = NULL;
  op_error e;
  int rc = 0;
  if (op_mesh_snapshot_open(d, n, &m, &e)) rc = cli_fail_op(ctx,
      "reading the snapshot", &e); /* SNAP-026 */
  else rc = cli_mesh_view(ctx, m, cut ? "tile cache snapshot" : "snapshot", l);
  l->own_mesh = m;
  l->tcac = tc.found;
  l->tc_fingerprint = tc.fingerprint;
  l->tc_nobstacles = tc.nobstacles;
  return rc;
}

static int load_tile(cli_ctx *ctx, const uint8_t *d, size_t n, cli_mesh *l) {
  op_error e;
  l->kind = "tile";
  l->tiles = calloc(1, sizeof *l->tiles);
  if (!l->tiles) return cli_fail(ctx, "out of memory");
  if (op_tile_load(d, n, &l->own_tile, &e)) return cli_fail_op(ctx, "reading the tile", &e);
  l->tiles[0] = l->own_tile;
  l->ntiles = 1;
  op_tile_desc v;
  op_tile_view(l->own_tile, &v);
  l->params.tiling = v.tiling;
  return 0;
}

int cli_mesh_load(cli_ctx *ctx, const char *path, cli_mesh *l) {
  memset(l, 0, sizeof *l);
  uint8_t *d;
  size_t n;
  if (cli_read_file(ctx, path, &d, &n)) return CLI_EXIT_FAIL;
  int rc;
  if (n >= 4 && !memcmp(d, "OPMS", 4)) rc = load_mesh_bytes(ctx, d, n, l);
  else if (n >= 4 && !memcmp(d, "OPTL", 4)) rc = load_tile(ctx, d, n, l);
  else if (n >= 4 && !memcmp(d, "OPSN", 4)) rc = load_snapshot(ctx, d, n, l);
  else rc = cli_fail(ctx, "'%s' is not a mesh (OPMS), tile (OPTL) or snapshot (OPSN) file", path);
  free(d);
  if (rc) cli_mesh_free(l);
  return rc ? CLI_EXIT_FAIL : 0;
}
