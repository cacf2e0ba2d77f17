/*
** test_runner.c -- the conformance runner op-conform as a program (spec/conformance.md
** sections 8 to 10: golden files CONF-070 .. CONF-073, flat traces CONF-080 .. CONF-086,
** scenario order CONF-085, missing ops CONF-052, the verdict CONF-090). Each test builds a
** small source tree of its own under /tmp (conformance/lib/conform.lua linked from this
** kit, hand-written scenarios, golden files) and runs the op-conform and onepath-port
** built next to this test (the _asan ones for test_runner_asan) with --source on it.
** Expected outputs are written from the clauses; hashes are recomputed here with
** libxxhash's XXH3_64bits, lengths derived from the byte layouts.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

#include "dispatch.h"
#include "optest.h"

#ifndef OP_SOURCE_DIR
#define OP_SOURCE_DIR "."
#endif

/* ------------------------------------------------------------------ helpers */

static char g_conform[PATH_MAX + 32], g_port[PATH_MAX + 32];

/* op-conform and onepath-port of this build: same directory, same variant suffix. */
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

static char *read_all(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *s = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (cap - n < 4097) {
      cap = cap ? 2 * cap : 8192;
      char *ns = realloc(s, cap);
      if (!ns) break;
      s = ns;
    }
    size_t k = fread(s + n, 1, cap - n - 1, f);
    n += k;
    if (!k) break;
  }
  fclose(f);
  if (s) s[n] = '\0';
  return s;
}

static char *tree_read(const tree *t, const char *rel) {
  char p[PATH_MAX + 128];
  snprintf(p, sizeof p, "%s/%s", t->root, rel);
  return read_all(p);
}

/* A tree with conform.lua linked in and no scenario yet. */
static int tree_new(tree *t) {
  snprintf(t->root, sizeof t->root, "/tmp/op-test-runner-XXXXXX");
  if (!mkdtemp(t->root)) return -1;
  char lib[256], src[2 * PATH_MAX + 64];
  snprintf(lib, sizeof lib, "%s/conformance/lib/conform.lua", t->root);
  if (write_file(lib, "")) return -1;
  remove(lib);
  snprintf(src, sizeof src, "%s/conformance/lib/conform.lua", OP_SOURCE_DIR);
  if (src[0] != '/') {
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) return -1;
    snprintf(src, sizeof src, "%s/%s/conformance/lib/conform.lua", cwd, OP_SOURCE_DIR);
  }
  return symlink(src, lib);
}

