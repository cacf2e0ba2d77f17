/*
** opj.c -- the strict JSON reader and the writer of the port protocol
** (spec/conformance.md, "Framing and values": CONF-020 .. CONF-034).
**
** Reader: RFC 8259 JSON only (no comments, no trailing commas, no NaN literals, no
** leading zeros), strings must be valid UTF-8, escapes decoded (\uXXXX with surrogate
** pairs; a lone surrogate is an error), duplicate object keys are an error (CONF-022).
** Limits: nesting depth OPJ_MAX_DEPTH, text size OPJ_MAX_TEXT (CONF-023), values per
** text OPJ_MAX_VALUES (CONF-037).
** Costs stay in proportion to the text: the duplicate-key check is a hash set per object
** (XXH3-64 through op_hash64: no seed, deterministic), so n member names cost O(n)
** expected comparisons; the items of all open containers share one work stack; the
** memory the reader holds is at most OPJ_VALUE_BYTES per value beside the text
** (CONF-037), counted in opj_stats.bytes_peak.
** Numbers are converted with strtod (correctly rounded in glibc); a number whose
** magnitude overflows to infinity is an error. The number's source text is kept in
** opj.str/opj.len so integers are read exactly (opj_int) even beyond 2^53.
**
** All nodes of one document live in one arena owned by the opj_doc.
*/
#include "opj.h"

#include <assert.h>

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onepath.h"

/* ------------------------------------------------------------------ arena */

typedef struct chunk {
  struct chunk *next;
  size_t used, cap;
  _Alignas(16) unsigned char mem[];
} chunk;

struct opj_doc {
  chunk *chunks;
  opj *root;
};

/* Bytes the reader holds, for opj_stats (no global state: one count per parse). */
typedef struct acct {
  size_t live, peak;
} acct;

static void acct_add(acct *a, size_t n) {
  a->live += n;
  if (a->live > a->peak) a->peak = a->live;
}

static void acct_sub(acct *a, size_t n) {
  assert(a->live >= n);
  a->live -= n;
}

/* Arena blocks are 8-byte aligned: nodes hold doubles, pointers and sizes only. */
static void *arena_alloc(opj_doc *d, acct *a, size_t n) {
  n = (n + 7u) & ~(size_t)7u;
  chunk *c = d->chunks;
  if (!c || c->cap - c->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    chunk *nc = malloc(sizeof *nc + cap);
    if (!nc) return NULL;
    acct_add(a, sizeof *nc + cap);
    nc->next = c;
    nc->used = 0;
    nc->cap = cap;
    d->chunks = nc;
    c = nc;
  }
  void *p = c->mem + c->used;
  c->used += n;
  return p;
}

void opj_free(opj_doc *d) {
  if (!d) return;
  chunk *c = d->chunks;
  while (c) {
    chunk *n = c->next;
    free(c);
    c = n;
  }
  free(d);
}

const opj *opj_root(const opj_doc *d) { return d ? d->root : NULL; }

/* ------------------------------------------------------------------ parser */

typedef struct parser {
  opj_doc *doc;
  const char *s;
  size_t len, pos;
  int depth;
  char *err;
  size_t errlen;
  size_t err_off;
  int failed, limit;
  size_t values;             /* values begun so far (CONF-037) */
  opj **stk;                 /* items of all open containers, innermost last */
  size_t sn, scap;
  const char **kstk;         /* member names of all open objects, innermost last */
  size_t kn, kcap;
  size_t key_compares;       /* opj_stats */
  acct mem;
} parser;

static void *fail(parser *p, int limit, const char *fmt, ...) {
  if (p->failed) return NULL;
  p->failed = 1;
  p->limit = limit;
  p->err_off = p->pos;
  if (p->err && p->errlen) {
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(p->err, p->errlen, "%s at byte %zu", msg, p->pos);
  }
  return NULL;
}

static void skip_ws(parser *p) {
  while (p->pos < p->len) {
    char c = p->s[p->pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') p->pos++;
    else break;
  }
}

static opj *new_node(parser *p, opj_type t) {
  opj *v = arena_alloc(p->doc, &p->mem, sizeof *v);
  if (!v) return fail(p, 1, "out of memory");
  memset(v, 0, sizeof *v);
  v->type = t;
  return v;
}

static opj *parse_value(parser *p);

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static int read_u4(parser *p, unsigned *out) {
  if (p->len - p->pos < 4) return -1;
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    int h = hexval(p->s[p->pos + (size_t)i]);
    if (h < 0) return -1;
    v = v * 16u + (unsigned)h;
  }
  p->pos += 4;
  *out = v;
  return 0;
}

