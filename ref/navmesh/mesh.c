/*
** mesh.c -- the TiledNavMesh (spec/navmesh-mesh.md, clauses MESH-xxx): parameters, slots
** and generations, AddTile, RemoveTile, ReplaceTile, polygon references, run-time polygon
** edits and the canonical whole-mesh serialization.
**
** Tiles are used only through the public tile API (op_tile_view, op_tile_save) and
** opt_clone (a copy of a valid tile, ref/navmesh/tile.c). Every operation either completes
** or leaves the mesh unchanged (MESH-001). Stitching (MESH-020..MESH-025) is
** ref/navmesh/mesh_links.c; several changes as one all-or-nothing step (opm_batch, for the
** tile cache) ref/navmesh/mesh_batch.c; the readers (MESH-060..MESH-066)
** ref/navmesh/mesh_read.c; the byte writer ref/core/bytes.c.
*/
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navmesh/mesh_internal.h"

/* ------------------------------------------------------------ parameters */

static op_status check_coord(double v, const char *field, op_error *err) {
  if (!isfinite(v) || v < -2097152.0 || v > 2097152.0) /* MESH-002: |v| <= 2^21 */
    return op_fail_d(err, OP_E_RANGE, field, v, "must be finite and within +-2^21");
  return OP_OK;
}

op_status opm_check_params(const op_mesh_params *p, op_error *err) {
  static const char *const onames[3] = {"tiling.origin[0]", "tiling.origin[1]",
                                        "tiling.origin[2]"};
  op_status st;
  if (!p) return op_fail(err, OP_E_ARGUMENT, "params", "NULL", "parameters are required");
  for (int i = 0; i < 3; i++) /* MESH-002 */
    if ((st = check_coord(p->tiling.origin[i], onames[i], err))) return st;
  const double smin = 1.0 / 65536.0, smax = 65536.0; /* MESH-002: the format's ranges */
  if (!isfinite(p->tiling.cell_size) || p->tiling.cell_size < smin || p->tiling.cell_size > smax)
    return op_fail_d(err, OP_E_RANGE, "tiling.cell_size", p->tiling.cell_size,
                     "must be finite and within [2^-16, 2^16]");
  if (!isfinite(p->tiling.cell_height) || p->tiling.cell_height < smin ||
      p->tiling.cell_height > smax) /* MESH-002 */
    return op_fail_d(err, OP_E_RANGE, "tiling.cell_height", p->tiling.cell_height,
                     "must be finite and within [2^-16, 2^16]");
  if (p->tiling.tile_cells < 1 || p->tiling.tile_cells > 8192) /* MESH-002 */
    return op_fail_i(err, OP_E_RANGE, "tiling.tile_cells", p->tiling.tile_cells,
                     "must be in 1..8192");
  if (p->tiling.max_verts_per_poly < 3 || p->tiling.max_verts_per_poly > OP_MAX_VERTS_PER_POLY)
    return op_fail_i(err, OP_E_RANGE, "tiling.max_verts_per_poly", /* MESH-002 */
                     p->tiling.max_verts_per_poly, "must be in 3..12");
  if (!isfinite(p->walkable_climb) || p->walkable_climb < 0) /* MESH-003 */
    return op_fail_d(err, OP_E_RANGE, "walkable_climb", p->walkable_climb,
                     "must be finite and >= 0");
  if (p->max_tiles < 1 || p->max_tiles > OPM_MAX_SLOTS) /* MESH-004 */
    return op_fail_i(err, OP_E_RANGE, "max_tiles", p->max_tiles, "must be in 1..2^22");
  return OP_OK;
}

