/*
** test_seams.c -- tile seams of real 3D builds are stitched as spec/navmesh-mesh.md says
** (MESH-021 .. MESH-023, MESH-026) and cut as spec/build3d-regions.md says (REG-225; issue 17,
** "Seams that do not link"), on the steep rolling terrain `hills` (spec/levels.md LVL-035),
** Humanoid and Small.
**
** For every pair of overlapping portal edges of side-by-side tiles, the test recomputes the
** gaps at the ends of the overlap (MESH-023's interpolation, binary64) and requires a link,
** with the overlap's interval and the target edge, exactly when the edges cross or a gap is
** within twice the climb (MESH-023); and that every such pair comes within the climb, so no
** stretch of this one-surface level is left unlinked (MESH-026). It also bounds the gaps at
** the ends of every overlap by what REG-225 guarantees (REG-225 cuts each tile's border where
** its straight edge would leave the ground by more than the climb). Without REG-225 the
** Humanoid build has a larger gap, and without MESH-023's rule too some seams stay unlinked,
** which the first check catches. A third case puts walls with faces lying exactly in cell
** lines across and along two tile borders (SPAN-100, SPAN-105): both tiles of a border must
** break such ties alike, seeing the same spans, links and areas at the border, and leave
** nothing unlinked (per-tile binary32 lines, as Recast computes them, fail both).
*/
#include <stdlib.h>
#include <string.h>

#include "fixtures3d.h"
#include "onepath.h"
#include "onepath_stages.h"
#include "optest.h"

static double absd(double v) { return v < 0 ? -v : v; }

/* MESH-023: height of edge (ua, ha) -> (ub, hb) at u. */
static double edge_h(float ua, double ha, float ub, double hb, float u) {
  if (u == ua) return ha;
  if (u == ub) return hb;
  double t = ((double)u - (double)ua) / ((double)ub - (double)ua);
  return ha + (hb - ha) * t;
}

typedef struct seam_counts {
  long pairs;      /* overlapping pairs of opposite portal edges */
  long within;     /* ... that come within the climb somewhere on the overlap */
  long old_missed; /* ... of those, not within the climb at both ends */
  long bad;        /* pairs whose links differ from the rule */
  double max_gap;  /* the largest |gap| at an end of an overlap, world units */
  double climb;    /* the mesh's walkable_climb */
} seam_counts;

/* The link of polygon p, edge j of tile `links` to (target, k), or NULL. */
static const op_link *link_to(const op_link *links, uint32_t n, uint32_t p, uint32_t j,
                              op_ref target, uint32_t k) {
  for (uint32_t i = 0; i < n; i++)
    if (links[i].poly == p && links[i].edge == j && links[i].target == target &&
        links[i].target_edge == k)
      return &links[i];
  return NULL;
}

