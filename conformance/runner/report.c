/*
** report.c -- the conformance report: one line per scenario, a summary line, a summary per
** scenario group and the plain closing line "N passed, N failed" (spec/conformance.md
** CONF-056, CONF-090), followed by the skipped and expected-failure counts when there are
** any (CONF-055, CONF-057); --report writes the same in Markdown.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

/* CONF-055, CONF-057: skipped when it needs an op the port lacks; a failure named in the
** expected-failures file is an expected failure, a pass named there an unexpected pass. */
int scen_verdict(const scen_result *res) {
  if (res->needs) return V_SKIP;
  if (res->expected) return res->passed ? V_XPASS : V_XFAIL;
  return res->passed ? V_PASS : V_FAIL;
}

static const char *const verdict_word[] = {"ok", "FAIL", "skip", "xfail", "XPASS"};

void report_add(report *rep, scen_result *res) {
  if (rep->n == rep->cap) {
    size_t nc = rep->cap ? rep->cap * 2 : 32;
    scen_result *nr = realloc(rep->r, nc * sizeof *nr);
    if (!nr) { /* keep counting correct even without memory: drop details */
      free(res->details);
      free(res->ops);
      free(res->needs);
      res->details = res->ops = res->needs = NULL;
      return;
    }
    rep->r = nr;
    rep->cap = nc;
  }
  rep->r[rep->n++] = *res;
  res->details = res->ops = res->needs = NULL;
}

void report_print_line(const report *rep, const scen_result *res) {
  int v = scen_verdict(res);
  if (rep->quiet && (v == V_PASS || v == V_SKIP || v == V_XFAIL)) return;
  if (v == V_SKIP) {
    printf("%-4s %-48s skipped (needs %s)\n", verdict_word[v], res->name, res->needs);
    fflush(stdout);
    return;
  }
  printf("%-4s %-48s checkpoints %zu/%zu  errors %zu  %.0f ms%s\n", verdict_word[v], res->name,
         res->cps_ok, res->cps_total, res->errors_checked, res->ms,
         v == V_XFAIL   ? "  (expected failure)"
         : v == V_XPASS ? "  now passes: remove it from the expected-failures file" : "");
  if (v == V_FAIL && res->details) {
    const char *p = res->details;
    while (*p) {
      const char *e = strchr(p, '\n');
      size_t n = e ? (size_t)(e - p) : strlen(p);
      printf("       %.*s\n", (int)n, p);
      p += n + (e ? 1 : 0);
    }
  }
  fflush(stdout);
}

/* Counts by verdict: [V_PASS] .. [V_XPASS]. */
typedef struct tally {
  size_t v[5];
} tally;

static void totals(const report *rep, tally *t, size_t *cps, size_t *cpt, size_t *errs,
                   double *ms) {
  memset(t, 0, sizeof *t);
  *cps = *cpt = *errs = 0;
  *ms = 0;
  for (size_t i = 0; i < rep->n; i++) {
    const scen_result *r = &rep->r[i];
    t->v[scen_verdict(r)]++;
    *cps += r->cps_ok;
    *cpt += r->cps_total;
    *errs += r->errors_checked;
    *ms += r->ms;
  }
}

/* CONF-056: the failed count holds the unexpected passes (CONF-057). */
static size_t n_failed(const tally *t) { return t->v[V_FAIL] + t->v[V_XPASS]; }

static void closing_line(FILE *f, const tally *t) {
  fprintf(f, "%zu passed, %zu failed", t->v[V_PASS], n_failed(t));
  if (t->v[V_SKIP]) fprintf(f, ", %zu skipped", t->v[V_SKIP]);
  if (t->v[V_XFAIL]) fprintf(f, ", %zu expected failures", t->v[V_XFAIL]);
  fputc('\n', f);
}

/* Group of a "group/name": its length. */
static size_t group_len(const char *name) {
  const char *s = strchr(name, '/');
  return s ? (size_t)(s - name) : strlen(name);
}

