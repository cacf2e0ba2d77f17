/*
** golden.c -- golden files golden/<group>/<name>.golden (spec/conformance.md CONF-070 ..
** CONF-073): read, compare with a run's checkpoints, write.
**
**   # onepath-golden/0 ... (comment lines start with '#')
**   scenario format/add-two-tiles
**   checkpoint mesh 1234 0123456789abcdef after-add
**     part 64 0011223344556677 header
**     part 512 8899aabbccddeeff tile 0,0,0
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

#define GOLDEN_HEADER "# onepath-golden/0: checkpoints of one conformance scenario. Written by " \
                      "`op-conform regen`; do not edit by hand.\n"

void golden_free(golden *g) {
  for (size_t i = 0; i < g->n; i++) free(g->cps[i].parts);
  free(g->cps);
  memset(g, 0, sizeof *g);
}

static int parse_hash(const char *s, uint64_t *h) {
  if (strlen(s) != 16) return -1;
  uint64_t v = 0;
  for (int i = 0; i < 16; i++) {
    char c = s[i];
    int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
    if (d < 0) return -1;
    v = (v << 4) | (uint64_t)d;
  }
  *h = v;
  return 0;
}

/* Splits "w1 w2 ... rest": n words then the rest of the line (may hold spaces). */
static int split(char *line, char **w, int n, char **rest) {
  char *p = line;
  for (int i = 0; i < n; i++) {
    while (*p == ' ') p++;
    if (!*p) return -1;
    w[i] = p;
    while (*p && *p != ' ') p++;
    if (*p) *p++ = '\0';
  }
  while (*p == ' ') p++;
  *rest = p;
  return 0;
}

int golden_load(const char *path, golden *g, char *msg, size_t msglen) {
  memset(g, 0, sizeof *g);
  FILE *f = fopen(path, "r");
  if (!f) {
    if (errno == ENOENT) return 0;
    snprintf(msg, msglen, "%s: %s", path, strerror(errno));
    return -1;
  }
  char *line = NULL;
  size_t cap = 0, lineno = 0;
  ssize_t got;
  int rc = 1;
  while ((got = getline(&line, &cap, f)) >= 0) {
    lineno++;
    while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r')) line[--got] = '\0';
    char *p = line;
    while (*p == ' ') p++;
    if (!*p || *p == '#' || strncmp(p, "scenario ", 9) == 0) continue;
    char *w[4], *rest;
    if (strncmp(p, "checkpoint ", 11) == 0) {
      uint64_t h;
      if (split(p, w, 4, &rest) || !*rest || parse_hash(w[3], &h)) goto bad;
      golden_cp *ncp = realloc(g->cps, (g->n + 1) * sizeof *ncp);
      if (!ncp) goto bad;
      g->cps = ncp;
      golden_cp *cp = &g->cps[g->n++];
      memset(cp, 0, sizeof *cp);
      snprintf(cp->name, sizeof cp->name, "%s", rest);
      snprintf(cp->kind, sizeof cp->kind, "%s", w[1]);
      cp->len = (size_t)strtoull(w[2], NULL, 10);
      cp->hash = h;
    } else if (strncmp(p, "part ", 5) == 0 && g->n) {
      uint64_t h;
      if (split(p, w, 3, &rest) || !*rest || parse_hash(w[2], &h)) goto bad;
      golden_cp *cp = &g->cps[g->n - 1];
      opc_part *np = realloc(cp->parts, (cp->nparts + 1) * sizeof *np);
      if (!np) goto bad;
      cp->parts = np;
      opc_part *pt = &cp->parts[cp->nparts++];
      memset(pt, 0, sizeof *pt);
      snprintf(pt->name, sizeof pt->name, "%s", rest);
      pt->len = (size_t)strtoull(w[1], NULL, 10);
      pt->hash = h;
    } else {
      goto bad;
    }
  }
  goto done;
bad:
  snprintf(msg, msglen, "%s:%zu: malformed golden line", path, lineno);
  golden_free(g);
  rc = -1;
done:
  free(line);
  fclose(f);
  return rc;
}

static void appendf(char *msg, size_t msglen, const char *fmt, ...) {
  size_t used = strlen(msg);
  if (used + 1 >= msglen) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + used, msglen - used, fmt, ap);
  va_end(ap);
}

/* CONF-073 */
size_t golden_compare(const golden *want, const golden *got, char *msg, size_t msglen) {
  size_t n = want->n < got->n ? want->n : got->n;
  for (size_t i = 0; i < n; i++) {
    const golden_cp *w = &want->cps[i], *g = &got->cps[i];
    if (strcmp(w->name, g->name) || strcmp(w->kind, g->kind)) {
      appendf(msg, msglen, "checkpoint %zu is %s \"%s\" but the golden file has %s \"%s\"", i + 1,
              g->kind, g->name, w->kind, w->name);
      return i;
    }
    if (w->len == g->len && w->hash == g->hash) continue;
    appendf(msg, msglen, "checkpoint \"%s\" (%s): length %zu hash %016llx, golden length %zu hash %016llx",
            g->name, g->kind, g->len, (unsigned long long)g->hash, w->len,
            (unsigned long long)w->hash);
    size_t pn = w->nparts < g->nparts ? w->nparts : g->nparts;
    for (size_t k = 0; k < pn; k++) {
      const opc_part *pw = &w->parts[k], *pg = &g->parts[k];
      if (strcmp(pw->name, pg->name) || pw->len != pg->len || pw->hash != pg->hash) {
        appendf(msg, msglen, "; first differing part: \"%s\" (golden: \"%s\", length %zu vs %zu)",
                pg->name, pw->name, pg->len, pw->len);
        return i;
      }
    }
    if (w->nparts != g->nparts)
      appendf(msg, msglen, "; parts: %zu, golden %zu", g->nparts, w->nparts);
    return i;
  }
  if (want->n != got->n) {
    appendf(msg, msglen, "the run made %zu checkpoints, the golden file has %zu", got->n, want->n);
    return n;
  }
  return n;
}

void str_appendf(char **s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (k < 0) return;
  size_t old = *s ? strlen(*s) : 0;
  char *ns = realloc(*s, old + (size_t)k + 1);
  if (!ns) return;
  va_start(ap, fmt);
  vsnprintf(ns + old, (size_t)k + 1, fmt, ap);
  va_end(ap);
  *s = ns;
}

char *golden_text(const char *scenario, const golden *g) {
  char *s = NULL;
  str_appendf(&s, "%sscenario %s\n", GOLDEN_HEADER, scenario);
  for (size_t i = 0; i < g->n; i++) {
    const golden_cp *c = &g->cps[i];
    str_appendf(&s, "checkpoint %s %zu %016llx %s\n", c->kind, c->len, (unsigned long long)c->hash,
                c->name);
    for (size_t k = 0; k < c->nparts; k++)
      str_appendf(&s, "  part %zu %016llx %s\n", c->parts[k].len,
                  (unsigned long long)c->parts[k].hash, c->parts[k].name);
  }
  return s;
}

int golden_write(const char *path, const char *scenario, const golden *g) {
  char *text = golden_text(scenario, g);
  if (!text) return -1;
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  int rc = -1;
  if (f) {
    size_t n = strlen(text);
    int ok = fwrite(text, 1, n, f) == n;
    if (fclose(f) == 0 && ok && rename(tmp, path) == 0) rc = 0;
    else remove(tmp);
  }
  free(text);
  return rc;
}
