/*
** test_mesh_read.c -- unit tests of the mesh readers (spec/navmesh-mesh.md, "Reading a mesh",
** MESH-060..MESH-066): canonical tile order whatever the history, links equal to what
** op_mesh_save's bytes say (MESH-043) and to the mesh's own arrays, every reader's errors
** with their fields, stale references after ReplaceTile and RemoveTile, a tile cache's mesh.
**
** Tiles are the strip tiles of test_mesh.c (tests/fixtures3d.h): 4 x 4 cells on the tiling
** origin, strips across z, portals on all four sides, so neighbours link.
*/
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "navmesh/mesh_internal.h"
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
#include "optest.h"

static const float CUT1[2] = {0.0f, 4.0f};
static const float CUT2[3] = {0.0f, 1.0f, 4.0f};
static const float CUT3[4] = {0.0f, 1.0f, 2.5f, 4.0f};

static op_tile *strip(int x, int z, int layer, int n) {
  const float *cuts = n == 1 ? CUT1 : n == 2 ? CUT2 : CUT3;
  return fx_strip_tile(x, z, layer, 0.0, n, cuts, 0.0f, 0.0f, 0.0f, 0.5);
}

static int add(op_mesh *m, int x, int z, int layer, int n) {
  op_tile *t = strip(x, z, layer, n);
  op_error e;
  int ok = t && op_mesh_add_tile(m, t, NULL, &e) == OP_OK;
  op_tile_free(t);
  return ok;
}

/* The tiles of the order tests: three columns with two layers, gaps, negative coordinates. */
typedef struct pos {
  int x, z, layer, n;
} pos;
static const pos TILES[10] = {{0, 0, 0, 2}, {1, 0, 0, 1}, {0, 1, 0, 3}, {1, 1, 0, 2},
                              {1, 1, 1, 1}, {-1, 0, 0, 2}, {0, -1, 0, 1}, {0, 0, 1, 3},
                              {2, 0, 0, 2}, {-1, 1, 1, 1}};

static int key_less(const op_mesh_tile *a, const op_mesh_tile *b) {
  if (a->x != b->x) return a->x < b->x;
  if (a->z != b->z) return a->z < b->z;
  return a->layer < b->layer;
}

static int has_field(const op_error *e, op_status kind, const char *field, const char *value) {
  return e->kind == kind && !strcmp(e->field, field) && (!value || !strcmp(e->value, value));
}

/* A link with its target named by position and polygon (slots differ between meshes). */
typedef struct named_link {
  uint32_t poly, edge, side, target_edge;
  int32_t tx, tz, tl;
  uint32_t tpoly;
  float lo, hi;
} named_link;

static int name_link(const op_mesh *m, const op_link *l, named_link *out) {
  op_mesh_tile t;
  op_error e;
  if (op_mesh_tile_by_ref(m, l->target, &t, &e) != OP_OK) return 0;
  out->poly = l->poly, out->edge = l->edge, out->side = l->side;
  out->target_edge = l->target_edge;
  out->tx = t.x, out->tz = t.z, out->tl = t.layer;
  out->tpoly = (uint32_t)(l->target - t.base);
  out->lo = l->lo, out->hi = l->hi;
  return 1;
}

