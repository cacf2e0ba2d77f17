/*
** test_dispatch.c -- requests, answers, handles and the session ops
** (spec/conformance.md CONF-024 .. CONF-053). Expected answers are written from the clauses.
*/
#include <stdint.h>
#include <stdio.h>
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
  OPT_CHECK(streq(str_at(ok, "protocol", NULL), "onepath-port/1"));
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

/* ------------------------------------------------------------------ evidence added for
** CONF-012, CONF-014, CONF-016, CONF-028, CONF-029, CONF-036, CONF-043, CONF-051. Every
** expected text below is written from the clause named by the test. */

/* Executes one request and returns the raw answer text (malloc'd). */
static char *run_text(opd_session *s, const char *req) {
  opj_w w;
  opj_w_init(&w);
  opd_execute(s, req, strlen(req), &w);
  char *t = malloc(w.len + 1);
  if (t) {
    memcpy(t, w.buf ? w.buf : "", w.len);
    t[w.len] = '\0';
  }
  opj_w_free(&w);
  return t;
}

static int64_t new_prng(opd_session *s, int64_t id, const char *seed) {
  char rq[160];
  snprintf(rq, sizeof rq, "{\"id\":%lld,\"op\":\"prng.new\",\"args\":{\"seed\":\"%s\"}}", (long long)id, seed);
  opj_doc *d = run(s, rq);
  int64_t h = -1;
  const opj *ok = ok_of(d, id);
  if (!ok || opj_int(opj_get(ok, "handle"), 1, INT64_MAX, &h)) h = -1;
  opj_free(d);
  return h;
}

/* The first u64 of prng.next_u64 {prng: h, count: 1}, or 0 when the answer is not ok. */
static uint64_t next_u64(opd_session *s, int64_t h) {
  char rq[160];
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"prng.next_u64\",\"args\":{\"prng\":%lld,\"count\":1}}", (long long)h);
  opj_doc *d = run(s, rq);
  const opj *v = opj_at(opj_get(ok_of(d, 1), "values"), 0);
  uint64_t u = 0;
  if (!v || opj_u64hex(v, &u)) u = 0;
  opj_free(d);
  return u;
}

/* xoshiro256** written here from MATH-041 .. MATH-043 (not from ref/math/math.c). */
static uint64_t rotl64(uint64_t v, int r) { return (v << r) | (v >> (64 - r)); }
static uint64_t spec_next(uint64_t st[4]) {
  uint64_t out = rotl64(st[1] * 5, 7) * 9, t = st[1] << 17;
  st[2] ^= st[0], st[3] ^= st[1], st[1] ^= st[2], st[0] ^= st[3], st[2] ^= t;
  st[3] = rotl64(st[3], 45);
  return out;
}

OPT_TEST(field_and_value_cut, "CONF-012") {
  opd_session *s = opd_session_new();
  char rq[512], want[128];
  /* a member name of 100 bytes is a field name: cut to 95 bytes */
  char name[128];
  memset(name, 'x', 100);
  name[100] = '\0';
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"echo\",\"args\":{\"%s\":[]}}", name);
  memset(want, 'x', 95);
  want[95] = '\0';
  OPT_CHECK(fails_with(s, rq, "argument", want, ""));
  /* 94 x and U+00E9 (C3 A9) = 96 bytes; the cut at 95 leaves a lone C3, which goes too */
  memset(name, 'x', 94);
  memcpy(name + 94, "\xc3\xa9", 3);
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"echo\",\"args\":{\"%s\":[]}}", name);
  want[94] = '\0';
  OPT_CHECK(fails_with(s, rq, "argument", want, ""));
  /* an op name of 70 bytes is a value text (CONF-027): cut to 63 bytes */
  memset(name, 'b', 70);
  name[70] = '\0';
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"%s\"}", name);
  memset(want, 'b', 63);
  want[63] = '\0';
  OPT_CHECK(fails_with(s, rq, "argument", "op", want));
  /* 62 a and U+20AC (E2 82 AC) = 65 bytes; the cut at 63 leaves E2 82, removed */
  memset(name, 'a', 62);
  memcpy(name + 62, "\xe2\x82\xac", 4);
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"%s\"}", name);
  memset(want, 'a', 62);
  want[62] = '\0';
  OPT_CHECK(fails_with(s, rq, "argument", "op", want));
  /* exactly 63 bytes ending in a complete sequence is kept whole: 61 a + C3 A9 */
  memset(name, 'a', 61);
  memcpy(name + 61, "\xc3\xa9", 3);
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"%s\"}", name);
  OPT_CHECK(fails_with(s, rq, "argument", "op", name));
  /* paths: members joined with '.', elements as [i] */
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"mesh.create\",\"args\":{\"tiling\":{\"origin\":[0,\"a\",0]}}}",
                       "argument", "tiling.origin[1]", ""));
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"echo\",\"args\":{\"u64\":[\"0000000000000000\",\"0000000000000001\",\"\",\"x\"]}}",
                       "argument", "u64[2]", ""));
  opd_session_free(s);
}

