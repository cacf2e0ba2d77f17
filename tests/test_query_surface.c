/*
** test_query_surface.c -- unit tests of the surface queries (spec/query-surface.md, QSF):
** raycast's exit edges and vertex ties (QSF-104), links and parameters (QSF-105), answers,
** normals and costs (QSF-106, QSF-107), the visited cap (QSF-103); move along surface's
** search, walls, cap and end points (QSF-111 .. QSF-116); the argument checks of both in
** their order (QSF-101, QSF-103) and the inside rule (QSF-115); polygons in a box, random
** points recomputed by hand from the draws, distance to wall (QSF-120 .. QSF-143).
**
** Tiles: grids of unit squares on fx_tiling (4 x 4 cells of 1 a tile, world = local on tile
** (0, 0)), cell (i, j) polygon j * n + i when there are no holes.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "optest.h"
#include "query/surface_internal.h"

/* A tile at (x, z) of n x n squares of side 4 / n; hole(i, j) cells absent; local y = oy. */
static op_tile *grid_tile(int x, int z, double oy, int n, const char *holes) {
  float verts[3 * 25];
  op_poly_desc polys[16];
  int vid[5][5], idx[4][4], nv = 0, np = 0;
  float s = 4.0f / (float)n;
  memset(vid, -1, sizeof vid);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) idx[j][i] = holes && holes[j * n + i] == '#' ? -1 : np++;
  np = 0;
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++) {
      if (idx[j][i] < 0) continue;
      op_poly_desc *p = &polys[np++];
      memset(p, 0, sizeof *p);
      p->nverts = 4;
      p->flags = 1;
      int ci[4] = {i, i + 1, i + 1, i}, cj[4] = {j, j, j + 1, j + 1};
      for (int k = 0; k < 4; k++) {
        if (vid[cj[k]][ci[k]] < 0) {
          vid[cj[k]][ci[k]] = nv;
          verts[3 * nv] = (float)ci[k] * s;
          verts[3 * nv + 1] = 0.0f;
          verts[3 * nv + 2] = (float)cj[k] * s;
          nv++;
        }
        p->verts[k] = (uint16_t)vid[cj[k]][ci[k]];
      }
      int di[4] = {0, 1, 0, -1}, dj[4] = {-1, 0, 1, 0}, side[4] = {3, 2, 1, 0};
      for (int k = 0; k < 4; k++) {
        int a = i + di[k], b = j + dj[k];
        if (a < 0 || b < 0 || a >= n || b >= n) p->neis[k] = (uint16_t)(0x8000 | side[k]);
        else if (idx[b][a] >= 0) p->neis[k] = (uint16_t)(idx[b][a] + 1);
        else p->neis[k] = 0;
      }
    }
  }
  op_tile_desc d;
  memset(&d, 0, sizeof d);
  d.x = x, d.z = z, d.tiling = fx_tiling(0.5), d.origin_y = oy;
  d.nverts = (uint32_t)nv, d.verts = verts, d.npolys = (uint32_t)np, d.polys = polys;
  op_tile *t = NULL;
  op_error e;
  if (op_tile_create(&d, &t, &e) != OP_OK) fprintf(stderr, "  grid tile: %s\n", e.message);
  return t;
}

static int add_tile(op_mesh *m, op_tile *t) {
  op_error e;
  int ok = t && op_mesh_add_tile(m, t, NULL, &e) == OP_OK;
  op_tile_free(t);
  return ok;
}

static int has(const op_error *e, op_status kind, const char *field, const char *value) {
  return e->kind == kind && !strcmp(e->field, field) && (!value || !strcmp(e->value, value));
}

static op_ref pref(op_mesh *m, int x, int z, uint32_t k) {
  op_ref r = 0;
  op_error e;
  op_mesh_poly_ref(m, x, z, 0, k, &r, &e);
  return r;
}

/* the visited polygons are tile (0, 0)'s polygons want[0 .. n-1] */
static int polys_are(const op_query_poly *v, uint32_t nv, const uint32_t *want, uint32_t n) {
  if (nv != n) return 0;
  for (uint32_t i = 0; i < n; i++)
    if (v[i].id.x != 0 || v[i].id.z != 0 || v[i].id.poly != want[i]) return 0;
  return 1;
}

