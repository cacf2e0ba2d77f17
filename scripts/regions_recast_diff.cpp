// regions_recast_diff.cpp -- side-by-side check and benchmark of the region partitions
// (spec/build3d-regions.md sections 1 to 5) against Recast (Debian's librecast-dev).
//
// Every tile of each generated level (Humanoid preset) is built once by
// op_spans_build_tile; its compact heightfield is copied into an rcCompactHeightfield
// (same columns, floors, clearances, links, areas), then partitioned by ours and by Recast
// (rcBuildDistanceField + rcBuildRegions, rcBuildRegionsMonotone, rcBuildLayerRegions)
// with the same border, MinRegionArea and MergeRegionArea. It reports:
//   - the blurred distance field: spans equal (REG-021 .. REG-025 follow Recast's rule);
//   - the border spans: equal sets (Recast paints four border ids, we one value);
//   - the partition up to renaming: tiles identical, and spans outside the best matching
//     (for each of our regions, the largest overlap with one Recast region);
//   - the region counts and the time of both.
// Our rules differ from Recast's on purpose in places (seed order within a level, merging
// by size without Recast's single-contact rule, island removal by area contact, layers as
// connected sets of one area in a layer), so the partitions are not expected to be equal
// everywhere; the distance field and the border are.
//
// Build and run: scripts/regions-recast-diff.sh [build-dir]
#include <Recast.h>
#include <RecastAlloc.h>

#include <map>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>

