/*
** ops_build2d.c -- protocol ops build2d.outlines, build2d.tilemap,
** build2d.finest_snap_bits (spec/build2d-tiles.md, section "Protocol", T2D-070 ..
** T2D-073; docs/porting.md).
**
** Argument decoding problems are argument errors naming the JSON path ("settings.cell_size",
** "outlines[2][5]", "cells"); the rules of the builder itself are checked by
** op_build2d_*, which name their own fields (T2D, G2D, FMT).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "onepath_build2d.h"
#include "ops_pipeline.h"


static op_status get_dbl(const opj *v, const char *field, double *out, op_error *err) {
  if (opj_double(v, out)) return opd_arg_error(err, field, "must be a number");
  return OP_OK;
}

static op_status get_int(const opj *v, const char *field, int64_t lo, int64_t hi, int64_t *out,
                         op_error *err) {
  if (opj_int(v, lo, hi, out)) {
    char why[96];
    snprintf(why, sizeof why, "must be an integer in [%lld, %lld]", (long long)lo, (long long)hi);
    return opd_arg_error(err, field, why);
  }
  return OP_OK;
}

/* T2D-070: settings from a preset and overrides. */
static op_status dec_settings(const opj *v, op_settings2d *s, op_error *err) {
  if (!v || v->type != OPJ_OBJ) return opd_arg_error(err, "settings", "must be an object");
  const opj *pr = opj_get(v, "preset");
  const char *name = "Humanoid";
  if (pr) {
    if (pr->type != OPJ_STR) return opd_arg_error(err, "settings.preset", "must be a preset name");
    name = pr->str;
  }
  if (op_settings2d_preset(name, s, NULL))
    return opd_arg_error(err, "settings.preset", "must be Humanoid, Small or Large");
  static const char *dbl_keys[] = {"cell_size", "cell_height", "agent_radius", "agent_height",
                                   "agent_climb", "max_slope", "floor_y"};
  double *dbl_fields[] = {&s->cell_size, &s->cell_height, &s->agent_radius, &s->agent_height,
                          &s->agent_climb, &s->max_slope, &s->floor_y};
  for (size_t i = 0; i < v->n; i++) {
    const char *k = v->keys[i];
    const opj *x = v->items[i];
    char field[64];
    snprintf(field, sizeof field, "settings.%s", k);
    op_status st = OP_OK;
    int64_t n;
    int done = 0;
    for (size_t j = 0; j < sizeof dbl_keys / sizeof *dbl_keys; j++)
      if (!strcmp(k, dbl_keys[j])) { st = get_dbl(x, field, dbl_fields[j], err); done = 1; }
    if (done) { if (st) return st; continue; }
    if (!strcmp(k, "preset")) continue;
    if (!strcmp(k, "tile_cells") || !strcmp(k, "max_verts_per_poly")) {
      if ((st = get_int(x, field, 0, UINT32_MAX, &n, err))) return st;
      if (k[0] == 't') s->tile_cells = (uint32_t)n;
      else s->max_verts_per_poly = (uint32_t)n;
    } else if (!strcmp(k, "area")) {
      if ((st = get_int(x, field, 0, 255, &n, err))) return st;
      s->area = (uint8_t)n;
    } else if (!strcmp(k, "flags")) {
      if ((st = get_int(x, field, 0, 65535, &n, err))) return st;
      s->flags = (uint16_t)n;
    } else if (!strcmp(k, "snap_bits")) {
      if (x->type == OPJ_NULL) s->snap_bits = OP_SNAP_BITS_NULL;
      else {
        if ((st = get_int(x, field, INT32_MIN, INT32_MAX, &n, err))) return st;
        if (n == OP_SNAP_BITS_NULL) /* -1 is out of range, not null */
          return op_fail_i(err, OP_E_RANGE, "SnapBits", n, "must be null or in [0, 16]");
        s->snap_bits = (int32_t)n;
      }
    } else if (!strcmp(k, "origin")) {
      if (x->type != OPJ_ARR || x->n != 2)
        return opd_arg_error(err, field, "must be an array of 2 numbers");
      for (int j = 0; j < 2; j++)
        if ((st = get_dbl(x->items[j], field, &s->origin[j], err))) return st;
    } else {
      return opd_arg_error(err, field, "unknown settings member");
    }
  }
  return OP_OK;
}

