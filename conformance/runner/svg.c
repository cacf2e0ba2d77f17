/*
** svg.c -- `op-conform run --port P --svg DIR` (CONF-205): a picture of a differing tile or
** stage artifact, the reference's and the port's versions overlaid (reference: blue
** outlines on a pale fill; port: red dashed outlines), the differing elements filled orange,
** the first difference's sentence as the title. Top view: x to the right, z downwards.
**
**   tile, polys        polygons (tile: f32 vertex x, z; polys: cell corners x, z)
**   mesh, snapshot     the first tile record that differs, drawn as a tile
**   chf, spans-tile    the grid of columns, each a square; a column whose spans differ is
**   spans              orange; the text in it is "reference/port" span counts (spans: the
**                      first tile record that differs)
**   contours           the contours as closed polylines (cell corners x, z)
**   regions            the spans in column order, laid out in rows (no coordinates in the
**                      layout): one square each, shaded by region value
**   soup               the triangles seen from above
** Pictures are informative; they never change a verdict.
*/
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conform.h"
#include "walk.h"

#define REF_STROKE "#1f5fbf"
#define REF_FILL "#cfe0ff"
#define PORT_STROKE "#d62728"
#define DIFF_FILL "#ff9900"

static float rdf32(const uint8_t *p) {
  uint32_t b = opw_rd32(p);
  float f;
  memcpy(&f, &b, 4);
  return f;
}
static double rdf64(const uint8_t *p) {
  uint64_t b = opw_rd64(p);
  double d;
  memcpy(&d, &b, 8);
  return d;
}

/* ------------------------------------------------------------------ a drawing */

typedef struct pt {
  double x, z;
} pt;

typedef struct shape {
  pt *p;
  size_t n;
  int closed, side, diff; /* side 0 reference, 1 port */
  char label[24];
  char fill[32]; /* the reference's fill when set (regions: by region value) */
} shape;

typedef struct drawing {
  shape *s;
  size_t n, cap;
  double x0, z0, x1, z1;
  int any;
} drawing;

static shape *add_shape(drawing *d, size_t npts, int closed, int side, int diff) {
  if (d->n == d->cap) {
    size_t nc = d->cap ? d->cap * 2 : 64;
    shape *ns = realloc(d->s, nc * sizeof *ns);
    if (!ns) return NULL;
    d->s = ns;
    d->cap = nc;
  }
  shape *s = &d->s[d->n];
  memset(s, 0, sizeof *s);
  s->p = calloc(npts ? npts : 1, sizeof *s->p);
  if (!s->p) return NULL;
  s->closed = closed, s->side = side, s->diff = diff;
  d->n++;
  return s;
}

static void add_pt(drawing *d, shape *s, double x, double z) {
  if (!isfinite(x) || !isfinite(z)) x = z = 0;
  s->p[s->n].x = x;
  s->p[s->n].z = z;
  s->n++;
  if (!d->any) d->x0 = d->x1 = x, d->z0 = d->z1 = z, d->any = 1;
  if (x < d->x0) d->x0 = x;
  if (x > d->x1) d->x1 = x;
  if (z < d->z0) d->z0 = z;
  if (z > d->z1) d->z1 = z;
}

static void drawing_free(drawing *d) {
  for (size_t i = 0; i < d->n; i++) free(d->s[i].p);
  free(d->s);
  memset(d, 0, sizeof *d);
}

static void xml_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '<') fputs("&lt;", f);
    else if (*s == '>') fputs("&gt;", f);
    else if (*s == '&') fputs("&amp;", f);
    else if ((unsigned char)*s >= 0x20) fputc(*s, f);
  }
}

