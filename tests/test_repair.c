/*
** test_repair.c -- the repair of a layer after spans were removed (ref/build3d/runtime/repair.c,
** spec/build3d-runtime.md section 8, RT-100 .. RT-107).
**
** The expected result is always an independent computation: the from-scratch stages of
** RT-084 / RT-085 on the same layer view with the same areas (opl_layer_contours, and
** REG-080 .. REG-083 + REG-200 called directly, which must agree with it). Whenever
** oprp_layer says DONE its contour set must equal the scratch set byte for byte
** (REG-222), and so must the polygon mesh (POLY-020 ..) and the layer's tile (RT-085).
** The levels are the generated `terrain` and `city` (layer views of every tile, the
** Layers partition, MinRegionArea of the preset and 0); the removals are random
** obstacles (cylinders, boxes, oriented boxes marked with opob_mark on a copy of the
** areas) and random single spans. Each fallback reason of RT-101 is also built on purpose
** on small hand-made heightfields, with the scratch result showing why it had to fall
** back. Figures (repaired share, fallback reasons, time of repair vs scratch) are printed.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fixtures3d.h"
#include "build3d/spans/obstacles.h"
#include "optest.h"
#include "build3d/pipeline/pipeline_internal.h"
#include "build3d/polys/polys.h"
#include "build3d/runtime/repair.h"

/* ------------------------------------------------------------ helpers */

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct rng {
  uint64_t s;
} rng;

