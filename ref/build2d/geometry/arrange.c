/*
** arrange.c -- the snap grid helpers and the snap-rounded arrangement of
** spec/build2d-geometry.md sections 1 and 3 (G2D-001..G2D-011, G2D-040..G2D-070).
**
** One pass: hot pixels = every segment endpoint and every proper crossing rounded
** (half to even) to the grid; every segment is re-routed through the centres of the hot
** pixels whose rounding cell it meets, in order along it; the pieces are normalised,
** sorted and merged. Passes repeat until a pass changes nothing (G2D-058).
*/
#include <stdlib.h>
#include <string.h>

#include "build2d/geometry/g2d.h"
#include "math/opmath.h"

/* ------------------------------------------------------------------ grid (section 1) */

op_status g2_snap_coord(double w, int snap_bits, const char *field, int64_t *out,
                        op_error *err) {
  if (snap_bits < 0 || snap_bits > G2_SNAP_BITS_MAX) /* G2D-001 */
    return op_fail_i(err, OP_E_RANGE, "SnapBits", snap_bits, "must be in [0, 16]");
  if (!(w >= -G2_WORLD_MAX && w <= G2_WORLD_MAX)) /* G2D-003: also NaN */
    return op_fail_d(err, OP_E_RANGE, field, w, "must be finite and within +-2^21");
  double scaled = w * (double)((int64_t)1 << snap_bits); /* exact: power of two */
  *out = op_round_half_even(scaled);                      /* G2D-002 */
  return OP_OK;
}

double g2_grid_to_world(int64_t g, int snap_bits) {
  return (double)g / (double)((int64_t)1 << snap_bits); /* G2D-005: exact, |g| <= 2^37 */
}

int g2_point_cmp(g2_point a, g2_point b) { /* G2D-010 */
  if (a.x != b.x) return a.x < b.x ? -1 : 1;
  if (a.y != b.y) return a.y < b.y ? -1 : 1;
  return 0;
}

static g2_i128 cross3(g2_point a, g2_point b, g2_point c) { /* G2D-004 */
  return (g2_i128)(b.x - a.x) * (c.y - a.y) - (g2_i128)(b.y - a.y) * (c.x - a.x);
}

int g2_orient(g2_point a, g2_point b, g2_point c) { /* G2D-011 */
  g2_i128 d = cross3(a, b, c);
  return d > 0 ? 1 : d < 0 ? -1 : 0;
}

void *g2_grow(void *v, size_t *cap, size_t n, size_t size, size_t first) {
  if (n < *cap) return v;
  size_t nc = *cap ? 2 * *cap : first;
  void *p = realloc(v, nc * size);
  if (p) *cap = nc;
  return p;
}

void g2_pslg_free(g2_pslg *g) {
  if (!g) return;
  free(g->pts);
  free(g->segs);
  memset(g, 0, sizeof *g);
}

/* ------------------------------------------------------------------ helpers */

typedef struct aseg {
  g2_point p, q; /* p < q (G2D-050) */
  uint32_t flags;
  int32_t wind;  /* relative to p -> q */
} aseg;

static int aseg_cmp(const void *va, const void *vb) {
  const aseg *a = va, *b = vb;
  int c = g2_point_cmp(a->p, b->p);
  if (c) return c;
  return g2_point_cmp(a->q, b->q);
}

static int pt_cmp(const void *va, const void *vb) {
  return g2_point_cmp(*(const g2_point *)va, *(const g2_point *)vb);
}

static int pt_cmp_yx(const void *va, const void *vb) {
  const g2_point *a = va, *b = vb;
  if (a->y != b->y) return a->y < b->y ? -1 : 1;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return 0;
}

/* Floor division and round half to even of the rational n / d, d > 0 (G2D-053). */
static int64_t rdiv_even(g2_i128 n, g2_i128 d) {
  g2_i128 q = n / d, r = n % d;
  if (r < 0) { q -= 1; r += d; }
  g2_i128 twice = 2 * r;
  if (twice > d || (twice == d && (q & 1))) q += 1;
  return (int64_t)q;
}

