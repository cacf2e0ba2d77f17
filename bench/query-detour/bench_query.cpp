// bench_query.cpp -- the Detour differential and benchmark of the queries (issue 14,
// "Evidence": "Differential against Detour" and "Benchmark against Detour";
// docs/benchmarks.md "Queries against Detour (issue 14)"). A measurement, not a test: nothing
// fails when a figure moves, and ctest does not run it. Uses only the public headers
// include/*.h (scripts/deps.lua) on our side and Debian's librecast-dev (Detour) on the other.
//
// 1. The same mesh on both sides. A level (levels.md generators, seed 1: city, dungeon) is
//    built by our pipeline (op_pipeline_build_soup, preset Humanoid as it stands, detail
//    mesh included). Every tile of that mesh, read through the mesh readers
//    (op_mesh_tile_at_index, op_tile_view), is written as a Detour tile by hand (dtMeshHeader,
//    vertices, dtPoly, link space, dtPolyDetail, detail vertices and triangles, a BV tree;
//    the layout dtNavMesh::addTile reads) and added to one dtNavMesh whose origin and tile
//    width are our tiling's. dtCreateNavMeshData is not used: it takes Recast's quantised
//    vertices, and ours are binary32 tile-local values, not a cell grid.
//
//    Polygon mapping: our tile (x, z, layer) is Detour's tile (x, y = z, layer), and polygon i
//    of our tile is polygon i of that Detour tile, same vertices, area and flags. The vertex
//    order is reversed: Detour's portal of edge k runs left = v[k], right = v[k + 1] walking
//    out of the polygon, ours (QRY-063) left = v[j + 1], right = v[j]; so Detour's vertex k
//    of an n-gon is our n - 1 - k, its edge k our edge n - 2 - k (mod n), and every detail
//    triangle (a, b, c) is written (a, c, b) with its edge flags permuted to match. Neighbour
//    codes move with their edges: an internal code k + 1 as is, our portal sides 0 = -x,
//    1 = +z, 2 = +x, 3 = -z become DT_EXT_LINK | 4, 2, 0, 6. So canonical id (x, z, layer, i) <->
//    dtPolyRef getPolyRefBase(getTileAt(x, z, layer)) | i, both ways, for every polygon.
//    What cannot be mapped exactly:
//      - coordinates: ours are tile-local binary32 plus a binary64 origin (FMT-007); Detour's
//        are world binary32, so each vertex is rounded once (x0 + x to float, an error of at
//        most half an ulp of the world value, below 4e-6 on these levels);
//      - links: Detour computes its own when tiles are added (internal ones from the codes,
//        external ones by its slab test with a 0.01 tolerance and walkableClimb); ours are
//        MESH-020 .. MESH-024. The program compares the two link sets polygon by polygon and
//        reports every difference; off-mesh link slots (not connected in v0, MESH-025) are
//        not converted;
//      - polygons of more than DT_VERTS_PER_POLYGON (6) vertices: the program stops (the
//        Humanoid preset has MaxVertsPerPoly 6);
//      - tiles without a detail mesh get Detour's own stand-in, the fan (0, i, i + 1), which
//        is QRY-043 step 2.
// 2. Differential: --pairs N query pairs (default 2000 per level) drawn with op_prng (seed
//    --seed, default 14): each endpoint is a polygon drawn with probability proportional to
//    its plane area, a point uniform in it, and its surface height (op_query_poly_height);
//    --lift H raises each endpoint by U(0, H) and --jitter R moves it by U(-R, R) on x and z
//    (a second, harder set for the nearest rules: off the surface, off polygon edges, some
//    off the mesh).
//    Both sides run, with the same half extents (2 cs, climb + 2 ch, 2 cs: QRY-061's endpoint
//    box), nearest polygon of start and end, find path (8192 nodes, 8192 polygons) and
//    straight path. Reported: nearest-polygon agreement, find-path success agreement with
//    every disagreement classified by a re-run that isolates its cause, and the ratio of
//    straight-path lengths ours / Detour where both found a path.
// 3. Benchmark, same mesh and pairs, in one run: per query the four calls on each side
//    (ours: nearest x2 + find path from their answers, QRY-074, + straight path, as
//    Detour's; "ours, 2 calls" is find path, which accepts its endpoints itself, QRY-061, +
//    straight path).
//    Best of --reps batches, interleaved, thread CPU time and wall time. Find-path time
//    against path length: each pair's find path timed alone (monotonic clock, best of the
//    reps), bucketed by the path's polygon count.
//    --side ours|detour --pairs N runs only that side's batch once after the set-up, for
//    callgrind (scripts/bench-query.sh counts instructions with --toggle-collect on
//    qd_batch_ours / qd_batch_ours2 / qd_batch_detour).
// 4. Surface queries (QSF) against Detour on the same pairs: raycast and move along surface
//    from the start's nearest polygon and point (pairs whose nearest polygon agrees).
// Diagnostics (environment): QD_MOVES=1 prints every move whose end points differ; QD_DUMP=R prints both corner lists of every pair with equal
// polygon sequences whose length ratio is above R or below 2 - R; QD_COMPONENTS=1 prints the
// connected components of our link graph (polygons, y and x range).
#include <DetourAlloc.h>
#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>
#include <DetourStatus.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <string>
#include <vector>

extern "C" {
#include "onepath.h"
#include "onepath_build3d.h"
#include "onepath_pipeline.h"
#include "onepath_query.h"
}

static const int MAX_PATH = 8192;
static const int MAX_NODES = 8192;
static const int MAX_CORNERS = 8192;

