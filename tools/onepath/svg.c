/*
** svg.c -- the SVG writer of the onepath tool (see svg.h). Output is plain SVG 1.1 text
** with no external references; numbers are printed with at most 3 decimals, so pictures
** of the same input are byte-identical.
*/
#include "svg.h"

#include <math.h>
#include <string.h>

void svg_escape(FILE *f, const char *str) {
  for (const unsigned char *p = (const unsigned char *)str; *p; p++) {
    switch (*p) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    default:
      if (*p < 0x20 && *p != '\t') fputc('?', f); /* control characters are not XML */
      else fputc(*p, f);
    }
  }
}

static void hsv_hex(double h, double sat, double val, char out[8]) {
  double r, g, b;
  double hh = h * 6.0;
  int i = (int)hh;
  double fr = hh - i;
  double p = val * (1 - sat), q = val * (1 - sat * fr), t = val * (1 - sat * (1 - fr));
  switch (i % 6) {
  case 0: r = val; g = t; b = p; break;
  case 1: r = q; g = val; b = p; break;
  case 2: r = p; g = val; b = t; break;
  case 3: r = p; g = q; b = val; break;
  case 4: r = t; g = p; b = val; break;
  default: r = val; g = p; b = q; break;
  }
  snprintf(out, 8, "#%02x%02x%02x", (unsigned)lround(r * 255), (unsigned)lround(g * 255),
           (unsigned)lround(b * 255));
}

void svg_palette(uint32_t id, char out[8]) {
  /* Hue by golden-ratio steps from a fixed start; saturation and value cycle with
  ** periods 3 and 2 so that neighbours in id differ in more than hue. */
  double h = fmod(0.11 + (double)id * 0.6180339887498949, 1.0);
  static const double sat[3] = {0.55, 0.75, 0.40};
  static const double val[2] = {0.92, 0.78};
  hsv_hex(h, sat[id % 3], val[(id / 3) % 2], out);
}

void svg_shade(double t, int walkable, char out[8]) {
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  if (walkable) hsv_hex(0.33, 0.55, 0.35 + 0.6 * t, out);
  else {
    unsigned v = (unsigned)lround(90 + 120 * t);
    snprintf(out, 8, "#%02x%02x%02x", v, v, v);
  }
}

void svg_scene_init(svg_scene *s, FILE *f, const char *title, const char *subtitle) {
  memset(s, 0, sizeof *s);
  s->f = f;
  snprintf(s->title, sizeof s->title, "%s", title ? title : "");
  snprintf(s->subtitle, sizeof s->subtitle, "%s", subtitle ? subtitle : "");
}

int svg_panel_add(svg_scene *s, double x0, double z0, double x1, double z1, const char *caption) {
  if (s->npanels >= SVG_MAX_PANELS) return -1;
  svg_panel *p = &s->panel[s->npanels];
  if (!(x1 > x0)) x1 = x0 + 1;
  if (!(z1 > z0)) z1 = z0 + 1;
  p->x0 = x0; p->z0 = z0; p->x1 = x1; p->z1 = z1;
  snprintf(p->caption, sizeof p->caption, "%s", caption ? caption : "");
  return s->npanels++;
}

void svg_legend_add(svg_scene *s, const char *color, int kind, const char *label) {
  if (s->nlegend >= SVG_MAX_LEGEND) { s->legend_more++; return; }
  svg_legend_entry *e = &s->legend[s->nlegend++];
  snprintf(e->color, sizeof e->color, "%s", color);
  e->kind = kind;
  snprintf(e->label, sizeof e->label, "%s", label);
}

void svg_scene_note(svg_scene *s, const char *note) {
  snprintf(s->note, sizeof s->note, "%s", note ? note : "");
}

#define MARGIN 20.0
#define GAP 30.0
#define TITLE_H 62.0
#define CAPTION_H 20.0
#define LEG_ROW 20.0
#define LEG_COL 210.0

