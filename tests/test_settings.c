/*
** test_settings.c -- NavSettings and the builder inputs (spec/build3d-spans.md sections 1
** and 2): whole-cell rounding at exact boundaries, presets, every validation rule,
** soup validation, the chunked mesh's query, the heightfield input's validation.
** Expected values are derived by hand from the spec text (comments give the derivation).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onepath_build3d.h"
#include "optest.h"

static int err_is(const op_error *e, op_status kind, const char *field, const char *value) {
  if (e->kind != kind || strcmp(e->field, field) != 0) {
    fprintf(stderr, "  got kind %d field '%s' value '%s'\n", (int)e->kind, e->field, e->value);
    return 0;
  }
  if (value && strcmp(e->value, value) != 0) {
    fprintf(stderr, "  got value '%s', want '%s'\n", e->value, value);
    return 0;
  }
  return 1;
}

static op_settings humanoid(void) {
  op_settings s;
  op_settings_preset("Humanoid", &s, NULL);
  return s;
}

/* SPAN-020: exact quotients, rounded quotients, ties and neighbours. */
OPT_TEST(cells_rounding, "SPAN-020") {
  /* 0.6 and 0.3 have the same significand (0.6 = 2 * 0.3 exactly), so q = 2.0. */
  OPT_CHECK(0.6 / 0.3 == 2.0);
  OPT_CHECK(op_cells_ceil(0.6, 0.3) == 2);
  OPT_CHECK(op_cells_floor(0.6, 0.3) == 2);
  /* 0.6 (below 0.6) / 0.2 (above 0.2): the real quotient is below 3 and rounds below 3. */
  OPT_CHECK(0.6 / 0.2 < 3.0);
  OPT_CHECK(op_cells_ceil(0.6, 0.2) == 3);
  OPT_CHECK(op_cells_floor(0.6, 0.2) == 2);
  /* one ulp above and below an exact integer quotient */
  double up = nextafter(0.6, 1.0), dn = nextafter(0.6, 0.0);
  OPT_CHECK(up / 0.3 > 2.0 && dn / 0.3 < 2.0);
  OPT_CHECK(op_cells_ceil(up, 0.3) == 3);
  OPT_CHECK(op_cells_floor(up, 0.3) == 2);
  OPT_CHECK(op_cells_ceil(dn, 0.3) == 2);
  OPT_CHECK(op_cells_floor(dn, 0.3) == 1);
  /* halves: RoundHalfEven(2.5) = 2, RoundHalfEven(3.5) = 4; the rules still give
  ** ceil 3 / floor 2 and ceil 4 / floor 3. */
  OPT_CHECK(op_cells_ceil(2.5, 1) == 3 && op_cells_floor(2.5, 1) == 2);
  OPT_CHECK(op_cells_ceil(3.5, 1) == 4 && op_cells_floor(3.5, 1) == 3);
  OPT_CHECK(op_cells_ceil(0.9, 0.2) == 5 && op_cells_floor(0.9, 0.2) == 4); /* 4.5 */
  /* zero and the integer limit of the validation */
  OPT_CHECK(op_cells_ceil(0, 0.3) == 0 && op_cells_floor(0, 0.3) == 0);
  OPT_CHECK(op_cells_ceil(255, 1) == 255 && op_cells_floor(255.75, 1) == 255);
  /* 1.2 / 0.4 rounds to 2.9999999999999996: floor 2 (the spec's own example) */
  OPT_CHECK(op_cells_floor(1.2, 0.4) == 2);
}

/* SPAN-021 .. SPAN-025, SPAN-040: the presets' derived values, from the table. */
OPT_TEST(presets_derived, "SPAN-040") {
  static const char *names[3] = {"Humanoid", "Small", "Large"};
  static const int32_t rad[3] = {2, 2, 3}, hgt[3] = {20, 20, 14}, clb[3] = {9, 8, 4};
  static const int32_t bord[3] = {5, 5, 6}, grid[3] = {74, 42, 140};
  static const double cs[3] = {0.3, 0.15, 0.5}, ch[3] = {0.1, 0.05, 0.3};
  for (int i = 0; i < 3; i++) {
    op_settings s;
    op_cell_settings c;
    op_error e;
    OPT_CHECK(op_settings_preset(names[i], &s, &e) == OP_OK);
    OPT_CHECK(s.cell_size == cs[i] && s.cell_height == ch[i]);
    OPT_CHECK(s.max_verts_per_poly == 6 && s.partition == OP_PARTITION_WATERSHED);
    OPT_CHECK(s.min_region_area == 64 && s.merge_region_area == 400 && s.nvolumes == 0);
    OPT_CHECK(op_settings_derive(&s, &c, &e) == OP_OK);
    OPT_CHECK(c.walkable_radius == rad[i]);
    OPT_CHECK(c.walkable_height == hgt[i]);
    OPT_CHECK(c.walkable_climb == clb[i]);
    OPT_CHECK(c.border == bord[i]);          /* SPAN-022: radius + 3 */
    OPT_CHECK(c.grid_cells == grid[i]);      /* tile + 2 * border */
    OPT_CHECK(c.max_edge_len == 40);         /* SPAN-023 */
    OPT_CHECK(c.detail_sample_dist == cs[i] * 6);  /* SPAN-025: 6 >= 0.9 */
    OPT_CHECK(c.detail_sample_max_error == ch[i] * 1);
  }
  op_settings s;
  op_error e;
  OPT_CHECK(op_settings_preset("humanoid", &s, &e) == OP_E_ARGUMENT);
  OPT_CHECK(err_is(&e, OP_E_ARGUMENT, "name", "humanoid"));
}

