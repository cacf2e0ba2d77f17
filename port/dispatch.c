/*
** dispatch.c -- sessions, handle tables and request execution of the port protocol
** (spec/conformance.md, "Requests and answers" CONF-024 .. CONF-029, "Handles"
** CONF-040 .. CONF-043, a failed call changes nothing CONF-014; borrowed handles:
** build3d-runtime.md RT-151).
*/
#include "dispatch.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
#include "onepath_query.h"

/* CONF-043: at most this many handles are ever allocated in one session. */
#define OPD_MAX_HANDLES (1 << 24)

typedef struct slot {
  opd_kind kind; /* 0 once dropped */
  void *obj;
  int64_t owner; /* 0: the session owns obj; else the handle whose object owns it */
} slot;

struct opd_session {
  slot *slots; /* handle h lives in slots[h - 1] */
  size_t n, cap;
  uint64_t arm_after;   /* CONF-059: fail_alloc's k for the next request, 0 = none */
  op_alloc_count alloc; /* CONF-059: the running request's counter */
  int alloc_live;       /* 1 while a request armed by fail_alloc runs */
  uint32_t threads;     /* cached builds' thread count (POLY-228), 0 = the processors */
};

void opd_arm_alloc(opd_session *s, uint64_t after) { s->arm_after = after; }

op_alloc_count *opd_alloc(opd_session *s) { return s->alloc_live ? &s->alloc : NULL; }

void opd_set_threads(opd_session *s, uint32_t threads) {
  if (s) s->threads = threads > OP_PIPELINE_MAX_THREADS ? OP_PIPELINE_MAX_THREADS : threads;
}

uint32_t opd_threads(const opd_session *s) { return s ? s->threads : 0; }

opd_session *opd_session_new(void) { return calloc(1, sizeof(opd_session)); }

static void free_obj(opd_kind kind, void *obj) {
  switch (kind) {
  case OPD_TILE: op_tile_free(obj); break;
  case OPD_MESH: op_mesh_free(obj); break;
  case OPD_PRNG: free(obj); break;
  case OPD_TILECACHE: op_tilecache_free(obj); break;
  case OPD_CORRIDOR: op_corridor_free(obj); break;
  }
}

void opd_session_free(opd_session *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; i++)
    if (s->slots[i].kind && !s->slots[i].owner) free_obj(s->slots[i].kind, s->slots[i].obj);
  free(s->slots);
  free(s);
}

/* CONF-040: handles are 1, 2, 3, ... in order of creation, never reused. On failure
** the object is freed and OPD_PUT_LIMIT (CONF-043) or OPD_PUT_NOMEM returned. */
op_status opd_put_error(op_error *err, int64_t h) {
  if (h == OPD_PUT_LIMIT) /* CONF-043 */
    return op_fail(err, OP_E_LIMIT, "handle", "", "the session has used all 2^24 handles");
  return op_fail(err, OP_E_NOMEM, "handle", "", "out of memory for a handle");
}

static int64_t put(opd_session *s, opd_kind kind, void *obj, int64_t owner) {
  if (s->n >= OPD_MAX_HANDLES) { /* CONF-043 */
    if (!owner) free_obj(kind, obj);
    return OPD_PUT_LIMIT;
  }
  if (s->n == s->cap) {
    size_t nc = s->cap ? s->cap * 2 : 16;
    slot *ns = realloc(s->slots, nc * sizeof *ns);
    if (!ns) {
      if (!owner) free_obj(kind, obj);
      return OPD_PUT_NOMEM;
    }
    s->slots = ns;
    s->cap = nc;
  }
  s->slots[s->n].kind = kind;
  s->slots[s->n].obj = obj;
  s->slots[s->n].owner = owner;
  s->n++;
  return (int64_t)s->n;
}

int64_t opd_put(opd_session *s, opd_kind kind, void *obj) { return put(s, kind, obj, 0); }

/* RT-151: a borrowed object lives as long as its owner's handle. */
int64_t opd_put_borrowed(opd_session *s, opd_kind kind, void *obj, int64_t owner) {
  return put(s, kind, obj, owner);
}

/* A handle names a live object when it was not dropped and, for a borrowed object, its
** owner was not dropped either (RT-151). */
static slot *live_slot(opd_session *s, int64_t handle) {
  if (handle < 1 || (uint64_t)handle > s->n) return NULL;
  slot *sl = &s->slots[handle - 1];
  if (!sl->kind || (sl->owner && !s->slots[sl->owner - 1].kind)) return NULL;
  return sl;
}

