/*
** draw_stages.c -- the SVG picture of one stage of one 3D tile (docs/cli.md: `svg --stage
** spans|regions|contours|polys --tile TX,TZ`). The tile is taken through the stages by
** the library's stage runner (op_stage_run_tile, spec/build3d-polys.md POLY-223: spans
** SPAN-180, regions REG-005, contours REG-200, polygons POLY-020); this file only draws:
** the open spans level by level (height shade), the regions (REG-030 border regions
** grey), the raw and simplified contours (REG-210 .. REG-220), the polygons with their
** walls and portals (POLY-060), and the tile square inside the border (SPAN-024).
** Contours and polygons are drawn one panel per span level, a region in the panel of its
** lowest span, so regions stacked over each other appear side by side. Not normative.
*/
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* One stage picture being made. */
typedef struct stage_pic {
  const cli_input3d *in;
  const char *stage; /* "spans", "regions", "contours", "polys" */
  int32_t tx, tz;
  op_stage_tile t;
  int levels;        /* the most open spans in one column */
  int ymin, ymax;    /* span floor range, cells */
  int shown;         /* panels */
  int flat;          /* contours or polys: panels per lowest span level of a region */
  uint8_t *rlev;     /* flat: 65536 entries, the panel of each region (0xff: none) */
} stage_pic;

/* World x/z of grid corner coordinates of the bordered grid. */
static double gx(const op_chf *c, double x) { return c->grid.origin[0] + x * c->grid.cs; }
static double gz(const op_chf *c, double z) { return c->grid.origin[2] + z * c->grid.cs; }

static void region_color(uint16_t r, char c[8]) {
  if (r == OP_REG_NONE) snprintf(c, 8, "#dddddd");
  else if (r & OP_REG_BORDER) snprintf(c, 8, "#666666");
  else svg_palette(r, c);
}

/* Draws the spans of level k (the k-th open span of each column, from below) as runs of
** equal colour along x. mode 0: spans (height shade), 1: regions, 2: walkable or not. */
static void draw_span_level(svg_scene *sc, int p, const stage_pic *d, int k, int mode) {
  const op_chf *c = d->t.chf;
  int ymin = d->ymin, ymax = d->ymax;
  for (int32_t z = 0; z < c->grid.depth; z++) {
    int32_t run_x = -1;
    char run_c[8] = "", cur[8];
    for (int32_t x = 0; x <= c->grid.width; x++) {
      cur[0] = 0;
      if (x < c->grid.width) {
        size_t col = (size_t)z * (size_t)c->grid.width + (size_t)x;
        if (c->cell_count[col] > k) {
          uint32_t i = c->cell_index[col] + (uint32_t)k;
          if (mode == 2) {
            snprintf(cur, sizeof cur, "%s", c->areas[i] ? "#d8d8d8" : "#b0b0b0");
          } else if (mode == 0) {
            double t = ymax > ymin ? (double)(c->spans[i].y - ymin) / (ymax - ymin) : 0.5;
            svg_shade(t, c->areas[i] != 0, cur);
          } else {
            region_color(d->t.regions.reg[i], cur);
          }
        }
      }
      if (run_x >= 0 && strcmp(cur, run_c)) {
        svg_rect(sc, p, gx(c, run_x), gz(c, z), gx(c, x), gz(c, z + 1), run_c, "none", 0);
        run_x = -1;
      }
      if (cur[0] && run_x < 0) {
        run_x = x;
        memcpy(run_c, cur, sizeof run_c);
      }
    }
  }
}

static void draw_grid_frame(svg_scene *sc, int p, const op_chf *c, int32_t border) {
  double w = c->grid.width, h = c->grid.depth;
  double b = border;
  double xz[8] = {gx(c, b), gz(c, b), gx(c, w - b), gz(c, b), gx(c, w - b), gz(c, h - b),
                  gx(c, b), gz(c, h - b)};
  svg_path(sc, p, xz, 4, 1, "none", 1, "#1f3b99", 1.4, 1);
}