/* MESH-060..MESH-066 on one mesh: the order is strictly ascending and has every tile once;
** TileAt and TileByRef agree with TileAtIndex; TileLinks is the mesh's own array and the
** PolyLinks runs, in polygon order, make it up exactly. 1 when all holds. */
static int readers_consistent(const op_mesh *m) {
  op_error e;
  uint32_t n = op_mesh_tile_count(m), occupied = 0;
  for (uint32_t k = 0; k < m->nslots; k++) occupied += m->slots[k].occ != NULL;
  if (n != occupied) return 0;
  op_mesh_tile prev, t, u;
  memset(&prev, 0, sizeof prev);
  for (uint32_t i = 0; i < n; i++) {
    if (op_mesh_tile_at_index(m, i, &t, &e) != OP_OK) return 0;
    if (i > 0 && !key_less(&prev, &t)) return 0; /* MESH-061 */
    const opm_slot *sl = opm_slot_at(m, t.slot);
    if (!sl || !sl->occ || sl->gen != t.generation || sl->occ->tile != t.tile ||
        t.base != opm_make_ref(t.generation, t.slot, 0) || t.npolys != sl->occ->view.npolys ||
        t.nlinks != sl->occ->nlinks)
      return 0;
    if (op_mesh_tile_at(m, t.x, t.z, t.layer, &u, &e) != OP_OK || memcmp(&t, &u, sizeof t))
      return 0;
    for (uint32_t p = 0; p < t.npolys; p++)
      if (op_mesh_tile_by_ref(m, t.base + p, &u, &e) != OP_OK || memcmp(&t, &u, sizeof t))
        return 0;
    const op_link *all;
    uint32_t nall, at = 0;
    if (op_mesh_tile_links(m, t.x, t.z, t.layer, &all, &nall, &e) != OP_OK ||
        all != sl->occ->links || nall != t.nlinks)
      return 0;
    for (uint32_t p = 0; p < t.npolys; p++) { /* MESH-066 */
      const op_link *l;
      uint32_t nl;
      if (op_mesh_poly_links(m, t.base + p, &l, &nl, &e) != OP_OK) return 0;
      if (nl && l != all + at) return 0;
      for (uint32_t k = 0; k < nl; k++)
        if (l[k].poly != p) return 0;
      at += nl;
    }
    if (at != nall) return 0;
    prev = t;
  }
  return op_mesh_tile_at_index(m, n, &t, &e) == OP_E_RANGE; /* MESH-062 */
}

/* MESH-061: the same tiles added in two orders (and with other tiles added and removed in
** between, so slots and generations differ) read the same, tile by tile and link by link. */
OPT_TEST(order_independent_of_history, "MESH-061") {
  op_mesh *a = fx_mesh(0.5, 64), *b = fx_mesh(0.5, 64);
  op_error e;
  int ok = 1;
  for (int i = 0; i < 10; i++) ok &= add(a, TILES[i].x, TILES[i].z, TILES[i].layer, TILES[i].n);
  ok &= add(b, 7, 7, 0, 1) && add(b, 8, 8, 0, 1);
  for (int i = 9; i >= 0; i--) ok &= add(b, TILES[i].x, TILES[i].z, TILES[i].layer, TILES[i].n);
  ok &= op_mesh_remove_tile(b, 7, 7, 0, &e) == OP_OK;
  ok &= op_mesh_remove_tile(b, 8, 8, 0, &e) == OP_OK;
  OPT_CHECK(ok);
  OPT_CHECK(op_mesh_tile_count(a) == 10 && op_mesh_tile_count(b) == 10);
  OPT_CHECK(readers_consistent(a) && readers_consistent(b));
  int same = 1, slots_differ = 0;
  uint32_t links = 0;
  for (uint32_t i = 0; i < 10; i++) {
    op_mesh_tile ta, tb;
    OPT_CHECK(op_mesh_tile_at_index(a, i, &ta, &e) == OP_OK);
    OPT_CHECK(op_mesh_tile_at_index(b, i, &tb, &e) == OP_OK);
    same &= ta.x == tb.x && ta.z == tb.z && ta.layer == tb.layer && ta.npolys == tb.npolys &&
            ta.nlinks == tb.nlinks;
    same &= op_tile_content_id(ta.tile) == op_tile_content_id(tb.tile);
    slots_differ |= ta.slot != tb.slot || ta.generation != tb.generation;
    const op_link *la, *lb;
    uint32_t na, nb;
    OPT_CHECK(op_mesh_tile_links(a, ta.x, ta.z, ta.layer, &la, &na, &e) == OP_OK);
    OPT_CHECK(op_mesh_tile_links(b, tb.x, tb.z, tb.layer, &lb, &nb, &e) == OP_OK);
    same &= na == nb;
    for (uint32_t k = 0; same && k < na; k++) {
      named_link x, y;
      same &= name_link(a, &la[k], &x) && name_link(b, &lb[k], &y);
      same &= !memcmp(&x, &y, sizeof x);
    }
    links += na;
  }
  OPT_CHECK(same && slots_differ && links > 20);
  /* the first tiles in order: x = -1 first, then z, then layer */
  op_mesh_tile t0, t1;
  OPT_CHECK(op_mesh_tile_at_index(a, 0, &t0, &e) == OP_OK && t0.x == -1 && t0.z == 0);
  OPT_CHECK(op_mesh_tile_at_index(a, 1, &t1, &e) == OP_OK && t1.x == -1 && t1.z == 1);
  OPT_CHECK(op_mesh_tile_at_index(a, 9, &t1, &e) == OP_OK && t1.x == 2 && t1.z == 0);
  op_mesh_free(a);
  op_mesh_free(b);
}

