/*
** fixtures3d.h -- fixtures the 3D and mesh tests share: hand-made heightfield grids
** (SPAN-100), the Humanoid preset without detail sampling for a partition, generated
** levels (whole, or tile by tile with a preset), cached and plain builds of a soup, the hand-made mesh tiling, empty meshes and
** strip tiles (MESH-001, FMT), the canonical bytes of a mesh, its snapshot and a tile
** cache's snapshot, byte equality, and the obstacle and volume constructors (RT-020,
** RT-040). Header only (tests/test_*.c build one executable each): every function is
** static inline, so an includer pays only for what it calls. The helpers report failures
** on stderr and return empty bytes / NULL; the checks stay in the tests.
*/
#ifndef FIXTURES3D_H
#define FIXTURES3D_H

#include <stdio.h>
#include <string.h>

#include "onepath_pipeline.h"
#include "onepath_tilecache.h"

/* The grid of a hand-made heightfield (SPAN-100): w x d columns of cs x ch, height rows,
** origin 0, first column and row 0. */
static inline op_hf_grid fx_grid(int32_t w, int32_t d, double cs, double ch, int32_t height) {
  op_hf_grid g;
  memset(&g, 0, sizeof g);
  g.cs = cs;
  g.ch = ch;
  g.width = w;
  g.depth = d;
  g.height = height;
  return g;
}

/* An empty heightfield on fx_grid(w, d, cs, ch, height); NULL on failure. */
static inline op_hf *fx_hf(int32_t w, int32_t d, double cs, double ch, int32_t height) {
  op_hf_grid g = fx_grid(w, d, cs, ch, height);
  op_hf *hf = NULL;
  if (op_hf_create(&g, &hf, NULL) != OP_OK) return NULL;
  return hf;
}

/* The Humanoid preset with partition p and no detail sampling (POLY-202; with Layers the
** layer-first path, RT-080). */
static inline op_settings fx_humanoid(op_partition p) {
  op_settings s;
  op_settings_preset("Humanoid", &s, NULL);
  s.detail_sample_distance = 0;
  s.partition = p;
  return s;
}

/* A generated level (op_level_generate with no settings); zeroed when it fails. */
static inline op_trimesh fx_level(const char *name, uint64_t seed, uint32_t size) {
  op_trimesh m;
  memset(&m, 0, sizeof m);
  op_error e;
  if (op_level_generate(name, seed, size, NULL, &m, &e) != OP_OK)
    fprintf(stderr, "  level %s: %s\n", name, e.message);
  return m;
}

/* A level generated with a preset's settings (seed 11) and the tile range of its spans
** build, as the per-tile property tests of the contour and polygon stages walk it. */
typedef struct fx_level_tiles {
  op_settings s;
  op_cell_settings cell;
  op_trimesh m; /* owned: fx_level_tiles_close */
  op_soup soup;
  double o[3], ymax;
  int32_t nx, nz;
} fx_level_tiles;

/* 0, or -1 when a step fails (reported on stderr). */
static inline int fx_level_tiles_open(fx_level_tiles *lt, const char *name, uint32_t size,
                                      const char *preset) {
  memset(lt, 0, sizeof *lt);
  op_error e;
  if (op_settings_preset(preset, &lt->s, &e) != OP_OK ||
      op_settings_derive(&lt->s, &lt->cell, &e) != OP_OK ||
      op_level_generate(name, 11, size, &lt->s, &lt->m, &e) != OP_OK) {
    fprintf(stderr, "  level %s/%s: %s\n", name, preset, e.message);
    return -1;
  }
  lt->soup = op_trimesh_soup(&lt->m);
  if (op_soup_frame(&lt->soup, lt->o, &lt->ymax, &e) != OP_OK ||
      op_spans_tile_range(&lt->s, &lt->soup, &lt->nx, &lt->nz, &e) != OP_OK) {
    fprintf(stderr, "  level %s/%s: %s\n", name, preset, e.message);
    return -1;
  }
  return 0;
}

/* The compact heightfield of tile (tx, tz); *out NULL for a tile with no span. */
static inline op_status fx_level_tile(const fx_level_tiles *lt, int32_t tx, int32_t tz,
                                      op_chf **out) {
  return op_spans_build_tile(&lt->s, &lt->soup, lt->o, lt->o[1], lt->ymax, tx, tz, out, NULL);
}

