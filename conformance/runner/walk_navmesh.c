/*
** walk_navmesh.c -- typed field walkers of the navigation mesh artifacts, from the layout
** tables of the spec (CONF-200):
**   tile      navmesh-format.md FMT-040 .. FMT-043 (the names of the tables: header.nverts,
**             verts[3].z, polys[2].neis[1], detail_tris[4].flags, offmesh[0].radius, ...)
**   mesh      navmesh-mesh.md MESH-040 .. MESH-043 (header; per tile record "tile X,Z,L: "
**             then slot .. tile_length, the tile's fields as "tile.<field>", edits, links)
**   snapshot  navmesh-snapshot.md SNAP-002 .. SNAP-017 (header; sections[k].tag ...; the
**             SLOT payload's free[i], ntiles and tiles[i] records; the TCAC payload's
**             fingerprint, ids, obstacles[i], volumes[i] and queue[i])
*/
#include <stdio.h>
#include <string.h>

#include "walk.h"

static const char *AX[3] = {"x", "y", "z"};

static int vec3s(opw *w, const char *arr, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    for (int k = 0; k < 3; k++)
      if (opw_put(w, OPW_F32, 4, "%s[%lu].%s", arr, (unsigned long)i, AX[k])) return -1;
  return 0;
}

int opw_tile(opw *w) { /* FMT-041 .. FMT-043 */
  static const struct { const char *name; opw_type t; size_t len; } hdr[] = {
      {"magic", OPW_RAW, 4}, {"version", OPW_U32, 4}, {"x", OPW_I32, 4}, {"z", OPW_I32, 4},
      {"layer", OPW_I32, 4}, {"tiling.origin[0]", OPW_F64, 8}, {"tiling.origin[1]", OPW_F64, 8},
      {"tiling.origin[2]", OPW_F64, 8}, {"tiling.cell_size", OPW_F64, 8},
      {"tiling.cell_height", OPW_F64, 8}, {"tiling.tile_cells", OPW_U32, 4},
      {"tiling.max_verts_per_poly", OPW_U32, 4}, {"origin_y", OPW_F64, 8},
      {"nverts", OPW_U32, 4}, {"npolys", OPW_U32, 4}, {"ndetail", OPW_U32, 4},
      {"ndetail_verts", OPW_U32, 4}, {"ndetail_tris", OPW_U32, 4}, {"noffmesh", OPW_U32, 4},
      {"size", OPW_U32, 4}};
  size_t b = w->off;
  for (size_t i = 0; i < sizeof hdr / sizeof *hdr; i++)
    if (opw_put(w, hdr[i].t, hdr[i].len, "header.%s", hdr[i].name)) return -1;
  const uint8_t *h = w->p + b;
  uint32_t nverts = opw_rd32(h + 76), npolys = opw_rd32(h + 80), ndetail = opw_rd32(h + 84),
           ndv = opw_rd32(h + 88), ndt = opw_rd32(h + 92), noff = opw_rd32(h + 96);
  if (vec3s(w, "verts", nverts)) return -1;
  for (uint32_t i = 0; i < npolys; i++) {
    if (w->off >= w->n) return -1;
    unsigned nv = w->p[w->off];
    unsigned long u = i;
    if (opw_put(w, OPW_U8, 1, "polys[%lu].nverts", u) || opw_put(w, OPW_U8, 1, "polys[%lu].area", u) ||
        opw_put(w, OPW_U16, 2, "polys[%lu].flags", u))
      return -1;
    for (unsigned j = 0; j < nv; j++)
      if (opw_put(w, OPW_U16, 2, "polys[%lu].verts[%u]", u, j)) return -1;
    for (unsigned j = 0; j < nv; j++)
      if (opw_put(w, OPW_U16, 2, "polys[%lu].neis[%u]", u, j)) return -1;
  }
  for (uint32_t i = 0; i < ndetail; i++) {
    unsigned long u = i;
    if (opw_put(w, OPW_U32, 4, "detail[%lu].vert_base", u) || opw_put(w, OPW_U32, 4, "detail[%lu].tri_base", u) ||
        opw_put(w, OPW_U8, 1, "detail[%lu].vert_count", u) || opw_put(w, OPW_U8, 1, "detail[%lu].tri_count", u))
      return -1;
  }
  if (vec3s(w, "detail_verts", ndv)) return -1;
  for (uint32_t i = 0; i < ndt; i++) {
    for (int k = 0; k < 3; k++)
      if (opw_put(w, OPW_U8, 1, "detail_tris[%lu].v[%d]", (unsigned long)i, k)) return -1;
    if (opw_put(w, OPW_U8, 1, "detail_tris[%lu].flags", (unsigned long)i)) return -1;
  }
  for (uint32_t i = 0; i < noff; i++) {
    unsigned long u = i;
    for (int k = 0; k < 3; k++)
      if (opw_put(w, OPW_F32, 4, "offmesh[%lu].start.%s", u, AX[k])) return -1;
    for (int k = 0; k < 3; k++)
      if (opw_put(w, OPW_F32, 4, "offmesh[%lu].end.%s", u, AX[k])) return -1;
    if (opw_put(w, OPW_F32, 4, "offmesh[%lu].radius", u) || opw_put(w, OPW_U16, 2, "offmesh[%lu].flags", u) ||
        opw_put(w, OPW_U8, 1, "offmesh[%lu].area", u) || opw_put(w, OPW_U8, 1, "offmesh[%lu].bidirectional", u) ||
        opw_put(w, OPW_U32, 4, "offmesh[%lu].user_id", u))
      return -1;
  }
  return opw_put(w, OPW_U64, 8, "content_id");
}

