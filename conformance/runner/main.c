/*
** main.c -- op-conform, the conformance runner (spec/conformance.md; docs/porting.md).
**
**   op-conform run [--port EXE [--expect-fail FILE]] [--filter SUBSTR] [--quiet] [--report FILE.md]
**   op-conform regen [--filter SUBSTR]
**   op-conform list
**   op-conform export-traces DIR [--filter SUBSTR]
**   op-conform check-traces DIR --port EXE [--expect-fail FILE] [--filter SUBSTR] [--quiet]
**                           [--report FILE.md]
**   op-conform selftest      (the runner's own comparison rules)
**
** With --port the port's hello says which ops it claims; a scenario that needs an op it
** lacks is skipped (CONF-054, CONF-055); --expect-fail names the scenarios the port is
** known to fail (CONF-057).
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
  const char *expect_fail; /* CONF-057: the expected-failures file */
  const char *svg;         /* CONF-205: run --svg DIR */
  int quiet, fail_fast;
} opts;

static int usage(void) {
  fprintf(stderr,
          "usage: op-conform run [--port EXE] [--filter SUBSTR] [--quiet] [--report FILE.md]\n"
          "       op-conform regen [--filter SUBSTR]\n"
          "       op-conform list\n"
          "       op-conform export-traces DIR [--filter SUBSTR]\n"
          "       op-conform check-traces DIR --port EXE [--filter SUBSTR] [--quiet] [--report FILE.md]\n"
          "       op-conform selftest\n"
          "       op-conform diff A B [--kind K] [--layout L]   (two artifact files, CONF-204)\n"
          "option for run --port: --svg DIR (pictures of differing artifacts, CONF-205)\n"
          "options for all: --source DIR (the kit's source tree)\n"
          "options for run --port and check-traces: --expect-fail FILE (expected failures)\n"
          "option for run: --fail-fast (stop at the first failing scenario; scripts/mutate.lua)\n");
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
    else if (!strcmp(a, "--fail-fast")) o->fail_fast = 1; /* stop at the first failing scenario (scripts/mutate.lua) */
    else if (!strcmp(a, "--port") && has_val) o->port = argv[++i];
    else if (!strcmp(a, "--filter") && has_val) o->filter = argv[++i];
    else if (!strcmp(a, "--report") && has_val) o->report = argv[++i];
    else if (!strcmp(a, "--source") && has_val) o->source = argv[++i];
    else if (!strcmp(a, "--expect-fail") && has_val) o->expect_fail = argv[++i];
    else if (!strcmp(a, "--svg") && has_val) o->svg = argv[++i];
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

/* CONF-057: the expected-failures file: one scenario name per line; `#` starts a comment;
** blank lines and the spaces around a name are ignored. Every name must be a scenario of
** `all` (NULL: not checked). 0, or -1 with a message on stderr. */
static int load_expected(const char *path, const name_list *all, name_list *out) {
  out->v = NULL;
  out->n = 0;
  if (!path) return 0;
  char *text = read_file(path);
  if (!text) {
    fprintf(stderr, "op-conform: cannot read the expected-failures file %s\n", path);
    return -1;
  }
  int rc = 0;
  size_t lineno = 0;
  for (char *p = text; *p && !rc;) {
    char *e = strchr(p, '\n');
    if (e) *e = '\0';
    lineno++;
    char *hash = strchr(p, '#');
    if (hash) *hash = '\0';
    while (*p == ' ' || *p == '\t' || *p == '\r') p++;
    size_t len = strlen(p);
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r')) p[--len] = '\0';
    if (len) {
      if (all && !names_has(all, p)) {
        fprintf(stderr, "op-conform: %s:%zu: no scenario is named %s\n", path, lineno, p);
        rc = -1;
      } else if (!names_has(out, p) && names_add(out, p)) {
        rc = -1;
      }
    }
    p = e ? e + 1 : p + len;
  }
  free(text);
  if (rc) names_free(out);
  return rc;
}

/* CONF-050, CONF-055: the ops the port's hello lists, asked of a process of its own. When
** it lists every op of the reference, *partial is 0 and nothing can be skipped. */
static int probe_port(const char *exe, name_list *port_ops, int *partial) {
  char msg[400], proto[64];
  *partial = 0;
  transport *t = tr_open_port(exe, msg, sizeof msg);
  int rc = t ? tr_hello_ops(t, port_ops, proto, sizeof proto, msg, sizeof msg) : -1;
  tr_close(t);
  if (rc) {
    fprintf(stderr, "op-conform: the port's hello gave no op list (%s): no scenario is skipped\n", msg);
    return -1;
  }
  if (strcmp(proto, "onepath-port/1"))
    printf("note: the port speaks protocol \"%s\", this kit onepath-port/1 (docs/porting.md, "
           "\"Contract version\")\n", proto);
  name_list ref;
  transport *in = tr_open_inproc();
  if (in && tr_hello_ops(in, &ref, proto, sizeof proto, msg, sizeof msg) == 0) {
    for (size_t i = 0; i < ref.n; i++) *partial |= !names_has(port_ops, ref.v[i]);
    names_free(&ref);
  } else {
    *partial = 1;
  }
  tr_close(in);
  return 0;
}

/* CONF-054, CONF-055: the ops scenario e needs, from a run on the in-process reference;
** returns the needed ops port_ops lacks, ", " between (malloc'd), or NULL. */
static char *missing_ops(lua_State *L, runner *r, const scen_entry *e, const name_list *port_ops) {
  scen_result res;
  memset(&res, 0, sizeof res);
  golden got;
  memset(&got, 0, sizeof got);
  r->primary = tr_open_inproc();
  r->shadow = NULL;
  int trace = r->trace;
  r->trace = 0;
  if (r->primary) opc_lua_run(L, e, &res, &got, NULL);
  r->trace = trace;
  tr_close(r->primary);
  r->primary = NULL;
  char *needs = NULL;
  for (char *p = res.ops; p && *p;) {
    char *sp = strchr(p, ' ');
    size_t len = sp ? (size_t)(sp - p) : strlen(p);
    char op[200];
    snprintf(op, sizeof op, "%.*s", (int)len, p);
    if (!names_has(port_ops, op)) str_appendf(&needs, "%s%s", needs ? ", " : "", op);
    p += len + (sp ? 1 : 0);
  }
  golden_free(&got);
  free(res.details);
  free(res.ops);
  return needs;
}

/* CONF-054: the reference's ops (its hello's list), one space between (malloc'd). */
static char *reference_ops(void) {
  char msg[200], proto[64], *out = NULL;
  name_list ops;
  transport *in = tr_open_inproc();
  if (in && tr_hello_ops(in, &ops, proto, sizeof proto, msg, sizeof msg) == 0) {
    for (size_t i = 0; i < ops.n; i++) str_appendf(&out, "%s%s", i ? " " : "", ops.v[i]);
    names_free(&ops);
  }
  tr_close(in);
  return out;
}

/* run, regen and export-traces share this loop. */
static int cmd_scenarios(lua_State *L, runner *r, const scen_entry *e, size_t n, const opts *o) {
  int regen = !strcmp(o->cmd, "regen"), export = !strcmp(o->cmd, "export-traces");
  report rep;
  memset(&rep, 0, sizeof rep);
  rep.quiet = o->quiet;
  size_t nnew = 0, nchanged = 0, nsame = 0;
  /* CONF-055, CONF-057: skipping and expected failures concern a port */
  name_list port_ops = {NULL, 0}, expected = {NULL, 0}, all = {NULL, 0};
  int partial = 0, with_port = o->port && !regen && !export;
  for (size_t i = 0; i < n; i++)
    if (names_add(&all, e[i].name)) return 2;
  int bad = load_expected(o->expect_fail, &all, &expected);
  names_free(&all);
  if (bad) return 2;
  if (with_port && probe_port(o->port, &port_ops, &partial)) partial = 0;
  for (size_t i = 0; i < n; i++) {
    if (o->filter && !strstr(e[i].name, o->filter)) continue;
    scen_result res;
    memset(&res, 0, sizeof res);
    snprintf(res.name, sizeof res.name, "%s", e[i].name);
    res.expected = names_has(&expected, e[i].name);
    char msg[400];
    double t0 = now_ms();
    if (partial && (res.needs = missing_ops(L, r, &e[i], &port_ops))) {
      report_print_line(&rep, &res);
      report_add(&rep, &res);
      continue;
    }
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
    if (o->fail_fast && !res.passed) break;
  }
  const char *mode = regen ? "regen" : export ? "export-traces" : o->port ? "port" : "in-process";
  if (regen) printf("golden: %zu new, %zu changed, %zu unchanged\n", nnew, nchanged, nsame);
  size_t failed = report_finish(&rep, mode);
  if (o->report && report_markdown(&rep, o->report, mode)) {
    fprintf(stderr, "op-conform: cannot write %s\n", o->report);
    failed++;
  }
  report_free(&rep);
  names_free(&port_ops);
  names_free(&expected);
  return failed ? 1 : 0;
}

static const char *pick_source(const opts *o) {
  if (o->source) return o->source;
  if (access("conformance/lib/conform.lua", R_OK) == 0) return ".";
  return OP_SOURCE_DIR;
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "diff")) return opc_diff_main(argc, argv); /* CONF-204 */
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
  if (o.expect_fail && !o.port) return usage();

  if (is_check) { /* C only: no Lua involved */
    report rep;
    memset(&rep, 0, sizeof rep);
    rep.quiet = o.quiet;
    name_list port_ops = {NULL, 0}, expected = {NULL, 0};
    int partial = 0;
    if (load_expected(o.expect_fail, NULL, &expected)) return 2;
    for (size_t i = 0; i < expected.n; i++) { /* CONF-057: every name has a trace */
      char file[4096];
      snprintf(file, sizeof file, "%s/%s.jsonl", o.dir, expected.v[i]);
      if (access(file, R_OK)) {
        fprintf(stderr, "op-conform: %s names %s, which has no trace %s\n", o.expect_fail,
                expected.v[i], file);
        names_free(&expected);
        return 2;
      }
    }
    if (probe_port(o.port, &port_ops, &partial)) partial = 0;
    int rc = traces_check(o.dir, o.port, o.filter, &rep, partial ? &port_ops : NULL, &expected);
    names_free(&port_ops);
    names_free(&expected);
    size_t failed = report_finish(&rep, "check-traces");
    if (o.report && report_markdown(&rep, o.report, "check-traces")) failed++;
    report_free(&rep);
    return (rc < 0 || failed) ? 1 : 0;
  }

  runner r;
  memset(&r, 0, sizeof r);
  r.src = pick_source(&o);
  r.trace = is_export;
  char *ref_ops = reference_ops(); /* CONF-054 */
  r.ref_ops = ref_ops;
  r.svg_dir = is_run ? o.svg : NULL;
  char msg[600];
  lua_State *L = opc_lua_open(&r, msg, sizeof msg);
  if (!L) {
    fprintf(stderr, "op-conform: %s\n", msg);
    free(ref_ops);
    return 2;
  }
  scen_entry *e;
  size_t n;
  if (opc_lua_list(L, &e, &n, msg, sizeof msg)) {
    fprintf(stderr, "op-conform: %s\n", msg);
    opc_lua_close(L);
    free(ref_ops);
    return 2;
  }
  int rc = is_list ? cmd_list(L, e, n, &o) : cmd_scenarios(L, &r, e, n, &o);
  opc_entries_free(e, n);
  opc_lua_close(L);
  free(ref_ops);
  return rc;
}
