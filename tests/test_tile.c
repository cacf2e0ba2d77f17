/*
** test_tile.c -- unit tests of spec/navmesh-format.md (FMT): the tile's rules at their
** boundaries, the byte layout, the content id, load of malformed bytes, the field walker
** and the tile.* protocol ops.
**
** Independent references used here:
**   - the expected bytes of the two-triangle square are written out below field by field
**     from the layout tables FMT-041/FMT-042 by the test's own little encoder;
**   - the content id is recomputed with libxxhash's XXH3_64bits directly (FMT-043);
**   - every boundary value (fW, 2^21 extents, 2^14 * cell_size) is derived by hand in
**     the comment of its test, the one-ulp neighbours with nextafterf.
*/
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "artifact.h"
#include "dispatch.h"
#include "onepath.h"
#include "optest.h"

/* ------------------------------------------------------------------ fixtures */

/* The square: tiling origin 0, cell 0.5, 8 cells -> W = fW = 4. Two triangles
** A = (0,1,2), B = (0,2,3) joined along 0-2, portals on all four sides. */
typedef struct fix {
  op_tile_desc d;
  float v[3 * 16];
  op_poly_desc p[4];
  op_detail_desc det[4];
  float dv[3 * 8];
  uint8_t dt[4 * 8];
  op_offmesh_desc om[2];
} fix;

static void square(fix *f) {
  memset(f, 0, sizeof *f);
  f->d.x = 0;
  f->d.z = 0;
  f->d.layer = 0;
  f->d.tiling.cell_size = 0.5;
  f->d.tiling.cell_height = 0.25;
  f->d.tiling.tile_cells = 8;
  f->d.tiling.max_verts_per_poly = 6;
  f->d.origin_y = 0.0;
  const float v[12] = {0, 0, 0, 4, 0, 0, 4, 0, 4, 0, 0, 4};
  memcpy(f->v, v, sizeof v);
  f->d.nverts = 4;
  f->d.verts = f->v;
  f->p[0].nverts = 3;
  f->p[0].verts[0] = 0, f->p[0].verts[1] = 1, f->p[0].verts[2] = 2;
  f->p[0].neis[0] = 0x8003, f->p[0].neis[1] = 0x8002, f->p[0].neis[2] = 2;
  f->p[0].flags = 1;
  f->p[1].nverts = 3;
  f->p[1].verts[0] = 0, f->p[1].verts[1] = 2, f->p[1].verts[2] = 3;
  f->p[1].neis[0] = 1, f->p[1].neis[1] = 0x8001, f->p[1].neis[2] = 0x8000;
  f->p[1].flags = 1;
  f->d.npolys = 2;
  f->d.polys = f->p;
  f->d.detail = f->det;
  f->d.detail_verts = f->dv;
  f->d.detail_tris = f->dt;
  f->d.offmesh = f->om;
}

/* The square with a detail mesh: A gets one extra vertex (its centroid-ish point) and
** three triangles, B one triangle; plus one off-mesh link. */
static void square_detail(fix *f) {
  square(f);
  f->d.ndetail = 2;
  f->det[0] = (op_detail_desc){0, 0, 1, 3};
  f->det[1] = (op_detail_desc){1, 3, 0, 1};
  f->dv[0] = 3, f->dv[1] = 0.5f, f->dv[2] = 1;
  f->d.ndetail_verts = 1;
  const uint8_t t[16] = {0, 1, 3, 0x01, 1, 2, 3, 0x01, 2, 0, 3, 0x00, 0, 1, 2, 0x14};
  memcpy(f->dt, t, sizeof t);
  f->d.ndetail_tris = 4;
  f->om[0] = (op_offmesh_desc){{1, 0, 1}, {-2, 1.5f, 6}, 0.5f, 3, 2, 1, 77};
  f->d.noffmesh = 1;
}

static op_status make(const op_tile_desc *d, op_error *e, op_tile **out) {
  op_tile *t = (op_tile *)0x1;
  op_status s = op_tile_create(d, &t, e);
  if (s) {
    if (t != NULL) e->kind = (op_status)99; /* a failed call must leave *out NULL */
    t = NULL;
  }
  if (out) *out = t;
  else op_tile_free(t);
  return s;
}

/* The test's own serializer of any description, valid or not, written from the tables
** of FMT-041/FMT-042 (not from ref/navmesh/tile.c); the content id is XXH3_64bits directly. */
typedef struct gbuf {
  uint8_t *b;
  size_t n, cap;
} gbuf;
static void g_put(gbuf *g, const void *p, size_t n) {
  if (g->n + n > g->cap) {
    size_t c = g->cap ? g->cap : 256;
    while (c < g->n + n) c *= 2;
    uint8_t *nb = realloc(g->b, c);
    if (!nb) abort();
    g->b = nb;
    g->cap = c;
  }
  memcpy(g->b + g->n, p, n);
  g->n += n;
}
static void g_le(gbuf *g, uint64_t v, int n) {
  uint8_t t[8];
  for (int i = 0; i < n; i++) t[i] = (uint8_t)(v >> (8 * i));
  g_put(g, t, (size_t)n);
}
static void g_f32(gbuf *g, float f) { uint32_t u; memcpy(&u, &f, 4); g_le(g, u, 4); }
static void g_f64(gbuf *g, double f) { uint64_t u; memcpy(&u, &f, 8); g_le(g, u, 8); }

static gbuf encode_any(const op_tile_desc *d) {
  gbuf g = {NULL, 0, 0};
  g_put(&g, "OPTL", 4);
  g_le(&g, 1, 4);
  g_le(&g, (uint32_t)d->x, 4), g_le(&g, (uint32_t)d->z, 4), g_le(&g, (uint32_t)d->layer, 4);
  for (int k = 0; k < 3; k++) g_f64(&g, d->tiling.origin[k]);
  g_f64(&g, d->tiling.cell_size), g_f64(&g, d->tiling.cell_height);
  g_le(&g, d->tiling.tile_cells, 4), g_le(&g, d->tiling.max_verts_per_poly, 4);
  g_f64(&g, d->origin_y);
  g_le(&g, d->nverts, 4), g_le(&g, d->npolys, 4), g_le(&g, d->ndetail, 4);
  g_le(&g, d->ndetail_verts, 4), g_le(&g, d->ndetail_tris, 4), g_le(&g, d->noffmesh, 4);
  size_t size_at = g.n;
  g_le(&g, 0, 4);
  for (size_t i = 0; i < 3 * (size_t)d->nverts; i++) g_f32(&g, d->verts[i]);
  for (uint32_t i = 0; i < d->npolys; i++) {
    const op_poly_desc *p = &d->polys[i];
    unsigned n = p->nverts > 12 ? 12 : p->nverts;
    g_le(&g, p->nverts, 1), g_le(&g, p->area, 1), g_le(&g, p->flags, 2);
    for (unsigned j = 0; j < n; j++) g_le(&g, p->verts[j], 2);
    for (unsigned j = 0; j < n; j++) g_le(&g, p->neis[j], 2);
  }
  for (uint32_t i = 0; i < d->ndetail; i++) {
    g_le(&g, d->detail[i].vert_base, 4), g_le(&g, d->detail[i].tri_base, 4);
    g_le(&g, d->detail[i].vert_count, 1), g_le(&g, d->detail[i].tri_count, 1);
  }
  for (size_t i = 0; i < 3 * (size_t)d->ndetail_verts; i++) g_f32(&g, d->detail_verts[i]);
  if (d->ndetail_tris) g_put(&g, d->detail_tris, 4 * (size_t)d->ndetail_tris);
  for (uint32_t i = 0; i < d->noffmesh; i++) {
    const op_offmesh_desc *o = &d->offmesh[i];
    for (int k = 0; k < 3; k++) g_f32(&g, o->start[k]);
    for (int k = 0; k < 3; k++) g_f32(&g, o->end[k]);
    g_f32(&g, o->radius);
    g_le(&g, o->flags, 2), g_le(&g, o->area, 1), g_le(&g, o->bidirectional, 1), g_le(&g, o->user_id, 4);
  }
  uint64_t total = g.n + 8;
  for (int i = 0; i < 4; i++) g.b[size_at + (size_t)i] = (uint8_t)(total >> (8 * i));
  g_le(&g, XXH3_64bits(g.b, g.n), 8);
  return g;
}