static void die(const char *what, const op_error &e) {
  fprintf(stderr, "bench-query: %s: %s (%s = %s)\n", what, e.message, e.field, e.value);
  exit(2);
}
static void die2(const char *what) {
  fprintf(stderr, "bench-query: %s\n", what);
  exit(2);
}
static double wall_now() {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
static double cpu_now() {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

// ------------------------------------------------------------------ the level, both sides

struct TileInfo {
  int32_t x, z, layer;
  op_ref base;        // our reference of polygon 0
  dtPolyRef dbase;    // Detour's
  uint32_t npolys;
};

struct World {
  std::string name;
  uint32_t size;
  op_settings s;
  op_pipeline_result built;
  op_mesh_params mp;
  op_query *q = NULL;
  dtNavMesh *nav = NULL;
  dtNavMeshQuery *dq = NULL;
  std::vector<TileInfo> tiles;  // canonical order (MESH-061)
  uint64_t npolys = 0;
  double lift = 0;              // endpoints raised by U(0, lift) above the surface
  double jitter = 0;            // and moved by U(-jitter, jitter) on x and z
  float ext[3];                 // half extents, both sides
  double extd[3];
  // link comparison
  uint64_t links_ours = 0, links_dt = 0, polys_link_diff = 0, links_only_ours = 0,
           links_only_dt = 0;
};

static int tile_index(const World &W, int32_t x, int32_t z, int32_t layer) {
  for (size_t i = 0; i < W.tiles.size(); i++)
    if (W.tiles[i].x == x && W.tiles[i].z == z && W.tiles[i].layer == layer) return (int)i;
  return -1;
}

// our canonical id -> Detour ref, and back; 0 / false when it does not map
static dtPolyRef to_dt(const World &W, const op_poly_id &id) {
  int t = tile_index(W, id.x, id.z, id.layer);
  if (t < 0 || id.poly >= W.tiles[t].npolys) return 0;
  return W.tiles[t].dbase | (dtPolyRef)id.poly;
}
static bool from_dt(const World &W, dtPolyRef r, op_poly_id *id) {
  const dtMeshTile *tile;
  const dtPoly *poly;
  if (!r || dtStatusFailed(W.nav->getTileAndPolyByRef(r, &tile, &poly))) return false;
  id->x = tile->header->x;
  id->z = tile->header->y;
  id->layer = tile->header->layer;
  id->poly = (uint32_t)(poly - tile->polys);
  return true;
}
static bool same_id(const op_poly_id &a, const op_poly_id &b) {
  return a.x == b.x && a.z == b.z && a.layer == b.layer && a.poly == b.poly;
}

static int align4(int n) { return (n + 3) & ~3; }

// A BV tree over the tile's polygons in Detour's form (preorder; a leaf's i is its polygon,
// an inner node's i minus its subtree's node count), bounds quantised by 1 / cs from the
// tile's bmin, as dtNavMeshQuery::queryPolygonsInTile reads them. Our own median split.
struct BvItem {
  unsigned short bmin[3], bmax[3];
  int i;
};
static void bv_build(std::vector<BvItem> &items, int lo, int hi, std::vector<dtBVNode> &out) {
  int at = (int)out.size();
  out.push_back(dtBVNode());
  dtBVNode &n0 = out[at];
  for (int k = 0; k < 3; k++) {
    n0.bmin[k] = 0xffff;
    n0.bmax[k] = 0;
  }
  for (int j = lo; j < hi; j++)
    for (int k = 0; k < 3; k++) {
      n0.bmin[k] = std::min(n0.bmin[k], items[j].bmin[k]);
      n0.bmax[k] = std::max(n0.bmax[k], items[j].bmax[k]);
    }
  if (hi - lo == 1) {
    out[at].i = items[lo].i;
    return;
  }
  int axis = 0, best = -1;
  for (int k = 0; k < 3; k++)
    if ((int)out[at].bmax[k] - (int)out[at].bmin[k] > best) {
      best = (int)out[at].bmax[k] - (int)out[at].bmin[k];
      axis = k;
    }
  std::sort(items.begin() + lo, items.begin() + hi, [axis](const BvItem &a, const BvItem &b) {
    int ca = a.bmin[axis] + a.bmax[axis], cb = b.bmin[axis] + b.bmax[axis];
    return ca != cb ? ca < cb : a.i < b.i;
  });
  int mid = lo + (hi - lo) / 2;
  bv_build(items, lo, mid, out);
  bv_build(items, mid, hi, out);
  out[at].i = -((int)out.size() - at);
}

// One of our tiles as Detour tile data (dtAlloc'd; the mesh frees it).
static unsigned char *convert_tile(const World &W, const op_mesh_tile &mt, int *size_out) {
  op_tile_desc v;
  op_tile_view(mt.tile, &v);
  const double Wd = (double)v.tiling.tile_cells * v.tiling.cell_size;  // FMT-005
  const double x0 = v.tiling.origin[0] + (double)v.x * Wd;
  const double z0 = v.tiling.origin[2] + (double)v.z * Wd;
  const int np = (int)v.npolys, nv = (int)v.nverts;
  // detail: ours, or the fan (0, i, i + 1) when the tile has none
  std::vector<dtPolyDetail> dm(np);
  std::vector<float> dverts;
  std::vector<unsigned char> dtris;
  int edges = 0, portals = 0;
  for (int p = 0; p < np; p++) {
    const op_poly_desc &pd = v.polys[p];
    if (pd.nverts > DT_VERTS_PER_POLYGON) die2("a polygon has more than 6 vertices: Detour cannot hold it");
    for (int j = 0; j < pd.nverts; j++) {
      edges++;
      if (pd.neis[j] & OP_NEI_PORTAL) portals++;
    }
  }
  if (v.ndetail) {
    for (int p = 0; p < np; p++) {
      dm[p].vertBase = v.detail[p].vert_base;
      dm[p].triBase = v.detail[p].tri_base;
      dm[p].vertCount = v.detail[p].vert_count;
      dm[p].triCount = v.detail[p].tri_count;
    }
    for (uint32_t i = 0; i < v.ndetail_verts; i++) {
      dverts.push_back((float)(x0 + (double)v.detail_verts[3 * i]));
      dverts.push_back((float)(v.origin_y + (double)v.detail_verts[3 * i + 1]));
      dverts.push_back((float)(z0 + (double)v.detail_verts[3 * i + 2]));
    }
    // our polygon vertex k is Detour's n - 1 - k (the order is reversed, see the header);
    // each triangle is reversed too, (a, b, c) -> (a, c, b), its edge flags following
    for (int p = 0; p < np; p++) {
      const int n = v.polys[p].nverts;
      for (uint32_t t = v.detail[p].tri_base; t < v.detail[p].tri_base + v.detail[p].tri_count; t++) {
        const uint8_t *src = &v.detail_tris[4 * (size_t)t];
        uint8_t ix[3];
        for (int k = 0; k < 3; k++) ix[k] = src[k] < n ? (uint8_t)(n - 1 - src[k]) : src[k];
        const uint8_t f = src[3];
        dtris.push_back(ix[0]);
        dtris.push_back(ix[2]);
        dtris.push_back(ix[1]);
        dtris.push_back((uint8_t)(((f >> 4) & 3) | (f & (3 << 2)) | ((f & 3) << 4)));
      }
    }
  } else {
    for (int p = 0; p < np; p++) {
      int n = v.polys[p].nverts;
      dm[p].vertBase = 0;
      dm[p].vertCount = 0;
      dm[p].triBase = (unsigned)(dtris.size() / 4);
      dm[p].triCount = (unsigned char)(n - 2);
      for (int i = 1; i + 1 < n; i++) {  // edge k of (a, b, c) is bits 2k: boundary = 1
        unsigned char f = (unsigned char)((i == 1 ? 1 : 0) | (1 << 2) | (i + 1 == n - 1 ? 1 << 4 : 0));
        dtris.push_back(0);
        dtris.push_back((unsigned char)i);
        dtris.push_back((unsigned char)(i + 1));
        dtris.push_back(f);
      }
    }
  }
  std::vector<float> verts(3 * (size_t)nv);
  float bmin[3] = {1e30f, 1e30f, 1e30f}, bmax[3] = {-1e30f, -1e30f, -1e30f};
  for (int i = 0; i < nv; i++) {
    verts[3 * i] = (float)(x0 + (double)v.verts[3 * i]);
    verts[3 * i + 1] = (float)(v.origin_y + (double)v.verts[3 * i + 1]);
    verts[3 * i + 2] = (float)(z0 + (double)v.verts[3 * i + 2]);
    for (int k = 0; k < 3; k++) {
      bmin[k] = std::min(bmin[k], verts[3 * i + k]);
      bmax[k] = std::max(bmax[k], verts[3 * i + k]);
    }
  }
  for (size_t i = 0; i < dverts.size(); i++) {
    bmin[i % 3] = std::min(bmin[i % 3], dverts[i]);
    bmax[i % 3] = std::max(bmax[i % 3], dverts[i]);
  }
  // BV items: each polygon's box over its vertices and detail vertices
  const float qf = (float)(1.0 / v.tiling.cell_size);
  std::vector<BvItem> items(np);
  for (int p = 0; p < np; p++) {
    const op_poly_desc &pd = v.polys[p];
    float lo[3] = {1e30f, 1e30f, 1e30f}, hi[3] = {-1e30f, -1e30f, -1e30f};
    for (int j = 0; j < pd.nverts; j++)
      for (int k = 0; k < 3; k++) {
        lo[k] = std::min(lo[k], verts[3 * pd.verts[j] + k]);
        hi[k] = std::max(hi[k], verts[3 * pd.verts[j] + k]);
      }
    for (int j = 0; j < dm[p].vertCount; j++)
      for (int k = 0; k < 3; k++) {
        lo[k] = std::min(lo[k], dverts[3 * (dm[p].vertBase + j) + k]);
        hi[k] = std::max(hi[k], dverts[3 * (dm[p].vertBase + j) + k]);
      }
    for (int k = 0; k < 3; k++) {
      int a = (int)floorf((lo[k] - bmin[k]) * qf), b = (int)ceilf((hi[k] - bmin[k]) * qf);
      items[p].bmin[k] = (unsigned short)std::max(0, std::min(0xffff, a));
      items[p].bmax[k] = (unsigned short)std::max(0, std::min(0xffff, b));
    }
    items[p].i = p;
  }
  std::vector<dtBVNode> bv;
  if (np) bv_build(items, 0, np, bv);

  const int maxlinks = edges + 4 * portals;  // room for up to 4 links per portal edge
  const int hsz = align4(sizeof(dtMeshHeader)), vsz = align4(sizeof(float) * 3 * nv),
            psz = align4(sizeof(dtPoly) * np), lsz = align4(sizeof(dtLink) * maxlinks),
            dmsz = align4(sizeof(dtPolyDetail) * np),
            dvsz = align4(sizeof(float) * (int)dverts.size()),
            dtsz = align4((int)dtris.size()), bvsz = align4(sizeof(dtBVNode) * (int)bv.size());
  const int size = hsz + vsz + psz + lsz + dmsz + dvsz + dtsz + bvsz;
  unsigned char *data = (unsigned char *)dtAlloc(size, DT_ALLOC_PERM);
  if (!data) die2("out of memory");
  memset(data, 0, size);
  unsigned char *d = data;
  dtMeshHeader *h = (dtMeshHeader *)d;
  d += hsz;
  float *dv = (float *)d;
  d += vsz;
  dtPoly *dp = (dtPoly *)d;
  d += psz;
  d += lsz;
  dtPolyDetail *ddm = (dtPolyDetail *)d;
  d += dmsz;
  float *ddv = (float *)d;
  d += dvsz;
  unsigned char *ddt = d;
  d += dtsz;
  dtBVNode *dbv = (dtBVNode *)d;
  h->magic = DT_NAVMESH_MAGIC;
  h->version = DT_NAVMESH_VERSION;
  h->x = v.x;
  h->y = v.z;
  h->layer = v.layer;
  h->userId = 0;
  h->polyCount = np;
  h->vertCount = nv;
  h->maxLinkCount = maxlinks;
  h->detailMeshCount = np;
  h->detailVertCount = (int)(dverts.size() / 3);
  h->detailTriCount = (int)(dtris.size() / 4);
  h->bvNodeCount = (int)bv.size();
  h->offMeshConCount = 0;
  h->offMeshBase = np;
  h->walkableHeight = (float)W.s.agent_height;
  h->walkableRadius = (float)W.s.agent_radius;
  h->walkableClimb = (float)W.mp.walkable_climb;
  for (int k = 0; k < 3; k++) {
    h->bmin[k] = bmin[k];
    h->bmax[k] = bmax[k];
  }
  h->bvQuantFactor = qf;
  memcpy(dv, verts.data(), sizeof(float) * verts.size());
  static const unsigned short side_dir[4] = {4, 2, 0, 6};  // ours 0 -x, 1 +z, 2 +x, 3 -z
  for (int p = 0; p < np; p++) {
    const op_poly_desc &pd = v.polys[p];
    dp[p].firstLink = DT_NULL_LINK;
    dp[p].vertCount = pd.nverts;
    dp[p].flags = pd.flags;
    dp[p].setArea(pd.area);
    dp[p].setType(DT_POLYTYPE_GROUND);
    const int n = pd.nverts;
    for (int k = 0; k < n; k++) {  // Detour's vertex k is ours n - 1 - k; its edge k ours n - 2 - k
      dp[p].verts[k] = pd.verts[n - 1 - k];
      uint16_t c = pd.neis[(2 * n - 2 - k) % n];
      dp[p].neis[k] = (c & OP_NEI_PORTAL) ? (unsigned short)(DT_EXT_LINK | side_dir[c & 3]) : c;
    }
  }
  memcpy(ddm, dm.data(), sizeof(dtPolyDetail) * np);
  if (!dverts.empty()) memcpy(ddv, dverts.data(), sizeof(float) * dverts.size());
  if (!dtris.empty()) memcpy(ddt, dtris.data(), dtris.size());
  if (!bv.empty()) memcpy(dbv, bv.data(), sizeof(dtBVNode) * bv.size());
  *size_out = size;
  return data;
}

static void setup(World &W, const char *name, uint32_t size) {
  op_error e;
  W.name = name;
  W.size = size;
  if (op_settings_preset("Humanoid", &W.s, &e)) die("preset", e);
  op_trimesh tm;
  memset(&tm, 0, sizeof tm);
  if (op_level_generate(name, 1, size, &W.s, &tm, &e)) die("level", e);
  op_soup soup = op_trimesh_soup(&tm);
  memset(&W.built, 0, sizeof W.built);
  if (op_pipeline_build_soup(&W.s, &soup, NULL, &W.built, &e)) die("build", e);
  op_trimesh_free(&tm);
  const op_mesh *m = W.built.mesh;
  op_mesh_get_params(m, &W.mp);
  if (op_query_create(m, MAX_NODES, &W.q, &e)) die("query create", e);
  // QRY-061's endpoint box, used by both sides' nearest-polygon calls
  W.extd[0] = W.extd[2] = 2 * W.mp.tiling.cell_size;
  W.extd[1] = W.mp.walkable_climb + 2 * W.mp.tiling.cell_height;
  for (int k = 0; k < 3; k++) W.ext[k] = (float)W.extd[k];

  W.nav = dtAllocNavMesh();
  dtNavMeshParams np;
  memset(&np, 0, sizeof np);
  for (int k = 0; k < 3; k++) np.orig[k] = (float)W.mp.tiling.origin[k];
  np.tileWidth = np.tileHeight = (float)(W.mp.tiling.cell_size * W.mp.tiling.tile_cells);
  uint32_t nt = op_mesh_tile_count(m), maxp = 1;
  for (uint32_t i = 0; i < nt; i++) {
    op_mesh_tile mt;
    if (op_mesh_tile_at_index(m, i, &mt, &e)) die("tile", e);
    maxp = std::max(maxp, mt.npolys);
  }
  int tb = 0, pb = 0;
  while ((1u << tb) < nt) tb++;
  while ((1u << pb) < maxp) pb++;
  if (tb + pb > 22) die2("too many tiles or polygons for 32-bit dtPolyRef");
  np.maxTiles = 1 << tb;
  np.maxPolys = 1 << pb;
  if (dtStatusFailed(W.nav->init(&np))) die2("dtNavMesh init failed");
  for (uint32_t i = 0; i < nt; i++) {
    op_mesh_tile mt;
    if (op_mesh_tile_at_index(m, i, &mt, &e)) die("tile", e);
    int sz = 0;
    unsigned char *data = convert_tile(W, mt, &sz);
    if (dtStatusFailed(W.nav->addTile(data, sz, DT_TILE_FREE_DATA, 0, NULL)))
      die2("dtNavMesh addTile failed");
    TileInfo ti;
    ti.x = mt.x;
    ti.z = mt.z;
    ti.layer = mt.layer;
    ti.base = mt.base;
    ti.npolys = mt.npolys;
    ti.dbase = W.nav->getPolyRefBase(W.nav->getTileAt(mt.x, mt.z, mt.layer));
    W.tiles.push_back(ti);
    W.npolys += mt.npolys;
  }
  W.dq = dtAllocNavMeshQuery();
  if (dtStatusFailed(W.dq->init(W.nav, MAX_NODES))) die2("dtNavMeshQuery init failed");

  // the two link sets, polygon by polygon (targets as canonical ids, multisets)
  for (size_t t = 0; t < W.tiles.size(); t++) {
    const dtMeshTile *dt = W.nav->getTileAt(W.tiles[t].x, W.tiles[t].z, W.tiles[t].layer);
    for (uint32_t p = 0; p < W.tiles[t].npolys; p++) {
      const op_link *ls;
      uint32_t n;
      if (op_mesh_poly_links(m, W.tiles[t].base + p, &ls, &n, &e)) die("links", e);
      std::vector<std::pair<dtPolyRef, int> > a, b;
      for (uint32_t k = 0; k < n; k++) {
        op_poly_id id;
        if (op_query_poly_id(m, ls[k].target, &id, &e)) die("poly id", e);
        const int n = dt->polys[p].vertCount;  // our edge j is Detour's n - 2 - j
        a.push_back(std::make_pair(to_dt(W, id), (2 * n - 2 - (int)ls[k].edge) % n));
      }
      for (unsigned int k = dt->polys[p].firstLink; k != DT_NULL_LINK; k = dt->links[k].next)
        b.push_back(std::make_pair(dt->links[k].ref, (int)dt->links[k].edge));
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      W.links_ours += a.size();
      W.links_dt += b.size();
      if (a != b) {
        W.polys_link_diff++;
        std::vector<std::pair<dtPolyRef, int> > x;
        std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(x));
        W.links_only_ours += x.size();
        x.clear();
        std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(x));
        W.links_only_dt += x.size();
      }
    }
  }
}