OPT_TEST(several_problems_first_reported, "CONF-016") {
  opd_session *s = opd_session_new();
  opj_doc *d;
  /* the envelope before the op's arguments: an unknown member wins over a bad argument */
  d = run(s, "{\"id\":4,\"op\":\"math.sincos\",\"args\":{\"a\":\"bad\"},\"x\":1}");
  OPT_CHECK(is_error(d, 4, "argument", "request", "x"));
  opj_free(d);
  /* CONF-024 order: check 3 (id) before 4 (op) */
  d = run(s, "{\"op\":5,\"id\":\"x\"}");
  OPT_CHECK(is_error(d, -1, "argument", "id", ""));
  opj_free(d);
  /* check 5 (args) before 6 (op name) */
  d = run(s, "{\"id\":4,\"op\":\"no.such.op\",\"args\":5}");
  OPT_CHECK(is_error(d, 4, "argument", "args", ""));
  opj_free(d);
  /* check 6 (op name) before any argument */
  d = run(s, "{\"id\":4,\"op\":\"no.such.op\",\"args\":{\"a\":\"bad\"}}");
  OPT_CHECK(is_error(d, 4, "argument", "op", "no.such.op"));
  opj_free(d);
  /* inside an op: the section's order (MATH-054: prng, then count, then n) */
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"prng.below\",\"args\":{\"prng\":99,\"count\":-1,\"n\":\"x\"}}",
                       "argument", "prng", "99"));
  opd_session_free(s);
}

OPT_TEST(session_survives_errors, "CONF-028") {
  opd_session *s = opd_session_new();
  /* seed 0: the state of MATH-042, outputs by MATH-043 computed here */
  uint64_t st[4] = {0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL, 0x06c45d188009454fULL,
                    0xf88bb8a8724c81ecULL};
  int64_t h = new_prng(s, 1, "0000000000000000");
  OPT_CHECK(h == 1);
  OPT_CHECK(next_u64(s, h) == spec_next(st));
  opj_doc *d = run(s, "{\"id\":2,\"op\":\"no.such.op\"}");
  OPT_CHECK(is_error(d, 2, "argument", "op", "no.such.op"));
  opj_free(d);
  d = run(s, "not json");
  OPT_CHECK(is_error(d, -1, "argument", "request", ""));
  opj_free(d);
  /* the session goes on, with its PRNG where it was */
  OPT_CHECK(next_u64(s, h) == spec_next(st));
  OPT_CHECK(next_u64(s, h) == spec_next(st));
  opd_session_free(s);
}

