/*
** obj.c -- the Wavefront OBJ reader (ObjReader.Parse): v and f lines into a triangle
** soup. Implements spec/build3d-spans.md section 2, "Wavefront OBJ reader"
** (SPAN-080 .. SPAN-088).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onepath_build3d.h"
#include "core/internal.h"

typedef struct tok {
  const char *p;
  size_t n;
} tok;

#define OBJ_MAX_TOKENS_SHOWN 63

/* SPAN-087: field "line N", value the token cut to 63 bytes. */
static op_status obj_fail(op_error *err, op_status kind, size_t line, const tok *t,
                          const char *why) {
  char field[48], val[OBJ_MAX_TOKENS_SHOWN + 1];
  size_t n = t ? t->n : 0;
  if (n > OBJ_MAX_TOKENS_SHOWN) n = OBJ_MAX_TOKENS_SHOWN;
  if (n) memcpy(val, t->p, n);
  val[n] = '\0';
  snprintf(field, sizeof field, "line %zu", line);
  return op_fail(err, kind, field, val, "%s", why);
}

/* SPAN-084: the decimal syntax; returns 1 when t has that form. */
static int is_number(const tok *t) {
  size_t i = 0, n = t->n, d1 = 0, d2 = 0;
  const char *p = t->p;
  if (i < n && (p[i] == '+' || p[i] == '-')) i++;
  while (i < n && p[i] >= '0' && p[i] <= '9') { i++; d1++; }
  if (i < n && p[i] == '.') {
    i++;
    while (i < n && p[i] >= '0' && p[i] <= '9') { i++; d2++; }
  }
  if (d1 + d2 == 0) return 0;
  if (i < n && (p[i] == 'e' || p[i] == 'E')) {
    size_t de = 0;
    i++;
    if (i < n && (p[i] == '+' || p[i] == '-')) i++;
    while (i < n && p[i] >= '0' && p[i] <= '9') { i++; de++; }
    if (de == 0) return 0;
  }
  return i == n;
}

/* SPAN-084: correctly rounded conversion (strtod of the C library, which rounds to
** nearest on every conforming C11 host in the "C" locale), then the +-2^21 domain. */
static op_status read_number(const tok *t, size_t line, double *out, op_error *err) {
  if (!is_number(t)) return obj_fail(err, OP_E_FORMAT, line, t, "not a number");
  char small[128];
  char *buf = t->n < sizeof small ? small : malloc(t->n + 1);
  if (!buf) return obj_fail(err, OP_E_NOMEM, line, t, "out of memory");
  memcpy(buf, t->p, t->n);
  buf[t->n] = '\0';
  double v = strtod(buf, NULL);
  if (buf != small) free(buf);
  if (!(v >= -OP_COORD_LIMIT && v <= OP_COORD_LIMIT))
    return obj_fail(err, OP_E_RANGE, line, t, "a coordinate must be within +-2^21");
  *out = v;
  return OP_OK;
}

/* An integer of a vertex reference: optional sign, digits. Magnitudes beyond 2^32 are
** saturated (they are out of bounds anyway). Returns the index after it, or 0 on error. */
static size_t read_int(const char *p, size_t i, size_t n, int64_t *out) {
  int neg = 0;
  if (i < n && (p[i] == '+' || p[i] == '-')) { neg = p[i] == '-'; i++; }
  size_t d = 0;
  int64_t v = 0;
  while (i < n && p[i] >= '0' && p[i] <= '9') {
    if (v < ((int64_t)1 << 33)) v = v * 10 + (p[i] - '0');
    i++;
    d++;
  }
  if (d == 0) return 0;
  *out = neg ? -v : v;
  return i;
}

/* SPAN-083: i, i/t, i//n, i/t/n; returns 1 on the right form with *iv set. */
static int parse_ref(const tok *t, int64_t *iv) {
  const char *p = t->p;
  size_t n = t->n, i;
  int64_t dummy;
  if (!(i = read_int(p, 0, n, iv))) return 0;
  if (i == n) return 1;
  if (p[i] != '/') return 0;
  i++;
  if (i < n && p[i] == '/') {
    i++;
    if (!(i = read_int(p, i, n, &dummy))) return 0;
    return i == n;
  }
  if (!(i = read_int(p, i, n, &dummy))) return 0;
  if (i == n) return 1;
  if (p[i] != '/') return 0;
  if (!(i = read_int(p, i + 1, n, &dummy))) return 0;
  return i == n;
}


static int grow_verts(op_trimesh *m) {
  if (m->nverts < m->cap_verts) return 0;
  uint32_t nc = m->cap_verts ? m->cap_verts * 2 : 64;
  double *nv = realloc(m->verts, 3 * (size_t)nc * sizeof *nv);
  if (!nv) return -1;
  m->verts = nv;
  m->cap_verts = nc;
  return 0;
}

static int grow_tris(op_trimesh *m) {
  if (m->ntris < m->cap_tris) return 0;
  uint32_t nc = m->cap_tris ? m->cap_tris * 2 : 64;
  uint32_t *nt = realloc(m->tris, 3 * (size_t)nc * sizeof *nt);
  if (!nt) return -1;
  m->tris = nt;
  m->cap_tris = nc;
  return 0;
}

#define OBJ_MAX_LINE_TOKENS 4096

