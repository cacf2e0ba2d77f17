/*
** main.c -- op-conform, the conformance runner (spec/conformance.md; docs/porting.md).
**
**   op-conform run [--port EXE] [--filter SUBSTR] [--quiet] [--report FILE.md]
**   op-conform regen [--filter SUBSTR]
**   op-conform list
**   op-conform export-traces DIR [--filter SUBSTR]
**   op-conform check-traces DIR --port EXE [--filter SUBSTR] [--quiet] [--report FILE.md]
**   op-conform selftest      (the runner's own comparison rules)
**
** Common option --source DIR names the kit's source tree; without it the working
** directory is used when it holds conformance/lib/conform.lua, else the tree the runner
** was built from (OP_SOURCE_DIR). Each scenario runs on a fresh session (a fresh port
** process with --port).
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "conform.h"

#ifndef OP_SOURCE_DIR
#define OP_SOURCE_DIR "."
#endif

typedef struct opts {
  const char *cmd, *port, *filter, *report, *dir, *source;
  int quiet;
} opts;

static int usage(void) {
  fprintf(stderr,
          "usage: op-conform run [--port EXE] [--filter SUBSTR] [--quiet] [--report FILE.md]\n"
          "       op-conform regen [--filter SUBSTR]\n"
          "       op-conform list\n"
          "       op-conform export-traces DIR [--filter SUBSTR]\n"
          "       op-conform check-traces DIR --port EXE [--filter SUBSTR] [--quiet] [--report FILE.md]\n"
          "       op-conform selftest\n"
          "options for all: --source DIR (the kit's source tree)\n");
  return 2;
}

static int parse_opts(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  if (argc < 2) return -1;
  o->cmd = argv[1];
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    int has_val = i + 1 < argc;
    if (!strcmp(a, "--quiet")) o->quiet = 1;
    else if (!strcmp(a, "--port") && has_val) o->port = argv[++i];
    else if (!strcmp(a, "--filter") && has_val) o->filter = argv[++i];
    else if (!strcmp(a, "--report") && has_val) o->report = argv[++i];
    else if (!strcmp(a, "--source") && has_val) o->source = argv[++i];
    else if (a[0] != '-' && !o->dir) o->dir = a;
    else {
      fprintf(stderr, "op-conform: unexpected argument %s\n", a);
      return -1;
    }
  }
  return 0;
}

static double now_ms(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *s = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (cap - n < 4097) {
      cap = cap ? cap * 2 : 8192;
      char *ns = realloc(s, cap);
      if (!ns) { free(s); fclose(f); return NULL; }
      s = ns;
    }
    size_t k = fread(s + n, 1, cap - n - 1, f);
    n += k;
    if (k == 0) break;
  }
  fclose(f);
  s[n] = '\0';
  return s;
}

static int ensure_dir_of(const char *path) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    mkdir(buf, 0777);
    *p = '/';
  }
  return 0;
}

/* Golden comparison of one run (CONF-073). */
static void judge_golden(const char *src, const char *name, const golden *got, scen_result *res) {
  char path[4096], msg[1200] = "";
  snprintf(path, sizeof path, "%s/golden/%s.golden", src, name);
  golden want;
  int rc = golden_load(path, &want, msg, sizeof msg);
  res->cps_total = got->n;
  if (rc == 0) {
    str_appendf(&res->details, "no golden file golden/%s.golden: run `op-conform regen --filter %s`\n",
                name, name);
    res->passed = 0;
    return;
  }
  if (rc < 0) {
    str_appendf(&res->details, "%s\n", msg);
    res->passed = 0;
    return;
  }
  res->cps_ok = golden_compare(&want, got, msg, sizeof msg);
  if (want.n > res->cps_total) res->cps_total = want.n;
  if (msg[0]) {
    str_appendf(&res->details, "golden mismatch: %s\n", msg);
    res->passed = 0;
  }
  golden_free(&want);
}

static int cmd_list(lua_State *L, const scen_entry *e, size_t n, const opts *o) {
  for (size_t i = 0; i < n; i++) {
    if (o->filter && !strstr(e[i].name, o->filter)) continue;
    printf("%-44s %s\n    %s\n", e[i].name, e[i].clauses, e[i].title);
  }
  (void)L;
  return 0;
}