static uint64_t rnext(rng *r) { /* splitmix64 */
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static uint32_t rint_(rng *r, uint32_t n) { return (uint32_t)(rnext(r) % n); }
static double runit(rng *r) { return (double)(rnext(r) >> 11) * (1.0 / 9007199254740992.0); }

static int same_bytes(const op_bytes *a, const op_bytes *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* REG-222 bytes of two contour sets are equal. */
static int contours_equal(const op_contour_set *a, const op_contour_set *b) {
  op_bytes x = {0}, y = {0};
  int ok = op_contours_save(a, &x, NULL) == OP_OK && op_contours_save(b, &y, NULL) == OP_OK &&
           same_bytes(&x, &y);
  op_bytes_free(&x);
  op_bytes_free(&y);
  return ok;
}

/* The polygon meshes (POLY-020 ..) of two contour sets are equal byte for byte. */
static int pmesh_equal(const op_contour_set *a, const op_contour_set *b, const op_hf_grid *grid,
                       int32_t border, uint32_t nvp) {
  op_pmesh pa, pb;
  memset(&pa, 0, sizeof pa);
  memset(&pb, 0, sizeof pb);
  op_bytes x = {0}, y = {0};
  int ok = op_pmesh_build(a, grid, border, nvp, &pa, NULL) == OP_OK &&
           op_pmesh_build(b, grid, border, nvp, &pb, NULL) == OP_OK &&
           op_pmesh_save(&pa, &x, NULL) == OP_OK && op_pmesh_save(&pb, &y, NULL) == OP_OK &&
           same_bytes(&x, &y);
  op_bytes_free(&x);
  op_bytes_free(&y);
  op_pmesh_free(&pa);
  op_pmesh_free(&pb);
  return ok;
}

/* RT-085: the layer's tiles from two contour sets are equal (both absent counts). */
static int tile_equal(const opl_ctx *c, const op_chf *view, const op_contour_set *a,
                      const op_contour_set *b, int32_t tx, int32_t tz, int32_t L) {
  op_tile *ta = NULL, *tb = NULL;
  op_bytes x = {0}, y = {0};
  int ok = opl_layer_tile(c, view, a, tx, tz, L, &ta, NULL) == OP_OK &&
           opl_layer_tile(c, view, b, tx, tz, L, &tb, NULL) == OP_OK;
  if (ok && (ta || tb))
    ok = ta && tb && op_tile_save(ta, &x, NULL) == OP_OK && op_tile_save(tb, &y, NULL) == OP_OK &&
         same_bytes(&x, &y);
  op_bytes_free(&x);
  op_bytes_free(&y);
  op_tile_free(ta);
  op_tile_free(tb);
  return ok;
}

/* RT-084 twice: REG-080 .. REG-083 with every span in layer 0 plus REG-200 called
** directly, and opl_layer_contours when a context is given; both must agree. Returns
** the direct result. */
static op_status scratch(const opl_ctx *c, const op_chf *view, int32_t border,
                         uint32_t min_area, const op_contour_params *p, op_regions *rg,
                         op_contour_set *cs, int *agree) {
  uint16_t *zero = calloc(view->nspans + 1, sizeof *zero);
  op_status st = opr_layers_from(view, zero, border, min_area, rg, NULL);
  free(zero);
  if (st == OP_OK) st = op_contours_build(view, rg->reg, p, cs, NULL);
  *agree = 1;
  if (st == OP_OK && c) {
    op_regions r2;
    op_contour_set c2;
    *agree = opl_layer_contours(c, view, &r2, &c2, NULL) == OP_OK && r2.nregions == rg->nregions &&
             memcmp(r2.reg, rg->reg, view->nspans * sizeof *rg->reg) == 0 && contours_equal(cs, &c2);
    op_regions_free(&r2);
    op_contour_set_free(&c2);
  }
  return st;
}

/* The view with other areas (a shallow copy: everything but the areas is shared). */
static op_chf with_areas(const op_chf *view, uint8_t *areas) {
  op_chf v = *view;
  v.areas = areas;
  return v;
}

/* ------------------------------------------------------------ one layer, one case */

typedef struct layer_fx {
  op_chf *view;        /* first-build areas */
  op_span_graph g;
  op_regions rg0;
  op_contour_set cs0;
  op_contour_params p;
  uint32_t min_area;
  int32_t tx, tz, L;
  const opl_ctx *ctx; /* with min_region_area = min_area; NULL for hand-made views */
} layer_fx;

static int fx_open(layer_fx *f, op_chf *view, const opl_ctx *ctx, int32_t border,
                   uint32_t min_area, double max_error, int32_t max_edge_len) {
  memset(f, 0, sizeof *f);
  f->view = view;
  f->ctx = ctx;
  f->min_area = min_area;
  f->p.border = border;
  f->p.max_error = max_error;
  f->p.max_edge_len = max_edge_len;
  int agree = 0;
  if (op_span_graph_build(view, &f->g, NULL) != OP_OK) return 0;
  if (scratch(ctx, view, border, min_area, &f->p, &f->rg0, &f->cs0, &agree) != OP_OK) return 0;
  return agree;
}

static void fx_close(layer_fx *f) {
  op_span_graph_free(&f->g);
  op_regions_free(&f->rg0);
  op_contour_set_free(&f->cs0);
}

typedef struct stats {
  uint32_t cases, by[6], unequal, wrong_regions, needless, flags_fixed, bad_count, disagree;
  double t_repair, t_scratch, t_tile; /* seconds, over the DONE cases */
  uint32_t timed;
} stats;

/* The first-build regions with the removed spans set to 0 (RT-103). */
static uint16_t *repaired_regions(const layer_fx *f, const uint8_t *a) {
  uint16_t *r = malloc((f->view->nspans + 1) * sizeof *r);
  for (uint32_t i = 0; i < f->view->nspans; i++)
    r[i] = f->view->areas[i] != 0 && a[i] == 0 ? 0 : f->rg0.reg[i];
  return r;
}

/* Loops of the repaired set equal to a first-build loop (same edges, same vertex records)
** except for tile-border flags: the flags the repair recomputed (RT-104). A loop traced
** again differs in more (an edge next to a removed span faces area 0 now). */
static uint32_t count_flag_fixes(const op_contour_set *old, const op_contour_set *nw) {
  uint32_t n = 0, o = 0;
  for (uint32_t k = 0; k < nw->nloops; k++) {
    const op_cloop *l = &nw->loops[k];
    while (o < old->nloops && old->loops[o].start_key < l->start_key) o++;
    if (o == old->nloops || old->loops[o].start_key != l->start_key ||
        old->loops[o].nraw != l->nraw)
      continue;
    uint32_t m = 0, same = 1;
    for (uint32_t j = 0; j < l->nraw && same; j++) {
      uint32_t ja = old->loops[o].raw_start + j, jb = l->raw_start + j;
      const op_cvert *a = &old->raw[ja], *b = &nw->raw[jb];
      same = old->raw_edge[ja] == nw->raw_edge[jb] && a->x == b->x && a->z == b->z &&
             a->y == b->y && a->reg == b->reg && a->area == b->area &&
             (a->flags & OP_CVERT_AREA_BORDER) == (b->flags & OP_CVERT_AREA_BORDER);
      m += a->flags != b->flags;
    }
    if (same) n += m;
  }
  return n;
}

/* One case: areas a (the areas in force). Checks RT-106 when the repair is done and
** counts the outcome. Returns the result. */
static oprp_result run_case(opt_state *opt_s_, layer_fx *f, const uint8_t *a, int vs,
                                 stats *st) {
  const op_chf *v = f->view;
  uint32_t nrem_expect = 0;
  for (uint32_t i = 0; i < v->nspans; i++) nrem_expect += v->areas[i] != 0 && a[i] == 0;
  oprp_result res = OPRP_DONE;
  op_contour_set out;
  uint32_t nrem = 0;
  op_error e;
  double t0 = now_s();
  op_status rs = oprp_layer(v, &f->g, &f->rg0, &f->cs0, a, vs, &f->p, f->min_area, &res, &out,
                                 &nrem, &e);
  double t1 = now_s();
  OPT_CHECK(rs == OP_OK);
  if (rs != OP_OK) {
    fprintf(stderr, "repair failed: %s %s\n", e.field, e.message);
    return OPRP_NOTHING;
  }
  st->cases++;
  st->by[res]++;
  if (nrem != nrem_expect) st->bad_count++;
  OPT_CHECK(nrem == nrem_expect); /* RT-101: removed = A0 != 0 and A = 0 */
  op_chf va = with_areas(v, (uint8_t *)(uintptr_t)a);
  op_regions rg;
  op_contour_set cs;
  int agree = 0;
  double t2 = now_s();
  op_status ss = scratch(NULL, &va, f->p.border, f->min_area, &f->p, &rg, &cs, &agree);
  double t3 = now_s();
  OPT_CHECK(ss == OP_OK);
  if (ss != OP_OK) {
    op_contour_set_free(&out);
    return res;
  }
  uint16_t *rep = repaired_regions(f, a);
  int regions_same = rg.nregions == f->rg0.nregions &&
                     memcmp(rep, rg.reg, v->nspans * sizeof *rep) == 0;
  if (res == OPRP_DONE) {
    st->t_repair += t1 - t0;
    st->t_scratch += t3 - t2;
    st->timed++;
    if (!regions_same) st->wrong_regions++; /* RT-103 */
    int eq = contours_equal(&out, &cs) && /* RT-106 */
             pmesh_equal(&out, &cs, &v->grid, f->p.border, 6);
    if (eq && f->ctx) {
      int a2 = 0;
      op_regions rg2;
      op_contour_set cs2;
      op_status s2 = scratch(f->ctx, &va, f->p.border, f->min_area, &f->p, &rg2, &cs2, &a2);
      if (s2 != OP_OK || !a2) st->disagree++;
      if (s2 == OP_OK) {
        op_regions_free(&rg2);
        op_contour_set_free(&cs2);
      }
      double t5 = now_s();
      eq = tile_equal(f->ctx, &va, &out, &cs, f->tx, f->tz, f->L);
      st->t_tile += (now_s() - t5) / 2; /* one of the two tiles */
    }
    if (!eq) st->unequal++;
    st->flags_fixed += count_flag_fixes(&f->cs0, &out);
    OPT_CHECK(regions_same);
    OPT_CHECK(eq);
  } else {
    OPT_CHECK(out.nloops == 0 && out.loops == NULL && out.contours == NULL);
    if (res != OPRP_NOT_REMOVAL && res != OPRP_NOTHING && regions_same) st->needless++;
    if (res == OPRP_NOTHING) OPT_CHECK(nrem == 0 && contours_equal(&f->cs0, &cs));
  }
  free(rep);
  op_regions_free(&rg);
  op_contour_set_free(&cs);
  op_contour_set_free(&out);
  return res;
}

/* ------------------------------------------------------------ random removals */

/* A random walkable span of the view, or OP_HF_NONE. */
static uint32_t random_walkable(rng *r, const op_chf *v) {
  if (v->nspans == 0) return OP_HF_NONE;
  for (int t = 0; t < 64; t++) {
    uint32_t i = rint_(r, v->nspans);
    if (v->areas[i]) return i;
  }
  return OP_HF_NONE;
}

static void span_xz(const op_chf *v, uint32_t i, int32_t *x, int32_t *z) {
  for (int32_t zz = 0; zz < v->grid.depth; zz++)
    for (int32_t xx = 0; xx < v->grid.width; xx++) {
      size_t c = (size_t)zz * (size_t)v->grid.width + (size_t)xx;
      if (i >= v->cell_index[c] && i < v->cell_index[c] + v->cell_count[c]) {
        *x = xx;
        *z = zz;
        return;
      }
    }
}

/* A random obstacle near span i of the view (a cylinder, a box or an oriented box whose
** height range holds the span's floor), in world units. */
static op_obstacle random_obstacle(rng *r, const op_chf *v, uint32_t i) {
  int32_t x = 0, z = 0;
  span_xz(v, i, &x, &z);
  const op_hf_grid *g = &v->grid;
  double cs = g->cs;
  double px = g->origin[0] + ((double)(g->gx0 + x) + runit(r)) * cs;
  double pz = g->origin[2] + ((double)(g->gz0 + z) + runit(r)) * cs;
  double fy = opob_floor_y(g, v->spans[i].y);
  double size = cs * (0.2 + 4.0 * runit(r) * runit(r));
  /* the draws in this order: one declarator (a full expression) each */
  switch (rint_(r, 3)) {
  case 0:
    return fx_cylinder(px, fy - 0.5, pz, size, 2.0);
  case 1: {
    double x0 = px - size * runit(r), z0 = pz - size * runit(r);
    double x1 = px + size * runit(r), z1 = pz + size * runit(r);
    return fx_box(x0, fy - 0.5, z0, x1, fy + 1.5, z1);
  }
  default: {
    double hx = size * (0.1 + runit(r)), hz = size * (0.1 + runit(r));
    double yaw = 6.283185307179586 * runit(r) - 3.141592653589793;
    return fx_obox(px, fy, pz, hx, 1.0, hz, yaw);
  }
  }
}

/* Random areas in force for the view: obstacles marked on a copy of the first-build
** areas (RT-022), or single spans removed. Returns the kind: 0 one obstacle, 1 two or
** three obstacles, 2 one to four single spans. */
static int random_areas(rng *r, const op_chf *v, int32_t radius_cells, uint8_t *a) {
  memcpy(a, v->areas, v->nspans);
  op_chf va = with_areas(v, a);
  uint32_t kind = rint_(r, 4);
  if (kind == 3) { /* single spans */
    uint32_t k = 1 + rint_(r, 4);
    for (uint32_t j = 0; j < k; j++) {
      uint32_t i = random_walkable(r, v);
      if (i != OP_HF_NONE) a[i] = 0;
    }
    return 2;
  }
  uint32_t k = kind == 2 ? 2 + rint_(r, 2) : 1;
  for (uint32_t j = 0; j < k; j++) {
    uint32_t i = random_walkable(r, v);
    if (i == OP_HF_NONE) break;
    op_obstacle o = random_obstacle(r, v, i);
    opob_obst p;
    if (opob_prepare(&o, rint_(r, 2) ? radius_cells : 0, v->grid.cs, &p, NULL) == OP_OK)
      opob_mark(&va, &p);
  }
  return k == 1 ? 0 : 1;
}

/* ------------------------------------------------------------ levels */

typedef struct level {
  op_settings s;
  op_trimesh m;
  op_soup soup;
  opl_ctx ctx;
} level;

static int level_open(level *lv, const char *name, uint32_t size, const char *preset) {
  memset(lv, 0, sizeof *lv);
  if (op_settings_preset(preset, &lv->s, NULL) != OP_OK) return 0;
  lv->s.partition = OP_PARTITION_LAYERS; /* RT-080 */
  lv->s.detail_sample_distance = 0;
  if (op_level_generate(name, 11, size, &lv->s, &lv->m, NULL) != OP_OK) return 0;
  lv->soup = op_trimesh_soup(&lv->m);
  return opl_begin_soup(&lv->ctx, &lv->s, &lv->soup, NULL, NULL) == OP_OK;
}

/* RT-081's layers of a base (computed here when the pipeline does not give them). */
static uint16_t *base_layers(opl_base *b, uint32_t *nl) {
  if (b->layer) {
    *nl = b->nlayers;
    return NULL;
  }
  uint16_t *l = malloc((b->chf->nspans + 1) * sizeof *l);
  if (op_regions_layer_assign(b->chf, l, nl, NULL) != OP_OK) {
    free(l);
    return NULL;
  }
  if (*nl == 0) *nl = 1;
  b->layer = l;
  return l;
}

/* Every layer of every tile of a level, `per_layer` random cases each (scaled down for
** big layers), with MinRegionArea of the preset or 0; st[3] by kind of removal. */
static void run_level(opt_state *opt_s_, const char *name, uint32_t size, const char *preset,
                      int zero_min, uint32_t per_layer, uint64_t seed, stats *st) {
  level lv;
  OPT_CHECK(level_open(&lv, name, size, preset));
  opl_ctx ctx = lv.ctx;
  if (zero_min) { /* the stages read ctx.params (opl_stage_params_fill), the key ctx.s */
    ctx.s.min_region_area = 0;
    ctx.params.min_region_area = 0;
  }
  rng r = {seed};
  for (int32_t tz = 0; tz < ctx.ntz; tz++)
    for (int32_t tx = 0; tx < ctx.ntx; tx++) {
      opl_base b;
      OPT_CHECK(opl_tile_base(&ctx, tx, tz, &b, NULL) == OP_OK);
      if (!b.chf) continue;
      uint32_t nl = 0;
      base_layers(&b, &nl);
      for (uint32_t L = 0; L < nl; L++) {
        op_chf *view = NULL;
        uint32_t *map = NULL;
        OPT_CHECK(opl_layer_view(b.chf, b.layer, L, &view, &map, NULL) == OP_OK);
        if (!view) continue;
        layer_fx f;
        int ok = fx_open(&f, view, &ctx, ctx.cell.border, ctx.s.min_region_area,
                         ctx.s.max_simplification_error, ctx.cell.max_edge_len);
        OPT_CHECK(ok); /* RT-084: the two scratch routes agree */
        f.tx = tx, f.tz = tz, f.L = (int32_t)L;
        uint8_t *a = malloc(view->nspans + 1);
        uint32_t k = per_layer;
        if (view->nspans > 2000) k = per_layer * 2000 / view->nspans + 1;
        for (uint32_t c = 0; ok && c < k; c++) {
          int kind = random_areas(&r, view, ctx.cell.walkable_radius, a);
          run_case(opt_s_, &f, a, 0, &st[kind]);
        }
        free(a);
        fx_close(&f);
        op_chf_free(view);
        free(map);
      }
      opl_base_free(&b);
    }
  op_trimesh_free(&lv.m);
}

static void add_stats(stats *t, const stats *s) {
  t->cases += s->cases;
  for (int j = 0; j < 6; j++) t->by[j] += s->by[j];
  t->unequal += s->unequal;
  t->wrong_regions += s->wrong_regions;
  t->needless += s->needless;
  t->flags_fixed += s->flags_fixed;
  t->bad_count += s->bad_count;
  t->disagree += s->disagree;
  t->t_repair += s->t_repair;
  t->t_scratch += s->t_scratch;
  t->t_tile += s->t_tile;
  t->timed += s->timed;
}

static void print_stats(const char *what, const stats *st) {
  uint32_t fb = st->cases - st->by[OPRP_DONE] - st->by[OPRP_NOTHING];
  printf("     %s: %u cases: %u repaired, %u fell back (%.1f %% of the cases with removals: "
         "(a) %u, (b) %u, (c) %u, (d) %u; %u of them with scratch regions equal to the "
         "repaired ones), %u with nothing removed; %u tile-border flags recomputed\n",
         what, st->cases, st->by[0], fb,
         st->cases - st->by[5] ? 100.0 * fb / (st->cases - st->by[5]) : 0.0, st->by[1],
         st->by[2], st->by[3], st->by[4], st->needless, st->by[5], st->flags_fixed);
  if (st->timed)
    printf("     %s: per repaired layer: repair %.1f us, scratch regions + contours %.1f us "
           "(ratio %.2f); polygons, detail and tile %.1f us (whole layer %.2f of scratch)\n",
           what, 1e6 * st->t_repair / st->timed, 1e6 * st->t_scratch / st->timed,
           st->t_scratch > 0 ? st->t_repair / st->t_scratch : 0.0, 1e6 * st->t_tile / st->timed,
           st->t_scratch + st->t_tile > 0
               ? (st->t_repair + st->t_tile) / (st->t_scratch + st->t_tile)
               : 0.0);
}

/* RT-106: on every layer of the generated levels, a repaired layer's contours, polygon
** mesh and tile equal the from-scratch ones for the same areas (RT-084, RT-085). */
OPT_TEST(repair_equals_scratch_levels, "RT-106") {
  static const struct {
    const char *name, *preset;
    uint32_t size, per_layer;
  } L[] = {{"city", "Humanoid", 2, 60}, {"city", "Small", 2, 8},  {"city", "Large", 2, 60},
           {"terrain", "Humanoid", 48, 60}, {"terrain", "Small", 48, 12}};
  static const char *const kinds[3] = {"one obstacle", "2 or 3 obstacles", "1 to 4 single spans"};
  stats total, bykind[3];
  memset(&total, 0, sizeof total);
  memset(bykind, 0, sizeof bykind);
  for (size_t k = 0; k < sizeof L / sizeof L[0]; k++)
    for (int zm = 0; zm < 2; zm++) {
      stats st[3], lv;
      memset(st, 0, sizeof st);
      memset(&lv, 0, sizeof lv);
      run_level(opt_s_, L[k].name, L[k].size, L[k].preset, zm, L[k].per_layer,
                1000 + k * 2 + (uint64_t)zm, st);
      for (int j = 0; j < 3; j++) {
        add_stats(&lv, &st[j]);
        add_stats(&bykind[j], &st[j]);
      }
      char what[64];
      snprintf(what, sizeof what, "%s %s, MinRegionArea %s", L[k].name, L[k].preset,
               zm ? "0" : "preset");
      print_stats(what, &lv);
      OPT_CHECK(lv.unequal == 0 && lv.wrong_regions == 0 && lv.bad_count == 0);
      OPT_CHECK(lv.disagree == 0); /* RT-084: both scratch routes agree */
      OPT_CHECK(lv.by[OPRP_DONE] > 0);
      add_stats(&total, &lv);
    }
  for (int j = 0; j < 3; j++) print_stats(kinds[j], &bykind[j]);
  print_stats("all levels", &total);
}

/* ------------------------------------------------------------ hand-made views */

/* A w x d floor (one open span per column, floor row 10, or y[column] when y is given)
** with the given areas per column (row-major, z rows; 0 = no span); climb 1 row. */
static op_chf *floor_view_y(int32_t w, int32_t d, const uint8_t *area, const int32_t *y) {
  op_hf *hf = fx_hf(w, d, 1, 0.1, 1000);
  op_chf *c = NULL;
  if (!hf) return NULL;
  for (int32_t z = 0; z < d; z++)
    for (int32_t x = 0; x < w; x++)
      if (area[z * w + x])
        op_hf_add_span(hf, x, z, 0, y ? y[z * w + x] : 10, area[z * w + x], 0, NULL);
  op_chf_build(hf, 2, 1, &c, NULL);
  op_hf_free(hf);
  return c;
}



/* The index of the span of column (x, z) (one span per column), or OP_HF_NONE. */
static uint32_t at(const op_chf *c, int32_t x, int32_t z) {
  size_t k = (size_t)z * (size_t)c->grid.width + (size_t)x;
  return c->cell_count[k] ? c->cell_index[k] : OP_HF_NONE;
}

typedef struct hand {
  op_chf *view;
  layer_fx f;
  uint8_t *a; /* areas in force, starting as the first-build areas */
} hand;

static int hand_open_y(hand *h, int32_t w, int32_t d, const uint8_t *area, const int32_t *y,
                       int32_t border, uint32_t min_area) {
  h->view = floor_view_y(w, d, area, y);
  if (!h->view) return 0;
  h->a = malloc(h->view->nspans + 1);
  memcpy(h->a, h->view->areas, h->view->nspans);
  return fx_open(&h->f, h->view, NULL, border, min_area, 0.0, 0);
}

static int hand_open(hand *h, int32_t w, int32_t d, const uint8_t *area, int32_t border,
                     uint32_t min_area) {
  return hand_open_y(h, w, d, area, NULL, border, min_area);
}

static void hand_close(hand *h) {
  fx_close(&h->f);
  op_chf_free(h->view);
  free(h->a);
}

static void hand_remove(hand *h, int32_t x, int32_t z) {
  uint32_t i = at(h->view, x, z);
  if (i != OP_HF_NONE) h->a[i] = 0;
}

static uint8_t *uniform(int32_t w, int32_t d, uint8_t v) {
  uint8_t *a = malloc((size_t)w * (size_t)d);
  memset(a, v, (size_t)w * (size_t)d);
  return a;
}

/* The scratch regions for the hand's current areas. */
static op_status hand_scratch(hand *h, op_regions *rg, op_contour_set *cs) {
  op_chf va = with_areas(h->view, h->a);
  int agree = 0;
  return scratch(NULL, &va, h->f.p.border, h->f.min_area, &h->f.p, rg, cs, &agree);
}

/* The number of regions of the scratch build (hand_scratch), -1 when it fails; what it
** made is freed. */
static int scratch_count(hand *h) {
  op_regions rg;
  op_contour_set cs;
  int n = hand_scratch(h, &rg, &cs) == OP_OK ? (int)rg.nregions : -1;
  op_regions_free(&rg);
  op_contour_set_free(&cs);
  return n;
}

/* RT-101: with nothing removed the result is NOTHING; an area changed to another
** non-zero value, or a volume that selects a span of the layer, is (a). */
OPT_TEST(repair_fallback_not_removal, "RT-101") {
  uint8_t *ar = uniform(10, 10, 63);
  hand h;
  stats st;
  memset(&st, 0, sizeof st);
  OPT_CHECK(hand_open(&h, 10, 10, ar, 0, 0));
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_NOTHING);
  h.a[at(h.view, 4, 4)] = 5; /* another area: scratch gives a second region */
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_NOT_REMOVAL);
  OPT_CHECK(scratch_count(&h) == 2);
  h.a[at(h.view, 4, 4)] = 0; /* a plain removal is repaired ... */
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_DONE);
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 1, &st) == OPRP_NOT_REMOVAL); /* ... not with a volume */
  OPT_CHECK(st.unequal == 0);
  hand_close(&h);
  free(ar);
}

