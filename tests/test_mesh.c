/*
** test_mesh.c -- unit tests of the TiledNavMesh (spec/navmesh-mesh.md, MESH-xxx).
**
** Tiles are small hand-made tiles on the tiling origin (0,0,0), cell size 1, tile
** size 4 cells: local x and z run over [0, 4]. A "strip tile" is cut into horizontal
** strips [z_k, z_k+1] spanning x in [0, 4]; strip k is polygon k, its edges are
** 0: bottom (z = z_k), 1: right (x = 4, portal +x), 2: top (z = z_k+1), 3: left
** (x = 0, portal -x). Expected links and intervals are worked out by hand below.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "artifact.h"
#include "fixtures3d.h"
#include "navmesh/mesh_internal.h"
#include "optest.h"

static op_tile *strip_tile(int x, int z, int layer, double oy, int n, const float *cuts,
                           float ybase, float slope_x) {
  return fx_strip_tile(x, z, layer, oy, n, cuts, ybase, slope_x, 0.0f, 0.5);
}

static const float CUT1[2] = {0.0f, 4.0f};
static const float CUT2[3] = {0.0f, 1.0f, 4.0f};

static op_tile *square(int x, int z, int layer, double oy) {
  return strip_tile(x, z, layer, oy, 1, CUT1, 0.0f, 0.0f);
}

static op_ref add(op_mesh *m, op_tile *t) {
  op_ref r = 0;
  op_error e;
  if (op_mesh_add_tile(m, t, &r, &e)) fprintf(stderr, "add: %s\n", e.message);
  op_tile_free(t);
  return r;
}

/* The link of slot s, polygon p, edge e towards target ref r (or NULL). */
static const op_link *find_link(const op_mesh *m, uint32_t s, uint32_t p, unsigned e, op_ref r) {
  const opm_occ *sl = opm_occ_at(m, s);
  for (uint32_t k = 0; sl && k < sl->nlinks; k++)
    if (sl->links[k].poly == p && sl->links[k].edge == e && sl->links[k].target == r)
      return &sl->links[k];
  return NULL;
}

static uint32_t count_ext(const op_mesh *m, uint32_t s) {
  const opm_occ *o = opm_occ_at(m, s);
  uint32_t n = 0;
  for (uint32_t k = 0; o && k < o->nlinks; k++) n += o->links[k].side != OP_LINK_INTERNAL;
  return n;
}

/* The tile state of slot s, with its links (the slot must hold a tile). */
static const opm_occ *occ(const op_mesh *m, uint32_t s) { return opm_occ_at(m, s); }

/* MESH-021: every external link has its mirror with the same interval. */
static int links_symmetric(const op_mesh *m) {
  for (uint32_t i = 0; i < m->nslots; i++) { /* the stored slots */
    const opm_slot *sl = &m->slots[i];
    for (uint32_t k = 0; sl->occ && k < sl->occ->nlinks; k++) {
      const op_link *l = &sl->occ->links[k];
      if (l->side == OP_LINK_INTERNAL) continue;
      uint32_t ts = (uint32_t)(l->target >> 20) & ((1u << 22) - 1u);
      uint32_t tp = (uint32_t)l->target & ((1u << 20) - 1u);
      const op_link *b = find_link(m, ts, tp, l->target_edge, opm_make_ref(sl->gen, sl->index, l->poly));
      if (!b || b->target_edge != l->edge || b->lo != l->lo || b->hi != l->hi ||
          b->side != ((l->side + 2u) & 3u))
        return 0;
    }
  }
  return 1;
}

OPT_TEST(ref_layout, "MESH-010") {
  /* generation 22 bits at 42..63, slot 22 bits at 20..41, polygon 20 bits at 0..19 */
  OPT_CHECK(opm_make_ref(1, 0, 0) == ((uint64_t)1 << 42));
  OPT_CHECK(opm_make_ref(3, 5, 7) == (((uint64_t)3 << 42) | ((uint64_t)5 << 20) | 7u));
  OPT_CHECK(opm_make_ref((1u << 22) - 1u, (1u << 22) - 1u, (1u << 20) - 1u) == UINT64_MAX);
  op_mesh *m = fx_mesh(0.5, 4);
  op_ref r = add(m, square(0, 0, 0, 0.0));
  OPT_CHECK(r == ((uint64_t)1 << 42)); /* slot 0, generation 1, polygon 0 */
  op_ref r1 = add(m, square(5, 5, 0, 0.0));
  OPT_CHECK(r1 == (((uint64_t)1 << 42) | ((uint64_t)1 << 20)));
  op_ref p = 0;
  op_error e;
  OPT_CHECK(op_mesh_poly_ref(m, 5, 5, 0, 0, &p, &e) == OP_OK && p == r1);
  OPT_CHECK(op_mesh_poly_ref(m, 5, 5, 0, 1, &p, &e) == OP_E_RANGE && !strcmp(e.field, "poly"));
  OPT_CHECK(op_mesh_poly_ref(m, 6, 5, 0, 0, &p, &e) == OP_E_ARGUMENT && !strcmp(e.field, "tile"));
  op_mesh_free(m);
}