/* A list of outlines: [[[x, y], ...], ...]; absent or null is empty. */
typedef struct olist {
  op_outline2d *o;
  double *xy;
  size_t n;
} olist;

static void olist_free(olist *l) {
  free(l->o);
  free(l->xy);
}

static op_status dec_outlines(const opj *args, const char *key, olist *l, op_error *err) {
  memset(l, 0, sizeof *l);
  const opj *v = opj_get(args, key);
  if (!v || v->type == OPJ_NULL) return OP_OK;
  if (v->type != OPJ_ARR) return opd_arg_error(err, key, "must be an array of outlines");
  size_t total = 0;
  char field[96];
  for (size_t i = 0; i < v->n; i++) {
    if (v->items[i]->type != OPJ_ARR) {
      snprintf(field, sizeof field, "%s[%zu]", key, i);
      return opd_arg_error(err, field, "must be an array of points");
    }
    total += v->items[i]->n;
  }
  l->o = malloc((v->n + 1) * sizeof *l->o);
  l->xy = malloc((2 * total + 1) * sizeof *l->xy);
  if (!l->o || !l->xy) { olist_free(l); return opd_nomem(err, "args"); }
  size_t at = 0;
  for (size_t i = 0; i < v->n; i++) {
    const opj *ol = v->items[i];
    l->o[i].xy = l->xy + at;
    l->o[i].count = ol->n;
    for (size_t j = 0; j < ol->n; j++) {
      const opj *p = ol->items[j];
      snprintf(field, sizeof field, "%s[%zu][%zu]", key, i, j);
      if (p->type != OPJ_ARR || p->n != 2 || opj_double(p->items[0], &l->xy[at]) ||
          opj_double(p->items[1], &l->xy[at + 1])) {
        olist_free(l);
        return opd_arg_error(err, field, "must be an array of 2 numbers");
      }
      at += 2;
    }
  }
  l->n = v->n;
  return OP_OK;
}

/* Store the mesh and the tiles in the session; on failure nothing stays. */
static op_status answer(opd_session *s, op_mesh *m, op_tile **tiles, size_t n,
                        const uint32_t *slots, opj_w *res, op_error *err) {
  int64_t *hs = malloc((n + 1) * sizeof *hs);
  if (!hs) { op_mesh_free(m); op_build2d_tiles_free(tiles, n); return opd_nomem(err, "args"); }
  int64_t hm = opd_put(s, OPD_MESH, m);
  size_t put = 0;
  int64_t bad = hm < 0 ? hm : 0; /* the first failed opd_put, for opd_put_error */
  for (; put < n && !bad; put++) {
    hs[put] = opd_put(s, OPD_TILE, tiles[put]); /* takes ownership, also on failure */
    tiles[put] = NULL;
    if (hs[put] < 0) bad = hs[put];
  }
  if (bad) {
    for (size_t i = 0; i < put; i++)
      if (hs[i] >= 0) opd_drop(s, OPD_TILE, hs[i]);
    if (hm >= 0) opd_drop(s, OPD_MESH, hm);
    op_build2d_tiles_free(tiles, n); /* the ones not yet handed over (NULL-safe) */
    free(hs);
    return opd_put_error(err, bad); /* CONF-043 */
  }
  opj_w_key(res, "handle");
  opj_w_int(res, hm);
  opj_w_key(res, "tiles");
  opj_w_arr_begin(res);
  for (size_t i = 0; i < n; i++) {
    const op_tile *t = opd_lookup(s, OPD_TILE, hs[i]);
    op_tile_desc v;
    op_tile_view(t, &v);
    opj_w_obj_begin(res);
    opj_w_key(res, "x");
    opj_w_int(res, v.x);
    opj_w_key(res, "z");
    opj_w_int(res, v.z);
    opj_w_key(res, "handle");
    opj_w_int(res, hs[i]);
    opj_w_key(res, "content_id");
    opj_w_u64hex(res, op_tile_content_id(t));
    opj_w_obj_end(res);
  }
  opj_w_arr_end(res);
  if (slots) { /* T2D-094: only when the request has offmesh */
    opj_w_key(res, "offmesh");
    opj_w_int(res, *slots);
  }
  free(hs);
  op_build2d_tiles_free(tiles, 0);
  return OP_OK;
}

