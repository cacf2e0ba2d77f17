/*
** test_opj.c -- the protocol's JSON reader and writer (spec/conformance.md CONF-02x, CONF-03x).
** Expected texts are written by hand from the clauses (RFC 8259 + the value conventions).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opj.h"
#include "optest.h"

static opj_doc *P(const char *s) { return opj_parse(s, strlen(s), NULL, 0); }

static int rejects(const char *s) {
  opj_doc *d = P(s);
  opj_free(d);
  return d == NULL;
}

/* Writes one double and compares the text. */
static int wd(double v, const char *want) {
  opj_w w;
  opj_w_init(&w);
  opj_w_double(&w, v);
  int ok = w.buf && strcmp(w.buf, want) == 0;
  if (!ok) fprintf(stderr, "  wrote %s, want %s\n", w.buf ? w.buf : "(null)", want);
  opj_w_free(&w);
  return ok;
}

OPT_TEST(strict_grammar, "CONF-022") {
  OPT_CHECK(rejects(""));
  OPT_CHECK(rejects("{"));
  OPT_CHECK(rejects("[1,]"));
  OPT_CHECK(rejects("{\"a\":1,}"));
  OPT_CHECK(rejects("01"));
  OPT_CHECK(rejects("1."));
  OPT_CHECK(rejects(".5"));
  OPT_CHECK(rejects("+1"));
  OPT_CHECK(rejects("1e"));
  OPT_CHECK(rejects("NaN"));
  OPT_CHECK(rejects("Infinity"));
  OPT_CHECK(rejects("1e400")); /* overflows binary64 */
  OPT_CHECK(rejects("'a'"));
  OPT_CHECK(rejects("\"a\tb\"")); /* raw control character */
  OPT_CHECK(rejects("\"\\x\""));
  OPT_CHECK(rejects("\"\\ud800\""));  /* lone high surrogate */
  OPT_CHECK(rejects("\"\\udc00\""));  /* lone low surrogate */
  OPT_CHECK(rejects("\"\xc0\xaf\""));  /* overlong UTF-8 */
  OPT_CHECK(rejects("\"\xed\xa0\x80\"")); /* UTF-8 encoded surrogate */
  OPT_CHECK(rejects("{\"a\":1,\"a\":2}")); /* duplicate key */
  OPT_CHECK(rejects("1 2"));
  OPT_CHECK(rejects("tru"));
  OPT_CHECK(!rejects(" {\"a\" : [1, -0, 2.5e-3, true, false, null, \"x\"]} "));
}

OPT_TEST(string_escapes, "CONF-022") {
  opj_doc *d = P("\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\xc3\xa9\"");
  OPT_CHECK(d != NULL);
  if (d) {
    const opj *v = opj_root(d);
    const char *want = "a\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80\xc3\xa9";
    OPT_CHECK(v->type == OPJ_STR && v->len == strlen(want) && strcmp(v->str, want) == 0);
  }
  opj_free(d);
}

OPT_TEST(limits, "CONF-023") {
  char deep[200];
  int n = OPJ_MAX_DEPTH + 1;
  for (int i = 0; i < n; i++) deep[i] = '[';
  for (int i = 0; i < n; i++) deep[n + i] = ']';
  deep[2 * n] = 0;
  int lim = 0;
  size_t off = 0;
  opj_doc *d = opj_parse_ex(deep, strlen(deep), NULL, 0, &off, &lim);
  OPT_CHECK(d == NULL && lim == 1);
  deep[n - 1] = ' ';
  deep[n] = ' '; /* now depth is exactly the limit */
  d = opj_parse_ex(deep, strlen(deep), NULL, 0, &off, &lim);
  OPT_CHECK(d != NULL);
  opj_free(d);
  d = opj_parse_ex("[1,}", 4, NULL, 0, &off, &lim);
  OPT_CHECK(d == NULL && lim == 0 && off == 3);
}

