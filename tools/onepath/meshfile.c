/*
** meshfile.c -- mesh, tile and snapshot files of the onepath tool (docs/cli.md: info,
** hash --parts, svg --mesh) and live meshes, as a list of tiles in slot order.
**
** A mesh's tiles, links and edits are read through the library's mesh readers
** (op_mesh_tile_count, op_mesh_tile_at_index, op_mesh_tile_links, op_mesh_get_poly;
** spec/navmesh-mesh.md MESH-060 .. MESH-066). The files are loaded by the library too:
** a tile by op_tile_load (FMT-040), a snapshot by op_mesh_snapshot_load
** (spec/navmesh-snapshot.md) into a mesh made with the snapshot's parameter block
** (SNAP-006). The library has no reader of a whole-mesh serialization (MESH-040 has no
** Deserialize), so a mesh file is framed here, only its counts and lengths (MESH-040 ..
** MESH-043, as port/artifact_mesh.c does for the runner): its tiles are loaded by
** op_tile_load and added to a new mesh with op_mesh_add_tile (the links are the mesh's
** own, MESH-020), its edits set with op_mesh_set_poly_flags / _area (MESH-030, MESH-042).
** The same framing names the parts of `hash --parts` (MESH-044).
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
static double rdf64(const uint8_t *p) {
  uint64_t u = rd64(p);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* The parameter block (bytes 8 .. 67 of MESH-040's header; SNAP-006's `params`). */
static void read_params(const uint8_t *p, op_mesh_params *mp) {
  for (int i = 0; i < 3; i++) mp->tiling.origin[i] = rdf64(p + 8 * i);
  mp->tiling.cell_size = rdf64(p + 24);
  mp->tiling.cell_height = rdf64(p + 32);
  mp->tiling.tile_cells = rd32(p + 40);
  mp->tiling.max_verts_per_poly = rd32(p + 44);
  mp->walkable_climb = rdf64(p + 48);
  mp->max_tiles = rd32(p + 56);
}

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

