// bench_tilecache.cpp -- benchmark of the run-time tile cache (issue 6, "Speed"; the
// informative "cost of a rebuild" paragraph of spec/build3d-runtime.md section 8): our
// TileCache (op_pipeline_build_soup_cached, op_tilecache_*) against DetourTileCache
// (Debian's librecast-dev) on the same level, the same settings and the same obstacles,
// in the same run. A measurement, not a test: nothing fails when a figure moves, and it is
// not registered with ctest.
//
// Input: the levels.md generator `city` (seed 1, size 4 unless --size), preset Humanoid
// (the only preset with TileSize 64, the source's tile), PartitionType Layers,
// DetailSampleDistance 0 (no sampling: RT-080's layer-first path, POLY-201).
//
// Obstacles: 16 cylinders (radius 1.5, height 3, base at y = -0.5: they stand on the
// streets, whose floor is y = 0, and reach no roof or deck) at positions drawn with the
// kit's xoshiro generator (op_prng, seed 1): a street (one of the B + 1 along x or along
// z), a point along it and an offset across it within +-3 of its centre line (the streets
// are 8 wide, 10 between buildings). The same 16 for both builders.
//
// One cycle = add one obstacle, update until the queue is empty, remove it, update until
// the queue is empty. One sweep = the 16 obstacles in order, one cycle each. The run is
// --warmup sweeps (default 5, untimed) then --reps sweeps (default 30), each timed cycle
// by cycle, ours and Detour interleaved sweep by sweep, single thread. Reported: the
// median time per cycle (over reps x 16 cycles), the mean, and ours / Detour; then the tail
// (issue 16 item 3): p50, p90, p99 and max per cycle (nearest rank) of the wall clock and of
// the thread's CPU time (CLOCK_THREAD_CPUTIME_ID, which stops while the thread waits for a
// core: on a loaded machine the wall tail is preemption, the CPU tail is work), of the
// instructions where perf_event_open gives a hardware counter, and which obstacles the
// cycles above each p90 belong to. Where the kernel gives no counter (most VMs),
// bench/tilecache-recast/cycle_insns.sh gives the per-cycle instructions under callgrind.
//
// Ours: op_pipeline_build_soup_cached, then per cycle op_tilecache_add_obstacle,
// op_tilecache_update_all, op_tilecache_remove_obstacle, op_tilecache_update_all. The
// counters of op_tilecache_stats give the layer builds (units built or repaired) per
// cycle, the spans per layer build, the removed spans per obstacle and the share of
// repairs that fell back to a full build (RT-101 preconditions failed).
//
// Detour, per tile of the same grid (op_spans_tile_range, same tiling origin, the bordered
// tile box of op_hf_grid_tile, binary32 copies of our soup's vertices): the triangles whose
// xz box meets the tile box, rcMarkWalkableTriangles, rcRasterizeTriangles, the three
// filters, rcBuildCompactHeightfield, rcErodeWalkableArea (same cell values: CellSize,
// CellHeight, WalkableHeight/Climb/Radius, Border), rcBuildHeightfieldLayers, one
// dtTileCacheLayer per layer (dtBuildTileCacheLayer with a copying "compressor") added to a
// dtTileCache (same origin, cs, ch, tile 64, agent, MaxSimplificationError), then
// buildNavMeshTilesAt into a dtNavMesh. Per cycle: dtTileCache::addObstacle, update until
// upToDate, removeObstacle, update until upToDate. DetourTileCache marks a cylinder of
// radius r on cells whose centre is within r + 0.5 cells and does not grow it by the agent
// (its layers are already eroded); ours grows by g = WalkableRadius * CellSize (RT-020) and
// tests the cell centre against r + g (RT-021). So Detour gets radius r + g - cs / 2: both
// mark the cells whose centre lies within r + g. Detour's layer builds are counted by its
// decompress calls (one per layer rebuilt, empty or not).
//
// Build and run: scripts/bench-tilecache.sh [--size B] [--warmup N] [--reps N]
//   [--radius R] [--seed S] [--no-repair] [--per-obstacle] [--ours-only N] [--detour-only N]
//   [--skip K]
// (--per-obstacle: a row per obstacle with its median cycles and the counters of one more
// sweep.)
// (--ours-only / --detour-only N: N untimed sweeps of one side only, for perf or
// callgrind; the cycles run inside bench_cycle_ours / bench_cycle_detour. --skip K runs K
// sweeps first and then, under callgrind, zeroes its counters: the build and the K sweeps,
// which build the span graphs the repair keeps, are not counted.)
// Compiled with BENCH_TC_OURS=0 while the cache is not in the library, and with
// BENCH_TC_DETOUR=0 when librecast-dev is absent (bench/tilecache-recast/CMakeLists.txt).
#ifndef BENCH_TC_OURS
#define BENCH_TC_OURS 1
#endif
#ifndef BENCH_TC_DETOUR
#define BENCH_TC_DETOUR 1
#endif

#if BENCH_TC_DETOUR
#include <DetourAlloc.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourTileCache.h>
#include <DetourTileCacheBuilder.h>
#include <Recast.h>
#endif

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_ZERO_STATS
#define CALLGRIND_ZERO_STATS
#endif
#include <algorithm>
#include <string>
#include <vector>

