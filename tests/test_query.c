/*
** test_query.c -- unit tests of the queries (spec/query.md) for what a scenario cannot reach:
** the exact orientation on binary64 against exact integer arithmetic on near-degenerate
** points (QRY-011, QRY-012), the C interface's checks and limits (QRY-033, QRY-060, QRY-061,
** QRY-080), detail-mesh heights with the fallbacks (QRY-043), answers unchanged over many
** insertion orders and slot histories (QRY-023, QRY-067), a query object reused and seeing
** the mesh change (QRY-002), also through what it keeps per tile (reuse_after_edits).
**
** Tiles: grids of unit squares on fx_tiling (4 x 4 cells of 1 a tile), holes allowed.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "optest.h"
#include "query/query_internal.h"

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

/* ------------------------------------------------------------------ QRY-011, QRY-012 */

/* Exact sign of D for coordinates k * 2^-30 with |k| < 2^52, in 128-bit integers. */
static int exact_sign(const int64_t a[2], const int64_t b[2], const int64_t c[2]) {
  __int128 d = (__int128)(b[0] - a[0]) * (c[1] - a[1]) - (__int128)(b[1] - a[1]) * (c[0] - a[0]);
  return d > 0 ? 1 : d < 0 ? -1 : 0;
}

OPT_TEST(orient_exact, "QRY-012") {
  op_prng r;
  op_prng_seed(&r, 14);
  int naive_wrong = 0, n = 0;
  for (int it = 0; it < 200000; it++) {
    int64_t p[3][2];
    int64_t span = (int64_t)1 << (20 + (int)op_prng_below(&r, 32)); /* up to 2^51 */
    for (int k = 0; k < 2; k++) {
      p[0][k] = (int64_t)op_prng_below(&r, (uint64_t)span) - span / 2;
      p[1][k] = (int64_t)op_prng_below(&r, (uint64_t)span) - span / 2;
    }
    /* c on the line a -> b at a PRNG parameter, then moved by -1, 0 or +1 unit */
    int64_t num = (int64_t)op_prng_below(&r, 9) - 2, den = 4;
    for (int k = 0; k < 2; k++)
      p[2][k] = p[0][k] + (p[1][k] - p[0][k]) / den * num + (int64_t)op_prng_below(&r, 3) - 1;
    double a[3], b[3], c[3];
    double sc = 0x1p-30;
    a[0] = (double)p[0][0] * sc, a[2] = (double)p[0][1] * sc;
    b[0] = (double)p[1][0] * sc, b[2] = (double)p[1][1] * sc;
    c[0] = (double)p[2][0] * sc, c[2] = (double)p[2][1] * sc;
    a[1] = b[1] = c[1] = 0.0;
    int want = exact_sign(p[0], p[1], p[2]);
    OPT_CHECK(opq_orient(a, b, c) == want);
    double nd = (b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0]);
    int naive = nd > 0 ? 1 : nd < 0 ? -1 : 0;
    if (naive != want) naive_wrong++;
    n++;
  }
  OPT_CHECK(n == 200000);
  OPT_CHECK(naive_wrong > 0); /* the cases are hard enough that a rounded evaluation fails */
}