/* Normalise p < q (flipping the wind), drop zero length, sort, merge equal pieces
** (flags OR-ed, winds added). (G2D-050, G2D-057) */
static size_t normalise(aseg *s, size_t n) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    aseg t = s[i];
    int c = g2_point_cmp(t.p, t.q);
    if (c == 0) continue;
    if (c > 0) {
      g2_point tmp = t.p; t.p = t.q; t.q = tmp;
      t.wind = -t.wind;
    }
    s[m++] = t;
  }
  if (m > 1) qsort(s, m, sizeof *s, aseg_cmp);
  size_t k = 0;
  for (size_t i = 0; i < m; i++) {
    if (k && aseg_cmp(&s[k - 1], &s[i]) == 0) {
      s[k - 1].flags |= s[i].flags;
      s[k - 1].wind += s[i].wind;
    } else {
      s[k++] = s[i];
    }
  }
  return k;
}

typedef struct ptvec {
  g2_point *v;
  size_t n, cap;
} ptvec;

/* Typed pushes (here and in region.c) share their growth in g2_grow; only the element
** type differs, which C cannot make generic without a macro. */
static int ptvec_push(ptvec *pv, g2_point p) {
  g2_point *nv = g2_grow(pv->v, &pv->cap, pv->n, sizeof *nv, 64);
  if (!nv) return 0;
  pv->v = nv;
  pv->v[pv->n++] = p;
  return 1;
}

/* Proper crossing of s and t (interiors cross at one point), rounded. (G2D-052) */
static int proper_crossing(const aseg *s, const aseg *t, g2_point *out) {
  int o1 = g2_orient(s->p, s->q, t->p), o2 = g2_orient(s->p, s->q, t->q);
  if (o1 == 0 || o2 == 0 || o1 == o2) return 0;
  int o3 = g2_orient(t->p, t->q, s->p), o4 = g2_orient(t->p, t->q, s->q);
  if (o3 == 0 || o4 == 0 || o3 == o4) return 0;
  g2_i128 dx1 = s->q.x - s->p.x, dy1 = s->q.y - s->p.y;
  g2_i128 dx2 = t->q.x - t->p.x, dy2 = t->q.y - t->p.y;
  g2_i128 den = dx1 * dy2 - dy1 * dx2;
  g2_i128 num = (g2_i128)(t->p.x - s->p.x) * dy2 - (g2_i128)(t->p.y - s->p.y) * dx2;
  if (den < 0) { den = -den; num = -num; }
  /* G2D-053: x = (p.x * den + dx1 * num) / den, same for y; |numerator| < 2^116 */
  out->x = rdiv_even((g2_i128)s->p.x * den + dx1 * num, den);
  out->y = rdiv_even((g2_i128)s->p.y * den + dy1 * num, den);
  return 1;
}

/* A parameter bound n / d (d > 0) with a closedness flag. */
typedef struct tbound {
  g2_i128 n, d;
  int closed;
} tbound;

static int tcmp(tbound a, tbound b) {
  g2_i128 l = a.n * b.d, r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
}

/* Raise lower bound lo to b (the larger wins; at equal values open wins). */
static void raise_lo(tbound *lo, tbound b) {
  int c = tcmp(b, *lo);
  if (c > 0 || (c == 0 && !b.closed)) *lo = b;
}

static void lower_hi(tbound *hi, tbound b) {
  int c = tcmp(b, *hi);
  if (c < 0 || (c == 0 && !b.closed)) *hi = b;
}

/* Does the segment p -> p + D meet the rounding cell of h (G2D-054, G2D-055)? If so,
** *entry is the lower end of the parameter interval (value and closedness). */
static int meets_cell(g2_point p, g2_point q, g2_point h, tbound *entry) {
  tbound lo = {0, 1, 1}, hi = {1, 1, 1};
  int64_t pc[2] = {p.x, p.y}, qc[2] = {q.x, q.y}, hc[2] = {h.x, h.y};
  for (int ax = 0; ax < 2; ax++) {
    int64_t dd = qc[ax] - pc[ax];
    int closed = (hc[ax] & 1) == 0; /* G2D-054: even -> closed, odd -> open */
    if (dd == 0) {
      /* |2 p - 2 h| <= 1 (or < 1) with integers: p == h. */
      if (pc[ax] != hc[ax]) return 0;
      continue;
    }
    /* t at 2p + t * 2D = 2h -+ 1 */
    g2_i128 d2 = 2 * (g2_i128)dd;
    g2_i128 n1 = 2 * (g2_i128)(hc[ax] - pc[ax]) - 1, n2 = n1 + 2;
    tbound a, b;
    if (d2 > 0) {
      a.n = n1; a.d = d2; b.n = n2; b.d = d2;
    } else {
      a.n = -n2; a.d = -d2; b.n = -n1; b.d = -d2;
    }
    a.closed = b.closed = closed;
    raise_lo(&lo, a);
    lower_hi(&hi, b);
  }
  int c = tcmp(lo, hi);
  if (c > 0 || (c == 0 && !(lo.closed && hi.closed))) return 0;
  *entry = lo;
  return 1;
}