OPT_TEST(params_validation, "MESH-002") {
  op_mesh *m = NULL;
  op_error e;
  op_mesh_params p = fx_mesh_params(0.5, 4);
  p.walkable_climb = NAN;
  OPT_CHECK(op_mesh_create(&p, &m, &e) == OP_E_RANGE && !strcmp(e.field, "walkable_climb") && !m);
  p.walkable_climb = -0.25;
  OPT_CHECK(op_mesh_create(&p, &m, &e) == OP_E_RANGE && !strcmp(e.value, "-0.25"));
  p = fx_mesh_params(0.5, 0);
  OPT_CHECK(op_mesh_create(&p, &m, &e) == OP_E_RANGE && !strcmp(e.field, "max_tiles"));
  p = fx_mesh_params(0.5, (1u << 22) + 1u);
  OPT_CHECK(op_mesh_create(&p, &m, &e) == OP_E_RANGE && !strcmp(e.field, "max_tiles"));
  p = fx_mesh_params(0.5, 1u << 22); /* the largest slot count is allowed; slots are lazy */
  OPT_CHECK(op_mesh_create(&p, &m, &e) == OP_OK && m);
  op_mesh_free(m);
  m = NULL;
  p = fx_mesh_params(0.0, 1);
  p.tiling.cell_size = 0.0;
  OPT_CHECK(op_mesh_create(&p, &m, &e) == OP_E_RANGE && !strcmp(e.field, "tiling.cell_size"));
  p = fx_mesh_params(0.0, 1);
  p.tiling.tile_cells = 8193;
  OPT_CHECK(op_mesh_create(&p, &m, &e) == OP_E_RANGE && !strcmp(e.field, "tiling.tile_cells"));
  p = fx_mesh_params(0.0, 1);
  p.tiling.origin[1] = INFINITY;
  OPT_CHECK(op_mesh_create(&p, &m, &e) == OP_E_RANGE && !strcmp(e.field, "tiling.origin[1]"));
  p = fx_mesh_params(0.0, 1);
  p.tiling.max_verts_per_poly = 13;
  OPT_CHECK(op_mesh_create(&p, &m, &e) == OP_E_RANGE &&
            !strcmp(e.field, "tiling.max_verts_per_poly"));
  OPT_CHECK(m == NULL);
}

OPT_TEST(tiling_mismatch, "MESH-005") {
  op_mesh_params p = fx_mesh_params(0.5, 4);
  p.tiling.cell_height = 0.25; /* tiles are made with 0.5 */
  op_mesh *m = NULL;
  op_error e;
  OPT_CHECK(op_mesh_create(&p, &m, &e) == OP_OK);
  op_tile *t = square(0, 0, 0, 0.0);
  op_ref r = 0;
  OPT_CHECK(op_mesh_add_tile(m, t, &r, &e) == OP_E_ARGUMENT &&
            !strcmp(e.field, "tiling.cell_height") && !strcmp(e.value, "0.5"));
  OPT_CHECK(op_mesh_replace_tile(m, t, &r, &e) == OP_E_ARGUMENT &&
            !strcmp(e.field, "tiling.cell_height"));
  op_tile_free(t);
  op_mesh_free(m);
}

/* Two tiles side by side: A = square (0,0), B = strips [0,1], [1,4] at (1,0). */
OPT_TEST(stitch_two, "MESH-021") {
  op_mesh *m = fx_mesh(0.5, 4);
  op_ref ra = add(m, square(0, 0, 0, 0.0));
  op_ref rb = add(m, strip_tile(1, 0, 0, 0.0, 2, CUT2, 0.0f, 0.0f));
  /* A's edge 1 (x = 4, z 0..4) meets B's left edges: strip 0 on [0,1], strip 1 on [1,4] */
  const op_link *l0 = find_link(m, 0, 0, 1, rb);
  const op_link *l1 = find_link(m, 0, 0, 1, rb + 1);
  OPT_CHECK(l0 && l0->side == 2 && l0->target_edge == 3 && l0->lo == 0.0f && l0->hi == 1.0f);
  OPT_CHECK(l1 && l1->side == 2 && l1->target_edge == 3 && l1->lo == 1.0f && l1->hi == 4.0f);
  OPT_CHECK(count_ext(m, 0) == 2);
  /* and back: B strip 0 edge 3 -> A, strip 1 edge 3 -> A */
  const op_link *b0 = find_link(m, 1, 0, 3, ra), *b1 = find_link(m, 1, 1, 3, ra);
  OPT_CHECK(b0 && b0->side == 0 && b0->target_edge == 1 && b0->lo == 0.0f && b0->hi == 1.0f);
  OPT_CHECK(b1 && b1->side == 0 && b1->target_edge == 1 && b1->lo == 1.0f && b1->hi == 4.0f);
  /* MESH-020: internal links of B: strip 0 edge 2 -> strip 1, strip 1 edge 0 -> strip 0 */
  const op_link *i0 = find_link(m, 1, 0, 2, rb + 1), *i1 = find_link(m, 1, 1, 0, rb);
  OPT_CHECK(i0 && i0->side == OP_LINK_INTERNAL && i0->target_edge == OP_LINK_INTERNAL && i0->lo == 0.0f);
  OPT_CHECK(i1 && i1->side == OP_LINK_INTERNAL);
  OPT_CHECK(occ(m, 1)->nlinks == 4 && links_symmetric(m));
  /* MESH-022: canonical order (polygon, edge): strip 0 edge 2, strip 0 edge 3, strip 1
  ** edge 0, strip 1 edge 3 */
  const op_link *L = occ(m, 1)->links;
  OPT_CHECK(L[0].poly == 0 && L[0].edge == 2 && L[1].poly == 0 && L[1].edge == 3);
  OPT_CHECK(L[2].poly == 1 && L[2].edge == 0 && L[3].poly == 1 && L[3].edge == 3);
  op_mesh_free(m);
}

/* Partial overlaps: A strips [0,1],[1,4]; B strips cut at 0, 2.5, 4. Overlaps worked out
** by hand: A0 [0,1] x B0 [0,2.5] -> [0,1]; A1 [1,4] x B0 -> [1,2.5]; A1 x B1 [2.5,4] ->
** [2.5,4]; A0 x B1 -> empty. */
OPT_TEST(stitch_partial, "MESH-022") {
  static const float C25[3] = {0.0f, 2.5f, 4.0f};
  op_mesh *m = fx_mesh(0.5, 4);
  op_ref ra = add(m, strip_tile(0, 0, 0, 0.0, 2, CUT2, 0.0f, 0.0f));
  op_ref rb = add(m, strip_tile(1, 0, 0, 0.0, 2, C25, 0.0f, 0.0f));
  const op_link *a = find_link(m, 0, 0, 1, rb), *b = find_link(m, 0, 1, 1, rb),
                 *c = find_link(m, 0, 1, 1, rb + 1);
  OPT_CHECK(a && a->lo == 0.0f && a->hi == 1.0f);
  OPT_CHECK(b && b->lo == 1.0f && b->hi == 2.5f);
  OPT_CHECK(c && c->lo == 2.5f && c->hi == 4.0f);
  OPT_CHECK(!find_link(m, 0, 0, 1, rb + 1));
  OPT_CHECK(count_ext(m, 0) == 3 && count_ext(m, 1) == 3 && links_symmetric(m));
  (void)ra;
  op_mesh_free(m);
}