/* QRY-012's zero shortcut (geom.c: both rounded products 0 give D = 0) on the cases that
** reach it, and the smallest nonzero differences (2^-452 apart at the flush bound 2^-400,
** QRY-011), whose product 2^-904 must not round to 0: then D = +2^-904 exactly, sign +1. */
OPT_TEST(orient_zero_products, "QRY-012") {
  double a[3] = {3.25, 7.0, -1.5}, b[3] = {3.25, -2.0, -1.5}, c[3] = {9.0, 0.0, 4.0};
  OPT_CHECK(opq_orient(a, b, c) == 0); /* a and b coincide in the plane */
  OPT_CHECK(opq_orient(a, c, c) == 0); /* b and c the same point */
  double d[3] = {3.25, 0.0, 8.0}, f[3] = {3.25, 0.0, 100.0};
  OPT_CHECK(opq_orient(a, d, f) == 0); /* one vertical line: both products have a 0 factor */
  double g[3] = {-1e-300, 0.0, 5.0}, h[3] = {1e-300, 0.0, 6.0}, k[3] = {0.0, 0.0, 7.0};
  OPT_CHECK(opq_orient(g, h, k) == 0); /* flushed to x = 0 (QRY-011): on the line x = 0 */
  double u = 0x1p-400, v = 0x1p-400 + 0x1p-452;
  double p0[3] = {u, 0, u}, p1[3] = {v, 0, u}, p2[3] = {u, 0, v};
  OPT_CHECK(opq_orient(p0, p1, p2) == 1);  /* D = 2^-452 · 2^-452 - 0 */
  OPT_CHECK(opq_orient(p0, p2, p1) == -1); /* the mirror image */
  OPT_CHECK(opq_orient(p0, p1, p1) == 0);
}

/* The classic grid of points near (0.5, 0.5) against the line through (12, 12) and (24, 24)
** (Kettner et al.): a rounded evaluation gives wrong nonzero signs there, not only zeros. */
OPT_TEST(orient_near_line, "QRY-012") {
  int wrong_nonzero = 0;
  const int64_t U = (int64_t)1 << 53; /* coordinates in units of 2^-53 */
  for (int i = 0; i < 256; i++) {
    for (int j = 0; j < 256; j++) {
      int64_t pa[2] = {U / 2 + i, U / 2 + j}, pb[2] = {12 * U, 12 * U}, pc[2] = {24 * U, 24 * U};
      double a[3] = {0.5 + i * 0x1p-53, 0, 0.5 + j * 0x1p-53}, b[3] = {12, 0, 12}, c[3] = {24, 0, 24};
      int want = exact_sign(pa, pb, pc);
      OPT_CHECK(opq_orient(a, b, c) == want);
      double nd = (b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0]);
      int naive = nd > 0 ? 1 : nd < 0 ? -1 : 0;
      if (naive != 0 && naive != want) wrong_nonzero++;
    }
  }
  OPT_CHECK(wrong_nonzero > 0);
}

OPT_TEST(orient_flush, "QRY-011") {
  double a[3] = {0, 0, 0}, b[3] = {1, 0, 0}, c[3] = {5, 0, 0x1p-401};
  OPT_CHECK(opq_orient(a, b, c) == 0); /* below 2^-400: taken as 0 */
  c[2] = 0x1p-399;
  OPT_CHECK(opq_orient(a, b, c) == 1);
  c[2] = -0x1p-399;
  OPT_CHECK(opq_orient(a, b, c) == -1);
  /* coordinates far apart in magnitude: exact where the rounded value is 0 */
  double p[3] = {4194304.0, 0, 4194304.0}, q[3] = {-4194304.0, 0, -4194304.0};
  double s[3] = {0x1p-300, 0, 0};
  OPT_CHECK(opq_orient(p, q, s) == 1); /* s is to the left of p -> q (D = 2^23 * 2^-300) */
  OPT_CHECK(opq_orient(q, p, s) == -1);
}

/* ------------------------------------------------------------------ checks of the C API */