typedef struct fx {
  op_mesh *m;
  op_query *q;
  op_query_poly vis[64];
  op_error e;
} fx;

static int fx_open(fx *f, const char *holes) {
  f->m = fx_mesh(0.5, 8);
  f->q = NULL;
  if (!f->m || !add_tile(f->m, grid_tile(0, 0, 0.0, 4, holes))) return 0;
  return op_query_create(f->m, 16, &f->q, &f->e) == OP_OK;
}

static void fx_close(fx *f) {
  op_query_free(f->q);
  op_mesh_free(f->m);
}

static op_status ray(fx *f, uint32_t k, const double s[3], const double e[3], uint32_t maxv,
                     op_query_ray *r) {
  return op_query_raycast(f->q, pref(f->m, 0, 0, k), s, e, NULL, 1, f->vis, maxv, r, &f->e);
}

/* ----------------------------------------------------------------------------- raycast */

OPT_TEST(ray_end_and_wall, "QSF-106") {
  fx f;
  OPT_CHECK(fx_open(&f, NULL));
  op_query_ray r;
  double s[3] = {0.5, 0, 0.5}, e[3] = {3.5, 0, 0.5}, w[3] = {5, 0, 0.5};
  static const uint32_t row[4] = {0, 1, 2, 3};
  OPT_CHECK(ray(&f, 0, s, e, 64, &r) == OP_OK && r.status == OP_RAY_END && r.t == 1.0 &&
            polys_are(f.vis, r.npolys, row, 4) && fabs(r.cost - 3.0) < 1e-12);
  /* the tile's border x = 4 has no neighbour: a wall, its normal -x into polygon 3 */
  OPT_CHECK(ray(&f, 0, s, w, 64, &r) == OP_OK && r.status == OP_RAY_WALL &&
            r.t == 3.5 / 4.5 && r.edge == 1 && r.normal[0] == -1.0 && r.normal[1] == 0.0 &&
            r.normal[2] == 0.0 && !signbit(r.normal[2]) && polys_are(f.vis, r.npolys, row, 4));
  OPT_CHECK(fabs(r.cost - 3.5) < 1e-12);
  /* the cap: two polygons, then the crossing of x = 2 at t = 0.5 ends the walk */
  OPT_CHECK(ray(&f, 0, s, e, 2, &r) == OP_OK && r.status == OP_RAY_LIMIT && r.t == 0.5 &&
            polys_are(f.vis, r.npolys, row, 2) && r.cost == 1.5);
  OPT_CHECK(ray(&f, 0, s, e, 4, &r) == OP_OK && r.status == OP_RAY_END);
  /* zero length: end at once */
  OPT_CHECK(ray(&f, 0, s, s, 1, &r) == OP_OK && r.status == OP_RAY_END && r.t == 1.0 &&
            r.npolys == 1 && r.cost == 0.0);
  fx_close(&f);
}

OPT_TEST(ray_vertex_tie, "QSF-104") {
  fx f;
  OPT_CHECK(fx_open(&f, NULL));
  op_query_ray r;
  /* the diagonal through (1, 1) and (2, 2): the edge starting at the vertex first */
  double a[3] = {0.5, 0, 0.5}, b[3] = {2.5, 0, 2.5};
  static const uint32_t up[5] = {0, 4, 5, 9, 10}, down[5] = {10, 6, 5, 1, 0};
  OPT_CHECK(ray(&f, 0, a, b, 64, &r) == OP_OK && r.status == OP_RAY_END &&
            polys_are(f.vis, r.npolys, up, 5));
  OPT_CHECK(ray(&f, 10, b, a, 64, &r) == OP_OK && r.status == OP_RAY_END &&
            polys_are(f.vis, r.npolys, down, 5));
  /* along the internal edge x = 1 from polygon 0 (left of it) and from polygon 1 (right) */
  double c[3] = {1, 0, 0.5}, d[3] = {1, 0, 3.5};
  static const uint32_t left[4] = {0, 4, 8, 12}, right[4] = {1, 5, 9, 13};
  OPT_CHECK(ray(&f, 0, c, d, 64, &r) == OP_OK && r.status == OP_RAY_END &&
            polys_are(f.vis, r.npolys, left, 4));
  OPT_CHECK(ray(&f, 1, c, d, 64, &r) == OP_OK && r.status == OP_RAY_END &&
            polys_are(f.vis, r.npolys, right, 4));
  fx_close(&f);
}

