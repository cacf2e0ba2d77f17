/*
** findpath.c -- FindPath (spec/query.md, section 7: QRY-060 .. QRY-069): endpoints accepted
** by a nearest-polygon search, A* over polygons with fixed node points and edge costs, and a
** total open-list order (f, then canonical id), so that the answer depends on nothing but the
** mesh's tiles, edits and the arguments.
**
** The open list is a binary heap under that order; since the order is total, the node taken
** next is the same as any other structure would give (QRY-067). Nodes are found by reference
** through an open-addressing table that is only ever looked up, never iterated.
**
** Speed-up not in the spec: polygons are read through per-call tile entries over the mesh's
** own state (nearest_index.h: the slot's occupant, its current flags, areas and links), so a
** search resolves each tile once per call instead of each polygon through the public readers,
** and a neighbour not yet a node is read only as far as the filter and its centre need. The
** values are those of the public readers (a reference that does not resolve takes the public
** path, for its error), so no answer changes. The centres of QRY-064 and the midpoints of
** internal portals (QRY-063) come from the tile's precomputed values (nearest_index.c), the
** same formulas on the same values, when its entry has them.
*/
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "core/internal.h"
#include "query/nearest_index.h"

#define HSCALE 0.999 /* QRY-066 */

/* QRY-067 */
static int node_less(const opq_node *a, const opq_node *b) {
  if (a->f != b->f) return a->f < b->f;
  return op_poly_id_compare(&a->id, &b->id) < 0;
}

typedef struct search {
  op_query *q;
  uint32_t nheap, nnodes;
} search;

static void heap_set(search *s, uint32_t pos, uint32_t node) {
  s->q->heap[pos] = node;
  s->q->nodes[node].heap = pos;
}

static void sift_up(search *s, uint32_t pos) {
  uint32_t node = s->q->heap[pos];
  while (pos > 0) {
    uint32_t up = (pos - 1) / 2;
    if (!node_less(&s->q->nodes[node], &s->q->nodes[s->q->heap[up]])) break;
    heap_set(s, pos, s->q->heap[up]);
    pos = up;
  }
  heap_set(s, pos, node);
}

static void sift_down(search *s, uint32_t pos) {
  uint32_t node = s->q->heap[pos];
  for (;;) {
    uint32_t c = 2 * pos + 1;
    if (c >= s->nheap) break;
    if (c + 1 < s->nheap && node_less(&s->q->nodes[s->q->heap[c + 1]], &s->q->nodes[s->q->heap[c]]))
      c++;
    if (!node_less(&s->q->nodes[s->q->heap[c]], &s->q->nodes[node])) break;
    heap_set(s, pos, s->q->heap[c]);
    pos = c;
  }
  heap_set(s, pos, node);
}

static void heap_push_or_update(search *s, uint32_t node) {
  uint32_t pos = s->q->nodes[node].heap;
  if (pos == UINT32_MAX) {
    pos = s->nheap++;
    heap_set(s, pos, node);
  }
  sift_up(s, pos); /* a changed node only ever gets a smaller f */
}

static uint32_t heap_pop(search *s) {
  uint32_t top = s->q->heap[0];
  s->q->nodes[top].heap = UINT32_MAX;
  if (--s->nheap > 0) {
    heap_set(s, 0, s->q->heap[s->nheap]);
    sift_down(s, 0);
  }
  return top;
}

static uint32_t hslot(const op_query *q, op_ref r) {
  return (uint32_t)((r * 0x9E3779B97F4A7C15ull) >> 32) & (q->hcap - 1);
}

/* The node table is a map from reference to node index; a slot belongs to the current
** search only when its stamp is the search's, so a search starts by taking a new stamp
** (O(1)) instead of clearing every slot (a map decides no answer: same results). */
static int32_t node_find(const op_query *q, op_ref r) {
  for (uint32_t i = hslot(q, r);; i = (i + 1) & (q->hcap - 1)) {
    if (q->hstamp[i] != q->stamp) return -1;
    int32_t k = q->hash[i];
    if (q->nodes[k].ref == r) return k;
  }
}

