/*
** polys.c -- the polygon stage of the 3D build: BuildPolyMesh (spec/build3d-polys.md
** sections 2 and 3, POLY-011 .. POLY-090): triangulation of each contour, vertex welding,
** merging into convex polygons, neighbour codes, output order, limits, canonical bytes.
** The tile coordinate map (section 1) is tilemap.c.
*/
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/alloc.h"
#include "core/internal.h"
#include "build3d/polys/polys.h"

/* ============================================================ integer geometry */

typedef struct pt {
  int32_t x, z;
} pt;

/* POLY-021: orientation in cells, (b - a) x (c - a) with x first. */
static int64_t orient(pt a, pt b, pt c) {
  return ((int64_t)b.x - a.x) * ((int64_t)c.z - a.z) - ((int64_t)b.z - a.z) * ((int64_t)c.x - a.x);
}
static int left(pt a, pt b, pt c) { return orient(a, b, c) > 0; }
static int left_on(pt a, pt b, pt c) { return orient(a, b, c) >= 0; }
static int same(pt a, pt b) { return a.x == b.x && a.z == b.z; }

/* POLY-022: c lies on the closed segment ab, given collinear. */
static int between(pt a, pt b, pt c) {
  if (orient(a, b, c) != 0) return 0;
  if (a.x != b.x)
    return (a.x <= c.x && c.x <= b.x) || (b.x <= c.x && c.x <= a.x);
  return (a.z <= c.z && c.z <= b.z) || (b.z <= c.z && c.z <= a.z);
}

/* POLY-022: closed segments ab and cd share a point. */
static int intersect(pt a, pt b, pt c, pt d) {
  int64_t o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  if (o1 != 0 && o2 != 0 && o3 != 0 && o4 != 0)
    return ((o1 > 0) != (o2 > 0)) && ((o3 > 0) != (o4 > 0));
  return between(a, b, c) || between(a, b, d) || between(c, d, a) || between(c, d, b);
}

/* ============================================================ triangulation */

/* The working polygon of one contour: positions p[k] (k < n) and tile vertex ids id[k]. */
typedef struct work {
  uint32_t n;
  pt *p;
  uint16_t *id;
  uint8_t *ear;
} work;

static uint32_t prv(uint32_t k, uint32_t n) { return k == 0 ? n - 1 : k - 1; }
static uint32_t nxt(uint32_t k, uint32_t n) { return k + 1 == n ? 0 : k + 1; }

/* POLY-022: the diagonal from position i to position j lies inside the cone at i. */
static int in_cone(const work *w, uint32_t i, uint32_t j) {
  pt a = w->p[i], b = w->p[j], a0 = w->p[prv(i, w->n)], a1 = w->p[nxt(i, w->n)];
  if (left_on(a0, a, a1)) return left(a, b, a0) && left(b, a, a1);
  return !(left_on(a, b, a1) && left_on(b, a, a0));
}

/* POLY-022: no edge of the working polygon meets the diagonal ij, skipping edges that
** have an end at position i or j (by index) or at the point of i or of j. */
static int no_crossing(const work *w, uint32_t i, uint32_t j) {
  pt a = w->p[i], b = w->p[j];
  for (uint32_t k = 0; k < w->n; k++) {
    uint32_t k1 = nxt(k, w->n);
    if (k == i || k1 == i || k == j || k1 == j) continue;
    pt e0 = w->p[k], e1 = w->p[k1];
    if (same(e0, a) || same(e0, b) || same(e1, a) || same(e1, b)) continue;
    if (intersect(a, b, e0, e1)) return 0;
  }
  return 1;
}

/* POLY-023: position k is an ear tip. */
static int is_ear(const work *w, const op_tilemap *m, uint32_t k) {
  uint32_t i = prv(k, w->n), j = nxt(k, w->n);
  pt a = w->p[i], b = w->p[k], c = w->p[j];
  if (!left(a, b, c)) return 0;
  int32_t fa[2] = {a.x, a.z}, fb[2] = {b.x, b.z}, fc[2] = {c.x, c.z};
  if (op_tilemap_orient(m, fa, fb, fc) <= 0) return 0;
  return in_cone(w, i, j) && no_crossing(w, i, j);
}

static void work_remove(work *w, uint32_t k) {
  memmove(w->p + k, w->p + k + 1, (w->n - k - 1) * sizeof *w->p);
  memmove(w->id + k, w->id + k + 1, (w->n - k - 1) * sizeof *w->id);
  memmove(w->ear + k, w->ear + k + 1, (w->n - k - 1) * sizeof *w->ear);
  w->n--;
}