OPT_TEST(answer_ids, "CONF-029") {
  opd_session *s = opd_session_new();
  static const struct {
    const char *req, *prefix;
  } cases[] = {
      {"{\"id\":5,\"op\":\"hello\"}", "{\"id\":5,"},
      {"{\"id\":5,\"op\":\"hello\"}", "{\"id\":5,"}, /* not distinct */
      {"{\"id\":2,\"op\":\"hello\"}", "{\"id\":2,"}, /* not increasing */
      {"{\"id\":0,\"op\":\"hello\"}", "{\"id\":0,"},
      {"{\"id\":9007199254740991,\"op\":\"hello\"}", "{\"id\":9007199254740991,"}, /* 2^53 - 1 */
      /* an integral JSON number in another spelling is answered as a JSON integer */
      {"{\"id\":1e2,\"op\":\"hello\"}", "{\"id\":100,"},
      {"{\"id\":7.0,\"op\":\"no.such.op\"}", "{\"id\":7,"},
      {"{\"op\":\"hello\",\"id\":3}", "{\"id\":3,"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *t = run_text(s, cases[i].req);
    int ok = t && strncmp(t, cases[i].prefix, strlen(cases[i].prefix)) == 0;
    if (!ok) fprintf(stderr, "  %s -> %s\n", cases[i].req, t ? t : "(null)");
    OPT_CHECK(ok);
    free(t);
  }
  opd_session_free(s);
}

/* A one-quad tile with one off-mesh link; %s is the bidirectional member's JSON value. */
static const char *TILE_FMT =
    "{\"id\":%d,\"op\":\"tile.create\",\"args\":{%s}}";
static const char *TILE_ARGS_A =
    "\"x\":0,\"z\":0,\"layer\":0,\"tiling\":{\"origin\":[0,0,0],\"cell_size\":0.5,\"cell_height\":0.25,"
    "\"tile_cells\":8,\"max_verts_per_poly\":6},\"origin_y\":0,"
    "\"verts\":[[0,0,0],[4,0,0],[4,0,4],[0,0,4]],"
    "\"polys\":[{\"verts\":[0,1,2,3],\"neis\":[32771,32770,32769,32768],\"area\":0,\"flags\":1}],"
    "\"offmesh\":[{\"start\":[1,0,1],\"end\":[2,0,2],\"radius\":0.5,\"flags\":0,\"area\":0,"
    "\"bidirectional\":%s,\"user_id\":0}]";
/* The same arguments with every object's members in another order. */
static const char *TILE_ARGS_B =
    "\"offmesh\":[{\"user_id\":0,\"bidirectional\":%s,\"area\":0,\"flags\":0,\"radius\":0.5,"
    "\"end\":[2,0,2],\"start\":[1,0,1]}],"
    "\"polys\":[{\"flags\":1,\"area\":0,\"neis\":[32771,32770,32769,32768],\"verts\":[0,1,2,3]}],"
    "\"verts\":[[0,0,0],[4,0,0],[4,0,4],[0,0,4]],\"origin_y\":0,"
    "\"tiling\":{\"max_verts_per_poly\":6,\"tile_cells\":8,\"cell_height\":0.25,\"cell_size\":0.5,"
    "\"origin\":[0,0,0]},\"layer\":0,\"z\":0,\"x\":0";

static char *tile_req(int id, const char *args_fmt, const char *bidir) {
  char args[1024], *rq = malloc(1200);
  snprintf(args, sizeof args, args_fmt, bidir);
  if (rq) snprintf(rq, 1200, TILE_FMT, id, args);
  return rq;
}

static const char *content_id_of(opj_doc *d, int64_t id) { return str_at(ok_of(d, id), "content_id", NULL); }

OPT_TEST(json_values, "CONF-036") {
  opd_session *s = opd_session_new();
  /* records: member order does not matter (same content id); booleans true/false */
  char *ra = tile_req(1, TILE_ARGS_A, "true"), *rb = tile_req(2, TILE_ARGS_B, "true");
  char *rc = tile_req(3, TILE_ARGS_A, "false"), *rd = tile_req(4, TILE_ARGS_A, "0");
  opj_doc *a = run(s, ra), *b = run(s, rb), *c = run(s, rc), *e = run(s, rd);
  OPT_CHECK(content_id_of(a, 1) && streq(content_id_of(a, 1), content_id_of(b, 2)));
  OPT_CHECK(content_id_of(c, 3) && !streq(content_id_of(a, 1), content_id_of(c, 3)));
  OPT_CHECK(streq(content_id_of(c, 3), content_id_of(e, 4))); /* false is 0 (FMT-070) */
  /* tile.view answers bidirectional as a JSON boolean, lists as arrays */
  opj_doc *v = run(s, "{\"id\":5,\"op\":\"tile.view\",\"args\":{\"tile\":1}}");
  const opj *om = opj_at(opj_get(ok_of(v, 5), "offmesh"), 0);
  const opj *bd = opj_get(om, "bidirectional");
  OPT_CHECK(bd && bd->type == OPJ_BOOL && bd->b);
  OPT_CHECK(opj_get(ok_of(v, 5), "verts") && opj_get(ok_of(v, 5), "verts")->type == OPJ_ARR);
  opj_free(v);
  v = run(s, "{\"id\":6,\"op\":\"tile.view\",\"args\":{\"tile\":3}}");
  bd = opj_get(opj_at(opj_get(ok_of(v, 6), "offmesh"), 0), "bidirectional");
  OPT_CHECK(bd && bd->type == OPJ_BOOL && !bd->b);
  opj_free(v);
  /* texts are UTF-8 JSON strings: escapes and raw UTF-8 read as the same text */
  char *t = run_text(s, "{\"id\":7,\"op\":\"echo\",\"args\":{\"str\":[\"\\u00e9\\u20ac\\ud834\\udd1e\",\"\xc3\xa9\"]}}");
  OPT_CHECK(t && strcmp(t, "{\"id\":7,\"ok\":{\"str\":[\"\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e\",\"\xc3\xa9\"]}}") == 0);
  if (t && strcmp(t, "{\"id\":7,\"ok\":{\"str\":[\"\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e\",\"\xc3\xa9\"]}}"))
    fprintf(stderr, "  got %s\n", t);
  free(t);
  opj_free(a), opj_free(b), opj_free(c), opj_free(e);
  free(ra), free(rb), free(rc), free(rd);
  opd_session_free(s);
}

OPT_TEST(failed_requests_change_nothing, "CONF-014") {
  opd_session *s = opd_session_new();
  uint64_t st[4] = {0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL, 0x06c45d188009454fULL,
                    0xf88bb8a8724c81ecULL};
  OPT_CHECK(new_prng(s, 1, "0000000000000000") == 1);
  /* failing creations allocate no handle */
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"prng.new\",\"args\":{\"seed\":\"0\"}}", "argument", "seed", ""));
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"tile.create\",\"args\":{\"x\":0}}", "argument", "z", ""));
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"mesh.create\",\"args\":{\"tiling\":{\"origin\":[0,0,0],"
                          "\"cell_size\":0.5,\"cell_height\":0.25,\"tile_cells\":8,\"max_verts_per_poly\":6},"
                          "\"walkable_climb\":-1,\"max_tiles\":4}}",
                       "out_of_range", "walkable_climb", "-1"));
  /* failing PRNG requests leave its state as it was (MATH-055 too) */
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"prng.next_u64\",\"args\":{\"prng\":1,\"count\":65537}}",
                       "out_of_range", "count", "65537"));
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"prng.below\",\"args\":{\"prng\":1,\"count\":3,\"n\":\"0000000000000000\"}}",
                       "out_of_range", "n", "0000000000000000"));
  OPT_CHECK(next_u64(s, 1) == spec_next(st));
  OPT_CHECK(new_prng(s, 2, "0000000000000001") == 2);
  /* a failed drop keeps the object */
  OPT_CHECK(fails_with(s, "{\"id\":1,\"op\":\"drop\",\"args\":{\"handle\":3}}", "argument", "handle", "3"));
  OPT_CHECK(next_u64(s, 1) == spec_next(st));
  opd_session_free(s);
}