/* Touching at a point only (overlap of length 0) is no link: A strip [0,1] against B
** strip [1,4] shares only z = 1. Tested above implicitly; here with a single pair. */
OPT_TEST(stitch_point_contact, "MESH-022") {
  static const float CA[3] = {0.0f, 1.0f, 4.0f};
  op_mesh *m = fx_mesh(0.5, 4);
  add(m, strip_tile(0, 0, 0, 0.0, 2, CA, 0.0f, 0.0f));
  op_ref rb = add(m, strip_tile(1, 0, 0, 0.0, 2, CA, 0.0f, 0.0f));
  /* strips line up: A0-B0 [0,1], A1-B1 [1,4], A0-B1 and A1-B0 touch at z = 1 only */
  OPT_CHECK(find_link(m, 0, 0, 1, rb) && find_link(m, 0, 1, 1, rb + 1));
  OPT_CHECK(!find_link(m, 0, 0, 1, rb + 1) && !find_link(m, 0, 1, 1, rb));
  OPT_CHECK(count_ext(m, 0) == 2);
  op_mesh_free(m);
}

/* Layers, climb 0.5, so reach = 2 * 0.5 = 1 (MESH-023): B layer 0 at origin_y 1 (gaps -1 at
** both ends, |-1| = reach: linked), B' layer 1 at origin_y 1.25 (gaps -1.25, same sign, > 1:
** not linked), B'' layer 2 at 0.25 (linked). */
OPT_TEST(stitch_layers_climb, "MESH-023") {
  op_mesh *m = fx_mesh(0.5, 8);
  add(m, square(0, 0, 0, 0.0));
  op_ref r0 = add(m, square(1, 0, 0, 1.0));
  op_ref r1 = add(m, square(1, 0, 1, 1.25));
  op_ref r2 = add(m, square(1, 0, 2, 0.25));
  OPT_CHECK(find_link(m, 0, 0, 1, r0) && !find_link(m, 0, 0, 1, r1) && find_link(m, 0, 0, 1, r2));
  OPT_CHECK(count_ext(m, 0) == 2 && links_symmetric(m));
  /* MESH-022: on one edge, links are ordered by the neighbour's layer */
  const op_link *L = occ(m, 0)->links;
  OPT_CHECK(occ(m, 0)->nlinks == 2 && L[0].target == r0 && L[1].target == r2);
  OPT_CHECK(count_ext(m, 2) == 0);
  op_mesh_free(m);
}

/* World heights: A's local y = 0.5 x, so its +x edge is at height 2 from z = 0 to 4.
** Climb 0.5, reach 1 (MESH-023). B flat at origin_y 3: gaps -1 = -reach, linked; B' at
** 3 + 2^-20: gaps just beyond the reach, same sign: not linked. */
OPT_TEST(stitch_heights_world, "MESH-023") {
  op_mesh *m = fx_mesh(0.5, 8);
  add(m, strip_tile(0, 0, 0, 0.0, 1, CUT1, 0.0f, 0.5f));
  op_ref rb = add(m, square(1, 0, 0, 3.0));
  op_ref rc = add(m, square(1, 0, 1, 3.0 + 1.0 / 1048576.0));
  OPT_CHECK(find_link(m, 0, 0, 1, rb) && !find_link(m, 0, 0, 1, rc));
  /* Across +z: A's top edge runs x 4 -> 0 with world y 2 -> 0. Tile (0,1), a flat
  ** square at origin_y 3.25: gaps 0 - 3.25 (x = 0) and 2 - 3.25 (x = 4), both negative
  ** and beyond the reach 1: no link. */
  op_ref rd = add(m, square(0, 1, 0, 3.25));
  OPT_CHECK(!find_link(m, 0, 0, 2, rd));
  op_mesh_free(m);
  /* The edges cross: tile (0,1) flat at origin_y 1.5 against A's top edge: gaps 0 - 1.5 =
  ** -1.5 (x = 0) and 2 - 1.5 = 0.5 (x = 4), opposite signs: linked, whatever the climb
  ** (here 0.125, reach 0.25, below both gaps). */
  m = fx_mesh(0.125, 8);
  add(m, strip_tile(0, 0, 0, 0.0, 1, CUT1, 0.0f, 0.5f));
  rd = add(m, square(0, 1, 0, 1.5));
  const op_link *x = find_link(m, 0, 0, 2, rd);
  OPT_CHECK(x && x->lo == 0.0f && x->hi == 4.0f && links_symmetric(m));
  op_mesh_free(m);
  /* climb 2: gaps 1 (x = 0) and 1 (x = 4: |2 - 1|) -> linked over the whole edge [0, 4] */
  m = fx_mesh(2.0, 8);
  add(m, strip_tile(0, 0, 0, 0.0, 1, CUT1, 0.0f, 0.5f));
  rd = add(m, square(0, 1, 0, 1.0));
  const op_link *l = find_link(m, 0, 0, 2, rd);
  OPT_CHECK(l && l->side == 1 && l->target_edge == 0 && l->lo == 0.0f && l->hi == 4.0f);
  OPT_CHECK(links_symmetric(m));
  op_mesh_free(m);
}

