/*
** traces.c -- flat traces (spec/conformance.md CONF-080 .. CONF-084): per scenario a
** JSON-lines file of requests, expected answers and checkpoints that a port can be
** checked against with no Lua; and the answer comparison rules shared with `run --port`.
*/
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <xxhash.h>

#include "conform.h"

/* ------------------------------------------------------------ comparison (CONF-082) */

static int is_hash_stub(const opj *e) {
  return e->type == OPJ_OBJ && e->n == 2 && opj_get(e, "$bytes") && opj_get(e, "$xxh3");
}

static const char *type_name(const opj *v) {
  static const char *const n[] = {"null", "boolean", "number", "string", "array", "object"};
  return v ? n[v->type] : "nothing";
}

static void path_text(char **out, const char *path) { str_appendf(out, "%s", *path ? path : "(top)"); }

/* Returns 0 when equal, else appends a description to *why. */
static int value_diff(const opj *e, const opj *a, const char *path, char **why) {
  char sub[512];
  if (is_hash_stub(e)) {
    int64_t n;
    uint64_t h;
    uint8_t *b;
    size_t bl;
    if (!a || a->type != OPJ_STR || opj_int(opj_get(e, "$bytes"), 0, INT64_MAX, &n) ||
        opj_u64hex(opj_get(e, "$xxh3"), &h) || opc_unhex(a->str, a->len, &b, &bl)) {
      path_text(why, path);
      str_appendf(why, ": expected hex bytes, got %s", type_name(a));
      return -1;
    }
    uint64_t ah = XXH3_64bits(b, bl);
    free(b);
    if ((size_t)n == bl && ah == h) return 0;
    path_text(why, path);
    str_appendf(why, ": bytes differ (length %zu hash %016llx, expected length %lld hash %016llx)", bl,
                (unsigned long long)ah, (long long)n, (unsigned long long)h);
    return -1;
  }
  if (!a || a->type != e->type) {
    path_text(why, path);
    str_appendf(why, ": expected a %s, got %s", type_name(e), type_name(a));
    return -1;
  }
  switch (e->type) {
  case OPJ_NULL: return 0;
  case OPJ_BOOL:
    if (e->b == a->b) return 0;
    break;
  case OPJ_NUM: {
    int64_t ei, ai;
    int eint = e->str && !strpbrk(e->str, ".eE") && opj_int(e, INT64_MIN, INT64_MAX, &ei) == 0;
    int aint = a->str && !strpbrk(a->str, ".eE") && opj_int(a, INT64_MIN, INT64_MAX, &ai) == 0;
    if (eint && aint && ei == ai && (ei != 0 || (e->str[0] == '-') == (a->str[0] == '-'))) return 0;
    if (!(eint && aint) && memcmp(&e->num, &a->num, sizeof e->num) == 0) return 0;
    break;
  }
  case OPJ_STR:
    if (e->len == a->len && memcmp(e->str, a->str, e->len) == 0) return 0;
    break;
  case OPJ_ARR:
    if (e->n != a->n) {
      path_text(why, path);
      str_appendf(why, ": expected %zu items, got %zu", e->n, a->n);
      return -1;
    }
    for (size_t i = 0; i < e->n; i++) {
      snprintf(sub, sizeof sub, "%s[%zu]", path, i);
      if (value_diff(e->items[i], a->items[i], sub, why)) return -1;
    }
    return 0;
  case OPJ_OBJ:
    for (size_t i = 0; i < e->n; i++) {
      snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", e->keys[i]);
      if (value_diff(e->items[i], opj_get(a, e->keys[i]), sub, why)) return -1;
    }
    for (size_t i = 0; i < a->n; i++)
      if (!opj_get(e, a->keys[i])) {
        path_text(why, path);
        str_appendf(why, ": unexpected member \"%s\"", a->keys[i]);
        return -1;
      }
    return 0;
  }
  opj_w we, wa;
  opj_w_init(&we);
  opj_w_init(&wa);
  opj_w_value(&we, e);
  opj_w_value(&wa, a);
  path_text(why, path);
  str_appendf(why, ": expected %.200s, got %.200s", we.buf ? we.buf : "?", wa.buf ? wa.buf : "?");
  opj_w_free(&we);
  opj_w_free(&wa);
  return -1;
}

