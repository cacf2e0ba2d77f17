/*
** fuzz_obj_text.c -- untrusted Wavefront OBJ text (ObjReader.Parse, build3d-spans.md
** SPAN-080 .. SPAN-088; ref/build3d/spans/obj.c).
**
** Oracles, for each input X (the bytes as they are: NULs, CRs, non-ASCII included):
**  1. op_obj_parse(X) fails: the error's kind is the returned status and one of format,
**     out_of_range, limit (SPAN-087 table); the field is `line N` with N in 1 .. the number of
**     lines of X (SPAN-080's numbering); the value is at most 63 bytes and occurs on line N,
**     except for a NUL byte (SPAN-087: value "00", and line N holds a NUL byte); and *out is
**     left untouched (no soup on failure).
**  2. or it succeeds, and the soup passes op_soup_validate (SPAN-088: by construction);
**  3. line numbering (SPAN-080, SPAN-081): "\n" + X, one empty line more at the front, gives
**     the same soup, or the same error kind and value at `line N+1`; X + "\n# c", a comment
**     line more at the end, gives exactly X's answer;
**  4. writer round trip (the kit has no OBJ writer; this one is the harness's): write the
**     soup as `v %.17g %.17g %.17g` and `f a b c` lines (1-based), parse that text: the same
**     soup, bit for bit (SPAN-084: correct rounding, so %.17g round-trips; -0.0 prints as -0),
**     and the same canonical triangle bytes (op_soup_save, LVL-010).
** Leaks are LeakSanitizer's (libFuzzer build). "ORACLE FAILED: ..." and abort on a failure.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onepath.h"
#include "onepath_build3d.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const op_error *e) {
  fprintf(stderr, "ORACLE FAILED: %s", what);
  if (e) fprintf(stderr, " [%s %s=%s: %s]", op_status_name(e->kind), e->field, e->value, e->message);
  fputc('\n', stderr);
  abort();
}

/* The result of one parse: status, error and soup. */
typedef struct res {
  op_status st;
  op_error e;
  op_trimesh m;
} res;

static res parse(const char *text, size_t len) {
  res r;
  memset(&r, 0, sizeof r);
  memset(&r.m, 0xA5, sizeof r.m); /* must stay so on failure */
  r.st = op_obj_parse(text, len, &r.m, &r.e);
  return r;
}

static void res_free(res *r) {
  if (r->st == OP_OK) op_trimesh_free(&r->m);
}

static int same_soup(const op_trimesh *a, const op_trimesh *b) {
  return a->nverts == b->nverts && a->ntris == b->ntris &&
         (a->nverts == 0 || memcmp(a->verts, b->verts, 3 * (size_t)a->nverts * sizeof *a->verts) == 0) &&
         (a->ntris == 0 || memcmp(a->tris, b->tris, 3 * (size_t)a->ntris * sizeof *a->tris) == 0);
}

/* Line n (1-based) of the text: start and length (without its line feed). 0 when absent. */
static int line_of(const char *t, size_t len, size_t n, size_t *s, size_t *l) {
  size_t pos = 0, k = 1;
  while (k < n) {
    const char *nl = memchr(t + pos, '\n', len - pos);
    if (!nl) return 0;
    pos = (size_t)(nl - t) + 1;
    k++;
  }
  if (pos >= len) return 0; /* SPAN-080: a line feed at the end opens no line */
  const char *nl = memchr(t + pos, '\n', len - pos);
  *s = pos;
  *l = nl ? (size_t)(nl - t) - pos : len - pos;
  return 1;
}

static int contains(const char *h, size_t hn, const char *nd, size_t nn) {
  if (nn > hn) return 0;
  for (size_t i = 0; i + nn <= hn; i++)
    if (memcmp(h + i, nd, nn) == 0) return 1;
  return 0;
}

/* Oracle 1; returns N. */
static size_t check_error(const char *t, size_t len, const res *r) {
  const op_error *e = &r->e;
  if (e->kind != r->st) fail("error kind differs from the status", e);
  if (r->st != OP_E_FORMAT && r->st != OP_E_RANGE && r->st != OP_E_LIMIT)
    fail("error kind is not format, out_of_range or limit", e);
  unsigned long long n = 0;
  char tail = 0;
  if (sscanf(e->field, "line %llu%c", &n, &tail) != 1 || n == 0)
    fail("error field is not `line N` (SPAN-087)", e);
  size_t s = 0, l = 0;
  if (!line_of(t, len, (size_t)n, &s, &l)) fail("error names a line the text does not have", e);
  size_t vn = strlen(e->value);
  if (vn > 63) fail("error value longer than 63 bytes (SPAN-087)", e);
  int nul = memchr(t + s, '\0', l) != NULL; /* SPAN-080: a NUL byte is its line's error */
  if (nul && strcmp(e->value, "00") != 0) fail("a line with a NUL byte: value is not 00", e);
  if (!nul && (!vn || !contains(t + s, l, e->value, vn)))
    fail("error value is not on the line it names", e);
  const unsigned char *p = (const unsigned char *)&r->m;
  for (size_t i = 0; i < sizeof r->m; i++)
    if (p[i] != 0xA5) fail("a failed parse wrote its output", e);
  return (size_t)n;
}