/* Interpolation inside an edge: A = square with local y = 0.5 z, so its +x edge runs
** from (z 0, y 0) to (z 4, y 2). B at (1,0) = flat strips [0,1], [1,4] at origin_y 0.
** At z = 1, A's height is 0 + (2 - 0) * ((1 - 0) / (4 - 0)) = 0.5 (MESH-023), so:
** strip 0: gaps 0 (z 0) and 0.5 (z 1); strip 1: gaps 0.5 (z 1) and 2 (z 4), same sign.
** Climb 0.25 (reach 0.5) links A to both strips (strip 1 by its interpolated end, 0.5 =
** reach); climb 0.24609375 (reach 0.4921875) links strip 0 only (its gap 0 at z 0). */
OPT_TEST(stitch_interpolated_gap, "MESH-023") {
  op_mesh *m = fx_mesh(0.25, 8);
  add(m, fx_strip_tile(0, 0, 0, 0.0, 1, CUT1, 0.0f, 0.0f, 0.5f, 0.5));
  op_ref rb = add(m, strip_tile(1, 0, 0, 0.0, 2, CUT2, 0.0f, 0.0f));
  const op_link *l = find_link(m, 0, 0, 1, rb), *l1 = find_link(m, 0, 0, 1, rb + 1);
  OPT_CHECK(l && l->lo == 0.0f && l->hi == 1.0f);
  OPT_CHECK(l1 && l1->lo == 1.0f && l1->hi == 4.0f);
  OPT_CHECK(count_ext(m, 0) == 2 && links_symmetric(m));
  op_mesh_free(m);
  m = fx_mesh(0.24609375, 8);
  add(m, fx_strip_tile(0, 0, 0, 0.0, 1, CUT1, 0.0f, 0.0f, 0.5f, 0.5));
  rb = add(m, strip_tile(1, 0, 0, 0.0, 2, CUT2, 0.0f, 0.0f));
  l = find_link(m, 0, 0, 1, rb);
  OPT_CHECK(l && l->lo == 0.0f && l->hi == 1.0f);
  OPT_CHECK(!find_link(m, 0, 0, 1, rb + 1) && count_ext(m, 0) == 1 && links_symmetric(m));
  op_mesh_free(m);
}

/* Four tiles in a 2x2 block: each square links to exactly its two neighbours. */
OPT_TEST(stitch_four, "MESH-021") {
  op_mesh *m = fx_mesh(0.5, 8);
  op_ref r00 = add(m, square(0, 0, 0, 0.0));
  op_ref r10 = add(m, square(1, 0, 0, 0.0));
  op_ref r01 = add(m, square(0, 1, 0, 0.0));
  op_ref r11 = add(m, square(1, 1, 0, 0.0));
  OPT_CHECK(find_link(m, 0, 0, 1, r10) && find_link(m, 0, 0, 2, r01));   /* (0,0): +x, +z */
  OPT_CHECK(find_link(m, 1, 0, 3, r00) && find_link(m, 1, 0, 2, r11));   /* (1,0): -x, +z */
  OPT_CHECK(find_link(m, 2, 0, 0, r00) && find_link(m, 2, 0, 1, r11));   /* (0,1): -z, +x */
  OPT_CHECK(find_link(m, 3, 0, 0, r10) && find_link(m, 3, 0, 3, r01));   /* (1,1): -z, -x */
  for (uint32_t s = 0; s < 4; s++) OPT_CHECK(count_ext(m, s) == 2);
  OPT_CHECK(links_symmetric(m));
  /* diagonal tiles are not linked */
  OPT_CHECK(!find_link(m, 0, 0, 1, r11) && !find_link(m, 0, 0, 2, r11));
  op_mesh_free(m);
}

/* MESH-024: the same tiles, slots and generations give the same bytes, whatever the
** order of adds and removes. Both meshes end with A in slot 0 (gen 1), B in slot 1
** (gen 2), C in slot 2 (gen 1). Also: recomputing every link from scratch changes
** nothing. */
OPT_TEST(order_independence, "MESH-024") {
  op_error e;
  op_mesh *m1 = fx_mesh(0.5, 8), *m2 = fx_mesh(0.5, 8);
  add(m1, square(0, 0, 0, 0.0));             /* A slot 0 */
  add(m1, square(9, 9, 0, 0.0));             /* X slot 1 */
  OPT_CHECK(op_mesh_remove_tile(m1, 9, 9, 0, &e) == OP_OK);
  add(m1, square(1, 0, 0, 0.0));             /* B slot 1 gen 2 */
  add(m1, square(0, 1, 0, 0.0));             /* C slot 2 */
  add(m2, square(0, 0, 0, 0.0));             /* A slot 0 */
  add(m2, square(1, 1, 0, 0.0));             /* Y slot 1 (neighbour of B and C) */
  add(m2, square(0, 1, 0, 0.0));             /* C slot 2 */
  OPT_CHECK(op_mesh_remove_tile(m2, 1, 1, 0, &e) == OP_OK);
  add(m2, square(1, 0, 0, 0.0));             /* B slot 1 gen 2 */
  op_bytes b1 = fx_mesh_bytes(m1), b2 = fx_mesh_bytes(m2);
  OPT_CHECK(b1.len > 0 && fx_same(&b1, &b2));
  OPT_CHECK(opm_relink_all(m2) == 0);
  op_bytes b3 = fx_mesh_bytes(m2);
  OPT_CHECK(fx_same(&b1, &b3));
  op_bytes_free(&b1);
  op_bytes_free(&b2);
  op_bytes_free(&b3);
  op_mesh_free(m1);
  op_mesh_free(m2);
}

OPT_TEST(generations_stale, "MESH-011") {
  op_error e;
  op_mesh *m = fx_mesh(0.5, 4);
  op_ref r1 = add(m, square(0, 0, 0, 0.0));
  uint16_t fl = 0;
  uint8_t ar = 9;
  OPT_CHECK(op_mesh_get_poly(m, r1, &fl, &ar, &e) == OP_OK && fl == 1 && ar == 0);
  OPT_CHECK(op_mesh_remove_tile(m, 0, 0, 0, &e) == OP_OK);
  OPT_CHECK(op_mesh_get_poly(m, r1, &fl, &ar, &e) == OP_E_ARGUMENT && !strcmp(e.field, "ref") &&
            !strcmp(e.value, "0000040000000000"));
  op_ref r2 = add(m, square(0, 0, 0, 0.0));
  OPT_CHECK(r2 == opm_make_ref(2, 0, 0)); /* same slot, generation 2 */
  OPT_CHECK(op_mesh_get_poly(m, r1, &fl, &ar, &e) == OP_E_ARGUMENT); /* still stale */
  op_tile *t = square(0, 0, 0, 0.0);
  op_ref r3 = 0;
  OPT_CHECK(op_mesh_replace_tile(m, t, &r3, &e) == OP_OK && r3 == opm_make_ref(3, 0, 0));
  OPT_CHECK(op_mesh_get_poly(m, r2, &fl, &ar, &e) == OP_E_ARGUMENT && !strcmp(e.field, "ref"));
  OPT_CHECK(op_mesh_get_poly(m, r3, &fl, &ar, &e) == OP_OK);
  /* wrap: a slot at the largest generation goes back to 1 */
  opm_slot_at(m, 0)->gen = OPM_GEN_MAX;
  op_ref r4 = 0;
  OPT_CHECK(op_mesh_replace_tile(m, t, &r4, &e) == OP_OK && r4 == opm_make_ref(1, 0, 0));
  op_tile_free(t);
  /* null, out-of-range slot and polygon */
  OPT_CHECK(op_mesh_get_poly(m, 0, &fl, &ar, &e) == OP_E_ARGUMENT && !strcmp(e.field, "ref"));
  OPT_CHECK(op_mesh_get_poly(m, opm_make_ref(1, 3, 0), &fl, &ar, &e) == OP_E_ARGUMENT);
  OPT_CHECK(op_mesh_get_poly(m, r4 + 1, &fl, &ar, &e) == OP_E_ARGUMENT);
  op_mesh_free(m);
}

