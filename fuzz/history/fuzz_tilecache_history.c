/*
** fuzz_tilecache_history.c -- SKELETON of the obstacle-history harness (issue 7), waiting for
** the run-time tile cache (issue 6, spec/build3d-runtime.md). See fuzz/history/README.md.
**
** Input: fdp.h decodes the bytes into a trace of tile-cache edits on a small generated level;
** each edit is one protocol request (docs/porting.md) executed by the port dispatcher and
** recorded by optrace.h as a flat conformance trace. Oracles (TODO(issue 6) below): repair on
** = repair off; mesh = fresh build with the same obstacles and volumes; independent of Update
** slicing; failed requests change nothing; snapshot round trip.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "fdp.h"
#include "optrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_EDITS 48

/* Protocol op names. TODO(issue 6): the names and arguments build3d-runtime.md defines. */
enum { OP_BUILD, OP_ADD_OBSTACLE, OP_ADD_VOLUME, OP_REMOVE, OP_UPDATE, OP_SNAP_SAVE, OP_SNAP_LOAD,
       OP_MESH, NOPS };
static const char *const OPS[NOPS] = {
    "tilecache.build",        /* {soup, settings, repair} -> {handle, mesh} */
    "tilecache.add_obstacle", /* {cache, obstacle} -> {id} */
    "tilecache.add_volume",   /* {cache, volume} -> {id} */
    "tilecache.remove",       /* {cache, id} -> {} */
    "tilecache.update",       /* {cache, max_tiles} -> {rebuilt, queued} */
    "tilecache.snapshot_save",/* {cache} -> {bytes} */
    "tilecache.snapshot_load",/* {cache, bytes} -> {} */
    "mesh.save",              /* {mesh} -> {bytes} */
};

typedef struct hist {
  opd_session *s;
  optrace tr;
  int64_t next_id;
  int64_t cache, mesh;      /* handles (0 until the build answered) */
  int64_t ids[64];          /* obstacle / volume ids handed out, removed ones included */
  int nids;
  op_bytes snaps[4];
  int nsnaps;
} hist;

static int64_t exec(hist *h, opj_w *w, const char *note) {
  if (w->oom) abort();
  opj_w aw;
  opj_w_init(&aw);
  optrace_pending(&h->tr, w->buf, w->len);
  opd_execute(h->s, w->buf, w->len, &aw);
  opj_doc *ad = opj_parse(aw.buf, aw.len, NULL, 0);
  if (!ad) optrace_fail(&h->tr, "the answer is not JSON");
  optrace_record(&h->tr, w->buf, w->len, opj_root(ad), note);
  int64_t v = 0;
  const opj *ok = opj_get(opj_root(ad), "ok");
  if (ok) {
    if (opj_int(opj_get(ok, "id"), 1, INT64_MAX, &v)) opj_int(opj_get(ok, "handle"), 1, INT64_MAX, &v);
  }
  opj_free(ad);
  opj_w_free(&aw);
  opj_w_free(w);
  return v;
}

static void begin(hist *h, opj_w *w, int op) {
  opj_w_init(w);
  opj_w_obj_begin(w);
  opj_w_key(w, "id");
  opj_w_int(w, ++h->next_id);
  opj_w_key(w, "op");
  opj_w_str(w, OPS[op]);
  opj_w_key(w, "args");
  opj_w_obj_begin(w);
}

static void end(opj_w *w) {
  opj_w_obj_end(w);
  opj_w_obj_end(w);
}

/* A number for an obstacle field: usually a small valid value, sometimes one of the invalid
** classes the spec names (NaN, infinities, beyond 2^21, zero or negative sizes). */
static void w_num(opj_w *w, fdp *f, double lo, double hi, int size_like) {
  switch (fdp_choice(f, 16)) {
    case 0: opj_w_str(w, "NaN"); return;
    case 1: opj_w_str(w, fdp_bool(f) ? "Infinity" : "-Infinity"); return;
    case 2: opj_w_double(w, fdp_bool(f) ? 2097152.5 : -2097152.5); return;
    case 3: if (size_like) { opj_w_double(w, fdp_bool(f) ? 0.0 : -1.0); return; } break;
    default: break;
  }
  opj_w_double(w, lo + (hi - lo) * (double)fdp_range(f, 0, 64) / 64.0);
}

static void w_vec3(opj_w *w, fdp *f, double lo, double hi, int size_like) {
  opj_w_arr_begin(w);
  for (int k = 0; k < 3; k++) w_num(w, f, lo, hi, size_like);
  opj_w_arr_end(w);
}

