/*
** xmlcheck.c -- a minimal well-formedness check for the SVG files of `onepath svg`
** (tools/tests): one root element, every start tag closed in order, attributes quoted,
** only the five predefined entities and numeric references, and the root is <svg>.
** Exit 0 when well formed, 1 with a message naming the byte offset otherwise.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXDEPTH 256

static int bad(const char *file, long at, const char *why) {
  fprintf(stderr, "%s: not well formed at byte %ld: %s\n", file, at, why);
  return 1;
}

static int name_char(int c) { return isalnum(c) || c == '_' || c == '-' || c == ':' || c == '.'; }

/* Checks the entity reference at s[i] == '&'; returns its length or 0. */
static size_t entity(const char *s, size_t i, size_t n) {
  static const char *const ok[] = {"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"};
  for (int k = 0; k < 5; k++)
    if (n - i >= strlen(ok[k]) && !strncmp(s + i, ok[k], strlen(ok[k]))) return strlen(ok[k]);
  if (n - i >= 4 && s[i + 1] == '#') {
    size_t j = i + 2;
    while (j < n && isalnum((unsigned char)s[j])) j++;
    if (j < n && s[j] == ';' && j > i + 2) return j - i + 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: xmlcheck FILE\n"); return 2; }
  FILE *f = fopen(argv[1], "rb");
  if (!f) { fprintf(stderr, "cannot open %s\n", argv[1]); return 2; }
  size_t cap = 1 << 20, n = 0;
  char *s = malloc(cap);
  size_t got;
  while (s && (got = fread(s + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) { cap *= 2; char *t = realloc(s, cap); if (!t) free(s); s = t; }
  }
  fclose(f);
  if (!s) return 2;
  char stack[MAXDEPTH][64]; /* 16 KiB on the stack: no static state */
  int depth = 0, roots = 0, rc = 0;
  size_t i = 0;
  while (i < n && !rc) {
    if (s[i] == '<') {
      if (!strncmp(s + i, "<?", 2)) {
        char *e = strstr(s + i, "?>");
        if (!e) { rc = bad(argv[1], (long)i, "unterminated <?"); break; }
        i = (size_t)(e - s) + 2;
      } else if (!strncmp(s + i, "<!--", 4)) {
        char *e = strstr(s + i, "-->");
        if (!e) { rc = bad(argv[1], (long)i, "unterminated comment"); break; }
        i = (size_t)(e - s) + 3;
      } else if (s[i + 1] == '/') {
        size_t j = i + 2, k = 0;
        char nm[64];
        while (j < n && name_char((unsigned char)s[j]) && k < 63) nm[k++] = s[j++];
        nm[k] = 0;
        while (j < n && isspace((unsigned char)s[j])) j++;
        if (j >= n || s[j] != '>') rc = bad(argv[1], (long)i, "bad end tag");
        else if (depth == 0 || strcmp(stack[depth - 1], nm)) rc = bad(argv[1], (long)i, "end tag does not match");
        else { depth--; i = j + 1; }
      } else {
        size_t j = i + 1, k = 0;
        char nm[64];
        while (j < n && name_char((unsigned char)s[j]) && k < 63) nm[k++] = s[j++];
        nm[k] = 0;
        if (k == 0) { rc = bad(argv[1], (long)i, "empty tag name"); break; }
        if (depth == 0) {
          if (++roots > 1) { rc = bad(argv[1], (long)i, "more than one root element"); break; }
          if (strcmp(nm, "svg")) { rc = bad(argv[1], (long)i, "root element is not <svg>"); break; }
        }
        for (;;) { /* attributes */
          while (j < n && isspace((unsigned char)s[j])) j++;
          if (j >= n) { rc = bad(argv[1], (long)i, "unterminated start tag"); break; }
          if (s[j] == '>' || (s[j] == '/' && j + 1 < n && s[j + 1] == '>')) break;
          size_t a0 = j;
          while (j < n && name_char((unsigned char)s[j])) j++;
          if (j == a0 || j >= n || s[j] != '=') { rc = bad(argv[1], (long)j, "bad attribute"); break; }
          j++;
          if (j >= n || (s[j] != '"' && s[j] != '\'')) { rc = bad(argv[1], (long)j, "unquoted attribute"); break; }
          char q = s[j++];
          while (j < n && s[j] != q) {
            if (s[j] == '<') { rc = bad(argv[1], (long)j, "'<' in attribute"); break; }
            if (s[j] == '&') { size_t l = entity(s, j, n); if (!l) { rc = bad(argv[1], (long)j, "bad entity"); break; } j += l; }
            else j++;
          }
          if (rc) break;
          if (j >= n) { rc = bad(argv[1], (long)a0, "unterminated attribute"); break; }
          j++;
        }
        if (rc) break;
        if (s[j] == '/') i = j + 2;
        else {
          if (depth == MAXDEPTH) { rc = bad(argv[1], (long)i, "too deep"); break; }
          snprintf(stack[depth++], 64, "%s", nm);
          i = j + 1;
        }
      }
    } else if (s[i] == '&') {
      size_t l = entity(s, i, n);
      if (!l) rc = bad(argv[1], (long)i, "bad entity");
      i += l ? l : 1;
    } else {
      if (depth == 0 && !isspace((unsigned char)s[i])) rc = bad(argv[1], (long)i, "text outside the root");
      i++;
    }
  }
  if (!rc && depth) rc = bad(argv[1], (long)n, "unclosed elements at the end");
  if (!rc && roots != 1) rc = bad(argv[1], (long)n, "no root element");
  free(s);
  if (!rc) printf("%s: well formed\n", argv[1]);
  return rc;
}