static void node_insert(op_query *q, op_ref r, int32_t k) {
  uint32_t i = hslot(q, r);
  while (q->hstamp[i] == q->stamp) i = (i + 1) & (q->hcap - 1);
  q->hash[i] = k;
  q->hstamp[i] = q->stamp;
}

static void nodes_reset(op_query *q) {
  if (++q->stamp == 0) { /* wrapped: every slot free again, stamp 0 never in use */
    memset(q->hstamp, 0, sizeof *q->hstamp * q->hcap);
    q->stamp = 1;
  }
}

/* QRY-010: world point of vertex k of P (opq_vert, inlined). */
static inline void vert(const opq_poly *P, uint32_t k, double out[3]) {
  const float *l = &P->v.verts[3 * P->p->verts[k]];
  out[0] = l[0] == P->fw ? P->x1 : P->x0 + (double)l[0];
  out[1] = P->oy + (double)l[1];
  out[2] = l[2] == P->fw ? P->z1 : P->z0 + (double)l[2];
}

/* A neighbour not yet a node, read as far as the filter, its cost and its centre need:
** ref, id, flags, area, and, when its tile has no precomputed centres (e->cen NULL), the
** vertices and the frame (B->v.verts, B->p, B->n, QRY-010) for opq_centre. */
static void fill_nb(const opq_ftile *e, op_ref ref, opq_poly *B, int geometry) {
  const opm_occ *o = e->o;
  uint32_t index = (uint32_t)ref & (OPM_MAX_POLYS - 1u); /* MESH-010 */
  B->ref = ref;
  B->id.x = o->view.x, B->id.z = o->view.z, B->id.layer = o->view.layer, B->id.poly = index;
  B->flags = o->flags[index], B->area = o->area[index]; /* MESH-030 */
  if (!geometry) return;
  B->v.verts = o->view.verts;
  B->p = &o->view.polys[index];
  B->n = B->p->nverts;
  B->x0 = e->x0, B->z0 = e->z0, B->oy = o->view.origin_y;
  B->x1 = e->x1, B->z1 = e->z1, B->fw = e->fw; /* QRY-010 */
}

/* The tile entry of ref in *te (NULL: the full read by the public readers, for the error). */
static op_status read_nb(op_query *q, opq_nidx *x, op_ref ref, opq_poly *B, const opq_ftile **te,
                         op_error *err) {
  const opq_ftile *e = *te = opq_ftile_of(q, x, ref);
  if (!e) return opq_poly_get_q(q, ref, "path", B, err);
  fill_nb(e, ref, B, e->cen == NULL);
  return OP_OK;
}

/* QRY-064: the centre of neighbour B (read by read_nb with tile entry e): the tile's
** precomputed value when there is one (nearest_index.c's find_data: the same computation on
** the same values), else computed here. */
static void nb_centre(const opq_ftile *e, const opq_poly *B, double c[3]) {
  if (e && e->cen) {
    memcpy(c, &e->cen[3 * B->id.poly], sizeof(double) * 3);
    return;
  }
  opq_centre(B, c);
}

/* A node's polygon for its expansion: read_nb's fields, the geometry and its links (MESH-066:
** the polygon's run of its tile's canonical list, links by polygon first); opq_portal reads
** no more of P than these. */
static op_status read_exp(op_query *q, opq_nidx *x, op_ref ref, opq_poly *P, const opq_ftile **te,
                          op_error *err) {
  const opq_ftile *e = *te = opq_ftile_of(q, x, ref);
  if (!e) return opq_poly_get_q(q, ref, "path", P, err);
  fill_nb(e, ref, P, 1);
  uint32_t lo, end;
  opq_link_run(e, P->id.poly, &lo, &end);
  P->links = e->o->links + lo;
  P->nlinks = end - lo;
  return OP_OK;
}

/* MESH-023: world height of the edge (u_a, h_a) -> (u_b, h_b) at u (as geom.c). */
static double edge_height(double ua, double ha, double ub, double hb, double u) {
  if (u == ua) return ha;
  if (u == ub) return hb;
  double t = (u - ua) / (ub - ua);
  return ha + (hb - ha) * t;
}

/* QRY-010: the world x (axis 0) or z (axis 2) of a tile-local coordinate, as opq_local. */
static double world1(const opq_poly *P, int axis, float l) {
  if (axis == 0) return l == P->fw ? P->x1 : P->x0 + (double)l;
  return l == P->fw ? P->z1 : P->z0 + (double)l;
}

