/*
** test_mesh_load.c -- unit tests of TiledNavMesh.Deserialize (spec/navmesh-mesh.md section 9,
** MESH-067 .. MESH-070) and of opening a snapshot without its parameters
** (spec/navmesh-snapshot.md SNAP-025, SNAP-026).
**
** Tiles are strip tiles of fixtures3d.h on fx_tiling(0.5), every outer edge a portal.
*/
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "navmesh/mesh_internal.h"
#include "optest.h"

static uint32_t rnd(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}

static op_tile *strip(int x, int z, int layer, double oy, int n) {
  static const float cuts[4] = {0.0f, 1.0f, 2.5f, 4.0f};
  return fx_strip_tile(x, z, layer, oy, n, n == 1 ? (const float[]){0.0f, 4.0f} : cuts, 0.0f,
                       0.0f, 0.0f, 0.5);
}

/* A mesh of a random history of n steps (add, remove, replace, edits). */
static op_mesh *history(uint64_t seed, int n) {
  op_mesh *m = fx_mesh(0.5, 12);
  uint64_t s = seed;
  op_error e;
  for (int i = 0; i < n; i++) {
    int x = (int)(rnd(&s) % 3), z = (int)(rnd(&s) % 3), layer = (int)(rnd(&s) % 2);
    double oy = 0.25 * (double)(rnd(&s) % 3);
    int np = rnd(&s) % 2 ? 3 : 1;
    op_ref r = 0;
    switch (rnd(&s) % 4) {
    case 0:
    case 1: {
      op_tile *t = strip(x, z, layer, oy, np);
      if (op_mesh_add_tile(m, t, &r, &e)) op_mesh_replace_tile(m, t, &r, &e);
      op_tile_free(t);
      break;
    }
    case 2:
      op_mesh_remove_tile(m, x, z, layer, &e);
      break;
    default:
      if (op_mesh_poly_ref(m, x, z, layer, 0, &r, NULL) == OP_OK) {
        op_mesh_set_poly_flags(m, r, (uint16_t)rnd(&s), &e);
        op_mesh_set_poly_area(m, r, (uint8_t)(rnd(&s) % 64), &e);
      }
    }
  }
  return m;
}

/* MESH-070, SNAP-026: save(load(b)) == b and snapshot(open(s)) == s on random histories. */
OPT_TEST(random_round_trip, "MESH-070") {
  int ok = 1, opened = 1, nonempty = 0;
  for (uint64_t seed = 1; seed <= 60; seed++) {
    op_mesh *m = history(seed, (int)(seed % 25));
    op_bytes b = fx_mesh_bytes(m), s = fx_mesh_snapshot(m);
    nonempty += op_mesh_tile_count(m) > 1;
    op_mesh *l = NULL, *o = NULL;
    op_error e;
    if (op_mesh_load(b.data, b.len, &l, &e) != OP_OK) {
      fprintf(stderr, "  seed %llu: %s\n", (unsigned long long)seed, e.message);
      ok = 0;
    } else {
      op_bytes b2 = fx_mesh_bytes(l);
      ok &= fx_same(&b, &b2);
      op_bytes_free(&b2);
    }
    if (op_mesh_snapshot_open(s.data, s.len, &o, &e) != OP_OK) {
      opened = 0;
    } else {
      op_bytes s2 = fx_mesh_snapshot(o), b3 = fx_mesh_bytes(o);
      opened &= fx_same(&s, &s2) && fx_same(&b, &b3);
      op_bytes_free(&s2);
      op_bytes_free(&b3);
    }
    op_mesh_free(l);
    op_mesh_free(o);
    op_mesh_free(m);
    op_bytes_free(&b);
    op_bytes_free(&s);
  }
  OPT_CHECK(ok);
  OPT_CHECK(opened);
  OPT_CHECK(nonempty > 20);
}

/* MESH-068, MESH-070: every truncation is a format error and makes no mesh. */
OPT_TEST(truncation, "MESH-068") {
  op_mesh *m = history(7, 20);
  op_bytes b = fx_mesh_bytes(m);
  int all = 1;
  for (size_t len = 0; len < b.len; len++) {
    op_mesh *l = (op_mesh *)&all; /* overwritten with NULL */
    op_error e;
    all &= op_mesh_load(b.data, len, &l, &e) == OP_E_FORMAT && l == NULL;
  }
  OPT_CHECK(all);
  op_bytes_free(&b);
  op_mesh_free(m);
}