static int drawing_write(const drawing *d, const char *path, const char *title, const char *what,
                         const char *legend_extra) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  const double W = 900, H = 900, M = 20, TOP = 100;
  double dx = d->x1 - d->x0, dz = d->z1 - d->z0;
  if (dx <= 0) dx = 1;
  if (dz <= 0) dz = 1;
  double sc = (W - 2 * M) / dx < (H - 2 * M) / dz ? (W - 2 * M) / dx : (H - 2 * M) / dz;
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
             "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
          W, H + TOP, W, H + TOP);
  fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">");
  xml_text(f, title);
  fprintf(f, "</text>\n<text x=\"10\" y=\"40\" font-size=\"11\">");
  xml_text(f, what);
  fprintf(f, "</text>\n<g font-size=\"12\">"
             "<rect x=\"10\" y=\"52\" width=\"18\" height=\"12\" fill=\"" REF_FILL "\" stroke=\"" REF_STROKE "\"/>"
             "<text x=\"34\" y=\"63\">reference</text>"
             "<rect x=\"120\" y=\"52\" width=\"18\" height=\"12\" fill=\"none\" stroke=\"" PORT_STROKE "\" stroke-dasharray=\"4 2\"/>"
             "<text x=\"144\" y=\"63\">port</text>"
             "<rect x=\"200\" y=\"52\" width=\"18\" height=\"12\" fill=\"" DIFF_FILL "\" fill-opacity=\"0.7\"/>"
             "<text x=\"224\" y=\"63\">differs</text>"
             "<text x=\"10\" y=\"84\" font-size=\"11\">");
  xml_text(f, legend_extra ? legend_extra : "");
  fprintf(f, "</text></g>\n");
  /* reference first (filled), then port outlines on top, labels last */
  for (int pass = 0; pass < 3; pass++) {
    for (size_t i = 0; i < d->n; i++) {
      const shape *s = &d->s[i];
      if (pass < 2 && s->side != pass) continue;
      if (pass == 2) {
        if (!s->label[0] || !s->n) continue;
        double cx = 0, cz = 0;
        for (size_t k = 0; k < s->n; k++) cx += s->p[k].x, cz += s->p[k].z;
        cx /= (double)s->n, cz /= (double)s->n;
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\" text-anchor=\"middle\" "
                   "dominant-baseline=\"middle\">%s</text>\n",
                M + (cx - d->x0) * sc, TOP + M + (cz - d->z0) * sc, s->label[0] && sc < 30 ? 8.0 : 11.0,
                s->label);
        continue;
      }
      fprintf(f, "<%s points=\"", s->closed ? "polygon" : "polyline");
      for (size_t k = 0; k < s->n; k++)
        fprintf(f, "%.2f,%.2f ", M + (s->p[k].x - d->x0) * sc, TOP + M + (s->p[k].z - d->z0) * sc);
      if (s->side == 0) /* a differing polyline is drawn orange, a differing polygon filled */
        fprintf(f, "\" fill=\"%s\" fill-opacity=\"%s\" stroke=\"%s\" stroke-width=\"%s\"/>\n",
                !s->closed ? "none" : s->diff ? DIFF_FILL : s->fill[0] ? s->fill : REF_FILL, s->diff ? "0.7" : "0.5",
                !s->closed && s->diff ? DIFF_FILL : REF_STROKE, s->diff ? (s->closed ? "2.5" : "4") : "1.2");
      else
        fprintf(f, "\" fill=\"none\" stroke=\"" PORT_STROKE "\" stroke-width=\"%s\" "
                   "stroke-dasharray=\"5 3\"/>\n", s->diff ? "2" : "1.2");
    }
  }
  fprintf(f, "</svg>\n");
  return fclose(f) ? -1 : 0;
}

/* ------------------------------------------------------------------ tiles (FMT-040) */

typedef struct tview {
  uint32_t nverts, npolys;
  const uint8_t *verts; /* 12 bytes each: x, y, z f32 */
  size_t *poly;         /* offsets of the polygon records (malloc'd) */
  const uint8_t *p;
  size_t n;
} tview;

static int tile_view(const uint8_t *p, size_t n, tview *t) {
  memset(t, 0, sizeof *t);
  if (n < 104 || memcmp(p, "OPTL", 4)) return -1;
  t->p = p, t->n = n;
  t->nverts = opw_rd32(p + 76);
  t->npolys = opw_rd32(p + 80);
  if ((uint64_t)t->nverts * 12 > n - 104) return -1;
  t->verts = p + 104;
  size_t off = 104 + (size_t)t->nverts * 12;
  if (t->npolys > (n - off) / 4) return -1;
  t->poly = malloc(((size_t)t->npolys + 1) * sizeof *t->poly);
  if (!t->poly) return -1;
  for (uint32_t i = 0; i < t->npolys; i++) {
    if (off >= n) return -1;
    size_t len = 4 + 4 * (size_t)p[off];
    if (len > n - off) return -1;
    t->poly[i] = off;
    off += len;
  }
  return 0;
}

/* 1 when polygon i of a differs from that of b (its record or its vertices' bytes). */
static int poly_differs(const tview *a, const tview *b, uint32_t i) {
  if (!b->poly || i >= b->npolys) return 1;
  const uint8_t *ra = a->p + a->poly[i], *rb = b->p + b->poly[i];
  size_t len = 4 + 4 * (size_t)ra[0];
  if (ra[0] != rb[0] || memcmp(ra, rb, len)) return 1;
  for (unsigned j = 0; j < ra[0]; j++) {
    uint16_t v = opw_rd16(ra + 4 + 2 * j);
    if (v >= a->nverts || v >= b->nverts || memcmp(a->verts + 12 * v, b->verts + 12 * v, 12)) return 1;
  }
  return 0;
}