/* MESH-067: a parameter block read from bytes (a mesh serialization or a snapshot,
** SNAP-025): MESH-002..MESH-004's checks in their order, then no -0.0 in origin[0..2] and
** walkable_climb (MESH-002 stores +0.0, so no mesh's block holds -0.0); each failure a
** format error naming `params.<field>` with the block's value. */
op_status opm_check_params_block(const op_mesh_params *p, op_error *err) {
  op_error e;
  op_clear(&e);
  if (opm_check_params(p, &e)) {
    char field[sizeof e.field + 8];
    snprintf(field, sizeof field, "params.%s", e.field);
    return op_fail(err, OP_E_FORMAT, field, e.value, "parameter block: %s", e.message);
  }
  static const char *const names[4] = {"params.tiling.origin[0]", "params.tiling.origin[1]",
                                       "params.tiling.origin[2]", "params.walkable_climb"};
  const double v[4] = {p->tiling.origin[0], p->tiling.origin[1], p->tiling.origin[2],
                       p->walkable_climb};
  for (int i = 0; i < 4; i++) {
    uint64_t u;
    memcpy(&u, &v[i], sizeof u);
    if (u == 0x8000000000000000ull) /* MESH-067: -0.0 is never saved */
      return op_fail_d(err, OP_E_FORMAT, names[i], v[i], "-0.0 is not a saved parameter");
  }
  return OP_OK;
}

static int same_f64(double a, double b) { /* MESH-005: equal bit patterns */
  uint64_t ua, ub;
  memcpy(&ua, &a, sizeof ua);
  memcpy(&ub, &b, sizeof ub);
  return ua == ub;
}

op_status opm_check_tiling(const op_tiling *want, const op_tiling *got, const char *prefix,
                           op_status kind, op_error *err) {
  static const char *const names[5] = {"origin[0]", "origin[1]", "origin[2]", "cell_size",
                                       "cell_height"};
  const double wv[5] = {want->origin[0], want->origin[1], want->origin[2], want->cell_size,
                        want->cell_height};
  const double gv[5] = {got->origin[0], got->origin[1], got->origin[2], got->cell_size,
                        got->cell_height};
  char field[96];
  for (int i = 0; i < 5; i++) { /* MESH-005, in this field order */
    if (!same_f64(wv[i], gv[i])) {
      snprintf(field, sizeof field, "%s%s", prefix, names[i]);
      return op_fail_d(err, kind, field, gv[i], "differs from the mesh's tiling");
    }
  }
  if (want->tile_cells != got->tile_cells) {
    snprintf(field, sizeof field, "%stile_cells", prefix);
    return op_fail_i(err, kind, field, got->tile_cells, "differs from the mesh's tiling");
  }
  if (want->max_verts_per_poly != got->max_verts_per_poly) {
    snprintf(field, sizeof field, "%smax_verts_per_poly", prefix);
    return op_fail_i(err, kind, field, got->max_verts_per_poly,
                     "differs from the mesh's tiling");
  }
  return OP_OK;
}

/* ------------------------------------------------------------ state */

void opm_init(op_mesh *m, const op_mesh_params *p) {
  memset(m, 0, sizeof *m);
  m->params = *p;
}

void opm_occ_free(opm_occ *o) {
  if (!o) return;
  op_tile_free(o->tile);
  free(o->flags);
  free(o->area);
  free(o->links);
  free(o->portals);
  free(o);
}

void opm_clear(op_mesh *m) {
  for (uint32_t k = 0; k < m->nslots; k++) opm_occ_free(m->slots[k].occ);
  free(m->slots);
  free(m->order);
  m->slots = NULL;
  m->order = NULL;
  m->nslots = m->capslots = m->norder = m->caporder = 0;
}

opm_slot *opm_slot_at(const op_mesh *m, uint32_t s) {
  uint32_t k = opm_lower_slot(m, s);
  return k < m->nslots && m->slots[k].index == s ? &m->slots[k] : NULL;
}

int opm_reserve(op_mesh *m, uint32_t n) {
  if (n <= m->capslots) return 0;
  uint32_t cap = m->capslots ? m->capslots : 8;
  while (cap < n) cap *= 2; /* n <= max_tiles <= 2^22 stored slots: no overflow */
  opm_slot *p = opm_realloc(m->alloc, m->slots, (size_t)cap * sizeof *p); /* CONF-059 */
  if (!p) return -1;
  m->slots = p;
  m->capslots = cap;
  return 0;
}