OPT_TEST(slot_reuse_and_limit, "MESH-012") {
  op_error e;
  op_mesh *m = fx_mesh(0.5, 3);
  add(m, square(0, 0, 0, 0.0));
  add(m, square(2, 0, 0, 0.0));
  add(m, square(4, 0, 0, 0.0));
  op_tile *t = square(6, 0, 0, 0.0);
  op_ref r = 0;
  op_bytes before = fx_mesh_bytes(m);
  OPT_CHECK(op_mesh_add_tile(m, t, &r, &e) == OP_E_LIMIT && !strcmp(e.field, "max_tiles"));
  op_bytes after = fx_mesh_bytes(m);
  OPT_CHECK(fx_same(&before, &after));
  op_bytes_free(&after);
  OPT_CHECK(op_mesh_remove_tile(m, 2, 0, 0, &e) == OP_OK);
  OPT_CHECK(op_mesh_add_tile(m, t, &r, &e) == OP_OK && r == opm_make_ref(2, 1, 0));
  /* occupied position */
  OPT_CHECK(op_mesh_add_tile(m, t, &r, &e) == OP_E_ARGUMENT && !strcmp(e.field, "tile") &&
            !strcmp(e.value, "6,0,0"));
  OPT_CHECK(op_mesh_remove_tile(m, 2, 0, 0, &e) == OP_E_ARGUMENT && !strcmp(e.field, "tile"));
  op_tile_free(t);
  t = square(3, 3, 0, 0.0);
  OPT_CHECK(op_mesh_replace_tile(m, t, &r, &e) == OP_E_ARGUMENT && !strcmp(e.field, "tile"));
  op_tile_free(t);
  op_bytes_free(&before);
  op_mesh_free(m);
}

OPT_TEST(edits_kept_and_dropped, "MESH-031") {
  op_error e;
  op_mesh *m = fx_mesh(0.5, 4);
  op_ref ra = add(m, strip_tile(0, 0, 0, 0.0, 2, CUT2, 0.0f, 0.0f));
  OPT_CHECK(op_mesh_set_poly_flags(m, ra + 1, 0xBEEF, &e) == OP_OK);
  OPT_CHECK(op_mesh_set_poly_area(m, ra, 63, &e) == OP_OK);
  OPT_CHECK(op_mesh_set_poly_area(m, ra, 64, &e) == OP_E_RANGE && !strcmp(e.field, "area"));
  uint16_t fl;
  uint8_t ar;
  OPT_CHECK(op_mesh_get_poly(m, ra, &fl, &ar, &e) == OP_OK && fl == 1 && ar == 63);
  /* a neighbour comes and goes: A is kept, with its edits and references */
  add(m, square(1, 0, 0, 0.0));
  OPT_CHECK(op_mesh_remove_tile(m, 1, 0, 0, &e) == OP_OK);
  OPT_CHECK(op_mesh_get_poly(m, ra + 1, &fl, &ar, &e) == OP_OK && fl == 0xBEEF && ar == 0);
  /* replacing A drops them: the new tile's own values (flags k + 1, area 0) */
  op_tile *t = strip_tile(0, 0, 0, 0.0, 2, CUT2, 0.0f, 0.0f);
  op_ref rn = 0;
  OPT_CHECK(op_mesh_replace_tile(m, t, &rn, &e) == OP_OK);
  OPT_CHECK(op_mesh_get_poly(m, rn + 1, &fl, &ar, &e) == OP_OK && fl == 2 && ar == 0);
  OPT_CHECK(op_mesh_get_poly(m, rn, &fl, &ar, &e) == OP_OK && fl == 1 && ar == 0);
  op_tile_free(t);
  op_mesh_free(m);
}

/* MESH-040..MESH-043: the bytes of a one-tile mesh, field by field. */
OPT_TEST(save_layout, "MESH-041") {
  op_mesh *m = fx_mesh(0.5, 4);
  op_tile *t = square(0, 0, 0, 0.0);
  op_bytes tb = {NULL, 0};
  op_error e;
  OPT_CHECK(op_tile_save(t, &tb, &e) == OP_OK);
  op_ref r = 0;
  OPT_CHECK(op_mesh_add_tile(m, t, &r, &e) == OP_OK);
  op_tile_free(t);
  OPT_CHECK(op_mesh_set_poly_flags(m, r, 7, &e) == OP_OK);
  op_bytes b = fx_mesh_bytes(m);
  /* header 72, record header 24, tile, 4 + one edit 8, 4 + no links */
  OPT_CHECK(b.len == 72 + 24 + tb.len + 12 + 4);
  if (b.len == 72 + 24 + tb.len + 16) {
    const uint8_t *p = b.data;
    OPT_CHECK(!memcmp(p, "OPMS", 4) && opc_rd_u32(p + 4) == 1);
    OPT_CHECK(opc_rd_f64(p + 8 + 32) == 0.5);          /* cell_height */
    OPT_CHECK(opc_rd_u32(p + 8 + 40) == 4);            /* tile_cells */
    OPT_CHECK(opc_rd_f64(p + 8 + 48) == 0.5);          /* walkable_climb */
    OPT_CHECK(opc_rd_u32(p + 8 + 56) == 4);            /* max_tiles */
    OPT_CHECK(opc_rd_u32(p + 68) == 1);                /* tile count */
    OPT_CHECK(opc_rd_u32(p + 72) == 0 && opc_rd_u32(p + 76) == 1); /* slot, generation */
    OPT_CHECK(opc_rd_u32(p + 92) == tb.len);
    OPT_CHECK(!memcmp(p + 96, tb.data, tb.len));
    const uint8_t *q = p + 96 + tb.len;
    OPT_CHECK(opc_rd_u32(q) == 1 && opc_rd_u32(q + 4) == 0 && q[8] == 7 && q[9] == 0 &&
              q[10] == 0 && q[11] == 0);
    OPT_CHECK(opc_rd_u32(q + 12) == 0);
  }
  /* an edit set back to the tile's own value is no edit */
  OPT_CHECK(op_mesh_set_poly_flags(m, r, 1, &e) == OP_OK);
  op_bytes b2 = fx_mesh_bytes(m);
  OPT_CHECK(b2.len == b.len - 8);
  op_bytes_free(&b);
  op_bytes_free(&b2);
  op_bytes_free(&tb);
  op_mesh_free(m);
}

