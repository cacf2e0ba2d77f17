/*
** query_internal.h -- shared by the ref/query/ files (spec/query.md): one polygon read from the
** mesh in world coordinates, the exact orientation, the geometry of one polygon, the query
** object's state. Internal: not part of the public API (include/onepath_query.h).
*/
#ifndef OPQ_QUERY_INTERNAL_H
#define OPQ_QUERY_INTERNAL_H

#include <math.h>

#include "onepath.h"
#include "onepath_query.h"

/* One polygon of the mesh as a query reads it (QRY-002, QRY-010). */
typedef struct opq_poly {
  op_ref ref;
  op_poly_id id;
  op_tile_desc v;         /* the tile's arrays (op_tile_view) */
  const op_poly_desc *p;  /* the polygon */
  uint32_t n;             /* its vertex count */
  double x0, z0, oy;      /* FMT-005 x0, z0 and FMT-004 origin_y */
  double x1, z1;          /* FMT-005 x1, z1: the world lines of local fW (QRY-010) */
  float fw;               /* FMT-008 fW */
  uint16_t flags;         /* current (MESH-030) */
  uint8_t area;
  const op_link *links;   /* MESH-066, canonical order */
  uint32_t nlinks;
} opq_poly;

/* Resolves ref (QRY-022) and reads the polygon; a failure names `field`. */
op_status opq_poly_get(const op_mesh *m, op_ref ref, const char *field, opq_poly *out,
                       op_error *err);
/* QRY-010: sets P's x0, x1, z0, z1, fw and oy from P->v for tile (tx, tz). */
void opq_frame(opq_poly *P, int32_t tx, int32_t tz);
/* QRY-010: the world point of a tile-local point of P's tile: FMT-007, except that local fW on
** x or z is the border line x1 or z1 itself, so a point on a tile side or corner has one world
** x and z whichever tile it is read from. Inline: every query reads vertices through it. */
static inline void opq_local(const opq_poly *P, const float *l, double out[3]) {
  out[0] = l[0] == P->fw ? P->x1 : P->x0 + (double)l[0];
  out[1] = P->oy + (double)l[1];
  out[2] = l[2] == P->fw ? P->z1 : P->z0 + (double)l[2];
}
/* World point of polygon vertex k (QRY-010). */
static inline void opq_vert(const opq_poly *P, uint32_t k, double out[3]) {
  opq_local(P, &P->v.verts[3 * P->p->verts[k]], out);
}
/* The reference + canonical id pair of P (QRY-024). */
void opq_qpoly(const opq_poly *P, op_query_poly *out);

/* QRY-012 steps 1 to 3 (geom.c): the exact sign from flushed coordinates. */
int opq_orient_exact(double ax, double az, double bx, double bz, double cx, double cz);

/* QRY-011: coordinates below 2^-400 in magnitude count as 0. */
static inline double opq_flush(double v) {
  return fabs(v) < 0x1p-400 ? 0.0 : v;
}

/* QRY-011/QRY-012: exact sign of the orientation of (a, b, c) on x and z. Inline: the filter
** decides almost every call; the exact steps are opq_orient_exact. */
static inline int opq_orient(const double a[3], const double b[3], const double c[3]) {
  double ax = opq_flush(a[0]), az = opq_flush(a[2]), bx = opq_flush(b[0]), bz = opq_flush(b[2]);
  double cx = opq_flush(c[0]), cz = opq_flush(c[2]);
  /* the filter (QRY-012, informative): decides only when the bound proves the sign */
  double l = (bx - ax) * (cz - az), r = (bz - az) * (cx - ax), det = l - r;
  double bound = (fabs(l) + fabs(r)) * 3.3306690738754716e-16;
  if (det > bound) return 1;
  if (det < -bound) return -1;
  /* QRY-012, exact shortcut: l and r both 0 means D = 0 exactly. A difference of two
  ** coordinates rounds to 0 only when they are equal (gradual underflow), and a nonzero one
  ** is at least 2^-452 in magnitude (coordinates are 0 or at least 2^-400, QRY-011), so a
  ** product of two nonzero differences is at least 2^-904 and never rounds to 0: l = 0 (r = 0)
  ** only when a factor of the exact product is exactly 0. Then both exact products are 0. */
  if (l == 0.0 && r == 0.0) return 0;
  return opq_orient_exact(ax, az, bx, bz, cx, cz);
}
/* QRY-013 (inline: find path takes three a link) */
static inline double opq_dist2(const double a[3], const double b[3]) {
  double dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
  double s = dx * dx + dy * dy;
  return s + dz * dz;
}
static inline double opq_dist(const double a[3], const double b[3]) {
  return sqrt(opq_dist2(a, b));
}
/* QRY-040 */
int opq_inside(const opq_poly *P, const double p[3]);
/* QRY-041: the closest point q of segment a -> b to p (t clamped to [0, 1]); returns the plane
** distance squared. Shared by opq_boundary, move along surface and distance to wall. */
double opq_seg_closest(const double a[3], const double b[3], const double p[3], double q[3]);
/* QRY-042: the closest boundary point (x, edge height, z) of P to p (x, z). */
void opq_boundary(const opq_poly *P, const double p[3], double q[3]);
/* QRY-043: surface height at (x, z). */
double opq_height(const opq_poly *P, double x, double z);
/* QRY-064: the centre of P, (((v0 + v1) + v2) + ... + v[n-1]) / n per coordinate (find path's
** node points, nearest_index.c's per-tile centres, QSF-115). */
void opq_centre(const opq_poly *P, double c[3]);
/* QRY-045: closest point; returns over. */
int opq_closest(const opq_poly *P, const double pos[3], double out[3]);
/* QRY-063: portal ends (left, right) of link lk of P. */
void opq_portal(const opq_poly *P, const op_link *lk, double left[3], double right[3]);