typedef struct hit {
  tbound t;
  g2_point h;
} hit;

static int hit_cmp(const void *va, const void *vb) { /* G2D-056 */
  const hit *a = va, *b = vb;
  int c = tcmp(a->t, b->t);
  if (c) return c;
  return b->t.closed - a->t.closed; /* closed (contains its value) first */
}

static size_t lower_x(const g2_point *v, size_t n, int64_t x) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (v[m].x < x) lo = m + 1; else hi = m;
  }
  return lo;
}
static size_t lower_y(const g2_point *v, size_t n, int64_t y) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (v[m].y < y) lo = m + 1; else hi = m;
  }
  return lo;
}

typedef struct segvec {
  aseg *v;
  size_t n, cap;
} segvec;

static int segvec_push(segvec *sv, aseg s) {
  aseg *nv = g2_grow(sv->v, &sv->cap, sv->n, sizeof *nv, 64);
  if (!nv) return 0;
  sv->v = nv;
  sv->v[sv->n++] = s;
  return 1;
}

/* A uniform grid over the bounding box of the segments, used only to find candidate
** pairs and candidate hot pixels faster; it changes no result. */
typedef struct gindex {
  int64_t x0, y0, cw, ch;
  size_t g;       /* cells per axis */
  size_t *start;  /* g * g + 1 */
  uint32_t *items;
} gindex;

static size_t gcell(int64_t v, int64_t v0, int64_t c, size_t g) {
  int64_t k = (v - v0) / c;
  if (k < 0) k = 0;
  if ((size_t)k >= g) k = (int64_t)g - 1;
  return (size_t)k;
}

static void gindex_free(gindex *gi) {
  free(gi->start);
  free(gi->items);
  gi->start = NULL;
  gi->items = NULL;
}

static void seg_box(const aseg *a, int64_t *xl, int64_t *yl, int64_t *xh, int64_t *yh) {
  *xl = a->p.x; *xh = a->q.x;
  *yl = a->p.y < a->q.y ? a->p.y : a->q.y;
  *yh = a->p.y < a->q.y ? a->q.y : a->p.y;
}

/* Segments whose box covers more than this many cells are "big" and handled apart. */
static size_t big_cells(const gindex *gi) { return 4 * gi->g + 16; }

static size_t box_cells(const gindex *gi, int64_t xl, int64_t yl, int64_t xh, int64_t yh) {
  size_t ax = gcell(xl, gi->x0, gi->cw, gi->g), bx = gcell(xh, gi->x0, gi->cw, gi->g);
  size_t ay = gcell(yl, gi->y0, gi->ch, gi->g), by = gcell(yh, gi->y0, gi->ch, gi->g);
  return (bx - ax + 1) * (by - ay + 1);
}

