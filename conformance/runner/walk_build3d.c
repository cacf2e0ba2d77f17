/*
** walk_build3d.c -- typed field walkers of the 3D builder's stage artifacts, written from
** the layout tables of the spec (CONF-200):
**   soup          levels.md LVL-010
**   chf           build3d-spans.md SPAN-170 (spans named by column and index in the column)
**   spans         SPAN-171 (a whole soup build: one record per built tile)
**   spans-header  SPAN-172 (the first 20 bytes of SPAN-171)
**   spans-tile    SPAN-172 (one tile record: tx, tz, L and L bytes of SPAN-170)
**   regions       build3d-regions.md REG-160
**   contours      REG-222
**   polys         build3d-polys.md POLY-090
*/
#include <stdio.h>
#include <string.h>

#include "walk.h"

static const char *AX[3] = {"x", "y", "z"};

int opw_soup(opw *w) { /* LVL-010 */
  size_t b = w->off;
  if (opw_put(w, OPW_RAW, 4, "magic") || opw_put(w, OPW_U32, 4, "version") ||
      opw_put(w, OPW_U32, 4, "nverts") || opw_put(w, OPW_U32, 4, "ntris"))
    return -1;
  uint32_t nv = opw_rd32(w->p + b + 8), nt = opw_rd32(w->p + b + 12);
  for (uint32_t i = 0; i < nv; i++)
    for (int k = 0; k < 3; k++)
      if (opw_put(w, OPW_F64, 8, "verts[%lu].%s", (unsigned long)i, AX[k])) return -1;
  for (uint32_t t = 0; t < nt; t++)
    for (int k = 0; k < 3; k++)
      if (opw_put(w, OPW_U32, 4, "tris[%lu][%d]", (unsigned long)t, k)) return -1;
  return 0;
}

/* SPAN-170 from w->off; the caller's prefix names the tile. */
int opw_chf(opw *w) {
  size_t b = w->off;
  static const char *const hdr[] = {"gx0", "gz0", "width", "depth", "height",
                                    "walkable_height", "walkable_climb", "nspans"};
  if (opw_put(w, OPW_RAW, 8, "magic")) return -1;
  for (int i = 0; i < 8; i++)
    if (opw_put(w, i < 2 ? OPW_I32 : OPW_U32, 4, "%s", hdr[i])) return -1;
  uint64_t wd = opw_rd32(w->p + b + 16), dp = opw_rd32(w->p + b + 20);
  uint64_t ncol = wd * dp;
  for (uint64_t c = 0; c < ncol; c++)
    if (opw_put(w, OPW_U8, 1, "count[%llu] (column x %llu, z %llu)", (unsigned long long)c,
                (unsigned long long)(c % wd), (unsigned long long)(c / wd)))
      return -1;
  static const char *const sp[] = {"y", "h", "area", "link[0]", "link[1]", "link[2]", "link[3]"};
  static const size_t sl[] = {2, 1, 1, 1, 1, 1, 1};
  uint64_t i = 0;
  for (uint64_t c = 0; c < ncol; c++) {
    unsigned cnt = w->p[b + 40 + c];
    for (unsigned k = 0; k < cnt; k++, i++)
      for (int f = 0; f < 7; f++)
        if (opw_put(w, f == 0 ? OPW_U16 : OPW_U8, sl[f],
                    "column %llu (x %llu, z %llu) span %u (spans[%llu]) field %s",
                    (unsigned long long)c, (unsigned long long)(c % wd),
                    (unsigned long long)(c / wd), k, (unsigned long long)i, sp[f]))
          return -1;
  }
  return 0;
}