static inline void fx_level_tiles_close(fx_level_tiles *lt) { op_trimesh_free(&lt->m); }

/* A tile cache built from soup with s (op_pipeline_build_soup_cached); NULL on failure. */
static inline op_tilecache *fx_cache(const op_settings *s, const op_soup *soup) {
  op_tilecache *c = NULL;
  op_error e;
  if (op_pipeline_build_soup_cached(s, soup, NULL, NULL, &c, &e) != OP_OK)
    fprintf(stderr, "  cached build: %s %s %s\n", op_status_name(e.kind), e.field, e.message);
  return c;
}

/* The tiling of the hand-made mesh tests (test_mesh.c, test_snapshot.c, test_mesh_batch.c):
** tiles of 4 x 4 cells of 1 on the origin, cell height ch, 6 vertices per polygon. */
static inline op_tiling fx_tiling(double ch) {
  op_tiling t;
  memset(&t, 0, sizeof t);
  t.cell_size = 1.0;
  t.cell_height = ch;
  t.tile_cells = 4;
  t.max_verts_per_poly = 6;
  return t;
}

/* Mesh parameters on fx_tiling(0.5) (MESH-001). */
static inline op_mesh_params fx_mesh_params(double climb, uint32_t max_tiles) {
  op_mesh_params p;
  p.tiling = fx_tiling(0.5);
  p.walkable_climb = climb;
  p.max_tiles = max_tiles;
  return p;
}

/* An empty mesh with fx_mesh_params(climb, max_tiles); NULL on failure. */
static inline op_mesh *fx_mesh(double climb, uint32_t max_tiles) {
  op_mesh_params p = fx_mesh_params(climb, max_tiles);
  op_mesh *m = NULL;
  op_error e;
  if (op_mesh_create(&p, &m, &e) != OP_OK) fprintf(stderr, "  mesh: %s\n", e.message);
  return m;
}

/* A strip tile on fx_tiling(ch): horizontal strips between the cuts z_0 < .. < z_n (n at most
** 8), x over [0, 4]; polygon k has flags k + 1, edge 0 bottom, 1 right (portal +x), 2 top,
** 3 left (portal -x); the first strip's bottom is a -z portal, the last strip's top a +z
** portal. Local y of a vertex = ybase + slope_x * x + slope_z * z. NULL on failure. */
static inline op_tile *fx_strip_tile(int x, int z, int layer, double oy, int n,
                                     const float *cuts, float ybase, float slope_x,
                                     float slope_z, double ch) {
  float verts[3 * 2 * 9];
  op_poly_desc polys[8];
  memset(polys, 0, sizeof polys);
  for (int k = 0; k <= n; k++) {
    float zz = cuts[k];
    float *a = &verts[6 * k], *b = a + 3;
    a[0] = 0.0f, a[1] = ybase + slope_z * zz, a[2] = zz;                 /* 2k: x = 0 */
    b[0] = 4.0f, b[1] = ybase + slope_x * 4.0f + slope_z * zz, b[2] = zz; /* 2k+1: x = 4 */
  }
  for (int k = 0; k < n; k++) {
    op_poly_desc *p = &polys[k];
    p->nverts = 4;
    p->flags = (uint16_t)(k + 1);
    p->verts[0] = (uint16_t)(2 * k), p->verts[1] = (uint16_t)(2 * k + 1);
    p->verts[2] = (uint16_t)(2 * k + 3), p->verts[3] = (uint16_t)(2 * k + 2);
    p->neis[0] = k == 0 ? (OP_NEI_PORTAL | 3u) : (uint16_t)k;           /* polygon k-1 */
    p->neis[1] = OP_NEI_PORTAL | 2u;
    p->neis[2] = k == n - 1 ? (OP_NEI_PORTAL | 1u) : (uint16_t)(k + 2); /* polygon k+1 */
    p->neis[3] = OP_NEI_PORTAL | 0u;
  }
  op_tile_desc d;
  memset(&d, 0, sizeof d);
  d.x = x, d.z = z, d.layer = layer;
  d.tiling = fx_tiling(ch);
  d.origin_y = oy;
  d.nverts = (uint32_t)(2 * (n + 1));
  d.verts = verts;
  d.npolys = (uint32_t)n;
  d.polys = polys;
  op_tile *t = NULL;
  op_error e;
  if (op_tile_create(&d, &t, &e) != OP_OK) {
    fprintf(stderr, "  strip tile: %s\n", e.message);
    return NULL;
  }
  return t;
}