static void tree_free(tree *t) {
  char cmd[PATH_MAX];
  if (strncmp(t->root, "/tmp/op-test-runner-", 20) != 0) return;
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

static int streq_s(const char *a, const char *b) { return a && b && strcmp(a, b) == 0; }

static int has(const char *s, const char *needle) {
  int ok = s && strstr(s, needle) != NULL;
  if (!ok) fprintf(stderr, "  expected \"%s\" in:\n%s\n", needle, s ? s : "(nothing)");
  return ok;
}

/* The last non-empty line of s. */
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

/* The one-quad square of cell 0.5, 8 cells: a 180-byte tile (FMT-041, FMT-042). */
#define SQUARE_LUA                                                                              \
  "local TILING = { origin = { 0, 0, 0 }, cell_size = 0.5, cell_height = 0.25, tile_cells = 8,\n" \
  "                 max_verts_per_poly = 6 }\n"                                                   \
  "local function square(x)\n"                                                                    \
  "  return { x = x, z = 0, layer = 0, tiling = TILING, origin_y = 0,\n"                          \
  "           verts = { { 0, 0, 0 }, { 4, 0, 0 }, { 4, 0, 4 }, { 0, 0, 4 } },\n"                 \
  "           polys = { { verts = { 0, 1, 2, 3 }, neis = { 0x8003, 0x8002, 0x8001, 0x8000 },\n"   \
  "                       area = 0, flags = 1 } } }\n"                                            \
  "end\n"

/* g/ok: passes; a table checkpoint "tab one" of bytes 01 02 03 04, a mesh checkpoint of
** one tile (72 + 24 + 180 + 4 + 4 = 284 bytes, MESH-040, MESH-041), an expected error,
** a raw line, hello. */
static const char *OK_LUA =
    SQUARE_LUA
    "return { title = 'ok scenario', clauses = { 'CONF-080' }, run = function(t)\n"
    "  t:call('hello', {})\n"
    "  t:raw('{\"id\":5,', { kind = 'argument', field = 'request' })\n"
    "  t:expect_error('drop', { handle = 9 }, { kind = 'argument', field = 'handle' })\n"
    "  t:checkpoint('tab one', 'table', t:table():u8(1):u8(2):u8(3):u8(4):hex())\n"
    "  local m = t:call('mesh.create', { tiling = TILING, walkable_climb = 0.5, max_tiles = 4 }).handle\n"
    "  local a = t:call('tile.create', square(0)).handle\n"
    "  t:call('mesh.add_tile', { mesh = m, tile = a })\n"
    "  t:checkpoint('mesh', 'mesh', t:call('mesh.save', { mesh = m }).bytes)\n"
    "end }\n";

/* The same mesh's bytes, made here through the in-process protocol, and their hashes. */
static int mesh_bytes(uint8_t **out, size_t *len) {
  static const char *req[] = {
      "{\"id\":1,\"op\":\"mesh.create\",\"args\":{\"max_tiles\":4,\"tiling\":{\"cell_height\":0.25,"
      "\"cell_size\":0.5,\"max_verts_per_poly\":6,\"origin\":[0,0,0],\"tile_cells\":8},\"walkable_climb\":0.5}}",
      "{\"id\":2,\"op\":\"tile.create\",\"args\":{\"layer\":0,\"origin_y\":0,\"polys\":[{\"area\":0,\"flags\":1,"
      "\"neis\":[32771,32770,32769,32768],\"verts\":[0,1,2,3]}],\"tiling\":{\"cell_height\":0.25,"
      "\"cell_size\":0.5,\"max_verts_per_poly\":6,\"origin\":[0,0,0],\"tile_cells\":8},"
      "\"verts\":[[0,0,0],[4,0,0],[4,0,4],[0,0,4]],\"x\":0,\"z\":0}}",
      "{\"id\":3,\"op\":\"mesh.add_tile\",\"args\":{\"mesh\":1,\"tile\":2}}",
      "{\"id\":4,\"op\":\"mesh.save\",\"args\":{\"mesh\":1}}"};
  opd_session *s = opd_session_new();
  int rc = -1;
  for (int i = 0; i < 4; i++) {
    opj_w w;
    opj_w_init(&w);
    opd_execute(s, req[i], strlen(req[i]), &w);
    if (i == 3) {
      opj_doc *d = w.buf ? opj_parse(w.buf, w.len, NULL, 0) : NULL;
      const opj *b = opj_get(opj_get(opj_root(d), "ok"), "bytes");
      if (b && b->type == OPJ_STR && b->len % 2 == 0) {
        *len = b->len / 2;
        *out = malloc(*len ? *len : 1);
        for (size_t k = 0; *out && k < *len; k++) {
          unsigned v;
          sscanf(b->str + 2 * k, "%2x", &v);
          (*out)[k] = (uint8_t)v;
        }
        rc = *out ? 0 : -1;
      }
      opj_free(d);
    }
    opj_w_free(&w);
  }
  opd_session_free(s);
  return rc;
}

/* ------------------------------------------------------------------ tests */

OPT_TEST(scenario_order, "CONF-085") {
  /* Groups B, a, b and names z, Y, a1, a, a-b: byte order of GROUP, then of NAME:
  ** B/z, a/Y, a/a, a/a-b, a/a1, b/z ('Y' 0x59 < 'a' 0x61; "a" is a prefix of "a-b" and
  ** "a1"; '-' 0x2d < '1' 0x31). */
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  static const char *files[] = {"b/z", "a/a1", "a/a-b", "a/a", "a/Y", "B/z"};
  for (int i = 0; i < 6; i++) {
    char rel[128], text[256];
    snprintf(rel, sizeof rel, "conformance/scenarios/%s.lua", files[i]);
    snprintf(text, sizeof text, "return { title = '%s', clauses = {}, run = function(t) end }\n", files[i]);
    OPT_CHECK(tree_file(&t, rel, text) == 0);
  }
  char *out = NULL;
  OPT_CHECK(run_conform(&t, &out, "list", NULL) == 0);
  static const char *want[] = {"B/z", "a/Y", "a/a", "a/a-b", "a/a1", "b/z"};
  const char *p = out;
  for (int i = 0; i < 6 && p; i++) {
    char key[64];
    snprintf(key, sizeof key, "%s ", want[i]);
    const char *q = strstr(p, key);
    while (q && q != out && q[-1] != '\n') q = strstr(q + 1, key); /* at a line start */
    if (!q) fprintf(stderr, "  %s is missing or out of order in:\n%s\n", want[i], out ? out : "");
    OPT_CHECK(q != NULL);
    p = q ? q + strlen(key) : NULL;
  }
  free(out);
  tree_free(&t);
}

OPT_TEST(missing_golden, "CONF-070") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/ok.lua", OK_LUA) == 0);
  char *out = NULL, line[256];
  OPT_CHECK(run_conform(&t, &out, "run", NULL) != 0);
  OPT_CHECK(has(out, "golden/g/ok.golden") && has(out, "op-conform regen"));
  OPT_CHECK(strcmp(last_line(out, line, sizeof line), "0 passed, 1 failed") == 0);
  free(out);
  tree_free(&t);
}