OPT_TEST(filter_checks, "QRY-033") {
  op_query_filter f;
  op_error e;
  op_query_filter_init(&f);
  OPT_CHECK(f.include_flags == 0xFFFF && f.exclude_flags == 0 && f.area_cost[63] == 1.0);
  OPT_CHECK(op_query_filter_check(&f, &e) == OP_OK);
  f.area_cost[5] = -0.0;
  f.area_cost[6] = 16777216.0;
  f.area_cost[7] = 0.0;
  OPT_CHECK(op_query_filter_check(&f, &e) == OP_OK);
  f.area_cost[9] = nextafter(16777216.0, 1e300);
  OPT_CHECK(op_query_filter_check(&f, &e) == OP_E_RANGE &&
            has(&e, OP_E_RANGE, "filter.costs[9]", "16777216.000000004"));
  f.area_cost[2] = INFINITY;
  OPT_CHECK(op_query_filter_check(&f, &e) == OP_E_RANGE &&
            has(&e, OP_E_RANGE, "filter.costs[2]", "Infinity"));
  OPT_CHECK(op_query_filter_check(NULL, &e) == OP_E_ARGUMENT && has(&e, OP_E_ARGUMENT, "filter", NULL));
  op_query_filter_init(&f);
  f.include_flags = 6, f.exclude_flags = 8;
  OPT_CHECK(op_query_filter_passes(&f, 2) && op_query_filter_passes(&f, 4));
  OPT_CHECK(!op_query_filter_passes(&f, 1) && !op_query_filter_passes(&f, 10) &&
            !op_query_filter_passes(&f, 0));
}

OPT_TEST(create_limits, "QRY-060") {
  op_mesh *m = fx_mesh(0.5, 4);
  op_query *q = NULL;
  op_error e;
  OPT_CHECK(op_query_create(m, 0, &q, &e) == OP_E_RANGE && has(&e, OP_E_RANGE, "max_nodes", "0") && !q);
  OPT_CHECK(op_query_create(m, 65537, &q, &e) == OP_E_RANGE && has(&e, OP_E_RANGE, "max_nodes", "65537"));
  OPT_CHECK(op_query_create(NULL, 1, &q, &e) == OP_E_ARGUMENT && has(&e, OP_E_ARGUMENT, "mesh", NULL));
  OPT_CHECK(op_query_create(m, 1, &q, &e) == OP_OK && q);
  op_query_free(q);
  OPT_CHECK(op_query_create(m, 65536, &q, &e) == OP_OK && q);
  op_query_free(q);
  op_mesh_free(m);
}

OPT_TEST(c_caps, "QRY-080") {
  op_mesh *m = fx_mesh(0.5, 4);
  OPT_CHECK(add_tile(m, grid_tile(0, 0, 0.0, 4, NULL)));
  op_query *q = NULL;
  op_error e;
  OPT_CHECK(op_query_create(m, 64, &q, &e) == OP_OK);
  /* along row 0: four polygons, a straight line (no funnel corner) */
  double a[3] = {0.5, 0, 0.5}, b[3] = {3.5, 0, 0.5};
  op_query_path p;
  OPT_CHECK(op_query_find_path(q, a, b, NULL, 65537, &p, &e) == OP_E_RANGE &&
            has(&e, OP_E_RANGE, "max_path", "65537"));
  OPT_CHECK(op_query_find_path(q, a, b, NULL, 0, &p, &e) == OP_E_RANGE &&
            has(&e, OP_E_RANGE, "max_path", "0"));
  OPT_CHECK(op_query_find_path(q, a, b, NULL, 1, &p, &e) == OP_OK && p.status == OP_PATH_NONE &&
            p.reason == OP_PATH_PATH_LIMIT && p.npolys == 1);
  OPT_CHECK(op_query_find_path(q, a, b, NULL, 8192, &p, &e) == OP_OK && p.status == OP_PATH_FOUND);
  op_ref path[16];
  for (uint32_t i = 0; i < p.npolys; i++) path[i] = p.polys[i].ref;
  uint32_t np = p.npolys, nc = 0;
  const op_query_corner *c = NULL;
  OPT_CHECK(op_query_straight_path(q, a, b, path, np, (op_crossings)7, 8, &c, &nc, &e) ==
                OP_E_ARGUMENT && has(&e, OP_E_ARGUMENT, "crossings", "7"));
  OPT_CHECK(op_query_straight_path(q, a, b, path, 65537, OP_CROSS_NONE, 8, &c, &nc, &e) ==
                OP_E_RANGE && has(&e, OP_E_RANGE, "path", "65537"));
  OPT_CHECK(op_query_straight_path(q, a, b, path, 0, OP_CROSS_NONE, 8, &c, &nc, &e) ==
                OP_E_RANGE && has(&e, OP_E_RANGE, "path", "0"));
  OPT_CHECK(op_query_straight_path(q, a, b, path, np, OP_CROSS_NONE, 262145, &c, &nc, &e) ==
                OP_E_RANGE && has(&e, OP_E_RANGE, "max_corners", "262145"));
  OPT_CHECK(op_query_straight_path(q, a, b, path, np, OP_CROSS_NONE, 2, &c, &nc, &e) == OP_OK &&
            nc == 2 && c[0].flags == OP_CORNER_START && c[1].flags == OP_CORNER_END);
  OPT_CHECK(op_query_straight_path(q, a, b, path, np, OP_CROSS_ALL, 2, &c, &nc, &e) == OP_E_LIMIT &&
            has(&e, OP_E_LIMIT, "max_corners", NULL));
  op_query_nearest nn;
  OPT_CHECK(op_query_nearest_poly(q, a, NULL, NULL, &nn, &e) == OP_E_ARGUMENT);
  OPT_CHECK(op_query_nearest_poly(NULL, a, a, NULL, &nn, &e) == OP_E_ARGUMENT);
  op_query_free(q);
  op_mesh_free(m);
}

