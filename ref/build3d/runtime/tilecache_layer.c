/*
** tilecache_layer.c -- TileCache.Layer (spec/build3d-runtime.md section 10, RT-154): the
** regions, contour set and edge map of one layer of a cached layer-first tile for the areas
** in force, made as Update makes them (RT-085, or the repair RT-101 .. RT-105 of
** ref/build3d/runtime/repair.c when the switch is on and its preconditions hold; RT-106: the
** same bytes either way), written as bytes: region values u16 and edge map u32 (RT-154),
** contours by REG-222. Reads the cache (tilecache.h) and builds a layer view's span graph on
** first use as Update does (RT-011 item 2, not state).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/internal.h"
#include "core/bytes.h"
#include "build3d/runtime/repair.h"
#include "build3d/runtime/tilecache.h"

/* The layer's result: regions (borrowed or owned) and contours (borrowed or owned). */
typedef struct tl_out {
  const uint16_t *reg;
  uint16_t *own_reg;
  uint32_t nregions;
  const op_contour_set *cs;
  op_contour_set own_cs;
  op_regions own_rg;
} tl_out;

static void tl_free(tl_out *o) {
  free(o->own_reg);
  op_contour_set_free(&o->own_cs);
  op_regions_free(&o->own_rg);
}

/* RT-154's checks after the arguments: a layer-first cache, a cached tile, a layer. */
static op_status find_layer(const op_tilecache *c, int32_t tx, int32_t tz, uint32_t layer,
                            uint32_t *ti, op_error *err) {
  if (!c) return op_fail(err, OP_E_ARGUMENT, "cache", "NULL", "a tile cache is required");
  if (!c->ctx.layer_first)
    return op_fail(err, OP_E_ARGUMENT, "cache", "", "the cache's tiles are not built layer first");
  int64_t k = optc_find_tile(c, tx, tz);
  if (k < 0) {
    char v[32];
    snprintf(v, sizeof v, "%ld,%ld", (long)tx, (long)tz);
    return op_fail(err, OP_E_ARGUMENT, "tile", v, "the cache holds no tile at these coordinates");
  }
  if (layer >= c->tiles[k].k.nunits)
    return op_fail_i(err, OP_E_RANGE, "layer", layer, "not below the tile's layer count");
  *ti = (uint32_t)k;
  return OP_OK;
}

/* RT-103: the repaired regions, the first build's with removed spans 0. */
static op_status repaired_regions(const opl_unit *u, const uint8_t *a, tl_out *o,
                                  op_alloc_count *al, op_error *err) {
  uint32_t n = u->view->nspans;
  o->own_reg = opc_malloc(al, (n ? n : 1) * sizeof *o->own_reg); /* CONF-059 */
  if (!o->own_reg) return opc_nomem(err, "cache");
  for (uint32_t i = 0; i < n; i++)
    o->own_reg[i] = u->view->areas[i] != OP_AREA_NULL && a[i] == OP_AREA_NULL ? 0 : u->rg.reg[i];
  o->reg = o->own_reg;
  o->nregions = u->rg.nregions;
  return OP_OK;
}

/* The layer for areas a that differ from the first build's: the repair (with its edge
** map) when the switch is on and it is done, else RT-084 and REG-200 from scratch. */
static op_status changed_layer(op_tilecache *c, optc_tile *t, uint32_t L, const uint8_t *a,
                               int vsel, tl_out *o, op_error *err) {
  opl_unit *u = &t->k.units[L];
  optc_unit *tu = &t->units[L];
  op_status st = OP_OK;
  oprp_result res = OPRP_NOTHING;
  if (!tu->vgraph.column) st = op_span_graph_build(u->view, &tu->vgraph, err); /* not state */
  if (st == OP_OK && c->repair)
    st = oprp_layer_counted(u->view, &tu->vgraph, &u->rg, &u->cs, a, vsel,
                            &c->ctx.params.contours, c->ctx.params.min_region_area, &res,
                            &o->own_cs, NULL, 1 /* oprp_layer: the edge map */, c->alloc, err);
  if (st == OP_OK && res == OPRP_DONE) {
    o->cs = &o->own_cs;
    return repaired_regions(u, a, o, c->alloc, err);
  }
  if (st != OP_OK) return st;
  op_chf tmp = *u->view;
  tmp.areas = (uint8_t *)(uintptr_t)a; /* read only */
  st = opl_layer_contours(&c->ctx, &tmp, &o->own_rg, &o->own_cs, err); /* RT-084, RT-085 */
  o->reg = o->own_rg.reg;
  o->nregions = o->own_rg.nregions;
  o->cs = &o->own_cs;
  return st;
}