/* MESH-065, MESH-043: every tile's links are exactly the link records of its tile record in
** op_mesh_save's bytes (walked here by MESH-040..MESH-043's layout), in the same order. */
static int links_match_bytes(const op_mesh *m) {
  op_bytes b = fx_mesh_bytes(m);
  if (b.len < 72) return 0;
  uint32_t ntiles = opc_rd_u32(b.data + 68);
  size_t o = 72;
  int ok = ntiles == op_mesh_tile_count(m);
  for (uint32_t r = 0; ok && r < ntiles; r++) {
    const uint8_t *h = b.data + o;
    int32_t x = (int32_t)opc_rd_u32(h + 8), z = (int32_t)opc_rd_u32(h + 12);
    int32_t layer = (int32_t)opc_rd_u32(h + 16);
    o += 24 + opc_rd_u32(h + 20);
    o += 4 + 8 * (size_t)opc_rd_u32(b.data + o); /* MESH-042: edits */
    uint32_t nl = opc_rd_u32(b.data + o);
    o += 4;
    const op_link *l;
    uint32_t n;
    op_error e;
    op_mesh_tile t;
    ok &= op_mesh_tile_links(m, x, z, layer, &l, &n, &e) == OP_OK && n == nl;
    ok &= op_mesh_tile_at(m, x, z, layer, &t, &e) == OP_OK && t.slot == opc_rd_u32(h) &&
          t.generation == opc_rd_u32(h + 4);
    for (uint32_t k = 0; ok && k < nl; k++, o += 24) {
      const uint8_t *q = b.data + o;
      ok &= l[k].poly == opc_rd_u32(q) && l[k].edge == q[4] && l[k].side == q[5] &&
            l[k].target_edge == q[6] && l[k].target == opc_rd_u64(q + 8) &&
            l[k].lo == opc_rd_f32(q + 16) && l[k].hi == opc_rd_f32(q + 20);
    }
  }
  ok &= o == b.len;
  op_bytes_free(&b);
  return ok;
}

