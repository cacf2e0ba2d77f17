/*
** region.c -- Regions of spec/build2d-geometry.md sections 2 and 4: from outlines
** (union, G2D-020..G2D-025), from a tile map (G2D-030..G2D-033), difference (G2D-035),
** and the canonical form extracted from an arrangement (G2D-080..G2D-095).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build2d/geometry/g2d.h"
#include "core/alloc.h"

#define RULE_NONZERO 0  /* inside when the winding is not 0 (G2D-021) */
#define RULE_POSITIVE 1 /* inside when the winding is > 0 (G2D-022, G2D-035) */

void g2_region_free(g2_region *r) {
  if (!r) return;
  free(r->pts);
  free(r->ring_start);
  memset(r, 0, sizeof *r);
}

g2_i128 g2_region_area2(const g2_region *r) {
  g2_i128 s = 0;
  for (size_t k = 0; k < r->nrings; k++) {
    size_t a = r->ring_start[k], b = r->ring_start[k + 1];
    for (size_t i = a; i < b; i++) {
      g2_point p = r->pts[i], q = r->pts[i + 1 < b ? i + 1 : a];
      s += (g2_i128)p.x * q.y - (g2_i128)p.y * q.x;
    }
  }
  return s;
}

op_status g2_region_to_pslg(const g2_region *r, g2_pslg *out, op_error *err) {
  size_t n = r->npts;
  g2_point *p = malloc((n ? n : 1) * sizeof *p);
  g2_seg *s = malloc((n ? n : 1) * sizeof *s);
  if (!p || !s) { free(p); free(s); return opc_nomem(err, "memory"); }
  if (n) memcpy(p, r->pts, n * sizeof *p);
  for (size_t k = 0; k < r->nrings; k++) {
    size_t a = r->ring_start[k], b = r->ring_start[k + 1];
    for (size_t i = a; i < b; i++) {
      s[i].a = (uint32_t)i;
      s[i].b = (uint32_t)(i + 1 < b ? i + 1 : a);
      s[i].flags = G2_SEG_BOUNDARY;
      s[i].wind = 1;
    }
  }
  out->pts = p;
  out->npts = n;
  out->segs = s;
  out->nsegs = n;
  return OP_OK;
}

/* ------------------------------------------------------------------ extraction */

typedef struct ext {
  const g2_pslg *g;
  size_t *first;  /* per vertex: start of its outgoing half-edges in `out` (npts + 1) */
  uint32_t *out;  /* half-edge ids sorted per vertex counter-clockwise (G2D-082) */
  uint32_t *pos;  /* half-edge id -> position in `out` */
  int64_t *left;  /* winding on the left of each half-edge */
  uint8_t *known;
} ext;

/* half-edge 2k = a -> b of segment k, 2k + 1 = b -> a */
static uint32_t he_from(const g2_pslg *g, uint32_t h) {
  const g2_seg *s = &g->segs[h >> 1];
  return (h & 1) ? s->b : s->a;
}
static uint32_t he_to(const g2_pslg *g, uint32_t h) {
  const g2_seg *s = &g->segs[h >> 1];
  return (h & 1) ? s->a : s->b;
}
static int64_t he_wind(const g2_pslg *g, uint32_t h) {
  int64_t w = g->segs[h >> 1].wind;
  return (h & 1) ? -w : w;
}

/* Angle order of directions: half [0, pi) first, then [pi, 2 pi); within a half by the
** cross product (G2D-082). */
static int dir_half(int64_t dx, int64_t dy) { return (dy > 0 || (dy == 0 && dx > 0)) ? 0 : 1; }

static int angle_cmp_dirs(int64_t ax, int64_t ay, int64_t bx, int64_t by) {
  int ha = dir_half(ax, ay), hb = dir_half(bx, by);
  if (ha != hb) return ha - hb;
  g2_i128 c = (g2_i128)ax * by - (g2_i128)ay * bx;
  return c > 0 ? -1 : c < 0 ? 1 : 0;
}

/* Insertion sort of one vertex's outgoing half-edges (degrees are small; no global
** state needed). */
static void sort_star(const g2_pslg *g, uint32_t *v, size_t n) {
  for (size_t i = 1; i < n; i++) {
    uint32_t h = v[i];
    g2_point o = g->pts[he_from(g, h)], t = g->pts[he_to(g, h)];
    size_t j = i;
    while (j > 0) {
      uint32_t e = v[j - 1];
      g2_point t2 = g->pts[he_to(g, e)];
      if (angle_cmp_dirs(t2.x - o.x, t2.y - o.y, t.x - o.x, t.y - o.y) <= 0) break;
      v[j] = v[j - 1];
      j--;
    }
    v[j] = h;
  }
}

/* next half-edge of the face on the left of h: at h's head, the first outgoing
** half-edge clockwise from the twin: all half-edges of one face have the same winding on
** their left (G2D-080). */
static uint32_t face_next(const ext *x, uint32_t h) {
  uint32_t tw = h ^ 1u;
  uint32_t v = he_from(x->g, tw);
  size_t a = x->first[v], n = x->first[v + 1] - a;
  size_t p = x->pos[tw] - a;
  return x->out[a + (p + n - 1) % n];
}