/* MESH-043: a link record's bytes (two tiles). */
OPT_TEST(save_link_record, "MESH-043") {
  op_mesh *m = fx_mesh(0.5, 4);
  add(m, square(0, 0, 0, 0.0));
  op_ref rb = add(m, square(1, 0, 0, 0.0));
  op_bytes b = fx_mesh_bytes(m), tb = {NULL, 0};
  op_error e;
  OPT_CHECK(op_tile_save(occ(m, 0)->tile, &tb, &e) == OP_OK);
  const uint8_t *q = b.data + 96 + tb.len; /* after slot 0's tile bytes */
  OPT_CHECK(opc_rd_u32(q) == 0 && opc_rd_u32(q + 4) == 1); /* no edits, one link */
  q += 8;
  float lo, hi;
  uint32_t u = opc_rd_u32(q + 16);
  memcpy(&lo, &u, 4);
  u = opc_rd_u32(q + 20);
  memcpy(&hi, &u, 4);
  OPT_CHECK(opc_rd_u32(q) == 0 && q[4] == 1 && q[5] == 2 && q[6] == 3 && q[7] == 0 &&
            opc_rd_u64(q + 8) == rb && lo == 0.0f && hi == 4.0f);
  op_bytes_free(&b);
  op_bytes_free(&tb);
  op_mesh_free(m);
}

/* Failed calls change nothing (MESH-001). */
OPT_TEST(failed_calls_change_nothing, "MESH-001") {
  op_error e;
  op_mesh *m = fx_mesh(0.5, 4);
  op_ref r = add(m, square(0, 0, 0, 0.0));
  add(m, square(1, 0, 0, 0.0));
  op_bytes before = fx_mesh_bytes(m), after;
  op_tile *t = square(1, 0, 0, 0.0);
  op_ref o = 0;
  OPT_CHECK(op_mesh_add_tile(m, t, &o, &e) == OP_E_ARGUMENT && o == 0);
  OPT_CHECK(op_mesh_remove_tile(m, 5, 0, 0, &e) == OP_E_ARGUMENT);
  OPT_CHECK(op_mesh_set_poly_area(m, r, 200, &e) == OP_E_RANGE);
  OPT_CHECK(op_mesh_set_poly_flags(m, r + 5, 3, &e) == OP_E_ARGUMENT);
  after = fx_mesh_bytes(m);
  OPT_CHECK(fx_same(&before, &after));
  op_tile_free(t);
  op_bytes_free(&before);
  op_bytes_free(&after);
  op_mesh_free(m);
}

/* MESH-020: internal links come from neighbour codes only: strips 0-1-2 of a three-strip
** tile link 0<->1 and 1<->2 (top edge 2 of strip k to strip k+1, bottom edge 0 of strip
** k+1 to strip k), with side and target edge 0xFF and an interval of +0.0, +0.0. */
OPT_TEST(internal_links, "MESH-020") {
  static const float C3[4] = {0.0f, 1.0f, 2.0f, 4.0f};
  op_mesh *m = fx_mesh(0.5, 4);
  op_ref r = add(m, strip_tile(0, 0, 0, 0.0, 3, C3, 0.0f, 0.0f));
  const opm_occ *sl = occ(m, 0);
  OPT_CHECK(sl->nlinks == 4);
  const op_link *a = find_link(m, 0, 0, 2, r + 1), *b = find_link(m, 0, 1, 0, r),
                 *c = find_link(m, 0, 1, 2, r + 2), *d = find_link(m, 0, 2, 0, r + 1);
  OPT_CHECK(a && b && c && d);
  for (uint32_t k = 0; k < sl->nlinks; k++) {
    const op_link *l = &sl->links[k];
    OPT_CHECK(l->side == 0xFF && l->target_edge == 0xFF && l->lo == 0.0f && l->hi == 0.0f &&
              !signbit(l->lo) && !signbit(l->hi));
  }
  op_mesh_free(m);
}

/* MESH-025: an off-mesh link slot joins nothing in v0; it stays in the tile's bytes. A
** square with one off-mesh link from (1, 0, 1) into the +x neighbour (5, 0, 1): the links
** are those of the same square without it, and the record is 36 bytes longer. */
OPT_TEST(offmesh_unconnected, "MESH-025") {
  float verts[12] = {0, 0, 0, 4, 0, 0, 4, 0, 4, 0, 0, 4};
  op_poly_desc poly;
  memset(&poly, 0, sizeof poly);
  poly.nverts = 4;
  poly.flags = 1;
  for (int k = 0; k < 4; k++) poly.verts[k] = (uint16_t)k;
  poly.neis[0] = OP_NEI_PORTAL | 3u, poly.neis[1] = OP_NEI_PORTAL | 2u;
  poly.neis[2] = OP_NEI_PORTAL | 1u, poly.neis[3] = OP_NEI_PORTAL | 0u;
  op_offmesh_desc om = {{1, 0, 1}, {5, 0, 1}, 0.5f, 1, 0, 1, 7};
  op_tile_desc d;
  memset(&d, 0, sizeof d);
  d.tiling = fx_tiling(0.5);
  d.nverts = 4, d.verts = verts, d.npolys = 1, d.polys = &poly;
  d.noffmesh = 1, d.offmesh = &om;
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_create(&d, &t, &e) == OP_OK);
  op_mesh *m1 = fx_mesh(0.5, 4), *m2 = fx_mesh(0.5, 4);
  add(m1, t);
  add(m1, square(1, 0, 0, 0.0));
  add(m2, square(0, 0, 0, 0.0));
  add(m2, square(1, 0, 0, 0.0));
  op_bytes b1 = fx_mesh_bytes(m1), b2 = fx_mesh_bytes(m2);
  OPT_CHECK(b1.len == b2.len + 36);
  OPT_CHECK(occ(m1, 0)->nlinks == 1 && occ(m2, 0)->nlinks == 1 && occ(m1, 1)->nlinks == 1);
  OPT_CHECK(occ(m1, 0)->links[0].target == occ(m2, 0)->links[0].target);
  op_bytes_free(&b1);
  op_bytes_free(&b2);
  op_mesh_free(m1);
  op_mesh_free(m2);
}