OPT_TEST(links_equal_serialized, "MESH-065") {
  op_mesh *m = fx_mesh(0.5, 64);
  int ok = 1;
  for (int i = 0; i < 10; i++) ok &= add(m, TILES[i].x, TILES[i].z, TILES[i].layer, TILES[i].n);
  OPT_CHECK(ok);
  op_mesh_tile t;
  op_error e;
  OPT_CHECK(op_mesh_tile_at(m, 0, 0, 0, &t, &e) == OP_OK);
  OPT_CHECK(op_mesh_set_poly_flags(m, t.base + 1, 77, &e) == OP_OK); /* an edit in the bytes */
  OPT_CHECK(links_match_bytes(m));
  /* MESH-020: polygon 0 of a 2-strip tile has its internal link to polygon 1 on edge 2 */
  const op_link *l;
  uint32_t n;
  OPT_CHECK(op_mesh_poly_links(m, t.base, &l, &n, &e) == OP_OK && n >= 1);
  int internal = 0;
  for (uint32_t k = 0; k < n; k++)
    internal += l[k].side == OP_LINK_INTERNAL && l[k].edge == 2 && l[k].target == t.base + 1 &&
                l[k].target_edge == OP_LINK_INTERNAL;
  OPT_CHECK(internal == 1);
  uint16_t flags = 0;
  OPT_CHECK(op_mesh_get_poly(m, t.base + 1, &flags, NULL, &e) == OP_OK && flags == 77);
  op_mesh_free(m);
}

/* MESH-060, MESH-062..MESH-066: every reader's errors, kind and field (and value). */
OPT_TEST(reader_errors, "MESH-062") {
  op_mesh *m = fx_mesh(0.5, 16);
  OPT_CHECK(add(m, 0, 0, 0, 2) && add(m, 1, 0, 0, 1));
  op_mesh_tile t;
  const op_link *l;
  uint32_t n;
  op_error e;
  char v[24];
  /* MESH-060 */
  OPT_CHECK(op_mesh_tile_count(NULL) == 0 && op_mesh_tile_count(m) == 2);
  op_mesh_params p, want = fx_mesh_params(0.5, 16);
  memset(&p, 0xAB, sizeof p);
  op_mesh_get_params(NULL, &p);
  op_mesh_get_params(m, NULL);
  op_mesh_get_params(m, &p);
  OPT_CHECK(p.max_tiles == 16 && p.walkable_climb == 0.5 &&
            !memcmp(&p.tiling, &want.tiling, sizeof p.tiling));
  /* MESH-062 */
  OPT_CHECK(op_mesh_tile_at_index(m, 2, &t, &e) == OP_E_RANGE &&
            has_field(&e, OP_E_RANGE, "index", "2"));
  OPT_CHECK(op_mesh_tile_at_index(m, UINT32_MAX, &t, &e) == OP_E_RANGE &&
            has_field(&e, OP_E_RANGE, "index", "4294967295"));
  OPT_CHECK(op_mesh_tile_at_index(NULL, 0, &t, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "mesh", NULL));
  OPT_CHECK(op_mesh_tile_at_index(m, 0, NULL, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "out", NULL));
  /* MESH-063, MESH-065 */
  OPT_CHECK(op_mesh_tile_at(m, 0, 0, 1, &t, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "tile", "0,0,1"));
  OPT_CHECK(op_mesh_tile_at(m, -1, 0, 0, &t, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "tile", "-1,0,0"));
  OPT_CHECK(op_mesh_tile_at(m, 0, 0, 0, NULL, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "out", NULL));
  OPT_CHECK(op_mesh_tile_links(m, 5, 6, 7, &l, &n, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "tile", "5,6,7") && l == NULL && n == 0);
  OPT_CHECK(op_mesh_tile_links(m, 0, 0, 0, NULL, &n, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "links", NULL));
  OPT_CHECK(op_mesh_tile_links(m, 0, 0, 0, &l, NULL, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "n", NULL));
  OPT_CHECK(op_mesh_tile_links(NULL, 0, 0, 0, &l, &n, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "mesh", NULL));
  /* MESH-064, MESH-066: MESH-016's four checks, argument `ref` with the 16 hex digits */
  OPT_CHECK(op_mesh_tile_at(m, 0, 0, 0, &t, &e) == OP_OK && t.slot == 0 && t.npolys == 2);
  const op_ref bad[4] = {0, opm_make_ref(1, 5, 0) /* empty slot */,
                         opm_make_ref(2, 0, 0) /* stale generation */,
                         t.base + 2 /* polygon past the count */};
  for (int k = 0; k < 4; k++) {
    snprintf(v, sizeof v, "%016llx", (unsigned long long)bad[k]);
    OPT_CHECK(op_mesh_tile_by_ref(m, bad[k], &t, &e) == OP_E_ARGUMENT &&
              has_field(&e, OP_E_ARGUMENT, "ref", v));
    OPT_CHECK(op_mesh_poly_links(m, bad[k], &l, &n, &e) == OP_E_ARGUMENT &&
              has_field(&e, OP_E_ARGUMENT, "ref", v) && l == NULL && n == 0);
  }
  OPT_CHECK(op_mesh_tile_by_ref(NULL, 1, &t, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "mesh", NULL));
  OPT_CHECK(op_mesh_tile_by_ref(m, opm_make_ref(1, 0, 1), NULL, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "out", NULL));
  OPT_CHECK(op_mesh_poly_links(m, opm_make_ref(1, 0, 1), NULL, &n, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "links", NULL));
  OPT_CHECK(op_mesh_poly_links(m, opm_make_ref(1, 0, 1), &l, NULL, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "n", NULL));
  /* a success clears the error */
  OPT_CHECK(op_mesh_poly_links(m, opm_make_ref(1, 0, 1), &l, &n, &e) == OP_OK && e.kind == OP_OK);
  op_mesh_free(m);
}

