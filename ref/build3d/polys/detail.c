/*
** detail.c -- the detail mesh of the 3D build (spec/build3d-polys.md section 4,
** POLY-200 .. POLY-209, POLY-250 .. POLY-257). Without height sampling a tile has no
** detail mesh (POLY-201). With sampling every polygon gets its own small triangle mesh:
** the polygon's edges sampled every S cells and simplified to the height tolerance, then
** interior grid samples inserted one by one (greatest height error first) into the
** Delaunay triangulation under the 2D builder's tie rule (G2D-203, G2D-204: the hull by
** g2_cdt_build, each insertion by Lawson flips) until every sample lies within
** DetailSampleMaxError or the polygon has 128 points. Positions are integers in detail units
** (1/16 cell), heights are floor rows of the compact heightfield; every decision is an
** integer comparison or a comparison of binary64 quotients, each rounded once.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build3d/polys/assembly.h"
#include "build2d/geometry/g2d.h"
#include "core/internal.h"
#include "math/opmath.h"

#define DU OP_DETAIL_UNIT          /* POLY-204: detail units per cell */
#define MAXPTS OP_DETAIL_MAX_POINTS /* POLY-208: points per polygon */
#define MAXSEGS OP_DETAIL_MAX_EDGE_SEGS /* POLY-206: segments per edge */

/* POLY-202: the detail rule. Every valid setting is accepted: sampling is specified
** (POLY-203 and up). Kept as the pipeline's validation hook. */
op_status op_detail_check(const op_settings *s, op_error *err) {
  if (!s) return op_fail(err, OP_E_ARGUMENT, "settings", "NULL", "settings are required");
  return OP_OK;
}

/* POLY-203: the sample step S in cells (0: no sampling). */
int32_t op_detail_step(const op_settings *s) {
  double d = s->detail_sample_distance;
  if (!(d > 0.9)) return 0; /* SPAN-025, POLY-201 */
  if (d < 1.0) return 1;
  if (d >= 65536.0) return 65536;
  return (int32_t)d; /* floor of a positive value */
}

/* ------------------------------------------------------------------ per polygon */

typedef struct dpt {
  int32_t x, z; /* detail units (POLY-204), tile-local */
  int32_t y;    /* floor row */
  int32_t edge; /* polygon edge the point lies on (edge samples), -1 otherwise */
} dpt;

typedef struct cand {
  int32_t x, z, y; /* detail units, row */
  int used;        /* inserted (POLY-253) */
  uint32_t key;    /* the triangle its error was computed in (tri_key), 0: none yet */
  double err;      /* its error against that triangle (POLY-252) */
} cand;

typedef struct dctx {
  const op_pmesh *pm;
  const op_chf *chf;
  int32_t S;
  double E;
  double dist; /* DetailSampleDistance, for the limit error */
  /* the polygon being built */
  uint32_t n;          /* its vertices */
  dpt pts[MAXPTS];     /* points in output order (POLY-208, POLY-254) */
  uint32_t np;
  dpt *esm;            /* edge samples before the hull limit, scratch */
  uint32_t nesm, cesm;
  cand *cands;
  uint32_t ncands, ccands;
  /* the current triangulation: triangle t is points tv[3t .. 3t+2], counter-clockwise;
  ** tn[3t + i] the triangle across its edge i (tv[3t+i] -> tv[3t+(i+1)%3]) or NOTRI */
  uint32_t tv[6 * MAXPTS], tn[6 * MAXPTS];
  uint32_t nt;
  uint32_t keys[2 * MAXPTS]; /* its triangles' keys, sorted */
} dctx;

static int64_t orient64(int64_t ax, int64_t az, int64_t bx, int64_t bz, int64_t cx,
                        int64_t cz) {
  return (bx - ax) * (cz - az) - (bz - az) * (cx - ax);
}

