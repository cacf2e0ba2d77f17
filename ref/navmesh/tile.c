/*
** tile.c -- NavTile, the frozen tile format of OnePath (spec/navmesh-format.md, clauses
** FMT-001 .. FMT-051): validation (NavTile.Create), canonical serialization
** (NavTile.Serialize), parsing (NavTile.Deserialize) and the content id.
**
** An op_tile owns decoded copies of every array (what op_tile_view returns) and its
** canonical bytes (what op_tile_save returns); both are made once, at create or load.
** Bytes are written and read with ref/core/bytes.h (little-endian, FMT-040); opt_clone
** (declared in ref/navmesh/mesh_internal.h) copies a valid tile for the mesh (MESH-012).
*/
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/bytes.h"
#include "core/internal.h"
#include "navmesh/mesh_internal.h" /* opt_clone, opt_clone_counted, opt_load_counted */

/* FMT-040 .. FMT-043: layout constants. */
#define T_MAGIC0 0x4F /* 'O' */
#define T_MAGIC1 0x50 /* 'P' */
#define T_MAGIC2 0x54 /* 'T' */
#define T_MAGIC3 0x4C /* 'L' */
#define T_VERSION 1u
#define T_HDR 104u          /* header bytes */
#define T_MIN (T_HDR + 8u)  /* header + content id */
#define T_VERT 12u
#define T_DETAIL 10u
#define T_DVERT 12u
#define T_DTRI 4u
#define T_OFFMESH 36u

/* FMT-030: limits. */
#define T_MAX_VERTS 65535u
#define T_MAX_POLYS 32767u
#define T_MAX_DETAIL_VERTS 1048576u
#define T_MAX_DETAIL_TRIS 1048576u
#define T_MAX_OFFMESH 4096u
/* FMT-002 (layer), FMT-014 and FMT-029 (area) */
#define T_MAX_LAYER 255
#define T_MAX_AREA 63u
#define T_WORLD 2097152.0 /* 2^21 */

struct op_tile {
  op_tile_desc d; /* pointers below */
  float *verts;
  op_poly_desc *polys;
  op_detail_desc *detail;
  float *dverts;
  uint8_t *dtris;
  op_offmesh_desc *offmesh;
  uint8_t *bytes;
  size_t nbytes;
  uint64_t id;
};

/* ------------------------------------------------------------ small helpers */

static op_status fail_f(op_error *err, op_status k, const char *field, double v, const char *why) {
  return op_fail_d(err, k, field, v, why);
}

static int is_neg_zero_f(float v) { return v == 0.0f && signbit(v); }
static int is_neg_zero_d(double v) { return v == 0.0 && signbit(v); }

/* Field-name tails of a coordinate triple: "verts[i]" + ".x", "offmesh[i]" + ".start.x". */
static const char *const PART_AX[3] = {".x", ".y", ".z"};
static const char *const PART_START[3] = {".start.x", ".start.y", ".start.z"};
static const char *const PART_END[3] = {".end.x", ".end.y", ".end.z"};

/* The field name "arr[i]part" (e.g. "verts[3].x"). Names are formatted only when an error is
** actually raised: validation runs on every tile created or loaded, and formatting a name per
** vertex and edge was a large part of its cost. */
static const char *field_at(char *f, size_t n, const char *arr, uint32_t i, const char *part) {
  snprintf(f, n, "%s[%u]%s", arr, i, part);
  return f;
}

/* --------------------------------------------------------------- validation */

/* Derived quantities of a validated header (FMT-005, FMT-007, FMT-008, FMT-011). */
typedef struct tgeom {
  double w, x0, z0;
  float fw;
  double ymax;
} tgeom;

/* FMT-009 .. FMT-011: one tile-local float32 coordinate triple of a vertex, detail vertex
** or off-mesh start, x then y then z, each completely (FMT-052). The field is named
** arr[i] + part[k], e.g. "verts[3]" + ".x". */
static op_status check_local(const tgeom *g, const char *arr, uint32_t i,
                             const char *const part[3], const float *v, op_error *err) {
  char f[96];
  for (int k = 0; k < 3; k++) {
    const char *why = NULL;
    if (!isfinite(v[k])) {
      why = "coordinate is not finite";
    } else if (k == 1) {
      if (!((double)v[k] >= -g->ymax && (double)v[k] <= g->ymax)) /* FMT-011 */
        why = "height outside [-2^14 * cell_size, 2^14 * cell_size]";
    } else if (!(v[k] >= 0.0f && v[k] <= g->fw)) { /* FMT-010 */
      why = "coordinate outside [0, fW] of the tile";
    }
    if (why) return fail_f(err, OP_E_RANGE, field_at(f, sizeof f, arr, i, part[k]), v[k], why);
  }
  return OP_OK;
}