/* FMT-001: Deserialize applies the rules Create applies. For a description that create
** rejects, its bytes (made by the test's own serializer) are rejected by load with the
** same kind and field. Descriptions whose counts exceed the limits are not encoded
** (fmt_order gives such a count with a short array); load's limit checks are covered by
** the same header checks (FMT-051 step 6). */
static int load_agrees(const op_tile_desc *d, op_status kind, const char *field) {
  if (d->nverts > 65535 || d->npolys > 32767 || d->ndetail_verts > 1048576 ||
      d->ndetail_tris > 1048576 || d->noffmesh > 4096)
    return 1;
  gbuf g = encode_any(d);
  op_tile *t = NULL;
  op_error e;
  op_status s = op_tile_load(g.b, g.n, &t, &e);
  int ok = s == kind && strcmp(e.field, field) == 0;
  if (!ok)
    fprintf(stderr, "  load of the same description: expected %s %s, got %s %s (%s)\n",
            op_status_name(kind), field, op_status_name(s), e.field, e.message);
  op_tile_free(t);
  free(g.b);
  return ok;
}

static int fails(const op_tile_desc *d, op_status kind, const char *field) {
  op_error e;
  op_status s = make(d, &e, NULL);
  if (s != kind || strcmp(e.field, field) != 0) {
    fprintf(stderr, "  expected %s %s, got %s %s (%s)\n", op_status_name(kind), field,
            op_status_name(s), e.field, e.message);
    return 0;
  }
  return load_agrees(d, kind, field);
}

static int succeeds(const op_tile_desc *d) {
  op_error e;
  op_status s = make(d, &e, NULL);
  if (s) fprintf(stderr, "  unexpected %s %s: %s\n", op_status_name(s), e.field, e.message);
  return s == OP_OK;
}

static op_bytes save_of(const op_tile_desc *d) {
  op_bytes b = {NULL, 0};
  op_tile *t = NULL;
  op_error e;
  if (op_tile_create(d, &t, &e) == OP_OK) op_tile_save(t, &b, &e);
  op_tile_free(t);
  return b;
}

/* Rewrites the content id of a byte string after a patch. */
static void rehash(uint8_t *p, size_t n) {
  uint64_t h = XXH3_64bits(p, n - 8);
  for (int i = 0; i < 8; i++) p[n - 8 + (size_t)i] = (uint8_t)(h >> (8 * i));
}

static int load_fails(const uint8_t *p, size_t n, op_status kind, const char *field) {
  op_tile *t = (op_tile *)0x1;
  op_error e;
  op_status s = op_tile_load(p, n, &t, &e);
  int ok = s == kind && strcmp(e.field, field) == 0 && t == NULL;
  if (!ok)
    fprintf(stderr, "  load: expected %s %s, got %s %s (%s)\n", op_status_name(kind), field,
            op_status_name(s), e.field, e.message);
  if (s == OP_OK) op_tile_free(t);
  return ok;
}

/* The test's own encoder (FMT-040): little-endian appends. */
typedef struct enc {
  uint8_t b[512];
  size_t n;
} enc;
static void e_u8(enc *e, unsigned v) { e->b[e->n++] = (uint8_t)v; }
static void e_u16(enc *e, unsigned v) { e_u8(e, v & 0xff); e_u8(e, (v >> 8) & 0xff); }
static void e_u32(enc *e, uint32_t v) { for (int i = 0; i < 4; i++) e_u8(e, (v >> (8 * i)) & 0xff); }
static void e_u64(enc *e, uint64_t v) { for (int i = 0; i < 8; i++) e_u8(e, (unsigned)(v >> (8 * i)) & 0xff); }
static void e_f32(enc *e, float f) { uint32_t u; memcpy(&u, &f, 4); e_u32(e, u); }
static void e_f64(enc *e, double f) { uint64_t u; memcpy(&u, &f, 8); e_u64(e, u); }

/* ------------------------------------------------------------------ tests */

OPT_TEST(fmt_canonical_bytes, "FMT-040") {
  /* Expected bytes of the square, from the tables of FMT-041 and FMT-042. */
  enc e = {{0}, 0};
  e_u8(&e, 'O'), e_u8(&e, 'P'), e_u8(&e, 'T'), e_u8(&e, 'L');
  e_u32(&e, 1);                   /* version */
  e_u32(&e, 0), e_u32(&e, 0), e_u32(&e, 0); /* x z layer */
  e_f64(&e, 0), e_f64(&e, 0), e_f64(&e, 0);  /* tiling origin */
  e_f64(&e, 0.5), e_f64(&e, 0.25);            /* cell size, height */
  e_u32(&e, 8), e_u32(&e, 6);                 /* tile cells, max verts */
  e_f64(&e, 0);                               /* origin_y */
  e_u32(&e, 4), e_u32(&e, 2), e_u32(&e, 0), e_u32(&e, 0), e_u32(&e, 0), e_u32(&e, 0);
  size_t size_at = e.n;
  e_u32(&e, 0); /* size, patched below */
  OPT_CHECK(e.n == 104);
  const float v[12] = {0, 0, 0, 4, 0, 0, 4, 0, 4, 0, 0, 4};
  for (int i = 0; i < 12; i++) e_f32(&e, v[i]);
  e_u8(&e, 3), e_u8(&e, 0), e_u16(&e, 1), e_u16(&e, 0), e_u16(&e, 1), e_u16(&e, 2);
  e_u16(&e, 0x8003), e_u16(&e, 0x8002), e_u16(&e, 2);
  e_u8(&e, 3), e_u8(&e, 0), e_u16(&e, 1), e_u16(&e, 0), e_u16(&e, 2), e_u16(&e, 3);
  e_u16(&e, 1), e_u16(&e, 0x8001), e_u16(&e, 0x8000);
  size_t total = e.n + 8;
  OPT_CHECK(total == 104 + 48 + 2 * 16 + 8);
  e.b[size_at] = (uint8_t)total;
  e_u64(&e, XXH3_64bits(e.b, e.n));

  fix f;
  square(&f);
  op_bytes b = save_of(&f.d);
  OPT_CHECK(b.len == total);
  OPT_CHECK(b.len == total && memcmp(b.data, e.b, total) == 0);
  op_bytes_free(&b);
}

OPT_TEST(fmt_content_id, "FMT-043") {
  fix f;
  square_detail(&f);
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_create(&f.d, &t, &e) == OP_OK);
  op_bytes b = {NULL, 0};
  OPT_CHECK(t && op_tile_save(t, &b, &e) == OP_OK);
  OPT_CHECK(b.len > 8);
  if (b.len > 8) {
    uint64_t h = XXH3_64bits(b.data, b.len - 8);
    OPT_CHECK(op_tile_content_id(t) == h);
    uint64_t stored = 0;
    for (int i = 7; i >= 0; i--) stored = (stored << 8) | b.data[b.len - 8 + (size_t)i];
    OPT_CHECK(stored == h);
    OPT_CHECK(op_hash64(b.data, b.len - 8) == h);
  }
  /* XXH3-64 seed 0 of the empty string, a published test vector. */
  OPT_CHECK(op_hash64("", 0) == UINT64_C(0x2D06800538D394C2));
  op_bytes_free(&b);
  op_tile_free(t);
}

OPT_TEST(fmt_round_trip, "FMT-044") {
  fix f;
  square_detail(&f);
  op_bytes b = save_of(&f.d);
  OPT_CHECK(b.len > 0);
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_load(b.data, b.len, &t, &e) == OP_OK);
  if (t) {
    op_bytes b2 = {NULL, 0};
    OPT_CHECK(op_tile_save(t, &b2, &e) == OP_OK);
    OPT_CHECK(b2.len == b.len && memcmp(b.data, b2.data, b.len) == 0);
    op_bytes_free(&b2);
    op_tile_desc v;
    op_tile_view(t, &v);
    OPT_CHECK(v.nverts == 4 && v.npolys == 2 && v.ndetail == 2 && v.ndetail_verts == 1 &&
              v.ndetail_tris == 4 && v.noffmesh == 1);
    OPT_CHECK(memcmp(v.verts, f.v, 12 * sizeof(float)) == 0);
    OPT_CHECK(memcmp(v.polys, f.p, 2 * sizeof(op_poly_desc)) == 0);
    OPT_CHECK(memcmp(v.detail_tris, f.dt, 16) == 0);
    OPT_CHECK(v.offmesh[0].user_id == 77 && v.offmesh[0].end[0] == -2.0f);
    OPT_CHECK(v.tiling.cell_size == 0.5 && v.tiling.tile_cells == 8);
    /* view -> create gives the same tile */
    op_bytes b3 = save_of(&v);
    OPT_CHECK(b3.len == b.len && memcmp(b3.data, b.data, b.len) == 0);
    op_bytes_free(&b3);
  }
  op_tile_free(t);
  op_bytes_free(&b);
}

