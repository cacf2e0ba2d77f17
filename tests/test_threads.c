/*
** test_threads.c -- the parallel bake (spec/build3d-polys.md POLY-228): every level
** generator, every partition, soup and chunk mode, with and without detail sampling, a
** heightfield build, and the cached build's kept data (RT-011),
** built with threads 1, 2 and 8 gives the same mesh bytes (MESH-040), the same result
** (grid, built count, tile list with content ids) and the same hook calls in the same
** order; the thread count's range; and the error of a build whose tiles fail is the first
** in tile order (POLY-225), whichever tile a worker finishes first. Part builds'
** ranges and slot counts (POLY-229; their merge: tools/tests/split_merge.sh).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "onepath.h"
#include "onepath_build3d.h"
#include "onepath_pipeline.h"
#include "optest.h"
#include "build3d/pipeline/pipeline_internal.h"

static op_settings humanoid(op_partition p, int sampling) {
  op_settings s;
  op_error e;
  op_settings_preset("Humanoid", &s, &e);
  if (!sampling) s.detail_sample_distance = 0; /* Layers then builds layer first (RT-080) */
  s.partition = p;
  return s;
}

/* What a build shows its caller: the hooks' calls, in order, hashed. */
typedef struct seen {
  uint64_t h;
  uint64_t progress_calls, tile_calls;
} seen;

static void mix(seen *s, uint64_t v) { s->h = (s->h ^ v) * 0x100000001b3ull; }

static void on_progress(void *ud, uint64_t done, uint64_t total) {
  seen *s = ud;
  s->progress_calls++;
  mix(s, done);
  mix(s, total);
}

static void on_tile(void *ud, int32_t tx, int32_t tz, const op_tile *t) {
  seen *s = ud;
  s->tile_calls++;
  mix(s, (uint64_t)(uint32_t)tx);
  mix(s, (uint64_t)(uint32_t)tz);
  mix(s, op_tile_content_id(t));
}

typedef struct outcome {
  op_status st;
  op_error e;
  op_bytes bytes;
  op_pipeline_result r;
  seen hooks;
} outcome;

static void outcome_free(outcome *o) {
  op_bytes_free(&o->bytes);
  op_pipeline_result_free(&o->r);
}

/* One build of the soup (chunk_size 0) or of its chunked mesh with `threads`. */
static void build(const op_settings *s, const op_soup *soup, double chunk_size,
                  uint32_t threads, outcome *o) {
  memset(o, 0, sizeof *o);
  o->hooks.h = 0xcbf29ce484222325ull;
  op_pipeline_hooks h = {&o->hooks, on_progress, on_tile};
  op_pipeline_options opt;
  memset(&opt, 0, sizeof opt);
  opt.threads = threads;
  if (chunk_size > 0) {
    op_chunked *ch = NULL;
    o->st = op_chunked_create(soup, chunk_size, &ch, &o->e);
    if (o->st == OP_OK) o->st = op_pipeline_build_chunk_opt(s, ch, &opt, &h, &o->r, &o->e);
    op_chunked_free(ch);
  } else {
    o->st = op_pipeline_build_soup_opt(s, soup, &opt, &h, &o->r, &o->e);
  }
  if (o->st == OP_OK) o->st = op_mesh_save(o->r.mesh, &o->bytes, &o->e);
}

/* Everything the caller of a build sees is the same. */
static int same(const outcome *a, const outcome *b) {
  if (a->st != b->st) return 0;
  if (a->st != OP_OK)
    return a->e.kind == b->e.kind && !strcmp(a->e.field, b->e.field) &&
           !strcmp(a->e.value, b->e.value) && !strcmp(a->e.message, b->e.message);
  if (a->bytes.len != b->bytes.len || memcmp(a->bytes.data, b->bytes.data, a->bytes.len))
    return 0;
  if (a->r.ntx != b->r.ntx || a->r.ntz != b->r.ntz || a->r.nbuilt != b->r.nbuilt ||
      a->r.ntiles != b->r.ntiles || a->r.npolys != b->r.npolys)
    return 0;
  for (uint32_t k = 0; k < a->r.ntiles; k++) {
    const op_pipeline_tile *x = &a->r.tiles[k], *y = &b->r.tiles[k];
    if (x->x != y->x || x->z != y->z || x->layer != y->layer || x->nverts != y->nverts ||
        x->npolys != y->npolys || x->content_id != y->content_id)
      return 0;
  }
  return a->hooks.h == b->hooks.h && a->hooks.progress_calls == b->hooks.progress_calls &&
         a->hooks.tile_calls == b->hooks.tile_calls;
}

