/*
** cdt.c -- the constrained Delaunay triangulation of the 2D builder
** (spec/build2d-geometry.md, section 6, G2D-200 .. G2D-207).
**
** Input: an arrangement's PSLG (points distinct and sorted by (x, y), segments meeting
** only at shared endpoints). Output: the unique triangulation of the points' convex
** hull that contains every segment and is Delaunay under the written tie rule
** (G2D-203), with each triangle's winding number (G2D-206).
**
** Construction (any construction that ends locally Delaunay gives the same output,
** G2D-205): incremental insertion in Hilbert order with Lawson flips builds the
** Delaunay triangulation; each segment is inserted by removing the triangles it crosses
** and re-triangulating both sides; Lawson flips then make every non-constraint edge
** locally Delaunay.
** Directed edges are found through a hash table from (u, v) to the triangle that has
** the edge u -> v.
*/
#include <stdlib.h>
#include <string.h>

#include "build2d/geometry/g2d.h"
#include "core/alloc.h"

/* ------------------------------------------------------------ exact predicates */

static int orient(g2_point a, g2_point b, g2_point c) { /* G2D-201 */
  g2_i128 d = (g2_i128)(b.x - a.x) * (c.y - a.y) - (g2_i128)(b.y - a.y) * (c.x - a.x);
  return d > 0 ? 1 : d < 0 ? -1 : 0;
}

/* A signed 256-bit integer as four 64-bit limbs, two's complement, limb 0 lowest. */
typedef struct i256 { uint64_t w[4]; } i256;

static i256 i256_neg(i256 a) {
  i256 r;
  unsigned carry = 1;
  for (int i = 0; i < 4; i++) {
    uint64_t v = ~a.w[i];
    r.w[i] = v + carry;
    carry = carry && r.w[i] == 0;
  }
  return r;
}

static i256 i256_add(i256 a, i256 b) {
  i256 r;
  unsigned carry = 0;
  for (int i = 0; i < 4; i++) {
    uint64_t s = a.w[i] + b.w[i];
    unsigned c1 = s < a.w[i];
    uint64_t t = s + carry;
    unsigned c2 = t < s;
    r.w[i] = t;
    carry = c1 | c2;
  }
  return r;
}

/* Exact product of two signed 128-bit integers (each |v| < 2^126). G2D-202 */
static i256 i256_mul(g2_i128 a, g2_i128 b) {
  int neg = (a < 0) != (b < 0);
  unsigned __int128 ua = a < 0 ? (unsigned __int128)(-a) : (unsigned __int128)a;
  unsigned __int128 ub = b < 0 ? (unsigned __int128)(-b) : (unsigned __int128)b;
  uint64_t x[2] = {(uint64_t)ua, (uint64_t)(ua >> 64)};
  uint64_t y[2] = {(uint64_t)ub, (uint64_t)(ub >> 64)};
  i256 r = {{0, 0, 0, 0}};
  for (int i = 0; i < 2; i++) {
    unsigned __int128 carry = 0;
    for (int j = 0; j < 2; j++) {
      unsigned __int128 t = (unsigned __int128)x[i] * y[j] + r.w[i + j] + carry;
      r.w[i + j] = (uint64_t)t;
      carry = t >> 64;
    }
    r.w[i + 2] = (uint64_t)carry;
  }
  return neg ? i256_neg(r) : r;
}

static int i256_sign(i256 a) {
  if (a.w[3] >> 63) return -1;
  return (a.w[0] | a.w[1] | a.w[2] | a.w[3]) ? 1 : 0;
}

/* G2D-202: sign of the in-circle determinant, exact. */
int g2_incircle(g2_point a, g2_point b, g2_point c, g2_point d) {
  int64_t adx = a.x - d.x, ady = a.y - d.y;
  int64_t bdx = b.x - d.x, bdy = b.y - d.y;
  int64_t cdx = c.x - d.x, cdy = c.y - d.y;
  g2_i128 al = (g2_i128)adx * adx + (g2_i128)ady * ady;
  g2_i128 bl = (g2_i128)bdx * bdx + (g2_i128)bdy * bdy;
  g2_i128 cl = (g2_i128)cdx * cdx + (g2_i128)cdy * cdy;
  g2_i128 bc = (g2_i128)bdx * cdy - (g2_i128)bdy * cdx;
  g2_i128 ca = (g2_i128)cdx * ady - (g2_i128)cdy * adx;
  g2_i128 ab = (g2_i128)adx * bdy - (g2_i128)ady * bdx;
  i256 s = i256_add(i256_add(i256_mul(al, bc), i256_mul(bl, ca)), i256_mul(cl, ab));
  return i256_sign(s);
}

