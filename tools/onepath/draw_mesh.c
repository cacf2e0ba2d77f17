/*
** draw_mesh.c -- the SVG picture of a mesh (docs/cli.md: `svg --mesh`, `tilecache --svg`):
** one panel per layer (RT-080 .. RT-086; at most SVG_MAX_PANELS, the rest named in a
** note), polygons coloured per area, per polygon or per tile, walls dark, portal edges red
** (orange when the mesh has no link across them, MESH-020 .. MESH-024), internal edges
** thin, tile lines, off-mesh links; and the obstacles (grown by the agent radius, RT-020,
** RT-021) and volumes (RT-040) of a tile cache on top. Not normative: a picture.
*/
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The footprint of obstacle o grown by g (RT-021) as a closed path of at most 48 points;
** returns the point count. Circles are drawn as 48-gons (a picture, not the test). */
static int obstacle_outline(const op_obstacle *o, double g, double *xz) {
  if (o->shape == OP_OBSTACLE_CYLINDER) {
    double r = o->radius + g;
    for (int i = 0; i < 48; i++) {
      double t = (double)i * (6.283185307179586 / 48.0);
      xz[2 * i] = o->center[0] + r * cos(t);
      xz[2 * i + 1] = o->center[2] + r * sin(t);
    }
    return 48;
  }
  if (o->shape == OP_OBSTACLE_BOX) {
    double x0 = o->bmin[0] - g, z0 = o->bmin[2] - g, x1 = o->bmax[0] + g, z1 = o->bmax[2] + g;
    double q[8] = {x0, z0, x1, z0, x1, z1, x0, z1};
    memcpy(xz, q, sizeof q);
    return 4;
  }
  /* oriented box: u along (c, s), v along (-s, c) (RT-021's yaw, +x towards +z) */
  double c = cos(o->yaw), sn = sin(o->yaw), hx = o->half[0] + g, hz = o->half[2] + g;
  static const int su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
  for (int i = 0; i < 4; i++) {
    double u = su[i] * hx, v = sv[i] * hz;
    xz[2 * i] = o->center[0] + u * c - v * sn;
    xz[2 * i + 1] = o->center[2] + u * sn + v * c;
  }
  return 4;
}

static void draw_overlay(svg_scene *sc, int p, const cli_overlay *ov) {
  double xz[96];
  char lab[32];
  for (uint32_t i = 0; i < ov->nvol; i++) {
    const op_convex_volume *v = &ov->vol[i];
    double pts[2 * OP_VOLUME_MAX_POINTS], cx = 0, cz = 0;
    for (uint32_t k = 0; k < v->npoints; k++) {
      pts[2 * k] = v->points[k][0];
      pts[2 * k + 1] = v->points[k][1];
      cx += pts[2 * k] / v->npoints;
      cz += pts[2 * k + 1] / v->npoints;
    }
    char c[8];
    svg_palette(v->area, c);
    svg_path(sc, p, pts, (int)v->npoints, 1, c, 0.35, "#1f3b99", 2.0, 1);
    snprintf(lab, sizeof lab, "V%" PRIu32 " area %u", ov->vol_id[i], (unsigned)v->area);
    svg_label(sc, p, cx, cz, 11, "#1f3b99", lab);
  }
  for (uint32_t i = 0; i < ov->nobst; i++) {
    const op_obstacle *o = &ov->obst[i];
    int n = obstacle_outline(o, ov->grow, xz);
    svg_path(sc, p, xz, n, 1, "none", 1, "#8b0000", 1.4, 1);
    n = obstacle_outline(o, 0, xz);
    svg_path(sc, p, xz, n, 1, "#8b0000", 0.45, "#8b0000", 1.8, 0);
    double cx = o->shape == OP_OBSTACLE_BOX ? 0.5 * (o->bmin[0] + o->bmax[0]) : o->center[0];
    double cz = o->shape == OP_OBSTACLE_BOX ? 0.5 * (o->bmin[2] + o->bmax[2]) : o->center[2];
    snprintf(lab, sizeof lab, "#%" PRIu32, ov->obst_id[i]);
    svg_label(sc, p, cx, cz, 12, "#ffffff", lab);
  }
}