opm_slot *opm_insert_slot(op_mesh *m, uint32_t k, uint32_t s, uint32_t gen) {
  if (opm_reserve(m, m->nslots + 1)) return NULL;
  memmove(&m->slots[k + 1], &m->slots[k], (size_t)(m->nslots - k) * sizeof *m->slots);
  m->slots[k].index = s;
  m->slots[k].gen = gen;
  m->slots[k].occ = NULL;
  m->nslots++;
  return &m->slots[k];
}

void opm_erase_slot(op_mesh *m, uint32_t k) {
  memmove(&m->slots[k], &m->slots[k + 1], (size_t)(m->nslots - k - 1) * sizeof *m->slots);
  m->nslots--;
}

opm_slot *opm_append(op_mesh *m, uint32_t s, uint32_t gen) {
  return opm_insert_slot(m, m->nslots, s, gen);
}

/* The state of tile t entering the mesh: t (owned from then on), its view, each polygon's
** flags and area from the tile's own (MESH-030), its portal edges (mesh_links.c), no links. */
opm_occ *opm_occ_new(op_tile *t, opm_alloc *al) {
  op_tile_desc v;
  op_tile_view(t, &v);
  size_t n = v.npolys ? v.npolys : 1;
  opm_occ *o = opm_calloc(al, 1, sizeof *o);
  uint16_t *fl = o ? opm_malloc(al, n * sizeof *fl) : NULL;
  uint8_t *ar = fl ? opm_malloc(al, n) : NULL;
  if (!ar || opm_portals_make(&v, o, al)) {
    free(o);
    free(fl);
    free(ar);
    return NULL;
  }
  for (uint32_t i = 0; i < v.npolys; i++) { /* MESH-030: edits start from the tile's values */
    fl[i] = v.polys[i].flags;
    ar[i] = v.polys[i].area;
  }
  o->tile = t;
  o->view = v;
  o->flags = fl;
  o->area = ar;
  return o;
}

int opm_install(op_mesh *m, uint32_t k, uint32_t gen, op_tile *t) {
  opm_occ *o = opm_occ_new(t, m->alloc); /* CONF-059 */
  if (!o) return -1;
  m->slots[k].occ = o;
  m->slots[k].gen = gen;
  return 0;
}

int64_t opm_find(const op_mesh *m, int32_t x, int32_t z, int32_t layer) {
  if (m->order) { /* current on every mesh but a batch's or a load's working copy */
    uint32_t i = opm_order_lower(m, x, z, layer);
    if (i == m->norder || opm_tkey_cmp(&m->order[i], x, z, layer) != 0) return -1;
    uint32_t k = opm_lower_slot(m, m->order[i].slot);
    assert(k < m->nslots && m->slots[k].index == m->order[i].slot && m->slots[k].occ);
    return k;
  }
  for (uint32_t k = 0; k < m->nslots; k++) {
    const opm_occ *o = m->slots[k].occ;
    if (o && o->view.x == x && o->view.z == z && o->view.layer == layer) return k;
  }
  return -1;
}

/* MESH-012: the lowest-numbered empty slot (max_tiles or above when none is free). The
** leading stored slots that are occupied and numbered 0, 1, 2, ... without a gap are the
** only full slots below it: the first gap (a slot not stored) or the first stored empty
** slot ends them. */
uint32_t opm_lowest_free(const op_mesh *m) {
  uint32_t s = 0;
  while (s < m->nslots && m->slots[s].index == s && m->slots[s].occ) s++;
  return s;
}

/* ------------------------------------------------------------ public API */

op_status op_mesh_create(const op_mesh_params *p, op_mesh **out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  *out = NULL;
  op_status st = opm_check_params(p, err); /* MESH-002..MESH-004 */
  if (st) return st;
  op_mesh_params q = *p; /* MESH-002: -0.0 becomes +0.0 (as FMT-012 does for tiles) */
  for (int i = 0; i < 3; i++) q.tiling.origin[i] += 0.0;
  q.walkable_climb += 0.0;
  op_mesh *m = malloc(sizeof *m);
  if (!m) return opc_nomem(err, "mesh");
  opm_init(m, &q);
  *out = m;
  op_clear(err);
  return OP_OK;
}