void *opd_lookup(opd_session *s, opd_kind kind, int64_t handle) {
  slot *sl = live_slot(s, handle);
  return sl && sl->kind == kind ? sl->obj : NULL;
}

static int drop_any(opd_session *s, opd_kind kind, int64_t handle) {
  slot *sl = live_slot(s, handle);
  if (!sl || (kind && sl->kind != kind)) return -1;
  if (!sl->owner) free_obj(sl->kind, sl->obj); /* RT-151: a borrowed object stays */
  sl->kind = 0;
  sl->obj = NULL;
  return 0;
}

int opd_drop(opd_session *s, opd_kind kind, int64_t handle) { return drop_any(s, kind, handle); }

/* Kind-agnostic drop for the session op "drop" (port/ops_session.c). */
int opd_drop_any(opd_session *s, int64_t handle) { return drop_any(s, 0, handle); }

/* CONF-014, CONF-040, CONF-043: a failed request allocates no handle. Every handle
** allocated since the session held n0 is retired and its number given back: objects
** still live there are freed (borrowed ones stay with their owner, RT-151), whether or
** not the op already dropped them, so a request that failed at the limit leaves the
** same handles free for the next one. */
static void rollback(opd_session *s, size_t n0) {
  assert(n0 <= s->n);
  while (s->n > n0) {
    slot *sl = &s->slots[--s->n];
    if (sl->kind && !sl->owner) free_obj(sl->kind, sl->obj);
    sl->kind = 0;
    sl->obj = NULL;
    sl->owner = 0;
  }
}

/* CONF-035: an argument absent or of the wrong form is an argument error naming it;
** its value text is empty. */
op_status opd_arg_error(op_error *err, const char *field, const char *why) {
  return op_fail(err, OP_E_ARGUMENT, field, "", "%s", why);
}

op_status opd_nomem(op_error *err, const char *field) {
  return op_fail(err, OP_E_NOMEM, field, "", "out of memory (%s)", field);
}

/* ------------------------------------------------------------------ op lookup */

extern const opd_op opd_ops_query[]; /* query.* (port/ops_query.c; spec/query.md QRY-090) */
extern const opd_op opd_ops_query_surface[]; /* port/ops_query_surface.c; QSF-190 */
extern const opd_op opd_ops_corridor[]; /* port/ops_corridor.c; QCR-290 */

/* Every op table of the server, in lookup order (the first table naming an op wins). */
static const opd_op *const op_tables[] = {
    opd_ops_session, opd_ops_math,    opd_ops_format,   opd_ops_mesh,
    opd_ops_build3d, opd_ops_spans,   opd_ops_regions,  opd_ops_contours,
    opd_ops_polys,   opd_ops_pipeline, opd_ops_build2d, opd_ops_tilecache, opd_ops_query,
    opd_ops_query_surface, opd_ops_corridor};

const opd_op *const *opd_op_tables(size_t *n) {
  *n = sizeof op_tables / sizeof *op_tables;
  return op_tables;
}

const opd_op *opd_find_op(const char *name) {
  for (size_t t = 0; t < sizeof op_tables / sizeof *op_tables; t++)
    for (const opd_op *o = op_tables[t]; o->name; o++)
      if (strcmp(o->name, name) == 0) return o;
  return NULL;
}

/* ------------------------------------------------------------------ answers */

static void write_id(opj_w *out, int have_id, int64_t id) {
  opj_w_key(out, "id");
  if (have_id) opj_w_int(out, id);
  else opj_w_null(out);
}

/* CONF-012: a text cut to the record's size may end inside a UTF-8 sequence; that
** incomplete sequence is removed so the answer stays valid UTF-8. */
static void trim_utf8(char *s) {
  size_t n = strlen(s), i = n;
  while (i > 0 && ((unsigned char)s[i - 1] & 0xC0) == 0x80) i--;
  if (i == 0) return;
  unsigned char c = (unsigned char)s[i - 1];
  size_t need = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  if (n - (i - 1) < need) s[i - 1] = '\0';
}

