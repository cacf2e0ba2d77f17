// bench_seams.cpp -- measurement of unlinked walkable portal length (issue 17, "Seams that
// do not link"): how much of the tile seams of a 3D bake is left without a link, ours
// (op_pipeline_build_soup, spec/build3d-polys.md section 5, stitched by MESH-021..MESH-023)
// against Recast + Detour (Debian's librecast-dev: the per-tile Recast pipeline of
// bench/bake-recast/bench_bake.cpp, dtCreateNavMeshData and dtNavMesh::addTile, which
// stitches by its overlapSlabs), on the same soups with the same settings. A measurement,
// not a test: nothing fails when a figure moves, and it is not registered with ctest.
//
// Definitions, the same on both sides:
// - a **portal edge** is a polygon edge on a tile border (ours: code 0x8000 | s, FMT-021;
//   Detour: DT_EXT_LINK | side) whose neighbouring tile column holds a tile;
// - its length is its extent along the border (the border is axis-aligned);
// - its **covered** part is the union of the intervals of its external links (ours: the
//   link's [lo, hi], MESH-022; Detour: for each link, the overlap of the edge with the
//   target polygon's portal edges on the opposite side, computed from their vertices, not
//   from the link's 8-bit bmin/bmax, so that quantization does not count as a gap);
// - **unlinked** = length - covered, summed over all portal edges;
// - **unlinked within climb**: the part of the unlinked length where an opposite portal edge
//   of the neighbouring column overlaps the edge and the two edges come within the climb
//   somewhere on that overlap (the vertical gap, linear along the overlap, is at most the
//   climb at one end of it or changes sign): the surfaces meet within the climb there, so
//   the seam should link. The target of issue 17 is 0 for this figure and, for "unlinked",
//   never more than Detour's;
// - **facing an edge**: the part of the unlinked length where any opposite portal edge
//   overlaps (whatever the gap); the rest faces no polygon of the neighbour at all;
// - two columns apply other stitching rules to *our* tiles, from their vertices: the rule
//   before issue 17 (both gaps within the climb) and Detour's overlapSlabs (binary32, as
//   DetourNavMesh.cpp computes it: the overlap shrunk by 0.01 at each end, linked when the
//   gaps change sign or either is within twice the climb); and the polygon counts;
// - **Detour, our chf**: Detour's figures once more, with Recast started from *our* compact
//   heightfield of each tile (op_stage_run_tile up to OP_STAGE_SPANS, SPAN-180: rasterized,
//   filtered, eroded) instead of its own. Recast rasterizes in binary32 and breaks ties at cell
//   lines its own way (geometry lying in a cell line goes to the cell below it; a row bound
//   such as 57.0000038 lets in a sliver of a triangle that only touches the line), where
//   SPAN-105 is exact and puts such geometry in the cell above; a region then ends one cell
//   earlier or later, which at a tile border moves an unlinked stretch. On the same
//   heightfield, only regions, contours, polygons and stitching are compared.
//
// Inputs: the levels.md generators (seed 1: terrain 64, city 4, stairs 16, dungeon 32,
// hills 64), presets Humanoid, Small and Large, DetailSampleDistance 0 (POLY-201; links do
// not depend on the detail mesh), watershed partition (the presets'). The climb given to
// Detour (dtNavMeshCreateParams.walkableClimb) is the climb our mesh stitches with,
// WalkableClimb * CellHeight (POLY-224).
//
// Build and run: scripts/bench-seams.sh [build-dir] [--only LEVEL] [--preset P] [--size N]
//   [--detail] [--min-region-area N]; --detail prints each unlinked portal edge of ours (with
//   the opposite edges it overlaps) and of both Detour builds, in world coordinates;
//   --min-region-area sets MinRegionArea on both sides (with 0 no region is dropped as small).
#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <Recast.h>
#include <RecastAlloc.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "onepath.h"
#include "onepath_build3d.h"
#include "onepath_pipeline.h"
#include "onepath_stages.h"
}

static const float RC_NO_SAMPLING = 1e30f;  // see bench_bake.cpp (sampleDist 0 crashes)
static bool g_detail = false;
// --min-region-area N: MinRegionArea for both sides instead of the preset's (a diagnostic:
// with 0, no region is removed as too small, REG-104 and rcBuildRegions alike).
static long g_min_region = -1;

typedef std::pair<double, double> Iv;

