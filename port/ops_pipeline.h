/*
** ops_pipeline.h -- the argument decoding and the answer of the whole-3D-build ops
** (spec/build3d-polys.md POLY-230 .. POLY-233), shared by build3d.* (port/ops_pipeline.c)
** and tilecache.soup, .chunk, .heightfield (port/ops_tilecache.c, build3d-runtime.md
** RT-150, RT-151), which read their arguments as build3d.* do.
*/
#ifndef OPD_OPS_PIPELINE_H
#define OPD_OPS_PIPELINE_H

#include "dispatch.h"
#include "onepath_pipeline.h"
#include "ops_settings.h"

/* POLY-234 (also T2D-094): the optional `offmesh` list into *out (owned, freed by the caller;
** NULL when absent); *has 1 when the request has the member. */
op_status opd_dec_offmesh(const opj *args, op_offmesh_link **out, uint32_t *n, int *has,
                          op_error *err);

/* The input a build op reads besides its settings. */
typedef enum opd_pl_input { OPD_PL_SOUP, OPD_PL_CHUNK, OPD_PL_COLUMNS } opd_pl_input;

/* Copies of the tiles a build adds (POLY-233), collected by the tile hook. */
typedef struct opd_tile_copies {
  op_tile **t;
  uint32_t n, cap;
  int failed; /* an allocation failed: the op answers out_of_memory */
} opd_tile_copies;

/* The decoded arguments of one build op; free with opd_pl_args_free on every path. */
typedef struct opd_pl_args {
  opd_pl_input input;
  opd_settings_dec sd;     /* the settings (validated, POLY-202 checked) */
  op_trimesh m;            /* soup, chunk: the triangles */
  op_soup soup;            /* soup, chunk: a view of m */
  op_chunked *chunk;       /* chunk: the chunked mesh (POLY-231) */
  op_solid_columns cols;   /* columns: validated (POLY-232) */
  uint32_t *col_start;     /* columns: owned arrays behind cols */
  op_solid_span *spans;
  opd_tile_copies tc;      /* filled by hooks during the build */
  op_pipeline_hooks hooks; /* tile hook -> tc */
} opd_pl_args;

/* POLY-230 .. POLY-232: decodes and checks the settings and the input of build3d.<input>,
** in the order those clauses give (settings, soup | level, chunk_size and the chunked mesh;
** or settings, columns and their validation). *a is zeroed first and its hooks set. */
op_status opd_pl_decode(const opj *args, opd_pl_input input, opd_pl_args *a, op_error *err);
void opd_pl_args_free(opd_pl_args *a);

/* POLY-233: puts the tile copies of the build into the session (handles in tile order)
** and writes the members ntx, ntz, built, npolys and tiles. On failure no tile handle
** stays; the caller drops the handles it put before. */
op_status opd_pl_answer_tiles(opd_session *ss, opd_pl_args *a, const op_pipeline_result *r,
                              opj_w *res, op_error *err);

#endif