OPT_TEST(golden_file_text, "CONF-071, CONF-072") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/ok.lua", OK_LUA) == 0);
  /* a scenario with a failing expectation gets no golden file */
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/bad.lua",
                      "return { title = 'bad', clauses = {}, run = function(t)\n"
                      "  t:checkpoint('x', 'table', '00')\n"
                      "  t:expect_error('drop', { handle = 9 }, { kind = 'argument', field = 'nope' })\n"
                      "end }\n") == 0);
  char *out = NULL;
  OPT_CHECK(run_conform(&t, &out, "regen", NULL) != 0);
  OPT_CHECK(has(out, "new       g/ok") && has(out, "FAIL"));
  free(out);
  char *bad = tree_read(&t, "golden/g/bad.golden");
  OPT_CHECK(bad == NULL);
  free(bad);
  /* the text: a comment line first, the scenario line, checkpoints in order with their
  ** parts in byte order, names to the end of the line */
  uint8_t tab[4] = {1, 2, 3, 4}, *mb = NULL;
  size_t ml = 0;
  OPT_CHECK(mesh_bytes(&mb, &ml) == 0 && ml == 284);
  char want[1024];
  if (mb && ml == 284)
    snprintf(want, sizeof want,
             "scenario g/ok\n"
             "checkpoint table 4 %016llx tab one\n"
             "checkpoint mesh 284 %016llx mesh\n"
             "  part 72 %016llx header\n"
             "  part 212 %016llx tile 0,0,0\n",
             (unsigned long long)XXH3_64bits(tab, 4), (unsigned long long)XXH3_64bits(mb, ml),
             (unsigned long long)XXH3_64bits(mb, 72), (unsigned long long)XXH3_64bits(mb + 72, 212));
  char *text = tree_read(&t, "golden/g/ok.golden");
  OPT_CHECK(text && text[0] == '#');
  const char *body = text ? strchr(text, '\n') : NULL;
  OPT_CHECK(body && mb && strcmp(body + 1, want) == 0);
  if (body && mb && strcmp(body + 1, want)) fprintf(stderr, "  golden:\n%s\n  want:\n%s\n", text, want);
  /* regen again: unchanged, file untouched */
  OPT_CHECK(run_conform(&t, &out, "regen", "--filter", "g/ok", NULL) == 0);
  OPT_CHECK(has(out, "unchanged g/ok"));
  free(out);
  /* a golden file that differs is rewritten and reported as changed */
  OPT_CHECK(tree_file(&t, "golden/g/ok.golden", "# old\nscenario g/ok\n") == 0);
  OPT_CHECK(run_conform(&t, &out, "regen", "--filter", "g/ok", NULL) == 0);
  OPT_CHECK(has(out, "changed   g/ok"));
  free(out);
  char *again = tree_read(&t, "golden/g/ok.golden");
  OPT_CHECK(again && text && strcmp(again, text) == 0);
  free(again);
  free(text);
  free(mb);
  tree_free(&t);
}