/* MESH-064, MESH-016: after ReplaceTile every reference into the old tile is stale for the
** readers; after RemoveTile the tile's references and position are gone. */
OPT_TEST(stale_after_replace_remove, "MESH-064") {
  op_mesh *m = fx_mesh(0.5, 16);
  OPT_CHECK(add(m, 0, 0, 0, 2) && add(m, 1, 0, 0, 1));
  op_mesh_tile t, u;
  const op_link *l;
  uint32_t n;
  op_error e;
  OPT_CHECK(op_mesh_tile_at(m, 0, 0, 0, &t, &e) == OP_OK && t.generation == 1);
  op_ref old = t.base, fresh = 0;
  op_tile *r = strip(0, 0, 0, 3);
  OPT_CHECK(op_mesh_replace_tile(m, r, &fresh, &e) == OP_OK);
  op_tile_free(r);
  OPT_CHECK(op_mesh_tile_by_ref(m, old, &u, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "ref", NULL));
  OPT_CHECK(op_mesh_poly_links(m, old + 1, &l, &n, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "ref", NULL));
  OPT_CHECK(op_mesh_tile_by_ref(m, fresh + 2, &u, &e) == OP_OK && u.slot == t.slot &&
            u.generation == 2 && u.base == fresh && u.npolys == 3 && u.tile != t.tile);
  OPT_CHECK(op_mesh_tile_count(m) == 2 && readers_consistent(m) && links_match_bytes(m));
  OPT_CHECK(op_mesh_remove_tile(m, 0, 0, 0, &e) == OP_OK);
  OPT_CHECK(op_mesh_tile_by_ref(m, fresh, &u, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "ref", NULL));
  OPT_CHECK(op_mesh_tile_at(m, 0, 0, 0, &u, &e) == OP_E_ARGUMENT &&
            has_field(&e, OP_E_ARGUMENT, "tile", "0,0,0"));
  OPT_CHECK(op_mesh_tile_count(m) == 1 && readers_consistent(m) && links_match_bytes(m));
  /* the neighbour was relinked: no external link left */
  OPT_CHECK(op_mesh_tile_links(m, 1, 0, 0, &l, &n, &e) == OP_OK && n == 0);
  op_mesh_free(m);
}