/* MESH-070: any corrupted byte either fails (format, no mesh) or loads a mesh whose bytes are
** exactly the corrupted ones. */
OPT_TEST(corruption, "MESH-070") {
  op_mesh *m = history(11, 24);
  op_bytes b = fx_mesh_bytes(m);
  uint8_t *c = malloc(b.len);
  int all = 1;
  static const uint8_t pat[3] = {0x01, 0x80, 0xff};
  for (size_t i = 0; i < b.len; i++) {
    for (int k = 0; k < 3; k++) {
      memcpy(c, b.data, b.len);
      c[i] ^= pat[k];
      op_mesh *l = NULL;
      op_error e;
      op_status st = op_mesh_load(c, b.len, &l, &e);
      if (st) {
        all &= st == OP_E_FORMAT && l == NULL;
      } else {
        op_bytes r = fx_mesh_bytes(l);
        all &= r.len == b.len && memcmp(r.data, c, b.len) == 0;
        op_bytes_free(&r);
        op_mesh_free(l);
      }
    }
  }
  OPT_CHECK(all);
  free(c);
  op_bytes_free(&b);
  op_mesh_free(m);
}

static int fails(const uint8_t *d, size_t n, const char *field, const char *value) {
  op_mesh *l = NULL;
  op_error e;
  op_status st = op_mesh_load(d, n, &l, &e);
  int ok = st == OP_E_FORMAT && l == NULL && !strcmp(e.field, field) &&
           (!value || !strcmp(e.value, value));
  if (!ok) fprintf(stderr, "  want %s=%s, got %s %s=%s\n", field, value ? value : "*",
                   op_status_name(st), e.field, e.value);
  op_mesh_free(l);
  return ok;
}

static void put_u32(uint8_t *p, uint32_t v) {
  for (int k = 0; k < 4; k++) p[k] = (uint8_t)(v >> (8 * k));
}

/* MESH-067: the parameter block's checks, in order, as format errors `params.*`. */
OPT_TEST(param_block, "MESH-067") {
  op_mesh *m = fx_mesh(0.5, 4);
  op_bytes b = fx_mesh_bytes(m);
  uint8_t *c = malloc(b.len);
  const uint64_t negz = 0x8000000000000000ull;
  memcpy(c, b.data, b.len);
  memcpy(c + 16, &negz, 8); /* origin[1] = -0.0 */
  OPT_CHECK(fails(c, b.len, "params.tiling.origin[1]", "-0"));
  c[52] = 13; /* and max_verts_per_poly 13: MESH-002's checks come first */
  OPT_CHECK(fails(c, b.len, "params.tiling.max_verts_per_poly", "13"));
  memcpy(c, b.data, b.len);
  put_u32(c + 64, (1u << 22) + 1);
  OPT_CHECK(fails(c, b.len, "params.max_tiles", "4194305"));
  memcpy(c, b.data, b.len);
  memcpy(c + 56, &negz, 8);
  OPT_CHECK(fails(c, b.len, "params.walkable_climb", "-0"));
  memcpy(c, b.data, b.len);
  put_u32(c + 68, 5);
  OPT_CHECK(fails(c, b.len, "ntiles", "5"));
  OPT_CHECK(fails(c, 70, "ntiles", "70"));
  OPT_CHECK(fails(c, 30, "params", "30"));
  c[0] = 'X';
  OPT_CHECK(fails(c, b.len, "magic", "58504d53"));
  free(c);
  op_bytes_free(&b);
  op_mesh_free(m);
}