static size_t put_utf8(char *o, unsigned cp) {
  if (cp < 0x80) { o[0] = (char)cp; return 1; }
  if (cp < 0x800) {
    o[0] = (char)(0xC0 | (cp >> 6));
    o[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (char)(0xE0 | (cp >> 12));
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | (cp >> 18));
  o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  o[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* Length of one valid UTF-8 sequence at s (at most n bytes), or 0 if invalid
** (overlong forms, surrogates and code points above U+10FFFF are invalid). */
static size_t utf8_seq(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  if (c < 0x80) return 1;
  size_t k;
  unsigned cp, min;
  if (c >= 0xC2 && c <= 0xDF) { k = 2; cp = c & 0x1F; min = 0x80; }
  else if (c >= 0xE0 && c <= 0xEF) { k = 3; cp = c & 0x0F; min = 0x800; }
  else if (c >= 0xF0 && c <= 0xF4) { k = 4; cp = c & 0x07; min = 0x10000; }
  else return 0;
  if (n < k) return 0;
  for (size_t i = 1; i < k; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return k;
}

/* Parses a string starting at the opening quote; result in the arena. */
static const char *parse_string(parser *p, size_t *outlen) {
  p->pos++; /* opening quote */
  /* The decoded text is never longer than the source text. */
  size_t start = p->pos, end = start;
  while (end < p->len && p->s[end] != '"') end += (p->s[end] == '\\') ? 2 : 1;
  if (end >= p->len) return fail(p, 0, "unterminated string");
  char *o = arena_alloc(p->doc, &p->mem, end - start + 1);
  if (!o) return fail(p, 1, "out of memory");
  size_t n = 0;
  while (p->s[p->pos] != '"') {
    unsigned char c = (unsigned char)p->s[p->pos];
    if (c >= 0x20 && c < 0x80 && c != '\\') { /* plain ASCII, the usual byte (hex strings) */
      o[n++] = (char)c;
      p->pos++;
      continue;
    }
    if (c < 0x20) return fail(p, 0, "control character in string");
    if (c != '\\') {
      size_t k = utf8_seq((const unsigned char *)p->s + p->pos, p->len - p->pos);
      if (!k) return fail(p, 0, "invalid UTF-8 in string");
      memcpy(o + n, p->s + p->pos, k);
      n += k;
      p->pos += k;
      continue;
    }
    p->pos++;
    char e = p->s[p->pos++];
    switch (e) {
    case '"': o[n++] = '"'; break;
    case '\\': o[n++] = '\\'; break;
    case '/': o[n++] = '/'; break;
    case 'b': o[n++] = '\b'; break;
    case 'f': o[n++] = '\f'; break;
    case 'n': o[n++] = '\n'; break;
    case 'r': o[n++] = '\r'; break;
    case 't': o[n++] = '\t'; break;
    case 'u': {
      unsigned cp, lo;
      if (read_u4(p, &cp)) return fail(p, 0, "bad \\u escape");
      if (cp >= 0xDC00 && cp <= 0xDFFF) return fail(p, 0, "lone low surrogate");
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (p->len - p->pos < 2 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
          return fail(p, 0, "lone high surrogate");
        p->pos += 2;
        if (read_u4(p, &lo) || lo < 0xDC00 || lo > 0xDFFF)
          return fail(p, 0, "bad low surrogate");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
      }
      n += put_utf8(o + n, cp);
      break;
    }
    default: p->pos--; return fail(p, 0, "bad escape");
    }
  }
  p->pos++; /* closing quote */
  o[n] = '\0';
  *outlen = n;
  return o;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static opj *parse_number(parser *p) {
  size_t st = p->pos, i = p->pos;
  const char *s = p->s;
  if (i < p->len && s[i] == '-') i++;
  if (i >= p->len || !is_digit(s[i])) { p->pos = i; return fail(p, 0, "bad number"); }
  if (s[i] == '0') i++;
  else while (i < p->len && is_digit(s[i])) i++;
  if (i < p->len && s[i] == '.') {
    i++;
    if (i >= p->len || !is_digit(s[i])) { p->pos = i; return fail(p, 0, "bad fraction"); }
    while (i < p->len && is_digit(s[i])) i++;
  }
  if (i < p->len && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < p->len && (s[i] == '+' || s[i] == '-')) i++;
    if (i >= p->len || !is_digit(s[i])) { p->pos = i; return fail(p, 0, "bad exponent"); }
    while (i < p->len && is_digit(s[i])) i++;
  }
  opj *v = new_node(p, OPJ_NUM);
  if (!v) return NULL;
  char *txt = arena_alloc(p->doc, &p->mem, i - st + 1);
  if (!txt) return fail(p, 1, "out of memory");
  memcpy(txt, s + st, i - st);
  txt[i - st] = '\0';
  v->num = strtod(txt, NULL);
  if (isinf(v->num)) return fail(p, 0, "number overflows binary64");
  v->str = txt;
  v->len = i - st;
  p->pos = i;
  return v;
}

static int lit(parser *p, const char *w) {
  size_t n = strlen(w);
  if (p->len - p->pos < n || memcmp(p->s + p->pos, w, n) != 0) return 0;
  p->pos += n;
  return 1;
}

/* A work array with room for element n (doubling; bytes counted), or NULL when out of
** memory (arr is then still valid and owned by the caller). */
static void *grow(parser *p, void *arr, size_t *cap, size_t n, size_t elem) {
  if (n < *cap) return arr;
  size_t nc = *cap ? *cap * 2 : 64;
  void *na = realloc(arr, nc * elem);
  if (!na) return NULL;
  acct_add(&p->mem, nc * elem);
  acct_sub(&p->mem, *cap * elem);
  *cap = nc;
  return na;
}

/* ---- duplicate member names (CONF-022), in expected linear time.
** An object's first KSET_SCAN names are compared with each other directly; from then on
** the object has an open-addressing set of its names: a slot holds the high 32 bits of
** the name's XXH3-64 hash (op_hash64, unseeded: the same probes on every run) and
** 1 + the name's index in the object, 0 when empty; the set is kept at most half full.
** Names are compared (strcmp, counted) only when their hash tags agree, so the name
** reported is still the first one in the text equal to an earlier name of its object. */
#define KSET_SCAN 8

typedef struct kset {
  uint64_t *slot;
  size_t cap; /* 0 or a power of two */
} kset;

static void kset_free(parser *p, kset *ks) {
  if (ks->slot) acct_sub(&p->mem, ks->cap * sizeof *ks->slot);
  free(ks->slot);
  ks->slot = NULL;
  ks->cap = 0;
}

static void kset_place(kset *ks, uint64_t h, size_t idx) {
  size_t m = ks->cap - 1, i = (size_t)h & m;
  while (ks->slot[i]) i = (i + 1) & m;
  ks->slot[i] = ((h >> 32) << 32) | (uint64_t)(idx + 1);
}

/* Rebuilds the set with room for 2 * (n + 1) names from the object's n names. */
static int kset_grow(parser *p, kset *ks, const char *const *keys, size_t n) {
  size_t nc = ks->cap ? ks->cap * 2 : 32;
  while (nc < 2 * (n + 1)) nc *= 2;
  kset_free(p, ks); /* the names are rehashed from keys: old and new never coexist */
  uint64_t *ns = calloc(nc, sizeof *ns);
  if (!ns) return -1;
  acct_add(&p->mem, nc * sizeof *ns);
  ks->slot = ns;
  ks->cap = nc;
  for (size_t i = 0; i < n; i++) kset_place(ks, op_hash64(keys[i], strlen(keys[i])), i);
  return 0;
}

/* 1 when key equals one of the object's n earlier names, else 0 (and key becomes
** name n of the set); -1 when out of memory. */
static int key_seen(parser *p, kset *ks, const char *const *keys, size_t n, const char *key,
                    size_t klen) {
  if (n < KSET_SCAN) {
    for (size_t i = 0; i < n; i++) {
      p->key_compares++;
      if (strcmp(keys[i], key) == 0) return 1;
    }
    return 0;
  }
  if (2 * (n + 1) > ks->cap && kset_grow(p, ks, keys, n)) return -1;
  uint64_t h = op_hash64(key, klen), tag = (h >> 32) << 32;
  size_t m = ks->cap - 1, i = (size_t)h & m;
  for (; ks->slot[i]; i = (i + 1) & m) {
    if ((ks->slot[i] & 0xFFFFFFFF00000000u) != tag) continue;
    size_t idx = (size_t)(ks->slot[i] & 0xFFFFFFFFu) - 1;
    assert(idx < n);
    p->key_compares++;
    if (strcmp(keys[idx], key) == 0) return 1;
  }
  ks->slot[i] = tag | (uint64_t)(n + 1);
  return 0;
}

/* Moves the container's items (and names) from the work stacks into the arena. */
static opj *finish(parser *p, opj *node, size_t base, size_t kbase, int is_obj) {
  size_t n = p->sn - base;
  node->n = n;
  if (n) {
    node->items = arena_alloc(p->doc, &p->mem, n * sizeof *node->items);
    if (!node->items) return fail(p, 1, "out of memory");
    memcpy(node->items, p->stk + base, n * sizeof *node->items);
    if (is_obj) {
      assert(p->kn - kbase == n);
      node->keys = arena_alloc(p->doc, &p->mem, n * sizeof *node->keys);
      if (!node->keys) return fail(p, 1, "out of memory");
      memcpy(node->keys, p->kstk + kbase, n * sizeof *node->keys);
    }
  }
  p->sn = base;
  p->kn = kbase;
  return node;
}

static opj *parse_container(parser *p, int is_obj) {
  if (++p->depth > OPJ_MAX_DEPTH) return fail(p, 1, "nesting deeper than %d", OPJ_MAX_DEPTH);
  opj *node = new_node(p, is_obj ? OPJ_OBJ : OPJ_ARR);
  if (!node) return NULL;
  p->pos++; /* [ or { */
  size_t base = p->sn, kbase = p->kn;
  kset ks = {NULL, 0};
  char close = is_obj ? '}' : ']';
  skip_ws(p);
  if (p->pos < p->len && p->s[p->pos] == close) {
    p->pos++;
    p->depth--;
    return finish(p, node, base, kbase, is_obj);
  }
  for (;;) {
    skip_ws(p);
    if (is_obj) {
      size_t klen;
      if (p->pos >= p->len || p->s[p->pos] != '"') { fail(p, 0, "expected a key"); goto bad; }
      const char *key = parse_string(p, &klen);
      if (!key) goto bad;
      if (strlen(key) != klen) { fail(p, 0, "NUL in object key"); goto bad; }
      /* CONF-022: the error is at the byte after the repeated name */
      /* kstk is NULL until the first name of the request is pushed (no offset on NULL) */
      const char **names = p->kstk ? p->kstk + kbase : NULL;
      int seen = key_seen(p, &ks, names, p->kn - kbase, key, klen);
      if (seen < 0) { fail(p, 1, "out of memory"); goto bad; }
      if (seen) { fail(p, 0, "duplicate key \"%s\"", key); goto bad; }
      const char **nk = grow(p, p->kstk, &p->kcap, p->kn, sizeof *p->kstk);
      if (!nk) { fail(p, 1, "out of memory"); goto bad; }
      p->kstk = nk;
      p->kstk[p->kn++] = key;
      skip_ws(p);
      if (p->pos >= p->len || p->s[p->pos] != ':') { fail(p, 0, "expected ':'"); goto bad; }
      p->pos++;
    }
    opj *item = parse_value(p);
    if (!item) goto bad;
    opj **ni = grow(p, p->stk, &p->scap, p->sn, sizeof *p->stk);
    if (!ni) { fail(p, 1, "out of memory"); goto bad; }
    p->stk = ni;
    p->stk[p->sn++] = item;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ',') { p->pos++; continue; }
    if (p->pos < p->len && p->s[p->pos] == close) { p->pos++; break; }
    fail(p, 0, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
    goto bad;
  }
  kset_free(p, &ks);
  p->depth--;
  return finish(p, node, base, kbase, is_obj);
bad:
  kset_free(p, &ks);
  return NULL;
}

static opj *parse_value(parser *p) {
  skip_ws(p);
  if (p->pos >= p->len) return fail(p, 0, "unexpected end of text");
  char c = p->s[p->pos];
  /* CONF-037: a value begins at a byte that can begin one; the first value beyond
  ** OPJ_MAX_VALUES stops the reader there, whatever follows. */
  if (c == '{' || c == '[' || c == '"' || c == '-' || is_digit(c) || c == 't' || c == 'f' ||
      c == 'n') {
    if (p->values == OPJ_MAX_VALUES) return fail(p, 1, "more than %d values", OPJ_MAX_VALUES);
    p->values++;
  }
  if (c == '{') return parse_container(p, 1);
  if (c == '[') return parse_container(p, 0);
  if (c == '"') {
    opj *v = new_node(p, OPJ_STR);
    if (!v) return NULL;
    v->str = parse_string(p, &v->len);
    return v->str ? v : NULL;
  }
  if (c == '-' || is_digit(c)) return parse_number(p);
  if (lit(p, "true")) { opj *v = new_node(p, OPJ_BOOL); if (v) v->b = 1; return v; }
  if (lit(p, "false")) return new_node(p, OPJ_BOOL);
  if (lit(p, "null")) return new_node(p, OPJ_NULL);
  return fail(p, 0, "unexpected character");
}

opj_doc *opj_parse_stats(const char *text, size_t len, char *err, size_t errlen, size_t *err_off,
                         int *is_limit, opj_stats *stats) {
  parser p;
  memset(&p, 0, sizeof p);
  p.s = text;
  p.len = len;
  p.err = err;
  p.errlen = errlen;
  if (err && errlen) err[0] = '\0';
  if (is_limit) *is_limit = 0;
  if (err_off) *err_off = 0;
  if (stats) memset(stats, 0, sizeof *stats);
  if (len > OPJ_MAX_TEXT) {
    if (err && errlen) snprintf(err, errlen, "text longer than %d bytes", OPJ_MAX_TEXT);
    if (is_limit) *is_limit = 1;
    return NULL;
  }
  p.doc = calloc(1, sizeof *p.doc);
  if (!p.doc) {
    if (err && errlen) snprintf(err, errlen, "out of memory");
    if (is_limit) *is_limit = 1;
    return NULL;
  }
  acct_add(&p.mem, sizeof *p.doc);
  p.doc->root = parse_value(&p);
  if (p.doc->root) {
    skip_ws(&p);
    if (p.pos != p.len) fail(&p, 0, "text after the value");
  }
  free(p.stk);
  free(p.kstk);
  if (stats) {
    stats->values = p.values;
    stats->key_compares = p.key_compares;
    stats->bytes_peak = p.mem.peak;
  }
  if (p.failed || !p.doc->root) {
    if (is_limit) *is_limit = p.limit;
    if (err_off) *err_off = p.err_off;
    opj_free(p.doc);
    return NULL;
  }
  return p.doc;
}

opj_doc *opj_parse_ex(const char *text, size_t len, char *err, size_t errlen, size_t *err_off,
                      int *is_limit) {
  return opj_parse_stats(text, len, err, errlen, err_off, is_limit, NULL);
}

opj_doc *opj_parse(const char *text, size_t len, char *err, size_t errlen) {
  return opj_parse_ex(text, len, err, errlen, NULL, NULL);
}

/* ------------------------------------------------------------------ typed reads */

const opj *opj_get(const opj *obj, const char *key) {
  if (!obj || obj->type != OPJ_OBJ) return NULL;
  for (size_t i = 0; i < obj->n; i++)
    if (strcmp(obj->keys[i], key) == 0) return obj->items[i];
  return NULL;
}

const opj *opj_at(const opj *arr, size_t i) {
  if (!arr || arr->type != OPJ_ARR || i >= arr->n) return NULL;
  return arr->items[i];
}

/* CONF-031 */
int opj_double(const opj *v, double *out) {
  if (!v) return -1;
  if (v->type == OPJ_NUM) { *out = v->num; return 0; }
  if (v->type != OPJ_STR) return -1;
  if (strcmp(v->str, "NaN") == 0) { *out = NAN; return 0; }
  if (strcmp(v->str, "Infinity") == 0) { *out = INFINITY; return 0; }
  if (strcmp(v->str, "-Infinity") == 0) { *out = -INFINITY; return 0; }
  return -1;
}

/* CONF-032: an integer is a JSON number with an integral value; the value is read
** from the source text when it has no fraction or exponent (exact to 64 bits). */
int opj_int(const opj *v, int64_t lo, int64_t hi, int64_t *out) {
  if (!v || v->type != OPJ_NUM) return -1;
  int64_t r;
  if (v->str && !strpbrk(v->str, ".eE")) {
    errno = 0;
    long long x = strtoll(v->str, NULL, 10);
    if (errno) return -1;
    r = (int64_t)x;
  } else {
    double d = v->num; /* in range first (also rejects NaN), then integral: no libm (MATH-004) */
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) return -1;
    r = (int64_t)d;
    if ((double)r != d) return -1;
  }
  if (r < lo || r > hi) return -1;
  *out = r;
  return 0;
}

/* CONF-033 */
int opj_u64hex(const opj *v, uint64_t *out) {
  if (!v || v->type != OPJ_STR || v->len != 16) return -1;
  uint64_t r = 0;
  for (size_t i = 0; i < 16; i++) {
    char c = v->str[i];
    int h = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
    if (h < 0) return -1;
    r = (r << 4) | (uint64_t)h;
  }
  *out = r;
  return 0;
}

/* CONF-034 */
int opj_hexbytes(const opj *v, uint8_t **out, size_t *len) {
  if (!v || v->type != OPJ_STR || v->len % 2) return -1;
  size_t n = v->len / 2;
  uint8_t *b = malloc(n ? n : 1);
  if (!b) return -1;
  for (size_t i = 0; i < n; i++) {
    char c0 = v->str[2 * i], c1 = v->str[2 * i + 1];
    int h0 = (c0 >= '0' && c0 <= '9') ? c0 - '0' : (c0 >= 'a' && c0 <= 'f') ? c0 - 'a' + 10 : -1;
    int h1 = (c1 >= '0' && c1 <= '9') ? c1 - '0' : (c1 >= 'a' && c1 <= 'f') ? c1 - 'a' + 10 : -1;
    if (h0 < 0 || h1 < 0) { free(b); return -1; }
    b[i] = (uint8_t)(h0 * 16 + h1);
  }
  *out = b;
  *len = n;
  return 0;
}

/* ------------------------------------------------------------------ writer */

void opj_w_init(opj_w *w) { memset(w, 0, sizeof *w); }

void opj_w_free(opj_w *w) {
  free(w->buf);
  memset(w, 0, sizeof *w);
}

static int w_reserve(opj_w *w, size_t n) {
  if (w->oom) return -1;
  if (w->cap - w->len > n) return 0;
  size_t nc = w->cap ? w->cap : 256;
  while (nc - w->len <= n) {
    if (nc > ((size_t)-1) / 2) { w->oom = 1; return -1; }
    nc *= 2;
  }
  char *nb = realloc(w->buf, nc);
  if (!nb) { w->oom = 1; return -1; }
  w->buf = nb;
  w->cap = nc;
  return 0;
}

static void w_raw(opj_w *w, const char *s, size_t n) {
  if (w_reserve(w, n)) return;
  memcpy(w->buf + w->len, s, n);
  w->len += n;
  w->buf[w->len] = '\0';
}

static void w_sep(opj_w *w) {
  if (w->need_comma) w_raw(w, ",", 1);
  w->need_comma = 1;
}

void opj_w_obj_begin(opj_w *w) { w_sep(w); w_raw(w, "{", 1); w->need_comma = 0; }
void opj_w_obj_end(opj_w *w) { w_raw(w, "}", 1); w->need_comma = 1; }
void opj_w_arr_begin(opj_w *w) { w_sep(w); w_raw(w, "[", 1); w->need_comma = 0; }
void opj_w_arr_end(opj_w *w) { w_raw(w, "]", 1); w->need_comma = 1; }

static void w_strbody(opj_w *w, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  w_raw(w, "\"", 1);
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c != '"' && c != '\\') { run++; continue; }
    w_raw(w, s + i - run, run);
    run = 0;
    char e[7];
    switch (c) {
    case '"': w_raw(w, "\\\"", 2); break;
    case '\\': w_raw(w, "\\\\", 2); break;
    case '\n': w_raw(w, "\\n", 2); break;
    case '\r': w_raw(w, "\\r", 2); break;
    case '\t': w_raw(w, "\\t", 2); break;
    default:
      e[0] = '\\'; e[1] = 'u'; e[2] = '0'; e[3] = '0';
      e[4] = hex[c >> 4]; e[5] = hex[c & 15];
      w_raw(w, e, 6);
    }
  }
  w_raw(w, s + n - run, run);
  w_raw(w, "\"", 1);
}

void opj_w_key(opj_w *w, const char *key) {
  w_sep(w);
  w_strbody(w, key, strlen(key));
  w_raw(w, ":", 1);
  w->need_comma = 0;
}

void opj_w_null(opj_w *w) { w_sep(w); w_raw(w, "null", 4); }
void opj_w_bool(opj_w *w, int b) { w_sep(w); w_raw(w, b ? "true" : "false", b ? 4 : 5); }

void opj_w_int(opj_w *w, int64_t v) {
  char b[32];
  int n = snprintf(b, sizeof b, "%lld", (long long)v);
  w_sep(w);
  w_raw(w, b, (size_t)n);
}

/* CONF-030: the shortest decimal text (fewest significant digits, "%.{p}g" for
** p = 1..17) that strtod reads back as the same double; -0 is written "-0". */
size_t opj_format_double(char *buf, size_t size, double v) {
  if (isnan(v)) return (size_t)snprintf(buf, size, "NaN");
  if (isinf(v)) return (size_t)snprintf(buf, size, v > 0 ? "Infinity" : "-Infinity");
  int n = 0;
  for (int prec = 1; prec <= 17; prec++) {
    n = snprintf(buf, size, "%.*g", prec, v);
    if (strtod(buf, NULL) == v) break;
  }
  return (size_t)n;
}

void opj_w_double(opj_w *w, double v) {
  char b[40];
  size_t n = opj_format_double(b, sizeof b, v);
  if (isnan(v) || isinf(v)) { opj_w_str(w, b); return; }
  w_sep(w);
  w_raw(w, b, n);
}

void opj_w_str(opj_w *w, const char *s) { w_sep(w); w_strbody(w, s, strlen(s)); }
void opj_w_strn(opj_w *w, const char *s, size_t n) { w_sep(w); w_strbody(w, s, n); }

void opj_w_u64hex(opj_w *w, uint64_t v) {
  char b[17];
  snprintf(b, sizeof b, "%016llx", (unsigned long long)v);
  opj_w_strn(w, b, 16);
}

void opj_w_hexbytes(opj_w *w, const uint8_t *p, size_t n) {
  static const char hex[] = "0123456789abcdef";
  w_sep(w);
  if (n > ((size_t)-1 - 3) / 2) { w->oom = 1; return; }
  if (w_reserve(w, 2 * n + 2)) return;
  char *o = w->buf + w->len;
  *o++ = '"';
  for (size_t i = 0; i < n; i++) {
    *o++ = hex[p[i] >> 4];
    *o++ = hex[p[i] & 15];
  }
  *o++ = '"';
  w->len += 2 * n + 2;
  w->buf[w->len] = '\0';
}

/* Appends already-formed JSON text (used to splice a handler's members). */
void opj_w_raw(opj_w *w, const char *s, size_t n) { w_raw(w, s, n); }

/* Writes a parsed value back as JSON; numbers keep their source text (exact). */
void opj_w_value(opj_w *w, const opj *v) {
  if (!v) { opj_w_null(w); return; }
  switch (v->type) {
  case OPJ_NULL: opj_w_null(w); break;
  case OPJ_BOOL: opj_w_bool(w, v->b); break;
  case OPJ_NUM:
    if (v->str) { w_sep(w); w_raw(w, v->str, v->len); }
    else opj_w_double(w, v->num);
    break;
  case OPJ_STR: opj_w_strn(w, v->str, v->len); break;
  case OPJ_ARR:
    opj_w_arr_begin(w);
    for (size_t i = 0; i < v->n; i++) opj_w_value(w, v->items[i]);
    opj_w_arr_end(w);
    break;
  case OPJ_OBJ:
    opj_w_obj_begin(w);
    for (size_t i = 0; i < v->n; i++) {
      opj_w_key(w, v->keys[i]);
      opj_w_value(w, v->items[i]);
    }
    opj_w_obj_end(w);
    break;
  }
}
