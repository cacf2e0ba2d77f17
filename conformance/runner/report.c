/*
** report.c -- the conformance report: one line per scenario, a summary line and the plain
** closing line "N passed, N failed" (spec/conformance.md CONF-090); --report writes the
** same in Markdown.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

void report_add(report *rep, scen_result *res) {
  if (rep->n == rep->cap) {
    size_t nc = rep->cap ? rep->cap * 2 : 32;
    scen_result *nr = realloc(rep->r, nc * sizeof *nr);
    if (!nr) { /* keep counting correct even without memory: drop details */
      free(res->details);
      res->details = NULL;
      return;
    }
    rep->r = nr;
    rep->cap = nc;
  }
  rep->r[rep->n++] = *res;
  res->details = NULL;
}

void report_print_line(const report *rep, const scen_result *res) {
  if (rep->quiet && res->passed) return;
  printf("%-4s %-48s checkpoints %zu/%zu  errors %zu  %.0f ms\n", res->passed ? "ok" : "FAIL",
         res->name, res->cps_ok, res->cps_total, res->errors_checked, res->ms);
  if (!res->passed && res->details) {
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

static void totals(const report *rep, size_t *pass, size_t *cps, size_t *cpt, size_t *errs,
                   double *ms) {
  *pass = *cps = *cpt = *errs = 0;
  *ms = 0;
  for (size_t i = 0; i < rep->n; i++) {
    const scen_result *r = &rep->r[i];
    *pass += r->passed != 0;
    *cps += r->cps_ok;
    *cpt += r->cps_total;
    *errs += r->errors_checked;
    *ms += r->ms;
  }
}

size_t report_finish(const report *rep, const char *mode) {
  size_t pass, cps, cpt, errs;
  double ms;
  totals(rep, &pass, &cps, &cpt, &errs, &ms);
  printf("%s: %zu scenarios, checkpoints %zu/%zu, errors checked %zu, %.0f ms\n", mode, rep->n, cps,
         cpt, errs, ms);
  printf("%zu passed, %zu failed\n", pass, rep->n - pass);
  fflush(stdout);
  return rep->n - pass;
}

int report_markdown(const report *rep, const char *path, const char *mode) {
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  size_t pass, cps, cpt, errs;
  double ms;
  totals(rep, &pass, &cps, &cpt, &errs, &ms);
  fprintf(f, "# OnePath conformance report\n\nMode: %s\n\n", mode);
  fprintf(f, "| scenario | result | checkpoints | errors checked | time (ms) |\n");
  fprintf(f, "|---|---|---|---|---|\n");
  for (size_t i = 0; i < rep->n; i++) {
    const scen_result *r = &rep->r[i];
    fprintf(f, "| `%s` | %s | %zu/%zu | %zu | %.0f |\n", r->name, r->passed ? "pass" : "**FAIL**",
            r->cps_ok, r->cps_total, r->errors_checked, r->ms);
  }
  fprintf(f, "\n%zu scenarios, checkpoints %zu/%zu, errors checked %zu, %.0f ms\n\n", rep->n, cps,
          cpt, errs, ms);
  int any = 0;
  for (size_t i = 0; i < rep->n; i++) {
    const scen_result *r = &rep->r[i];
    if (r->passed || !r->details) continue;
    if (!any) fprintf(f, "## Failures\n\n");
    any = 1;
    fprintf(f, "### `%s`\n\n```\n%s\n```\n\n", r->name, r->details);
  }
  fprintf(f, "%zu passed, %zu failed\n", pass, rep->n - pass);
  return fclose(f) == 0 ? 0 : -1;
}

void report_free(report *rep) {
  for (size_t i = 0; i < rep->n; i++) free(rep->r[i].details);
  free(rep->r);
  memset(rep, 0, sizeof *rep);
}