static const uint32_t THREADS[3] = {1, 2, 8};

/* Builds with threads 1, 2, 8 and compares; *tiles receives the grid's tile count. */
static int same_for_threads(const op_settings *s, const op_soup *soup, double chunk_size,
                            uint64_t *tiles) {
  outcome o[3];
  for (int k = 0; k < 3; k++) build(s, soup, chunk_size, THREADS[k], &o[k]);
  int ok = o[0].st == OP_OK && same(&o[0], &o[1]) && same(&o[0], &o[2]);
  *tiles = (uint64_t)o[0].r.ntx * (uint64_t)o[0].r.ntz;
  if (!ok)
    fprintf(stderr, "  differs: status %d/%d/%d, %s\n", o[0].st, o[1].st, o[2].st,
            o[0].st ? o[0].e.message : "");
  for (int k = 0; k < 3; k++) outcome_free(&o[k]);
  return ok;
}

static const char *NAMES[4] = {"terrain", "city", "stairs", "dungeon"};
static const uint32_t SIZES[4] = {40, 1, 8, 20};

/* Every generator, every partition, with and without detail sampling (so Layers runs both
** the layer-first path, RT-086, and the general path), soup mode. */
OPT_TEST(levels_same_bytes_any_threads, "POLY-228") {
  for (int l = 0; l < 4; l++)
    for (int p = 0; p < 3; p++)
      for (int sampling = 0; sampling < 2; sampling++) {
        op_settings s = humanoid((op_partition)p, sampling);
        op_trimesh m;
        op_error e;
        memset(&m, 0, sizeof m);
        OPT_CHECK(op_level_generate(NAMES[l], 3, SIZES[l], &s, &m, &e) == OP_OK);
        op_soup soup = op_trimesh_soup(&m);
        uint64_t tiles = 0;
        int ok = same_for_threads(&s, &soup, 0, &tiles);
        if (!ok) fprintf(stderr, "  %s partition %d sampling %d\n", NAMES[l], p, sampling);
        OPT_CHECK(ok);
        OPT_CHECK(tiles >= 4); /* several tiles, so the workers really share the grid */
        op_trimesh_free(&m);
      }
}

/* BuildChunk (POLY-226) under threads: the same bytes too. */
OPT_TEST(chunk_same_bytes_any_threads, "POLY-228") {
  for (int l = 0; l < 4; l++) {
    op_settings s = humanoid(l == 1 ? OP_PARTITION_LAYERS : OP_PARTITION_WATERSHED, 0);
    op_trimesh m;
    op_error e;
    memset(&m, 0, sizeof m);
    OPT_CHECK(op_level_generate(NAMES[l], 3, SIZES[l], &s, &m, &e) == OP_OK);
    op_soup soup = op_trimesh_soup(&m);
    uint64_t tiles = 0;
    OPT_CHECK(same_for_threads(&s, &soup, 10.0, &tiles));
    OPT_CHECK(tiles >= 4);
    op_trimesh_free(&m);
  }
}