/* Build the grid over the segments (non-big ones registered in every cell their box
** covers). Returns 0 on allocation failure. */
static int gindex_build(gindex *gi, const aseg *s, size_t n, uint8_t *big) {
  int64_t x0 = INT64_MAX, y0 = INT64_MAX, x1 = INT64_MIN, y1 = INT64_MIN;
  for (size_t i = 0; i < n; i++) {
    int64_t xl, yl, xh, yh;
    seg_box(&s[i], &xl, &yl, &xh, &yh);
    if (xl < x0) x0 = xl;
    if (yl < y0) y0 = yl;
    if (xh > x1) x1 = xh;
    if (yh > y1) y1 = yh;
  }
  size_t g = 1;
  while (g < 2048 && g * g < n) g *= 2;
  gi->g = g;
  gi->x0 = x0;
  gi->y0 = y0;
  gi->cw = n ? (x1 - x0) / (int64_t)g + 1 : 1;
  gi->ch = n ? (y1 - y0) / (int64_t)g + 1 : 1;
  gi->start = calloc(g * g + 1, sizeof *gi->start);
  if (!gi->start) return 0;
  size_t total = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < n; i++) {
      int64_t xl, yl, xh, yh;
      seg_box(&s[i], &xl, &yl, &xh, &yh);
      if (pass == 0) big[i] = box_cells(gi, xl, yl, xh, yh) > big_cells(gi);
      if (big[i]) continue;
      size_t ax = gcell(xl, x0, gi->cw, g), bx = gcell(xh, x0, gi->cw, g);
      size_t ay = gcell(yl, y0, gi->ch, g), by = gcell(yh, y0, gi->ch, g);
      for (size_t cy = ay; cy <= by; cy++)
        for (size_t cx = ax; cx <= bx; cx++) {
          if (pass == 0) gi->start[cy * g + cx + 1]++;
          else gi->items[gi->start[cy * g + cx]++] = (uint32_t)i;
        }
    }
    if (pass == 0) {
      for (size_t c = 0; c < g * g; c++) gi->start[c + 1] += gi->start[c];
      total = gi->start[g * g];
      gi->items = malloc((total ? total : 1) * sizeof *gi->items);
      if (!gi->items) return 0;
    } else {
      for (size_t c = g * g; c > 0; c--) gi->start[c] = gi->start[c - 1];
      gi->start[0] = 0;
    }
  }
  return 1;
}

/* Test the pair (i, j) for a proper crossing and record it (G2D-052, G2D-070). */
static op_status test_pair(const aseg *s, size_t i, size_t j, ptvec *hot, size_t *ncross,
                           op_error *err) {
  g2_point c;
  if (!proper_crossing(&s[i < j ? i : j], &s[i < j ? j : i], &c)) return OP_OK;
  if (++*ncross > G2_MAX_CROSSINGS)
    return op_fail_i(err, OP_E_LIMIT, "crossings", (long long)*ncross,
                     "more than 2^22 segment crossings");
  return ptvec_push(hot, c) ? OP_OK : opc_nomem(err, "memory");
}

static int boxes_meet(const aseg *a, const aseg *b) {
  int64_t axl, ayl, axh, ayh, bxl, byl, bxh, byh;
  seg_box(a, &axl, &ayl, &axh, &ayh);
  seg_box(b, &bxl, &byl, &bxh, &byh);
  return !(bxh < axl || bxl > axh || byh < ayl || byl > ayh);
}

/* G2D-052: proper crossings among all pairs, rounded, appended to hot. Candidate pairs
** come from the grid gi: a pair of non-big segments is tested in the one cell holding the
** lower-left corner of the intersection of their boxes; a big segment is tested against
** every other. */
static op_status hot_crossings(const aseg *s, size_t n, const gindex *gi, const uint8_t *big,
                               ptvec *hot, op_error *err) {
  size_t ncross = 0;
  op_status st;
  for (size_t c = 0; c < gi->g * gi->g; c++) {
    size_t a0 = gi->start[c], a1 = gi->start[c + 1];
    for (size_t u = a0; u < a1; u++)
      for (size_t v = u + 1; v < a1; v++) {
        size_t i = gi->items[u], j = gi->items[v];
        if (!boxes_meet(&s[i], &s[j])) continue;
        int64_t axl, ayl, axh, ayh, bxl, byl, bxh, byh;
        seg_box(&s[i], &axl, &ayl, &axh, &ayh);
        seg_box(&s[j], &bxl, &byl, &bxh, &byh);
        int64_t cx = axl > bxl ? axl : bxl, cy = ayl > byl ? ayl : byl;
        if (gcell(cy, gi->y0, gi->ch, gi->g) * gi->g + gcell(cx, gi->x0, gi->cw, gi->g) != c)
          continue;
        if ((st = test_pair(s, i, j, hot, &ncross, err)) != OP_OK) return st;
      }
  }
  for (size_t i = 0; i < n; i++) {
    if (!big[i]) continue;
    for (size_t j = 0; j < n; j++) {
      if (j == i || (big[j] && j < i) || !boxes_meet(&s[i], &s[j])) continue;
      if ((st = test_pair(s, i, j, hot, &ncross, err)) != OP_OK) return st;
    }
  }
  return OP_OK;
}