static void pick_layers(const cli_mesh *l, cli_layer_pick *pk) {
  uint32_t count[256];
  memset(count, 0, sizeof count);
  for (uint32_t t = 0; t < l->ntiles; t++) {
    op_tile_desc v;
    op_tile_view(l->tiles[t], &v);
    if (v.layer >= 0 && v.layer < 256) count[v.layer]++;
  }
  pk->nshown = pk->left_out = pk->left_tiles = pk->out_of_range = 0;
  pk->left_lo = pk->left_hi = -1;
  for (int32_t L = 0; L < 256; L++) {
    if (!count[L]) continue;
    if (L < pk->lo || L > pk->hi) {
      pk->out_of_range++;
      pk->left_tiles += count[L];
    } else if (pk->nshown < SVG_MAX_PANELS) {
      pk->shown[pk->nshown++] = L;
    } else {
      if (!pk->left_out) pk->left_lo = L;
      pk->left_hi = L;
      pk->left_out++;
      pk->left_tiles += count[L];
    }
  }
}

/* The world bounds of the tiles (0..1 without tiles). */
static void mesh_bounds(const cli_mesh *l, double b[4]) {
  b[0] = b[1] = INFINITY;
  b[2] = b[3] = -INFINITY;
  for (uint32_t t = 0; t < l->ntiles; t++) {
    op_tile_desc v;
    op_tile_view(l->tiles[t], &v);
    double x0, z0, w = (double)v.tiling.tile_cells * v.tiling.cell_size;
    cli_tile_world_origin(&v, &x0, &z0);
    if (x0 < b[0]) b[0] = x0;
    if (z0 < b[1]) b[1] = z0;
    if (x0 + w > b[2]) b[2] = x0 + w;
    if (z0 + w > b[3]) b[3] = z0 + w;
  }
  if (l->ntiles == 0) { b[0] = b[1] = 0; b[2] = b[3] = 1; }
}

/* The subtitle and the note (layers left out) of a mesh picture. */
static void mesh_texts(const cli_mesh *l, const cli_layer_pick *pk, const cli_summary *sm,
                       char sub[200], char note[200]) {
  snprintf(sub, 200, "cell_size %g, tile_cells %" PRIu32 ", %" PRIu32 " tiles, %" PRIu32
           " layers, %" PRIu32 " polygons, walkable area %.6g", l->params.tiling.cell_size,
           l->params.tiling.tile_cells, sm->tiles, sm->layers, sm->polys, sm->area);
  note[0] = 0;
  if (pk->left_out)
    snprintf(note, 200, "%" PRIu32 " layers not shown (%" PRId32 "..%" PRId32 "): at most %d "
             "panels; %" PRIu32 " tiles left out; see them with --layers %" PRId32 "-%" PRId32,
             pk->left_out, pk->left_lo, pk->left_hi, SVG_MAX_PANELS, pk->left_tiles,
             pk->left_lo, pk->left_hi);
  else if (pk->out_of_range)
    snprintf(note, 200, "only layers %" PRId32 "..%" PRId32 " (--layers): %" PRIu32
             " other layers with %" PRIu32 " tiles not shown", pk->lo, pk->hi, pk->out_of_range,
             pk->left_tiles);
  else if (pk->nshown == 0 && l->ntiles)
    snprintf(note, 200, "no tile has a layer in 0..255");
}

/* One panel per shown layer (one "no tiles" panel when none), captioned with its counts. */
static void mesh_panels(svg_scene *sc, const cli_mesh *l, const cli_layer_pick *pk,
                        const double b[4], int npanel) {
  for (int k = 0; k < npanel; k++) {
    char cap[96];
    if (!pk->nshown) {
      snprintf(cap, sizeof cap, "no tiles");
    } else {
      uint32_t nt = 0, np = 0;
      for (uint32_t t = 0; t < l->ntiles; t++) {
        op_tile_desc v;
        op_tile_view(l->tiles[t], &v);
        if (v.layer == pk->shown[k]) { nt++; np += v.npolys; }
      }
      snprintf(cap, sizeof cap, "layer %" PRId32 ": %" PRIu32 " tile%s, %" PRIu32 " polygon%s",
               pk->shown[k], nt, nt == 1 ? "" : "s", np, np == 1 ? "" : "s");
    }
    svg_panel_add(sc, b[0], b[1], b[2], b[3], cap);
  }
}