OPT_TEST(fmt_negative_zero, "FMT-012") {
  fix f;
  square(&f);
  op_bytes plus = save_of(&f.d);
  f.v[0] = -0.0f; /* verts[0].x */
  f.v[1] = -0.0f;
  f.d.origin_y = -0.0;
  f.d.tiling.origin[0] = -0.0;
  op_bytes minus = save_of(&f.d);
  OPT_CHECK(plus.len && plus.len == minus.len && memcmp(plus.data, minus.data, plus.len) == 0);
  /* load rejects a -0 (bytes patched and rehashed so only the -0 is wrong) */
  if (plus.len) {
    plus.data[104 + 4 + 3] = 0x80; /* verts[0].y = -0 */
    rehash(plus.data, plus.len);
    OPT_CHECK(load_fails(plus.data, plus.len, OP_E_FORMAT, "verts[0].y"));
    plus.data[104 + 4 + 3] = 0x00;
    plus.data[68 + 7] = 0x80; /* header.origin_y = -0 */
    rehash(plus.data, plus.len);
    OPT_CHECK(load_fails(plus.data, plus.len, OP_E_FORMAT, "header.origin_y"));
  }
  op_bytes_free(&plus);
  op_bytes_free(&minus);
}

/* FMT-012 with FMT-003: Create replaces -0.0 by +0.0 before any rule runs, so a -0.0 cell
** size is out of range with the replaced value, "0" (CONF-013), never "-0". */
OPT_TEST(fmt_negative_zero_reported_as_zero, "FMT-012") {
  static const char *fields[2] = {"header.tiling.cell_size", "header.tiling.cell_height"};
  for (int k = 0; k < 2; k++) {
    fix f;
    square(&f);
    if (k == 0) f.d.tiling.cell_size = -0.0;
    else f.d.tiling.cell_height = -0.0;
    op_tile *t = NULL;
    op_error e;
    op_status st = op_tile_create(&f.d, &t, &e);
    OPT_CHECK(st == OP_E_RANGE && t == NULL);
    OPT_CHECK(strcmp(e.field, fields[k]) == 0);
    OPT_CHECK(strcmp(e.value, "0") == 0);
    op_tile_free(t);
  }
}

OPT_TEST(fmt_header_ranges, "FMT-002") {
  fix f;
  square(&f);
  f.d.layer = 255;
  OPT_CHECK(succeeds(&f.d));
  f.d.layer = 256;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.layer"));
  f.d.layer = -1;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.layer"));
}

OPT_TEST(fmt_tiling_ranges, "FMT-003") {
  fix f;
  square(&f);
  f.d.tiling.origin[1] = NAN;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.tiling.origin[1]"));
  f.d.tiling.origin[1] = 2097152.0;
  OPT_CHECK(succeeds(&f.d));
  f.d.tiling.origin[1] = nextafter(2097152.0, 1e300);
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.tiling.origin[1]"));
  square(&f);
  f.d.tiling.cell_size = 0;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.tiling.cell_size"));
  f.d.tiling.cell_size = INFINITY;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.tiling.cell_size"));
  square(&f);
  f.d.tiling.cell_height = 1.0 / 65536.0; /* the lower bound itself */
  OPT_CHECK(succeeds(&f.d));
  f.d.tiling.cell_height = nextafter(1.0 / 65536.0, 0);
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.tiling.cell_height"));
  square(&f);
  f.d.tiling.tile_cells = 0;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.tiling.tile_cells"));
  f.d.tiling.tile_cells = 8193;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.tiling.tile_cells"));
  square(&f);
  f.d.tiling.max_verts_per_poly = 2;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.tiling.max_verts_per_poly"));
  f.d.tiling.max_verts_per_poly = 13;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.tiling.max_verts_per_poly"));
  f.d.tiling.max_verts_per_poly = 3;
  OPT_CHECK(succeeds(&f.d));
  square(&f);
  f.d.origin_y = -2097152.0;
  OPT_CHECK(succeeds(&f.d));
  f.d.origin_y = -2097153.0;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.origin_y"));
}

OPT_TEST(fmt_extent, "FMT-006") {
  /* cell 1, 8192 cells: W = 2^13. Tile x = 255 spans [255 * 2^13, 256 * 2^13] =
  ** [2088960, 2^21]: allowed (bound included). x = 256 reaches 2^21 + 2^13: rejected.
  ** x = -256 starts at exactly -2^21: allowed; x = -257: rejected. */
  fix f;
  square(&f);
  f.d.tiling.cell_size = 1.0;
  f.d.tiling.tile_cells = 8192;
  /* the square's vertices (0..4) are not on the sides any more: make all edges walls */
  f.p[0].neis[0] = f.p[0].neis[1] = 0;
  f.p[1].neis[1] = f.p[1].neis[2] = 0;
  f.d.x = 255;
  OPT_CHECK(succeeds(&f.d));
  f.d.x = 256;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.x"));
  f.d.x = -256;
  OPT_CHECK(succeeds(&f.d));
  f.d.x = -257;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.x"));
  f.d.x = 0;
  f.d.z = 255;
  OPT_CHECK(succeeds(&f.d));
  f.d.z = 256;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.z"));
  /* with origin[0] = 0.5 the tile x = 255 ends at 2^21 + 0.5: rejected */
  f.d.z = 0;
  f.d.x = 255;
  f.d.tiling.origin[0] = 0.5;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.x"));
  /* x = INT32_MIN with a large W: x * W is finite in binary64 and far out */
  f.d.tiling.origin[0] = 0;
  f.d.x = INT32_MIN;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.x"));
}

OPT_TEST(fmt_vertex_bounds, "FMT-010") {
  /* fW = 4: x = 4 is on the side, the next binary32 above is outside. */
  fix f;
  square(&f);
  f.v[3] = nextafterf(4.0f, 5.0f); /* verts[1].x */
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "verts[1].x"));
  square(&f);
  f.v[11] = nextafterf(4.0f, 5.0f); /* verts[3].z */
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "verts[3].z"));
  square(&f);
  f.v[3] = NAN;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "verts[1].x"));
  square(&f);
  f.v[5] = -INFINITY;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "verts[1].z"));
  /* fW is W rounded to binary32 (FMT-008): cell 0.1, 8 cells -> W = 0.8 in binary64,
  ** fW = (float)0.8 = 0.800000011920928955078125 > W. A vertex at fW is allowed. */
  square(&f);
  f.d.tiling.cell_size = 0.1;
  const float fw = 0.800000011920928955078125f;
  f.v[3] = fw, f.v[6] = fw, f.v[8] = fw, f.v[11] = fw;
  OPT_CHECK((double)fw > 0.8);
  OPT_CHECK(succeeds(&f.d));
  f.v[3] = f.v[6] = nextafterf(fw, 1.0f);
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "verts[1].x"));
}

OPT_TEST(fmt_height_bound, "FMT-011") {
  /* cell 0.5: |y| <= 2^14 * 0.5 = 8192. */
  fix f;
  square(&f);
  f.v[1] = 8192.0f, f.v[4] = -8192.0f;
  OPT_CHECK(succeeds(&f.d));
  f.v[4] = nextafterf(-8192.0f, -1e9f);
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "verts[1].y"));
}

OPT_TEST(fmt_unused_vertex, "FMT-013") {
  fix f;
  square(&f);
  f.v[12] = 1, f.v[13] = 0, f.v[14] = 1;
  f.d.nverts = 5;
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "verts[4]"));
}