int cli_mesh_view(const op_mesh *m, const char *kind, cli_mesh *out) {
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
    return cli_fail("out of memory");
  }
  for (uint32_t i = 0; i < n; i++) {
    op_mesh_tile mt;
    op_error e;
    if (op_mesh_tile_at_index(m, i, &mt, &e)) {
      free(st);
      return cli_fail_op("reading the mesh's tiles", &e);
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

int cli_mesh_linked_edges(const cli_mesh *l, uint32_t t, uint8_t *linked) {
  op_tile_desc v;
  op_tile_view(l->tiles[t], &v);
  const op_link *links;
  uint32_t n;
  op_error e;
  if (op_mesh_tile_links(l->mesh, v.x, v.z, v.layer, &links, &n, &e))
    return cli_fail_op("reading the tile's links", &e);
  for (uint32_t k = 0; k < n; k++)
    if (links[k].side != OP_LINK_INTERNAL && links[k].poly < v.npolys &&
        links[k].edge < OP_MAX_VERTS_PER_POLY)
      linked[(size_t)links[k].poly * OP_MAX_VERTS_PER_POLY + links[k].edge] = 1;
  return 0;
}

/* ---------------------------------------------- framing a mesh serialization */

/* One tile record (MESH-041): its byte range (a part of MESH-044) and its fields. */
typedef struct record {
  uint32_t index;
  size_t off, len;
  int32_t x, z, layer;
  const uint8_t *tile;
  uint32_t tile_len;
  const uint8_t *edits; /* nedits records of 8 bytes (MESH-042) */
  uint32_t nedits;
} record;

typedef int (*record_fn)(void *ud, const record *r);

/* The counts and lengths of one record at *at (checked against n); 0 or reported. */
static int frame_record(const uint8_t *d, size_t n, size_t *at, const char *path, record *r) {
  size_t a = *at;
  uint32_t t = r->index;
  r->off = a;
  if (n - a < 24) return cli_fail("'%s': tile record %" PRIu32 " is cut short", path, t);
  r->x = (int32_t)rd32(d + a + 8);
  r->z = (int32_t)rd32(d + a + 12);
  r->layer = (int32_t)rd32(d + a + 16);
  r->tile_len = rd32(d + a + 20);
  a += 24;
  if (n - a < r->tile_len) return cli_fail("'%s': tile record %" PRIu32 " is cut short", path, t);
  r->tile = d + a;
  a += r->tile_len;
  if (n - a < 4) return cli_fail("'%s': tile record %" PRIu32 " is cut short", path, t);
  r->nedits = rd32(d + a);
  a += 4;
  if ((n - a) / 8 < r->nedits) return cli_fail("'%s': edits of tile %" PRIu32 " cut short", path, t);
  r->edits = d + a;
  a += (size_t)r->nedits * 8;
  if (n - a < 4) return cli_fail("'%s': tile record %" PRIu32 " is cut short", path, t);
  uint32_t nl = rd32(d + a);
  a += 4;
  if ((n - a) / 24 < nl) return cli_fail("'%s': links of tile %" PRIu32 " cut short", path, t);
  a += (size_t)nl * 24;
  r->len = a - r->off;
  *at = a;
  return 0;
}

/* The header checks of mesh bytes d (MESH-040); 0 or reported. */
static int check_header(const uint8_t *d, size_t n, const char *path) {
  if (n < 72) return cli_fail("'%s': mesh file shorter than its 72-byte header", path);
  if (rd32(d + 4) != 1)
    return cli_fail("'%s': mesh version %" PRIu32 " is not 1", path, rd32(d + 4));
  uint32_t nt = rd32(d + 68);
  if (nt > (n - 72) / 32)
    return cli_fail("'%s': ntiles %" PRIu32 " does not fit the file", path, nt);
  return 0;
}

/* Frames mesh bytes d (MESH-040 .. MESH-043): checks the header, calls fn per record. */
static int mesh_records(const uint8_t *d, size_t n, const char *path, record_fn fn, void *ud) {
  if (check_header(d, n, path)) return CLI_EXIT_FAIL;
  size_t at = 72;
  for (uint32_t t = 0, nt = rd32(d + 68); t < nt; t++) {
    record r;
    memset(&r, 0, sizeof r);
    r.index = t;
    int rc = frame_record(d, n, &at, path, &r);
    if (!rc && fn) rc = fn(ud, &r);
    if (rc) return rc;
  }
  if (at != n) return cli_fail("'%s': %zu bytes after the last tile record", path, n - at);
  return 0;
}

/* Adds the record's tile to the mesh (AddTile) and sets its edits (MESH-030). */
static int add_record(void *ud, const record *r) {
  op_mesh *m = ud;
  op_tile *tile = NULL;
  op_error e;
  op_ref ref;
  char what[64];
  snprintf(what, sizeof what, "reading tile record %" PRIu32, r->index);
  if (op_tile_load(r->tile, r->tile_len, &tile, &e)) return cli_fail_op(what, &e);
  op_status st = op_mesh_add_tile(m, tile, &ref, &e);
  op_tile_free(tile);
  if (st) return cli_fail_op(what, &e);
  for (uint32_t k = 0; k < r->nedits; k++) {
    const uint8_t *ed = r->edits + 8 * (size_t)k;
    if (op_mesh_poly_ref(m, r->x, r->z, r->layer, rd32(ed), &ref, &e) ||
        op_mesh_set_poly_flags(m, ref, (uint16_t)(ed[4] | ed[5] << 8), &e) ||
        op_mesh_set_poly_area(m, ref, ed[6], &e))
      return cli_fail_op(what, &e);
  }
  return 0;
}

static int load_mesh_bytes(const uint8_t *d, size_t n, const char *path, cli_mesh *l) {
  if (check_header(d, n, path)) return CLI_EXIT_FAIL;
  op_mesh_params mp;
  op_mesh *m = NULL;
  op_error e;
  read_params(d + 8, &mp);
  if (op_mesh_create(&mp, &m, &e)) return cli_fail_op("creating the mesh", &e);
  int rc = mesh_records(d, n, path, add_record, m);
  if (!rc) rc = cli_mesh_view(m, "mesh", l);
  l->own_mesh = m;
  return rc;
}

typedef struct parts_out {
  const uint8_t *d;
} parts_out;

static int print_part(void *ud, const record *r) {
  const uint8_t *p = ((const parts_out *)ud)->d + r->off;
  printf("  part %zu %016" PRIx64 " tile %" PRId32 ",%" PRId32 ",%" PRId32 "\n", r->len,
         op_hash64(p, r->len), r->x, r->z, r->layer);
  return 0;
}

int cli_print_mesh_parts(const uint8_t *d, size_t n, const char *path) {
  if (n < 72) return cli_fail("'%s': mesh file shorter than its 72-byte header", path);
  printf("  part %d %016" PRIx64 " header\n", 72, op_hash64(d, 72));
  parts_out po = {d};
  return mesh_records(d, n, path, print_part, &po);
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

static int load_snapshot(uint8_t *d, size_t n, const char *path, cli_mesh *l) {
  tcac_info tc = {0, 0, 0};
  int cut = snapshot_mesh_only(d, &n, &tc);
  if (n < 72) return cli_fail("'%s': snapshot shorter than its header", path);
  op_mesh_params mp;
  op_mesh *m = NULL;
  op_error e;
  read_params(d + 8, &mp);
  if (op_mesh_create(&mp, &m, &e)) return cli_fail_op("creating the mesh of the snapshot", &e);
  int rc = 0;
  if (op_mesh_snapshot_load(m, d, n, &e)) rc = cli_fail_op("reading the snapshot", &e);
  else rc = cli_mesh_view(m, cut ? "tile cache snapshot" : "snapshot", l);
  l->own_mesh = m;
  l->tcac = tc.found;
  l->tc_fingerprint = tc.fingerprint;
  l->tc_nobstacles = tc.nobstacles;
  return rc;
}

static int load_tile(const uint8_t *d, size_t n, cli_mesh *l) {
  op_error e;
  l->kind = "tile";
  l->tiles = calloc(1, sizeof *l->tiles);
  if (!l->tiles) return cli_fail("out of memory");
  if (op_tile_load(d, n, &l->own_tile, &e)) return cli_fail_op("reading the tile", &e);
  l->tiles[0] = l->own_tile;
  l->ntiles = 1;
  op_tile_desc v;
  op_tile_view(l->own_tile, &v);
  l->params.tiling = v.tiling;
  return 0;
}

int cli_mesh_load(const char *path, cli_mesh *l) {
  memset(l, 0, sizeof *l);
  uint8_t *d;
  size_t n;
  if (cli_read_file(path, &d, &n)) return CLI_EXIT_FAIL;
  int rc;
  if (n >= 4 && !memcmp(d, "OPMS", 4)) rc = load_mesh_bytes(d, n, path, l);
  else if (n >= 4 && !memcmp(d, "OPTL", 4)) rc = load_tile(d, n, l);
  else if (n >= 4 && !memcmp(d, "OPSN", 4)) rc = load_snapshot(d, n, path, l);
  else rc = cli_fail("'%s' is not a mesh (OPMS), tile (OPTL) or snapshot (OPSN) file", path);
  free(d);
  if (rc) cli_mesh_free(l);
  return rc ? CLI_EXIT_FAIL : 0;
}