/* MESH-068, MESH-069: records and links; the first differing link field is named. */
OPT_TEST(link_fields, "MESH-069") {
  op_mesh *m = fx_mesh(0.5, 4);
  op_error e;
  op_ref r;
  op_tile *a = strip(0, 0, 0, 0.0, 3), *t = strip(1, 0, 0, 0.25, 1);
  op_mesh_add_tile(m, a, &r, &e);
  op_mesh_add_tile(m, t, &r, &e);
  op_tile_free(a);
  op_tile_free(t);
  op_bytes b = fx_mesh_bytes(m);
  uint32_t tl = opc_rd_u32(b.data + 92);
  size_t ne_at = 96 + tl, nl_at = ne_at + 4, l0 = nl_at + 4;
  uint32_t nl = opc_rd_u32(b.data + nl_at);
  OPT_CHECK(opc_rd_u32(b.data + ne_at) == 0 && nl >= 3);
  uint8_t *c = malloc(b.len);
  memcpy(c, b.data, b.len);
  c[l0 + 4] ^= 1; /* links[0].edge */
  char want[32];
  snprintf(want, sizeof want, "%u", (unsigned)c[l0 + 4]);
  OPT_CHECK(fails(c, b.len, "tiles[0].links[0].edge", want));
  memcpy(c, b.data, b.len);
  c[l0 + 24 + 6] ^= 1; /* links[1].target_edge */
  OPT_CHECK(fails(c, b.len, "tiles[0].links[1].target_edge", NULL));
  memcpy(c, b.data, b.len);
  c[l0 + 24 * 2 + 20 + 3] ^= 0x80; /* links[2].hi: sign flipped */
  OPT_CHECK(fails(c, b.len, "tiles[0].links[2].hi", NULL));
  memcpy(c, b.data, b.len);
  c[l0 + 7] = 9;
  OPT_CHECK(fails(c, b.len, "tiles[0].links[0].pad", "9"));
  memcpy(c, b.data, b.len);
  put_u32(c + 76, 1u << 22); /* generation 2^22 */
  OPT_CHECK(fails(c, b.len, "tiles[0].generation", "4194304"));
  memcpy(c, b.data, b.len);
  put_u32(c + 84, 7); /* z differs from the tile's */
  OPT_CHECK(fails(c, b.len, "tiles[0].z", "7"));
  memcpy(c, b.data, b.len);
  put_u32(c + ne_at, 4); /* more edits than polygons */
  OPT_CHECK(fails(c, b.len, "tiles[0].nedits", "4"));
  OPT_CHECK(fails(b.data, l0 + 10, "tiles[0].links[0]", NULL));
  /* a link count one too high with an extra copy of the last link: all held links match,
  ** then the count differs */
  uint8_t *d = malloc(b.len + 24);
  size_t end0 = l0 + 24 * (size_t)nl;
  memcpy(d, b.data, end0);
  memcpy(d + end0, b.data + end0 - 24, 24);
  memcpy(d + end0 + 24, b.data + end0, b.len - end0);
  put_u32(d + nl_at, nl + 1);
  snprintf(want, sizeof want, "%u", nl + 1);
  OPT_CHECK(fails(d, b.len + 24, "tiles[0].nlinks", want));
  uint8_t *g = malloc(b.len + 1);
  memcpy(g, b.data, b.len);
  g[b.len] = 0;
  snprintf(want, sizeof want, "%zu", b.len + 1);
  OPT_CHECK(fails(g, b.len + 1, "length", want));
  free(g);
  free(d);
  free(c);
  op_bytes_free(&b);
  op_mesh_free(m);
}

/* MESH-070: the loaded mesh's empty slots have generation 1 (the bytes hold none); C argument
** checks. */
OPT_TEST(empty_slots_generation_one, "MESH-070") {
  op_mesh *m = fx_mesh(0.5, 4);
  op_error e;
  op_ref r;
  op_tile *a = strip(0, 0, 0, 0.0, 1), *t = strip(2, 2, 0, 0.0, 1);
  op_mesh_add_tile(m, a, &r, &e);
  op_mesh_add_tile(m, t, &r, &e);
  op_mesh_remove_tile(m, 0, 0, 0, &e); /* slot 0 empty at generation 2 */
  op_bytes b = fx_mesh_bytes(m);
  op_mesh *l = NULL;
  OPT_CHECK(op_mesh_load(b.data, b.len, &l, &e) == OP_OK);
  OPT_CHECK(op_mesh_add_tile(l, a, &r, &e) == OP_OK && r == opm_make_ref(1, 0, 0));
  OPT_CHECK(op_mesh_add_tile(m, a, &r, &e) == OP_OK && r == opm_make_ref(2, 0, 0));
  OPT_CHECK(op_mesh_load(b.data, b.len, NULL, &e) == OP_E_ARGUMENT && !strcmp(e.field, "out"));
  op_mesh *x = l;
  OPT_CHECK(op_mesh_load(NULL, 5, &x, &e) == OP_E_ARGUMENT && !strcmp(e.field, "data") && !x);
  op_tile_free(a);
  op_tile_free(t);
  op_mesh_free(l);
  op_bytes_free(&b);
  op_mesh_free(m);
}