/* SPAN-024: the cosine comes from SinCos of one rounded product. */
OPT_TEST(slope_cos, "SPAN-024") {
  op_settings s = humanoid();
  op_cell_settings c;
  op_error e;
  OPT_CHECK(op_settings_derive(&s, &c, &e) == OP_OK);
  double sn, cs;
  op_sincos(45 * 0x1.1df46a2529d39p-6, &sn, &cs, NULL);
  OPT_CHECK(c.slope_cos == cs);
  OPT_CHECK(fabs(c.slope_cos - 0.70710678118654752) < 1e-15);
  s.max_slope = 0;
  OPT_CHECK(op_settings_derive(&s, &c, &e) == OP_OK && c.slope_cos == 1.0); /* MATH-031 */
  s.detail_sample_distance = 0.9; /* at or below 0.9: no sampling (SPAN-025) */
  OPT_CHECK(op_settings_derive(&s, &c, &e) == OP_OK && c.detail_sample_dist == 0.0);
  s.detail_sample_distance = 0.90000000000000013; /* the double above 0.9: sampling */
  OPT_CHECK(op_settings_derive(&s, &c, &e) == OP_OK && c.detail_sample_dist > 0.0);
}

#define EXPECT_BAD(mut, kind, field, value)                                  \
  do {                                                                       \
    op_settings s_ = humanoid();                                             \
    op_cell_settings c_;                                                     \
    memset(&c_, 0x5a, sizeof c_);                                            \
    op_error e_;                                                             \
    op_settings *s = &s_;                                                    \
    mut;                                                                     \
    OPT_CHECK(op_settings_validate(s, &e_) == (kind));                       \
    OPT_CHECK(err_is(&e_, kind, field, value));                              \
    OPT_CHECK(op_settings_derive(s, &c_, &e_) == (kind));                    \
    OPT_CHECK(((unsigned char *)&c_)[0] == 0x5a); /* SPAN-032 */             \
  } while (0)

#define EXPECT_OK(mut)                                                       \
  do {                                                                       \
    op_settings s_ = humanoid();                                             \
    op_error e_;                                                             \
    op_settings *s = &s_;                                                    \
    mut;                                                                     \
    OPT_CHECK(op_settings_validate(s, &e_) == OP_OK);                        \
  } while (0)

