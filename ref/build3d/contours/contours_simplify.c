/*
** contours_simplify.c -- contours of a region partition, part 2: simplification with
** MaxSimplificationError, MaxEdgeLen splitting, degenerate segments, and holes joined to
** outlines (spec/build3d-regions.md section 6, REG-209 .. REG-213, REG-225, REG-216 ..
** REG-220).
** Every test is in exact integers (coordinates are grid corners, at most 2^14).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "build3d/contours/contours.h"
#include "core/alloc.h"
#include "core/internal.h"

typedef __int128 i128;

/* REG-208, REG-205: the direction d of the edge that raw vertex a starts, read off the
** unit step to the next raw vertex b (an edge of direction 0 runs +z, 1 runs +x, 2 runs
** -z, 3 runs -x). */
static int edge_dir(const op_cvert *a, const op_cvert *b) {
  if (b->z > a->z) return 0;
  if (b->x > a->x) return 1;
  if (b->z < a->z) return 2;
  return 3;
}

/* REG-209: raw vertex j has the side key of raw vertex (j - 1) mod n: the same reg and
** area, and, when the reg is a border region, the same edge direction (each side of the
** tile border is its own key, so the tile's corners are change points). */
static int same_key(const op_cvert *raw, uint32_t n, uint32_t j) {
  const op_cvert *a = &raw[(j + n - 1) % n], *b = &raw[j];
  if (a->reg != b->reg || a->area != b->area) return 0;
  if (!(b->reg & OP_REG_BORDER)) return 1;
  return edge_dir(a, b) == edge_dir(b, &raw[(j + 1) % n]);
}

/* REG-210: the squared distance of p to the closed segment ab as the fraction *num / *den. */
static void seg_dist2(const op_cvert *a, const op_cvert *b, const op_cvert *p, int64_t *num,
                      int64_t *den) {
  int64_t dx = b->x - a->x, dz = b->z - a->z;
  int64_t px = p->x - a->x, pz = p->z - a->z;
  int64_t len2 = dx * dx + dz * dz, t = px * dx + pz * dz;
  if (len2 == 0 || t <= 0) {
    *num = px * px + pz * pz;
    *den = 1;
  } else if (t >= len2) {
    int64_t qx = p->x - b->x, qz = p->z - b->z;
    *num = qx * qx + qz * qz;
    *den = 1;
  } else {
    int64_t cr = dx * pz - dz * px;
    *num = cr * cr;
    *den = len2;
  }
}

/* REG-210: num / den > E2 exactly, E2 = fl(e * e) in [0, 2^20]. */
static int exceeds(int64_t num, int64_t den, double e2) {
  if (e2 == 0) return num > 0;
  /* e2 = M / 2^s read off its bit pattern (MATH-004: no libm): M is the significand with
  ** its hidden bit, s = 1075 - biased exponent (1074 for subnormals); s > 0 since
  ** e2 < 2^53. */
  uint64_t bits;
  memcpy(&bits, &e2, sizeof bits);
  int be = (int)((bits >> 52) & 0x7ff);
  int64_t M = (int64_t)(bits & 0xfffffffffffffULL) | (be ? (int64_t)1 << 52 : 0);
  int s = be ? 1075 - be : 1074;
  i128 r = (i128)M * den; /* num > r / 2^s  <=>  num > floor(r / 2^s) */
  i128 q = s >= 127 ? 0 : r >> s;
  return (i128)num > q;
}

/* REG-210: candidate (n1/d1, p1) beats (n2/d2, p2): greater distance; ties: smaller x,
** then smaller z (the earlier in walk order wins the remaining ties: callers scan in
** walk order and replace only on a strict win). */
static int beats(int64_t n1, int64_t d1, const op_cvert *p1, int64_t n2, int64_t d2,
                 const op_cvert *p2) {
  i128 l = (i128)n1 * d2, r = (i128)n2 * d1;
  if (l != r) return l > r;
  if (p1->x != p2->x) return p1->x < p2->x;
  return p1->z < p2->z;
}