void svg_scene_begin(svg_scene *s, double max_px) {
  double big = 0;
  for (int i = 0; i < s->npanels; i++) {
    svg_panel *p = &s->panel[i];
    if (p->x1 - p->x0 > big) big = p->x1 - p->x0;
    if (p->z1 - p->z0 > big) big = p->z1 - p->z0;
  }
  if (!(big > 0)) big = 1;
  s->scale = max_px / big;
  s->top = TITLE_H + (s->note[0] ? 18.0 : 0.0);
  int per_row = s->per_row > 0 ? s->per_row : (s->npanels > 0 ? s->npanels : 1);
  double x = MARGIN, y = s->top + CAPTION_H, hrow = 0, xmax = 0;
  for (int i = 0; i < s->npanels; i++) {
    svg_panel *p = &s->panel[i];
    if (i > 0 && i % per_row == 0) { /* next row */
      x = MARGIN;
      y += hrow + CAPTION_H + GAP * 0.5;
      hrow = 0;
    }
    p->px = x;
    p->py = y;
    double w = (p->x1 - p->x0) * s->scale, h = (p->z1 - p->z0) * s->scale;
    x += w + GAP;
    if (x > xmax) xmax = x;
    if (h > hrow) hrow = h;
  }
  double width = (xmax > 0 ? xmax : MARGIN + GAP) - GAP + MARGIN;
  if (width < 3 * LEG_COL + 2 * MARGIN) width = 3 * LEG_COL + 2 * MARGIN;
  /* wide enough for the title (18 px) and the subtitle (12 px): about 0.6 em a character */
  double tw = 2 * MARGIN + 0.6 * 18 * (double)strlen(s->title);
  double sw = 2 * MARGIN + 0.6 * 12 * (double)strlen(s->subtitle);
  if (width < tw) width = tw;
  if (width < sw) width = sw;
  int cols = (int)((width - 2 * MARGIN) / LEG_COL);
  if (cols < 1) cols = 1;
  int nent = s->nlegend + (s->legend_more ? 1 : 0);
  int rows = (nent + cols - 1) / cols;
  s->legend_y = y + hrow + 30;
  s->width = width;
  s->height = s->legend_y + 24 + rows * LEG_ROW + MARGIN + 16;
  FILE *f = s->f;
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
             "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
          ceil(s->width), ceil(s->height), ceil(s->width), ceil(s->height));
  fputs("<title>", f);
  svg_escape(f, s->title);
  fputs("</title>\n", f);
  fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
          ceil(s->width), ceil(s->height));
  svg_text(s, MARGIN, 26, 18, "start", s->title);
  svg_text(s, MARGIN, 48, 12, "start", s->subtitle);
  if (s->note[0]) {
    fprintf(f, "<text x=\"%.1f\" y=\"66.0\" font-size=\"12\" text-anchor=\"start\" "
               "fill=\"#c00000\">", MARGIN);
    svg_escape(f, s->note);
    fputs("</text>\n", f);
  }
  for (int i = 0; i < s->npanels; i++) {
    svg_panel *p = &s->panel[i];
    svg_text(s, p->px, p->py - 6, 13, "start", p->caption);
    fprintf(f, "<rect x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\" fill=\"#f4f4f4\" "
               "stroke=\"#999999\" stroke-width=\"1\"/>\n",
            p->px, p->py, (p->x1 - p->x0) * s->scale, (p->z1 - p->z0) * s->scale);
  }
}

void svg_scene_end(svg_scene *s) {
  FILE *f = s->f;
  svg_text(s, MARGIN, s->legend_y + 4, 13, "start", "Legend");
  int cols = (int)((s->width - 2 * MARGIN) / LEG_COL);
  if (cols < 1) cols = 1;
  for (int i = 0; i < s->nlegend + (s->legend_more ? 1 : 0); i++) {
    double x = MARGIN + (i % cols) * LEG_COL, y = s->legend_y + 14 + (i / cols) * LEG_ROW;
    if (i == s->nlegend) {
      char t[64];
      snprintf(t, sizeof t, "... and %d more", s->legend_more);
      svg_text(s, x, y + 12, 12, "start", t);
      break;
    }
    const svg_legend_entry *e = &s->legend[i];
    if (e->kind == 0)
      fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"14\" fill=\"%s\" "
                 "stroke=\"#333333\" stroke-width=\"0.5\"/>\n", x, y, e->color);
    else
      fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                 "stroke-width=\"2.5\"%s/>\n", x, y + 7, x + 16, y + 7, e->color,
              e->kind == 2 ? " stroke-dasharray=\"4 3\"" : "");
    svg_text(s, x + 22, y + 12, 12, "start", e->label);
  }
  svg_text(s, s->width - MARGIN, s->height - 8, 10, "end",
           "top-down: +x right, +z down (seen from +y)");
  fputs("</svg>\n", f);
}