/* CONF-056: one line (or table row) per scenario group, in the order the groups ran. */
static void group_summary(FILE *f, const report *rep, int md) {
  if (md) fprintf(f, "| group | claimed | passed | failed | expected failures | skipped |\n|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < rep->n; i++) {
    const char *g = rep->r[i].name;
    size_t gl = group_len(g), seen = 0;
    for (size_t j = 0; j < i && !seen; j++)
      seen = group_len(rep->r[j].name) == gl && memcmp(rep->r[j].name, g, gl) == 0;
    if (seen) continue;
    tally t;
    memset(&t, 0, sizeof t);
    for (size_t j = i; j < rep->n; j++)
      if (group_len(rep->r[j].name) == gl && memcmp(rep->r[j].name, g, gl) == 0)
        t.v[scen_verdict(&rep->r[j])]++;
    size_t claimed = t.v[V_PASS] + t.v[V_FAIL] + t.v[V_XFAIL] + t.v[V_XPASS];
    if (md)
      fprintf(f, "| `%.*s` | %zu | %zu | %zu | %zu | %zu |\n", (int)gl, g, claimed, t.v[V_PASS],
              n_failed(&t), t.v[V_XFAIL], t.v[V_SKIP]);
    else
      fprintf(f, "  %-12.*s claimed %zu, passed %zu, failed %zu, expected failures %zu, skipped %zu\n",
              (int)gl, g, claimed, t.v[V_PASS], n_failed(&t), t.v[V_XFAIL], t.v[V_SKIP]);
  }
}

size_t report_finish(const report *rep, const char *mode) {
  size_t cps, cpt, errs;
  double ms;
  tally t;
  totals(rep, &t, &cps, &cpt, &errs, &ms);
  printf("%s: %zu scenarios, checkpoints %zu/%zu, errors checked %zu, %.0f ms\n", mode, rep->n, cps,
         cpt, errs, ms);
  printf("by group:\n");
  group_summary(stdout, rep, 0);
  closing_line(stdout, &t);
  fflush(stdout);
  return n_failed(&t);
}

int report_markdown(const report *rep, const char *path, const char *mode) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  size_t cps, cpt, errs;
  double ms;
  tally t;
  totals(rep, &t, &cps, &cpt, &errs, &ms);
  static const char *const md_word[] = {"pass", "**FAIL**", "skipped", "expected failure",
                                        "**unexpected pass**"};
  fprintf(f, "# OnePath conformance report\n\nMode: %s\n\n", mode);
  fprintf(f, "| scenario | result | checkpoints | errors checked | time (ms) |\n");
  fprintf(f, "|---|---|---|---|---|\n");
  for (size_t i = 0; i < rep->n; i++) {
    const scen_result *r = &rep->r[i];
    int v = scen_verdict(r);
    if (v == V_SKIP)
      fprintf(f, "| `%s` | skipped (needs %s) | | | |\n", r->name, r->needs);
    else
      fprintf(f, "| `%s` | %s | %zu/%zu | %zu | %.0f |\n", r->name, md_word[v], r->cps_ok,
              r->cps_total, r->errors_checked, r->ms);
  }
  fprintf(f, "\n%zu scenarios, checkpoints %zu/%zu, errors checked %zu, %.0f ms\n\n", rep->n, cps,
          cpt, errs, ms);
  group_summary(f, rep, 1);
  fprintf(f, "\n");
  int any = 0;
  for (size_t i = 0; i < rep->n; i++) {
    const scen_result *r = &rep->r[i];
    int v = scen_verdict(r);
    if ((v != V_FAIL && v != V_XFAIL) || !r->details) continue;
    if (!any) fprintf(f, "## Failures\n\n");
    any = 1;
    fprintf(f, "### `%s`%s\n\n```\n%s\n```\n\n", r->name, v == V_XFAIL ? " (expected)" : "",
            r->details);
  }
  closing_line(f, &t);
  return fclose(f) == 0 ? 0 : -1;
}

void report_free(report *rep) {
  for (size_t i = 0; i < rep->n; i++) {
    free(rep->r[i].details);
    free(rep->r[i].ops);
    free(rep->r[i].needs);
  }
  free(rep->r);
  memset(rep, 0, sizeof *rep);
}