/* FMT-002 .. FMT-006: header fields, in byte order, then the extent. */
static op_status check_header(const op_tile_desc *d, tgeom *g, op_error *err) {
  const op_tiling *t = &d->tiling;
  char f[96];
  if (d->layer < 0 || d->layer > T_MAX_LAYER) /* FMT-002 */
    return op_fail_i(err, OP_E_RANGE, "header.layer", d->layer, "layer outside [0, 255]");
  for (int k = 0; k < 3; k++) { /* FMT-003 */
    if (!isfinite(t->origin[k]) || t->origin[k] < -T_WORLD || t->origin[k] > T_WORLD) {
      snprintf(f, sizeof f, "header.tiling.origin[%d]", k);
      return fail_f(err, OP_E_RANGE, f, t->origin[k], "tiling origin outside [-2^21, 2^21]");
    }
  }
  const double smin = 1.0 / 65536.0, smax = 65536.0;
  if (!isfinite(t->cell_size) || t->cell_size < smin || t->cell_size > smax) /* FMT-003 */
    return fail_f(err, OP_E_RANGE, "header.tiling.cell_size", t->cell_size,
                  "cell size outside [2^-16, 2^16]");
  if (!isfinite(t->cell_height) || t->cell_height < smin || t->cell_height > smax)
    return fail_f(err, OP_E_RANGE, "header.tiling.cell_height", t->cell_height,
                  "cell height outside [2^-16, 2^16]");
  if (t->tile_cells < 1 || t->tile_cells > 8192)
    return op_fail_i(err, OP_E_RANGE, "header.tiling.tile_cells", t->tile_cells,
                     "tile cells outside [1, 8192]");
  if (t->max_verts_per_poly < 3 || t->max_verts_per_poly > OP_MAX_VERTS_PER_POLY)
    return op_fail_i(err, OP_E_RANGE, "header.tiling.max_verts_per_poly", t->max_verts_per_poly,
                     "max verts per poly outside [3, 12]");
  if (!isfinite(d->origin_y) || d->origin_y < -T_WORLD || d->origin_y > T_WORLD) /* FMT-004 */
    return fail_f(err, OP_E_RANGE, "header.origin_y", d->origin_y, "origin_y outside [-2^21, 2^21]");
  /* FMT-005, FMT-006: the extent, each operation rounded to nearest even in binary64. */
  double w = (double)t->tile_cells * t->cell_size;
  double x0 = t->origin[0] + (double)d->x * w;
  double x1 = t->origin[0] + ((double)d->x + 1.0) * w;
  double z0 = t->origin[2] + (double)d->z * w;
  double z1 = t->origin[2] + ((double)d->z + 1.0) * w;
  if (x0 < -T_WORLD || x0 > T_WORLD || x1 < -T_WORLD || x1 > T_WORLD)
    return op_fail_i(err, OP_E_RANGE, "header.x", d->x, "tile extent on x leaves [-2^21, 2^21]");
  if (z0 < -T_WORLD || z0 > T_WORLD || z1 < -T_WORLD || z1 > T_WORLD)
    return op_fail_i(err, OP_E_RANGE, "header.z", d->z, "tile extent on z leaves [-2^21, 2^21]");
  g->w = w;
  g->x0 = x0;
  g->z0 = z0;
  g->fw = (float)w;                       /* FMT-008 */
  g->ymax = 16384.0 * t->cell_size;       /* FMT-011 */
  return OP_OK;
}

/* FMT-030, FMT-022: the counts, in byte order. */
static op_status check_counts(const op_tile_desc *d, op_error *err) {
  if (d->nverts > T_MAX_VERTS)
    return op_fail_i(err, OP_E_LIMIT, "header.nverts", d->nverts, "more than 65535 vertices");
  if (d->npolys > T_MAX_POLYS)
    return op_fail_i(err, OP_E_LIMIT, "header.npolys", d->npolys, "more than 32767 polygons");
  if (d->ndetail != 0 && d->ndetail != d->npolys)
    return op_fail_i(err, OP_E_ARGUMENT, "header.ndetail", d->ndetail,
                     "detail records must be 0 or one per polygon");
  if (d->ndetail_verts > T_MAX_DETAIL_VERTS)
    return op_fail_i(err, OP_E_LIMIT, "header.ndetail_verts", d->ndetail_verts,
                     "more than 1048576 detail vertices");
  if (d->ndetail == 0 && d->ndetail_verts != 0)
    return op_fail_i(err, OP_E_ARGUMENT, "header.ndetail_verts", d->ndetail_verts,
                     "detail vertices without detail records");
  if (d->ndetail_tris > T_MAX_DETAIL_TRIS)
    return op_fail_i(err, OP_E_LIMIT, "header.ndetail_tris", d->ndetail_tris,
                     "more than 1048576 detail triangles");
  if (d->ndetail == 0 && d->ndetail_tris != 0)
    return op_fail_i(err, OP_E_ARGUMENT, "header.ndetail_tris", d->ndetail_tris,
                     "detail triangles without detail records");
  if (d->noffmesh > T_MAX_OFFMESH)
    return op_fail_i(err, OP_E_LIMIT, "header.noffmesh", d->noffmesh, "more than 4096 off-mesh links");
  return OP_OK;
}

static int sgn_cmp(float a, float b) { return (a > b) - (a < b); }

