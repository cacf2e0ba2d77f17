/*
** selftest.c -- `op-conform selftest`: checks of the runner's own comparison rules, so a
** runner bug cannot make a broken port pass. Each check names the clause it proves; the
** expected outcomes are written from the clauses (CONF-071, CONF-073, CONF-081, CONF-082).
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "conform.h"

typedef struct st {
  int failed, checks;
} st;

static void check(st *s, int cond, const char *clause, const char *what) {
  s->checks++;
  if (!cond) {
    s->failed++;
    printf("FAIL [%s] %s\n", clause, what);
  }
}

/* 1 when the answer text matches the expectation text under CONF-082. */
static int matches(const char *expect, const char *answer) {
  opj_doc *e = opj_parse(expect, strlen(expect), NULL, 0);
  opj_doc *a = opj_parse(answer, strlen(answer), NULL, 0);
  if (!e || !a) {
    opj_free(e);
    opj_free(a);
    return -1;
  }
  char *m = answer_mismatch(opj_root(e), opj_root(a));
  opj_free(e);
  opj_free(a);
  free(m);
  return m == NULL;
}

static void answers(st *s) {
  check(s, matches("{\"ok\":null}", "{\"id\":1,\"ok\":{\"x\":1}}") == 1, "CONF-082", "ok:null accepts any ok");
  check(s, matches("{\"ok\":null}", "{\"id\":1,\"error\":{\"kind\":\"argument\",\"field\":\"a\",\"value\":\"\",\"message\":\"m\"}}") == 0,
        "CONF-082", "ok:null rejects an error");
  check(s, matches("{\"ok\":{\"x\":0}}", "{\"id\":1,\"ok\":{\"x\":-0}}") == 0, "CONF-082", "-0 differs from 0");
  check(s, matches("{\"ok\":{\"x\":0.5}}", "{\"id\":1,\"ok\":{\"x\":5e-1}}") == 1, "CONF-082", "numbers compare by value");
  check(s, matches("{\"ok\":{\"x\":9007199254740993}}", "{\"id\":1,\"ok\":{\"x\":9007199254740992}}") == 0,
        "CONF-082", "integers compare exactly beyond 2^53");
  check(s, matches("{\"ok\":{\"x\":1}}", "{\"id\":1,\"ok\":{\"x\":1,\"y\":2}}") == 0, "CONF-082", "an extra member differs");
  check(s, matches("{\"ok\":{\"x\":[1,2]}}", "{\"id\":1,\"ok\":{\"x\":[1]}}") == 0, "CONF-082", "list lengths must agree");
  check(s, matches("{\"ok\":{\"x\":\"NaN\"}}", "{\"id\":1,\"ok\":{\"x\":\"NaN\"}}") == 1, "CONF-082", "NaN strings are equal");
  check(s, matches("{\"error\":{\"kind\":\"argument\",\"field\":\"op\"}}",
                   "{\"id\":1,\"error\":{\"kind\":\"argument\",\"field\":\"op\",\"value\":\"x\",\"message\":\"anything\"}}") == 1,
        "CONF-082", "error: value not compared when not expected, message never");
  check(s, matches("{\"error\":{\"kind\":\"argument\",\"field\":\"op\",\"value\":\"y\"}}",
                   "{\"id\":1,\"error\":{\"kind\":\"argument\",\"field\":\"op\",\"value\":\"x\",\"message\":\"m\"}}") == 0,
        "CONF-082", "error: an expected value is compared");
  check(s, matches("{\"error\":{\"kind\":\"out_of_range\",\"field\":\"a\"}}",
                   "{\"id\":1,\"error\":{\"kind\":\"argument\",\"field\":\"a\",\"value\":\"\",\"message\":\"m\"}}") == 0,
        "CONF-082", "error: the kind is compared");
  /* $bytes stub: 33 bytes 00..20 hashed independently here with XXH3_64bits */
  uint8_t b[33];
  char hex[67], exp[200], ans[200];
  for (int i = 0; i < 33; i++) {
    b[i] = (uint8_t)i;
    sprintf(hex + 2 * i, "%02x", i);
  }
  snprintf(exp, sizeof exp, "{\"ok\":{\"bytes\":{\"$bytes\":33,\"$xxh3\":\"%016llx\"}}}",
           (unsigned long long)XXH3_64bits(b, 33));
  snprintf(ans, sizeof ans, "{\"id\":1,\"ok\":{\"bytes\":\"%s\"}}", hex);
  check(s, matches(exp, ans) == 1, "CONF-081", "a $bytes stub matches its bytes");
  ans[strlen(ans) - 4] = 'f'; /* change the last hex digit */
  check(s, matches(exp, ans) == 0, "CONF-081", "a $bytes stub rejects other bytes");

  /* expect_of_answer replaces only long lower-case hex strings (> 64 digits) */
  snprintf(ans, sizeof ans, "{\"id\":1,\"ok\":{\"bytes\":\"%s\",\"short\":\"00ff\",\"n\":-0}}", hex);
  opj_doc *a = opj_parse(ans, strlen(ans), NULL, 0);
  opj_w w;
  opj_w_init(&w);
  expect_of_answer(&w, opj_root(a), 0);
  snprintf(exp, sizeof exp, "{\"ok\":{\"bytes\":{\"$bytes\":33,\"$xxh3\":\"%016llx\"},\"short\":\"00ff\",\"n\":-0}}",
           (unsigned long long)XXH3_64bits(b, 33));
  check(s, w.buf && strcmp(w.buf, exp) == 0, "CONF-081", "expectation of an ok answer");
  opj_w_free(&w);
  opj_free(a);

  /* CONF-086: the expectation of an error answer is the reference's whole error (kind, field,
  ** value; no message), so a trace compares the value as run --port does (CONF-090). */
  const char *ref_err = "{\"id\":3,\"error\":{\"kind\":\"argument\",\"field\":\"c[0]\","
                        "\"value\":\"9007199254740993\",\"message\":\"m\"}}";
  a = opj_parse(ref_err, strlen(ref_err), NULL, 0);
  opj_w_init(&w);
  expect_of_answer(&w, opj_root(a), 0);
  check(s, w.buf && strcmp(w.buf, "{\"error\":{\"kind\":\"argument\",\"field\":\"c[0]\","
                                  "\"value\":\"9007199254740993\"}}") == 0,
        "CONF-086", "expectation of an error answer holds kind, field and value");
  check(s, w.buf && matches(w.buf, "{\"id\":3,\"error\":{\"kind\":\"argument\",\"field\":\"c[0]\","
                                   "\"value\":\"9007199254740992\",\"message\":\"m\"}}") == 0,
        "CONF-086", "a trace rejects an error whose value differs from the reference's");
  check(s, w.buf && matches(w.buf, "{\"id\":3,\"error\":{\"kind\":\"argument\",\"field\":\"c[0]\","
                                   "\"value\":\"9007199254740993\",\"message\":\"other\"}}") == 1,
        "CONF-086", "a trace accepts the same error with another message");
  /* CONF-015: the message is informative: any wording, in any language (valid UTF-8),
  ** matches the reference's error of the same kind, field and value. */
  check(s, w.buf && matches(w.buf, "{\"id\":3,\"error\":{\"kind\":\"argument\",\"field\":\"c[0]\","
                                   "\"value\":\"9007199254740993\",\"message\":\"Koordinate \u00fcberschreitet 2^53 "
                                   "\xe2\x80\x94 \xe5\x9d\x90\xe6\xa0\x87\"}}") == 1,
        "CONF-015", "a message in another language is not compared");
  check(s, w.buf && matches(w.buf, "{\"id\":3,\"error\":{\"kind\":\"argument\",\"field\":\"c[0]\","
                                   "\"value\":\"9007199254740993\",\"message\":\"\"}}") == 1,
        "CONF-015", "an empty message is not compared");
  opj_w_free(&w);
  opj_free(a);
}