/* BuildHeightfield (POLY-220, SPAN-185) under threads: a 150 x 120 column field with a
** terrace step every 20 columns and holes, so tiles differ; the same bytes too. */
OPT_TEST(heightfield_same_bytes_any_threads, "POLY-228") {
  op_settings s = humanoid(OP_PARTITION_WATERSHED, 0);
  const uint32_t w = 150, d = 120;
  uint32_t *start = malloc(((size_t)w * d + 1) * sizeof *start);
  op_solid_span *sp = malloc((size_t)w * d * sizeof *sp);
  OPT_CHECK(start && sp);
  if (!start || !sp) return;
  uint32_t n = 0;
  for (uint32_t z = 0; z < d; z++)
    for (uint32_t x = 0; x < w; x++) {
      start[z * w + x] = n;
      if ((x * 7 + z * 3) % 97 == 0) continue; /* a hole */
      sp[n].ymin = 0;
      sp[n].ymax = (int32_t)(1 + (x / 20) * 2);
      sp[n++].area = OP_AREA_WALKABLE;
    }
  start[(size_t)w * d] = n;
  op_solid_columns cols = {{0, 0, 0}, w, d, start, n, sp};
  outcome o[3];
  for (int k = 0; k < 3; k++) {
    memset(&o[k], 0, sizeof o[k]);
    op_pipeline_options opt;
    memset(&opt, 0, sizeof opt);
    opt.threads = THREADS[k];
    o[k].hooks.h = 0xcbf29ce484222325ull;
    op_pipeline_hooks h = {&o[k].hooks, on_progress, on_tile};
    o[k].st = op_pipeline_build_heightfield_opt(&s, &cols, &opt, &h, &o[k].r, &o[k].e);
    if (o[k].st == OP_OK) o[k].st = op_mesh_save(o[k].r.mesh, &o[k].bytes, &o[k].e);
  }
  OPT_CHECK(o[0].st == OP_OK && o[0].r.ntiles >= 4);
  OPT_CHECK(same(&o[0], &o[1]) && same(&o[0], &o[2]));
  for (int k = 0; k < 3; k++) outcome_free(&o[k]);
  free(start);
  free(sp);
}

/* The range: 0 .. 256; 257 is a range error naming threads with the value, before the
** settings are looked at. threads 0 (the processors online) builds the same mesh. */
OPT_TEST(threads_range, "POLY-228") {
  op_settings s = humanoid(OP_PARTITION_WATERSHED, 0);
  op_trimesh m;
  op_error e;
  memset(&m, 0, sizeof m);
  OPT_CHECK(op_level_generate("stairs", 3, 8, &s, &m, &e) == OP_OK);
  op_soup soup = op_trimesh_soup(&m);
  outcome a, b, c;
  build(&s, &soup, 0, 1, &a);
  build(&s, &soup, 0, 0, &b);
  build(&s, &soup, 0, OP_PIPELINE_MAX_THREADS, &c);
  OPT_CHECK(a.st == OP_OK && same(&a, &b) && same(&a, &c));
  outcome_free(&a);
  outcome_free(&b);
  outcome_free(&c);
  op_settings bad = s;
  bad.cell_size = -1; /* an invalid setting: the threads error comes first */
  build(&bad, &soup, 0, OP_PIPELINE_MAX_THREADS + 1, &a);
  OPT_CHECK(a.st == OP_E_RANGE && !strcmp(a.e.field, "threads") && !strcmp(a.e.value, "257"));
  OPT_CHECK(a.r.mesh == NULL);
  outcome_free(&a);
  op_trimesh_free(&m);
}

/* 64 floors stacked 4 m apart over nx tiles along x, each tile wide `w`: every column of
** every tile has 64 open spans, more than SPAN-141 allows, so every tile fails. Tile 0 has `extra` times the
** triangles of the others (a finer grid of the same floors), so it is the slowest. */
static void stacked_floors(uint32_t nx, double w, uint32_t extra, op_trimesh *m) {
  const uint32_t nfl = 64;
  uint32_t quads_per_floor = extra + (nx - 1);
  m->nverts = nfl * quads_per_floor * 4;
  m->ntris = nfl * quads_per_floor * 2;
  m->verts = malloc(3 * (size_t)m->nverts * sizeof *m->verts);
  m->tris = malloc(3 * (size_t)m->ntris * sizeof *m->tris);
  uint32_t v = 0, t = 0;
  for (uint32_t f = 0; f < nfl; f++) {
    double y = 4.0 * f;
    for (uint32_t q = 0; q < quads_per_floor; q++) {
      double x0, x1;
      if (q < extra) { /* tile 0 in strips */
        x0 = 0.05 * w + 0.9 * w * q / extra;
        x1 = 0.05 * w + 0.9 * w * (q + 1) / extra;
      } else {
        x0 = w * (q - extra + 1) + 0.05 * w;
        x1 = w * (q - extra + 2) - 0.05 * w;
      }
      const double z0 = 0.05 * w, z1 = 0.95 * w;
      double p[12] = {x0, y, z0, x0, y, z1, x1, y, z1, x1, y, z0};
      memcpy(&m->verts[3 * (size_t)v], p, sizeof p);
      uint32_t tr[6] = {v, v + 1, v + 2, v, v + 2, v + 3};
      memcpy(&m->tris[3 * (size_t)t], tr, sizeof tr);
      v += 4;
      t += 2;
    }
  }
}

