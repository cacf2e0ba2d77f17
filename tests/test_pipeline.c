/*
** test_pipeline.c -- Mesh3DPipeline (build3d-polys.md section 5.2): a hand-checked floor,
** tile order and slots, chunk equals soup, the heightfield grid, the limits, failed calls,
** and the properties of POLY-227 on generated levels (checked on every tile the build
** adds, through the tile hook, with the exact float32 orientation of MATH-022).
*/
#include <math.h>
#include <stdlib.h>

#include "core/internal.h"
#include "onepath_pipeline.h"
#include "optest.h"

static op_settings humanoid(op_partition p) {
  op_settings s;
  op_error e;
  op_settings_preset("Humanoid", &s, &e);
  s.detail_sample_distance = 0; /* no sampling: RT-080 layer first with Layers */
  s.partition = p;
  return s;
}

/* A 6 x 6 floor at y = 0 (the soup of the contours-tile scenario). */
static const double FLOOR_V[12] = {0, 0, 0, 0, 0, 6, 6, 0, 6, 6, 0, 0};
static const uint32_t FLOOR_T[6] = {0, 1, 2, 0, 2, 3};

typedef struct collect {
  int ntiles, bad_bounds, bad_turns, bad_neis;
  uint64_t calls, last_done, last_total;
  int32_t order[64][2];
} collect;

static void on_progress(void *ud, uint64_t done, uint64_t total) {
  collect *c = ud;
  if (done != c->last_done + 1) c->bad_bounds += 1000;
  c->last_done = done;
  c->last_total = total;
  c->calls++;
}

static int sgnf(float a) { return a > 0 ? 1 : (a < 0 ? -1 : 0); }

/* POLY-227 on one tile, from its view. */
static void on_tile(void *ud, int32_t tx, int32_t tz, const op_tile *t) {
  collect *c = ud;
  op_tile_desc v;
  op_tile_view(t, &v);
  if (c->ntiles < 64) {
    c->order[c->ntiles][0] = tx;
    c->order[c->ntiles][1] = tz;
  }
  c->ntiles++;
  float fw = (float)((double)v.tiling.tile_cells * v.tiling.cell_size);
  for (uint32_t i = 0; i < v.nverts; i++) {
    const float *p = v.verts + 3 * i;
    if (!(p[0] >= 0 && p[0] <= fw && p[2] >= 0 && p[2] <= fw && p[1] >= 0 &&
          p[1] <= 16384.0 * v.tiling.cell_size))
      c->bad_bounds++;
  }
  for (uint32_t i = 0; i < v.npolys; i++) {
    const op_poly_desc *q = &v.polys[i];
    uint32_t n = q->nverts;
    for (uint32_t j = 0; j < n; j++) {
      const float *a = v.verts + 3 * q->verts[j], *b = v.verts + 3 * q->verts[(j + 1) % n],
                  *cc = v.verts + 3 * q->verts[(j + 2) % n];
      float A[2] = {a[0], a[2]}, B[2] = {b[0], b[2]}, C[2] = {cc[0], cc[2]};
      int o = op_orient2d_f32(A, B, C);
      int straight = o == 0 && sgnf(b[0] - a[0]) == sgnf(cc[0] - b[0]) &&
                     sgnf(b[2] - a[2]) == sgnf(cc[2] - b[2]);
      if (!(o > 0 || straight)) c->bad_turns++;
      uint16_t k = q->neis[j];
      if (k >= 1 && k < 0x8000) { /* mutual: polygon k-1 has edge b -> a coded i + 1 */
        const op_poly_desc *r = &v.polys[k - 1];
        int found = 0;
        for (uint32_t m = 0; m < r->nverts; m++)
          if (r->verts[m] == q->verts[(j + 1) % n] && r->verts[(m + 1) % r->nverts] == q->verts[j] &&
              r->neis[m] == i + 1)
            found = 1;
        if (!found) c->bad_neis++;
      }
    }
  }
}