static size_t tile_shapes(drawing *d, const tview *t, const tview *other, int side, double ox, double oz) {
  size_t ndiff = 0;
  for (uint32_t i = 0; i < t->npolys; i++) {
    const uint8_t *r = t->p + t->poly[i];
    int df = poly_differs(t, other, i);
    ndiff += (size_t)df;
    shape *s = add_shape(d, r[0], 1, side, df);
    if (!s) return ndiff;
    for (unsigned j = 0; j < r[0]; j++) {
      uint16_t v = opw_rd16(r + 4 + 2 * j);
      if (v < t->nverts) add_pt(d, s, ox + rdf32(t->verts + 12 * v), oz + rdf32(t->verts + 12 * v + 8));
    }
    if (df && side == 0) snprintf(s->label, sizeof s->label, "%lu", (unsigned long)i);
  }
  return ndiff;
}

/* Draws tile a (and b over it); places it at its tile position when `placed` (meshes:
** tile vertices are tile-local, FMT-010). Returns the number of differing polygons, or -1. */
static long tile_at(drawing *d, const uint8_t *a, size_t an, const uint8_t *b, size_t bn, int placed,
                    int *okb_out) {
  tview ta, tb;
  if (tile_view(a, an, &ta)) {
    free(ta.poly);
    return -1;
  }
  int okb = b && tile_view(b, bn, &tb) == 0;
  if (!okb) {
    if (b) free(tb.poly);
    memset(&tb, 0, sizeof tb);
  }
  double tw = placed ? (double)opw_rd32(a + 60) * rdf64(a + 44) : 0;
  double ox = placed ? tw * (int32_t)opw_rd32(a + 8) : 0, oz = placed ? tw * (int32_t)opw_rd32(a + 12) : 0;
  size_t nd = tile_shapes(d, &ta, &tb, 0, ox, oz);
  if (okb) tile_shapes(d, &tb, &ta, 1, ox, oz);
  if (okb_out) *okb_out = okb;
  free(ta.poly);
  free(tb.poly);
  return (long)nd;
}

static int draw_tile(drawing *d, const uint8_t *a, size_t an, const uint8_t *b, size_t bn, char *extra,
                     size_t elen) {
  int okb = 0;
  long nd = tile_at(d, a, an, b, bn, 0, &okb);
  if (nd < 0) return -1;
  snprintf(extra, elen, "%ld of %lu reference polygons differ (numbered)%s", nd,
           (unsigned long)opw_rd32(a + 80), okb ? "" : "; the port's tile cannot be read");
  return 0;
}

/* The tile bytes of record k of a mesh (MESH-041) or snapshot (SNAP-010), with its key. */
typedef struct trec {
  const uint8_t *tile;
  size_t len;
  int32_t x, z, l;
  const uint8_t *rec;
  size_t rlen;
} trec;

static size_t tile_records(const uint8_t *p, size_t n, int snapshot, trec *out, size_t max) {
  size_t off = 72, k = 0, end = n;
  if (n < 72) return 0;
  if (snapshot) { /* SLOT must be sections[0] */
    if (n < 88 || memcmp(p + 72, "SLOT", 4)) return 0;
    uint64_t len = opw_rd64(p + 80);
    if (len > n - 88) return 0;
    off = 88;
    end = 88 + (size_t)len;
    if (end - off < 4) return 0;
    uint32_t nfree = opw_rd32(p + off);
    if ((uint64_t)nfree * 8 > end - off - 4) return 0;
    off += 4 + 8 * (size_t)nfree;
    if (end - off < 4) return 0;
    off += 4;
  }
  uint32_t nt = opw_rd32(p + (snapshot ? off - 4 : 68));
  for (uint32_t i = 0; i < nt && k < max; i++) {
    if (end - off < 24) break;
    size_t s = off;
    uint32_t tl = opw_rd32(p + off + 20);
    if (tl > end - off - 24) break;
    trec *r = &out[k];
    r->x = (int32_t)opw_rd32(p + off + 8), r->z = (int32_t)opw_rd32(p + off + 12);
    r->l = (int32_t)opw_rd32(p + off + 16);
    r->tile = p + off + 24, r->len = tl;
    off += 24 + tl;
    if (end - off < 4) break;
    uint32_t ne = opw_rd32(p + off);
    if ((uint64_t)ne * 8 > end - off - 4) break;
    off += 4 + 8 * (size_t)ne;
    if (!snapshot) {
      if (end - off < 4) break;
      uint32_t nl = opw_rd32(p + off);
      if ((uint64_t)nl * 24 > end - off - 4) break;
      off += 4 + 24 * (size_t)nl;
    }
    r->rec = p + s, r->rlen = off - s;
    k++;
  }
  return k;
}