void op_mesh_free(op_mesh *m) {
  if (!m) return;
  opm_clear(m);
  free(m);
}

void op_mesh_set_alloc(op_mesh *m, op_alloc_count *a) { /* CONF-059: tests only */
  if (m) m->alloc = a;
}

op_status opm_fail_pos(op_error *err, int32_t x, int32_t z, int32_t layer,
                       const char *why) {
  char buf[64];
  snprintf(buf, sizeof buf, "%ld,%ld,%ld", (long)x, (long)z, (long)layer);
  return op_fail(err, OP_E_ARGUMENT, "tile", buf, "%s", why);
}

/* A private copy of t (MESH-012). t is valid (op_tile_create or op_tile_load made it), so
** it is copied as it is (opt_clone), not saved and re-validated. Out of memory is the
** mesh's (MESH-001: field `mesh`). */
op_status opm_copy_tile(const op_tile *t, op_tile **out, opm_alloc *al, op_error *err) {
  *out = opt_clone_counted(t, al); /* CONF-059 */
  return *out ? OP_OK : opc_nomem(err, "mesh");
}

/* Checks shared by AddTile and ReplaceTile (MESH-005, MESH-010). */
op_status opm_check_tile(const op_mesh *m, const op_tile *t, op_tile_desc *v, op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (!t) return op_fail(err, OP_E_ARGUMENT, "tile", "NULL", "tile is required");
  op_tile_view(t, v);
  op_status st = opm_check_tiling(&m->params.tiling, &v->tiling, "tiling.", OP_E_ARGUMENT, err);
  if (st) return st;
  if (v->npolys > OPM_MAX_POLYS) /* MESH-010 */
    return op_fail_i(err, OP_E_LIMIT, "npolys", v->npolys,
                     "more polygons than a reference holds");
  return OP_OK;
}

/* Undoes a failed AddTile into the stored slot at position k: frees the occupant
** installed there, if any, and erases the entry when AddTile inserted it (`fresh`). */
static void undo_add(op_mesh *m, uint32_t k, int fresh) {
  opm_occ_free(m->slots[k].occ);
  m->slots[k].occ = NULL;
  if (fresh) opm_erase_slot(m, k);
}

/* MESH-024: relinks the tiles next to column (x, z) and, unless it is UINT32_MAX, the tile
** at position self, m->order being current (the caller inserted or erased the changed
** tile's key). 0, or -1 (no memory; links unchanged). */
static int relink_around(op_mesh *m, int32_t x, int32_t z, uint32_t self) {
  uint32_t *list = NULL, n = 0;
  /* the relinked tiles lie within 1 of column (x, z), so their neighbours within 2 */
  const int64_t box[4] = {(int64_t)x - 2, (int64_t)x + 2, (int64_t)z - 2, (int64_t)z + 2};
  int rc = opm_affected(m, x, z, self, &list, &n) || opm_relink(m, list, n, box) ? -1 : 0;
  m->visits += m->order ? n : m->nslots; /* opm_affected: a search, or a scan */
  free(list);
  return rc;
}

/* MESH-018, RT-018: a tile cache's mesh changes its tiles only through the cache, which clears
** cache_owned around its own calls; a direct call is an argument error `mesh`. */
static op_status refuse_cache_owned(const op_mesh *m, op_error *err) {
  if (m && m->cache_owned)
    return op_fail(err, OP_E_ARGUMENT, "mesh", "",
                   "the mesh belongs to a tile cache; only the cache changes its tiles");
  return OP_OK;
}