/* SPAN-030: one failure per rule, and the boundary values that pass. */
OPT_TEST(validation_rules, "SPAN-030") {
  EXPECT_BAD(s->cell_size = NAN, OP_E_RANGE, "cell_size", "NaN");
  EXPECT_BAD(s->cell_size = 0, OP_E_RANGE, "cell_size", "0");
  EXPECT_BAD(s->cell_size = nextafter(0x1p-16, 0), OP_E_RANGE, "cell_size", NULL);
  EXPECT_OK(s->cell_size = 0x1p-16; s->agent_radius = 0; s->max_edge_len = 0);
  EXPECT_BAD(s->cell_size = 65537, OP_E_RANGE, "cell_size", "65537");
  EXPECT_BAD(s->cell_height = INFINITY, OP_E_RANGE, "cell_height", "Infinity");
  EXPECT_BAD(s->cell_height = -0.1, OP_E_RANGE, "cell_height", "-0.1");
  EXPECT_BAD(s->agent_radius = -0.5, OP_E_RANGE, "agent_radius", "-0.5");
  /* cell 1: 255 cells pass, one ulp more fails */
  EXPECT_OK(s->cell_size = 1; s->agent_radius = 255);
  EXPECT_BAD(s->cell_size = 1; s->agent_radius = nextafter(255, 256), OP_E_RANGE, "agent_radius",
             NULL);
  EXPECT_BAD(s->agent_height = 0, OP_E_RANGE, "agent_height", "0");
  EXPECT_OK(s->cell_height = 1; s->agent_height = 255; s->agent_climb = 1);
  EXPECT_BAD(s->cell_height = 1; s->agent_height = 256; s->agent_climb = 1, OP_E_RANGE,
             "agent_height", "256");
  EXPECT_BAD(s->agent_climb = NAN, OP_E_RANGE, "agent_climb", "NaN");
  /* climb floors: just below 256 cells passes (WalkableClimb 255), 256 fails */
  EXPECT_OK(s->cell_height = 1; s->agent_height = 2; s->agent_climb = nextafter(256, 0));
  EXPECT_BAD(s->cell_height = 1; s->agent_height = 2; s->agent_climb = 256, OP_E_RANGE,
             "agent_climb", "256");
  EXPECT_OK(s->max_slope = 90);
  EXPECT_OK(s->max_slope = 0);
  EXPECT_BAD(s->max_slope = nextafter(90, 91), OP_E_RANGE, "max_slope", NULL);
  EXPECT_BAD(s->max_slope = -1, OP_E_RANGE, "max_slope", "-1");
  EXPECT_BAD(s->tile_cells = 0, OP_E_RANGE, "tile_cells", "0");
  EXPECT_OK(s->tile_cells = 8192);
  EXPECT_BAD(s->tile_cells = 8193, OP_E_RANGE, "tile_cells", "8193");
  EXPECT_BAD(s->partition = (op_partition)3, OP_E_ARGUMENT, "partition", "3");
  EXPECT_OK(s->min_region_area = 1u << 24; s->merge_region_area = 1u << 24);
  EXPECT_BAD(s->min_region_area = (1u << 24) + 1, OP_E_RANGE, "min_region_area", "16777217");
  EXPECT_BAD(s->merge_region_area = (1u << 24) + 1, OP_E_RANGE, "merge_region_area", NULL);
  EXPECT_BAD(s->max_simplification_error = 1024.5, OP_E_RANGE, "max_simplification_error",
             "1024.5");
  EXPECT_BAD(s->max_edge_len = -1, OP_E_RANGE, "max_edge_len", "-1");
  EXPECT_BAD(s->cell_size = 1; s->agent_radius = 1; s->max_edge_len = 65536, OP_E_RANGE,
             "max_edge_len", "65536");
  EXPECT_BAD(s->max_verts_per_poly = 2, OP_E_RANGE, "max_verts_per_poly", "2");
  EXPECT_BAD(s->max_verts_per_poly = 13, OP_E_RANGE, "max_verts_per_poly", "13");
  EXPECT_OK(s->max_verts_per_poly = 12);
  EXPECT_BAD(s->detail_sample_distance = -0.0001, OP_E_RANGE, "detail_sample_distance", NULL);
  EXPECT_BAD(s->detail_sample_max_error = NAN, OP_E_RANGE, "detail_sample_max_error", "NaN");
  /* order: the first failing field in table order is reported */
  EXPECT_BAD(s->tile_cells = 0; s->cell_height = 0, OP_E_RANGE, "cell_height", "0");
}

/* SPAN-031: volume checks, in order. */
OPT_TEST(volume_rules, "SPAN-031") {
  op_convex_volume v[2];
  memset(v, 0, sizeof v);
  for (int i = 0; i < 2; i++) {
    v[i].npoints = 3;
    v[i].points[1][0] = 1;
    v[i].points[2][1] = 1;
    v[i].ymin = 0;
    v[i].ymax = 2;
    v[i].area = 63;
  }
  EXPECT_OK(s->nvolumes = 2; s->volumes = v);
  v[1].npoints = 2;
  EXPECT_BAD(s->nvolumes = 2; s->volumes = v, OP_E_RANGE, "volumes[1].npoints", "2");
  v[1].npoints = 13;
  EXPECT_BAD(s->nvolumes = 2; s->volumes = v, OP_E_RANGE, "volumes[1].npoints", "13");
  v[1].npoints = 3;
  v[1].points[2][1] = 2097152.5;
  EXPECT_BAD(s->nvolumes = 2; s->volumes = v, OP_E_RANGE, "volumes[1].points[2].z", "2097152.5");
  v[1].points[2][1] = 1;
  v[0].ymin = 3;
  EXPECT_BAD(s->nvolumes = 2; s->volumes = v, OP_E_RANGE, "volumes[0].ymax", "2");
  v[0].ymin = 2; /* ymin == ymax is allowed */
  EXPECT_OK(s->nvolumes = 2; s->volumes = v);
  v[0].area = 64;
  EXPECT_BAD(s->nvolumes = 2; s->volumes = v, OP_E_RANGE, "volumes[0].area", "64");
  v[0].area = 0;
  EXPECT_BAD(s->nvolumes = 65537; s->volumes = v, OP_E_LIMIT, "volumes", "65537");
}