// Length of the union of ivs clipped to [a0, a1].
static double union_len(std::vector<Iv> ivs, double a0, double a1) {
  std::sort(ivs.begin(), ivs.end());
  double tot = 0, cur0 = 0, cur1 = 0;
  bool open = false;
  for (const Iv &v : ivs) {
    double l = std::max(v.first, a0), h = std::min(v.second, a1);
    if (!(l < h)) continue;
    if (open && l <= cur1) {
      cur1 = std::max(cur1, h);
    } else {
      if (open) tot += cur1 - cur0;
      cur0 = l, cur1 = h, open = true;
    }
  }
  if (open) tot += cur1 - cur0;
  return tot;
}

// Intersections of every interval of a with every interval of b.
static std::vector<Iv> cross(const std::vector<Iv> &a, const std::vector<Iv> &b) {
  std::vector<Iv> out;
  for (const Iv &x : a)
    for (const Iv &y : b) {
      double l = std::max(x.first, y.first), h = std::min(x.second, y.second);
      if (l < h) out.push_back(Iv(l, h));
    }
  return out;
}

struct Seams {
  long edges = 0, unlinked_edges = 0;
  double length = 0, unlinked = 0, facing = 0, within = 0;
  double old_rule = 0, dt_rule = 0;  // ours only: unlinked under the old MESH-023 / overlapSlabs
  void add(double a0, double a1, const std::vector<Iv> &cov, const std::vector<Iv> &opp,
           const std::vector<Iv> &faced) {
    double len = a1 - a0, c = union_len(cov, a0, a1);
    double f = union_len(faced, a0, a1), fc = union_len(cross(faced, cov), a0, a1);
    double o = union_len(opp, a0, a1), oc = union_len(cross(opp, cov), a0, a1);
    facing += o - oc;
    edges++;
    length += len;
    if (len - c > 1e-9) unlinked_edges++;
    unlinked += len - c;
    within += f - fc;
  }
};

// Height of an edge (ua, ha) -> (ub, hb) at u, in binary64 (as MESH-023 computes it).
static double edge_h(double ua, double ha, double ub, double hb, double u) {
  if (u == ua) return ha;
  if (u == ub) return hb;
  return ha + (hb - ha) * ((u - ua) / (ub - ua));
}

// The edges come within `climb` somewhere on [lo, hi]: the gap is linear there.
static bool meets_within(double g0, double g1, double climb) {
  return fabs(g0) <= climb || fabs(g1) <= climb || (g0 < 0 && g1 > 0) || (g0 > 0 && g1 < 0);
}

// Detour's overlapSlabs (DetourNavMesh.cpp), in binary32 as Detour computes it: slabs a and b
// given as (along, y) of their two ends, sorted by along; px the shrink at each end (0.01 in
// findConnectingPolys), py the climb.
static bool dt_overlap_slabs(const float amin[2], const float amax[2], const float bmin[2],
                             const float bmax[2], float px, float py) {
  const float minx = std::max(amin[0] + px, bmin[0] + px);
  const float maxx = std::min(amax[0] - px, bmax[0] - px);
  if (minx > maxx) return false;
  const float ad = (amax[1] - amin[1]) / (amax[0] - amin[0]);
  const float ak = amin[1] - ad * amin[0];
  const float bd = (bmax[1] - bmin[1]) / (bmax[0] - bmin[0]);
  const float bk = bmin[1] - bd * bmin[0];
  const float aminy = ad * minx + ak, amaxy = ad * maxx + ak;
  const float bminy = bd * minx + bk, bmaxy = bd * maxx + bk;
  const float dmin = bminy - aminy, dmax = bmaxy - amaxy;
  if (dmin * dmax < 0) return true;
  const float thr = (py * 2) * (py * 2);
  return dmin * dmin <= thr || dmax * dmax <= thr;
}

// ------------------------------------------------------------------ ours

struct OEdge {
  double ua, ha, ub, hb;  // along-coordinate (tile-local binary32), world height
  float slab[2][2];       // Detour's slab end points (world along, world y), sorted by along
};