static void describe_error(char **m, const opj *err) {
  const opj *k = opj_get(err, "kind"), *f = opj_get(err, "field"), *v = opj_get(err, "value"),
            *msg = opj_get(err, "message");
  str_appendf(m, "error %s, field \"%s\", value \"%s\"%s%s", k && k->str ? k->str : "?",
              f && f->str ? f->str : "?", v && v->str ? v->str : "?", msg && msg->str ? ": " : "",
              msg && msg->str ? msg->str : "");
}

char *answer_mismatch(const opj *expect, const opj *answer) {
  char *m = NULL;
  const opj *eok = opj_get(expect, "ok"), *eerr = opj_get(expect, "error");
  const opj *aok = opj_get(answer, "ok"), *aerr = opj_get(answer, "error");
  if (eok) {
    if (!aok) {
      str_appendf(&m, "expected an ok answer, got ");
      if (aerr) describe_error(&m, aerr);
      else str_appendf(&m, "neither ok nor error");
      return m;
    }
    if (eok->type == OPJ_NULL) return NULL; /* any ok answer */
    if (value_diff(eok, aok, "", &m)) {
      char *full = NULL;
      str_appendf(&full, "ok answer differs at %s", m ? m : "?");
      free(m);
      return full;
    }
    return NULL;
  }
  if (!eerr) {
    str_appendf(&m, "malformed expectation");
    return m;
  }
  if (!aerr) {
    str_appendf(&m, "expected an error, got %s", aok ? "an ok answer" : "neither ok nor error");
    return m;
  }
  /* CONF-082: kind, field and (when given) value are compared; the message is not. */
  for (size_t i = 0; i < eerr->n; i++) {
    const opj *ev = eerr->items[i], *av = opj_get(aerr, eerr->keys[i]);
    if (!av || av->type != OPJ_STR || ev->type != OPJ_STR || strcmp(ev->str, av->str) != 0) {
      str_appendf(&m, "expected error %s \"%s\", got ", eerr->keys[i], ev->str ? ev->str : "?");
      describe_error(&m, aerr);
      return m;
    }
  }
  return NULL;
}

/* ------------------------------------------------------------ expectations (CONF-081) */

static int is_big_hex(const opj *v) {
  if (v->type != OPJ_STR || v->len <= 64 || v->len % 2) return 0;
  for (size_t i = 0; i < v->len; i++) {
    char c = v->str[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return 0;
  }
  return 1;
}

static void write_hashified(opj_w *w, const opj *v) {
  if (is_big_hex(v)) {
    uint8_t *b;
    size_t n;
    if (opc_unhex(v->str, v->len, &b, &n) == 0) {
      opj_w_obj_begin(w);
      opj_w_key(w, "$bytes");
      opj_w_int(w, (int64_t)n);
      opj_w_key(w, "$xxh3");
      opj_w_u64hex(w, XXH3_64bits(b, n));
      opj_w_obj_end(w);
      free(b);
      return;
    }
  }
  if (v->type == OPJ_ARR) {
    opj_w_arr_begin(w);
    for (size_t i = 0; i < v->n; i++) write_hashified(w, v->items[i]);
    opj_w_arr_end(w);
  } else if (v->type == OPJ_OBJ) {
    opj_w_obj_begin(w);
    for (size_t i = 0; i < v->n; i++) {
      opj_w_key(w, v->keys[i]);
      write_hashified(w, v->items[i]);
    }
    opj_w_obj_end(w);
  } else {
    opj_w_value(w, v);
  }
}

void expect_of_answer(opj_w *w, const opj *answer, int any_ok) {
  const opj *err = opj_get(answer, "error");
  opj_w_obj_begin(w);
  if (err) {
    opj_w_key(w, "error");
    opj_w_obj_begin(w);
    static const char *const keys[] = {"kind", "field", "value"};
    for (int i = 0; i < 3; i++) {
      const opj *v = opj_get(err, keys[i]);
      opj_w_key(w, keys[i]);
      opj_w_str(w, v && v->type == OPJ_STR ? v->str : "");
    }
    opj_w_obj_end(w);
  } else {
    opj_w_key(w, "ok");
    const opj *ok = opj_get(answer, "ok");
    if (any_ok || !ok) opj_w_null(w);
    else write_hashified(w, ok);
  }
  opj_w_obj_end(w);
}

/* ------------------------------------------------------------ files */

static int mkdirs(const char *path) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0777) && errno != EEXIST) return -1;
    *p = '/';
  }
  if (mkdir(buf, 0777) && errno != EEXIST) return -1;
  return 0;
}