/* SPAN-033: obstacle checks; extents computed by hand. */
OPT_TEST(obstacle_rules, "SPAN-033") {
  op_obstacle o[3];
  memset(o, 0, sizeof o);
  o[0].shape = OP_OBSTACLE_CYLINDER;
  o[0].center[0] = 10; o[0].radius = 2; o[0].height = 3;
  o[1].shape = OP_OBSTACLE_BOX;
  o[1].bmin[0] = -1; o[1].bmax[0] = 1; o[1].bmax[1] = 0; o[1].bmax[2] = 4;
  o[2].shape = OP_OBSTACLE_ORIENTED_BOX;
  o[2].half[0] = 1; o[2].half[1] = 0; o[2].half[2] = 2; o[2].yaw = 0.5;
  EXPECT_OK(s->nobstacles = 3; s->obstacles = o);
  o[0].radius = 0;
  EXPECT_BAD(s->nobstacles = 3; s->obstacles = o, OP_E_RANGE, "obstacles[0].radius", "0");
  /* 2097150 + 2 = 2^21 passes, radius 2.5 puts the edge beyond */
  o[0].center[0] = 2097150; o[0].radius = 2;
  EXPECT_OK(s->nobstacles = 3; s->obstacles = o);
  o[0].radius = 2.5;
  EXPECT_BAD(s->nobstacles = 3; s->obstacles = o, OP_E_RANGE, "obstacles[0].radius", "2.5");
  o[0].radius = 2;
  o[0].height = -1;
  EXPECT_BAD(s->nobstacles = 3; s->obstacles = o, OP_E_RANGE, "obstacles[0].height", "-1");
  o[0].height = 0; /* a height of 0 is allowed */
  EXPECT_OK(s->nobstacles = 3; s->obstacles = o);
  o[1].bmin[2] = 5; /* above bmax.z = 4 */
  EXPECT_BAD(s->nobstacles = 3; s->obstacles = o, OP_E_RANGE, "obstacles[1].bmax.z", "4");
  o[1].bmin[2] = 0;
  o[1].bmax[1] = NAN;
  EXPECT_BAD(s->nobstacles = 3; s->obstacles = o, OP_E_RANGE, "obstacles[1].bmax.y", "NaN");
  o[1].bmax[1] = 0;
  o[2].half[1] = -0.5;
  EXPECT_BAD(s->nobstacles = 3; s->obstacles = o, OP_E_RANGE, "obstacles[2].half.y", "-0.5");
  o[2].half[1] = 0;
  o[2].yaw = INFINITY;
  EXPECT_BAD(s->nobstacles = 3; s->obstacles = o, OP_E_RANGE, "obstacles[2].yaw", "Infinity");
  /* yaw 0: (s, c) = (0, 1), ex = hx = 1, ez = hz = 2; at x = 2^21 - 1 it just fits,
  ** at x = 2^21 - 0.5 the +x side leaves */
  o[2].yaw = 0;
  o[2].center[0] = 2097151;
  EXPECT_OK(s->nobstacles = 3; s->obstacles = o);
  o[2].center[0] = 2097151.5;
  EXPECT_BAD(s->nobstacles = 3; s->obstacles = o, OP_E_RANGE, "obstacles[2].half.x", "1");
  o[2].center[0] = 0;
  o[2].shape = (op_obstacle_shape)7;
  EXPECT_BAD(s->nobstacles = 3; s->obstacles = o, OP_E_ARGUMENT, "obstacles[2].shape", "7");
  EXPECT_BAD(s->nobstacles = 65537; s->obstacles = o, OP_E_LIMIT, "obstacles", "65537");
}

/* SPAN-003: any outline of 3..12 points in any winding, concave included. */
OPT_TEST(volume_shape, "SPAN-003") {
  op_convex_volume v;
  memset(&v, 0, sizeof v);
  static const double star[10][2] = {{0, 3}, {1, 1}, {3, 1}, {1.5, -0.5}, {2, -3},
                                     {0, -1.5}, {-2, -3}, {-1.5, -0.5}, {-3, 1}, {-1, 1}};
  v.npoints = 10;
  memcpy(v.points, star, sizeof star);
  v.ymin = v.ymax = 1; /* a flat range is allowed */
  v.area = 0;          /* area 0 is allowed */
  EXPECT_OK(s->nvolumes = 1; s->volumes = &v);
  for (int i = 0; i < 5; i++) /* reversed winding */
    for (int k = 0; k < 2; k++) {
      double t = v.points[i][k];
      v.points[i][k] = v.points[9 - i][k];
      v.points[9 - i][k] = t;
    }
  EXPECT_OK(s->nvolumes = 1; s->volumes = &v);
  v.npoints = 12;
  EXPECT_OK(s->nvolumes = 1; s->volumes = &v);
}