OPT_TEST(doubles_read, "CONF-031") {
  opj_doc *d = P("[0.1, -0, 5e-324, 1.7976931348623157e308, \"NaN\", \"Infinity\", \"-Infinity\", "
                 "\"nan\", 2.2250738585072011e-308]");
  OPT_CHECK(d != NULL);
  if (!d) return;
  const opj *a = opj_root(d);
  double x;
  OPT_CHECK(opj_double(opj_at(a, 0), &x) == 0 && x == 0.1);
  OPT_CHECK(opj_double(opj_at(a, 1), &x) == 0 && x == 0 && signbit(x));
  OPT_CHECK(opj_double(opj_at(a, 2), &x) == 0 && x == 0x1p-1074);
  OPT_CHECK(opj_double(opj_at(a, 3), &x) == 0 && x == 0x1.fffffffffffffp+1023);
  OPT_CHECK(opj_double(opj_at(a, 4), &x) == 0 && isnan(x));
  OPT_CHECK(opj_double(opj_at(a, 5), &x) == 0 && isinf(x) && x > 0);
  OPT_CHECK(opj_double(opj_at(a, 6), &x) == 0 && isinf(x) && x < 0);
  OPT_CHECK(opj_double(opj_at(a, 7), &x) == -1); /* only the three exact spellings */
  /* 2.2250738585072011e-308 lies just below DBL_MIN: correctly rounded it is the largest
  ** subnormal 0x0.fffffffffffffp-1022. */
  OPT_CHECK(opj_double(opj_at(a, 8), &x) == 0 && x == 0x0.fffffffffffffp-1022);
  OPT_CHECK(opj_double(opj_at(a, 9), &x) == -1);
  opj_free(d);
}

OPT_TEST(doubles_write, "CONF-030") {
  OPT_CHECK(wd(0.1, "0.1"));
  OPT_CHECK(wd(1.0, "1"));
  OPT_CHECK(wd(-0.0, "-0"));
  OPT_CHECK(wd(0.0, "0"));
  OPT_CHECK(wd(1.0 / 3.0, "0.3333333333333333"));  /* 16 digits suffice */
  OPT_CHECK(wd(0.1 + 0.2, "0.30000000000000004")); /* needs 17 */
  OPT_CHECK(wd(0x1p-1074, "5e-324")); /* 5e-324 lies within half an ulp of 2^-1074 */
  OPT_CHECK(wd(1e21, "1e+21"));
  OPT_CHECK(wd(123456.0, "123456"));
  OPT_CHECK(wd(NAN, "\"NaN\""));
  OPT_CHECK(wd(INFINITY, "\"Infinity\""));
  OPT_CHECK(wd(-INFINITY, "\"-Infinity\""));
}

OPT_TEST(integers, "CONF-032") {
  opj_doc *d = P("[9007199254740993, -9223372036854775808, 3.0, 3.5, 1e2, 9223372036854775808, \"1\"]");
  OPT_CHECK(d != NULL);
  if (!d) return;
  const opj *a = opj_root(d);
  int64_t v;
  OPT_CHECK(opj_int(opj_at(a, 0), INT64_MIN, INT64_MAX, &v) == 0 && v == 9007199254740993LL);
  OPT_CHECK(opj_int(opj_at(a, 1), INT64_MIN, INT64_MAX, &v) == 0 && v == INT64_MIN);
  OPT_CHECK(opj_int(opj_at(a, 2), 0, 10, &v) == 0 && v == 3);
  OPT_CHECK(opj_int(opj_at(a, 3), 0, 10, &v) == -1);
  OPT_CHECK(opj_int(opj_at(a, 4), 0, 1000, &v) == 0 && v == 100);
  OPT_CHECK(opj_int(opj_at(a, 4), 0, 99, &v) == -1); /* out of [lo, hi] */
  OPT_CHECK(opj_int(opj_at(a, 5), INT64_MIN, INT64_MAX, &v) == -1);
  OPT_CHECK(opj_int(opj_at(a, 6), 0, 10, &v) == -1);
  opj_free(d);
}