OPT_TEST(fmt_poly_counts, "FMT-014") {
  fix f;
  square(&f);
  f.p[0].area = 63;
  OPT_CHECK(succeeds(&f.d));
  f.p[0].area = 64;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "polys[0].area"));
  square(&f);
  f.p[1].nverts = 2;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "polys[1].nverts"));
  /* a quad with max_verts_per_poly 3 */
  square(&f);
  f.d.tiling.max_verts_per_poly = 3;
  f.d.npolys = 1;
  f.p[0] = (op_poly_desc){4, 0, 0, {0, 1, 2, 3}, {0, 0, 0, 0}};
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "polys[0].nverts"));
  f.d.tiling.max_verts_per_poly = 4;
  OPT_CHECK(succeeds(&f.d));
}

OPT_TEST(fmt_poly_indices, "FMT-015") {
  fix f;
  square(&f);
  f.p[1].verts[2] = 4;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "polys[1].verts[2]"));
  square(&f);
  f.p[1].verts[2] = 0; /* (0, 2, 0) */
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "polys[1].verts[2]"));
}

OPT_TEST(fmt_zero_edge, "FMT-016") {
  /* vertex 4 sits on vertex 1: polygon (0, 1, 4, 2) has an edge 1 -> 4 of length 0 */
  fix f;
  square(&f);
  f.v[12] = 4, f.v[13] = 1, f.v[14] = 0;
  f.d.nverts = 5;
  f.d.npolys = 1;
  f.d.tiling.max_verts_per_poly = 4;
  f.p[0] = (op_poly_desc){4, 0, 0, {0, 1, 4, 2}, {0, 0, 0, 0}};
  f.v[9] = 0, f.v[11] = 0; /* unused vertex 3 moved; it stays unused -> reported later */
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "polys[0].verts[2]"));
}

OPT_TEST(fmt_convexity, "FMT-017") {
  /* Pentagon (0,0) (2,e) (4,0) (4,4) (0,4), one polygon. e = 0: a collinear vertex,
  ** allowed. e = smallest positive binary32: (2,e) lies left of... inside, so the turn at
  ** vertex 1 is to the right: orient = 2*0 - e*4 = -4e < 0. Rejected at verts[1]. */
  fix f;
  square(&f);
  const float v[15] = {0, 0, 0, 2, 0, 0, 4, 0, 0, 4, 0, 4, 0, 0, 4};
  memcpy(f.v, v, sizeof v);
  f.d.nverts = 5;
  f.d.npolys = 1;
  f.p[0] = (op_poly_desc){5, 0, 0, {0, 1, 2, 3, 4}, {0x8003, 0x8003, 0x8002, 0x8001, 0x8000}};
  OPT_CHECK(succeeds(&f.d));
  f.v[5] = nextafterf(0.0f, 1.0f);
  f.p[0].neis[0] = f.p[0].neis[1] = 0;
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "polys[0].verts[1]"));
  /* clockwise square: right turns everywhere, first at j = 0 */
  square(&f);
  f.d.npolys = 1;
  f.d.tiling.max_verts_per_poly = 4;
  f.p[0] = (op_poly_desc){4, 0, 0, {0, 3, 2, 1}, {0, 0, 0, 0}};
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "polys[0].verts[0]"));
  /* spike: (0,0) (4,0) (2,0) (0,4): at j = 1 the path turns back along the line */
  square(&f);
  const float s[12] = {0, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 4};
  memcpy(f.v, s, sizeof s);
  f.d.npolys = 1;
  f.d.tiling.max_verts_per_poly = 4;
  f.p[0] = (op_poly_desc){4, 0, 0, {0, 1, 2, 3}, {0, 0, 0, 0}};
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "polys[0].verts[1]"));
}

OPT_TEST(fmt_single_winding, "FMT-018") {
  /* Convex pentagon P = (2,0) (4,1.5) (3,4) (1,4) (0,1.5); the pentagram visits
  ** P0 P2 P4 P1 P3: every turn is left (each is a triangle of three P's in cyclic
  ** order), yet it winds twice: count 2. */
  fix f;
  square(&f);
  const float v[15] = {2, 0, 0, 4, 0, 1.5f, 3, 0, 4, 1, 0, 4, 0, 0, 1.5f};
  memcpy(f.v, v, sizeof v);
  f.d.nverts = 5;
  f.d.npolys = 1;
  f.p[0] = (op_poly_desc){5, 0, 0, {0, 1, 2, 3, 4}, {0}};
  OPT_CHECK(succeeds(&f.d));
  f.p[0] = (op_poly_desc){5, 0, 0, {0, 2, 4, 1, 3}, {0}};
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "polys[0].verts"));
  op_error e;
  make(&f.d, &e, NULL);
  OPT_CHECK(strcmp(e.value, "2") == 0);
}

OPT_TEST(fmt_neighbour_codes, "FMT-019") {
  fix f;
  square(&f);
  f.p[0].neis[2] = 3; /* npolys = 2 */
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "polys[0].neis[2]"));
  square(&f);
  f.p[0].neis[0] = 0x8004;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "polys[0].neis[0]"));
  square(&f);
  f.p[0].neis[0] = 0x7fff;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "polys[0].neis[0]"));
  square(&f);
  f.p[0].neis[0] = 0; /* a wall on the side is fine */
  OPT_CHECK(succeeds(&f.d));
}

OPT_TEST(fmt_mutual_neighbours, "FMT-020") {
  fix f;
  square(&f);
  f.p[1].neis[0] = 0; /* B does not point back */
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "polys[0].neis[2]"));
  square(&f);
  f.p[0].neis[2] = 1; /* A names itself */
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "polys[0].neis[2]"));
  square(&f);
  f.p[0].neis[1] = 2; /* A's edge 1 -> 2 has no reversed edge in B */
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "polys[0].neis[1]"));
}

OPT_TEST(fmt_portal_sides, "FMT-021") {
  fix f;
  square(&f);
  OPT_CHECK(succeeds(&f.d));
  f.p[0].neis[0] = 0x8001; /* bottom edge (z = 0) marked as side +z */
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "polys[0].neis[0]"));
  /* one endpoint one ulp off its side: vertex 1 at x = 4 - ulp; edge 1 -> 2 is side +x */
  square(&f);
  f.v[3] = nextafterf(4.0f, 0.0f);
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "polys[0].neis[1]"));
  /* and at z = ulp the bottom edge is no longer on side -z */
  square(&f);
  f.v[5] = nextafterf(0.0f, 1.0f);
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "polys[0].neis[0]"));
}

OPT_TEST(fmt_detail, "FMT-023") {
  fix f;
  square_detail(&f);
  OPT_CHECK(succeeds(&f.d));
  f.d.ndetail = 1;
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "header.ndetail"));
  square(&f);
  f.d.ndetail_tris = 1;
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "header.ndetail_tris"));
  square_detail(&f);
  f.det[1].vert_base = 0; /* overlap with polygon 0's detail vertex */
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "detail[1].vert_base"));
  square_detail(&f);
  f.det[1].tri_base = 4; /* a gap */
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "detail[1].tri_base"));
  square_detail(&f);
  f.det[1].tri_count = 0;
  f.d.ndetail_tris = 3;
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "detail[1].tri_count"));
  square_detail(&f);
  f.d.ndetail_verts = 2;
  f.dv[3] = 1, f.dv[4] = 0, f.dv[5] = 1;
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "header.ndetail_verts"));
}

OPT_TEST(fmt_detail_verts, "FMT-024") {
  fix f;
  square_detail(&f);
  f.dv[2] = nextafterf(4.0f, 5.0f);
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "detail_verts[0].z"));
}

OPT_TEST(fmt_detail_tris, "FMT-025") {
  /* polygon 0 has 3 vertices and 1 detail vertex: indices 0..3 allowed, 4 not;
  ** polygon 1 has 3 and 0: index 3 not allowed. */
  fix f;
  square_detail(&f);
  f.dt[1] = 4;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "detail_tris[0].v[1]"));
  square_detail(&f);
  f.dt[12 + 2] = 3;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "detail_tris[3].v[2]"));
  square_detail(&f);
  f.dt[4 + 2] = 1; /* (1, 2, 1) */
  OPT_CHECK(fails(&f.d, OP_E_ARGUMENT, "detail_tris[1].v[2]"));
}