extern "C" {
#include "onepath.h"
#include "onepath_build3d.h"
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// This thread's CPU time (seconds): unlike the wall clock it does not run while the thread
// waits for a core, so on a loaded machine it separates preemption from work.
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// User-space instructions retired by this thread (perf_event_open), when the kernel and
// the machine give a hardware counter (not in most VMs: then bench-tilecache/cycle_insns.sh
// gives the same distribution under callgrind). insn_fd < 0: not available.
static int insn_fd = -1;
static const char *insn_why = "not tried";
static void insn_open(void) {
#ifdef __linux__
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_HARDWARE;
  a.config = PERF_COUNT_HW_INSTRUCTIONS;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  insn_fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
  insn_why = insn_fd < 0 ? strerror(errno) : "";
#else
  insn_why = "not Linux";
#endif
}
static uint64_t insn_now(void) {
  uint64_t v = 0;
  if (insn_fd >= 0 && read(insn_fd, &v, sizeof v) != (ssize_t)sizeof v) v = 0;
  return v;
}

static void die(const char *what, const op_error &e) {
  fprintf(stderr, "bench-tilecache: %s: %s\n", what, e.message);
  exit(2);
}

// ------------------------------------------------------------------ level and obstacles

struct Level {
  op_settings s;
  op_cell_settings c;
  op_trimesh m;
  op_soup soup;
  double origin[3], ymax;
  int32_t ntx, ntz;
  std::vector<float> vf;          // binary32 vertices for Recast
  std::vector<int> tris;          // int indices for Recast
  std::vector<op_hf_grid> grids;  // per tile, tz-major
};

static void setup(Level &L, const char *preset, uint32_t size) {
  op_error e;
  memset(&L.m, 0, sizeof L.m);
  if (op_settings_preset(preset, &L.s, &e)) die("preset", e);
  L.s.partition = OP_PARTITION_LAYERS;
  L.s.detail_sample_distance = 0;  // POLY-201: no sampling; RT-080: layer-first
  if (op_settings_derive(&L.s, &L.c, &e)) die("settings", e);
  if (op_level_generate("city", 1, size, &L.s, &L.m, &e)) die("city", e);
  L.soup = op_trimesh_soup(&L.m);
  if (op_soup_frame(&L.soup, L.origin, &L.ymax, &e)) die("frame", e);
  if (op_spans_tile_range(&L.s, &L.soup, &L.ntx, &L.ntz, &e)) die("tile range", e);
  L.vf.assign(L.soup.verts, L.soup.verts + 3 * (size_t)L.soup.nverts);
  L.tris.assign(L.soup.tris, L.soup.tris + 3 * (size_t)L.soup.ntris);
  for (int32_t tz = 0; tz < L.ntz; tz++)
    for (int32_t tx = 0; tx < L.ntx; tx++) {
      op_hf_grid g;
      if (op_hf_grid_tile(&L.s, &L.c, L.origin, tx, tz, L.origin[1], L.ymax, &g, &e))
        die("grid", e);
      L.grids.push_back(g);
    }
}

struct Cyl {
  double x, y, z, r, h;
};

// The obstacles: on the streets of LVL-040 (centre lines at 24 i + 4, i = 0 .. B), drawn
// with op_prng (seed): axis, street, position along (2 .. E - 2), offset across (+-3).
static std::vector<Cyl> make_obstacles(uint32_t B, uint64_t seed, int n, double r, double h) {
  op_prng g;
  op_prng_seed(&g, seed);
  const double E = 24.0 * B + 8;
  std::vector<Cyl> v;
  for (int k = 0; k < n; k++) {
    uint64_t axis = op_prng_below(&g, 2), street = op_prng_below(&g, B + 1);
    double along = 2 + op_prng_unit(&g) * (E - 4);
    double across = 24.0 * (double)street + 4 + (op_prng_unit(&g) * 2 - 1) * 3;
    Cyl c;
    c.x = axis ? along : across;
    c.z = axis ? across : along;
    c.y = -0.5;
    c.r = r;
    c.h = h;
    v.push_back(c);
  }
  return v;
}

struct Times {
  std::vector<double> cycles;  // wall seconds, one per measured cycle
  std::vector<double> cpu;     // this thread's CPU seconds, the same cycles
  std::vector<double> insns;   // user-space instructions, the same cycles (when available)
  double t0, c0;
  uint64_t i0;
  void start() {
    i0 = insn_now();
    c0 = cpu_now();
    t0 = now();
  }
  void stop() {
    double t1 = now(), c1 = cpu_now();
    uint64_t i1 = insn_now();
    cycles.push_back(t1 - t0);
    cpu.push_back(c1 - c0);
    if (insn_fd >= 0) insns.push_back((double)(i1 - i0));
  }
};

static double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
// The sums of consecutive groups of n cycles (one sweep each).
static std::vector<double> sweeps(const std::vector<double> &c, int n) {
  std::vector<double> out;
  for (size_t i = 0; i + (size_t)n <= c.size(); i += (size_t)n) {
    double s = 0;
    for (int k = 0; k < n; k++) s += c[i + (size_t)k];
    out.push_back(s);
  }
  return out;
}
// Per obstacle k, the median over the sweeps of cycle k; their mean (a sweep's typical cost
// per cycle, robust to a loaded machine).
static double obstacle_medians_mean(const std::vector<double> &c, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) {
    std::vector<double> v;
    for (size_t i = (size_t)k; i < c.size(); i += (size_t)n) v.push_back(c[i]);
    s += median(v);
  }
  return n ? s / n : 0;
}
// The q-quantile by nearest rank: the smallest sample with at least q of the samples at or
// below it (q = 1: the maximum). p50 is thus the lower middle, where median() averages the
// two middle samples.
static double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t r = (size_t)ceil(q * (double)v.size());
  return v[r ? r - 1 : 0];
}
static double min_of(const std::vector<double> &v) {
  double m = v.empty() ? 0 : v[0];
  for (double x : v) m = std::min(m, x);
  return m;
}
static double mean(const std::vector<double> &v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / (double)v.size();
}

// ------------------------------------------------------------------ walkable area