/* RT-101 (b): a region that vanishes or falls below MinRegionArea, and a small region
** (kept by a link to another area) next to a removed span. */
OPT_TEST(repair_fallback_small, "RT-101") {
  /* two areas: columns x < 3 area 1 (a region of 30 spans), the rest area 2 */
  uint8_t ar[100];
  for (int k = 0; k < 100; k++) ar[k] = k % 10 < 3 ? 1 : 2;
  hand h;
  stats st;
  memset(&st, 0, sizeof st);
  OPT_CHECK(hand_open(&h, 10, 10, ar, 0, 0));
  OPT_CHECK(h.f.rg0.nregions == 2);
  for (int32_t z = 0; z < 10; z++)
    for (int32_t x = 0; x < 3; x++) hand_remove(&h, x, z); /* region 1 vanishes */
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_SMALL);
  OPT_CHECK(scratch_count(&h) == 1); /* renumbered */
  hand_close(&h);
  /* MinRegionArea 25: removing 6 of region 1's 30 spans leaves 24 < 25 */
  OPT_CHECK(hand_open(&h, 10, 10, ar, 0, 25));
  for (int32_t z = 0; z < 6; z++) hand_remove(&h, 0, z);
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_SMALL);
  OPT_CHECK(scratch_count(&h) == 2); /* linked to area 2: kept */
  memcpy(h.a, h.view->areas, h.view->nspans); /* 5 removed: 25 left, repaired */
  for (int32_t z = 0; z < 5; z++) hand_remove(&h, 0, z);
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_DONE);
  hand_close(&h);
  /* MinRegionArea 40: region 1 (30 spans) exists only through its link to area 2; a
  ** removed span of area 2 next to it is (b); one far from it is repaired */
  OPT_CHECK(hand_open(&h, 10, 10, ar, 0, 40));
  OPT_CHECK(h.f.rg0.nregions == 2);
  hand_remove(&h, 3, 5);
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_SMALL);
  memcpy(h.a, h.view->areas, h.view->nspans);
  hand_remove(&h, 8, 5);
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_DONE);
  OPT_CHECK(st.unequal == 0);
  hand_close(&h);
}

