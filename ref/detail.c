/*
** detail.c -- the detail mesh of the 3D build (spec/build3d-polys.md section 4,
** POLY-200 .. POLY-203). v0 specifies the path without height sampling only: a tile
** built with DetailSampleDistance at most 0.9 cells has no detail mesh; sampling is
** refused with an argument error until its text exists.
*/
#include <stdlib.h>
#include <string.h>

#include "assembly.h"
#include "internal.h"

/* POLY-202: sampling (DetailSampleDist != 0 by SPAN-025) is not specified in v0. */
op_status op_detail_check(const op_settings *s, op_error *err) {
  if (!s) return op_fail(err, OP_E_ARGUMENT, "settings", "NULL", "settings are required");
  if (!(s->detail_sample_distance <= 0.9)) /* SPAN-025's threshold, POLY-201 */
    return op_fail_d(err, OP_E_ARGUMENT, "detail_sample_distance", s->detail_sample_distance,
                     "height sampling (DetailSampleDistance > 0.9 cells) is not specified "
                     "in v0 (build3d-polys.md POLY-202); use a value of at most 0.9");
  return OP_OK;
}

/* POLY-200, POLY-201: without sampling the tile has no detail mesh. */
op_status op_detail_build(const op_settings *s, const op_pmesh *pm, const op_chf *chf,
                          op_detail_mesh *out, op_error *err) {
  (void)chf;
  if (!pm) return op_fail(err, OP_E_ARGUMENT, "pmesh", "NULL", "a polygon mesh is required");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output pointer is required");
  op_status st = op_detail_check(s, err); /* POLY-202 */
  if (st != OP_OK) return st;
  memset(out, 0, sizeof *out); /* POLY-201: ndetail = ndetail_verts = ndetail_tris = 0 */
  return OP_OK;
}

void op_detail_free(op_detail_mesh *d) {
  if (!d) return;
  free(d->detail);
  free(d->verts);
  free(d->tris);
  memset(d, 0, sizeof *d);
}