/* POLY-205: the floor row nearest to the reference num / den (den > 0) among the spans
** of the four columns around the cell corner nearest to (X, Z); ties to the lower row.
** Returns 0 when none of those columns has a span. */
static int sample_height(const dctx *c, int64_t X, int64_t Z, int64_t num, int64_t den,
                         int32_t *y) {
  const op_chf *chf = c->chf;
  int32_t b = c->pm->map.border;
  int64_t cx = (X + DU / 2) / DU, cz = (Z + DU / 2) / DU; /* X, Z >= 0 */
  int found = 0;
  int64_t best = 0;
  int32_t besty = 0;
  for (int k = 0; k < 4; k++) {
    int64_t gx = cx - 1 + (k & 1) + b, gz = cz - 1 + (k >> 1) + b;
    if (gx < 0 || gz < 0 || gx >= chf->grid.width || gz >= chf->grid.depth) continue;
    size_t col = (size_t)gz * (size_t)chf->grid.width + (size_t)gx;
    uint32_t i0 = chf->cell_index[col], cnt = chf->cell_count[col];
    for (uint32_t i = i0; i < i0 + cnt; i++) {
      int64_t sy = chf->spans[i].y;
      int64_t d = sy * den - num;
      if (d < 0) d = -d;
      if (!found || d < best || (d == best && sy < besty)) {
        found = 1;
        best = d;
        besty = (int32_t)sy;
      }
    }
  }
  *y = besty;
  return found;
}

static int push_esm(dctx *c, dpt p) {
  if (c->nesm == c->cesm) {
    uint32_t nc = c->cesm ? 2 * c->cesm : 64;
    dpt *q = realloc(c->esm, nc * sizeof *q);
    if (!q) return -1;
    c->esm = q;
    c->cesm = nc;
  }
  c->esm[c->nesm++] = p;
  return 0;
}

/* POLY-207: height error of sample m against the line through samples i and j, as
** fl(N / D) with the exact integers N and D. */
static double edge_err(const int32_t *k, const int32_t *h, int i, int j, int m) {
  int64_t D = (int64_t)k[j] - k[i];
  int64_t N = ((int64_t)h[m] - h[i]) * D - ((int64_t)h[j] - h[i]) * ((int64_t)k[m] - k[i]);
  if (N < 0) N = -N;
  return (double)N / (double)D;
}

/* POLY-207: keep the sample of greatest error between kept samples i and j while it
** exceeds E (ties: the sample nearest to i), recursively. */
static void edge_simplify(const int32_t *k, const int32_t *h, const int *ok, int i, int j,
                          double E, int *keep) {
  int best = -1;
  double be = -1;
  for (int m = i + 1; m < j; m++) {
    if (!ok[m]) continue;
    double e = edge_err(k, h, i, j, m);
    if (e > be) {
      be = e;
      best = m;
    }
  }
  if (best < 0 || !(be > E)) return;
  keep[best] = 1;
  edge_simplify(k, h, ok, i, best, E, keep);
  edge_simplify(k, h, ok, best, j, E, keep);
}