/* QRY-063: the midpoint of the portal of link lk of P, (L + R)·0.5 per coordinate. It is
** opq_portal's ends added: the sum of the two ends does not depend on which is left (binary64
** addition commutes), so the ends are the ones at lo and hi, in that order. */
static void portal_mid(const opq_poly *P, const opq_ftile *e, const op_link *lk, double M[3]) {
  double a[3], b[3];
  uint32_t j = lk->edge;
  if (lk->side == OP_LINK_INTERNAL && e && e->mid) { /* the tile's precomputed value of the */
    memcpy(M, &e->mid[3 * (e->ebase[P->id.poly] + j)], sizeof(double) * 3); /* next branch */
    return;
  }
  if (lk->side == OP_LINK_INTERNAL) {
    vert(P, j, a);
    vert(P, (j + 1u) % P->n, b);
  } else {
    const float *la = &P->v.verts[3 * P->p->verts[j]];
    const float *lb = &P->v.verts[3 * P->p->verts[(j + 1u) % P->n]];
    int ax = (lk->side == 0 || lk->side == 2) ? 2 : 0; /* MESH-022: the along-coordinate */
    int ox = 2 - ax;
    double ua = la[ax], ub = lb[ax];
    double ha = P->oy + (double)la[1], hb = P->oy + (double)lb[1];
    a[ox] = b[ox] = world1(P, ox, la[ox]); /* QRY-010, as opq_local */
    a[ax] = world1(P, ax, lk->lo), b[ax] = world1(P, ax, lk->hi);
    a[1] = edge_height(ua, ha, ub, hb, (double)lk->lo);
    b[1] = edge_height(ua, ha, ub, hb, (double)lk->hi);
  }
  for (int k = 0; k < 3; k++) M[k] = (a[k] + b[k]) * 0.5;
}

/* QRY-061: the value `x,y,z` of an endpoint error. */
static op_status endpoint_error(op_error *err, const char *name, const double p[3]) {
  char a[32], b[32], c[32], v[100];
  op_format_double(a, sizeof a, p[0]);
  op_format_double(b, sizeof b, p[1]);
  op_format_double(c, sizeof c, p[2]);
  snprintf(v, sizeof v, "%s,%s,%s", a, b, c);
  return op_fail(err, OP_E_RANGE, name, v,
                 "no polygon within two cells horizontally and the climb plus two cell "
                 "heights vertically");
}

static op_status grow_polys(op_query *q, uint32_t n, op_error *err) {
  if (n <= q->cap_polys) return OP_OK;
  op_query_poly *p = realloc(q->polys, sizeof *p * n);
  if (!p) return opc_nomem(err, "query");
  q->polys = p;
  q->cap_polys = n;
  return OP_OK;
}

/* QRY-069: the route to node k, its first max_path polygons; returns the full length. */
static op_status route(op_query *q, int32_t k, uint32_t max_path, op_query_path *out,
                       uint32_t *full, op_error *err) {
  uint32_t len = 0;
  for (int32_t i = k; i >= 0; i = q->nodes[i].parent) len++;
  *full = len;
  uint32_t keep = len < max_path ? len : max_path;
  op_status st = grow_polys(q, keep, err);
  if (st) return st;
  uint32_t pos = len;
  for (int32_t i = k; i >= 0; i = q->nodes[i].parent) {
    pos--;
    if (pos < keep) {
      q->polys[pos].ref = q->nodes[i].ref;
      q->polys[pos].id = q->nodes[i].id;
    }
  }
  out->polys = q->polys;
  out->npolys = keep;
  return OP_OK;
}