/* QRY-020, QRY-021: position checks (copy with -0 made +0); `name` is "start", ... */
/* QRY-031, inline for the search loops; op_query_filter_passes is this. */
static inline int opq_passes(const op_query_filter *f, uint16_t flags) {
  return (flags & f->include_flags) != 0 && (flags & f->exclude_flags) == 0;
}

/* QRY-030's default filter, a constant (query_filter.c). */
const op_query_filter *opq_filter_default(void);
op_status opq_check_pos(const double in[3], const char *name, double out[3], op_error *err);
op_status opq_check_coord(double v, const char *name, double *out, op_error *err);

/* A tile read once per query call (poly.c): the readers are asked once per tile, not per
** polygon; valid while the epoch of its query object is unchanged (the mesh does not change
** during one call). */
typedef struct opq_tcache {
  uint64_t epoch;
  uint32_t slot, gen;
  op_mesh_tile te;
  op_tile_desc v;
  const op_link *links;
  uint32_t nlinks;
  double x0, z0, x1, z1; /* QRY-010 */
  float fw;
} opq_tcache;
#define OPQ_TCACHE 256

/* An off-mesh connection (QRY-070), made per query call from the tiles' slots. */
typedef struct opq_conn {
  op_ref from, to;  /* start and end polygon */
  uint32_t seq;     /* the order of making (QRY-070) */
  double a[3], b[3]; /* the snapped points on from and on to */
  uint16_t flags;
  uint8_t area;
  uint32_t user_id; /* the slot's (FMT-027), for QCR-223's answer */
} opq_conn;

/* A search node (QRY-068). */
typedef struct opq_node {
  op_ref ref;
  op_poly_id id;
  double pos[3];   /* node point (QRY-064) */
  double g, h, f;
  double cost;     /* its polygon's cost (QRY-032), read when the node is made */
  int32_t parent;  /* node index, -1 for the start */
  uint32_t heap;   /* position in the open heap, UINT32_MAX when not open */
} opq_node;

struct op_query {
  const op_mesh *mesh;
  uint32_t max_nodes;
  opq_node *nodes;     /* max_nodes */
  uint32_t *heap;      /* open list, node indices */
  int32_t *hash;       /* ref -> node index, open addressing, hcap slots */
  uint32_t *hstamp;    /* slot i is in use by this search when hstamp[i] == stamp */
  uint32_t hcap, stamp; /* a new search takes a new stamp instead of clearing hash */
  op_query_poly *polys; /* answer buffer of find path */
  uint32_t cap_polys;
  op_query_corner *corners; /* answer buffer of straight path */
  uint32_t cap_corners;
  opq_conn *conns;          /* the mesh's connections (QRY-070), by (from, seq) */
  uint32_t nconns, cap_conns;
  uint64_t epoch;           /* one per public call */
  opq_tcache tc[OPQ_TCACHE]; /* direct-mapped by slot */
  struct opq_nidx *nidx;     /* nearest.c's polygon boxes per tile (nearest_index.c), or NULL */
};
void opq_nidx_free(struct opq_nidx *x);

/* opq_poly_get through the query object's tile cache (same answers, same errors). */
op_status opq_poly_get_q(op_query *q, op_ref ref, const char *field, opq_poly *out,
                         op_error *err);
/* Starts a public call: the tile cache forgets every tile. */
void opq_begin(op_query *q);

/* QRY-070: makes q->conns for the mesh as it is (offmesh.c). */
op_status opq_conns_build(op_query *q, op_error *err);
/* The first connection of polygon ref in q->conns (q->nconns when it has none). */
uint32_t opq_conn_first(const op_query *q, op_ref ref);
/* QRY-072: the index in q->conns of the first connection from P to polygon `to`, or -1 when
** there is none; *built says whether q->conns is made yet (made on the first need). */
int32_t opq_conn_to(op_query *q, const opq_poly *P, op_ref to, int *built, op_status *st,
                    op_error *err);

/* Nearest polygon with a checked filter and checked box (QRY-050 .. QRY-052). */
op_status opq_nearest(op_query *q, const double c[3], const double h[3],
                      const op_query_filter *f, op_query_nearest *out, op_error *err);

/* QRY-068 .. QRY-069 from accepted endpoints sn, en (found, poly, point), filter checked
** (findpath.c). */
op_status opq_search(op_query *q, const op_query_nearest *sn, const op_query_nearest *en,
                     const op_query_filter *filter, uint32_t max_path, op_query_path *out,
                     op_error *err);

#endif
