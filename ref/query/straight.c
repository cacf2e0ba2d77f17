/*
** straight.c -- FindStraightPath (spec/query.md, section 8: QRY-080 .. QRY-085): the portals
** of a polygon path, the funnel with exact turns (QRY-011), corners with flags and polygons,
** and the optional crossings at area changes or at every portal. A path with off-mesh steps
** (QRY-072) is pulled section by section, each link's ends becoming OFFMESH corners.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "query/query_internal.h"

typedef struct portal {
  double l[3], r[3];
} portal;

typedef struct sp {
  op_query *q;
  const opq_poly *polys; /* n */
  const portal *po;      /* n */
  op_crossings mode;
  uint32_t n, count, cap;
  op_query_corner *c;
  int oom;
} sp;

/* QRY-083: adding a point to the corner list. */
static void add(sp *s, const double p[3], uint8_t flags, uint32_t poly) {
  if (s->count > 0) {
    op_query_corner *last = &s->c[s->count - 1];
    if (last->point[0] == p[0] && last->point[2] == p[2]) {
      memcpy(last->point, p, sizeof last->point);
      last->flags = (uint8_t)(last->flags | flags);
      opq_qpoly(&s->polys[poly], &last->poly);
      return;
    }
  }
  if (s->count == s->cap) {
    uint32_t nc = s->cap ? 2 * s->cap : 16;
    op_query_corner *c = realloc(s->c, sizeof *c * nc);
    if (!c) {
      s->oom = 1;
      return;
    }
    s->c = c;
    s->cap = nc;
  }
  op_query_corner *k = &s->c[s->count++];
  memcpy(k->point, p, sizeof k->point);
  k->flags = flags;
  opq_qpoly(&s->polys[poly], &k->poly);
}

/* QRY-084: crossings of apex -> corner with portals a < j < k. */
static void crossings(sp *s, const double A[3], int32_t a, const double C[3], int32_t k) {
  if (s->mode == OP_CROSS_NONE) return;
  for (int32_t j = a + 1; j < k; j++) {
    if (s->mode == OP_CROSS_AREA && s->polys[j].area == s->polys[j + 1].area) continue;
    const double *L = s->po[j].l, *R = s->po[j].r;
    double ux = C[0] - A[0], uz = C[2] - A[2];
    double vx = R[0] - L[0], vz = R[2] - L[2];
    double wx = A[0] - L[0], wz = A[2] - L[2];
    double den = ux * vz - uz * vx;
    if (den == 0.0) continue;
    double t = (ux * wz - uz * wx) / den;
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    double p[3] = {L[0] + vx * t, L[1] + (R[1] - L[1]) * t, L[2] + vz * t};
    add(s, p, 0, (uint32_t)(j + 1));
  }
}

/* QRY-083: the polygon of a funnel corner from portal index k of a section ending at e. */
static uint32_t corner_poly(int32_t k, int32_t e) {
  return k + 1 <= e ? (uint32_t)(k + 1) : (uint32_t)e;
}

static int coincide(const double a[3], const double b[3]) {
  return a[0] == b[0] && a[2] == b[2];
}

/* QRY-082 on the section of polygons b .. e (QRY-072; the whole path: 0 .. n-1), from st
** (added with flags fs) to en (portal e, added with flags fe and polygon pe). */
static void funnel(sp *s, const double st[3], const double en[3], int32_t b, int32_t e,
                   uint8_t fs, uint8_t fe, uint32_t pe) {
  double A[3], L[3], R[3];
  memcpy(A, st, sizeof A);
  memcpy(L, st, sizeof L);
  memcpy(R, st, sizeof R);
  int32_t a = b - 1, l = b - 1, r = b - 1;
  add(s, st, fs, (uint32_t)b);
  for (int32_t i = a + 1; i <= e; i++) {
    const double *pl = s->po[i].l, *pr = s->po[i].r;
    /* step 1: right side */
    if (opq_orient(A, R, pr) >= 0) {
      if (coincide(A, R) || opq_orient(A, L, pr) < 0) {
        memcpy(R, pr, sizeof R);
        r = i;
      } else {
        crossings(s, A, a, L, l);
        add(s, L, 0, corner_poly(l, e));
        memcpy(A, L, sizeof A);
        a = l;
        memcpy(R, A, sizeof R);
        l = r = a;
        i = a; /* the loop's increment restarts at a + 1 */
        continue;
      }
    }
    /* step 2: left side */
    if (opq_orient(A, L, pl) <= 0) {
      if (coincide(A, L) || opq_orient(A, R, pl) > 0) {
        memcpy(L, pl, sizeof L);
        l = i;
      } else {
        crossings(s, A, a, R, r);
        add(s, R, 0, corner_poly(r, e));
        memcpy(A, R, sizeof A);
        a = r;
        memcpy(L, A, sizeof L);
        l = r = a;
        i = a;
        continue;
      }
    }
  }
  crossings(s, A, a, en, e);
  add(s, en, fe, pe);
}