/* The legend: the areas (or a note for the other modes), then the line styles. */
static void mesh_legend(svg_scene *sc, const cli_mesh *l, const char *color_mode,
                        const cli_summary *sm, const cli_overlay *ov) {
  if (!strcmp(color_mode, "area")) {
    int seen[256] = {0};
    for (uint32_t t = 0; t < l->ntiles; t++) {
      op_tile_desc v;
      op_tile_view(l->tiles[t], &v);
      for (uint32_t p = 0; p < v.npolys; p++) seen[v.polys[p].area] = 1;
    }
    for (int a = 0; a < 256; a++)
      if (seen[a]) {
        char c[8], lab[32];
        svg_palette((uint32_t)a, c);
        snprintf(lab, sizeof lab, "area %d", a);
        svg_legend_add(sc, c, 0, lab);
      }
  } else {
    char c[8];
    svg_palette(1, c);
    svg_legend_add(sc, c, 0, !strcmp(color_mode, "poly") ? "one colour per polygon"
                                                         : "one colour per tile");
  }
  svg_legend_add(sc, "#222222", 1, "wall edge");
  if (l->mesh) {
    svg_legend_add(sc, "#d62728", 1, "portal edge, linked");
    svg_legend_add(sc, "#ff8c00", 2, "portal edge, no link");
  } else {
    svg_legend_add(sc, "#d62728", 1, "portal edge (tile side)");
  }
  svg_legend_add(sc, "#bbbbbb", 1, "internal edge (thin, white)");
  svg_legend_add(sc, "#555555", 2, "tile lines");
  if (sm->offmesh) svg_legend_add(sc, "#9400d3", 1, "off-mesh link");
  if (ov && ov->nobst) {
    svg_legend_add(sc, "#8b0000", 0, "obstacle #id (as given)");
    svg_legend_add(sc, "#8b0000", 2, "obstacle grown by the radius");
  }
  if (ov && ov->nvol) svg_legend_add(sc, "#1f3b99", 2, "volume Vid (fill: its area)");
}

/* The world (x, z) of polygon pd's vertices in tile v at (x0, z0). */
static void poly_xz(const op_tile_desc *v, const op_poly_desc *pd, double x0, double z0,
                    double *xz) {
  for (int j = 0; j < pd->nverts; j++) {
    xz[2 * j] = x0 + v->verts[3 * pd->verts[j]];
    xz[2 * j + 1] = z0 + v->verts[3 * pd->verts[j] + 2];
  }
}

/* The other layers' polygons, faint, under each panel's own. */
static void draw_context(svg_scene *sc, const cli_mesh *l, const cli_layer_pick *pk) {
  for (uint32_t t = 0; t < l->ntiles; t++) {
    op_tile_desc v;
    op_tile_view(l->tiles[t], &v);
    double x0, z0;
    cli_tile_world_origin(&v, &x0, &z0);
    for (int p = 0; p < (int)pk->nshown; p++) {
      if (pk->shown[p] == v.layer) continue;
      for (uint32_t q = 0; q < v.npolys; q++) {
        double xz[2 * OP_MAX_VERTS_PER_POLY];
        poly_xz(&v, &v.polys[q], x0, z0, xz);
        svg_path(sc, p, xz, v.polys[q].nverts, 1, "#e2e2e2", 1, "none", 0, 0);
      }
    }
  }
}

/* Walls and portals of tile v (panel p) on top of its polygons; linked: which portal
** edges have an external link (NULL for a lone tile). */
static void draw_edges(svg_scene *sc, int p, const op_tile_desc *v, double x0, double z0,
                       const uint8_t *linked) {
  for (uint32_t q = 0; q < v->npolys; q++) {
    const op_poly_desc *pd = &v->polys[q];
    for (int j = 0; j < pd->nverts; j++) {
      uint16_t nc = pd->neis[j];
      if (nc != OP_NEI_WALL && !(nc & OP_NEI_PORTAL)) continue;
      const float *a = v->verts + 3 * pd->verts[j];
      const float *b = v->verts + 3 * pd->verts[(j + 1) % pd->nverts];
      int open = nc != OP_NEI_WALL && linked && !linked[(size_t)q * OP_MAX_VERTS_PER_POLY + j];
      svg_line(sc, p, x0 + a[0], z0 + a[2], x0 + b[0], z0 + b[2],
               nc == OP_NEI_WALL ? "#222222" : open ? "#ff8c00" : "#d62728", open ? 2.6 : 1.6,
               open);
    }
  }
}

/* The tile's square and its off-mesh links. */
static void draw_tile_frame(svg_scene *sc, int p, const op_tile_desc *v, double x0, double z0) {
  double w = (double)v->tiling.tile_cells * v->tiling.cell_size;
  svg_line(sc, p, x0, z0, x0 + w, z0, "#555555", 0.8, 1);
  svg_line(sc, p, x0 + w, z0, x0 + w, z0 + w, "#555555", 0.8, 1);
  svg_line(sc, p, x0 + w, z0 + w, x0, z0 + w, "#555555", 0.8, 1);
  svg_line(sc, p, x0, z0 + w, x0, z0, "#555555", 0.8, 1);
  for (uint32_t k = 0; k < v->noffmesh; k++) {
    const op_offmesh_desc *om = &v->offmesh[k];
    svg_line(sc, p, x0 + om->start[0], z0 + om->start[2], x0 + om->end[0], z0 + om->end[2],
             "#9400d3", 1.5, 0);
    svg_dot(sc, p, x0 + om->start[0], z0 + om->start[2], 2.5, "#9400d3");
  }
}