// connected components of our link graph (diagnostic: QD_COMPONENTS=1)
static void components(const World &W) {
  std::vector<op_ref> refs;
  for (auto &t : W.tiles)
    for (uint32_t p = 0; p < t.npolys; p++) refs.push_back(t.base + p);
  std::sort(refs.begin(), refs.end());
  std::vector<int> comp(refs.size(), -1);
  int nc = 0;
  for (size_t i = 0; i < refs.size(); i++) {
    if (comp[i] >= 0) continue;
    std::vector<size_t> st(1, i);
    comp[i] = nc;
    size_t n = 0;
    double ymin = 1e30, ymax = -1e30, xmin = 1e30, xmax = -1e30;
    while (!st.empty()) {
      size_t k = st.back();
      st.pop_back();
      n++;
      op_error e;
      op_mesh_tile mt;
      op_mesh_tile_by_ref(W.built.mesh, refs[k], &mt, &e);
      op_tile_desc v;
      op_tile_view(mt.tile, &v);
      const op_poly_desc &pd = v.polys[refs[k] - mt.base];
      double y = v.origin_y + v.verts[3 * pd.verts[0] + 1];
      double x = v.tiling.origin[0] + v.x * (double)v.tiling.tile_cells * v.tiling.cell_size + v.verts[3 * pd.verts[0]];
      xmin = std::min(xmin, x);
      xmax = std::max(xmax, x);
      ymin = std::min(ymin, y);
      ymax = std::max(ymax, y);
      const op_link *ls;
      uint32_t nl;
      op_mesh_poly_links(W.built.mesh, refs[k], &ls, &nl, &e);
      for (uint32_t j = 0; j < nl; j++) {
        size_t t = std::lower_bound(refs.begin(), refs.end(), ls[j].target) - refs.begin();
        if (comp[t] < 0) { comp[t] = nc; st.push_back(t); }
      }
    }
    printf("component %d: %zu polygons, y %.2f .. %.2f, x %.2f .. %.2f\n", nc, n, ymin, ymax, xmin, xmax);
    nc++;
  }
}

static bool dt_linked(const World &W, dtPolyRef a, dtPolyRef b) {
  const dtMeshTile *tile;
  const dtPoly *poly;
  if (dtStatusFailed(W.nav->getTileAndPolyByRef(a, &tile, &poly))) return false;
  for (unsigned int k = poly->firstLink; k != DT_NULL_LINK; k = tile->links[k].next)
    if (tile->links[k].ref == b) return true;
  return false;
}
static bool ours_linked(const World &W, op_ref a, op_ref b) {
  const op_link *ls;
  uint32_t n;
  op_error e;
  if (op_mesh_poly_links(W.built.mesh, a, &ls, &n, &e)) return false;
  for (uint32_t k = 0; k < n; k++)
    if (ls[k].target == b) return true;
  return false;
}
static op_ref to_ours(const World &W, dtPolyRef r) {
  op_poly_id id;
  if (!from_dt(W, r, &id)) return 0;
  int t = tile_index(W, id.x, id.z, id.layer);
  return t < 0 ? 0 : W.tiles[t].base + id.poly;
}