/* RT-101 (c), RT-102: a region cut in two is (c), and scratch shows two regions; a cut with
** a gap far from the ring is found whole by the global search and repaired; the same
** shape on a large floor exceeds the budget max(256, n / 4) and falls back although the
** region is whole. */
OPT_TEST(repair_fallback_split, "RT-102") {
  hand h;
  stats st;
  memset(&st, 0, sizeof st);
  uint8_t *ar = uniform(12, 12, 63);
  OPT_CHECK(hand_open(&h, 12, 12, ar, 0, 0));
  for (int32_t z = 0; z < 12; z++) hand_remove(&h, 6, z);
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_SPLIT);
  OPT_CHECK(scratch_count(&h) == 2);
  memcpy(h.a, h.view->areas, h.view->nspans);
  for (int32_t z = 0; z < 11; z++) hand_remove(&h, 6, z); /* a gap at z = 11 */
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_DONE);
  OPT_CHECK(st.unequal == 0);
  hand_close(&h);
  free(ar);
  /* 64 x 64 = 4096 spans, budget 1024: two single spans removed far apart give a ring in
  ** two pieces that the local search cannot join; the global search from (10, 9) takes
  ** most of the floor before it reaches the ring around (50, 50) */
  ar = uniform(64, 64, 63);
  OPT_CHECK(hand_open(&h, 64, 64, ar, 0, 0));
  hand_remove(&h, 10, 10);
  hand_remove(&h, 50, 50);
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_SPLIT);
  OPT_CHECK(scratch_count(&h) == 1); /* whole all the same */
  OPT_CHECK(st.needless == 1);
  /* (10, 10) and (14, 10): the global search joins the two rings within the budget */
  memcpy(h.a, h.view->areas, h.view->nspans);
  hand_remove(&h, 10, 10);
  hand_remove(&h, 14, 10);
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_DONE);
  OPT_CHECK(st.unequal == 0);
  hand_close(&h);
  free(ar);
}