/* Tile t of l in its layer's panel (if shown): polygons, edges, frame. */
static int draw_tile(cli_ctx *ctx, svg_scene *sc, const cli_mesh *l, uint32_t t,
                     const cli_layer_pick *pk,
                     const char *color_mode) {
  op_tile_desc v;
  op_tile_view(l->tiles[t], &v);
  int p;
  for (p = 0; p < (int)pk->nshown && pk->shown[p] != v.layer; p++) {}
  if (p == (int)pk->nshown) return 0;
  double x0, z0;
  cli_tile_world_origin(&v, &x0, &z0);
  for (uint32_t q = 0; q < v.npolys; q++) {
    const op_poly_desc *pd = &v.polys[q];
    double xz[2 * OP_MAX_VERTS_PER_POLY];
    poly_xz(&v, pd, x0, z0, xz);
    char c[8];
    uint32_t id = !strcmp(color_mode, "area") ? pd->area
                  : !strcmp(color_mode, "poly") ? q * 7919u + t * 104729u
                                                : t;
    svg_palette(id, c);
    svg_path(sc, p, xz, pd->nverts, 1, c, 1, "#ffffff", sc->scale > 40 ? 1.0 : 0.5, 0);
  }
  /* MESH-043: which portal edges have an external link in the mesh */
  uint8_t *linked = NULL;
  if (l->mesh && v.npolys) {
    linked = calloc((size_t)v.npolys * OP_MAX_VERTS_PER_POLY, 1);
    if (!linked) return cli_fail(ctx, "out of memory");
    if (cli_mesh_linked_edges(ctx, l, t, linked)) {
      free(linked);
      return CLI_EXIT_FAIL;
    }
  }
  draw_edges(sc, p, &v, x0, z0, linked);
  free(linked);
  draw_tile_frame(sc, p, &v, x0, z0);
  return 0;
}

int cli_svg_mesh_draw(cli_ctx *ctx, const cli_mesh *l, const char *title, const char *color_mode,
                      cli_layer_pick *pk, const cli_overlay *ov, FILE *f) {
  return cli_svg_mesh_draw_ex(ctx, l, title, color_mode, pk, ov, NULL, f);
}

int cli_svg_mesh_draw_ex(cli_ctx *ctx, const cli_mesh *l, const char *title,
                         const char *color_mode, cli_layer_pick *pk, const cli_overlay *ov,
                         const cli_drawing *dr, FILE *f) {
  double b[4];
  mesh_bounds(l, b);
  pick_layers(l, pk);
  int npanel = pk->nshown ? (int)pk->nshown : 1;
  cli_summary sm;
  cli_summarize(l->tiles, l->ntiles, &sm);
  char sub[200], note[200];
  mesh_texts(l, pk, &sm, sub, note);
  svg_scene sc;
  svg_scene_init(&sc, f, title, sub);
  svg_scene_note(&sc, note);
  /* up to 4 panels in one row, more in rows of ceil(sqrt(n)) */
  int per_row = npanel;
  if (npanel > 4) for (per_row = 1; per_row * per_row < npanel; per_row++) {}
  sc.per_row = per_row;
  mesh_panels(&sc, l, pk, b, npanel);
  mesh_legend(&sc, l, color_mode, &sm, ov);
  if (dr) dr->legend(&sc, dr->ud);
  /* the other layers' polygons, faint, under each panel's own (small meshes only) */
  int context = pk->nshown > 1 && (uint64_t)pk->nshown * sm.polys <= 100000;
  if (context) svg_legend_add(&sc, "#e2e2e2", 0, "other layers (context)");
  svg_scene_begin(&sc, npanel == 1 ? 1000 : npanel <= 4 ? 700 : 360);
  if (context) draw_context(&sc, l, pk);
  for (uint32_t t = 0; t < l->ntiles; t++)
    if (draw_tile(ctx, &sc, l, t, pk, color_mode)) return CLI_EXIT_FAIL;
  for (int p = 0; ov && p < npanel; p++) draw_overlay(&sc, p, ov);
  for (int p = 0; dr && p < (int)pk->nshown; p++) dr->draw(&sc, p, pk->shown[p], dr->ud);
  svg_scene_end(&sc);
  return 0;
}