static int draw_mesh(drawing *d, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
                     int snapshot, char *extra, size_t elen) {
  enum { MAXT = 4096 };
  trec *ra = calloc(MAXT, sizeof *ra), *rb = calloc(MAXT, sizeof *rb);
  int rc = -1;
  if (ra && rb) {
    size_t na = tile_records(a, an, snapshot, ra, MAXT), nb = tile_records(b, bn, snapshot, rb, MAXT);
    size_t ndt = 0, npoly = 0, k = 0;
    extra[0] = '\0';
    rc = na ? 0 : -1;
    for (size_t i = 0; i < na; i++) { /* every tile at its place; the port's counterpart over it */
      const trec *o = NULL;
      for (size_t j = 0; j < nb && !o; j++)
        if (rb[j].x == ra[i].x && rb[j].z == ra[i].z && rb[j].l == ra[i].l) o = &rb[j];
      int differs = !o || o->rlen != ra[i].rlen || memcmp(o->rec, ra[i].rec, o->rlen);
      long nd = tile_at(d, ra[i].tile, ra[i].len, o ? o->tile : NULL, o ? o->len : 0, 1, NULL);
      if (nd > 0) npoly += (size_t)nd;
      if (differs && ndt++ < 4 && k + 40 < elen)
        k += (size_t)snprintf(extra + k, elen - k, "%s%ld,%ld,%ld%s", ndt > 1 ? " " : "differing tile records: ",
                              (long)ra[i].x, (long)ra[i].z, (long)ra[i].l, o ? "" : " (absent in the port)");
    }
    if (!ndt) k += (size_t)snprintf(extra + k, elen - k, "every tile record is equal");
    if (k < elen) snprintf(extra + k, elen - k, "; %zu of %zu tiles differ, %zu polygons", ndt, na, npoly);
  }
  free(ra);
  free(rb);
  return rc;
}

/* ------------------------------------------------------------------ grids (SPAN-170) */

typedef struct chfv {
  uint32_t w, dp, nspans;
  const uint8_t *count, *spans;
  size_t *first; /* span index of each column's first span (malloc'd, w*dp + 1) */
} chfv;

static int chf_view(const uint8_t *p, size_t n, chfv *c) {
  memset(c, 0, sizeof *c);
  if (n < 40 || memcmp(p, "OPCHF001", 8)) return -1;
  c->w = opw_rd32(p + 16), c->dp = opw_rd32(p + 20), c->nspans = opw_rd32(p + 36);
  uint64_t nc = (uint64_t)c->w * c->dp;
  if (nc > n - 40 || nc > 1u << 24 || (uint64_t)c->nspans * 8 > n - 40 - nc) return -1;
  c->count = p + 40;
  c->spans = p + 40 + nc;
  c->first = malloc(((size_t)nc + 1) * sizeof *c->first);
  if (!c->first) return -1;
  size_t s = 0;
  for (size_t i = 0; i < nc; i++) c->first[i] = s, s += c->count[i];
  c->first[nc] = s;
  return s <= c->nspans ? 0 : -1;
}

static int draw_chf(drawing *d, const uint8_t *a, size_t an, const uint8_t *b, size_t bn, char *extra,
                    size_t elen) {
  chfv ca, cb;
  if (chf_view(a, an, &ca)) {
    free(ca.first);
    return -1;
  }
  int okb = chf_view(b, bn, &cb) == 0 && cb.w == ca.w && cb.dp == ca.dp;
  size_t ndiff = 0, nc = (size_t)ca.w * ca.dp;
  for (size_t c = 0; c < nc; c++) {
    unsigned na = ca.count[c], nb = okb ? cb.count[c] : 0;
    int df = !okb || na != nb ||
             (na && memcmp(ca.spans + 8 * ca.first[c], cb.spans + 8 * cb.first[c], 8 * (size_t)na));
    if (!na && !df) continue;
    ndiff += (size_t)df;
    double x = (double)(c % ca.w), z = (double)(c / ca.w);
    shape *s = add_shape(d, 4, 1, 0, df);
    if (!s) break;
    add_pt(d, s, x, z), add_pt(d, s, x + 1, z), add_pt(d, s, x + 1, z + 1), add_pt(d, s, x, z + 1);
    if (df) snprintf(s->label, sizeof s->label, "%u/%u", na, nb);
    else if (na > 1) snprintf(s->label, sizeof s->label, "%u", na);
  }
  shape *g = add_shape(d, 4, 1, 1, 0); /* the port's grid outline */
  if (g && okb) {
    add_pt(d, g, 0, 0), add_pt(d, g, cb.w, 0), add_pt(d, g, cb.w, cb.dp), add_pt(d, g, 0, cb.dp);
  }
  snprintf(extra, elen, "%lu x %lu columns; %zu columns differ (text: reference/port span counts)%s",
           (unsigned long)ca.w, (unsigned long)ca.dp, ndiff,
           okb ? "" : "; the port's heightfield cannot be read on the same grid");
  free(ca.first);
  free(cb.first);
  return 0;
}

