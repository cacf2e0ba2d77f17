/*
** move.c -- MoveAlongSurface (spec/query-surface.md section 3, QSF-110 .. QSF-116; on spec/query.md): a
** breadth-first search over the polygons near the segment from start to end (a search circle
** over it), in a written visiting order, that stops at the polygon holding the end point or
** else keeps the wall point nearest to it; the answer is that point, inside its polygon, with
** its surface height, and the route of polygons to it.
**
** Nodes live in one array in creation order, which is also the queue (FIFO); they are found
** by reference through an open-addressing table that is only looked up, never iterated.
*/
#include <math.h>
#include <stdlib.h>

#include "core/internal.h"
#include "query/surface_internal.h"

typedef struct mnode {
  op_ref ref;
  int32_t parent;
} mnode;

typedef struct msearch {
  op_query *q;
  const op_query_filter *f;
  double s[3], e[3];
  double mx, mz, r2;   /* the search circle (QSF-111) */
  mnode *nodes;
  uint32_t nnodes, cap;
  int32_t *hash;
  uint32_t hmask;
  int truncated;
  double best[3], best_d;
  int32_t best_node;
} msearch;

static uint32_t hslot(const msearch *m, op_ref r) {
  uint64_t h = r * 0x9E3779B97F4A7C15ull;
  return (uint32_t)(h >> 32) & m->hmask;
}

/* the node of r, or -1; *slot receives where it is or would go */
static int32_t find(const msearch *m, op_ref r, uint32_t *slot) {
  uint32_t i = hslot(m, r);
  while (m->hash[i] >= 0 && m->nodes[m->hash[i]].ref != r) i = (i + 1) & m->hmask;
  *slot = i;
  return m->hash[i];
}

static void add(msearch *m, op_ref r, int32_t parent, uint32_t slot) {
  m->nodes[m->nnodes].ref = r;
  m->nodes[m->nnodes].parent = parent;
  m->hash[slot] = (int32_t)m->nnodes++;
}

/* QSF-113: a link of node i whose portal reaches into the search circle. */
static void neighbour(msearch *m, const opq_poly *P, const op_link *lk, int32_t i) {
  double L[3], R[3], c[3], M[3] = {m->mx, 0.0, m->mz};
  opq_portal(P, lk, L, R);
  if (opq_seg_closest(R, L, M, c) > m->r2) return;
  uint32_t slot;
  if (find(m, lk->target, &slot) >= 0) return;
  if (m->nnodes == m->cap) {
    m->truncated = 1;
    return;
  }
  add(m, lk->target, i, slot);
}

/* QSF-112, QSF-113: expands node i; returns 1 when the end point is inside its polygon. */
static int expand(msearch *m, const opq_poly *P, int32_t i) {
  if (opq_inside(P, m->e)) return 1;
  for (uint32_t j = 0; j < P->n; j++) {
    int open = 0;
    for (uint32_t k = 0; k < P->nlinks; k++) {
      const op_link *lk = &P->links[k];
      if (lk->edge != j || !opq_link_open(m->q, lk, m->f)) continue;
      open = 1;
      neighbour(m, P, lk, i);
    }
    if (open) continue;
    /* QSF-114: a wall edge; a strictly smaller plane distance wins, so the earlier stays */
    double a[3], b[3], c[3];
    opq_vert(P, j, a);
    opq_vert(P, (j + 1) % P->n, b);
    double d = opq_seg_closest(a, b, m->e, c);
    if (d < m->best_d) {
      m->best_d = d;
      m->best[0] = c[0], m->best[2] = c[2];
      m->best_node = i;
    }
  }
  return 0;
}

static op_status search(msearch *m, op_error *err) {
  for (uint32_t i = 0; i < m->nnodes; i++) {
    opq_poly P;
    op_status st = opq_poly_get_q(m->q, m->nodes[i].ref, "poly", &P, err);
    if (st) return st;
    if (expand(m, &P, (int32_t)i)) {
      m->best[0] = m->e[0], m->best[2] = m->e[2];
      m->best_node = (int32_t)i;
      return OP_OK;
    }
  }
  return OP_OK;
}

/* QSF-115, QSF-116: the end point and the route. */
static op_status answer(msearch *m, op_query_poly *visited, op_query_move *out, op_error *err) {
  opq_poly P;
  op_status st = opq_poly_get_q(m->q, m->nodes[m->best_node].ref, "poly", &P, err);
  if (st) return st;
  double p[3] = {m->best[0], 0.0, m->best[2]};
  opq_make_inside(&P, p);
  p[1] = opq_height(&P, p[0], p[2]);
  out->point[0] = p[0], out->point[1] = p[1], out->point[2] = p[2];
  opq_qpoly(&P, &out->poly);
  out->truncated = m->truncated;
  uint32_t n = 0;
  for (int32_t i = m->best_node; i >= 0; i = m->nodes[i].parent) n++;
  out->nvisited = n;
  for (int32_t i = m->best_node; i >= 0; i = m->nodes[i].parent) {
    opq_poly V;
    if ((st = opq_poly_get_q(m->q, m->nodes[i].ref, "poly", &V, err))) return st;
    opq_qpoly(&V, &visited[--n]);
  }
  return OP_OK;
}

/* QSF-110, QSF-111 */
op_status op_query_move_along_surface(op_query *q, op_ref start_ref, const double start[3],
                                      const double end[3], const op_query_filter *filter,
                                      op_query_poly *visited, uint32_t max_visited,
                                      op_query_move *out, op_error *err) {
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  msearch m;
  op_query_filter f;
  opq_poly P;
  op_status st = opq_surf_args(q, start_ref, start, end, filter, visited, max_visited, m.s, m.e,
                               &f, &P, err);
  if (st) return st;
  m.q = q, m.f = &f, m.cap = max_visited, m.nnodes = 0, m.truncated = 0;
  double dx = m.e[0] - m.s[0], dz = m.e[2] - m.s[2];
  m.mx = (m.s[0] + m.e[0]) * 0.5;
  m.mz = (m.s[2] + m.e[2]) * 0.5;
  double r = sqrt(dx * dx + dz * dz) * 0.5 + 0x1p-10;
  m.r2 = r * r;
  uint32_t hcap = 1;
  while (hcap < 2 * max_visited) hcap *= 2;
  m.hmask = hcap - 1;
  m.nodes = malloc(sizeof *m.nodes * max_visited);
  m.hash = malloc(sizeof *m.hash * hcap);
  if (!m.nodes || !m.hash) {
    free(m.nodes);
    free(m.hash);
    return opc_nomem(err, "query");
  }
  for (uint32_t i = 0; i < hcap; i++) m.hash[i] = -1;
  uint32_t slot;
  find(&m, P.ref, &slot);
  add(&m, P.ref, -1, slot);
  m.best[0] = m.s[0], m.best[1] = 0.0, m.best[2] = m.s[2];
  m.best_d = INFINITY;
  m.best_node = 0;
  st = search(&m, err);
  if (!st) st = answer(&m, visited, out, err);
  free(m.nodes);
  free(m.hash);
  return st;
}
