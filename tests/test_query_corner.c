/*
** test_query_corner.c -- unit tests of QRY-010's world points of a vertex on a tile side or
** corner (spec/query.md, section 2): on a tiling whose tile width W = 8 x 0.3 is not a binary32
** value (fW = 2.4000000953674316, W = 2.3999999999999999), the corner shared by three tiles
** has one world point whichever tile it is read from, and the straight path around it bends
** once there, exactly at (x1, z1) (QRY-082). With FMT-007's `x0 + fW` the two copies differ
** by 9.5e-8 and the funnel turns backwards (four corners instead of three).
**
** Tiles: one square polygon [0, fW] x [0, fW] per tile, every edge a portal.
*/
#include <string.h>

#include "optest.h"
#include "query/query_internal.h"

static op_tiling corner_tiling(void) {
  op_tiling t;
  memset(&t, 0, sizeof t);
  t.cell_size = 0.3;
  t.cell_height = 0.5;
  t.tile_cells = 8;
  t.max_verts_per_poly = 6;
  return t;
}

static op_tile *square_tile(int x, int z) {
  float w = (float)(8 * 0.3); /* FMT-008 */
  float verts[12] = {0, 0, 0, w, 0, 0, w, 0, w, 0, 0, w};
  op_poly_desc p;
  memset(&p, 0, sizeof p);
  p.nverts = 4;
  p.flags = 1;
  for (int k = 0; k < 4; k++) p.verts[k] = (uint16_t)k;
  p.neis[0] = 0x8000 | 3, p.neis[1] = 0x8000 | 2, p.neis[2] = 0x8000 | 1, p.neis[3] = 0x8000 | 0;
  op_tile_desc d;
  memset(&d, 0, sizeof d);
  d.x = x, d.z = z, d.tiling = corner_tiling();
  d.nverts = 4, d.verts = verts, d.npolys = 1, d.polys = &p;
  op_tile *t = NULL;
  op_error e;
  if (op_tile_create(&d, &t, &e) != OP_OK) fprintf(stderr, "  square tile: %s\n", e.message);
  return t;
}

/* Tiles (0, 0), (1, 0), (1, 1): an L around the missing (0, 1). */
static op_mesh *l_mesh(void) {
  op_mesh_params mp;
  memset(&mp, 0, sizeof mp);
  mp.tiling = corner_tiling();
  mp.walkable_climb = 0.5;
  mp.max_tiles = 8;
  op_mesh *m = NULL;
  op_error e;
  if (op_mesh_create(&mp, &m, &e) != OP_OK) return NULL;
  int xz[3][2] = {{0, 0}, {1, 0}, {1, 1}};
  for (int i = 0; i < 3; i++) {
    op_tile *t = square_tile(xz[i][0], xz[i][1]);
    if (!t || op_mesh_add_tile(m, t, NULL, &e) != OP_OK) fprintf(stderr, "  add: %s\n", e.message);
    op_tile_free(t);
  }
  return m;
}

/* QRY-010: vertex 2 of tile (0, 0), vertex 3 of tile (1, 0) and vertex 0 of tile (1, 1) are one
** world point (W, W), W = origin + 1 x W as FMT-005 writes x1 and the next tile's x0. */
OPT_TEST(shared_corner, "QRY-010") {
  op_mesh *m = l_mesh();
  OPT_CHECK(m != NULL);
  double W = 0.0 + 1.0 * (8.0 * 0.3);
  int xz[3][2] = {{0, 0}, {1, 0}, {1, 1}}, k[3] = {2, 3, 0};
  for (int i = 0; i < 3; i++) {
    op_ref r;
    op_error e;
    opq_poly P;
    OPT_CHECK(op_mesh_poly_ref(m, xz[i][0], xz[i][1], 0, 0, &r, &e) == OP_OK);
    OPT_CHECK(opq_poly_get(m, r, "poly", &P, &e) == OP_OK);
    double v[3];
    opq_vert(&P, (uint32_t)k[i], v);
    OPT_CHECK(v[0] == W && v[2] == W);
  }
  op_mesh_free(m);
}

/* QRY-082 on the L: start left in (0, 0), end high in (1, 1); the only bend is the corner. */
OPT_TEST(funnel_corner, "QRY-082") {
  op_mesh *m = l_mesh();
  OPT_CHECK(m != NULL);
  op_query *q = NULL;
  op_error e;
  OPT_CHECK(op_query_create(m, 64, &q, &e) == OP_OK);
  double a[3] = {0.5, 0, 2.0}, b[3] = {2.9, 0, 4.3};
  op_query_path p;
  OPT_CHECK(op_query_find_path(q, a, b, NULL, 8192, &p, &e) == OP_OK && p.status == OP_PATH_FOUND &&
            p.npolys == 3);
  op_ref refs[3];
  for (uint32_t i = 0; i < 3 && i < p.npolys; i++) refs[i] = p.polys[i].ref;
  const op_query_corner *c = NULL;
  uint32_t nc = 0;
  OPT_CHECK(op_query_straight_path(q, a, b, refs, 3, OP_CROSS_NONE, 16, &c, &nc, &e) == OP_OK);
  double W = 0.0 + 1.0 * (8.0 * 0.3);
  OPT_CHECK(nc == 3);
  if (nc == 3) {
    OPT_CHECK(c[1].point[0] == W && c[1].point[2] == W && c[1].flags == 0);
    /* the corner is the left end of portals 0 and 1 alike; QRY-082 step 2 moves L to the later
    ** one (Orient 0), so the corner comes from portal 1 and enters polygon 2, tile (1, 1) */
    OPT_CHECK(c[1].poly.id.x == 1 && c[1].poly.id.z == 1);
  }
  /* the other way round: the same corner */
  refs[0] = p.polys[2].ref, refs[2] = p.polys[0].ref;
  OPT_CHECK(op_query_straight_path(q, b, a, refs, 3, OP_CROSS_NONE, 16, &c, &nc, &e) == OP_OK);
  OPT_CHECK(nc == 3);
  if (nc == 3) OPT_CHECK(c[1].point[0] == W && c[1].point[2] == W);
  op_query_free(q);
  op_mesh_free(m);
}

OPT_MAIN_BEGIN
OPT_RUN(shared_corner);
OPT_RUN(funnel_corner);
OPT_MAIN_END