static OEdge our_edge(const op_tile_desc &v, const op_poly_desc &P, uint32_t j, unsigned s) {
  int k = (s & 1u) ? 0 : 2;  // MESH-022
  const float *a = &v.verts[3 * P.verts[j]], *b = &v.verts[3 * P.verts[(j + 1) % P.nverts]];
  OEdge e = {(double)a[k], v.origin_y + (double)a[1], (double)b[k], v.origin_y + (double)b[1], {}};
  const double W = v.tiling.cell_size * v.tiling.tile_cells;
  const double o = k == 0 ? v.tiling.origin[0] + v.x * W : v.tiling.origin[2] + v.z * W;
  float pa[2] = {(float)(o + a[k]), (float)e.ha}, pb[2] = {(float)(o + b[k]), (float)e.hb};
  const float *lo = pa[0] < pb[0] ? pa : pb, *hi = pa[0] < pb[0] ? pb : pa;
  e.slab[0][0] = lo[0], e.slab[0][1] = lo[1], e.slab[1][0] = hi[0], e.slab[1][1] = hi[1];
  return e;
}

static Seams measure_ours(const op_mesh *m, FILE *detail) {
  static const int dx[4] = {-1, 0, 1, 0}, dz[4] = {0, 1, 0, -1};
  op_mesh_params mp;
  op_mesh_get_params(m, &mp);
  std::set<std::pair<int, int>> cols;
  std::vector<op_mesh_tile> tiles;
  uint32_t nt = op_mesh_tile_count(m);
  for (uint32_t i = 0; i < nt; i++) {
    op_mesh_tile t;
    op_error e;
    if (op_mesh_tile_at_index(m, i, &t, &e)) exit(2);
    tiles.push_back(t);
    cols.insert(std::make_pair(t.x, t.z));
  }
  Seams S;
  for (const op_mesh_tile &t : tiles) {
    op_tile_desc v;
    op_tile_view(t.tile, &v);
    const op_link *links;
    uint32_t nl;
    op_error e;
    if (op_mesh_tile_links(m, t.x, t.z, t.layer, &links, &nl, &e)) exit(2);
    for (uint32_t p = 0; p < v.npolys; p++) {
      const op_poly_desc &P = v.polys[p];
      for (uint32_t j = 0; j < P.nverts; j++) {
        if ((P.neis[j] & ~3u) != OP_NEI_PORTAL) continue;
        unsigned s = P.neis[j] & 3u, opp = (s + 2) & 3u;
        int nx = t.x + dx[s], nz = t.z + dz[s];
        if (!cols.count(std::make_pair(nx, nz))) continue;
        OEdge pe = our_edge(v, P, j, s);
        double a0 = std::min(pe.ua, pe.ub), a1 = std::max(pe.ua, pe.ub);
        std::vector<Iv> cov, opps, faced, cov_old, cov_dt;
        for (uint32_t l = 0; l < nl; l++)
          if (links[l].poly == p && links[l].edge == j && links[l].side != OP_LINK_INTERNAL)
            cov.push_back(Iv(links[l].lo, links[l].hi));
        for (const op_mesh_tile &u : tiles) {
          if (u.x != nx || u.z != nz) continue;
          op_tile_desc w;
          op_tile_view(u.tile, &w);
          for (uint32_t q = 0; q < w.npolys; q++)
            for (uint32_t k = 0; k < w.polys[q].nverts; k++) {
              if (w.polys[q].neis[k] != (OP_NEI_PORTAL | opp)) continue;
              OEdge qe = our_edge(w, w.polys[q], k, opp);
              double b0 = std::min(qe.ua, qe.ub), b1 = std::max(qe.ua, qe.ub);
              double lo = std::max(a0, b0), hi = std::min(a1, b1);
              if (!(lo < hi)) continue;
              double g0 = edge_h(pe.ua, pe.ha, pe.ub, pe.hb, lo) - edge_h(qe.ua, qe.ha, qe.ub, qe.hb, lo);
              double g1 = edge_h(pe.ua, pe.ha, pe.ub, pe.hb, hi) - edge_h(qe.ua, qe.ha, qe.ub, qe.hb, hi);
              opps.push_back(Iv(lo, hi));
              if (meets_within(g0, g1, mp.walkable_climb)) faced.push_back(Iv(lo, hi));
              if (fabs(g0) <= mp.walkable_climb && fabs(g1) <= mp.walkable_climb)
                cov_old.push_back(Iv(lo, hi));  // the rule before issue 17
              if (dt_overlap_slabs(pe.slab[0], pe.slab[1], qe.slab[0], qe.slab[1], 0.01f,
                                   (float)mp.walkable_climb))
                cov_dt.push_back(Iv(lo, hi));
            }
        }
        if (detail && union_len(cov, a0, a1) < a1 - a0 - 1e-9) {
          fprintf(detail, "  ours (%d,%d) poly %u edge %u side %u [%g, %g] world [%g, %g] covered %g h %.3f..%.3f\n",
                  t.x, t.z, p, j, s, a0, a1, (double)std::min(pe.slab[0][0], pe.slab[1][0]),
                  (double)std::max(pe.slab[0][0], pe.slab[1][0]), union_len(cov, a0, a1), pe.ha, pe.hb);
          for (const op_mesh_tile &u : tiles) {
            if (u.x != nx || u.z != nz) continue;
            op_tile_desc w;
            op_tile_view(u.tile, &w);
            for (uint32_t q = 0; q < w.npolys; q++)
              for (uint32_t k = 0; k < w.polys[q].nverts; k++) {
                if (w.polys[q].neis[k] != (OP_NEI_PORTAL | opp)) continue;
                OEdge qe = our_edge(w, w.polys[q], k, opp);
                double b0 = std::min(qe.ua, qe.ub), b1 = std::max(qe.ua, qe.ub);
                double lo = std::max(a0, b0), hi = std::min(a1, b1);
                if (!(lo < hi)) continue;
                double g0 = edge_h(pe.ua, pe.ha, pe.ub, pe.hb, lo) - edge_h(qe.ua, qe.ha, qe.ub, qe.hb, lo);
                double g1 = edge_h(pe.ua, pe.ha, pe.ub, pe.hb, hi) - edge_h(qe.ua, qe.ha, qe.ub, qe.hb, hi);
                fprintf(detail, "    opposite layer %d poly %u edge %u [%g, %g] h %.3f..%.3f gaps %.3f %.3f\n",
                        u.layer, q, k, b0, b1, qe.ha, qe.hb, g0, g1);
              }
          }
        }
        S.add(a0, a1, cov, opps, faced);
        S.old_rule += (a1 - a0) - union_len(cov_old, a0, a1);
        S.dt_rule += (a1 - a0) - union_len(cov_dt, a0, a1);
      }
    }
  }
  return S;
}