OPT_TEST(u64_and_bytes, "CONF-033") {
  opj_doc *d = P("[\"0123456789abcdef\", \"0123456789ABCDEF\", \"123\", \"00ff10\", \"0f0\", \"zz\", \"\"]");
  OPT_CHECK(d != NULL);
  if (!d) return;
  const opj *a = opj_root(d);
  uint64_t u;
  OPT_CHECK(opj_u64hex(opj_at(a, 0), &u) == 0 && u == 0x0123456789abcdefULL);
  OPT_CHECK(opj_u64hex(opj_at(a, 1), &u) == -1); /* upper case is not the form */
  OPT_CHECK(opj_u64hex(opj_at(a, 2), &u) == -1);
  uint8_t *b = NULL;
  size_t n = 0;
  OPT_CHECK(opj_hexbytes(opj_at(a, 3), &b, &n) == 0 && n == 3 && b[0] == 0 && b[1] == 0xff &&
            b[2] == 0x10);
  free(b);
  b = NULL;
  OPT_CHECK(opj_hexbytes(opj_at(a, 4), &b, &n) == -1);
  OPT_CHECK(opj_hexbytes(opj_at(a, 5), &b, &n) == -1);
  OPT_CHECK(opj_hexbytes(opj_at(a, 6), &b, &n) == 0 && n == 0);
  free(b);
  opj_free(d);
}

OPT_TEST(writer_shapes, "CONF-025") {
  opj_w w;
  opj_w_init(&w);
  opj_w_obj_begin(&w);
  opj_w_key(&w, "a");
  opj_w_arr_begin(&w);
  opj_w_int(&w, -5);
  opj_w_null(&w);
  opj_w_bool(&w, 1);
  opj_w_obj_begin(&w);
  opj_w_obj_end(&w);
  opj_w_arr_end(&w);
  opj_w_key(&w, "s\"");
  opj_w_str(&w, "q\"\\\n\x01\xc3\xa9");
  opj_w_key(&w, "u");
  opj_w_u64hex(&w, 0xabcULL);
  opj_w_key(&w, "b");
  static const uint8_t bytes[] = {0x00, 0x7f, 0xff};
  opj_w_hexbytes(&w, bytes, 3);
  opj_w_obj_end(&w);
  const char *want = "{\"a\":[-5,null,true,{}],\"s\\\"\":\"q\\\"\\\\\\n\\u0001\xc3\xa9\","
                     "\"u\":\"0000000000000abc\",\"b\":\"007fff\"}";
  OPT_CHECK(!w.oom && strcmp(w.buf, want) == 0);
  /* and it reads back */
  opj_doc *d = opj_parse(w.buf, w.len, NULL, 0);
  OPT_CHECK(d != NULL);
  if (d) {
    const opj *s = opj_get(opj_root(d), "s\"");
    OPT_CHECK(s && strcmp(s->str, "q\"\\\n\x01\xc3\xa9") == 0);
  }
  opj_free(d);
  opj_w_free(&w);
}

OPT_TEST(double_roundtrip_random, "CONF-030") {
  /* Independent check: every written double reads back bit-identically (xorshift bits). */
  uint64_t x = 0x9e3779b97f4a7c15ULL;
  int bad = 0;
  for (int i = 0; i < 20000; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    double v;
    memcpy(&v, &x, sizeof v);
    if (isnan(v) || isinf(v)) continue;
    opj_w w;
    opj_w_init(&w);
    opj_w_double(&w, v);
    opj_doc *d = opj_parse(w.buf, w.len, NULL, 0);
    double r = 0;
    if (!d || opj_double(opj_root(d), &r) || memcmp(&r, &v, sizeof r) != 0) bad++;
    opj_free(d);
    opj_w_free(&w);
  }
  OPT_CHECK(bad == 0);
}

/* ---- costs in proportion to the input (counted, never timed) */

/* A growing text buffer for the generated inputs. */
typedef struct tbuf {
  char *p;
  size_t n, cap;
} tbuf;

static void tb_add(tbuf *b, const char *s) {
  size_t k = strlen(s);
  if (b->n + k + 1 > b->cap) {
    size_t nc = b->cap ? b->cap : 4096;
    while (nc < b->n + k + 1) nc *= 2;
    char *np = realloc(b->p, nc);
    if (!np) abort();
    b->p = np;
    b->cap = nc;
  }
  memcpy(b->p + b->n, s, k + 1);
  b->n += k;
}