/* FMT-014 .. FMT-018: one polygon's own rules (no neighbours). */
static op_status check_poly(const op_tile_desc *d, uint32_t i, op_error *err) {
  const op_poly_desc *p = &d->polys[i];
  const unsigned n = p->nverts;
  char f[96];
  if (n < 3 || n > d->tiling.max_verts_per_poly) { /* FMT-014 */
    snprintf(f, sizeof f, "polys[%u].nverts", i);
    return op_fail_i(err, OP_E_RANGE, f, n, "vertex count outside [3, max_verts_per_poly]");
  }
  if (p->area > T_MAX_AREA) { /* FMT-014 */
    snprintf(f, sizeof f, "polys[%u].area", i);
    return op_fail_i(err, OP_E_RANGE, f, p->area, "area outside [0, 63]");
  }
  for (unsigned j = 0; j < n; j++) { /* FMT-015 */
    if (p->verts[j] >= d->nverts) {
      snprintf(f, sizeof f, "polys[%u].verts[%u]", i, j);
      return op_fail_i(err, OP_E_RANGE, f, p->verts[j], "vertex index not below nverts");
    }
  }
  for (unsigned j = 1; j < n; j++)
    for (unsigned k = 0; k < j; k++)
      if (p->verts[j] == p->verts[k]) {
        snprintf(f, sizeof f, "polys[%u].verts[%u]", i, j);
        return op_fail_i(err, OP_E_ARGUMENT, f, p->verts[j], "vertex index repeated in polygon");
      }
  float v[OP_MAX_VERTS_PER_POLY][2];
  for (unsigned j = 0; j < n; j++) {
    v[j][0] = d->verts[3 * (size_t)p->verts[j] + 0];
    v[j][1] = d->verts[3 * (size_t)p->verts[j] + 2];
  }
  for (unsigned j = 0; j < n; j++) { /* FMT-016: every edge has positive length in (x, z) */
    unsigned k = (j + 1) % n;
    if (v[j][0] == v[k][0] && v[j][1] == v[k][1]) {
      snprintf(f, sizeof f, "polys[%u].verts[%u]", i, k);
      return op_fail_i(err, OP_E_ARGUMENT, f, p->verts[k], "edge of zero length in (x, z)");
    }
  }
  for (unsigned j = 0; j < n; j++) { /* FMT-017: no right turn, no reversal */
    const float *a = v[(j + n - 1) % n], *b = v[j], *c = v[(j + 1) % n];
    int o = op_orient2d_f32(a, b, c);
    int reversal = o == 0 && (sgn_cmp(b[0], a[0]) != sgn_cmp(c[0], b[0]) ||
                              sgn_cmp(b[1], a[1]) != sgn_cmp(c[1], b[1]));
    if (o < 0 || reversal) {
      snprintf(f, sizeof f, "polys[%u].verts[%u]", i, j);
      return op_fail_i(err, OP_E_ARGUMENT, f, p->verts[j],
                       o < 0 ? "right turn (polygon not convex and counter-clockwise)"
                             : "edge turns back on itself");
    }
  }
  /* FMT-018: the boundary turns exactly once around. */
  int turns = 0;
  for (unsigned j = 0; j < n; j++) {
    const float *a0 = v[(j + n - 1) % n], *a1 = v[j], *b1 = v[(j + 1) % n];
    int up_prev = a1[1] > a0[1] || (a1[1] == a0[1] && a1[0] > a0[0]);
    int up = b1[1] > a1[1] || (b1[1] == a1[1] && b1[0] > a1[0]);
    if (!up_prev && up) turns++;
  }
  if (turns != 1) {
    snprintf(f, sizeof f, "polys[%u].verts", i);
    return op_fail_i(err, OP_E_ARGUMENT, f, turns, "polygon winds more than once");
  }
  return OP_OK;
}

/* The error of neighbour code c of edge j of polygon i (field "polys[i].neis[j]"). */
static op_status nei_fail(op_error *err, op_status kind, uint32_t i, unsigned j, unsigned c,
                          const char *why) {
  char f[96];
  snprintf(f, sizeof f, "polys[%u].neis[%u]", i, j);
  return op_fail_i(err, kind, f, c, why);
}

/* FMT-019 .. FMT-021: neighbour code of edge j of polygon i. */
static op_status check_nei(const op_tile_desc *d, const tgeom *g, uint32_t i, unsigned j,
                           op_error *err) {
  const op_poly_desc *p = &d->polys[i];
  const unsigned n = p->nverts;
  const unsigned c = p->neis[j];
  const uint16_t va = p->verts[j], vb = p->verts[(j + 1) % n];
  if (c == OP_NEI_WALL) return OP_OK;
  if (c >= 1 && c <= d->npolys) { /* FMT-020 */
    uint32_t k = c - 1;
    if (k == i) return nei_fail(err, OP_E_ARGUMENT, i, j, c, "polygon is its own neighbour");
    const op_poly_desc *q = &d->polys[k];
    for (unsigned e = 0; e < q->nverts; e++) {
      if (q->verts[e] == vb && q->verts[(e + 1) % q->nverts] == va) {
        if (q->neis[e] == i + 1) return OP_OK;
        break;
      }
    }
    return nei_fail(err, OP_E_ARGUMENT, i, j, c, "neighbour has no reversed edge pointing back");
  }
  if (c >= OP_NEI_PORTAL && c <= (OP_NEI_PORTAL | 3u)) { /* FMT-021 */
    const float *a = &d->verts[3 * (size_t)va], *b = &d->verts[3 * (size_t)vb];
    int ok;
    switch (c & 3u) {
    case 0: ok = a[0] == 0.0f && b[0] == 0.0f; break;
    case 1: ok = a[2] == g->fw && b[2] == g->fw; break;
    case 2: ok = a[0] == g->fw && b[0] == g->fw; break;
    default: ok = a[2] == 0.0f && b[2] == 0.0f; break;
    }
    if (!ok) return nei_fail(err, OP_E_ARGUMENT, i, j, c, "portal edge not on its tile side");
    return OP_OK;
  }
  return nei_fail(err, OP_E_RANGE, i, j, c, "neighbour code is not 0, 1..npolys or 0x8000..0x8003");
}