static size_t uf_find(size_t *par, size_t i) {
  while (par[i] != i) { par[i] = par[par[i]]; i = par[i]; }
  return i;
}

/* One contribution of segment k to the winding just left of point z, at height
** z.y + epsilon: the ray from z to the left crosses k (G2D-080). */
static int64_t ray_term(const g2_pslg *g, size_t k, g2_point z) {
  const g2_seg *s = &g->segs[k];
  g2_point a = g->pts[s->a], b = g->pts[s->b];
  g2_point lo = a.y <= b.y ? a : b, hi = a.y <= b.y ? b : a;
  if (!(lo.y <= z.y && z.y < hi.y)) return 0;
  if (g2_orient(lo, hi, z) >= 0) return 0; /* crossing not strictly left of z */
  /* moving right across a segment directed up goes from its left to its right: -wind */
  return (a.y < b.y) ? -(int64_t)s->wind : (int64_t)s->wind;
}

typedef struct yev {
  int64_t y;
  uint32_t id;
} yev;

static int yev_cmp(const void *va, const void *vb) {
  const yev *a = va, *b = vb;
  if (a->y != b->y) return a->y < b->y ? -1 : 1;
  return a->id < b->id ? -1 : a->id > b->id;
}

/* Winding just left of the smallest vertex of every component, from the segments of
** the other components (a segment of the component itself lies at x >= the vertex's x
** and never counts). One sweep upward in y keeps the segments spanning the current
** height (lo.y <= y < hi.y). w0[v] is set for every component root v. (G2D-080) */
static int root_windings(const g2_pslg *g, const size_t *comp, int64_t *w0) {
  size_t nv = g->npts, ns = g->nsegs, nq = 0;
  yev *ins = malloc((ns ? ns : 1) * sizeof *ins), *rem = malloc((ns ? ns : 1) * sizeof *rem);
  yev *q = malloc((nv ? nv : 1) * sizeof *q);
  uint32_t *act = malloc((ns ? ns : 1) * sizeof *act), *where = malloc((ns ? ns : 1) * sizeof *where);
  int ok = ins && rem && q && act && where;
  if (ok) {
    size_t ni = 0, nact = 0;
    for (size_t k = 0; k < ns; k++) {
      int64_t ya = g->pts[g->segs[k].a].y, yb = g->pts[g->segs[k].b].y;
      if (ya == yb) continue;
      ins[ni].y = ya < yb ? ya : yb;
      rem[ni].y = ya < yb ? yb : ya;
      ins[ni].id = rem[ni].id = (uint32_t)k;
      ni++;
    }
    for (size_t v = 0; v < nv; v++)
      if (comp[v] == v) { q[nq].y = g->pts[v].y; q[nq].id = (uint32_t)v; nq++; }
    if (ni > 1) { qsort(ins, ni, sizeof *ins, yev_cmp); qsort(rem, ni, sizeof *rem, yev_cmp); }
    if (nq > 1) qsort(q, nq, sizeof *q, yev_cmp);
    size_t ii = 0, ri = 0;
    for (size_t t = 0; t < nq; t++) {
      int64_t y = q[t].y;
      for (; ii < ni && ins[ii].y <= y; ii++) { where[ins[ii].id] = (uint32_t)nact; act[nact++] = ins[ii].id; }
      for (; ri < ni && rem[ri].y <= y; ri++) {
        uint32_t k = rem[ri].id, at = where[k];
        act[at] = act[--nact];
        where[act[at]] = at;
      }
      uint32_t v = q[t].id;
      int64_t w = 0;
      for (size_t a = 0; a < nact; a++)
        if (comp[g->segs[act[a]].a] != v) w += ray_term(g, act[a], g->pts[v]);
      w0[v] = w;
    }
  }
  free(ins); free(rem); free(q); free(act); free(where);
  return ok;
}

static int inside(int rule, int64_t w) { return rule == RULE_NONZERO ? w != 0 : w > 0; }

typedef struct ringbuf {
  g2_point *pts;
  size_t npts, cap;
  size_t *start; /* ring starts */
  size_t nrings, rcap;
} ringbuf;

static int rb_push_pt(ringbuf *rb, g2_point p) {
  g2_point *nv = g2_grow(rb->pts, &rb->cap, rb->npts, sizeof *nv, 64);
  if (!nv) return 0;
  rb->pts = nv;
  rb->pts[rb->npts++] = p;
  return 1;
}
static int rb_push_ring(ringbuf *rb, size_t start) {
  size_t *nv = g2_grow(rb->start, &rb->rcap, rb->nrings + 1, sizeof *nv, 16); /* one spare */
  if (!nv) return 0;
  rb->start = nv;
  rb->start[rb->nrings++] = start;
  return 1;
}