/* POLY-023 .. POLY-027: ear clipping; appends triangles (vertex ids, 3 per triangle) to
** tri. Returns 1 when the contour was fully triangulated, 0 when it stopped early. */
static int triangulate(work *w, const op_tilemap *m, uint16_t *tri, uint32_t *ntri) {
  for (uint32_t k = 0; k < w->n; k++) w->ear[k] = (uint8_t)is_ear(w, m, k);
  while (w->n > 3) {
    uint32_t best = UINT32_MAX;
    int64_t best_len = 0;
    for (uint32_t k = 0; k < w->n; k++) {
      if (!w->ear[k]) continue;
      pt a = w->p[prv(k, w->n)], c = w->p[nxt(k, w->n)];
      int64_t dx = (int64_t)c.x - a.x, dz = (int64_t)c.z - a.z;
      int64_t len = dx * dx + dz * dz;
      if (best == UINT32_MAX || len < best_len) {
        best = k;
        best_len = len;
      }
    }
    if (best == UINT32_MAX) { /* POLY-027: no ear; complete only when nothing is left */
      int64_t a2 = 0;
      for (uint32_t k = 0; k < w->n; k++) {
        pt p0 = w->p[k], p1 = w->p[nxt(k, w->n)];
        a2 += (int64_t)p0.x * p1.z - (int64_t)p1.x * p0.z;
      }
      return a2 == 0;
    }
    uint32_t i = prv(best, w->n), j = nxt(best, w->n);
    tri[3 * *ntri + 0] = w->id[i];
    tri[3 * *ntri + 1] = w->id[best];
    tri[3 * *ntri + 2] = w->id[j];
    (*ntri)++;
    work_remove(w, best);
    /* POLY-025: the two neighbours of the removed tip are tested again. */
    uint32_t a = best == 0 ? w->n - 1 : best - 1;
    uint32_t b = best == w->n ? 0 : best;
    w->ear[a] = (uint8_t)is_ear(w, m, a);
    w->ear[b] = (uint8_t)is_ear(w, m, b);
  }
  /* POLY-026: the last three vertices. */
  pt a = w->p[0], b = w->p[1], c = w->p[2];
  int32_t fa[2] = {a.x, a.z}, fb[2] = {b.x, b.z}, fc[2] = {c.x, c.z};
  if (left(a, b, c) && op_tilemap_orient(m, fa, fb, fc) > 0) {
    tri[3 * *ntri + 0] = w->id[0];
    tri[3 * *ntri + 1] = w->id[1];
    tri[3 * *ntri + 2] = w->id[2];
    (*ntri)++;
    return 1;
  }
  return orient(a, b, c) == 0 ? 1 : 0;
}

/* ================================================================== welding */

typedef struct vtab {
  uint32_t n, cap;
  int32_t *v;       /* 3 per vertex */
  uint32_t *next;   /* chain per vertex */
  uint32_t *bucket; /* nbucket heads */
  uint32_t nbucket;
  op_alloc_count *al; /* CONF-059: NULL, or the counter of the growth */
} vtab;

#define WELD_Y 2 /* POLY-030: rows */

static uint32_t vhash(int32_t x, int32_t z, uint32_t nb) {
  uint32_t h = (uint32_t)x * 73856093u ^ (uint32_t)z * 19349663u;
  return h & (nb - 1);
}

/* POLY-030, POLY-031: the tile vertex for (x, y, z): the lowest-numbered vertex with the
** same x and z and |y - y'| <= WELD_Y, else a new one. UINT32_MAX on allocation failure,
** UINT32_MAX - 1 when the limit would be passed. */
static uint32_t weld(vtab *t, int32_t x, int32_t y, int32_t z) {
  uint32_t h = vhash(x, z, t->nbucket), found = UINT32_MAX;
  for (uint32_t i = t->bucket[h]; i != UINT32_MAX; i = t->next[i]) {
    const int32_t *q = t->v + 3 * (size_t)i;
    int32_t dy = q[1] - y;
    if (q[0] == x && q[2] == z && dy >= -WELD_Y && dy <= WELD_Y && i < found) found = i;
  }
  if (found != UINT32_MAX) return found;
  if (t->n >= OP_PMESH_MAX_VERTS) return UINT32_MAX - 1;
  if (t->n == t->cap) {
    uint32_t nc = t->cap ? 2 * t->cap : 256;
    int32_t *nv = opc_realloc(t->al, t->v, 3 * (size_t)nc * sizeof *nv);
    if (!nv) return UINT32_MAX;
    t->v = nv;
    uint32_t *nn = opc_realloc(t->al, t->next, (size_t)nc * sizeof *nn);
    if (!nn) return UINT32_MAX;
    t->next = nn;
    t->cap = nc;
  }
  uint32_t i = t->n++;
  t->v[3 * (size_t)i] = x;
  t->v[3 * (size_t)i + 1] = y;
  t->v[3 * (size_t)i + 2] = z;
  t->next[i] = t->bucket[h];
  t->bucket[h] = i;
  return i;
}