/* Oracle 4: the harness's writer. Returns malloc'd text. */
static char *write_obj(const op_trimesh *m, size_t *len) {
  size_t cap = 16 + 80 * (size_t)m->nverts + 40 * (size_t)m->ntris, n = 0;
  char *b = malloc(cap);
  if (!b) abort();
  for (uint32_t i = 0; i < m->nverts; i++)
    n += (size_t)snprintf(b + n, cap - n, "v %.17g %.17g %.17g\n", m->verts[3 * i],
                          m->verts[3 * i + 1], m->verts[3 * i + 2]);
  for (uint32_t i = 0; i < m->ntris; i++)
    n += (size_t)snprintf(b + n, cap - n, "f %u %u %u\n", m->tris[3 * i] + 1, m->tris[3 * i + 1] + 1,
                          m->tris[3 * i + 2] + 1);
  *len = n;
  return b;
}

static void check_ok(const res *r) {
  op_soup soup = op_trimesh_soup(&r->m);
  op_error e;
  if (op_soup_validate(&soup, &e) != OP_OK) fail("the parsed soup fails op_soup_validate (SPAN-088)", &e);
  size_t wl = 0;
  char *w = write_obj(&r->m, &wl);
  res r2 = parse(w, wl);
  if (r2.st != OP_OK) fail("the written OBJ does not parse", &r2.e);
  if (!same_soup(&r->m, &r2.m)) fail("parse(write(parse(X))) differs from parse(X)", NULL);
  op_bytes b1 = {0}, b2 = {0};
  op_soup soup2 = op_trimesh_soup(&r2.m);
  if (op_soup_save(&soup, &b1, &e) != OP_OK || op_soup_save(&soup2, &b2, &e) != OP_OK)
    fail("op_soup_save of a parsed soup failed", &e);
  if (b1.len != b2.len || (b1.len && memcmp(b1.data, b2.data, b1.len) != 0))
    fail("canonical triangle bytes differ after the writer round trip", NULL);
  op_bytes_free(&b1);
  op_bytes_free(&b2);
  res_free(&r2);
  free(w);
}

/* Oracle 3: r2 is the parse of X with one line more at the front (shift 1) or the end (0). */
static void check_same_answer(const res *r, const res *r2, size_t n, size_t shift, const char *what) {
  if (r2->st != r->st) fail(what, &r2->e);
  if (r->st == OP_OK) {
    if (!same_soup(&r->m, &r2->m)) fail(what, NULL);
    return;
  }
  char want[48];
  snprintf(want, sizeof want, "line %zu", n + shift);
  if (strcmp(r2->e.field, want) != 0 || strcmp(r2->e.value, r->e.value) != 0) fail(what, &r2->e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *t = (const char *)data;
  res r = parse(t, size);
  size_t n = 0;
  if (getenv("OP_FUZZ_VERBOSE")) /* what each input did, for corpus work */
    fprintf(stderr, "%zu bytes: %s %s %s (%u verts, %u tris)\n", size,
            r.st ? op_status_name(r.st) : "ok", r.st ? r.e.field : "", r.st ? r.e.value : "",
            r.st ? 0u : r.m.nverts, r.st ? 0u : r.m.ntris);
  if (r.st != OP_OK) n = check_error(t, size, &r);
  else check_ok(&r);
  char *x = malloc(size + 8);
  if (!x) abort();
  x[0] = '\n';
  if (size) memcpy(x + 1, data, size);
  res r2 = parse(x, size + 1);
  check_same_answer(&r, &r2, n, 1, "an empty first line changes the answer (SPAN-080)");
  res_free(&r2);
  if (size) memcpy(x, data, size);
  memcpy(x + size, "\n# c", 4);
  r2 = parse(x, size + 4);
  check_same_answer(&r, &r2, n, 0, "a comment line at the end changes the answer (SPAN-081)");
  res_free(&r2);
  free(x);
  res_free(&r);
  return 0;
}