/* Tokens of one line (SPAN-081); returns the count, at most cap (extra tokens of
** longer lines are counted but not stored; callers treat them as a format error). */
static size_t tokenize(const char *p, size_t n, tok *toks, size_t cap) {
  size_t k = 0, i = 0;
  while (i < n) {
    while (i < n && (p[i] == ' ' || p[i] == '\t')) i++;
    if (i == n) break;
    size_t s = i;
    while (i < n && p[i] != ' ' && p[i] != '\t') i++;
    if (k < cap) {
      toks[k].p = p + s;
      toks[k].n = i - s;
    }
    k++;
  }
  return k;
}

static op_status parse_line(op_trimesh *m, const char *p, size_t n, size_t line, tok *toks,
                            op_error *err) {
  size_t nt = tokenize(p, n, toks, OBJ_MAX_LINE_TOKENS);
  if (nt == 0) return OP_OK;
  int is_v = toks[0].n == 1 && toks[0].p[0] == 'v';
  int is_f = toks[0].n == 1 && toks[0].p[0] == 'f';
  if (!is_v && !is_f) return OP_OK; /* SPAN-081 */
  if (nt > OBJ_MAX_LINE_TOKENS)
    return obj_fail(err, OP_E_LIMIT, line, &toks[0], "too many tokens on one line");
  if (nt < 4)
    return obj_fail(err, OP_E_FORMAT, line, &toks[0],
                    is_v ? "a v line needs x, y and z" : "an f line needs three vertices");
  if (is_v) { /* SPAN-082 */
    double xyz[3];
    for (size_t k = 1; k < nt; k++) {
      double v = 0;
      op_status st = read_number(&toks[k], line, &v, err);
      if (st != OP_OK) return st;
      if (k <= 3) xyz[k - 1] = v;
    }
    if (m->nverts >= OP_SOUP_MAX_VERTS) /* SPAN-086 */
      return obj_fail(err, OP_E_LIMIT, line, &toks[0], "more than 2^24 vertices");
    if (grow_verts(m)) return obj_fail(err, OP_E_NOMEM, line, &toks[0], "out of memory");
    memcpy(&m->verts[3 * (size_t)m->nverts], xyz, sizeof xyz);
    m->nverts++;
    return OP_OK;
  }
  /* SPAN-083: resolve every reference first, then fan (SPAN-085). */
  uint32_t first = 0, prev = 0;
  for (size_t k = 1; k < nt; k++) {
    int64_t i;
    if (!parse_ref(&toks[k], &i))
      return obj_fail(err, OP_E_FORMAT, line, &toks[k], "not a vertex reference");
    int64_t V = m->nverts, r;
    if (i > 0 && i <= V) r = i - 1;
    else if (i < 0 && -i <= V) r = V + i;
    else { /* the message says how many vertices the reference may name */
      char why[160];
      if (snprintf(why, sizeof why, "vertex reference out of bounds: %lld vertices are defined "
                   "above this line (1..%lld or -1..-%lld)", (long long)V, (long long)V,
                   (long long)V) >= (int)sizeof why)
        why[sizeof why - 1] = '\0';
      if (V == 0) snprintf(why, sizeof why, "vertex reference out of bounds: no vertex is "
                                            "defined above this line");
      return obj_fail(err, OP_E_FORMAT, line, &toks[k], why);
    }
    if (k >= 3) {
      if (m->ntris >= OP_SOUP_MAX_TRIS)
        return obj_fail(err, OP_E_LIMIT, line, &toks[k], "more than 2^24 triangles");
      if (grow_tris(m)) return obj_fail(err, OP_E_NOMEM, line, &toks[k], "out of memory");
      uint32_t *t = &m->tris[3 * (size_t)m->ntris];
      t[0] = first;
      t[1] = prev;
      t[2] = (uint32_t)r;
      m->ntris++;
    }
    if (k == 1) first = (uint32_t)r;
    prev = (uint32_t)r;
  }
  return OP_OK;
}

op_status op_obj_parse(const char *text, size_t len, op_trimesh *out, op_error *err) {
  op_trimesh m;
  memset(&m, 0, sizeof m);
  tok *toks = malloc(OBJ_MAX_LINE_TOKENS * sizeof *toks);
  if (!toks) return opc_nomem(err, "text");
  size_t pos = 0, line = 0;
  op_status st = OP_OK;
  while (pos < len && st == OP_OK) { /* SPAN-080 */
    line++;
    size_t e = pos;
    while (e < len && text[e] != '\n') e++;
    size_t n = e - pos;
    if (n > 0 && text[pos + n - 1] == '\r') n--;
    /* SPAN-080: a NUL byte anywhere on the line (a comment included) is the line's error,
    ** before any other check of it; SPAN-087: its value is the byte, "00" (CONF-013) */
    const char *nul = memchr(text + pos, '\0', n);
    if (nul) {
      char why[64];
      snprintf(why, sizeof why, "NUL byte in the text (byte %zu of the line)",
               (size_t)(nul - (text + pos)) + 1);
      const tok zero = {"00", 2};
      st = obj_fail(err, OP_E_FORMAT, line, &zero, why);
      break;
    }
    const char *hash = memchr(text + pos, '#', n); /* SPAN-081 */
    if (hash) n = (size_t)(hash - (text + pos));
    st = parse_line(&m, text + pos, n, line, toks, err);
    pos = e + 1;
  }
  free(toks);
  if (st != OP_OK) {
    op_trimesh_free(&m);
    return st;
  }
  *out = m; /* SPAN-088 */
  return OP_OK;
}