/* The most open spans in one column and the floor range; shown = at most 6 levels. */
static void span_stats(stage_pic *d) {
  const op_chf *c = d->t.chf;
  d->levels = 0;
  d->ymin = INT32_MAX;
  d->ymax = 0;
  for (size_t col = 0; col < (size_t)c->grid.width * (size_t)c->grid.depth; col++)
    if (c->cell_count[col] > d->levels) d->levels = c->cell_count[col];
  for (uint32_t i = 0; i < c->nspans; i++) {
    if (c->spans[i].y < d->ymin) d->ymin = c->spans[i].y;
    if (c->spans[i].y > d->ymax) d->ymax = c->spans[i].y;
  }
  d->shown = d->levels > 6 ? 6 : d->levels;
}

/* Contours and polygons: one panel per span level, a region drawn in the panel of its
** lowest span (rlev, levels above 5 in panel 5). */
static int region_levels(cli_ctx *ctx, stage_pic *d) {
  const op_chf *c = d->t.chf;
  d->rlev = malloc(65536);
  if (!d->rlev) return cli_fail(ctx, "out of memory");
  memset(d->rlev, 0xff, 65536);
  int top = 0;
  for (size_t col = 0; col < (size_t)c->grid.width * (size_t)c->grid.depth; col++)
    for (int k = 0; k < c->cell_count[col]; k++) {
      uint16_t r = d->t.regions.reg[c->cell_index[col] + (uint32_t)k];
      int lk = k > 5 ? 5 : k;
      if (r && !(r & OP_REG_BORDER) && lk < d->rlev[r]) d->rlev[r] = (uint8_t)lk;
    }
  for (int r = 1; r < 65536; r++)
    if (d->rlev[r] != 0xff && d->rlev[r] > top) top = d->rlev[r];
  d->shown = top + 1;
  return 0;
}

/* The panel of region r (flat stages). */
static int rlev_of(const stage_pic *d, uint16_t r) { return d->rlev[r] == 0xff ? 0 : d->rlev[r]; }

static void stage_caption(const stage_pic *d, int k, char cap[96]) {
  const char *stage = d->stage;
  int shown = d->shown;
  if (!strcmp(stage, "contours") && k == 0)
    snprintf(cap, 96, "%" PRIu32 " loops, %" PRIu32 " contours%s", d->t.contours.nloops,
             d->t.contours.ncontours, shown > 1 ? "; regions from span level 0" : "");
  else if (d->flat && k > 0)
    snprintf(cap, 96, "regions whose lowest span is at level %d%s", k,
             k == 5 ? " or above" : "");
  else if (!strcmp(stage, "polys"))
    snprintf(cap, 96, "%" PRIu32 " polygons, %" PRIu32 " vertices (MaxVertsPerPoly %" PRIu32
             ")%s", d->t.pmesh.npolys, d->t.pmesh.nverts, d->t.pmesh.nvp,
             shown > 1 ? "; level 0" : "");
  else if (shown > 1)
    snprintf(cap, 96, "span level %d (the %d%s open span of each column)", k, k + 1,
             k == 0 ? "st" : k == 1 ? "nd" : k == 2 ? "rd" : "th");
  else
    snprintf(cap, 96, "all columns (one open span each)");
}

/* The title, the subtitle and the panels. */
static void stage_scene(svg_scene *sc, const stage_pic *d, FILE *f) {
  const cli_input3d *in = d->in;
  const op_chf *c = d->t.chf;
  char title[320], sub[200];
  snprintf(title, sizeof title, "%s - preset %s - stage: %s - tile %" PRId32 ",%" PRId32,
           in->label, in->preset, d->stage, d->tx, d->tz);
  snprintf(sub, sizeof sub,
           "partition %s, cell_size %g, cell_height %g, tile_cells %" PRIu32 ", border %" PRId32
           " cells; %" PRIu32 " open spans%s", cli_partition_name(in->s.partition),
           in->s.cell_size, in->s.cell_height, in->s.tile_cells, d->t.params.border, c->nspans,
           d->levels > d->shown && !d->flat ? " (only the 6 lowest levels shown)" : "");
  svg_scene_init(sc, f, title, sub);
  double x0 = gx(c, 0), z0 = gz(c, 0), x1 = gx(c, c->grid.width), z1 = gz(c, c->grid.depth);
  for (int k = 0; k < (d->shown ? d->shown : 1); k++) {
    char cap[96];
    stage_caption(d, k, cap);
    svg_panel_add(sc, x0, z0, x1, z1, cap);
  }
}