/* REG-210: refines the segment from kept a to kept b (raw indices; b after a in walk
** order, cyclic) until every raw vertex between them is within the error. */
static void refine(const op_cvert *raw, uint32_t n, uint8_t *keep, uint32_t *stack,
                   uint32_t a0, uint32_t b0, double e2) {
  uint32_t sp = 0;
  stack[sp++] = a0;
  stack[sp++] = b0;
  while (sp) {
    uint32_t b = stack[--sp], a = stack[--sp];
    uint32_t best = n;
    int64_t bn = 0, bd = 1;
    for (uint32_t c = (a + 1) % n; c != b; c = (c + 1) % n) {
      int64_t cn, cd;
      seg_dist2(&raw[a], &raw[b], &raw[c], &cn, &cd);
      if (best == n || beats(cn, cd, &raw[c], bn, bd, &raw[best])) {
        best = c;
        bn = cn;
        bd = cd;
      }
    }
    if (best == n || !exceeds(bn, bd, e2)) continue;
    keep[best] = 1;
    stack[sp++] = best;
    stack[sp++] = b;
    stack[sp++] = a;
    stack[sp++] = best;
  }
}

/* REG-212: splits a wall segment longer than max_edge_len cells at its middle raw vertex. */
static void split_long(const op_cvert *raw, uint32_t n, uint8_t *keep, uint32_t *stack,
                       uint32_t a0, uint32_t b0, int64_t max2) {
  uint32_t sp = 0;
  stack[sp++] = a0;
  stack[sp++] = b0;
  while (sp) {
    uint32_t b = stack[--sp], a = stack[--sp];
    int64_t dx = raw[b].x - raw[a].x, dz = raw[b].z - raw[a].z;
    uint32_t edges = (b + n - a) % n;
    if (edges == 0) edges = n;
    if (dx * dx + dz * dz <= max2 || edges < 2) continue;
    int fwd = raw[b].x > raw[a].x || (raw[b].x == raw[a].x && raw[b].z > raw[a].z);
    uint32_t c = (a + (fwd ? edges / 2 : (edges + 1) / 2)) % n;
    keep[c] = 1;
    stack[sp++] = c;
    stack[sp++] = b;
    stack[sp++] = a;
    stack[sp++] = c;
  }
}

/* REG-225: refines a segment along the tile border from kept a to kept b (raw indices, b
** after a in walk order, cyclic) by height: the raw vertex strictly between them farthest
** from the straight line in y (first in walk order on ties) is kept while that distance is
** strictly more than `climb` cell heights; then both halves the same way. The raw vertices
** of such a segment lie on one line of constant x or z, the along-coordinate u is the other. */
static void refine_height(const op_cvert *raw, uint32_t n, uint8_t *keep, uint32_t *stack,
                          uint32_t a0, uint32_t b0, int64_t climb) {
  uint32_t sp = 0;
  stack[sp++] = a0;
  stack[sp++] = b0;
  while (sp) {
    uint32_t b = stack[--sp], a = stack[--sp];
    const op_cvert *A = &raw[a], *B = &raw[b];
    int along_z = A->x == B->x;
    int64_t L = along_z ? (int64_t)B->z - A->z : (int64_t)B->x - A->x;
    if (L < 0) L = -L;
    if (L == 0) continue;
    uint32_t best = n;
    int64_t bn = 0;
    for (uint32_t c = (a + 1) % n; c != b; c = (c + 1) % n) {
      int64_t t = along_z ? (int64_t)raw[c].z - A->z : (int64_t)raw[c].x - A->x;
      if (t < 0) t = -t;
      int64_t num = ((int64_t)raw[c].y - A->y) * L - ((int64_t)B->y - A->y) * t;
      if (num < 0) num = -num;
      if (best == n || num > bn) {
        best = c;
        bn = num;
      }
    }
    if (best == n || !(bn > climb * L)) continue;
    keep[best] = 1;
    stack[sp++] = best;
    stack[sp++] = b;
    stack[sp++] = a;
    stack[sp++] = best;
  }
}

static uint32_t collect(const uint8_t *keep, uint32_t n, uint32_t *out) {
  uint32_t m = 0;
  for (uint32_t j = 0; j < n; j++)
    if (keep[j]) out[m++] = j;
  return m;
}