/* MESH-002: -0.0 in the origin and the climb is stored as +0.0, so tiles (which never hold
** -0.0, FMT-012) still match and the bytes equal those of a mesh made with +0.0. */
OPT_TEST(negative_zero_params, "MESH-002") {
  op_mesh_params p = fx_mesh_params(-0.0, 4);
  p.tiling.origin[0] = -0.0;
  p.tiling.origin[2] = -0.0;
  op_mesh *m1 = NULL, *m2 = fx_mesh(0.0, 4);
  op_error e;
  OPT_CHECK(op_mesh_create(&p, &m1, &e) == OP_OK);
  op_tile *t = square(0, 0, 0, 0.0);
  op_ref r = 0;
  OPT_CHECK(op_mesh_add_tile(m1, t, &r, &e) == OP_OK);
  add(m2, t);
  op_bytes b1 = fx_mesh_bytes(m1), b2 = fx_mesh_bytes(m2);
  OPT_CHECK(b1.len > 0 && fx_same(&b1, &b2));
  op_bytes_free(&b1);
  op_bytes_free(&b2);
  op_mesh_free(m1);
  op_mesh_free(m2);
}

/* MESH-024: after every step of a random history of adds, removes and replaces on a 3x3
** grid with two layers, the stored links equal links recomputed from scratch (so the
** restitched set is complete), and a snapshot restores the same bytes (SNAP-008). */
/* Issue 17: one AddTile / RemoveTile must not look at every tile of the mesh (each remade
** the tile order by a sort of all tiles and scanned every slot: 16,384 2D tiles took 24 s).
** 4,096 tiles added one by one in rows (as a tiled build adds them), then removed, must
** look at no more than 32 tile entries per operation (m->visits; a scan per operation
** would count 8 million here). Same links as a from-scratch relink. */
OPT_TEST(single_ops_cost, "MESH-024, MESH-061") {
  op_mesh *m = fx_mesh(0.5, 8192);
  int bad = 0;
  for (int z = 0; z < 64; z++)
    for (int x = 0; x < 64; x++) {
      op_ref r = 0;
      op_tile *t = square(x, z, 0, 0.0);
      bad += op_mesh_add_tile(m, t, &r, NULL) != OP_OK;
      op_tile_free(t);
    }
  OPT_CHECK(bad == 0 && m->norder == 4096);
  OPT_CHECK(m->visits <= 32u * 4096u);
  op_bytes b1 = fx_mesh_bytes(m);
  OPT_CHECK(opm_relink_all(m) == 0);
  op_bytes b2 = fx_mesh_bytes(m);
  OPT_CHECK(fx_same(&b1, &b2));
  m->visits = 0;
  for (int x = 0; x < 64; x++)
    for (int z = 0; z < 64; z++) bad += op_mesh_remove_tile(m, x, z, 0, NULL) != OP_OK;
  OPT_CHECK(bad == 0 && m->norder == 0 && m->visits <= 32u * 4096u);
  op_bytes_free(&b1);
  op_bytes_free(&b2);
  op_mesh_free(m);
}

OPT_TEST(random_history, "MESH-024") {
  static const float CUTS[4][4] = {{0, 4}, {0, 1, 4}, {0, 2.5f, 4}, {0, 1, 3, 4}};
  static const int NC[4] = {1, 2, 2, 3};
  op_prng g;
  op_prng_seed(&g, 20261129);
  op_mesh *m = fx_mesh(0.5, 32);
  int bad = 0, steps = 0;
  uint32_t most = 0; /* the most external links seen at once: the history is not trivial */
  for (int step = 0; step < 300; step++) {
    int x = (int)op_prng_below(&g, 3), z = (int)op_prng_below(&g, 3);
    int layer = (int)op_prng_below(&g, 2), c = (int)op_prng_below(&g, 4);
    double oy = 0.25 * (double)op_prng_below(&g, 4);
    int action = (int)op_prng_below(&g, 3);
    op_error e;
    op_ref r = 0;
    op_tile *t = strip_tile(x, z, layer, oy, NC[c], CUTS[c], 0.0f, 0.0f);
    if (action == 0) op_mesh_add_tile(m, t, &r, &e);
    else if (action == 1) op_mesh_replace_tile(m, t, &r, &e);
    else op_mesh_remove_tile(m, x, z, layer, &e);
    op_tile_free(t);
    if (r && op_prng_below(&g, 2)) op_mesh_set_poly_flags(m, r, (uint16_t)step, &e);
    op_bytes b1 = fx_mesh_bytes(m), s = {NULL, 0};
    opm_tkey *want = NULL; /* MESH-061: the kept order is the sorted one */
    uint32_t nwant = 0;
    OPT_CHECK(opm_order_make(m, &want, &nwant, NULL) == 0);
    if (nwant != m->norder || (nwant && memcmp(want, m->order, nwant * sizeof *want))) bad++;
    free(want);
    OPT_CHECK(opm_relink_all(m) == 0);
    op_bytes b2 = fx_mesh_bytes(m);
    if (!fx_same(&b1, &b2) || !links_symmetric(m)) bad++;
    uint32_t ext = 0;
    for (uint32_t k = 0; k < m->nslots; k++) ext += count_ext(m, m->slots[k].index);
    if (ext > most) most = ext;
    OPT_CHECK(op_mesh_snapshot_save(m, &s, &e) == OP_OK);
    op_mesh *n = fx_mesh(0.5, 32);
    OPT_CHECK(op_mesh_snapshot_load(n, s.data, s.len, &e) == OP_OK);
    op_bytes b3 = fx_mesh_bytes(n);
    if (!fx_same(&b1, &b3)) bad++;
    steps++;
    op_mesh_free(n);
    op_bytes_free(&b1);
    op_bytes_free(&b2);
    op_bytes_free(&b3);
    op_bytes_free(&s);
  }
  OPT_CHECK(bad == 0 && steps == 300 && most >= 40);
  fprintf(stderr, "random_history: at most %u external links at once\n", most);
  op_mesh_free(m);
}

