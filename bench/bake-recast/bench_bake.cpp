// bench_bake.cpp -- benchmark of the full 3D bake (issue 5, "Evidence", third bullet):
// our Mesh3DPipeline.BuildSoup (op_pipeline_build_soup, spec/build3d-polys.md section 5)
// against Recast's full per-tile pipeline (Debian's librecast-dev), on the same triangle
// soups with the same settings. A measurement, not a test: nothing fails when a figure
// moves, and it is not registered with ctest.
//
// Inputs: the levels.md generators (seed 1: terrain 64, city 4, stairs 16, dungeon 32; the
// sizes of the spans benchmark), at the presets Humanoid and Small, with
// DetailSampleDistance 0 (POLY-201: no height sampling, no detail mesh) and the preset's
// PartitionType (watershed) unless --partition says otherwise. Height sampling is specified
// (POLY-202 accepts the presets' DetailSampleDistance 6; POLY-203 to POLY-209): --sampled
// keeps the preset's value on our side and gives Recast the same sampleDist and
// sampleMaxError (SPAN-025's world values), a second comparison with a detail mesh on both
// sides.
//
// Ours: op_pipeline_build_soup, the whole call (settings, frame, every tile's spans,
// regions, contours, polygons, detail (none), tile assembly and TiledNavMesh.AddTile).
//
// Recast, per tile of the same grid (op_spans_tile_range, same tiling origin, the same
// bordered tile box of op_hf_grid_tile, binary32 copies of the vertices made once before
// timing): the triangles whose xz box meets the tile box (as ours selects them; both sides
// find a tile's candidates through a per-build grid of tiles, ours by
// ref/build3d/spans/tri_index.c, Recast's by the few lines of tile_bins below, timed as part
// of its spans stage, the job RecastDemo's rcChunkyTriMesh does),
// rcMarkWalkableTriangles, rcCreateHeightfield + rcRasterizeTriangles, the three filters,
// rcBuildCompactHeightfield, rcErodeWalkableArea, the regions of the same partition
// (rcBuildDistanceField + rcBuildRegions, rcBuildRegionsMonotone or rcBuildLayerRegions;
// same Border, MinRegionArea, MergeRegionArea), rcBuildContours (MaxSimplificationError,
// MaxEdgeLenCells, RC_CONTOUR_TESS_WALL_EDGES), rcBuildPolyMesh (MaxVertsPerPoly) and
// rcBuildPolyMeshDetail without sampling (sampleDist 0 crashes in librecast 1.5.1, see
// RC_NO_SAMPLING below; a huge sampleDist gives no edge and no interior samples: Recast
// still reads the heightfield around each polygon and triangulates it, a little more work
// than ours, which makes no detail mesh), or with --sampled the preset's sampleDist. That
// is the "Recast" column; "no detail" is the same run less its detail stage (Recast
// skipping the detail mesh, which Detour accepts).
// The "+Detour" column adds what our tile assembly and AddTile do: dtCreateNavMeshData (no
// BV tree, since our tiles store none) and dtNavMesh::addTile into one dtNavMesh.
//
// Reported per level and preset: tiles of the grid, tiles with polygons, polygon counts,
// walkable area (sum over polygons of their area in the xz plane: ours from the tiles'
// binary32 vertices, Recast's from the rcPolyMesh cells) with the difference in percent,
// and the full bake time of each, the best of --reps runs (default 3) measured in one run,
// interleaved, single thread, with the ratio ours / Recast (above 1: ours is slower).
// With --stages, ours is also run stage by stage (the internal entry points the pipeline
// calls) to split its time, and Recast's time is split the same way.
//
// Build and run: scripts/bench-bake.sh [build-dir] [--quick] [--reps N]
//   [--partition watershed|monotone|layers|all] [--stages] [--only LEVEL] [--preset P]
//   [--ours-only N]  (runs ours only, N times, for a profiler)
//   [--recast-only N] (Recast+Detour only, N times: its peak RSS, for scripts/bench.sh)
//   [--size N]       (the level's size instead of the default, e.g. --only terrain --size 1024;
//                     ours runs with the work budget raised to the maximum, SPAN-201)
//   [--cpu]          (times are process CPU time, not wall time: for a loaded machine)
//   [--threads N]    (ours with N threads, POLY-228, where the library has it; default 1)
//   [--tsv]          (one machine-readable line per row: BAKE level preset partition size
//                     tiles ours_s recast_s, for scripts/bench.sh)
//   [--lanes]        (walkable area per 6-unit strip of x: where stairs differs)
//   [--sampled]      (the preset's DetailSampleDistance on both sides, see above)
#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <Recast.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <string>
#include <vector>