/* Tiles then mesh from the same tiles (the mesh copies them, MESH-012). */
static op_status finish(opd_session *s, const op_settings2d *st2, op_tile **tiles, size_t n,
                        const uint32_t *slots, opj_w *res, op_error *err) {
  op_mesh *m = NULL;
  op_status st = op_build2d_assemble(st2, tiles, n, &m, err);
  if (st) { op_build2d_tiles_free(tiles, n); return st; }
  return answer(s, m, tiles, n, slots, res, err);
}

/* T2D-083: the optional `limits` object {max_tiles, max_grid_cells, max_snap_passes},
** integers in [0, 2^53] (the passes in [0, 64]; 0 or absent: the defaults of T2D-081 and
** G2D-058). */
static op_status dec_limits(const opj *args, op_build2d_limits *l, op_error *err) {
  static const char *const names[3] = {"max_tiles", "max_grid_cells", "max_snap_passes"};
  static const int64_t hi[3] = {(int64_t)1 << 53, (int64_t)1 << 53, 64}; /* T2D-083 */
  memset(l, 0, sizeof *l);
  const opj *jl = opj_get(args, "limits");
  if (!jl || jl->type == OPJ_NULL) return OP_OK;
  if (jl->type != OPJ_OBJ) return opd_arg_error(err, "limits", "must be an object");
  uint64_t *dst[3] = {&l->max_tiles, &l->max_grid_cells, &l->max_snap_passes};
  size_t known = 0;
  for (int k = 0; k < 3; k++) {
    const opj *v = opj_get(jl, names[k]);
    if (!v) continue;
    known++;
    int64_t x;
    char f[40];
    snprintf(f, sizeof f, "limits.%s", names[k]);
    op_status st = get_int(v, f, 0, hi[k], &x, err);
    if (st) return st;
    *dst[k] = (uint64_t)x;
  }
  if (known != jl->n)
    return opd_arg_error(err, "limits", "members: max_tiles, max_grid_cells, max_snap_passes");
  return OP_OK;
}

/* T2D-094: the optional `offmesh` (POLY-234's decoding) after `limits`, into opt (its list
** owned by opt: freed by end_build, or here on failure). slots_stored is set when the
** request has the member. */
typedef struct om_hold {
  op_offmesh_link *l;
  uint32_t slots;
  int has;
} om_hold;

static op_status dec_om(const opj *args, const op_build2d_limits *lim, op_build2d_options *opt,
                        om_hold *h, op_error *err) {
  memset(opt, 0, sizeof *opt);
  memset(h, 0, sizeof *h);
  opt->limits = lim;
  op_status st = opd_dec_offmesh(args, &h->l, &opt->noffmesh, &h->has, err);
  if (st) return st;
  opt->offmesh = h->l;
  if (h->has) opt->slots_stored = &h->slots;
  return OP_OK;
}

/* The build's status st and tiles to the answer (T2D-071, T2D-094); frees h's list. */
static op_status end_build(opd_session *s, const op_settings2d *st2, op_status st,
                           op_tile **tiles, size_t n, om_hold *h, opj_w *res, op_error *err) {
  free(h->l);
  if (st) return st;
  return finish(s, st2, tiles, n, h->has ? &h->slots : NULL, res, err);
}

