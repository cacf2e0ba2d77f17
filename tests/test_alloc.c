/*
** test_alloc.c -- the counted allocator (ref/core/alloc.c) and the session's fail_alloc
** knob (spec/conformance.md CONF-059): the k-th counted allocation fails, NULL counts
** nothing, the arming lasts one request and a failed request changes nothing (CONF-014).
*/
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "dispatch.h"
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

OPT_MAIN_BEGIN
OPT_RUN(alloc_counts_and_fails_once);
OPT_RUN(fail_alloc_arms_one_request);
OPT_MAIN_END
