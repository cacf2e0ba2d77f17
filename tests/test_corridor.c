/*
** test_corridor.c -- unit tests of the path corridor (spec/query-corridor.md, QCR): the
** capacity (QCR-201), the merges at the head and the tail and the splice as list rules on
** hand-made lists (QCR-221, QCR-222, QCR-242, with QCR-204's cut), the C interface's own
** argument checks, and one corridor on a grid of unit squares through set, corners, moves,
** a replaced tile, is_valid, fix and replan, every expected value derived by hand.
**
** Tiles: grids of unit squares (4 x 4 cells of 1 a tile, world = local on tile (0, 0)),
** cell (i, j) polygon 4j + i.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "optest.h"
#include "query/corridor_internal.h"

/* A corridor of max_path holding the references list[0 .. n-1] (ids: poly = ref). */
static op_corridor *mk(uint32_t max_path, const op_ref *list, uint32_t n) {
  op_corridor *c = NULL;
  op_error e;
  if (op_corridor_create(max_path, &c, &e) != OP_OK) return NULL;
  for (uint32_t i = 0; i < n; i++) {
    memset(&c->polys[i], 0, sizeof c->polys[i]);
    c->polys[i].ref = list[i];
    c->polys[i].id.poly = (uint32_t)list[i];
  }
  c->n = n;
  return c;
}

static void route(op_query_poly *V, const op_ref *list, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    memset(&V[i], 0, sizeof V[i]);
    V[i].ref = list[i];
    V[i].id.poly = (uint32_t)list[i];
  }
}

static int is(const op_corridor *c, const op_ref *want, uint32_t n) {
  if (c->n != n) return 0;
  for (uint32_t i = 0; i < n; i++)
    if (c->polys[i].ref != want[i] || c->polys[i].id.poly != (uint32_t)want[i]) return 0;
  return 1;
}

static int has(const op_error *e, op_status kind, const char *field, const char *value) {
  return e->kind == kind && !strcmp(e->field, field) && (!value || !strcmp(e->value, value));
}

OPT_TEST(create_capacity, "QCR-201") {
  op_corridor *c = NULL;
  op_error e;
  OPT_CHECK(op_corridor_create(0, &c, &e) == OP_E_RANGE && has(&e, OP_E_RANGE, "max_path", "0") && !c);
  OPT_CHECK(op_corridor_create(65537, &c, &e) == OP_E_RANGE && has(&e, OP_E_RANGE, "max_path", "65537"));
  OPT_CHECK(op_corridor_create(65536, &c, &e) == OP_OK && c);
  op_corridor_free(c);
  OPT_CHECK(op_corridor_create(1, &c, &e) == OP_OK);
  op_corridor_state s;
  op_corridor_state_get(c, &s);
  OPT_CHECK(s.npolys == 0 && s.max_path == 1 && s.position[0] == 0 && s.target[2] == 0);
  op_corridor_free(c);
  op_corridor_free(NULL);
  OPT_CHECK(op_corridor_create(4, NULL, &e) == OP_E_ARGUMENT);
}

OPT_TEST(merge_head, "QCR-221") {
  static const op_ref c4[4] = {1, 2, 3, 4};
  op_query_poly V[8];
  int cut = 0;
  /* forward: V = 1, 9, 3; the greatest common index 2 (3), j = 2: 3, 4 */
  op_corridor *c = mk(8, c4, 4);
  static const op_ref v1[3] = {1, 9, 3}, w1[2] = {3, 4};
  route(V, v1, 3);
  opq_cor_merge_head(c, V, 3, &cut);
  OPT_CHECK(is(c, w1, 2) && !cut);
  op_corridor_free(c);
  /* sideways: V = 1, 7: i = 0, j = 0: 7, 1, then 2, 3, 4, cut to 4 (QCR-204) */
  c = mk(4, c4, 4);
  static const op_ref v2[2] = {1, 7}, w2[4] = {7, 1, 2, 3};
  route(V, v2, 2);
  opq_cor_merge_head(c, V, 2, &cut);
  OPT_CHECK(is(c, w2, 4) && cut);
  op_corridor_free(c);
  /* the least j: V = 1, 3, 5, 3: i = 2, j = 1: V[3], V[2], V[1], then 4 */
  c = mk(8, c4, 4);
  static const op_ref v3[4] = {1, 3, 5, 3}, w3[4] = {3, 5, 3, 4};
  route(V, v3, 4);
  opq_cor_merge_head(c, V, 4, &cut);
  OPT_CHECK(is(c, w3, 4) && !cut);
  /* no common polygon: unchanged */
  static const op_ref v4[2] = {8, 9};
  route(V, v4, 2);
  opq_cor_merge_head(c, V, 2, &cut);
  OPT_CHECK(is(c, w3, 4));
  op_corridor_free(c);
}