/* The distinct hot pixels of one pass, in three orders for the candidate searches. */
typedef struct hotset {
  const g2_point *v; /* sorted by (x, y), distinct (borrowed: the pass's hot list) */
  g2_point *byy;     /* the same points sorted by (y, x) (owned) */
  size_t n;
  gindex cells;      /* indices into v by cell of the segments' grid (owned) */
} hotset;

static void hotset_free(hotset *hs) {
  free(hs->byy);
  gindex_free(&hs->cells);
}

/* The hot pixels made distinct (hot->v sorted and deduplicated in place) and indexed by
** (y, x) and by the cells of gi, into *hs. */
static op_status hot_index(ptvec *hot, const gindex *gi, hotset *hs, op_error *err) {
  if (hot->n > 1) qsort(hot->v, hot->n, sizeof *hot->v, pt_cmp);
  size_t nh = 0;
  for (size_t i = 0; i < hot->n; i++)
    if (!nh || g2_point_cmp(hot->v[nh - 1], hot->v[i]) != 0) hot->v[nh++] = hot->v[i];
  hs->v = hot->v;
  hs->n = nh;
  hs->byy = malloc((nh ? nh : 1) * sizeof *hs->byy);
  if (!hs->byy) return opc_nomem(err, "memory");
  if (nh) memcpy(hs->byy, hot->v, nh * sizeof *hs->byy);
  if (nh > 1) qsort(hs->byy, nh, sizeof *hs->byy, pt_cmp_yx);
  /* hot pixels by grid cell (the same grid as the segments) */
  gindex *hi = &hs->cells;
  hi->x0 = gi->x0; hi->y0 = gi->y0; hi->cw = gi->cw; hi->ch = gi->ch; hi->g = gi->g;
  hi->start = calloc(hi->g * hi->g + 1, sizeof *hi->start);
  hi->items = malloc((nh ? nh : 1) * sizeof *hi->items);
  if (!hi->start || !hi->items) return opc_nomem(err, "memory");
  for (size_t k = 0; k < nh; k++)
    hi->start[gcell(hot->v[k].y, hi->y0, hi->ch, hi->g) * hi->g +
              gcell(hot->v[k].x, hi->x0, hi->cw, hi->g) + 1]++;
  for (size_t c = 0; c < hi->g * hi->g; c++) hi->start[c + 1] += hi->start[c];
  for (size_t k = 0; k < nh; k++)
    hi->items[hi->start[gcell(hot->v[k].y, hi->y0, hi->ch, hi->g) * hi->g +
                        gcell(hot->v[k].x, hi->x0, hi->cw, hi->g)]++] = (uint32_t)k;
  for (size_t c = hi->g * hi->g; c > 0; c--) hi->start[c] = hi->start[c - 1];
  hi->start[0] = 0;
  return OP_OK;
}

/* The hits along one segment (the array is reused from segment to segment). */
typedef struct hitvec {
  hit *v;
  size_t cap;
} hitvec;