/* FMT-022 .. FMT-026: detail records, detail vertices, detail triangles. */
static op_status check_detail(const op_tile_desc *d, const tgeom *g, op_error *err) {
  char f[96];
  uint64_t vsum = 0, tsum = 0;
  for (uint32_t i = 0; i < d->ndetail; i++) { /* FMT-023 */
    const op_detail_desc *r = &d->detail[i];
    if (r->vert_base != vsum) {
      snprintf(f, sizeof f, "detail[%u].vert_base", i);
      return op_fail_i(err, OP_E_ARGUMENT, f, r->vert_base, "detail vertices not packed in polygon order");
    }
    if (r->tri_base != tsum) {
      snprintf(f, sizeof f, "detail[%u].tri_base", i);
      return op_fail_i(err, OP_E_ARGUMENT, f, r->tri_base, "detail triangles not packed in polygon order");
    }
    if (r->tri_count < 1) {
      snprintf(f, sizeof f, "detail[%u].tri_count", i);
      return op_fail_i(err, OP_E_ARGUMENT, f, r->tri_count, "polygon without detail triangle");
    }
    vsum += r->vert_count;
    tsum += r->tri_count;
  }
  if (d->ndetail != 0 && vsum != d->ndetail_verts)
    return op_fail_i(err, OP_E_ARGUMENT, "header.ndetail_verts", d->ndetail_verts,
                     "not the sum of the detail records' vertex counts");
  if (d->ndetail != 0 && tsum != d->ndetail_tris)
    return op_fail_i(err, OP_E_ARGUMENT, "header.ndetail_tris", d->ndetail_tris,
                     "not the sum of the detail records' triangle counts");
  for (uint32_t i = 0; i < d->ndetail_verts; i++) { /* FMT-024 */
    op_status s = check_local(g, "detail_verts", i, PART_AX, &d->detail_verts[3 * (size_t)i], err);
    if (s) return s;
  }
  for (uint32_t i = 0; i < d->ndetail; i++) { /* FMT-025, FMT-052: per index, then the flags */
    const op_detail_desc *r = &d->detail[i];
    unsigned lim = (unsigned)d->polys[i].nverts + r->vert_count;
    for (uint32_t t = r->tri_base; t < r->tri_base + r->tri_count; t++) {
      const uint8_t *tri = &d->detail_tris[4 * (size_t)t];
      for (int k = 0; k < 3; k++) {
        op_status kind = OP_OK;
        const char *why = NULL;
        if (tri[k] >= lim) {
          kind = OP_E_RANGE;
          why = "index not below the polygon's vertex count plus its detail vertex count";
        }
        for (int m = 0; m < k && !why; m++)
          if (tri[m] == tri[k]) {
            kind = OP_E_ARGUMENT;
            why = "index repeated in detail triangle";
          }
        if (why) {
          snprintf(f, sizeof f, "detail_tris[%u].v[%d]", t, k);
          return op_fail_i(err, kind, f, tri[k], why);
        }
      }
      if (tri[3] & 0xEAu) { /* FMT-026 */
        snprintf(f, sizeof f, "detail_tris[%u].flags", t);
        return op_fail_i(err, OP_E_RANGE, f, tri[3], "edge flags use bits other than 0, 2, 4");
      }
    }
  }
  return OP_OK;
}

/* FMT-027 .. FMT-029: off-mesh link slots. */
static op_status check_offmesh(const op_tile_desc *d, const tgeom *g, op_error *err) {
  char f[96];
  for (uint32_t i = 0; i < d->noffmesh; i++) {
    const op_offmesh_desc *o = &d->offmesh[i];
    op_status s = check_local(g, "offmesh", i, PART_START, o->start, err);
    if (s) return s;
    const double wb[3] = {g->x0, d->origin_y, g->z0};
    for (int k = 0; k < 3; k++) {
      if (!isfinite(o->end[k]))
        return fail_f(err, OP_E_RANGE, field_at(f, sizeof f, "offmesh", i, PART_END[k]), o->end[k],
                      "coordinate is not finite");
      double world = wb[k] + (double)o->end[k];
      if (world < -T_WORLD || world > T_WORLD)
        return fail_f(err, OP_E_RANGE, field_at(f, sizeof f, "offmesh", i, PART_END[k]), o->end[k],
                      "end point leaves [-2^21, 2^21] in world space");
    }
    if (!isfinite(o->radius) || !(o->radius > 0.0f) || (double)o->radius > T_WORLD)
      return fail_f(err, OP_E_RANGE, field_at(f, sizeof f, "offmesh", i, ".radius"), o->radius,
                    "radius outside (0, 2^21]");
    if (o->area > T_MAX_AREA) {
      snprintf(f, sizeof f, "offmesh[%u].area", i);
      return op_fail_i(err, OP_E_RANGE, f, o->area, "area outside [0, 63]");
    }
    if (o->bidirectional > 1) {
      snprintf(f, sizeof f, "offmesh[%u].bidirectional", i);
      return op_fail_i(err, OP_E_RANGE, f, o->bidirectional, "bidirectional is not 0 or 1");
    }
  }
  return OP_OK;
}

/* FMT-050: the validation order shared by create and load. */
static op_status validate(const op_tile_desc *d, tgeom *g, op_error *err) {
  op_status s = check_header(d, g, err);
  if (!s) s = check_counts(d, err);
  if (s) return s;
  for (uint32_t i = 0; i < d->nverts; i++) /* FMT-009 .. FMT-011 */
    if ((s = check_local(g, "verts", i, PART_AX, &d->verts[3 * (size_t)i], err))) return s;
  for (uint32_t i = 0; i < d->npolys; i++)
    if ((s = check_poly(d, i, err))) return s;
  for (uint32_t i = 0; i < d->npolys; i++)
    for (unsigned j = 0; j < d->polys[i].nverts; j++)
      if ((s = check_nei(d, g, i, j, err))) return s;
  if (d->nverts) { /* FMT-013: every vertex is used by a polygon */
    uint8_t *used = calloc(d->nverts, 1);
    if (!used) return opc_nomem(err, "verts");
    for (uint32_t i = 0; i < d->npolys; i++)
      for (unsigned j = 0; j < d->polys[i].nverts; j++) used[d->polys[i].verts[j]] = 1;
    for (uint32_t i = 0; i < d->nverts; i++)
      if (!used[i]) {
        free(used);
        char f[32];
        snprintf(f, sizeof f, "verts[%u]", i);
        return op_fail_i(err, OP_E_ARGUMENT, f, i, "vertex used by no polygon");
      }
    free(used);
  }
  if ((s = check_detail(d, g, err))) return s;
  return check_offmesh(d, g, err);
}