/* The mesh of a plain (uncached) build of soup with s; NULL on failure. */
static inline op_mesh *fx_plain(const op_settings *s, const op_soup *soup) {
  op_pipeline_result r;
  op_error e;
  if (op_pipeline_build_soup(s, soup, NULL, &r, &e) != OP_OK) {
    fprintf(stderr, "  plain build: %s\n", e.message);
    return NULL;
  }
  op_mesh *mesh = r.mesh;
  r.mesh = NULL;
  op_pipeline_result_free(&r);
  return mesh;
}

/* The canonical bytes of a mesh (MESH-040); empty on failure. */
static inline op_bytes fx_mesh_bytes(const op_mesh *m) {
  op_bytes b = {NULL, 0};
  op_error e;
  if (op_mesh_save(m, &b, &e) != OP_OK) fprintf(stderr, "  mesh save: %s\n", e.message);
  return b;
}

/* A mesh's snapshot bytes (the canonical bytes plus the empty slots); empty on failure. */
static inline op_bytes fx_mesh_snapshot(const op_mesh *m) {
  op_bytes b = {NULL, 0};
  op_error e;
  if (op_mesh_snapshot_save(m, &b, &e) != OP_OK) fprintf(stderr, "  snapshot: %s\n", e.message);
  return b;
}

/* A tile cache's state snapshot (SNAP-016); empty on failure. */
static inline op_bytes fx_cache_snapshot(const op_tilecache *c) {
  op_bytes b = {NULL, 0};
  op_error e;
  if (op_tilecache_snapshot_save(c, &b, &e) != OP_OK)
    fprintf(stderr, "  cache snapshot: %s\n", e.message);
  return b;
}

/* 1 when a and b hold the same bytes. */
static inline int fx_same(const op_bytes *a, const op_bytes *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* RT-020: a vertical cylinder, base centre (x, y, z). */
static inline op_obstacle fx_cylinder(double x, double y, double z, double r, double h) {
  op_obstacle o;
  memset(&o, 0, sizeof o);
  o.shape = OP_OBSTACLE_CYLINDER;
  o.center[0] = x, o.center[1] = y, o.center[2] = z;
  o.radius = r, o.height = h;
  return o;
}

/* RT-020: an axis-aligned box from its two corners. */
static inline op_obstacle fx_box(double x0, double y0, double z0, double x1, double y1,
                                 double z1) {
  op_obstacle o;
  memset(&o, 0, sizeof o);
  o.shape = OP_OBSTACLE_BOX;
  o.bmin[0] = x0, o.bmin[1] = y0, o.bmin[2] = z0;
  o.bmax[0] = x1, o.bmax[1] = y1, o.bmax[2] = z1;
  return o;
}

/* RT-020: a box turned by yaw about the vertical through its centre. */
static inline op_obstacle fx_obox(double x, double y, double z, double hx, double hy,
                                  double hz, double yaw) {
  op_obstacle o;
  memset(&o, 0, sizeof o);
  o.shape = OP_OBSTACLE_ORIENTED_BOX;
  o.center[0] = x, o.center[1] = y, o.center[2] = z;
  o.half[0] = hx, o.half[1] = hy, o.half[2] = hz;
  o.yaw = yaw;
  return o;
}

/* RT-040, SPAN-003: a four-point convex volume over [x0, x1] x [z0, z1]. */
static inline op_convex_volume fx_quad(double x0, double z0, double x1, double z1,
                                       double ymin, double ymax, uint8_t area) {
  op_convex_volume v;
  memset(&v, 0, sizeof v);
  v.npoints = 4;
  double p[4][2] = {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}};
  memcpy(v.points, p, sizeof p);
  v.ymin = ymin, v.ymax = ymax, v.area = area;
  return v;
}

#endif
