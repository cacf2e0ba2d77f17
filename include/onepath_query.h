/*
** onepath_query.h -- public interface of the queries on a tiled mesh (spec/query.md, QRY):
** the filter, canonical polygon ids, nearest polygon, polygon height, closest points, find
** path (A* with a total open-list order) and straight path (the funnel, exact signs).
**
** A query object is bound to one mesh and owns its node pool and its answer buffers; it keeps
** no copy of the mesh, so every query sees the mesh as it is (QRY-002). Answers that hold lists
** (path polygons, corners) point into the query object and stay valid until its next call.
** Every function returns an op_status and fills a non-NULL op_error (QRY-092).
*/
#ifndef ONEPATH_QUERY_H
#define ONEPATH_QUERY_H

#include "onepath.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ filter (QRY-030 .. QRY-033) */

#define OP_QUERY_AREAS 64
typedef struct op_query_filter {
  uint16_t include_flags; /* a polygon passes when flags & include != 0 ... */
  uint16_t exclude_flags; /* ... and flags & exclude == 0 (QRY-031) */
  double area_cost[OP_QUERY_AREAS]; /* per area id, finite in [0, 2^24] (QRY-033) */
} op_query_filter;

/* The default filter (QRY-030): include 0xFFFF, exclude 0, every cost 1. */
void op_query_filter_init(op_query_filter *f);
/* QRY-033: out_of_range `filter.costs[i]` for the first bad cost. */
op_status op_query_filter_check(const op_query_filter *f, op_error *err);
/* QRY-031 on a polygon's current flags. */
int op_query_filter_passes(const op_query_filter *f, uint16_t flags);

/* ------------------------------------------------------- canonical polygon id (QRY-023) */

typedef struct op_poly_id {
  int32_t x, z, layer;
  uint32_t poly;
} op_poly_id;

/* The canonical id of a reference (resolved as QRY-022, field `poly`). */
op_status op_query_poly_id(const op_mesh *m, op_ref ref, op_poly_id *out, op_error *err);
/* QRY-023's order: negative, 0 or positive. */
int op_poly_id_compare(const op_poly_id *a, const op_poly_id *b);

/* ---------------------------------------------------------------- the query object */

#define OP_QUERY_DEFAULT_NODES 8192u  /* QRY-060 */
#define OP_QUERY_MAX_NODES 65536u
#define OP_QUERY_DEFAULT_PATH 8192u   /* QRY-061 */
#define OP_QUERY_MAX_PATH 65536u
#define OP_QUERY_DEFAULT_CORNERS 8192u /* QRY-080 */
#define OP_QUERY_MAX_CORNERS 262144u

typedef struct op_query op_query;

/* NavMeshQuery.Create (QRY-060): out_of_range `max_nodes` outside [1, 65536]. The mesh must
** outlive the query object. */
op_status op_query_create(const op_mesh *m, uint32_t max_nodes, op_query **out, op_error *err);
void op_query_free(op_query *q);

/* A polygon named by both its reference and its canonical id (QRY-024). */
typedef struct op_query_poly {
  op_ref ref;
  op_poly_id id;
} op_query_poly;

/* ---------------------------------------------------------- nearest polygon (QRY-050 ..) */

typedef struct op_query_nearest {
  int found;            /* 0: no candidate (QRY-052), poly and point unset */
  op_query_poly poly;
  double point[3];      /* the sample position: the closest point on poly */
} op_query_nearest;

/* FindNearestPoly (QRY-050 .. QRY-052); filter NULL = the default filter. */
op_status op_query_nearest_poly(op_query *q, const double center[3], const double half_extents[3],
                                const op_query_filter *filter, op_query_nearest *out,
                                op_error *err);

/* ----------------------------------------------------- one polygon (QRY-044 .. QRY-046) */

/* GetPolyHeight: *inside 0 when (x, z) is outside the polygon (then *height is unset). */
op_status op_query_poly_height(op_query *q, op_ref poly, double x, double z, int *inside,
                               double *height, op_error *err);
/* ClosestPointOnPoly: out[3] and *over (pos above/below the polygon). */
op_status op_query_closest_point(op_query *q, op_ref poly, const double pos[3], double out[3],
                                 int *over, op_error *err);