OPT_TEST(golden_match, "CONF-073") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/ok.lua", OK_LUA) == 0);
  char *out = NULL;
  OPT_CHECK(run_conform(&t, &out, "regen", NULL) == 0);
  free(out);
  char *good = tree_read(&t, "golden/g/ok.golden");
  OPT_CHECK(good != NULL);
  if (!good) { tree_free(&t); return; }
  OPT_CHECK(run_conform(&t, &out, "run", NULL) == 0);
  OPT_CHECK(has(out, "checkpoints 2/2"));
  free(out);
  /* one hex digit of the tile part's hash changed: the checkpoint and the part are named */
  char *mod = strdup(good), *p = strstr(mod, "  part 212 ");
  OPT_CHECK(p != NULL);
  if (p) p[11] = p[11] == '0' ? '1' : '0';
  char *c = strstr(mod, "checkpoint mesh 284 ");
  if (c) c[20] = c[20] == '0' ? '1' : '0';
  OPT_CHECK(tree_file(&t, "golden/g/ok.golden", mod) == 0);
  OPT_CHECK(run_conform(&t, &out, "run", NULL) != 0);
  OPT_CHECK(has(out, "\"mesh\"") && has(out, "tile 0,0,0"));
  free(out);
  free(mod);
  /* another name at the same position */
  mod = strdup(good);
  p = strstr(mod, " tab one\n");
  if (p) p[1] = 'T';
  OPT_CHECK(tree_file(&t, "golden/g/ok.golden", mod) == 0);
  OPT_CHECK(run_conform(&t, &out, "run", NULL) != 0);
  OPT_CHECK(has(out, "Tab one"));
  free(out);
  free(mod);
  /* another kind, same length and hash */
  mod = strdup(good);
  p = strstr(mod, "checkpoint table 4");
  if (p) memcpy(p + 11, "tile ", 5), memmove(p + 15, p + 16, strlen(p + 16) + 1);
  OPT_CHECK(tree_file(&t, "golden/g/ok.golden", mod) == 0);
  OPT_CHECK(run_conform(&t, &out, "run", NULL) != 0);
  free(out);
  free(mod);
  /* fewer checkpoints in the golden file: a mismatch */
  mod = strdup(good);
  p = strstr(mod, "checkpoint mesh");
  if (p) *p = '\0';
  OPT_CHECK(tree_file(&t, "golden/g/ok.golden", mod) == 0);
  OPT_CHECK(run_conform(&t, &out, "run", NULL) != 0);
  free(out);
  free(mod);
  free(good);
  tree_free(&t);
}

/* Reads DIR/g/ok.jsonl as parsed lines. */
typedef struct lines {
  opj_doc *d[64];
  int n;
} lines;

static void lines_free(lines *l) {
  for (int i = 0; i < l->n; i++) opj_free(l->d[i]);
  l->n = 0;
}

static int read_lines(const char *text, lines *l) {
  l->n = 0;
  for (const char *p = text; p && *p && l->n < 64;) {
    const char *e = strchr(p, '\n');
    if (!e) return -1; /* every line ends with a line feed */
    opj_doc *d = opj_parse(p, (size_t)(e - p), NULL, 0);
    if (!d) return -1;
    l->d[l->n++] = d;
    p = e + 1;
  }
  return 0;
}

static const char *s_at(const opj *o, const char *k) {
  const opj *v = opj_get(o, k);
  return v && v->type == OPJ_STR ? v->str : NULL;
}