OPT_TEST(ray_grazes_wall_end, "QSF-104") {
  /* a hole at cell (1, 1): the ray from cell (0, 0) through vertex (1, 1) toward (1.5, 1.5)
  ** ends in the hole's corner: polygon 0's edge starting at (1, 1) leads to cell (0, 1), whose
  ** edge into the hole is a wall */
  fx f;
  OPT_CHECK(fx_open(&f, "....." "#.........."));
  op_query_ray r;
  double a[3] = {0.5, 0, 0.5}, b[3] = {1.5, 0, 1.5};
  OPT_CHECK(ray(&f, 0, a, b, 64, &r) == OP_OK && r.status == OP_RAY_WALL && r.t == 0.5);
  OPT_CHECK(r.npolys == 2 && f.vis[1].id.poly == 4 && r.edge == 1);
  /* toward (1.5, 0.5): across the internal edge, no vertex */
  double c[3] = {1.5, 0, 0.75};
  OPT_CHECK(ray(&f, 0, a, c, 64, &r) == OP_OK && r.status == OP_RAY_END && r.npolys == 2 &&
            f.vis[1].id.poly == 1);
  fx_close(&f);
}

OPT_TEST(ray_on_portal, "QSF-105") {
  fx f;
  OPT_CHECK(fx_open(&f, NULL));
  op_query_ray r;
  /* starting on the portal between 0 and 1: crossed at t = 0 */
  double s[3] = {1, 0, 0.5}, e[3] = {3.5, 0, 0.5}, back[3] = {-1, 0, 0.5};
  OPT_CHECK(ray(&f, 0, s, e, 64, &r) == OP_OK && r.status == OP_RAY_END && r.npolys == 4 &&
            f.vis[1].id.poly == 1);
  OPT_CHECK(ray(&f, 1, s, back, 64, &r) == OP_OK && r.status == OP_RAY_WALL && r.npolys == 2 &&
            r.t == 0.5 && r.normal[0] == 1.0 && r.edge == 3);
  fx_close(&f);
}

OPT_TEST(ray_tiles_and_filter, "QSF-105") {
  /* tile (0, 0) of cells 1, tile (1, 0) of cells 2: partial portals (MESH-022) */
  op_mesh *m = fx_mesh(0.5, 8);
  OPT_CHECK(add_tile(m, grid_tile(0, 0, 0.0, 4, NULL)) && add_tile(m, grid_tile(1, 0, 0.0, 2, NULL)));
  op_query *q = NULL;
  op_error e;
  OPT_CHECK(op_query_create(m, 1, &q, &e) == OP_OK);
  op_query_poly vis[16];
  op_query_ray r;
  double s[3] = {0.5, 0, 1.5}, t[3] = {7.5, 0, 1.5};
  OPT_CHECK(op_query_raycast(q, pref(m, 0, 0, 4), s, t, NULL, 0, vis, 16, &r, &e) == OP_OK &&
            r.status == OP_RAY_END && r.npolys == 6 && vis[4].id.x == 1 && vis[4].id.poly == 0 &&
            vis[5].id.poly == 1 && r.cost == 0.0);
  /* through the border vertex (4, 2) of two links of tile (1, 0) side: still linked */
  double u[3] = {0.5, 0, 0.25}, w[3] = {7.5, 0, 3.75};
  OPT_CHECK(op_query_raycast(q, pref(m, 0, 0, 0), u, w, NULL, 0, vis, 16, &r, &e) == OP_OK &&
            r.status == OP_RAY_END && vis[r.npolys - 1].id.x == 1 && vis[r.npolys - 1].id.poly == 3);
  /* polygon 1 of tile (1, 0) excluded: a wall at x = 4 for the first ray */
  OPT_CHECK(op_mesh_set_poly_flags(m, pref(m, 1, 0, 0), 2, &e) == OP_OK);
  op_query_filter f;
  op_query_filter_init(&f);
  f.exclude_flags = 2;
  OPT_CHECK(op_query_raycast(q, pref(m, 0, 0, 4), s, t, &f, 1, vis, 16, &r, &e) == OP_OK &&
            r.status == OP_RAY_WALL && r.npolys == 4 && r.t == 0.5 && fabs(r.cost - 3.5) < 1e-12);
  /* the start polygon itself excluded */
  OPT_CHECK(op_query_raycast(q, pref(m, 1, 0, 0), t, s, &f, 0, vis, 16, &r, &e) == OP_E_ARGUMENT &&
            !strcmp(e.field, "poly"));
  op_query_free(q);
  op_mesh_free(m);
}