/* Append a simple closed ring c[0..n) (no repeated vertex): remove straight-through
** vertices (G2D-084), rotate to the smallest vertex (G2D-093). */
static int emit_ring(ringbuf *rb, g2_point *c, size_t n) {
  size_t m = n;
  int changed = 1;
  while (changed && m >= 3) {
    changed = 0;
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
      g2_point prev = k ? c[k - 1] : c[m - 1], next = c[(i + 1) % m];
      if (g2_orient(prev, c[i], next) == 0) { changed = 1; continue; }
      c[k++] = c[i];
    }
    m = k;
  }
  if (m < 3) return 1; /* cannot happen for a region face; nothing to emit */
  size_t s = 0;
  for (size_t i = 1; i < m; i++)
    if (g2_point_cmp(c[i], c[s]) < 0) s = i;
  size_t st = rb->npts;
  for (size_t i = 0; i < m; i++)
    if (!rb_push_pt(rb, c[(s + i) % m])) return 0;
  return rb_push_ring(rb, st);
}

/* Split a closed walk w[0..n) at repeated vertices into simple rings (G2D-083). */
static int split_walk(ringbuf *rb, uint32_t *w, size_t n, const g2_pslg *g,
                      uint32_t *seen_at, g2_point *tmp) {
  /* stack walk: seen_at[v] = stack index + 1 of v, or 0 */
  size_t top = 0;
  uint32_t *stack = w; /* reuse in place: stack grows no faster than the walk */
  for (size_t i = 0; i < n; i++) {
    uint32_t v = w[i];
    if (seen_at[v]) {
      size_t from = seen_at[v] - 1; /* loop stack[from .. top) closes at v */
      size_t m = 0;
      for (size_t k = from; k < top; k++) tmp[m++] = g->pts[stack[k]];
      for (size_t k = from + 1; k < top; k++) seen_at[stack[k]] = 0;
      top = from + 1;
      if (!emit_ring(rb, tmp, m)) return 0;
    } else {
      stack[top++] = v;
      seen_at[v] = (uint32_t)top;
    }
  }
  /* the walk is closed: the last vertex's successor is w[0] == stack[0] */
  size_t m = 0;
  for (size_t k = 0; k < top; k++) { tmp[m++] = g->pts[stack[k]]; seen_at[stack[k]] = 0; }
  return emit_ring(rb, tmp, m);
}

typedef struct ringkey {
  g2_point p0, p1;
  size_t idx;
} ringkey;

static int ringkey_cmp(const void *va, const void *vb) { /* G2D-094 */
  const ringkey *a = va, *b = vb;
  int c = g2_point_cmp(a->p0, b->p0);
  if (c) return c;
  return g2_point_cmp(a->p1, b->p1);
}

/* The stars (G2D-082): every vertex's outgoing half-edges counter-clockwise in x->out,
** x->first and x->pos set. fill: nv scratch entries. */
static void build_stars(ext *x, size_t *fill) {
  const g2_pslg *g = x->g;
  size_t nv = g->npts, ne = 2 * g->nsegs;
  for (size_t h = 0; h < ne; h++) x->first[he_from(g, (uint32_t)h) + 1]++;
  for (size_t v = 0; v < nv; v++) x->first[v + 1] += x->first[v];
  for (size_t v = 0; v < nv; v++) fill[v] = x->first[v];
  for (size_t h = 0; h < ne; h++) x->out[fill[he_from(g, (uint32_t)h)]++] = (uint32_t)h;
  for (size_t v = 0; v < nv; v++) sort_star(g, x->out + x->first[v], x->first[v + 1] - x->first[v]);
  for (size_t i = 0; i < ne; i++) x->pos[x->out[i]] = (uint32_t)i;
}

/* The connected components: comp[v] is the smallest vertex of v's component. */
static void components(const g2_pslg *g, size_t *par, size_t *comp) {
  size_t nv = g->npts;
  for (size_t v = 0; v < nv; v++) par[v] = v;
  for (size_t k = 0; k < g->nsegs; k++) {
    size_t ra = uf_find(par, g->segs[k].a), rbb = uf_find(par, g->segs[k].b);
    if (ra != rbb) { if (ra < rbb) par[rbb] = ra; else par[ra] = rbb; }
  }
  for (size_t v = 0; v < nv; v++) comp[v] = uf_find(par, v); /* root = smallest vertex */
}