/* ------------------------------------------------------------ serialization */

/* FMT-041, FMT-042: total byte size of the canonical serialization. */
static size_t tile_size(const op_tile_desc *d) {
  size_t n = T_HDR + (size_t)T_VERT * d->nverts;
  for (uint32_t i = 0; i < d->npolys; i++) n += 4 + 4 * (size_t)d->polys[i].nverts;
  n += (size_t)T_DETAIL * d->ndetail + (size_t)T_DVERT * d->ndetail_verts +
       (size_t)T_DTRI * d->ndetail_tris + (size_t)T_OFFMESH * d->noffmesh;
  return n + 8;
}

/* FMT-040 .. FMT-044: writes the canonical bytes of a validated tile into p (size bytes). */
static void tile_write(const op_tile_desc *d, uint8_t *p, size_t size) {
  opc_buf b = {p, 0, size, 0}; /* capacity `size`: never reallocates */
  opc_put_u8(&b, T_MAGIC0);
  opc_put_u8(&b, T_MAGIC1);
  opc_put_u8(&b, T_MAGIC2);
  opc_put_u8(&b, T_MAGIC3);
  opc_put_u32(&b, T_VERSION);
  opc_put_u32(&b, (uint32_t)d->x);
  opc_put_u32(&b, (uint32_t)d->z);
  opc_put_u32(&b, (uint32_t)d->layer);
  for (int k = 0; k < 3; k++) opc_put_f64(&b, d->tiling.origin[k]);
  opc_put_f64(&b, d->tiling.cell_size);
  opc_put_f64(&b, d->tiling.cell_height);
  opc_put_u32(&b, d->tiling.tile_cells);
  opc_put_u32(&b, d->tiling.max_verts_per_poly);
  opc_put_f64(&b, d->origin_y);
  opc_put_u32(&b, d->nverts);
  opc_put_u32(&b, d->npolys);
  opc_put_u32(&b, d->ndetail);
  opc_put_u32(&b, d->ndetail_verts);
  opc_put_u32(&b, d->ndetail_tris);
  opc_put_u32(&b, d->noffmesh);
  opc_put_u32(&b, (uint32_t)size);
  for (size_t i = 0; i < 3 * (size_t)d->nverts; i++) opc_put_f32(&b, d->verts[i]);
  for (uint32_t i = 0; i < d->npolys; i++) {
    const op_poly_desc *q = &d->polys[i];
    opc_put_u8(&b, q->nverts);
    opc_put_u8(&b, q->area);
    opc_put_u16(&b, q->flags);
    for (unsigned j = 0; j < q->nverts; j++) opc_put_u16(&b, q->verts[j]);
    for (unsigned j = 0; j < q->nverts; j++) opc_put_u16(&b, q->neis[j]);
  }
  for (uint32_t i = 0; i < d->ndetail; i++) {
    opc_put_u32(&b, d->detail[i].vert_base);
    opc_put_u32(&b, d->detail[i].tri_base);
    opc_put_u8(&b, d->detail[i].vert_count);
    opc_put_u8(&b, d->detail[i].tri_count);
  }
  for (size_t i = 0; i < 3 * (size_t)d->ndetail_verts; i++) opc_put_f32(&b, d->detail_verts[i]);
  opc_put(&b, d->detail_tris, 4 * (size_t)d->ndetail_tris);
  for (uint32_t i = 0; i < d->noffmesh; i++) {
    const op_offmesh_desc *m = &d->offmesh[i];
    for (int k = 0; k < 3; k++) opc_put_f32(&b, m->start[k]);
    for (int k = 0; k < 3; k++) opc_put_f32(&b, m->end[k]);
    opc_put_f32(&b, m->radius);
    opc_put_u16(&b, m->flags);
    opc_put_u8(&b, m->area);
    opc_put_u8(&b, m->bidirectional);
    opc_put_u32(&b, m->user_id);
  }
  opc_put_u64(&b, op_hash64(b.p, b.len)); /* FMT-043: content id over every byte before it */
  assert(!b.oom && b.len == size); /* the exact size was reserved: no growth */
}

/* ------------------------------------------------------------- the object */

static void tile_release(op_tile *t) {
  if (!t) return;
  free(t->verts);
  free(t->polys);
  free(t->detail);
  free(t->dverts);
  free(t->dtris);
  free(t->offmesh);
  free(t->bytes);
  free(t);
}

void op_tile_free(op_tile *t) { tile_release(t); }

/* Allocates the arrays of t for the counts in t->d (already bounded by check_counts).
** Counted on al (CONF-059; NULL: none); each array stops the list at the first failure. */
static int tile_alloc(op_tile *t, op_alloc_count *al) {
  const op_tile_desc *d = &t->d;
  if (!(t->verts = opc_calloc(al, 3 * (size_t)d->nverts + 1, sizeof(float)))) return 0;
  if (!(t->polys = opc_calloc(al, (size_t)d->npolys + 1, sizeof(op_poly_desc)))) return 0;
  if (!(t->detail = opc_calloc(al, (size_t)d->ndetail + 1, sizeof(op_detail_desc)))) return 0;
  if (!(t->dverts = opc_calloc(al, 3 * (size_t)d->ndetail_verts + 1, sizeof(float)))) return 0;
  if (!(t->dtris = opc_calloc(al, 4 * (size_t)d->ndetail_tris + 1, 1))) return 0;
  t->offmesh = opc_calloc(al, (size_t)d->noffmesh + 1, sizeof(op_offmesh_desc));
  return t->verts && t->polys && t->detail && t->dverts && t->dtris && t->offmesh;
}

