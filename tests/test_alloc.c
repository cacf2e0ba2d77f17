/*
** test_alloc.c -- the counted allocator (ref/core/alloc.c) and the session's fail_alloc
** knob (spec/conformance.md CONF-059): the k-th counted allocation fails, NULL counts
** nothing, the arming lasts one request and a failed request changes nothing (CONF-014);
** a mesh load counts each of its allocations (MESH-070).
*/
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dispatch.h"
#include "onepath_tilecache.h"
#include "optest.h"

OPT_TEST(alloc_counts_and_fails_once, "CONF-059") {
  op_alloc_count a = {0, 3};
  void *p[5];
  for (int i = 0; i < 5; i++) p[i] = opc_malloc(&a, 8);
  OPT_CHECK(p[0] && p[1] && !p[2] && p[3] && p[4]); /* only the third fails */
  OPT_CHECK(a.n == 5);
  for (int i = 0; i < 5; i++) free(p[i]);
  op_alloc_count never = {0, 0};
  void *q = opc_calloc(&never, 4, 4), *r = opc_realloc(NULL, NULL, 16); /* NULL: plain */
  OPT_CHECK(q && r && never.n == 1);
  free(q);
  free(r);
  op_alloc_count one = {0, 1};
  void *keep = malloc(4);
  OPT_CHECK(opc_realloc(&one, keep, 64) == NULL); /* keep is still the caller's */
  free(keep);
}

static char *run(opd_session *s, const char *req) {
  opj_w w;
  opj_w_init(&w);
  opd_execute(s, req, strlen(req), &w);
  return w.buf; /* owned by the caller */
}

static int has(const char *ans, const char *text) { return ans && strstr(ans, text) != NULL; }

OPT_TEST(fail_alloc_arms_one_request, "CONF-059") {
  static const char build[] =
      "{\"id\":2,\"op\":\"build2d.outlines\",\"args\":{\"settings\":{\"agent_radius\":0},"
      "\"outlines\":[[[0,0],[4,0],[4,4],[0,4]]]}}";
  opd_session *s = opd_session_new();
  char *a = run(s, "{\"id\":1,\"op\":\"fail_alloc\",\"args\":{\"after\":1}}");
  OPT_CHECK(has(a, "\"ok\":{}"));
  free(a);
  a = run(s, build); /* armed: the triangulation's first allocation fails */
  OPT_CHECK(has(a, "\"kind\":\"out_of_memory\"") && has(a, "\"field\":\"region\""));
  free(a);
  a = run(s, build); /* unarmed again, and no handle was used up (CONF-014) */
  OPT_CHECK(has(a, "\"ok\":{\"handle\":1,"));
  free(a);
  a = run(s, "{\"id\":3,\"op\":\"fail_alloc\",\"args\":{\"after\":-1}}");
  OPT_CHECK(has(a, "\"kind\":\"out_of_range\"") && has(a, "\"value\":\"-1\""));
  free(a);
  a = run(s, "{\"id\":4,\"op\":\"fail_alloc\",\"args\":{}}");
  OPT_CHECK(has(a, "\"kind\":\"argument\"") && has(a, "\"field\":\"after\""));
  free(a);
  opd_session_free(s);
}

/* CONF-059, MESH-070: op_mesh_load_counted of an empty mesh's bytes makes, by the code of
** ref/navmesh/mesh_load.c and mesh_links.c read by hand, 7 counted allocations in this order:
** the held links, the relink's slot list, the tile order, the column index (the working copy
** has no order yet: the wide box scans), the new links and their counts, the mesh itself.
** Each k in 1..7 fails with out_of_memory `mesh` and no mesh; k = 8 loads it, and the mesh
** made keeps no counter (a later call on it counts nothing). */
OPT_TEST(mesh_load_counts_each_allocation, "CONF-059") {
  op_mesh_params p;
  memset(&p, 0, sizeof p);
  p.tiling.cell_size = 0.5, p.tiling.cell_height = 0.25, p.tiling.tile_cells = 8;
  p.tiling.max_verts_per_poly = 6, p.max_tiles = 4;
  op_mesh *m = NULL;
  op_error e;
  OPT_CHECK(op_mesh_create(&p, &m, &e) == OP_OK);
  op_bytes b = {NULL, 0};
  OPT_CHECK(op_mesh_save(m, &b, &e) == OP_OK);
  for (uint64_t k = 1; k <= 7; k++) {
    op_alloc_count a = {0, k};
    op_mesh *out = (op_mesh *)&a; /* set to NULL on failure */
    OPT_CHECK(op_mesh_load_counted(b.data, b.len, &a, &out, &e) == OP_E_NOMEM);
    OPT_CHECK(out == NULL && strcmp(e.field, "mesh") == 0);
  }
  op_alloc_count a = {0, 8};
  op_mesh *l = NULL;
  OPT_CHECK(op_mesh_load_counted(b.data, b.len, &a, &l, &e) == OP_OK && l && a.n == 7);
  op_bytes b2 = {NULL, 0};
  OPT_CHECK(op_mesh_save(l, &b2, &e) == OP_OK && b2.len == b.len &&
            memcmp(b2.data, b.data, b.len) == 0);
  OPT_CHECK(op_mesh_remove_tile(l, 0, 0, 0, &e) == OP_E_ARGUMENT && a.n == 7); /* not kept */
  op_mesh_set_alloc(NULL, &a); /* NULL-safe setters */
  op_tilecache_set_alloc(NULL, &a);
  op_bytes_free(&b2);
  op_bytes_free(&b);
  op_mesh_free(l);
  op_mesh_free(m);
}

OPT_MAIN_BEGIN
OPT_RUN(alloc_counts_and_fails_once);
OPT_RUN(fail_alloc_arms_one_request);
OPT_RUN(mesh_load_counts_each_allocation);
OPT_MAIN_END