/* {"k0":0,"k1":0,...} with n members, then extra (or "") before the closing brace. */
static tbuf object_text(size_t n, const char *extra) {
  tbuf b = {NULL, 0, 0};
  char m[40];
  tb_add(&b, "{");
  for (size_t i = 0; i < n; i++) {
    snprintf(m, sizeof m, "%s\"k%zu\":0", i ? "," : "", i);
    tb_add(&b, m);
  }
  tb_add(&b, extra);
  tb_add(&b, "}");
  return b;
}

static opj_doc *PS(const tbuf *b, char *err, size_t errlen, size_t *off, int *lim, opj_stats *st) {
  return opj_parse_stats(b->p, b->n, err, errlen, off, lim, st);
}

OPT_TEST(duplicate_keys_linear, "CONF-022") {
  char err[200];
  size_t off;
  int lim;
  opj_stats st;
  /* the first repeated name in text order is reported, at the byte after it */
  const char *t = "{\"a\":1,\"b\":2,\"a\":3}";
  OPT_CHECK(opj_parse_stats(t, strlen(t), err, sizeof err, &off, &lim, &st) == NULL);
  OPT_CHECK(off == 16 && !lim && strstr(err, "duplicate key \"a\"") && strstr(err, "at byte 16"));
  /* 80,000 distinct names: the check compares names only when their hashes agree; the
  ** quadratic check of before made 3.2 billion comparisons (10.6 s) */
  tbuf b = object_text(80000, "");
  opj_doc *d = PS(&b, err, sizeof err, &off, &lim, &st);
  OPT_CHECK(d != NULL && opj_root(d)->n == 80000);
  OPT_CHECK(st.key_compares <= 80000);
  if (st.key_compares > 80000) fprintf(stderr, "  %zu key comparisons\n", st.key_compares);
  const opj *v = opj_get(opj_root(d), "k79999");
  OPT_CHECK(v && v->type == OPJ_NUM);
  opj_free(d);
  free(b.p);
  /* repeats near the end: the first in text order is the one reported, at the byte
  ** after it, whatever the set's order */
  b = object_text(80000, ",\"k79990\":1,\"k5\":1,\"k7\":1");
  size_t want = b.n - strlen(":1,\"k5\":1,\"k7\":1}");
  OPT_CHECK(PS(&b, err, sizeof err, &off, &lim, &st) == NULL);
  OPT_CHECK(off == want && !lim && strstr(err, "duplicate key \"k79990\""));
  OPT_CHECK(st.key_compares <= 80002);
  free(b.p);
  b = object_text(80000, ",\"k5\":1,\"k79990\":1");
  want = b.n - strlen(":1,\"k79990\":1}");
  OPT_CHECK(PS(&b, err, sizeof err, &off, &lim, &st) == NULL);
  OPT_CHECK(off == want && strstr(err, "duplicate key \"k5\""));
  free(b.p);
  /* names decoded before comparing: "\u0061" repeats "a"; nested objects keep their own */
  OPT_CHECK(rejects("{\"a\":1,\"\\u0061\":2}"));
  OPT_CHECK(!rejects("{\"a\":{\"a\":{\"a\":1}},\"b\":{\"a\":2}}"));
  b = object_text(20, ",\"x\":{\"k3\":1,\"k19\":2}");
  d = PS(&b, err, sizeof err, &off, &lim, &st);
  OPT_CHECK(d != NULL && opj_get(opj_get(opj_root(d), "x"), "k19"));
  opj_free(d);
  free(b.p);
}

/* [0,0,...] with n zeros */
static tbuf zeros_text(size_t n) {
  tbuf b = {NULL, 0, 0};
  tb_add(&b, "[");
  for (size_t i = 0; i < n; i++) tb_add(&b, i ? ",0" : "0");
  tb_add(&b, "]");
  return b;
}

