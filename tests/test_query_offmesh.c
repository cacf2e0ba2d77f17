/*
** test_query_offmesh.c -- unit tests of off-mesh links in the queries (spec/query.md QRY-070 ..
** QRY-072, navmesh-mesh.md MESH-025): the connections a tile's slots make (snapped points, one
** or two directions, no stored link), the exact cost of an off-mesh edge (QRY-071), the
** OFFMESH corners of the straight path (QRY-072), the radius, the filter on the link's flags.
**
** Tile: fx_tiling (4 x 4 cells of 1), two unit squares [0, 1] x [0, 1] and [2, 3] x [0, 1], walls
** all round, and one slot from (0.75, 0, 0.5) to (ex, 0, 0.5), radius 0.25, area 3, flags 2.
*/
#include <string.h>

#include "fixtures3d.h"
#include "optest.h"
#include "query/query_internal.h"

static op_mesh *gap_mesh(float ex, uint8_t bidir) {
  float verts[24] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 2, 0, 0, 3, 0, 0, 3, 0, 1, 2, 0, 1};
  op_poly_desc p[2];
  memset(p, 0, sizeof p);
  for (int i = 0; i < 2; i++) {
    p[i].nverts = 4;
    p[i].flags = 1;
    for (int k = 0; k < 4; k++) p[i].verts[k] = (uint16_t)(4 * i + k);
  }
  op_offmesh_desc o;
  memset(&o, 0, sizeof o);
  o.start[0] = 0.75f, o.start[2] = 0.5f;
  o.end[0] = ex, o.end[2] = 0.5f;
  o.radius = 0.25f, o.flags = 2, o.area = 3, o.bidirectional = bidir;
  op_tile_desc d;
  memset(&d, 0, sizeof d);
  d.tiling = fx_tiling(0.5);
  d.nverts = 8, d.verts = verts, d.npolys = 2, d.polys = p, d.noffmesh = 1, d.offmesh = &o;
  op_tile *t = NULL;
  op_error e;
  op_mesh *m = fx_mesh(0.5, 4);
  if (!m || op_tile_create(&d, &t, &e) != OP_OK || op_mesh_add_tile(m, t, NULL, &e) != OP_OK) {
    fprintf(stderr, "  gap mesh: %s\n", e.message);
    op_tile_free(t);
    op_mesh_free(m);
    return NULL;
  }
  op_tile_free(t);
  return m;
}

/* QRY-070, MESH-025: two connections (bidirectional), snapped points, no stored link. */
OPT_TEST(connections, "QRY-070") {
  op_mesh *m = gap_mesh(2.25f, 1);
  OPT_CHECK(m != NULL);
  if (!m) return;
  op_query *q = NULL;
  op_error e;
  OPT_CHECK(op_query_create(m, 16, &q, &e) == OP_OK);
  OPT_CHECK(opq_conns_build(q, &e) == OP_OK && q->nconns == 2);
  op_ref r0, r1;
  OPT_CHECK(op_mesh_poly_ref(m, 0, 0, 0, 0, &r0, &e) == OP_OK && op_mesh_poly_ref(m, 0, 0, 0, 1, &r1, &e) == OP_OK);
  if (q->nconns == 2) {
    const opq_conn *c = &q->conns[0], *d = &q->conns[1];
    OPT_CHECK(c->from == r0 && c->to == r1 && c->a[0] == 0.75 && c->b[0] == 2.25 && c->area == 3 && c->flags == 2);
    OPT_CHECK(d->from == r1 && d->to == r0 && d->a[0] == 2.25 && d->b[0] == 0.75);
    OPT_CHECK(opq_conn_first(q, r1) == 1 && opq_conn_first(q, r0) == 0);
  }
  const op_link *l;
  uint32_t nl = 9;
  OPT_CHECK(op_mesh_tile_links(m, 0, 0, 0, &l, &nl, &e) == OP_OK && nl == 0);
  op_query_free(q);
  op_mesh_free(m);
}

