/*
** test_dispatch.c -- requests, answers, handles and the session ops
** (spec/conformance.md CONF-024 .. CONF-053). Expected answers are written from the clauses.
*/
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "optest.h"

/* Executes one request and returns the parsed answer (caller frees). */
static opj_doc *run(opd_session *s, const char *req) {
  opj_w w;
  opj_w_init(&w);
  opd_execute(s, req, strlen(req), &w);
  opj_doc *d = w.buf ? opj_parse(w.buf, w.len, NULL, 0) : NULL;
  if (!d) fprintf(stderr, "  answer is not JSON: %s\n", w.buf ? w.buf : "(null)");
  opj_w_free(&w);
  return d;
}

static const char *str_at(const opj *o, const char *a, const char *b) {
  const opj *v = opj_get(o, a);
  if (b) v = opj_get(v, b);
  return v && v->type == OPJ_STR ? v->str : NULL;
}

static int streq(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

/* Checks an error answer: id (or -1 for null), kind, field, value (NULL: not checked). */
static int is_error(opj_doc *d, int64_t id, const char *kind, const char *field, const char *value) {
  if (!d) return 0;
  const opj *r = opj_root(d);
  const opj *jid = opj_get(r, "id");
  int64_t got;
  int id_ok = id < 0 ? (jid && jid->type == OPJ_NULL) : (opj_int(jid, 0, 1LL << 53, &got) == 0 && got == id);
  int ok = id_ok && !opj_get(r, "ok") && streq(str_at(r, "error", "kind"), kind) &&
           streq(str_at(r, "error", "field"), field) &&
           (!value || streq(str_at(r, "error", "value"), value)) && str_at(r, "error", "message");
  if (!ok) fprintf(stderr, "  unexpected error answer\n");
  return ok;
}

static const opj *ok_of(opj_doc *d, int64_t id) {
  if (!d) return NULL;
  int64_t got;
  if (opj_int(opj_get(opj_root(d), "id"), 0, 1LL << 53, &got) || got != id) return NULL;
  const opj *ok = opj_get(opj_root(d), "ok");
  return ok && ok->type == OPJ_OBJ ? ok : NULL;
}

OPT_TEST(malformed_requests, "CONF-026") {
  opd_session *s = opd_session_new();
  opj_doc *d;
  d = run(s, "{\"id\":1,");
  OPT_CHECK(is_error(d, -1, "argument", "request", "")); /* CONF-022: value empty */
  opj_free(d);
  d = run(s, "[1]");
  OPT_CHECK(is_error(d, -1, "argument", "request", ""));
  opj_free(d);
  d = run(s, "{\"id\":7,\"op\":\"hello\",\"extra\":0}");
  OPT_CHECK(is_error(d, 7, "argument", "request", "extra"));
  opj_free(d);
  d = run(s, "{\"id\":-1,\"op\":\"hello\"}");
  OPT_CHECK(is_error(d, -1, "argument", "id", ""));
  opj_free(d);
  d = run(s, "{\"id\":1.5,\"op\":\"hello\"}");
  OPT_CHECK(is_error(d, -1, "argument", "id", ""));
  opj_free(d);
  d = run(s, "{\"id\":8,\"op\":3}");
  OPT_CHECK(is_error(d, 8, "argument", "op", ""));
  opj_free(d);
  d = run(s, "{\"id\":9,\"op\":\"hello\",\"args\":[]}");
  OPT_CHECK(is_error(d, 9, "argument", "args", ""));
  opj_free(d);
  opd_session_free(s);
}

OPT_TEST(unknown_op, "CONF-027") {
  opd_session *s = opd_session_new();
  opj_doc *d = run(s, "{\"id\":3,\"op\":\"no.such.op\",\"args\":{}}");
  OPT_CHECK(is_error(d, 3, "argument", "op", "no.such.op"));
  opj_free(d);
  opd_session_free(s);
}

OPT_TEST(depth_limit, "CONF-023") {
  opd_session *s = opd_session_new();
  char req[400] = "{\"id\":1,\"op\":\"echo\",\"args\":{\"str\":";
  size_t n = strlen(req);
  for (int i = 0; i < 70; i++) req[n++] = '[';
  req[n] = 0;
  opj_doc *d = run(s, req);
  OPT_CHECK(is_error(d, -1, "limit", "request", "")); /* CONF-023: kind limit, value empty */
  opj_free(d);
  opd_session_free(s);
}

OPT_TEST(hello, "CONF-050") {
  opd_session *s = opd_session_new();
  opj_doc *d = run(s, "{\"id\":0,\"op\":\"hello\"}");
  const opj *ok = ok_of(d, 0);
  OPT_CHECK(ok != NULL);
  OPT_CHECK(streq(str_at(ok, "protocol", NULL), "onepath-port/0"));
  OPT_CHECK(streq(str_at(ok, "implementation", NULL), "onepath-ref " OP_VERSION_STRING));
  const opj *ops = opj_get(ok, "ops");
  OPT_CHECK(ops && ops->type == OPJ_ARR && ops->n >= 3);
  int seen = 0;
  for (size_t i = 0; ops && i < ops->n; i++) {
    const opj *o = opj_at(ops, i);
    if (streq(o->str, "hello") || streq(o->str, "drop") || streq(o->str, "echo")) seen++;
    if (i) OPT_CHECK(strcmp(opj_at(ops, i - 1)->str, o->str) < 0); /* sorted, no duplicates */
  }
  OPT_CHECK(seen == 3);
  opj_free(d);
  opd_session_free(s);
}

OPT_TEST(handles_in_order_never_reused, "CONF-040") {
  opd_session *s = opd_session_new();
  OPT_CHECK(opd_put(s, OPD_PRNG, calloc(1, 32)) == 1);
  OPT_CHECK(opd_put(s, OPD_PRNG, calloc(1, 32)) == 2);
  OPT_CHECK(opd_drop(s, OPD_PRNG, 2) == 0);
  OPT_CHECK(opd_drop(s, OPD_PRNG, 2) == -1);
  OPT_CHECK(opd_lookup(s, OPD_PRNG, 2) == NULL);
  OPT_CHECK(opd_put(s, OPD_PRNG, calloc(1, 32)) == 3); /* 2 is not reused */
  OPT_CHECK(opd_lookup(s, OPD_PRNG, 1) != NULL);
  OPT_CHECK(opd_lookup(s, OPD_TILE, 1) == NULL); /* CONF-042: wrong kind */
  OPT_CHECK(opd_lookup(s, OPD_PRNG, 0) == NULL);
  OPT_CHECK(opd_lookup(s, OPD_PRNG, 4) == NULL);
  opd_session_free(s); /* frees 1 and 3 (leak-checked under ASan) */
}

OPT_TEST(drop_op, "CONF-041") {
  opd_session *s = opd_session_new();
  OPT_CHECK(opd_put(s, OPD_PRNG, calloc(1, 32)) == 1);
  opj_doc *d = run(s, "{\"id\":1,\"op\":\"drop\",\"args\":{\"handle\":1}}");
  const opj *ok = ok_of(d, 1);
  OPT_CHECK(ok && ok->n == 0);
  opj_free(d);
  d = run(s, "{\"id\":2,\"op\":\"drop\",\"args\":{\"handle\":1}}");
  OPT_CHECK(is_error(d, 2, "argument", "handle", "1"));
  opj_free(d);
  d = run(s, "{\"id\":3,\"op\":\"drop\",\"args\":{\"handle\":-4}}");
  OPT_CHECK(is_error(d, 3, "argument", "handle", "-4"));
  opj_free(d);
  d = run(s, "{\"id\":4,\"op\":\"drop\",\"args\":{}}");
  OPT_CHECK(is_error(d, 4, "argument", "handle", ""));
  opj_free(d);
  opd_session_free(s);
}

OPT_TEST(echo_values, "CONF-053") {
  opd_session *s = opd_session_new();
  opj_w w;
  opj_w_init(&w);
  const char *req = "{\"id\":5,\"op\":\"echo\",\"args\":{\"f64\":[1.0,-0.0,1e-7,\"-Infinity\"],"
                    "\"i64\":[-9223372036854775808],\"u64\":[\"ffffffffffffffff\"],\"bytes\":[\"\",\"0a\"],"
                    "\"str\":[\"\\u0041\\n\"]}}";
  opd_execute(s, req, strlen(req), &w);
  const char *want = "{\"id\":5,\"ok\":{\"f64\":[1,-0,1e-07,\"-Infinity\"],\"i64\":[-9223372036854775808],"
                     "\"u64\":[\"ffffffffffffffff\"],\"bytes\":[\"\",\"0a\"],\"str\":[\"A\\n\"]}}";
  OPT_CHECK(w.buf && strcmp(w.buf, want) == 0);
  if (w.buf && strcmp(w.buf, want)) fprintf(stderr, "  got  %s\n", w.buf);
  opj_w_free(&w);
  opj_doc *d = run(s, "{\"id\":6,\"op\":\"echo\",\"args\":{\"f64\":[1,\"nan\"]}}");
  OPT_CHECK(is_error(d, 6, "argument", "f64[1]", ""));
  opj_free(d);
  d = run(s, "{\"id\":7,\"op\":\"echo\",\"args\":{\"bytes\":[\"0A\"]}}");
  OPT_CHECK(is_error(d, 7, "argument", "bytes[0]", ""));
  opj_free(d);
  d = run(s, "{\"id\":8,\"op\":\"echo\",\"args\":{\"f32\":[]}}");
  OPT_CHECK(is_error(d, 8, "argument", "f32", ""));
  opj_free(d);
  opd_session_free(s);
}

/* Checks that request `req` (id 1) fails with kind, field and exactly value. */
static int fails_with(opd_session *s, const char *req, const char *kind, const char *field,
                      const char *value) {
  opj_doc *d = run(s, req);
  int ok = is_error(d, 1, kind, field, value);
  if (!ok) fprintf(stderr, "  request: %s\n", req);
  opj_free(d);
  return ok;
}

/* CONF-013, CONF-035 in the math ops (MATH-050 .. MATH-054): an argument that is absent or
** not of its form has the empty value; a value of the right form that a rule rejects has the
** text of its type; an integer is never written through binary64 (CONF-032). Expected texts
** are derived from the clauses. */
OPT_TEST(math_value_texts, "CONF-013, CONF-032, CONF-035, MATH-051, MATH-054") {
  opd_session *s = opd_session_new();
  const char *P = "{\"id\":1,\"op\":\"math.orient2d_i64\",\"args\":";
  char req[512];
#define ORIENT(args) (snprintf(req, sizeof req, "%s%s}", P, args), req)
  /* absent or malformed: empty */
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"math.sincos\",\"args\":{\"a\":\"one\"}}", "argument", "a", ""));
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"math.sincos\",\"args\":{}}", "argument", "a", ""));
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0],\"b\":[1,0],\"c\":[0,1]}"), "argument", "a", ""));
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,0],\"b\":[1,0]}"), "argument", "c", ""));
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,0],\"b\":[1,1.5],\"c\":[0,1]}"), "argument", "b[1]", ""));
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,0],\"b\":[1,0],\"c\":[\"12x\",1]}"), "argument", "c[0]", ""));
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,0],\"b\":[1,0],\"c\":[\"+12\",1]}"), "argument", "c[0]", ""));
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,0],\"b\":[1,0],\"c\":[\"-\",1]}"), "argument", "c[0]", ""));
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,0],\"b\":[1,0],\"c\":[true,1]}"), "argument", "c[0]", ""));
  /* CONF-032: integral but beyond 64 bits is not an integer: empty */
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,0],\"b\":[1,0],\"c\":[1e30,1]}"), "argument", "c[0]", ""));
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,0],\"b\":[1,0],\"c\":[99999999999999999999,1]}"),
                       "argument", "c[0]", ""));
  /* MATH-051: an integer beyond 2^53: its exact decimal digits, never through binary64 */
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,0],\"b\":[1,0],\"c\":[9007199254740993,1]}"),
                       "argument", "c[0]", "9007199254740993"));
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,0],\"b\":[1,0],\"c\":[-9007199254740993,1]}"),
                       "argument", "c[0]", "-9007199254740993"));
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,0],\"b\":[1,0],\"c\":[1.152921504606847e+18,1]}"),
                       "argument", "c[0]", "1152921504606846976"));
  /* a decimal string outside int64: the string as given (leading zeros kept), cut at 63 bytes */
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,\"00009223372036854775808\"],\"b\":[1,0],\"c\":[0,1]}"),
                       "out_of_range", "a[1]", "00009223372036854775808"));
  OPT_CHECK(fails_with(s, ORIENT("{\"a\":[0,0],\"b\":[1,0],\"c\":[\"-"
                                 "1234567890123456789012345678901234567890123456789012345678901234567890\",1]}"),
                       "out_of_range", "c[0]",
                       "-12345678901234567890123456789012345678901234567890123456789012"));