/* An independent count of RT-102's global search on a flat w x d floor (every column one
** span, all linked both ways, so "joined" is 4-adjacency and span index z * w + x) for the
** region of cells with in[c] set and the removed cells rm[c]: the spans taken from the
** queue until every ring cell is reached (the local search is assumed to fail). */
static uint32_t grid_global_count(int32_t w, int32_t d, const uint8_t *in, const uint8_t *rm) {
  size_t n = (size_t)w * (size_t)d;
  uint8_t *ring = calloc(n, 1), *seen = calloc(n, 1);
  uint32_t *q = malloc(n * sizeof *q), nring = 0, s0 = UINT32_MAX;
  static const int32_t ox[4] = {0, -1, 1, 0}, oz[4] = {-1, 0, 0, 1}; /* ascending index */
  for (int32_t z = 0; z < d; z++)
    for (int32_t x = 0; x < w; x++) {
      size_t c = (size_t)z * (size_t)w + (size_t)x;
      if (!in[c] || rm[c]) continue;
      for (int k = 0; k < 4; k++) {
        int32_t nx = x + ox[k], nz = z + oz[k];
        if (nx >= 0 && nz >= 0 && nx < w && nz < d && in[nz * w + nx] && rm[nz * w + nx]) ring[c] = 1;
      }
      if (ring[c]) {
        nring++;
        if (s0 == UINT32_MAX) s0 = (uint32_t)c;
      }
    }
  uint32_t head = 0, tail = 0, reached = 1, count = 0;
  q[tail++] = s0;
  seen[s0] = 1;
  while (reached < nring && head < tail) {
    uint32_t u = q[head++];
    count++;
    int32_t x = (int32_t)(u % (uint32_t)w), z = (int32_t)(u / (uint32_t)w);
    for (int k = 0; k < 4; k++) {
      int32_t nx = x + ox[k], nz = z + oz[k];
      if (nx < 0 || nz < 0 || nx >= w || nz >= d) continue;
      size_t c = (size_t)nz * (size_t)w + (size_t)nx;
      if (!in[c] || rm[c] || seen[c]) continue;
      seen[c] = 1;
      reached += ring[c];
      q[tail++] = (uint32_t)c;
    }
  }
  free(ring);
  free(seen);
  free(q);
  return count;
}

