/*
** svg.h -- a small self-contained SVG writer for the onepath tool (tools/, not part of
** libonepath). A picture is a "scene": a title, one or more panels placed side by side
** (one per layer, or per span level; in rows of `per_row` panels when set), an optional
** note under the title (shown in red: e.g. which layers were left out), and a legend, all
** in one SVG file with no external assets.
**
** Orientation (docs/cli.md): every picture is top-down. World +x points right and world
** +z points DOWN the page, so the view is from above (+y towards the viewer) and is
** not mirrored. Panels share one scale.
**
** Usage: svg_scene_init; svg_legend_add for every legend entry; svg_scene_begin (writes
** the header, the title and the panel frames); drawing calls; svg_scene_end.
*/
#ifndef OP_TOOLS_SVG_H
#define OP_TOOLS_SVG_H

#include <stdint.h>
#include <stdio.h>

/* The most panels in one picture (the mesh picture's limit on layers, docs/cli.md). */
#define SVG_MAX_PANELS 64
#define SVG_MAX_LEGEND 40

typedef struct svg_panel {
  double x0, z0, x1, z1; /* world bounds shown */
  char caption[96];
  double px, py;         /* pixel position of the panel's top-left corner (set by begin) */
} svg_panel;

typedef struct svg_legend_entry {
  char color[8];
  int kind; /* 0 filled box, 1 line, 2 dashed line */
  char label[64];
} svg_legend_entry;

typedef struct svg_scene {
  FILE *f;
  char title[160];
  char subtitle[200];
  char note[200];  /* red line under the subtitle; empty: none */
  int per_row;     /* panels per row; 0: all in one row */
  double top;      /* height of the title block (set by begin) */
  int npanels;
  svg_panel panel[SVG_MAX_PANELS];
  int nlegend;
  int legend_more; /* entries left out of the legend */
  svg_legend_entry legend[SVG_MAX_LEGEND];
  double scale; /* pixels per world unit */
  double width, height;
  double legend_y;
} svg_scene;

/* The deterministic palette: colour number id (any u32) as "#rrggbb". Colours 0..n are
** far apart in hue (golden-ratio steps); the same id gives the same colour everywhere. */
void svg_palette(uint32_t id, char out[8]);
/* A grey or green shade for a height t in [0, 1] (0 dark, 1 light). */
void svg_shade(double t, int walkable, char out[8]);

void svg_scene_init(svg_scene *s, FILE *f, const char *title, const char *subtitle);
/* Adds a panel (world bounds, caption); returns its index or -1 when full. */
int svg_panel_add(svg_scene *s, double x0, double z0, double x1, double z1, const char *caption);
void svg_legend_add(svg_scene *s, const char *color, int kind, const char *label);
/* Sets the note line (before svg_scene_begin). */
void svg_scene_note(svg_scene *s, const char *note);
/* Lays the panels out (max_px: the larger panel side in pixels) and writes the header. */
void svg_scene_begin(svg_scene *s, double max_px);
void svg_scene_end(svg_scene *s);

/* Drawing in world coordinates (x, z) of panel p. Colours are "#rrggbb" or "none". */
void svg_rect(svg_scene *s, int p, double x0, double z0, double x1, double z1, const char *fill,
              const char *stroke, double stroke_px);
/* A polygon (closed) or polyline (closed = 0) through n points xz[2i], xz[2i+1]. */
void svg_path(svg_scene *s, int p, const double *xz, int n, int closed, const char *fill,
              double fill_opacity, const char *stroke, double stroke_px, int dashed);
void svg_line(svg_scene *s, int p, double xa, double za, double xb, double zb,
              const char *stroke, double stroke_px, int dashed);
void svg_dot(svg_scene *s, int p, double x, double z, double r_px, const char *fill);
/* Text at world (x, z) of panel p, centred. */
void svg_label(svg_scene *s, int p, double x, double z, double size, const char *color,
               const char *text);
/* Text escaped for XML. */
void svg_text(svg_scene *s, double px, double py, double size, const char *anchor,
              const char *text);
/* Writes str escaped for XML text and attributes. */
void svg_escape(FILE *f, const char *str);

#endif
