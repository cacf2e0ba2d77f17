/*
** lua_api.c -- the Lua 5.4 state of op-conform and the "opc" module that the scenario
** DSL (conformance/lib/conform.lua) is built on: JSON <-> Lua values, request exchange
** with the implementation (and the in-process reference shadow), artifact hashing and
** first differences, answer comparison.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "conform.h"
#include "walk.h"

#define RUNNER_KEY "opc.runner"
#define ARRAY_MT_KEY "opc.array_mt"

static runner *get_runner(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, RUNNER_KEY);
  runner *r = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return r;
}

/* ------------------------------------------------------------ JSON -> Lua */

static void push_json(lua_State *L, const opj *v, int depth) {
  luaL_checkstack(L, 4, "JSON too deep");
  switch (v->type) {
  case OPJ_NULL: lua_pushlightuserdata(L, NULL); break;
  case OPJ_BOOL: lua_pushboolean(L, v->b); break;
  case OPJ_NUM: {
    int64_t i;
    if (v->str && !strpbrk(v->str, ".eE") && strcmp(v->str, "-0") != 0 &&
        opj_int(v, INT64_MIN, INT64_MAX, &i) == 0)
      lua_pushinteger(L, (lua_Integer)i);
    else
      lua_pushnumber(L, v->num);
    break;
  }
  case OPJ_STR: lua_pushlstring(L, v->str, v->len); break;
  case OPJ_ARR:
    lua_createtable(L, (int)(v->n < 1000000 ? v->n : 0), 0);
    for (size_t i = 0; i < v->n; i++) {
      push_json(L, v->items[i], depth + 1);
      lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_getfield(L, LUA_REGISTRYINDEX, ARRAY_MT_KEY);
    lua_setmetatable(L, -2);
    break;
  case OPJ_OBJ:
    lua_createtable(L, 0, (int)(v->n < 1000000 ? v->n : 0));
    for (size_t i = 0; i < v->n; i++) {
      push_json(L, v->items[i], depth + 1);
      lua_setfield(L, -2, v->keys[i]);
    }
    break;
  }
}

static int l_json_decode(lua_State *L) {
  size_t n;
  const char *s = luaL_checklstring(L, 1, &n);
  char err[200];
  opj_doc *d = opj_parse(s, n, err, sizeof err);
  if (!d) {
    lua_pushnil(L);
    lua_pushstring(L, err);
    return 2;
  }
  push_json(L, opj_root(d), 0);
  opj_free(d);
  return 1;
}

/* ------------------------------------------------------------ Lua -> JSON */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void write_lua(lua_State *L, int idx, opj_w *w, int depth) {
  idx = lua_absindex(L, idx);
  if (depth > OPJ_MAX_DEPTH * 2) luaL_error(L, "json_encode: nested too deep (a cycle?)");
  switch (lua_type(L, idx)) {
  case LUA_TNIL: opj_w_null(w); return;
  case LUA_TLIGHTUSERDATA:
    if (lua_touserdata(L, idx) == NULL) { opj_w_null(w); return; }
    break;
  case LUA_TBOOLEAN: opj_w_bool(w, lua_toboolean(L, idx)); return;
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) opj_w_int(w, (int64_t)lua_tointeger(L, idx));
    else opj_w_double(w, (double)lua_tonumber(L, idx)); /* CONF-030 */
    return;
  case LUA_TSTRING: {
    size_t n;
    const char *s = lua_tolstring(L, idx, &n);
    opj_w_strn(w, s, n);
    return;
  }
  case LUA_TTABLE: {
    luaL_checkstack(L, 6, "json_encode");
    int is_array = 0;
    if (lua_getmetatable(L, idx)) {
      lua_getfield(L, LUA_REGISTRYINDEX, ARRAY_MT_KEY);
      is_array = lua_rawequal(L, -1, -2);
      lua_pop(L, 2);
    }
    lua_Integer len = (lua_Integer)lua_rawlen(L, idx);
    size_t nkeys = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
      nkeys++;
      lua_pop(L, 1);
    }
    if (len > 0 && (size_t)len == nkeys) is_array = 1;
    if (is_array) {
      if ((size_t)len != nkeys) luaL_error(L, "json_encode: array with holes or extra keys");
      opj_w_arr_begin(w);
      for (lua_Integer i = 1; i <= len; i++) {
        lua_rawgeti(L, idx, i);
        write_lua(L, -1, w, depth + 1);
        lua_pop(L, 1);
      }
      opj_w_arr_end(w);
      return;
    }
    /* object: string keys in byte order */
    /* the key array is a userdata, so a Lua error below cannot leak it */
    const char **keys = lua_newuserdatauv(L, (nkeys ? nkeys : 1) * sizeof *keys, 0);
    size_t k = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
      lua_pop(L, 1);
      if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "json_encode: object keys must be strings");
      keys[k++] = lua_tostring(L, -1); /* the key stays alive: it is in the table */
    }
    qsort(keys, k, sizeof *keys, cmp_str);
    opj_w_obj_begin(w);
    for (size_t i = 0; i < k; i++) {
      opj_w_key(w, keys[i]);
      lua_getfield(L, idx, keys[i]);
      write_lua(L, -1, w, depth + 1);
      lua_pop(L, 1);
    }
    opj_w_obj_end(w);
    lua_pop(L, 1); /* keys */
    return;
  }
  default: break;
  }
  luaL_error(L, "json_encode: cannot encode a %s", luaL_typename(L, idx));
}