/* SPAN-171: the first tile record that differs, drawn as its heightfield. */
static int draw_spans(drawing *d, const uint8_t *a, size_t an, const uint8_t *b, size_t bn, char *extra,
                      size_t elen) {
  if (an < 20 || bn < 20) return -1;
  uint32_t na = opw_rd32(a + 16), nb = opw_rd32(b + 16);
  size_t oa = 20, ob = 20;
  for (uint32_t i = 0; i < na; i++) {
    if (an - oa < 12) return -1;
    uint32_t la = opw_rd32(a + oa + 8);
    if (la > an - oa - 12) return -1;
    const uint8_t *pb = NULL;
    uint32_t lb = 0;
    if (i < nb && bn - ob >= 12) {
      lb = opw_rd32(b + ob + 8);
      if (lb <= bn - ob - 12) pb = b + ob;
    }
    if (!pb || la != lb || memcmp(a + oa, pb, 12 + (size_t)la)) {
      int rc = draw_chf(d, a + oa + 12, la, pb ? pb + 12 : NULL, pb ? lb : 0, extra, elen);
      size_t k = strlen(extra);
      snprintf(extra + k, elen - k, "; tile (%ld,%ld), the first tile record that differs",
               (long)(int32_t)opw_rd32(a + oa), (long)(int32_t)opw_rd32(a + oa + 4));
      return rc;
    }
    oa += 12 + la;
    if (pb) ob += 12 + lb;
  }
  return -1;
}

/* ------------------------------------------------------------------ other stages */

/* REG-222: the contours as closed polylines. */
typedef struct cview {
  uint32_t n, nloops;
  size_t *off;  /* contour record offsets (malloc'd) */
  size_t *loop; /* loop record offsets (malloc'd) */
  const uint8_t *p;
} cview;

static int contour_view(const uint8_t *p, size_t n, cview *c) {
  memset(c, 0, sizeof *c);
  if (n < 44 || memcmp(p, "OPCTR001", 8)) return -1;
  uint32_t nloops = opw_rd32(p + 24);
  size_t off = 44;
  if (nloops > (n - off) / 24) return -1;
  c->loop = malloc(((size_t)nloops + 1) * sizeof *c->loop);
  if (!c->loop) return -1;
  c->nloops = nloops;
  for (uint32_t l = 0; l < nloops; l++) {
    c->loop[l] = off;
    if (n - off < 24) return -1; /* reg, area, hole, start_key, nraw, nsimp, area2 */
    uint64_t nraw = opw_rd32(p + off + 8), nsimp = opw_rd32(p + off + 12);
    uint64_t len = 24 + 20 * nraw + 4 * nsimp;
    if (len > n - off) return -1;
    off += (size_t)len;
  }
  c->n = opw_rd32(p + 36);
  c->p = p;
  if (c->n > (n - off) / 11) return -1;
  c->off = malloc(((size_t)c->n + 1) * sizeof *c->off);
  if (!c->off) return -1;
  for (uint32_t k = 0; k < c->n; k++) {
    if (n - off < 11) return -1;
    uint64_t len = 11 + 16 * (uint64_t)opw_rd32(p + off + 7);
    if (len > n - off) return -1;
    c->off[k] = off;
    off += (size_t)len;
  }
  return 0;
}

static size_t loop_len(const uint8_t *r) { return 24 + 20 * (size_t)opw_rd32(r + 8) + 4 * (size_t)opw_rd32(r + 12); }