/* QRY-071: cost Dist(S, a)·1 + Dist(a, b)·costs[3] + Dist(b, E)·1 = 0.25 + 1.5·2 + 0.25. */
OPT_TEST(edge_cost, "QRY-071") {
  op_mesh *m = gap_mesh(2.25f, 0);
  OPT_CHECK(m != NULL);
  if (!m) return;
  op_query *q = NULL;
  op_error e;
  OPT_CHECK(op_query_create(m, 16, &q, &e) == OP_OK);
  op_query_filter f;
  op_query_filter_init(&f);
  f.area_cost[3] = 2.0;
  double a[3] = {0.5, 0, 0.5}, b[3] = {2.5, 0, 0.5};
  op_query_path p;
  OPT_CHECK(op_query_find_path(q, a, b, &f, 64, &p, &e) == OP_OK && p.status == OP_PATH_FOUND &&
            p.npolys == 2 && p.cost == 3.5 && p.nodes == 2);
  /* one way: no way back */
  OPT_CHECK(op_query_find_path(q, b, a, &f, 64, &p, &e) == OP_OK && p.status == OP_PATH_NONE &&
            p.reason == OP_PATH_DISCONNECTED);
  /* the link's flags (2) excluded */
  f.exclude_flags = 2;
  OPT_CHECK(op_query_find_path(q, a, b, &f, 64, &p, &e) == OP_OK && p.status == OP_PATH_NONE);
  op_query_free(q);
  op_mesh_free(m);
}

/* QRY-072: START, OFFMESH (a, polygon 0), OFFMESH (b, polygon 1), END; an unlinked step fails. */
OPT_TEST(corners, "QRY-072") {
  op_mesh *m = gap_mesh(2.25f, 0);
  OPT_CHECK(m != NULL);
  if (!m) return;
  op_query *q = NULL;
  op_error e;
  OPT_CHECK(op_query_create(m, 16, &q, &e) == OP_OK);
  op_ref r[2];
  OPT_CHECK(op_mesh_poly_ref(m, 0, 0, 0, 0, &r[0], &e) == OP_OK && op_mesh_poly_ref(m, 0, 0, 0, 1, &r[1], &e) == OP_OK);
  double a[3] = {0.5, 0, 0.5}, b[3] = {2.5, 0, 0.5};
  const op_query_corner *c = NULL;
  uint32_t nc = 0;
  OPT_CHECK(op_query_straight_path(q, a, b, r, 2, OP_CROSS_ALL, 16, &c, &nc, &e) == OP_OK && nc == 4);
  if (nc == 4) {
    OPT_CHECK(c[0].flags == OP_CORNER_START && c[1].flags == OP_CORNER_OFFMESH &&
              c[2].flags == OP_CORNER_OFFMESH && c[3].flags == OP_CORNER_END);
    OPT_CHECK(c[1].point[0] == 0.75 && c[1].poly.id.poly == 0 && c[2].point[0] == 2.25 && c[2].poly.id.poly == 1);
  }
  op_ref back[2] = {r[1], r[0]};
  OPT_CHECK(op_query_straight_path(q, b, a, back, 2, OP_CROSS_NONE, 16, &c, &nc, &e) == OP_E_ARGUMENT &&
            !strcmp(e.field, "path[1]"));
  op_query_free(q);
  op_mesh_free(m);
}

/* QRY-070 step 3: the end 0.5 beyond polygon 1 and a radius of 0.25: no connection. */
OPT_TEST(radius, "QRY-070") {
  op_mesh *m = gap_mesh(1.5f, 1);
  OPT_CHECK(m != NULL);
  if (!m) return;
  op_query *q = NULL;
  op_error e;
  OPT_CHECK(op_query_create(m, 16, &q, &e) == OP_OK);
  OPT_CHECK(opq_conns_build(q, &e) == OP_OK && q->nconns == 0);
  double a[3] = {0.5, 0, 0.5}, b[3] = {2.5, 0, 0.5};
  op_query_path p;
  OPT_CHECK(op_query_find_path(q, a, b, NULL, 64, &p, &e) == OP_OK && p.status == OP_PATH_NONE);
  op_query_free(q);
  op_mesh_free(m);
}

OPT_MAIN_BEGIN
OPT_RUN(connections);
OPT_RUN(edge_cost);
OPT_RUN(corners);
OPT_RUN(radius);
OPT_MAIN_END