/* run, regen and export-traces share this loop. */
static int cmd_scenarios(lua_State *L, runner *r, const scen_entry *e, size_t n, const opts *o) {
  int regen = !strcmp(o->cmd, "regen"), export = !strcmp(o->cmd, "export-traces");
  report rep;
  memset(&rep, 0, sizeof rep);
  rep.quiet = o->quiet;
  size_t nnew = 0, nchanged = 0, nsame = 0;
  for (size_t i = 0; i < n; i++) {
    if (o->filter && !strstr(e[i].name, o->filter)) continue;
    scen_result res;
    memset(&res, 0, sizeof res);
    snprintf(res.name, sizeof res.name, "%s", e[i].name);
    char msg[400];
    double t0 = now_ms();
    r->primary = o->port && !regen && !export ? tr_open_port(o->port, msg, sizeof msg)
                                              : tr_open_inproc();
    r->shadow = o->port && !regen && !export ? tr_open_inproc() : NULL;
    golden got;
    memset(&got, 0, sizeof got);
    char *trace = NULL;
    if (!r->primary || (o->port && !regen && !export && !r->shadow)) {
      str_appendf(&res.details, "cannot start the implementation: %s\n",
                  r->primary ? "out of memory" : msg);
    } else {
      opc_lua_run(L, &e[i], &res, &got, export ? &trace : NULL);
    }
    tr_close(r->primary);
    tr_close(r->shadow);
    r->primary = r->shadow = NULL;
    if (res.details) res.passed = 0;
    if (regen) {
      res.cps_total = res.cps_ok = got.n;
      if (res.passed) {
        char path[4096];
        snprintf(path, sizeof path, "%s/golden/%s.golden", r->src, e[i].name);
        char *old = read_file(path), *text = golden_text(e[i].name, &got);
        const char *what = !old ? "new" : (text && strcmp(old, text) == 0) ? "unchanged" : "changed";
        if (strcmp(what, "unchanged")) {
          ensure_dir_of(path);
          if (golden_write(path, e[i].name, &got)) {
            str_appendf(&res.details, "cannot write %s\n", path);
            res.passed = 0;
          }
        }
        if (res.passed) {
          nnew += !old;
          nchanged += old && strcmp(what, "changed") == 0;
          nsame += strcmp(what, "unchanged") == 0;
          if (strcmp(what, "unchanged") || !o->quiet)
            printf("%-9s %s (%zu checkpoints)\n", what, e[i].name, got.n);
        }
        free(old);
        free(text);
      }
    } else {
      judge_golden(r->src, e[i].name, &got, &res);
    }
    if (export && res.passed && trace) {
      if (traces_write(o->dir, e[i].name, trace)) {
        str_appendf(&res.details, "cannot write the trace under %s\n", o->dir);
        res.passed = 0;
      }
    }
    free(trace);
    golden_free(&got);
    res.ms = now_ms() - t0;
    if (!regen || !res.passed) report_print_line(&rep, &res);
    report_add(&rep, &res);
  }
  const char *mode = regen ? "regen" : export ? "export-traces" : o->port ? "port" : "in-process";
  if (regen) printf("golden: %zu new, %zu changed, %zu unchanged\n", nnew, nchanged, nsame);
  size_t failed = report_finish(&rep, mode);
  if (o->report && report_markdown(&rep, o->report, mode)) {
    fprintf(stderr, "op-conform: cannot write %s\n", o->report);
    failed++;
  }
  report_free(&rep);
  return failed ? 1 : 0;
}

static const char *pick_source(const opts *o) {
  if (o->source) return o->source;
  if (access("conformance/lib/conform.lua", R_OK) == 0) return ".";
  return OP_SOURCE_DIR;
}

int main(int argc, char **argv) {
  opts o;
  if (parse_opts(argc, argv, &o)) return usage();
  int is_run = !strcmp(o.cmd, "run"), is_regen = !strcmp(o.cmd, "regen");
  int is_list = !strcmp(o.cmd, "list"), is_export = !strcmp(o.cmd, "export-traces");
  int is_check = !strcmp(o.cmd, "check-traces");
  if (!strcmp(o.cmd, "selftest")) return selftest_main();
  if (!(is_run || is_regen || is_list || is_export || is_check)) return usage();
  if ((is_export || is_check) && !o.dir) return usage();
  if (!(is_export || is_check) && o.dir) return usage();
  if (is_check && !o.port) return usage();
  if ((is_regen || is_list || is_export) && o.port) return usage();

  if (is_check) { /* C only: no Lua involved */
    report rep;
    memset(&rep, 0, sizeof rep);
    rep.quiet = o.quiet;
    int rc = traces_check(o.dir, o.port, o.filter, &rep);
    size_t failed = report_finish(&rep, "check-traces");
    if (o.report && report_markdown(&rep, o.report, "check-traces")) failed++;
    report_free(&rep);
    return (rc < 0 || failed) ? 1 : 0;
  }

  runner r;
  memset(&r, 0, sizeof r);
  r.src = pick_source(&o);
  r.trace = is_export;
  char msg[600];
  lua_State *L = opc_lua_open(&r, msg, sizeof msg);
  if (!L) {
    fprintf(stderr, "op-conform: %s\n", msg);
    return 2;
  }
  scen_entry *e;
  size_t n;
  if (opc_lua_list(L, &e, &n, msg, sizeof msg)) {
    fprintf(stderr, "op-conform: %s\n", msg);
    opc_lua_close(L);
    return 2;
  }
  int rc = is_list ? cmd_list(L, e, n, &o) : cmd_scenarios(L, &r, e, n, &o);
  opc_entries_free(e, n);
  opc_lua_close(L);
  return rc;
}