/* The floor: Humanoid, cs 0.3. Cells 0..19 are floor; the outer ring is a ledge
** (SPAN-122), erosion by 2 leaves cells 3..16: one region whose contour is the square of
** corners 3 and 17 (build3d/contours-tile). One tile, one quad, walls all round, flat:
** x, z in {f32(3 * 0.3), f32(17 * 0.3)}, local y 0 (every vertex on the lowest row). */
OPT_TEST(floor_by_hand, "POLY-213") {
  op_settings s = humanoid(OP_PARTITION_WATERSHED);
  op_soup soup = {4, FLOOR_V, 2, FLOOR_T};
  op_pipeline_result r;
  op_error e;
  collect c;
  memset(&c, 0, sizeof c);
  op_pipeline_hooks h = {&c, on_progress, on_tile};
  OPT_CHECK(op_pipeline_build_soup(&s, &soup, &h, &r, &e) == OP_OK);
  OPT_CHECK(r.ntx == 1 && r.ntz == 1 && r.nbuilt == 1 && r.ntiles == 1 && r.npolys == 1);
  OPT_CHECK(c.calls == 1 && c.last_done == 1 && c.last_total == 1 && c.ntiles == 1);
  OPT_CHECK(r.tiles[0].nverts == 4 && r.tiles[0].npolys == 1);
  op_ref ref = 0;
  OPT_CHECK(op_mesh_poly_ref(r.mesh, 0, 0, 0, 0, &ref, &e) == OP_OK && ref == (1ull << 42));
  op_pipeline_result_free(&r);
  OPT_CHECK(c.bad_bounds == 0 && c.bad_turns == 0 && c.bad_neis == 0);
}

/* The floor's tile itself, through the hook. */
static void floor_tile(void *ud, int32_t tx, int32_t tz, const op_tile *t) {
  int *ok = ud;
  op_tile_desc v;
  op_tile_view(t, &v);
  float lo = (float)(3 * 0.3), hi = (float)(17 * 0.3);
  *ok = tx == 0 && tz == 0 && v.nverts == 4 && v.npolys == 1 && v.polys[0].nverts == 4;
  for (uint32_t i = 0; *ok && i < 4; i++) {
    const float *p = v.verts + 3 * i;
    *ok = (p[0] == lo || p[0] == hi) && (p[2] == lo || p[2] == hi) && p[1] == 0.0f &&
          v.polys[0].neis[i] == 0 && v.polys[0].area == 63;
  }
  /* origin_y = 0 + fl(ymin * CellHeight) for the floor's row ymin (POLY-212): a whole
  ** row, and the floor at y = 0 is the frame's lowest point, so ymin is 0 or 1 */
  double rows = v.origin_y / v.tiling.cell_height;
  *ok = *ok && rows == floor(rows + 0.5) && rows >= 0 && rows <= 1;
}

OPT_TEST(floor_tile_fields, "POLY-212") {
  op_settings s = humanoid(OP_PARTITION_MONOTONE);
  op_soup soup = {4, FLOOR_V, 2, FLOOR_T};
  op_pipeline_result r;
  op_error e;
  int ok = 0;
  op_pipeline_hooks h = {&ok, NULL, floor_tile};
  OPT_CHECK(op_pipeline_build_soup(&s, &soup, &h, &r, &e) == OP_OK);
  OPT_CHECK(ok == 1);
  op_pipeline_result_free(&r);
}

static op_status level(const char *name, uint32_t size, const op_settings *s, op_trimesh *m) {
  op_error e;
  memset(m, 0, sizeof *m);
  return op_level_generate(name, 3, size, s, m, &e);
}

/* Tiles come rows (z) first, then columns (x); the k-th tile added takes slot k with
** generation 1, so polygon 0 of the k-th tile is (1 << 42) | (k << 20) (MESH-010). */
OPT_TEST(tile_order_and_slots, "POLY-224") {
  op_settings s = humanoid(OP_PARTITION_WATERSHED);
  op_trimesh m;
  OPT_CHECK(level("terrain", 40, &s, &m) == OP_OK);
  op_soup soup = op_trimesh_soup(&m);
  op_pipeline_result r;
  op_error e;
  collect c;
  memset(&c, 0, sizeof c);
  op_pipeline_hooks h = {&c, on_progress, on_tile};
  OPT_CHECK(op_pipeline_build_soup(&s, &soup, &h, &r, &e) == OP_OK);
  OPT_CHECK(r.ntx >= 2 && r.ntz >= 2 && r.ntiles >= 4 && c.last_total == (uint64_t)r.ntx * (uint64_t)r.ntz &&
            c.calls == c.last_total);
  for (uint32_t k = 0; k < r.ntiles; k++) {
    if (k > 0) {
      const op_pipeline_tile *a = &r.tiles[k - 1], *b = &r.tiles[k];
      OPT_CHECK(a->z < b->z || (a->z == b->z && a->x < b->x)); /* POLY-223 */
    }
    op_ref ref = 0;
    OPT_CHECK(op_mesh_poly_ref(r.mesh, r.tiles[k].x, r.tiles[k].z, 0, 0, &ref, &e) == OP_OK);
    OPT_CHECK(ref == ((1ull << 42) | ((uint64_t)k << 20)));
  }
  OPT_CHECK(c.bad_bounds == 0 && c.bad_turns == 0 && c.bad_neis == 0);
  op_pipeline_result_free(&r);
  op_trimesh_free(&m);
}