static int64_t gcd64(int64_t a, int64_t b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static int64_t isqrt64(int64_t v) { /* greatest r with r * r <= v, v >= 0 */
  int64_t r = 0;
  for (int64_t bit = (int64_t)1 << 30; bit; bit >>= 1)
    if ((r + bit) * (r + bit) <= v) r += bit;
  return r;
}

/* POLY-206: the kept samples of polygon edge e (vertex e to vertex e + 1), appended to
** c->esm in the order from vertex e to vertex e + 1. */
static int edge_samples(dctx *c, const uint16_t *pv, uint32_t e) {
  const int32_t *va = c->pm->verts + 3 * (size_t)pv[e];
  const int32_t *vb = c->pm->verts + 3 * (size_t)pv[(e + 1) % c->n];
  int rev = vb[0] < va[0] || (vb[0] == va[0] && vb[2] < va[2]); /* from the lesser end */
  const int32_t *A = rev ? vb : va, *B = rev ? va : vb;
  int64_t dx = (int64_t)B[0] - A[0], dz = (int64_t)B[2] - A[2];
  int64_t g = gcd64(dx, dz), gm = g * DU;
  int64_t nn = 1 + isqrt64(dx * dx + dz * dz) / c->S;
  if (nn > MAXSEGS) nn = MAXSEGS;
  if (nn > gm) nn = gm;
  if (nn < 2) return 0;
  int32_t k[MAXSEGS + 1], h[MAXSEGS + 1];
  int ok[MAXSEGS + 1], keep[MAXSEGS + 1];
  for (int64_t j = 0; j <= nn; j++) {
    k[j] = (int32_t)((2 * j * gm + nn) / (2 * nn)); /* round half up of j * gm / nn */
    keep[j] = 0;
    ok[j] = 1;
    if (j == 0 || j == nn) {
      h[j] = j == 0 ? A[1] : B[1];
      continue;
    }
    int64_t X = (int64_t)A[0] * DU + k[j] * (dx / g), Z = (int64_t)A[2] * DU + k[j] * (dz / g);
    int64_t num = (int64_t)A[1] * gm + ((int64_t)B[1] - A[1]) * k[j];
    ok[j] = sample_height(c, X, Z, num, gm, &h[j]);
  }
  edge_simplify(k, h, ok, 0, (int)nn, c->E, keep);
  for (int64_t jj = 1; jj < nn; jj++) {
    int64_t j = rev ? nn - jj : jj;
    if (!keep[j]) continue;
    dpt p;
    p.x = (int32_t)((int64_t)A[0] * DU + k[j] * (dx / g));
    p.z = (int32_t)((int64_t)A[2] * DU + k[j] * (dz / g));
    p.y = h[j];
    p.edge = (int32_t)e;
    if (push_esm(c, p)) return -1;
  }
  return 0;
}

/* A triangle as one integer: its points from the least, counter-clockwise; never 0. */
static uint32_t tri_key(const uint32_t *v) {
  int s = v[0] < v[1] ? (v[0] < v[2] ? 0 : 2) : (v[1] < v[2] ? 1 : 2);
  return 0x1000000u | (v[s] << 16) | (v[(s + 1) % 3] << 8) | v[(s + 2) % 3];
}

static int key_cmp(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

#define NOTRI 0xffffffffu

static void refresh_keys(dctx *c) {
  for (uint32_t i = 0; i < c->nt; i++) c->keys[i] = tri_key(c->tv + 3 * i);
  qsort(c->keys, c->nt, sizeof *c->keys, key_cmp);
}

/* POLY-209: the Delaunay triangulation (G2D-204, no segments) of pts[0 .. np-1] (the hull
** points), built by the 2D builder's g2_cdt_build on the points sorted by rank (G2D-010),
** every triangle taken (no windings); triangles are kept in POLY-254's point indices. */
static int triangulate(dctx *c) {
  uint32_t np = c->np;
  uint32_t ord[MAXPTS];
  for (uint32_t i = 0; i < np; i++) ord[i] = i;
  for (uint32_t i = 1; i < np; i++) { /* insertion sort by (x, z): G2D-010 */
    uint32_t v = ord[i], j = i;
    while (j > 0 && (c->pts[ord[j - 1]].x > c->pts[v].x ||
                     (c->pts[ord[j - 1]].x == c->pts[v].x && c->pts[ord[j - 1]].z > c->pts[v].z))) {
      ord[j] = ord[j - 1];
      j--;
    }
    ord[j] = v;
  }
  g2_point gp[MAXPTS];
  for (uint32_t i = 0; i < np; i++) {
    gp[i].x = c->pts[ord[i]].x;
    gp[i].y = c->pts[ord[i]].z;
  }
  g2_pslg g;
  memset(&g, 0, sizeof g);
  g.pts = gp;
  g.npts = np;
  g2_cdt t;
  op_error e;
  if (g2_cdt_build(&g, &t, &e) != OP_OK) return -1;
  if (t.ntris > 2 * MAXPTS) { /* cannot happen: 2 np - 5 triangles at most */
    g2_cdt_free(&t);
    return -1;
  }
  c->nt = (uint32_t)t.ntris;
  for (size_t i = 0; i < 3 * t.ntris; i++) {
    c->tv[i] = ord[t.tri[i]];
    c->tn[i] = t.nei[i] == G2_NO_TRI ? NOTRI : t.nei[i];
  }
  g2_cdt_free(&t);
  refresh_keys(c);
  return 0;
}

/* G2D-203: does d count as inside the circle of a, b, c (counter-clockwise)? Ties go by
** the point of greatest rank, last in (x, z) order (G2D-010, POLY-209). */
static int later(const dpt *p, const dpt *q) { return p->x != q->x ? p->x > q->x : p->z > q->z; }
static int inside(const dpt *a, const dpt *b, const dpt *c, const dpt *d) {
  g2_point A = {a->x, a->z}, B = {b->x, b->z}, C = {c->x, c->z}, D = {d->x, d->z};
  int s = g2_incircle(A, B, C, D);
  if (s) return s > 0;
  const dpt *m = a;
  if (later(b, m)) m = b;
  if (later(c, m)) m = c;
  if (later(d, m)) return 1;
  if (m == a) return orient64(d->x, d->z, b->x, b->z, c->x, c->z) < 0;
  if (m == b) return orient64(a->x, a->z, d->x, d->z, c->x, c->z) < 0;
  return orient64(a->x, a->z, b->x, b->z, d->x, d->z) < 0;
}

/* In triangle nb (if any), the edge u -> v now borders triangle t. */
static void relink(dctx *c, uint32_t nb, uint32_t u, uint32_t v, uint32_t t) {
  if (nb == NOTRI) return;
  for (int i = 0; i < 3; i++)
    if (c->tv[3 * nb + i] == u && c->tv[3 * nb + (i + 1) % 3] == v) c->tn[3 * nb + i] = t;
}

/* Triangle t becomes (a, b, q) with neighbours n0 across a -> b, n1 across b -> q and n2
** across q -> a; the outer neighbour n0 is told. */
static void set_tri(dctx *c, uint32_t t, uint32_t a, uint32_t b, uint32_t q, uint32_t n0,
                    uint32_t n1, uint32_t n2) {
  c->tv[3 * t] = a;
  c->tv[3 * t + 1] = b;
  c->tv[3 * t + 2] = q;
  c->tn[3 * t] = n0;
  c->tn[3 * t + 1] = n1;
  c->tn[3 * t + 2] = n2;
  relink(c, n0, b, a, t);
}

/* POLY-209 (informative construction, G2D-205): point q, strictly inside the polygon, is
** added to the Delaunay triangulation of the other points by splitting the triangle (or
** the two triangles of the edge) it lies in and Lawson flips under G2D-203. The result is
** the Delaunay triangulation of all the points, the one g2_cdt_build would give. */
static int insert_point(dctx *c, uint32_t q) {
  const dpt *p = &c->pts[q];
  uint32_t t = NOTRI;
  int64_t w[3] = {0, 0, 0};
  for (uint32_t i = 0; i < c->nt && t == NOTRI; i++) {
    const uint32_t *v = c->tv + 3 * i;
    for (int k = 0; k < 3; k++) { /* w[k]: the turn of edge k seen from p */
      const dpt *a = &c->pts[v[k]], *b = &c->pts[v[(k + 1) % 3]];
      w[k] = orient64(a->x, a->z, b->x, b->z, p->x, p->z);
    }
    if (w[0] >= 0 && w[1] >= 0 && w[2] >= 0) t = i;
  }
  if (t == NOTRI || c->nt + 2 > 2 * MAXPTS) return -1;
  uint32_t stack[6 * MAXPTS], ns = 0;
  int e = w[0] == 0 ? 0 : w[1] == 0 ? 1 : w[2] == 0 ? 2 : -1;
  uint32_t a = c->tv[3 * t + (e < 0 ? 0 : e)], b = c->tv[3 * t + (e < 0 ? 1 : (e + 1) % 3)],
           d = c->tv[3 * t + (e < 0 ? 2 : (e + 2) % 3)];
  uint32_t nab = c->tn[3 * t + (e < 0 ? 0 : e)], nbd = c->tn[3 * t + (e < 0 ? 1 : (e + 1) % 3)],
           nda = c->tn[3 * t + (e < 0 ? 2 : (e + 2) % 3)];
  if (e < 0) { /* inside triangle (a, b, d): three triangles around q */
    uint32_t t1 = c->nt++, t2 = c->nt++;
    set_tri(c, t, a, b, q, nab, t1, t2);
    set_tri(c, t1, b, d, q, nbd, t2, t);
    set_tri(c, t2, d, a, q, nda, t, t1);
    stack[ns++] = t;
    stack[ns++] = t1;
    stack[ns++] = t2;
  } else { /* on edge a -> b of triangle (a, b, d), shared with s = (b, a, x) if any */
    uint32_t s = nab, t1 = c->nt++;
    set_tri(c, t, b, d, q, nbd, t1, NOTRI);
    set_tri(c, t1, d, a, q, nda, NOTRI, t);
    stack[ns++] = t;
    stack[ns++] = t1;
    if (s != NOTRI) {
      int j = 0;
      while (c->tv[3 * s + j] != b) j++;
      uint32_t x = c->tv[3 * s + (j + 2) % 3];
      uint32_t nax = c->tn[3 * s + (j + 1) % 3], nxb = c->tn[3 * s + (j + 2) % 3];
      uint32_t s1 = c->nt++;
      set_tri(c, s, a, x, q, nax, s1, t1);
      set_tri(c, s1, x, b, q, nxb, t, s);
      c->tn[3 * t + 2] = s1; /* q -> b borders s1 */
      c->tn[3 * t1 + 1] = s;  /* a -> q borders s */
      stack[ns++] = s;
      stack[ns++] = s1;
    }
  }
  while (ns) { /* Lawson flips: edge 0 of each stacked triangle lies opposite q */
    uint32_t u = stack[--ns];
    uint32_t ea = c->tv[3 * u], eb = c->tv[3 * u + 1], s = c->tn[3 * u];
    if (s == NOTRI) continue;
    int j = 0;
    while (c->tv[3 * s + j] != eb) j++; /* s = (eb, ea, x) from index j */
    uint32_t x = c->tv[3 * s + (j + 2) % 3];
    if (!inside(&c->pts[ea], &c->pts[eb], &c->pts[q], &c->pts[x])) continue;
    uint32_t nax = c->tn[3 * s + (j + 1) % 3], nxb = c->tn[3 * s + (j + 2) % 3];
    uint32_t nbq = c->tn[3 * u + 1], nqa = c->tn[3 * u + 2];
    set_tri(c, u, ea, x, q, nax, s, nqa);
    set_tri(c, s, x, eb, q, nxb, nbq, u);
    relink(c, nbq, q, eb, s);
    stack[ns++] = u;
    stack[ns++] = s;
  }
  refresh_keys(c);
  return 0;
}

/* POLY-251: the height of the current triangulation at (X, Z) as num / den (den > 0),
** from the first triangle that contains the point. Returns 0 when none does. */
static int surface_at(const dctx *c, int64_t X, int64_t Z, int64_t *num, int64_t *den,
                      uint32_t *key) {
  for (uint32_t t = 0; t < c->nt; t++) {
    const dpt *a = &c->pts[c->tv[3 * t]], *b = &c->pts[c->tv[3 * t + 1]],
              *d = &c->pts[c->tv[3 * t + 2]];
    int64_t wa = orient64(b->x, b->z, d->x, d->z, X, Z);
    if (wa < 0) continue;
    int64_t wb = orient64(d->x, d->z, a->x, a->z, X, Z);
    if (wb < 0) continue;
    int64_t wc = orient64(a->x, a->z, b->x, b->z, X, Z);
    if (wc < 0) continue;
    *num = wa * a->y + wb * b->y + wc * d->y;
    *den = wa + wb + wc;
    if (key) *key = tri_key(c->tv + 3 * t);
    return 1;
  }
  return 0;
}

static int push_cand(dctx *c, cand k) {
  if (c->ncands == c->ccands) {
    uint32_t nc = c->ccands ? 2 * c->ccands : 64;
    cand *q = realloc(c->cands, nc * sizeof *q);
    if (!q) return -1;
    c->cands = q;
    c->ccands = nc;
  }
  c->cands[c->ncands++] = k;
  return 0;
}

/* POLY-250, POLY-252: the interior candidates of the polygon, row by row, with their
** rows against the hull triangulation. */
static int interior_samples(dctx *c, const uint16_t *pv) {
  c->ncands = 0;
  int64_t S = c->S;
  int32_t x0 = INT32_MAX, x1 = 0, z0 = INT32_MAX, z1 = 0;
  for (uint32_t i = 0; i < c->n; i++) {
    const int32_t *v = c->pm->verts + 3 * (size_t)pv[i];
    if (v[0] < x0) x0 = v[0];
    if (v[0] > x1) x1 = v[0];
    if (v[2] < z0) z0 = v[2];
    if (v[2] > z1) z1 = v[2];
  }
  for (int64_t z = (z0 + S - 1) / S * S; z <= z1; z += S)
    for (int64_t x = (x0 + S - 1) / S * S; x <= x1; x += S) {
      int inside = 1;
      for (uint32_t i = 0; i < c->n && inside; i++) {
        const int32_t *a = c->pm->verts + 3 * (size_t)pv[i];
        const int32_t *b = c->pm->verts + 3 * (size_t)pv[(i + 1) % c->n];
        int64_t o = orient64(a[0], a[2], b[0], b[2], x, z);
        int64_t ex = (int64_t)b[0] - a[0], ez = (int64_t)b[2] - a[2];
        if (o <= 0 || 4 * o * o < S * S * (ex * ex + ez * ez)) inside = 0;
      }
      if (!inside) continue;
      cand k;
      int64_t num, den;
      k.x = (int32_t)(x * DU);
      k.z = (int32_t)(z * DU);
      k.used = 0;
      k.key = 0;
      k.err = 0;
      if (!surface_at(c, k.x, k.z, &num, &den, NULL)) continue; /* cannot happen: inside */
      if (!sample_height(c, k.x, k.z, num, den, &k.y)) continue;
      if (push_cand(c, k)) return -1;
    }
  return 0;
}

/* POLY-253: insert the interior sample of greatest error while it exceeds E and the
** polygon has fewer than MAXPTS points. Errors are compared as binary64 values; equal ones
** tie, and the strict comparison keeps the first in POLY-250 order. */
static int insert_samples(dctx *c) {
  while (c->np < MAXPTS) {
    int64_t best = -1;
    double be = -1;
    for (uint32_t i = 0; i < c->ncands; i++) {
      cand *k = &c->cands[i];
      if (k->used) continue;
      /* the error depends on the containing triangle only (POLY-251): recomputed when
      ** that triangle is gone */
      if (!k->key || !bsearch(&k->key, c->keys, c->nt, sizeof *c->keys, key_cmp)) {
        int64_t num, den;
        if (!surface_at(c, k->x, k->z, &num, &den, &k->key)) continue;
        int64_t N = (int64_t)k->y * den - num;
        if (N < 0) N = -N;
        k->err = (double)N / (double)den;
      }
      double e = k->err;
      if (e > be) {
        be = e;
        best = i;
      }
    }
    if (best < 0 || !(be > c->E)) break;
    cand *k = &c->cands[best];
    k->used = 1;
    dpt p = {k->x, k->z, k->y, -1};
    c->pts[c->np++] = p;
    if (insert_point(c, c->np - 1)) return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------ the tile */

typedef struct dout {
  op_detail_mesh m;
  uint32_t cverts, ctris;
} dout;

static int grow(void **p, uint32_t *cap, uint32_t need, size_t elem) {
  if (need <= *cap) return 0;
  uint32_t nc = *cap ? *cap : 256;
  while (nc < need) nc *= 2;
  void *q = realloc(*p, (size_t)nc * elem);
  if (!q) return -1;
  *p = q;
  *cap = nc;
  return 0;
}

/* POLY-255: boundary flag of the triangle edge from point u to point v. */
static int on_boundary(const dctx *c, uint32_t u, uint32_t v) {
  int32_t eu0, eu1, ev0, ev1;
  if (u < c->n) { eu0 = (int32_t)u; eu1 = (int32_t)((u + c->n - 1) % c->n); }
  else { eu0 = eu1 = c->pts[u].edge; }
  if (v < c->n) { ev0 = (int32_t)v; ev1 = (int32_t)((v + c->n - 1) % c->n); }
  else { ev0 = ev1 = c->pts[v].edge; }
  if (eu0 < 0 || ev0 < 0) return 0;
  return eu0 == ev0 || eu0 == ev1 || eu1 == ev0 || eu1 == ev1;
}

typedef struct otri { uint32_t v[3]; } otri;
static int otri_cmp(const void *pa, const void *pb) {
  const otri *a = pa, *b = pb;
  for (int i = 0; i < 3; i++)
    if (a->v[i] != b->v[i]) return a->v[i] < b->v[i] ? -1 : 1;
  return 0;
}

/* POLY-204, POLY-254: tile-local binary32 position of a detail point. */
static void detail_pos(const op_tilemap *map, const dpt *p, float out[3]) {
  float fw = op_to_f32((double)map->width * map->cs); /* FMT-008 */
  double eps = map->cs / 1024.0;
  float pos[3];
  op_tilemap_pos(map, 0, p->y, 0, pos); /* the y of POLY-004 with the offset of POLY-212 */
  out[1] = pos[1];
  for (int k = 0; k < 2; k++) {
    double v = ((double)(k ? p->z : p->x) * map->cs) / (double)DU;
    float f = op_to_f32(v);
    if ((double)f <= eps) f = 0.0f; /* POLY-214 */
    else if ((double)fw - (double)f <= eps) f = fw;
    out[k ? 2 : 0] = f;
  }
}

/* POLY-254, POLY-255: append polygon p's record, vertices and triangles. */
static op_status emit(dctx *c, const op_tilemap *map, uint32_t p, dout *o, op_error *err) {
  op_detail_mesh *m = &o->m;
  uint32_t nv = c->np - c->n;
  uint32_t nt = c->nt;
  double ylim = 16384.0 * map->cs; /* FMT-011 */
  if (grow((void **)&m->verts, &o->cverts, 3 * (m->nverts + nv), sizeof(float)) ||
      grow((void **)&m->tris, &o->ctris, 4 * (m->ntris + nt), 1))
    return opc_nomem(err, "detail");
  for (uint32_t i = 0; i < nv; i++) {
    float *f = m->verts + 3 * (size_t)(m->nverts + i);
    detail_pos(map, &c->pts[c->n + i], f);
    if ((double)f[1] > ylim || (double)f[1] < -ylim) /* POLY-254: the binary32 value */
      return op_fail_d(err, OP_E_LIMIT, "cell_size", map->cs,
                       "a detail vertex lies more than 16384 cell sizes from the tile's "
                       "vertical origin (FMT-011); raise cell_size or lower the level's "
                       "height range");
  }
  otri ts[2 * MAXPTS];
  for (uint32_t t = 0; t < nt; t++) {
    const uint32_t *v = c->tv + 3 * (size_t)t;
    int s = v[0] < v[1] ? (v[0] < v[2] ? 0 : 2) : (v[1] < v[2] ? 1 : 2);
    for (int i = 0; i < 3; i++) ts[t].v[i] = v[(s + i) % 3];
  }
  qsort(ts, nt, sizeof *ts, otri_cmp);
  for (uint32_t t = 0; t < nt; t++) {
    uint8_t *q = m->tris + 4 * (size_t)(m->ntris + t);
    uint8_t fl = 0;
    for (int i = 0; i < 3; i++) {
      q[i] = (uint8_t)ts[t].v[i];
      if (on_boundary(c, ts[t].v[i], ts[t].v[(i + 1) % 3])) fl |= (uint8_t)(1u << (2 * i));
    }
    q[3] = fl;
  }
  op_detail_desc *r = &m->detail[p];
  r->vert_base = m->nverts;
  r->tri_base = m->ntris;
  r->vert_count = (uint8_t)nv;
  r->tri_count = (uint8_t)nt;
  m->nverts += nv;
  m->ntris += nt;
  return OP_OK;
}

/* POLY-200: an edge from a to b is upward (FMT-018's rule, in cells). */
static int upward(const int32_t *a, const int32_t *b) {
  return b[2] > a[2] || (b[2] == a[2] && b[0] > a[0]);
}

/* POLY-200: polygon p has 3 or more vertices, each an index below the vertex count, with
** x in [0, W_own], z in [0, D_own] and a row in [0, 65535]; each corner a strict left turn
** in cells (POLY-043); and its boundary turns around exactly once (FMT-018's count). */
static int poly_shape(const op_pmesh *pm, uint32_t p) {
  const uint16_t *pv = pm->polys + (size_t)p * pm->nvp;
  uint32_t n = op_pmesh_poly_nverts(pm, p);
  if (n < 3) return 0;
  for (uint32_t i = 0; i < n; i++) {
    if (pv[i] >= pm->nverts) return 0;
    const int32_t *v = pm->verts + 3 * (size_t)pv[i];
    if (v[0] < 0 || v[0] > pm->map.width || v[2] < 0 || v[2] > pm->map.depth || v[1] < 0 ||
        v[1] > 65535)
      return 0;
  }
  uint32_t ups = 0;
  for (uint32_t i = 0; i < n; i++) {
    const int32_t *a = pm->verts + 3 * (size_t)pv[i], *b = pm->verts + 3 * (size_t)pv[(i + 1) % n],
                  *d = pm->verts + 3 * (size_t)pv[(i + 2) % n];
    if (orient64(a[0], a[2], b[0], b[2], d[0], d[2]) <= 0) return 0;
    ups += !upward(a, b) && upward(b, d); /* edge i not upward, edge i + 1 upward */
  }
  return ups == 1;
}

/* POLY-206 .. POLY-209, POLY-250 .. POLY-253: the points and triangulation of polygon p. */
static op_status build_poly(dctx *c, uint32_t p, op_error *err) {
  const uint16_t *pv = c->pm->polys + (size_t)p * c->pm->nvp;
  if (!poly_shape(c->pm, p)) { /* POLY-200 */
    char f[48];
    snprintf(f, sizeof f, "pmesh.polys[%u]", p);
    return op_fail_i(err, OP_E_ARGUMENT, f, p, "a polygon is not strictly convex, "
                     "counter-clockwise and simple in cells on the tile (POLY-043, FMT-018)");
  }
  c->n = op_pmesh_poly_nverts(c->pm, p);
  c->np = 0;
  c->nesm = 0;
  for (uint32_t i = 0; i < c->n; i++) { /* POLY-254: the polygon's own vertices first */
    const int32_t *v = c->pm->verts + 3 * (size_t)pv[i];
    dpt q = {v[0] * DU, v[2] * DU, v[1], -1};
    c->pts[c->np++] = q;
  }
  for (uint32_t e = 0; e < c->n; e++)
    if (edge_samples(c, pv, e)) return opc_nomem(err, "detail");
  if (c->n + c->nesm > MAXPTS) { /* POLY-208 */
    char why[160];
    snprintf(why, sizeof why, "polygon %u needs %u boundary points, more than %u; raise "
             "detail_sample_distance or detail_sample_max_error", p, c->n + c->nesm, MAXPTS);
    return op_fail_d(err, OP_E_LIMIT, "detail_sample_distance",
                     c->dist, why);
  }
  for (uint32_t i = 0; i < c->nesm; i++) c->pts[c->np++] = c->esm[i];
  if (triangulate(c) || interior_samples(c, pv) || insert_samples(c))
    return opc_nomem(err, "detail");
  return OP_OK;
}

/* POLY-200 .. POLY-203, POLY-257: the detail mesh of polygon mesh pm on its heightfield chf.
** Positions use pm's map (cs, ch, W_own: POLY-200); of the settings only the two sampling
** values are read. */
op_status op_detail_build(const op_settings *s, const op_pmesh *pm, const op_chf *chf,
                          op_detail_mesh *out, op_error *err) {
  if (!pm) return op_fail(err, OP_E_ARGUMENT, "pmesh", "NULL", "a polygon mesh is required");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  op_status st = op_detail_check(s, err); /* POLY-202 */
  if (st != OP_OK) return st;
  /* POLY-200: the two settings read here, by their rows of SPAN-030 (14, 15) */
  if (!(isfinite(s->detail_sample_distance) && s->detail_sample_distance >= 0 &&
        s->detail_sample_distance <= 65536))
    return op_fail_d(err, OP_E_RANGE, "detail_sample_distance", s->detail_sample_distance,
                     "detail_sample_distance must be in [0, 65536] cells");
  if (!(isfinite(s->detail_sample_max_error) && s->detail_sample_max_error >= 0 &&
        s->detail_sample_max_error <= 65536))
    return op_fail_d(err, OP_E_RANGE, "detail_sample_max_error", s->detail_sample_max_error,
                     "detail_sample_max_error must be in [0, 65536] cell heights");
  int32_t S = op_detail_step(s);
  if (S == 0 || pm->npolys == 0) { /* POLY-201: ndetail = ndetail_verts = ndetail_tris = 0 */
    memset(out, 0, sizeof *out);
    return OP_OK;
  }
  if (!chf) return op_fail(err, OP_E_ARGUMENT, "chf", "NULL", "a heightfield is required");
  if (chf->grid.width != pm->map.width + 2 * pm->map.border) /* POLY-200 */
    return op_fail_i(err, OP_E_ARGUMENT, "chf.width", chf->grid.width,
                     "the heightfield is not the polygon mesh's grid");
  if (chf->grid.depth != pm->map.depth + 2 * pm->map.border)
    return op_fail_i(err, OP_E_ARGUMENT, "chf.depth", chf->grid.depth,
                     "the heightfield is not the polygon mesh's grid");
  dctx *c = calloc(1, sizeof *c);
  dout o;
  memset(&o, 0, sizeof o);
  o.m.detail = calloc(pm->npolys, sizeof *o.m.detail);
  if (!c || !o.m.detail) {
    free(c);
    free(o.m.detail);
    return opc_nomem(err, "detail");
  }
  c->pm = pm;
  c->chf = chf;
  c->S = S;
  c->E = s->detail_sample_max_error;
  c->dist = s->detail_sample_distance;
  o.m.ndetail = pm->npolys;
  op_tilemap map = pm->map; /* POLY-204: the vertical offset of POLY-212 */
  int32_t ymin = 0;
  for (uint32_t i = 0; i < pm->nverts; i++)
    if (i == 0 || pm->verts[3 * (size_t)i + 1] < ymin) ymin = pm->verts[3 * (size_t)i + 1];
  map.y_offset = -((double)ymin * map.ch);
  for (uint32_t p = 0; p < pm->npolys && st == OP_OK; p++) {
    st = build_poly(c, p, err);
    if (st == OP_OK) st = emit(c, &map, p, &o, err);
  }
  free(c->esm);
  free(c->cands);
  free(c);
  if (st != OP_OK) {
    op_detail_free(&o.m);
    return st;
  }
  *out = o.m;
  return OP_OK;
}

void op_detail_free(op_detail_mesh *d) {
  if (!d) return;
  free(d->detail);
  free(d->verts);
  free(d->tris);
  memset(d, 0, sizeof *d);
}
