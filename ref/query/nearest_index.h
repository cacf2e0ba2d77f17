/*
** nearest_index.h -- the per-tile polygon boxes of FindNearestPoly (nearest_index.c) and the
** candidate lists of one call (nearest.c); spec/query.md section 6 (QRY-052's pruning); and
** the per-call tile entries through which nearest.c and findpath.c read the mesh's own state
** (navmesh/mesh_internal.h: the same slots, flags, areas and links the public readers of
** MESH-060 .. MESH-066 give, without their per-call checks). Internal to ref/query/.
*/
#ifndef OPQ_NEAREST_INDEX_H
#define OPQ_NEAREST_INDEX_H

#include "navmesh/mesh_internal.h"
#include "query/query_internal.h"

#define OPQ_NIDX_TILES 256 /* direct-mapped by slot */

typedef struct opq_ntile {
  uint64_t content; /* op_tile_content_id of the tile the boxes belong to */
  uint32_t npolys, cap;
  double *box;      /* 4 per polygon: min x, min z, max x, max z of its tile-local vertices,
                       in world coordinates (QRY-010, as opq_local maps them) */
  /* find path's data of the tile (opq_ftile_fill), kept apart from the boxes: */
  uint64_t fcontent; /* op_tile_content_id of the tile cen belongs to */
  uint32_t fnpolys, fcap;
  double *cen;       /* 3 per polygon: QRY-064's centre, a function of the content only */
  uint32_t *run;     /* 2 per polygon: a guess of its link run [start, end) in the tile's
                        current links (MESH-066), always verified before use (opq_link_run) */
  uint32_t *ebase;   /* per polygon: its first edge in mid (the vertex counts before it) */
  double *mid;       /* 3 per polygon edge j: the midpoint of the portal of an internal link
                        on edge j (QRY-063: (v[j] + v[j + 1 mod n])·0.5), content only */
  uint32_t medges;   /* edges mid has room for */
} opq_ntile;

/* A tile a call looks at: its entry and view, its world frame, its current polygon state. */
typedef struct opq_ntref {
  op_mesh_tile te;
  op_tile_desc v;
  double x0, z0, x1, z1; /* QRY-010 */
  float fw;
  const uint16_t *flags; /* MESH-030, per polygon */
  const uint8_t *area;
} opq_ntref;

/* A tile read once per public call (epoch as opq_tcache): its slot's occupant. */
typedef struct opq_ftile {
  uint64_t epoch;
  uint32_t slot, gen;
  const opm_occ *o;
  double x0, z0, x1, z1; /* QRY-010 */
  float fw;
  const double *cen;     /* the polygons' centres (QRY-064), or NULL (no memory: computed) */
  uint32_t *run;         /* the link run guesses, or NULL */
  const uint32_t *ebase; /* with mid: the internal portals' midpoints, or NULL */
  const double *mid;
} opq_ftile;

/* A polygon whose box meets the search box, with a lower bound of its distance. */
typedef struct opq_ncand {
  double lb;       /* <= Dist2(center, closest point) */
  uint32_t tile;   /* index into tiles (canonical tile order) */
  uint32_t poly;
} opq_ncand;

struct opq_nidx {
  opq_ntile t[OPQ_NIDX_TILES];
  opq_ftile ft[OPQ_NIDX_TILES]; /* direct-mapped by slot */
  opq_ncand *cand;
  uint32_t capc;
  opq_ntref *tiles;
  uint32_t capt;
};
typedef struct opq_nidx opq_nidx;

/* The query object's index, made on first use. */
op_status opq_nidx_get(op_query *q, opq_nidx **out, op_error *err);
/* The boxes of the tile te (view v), computed when the entry holds other content. */
const double *opq_nidx_boxes(opq_nidx *x, const op_mesh_tile *te, const op_tile_desc *v,
                            op_error *err);
/* The tile of ref for this call (q->epoch), NULL when ref does not resolve (MESH-016: the
** caller then asks the public reader for the error). */
const opq_ftile *opq_ftile_fill(op_query *q, opq_nidx *x, op_ref ref);
static inline const opq_ftile *opq_ftile_of(op_query *q, opq_nidx *x, op_ref ref) {
  uint32_t gen = (uint32_t)(ref >> (OPM_SLOT_BITS + OPM_POLY_BITS)); /* MESH-010 */
  uint32_t slot = (uint32_t)(ref >> OPM_POLY_BITS) & (OPM_MAX_SLOTS - 1u);
  const opq_ftile *e = &x->ft[slot & (OPQ_NIDX_TILES - 1)];
  if (e->epoch != q->epoch || e->slot != slot || e->gen != gen) return opq_ftile_fill(q, x, ref);
  return ((uint32_t)ref & (OPM_MAX_POLYS - 1u)) < e->o->view.npolys ? e : NULL;
}
/* MESH-066: the run [*lo, *hi) of polygon `poly` in the tile's canonical links (sorted by
** polygon first): the guess e->run when the links confirm it, else a binary search (and the
** guess is updated). The same run either way: a run is confirmed only when it is exact. */
void opq_link_run(const opq_ftile *e, uint32_t poly, uint32_t *lo, uint32_t *hi);
/* The world frame of a tile (FMT-005) from its view and position. */
void opq_tile_frame(const op_tile_desc *v, int32_t tx, int32_t tz, double *x0, double *z0,
                    double *x1, double *z1, float *fw);
/* Room for ncand candidates and ntiles tiles. */
op_status opq_nidx_reserve(opq_nidx *x, uint32_t ncand, uint32_t ntiles, op_error *err);

#endif