/* MESH-040 bytes 8 .. 67, named with `pre` ("params." or "params."). */
static int params(opw *w) {
  static const char *const f64a[] = {"tiling.origin[0]", "tiling.origin[1]", "tiling.origin[2]",
                                     "tiling.cell_size", "tiling.cell_height"};
  for (int i = 0; i < 5; i++)
    if (opw_put(w, OPW_F64, 8, "params.%s", f64a[i])) return -1;
  return opw_put(w, OPW_U32, 4, "params.tiling.tile_cells") ||
                 opw_put(w, OPW_U32, 4, "params.tiling.max_verts_per_poly") ||
                 opw_put(w, OPW_F64, 8, "params.walkable_climb") ||
                 opw_put(w, OPW_U32, 4, "params.max_tiles")
             ? -1
             : 0;
}

/* A tile record of MESH-041 (mesh: with links) or SNAP-010 (without), named by its tile. */
static int tile_record(opw *w, unsigned long i, int links) {
  char saved[sizeof w->prefix];
  memcpy(saved, w->prefix, sizeof saved);
  size_t pk = strlen(w->prefix);
  if (w->n - w->off >= 20)
    snprintf(w->prefix + pk, sizeof w->prefix - pk, "tile %ld,%ld,%ld: ",
             (long)(int32_t)opw_rd32(w->p + w->off + 8), (long)(int32_t)opw_rd32(w->p + w->off + 12),
             (long)(int32_t)opw_rd32(w->p + w->off + 16));
  else
    snprintf(w->prefix + pk, sizeof w->prefix - pk, "tiles[%lu].", i);
  size_t b = w->off;
  int rc = opw_put(w, OPW_U32, 4, "slot") || opw_put(w, OPW_U32, 4, "generation") ||
           opw_put(w, OPW_I32, 4, "x") || opw_put(w, OPW_I32, 4, "z") ||
           opw_put(w, OPW_I32, 4, "layer") || opw_put(w, OPW_U32, 4, "tile_length");
  if (!rc) {
    uint32_t tl = opw_rd32(w->p + b + 20);
    if (tl > w->n - w->off) {
      rc = -1;
    } else {
      size_t n = w->n, k = strlen(w->prefix);
      w->n = w->off + tl;
      snprintf(w->prefix + k, sizeof w->prefix - k, "tile.");
      rc = opw_tile(w);
      if (!rc && w->off != w->n) rc = opw_put(w, OPW_RAW, w->n - w->off, "bytes after the content id");
      w->prefix[k] = '\0';
      w->n = n;
    }
  }
  if (!rc && !(rc = opw_put(w, OPW_U32, 4, "nedits"))) {
    uint32_t ne = opw_rd32(w->p + w->off - 4);
    for (uint32_t k = 0; k < ne && !rc; k++) {
      unsigned long u = k;
      rc = opw_put(w, OPW_U32, 4, "edits[%lu].poly", u) || opw_put(w, OPW_U16, 2, "edits[%lu].flags", u) ||
           opw_put(w, OPW_U8, 1, "edits[%lu].area", u) || opw_put(w, OPW_U8, 1, "edits[%lu].pad", u);
    }
  }
  if (!rc && links && !(rc = opw_put(w, OPW_U32, 4, "nlinks"))) {
    uint32_t nl = opw_rd32(w->p + w->off - 4);
    for (uint32_t k = 0; k < nl && !rc; k++) {
      unsigned long u = k;
      rc = opw_put(w, OPW_U32, 4, "links[%lu].poly", u) || opw_put(w, OPW_U8, 1, "links[%lu].edge", u) ||
           opw_put(w, OPW_U8, 1, "links[%lu].side", u) || opw_put(w, OPW_U8, 1, "links[%lu].target_edge", u) ||
           opw_put(w, OPW_U8, 1, "links[%lu].pad", u) || opw_put(w, OPW_U64, 8, "links[%lu].target", u) ||
           opw_put(w, OPW_F32, 4, "links[%lu].lo", u) || opw_put(w, OPW_F32, 4, "links[%lu].hi", u);
    }
  }
  memcpy(w->prefix, saved, sizeof saved);
  return rc ? -1 : 0;
}