OPT_TEST(traces_export, "CONF-080, CONF-081, CONF-086") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/ok.lua", OK_LUA) == 0);
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/bad.lua",
                      "return { title = 'bad', clauses = {}, run = function(t)\n"
                      "  t:expect_error('drop', { handle = 9 }, { kind = 'argument', field = 'nope' })\n"
                      "end }\n") == 0);
  char *out = NULL, dir[PATH_MAX];
  OPT_CHECK(run_conform(&t, &out, "regen", "--filter", "g/ok", NULL) == 0);
  free(out);
  snprintf(dir, sizeof dir, "%s/traces", t.root);
  run_conform(&t, &out, "export-traces", dir, NULL);
  free(out);
  /* only a scenario that passes gets a trace */
  char *bad = tree_read(&t, "traces/g/bad.jsonl");
  OPT_CHECK(bad == NULL);
  free(bad);
  char *text = tree_read(&t, "traces/g/ok.jsonl");
  OPT_CHECK(text != NULL);
  lines l = {{0}, 0};
  OPT_CHECK(text && read_lines(text, &l) == 0);
  /* header, hello, raw, drop, checkpoint, mesh.create, tile.create, add_tile, save, checkpoint */
  OPT_CHECK(l.n == 10);
  if (l.n == 10) {
    const opj *h = opj_root(l.d[0]);
    OPT_CHECK(streq_s(s_at(h, "trace"), "onepath-trace/1") && streq_s(s_at(h, "scenario"), "g/ok") &&
              streq_s(s_at(h, "title"), "ok scenario"));
    const opj *cl = opj_get(h, "clauses");
    OPT_CHECK(cl && cl->type == OPJ_ARR && cl->n == 1 && streq_s(opj_at(cl, 0)->str, "CONF-080"));
    /* hello: any ok answer */
    const opj *e1 = opj_get(opj_root(l.d[1]), "expect");
    OPT_CHECK(opj_get(opj_root(l.d[1]), "request") && e1 && opj_get(e1, "ok") &&
              opj_get(e1, "ok")->type == OPJ_NULL);
    /* raw line: the text exactly, the reference's error without message */
    const opj *r2 = opj_root(l.d[2]);
    OPT_CHECK(streq_s(s_at(r2, "raw"), "{\"id\":5,"));
    const opj *err2 = opj_get(opj_get(r2, "expect"), "error");
    OPT_CHECK(err2 && streq_s(s_at(err2, "kind"), "argument") && streq_s(s_at(err2, "field"), "request") &&
              streq_s(s_at(err2, "value"), "") && !opj_get(err2, "message"));
    /* expected error: the value is recorded even though the scenario did not state it */
    const opj *err3 = opj_get(opj_get(opj_root(l.d[3]), "expect"), "error");
    OPT_CHECK(err3 && streq_s(s_at(err3, "value"), "9") && !opj_get(err3, "message"));
    /* a table checkpoint: built by the scenario, no answer/path */
    const opj *c4 = opj_root(l.d[4]);
    char h4[17];
    uint8_t tab[4] = {1, 2, 3, 4};
    snprintf(h4, sizeof h4, "%016llx", (unsigned long long)XXH3_64bits(tab, 4));
    int64_t len4 = -1;
    OPT_CHECK(streq_s(s_at(c4, "checkpoint"), "tab one") && streq_s(s_at(c4, "kind"), "table") &&
              opj_int(opj_get(c4, "length"), 0, 1000, &len4) == 0 && len4 == 4 &&
              streq_s(s_at(c4, "hash"), h4) && !opj_get(c4, "answer") && !opj_get(c4, "path"));
    /* tile.create's expectation is its ok object: {"ok": {"handle": 2, "content_id": ...}} */
    const opj *ok6 = opj_get(opj_get(opj_root(l.d[6]), "expect"), "ok");
    int64_t hnd = 0;
    OPT_CHECK(ok6 && opj_int(opj_get(ok6, "handle"), 0, 100, &hnd) == 0 && hnd == 2);
    /* mesh.save: the 284 bytes (568 hex digits > 64) become {"$bytes": 284, "$xxh3": H} */
    uint8_t *mb = NULL;
    size_t ml = 0;
    OPT_CHECK(mesh_bytes(&mb, &ml) == 0);
    char hm[17] = "";
    if (mb) snprintf(hm, sizeof hm, "%016llx", (unsigned long long)XXH3_64bits(mb, ml));
    const opj *ok8 = opj_get(opj_get(opj_root(l.d[8]), "expect"), "ok");
    const opj *stub = opj_get(ok8, "bytes");
    int64_t nb = -1;
    OPT_CHECK(stub && opj_int(opj_get(stub, "$bytes"), 0, 100000, &nb) == 0 && nb == 284 &&
              streq_s(s_at(stub, "$xxh3"), hm));
    /* the mesh checkpoint points at that answer along the path ["bytes"]: request id 6
    ** (the runner numbers its requests 1, 2, ... (CONF-029); the raw line has no id of
    ** its own: hello 1, drop 2, mesh.create 3, tile.create 4, add_tile 5, save 6) */
    const opj *c9 = opj_root(l.d[9]);
    int64_t ans = -1;
    const opj *path = opj_get(c9, "path");
    OPT_CHECK(streq_s(s_at(c9, "checkpoint"), "mesh") && streq_s(s_at(c9, "hash"), hm) &&
              opj_int(opj_get(c9, "answer"), 0, 100, &ans) == 0 && ans == 6 && path &&
              path->type == OPJ_ARR && path->n == 1 && streq_s(opj_at(path, 0)->str, "bytes"));
    free(mb);
  }
  lines_free(&l);
  free(text);
  tree_free(&t);
}