OPT_TEST(ray_errors, "QSF-101") {
  fx f;
  OPT_CHECK(fx_open(&f, NULL));
  op_query_ray r;
  double s[3] = {0.5, 0, 0.5}, e[3] = {3.5, 0, 0.5}, bad[3] = {NAN, 0, 0};
  op_ref p0 = pref(f.m, 0, 0, 0);
  OPT_CHECK(op_query_raycast(f.q, p0, bad, e, NULL, 0, f.vis, 4, &r, &f.e) == OP_E_RANGE &&
            has(&f.e, OP_E_RANGE, "start[0]", "NaN"));
  OPT_CHECK(op_query_raycast(f.q, 0, s, bad, NULL, 0, f.vis, 0, &r, &f.e) == OP_E_RANGE &&
            has(&f.e, OP_E_RANGE, "end[0]", "NaN"));
  op_query_filter flt;
  op_query_filter_init(&flt);
  flt.area_cost[2] = -1;
  OPT_CHECK(op_query_raycast(f.q, 0, s, e, &flt, 0, f.vis, 0, &r, &f.e) == OP_E_RANGE &&
            has(&f.e, OP_E_RANGE, "filter.costs[2]", "-1"));
  OPT_CHECK(op_query_raycast(f.q, 0, s, e, NULL, 0, f.vis, 0, &r, &f.e) == OP_E_RANGE &&
            has(&f.e, OP_E_RANGE, "max_visited", "0"));
  OPT_CHECK(op_query_raycast(f.q, 0, s, e, NULL, 0, f.vis, 65537, &r, &f.e) == OP_E_RANGE &&
            has(&f.e, OP_E_RANGE, "max_visited", "65537"));
  OPT_CHECK(op_query_raycast(f.q, 0, s, e, NULL, 0, NULL, 4, &r, &f.e) == OP_E_ARGUMENT &&
            has(&f.e, OP_E_ARGUMENT, "visited", NULL));
  OPT_CHECK(op_query_raycast(f.q, 0, s, e, NULL, 0, f.vis, 4, &r, &f.e) == OP_E_ARGUMENT &&
            has(&f.e, OP_E_ARGUMENT, "poly", "0000000000000000"));
  OPT_CHECK(op_query_raycast(f.q, pref(f.m, 0, 0, 1), s, e, NULL, 0, f.vis, 4, &r, &f.e) ==
                OP_E_ARGUMENT && has(&f.e, OP_E_ARGUMENT, "start", "0.5,0,0.5"));
  OPT_CHECK(op_query_raycast(f.q, p0, s, e, NULL, 0, f.vis, 4, NULL, &f.e) == OP_E_ARGUMENT);
  OPT_CHECK(op_query_raycast(NULL, p0, s, e, NULL, 0, f.vis, 4, &r, &f.e) == OP_E_ARGUMENT);
  /* -0 is +0 in the start's error value */
  double z[3] = {-0.0, 0, 3.5};
  OPT_CHECK(op_query_raycast(f.q, p0, z, e, NULL, 0, f.vis, 4, &r, &f.e) == OP_E_ARGUMENT &&
            has(&f.e, OP_E_ARGUMENT, "start", "0,0,3.5"));
  fx_close(&f);
}

OPT_TEST(ray_status_names, "QSF-106") {
  OPT_CHECK(!strcmp(op_ray_status_name(OP_RAY_END), "end") &&
            !strcmp(op_ray_status_name(OP_RAY_WALL), "wall") &&
            !strcmp(op_ray_status_name(OP_RAY_LIMIT), "limit") &&
            !strcmp(op_ray_status_name((op_ray_status)9), ""));
}

/* ------------------------------------------------------------------- move along surface */

static op_status move(fx *f, uint32_t k, const double s[3], const double e[3], uint32_t maxv,
                      op_query_move *mv) {
  return op_query_move_along_surface(f->q, pref(f->m, 0, 0, k), s, e, NULL, f->vis, maxv, mv,
                                     &f->e);
}