typedef struct parts {
  char name[8][64];
  size_t off[8], len[8];
  int n;
} parts;

static void part_cb(void *ud, const char *name, size_t off, size_t len) {
  parts *p = ud;
  if (p->n >= 8) return;
  snprintf(p->name[p->n], sizeof p->name[p->n], "%s", name);
  p->off[p->n] = off;
  p->len[p->n] = len;
  p->n++;
}

/* MESH-044: the parts of a mesh serialization and of a snapshot, and where a tile
** record's own tile bytes start. */
OPT_TEST(artifact_parts, "MESH-044") {
  op_error e;
  op_mesh *m = fx_mesh(0.5, 4);
  add(m, square(0, 0, 0, 0.0));
  add(m, strip_tile(1, 0, 2, 0.0, 2, CUT2, 0.0f, 0.0f));
  op_bytes b = fx_mesh_bytes(m), t0 = {NULL, 0}, t1 = {NULL, 0};
  OPT_CHECK(op_tile_save(occ(m, 0)->tile, &t0, &e) == OP_OK);
  OPT_CHECK(op_tile_save(occ(m, 1)->tile, &t1, &e) == OP_OK);
  parts p;
  memset(&p, 0, sizeof p);
  OPT_CHECK(opa_mesh_parts(b.data, b.len, part_cb, &p) == 0 && p.n == 3);
  OPT_CHECK(!strcmp(p.name[0], "header") && p.off[0] == 0 && p.len[0] == 72);
  OPT_CHECK(!strcmp(p.name[1], "tile 0,0,0") && !strcmp(p.name[2], "tile 1,0,2"));
  OPT_CHECK(p.off[1] == 72 && p.off[2] == p.off[1] + p.len[1] && p.off[2] + p.len[2] == b.len);
  /* record 0: 24 + tile + 4 (no edits) + 4 + two links (to both strips) of 24 bytes */
  OPT_CHECK(p.len[1] == 24 + t0.len + 8 + 48);
  size_t k = opa_tile_record_skip(b.data + p.off[2], p.len[2]);
  OPT_CHECK(k == 24 && !memcmp(b.data + p.off[2] + k, t1.data, t1.len));
  OPT_CHECK(opa_mesh_parts(b.data, b.len - 1, NULL, NULL) == -1);
  op_bytes sn = {NULL, 0};
  OPT_CHECK(op_mesh_snapshot_save(m, &sn, &e) == OP_OK);
  memset(&p, 0, sizeof p);
  OPT_CHECK(opa_snapshot_parts(sn.data, sn.len, part_cb, &p) == 0 && p.n == 6);
  OPT_CHECK(!strcmp(p.name[0], "header") && !strcmp(p.name[1], "section SLOT") &&
            !strcmp(p.name[2], "free") && !strcmp(p.name[3], "ntiles") &&
            !strcmp(p.name[4], "tile 0,0,0") && !strcmp(p.name[5], "tile 1,0,2"));
  k = opa_tile_record_skip(sn.data + p.off[5], p.len[5]);
  OPT_CHECK(k == 24 && p.len[5] == 24 + t1.len + 4 &&
            !memcmp(sn.data + p.off[5] + k, t1.data, t1.len));
  /* the walkers only frame: on any corrupted or truncated input they stay in bounds */
  int oob = 0;
  for (int which = 0; which < 2; which++) {
    const op_bytes *src = which ? &sn : &b;
    uint8_t *c = malloc(src->len);
    for (size_t off = 0; c && off < src->len; off++) {
      for (int pat = 0; pat < 2; pat++) {
        memcpy(c, src->data, src->len);
        c[off] ^= pat ? 0xFF : 0x80;
        for (size_t len = src->len; len + 3 > src->len && len > 0; len -= 1 + off % 2) {
          memset(&p, 0, sizeof p);
          if (which) opa_snapshot_parts(c, len, part_cb, &p);
          else opa_mesh_parts(c, len, part_cb, &p);
          for (int i = 0; i < p.n; i++)
            if (p.off[i] > len || p.len[i] > len - p.off[i]) oob++;
        }
      }
    }
    free(c);
  }
  OPT_CHECK(oob == 0);
  op_bytes_free(&sn);
  op_bytes_free(&b);
  op_bytes_free(&t0);
  op_bytes_free(&t1);
  op_mesh_free(m);
}

OPT_MAIN_BEGIN
OPT_RUN(ref_layout);
OPT_RUN(params_validation);
OPT_RUN(tiling_mismatch);
OPT_RUN(stitch_two);
OPT_RUN(stitch_partial);
OPT_RUN(stitch_point_contact);
OPT_RUN(stitch_layers_climb);
OPT_RUN(stitch_heights_world);
OPT_RUN(stitch_interpolated_gap);
OPT_RUN(stitch_four);
OPT_RUN(order_independence);
OPT_RUN(generations_stale);
OPT_RUN(slot_reuse_and_limit);
OPT_RUN(edits_kept_and_dropped);
OPT_RUN(save_layout);
OPT_RUN(save_link_record);
OPT_RUN(failed_calls_change_nothing);
OPT_RUN(artifact_parts);
OPT_RUN(internal_links);
OPT_RUN(offmesh_unconnected);
OPT_RUN(negative_zero_params);
OPT_RUN(random_history);
OPT_RUN(single_ops_cost);
OPT_MAIN_END