/* G2D-080: the winding on the left of every half-edge, component by component, from the
** root's winding rootw[v] spread over faces (face_next) and across edges (the twin).
** queue: ne scratch entries. */
static void face_windings(ext *x, const size_t *comp, const int64_t *rootw, uint32_t *queue) {
  const g2_pslg *g = x->g;
  for (size_t v = 0; v < g->npts; v++) {
    if (comp[v] != v || x->first[v] == x->first[v + 1]) continue;
    /* the outgoing half-edge whose left face is the outside at v: the last one with a
    ** direction in [0, pi), else the last one */
    size_t a = x->first[v], b = x->first[v + 1], pick = b - 1;
    for (size_t i = a; i < b; i++) {
      g2_point t = g->pts[he_to(g, x->out[i])];
      if (dir_half(t.x - g->pts[v].x, t.y - g->pts[v].y) == 0) pick = i;
    }
    uint32_t h0 = x->out[pick];
    size_t qh = 0, qt = 0;
    x->left[h0] = rootw[v];
    x->known[h0] = 1;
    queue[qt++] = h0;
    while (qh < qt) {
      uint32_t h = queue[qh++];
      uint32_t nb[2] = {face_next(x, h), h ^ 1u};
      int64_t wv[2] = {x->left[h], x->left[h] - he_wind(g, h)};
      for (int k = 0; k < 2; k++) {
        if (x->known[nb[k]]) continue;
        x->known[nb[k]] = 1;
        x->left[nb[k]] = wv[k];
        queue[qt++] = nb[k];
      }
    }
  }
}

/* G2D-081: h is a boundary half-edge: inside on its left, outside on its right. */
static int is_boundary(const ext *x, int rule, uint32_t h) {
  return inside(rule, x->left[h]) && !inside(rule, x->left[h ^ 1u]);
}

/* G2D-081 .. G2D-083: the boundary half-edges walked into closed walks (at each head,
** clockwise from the twin to the first boundary half-edge), each split into simple rings
** appended to rb. Scratch: used (ne), walk (ne), seen_at (nv, zeroed), tmp (ne). Returns
** 0 when out of memory. */
static int boundary_rings(const ext *x, int rule, uint8_t *used, uint32_t *walk,
                          uint32_t *seen_at, g2_point *tmp, ringbuf *rb) {
  const g2_pslg *g = x->g;
  size_t ne = 2 * g->nsegs;
  for (size_t h = 0; h < ne; h++) used[h] = is_boundary(x, rule, (uint32_t)h) ? 0 : 1;
  for (size_t i = 0; i < ne; i++) {
    uint32_t h = x->out[i]; /* start in vertex order: deterministic, not that it matters */
    if (used[h]) continue;
    size_t n = 0;
    uint32_t e = h;
    do {
      used[e] = 1;
      walk[n++] = he_from(g, e);
      /* at the head: clockwise from the twin to the first boundary half-edge */
      uint32_t tw = e ^ 1u, v = he_from(g, tw);
      size_t a = x->first[v], deg = x->first[v + 1] - a, p = x->pos[tw] - a;
      uint32_t nxt = e;
      for (size_t k = 1; k <= deg; k++) {
        uint32_t c = x->out[a + (p + deg - k) % deg];
        if (is_boundary(x, rule, c)) { nxt = c; break; }
      }
      e = nxt;
    } while (e != h && n < ne);
    if (!split_walk(rb, walk, n, g, seen_at, tmp)) return 0;
  }
  return 1;
}

/* G2D-094: the rings of rb sorted by their first, then second vertex, into *out. Returns
** 0 when out of memory (out untouched). */
static int ring_order(const ringbuf *rb, int snap_bits, g2_region *out) {
  ringkey *keys = malloc((rb->nrings ? rb->nrings : 1) * sizeof *keys);
  g2_point *np = malloc((rb->npts ? rb->npts : 1) * sizeof *np);
  size_t *ns = malloc((rb->nrings + 1) * sizeof *ns);
  if (!keys || !np || !ns) { free(keys); free(np); free(ns); return 0; }
  for (size_t r = 0; r < rb->nrings; r++) {
    keys[r].p0 = rb->pts[rb->start[r]];
    keys[r].p1 = rb->pts[rb->start[r] + 1];
    keys[r].idx = r;
  }
  qsort(keys, rb->nrings, sizeof *keys, ringkey_cmp);
  size_t m = 0;
  for (size_t r = 0; r < rb->nrings; r++) {
    size_t k = keys[r].idx;
    size_t a = rb->start[k], b = k + 1 < rb->nrings ? rb->start[k + 1] : rb->npts;
    ns[r] = m;
    for (size_t i = a; i < b; i++) np[m++] = rb->pts[i];
  }
  ns[rb->nrings] = m;
  free(keys);
  out->snap_bits = snap_bits;
  out->pts = np;
  out->npts = m;
  out->ring_start = ns;
  out->nrings = rb->nrings;
  return 1;
}