OPT_TEST(fmt_detail_flags, "FMT-026") {
  fix f;
  square_detail(&f);
  f.dt[3] = 0x15; /* bits 0, 2, 4 */
  OPT_CHECK(succeeds(&f.d));
  const uint8_t bad[5] = {0x02, 0x08, 0x20, 0x40, 0x80};
  for (int i = 0; i < 5; i++) {
    f.dt[3] = bad[i];
    OPT_CHECK(fails(&f.d, OP_E_RANGE, "detail_tris[0].flags"));
  }
}

OPT_TEST(fmt_offmesh_start, "FMT-027") {
  fix f;
  square_detail(&f);
  f.om[0].start[0] = nextafterf(0.0f, -1.0f);
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "offmesh[0].start.x"));
}

OPT_TEST(fmt_offmesh_end, "FMT-028") {
  /* tile (0,0), origin 0: world end x = end.x; 2^21 allowed, next binary32 up not. */
  fix f;
  square_detail(&f);
  f.om[0].end[0] = 2097152.0f;
  OPT_CHECK(succeeds(&f.d));
  f.om[0].end[0] = nextafterf(2097152.0f, 1e9f);
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "offmesh[0].end.x"));
  square_detail(&f);
  f.d.origin_y = 1000.0;
  f.om[0].end[1] = -2097152.0f; /* world y = -2^21 + 1000: fine */
  OPT_CHECK(succeeds(&f.d));
  f.d.origin_y = -1000.0; /* world y = -2^21 - 1000 */
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "offmesh[0].end.y"));
  square_detail(&f);
  f.om[0].end[2] = NAN;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "offmesh[0].end.z"));
}

OPT_TEST(fmt_offmesh_fields, "FMT-029") {
  fix f;
  square_detail(&f);
  f.om[0].radius = 0;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "offmesh[0].radius"));
  f.om[0].radius = -1;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "offmesh[0].radius"));
  f.om[0].radius = nextafterf(0.0f, 1.0f);
  OPT_CHECK(succeeds(&f.d));
  square_detail(&f);
  f.om[0].area = 64;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "offmesh[0].area"));
  square_detail(&f);
  f.om[0].bidirectional = 2;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "offmesh[0].bidirectional"));
}

/* n polygons, all the triangle (0, 1, 2) of the square's vertices 0..2 */
static op_poly_desc *tri_polys(uint32_t n) {
  op_poly_desc *p = calloc(n, sizeof *p);
  for (uint32_t i = 0; p && i < n; i++) p[i] = (op_poly_desc){3, 0, 0, {0, 1, 2}, {0}};
  return p;
}

OPT_TEST(fmt_limit_polys, "FMT-030") {
  fix f;
  square(&f);
  f.d.nverts = 3;
  op_poly_desc *p = tri_polys(32768);
  OPT_CHECK(p != NULL);
  if (!p) return;
  f.d.polys = p;
  f.d.npolys = 32767;
  OPT_CHECK(succeeds(&f.d));
  f.d.npolys = 32768;
  OPT_CHECK(fails(&f.d, OP_E_LIMIT, "header.npolys"));
  free(p);
}

OPT_TEST(fmt_limit_verts, "FMT-030") {
  /* 5461 copies of a convex 12-gon with collinear vertices (12 * 5461 = 65532 vertices)
  ** and one triangle: 65535 vertices. One more (unused) vertex: limit. */
  static const float g[24] = {1, 0, 2, 0, 3, 0, 4, 1, 4, 2, 4, 3, 3, 4, 2, 4, 1, 4, 0, 3, 0, 2, 0, 1};
  fix f;
  square(&f);
  f.d.tiling.max_verts_per_poly = 12;
  float *v = calloc(3 * 65536, sizeof(float));
  op_poly_desc *p = calloc(5462, sizeof *p);
  OPT_CHECK(v && p);
  if (v && p) {
    for (uint32_t i = 0; i < 5461; i++) {
      p[i].nverts = 12;
      for (int k = 0; k < 12; k++) {
        uint32_t vi = 12 * i + (uint32_t)k;
        v[3 * vi] = g[2 * k];
        v[3 * vi + 2] = g[2 * k + 1];
        p[i].verts[k] = (uint16_t)vi;
      }
    }
    const float t[9] = {0, 0, 0, 4, 0, 0, 4, 0, 4};
    memcpy(&v[3 * 65532], t, sizeof t);
    p[5461] = (op_poly_desc){3, 0, 0, {65532, 65533, 65534}, {0}};
    f.d.verts = v;
    f.d.nverts = 65535;
    f.d.polys = p;
    f.d.npolys = 5462;
    OPT_CHECK(succeeds(&f.d));
    f.d.nverts = 65536;
    OPT_CHECK(fails(&f.d, OP_E_LIMIT, "header.nverts"));
  }
  free(v);
  free(p);
}

OPT_TEST(fmt_limit_detail, "FMT-030") {
  /* 4113 polygons; records 0..4111 hold 255 detail vertices and 255 triangles each,
  ** record 4112 holds 16 and 16: 4112 * 255 + 16 = 1048576 = 2^20 of each. */
  const uint32_t np = 4113, max = 1048576;
  fix f;
  square(&f);
  f.d.nverts = 3;
  op_poly_desc *p = tri_polys(np);
  op_detail_desc *det = calloc(np, sizeof *det);
  float *dv = calloc(3 * (size_t)(max + 1), sizeof(float));
  uint8_t *dt = calloc(4 * (size_t)(max + 1), 1);
  OPT_CHECK(p && det && dv && dt);
  if (p && det && dv && dt) {
    uint32_t vb = 0, tb = 0;
    for (uint32_t i = 0; i < np; i++) {
      uint8_t c = i + 1 < np ? 255 : 16;
      det[i] = (op_detail_desc){vb, tb, c, c};
      vb += c;
      tb += c;
    }
    OPT_CHECK(vb == max && tb == max);
    for (uint32_t t = 0; t <= max; t++) dt[4 * t] = 0, dt[4 * t + 1] = 1, dt[4 * t + 2] = 2;
    f.d.polys = p;
    f.d.npolys = np;
    f.d.ndetail = np;
    f.d.detail = det;
    f.d.detail_verts = dv;
    f.d.ndetail_verts = max;
    f.d.detail_tris = dt;
    f.d.ndetail_tris = max;
    OPT_CHECK(succeeds(&f.d));
    f.d.ndetail_verts = max + 1;
    OPT_CHECK(fails(&f.d, OP_E_LIMIT, "header.ndetail_verts"));
    f.d.ndetail_verts = max;
    f.d.ndetail_tris = max + 1;
    OPT_CHECK(fails(&f.d, OP_E_LIMIT, "header.ndetail_tris"));
  }
  free(p);
  free(det);
  free(dv);
  free(dt);
}

OPT_TEST(fmt_limit_offmesh, "FMT-030") {
  fix f;
  square(&f);
  op_offmesh_desc *o = calloc(4097, sizeof *o);
  OPT_CHECK(o != NULL);
  if (!o) return;
  for (int i = 0; i < 4097; i++) o[i] = (op_offmesh_desc){{1, 0, 1}, {2, 0, 2}, 1, 0, 0, 0, (uint32_t)i};
  f.d.offmesh = o;
  f.d.noffmesh = 4096;
  OPT_CHECK(succeeds(&f.d));
  f.d.noffmesh = 4097;
  OPT_CHECK(fails(&f.d, OP_E_LIMIT, "header.noffmesh"));
  free(o);
}

OPT_TEST(fmt_order, "FMT-050") {
  /* Several errors at once: the first in FMT-050's order is reported. */
  fix f;
  square(&f);
  f.v[3] = NAN;        /* step 4 */
  f.p[0].area = 99;    /* step 5 */
  f.d.noffmesh = 5000; /* step 3 */
  OPT_CHECK(fails(&f.d, OP_E_LIMIT, "header.noffmesh"));
  f.d.noffmesh = 0;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "verts[1].x"));
  f.v[3] = 4;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "polys[0].area"));
  f.p[0].area = 0;
  f.p[1].neis[0] = 0; /* step 6 */
  f.p[1].verts[2] = 9; /* step 5 wins */
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "polys[1].verts[2]"));
  f.d.layer = -5; /* step 1 beats everything */
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "header.layer"));
}