OPT_TEST(traces_check, "CONF-083, CONF-084") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/ok.lua", OK_LUA) == 0);
  char *out = NULL, dir[PATH_MAX], line[256];
  OPT_CHECK(run_conform(&t, &out, "regen", NULL) == 0);
  free(out);
  snprintf(dir, sizeof dir, "%s/traces", t.root);
  OPT_CHECK(run_conform(&t, &out, "export-traces", dir, NULL) == 0);
  free(out);
  OPT_CHECK(run_conform(&t, &out, "check-traces", dir, "--port", g_port, NULL) == 0);
  OPT_CHECK(has(out, "checkpoints 2/2") && strcmp(last_line(out, line, sizeof line), "1 passed, 0 failed") == 0);
  free(out);
  char *good = tree_read(&t, "traces/g/ok.jsonl");
  OPT_CHECK(good != NULL);
  if (!good) { tree_free(&t); return; }
  /* an expectation the port's answer does not meet: the drop error's value */
  char *mod = strdup(good), *p = strstr(mod, "\"value\":\"9\"");
  OPT_CHECK(p != NULL);
  if (p) p[9] = '8';
  OPT_CHECK(tree_file(&t, "traces/g/ok.jsonl", mod) == 0);
  OPT_CHECK(run_conform(&t, &out, "check-traces", dir, "--port", g_port, NULL) != 0);
  OPT_CHECK(strcmp(last_line(out, line, sizeof line), "0 passed, 1 failed") == 0);
  free(out);
  free(mod);
  /* a checkpoint hash (of an answer's bytes) that differs */
  mod = strdup(good);
  p = strstr(mod, "{\"answer\":");
  if (!p) p = strstr(mod, "\"checkpoint\":\"mesh\"");
  char *h = p ? strstr(p, "\"hash\":\"") : NULL;
  OPT_CHECK(h != NULL);
  if (h) h[8] = h[8] == '0' ? '1' : '0';
  OPT_CHECK(tree_file(&t, "traces/g/ok.jsonl", mod) == 0);
  OPT_CHECK(run_conform(&t, &out, "check-traces", dir, "--port", g_port, NULL) != 0);
  OPT_CHECK(has(out, "checkpoint \"mesh\""));
  free(out);
  free(mod);
  free(good);
  tree_free(&t);
}