/* SPAN-050: vertices are binary64 and kept exactly (0.1 is not a binary32 value). */
OPT_TEST(soup_binary64, "SPAN-050") {
  double v[9] = {0.1, 1e-300, 2097151.9999999998, 0, 0, 0, 0, 0, 1};
  uint32_t t[3] = {0, 1, 2};
  op_soup s = {3, v, 1, t};
  op_bytes b = {NULL, 0};
  op_error e;
  OPT_CHECK(op_soup_validate(&s, &e) == OP_OK);
  OPT_CHECK(op_soup_save(&s, &b, &e) == OP_OK && b.len == 16 + 72 + 12);
  double back[3];
  if (b.data) memcpy(back, b.data + 16, sizeof back); /* little-endian host */
  OPT_CHECK(back[0] == 0.1 && (double)(float)back[0] != back[0]);
  OPT_CHECK(back[1] == 1e-300 && back[2] == 2097151.9999999998);
  op_bytes_free(&b);
}

/* SPAN-051: the limits, checked before any coordinate. */
OPT_TEST(soup_limits, "SPAN-051") {
  double v[3] = {NAN, 0, 0};
  uint32_t t[3] = {0, 0, 0};
  op_error e;
  op_soup a = {OP_SOUP_MAX_VERTS + 1, v, 0, t};
  OPT_CHECK(op_soup_validate(&a, &e) == OP_E_LIMIT && err_is(&e, OP_E_LIMIT, "verts", "16777217"));
  op_soup b = {1, v, OP_SOUP_MAX_TRIS + 1, t};
  OPT_CHECK(op_soup_validate(&b, &e) == OP_E_LIMIT && err_is(&e, OP_E_LIMIT, "tris", "16777217"));
  op_soup c = {1, v, 1, t}; /* within the limits: the NaN is found */
  OPT_CHECK(op_soup_validate(&c, &e) == OP_E_RANGE && err_is(&e, OP_E_RANGE, "verts[0].x", "NaN"));
}

/* SPAN-060: soup errors first, then the chunk size; nothing is created on failure. */
OPT_TEST(chunked_create_errors, "SPAN-060") {
  double v[9] = {0, 0, 0, 1, 0, 0, 0, 0, 1};
  uint32_t t[3] = {0, 1, 3};
  op_soup s = {3, v, 1, t};
  op_chunked *c = NULL;
  op_error e;
  OPT_CHECK(op_chunked_create(&s, -1, &c, &e) == OP_E_RANGE && c == NULL &&
            err_is(&e, OP_E_RANGE, "tris[0][2]", "3"));
  t[2] = 2;
  OPT_CHECK(op_chunked_create(&s, NAN, &c, &e) == OP_E_RANGE && c == NULL &&
            err_is(&e, OP_E_RANGE, "chunk_size", "NaN"));
  OPT_CHECK(op_chunked_create(&s, 2097152.5, &c, &e) == OP_E_RANGE && c == NULL);
  OPT_CHECK(op_chunked_create(&s, 0x1p-16, &c, &e) == OP_OK && c != NULL);
  op_chunked_free(c);
  op_soup empty = {0, NULL, 0, NULL};
  OPT_CHECK(op_chunked_create(&empty, 1, &c, &e) == OP_OK && op_chunked_count(c) == 0);
  op_chunked_free(c);
}