/* The canonical region of an arranged PSLG under a fill rule (G2D-080..G2D-094): the
** steps above in order, over arrays allocated once. */
static op_status extract(const g2_pslg *g, int rule, int snap_bits, g2_region *out,
                         op_error *err) {
  size_t nv = g->npts, ne = 2 * g->nsegs;
  ext x = {g, NULL, NULL, NULL, NULL, NULL};
  size_t *par = NULL, *comp = NULL;
  int64_t *rootw = NULL;
  uint32_t *queue = NULL, *walk = NULL, *seen_at = NULL;
  uint8_t *used = NULL;
  g2_point *tmp = NULL;
  ringbuf rb = {0};
  op_status st = OP_OK;
  x.first = calloc(nv + 1, sizeof *x.first);
  x.out = malloc((ne ? ne : 1) * sizeof *x.out);
  x.pos = malloc((ne ? ne : 1) * sizeof *x.pos);
  x.left = malloc((ne ? ne : 1) * sizeof *x.left);
  x.known = calloc(ne ? ne : 1, 1);
  par = malloc((nv ? nv : 1) * sizeof *par);
  comp = malloc((nv ? nv : 1) * sizeof *comp);
  queue = malloc((ne ? ne : 1) * sizeof *queue);
  walk = malloc((ne ? ne : 1) * sizeof *walk);
  seen_at = calloc(nv ? nv : 1, sizeof *seen_at);
  used = calloc(ne ? ne : 1, 1);
  tmp = malloc((ne ? ne : 1) * sizeof *tmp);
  rootw = malloc((nv ? nv : 1) * sizeof *rootw);
  if (!rootw || !x.first || !x.out || !x.pos || !x.left || !x.known || !par || !comp || !queue ||
      !walk || !seen_at || !used || !tmp) st = opc_nomem(err, "memory");
  if (st == OP_OK) {
    build_stars(&x, comp); /* comp: scratch until components() */
    components(g, par, comp);
    if (!root_windings(g, comp, rootw)) st = opc_nomem(err, "memory"); /* G2D-080 */
  }
  if (st == OP_OK) {
    face_windings(&x, comp, rootw, queue);
    if (!boundary_rings(&x, rule, used, walk, seen_at, tmp, &rb) ||
        !ring_order(&rb, snap_bits, out))
      st = opc_nomem(err, "memory");
  }
  free(x.first); free(x.out); free(x.pos); free(x.left); free(x.known);
  free(par); free(comp); free(rootw); free(queue); free(walk); free(seen_at); free(used); free(tmp);
  free(rb.pts); free(rb.start);
  return st;
}

/* Arrange the segments and extract the region under `rule`. */
static op_status arrange_extract(const g2_point *pts, size_t npts, const g2_seg *segs,
                                 size_t nsegs, int rule, int snap_bits, g2_region *out,
                                 op_error *err) {
  g2_pslg g = {0};
  op_status st = g2_arrange(pts, npts, segs, nsegs, &g, err);
  if (st != OP_OK) return st;
  st = extract(&g, rule, snap_bits, out, err);
  g2_pslg_free(&g);
  return st;
}

/* ------------------------------------------------------------------ builders */

typedef struct pslgbuf {
  g2_point *pts;
  size_t npts, pcap;
  g2_seg *segs;
  size_t nsegs, scap;
  op_alloc_count *al; /* CONF-059: NULL, or the counter of the growths below */
} pslgbuf;

static int pb_pt(pslgbuf *b, g2_point p) {
  if (b->npts >= b->pcap && opc_alloc_fail(b->al)) return 0; /* CONF-059: a growth */
  g2_point *nv = g2_grow(b->pts, &b->pcap, b->npts, sizeof *nv, 64);
  if (!nv) return 0;
  b->pts = nv;
  b->pts[b->npts++] = p;
  return 1;
}
static int pb_seg(pslgbuf *b, size_t a, size_t c, int32_t wind) {
  if (b->nsegs >= b->scap && opc_alloc_fail(b->al)) return 0; /* CONF-059: a growth */
  g2_seg *nv = g2_grow(b->segs, &b->scap, b->nsegs, sizeof *nv, 64);
  if (!nv) return 0;
  b->segs = nv;
  g2_seg s = {(uint32_t)a, (uint32_t)c, G2_SEG_BOUNDARY, wind};
  b->segs[b->nsegs++] = s;
  return 1;
}
static void pb_free(pslgbuf *b) {
  free(b->pts);
  free(b->segs);
  memset(b, 0, sizeof *b);
}

/* Append a region's ring edges with winding `wind` (G2D-022, G2D-035). */
static int pb_region(pslgbuf *b, const g2_region *r, int32_t wind) {
  for (size_t k = 0; k < r->nrings; k++) {
    size_t a = r->ring_start[k], e = r->ring_start[k + 1], base = b->npts;
    for (size_t i = a; i < e; i++)
      if (!pb_pt(b, r->pts[i])) return 0;
    for (size_t i = 0; i < e - a; i++)
      if (!pb_seg(b, base + i, base + (i + 1) % (e - a), wind)) return 0;
  }
  return 1;
}

/* Stage A of G2D-023 for one closed outline of grid points: arrange it alone, extract
** with the non-zero rule, append its ring edges to acc with `wind`. */
static op_status stage_a(const g2_point *p, size_t c, int snap_bits, pslgbuf *acc,
                         int32_t wind, pslgbuf *one, op_error *err) {
  one->npts = one->nsegs = 0;
  for (size_t j = 0; j < c; j++)
    if (!pb_pt(one, p[j])) return opc_nomem(err, "memory");
  for (size_t j = 0; j < c; j++)
    if (!pb_seg(one, j, (j + 1) % c, 1)) return opc_nomem(err, "memory");
  g2_region r = {0};
  op_status st = arrange_extract(one->pts, one->npts, one->segs, one->nsegs, RULE_NONZERO,
                                 snap_bits, &r, err);
  if (st != OP_OK) return st;
  int ok = pb_region(acc, &r, wind);
  g2_region_free(&r);
  return ok ? OP_OK : opc_nomem(err, "memory");
}