/* The raw loops (thin; the port's only where they differ), then the contours. */
static size_t contour_shapes(drawing *d, const cview *c, const cview *o, int side, size_t *nloopdiff) {
  size_t nd = 0;
  for (uint32_t l = 0; l < c->nloops; l++) {
    const uint8_t *r = c->p + c->loop[l];
    uint32_t nraw = opw_rd32(r + 8);
    int df = !o->loop || l >= o->nloops || loop_len(r) != loop_len(o->p + o->loop[l]) ||
             memcmp(r, o->p + o->loop[l], loop_len(r));
    if (side == 0) *nloopdiff += (size_t)df;
    if (!df && side == 1) continue;
    shape *s = add_shape(d, (size_t)nraw + 1, 0, side, df);
    if (!s) return nd;
    for (uint32_t j = 0; j <= nraw && nraw; j++) {
      const uint8_t *v = r + 24 + 20 * (size_t)(j % nraw);
      add_pt(d, s, (int32_t)opw_rd32(v), (int32_t)opw_rd32(v + 8));
    }
    if (df && side == 0) snprintf(s->label, sizeof s->label, "loop %lu", (unsigned long)l);
  }
  for (uint32_t k = 0; k < c->n; k++) {
    const uint8_t *r = c->p + c->off[k];
    uint32_t nv = opw_rd32(r + 7);
    size_t len = 11 + 16 * (size_t)nv;
    int df = !o->off || k >= o->n || opw_rd32(o->p + o->off[k] + 7) != nv ||
             memcmp(r, o->p + o->off[k], len);
    nd += (size_t)df;
    shape *s = add_shape(d, (size_t)nv + 1, 0, side, df); /* a polyline closed by its first point */
    if (!s) break;
    for (uint32_t j = 0; j <= nv && nv; j++)
      add_pt(d, s, (int32_t)opw_rd32(r + 11 + 16 * (j % nv)), (int32_t)opw_rd32(r + 11 + 16 * (j % nv) + 8));
    if (df && side == 0) snprintf(s->label, sizeof s->label, "c%lu", (unsigned long)k);
  }
  return nd;
}

static int draw_contours(drawing *d, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
                         char *extra, size_t elen) {
  cview ca, cb;
  if (contour_view(a, an, &ca)) {
    free(ca.off);
    free(ca.loop);
    return -1;
  }
  if (contour_view(b, bn, &cb)) {
    free(cb.off);
    free(cb.loop);
    memset(&cb, 0, sizeof cb);
  }
  size_t nl = 0, nl2 = 0;
  size_t nd = contour_shapes(d, &ca, &cb, 0, &nl);
  if (cb.off) contour_shapes(d, &cb, &ca, 1, &nl2);
  snprintf(extra, elen, "%zu of %lu loops and %zu of %lu contours differ (orange, labelled)%s", nl,
           (unsigned long)ca.nloops, nd, (unsigned long)ca.n,
           cb.off ? "" : "; the port's contour set cannot be read");
  free(ca.off);
  free(cb.off);
  free(ca.loop);
  free(cb.loop);
  return 0;
}

/* POLY-090: polygons of cell-corner vertices. */
static int draw_polys(drawing *d, const uint8_t *a, size_t an, const uint8_t *b, size_t bn, char *extra,
                      size_t elen) {
  const uint8_t *pp[2] = {a, b};
  size_t pn[2] = {an, bn};
  uint32_t nvp[2] = {0, 0}, nv[2] = {0, 0}, np[2] = {0, 0};
  int ok[2];
  for (int s = 0; s < 2; s++) {
    ok[s] = pn[s] >= 16 && pp[s] && !memcmp(pp[s], "POLY", 4);
    if (!ok[s]) continue;
    nvp[s] = opw_rd32(pp[s] + 4), nv[s] = opw_rd32(pp[s] + 8), np[s] = opw_rd32(pp[s] + 12);
    uint64_t need = 16 + 12 * (uint64_t)nv[s] + (uint64_t)np[s] * (4 * (uint64_t)nvp[s] + 5);
    ok[s] = nvp[s] <= 64 && need <= pn[s];
  }
  if (!ok[0]) return -1;
  size_t nd = 0;
  for (int s = 0; s < 2; s++) {
    if (!ok[s]) continue;
    int o = 1 - s;
    size_t rec = 4 * (size_t)nvp[s] + 5;
    for (uint32_t i = 0; i < np[s]; i++) {
      const uint8_t *r = pp[s] + 16 + 12 * (size_t)nv[s] + rec * i;
      int df = !ok[o] || i >= np[o] || nvp[o] != nvp[s] ||
               memcmp(r, pp[o] + 16 + 12 * (size_t)nv[o] + rec * i, rec);
      uint32_t cnt = 0;
      while (cnt < nvp[s] && opw_rd16(r + 2 * cnt) != 0xffff) cnt++;
      for (uint32_t j = 0; j < cnt && !df; j++) {
        uint16_t v = opw_rd16(r + 2 * j);
        df = v >= nv[o] || v >= nv[s] || memcmp(pp[s] + 16 + 12 * (size_t)v, pp[o] + 16 + 12 * (size_t)v, 12);
      }
      if (s == 0) nd += (size_t)df;
      shape *sh = add_shape(d, cnt, 1, s, df);
      if (!sh) return -1;
      for (uint32_t j = 0; j < cnt; j++) {
        uint16_t v = opw_rd16(r + 2 * j);
        if (v < nv[s])
          add_pt(d, sh, (int32_t)opw_rd32(pp[s] + 16 + 12 * (size_t)v),
                 (int32_t)opw_rd32(pp[s] + 16 + 12 * (size_t)v + 8));
      }
      if (df && s == 0) snprintf(sh->label, sizeof sh->label, "%lu", (unsigned long)i);
    }
  }
  snprintf(extra, elen, "%zu of %lu reference polygons differ (numbered)%s", nd, (unsigned long)np[0],
           ok[1] ? "" : "; the port's polygon mesh cannot be read");
  return 0;
}

