/*
** geom.c -- the numbers and the geometry of one polygon for the queries (spec/query.md,
** sections 2 and 5): the exact orientation on binary64 world points (QRY-011, QRY-012),
** distances (QRY-013), inside (QRY-040), closest points on edges and boundary (QRY-041,
** QRY-042), surface height (QRY-043), closest point (QRY-045), the centre (QRY-064) and portals
** (QRY-063).
**
** QRY-014: every yes/no decision here is an exact sign (opq_orient) or an exact comparison of
** binary64 values; every length, height and parameter is binary64 in the written order.
*/
#include <math.h>

#include "query/query_internal.h"

/* MATH-033 */
static void two_sum(double p, double q, double *s, double *e) {
  double x = p + q, bv = x - p, av = x - bv;
  *s = x;
  *e = (p - av) + (q - bv);
}

/* QRY-012 step 2: Dekker's exact product. */
static void split(double v, double *hi, double *lo) {
  double t = 134217729.0 * v;
  *hi = t - (t - v);
  *lo = v - *hi;
}

static void two_prod(double p, double q, double *h, double *e) {
  double ph, pl, qh, ql;
  *h = p * q;
  split(p, &ph, &pl);
  split(q, &qh, &ql);
  *e = ((ph * qh - *h) + ph * ql + pl * qh) + pl * ql;
}

/* QRY-012 steps 1 to 3 on the flushed coordinates (query_internal.h's opq_orient has applied
** QRY-011's replacement and the filter). */
int opq_orient_exact(double ax, double az, double bx, double bz, double cx, double cz) {
  /* the exact steps */
  double pa[6] = {bx, -bx, -ax, -bz, bz, az};
  double pb[6] = {cz, az, cz, cx, ax, cx};
  double e[12];
  int ne = 0;
  for (int k = 0; k < 6; k++) {
    double h, lo;
    two_prod(pa[k], pb[k], &h, &lo);
    double terms[2] = {h, lo};
    for (int m = 0; m < 2; m++) {
      double q = terms[m];
      for (int j = 0; j < ne; j++) {
        double s, er;
        two_sum(q, e[j], &s, &er);
        q = s;
        e[j] = er;
      }
      e[ne++] = q;
    }
  }
  for (int j = ne - 1; j >= 0; j--) {
    if (e[j] > 0) return 1;
    if (e[j] < 0) return -1;
  }
  return 0;
}

/* QRY-040 */
int opq_inside(const opq_poly *P, const double p[3]) {
  double a[3], b[3], first[3];
  opq_vert(P, 0, first);
  a[0] = first[0], a[1] = first[1], a[2] = first[2];
  for (uint32_t j = 0; j < P->n; j++) {
    if (j + 1 < P->n) opq_vert(P, j + 1, b);
    else b[0] = first[0], b[1] = first[1], b[2] = first[2];
    if (opq_orient(a, b, p) < 0) return 0;
    a[0] = b[0], a[1] = b[1], a[2] = b[2];
  }
  return 1;
}

/* QRY-041: closest point of edge a -> b to p; returns its plane distance. */
double opq_seg_closest(const double a[3], const double b[3], const double p[3], double q[3]) {
  double ux = b[0] - a[0], uz = b[2] - a[2];
  double den = ux * ux + uz * uz;
  double t = 0.0;
  if (den != 0.0) t = ((p[0] - a[0]) * ux + (p[2] - a[2]) * uz) / den;
  if (t < 0.0) t = 0.0;
  if (t > 1.0) t = 1.0;
  q[0] = a[0] + ux * t;
  q[2] = a[2] + uz * t;
  q[1] = a[1] + (b[1] - a[1]) * t;
  double dx = q[0] - p[0], dz = q[2] - p[2];
  return dx * dx + dz * dz;
}

/* QRY-042: the least plane distance, the lowest edge on ties. */
void opq_boundary(const opq_poly *P, const double p[3], double q[3]) {
  double best = 0.0;
  for (uint32_t j = 0; j < P->n; j++) {
    double a[3], b[3], c[3];
    opq_vert(P, j, a);
    opq_vert(P, (j + 1) % P->n, b);
    double d = opq_seg_closest(a, b, p, c);
    if (j == 0 || d < best) {
      best = d;
      q[0] = c[0], q[1] = c[1], q[2] = c[2];
    }
  }
}