static void tile_point(op_tile *t) {
  t->d.verts = t->verts;
  t->d.polys = t->polys;
  t->d.detail = t->detail;
  t->d.detail_verts = t->dverts;
  t->d.detail_tris = t->dtris;
  t->d.offmesh = t->offmesh;
}

static float canon_f(float v) { return v == 0.0f ? 0.0f : v; } /* FMT-012: -0 -> +0 */
static double canon_d(double v) { return v == 0.0 ? 0.0 : v; }

/* Serializes the validated t->d into t->bytes and sets the content id. */
static op_status tile_finish(op_tile *t, op_alloc_count *al, op_error *err) {
  t->nbytes = tile_size(&t->d);
  t->bytes = opc_malloc(al, t->nbytes);
  if (!t->bytes) return opc_nomem(err, "tile");
  tile_write(&t->d, t->bytes, t->nbytes);
  t->id = opc_rd_u64(t->bytes + t->nbytes - 8);
  return OP_OK;
}

/* NavTile.Create (FMT-050 order). */
op_status op_tile_create(const op_tile_desc *d, op_tile **out, op_error *err) {
  op_clear(err);
  if (!d || !out) return op_fail(err, OP_E_ARGUMENT, "tile", "NULL", "no descriptor or output");
  *out = NULL;
  /* Counts first: they bound the copies below (same result as FMT-050, whose header
  ** checks come first, because the header checks do not read the arrays). */
  tgeom g;
  /* FMT-012: the header's binary64 fields are checked after -0.0 -> +0.0, so an error
  ** reports the replaced value (a -0.0 cell size is out of range with value 0). */
  op_tile_desc hd = *d;
  for (int k = 0; k < 3; k++) hd.tiling.origin[k] = canon_d(d->tiling.origin[k]);
  hd.tiling.cell_size = canon_d(d->tiling.cell_size);
  hd.tiling.cell_height = canon_d(d->tiling.cell_height);
  hd.origin_y = canon_d(d->origin_y);
  op_status s = check_header(&hd, &g, err);
  if (!s) s = check_counts(d, err);
  if (s) return s;
  if ((d->nverts && !d->verts) || (d->npolys && !d->polys) || (d->ndetail && !d->detail) ||
      (d->ndetail_verts && !d->detail_verts) || (d->ndetail_tris && !d->detail_tris) ||
      (d->noffmesh && !d->offmesh))
    return op_fail(err, OP_E_ARGUMENT, "tile", "NULL", "an array with a non-zero count is NULL");
  op_tile *t = calloc(1, sizeof *t);
  if (!t) return opc_nomem(err, "tile");
  t->d = *d;
  if (!tile_alloc(t, NULL)) {
    tile_release(t);
    return opc_nomem(err, "tile");
  }
  for (int k = 0; k < 3; k++) t->d.tiling.origin[k] = canon_d(d->tiling.origin[k]);
  t->d.origin_y = canon_d(d->origin_y);
  for (size_t i = 0; i < 3 * (size_t)d->nverts; i++) t->verts[i] = canon_f(d->verts[i]);
  for (uint32_t i = 0; i < d->npolys; i++) {
    op_poly_desc *q = &t->polys[i];
    *q = d->polys[i];
    for (unsigned j = q->nverts; j < OP_MAX_VERTS_PER_POLY; j++) q->verts[j] = q->neis[j] = 0;
  }
  if (d->ndetail) memcpy(t->detail, d->detail, d->ndetail * sizeof *d->detail);
  for (size_t i = 0; i < 3 * (size_t)d->ndetail_verts; i++) t->dverts[i] = canon_f(d->detail_verts[i]);
  if (d->ndetail_tris) memcpy(t->dtris, d->detail_tris, 4 * (size_t)d->ndetail_tris);
  for (uint32_t i = 0; i < d->noffmesh; i++) {
    op_offmesh_desc *m = &t->offmesh[i];
    *m = d->offmesh[i];
    for (int k = 0; k < 3; k++) {
      m->start[k] = canon_f(m->start[k]);
      m->end[k] = canon_f(m->end[k]);
    }
    m->radius = canon_f(m->radius);
  }
  tile_point(t);
  s = validate(&t->d, &g, err);
  if (!s) s = tile_finish(t, NULL, err);
  if (s) {
    tile_release(t);
    return s;
  }
  *out = t;
  return OP_OK;
}

/* ------------------------------------------------------------------- load */

static op_status neg_zero(op_error *err, const char *field) {
  return op_fail(err, OP_E_FORMAT, field, "-0", "non-canonical negative zero");
}