/* CONF-043: fill a session with 2^24 handles through the handle table (dispatch.h), then ask
** for one more through the protocol. The objects of the filler handles are NULL (nothing to
** free), so the test costs one 16-byte slot per handle. */
OPT_TEST(handle_limit, "CONF-043, CONF-014") {
  opd_session *s = opd_session_new();
  uint64_t st[4] = {0xe220a8397b1dcdafULL, 0x6e789e6aa1b965f4ULL, 0x06c45d188009454fULL,
                    0xf88bb8a8724c81ecULL};
  OPT_CHECK(new_prng(s, 1, "0000000000000000") == 1);
  const int64_t limit = (int64_t)1 << 24;
  int64_t last = 1;
  for (int64_t i = 2; i <= limit; i++) {
    last = opd_put(s, OPD_PRNG, NULL);
    if (last != i) break;
  }
  OPT_CHECK(last == limit);
  /* handle 2^24 + 1 would be needed: the request fails with kind limit (CONF-043) */
  opj_doc *d = run(s, "{\"id\":9,\"op\":\"prng.new\",\"args\":{\"seed\":\"0000000000000005\"}}");
  const char *kind = str_at(opj_root(d), "error", "kind");
  OPT_CHECK(kind && strcmp(kind, "limit") == 0);
  const char *field = str_at(opj_root(d), "error", "field");
  const char *value = str_at(opj_root(d), "error", "value");
  OPT_CHECK(field && strcmp(field, "handle") == 0 && value && value[0] == '\0');
  OPT_CHECK(!ok_of(d, 9));
  opj_free(d);
  /* nothing changed: handle 1 still names the same PRNG, at the same point of its stream */
  OPT_CHECK(next_u64(s, 1) == spec_next(st));
  /* dropping frees the object but not the handle number (CONF-040): still at the limit */
  d = run(s, "{\"id\":10,\"op\":\"drop\",\"args\":{\"handle\":1}}");
  OPT_CHECK(ok_of(d, 10) != NULL);
  opj_free(d);
  OPT_CHECK(new_prng(s, 11, "0000000000000000") == -1);
  opd_session_free(s);
}