// ------------------------------------------------------------------ query pairs

struct Pair {
  double s[3], e[3];
  float sf[3], ef[3];
};

static void draw_point(const World &W, op_prng &g, const std::vector<double> &cum,
                       const std::vector<op_ref> &refs, double out[3]) {
  op_error e;
  for (;;) {
    double u = op_prng_unit(&g) * cum.back();
    size_t k = std::upper_bound(cum.begin(), cum.end(), u) - cum.begin();
    if (k >= refs.size()) k = refs.size() - 1;
    op_mesh_tile mt;
    if (op_mesh_tile_by_ref(W.built.mesh, refs[k], &mt, &e)) die("tile by ref", e);
    op_tile_desc v;
    op_tile_view(mt.tile, &v);
    const double Wd = (double)v.tiling.tile_cells * v.tiling.cell_size;
    const double x0 = v.tiling.origin[0] + (double)v.x * Wd, z0 = v.tiling.origin[2] + (double)v.z * Wd;
    const op_poly_desc &pd = v.polys[refs[k] - mt.base];
    double px[OP_MAX_VERTS_PER_POLY] = {0}, pz[OP_MAX_VERTS_PER_POLY] = {0}, ta[OP_MAX_VERTS_PER_POLY] = {0};
    for (int j = 0; j < pd.nverts; j++) {
      px[j] = x0 + (double)v.verts[3 * pd.verts[j]];
      pz[j] = z0 + (double)v.verts[3 * pd.verts[j] + 2];
    }
    double tot = 0;
    for (int i = 1; i + 1 < pd.nverts; i++) {
      ta[i] = 0.5 * fabs((px[i] - px[0]) * (pz[i + 1] - pz[0]) - (pz[i] - pz[0]) * (px[i + 1] - px[0]));
      tot += ta[i];
    }
    double w = op_prng_unit(&g) * tot;
    int i = 1;
    while (i + 2 < pd.nverts && w >= ta[i]) w -= ta[i++];
    double r1 = sqrt(op_prng_unit(&g)), r2 = op_prng_unit(&g);
    double a = 1 - r1, b = r1 * (1 - r2), c = r1 * r2;
    double x = a * px[0] + b * px[i] + c * px[i + 1], z = a * pz[0] + b * pz[i] + c * pz[i + 1];
    int inside = 0;
    double hgt = 0;
    if (op_query_poly_height(W.q, refs[k], x, z, &inside, &hgt, &e)) die("poly height", e);
    if (!inside) continue;  // rounding put it on the wrong side of an edge: draw again
    out[0] = x;
    out[1] = hgt + (W.lift > 0 ? op_prng_unit(&g) * W.lift : 0);
    if (W.jitter > 0) {  // off the polygon, possibly off the mesh: x, z + U(-j, j)
      out[0] += (2 * op_prng_unit(&g) - 1) * W.jitter;
      out[2] += (2 * op_prng_unit(&g) - 1) * W.jitter;
    }
    out[2] = z;
    return;
  }
}

static std::vector<Pair> make_pairs(const World &W, int n, uint64_t seed) {
  std::vector<double> cum;
  std::vector<op_ref> refs;
  double acc = 0;
  op_error e;
  for (size_t t = 0; t < W.tiles.size(); t++) {
    op_mesh_tile mt;
    if (op_mesh_tile_at(W.built.mesh, W.tiles[t].x, W.tiles[t].z, W.tiles[t].layer, &mt, &e))
      die("tile", e);
    op_tile_desc v;
    op_tile_view(mt.tile, &v);
    for (uint32_t p = 0; p < v.npolys; p++) {
      const op_poly_desc &pd = v.polys[p];
      double a2 = 0;
      for (int j = 0; j < pd.nverts; j++) {
        const float *a = &v.verts[3 * pd.verts[j]], *b = &v.verts[3 * pd.verts[(j + 1) % pd.nverts]];
        a2 += (double)a[0] * b[2] - (double)b[0] * a[2];
      }
      acc += fabs(a2) * 0.5;
      cum.push_back(acc);
      refs.push_back(mt.base + p);
    }
  }
  op_prng g;
  op_prng_seed(&g, seed);
  std::vector<Pair> P(n);
  for (int i = 0; i < n; i++) {
    draw_point(W, g, cum, refs, P[i].s);
    draw_point(W, g, cum, refs, P[i].e);
    for (int k = 0; k < 3; k++) {
      P[i].sf[k] = (float)P[i].s[k];
      P[i].ef[k] = (float)P[i].e[k];
    }
  }
  return P;
}

// ------------------------------------------------------------------ the four calls

struct OursAns {
  bool same_as_find_path;  // QRY-074: find path from the nearest answers = find path
  op_status st;
  op_query_nearest ns, ne;
  op_path_status ps;
  op_path_reason reason;
  op_query_poly sp, ep;
  double spt[3], ept[3];
  std::vector<op_ref> path;
  std::vector<double> corners;  // 3 per corner
  uint32_t nodes;
};
struct DtAns {
  dtPolyRef sref, eref;
  float spt[3], ept[3];
  dtStatus fst;
  std::vector<dtPolyRef> path;
  std::vector<float> corners;
};

static std::vector<op_ref> g_refs(MAX_PATH);
static std::vector<dtPolyRef> g_dpath(MAX_PATH), g_drefs(MAX_CORNERS);
static std::vector<float> g_dcorn(3 * MAX_CORNERS);
static std::vector<unsigned char> g_dflags(MAX_CORNERS);
static dtQueryFilter g_filter;

// QRY-074's promise, checked on every analysed pair: FindPathFrom of the accepted endpoints
// answers as FindPath (status, reason, route, cost, nodes, endpoints). fp NULL: FindPathFrom
// failed or did not run (an endpoint not found), so FindPath must fail too; fp->polys is a
// copy (the query object's route buffer is reused by the call below).
static bool same_as_find_path(const World &W, const Pair &p, op_status st_from,
                              const op_query_path *fp) {
  op_error e;
  op_query_path a;
  op_status st = op_query_find_path(W.q, p.s, p.e, NULL, MAX_PATH, &a, &e);
  if ((st == OP_OK) != (st_from == OP_OK)) return false;
  if (st != OP_OK) return true;
  if (a.status != fp->status || a.reason != fp->reason || a.cost != fp->cost ||
      a.nodes != fp->nodes || a.npolys != fp->npolys || a.start_poly.ref != fp->start_poly.ref ||
      a.end_poly.ref != fp->end_poly.ref || memcmp(a.start_point, fp->start_point, 24) ||
      memcmp(a.end_point, fp->end_point, 24))
    return false;
  for (uint32_t i = 0; i < a.npolys; i++)
    if (a.polys[i].ref != fp->polys[i].ref) return false;
  return true;
}

// ours: nearest x2, find path from them (QRY-074), straight path; returns a checksum-ish value
static inline uint64_t ours_one_run(const World &W, const Pair &p, OursAns *a,
                                     op_query_path *fpo);
// the four calls; with a, also the answers, and QRY-074's promise checked (after the straight
// path, which reads the path from the query object that the check's find path reuses)
static inline uint64_t ours_one(const World &W, const Pair &p, OursAns *a) {
  if (!a) return ours_one_run(W, p, NULL, NULL);
  op_query_path fp;
  memset(&fp, 0, sizeof fp);
  uint64_t sum = ours_one_run(W, p, a, &fp);
  std::vector<op_query_poly> from(fp.polys, fp.polys + fp.npolys);
  fp.polys = from.data();
  a->same_as_find_path = same_as_find_path(W, p, a->st, a->st == OP_OK ? &fp : NULL);
  return sum;
}

static inline uint64_t ours_one_run(const World &W, const Pair &p, OursAns *a,
                                     op_query_path *fpo) {
  op_error e;
  op_query_nearest ns, ne;
  op_query_nearest_poly(W.q, p.s, W.extd, NULL, &ns, &e);
  op_query_nearest_poly(W.q, p.e, W.extd, NULL, &ne, &e);
  op_query_path fp;
  // QRY-074: find path from the two nearest answers (the box is QRY-061's, so when both are
  // found they are the endpoints find path would accept; when one is not, find path fails)
  op_status st = OP_E_RANGE;
  if (ns.found && ne.found)
    st = op_query_find_path_from(W.q, ns.poly.ref, ns.point, ne.poly.ref, ne.point, NULL,
                                 MAX_PATH, &fp, &e);
  uint64_t sum = ns.poly.ref ^ ne.poly.ref;
  if (fpo && st == OP_OK) *fpo = fp;
  if (a) {
    a->st = st;
    a->ns = ns;
    a->ne = ne;
    a->path.clear();
    a->corners.clear();
  }
  if (st != OP_OK) return sum;
  if (a) {
    a->ps = fp.status;
    a->reason = fp.reason;
    a->sp = fp.start_poly;
    a->ep = fp.end_poly;
    memcpy(a->spt, fp.start_point, sizeof a->spt);
    memcpy(a->ept, fp.end_point, sizeof a->ept);
    a->nodes = fp.nodes;
  }
  if (fp.status != OP_PATH_FOUND) return sum;
  for (uint32_t i = 0; i < fp.npolys; i++) g_refs[i] = fp.polys[i].ref;
  const op_query_corner *c;
  uint32_t nc = 0;
  if (op_query_straight_path(W.q, p.s, p.e, g_refs.data(), fp.npolys, OP_CROSS_NONE, MAX_CORNERS,
                             &c, &nc, &e) == OP_OK) {
    sum += nc;
    if (a) {
      a->path.assign(g_refs.begin(), g_refs.begin() + fp.npolys);
      for (uint32_t i = 0; i < nc; i++)
        for (int k = 0; k < 3; k++) a->corners.push_back(c[i].point[k]);
    }
  }
  return sum;
}