OPT_TEST(fmt_load_framing, "FMT-051") {
  fix f;
  square_detail(&f);
  op_bytes b = save_of(&f.d);
  OPT_CHECK(b.len > 112);
  if (!b.len) return;
  uint8_t *c = malloc(b.len + 1);
  memcpy(c, b.data, b.len);
  c[0] = 'X';
  OPT_CHECK(load_fails(c, b.len, OP_E_FORMAT, "header.magic"));
  memcpy(c, b.data, b.len);
  c[4] = 2;
  OPT_CHECK(load_fails(c, b.len, OP_E_FORMAT, "header.version"));
  memcpy(c, b.data, b.len);
  c[b.len - 1] ^= 1;
  OPT_CHECK(load_fails(c, b.len, OP_E_FORMAT, "content_id"));
  memcpy(c, b.data, b.len);
  c[b.len] = 0; /* one trailing byte */
  OPT_CHECK(load_fails(c, b.len + 1, OP_E_FORMAT, "header.size"));
  /* stated size fits, the arrays do not end where they should */
  for (int i = 0; i < 4; i++) c[100 + i] = (uint8_t)((b.len + 1) >> (8 * i));
  rehash(c, b.len + 1);
  OPT_CHECK(load_fails(c, b.len + 1, OP_E_FORMAT, "header.size"));
  OPT_CHECK(load_fails(c, 0, OP_E_FORMAT, "header"));
  OPT_CHECK(load_fails(c, 111, OP_E_FORMAT, "header"));
  /* load validates what create validates: polygon 1's area patched to 64 */
  memcpy(c, b.data, b.len);
  size_t poly1 = 104 + 48 + 16 + 1;
  OPT_CHECK(c[poly1] == 0);
  c[poly1] = 64;
  rehash(c, b.len);
  OPT_CHECK(load_fails(c, b.len, OP_E_RANGE, "polys[1].area"));
  /* a polygon vertex count beyond max_verts_per_poly is caught while framing */
  memcpy(c, b.data, b.len);
  c[104 + 48] = 200;
  OPT_CHECK(load_fails(c, b.len, OP_E_RANGE, "polys[0].nverts"));
  /* counts are checked against their limits before any array is read (FMT-051 step 6) */
  memcpy(c, b.data, b.len);
  c[80] = 0x00, c[81] = 0x80; /* npolys = 32768 */
  OPT_CHECK(load_fails(c, b.len, OP_E_LIMIT, "header.npolys"));
  memcpy(c, b.data, b.len);
  c[96] = 0xff, c[97] = 0xff, c[98] = 0xff, c[99] = 0xff; /* noffmesh = 2^32 - 1 */
  OPT_CHECK(load_fails(c, b.len, OP_E_LIMIT, "header.noffmesh"));
  /* a -0 in an off-mesh radius (offset len - 8 - 36 + 24 + 3 is its sign byte) */
  memcpy(c, b.data, b.len);
  c[b.len - 44 + 24] = 0, c[b.len - 44 + 25] = 0, c[b.len - 44 + 26] = 0, c[b.len - 44 + 27] = 0x80;
  rehash(c, b.len);
  OPT_CHECK(load_fails(c, b.len, OP_E_FORMAT, "offmesh[0].radius"));
  /* bidirectional 2 */
  memcpy(c, b.data, b.len);
  c[b.len - 8 - 8 + 3] = 2;
  rehash(c, b.len);
  OPT_CHECK(load_fails(c, b.len, OP_E_RANGE, "offmesh[0].bidirectional"));
  free(c);
  op_bytes_free(&b);
}

OPT_TEST(fmt_load_truncation, "FMT-051") {
  /* every proper prefix of a valid tile is a format error, and nothing crashes */
  fix f;
  square_detail(&f);
  op_bytes b = save_of(&f.d);
  for (size_t n = 0; n < b.len; n++) {
    uint8_t *c = malloc(n ? n : 1);
    memcpy(c, b.data, n);
    op_tile *t = NULL;
    op_error e;
    op_status s = op_tile_load(c, n, &t, &e);
    OPT_CHECK(s == OP_E_FORMAT && t == NULL);
    free(c);
  }
  op_bytes_free(&b);
}

OPT_TEST(fmt_load_corruption, "FMT-051") {
  /* every byte changed (three ways): either an error, or a tile that saves to the
  ** changed bytes themselves */
  fix f;
  square_detail(&f);
  op_bytes b = save_of(&f.d);
  uint8_t *c = malloc(b.len);
  static const uint8_t x[3] = {0x01, 0x80, 0xff};
  int loaded = 0;
  for (size_t i = 0; c && i < b.len; i++)
    for (int k = 0; k < 3; k++) {
      for (int rh = 0; rh < 2; rh++) {
        memcpy(c, b.data, b.len);
        c[i] ^= x[k];
        if (rh && i < b.len - 8) rehash(c, b.len);
        op_tile *t = NULL;
        op_error e;
        op_status s = op_tile_load(c, b.len, &t, &e);
        if (s == OP_OK) {
          loaded++;
          op_bytes o = {NULL, 0};
          OPT_CHECK(op_tile_save(t, &o, &e) == OP_OK);
          OPT_CHECK(o.len == b.len && memcmp(o.data, c, b.len) == 0);
          op_bytes_free(&o);
          op_tile_free(t);
        } else {
          OPT_CHECK(t == NULL && e.field[0] != '\0');
          OPT_CHECK(s == OP_E_FORMAT || s == OP_E_RANGE || s == OP_E_ARGUMENT || s == OP_E_LIMIT);
        }
      }
    }
  OPT_CHECK(loaded > 0); /* e.g. a flag byte changed and rehashed is a valid tile */
  free(c);
  op_bytes_free(&b);
}

typedef struct walk_rec {
  int n;
  char first[64], last[64];
  size_t last_off, sum;
  int found;
} walk_rec;
static void walk_cb(void *ud, const char *name, size_t off, size_t len) {
  walk_rec *w = ud;
  if (w->n == 0) snprintf(w->first, sizeof w->first, "%s", name);
  snprintf(w->last, sizeof w->last, "%s", name);
  w->last_off = off;
  w->sum += len;
  w->n++;
  /* polys[1].neis[2]: 104 + 48 + 16 (poly 0) + 4 + 6 + 4 */
  if (strcmp(name, "polys[1].neis[2]") == 0 && off == 104 + 48 + 16 + 14 && len == 2) w->found = 1;
}

OPT_TEST(fmt_artifact_fields, "FMT-042") {
  fix f;
  square_detail(&f);
  op_bytes b = save_of(&f.d);
  walk_rec w;
  memset(&w, 0, sizeof w);
  OPT_CHECK(opa_tile_fields(b.data, b.len, walk_cb, &w) == 0);
  OPT_CHECK(strcmp(w.first, "header.magic") == 0);
  OPT_CHECK(strcmp(w.last, "content_id") == 0 && w.last_off == b.len - 8);
  OPT_CHECK(w.sum == b.len);
  OPT_CHECK(w.found);
  /* 20 header fields + 12 + 2*(3+6) + 2*4 + 3 + 4*4 + 11 + 1 */
  OPT_CHECK(w.n == 20 + 12 + 18 + 8 + 3 + 16 + 11 + 1);
  memset(&w, 0, sizeof w);
  OPT_CHECK(opa_tile_fields(b.data, b.len - 1, walk_cb, &w) == -1);
  op_bytes_free(&b);
}

/* Sends one request to a session and returns the answer text (malloc'd). */
static char *call(opd_session *s, const char *req) {
  opj_w w;
  opj_w_init(&w);
  opd_execute(s, req, strlen(req), &w);
  char *r = malloc(w.len + 1);
  memcpy(r, w.buf, w.len);
  r[w.len] = 0;
  opj_w_free(&w);
  return r;
}

/* A copy of src with the first `from` replaced by `to`. */
static char *subst(const char *src, const char *from, const char *to) {
  const char *p = strstr(src, from);
  size_t a = p ? (size_t)(p - src) : strlen(src), nf = p ? strlen(from) : 0;
  char *r = malloc(strlen(src) + strlen(to) + 1);
  memcpy(r, src, a);
  strcpy(r + a, p ? to : "");
  strcat(r, src + a + nf);
  return r;
}

