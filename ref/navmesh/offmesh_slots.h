/*
** offmesh_slots.h -- off-mesh link definitions given with a build, the part both builders share
** (spec/build3d-polys.md POLY-241 and POLY-244; spec/build2d-tiles.md T2D-091, T2D-093): the
** validation of a definition list and a built tile remade with the slots of some definitions.
** Which tile a definition goes to is each builder's own (POLY-242, POLY-243; T2D-092).
*/
#ifndef OPT_OFFMESH_SLOTS_H
#define OPT_OFFMESH_SLOTS_H

#include "onepath.h"
#include "core/alloc.h"

/* POLY-241: the count (at most OP_OFFMESH_MAX_LINKS, else limit `offmesh`), a NULL list with
** a count (argument `offmesh`), then each definition completely, i ascending. */
op_status opt_om_check(const op_offmesh_link *defs, uint32_t n, op_error *err);

/* POLY-244: *t remade (FMT-073: its view, the slots added, NavTile.Create) with the slots of
** defs[idx[0]], ..., defs[idx[n-1]] in that order; each slot's start y checked against
** FMT-011's bound first (out_of_range `offmesh[i].start.y`, i = idx[k]). On success *t is
** freed and replaced; on failure it is unchanged. Allocations counted on al (CONF-059). */
op_status opt_om_remake(op_tile **t, const op_offmesh_link *defs, const uint32_t *idx,
                        uint32_t n, op_alloc_count *al, op_error *err);

#endif