// ours without the explicit nearest calls (find path accepts its endpoints itself)
static inline uint64_t ours_two(const World &W, const Pair &p) {
  op_error e;
  op_query_path fp;
  if (op_query_find_path(W.q, p.s, p.e, NULL, MAX_PATH, &fp, &e) != OP_OK) return 1;
  if (fp.status != OP_PATH_FOUND) return 2;
  for (uint32_t i = 0; i < fp.npolys; i++) g_refs[i] = fp.polys[i].ref;
  const op_query_corner *c;
  uint32_t nc = 0;
  op_query_straight_path(W.q, p.s, p.e, g_refs.data(), fp.npolys, OP_CROSS_NONE, MAX_CORNERS, &c,
                         &nc, &e);
  return nc;
}

static inline uint64_t dt_one(const World &W, const Pair &p, DtAns *a) {
  dtPolyRef sref = 0, eref = 0;
  float spt[3], ept[3];
  W.dq->findNearestPoly(p.sf, W.ext, &g_filter, &sref, spt);
  W.dq->findNearestPoly(p.ef, W.ext, &g_filter, &eref, ept);
  if (a) {
    a->sref = sref;
    a->eref = eref;
    dtVcopy(a->spt, spt);
    dtVcopy(a->ept, ept);
    a->fst = 0;
    a->path.clear();
    a->corners.clear();
  }
  if (!sref || !eref) return 1;
  int n = 0;
  dtStatus st = W.dq->findPath(sref, eref, spt, ept, &g_filter, g_dpath.data(), &n, MAX_PATH);
  if (a) a->fst = st;
  if (dtStatusFailed(st) || n == 0) return 2;
  int nc = 0;
  W.dq->findStraightPath(spt, ept, g_dpath.data(), n, g_dcorn.data(), g_dflags.data(),
                         g_drefs.data(), &nc, MAX_CORNERS, 0);
  if (a) {
    a->path.assign(g_dpath.begin(), g_dpath.begin() + n);
    a->corners.assign(g_dcorn.begin(), g_dcorn.begin() + 3 * nc);
  }
  return (uint64_t)nc + sref;
}

extern "C" __attribute__((noinline)) uint64_t qd_batch_ours(const World *W, const Pair *p, int n) {
  uint64_t s = 0;
  for (int i = 0; i < n; i++) s += ours_one(*W, p[i], NULL);
  return s;
}
extern "C" __attribute__((noinline)) uint64_t qd_batch_ours2(const World *W, const Pair *p, int n) {
  uint64_t s = 0;
  for (int i = 0; i < n; i++) s += ours_two(*W, p[i]);
  return s;
}
extern "C" __attribute__((noinline)) uint64_t qd_batch_detour(const World *W, const Pair *p, int n) {
  uint64_t s = 0;
  for (int i = 0; i < n; i++) s += dt_one(*W, p[i], NULL);
  return s;
}

// ------------------------------------------------------------------ the differential

static double len_ours(const std::vector<double> &c) {
  double L = 0;
  for (size_t i = 3; i < c.size(); i += 3) {
    double dx = c[i] - c[i - 3], dy = c[i + 1] - c[i - 2], dz = c[i + 2] - c[i - 1];
    L += sqrt(dx * dx + dy * dy + dz * dz);
  }
  return L;
}
static double len_dt(const std::vector<float> &c) {
  double L = 0;
  for (size_t i = 3; i < c.size(); i += 3) {
    double dx = (double)c[i] - c[i - 3], dy = (double)c[i + 1] - c[i - 2],
           dz = (double)c[i + 2] - c[i - 1];
    L += sqrt(dx * dx + dy * dy + dz * dz);
  }
  return L;
}
static double pct(std::vector<double> v, double q) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  size_t k = (size_t)floor(q * (double)(v.size() - 1) + 0.5);
  return v[k];
}
static bool dt_found(const DtAns &d) {
  return d.sref && d.eref && dtStatusSucceed(d.fst) && !(d.fst & DT_PARTIAL_RESULT) &&
         !d.path.empty() && d.path.back() == d.eref;
}

struct Counts {
  long same = 0, same_poly_far = 0, other_poly_tie = 0, other_poly_dt_farther = 0,
       other_poly_dt_nearer = 0, only_ours = 0, only_dt = 0, neither = 0;
  long dt_outside = 0, only_dt_out = 0, dt_nearer_out = 0;
};

// nearest agreement for one endpoint
static void nearest_cmp(const World &W, const double pos[3], const op_query_nearest &o,
                        dtPolyRef dref, const float dpt[3], Counts &c) {
  if (!o.found && !dref) { c.neither++; return; }
  if (o.found && !dref) { c.only_ours++; return; }
  bool dt_out = false;  // Detour's point outside the search box (QRY-050, QRY-051)
  if (dref)
    for (int k = 0; k < 3; k++)
      if (!((double)dpt[k] >= pos[k] - W.extd[k] && (double)dpt[k] <= pos[k] + W.extd[k])) dt_out = true;
  c.dt_outside += dt_out;
  if (!o.found && dref) { c.only_dt++; c.only_dt_out += dt_out; return; }
  op_poly_id id;
  from_dt(W, dref, &id);
  double dmax = 0;
  for (int k = 0; k < 3; k++) dmax = std::max(dmax, fabs((double)dpt[k] - o.point[k]));
  if (same_id(id, o.poly.id)) {
    if (dmax <= 1e-4) c.same++;
    else c.same_poly_far++;
    return;
  }
  // different polygon: our distance (QRY-051) to Detour's point, against ours
  double dd = 0, od = 0;
  for (int k = 0; k < 3; k++) {
    dd += ((double)dpt[k] - pos[k]) * ((double)dpt[k] - pos[k]);
    od += (o.point[k] - pos[k]) * (o.point[k] - pos[k]);
  }
  if (fabs(dd - od) <= 1e-8) c.other_poly_tie++;
  else if (dd > od) c.other_poly_dt_farther++;
  else { c.other_poly_dt_nearer++; c.dt_nearer_out += dt_out; }
}