static op_status union_outlines(const g2_outline *o, size_t n, int snap_bits, pslgbuf *acc,
                                int32_t wind, const char *what, op_error *err) {
  char field[64];
  pslgbuf one = {0};
  g2_point *pts = NULL;
  size_t cap = 0;
  op_status st = OP_OK;
  if (snap_bits < 0 || snap_bits > G2_SNAP_BITS_MAX) /* G2D-001 */
    return op_fail_i(err, OP_E_RANGE, "SnapBits", snap_bits, "must be in [0, 16]");
  /* G2D-020: validate every coordinate first, so a failure changes nothing */
  for (size_t i = 0; i < n; i++) {
    if (o[i].count && !o[i].xy)
      return op_fail_i(err, OP_E_ARGUMENT, what, (long long)i, "outline without points");
    for (size_t j = 0; j < 2 * o[i].count; j++) {
      int64_t g;
      snprintf(field, sizeof field, "%s[%zu][%zu].%c", what, i, j / 2, (j & 1) ? 'y' : 'x');
      st = g2_snap_coord(o[i].xy[j], snap_bits, field, &g, err);
      if (st != OP_OK) return st;
    }
  }
  for (size_t i = 0; i < n; i++) { /* G2D-023: each outline resolved alone */
    size_t c = o[i].count;
    if (c > cap) {
      g2_point *nv = realloc(pts, c * sizeof *nv);
      if (!nv) { st = opc_nomem(err, "memory"); goto done; }
      pts = nv;
      cap = c;
    }
    for (size_t j = 0; j < c; j++) {
      g2_snap_coord(o[i].xy[2 * j], snap_bits, "x", &pts[j].x, NULL);
      g2_snap_coord(o[i].xy[2 * j + 1], snap_bits, "y", &pts[j].y, NULL);
    }
    st = stage_a(pts, c, snap_bits, acc, wind, &one, err);
    if (st != OP_OK) goto done;
  }
done:
  free(pts);
  pb_free(&one);
  return st;
}

op_status g2_region_from_outlines(const g2_outline *outlines, size_t n, int snap_bits,
                                  g2_region *out, op_error *err) {
  pslgbuf acc = {0};
  op_status st = union_outlines(outlines, n, snap_bits, &acc, 1, "Outlines", err);
  if (st == OP_OK) /* G2D-022 */
    st = arrange_extract(acc.pts, acc.npts, acc.segs, acc.nsegs, RULE_POSITIVE, snap_bits,
                         out, err);
  pb_free(&acc);
  return st;
}

op_status g2_region_difference(const g2_region *r, const g2_outline *obstacles, size_t n,
                               g2_region *out, op_error *err) {
  pslgbuf acc = {0};
  op_status st = OP_OK;
  if (!pb_region(&acc, r, 1)) { pb_free(&acc); return opc_nomem(err, "memory"); }
  /* G2D-035: obstacle rings count -2, region rings +1; inside where the sum is > 0 */
  st = union_outlines(obstacles, n, r->snap_bits, &acc, -2, "Obstacles", err);
  if (st == OP_OK)
    st = arrange_extract(acc.pts, acc.npts, acc.segs, acc.nsegs, RULE_POSITIVE, r->snap_bits,
                         out, err);
  pb_free(&acc);
  return st;
}

op_status g2_region_difference_grid(const g2_region *r, const g2_grid_outline *obstacles,
                                    size_t n, g2_region *out, op_error *err) {
  pslgbuf acc = {0}, one = {0};
  op_status st = OP_OK;
  for (size_t i = 0; i < n; i++) /* G2D-070 range of grid points */
    for (size_t j = 0; j < obstacles[i].count; j++) {
      g2_point p = obstacles[i].pts[j];
      if (p.x < -G2_GRID_MAX || p.x > G2_GRID_MAX)
        return op_fail_i(err, OP_E_RANGE, "x", (long long)p.x, "beyond +-2^37 grid units");
      if (p.y < -G2_GRID_MAX || p.y > G2_GRID_MAX)
        return op_fail_i(err, OP_E_RANGE, "y", (long long)p.y, "beyond +-2^37 grid units");
    }
  if (!pb_region(&acc, r, 1)) { st = opc_nomem(err, "memory"); goto done; }
  for (size_t i = 0; i < n && st == OP_OK; i++) /* G2D-035 with grid obstacles */
    st = stage_a(obstacles[i].pts, obstacles[i].count, r->snap_bits, &acc, -2, &one, err);
  if (st == OP_OK)
    st = arrange_extract(acc.pts, acc.npts, acc.segs, acc.nsegs, RULE_POSITIVE, r->snap_bits,
                         out, err);
done:
  pb_free(&acc);
  pb_free(&one);
  return st;
}