/* FMT-051 step 5: header fields. */
static op_status load_header(const uint8_t *p, op_tile_desc *d, op_error *err) {
  d->x = (int32_t)opc_rd_u32(p + 8);
  d->z = (int32_t)opc_rd_u32(p + 12);
  d->layer = (int32_t)opc_rd_u32(p + 16);
  static const char *names[6] = {"header.tiling.origin[0]", "header.tiling.origin[1]",
                                 "header.tiling.origin[2]", "header.tiling.cell_size",
                                 "header.tiling.cell_height", "header.origin_y"};
  static const size_t offs[6] = {20, 28, 36, 44, 52, 68};
  double v[6];
  for (int k = 0; k < 6; k++) {
    v[k] = opc_rd_f64(p + offs[k]);
    if (is_neg_zero_d(v[k])) return neg_zero(err, names[k]);
  }
  for (int k = 0; k < 3; k++) d->tiling.origin[k] = v[k];
  d->tiling.cell_size = v[3];
  d->tiling.cell_height = v[4];
  d->origin_y = v[5];
  d->tiling.tile_cells = opc_rd_u32(p + 60);
  d->tiling.max_verts_per_poly = opc_rd_u32(p + 64);
  d->nverts = opc_rd_u32(p + 76);
  d->npolys = opc_rd_u32(p + 80);
  d->ndetail = opc_rd_u32(p + 84);
  d->ndetail_verts = opc_rd_u32(p + 88);
  d->ndetail_tris = opc_rd_u32(p + 92);
  d->noffmesh = opc_rd_u32(p + 96);
  return OP_OK;
}

static op_status size_error(op_error *err, uint32_t size) {
  return op_fail_i(err, OP_E_FORMAT, "header.size", size,
                   "arrays do not end exactly before the content id");
}

/* Reads one float32 at *o into *v, rejecting -0 (FMT-012, FMT-051 step 8); the field is
** named arr[i] + part (e.g. "verts[3]" + ".x"). */
static op_status load_f32(const uint8_t *p, size_t *o, float *v, const char *arr, uint32_t i,
                          const char *part, op_error *err) {
  *v = opc_rd_f32(p + *o);
  *o += 4;
  if (!is_neg_zero_f(*v)) return OP_OK;
  char f[96];
  return neg_zero(err, field_at(f, sizeof f, arr, i, part));
}

/* FMT-051 steps 7 and 8: framing of the arrays, then decoding (with the -0 rule). */
static op_status load_arrays(const uint8_t *p, size_t len, op_tile *t, op_error *err) {
  op_tile_desc *d = &t->d;
  const size_t end = len - 8;
  const uint32_t size = opc_rd_u32(p + 100);
  char f[96];
  /* framing */
  size_t o = T_HDR;
  if ((uint64_t)T_VERT * d->nverts > end - o) return size_error(err, size);
  o += (size_t)T_VERT * d->nverts;
  const size_t poly_off = o;
  for (uint32_t i = 0; i < d->npolys; i++) {
    if (end - o < 4) return size_error(err, size);
    unsigned n = p[o];
    if (n < 3 || n > d->tiling.max_verts_per_poly) {
      snprintf(f, sizeof f, "polys[%u].nverts", i);
      return op_fail_i(err, OP_E_RANGE, f, n, "vertex count outside [3, max_verts_per_poly]");
    }
    if (end - o < 4 + 4 * (size_t)n) return size_error(err, size);
    o += 4 + 4 * (size_t)n;
  }
  uint64_t rest = (uint64_t)T_DETAIL * d->ndetail + (uint64_t)T_DVERT * d->ndetail_verts +
                  (uint64_t)T_DTRI * d->ndetail_tris + (uint64_t)T_OFFMESH * d->noffmesh;
  if (rest != end - o) return size_error(err, size);
  /* decoding, in byte order */
  o = T_HDR;
  op_status s;
  for (uint32_t i = 0; i < d->nverts; i++)
    for (int k = 0; k < 3; k++)
      if ((s = load_f32(p, &o, &t->verts[3 * (size_t)i + k], "verts", i, PART_AX[k], err))) return s;
  o = poly_off;
  for (uint32_t i = 0; i < d->npolys; i++) {
    op_poly_desc *q = &t->polys[i];
    q->nverts = p[o];
    q->area = p[o + 1];
    q->flags = opc_rd_u16(p + o + 2);
    o += 4;
    for (unsigned j = 0; j < q->nverts; j++, o += 2) q->verts[j] = opc_rd_u16(p + o);
    for (unsigned j = 0; j < q->nverts; j++, o += 2) q->neis[j] = opc_rd_u16(p + o);
  }
  for (uint32_t i = 0; i < d->ndetail; i++, o += T_DETAIL) {
    t->detail[i].vert_base = opc_rd_u32(p + o);
    t->detail[i].tri_base = opc_rd_u32(p + o + 4);
    t->detail[i].vert_count = p[o + 8];
    t->detail[i].tri_count = p[o + 9];
  }
  for (uint32_t i = 0; i < d->ndetail_verts; i++)
    for (int k = 0; k < 3; k++)
      if ((s = load_f32(p, &o, &t->dverts[3 * (size_t)i + k], "detail_verts", i, PART_AX[k], err)))
        return s;
  if (d->ndetail_tris) memcpy(t->dtris, p + o, 4 * (size_t)d->ndetail_tris);
  o += 4 * (size_t)d->ndetail_tris;
  for (uint32_t i = 0; i < d->noffmesh; i++) {
    op_offmesh_desc *m = &t->offmesh[i];
    for (int k = 0; k < 3; k++)
      if ((s = load_f32(p, &o, &m->start[k], "offmesh", i, PART_START[k], err))) return s;
    for (int k = 0; k < 3; k++)
      if ((s = load_f32(p, &o, &m->end[k], "offmesh", i, PART_END[k], err))) return s;
    if ((s = load_f32(p, &o, &m->radius, "offmesh", i, ".radius", err))) return s;
    m->flags = opc_rd_u16(p + o);
    m->area = p[o + 2];
    m->bidirectional = p[o + 3];
    m->user_id = opc_rd_u32(p + o + 4);
    o += 8;
  }
  return OP_OK;
}