static void differential(World &W, const std::vector<Pair> &P, FILE *tsv) {
  Counts nc;
  long both = 0, none_both = 0, only_ours = 0, only_dt = 0, ours_err = 0;
  long ours_reason[4] = {0, 0, 0, 0};
  // causes of disagreement
  long c_dt_noend = 0, c_dt_nodes = 0, c_endpoint = 0, c_link = 0, c_pathlimit = 0,
       c_unexplained = 0, c_ours_noend = 0, c_ours_nodes = 0;
  long same_polys = 0, none_both_ground = 0, same_from = 0;
  std::vector<double> ratios, ratios_same;
  long same_longer = 0, same_longer_border = 0, same_shorter = 0;
  std::vector<DtAns> dts(P.size());
  std::vector<OursAns> os(P.size());
  for (size_t i = 0; i < P.size(); i++) {
    OursAns &o = os[i];
    DtAns &d = dts[i];
    ours_one(W, P[i], &o);
    same_from += o.same_as_find_path;
    dt_one(W, P[i], &d);
    nearest_cmp(W, P[i].s, o.ns, d.sref, d.spt, nc);
    nearest_cmp(W, P[i].e, o.ne, d.eref, d.ept, nc);
    bool of = o.st == OP_OK && o.ps == OP_PATH_FOUND, df = dt_found(d);
    if (o.st != OP_OK) ours_err++;
    else if (o.ps != OP_PATH_FOUND) ours_reason[o.reason]++;
    if (of && df) {
      both++;
      double lo = len_ours(o.corners), ld = len_dt(d.corners);
      ratios.push_back(ld > 0 ? lo / ld : (lo == 0 ? 1.0 : INFINITY));
      bool same = o.path.size() == d.path.size();
      for (size_t k = 0; same && k < o.path.size(); k++) same = to_ours(W, d.path[k]) == o.path[k];
      if (getenv("QD_DUMP") && ld > 0 && same && (lo / ld > atof(getenv("QD_DUMP")) || lo / ld < 2 - atof(getenv("QD_DUMP")))) {
        printf("pair %zu ratio %.4f: ours %zu polys %zu corners, Detour %zu polys %zu corners\n", i,
               lo / ld, o.path.size(), o.corners.size() / 3, d.path.size(), d.corners.size() / 3);
        for (size_t k = 0; k < o.corners.size(); k += 3)
          printf("  ours %.12f %.6f %.12f\n", o.corners[k], o.corners[k + 1], o.corners[k + 2]);
        for (size_t k = 0; k < d.corners.size(); k += 3)
          printf("  dt   %.4f %.4f %.4f\n", d.corners[k], d.corners[k + 1], d.corners[k + 2]);
      }
      same_polys += same;
      if (same) {
        ratios_same.push_back(ratios.back());
        if (ratios.back() > 1.0001 || ratios.back() < 0.9999) {
          // does one of our inner corners sit on a tile's border line (x or z on the tiling's
          // grid of tile width, within 1e-5)? There the same vertex has two world values.
          const double Wd = W.mp.tiling.cell_size * W.mp.tiling.tile_cells;
          bool border = false;
          for (size_t k = 3; k + 3 < o.corners.size(); k += 3)
            for (int a = 0; a < 3; a += 2) {
              double u = (o.corners[k + a] - W.mp.tiling.origin[a]) / Wd;
              if (fabs(u - floor(u + 0.5)) * Wd < 1e-5) border = true;
            }
          if (ratios.back() > 1) { same_longer++; same_longer_border += border; }
          else same_shorter++;
        }
      }
      continue;
    }
    if (!of && !df) {
      none_both++;
      if (P[i].s[1] < 0.5 && P[i].e[1] < 0.5) none_both_ground++;
      continue;
    }
    const char *why = "unexplained";
    if (of) {  // ours only
      only_ours++;
      if (!d.sref || !d.eref) { c_dt_noend++; why = "Detour: no polygon in the endpoint box"; }
      else if (d.fst & DT_OUT_OF_NODES) { c_dt_nodes++; why = "Detour: node pool exhausted"; }
      else {
        // Detour again from our accepted endpoints (same polygons and points)
        dtPolyRef s2 = to_dt(W, o.sp.id), e2 = to_dt(W, o.ep.id);
        float sp[3], ep[3];
        for (int k = 0; k < 3; k++) { sp[k] = (float)o.spt[k]; ep[k] = (float)o.ept[k]; }
        int n = 0;
        dtStatus st = W.dq->findPath(s2, e2, sp, ep, &g_filter, g_dpath.data(), &n, MAX_PATH);
        bool missing = false;
        for (size_t k = 1; k < o.path.size(); k++) {
          op_poly_id a, b;
          op_error e;
          op_query_poly_id(W.built.mesh, o.path[k - 1], &a, &e);
          op_query_poly_id(W.built.mesh, o.path[k], &b, &e);
          if (!dt_linked(W, to_dt(W, a), to_dt(W, b))) missing = true;
        }
        if ((s2 != d.sref || e2 != d.eref) && dtStatusSucceed(st) && !(st & DT_PARTIAL_RESULT) && n > 0 &&
            g_dpath[n - 1] == e2) {
          c_endpoint++;
          why = "endpoint choice: Detour finds the path from our endpoints";
        } else if (missing) {
          c_link++;
          why = "our path crosses a link Detour does not have";
        } else c_unexplained++;
      }
    } else {  // Detour only
      only_dt++;
      if (o.st != OP_OK) { c_ours_noend++; why = "ours: no polygon accepts an endpoint (QRY-061)"; }
      else if (o.reason == OP_PATH_NODE_LIMIT) { c_ours_nodes++; why = "ours: node_limit"; }
      else if (o.reason == OP_PATH_PATH_LIMIT) { c_pathlimit++; why = "ours: path_limit"; }
      else {
        bool missing = false;
        for (size_t k = 1; k < d.path.size(); k++)
          if (!ours_linked(W, to_ours(W, d.path[k - 1]), to_ours(W, d.path[k]))) missing = true;
        op_poly_id ds, de;
        from_dt(W, d.sref, &ds);
        from_dt(W, d.eref, &de);
        bool ends_differ = !same_id(ds, o.sp.id) || !same_id(de, o.ep.id);
        if (ends_differ) {
          // ours again from Detour's endpoint points
          Pair q2 = P[i];
          for (int k = 0; k < 3; k++) { q2.s[k] = d.spt[k]; q2.e[k] = d.ept[k]; }
          OursAns o2;
          ours_one(W, q2, &o2);
          if (o2.st == OP_OK && o2.ps == OP_PATH_FOUND) {
            c_endpoint++;
            why = "endpoint choice: ours finds the path from Detour's endpoints";
          } else if (missing) {
            c_link++;
            why = "Detour's path crosses a link ours does not have";
          } else c_unexplained++;
        } else if (missing) {
          c_link++;
          why = "Detour's path crosses a link ours does not have";
        } else c_unexplained++;
      }
    }
    if (tsv)
      fprintf(tsv, "DISAGREE\t%s\t%zu\t%s\t%.9g,%.9g,%.9g\t%.9g,%.9g,%.9g\t%s\n", W.name.c_str(), i,
              of ? "ours-only" : "detour-only", P[i].s[0], P[i].s[1], P[i].s[2], P[i].e[0],
              P[i].e[1], P[i].e[2], why);
  }
  const long N = (long)P.size();
  printf("\n### %s %u: differential (%ld pairs, seed as above%s)\n\n", W.name.c_str(), W.size, N,
         W.lift > 0 || W.jitter > 0
             ? (", endpoints raised by U(0, " + std::to_string(W.lift).substr(0, 5) +
                ") and moved by U(-" + std::to_string(W.jitter).substr(0, 5) + ", +" +
                std::to_string(W.jitter).substr(0, 5) + ") on x and z").c_str()
             : "");
  printf("Mesh: %zu tiles, %llu polygons; links ours %llu, Detour %llu; polygons whose link "
         "sets differ: %llu (links only ours %llu, only Detour %llu).\n\n",
         W.tiles.size(), (unsigned long long)W.npolys, (unsigned long long)W.links_ours,
         (unsigned long long)W.links_dt, (unsigned long long)W.polys_link_diff,
         (unsigned long long)W.links_only_ours, (unsigned long long)W.links_only_dt);
  printf("Nearest polygon, %ld endpoints, half extents (%.3g, %.3g, %.3g):\n\n", 2 * N, W.extd[0],
         W.extd[1], W.extd[2]);
  printf("| same polygon, point within 1e-4 | same polygon, point farther | other polygon, equal "
         "distance (tie) | other polygon, Detour's point farther (QRY-051 distance) | other "
         "polygon, Detour's nearer | ours only | Detour only | neither |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  printf("| %ld | %ld | %ld | %ld | %ld | %ld | %ld | %ld |\n\n", nc.same, nc.same_poly_far,
         nc.other_poly_tie, nc.other_poly_dt_farther, nc.other_poly_dt_nearer, nc.only_ours,
         nc.only_dt, nc.neither);
  printf("Detour's nearest point outside the search box (ours requires it inside, QRY-051): %ld "
         "(of the Detour-only %ld, of the Detour-nearer %ld).\n\n",
         nc.dt_outside, nc.only_dt_out, nc.dt_nearer_out);
  printf("Find path from the nearest answers (QRY-074) = find path (QRY-061), every field: "
         "%ld of %zu pairs%s.\n\n", same_from, P.size(),
         same_from == (long)P.size() ? "" : " -- QRY-074 BROKEN");
  printf("Find path: both found %ld, both none %ld, ours only %ld, Detour only %ld "
         "(ours: %ld endpoint errors, no_path disconnected %ld, node_limit %ld, path_limit %ld); "
         "same polygon sequence where both found: %ld. Both none with both endpoints below "
         "y = 0.5 (on the ground, not on a roof, deck or wall top): %ld.\n\n",
         both, none_both, only_ours, only_dt, ours_err, ours_reason[1], ours_reason[2],
         ours_reason[3], same_polys, none_both_ground);
  printf("Disagreements explained: Detour no endpoint polygon %ld, Detour node pool %ld, "
         "endpoint choice %ld, missing link %ld, ours no endpoint %ld, ours node_limit %ld, "
         "ours path_limit %ld; unexplained %ld.\n\n",
         c_dt_noend, c_dt_nodes, c_endpoint, c_link, c_ours_noend, c_ours_nodes, c_pathlimit,
         c_unexplained);
  long shorter = 0, longer = 0;
  for (double r : ratios) {
    if (r < 0.9999) shorter++;
    if (r > 1.0001) longer++;
  }
  printf("Straight-path length ours / Detour (%zu pairs): min %.4f, p10 %.4f, median %.4f, "
         "p90 %.4f, max %.4f; ours shorter by > 0.01 %%: %ld, longer: %ld.\n",
         ratios.size(), pct(ratios, 0), pct(ratios, 0.1), pct(ratios, 0.5), pct(ratios, 0.9),
         pct(ratios, 1), shorter, longer);
  printf("Same, over the %zu pairs whose polygon sequences are equal (the funnels alone): min "
         "%.4f, p10 %.4f, median %.4f, p90 %.4f, max %.4f.\n",
         ratios_same.size(), pct(ratios_same, 0), pct(ratios_same, 0.1), pct(ratios_same, 0.5),
         pct(ratios_same, 0.9), pct(ratios_same, 1));
  printf("Equal sequences, lengths differing by > 0.01 %%: ours longer %ld (of which %ld with an "
         "inner corner of ours on a tile border line), ours shorter %ld.\n",
         same_longer, same_longer_border, same_shorter);
  if (tsv)
    fprintf(tsv, "DIFF\t%s\t%u\t%ld\t%ld\t%ld\t%ld\t%ld\t%ld\t%ld\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n",
            W.name.c_str(), W.size, N, nc.same, both, none_both, only_ours, only_dt, c_unexplained,
            pct(ratios, 0), pct(ratios, 0.1), pct(ratios, 0.5), pct(ratios, 0.9), pct(ratios, 1));
}