/* REG-209 .. REG-213, REG-225 */
uint32_t opct_simplify(const op_cvert *raw, uint32_t n, uint8_t loop_area,
                       double max_error, int32_t max_edge_len, int32_t climb, uint32_t *out,
                       uint8_t *keep, uint32_t *stack) {
  if (n < 3) return 0;
  memset(keep, 0, n);
  /* REG-209: change points, else the two extreme corners */
  uint32_t nchange = 0;
  for (uint32_t j = 0; j < n; j++)
    if (!same_key(raw, n, j)) {
      keep[j] = 1;
      nchange++;
    }
  if (nchange == 0) {
    uint32_t lo = 0, hi = 0;
    for (uint32_t j = 1; j < n; j++) {
      if (raw[j].x < raw[lo].x || (raw[j].x == raw[lo].x && raw[j].z < raw[lo].z)) lo = j;
      if (raw[j].x > raw[hi].x || (raw[j].x == raw[hi].x && raw[j].z > raw[hi].z)) hi = j;
    }
    keep[lo] = keep[hi] = 1;
  }
  /* REG-210, REG-211: refine the segments along walls and area borders */
  double e2 = max_error * max_error;
  uint32_t m = collect(keep, n, out);
  for (uint32_t s = 0; s < m; s++) {
    uint32_t a = out[s], b = out[(s + 1) % m];
    if (raw[a].reg == 0 || raw[a].area != loop_area)
      refine(raw, n, keep, stack, a, b, e2);
  }
  /* REG-225: refine the segments along the tile border by height */
  for (uint32_t s = 0; s < m; s++) {
    uint32_t a = out[s], b = out[(s + 1) % m];
    if (raw[a].reg & OP_REG_BORDER)
      refine_height(raw, n, keep, stack, a, b, climb < 0 ? 0 : climb);
  }
  /* REG-212: split long wall segments */
  if (max_edge_len > 0) {
    int64_t max2 = (int64_t)max_edge_len * max_edge_len;
    m = collect(keep, n, out);
    for (uint32_t s = 0; s < m; s++) {
      uint32_t a = out[s], b = out[(s + 1) % m];
      if (raw[a].reg == 0) split_long(raw, n, keep, stack, a, b, max2);
    }
  }
  m = collect(keep, n, out);
  /* REG-213: degenerate segments */
  for (;;) {
    if (m < 2) break;
    uint32_t j = 0;
    while (j < m && !(raw[out[j]].x == raw[out[(j + 1) % m]].x &&
                      raw[out[j]].z == raw[out[(j + 1) % m]].z))
      j++;
    if (j == m) break;
    memmove(out + j, out + j + 1, (size_t)(m - j - 1) * sizeof *out);
    m--;
  }
  return m >= 3 ? m : 0;
}

/* ------------------------------------------------------------ holes (REG-216 ..) */

static int orient(const op_cvert *a, const op_cvert *b, const op_cvert *c) {
  int64_t v = (int64_t)(b->x - a->x) * (c->z - a->z) - (int64_t)(c->x - a->x) * (b->z - a->z);
  return (v > 0) - (v < 0);
}

static int same_xz(const op_cvert *a, const op_cvert *b) { return a->x == b->x && a->z == b->z; }

/* REG-218: p lies in the cone of outline vertex v (u before it, w after it). */
static int in_cone(const op_cvert *u, const op_cvert *v, const op_cvert *w, const op_cvert *p) {
  if (orient(u, v, w) <= 0) return orient(v, p, u) < 0 && orient(p, v, w) < 0;
  return !(orient(v, p, w) <= 0 && orient(p, v, u) <= 0);
}

static int on_seg(const op_cvert *a, const op_cvert *b, const op_cvert *c) {
  int32_t x0 = a->x < b->x ? a->x : b->x, x1 = a->x < b->x ? b->x : a->x;
  int32_t z0 = a->z < b->z ? a->z : b->z, z1 = a->z < b->z ? b->z : a->z;
  return c->x >= x0 && c->x <= x1 && c->z >= z0 && c->z <= z1;
}

/* REG-218: closed segments qp and st share a point. */
static int seg_meet(const op_cvert *q, const op_cvert *p, const op_cvert *s, const op_cvert *t) {
  int o1 = orient(q, p, s), o2 = orient(q, p, t), o3 = orient(s, t, q), o4 = orient(s, t, p);
  if (o1 * o2 < 0 && o3 * o4 < 0) return 1;
  if (o1 == 0 && on_seg(q, p, s)) return 1;
  if (o2 == 0 && on_seg(q, p, t)) return 1;
  if (o3 == 0 && on_seg(s, t, q)) return 1;
  if (o4 == 0 && on_seg(s, t, p)) return 1;
  return 0;
}