/* ------------------------------------------------------------------ QRY-043 */

/* One unit square (0,0)-(1,1) at local y 0, with a detail vertex at its centre raised to 1 and
** detail triangles over the left half only (0-centre-3, 3-centre-... ), so that the right half
** falls back to the fan (QRY-043 step 2). */
OPT_TEST(detail_height, "QRY-043") {
  float verts[12] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1};
  op_poly_desc poly;
  memset(&poly, 0, sizeof poly);
  poly.nverts = 4, poly.flags = 1;
  for (int k = 0; k < 4; k++) poly.verts[k] = (uint16_t)k;
  op_detail_desc det = {0, 0, 1, 2};
  float dverts[3] = {0.5f, 1.0f, 0.5f};
  /* index 4 is the detail vertex: triangles (0, 4, 3) and (3, 4, 2)... only the left one and
  ** the top one: (0, 4, 3) covers the left quarter, (4, 2, 3) the top quarter */
  uint8_t dtris[8] = {0, 4, 3, 0, 4, 2, 3, 0};
  op_tile_desc d;
  memset(&d, 0, sizeof d);
  d.tiling = fx_tiling(0.5), d.origin_y = 2.0;
  d.nverts = 4, d.verts = verts, d.npolys = 1, d.polys = &poly;
  d.ndetail = 1, d.detail = &det, d.ndetail_verts = 1, d.detail_verts = dverts;
  d.ndetail_tris = 2, d.detail_tris = dtris;
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_create(&d, &t, &e) == OP_OK);
  op_mesh *m = fx_mesh(0.5, 4);
  op_ref base = 0;
  OPT_CHECK(op_mesh_add_tile(m, t, &base, &e) == OP_OK);
  op_tile_free(t);
  op_query *q = NULL;
  OPT_CHECK(op_query_create(m, 16, &q, &e) == OP_OK);
  int in = 0;
  double h = 0;
  /* the centre: the detail vertex, height 2 + 1 */
  OPT_CHECK(op_query_poly_height(q, base, 0.5, 0.5, &in, &h, &e) == OP_OK && in && h == 3.0);
  /* left quarter, (0.25, 0.5): on the triangle (0, 4, 3) halfway from the edge: 2.5 */
  OPT_CHECK(op_query_poly_height(q, base, 0.25, 0.5, &in, &h, &e) == OP_OK && in && h == 2.5);
  /* top quarter, (0.5, 0.75): 2.5 */
  OPT_CHECK(op_query_poly_height(q, base, 0.5, 0.75, &in, &h, &e) == OP_OK && in && h == 2.5);
  /* bottom quarter (0.5, 0.25): no detail triangle, the fan (flat at local 0): 2 */
  OPT_CHECK(op_query_poly_height(q, base, 0.5, 0.25, &in, &h, &e) == OP_OK && in && h == 2.0);
  /* outside: no height */
  OPT_CHECK(op_query_poly_height(q, base, 1.5, 0.25, &in, &h, &e) == OP_OK && !in);
  /* the closest point from above the left quarter takes the detail height */
  double pos[3] = {0.25, 9, 0.5}, out[3];
  int over = 0;
  OPT_CHECK(op_query_closest_point(q, base, pos, out, &over, &e) == OP_OK && over &&
            out[0] == 0.25 && out[1] == 2.5 && out[2] == 0.5);
  /* nearest polygon: Euclidean with the detail height (QRY-051) */
  double c[3] = {0.25, 2.75, 0.5}, hx[3] = {0.5, 0.5, 0.5};
  op_query_nearest nn;
  OPT_CHECK(op_query_nearest_poly(q, c, hx, NULL, &nn, &e) == OP_OK && nn.found &&
            nn.point[1] == 2.5 && nn.poly.ref == base);
  op_query_free(q);
  op_mesh_free(m);
}