static seam_counts check_seams(const op_mesh *m) {
  static const int dx[4] = {-1, 0, 1, 0}, dz[4] = {0, 1, 0, -1};
  seam_counts c = {0, 0, 0, 0, 0, 0};
  op_mesh_params mp;
  op_mesh_get_params(m, &mp);
  const double climb = mp.walkable_climb, reach = 2 * climb;
  c.climb = climb;
  uint32_t nt = op_mesh_tile_count(m);
  long nlinks_ext = 0, nlinks_matched = 0;
  for (uint32_t a = 0; a < nt; a++) {
    op_mesh_tile T;
    op_error e;
    if (op_mesh_tile_at_index(m, a, &T, &e)) { c.bad++; continue; }
    op_tile_desc v;
    op_tile_view(T.tile, &v);
    const op_link *links;
    uint32_t nl;
    if (op_mesh_tile_links(m, T.x, T.z, T.layer, &links, &nl, &e)) { c.bad++; continue; }
    for (uint32_t i = 0; i < nl; i++) nlinks_ext += links[i].side != OP_LINK_INTERNAL;
    for (uint32_t p = 0; p < v.npolys; p++) {
      const op_poly_desc *P = &v.polys[p];
      for (uint32_t j = 0; j < P->nverts; j++) {
        if ((P->neis[j] & ~3u) != OP_NEI_PORTAL) continue;
        unsigned s = P->neis[j] & 3u;
        int k = (s & 1u) ? 0 : 2; /* MESH-022 */
        const float *pa = &v.verts[3 * P->verts[j]], *pb = &v.verts[3 * P->verts[(j + 1) % P->nverts]];
        float a0 = pa[k] < pb[k] ? pa[k] : pb[k], a1 = pa[k] < pb[k] ? pb[k] : pa[k];
        double ha = v.origin_y + (double)pa[1], hb = v.origin_y + (double)pb[1];
        for (uint32_t b = 0; b < nt; b++) {
          op_mesh_tile N;
          if (op_mesh_tile_at_index(m, b, &N, &e)) { c.bad++; continue; }
          if (N.x != T.x + dx[s] || N.z != T.z + dz[s]) continue;
          op_tile_desc w;
          op_tile_view(N.tile, &w);
          for (uint32_t q = 0; q < w.npolys; q++) {
            const op_poly_desc *Q = &w.polys[q];
            for (uint32_t kk = 0; kk < Q->nverts; kk++) {
              if (Q->neis[kk] != (OP_NEI_PORTAL | ((s + 2u) & 3u))) continue;
              const float *qa = &w.verts[3 * Q->verts[kk]];
              const float *qb = &w.verts[3 * Q->verts[(kk + 1) % Q->nverts]];
              float b0 = qa[k] < qb[k] ? qa[k] : qb[k], b1 = qa[k] < qb[k] ? qb[k] : qa[k];
              float lo = b0 > a0 ? b0 : a0, hi = b1 < a1 ? b1 : a1;
              if (!(lo < hi)) continue;
              double qha = w.origin_y + (double)qa[1], qhb = w.origin_y + (double)qb[1];
              double g0 = edge_h(pa[k], ha, pb[k], hb, lo) - edge_h(qa[k], qha, qb[k], qhb, lo);
              double g1 = edge_h(pa[k], ha, pb[k], hb, hi) - edge_h(qa[k], qha, qb[k], qhb, hi);
              int cross = (g0 < 0 && g1 > 0) || (g0 > 0 && g1 < 0);
              int rule = cross || absd(g0) <= reach || absd(g1) <= reach; /* MESH-023 */
              int meets = cross || absd(g0) <= climb || absd(g1) <= climb;
              c.pairs++;
              if (absd(g0) > c.max_gap) c.max_gap = absd(g0);
              if (absd(g1) > c.max_gap) c.max_gap = absd(g1);
              if (meets) c.within++;
              if (meets && !(absd(g0) <= climb && absd(g1) <= climb)) c.old_missed++;
              const op_link *l = link_to(links, nl, p, j, N.base + q, kk);
              if (rule != (l != NULL) || (l && (l->side != s || l->lo != lo || l->hi != hi))) {
                c.bad++;
                fprintf(stderr, "  tile (%d,%d,%d) poly %u edge %u -> (%d,%d,%d) poly %u edge %u: "
                        "gaps %g %g, rule %d, link %s\n", T.x, T.z, T.layer, p, j, N.x, N.z,
                        N.layer, q, kk, g0, g1, rule, l ? "yes" : "no");
              }
              if (l) nlinks_matched++;
            }
          }
        }
      }
    }
  }
  if (nlinks_matched != nlinks_ext) c.bad++; /* every external link is one of the pairs */
  return c;
}

static seam_counts build_and_check(const char *preset) {
  seam_counts c = {0, 0, 0, 1, 0, 0};
  op_settings s;
  if (op_settings_preset(preset, &s, NULL) != OP_OK) return c;
  s.detail_sample_distance = 0; /* POLY-201: links do not depend on the detail mesh */
  op_trimesh lv = fx_level("hills", 1, 64);
  op_soup soup = op_trimesh_soup(&lv);
  op_mesh *m = fx_plain(&s, &soup);
  if (m) c = check_seams(m);
  printf("  hills 64 %s: %ld overlapping portal pairs, %ld within the climb, %ld of them not "
         "at both ends; largest gap at an end %.4f (climb %.4f)\n", preset, c.pairs, c.within,
         c.old_missed, c.max_gap, c.climb);
  op_mesh_free(m);
  op_trimesh_free(&lv);
  return c;
}