OPT_TEST(values_limit_and_memory, "CONF-037") {
  char err[200];
  size_t off;
  int lim;
  opj_stats st;
  /* OPJ_MAX_VALUES values (the array and 2^21 - 1 numbers) are read ... */
  tbuf b = zeros_text(OPJ_MAX_VALUES - 1);
  opj_doc *d = PS(&b, err, sizeof err, &off, &lim, &st);
  OPT_CHECK(d != NULL && st.values == OPJ_MAX_VALUES);
  /* ... holding at most OPJ_VALUE_BYTES a value beside the text; a number in a list 88
  ** (node 56, its text 8, its item 8, work stack at most 16; it was about 104) */
  OPT_CHECK(st.bytes_peak <= (size_t)OPJ_VALUE_BYTES * st.values + b.n + 65536 + 256);
  OPT_CHECK(st.bytes_peak <= (size_t)88 * st.values + 65536 + 256);
  fprintf(stderr, "  numbers: %zu bytes held for %zu values (%.1f a value)\n", st.bytes_peak,
          st.values, (double)st.bytes_peak / (double)st.values);
  opj_free(d);
  free(b.p);
  /* one more is a limit error at the byte where the extra value begins */
  b = zeros_text(OPJ_MAX_VALUES);
  OPT_CHECK(PS(&b, err, sizeof err, &off, &lim, &st) == NULL);
  OPT_CHECK(lim && off == b.n - 2 && st.values == OPJ_MAX_VALUES);
  free(b.p);
  /* whatever follows it: a bad byte after the extra value's first byte is not reached */
  b = zeros_text(OPJ_MAX_VALUES - 1);
  b.p[b.n - 1] = ',';
  tb_add(&b, "tx]");
  OPT_CHECK(PS(&b, err, sizeof err, &off, &lim, &st) == NULL && lim && off == b.n - 3);
  /* a syntax error before the limit is an argument error */
  b.p[b.n - 3] = 'x';
  OPT_CHECK(PS(&b, err, sizeof err, &off, &lim, &st) == NULL && !lim && off == b.n - 3);
  free(b.p);
  /* a text 8 times longer costs no more: the memory stops growing at the limit (the 63 MB
  ** array of the issue held 3.3 GB before being rejected) */
  b = zeros_text(8 * (size_t)OPJ_MAX_VALUES);
  OPT_CHECK(PS(&b, err, sizeof err, &off, &lim, &st) == NULL && lim);
  OPT_CHECK(st.bytes_peak <= (size_t)OPJ_VALUE_BYTES * OPJ_MAX_VALUES + 65536 + 256);
  free(b.p);
  /* objects: names and their set, strings, nested containers stay in the bound too */
  b = object_text(OPJ_MAX_VALUES - 1, "");
  d = PS(&b, err, sizeof err, &off, &lim, &st);
  OPT_CHECK(d != NULL && st.values == OPJ_MAX_VALUES);
  OPT_CHECK(st.bytes_peak <= (size_t)OPJ_VALUE_BYTES * st.values + b.n + 65536 + 256);
  fprintf(stderr, "  members: %zu bytes held for %zu values (%.1f a value), text %zu\n",
          st.bytes_peak, st.values, (double)st.bytes_peak / (double)st.values, b.n);
  opj_free(d);
  free(b.p);
  b = (tbuf){NULL, 0, 0};
  tb_add(&b, "[");
  for (size_t i = 0; i < OPJ_MAX_VALUES / 2 - 1; i++) tb_add(&b, i ? ",[\"\"]" : "[\"\"]");
  tb_add(&b, "]");
  d = PS(&b, err, sizeof err, &off, &lim, &st);
  OPT_CHECK(d != NULL && st.values == OPJ_MAX_VALUES - 1);
  OPT_CHECK(st.bytes_peak <= (size_t)OPJ_VALUE_BYTES * st.values + b.n + 65536 + 256);
  OPT_CHECK(st.bytes_peak <= (size_t)88 * st.values + b.n + 65536 + 256);
  fprintf(stderr, "  nested: %zu bytes held for %zu values (%.1f a value)\n", st.bytes_peak,
          st.values, (double)st.bytes_peak / (double)st.values);
  opj_free(d);
  free(b.p);
}

OPT_MAIN_BEGIN
OPT_RUN(strict_grammar);
OPT_RUN(string_escapes);
OPT_RUN(limits);
OPT_RUN(doubles_read);
OPT_RUN(doubles_write);
OPT_RUN(integers);
OPT_RUN(u64_and_bytes);
OPT_RUN(writer_shapes);
OPT_RUN(double_roundtrip_random);
OPT_RUN(duplicate_keys_linear);
OPT_RUN(values_limit_and_memory);
OPT_MAIN_END