/* QRY-071: the off-mesh edges of node ni (polygon P), after the edges of its links; as QRY-068
** step 5 does for a link, with the cost walk + link length x its area's cost + walk. */
static op_status offmesh_edges(search *s, const op_query_filter *filter, uint32_t ni,
                               const opq_poly *P, op_ref end, const double E[3],
                               op_path_reason *reason, op_error *err) {
  op_query *q = s->q;
  for (uint32_t ci = opq_conn_first(q, P->ref); ci < q->nconns && q->conns[ci].from == P->ref;
       ci++) {
    const opq_conn *oc = &q->conns[ci];
    if (!op_query_filter_passes(filter, oc->flags)) continue;
    op_ref b = oc->to;
    int32_t bi = node_find(q, b);
    double pb[3], cost_b;
    opq_poly B;
    if (bi >= 0) {
      memcpy(pb, q->nodes[bi].pos, sizeof pb);
      cost_b = q->nodes[bi].cost;
    } else {
      op_status st = opq_poly_get_q(q, b, "path", &B, err);
      if (st) return st;
      if (!op_query_filter_passes(filter, B.flags)) continue;
      if (b == end) memcpy(pb, E, sizeof pb);
      else opq_centre(&B, pb);
      cost_b = filter->area_cost[B.area];
    }
    const opq_node *n = &q->nodes[ni];
    double c = opq_dist(n->pos, oc->a) * n->cost + opq_dist(oc->a, oc->b) * filter->area_cost[oc->area] +
               opq_dist(oc->b, pb) * cost_b;
    double g = n->g + c;
    if (bi < 0) {
      if (s->nnodes == q->max_nodes) {
        *reason = OP_PATH_NODE_LIMIT;
        return OP_OK;
      }
      bi = (int32_t)s->nnodes++;
      opq_node *nb = &q->nodes[bi];
      nb->ref = b;
      nb->id = B.id;
      memcpy(nb->pos, pb, sizeof pb);
      nb->g = g;
      nb->cost = cost_b;
      nb->h = opq_dist(pb, E) * HSCALE; /* QRY-066 */
      nb->f = nb->g + nb->h;
      nb->parent = (int32_t)ni;
      nb->heap = UINT32_MAX;
      node_insert(q, b, bi);
      heap_push_or_update(s, (uint32_t)bi);
    } else if (g < q->nodes[bi].g) {
      opq_node *nb = &q->nodes[bi];
      nb->g = g;
      nb->f = nb->g + nb->h;
      nb->parent = (int32_t)ni;
      heap_push_or_update(s, (uint32_t)bi);
    }
  }
  return OP_OK;
}

const char *op_path_status_name(op_path_status s) {
  return s == OP_PATH_FOUND ? "found" : "no_path";
}

const char *op_path_reason_name(op_path_reason r) {
  switch (r) {
  case OP_PATH_DISCONNECTED: return "disconnected";
  case OP_PATH_NODE_LIMIT: return "node_limit";
  case OP_PATH_PATH_LIMIT: return "path_limit";
  default: return "";
  }
}

/* QRY-061's and QRY-074's first checks, in their order: start, end, the filter (NULL: the
** default, *filter set to it), max_path; sp and ep get the checked positions. */
static op_status path_args(const op_query *q, const double start[3], const double end[3],
                           const op_query_filter **filter, uint32_t max_path,
                           const op_query_path *out, double sp[3], double ep[3],
                           op_error *err) {
  if (!q) return op_fail(err, OP_E_ARGUMENT, "query", "NULL", "query is required");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "out is required");
  op_status st = opq_check_pos(start, "start", sp, err);
  if (!st) st = opq_check_pos(end, "end", ep, err);
  if (st) return st;
  if (!*filter) *filter = opq_filter_default();
  else if ((st = op_query_filter_check(*filter, err))) return st;
  if (max_path < 1 || max_path > OP_QUERY_MAX_PATH)
    return op_fail_i(err, OP_E_RANGE, "max_path", (long long)max_path, "must be in [1, 65536]");
  return OP_OK;
}

op_status op_query_find_path(op_query *q, const double start[3], const double end[3],
                             const op_query_filter *filter, uint32_t max_path, op_query_path *out,
                             op_error *err) {
  double sp[3], ep[3];
  op_status st = path_args(q, start, end, &filter, max_path, out, sp, ep, err); /* QRY-061 */
  if (st) return st;
  opq_begin(q);
  /* QRY-061: acceptance boxes */
  op_mesh_params mp;
  op_mesh_get_params(q->mesh, &mp);
  double ext[3];
  ext[0] = 2.0 * mp.tiling.cell_size;
  ext[1] = mp.walkable_climb + 2.0 * mp.tiling.cell_height;
  ext[2] = ext[0];
  op_query_nearest ns, ne;
  if ((st = opq_nearest(q, sp, ext, filter, &ns, err))) return st;
  if (!ns.found) return endpoint_error(err, "start", sp);
  if ((st = opq_nearest(q, ep, ext, filter, &ne, err))) return st;
  if (!ne.found) return endpoint_error(err, "end", ep);
  return opq_search(q, &ns, &ne, filter, max_path, out, err);
}

