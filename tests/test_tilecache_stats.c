/*
** test_tilecache_stats.c -- the tile cache's statistics (op_tilecache_stats, not state):
** each repair fallback counted once under the first precondition of RT-101 that failed,
** and RT-101's removed spans counted the same whether the repair (which counts them while
** testing its preconditions) or a build from scratch (which compares the areas) handles
** the layer.
**
** Expected values come from a second route: the same history on a second cache with the
** repair off (RT-107), and the rule of RT-101 (a) for an area change that is not a removal.
*/
#include <stdlib.h>

#include "fixtures3d.h"
#include "core/internal.h"
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
#include "optest.h"

static op_tilecache *cached_city(op_trimesh *m) {
  memset(m, 0, sizeof *m);
  if (op_level_generate("city", 5, 2, NULL, m, NULL) != OP_OK) return NULL;
  op_settings s = fx_humanoid(OP_PARTITION_LAYERS); /* layer first (RT-080) */
  op_soup soup = op_trimesh_soup(m);
  return fx_cache(&s, &soup);
}

static uint64_t rnd(uint64_t *s) { /* splitmix64 */
  uint64_t z = (*s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
static double rndu(uint64_t *s) { return (double)(rnd(s) >> 11) * 0x1p-53; }

static op_obstacle cylinder(double x, double z, double r) {
  return fx_cylinder(x, -2, z, r, 6);
}

static uint64_t reasons(const op_tilecache_stats *st) {
  return st->fallbacks_not_removal + st->fallbacks_small + st->fallbacks_split +
         st->fallbacks_renumber;
}

/* Obstacles added and removed one at a time on two caches, repair on and off: every
** fallback has exactly one reason; a layer the repair-on cache repaired or fell back on is a
** layer the repair-off cache built (same units, RT-106); the removed spans agree. */
OPT_TEST(stats_reasons_and_removed_spans, "RT-101, RT-107") {
  op_trimesh m1, m2;
  op_tilecache *on = cached_city(&m1), *off = cached_city(&m2);
  OPT_CHECK(on && off);
  if (on && off) {
    op_tilecache_set_repair(off, 0);
    uint64_t r = 11;
    uint32_t fails = 0;
    for (int k = 0; k < 60; k++) {
      op_obstacle o = cylinder(2 + rndu(&r) * 52, 2 + rndu(&r) * 52, 0.3 + rndu(&r) * 2.5);
      uint32_t a = 0, b = 0;
      fails += op_tilecache_add_obstacle(on, &o, &a, NULL) != OP_OK;
      fails += op_tilecache_add_obstacle(off, &o, &b, NULL) != OP_OK;
      fails += op_tilecache_update_all(on, NULL, NULL) != OP_OK;
      fails += op_tilecache_update_all(off, NULL, NULL) != OP_OK;
      if (k % 3 != 2) continue; /* keep some, so that obstacles overlap */
      fails += op_tilecache_remove_obstacle(on, a, NULL) != OP_OK;
      fails += op_tilecache_remove_obstacle(off, b, NULL) != OP_OK;
      fails += op_tilecache_update_all(on, NULL, NULL) != OP_OK;
      fails += op_tilecache_update_all(off, NULL, NULL) != OP_OK;
    }
    OPT_CHECK(fails == 0);
    op_tilecache_stats s1, s0;
    op_tilecache_stats_get(on, &s1);
    op_tilecache_stats_get(off, &s0);
    OPT_CHECK(s1.units_repaired > 0);
    OPT_CHECK(reasons(&s1) == s1.repair_fallbacks);
    OPT_CHECK(s1.units_built == s1.repair_fallbacks); /* layer first: built = fell back */
    OPT_CHECK(s0.units_built == s1.units_repaired + s1.repair_fallbacks);
    OPT_CHECK(s0.units_repaired == 0 && s0.repair_fallbacks == 0 && reasons(&s0) == 0);
    OPT_CHECK(s0.spans_removed == s1.spans_removed && s1.spans_removed > 0);
    OPT_CHECK(s0.spans_built == s1.spans_built);
    fprintf(stderr, "  city: %llu repaired, fallbacks (a) %llu (b) %llu (c) %llu (d) %llu\n",
            (unsigned long long)s1.units_repaired,
            (unsigned long long)s1.fallbacks_not_removal, (unsigned long long)s1.fallbacks_small,
            (unsigned long long)s1.fallbacks_split, (unsigned long long)s1.fallbacks_renumber);
  }
  op_tilecache_free(on);
  op_tilecache_free(off);
  op_trimesh_free(&m1);
  op_trimesh_free(&m2);
}

/* RT-101 (a): a run-time volume that gives walkable ground another area (not 0) is not a
** removal, so every layer it makes the cache rebuild falls back for reason (a). */
OPT_TEST(stats_reason_not_removal, "RT-101") {
  op_trimesh m;
  op_tilecache *c = cached_city(&m);
  OPT_CHECK(c != NULL);
  if (c) {
    op_convex_volume v = fx_quad(1, 1, 55, 55, -1, 200, 5); /* the whole level */
    op_tilecache_stats_reset(c);
    OPT_CHECK(op_tilecache_add_volume(c, &v, NULL, NULL) == OP_OK);
    OPT_CHECK(op_tilecache_update_all(c, NULL, NULL) == OP_OK);
    op_tilecache_stats st;
    op_tilecache_stats_get(c, &st);
    OPT_CHECK(st.units_built > 0 && st.units_repaired == 0);
    OPT_CHECK(st.fallbacks_not_removal == st.units_built);
    OPT_CHECK(st.repair_fallbacks == st.units_built && reasons(&st) == st.repair_fallbacks);
    OPT_CHECK(st.spans_removed == 0); /* nothing became area 0 */
  }
  op_tilecache_free(c);
  op_trimesh_free(&m);
}

OPT_MAIN_BEGIN
OPT_RUN(stats_reasons_and_removed_spans);
OPT_RUN(stats_reason_not_removal);
OPT_MAIN_END