static double px_x(const svg_scene *s, int p, double x) {
  return s->panel[p].px + (x - s->panel[p].x0) * s->scale;
}
static double px_y(const svg_scene *s, int p, double z) {
  return s->panel[p].py + (z - s->panel[p].z0) * s->scale;
}

void svg_rect(svg_scene *s, int p, double x0, double z0, double x1, double z1, const char *fill,
              const char *stroke, double stroke_px) {
  double a = px_x(s, p, x0), b = px_y(s, p, z0);
  /* crispEdges: adjacent cell rectangles meet without anti-aliased seams */
  fprintf(s->f, "<rect x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\" fill=\"%s\" "
                "shape-rendering=\"crispEdges\"", a, b, px_x(s, p, x1) - a, px_y(s, p, z1) - b,
          fill);
  if (stroke && strcmp(stroke, "none"))
    fprintf(s->f, " stroke=\"%s\" stroke-width=\"%.2f\"", stroke, stroke_px);
  fputs("/>\n", s->f);
}

void svg_path(svg_scene *s, int p, const double *xz, int n, int closed, const char *fill,
              double fill_opacity, const char *stroke, double stroke_px, int dashed) {
  if (n < 2) return;
  fprintf(s->f, "<%s points=\"", closed ? "polygon" : "polyline");
  for (int i = 0; i < n; i++)
    fprintf(s->f, "%s%.3f,%.3f", i ? " " : "", px_x(s, p, xz[2 * i]), px_y(s, p, xz[2 * i + 1]));
  fprintf(s->f, "\" fill=\"%s\"", closed ? fill : "none");
  if (closed && fill_opacity < 1) fprintf(s->f, " fill-opacity=\"%.2f\"", fill_opacity);
  if (stroke && strcmp(stroke, "none"))
    fprintf(s->f, " stroke=\"%s\" stroke-width=\"%.2f\" stroke-linejoin=\"round\"%s", stroke,
            stroke_px, dashed ? " stroke-dasharray=\"5 3\"" : "");
  fputs("/>\n", s->f);
}

void svg_line(svg_scene *s, int p, double xa, double za, double xb, double zb,
              const char *stroke, double stroke_px, int dashed) {
  fprintf(s->f, "<line x1=\"%.3f\" y1=\"%.3f\" x2=\"%.3f\" y2=\"%.3f\" stroke=\"%s\" "
                "stroke-width=\"%.2f\"%s/>\n", px_x(s, p, xa), px_y(s, p, za), px_x(s, p, xb),
          px_y(s, p, zb), stroke, stroke_px, dashed ? " stroke-dasharray=\"6 4\"" : "");
}

void svg_dot(svg_scene *s, int p, double x, double z, double r_px, const char *fill) {
  fprintf(s->f, "<circle cx=\"%.3f\" cy=\"%.3f\" r=\"%.2f\" fill=\"%s\"/>\n", px_x(s, p, x),
          px_y(s, p, z), r_px, fill);
}

void svg_label(svg_scene *s, int p, double x, double z, double size, const char *color,
               const char *text) {
  fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" text-anchor=\"middle\" "
                "fill=\"%s\">", px_x(s, p, x), px_y(s, p, z) + size * 0.35, size, color);
  svg_escape(s->f, text);
  fputs("</text>\n", s->f);
}

void svg_text(svg_scene *s, double px, double py, double size, const char *anchor,
              const char *text) {
  fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" text-anchor=\"%s\" "
                "fill=\"#222222\">", px, py, size, anchor);
  svg_escape(s->f, text);
  fputs("</text>\n", s->f);
}