/* QRY-072: the sections between off-mesh steps (om[i] >= 0: the step from polygon i to i + 1
** is connection om[i]), each pulled by the funnel. */
static void sections(sp *s, const int32_t *om, const double s0[3], const double t0[3]) {
  int32_t n = (int32_t)s->n, b = 0;
  const double *st = s0;
  uint8_t fs = OP_CORNER_START;
  for (int32_t i = 0; i < n; i++) {
    if (i == n - 1) {
      funnel(s, st, t0, b, i, fs, OP_CORNER_END, (uint32_t)i);
    } else if (om[i] >= 0) {
      const opq_conn *c = &s->q->conns[om[i]];
      funnel(s, st, c->a, b, i, fs, OP_CORNER_OFFMESH, (uint32_t)i);
      st = c->b, fs = OP_CORNER_OFFMESH, b = i + 1;
    }
  }
}


static const char *crossing_name(op_crossings c) {
  return c == OP_CROSS_NONE ? "none" : c == OP_CROSS_AREA ? "area" : c == OP_CROSS_ALL ? "all" : "";
}

op_status op_query_straight_path(op_query *q, const double start[3], const double end[3],
                                 const op_ref *path, uint32_t npath, op_crossings crossings_mode,
                                 uint32_t max_corners, const op_query_corner **corners,
                                 uint32_t *ncorners, op_error *err) {
  if (!q) return op_fail(err, OP_E_ARGUMENT, "query", "NULL", "query is required");
  if (!corners || !ncorners)
    return op_fail(err, OP_E_ARGUMENT, "corners", "NULL", "corners and ncorners are required");
  double sp0[3], ep0[3];
  op_status st = opq_check_pos(start, "start", sp0, err); /* QRY-080 */
  if (!st) st = opq_check_pos(end, "end", ep0, err);
  if (st) return st;
  if (npath < 1 || npath > OP_QUERY_MAX_PATH)
    return op_fail_i(err, OP_E_RANGE, "path", (long long)npath, "a path has 1 to 65536 polygons");
  if (!path) return op_fail(err, OP_E_ARGUMENT, "path", "NULL", "path is required");
  opq_poly *polys = malloc(sizeof *polys * npath);
  portal *po = malloc(sizeof *po * npath);
  int32_t *om = malloc(sizeof *om * npath);
  if (!polys || !po || !om) {
    free(polys);
    free(po);
    free(om);
    return opc_nomem(err, "query");
  }
  int built = 0;
  char f[32];
  opq_begin(q);
  for (uint32_t i = 0; i < npath && !st; i++) {
    st = opq_poly_get_q(q, path[i], "path", &polys[i], err);
    if (st && err) snprintf(err->field, sizeof err->field, "path[%u]", i); /* named on failure only */
  }
  for (uint32_t i = 1; i < npath && !st; i++) { /* QRY-080, QRY-081 */
    const opq_poly *P = &polys[i - 1];
    uint32_t k = 0;
    while (k < P->nlinks && P->links[k].target != path[i]) k++;
    om[i - 1] = -1;
    if (k == P->nlinks && (om[i - 1] = opq_conn_to(q, P, path[i], &built, &st, err)) >= 0) {
      const double *a = q->conns[om[i - 1]].a; /* QRY-072: an off-mesh step */
      memcpy(po[i - 1].l, a, sizeof po[i - 1].l);
      memcpy(po[i - 1].r, a, sizeof po[i - 1].r);
    } else if (st) {
      break;
    } else if (k == P->nlinks) {
      char v[24];
      snprintf(v, sizeof v, "%016llx", (unsigned long long)path[i]);
      snprintf(f, sizeof f, "path[%u]", i);
      st = op_fail(err, OP_E_ARGUMENT, f, v, "polygon %u has no link to this polygon", i - 1);
    } else {
      opq_portal(P, &P->links[k], po[i - 1].l, po[i - 1].r);
    }
  }
  if (!st && crossing_name(crossings_mode)[0] == '\0')
    st = op_fail_i(err, OP_E_ARGUMENT, "crossings", (long long)crossings_mode,
                   "crossings is none, area or all");
  if (!st) {
    if (max_corners < 1 || max_corners > OP_QUERY_MAX_CORNERS)
      st = op_fail_i(err, OP_E_RANGE, "max_corners", (long long)max_corners,
                     "must be in [1, 262144]");
  }
  if (st) {
    free(polys);
    free(po);
    free(om);
    return st;
  }
  double s0[3], t0[3];
  opq_closest(&polys[0], sp0, s0); /* QRY-080 */
  opq_closest(&polys[npath - 1], ep0, t0);
  memcpy(po[npath - 1].l, t0, sizeof t0); /* QRY-081 */
  memcpy(po[npath - 1].r, t0, sizeof t0);
  sp s = {q, polys, po, crossings_mode, npath, 0, q->cap_corners, q->corners, 0};
  om[npath - 1] = -1;
  sections(&s, om, s0, t0);
  q->corners = s.c;
  q->cap_corners = s.cap;
  free(polys);
  free(po);
  free(om);
  if (s.oom) return opc_nomem(err, "query");
  if (s.count > max_corners) /* QRY-085 */
    return op_fail_i(err, OP_E_LIMIT, "max_corners", (long long)s.count,
                     "the straight path has more corners than max_corners");
  *corners = s.c;
  *ncorners = s.count;
  return OP_OK;
}