/* SPAN-061: a centre exactly on a chunk line belongs to the chunk above it; a centre just
** below a negative line to the chunk below. */
OPT_TEST(chunk_key_lines, "SPAN-061") {
  /* S = 4. T0: x 0..8 -> centre 4 -> q 1.0 -> key 1. T1: x -8..0 -> centre -4 -> key -1.
  ** T2: x -8..-0.5 -> centre -4.25 -> q -1.0625 -> key -2. All z 0..1 -> centre 0.5 -> 0. */
  double v[] = {0, 0, 0, 8, 0, 1, 4, 0, 0,  -8, 0, 0, 0, 0, 1, -4, 0, 0,
                -8, 0, 0, -0.5, 0, 1, -4, 0, 0};
  uint32_t t[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  op_soup s = {9, v, 3, t};
  op_chunked *c = NULL;
  op_error e;
  OPT_CHECK(op_chunked_create(&s, 4, &c, &e) == OP_OK);
  if (!c) return;
  OPT_CHECK(op_chunked_count(c) == 3);
  static const uint32_t want[3] = {2, 1, 0}; /* keys -2, -1, 1 ascending */
  for (uint32_t i = 0; i < op_chunked_count(c) && i < 3; i++) {
    double mn[2], mx[2];
    const uint32_t *tr;
    uint32_t n;
    op_chunked_chunk(c, i, mn, mx, &tr, &n);
    OPT_CHECK(n == 1 && tr[0] == want[i]);
  }
  op_chunked_free(c);
}

/* SPAN-063, SPAN-054: the union of selected chunks comes back in ascending triangle
** index even when chunk order differs from index order; touching boxes count. */
OPT_TEST(chunk_query_order, "SPAN-063") {
  /* S = 10: T0 in chunk x 2, T1 in chunk x 0, T2 in chunk x 1, T3 in chunk x 0. */
  double v[] = {21, 0, 0, 22, 0, 1, 21, 0, 1,  1, 0, 0, 2, 0, 1, 1, 0, 1,
                11, 0, 0, 12, 0, 1, 11, 0, 1,  3, 0, 0, 4, 0, 1, 3, 0, 1};
  uint32_t t[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  op_soup s = {12, v, 4, t};
  op_chunked *c = NULL;
  op_error e;
  OPT_CHECK(op_chunked_create(&s, 10, &c, &e) == OP_OK);
  if (!c) return;
  uint32_t *r = NULL, n = 0;
  double bmin[2] = {0, 0}, bmax[2] = {30, 1};
  OPT_CHECK(op_chunked_query(c, bmin, bmax, &r, &n, &e) == OP_OK);
  OPT_CHECK(n == 4 && r && r[0] == 0 && r[1] == 1 && r[2] == 2 && r[3] == 3);
  free(r);
  double bmin2[2] = {4, 1}, bmax2[2] = {11, 5}; /* touches chunk 0's max x 4 and chunk 1's min x 11 at z 1 */
  OPT_CHECK(op_chunked_query(c, bmin2, bmax2, &r, &n, &e) == OP_OK);
  OPT_CHECK(n == 3 && r && r[0] == 1 && r[1] == 2 && r[2] == 3);
  free(r);
  op_chunked_free(c);
}

/* SPAN-070: span s belongs to the column whose offsets hold it; the "ascend and never
** touch" rule applies within a column only. */
OPT_TEST(solid_columns_layout, "SPAN-070") {
  op_settings st = humanoid();
  /* 2 x 2 columns: (0,0): [0,4]; (1,0): none; (0,1): [4,6] [7,9]; (1,1): [0,1] */
  op_solid_span sp[4] = {{0, 4, 63}, {4, 6, 0}, {7, 9, 63}, {0, 1, 5}};
  uint32_t cs[5] = {0, 1, 1, 3, 4};
  op_solid_columns h = {{-3, 1, 2}, 2, 2, cs, 4, sp};
  op_error e;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_OK); /* [0,4] and [4,6] are in different columns */
  cs[1] = 2; /* now (0,0) holds [0,4] and [4,6]: they touch; (1,0) stays empty */
  cs[2] = 2;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_ARGUMENT &&
            err_is(&e, OP_E_ARGUMENT, "spans[1].ymin", "4"));
  cs[1] = 1;
  cs[2] = 1;
  sp[3].ymin = 0; /* spans[3] starts column (1,1): no previous span to compare with */
  sp[3].ymax = 2;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_OK);
}

/* SPAN-071: rows 0..65535; top row bound in world units. */
OPT_TEST(solid_span_rows, "SPAN-071") {
  op_settings st = humanoid();
  op_solid_span sp[1] = {{65534, 65535, 63}};
  uint32_t cs[2] = {0, 1};
  op_solid_columns h = {{0, 0, 0}, 1, 1, cs, 1, sp};
  op_error e;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_OK);
  /* origin_y + 65535 * 0.1 leaves 2^21 when origin_y = 2^21 - 6000 */
  h.origin[1] = 2097152 - 6000;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_RANGE &&
            err_is(&e, OP_E_RANGE, "spans[0].ymax", "65535"));
}

/* SPAN-051, SPAN-052: soup limits, coordinates, indices, in order. */
OPT_TEST(soup_rules, "SPAN-052") {
  double v[9] = {0, 0, 0, 1, 0, 0, 0, 0, 1};
  uint32_t t[3] = {0, 2, 1};
  op_soup s = {3, v, 1, t};
  op_error e;
  OPT_CHECK(op_soup_validate(&s, &e) == OP_OK);
  v[4] = 2097152; /* exactly 2^21 passes */
  v[0] = -2097152;
  OPT_CHECK(op_soup_validate(&s, &e) == OP_OK);
  v[4] = nextafter(2097152, 3e6);
  OPT_CHECK(op_soup_validate(&s, &e) == OP_E_RANGE);
  OPT_CHECK(err_is(&e, OP_E_RANGE, "verts[1].y", "2097152.0000000005"));
  v[4] = 0;
  v[8] = NAN;
  t[2] = 3; /* also a bad index: the vertices are checked first */
  OPT_CHECK(op_soup_validate(&s, &e) == OP_E_RANGE && err_is(&e, OP_E_RANGE, "verts[2].z", "NaN"));
  v[8] = 1;
  OPT_CHECK(op_soup_validate(&s, &e) == OP_E_RANGE && err_is(&e, OP_E_RANGE, "tris[0][2]", "3"));
  t[2] = 1;
  op_soup big = {OP_SOUP_MAX_VERTS + 1, v, 0, t};
  OPT_CHECK(op_soup_validate(&big, &e) == OP_E_LIMIT && err_is(&e, OP_E_LIMIT, "verts", NULL));
  op_soup bigt = {3, v, OP_SOUP_MAX_TRIS + 1, t};
  OPT_CHECK(op_soup_validate(&bigt, &e) == OP_E_LIMIT && err_is(&e, OP_E_LIMIT, "tris", NULL));
  op_soup empty = {0, NULL, 0, NULL};
  OPT_CHECK(op_soup_validate(&empty, &e) == OP_OK); /* SPAN-051: empty is valid */
}

