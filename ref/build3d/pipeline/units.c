/*
** units.c -- the data a build keeps per tile and its free functions (internal,
** ref/build3d/pipeline/pipeline_internal.h): a tile's base (stages 1-3 and the first-build
** areas, RT-010; its layers, RT-081), a unit's first build (RT-083 .. RT-085, RT-100) and
** the kept data of a cached build (RT-011, RT-015). Normative text:
** spec/build3d-runtime.md (RT-010, RT-011, RT-081, RT-100). The lowest file of the folder:
** it calls no other file of ref/build3d/pipeline/.
*/
#include <stdlib.h>
#include <string.h>

#include "build3d/pipeline/pipeline_internal.h"

void opl_base_free(opl_base *b) {
  if (!b) return;
  op_chf_free(b->chf);
  free(b->layer);
  memset(b, 0, sizeof *b);
}

void opl_unit_free(opl_unit *u) {
  if (!u) return;
  op_chf_free(u->view);
  free(u->map);
  op_regions_free(&u->rg);
  op_contour_set_free(&u->cs);
  op_tile_free(u->tile);
  memset(u, 0, sizeof *u);
}

static void keep_tile_free(opl_keep_tile *t) {
  if (t->units)
    for (uint32_t i = 0; i < t->nunits; i++) opl_unit_free(&t->units[i]);
  free(t->units);
  opl_base_free(&t->base);
  memset(t, 0, sizeof *t);
}

void opl_keep_free(opl_keep *k) {
  if (!k) return;
  for (uint32_t i = 0; i < k->ntiles; i++) keep_tile_free(&k->tiles[i]);
  free(k->tiles);
  memset(k, 0, sizeof *k);
}