/* POLY-228 with POLY-225: the error reported is tile (0, 0)'s, the first in tile order,
** although tile (0, 0) is the slowest and later tiles fail first; the same error, field,
** value and message as with one thread. */
OPT_TEST(first_error_in_tile_order, "POLY-228") {
  op_settings s = humanoid(OP_PARTITION_WATERSHED, 0);
  double w = (double)s.tile_cells * s.cell_size;
  op_trimesh m;
  memset(&m, 0, sizeof m);
  stacked_floors(6, w, 40, &m);
  OPT_CHECK(m.verts && m.tris);
  if (!m.verts || !m.tris) return;
  op_soup soup = op_trimesh_soup(&m);
  outcome o[3];
  for (int k = 0; k < 3; k++) build(&s, &soup, 0, THREADS[k], &o[k]);
  OPT_CHECK(o[0].st == OP_E_LIMIT && !strncmp(o[0].e.field, "column[", 7));
  OPT_CHECK(!strncmp(o[0].e.message, "tile (0, 0): ", 13));
  OPT_CHECK(same(&o[0], &o[1]) && same(&o[0], &o[2]));
  OPT_CHECK(o[1].r.mesh == NULL && o[2].r.mesh == NULL); /* nothing returned (POLY-225) */
  for (int k = 0; k < 3; k++) outcome_free(&o[k]);
  op_trimesh_free(&m);
}

/* POLY-229: a part build's range is checked (out_of_range naming the member with its value);
** a range past the grid is an empty part (no tile, slot count 0); the parts' slot counts add
** up to the whole build's. */
OPT_TEST(part_range, "POLY-229") {
  op_settings s = humanoid(OP_PARTITION_LAYERS, 0);
  op_trimesh m;
  op_error e;
  memset(&m, 0, sizeof m);
  OPT_CHECK(op_level_generate("city", 1, 2, &s, &m, &e) == OP_OK);
  op_soup soup = op_trimesh_soup(&m);
  op_pipeline_options o;
  memset(&o, 0, sizeof o);
  o.tile_range = 1;
  o.x0 = 1;
  o.x1 = 0;
  op_pipeline_result r;
  OPT_CHECK(op_pipeline_build_soup_opt(&s, &soup, &o, NULL, &r, &e) == OP_E_RANGE &&
            !strcmp(e.field, "tile_range.x1") && !strcmp(e.value, "0"));
  o.x1 = 1;
  o.z0 = -2;
  OPT_CHECK(op_pipeline_build_soup_opt(&s, &soup, &o, NULL, &r, &e) == OP_E_RANGE &&
            !strcmp(e.field, "tile_range.z0") && !strcmp(e.value, "-2"));
  op_pipeline_result whole;
  OPT_CHECK(op_pipeline_build_soup(&s, &soup, NULL, &whole, &e) == OP_OK);
  OPT_CHECK(whole.ntx >= 2 && whole.slots > (uint32_t)(whole.ntx * whole.ntz)); /* layers */
  o.x0 = o.x1 = whole.ntx + 5; /* past the grid */
  o.z0 = 0;
  o.z1 = 0;
  OPT_CHECK(op_pipeline_build_soup_opt(&s, &soup, &o, NULL, &r, &e) == OP_OK);
  OPT_CHECK(r.ntiles == 0 && r.slots == 0 && r.nbuilt == 0 && r.ntx == whole.ntx);
  op_pipeline_result_free(&r);
  uint64_t sum = 0, tiles = 0; /* column 0, then the rest (x1 clipped) */
  for (int k = 0; k < 2; k++) {
    o.x0 = k ? 1 : 0;
    o.x1 = k ? 1000 : 0;
    o.z0 = 0;
    o.z1 = 1000;
    OPT_CHECK(op_pipeline_build_soup_opt(&s, &soup, &o, NULL, &r, &e) == OP_OK);
    sum += r.slots;
    tiles += r.ntiles;
    for (uint32_t t = 0; t < r.ntiles; t++) OPT_CHECK(k ? r.tiles[t].x >= 1 : r.tiles[t].x == 0);
    op_pipeline_result_free(&r);
  }
  OPT_CHECK(sum == whole.slots && tiles == whole.ntiles);
  op_pipeline_result_free(&whole);
  op_trimesh_free(&m);
}