/* MESH-023, MESH-026: links are exactly MESH-023's, and every overlapping pair of portal
** edges of this one-surface level comes within the climb, hence is linked over its whole
** overlap: the unlinked walkable portal length is zero. */
OPT_TEST(hills_seams_link, "MESH-026") {
  const char *presets[2] = {"Humanoid", "Small"};
  for (int i = 0; i < 2; i++) {
    seam_counts c = build_and_check(presets[i]);
    OPT_CHECK(c.bad == 0);
    OPT_CHECK(c.pairs > 0 && c.within == c.pairs);
  }
}

/* REG-225: each tile's border edges stay within WalkableClimb cell heights of the raw
** corner heights, which both tiles share; welding (POLY-030) moves a vertex by at most 2 cell
** heights in each tile. So at both ends of every overlap the gap is at most
** climb + 4 * CellHeight (1.3 for Humanoid, where this level without REG-225 has a gap of
** 1.7; 0.6 for Small), within MESH-023's reach of twice the climb. */
OPT_TEST(hills_seams_close, "REG-225") {
  const char *presets[2] = {"Humanoid", "Small"};
  for (int i = 0; i < 2; i++) {
    op_settings s;
    op_settings_preset(presets[i], &s, NULL);
    seam_counts c = build_and_check(presets[i]);
    double bound = c.climb + 4 * s.cell_height;
    OPT_CHECK(c.pairs > 0 && c.max_gap <= bound + 1e-6);
    OPT_CHECK(bound <= 2 * c.climb);
  }
}

/* ------------------------------------------------ walls lying in cell lines at a seam */

/* A growable soup (the test's own geometry). */
typedef struct soup_buf {
  double v[3 * 1024];
  uint32_t t[3 * 1024];
  uint32_t nv, nt;
} soup_buf;

/* Quad a-b-c-d as triangles (a, b, c) and (a, c, d). */
static void quad(soup_buf *b, const double a[3], const double q[3], const double c[3],
                 const double d[3]) {
  const double *p[4] = {a, q, c, d};
  for (int i = 0; i < 4; i++) memcpy(&b->v[3 * (b->nv + i)], p[i], 3 * sizeof(double));
  uint32_t o = b->nv, t[6] = {o, o + 1, o + 2, o, o + 2, o + 3};
  memcpy(&b->t[3 * b->nt], t, sizeof t);
  b->nv += 4, b->nt += 2;
}

/* A box of four walls and a top, [x0, x1] x [0, h] x [z0, z1]. */
static void box(soup_buf *b, double x0, double z0, double x1, double z1, double h) {
  double p[8][3] = {{x0, 0, z0}, {x1, 0, z0}, {x1, 0, z1}, {x0, 0, z1},
                    {x0, h, z0}, {x1, h, z0}, {x1, h, z1}, {x0, h, z1}};
  for (int i = 0; i < 4; i++) quad(b, p[i], p[(i + 1) % 4], p[4 + (i + 1) % 4], p[4 + i]);
  quad(b, p[4], p[7], p[6], p[5]); /* up: (x0,z0) -> (x0,z1) -> (x1,z1), LVL-032's winding */
}

/* Length of portal edges facing a column that holds a tile, less what their links cover;
** *len gets the total length. Links of one edge come from distinct opposite edges of one flat
** floor here, so their intervals do not overlap and their lengths add up. */
static double unlinked_length(const op_mesh *m, double *len) {
  static const int dx[4] = {-1, 0, 1, 0}, dz[4] = {0, 1, 0, -1};
  double un = 0;
  *len = 0;
  uint32_t nt = op_mesh_tile_count(m);
  for (uint32_t a = 0; a < nt; a++) {
    op_mesh_tile T;
    op_tile_desc v;
    const op_link *links;
    uint32_t nl;
    if (op_mesh_tile_at_index(m, a, &T, NULL) ||
        op_mesh_tile_links(m, T.x, T.z, T.layer, &links, &nl, NULL))
      return 1e9;
    op_tile_view(T.tile, &v);
    for (uint32_t p = 0; p < v.npolys; p++)
      for (uint32_t j = 0; j < v.polys[p].nverts; j++) {
        uint16_t c = v.polys[p].neis[j];
        if ((c & ~3u) != OP_NEI_PORTAL) continue;
        int has = 0;
        for (uint32_t b = 0; b < nt; b++) {
          op_mesh_tile N;
          has |= !op_mesh_tile_at_index(m, b, &N, NULL) && N.x == T.x + dx[c & 3u] &&
                 N.z == T.z + dz[c & 3u];
        }
        if (!has) continue;
        int k = (c & 1u) ? 0 : 2; /* MESH-022 */
        const float *pa = &v.verts[3 * v.polys[p].verts[j]];
        const float *pb = &v.verts[3 * v.polys[p].verts[(j + 1) % v.polys[p].nverts]];
        double l = absd((double)pb[k] - (double)pa[k]);
        *len += l;
        for (uint32_t i = 0; i < nl; i++)
          if (links[i].poly == p && links[i].edge == j && links[i].side != OP_LINK_INTERNAL)
            l -= (double)links[i].hi - (double)links[i].lo;
        un += l;
      }
  }
  return un;
}