// Walkable area (sum over polygons of their xz area) of a plain build of the level with
// the given obstacles in Mesh3DPipeline.Obstacles: by RT-027 the mesh a cache gives once
// they are added and the queue is empty. Needs no cache (so it runs before one links).
static void on_tile_area(void *ud, int32_t, int32_t, const op_tile *t) {
  op_tile_desc v;
  op_tile_view(t, &v);
  double *area = (double *)ud;
  for (uint32_t p = 0; p < v.npolys; p++) {
    const op_poly_desc &pd = v.polys[p];
    double s = 0;
    for (uint32_t i = 0; i < pd.nverts; i++) {
      const float *a0 = &v.verts[3 * pd.verts[i]];
      const float *a1 = &v.verts[3 * pd.verts[(i + 1) % pd.nverts]];
      s += (double)a0[0] * (double)a1[2] - (double)a1[0] * (double)a0[2];
    }
    *area += fabs(s) * 0.5;
  }
}

static double ours_area(const Level &L, const std::vector<op_obstacle> &obs) {
  op_settings s = L.s;
  s.nobstacles = (uint32_t)obs.size();
  s.obstacles = obs.empty() ? NULL : obs.data();
  double area = 0;
  op_pipeline_hooks h;
  memset(&h, 0, sizeof h);
  h.ud = &area;
  h.tile = on_tile_area;
  op_pipeline_result r;
  op_error e;
  if (op_pipeline_build_soup(&s, &L.soup, &h, &r, &e)) die("ours: plain build", e);
  op_pipeline_result_free(&r);
  return area;
}

// ------------------------------------------------------------------ ours

#if BENCH_TC_OURS
struct Ours {
  op_tilecache *cache = NULL;
  op_pipeline_result res;
  double build_s = 0;
};

static void ours_build(Ours &O, const Level &L, bool repair) {
  op_error e;
  double t0 = now();
  if (op_pipeline_build_soup_cached(&L.s, &L.soup, NULL, &O.res, &O.cache, &e))
    die("ours: cached build", e);
  O.build_s = now() - t0;
  op_tilecache_set_repair(O.cache, repair ? 1 : 0);
}

// One cycle: add, update all, remove, update all (kept out of line for profilers).
__attribute__((noinline)) void bench_cycle_ours(op_tilecache *c, const op_obstacle *o) {
  op_error e;
  uint32_t id = 0;
  if (op_tilecache_add_obstacle(c, o, &id, &e)) die("ours: add", e);
  if (op_tilecache_update_all(c, NULL, &e)) die("ours: update", e);
  if (op_tilecache_remove_obstacle(c, id, &e)) die("ours: remove", e);
  if (op_tilecache_update_all(c, NULL, &e)) die("ours: update", e);
}

static void ours_sweep(Ours &O, const std::vector<op_obstacle> &obs, Times *t) {
  for (const op_obstacle &o : obs) {
    if (t) t->start();
    bench_cycle_ours(O.cache, &o);
    if (t) t->stop();
  }
}

static void ours_free(Ours &O) {
  op_tilecache_free(O.cache);
  op_pipeline_result_free(&O.res);
}
#endif

// ------------------------------------------------------------------ DetourTileCache

#if BENCH_TC_DETOUR
// The temporary allocator of Recast's own TempObstacles sample: a bump allocator reset
// before each layer build.
struct LinearAlloc : public dtTileCacheAlloc {
  unsigned char *buf;
  size_t cap, top = 0;
  explicit LinearAlloc(size_t c) : buf((unsigned char *)dtAlloc(c, DT_ALLOC_PERM)), cap(c) {}
  ~LinearAlloc() { dtFree(buf); }
  void reset() override { top = 0; }
  void *alloc(const size_t size) override {
    size_t a = (top + 15) & ~(size_t)15;
    if (a + size > cap) return NULL;
    top = a + size;
    return buf + a;
  }
  void free(void *) override {}
};

// A "compressor" that copies; it counts decompressions (= layer builds) and, when asked,
// the walkable cells of each layer it hands out.
struct CopyCompressor : public dtTileCacheCompressor {
  uint64_t decompressions = 0, cells = 0;
  bool count_cells = false;
  int maxCompressedSize(const int n) override { return n; }
  dtStatus compress(const unsigned char *b, const int n, unsigned char *out, const int max,
                    int *outn) override {
    if (n > max) return DT_FAILURE | DT_BUFFER_TOO_SMALL;
    memcpy(out, b, (size_t)n);
    *outn = n;
    return DT_SUCCESS;
  }
  dtStatus decompress(const unsigned char *c, const int n, unsigned char *out, const int max,
                      int *outn) override {
    if (n > max) return DT_FAILURE | DT_BUFFER_TOO_SMALL;
    memcpy(out, c, (size_t)n);
    *outn = n;
    decompressions++;
    if (count_cells) {  // layout of dtBuildTileCacheLayer: heights, areas, cons
      int cells_n = n / 3;
      for (int i = 0; i < cells_n; i++) cells += out[cells_n + i] != DT_TILECACHE_NULL_AREA;
    }
    return DT_SUCCESS;
  }
};

struct FlagsProcess : public dtTileCacheMeshProcess {
  void process(dtNavMeshCreateParams *p, unsigned char *, unsigned short *flags) override {
    for (int i = 0; i < p->polyCount; i++) flags[i] = 1;
  }
};

struct Detour {
  LinearAlloc talloc{1 << 20};
  CopyCompressor comp;
  FlagsProcess proc;
  dtTileCache *tc = NULL;
  dtNavMesh *nav = NULL;
  int nlayers = 0;
  double build_s = 0;
};

static int next_pow2(int v) {
  int p = 1;
  while (p < v) p <<= 1;
  return p;
}

