/*
** volumes.h -- area volumes one at a time (internal; not part of the public API): the
** checks of SPAN-031 under any field prefix, the x/z box of a volume, and the marking of
** one volume that also says how many spans it selects. Implemented in ref/build3d/spans/volumes.c (the
** list form is op_chf_mark_volumes, onepath_build3d.h); used by the run-time tile cache
** (spec/build3d-runtime.md RT-040 .. RT-043, RT-088, RT-101 (a)).
*/
#ifndef OP_VOLUMES_H
#define OP_VOLUMES_H

#include <stddef.h>

#include "onepath_build3d.h"

/* SPAN-031 on one volume, in SPAN-031's order, each field named `prefix` + the SPAN-031
** name ("npoints", "points[j].x", "ymin", "ymax", "area"): "volumes[3]." for the settings'
** list, "volume." for TileCache.AddVolume (RT-040). v NULL: OP_E_ARGUMENT "volume".
** Never changes anything. */
op_status opv_validate(const op_convex_volume *v, const char *prefix, op_error *err);

/* RT-042: the least and greatest x and z over the points (exact). v must be valid. */
void opv_box(const op_convex_volume *v, double bmin[2], double bmax[2]);

/* SPAN-161 .. SPAN-163 for one valid volume: every span of a column whose cell centre is
** inside, whose area is not 0 and whose floor height is in [ymin, ymax] gets the volume's
** area. Returns the number of spans so selected (those whose area was already the
** volume's included): RT-101 (a) asks whether a volume selects any span. */
size_t opv_mark(op_chf *chf, const op_convex_volume *v);

#endif