/* REG-160: spans in column order, rows of ceil(sqrt(nspans)). */
static int draw_regions(drawing *d, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
                        char *extra, size_t elen) {
  if (an < 28 || memcmp(a, "OPREG001", 8)) return -1;
  uint32_t ns = opw_rd32(a + 16);
  if ((uint64_t)ns * 4 > an - 28) return -1;
  int okb = bn >= 28 && opw_rd32(b + 16) == ns && (uint64_t)ns * 4 <= bn - 28;
  uint32_t row = 1;
  while ((uint64_t)row * row < ns) row++;
  size_t nd = 0;
  for (uint32_t i = 0; i < ns; i++) {
    int df = !okb || memcmp(a + 28 + 2 * i, b + 28 + 2 * i, 2) || memcmp(a + 28 + 2 * ns + 2 * i, b + 28 + 2 * ns + 2 * i, 2);
    nd += (size_t)df;
    double x = i % row, z = i / row;
    shape *s = add_shape(d, 4, 1, 0, df);
    if (!s) return -1;
    add_pt(d, s, x, z), add_pt(d, s, x + 1, z), add_pt(d, s, x + 1, z + 1), add_pt(d, s, x, z + 1);
    unsigned v = opw_rd16(a + 28 + 2 * i);
    if (df) snprintf(s->label, sizeof s->label, "%u/%u", v, okb ? opw_rd16(b + 28 + 2 * i) : 0);
    else if (v == 0) snprintf(s->fill, sizeof s->fill, "white");
    else if (v & 0x8000) snprintf(s->fill, sizeof s->fill, "#b0b0b0");
    else snprintf(s->fill, sizeof s->fill, "hsl(%u,70%%,75%%)", (v * 67u) % 360u);
  }
  snprintf(extra, elen, "%lu spans in column order, %lu a row, shaded by region value (white 0, grey "
           "the border); %zu differ (text: reference/port value)%s", (unsigned long)ns, (unsigned long)row, nd,
           okb ? "" : "; the port's partition has another span count");
  return 0;
}

/* LVL-010: the triangles from above. */
static int draw_soup(drawing *d, const uint8_t *a, size_t an, const uint8_t *b, size_t bn, char *extra,
                     size_t elen) {
  const uint8_t *pp[2] = {a, b};
  size_t pn[2] = {an, bn};
  uint32_t nv[2] = {0, 0}, nt[2] = {0, 0};
  int ok[2];
  for (int s = 0; s < 2; s++) {
    ok[s] = pp[s] && pn[s] >= 16 && !memcmp(pp[s], "OPTS", 4);
    if (!ok[s]) continue;
    nv[s] = opw_rd32(pp[s] + 8), nt[s] = opw_rd32(pp[s] + 12);
    ok[s] = 16 + 24 * (uint64_t)nv[s] + 12 * (uint64_t)nt[s] <= pn[s] && nt[s] <= 200000;
  }
  if (!ok[0]) return -1;
  size_t nd = 0;
  for (int s = 0; s < 2; s++) {
    if (!ok[s]) continue;
    int o = 1 - s;
    for (uint32_t t = 0; t < nt[s]; t++) {
      const uint8_t *r = pp[s] + 16 + 24 * (size_t)nv[s] + 12 * (size_t)t;
      int df = !ok[o] || t >= nt[o] || memcmp(r, pp[o] + 16 + 24 * (size_t)nv[o] + 12 * (size_t)t, 12);
      for (int k = 0; k < 3 && !df; k++) {
        uint32_t v = opw_rd32(r + 4 * k);
        df = v >= nv[s] || v >= nv[o] || memcmp(pp[s] + 16 + 24 * (size_t)v, pp[o] + 16 + 24 * (size_t)v, 24);
      }
      if (s == 0) nd += (size_t)df;
      if (s == 1 && !df) continue;
      shape *sh = add_shape(d, 3, 1, s, df);
      if (!sh) return -1;
      for (int k = 0; k < 3; k++) {
        uint32_t v = opw_rd32(r + 4 * k);
        if (v < nv[s]) add_pt(d, sh, rdf64(pp[s] + 16 + 24 * (size_t)v), rdf64(pp[s] + 16 + 24 * (size_t)v + 16));
      }
    }
  }
  snprintf(extra, elen, "%zu of %lu reference triangles differ", nd, (unsigned long)nt[0]);
  return 0;
}