/* The writer lives in a userdata with a __gc so an error inside write_lua cannot leak it. */
static int wbox_gc(lua_State *L) {
  opj_w *w = lua_touserdata(L, 1);
  opj_w_free(w);
  return 0;
}

static opj_w *new_wbox(lua_State *L) {
  opj_w *w = lua_newuserdatauv(L, sizeof *w, 0);
  opj_w_init(w);
  if (luaL_newmetatable(L, "opc.wbox")) {
    lua_pushcfunction(L, wbox_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  return w;
}

static int l_json_encode(lua_State *L) {
  luaL_checkany(L, 1);
  opj_w *w = new_wbox(L);
  write_lua(L, 1, w, 0);
  if (w->oom) return luaL_error(L, "out of memory");
  lua_pushlstring(L, w->buf ? w->buf : "", w->len);
  opj_w_free(w);
  return 1;
}

/* ------------------------------------------------------------ exchange */

static int l_exchange(lua_State *L) {
  size_t n;
  const char *req = luaL_checklstring(L, 1, &n);
  if (memchr(req, '\n', n)) return luaL_error(L, "a request line may not contain a newline");
  runner *r = get_runner(L);
  const char *ans;
  size_t alen;
  char msg[256];
  if (tr_exchange(r->primary, req, n, &ans, &alen, msg, sizeof msg))
    return luaL_error(L, "transport: %s", msg);
  lua_pushlstring(L, ans, alen);
  if (!r->shadow) return 1;
  if (tr_exchange(r->shadow, req, n, &ans, &alen, msg, sizeof msg))
    return luaL_error(L, "reference shadow: %s", msg);
  lua_pushlstring(L, ans, alen);
  return 2;
}

/* ------------------------------------------------------------ artifacts */

static int l_artifact(lua_State *L) {
  const char *kind = luaL_checkstring(L, 1);
  size_t hl;
  const char *hex = luaL_checklstring(L, 2, &hl);
  uint8_t *b;
  size_t n;
  if (opc_unhex(hex, hl, &b, &n)) {
    lua_pushnil(L);
    lua_pushstring(L, "the artifact is not lower-case hex text of even length");
    return 2;
  }
  opc_art a;
  char msg[200];
  const char *layout = luaL_optstring(L, 3, NULL); /* CONF-200 */
  if (layout && (strcmp(kind, "table") || !opw_layout_known(layout))) {
    free(b);
    lua_pushnil(L);
    lua_pushfstring(L, strcmp(kind, "table") ? "a layout is given for table checkpoints only"
                                             : "unknown layout \"%s\" (see CONF-200)", layout);
    return 2;
  }
  int rc = opc_artifact(kind, b, n, &a, msg, sizeof msg);
  free(b);
  if (rc) {
    lua_pushnil(L);
    lua_pushstring(L, msg);
    return 2;
  }
  char h[17];
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, (lua_Integer)a.len);
  lua_setfield(L, -2, "length");
  snprintf(h, sizeof h, "%016llx", (unsigned long long)a.hash);
  lua_pushstring(L, h);
  lua_setfield(L, -2, "hash");
  lua_createtable(L, (int)a.nparts, 0);
  for (size_t i = 0; i < a.nparts; i++) {
    lua_createtable(L, 0, 3);
    lua_pushstring(L, a.parts[i].name);
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, (lua_Integer)a.parts[i].len);
    lua_setfield(L, -2, "length");
    snprintf(h, sizeof h, "%016llx", (unsigned long long)a.parts[i].hash);
    lua_pushstring(L, h);
    lua_setfield(L, -2, "hash");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_setfield(L, -2, "parts");
  opc_art_free(&a);
  return 1;
}

static int l_diff(lua_State *L) {
  const char *kind = luaL_checkstring(L, 1);
  size_t el, al;
  const char *eh = luaL_checklstring(L, 2, &el), *ah = luaL_checklstring(L, 3, &al);
  uint8_t *e = NULL, *a = NULL;
  size_t en, an;
  if (opc_unhex(eh, el, &e, &en) || opc_unhex(ah, al, &a, &an)) {
    free(e);
    lua_pushstring(L, "the artifact is not lower-case hex text");
    return 1;
  }
  char out[1200];
  const char *layout = luaL_optstring(L, 4, NULL), *cp = luaL_optstring(L, 5, "checkpoint");
  opc_difference(kind, layout, e, en, a, an, "reference", "port", out, sizeof out);
  runner *r = get_runner(L);
  if (r->svg_dir) opc_svg_checkpoint(r, cp, kind, layout, e, en, a, an, out, sizeof out);
  free(e);
  free(a);
  lua_pushstring(L, out);
  return 1;
}

/* ------------------------------------------------------------ answers */

static int l_compare(lua_State *L) {
  size_t el, al;
  const char *et = luaL_checklstring(L, 1, &el), *at = luaL_checklstring(L, 2, &al);
  opj_doc *e = opj_parse(et, el, NULL, 0), *a = opj_parse(at, al, NULL, 0);
  char *m = NULL;
  if (!e || !a) str_appendf(&m, "%s", !e ? "expectation is not JSON" : "answer is not JSON");
  else m = answer_mismatch(opj_root(e), opj_root(a));
  opj_free(e);
  opj_free(a);
  if (!m) return 0;
  lua_pushstring(L, m);
  free(m);
  return 1;
}

static int l_expect_of(lua_State *L) {
  size_t al;
  const char *at = luaL_checklstring(L, 1, &al);
  int any_ok = lua_toboolean(L, 2);
  opj_doc *a = opj_parse(at, al, NULL, 0);
  if (!a) return luaL_error(L, "expect_of: answer is not JSON");
  opj_w w;
  opj_w_init(&w);
  expect_of_answer(&w, opj_root(a), any_ok);
  opj_free(a);
  if (w.oom) { opj_w_free(&w); return luaL_error(L, "out of memory"); }
  lua_pushlstring(L, w.buf, w.len);
  opj_w_free(&w);
  return 1;
}

static int l_now_ms(lua_State *L) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  lua_pushnumber(L, (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6);
  return 1;
}

static const luaL_Reg opc_funcs[] = {
    {"json_decode", l_json_decode}, {"json_encode", l_json_encode}, {"exchange", l_exchange},
    {"artifact", l_artifact},       {"diff", l_diff},               {"compare", l_compare},
    {"expect_of", l_expect_of},     {"now_ms", l_now_ms},           {NULL, NULL}};

static int open_opc(lua_State *L) {
  luaL_newlib(L, opc_funcs);
  lua_pushlightuserdata(L, NULL);
  lua_setfield(L, -2, "null");
  lua_getfield(L, LUA_REGISTRYINDEX, ARRAY_MT_KEY);
  lua_setfield(L, -2, "array_mt");
  return 1;
}

/* ------------------------------------------------------------ state */

lua_State *opc_lua_open(runner *r, char *msg, size_t msglen) {
  lua_State *L = luaL_newstate();
  if (!L) { snprintf(msg, msglen, "cannot create a Lua state"); return NULL; }
  luaL_openlibs(L);
  lua_pushlightuserdata(L, r);
  lua_setfield(L, LUA_REGISTRYINDEX, RUNNER_KEY);
  lua_newtable(L);
  lua_pushstring(L, "array");
  lua_setfield(L, -2, "__name");
  lua_setfield(L, LUA_REGISTRYINDEX, ARRAY_MT_KEY);
  luaL_requiref(L, "opc", open_opc, 0);
  lua_pop(L, 1);
  /* package.path gets the DSL directory first */
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "path");
  lua_pushfstring(L, "%s/conformance/lib/?.lua;%s", r->src, lua_tostring(L, -1));
  lua_setfield(L, -3, "path");
  lua_pop(L, 2);
  lua_getglobal(L, "require");
  lua_pushstring(L, "conform");
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    snprintf(msg, msglen, "loading conformance/lib/conform.lua: %s", lua_tostring(L, -1));
    lua_close(L);
    return NULL;
  }
  lua_setfield(L, LUA_REGISTRYINDEX, "opc.conform");
  return L;
}