int opw_mesh(opw *w) { /* MESH-040 */
  if (opw_put(w, OPW_RAW, 4, "magic") || opw_put(w, OPW_U32, 4, "version") || params(w) ||
      opw_put(w, OPW_U32, 4, "ntiles"))
    return -1;
  uint32_t nt = opw_rd32(w->p + w->off - 4);
  for (uint32_t i = 0; i < nt; i++)
    if (tile_record(w, i, 1)) return -1;
  return 0;
}

/* SNAP-017: values of an obstacle record of this shape (-1: unknown shape). */
static int obstacle(opw *w, unsigned long i) {
  static const char *const cyl[] = {"center.x", "center.y", "center.z", "radius", "height"};
  static const char *const box[] = {"bmin.x", "bmin.y", "bmin.z", "bmax.x", "bmax.y", "bmax.z"};
  static const char *const obb[] = {"center.x", "center.y", "center.z", "half.x", "half.y", "half.z", "yaw"};
  if (opw_put(w, OPW_U32, 4, "obstacles[%lu].id", i) || opw_put(w, OPW_U32, 4, "obstacles[%lu].shape", i))
    return -1;
  uint32_t shape = opw_rd32(w->p + w->off - 4);
  const char *const *names = shape == 0 ? cyl : shape == 1 ? box : shape == 2 ? obb : NULL;
  int nv = shape == 0 ? 5 : shape == 1 ? 6 : 7;
  if (!names) return -1;
  for (int k = 0; k < nv; k++)
    if (opw_put(w, OPW_F64, 8, "obstacles[%lu].%s", i, names[k])) return -1;
  return 0;
}

