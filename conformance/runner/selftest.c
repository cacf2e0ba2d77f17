/*
** selftest.c -- `op-conform selftest`: checks of the runner's own comparison rules, so a
** runner bug cannot make a broken port pass. Each check names the clause it proves; the
** expected outcomes are written from the clauses (CONF-071, CONF-073, CONF-081, CONF-082);
** the field-level differences (CONF-200 .. CONF-203) on real artifacts of the in-process
** reference, each corrupted in one byte whose field is derived from the spec's layout table.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "conform.h"
#include "walk.h"
#include <stdint.h>

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


/* ------------------------------------------------------------ field-level differences */

/* One request to the in-process reference; the answer's "ok" member's `key` (a hex string)
** as bytes, or its integer `key` in *num. 0, or -1. */
typedef struct ref_session {
  transport *t;
  int id;
} ref_session;

static opj_doc *ask(ref_session *r, const char *op, const char *args) {
  size_t cap = strlen(args) + strlen(op) + 64;
  char *req = malloc(cap);
  if (!req) return NULL;
  int n = snprintf(req, cap, "{\"id\":%d,\"op\":\"%s\",\"args\":%s}", ++r->id, op, args);
  const char *ans;
  size_t alen;
  char msg[200];
  int bad = !r->t || tr_exchange(r->t, req, (size_t)n, &ans, &alen, msg, sizeof msg);
  free(req);
  if (bad) return NULL;
  opj_doc *d = opj_parse(ans, alen, NULL, 0);
  if (d && !opj_get(opj_root(d), "ok")) {
    printf("       %s: %.*s\n", op, (int)(alen < 300 ? alen : 300), ans);
    opj_free(d);
    return NULL;
  }
  return d;
}

static int ask_bytes(ref_session *r, const char *op, const char *args, uint8_t **b, size_t *n) {
  opj_doc *d = ask(r, op, args);
  int rc = d ? opj_hexbytes(opj_get(opj_get(opj_root(d), "ok"), "bytes"), b, n) : -1;
  opj_free(d);
  return rc;
}

static int64_t ask_int(ref_session *r, const char *op, const char *args, const char *key) {
  opj_doc *d = ask(r, op, args);
  int64_t v = -1;
  if (!d || opj_int(opj_get(opj_get(opj_root(d), "ok"), key), 0, INT32_MAX, &v)) v = -1;
  opj_free(d);
  return v;
}

static uint32_t le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Flips bit `bit` of byte `off` in a copy of the artifact and checks that the difference
** names `want` (a substring of the sentence, field and byte offset). */
static void corrupt_one(st *s, const char *clause, const char *kind, const char *layout,
                        const uint8_t *b, size_t n, size_t off, int bit, const char *want) {
  char what[400], out[1200] = "";
  snprintf(what, sizeof what, "%s: one changed byte is named \"%s\"", layout ? layout : kind, want);
  if (!b || off >= n) {
    check(s, 0, clause, what);
    return;
  }
  /* the walker covers the reference's artifact exactly, to its last byte */
  const char *l = opc_layout_of(kind, layout, b, n);
  char whole[200];
  snprintf(whole, sizeof whole, "%s: the reference's artifact is walked to its end", l ? l : kind);
  check(s, l && opw_walk(l, b, n, NULL, NULL) == 0, "CONF-200", whole);
  uint8_t *c = malloc(n);
  if (!c) return;
  memcpy(c, b, n);
  c[off] ^= (uint8_t)(1u << bit);
  int rc = opc_difference(kind, layout, b, n, c, n, "reference", "port", out, sizeof out);
  check(s, rc == 1 && strstr(out, want) != NULL, clause, what);
  if (rc != 1 || !strstr(out, want)) printf("       got: %s\n", out);
  /* CONF-205: a picture of the two versions is drawn for every layout but spans-header */
  if (l && strcmp(l, "spans-header")) {
    char path[] = "/tmp/op-conform-selftest-svg-XXXXXX", msg[300], pic[300];
    int fd = mkstemp(path);
    if (fd >= 0) close(fd);
    int ok = fd >= 0 && opc_svg_write(path, "selftest", l, b, n, c, n, msg, sizeof msg) == 0;
    FILE *f = ok ? fopen(path, "r") : NULL;
    char head[64] = "";
    if (f) {
      ok = fgets(head, sizeof head, f) != NULL && strncmp(head, "<?xml", 5) == 0;
      fclose(f);
    }
    snprintf(pic, sizeof pic, "%s: a picture of the difference is written", l);
    check(s, ok, "CONF-205", pic);
    if (fd >= 0) remove(path);
  }
  /* the same artifact cut short inside that field: the port ends inside it */
  rc = opc_difference(kind, layout, b, n, c, off, "reference", "port", out, sizeof out);
  check(s, off == 0 || (rc == 1 && strstr(out, "ends inside")), clause, "a port artifact cut short ends inside a field");
  free(c);
}