/* REG-218: some edge of the closed list v[0..n-1] not touching q or p meets qp. */
static int blocked_by(const op_cvert *v, uint32_t n, const op_cvert *q, const op_cvert *p) {
  for (uint32_t k = 0; k < n; k++) {
    const op_cvert *s = &v[k], *t = &v[(k + 1) % n];
    if (same_xz(s, q) || same_xz(s, p) || same_xz(t, q) || same_xz(t, p)) continue;
    if (seg_meet(q, p, s, t)) return 1;
  }
  return 0;
}

typedef struct jloop {
  op_cvert *v;
  uint32_t n;
} jloop;

typedef struct cand {
  int64_t d2;
  uint32_t outline, j;
} cand;

/* REG-217: candidates by squared distance, then outline loop number, then vertex index. */
static int cand_cmp(const void *x, const void *y) {
  const cand *a = x, *b = y;
  if (a->d2 != b->d2) return a->d2 < b->d2 ? -1 : 1;
  if (a->outline != b->outline) return a->outline < b->outline ? -1 : 1;
  return a->j < b->j ? -1 : a->j > b->j;
}

static uint32_t leftmost(const jloop *h) {
  uint32_t lo = 0;
  for (uint32_t j = 1; j < h->n; j++)
    if (h->v[j].x < h->v[lo].x || (h->v[j].x == h->v[lo].x && h->v[j].z < h->v[lo].z)) lo = j;
  return lo;
}

typedef struct hole_ref {
  uint32_t loop;
  uint16_t reg;
  int32_t lx, lz;
} hole_ref;

/* REG-216: holes by region, then leftmost vertex x, z, then loop number. */
static int hole_cmp(const void *x, const void *y) {
  const hole_ref *a = x, *b = y;
  if (a->reg != b->reg) return a->reg < b->reg ? -1 : 1;
  if (a->lx != b->lx) return a->lx < b->lx ? -1 : 1;
  if (a->lz != b->lz) return a->lz < b->lz ? -1 : 1;
  return a->loop < b->loop ? -1 : a->loop > b->loop;
}

/* REG-217 .. REG-219: joins hole hs[hi] into one outline of its region, or reports 0. */
static int join_one(op_contour_set *cs, jloop *jl, const hole_ref *hs, uint32_t nh, uint32_t hi,
                    cand *cands, op_alloc_count *al, int *nomem) {
  uint16_t r = hs[hi].reg;
  jloop *h = &jl[hs[hi].loop];
  uint32_t start = leftmost(h);
  for (uint32_t t = 0; t < h->n; t++) {
    uint32_t c = (start + t) % h->n;
    const op_cvert *p = &h->v[c];
    uint32_t nc = 0;
    for (uint32_t o = 0; o < cs->nloops; o++) {
      const op_cloop *l = &cs->loops[o];
      if (l->reg != r || l->hole || !jl[o].n) continue;
      const jloop *ol = &jl[o];
      for (uint32_t j = 0; j < ol->n; j++) {
        const op_cvert *u = &ol->v[(j + ol->n - 1) % ol->n], *v = &ol->v[j],
                       *w = &ol->v[(j + 1) % ol->n];
        if (!in_cone(u, v, w, p)) continue;
        int64_t dx = v->x - p->x, dz = v->z - p->z;
        cands[nc].d2 = dx * dx + dz * dz;
        cands[nc].outline = o;
        cands[nc].j = j;
        nc++;
      }
    }
    qsort(cands, nc, sizeof *cands, cand_cmp);
    for (uint32_t k = 0; k < nc; k++) {
      const op_cvert *q = &jl[cands[k].outline].v[cands[k].j];
      int bad = 0;
      for (uint32_t o = 0; o < cs->nloops && !bad; o++)
        if (cs->loops[o].reg == r && !cs->loops[o].hole && jl[o].n)
          bad = blocked_by(jl[o].v, jl[o].n, q, p);
      for (uint32_t k2 = hi; k2 < nh && !bad && hs[k2].reg == r; k2++)
        bad = blocked_by(jl[hs[k2].loop].v, jl[hs[k2].loop].n, q, p);
      if (bad) continue;
      /* REG-219: o[j..j-1], o[j], h[c..c-1], h[c] */
      jloop *ol = &jl[cands[k].outline];
      uint32_t nn = ol->n + h->n + 2, j = cands[k].j;
      op_cvert *nv = opc_malloc(al, (size_t)nn * sizeof *nv);
      if (!nv) {
        *nomem = 1;
        return 0;
      }
      uint32_t w = 0;
      for (uint32_t i = 0; i <= ol->n; i++) nv[w++] = ol->v[(j + i) % ol->n];
      for (uint32_t i = 0; i <= h->n; i++) nv[w++] = h->v[(c + i) % h->n];
      free(ol->v);
      ol->v = nv;
      ol->n = nn;
      return 1;
    }
  }
  return 0;
}