/* CONF-026: {"id": ..., "error": {"kind", "field", "value", "message"}} */
static void write_error(opj_w *out, int have_id, int64_t id, const op_error *e0) {
  op_error ec = *e0, *e = &ec;
  trim_utf8(ec.field);
  trim_utf8(ec.value);
  trim_utf8(ec.message);
  out->need_comma = 0;
  opj_w_obj_begin(out);
  write_id(out, have_id, id);
  opj_w_key(out, "error");
  opj_w_obj_begin(out);
  opj_w_key(out, "kind");
  opj_w_str(out, op_status_name(e->kind));
  opj_w_key(out, "field");
  opj_w_str(out, e->field);
  opj_w_key(out, "value");
  opj_w_str(out, e->value);
  opj_w_key(out, "message");
  opj_w_str(out, e->message);
  opj_w_obj_end(out);
  opj_w_obj_end(out);
}

static const opj empty_args = {OPJ_OBJ, 0, 0, NULL, 0, 0, NULL, NULL};

void opd_execute(opd_session *s, const char *line, size_t len, opj_w *out) {
  op_error e;
  op_clear(&e);
  int have_id = 0;
  int64_t id = 0;
  char msg[200];
  size_t off = 0;
  int lim = 0;
  opj_doc *doc = opj_parse_ex(line, len, msg, sizeof msg, &off, &lim);
  if (!doc) { /* CONF-022, CONF-023, CONF-037: the value is empty; the message gives the offset */
    (void)off;
    op_fail(&e, lim ? OP_E_LIMIT : OP_E_ARGUMENT, "request", "",
            lim ? "request exceeds a reader limit (%s)" : "request is not valid JSON (%s)", msg);
    write_error(out, 0, 0, &e);
    return;
  }
  const opj *req = opj_root(doc);
  const opj *jid = opj_get(req, "id"), *jop = opj_get(req, "op"), *jargs = opj_get(req, "args");
  /* CONF-024: the id is read first so that every later error can echo it. */
  if (jid && opj_int(jid, 0, ((int64_t)1 << 53) - 1, &id) == 0) have_id = 1;
  if (req->type != OPJ_OBJ) {
    op_fail(&e, OP_E_ARGUMENT, "request", "", "a request is a JSON object");
    goto fail;
  }
  for (size_t i = 0; i < req->n; i++) {
    const char *k = req->keys[i];
    if (strcmp(k, "id") && strcmp(k, "op") && strcmp(k, "args")) {
      op_fail(&e, OP_E_ARGUMENT, "request", k, "unknown request member");
      goto fail;
    }
  }
  if (!have_id) {
    op_fail(&e, OP_E_ARGUMENT, "id", "", "id must be an integer in [0, 2^53 - 1]");
    goto fail;
  }
  if (!jop || jop->type != OPJ_STR) {
    op_fail(&e, OP_E_ARGUMENT, "op", "", "op must be a string");
    goto fail;
  }
  if (jargs && jargs->type != OPJ_OBJ) {
    op_fail(&e, OP_E_ARGUMENT, "args", "", "args must be an object");
    goto fail;
  }
  const opd_op *op = opd_find_op(jop->str);
  if (!op) { /* CONF-027 */
    op_fail(&e, OP_E_ARGUMENT, "op", jop->str, "unknown op");
    goto fail;
  }
  opj_w res;
  opj_w_init(&res);
  size_t n0 = s->n;
  /* CONF-059: an armed session counts this request's allocations; the arming is used up */
  s->alloc.n = 0;
  s->alloc.fail_at = s->arm_after;
  s->alloc_live = s->arm_after != 0;
  s->arm_after = 0;
  op_status st = op->fn(s, jargs ? jargs : &empty_args, &res, &e);
  s->alloc_live = 0;
  if (st == OP_OK && res.oom) st = op_fail(&e, OP_E_NOMEM, "answer", "", "answer too large");
  if (st != OP_OK) {
    if (e.kind == OP_OK) e.kind = st;
    rollback(s, n0); /* CONF-014: the failed request's handles are given back */
    opj_w_free(&res);
    goto fail;
  }
  out->need_comma = 0;
  opj_w_obj_begin(out);
  write_id(out, 1, id);
  opj_w_key(out, "ok");
  opj_w_raw(out, "{", 1);
  if (res.len) opj_w_raw(out, res.buf, res.len);
  opj_w_raw(out, "}", 1);
  opj_w_obj_end(out);
  opj_w_free(&res);
  opj_free(doc);
  return;
fail:
  write_error(out, have_id, id, &e);
  opj_free(doc);
}