static int tcac(opw *w) { /* SNAP-016, SNAP-017 */
  if (opw_put(w, OPW_U64, 8, "fingerprint") || opw_put(w, OPW_U32, 4, "next_obstacle_id") ||
      opw_put(w, OPW_U32, 4, "next_volume_id") || opw_put(w, OPW_U32, 4, "nobstacles"))
    return -1;
  uint32_t k = opw_rd32(w->p + w->off - 4);
  for (uint32_t i = 0; i < k; i++)
    if (obstacle(w, i)) return -1;
  if (opw_put(w, OPW_U32, 4, "nvolumes")) return -1;
  k = opw_rd32(w->p + w->off - 4);
  for (uint32_t i = 0; i < k; i++) {
    unsigned long u = i;
    if (opw_put(w, OPW_U32, 4, "volumes[%lu].id", u) || opw_put(w, OPW_U32, 4, "volumes[%lu].npoints", u))
      return -1;
    uint32_t np = opw_rd32(w->p + w->off - 4);
    for (uint32_t j = 0; j < np; j++)
      if (opw_put(w, OPW_F64, 8, "volumes[%lu].points[%lu].x", u, (unsigned long)j) ||
          opw_put(w, OPW_F64, 8, "volumes[%lu].points[%lu].z", u, (unsigned long)j))
        return -1;
    if (opw_put(w, OPW_F64, 8, "volumes[%lu].ymin", u) || opw_put(w, OPW_F64, 8, "volumes[%lu].ymax", u) ||
        opw_put(w, OPW_U32, 4, "volumes[%lu].area", u))
      return -1;
  }
  if (opw_put(w, OPW_U32, 4, "nqueue")) return -1;
  k = opw_rd32(w->p + w->off - 4);
  for (uint32_t i = 0; i < k; i++)
    if (opw_put(w, OPW_I32, 4, "queue[%lu].x", (unsigned long)i) ||
        opw_put(w, OPW_I32, 4, "queue[%lu].z", (unsigned long)i))
      return -1;
  return 0;
}

static int slot(opw *w) { /* SNAP-010 */
  if (opw_put(w, OPW_U32, 4, "nfree")) return -1;
  uint32_t k = opw_rd32(w->p + w->off - 4);
  for (uint32_t i = 0; i < k; i++)
    if (opw_put(w, OPW_U32, 4, "free[%lu].slot", (unsigned long)i) ||
        opw_put(w, OPW_U32, 4, "free[%lu].generation", (unsigned long)i))
      return -1;
  if (opw_put(w, OPW_U32, 4, "ntiles")) return -1;
  k = opw_rd32(w->p + w->off - 4);
  for (uint32_t i = 0; i < k; i++)
    if (tile_record(w, i, 0)) return -1;
  return 0;
}

int opw_snapshot(opw *w) { /* SNAP-002, SNAP-005 */
  if (opw_put(w, OPW_RAW, 4, "magic") || opw_put(w, OPW_U32, 4, "version") || params(w) ||
      opw_put(w, OPW_U32, 4, "nsections"))
    return -1;
  uint32_t ns = opw_rd32(w->p + w->off - 4);
  for (uint32_t s = 0; s < ns; s++) {
    unsigned long u = s;
    size_t b = w->off;
    if (opw_put(w, OPW_RAW, 4, "sections[%lu].tag", u) || opw_put(w, OPW_U32, 4, "sections[%lu].version", u) ||
        opw_put(w, OPW_U64, 8, "sections[%lu].length", u))
      return -1;
    uint64_t len = opw_rd64(w->p + b + 8);
    if (len > w->n - w->off) return -1;
    size_t n = w->n;
    w->n = w->off + (size_t)len;
    int rc;
    if (!memcmp(w->p + b, "SLOT", 4)) rc = slot(w);
    else if (!memcmp(w->p + b, "TCAC", 4)) rc = tcac(w);
    else rc = opw_put(w, OPW_RAW, (size_t)len, "sections[%lu].payload", u);
    if (!rc && w->off != w->n) rc = opw_put(w, OPW_RAW, w->n - w->off, "sections[%lu] bytes after the payload", u);
    w->n = n;
    if (rc) return -1;
  }
  return 0;
}