/* POLY-227 on every generator and partition (small sizes). */
OPT_TEST(properties_levels, "POLY-227") {
  const char *names[4] = {"terrain", "city", "stairs", "dungeon"};
  const uint32_t sizes[4] = {16, 1, 8, 10};
  for (int l = 0; l < 4; l++)
    for (int p = 0; p < 3; p++) {
      op_settings s = humanoid((op_partition)p);
      op_trimesh m;
      OPT_CHECK(level(names[l], sizes[l], &s, &m) == OP_OK);
      op_soup soup = op_trimesh_soup(&m);
      op_pipeline_result r;
      op_error e;
      collect c;
      memset(&c, 0, sizeof c);
      op_pipeline_hooks h = {&c, NULL, on_tile};
      OPT_CHECK(op_pipeline_build_soup(&s, &soup, &h, &r, &e) == OP_OK);
      OPT_CHECK(c.ntiles == (int)r.ntiles && r.npolys > 0);
      OPT_CHECK(c.bad_bounds == 0 && c.bad_turns == 0 && c.bad_neis == 0);
      op_pipeline_result_free(&r);
      op_trimesh_free(&m);
    }
}

static int save_eq(const op_mesh *a, const op_mesh *b) {
  op_bytes x = {NULL, 0}, y = {NULL, 0};
  op_error e;
  int eq = op_mesh_save(a, &x, &e) == OP_OK && op_mesh_save(b, &y, &e) == OP_OK &&
           x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
  op_bytes_free(&x);
  op_bytes_free(&y);
  return eq;
}

OPT_TEST(chunk_equals_soup, "POLY-226") {
  op_settings s = humanoid(OP_PARTITION_LAYERS);
  op_trimesh m;
  OPT_CHECK(level("city", 1, &s, &m) == OP_OK);
  op_soup soup = op_trimesh_soup(&m);
  op_pipeline_result a, b;
  op_error e;
  OPT_CHECK(op_pipeline_build_soup(&s, &soup, NULL, &a, &e) == OP_OK);
  const double sizes[3] = {3.0, 10.0, 1000.0};
  for (int k = 0; k < 3; k++) {
    op_chunked *ch = NULL;
    OPT_CHECK(op_chunked_create(&soup, sizes[k], &ch, &e) == OP_OK);
    OPT_CHECK(op_pipeline_build_chunk(&s, ch, NULL, &b, &e) == OP_OK);
    OPT_CHECK(save_eq(a.mesh, b.mesh));
    op_pipeline_result_free(&b);
    op_chunked_free(ch);
  }
  op_pipeline_result_free(&a);
  op_trimesh_free(&m);
}

/* POLY-221: 65 x 1 columns with TileSize 64 are ceil(65 / 64) = 2 by ceil(1 / 64) = 1 tiles. */
OPT_TEST(heightfield_grid, "POLY-221") {
  op_settings s = humanoid(OP_PARTITION_WATERSHED);
  uint32_t start[66];
  op_solid_span sp[65];
  for (uint32_t i = 0; i < 65; i++) {
    start[i] = i;
    sp[i].ymin = 0;
    sp[i].ymax = 10;
    sp[i].area = 63;
  }
  start[65] = 65;
  op_solid_columns cols = {{1, 2, 3}, 65, 1, start, 65, sp};
  op_pipeline_result r;
  op_error e;
  OPT_CHECK(op_pipeline_build_heightfield(&s, &cols, NULL, &r, &e) == OP_OK);
  OPT_CHECK(r.ntx == 2 && r.ntz == 1 && r.ntiles == 0); /* one cell deep: eroded away */
  op_pipeline_result_free(&r);
}

/* POLY-222 and POLY-225: the slot limit names tile_cells; a failed call leaves *out as it
** was. 4097 x 1025 tiles of one cell (0.3) > 2^22. */
OPT_TEST(limits, "POLY-222") {
  op_settings s = humanoid(OP_PARTITION_WATERSHED);
  s.tile_cells = 1;
  double v[9] = {0, 0, 0, 0, 0, 1, 1, 0, 0};
  v[6] = 4097 * 0.3 - 0.1;
  v[8] = 1025 * 0.3 - 0.1;
  uint32_t t[3] = {0, 1, 2};
  op_soup soup = {3, v, 1, t};
  op_pipeline_result r;
  memset(&r, 0x5a, sizeof r);
  op_error e;
  OPT_CHECK(op_pipeline_build_soup(&s, &soup, NULL, &r, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "tile_cells") == 0 && strcmp(e.value, "1") == 0);
  OPT_CHECK(strstr(e.message, "2^22") != NULL && strstr(e.message, "raise tile_cells") != NULL);
  OPT_CHECK(r.ntx == 0x5a5a5a5a);
  /* FMT-006 for the last column: a soup ending at 2^21 - 1 from x = 2^21 - 2, tiles of
  ** 64 * 0.3 = 19.2: origin + 19.2 > 2^21 */
  s.tile_cells = 64;
  double w[9] = {2097150, 0, 0, 2097150, 0, 1, 2097151, 0, 0};
  soup.verts = w;
  OPT_CHECK(op_pipeline_build_soup(&s, &soup, NULL, &r, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "tile_cells") == 0 && strstr(e.message, "lower tile_cells"));
  OPT_CHECK(r.ntx == 0x5a5a5a5a);
  /* POLY-202 refuses no sampling value: with sampling the same grid fails the same way */
  s.detail_sample_distance = 6;
  OPT_CHECK(op_pipeline_build_soup(&s, &soup, NULL, &r, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "tile_cells") == 0 && strstr(e.message, "lower tile_cells"));
  OPT_CHECK(r.ntx == 0x5a5a5a5a);
}