OPT_TEST(move_reach_and_wall, "QSF-112") {
  fx f;
  OPT_CHECK(fx_open(&f, NULL));
  op_query_move mv;
  double s[3] = {0.5, 0, 0.5}, e[3] = {3.5, 7, 0.5}, w[3] = {5, 0, 0.5};
  static const uint32_t row[4] = {0, 1, 2, 3};
  OPT_CHECK(move(&f, 0, s, e, 64, &mv) == OP_OK && mv.point[0] == 3.5 && mv.point[1] == 0.0 &&
            mv.point[2] == 0.5 && mv.poly.id.poly == 3 && polys_are(f.vis, mv.nvisited, row, 4) &&
            !mv.truncated);
  OPT_CHECK(move(&f, 0, s, w, 64, &mv) == OP_OK && mv.point[0] == 4.0 && mv.point[2] == 0.5 &&
            mv.poly.id.poly == 3 && polys_are(f.vis, mv.nvisited, row, 4));
  /* a cap of 2 nodes: polygon 0 makes 1 (right), polygon 4 (up) left out: truncated */
  OPT_CHECK(move(&f, 0, s, w, 2, &mv) == OP_OK && mv.truncated && mv.poly.id.poly == 1 &&
            mv.nvisited == 2);
  /* zero length: stays, in the start polygon */
  OPT_CHECK(move(&f, 0, s, s, 1, &mv) == OP_OK && mv.point[0] == 0.5 && mv.nvisited == 1 &&
            !mv.truncated);
  fx_close(&f);
}

OPT_TEST(move_ring, "QSF-114") {
  /* the ring around a 2 x 2 hole: moving from (0.5, 0.5) toward (2, 2) stops at (2, 1) on
  ** polygon 1's wall, the first of the two points at distance 1 ((1, 2) is polygon 4's) */
  fx f;
  OPT_CHECK(fx_open(&f, "....." "##.." "##....."));
  op_query_move mv;
  double s[3] = {0.5, 0, 0.5}, e[3] = {2, 0, 2};
  OPT_CHECK(move(&f, 0, s, e, 64, &mv) == OP_OK && mv.point[0] == 2.0 && mv.point[2] == 1.0);
  OPT_CHECK(mv.poly.id.poly == 1 && mv.nvisited == 2 && f.vis[0].id.poly == 0);
  /* toward (2, 1.25) from (1.5, 0.5): the wall z = 1 of polygon 1 or 2; x = 2 on their shared
  ** vertex column, 1 first */
  double s2[3] = {1.5, 0, 0.5}, e2[3] = {2, 0, 1.25};
  OPT_CHECK(move(&f, 1, s2, e2, 64, &mv) == OP_OK && mv.point[0] == 2.0 && mv.point[2] == 1.0 &&
            mv.poly.id.poly == 1);
  fx_close(&f);
}

OPT_TEST(move_errors, "QSF-110") {
  fx f;
  OPT_CHECK(fx_open(&f, NULL));
  op_query_move mv;
  double s[3] = {0.5, 0, 0.5}, e[3] = {3.5, 0, 0.5}, inf[3] = {0, INFINITY, 0};
  OPT_CHECK(op_query_move_along_surface(f.q, 0, inf, e, NULL, f.vis, 4, &mv, &f.e) ==
                OP_E_RANGE && has(&f.e, OP_E_RANGE, "start[1]", "Infinity"));
  OPT_CHECK(op_query_move_along_surface(f.q, 0, s, e, NULL, f.vis, 4, &mv, &f.e) ==
                OP_E_ARGUMENT && has(&f.e, OP_E_ARGUMENT, "poly", "0000000000000000"));
  OPT_CHECK(op_query_move_along_surface(f.q, 0, s, e, NULL, f.vis, 0, &mv, &f.e) ==
                OP_E_RANGE && has(&f.e, OP_E_RANGE, "max_visited", "0"));
  OPT_CHECK(op_query_move_along_surface(f.q, 0, s, e, NULL, f.vis, 4, NULL, &f.e) == OP_E_ARGUMENT);
  /* a start outside its polygon is allowed: the answer is made inside (QSF-115) */
  double out[3] = {1.75, 0, 0.5}, far[3] = {1.75, 0, -3};
  OPT_CHECK(move(&f, 0, out, far, 8, &mv) == OP_OK && mv.poly.id.poly == 1 &&
            mv.point[0] == 1.75 && mv.point[2] == 0.0 && mv.nvisited == 2);
  fx_close(&f);
}

