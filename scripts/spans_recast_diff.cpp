// spans_recast_diff.cpp -- differential check and benchmark of the span stages
// (spec/build3d-spans.md sections 3 to 7) against Recast (Debian's librecast-dev).
//
// For each generated level and preset, every tile of the level's tiling is built twice:
// by op_spans_build_tile, and by Recast with the same cell values (rcMarkWalkableTriangles,
// rcRasterizeTriangles, the three filters, rcBuildCompactHeightfield, rcErodeWalkableArea)
// on the same bordered tile box. It reports how many open spans agree (same column, floor,
// clearance, links), how many walkable cells agree after erosion, and the time of both.
// It ends with a benchmark table (docs/benchmarks.md, "Spans (issue 3)"): per level and
// preset the tiles, the open spans and the open spans per second of both builders, each
// tile timed as the fastest of BENCH_REPEAT runs (default 3), single thread.
// Recast computes in binary32 and we in binary64 with exact clipping rules, so a few spans
// may differ where a rounding decides; the report counts them.
//
// Build and run: scripts/spans-recast-diff.sh (skips when librecast is absent).
#include <Recast.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <string>
#include <vector>

extern "C" {
#include "onepath_build3d.h"
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct Totals {
  long tiles = 0, built = 0, tiles_both = 0, tiles_only_ours = 0, tiles_only_rc = 0;
  long ours_spans = 0, rc_spans = 0, same_spans = 0, cols = 0, cols_differ = 0;
  long ours_walk = 0, rc_walk = 0, walk_same_cells = 0, walk_cells_differ = 0;
  long in_cols = 0, in_cols_differ = 0, in_walk_differ = 0; // the tile's own cells (no border)
  double t_ours = 0, t_rc = 0;
};

static rcCompactHeightfield *recast_tile(const op_settings &s, const op_cell_settings &c,
                                         const op_hf_grid &g, const std::vector<float> &v,
                                         const std::vector<int> &tris, double ymax) {
  rcContext ctx(false);
  float bmin[3], bmax[3];
  bmin[0] = (float)(g.origin[0] + (double)g.gx0 * g.cs);
  bmin[1] = (float)g.origin[1];
  bmin[2] = (float)(g.origin[2] + (double)g.gz0 * g.cs);
  bmax[0] = (float)(g.origin[0] + (double)(g.gx0 + g.width) * g.cs);
  bmax[1] = (float)ymax;
  bmax[2] = (float)(g.origin[2] + (double)(g.gz0 + g.depth) * g.cs);
  rcHeightfield *hf = rcAllocHeightfield();
  if (!rcCreateHeightfield(&ctx, *hf, g.width, g.depth, bmin, bmax, (float)g.cs, (float)g.ch))
    return NULL;
  int nt = (int)(tris.size() / 3), nv = (int)(v.size() / 3);
  std::vector<unsigned char> areas(nt, 0);
  rcMarkWalkableTriangles(&ctx, (float)s.max_slope, v.data(), nv, tris.data(), nt, areas.data());
  rcRasterizeTriangles(&ctx, v.data(), nv, tris.data(), areas.data(), nt, *hf, c.walkable_climb);
  rcFilterLowHangingWalkableObstacles(&ctx, c.walkable_climb, *hf);
  rcFilterLedgeSpans(&ctx, c.walkable_height, c.walkable_climb, *hf);
  rcFilterWalkableLowHeightSpans(&ctx, c.walkable_height, *hf);
  rcCompactHeightfield *chf = rcAllocCompactHeightfield();
  rcBuildCompactHeightfield(&ctx, c.walkable_height, c.walkable_climb, *hf, *chf);
  rcFreeHeightField(hf);
  rcErodeWalkableArea(&ctx, c.walkable_radius, *chf);
  return chf;
}

static int g_verbose_left = 0, g_tx, g_tz, g_repeat = 3;

// One row of the benchmark table.
struct Row {
  std::string level, preset;
  unsigned size;
  long tiles, built, ours_spans, rc_spans, same_spans;
  double t_ours, t_rc;
};
static std::vector<Row> g_rows;
static void compare(const op_chf *o, const rcCompactHeightfield *r, int border, Totals &t) {
  const int w = o->grid.width, d = o->grid.depth;
  for (int z = 0; z < d; z++)
    for (int x = 0; x < w; x++) {
      size_t ci = (size_t)z * w + x;
      const rcCompactCell &rc = r->cells[ci];
      int on = o->cell_count[ci], rn = (int)rc.count;
      t.cols++;
      int same = 0, ow = 0, rw = 0;
      for (int k = 0; k < on && k < rn; k++) {
        const op_chf_span &os = o->spans[o->cell_index[ci] + k];
        const rcCompactSpan &rs = r->spans[rc.index + k];
        int eq = os.y == rs.y && os.h == rs.h;
        for (int dir = 0; dir < 4 && eq; dir++) eq = os.link[dir] == (int)rcGetCon(rs, dir);
        same += eq;
        int inner_k = x >= border && z >= border && x < w - border && z < d - border;
        if (!eq && (inner_k || !getenv("DIFF_INNER")) && g_verbose_left > 0 && g_verbose_left--)
          printf("  tile (%d,%d) column (%d,%d) span %d: ours y %d h %d links %d %d %d %d area %d | "
                 "recast y %d h %d links %d %d %d %d area %d\n", g_tx, g_tz, x, z, k, os.y, os.h,
                 os.link[0], os.link[1], os.link[2], os.link[3],
                 o->areas[o->cell_index[ci] + k], rs.y, rs.h, rcGetCon(rs, 0),
                 rcGetCon(rs, 1), rcGetCon(rs, 2), rcGetCon(rs, 3), r->areas[rc.index + k]);
      }
      if (on != rn && (!getenv("DIFF_INNER") || (x >= border && z >= border && x < w - border &&
                                                  z < d - border)) &&
          g_verbose_left > 0 && g_verbose_left--)
        printf("  tile (%d,%d) column (%d,%d): ours %d spans, recast %d\n", g_tx, g_tz, x, z, on, rn);
      for (int k = 0; k < on; k++) ow += o->areas[o->cell_index[ci] + k] != 0;
      for (int k = 0; k < rn; k++) rw += r->areas[rc.index + k] != 0;
      t.same_spans += same;
      if (same != on || on != rn) t.cols_differ++;
      int inner = x >= border && z >= border && x < w - border && z < d - border;
      if (inner) {
        t.in_cols++;
        if (same != on || on != rn) t.in_cols_differ++;
      }
      if (ow == rw) t.walk_same_cells++;
      else t.walk_cells_differ++;
      if (inner && ow != rw) t.in_walk_differ++;
      t.ours_walk += ow;
      t.rc_walk += rw;
    }
  t.ours_spans += o->nspans;
  t.rc_spans += r->spanCount;
}

static void run(const char *level, uint32_t size, const char *preset, Totals &t) {
  op_settings s;
  op_cell_settings c;
  op_trimesh m;
  memset(&m, 0, sizeof m);
  op_error e;
  if (op_settings_preset(preset, &s, &e) || op_settings_derive(&s, &c, &e) ||
      op_level_generate(level, 1, size, &s, &m, &e)) {
    fprintf(stderr, "setup %s/%s: %s\n", level, preset, e.message);
    exit(2);
  }
  op_soup soup = op_trimesh_soup(&m);
  double o[3], ymax;
  op_soup_frame(&soup, o, &ymax, &e);
  double mxx = o[0], mxz = o[2];
  for (uint32_t i = 0; i < soup.nverts; i++) {
    if (soup.verts[3 * i] > mxx) mxx = soup.verts[3 * i];
    if (soup.verts[3 * i + 2] > mxz) mxz = soup.verts[3 * i + 2];
  }
  double tw = s.cell_size * s.tile_cells;
  int ntx = (int)((mxx - o[0]) / tw) + 1, ntz = (int)((mxz - o[2]) / tw) + 1;
  std::vector<float> vf(soup.verts, soup.verts + 3 * soup.nverts);
  std::vector<int> ti(soup.tris, soup.tris + 3 * soup.ntris);
  if (getenv("DIFF_ONLY") && strcmp(getenv("DIFF_ONLY"), level)) return;
  Totals before = t;
  g_verbose_left = getenv("DIFF_VERBOSE") ? atoi(getenv("DIFF_VERBOSE")) : 0;
  for (int tz = 0; tz < ntz; tz++)
    for (int tx = 0; tx < ntx; tx++) {
      op_chf *oc = NULL;
      rcCompactHeightfield *rc = NULL;
      double best_ours = 1e30, best_rc = 1e30;
      for (int rep = 0; rep < g_repeat; rep++) { /* the fastest of g_repeat runs */
        op_chf_free(oc); /* the previous run's results, freed outside the timing */
        oc = NULL;
        if (rc) rcFreeCompactHeightfield(rc);
        rc = NULL;
        double t0 = now();
        if (op_spans_build_tile(&s, &soup, o, o[1], ymax, tx, tz, &oc, &e) != OP_OK) {
          fprintf(stderr, "ours failed: %s\n", e.message);
          exit(2);
        }
        double t1 = now();
        op_hf_grid g;
        op_hf_grid_tile(&s, &c, o, tx, tz, o[1], ymax, &g, &e);
        rc = recast_tile(s, c, g, vf, ti, ymax);
        double t2 = now();
        if (t1 - t0 < best_ours) best_ours = t1 - t0;
        if (t2 - t1 < best_rc) best_rc = t2 - t1;
      }
      t.t_ours += best_ours;
      t.t_rc += best_rc;
      if (oc) t.built++;
      t.tiles++;
      g_tx = tx;
      g_tz = tz;
      if (oc && rc && rc->spanCount) {
        t.tiles_both++;
        compare(oc, rc, c.border, t);
      } else if (oc) {
        t.tiles_only_ours++;
      } else if (rc && rc->spanCount) {
        t.tiles_only_rc++;
      }
      op_chf_free(oc);
      if (rc) rcFreeCompactHeightfield(rc);
    }
  printf("%-8s %-8s size %3u: tiles %3ld, open spans ours %8ld recast %8ld equal %8ld "
         "(%.3f%%); columns differing %ld; walkable cells agree %.3f%%; "
         "time ours %.3fs recast %.3fs\n",
         level, preset, size, t.tiles - before.tiles, t.ours_spans - before.ours_spans,
         t.rc_spans - before.rc_spans, t.same_spans - before.same_spans,
         100.0 * (double)(t.same_spans - before.same_spans) /
             (double)(t.rc_spans - before.rc_spans > 0 ? t.rc_spans - before.rc_spans : 1),
         t.cols_differ - before.cols_differ,
         100.0 * (double)(t.walk_same_cells - before.walk_same_cells) /
             (double)(t.cols - before.cols > 0 ? t.cols - before.cols : 1),
         t.t_ours - before.t_ours, t.t_rc - before.t_rc);
  g_rows.push_back(Row{level, preset, size, t.tiles - before.tiles, t.built - before.built,
                       t.ours_spans - before.ours_spans, t.rc_spans - before.rc_spans,
                       t.same_spans - before.same_spans, t.t_ours - before.t_ours,
                       t.t_rc - before.t_rc});
  op_trimesh_free(&m);
}

int main(int argc, char **argv) {
  Totals t;
  struct {
    const char *name;
    uint32_t size;
  } levels[] = {{"terrain", 64}, {"city", 4}, {"stairs", 16}, {"dungeon", 32}};
  const char *presets[] = {"Humanoid", "Small", "Large"};
  int quick = argc > 1 && !strcmp(argv[1], "--quick");
  if (getenv("BENCH_REPEAT") && atoi(getenv("BENCH_REPEAT")) > 0) g_repeat = atoi(getenv("BENCH_REPEAT"));
  for (auto &l : levels)
    for (int p = 0; p < (quick ? 1 : 3); p++) run(l.name, l.size, presets[p], t);
  printf("TOTAL (tile cells without the border): columns %ld, columns whose open spans "
         "differ %ld (%.3f%%), columns whose walkable count differs %ld (%.3f%%)\n",
         t.in_cols, t.in_cols_differ, 100.0 * (double)t.in_cols_differ / (double)(t.in_cols ? t.in_cols : 1),
         t.in_walk_differ, 100.0 * (double)t.in_walk_differ / (double)(t.in_cols ? t.in_cols : 1));
  printf("TOTAL: tiles %ld (built by both %ld, only ours %ld, only recast %ld); open spans "
         "ours %ld recast %ld, equal %ld (%.3f%% of recast's); walkable cells agree in "
         "%.3f%% of columns; stage time ours %.3fs recast %.3fs (ratio %.2f); "
         "ours %.0f spans/s, recast %.0f spans/s\n",
         t.tiles, t.tiles_both, t.tiles_only_ours, t.tiles_only_rc, t.ours_spans, t.rc_spans,
         t.same_spans, 100.0 * (double)t.same_spans / (double)(t.rc_spans ? t.rc_spans : 1),
         100.0 * (double)t.walk_same_cells / (double)(t.cols ? t.cols : 1), t.t_ours, t.t_rc,
         t.t_ours / (t.t_rc > 0 ? t.t_rc : 1), (double)t.ours_spans / t.t_ours,
         (double)t.rc_spans / t.t_rc);
  // The benchmark table: open spans per second of the span stages (rasterize, three
  // filters, compact, erode) per tile; ratio = ours / recast (above 1: ours faster).
  printf("\nBENCHMARK span stages, single thread, each tile the fastest of %d runs\n", g_repeat);
  printf("| level | preset | size | tiles | built | spans (ours) | spans (recast) | equal | "
         "ours spans/s | recast spans/s | ratio |\n");
  printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  long at = 0, ab = 0, ao = 0, ar = 0, ae = 0;
  double ato = 0, atr = 0;
  for (const Row &r : g_rows) {
    double so = r.t_ours > 0 ? (double)r.ours_spans / r.t_ours : 0;
    double sr = r.t_rc > 0 ? (double)r.rc_spans / r.t_rc : 0;
    printf("| %s | %s | %u | %ld | %ld | %ld | %ld | %.2f%% | %.0f | %.0f | %.2f |\n",
           r.level.c_str(), r.preset.c_str(), r.size, r.tiles, r.built, r.ours_spans,
           r.rc_spans, 100.0 * (double)r.same_spans / (double)(r.rc_spans ? r.rc_spans : 1), so,
           sr, sr > 0 ? so / sr : 0);
    at += r.tiles; ab += r.built; ao += r.ours_spans; ar += r.rc_spans; ae += r.same_spans;
    ato += r.t_ours; atr += r.t_rc;
  }
  double so = ato > 0 ? (double)ao / ato : 0, sr = atr > 0 ? (double)ar / atr : 0;
  printf("| all | | | %ld | %ld | %ld | %ld | %.2f%% | %.0f | %.0f | %.2f |\n", at, ab, ao, ar,
         100.0 * (double)ae / (double)(ar ? ar : 1), so, sr, sr > 0 ? so / sr : 0);
  return 0;
}