/* RT-102: one budget per layer rebuild, shared by the regions searched. 64 x 64 floor,
** budget max(256, 4096 / 4) = 1024; region 1 (x < 32, area 1) and region 2 (x >= 32,
** area 2) each lose two spans far enough apart that the local search cannot join their
** rings. Each region alone needs fewer than 1024 spans of global search, both together
** more (counted independently above): each alone is repaired, both together fall back. */
OPT_TEST(repair_budget_shared, "RT-102") {
  uint8_t ar[64 * 64], in1[64 * 64], in2[64 * 64], rm1[64 * 64], rm2[64 * 64];
  for (int k = 0; k < 64 * 64; k++) {
    ar[k] = k % 64 < 32 ? 1 : 2;
    in1[k] = ar[k] == 1;
    in2[k] = ar[k] == 2;
  }
  memset(rm1, 0, sizeof rm1);
  memset(rm2, 0, sizeof rm2);
  static const int32_t c1[2][2] = {{8, 10}, {8, 28}}, c2[2][2] = {{40, 10}, {40, 28}};
  for (int k = 0; k < 2; k++) {
    rm1[c1[k][1] * 64 + c1[k][0]] = 1;
    rm2[c2[k][1] * 64 + c2[k][0]] = 1;
  }
  uint32_t n1 = grid_global_count(64, 64, in1, rm1), n2 = grid_global_count(64, 64, in2, rm2);
  printf("     global search counts %u and %u, budget 1024\n", n1, n2);
  OPT_CHECK(n1 <= 1024 && n2 <= 1024 && n1 + n2 > 1024); /* the layout does what it says */
  hand h;
  stats st;
  memset(&st, 0, sizeof st);
  OPT_CHECK(hand_open(&h, 64, 64, ar, 0, 0));
  for (int k = 0; k < 2; k++) hand_remove(&h, c1[k][0], c1[k][1]);
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_DONE);
  memcpy(h.a, h.view->areas, h.view->nspans);
  for (int k = 0; k < 2; k++) hand_remove(&h, c2[k][0], c2[k][1]);
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_DONE);
  for (int k = 0; k < 2; k++) hand_remove(&h, c1[k][0], c1[k][1]);
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_SPLIT);
  OPT_CHECK(st.unequal == 0 && st.needless == 1);
  hand_close(&h);
}