OPT_TEST(missing_op_fails, "CONF-052") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/op.lua",
                      "return { title = 'op', clauses = {}, run = function(t)\n"
                      "  t:call('no.such.op', {})\n"
                      "end }\n") == 0);
  OPT_CHECK(tree_file(&t, "golden/g/op.golden", "# x\nscenario g/op\n") == 0);
  char *out = NULL;
  OPT_CHECK(run_conform(&t, &out, "run", "--port", g_port, NULL) != 0);
  OPT_CHECK(has(out, "FAIL") && has(out, "no.such.op") && has(out, "field \"op\""));
  free(out);
  tree_free(&t);
}

OPT_TEST(verdict, "CONF-090") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/ok.lua", OK_LUA) == 0);
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/prop.lua",
                      "return { title = 'prop', clauses = {}, run = function(t)\n"
                      "  t:check(t:call('echo', { i64 = { 1 } }).i64[1] == 2, 'a property that fails')\n"
                      "end }\n") == 0);
  char *out = NULL, line[256];
  OPT_CHECK(run_conform(&t, &out, "regen", "--filter", "g/ok", NULL) == 0);
  free(out);
  OPT_CHECK(tree_file(&t, "golden/g/prop.golden", "# x\nscenario g/prop\n") == 0);
  /* all pass: one line per scenario, a summary, the closing line, status 0 */
  OPT_CHECK(run_conform(&t, &out, "run", "--port", g_port, "--filter", "g/ok", NULL) == 0);
  OPT_CHECK(has(out, "ok   g/ok") && has(out, "port: 1 scenarios"));
  OPT_CHECK(strcmp(last_line(out, line, sizeof line), "1 passed, 0 failed") == 0);
  free(out);
  /* a failing property fails the run */
  OPT_CHECK(run_conform(&t, &out, "run", "--port", g_port, NULL) != 0);
  OPT_CHECK(has(out, "FAIL g/prop") && has(out, "a property that fails"));
  OPT_CHECK(strcmp(last_line(out, line, sizeof line), "1 passed, 1 failed") == 0);
  free(out);
  tree_free(&t);
}

/* Replaces the first `from` after "expect": in line text by `to` (same or other length). */
static char *edit_expect(const char *text, const char *from, const char *to) {
  const char *e = strstr(text, "\"expect\":");
  const char *f = e ? strstr(e, from) : NULL;
  if (!f) return NULL;
  size_t n = strlen(text) + strlen(to) + 1;
  char *out = malloc(n);
  if (!out) return NULL;
  snprintf(out, n, "%.*s%s%s", (int)(f - text), text, to, f + strlen(from));
  return out;
}

OPT_TEST(trace_answer_matching, "CONF-082") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/num.lua",
                      "return { title = 'num', clauses = {}, run = function(t)\n"
                      "  t:call('echo', { f64 = { -0.0, 0.5 }, i64 = { 9007199254740993 }, str = { 'x' } })\n"
                      "end }\n") == 0);
  OPT_CHECK(tree_file(&t, "golden/g/num.golden", "# x\nscenario g/num\n") == 0);
  char *out = NULL, dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s/traces", t.root);
  OPT_CHECK(run_conform(&t, &out, "export-traces", dir, NULL) == 0);
  free(out);
  char *good = tree_read(&t, "traces/g/num.jsonl");
  OPT_CHECK(good && strstr(good, "\"expect\":{\"ok\":{"));
  if (!good) { tree_free(&t); return; }
  OPT_CHECK(run_conform(&t, &out, "check-traces", dir, "--port", g_port, NULL) == 0);
  free(out);
  static const struct {
    const char *from, *to;
    int pass;
  } cases[] = {
      {"-0,", "0,", 0},                                  /* -0 differs from 0, bit for bit */
      {"0.5]", "5e-1]", 1},                              /* numbers compare as binary64 values */
      {"0.5]", "0.5000000000000001]", 0},                /* the next binary64 */
      {"9007199254740993", "9007199254740992", 0},       /* integers compare exactly */
      {"\"x\"", "\"X\"", 0},                             /* texts byte for byte */
      {"\"str\":[\"x\"]", "\"str\":[\"x\",\"x\"]", 0},   /* list lengths */
      {"\"str\":", "\"extra\":1,\"str\":", 0},           /* an extra expected member */
      {"{\"ok\":{", "{\"ok\":null,\"x\":{", 1},         /* {"ok": null}: any ok answer */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *mod = edit_expect(good, cases[i].from, cases[i].to);
    OPT_CHECK(mod != NULL);
    if (!mod) continue;
    OPT_CHECK(tree_file(&t, "traces/g/num.jsonl", mod) == 0);
    int rc = run_conform(&t, &out, "check-traces", dir, "--port", g_port, NULL);
    if ((rc == 0) != cases[i].pass) fprintf(stderr, "  case %zu (%s -> %s): status %d\n%s\n", i, cases[i].from, cases[i].to, rc, out ? out : "");
    OPT_CHECK((rc == 0) == cases[i].pass);
    free(out);
    free(mod);
  }
  free(good);
  tree_free(&t);
}