OPT_TEST(make_inside, "QSF-115") {
  fx f;
  OPT_CHECK(fx_open(&f, NULL));
  opq_poly P;
  opq_begin(f.q);
  OPT_CHECK(opq_poly_get_q(f.q, pref(f.m, 0, 0, 3), "poly", &P, &f.e) == OP_OK);
  double p[3] = {4.0 + 0x1p-40, 0, 0.5};
  opq_make_inside(&P, p);
  double want = (4.0 + 0x1p-40) + (3.5 - (4.0 + 0x1p-40)) * 0x1p-40;
  OPT_CHECK(want > 4.0); /* the first factor is not enough */
  want = (4.0 + 0x1p-40) + (3.5 - (4.0 + 0x1p-40)) * 0x1p-30;
  OPT_CHECK(p[0] == want && p[0] <= 4.0 && p[2] == 0.5);
  double far[3] = {100, 0, 100};
  opq_make_inside(&P, far);
  OPT_CHECK(far[0] == 3.0 && far[2] == 0.0); /* none inside: vertex 0 */
  double in[3] = {3.25, 0, 0.75};
  opq_make_inside(&P, in);
  OPT_CHECK(in[0] == 3.25 && in[2] == 0.75);
  fx_close(&f);
}

/* -------------------------------------------------- polygons in a box, random, wall */

OPT_TEST(box_order_and_cap, "QSF-122") {
  fx f;
  OPT_CHECK(fx_open(&f, NULL));
  uint32_t n = 0;
  int tr = 0;
  double c[3] = {2, 0, 2}, h[3] = {0.5, 0.5, 0.5}, far[3] = {5, 0, 5}, one[3] = {1, 1, 1};
  static const uint32_t mid[4] = {5, 6, 9, 10};
  OPT_CHECK(op_query_polys_in_box(f.q, c, h, NULL, f.vis, 64, &n, &tr, &f.e) == OP_OK &&
            polys_are(f.vis, n, mid, 4) && !tr);
  OPT_CHECK(op_query_polys_in_box(f.q, c, h, NULL, f.vis, 3, &n, &tr, &f.e) == OP_OK &&
            polys_are(f.vis, n, mid, 3) && tr);
  static const uint32_t corner[1] = {15};
  OPT_CHECK(op_query_polys_in_box(f.q, far, one, NULL, f.vis, 64, &n, &tr, &f.e) == OP_OK &&
            polys_are(f.vis, n, corner, 1)); /* touches (4, 4) only */
  double z[3] = {0, 0, 1};
  OPT_CHECK(op_query_polys_in_box(f.q, c, z, NULL, f.vis, 64, &n, &tr, &f.e) == OP_E_RANGE &&
            has(&f.e, OP_E_RANGE, "half_extents[0]", "0"));
  OPT_CHECK(op_query_polys_in_box(f.q, c, h, NULL, f.vis, 0, &n, &tr, &f.e) == OP_E_RANGE &&
            has(&f.e, OP_E_RANGE, "max_polys", "0"));
  OPT_CHECK(op_query_polys_in_box(f.q, c, h, NULL, NULL, 4, &n, &tr, &f.e) == OP_E_ARGUMENT);
  OPT_CHECK(op_query_polys_in_box(f.q, c, NULL, NULL, f.vis, 4, &n, &tr, &f.e) == OP_E_ARGUMENT);
  fx_close(&f);
}

