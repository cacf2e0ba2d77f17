/*
** artifact_tile.c -- names the fields of one tile serialization in byte order
** (spec/navmesh-format.md, "Byte layout", FMT-040 .. FMT-043), so the runner can say
** which field of a port's tile first differs from the reference's.
**
** The walk only frames: it reads the counts and each polygon's vertex count to find its
** way and never validates values. Field names are those of the layout tables.
*/
#include <stdio.h>

#include "artifact.h"

typedef struct walk {
  const uint8_t *p;
  size_t n, off;
  opa_cb cb;
  void *ud;
} walk;

/* Reports one field of `len` bytes at the current offset; 0, or -1 if it does not fit. */
static int field(walk *w, const char *name, size_t len) {
  if (w->n - w->off < len) return -1;
  if (w->cb) w->cb(w->ud, name, w->off, len);
  w->off += len;
  return 0;
}

static uint32_t rd32(const walk *w, size_t off) {
  return (uint32_t)w->p[off] | (uint32_t)w->p[off + 1] << 8 | (uint32_t)w->p[off + 2] << 16 |
         (uint32_t)w->p[off + 3] << 24;
}

static const char *AX[3] = {"x", "y", "z"};

static int vec3s(walk *w, const char *arr, uint32_t count, const char *sub) {
  char name[96];
  for (uint32_t i = 0; i < count; i++)
    for (int k = 0; k < 3; k++) {
      snprintf(name, sizeof name, "%s[%u]%s.%s", arr, i, sub, AX[k]);
      if (field(w, name, 4)) return -1;
    }
  return 0;
}

int opa_tile_fields(const uint8_t *p, size_t n, opa_cb cb, void *ud) {
  walk w = {p, n, 0, cb, ud};
  static const struct { const char *name; size_t len; } hdr[] = {
      {"header.magic", 4},          {"header.version", 4},
      {"header.x", 4},              {"header.z", 4},
      {"header.layer", 4},          {"header.tiling.origin[0]", 8},
      {"header.tiling.origin[1]", 8}, {"header.tiling.origin[2]", 8},
      {"header.tiling.cell_size", 8}, {"header.tiling.cell_height", 8},
      {"header.tiling.tile_cells", 4}, {"header.tiling.max_verts_per_poly", 4},
      {"header.origin_y", 8},       {"header.nverts", 4},
      {"header.npolys", 4},         {"header.ndetail", 4},
      {"header.ndetail_verts", 4},  {"header.ndetail_tris", 4},
      {"header.noffmesh", 4},       {"header.size", 4},
  };
  if (!p && n) return -1;
  for (size_t i = 0; i < sizeof hdr / sizeof *hdr; i++)
    if (field(&w, hdr[i].name, hdr[i].len)) return -1;
  const uint32_t nverts = rd32(&w, 76), npolys = rd32(&w, 80), ndetail = rd32(&w, 84),
                 ndverts = rd32(&w, 88), ndtris = rd32(&w, 92), noff = rd32(&w, 96);
  char name[96];
  if (vec3s(&w, "verts", nverts, "")) return -1;
  for (uint32_t i = 0; i < npolys; i++) {
    if (w.n - w.off < 1) return -1;
    unsigned nv = w.p[w.off];
    snprintf(name, sizeof name, "polys[%u].nverts", i);
    if (field(&w, name, 1)) return -1;
    snprintf(name, sizeof name, "polys[%u].area", i);
    if (field(&w, name, 1)) return -1;
    snprintf(name, sizeof name, "polys[%u].flags", i);
    if (field(&w, name, 2)) return -1;
    for (unsigned j = 0; j < nv; j++) {
      snprintf(name, sizeof name, "polys[%u].verts[%u]", i, j);
      if (field(&w, name, 2)) return -1;
    }
    for (unsigned j = 0; j < nv; j++) {
      snprintf(name, sizeof name, "polys[%u].neis[%u]", i, j);
      if (field(&w, name, 2)) return -1;
    }
  }
  static const struct { const char *name; size_t len; } det[] = {
      {"vert_base", 4}, {"tri_base", 4}, {"vert_count", 1}, {"tri_count", 1}};
  for (uint32_t i = 0; i < ndetail; i++)
    for (int k = 0; k < 4; k++) {
      snprintf(name, sizeof name, "detail[%u].%s", i, det[k].name);
      if (field(&w, name, det[k].len)) return -1;
    }
  if (vec3s(&w, "detail_verts", ndverts, "")) return -1;
  for (uint32_t i = 0; i < ndtris; i++) {
    for (int k = 0; k < 3; k++) {
      snprintf(name, sizeof name, "detail_tris[%u].v[%d]", i, k);
      if (field(&w, name, 1)) return -1;
    }
    snprintf(name, sizeof name, "detail_tris[%u].flags", i);
    if (field(&w, name, 1)) return -1;
  }
  static const struct { const char *name; size_t len; } off[] = {
      {"radius", 4}, {"flags", 2}, {"area", 1}, {"bidirectional", 1}, {"user_id", 4}};
  for (uint32_t i = 0; i < noff; i++) {
    char arr[48];
    snprintf(arr, sizeof arr, "offmesh[%u]", i);
    for (int k = 0; k < 3; k++) {
      snprintf(name, sizeof name, "%s.start.%s", arr, AX[k]);
      if (field(&w, name, 4)) return -1;
    }
    for (int k = 0; k < 3; k++) {
      snprintf(name, sizeof name, "%s.end.%s", arr, AX[k]);
      if (field(&w, name, 4)) return -1;
    }
    for (int k = 0; k < 5; k++) {
      snprintf(name, sizeof name, "%s.%s", arr, off[k].name);
      if (field(&w, name, off[k].len)) return -1;
    }
  }
  if (field(&w, "content_id", 8)) return -1;
  return w.off == w.n ? 0 : -1;
}