/* RT-101 (d): removing a region's first spans can move it after another region's first
** span; scratch then numbers the two the other way round. */
OPT_TEST(repair_fallback_renumber, "RT-101") {
  uint8_t ar[100];
  for (int k = 0; k < 100; k++) ar[k] = k % 10 < 5 ? 1 : 2;
  hand h;
  stats st;
  memset(&st, 0, sizeof st);
  OPT_CHECK(hand_open(&h, 10, 10, ar, 0, 0));
  OPT_CHECK(h.f.rg0.nregions == 2 && h.f.rg0.reg[at(h.view, 0, 0)] == 1);
  for (int32_t x = 0; x < 5; x++) hand_remove(&h, x, 0); /* region 1 now starts at (0, 1) */
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_RENUMBER);
  op_regions rg;
  op_contour_set cs;
  OPT_CHECK(hand_scratch(&h, &rg, &cs) == OP_OK && rg.reg[at(h.view, 0, 1)] == 2);
  op_regions_free(&rg);
  op_contour_set_free(&cs);
  memcpy(h.a, h.view->areas, h.view->nspans);
  for (int32_t x = 0; x < 4; x++) hand_remove(&h, x, 0); /* (4, 0) stays first: repaired */
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_DONE);
  OPT_CHECK(st.unequal == 0);
  hand_close(&h);
}