extern "C" {
#include "onepath_build3d.h"
#include "regions.h"
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static rcCompactHeightfield *to_recast(const op_chf *c) {
  rcCompactHeightfield *r = rcAllocCompactHeightfield();
  r->width = c->grid.width;
  r->height = c->grid.depth;
  r->spanCount = (int)c->nspans;
  r->walkableHeight = c->walkable_height;
  r->walkableClimb = c->walkable_climb;
  r->cs = (float)c->grid.cs;
  r->ch = (float)c->grid.ch;
  size_t ncol = (size_t)c->grid.width * c->grid.depth;
  r->cells = (rcCompactCell *)rcAlloc(sizeof(rcCompactCell) * ncol, RC_ALLOC_PERM);
  r->spans = (rcCompactSpan *)rcAlloc(sizeof(rcCompactSpan) * (c->nspans + 1), RC_ALLOC_PERM);
  r->areas = (unsigned char *)rcAlloc(c->nspans + 1, RC_ALLOC_PERM);
  memset(r->spans, 0, sizeof(rcCompactSpan) * (c->nspans + 1));
  for (size_t k = 0; k < ncol; k++) {
    r->cells[k].index = c->cell_index[k];
    r->cells[k].count = c->cell_count[k];
  }
  for (uint32_t i = 0; i < c->nspans; i++) {
    r->spans[i].y = c->spans[i].y;
    r->spans[i].h = c->spans[i].h;
    for (int d = 0; d < 4; d++)
      rcSetCon(r->spans[i], d, c->spans[i].link[d] == OP_CHF_NOT_CONNECTED ? RC_NOT_CONNECTED
                                                                           : c->spans[i].link[d]);
    // Recast's null area is 0 like ours; walkable 63 is RC_WALKABLE_AREA.
    r->areas[i] = c->areas[i];
  }
  return r;
}

struct Tot {
  long tiles = 0, spans = 0, dist_same = 0, border_same_tiles = 0, same_tiles = 0;
  long misplaced = 0, walk = 0, ours_regions = 0, rc_regions = 0;
  double t_ours = 0, t_rc = 0;
};

static void compare(const op_chf *c, const op_regions &o, const rcCompactHeightfield *r,
                    bool cmp_dist, Tot &t) {
  t.tiles++;
  t.spans += c->nspans;
  bool border_same = true;
  std::map<uint32_t, std::map<uint32_t, long>> ov;
  std::map<uint32_t, uint32_t> rev_first;
  for (uint32_t i = 0; i < c->nspans; i++) {
    if (cmp_dist && r->dist && o.dist[i] == r->dist[i]) t.dist_same++;
    uint16_t a = o.reg[i], b = r->spans[i].reg;
    bool ab = a == OP_REG_BORDER_REGION, bb = (b & RC_BORDER_REG) != 0;
    if (ab != bb) border_same = false;
    if (c->areas[i]) t.walk++;
    if (!ab && !bb) ov[a][b]++;
  }
  // Best matching: each of our ids (0 included) to the Recast id it overlaps most; the
  // spans outside it are misplaced. Identical when nothing is misplaced and the map is
  // one to one.
  long mis = 0;
  std::map<uint32_t, int> used;
  bool one_to_one = true;
  for (auto &kv : ov) {
    long best = 0, tot = 0;
    uint32_t bid = 0;
    for (auto &kv2 : kv.second) {
      tot += kv2.second;
      if (kv2.second > best) { best = kv2.second; bid = kv2.first; }
    }
    mis += tot - best;
    if (used[bid]++) one_to_one = false;
  }
  t.misplaced += mis;
  if (border_same) t.border_same_tiles++;
  if (border_same && mis == 0 && one_to_one) t.same_tiles++;
  t.ours_regions += o.nregions;
  int rcmax = 0;
  std::map<uint32_t, int> rcids;
  for (uint32_t i = 0; i < c->nspans; i++) {
    uint16_t b = r->spans[i].reg;
    if (b && !(b & RC_BORDER_REG)) rcids[b] = 1;
  }
  rcmax = (int)rcids.size();
  t.rc_regions += rcmax;
}

int main(int argc, char **argv) {
  const char *names[4] = {"terrain", "city", "stairs", "dungeon"};
  uint32_t sizes[4] = {48, 2, 16, 32};
  bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  op_settings s;
  op_settings_preset("Humanoid", &s, NULL);
  op_cell_settings cs;
  op_settings_derive(&s, &cs, NULL);
  const char *pname[3] = {"watershed", "monotone", "layers"};
  for (int variant = 0; variant < 2; variant++) {
    uint32_t mina = variant ? s.min_region_area : 0, merge = variant ? s.merge_region_area : 0;
    printf("== MinRegionArea %u, MergeRegionArea %u, border %d\n", mina, merge, cs.border);
    for (int p = 0; p < 3; p++) {
      Tot t;
      for (int L = 0; L < 4; L++) {
        op_trimesh m;
        memset(&m, 0, sizeof m);
        if (op_level_generate(names[L], 7, quick ? sizes[L] / 2 + 1 : sizes[L], &s, &m, NULL)) continue;
        op_soup soup = op_trimesh_soup(&m);
        double o3[3], ymax;
        int32_t nx = 0, nz = 0;
        op_soup_frame(&soup, o3, &ymax, NULL);
        op_spans_tile_range(&s, &soup, &nx, &nz, NULL);
        for (int32_t tz = 0; tz < nz; tz++)
          for (int32_t tx = 0; tx < nx; tx++) {
            op_chf *c = NULL;
            if (op_spans_build_tile(&s, &soup, o3, o3[1], ymax, tx, tz, &c, NULL) || !c) continue;
            op_regions o;
            double t0 = now();
            if (op_regions_build(c, (op_partition)p, cs.border, mina, merge, &o, NULL)) {
              op_chf_free(c);
              continue;
            }
            double t1 = now();
            rcContext ctx(false);
            rcCompactHeightfield *r = to_recast(c);
            double t2 = now();
            bool ok;
            if (p == 0) {
              ok = rcBuildDistanceField(&ctx, *r) &&
                   rcBuildRegions(&ctx, *r, cs.border, (int)mina, (int)merge);
            } else if (p == 1) {
              ok = rcBuildRegionsMonotone(&ctx, *r, cs.border, (int)mina, (int)merge);
            } else {
              ok = rcBuildLayerRegions(&ctx, *r, cs.border, (int)mina);
            }
            double t3 = now();
            if (ok) {
              t.t_ours += t1 - t0;
              t.t_rc += t3 - t2;
              compare(c, o, r, p == 0, t);
            }
            rcFreeCompactHeightfield(r);
            op_regions_free(&o);
            op_chf_free(c);
          }
        op_trimesh_free(&m);
      }
      printf("%-9s tiles %ld, spans %ld", pname[p], t.tiles, t.spans);
      if (p == 0) printf(", distance equal %ld (%.2f%%)", t.dist_same, 100.0 * t.dist_same / (t.spans ? t.spans : 1));
      printf(", border equal %ld/%ld tiles, partition identical %ld/%ld tiles, spans outside best match %ld of %ld walkable (%.2f%%), regions ours %ld recast %ld, time ours %.1f ms recast %.1f ms\n",
             t.border_same_tiles, t.tiles, t.same_tiles, t.tiles, t.misplaced, t.walk,
             100.0 * t.misplaced / (t.walk ? t.walk : 1), t.ours_regions, t.rc_regions,
             1e3 * t.t_ours, 1e3 * t.t_rc);
    }
  }
  return 0;
}