/* The cell line of global index g (SPAN-100), tiling origin O on both axes. */
#define WALL_O 40.0
static double line_at(double cs, int g) { return WALL_O + (double)g * cs; }

/* A floor of 2 x 2 tiles (n = 2 * TileSize cells a side, from (WALL_O, WALL_O), so the tiling
** origin is WALL_O) with walls whose faces lie exactly in cell lines: `across` puts 28 walls
** across the two tile borders (1 to 3 cells thick), else 16 walls of one cell run along the
** borders, at -4 .. +3 cells from them. (With the origin at WALL_O = 40, binary32 lines
** computed per tile from each tile's own bordered origin, as Recast does, put 4 of the 10
** lines the two tiles of a border share on different sides of the exact line, so the two
** tiles would see different cells; at origin 0 they happen to agree for cs = 0.3.) */
static void walls_on_lines(soup_buf *b, const op_settings *s, int across) {
  const double cs = s->cell_size;
  const int n = 2 * (int)s->tile_cells, mid = (int)s->tile_cells;
  memset(b, 0, sizeof *b);
  const double o = line_at(cs, 0), e = line_at(cs, n);
  double f[4][3] = {{o, 0, o}, {o, 0, e}, {e, 0, e}, {e, 0, o}};
  quad(b, f[0], f[1], f[2], f[3]); /* up, as the box tops */
  const int at[7] = {6, 13, 21, 28, 36, 43, 51};
  for (int half = 0; across && half < 2; half++)
    for (int i = 0; i < 7; i++) {
      int a = at[i] + half * mid, w = 1 + (i % 3);
      double lo = line_at(cs, mid - 8), hi = line_at(cs, mid + 8);
      box(b, lo, line_at(cs, a), hi, line_at(cs, a + w), 2.0); /* across x = X(mid) */
      box(b, line_at(cs, a), lo, line_at(cs, a + w), hi, 2.0); /* across z = Z(mid) */
    }
  for (int i = 0; !across && i < 8; i++) {
    int a = 2 + 7 * i, w = mid - 4 + i;
    box(b, line_at(cs, w), line_at(cs, a), line_at(cs, w + 1), line_at(cs, a + 5), 2.0);
    box(b, line_at(cs, a), line_at(cs, w), line_at(cs, a + 5), line_at(cs, w + 1), 2.0);
  }
}

/* 1 when column (x, z) is at least m cells inside grid g. */
static int inside(const op_hf_grid *g, int32_t x, int32_t z, int32_t m) {
  return x >= m && z >= m && x < g->width - m && z < g->depth - m;
}

