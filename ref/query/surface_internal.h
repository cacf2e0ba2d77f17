/*
** surface_internal.h -- shared by the surface queries of ref/query/ (spec/query-surface.md):
** (on spec/query.md) the common argument checks of QSF-101, the links a walk may take (QSF-102) and the inside
** rule of an answer point (QSF-115). Internal: not part of the public API.
*/
#ifndef OPQ_SURFACE_INTERNAL_H
#define OPQ_SURFACE_INTERNAL_H

#include "query/query_internal.h"

/* QSF-101: start, end, filter, max_visited, visited, then the start polygon (resolved, passing
** the filter). s, e receive the checked positions, f the filter (the default when NULL), P
** the start polygon. */
op_status opq_surf_args(op_query *q, op_ref ref, const double start[3], const double end[3],
                        const op_query_filter *filter, const op_query_poly *visited,
                        uint32_t max_visited, double s[3], double e[3], op_query_filter *f,
                        opq_poly *P, op_error *err);

/* QSF-102: the target of lk passes f. */
int opq_link_open(const op_query *q, const op_link *lk, const op_query_filter *f);

/* QSF-115: p (x, z) made inside P (unchanged when it already is). */
void opq_make_inside(const opq_poly *P, double p[3]);

/* Reading every polygon of the mesh in canonical order: the frame of a tile, then polygon i
** of it with its current flags and area. */
void opq_surf_frame(const op_mesh_tile *te, opq_poly *P);
op_status opq_surf_poly(const op_mesh *m, const op_mesh_tile *te, uint32_t i, opq_poly *P,
                        op_error *err);

#endif