// ------------------------------------------------------------------ Recast + Detour

struct Level {
  std::string name, preset;
  op_settings s;
  op_cell_settings c;
  op_trimesh m;
  op_soup soup;
  double origin[3], ymax;
  int32_t ntx, ntz;
  std::vector<float> vf;
  std::vector<int> tris;
  std::vector<op_hf_grid> grids;
};

// Recast's compact heightfield from ours (--our-chf): the same grid, spans, links and areas
// (both number directions -x, +z, +x, -z, and both use 63 for "no link" and for walkable).
static void chf_from_ours(const op_chf *oc, const float bmin[3], const float bmax[3],
                          rcCompactHeightfield &chf) {
  const op_hf_grid &g = oc->grid;
  chf.width = g.width, chf.height = g.depth, chf.spanCount = (int)oc->nspans;
  chf.walkableHeight = oc->walkable_height, chf.walkableClimb = oc->walkable_climb;
  rcVcopy(chf.bmin, bmin);
  rcVcopy(chf.bmax, bmax);
  chf.cs = (float)g.cs, chf.ch = (float)g.ch;
  const size_t ncol = (size_t)g.width * g.depth;
  chf.cells = (rcCompactCell *)rcAlloc(sizeof(rcCompactCell) * ncol, RC_ALLOC_PERM);
  chf.spans = (rcCompactSpan *)rcAlloc(sizeof(rcCompactSpan) * (oc->nspans + 1), RC_ALLOC_PERM);
  chf.areas = (unsigned char *)rcAlloc(oc->nspans + 1, RC_ALLOC_PERM);
  for (size_t c = 0; c < ncol; c++) {
    chf.cells[c].index = oc->cell_index[c];
    chf.cells[c].count = oc->cell_count[c];
  }
  for (uint32_t i = 0; i < oc->nspans; i++) {
    rcCompactSpan &sp = chf.spans[i];
    memset(&sp, 0, sizeof sp);
    sp.y = oc->spans[i].y;
    sp.h = oc->spans[i].h;
    for (int d = 0; d < 4; d++) rcSetCon(sp, d, oc->spans[i].link[d]);
    chf.areas[i] = oc->areas[i];
  }
}