/* ClosestPointOnPolyBoundary. */
op_status op_query_closest_point_boundary(op_query *q, op_ref poly, const double pos[3],
                                          double out[3], op_error *err);

/* ----------------------------------------------------------- find path (QRY-060 .. QRY-069) */

typedef enum op_path_status { OP_PATH_FOUND = 0, OP_PATH_NONE = 1 } op_path_status;
typedef enum op_path_reason {
  OP_PATH_OK = 0,
  OP_PATH_DISCONNECTED = 1,
  OP_PATH_NODE_LIMIT = 2,
  OP_PATH_PATH_LIMIT = 3
} op_path_reason;
/* "found", "no_path"; "disconnected", "node_limit", "path_limit" ("" for OP_PATH_OK). */
const char *op_path_status_name(op_path_status s);
const char *op_path_reason_name(op_path_reason r);

typedef struct op_query_path {
  op_path_status status;
  op_path_reason reason;
  op_query_poly start_poly, end_poly; /* the accepted endpoints (QRY-061) */
  double start_point[3], end_point[3];
  const op_query_poly *polys; /* the path (found) or the partial route (no path), owned by q */
  uint32_t npolys;
  double cost;    /* g of the end node when found, else 0 */
  uint32_t nodes; /* search nodes used */
} op_query_path;

/* FindPath; filter NULL = default; max_path in [1, 65536] (OP_QUERY_DEFAULT_PATH). */
op_status op_query_find_path(op_query *q, const double start[3], const double end[3],
                             const op_query_filter *filter, uint32_t max_path, op_query_path *out,
                             op_error *err);

/* FindPathFrom (QRY-074): find path from polygons and node points the caller chose (e.g. by
** op_query_nearest_poly); no acceptance search. The answer's start and end are the given ones. */
op_status op_query_find_path_from(op_query *q, op_ref start_poly, const double start[3],
                                  op_ref end_poly, const double end[3],
                                  const op_query_filter *filter, uint32_t max_path,
                                  op_query_path *out, op_error *err);

/* -------------------------------------------------------- straight path (QRY-080 .. QRY-085) */

#define OP_CORNER_START 1u
#define OP_CORNER_END 2u
#define OP_CORNER_OFFMESH 4u /* an end of an off-mesh link (QRY-072) */
typedef enum op_crossings { OP_CROSS_NONE = 0, OP_CROSS_AREA = 1, OP_CROSS_ALL = 2 } op_crossings;

typedef struct op_query_corner {
  double point[3];
  uint8_t flags;
  op_query_poly poly;
} op_query_corner;

/* FindStraightPath; max_corners in [1, 262144] (OP_QUERY_DEFAULT_CORNERS); *corners is owned
** by q. An unknown crossings value is argument `crossings` with the integer as value. */
op_status op_query_straight_path(op_query *q, const double start[3], const double end[3],
                                 const op_ref *path, uint32_t npath, op_crossings crossings,
                                 uint32_t max_corners, const op_query_corner **corners,
                                 uint32_t *ncorners, op_error *err);

/* ------------------------------- surface queries (spec/query-surface.md, QSF-100 .. QSF-199) */

#define OP_QUERY_DEFAULT_VISITED 256u /* QSF-101 */
#define OP_QUERY_MAX_VISITED 65536u

typedef enum op_ray_status { OP_RAY_END = 0, OP_RAY_WALL = 1, OP_RAY_LIMIT = 2 } op_ray_status;
/* "end", "wall", "limit" (QSF-106). */
const char *op_ray_status_name(op_ray_status s);

typedef struct op_query_ray {
  op_ray_status status;
  double t;          /* end: 1; wall: the hit parameter; limit: entry of the last polygon */
  double normal[3];  /* wall: unit normal of the hit edge pointing into the polygon; else 0 */
  uint32_t edge;     /* wall: the hit edge of the last polygon; else 0 */
  uint32_t npolys;   /* polygons written to visited, the start polygon first */
  double cost;       /* with_costs: QSF-107; else 0 */
} op_query_ray;