static void stage_legend(svg_scene *sc, const stage_pic *d) {
  const char *stage = d->stage;
  char col[8];
  if (!strcmp(stage, "spans")) {
    svg_shade(0.9, 1, col); svg_legend_add(sc, col, 0, "walkable, high floor");
    svg_shade(0.1, 1, col); svg_legend_add(sc, col, 0, "walkable, low floor");
    svg_shade(0.9, 0, col); svg_legend_add(sc, col, 0, "not walkable, high");
    svg_shade(0.1, 0, col); svg_legend_add(sc, col, 0, "not walkable, low");
  } else {
    if (!strcmp(stage, "polys")) {
      svg_legend_add(sc, "#d8d8d8", 0, "walkable span");
      svg_legend_add(sc, "#b0b0b0", 0, "not walkable span");
    } else {
      svg_legend_add(sc, "#666666", 0, "border region");
      svg_legend_add(sc, "#dddddd", 0, "no region");
    }
    for (uint16_t r = 1; r <= d->t.regions.nregions; r++) {
      char lab[32];
      svg_palette(r, col);
      snprintf(lab, sizeof lab, "region %u", (unsigned)r);
      svg_legend_add(sc, col, 0, lab);
    }
  }
  if (!strcmp(stage, "contours")) {
    svg_legend_add(sc, "#000000", 2, "raw loop (traced edges)");
    svg_legend_add(sc, "#000000", 1, "simplified contour");
  }
  if (!strcmp(stage, "polys")) {
    svg_legend_add(sc, "#222222", 1, "wall edge");
    svg_legend_add(sc, "#d62728", 1, "portal edge (tile side)");
    svg_legend_add(sc, "#bbbbbb", 1, "internal edge (white)");
  }
  svg_legend_add(sc, "#1f3b99", 2, "tile square (inside the border)");
}

/* Raw loops thin and dashed; the simplified forms of the joined contours thick. */
static int draw_contours(cli_ctx *ctx, svg_scene *sc, const stage_pic *d) {
  const op_chf *c = d->t.chf;
  const op_contour_set *cs = &d->t.contours;
  size_t cap = 0;
  for (uint32_t li = 0; li < cs->nloops; li++)
    if (cs->loops[li].nraw > cap) cap = cs->loops[li].nraw;
  for (uint32_t ci = 0; ci < cs->ncontours; ci++)
    if (cs->contours[ci].nverts > cap) cap = cs->contours[ci].nverts;
  double *xz = malloc((cap + 1) * 2 * sizeof *xz);
  if (!xz) return cli_fail(ctx, "out of memory");
  for (uint32_t li = 0; li < cs->nloops; li++) {
    const op_cloop *lp = &cs->loops[li];
    for (uint32_t j = 0; j < lp->nraw; j++) {
      xz[2 * j] = gx(c, cs->raw[lp->raw_start + j].x);
      xz[2 * j + 1] = gz(c, cs->raw[lp->raw_start + j].z);
    }
    svg_path(sc, rlev_of(d, lp->reg), xz, (int)lp->nraw, 1, "none", 1, "#000000", 0.9, 1);
  }
  for (uint32_t ci = 0; ci < cs->ncontours; ci++) {
    const op_contour *ct = &cs->contours[ci];
    for (uint32_t j = 0; j < ct->nverts; j++) {
      xz[2 * j] = gx(c, cs->verts[ct->vert_start + j].x);
      xz[2 * j + 1] = gz(c, cs->verts[ct->vert_start + j].z);
    }
    int pk = rlev_of(d, ct->reg);
    svg_path(sc, pk, xz, (int)ct->nverts, 1, "none", 1, "#000000", 2.2, 0);
    for (uint32_t j = 0; j < ct->nverts; j++)
      svg_dot(sc, pk, xz[2 * j], xz[2 * j + 1], 2.2, "#000000");
  }
  free(xz);
  return 0;
}