/* A request allocating several handles that fails at the limit gives them all back: the
** next request may use them (CONF-014, CONF-040, CONF-043). Counted in handles, at the real
** limit (placeholder objects fill the table quickly). */
OPT_TEST(handle_limit_failed_request_gives_back, "CONF-043, CONF-014, CONF-040") {
  opd_session *s = opd_session_new();
  const int64_t limit = (int64_t)1 << 24;
  int64_t last = 0;
  for (int64_t i = 1; i <= limit - 2; i++) {
    last = opd_put(s, OPD_PRNG, NULL);
    if (last != i) break;
  }
  OPT_CHECK(last == limit - 2); /* two handles left */
  /* a soup needing 5 handles (1 mesh, 4 tiles): limit, field handle, empty value */
  static const char soup[] =
      "{\"id\":3,\"op\":\"build3d.soup\",\"args\":{\"level\":{\"name\":\"terrain\","
      "\"seed\":\"00000000000000a1\",\"size\":24},\"partition\":\"watershed\","
      "\"preset\":\"Humanoid\"}}";
  opj_doc *d = run(s, soup);
  OPT_CHECK(is_error(d, 3, "limit", "handle", ""));
  opj_free(d);
  /* the two handles are still free, in order, and then the limit holds again */
  OPT_CHECK(new_prng(s, 4, "0000000000000001") == limit - 1);
  OPT_CHECK(new_prng(s, 5, "0000000000000002") == limit);
  OPT_CHECK(new_prng(s, 6, "0000000000000003") == -1);
  opd_session_free(s);
  /* the same soup in a fresh session needs exactly handles 1 .. 5 (so it did need more
  ** than the two left); after it the next handle is 6 */
  s = opd_session_new();
  d = run(s, soup);
  const opj *ok = ok_of(d, 3);
  int64_t mesh = 0;
  OPT_CHECK(ok && opj_int(opj_get(ok, "mesh"), 1, limit, &mesh) == 0);
  OPT_CHECK(ok && opj_get(ok, "tiles") && opj_get(ok, "tiles")->n == 4);
  opj_free(d);
  OPT_CHECK(new_prng(s, 7, "0000000000000001") == 6);
  opd_session_free(s);
}

OPT_TEST(session_op_table, "CONF-051") {
  static const char *const listed[] = {
      "hello", "drop", "echo",
      "math.sincos", "math.orient2d_i64", "math.orient2d_f32", "prng.new", "prng.next_u64",
      "prng.below", "prng.unit",
      "tile.create", "tile.load", "tile.save", "tile.view",
      "mesh.create", "mesh.add_tile", "mesh.replace_tile", "mesh.remove_tile", "mesh.poly_ref",
      "mesh.set_poly_flags", "mesh.set_poly_area", "mesh.get_poly", "mesh.save",
      "mesh.snapshot_save", "mesh.snapshot_load"};
  opd_session *s = opd_session_new();
  opj_doc *d = run(s, "{\"id\":1,\"op\":\"hello\"}");
  const opj *ops = opj_get(ok_of(d, 1), "ops");
  OPT_CHECK(ops && ops->type == OPJ_ARR);
  for (size_t i = 0; i < sizeof listed / sizeof *listed; i++) {
    int found = 0;
    for (size_t k = 0; ops && k < ops->n; k++) found |= streq(opj_at(ops, k)->str, listed[i]);
    if (!found) fprintf(stderr, "  hello does not list %s\n", listed[i]);
    OPT_CHECK(found);
    /* and the server accepts it: never the CONF-027 unknown-op error */
    char rq[128];
    snprintf(rq, sizeof rq, "{\"id\":2,\"op\":\"%s\",\"args\":{}}", listed[i]);
    opj_doc *a = run(s, rq);
    OPT_CHECK(a && !streq(str_at(opj_root(a), "error", "field"), "op"));
    opj_free(a);
  }
  opj_free(d);
  opd_session_free(s);
}