// The layers of one tile (rasterization as bench/bake-recast, then rcBuildHeightfieldLayers).
static void detour_tile_layers(const Level &L, int tx, int tz, rcContext &ctx,
                               std::vector<int> &sel, std::vector<unsigned char> &areas,
                               std::vector<std::pair<unsigned char *, int>> &out) {
  const op_hf_grid &g = L.grids[(size_t)tz * L.ntx + tx];
  const op_settings &s = L.s;
  const op_cell_settings &c = L.c;
  float bmin[3], bmax[3];
  bmin[0] = (float)(g.origin[0] + (double)g.gx0 * g.cs);
  bmin[1] = (float)g.origin[1];
  bmin[2] = (float)(g.origin[2] + (double)g.gz0 * g.cs);
  bmax[0] = (float)(g.origin[0] + (double)(g.gx0 + g.width) * g.cs);
  bmax[1] = (float)L.ymax;
  bmax[2] = (float)(g.origin[2] + (double)(g.gz0 + g.depth) * g.cs);
  const int ntris_all = (int)(L.tris.size() / 3), nv = (int)(L.vf.size() / 3);
  sel.clear();
  for (int t = 0; t < ntris_all; t++) {
    const float *a = &L.vf[3 * L.tris[3 * t]], *b = &L.vf[3 * L.tris[3 * t + 1]],
                *d = &L.vf[3 * L.tris[3 * t + 2]];
    float mnx = fminf(a[0], fminf(b[0], d[0])), mxx = fmaxf(a[0], fmaxf(b[0], d[0]));
    float mnz = fminf(a[2], fminf(b[2], d[2])), mxz = fmaxf(a[2], fmaxf(b[2], d[2]));
    if (mxx < bmin[0] || mnx > bmax[0] || mxz < bmin[2] || mnz > bmax[2]) continue;
    sel.insert(sel.end(), &L.tris[3 * t], &L.tris[3 * t] + 3);
  }
  int nt = (int)(sel.size() / 3);
  if (!nt) return;
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
  rcHeightfieldLayerSet *lset = rcAllocHeightfieldLayerSet();
  if (!rcBuildHeightfieldLayers(&ctx, *chf, c.border, c.walkable_height, *lset)) {
    fprintf(stderr, "bench-tilecache: rcBuildHeightfieldLayers failed on tile (%d,%d)\n", tx, tz);
    exit(2);
  }
  rcFreeCompactHeightfield(chf);
  for (int i = 0; i < lset->nlayers; i++) {
    const rcHeightfieldLayer &ly = lset->layers[i];
    dtTileCacheLayerHeader h;
    memset(&h, 0, sizeof h);
    h.magic = DT_TILECACHE_MAGIC;
    h.version = DT_TILECACHE_VERSION;
    h.tx = tx;
    h.ty = tz;
    h.tlayer = i;
    rcVcopy(h.bmin, ly.bmin);
    rcVcopy(h.bmax, ly.bmax);
    h.width = (unsigned char)ly.width;
    h.height = (unsigned char)ly.height;
    h.minx = (unsigned char)ly.minx;
    h.maxx = (unsigned char)ly.maxx;
    h.miny = (unsigned char)ly.miny;
    h.maxy = (unsigned char)ly.maxy;
    h.hmin = (unsigned short)ly.hmin;
    h.hmax = (unsigned short)ly.hmax;
    CopyCompressor cc;
    unsigned char *data = NULL;
    int size = 0;
    if (dtStatusFailed(dtBuildTileCacheLayer(&cc, &h, ly.heights, ly.areas, ly.cons, &data,
                                             &size))) {
      fprintf(stderr, "bench-tilecache: dtBuildTileCacheLayer failed\n");
      exit(2);
    }
    out.push_back(std::make_pair(data, size));
  }
  rcFreeHeightfieldLayerSet(lset);
}

static void detour_build(Detour &D, const Level &L) {
  rcContext ctx(false);
  double t0 = now();
  std::vector<int> sel;
  std::vector<unsigned char> areas;
  std::vector<std::pair<unsigned char *, int>> layers;
  for (int tz = 0; tz < L.ntz; tz++)
    for (int tx = 0; tx < L.ntx; tx++) detour_tile_layers(L, tx, tz, ctx, sel, areas, layers);
  D.nlayers = (int)layers.size();
  const int ntiles = next_pow2(std::max(D.nlayers, 1));
  dtTileCacheParams tp;
  memset(&tp, 0, sizeof tp);
  for (int k = 0; k < 3; k++) tp.orig[k] = (float)L.origin[k];
  tp.cs = (float)L.s.cell_size;
  tp.ch = (float)L.s.cell_height;
  tp.width = tp.height = (int)L.s.tile_cells;
  tp.walkableHeight = (float)L.s.agent_height;
  tp.walkableRadius = (float)L.s.agent_radius;
  tp.walkableClimb = (float)L.s.agent_climb;
  tp.maxSimplificationError = (float)L.s.max_simplification_error;
  tp.maxTiles = ntiles;
  tp.maxObstacles = 128;
  D.tc = dtAllocTileCache();
  if (dtStatusFailed(D.tc->init(&tp, &D.talloc, &D.comp, &D.proc))) {
    fprintf(stderr, "bench-tilecache: dtTileCache init failed\n");
    exit(2);
  }
  dtNavMeshParams np;
  memset(&np, 0, sizeof np);
  for (int k = 0; k < 3; k++) np.orig[k] = (float)L.origin[k];
  np.tileWidth = np.tileHeight = (float)(L.s.cell_size * L.s.tile_cells);
  int bits = 0;
  while ((1 << bits) < ntiles) bits++;
  if (bits > 14) bits = 14;
  np.maxTiles = 1 << bits;
  np.maxPolys = 1 << (22 - bits);
  D.nav = dtAllocNavMesh();
  if (dtStatusFailed(D.nav->init(&np))) {
    fprintf(stderr, "bench-tilecache: dtNavMesh init failed\n");
    exit(2);
  }
  for (auto &l : layers)
    if (dtStatusFailed(D.tc->addTile(l.first, l.second, DT_COMPRESSEDTILE_FREE_DATA, NULL))) {
      fprintf(stderr, "bench-tilecache: dtTileCache addTile failed\n");
      exit(2);
    }
  for (int tz = 0; tz < L.ntz; tz++)
    for (int tx = 0; tx < L.ntx; tx++)
      if (dtStatusFailed(D.tc->buildNavMeshTilesAt(tx, tz, D.nav))) {
        fprintf(stderr, "bench-tilecache: buildNavMeshTilesAt (%d,%d) failed\n", tx, tz);
        exit(2);
      }
  D.build_s = now() - t0;
}