/* tx, tz, L and the L bytes of SPAN-170, named "tile (tx,tz): ...". */
static int tile_record(opw *w, int index) {
  if (w->n - w->off < 8) { /* not even tx, tz: name the fields plainly */
    return opw_put(w, OPW_U32, 4, "tiles[%d].tx", index) ? -1 : opw_put(w, OPW_U32, 4, "tiles[%d].tz", index);
  }
  char saved[sizeof w->prefix];
  memcpy(saved, w->prefix, sizeof saved);
  size_t k = strlen(w->prefix);
  snprintf(w->prefix + k, sizeof w->prefix - k, "tile (%ld,%ld): ", (long)(int32_t)opw_rd32(w->p + w->off),
           (long)(int32_t)opw_rd32(w->p + w->off + 4));
  size_t b = w->off;
  int rc = -1;
  if (!opw_put(w, OPW_U32, 4, "tx") && !opw_put(w, OPW_U32, 4, "tz") && !opw_put(w, OPW_U32, 4, "L")) {
    uint32_t len = opw_rd32(w->p + b + 8);
    if (len <= w->n - w->off) {
      size_t n = w->n;
      w->n = w->off + len; /* the chf walk stays inside L */
      rc = opw_chf(w);
      if (!rc && w->off != w->n) rc = opw_put(w, OPW_RAW, w->n - w->off, "bytes after the heightfield");
      w->n = n;
    } else {
      opw_put(w, OPW_RAW, len, "heightfield bytes");
    }
  }
  memcpy(w->prefix, saved, sizeof saved);
  return rc;
}

int opw_spans_header(opw *w) { /* SPAN-172: magic, ntx, ntz, built */
  return opw_put(w, OPW_RAW, 8, "magic") || opw_put(w, OPW_U32, 4, "ntx") ||
                 opw_put(w, OPW_U32, 4, "ntz") || opw_put(w, OPW_U32, 4, "built")
             ? -1
             : 0;
}

int opw_spans(opw *w) { /* SPAN-171 */
  size_t b = w->off;
  if (opw_spans_header(w)) return -1;
  uint32_t nb = opw_rd32(w->p + b + 16);
  for (uint32_t i = 0; i < nb; i++)
    if (tile_record(w, (int)i)) return -1;
  return 0;
}

int opw_spans_tile(opw *w) { return tile_record(w, 0); } /* SPAN-172 */

int opw_regions(opw *w) { /* REG-160 */
  size_t b = w->off;
  static const char *const hdr[] = {"partition", "border", "nspans", "nregions", "max_dist"};
  if (opw_put(w, OPW_RAW, 8, "magic")) return -1;
  for (int i = 0; i < 5; i++)
    if (opw_put(w, OPW_U32, 4, "%s", hdr[i])) return -1;
  uint32_t ns = opw_rd32(w->p + b + 16);
  for (uint32_t i = 0; i < ns; i++)
    if (opw_put(w, OPW_U16, 2, "reg[%lu]", (unsigned long)i)) return -1;
  for (uint32_t i = 0; i < ns; i++)
    if (opw_put(w, OPW_U16, 2, "dist[%lu]", (unsigned long)i)) return -1;
  return 0;
}

/* REG-222: a 16-byte vertex record named NAME.x ... NAME.flags. */
static int vertex16(opw *w, const char *arr, uint32_t k) {
  for (int a = 0; a < 3; a++)
    if (opw_put(w, OPW_I32, 4, "%s[%lu].%s", arr, (unsigned long)k, AX[a])) return -1;
  return opw_put(w, OPW_U16, 2, "%s[%lu].reg", arr, (unsigned long)k) ||
                 opw_put(w, OPW_U8, 1, "%s[%lu].area", arr, (unsigned long)k) ||
                 opw_put(w, OPW_U8, 1, "%s[%lu].flags", arr, (unsigned long)k)
             ? -1
             : 0;
}