// our_chf: Recast starts from *our* compact heightfield of each tile (op_stage_run_tile up to
// OP_STAGE_SPANS: rasterization, filters, erosion, volumes, SPAN-180) instead of rasterizing
// the soup itself; regions, contours, polygons and stitching stay Recast's and Detour's.
static dtNavMesh *detour_bake(const Level &L, double climb, bool our_chf, long *npolys) {
  rcContext ctx(false);
  const op_settings &s = L.s;
  const op_cell_settings &c = L.c;
  dtNavMesh *nav = dtAllocNavMesh();
  dtNavMeshParams np;
  memset(&np, 0, sizeof np);
  np.orig[0] = (float)L.origin[0];
  np.orig[1] = (float)L.origin[1];
  np.orig[2] = (float)L.origin[2];
  np.tileWidth = np.tileHeight = (float)(s.cell_size * s.tile_cells);
  int ntiles = L.ntx * L.ntz, bits = 0;
  while ((1 << bits) < ntiles) bits++;
  if (bits > 14) bits = 14;
  np.maxTiles = 1 << bits;
  np.maxPolys = 1 << (22 - bits);
  if (dtStatusFailed(nav->init(&np))) exit(2);
  const int ntris_all = (int)(L.tris.size() / 3), nv = (int)(L.vf.size() / 3);
  std::vector<int> sel;
  std::vector<unsigned char> areas;
  for (int tz = 0; tz < L.ntz; tz++)
    for (int tx = 0; tx < L.ntx; tx++) {
      const op_hf_grid &g = L.grids[(size_t)tz * L.ntx + tx];
      float bmin[3], bmax[3];
      bmin[0] = (float)(g.origin[0] + (double)g.gx0 * g.cs);
      bmin[1] = (float)g.origin[1];
      bmin[2] = (float)(g.origin[2] + (double)g.gz0 * g.cs);
      bmax[0] = (float)(g.origin[0] + (double)(g.gx0 + g.width) * g.cs);
      bmax[1] = (float)L.ymax;
      bmax[2] = (float)(g.origin[2] + (double)(g.gz0 + g.depth) * g.cs);
      sel.clear();
      for (int t = 0; t < ntris_all; t++) {
        const float *a = &L.vf[3 * L.tris[3 * t]], *b = &L.vf[3 * L.tris[3 * t + 1]],
                    *d = &L.vf[3 * L.tris[3 * t + 2]];
        float mnx = fminf(a[0], fminf(b[0], d[0])), mxx = fmaxf(a[0], fmaxf(b[0], d[0]));
        float mnz = fminf(a[2], fminf(b[2], d[2])), mxz = fmaxf(a[2], fmaxf(b[2], d[2]));
        if (mxx < bmin[0] || mnx > bmax[0] || mxz < bmin[2] || mnz > bmax[2]) continue;
        for (int k = 0; k < 3; k++) sel.push_back(L.tris[3 * t + k]);
      }
      int nt = (int)(sel.size() / 3);
      op_stage_tile ours;
      memset(&ours, 0, sizeof ours);
      if (our_chf) {
        op_error e;
        if (op_stage_run_tile(&s, &L.soup, tx, tz, OP_STAGE_SPANS, &ours, &e)) exit(2);
        if (!ours.chf) nt = 0;
      }
      if (!nt) {
        op_stage_tile_free(&ours);
        continue;
      }
      rcCompactHeightfield *chf = rcAllocCompactHeightfield();
      if (our_chf) {
        chf_from_ours(ours.chf, bmin, bmax, *chf);
        op_stage_tile_free(&ours);
      } else {
      areas.assign(nt, 0);
      rcHeightfield *hf = rcAllocHeightfield();
      rcCreateHeightfield(&ctx, *hf, g.width, g.depth, bmin, bmax, (float)g.cs, (float)g.ch);
      rcMarkWalkableTriangles(&ctx, (float)s.max_slope, L.vf.data(), nv, sel.data(), nt,
                              areas.data());
      rcRasterizeTriangles(&ctx, L.vf.data(), nv, sel.data(), areas.data(), nt, *hf,
                           c.walkable_climb);
      rcFilterLowHangingWalkableObstacles(&ctx, c.walkable_climb, *hf);
      rcFilterLedgeSpans(&ctx, c.walkable_height, c.walkable_climb, *hf);
      rcFilterWalkableLowHeightSpans(&ctx, c.walkable_height, *hf);
      rcBuildCompactHeightfield(&ctx, c.walkable_height, c.walkable_climb, *hf, *chf);
      rcFreeHeightField(hf);
      rcErodeWalkableArea(&ctx, c.walkable_radius, *chf);
      }
      bool ok = rcBuildDistanceField(&ctx, *chf) &&
                rcBuildRegions(&ctx, *chf, c.border, (int)s.min_region_area,
                               (int)s.merge_region_area);
      rcContourSet *cset = rcAllocContourSet();
      ok = ok && rcBuildContours(&ctx, *chf, (float)s.max_simplification_error, c.max_edge_len,
                                 *cset, RC_CONTOUR_TESS_WALL_EDGES);
      rcPolyMesh *pm = rcAllocPolyMesh();
      ok = ok && rcBuildPolyMesh(&ctx, *cset, (int)s.max_verts_per_poly, *pm);
      rcPolyMeshDetail *dm = rcAllocPolyMeshDetail();
      ok = ok && rcBuildPolyMeshDetail(&ctx, *pm, *chf, RC_NO_SAMPLING,
                                       (float)c.detail_sample_max_error, *dm);
      if (!ok) {
        fprintf(stderr, "%s %s tile (%d,%d): a Recast stage failed\n", L.name.c_str(),
                L.preset.c_str(), tx, tz);
        exit(2);
      }
      *npolys += pm->npolys;
      if (pm->npolys > 0) {
        for (int p = 0; p < pm->npolys; p++) pm->flags[p] = 1;
        dtNavMeshCreateParams cp;
        memset(&cp, 0, sizeof cp);
        cp.verts = pm->verts;
        cp.vertCount = pm->nverts;
        cp.polys = pm->polys;
        cp.polyAreas = pm->areas;
        cp.polyFlags = pm->flags;
        cp.polyCount = pm->npolys;
        cp.nvp = pm->nvp;
        cp.detailMeshes = dm->meshes;
        cp.detailVerts = dm->verts;
        cp.detailVertsCount = dm->nverts;
        cp.detailTris = dm->tris;
        cp.detailTriCount = dm->ntris;
        cp.walkableHeight = (float)s.agent_height;
        cp.walkableRadius = (float)s.agent_radius;
        cp.walkableClimb = (float)climb;
        cp.tileX = tx;
        cp.tileY = tz;
        cp.tileLayer = 0;
        rcVcopy(cp.bmin, pm->bmin);
        rcVcopy(cp.bmax, pm->bmax);
        cp.cs = pm->cs;
        cp.ch = pm->ch;
        cp.buildBvTree = false;
        unsigned char *data = NULL;
        int size = 0;
        if (!dtCreateNavMeshData(&cp, &data, &size)) exit(2);
        if (dtStatusFailed(nav->addTile(data, size, DT_TILE_FREE_DATA, 0, NULL))) exit(2);
      }
      rcFreePolyMeshDetail(dm);
      rcFreePolyMesh(pm);
      rcFreeContourSet(cset);
      rcFreeCompactHeightfield(chf);
    }
  return nav;
}