/* RayCast (QSF-100 .. QSF-108): from start (inside polygon start_ref) toward end in the
** ground plane; visited[0 .. max_visited-1] receives the polygons crossed, max_visited in
** [1, 65536]; filter NULL = default. */
op_status op_query_raycast(op_query *q, op_ref start_ref, const double start[3],
                           const double end[3], const op_query_filter *filter, int with_costs,
                           op_query_poly *visited, uint32_t max_visited, op_query_ray *out,
                           op_error *err);

typedef struct op_query_move {
  double point[3];    /* the end position, inside poly (QSF-115) */
  op_query_poly poly; /* the polygon of the end position (the last of visited) */
  uint32_t nvisited;  /* the route from the start polygon to poly, written to visited */
  int truncated;      /* 1 when a neighbour was left out for the cap (QSF-113) */
} op_query_move;

/* MoveAlongSurface (QSF-110 .. QSF-116): visited holds max_visited entries, max_visited in
** [1, 65536] is also the cap of the search; filter NULL = default. */
op_status op_query_move_along_surface(op_query *q, op_ref start_ref, const double start[3],
                                      const double end[3], const op_query_filter *filter,
                                      op_query_poly *visited, uint32_t max_visited,
                                      op_query_move *out, op_error *err);

#define OP_QUERY_DEFAULT_POLYS 256u /* QSF-120 */
#define OP_QUERY_MAX_POLYS 65536u

/* QueryPolygons (QSF-120 .. QSF-122): the polygons passing the filter whose bounds meet the
** box, in canonical-id order, at most max_polys of them (in [1, 65536]) into polys;
** *truncated 1 when more met the box. */
op_status op_query_polys_in_box(op_query *q, const double center[3], const double half_extents[3],
                                const op_query_filter *filter, op_query_poly *polys,
                                uint32_t max_polys, uint32_t *npolys, int *truncated,
                                op_error *err);

typedef struct op_query_random {
  int found;          /* 0: no polygon with area passes the filter (no draw taken) */
  op_query_poly poly;
  double point[3];    /* inside poly, at its surface height */
} op_query_random;

/* FindRandomPoint (QSF-130 .. QSF-133): four draws of prng (MATH) when found. */
op_status op_query_random_point(op_query *q, const op_query_filter *filter, op_prng *prng,
                                op_query_random *out, op_error *err);

typedef struct op_query_wall {
  int found;          /* a wall within the radius */
  double distance;    /* to the nearest wall, else the radius */
  double point[3];    /* found: the nearest wall point */
  double normal[3];   /* found: unit plane vector from the wall point toward the centre */
  uint32_t nvisited;  /* polygons searched */
  int truncated;      /* the cap left a neighbour out (QSF-142) */
} op_query_wall;

/* FindDistanceToWall (QSF-140 .. QSF-143): radius in (0, 2^22], max_visited in [1, 65536]. */
op_status op_query_distance_to_wall(op_query *q, op_ref start_ref, const double center[3],
                                    double radius, const op_query_filter *filter,
                                    uint32_t max_visited, op_query_wall *out, op_error *err);


/* --------------------------------- path corridor (spec/query-corridor.md, QCR-200 .. QCR-299) */

#define OP_CORRIDOR_DEFAULT_PATH 256u /* QCR-201 */
#define OP_CORRIDOR_MAX_PATH 65536u
#define OP_CORRIDOR_DEFAULT_CORNERS 16u /* QCR-230 */
#define OP_CORRIDOR_MAX_CORNERS 65536u
#define OP_CORRIDOR_DEFAULT_RAY 32u /* QCR-240 */
#define OP_CORRIDOR_DEFAULT_TOPOLOGY_NODES 32u /* QCR-290 */

typedef struct op_corridor op_corridor;

/* PathCorridor.Create (QCR-201): out_of_range `max_path` outside [1, 65536]; empty. */
op_status op_corridor_create(uint32_t max_path, op_corridor **out, op_error *err);
void op_corridor_free(op_corridor *c);