/* G2D-203: the in-circle test with the tie rule. a, b, c counter-clockwise; indices
** into the sorted points, so a larger index is later in (x, y) order. Returns 1 when
** d counts as inside. */
static int incircle_tb(const g2_point *p, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  int s = g2_incircle(p[a], p[b], p[c], p[d]);
  if (s) return s > 0;
  uint32_t m = a;
  if (b > m) m = b;
  if (c > m) m = c;
  if (d > m) return 1;
  if (m == a) return orient(p[d], p[b], p[c]) < 0;
  if (m == b) return orient(p[a], p[d], p[c]) < 0;
  return orient(p[a], p[b], p[d]) < 0;
}

/* ------------------------------------------------------------ triangle store */

typedef struct emap { /* directed edge (u, v) -> triangle; open addressing */
  uint64_t *key;      /* (u << 32 | v) + 1; 0 = empty */
  uint32_t *val;
  size_t mask;
} emap;

typedef struct cdt {
  const g2_point *p;
  size_t np;
  uint32_t *v;     /* 3 per triangle; v[0] == G2_NO_TRI marks a free slot */
  size_t nt, cap;
  uint32_t *freel; /* free slots */
  size_t nfree;
  uint32_t *vt;    /* a triangle holding each point */
  emap e;          /* directed edges */
  emap cons;       /* constraint edges (min, max) -> segment index */
  uint32_t *stack; /* flip stack of triangles and edge numbers (2 per entry) */
  size_t nstack, capstack;
  op_alloc_count *al; /* CONF-059: NULL, or the counter of every allocation below */
  uint64_t made;      /* triangles created so far, flips included (the work count) */
} cdt;

static uint64_t ekey(uint32_t u, uint32_t v) { return (((uint64_t)u << 32) | v) + 1; }

static size_t ehash(uint64_t k, size_t mask) {
  k ^= k >> 30; /* the SplitMix64 finaliser (MATH-041): keys of nearby edges spread out */
  k *= 0xbf58476d1ce4e5b9ull;
  k ^= k >> 27;
  k *= 0x94d049bb133111ebull;
  k ^= k >> 31;
  return (size_t)k & mask;
}

static int emap_init(emap *m, size_t n, op_alloc_count *al) {
  size_t cap = 16;
  while (cap < 2 * n + 16) cap <<= 1;
  m->key = opc_calloc(al, cap, sizeof *m->key);
  m->val = opc_malloc(al, cap * sizeof *m->val);
  m->mask = cap - 1;
  return m->key && m->val ? 0 : -1;
}

static void emap_free(emap *m) {
  free(m->key);
  free(m->val);
}

static void emap_put(emap *m, uint32_t u, uint32_t v, uint32_t t) {
  uint64_t k = ekey(u, v);
  size_t i = ehash(k, m->mask);
  while (m->key[i] && m->key[i] != k) i = (i + 1) & m->mask;
  m->key[i] = k;
  m->val[i] = t;
}

static uint32_t emap_get(const emap *m, uint32_t u, uint32_t v) {
  uint64_t k = ekey(u, v);
  size_t i = ehash(k, m->mask);
  while (m->key[i]) {
    if (m->key[i] == k) return m->val[i];
    i = (i + 1) & m->mask;
  }
  return G2_NO_TRI;
}

static void emap_del(emap *m, uint32_t u, uint32_t v) { /* backward-shift deletion */
  uint64_t k = ekey(u, v);
  size_t i = ehash(k, m->mask);
  while (m->key[i] && m->key[i] != k) i = (i + 1) & m->mask;
  if (!m->key[i]) return;
  size_t j = i;
  for (;;) {
    m->key[i] = 0;
    for (;;) {
      j = (j + 1) & m->mask;
      if (!m->key[j]) return;
      size_t h = ehash(m->key[j], m->mask);
      /* move j to i when h is not cyclically in (i, j] */
      if (i <= j ? (h <= i || h > j) : (h <= i && h > j)) break;
    }
    m->key[i] = m->key[j];
    m->val[i] = m->val[j];
    i = j;
  }
}

