/*
** optrace.h -- the readable trace of a structured fuzz harness (fuzz_mesh_ops.c now; the
** obstacle-history harness of the run-time tile cache next, see fuzz/history/).
**
** A structured harness turns its input into protocol requests (docs/porting.md) and executes
** them with the port's dispatcher. optrace records them as a flat conformance trace,
** onepath-trace/0 (spec/conformance.md CONF-080/081):
**
**   {"trace":"onepath-trace/0","scenario":"fuzz/NAME","title":...,"clauses":[...]}
**   {"request":R,"expect":E,"note":N}      one line per request, E the reference's answer
**   {"fuzz_failure":true,"note":MESSAGE}   last line when an oracle failed
**
** E is {"ok":V} (long hex strings as {"$bytes":N,"$xxh3":H}, CONF-081) or
** {"error":{"kind","field","value"}}. "note" (why the generator chose a value) and the failure
** line are ignored by the runner. So the same file is
**   - replayed by the harness itself (text mode: input starting with '{' or '#'; the "request"
**     members are executed in order, with the harness's oracles), and
**   - checked against any port by `op-conform check-traces DIR --port EXE` (file at
**     DIR/fuzz/NAME.jsonl): each request's answer must match the reference's.
** With OP_FUZZ_TRACE=FILE in the environment the trace is also written to FILE: after every
** request is recorded (so a sanitizer crash in the next request still leaves the trace up to
** it, with that request last), and on an oracle failure.
**
** Header-only (static functions); no global state.
*/
#ifndef OP_FUZZ_OPTRACE_H
#define OP_FUZZ_OPTRACE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onepath.h"
#include "opj.h"

typedef struct optrace {
  char *buf; /* the trace text */
  size_t len, cap;
  size_t nreq;      /* requests recorded */
  const char *name; /* harness name, for messages */
  const char *path; /* OP_FUZZ_TRACE or NULL */
} optrace;

static void optrace_append(optrace *t, const char *s, size_t n) {
  if (t->len + n + 1 > t->cap) {
    size_t c = t->cap ? t->cap * 2 : 4096;
    while (c < t->len + n + 1) c *= 2;
    char *nb = realloc(t->buf, c);
    if (!nb) abort();
    t->buf = nb;
    t->cap = c;
  }
  memcpy(t->buf + t->len, s, n);
  t->len += n;
  t->buf[t->len] = '\0';
}

static void optrace_write_file(const optrace *t, const char *extra, size_t elen) {
  if (!t->path) return;
  FILE *f = fopen(t->path, "w");
  if (!f) return;
  fwrite(t->buf ? t->buf : "", 1, t->len, f);
  if (extra) fwrite(extra, 1, elen, f);
  fclose(f);
}

/* Starts a trace: the CONF-081 header line. clauses: a JSON array text, e.g. "[\"MESH-024\"]". */
static void optrace_init(optrace *t, const char *name, const char *title, const char *clauses) {
  memset(t, 0, sizeof *t);
  t->name = name;
  const char *p = getenv("OP_FUZZ_TRACE");
  t->path = p && *p ? p : NULL;
  opj_w w;
  opj_w_init(&w);
  opj_w_obj_begin(&w);
  opj_w_key(&w, "trace");
  opj_w_str(&w, "onepath-trace/0");
  char scen[128];
  snprintf(scen, sizeof scen, "fuzz/%s", name);
  opj_w_key(&w, "scenario");
  opj_w_str(&w, scen);
  opj_w_key(&w, "title");
  opj_w_str(&w, title);
  opj_w_key(&w, "clauses");
  opj_w_raw(&w, clauses, strlen(clauses));
  opj_w_obj_end(&w);
  if (w.oom) abort();
  optrace_append(t, w.buf, w.len);
  optrace_append(t, "\n", 1);
  opj_w_free(&w);
}

static void optrace_free(optrace *t) {
  free(t->buf);
  memset(t, 0, sizeof *t);
}

/* Called before a request executes: with OP_FUZZ_TRACE set, the file gets the trace so far
** plus this request (expectation unknown), so a crash inside it leaves a complete reproducer. */
static void optrace_pending(const optrace *t, const char *req, size_t rlen) {
  if (!t->path) return;
  size_t n = rlen + 80;
  char *line = malloc(n);
  if (!line) return;
  int k = snprintf(line, n, "{\"request\":%.*s,\"expect\":{\"ok\":null},\"note\":\"crashed here\"}\n",
                   (int)rlen, req);
  optrace_write_file(t, line, k > 0 ? (size_t)k : 0);
  free(line);
}

static int optrace_is_long_hex(const opj *v) {
  if (v->type != OPJ_STR || v->len <= 64 || v->len % 2) return 0;
  for (size_t i = 0; i < v->len; i++)
    if (!((v->str[i] >= '0' && v->str[i] <= '9') || (v->str[i] >= 'a' && v->str[i] <= 'f'))) return 0;
  return 1;
}