OPT_TEST(random_draws, "QSF-130") {
  fx f;
  OPT_CHECK(fx_open(&f, NULL));
  op_prng a, b;
  op_prng_seed(&a, 7);
  op_prng_seed(&b, 7);
  op_query_random r;
  OPT_CHECK(op_query_random_point(f.q, NULL, &a, &r, &f.e) == OP_OK && r.found);
  /* by hand (QSF-131 .. QSF-133): total 16, polygon by u1, triangle by u2, point by u3, u4 */
  double u1 = op_prng_unit(&b), u2 = op_prng_unit(&b), u3 = op_prng_unit(&b), u4 = op_prng_unit(&b);
  uint32_t k = (uint32_t)(u1 * 16.0);
  double x0 = (double)(k % 4), z0 = (double)(k / 4), s = sqrt(u3), w1 = s * (1.0 - u4), w2 = s * u4;
  double x, z;
  if (u2 * 1.0 < 0.5) { /* triangle (v0, v1, v2) */
    x = (x0 + 1.0 * w1) + 1.0 * w2, z = (z0 + 0.0 * w1) + 1.0 * w2;
  } else { /* (v0, v2, v3) */
    x = (x0 + 1.0 * w1) + 0.0 * w2, z = (z0 + 1.0 * w1) + 1.0 * w2;
  }
  OPT_CHECK(r.poly.id.poly == k && r.point[0] == x && r.point[2] == z && r.point[1] == 0.0);
  op_query_filter flt;
  op_query_filter_init(&flt);
  flt.include_flags = 2;
  uint64_t before = a.s[0];
  OPT_CHECK(op_query_random_point(f.q, &flt, &a, &r, &f.e) == OP_OK && !r.found && a.s[0] == before);
  OPT_CHECK(op_query_random_point(f.q, NULL, NULL, &r, &f.e) == OP_E_ARGUMENT &&
            has(&f.e, OP_E_ARGUMENT, "prng", NULL));
  flt.area_cost[0] = NAN;
  OPT_CHECK(op_query_random_point(f.q, &flt, &a, &r, &f.e) == OP_E_RANGE &&
            has(&f.e, OP_E_RANGE, "filter.costs[0]", "NaN"));
  fx_close(&f);
}

OPT_TEST(wall_distance, "QSF-143") {
  fx f;
  OPT_CHECK(fx_open(&f, NULL));
  op_query_wall w;
  double c[3] = {1.5, 0, 1.25};
  OPT_CHECK(op_query_distance_to_wall(f.q, pref(f.m, 0, 0, 5), c, 3, NULL, 64, &w, &f.e) == OP_OK &&
            w.found && w.distance == 1.25 && w.point[0] == 1.5 && w.point[2] == 0.0 &&
            w.normal[0] == 0.0 && w.normal[2] == 1.0 && !w.truncated);
  OPT_CHECK(op_query_distance_to_wall(f.q, pref(f.m, 0, 0, 5), c, 1, NULL, 64, &w, &f.e) == OP_OK &&
            !w.found && w.distance == 1.0);
  OPT_CHECK(op_query_distance_to_wall(f.q, pref(f.m, 0, 0, 5), c, 3, NULL, 2, &w, &f.e) == OP_OK &&
            w.truncated && w.nvisited == 2);
  OPT_CHECK(op_query_distance_to_wall(f.q, pref(f.m, 0, 0, 5), c, 0, NULL, 2, &w, &f.e) == OP_E_RANGE &&
            has(&f.e, OP_E_RANGE, "radius", "0"));
  OPT_CHECK(op_query_distance_to_wall(f.q, pref(f.m, 0, 0, 5), c, 1, NULL, 0, &w, &f.e) == OP_E_RANGE &&
            has(&f.e, OP_E_RANGE, "max_visited", "0"));
  OPT_CHECK(op_query_distance_to_wall(f.q, 0, c, 1, NULL, 1, &w, &f.e) == OP_E_ARGUMENT &&
            has(&f.e, OP_E_ARGUMENT, "poly", "0000000000000000"));
  OPT_CHECK(op_query_distance_to_wall(f.q, 0, c, 1, NULL, 1, NULL, &f.e) == OP_E_ARGUMENT);
  fx_close(&f);
}

OPT_MAIN_BEGIN
OPT_RUN(ray_end_and_wall);
OPT_RUN(ray_vertex_tie);
OPT_RUN(ray_grazes_wall_end);
OPT_RUN(ray_on_portal);
OPT_RUN(ray_tiles_and_filter);
OPT_RUN(ray_errors);
OPT_RUN(ray_status_names);
OPT_RUN(move_reach_and_wall);
OPT_RUN(move_ring);
OPT_RUN(move_errors);
OPT_RUN(make_inside);
OPT_RUN(box_order_and_cap);
OPT_RUN(random_draws);
OPT_RUN(wall_distance);
OPT_MAIN_END