/* ------------------------------------------------------------------ QRY-023, QRY-067 */

#define NT 6
static const int TX[NT] = {0, 1, 2, 0, 1, 2}, TZ[NT] = {0, 0, 0, 1, 1, 1};
static const char *const HOLES[NT] = {NULL, "....##..##......", "#...............",
                                      "......##........", NULL, "..#...#...#....."};

typedef struct answers {
  uint32_t n;
  double v[4096];
} answers;

static void put(answers *a, double x) {
  if (a->n < 4096) a->v[a->n++] = x;
}

static void put_poly(answers *a, const op_query_poly *p) {
  put(a, p->id.x), put(a, p->id.z), put(a, p->id.layer), put(a, p->id.poly);
}

static void ask_q(op_query *q, answers *a);

/* Every answer of a fixed set of queries on m, by canonical ids and values only, from a new
** query object. */
static void ask(op_mesh *m, answers *a) {
  op_query *q = NULL;
  op_error e;
  a->n = 0;
  if (op_query_create(m, 256, &q, &e) != OP_OK) return;
  ask_q(q, a);
  op_query_free(q);
}

/* The same from the query object q (kept between calls, with what it keeps of tiles). */
static void ask_q(op_query *q, answers *a) {
  op_error e;
  a->n = 0;
  op_prng r;
  op_prng_seed(&r, 67);
  for (int it = 0; it < 40; it++) {
    double s[3], t[3];
    s[0] = op_prng_unit(&r) * 12.0, s[1] = 0.1, s[2] = op_prng_unit(&r) * 8.0;
    t[0] = op_prng_unit(&r) * 12.0, t[1] = 0.1, t[2] = op_prng_unit(&r) * 8.0;
    op_query_path p;
    op_status st = op_query_find_path(q, s, t, NULL, 8192, &p, &e);
    put(a, st);
    if (st) continue;
    put(a, p.status), put(a, p.reason), put(a, p.nodes), put(a, p.cost), put(a, p.npolys);
    put_poly(a, &p.start_poly), put_poly(a, &p.end_poly);
    op_ref path[256];
    uint32_t np = p.npolys < 256 ? p.npolys : 256;
    for (uint32_t i = 0; i < np; i++) put_poly(a, &p.polys[i]), path[i] = p.polys[i].ref;
    if (p.status != OP_PATH_FOUND) continue;
    const op_query_corner *c = NULL;
    uint32_t nc = 0;
    st = op_query_straight_path(q, s, t, path, np, OP_CROSS_ALL, 8192, &c, &nc, &e);
    put(a, st);
    for (uint32_t i = 0; !st && i < nc; i++)
      put(a, c[i].point[0]), put(a, c[i].point[1]), put(a, c[i].point[2]), put(a, c[i].flags),
          put_poly(a, &c[i].poly);
  }
}