// ------------------------------------------------------------------ the benchmark

// ------------------------------------------------------------ surface queries (QSF)

// The differential of raycast and move along surface (spec/query-surface.md QSF-103 ..
// QSF-116) against Detour's raycast and moveAlongSurface, on the same pairs: from the start's
// nearest polygon and point on each side (only the pairs whose nearest polygon is the same on
// both sides, so that the walks alone are compared) toward the pair's end.
static bool same_seq(const World &W, const op_query_poly *o, uint32_t no, const dtPolyRef *d,
                     int nd) {
  if ((int)no != nd) return false;
  for (int i = 0; i < nd; i++) {
    op_poly_id id;
    if (!from_dt(W, d[i], &id) || !same_id(id, o[i].id)) return false;
  }
  return true;
}

static void surface_differential(World &W, const std::vector<Pair> &P) {
  const uint32_t MAXV = 256;
  std::vector<op_query_poly> ov(MAXV);
  std::vector<dtPolyRef> dv(MAXV);
  long pairs = 0, ours_refused = 0;
  long r_end = 0, r_end_seq = 0, r_wall = 0, r_wall_t = 0, r_wall_seq = 0, r_wall_n = 0,
       r_ours_end_dt_wall = 0, r_ours_wall_dt_end = 0, r_limit = 0;
  double r_max_dt = 0;
  long m_same = 0, m_far = 0, m_poly = 0, m_seq = 0, m_far64 = 0, m_ours_closer = 0,
       m_dt_closer = 0;
  double m_far_minlen = -1;
  std::vector<double> m_d;
  for (const Pair &p : P) {
    op_error e;
    op_query_nearest ns;
    dtPolyRef sref = 0;
    float spt[3];
    op_query_nearest_poly(W.q, p.s, W.extd, NULL, &ns, &e);
    W.dq->findNearestPoly(p.sf, W.ext, &g_filter, &sref, spt);
    op_poly_id did;
    if (!ns.found || !sref || !from_dt(W, sref, &did) || !same_id(did, ns.poly.id)) continue;
    pairs++;
    // raycast
    op_query_ray ray;
    op_status st = op_query_raycast(W.q, ns.poly.ref, ns.point, p.e, NULL, 0, ov.data(), MAXV,
                                    &ray, &e);
    float t = 0, hn[3];
    int nd = 0;
    W.dq->raycast(sref, spt, p.ef, &g_filter, &t, hn, dv.data(), &nd, (int)MAXV);
    if (st != OP_OK) {
      ours_refused++;
      continue;
    }
    bool dt_end = t == FLT_MAX;
    if (ray.status == OP_RAY_LIMIT) r_limit++;
    else if (ray.status == OP_RAY_END && dt_end) {
      r_end++;
      r_end_seq += same_seq(W, ov.data(), ray.npolys, dv.data(), nd);
    } else if (ray.status == OP_RAY_WALL && !dt_end) {
      r_wall++;
      double d = fabs(ray.t - (double)t);
      if (d > r_max_dt) r_max_dt = d;
      r_wall_t += d <= 1e-4;
      if (d > 1e-4)
        printf("  raycast t differs: %s start (%.9g, %.9g, %.9g) end (%.9g, %.9g, %.9g): ours %s "
               "t %.9g edge %u after %u polygons, Detour t %.9g after %d polygons\n",
               W.name.c_str(), ns.point[0], ns.point[1], ns.point[2], p.e[0], p.e[1], p.e[2],
               op_ray_status_name(ray.status), ray.t, ray.edge, ray.npolys, (double)t, nd);
      r_wall_seq += same_seq(W, ov.data(), ray.npolys, dv.data(), nd);
      r_wall_n += fabs(ray.normal[0] - hn[0]) <= 1e-4 && fabs(ray.normal[2] - hn[2]) <= 1e-4;
    } else if (ray.status == OP_RAY_END) r_ours_end_dt_wall++;
    else r_ours_wall_dt_end++;
    // move along surface
    op_query_move mv;
    st = op_query_move_along_surface(W.q, ns.poly.ref, ns.point, p.e, NULL, ov.data(), MAXV, &mv,
                                     &e);
    float rp[3];
    nd = 0;
    W.dq->moveAlongSurface(sref, spt, p.ef, &g_filter, rp, dv.data(), &nd, (int)MAXV);
    if (st != OP_OK) continue;
    double dx = mv.point[0] - rp[0], dz = mv.point[2] - rp[2];
    double d = sqrt(dx * dx + dz * dz);
    m_d.push_back(d);
    if (d <= 1e-3) m_same++;
    else {
      m_far++;
      // explained when ours, given Detour's budget (a search stack of 48 polygons) as its
      // visited cap, ends within 1e-3 of Detour's end point
      op_query_move m64;
      if (op_query_move_along_surface(W.q, ns.poly.ref, ns.point, p.e, NULL, ov.data(), 48, &m64,
                                      &e) == OP_OK) {
        double ex = m64.point[0] - rp[0], ez = m64.point[2] - rp[2];
        if (sqrt(ex * ex + ez * ez) <= 1e-3) m_far64++;
      }
      double lx = p.e[0] - ns.point[0], lz = p.e[2] - ns.point[2];
      double len = sqrt(lx * lx + lz * lz);
      if (m_far_minlen < 0 || len < m_far_minlen) m_far_minlen = len;
      double od = sqrt((mv.point[0] - p.e[0]) * (mv.point[0] - p.e[0]) +
                       (mv.point[2] - p.e[2]) * (mv.point[2] - p.e[2]));
      double ddd = sqrt((rp[0] - p.e[0]) * (rp[0] - p.e[0]) + (rp[2] - p.e[2]) * (rp[2] - p.e[2]));
      if (od < ddd) m_ours_closer++;
      else if (ddd < od) m_dt_closer++;
      if (getenv("QD_MOVES"))
        printf("  move differs: %s start (%.9g, %.9g, %.9g) end (%.9g, %.9g, %.9g), length %.4g: "
               "ours (%.6g, %.6g) after %u polygons%s, Detour (%.6g, %.6g) after %d; plane "
               "distance to the end: ours %.6g, Detour %.6g\n",
               W.name.c_str(), ns.point[0], ns.point[1], ns.point[2], p.e[0], p.e[1], p.e[2],
               len, mv.point[0], mv.point[2], mv.nvisited, mv.truncated ? " (truncated)" : "",
               (double)rp[0], (double)rp[2], nd,
               sqrt((mv.point[0] - p.e[0]) * (mv.point[0] - p.e[0]) +
                    (mv.point[2] - p.e[2]) * (mv.point[2] - p.e[2])),
               sqrt((rp[0] - p.e[0]) * (rp[0] - p.e[0]) + (rp[2] - p.e[2]) * (rp[2] - p.e[2])));
      st = op_query_move_along_surface(W.q, ns.poly.ref, ns.point, p.e, NULL, ov.data(), MAXV, &mv,
                                       &e); /* the answer again, for the counts below */
    }
    op_poly_id last;
    if (nd > 0 && from_dt(W, dv[nd - 1], &last) && same_id(last, mv.poly.id)) m_poly++;
    m_seq += same_seq(W, ov.data(), mv.nvisited, dv.data(), nd);
  }
  printf("Surface queries (QSF) against Detour, %ld pairs whose start has the same nearest "
         "polygon on both sides (of %zu); ours refused a raycast start %ld times:\n\n",
         pairs, P.size(), ours_refused);
  printf("| raycast | both reach the end | of them, same polygons | both hit a wall | of them, "
         "t within 1e-4 | same normal | same polygons | max t difference | ours end, Detour "
         "wall | ours wall, Detour end | ours limit (256) |\n");
  printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  printf("| %s | %ld | %ld | %ld | %ld | %ld | %ld | %.3g | %ld | %ld | %ld |\n\n",
         W.name.c_str(), r_end, r_end_seq, r_wall, r_wall_t, r_wall_n, r_wall_seq, r_max_dt,
         r_ours_end_dt_wall, r_ours_wall_dt_end, r_limit);
  printf("| move along surface | end points within 1e-3 (plane) | farther | same end polygon | "
         "same visited list | median distance | p90 | max |\n");
  printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
  printf("| %s | %ld | %ld | %ld | %ld | %.3g | %.3g | %.3g |\n\n", W.name.c_str(), m_same, m_far,
         m_poly, m_seq, pct(m_d, 0.5), pct(m_d, 0.9), pct(m_d, 1.0));
  printf("Move end points farther than 1e-3: %ld; of them %ld end within 1e-3 of Detour's when "
         "ours is capped at 48 visited polygons (Detour's moveAlongSurface keeps at most 48 polygons on its search stack); the "
         "shortest such move is %.3g long; ours ends nearer the target in %ld of them, Detour in %ld "
         "(QD_MOVES=1 prints each).\n\n", m_far, m_far64, m_far_minlen, m_ours_closer, m_dt_closer);
}

