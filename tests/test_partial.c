/*
** test_partial.c -- partial ports and known failures in op-conform (spec/conformance.md
** CONF-050, CONF-054 .. CONF-057, CONF-081, CONF-083). Each test builds a small source tree
** under /tmp (conformance/lib/conform.lua linked from this kit, hand-written scenarios and
** golden files without checkpoints) and runs the op-conform and onepath-port built next to
** this test. The partial port is onepath-port behind a filter that rewrites hello's op list
** to the three session ops: it still answers every op, so a scenario that needs a PRNG and
** is not skipped would pass, and only the skip rule can make it skipped. Expected texts are
** written from the clauses.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "optest.h"

#ifndef OP_SOURCE_DIR
#define OP_SOURCE_DIR "."
#endif

static char g_conform[PATH_MAX + 32], g_port[PATH_MAX + 32];

static int find_tools(void) {
  char self[PATH_MAX];
  ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
  if (k <= 0) return -1;
  self[k] = '\0';
  char *slash = strrchr(self, '/');
  if (!slash) return -1;
  const char *suf = strstr(slash, "_asan") ? "_asan" : "";
  *slash = '\0';
  snprintf(g_conform, sizeof g_conform, "%s/op-conform%s", self, suf);
  snprintf(g_port, sizeof g_port, "%s/onepath-port%s", self, suf);
  return access(g_conform, X_OK) || access(g_port, X_OK);
}

typedef struct tree {
  char root[64];
} tree;

static int write_file(const char *path, const char *text) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", path);
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(dir, 0777) && errno != EEXIST) return -1;
      *p = '/';
    }
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  fputs(text, f);
  return fclose(f);
}

static int tree_file(const tree *t, const char *rel, const char *text) {
  char p[PATH_MAX + 128];
  snprintf(p, sizeof p, "%s/%s", t->root, rel);
  return write_file(p, text);
}

static char *tree_read(const tree *t, const char *rel) {
  char p[PATH_MAX + 128];
  snprintf(p, sizeof p, "%s/%s", t->root, rel);
  FILE *f = fopen(p, "rb");
  if (!f) return NULL;
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  char *s = malloc(n + 1);
  if (s) memcpy(s, buf, n + 1);
  return s;
}

/* Three scenarios of group g: a needs echo only, b needs prng.new, c sends a raw request
** naming prng.new that fails the envelope (args a list) and a made-up op: it needs no op
** (CONF-054). None makes a checkpoint; golden files say so. The partial port claims the
** session ops only. */
static int tree_new(tree *t) {
  snprintf(t->root, sizeof t->root, "/tmp/op-test-partial-XXXXXX");
  if (!mkdtemp(t->root)) return -1;
  char lib[256], src[2 * PATH_MAX + 64], port[PATH_MAX * 2 + 256];
  snprintf(lib, sizeof lib, "%s/conformance/lib/conform.lua", t->root);
  if (write_file(lib, "")) return -1;
  remove(lib);
  snprintf(src, sizeof src, "%s/conformance/lib/conform.lua", OP_SOURCE_DIR);
  if (src[0] != '/') {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return -1;
    snprintf(src, sizeof src, "%s/%s/conformance/lib/conform.lua", cwd, OP_SOURCE_DIR);
  }
  if (symlink(src, lib)) return -1;
  static const char *const names[] = {"a", "b", "c"};
  static const char *const bodies[] = {
      "  t:check(t:call('echo', { i64 = { 3 } }).i64[1] == 3, 'echo')\n",
      "  t:check(t:call('prng.new', { seed = '0000000000000001' }).handle == 1, 'first handle')\n",
      "  t:raw('{\"id\":1,\"op\":\"prng.new\",\"args\":[]}', { kind = 'argument', field = 'args' })\n"
      "  t:expect_error('no.such.op', {}, { kind = 'argument', field = 'op', value = 'no.such.op' })\n"};
  for (int i = 0; i < 3; i++) {
    char rel[64], text[600];
    snprintf(rel, sizeof rel, "conformance/scenarios/g/%s.lua", names[i]);
    snprintf(text, sizeof text, "return { title = '%s', clauses = {}, run = function(t)\n%send }\n",
             names[i], bodies[i]);
    if (tree_file(t, rel, text)) return -1;
    snprintf(rel, sizeof rel, "golden/g/%s.golden", names[i]);
    snprintf(text, sizeof text, "# x\nscenario g/%s\n", names[i]);
    if (tree_file(t, rel, text)) return -1;
  }
  snprintf(port, sizeof port,
           "#!/bin/sh\nexec '%s' | sed -u 's/\"ops\":\\[[^]]*\\]/\"ops\":[\"drop\",\"echo\",\"hello\"]/'\n",
           g_port);
  if (tree_file(t, "session-port.sh", port)) return -1;
  char sp[128];
  snprintf(sp, sizeof sp, "%s/session-port.sh", t->root);
  return chmod(sp, 0755);
}

static void tree_free(tree *t) {
  char cmd[PATH_MAX];
  if (strncmp(t->root, "/tmp/op-test-partial-", 21) != 0) return;
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->root);
  if (system(cmd) != 0) fprintf(stderr, "  cannot remove %s\n", t->root);
}