/* Runs one request and checks its error (kind, field, value). */
static int err_is(opd_session *s, const char *req, const char *kind, const char *field,
                  const char *value) {
  opj_doc *d = run(s, req);
  int ok = is_error(d, 1, kind, field, value);
  if (!ok) fprintf(stderr, "  request: %s\n", req);
  opj_free(d);
  return ok;
}

/* Runs one request that must succeed; returns the integer member `key` (or -1). */
static int64_t ok_int(opd_session *s, const char *req, const char *key) {
  opj_doc *d = run(s, req);
  int64_t v = -1;
  const opj *ok = ok_of(d, 1);
  if (!ok) fprintf(stderr, "  request failed: %s\n", req);
  if (ok && key && opj_int(opj_get(ok, key), INT64_MIN, INT64_MAX, &v)) v = -1;
  if (ok && !key) v = 0;
  opj_free(d);
  return v;
}

#define TC_LEVEL "\"preset\":\"Humanoid\",\"partition\":\"layers\",\"detail_sample_distance\":0," \
                 "\"level\":{\"name\":\"terrain\",\"seed\":\"00000000000000a1\",\"size\":4}"

OPT_TEST(tilecache_cache_argument, "RT-152, CONF-042") {
  opd_session *s = opd_session_new();
  /* not an integer: empty value; no live cache: the integer */
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.queue\",\"args\":{\"cache\":\"1\"}}",
                   "argument", "cache", ""));
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.queue\",\"args\":{}}", "argument", "cache", ""));
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.update\",\"args\":{\"cache\":7}}",
                   "argument", "cache", "7"));
  /* another kind's handle (a PRNG) is not a cache */
  OPT_CHECK(new_prng(s, 1, "0000000000000001") == 1);
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.snapshot_save\",\"args\":{\"cache\":1}}",
                   "argument", "cache", "1"));
  /* cache is read first: a bad id after a bad cache reports the cache */
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.remove_obstacle\",\"args\":{\"cache\":0,\"id\":-1}}",
                   "argument", "cache", "0"));
  opd_session_free(s);
}

OPT_TEST(tilecache_build_arguments, "RT-151") {
  opd_session *s = opd_session_new();
  /* the build3d.* arguments are read before repair */
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.soup\",\"args\":{\"preset\":\"Tiny\",\"repair\":1,"
                      "\"level\":{\"name\":\"terrain\",\"seed\":\"00000000000000a1\",\"size\":4}}}",
                   "argument", "preset", NULL));
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.soup\",\"args\":{" TC_LEVEL ",\"repair\":1}}",
                   "argument", "repair", ""));
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.chunk\",\"args\":{" TC_LEVEL "}}",
                   "argument", "chunk_size", ""));
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.heightfield\",\"args\":{\"preset\":\"Humanoid\","
                      "\"detail_sample_distance\":0}}", "argument", "columns", ""));
  /* the failed builds used no handle (CONF-014): the first cache is handle 1, its mesh 2 */
  OPT_CHECK(ok_int(s, "{\"id\":1,\"op\":\"tilecache.soup\",\"args\":{" TC_LEVEL ",\"repair\":null}}",
                   "cache") == 1);
  OPT_CHECK(ok_int(s, "{\"id\":1,\"op\":\"mesh.save\",\"args\":{\"mesh\":2}}", NULL) == 0);
  opd_session_free(s);
}

