// regions_recast_diff.cpp -- side-by-side check and benchmark of the region partitions and
// the contour stage (spec/build3d-regions.md sections 1 to 6) against Recast (Debian's
// librecast-dev): rcBuildRegions, rcBuildRegionsMonotone, rcBuildLayerRegions and
// rcBuildContours on the same inputs.
//
// Every tile of each generated level, at each preset (Humanoid, Small, Large), is built
// once by op_spans_build_tile; its compact heightfield is copied into an
// rcCompactHeightfield (same columns, floors, clearances, links, areas). Then, with the
// preset's Border, MinRegionArea, MergeRegionArea, MaxSimplificationError and
// MaxEdgeLenCells:
//   regions   ours (op_regions_build) against Recast's rcBuildDistanceField +
//             rcBuildRegions, rcBuildRegionsMonotone, rcBuildLayerRegions. Agreement: the
//             share of walkable spans inside the best matching (for each of our regions,
//             the Recast region it overlaps most); footnotes: the blurred distance field
//             (spans equal) and the border spans (tiles with equal sets).
//   contours  ours (op_contours_build) against rcBuildContours (RC_CONTOUR_TESS_WALL_EDGES),
//             both on OUR partition (the border ring relabelled with Recast's four border
//             ids for Recast, as rcBuildRegions paints it). Agreement: the share of traced
//             regions whose final contour vertices (x, z; holes joined) are the same
//             multiset in both.
// Times are per tile, the best of R repetitions of the whole tile set (default 5).
// Our rules differ from Recast's on purpose in places (seed order within a level, merging
// by size without Recast's single-contact rule, island removal by area contact, layers as
// connected sets of one area in a layer; exact simplification tie-breaks), so the
// partitions are not expected to be equal everywhere; the distance field and the border
// are.
//
// Build and run: scripts/regions-recast-diff.sh [build-dir] [--quick] [--reps N]
#include <Recast.h>
#include <RecastAlloc.h>

#include <algorithm>
#include <map>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>

extern "C" {
#include "onepath_build3d.h"
#include "build3d/contours/contours.h"
#include "build3d/regions/regions.h"
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
  long creg = 0, creg_same = 0, creg_single = 0, cont_ours = 0, cont_rc = 0;
  double t_ours = 1e300, t_rc = 1e300, tc_ours = 1e300, tc_rc = 1e300;
};