/* SPAN-061, SPAN-062: keys, chunk order, bounds; by hand on four triangles. */
OPT_TEST(chunk_keys, "SPAN-062") {
  /* S = 10. Triangle 0 spans x 12..18, z 1..3: centre (15, 2) -> key (1, 0).
  ** Triangle 1: x -4..-1, z 0..2: centre (-2.5, 1) -> (-1, 0).
  ** Triangle 2: x 11..13, z 20..29: centre (12, 24.5) -> (1, 2).
  ** Triangle 3: x 19..21, z 0..4: centre (20, 2) -> (2, 0)... and the box x 19..21
  ** overlaps chunk (1, 0)'s x range only if chunk bounds say so. Order by kz then kx:
  ** (-1,0): {1}, (1,0): {0}, (2,0): {3}, (1,2): {2}. */
  double v[] = {12, 0, 1, 18, 0, 3, 15, 0, 2,     -4, 0, 0, -1, 0, 2, -2, 0, 1,
                11, 0, 20, 13, 0, 29, 12, 0, 25,  19, 0, 0, 21, 0, 4, 20, 0, 2};
  uint32_t t[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  op_soup s = {12, v, 4, t};
  op_chunked *c = NULL;
  op_error e;
  OPT_CHECK(op_chunked_create(&s, 10, &c, &e) == OP_OK);
  if (!c) return;
  OPT_CHECK(op_chunked_count(c) == 4);
  static const uint32_t want[4] = {1, 0, 3, 2};
  static const double wmin[4][2] = {{-4, 0}, {12, 1}, {19, 0}, {11, 20}};
  static const double wmax[4][2] = {{-1, 2}, {18, 3}, {21, 4}, {13, 29}};
  for (uint32_t i = 0; i < 4 && i < op_chunked_count(c); i++) {
    double mn[2], mx[2];
    const uint32_t *tr;
    uint32_t n;
    op_chunked_chunk(c, i, mn, mx, &tr, &n);
    OPT_CHECK(n == 1 && tr[0] == want[i]);
    OPT_CHECK(mn[0] == wmin[i][0] && mn[1] == wmin[i][1]);
    OPT_CHECK(mx[0] == wmax[i][0] && mx[1] == wmax[i][1]);
  }
  /* SPAN-063: box x [18, 19], z [0, 3] meets chunks (1,0) (x max 18) and (2,0) (x min 19),
  ** closed comparisons: triangles 0 and 3, ascending. */
  uint32_t *r = NULL, n = 0;
  double bmin[2] = {18, 0}, bmax[2] = {19, 3};
  OPT_CHECK(op_chunked_query(c, bmin, bmax, &r, &n, &e) == OP_OK);
  OPT_CHECK(n == 2 && r && r[0] == 0 && r[1] == 3);
  free(r);
  double bmin2[2] = {100, 100}, bmax2[2] = {200, 200};
  OPT_CHECK(op_chunked_query(c, bmin2, bmax2, &r, &n, &e) == OP_OK && n == 0 && r == NULL);
  op_soup view = op_chunked_soup(c);
  OPT_CHECK(view.nverts == 12 && view.ntris == 4 && view.verts != v); /* a copy */
  op_chunked_free(c);
  c = NULL;
  OPT_CHECK(op_chunked_create(&s, 0, &c, &e) == OP_E_RANGE && c == NULL);
  OPT_CHECK(err_is(&e, OP_E_RANGE, "chunk_size", "0"));
}

/* SPAN-063, SPAN-064: on a random soup, every query contains every triangle whose box
** meets the query box, ascending and once each (checked by brute force). */
OPT_TEST(chunk_query_superset, "SPAN-064") {
  enum { NT = 400 };
  double *v = malloc(sizeof(double) * 9 * NT);
  uint32_t *t = malloc(sizeof(uint32_t) * 3 * NT);
  op_prng r;
  op_prng_seed(&r, 42);
  for (uint32_t i = 0; i < 9 * NT; i++) v[i] = op_prng_unit(&r) * 100 - 20;
  for (uint32_t i = 0; i < 3 * NT; i++) t[i] = i;
  op_soup s = {3 * NT, v, NT, t};
  op_chunked *c = NULL;
  op_error e;
  OPT_CHECK(op_chunked_create(&s, 7.5, &c, &e) == OP_OK);
  for (int q = 0; q < 50 && c; q++) {
    double bmin[2], bmax[2];
    for (int k = 0; k < 2; k++) {
      bmin[k] = op_prng_unit(&r) * 120 - 30;
      bmax[k] = bmin[k] + op_prng_unit(&r) * 20;
    }
    uint32_t *res = NULL, n = 0;
    OPT_CHECK(op_chunked_query(c, bmin, bmax, &res, &n, &e) == OP_OK);
    for (uint32_t i = 1; i < n; i++) OPT_CHECK(res[i - 1] < res[i]);
    for (uint32_t tri = 0; tri < NT; tri++) {
      double mn[2] = {1e9, 1e9}, mx[2] = {-1e9, -1e9};
      for (int j = 0; j < 3; j++)
        for (int k = 0; k < 2; k++) {
          double x = v[3 * t[3 * tri + j] + (k ? 2 : 0)];
          if (x < mn[k]) mn[k] = x;
          if (x > mx[k]) mx[k] = x;
        }
      int meets = mn[0] <= bmax[0] && mx[0] >= bmin[0] && mn[1] <= bmax[1] && mx[1] >= bmin[1];
      if (!meets) continue;
      int found = 0;
      for (uint32_t i = 0; i < n; i++) found |= res[i] == tri;
      OPT_CHECK(found);
    }
    free(res);
  }
  op_chunked_free(c);
  free(v);
  free(t);
}

/* SPAN-072: the heightfield input's rules, in order. */
OPT_TEST(solid_columns_rules, "SPAN-072") {
  op_settings st = humanoid();
  op_solid_span sp[3] = {{0, 5, 63}, {8, 10, 1}, {0, 1, 0}};
  uint32_t cs[3] = {0, 2, 3}; /* 2 x 1 columns: column 0 has 2 spans, column 1 one */
  op_solid_columns h = {{0, 0, 0}, 2, 1, cs, 3, sp};
  op_error e;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_OK);
  sp[1].ymin = 5; /* touches the span below */
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_ARGUMENT);
  OPT_CHECK(err_is(&e, OP_E_ARGUMENT, "spans[1].ymin", "5"));
  sp[1].ymin = 6;
  sp[2].ymax = 0; /* empty span */
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_RANGE);
  OPT_CHECK(err_is(&e, OP_E_RANGE, "spans[2].ymax", "0"));
  sp[2].ymax = 65536;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_RANGE);
  sp[2].ymax = 65535;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_OK);
  sp[2].area = 64;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_RANGE &&
            err_is(&e, OP_E_RANGE, "spans[2].area", "64"));
  sp[2].area = 0;
  sp[0].ymin = -1;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_RANGE &&
            err_is(&e, OP_E_RANGE, "spans[0].ymin", "-1"));
  sp[0].ymin = 0;
  cs[1] = 4;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_ARGUMENT &&
            err_is(&e, OP_E_ARGUMENT, "col_start[2]", "3"));
  cs[1] = 2;
  cs[2] = 2;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_ARGUMENT &&
            err_is(&e, OP_E_ARGUMENT, "col_start[2]", "2"));
  cs[2] = 3;
  h.origin[1] = NAN;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_RANGE &&
            err_is(&e, OP_E_RANGE, "origin[1]", "NaN"));
  h.origin[1] = 0;
  h.origin[0] = 2097152 - 0.5; /* two columns of 0.3 leave the bound */
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_RANGE &&
            err_is(&e, OP_E_RANGE, "width", "2"));
  h.origin[0] = 0;
  h.width = 0;
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_RANGE &&
            err_is(&e, OP_E_RANGE, "width", "0"));
  h.width = 2;
  st.cell_size = 0; /* settings first (SPAN-072) */
  OPT_CHECK(op_solid_columns_validate(&h, &st, &e) == OP_E_RANGE &&
            err_is(&e, OP_E_RANGE, "cell_size", "0"));
}

OPT_MAIN_BEGIN
OPT_RUN(cells_rounding);
OPT_RUN(presets_derived);
OPT_RUN(slope_cos);
OPT_RUN(validation_rules);
OPT_RUN(volume_rules);
OPT_RUN(volume_shape);
OPT_RUN(soup_binary64);
OPT_RUN(soup_limits);
OPT_RUN(chunked_create_errors);
OPT_RUN(chunk_key_lines);
OPT_RUN(chunk_query_order);
OPT_RUN(solid_columns_layout);
OPT_RUN(solid_span_rows);
OPT_RUN(obstacle_rules);
OPT_RUN(soup_rules);
OPT_RUN(chunk_keys);
OPT_RUN(chunk_query_superset);
OPT_RUN(solid_columns_rules);
OPT_MAIN_END