OPT_TEST(merge_tail, "QCR-222") {
  static const op_ref c4[4] = {1, 2, 3, 4};
  op_query_poly V[8];
  int cut = 0;
  op_corridor *c = mk(8, c4, 4);
  static const op_ref v1[3] = {4, 5, 6}, w1[6] = {1, 2, 3, 4, 5, 6};
  route(V, v1, 3);
  opq_cor_merge_tail(c, V, 3, &cut);
  OPT_CHECK(is(c, w1, 6) && !cut);
  op_corridor_free(c);
  /* back along the list: the least i (2 at index 1), j = 1: 1, 2, then 8 */
  c = mk(8, c4, 4);
  static const op_ref v2[4] = {4, 3, 2, 8}, w2[3] = {1, 2, 8};
  route(V, v2, 4);
  opq_cor_merge_tail(c, V, 4, &cut);
  OPT_CHECK(is(c, w2, 3) && !cut);
  op_corridor_free(c);
  /* growing past the capacity: cut */
  c = mk(5, c4, 4);
  static const op_ref v3[3] = {4, 5, 6}, w3[5] = {1, 2, 3, 4, 5};
  route(V, v3, 3);
  opq_cor_merge_tail(c, V, 3, &cut);
  OPT_CHECK(is(c, w3, 5) && cut);
  static const op_ref v4[1] = {9};
  route(V, v4, 1);
  opq_cor_merge_tail(c, V, 1, &cut);
  OPT_CHECK(is(c, w3, 5));
  op_corridor_free(c);
}

OPT_TEST(splice, "QCR-242") {
  static const op_ref c4[4] = {1, 2, 3, 4};
  op_query_poly V[8];
  int cut = 0;
  op_corridor *c = mk(8, c4, 4);
  static const op_ref v1[3] = {1, 7, 3}, w1[4] = {1, 7, 3, 4};
  route(V, v1, 3);
  OPT_CHECK(opq_cor_splice(c, V, 3, &cut) == 1 && is(c, w1, 4) && !cut);
  /* the greatest common index is the head (j = 0): nothing */
  static const op_ref v2[2] = {1, 9};
  route(V, v2, 2);
  OPT_CHECK(opq_cor_splice(c, V, 2, &cut) == 0 && is(c, w1, 4));
  static const op_ref v3[2] = {5, 6};
  route(V, v3, 2);
  OPT_CHECK(opq_cor_splice(c, V, 2, &cut) == 0 && is(c, w1, 4));
  op_corridor_free(c);
  /* longer than the capacity: 1, 7, 8, 9 then 3, 4 cut to 4 */
  c = mk(4, c4, 4);
  static const op_ref v4[5] = {1, 7, 8, 9, 3}, w4[4] = {1, 7, 8, 9};
  route(V, v4, 5);
  OPT_CHECK(opq_cor_splice(c, V, 5, &cut) == 1 && is(c, w4, 4) && cut);
  op_corridor_free(c);
}