int traces_write(const char *dir, const char *scenario, const char *text) {
  char path[4096], sub[4096];
  snprintf(path, sizeof path, "%s/%s.jsonl", dir, scenario);
  snprintf(sub, sizeof sub, "%s", path);
  char *slash = strrchr(sub, '/');
  if (slash) *slash = '\0';
  if (mkdirs(sub)) return -1;
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  size_t n = strlen(text);
  int ok = fwrite(text, 1, n, f) == n;
  return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* CONF-085: byte order of the names without their extension ("a.jsonl" before
** "a-b.jsonl"), the full names breaking ties. */
static int cmp_names(const void *a, const void *b) {
  const char *x = *(char *const *)a, *y = *(char *const *)b;
  const char *dx = strrchr(x, '.'), *dy = strrchr(y, '.');
  size_t lx = dx ? (size_t)(dx - x) : strlen(x), ly = dy ? (size_t)(dy - y) : strlen(y);
  int c = memcmp(x, y, lx < ly ? lx : ly);
  if (c) return c;
  if (lx != ly) return lx < ly ? -1 : 1;
  return strcmp(x, y);
}

/* Sorted entry names of a directory (no dot files). */
static char **list_dir(const char *dir, size_t *n) {
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) return NULL;
  char **v = NULL;
  size_t cap = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.') continue;
    if (*n == cap) {
      cap = cap ? cap * 2 : 16;
      char **nv = realloc(v, cap * sizeof *nv);
      if (!nv) break;
      v = nv;
    }
    v[*n] = NULL;
    str_appendf(&v[*n], "%s", de->d_name);
    if (v[*n]) (*n)++;
  }
  closedir(d);
  if (v) qsort(v, *n, sizeof *v, cmp_names);
  return v;
}