// Detour's sides: 0 +x, 2 +z, 4 -x, 6 -z (DT_EXT_LINK | side).
static void dt_step(int side, int &dx, int &dz) {
  dx = side == 0 ? 1 : side == 4 ? -1 : 0;
  dz = side == 2 ? 1 : side == 6 ? -1 : 0;
}

static Seams measure_detour(const dtNavMesh *nav, int ntx, int ntz, double climb, FILE *detail,
                            const char *tag) {
  Seams S;
  for (int tz = 0; tz < ntz; tz++)
    for (int tx = 0; tx < ntx; tx++) {
      const dtMeshTile *t = nav->getTileAt(tx, tz, 0);
      if (!t || !t->header) continue;
      for (int p = 0; p < t->header->polyCount; p++) {
        const dtPoly &P = t->polys[p];
        for (int j = 0; j < P.vertCount; j++) {
          if (!(P.neis[j] & DT_EXT_LINK)) continue;
          int side = P.neis[j] & 0xff, dx, dz;
          dt_step(side, dx, dz);
          const dtMeshTile *n = nav->getTileAt(tx + dx, tz + dz, 0);
          if (!n || !n->header) continue;
          const int k = (side == 0 || side == 4) ? 2 : 0;
          const unsigned short opp = (unsigned short)(DT_EXT_LINK | ((side + 4) & 7));
          const float *va = &t->verts[3 * P.verts[j]];
          const float *vb = &t->verts[3 * P.verts[(j + 1) % P.vertCount]];
          double ua = va[k], ub = vb[k], ha = va[1], hb = vb[1];
          double a0 = std::min(ua, ub), a1 = std::max(ua, ub);
          std::vector<Iv> cov, opps, faced;
          // The edges of the neighbour tile's polygon q on the opposite side: their overlaps
          // with this edge, and whether they meet within the climb.
          auto each_opp = [&](const dtMeshTile *nt, const dtPoly &Q, bool link, int qi) {
            for (int e = 0; e < Q.vertCount; e++) {
              if (Q.neis[e] != opp) continue;
              const float *wa = &nt->verts[3 * Q.verts[e]];
              const float *wb = &nt->verts[3 * Q.verts[(e + 1) % Q.vertCount]];
              double qa = wa[k], qb = wb[k];
              double lo = std::max(a0, std::min(qa, qb)), hi = std::min(a1, std::max(qa, qb));
              if (!(lo < hi)) continue;
              if (link) {
                cov.push_back(Iv(lo, hi));
                continue;
              }
              opps.push_back(Iv(lo, hi));
              double g0 = edge_h(ua, ha, ub, hb, lo) - edge_h(qa, wa[1], qb, wb[1], lo);
              double g1 = edge_h(ua, ha, ub, hb, hi) - edge_h(qa, wa[1], qb, wb[1], hi);
              if (meets_within(g0, g1, climb)) {
                faced.push_back(Iv(lo, hi));
                if (detail)
                  fprintf(detail, "  %s tile (%d,%d) poly %d edge %d side %d [%g, %g] vs poly %d gaps %.3f %.3f\n",
                          tag, tx, tz, p, j, side, lo, hi, qi, g0, g1);
              }
            }
          };
          for (unsigned int l = P.firstLink; l != DT_NULL_LINK; l = t->links[l].next) {
            const dtLink &L = t->links[l];
            if (L.edge != j || L.side == 0xff) continue;
            const dtMeshTile *nt = NULL;
            const dtPoly *Q = NULL;
            nav->getTileAndPolyByRefUnsafe(L.ref, &nt, &Q);
            each_opp(nt, *Q, true, 0);
          }
          for (int q = 0; q < n->header->polyCount; q++) each_opp(n, n->polys[q], false, q);
          if (detail && union_len(cov, a0, a1) < a1 - a0 - 1e-9)
            fprintf(detail, "  %s (%d,%d) poly %d edge %d side %d world [%g, %g] covered %g facing %g h %.3f..%.3f\n",
                    tag, tx, tz, p, j, side, a0, a1, union_len(cov, a0, a1), union_len(opps, a0, a1), ha, hb);
          S.add(a0, a1, cov, opps, faced);
        }
      }
    }
  return S;
}