/* G2D-055 .. G2D-057: segment a (big: not on the grid) re-routed through the centres of
** the hot pixels whose rounding cell it meets, in order along it; the pieces appended to
** outv. */
static op_status reroute(const aseg *a, int big, const hotset *hs, hitvec *hv, segvec *outv,
                         op_error *err) {
  const gindex *hi = &hs->cells;
  size_t nh = hs->n;
  g2_point p = a->p, q = a->q;
  int64_t ylo = p.y < q.y ? p.y : q.y, yhi = p.y < q.y ? q.y : p.y;
  size_t xa = lower_x(hs->v, nh, p.x), xb = lower_x(hs->v, nh, q.x + 1);
  size_t ya = lower_y(hs->byy, nh, ylo), yb = lower_y(hs->byy, nh, yhi + 1);
  const g2_point *cand = (xb - xa <= yb - ya) ? hs->v + xa : hs->byy + ya;
  size_t ncand = (xb - xa <= yb - ya) ? xb - xa : yb - ya;
  /* non-big segments: candidates from the grid cells their box covers */
  size_t cxa = 0, cxb = 0, cya = 0, cyb = 0;
  int use_grid = 0;
  if (!big) {
    cxa = gcell(p.x, hi->x0, hi->cw, hi->g); cxb = gcell(q.x, hi->x0, hi->cw, hi->g);
    cya = gcell(ylo, hi->y0, hi->ch, hi->g); cyb = gcell(yhi, hi->y0, hi->ch, hi->g);
    size_t inbox = 0;
    for (size_t cy = cya; cy <= cyb; cy++)
      inbox += hi->start[cy * hi->g + cxb + 1] - hi->start[cy * hi->g + cxa];
    if (inbox < ncand) { use_grid = 1; ncand = inbox; }
  }
  g2_i128 dx = q.x - p.x, dy = q.y - p.y;
  g2_i128 l1 = (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
  size_t nhit = 0;
  size_t gcy = cya, gk = use_grid ? hi->start[cya * hi->g + cxa] : 0;
  for (size_t k = 0; k < ncand; k++) {
    g2_point h;
    if (use_grid) {
      /* rows cya..cyb, each the contiguous run of cells cxa..cxb */
      while (gk >= hi->start[gcy * hi->g + cxb + 1]) {
        gcy++;
        gk = hi->start[gcy * hi->g + cxa];
      }
      h = hs->v[hi->items[gk++]];
    } else {
      h = cand[k];
    }
    if (h.x < p.x || h.x > q.x || h.y < ylo || h.y > yhi) continue;
    g2_i128 cr = cross3(p, q, h);
    if (cr < 0) cr = -cr;
    if (2 * cr > l1) continue; /* the line misses the closed square around h */
    tbound t;
    if (!meets_cell(p, q, h, &t)) continue;
    hit *nv = g2_grow(hv->v, &hv->cap, nhit, sizeof *nv, 16);
    if (!nv) return opc_nomem(err, "memory");
    hv->v = nv;
    hv->v[nhit].t = t;
    hv->v[nhit].h = h;
    nhit++;
  }
  if (nhit > 1) qsort(hv->v, nhit, sizeof *hv->v, hit_cmp); /* G2D-056 */
  for (size_t k = 0; k + 1 < nhit; k++) { /* G2D-057 */
    aseg f = {hv->v[k].h, hv->v[k + 1].h, a->flags, a->wind};
    if (!segvec_push(outv, f)) return opc_nomem(err, "memory");
  }
  return OP_OK;
}

/* One snap-rounding pass over the normalised segments s[0..n) (G2D-051..G2D-057).
** Writes the new normalised segment list to *outv. */
static op_status snap_pass(const aseg *s, size_t n, segvec *outv, op_error *err) {
  ptvec hot = {0};
  uint8_t *big = malloc(n ? n : 1);
  gindex gi = {0, 0, 1, 1, 1, NULL, NULL};
  hotset hs = {NULL, NULL, 0, {0, 0, 1, 1, 1, NULL, NULL}};
  hitvec hv = {NULL, 0};
  op_status st = big ? OP_OK : opc_nomem(err, "memory");
  for (size_t i = 0; st == OP_OK && i < n; i++) /* G2D-051: endpoints */
    if (!ptvec_push(&hot, s[i].p) || !ptvec_push(&hot, s[i].q)) st = opc_nomem(err, "memory");
  if (st == OP_OK && !gindex_build(&gi, s, n, big)) st = opc_nomem(err, "memory");
  if (st == OP_OK) st = hot_crossings(s, n, &gi, big, &hot, err); /* G2D-052 */
  if (st == OP_OK) st = hot_index(&hot, &gi, &hs, err);
  for (size_t i = 0; st == OP_OK && i < n; i++) /* G2D-055, G2D-056 */
    st = reroute(&s[i], big[i], &hs, &hv, outv, err);
  if (st == OP_OK) outv->n = normalise(outv->v, outv->n);
  free(hot.v);
  free(big);
  gindex_free(&gi);
  hotset_free(&hs);
  free(hv.v);
  return st;
}

static int same_list(const aseg *a, size_t na, const aseg *b, size_t nb) {
  if (na != nb) return 0;
  for (size_t i = 0; i < na; i++)
    if (aseg_cmp(&a[i], &b[i]) || a[i].flags != b[i].flags || a[i].wind != b[i].wind)
      return 0;
  return 1;
}

static size_t find_pt(const g2_point *v, size_t n, g2_point p) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (g2_point_cmp(v[m], p) < 0) lo = m + 1; else hi = m;
  }
  return lo;
}