/* Runs op-conform with args (NULL-terminated) and --source root; returns the exit status
** (or -1) and the captured stdout and stderr in *out (malloc'd). */
static int run_conform(const tree *t, char **out, const char *a0, ...) {
  const char *argv[16];
  int n = 0;
  argv[n++] = g_conform;
  va_list ap;
  va_start(ap, a0);
  for (const char *a = a0; a && n < 12; a = va_arg(ap, const char *)) argv[n++] = a;
  va_end(ap);
  argv[n++] = "--source";
  argv[n++] = t->root;
  argv[n] = NULL;
  int fd[2];
  *out = NULL;
  if (pipe(fd)) return -1;
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    dup2(fd[1], 1);
    dup2(fd[1], 2);
    close(fd[0]);
    close(fd[1]);
    if (chdir(t->root)) _exit(126);
    execv(g_conform, (char *const *)argv);
    _exit(127);
  }
  close(fd[1]);
  char *s = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (cap - len < 4097) {
      cap = cap ? 2 * cap : 8192;
      char *ns = realloc(s, cap);
      if (!ns) break;
      s = ns;
    }
    ssize_t k = read(fd[0], s + len, cap - len - 1);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    len += (size_t)k;
  }
  close(fd[0]);
  if (s) s[len] = '\0';
  *out = s;
  int st;
  if (waitpid(pid, &st, 0) != pid) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int has(const char *s, const char *needle) {
  int ok = s && strstr(s, needle) != NULL;
  if (!ok) fprintf(stderr, "  expected \"%s\" in:\n%s\n", needle, s ? s : "(nothing)");
  return ok;
}

static const char *last_line(const char *s, char *buf, size_t len) {
  buf[0] = '\0';
  if (!s) return buf;
  size_t n = strlen(s);
  while (n && s[n - 1] == '\n') n--;
  size_t b = n;
  while (b && s[b - 1] != '\n') b--;
  snprintf(buf, len, "%.*s", (int)(n - b), s + b);
  return buf;
}

static const char *session_port(const tree *t) {
  static char p[128];
  snprintf(p, sizeof p, "%s/session-port.sh", t->root);
  return p;
}

OPT_TEST(skip_by_needed_ops, "CONF-054, CONF-055, CONF-056") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  char *out = NULL, line[256];
  /* the session-only port: b needs prng.new and is skipped; a and c run and pass */
  OPT_CHECK(run_conform(&t, &out, "run", "--port", session_port(&t), NULL) == 0);
  OPT_CHECK(has(out, "ok   g/a ") && has(out, "ok   g/c "));
  OPT_CHECK(has(out, "skip g/b ") && has(out, "skipped (needs prng.new)\n"));
  OPT_CHECK(has(out, "  g            claimed 2, passed 2, failed 0, expected failures 0, skipped 1\n"));
  OPT_CHECK(strcmp(last_line(out, line, sizeof line), "2 passed, 0 failed, 1 skipped") == 0);
  free(out);
  /* the full reference port claims every op: nothing is skipped, the plain closing line */
  OPT_CHECK(run_conform(&t, &out, "run", "--port", g_port, NULL) == 0);
  OPT_CHECK(has(out, "ok   g/b ") && !strstr(out, "skip "));
  OPT_CHECK(strcmp(last_line(out, line, sizeof line), "3 passed, 0 failed") == 0);
  free(out);
  /* in process: nothing is skipped either */
  OPT_CHECK(run_conform(&t, &out, "run", NULL) == 0);
  OPT_CHECK(strcmp(last_line(out, line, sizeof line), "3 passed, 0 failed") == 0);
  free(out);
  tree_free(&t);
}

OPT_TEST(trace_header_ops_and_skip, "CONF-081, CONF-083, CONF-054") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  char *out = NULL, line[256], dir[128];
  snprintf(dir, sizeof dir, "%s/traces", t.root);
  OPT_CHECK(run_conform(&t, &out, "export-traces", dir, NULL) == 0);
  free(out);
  char *a = tree_read(&t, "traces/g/a.jsonl"), *b = tree_read(&t, "traces/g/b.jsonl"),
       *c = tree_read(&t, "traces/g/c.jsonl");
  OPT_CHECK(a && b && c);
  static const char hdr_a[] = "{\"clauses\":[],\"ops\":[\"echo\"],\"scenario\":\"g/a\",\"title\":\"a\","
                              "\"trace\":\"onepath-trace/1\"}\n";
  OPT_CHECK(a && strncmp(a, hdr_a, sizeof hdr_a - 1) == 0);
  OPT_CHECK(b && has(b, "\"ops\":[\"prng.new\"]"));
  OPT_CHECK(c && has(c, "\"ops\":[]")); /* an envelope error and a made-up op need nothing */
  free(a);
  free(b);
  free(c);
  OPT_CHECK(run_conform(&t, &out, "check-traces", dir, "--port", session_port(&t), NULL) == 0);
  OPT_CHECK(has(out, "skip g/b ") && has(out, "skipped (needs prng.new)\n"));
  OPT_CHECK(strcmp(last_line(out, line, sizeof line), "2 passed, 0 failed, 1 skipped") == 0);
  free(out);
  /* a header without ops (format /0) claims nothing and is never skipped */
  OPT_CHECK(tree_file(&t, "traces/g/b.jsonl",
                      "{\"trace\":\"onepath-trace/0\",\"scenario\":\"g/b\",\"title\":\"b\",\"clauses\":[]}\n"
                      "{\"request\":{\"id\":1,\"op\":\"prng.new\",\"args\":{\"seed\":\"0000000000000001\"}},"
                      "\"expect\":{\"ok\":{\"handle\":1}}}\n") == 0);
  OPT_CHECK(run_conform(&t, &out, "check-traces", dir, "--port", session_port(&t), NULL) == 0);
  OPT_CHECK(strcmp(last_line(out, line, sizeof line), "3 passed, 0 failed") == 0);
  free(out);
  tree_free(&t);
}