/* MESH-061: the order stays current through every way the mesh changes: the single
** operations (also failing ones), a batch (opm_batch, as the tile cache does it) and a
** snapshot load; checked after every step of a random history. */
OPT_TEST(order_current_random_history, "MESH-061") {
  op_prng g;
  op_prng_seed(&g, 20240611);
  op_mesh *m = fx_mesh(0.5, 12);
  int bad = 0, steps = 0;
  for (int step = 0; step < 250; step++) {
    int x = (int)op_prng_below(&g, 4) - 1, z = (int)op_prng_below(&g, 3);
    int layer = (int)op_prng_below(&g, 2), n = 1 + (int)op_prng_below(&g, 3);
    int action = (int)op_prng_below(&g, 5);
    op_error e;
    op_tile *t = strip(x, z, layer, n);
    if (action == 0) op_mesh_add_tile(m, t, NULL, &e);
    else if (action == 1) op_mesh_replace_tile(m, t, NULL, &e);
    else if (action == 2) op_mesh_remove_tile(m, x, z, layer, &e);
    else if (action == 3) { /* a batch: this tile, and the removal of another position */
      opm_change ch[2];
      memset(ch, 0, sizeof ch);
      ch[0].x = x, ch[0].z = z, ch[0].layer = layer, ch[0].tile = t;
      ch[1].x = (int)op_prng_below(&g, 4) - 1, ch[1].z = (int)op_prng_below(&g, 3);
      ch[1].layer = (int)op_prng_below(&g, 2);
      if (ch[1].x == x && ch[1].z == z && ch[1].layer == layer) ch[1].x = 9;
      opm_batch(m, ch, 2, NULL, &e);
    } else { /* a snapshot round trip into a fresh mesh, which replaces m */
      op_bytes s = fx_mesh_snapshot(m);
      op_mesh *k = fx_mesh(0.5, 12);
      if (!k || op_mesh_snapshot_load(k, s.data, s.len, &e) != OP_OK) bad++;
      op_bytes_free(&s);
      op_mesh_free(m);
      m = k;
    }
    op_tile_free(t);
    if (!m || !readers_consistent(m) || !links_match_bytes(m)) {
      bad++;
      break;
    }
    steps++;
  }
  OPT_CHECK(bad == 0 && steps == 250);
  op_mesh_free(m);
}

/* MESH-060, RT-018: a tile cache's mesh refuses direct tile changes but reads like any mesh;
** its order and links stay current through the cache's Update (opm_batch). */
OPT_TEST(cache_mesh_readable, "MESH-060") {
  op_trimesh level = fx_level("city", 5, 2);
  op_settings s = fx_humanoid(OP_PARTITION_WATERSHED);
  op_soup soup = op_trimesh_soup(&level);
  op_tilecache *c = fx_cache(&s, &soup);
  OPT_CHECK(c != NULL);
  if (c) {
    const op_mesh *m = op_tilecache_mesh(c);
    OPT_CHECK(m->cache_owned && op_mesh_tile_count(m) > 1);
    OPT_CHECK(readers_consistent(m) && links_match_bytes(m));
    uint32_t before = op_mesh_tile_count(m), id = 0, done = 0;
    op_error e;
    op_obstacle o = fx_box(-1, -10, -1, 30, 40, 30); /* empties whole tiles (test_mesh_batch) */
    OPT_CHECK(op_tilecache_add_obstacle(c, &o, &id, &e) == OP_OK);
    while (op_tilecache_queue_length(c))
      if (op_tilecache_update(c, 2, &done, &e) != OP_OK) break;
    OPT_CHECK(op_tilecache_queue_length(c) == 0 && op_mesh_tile_count(m) != before);
    OPT_CHECK(readers_consistent(m) && links_match_bytes(m));
    op_tilecache_free(c);
  }
  op_trimesh_free(&level);
}

OPT_MAIN_BEGIN
OPT_RUN(order_independent_of_history);
OPT_RUN(links_equal_serialized);
OPT_RUN(reader_errors);
OPT_RUN(stale_after_replace_remove);
OPT_RUN(order_current_random_history);
OPT_RUN(cache_mesh_readable);
OPT_MAIN_END