/* The cached build's kept data (RT-011, RT-015) made by the workers is that of one thread:
** the same tiles in cache order, each with the same units (layer-first: one per layer) and
** unit tiles, the same base spans; the mesh bytes equal. (The tile cache's first build runs
** opl_run with one thread today; this keeps the parallel path ready for it.) */
static int same_keep(const opl_keep *a, const opl_keep *b) {
  if (a->ntiles != b->ntiles) return 0;
  for (uint32_t i = 0; i < a->ntiles; i++) {
    const opl_keep_tile *x = &a->tiles[i], *y = &b->tiles[i];
    if (x->tx != y->tx || x->tz != y->tz || x->nunits != y->nunits ||
        x->base.nlayers != y->base.nlayers || !x->base.chf != !y->base.chf)
      return 0;
    if (x->base.chf) { /* the base spans with their first-build areas, byte for byte */
      op_bytes p = {NULL, 0}, q = {NULL, 0};
      op_error e;
      int eq = op_chf_save(x->base.chf, &p, &e) == OP_OK &&
               op_chf_save(y->base.chf, &q, &e) == OP_OK && p.len == q.len &&
               !memcmp(p.data, q.data, p.len);
      op_bytes_free(&p);
      op_bytes_free(&q);
      if (!eq) return 0;
    }
    for (uint32_t u = 0; u < x->nunits; u++) {
      const op_tile *p = x->units[u].tile, *q = y->units[u].tile;
      if (!p != !q || (p && op_tile_content_id(p) != op_tile_content_id(q))) return 0;
    }
  }
  return 1;
}

OPT_TEST(cached_keep_any_threads, "POLY-228") {
  for (int l = 0; l < 4; l++)
    for (int p = 0; p < 3; p++) {
      op_settings s = humanoid((op_partition)p, 0);
      op_trimesh m;
      op_error e;
      memset(&m, 0, sizeof m);
      OPT_CHECK(op_level_generate(NAMES[l], 3, SIZES[l], &s, &m, &e) == OP_OK);
      op_soup soup = op_trimesh_soup(&m);
      opl_keep k[3];
      op_pipeline_result r[3];
      op_bytes b[3];
      int ok = 1;
      for (int t = 0; t < 3; t++) {
        opl_ctx c;
        memset(&b[t], 0, sizeof b[t]);
        OPT_CHECK(opl_begin_soup(&c, &s, &soup, NULL, &e) == OP_OK);
        c.threads = THREADS[t];
        OPT_CHECK(opl_run(&c, &r[t], &k[t], &e) == OP_OK);
        OPT_CHECK(op_mesh_save(r[t].mesh, &b[t], &e) == OP_OK);
      }
      for (int t = 1; t < 3; t++)
        ok = ok && same_keep(&k[0], &k[t]) && b[0].len == b[t].len &&
             !memcmp(b[0].data, b[t].data, b[0].len);
      if (!ok) fprintf(stderr, "  %s partition %d\n", NAMES[l], p);
      OPT_CHECK(ok && k[0].ntiles >= 4);
      for (int t = 0; t < 3; t++) {
        opl_keep_free(&k[t]);
        op_pipeline_result_free(&r[t]);
        op_bytes_free(&b[t]);
      }
      op_trimesh_free(&m);
    }
}

OPT_MAIN_BEGIN
OPT_RUN(levels_same_bytes_any_threads);
OPT_RUN(chunk_same_bytes_any_threads);
OPT_RUN(heightfield_same_bytes_any_threads);
OPT_RUN(threads_range);
OPT_RUN(first_error_in_tile_order);
OPT_RUN(part_range);
OPT_RUN(cached_keep_any_threads);
OPT_MAIN_END