/* RT-154's byte strings, little-endian: region values (u16) and the edge map (u32). */
static op_status put_u16s(const uint16_t *v, size_t n, op_bytes *out, op_error *err) {
  opc_buf b = {NULL, 0, 0, 0};
  for (size_t i = 0; i < n; i++) opc_put_u16(&b, v[i]);
  if (b.oom) return opc_nomem(err, "memory");
  out->data = b.p, out->len = b.len;
  return OP_OK;
}

static op_status put_u32s(const uint32_t *v, size_t n, op_bytes *out, op_error *err) {
  opc_buf b = {NULL, 0, 0, 0};
  for (size_t i = 0; i < n; i++) opc_put_u32(&b, v[i]);
  if (b.oom) return opc_nomem(err, "memory");
  out->data = b.p, out->len = b.len;
  return OP_OK;
}

static const op_tilecache_layer_data TL_EMPTY; /* every field zero */

/* RT-154's answer from the layer's regions and contour set; *out written on success. */
static op_status write_out(const tl_out *o, uint32_t n, op_tilecache_layer_data *out,
                           op_error *err) {
  op_tilecache_layer_data d = TL_EMPTY;
  d.nspans = n;
  d.nregions = o->nregions;
  op_status st = put_u16s(o->reg, n, &d.regions, err);
  if (st == OP_OK) st = op_contours_save(o->cs, &d.contours, err); /* REG-222 */
  if (st == OP_OK) st = put_u32s(o->cs->edge_loop, 4 * (size_t)n, &d.edges, err); /* REG-214 */
  if (st != OP_OK) {
    op_tilecache_layer_data_free(&d);
    return st;
  }
  *out = d;
  return OP_OK;
}

/* Every layer of a layer-first tile has a view (RT-083; with no span, its contour set has
** the tile grid's size, Border and no loop, as RT-154 says). */
op_status op_tilecache_layer(op_tilecache *c, int32_t tx, int32_t tz, uint32_t layer,
                             op_tilecache_layer_data *out, op_error *err) {
  uint32_t ti = UINT32_MAX;
  op_status st = find_layer(c, tx, tz, layer, &ti, err);
  if (st != OP_OK) return st;
  optc_tile *t = &c->tiles[ti];
  const opl_unit *u = &t->k.units[layer];
  uint32_t n = u->view->nspans;
  tl_out o;
  memset(&o, 0, sizeof o);
  uint8_t *a = opc_malloc(c->alloc, n ? n : 1); /* CONF-059 */
  if (!a) return opc_nomem(err, "cache");
  int vsel;
  if (optc_unit_areas(c, ti, layer, a, &vsel)) { /* RT-041 */
    st = changed_layer(c, t, layer, a, vsel, &o, err);
  } else { /* the first build's kept data (RT-100, RT-013 step 2) */
    o.reg = u->rg.reg, o.nregions = u->rg.nregions;
    o.cs = &u->cs;
  }
  if (st == OP_OK) st = write_out(&o, n, out, err);
  free(a);
  tl_free(&o);
  return st;
}

void op_tilecache_layer_data_free(op_tilecache_layer_data *d) {
  if (d) {
    free(d->regions.data);
    free(d->contours.data);
    free(d->edges.data);
  }
}