/* QRY-074: one given endpoint, resolved and filtered. */
static op_status given_end(op_query *q, op_ref ref, const char *field, const double pt[3],
                           const op_query_filter *filter, op_query_nearest *out, op_error *err) {
  opq_poly P;
  op_status st = opq_poly_get_q(q, ref, field, &P, err);
  if (st) return st;
  if (!op_query_filter_passes(filter, P.flags)) {
    char v[20];
    snprintf(v, sizeof v, "%016llx", (unsigned long long)ref);
    return op_fail(err, OP_E_ARGUMENT, field, v, "the polygon does not pass the filter");
  }
  out->found = 1;
  opq_qpoly(&P, &out->poly);
  memcpy(out->point, pt, sizeof out->point);
  return OP_OK;
}

op_status op_query_find_path_from(op_query *q, op_ref start_poly, const double start[3],
                                  op_ref end_poly, const double end[3],
                                  const op_query_filter *filter, uint32_t max_path,
                                  op_query_path *out, op_error *err) {
  double sp[3], ep[3];
  op_status st = path_args(q, start, end, &filter, max_path, out, sp, ep, err); /* QRY-074 */
  if (st) return st;
  opq_begin(q);
  op_query_nearest ns, ne; /* the node points as given: no acceptance (QRY-061) */
  if ((st = given_end(q, start_poly, "start_poly", sp, filter, &ns, err))) return st;
  if ((st = given_end(q, end_poly, "end_poly", ep, filter, &ne, err))) return st;
  return opq_search(q, &ns, &ne, filter, max_path, out, err);
}

