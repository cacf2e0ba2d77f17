/*
** partition.c -- the convex partition of the 2D builder: Hertel-Mehlhorn, greedy,
** longest removable diagonal first (spec/build2d-geometry.md, section 6,
** G2D-220 .. G2D-225).
**
** Input: counter-clockwise triangles on the grid (point indices), with the edges that
** may not be removed marked. Output: convex counter-clockwise polygons of at most
** max_verts vertices, in canonical order. Exact: every test is an integer orientation.
*/
#include <stdlib.h>
#include <string.h>

#include "build2d/geometry/g2d.h"

typedef struct dedge { uint32_t lo, hi, t; uint8_t i, fwd; } dedge;

static int dedge_cmp(const void *pa, const void *pb) {
  const dedge *a = pa, *b = pb;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
  if (a->fwd != b->fwd) return a->fwd < b->fwd ? -1 : 1;
  return 0;
}

typedef struct diag {
  uint32_t lo, hi;   /* point indices, lo < hi */
  uint32_t t1, t2;   /* t1 has lo -> hi, t2 has hi -> lo */
  g2_i128 len2;      /* squared length, exact */
} diag;

/* G2D-222: longer first; equal lengths by (lo, hi) ascending. */
static int diag_cmp(const void *pa, const void *pb) {
  const diag *a = pa, *b = pb;
  if (a->len2 != b->len2) return a->len2 > b->len2 ? -1 : 1;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
  return 0;
}

static uint32_t find(uint32_t *par, uint32_t x) {
  while (par[x] != x) {
    par[x] = par[par[x]];
    x = par[x];
  }
  return x;
}

typedef struct ppoly { uint32_t n; uint32_t v[OP_MAX_VERTS_PER_POLY]; } ppoly;

static int ppoly_cmp(const void *pa, const void *pb) {
  const ppoly *a = pa, *b = pb;
  if (a->v[0] != b->v[0]) return a->v[0] < b->v[0] ? -1 : 1;
  if (a->v[1] != b->v[1]) return a->v[1] < b->v[1] ? -1 : 1;
  return 0;
}

/* G2D-223: the turn a -> b -> c is allowed in a merged polygon: a left turn, or
** straight on (collinear, continuing in the same direction). A reversal (a spike, as
** when two polygons share two collinear edges) is refused. */
static int turn_ok(g2_point a, g2_point b, g2_point c) {
  int o = g2_orient(a, b, c); /* G2D-004: exact */
  if (o) return o > 0;
  g2_i128 dot = (g2_i128)(b.x - a.x) * (c.x - b.x) + (g2_i128)(b.y - a.y) * (c.y - b.y);
  return dot > 0;
}

/* Position of u in polygon q, or -1. */
static int pos_of(const ppoly *q, uint32_t u) {
  for (uint32_t i = 0; i < q->n; i++)
    if (q->v[i] == u) return (int)i;
  return -1;
}

/* G2D-223: merge Q into P along P's edge u -> v (Q has v -> u) when the result is
** convex at u and v and has at most max_verts vertices. Returns 1 when merged. */
static int try_merge(const g2_point *pts, ppoly *P, const ppoly *Q, uint32_t u, uint32_t v,
                     uint32_t max_verts) {
  uint32_t np = P->n, nq = Q->n;
  if (np + nq - 2 > max_verts) return 0;
  int iu = pos_of(P, u), ju = pos_of(Q, u);
  if (iu < 0 || ju < 0 || P->v[(iu + 1) % np] != v || Q->v[(ju + nq - 1) % nq] != v) return 0;
  /* P from v around to u: v, B, ..., A, u; Q from u around to v: u, D, ..., C, v */
  uint32_t pr[OP_MAX_VERTS_PER_POLY], qr[OP_MAX_VERTS_PER_POLY];
  for (uint32_t k = 0; k < np; k++) pr[k] = P->v[((uint32_t)iu + 1 + k) % np];
  for (uint32_t k = 0; k < nq; k++) qr[k] = Q->v[((uint32_t)ju + k) % nq];
  uint32_t A = pr[np - 2], B = pr[1], C = qr[nq - 2], D = qr[1];
  if (!turn_ok(pts[A], pts[u], pts[D]) || !turn_ok(pts[C], pts[v], pts[B])) return 0;
  ppoly r;
  r.n = 0;
  for (uint32_t k = 0; k < np; k++) r.v[r.n++] = pr[k];
  for (uint32_t k = 1; k + 1 < nq; k++) r.v[r.n++] = qr[k];
  *P = r;
  return 1;
}

void g2_polys_free(g2_polys *p) {
  if (!p) return;
  free(p->start);
  free(p->verts);
  memset(p, 0, sizeof *p);
}

/* The input rules: max_verts in [3, 12], a triangle count that fits, every triangle
** counter-clockwise on the grid with indices below npts. */
static op_status check_input(const g2_point *pts, size_t npts, const uint32_t *tris,
                             size_t ntris, uint32_t max_verts, op_error *err) {
  if (max_verts < 3 || max_verts > OP_MAX_VERTS_PER_POLY)
    return op_fail_i(err, OP_E_RANGE, "MaxVertsPerPoly", max_verts, "must be in [3, 12]");
  if (ntris >= 0x7fffffffu / 3)
    return op_fail_i(err, OP_E_LIMIT, "triangles", (long long)ntris, "too many triangles");
  for (size_t t = 0; t < ntris; t++) {
    const uint32_t *v = &tris[3 * t];
    if (v[0] >= npts || v[1] >= npts || v[2] >= npts ||
        g2_orient(pts[v[0]], pts[v[1]], pts[v[2]]) <= 0)
      return op_fail_i(err, OP_E_ARGUMENT, "triangles", (long long)t,
                       "triangle is not counter-clockwise on the grid");
  }
  return OP_OK;
}