/* ================================================================== merging */

static pt vpt(const vtab *t, uint16_t i) {
  pt p = {t->v[3 * (size_t)i], t->v[3 * (size_t)i + 2]};
  return p;
}

/* POLY-041 .. POLY-043: corner (a, b, c) is strictly convex in cells and in float32. */
static int convex_corner(const vtab *t, const op_tilemap *m, uint16_t a, uint16_t b, uint16_t c) {
  pt pa = vpt(t, a), pb = vpt(t, b), pc = vpt(t, c);
  if (!left(pa, pb, pc)) return 0;
  int32_t fa[2] = {pa.x, pa.z}, fb[2] = {pb.x, pb.z}, fc[2] = {pc.x, pc.z};
  return op_tilemap_orient(m, fa, fb, fc) > 0;
}

static uint32_t pcount(const uint16_t *p, uint32_t nvp) {
  uint32_t n = 0;
  while (n < nvp && p[n] != OP_PMESH_NULL) n++;
  return n;
}

/* POLY-041, POLY-042: squared length of the shared edge when polygons pa, pb can merge,
** else -1; *ea, *eb: the shared edge's index in each. */
static int64_t merge_value(const vtab *t, const op_tilemap *m, const uint16_t *pa,
                           const uint16_t *pb, uint32_t nvp, uint32_t *ea, uint32_t *eb) {
  uint32_t na = pcount(pa, nvp), nb = pcount(pb, nvp);
  if (na + nb - 2 > nvp) return -1;
  uint32_t fa = UINT32_MAX, fb = UINT32_MAX;
  for (uint32_t i = 0; i < na && fa == UINT32_MAX; i++) {
    uint16_t a0 = pa[i], a1 = pa[(i + 1) % na];
    for (uint32_t j = 0; j < nb; j++) {
      if (pb[j] == a1 && pb[(j + 1) % nb] == a0) {
        fa = i;
        fb = j;
        break;
      }
    }
  }
  if (fa == UINT32_MAX) return -1;
  uint16_t a0 = pa[fa], a1 = pa[(fa + 1) % na];
  if (!convex_corner(t, m, pa[(fa + na - 1) % na], a0, pb[(fb + 2) % nb])) return -1;
  if (!convex_corner(t, m, pb[(fb + nb - 1) % nb], a1, pa[(fa + 2) % na])) return -1;
  pt p0 = vpt(t, a0), p1 = vpt(t, a1);
  int64_t dx = (int64_t)p1.x - p0.x, dz = (int64_t)p1.z - p0.z;
  *ea = fa;
  *eb = fb;
  return dx * dx + dz * dz;
}

/* POLY-044: the merged polygon into pa. */
static void merge_into(uint16_t *pa, const uint16_t *pb, uint32_t ea, uint32_t eb, uint32_t nvp) {
  uint16_t tmp[OP_MAX_VERTS_PER_POLY];
  uint32_t na = pcount(pa, nvp), nb = pcount(pb, nvp), n = 0;
  for (uint32_t k = 0; k + 1 < na; k++) tmp[n++] = pa[(ea + 1 + k) % na];
  for (uint32_t k = 0; k + 1 < nb; k++) tmp[n++] = pb[(eb + 1 + k) % nb];
  for (uint32_t k = 0; k < nvp; k++) pa[k] = k < n ? tmp[k] : OP_PMESH_NULL;
}

/* An edge of a polygon in the contour's list: its unordered vertex pair lo <= hi and the
** polygon, as one key lo << 48 | hi << 32 | poly, so that the keys' order is the order
** by (lo, hi, poly). */
static uint64_t medge_key(uint16_t a, uint16_t b, uint32_t poly) {
  uint16_t lo = a < b ? a : b, hi = a < b ? b : a;
  return (uint64_t)lo << 48 | (uint64_t)hi << 32 | poly;
}
static uint32_t medge_pair(uint64_t k) { return (uint32_t)(k >> 32); } /* lo, hi */
static uint32_t medge_poly(uint64_t k) { return (uint32_t)k; }