#undef ORIENT
  /* orient2d_f32 */
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"math.orient2d_f32\",\"args\":{\"b\":[1,0],\"c\":[0,1]}}",
                       "argument", "a", ""));
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"math.orient2d_f32\",\"args\":{\"a\":[\"NaN\",0],\"b\":[1,0],\"c\":[0,1]}}",
                       "argument", "a[0]", ""));
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"math.orient2d_f32\",\"args\":{\"a\":[0,0],\"b\":[1,0.1],\"c\":[0,1]}}",
                       "argument", "b[1]", "0.1"));
  /* prng */
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"prng.new\",\"args\":{\"seed\":\"xyz\"}}", "argument", "seed", ""));
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"prng.new\",\"args\":{\"seed\":5}}", "argument", "seed", ""));
  opj_doc *d = run(s, "{\"id\":1,\"op\":\"prng.new\",\"args\":{\"seed\":\"0000000000000000\"}}");
  int64_t g = 0;
  OPT_CHECK(ok_of(d, 1) && opj_int(opj_get(ok_of(d, 1), "handle"), 1, 1000, &g) == 0);
  opj_free(d);
  char rq[256];
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"prng.next_u64\",\"args\":{\"prng\":%lld,\"count\":1.5}}", (long long)g);
  OPT_CHECK(fails_with(s, rq, "argument", "count", ""));
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"prng.next_u64\",\"args\":{\"prng\":%lld,\"count\":1e30}}", (long long)g);
  OPT_CHECK(fails_with(s, rq, "argument", "count", ""));
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"prng.unit\",\"args\":{\"prng\":%lld}}", (long long)g);
  OPT_CHECK(fails_with(s, rq, "argument", "count", ""));
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"prng.next_u64\",\"args\":{\"prng\":%lld,\"count\":9007199254740993}}",
           (long long)g);
  OPT_CHECK(fails_with(s, rq, "out_of_range", "count", "9007199254740993"));
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"prng.unit\",\"args\":{\"prng\":9007199254740993,\"count\":1}}",
                       "argument", "prng", "9007199254740993"));
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"prng.unit\",\"args\":{\"prng\":\"1\",\"count\":1}}",
                       "argument", "prng", ""));
  /* MATH-054 order: prng, count, n */
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"prng.below\",\"args\":{\"prng\":%lld,\"n\":\"a\",\"count\":-1}}",
           (long long)g);
  OPT_CHECK(fails_with(s, rq, "out_of_range", "count", "-1"));
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"prng.below\",\"args\":{\"prng\":%lld,\"n\":\"a\",\"count\":3}}",
           (long long)g);
  OPT_CHECK(fails_with(s, rq, "argument", "n", ""));
  snprintf(rq, sizeof rq,
           "{\"id\":1,\"op\":\"prng.below\",\"args\":{\"prng\":%lld,\"n\":\"0000000000000000\",\"count\":3}}",
           (long long)g);
  OPT_CHECK(fails_with(s, rq, "out_of_range", "n", "0000000000000000"));
  opd_session_free(s);
}

OPT_MAIN_BEGIN
OPT_RUN(malformed_requests);
OPT_RUN(unknown_op);
OPT_RUN(depth_limit);
OPT_RUN(hello);
OPT_RUN(handles_in_order_never_reused);
OPT_RUN(drop_op);
OPT_RUN(echo_values);
OPT_RUN(math_value_texts);
OPT_MAIN_END