void opc_lua_close(lua_State *L) {
  if (L) lua_close(L);
}

static char *dup_field(lua_State *L, int idx, const char *key) {
  lua_getfield(L, idx, key);
  const char *s = lua_tostring(L, -1);
  char *d = NULL;
  str_appendf(&d, "%s", s ? s : "");
  lua_pop(L, 1);
  return d;
}

void opc_entries_free(scen_entry *e, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(e[i].name);
    free(e[i].path);
    free(e[i].title);
    free(e[i].clauses);
  }
  free(e);
}

int opc_lua_list(lua_State *L, scen_entry **out, size_t *n, char *msg, size_t msglen) {
  *out = NULL;
  *n = 0;
  lua_getfield(L, LUA_REGISTRYINDEX, "opc.conform");
  lua_getfield(L, -1, "list");
  lua_pushfstring(L, "%s/conformance/scenarios", get_runner(L)->src);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    snprintf(msg, msglen, "%s", lua_tostring(L, -1));
    lua_pop(L, 2);
    return -1;
  }
  size_t k = (size_t)lua_rawlen(L, -1);
  scen_entry *e = calloc(k ? k : 1, sizeof *e);
  if (!e) { lua_pop(L, 2); snprintf(msg, msglen, "out of memory"); return -1; }
  for (size_t i = 0; i < k; i++) {
    lua_rawgeti(L, -1, (lua_Integer)i + 1);
    e[i].name = dup_field(L, -1, "name");
    e[i].path = dup_field(L, -1, "path");
    e[i].title = dup_field(L, -1, "title");
    e[i].clauses = dup_field(L, -1, "clauses");
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  *out = e;
  *n = k;
  return 0;
}