/* The expectation of CONF-081: the ok object with long hex strings as $bytes/$xxh3. */
static void optrace_expect_value(opj_w *w, const opj *v) {
  if (v->type == OPJ_OBJ) {
    opj_w_obj_begin(w);
    for (size_t i = 0; i < v->n; i++) {
      opj_w_key(w, v->keys[i]);
      optrace_expect_value(w, v->items[i]);
    }
    opj_w_obj_end(w);
  } else if (v->type == OPJ_ARR) {
    opj_w_arr_begin(w);
    for (size_t i = 0; i < v->n; i++) optrace_expect_value(w, v->items[i]);
    opj_w_arr_end(w);
  } else if (optrace_is_long_hex(v)) {
    uint8_t *b = NULL;
    size_t n = 0;
    if (opj_hexbytes(v, &b, &n)) abort();
    opj_w_obj_begin(w);
    opj_w_key(w, "$bytes");
    opj_w_int(w, (int64_t)n);
    opj_w_key(w, "$xxh3");
    opj_w_u64hex(w, op_hash64(b, n));
    opj_w_obj_end(w);
    free(b);
  } else {
    opj_w_value(w, v);
  }
}

/* Records one executed request (its JSON text) with the answer (parsed) and a note. */
static void optrace_record(optrace *t, const char *req, size_t rlen, const opj *ans, const char *note) {
  opj_w w;
  opj_w_init(&w);
  opj_w_obj_begin(&w);
  opj_w_key(&w, "expect");
  opj_w_obj_begin(&w);
  const opj *ok = opj_get(ans, "ok"), *er = opj_get(ans, "error");
  if (ok) {
    opj_w_key(&w, "ok");
    optrace_expect_value(&w, ok);
  } else if (er) {
    opj_w_key(&w, "error");
    opj_w_obj_begin(&w);
    static const char *keys[3] = {"kind", "field", "value"};
    for (int k = 0; k < 3; k++) {
      const opj *v = opj_get(er, keys[k]);
      if (v) {
        opj_w_key(&w, keys[k]);
        opj_w_value(&w, v);
      }
    }
    opj_w_obj_end(&w);
  }
  opj_w_obj_end(&w);
  if (note && *note) {
    opj_w_key(&w, "note");
    opj_w_str(&w, note);
  }
  opj_w_obj_end(&w);
  if (w.oom) abort();
  optrace_append(t, "{\"request\":", 11);
  optrace_append(t, req, rlen);
  optrace_append(t, ",", 1);
  optrace_append(t, w.buf + 1, w.len - 1);
  optrace_append(t, "\n", 1);
  opj_w_free(&w);
  t->nreq++;
  optrace_write_file(t, NULL, 0);
}

/* An oracle failed: the message becomes the trace's last line; the trace goes to stderr (and
** OP_FUZZ_TRACE); then abort() so every engine reports a crash. */
static void optrace_fail(optrace *t, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  opj_w w;
  opj_w_init(&w);
  opj_w_obj_begin(&w);
  opj_w_key(&w, "fuzz_failure");
  opj_w_bool(&w, 1);
  opj_w_key(&w, "note");
  opj_w_str(&w, msg);
  opj_w_obj_end(&w);
  if (w.buf) optrace_append(t, w.buf, w.len);
  optrace_append(t, "\n", 1);
  opj_w_free(&w);
  optrace_write_file(t, NULL, 0);
  fprintf(stderr, "fuzz_%s: ORACLE FAILED after request %zu: %s\n", t->name, t->nreq, msg);
  fprintf(stderr, "---- trace (onepath-trace/0; replay: fuzz-replay-%s FILE, or op-conform "
                  "check-traces) ----\n%s---- end of trace ----\n",
          t->name, t->buf ? t->buf : "");
  abort();
}

/* Text mode: the input is a trace (or a bare request stream). */
static int optrace_is_text(const uint8_t *data, size_t size) {
  return size > 0 && (data[0] == '{' || data[0] == '#');
}

/* Calls fn for each request of a text input, in order: the "request" member of a trace line,
** or a line that is itself a request object. Lines starting with '#', blank or malformed lines,
** headers, checkpoints and notes are skipped. */
static void optrace_each_request(const uint8_t *data, size_t size,
                                 void (*fn)(void *ctx, const char *req, size_t len, const char *note),
                                 void *ctx) {
  size_t start = 0;
  for (size_t i = 0; i <= size; i++) {
    if (i < size && data[i] != '\n') continue;
    const char *line = (const char *)data + start;
    size_t len = i - start;
    start = i + 1;
    if (len == 0 || line[0] == '#') continue;
    opj_doc *d = opj_parse(line, len, NULL, 0);
    if (!d) continue;
    const opj *o = opj_root(d), *rq = opj_get(o, "request");
    if (!rq && opj_get(o, "op")) rq = o;
    if (rq && rq->type == OPJ_OBJ) {
      opj_w w;
      opj_w_init(&w);
      opj_w_value(&w, rq);
      const opj *nt = opj_get(o, "note");
      if (!w.oom) fn(ctx, w.buf, w.len, nt && nt->type == OPJ_STR ? nt->str : "");
      opj_w_free(&w);
    }
    opj_free(d);
  }
}

#endif