static void detour_update(Detour &D) {
  bool up = false;
  for (int guard = 0; !up; guard++) {
    if (dtStatusFailed(D.tc->update(0, D.nav, &up)) || guard > 100000) {
      fprintf(stderr, "bench-tilecache: dtTileCache update failed\n");
      exit(2);
    }
  }
}

__attribute__((noinline)) void bench_cycle_detour(Detour &D, const float pos[3], float r,
                                                  float h) {
  dtObstacleRef ref = 0;
  if (dtStatusFailed(D.tc->addObstacle(pos, r, h, &ref))) {
    fprintf(stderr, "bench-tilecache: addObstacle failed\n");
    exit(2);
  }
  detour_update(D);
  if (dtStatusFailed(D.tc->removeObstacle(ref))) {
    fprintf(stderr, "bench-tilecache: removeObstacle failed\n");
    exit(2);
  }
  detour_update(D);
}

struct DtObs {
  float pos[3], r, h;
};

static void detour_sweep(Detour &D, const std::vector<DtObs> &obs, Times *t) {
  for (const DtObs &o : obs) {
    if (t) t->start();
    bench_cycle_detour(D, o.pos, o.r, o.h);
    if (t) t->stop();
  }
}

static void detour_mesh_counts(const Detour &D, int *tiles, long *polys) {
  *tiles = 0;
  *polys = 0;
  const dtNavMesh *nav = D.nav;
  for (int i = 0; i < nav->getMaxTiles(); i++) {
    const dtMeshTile *t = nav->getTile(i);
    if (!t || !t->header) continue;
    (*tiles)++;
    *polys += t->header->polyCount;
  }
}

static double detour_area(const Detour &D) {
  double area = 0;
  const dtNavMesh *nav = D.nav;
  for (int i = 0; i < nav->getMaxTiles(); i++) {
    const dtMeshTile *t = nav->getTile(i);
    if (!t || !t->header) continue;
    for (int p = 0; p < t->header->polyCount; p++) {
      const dtPoly &pl = t->polys[p];
      double s = 0;
      for (int k = 0; k < pl.vertCount; k++) {
        const float *a0 = &t->verts[3 * pl.verts[k]];
        const float *a1 = &t->verts[3 * pl.verts[(k + 1) % pl.vertCount]];
        s += (double)a0[0] * (double)a1[2] - (double)a1[0] * (double)a0[2];
      }
      area += fabs(s) * 0.5;
    }
  }
  return area;
}

// The walkable area with all obstacles in place, then every obstacle removed again.
static double detour_area_with(Detour &D, const std::vector<DtObs> &obs) {
  std::vector<dtObstacleRef> refs;
  for (const DtObs &o : obs) {
    dtObstacleRef ref = 0;
    if (dtStatusFailed(D.tc->addObstacle(o.pos, o.r, o.h, &ref))) {
      fprintf(stderr, "bench-tilecache: addObstacle failed\n");
      exit(2);
    }
    refs.push_back(ref);
  }
  detour_update(D);
  double a = detour_area(D);
  for (dtObstacleRef r : refs) D.tc->removeObstacle(r);
  detour_update(D);
  return a;
}

static void detour_free(Detour &D) {
  dtFreeTileCache(D.tc);
  dtFreeNavMesh(D.nav);
}
#endif

// ------------------------------------------------------------------ driver

int main(int argc, char **argv) {
  uint32_t size = 4;
  int warmup = 5, reps = 30, ours_only = 0, detour_only = 0, nobs = 16, skip = 0;
  double radius = 1.5, height = 3.0;
  uint64_t seed = 1;
  bool repair = true, per_obstacle = false;
  const char *preset = "Humanoid";
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--size") && a + 1 < argc) size = (uint32_t)atoi(argv[++a]);
    else if (!strcmp(argv[a], "--warmup") && a + 1 < argc) warmup = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--radius") && a + 1 < argc) radius = atof(argv[++a]);
    else if (!strcmp(argv[a], "--seed") && a + 1 < argc) seed = strtoull(argv[++a], NULL, 10);
    else if (!strcmp(argv[a], "--preset") && a + 1 < argc) preset = argv[++a];
    else if (!strcmp(argv[a], "--no-repair")) repair = false;
    else if (!strcmp(argv[a], "--per-obstacle")) per_obstacle = true;
    else if (!strcmp(argv[a], "--ours-only") && a + 1 < argc) ours_only = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--detour-only") && a + 1 < argc) detour_only = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--skip") && a + 1 < argc) skip = atoi(argv[++a]);
    else {
      fprintf(stderr, "usage: bench_tilecache [--size B] [--warmup N] [--reps N] [--radius R] "
                      "[--seed S] [--preset P] [--no-repair] [--per-obstacle] "
                      "[--ours-only N] [--detour-only N] [--skip N]\n");
      return 2;
    }
  }
  if (reps < 1) reps = 1;
  if (warmup < 0) warmup = 0;
  Level L;
  setup(L, preset, size);
  std::vector<Cyl> cyl = make_obstacles(size, seed, nobs, radius, height);
  const double g = (double)L.c.walkable_radius * L.s.cell_size;  // RT-020

  printf("BENCHMARK tile cache: city %u (seed 1), preset %s (TileSize %u, cs %g, ch %g), "
         "Layers, DetailSampleDistance 0; %d tiles; %d cylinders r %g h %g (grown by %g), "
         "placement seed %llu; %d warm-up + %d measured sweeps of %d cycles "
         "(add, update all, remove, update all), single thread\n",
         size, preset, L.s.tile_cells, L.s.cell_size, L.s.cell_height, L.ntx * L.ntz, nobs,
         radius, height, g, (unsigned long long)seed, warmup, reps, nobs);
  printf("obstacle centres (x, z):");
  for (const Cyl &c : cyl) printf(" (%.2f, %.2f)", c.x, c.z);
  printf("\n");

