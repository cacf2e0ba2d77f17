/*
** fuzz_tilecache_history.c -- the obstacle-history harness of the run-time tile cache
** (spec/build3d-runtime.md; issue 7). See fuzz/history/README.md.
**
** Input. Binary (the usual case): fdp.h decodes the bytes into a small generated level and a
** history of up to 40 tile-cache edits -- add cylinder / box / oriented box / volume (values
** mostly valid, some NaN, infinite, beyond 2^21, zero or negative sizes, too many points),
** remove by id (live, already removed, unknown, 0, beyond u32), tilecache.update with budgets
** 0, 1, 2, 3, 2^32 - 1 or none (UpdateAll), snapshot save, restore of an earlier snapshot
** (as saved, or mutated), direct tile changes on the cache's mesh (RT-018: refused). Or text:
** a trace this harness wrote (input starting with '{' or '#'), replayed with the same oracles.
**
** Every history step is ONE protocol request (docs/porting.md) executed by the port's
** dispatcher in the "main" session and recorded by optrace.h as a flat conformance trace
** (onepath-trace/0): `op-conform check-traces` replays it against any port, and this harness
** replays it with every oracle (text mode). The oracles run on copies in a second, private
** session and are not part of the trace; only their checkpoint reads of the main cache
** (mesh.save and tilecache.snapshot_save, note "oracle checkpoint") are recorded, so that a
** port is checked on the bytes too. The build request's note names the harness options
** ("slicing twin: ..."), so a text replay runs the same oracles.
**
** Oracles:
**  0. prediction, at every request on the main cache: an add is refused exactly when the
**     settings validator (SPAN-031 / SPAN-033) refuses the same shape in settings, with the
**     same kind, and field obstacle.F for obstacles[0].F (RT-023, RT-040); ids are 1, 2, 3...
**     per kind and never reused (RT-130); a remove of a non-live id is argument `id`
**     (RT-053); Update(k) processes min(k, queued) tiles and leaves queued - k (RT-060);
**     edits only append to the queue (RT-051); direct AddTile/RemoveTile/ReplaceTile/
**     RestoreState on the cache's mesh fail with argument `mesh` (RT-018);
**  1. repair on = repair off (RT-106): a twin cache built with the opposite `repair` gets
**     the same requests; every answer is equal, and at each checkpoint mesh.save and
**     tilecache.snapshot_save are equal byte for byte;
**  2. baking (RT-027, RT-043): at each checkpoint the mesh equals a fresh plain build
**     (build3d.*) whose settings carry the live obstacles in `obstacles` and the live
**     volumes appended to `volumes`, tile by tile by (x, z, layer): tile bytes (so content
**     id), and links with their targets named by (x, z, layer, polygon) (slots and
**     generations may differ, RT-027); at the build itself, cached = plain byte for byte
**     (RT-015);
**  3. slicing (RT-014, RT-062): a twin cache gets the same edits but only UpdateAll
**     (after every edit, or only at the checkpoints: an option of the input); at each
**     checkpoint its tiles equal the main cache's as in 2, and its TCAC section (live
**     obstacles, volumes, next ids, empty queue) is byte for byte the main's;
**  4. a failed request changes nothing (RT-001, RT-053, RT-061, SNAP-021): mesh.save and
**     tilecache.snapshot_save of the main cache are the same before and after;
**  5. snapshots (RT-132 .. RT-134, SNAP-016 .. SNAP-022): the TCAC section of every saved
**     snapshot holds exactly the model's live obstacles and volumes (values bit for bit,
**     ascending ids) and next ids; a restore twin loads the main's snapshot at every
**     checkpoint (it must load, save the same bytes and give the same mesh bytes), then
**     gets the same requests as the main cache until the next checkpoint, where it must
**     again be byte for byte the main (RT-134: a restored cache behaves as the original);
**     after a successful restore, snapshot_save gives back the loaded bytes (SNAP-022).
** A checkpoint is taken after every request that leaves the main queue empty when the
** state changed since the last one. On failure the harness prints the oracle's message
** (the first tile and field that differ) and the trace, then aborts.
**
** Speed (issue 17; every oracle above compares what it compared before). Each point in two
** sentences:
**  - OP_FUZZ_LIB_NO_TRACE_CMP: scripts/fuzz.sh and fuzz/oss-fuzz/build.sh link this
**    harness's libFuzzer build against a library whose ref/build3d/ objects have no
**    comparison tracing. The input bytes are small decisions, not magic values that
**    tracing would help to find, and the tracing of the pipeline's loops was half the time.
**  - Twin pool: the three twins are cached builds of the main build's request, kept with
**    the oracle session across inputs (up to POOL_N) and reset by RestoreState of the
**    snapshot each saved right after its build. A restore costs about a tenth of a build,
**    and RT-133/RT-134 make the reset twin the freshly built one (a new twin is reset the
**    same way before its first use, so no verdict depends on what ran before).
**  - Fresh builds (oracle 2) call the op's own decoder and Mesh3DPipeline.Build* on one
**    thread, without the op's tile copies and handles, and their mesh bytes are remembered
**    (MEMO_N, least recently used replaced). POLY-228 makes the bytes those of any thread
**    count, and a build is a pure function of its request text; the memo's buffers are
**    allocated once so that a growing memo does not make libFuzzer re-run inputs.
**  - Links are compared field by field (link_same) and printed only when they differ. The
**    verdict is that of comparing the printed texts, whose printing was 3.5 % of the time.
**  - libFuzzer re-runs an input that allocated more blocks than it freed: an input that
**    built a twin frees as many blocks of a ballast (bal_even), and twins are reset at the
**    end of each input. Leak detection is unchanged for every other input.
**  - Under libFuzzer the harness puts -entropic_feature_frequency_threshold=0 before the
**    command line's flags (LLVMFuzzerInitialize; a flag given there wins). libFuzzer's
**    entropic bookkeeping otherwise scans a list of every feature seen fewer than 255 times
**    for each of ~5000 features per input, a quarter of the time of the first thousands.
**  - Main sessions (binary mode): the session that ran an input's build request (always
**    id 1, the same text for the same level and options) is kept with its answer text
**    (MAIN_N, least recently used replaced) and serves the next input with that text; the
**    cache is reset at the end of each input by RestoreState of its snapshot saved right
**    after the build. Binary inputs make and drop no handle after the build, so the trace
**    is byte for byte that of a fresh session (checked), and RT-133/RT-134 make the reset
**    cache the built one (a new session serves its first input fresh, as the twins).
**  - Cached builds run on one thread (opd_set_threads, op_pipeline_build_*_cached_opt).
**    POLY-228 makes the bytes those of any thread count; starting and joining worker
**    threads for every 4-tile build (and ASan's bookkeeping of each thread) cost a quarter
**    of the CPU time, and on a busy machine the second thread mostly waited for a core.
** Measured in fuzz/history/README.md ("Cost").
*/
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "ops_settings.h"
#include "fdp.h"
#include "onepath.h"
#include "onepath_build3d.h"
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
#include "opj.h"
#include "ops_pipeline.h"
#include "optrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__asan_default_options(void);

/* ASan's defaults for this harness (an environment ASAN_OPTIONS still wins): a 16 MB
** quarantine instead of 256 MB. Every input allocates some hundred MB in whole builds; with
** the large quarantine nearly every allocation touched fresh pages (page faults and malloc
** fill were a quarter of the time). A use after free is still found while the freed block
** is among the last 16 MB freed, which covers a step of a history. Unused without ASan. */
const char *__asan_default_options(void) { return "quarantine_size_mb=16"; }

#define MAX_STEPS 40 /* binary mode: history steps per input */
#define MAX_LIVE 96  /* the model follows this many live obstacles and volumes each */
#define MAX_SNAPS 6
#define NOTE_CHECK "oracle checkpoint"
#define NOTE_OPT_CHECKS "slicing twin: UpdateAll at checkpoints only"

/* ------------------------------------------------------------------ model */

/* One live obstacle or volume (which one: the list it is in). A union, so that a model
** stays small: ASan makes every large stack frame and allocation a fresh mapping, whose
** page faults were a fifth of this harness's time. */
typedef struct item {
  uint32_t id;
  union {
    op_obstacle o;      /* obstacles */
    op_convex_volume v; /* volumes */
  };
} item;

typedef struct model {
  int known; /* 0: the live sets are unknown (a text input did something the model misses) */
  item obs[MAX_LIVE], vols[MAX_LIVE];
  int nobs, nvols;
  uint32_t next_obs, next_vol; /* RT-130 */
} model;

typedef struct snap {
  op_bytes b;
} snap;

typedef struct fresh_memo {
  char *sig; /* the fresh build's request text */
  op_bytes mesh;
} fresh_memo;

/* Oracle 2's fresh builds are pure functions of their request text, and inputs repeat
** them (the RT-015 build of the same level, the same live set after a removal), so their
** mesh bytes are remembered across checkpoints and inputs: up to MEMO_N requests, the
** least recently used replaced first, at most MEMO_BYTES in all. With the twin pool (below)
** this is the state that outlives an input; it changes no verdict (a hit returns the bytes
** the build would). */
#define MEMO_N 1024
#define MEMO_BYTES (64u << 20)
typedef struct memo_set {
  fresh_memo e[MEMO_N]; /* most recently used first */
  uint64_t key[MEMO_N]; /* xxh3 of sig, to skip most comparisons */
  unsigned n;
  size_t bytes;
  int ready; /* the MEMO_N entries' buffers are allocated */
  uint64_t hits, misses; /* statistics (OP_FUZZ_HIST_STATS) */
} memo_set;
static memo_set memos;

/* One cache: handles in its session. */
typedef struct cache {
  int on;
  int64_t cache, mesh;
} cache;

typedef struct hist {
  opd_session *s;  /* the main session: the trace */
  opd_session *os; /* the oracles' session */
  optrace tr;
  int64_t next_id;
  int text;        /* text-mode input */
  int twin_checks; /* option: the slicing twin updates only at checkpoints */
  cache main, off, slice, rest; /* main; repair-off twin; slicing twin; restore twin */
  char *build_op;  /* the main build's op and args (JSON text), for the fresh build */
  char *build_args;
  model m;
  int queued, qknown;  /* the main queue's length (from the answers) */
  int dirty;           /* state changed since the last checkpoint */
  int pre_valid;       /* pre_mesh_b / pre_snap_b hold the main cache's current bytes */
  snap snaps[MAX_SNAPS];
  int nsnaps;
  uint64_t saved[64]; /* xxh3 of every snapshot the main cache saved (the first 64) */
  int nsaved;
  int foreign;      /* a snapshot the cache did not save was restored: oracle 2 is off */
  int64_t tiles[8]; /* tile handles from the build answer (for the RT-018 probes) */
  int ntiles;
  uint32_t extent;  /* binary mode: the level's extent in x and z (world units) */
  double ylo, yhi;  /* binary mode: heights of interest */
  int nchecks;      /* statistics (OP_FUZZ_HIST_STATS) */
  op_bytes pre_mesh_b, pre_snap_b; /* oracle 4: the main cache before a request */
  struct main_slot *mslot; /* binary mode: the kept main session this input runs in */
  op_tilecache_stats stat0; /* the main cache's counters at the build (OP_FUZZ_HIST_STATS) */
} hist;