OPT_TEST(fmt_protocol, "FMT-070") {
  opd_session *s = opd_session_new();
  const char *create =
      "{\"id\":1,\"op\":\"tile.create\",\"args\":{\"x\":0,\"z\":0,\"layer\":0,"
      "\"tiling\":{\"origin\":[0,0,0],\"cell_size\":0.5,\"cell_height\":0.25,\"tile_cells\":8,"
      "\"max_verts_per_poly\":6},\"origin_y\":0,\"verts\":[[0,0,0],[4,0,0],[4,0,4],[0,0,4]],"
      "\"polys\":[{\"verts\":[0,1,2],\"neis\":[32771,32770,2],\"area\":0,\"flags\":1},"
      "{\"verts\":[0,2,3],\"neis\":[1,32769,32768],\"area\":0,\"flags\":1}]}}";
  char *r = call(s, create);
  /* the content id is the one the C API gives for the same tile */
  fix f;
  square(&f);
  op_tile *t = NULL;
  op_error e;
  op_tile_create(&f.d, &t, &e);
  char want[64];
  snprintf(want, sizeof want, "\"content_id\":\"%016llx\"", (unsigned long long)op_tile_content_id(t));
  OPT_CHECK(strstr(r, "\"handle\":1") != NULL);
  OPT_CHECK(strstr(r, want) != NULL);
  free(r);
  r = call(s, "{\"id\":2,\"op\":\"tile.view\",\"args\":{\"tile\":1}}");
  OPT_CHECK(strstr(r, "\"neis\":[32771,32770,2]") != NULL);
  OPT_CHECK(strstr(r, "\"cell_size\":0.5") != NULL);
  free(r);
  r = call(s, "{\"id\":3,\"op\":\"tile.save\",\"args\":{\"tile\":1}}");
  OPT_CHECK(strstr(r, "\"bytes\":\"4f50544c01000000") != NULL);
  char *hex = strstr(r, "\"bytes\":\"");
  if (hex) {
    hex += 9;
    char *end = strchr(hex, '"');
    size_t n = end ? (size_t)(end - hex) : 0;
    char *req = malloc(n + 100);
    snprintf(req, n + 100, "{\"id\":4,\"op\":\"tile.load\",\"args\":{\"bytes\":\"%.*s\"}}", (int)n, hex);
    char *r2 = call(s, req);
    OPT_CHECK(strstr(r2, "\"handle\":2") != NULL && strstr(r2, want) != NULL);
    free(r2);
    free(req);
  }
  free(r);
  /* 0.1 is not a binary32: argument error naming the JSON path */
  char *bad = subst(create, "[4,0,4]", "[4,0,0.1]");
  r = call(s, bad);
  OPT_CHECK(strstr(r, "\"kind\":\"argument\"") && strstr(r, "\"field\":\"verts[2][2]\""));
  free(r);
  free(bad);
  /* a rule of the format: the format's field name */
  bad = subst(create, "\"layer\":0", "\"layer\":300");
  r = call(s, bad);
  OPT_CHECK(strstr(r, "\"kind\":\"out_of_range\"") && strstr(r, "\"field\":\"header.layer\""));
  free(r);
  free(bad);
  r = call(s, "{\"id\":5,\"op\":\"tile.load\",\"args\":{\"bytes\":\"00\"}}");
  OPT_CHECK(strstr(r, "\"kind\":\"format\"") && strstr(r, "\"field\":\"header\""));
  free(r);
  op_tile_free(t);
  opd_session_free(s);
}

/* ------------------------------------------------------------------ FMT-007, FMT-008,
** FMT-031, MATH-001: values derived by hand in each comment. */

/* A tile of one cell of 2^-16 (W = fW = 2^-16) whose square is the whole polygon. */
static void tiny(fix *f, double ox, double oy, double oz) {
  square(f);
  f->d.tiling.origin[0] = ox, f->d.tiling.origin[1] = 0, f->d.tiling.origin[2] = oz;
  f->d.tiling.cell_size = 0x1p-16;
  f->d.tiling.tile_cells = 1;
  f->d.origin_y = oy;
  const float w = 0x1p-16f;
  const float v[12] = {0, 0, 0, w, 0, 0, w, 0, w, 0, 0, w};
  memcpy(f->v, v, sizeof v);
  f->om[0] = (op_offmesh_desc){{0, 0, 0}, {0, 0, 0}, 1, 0, 0, 0, 0};
  f->d.noffmesh = 1;
}

OPT_TEST(fmt_world_point, "FMT-007") {
  /* x: origin 2^21 - 2^-16, x = 0, W = 2^-16: x0 = 2^21 - 2^-16 and x1 = 2^21 (FMT-006 ok).
  ** The world x of an off-mesh end (FMT-028) is x0 + end.x rounded once to binary64.
  ** Above 2^21 binary64 values are 2^-31 apart. */
  fix f;
  const double ox = 0x1p21 - 0x1p-16;
  /* end.x = 2^-16 + 2^-32 (a binary32: 17 significant bits): exact sum 2^21 + 2^-32 is the
  ** midpoint of 2^21 and 2^21 + 2^-31; ties to even give 2^21, inside the bound. */
  tiny(&f, ox, 0, 0);
  f.om[0].end[0] = 0x1p-16f + 0x1p-32f;
  OPT_CHECK(succeeds(&f.d));
  /* end.x = 2^-16 + 2^-31: the sum 2^21 + 2^-31 is a binary64 value above 2^21: rejected */
  f.om[0].end[0] = 0x1p-16f + 0x1p-31f;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "offmesh[0].end.x"));
  /* y: origin_y = 2^21; end.y = 2^-32 -> 2^21 + 2^-32 rounds (tie, even) to 2^21: ok;
  ** end.y = 2^-31 -> 2^21 + 2^-31: rejected. */
  tiny(&f, 0, 0x1p21, 0);
  f.om[0].end[1] = 0x1p-32f;
  OPT_CHECK(succeeds(&f.d));
  f.om[0].end[1] = 0x1p-31f;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "offmesh[0].end.y"));
  /* z: origin[2] = -2^21, z = 0: z0 = -2^21. end.z = -2^-32 -> -2^21 - 2^-32, the midpoint
  ** of -2^21 and -2^21 - 2^-31: ties to even give -2^21: ok; end.z = -2^-31: rejected. */
  tiny(&f, 0, 0, -0x1p21);
  f.om[0].end[2] = -0x1p-32f;
  OPT_CHECK(succeeds(&f.d));
  f.om[0].end[2] = -0x1p-31f;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "offmesh[0].end.z"));
  /* x0 itself is origin[0] + x * W (FMT-005): origin 2^21 - 2, x = 1, W = 1 -> x0 = 2^21 - 1;
  ** end.x = 1 gives exactly 2^21: ok; end.x = 1 + 2^-22 gives 2^21 + 2^-22, a binary64
  ** value (a multiple of 2^-31): rejected. */
  tiny(&f, 0x1p21 - 2, 0, 0);
  f.d.x = 1;
  f.d.tiling.cell_size = 1.0 / 8.0;
  f.d.tiling.tile_cells = 8;
  {
    const float v[12] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1};
    memcpy(f.v, v, sizeof v);
  }
  f.om[0].end[0] = 1.0f;
  OPT_CHECK(succeeds(&f.d));
  f.om[0].end[0] = 1.0f + 0x1p-22f;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "offmesh[0].end.x"));
}

OPT_TEST(fmt_fw_ties_to_even, "FMT-008") {
  /* Binary32 values near 4 are 2^-21 apart. */
  fix f;
  /* cell 0.5 + 2^-25, 8 cells: W = 4 + 2^-22 exactly, the midpoint of 4 and 4 + 2^-21;
  ** ties to even: fW = 4. So x = 4 is on the side and 4 + 2^-21 (rounding up would allow
  ** it) is outside. */
  square(&f);
  f.d.tiling.cell_size = 0.5 + 0x1p-25;
  OPT_CHECK(succeeds(&f.d));
  f.v[3] = f.v[6] = 4.0f + 0x1p-21f;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "verts[1].x"));
  /* cell 0.5 + 3 * 2^-25: W = 4 + 3 * 2^-22, the midpoint of 4 + 2^-21 (odd) and
  ** 4 + 2^-20 (even): fW = 4 + 2^-20 > W. A vertex at fW is inside the square even though
  ** it lies beyond W; the next binary32 is outside. */
  square(&f);
  f.d.tiling.cell_size = 0.5 + 3 * 0x1p-25;
  const float fw = 4.0f + 0x1p-20f;
  f.v[3] = fw, f.v[6] = fw, f.v[8] = fw, f.v[11] = fw;
  OPT_CHECK((double)fw > 4.0 + 3 * 0x1p-22);
  OPT_CHECK(succeeds(&f.d));
  f.v[3] = f.v[6] = fw + 0x1p-21f;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "verts[1].x"));
  /* and z the same way */
  f.v[3] = f.v[6] = fw;
  f.v[8] = f.v[11] = fw + 0x1p-21f;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "verts[2].z"));
}