op_status g2_arrange(const g2_point *pts, size_t npts, const g2_seg *segs, size_t nsegs,
                     g2_pslg *out, op_error *err) {
  return g2_arrange_limited(pts, npts, segs, nsegs, G2_MAX_SNAP_PASSES, out, err);
}

op_status g2_arrange_limited(const g2_point *pts, size_t npts, const g2_seg *segs,
                             size_t nsegs, int max_passes, g2_pslg *out, op_error *err) {
  if (nsegs > G2_MAX_SEGMENTS) /* G2D-070 */
    return op_fail_i(err, OP_E_LIMIT, "segments", (long long)nsegs,
                     "more than 2^22 segments");
  for (size_t i = 0; i < npts; i++) { /* G2D-070, G2D-003 */
    if (pts[i].x < -G2_GRID_MAX || pts[i].x > G2_GRID_MAX)
      return op_fail_i(err, OP_E_RANGE, "x", (long long)pts[i].x, "beyond +-2^37 grid units");
    if (pts[i].y < -G2_GRID_MAX || pts[i].y > G2_GRID_MAX)
      return op_fail_i(err, OP_E_RANGE, "y", (long long)pts[i].y, "beyond +-2^37 grid units");
  }
  for (size_t i = 0; i < nsegs; i++)
    if (segs[i].a >= npts || segs[i].b >= npts)
      return op_fail_i(err, OP_E_ARGUMENT, "segment",
                       (long long)(segs[i].a >= npts ? segs[i].a : segs[i].b),
                       "point index out of range");
  segvec cur = {0}, nxt = {0};
  op_status st = OP_OK;
  cur.v = malloc((nsegs ? nsegs : 1) * sizeof *cur.v);
  if (!cur.v) return opc_nomem(err, "memory");
  cur.cap = nsegs ? nsegs : 1;
  for (size_t i = 0; i < nsegs; i++) {
    aseg t = {pts[segs[i].a], pts[segs[i].b], segs[i].flags, segs[i].wind};
    cur.v[cur.n++] = t;
  }
  cur.n = normalise(cur.v, cur.n); /* G2D-050 */
  int converged = 0;
  for (int pass = 0; pass < max_passes; pass++) { /* G2D-058 */
    nxt.n = 0;
    st = snap_pass(cur.v, cur.n, &nxt, err);
    if (st != OP_OK) goto fail;
    int same = same_list(cur.v, cur.n, nxt.v, nxt.n);
    segvec tmp = cur; cur = nxt; nxt = tmp;
    if (same) { converged = 1; break; }
  }
  if (!converged) {
    st = op_fail_i(err, OP_E_LIMIT, "passes", max_passes,
                   "snap rounding did not settle within the maximum of passes");
    goto fail;
  }
  /* G2D-059: output points sorted, segments (a < b) sorted */
  {
    g2_point *pv = malloc((cur.n ? 2 * cur.n : 1) * sizeof *pv);
    g2_seg *sv = malloc((cur.n ? cur.n : 1) * sizeof *sv);
    if (!pv || !sv) { free(pv); free(sv); st = opc_nomem(err, "memory"); goto fail; }
    size_t np = 0;
    for (size_t i = 0; i < cur.n; i++) { pv[np++] = cur.v[i].p; pv[np++] = cur.v[i].q; }
    qsort(pv, np, sizeof *pv, pt_cmp);
    size_t k = 0;
    for (size_t i = 0; i < np; i++)
      if (!k || g2_point_cmp(pv[k - 1], pv[i]) != 0) pv[k++] = pv[i];
    np = k;
    for (size_t i = 0; i < cur.n; i++) {
      sv[i].a = (uint32_t)find_pt(pv, np, cur.v[i].p);
      sv[i].b = (uint32_t)find_pt(pv, np, cur.v[i].q);
      sv[i].flags = cur.v[i].flags;
      sv[i].wind = cur.v[i].wind;
    }
    out->pts = pv;
    out->npts = np;
    out->segs = sv;
    out->nsegs = cur.n;
  }
fail:
  free(cur.v);
  free(nxt.v);
  return st;
}