OPT_TEST(tilecache_decoding, "RT-152") {
  opd_session *s = opd_session_new();
  OPT_CHECK(ok_int(s, "{\"id\":1,\"op\":\"tilecache.soup\",\"args\":{" TC_LEVEL ",\"repair\":false}}",
                   "cache") == 1);
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.add_obstacle\",\"args\":{\"cache\":1}}",
                   "argument", "obstacle", ""));
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.add_obstacle\",\"args\":{\"cache\":1,"
                      "\"obstacle\":{\"shape\":\"sphere\"}}}", "argument", "obstacle.shape", ""));
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.add_obstacle\",\"args\":{\"cache\":1,"
                      "\"obstacle\":{\"shape\":\"box\",\"bmin\":[0,0,0],\"bmax\":[1,1]}}}",
                   "argument", "obstacle.bmax", ""));
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.add_volume\",\"args\":{\"cache\":1,\"volume\":"
                      "{\"points\":[[0,0],[1,0],[2,0],[3,0],[4,0],[5,0],[6,0],[7,0],[8,0],[9,0],"
                      "[10,0],[11,0],[12,1]],\"ymin\":0,\"ymax\":1,\"area\":0}}}",
                   "out_of_range", "volume.npoints", "13"));
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.add_volume\",\"args\":{\"cache\":1,\"volume\":"
                      "{\"points\":[[0,0],[1,0],[1]],\"ymin\":0,\"ymax\":1,\"area\":0}}}",
                   "argument", "volume.points[2]", ""));
  /* u32 arguments: outside the type is not of the form (empty value) */
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.remove_volume\",\"args\":{\"cache\":1,\"id\":-1}}",
                   "argument", "id", ""));
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.remove_obstacle\",\"args\":{\"cache\":1,"
                      "\"id\":4294967296}}", "argument", "id", ""));
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.update\",\"args\":{\"cache\":1,\"max_tiles\":1.5}}",
                   "argument", "max_tiles", ""));
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"tilecache.snapshot_load\",\"args\":{\"cache\":1,\"bytes\":\"0g\"}}",
                   "argument", "bytes", ""));
  /* null max_tiles is UpdateAll: nothing queued, nothing processed */
  OPT_CHECK(ok_int(s, "{\"id\":1,\"op\":\"tilecache.update\",\"args\":{\"cache\":1,\"max_tiles\":null}}",
                   "processed") == 0);
  opd_session_free(s);
}

OPT_TEST(tilecache_borrowed_mesh, "RT-151, RT-018, CONF-041") {
  opd_session *s = opd_session_new();
  OPT_CHECK(ok_int(s, "{\"id\":1,\"op\":\"tilecache.soup\",\"args\":{" TC_LEVEL "}}", "mesh") == 2);
  int64_t t1 = 3; /* the first tile copy follows the mesh */
  char rq[256];
  /* the ops that change the tiles of the cache's mesh are refused, with the empty value */
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"mesh.add_tile\",\"args\":{\"mesh\":2,\"tile\":%lld}}",
           (long long)t1);
  OPT_CHECK(err_is(s, rq, "argument", "mesh", ""));
  /* dropping the mesh handle frees nothing: the cache still saves its state */
  OPT_CHECK(ok_int(s, "{\"id\":1,\"op\":\"drop\",\"args\":{\"handle\":2}}", NULL) == 0);
  OPT_CHECK(err_is(s, "{\"id\":1,\"op\":\"mesh.save\",\"args\":{\"mesh\":2}}", "argument", "mesh", "2"));
  OPT_CHECK(ok_int(s, "{\"id\":1,\"op\":\"tilecache.snapshot_save\",\"args\":{\"cache\":1}}", NULL) == 0);
  /* a second cache: dropping the cache leaves its mesh handle naming nothing */
  int64_t c2 = ok_int(s, "{\"id\":1,\"op\":\"tilecache.soup\",\"args\":{" TC_LEVEL "}}", "cache");
  OPT_CHECK(c2 > 2);
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"drop\",\"args\":{\"handle\":%lld}}", (long long)c2);
  OPT_CHECK(ok_int(s, rq, NULL) == 0);
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"mesh.save\",\"args\":{\"mesh\":%lld}}", (long long)(c2 + 1));
  char v[32];
  snprintf(v, sizeof v, "%lld", (long long)(c2 + 1));
  OPT_CHECK(err_is(s, rq, "argument", "mesh", v));
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"drop\",\"args\":{\"handle\":%lld}}", (long long)(c2 + 1));
  OPT_CHECK(err_is(s, rq, "argument", "handle", v));
  /* the tile copies are the session's own: they outlive their cache */
  snprintf(rq, sizeof rq, "{\"id\":1,\"op\":\"tile.save\",\"args\":{\"tile\":%lld}}", (long long)t1);
  OPT_CHECK(ok_int(s, rq, NULL) == 0);
  opd_session_free(s); /* cache 1 freed once; the borrowed meshes not at all (ASan) */
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
OPT_RUN(field_and_value_cut);
OPT_RUN(several_problems_first_reported);
OPT_RUN(session_survives_errors);
OPT_RUN(answer_ids);
OPT_RUN(json_values);
OPT_RUN(failed_requests_change_nothing);
OPT_RUN(handle_limit);
OPT_RUN(handle_limit_failed_request_gives_back);
OPT_RUN(session_op_table);
OPT_RUN(tilecache_cache_argument);
OPT_RUN(tilecache_build_arguments);
OPT_RUN(tilecache_decoding);
OPT_RUN(tilecache_borrowed_mesh);
OPT_MAIN_END