#define LEVEL "{\"name\":\"city\",\"seed\":\"0000000000000007\",\"size\":2}"

/* CONF-201, CONF-203: for every artifact layout a real artifact of the reference, one byte
** changed at an offset computed here from the spec's layout table, and the field named. */
static void fields(st *s) {
  ref_session r = {tr_open_inproc(), 0};
  char buf[1024], want[200];
  uint8_t *b = NULL;
  size_t n = 0;

  /* LVL-010: verts[5].y is at 16 + 24 * 5 + 8 = 144 (a field is named by its first byte);
  ** its top byte (the sign) at + 7. */
  if (ask_bytes(&r, "level.generate", LEVEL, &b, &n)) b = NULL;
  corrupt_one(s, "CONF-203", "table", "soup", b, n, 16 + 24 * 5 + 8 + 7, 7,
              "first differing field verts[5].y (byte 144): port -");
  if (b) corrupt_one(s, "CONF-203", "table", "soup", b, n, 16 + 24 * le32(b + 8) + 12 * 3 + 4, 0,
                     "field tris[3][1]");
  free(b);

  /* SPAN-170: span 100's h is at 40 + width * depth + 8 * 100 + 2; its column is found
  ** by summing the counts. */
  if (ask_bytes(&r, "spans.build_tile", "{\"preset\":\"Humanoid\",\"level\":" LEVEL ",\"tile\":[1,0]}", &b, &n)) b = NULL;
  uint8_t *chf = b;
  size_t chf_n = n;
  if (b && n > 40) {
    uint32_t w = le32(b + 16), d = le32(b + 20);
    size_t c = 0, first = 0;
    while (c < (size_t)w * d && first + b[40 + c] <= 100) first += b[40 + c++];
    snprintf(want, sizeof want, "field column %zu (x %zu, z %zu) span %zu (spans[100]) field h (byte %zu)", c,
             c % w, c / w, (size_t)100 - first, (size_t)40 + (size_t)w * d + 800 + 2);
    corrupt_one(s, "CONF-203", "table", "chf", b, n, 40 + (size_t)w * d + 800 + 2, 0, want);
    corrupt_one(s, "CONF-203", "table", "chf", b, n, 28, 0, "field walkable_height (byte 28): port ");
    corrupt_one(s, "CONF-202", "table", NULL, b, n, 36, 1, "chf layout (by its magic): first differing field nspans");
  } else {
    check(s, 0, "CONF-203", "chf artifact");
  }

  /* REG-160: reg[7] at 28 + 2 * 7, dist[3] at 28 + 2 * nspans + 2 * 3. */
  if (chf) {
    opj_w w;
    opj_w_init(&w);
    opj_w_hexbytes(&w, chf, chf_n);
    char *args = malloc(w.len + 200);
    if (args) {
      snprintf(args, w.len + 200, "{\"chf\":%s,\"partition\":\"watershed\",\"border\":5,\"min_region_area\":8,"
               "\"merge_region_area\":20}", w.buf);
      uint8_t *g = NULL;
      size_t gn = 0;
      opj_doc *d = ask(&r, "regions.build", args);
      if (!d || opj_hexbytes(opj_get(opj_get(opj_root(d), "ok"), "bytes"), &g, &gn)) g = NULL;
      opj_free(d);
      corrupt_one(s, "CONF-203", "table", "regions", g, gn, 28 + 2 * 7, 0, "field reg[7] (byte 42)");
      if (g) {
        snprintf(want, sizeof want, "field dist[3] (byte %zu)", (size_t)28 + 2 * le32(g + 16) + 6);
        corrupt_one(s, "CONF-203", "table", "regions", g, gn, 28 + 2 * (size_t)le32(g + 16) + 6, 2, want);
      }
      free(g);
      free(args);
    }
    opj_w_free(&w);
  }
  free(chf);

  /* SPAN-171: header 20 bytes; record 0 at 20 (tx, tz, L, L bytes); record 1 after it. */
  if (ask_bytes(&r, "spans.build", "{\"preset\":\"Humanoid\",\"level\":" LEVEL "}", &b, &n)) b = NULL;
  if (b && n > 32) {
    size_t r1 = 20 + 12 + le32(b + 28);
    snprintf(want, sizeof want, "field tile (%ld,%ld): walkable_climb (byte %zu)", (long)(int32_t)le32(b + r1),
             (long)(int32_t)le32(b + r1 + 4), r1 + 12 + 32);
    corrupt_one(s, "CONF-203", "table", "spans", b, n, r1 + 12 + 32, 0, want);
    corrupt_one(s, "CONF-203", "table", "spans-header", b, 20, 12, 0, "field ntz (byte 12)");
    /* SPAN-172: the tile piece of record 1 alone: count[5] at 12 + 40 + 5 */
    size_t len1 = 12 + (size_t)le32(b + r1 + 8);
    snprintf(want, sizeof want, "field tile (%ld,%ld): count[5] (column x 5, z 0) (byte 57)",
             (long)(int32_t)le32(b + r1), (long)(int32_t)le32(b + r1 + 4));
    corrupt_one(s, "CONF-203", "table", "spans-tile", b + r1, len1, 12 + 40 + 5, 0, want);
    corrupt_one(s, "CONF-202", "table", NULL, b + r1, len1, 8, 0, "spans-tile layout (by its magic): first differing field tile");
  } else {
    check(s, 0, "CONF-203", "spans artifact");
  }
  free(b);

  /* REG-222: loop 0 is 24 + 20 * nraw + 4 * nsimp bytes from 44; loop 1's raw[2].flags is
  ** at its start + 24 + 20 * 2 + 15. */
  if (ask_bytes(&r, "contours.build_tile", "{\"preset\":\"Humanoid\",\"level\":" LEVEL ",\"tile\":[1,0]}", &b, &n)) b = NULL;
  if (b && n > 68 && le32(b + 24) >= 2) {
    size_t l1 = 44 + 24 + 20 * (size_t)le32(b + 44 + 8) + 4 * (size_t)le32(b + 44 + 12);
    snprintf(want, sizeof want, "field loop 1: raw[2].flags (byte %zu)", l1 + 24 + 40 + 15);
    corrupt_one(s, "CONF-203", "table", "contours", b, n, l1 + 24 + 40 + 15, 1, want);
    corrupt_one(s, "CONF-203", "table", "contours", b, n, 40, 0, "field unjoined (byte 40)");
  } else {
    check(s, 0, "CONF-203", "contours artifact with two loops");
  }
  free(b);

  /* POLY-090: polys[1].codes[2] at 16 + 12 * nverts + (4 * nvp + 5) + 2 * nvp + 4. */
  if (ask_bytes(&r, "polys.build_tile", "{\"preset\":\"Humanoid\",\"level\":" LEVEL ",\"tile\":[1,0]}", &b, &n)) b = NULL;
  if (b && n > 16 && le32(b + 12) >= 2) {
    size_t nvp = le32(b + 4), off = 16 + 12 * (size_t)le32(b + 8) + (4 * nvp + 5) + 2 * nvp + 4;
    snprintf(want, sizeof want, "field polys[1].codes[2] (byte %zu)", off);
    corrupt_one(s, "CONF-203", "table", "polys", b, n, off, 0, want);
  } else {
    check(s, 0, "CONF-203", "polygon mesh with two polygons");
  }
  free(b);

  /* FMT-041, FMT-042: a tile of the pipeline; polys[2].neis[1] after the vertices and two
  ** polygon records (4 + 4 * nverts bytes each). */
  opj_doc *soup = ask(&r, "build3d.soup", "{\"preset\":\"Humanoid\",\"level\":" LEVEL "}");
  int64_t mesh = -1, tile = -1;
  if (soup) {
    const opj *ok = opj_get(opj_root(soup), "ok");
    if (opj_int(opj_get(ok, "mesh"), 0, INT32_MAX, &mesh)) mesh = -1;
    if (opj_int(opj_get(opj_at(opj_get(ok, "tiles"), 1), "tile"), 0, INT32_MAX, &tile)) tile = -1;
  }
  opj_free(soup);
  snprintf(buf, sizeof buf, "{\"tile\":%lld}", (long long)tile);
  if (tile < 0 || ask_bytes(&r, "tile.save", buf, &b, &n)) b = NULL;
  if (b && n > 104 && le32(b + 80) >= 3) {
    size_t off = 104 + 12 * (size_t)le32(b + 76);
    for (int i = 0; i < 2; i++) off += 4 + 4 * (size_t)b[off];
    size_t at = off + 4 + 2 * (size_t)b[off] + 2;
    snprintf(want, sizeof want, "first differing field polys[2].neis[1] (byte %zu)", at);
    corrupt_one(s, "CONF-203", "tile", NULL, b, n, at, 0, want);
    snprintf(want, sizeof want, "first differing field content_id (byte %zu)", n - 8);
    corrupt_one(s, "CONF-203", "tile", NULL, b, n, n - 8, 0, want);
  } else {
    check(s, 0, "CONF-203", "a tile of three polygons");
  }
  free(b);

  /* MESH-040, MESH-041: record 1 starts after the 72-byte header and record 0 (24 +
  ** tile_length, edits 4 + 8 k, links 4 + 24 k); its tile's verts[0].x at + 24 + 104. */
  snprintf(buf, sizeof buf, "{\"mesh\":%lld}", (long long)mesh);
  if (mesh < 0 || ask_bytes(&r, "mesh.save", buf, &b, &n)) b = NULL;
  if (b && n > 96 && le32(b + 68) >= 2) {
    size_t r0 = 72, e0 = r0 + 24 + le32(b + r0 + 20), l0 = e0 + 4 + 8 * (size_t)le32(b + e0);
    size_t r1 = l0 + 4 + 24 * (size_t)le32(b + l0);
    snprintf(want, sizeof want, "first differing field tile %ld,%ld,%ld: tile.verts[0].x (byte %zu)",
             (long)(int32_t)le32(b + r1 + 8), (long)(int32_t)le32(b + r1 + 12),
             (long)(int32_t)le32(b + r1 + 16), r1 + 24 + 104);
    corrupt_one(s, "CONF-203", "mesh", NULL, b, n, r1 + 24 + 104, 0, want);
    if (le32(b + l0) > 0) {
      snprintf(want, sizeof want, "tile %ld,%ld,%ld: links[0].target (byte %zu)", (long)(int32_t)le32(b + r0 + 8),
               (long)(int32_t)le32(b + r0 + 12), (long)(int32_t)le32(b + r0 + 16), l0 + 4 + 8);
      corrupt_one(s, "CONF-203", "mesh", NULL, b, n, l0 + 4 + 8, 0, want);
    }
    corrupt_one(s, "CONF-203", "mesh", NULL, b, n, 56, 0, "field params.walkable_climb (byte 56)");
  } else {
    check(s, 0, "CONF-203", "a mesh of two tiles");
  }
  free(b);

  /* SNAP-002, SNAP-010: SLOT at 72 (16-byte header), nfree and the free records, ntiles,
  ** record 0 (24 + tile_length, edits 4 + 8 k); record 1's generation at its start + 4. */
  if (mesh < 0 || ask_bytes(&r, "mesh.snapshot_save", buf, &b, &n)) b = NULL;
  if (b && n > 120) {
    size_t p0 = 88, t0 = p0 + 4 + 8 * (size_t)le32(b + p0) + 4;
    size_t e0 = t0 + 24 + le32(b + t0 + 20), r1 = e0 + 4 + 8 * (size_t)le32(b + e0);
    snprintf(want, sizeof want, "first differing field tile %ld,%ld,%ld: generation (byte %zu)",
             (long)(int32_t)le32(b + r1 + 8), (long)(int32_t)le32(b + r1 + 12), (long)(int32_t)le32(b + r1 + 16),
             r1 + 4);
    corrupt_one(s, "CONF-203", "snapshot", NULL, b, n, r1 + 4, 0, want);
    corrupt_one(s, "CONF-203", "snapshot", NULL, b, n, 74, 0, "field sections[0].tag (byte 72)");
  } else {
    check(s, 0, "CONF-203", "a mesh snapshot");
  }
  free(b);

  /* SNAP-016, SNAP-017: a tile cache with one box obstacle; the TCAC section follows the
  ** SLOT section (its length at 80); obstacles[0].bmax.y is at payload + 20 + 8 + 8 * 4. */
  int64_t cache = ask_int(&r, "tilecache.soup", "{\"preset\":\"Humanoid\",\"partition\":\"layers\","
                          "\"detail_sample_distance\":0,\"level\":" LEVEL "}", "cache");
  snprintf(buf, sizeof buf, "{\"cache\":%lld,\"obstacle\":{\"shape\":\"box\",\"bmin\":[1,-1,10],\"bmax\":[6,4,22]}}",
           (long long)cache);
  int64_t oid = cache < 0 ? -1 : ask_int(&r, "tilecache.add_obstacle", buf, "id");
  snprintf(buf, sizeof buf, "{\"cache\":%lld}", (long long)cache);
  if (oid < 0 || ask_bytes(&r, "tilecache.snapshot_save", buf, &b, &n)) b = NULL;
  if (b && n > 88) {
    size_t tc = 88 + (size_t)le32(b + 80), pay = tc + 16;
    snprintf(want, sizeof want, "first differing field obstacles[0].bmax.y (byte %zu)", pay + 20 + 8 + 32);
    corrupt_one(s, "CONF-203", "snapshot", NULL, b, n, pay + 20 + 8 + 32, 3, want);
    snprintf(want, sizeof want, "first differing field next_volume_id (byte %zu)", pay + 12);
    corrupt_one(s, "CONF-203", "snapshot", NULL, b, n, pay + 12, 0, want);
  } else {
    check(s, 0, "CONF-203", "a tile cache snapshot");
  }
  free(b);
  tr_close(r.t);

  /* CONF-200: the layout names of the table, and no other */
  int all = 1;
  for (int i = 0; opw_layout_names[i]; i++) all &= opw_layout_known(opw_layout_names[i]);
  check(s, all && !opw_layout_known("blob") && !opw_layout_known("") && !opw_layout_known(NULL), "CONF-200",
        "the layouts are known by name, others are not");

  /* CONF-201: values: f64 with its bits, a byte field as text, an equal pair. */
  uint8_t x[16] = {0}, y[16] = {0};
  char out[600];
  check(s, opc_difference("table", "soup", x, 16, y, 16, "reference", "port", out, sizeof out) == 0 &&
               strcmp(out, "no difference") == 0,
        "CONF-201", "equal artifacts: no difference");
  y[15] = 1;
  check(s, opc_difference("table", NULL, x, 16, y, 16, "reference", "port", out, sizeof out) == 2 &&
               strstr(out, "first differing byte 15"),
        "CONF-202", "a table without a layout or magic: the first differing byte");
}

int selftest_main(void) {
  st s = {0, 0};
  answers(&s);
  goldens(&s);
  differences(&s);
  fields(&s);
  printf("selftest: %d checks, %d failed\n", s.checks, s.failed);
  printf("%d passed, %d failed\n", s.checks - s.failed, s.failed);
  return s.failed ? 1 : 0;
}