OPT_TEST(expected_failures, "CONF-057, CONF-056") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  char *out = NULL, line[256], file[128];
  snprintf(file, sizeof file, "%s/known.txt", t.root);
  /* a listed scenario that passes: an unexpected pass, counted as failed */
  OPT_CHECK(tree_file(&t, "known.txt", "# known failures\n\n   g/a\t# since last week\n") == 0);
  OPT_CHECK(run_conform(&t, &out, "run", "--port", session_port(&t), "--expect-fail", file, NULL) == 1);
  OPT_CHECK(has(out, "XPASS g/a ") && has(out, "now passes: remove it from the expected-failures file\n"));
  OPT_CHECK(has(out, "  g            claimed 2, passed 1, failed 1, expected failures 0, skipped 1\n"));
  OPT_CHECK(strcmp(last_line(out, line, sizeof line), "1 passed, 1 failed, 1 skipped") == 0);
  free(out);
  /* a listed scenario that fails: an expected failure, not counted as failed */
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/a.lua",
                      "return { title = 'a', clauses = {}, run = function(t)\n"
                      "  t:check(t:call('echo', { i64 = { 3 } }).i64[1] == 4, 'a property that fails')\n"
                      "end }\n") == 0);
  OPT_CHECK(run_conform(&t, &out, "run", "--port", session_port(&t), "--expect-fail", file, NULL) == 0);
  OPT_CHECK(has(out, "xfail g/a ") && has(out, "(expected failure)\n"));
  OPT_CHECK(strcmp(last_line(out, line, sizeof line), "1 passed, 0 failed, 1 skipped, 1 expected failures") == 0);
  free(out);
  /* without the file it is a failure */
  OPT_CHECK(run_conform(&t, &out, "run", "--port", session_port(&t), NULL) == 1);
  OPT_CHECK(has(out, "FAIL g/a ") && has(out, "a property that fails"));
  free(out);
  /* a listed scenario that is skipped stays skipped */
  OPT_CHECK(tree_file(&t, "known.txt", "g/a\ng/b\n") == 0);
  OPT_CHECK(run_conform(&t, &out, "run", "--port", session_port(&t), "--expect-fail", file, NULL) == 0);
  OPT_CHECK(has(out, "skip g/b ") && has(out, "skipped (needs prng.new)\n"));
  free(out);
  /* a name that is no scenario stops the runner before anything runs */
  OPT_CHECK(tree_file(&t, "known.txt", "g/a\ng/zz\n") == 0);
  OPT_CHECK(run_conform(&t, &out, "run", "--port", session_port(&t), "--expect-fail", file, NULL) == 2);
  OPT_CHECK(has(out, "no scenario is named g/zz") && !strstr(out, "g/a "));
  free(out);
  /* --expect-fail needs a port */
  OPT_CHECK(run_conform(&t, &out, "run", "--expect-fail", file, NULL) == 2);
  free(out);
  tree_free(&t);
}

OPT_TEST(hello_protocol_version, "CONF-050") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/h.lua",
                      "return { title = 'h', clauses = {}, run = function(t)\n"
                      "  t:check(t:call('hello', {}).protocol == 'onepath-port/1', 'protocol v1')\n"
                      "end }\n") == 0);
  OPT_CHECK(tree_file(&t, "golden/g/h.golden", "# x\nscenario g/h\n") == 0);
  char *out = NULL;
  OPT_CHECK(run_conform(&t, &out, "run", "--port", g_port, "--filter", "g/h", NULL) == 0);
  OPT_CHECK(has(out, "ok   g/h ") && !strstr(out, "note: the port speaks"));
  free(out);
  tree_free(&t);
}

OPT_MAIN_BEGIN
if (find_tools()) {
  fprintf(stderr, "cannot find op-conform and onepath-port next to this test\n");
  return 1;
}
OPT_RUN(skip_by_needed_ops);
OPT_RUN(trace_header_ops_and_skip);
OPT_RUN(expected_failures);
OPT_RUN(hello_protocol_version);
OPT_MAIN_END