/* NavTile.Deserialize (FMT-051). */
op_status op_tile_load(const uint8_t *data, size_t len, op_tile **out, op_error *err) {
  return opt_load_counted(data, len, NULL, out, err);
}

/* op_tile_load with its three allocation steps (the tile, its arrays, its bytes) counted
** on al (CONF-059; mesh_internal.h): a mesh's snapshot restore reads its tiles so. */
op_status opt_load_counted(const uint8_t *data, size_t len, op_alloc_count *al, op_tile **out,
                           op_error *err) {
  op_clear(err);
  if (!out || (!data && len)) return op_fail(err, OP_E_ARGUMENT, "bytes", "NULL", "no input or output");
  *out = NULL;
  if (len < T_MIN) /* step 1 */
    return op_fail_i(err, OP_E_FORMAT, "header", (long long)len, "shorter than a header and a content id");
  if (data[0] != T_MAGIC0 || data[1] != T_MAGIC1 || data[2] != T_MAGIC2 || data[3] != T_MAGIC3) {
    char hex[16];
    snprintf(hex, sizeof hex, "%02x%02x%02x%02x", data[0], data[1], data[2], data[3]);
    return op_fail(err, OP_E_FORMAT, "header.magic", hex, "not a OnePath tile (magic \"OPTL\")");
  }
  if (opc_rd_u32(data + 4) != T_VERSION)
    return op_fail_i(err, OP_E_FORMAT, "header.version", opc_rd_u32(data + 4), "unsupported tile version");
  if ((uint64_t)opc_rd_u32(data + 100) != (uint64_t)len)
    return op_fail_i(err, OP_E_FORMAT, "header.size", opc_rd_u32(data + 100),
                     "stated size differs from the byte length");
  op_tile_desc hd;
  memset(&hd, 0, sizeof hd);
  op_status s = load_header(data, &hd, err);
  tgeom g;
  if (!s) s = check_header(&hd, &g, err);
  if (!s) s = check_counts(&hd, err);
  if (s) return s;
  op_tile *t = opc_calloc(al, 1, sizeof *t);
  if (!t) return opc_nomem(err, "tile");
  t->d = hd;
  if (!tile_alloc(t, al)) {
    tile_release(t);
    return opc_nomem(err, "tile");
  }
  tile_point(t);
  s = load_arrays(data, len, t, err);
  if (!s) s = validate(&t->d, &g, err);
  if (!s) s = tile_finish(t, al, err);
  if (!s && (t->nbytes != len || memcmp(t->bytes, data, len - 8) != 0))
    s = op_fail(err, OP_E_FORMAT, "header", "-", "bytes are not canonical"); /* unreachable */
  if (!s && t->id != opc_rd_u64(data + len - 8)) { /* FMT-043, FMT-051 step 10 */
    char hex[24];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)opc_rd_u64(data + len - 8));
    s = op_fail(err, OP_E_FORMAT, "content_id", hex, "content id is not the hash of the tile");
  }
  if (s) {
    tile_release(t);
    return s;
  }
  *out = t;
  return OP_OK;
}

/* ------------------------------------------------------------- accessors */

op_status op_tile_save(const op_tile *t, op_bytes *out, op_error *err) {
  op_clear(err);
  if (!t || !out) return op_fail(err, OP_E_ARGUMENT, "tile", "NULL", "no tile or output");
  uint8_t *b = malloc(t->nbytes);
  if (!b) return opc_nomem(err, "tile");
  memcpy(b, t->bytes, t->nbytes);
  out->data = b;
  out->len = t->nbytes;
  return OP_OK;
}

uint64_t op_tile_content_id(const op_tile *t) { return t ? t->id : 0; }

/* A copy of the valid tile t (FMT-040: the same canonical bytes, arrays and content id),
** made by copying instead of re-validating: for the mesh's private copies (MESH-012,
** ref/navmesh/mesh.c; declared in mesh_internal.h). NULL when memory runs out. */
op_tile *opt_clone(const op_tile *t) { return opt_clone_counted(t, NULL); }

/* opt_clone counted on al (CONF-059): the tile, its bytes, its arrays. */
op_tile *opt_clone_counted(const op_tile *t, op_alloc_count *al) {
  op_tile *c = opc_calloc(al, 1, sizeof *c);
  if (!c) return NULL;
  c->d = t->d;
  c->bytes = opc_malloc(al, t->nbytes);
  if (!c->bytes || !tile_alloc(c, al)) {
    tile_release(c);
    return NULL;
  }
  const op_tile_desc *d = &t->d;
  memcpy(c->verts, t->verts, 3 * (size_t)d->nverts * sizeof *c->verts);
  memcpy(c->polys, t->polys, (size_t)d->npolys * sizeof *c->polys);
  memcpy(c->detail, t->detail, (size_t)d->ndetail * sizeof *c->detail);
  memcpy(c->dverts, t->dverts, 3 * (size_t)d->ndetail_verts * sizeof *c->dverts);
  memcpy(c->dtris, t->dtris, 4 * (size_t)d->ndetail_tris);
  memcpy(c->offmesh, t->offmesh, (size_t)d->noffmesh * sizeof *c->offmesh);
  memcpy(c->bytes, t->bytes, t->nbytes);
  c->nbytes = t->nbytes;
  c->id = t->id;
  tile_point(c);
  return c;
}

void op_tile_view(const op_tile *t, op_tile_desc *view) {
  if (!view) return;
  if (!t) {
    memset(view, 0, sizeof *view);
    return;
  }
  *view = t->d;
}