static void free_list(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

static double now_ms(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* Follows a trace path (keys and 0-based indices) into an answer's ok object. */
static const opj *follow(const opj *v, const opj *path) {
  for (size_t i = 0; v && path && i < path->n; i++) {
    const opj *step = path->items[i];
    int64_t k;
    if (step->type == OPJ_STR) v = opj_get(v, step->str);
    else if (opj_int(step, 0, INT64_MAX, &k) == 0) v = opj_at(v, (size_t)k);
    else return NULL;
  }
  return v;
}

typedef struct answers {
  opj_doc **d;
  size_t n, cap;
} answers;

/* The answer ids that a trace's checkpoint lines name (CONF-081 `answer`), sorted. Only
** those answers are kept while a trace is replayed: a trace of 131,000 requests (the
** tile cache's limits) would otherwise hold every answer until its end. */
typedef struct id_set {
  int64_t *v;
  size_t n, cap;
} id_set;

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static int ids_has(const id_set *s, int64_t id) {
  return s->n && bsearch(&id, s->v, s->n, sizeof *s->v, cmp_i64) != NULL;
}

/* Reads f once for checkpoint lines and collects their answer ids; rewinds f. A line that
** does not hold the text "checkpoint" cannot be a checkpoint line and is not parsed. */
static void checkpoint_ids(FILE *f, id_set *s) {
  char *line = NULL, msg[200];
  size_t cap = 0;
  ssize_t got;
  while ((got = getline(&line, &cap, f)) >= 0) {
    if (!strstr(line, "\"checkpoint\"")) continue;
    opj_doc *d = opj_parse(line, (size_t)got, msg, sizeof msg);
    int64_t id;
    if (d && opj_get(opj_root(d), "checkpoint") &&
        opj_int(opj_get(opj_root(d), "answer"), 1, INT64_MAX, &id) == 0) {
      if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 16;
        int64_t *nv = realloc(s->v, nc * sizeof *nv);
        if (nv) { s->v = nv; s->cap = nc; }
      }
      if (s->n < s->cap) s->v[s->n++] = id;
    }
    opj_free(d);
  }
  free(line);
  rewind(f);
  if (s->n) qsort(s->v, s->n, sizeof *s->v, cmp_i64);
}

/* Keeps ad when a checkpoint names its id; frees it otherwise. */
static void keep_answer(answers *ans, const id_set *ids, opj_doc *ad) {
  int64_t aid;
  if (opj_int(opj_get(opj_root(ad), "id"), 0, INT64_MAX, &aid) || !ids_has(ids, aid)) {
    opj_free(ad);
    return;
  }
  if (ans->n == ans->cap) {
    size_t nc = ans->cap ? 2 * ans->cap : 16;
    opj_doc **nd = realloc(ans->d, nc * sizeof *nd);
    if (!nd) { opj_free(ad); return; } /* the checkpoint then reports no bytes there */
    ans->d = nd;
    ans->cap = nc;
  }
  ans->d[ans->n++] = ad;
}

/* CONF-081, CONF-083: the ops a trace's header lists that port_ops lacks, ", " between
** (malloc'd), or NULL (none missing, or a header without `ops`). */
static char *trace_needs(FILE *f, const name_list *port_ops) {
  char *line = NULL, *needs = NULL, msg[200];
  size_t cap = 0;
  ssize_t got = getline(&line, &cap, f);
  opj_doc *d = got > 0 ? opj_parse(line, (size_t)got, msg, sizeof msg) : NULL;
  const opj *ops = d && opj_get(opj_root(d), "trace") ? opj_get(opj_root(d), "ops") : NULL;
  for (size_t i = 0; ops && ops->type == OPJ_ARR && i < ops->n; i++) {
    const opj *op = ops->items[i];
    if (op->type == OPJ_STR && !names_has(port_ops, op->str))
      str_appendf(&needs, "%s%s", needs ? ", " : "", op->str);
  }
  opj_free(d);
  free(line);
  rewind(f);
  return needs;
}

/* Replays one trace file; fills res. */
static void check_file(const char *file, const char *port, scen_result *res,
                       const name_list *port_ops) {
  FILE *f = fopen(file, "r");
  if (!f) { str_appendf(&res->details, "cannot open %s", file); return; }
  if (port_ops && (res->needs = trace_needs(f, port_ops))) { /* CONF-083: skipped */
    fclose(f);
    return;
  }
  char msg[300];
  transport *t = tr_open_port(port, msg, sizeof msg);
  if (!t) { str_appendf(&res->details, "cannot start the port: %s", msg); fclose(f); return; }
  answers ans = {NULL, 0, 0};
  id_set ids = {NULL, 0, 0};
  checkpoint_ids(f, &ids);
  char *line = NULL;
  size_t cap = 0, lineno = 0;
  ssize_t got;
  int broken = 0;
  while (!broken && (got = getline(&line, &cap, f)) >= 0) {
    lineno++;
    while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r')) line[--got] = '\0';
    if (!got) continue;
    opj_doc *d = opj_parse(line, (size_t)got, msg, sizeof msg);
    if (!d) { str_appendf(&res->details, "%s:%zu: %s\n", file, lineno, msg); broken = 1; break; }
    const opj *o = opj_root(d);
    const opj *req = opj_get(o, "request"), *raw = opj_get(o, "raw"), *exp = opj_get(o, "expect");
    const opj *cp = opj_get(o, "checkpoint");
    if ((req || raw) && exp) {
      opj_w w;
      opj_w_init(&w);
      if (req) opj_w_value(&w, req);
      else if (raw->type == OPJ_STR) opj_w_raw(&w, raw->str, raw->len);
      const char *a;
      size_t alen;
      res->calls++;
      if (tr_exchange(t, w.buf ? w.buf : "", w.len, &a, &alen, msg, sizeof msg)) {
        str_appendf(&res->details, "request %zu: %s\n", res->calls, msg);
        broken = 1;
      } else {
        opj_doc *ad = opj_parse(a, alen, msg, sizeof msg);
        if (!ad) {
          str_appendf(&res->details, "answer to request %zu is not JSON (%s): %.300s\n", res->calls,
                      msg, a);
        } else {
          if (opj_get(exp, "error")) res->errors_checked++;
          char *why = answer_mismatch(exp, opj_root(ad));
          if (why) {
            str_appendf(&res->details, "line %zu, request %.300s\n  %s\n", lineno, w.buf, why);
            free(why);
          }
          keep_answer(&ans, &ids, ad);
        }
      }
      opj_w_free(&w);
    } else if (cp) {
      res->cps_total++;
      int64_t id, len;
      uint64_t h;
      const opj *path = opj_get(o, "path");
      if (opj_int(opj_get(o, "answer"), 1, INT64_MAX, &id) || !path) {
        /* built by the scenario: confirmed by the answers it was built from */
        if (!res->details) res->cps_ok++;
        else
          str_appendf(&res->details, "checkpoint \"%s\" (built from answers): not confirmed, an "
                      "earlier answer differs\n", cp->str ? cp->str : "?");
      } else if (opj_int(opj_get(o, "length"), 0, INT64_MAX, &len) ||
                 opj_u64hex(opj_get(o, "hash"), &h)) {
        str_appendf(&res->details, "%s:%zu: malformed checkpoint line\n", file, lineno);
      } else {
        const opj *v = NULL;
        for (size_t i = 0; i < ans.n; i++) {
          int64_t aid;
          if (opj_int(opj_get(opj_root(ans.d[i]), "id"), 0, INT64_MAX, &aid) == 0 && aid == id)
            v = follow(opj_get(opj_root(ans.d[i]), "ok"), path);
        }
        uint8_t *b;
        size_t bl;
        if (!v || v->type != OPJ_STR || opc_unhex(v->str, v->len, &b, &bl)) {
          str_appendf(&res->details, "checkpoint \"%s\": the answer holds no hex bytes there\n",
                      cp->str ? cp->str : "?");
        } else {
          uint64_t ah = XXH3_64bits(b, bl);
          free(b);
          if ((int64_t)bl == len && ah == h) res->cps_ok++;
          else
            str_appendf(&res->details,
                        "checkpoint \"%s\": length %zu hash %016llx, expected length %lld hash %016llx\n",
                        cp->str ? cp->str : "?", bl, (unsigned long long)ah, (long long)len,
                        (unsigned long long)h);
        }
      }
    }
    opj_free(d);
  }
  for (size_t i = 0; i < ans.n; i++) opj_free(ans.d[i]);
  free(ans.d);
  free(ids.v);
  free(line);
  fclose(f);
  tr_close(t);
  if (lineno == 0) str_appendf(&res->details, "empty trace file\n");
  res->passed = res->details == NULL;
}

int traces_check(const char *dir, const char *port, const char *filter, report *rep,
                 const name_list *port_ops, const name_list *expected) {
  size_t ng;
  char **groups = list_dir(dir, &ng);
  if (!groups) {
    fprintf(stderr, "op-conform: cannot read %s\n", dir);
    return -1;
  }
  int failed = 0;
  for (size_t g = 0; g < ng; g++) {
    char gdir[4096];
    snprintf(gdir, sizeof gdir, "%s/%s", dir, groups[g]);
    size_t nf;
    char **files = list_dir(gdir, &nf);
    for (size_t i = 0; files && i < nf; i++) {
      size_t fl = strlen(files[i]);
      if (fl < 7 || strcmp(files[i] + fl - 6, ".jsonl") != 0) continue;
      scen_result res;
      memset(&res, 0, sizeof res);
      snprintf(res.name, sizeof res.name, "%s/%.*s", groups[g], (int)(fl - 6), files[i]);
      if (filter && !strstr(res.name, filter)) continue;
      char file[8300];
      snprintf(file, sizeof file, "%s/%s", gdir, files[i]);
      double t0 = now_ms();
      res.expected = names_has(expected, res.name);
      check_file(file, port, &res, port_ops);
      res.ms = now_ms() - t0;
      int v = scen_verdict(&res);
      failed += v == V_FAIL || v == V_XPASS;
      report_print_line(rep, &res);
      report_add(rep, &res);
    }
    free_list(files, nf);
  }
  free_list(groups, ng);
  return failed;
}