extern "C" {
#include "onepath_build3d.h"
#include "onepath_pipeline.h"
#include "onepath_stages.h"
}

// rcBuildPolyMeshDetail's sampleDist. 0 would be the literal "no sampling", but librecast
// 1.5.1 (and upstream as of this writing) crashes with it: buildPolyDetail fills the
// polygon's hull only inside "if (sampleDist > 0)", so triangulateHull runs with an empty
// hull and reads hull[-1]. A huge distance takes the same path with a filled hull: one
// segment per edge (no edge samples; the edge end heights are read from the heightfield),
// minExtent < 2 * sampleDist, so triangulateHull and no interior samples.
static const float RC_NO_SAMPLING = 1e30f;

// --cpu: the process's CPU time instead of the wall clock (a loaded machine stretches the
// wall time of a single-threaded run; its CPU time much less). With --threads above 1 the
// CPU time sums the workers', so it is not a speed-up measure then.
static bool g_cpu = false;
static double now(void) {
  struct timespec ts;
  clock_gettime(g_cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// ------------------------------------------------------------------ ours

// --lanes (a diagnostic for the stairs level, LVL-050): walkable area per 6-unit strip of
// world x, by polygon centroid. The level's lanes lie at x in [6k+1, 6k+5]: k = 0 steps of
// exactly WalkableClimb, 1 of WalkableClimb + 1, 2 a ramp of exactly AgentMaxSlope, 3 of
// one degree less, 4 of one degree more, 5 a ceiling at exactly WalkableHeight, 6 at
// WalkableHeight - 1 (all on the floor of step 1, which spans x in [0, 42]).
static bool g_lanes = false;
static bool g_sampled = false;  // --sampled: the preset's DetailSampleDistance, both sides
static const int NLANES = 7;
static void lane_add(double lanes[NLANES], double cx, double area) {
  int k = (int)floor(cx / 6.0);
  if (k < 0) k = 0;
  if (k >= NLANES) k = NLANES - 1;
  lanes[k] += area;
}

struct OursArea {
  double area = 0;
  double origin[3] = {0, 0, 0}, tw = 0;
  double lanes[NLANES] = {};
};

static void on_tile(void *ud, int32_t tx, int32_t tz, const op_tile *t) {
  OursArea *a = (OursArea *)ud;
  op_tile_desc v;
  op_tile_view(t, &v);
  for (uint32_t p = 0; p < v.npolys; p++) {
    const op_poly_desc &pd = v.polys[p];
    double s = 0, cx = 0;
    for (uint32_t i = 0; i < pd.nverts; i++) {
      const float *a0 = &v.verts[3 * pd.verts[i]];
      const float *a1 = &v.verts[3 * pd.verts[(i + 1) % pd.nverts]];
      s += (double)a0[0] * (double)a1[2] - (double)a1[0] * (double)a0[2];
      cx += a0[0];
    }
    a->area += fabs(s) * 0.5;
    if (g_lanes)
      lane_add(a->lanes, a->origin[0] + tx * a->tw + cx / pd.nverts, fabs(s) * 0.5);
  }
  (void)tz;
}

// ------------------------------------------------------------------ Recast

struct Level {
  std::string name, preset;
  op_settings s;
  op_cell_settings c;
  op_trimesh m;
  op_soup soup;
  double origin[3], ymax;
  int32_t ntx, ntz;
  std::vector<float> vf;  // binary32 vertices for Recast
  std::vector<int> tris;  // int indices for Recast
  std::vector<op_hf_grid> grids;  // per tile, tz-major
};

struct RcStats {
  long tiles = 0, polys = 0;  // tiles with polygons, polygons
  double area = 0;
  double lanes[NLANES] = {};
  double t[7] = {0, 0, 0, 0, 0, 0, 0};  // spans, regions, contours, polys, detail, detour
};

// One full Recast bake of the level; returns the total time. nav: with Detour.
static double recast_bake(const Level &L, bool detour, RcStats &st) {
  rcContext ctx(false);
  const op_settings &s = L.s;
  const op_cell_settings &c = L.c;
  double t_begin = now();
  dtNavMesh *nav = NULL;
  if (detour) {
    nav = dtAllocNavMesh();
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
    if (dtStatusFailed(nav->init(&np))) {
      fprintf(stderr, "dtNavMesh init failed\n");
      exit(2);
    }
  }
  const int nv = (int)(L.vf.size() / 3);
  std::vector<int> bin_off, bin_tri;
  {  // tile_bins: every triangle under the tiles its float box may meet (one spare cell)
    double tb = now();
    const int ntris_all = (int)(L.tris.size() / 3);
    const double tw = s.cell_size * (double)s.tile_cells, m = s.cell_size * (c.border + 1);
    std::vector<int> r(4 * (size_t)ntris_all);
    bin_off.assign((size_t)L.ntx * L.ntz + 1, 0);
    for (int pass = 0; pass < 2; pass++) {
      std::vector<int> fill(bin_off.begin(), bin_off.end() - 1);
      for (int t = 0; t < ntris_all; t++) {
        int *q = &r[4 * (size_t)t];
        if (pass == 0) {
          const float *a = &L.vf[3 * L.tris[3 * t]], *b = &L.vf[3 * L.tris[3 * t + 1]],
                      *d = &L.vf[3 * L.tris[3 * t + 2]];
          float mn[2] = {fminf(a[0], fminf(b[0], d[0])), fminf(a[2], fminf(b[2], d[2]))};
          float mx[2] = {fmaxf(a[0], fmaxf(b[0], d[0])), fmaxf(a[2], fmaxf(b[2], d[2]))};
          const int nt[2] = {L.ntx, L.ntz};
          for (int k = 0; k < 2; k++) {
            double o = L.origin[2 * k];
            int lo = (int)floor((mn[k] - o - m) / tw), hi = (int)floor((mx[k] - o + m) / tw);
            q[2 * k] = lo < 0 ? 0 : lo;
            q[2 * k + 1] = hi > nt[k] - 1 ? nt[k] - 1 : hi;
          }
        }
        for (int tz = q[2]; tz <= q[3]; tz++)
          for (int tx = q[0]; tx <= q[1]; tx++) {
            size_t bi = (size_t)tz * L.ntx + tx;
            if (pass == 0) bin_off[bi + 1]++;
            else bin_tri[fill[bi]++] = t;
          }
      }
      if (pass == 0) {
        for (size_t i = 1; i < bin_off.size(); i++) bin_off[i] += bin_off[i - 1];
        bin_tri.resize(bin_off.back() + 1);
      }
    }
    st.t[0] += now() - tb;
  }
  std::vector<int> sel;
  std::vector<unsigned char> areas;
  sel.reserve(L.tris.size());
  for (int tz = 0; tz < L.ntz; tz++)
    for (int tx = 0; tx < L.ntx; tx++) {
      const op_hf_grid &g = L.grids[(size_t)tz * L.ntx + tx];
      double t0 = now();
      float bmin[3], bmax[3];
      bmin[0] = (float)(g.origin[0] + (double)g.gx0 * g.cs);
      bmin[1] = (float)g.origin[1];
      bmin[2] = (float)(g.origin[2] + (double)g.gz0 * g.cs);
      bmax[0] = (float)(g.origin[0] + (double)(g.gx0 + g.width) * g.cs);
      bmax[1] = (float)L.ymax;
      bmax[2] = (float)(g.origin[2] + (double)(g.gz0 + g.depth) * g.cs);
      sel.clear();
      const size_t bi = (size_t)tz * L.ntx + tx;
      for (int k = bin_off[bi]; k < bin_off[bi + 1]; k++) {  // the tile's triangles
        const int t = bin_tri[k];
        const float *a = &L.vf[3 * L.tris[3 * t]], *b = &L.vf[3 * L.tris[3 * t + 1]],
                    *d = &L.vf[3 * L.tris[3 * t + 2]];
        float mnx = fminf(a[0], fminf(b[0], d[0])), mxx = fmaxf(a[0], fmaxf(b[0], d[0]));
        float mnz = fminf(a[2], fminf(b[2], d[2])), mxz = fmaxf(a[2], fmaxf(b[2], d[2]));
        if (mxx < bmin[0] || mnx > bmax[0] || mxz < bmin[2] || mnz > bmax[2]) continue;
        sel.push_back(L.tris[3 * t]);
        sel.push_back(L.tris[3 * t + 1]);
        sel.push_back(L.tris[3 * t + 2]);
      }
      int nt = (int)(sel.size() / 3);
      if (!nt) {
        st.t[0] += now() - t0;
        continue;
      }
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
      rcCompactHeightfield *chf = rcAllocCompactHeightfield();
      rcBuildCompactHeightfield(&ctx, c.walkable_height, c.walkable_climb, *hf, *chf);
      rcFreeHeightField(hf);
      rcErodeWalkableArea(&ctx, c.walkable_radius, *chf);
      double t1 = now();
      bool ok = true;
      if (s.partition == OP_PARTITION_WATERSHED)
        ok = rcBuildDistanceField(&ctx, *chf) &&
             rcBuildRegions(&ctx, *chf, c.border, (int)s.min_region_area,
                            (int)s.merge_region_area);
      else if (s.partition == OP_PARTITION_MONOTONE)
        ok = rcBuildRegionsMonotone(&ctx, *chf, c.border, (int)s.min_region_area,
                                    (int)s.merge_region_area);
      else
        ok = rcBuildLayerRegions(&ctx, *chf, c.border, (int)s.min_region_area);
      double t2 = now();
      rcContourSet *cset = rcAllocContourSet();
      ok = ok && rcBuildContours(&ctx, *chf, (float)s.max_simplification_error, c.max_edge_len,
                                 *cset, RC_CONTOUR_TESS_WALL_EDGES);
      double t3 = now();
      rcPolyMesh *pm = rcAllocPolyMesh();
      ok = ok && rcBuildPolyMesh(&ctx, *cset, (int)s.max_verts_per_poly, *pm);
      double t4 = now();
      rcPolyMeshDetail *dm = rcAllocPolyMeshDetail();
      // SPAN-025's world distance (0 without sampling: RC_NO_SAMPLING instead)
      const float sample_dist =
          c.detail_sample_dist > 0 ? (float)c.detail_sample_dist : RC_NO_SAMPLING;
      ok = ok && rcBuildPolyMeshDetail(&ctx, *pm, *chf, sample_dist,
                                       (float)c.detail_sample_max_error, *dm);
      double t5 = now();
      if (!ok) {
        fprintf(stderr, "%s %s tile (%d,%d): a Recast stage failed\n", L.name.c_str(),
                L.preset.c_str(), tx, tz);
        exit(2);
      }
      if (detour && pm->npolys > 0) {
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
        cp.walkableClimb = (float)s.agent_climb;
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
        if (!dtCreateNavMeshData(&cp, &data, &size)) {
          fprintf(stderr, "dtCreateNavMeshData failed\n");
          exit(2);
        }
        if (dtStatusFailed(nav->addTile(data, size, DT_TILE_FREE_DATA, 0, NULL))) {
          dtFree(data);
          fprintf(stderr, "addTile failed\n");
          exit(2);
        }
      }
      double t6 = now();
      st.t[0] += t1 - t0;
      st.t[1] += t2 - t1;
      st.t[2] += t3 - t2;
      st.t[3] += t4 - t3;
      st.t[4] += t5 - t4;
      st.t[5] += t6 - t5;
      if (pm->npolys > 0) st.tiles++;
      st.polys += pm->npolys;
      for (int p = 0; p < pm->npolys; p++) {
        const unsigned short *pv = &pm->polys[(size_t)p * 2 * pm->nvp];
        int n = 0;
        while (n < pm->nvp && pv[n] != RC_MESH_NULL_IDX) n++;
        double a = 0;
        for (int i = 0; i < n; i++) {
          const unsigned short *v0 = &pm->verts[3 * pv[i]], *v1 = &pm->verts[3 * pv[(i + 1) % n]];
          a += (double)v0[0] * v1[2] - (double)v1[0] * v0[2];
        }
        st.area += fabs(a) * 0.5 * (double)pm->cs * (double)pm->cs;
        if (g_lanes) {
          double cx = 0;
          for (int i = 0; i < n; i++) cx += pm->bmin[0] + pm->verts[3 * pv[i]] * pm->cs;
          lane_add(st.lanes, cx / n, fabs(a) * 0.5 * (double)pm->cs * (double)pm->cs);
        }
      }
      rcFreePolyMeshDetail(dm);
      rcFreePolyMesh(pm);
      rcFreeContourSet(cset);
      rcFreeCompactHeightfield(chf);
    }
  if (nav) dtFreeNavMesh(nav);
  return now() - t_begin;
}

// ------------------------------------------------------------------ ours by stages

// Ours stage by stage, with the kit-tier entry points the pipeline calls
// (onepath_stages.h, parameters from op_stage_params_derive), to split the time: spans,
// regions, contours, polys, detail, tile + AddTile.
static void ours_stages(const Level &L, double t[7]) {
  op_error e;
  op_stage_params P;
  if (op_stage_params_derive(&L.s, &P, &e)) {
    fprintf(stderr, "op_stage_params_derive: %s\n", e.message);
    exit(2);
  }
  op_mesh_params mp;
  memset(&mp, 0, sizeof mp);
  for (int k = 0; k < 3; k++) mp.tiling.origin[k] = L.origin[k];
  mp.tiling.cell_size = L.s.cell_size;
  mp.tiling.cell_height = L.s.cell_height;
  mp.tiling.tile_cells = L.s.tile_cells;
  mp.tiling.max_verts_per_poly = L.s.max_verts_per_poly;
  mp.walkable_climb = (double)L.c.walkable_climb * L.s.cell_height;
  mp.max_tiles = (uint32_t)(L.ntx * L.ntz);
  op_mesh *mesh = NULL;
  if (op_mesh_create(&mp, &mesh, &e)) {
    fprintf(stderr, "op_mesh_create: %s\n", e.message);
    exit(2);
  }
  for (int32_t tz = 0; tz < L.ntz; tz++)
    for (int32_t tx = 0; tx < L.ntx; tx++) {
      double t0 = now();
      op_chf *chf = NULL;
      if (op_spans_build_tile(&L.s, &L.soup, L.origin, L.origin[1], L.ymax, tx, tz, &chf, &e)) {
        fprintf(stderr, "spans: %s\n", e.message);
        exit(2);
      }
      double t1 = now();
      t[0] += t1 - t0;
      if (!chf) continue;
      op_regions rg;
      op_contour_set cs;
      op_pmesh pm;
      op_detail_mesh dm;
      memset(&rg, 0, sizeof rg);
      memset(&cs, 0, sizeof cs);
      memset(&pm, 0, sizeof pm);
      memset(&dm, 0, sizeof dm);
      op_tile *tile = NULL;
      op_status st = op_regions_build(chf, P.partition, P.border, P.min_region_area,
                                      P.merge_region_area, &rg, &e);
      double t2 = now();
      if (!st) st = op_contours_build(chf, rg.reg, &P.contours, &cs, &e);
      double t3 = now();
      if (!st) st = op_pmesh_build(&cs, &chf->grid, P.border, P.max_verts_per_poly, &pm, &e);
      double t4 = now();
      if (!st) st = op_detail_build(&L.s, &pm, chf, &dm, &e);
      double t5 = now();
      if (!st) st = op_tile_assemble(&pm, &dm, tx, tz, 0, &mp.tiling, chf->grid.origin[1], &tile, &e);
      op_ref ref;
      if (!st && tile) st = op_mesh_add_tile(mesh, tile, &ref, &e);
      double t6 = now();
      if (st) {
        fprintf(stderr, "ours by stages: %s\n", e.message);
        exit(2);
      }
      t[1] += t2 - t1;
      t[2] += t3 - t2;
      t[3] += t4 - t3;
      t[4] += t5 - t4;
      t[5] += t6 - t5;
      op_tile_free(tile);
      op_detail_free(&dm);
      op_pmesh_free(&pm);
      op_contour_set_free(&cs);
      op_regions_free(&rg);
      op_chf_free(chf);
    }
  op_mesh_free(mesh);
}

// ------------------------------------------------------------------ driver

// Ours: Mesh3DPipeline.BuildSoup; with --size the work budget is raised to its maximum
// (SPAN-200: a host raises it per build), so the big benchmark inputs are not refused.
// Single thread like Recast's side (threads 1, POLY-228) unless --threads N says otherwise,
// where the library has the option.
static bool g_big_budget = false;
static unsigned g_threads = 1;
static op_status build_ours(const Level &L, const op_pipeline_hooks *h, op_pipeline_result *res,
                            op_error *e) {
  op_build_limits lim;
  op_build_limits_default(&lim);
  if (g_big_budget) lim.max_tile_grid_cells = lim.max_tiles = lim.max_build_cells = UINT64_MAX;
#ifdef OP_PIPELINE_MAX_THREADS
  op_pipeline_options o;
  memset(&o, 0, sizeof o);
  o.limits = &lim;
  o.threads = g_threads;
  return op_pipeline_build_soup_opt(&L.s, &L.soup, &o, h, res, e);
#else
  return op_pipeline_build_soup_limited(&L.s, &L.soup, &lim, h, res, e);
#endif
}

static bool setup(Level &L, const char *name, uint32_t size, const char *preset,
                  int partition) {
  op_error e;
  L.name = name;
  L.preset = preset;
  memset(&L.m, 0, sizeof L.m);
  if (op_settings_preset(preset, &L.s, &e)) return false;
  if (!g_sampled) L.s.detail_sample_distance = 0;  // POLY-201: no sampling, no detail mesh
  if (partition >= 0) L.s.partition = (op_partition)partition;
  if (op_settings_derive(&L.s, &L.c, &e) || op_level_generate(name, 1, size, &L.s, &L.m, &e) ) {
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
    uint32_t size, quick;
  } levels[] = {{"terrain", 64, 32}, {"city", 4, 2}, {"stairs", 16, 8}, {"dungeon", 32, 16}};
  const char *presets[] = {"Humanoid", "Small"};
  const char *pnames[] = {"watershed", "monotone", "layers"};
  bool quick = false, stages = false, tsv = false;
  int reps = 3, ours_only = 0, recast_only = 0;
  uint32_t size_override = 0;
  int pfirst = 0, plast = 0;  // partitions to run
  const char *only = NULL, *only_preset = NULL;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--quick")) quick = true;
    else if (!strcmp(argv[a], "--stages")) stages = true;
    else if (!strcmp(argv[a], "--lanes")) g_lanes = true;
    else if (!strcmp(argv[a], "--sampled")) g_sampled = true;
    else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--only") && a + 1 < argc) only = argv[++a];
    else if (!strcmp(argv[a], "--preset") && a + 1 < argc) only_preset = argv[++a];
    else if (!strcmp(argv[a], "--ours-only") && a + 1 < argc) ours_only = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--recast-only") && a + 1 < argc) recast_only = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--size") && a + 1 < argc) size_override = (uint32_t)atoi(argv[++a]);
    else if (!strcmp(argv[a], "--tsv")) tsv = true;
    else if (!strcmp(argv[a], "--cpu")) g_cpu = true;
    else if (!strcmp(argv[a], "--threads") && a + 1 < argc) g_threads = (unsigned)atoi(argv[++a]);
    else if (!strcmp(argv[a], "--partition") && a + 1 < argc) {
      const char *p = argv[++a];
      if (!strcmp(p, "all")) { pfirst = 0; plast = 2; }
      else {
        int k = 0;
        while (k < 3 && strcmp(p, pnames[k])) k++;
        if (k == 3) { fprintf(stderr, "unknown partition %s\n", p); return 2; }
        pfirst = plast = k;
      }
    } else {
      fprintf(stderr, "usage: bench_bake [--quick] [--reps N] [--partition P|all] [--stages] "
                      "[--only LEVEL] [--preset P] [--ours-only N] [--recast-only N] "
                      "[--size N] [--tsv] [--cpu] [--threads N] [--lanes] [--sampled]\n");
      return 2;
    }
  }
  if (reps < 1) reps = 1;
  g_big_budget = size_override != 0;
  if (g_sampled)
    printf("BENCHMARK full bake, single thread, best of %d runs each, interleaved; "
           "the presets' DetailSampleDistance (both sides sample heights and build a detail "
           "mesh)\n", reps);
  else
    printf("BENCHMARK full bake, single thread, best of %d runs each, interleaved; "
           "DetailSampleDistance 0 (ours: no detail mesh; Recast: rcBuildPolyMeshDetail "
           "without samples)\n", reps);
  printf("| level | preset | partition | size | tiles | with polys (ours/Recast) | polys ours | "
         "polys Recast | area ours | area Recast | area diff | ours ms | Recast ms | ratio | "
         "no detail ratio | +Detour ms | ratio |\n");
  printf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  double sum_nd = 0, sum_o = 0, sum_r = 0, sum_d = 0, sum_ao = 0, sum_ar = 0;
  long sum_po = 0, sum_pr = 0;
  std::vector<std::string> stage_lines;
  for (int part = pfirst; part <= plast; part++)
    for (auto &lv : levels)
      for (const char *preset : presets) {
        if (only && strcmp(only, lv.name)) continue;
        if (only_preset && strcmp(only_preset, preset)) continue;
        Level L;
        const uint32_t lsize = size_override ? size_override : quick ? lv.quick : lv.size;
        if (!setup(L, lv.name, lsize, preset, part)) return 2;
        op_error e;
        if (recast_only > 0) {  // for a peak-RSS measurement: Recast+Detour only
          for (int r = 0; r < recast_only; r++) {
            RcStats s1;
            recast_bake(L, true, s1);
          }
          op_trimesh_free(&L.m);
          continue;
        }
        if (ours_only > 0) {  // for a profiler: ours only
          for (int r = 0; r < ours_only; r++) {
            op_pipeline_result res;
            if (build_ours(L, NULL, &res, &e)) {
              fprintf(stderr, "ours: %s\n", e.message);
              return 2;
            }
            op_pipeline_result_free(&res);
          }
          op_trimesh_free(&L.m);
          continue;
        }
        double best_o = 1e300, best_r = 1e300, best_d = 1e300;
        // One untimed run of ours with a hook that sums the polygon areas (also a warm-up);
        // then the timed runs, without hooks, interleaved with Recast's.
        OursArea oa;
        for (int k = 0; k < 3; k++) oa.origin[k] = L.origin[k];
        oa.tw = L.s.cell_size * L.s.tile_cells;
        op_pipeline_hooks h;
        memset(&h, 0, sizeof h);
        h.ud = &oa;
        h.tile = on_tile;
        op_pipeline_result keep;
        if (build_ours(L, &h, &keep, &e)) {
          fprintf(stderr, "ours %s %s: %s\n", lv.name, preset, e.message);
          return 2;
        }
        RcStats rs, rsd;
        for (int r = 0; r < reps; r++) {
          op_pipeline_result res;
          double t0 = now();
          if (build_ours(L, NULL, &res, &e)) {
            fprintf(stderr, "ours %s %s: %s\n", lv.name, preset, e.message);
            return 2;
          }
          double t1 = now();
          op_pipeline_result_free(&res);
          if (t1 - t0 < best_o) best_o = t1 - t0;
          RcStats s1, s2;
          double tr = recast_bake(L, false, s1);
          if (tr < best_r) { best_r = tr; rs = s1; }
          double td = recast_bake(L, true, s2);
          if (td < best_d) { best_d = td; rsd = s2; }
        }
        double ao = oa.area, ar = rs.area;
        printf("| %s | %s | %s | %u | %d | %u/%ld | %llu | %ld | %.1f | %.1f | %+.2f%% | %.1f | "
               "%.1f | %.2f | %.2f | %.1f | %.2f |\n",
               lv.name, preset, pnames[L.s.partition], lsize,
               L.ntx * L.ntz, keep.ntiles, rs.tiles, (unsigned long long)keep.npolys,
               rs.polys, ao, ar, ar > 0 ? 100.0 * (ao - ar) / ar : 0.0, 1e3 * best_o,
               1e3 * best_r, best_o / best_r, best_o / (best_r - rs.t[4]), 1e3 * best_d,
               best_o / best_d);
        if (g_lanes)
          for (int k = 0; k < NLANES; k++)
            printf("  lane %d, x in [%d, %d): area ours %.2f Recast %.2f\n", k, 6 * k, 6 * k + 6,
                   oa.lanes[k], rs.lanes[k]);
        if (tsv)
          printf("BAKE\t%s\t%s\t%s\t%u\t%d\t%.6f\t%.6f\n", lv.name, preset,
                 pnames[L.s.partition], lsize, L.ntx * L.ntz, best_o, best_d);
        fflush(stdout);
        sum_nd += best_r - rs.t[4];
        sum_o += best_o; sum_r += best_r; sum_d += best_d; sum_ao += ao; sum_ar += ar;
        sum_po += (long)keep.npolys; sum_pr += rs.polys;
        if (stages) {
          double best[7] = {1e300, 1e300, 1e300, 1e300, 1e300, 1e300, 1e300};
          double tot_best = 1e300;
          for (int r = 0; r < reps; r++) {
            double t[7] = {0, 0, 0, 0, 0, 0, 0};
            ours_stages(L, t);
            double tot = t[0] + t[1] + t[2] + t[3] + t[4] + t[5];
            if (tot < tot_best) { tot_best = tot; memcpy(best, t, sizeof best); }
          }
          char buf[512];
          snprintf(buf, sizeof buf,
                   "| %s | %s | %s | ours | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n"
                   "| %s | %s | %s | Recast+Detour | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |",
                   lv.name, preset, pnames[L.s.partition], 1e3 * best[0], 1e3 * best[1],
                   1e3 * best[2], 1e3 * best[3], 1e3 * best[4], 1e3 * best[5], 1e3 * tot_best,
                   lv.name, preset, pnames[L.s.partition], 1e3 * rsd.t[0], 1e3 * rsd.t[1],
                   1e3 * rsd.t[2], 1e3 * rsd.t[3], 1e3 * rsd.t[4], 1e3 * rsd.t[5],
                   1e3 * (rsd.t[0] + rsd.t[1] + rsd.t[2] + rsd.t[3] + rsd.t[4] + rsd.t[5]));
          stage_lines.push_back(buf);
        }
        op_pipeline_result_free(&keep);
        op_trimesh_free(&L.m);
      }
  if (ours_only > 0 || recast_only > 0) return 0;
  printf("| all | | | | | | %ld | %ld | %.1f | %.1f | %+.2f%% | %.1f | %.1f | %.2f | %.2f | %.1f | "
         "%.2f |\n",
         sum_po, sum_pr, sum_ao, sum_ar, sum_ar > 0 ? 100.0 * (sum_ao - sum_ar) / sum_ar : 0.0,
         1e3 * sum_o, 1e3 * sum_r, sum_o / sum_r, sum_o / sum_nd, 1e3 * sum_d, sum_o / sum_d);
  if (stages) {
    printf("\nSTAGES (ms, summed over tiles; ours: best total of %d stage-by-stage runs; "
           "Recast: the stages of its best +Detour run)\n", reps);
    printf("| level | preset | partition | builder | spans | regions | contours | polys | "
           "detail | tile+add | total |\n");
    printf("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (auto &l : stage_lines) printf("%s\n", l.c_str());
  }
  return 0;
}