/* QRY-068, QRY-069 from the given endpoints (polygon and node point each), with a checked
** filter; also the corridor's searches (QCR-241, QCR-253). */
op_status opq_search(op_query *q, const op_query_nearest *sn, const op_query_nearest *en,
                     const op_query_filter *filter, uint32_t max_path, op_query_path *out,
                     op_error *err) {
  op_status st;
  op_query_nearest ns = *sn, ne = *en;
  memset(out, 0, sizeof *out);
  out->start_poly = ns.poly;
  out->end_poly = ne.poly;
  memcpy(out->start_point, ns.point, sizeof ns.point);
  memcpy(out->end_point, ne.point, sizeof ne.point);
  const double *S = ns.point, *E = ne.point;
  opq_poly P;
  opq_nidx *x;
  if ((st = opq_nidx_get(q, &x, err))) return st;
  const opq_ftile *se;
  if ((st = opq_ftile_of(q, x, ns.poly.ref) ? read_nb(q, x, ns.poly.ref, &P, &se, err)
                                              : opq_poly_get_q(q, ns.poly.ref, "start", &P, err)))
    return st;
  double cost_s = filter->area_cost[P.area]; /* QRY-032: the current area's cost */
  if (ns.poly.ref == ne.poly.ref) { /* QRY-068 step 1 */
    if ((st = grow_polys(q, 1, err))) return st;
    q->polys[0] = ns.poly;
    out->status = OP_PATH_FOUND;
    out->polys = q->polys;
    out->npolys = 1;
    out->cost = opq_dist(S, E) * cost_s;
    out->nodes = 1;
    return OP_OK;
  }
  if ((st = opq_conns_build(q, err))) return st; /* QRY-070, for QRY-071 */
  search s = {q, 0, 0};
  nodes_reset(q);
  /* step 2 */
  opq_node *n0 = &q->nodes[0];
  n0->ref = ns.poly.ref;
  n0->id = ns.poly.id;
  memcpy(n0->pos, S, sizeof n0->pos);
  n0->g = 0.0;
  n0->cost = cost_s;
  n0->h = opq_dist(S, E) * HSCALE;
  n0->f = n0->g + n0->h;
  n0->parent = -1;
  n0->heap = UINT32_MAX;
  s.nnodes = 1;
  node_insert(q, n0->ref, 0);
  heap_push_or_update(&s, 0);
  op_path_reason reason = OP_PATH_DISCONNECTED;
  int32_t found = -1;
  while (s.nheap > 0 && found < 0 && reason == OP_PATH_DISCONNECTED) { /* step 3 */
    uint32_t ni = heap_pop(&s); /* step 4 */
    if (q->nodes[ni].ref == ne.poly.ref) {
      found = (int32_t)ni;
      break;
    }
    const opq_ftile *te;
    if ((st = read_exp(q, x, q->nodes[ni].ref, &P, &te, err))) return st;
    double cost_n = q->nodes[ni].cost;
    for (uint32_t li = 0; li < P.nlinks; li++) { /* step 5 */
      const op_link *lk = &P.links[li];
      op_ref b = lk->target;
      int32_t bi = node_find(q, b);
      double pb[3], cost_b;
      opq_poly B;
      if (bi >= 0) { /* its polygon passed the filter when the node was made */
        opq_node *nb = &q->nodes[bi];
        memcpy(pb, nb->pos, sizeof pb);
        cost_b = nb->cost;
      } else {
        const opq_ftile *be;
        if ((st = read_nb(q, x, b, &B, &be, err))) return st;
        if (!opq_passes(filter, B.flags)) continue; /* QRY-062 */
        if (b == ne.poly.ref) memcpy(pb, E, sizeof pb);
        else nb_centre(be, &B, pb);
        cost_b = filter->area_cost[B.area];
      }
      double M[3];
      portal_mid(&P, te, lk, M);
      /* QRY-065 */
      double c = opq_dist(q->nodes[ni].pos, M) * cost_n + opq_dist(M, pb) * cost_b;
      double g = q->nodes[ni].g + c;
      if (bi < 0) {
        if (s.nnodes == q->max_nodes) {
          reason = OP_PATH_NODE_LIMIT;
          break;
        }
        bi = (int32_t)s.nnodes++;
        opq_node *nb = &q->nodes[bi];
        nb->ref = b;
        nb->id = B.id;
        memcpy(nb->pos, pb, sizeof pb);
        nb->g = g;
        nb->cost = cost_b;
        nb->h = opq_dist(pb, E) * HSCALE; /* QRY-066 */
        nb->f = nb->g + nb->h;
        nb->parent = (int32_t)ni;
        nb->heap = UINT32_MAX;
        node_insert(q, b, bi);
        heap_push_or_update(&s, (uint32_t)bi);
      } else if (g < q->nodes[bi].g) {
        opq_node *nb = &q->nodes[bi];
        nb->g = g;
        nb->f = nb->g + nb->h;
        nb->parent = (int32_t)ni;
        heap_push_or_update(&s, (uint32_t)bi); /* reopened if it was closed */
      }
    }
    if (reason == OP_PATH_DISCONNECTED && q->nconns > 0 &&
        (st = offmesh_edges(&s, filter, ni, &P, ne.poly.ref, E, &reason, err)))
      return st;
  }
  out->nodes = s.nnodes;
  uint32_t full = 0;
  if (found >= 0) { /* QRY-069 */
    if ((st = route(q, found, max_path, out, &full, err))) return st;
    if (full <= max_path) {
      out->status = OP_PATH_FOUND;
      out->cost = q->nodes[found].g;
      return OP_OK;
    }
    out->status = OP_PATH_NONE;
    out->reason = OP_PATH_PATH_LIMIT;
    return OP_OK;
  }
  uint32_t best = 0; /* the best node: least h, then smallest canonical id */
  for (uint32_t i = 1; i < s.nnodes; i++) {
    const opq_node *a = &q->nodes[i], *b = &q->nodes[best];
    if (a->h < b->h || (a->h == b->h && op_poly_id_compare(&a->id, &b->id) < 0)) best = i;
  }
  if ((st = route(q, (int32_t)best, max_path, out, &full, err))) return st;
  out->status = OP_PATH_NONE;
  out->reason = reason;
  return OP_OK;
}