/* The polygons filled per region, then walls and portals and the vertices on top.
** Tile-local cells (POLY-003): bordered corner = cell + border. */
static void draw_polys(svg_scene *sc, const stage_pic *d) {
  const op_chf *c = d->t.chf;
  const op_pmesh *pm = &d->t.pmesh;
  double bd = d->t.params.border;
  char col[8];
  for (uint32_t q = 0; q < pm->npolys; q++) {
    uint32_t nv = op_pmesh_poly_nverts(pm, q);
    const uint16_t *pv = pm->polys + (size_t)q * pm->nvp;
    double xz[2 * OP_MAX_VERTS_PER_POLY];
    for (uint32_t j = 0; j < nv; j++) {
      xz[2 * j] = gx(c, pm->verts[3 * pv[j]] + bd);
      xz[2 * j + 1] = gz(c, pm->verts[3 * pv[j] + 2] + bd);
    }
    svg_palette(pm->regs[q], col);
    svg_path(sc, rlev_of(d, pm->regs[q]), xz, (int)nv, 1, col, 0.85, "#ffffff", 1.0, 0);
  }
  for (uint32_t q = 0; q < pm->npolys; q++) {
    uint32_t nv = op_pmesh_poly_nverts(pm, q);
    const uint16_t *pv = pm->polys + (size_t)q * pm->nvp;
    const uint16_t *pn = pm->neis + (size_t)q * pm->nvp;
    int p = rlev_of(d, pm->regs[q]);
    for (uint32_t j = 0; j < nv; j++) {
      if (pn[j] != 0 && !(pn[j] & 0x8000u)) continue;
      const int32_t *va = pm->verts + 3 * pv[j], *vb = pm->verts + 3 * pv[(j + 1) % nv];
      svg_line(sc, p, gx(c, va[0] + bd), gz(c, va[2] + bd), gx(c, vb[0] + bd),
               gz(c, vb[2] + bd), pn[j] == 0 ? "#222222" : "#d62728", 1.8, 0);
    }
    for (uint32_t j = 0; j < nv; j++)
      svg_dot(sc, p, gx(c, pm->verts[3 * pv[j]] + bd), gz(c, pm->verts[3 * pv[j] + 2] + bd),
              1.8, "#000000");
  }
}

/* The picture of the stages already run in d. */
static int stage_draw(cli_ctx *ctx, stage_pic *d, FILE *f) {
  span_stats(d);
  d->flat = !strcmp(d->stage, "contours") || !strcmp(d->stage, "polys");
  if (d->flat && region_levels(ctx, d)) return CLI_EXIT_FAIL;
  svg_scene sc;
  stage_scene(&sc, d, f);
  stage_legend(&sc, d);
  svg_scene_begin(&sc, d->shown > 1 ? 520 : 900);
  /* contours: the regions; polys: walkable or not, faintly, under the polygons */
  int mode = !strcmp(d->stage, "spans") ? 0 : !strcmp(d->stage, "polys") ? 2 : 1;
  for (int k = 0; k < (d->shown ? d->shown : 1); k++) {
    draw_span_level(&sc, k, d, k, mode);
    draw_grid_frame(&sc, k, d->t.chf, d->t.params.border);
  }
  int rc = 0;
  if (!strcmp(d->stage, "contours")) rc = draw_contours(ctx, &sc, d);
  if (!strcmp(d->stage, "polys")) draw_polys(&sc, d);
  svg_scene_end(&sc);
  return rc;
}

int cli_svg_stage(cli_ctx *ctx, const cli_input3d *in, const char *stage, int32_t tx, int32_t tz,
                  FILE *f) {
  stage_pic d;
  memset(&d, 0, sizeof d);
  d.in = in;
  d.stage = stage;
  d.tx = tx;
  d.tz = tz;
  op_stage last = !strcmp(stage, "spans")      ? OP_STAGE_SPANS
                  : !strcmp(stage, "regions")  ? OP_STAGE_REGIONS
                  : !strcmp(stage, "contours") ? OP_STAGE_CONTOURS
                                               : OP_STAGE_POLYS;
  op_soup soup = op_trimesh_soup(&in->m);
  op_error e;
  int rc = 0;
  if (op_stage_run_tile(&in->s, &soup, tx, tz, last, &d.t, &e)) {
    rc = cli_fail_op(ctx, stage, &e);
  } else if (!d.t.chf) {
    int32_t ntx = 0, ntz = 0;
    op_spans_tile_range(&in->s, &soup, &ntx, &ntz, &e);
    rc = cli_fail(ctx, "tile %" PRId32 ",%" PRId32 " is not built (no walkable triangle meets it); "
                  "the level has tiles 0..%d x 0..%d", tx, tz, (int)ntx - 1, (int)ntz - 1);
  } else {
    rc = stage_draw(ctx, &d, f);
  }
  free(d.rlev);
  op_stage_tile_free(&d.t);
  return rc;
}