#if BENCH_TC_OURS
  std::vector<op_obstacle> ours_obs;
  for (const Cyl &c : cyl) {
    op_obstacle o;
    memset(&o, 0, sizeof o);
    o.shape = OP_OBSTACLE_CYLINDER;
    o.center[0] = c.x;
    o.center[1] = c.y;
    o.center[2] = c.z;
    o.radius = c.r;
    o.height = c.h;
    ours_obs.push_back(o);
  }
  Ours O;
  if (!detour_only) ours_build(O, L, repair);
#else
  printf("ours: the tile cache (op_tilecache_*) is not in this build of libonepath; "
         "Detour side only\n");
  (void)repair;
  if (ours_only) return 0;
#endif
#if BENCH_TC_DETOUR
  std::vector<DtObs> dt_obs;
  for (const Cyl &c : cyl) {
    DtObs o;
    o.pos[0] = (float)c.x;
    o.pos[1] = (float)c.y;
    o.pos[2] = (float)c.z;
    o.r = (float)(c.r + g - 0.5 * L.s.cell_size);
    o.h = (float)c.h;
    dt_obs.push_back(o);
  }
  Detour D;
  if (!ours_only) detour_build(D, L);
#else
  printf("Detour: librecast-dev (DetourTileCache) not found at configure time; ours only\n");
  if (detour_only) return 0;
#endif

  // Profiler modes: one side only, untimed.
#if BENCH_TC_OURS
  if (ours_only) {
    for (int r = 0; r < skip; r++) ours_sweep(O, ours_obs, NULL);
    if (skip) CALLGRIND_ZERO_STATS;  // under callgrind: the build and the --skip sweeps not counted
    for (int r = 0; r < ours_only; r++) ours_sweep(O, ours_obs, NULL);
    ours_free(O);
    op_trimesh_free(&L.m);
    return 0;
  }
#endif
#if BENCH_TC_DETOUR
  if (detour_only) {
    for (int r = 0; r < skip; r++) detour_sweep(D, dt_obs, NULL);
    if (skip) CALLGRIND_ZERO_STATS;
    for (int r = 0; r < detour_only; r++) detour_sweep(D, dt_obs, NULL);
    detour_free(D);
    op_trimesh_free(&L.m);
    return 0;
  }
#endif

  // Untimed check that both builders take the same walkable area away: the area of the
  // mesh without obstacles and with all of them in place.
  {
    std::vector<op_obstacle> none, all;
    for (const Cyl &c : cyl) {
      op_obstacle o;
      memset(&o, 0, sizeof o);
      o.shape = OP_OBSTACLE_CYLINDER;
      o.center[0] = c.x;
      o.center[1] = c.y;
      o.center[2] = c.z;
      o.radius = c.r;
      o.height = c.h;
      all.push_back(o);
    }
    double a0 = ours_area(L, none), a1 = ours_area(L, all);
    printf("walkable area (sum of polygon xz areas): ours %.1f, with the %d obstacles %.1f "
           "(-%.1f)", a0, nobs, a1, a0 - a1);
#if BENCH_TC_DETOUR
    double d0 = detour_area(D), d1 = detour_area_with(D, dt_obs), d2 = detour_area(D);
    printf("; Detour %.1f, with the obstacles %.1f (-%.1f)%s", d0, d1, d0 - d1,
           d2 == d0 ? "" : " (NOT restored after removing them)");
#endif
    printf("; a cylinder's grown footprint is %.1f\n", M_PI * (radius + g) * (radius + g));
  }

  Times to, td;
  insn_open();
#if BENCH_TC_DETOUR
  D.comp.count_cells = true;  // the first warm-up sweep counts Detour's cells (untimed)
  uint64_t dec0 = D.comp.decompressions;
  detour_sweep(D, dt_obs, NULL);
  D.comp.count_cells = false;
  double dt_cells_per_build =
      D.comp.decompressions > dec0 ? (double)D.comp.cells / (double)(D.comp.decompressions - dec0)
                                   : 0;
#endif
#if BENCH_TC_OURS
  ours_sweep(O, ours_obs, NULL);
#endif
  for (int w = 1; w < warmup; w++) {
#if BENCH_TC_OURS
    ours_sweep(O, ours_obs, NULL);
#endif
#if BENCH_TC_DETOUR
    detour_sweep(D, dt_obs, NULL);
#endif
  }
#if BENCH_TC_OURS
  op_tilecache_stats_reset(O.cache);
#endif
#if BENCH_TC_DETOUR
  uint64_t dec_start = D.comp.decompressions;