int opw_contours(opw *w) { /* REG-222 */
  size_t b = w->off;
  static const char *const hdr[] = {"width", "depth", "border", "nspans", "nloops",
                                    "nraw", "nsimp", "ncontours", "unjoined"};
  if (opw_put(w, OPW_RAW, 8, "magic")) return -1;
  for (int i = 0; i < 9; i++)
    if (opw_put(w, OPW_U32, 4, "%s", hdr[i])) return -1;
  uint32_t nloops = opw_rd32(w->p + b + 24), ncont = opw_rd32(w->p + b + 36);
  char saved[sizeof w->prefix];
  memcpy(saved, w->prefix, sizeof saved);
  size_t pk = strlen(w->prefix);
  int rc = 0;
  for (uint32_t l = 0; l < nloops && !rc; l++) {
    snprintf(w->prefix + pk, sizeof w->prefix - pk, "loop %lu: ", (unsigned long)l);
    size_t s = w->off;
    rc = opw_put(w, OPW_U16, 2, "reg") || opw_put(w, OPW_U8, 1, "area") ||
         opw_put(w, OPW_U8, 1, "hole") || opw_put(w, OPW_U32, 4, "start_key") ||
         opw_put(w, OPW_U32, 4, "nraw") || opw_put(w, OPW_U32, 4, "nsimp") ||
         opw_put(w, OPW_I64, 8, "area2");
    if (rc) break;
    uint32_t nraw = opw_rd32(w->p + s + 8), nsimp = opw_rd32(w->p + s + 12);
    for (uint32_t k = 0; k < nraw && !rc; k++)
      rc = vertex16(w, "raw", k) || opw_put(w, OPW_U32, 4, "raw[%lu].edge_key", (unsigned long)k);
    for (uint32_t k = 0; k < nsimp && !rc; k++)
      rc = opw_put(w, OPW_U32, 4, "simp[%lu] (raw index)", (unsigned long)k);
  }
  for (uint32_t c = 0; c < ncont && !rc; c++) {
    snprintf(w->prefix + pk, sizeof w->prefix - pk, "contour %lu: ", (unsigned long)c);
    size_t s = w->off;
    rc = opw_put(w, OPW_U16, 2, "reg") || opw_put(w, OPW_U8, 1, "area") ||
         opw_put(w, OPW_U32, 4, "loop") || opw_put(w, OPW_U32, 4, "nverts");
    if (rc) break;
    uint32_t nv = opw_rd32(w->p + s + 7);
    for (uint32_t k = 0; k < nv && !rc; k++) rc = vertex16(w, "verts", k);
  }
  memcpy(w->prefix, saved, sizeof saved);
  return rc ? -1 : 0;
}

int opw_polys(opw *w) { /* POLY-090 */
  size_t b = w->off;
  if (opw_put(w, OPW_RAW, 4, "magic") || opw_put(w, OPW_U32, 4, "max_verts_per_poly") ||
      opw_put(w, OPW_U32, 4, "nverts") || opw_put(w, OPW_U32, 4, "npolys"))
    return -1;
  uint32_t nvp = opw_rd32(w->p + b + 4), nv = opw_rd32(w->p + b + 8), np = opw_rd32(w->p + b + 12);
  for (uint32_t i = 0; i < nv; i++)
    for (int k = 0; k < 3; k++)
      if (opw_put(w, OPW_I32, 4, "verts[%lu].%s", (unsigned long)i, AX[k])) return -1;
  for (uint32_t p = 0; p < np; p++) {
    for (uint32_t j = 0; j < nvp; j++)
      if (opw_put(w, OPW_U16, 2, "polys[%lu].verts[%lu]", (unsigned long)p, (unsigned long)j)) return -1;
    for (uint32_t j = 0; j < nvp; j++)
      if (opw_put(w, OPW_U16, 2, "polys[%lu].codes[%lu]", (unsigned long)p, (unsigned long)j)) return -1;
    if (opw_put(w, OPW_U16, 2, "polys[%lu].region", (unsigned long)p) ||
        opw_put(w, OPW_U8, 1, "polys[%lu].area", (unsigned long)p) ||
        opw_put(w, OPW_U16, 2, "polys[%lu].flags", (unsigned long)p))
      return -1;
  }
  return 0;
}