// ------------------------------------------------------------------ driver

static bool setup(Level &L, const char *name, uint32_t size, const char *preset) {
  op_error e;
  L.name = name;
  L.preset = preset;
  memset(&L.m, 0, sizeof L.m);
  if (op_settings_preset(preset, &L.s, &e)) return false;
  L.s.detail_sample_distance = 0;  // POLY-201
  if (g_min_region >= 0) L.s.min_region_area = (uint32_t)g_min_region;
  if (op_settings_derive(&L.s, &L.c, &e) || op_level_generate(name, 1, size, &L.s, &L.m, &e)) {
    fprintf(stderr, "setup %s/%s: %s\n", name, preset, e.message);
    return false;
  }
  L.soup = op_trimesh_soup(&L.m);
  if (op_soup_frame(&L.soup, L.origin, &L.ymax, &e) ||
      op_spans_tile_range(&L.s, &L.soup, &L.ntx, &L.ntz, &e)) {
    fprintf(stderr, "setup %s/%s: %s\n", name, preset, e.message);
    return false;
  }
  L.vf.assign(L.soup.verts, L.soup.verts + 3 * (size_t)L.soup.nverts);
  L.tris.assign(L.soup.tris, L.soup.tris + 3 * (size_t)L.soup.ntris);
  for (int32_t tz = 0; tz < L.ntz; tz++)
    for (int32_t tx = 0; tx < L.ntx; tx++) {
      op_hf_grid g;
      if (op_hf_grid_tile(&L.s, &L.c, L.origin, tx, tz, L.origin[1], L.ymax, &g, &e)) {
        fprintf(stderr, "grid: %s\n", e.message);
        return false;
      }
      L.grids.push_back(g);
    }
  return true;
}