/* T2D-071 */
static op_status op_outlines(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_settings2d st2;
  op_status st = dec_settings(opj_get(args, "settings"), &st2, err);
  if (st) return st;
  const opj *ov = opj_get(args, "outlines");
  if (!ov || ov->type != OPJ_ARR) return opd_arg_error(err, "outlines", "must be an array of outlines");
  olist o, ob;
  if ((st = dec_outlines(args, "outlines", &o, err))) return st;
  if ((st = dec_outlines(args, "obstacles", &ob, err))) { olist_free(&o); return st; }
  op_build2d_limits lim;
  op_build2d_options opt;
  om_hold h;
  if ((st = dec_limits(args, &lim, err)) || (st = dec_om(args, &lim, &opt, &h, err))) {
    olist_free(&o);
    olist_free(&ob);
    return st;
  }
  lim.alloc = opd_alloc(s); /* CONF-059 */
  op_tile **tiles = NULL;
  size_t n = 0;
  st = op_build2d_outlines_opt(&st2, o.o, o.n, ob.o, ob.n, &opt, &tiles, &n, NULL, err);
  olist_free(&o);
  olist_free(&ob);
  return end_build(s, &st2, st, tiles, n, &h, res, err);
}

/* T2D-072 */
static op_status op_tilemap(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  op_settings2d st2;
  op_status st = dec_settings(opj_get(args, "settings"), &st2, err);
  if (st) return st;
  int64_t w, h;
  if ((st = get_int(opj_get(args, "width"), "width", 0, INT32_MAX, &w, err))) return st;
  if ((st = get_int(opj_get(args, "height"), "height", 0, INT32_MAX, &h, err))) return st;
  const opj *cv = opj_get(args, "cells");
  if (!cv || cv->type != OPJ_ARR || (uint64_t)cv->n != (uint64_t)w * (uint64_t)h)
    return opd_arg_error(err, "cells", "must be an array of width * height integers");
  double mo[2], mc;
  const opj *mov = opj_get(args, "map_origin");
  if (!mov || mov->type != OPJ_ARR || mov->n != 2 || opj_double(mov->items[0], &mo[0]) ||
      opj_double(mov->items[1], &mo[1]))
    return opd_arg_error(err, "map_origin", "must be an array of 2 numbers");
  if ((st = get_dbl(opj_get(args, "map_cell"), "map_cell", &mc, err))) return st;
  uint8_t *cells = malloc(cv->n + 1);
  if (!cells) return opd_nomem(err, "args");
  for (size_t i = 0; i < cv->n; i++) {
    int64_t c;
    if (opj_int(cv->items[i], 0, 255, &c)) {
      free(cells);
      return opd_arg_error(err, "cells", "must hold integers in [0, 255]");
    }
    cells[i] = (uint8_t)c;
  }
  olist ob;
  if ((st = dec_outlines(args, "obstacles", &ob, err))) { free(cells); return st; }
  op_build2d_limits lim;
  op_build2d_options opt;
  om_hold oh;
  if ((st = dec_limits(args, &lim, err)) || (st = dec_om(args, &lim, &opt, &oh, err))) {
    free(cells);
    olist_free(&ob);
    return st;
  }
  lim.alloc = opd_alloc(s); /* CONF-059 */
  op_tile **tiles = NULL;
  size_t n = 0;
  st = op_build2d_tilemap_opt(&st2, cells, (int32_t)w, (int32_t)h, mo, mc, ob.o, ob.n, &opt,
                              &tiles, &n, NULL, err);
  free(cells);
  olist_free(&ob);
  return end_build(s, &st2, st, tiles, n, &oh, res, err);
}

/* T2D-073 */
static op_status op_finest(opd_session *s, const opj *args, opj_w *res, op_error *err) {
  (void)s;
  double c;
  op_status st = get_dbl(opj_get(args, "cell_size"), "cell_size", &c, err);
  if (st) return st;
  if (!(c > 0 && c <= 1.7976931348623157e308))
    return op_fail_d(err, OP_E_RANGE, "cell_size", c, "must be finite and positive");
  opj_w_key(res, "snap_bits");
  opj_w_int(res, op_finest_snap_bits(c));
  return OP_OK;
}

const opd_op opd_ops_build2d[] = {
    {"build2d.finest_snap_bits", op_finest},
    {"build2d.outlines", op_outlines},
    {"build2d.tilemap", op_tilemap},
    {NULL, NULL},
};