/* A wrapper port: the reference's port with every error message (or value) rewritten by
** sed, written into the tree as an executable script. */
static int wrapper_port(const tree *t, const char *name, const char *sed_expr, char *path, size_t len) {
  char text[8192];
  snprintf(path, len, "%s/%s", t->root, name);
  snprintf(text, sizeof text, "#!/bin/sh\nexec '%s' | sed -u '%s'\n", g_port, sed_expr);
  if (write_file(path, text)) return -1;
  return chmod(path, 0755);
}

OPT_TEST(free_message, "CONF-015") {
  tree t;
  OPT_CHECK(tree_new(&t) == 0);
  OPT_CHECK(tree_file(&t, "conformance/scenarios/g/err.lua",
                      "return { title = 'err', clauses = {}, run = function(t)\n"
                      "  t:expect_error('drop', { handle = 9 }, { kind = 'argument', field = 'handle' })\n"
                      "  t:raw('{\"id\":5,', { kind = 'argument', field = 'request' })\n"
                      "  t:expect_error('math.sincos', { a = 1e300 }, { kind = 'out_of_range', field = 'a' })\n"
                      "end }\n") == 0);
  OPT_CHECK(tree_file(&t, "golden/g/err.golden", "# x\nscenario g/err\n") == 0);
  char port[PATH_MAX + 64], *out = NULL;
  /* every message in another language (UTF-8): the port still conforms */
  OPT_CHECK(wrapper_port(&t, "german-port.sh",
                        "s/\"message\":\"[^\"]*\"/\"message\":\"Fehler: \xc3\xbc" "berpr\xc3\xbc" "fen Sie das Feld\"/g",
                        port, sizeof port) == 0);
  OPT_CHECK(run_conform(&t, &out, "run", "--port", port, NULL) == 0);
  OPT_CHECK(has(out, "1 passed, 0 failed"));
  free(out);
  /* the same through a flat trace */
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s/traces", t.root);
  OPT_CHECK(run_conform(&t, &out, "export-traces", dir, NULL) == 0);
  free(out);
  OPT_CHECK(run_conform(&t, &out, "check-traces", dir, "--port", port, NULL) == 0);
  free(out);
  /* control: the wrapper is in effect; a changed value is caught */
  OPT_CHECK(wrapper_port(&t, "value-port.sh", "s/\"value\":\"9\"/\"value\":\"8\"/g", port, sizeof port) == 0);
  OPT_CHECK(run_conform(&t, &out, "run", "--port", port, NULL) != 0);
  free(out);
  tree_free(&t);
}

OPT_MAIN_BEGIN
if (find_tools()) {
  fprintf(stderr, "cannot find op-conform and onepath-port next to this test\n");
  return 1;
}
OPT_RUN(scenario_order);
OPT_RUN(missing_golden);
OPT_RUN(golden_file_text);
OPT_RUN(golden_match);
OPT_RUN(traces_export);
OPT_RUN(traces_check);
OPT_RUN(missing_op_fails);
OPT_RUN(verdict);
OPT_RUN(trace_answer_matching);
OPT_RUN(free_message);
OPT_MAIN_END