static uint32_t tri_new(cdt *c, uint32_t a, uint32_t b, uint32_t d) {
  uint32_t t = c->nfree ? c->freel[--c->nfree] : (uint32_t)c->nt++;
  c->made++;
  c->v[3 * t] = a;
  c->v[3 * t + 1] = b;
  c->v[3 * t + 2] = d;
  emap_put(&c->e, a, b, t);
  emap_put(&c->e, b, d, t);
  emap_put(&c->e, d, a, t);
  c->vt[a] = c->vt[b] = c->vt[d] = t;
  return t;
}

static void tri_del(cdt *c, uint32_t t) {
  uint32_t *v = &c->v[3 * t];
  emap_del(&c->e, v[0], v[1]);
  emap_del(&c->e, v[1], v[2]);
  emap_del(&c->e, v[2], v[0]);
  v[0] = G2_NO_TRI;
  c->freel[c->nfree++] = t;
}

static int is_cons(const cdt *c, uint32_t u, uint32_t v) {
  return emap_get(&c->cons, u < v ? u : v, u < v ? v : u) != G2_NO_TRI;
}

static int push(cdt *c, uint32_t u, uint32_t v) {
  int grows = c->nstack + 1 >= c->capstack; /* CONF-059: only a growth is an allocation */
  uint32_t *s = grows && opc_alloc_fail(c->al)
                    ? NULL
                    : g2_grow(c->stack, &c->capstack, c->nstack + 1, sizeof *s, 256); /* 2 more */
  if (!s) return -1;
  c->stack = s;
  c->stack[c->nstack++] = u;
  c->stack[c->nstack++] = v;
  return 0;
}

/* Index (0..2) of point u in triangle t. */
static int vidx(const cdt *c, uint32_t t, uint32_t u) {
  const uint32_t *v = &c->v[3 * t];
  return v[0] == u ? 0 : v[1] == u ? 1 : 2;
}

static int flip_loop(cdt *c);

/* ------------------------------------------------------------ Delaunay (G2D-205) */

/* Builds some triangulation of the convex hull: points in index order, each joined to
** the hull edges it sees strictly. Returns 0 (also when all points are collinear: no
** triangles), -1 on a broken precondition. */
/* Insertion order (speed only, G2D-205): a biased randomised insertion order. Each point
** draws a round from a hash of its number (round r holds about a 2^-(r+1) share of the
** points, the highest and rarest round first), and within a round the points follow a Hilbert curve
** over the bounding square, so that each point is found by a short walk from the previous
** one. The random rounds bound the expected flips per point whatever the input's shape; a
** Hilbert order alone lets an input of two long rows of points re-flip a fan of O(n)
** triangles at every insertion. */
static uint64_t hilbert(uint32_t x, uint32_t y) { /* 16-bit x, y -> 32-bit index */
  uint64_t d = 0;
  for (uint32_t s = 1u << 15; s; s >>= 1) {
    uint32_t rx = (x & s) ? 1 : 0, ry = (y & s) ? 1 : 0;
    d += (uint64_t)s * s * ((3 * rx) ^ ry);
    if (!ry) {
      if (rx) { x = s - 1 - (x & (s - 1)) + (x & ~(s - 1)); y = s - 1 - (y & (s - 1)) + (y & ~(s - 1)); }
      uint32_t t = x; x = y; y = t;
    }
  }
  return d;
}

typedef struct hkey { uint32_t r; uint64_t h; uint32_t i; } hkey;