static size_t int_field(lua_State *L, int idx, const char *key) {
  lua_getfield(L, idx, key);
  lua_Integer v = lua_tointeger(L, -1);
  lua_pop(L, 1);
  return v > 0 ? (size_t)v : 0;
}

static uint64_t hash_field(lua_State *L, int idx) {
  lua_getfield(L, idx, "hash");
  const char *s = lua_tostring(L, -1);
  uint64_t h = s ? strtoull(s, NULL, 16) : 0;
  lua_pop(L, 1);
  return h;
}

/* Reads result.checkpoints into got. */
static int read_checkpoints(lua_State *L, int res, golden *got) {
  lua_getfield(L, res, "checkpoints");
  size_t k = (size_t)lua_rawlen(L, -1);
  got->cps = calloc(k ? k : 1, sizeof *got->cps);
  if (!got->cps) { lua_pop(L, 1); return -1; }
  got->n = k;
  for (size_t i = 0; i < k; i++) {
    golden_cp *c = &got->cps[i];
    lua_rawgeti(L, -1, (lua_Integer)i + 1);
    int ci = lua_gettop(L);
    lua_getfield(L, ci, "name");
    snprintf(c->name, sizeof c->name, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
    lua_pop(L, 1);
    lua_getfield(L, ci, "kind");
    snprintf(c->kind, sizeof c->kind, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
    lua_pop(L, 1);
    c->len = int_field(L, ci, "length");
    c->hash = hash_field(L, ci);
    lua_getfield(L, ci, "parts");
    size_t np = lua_istable(L, -1) ? (size_t)lua_rawlen(L, -1) : 0;
    c->parts = np ? calloc(np, sizeof *c->parts) : NULL;
    c->nparts = c->parts ? np : 0;
    for (size_t p = 0; p < c->nparts; p++) {
      lua_rawgeti(L, -1, (lua_Integer)p + 1);
      int pi = lua_gettop(L);
      lua_getfield(L, pi, "name");
      snprintf(c->parts[p].name, sizeof c->parts[p].name, "%s",
               lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
      lua_pop(L, 1);
      c->parts[p].len = int_field(L, pi, "length");
      c->parts[p].hash = hash_field(L, pi);
      lua_pop(L, 1);
    }
    lua_pop(L, 2); /* parts, checkpoint */
  }
  lua_pop(L, 1);
  return 0;
}

int opc_lua_run(lua_State *L, const scen_entry *e, scen_result *res, golden *got, char **trace) {
  runner *r = get_runner(L);
  r->scenario = e->name; /* for --svg file names (CONF-205) */
  r->svg_count = 0;
  memset(got, 0, sizeof *got);
  if (trace) *trace = NULL;
  lua_getfield(L, LUA_REGISTRYINDEX, "opc.conform");
  lua_getfield(L, -1, "run");
  lua_pushstring(L, e->path);
  lua_pushstring(L, e->name);
  lua_createtable(L, 0, 2);
  lua_pushboolean(L, r->trace);
  lua_setfield(L, -2, "trace");
  lua_pushboolean(L, r->shadow != NULL);
  lua_setfield(L, -2, "shadow");
  lua_pushstring(L, r->ref_ops ? r->ref_ops : ""); /* CONF-054 */
  lua_setfield(L, -2, "ref_ops");
  if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
    str_appendf(&res->details, "runner error: %s\n", lua_tostring(L, -1));
    lua_pop(L, 2);
    return -1;
  }
  int ri = lua_gettop(L);
  res->errors_checked = int_field(L, ri, "errors_checked");
  res->calls = int_field(L, ri, "calls");
  lua_getfield(L, ri, "failures");
  size_t nf = (size_t)lua_rawlen(L, -1);
  for (size_t i = 0; i < nf; i++) {
    lua_rawgeti(L, -1, (lua_Integer)i + 1);
    str_appendf(&res->details, "%s\n", lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  res->passed = nf == 0;
  lua_getfield(L, ri, "ops"); /* CONF-054: the ops the scenario needs */
  size_t nops = lua_istable(L, -1) ? (size_t)lua_rawlen(L, -1) : 0;
  for (size_t i = 0; i < nops; i++) {
    lua_rawgeti(L, -1, (lua_Integer)i + 1);
    str_appendf(&res->ops, "%s%s", i ? " " : "", lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  int rc = read_checkpoints(L, ri, got);
  if (trace && r->trace) {
    lua_getfield(L, ri, "trace");
    size_t nt = lua_istable(L, -1) ? (size_t)lua_rawlen(L, -1) : 0, total = 0, at = 0;
    for (size_t i = 0; i < nt; i++) { /* sizes first: one allocation, linear in the trace */
      lua_rawgeti(L, -1, (lua_Integer)i + 1);
      size_t k = 0;
      if (lua_tolstring(L, -1, &k)) total += k;
      total += 1;
      lua_pop(L, 1);
    }
    char *t = malloc(total + 1);
    for (size_t i = 0; t && i < nt; i++) {
      lua_rawgeti(L, -1, (lua_Integer)i + 1);
      size_t k = 0;
      const char *line = lua_tolstring(L, -1, &k);
      if (line) memcpy(t + at, line, k), at += k;
      t[at++] = '\n';
      lua_pop(L, 1);
    }
    if (t) t[at] = '\0';
    *trace = t;
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  return rc;
}