#endif
  for (int r = 0; r < reps; r++) {
#if BENCH_TC_OURS
    ours_sweep(O, ours_obs, &to);
#endif
#if BENCH_TC_DETOUR
    detour_sweep(D, dt_obs, &td);
#endif
  }
  const double ncycles = (double)reps * nobs;

  printf("| builder | build ms | tiles in mesh | polys | median us/cycle | mean us/cycle | "
         "layer builds/cycle | spans/layer build | removed spans/obstacle | "
         "repair fallbacks |\n");
  printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
#if BENCH_TC_OURS
  op_tilecache_stats st;
  op_tilecache_stats_get(O.cache, &st);
  double builds = (double)(st.units_built + st.units_repaired);
  double tries = (double)(st.units_repaired + st.repair_fallbacks);
  printf("| ours%s | %.1f | %u | %llu | %.1f | %.1f | %.2f | %.0f | %.1f | %.1f%% (%llu of %llu) |\n",
         repair ? "" : " (repair off)", 1e3 * O.build_s, O.res.ntiles,
         (unsigned long long)O.res.npolys, 1e6 * median(to.cycles), 1e6 * mean(to.cycles),
         builds / ncycles, builds > 0 ? (double)st.spans_built / builds : 0.0,
         (double)st.spans_removed / ncycles, tries > 0 ? 100.0 * st.repair_fallbacks / tries : 0.0,
         (unsigned long long)st.repair_fallbacks, (unsigned long long)tries);
#endif
#if BENCH_TC_DETOUR
  int dtiles;
  long dpolys;
  detour_mesh_counts(D, &dtiles, &dpolys);
  printf("| DetourTileCache | %.1f | %d | %ld | %.1f | %.1f | %.2f | %.0f (walkable cells) | n/a | "
         "n/a |\n",
         1e3 * D.build_s, dtiles, dpolys, 1e6 * median(td.cycles), 1e6 * mean(td.cycles),
         (double)(D.comp.decompressions - dec_start) / ncycles, dt_cells_per_build);
  printf("Detour: %d layers in its tile cache (%.2f per tile)\n", D.nlayers,
         (double)D.nlayers / (L.ntx * L.ntz));
#endif
#if BENCH_TC_OURS
  printf("ours: per cycle %.2f units processed (built %.2f, repaired %.2f, first-build reuse %.2f, "
         "unchanged %.2f); tiles processed %.2f; mesh swaps kept %.2f replaced %.2f added %.2f "
         "removed %.2f\n",
         (double)(st.units_built + st.units_repaired + st.units_first + st.units_skipped) / ncycles,
         (double)st.units_built / ncycles, (double)st.units_repaired / ncycles,
         (double)st.units_first / ncycles, (double)st.units_skipped / ncycles,
         (double)st.tiles_processed / ncycles, (double)st.tiles_kept / ncycles,
         (double)st.tiles_replaced / ncycles, (double)st.tiles_added / ncycles,
         (double)st.tiles_removed / ncycles);
  if (builds > 0)
    printf("ours: removed spans per layer build %.1f\n", (double)st.spans_removed / builds);
  // op_tilecache_stats' fallback counters by reason: the first precondition of RT-101 that
  // failed (they add up to repair_fallbacks).
  printf("ours: repair fallbacks by reason (RT-101): (a) not a removal %llu, (b) region too "
         "small %llu, (c) region may split %llu, (d) renumbering %llu; total %llu\n",
         (unsigned long long)st.fallbacks_not_removal, (unsigned long long)st.fallbacks_small,
         (unsigned long long)st.fallbacks_split, (unsigned long long)st.fallbacks_renumber,
         (unsigned long long)st.repair_fallbacks);
#endif
  printf("per cycle, the mean over the %d obstacles of each one's median cycle:", nobs);
#if BENCH_TC_OURS
  printf(" ours %.1f us", 1e6 * obstacle_medians_mean(to.cycles, nobs));
#endif
#if BENCH_TC_DETOUR
  printf(" Detour %.1f us", 1e6 * obstacle_medians_mean(td.cycles, nobs));
#endif
  printf("\nper sweep (%d cycles), median and best of %d:", nobs, reps);
#if BENCH_TC_OURS
  printf(" ours %.3f / %.3f ms", 1e3 * median(sweeps(to.cycles, nobs)),
         1e3 * min_of(sweeps(to.cycles, nobs)));
#endif
#if BENCH_TC_DETOUR
  printf(" Detour %.3f / %.3f ms", 1e3 * median(sweeps(td.cycles, nobs)),
         1e3 * min_of(sweeps(td.cycles, nobs)));
#endif
  printf("\n");
#if BENCH_TC_OURS && BENCH_TC_DETOUR
  printf("ratio ours / Detour: median per cycle %.2f; mean of per-obstacle medians %.2f; "
         "best sweep %.2f; mean per cycle %.2f\n",
         median(to.cycles) / median(td.cycles),
         obstacle_medians_mean(to.cycles, nobs) / obstacle_medians_mean(td.cycles, nobs),
         min_of(sweeps(to.cycles, nobs)) / min_of(sweeps(td.cycles, nobs)),
         mean(to.cycles) / mean(td.cycles));
#endif
  // The tail: per-cycle quantiles of the wall clock, of this thread's CPU time (which does
  // not run while the thread waits for a core) and, where the machine counts them, of the
  // instructions; then which obstacles the cycles above each p90 belong to (one obstacle
  // again and again: its work; spread over all: the machine).
  printf("\nPER-CYCLE DISTRIBUTION (%d measured cycles each; pNN by nearest rank; instructions "
         "%s%s)\n",
         (int)ncycles, insn_fd >= 0 ? "from perf_event_open" : "not counted here: ",
         insn_fd >= 0 ? "" : insn_why);
  printf("| builder | measure | p50 | p90 | p99 | max | mean | mean / p50 |\n");
  printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
  struct Row {
    const char *who, *what;
    const std::vector<double> *v;
    double scale;
  };
  std::vector<Row> rows;