/* Region a with wind +1 and region b with wind wb in one arrangement, "inside when the
** winding is greater than 0": the union for wb = +1, a minus b for wb = -2. (G2D-128) */
static op_status combine(const g2_region *a, const g2_region *b, int32_t wb, int snap_bits,
                         g2_region *out, op_error *err) {
  pslgbuf acc = {0};
  op_status st = OP_OK;
  if (!pb_region(&acc, a, 1) || !pb_region(&acc, b, wb)) st = opc_nomem(err, "memory");
  else st = arrange_extract(acc.pts, acc.npts, acc.segs, acc.nsegs, RULE_POSITIVE, snap_bits,
                            out, err);
  pb_free(&acc);
  return st;
}

/* Union of parts[lo .. hi) by the balanced tree of G2D-128: one part is itself; else the
** union of [lo, mid) and [mid, hi) with mid = lo + (hi - lo) / 2, combined. */
static op_status union_tree(const g2_region *parts, size_t lo, size_t hi, int snap_bits,
                            g2_region *out, op_error *err) {
  if (hi - lo == 1) return g2_region_copy(&parts[lo], out, err);
  size_t mid = lo + (hi - lo) / 2;
  g2_region a = {0}, b = {0};
  op_status st = union_tree(parts, lo, mid, snap_bits, &a, err);
  if (st == OP_OK) st = union_tree(parts, mid, hi, snap_bits, &b, err);
  if (st == OP_OK) st = combine(&a, &b, 1, snap_bits, out, err);
  g2_region_free(&a);
  g2_region_free(&b);
  return st;
}

op_status g2_region_minus_tree(const g2_region *r, const g2_grid_outline *obstacles, size_t n,
                               g2_region *out, op_error *err) {
  for (size_t i = 0; i < n; i++) /* G2D-070 range of grid points */
    for (size_t j = 0; j < obstacles[i].count; j++) {
      g2_point p = obstacles[i].pts[j];
      if (p.x < -G2_GRID_MAX || p.x > G2_GRID_MAX)
        return op_fail_i(err, OP_E_RANGE, "x", (long long)p.x, "beyond +-2^37 grid units");
      if (p.y < -G2_GRID_MAX || p.y > G2_GRID_MAX)
        return op_fail_i(err, OP_E_RANGE, "y", (long long)p.y, "beyond +-2^37 grid units");
    }
  if (n == 0) return g2_region_copy(r, out, err);
  g2_region *parts = calloc(n, sizeof *parts);
  pslgbuf one = {0};
  g2_region u = {0};
  op_status st = OP_OK;
  if (!parts) return opc_nomem(err, "memory");
  for (size_t i = 0; i < n && st == OP_OK; i++) { /* stage A of each obstacle (G2D-023) */
    const g2_point *p = obstacles[i].pts;
    size_t c = obstacles[i].count;
    one.npts = one.nsegs = 0;
    for (size_t j = 0; j < c && st == OP_OK; j++)
      if (!pb_pt(&one, p[j])) st = opc_nomem(err, "memory");
    for (size_t j = 0; j < c && st == OP_OK; j++)
      if (!pb_seg(&one, j, (j + 1) % c, 1)) st = opc_nomem(err, "memory");
    if (st == OP_OK)
      st = arrange_extract(one.pts, one.npts, one.segs, one.nsegs, RULE_NONZERO, r->snap_bits,
                           &parts[i], err);
  }
  if (st == OP_OK) st = union_tree(parts, 0, n, r->snap_bits, &u, err);
  if (st == OP_OK) st = combine(r, &u, -2, r->snap_bits, out, err);
  for (size_t i = 0; i < n; i++) g2_region_free(&parts[i]);
  free(parts);
  g2_region_free(&u);
  pb_free(&one);
  return st;
}

op_status g2_region_copy(const g2_region *r, g2_region *out, op_error *err) {
  g2_point *p = malloc((r->npts ? r->npts : 1) * sizeof *p);
  size_t *s = malloc((r->nrings + 1) * sizeof *s);
  if (!p || !s) { free(p); free(s); return opc_nomem(err, "memory"); }
  if (r->npts) memcpy(p, r->pts, r->npts * sizeof *p);
  if (r->nrings) memcpy(s, r->ring_start, (r->nrings + 1) * sizeof *s);
  else s[0] = 0;
  out->snap_bits = r->snap_bits;
  out->pts = p;
  out->npts = r->npts;
  out->ring_start = s;
  out->nrings = r->nrings;
  return OP_OK;
}

op_status g2_region_from_tilemap(const uint8_t *cells, int32_t width, int32_t height,
                                 double ox, double oy, double cell_size, int snap_bits,
                                 g2_region *out, op_error *err) {
  return g2_region_from_tilemap_counted(cells, width, height, ox, oy, cell_size, snap_bits,
                                        NULL, out, err);
}