static void benchmark(World &W, const std::vector<Pair> &P, int reps, FILE *tsv) {
  const int n = (int)P.size();
  double best[3][2];  // ours4, ours2, detour x cpu, wall
  for (int a = 0; a < 3; a++) best[a][0] = best[a][1] = 1e300;
  volatile uint64_t sink = 0;
  for (int r = 0; r < reps; r++) {
    for (int a = 0; a < 3; a++) {
      double c0 = cpu_now(), w0 = wall_now();
      if (a == 0) sink += qd_batch_ours(&W, P.data(), n);
      else if (a == 1) sink += qd_batch_ours2(&W, P.data(), n);
      else sink += qd_batch_detour(&W, P.data(), n);
      double c1 = cpu_now(), w1 = wall_now();
      best[a][0] = std::min(best[a][0], c1 - c0);
      best[a][1] = std::min(best[a][1], w1 - w0);
    }
  }
  // find path alone, per pair, best of reps, bucketed by polygon count
  std::vector<double> to(n, 1e300), td(n, 1e300);
  std::vector<int> lo(n, 0), ld(n, 0);
  std::vector<dtPolyRef> sr(n), er(n);
  std::vector<float> spt(3 * n), ept(3 * n);
  for (int i = 0; i < n; i++) {
    W.dq->findNearestPoly(P[i].sf, W.ext, &g_filter, &sr[i], &spt[3 * i]);
    W.dq->findNearestPoly(P[i].ef, W.ext, &g_filter, &er[i], &ept[3 * i]);
  }
  for (int r = 0; r < reps; r++)
    for (int i = 0; i < n; i++) {
      op_error e;
      op_query_path fp;
      double t0 = wall_now();
      op_status st = op_query_find_path(W.q, P[i].s, P[i].e, NULL, MAX_PATH, &fp, &e);
      double t1 = wall_now();
      to[i] = std::min(to[i], t1 - t0);
      lo[i] = (st == OP_OK && fp.status == OP_PATH_FOUND) ? (int)fp.npolys : 0;
      if (sr[i] && er[i]) {
        int np = 0;
        t0 = wall_now();
        dtStatus ds = W.dq->findPath(sr[i], er[i], &spt[3 * i], &ept[3 * i], &g_filter,
                                     g_dpath.data(), &np, MAX_PATH);
        t1 = wall_now();
        td[i] = std::min(td[i], t1 - t0);
        ld[i] = (dtStatusSucceed(ds) && !(ds & DT_PARTIAL_RESULT)) ? np : 0;
      }
    }
  char load[64] = "?";
  FILE *f = fopen("/proc/loadavg", "r");
  if (f) {
    if (!fgets(load, sizeof load, f)) strcpy(load, "?");
    fclose(f);
    char *sp = load;
    for (int k = 0; k < 3 && sp; k++) sp = strchr(sp + 1, ' ');
    if (sp) *sp = 0;
  }
  printf("\n### %s %u: time per query (%d pairs, best of %d batches; load %s)\n\n", W.name.c_str(),
         W.size, n, reps, load);
  printf("| calls per query | ours us (CPU) | Detour us (CPU) | ratio (CPU) | ours us (wall) | "
         "Detour us (wall) | ratio (wall) |\n|---|---:|---:|---:|---:|---:|---:|\n");
  const char *lab[2] = {"nearest x2 + find path + straight path (the four calls)",
                        "ours: find path + straight path (its own endpoint acceptance)"};
  for (int a = 0; a < 2; a++)
    printf("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", lab[a], 1e6 * best[a][0] / n,
           1e6 * best[2][0] / n, best[a][0] / best[2][0], 1e6 * best[a][1] / n,
           1e6 * best[2][1] / n, best[a][1] / best[2][1]);
  if (tsv)
    fprintf(tsv, "BENCH\t%s\t%u\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%s\n", W.name.c_str(),
            W.size, n, 1e6 * best[0][0] / n, 1e6 * best[1][0] / n, 1e6 * best[2][0] / n,
            1e6 * best[0][1] / n, 1e6 * best[1][1] / n, 1e6 * best[2][1] / n, load);
  // buckets by polygon count of the found path
  static const int edges[] = {1, 2, 5, 9, 17, 33, 65, 129, 1 << 30};
  const int nb = 8;
  printf("\nFind path alone against path length (polygons of the found path; median us per "
         "call, wall, best of %d):\n\n| polygons | pairs ours | ours us | pairs Detour | Detour us | ratio |\n|---|---:|---:|---:|---:|---:|\n",
         reps);
  for (int b = 0; b < nb; b++) {
    std::vector<double> a, d;
    for (int i = 0; i < n; i++) {
      if (lo[i] >= edges[b] && lo[i] < edges[b + 1]) a.push_back(to[i]);
      if (ld[i] >= edges[b] && ld[i] < edges[b + 1]) d.push_back(td[i]);
    }
    if (a.empty() && d.empty()) continue;
    char name[32];
    if (edges[b + 1] >= (1 << 30)) snprintf(name, sizeof name, "%d+", edges[b]);
    else if (edges[b + 1] - 1 == edges[b]) snprintf(name, sizeof name, "%d", edges[b]);
    else snprintf(name, sizeof name, "%d-%d", edges[b], edges[b + 1] - 1);
    double ma = pct(a, 0.5), md = pct(d, 0.5);
    char rt[32] = "-";
    if (!a.empty() && !d.empty()) snprintf(rt, sizeof rt, "%.2f", ma / md);
    printf("| %s | %zu | %.2f | %zu | %.2f | %s |\n", name, a.size(), 1e6 * ma, d.size(), 1e6 * md, rt);
    if (tsv) fprintf(tsv, "BUCKET\t%s\t%s\t%zu\t%.3f\t%zu\t%.3f\n", W.name.c_str(), name, a.size(), 1e6 * ma, d.size(), 1e6 * md);
  }
  (void)sink;
}

int main(int argc, char **argv) {
  int pairs = 2000, reps = 5;
  uint64_t seed = 14;
  std::string only, side;
  uint32_t size = 0;
  const char *tsvpath = NULL;
  double lift = 0, jitter = 0;
  bool nobench = false;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto next = [&]() -> const char * {
      if (i + 1 >= argc) die2(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--quick") { pairs = 500; reps = 3; }
    else if (a == "--pairs") pairs = atoi(next());
    else if (a == "--reps") reps = atoi(next());
    else if (a == "--seed") seed = strtoull(next(), NULL, 10);
    else if (a == "--only") only = next();
    else if (a == "--size") size = (uint32_t)atoi(next());
    else if (a == "--side") side = next();
    else if (a == "--tsv") tsvpath = next();
    else if (a == "--lift") lift = atof(next());
    else if (a == "--jitter") jitter = atof(next());
    else if (a == "--no-bench") nobench = true;
    else {
      fprintf(stderr, "usage: bench-query [--quick] [--pairs N] [--reps N] [--seed S] [--only city|dungeon] [--size N] [--side ours|ours2|detour|none] [--tsv FILE] [--lift H] [--jitter R] [--no-bench]\n");
      return 2;
    }
  }
  if (pairs < 1 || reps < 1) die2("--pairs and --reps must be >= 1");
  FILE *tsv = tsvpath ? fopen(tsvpath, "w") : NULL;
  struct Lv { const char *name; uint32_t size; } lvs[] = {{"city", 4}, {"dungeon", 32}};
  if (side.empty())
    printf("## bench-query: seed %llu, %d pairs per level, Humanoid, Detour %s\n",
           (unsigned long long)seed, pairs, "librecast 1.5.1 (Debian)");
  for (const Lv &lv : lvs) {
    if (!only.empty() && only != lv.name) continue;
    World W;
    W.lift = lift;
    W.jitter = jitter;
    setup(W, lv.name, size ? size : lv.size);
    std::vector<Pair> P = make_pairs(W, pairs, seed);
    if (getenv("QD_COMPONENTS")) components(W);
    if (!side.empty()) {  // one batch of one side, for callgrind
      volatile uint64_t s = 0;
      if (side == "ours") s += qd_batch_ours(&W, P.data(), pairs);
      else if (side == "ours2") s += qd_batch_ours2(&W, P.data(), pairs);
      else if (side == "detour") s += qd_batch_detour(&W, P.data(), pairs);
      else if (side != "none") die2("--side must be ours, ours2, detour or none");
      printf("side %s: %d pairs done\n", side.c_str(), pairs);
      continue;
    }
    differential(W, P, tsv);
    surface_differential(W, P);
    if (!nobench) benchmark(W, P, reps, tsv);
    // leave the mesh to the process exit (dtFreeNavMesh frees the tiles)
    dtFreeNavMeshQuery(W.dq);
    dtFreeNavMesh(W.nav);
    op_query_free(W.q);
    op_pipeline_result_free(&W.built);
  }
  if (tsv) fclose(tsv);
  return 0;
}