/* QRY-043: a triangle that contains p gives its height in *h. */
static int tri_height(const double a[3], const double b[3], const double c[3], const double p[3],
                      double *h) {
  /* p is in the triangle unless two of the three signs are strictly opposite; the third
  ** sign is not needed once the first two are (orient has no side effect) */
  int s1 = opq_orient(a, b, p), s2 = opq_orient(b, c, p);
  if (s1 * s2 < 0) return 0;
  int s3 = opq_orient(c, a, p);
  int pos = s1 > 0 || s2 > 0 || s3 > 0, neg = s1 < 0 || s2 < 0 || s3 < 0;
  if (pos && neg) return 0;
  double den = (b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0]);
  if (den == 0.0) return 0;
  double u = ((p[0] - a[0]) * (c[2] - a[2]) - (p[2] - a[2]) * (c[0] - a[0])) / den;
  double w = ((b[0] - a[0]) * (p[2] - a[2]) - (b[2] - a[2]) * (p[0] - a[0])) / den;
  *h = (a[1] + (b[1] - a[1]) * u) + (c[1] - a[1]) * w;
  return 1;
}

/* FMT-025: detail index k of polygon P's record as a world point. */
static void detail_point(const opq_poly *P, const op_detail_desc *r, uint32_t k, double out[3]) {
  if (k < P->n) opq_vert(P, k, out);
  else opq_local(P, &P->v.detail_verts[3 * (r->vert_base + (k - P->n))], out);
}

/* QRY-043 */
double opq_height(const opq_poly *P, double x, double z) {
  double p[3] = {x, 0.0, z}, h, a[3], b[3], c[3];
  if (P->v.ndetail > 0) { /* step 1 */
    const op_detail_desc *r = &P->v.detail[P->id.poly];
    for (uint32_t t = 0; t < r->tri_count; t++) {
      const uint8_t *tri = &P->v.detail_tris[4 * (r->tri_base + t)];
      detail_point(P, r, tri[0], a);
      detail_point(P, r, tri[1], b);
      detail_point(P, r, tri[2], c);
      if (tri_height(a, b, c, p, &h)) return h;
    }
  }
  opq_vert(P, 0, a); /* step 2 */
  for (uint32_t i = 1; i + 1 < P->n; i++) {
    opq_vert(P, i, b);
    opq_vert(P, i + 1, c);
    if (tri_height(a, b, c, p, &h)) return h;
  }
  double q[3]; /* step 3 */
  opq_boundary(P, p, q);
  return q[1];
}

/* QRY-064 */
void opq_centre(const opq_poly *P, double c[3]) {
  double v[3];
  opq_vert(P, 0, c);
  for (uint32_t k = 1; k < P->n; k++) {
    opq_vert(P, k, v);
    c[0] = c[0] + v[0], c[1] = c[1] + v[1], c[2] = c[2] + v[2];
  }
  double n = (double)P->n;
  c[0] = c[0] / n, c[1] = c[1] / n, c[2] = c[2] / n;
}

/* QRY-045 */
int opq_closest(const opq_poly *P, const double pos[3], double out[3]) {
  if (opq_inside(P, pos)) {
    out[0] = pos[0];
    out[1] = opq_height(P, pos[0], pos[2]);
    out[2] = pos[2];
    return 1;
  }
  opq_boundary(P, pos, out);
  out[1] = opq_height(P, out[0], out[2]);
  return 0;
}

/* MESH-023: world height of the edge (u_a, h_a) -> (u_b, h_b) at u. */
static double edge_height(double ua, double ha, double ub, double hb, double u) {
  if (u == ua) return ha;
  if (u == ub) return hb;
  double t = (u - ua) / (ub - ua);
  return ha + (hb - ha) * t;
}

/* QRY-063 */
void opq_portal(const opq_poly *P, const op_link *lk, double left[3], double right[3]) {
  uint32_t j = lk->edge;
  if (lk->side == OP_LINK_INTERNAL) {
    opq_vert(P, j, right);
    opq_vert(P, (j + 1) % P->n, left);
    return;
  }
  const float *la = &P->v.verts[3 * P->p->verts[j]];
  const float *lb = &P->v.verts[3 * P->p->verts[(j + 1) % P->n]];
  int ax = (lk->side == 0 || lk->side == 2) ? 2 : 0; /* MESH-022: the along-coordinate */
  int ox = 2 - ax;
  double ua = la[ax], ub = lb[ax];
  double ha = P->oy + (double)la[1], hb = P->oy + (double)lb[1];
  double ends[2][3];
  float us[2] = {lk->lo, lk->hi};
  for (int e = 0; e < 2; e++) {
    float l[3];
    l[ax] = us[e];
    l[ox] = la[ox];
    l[1] = 0.0f;
    opq_local(P, l, ends[e]);
    ends[e][1] = edge_height(ua, ha, ub, hb, (double)us[e]);
  }
  int hi_left = ub > ua;
  for (int k = 0; k < 3; k++) {
    left[k] = ends[hi_left ? 1 : 0][k];
    right[k] = ends[hi_left ? 0 : 1][k];
  }
}