/* CONF-059: the corner lines and the edge lists counted on al (the arrangement after them
** is not counted). */
op_status g2_region_from_tilemap_counted(const uint8_t *cells, int32_t width, int32_t height,
                                         double ox, double oy, double cell_size,
                                         int snap_bits, op_alloc_count *al, g2_region *out,
                                         op_error *err) {
  if (snap_bits < 0 || snap_bits > G2_SNAP_BITS_MAX) /* G2D-001 */
    return op_fail_i(err, OP_E_RANGE, "SnapBits", snap_bits, "must be in [0, 16]");
  if (width < 0) return op_fail_i(err, OP_E_RANGE, "Width", width, "must be >= 0");
  if (height < 0) return op_fail_i(err, OP_E_RANGE, "Height", height, "must be >= 0");
  if (!(cell_size > 0 && cell_size <= G2_WORLD_MAX)) /* G2D-031 */
    return op_fail_d(err, OP_E_RANGE, "CellSize", cell_size, "must be in (0, 2^21]");
  if ((size_t)width * (size_t)height > ((size_t)1 << 26))
    return op_fail_i(err, OP_E_LIMIT, "Width", width, "more than 2^26 cells");
  if (width > 0 && height > 0 && !cells)
    return op_fail(err, OP_E_ARGUMENT, "Cells", "null", "no cell array");
  int64_t *gx = opc_malloc(al, ((size_t)width + 1) * sizeof *gx);
  int64_t *gy = opc_malloc(al, ((size_t)height + 1) * sizeof *gy);
  pslgbuf acc = {0};
  acc.al = al;
  op_status st = OP_OK;
  if (!gx || !gy) { st = opc_nomem(err, "memory"); goto done; }
  /* G2D-030: corner lines computed in double, then rounded to the grid */
  for (int32_t i = 0; i <= width; i++) {
    st = g2_snap_coord(ox + (double)i * cell_size, snap_bits, "OriginX", &gx[i], err);
    if (st != OP_OK) goto done;
  }
  for (int32_t j = 0; j <= height; j++) {
    st = g2_snap_coord(oy + (double)j * cell_size, snap_bits, "OriginY", &gy[j], err);
    if (st != OP_OK) goto done;
  }
  /* G2D-032: one edge per cell side between a true cell and a false or missing one,
  ** directed with the true cell on its left; runs along a line are merged. */
#define CELL(c, r) ((c) >= 0 && (r) >= 0 && (c) < width && (r) < height && \
                    cells[(size_t)(r) * (size_t)width + (size_t)(c)])
  for (int32_t j = 0; j <= height; j++) { /* horizontal line y = gy[j] */
    for (int dirn = 0; dirn < 2; dirn++) {
      int32_t i = 0;
      while (i < width) {
        /* dirn 0: cell (i, j) above true, (i, j - 1) false -> edge runs +x (left is +y) */
        int on = dirn == 0 ? (CELL(i, j) && !CELL(i, j - 1)) : (CELL(i, j - 1) && !CELL(i, j));
        if (!on) { i++; continue; }
        int32_t s0 = i;
        while (i < width && (dirn == 0 ? (CELL(i, j) && !CELL(i, j - 1))
                                       : (CELL(i, j - 1) && !CELL(i, j)))) i++;
        g2_point a = {gx[s0], gy[j]}, b = {gx[i], gy[j]};
        size_t base = acc.npts;
        if (!pb_pt(&acc, dirn == 0 ? a : b) || !pb_pt(&acc, dirn == 0 ? b : a) ||
            !pb_seg(&acc, base, base + 1, 1)) { st = opc_nomem(err, "memory"); goto done; }
      }
    }
  }
  for (int32_t i = 0; i <= width; i++) { /* vertical line x = gx[i] */
    for (int dirn = 0; dirn < 2; dirn++) {
      int32_t j = 0;
      while (j < height) {
        /* dirn 0: cell (i - 1, j) true, (i, j) false -> edge runs +y (its left is -x) */
        int on = dirn == 0 ? (CELL(i - 1, j) && !CELL(i, j)) : (CELL(i, j) && !CELL(i - 1, j));
        if (!on) { j++; continue; }
        int32_t s0 = j;
        while (j < height && (dirn == 0 ? (CELL(i - 1, j) && !CELL(i, j))
                                        : (CELL(i, j) && !CELL(i - 1, j)))) j++;
        g2_point a = {gx[i], gy[s0]}, b = {gx[i], gy[j]};
        size_t base = acc.npts;
        if (!pb_pt(&acc, dirn == 0 ? a : b) || !pb_pt(&acc, dirn == 0 ? b : a) ||
            !pb_seg(&acc, base, base + 1, 1)) { st = opc_nomem(err, "memory"); goto done; }
      }
    }
  }
#undef CELL
  st = arrange_extract(acc.pts, acc.npts, acc.segs, acc.nsegs, RULE_POSITIVE, snap_bits, out,
                       err);
done:
  free(gx);
  free(gy);
  pb_free(&acc);
  return st;
}