/* A 4 x 4 grid tile of unit squares at tile (x, 0). */
static op_tile *grid_tile(int x) {
  float verts[3 * 25];
  op_poly_desc polys[16];
  for (int j = 0; j <= 4; j++)
    for (int i = 0; i <= 4; i++) {
      verts[3 * (j * 5 + i)] = (float)i;
      verts[3 * (j * 5 + i) + 1] = 0.0f;
      verts[3 * (j * 5 + i) + 2] = (float)j;
    }
  for (int j = 0; j < 4; j++)
    for (int i = 0; i < 4; i++) {
      op_poly_desc *p = &polys[j * 4 + i];
      memset(p, 0, sizeof *p);
      p->nverts = 4;
      p->flags = 1;
      p->verts[0] = (uint16_t)(j * 5 + i), p->verts[1] = (uint16_t)(j * 5 + i + 1);
      p->verts[2] = (uint16_t)((j + 1) * 5 + i + 1), p->verts[3] = (uint16_t)((j + 1) * 5 + i);
      int di[4] = {0, 1, 0, -1}, dj[4] = {-1, 0, 1, 0}, side[4] = {3, 2, 1, 0};
      for (int k = 0; k < 4; k++) {
        int a = i + di[k], b = j + dj[k];
        if (a < 0 || b < 0 || a >= 4 || b >= 4) p->neis[k] = (uint16_t)(0x8000 | side[k]);
        else p->neis[k] = (uint16_t)(b * 4 + a + 1);
      }
    }
  op_tile_desc d;
  memset(&d, 0, sizeof d);
  d.x = x, d.z = 0, d.tiling = fx_tiling(0.5), d.origin_y = 0;
  d.nverts = 25, d.verts = verts, d.npolys = 16, d.polys = polys;
  op_tile *t = NULL;
  op_error e;
  op_tile_create(&d, &t, &e);
  return t;
}

static op_ref pref(op_mesh *m, int x, uint32_t k) {
  op_ref r = 0;
  op_error e;
  op_mesh_poly_ref(m, x, 0, 0, k, &r, &e);
  return r;
}

OPT_TEST(c_interface_checks, "QCR-202") {
  op_mesh *m = fx_mesh(0.5, 8);
  op_tile *t = grid_tile(0);
  op_error e;
  OPT_CHECK(m && t && op_mesh_add_tile(m, t, NULL, &e) == OP_OK);
  op_tile_free(t);
  op_query *q = NULL;
  OPT_CHECK(op_query_create(m, 16, &q, &e) == OP_OK);
  op_corridor *c = NULL;
  OPT_CHECK(op_corridor_create(8, &c, &e) == OP_OK);
  double p[3] = {0.5, 0, 0.5};
  OPT_CHECK(op_corridor_reset(NULL, q, pref(m, 0, 0), p, &e) == OP_E_ARGUMENT && has(&e, OP_E_ARGUMENT, "corridor", NULL));
  OPT_CHECK(op_corridor_reset(c, NULL, pref(m, 0, 0), p, &e) == OP_E_ARGUMENT && has(&e, OP_E_ARGUMENT, "query", NULL));
  OPT_CHECK(op_corridor_reset(c, q, pref(m, 0, 0), NULL, &e) == OP_E_ARGUMENT && has(&e, OP_E_ARGUMENT, "pos", NULL));
  op_corridor_validity v;
  OPT_CHECK(op_corridor_is_valid(c, q, 1, NULL, &v, &e) == OP_E_ARGUMENT && has(&e, OP_E_ARGUMENT, "corridor", "empty"));
  OPT_CHECK(op_corridor_reset(c, q, pref(m, 0, 0), p, &e) == OP_OK);
  OPT_CHECK(op_corridor_is_valid(c, q, 1, NULL, NULL, &e) == OP_E_ARGUMENT);
  const op_query_corner *k;
  uint32_t nk;
  OPT_CHECK(op_corridor_find_corners(c, q, 4, NULL, &nk, NULL, &e) == OP_E_ARGUMENT);
  OPT_CHECK(op_corridor_find_corners(c, q, 4, &k, &nk, NULL, &e) == OP_OK && nk == 0);
  OPT_CHECK(op_corridor_replan(c, q, p, NULL, NULL, &e) == OP_E_ARGUMENT && has(&e, OP_E_ARGUMENT, "out", NULL));
  /* a NULL filter is the default one (QRY-030) */
  OPT_CHECK(op_corridor_is_valid(c, q, 1, NULL, &v, &e) == OP_OK && v.valid && v.checked == 1);
  op_corridor_free(c);
  op_query_free(q);
  op_mesh_free(m);
}