int opc_svg_write(const char *path, const char *title, const char *layout, const uint8_t *ref,
                  size_t rn, const uint8_t *port, size_t pn, char *msg, size_t msglen) {
  drawing d;
  memset(&d, 0, sizeof d);
  char extra[400] = "", what[1200];
  opc_difference("table", layout, ref, rn, port, pn, "reference", "port", what, sizeof what);
  int rc = -1;
  if (!layout) rc = -1;
  else if (!strcmp(layout, "tile")) rc = draw_tile(&d, ref, rn, port, pn, extra, sizeof extra);
  else if (!strcmp(layout, "mesh")) rc = draw_mesh(&d, ref, rn, port, pn, 0, extra, sizeof extra);
  else if (!strcmp(layout, "snapshot")) rc = draw_mesh(&d, ref, rn, port, pn, 1, extra, sizeof extra);
  else if (!strcmp(layout, "chf")) rc = draw_chf(&d, ref, rn, port, pn, extra, sizeof extra);
  else if (!strcmp(layout, "spans-tile"))
    rc = rn >= 12 && pn >= 12 ? draw_chf(&d, ref + 12, rn - 12, port + 12, pn - 12, extra, sizeof extra) : -1;
  else if (!strcmp(layout, "spans")) rc = draw_spans(&d, ref, rn, port, pn, extra, sizeof extra);
  else if (!strcmp(layout, "contours")) rc = draw_contours(&d, ref, rn, port, pn, extra, sizeof extra);
  else if (!strcmp(layout, "polys")) rc = draw_polys(&d, ref, rn, port, pn, extra, sizeof extra);
  else if (!strcmp(layout, "regions")) rc = draw_regions(&d, ref, rn, port, pn, extra, sizeof extra);
  else if (!strcmp(layout, "soup")) rc = draw_soup(&d, ref, rn, port, pn, extra, sizeof extra);
  if (rc) {
    snprintf(msg, msglen, "no picture for %s%s", layout ? "the layout " : "an artifact without a layout",
             layout ? layout : "");
    drawing_free(&d);
    return -1;
  }
  rc = drawing_write(&d, path, title, what, extra);
  drawing_free(&d);
  if (rc) snprintf(msg, msglen, "cannot write %s", path);
  return rc;
}

/* mkdir -p of the directories of path. */
static void make_dirs(const char *path) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    mkdir(buf, 0777);
    *p = '/';
  }
}

void opc_svg_checkpoint(struct runner *r, const char *cp, const char *kind, const char *layout,
                        const uint8_t *ref, size_t rn, const uint8_t *port, size_t pn, char *out,
                        size_t outlen) {
  char name[128], path[4096], msg[300], title[300];
  if (r->svg_count >= 20) { /* CONF-205: a port wrong everywhere does not fill the disk */
    size_t n = strlen(out);
    snprintf(out + n, outlen - n, "; no picture (20 drawn for this scenario already)");
    return;
  }
  r->svg_count++;
  size_t k = 0;
  for (const char *s = cp; *s && k + 1 < sizeof name; s++)
    name[k++] = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
                        *s == '-' || *s == '.' || *s == '_'
                    ? *s
                    : '_';
  name[k] = '\0';
  snprintf(path, sizeof path, "%s/%s/%s.svg", r->svg_dir, r->scenario ? r->scenario : "scenario", name);
  snprintf(title, sizeof title, "%s: checkpoint %s (%s)", r->scenario ? r->scenario : "?", cp, kind);
  make_dirs(path);
  const char *l = opc_layout_of(kind, layout, ref, rn);
  size_t n = strlen(out);
  if (opc_svg_write(path, title, l, ref, rn, port, pn, msg, sizeof msg) == 0)
    snprintf(out + n, outlen - n, "; picture: %s", path);
  else
    snprintf(out + n, outlen - n, "; %s", msg);
}