int main(int argc, char **argv) {
  struct {
    const char *name;
    uint32_t size;
  } levels[] = {{"terrain", 64}, {"city", 4}, {"stairs", 16}, {"dungeon", 32}, {"hills", 64}};
  const char *presets[] = {"Humanoid", "Small", "Large"};
  const char *only = NULL, *only_preset = NULL;
  long size_override = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--only") && a + 1 < argc) only = argv[++a];
    else if (!strcmp(argv[a], "--preset") && a + 1 < argc) only_preset = argv[++a];
    else if (!strcmp(argv[a], "--size") && a + 1 < argc) size_override = atol(argv[++a]);
    else if (!strcmp(argv[a], "--detail")) g_detail = true;
    else if (!strcmp(argv[a], "--min-region-area") && a + 1 < argc) g_min_region = atol(argv[++a]);
    else {
      fprintf(stderr, "usage: bench_seams [--only LEVEL] [--preset P] [--size N] [--detail]\n"
                      "       [--min-region-area N]\n");
      return 2;
    }
  }
  printf("SEAMS unlinked walkable portal length (world units along the tile borders), seed 1, "
         "watershed, DetailSampleDistance 0\n");
  printf("| level | preset | size | tiles | portal edges ours/Detour | portal length ours | "
         "portal length Detour | unlinked ours | unlinked Detour | unlinked Detour, our chf | "
         "facing an edge ours | facing an edge Detour | facing Detour, our chf | "
         "within climb ours | within climb Detour | "
         "edges with a gap ours/Detour | our tiles, old rule | our tiles, overlapSlabs | "
         "polys ours/Detour/Detour our chf |\n");
  printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  Seams to, td, tc;
  for (auto &lv : levels)
    for (const char *preset : presets) {
      if (only && strcmp(only, lv.name)) continue;
      if (only_preset && strcmp(only_preset, preset)) continue;
      uint32_t size = size_override > 0 ? (uint32_t)size_override : lv.size;
      Level L;
      if (!setup(L, lv.name, size, preset)) return 2;
      op_error e;
      op_pipeline_result res;
      if (op_pipeline_build_soup(&L.s, &L.soup, NULL, &res, &e)) {
        fprintf(stderr, "ours %s %s: %s\n", lv.name, preset, e.message);
        return 2;
      }
      op_mesh_params mp;
      op_mesh_get_params(res.mesh, &mp);
      FILE *detail = g_detail ? stdout : NULL;
      Seams so = measure_ours(res.mesh, detail);
      long dpolys = 0, cpolys = 0;
      dtNavMesh *nav = detour_bake(L, mp.walkable_climb, false, &dpolys);
      Seams sd = measure_detour(nav, L.ntx, L.ntz, mp.walkable_climb, detail, "detour");
      dtNavMesh *navc = detour_bake(L, mp.walkable_climb, true, &cpolys);
      Seams sc = measure_detour(navc, L.ntx, L.ntz, mp.walkable_climb, detail, "detour-our-chf");
      printf("| %s | %s | %u | %d | %ld/%ld | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %ld/%ld | %.2f | %.2f | %llu/%ld/%ld |\n",
             lv.name, preset, size, L.ntx * L.ntz, so.edges, sd.edges, so.length, sd.length,
             so.unlinked, sd.unlinked, sc.unlinked, so.facing, sd.facing, sc.facing, so.within,
             sd.within, so.unlinked_edges, sd.unlinked_edges, so.old_rule, so.dt_rule,
             (unsigned long long)res.npolys, dpolys, cpolys);
      fflush(stdout);
      to.length += so.length, to.unlinked += so.unlinked, to.within += so.within;
      td.length += sd.length, td.unlinked += sd.unlinked, td.within += sd.within;
      tc.unlinked += sc.unlinked, tc.facing += sc.facing;
      to.facing += so.facing, td.facing += sd.facing;
      to.old_rule += so.old_rule, to.dt_rule += so.dt_rule;
      to.edges += so.edges, td.edges += sd.edges;
      to.unlinked_edges += so.unlinked_edges, td.unlinked_edges += sd.unlinked_edges;
      dtFreeNavMesh(nav);
      dtFreeNavMesh(navc);
      op_pipeline_result_free(&res);
      op_trimesh_free(&L.m);
    }
  printf("| all | | | | %ld/%ld | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %ld/%ld | %.2f | %.2f | |\n",
         to.edges, td.edges, to.length, td.length, to.unlinked, td.unlinked, tc.unlinked,
         to.facing, td.facing, tc.facing, to.within, td.within,
         to.unlinked_edges, td.unlinked_edges, to.old_rule, to.dt_rule);
  return 0;
}