#define fail(h, ...) optrace_fail(&(h)->tr, __VA_ARGS__)

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static double rdf64(const uint8_t *p) {
  uint64_t u = rd64(p);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

static int bytes_eq(const op_bytes *a, const op_bytes *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

static double pz(double v) { return v == 0.0 ? 0.0 : v; } /* RT-024: -0.0 stored as +0.0 */

/* ------------------------------------------------------- running requests */

/* Executes a request text in a session; returns the parsed answer (caller frees). */
static opj_doc *run(opd_session *s, const char *req, size_t len) {
  opj_w aw;
  opj_w_init(&aw);
  opd_execute(s, req, len, &aw);
  if (aw.oom) abort();
  opj_doc *d = opj_parse(aw.buf, aw.len, NULL, 0);
  opj_w_free(&aw);
  return d;
}

/* A quiet request (not in the trace) built with printf. */
static opj_doc *runf(hist *h, opd_session *s, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof buf) abort();
  opj_doc *d = run(s, buf, (size_t)n);
  if (!d) fail(h, "the answer to %s is not JSON", buf);
  return d;
}

static const opj *ok_of(const opj_doc *d) { return d ? opj_get(opj_root(d), "ok") : NULL; }
static const opj *err_of(const opj_doc *d) { return d ? opj_get(opj_root(d), "error") : NULL; }

static const char *err_str(const opj_doc *d, const char *k) {
  const opj *v = opj_get(err_of(d), k);
  return v && v->type == OPJ_STR ? v->str : "";
}

/* The bytes of {op, key: handle} (mesh.save, tilecache.snapshot_save); -1 if it failed.
** The oracles' reads call the library on the session's objects directly (the same calls
** the ops make, without the hex round trip that would cost a quarter of the time); the
** protocol request is the fallback when the handle is not of the expected kind, so its
** answer decides then. The main cache's checkpoint reads go through the protocol and the
** trace (main_checkpoint_bytes). */
static int read_bytes(hist *h, opd_session *s, const char *op, const char *key, int64_t handle,
                      op_bytes *out) {
  out->data = NULL;
  out->len = 0;
  if (!strcmp(op, "mesh.save")) {
    op_mesh *m = opd_lookup(s, OPD_MESH, handle);
    if (m) return op_mesh_save(m, out, NULL) == OP_OK ? 0 : -1;
  } else {
    op_tilecache *c = opd_lookup(s, OPD_TILECACHE, handle);
    if (c) return op_tilecache_snapshot_save(c, out, NULL) == OP_OK ? 0 : -1;
  }
  opj_doc *d = runf(h, s, "{\"id\":0,\"op\":\"%s\",\"args\":{\"%s\":%" PRId64 "}}", op, key, handle);
  const opj *b = opj_get(ok_of(d), "bytes");
  int r = -1;
  if (b && opj_hexbytes(b, &out->data, &out->len) == 0) r = 0;
  opj_free(d);
  return r;
}

static void cache_bytes(hist *h, opd_session *s, const cache *c, const char *who, op_bytes *mesh,
                        op_bytes *snp) {
  if (read_bytes(h, s, "mesh.save", "mesh", c->mesh, mesh))
    fail(h, "%s: mesh.save of its mesh %" PRId64 " failed", who, c->mesh);
  if (snp && read_bytes(h, s, "tilecache.snapshot_save", "cache", c->cache, snp))
    fail(h, "%s: tilecache.snapshot_save of cache %" PRId64 " failed", who, c->cache);
}

/* ------------------------------------------------ mesh bytes, tile by tile (MESH-040) */

typedef struct rec {
  uint32_t slot, gen;
  int32_t x, z, layer;
  const uint8_t *tile;
  uint32_t tlen;
  const uint8_t *edits;
  uint32_t nedits;
  const uint8_t *links;
  uint32_t nlinks;
} rec;

typedef struct meshv {
  rec *r;
  uint32_t n;
} meshv;

static int rec_cmp(const void *a, const void *b) {
  const rec *p = a, *q = b;
  if (p->x != q->x) return p->x < q->x ? -1 : 1;
  if (p->z != q->z) return p->z < q->z ? -1 : 1;
  if (p->layer != q->layer) return p->layer < q->layer ? -1 : 1;
  return 0;
}

/* Splits mesh bytes into tile records (in slot order; sorted later). -1 if malformed. */
static int mesh_parse(const op_bytes *b, meshv *v) {
  v->r = NULL;
  v->n = 0;
  if (b->len < 72 || memcmp(b->data, "OPMS", 4) != 0) return -1;
  size_t off = 72, cap = 0;
  while (off < b->len) {
    const uint8_t *d = b->data;
    if (off + 24 > b->len) return -1;
    rec r;
    r.slot = rd32(d + off);
    r.gen = rd32(d + off + 4);
    r.x = (int32_t)rd32(d + off + 8);
    r.z = (int32_t)rd32(d + off + 12);
    r.layer = (int32_t)rd32(d + off + 16);
    r.tlen = rd32(d + off + 20);
    off += 24;
    if (off + (size_t)r.tlen + 4 > b->len) return -1;
    r.tile = d + off;
    off += r.tlen;
    r.nedits = rd32(d + off);
    off += 4;
    if (off + 8 * (size_t)r.nedits + 4 > b->len) return -1;
    r.edits = d + off;
    off += 8 * (size_t)r.nedits;
    r.nlinks = rd32(d + off);
    off += 4;
    if (off + 24 * (size_t)r.nlinks > b->len) return -1;
    r.links = d + off;
    off += 24 * (size_t)r.nlinks;
    if (v->n == cap) {
      cap = cap ? 2 * cap : 32;
      rec *nr = realloc(v->r, cap * sizeof *nr);
      if (!nr) abort();
      v->r = nr;
    }
    v->r[v->n++] = r;
  }
  return 0;
}

/* The record holding slot s (v in slot order), or NULL. */
static const rec *by_slot(const meshv *v, uint32_t s) {
  uint32_t lo = 0, hi = v->n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (v->r[mid].slot == s) return &v->r[mid];
    if (v->r[mid].slot < s) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}

/* Where two tiles' bytes differ, as fields of the tile format where the views tell. */
static void tile_diff(const rec *a, const rec *b, char *out, size_t cap) {
  op_tile *ta = NULL, *tb = NULL;
  size_t n = a->tlen < b->tlen ? a->tlen : b->tlen, i = 0;
  while (i < n && a->tile[i] == b->tile[i]) i++;
  int k = snprintf(out, cap, "tile bytes differ at byte %zu (lengths %u vs %u)", i, a->tlen, b->tlen);
  if (op_tile_load(a->tile, a->tlen, &ta, NULL) == OP_OK && op_tile_load(b->tile, b->tlen, &tb, NULL) == OP_OK) {
    op_tile_desc va, vb;
    op_tile_view(ta, &va);
    op_tile_view(tb, &vb);
    char w[160] = "";
    if (va.nverts != vb.nverts || va.npolys != vb.npolys)
      snprintf(w, sizeof w, "nverts %u vs %u, npolys %u vs %u", va.nverts, vb.nverts, va.npolys, vb.npolys);
    for (uint32_t j = 0; !w[0] && j < 3 * va.nverts; j++)
      if (memcmp(&va.verts[j], &vb.verts[j], 4) != 0)
        snprintf(w, sizeof w, "verts[%u].%c %.9g vs %.9g", j / 3, "xyz"[j % 3], va.verts[j], vb.verts[j]);
    for (uint32_t p = 0; !w[0] && p < va.npolys; p++) {
      const op_poly_desc *x = &va.polys[p], *y = &vb.polys[p];
      if (x->nverts != y->nverts) snprintf(w, sizeof w, "polys[%u].nverts %u vs %u", p, x->nverts, y->nverts);
      else if (x->area != y->area) snprintf(w, sizeof w, "polys[%u].area %u vs %u", p, x->area, y->area);
      else if (x->flags != y->flags) snprintf(w, sizeof w, "polys[%u].flags %u vs %u", p, x->flags, y->flags);
      for (int q = 0; !w[0] && q < x->nverts; q++) {
        if (x->verts[q] != y->verts[q]) snprintf(w, sizeof w, "polys[%u].verts[%d] %u vs %u", p, q, x->verts[q], y->verts[q]);
        else if (x->neis[q] != y->neis[q]) snprintf(w, sizeof w, "polys[%u].neis[%d] %#x vs %#x", p, q, x->neis[q], y->neis[q]);
      }
    }
    if (!w[0]) snprintf(w, sizeof w, "detail or header (verts and polygons equal)");
    if (k > 0 && (size_t)k < cap)
      snprintf(out + k, cap - (size_t)k, "; first field: %s; content ids %016" PRIx64 " vs %016" PRIx64, w,
               op_tile_content_id(ta), op_tile_content_id(tb));
  }
  op_tile_free(ta);
  op_tile_free(tb);
}

/* A link with its target named by position (MESH-043, MESH-010), so meshes whose slots
** differ compare. */
static void link_key(const meshv *slots, const uint8_t *l, char *out, size_t cap) {
  uint64_t t = rd64(l + 8);
  uint32_t slot = (uint32_t)(t >> 20) & 0x3FFFFFu, poly = (uint32_t)(t & 0xFFFFFu);
  const rec *r = by_slot(slots, slot);
  snprintf(out, cap, "poly %u edge %u side %u -> tile %d,%d,%d poly %u edge %u, lo %08x hi %08x", rd32(l), l[4],
           l[5], r ? r->x : -999999, r ? r->z : -999999, r ? r->layer : -1, poly, l[6], rd32(l + 16), rd32(l + 20));
}

/* The fields link_key prints, compared without printing (the comparison runs for every
** link at every checkpoint): equal exactly when the two link_key texts are equal. */
static int link_same(const meshv *sa, const uint8_t *la, const meshv *sb, const uint8_t *lb) {
  if (memcmp(la, lb, 7) != 0 || memcmp(la + 16, lb + 16, 8) != 0) return 0;
  uint64_t ta = rd64(la + 8), tb = rd64(lb + 8);
  if ((ta & 0xFFFFFu) != (tb & 0xFFFFFu)) return 0;
  const rec *ra = by_slot(sa, (uint32_t)(ta >> 20) & 0x3FFFFFu), *rb = by_slot(sb, (uint32_t)(tb >> 20) & 0x3FFFFFu);
  if (!ra || !rb) return !ra && !rb;
  return ra->x == rb->x && ra->z == rb->z && ra->layer == rb->layer;
}

/* Compares two meshes tile by tile by (x, z, layer): tile bytes, links (targets by
** position), edits when `edits`. 0 if equal, else the first difference in out. */
static int content_diff(const op_bytes *a, const op_bytes *b, int edits, char *out, size_t cap) {
  meshv va, vb;
  int r = 1;
  if (mesh_parse(a, &va) || mesh_parse(b, &vb)) {
    snprintf(out, cap, "malformed mesh bytes");
    free(va.r);
    return 1;
  }
  if (memcmp(a->data, b->data, 72) != 0) {
    size_t i = 0;
    while (a->data[i] == b->data[i]) i++;
    snprintf(out, cap, "mesh header byte %zu (MESH-040 params)", i);
    goto out;
  }
  rec *sa = malloc((va.n + 1) * sizeof *sa), *sb = malloc((vb.n + 1) * sizeof *sb);
  if (!sa || !sb) abort();
  if (va.n) memcpy(sa, va.r, va.n * sizeof *sa);
  if (vb.n) memcpy(sb, vb.r, vb.n * sizeof *sb);
  qsort(sa, va.n, sizeof *sa, rec_cmp);
  qsort(sb, vb.n, sizeof *sb, rec_cmp);
  uint32_t i = 0, j = 0;
  for (int pass = 0; pass < 2; pass++) /* tiles first, then links (a link follows its target's tile) */
  for (i = 0, j = 0; i < va.n || j < vb.n; i++, j++) {
    int c = i >= va.n ? 1 : j >= vb.n ? -1 : rec_cmp(&sa[i], &sb[j]);
    const rec *p = c <= 0 ? &sa[i] : &sb[j];
    if (c != 0) {
      snprintf(out, cap, "tile %d,%d,%d only in the %s mesh", p->x, p->z, p->layer, c < 0 ? "first" : "second");
      goto out2;
    }
    const rec *q = &sb[j];
    char head[48]; /* (printed only for a message) */
#define HEAD() (snprintf(head, sizeof head, "tile %d,%d,%d: ", p->x, p->z, p->layer), head)
    if (pass == 0 && (p->tlen != q->tlen || memcmp(p->tile, q->tile, p->tlen) != 0)) {
      char d[400];
      tile_diff(p, q, d, sizeof d);
      snprintf(out, cap, "%s%s", HEAD(), d);
      goto out2;
    }
    if (pass == 0) continue;
    if (edits && (p->nedits != q->nedits || memcmp(p->edits, q->edits, 8 * (size_t)p->nedits) != 0)) {
      snprintf(out, cap, "%spolygon edits differ (%u vs %u records)", HEAD(), p->nedits, q->nedits);
      goto out2;
    }
    for (uint32_t k = 0; k < p->nlinks || k < q->nlinks; k++) {
      if (k < p->nlinks && k < q->nlinks && link_same(&va, p->links + 24 * (size_t)k, &vb, q->links + 24 * (size_t)k))
        continue;
      char la[160] = "(none)", lb[160] = "(none)";
      if (k < p->nlinks) link_key(&va, p->links + 24 * (size_t)k, la, sizeof la);
      if (k < q->nlinks) link_key(&vb, q->links + 24 * (size_t)k, lb, sizeof lb);
      if (strcmp(la, lb) != 0) {
        snprintf(out, cap, "%slink %u (of %u vs %u): %s vs %s", HEAD(), k, p->nlinks, q->nlinks, la, lb);
        goto out2;
      }
    }
  }
#undef HEAD
  r = 0;
out2:
  free(sa);
  free(sb);
out:
  free(va.r);
  free(vb.r);
  return r;
}

/* Where two mesh serializations first differ, byte-exact comparison (MESH-040..043). */
static void describe_bytes_diff(const op_bytes *a, const op_bytes *b, char *out, size_t cap) {
  size_t n = a->len < b->len ? a->len : b->len, i = 0;
  while (i < n && a->data[i] == b->data[i]) i++;
  meshv v;
  if (i < 72 || mesh_parse(a, &v)) {
    snprintf(out, cap, "byte %zu (header), lengths %zu vs %zu", i, a->len, b->len);
    return;
  }
  for (uint32_t k = 0; k < v.n; k++) {
    const rec *r = &v.r[k];
    size_t st = (size_t)(r->tile - a->data) - 24, le = (size_t)(r->links - a->data);
    size_t end = le + 24 * (size_t)r->nlinks;
    if (i < end) {
      const char *part = i < st + 24 ? "record header (slot, generation)" : i < st + 24 + r->tlen ? "tile bytes"
                         : i < le - 4 ? "edits" : "links";
      snprintf(out, cap, "byte %zu: tile %d,%d,%d (slot %u generation %u), %s; lengths %zu vs %zu", i, r->x, r->z,
               r->layer, r->slot, r->gen, part, a->len, b->len);
      free(v.r);
      return;
    }
  }
  free(v.r);
  snprintf(out, cap, "byte %zu (after the last tile record), lengths %zu vs %zu", i, a->len, b->len);
}

/* ------------------------------------------- tile cache snapshots (SNAP-016, SNAP-017) */

/* The TCAC payload of a tile-cache snapshot: its offset and length; -1 if absent. */
static int tcac_find(const op_bytes *s, size_t *off, size_t *len) {
  if (s->len < 72 + 16 || memcmp(s->data, "OPSN", 4) != 0 || rd32(s->data + 68) != 2) return -1;
  size_t o = 72;
  uint64_t l0 = rd64(s->data + o + 8);
  if (memcmp(s->data + o, "SLOT", 4) != 0 || l0 > s->len - o - 16) return -1;
  o += 16 + (size_t)l0;
  if (o + 16 > s->len || memcmp(s->data + o, "TCAC", 4) != 0) return -1;
  uint64_t l1 = rd64(s->data + o + 8);
  if (l1 != s->len - o - 16) return -1;
  *off = o + 16;
  *len = (size_t)l1;
  return 0;
}

/* Reads the TCAC payload into a model (SNAP-017 record layouts); sets *nqueue. -1 if it
** does not have the layout. */
static int tcac_model(const op_bytes *s, model *m, uint32_t *nqueue) {
  size_t o, len;
  if (tcac_find(s, &o, &len) || len < 20) return -1;
  const uint8_t *d = s->data;
  size_t e = o + len;
  memset(m, 0, sizeof *m);
  m->known = 1;
  m->next_obs = rd32(d + o + 8);
  m->next_vol = rd32(d + o + 12);
  uint32_t n = rd32(d + o + 16);
  o += 20;
  if (n > MAX_LIVE) return -1;
  for (uint32_t i = 0; i < n; i++) {
    if (o + 8 > e) return -1;
    item *it = &m->obs[m->nobs++];
    memset(it, 0, sizeof *it);
    it->id = rd32(d + o);
    uint32_t shape = rd32(d + o + 4);
    o += 8;
    static const int nv[3] = {5, 6, 7};
    if (shape > 2 || o + 8 * (size_t)nv[shape] > e) return -1;
    double v[7];
    for (int k = 0; k < nv[shape]; k++) v[k] = rdf64(d + o + 8 * (size_t)k);
    o += 8 * (size_t)nv[shape];
    it->o.shape = (op_obstacle_shape)shape;
    if (shape == 0) {
      memcpy(it->o.center, v, sizeof it->o.center);
      it->o.radius = v[3];
      it->o.height = v[4];
    } else if (shape == 1) {
      memcpy(it->o.bmin, v, sizeof it->o.bmin);
      memcpy(it->o.bmax, v + 3, sizeof it->o.bmax);
    } else {
      memcpy(it->o.center, v, sizeof it->o.center);
      memcpy(it->o.half, v + 3, sizeof it->o.half);
      it->o.yaw = v[6];
    }
  }
  if (o + 4 > e) return -1;
  n = rd32(d + o);
  o += 4;
  if (n > MAX_LIVE) return -1;
  for (uint32_t i = 0; i < n; i++) {
    if (o + 8 > e) return -1;
    item *it = &m->vols[m->nvols++];
    memset(it, 0, sizeof *it);
    it->id = rd32(d + o);
    uint32_t np = rd32(d + o + 4);
    o += 8;
    if (np < 3 || np > OP_VOLUME_MAX_POINTS || o + 16 * (size_t)np + 20 > e) return -1;
    it->v.npoints = np;
    for (uint32_t k = 0; k < np; k++) {
      it->v.points[k][0] = rdf64(d + o);
      it->v.points[k][1] = rdf64(d + o + 8);
      o += 16;
    }
    it->v.ymin = rdf64(d + o);
    it->v.ymax = rdf64(d + o + 8);
    uint32_t area = rd32(d + o + 16);
    if (area > 255) return -1;
    it->v.area = (uint8_t)area;
    o += 20;
  }
  if (o + 4 > e) return -1;
  *nqueue = rd32(d + o);
  return o + 4 + 8 * (size_t)*nqueue == e ? 0 : -1;
}

static int ob_eq(const op_obstacle *a, const op_obstacle *b) {
  if (a->shape != b->shape) return 0;
  if (a->shape == OP_OBSTACLE_CYLINDER)
    return !memcmp(a->center, b->center, sizeof a->center) && !memcmp(&a->radius, &b->radius, 8) &&
           !memcmp(&a->height, &b->height, 8);
  if (a->shape == OP_OBSTACLE_BOX)
    return !memcmp(a->bmin, b->bmin, sizeof a->bmin) && !memcmp(a->bmax, b->bmax, sizeof a->bmax);
  return !memcmp(a->center, b->center, sizeof a->center) && !memcmp(a->half, b->half, sizeof a->half) &&
         !memcmp(&a->yaw, &b->yaw, 8);
}

static int vol_eq(const op_convex_volume *a, const op_convex_volume *b) {
  return a->npoints == b->npoints && !memcmp(a->points, b->points, sizeof a->points[0] * a->npoints) &&
         !memcmp(&a->ymin, &b->ymin, 8) && !memcmp(&a->ymax, &b->ymax, 8) && a->area == b->area;
}

/* Oracle 5: the snapshot's TCAC section holds the model (SNAP-018: ascending ids, values as
** added with -0.0 as +0.0, next ids). */
static void check_tcac_vs_model(hist *h, const op_bytes *s, const char *what) {
  model t;
  uint32_t nq;
  if (tcac_model(s, &t, &nq)) fail(h, "%s: the snapshot has no readable TCAC section (SNAP-016, %zu bytes)", what, s->len);
  const model *m = &h->m;
  if (!m->known) return;
  if (t.next_obs != m->next_obs || t.next_vol != m->next_vol)
    fail(h, "%s: TCAC next ids %u, %u; the model has %u, %u (RT-130)", what, t.next_obs, t.next_vol, m->next_obs,
         m->next_vol);
  if (t.nobs != m->nobs || t.nvols != m->nvols)
    fail(h, "%s: TCAC has %d obstacles and %d volumes; the model %d and %d (RT-130, SNAP-018)", what, t.nobs, t.nvols,
         m->nobs, m->nvols);
  for (int i = 0; i < t.nobs; i++)
    if (t.obs[i].id != m->obs[i].id || !ob_eq(&t.obs[i].o, &m->obs[i].o))
      fail(h, "%s: TCAC obstacles[%d] (id %u) is not the model's obstacle id %u as added (SNAP-017, RT-024)", what, i,
           t.obs[i].id, m->obs[i].id);
  for (int i = 0; i < t.nvols; i++)
    if (t.vols[i].id != m->vols[i].id || !vol_eq(&t.vols[i].v, &m->vols[i].v))
      fail(h, "%s: TCAC volumes[%d] (id %u) is not the model's volume id %u as added (SNAP-017)", what, i,
           t.vols[i].id, m->vols[i].id);
}

/* ------------------------------------------------------ decoding shapes (SPAN-093) */

static int dec_vec3(const opj *o, const char *k, double v[3]) {
  const opj *a = opj_get(o, k);
  if (!a || a->type != OPJ_ARR || a->n != 3) return -1;
  for (int i = 0; i < 3; i++)
    if (opj_double(a->items[i], &v[i])) return -1;
  return 0;
}

static int dec_num(const opj *o, const char *k, double *v) { return opj_double(opj_get(o, k), v); }

/* An obstacle object as the protocol reads it; -1 when it is not of the form (then the op
** answers an argument error and the harness predicts only "error"). */
static int dec_obstacle(const opj *o, op_obstacle *ob) {
  memset(ob, 0, sizeof *ob);
  const opj *s = opj_get(o, "shape");
  if (!o || o->type != OPJ_OBJ || !s || s->type != OPJ_STR) return -1;
  if (!strcmp(s->str, "cylinder")) {
    ob->shape = OP_OBSTACLE_CYLINDER;
    return dec_vec3(o, "center", ob->center) || dec_num(o, "radius", &ob->radius) || dec_num(o, "height", &ob->height)
               ? -1 : 0;
  }
  if (!strcmp(s->str, "box")) {
    ob->shape = OP_OBSTACLE_BOX;
    return dec_vec3(o, "bmin", ob->bmin) || dec_vec3(o, "bmax", ob->bmax) ? -1 : 0;
  }
  if (!strcmp(s->str, "oriented_box")) {
    ob->shape = OP_OBSTACLE_ORIENTED_BOX;
    return dec_vec3(o, "center", ob->center) || dec_vec3(o, "half", ob->half) || dec_num(o, "yaw", &ob->yaw) ? -1 : 0;
  }
  return -1;
}

static int dec_volume(const opj *o, op_convex_volume *v) {
  memset(v, 0, sizeof *v);
  const opj *p = opj_get(o, "points");
  int64_t area;
  if (!o || o->type != OPJ_OBJ || !p || p->type != OPJ_ARR || p->n > OP_VOLUME_MAX_POINTS) return -1;
  for (size_t i = 0; i < p->n; i++) {
    const opj *q = p->items[i];
    if (q->type != OPJ_ARR || q->n != 2 || opj_double(q->items[0], &v->points[i][0]) ||
        opj_double(q->items[1], &v->points[i][1]))
      return -1;
  }
  v->npoints = (uint32_t)p->n;
  if (dec_num(o, "ymin", &v->ymin) || dec_num(o, "ymax", &v->ymax) || opj_int(opj_get(o, "area"), 0, 255, &area))
    return -1;
  v->area = (uint8_t)area;
  return 0;
}

static void norm_obstacle(op_obstacle *o) {
  for (int k = 0; k < 3; k++) {
    o->center[k] = pz(o->center[k]);
    o->bmin[k] = pz(o->bmin[k]);
    o->bmax[k] = pz(o->bmax[k]);
    o->half[k] = pz(o->half[k]);
  }
  o->radius = pz(o->radius);
  o->height = pz(o->height);
  o->yaw = pz(o->yaw);
  if (o->shape != OP_OBSTACLE_BOX) memset(o->bmin, 0, sizeof o->bmin), memset(o->bmax, 0, sizeof o->bmax);
  if (o->shape != OP_OBSTACLE_CYLINDER) o->radius = o->height = 0;
  if (o->shape != OP_OBSTACLE_ORIENTED_BOX) memset(o->half, 0, sizeof o->half), o->yaw = 0;
  if (o->shape == OP_OBSTACLE_BOX) memset(o->center, 0, sizeof o->center);
}

static void norm_volume(op_convex_volume *v) {
  for (uint32_t i = 0; i < v->npoints; i++) v->points[i][0] = pz(v->points[i][0]), v->points[i][1] = pz(v->points[i][1]);
  v->ymin = pz(v->ymin);
  v->ymax = pz(v->ymax);
}

/* The answer the settings route gives for the same shape as the only item of a settings
** list (SPAN-093 decoding, then SPAN-030 / SPAN-031 / SPAN-033): the route the fresh build
** takes. Returns the status; field is the route's field with "settings.obstacles[0]" /
** "settings.volumes[0]" replaced by "obstacle" / "volume" (RT-023, RT-040, RT-152). */
static op_status predict_shape(const opj *shape, int vol, char *field, size_t cap, char *value, size_t vcap) {
  opj_w w;
  opj_w_init(&w);
  static const char base[] =
      "{\"cell_size\":0.3,\"cell_height\":0.1,\"agent_radius\":0.6,\"agent_height\":2,\"agent_climb\":0.9,"
      "\"max_slope\":45,\"tile_cells\":64,\"partition\":\"watershed\",\"min_region_area\":64,"
      "\"merge_region_area\":400,\"max_simplification_error\":1.3,\"max_edge_len\":12,"
      "\"max_verts_per_poly\":6,\"detail_sample_distance\":6,\"detail_sample_max_error\":1,";
  opj_w_raw(&w, base, sizeof base - 1);
  opj_w_raw(&w, vol ? "\"volumes\":[" : "\"obstacles\":[", vol ? 11 : 13);
  if (shape) opj_w_value(&w, shape);
  else opj_w_raw(&w, "null", 4);
  opj_w_raw(&w, "]}", 2);
  if (w.oom) abort();
  opj_doc *d = opj_parse(w.buf, w.len, NULL, 0);
  opj_w_free(&w);
  if (!d) abort();
  opd_settings_dec sd;
  op_error err;
  memset(&err, 0, sizeof err);
  op_status st = opd_settings_decode_valid(opj_root(d), &sd, &err);
  opd_settings_dec_free(&sd);
  opj_free(d);
  const char *pre = vol ? "settings.volumes[0]" : "settings.obstacles[0]";
  size_t n = strlen(pre);
  if (st != OP_OK) {
    if (strncmp(err.field, pre, n) == 0) snprintf(field, cap, "%s%s", vol ? "volume" : "obstacle", err.field + n);
    else snprintf(field, cap, "%s", err.field);
    snprintf(value, vcap, "%s", err.value);
  }
  return st;
}

/* ------------------------------------------------------------- writing shapes */

static void w_vec3d(opj_w *w, const double v[3]) {
  opj_w_arr_begin(w);
  for (int k = 0; k < 3; k++) opj_w_double(w, v[k]);
  opj_w_arr_end(w);
}

/* Obstacles and volumes are written by the port's own SPAN-093 writers
** (opd_obstacle_write, opd_volume_write in port/ops_settings.c). */

/* ------------------------------------------------------- requests and answers */

static int is_op(const char *op, const char *const *set) {
  for (int i = 0; set[i]; i++)
    if (!strcmp(op, set[i])) return 1;
  return 0;
}

static const char *const BUILD_OPS[] = {"tilecache.soup", "tilecache.chunk", "tilecache.heightfield", NULL};
/* Ops that may change the main cache or its mesh (pre/post comparison, oracle 4). */
static const char *const MUTATING[] = {"tilecache.add_obstacle", "tilecache.remove_obstacle", "tilecache.add_volume",
                                       "tilecache.remove_volume", "tilecache.update", "tilecache.snapshot_load",
                                       "mesh.add_tile", "mesh.remove_tile", "mesh.replace_tile", "mesh.snapshot_load",
                                       "mesh.set_poly_flags", "mesh.set_poly_area", "drop", NULL};
static const char *const EDIT_OPS[] = {"tilecache.add_obstacle", "tilecache.remove_obstacle", "tilecache.add_volume",
                                       "tilecache.remove_volume", "tilecache.snapshot_load", NULL};
static const char *const DIRECT_OPS[] = {"mesh.add_tile", "mesh.remove_tile", "mesh.replace_tile",
                                         "mesh.snapshot_load", NULL};
static const char *const POLY_EDITS[] = {"mesh.set_poly_flags", "mesh.set_poly_area", NULL};

/* CONF-024..027: an object with only id, op and args, so that the op runs. */
static int envelope_ok(const opj *rq) {
  if (!rq || rq->type != OPJ_OBJ) return 0;
  for (size_t i = 0; i < rq->n; i++)
    if (strcmp(rq->keys[i], "id") && strcmp(rq->keys[i], "op") && strcmp(rq->keys[i], "args")) return 0;
  int64_t id;
  const opj *jop = opj_get(rq, "op"), *args = opj_get(rq, "args");
  return opj_int(opj_get(rq, "id"), 0, ((int64_t)1 << 53) - 1, &id) == 0 && jop && jop->type == OPJ_STR &&
         args && args->type == OPJ_OBJ;
}

/* Writes the request {op, args} with args.<key> replaced by handle (key NULL: none) and,
** for a build, repair set (-1: as given). */
static void w_mirror(opj_w *w, const char *op, const opj *args, const char *key, int64_t handle, int repair) {
  opj_w_init(w);
  opj_w_obj_begin(w);
  opj_w_key(w, "id"); opj_w_int(w, 0);
  opj_w_key(w, "op"); opj_w_str(w, op);
  opj_w_key(w, "args");
  opj_w_obj_begin(w);
  for (size_t i = 0; args && i < args->n; i++) {
    if (repair >= 0 && !strcmp(args->keys[i], "repair")) continue;
    opj_w_key(w, args->keys[i]);
    if (key && !strcmp(args->keys[i], key)) opj_w_int(w, handle);
    else opj_w_value(w, args->items[i]);
  }
  if (repair >= 0) { opj_w_key(w, "repair"); opj_w_bool(w, repair); }
  opj_w_obj_end(w);
  opj_w_obj_end(w);
  if (w->oom) abort();
}

static opj_doc *run_mirror(hist *h, const cache *c, const char *op, const opj *args, const char *key) {
  opj_w w;
  w_mirror(&w, op, args, key, !strcmp(key, "cache") ? c->cache : c->mesh, -1);
  opj_doc *d = run(h->os, w.buf, w.len);
  if (!d) fail(h, "the answer to the mirrored %s is not JSON", op);
  opj_w_free(&w);
  return d;
}

/* The answer as comparable text: the ok object, or the error's kind, field and value. */
static void answer_text(const opj_doc *d, int ids_only, opj_w *w) {
  opj_w_init(w);
  const opj *ok = ok_of(d), *er = err_of(d);
  if (ok && !ids_only) {
    opj_w_key(w, "ok");
    opj_w_value(w, ok);
  } else if (ok) {
    const opj *id = opj_get(ok, "id");
    opj_w_key(w, "ok id");
    if (id) opj_w_value(w, id);
    else opj_w_null(w);
  } else if (er) {
    static const char *keys[3] = {"kind", "field", "value"};
    opj_w_key(w, "error");
    for (int k = 0; k < 3; k++) {
      const opj *v = opj_get(er, keys[k]);
      if (v) opj_w_value(w, v);
    }
  }
  if (w->oom) abort();
}

static void check_same_answer(hist *h, const opj_doc *main, const opj_doc *twin, int ids_only, const char *who,
                              const char *op, const char *clause) {
  opj_w a, b;
  answer_text(main, ids_only, &a);
  answer_text(twin, ids_only, &b);
  if (a.len != b.len || memcmp(a.buf, b.buf, a.len) != 0)
    fail(h, "%s (%s): %s answered %.*s; the main cache %.*s", clause, op, who, (int)(b.len > 300 ? 300 : b.len), b.buf,
         (int)(a.len > 300 ? 300 : a.len), a.buf);
  opj_w_free(&a);
  opj_w_free(&b);
}

/* Executes a request in the main session and records it in the trace; the answer. */
static opj_doc *main_lease(hist *h, const char *req, size_t len);

static opj_doc *exec_record(hist *h, const char *req, size_t len, const char *note) {
  optrace_pending(&h->tr, req, len);
  opj_doc *ad = !h->text && h->tr.nreq == 0 ? main_lease(h, req, len) : run(h->s, req, len);
  if (!ad) optrace_fail(&h->tr, "the answer is not JSON");
  optrace_record(&h->tr, req, len, opj_root(ad), note);
  return ad;
}

static void req_begin(hist *h, opj_w *w, const char *op) {
  opj_w_init(w);
  opj_w_obj_begin(w);
  opj_w_key(w, "id");
  opj_w_int(w, ++h->next_id);
  opj_w_key(w, "op");
  opj_w_str(w, op);
  opj_w_key(w, "args");
  opj_w_obj_begin(w);
}

static void req_end(opj_w *w) {
  opj_w_obj_end(w);
  opj_w_obj_end(w);
  if (w->oom) abort();
}

/* ------------------------------------------------------------ fresh builds */

/* The settings object of the main build (SPAN-093), with a preset resolved (POLY-230), and
** the live obstacles and volumes appended to its lists (oracle 2); then the other build
** arguments. Written as the args of build3d.X. */
static void w_fresh_args(hist *h, opj_w *w, const opj *args, const opj *base) {
  opj_w_obj_begin(w);
  opj_w_key(w, "settings");
  opj_w_obj_begin(w);
  for (size_t i = 0; i < base->n; i++) {
    const char *k = base->keys[i];
    if (!strcmp(k, "volumes") || !strcmp(k, "obstacles")) continue;
    opj_w_key(w, k);
    opj_w_value(w, base->items[i]);
  }
  const opj *bv = opj_get(base, "volumes"), *bo = opj_get(base, "obstacles");
  opj_w_key(w, "volumes");
  opj_w_arr_begin(w);
  for (size_t i = 0; bv && bv->type == OPJ_ARR && i < bv->n; i++) opj_w_value(w, bv->items[i]);
  for (int i = 0; i < h->m.nvols; i++) opd_volume_write(w, &h->m.vols[i].v);
  opj_w_arr_end(w);
  opj_w_key(w, "obstacles");
  opj_w_arr_begin(w);
  for (size_t i = 0; bo && bo->type == OPJ_ARR && i < bo->n; i++) opj_w_value(w, bo->items[i]);
  for (int i = 0; i < h->m.nobs; i++) opd_obstacle_write(w, &h->m.obs[i].o);
  opj_w_arr_end(w);
  opj_w_obj_end(w);
  static const char *skip[] = {"settings", "preset", "partition", "detail_sample_distance", "repair", NULL};
  for (size_t i = 0; i < args->n; i++) {
    if (is_op(args->keys[i], skip)) continue;
    opj_w_key(w, args->keys[i]);
    opj_w_value(w, args->items[i]);
  }
  opj_w_obj_end(w);
}

/* The base settings object of the main build: its settings, or its preset with the
** overrides (settings.preset, SPAN-090). NULL if it cannot be had. */
static opj_doc *base_settings(hist *h, const opj *args) {
  const opj *js = opj_get(args, "settings"), *jp = opj_get(args, "preset");
  opj_w w;
  opj_w_init(&w);
  if (js && js->type == OPJ_OBJ) {
    opj_w_value(&w, js);
  } else if (jp && jp->type == OPJ_STR) {
    opj_w s;
    opj_w_init(&s);
    opj_w_obj_begin(&s);
    opj_w_key(&s, "id"); opj_w_int(&s, 0);
    opj_w_key(&s, "op"); opj_w_str(&s, "settings.preset");
    opj_w_key(&s, "args"); opj_w_obj_begin(&s); opj_w_key(&s, "name"); opj_w_value(&s, jp); opj_w_obj_end(&s);
    opj_w_obj_end(&s);
    opj_doc *d = run(h->os, s.buf, s.len);
    opj_w_free(&s);
    const opj *so = opj_get(ok_of(d), "settings");
    if (!so) { opj_free(d); opj_w_free(&w); return NULL; }
    opj_w_obj_begin(&w);
    for (size_t i = 0; i < so->n; i++) {
      const char *k = so->keys[i];
      const opj *ov = opj_get(args, k);
      if (ov && (!strcmp(k, "partition") || !strcmp(k, "detail_sample_distance"))) {
        opj_w_key(&w, k);
        opj_w_value(&w, ov);
      } else {
        opj_w_key(&w, k);
        opj_w_value(&w, so->items[i]);
      }
    }
    opj_w_obj_end(&w);
    opj_free(d);
  } else {
    opj_w_free(&w);
    return NULL;
  }
  opj_doc *d = w.oom ? NULL : opj_parse(w.buf, w.len, NULL, 0);
  opj_w_free(&w);
  return d;
}


/* The memo entry of a fresh build's request text, moved to the front (least recently used
** last); NULL on a miss. */
static fresh_memo *memo_find(const char *req, size_t len, uint64_t key) {
  for (unsigned i = 0; i < memos.n; i++) {
    fresh_memo *e = &memos.e[i];
    if (memos.key[i] != key || strlen(e->sig) != len || memcmp(e->sig, req, len)) continue;
    fresh_memo hit = *e;
    memmove(&memos.e[1], &memos.e[0], i * sizeof memos.e[0]);
    memmove(&memos.key[1], &memos.key[0], i * sizeof memos.key[0]);
    memos.e[0] = hit;
    memos.key[0] = key;
    return &memos.e[0];
  }
  return NULL;
}

/* Remembers a fresh build's mesh bytes at the front, in the least recently used entry. The
** MEMO_N entries' buffers are allocated once (memo_init) and then only resized
** (realloc): libFuzzer runs an input a second time (and then a leak check) whenever it
** allocated more blocks than it freed, which a growing memo would make most inputs do. */
static void memo_init(void) {
  for (unsigned i = 0; !memos.ready && i < MEMO_N; i++) {
    memos.e[i].sig = malloc(1);
    memos.e[i].mesh.data = malloc(1);
    if (!memos.e[i].sig || !memos.e[i].mesh.data) abort();
    memos.e[i].sig[0] = '\0';
    memos.e[i].mesh.len = 0;
  }
  memos.ready = 1;
}

static void memo_put(const char *req, size_t len, uint64_t key, const op_bytes *mesh) {
  memo_init(); /* (done by LLVMFuzzerInitialize under libFuzzer) */
  while (memos.n && (memos.n == MEMO_N || memos.bytes + len + mesh->len > MEMO_BYTES)) {
    fresh_memo *old = &memos.e[--memos.n];
    memos.bytes -= strlen(old->sig) + old->mesh.len;
  }
  fresh_memo e = memos.e[memos.n]; /* an unused entry: its buffers are reused */
  char *sig = realloc(e.sig, len + 1);
  uint8_t *data = realloc(e.mesh.data, mesh->len + 1);
  if (!sig || !data) abort();
  memcpy(sig, req, len);
  sig[len] = '\0';
  memcpy(data, mesh->data, mesh->len);
  e.sig = sig;
  e.mesh.data = data;
  e.mesh.len = mesh->len;
  memmove(&memos.e[1], &memos.e[0], memos.n * sizeof memos.e[0]);
  memmove(&memos.key[1], &memos.key[0], memos.n * sizeof memos.key[0]);
  memos.e[0] = e;
  memos.key[0] = key;
  memos.n++;
  memos.bytes += len + mesh->len;
}

/* The plain build of a build3d.* request (text), as its op runs it (opd_pl_decode, then
** Mesh3DPipeline.Build*, POLY-230 .. POLY-232) but on one thread (POLY-228: the same bytes
** for any thread count; no worker threads to start per build) and without the op's tile
** copies and handles (POLY-233), which the oracle does not read: its mesh.save bytes. */
static op_status plain_build(const char *req, size_t len, op_bytes *out, op_error *err) {
  opj_doc *d = opj_parse(req, len, NULL, 0);
  const opj *args = d ? opj_get(opj_root(d), "args") : NULL, *op = d ? opj_get(opj_root(d), "op") : NULL;
  if (!args || !op || op->type != OPJ_STR) abort();
  opd_pl_input in = !strcmp(op->str, "build3d.soup") ? OPD_PL_SOUP : !strcmp(op->str, "build3d.chunk") ? OPD_PL_CHUNK
                                                                                                     : OPD_PL_COLUMNS;
  opd_pl_args a;
  op_pipeline_result r;
  op_pipeline_options o;
  memset(&r, 0, sizeof r);
  memset(&o, 0, sizeof o);
  o.threads = 1;
  op_status st = opd_pl_decode(args, in, &a, err);
  if (st == OP_OK && in == OPD_PL_SOUP) st = op_pipeline_build_soup_opt(&a.sd.s, &a.soup, &o, NULL, &r, err);
  else if (st == OP_OK && in == OPD_PL_CHUNK) st = op_pipeline_build_chunk_opt(&a.sd.s, a.chunk, &o, NULL, &r, err);
  else if (st == OP_OK) st = op_pipeline_build_heightfield_opt(&a.sd.s, &a.cols, &o, NULL, &r, err);
  if (st == OP_OK) st = op_mesh_save(r.mesh, out, err);
  op_pipeline_result_free(&r);
  opd_pl_args_free(&a);
  opj_free(d);
  return st;
}

/* Oracle 2's reference: mesh.save of a fresh plain build with the model's live obstacles
** and volumes. Returns 0, or -1 when the build cannot be formed (no base settings). */
static int fresh_build(hist *h, op_bytes *out, char *reqtext, size_t rcap) {
  opj_doc *ad = opj_parse(h->build_args, strlen(h->build_args), NULL, 0);
  opj_doc *bd = ad ? base_settings(h, opj_root(ad)) : NULL;
  if (!bd) { opj_free(ad); return -1; }
  opj_w w;
  opj_w_init(&w);
  opj_w_obj_begin(&w);
  opj_w_key(&w, "id"); opj_w_int(&w, 0);
  char op[64];
  snprintf(op, sizeof op, "build3d.%s", h->build_op + strlen("tilecache."));
  opj_w_key(&w, "op"); opj_w_str(&w, op);
  opj_w_key(&w, "args");
  w_fresh_args(h, &w, opj_root(ad), opj_root(bd));
  opj_w_obj_end(&w);
  opj_free(ad);
  opj_free(bd);
  if (w.oom) abort();
  snprintf(reqtext, rcap, "%.*s", (int)w.len, w.buf);
  uint64_t key = op_hash64((const uint8_t *)w.buf, w.len);
  const fresh_memo *e = memo_find(w.buf, w.len, key);
  if (e) memos.hits++;
  else memos.misses++;
  if (e) {
    opj_w_free(&w);
    out->data = malloc(e->mesh.len + 1);
    if (!out->data) abort();
    memcpy(out->data, e->mesh.data, e->mesh.len);
    out->len = e->mesh.len;
    return 0;
  }
  op_error err;
  memset(&err, 0, sizeof err);
  if (plain_build(w.buf, w.len, out, &err) != OP_OK)
    fail(h, "oracle 2: the fresh build %.600s failed: %s %s = %s (%s)", w.buf, op_status_name(err.kind), err.field,
         err.value, err.message);
  memo_put(w.buf, w.len, key, out);
  opj_w_free(&w);
  return 0;
}

/* ------------------------------------------- twin caches kept across inputs */

/* The three twins of an input (repair-off, slicing, restore) are cached builds of the main
** build's request (with `repair` set): pure functions of that text. Rather than building
** them for every input, the oracle session and its twins outlive the input: a twin is
** leased from this pool by its request text and reset by RestoreState of the snapshot it
** saved right after its build (RT-133; about a tenth of a build), which RT-134 makes
** equivalent to the fresh build. A newly built twin is reset the same way before its first
** lease, so a twin is always "built, then restored from its own first snapshot" whatever
** ran before (its last-built areas forgotten, RT-133, which after a build equal the
** first-build areas, so RT-013 step 2 does what step 1 would: no verdict depends on the
** pool). The oracle session is renewed before its handles run out (CONF-043). */
#define POOL_N 384
#define POOL_RENEW_HANDLE ((int64_t)1 << 22)
typedef struct twin_slot {
  char *req; /* the twin's build request (JSON text): the key */
  uint64_t key;
  cache c;           /* handles in the kept oracle session */
  op_bytes pristine; /* tilecache.snapshot_save right after the build */
  int64_t ans[4];    /* the build's answer: ntx, ntz, built, npolys */
  int busy;          /* leased to the current input */
  int used;          /* leased since it was reset */
  uint64_t last;     /* lease tick (the least recently leased is replaced first) */
} twin_slot;

static struct keep_state {
  opd_session *os; /* the oracle session */
  twin_slot pool[POOL_N];
  uint64_t tick;
  int64_t top; /* the highest handle the session handed out */
  uint64_t hits, builds; /* statistics (OP_FUZZ_HIST_STATS) */
} keep;

/* libFuzzer runs an input a second time, and then a leak check, when it allocated more
** blocks than it freed (TryDetectingAMemoryLeak); an input that builds a new twin keeps it,
** so every such input would run twice. Sanitizer allocator hooks therefore count the blocks
** of every input, and an input that built a twin (or renewed the session) frees as many
** blocks of a ballast allocated by LLVMFuzzerInitialize as it kept (or takes as many as it
** gave back). Only such inputs are evened out: a leak shows at the next run of the same
** input, which finds its twins in the pool. Without a sanitizer allocator nothing is counted. */
int __sanitizer_install_malloc_and_free_hooks(void (*m)(const volatile void *, size_t),
                                              void (*f)(const volatile void *)) __attribute__((weak));
int LLVMFuzzerInitialize(int *argc, char ***argv);
#define BALLAST_N (1u << 19)
static struct ballast {
  void **b; /* BALLAST_N slots, the first n allocated blocks */
  size_t n;
  long net; /* mallocs - frees (atomic: worker threads allocate too) */
  int grew; /* this input built a twin or renewed the session */
} bal;

static void bal_malloc_hook(const volatile void *p, size_t sz) {
  (void)p, (void)sz;
  __atomic_fetch_add(&bal.net, 1, __ATOMIC_RELAXED);
}

static void bal_free_hook(const volatile void *p) {
  (void)p;
  __atomic_fetch_sub(&bal.net, 1, __ATOMIC_RELAXED);
}

static long bal_now(void) { return __atomic_load_n(&bal.net, __ATOMIC_RELAXED); }

/* At the end of an input that grew the pool: gives back (or takes) as many ballast blocks as
** the input kept (or freed) since `start`. */
static void bal_even(long start) {
  long d = bal_now() - start;
  if (!bal.grew || !bal.b) return;
  bal.grew = 0;
  for (; d > 0 && bal.n > 0; d--) free(bal.b[--bal.n]);
  for (; d < 0 && bal.n < BALLAST_N; d++)
    if ((bal.b[bal.n] = malloc(1)) != NULL) bal.n++;
}

/* libFuzzer's flags for this harness, put before the command line's (which override them):
** features observed more than 0 times are not "rare" for the entropic schedule. With the
** default (255) libFuzzer keeps every feature of a slow harness in its rare list until each
** was seen 255 times, and searched that list for each of some 5000 features per input: a
** quarter of the time of the first thousands of inputs, the whole of a CI run. */
static const char *const LIBFUZZER_DEFAULTS[] = {"-entropic_feature_frequency_threshold=0"};
void __libfuzzer_is_present(void) __attribute__((weak)); /* (AFL++'s driver has no such symbol) */

static void libfuzzer_defaults(int *argc, char ***argv) {
  size_t nd = sizeof LIBFUZZER_DEFAULTS / sizeof LIBFUZZER_DEFAULTS[0];
  if (!__libfuzzer_is_present || !argc || !argv || *argc < 1) return; /* (not libFuzzer) */
  char **nv = malloc(((size_t)*argc + nd + 1) * sizeof *nv);
  if (!nv) return;
  nv[0] = (*argv)[0];
  for (size_t i = 0; i < nd; i++) nv[1 + i] = (char *)LIBFUZZER_DEFAULTS[i];
  for (int i = 1; i <= *argc; i++) nv[nd + (size_t)i] = (*argv)[i]; /* (argv[argc] is NULL) */
  *argv = nv;
  *argc += (int)nd;
}

/* libFuzzer's (and AFL++'s driver's) start-up hook: blocks allocated here are not counted. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  libfuzzer_defaults(argc, argv);
  memo_init();
  if (!__sanitizer_install_malloc_and_free_hooks || bal.b) return 0;
  if (!__sanitizer_install_malloc_and_free_hooks(bal_malloc_hook, bal_free_hook)) return 0;
  bal.b = malloc(BALLAST_N * sizeof *bal.b);
  for (bal.n = 0; bal.b && bal.n < BALLAST_N; bal.n++)
    if ((bal.b[bal.n] = malloc(1)) == NULL) break;
  return 0;
}

static const char *const ANSWER_NUMS[4] = {"ntx", "ntz", "built", "npolys"};

static void slot_free(twin_slot *t) {
  if (t->req) opd_drop_any(keep.os, t->c.cache);
  free(t->req);
  op_bytes_free(&t->pristine);
  memset(t, 0, sizeof *t);
}

/* The oracle session of this input (renewed, with an empty pool, when its handles grow). */
static opd_session *keep_session(void) {
  if (keep.os && keep.top < POOL_RENEW_HANDLE) return keep.os;
  bal.grew = 1;
  for (int i = 0; i < POOL_N; i++) slot_free(&keep.pool[i]);
  opd_session_free(keep.os);
  keep.os = opd_session_new();
  keep.top = 0;
  if (!keep.os) abort();
  opd_set_threads(keep.os, 1);
  return keep.os;
}


/* RT-133: a twin goes back to the state its build left (the bytes it saved then). */
static void slot_reset(hist *h, twin_slot *t) {
  op_tilecache *tc = opd_lookup(keep.os, OPD_TILECACHE, t->c.cache);
  op_error err;
  memset(&err, 0, sizeof err);
  if (!tc || op_tilecache_snapshot_load(tc, t->pristine.data, t->pristine.len, &err) != OP_OK)
    fail(h, "RT-133: a twin cache refuses the snapshot it saved right after its build (%zu bytes): %s %s = %s (%s); "
            "build: %.400s", t->pristine.len, op_status_name(err.kind), err.field, err.value, err.message, t->req);
  t->used = 0;
}

/* The end of an input's lease: its twins go back to their first state now, so that the
** input frees what its requests on them allocated (as when twins were built per input). */
static void keep_release(hist *h) {
  for (int i = 0; i < POOL_N; i++) {
    twin_slot *t = &keep.pool[i];
    if (t->busy && t->used) slot_reset(h, t);
    t->busy = 0;
  }
}

/* Builds a twin into slot t (the request as the main build's op runs it), drops the
** answer's tile handles (the pool keeps only the cache and its mesh) and saves its snapshot
** (the caller then resets it from that snapshot). */
static void slot_build(hist *h, twin_slot *t, const char *req, size_t len, uint64_t key, int repair) {
  opj_doc *d = run(keep.os, req, len);
  const opj *o = ok_of(d), *tl = opj_get(o, "tiles");
  if (!o || opj_int(opj_get(o, "cache"), 1, INT64_MAX, &t->c.cache) ||
      opj_int(opj_get(o, "mesh"), 1, INT64_MAX, &t->c.mesh))
    fail(h, "the twin build (repair %d) failed: %s %s", repair, err_str(d, "kind"), err_str(d, "field"));
  for (int q = 0; q < 4; q++)
    if (opj_int(opj_get(o, ANSWER_NUMS[q]), INT64_MIN, INT64_MAX, &t->ans[q]))
      fail(h, "RT-151: the twin build's answer has no %s", ANSWER_NUMS[q]);
  if (keep.top < t->c.mesh) keep.top = t->c.mesh;
  for (size_t i = 0; tl && tl->type == OPJ_ARR && i < tl->n; i++) {
    int64_t th;
    if (opj_int(opj_get(tl->items[i], "tile"), 1, INT64_MAX, &th) == 0) {
      opd_drop_any(keep.os, th);
      if (keep.top < th) keep.top = th;
    }
  }
  opj_free(d);
  t->req = malloc(len + 1);
  if (!t->req) abort();
  memcpy(t->req, req, len);
  t->req[len] = '\0';
  t->key = key;
  if (read_bytes(h, keep.os, "tilecache.snapshot_save", "cache", t->c.cache, &t->pristine))
    fail(h, "tilecache.snapshot_save of a new twin cache failed");
}

/* A twin for the build request req (text, with `repair`): a free slot of that text, reset;
** else a new build in an empty slot or in the least recently leased free one. */
static twin_slot *twin_lease(hist *h, const char *req, size_t len, int repair) {
  uint64_t key = op_hash64((const uint8_t *)req, len);
  twin_slot *t = NULL, *spare = NULL;
  for (int i = 0; i < POOL_N && !t; i++) {
    twin_slot *p = &keep.pool[i];
    if (p->busy) continue;
    if (p->req && p->key == key && strlen(p->req) == len && !memcmp(p->req, req, len)) t = p;
    else if (!spare || (spare->req && (!p->req || p->last < spare->last))) spare = p;
  }
  if (t && t->used) slot_reset(h, t);
  keep.hits += t != NULL;
  keep.builds += t == NULL;
  if (!t) {
    if (!spare) abort(); /* (at most three slots are busy) */
    t = spare;
    bal.grew = 1;
    slot_free(t);
    slot_build(h, t, req, len, key, repair);
    slot_reset(h, t);
  }
  t->busy = t->used = 1;
  t->last = ++keep.tick;
  return t;
}

/* ------------------------------------------- main sessions kept across inputs */

/* Binary mode: the first request of every input is the main build (id 1, the same text for
** the same level and options), and no later request of a binary input makes or drops a
** handle. So a main session that has run only that build is kept with its answer text and
** the snapshot its cache saved right after the build (MAIN_N sessions, the least recently
** leased replaced), and an input whose build text it is runs in it: the build line of the
** trace gets the kept answer (the same handles, the same text the build gives in a fresh
** session), and at the end of the input the cache is reset by RestoreState of that snapshot
** (RT-133; a tenth of a build). A newly built session serves its first input fresh, so the
** first input of every build text still runs on a cache that knows its last-built areas;
** later ones run on a restored cache, which RT-134 makes equivalent (the twins' argument,
** "Twin pool"). Text inputs always get a fresh session. */
#define MAIN_N 128
typedef struct main_slot {
  char *req;          /* the build request (the key) */
  uint64_t key;
  char *answer;       /* its answer's text */
  size_t alen;
  opd_session *s;     /* the session: the build's handles only */
  int64_t cache;      /* the cache's handle */
  op_bytes pristine;  /* tilecache.snapshot_save right after the build */
  uint64_t last;      /* lease tick */
} main_slot;
static struct {
  main_slot e[MAIN_N];
  uint64_t tick, hits, builds;
} mains;

static void main_slot_free(main_slot *m) {
  free(m->req);
  free(m->answer);
  opd_session_free(m->s);
  op_bytes_free(&m->pristine);
  memset(m, 0, sizeof *m);
}

/* The answer to the build request req of a binary input: from a kept session (which then
** becomes h->s) or by running it in h->s and keeping that session when the build made a
** cache. */
static opj_doc *main_lease(hist *h, const char *req, size_t len) {
  uint64_t key = op_hash64((const uint8_t *)req, len);
  main_slot *spare = NULL;
  for (int i = 0; i < MAIN_N; i++) {
    main_slot *m = &mains.e[i];
    if (m->req && m->key == key && strlen(m->req) == len && !memcmp(m->req, req, len)) {
      opd_session_free(h->s);
      h->s = m->s;
      h->mslot = m;
      m->last = ++mains.tick;
      mains.hits++;
      return opj_parse(m->answer, m->alen, NULL, 0);
    }
    if (!spare || (spare->req && (!m->req || m->last < spare->last))) spare = m;
  }
  opj_w aw;
  opj_w_init(&aw);
  opd_execute(h->s, req, len, &aw);
  if (aw.oom) abort();
  opj_doc *d = opj_parse(aw.buf, aw.len, NULL, 0);
  int64_t c;
  op_tilecache *tc = NULL;
  if (d && opj_int(opj_get(ok_of(d), "cache"), 1, INT64_MAX, &c) == 0) tc = opd_lookup(h->s, OPD_TILECACHE, c);
  op_bytes saved = {0};
  if (tc && op_tilecache_snapshot_save(tc, &saved, NULL) == OP_OK) {
    mains.builds++;
    bal.grew = 1;
    main_slot_free(spare);
    spare->req = malloc(len + 1);
    spare->answer = malloc(aw.len + 1);
    if (!spare->req || !spare->answer) abort();
    memcpy(spare->req, req, len);
    spare->req[len] = '\0';
    memcpy(spare->answer, aw.buf, aw.len);
    spare->answer[aw.len] = '\0';
    spare->alen = aw.len;
    spare->key = key;
    spare->s = h->s;
    spare->cache = c;
    spare->pristine = saved;
    spare->last = ++mains.tick;
    h->mslot = spare;
  }
  opj_w_free(&aw);
  return d;
}

/* OP_FUZZ_HIST_STATS: the main caches' counters (op_tilecache_stats), summed over inputs, to
** see which tile-cache and repair branches (RT-013, RT-101 .. RT-105) a corpus reaches. */
static op_tilecache_stats stat_sum;

static void stats_add_main(hist *h) {
  op_tilecache *tc = h->main.on ? opd_lookup(h->s, OPD_TILECACHE, h->main.cache) : NULL;
  if (!tc) return;
  op_tilecache_stats t;
  op_tilecache_stats_get(tc, &t);
  uint64_t *a = (uint64_t *)&stat_sum, *b = (uint64_t *)&t, *z = (uint64_t *)&h->stat0;
  for (size_t i = 0; i < sizeof t / sizeof *a; i++) a[i] += b[i] - z[i];
}

/* The end of an input in a kept session: its cache goes back to the state the build left
** (RT-133), and the session stays in the pool. */
static void main_release(hist *h) {
  if (getenv("OP_FUZZ_HIST_STATS")) stats_add_main(h);
  main_slot *m = h->mslot;
  if (!m) {
    opd_session_free(h->s);
    return;
  }
  h->mslot = NULL;
  op_tilecache *tc = opd_lookup(m->s, OPD_TILECACHE, m->cache);
  op_error err;
  memset(&err, 0, sizeof err);
  if (!tc || op_tilecache_snapshot_load(tc, m->pristine.data, m->pristine.len, &err) != OP_OK)
    fail(h, "RT-133: the main cache refuses the snapshot it saved right after its build (%zu bytes): %s %s = %s (%s)",
         m->pristine.len, op_status_name(err.kind), err.field, err.value, err.message);
}

/* ------------------------------------------------------------ the oracles */

static void ensure_pre(hist *h) {
  if (h->pre_valid || !h->main.on) return;
  op_bytes_free(&h->pre_mesh_b);
  op_bytes_free(&h->pre_snap_b);
  cache_bytes(h, h->s, &h->main, "main cache", &h->pre_mesh_b, &h->pre_snap_b);
  h->pre_valid = 1;
}

/* Oracle 4: a failed request changed nothing. */
static void check_unchanged(hist *h, const char *op, const opj_doc *ad) {
  if (!h->pre_valid) return;
  op_bytes m = {0}, s = {0};
  cache_bytes(h, h->s, &h->main, "main cache", &m, &s);
  if (!bytes_eq(&m, &h->pre_mesh_b)) {
    char d[400];
    describe_bytes_diff(&h->pre_mesh_b, &m, d, sizeof d);
    fail(h, "RT-001/SNAP-021: the failed %s (%s %s = %s) changed mesh.save of the cache's mesh, first at %s", op,
         err_str(ad, "kind"), err_str(ad, "field"), err_str(ad, "value"), d);
  }
  if (!bytes_eq(&s, &h->pre_snap_b)) {
    size_t n = s.len < h->pre_snap_b.len ? s.len : h->pre_snap_b.len, i = 0;
    while (i < n && s.data[i] == h->pre_snap_b.data[i]) i++;
    fail(h, "RT-001/SNAP-021: the failed %s (%s %s = %s) changed tilecache.snapshot_save, first at byte %zu "
            "(lengths %zu vs %zu)", op, err_str(ad, "kind"), err_str(ad, "field"), err_str(ad, "value"), i,
         h->pre_snap_b.len, s.len);
  }
  op_bytes_free(&m);
  op_bytes_free(&s);
}

static void check_equal_bytes(hist *h, const op_bytes *a, const op_bytes *b, int mesh, const char *what) {
  if (bytes_eq(a, b)) return;
  char d[400];
  if (mesh) {
    describe_bytes_diff(a, b, d, sizeof d);
  } else {
    size_t n = a->len < b->len ? a->len : b->len, i = 0, o, l;
    while (i < n && a->data[i] == b->data[i]) i++;
    const char *part = tcac_find(a, &o, &l) ? "?" : i < 72 ? "header" : i < o - 16 ? "SLOT section" : "TCAC section";
    snprintf(d, sizeof d, "byte %zu (%s), lengths %zu vs %zu", i, part, a->len, b->len);
  }
  fail(h, "%s: first difference at %s (first bytes are the main cache's)", what, d);
}

/* Reads the checkpoint bytes of the main cache as recorded requests (the trace checks them). */
static void main_checkpoint_bytes(hist *h, op_bytes *m, op_bytes *s) {
  static const char *ops[2] = {"mesh.save", "tilecache.snapshot_save"};
  for (int k = 0; k < 2; k++) {
    opj_w w;
    req_begin(h, &w, ops[k]);
    opj_w_key(&w, k ? "cache" : "mesh");
    opj_w_int(&w, k ? h->main.cache : h->main.mesh);
    req_end(&w);
    opj_doc *d = exec_record(h, w.buf, w.len, NOTE_CHECK);
    op_bytes *o = k ? s : m;
    if (opj_hexbytes(opj_get(ok_of(d), "bytes"), &o->data, &o->len))
      fail(h, "checkpoint: %s of the main cache failed: %s %s", ops[k], err_str(d, "kind"), err_str(d, "field"));
    opj_free(d);
    opj_w_free(&w);
  }
}

static void tcac_payload(hist *h, const op_bytes *s, op_bytes *out, const char *who) {
  size_t o, l;
  if (tcac_find(s, &o, &l)) fail(h, "%s: the snapshot has no TCAC section (SNAP-016)", who);
  out->data = (uint8_t *)s->data + o;
  out->len = l;
}

/* RestoreState of the restore twin (the library call the op makes; RT-133). */
static void load_snapshot(hist *h, opd_session *s, const cache *c, const op_bytes *b, const char *who) {
  op_tilecache *tc = opd_lookup(s, OPD_TILECACHE, c->cache);
  op_error err;
  memset(&err, 0, sizeof err);
  if (!tc) fail(h, "the %s's cache handle %" PRId64 " names no tile cache", who, c->cache);
  if (op_tilecache_snapshot_load(tc, b->data, b->len, &err) != OP_OK)
    fail(h, "RT-133/SNAP-019: the main cache's snapshot (%zu bytes) does not load into the %s: %s %s = %s (%s)", b->len,
         who, op_status_name(err.kind), err.field, err.value, err.message);
}

static void checkpoint(hist *h) {
  op_bytes m = {0}, s = {0}, a = {0}, b = {0}, ta, tb;
  char d[600], req[2048];
  h->dirty = 0;
  h->nchecks++;
  main_checkpoint_bytes(h, &m, &s);
  if (h->nsaved < 64) h->saved[h->nsaved++] = op_hash64(s.data, s.len);
  check_tcac_vs_model(h, &s, "checkpoint snapshot");
  /* 1: repair off twin, byte for byte (RT-106) */
  cache_bytes(h, h->os, &h->off, "repair twin", &a, &b);
  check_equal_bytes(h, &m, &a, 1, "RT-106 repair on = repair off: mesh.save differs from the twin's");
  check_equal_bytes(h, &s, &b, 0, "RT-106 repair on = repair off: tilecache.snapshot_save differs from the twin's");
  op_bytes_free(&a);
  op_bytes_free(&b);
  /* 5: the restore twin, restored at the last checkpoint and fed the same requests (RT-134) */
  cache_bytes(h, h->os, &h->rest, "restore twin", &a, &b);
  check_equal_bytes(h, &m, &a, 1, "RT-134 a restored cache behaves as the original: mesh.save differs");
  check_equal_bytes(h, &s, &b, 0, "RT-134 a restored cache behaves as the original: snapshot_save differs");
  op_bytes_free(&a);
  op_bytes_free(&b);
  /* 3: slicing twin, tile by tile; TCAC byte for byte (RT-014, RT-062) */
  if (h->twin_checks) opj_free(runf(h, h->os, "{\"id\":0,\"op\":\"tilecache.update\",\"args\":{\"cache\":%" PRId64 "}}",
                                    h->slice.cache));
  cache_bytes(h, h->os, &h->slice, "slicing twin", &a, &b);
  if (content_diff(&m, &a, 0, d, sizeof d))
    fail(h, "RT-062 slicing: the twin updated only by UpdateAll%s has other tiles: %s (first: the main cache)",
         h->twin_checks ? " at checkpoints" : " after every edit", d);
  tcac_payload(h, &s, &ta, "main");
  tcac_payload(h, &b, &tb, "slicing twin");
  if (!bytes_eq(&ta, &tb)) fail(h, "RT-062 slicing: the TCAC section differs from the twin's (%zu vs %zu bytes)", ta.len, tb.len);
  op_bytes_free(&a);
  op_bytes_free(&b);
  /* 2: fresh build with the live obstacles and volumes (RT-027, RT-043); not after the
  ** restore of bytes this cache did not save: RT-133 takes their mesh as it is ("the mesh may
  ** hold anything"), so it matches their obstacles only on the tiles processed since */
  if (h->m.known && !h->foreign && fresh_build(h, &a, req, sizeof req) == 0) {
    if (content_diff(&m, &a, 0, d, sizeof d))
      fail(h, "RT-027 baking: the mesh differs from a fresh build with the live obstacles (%d) and volumes (%d): %s "
              "(first: the cache's mesh). Fresh build: %.1500s", h->m.nobs, h->m.nvols, d, req);
    op_bytes_free(&a);
  }
  /* 5: snapshot round trip through the restore twin (RT-133, SNAP-022) */
  load_snapshot(h, h->os, &h->rest, &s, "restore twin");
  cache_bytes(h, h->os, &h->rest, "restore twin", &a, &b);
  check_equal_bytes(h, &s, &b, 0, "SNAP-022 snapshot save -> load -> save");
  check_equal_bytes(h, &m, &a, 1, "RT-133 restore: the restored mesh differs");
  op_bytes_free(&a);
  op_bytes_free(&b);
  op_bytes_free(&m);
  op_bytes_free(&s);
}

/* ------------------------------------------------------------ the build */

static void setup(hist *h, const char *op, const opj *args, const opj_doc *ad, const char *note) {
  const opj *ok = ok_of(ad), *tl = opj_get(ok, "tiles");
  if (opj_int(opj_get(ok, "cache"), 1, INT64_MAX, &h->main.cache) ||
      opj_int(opj_get(ok, "mesh"), 1, INT64_MAX, &h->main.mesh))
    fail(h, "RT-151: the answer to %s has no cache and mesh handles", op);
  h->main.on = 1;
  op_tilecache *mtc = opd_lookup(h->s, OPD_TILECACHE, h->main.cache);
  if (mtc) op_tilecache_stats_get(mtc, &h->stat0);
  for (size_t i = 0; tl && i < tl->n && h->ntiles < 8; i++)
    if (opj_int(opj_get(tl->items[i], "tile"), 1, INT64_MAX, &h->tiles[h->ntiles]) == 0) h->ntiles++;
  h->twin_checks = note && strstr(note, NOTE_OPT_CHECKS) != NULL;
  opj_w w;
  opj_w_init(&w);
  opj_w_value(&w, args);
  free(h->build_args);
  free(h->build_op);
  h->build_args = malloc(w.len + 1);
  h->build_op = malloc(strlen(op) + 1);
  if (w.oom || !h->build_args || !h->build_op) abort();
  memcpy(h->build_args, w.buf, w.len);
  h->build_args[w.len] = '\0';
  strcpy(h->build_op, op);
  opj_w_free(&w);
  memset(&h->m, 0, sizeof h->m);
  h->m.known = 1;
  h->m.next_obs = h->m.next_vol = 1;
  h->queued = 0;
  h->qknown = 1;
  h->dirty = 1;
  const opj *rp = opj_get(args, "repair");
  int repair = !(rp && rp->type == OPJ_BOOL && !rp->b);
  cache *tw[3] = {&h->off, &h->slice, &h->rest};
  keep_release(h); /* (a second build in a text input: the oracles follow the new cache) */
  for (int k = 0; k < 3; k++) {
    int rep = k == 0 ? !repair : repair;
    w_mirror(&w, op, args, NULL, 0, rep);
    const twin_slot *t = twin_lease(h, w.buf, w.len, rep);
    opj_w_free(&w);
    *tw[k] = t->c;
    for (int q = 0; q < 4; q++) {
      int64_t y;
      if (opj_int(opj_get(ok, ANSWER_NUMS[q]), INT64_MIN, INT64_MAX, &y) || t->ans[q] != y)
        fail(h, "RT-015: a second cached build of the same input answers another %s", ANSWER_NUMS[q]);
    }
    tw[k]->on = 1;
  }
  /* RT-015: cached = plain, byte for byte (a fresh plain build with no live obstacle) */
  op_bytes m = {0}, f = {0};
  char req[2048];
  cache_bytes(h, h->s, &h->main, "main cache", &m, NULL);
  if (fresh_build(h, &f, req, sizeof req) == 0) check_equal_bytes(h, &m, &f, 1, "RT-015 cached = plain: the plain build's mesh.save differs");
  op_bytes_free(&m);
  op_bytes_free(&f);
}

/* ------------------------------------------------------- one history request */

static int arg_u32(const opj *args, const char *k, int64_t *v) { return opj_int(opj_get(args, k), 0, UINT32_MAX, v); }

/* RT-023, RT-040, RT-130, RT-152: an add answers as the settings route does for the same
** shape; a new id is the next one, and the model takes the shape as stored (RT-024). */
static void on_add(hist *h, const char *op, int vol, const opj *args, const opj_doc *ad) {
  const opj *ok = ok_of(ad), *js = opj_get(args, vol ? "volume" : "obstacle");
  model *m = &h->m;
  op_obstacle o;
  op_convex_volume cv;
  int form = vol ? dec_volume(js, &cv) : dec_obstacle(js, &o);
  char field[128] = "", value[96] = "";
  op_status st = predict_shape(js, vol, field, sizeof field, value, sizeof value);
  if (st == OP_OK && form) fail(h, "harness: the settings route accepts a shape the harness cannot read");
  if (!ok) {
    const char *kind = err_str(ad, "kind"), *fld = err_str(ad, "field");
    if (st == OP_OK && strcmp(kind, "limit") != 0)
      fail(h, "RT-023/RT-040: %s refused a shape the settings route accepts: %s %s = %s", op, kind, fld,
           err_str(ad, "value"));
    if (st != OP_OK && (strcmp(kind, op_status_name(st)) != 0 || strcmp(fld, field) != 0 ||
                        strcmp(err_str(ad, "value"), value) != 0))
      fail(h, "RT-023/RT-040/RT-152: %s answered %s %s = %s; the settings route says %s %s = %s", op, kind, fld,
           err_str(ad, "value"), op_status_name(st), field, value);
    return;
  }
  if (st != OP_OK)
    fail(h, "RT-023/RT-040/RT-152: %s accepted a shape the settings route refuses (%s %s)", op, op_status_name(st),
         field);
  int64_t id;
  uint32_t *next = vol ? &m->next_vol : &m->next_obs;
  if (opj_int(opj_get(ok, "id"), 1, UINT32_MAX, &id)) fail(h, "RT-153: %s answered no id", op);
  if (m->known && (uint32_t)id != *next) fail(h, "RT-130: %s gave id %" PRId64 ", the next id is %u", op, id, *next);
  h->dirty = 1;
  int *n = vol ? &m->nvols : &m->nobs;
  if (!m->known) return;
  if (*n == MAX_LIVE) {
    m->known = 0; /* (more than the model follows) */
    return;
  }
  item *it = vol ? &m->vols[*n] : &m->obs[*n];
  memset(it, 0, sizeof *it);
  it->id = (uint32_t)id;
  if (vol) it->v = cv, norm_volume(&it->v);
  else it->o = o, norm_obstacle(&it->o);
  (*n)++;
  (*next)++;
}

/* RT-053, RT-152: a remove succeeds exactly for a live id; otherwise argument id. */
static void on_remove(hist *h, const char *op, int vol, const opj *args, const opj_doc *ad) {
  model *m = &h->m;
  int64_t id = -1;
  int bad = arg_u32(args, "id", &id);
  int live = -1, *n = vol ? &m->nvols : &m->nobs;
  item *its = vol ? m->vols : m->obs;
  for (int i = 0; !bad && i < *n; i++)
    if (its[i].id == (uint32_t)id) live = i;
  if (ok_of(ad)) {
    if (bad || (m->known && live < 0)) fail(h, "RT-053: %s of id %" PRId64 " (not live) succeeded", op, id);
    if (live >= 0) {
      memmove(&its[live], &its[live + 1], (size_t)(*n - live - 1) * sizeof *its);
      (*n)--;
    }
    h->dirty = 1;
    return;
  }
  if (!bad && m->known && live >= 0 && strcmp(err_str(ad, "kind"), "out_of_memory") != 0)
    fail(h, "RT-053: %s of the live id %" PRId64 " failed: %s %s", op, id, err_str(ad, "kind"), err_str(ad, "field"));
  char val[32];
  snprintf(val, sizeof val, "%" PRId64, id);
  if (strcmp(err_str(ad, "kind"), "argument") || strcmp(err_str(ad, "field"), "id") ||
      (!bad && strcmp(err_str(ad, "value"), val)))
    fail(h, "RT-053/RT-152: %s of id %s answered %s %s = %s, not argument id", op, bad ? "(not a u32)" : val,
         err_str(ad, "kind"), err_str(ad, "field"), err_str(ad, "value"));
}

/* RT-060, RT-061, RT-152, RT-153: Update(k) processes min(k, queued) tiles. */
static void on_update(hist *h, const opj *args, const opj_doc *ad, int64_t q) {
  const opj *ok = ok_of(ad), *mt = opj_get(args, "max_tiles");
  int64_t budget = INT64_MAX, pr, v;
  int all = !mt || mt->type == OPJ_NULL;
  if (!ok) {
    if (all || arg_u32(args, "max_tiles", &v) == 0) {
      if (strcmp(err_str(ad, "kind"), "limit") && strcmp(err_str(ad, "kind"), "out_of_memory"))
        fail(h, "RT-061: update failed with %s %s = %s", err_str(ad, "kind"), err_str(ad, "field"), err_str(ad, "value"));
    } else if (strcmp(err_str(ad, "kind"), "argument") || strcmp(err_str(ad, "field"), "max_tiles")) {
      fail(h, "RT-152: a max_tiles that is not a u32 answered %s %s, not argument max_tiles", err_str(ad, "kind"),
           err_str(ad, "field"));
    }
    return;
  }
  if (!all && arg_u32(args, "max_tiles", &budget)) fail(h, "RT-152: update accepted a max_tiles that is not a u32");
  if (opj_int(opj_get(ok, "processed"), 0, INT64_MAX, &pr) || q < 0) fail(h, "RT-153: update answered no processed/queued");
  if (h->qknown) {
    int64_t k = budget < h->queued ? budget : h->queued;
    if (pr != k || q != h->queued - k)
      fail(h, "RT-060: Update(%s) with %d queued processed %" PRId64 " and left %" PRId64, all ? "all" : "k", h->queued,
           pr, q);
  }
  if (pr > 0) h->dirty = 1;
}

/* RT-132, SNAP-018: a saved snapshot holds the model; kept for restores. */
static void on_save(hist *h, const opj *ok) {
  op_bytes b = {0};
  if (opj_hexbytes(opj_get(ok, "bytes"), &b.data, &b.len)) fail(h, "RT-150: snapshot_save answered no bytes");
  check_tcac_vs_model(h, &b, "snapshot_save");
  if (h->nsaved < 64) h->saved[h->nsaved++] = op_hash64(b.data, b.len);
  if (h->nsnaps < MAX_SNAPS) {
    h->snaps[h->nsnaps].b = b;
    h->nsnaps++;
  } else {
    op_bytes_free(&b);
  }
}

static int saved_by_main(const hist *h, const op_bytes *b) {
  uint64_t hb = op_hash64(b->data, b->len);
  for (int i = 0; i < h->nsaved; i++)
    if (h->saved[i] == hb) return 1;
  return 0;
}

/* RT-133, SNAP-019 .. SNAP-022: a restore takes the snapshot's state (the model becomes its
** TCAC section) and saves back the same bytes; a refused one is a format error, and never
** one of the cache's own snapshots. */
static void on_load(hist *h, const opj *args, const opj_doc *ad) {
  op_bytes b = {0};
  if (opj_hexbytes(opj_get(args, "bytes"), &b.data, &b.len)) {
    if (ok_of(ad)) fail(h, "RT-152: snapshot_load accepted bytes that are not hex");
    return;
  }
  if (!ok_of(ad)) {
    if (strcmp(err_str(ad, "kind"), "format") != 0)
      fail(h, "SNAP-019: a refused snapshot answered %s %s, not a format error", err_str(ad, "kind"), err_str(ad, "field"));
    if (!h->foreign && saved_by_main(h, &b))
      fail(h, "RT-132/RT-133: the cache refuses a snapshot it saved itself: format %s = %s", err_str(ad, "field"),
           err_str(ad, "value"));
    op_bytes_free(&b);
    return;
  }
  uint32_t nq = 0;
  model t;
  h->qknown = tcac_model(&b, &t, &nq) == 0;
  if (!h->qknown) t.known = 0, nq = 0; /* (more live items than the model follows) */
  if (!saved_by_main(h, &b)) h->foreign = 1;
  h->m = t;
  h->queued = (int)nq;
  h->dirty = 1;
  op_bytes s = {0};
  if (read_bytes(h, h->s, "tilecache.snapshot_save", "cache", h->main.cache, &s))
    fail(h, "snapshot_save after a restore failed");
  check_equal_bytes(h, &b, &s, 0, "SNAP-022: snapshot_save right after a successful restore differs from the bytes loaded");
  op_bytes_free(&s);
  op_bytes_free(&b);
}

/* Prediction and model update for an op on the main cache (oracle 0). */
static void on_main(hist *h, const char *op, const opj *args, const opj_doc *ad) {
  const opj *ok = ok_of(ad);
  int64_t q = -1;
  int appends = strncmp(op, "tilecache.add_", 14) == 0 || strncmp(op, "tilecache.remove_", 17) == 0;
  if (ok && opj_int(opj_get(ok, "queued"), 0, INT64_MAX, &q) == 0 && h->qknown && appends && q < h->queued)
    fail(h, "RT-051: %s shortened the queue from %d to %" PRId64, op, h->queued, q);
  int vol = strstr(op, "_volume") != NULL;
  if (!strcmp(op, "tilecache.add_obstacle") || !strcmp(op, "tilecache.add_volume")) {
    on_add(h, op, vol, args, ad);
  } else if (!strcmp(op, "tilecache.remove_obstacle") || !strcmp(op, "tilecache.remove_volume")) {
    on_remove(h, op, vol, args, ad);
  } else if (!strcmp(op, "tilecache.update")) {
    on_update(h, args, ad, q);
  } else if (!strcmp(op, "tilecache.snapshot_save") && ok) {
    on_save(h, ok);
  } else if (!strcmp(op, "tilecache.snapshot_load")) {
    on_load(h, args, ad);
    return;
  } else if (!strcmp(op, "tilecache.queue") && ok) {
    const opj *ql = opj_get(ok, "queue");
    if (h->qknown && (!ql || ql->type != OPJ_ARR || (int64_t)ql->n != h->queued))
      fail(h, "RT-153: tilecache.queue lists %zu tiles, the answers said %d", ql ? ql->n : 0, h->queued);
  }
  if (ok && q >= 0) {
    h->queued = (int)q;
    h->qknown = 1;
  }
}

/* Mirrors a request on the main cache to the twins and compares their answers. */
static void mirror(hist *h, const char *op, const opj *args, const opj_doc *ad, int poly_edit) {
  const char *key = poly_edit ? "mesh" : "cache";
  const cache *full[2] = {&h->off, &h->rest};
  static const char *names[2] = {"the repair twin", "the restore twin"};
  static const char *clauses[2] = {"RT-106", "RT-134"};
  for (int k = 0; k < 2; k++) {
    opj_doc *d = run_mirror(h, full[k], op, args, key);
    check_same_answer(h, ad, d, 0, names[k], op, clauses[k]);
    opj_free(d);
  }
  if (!is_op(op, EDIT_OPS)) return; /* the slicing twin: edits only, its own updates */
  opj_doc *d = run_mirror(h, &h->slice, op, args, key);
  check_same_answer(h, ad, d, 1, "the slicing twin", op, "RT-130");
  opj_free(d);
  if (!h->twin_checks && ok_of(ad))
    opj_free(runf(h, h->os, "{\"id\":0,\"op\":\"tilecache.update\",\"args\":{\"cache\":%" PRId64 "}}", h->slice.cache));
}

/* Executes one history request with every oracle. */
static opj_doc *exec_step(hist *h, const char *req, size_t len, const char *note) {
  opj_doc *rd = opj_parse(req, len, NULL, 0);
  const opj *rq = rd ? opj_root(rd) : NULL;
  int env = envelope_ok(rq);
  const char *op = env ? opj_get(rq, "op")->str : "";
  const opj *args = env ? opj_get(rq, "args") : NULL;
  int64_t id;
  if (rq && opj_int(opj_get(rq, "id"), 0, ((int64_t)1 << 53) - 1, &id) == 0 && id > h->next_id) h->next_id = id;
  int64_t ch = 0, mh = 0;
  int on_cache = env && h->main.on && !strncmp(op, "tilecache.", 10) && !is_op(op, BUILD_OPS) &&
                 opj_int(opj_get(args, "cache"), INT64_MIN, INT64_MAX, &ch) == 0 && ch == h->main.cache;
  int on_mesh = env && h->main.on && !strncmp(op, "mesh.", 5) &&
                opj_int(opj_get(args, "mesh"), INT64_MIN, INT64_MAX, &mh) == 0 && mh == h->main.mesh;
  int mutating = env && h->main.on && is_op(op, MUTATING);
  if (mutating) ensure_pre(h);
  opj_doc *ad = exec_record(h, req, len, note);
  const opj *ok = ok_of(ad);
  if (!ok && !err_of(ad)) fail(h, "CONF-020: an answer with neither ok nor error");
  if (env && !h->main.on && ok && is_op(op, BUILD_OPS)) {
    setup(h, op, args, ad, note);
  } else if (on_cache) {
    on_main(h, op, args, ad);
    mirror(h, op, args, ad, 0);
  } else if (on_mesh && is_op(op, DIRECT_OPS)) {
    /* RT-018, RT-151: refused (argument mesh; another argument error may come first, e.g. a
    ** bogus tile handle in a text input, which RT-151 does not order) */
    if (ok || strcmp(err_str(ad, "kind"), "argument") || (!h->text && strcmp(err_str(ad, "field"), "mesh")))
      fail(h, "RT-018/RT-151: %s on the cache's mesh answered %s %s, not argument mesh", op,
           ok ? "ok" : err_str(ad, "kind"), err_str(ad, "field"));
  } else if (on_mesh && is_op(op, POLY_EDITS)) {
    mirror(h, op, args, ad, 1);
    if (ok) h->dirty = 1;
  } else if (env && !strcmp(op, "drop") && ok && h->main.on) {
    int64_t hd;
    if (opj_int(opj_get(args, "handle"), INT64_MIN, INT64_MAX, &hd) == 0 && (hd == h->main.cache || hd == h->main.mesh))
      h->main.on = 0; /* the oracles end with the main cache */
  }
  if (mutating && h->main.on) {
    if (!ok) check_unchanged(h, op, ad);
    else h->pre_valid = 0;
  }
  if (h->main.on && h->qknown && h->queued == 0 && h->dirty) checkpoint(h);
  opj_free(rd);
  return ad;
}

/* ------------------------------------------------------------ the generator */

typedef struct level_cfg {
  const char *name;
  uint32_t size;
  double cs, ch, radius, slope;
  uint32_t tile;
  uint32_t extent; /* x and z extent of the level (LVL-030, LVL-040, LVL-060) */
  double ylo, yhi; /* heights of interest */
} level_cfg;

/* Small levels, 2 x 2 tiles each (the last up to 3 layers per tile), so that the four cached
** builds and the fresh builds of one input take a few milliseconds (issue: 5 inputs/s with
** the former 9 to 25 tiles of 12 to 16 cells). The decision order is unchanged, so the seeds
** keep their meaning (same level, coarser cells or larger tiles). */
static const level_cfg LEVELS[] = {
    {"city", 1, 1.0, 0.25, 0.5, 45, 16, 32, 0, 18},
    {"dungeon", 10, 0.5, 0.2, 0.5, 45, 20, 20, 0, 3},
    {"terrain", 12, 0.5, 0.2, 0.4, 30, 12, 12, -5, 5},
    {"city", 2, 1.25, 0.25, 1.0, 45, 24, 56, 0, 18},
};
#define NLEVELS (sizeof LEVELS / sizeof LEVELS[0])

static opj_doc *gen_exec(hist *h, opj_w *w, const char *note) {
  req_end(w);
  opj_doc *d = exec_step(h, w->buf, w->len, note);
  opj_w_free(w);
  return d;
}

static void gen_run(hist *h, opj_w *w, const char *note) { opj_free(gen_exec(h, w, note)); }

/* A number for a shape field: usually a valid value in [lo, hi]; sometimes one of the
** classes the validators refuse (NaN, infinities, beyond 2^21, zero or negative sizes), a
** huge valid size, or -0.0 (stored as +0.0, RT-024). *why names the class. */
static double g_num(fdp *f, double lo, double hi, int size_like, const char **why) {
  switch (fdp_choice(f, 24)) {
    case 0: *why = "NaN"; return NAN;
    case 1: *why = "infinity"; return fdp_bool(f) ? INFINITY : -INFINITY;
    case 2: *why = "beyond 2^21"; return fdp_bool(f) ? 2097152.5 : -2097153.0;
    case 3:
      if (size_like) { *why = "zero or negative size"; return fdp_bool(f) ? 0.0 : -0.5; }
      *why = "-0.0";
      return -0.0;
    case 4:
      if (size_like) { *why = "huge size"; return fdp_bool(f) ? 1048576.0 : 4096.0; }
      break;
    default: break;
  }
  return lo + (hi - lo) * (double)fdp_range(f, 0, 64) / 64.0;
}

static void w_num_d(opj_w *w, double v) { opj_w_double(w, v); }

static void gen_obstacle(hist *h, fdp *f, opj_w *w, char *note, size_t cap) {
  static const char *shapes[3] = {"cylinder", "box", "oriented_box"};
  const char *why = "valid";
  double ext = (double)h->extent;
  int k = (int)fdp_choice(f, 3);
  opj_w_obj_begin(w);
  opj_w_key(w, "shape");
  opj_w_str(w, shapes[k]);
  if (k == 0) {
    double c[3] = {g_num(f, -2, ext + 2, 0, &why), g_num(f, h->ylo, h->yhi, 0, &why), g_num(f, -2, ext + 2, 0, &why)};
    opj_w_key(w, "center"); w_vec3d(w, c);
    opj_w_key(w, "radius"); w_num_d(w, g_num(f, 0.125, 4, 1, &why));
    opj_w_key(w, "height"); w_num_d(w, g_num(f, 0, h->yhi - h->ylo + 4, 1, &why));
  } else if (k == 1) {
    double a[3], b[3];
    a[0] = g_num(f, -2, ext + 2, 0, &why);
    a[1] = g_num(f, h->ylo - 1, h->yhi, 0, &why);
    a[2] = g_num(f, -2, ext + 2, 0, &why);
    for (int q = 0; q < 3; q++) b[q] = a[q] + g_num(f, 0, q == 1 ? 8 : 6, 1, &why);
    opj_w_key(w, "bmin"); w_vec3d(w, a);
    opj_w_key(w, "bmax"); w_vec3d(w, b);
  } else {
    double c[3] = {g_num(f, -2, ext + 2, 0, &why), g_num(f, h->ylo, h->yhi, 0, &why), g_num(f, -2, ext + 2, 0, &why)};
    double hf[3] = {g_num(f, 0.125, 4, 1, &why), g_num(f, 0, 6, 1, &why), g_num(f, 0.125, 4, 1, &why)};
    static const double yaws[8] = {0, 0.5, -0.7853981633974483, 1.5707963267948966, 2.5, -3.1, 100.0, 1e6};
    opj_w_key(w, "center"); w_vec3d(w, c);
    opj_w_key(w, "half"); w_vec3d(w, hf);
    opj_w_key(w, "yaw"); w_num_d(w, fdp_bool(f) ? yaws[fdp_choice(f, 8)] : g_num(f, -3.5, 3.5, 0, &why));
  }
  opj_w_obj_end(w);
  snprintf(note, cap, "%s obstacle (%s)", shapes[k], why);
}

static void gen_volume(hist *h, fdp *f, opj_w *w, char *note, size_t cap) {
  const char *why = "valid";
  double ext = (double)h->extent;
  uint32_t n = 3 + (uint32_t)fdp_range(f, 0, 5);
  int odd = (int)fdp_choice(f, 16);
  if (odd == 0) n = 2, why = "2 points";
  if (odd == 1) n = 13, why = "13 points";
  double cx = g_num(f, 0, ext, 0, &why), cz = g_num(f, 0, ext, 0, &why);
  opj_w_obj_begin(w);
  opj_w_key(w, "points");
  opj_w_arr_begin(w);
  for (uint32_t i = 0; i < n; i++) {
    opj_w_arr_begin(w);
    opj_w_double(w, cx + (double)fdp_srange(f, -16, 16) / 4.0);
    opj_w_double(w, cz + (double)fdp_srange(f, -16, 16) / 4.0);
    opj_w_arr_end(w);
  }
  opj_w_arr_end(w);
  double y0 = g_num(f, h->ylo - 1, h->yhi, 0, &why);
  opj_w_key(w, "ymin"); w_num_d(w, y0);
  opj_w_key(w, "ymax"); w_num_d(w, y0 + g_num(f, 0, h->yhi - h->ylo + 2, 1, &why));
  int64_t area = (int64_t)fdp_range(f, 0, 7) * 9; /* 0 (not walkable), 9, 18, ..., 63 */
  if (odd == 2) area = 64, why = "area 64";
  opj_w_key(w, "area"); opj_w_int(w, area);
  opj_w_obj_end(w);
  snprintf(note, cap, "volume, %u points, area %d (%s)", n, (int)area, why);
}

/* A live, removed, unknown or malformed id for a remove. */
static int64_t gen_id(hist *h, fdp *f, int vol, char *note, size_t cap) {
  const model *m = &h->m;
  int n = vol ? m->nvols : m->nobs;
  const item *its = vol ? m->vols : m->obs;
  uint32_t next = vol ? m->next_vol : m->next_obs;
  switch (fdp_choice(f, 8)) {
    case 0: case 1: case 2: case 3:
      if (n) {
        snprintf(note, cap, "live id");
        return its[fdp_choice(f, (size_t)n)].id;
      }
      break;
    case 4:
      if (next > 1) {
        snprintf(note, cap, "an id handed out (may be removed)");
        return 1 + (int64_t)fdp_range(f, 0, next - 2);
      }
      break;
    case 5: snprintf(note, cap, "unknown id: the next one"); return next;
    case 6: {
      static const int64_t odd[4] = {0, 4294967295LL, 4294967296LL, -1};
      int k = (int)fdp_choice(f, 4);
      snprintf(note, cap, "unknown id: %s", k < 2 ? "0 or 2^32-1" : "not a u32");
      return odd[k];
    }
    default: break;
  }
  snprintf(note, cap, "unknown id");
  return 1000 + (int64_t)fdp_range(f, 0, 9);
}

static void gen_load(hist *h, fdp *f, int mutate) {
  if (!h->nsnaps) return;
  int k = (int)fdp_choice(f, (size_t)h->nsnaps);
  const op_bytes *s = &h->snaps[k].b;
  size_t len = s->len, to = 0, tl = 0;
  uint8_t *b = malloc(len + 64);
  if (!b) abort();
  memcpy(b, s->data, len);
  int have_t = tcac_find(s, &to, &tl) == 0 && tl > 0;
  char note[512];
  int off = snprintf(note, sizeof note, "restore snapshot %d (%zu bytes)", k, len);
  int nm = mutate ? 1 + (int)fdp_range(f, 0, 2) : 0;
  for (int i = 0; i < nm && len > 0; i++) {
    size_t at = have_t && fdp_choice(f, 4) ? to + (size_t)fdp_range(f, 0, tl - 1) : (size_t)fdp_range(f, 0, len - 1);
    if (at >= len) at = len - 1;
    const char *what;
    switch (fdp_choice(f, 6)) {
      case 0: b[at] ^= (uint8_t)fdp_range(f, 1, 255); what = "xor"; break;
      case 1: {
        static const uint32_t sp[8] = {0, 1, 2, 3, 0xFFFFFFFFu, 65537, 0x80000000u, 7};
        uint32_t v = sp[fdp_choice(f, 8)];
        for (int q = 0; q < 4 && at + (size_t)q < len; q++) b[at + (size_t)q] = (uint8_t)(v >> (8 * q));
        what = "u32 set";
        break;
      }
      case 2: {
        static const double sp[6] = {NAN, -0.0, INFINITY, 2097153.0, 1e300, 0.5};
        double v = sp[fdp_choice(f, 6)];
        uint64_t u;
        memcpy(&u, &v, 8);
        for (int q = 0; q < 8 && at + (size_t)q < len; q++) b[at + (size_t)q] = (uint8_t)(u >> (8 * q));
        what = "f64 set";
        break;
      }
      case 3: len = at; what = "truncated"; break;
      case 4: {
        size_t add = 1 + (size_t)fdp_range(f, 0, 7);
        fdp_bytes(f, b + len, add);
        len += add;
        what = "appended";
        break;
      }
      default: b[at]++; what = "increment"; break;
    }
    if (off < (int)sizeof note - 48)
      off += snprintf(note + off, sizeof note - (size_t)off, "; %s at %zu%s", what, at, have_t && at >= to ? " (TCAC)" : "");
  }
  opj_w w;
  req_begin(h, &w, "tilecache.snapshot_load");
  opj_w_key(&w, "cache"); opj_w_int(&w, h->main.cache);
  opj_w_key(&w, "bytes"); opj_w_hexbytes(&w, b, len);
  gen_run(h, &w, note);
  free(b);
}

/* RT-018: the cache's mesh refuses tile changes and snapshot loads. */
static void gen_direct(hist *h, fdp *f) {
  opj_w w;
  int k = (int)fdp_choice(f, 4);
  if ((k == 0 || k == 2) && !h->ntiles) k = 1;
  if (k == 3 && !h->nsnaps) k = 1;
  static const char *ops[4] = {"mesh.add_tile", "mesh.remove_tile", "mesh.replace_tile", "mesh.snapshot_load"};
  req_begin(h, &w, ops[k]);
  opj_w_key(&w, "mesh"); opj_w_int(&w, h->main.mesh);
  if (k == 0 || k == 2) {
    opj_w_key(&w, "tile"); opj_w_int(&w, h->tiles[fdp_choice(f, (size_t)h->ntiles)]);
  } else if (k == 1) {
    opj_w_key(&w, "x"); opj_w_int(&w, (int64_t)fdp_range(f, 0, 2));
    opj_w_key(&w, "z"); opj_w_int(&w, (int64_t)fdp_range(f, 0, 2));
    opj_w_key(&w, "layer"); opj_w_int(&w, 0);
  } else {
    const op_bytes *s = &h->snaps[fdp_choice(f, (size_t)h->nsnaps)].b;
    opj_w_key(&w, "bytes"); opj_w_hexbytes(&w, s->data, s->len);
  }
  gen_run(h, &w, "RT-018: refused on the cache's mesh");
}

/* A polygon edit on the cache's mesh (kept while the tile stays, RT-065 case 1). */
static void gen_poly_edit(hist *h, fdp *f) {
  opj_w w;
  req_begin(h, &w, "mesh.poly_ref");
  opj_w_key(&w, "mesh"); opj_w_int(&w, h->main.mesh);
  opj_w_key(&w, "x"); opj_w_int(&w, (int64_t)fdp_range(f, 0, 2));
  opj_w_key(&w, "z"); opj_w_int(&w, (int64_t)fdp_range(f, 0, 2));
  opj_w_key(&w, "layer"); opj_w_int(&w, (int64_t)fdp_range(f, 0, 1));
  opj_w_key(&w, "poly"); opj_w_int(&w, (int64_t)fdp_range(f, 0, 3));
  opj_doc *d = gen_exec(h, &w, "");
  const opj *ref = opj_get(ok_of(d), "ref");
  if (ref && ref->type == OPJ_STR) {
    req_begin(h, &w, "mesh.set_poly_flags");
    opj_w_key(&w, "mesh"); opj_w_int(&w, h->main.mesh);
    opj_w_key(&w, "ref"); opj_w_str(&w, ref->str);
    opj_w_key(&w, "flags"); opj_w_int(&w, (int64_t)fdp_range(f, 0, 7));
    gen_run(h, &w, "polygon edit on the cache's mesh");
  }
  opj_free(d);
}

static void gen_step(hist *h, fdp *f) {
  opj_w w;
  char note[160] = "";
  int64_t c = h->main.cache;
  switch (fdp_choice(f, 16)) {
    case 0: case 1: case 2:
      req_begin(h, &w, "tilecache.add_obstacle");
      opj_w_key(&w, "cache"); opj_w_int(&w, c);
      opj_w_key(&w, "obstacle"); gen_obstacle(h, f, &w, note, sizeof note);
      gen_run(h, &w, note);
      break;
    case 3: case 4:
      req_begin(h, &w, "tilecache.add_volume");
      opj_w_key(&w, "cache"); opj_w_int(&w, c);
      opj_w_key(&w, "volume"); gen_volume(h, f, &w, note, sizeof note);
      gen_run(h, &w, note);
      break;
    case 5: case 6: {
      int vol = fdp_choice(f, 3) == 0;
      req_begin(h, &w, vol ? "tilecache.remove_volume" : "tilecache.remove_obstacle");
      opj_w_key(&w, "cache"); opj_w_int(&w, c);
      opj_w_key(&w, "id"); opj_w_int(&w, gen_id(h, f, vol, note, sizeof note));
      gen_run(h, &w, note);
      break;
    }
    case 7: case 8: case 9: {
      static const int64_t budgets[6] = {1, 2, 3, 0, 4294967295LL, 4294967296LL};
      int k = (int)fdp_choice(f, 8);
      req_begin(h, &w, "tilecache.update");
      opj_w_key(&w, "cache"); opj_w_int(&w, c);
      if (k < 6) { opj_w_key(&w, "max_tiles"); opj_w_int(&w, budgets[k]); }
      else if (k == 6) { opj_w_key(&w, "max_tiles"); opj_w_null(&w); }
      gen_run(h, &w, k >= 6 ? "UpdateAll" : k == 5 ? "max_tiles not a u32" : "");
      break;
    }
    case 10:
      req_begin(h, &w, "tilecache.snapshot_save");
      opj_w_key(&w, "cache"); opj_w_int(&w, c);
      gen_run(h, &w, "");
      break;
    case 11: gen_load(h, f, 0); break;
    case 12: gen_load(h, f, 1); break;
    case 13: gen_direct(h, f); break;
    case 14:
      req_begin(h, &w, "tilecache.queue");
      opj_w_key(&w, "cache"); opj_w_int(&w, c);
      gen_run(h, &w, "");
      break;
    default: gen_poly_edit(h, f); break;
  }
}

/* The level, the settings and the cached build; then the history. */
static void gen_history(hist *h, fdp *f) {
  const level_cfg *lv = &LEVELS[fdp_choice(f, NLEVELS)];
  static const char *parts[4] = {"layers", "layers", "watershed", "monotone"};
  const char *part = parts[fdp_choice(f, 4)];
  static const int64_t mra[4] = {4, 0, 16, 4};
  int64_t min_region = mra[fdp_choice(f, 4)];
  uint64_t seed = 1 + fdp_range(f, 0, 15);
  int opts = (int)fdp_u8(f);
  int repair_off = (opts & 7) == 7, pipeline_shapes = (opts & 0x38) == 0x38, at_checks = (opts & 0x40) != 0;
  int clear_at_end = (opts & 0x80) != 0;
  h->extent = lv->extent;
  h->ylo = lv->ylo;
  h->yhi = lv->yhi;
  opj_w w;
  req_begin(h, &w, "tilecache.soup");
  opj_w_key(&w, "settings");
  opj_w_obj_begin(&w);
  opj_w_key(&w, "cell_size"); opj_w_double(&w, lv->cs);
  opj_w_key(&w, "cell_height"); opj_w_double(&w, lv->ch);
  opj_w_key(&w, "agent_radius"); opj_w_double(&w, lv->radius);
  opj_w_key(&w, "agent_height"); opj_w_double(&w, 2);
  opj_w_key(&w, "agent_climb"); opj_w_double(&w, 0.9);
  opj_w_key(&w, "max_slope"); opj_w_double(&w, lv->slope);
  opj_w_key(&w, "tile_cells"); opj_w_int(&w, lv->tile);
  opj_w_key(&w, "partition"); opj_w_str(&w, part);
  opj_w_key(&w, "min_region_area"); opj_w_int(&w, min_region);
  opj_w_key(&w, "merge_region_area"); opj_w_int(&w, 20);
  opj_w_key(&w, "max_simplification_error"); opj_w_double(&w, 1.3);
  opj_w_key(&w, "max_edge_len"); opj_w_double(&w, 12);
  opj_w_key(&w, "max_verts_per_poly"); opj_w_int(&w, 6);
  opj_w_key(&w, "detail_sample_distance"); opj_w_double(&w, 0);
  opj_w_key(&w, "detail_sample_max_error"); opj_w_double(&w, 1);
  if (pipeline_shapes) { /* the settings' own lists: part of the first-build areas (RT-010, RT-017) */
    double e = (double)lv->extent;
    opj_w_key(&w, "volumes");
    opj_w_arr_begin(&w);
    op_convex_volume v;
    memset(&v, 0, sizeof v);
    v.npoints = 4;
    double pts[4][2] = {{e * 0.25, e * 0.25}, {e * 0.5, e * 0.25}, {e * 0.5, e * 0.5}, {e * 0.25, e * 0.5}};
    memcpy(v.points, pts, sizeof pts);
    v.ymin = lv->ylo - 1;
    v.ymax = lv->yhi + 1;
    v.area = 7;
    opd_volume_write(&w, &v);
    opj_w_arr_end(&w);
    op_obstacle o;
    memset(&o, 0, sizeof o);
    o.shape = OP_OBSTACLE_CYLINDER;
    o.center[0] = e * 0.7;
    o.center[1] = lv->ylo - 1;
    o.center[2] = e * 0.3;
    o.radius = 1.5;
    o.height = lv->yhi - lv->ylo + 2;
    opj_w_key(&w, "obstacles");
    opj_w_arr_begin(&w);
    opd_obstacle_write(&w, &o);
    opj_w_arr_end(&w);
  }
  opj_w_obj_end(&w);
  opj_w_key(&w, "level");
  opj_w_obj_begin(&w);
  opj_w_key(&w, "name"); opj_w_str(&w, lv->name);
  opj_w_key(&w, "seed"); opj_w_u64hex(&w, seed);
  opj_w_key(&w, "size"); opj_w_int(&w, lv->size);
  opj_w_obj_end(&w);
  if (repair_off) { opj_w_key(&w, "repair"); opj_w_bool(&w, 0); }
  char note[256];
  snprintf(note, sizeof note, "%s %u, partition %s%s%s; %s", lv->name, lv->size, part,
           repair_off ? ", repair off" : "", pipeline_shapes ? ", settings volume and obstacle" : "",
           at_checks ? NOTE_OPT_CHECKS : "slicing twin: UpdateAll after every edit");
  gen_run(h, &w, note);
  if (!h->main.on) return; /* (the tile cache ops are missing: nothing to fuzz) */
  for (int i = 0; i < MAX_STEPS && fdp_left(f) > 0 && h->main.on; i++) gen_step(h, f);
  if (!h->main.on) return;
  if (clear_at_end && h->m.known) { /* RT-027: removing everything gives the first build's tiles back */
    while (h->m.nobs + h->m.nvols > 0) {
      int vol = h->m.nobs == 0;
      req_begin(h, &w, vol ? "tilecache.remove_volume" : "tilecache.remove_obstacle");
      opj_w_key(&w, "cache"); opj_w_int(&w, h->main.cache);
      opj_w_key(&w, "id"); opj_w_int(&w, vol ? h->m.vols[0].id : h->m.obs[0].id);
      int before = h->m.nobs + h->m.nvols;
      gen_run(h, &w, "removing everything");
      if (h->m.nobs + h->m.nvols >= before) break;
    }
  }
  req_begin(h, &w, "tilecache.update");
  opj_w_key(&w, "cache"); opj_w_int(&w, h->main.cache);
  gen_run(h, &w, "final UpdateAll");
}

/* --------------------------------------------------------------- entry */

static void exec_text(void *ctx, const char *req, size_t len, const char *note) {
  hist *h = ctx;
  if (note && !strcmp(note, NOTE_CHECK)) return; /* the harness takes its own checkpoints */
  opj_free(exec_step(h, req, len, note));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  long start = bal_now();
  hist h;
  memset(&h, 0, sizeof h);
  h.s = opd_session_new();
  h.os = keep_session();
  if (!h.s || !h.os) abort();
  opd_set_threads(h.s, 1); /* POLY-228: no byte depends on it; see the header ("Speed") */
  optrace_init(&h.tr, "tilecache_history",
               "fuzz_tilecache_history trace: a tile-cache history, one protocol request per line with the "
               "reference's answer",
               "[\"RT-015\",\"RT-018\",\"RT-023\",\"RT-027\",\"RT-040\",\"RT-051\",\"RT-053\",\"RT-060\",\"RT-062\","
               "\"RT-106\",\"RT-130\",\"RT-133\",\"RT-134\",\"RT-150\",\"RT-152\",\"RT-153\",\"SNAP-019\","
               "\"SNAP-021\",\"SNAP-022\"]");
  if (optrace_is_text(data, size)) {
    h.text = 1;
    optrace_each_request(data, size, exec_text, &h);
  } else {
    fdp f;
    fdp_init(&f, data, size);
    gen_history(&h, &f);
  }
  if (getenv("OP_FUZZ_HIST_STATS")) {
    stats_add_main(&h);
    memset(&h.stat0, 0, sizeof h.stat0);
    op_tilecache *mtc = h.main.on ? opd_lookup(h.s, OPD_TILECACHE, h.main.cache) : NULL;
    if (mtc) op_tilecache_stats_get(mtc, &h.stat0); /* (main_release adds nothing more) */
    const op_tilecache_stats *t = &stat_sum;
    fprintf(stderr, "fuzz_tilecache_history: main caches so far: tiles %" PRIu64 ", units skipped %" PRIu64
            " first %" PRIu64 " built %" PRIu64 " repaired %" PRIu64 ", fallbacks %" PRIu64 " (a %" PRIu64 " b %" PRIu64
            " c %" PRIu64 " d %" PRIu64 "), tiles kept %" PRIu64 " replaced %" PRIu64 " added %" PRIu64 " removed %" PRIu64
            "\n", t->tiles_processed, t->units_skipped, t->units_first, t->units_built, t->units_repaired,
            t->repair_fallbacks, t->fallbacks_not_removal, t->fallbacks_small, t->fallbacks_split,
            t->fallbacks_renumber, t->tiles_kept, t->tiles_replaced, t->tiles_added, t->tiles_removed);
  }
  if (getenv("OP_FUZZ_HIST_STATS"))
    fprintf(stderr, "fuzz_tilecache_history: %zu requests, %d checkpoints, %d obstacles and %d volumes live; "
            "so far twins leased %" PRIu64 ", built %" PRIu64 ", main sessions kept %" PRIu64 ", built %" PRIu64
            ", fresh builds memo hits %" PRIu64 ", built %" PRIu64 "\n",
            h.tr.nreq, h.nchecks, h.m.nobs, h.m.nvols, keep.hits, keep.builds, mains.hits, mains.builds, memos.hits,
            memos.misses);
  for (int i = 0; i < h.nsnaps; i++) op_bytes_free(&h.snaps[i].b);
  op_bytes_free(&h.pre_mesh_b);
  op_bytes_free(&h.pre_snap_b);
  free(h.build_args);
  free(h.build_op);
  main_release(&h);
  optrace_free(&h.tr);
  keep_release(&h);
  bal_even(start);
  return 0;
}