/* QCR-260: the state; *polys points into c and stays valid until c changes. */
typedef struct op_corridor_state {
  double position[3], target[3];
  const op_query_poly *polys;
  uint32_t npolys, max_path;
} op_corridor_state;
void op_corridor_state_get(const op_corridor *c, op_corridor_state *out);

/* QCR-210 */
op_status op_corridor_reset(op_corridor *c, op_query *q, op_ref poly, const double pos[3],
                            op_error *err);
/* QCR-211 */
op_status op_corridor_set(op_corridor *c, op_query *q, const double start[3],
                          const double end[3], const op_ref *path, uint32_t npath,
                          op_error *err);
/* QCR-220 .. QCR-222: *truncated (QCR-204), *search_truncated (QSF-113); either may be NULL. */
op_status op_corridor_move_position(op_corridor *c, op_query *q, const double pos[3],
                                    const op_query_filter *filter, uint32_t max_visited,
                                    int *truncated, int *search_truncated, op_error *err);
op_status op_corridor_move_target(op_corridor *c, op_query *q, const double pos[3],
                                  const op_query_filter *filter, uint32_t max_visited,
                                  int *truncated, int *search_truncated, op_error *err);
/* QCR-223: MoveOverOffmesh. */
typedef enum op_offmesh_move {
  OP_OFFMESH_CROSSED = 0,
  OP_OFFMESH_NO_LINK = 1,
  OP_OFFMESH_TOO_FAR = 2
} op_offmesh_move;
/* "crossed", "no_link", "too_far" */
const char *op_offmesh_move_name(op_offmesh_move s);
typedef struct op_corridor_link {
  double start[3], end[3]; /* the connection's points a (on c[0]) and b (on c[1]) */
  uint16_t flags;
  uint8_t area;
  uint32_t user_id;
} op_corridor_link;
/* QCR-223: radius in [0, 2^22]; *link is set only when *status is OP_OFFMESH_CROSSED. */
op_status op_corridor_move_over_offmesh(op_corridor *c, op_query *q, double radius,
                                        op_offmesh_move *status, op_corridor_link *link,
                                        op_error *err);
/* QCR-230, QCR-231: *corners is owned by q (valid until its next call). */
op_status op_corridor_find_corners(op_corridor *c, op_query *q, uint32_t max_corners,
                                   const op_query_corner **corners, uint32_t *ncorners,
                                   int *truncated, op_error *err);
/* QCR-240, QCR-242 */
op_status op_corridor_optimize_visibility(op_corridor *c, op_query *q, const double next[3],
                                          double range, const op_query_filter *filter,
                                          uint32_t max_visited, int *spliced, int *truncated,
                                          op_error *err);
/* QCR-241: the search's budget is q's node pool (op_query_create's max_nodes). */
op_status op_corridor_optimize_topology(op_corridor *c, op_query *q,
                                        const op_query_filter *filter, int *spliced,
                                        int *truncated, op_error *err);

typedef enum op_corridor_reason {
  OP_CORRIDOR_OK = 0,
  OP_CORRIDOR_STALE = 1,
  OP_CORRIDOR_FILTERED = 2
} op_corridor_reason;
/* "", "stale", "filtered" (QCR-250). */
const char *op_corridor_reason_name(op_corridor_reason r);
typedef struct op_corridor_validity {
  int valid;
  uint32_t checked;
  uint32_t index; /* the first invalid polygon (when not valid) */
  op_corridor_reason reason;
} op_corridor_validity;
/* QCR-251 */
op_status op_corridor_is_valid(op_corridor *c, op_query *q, uint32_t max_look_ahead,
                               const op_query_filter *filter, op_corridor_validity *out,
                               op_error *err);
/* QCR-252: *kept receives k. */
op_status op_corridor_fix(op_corridor *c, op_query *q, op_ref safe_poly, const double safe_pos[3],
                          const op_query_filter *filter, uint32_t *kept, op_error *err);
/* QCR-253: the search's answer in *out (its polys point into q). */
op_status op_corridor_replan(op_corridor *c, op_query *q, const double end[3],
                             const op_query_filter *filter, op_query_path *out, op_error *err);

#ifdef __cplusplus
}
#endif
#endif /* ONEPATH_QUERY_H */