/* REG-216 .. REG-220 */
op_status opct_join(op_contour_set *cs, op_error *err) {
  return opct_join_counted(cs, NULL, err);
}

op_status opct_join_counted(op_contour_set *cs, op_alloc_count *al, op_error *err) {
  op_status st = OP_OK;
  uint32_t nl = cs->nloops, nh = 0, maxv = 0, nout = 0;
  jloop *jl = opc_calloc(al, nl ? nl : 1, sizeof *jl);
  hole_ref *hs = opc_malloc(al, (nl ? nl : 1) * sizeof *hs);
  cand *cands = NULL;
  if (!jl || !hs) goto nomem;
  for (uint32_t o = 0; o < nl; o++) {
    const op_cloop *l = &cs->loops[o];
    if (!l->nsimp) continue;
    jl[o].v = opc_malloc(al, (size_t)l->nsimp * sizeof *jl[o].v);
    if (!jl[o].v) goto nomem;
    jl[o].n = l->nsimp;
    for (uint32_t k = 0; k < l->nsimp; k++)
      jl[o].v[k] = cs->raw[l->raw_start + cs->simp[l->simp_start + k]];
    maxv += l->nsimp;
    if (l->hole) {
      uint32_t lo = leftmost(&jl[o]);
      hs[nh].loop = o;
      hs[nh].reg = l->reg;
      hs[nh].lx = jl[o].v[lo].x;
      hs[nh].lz = jl[o].v[lo].z;
      nh++;
    } else {
      nout++;
    }
  }
  qsort(hs, nh, sizeof *hs, hole_cmp);
  cands = opc_malloc(al, ((size_t)maxv + 2 * (size_t)nh + 1) * sizeof *cands);
  if (!cands) goto nomem;
  cs->unjoined_holes = 0;
  for (uint32_t hi = 0; hi < nh; hi++) {
    int nomem = 0;
    int ok = join_one(cs, jl, hs, nh, hi, cands, al, &nomem);
    if (nomem) goto nomem;
    if (!ok) cs->unjoined_holes++;
  }
  /* REG-220: one contour per outline, in loop order */
  uint32_t total = 0;
  for (uint32_t o = 0; o < nl; o++)
    if (jl[o].n && !cs->loops[o].hole) total += jl[o].n;
  cs->contours = opc_malloc(al, (nout ? nout : 1) * sizeof *cs->contours);
  cs->verts = opc_malloc(al, (total ? total : 1) * sizeof *cs->verts);
  if (!cs->contours || !cs->verts) goto nomem;
  cs->ncontours = 0;
  cs->nverts = 0;
  for (uint32_t o = 0; o < nl; o++) {
    if (!jl[o].n || cs->loops[o].hole) continue;
    op_contour *c = &cs->contours[cs->ncontours++];
    c->reg = cs->loops[o].reg;
    c->area = cs->loops[o].area;
    c->loop = o;
    c->vert_start = cs->nverts;
    c->nverts = jl[o].n;
    memcpy(cs->verts + cs->nverts, jl[o].v, (size_t)jl[o].n * sizeof *cs->verts);
    cs->nverts += jl[o].n;
  }
  goto done;
nomem:
  st = opc_nomem(err, "memory");
done:
  if (jl)
    for (uint32_t o = 0; o < nl; o++) free(jl[o].v);
  free(jl);
  free(hs);
  free(cands);
  return st;
}