/* RT-104, RT-105: holes made and filled, a hole's rim removed whole, tile-border corners:
** a floor with a border ring, removals next to the ring, in the middle, and a region
** whose only loop is rebuilt; every case equals scratch. */
OPT_TEST(repair_loops_hand, "RT-104") {
  uint8_t ar[256];
  for (int k = 0; k < 256; k++) ar[k] = (k / 16) < 8 ? 1 : 2;
  ar[5 * 16 + 5] = 0; /* a hole in region 1 */
  hand h;
  stats st;
  memset(&st, 0, sizeof st);
  OPT_CHECK(hand_open(&h, 16, 16, ar, 3, 0));
  /* the hole's rim, the tile's first own cells at two corners, the area boundary, the
  ** border ring itself, and cells inside region 2 */
  static const int32_t cells[16][2] = {{4, 4}, {5, 4}, {6, 4}, {4, 5},  {6, 5},  {4, 6},
                                       {5, 6}, {6, 6}, {3, 3}, {12, 3}, {8, 7},  {8, 8},
                                       {2, 5}, {13, 9}, {3, 12}, {7, 12}};
  for (uint32_t mask = 1; mask < 65536; mask += 61) { /* subsets of the cells */
    memcpy(h.a, h.view->areas, h.view->nspans);
    for (int k = 0; k < 16; k++)
      if (mask & (1u << k)) hand_remove(&h, cells[k][0], cells[k][1]);
    run_case(opt_s_, &h.f, h.a, 0, &st);
  }
  OPT_CHECK(st.unequal == 0 && st.wrong_regions == 0);
  OPT_CHECK(st.by[OPRP_DONE] > 100);
  hand_close(&h);
}

/* The raw vertex of edge key `key` in a contour set (NULL when no loop owns the edge). */
static const op_cvert *raw_of(const op_contour_set *cs, uint32_t key) {
  for (uint32_t j = 0; j < cs->nraw; j++)
    if (cs->raw_edge[j] == key) return &cs->raw[j];
  return NULL;
}

/* RT-104: a surviving loop's tile-border flag (REG-206) is computed again when its corner's
** diagonal cell is removed. 8 x 8 floor, border 2, one area; s = (2, 4) (a tile cell), its
** -x neighbour A = (1, 4) and D = (1, 3) in the ring, B = (2, 3) a tile cell. Floors: B at
** row 9, D at row 11, the rest 10, climb 1: B and D are not linked (|9 - 11| > 1), every
** other pair of neighbours is. The corner where edge (s, 0) starts has c0 = s, c1 = A,
** c2 = D (B has no neighbour across towards D, so D is DA), c3 = B: A and D border, B and s
** traced with one area, so the vertex is a tile-border vertex. Removing D (a ring span)
** changes no boundary edge and no loop (D is linked to no traced span across an edge), but
** c2 becomes region 0 and the flag is cleared by a scratch trace: the repair must
** recompute it to give the same bytes. */
OPT_TEST(repair_tile_border_flag, "RT-104") {
  uint8_t ar[64];
  int32_t y[64];
  for (int k = 0; k < 64; k++) ar[k] = 63, y[k] = 10;
  y[3 * 8 + 2] = 9;  /* B */
  y[3 * 8 + 1] = 11; /* D */
  hand h;
  stats st;
  memset(&st, 0, sizeof st);
  OPT_CHECK(hand_open_y(&h, 8, 8, ar, y, 2, 0));
  uint32_t s = at(h.view, 2, 4);
  const op_cvert *v0 = raw_of(&h.f.cs0, 4 * s + 0);
  OPT_CHECK(v0 && (v0->flags & OP_CVERT_TILE_BORDER) && v0->x == 2 && v0->z == 4);
  hand_remove(&h, 1, 3);
  OPT_CHECK(run_case(opt_s_, &h.f, h.a, 0, &st) == OPRP_DONE);
  op_regions rg;
  op_contour_set cs;
  OPT_CHECK(hand_scratch(&h, &rg, &cs) == OP_OK);
  const op_cvert *v1 = raw_of(&cs, 4 * s + 0);
  OPT_CHECK(v1 && !(v1->flags & OP_CVERT_TILE_BORDER));
  OPT_CHECK(cs.nloops == h.f.cs0.nloops); /* the same loops, one flag apart */
  op_regions_free(&rg);
  op_contour_set_free(&cs);
  OPT_CHECK(st.unequal == 0 && st.flags_fixed == 1);
  hand_close(&h);
}

OPT_MAIN_BEGIN
OPT_RUN(repair_fallback_not_removal);
OPT_RUN(repair_fallback_small);
OPT_RUN(repair_fallback_split);
OPT_RUN(repair_budget_shared);
OPT_RUN(repair_fallback_renumber);
OPT_RUN(repair_loops_hand);
OPT_RUN(repair_tile_border_flag);
OPT_RUN(repair_equals_scratch_levels);
OPT_MAIN_END