static void goldens(st *s) {
  opc_part parts[2] = {{"header", 0, 4, 0x1111111111111111ULL}, {"tile 0,0,0", 4, 8, 0x22ULL}};
  golden_cp cp[2];
  memset(cp, 0, sizeof cp);
  snprintf(cp[0].name, sizeof cp[0].name, "seed 0000000000000001");
  snprintf(cp[0].kind, sizeof cp[0].kind, "table");
  cp[0].len = 40;
  cp[0].hash = 0xabcdef0123456789ULL;
  snprintf(cp[1].name, sizeof cp[1].name, "after-add");
  snprintf(cp[1].kind, sizeof cp[1].kind, "mesh");
  cp[1].len = 12;
  cp[1].hash = 0x33ULL;
  cp[1].nparts = 2;
  cp[1].parts = parts;
  golden g = {2, cp};
  char *text = golden_text("group/name", &g);
  const char *want_tail = "scenario group/name\n"
                          "checkpoint table 40 abcdef0123456789 seed 0000000000000001\n"
                          "checkpoint mesh 12 0000000000000033 after-add\n"
                          "  part 4 1111111111111111 header\n"
                          "  part 8 0000000000000022 tile 0,0,0\n";
  check(s, text && strlen(text) > strlen(want_tail) &&
               strcmp(text + strlen(text) - strlen(want_tail), want_tail) == 0 && text[0] == '#',
        "CONF-071", "golden text layout");
  char path[] = "/tmp/op-conform-selftest-XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (f) {
    fputs(text ? text : "", f);
    fclose(f);
  }
  golden back;
  char msg[600] = "";
  int rc = golden_load(path, &back, msg, sizeof msg);
  check(s, rc == 1 && back.n == 2 && back.cps[1].nparts == 2 &&
               strcmp(back.cps[0].name, "seed 0000000000000001") == 0 &&
               strcmp(back.cps[1].parts[1].name, "tile 0,0,0") == 0,
        "CONF-071", "golden file reads back (names with spaces)");
  msg[0] = '\0';
  check(s, rc == 1 && golden_compare(&back, &g, msg, sizeof msg) == 2 && msg[0] == '\0', "CONF-073",
        "equal checkpoints match");
  parts[1].hash = 0x23ULL;
  cp[1].hash = 0x34ULL;
  msg[0] = '\0';
  check(s, rc == 1 && golden_compare(&back, &g, msg, sizeof msg) == 1 && strstr(msg, "after-add") &&
               strstr(msg, "tile 0,0,0"),
        "CONF-073", "a differing checkpoint is named with its first differing part");
  g.n = 1;
  msg[0] = '\0';
  check(s, rc == 1 && strstr((golden_compare(&back, &g, msg, sizeof msg), msg), "1 checkpoints"),
        "CONF-073", "a missing checkpoint is a mismatch");
  if (rc == 1) golden_free(&back);
  remove(path);
  free(text);
  check(s, golden_load("/nonexistent/x.golden", &back, msg, sizeof msg) == 0, "CONF-070",
        "a missing golden file is reported as missing");
}

static void differences(st *s) {
  uint8_t a[16] = {0}, b[16] = {0};
  b[9] = 1;
  char out[300];
  opc_first_difference("table", a, 16, b, 16, out, sizeof out);
  check(s, strstr(out, "byte 9") != NULL, "CONF-073", "first differing byte of a table");
  opc_art art;
  char msg[100];
  check(s, opc_artifact("table", a, 16, &art, msg, sizeof msg) == 0 && art.len == 16 &&
               art.hash == XXH3_64bits(a, 16) && art.nparts == 0,
        "CONF-060", "a table checkpoint is XXH3-64 seed 0 of its bytes, no parts");
  opc_art_free(&art);
  check(s, opc_artifact("blob", a, 16, &art, msg, sizeof msg) == -1, "CONF-061", "unknown kinds are refused");
}

int selftest_main(void) {
  st s = {0, 0};
  answers(&s);
  goldens(&s);
  differences(&s);
  printf("selftest: %d checks, %d failed\n", s.checks, s.failed);
  printf("%d passed, %d failed\n", s.checks - s.failed, s.failed);
  return s.failed ? 1 : 0;
}