OPT_TEST(fmt_max_size, "FMT-031") {
  /* Every count at its FMT-030 limit: 65535 vertices, 32767 polygons of 12 vertices,
  ** 32767 detail records, 2^20 detail vertices and triangles, 4096 off-mesh slots. By the
  ** layout (FMT-041, FMT-042): 104 + 65535*12 + 32767*(4 + 4*12) + 32767*10 + 2^20*12 +
  ** 2^20*4 + 4096*36 + 8 = 104 + 786420 + 1703884 + 327670 + 12582912 + 4194304 + 147456
  ** + 8 = 19742758 bytes. */
  static const float g[24] = {1, 0, 2, 0, 3, 0, 4, 1, 4, 2, 4, 3, 3, 4, 2, 4, 1, 4, 0, 3, 0, 2, 0, 1};
  const uint32_t NV = 65535, NP = 32767, ND = 1048576, NO = 4096, COPIES = 5461;
  fix f;
  square(&f);
  f.d.tiling.max_verts_per_poly = 12;
  float *v = calloc(3 * (size_t)NV, sizeof(float));
  op_poly_desc *p = calloc(NP, sizeof *p);
  op_detail_desc *det = calloc(NP, sizeof *det);
  float *dv = calloc(3 * (size_t)ND, sizeof(float));
  uint8_t *dt = calloc(4 * (size_t)ND, 1);
  op_offmesh_desc *o = calloc(NO, sizeof *o);
  OPT_CHECK(v && p && det && dv && dt && o);
  if (v && p && det && dv && dt && o) {
    /* 5461 copies of the 12-gon (65532 vertices) and 3 more copies of its first three
    ** corners; polygon i uses copy i mod 5461; the last polygon takes the 3 extra vertices. */
    for (uint32_t vi = 0; vi < NV; vi++) {
      uint32_t k = vi < 12 * COPIES ? vi % 12 : vi - 12 * COPIES;
      v[3 * vi] = g[2 * k], v[3 * vi + 2] = g[2 * k + 1];
    }
    for (uint32_t i = 0; i < NP; i++) {
      uint32_t c = i % COPIES;
      p[i].nverts = 12;
      for (int k = 0; k < 12; k++) p[i].verts[k] = (uint16_t)(12 * c + (uint32_t)k);
    }
    for (int k = 0; k < 3; k++) p[NP - 1].verts[k] = (uint16_t)(12 * COPIES + (uint32_t)k);
    /* 32766 records of 32 + 1 record of 64: 32766 * 32 + 64 = 1048576 */
    uint32_t base = 0;
    for (uint32_t i = 0; i < NP; i++) {
      uint8_t c = i + 1 < NP ? 32 : 64;
      det[i] = (op_detail_desc){base, base, c, c};
      base += c;
    }
    OPT_CHECK(base == ND);
    for (uint32_t t = 0; t < ND; t++) dt[4 * t] = 0, dt[4 * t + 1] = 1, dt[4 * t + 2] = 2;
    for (uint32_t i = 0; i < NO; i++) o[i] = (op_offmesh_desc){{1, 0, 1}, {2, 0, 2}, 1, 0, 0, 0, i};
    f.d.verts = v, f.d.nverts = NV;
    f.d.polys = p, f.d.npolys = NP;
    f.d.detail = det, f.d.ndetail = NP;
    f.d.detail_verts = dv, f.d.ndetail_verts = ND;
    f.d.detail_tris = dt, f.d.ndetail_tris = ND;
    f.d.offmesh = o, f.d.noffmesh = NO;
    op_bytes b = save_of(&f.d);
    OPT_CHECK(b.len == 19742758);
    if (b.len >= 104) {
      uint32_t size = (uint32_t)b.data[100] | (uint32_t)b.data[101] << 8 |
                      (uint32_t)b.data[102] << 16 | (uint32_t)b.data[103] << 24;
      OPT_CHECK(size == 19742758);
      op_tile *t = NULL;
      op_error e;
      OPT_CHECK(op_tile_load(b.data, b.len, &t, &e) == OP_OK);
      op_tile_free(t);
    }
    op_bytes_free(&b);
  }
  free(v), free(p), free(det), free(dv), free(dt), free(o);
}

OPT_TEST(fmt_height_bound_binary64, "FMT-011, MATH-001") {
  /* binary32 coordinates are converted to binary64 before any computation (MATH-001):
  ** cell 0.1, bound 16384 * 0.1 = 1638.4000000000000909... (binary64, exact product).
  ** Binary32 values near 1638.4 are 2^-13 apart: 13421773 * 2^-13 = 1638.4000244140625 is
  ** above the bound (a binary32 comparison against the bound rounded to binary32, which is
  ** that same value, would accept it); 13421772 * 2^-13 = 1638.39990234375 is below. */
  fix f;
  square(&f);
  f.d.tiling.cell_size = 0.1; /* W = 0.8, fW = 0.800000011920928955078125 */
  const float fw = 0.800000011920928955078125f;
  f.v[3] = fw, f.v[6] = fw, f.v[8] = fw, f.v[11] = fw;
  f.v[4] = 13421772.0f * 0x1p-13f;
  OPT_CHECK(succeeds(&f.d));
  f.v[4] = 13421773.0f * 0x1p-13f;
  OPT_CHECK((float)(16384 * 0.1) == f.v[4]);
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "verts[1].y"));
  f.v[4] = -13421773.0f * 0x1p-13f;
  OPT_CHECK(fails(&f.d, OP_E_RANGE, "verts[1].y"));
}

OPT_MAIN_BEGIN
OPT_RUN(fmt_world_point);
OPT_RUN(fmt_fw_ties_to_even);
OPT_RUN(fmt_max_size);
OPT_RUN(fmt_height_bound_binary64);
OPT_RUN(fmt_canonical_bytes);
OPT_RUN(fmt_content_id);
OPT_RUN(fmt_round_trip);
OPT_RUN(fmt_negative_zero);
OPT_RUN(fmt_negative_zero_reported_as_zero);
OPT_RUN(fmt_header_ranges);
OPT_RUN(fmt_tiling_ranges);
OPT_RUN(fmt_extent);
OPT_RUN(fmt_vertex_bounds);
OPT_RUN(fmt_height_bound);
OPT_RUN(fmt_unused_vertex);
OPT_RUN(fmt_poly_counts);
OPT_RUN(fmt_poly_indices);
OPT_RUN(fmt_zero_edge);
OPT_RUN(fmt_convexity);
OPT_RUN(fmt_single_winding);
OPT_RUN(fmt_neighbour_codes);
OPT_RUN(fmt_mutual_neighbours);
OPT_RUN(fmt_portal_sides);
OPT_RUN(fmt_detail);
OPT_RUN(fmt_detail_verts);
OPT_RUN(fmt_detail_tris);
OPT_RUN(fmt_detail_flags);
OPT_RUN(fmt_offmesh_start);
OPT_RUN(fmt_offmesh_end);
OPT_RUN(fmt_offmesh_fields);
OPT_RUN(fmt_limit_polys);
OPT_RUN(fmt_limit_verts);
OPT_RUN(fmt_limit_detail);
OPT_RUN(fmt_limit_offmesh);
OPT_RUN(fmt_order);
OPT_RUN(fmt_load_framing);
OPT_RUN(fmt_load_truncation);
OPT_RUN(fmt_load_corruption);
OPT_RUN(fmt_artifact_fields);
OPT_RUN(fmt_protocol);
OPT_MAIN_END