OPT_TEST(grid_walk_swap_fix_replan, "QCR-252") {
  op_mesh *m = fx_mesh(0.5, 8);
  op_error e;
  for (int x = 0; x < 2; x++) {
    op_tile *t = grid_tile(x);
    OPT_CHECK(t && op_mesh_add_tile(m, t, NULL, &e) == OP_OK);
    op_tile_free(t);
  }
  op_query *q = NULL;
  OPT_CHECK(op_query_create(m, 64, &q, &e) == OP_OK);
  op_corridor *c = NULL;
  OPT_CHECK(op_corridor_create(16, &c, &e) == OP_OK);
  op_ref path[6] = {pref(m, 0, 0), pref(m, 0, 1), pref(m, 0, 2), pref(m, 0, 3), pref(m, 1, 0),
                    pref(m, 1, 1)};
  double s[3] = {0.5, 0, 0.5}, t_[3] = {5.5, 0, 0.5};
  OPT_CHECK(op_corridor_set(c, q, s, t_, path, 6, &e) == OP_OK && c->n == 6);
  /* QCR-231: a straight row has the end corner alone */
  const op_query_corner *k;
  uint32_t nk;
  int cut = 1;
  OPT_CHECK(op_corridor_find_corners(c, q, 16, &k, &nk, &cut, &e) == OP_OK && nk == 1 &&
            k[0].point[0] == 5.5 && k[0].point[2] == 0.5 && k[0].flags == OP_CORNER_END && !cut);
  /* QCR-220, QCR-221: walking into polygon 2 drops 0 and 1 */
  double to[3] = {2.5, 0, 0.5};
  OPT_CHECK(op_corridor_move_position(c, q, to, NULL, 16, &cut, NULL, &e) == OP_OK && c->n == 4 &&
            c->polys[0].ref == path[2] && c->pos[0] == 2.5 && c->pos[2] == 0.5 && !cut);
  /* QCR-250, QCR-251: tile (1, 0) replaced: stale from index 2 */
  op_tile *t = grid_tile(1);
  OPT_CHECK(op_mesh_replace_tile(m, t, NULL, &e) == OP_OK);
  op_tile_free(t);
  op_corridor_validity v;
  OPT_CHECK(op_corridor_is_valid(c, q, 65536, NULL, &v, &e) == OP_OK && !v.valid && v.index == 2 &&
            v.checked == 4 && v.reason == OP_CORRIDOR_STALE &&
            !strcmp(op_corridor_reason_name(v.reason), "stale"));
  OPT_CHECK(op_corridor_is_valid(c, q, 2, NULL, &v, &e) == OP_OK && v.valid && v.checked == 2);
  /* QCR-252: the prefix 2, 3; the target on polygon 3 at x = 4 */
  uint32_t kept = 99;
  OPT_CHECK(op_corridor_fix(c, q, path[0], s, NULL, &kept, &e) == OP_OK && kept == 2 && c->n == 2 &&
            c->target[0] == 4.0 && c->target[2] == 0.5 && c->pos[0] == 2.5);
  /* QCR-253: the row again, to the new tile's polygon 1 */
  op_query_path r;
  OPT_CHECK(op_corridor_replan(c, q, t_, NULL, &r, &e) == OP_OK && r.status == OP_PATH_FOUND &&
            c->n == 4 && c->polys[3].id.x == 1 && c->polys[3].id.poly == 1 && c->target[0] == 5.5);
  /* a filter that excludes every polygon: filtered at 0 (QCR-250) */
  op_query_filter f;
  op_query_filter_init(&f);
  f.exclude_flags = 1;
  OPT_CHECK(op_corridor_is_valid(c, q, 65536, &f, &v, &e) == OP_OK && !v.valid && v.index == 0 &&
            v.reason == OP_CORRIDOR_FILTERED && !strcmp(op_corridor_reason_name(v.reason), "filtered"));
  OPT_CHECK(!strcmp(op_corridor_reason_name(OP_CORRIDOR_OK), ""));
  op_corridor_free(c);
  op_query_free(q);
  op_mesh_free(m);
}

OPT_MAIN_BEGIN
OPT_RUN(create_capacity);
OPT_RUN(merge_head);
OPT_RUN(merge_tail);
OPT_RUN(splice);
OPT_RUN(c_interface_checks);
OPT_RUN(grid_walk_swap_fix_replan);
OPT_MAIN_END