/* An obstacle object as SPAN-093 writes it in settings.obstacles. */
static void w_obstacle(opj_w *w, fdp *f, char *note, size_t cap) {
  static const char *shapes[3] = {"cylinder", "box", "oriented_box"};
  int k = (int)fdp_choice(f, 3);
  opj_w_obj_begin(w);
  opj_w_key(w, "shape");
  opj_w_str(w, shapes[k]);
  if (k == 0) {
    opj_w_key(w, "center"); w_vec3(w, f, 0, 16, 0);
    opj_w_key(w, "radius"); w_num(w, f, 0.25, 3, 1);
    opj_w_key(w, "height"); w_num(w, f, 0, 4, 1);
  } else if (k == 1) {
    opj_w_key(w, "bmin"); w_vec3(w, f, 0, 8, 0);
    opj_w_key(w, "bmax"); w_vec3(w, f, 8, 16, 0);
  } else {
    opj_w_key(w, "center"); w_vec3(w, f, 0, 16, 0);
    opj_w_key(w, "half"); w_vec3(w, f, 0.25, 4, 1);
    opj_w_key(w, "yaw"); w_num(w, f, -3.5, 3.5, 0);
  }
  opj_w_obj_end(w);
  snprintf(note, cap, "%s obstacle", shapes[k]);
}

/* Oracles. TODO(issue 6): each compares byte strings from the tile-cache and mesh ops. */
static void check_repair_on_off(hist *h) { (void)h; /* TODO(issue 6): twin cache, repair off */ }
static void check_fresh_build(hist *h) { (void)h; /* TODO(issue 6): build with live obstacles/volumes */ }
static void check_slicing(hist *h) { (void)h; /* TODO(issue 6): twin cache, Update(all) each step */ }
static void check_unchanged_on_error(hist *h) { (void)h; /* TODO(issue 6): snapshot before/after */ }

static void step(hist *h, fdp *f) {
  opj_w w;
  char note[128] = "";
  switch (fdp_choice(f, 8)) {
    case 0: case 1:
      begin(h, &w, OP_ADD_OBSTACLE);
      opj_w_key(&w, "cache"); opj_w_int(&w, h->cache);
      opj_w_key(&w, "obstacle"); w_obstacle(&w, f, note, sizeof note);
      end(&w);
      { int64_t id = exec(h, &w, note); if (id && h->nids < 64) h->ids[h->nids++] = id; }
      break;
    case 2: /* TODO(issue 6): a volume object as SPAN-093's settings.volumes item */
      break;
    case 3: { /* remove: a live, removed or unknown id */
      int64_t id = h->nids && fdp_choice(f, 4) ? h->ids[fdp_choice(f, (size_t)h->nids)] : 1000 + (int64_t)fdp_range(f, 0, 9);
      begin(h, &w, OP_REMOVE);
      opj_w_key(&w, "cache"); opj_w_int(&w, h->cache);
      opj_w_key(&w, "id"); opj_w_int(&w, id);
      end(&w);
      exec(h, &w, "");
      break;
    }
    case 4: case 5: {
      static const int64_t budgets[4] = {1, 2, 3, 1000000};
      begin(h, &w, OP_UPDATE);
      opj_w_key(&w, "cache"); opj_w_int(&w, h->cache);
      opj_w_key(&w, "max_tiles"); opj_w_int(&w, budgets[fdp_choice(f, 4)]);
      end(&w);
      exec(h, &w, "");
      break;
    }
    case 6: /* TODO(issue 6): snapshot save (keep the bytes) */
      break;
    default: /* TODO(issue 6): restore a saved or mutated snapshot */
      break;
  }
  check_unchanged_on_error(h);
  /* TODO(issue 6): only when the rebuild queue is empty */
  check_repair_on_off(h);
  check_fresh_build(h);
  check_slicing(h);
}

static void exec_text(void *ctx, const char *req, size_t len, const char *note) {
  hist *h = ctx;
  opj_w w;
  opj_w_init(&w);
  opj_w_raw(&w, req, len);
  exec(h, &w, note);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hist h;
  memset(&h, 0, sizeof h);
  h.s = opd_session_new();
  if (!h.s) return 0;
  optrace_init(&h.tr, "tilecache_history", "obstacle history (skeleton)", "[]");
  if (optrace_is_text(data, size)) {
    optrace_each_request(data, size, exec_text, &h);
  } else {
    fdp f;
    fdp_init(&f, data, size);
    /* TODO(issue 6): level.generate + settings + OP_BUILD; keep the cache and mesh handles */
    for (int i = 0; i < MAX_EDITS && fdp_left(&f) > 0; i++) step(&h, &f);
  }
  for (int i = 0; i < h.nsnaps; i++) op_bytes_free(&h.snaps[i]);
  optrace_free(&h.tr);
  opd_session_free(h.s);
  return 0;
}
