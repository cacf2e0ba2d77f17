/*
** tiledata.c -- NavTileAssembler: the polygon mesh of one tile, in cells, to a NavTile
** (spec/build3d-polys.md section 5, POLY-210 .. POLY-216): tile-local binary32 vertices,
** the tile's vertical origin, the snap of FMT-011's note, polygons with their neighbour
** codes, areas and flags, the detail mesh of section 4, then NavTile.Create.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build3d/polys/assembly.h"
#include "core/internal.h"

/* POLY-214: a coordinate within cell_size / 1024 of a tile side lies on it. */
static float snap_side(float v, float fw, double eps) {
  double d = (double)v;
  if (d <= eps) return 0.0f;
  if ((double)fw - d <= eps) return fw;
  return v;
}

/* POLY-212 .. POLY-215: vertices (allocated into *verts) and the vertical origin. */
static op_status assemble_verts(const op_pmesh *pm, const op_tiling *t, double y0,
                                float **verts, double *origin_y, op_error *err) {
  int32_t ymin = 0;
  for (uint32_t i = 0; i < pm->nverts; i++) {
    const int32_t *v = pm->verts + 3 * (size_t)i;
    char f[64];
    /* POLY-213: x and z within the tile's own cells */
    if (v[0] < 0 || (uint32_t)v[0] > t->tile_cells) {
      snprintf(f, sizeof f, "pmesh.verts[%u].x", i);
      return op_fail_i(err, OP_E_ARGUMENT, f, v[0], "a vertex lies outside the tile");
    }
    if (v[2] < 0 || (uint32_t)v[2] > t->tile_cells) {
      snprintf(f, sizeof f, "pmesh.verts[%u].z", i);
      return op_fail_i(err, OP_E_ARGUMENT, f, v[2], "a vertex lies outside the tile");
    }
    if (i == 0 || v[1] < ymin) ymin = v[1]; /* POLY-212 */
  }
  op_tilemap map = pm->map;
  double Y = (double)ymin * t->cell_height; /* POLY-212 */
  *origin_y = y0 + Y;
  map.y_offset = -Y;
  float fw = (float)((double)t->tile_cells * t->cell_size); /* FMT-008 */
  double eps = t->cell_size / 1024.0;                        /* POLY-214 */
  double ylim = 16384.0 * t->cell_size;                      /* FMT-011 */
  float *out = malloc(3 * (size_t)(pm->nverts ? pm->nverts : 1) * sizeof *out);
  if (!out) return opc_nomem(err, "verts");
  for (uint32_t i = 0; i < pm->nverts; i++) {
    const int32_t *v = pm->verts + 3 * (size_t)i;
    float *p = out + 3 * (size_t)i;
    op_tilemap_pos(&map, v[0], v[1], v[2], p); /* POLY-213 (POLY-003, POLY-004) */
    p[0] = snap_side(p[0], fw, eps);           /* POLY-214 */
    p[2] = snap_side(p[2], fw, eps);
    if ((double)p[1] > ylim) { /* POLY-215 */
      free(out);
      return op_fail_d(err, OP_E_LIMIT, "cell_size", t->cell_size,
                       "a tile's vertical extent exceeds 16384 cell sizes (FMT-011); "
                       "raise cell_size or lower the level's height range");
    }
  }
  *verts = out;
  return OP_OK;
}

/* POLY-210 .. POLY-216 */
op_status op_tile_assemble(const op_pmesh *pm, const op_detail_mesh *dm, int32_t tx,
                           int32_t tz, int32_t layer, const op_tiling *t, double y0,
                           op_tile **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  if (!pm) return op_fail(err, OP_E_ARGUMENT, "pmesh", "NULL", "a polygon mesh is required");
  if (!t) return op_fail(err, OP_E_ARGUMENT, "tiling", "NULL", "a tiling is required");
  if (pm->npolys == 0) { /* POLY-211 */
    *out = NULL;
    return OP_OK;
  }
  if (pm->nvp != t->max_verts_per_poly)
    return op_fail_i(err, OP_E_ARGUMENT, "pmesh.nvp", pm->nvp,
                     "the polygon mesh's MaxVertsPerPoly differs from the tiling's");
  float *verts = NULL;
  double origin_y = 0;
  op_status st = assemble_verts(pm, t, y0, &verts, &origin_y, err);
  if (st != OP_OK) return st;
  op_poly_desc *polys = calloc(pm->npolys, sizeof *polys);
  if (!polys) {
    free(verts);
    return opc_nomem(err, "polys");
  }
  for (uint32_t p = 0; p < pm->npolys; p++) { /* POLY-216 */
    op_poly_desc *d = &polys[p];
    const uint16_t *pv = pm->polys + (size_t)p * pm->nvp;
    const uint16_t *pn = pm->neis + (size_t)p * pm->nvp;
    d->nverts = (uint8_t)op_pmesh_poly_nverts(pm, p);
    d->area = pm->areas[p];
    d->flags = 1; /* POLY-216: every polygon walkable; the mesh's flags (0) are not used */
    for (uint32_t j = 0; j < d->nverts; j++) {
      d->verts[j] = pv[j];
      d->neis[j] = pn[j];
    }
  }
  op_tile_desc desc; /* POLY-217 */
  memset(&desc, 0, sizeof desc);
  desc.x = tx;
  desc.z = tz;
  desc.layer = layer;
  desc.tiling = *t;
  desc.origin_y = origin_y;
  desc.nverts = pm->nverts;
  desc.verts = verts;
  desc.npolys = pm->npolys;
  desc.polys = polys;
  if (dm && dm->ndetail) { /* POLY-201: v0 tiles carry none */
    desc.ndetail = dm->ndetail;
    desc.detail = dm->detail;
    desc.ndetail_verts = dm->nverts;
    desc.detail_verts = dm->verts;
    desc.ndetail_tris = dm->ntris;
    desc.detail_tris = dm->tris;
  }
  st = op_tile_create(&desc, out, err); /* POLY-217: FMT-050, content id FMT-043 */
  free(polys);
  free(verts);
  return st;
}