OPT_TEST(insertion_order, "QRY-067") {
  answers *first = calloc(1, sizeof *first), *other = calloc(1, sizeof *other);
  op_prng r;
  op_prng_seed(&r, 2);
  int found = 0;
  for (int perm = 0; perm < 24 && first && other; perm++) {
    int order[NT];
    for (int i = 0; i < NT; i++) order[i] = i;
    for (int i = NT - 1; i > 0 && perm > 0; i--) { /* Fisher-Yates with the spec's PRNG */
      int j = (int)op_prng_below(&r, (uint64_t)i + 1), tmp = order[i];
      order[i] = order[j], order[j] = tmp;
    }
    op_mesh *m = fx_mesh(0.5, 16);
    /* a history: a dummy tile takes a slot first and leaves, shifting slots and generations */
    op_error e;
    if (perm % 2) {
      add_tile(m, grid_tile(5, 5, 0.0, 1, NULL));
      op_mesh_remove_tile(m, 5, 5, 0, &e);
    }
    for (int i = 0; i < NT; i++) {
      int k = order[i];
      OPT_CHECK(add_tile(m, grid_tile(TX[k], TZ[k], 0.0, 4, HOLES[k])));
    }
    ask(m, perm == 0 ? first : other);
    if (perm == 0) {
      for (uint32_t i = 0; i + 1 < first->n; i++)
        if (first->v[i] == 0 && first->v[i + 1] == OP_PATH_FOUND) found++;
    } else {
      OPT_CHECK(other->n == first->n && !memcmp(other->v, first->v, sizeof(double) * first->n));
    }
    op_mesh_free(m);
  }
  OPT_CHECK(first && first->n > 200 && found > 5);
  free(first);
  free(other);
}

/* ------------------------------------------------------------------ QRY-002 */

OPT_TEST(sees_changes, "QRY-002") {
  op_mesh *m = fx_mesh(0.5, 8);
  OPT_CHECK(add_tile(m, grid_tile(0, 0, 0.0, 4, NULL)));
  OPT_CHECK(add_tile(m, grid_tile(1, 0, 0.0, 4, NULL)));
  op_query *q = NULL;
  op_error e;
  OPT_CHECK(op_query_create(m, 64, &q, &e) == OP_OK);
  double a[3] = {0.5, 0, 0.5}, b[3] = {7.5, 0, 0.5};
  op_query_path p;
  OPT_CHECK(op_query_find_path(q, a, b, NULL, 8192, &p, &e) == OP_OK && p.status == OP_PATH_FOUND &&
            p.npolys == 8 && p.end_poly.id.x == 1);
  uint32_t n1 = p.nodes;
  /* the column x = 4 .. 5 of tile 1 excluded: tile 1 splits, no way to (7.5, 0.5) */
  for (uint32_t k = 0; k < 4; k++) {
    op_ref r;
    OPT_CHECK(op_mesh_poly_ref(m, 1, 0, 0, 4 * k, &r, &e) == OP_OK);
    OPT_CHECK(op_mesh_set_poly_flags(m, r, 2, &e) == OP_OK);
  }
  op_query_filter f;
  op_query_filter_init(&f);
  f.exclude_flags = 2;
  OPT_CHECK(op_query_find_path(q, a, b, &f, 8192, &p, &e) == OP_OK && p.status == OP_PATH_NONE &&
            p.reason == OP_PATH_DISCONNECTED && p.npolys >= 1);
  /* without the filter the same object finds the first answer again (pool reused) */
  OPT_CHECK(op_query_find_path(q, a, b, NULL, 8192, &p, &e) == OP_OK && p.status == OP_PATH_FOUND &&
            p.nodes == n1);
  /* the tile removed: the end is accepted by no polygon */
  OPT_CHECK(op_mesh_remove_tile(m, 1, 0, 0, &e) == OP_OK);
  OPT_CHECK(op_query_find_path(q, a, b, NULL, 8192, &p, &e) == OP_E_RANGE &&
            has(&e, OP_E_RANGE, "end", "7.5,0,0.5"));
  OPT_CHECK(add_tile(m, grid_tile(1, 0, 0.0, 4, NULL)));
  OPT_CHECK(op_query_find_path(q, a, b, NULL, 8192, &p, &e) == OP_OK && p.status == OP_PATH_FOUND &&
            p.nodes == n1);
  op_query_free(q);
  op_mesh_free(m);
}