/* POLY-241's C-only errors (a NULL list, the count limit before the list is read), and
** POLY-244's slot fields for the floor by hand: one tile at the tiling origin (0, 0, 0 the
** soup's frame), so local x, z are f32(x - 0), f32(z - 0); local y f32(y - origin_y). */
OPT_TEST(offmesh_definitions, "POLY-244") {
  op_settings s = humanoid(OP_PARTITION_WATERSHED);
  op_soup soup = {4, FLOOR_V, 2, FLOOR_T};
  op_pipeline_result r, r0;
  op_error e;
  op_pipeline_options o;
  memset(&o, 0, sizeof o);
  o.noffmesh = 1; /* and no list */
  OPT_CHECK(op_pipeline_build_soup_opt(&s, &soup, &o, NULL, &r, &e) == OP_E_ARGUMENT &&
            strcmp(e.field, "offmesh") == 0);
  o.noffmesh = OP_PIPELINE_MAX_OFFMESH + 1; /* the count first: the list is not read */
  OPT_CHECK(op_pipeline_build_soup_opt(&s, &soup, &o, NULL, &r, &e) == OP_E_LIMIT &&
            strcmp(e.field, "offmesh") == 0 && strcmp(e.value, "65537") == 0);
  op_offmesh_link l[2] = {
      {{2.1, 0.25, 3.3}, {4.7, 0.0, -1.0}, 0.4, 0xBEEF, 9, 1, 77u},
      {{1.0, 0.0, 1.0}, {2.0, 0.0, 2.0}, 0.5, 1, 64, 0, 0u}, /* area 64 */
  };
  o.offmesh = l;
  o.noffmesh = 2;
  OPT_CHECK(op_pipeline_build_soup_opt(&s, &soup, &o, NULL, &r, &e) == OP_E_RANGE &&
            strcmp(e.field, "offmesh[1].area") == 0);
  o.noffmesh = 1;
  OPT_CHECK(op_pipeline_build_soup_opt(&s, &soup, &o, NULL, &r, &e) == OP_OK);
  OPT_CHECK(op_pipeline_build_soup(&s, &soup, NULL, &r0, &e) == OP_OK);
  OPT_CHECK(r.ntiles == 1 && r.noffmesh == 1 && r0.noffmesh == 0);
  OPT_CHECK(r.tiles[0].content_id != r0.tiles[0].content_id); /* POLY-245 */
  op_mesh_tile mt;
  op_status got = op_mesh_tile_at(r.mesh, 0, 0, 0, &mt, &e);
  OPT_CHECK(got == OP_OK);
  if (got == OP_OK) {
    op_tile_desc v;
    op_tile_view(mt.tile, &v);
    OPT_CHECK(v.noffmesh == 1);
    const op_offmesh_desc *d = v.offmesh;
    OPT_CHECK(d[0].start[0] == (float)2.1 && d[0].start[2] == (float)3.3 &&
              d[0].start[1] == (float)(0.25 - v.origin_y));
    OPT_CHECK(d[0].end[0] == (float)4.7 && d[0].end[2] == (float)-1.0 &&
              d[0].end[1] == (float)(0.0 - v.origin_y));
    OPT_CHECK(d[0].radius == 0.4f && d[0].flags == 0xBEEF && d[0].area == 9 &&
              d[0].bidirectional == 1 && d[0].user_id == 77u);
  }
  op_pipeline_result_free(&r);
  op_pipeline_result_free(&r0);
}

OPT_MAIN_BEGIN
OPT_RUN(floor_by_hand);
OPT_RUN(floor_tile_fields);
OPT_RUN(tile_order_and_slots);
OPT_RUN(properties_levels);
OPT_RUN(chunk_equals_soup);
OPT_RUN(heightfield_grid);
OPT_RUN(limits);
  OPT_RUN(offmesh_definitions);
OPT_MAIN_END