/* Sorts a[0..n-1] ascending; tmp holds n scratch keys. Insertion sort of runs of 16, then
** bottom-up merging of sorted runs (a plain merge sort on integers: the same order as any
** sort, the keys being distinct or equal in every field). */
static void sort_keys(uint64_t *a, uint64_t *tmp, uint32_t n) {
  const uint32_t run = 16;
  for (uint32_t s = 0; s < n; s += run) {
    uint32_t e = n - s > run ? s + run : n;
    for (uint32_t i = s + 1; i < e; i++) {
      uint64_t k = a[i];
      uint32_t j = i;
      for (; j > s && a[j - 1] > k; j--) a[j] = a[j - 1];
      a[j] = k;
    }
  }
  uint64_t *src = a, *dst = tmp;
  for (uint32_t w = run; w < n; w *= 2) {
    for (uint32_t lo = 0; lo < n; lo += 2 * w) {
      uint32_t mid = n - lo > w ? lo + w : n, hi = n - mid > w ? mid + w : n;
      uint32_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) dst[k++] = src[i] <= src[j] ? src[i++] : src[j++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    uint64_t *x = src;
    src = dst;
    dst = x;
  }
  if (src != a) memcpy(a, src, (size_t)n * sizeof *a);
}

/* POLY-040 .. POLY-044: merges the npoly polygons of one contour in place; returns the
** new count. Only pairs with a common edge can merge (POLY-042), so each step looks at the
** pairs found through a sorted edge list instead of all pairs; the pick is the same: the
** greatest value, then the least i, then the least j. e: scratch for the edges (a merge
** never adds edges: na + nb - 2 vertices replace na + nb); tmp: as many scratch keys. */
static uint32_t merge_polys(const vtab *t, const op_tilemap *m, uint16_t *polys, uint32_t npoly,
                            uint32_t nvp, uint64_t *e, uint64_t *tmp) {
  if (nvp <= 3) return npoly;
  for (;;) {
    uint32_t ne = 0;
    for (uint32_t i = 0; i < npoly; i++) {
      const uint16_t *v = polys + (size_t)i * nvp;
      uint32_t n = pcount(v, nvp);
      for (uint32_t j = 0; j < n; j++) e[ne++] = medge_key(v[j], v[(j + 1) % n], i);
    }
    sort_keys(e, tmp, ne);
    int64_t best = -1;
    uint32_t bi = 0, bj = 0, bea = 0, beb = 0;
    for (uint32_t g = 0; g < ne;) {
      uint32_t h = g + 1;
      while (h < ne && medge_pair(e[h]) == medge_pair(e[g])) h++;
      for (uint32_t x = g; x < h; x++)
        for (uint32_t y = x + 1; y < h; y++) {
          uint32_t i = medge_poly(e[x]), j = medge_poly(e[y]), ea, eb;
          if (i == j) continue;
          int64_t val = merge_value(t, m, polys + (size_t)i * nvp, polys + (size_t)j * nvp, nvp,
                                    &ea, &eb);
          if (val < 0) continue;
          if (val > best || (val == best && (i < bi || (i == bi && j < bj)))) {
            best = val;
            bi = i;
            bj = j;
            bea = ea;
            beb = eb;
          }
        }
      g = h;
    }
    if (best < 0) return npoly;
    merge_into(polys + (size_t)bi * nvp, polys + (size_t)bj * nvp, bea, beb, nvp);
    if (bj != npoly - 1)
      memcpy(polys + (size_t)bj * nvp, polys + (size_t)(npoly - 1) * nvp, nvp * sizeof *polys);
    npoly--;
  }
}

/* ============================================================ neighbours */

/* An edge j of polygon poly as one key: its vertex ids lo <= hi, then poly (< 2^15,
** POLY-080), j (< 16) and fwd (1 when the edge runs lo -> hi, lo < hi), so that the keys'
** order is the order by (lo, hi, poly, j). */
static uint64_t dedge_key(uint16_t a, uint16_t b, uint32_t poly, uint32_t j) {
  uint16_t lo = a < b ? a : b, hi = a < b ? b : a;
  return (uint64_t)lo << 48 | (uint64_t)hi << 32 | (uint64_t)poly << 5 | (uint64_t)j << 1 |
         (uint64_t)(a < b);
}
static uint32_t dedge_poly(uint64_t k) { return (uint32_t)(k >> 5) & 0x7FFFu; }
static uint32_t dedge_j(uint64_t k) { return (uint32_t)(k >> 1) & 0xFu; }
static int dedge_fwd(uint64_t k) { return (int)(k & 1u); }

/* POLY-060 .. POLY-062 */
static op_status link_polys(op_pmesh *pm, op_alloc_count *al, op_error *err) {
  uint32_t nvp = pm->nvp, ne = 0;
  for (uint32_t p = 0; p < pm->npolys; p++) ne += op_pmesh_poly_nverts(pm, p);
  uint64_t *e = opc_malloc(al, 2 * (ne ? ne : 1) * sizeof *e); /* the keys, then scratch keys */
  uint8_t *used = e ? opc_calloc(al, ne ? ne : 1, 1) : NULL;
  if (!e || !used) {
    free(e);
    free(used);
    return opc_nomem(err, "polys");
  }
  uint32_t k = 0;
  for (uint32_t p = 0; p < pm->npolys; p++) {
    const uint16_t *v = pm->polys + (size_t)p * nvp;
    uint32_t n = op_pmesh_poly_nverts(pm, p);
    for (uint32_t j = 0; j < n; j++) e[k++] = dedge_key(v[j], v[(j + 1) % n], p, j);
  }
  sort_keys(e, e + ne, ne);
  for (uint32_t g = 0; g < ne;) {
    uint32_t h = g;
    while (h < ne && e[h] >> 32 == e[g] >> 32) h++; /* same lo, hi */
    for (uint32_t f = g; f < h; f++) {
      if (!dedge_fwd(e[f])) continue;
      for (uint32_t r = g; r < h; r++) {
        if (dedge_fwd(e[r]) || used[r] || dedge_poly(e[r]) == dedge_poly(e[f])) continue;
        used[r] = 1;
        pm->neis[(size_t)dedge_poly(e[f]) * nvp + dedge_j(e[f])] = (uint16_t)(dedge_poly(e[r]) + 1);
        pm->neis[(size_t)dedge_poly(e[r]) * nvp + dedge_j(e[r])] = (uint16_t)(dedge_poly(e[f]) + 1);
        break;
      }
    }
    g = h;
  }
  free(e);
  free(used);
  /* POLY-061: portal codes for the remaining edges on the tile's boundary lines. */
  for (uint32_t p = 0; p < pm->npolys; p++) {
    const uint16_t *v = pm->polys + (size_t)p * nvp;
    uint32_t n = op_pmesh_poly_nverts(pm, p);
    for (uint32_t j = 0; j < n; j++) {
      uint16_t *code = pm->neis + (size_t)p * nvp + j;
      if (*code != 0) continue;
      const int32_t *a = pm->verts + 3 * (size_t)v[j], *b = pm->verts + 3 * (size_t)v[(j + 1) % n];
      if (a[0] == 0 && b[0] == 0) *code = OP_NEI_PORTAL | 0u;
      else if (a[2] == pm->map.depth && b[2] == pm->map.depth) *code = OP_NEI_PORTAL | 1u;
      else if (a[0] == pm->map.width && b[0] == pm->map.width) *code = OP_NEI_PORTAL | 2u;
      else if (a[2] == 0 && b[2] == 0) *code = OP_NEI_PORTAL | 3u;
    }
  }
  return OP_OK;
}

/* =============================================================== the stage */

void op_pmesh_free(op_pmesh *pm) {
  if (!pm) return;
  free(pm->verts);
  free(pm->polys);
  free(pm->neis);
  free(pm->regs);
  free(pm->areas);
  free(pm->flags);
  memset(pm, 0, sizeof *pm);
}

/* Growable polygon list (nvp slots each) with region and area. */
typedef struct plist {
  uint32_t n, cap, nvp;
  uint16_t *v;
  uint16_t *reg;
  uint8_t *area;
  op_alloc_count *al; /* CONF-059 */
} plist;

static int plist_reserve(plist *l, uint32_t want) {
  if (want <= l->cap) return 1;
  uint32_t nc = l->cap ? l->cap : 64;
  while (nc < want) nc *= 2;
  uint16_t *v = opc_realloc(l->al, l->v, (size_t)nc * l->nvp * sizeof *v);
  if (!v) return 0;
  l->v = v;
  uint16_t *r = opc_realloc(l->al, l->reg, (size_t)nc * sizeof *r);
  if (!r) return 0;
  l->reg = r;
  uint8_t *a = opc_realloc(l->al, l->area, (size_t)nc);
  if (!a) return 0;
  l->area = a;
  l->cap = nc;
  return 1;
}

/* POLY-070: rotate polygon p so that its lowest vertex id comes first. */
static void rotate_lowest(uint16_t *v, uint32_t nvp) {
  uint32_t n = pcount(v, nvp), lo = 0;
  for (uint32_t k = 1; k < n; k++)
    if (v[k] < v[lo]) lo = k;
  uint16_t tmp[OP_MAX_VERTS_PER_POLY];
  for (uint32_t k = 0; k < n; k++) tmp[k] = v[(lo + k) % n];
  memcpy(v, tmp, n * sizeof *v);
}

/* The working state of one op_pmesh_build: welded vertices, the polygon list, one
** contour's working list, triangles, merge scratch; pbuild_free releases all of it. */
typedef struct pbuild {
  vtab t;
  plist pl;
  work w;
  uint16_t *tri;
  uint64_t *me; /* merge_polys' edge keys, then as many scratch keys */
  uint32_t maxn, untri;
  op_alloc_count *al; /* CONF-059: NULL, or the counter of every allocation of the build */
} pbuild;

static void pbuild_free(pbuild *b) {
  free(b->t.v);
  free(b->t.next);
  free(b->t.bucket);
  free(b->pl.v);
  free(b->pl.reg);
  free(b->pl.area);
  free(b->w.p);
  free(b->w.id);
  free(b->w.ear);
  free(b->tri);
  free(b->me);
}

/* POLY-011 .. POLY-013: the arguments, then every contour vertex inside the own cells.
** Sets the map, the longest contour (at least 3) and the count of all contour vertices. */
static op_status check_input(const op_contour_set *cs, const op_hf_grid *grid, int32_t border,
                             uint32_t nvp, op_tilemap *map, uint32_t *maxn, uint64_t *nall,
                             op_error *err) {
  op_status st;
  if (nvp < 3 || nvp > OP_MAX_VERTS_PER_POLY) /* POLY-011, POLY-013 */
    return op_fail_i(err, OP_E_RANGE, "MaxVertsPerPoly", (long long)nvp, "must be in 3..12");
  if ((st = op_tilemap_init(map, grid, border, err)) != OP_OK) return st;
  if (cs->width != grid->width || cs->depth != grid->depth) /* POLY-011 */
    return op_fail_i(err, OP_E_ARGUMENT, "contours.width", cs->width,
                     "contour set and grid differ in size");
  *maxn = 3;
  *nall = 0;
  for (uint32_t c = 0; c < cs->ncontours; c++) {
    const op_contour *ct = &cs->contours[c];
    if (ct->nverts > *maxn) *maxn = ct->nverts;
    *nall += ct->nverts;
    for (uint32_t k = 0; k < ct->nverts; k++) { /* POLY-012 */
      const op_cvert *v = &cs->verts[ct->vert_start + k];
      if (v->x < border || v->x > border + map->width || v->z < border ||
          v->z > border + map->depth)
        return op_fail_i(err, OP_E_ARGUMENT, "contours.verts", (long long)ct->vert_start + k,
                         "contour vertex outside the tile's own cells");
    }
  }
  return OP_OK;
}

/* The scratch of pbuild for contours of up to maxn vertices, nall vertices in all.
** Returns 0 when out of memory. */
static int pbuild_alloc(pbuild *b, uint32_t nvp, uint32_t maxn, uint64_t nall) {
  b->pl.nvp = nvp;
  b->maxn = maxn;
  /* Hash buckets: a power of two from 64 to 4096, about one per vertex (the welded ids do
  ** not depend on it: equal (x, z) share a bucket whatever its count). */
  b->t.nbucket = 64;
  while (b->t.nbucket < 4096 && b->t.nbucket < nall) b->t.nbucket *= 2;
  b->t.bucket = opc_malloc(b->al, b->t.nbucket * sizeof *b->t.bucket);
  b->w.p = opc_malloc(b->al, (size_t)maxn * sizeof *b->w.p);
  b->w.id = opc_malloc(b->al, (size_t)maxn * sizeof *b->w.id);
  b->w.ear = opc_malloc(b->al, (size_t)maxn);
  b->tri = opc_malloc(b->al, (size_t)maxn * 3 * sizeof *b->tri);
  /* at most n - 2 triangles, 3 edges each */
  b->me = opc_malloc(b->al, (size_t)maxn * 6 * sizeof *b->me);
  if (!b->t.bucket || !b->w.p || !b->w.id || !b->w.ear || !b->tri || !b->me) return 0;
  for (uint32_t i = 0; i < b->t.nbucket; i++) b->t.bucket[i] = UINT32_MAX;
  return 1;
}

/* One contour (POLY-020): its counter-clockwise working list with welded vertex ids
** (POLY-021, POLY-030, POLY-031), ear clipping (POLY-032 ..), merging (POLY-040 ..), the
** polygons appended with the contour's region and area, the limit of POLY-080. */
static op_status add_contour(pbuild *b, const op_tilemap *map, const op_contour_set *cs,
                             const op_contour *ct, int32_t border, op_error *err) {
  uint32_t n = ct->nverts, nvp = b->pl.nvp;
  if (n < 3) return OP_OK;
  /* POLY-021: counter-clockwise working list u_k = v_((n - k) mod n), tile-local. */
  b->w.n = n;
  for (uint32_t k = 0; k < n; k++) {
    const op_cvert *v = &cs->verts[ct->vert_start + (n - k) % n];
    int32_t x = v->x - border, z = v->z - border;
    uint32_t id = weld(&b->t, x, v->y, z); /* POLY-030, POLY-031 */
    if (id == UINT32_MAX) return opc_nomem(err, "polys");
    if (id == UINT32_MAX - 1)
      return op_fail_i(err, OP_E_LIMIT, "nverts", (long long)OP_PMESH_MAX_VERTS + 1,
                       "a tile has at most 65535 polygon vertices");
    b->w.p[k].x = x;
    b->w.p[k].z = z;
    b->w.id[k] = (uint16_t)id;
  }
  uint32_t ntri = 0;
  if (!triangulate(&b->w, map, b->tri, &ntri)) b->untri++;
  if (ntri == 0) return OP_OK; /* nothing to merge (and pl.v may still be NULL) */
  plist *pl = &b->pl;
  if (!plist_reserve(pl, pl->n + ntri)) return opc_nomem(err, "polys");
  uint16_t *base = pl->v + (size_t)pl->n * nvp;
  for (uint32_t i = 0; i < ntri; i++)
    for (uint32_t k = 0; k < nvp; k++)
      base[(size_t)i * nvp + k] = k < 3 ? b->tri[3 * i + k] : OP_PMESH_NULL;
  uint32_t np = merge_polys(&b->t, map, base, ntri, nvp, b->me, b->me + (size_t)b->maxn * 3);
  for (uint32_t i = 0; i < np; i++) {
    pl->reg[pl->n + i] = ct->reg;
    pl->area[pl->n + i] = ct->area;
  }
  pl->n += np;
  if (pl->n > OP_PMESH_MAX_POLYS) /* POLY-080 */
    return op_fail_i(err, OP_E_LIMIT, "npolys", (long long)pl->n,
                     "a tile has at most 32767 polygons");
  return OP_OK;
}

/* The output mesh from the working state: unused vertices dropped (POLY-071), polygons
** rotated to their lowest vertex (POLY-070), neighbour codes after renumbering (POLY-062,
** link_polys). *pm is filled as far as it got, also on failure (op_pmesh_free frees it). */
static op_status finish_mesh(const pbuild *b, const op_tilemap *map, op_pmesh *pm,
                             op_error *err) {
  const vtab *t = &b->t;
  const plist *pl = &b->pl;
  uint32_t nvp = pl->nvp;
  uint32_t *remap = opc_malloc(b->al, ((size_t)t->n + 1) * sizeof *remap); /* CONF-059 */
  if (!remap) return opc_nomem(err, "polys");
  for (uint32_t i = 0; i < t->n; i++) remap[i] = 0;
  for (size_t i = 0; i < (size_t)pl->n * nvp; i++)
    if (pl->v[i] != OP_PMESH_NULL) remap[pl->v[i]] = 1;
  uint32_t nv = 0;
  for (uint32_t i = 0; i < t->n; i++) remap[i] = remap[i] ? nv++ : UINT32_MAX;

  pm->map = *map;
  pm->nvp = nvp;
  pm->nverts = nv;
  pm->npolys = pl->n;
  pm->untriangulated = b->untri;
  pm->verts = opc_malloc(b->al, ((size_t)nv * 3 + 1) * sizeof *pm->verts);
  pm->polys = opc_malloc(b->al, ((size_t)pl->n * nvp + 1) * sizeof *pm->polys);
  pm->neis = opc_calloc(b->al, (size_t)pl->n * nvp + 1, sizeof *pm->neis);
  pm->regs = opc_malloc(b->al, ((size_t)pl->n + 1) * sizeof *pm->regs);
  pm->areas = opc_malloc(b->al, (size_t)pl->n + 1);
  pm->flags = opc_calloc(b->al, (size_t)pl->n + 1, sizeof *pm->flags); /* POLY-076 */
  if (!pm->verts || !pm->polys || !pm->neis || !pm->regs || !pm->areas || !pm->flags) {
    free(remap);
    return opc_nomem(err, "polys");
  }
  for (uint32_t i = 0; i < t->n; i++) {
    if (remap[i] == UINT32_MAX) continue;
    memcpy(pm->verts + 3 * (size_t)remap[i], t->v + 3 * (size_t)i, 3 * sizeof *pm->verts);
  }
  for (size_t i = 0; i < (size_t)pl->n * nvp; i++)
    pm->polys[i] = pl->v[i] == OP_PMESH_NULL ? OP_PMESH_NULL : (uint16_t)remap[pl->v[i]];
  free(remap);
  for (uint32_t p = 0; p < pl->n; p++) {
    rotate_lowest(pm->polys + (size_t)p * nvp, nvp); /* POLY-070 */
    pm->regs[p] = pl->reg[p];
    pm->areas[p] = pl->area[p];
  }
  return link_polys(pm, b->al, err);
}

/* POLY-011 .. POLY-080: BuildPolyMesh. */
op_status op_pmesh_build(const op_contour_set *cs, const op_hf_grid *grid, int32_t border,
                         uint32_t nvp, op_pmesh *out, op_error *err) {
  return op_pmesh_build_counted(cs, grid, border, nvp, NULL, out, err);
}

/* CONF-059: every allocation of the build counted on al. */
op_status op_pmesh_build_counted(const op_contour_set *cs, const op_hf_grid *grid,
                                 int32_t border, uint32_t nvp, op_alloc_count *al,
                                 op_pmesh *out, op_error *err) {
  op_tilemap map;
  uint32_t maxn = 3;
  uint64_t nall = 0;
  op_status st = check_input(cs, grid, border, nvp, &map, &maxn, &nall, err);
  if (st != OP_OK) return st;
  pbuild b;
  memset(&b, 0, sizeof b);
  b.al = b.t.al = b.pl.al = al; /* CONF-059 */
  op_pmesh pm;
  memset(&pm, 0, sizeof pm);
  if (!pbuild_alloc(&b, nvp, maxn, nall)) st = opc_nomem(err, "polys");
  for (uint32_t c = 0; c < cs->ncontours && st == OP_OK; c++) /* POLY-020: in order */
    st = add_contour(&b, &map, cs, &cs->contours[c], border, err);
  if (st == OP_OK) st = finish_mesh(&b, &map, &pm, err);
  pbuild_free(&b);
  if (st != OP_OK) {
    op_pmesh_free(&pm);
    return st;
  }
  *out = pm;
  return OP_OK;
}

/* ============================================================ canonical bytes */

/* POLY-090 */
op_status op_pmesh_save(const op_pmesh *pm, op_bytes *out, op_error *err) {
  size_t len = 16 + (size_t)pm->nverts * 12 + (size_t)pm->npolys * (4 * (size_t)pm->nvp + 5);
  opc_buf b = {NULL, 0, 0, 0};
  if (opc_buf_reserve(&b, len)) return opc_nomem(err, "polys"); /* exact size: no put reallocates */
  opc_put_u32(&b, 0x594c4f50u); /* "POLY" */
  opc_put_u32(&b, pm->nvp);
  opc_put_u32(&b, pm->nverts);
  opc_put_u32(&b, pm->npolys);
  for (size_t i = 0; i < 3 * (size_t)pm->nverts; i++) opc_put_u32(&b, (uint32_t)pm->verts[i]);
  for (uint32_t q = 0; q < pm->npolys; q++) {
    for (uint32_t k = 0; k < pm->nvp; k++) opc_put_u16(&b, pm->polys[(size_t)q * pm->nvp + k]);
    for (uint32_t k = 0; k < pm->nvp; k++) opc_put_u16(&b, pm->neis[(size_t)q * pm->nvp + k]);
    opc_put_u16(&b, pm->regs[q]);
    opc_put_u8(&b, pm->areas[q]);
    opc_put_u16(&b, pm->flags[q]);
  }
  assert(!b.oom && b.len == len);
  out->data = b.p;
  out->len = b.len;
  return OP_OK;
}