/* QRY-002 with what a query object keeps per tile (nearest_index.c: boxes, centres and
** internal portal midpoints per tile content, link runs as verified guesses): after each edit
** (a tile replaced by other content in its slot, a neighbour removed and added back, so that
** the links change under unchanged content, flags changed) the reused object answers exactly
** as a new one. */
OPT_TEST(reuse_after_edits, "QRY-002") {
  answers *kept = calloc(1, sizeof *kept), *fresh = calloc(1, sizeof *fresh);
  op_mesh *m = fx_mesh(0.5, 16);
  op_query *q = NULL;
  op_error e;
  OPT_CHECK(kept && fresh && m);
  for (int k = 0; k < NT; k++) OPT_CHECK(add_tile(m, grid_tile(TX[k], TZ[k], 0.0, 4, HOLES[k])));
  OPT_CHECK(op_query_create(m, 256, &q, &e) == OP_OK);
  int found = 0;
  for (int step = 0; step < 5 && kept && fresh && q; step++) {
    if (step == 1) { /* other content in the same slot */
      op_tile *t = grid_tile(1, 0, 0.0, 4, "........##......");
      OPT_CHECK(t && op_mesh_replace_tile(m, t, NULL, &e) == OP_OK);
      op_tile_free(t);
    } else if (step == 2) { /* tile 1's neighbour gone: its links change, its content not */
      OPT_CHECK(op_mesh_remove_tile(m, 2, 0, 0, &e) == OP_OK);
    } else if (step == 3) {
      OPT_CHECK(add_tile(m, grid_tile(2, 0, 0.0, 4, HOLES[2])));
    } else if (step == 4) {
      for (uint32_t i = 0; i < 4; i++) {
        op_ref r;
        OPT_CHECK(op_mesh_poly_ref(m, 1, 1, 0, 4 * i + 1, &r, &e) == OP_OK);
        OPT_CHECK(op_mesh_set_poly_flags(m, r, 2, &e) == OP_OK);
      }
    }
    ask_q(q, kept);
    ask(m, fresh);
    OPT_CHECK(kept->n == fresh->n && !memcmp(kept->v, fresh->v, sizeof(double) * fresh->n));
    for (uint32_t i = 0; i + 1 < fresh->n; i++)
      if (fresh->v[i] == 0 && fresh->v[i + 1] == OP_PATH_FOUND) found++;
  }
  OPT_CHECK(found > 25);
  op_query_free(q);
  op_mesh_free(m);
  free(kept);
  free(fresh);
}

OPT_MAIN_BEGIN
OPT_RUN(orient_exact);
OPT_RUN(orient_near_line);
OPT_RUN(orient_zero_products);
OPT_RUN(orient_flush);
OPT_RUN(filter_checks);
OPT_RUN(create_limits);
OPT_RUN(c_caps);
OPT_RUN(detail_height);
OPT_RUN(insertion_order);
OPT_RUN(sees_changes);
OPT_RUN(reuse_after_edits);
OPT_MAIN_END