/* SNAP-025: the parameters of a snapshot, with the header's checks only. */
OPT_TEST(snapshot_params, "SNAP-025") {
  op_mesh *m = history(5, 12);
  op_bytes s = fx_mesh_snapshot(m);
  op_mesh_params p, want;
  op_mesh_get_params(m, &want);
  op_error e;
  OPT_CHECK(op_mesh_snapshot_params(s.data, s.len, &p, &e) == OP_OK);
  OPT_CHECK(!memcmp(&p.tiling, &want.tiling, sizeof p.tiling) &&
            p.walkable_climb == want.walkable_climb && p.max_tiles == want.max_tiles);
  OPT_CHECK(op_mesh_snapshot_params(s.data, 68, &p, &e) == OP_OK); /* nothing after params */
  OPT_CHECK(op_mesh_snapshot_params(s.data, 67, &p, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "params") && !strcmp(e.value, "67"));
  uint8_t *c = malloc(s.len);
  memcpy(c, s.data, s.len);
  c[4] = 3;
  OPT_CHECK(op_mesh_snapshot_params(c, s.len, &p, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "version") && !strcmp(e.value, "3"));
  memcpy(c, s.data, s.len);
  put_u32(c + 48, 0);
  OPT_CHECK(op_mesh_snapshot_params(c, s.len, &p, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "params.tiling.tile_cells") && !strcmp(e.value, "0"));
  c[0] = 'O', c[1] = 'P', c[2] = 'M', c[3] = 'S';
  OPT_CHECK(op_mesh_snapshot_params(c, s.len, &p, &e) == OP_E_FORMAT &&
            !strcmp(e.field, "magic") && !strcmp(e.value, "4f504d53"));
  OPT_CHECK(op_mesh_snapshot_params(s.data, s.len, NULL, &e) == OP_E_ARGUMENT);
  free(c);
  op_bytes_free(&s);
  op_mesh_free(m);
}

/* SNAP-026: open = params + create + load; a second section fails as RestoreState does. */
OPT_TEST(snapshot_open, "SNAP-026") {
  op_mesh *m = history(9, 16);
  op_bytes s = fx_mesh_snapshot(m);
  uint8_t *c = malloc(s.len + 16);
  memcpy(c, s.data, s.len);
  put_u32(c + 68, 2);
  memcpy(c + s.len, "TCAC", 4);
  put_u32(c + s.len + 4, 1);
  memset(c + s.len + 8, 0, 8);
  op_mesh *o = (op_mesh *)c;
  op_error e;
  OPT_CHECK(op_mesh_snapshot_open(c, s.len + 16, &o, &e) == OP_E_FORMAT && o == NULL &&
            !strcmp(e.field, "sections[1].tag") && !strcmp(e.value, "1128350548"));
  int all = 1;
  for (size_t len = 0; len < s.len; len++) {
    o = (op_mesh *)c;
    all &= op_mesh_snapshot_open(s.data, len, &o, &e) == OP_E_FORMAT && o == NULL;
  }
  OPT_CHECK(all);
  /* the same errors as a load into a mesh made with the snapshot's parameters */
  memcpy(c, s.data, s.len);
  c[s.len - 1] ^= 0x40;
  op_mesh_params p;
  op_mesh *n = NULL;
  op_error e2;
  OPT_CHECK(op_mesh_snapshot_params(c, s.len, &p, &e) == OP_OK &&
            op_mesh_create(&p, &n, &e) == OP_OK);
  op_status s1 = op_mesh_snapshot_open(c, s.len, &o, &e);
  op_status s2 = op_mesh_snapshot_load(n, c, s.len, &e2);
  OPT_CHECK(s1 == s2 && !strcmp(e.field, e2.field) && !strcmp(e.value, e2.value));
  op_mesh_free(o);
  op_mesh_free(n);
  free(c);
  op_bytes_free(&s);
  op_mesh_free(m);
}

OPT_MAIN_BEGIN
OPT_RUN(random_round_trip);
OPT_RUN(truncation);
OPT_RUN(corruption);
OPT_RUN(param_block);
OPT_RUN(link_fields);
OPT_RUN(empty_slots_generation_one);
OPT_RUN(snapshot_params);
OPT_RUN(snapshot_open);
OPT_MAIN_END