/* 1 when tiles (0, 0) and (dx, dz) (one of (1, 0), (0, 1)) have the same open spans and
** links (SPAN-130, SPAN-140) on every shared column at least 2 cells inside both grids, and
** the same areas after the filters and erosion (SPAN-180) on the shared columns at least
** m = WalkableRadius + 2 cells inside both grids: the two columns on either side of the tile
** line. (Nearer a grid's edge the tiles legitimately differ: a missing neighbour is a drop,
** so the ledge filter leaves the outermost column without open spans, the next one's links
** and boundary spans, SPAN-151, differ, and erosion takes WalkableRadius - 1 more.) */
static int tiles_see_alike(const op_settings *s, const op_soup *soup, int dx, int dz) {
  op_stage_tile a, b;
  op_error e;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  int ok = !op_stage_run_tile(s, soup, 0, 0, OP_STAGE_SPANS, &a, &e) &&
           !op_stage_run_tile(s, soup, dx, dz, OP_STAGE_SPANS, &b, &e) && a.chf && b.chf;
  const op_chf *A = a.chf, *B = b.chf;
  long cols = 0, band = 0;
  const int32_t m = 4; /* Humanoid: WalkableRadius 2 */
  for (int32_t z = 0; ok && z < A->grid.depth; z++)
    for (int32_t x = 0; ok && x < A->grid.width; x++) {
      int32_t bx = A->grid.gx0 + x - B->grid.gx0, bz = A->grid.gz0 + z - B->grid.gz0;
      if (!inside(&A->grid, x, z, 2) || !inside(&B->grid, bx, bz, 2)) continue;
      int areas = inside(&A->grid, x, z, m) && inside(&B->grid, bx, bz, m);
      size_t ca = (size_t)z * A->grid.width + x, cb = (size_t)bz * B->grid.width + bx;
      ok &= A->cell_count[ca] == B->cell_count[cb];
      for (uint32_t k = 0; ok && k < A->cell_count[ca]; k++) {
        uint32_t i = A->cell_index[ca] + k, j = B->cell_index[cb] + k;
        ok &= A->spans[i].y == B->spans[j].y && A->spans[i].h == B->spans[j].h &&
              !memcmp(A->spans[i].link, B->spans[j].link, 4) &&
              (!areas || A->areas[i] == B->areas[j]);
      }
      cols++, band += areas;
    }
  ok = ok && band == 2L * (A->grid.depth - 2 * m) && cols > band;
  op_stage_tile_free(&a);
  op_stage_tile_free(&b);
  return ok;
}

/* SPAN-100, SPAN-105 at a seam (issue 17: every row where this builder left more unlinked
** than Detour came from how Recast's binary32 rasterizer breaks ties at cell lines: a wall
** lying in a line goes to the cell below it, or a sliver of the next row comes in, and a
** region ends one cell earlier or later). Walls whose faces lie exactly in cell lines, on a
** floor of 2 x 2 Humanoid tiles (origin 40). Both tiles of a border compute the lines from global
** indices and put a face lying in a line into the cell above it, so they see the same
** spans, links and areas near the border (walls along the borders, at -4 .. +3 cells; with
** lines computed per tile from each tile's own origin in binary32, as Recast does, they do
** not), and where walls cross a border both tiles end their border edges at the same cell
** corner: every portal edge is covered by its links. (Along the borders nothing is left
** unlinked either on this layout; with per-tile binary32 lines, 10.8 units are.) */
OPT_TEST(seams_walls_on_lines, "SPAN-105") {
  op_settings s;
  OPT_CHECK(op_settings_preset("Humanoid", &s, NULL) == OP_OK);
  s.detail_sample_distance = 0;
  static soup_buf b;
  for (int across = 0; across < 2; across++) {
    walls_on_lines(&b, &s, across);
    op_soup soup = {b.nv, b.v, b.nt, b.t};
    OPT_CHECK(tiles_see_alike(&s, &soup, 1, 0) && tiles_see_alike(&s, &soup, 0, 1));
    op_mesh *m = fx_plain(&s, &soup);
    OPT_CHECK(m != NULL);
    if (!m) return;
    double len = 0, un = unlinked_length(m, &len);
    seam_counts c = check_seams(m);
    printf("  walls %s the borders: portal length %.2f, unlinked %.4f, %ld overlapping pairs, "
           "%ld within the climb\n", across ? "across" : "along", len, un, c.pairs, c.within);
    OPT_CHECK(op_mesh_tile_count(m) == 4 && c.bad == 0 && len > 30 && c.within == c.pairs);
    OPT_CHECK(un < 1e-4 && c.pairs >= (across ? 28 : 8));
    op_mesh_free(m);
  }
}

OPT_MAIN_BEGIN
OPT_RUN(hills_seams_link);
OPT_RUN(hills_seams_close);
OPT_RUN(seams_walls_on_lines);
OPT_MAIN_END