#if BENCH_TC_OURS
  rows.push_back({"ours", "wall us", &to.cycles, 1e6});
  rows.push_back({"ours", "CPU us", &to.cpu, 1e6});
  if (!to.insns.empty()) rows.push_back({"ours", "k instructions", &to.insns, 1e-3});
#endif
#if BENCH_TC_DETOUR
  rows.push_back({"DetourTileCache", "wall us", &td.cycles, 1e6});
  rows.push_back({"DetourTileCache", "CPU us", &td.cpu, 1e6});
  if (!td.insns.empty()) rows.push_back({"DetourTileCache", "k instructions", &td.insns, 1e-3});
#endif
  for (const Row &r : rows) {
    double p50 = quantile(*r.v, 0.5);
    printf("| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f |\n", r.who, r.what,
           r.scale * p50, r.scale * quantile(*r.v, 0.9), r.scale * quantile(*r.v, 0.99),
           r.scale * quantile(*r.v, 1.0), r.scale * mean(*r.v),
           p50 > 0 ? mean(*r.v) / p50 : 0.0);
  }
#if BENCH_TC_OURS && BENCH_TC_DETOUR
  printf("ratio ours / Detour by quantile: wall p50 %.2f p90 %.2f p99 %.2f max %.2f; "
         "CPU p50 %.2f p90 %.2f p99 %.2f max %.2f\n",
         quantile(to.cycles, 0.5) / quantile(td.cycles, 0.5),
         quantile(to.cycles, 0.9) / quantile(td.cycles, 0.9),
         quantile(to.cycles, 0.99) / quantile(td.cycles, 0.99),
         quantile(to.cycles, 1.0) / quantile(td.cycles, 1.0),
         quantile(to.cpu, 0.5) / quantile(td.cpu, 0.5), quantile(to.cpu, 0.9) / quantile(td.cpu, 0.9),
         quantile(to.cpu, 0.99) / quantile(td.cpu, 0.99),
         quantile(to.cpu, 1.0) / quantile(td.cpu, 1.0));
#endif
  for (const Row &r : rows) {
    double p90 = quantile(*r.v, 0.9);
    std::vector<int> by(nobs, 0);
    int above = 0;
    for (size_t i = 0; i < r.v->size(); i++)
      if ((*r.v)[i] > p90) by[i % (size_t)nobs]++, above++;
    printf("%s, %s above p90 (%.1f): %d cycles; by obstacle k:", r.who, r.what, r.scale * p90,
           above);
    for (int k = 0; k < nobs; k++)
      if (by[(size_t)k]) printf(" %d:%d", k, by[(size_t)k]);
    printf("\n");
  }

  if (per_obstacle) {
    // One more untimed sweep per builder, obstacle by obstacle, with the counters of each
    // cycle; times are the medians of the measured sweeps.
    printf("\nPER OBSTACLE (times: median of the measured cycles; counters: one more sweep)\n");
    printf("| k | x | z | ours us | Detour us | ours layer builds | repaired | fallbacks "
           "(a/b/c/d) | removed spans | unchanged units | Detour layer builds |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < nobs; k++) {
      double mo = 0, md = 0;
      std::vector<double> v;
      (void)v;
      printf("| %d | %.2f | %.2f |", k, cyl[(size_t)k].x, cyl[(size_t)k].z);
#if BENCH_TC_OURS
      for (size_t i = (size_t)k; i < to.cycles.size(); i += (size_t)nobs) v.push_back(to.cycles[i]);
      mo = median(v);
      v.clear();
#endif
#if BENCH_TC_DETOUR
      for (size_t i = (size_t)k; i < td.cycles.size(); i += (size_t)nobs) v.push_back(td.cycles[i]);
      md = median(v);
#endif
      printf(" %.1f | %.1f |", 1e6 * mo, 1e6 * md);
#if BENCH_TC_OURS
      op_tilecache_stats a, b;
      op_tilecache_stats_get(O.cache, &a);
      bench_cycle_ours(O.cache, &ours_obs[(size_t)k]);
      op_tilecache_stats_get(O.cache, &b);
      printf(" %llu | %llu | %llu (%llu/%llu/%llu/%llu) | %llu | %llu |",
             (unsigned long long)(b.units_built + b.units_repaired - a.units_built - a.units_repaired),
             (unsigned long long)(b.units_repaired - a.units_repaired),
             (unsigned long long)(b.repair_fallbacks - a.repair_fallbacks),
             (unsigned long long)(b.fallbacks_not_removal - a.fallbacks_not_removal),
             (unsigned long long)(b.fallbacks_small - a.fallbacks_small),
             (unsigned long long)(b.fallbacks_split - a.fallbacks_split),
             (unsigned long long)(b.fallbacks_renumber - a.fallbacks_renumber),
             (unsigned long long)(b.spans_removed - a.spans_removed),
             (unsigned long long)(b.units_skipped - a.units_skipped));
#else
      printf(" | | | | |");
#endif
#if BENCH_TC_DETOUR
      uint64_t d0 = D.comp.decompressions;
      bench_cycle_detour(D, dt_obs[(size_t)k].pos, dt_obs[(size_t)k].r, dt_obs[(size_t)k].h);
      printf(" %llu |\n", (unsigned long long)(D.comp.decompressions - d0));
#else
      printf(" |\n");
#endif
    }
  }
#if BENCH_TC_OURS
  ours_free(O);
#endif
#if BENCH_TC_DETOUR
  detour_free(D);
#endif
  op_trimesh_free(&L.m);
  return 0;
}