op_status op_mesh_add_tile(op_mesh *m, const op_tile *t, op_ref *tile_ref, op_error *err) {
  op_tile_desc v;
  op_status st = refuse_cache_owned(m, err); /* RT-018: before any other check */
  if (!st) st = opm_check_tile(m, t, &v, err);
  if (st) return st;
  if (opm_find(m, v.x, v.z, v.layer) >= 0) /* MESH-012 */
    return opm_fail_pos(err, v.x, v.z, v.layer, "a tile already occupies this position");
  uint32_t s = opm_lowest_free(m); /* MESH-012: the lowest free slot */
  if (s >= m->params.max_tiles)
    return op_fail_i(err, OP_E_LIMIT, "max_tiles", m->params.max_tiles, "no free slot");
  uint32_t k = opm_lower_slot(m, s);
  int fresh = k == m->nslots || m->slots[k].index != s; /* not stored: generation 1 */
  if (fresh && !opm_insert_slot(m, k, s, 1)) return opc_nomem(err, "mesh"); /* MESH-011 */
  op_tile *copy = NULL;
  if ((st = opm_copy_tile(t, &copy, m->alloc, err))) {
    undo_add(m, k, fresh);
    return st;
  }
  if (opm_order_reserve(m) || opm_install(m, k, m->slots[k].gen, copy)) { /* MESH-011 */
    op_tile_free(copy);
    undo_add(m, k, fresh);
    return opc_nomem(err, "mesh");
  }
  opm_order_insert(m, v.x, v.z, v.layer, s); /* MESH-061 */
  if (relink_around(m, v.x, v.z, k)) { /* MESH-024 */
    opm_order_erase(m, v.x, v.z, v.layer);
    undo_add(m, k, fresh);
    return opc_nomem(err, "mesh");
  }
  if (tile_ref) *tile_ref = opm_make_ref(m->slots[k].gen, s, 0); /* MESH-013 */
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_remove_tile(op_mesh *m, int32_t x, int32_t z, int32_t layer, op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (refuse_cache_owned(m, err)) return OP_E_ARGUMENT; /* RT-018 */
  int64_t f = opm_find(m, x, z, layer);
  if (f < 0) return opm_fail_pos(err, x, z, layer, "no tile at this position"); /* MESH-014 */
  uint32_t k = (uint32_t)f;
  opm_occ *keep = m->slots[k].occ;
  m->slots[k].occ = NULL; /* tentatively empty while the neighbours are relinked */
  opm_order_erase(m, x, z, layer); /* MESH-061; the room stays for a re-insertion */
  if (relink_around(m, x, z, UINT32_MAX)) { /* MESH-024 */
    opm_order_insert(m, x, z, layer, m->slots[k].index);
    m->slots[k].occ = keep;
    return opc_nomem(err, "mesh");
  }
  opm_occ_free(keep);
  m->slots[k].gen = opm_next_gen(m->slots[k].gen); /* MESH-011, MESH-014 */
  if (m->slots[k].gen == 1) opm_erase_slot(m, k); /* wrapped: empty at generation 1, no state */
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_replace_tile(op_mesh *m, const op_tile *t, op_ref *tile_ref, op_error *err) {
  op_tile_desc v;
  op_status st = refuse_cache_owned(m, err); /* RT-018: before any other check */
  if (!st) st = opm_check_tile(m, t, &v, err);
  if (st) return st;
  int64_t f = opm_find(m, v.x, v.z, v.layer);
  if (f < 0) /* MESH-015 */
    return opm_fail_pos(err, v.x, v.z, v.layer, "no tile at this position to replace");
  uint32_t k = (uint32_t)f;
  op_tile *copy = NULL;
  if ((st = opm_copy_tile(t, &copy, m->alloc, err))) return st;
  opm_occ *keep = m->slots[k].occ;
  uint32_t keep_gen = m->slots[k].gen;
  m->slots[k].occ = NULL;
  if (opm_install(m, k, opm_next_gen(keep_gen), copy)) { /* MESH-011, MESH-015 */
    op_tile_free(copy);
    m->slots[k].occ = keep;
    return opc_nomem(err, "mesh");
  }
  if (relink_around(m, v.x, v.z, k)) { /* MESH-024 */
    opm_occ_free(m->slots[k].occ);
    m->slots[k].occ = keep;
    m->slots[k].gen = keep_gen;
    return opc_nomem(err, "mesh");
  }
  opm_occ_free(keep); /* MESH-031: the old tile's edits are dropped with it */
  if (tile_ref) *tile_ref = opm_make_ref(m->slots[k].gen, m->slots[k].index, 0);
  op_clear(err);
  return OP_OK;
}

/* ------------------------------------------------------------ references and edits */

/* MESH-010, MESH-016: decode and check a polygon reference; its slot and polygon. */
/* MESH-016's failure: argument `ref`, its value the reference in 16 hex digits (formatted
** only here: resolving is on every query's path). */
static op_status bad_ref(op_error *err, op_ref r, const char *why) {
  char buf[24];
  snprintf(buf, sizeof buf, "%016llx", (unsigned long long)r);
  return op_fail(err, OP_E_ARGUMENT, "ref", buf, "%s", why);
}

op_status opm_resolve(const op_mesh *m, op_ref r, const opm_slot **slot, uint32_t *poly,
                      op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  uint32_t gen = (uint32_t)(r >> (OPM_SLOT_BITS + OPM_POLY_BITS));
  uint32_t s = (uint32_t)(r >> OPM_POLY_BITS) & (OPM_MAX_SLOTS - 1u);
  uint32_t p = (uint32_t)r & (OPM_MAX_POLYS - 1u);
  if (r == 0) return bad_ref(err, r, "null reference");
  const opm_slot *sl = opm_slot_at(m, s);
  if (!sl || !sl->occ) return bad_ref(err, r, "no tile in the reference's slot");
  if (sl->gen != gen) return bad_ref(err, r, "stale reference (generation differs)");
  if (p >= sl->occ->view.npolys)
    return bad_ref(err, r, "polygon index beyond the tile's polygons");
  *slot = sl;
  *poly = p;
  return OP_OK;
}

op_status op_mesh_set_poly_flags(op_mesh *m, op_ref poly, uint16_t flags, op_error *err) {
  const opm_slot *sl;
  uint32_t p;
  op_status st = opm_resolve(m, poly, &sl, &p, err);
  if (st) return st;
  opm_occ *o = sl->occ;
  o->flags[p] = flags; /* MESH-030 */
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_set_poly_area(op_mesh *m, op_ref poly, uint8_t area, op_error *err) {
  const opm_slot *sl;
  uint32_t p;
  op_status st = opm_resolve(m, poly, &sl, &p, err);
  if (st) return st;
  opm_occ *o = sl->occ;
  if (area > OPM_AREA_MAX) /* MESH-030 */
    return op_fail_i(err, OP_E_RANGE, "area", area, "area id out of range");
  o->area[p] = area;
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_get_poly(const op_mesh *m, op_ref poly, uint16_t *flags, uint8_t *area,
                           op_error *err) {
  const opm_slot *sl;
  uint32_t p;
  op_status st = opm_resolve(m, poly, &sl, &p, err);
  if (st) return st;
  opm_occ *o = sl->occ;
  if (flags) *flags = o->flags[p];
  if (area) *area = o->area[p];
  op_clear(err);
  return OP_OK;
}

op_status op_mesh_poly_ref(const op_mesh *m, int32_t x, int32_t z, int32_t layer,
                           uint32_t poly, op_ref *out, op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  int64_t f = opm_find(m, x, z, layer);
  if (f < 0) return opm_fail_pos(err, x, z, layer, "no tile at this position"); /* MESH-017 */
  const opm_slot *s = &m->slots[f];
  if (poly >= s->occ->view.npolys)
    return op_fail_i(err, OP_E_RANGE, "poly", poly, "polygon index beyond the tile's polygons");
  if (out) *out = opm_make_ref(s->gen, s->index, poly); /* MESH-010, MESH-017 */
  op_clear(err);
  return OP_OK;
}

/* ------------------------------------------------------------ serialization */

/* MESH-040: the parameter block (shared by mesh and snapshot layouts). */
void opm_put_params(opc_buf *b, const op_mesh_params *p) {
  for (int i = 0; i < 3; i++) opc_put_f64(b, p->tiling.origin[i]);
  opc_put_f64(b, p->tiling.cell_size);
  opc_put_f64(b, p->tiling.cell_height);
  opc_put_u32(b, p->tiling.tile_cells);
  opc_put_u32(b, p->tiling.max_verts_per_poly);
  opc_put_f64(b, p->walkable_climb);
  opc_put_u32(b, p->max_tiles);
}

static int edited(const opm_occ *s, uint32_t p) { /* MESH-031, MESH-042 */
  return s->flags[p] != s->view.polys[p].flags || s->area[p] != s->view.polys[p].area;
}

/* MESH-041, MESH-042 (and SNAP-011, which shares them): record header, tile bytes, edits. */
op_status opm_put_tile_record(opc_buf *b, const opm_slot *sl, op_error *err) {
  const opm_occ *s = sl->occ;
  op_bytes tb = {NULL, 0};
  op_status st = op_tile_save(s->tile, &tb, err);
  if (st) return st;
  opc_put_u32(b, sl->index); /* MESH-041 */
  opc_put_u32(b, sl->gen);
  opc_put_u32(b, (uint32_t)s->view.x);
  opc_put_u32(b, (uint32_t)s->view.z);
  opc_put_u32(b, (uint32_t)s->view.layer);
  opc_put_u32(b, (uint32_t)tb.len);
  opc_put(b, tb.data, tb.len);
  op_bytes_free(&tb);
  uint32_t nedits = 0; /* MESH-042: only edited polygons, ascending */
  for (uint32_t p = 0; p < s->view.npolys; p++) nedits += (uint32_t)edited(s, p);
  opc_put_u32(b, nedits);
  for (uint32_t p = 0; p < s->view.npolys; p++) {
    if (!edited(s, p)) continue;
    opc_put_u32(b, p);
    opc_put_u16(b, s->flags[p]);
    opc_put_u8(b, s->area[p]);
    opc_put_u8(b, 0);
  }
  return OP_OK;
}

/* MESH-043: the links of a tile record, in canonical order (MESH-024). */
static void put_links(opc_buf *b, const opm_occ *s) {
  opc_put_u32(b, s->nlinks);
  for (uint32_t k = 0; k < s->nlinks; k++) {
    const op_link *l = &s->links[k];
    opc_put_u32(b, l->poly);
    opc_put_u8(b, l->edge);
    opc_put_u8(b, l->side);
    opc_put_u8(b, l->target_edge);
    opc_put_u8(b, 0);
    opc_put_u64(b, l->target);
    opc_put_f32(b, l->lo);
    opc_put_f32(b, l->hi);
  }
}

/* MESH-040..MESH-043: the canonical whole-mesh serialization. */
op_status op_mesh_save(const op_mesh *m, op_bytes *out, op_error *err) {
  if (!m) return op_fail(err, OP_E_ARGUMENT, "mesh", "NULL", "mesh is required");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output is required");
  opc_buf b = {NULL, 0, 0, 0};
  uint32_t count = 0;
  for (uint32_t i = 0; i < m->nslots; i++) count += m->slots[i].occ != NULL;
  opc_put(&b, "OPMS", 4); /* MESH-040 */
  opc_put_u32(&b, 1);
  opm_put_params(&b, &m->params);
  opc_put_u32(&b, count);
  for (uint32_t i = 0; i < m->nslots; i++) { /* MESH-041: ascending slot order */
    if (!m->slots[i].occ) continue;
    op_status st = opm_put_tile_record(&b, &m->slots[i], err);
    if (st) {
      free(b.p);
      return st;
    }
    put_links(&b, m->slots[i].occ);
  }
  if (b.oom) {
    free(b.p);
    return opc_nomem(err, "mesh");
  }
  out->data = b.p;
  out->len = b.len;
  op_clear(err);
  return OP_OK;
}