/* Every triangle its own polygon (par, pp) and its three directed edges (e, 3 * ntris). */
static void seed(const uint32_t *tris, size_t ntris, dedge *e, uint32_t *par, ppoly *pp) {
  for (size_t t = 0; t < ntris; t++) {
    par[t] = (uint32_t)t;
    pp[t].n = 3;
    for (int i = 0; i < 3; i++) {
      uint32_t u = tris[3 * t + i], w = tris[3 * t + (i + 1) % 3];
      pp[t].v[i] = u;
      dedge *x = &e[3 * t + i];
      x->lo = u < w ? u : w;
      x->hi = u < w ? w : u;
      x->t = (uint32_t)t;
      x->i = (uint8_t)i;
      x->fwd = u < w;
    }
  }
}

/* G2D-221: the removable diagonals (edges shared by two triangles, neither side fixed)
** into d, *nd of them; overlapping triangles are an argument error. Sorts e. */
static op_status removable_diagonals(const g2_point *pts, dedge *e, size_t ne,
                                     const uint8_t *fixed, diag *d, size_t *nd, op_error *err) {
  qsort(e, ne, sizeof *e, dedge_cmp);
  size_t n = 0;
  for (size_t k = 0; k < ne;) {
    size_t m = k + 1;
    while (m < ne && e[m].lo == e[k].lo && e[m].hi == e[k].hi) m++;
    if (m - k > 2 || (m - k == 2 && e[k].fwd == e[k + 1].fwd))
      return op_fail_i(err, OP_E_ARGUMENT, "triangles", (long long)e[k].t, "triangles overlap");
    if (m - k == 2) {
      const dedge *b = &e[k], *f = &e[k + 1]; /* b: hi -> lo, f: lo -> hi */
      int fx = (fixed && ((fixed[b->t] >> b->i) & 1)) || (fixed && ((fixed[f->t] >> f->i) & 1));
      if (!fx) {
        g2_i128 dx = pts[f->hi].x - pts[f->lo].x, dy = pts[f->hi].y - pts[f->lo].y;
        d[n].lo = f->lo;
        d[n].hi = f->hi;
        d[n].t1 = f->t;
        d[n].t2 = b->t;
        d[n].len2 = dx * dx + dy * dy;
        n++;
      }
    }
    k = m;
  }
  *nd = n;
  return OP_OK;
}

/* G2D-224: the surviving polygons (roots of par), each from its smallest point index,
** sorted, into *out. pp is reordered in place. */
static op_status canonical(ppoly *pp, const uint32_t *par, size_t ntris, g2_polys *out,
                           op_error *err) {
  size_t np = 0, nv = 0;
  for (size_t t = 0; t < ntris; t++) {
    if (par[t] != t) continue;
    ppoly q = pp[t]; /* np <= t: slot np is read already */
    uint32_t m = 0;
    for (uint32_t i = 1; i < q.n; i++)
      if (q.v[i] < q.v[m]) m = i;
    for (uint32_t i = 0; i < q.n; i++) pp[np].v[i] = q.v[(m + i) % q.n];
    pp[np].n = q.n;
    nv += q.n;
    np++;
  }
  qsort(pp, np, sizeof *pp, ppoly_cmp);
  g2_polys r;
  memset(&r, 0, sizeof r);
  r.npolys = np;
  r.start = malloc((np + 1) * sizeof *r.start);
  r.verts = malloc((nv + 1) * sizeof *r.verts);
  if (!r.start || !r.verts) {
    g2_polys_free(&r);
    return opc_nomem(err, "region");
  }
  nv = 0;
  for (size_t k = 0; k < np; k++) {
    r.start[k] = (uint32_t)nv;
    for (uint32_t i = 0; i < pp[k].n; i++) r.verts[nv++] = pp[k].v[i];
  }
  r.start[np] = (uint32_t)nv;
  *out = r;
  return OP_OK;
}

/* G2D-220 .. G2D-225: Hertel-Mehlhorn by the steps above. */
op_status g2_partition(const g2_point *pts, size_t npts, const uint32_t *tris,
                       const uint8_t *fixed, size_t ntris, uint32_t max_verts,
                       g2_polys *out, op_error *err) {
  op_status st = check_input(pts, npts, tris, ntris, max_verts, err);
  if (st) return st;
  dedge *e = malloc((3 * ntris + 1) * sizeof *e);
  diag *d = malloc((3 * ntris / 2 + 1) * sizeof *d);
  uint32_t *par = malloc((ntris + 1) * sizeof *par);
  ppoly *pp = malloc((ntris + 1) * sizeof *pp);
  size_t nd = 0;
  if (!e || !d || !par || !pp) st = opc_nomem(err, "region");
  if (!st) {
    seed(tris, ntris, e, par, pp);
    st = removable_diagonals(pts, e, 3 * ntris, fixed, d, &nd, err);
  }
  if (!st) {
    qsort(d, nd, sizeof *d, diag_cmp); /* G2D-222, G2D-223: greedy, one pass in order */
    for (size_t k = 0; k < nd; k++) {
      uint32_t P = find(par, d[k].t1), Q = find(par, d[k].t2);
      if (P == Q) continue;
      if (try_merge(pts, &pp[P], &pp[Q], d[k].lo, d[k].hi, max_verts)) par[Q] = P;
    }
    st = canonical(pp, par, ntris, out, err);
  }
  free(e);
  free(d);
  free(par);
  free(pp);
  return st;
}