static void compare(const op_chf *c, const op_regions &o, const rcCompactHeightfield *r,
                    bool cmp_dist, Tot &t) {
  t.tiles++;
  t.spans += c->nspans;
  bool border_same = true;
  std::map<uint32_t, std::map<uint32_t, long>> ov;
  for (uint32_t i = 0; i < c->nspans; i++) {
    if (cmp_dist && r->dist && o.dist[i] == r->dist[i]) t.dist_same++;
    uint16_t a = o.reg[i], b = r->spans[i].reg;
    bool ab = a == OP_REG_BORDER_REGION, bb = (b & RC_BORDER_REG) != 0;
    if (ab != bb) border_same = false;
    if (c->areas[i]) t.walk++;
    if (!ab && !bb && c->areas[i]) ov[a][b]++;
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
  std::map<uint32_t, int> rcids;
  for (uint32_t i = 0; i < c->nspans; i++) {
    uint16_t b = r->spans[i].reg;
    if (b && !(b & RC_BORDER_REG)) rcids[b] = 1;
  }
  t.rc_regions += (long)rcids.size();
}

// Our partition into an rcCompactHeightfield for rcBuildContours: ordinary ids as they
// are, the border ring as rcBuildRegions paints it (-x side 1, +x side 2, -z side 3, +z
// side 4, later sides over earlier ones).
static void our_regions_into(const op_chf *c, const op_regions &o, int border,
                             rcCompactHeightfield *r) {
  int w = c->grid.width, d = c->grid.depth;
  for (int z = 0; z < d; z++)
    for (int x = 0; x < w; x++) {
      size_t k = (size_t)z * w + x;
      for (uint32_t i = c->cell_index[k]; i < c->cell_index[k] + c->cell_count[k]; i++) {
        uint16_t v = o.reg[i];
        if (v == OP_REG_BORDER_REGION) {
          int id = 0;
          if (x < border) id = 1;
          if (x >= w - border) id = 2;
          if (z < border) id = 3;
          if (z >= d - border) id = 4;
          v = (uint16_t)(RC_BORDER_REG | id);
        }
        r->spans[i].reg = v;
      }
    }
  r->borderSize = border;
  r->maxRegions = (unsigned short)(o.nregions + 5);
}

typedef std::map<uint16_t, std::vector<std::pair<int, int>>> VertsByReg;

// Recast's rcBuildContours does not trace a span whose four sides are all boundaries (a
// region of one isolated span); ours does (REG-208). Such regions are counted apart.
static void compare_contours(const op_contour_set &cs, const rcContourSet &rc, int border,
                             const op_regions &o, Tot &t) {
  std::map<uint16_t, long> nsp;
  for (uint32_t i = 0; i < o.nspans; i++) nsp[o.reg[i]]++;
  VertsByReg a, b;
  for (uint32_t k = 0; k < cs.ncontours; k++) {
    const op_contour &ct = cs.contours[k];
    for (uint32_t j = 0; j < ct.nverts; j++)
      a[ct.reg].push_back(std::make_pair(cs.verts[ct.vert_start + j].x, cs.verts[ct.vert_start + j].z));
    t.cont_ours++;
  }
  for (int k = 0; k < rc.nconts; k++) {
    const rcContour &ct = rc.conts[k];
    if (ct.nverts == 0) continue;  // a hole merged into its outline
    for (int j = 0; j < ct.nverts; j++)
      b[ct.reg].push_back(std::make_pair(ct.verts[4 * j] + border, ct.verts[4 * j + 2] + border));
    t.cont_rc++;
  }
  std::map<uint16_t, int> regs;
  for (auto &kv : a) regs[kv.first] = 1;
  for (auto &kv : b) regs[kv.first] = 1;
  for (auto &kv : regs) {
    std::vector<std::pair<int, int>> va = a[kv.first], vb = b[kv.first];
    std::sort(va.begin(), va.end());
    std::sort(vb.begin(), vb.end());
    if (vb.empty() && nsp[kv.first] == 1) {
      t.creg_single++;
      continue;
    }
    t.creg++;
    if (va == vb) t.creg_same++;
    else if (getenv("RRD_DUMP")) {
      fprintf(stderr, "region %u: ours", kv.first);
      for (auto &v : va) fprintf(stderr, " (%d,%d)", v.first, v.second);
      fprintf(stderr, "\n          Recast");
      for (auto &v : vb) fprintf(stderr, " (%d,%d)", v.first, v.second);
      fprintf(stderr, "\n");
    }
  }
}

struct TileIn {
  op_chf *c;
};

int main(int argc, char **argv) {
  const char *names[4] = {"terrain", "city", "stairs", "dungeon"};
  uint32_t sizes[4] = {48, 2, 16, 32};
  const char *presets[3] = {"Humanoid", "Small", "Large"};
  bool quick = false;
  int reps = 5;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "--quick") == 0) quick = true;
    else if (strcmp(argv[a], "--reps") == 0 && a + 1 < argc) reps = atoi(argv[++a]);
  }
  if (reps < 1) reps = 1;
  const char *pname[3] = {"watershed", "monotone", "layers"};
  printf("| level | preset | partition | stage | tiles | ours us/tile | Recast us/tile | ratio | agreement |\n");
  printf("|---|---|---|---|---:|---:|---:|---:|---:|\n");
  Tot sum[3];
  double all_ours = 0, all_rc = 0;
  for (int L = 0; L < 4; L++)
    for (int P = 0; P < 3; P++) {
      op_settings s;
      op_settings_preset(presets[P], &s, NULL);
      op_cell_settings cs;
      op_settings_derive(&s, &cs, NULL);
      op_trimesh m;
      memset(&m, 0, sizeof m);
      if (op_level_generate(names[L], 7, quick ? sizes[L] / 2 + 1 : sizes[L], &s, &m, NULL)) continue;
      op_soup soup = op_trimesh_soup(&m);
      double o3[3], ymax;
      int32_t nx = 0, nz = 0;
      op_soup_frame(&soup, o3, &ymax, NULL);
      op_spans_tile_range(&s, &soup, &nx, &nz, NULL);
      std::vector<op_chf *> tiles;
      for (int32_t tz = 0; tz < nz; tz++)
        for (int32_t tx = 0; tx < nx; tx++) {
          op_chf *c = NULL;
          if (op_spans_build_tile(&s, &soup, o3, o3[1], ymax, tx, tz, &c, NULL) || !c) continue;
          tiles.push_back(c);
        }
      op_trimesh_free(&m);
      if (tiles.empty()) continue;
      uint32_t mina = s.min_region_area, merge = s.merge_region_area;
      op_contour_params cp;
      cp.border = cs.border;
      cp.max_error = s.max_simplification_error;
      cp.max_edge_len = cs.max_edge_len;
      for (int p = 0; p < 3; p++) {
        Tot t;
        size_t n = tiles.size();
        std::vector<op_regions> ours(n);
        std::vector<rcCompactHeightfield *> rcs(n), rcc(n);
        for (size_t k = 0; k < n; k++) {
          rcs[k] = to_recast(tiles[k]);
          rcc[k] = to_recast(tiles[k]);
          memset(&ours[k], 0, sizeof ours[k]);
        }
        rcContext ctx(false);
        bool ok = true;
        for (int rep = 0; rep < reps; rep++) {
          double t0 = now();
          for (size_t k = 0; k < n; k++) {
            op_regions_free(&ours[k]);
            if (op_regions_build(tiles[k], (op_partition)p, cs.border, mina, merge, &ours[k], NULL))
              ok = false;
          }
          double t1 = now();
          for (size_t k = 0; k < n; k++) {
            rcCompactHeightfield &r = *rcs[k];
            if (p == 0) ok &= rcBuildDistanceField(&ctx, r) &&
                              rcBuildRegions(&ctx, r, cs.border, (int)mina, (int)merge);
            else if (p == 1) ok &= rcBuildRegionsMonotone(&ctx, r, cs.border, (int)mina, (int)merge);
            else ok &= rcBuildLayerRegions(&ctx, r, cs.border, (int)mina);
          }
          double t2 = now();
          if (t1 - t0 < t.t_ours) t.t_ours = t1 - t0;
          if (t2 - t1 < t.t_rc) t.t_rc = t2 - t1;
        }
        if (!ok) fprintf(stderr, "%s %s %s: a partition failed\n", names[L], presets[P], pname[p]);
        for (size_t k = 0; k < n; k++) {
          compare(tiles[k], ours[k], rcs[k], p == 0, t);
          our_regions_into(tiles[k], ours[k], cs.border, rcc[k]);
        }
        // contours on our partition
        std::vector<op_contour_set> oc(n);
        std::vector<rcContourSet *> rcset(n);
        for (size_t k = 0; k < n; k++) {
          memset(&oc[k], 0, sizeof oc[k]);
          rcset[k] = NULL;
        }
        for (int rep = 0; rep < reps; rep++) {
          double t0 = now();
          for (size_t k = 0; k < n; k++) {
            op_contour_set_free(&oc[k]);
            if (op_contours_build(tiles[k], ours[k].reg, &cp, &oc[k], NULL)) ok = false;
          }
          double t1 = now();
          for (size_t k = 0; k < n; k++) {
            if (rcset[k]) rcFreeContourSet(rcset[k]);
            rcset[k] = rcAllocContourSet();
            ok &= rcBuildContours(&ctx, *rcc[k], (float)s.max_simplification_error,
                                  cs.max_edge_len, *rcset[k], RC_CONTOUR_TESS_WALL_EDGES);
          }
          double t2 = now();
          if (t1 - t0 < t.tc_ours) t.tc_ours = t1 - t0;
          if (t2 - t1 < t.tc_rc) t.tc_rc = t2 - t1;
        }
        for (size_t k = 0; k < n; k++) compare_contours(oc[k], *rcset[k], cs.border, ours[k], t);
        double nt = (double)n;
        printf("| %s | %s | %s | regions | %zu | %.1f | %.1f | %.2f | %.2f%% |\n", names[L],
               presets[P], pname[p], n, 1e6 * t.t_ours / nt, 1e6 * t.t_rc / nt,
               t.t_ours / t.t_rc, 100.0 - 100.0 * t.misplaced / (t.walk ? t.walk : 1));
        char agree[64];
        if (t.creg) snprintf(agree, sizeof agree, "%.2f%%", 100.0 * t.creg_same / t.creg);
        else snprintf(agree, sizeof agree, "n/a");
        if (t.creg_single) {
          size_t l = strlen(agree);
          snprintf(agree + l, sizeof agree - l, " (+%ld one-span)", t.creg_single);
        }
        printf("| %s | %s | %s | contours | %zu | %.1f | %.1f | %.2f | %s |\n", names[L],
               presets[P], pname[p], n, 1e6 * t.tc_ours / nt, 1e6 * t.tc_rc / nt,
               t.tc_ours / t.tc_rc, agree);
        all_ours += t.t_ours + t.tc_ours;
        all_rc += t.t_rc + t.tc_rc;
        Tot &S = sum[p];
        S.tiles += t.tiles; S.spans += t.spans; S.dist_same += t.dist_same;
        S.border_same_tiles += t.border_same_tiles; S.same_tiles += t.same_tiles;
        S.misplaced += t.misplaced; S.walk += t.walk; S.ours_regions += t.ours_regions;
        S.rc_regions += t.rc_regions; S.creg += t.creg; S.creg_same += t.creg_same;
        S.creg_single += t.creg_single;
        S.cont_ours += t.cont_ours; S.cont_rc += t.cont_rc;
        for (size_t k = 0; k < n; k++) {
          op_contour_set_free(&oc[k]);
          rcFreeContourSet(rcset[k]);
          op_regions_free(&ours[k]);
          rcFreeCompactHeightfield(rcs[k]);
          rcFreeCompactHeightfield(rcc[k]);
        }
      }
      for (op_chf *c : tiles) op_chf_free(c);
    }
  printf("\n");
  for (int p = 0; p < 3; p++) {
    const Tot &t = sum[p];
    printf("%-9s tiles %ld, spans %ld", pname[p], t.tiles, t.spans);
    if (p == 0) printf(", distance field equal on %.2f%% of spans", 100.0 * t.dist_same / (t.spans ? t.spans : 1));
    printf(", border spans equal on %ld/%ld tiles, partition identical up to renaming on %ld/%ld tiles, "
           "spans outside the best match %ld of %ld walkable (%.2f%%), regions ours %ld Recast %ld; "
           "contours ours %ld Recast %ld, regions with equal contour vertices %ld/%ld (not counted: %ld "
           "one-span regions Recast does not trace)\n",
           t.border_same_tiles, t.tiles, t.same_tiles, t.tiles, t.misplaced, t.walk,
           100.0 * t.misplaced / (t.walk ? t.walk : 1), t.ours_regions, t.rc_regions, t.cont_ours,
           t.cont_rc, t.creg_same, t.creg, t.creg_single);
  }
  printf("total time ours %.1f ms, Recast %.1f ms (best of %d)\n", 1e3 * all_ours, 1e3 * all_rc, reps);
  return 0;
}