static int hkey_cmp(const void *pa, const void *pb) {
  const hkey *a = pa, *b = pb;
  if (a->r != b->r) return a->r > b->r ? -1 : 1; /* the rarest round first */
  if (a->h != b->h) return a->h < b->h ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

/* The round of point i: the count of trailing zero bits of a mixing hash of i (the
** SplitMix64 finaliser), at most 32. Fixed by i alone, so the cost is reproducible. */
static uint32_t brio_round(uint32_t i) {
  uint64_t z = (uint64_t)i + 0x9E3779B97F4A7C15u;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  z ^= z >> 31;
  uint32_t r = 0;
  while (r < 32 && !(z & 1)) { z >>= 1; r++; }
  return r;
}

/* 16-bit cell of coordinate v in [lo, hi]. */
static uint32_t cell16(int64_t v, int64_t lo, int64_t hi) {
  if (hi == lo) return 0;
  return (uint32_t)(((unsigned __int128)(uint64_t)(v - lo) * 65535u) / (uint64_t)(hi - lo));
}

typedef struct hull { uint32_t *next, *prev; } hull;

/* Joins q (outside the hull) to every hull edge it sees strictly, starting from the
** visible hull edge a -> b. */
static int add_outside(cdt *c, hull *h, uint32_t a, uint32_t b, uint32_t q) {
  const g2_point *p = c->p;
  uint32_t u = b, w = a;
  while (orient(p[u], p[h->next[u]], p[q]) < 0) u = h->next[u];
  while (orient(p[h->prev[w]], p[w], p[q]) < 0) w = h->prev[w];
  for (uint32_t x = w; x != u;) {
    uint32_t y = h->next[x];
    tri_new(c, y, x, q);
    if (push(c, y, x)) return -2;
    x = y;
  }
  h->next[w] = q; h->prev[q] = w; h->next[q] = u; h->prev[u] = q;
  return 0;
}

/* Inserts point q into the triangulation (Delaunay so far), starting the walk at t. */
static int insert_point(cdt *c, hull *h, uint32_t t, uint32_t q, unsigned *rot) {
  const g2_point *p = c->p;
  for (;;) { /* visibility walk; the rotating start edge keeps it from cycling */
    uint32_t *v = &c->v[3 * t];
    int moved = 0;
    unsigned r0 = (*rot)++ % 3;
    for (unsigned k = 0; k < 3 && !moved; k++) {
      unsigned i = (r0 + k) % 3;
      uint32_t a = v[i], b = v[(i + 1) % 3];
      if (orient(p[a], p[b], p[q]) < 0) {
        uint32_t t2 = emap_get(&c->e, b, a);
        if (t2 == G2_NO_TRI) return add_outside(c, h, a, b, q);
        t = t2;
        moved = 1;
      }
    }
    if (!moved) break;
  }
  uint32_t a = c->v[3 * t], b = c->v[3 * t + 1], d = c->v[3 * t + 2];
  uint32_t tri[3] = {a, b, d};
  for (int i = 0; i < 3; i++) { /* on an edge? */
    uint32_t x = tri[i], y = tri[(i + 1) % 3], z = tri[(i + 2) % 3];
    if (orient(p[x], p[y], p[q]) != 0) continue;
    uint32_t t2 = emap_get(&c->e, y, x);
    tri_del(c, t);
    tri_new(c, x, q, z);
    tri_new(c, q, y, z);
    if (push(c, y, z) || push(c, z, x)) return -2;
    if (t2 == G2_NO_TRI) { /* on the hull edge x -> y */
      h->next[x] = q; h->prev[q] = x; h->next[q] = y; h->prev[y] = q;
      return 0;
    }
    uint32_t w = c->v[3 * t2 + (vidx(c, t2, y) + 2) % 3];
    tri_del(c, t2);
    tri_new(c, y, q, w);
    tri_new(c, q, x, w);
    if (push(c, x, w) || push(c, w, y)) return -2;
    return 0;
  }
  tri_del(c, t);
  tri_new(c, a, b, q);
  tri_new(c, b, d, q);
  tri_new(c, d, a, q);
  if (push(c, a, b) || push(c, b, d) || push(c, d, a)) return -2;
  return 0;
}

/* Builds the Delaunay triangulation (tie rule G2D-203) of all points by incremental
** insertion with flips. Returns 0 (also when all points are collinear: no triangles),
** -1 on a broken precondition, -2 out of memory. */
static int build_dt(cdt *c) {
  const g2_point *p = c->p;
  size_t n = c->np;
  if (n < 3) return 0;
  size_t k = 2;
  while (k < n && orient(p[0], p[1], p[k]) == 0) k++;
  if (k == n) return 0;
  hkey *o = opc_malloc(c->al, n * sizeof *o);
  hull h;
  h.next = opc_malloc(c->al, n * sizeof *h.next);
  h.prev = opc_malloc(c->al, n * sizeof *h.prev);
  if (!o || !h.next || !h.prev) { free(o); free(h.next); free(h.prev); return -2; }
  int64_t x0 = p[0].x, x1 = p[n - 1].x, y0 = p[0].y, y1 = p[0].y;
  for (size_t i = 0; i < n; i++) {
    if (p[i].y < y0) y0 = p[i].y;
    if (p[i].y > y1) y1 = p[i].y;
  }
  int64_t side = x1 - x0 > y1 - y0 ? x1 - x0 : y1 - y0; /* the bounding square */
  for (size_t i = 0; i < n; i++) {
    o[i].r = brio_round((uint32_t)i);
    o[i].h = hilbert(cell16(p[i].x, x0, x0 + side), cell16(p[i].y, y0, y0 + side));
    o[i].i = (uint32_t)i;
  }
  qsort(o, n, sizeof *o, hkey_cmp);
  /* the first triangle: points 0, 1 and k, counter-clockwise */
  uint32_t A = 0, B = 1, C = (uint32_t)k;
  if (orient(p[A], p[B], p[C]) < 0) { uint32_t t = A; A = B; B = t; }
  tri_new(c, A, B, C);
  h.next[A] = B; h.next[B] = C; h.next[C] = A;
  h.prev[B] = A; h.prev[C] = B; h.prev[A] = C;
  unsigned rot = 0;
  int rc = 0;
  uint32_t last = C;
  for (size_t j = 0; j < n && !rc; j++) {
    uint32_t q = o[j].i;
    if (q == 0 || q == 1 || q == (uint32_t)k) continue;
    rc = insert_point(c, &h, c->vt[last], q, &rot);
    if (!rc) rc = flip_loop(c);
    last = q;
  }
  free(o); free(h.next); free(h.prev);
  return rc;
}

/* ------------------------------------------------------------ constraints (G2D-205) */

/* Triangulates the pseudo-polygon s -> e -> ch[k-1] -> ... -> ch[0] -> s (every ch[i]
** left of s -> e) by the Delaunay choice of the apex, recursively. */
static int pseudo(cdt *c, uint32_t s, uint32_t e, const uint32_t *ch, size_t k) {
  if (k == 0) return 0;
  size_t m = 0;
  for (size_t j = 1; j < k; j++)
    if (incircle_tb(c->p, s, e, ch[m], ch[j])) m = j;
  tri_new(c, s, e, ch[m]);
  if (pseudo(c, s, ch[m], ch, m)) return -1;
  return pseudo(c, ch[m], e, ch + m + 1, k - m - 1);
}

/* Inserts segment a - b. Returns 0, -1 when the segment passes through a point or
** leaves the hull (broken precondition), -2 out of memory. */
static int insert_seg(cdt *c, uint32_t a, uint32_t b) {
  const g2_point *p = c->p;
  if (emap_get(&c->e, a, b) != G2_NO_TRI || emap_get(&c->e, b, a) != G2_NO_TRI) return 0;
  /* find the triangle around a whose wedge holds the direction to b */
  uint32_t t0 = c->vt[a], t = t0, x = 0, y = 0, found = G2_NO_TRI;
  for (int dir = 0; dir < 2 && found == G2_NO_TRI; dir++) {
    t = t0;
    while (t != G2_NO_TRI) {
      int i = vidx(c, t, a);
      x = c->v[3 * t + (i + 1) % 3];
      y = c->v[3 * t + (i + 2) % 3];
      if (orient(p[a], p[x], p[b]) > 0 && orient(p[a], p[y], p[b]) < 0) { found = t; break; }
      if (orient(p[a], p[x], p[b]) == 0 && orient(p[a], p[y], p[b]) < 0 &&
          (p[x].x - p[a].x) * (p[b].x - p[a].x) + (p[x].y - p[a].y) * (p[b].y - p[a].y) > 0)
        return -1; /* a point lies on the open segment */
      t = dir == 0 ? emap_get(&c->e, a, y) : emap_get(&c->e, x, a);
      if (t == t0) break;
    }
  }
  if (found == G2_NO_TRI) return -1;
  size_t cap = 64, nl = 0, nr = 0, nd = 0;
  uint32_t *L = opc_malloc(c->al, cap * sizeof *L), *R = opc_malloc(c->al, cap * sizeof *R),
           *D = opc_malloc(c->al, cap * sizeof *D);
  int rc = 0;
  if (!L || !R || !D) { rc = -2; goto done; }
  R[nr++] = x;
  L[nl++] = y;
  D[nd++] = found;
  for (;;) {
    uint32_t t2 = emap_get(&c->e, y, x);
    if (t2 == G2_NO_TRI) { rc = -1; goto done; }
    int i = vidx(c, t2, y);
    uint32_t z = c->v[3 * t2 + (i + 2) % 3];
    if (nd + 1 > cap || nl + 1 > cap || nr + 1 > cap) {
      cap *= 2;
      uint32_t *L2 = opc_realloc(c->al, L, cap * sizeof *L); if (L2) L = L2;
      uint32_t *R2 = opc_realloc(c->al, R, cap * sizeof *R); if (R2) R = R2;
      uint32_t *D2 = opc_realloc(c->al, D, cap * sizeof *D); if (D2) D = D2;
      if (!L2 || !R2 || !D2) { rc = -2; goto done; }
    }
    D[nd++] = t2;
    if (z == b) break;
    int o = orient(p[a], p[b], p[z]);
    if (o == 0) { rc = -1; goto done; }
    if (o > 0) { L[nl++] = z; y = z; }
    else { R[nr++] = z; x = z; }
  }
  for (size_t i = 0; i < nd; i++) tri_del(c, D[i]);
  /* left polygon a -> b -> L[nl-1] .. L[0]; right polygon b -> a -> R[0] .. R[nr-1],
  ** whose chain from b's side is R reversed */
  for (size_t i = 0; i < nr / 2; i++) { uint32_t s = R[i]; R[i] = R[nr - 1 - i]; R[nr - 1 - i] = s; }
  if (pseudo(c, a, b, L, nl) || pseudo(c, b, a, R, nr)) rc = -1;
done:
  free(L); free(R); free(D);
  return rc;
}

/* ------------------------------------------------------------ Lawson flips (G2D-205) */

/* Flips edges from the stack until the stack is empty. */
static int flip_loop(cdt *c) {
  while (c->nstack) {
    uint32_t w = c->stack[--c->nstack], u = c->stack[--c->nstack];
    uint32_t t1 = emap_get(&c->e, u, w), t2 = emap_get(&c->e, w, u);
    if (t1 == G2_NO_TRI || t2 == G2_NO_TRI || is_cons(c, u, w)) continue;
    uint32_t cc = c->v[3 * t1 + (vidx(c, t1, u) + 2) % 3];
    uint32_t d = c->v[3 * t2 + (vidx(c, t2, w) + 2) % 3];
    if (!incircle_tb(c->p, u, w, cc, d)) continue;
    /* the quadrilateral u d w cc is strictly convex here (G2D-205) */
    if (orient(c->p[cc], c->p[d], c->p[w]) <= 0 || orient(c->p[d], c->p[cc], c->p[u]) <= 0)
      continue;
    tri_del(c, t1);
    tri_del(c, t2);
    tri_new(c, cc, u, d);
    tri_new(c, d, w, cc);
    if (push(c, u, d) || push(c, d, w) || push(c, w, cc) || push(c, cc, u)) return -2;
  }
  return 0;
}

static int legalize_all(cdt *c) {
  for (uint32_t t = 0; t < c->nt; t++) {
    if (c->v[3 * t] == G2_NO_TRI) continue;
    for (int i = 0; i < 3; i++) {
      uint32_t u = c->v[3 * t + i], w = c->v[3 * t + (i + 1) % 3];
      if (u < w && push(c, u, w)) return -2;
    }
  }
  return flip_loop(c);
}

/* ------------------------------------------------------------ output */

typedef struct otri { uint32_t v[3]; uint32_t old; } otri;

static int otri_cmp(const void *pa, const void *pb) {
  const otri *a = pa, *b = pb;
  for (int i = 0; i < 3; i++)
    if (a->v[i] != b->v[i]) return a->v[i] < b->v[i] ? -1 : 1;
  return 0;
}

void g2_cdt_free(g2_cdt *c) {
  if (!c) return;
  free(c->tri);
  free(c->nei);
  free(c->cons);
  free(c->wind);
  memset(c, 0, sizeof *c);
}

static void cdt_release(cdt *c) {
  free(c->v);
  free(c->freel);
  free(c->vt);
  free(c->stack);
  emap_free(&c->e);
  emap_free(&c->cons);
}

/* Winding of the crossing u -> v seen from its left side (G2D-206): the segment's
** wind when its stored direction is u -> v, minus it otherwise; 0 for non-constraints. */
static int32_t edge_wind(const cdt *c, const g2_pslg *g, uint32_t u, uint32_t v) {
  uint32_t s = emap_get(&c->cons, u < v ? u : v, u < v ? v : u);
  if (s == G2_NO_TRI) return 0;
  return g->segs[s].a == u ? g->segs[s].wind : -g->segs[s].wind;
}

/* G2D-200: the input an arrangement gives: a point count that fits, points sorted and
** distinct, segment endpoints valid and distinct. */
static op_status check_pslg(const g2_pslg *g, op_error *err) {
  size_t n = g->npts;
  if (n >= 0x7fffffffu / 2)
    return op_fail_i(err, OP_E_LIMIT, "points", (long long)n, "too many points to triangulate");
  for (size_t i = 1; i < n; i++) /* G2D-200 precondition */
    if (g->pts[i - 1].x > g->pts[i].x ||
        (g->pts[i - 1].x == g->pts[i].x && g->pts[i - 1].y >= g->pts[i].y))
      return op_fail_i(err, OP_E_ARGUMENT, "points", (long long)i, "points not sorted and distinct");
  for (size_t s = 0; s < g->nsegs; s++)
    if (g->segs[s].a >= n || g->segs[s].b >= n || g->segs[s].a == g->segs[s].b)
      return op_fail_i(err, OP_E_ARGUMENT, "segments", (long long)s, "bad segment endpoints");
  return OP_OK;
}

/* G2D-201 .. G2D-205 on c (set up for g): the Delaunay triangulation, every segment
** inserted once (a repeated one is skipped), then the final legalisation. */
static op_status triangulate(cdt *c, const g2_pslg *g, op_error *err) {
  op_status st = OP_OK;
  int rc = build_dt(c);
  for (size_t s = 0; rc == 0 && s < g->nsegs; s++) {
    uint32_t a = g->segs[s].a, b = g->segs[s].b;
    if (emap_get(&c->cons, a < b ? a : b, a < b ? b : a) != G2_NO_TRI) continue;
    emap_put(&c->cons, a < b ? a : b, a < b ? b : a, (uint32_t)s);
    if (c->nt) rc = insert_seg(c, a, b); /* collinear points: no triangles at all */
    if (rc == -1) { st = op_fail_i(err, OP_E_ARGUMENT, "segments", (long long)s,
                                    "segment crosses a point or another segment"); }
  }
  if (rc == 0) rc = legalize_all(c);
  if (rc == -2) st = opc_nomem(err, "region");
  else if (rc == -1 && st == OP_OK)
    st = op_fail(err, OP_E_ARGUMENT, "points", "", "triangulation precondition broken");
  return st;
}

/* G2D-207: the live triangles of c, each from its smallest vertex, sorted, with their
** neighbours and constraint bits, into r (arrays allocated by the caller, nt triangles).
** o: nt + 1 and map: c->nt + 1 scratch entries. */
static void canonical_order(const cdt *c, size_t nt, otri *o, uint32_t *map, g2_cdt *r) {
  size_t k = 0;
  for (uint32_t t = 0; t < c->nt; t++) {
    const uint32_t *v = &c->v[3 * t];
    if (v[0] == G2_NO_TRI) continue;
    int m = v[0] < v[1] ? (v[0] < v[2] ? 0 : 2) : (v[1] < v[2] ? 1 : 2);
    for (int i = 0; i < 3; i++) o[k].v[i] = v[(m + i) % 3];
    o[k].old = t;
    k++;
  }
  qsort(o, nt, sizeof *o, otri_cmp);
  for (size_t i = 0; i < nt; i++) map[o[i].old] = (uint32_t)i;
  for (size_t i = 0; i < nt; i++)
    for (int j = 0; j < 3; j++) {
      uint32_t u = o[i].v[j], w = o[i].v[(j + 1) % 3];
      r->tri[3 * i + j] = u;
      uint32_t nb = emap_get(&c->e, w, u);
      r->nei[3 * i + j] = nb == G2_NO_TRI ? G2_NO_TRI : map[nb];
      if (is_cons(c, u, w)) r->cons[i] |= (uint8_t)(1u << j);
    }
}

/* G2D-206: winding numbers, from the outside (0) across the hull inwards, breadth first.
** queue: nt + 1 entries; seen: nt + 1 zeroed bytes. */
static void windings(const cdt *c, const g2_pslg *g, g2_cdt *r, uint32_t *queue,
                     uint8_t *seen) {
  size_t nt = r->ntris, qh = 0, qt = 0;
  for (size_t i = 0; i < nt; i++)
    for (int j = 0; j < 3; j++)
      if (r->nei[3 * i + j] == G2_NO_TRI && !seen[i]) {
        uint32_t u = r->tri[3 * i + j], w = r->tri[3 * i + (j + 1) % 3];
        r->wind[i] = edge_wind(c, g, u, w);
        seen[i] = 1;
        queue[qt++] = (uint32_t)i;
      }
  while (qh < qt) {
    uint32_t i = queue[qh++];
    for (int j = 0; j < 3; j++) {
      uint32_t nb = r->nei[3 * i + j];
      if (nb == G2_NO_TRI || seen[nb]) continue;
      uint32_t u = r->tri[3 * i + j], w = r->tri[3 * i + (j + 1) % 3];
      r->wind[nb] = r->wind[i] - edge_wind(c, g, u, w);
      seen[nb] = 1;
      queue[qt++] = nb;
    }
  }
}

/* G2D-200 .. G2D-207 by the steps above; on failure *out is untouched. */
op_status g2_cdt_build(const g2_pslg *g, g2_cdt *out, op_error *err) {
  return g2_cdt_build_counted(g, NULL, out, err);
}

/* CONF-059: every allocation of the triangulation counted on al. */
op_status g2_cdt_build_counted(const g2_pslg *g, op_alloc_count *al, g2_cdt *out,
                               op_error *err) {
  op_status st = check_pslg(g, err);
  if (st) return st;
  size_t n = g->npts;
  cdt c;
  memset(&c, 0, sizeof c);
  c.p = g->pts;
  c.np = n;
  c.al = al;
  c.cap = 2 * n + 8;
  c.v = opc_malloc(al, 3 * c.cap * sizeof *c.v);
  c.freel = opc_malloc(al, c.cap * sizeof *c.freel);
  c.vt = opc_malloc(al, (n + 1) * sizeof *c.vt);
  if (!c.v || !c.freel || !c.vt || emap_init(&c.e, 3 * c.cap, al) ||
      emap_init(&c.cons, g->nsegs, al)) {
    cdt_release(&c);
    return opc_nomem(err, "region");
  }
  if ((st = triangulate(&c, g, err))) { cdt_release(&c); return st; }
  size_t nt = c.nt - c.nfree;
  otri *o = opc_malloc(al, (nt + 1) * sizeof *o);
  uint32_t *map = opc_malloc(al, (c.nt + 1) * sizeof *map);
  g2_cdt r;
  memset(&r, 0, sizeof r);
  r.ntris = nt;
  r.tri = opc_malloc(al, (3 * nt + 1) * sizeof *r.tri);
  r.nei = opc_malloc(al, (3 * nt + 1) * sizeof *r.nei);
  r.cons = opc_calloc(al, nt + 1, 1);
  r.wind = opc_calloc(al, nt + 1, sizeof *r.wind);
  uint32_t *queue = opc_malloc(al, (nt + 1) * sizeof *queue);
  uint8_t *seen = opc_calloc(al, nt + 1, 1);
  if (!o || !map || !r.tri || !r.nei || !r.cons || !r.wind || !queue || !seen) {
    free(o); free(map); free(queue); free(seen); g2_cdt_free(&r); cdt_release(&c);
    return opc_nomem(err, "region");
  }
  canonical_order(&c, nt, o, map, &r); /* G2D-207 */
  windings(&c, g, &r, queue, seen);     /* G2D-206 */
  free(o); free(map); free(queue); free(seen);
  r.made = c.made;
  cdt_release(&c);
  *out = r;
  return OP_OK;
}
