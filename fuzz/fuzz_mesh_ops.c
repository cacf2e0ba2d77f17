/*
** fuzz_mesh_ops.c -- structured fuzzing of the tiled mesh and its snapshots
** (spec/navmesh-mesh.md, spec/navmesh-snapshot.md) through the port protocol.
**
** Input. Either binary (the usual case): fdp.h decodes the bytes into a trace of mesh
** operations -- mesh.create with a small tiling, tile.create of small valid tiles (a grid
** of rectangles, some split into triangles, holes, portal or wall codes on the tile sides,
** heights), mesh.add_tile / replace_tile / remove_tile (existing and absent positions,
** dropped and bogus tile handles, mismatched tilings), set_poly_flags / set_poly_area /
** get_poly by valid, stale and bogus references, poly_ref, snapshot_save, snapshot_load of
** saved bytes and of mutated saved bytes, drop. Or text: a trace this harness printed
** (input starting with '{' or '#'), replayed line by line with the same oracles.
**
** The trace IS a protocol request stream: every operation is one request line of
** docs/porting.md, executed by the port's dispatcher (opd_execute) exactly as onepath-port
** would. Its text form (optrace.h) is a flat conformance trace (onepath-trace/0, CONF-080/081):
** a header line, then one {"request": R, "expect": E, "note": N} line per request, E being the
** reference's answer. So the same file is replayed by this harness (text mode, all oracles)
** and by `op-conform check-traces DIR --port EXE` against any port (file at
** DIR/fuzz/NAME.jsonl); "note" says, for people, why the generator chose a value (valid,
** stale or bogus reference, the mutation applied to a snapshot, the shape of a tile).
**
** Oracles, checked after every request on the mesh the trace created:
**  1. prediction: a model of slots, generations, tiles and edits (MESH-011..017, MESH-030)
**     predicts each mesh op's outcome -- ok with the exact reference, or the error kind,
**     field (and value where the spec fixes it); get_poly answers the model's flags/area;
**  2. a failed request leaves the mesh's serialization (MESH-040) byte for byte unchanged
**     (MESH-001, SNAP-008); a failed snapshot load is a format error naming a field;
**  3. after each successful change: the snapshot (SNAP-011) describes exactly the model
**     (free slots of generation > 1, tiles, generations, edits);
**  4. snapshot round trip: loading the snapshot into a fresh mesh with the same parameters
**     gives the same serialization and the same snapshot again (SNAP-007..009);
**  5. rebuild from scratch: a fresh mesh made by adding the same tiles in slot order (filler
**     tiles for empty slots, replaces to reach each generation, then the edits) serializes
**     to the same bytes. MESH-024 makes links a function of the set of (slot, generation,
**     tile, edits), never of the order of operations, so this holds for every history; it
**     is skipped only where no add/replace/remove sequence reaches the state (an empty
**     generation-1 slot below a used one, reachable by snapshot load; generations > 64).
** On failure the harness prints the oracle's message (for a mesh difference: the first
** differing tile record and part) and the trace on stderr and aborts. With OP_FUZZ_TRACE=FILE
** set, the trace is also written to FILE, request by request (so a sanitizer crash leaves it
** too): that is how scripts/fuzz.sh turns a crash input into a readable reproducer.
*/
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "fdp.h"
#include "optrace.h"
#include "onepath.h"
#include "opj.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_MODEL_SLOTS 256 /* the model follows meshes up to this many slots */
#define MAX_STEPS 64        /* binary mode: operations per input */
#define MAX_SNAPS 8
#define MAX_HIST 64
#define MAX_REBUILD_GEN 64
#define FILLER_Z 100000 /* rebuild filler tiles sit at (FILLER_X0 + slot, FILLER_Z, 0) */
#define FILLER_X0 100000

/* ------------------------------------------------------------------ model */

typedef struct mslot {
  uint32_t gen;
  op_tile *tile; /* owned clone; NULL when empty */
  op_bytes tb;   /* its serialization */
  int32_t x, z, layer;
  uint32_t npolys;
  uint16_t *flags; /* current */
  uint8_t *area;
} mslot;

typedef struct model {
  int on;
  int64_t mesh_h;
  op_mesh_params params;
  uint32_t nslots;
  mslot *s;
} model;

static void slot_clear(mslot *sl) {
  op_tile_free(sl->tile);
  op_bytes_free(&sl->tb);
  free(sl->flags);
  free(sl->area);
  uint32_t g = sl->gen;
  memset(sl, 0, sizeof *sl);
  sl->gen = g;
}

static void model_free_slots(mslot *s, uint32_t n) {
  for (uint32_t i = 0; s && i < n; i++) slot_clear(&s[i]);
  free(s);
}

static op_tile *tile_clone(const op_tile *t, op_bytes *b) {
  op_tile *c = NULL;
  if (op_tile_save(t, b, NULL) != OP_OK) abort();
  if (op_tile_load(b->data, b->len, &c, NULL) != OP_OK) abort();
  return c;
}

/* Puts a clone of t in the slot with the tile's own flags and areas (MESH-030). */
static void slot_set(mslot *sl, const op_tile *t) {
  slot_clear(sl);
  op_tile_desc v;
  op_tile_view(t, &v);
  sl->tile = tile_clone(t, &sl->tb);
  sl->x = v.x;
  sl->z = v.z;
  sl->layer = v.layer;
  sl->npolys = v.npolys;
  sl->flags = calloc(v.npolys + 1, sizeof *sl->flags);
  sl->area = calloc(v.npolys + 1, 1);
  if (!sl->flags || !sl->area) abort();
  for (uint32_t p = 0; p < v.npolys; p++) {
    sl->flags[p] = v.polys[p].flags;
    sl->area[p] = v.polys[p].area;
  }
}

static uint32_t gen_next(uint32_t g) { return g >= 0x3FFFFFu ? 1 : g + 1; } /* MESH-011 */

static op_ref mk_ref(uint32_t gen, uint32_t slot, uint32_t poly) {
  return ((uint64_t)gen << 42) | ((uint64_t)slot << 20) | poly; /* MESH-010 */
}

static int find_pos(const model *m, int32_t x, int32_t z, int32_t layer) {
  for (uint32_t i = 0; i < m->nslots; i++)
    if (m->s[i].tile && m->s[i].x == x && m->s[i].z == z && m->s[i].layer == layer) return (int)i;
  return -1;
}

/* -------------------------------------------------------- harness state */

typedef struct harness {
  opd_session *s;
  model m;
  int64_t next_id;
  optrace tr; /* the trace (optrace.h) */
  /* binary mode: things to choose from */
  op_bytes snaps[MAX_SNAPS]; /* snapshots the modelled meshes saved (also in text mode) */
  int64_t snap_mesh[MAX_SNAPS]; /* the handle of the mesh that saved each one */
  int nsnaps;
  op_ref hist[MAX_HIST]; /* references seen (stale ones stay) */
  int nhist;
  int64_t tiles[MAX_HIST]; /* tile handles created */
  int ntiles;
} harness;

#define fail(h, ...) optrace_fail(&(h)->tr, __VA_ARGS__)

/* ------------------------------------------------------- bytes helpers */

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int bytes_eq(const op_bytes *a, const op_bytes *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* Where two mesh serializations (MESH-040) first differ, as "header" or "tile X,Z,L" and the
** part inside the record (MESH-041..043). */
static void describe_diff(const op_bytes *a, const op_bytes *b, char *out, size_t cap) {
  size_t n = a->len < b->len ? a->len : b->len, i = 0;
  while (i < n && a->data[i] == b->data[i]) i++;
  if (i < 72) {
    snprintf(out, cap, "byte %zu (header), lengths %zu vs %zu", i, a->len, b->len);
    return;
  }
  size_t off = 72;
  while (off + 24 <= a->len) {
    const uint8_t *r = a->data + off;
    uint32_t tl = rd32(r + 20);
    size_t e = off + 24 + tl;
    if (e + 4 > a->len) break;
    uint32_t ne = rd32(a->data + e);
    size_t l = e + 4 + 8 * (size_t)ne;
    if (l + 4 > a->len) break;
    uint32_t nl = rd32(a->data + l);
    size_t end = l + 4 + 24 * (size_t)nl;
    if (i < end) {
      const char *part = i < off + 24 ? "record header" : i < e ? "tile bytes" : i < l ? "edits" : "links";
      char sub[64] = "";
      if (i >= l + 4) snprintf(sub, sizeof sub, " (link %zu)", (i - l - 4) / 24);
      snprintf(out, cap, "byte %zu: tile %d,%d,%d (slot %u generation %u), %s%s; lengths %zu vs %zu", i,
               (int32_t)rd32(r + 8), (int32_t)rd32(r + 12), (int32_t)rd32(r + 16), rd32(r), rd32(r + 4),
               part, sub, a->len, b->len);
      return;
    }
    off = end;
  }
  snprintf(out, cap, "byte %zu (after the last tile record), lengths %zu vs %zu", i, a->len, b->len);
}

static op_mesh *the_mesh(harness *h) {
  return h->m.on ? opd_lookup(h->s, OPD_MESH, h->m.mesh_h) : NULL;
}

static op_bytes mesh_bytes(harness *h, op_mesh *me) {
  op_bytes b = {0};
  if (op_mesh_save(me, &b, NULL) != OP_OK) fail(h, "mesh.save failed");
  return b;
}

/* ------------------------------------------------ snapshot reader (SNAP-002..013) */

/* Reads a snapshot that the mesh accepted (or saved) into model slots. -1 if it does not
** have the layout (then the caller reports it). */
static int parse_snapshot(const uint8_t *d, size_t len, uint32_t nslots, mslot **out) {
  mslot *s = calloc(nslots, sizeof *s);
  if (!s) abort();
  for (uint32_t i = 0; i < nslots; i++) s[i].gen = 1;
  size_t o = 72 + 16;
  if (len < o + 4 || memcmp(d, "OPSN", 4) != 0 || memcmp(d + 72, "SLOT", 4) != 0) goto bad;
  uint32_t nfree = rd32(d + o);
  o += 4;
  for (uint32_t i = 0; i < nfree; i++, o += 8) {
    if (o + 8 > len) goto bad;
    uint32_t sl = rd32(d + o);
    if (sl >= nslots) goto bad;
    s[sl].gen = rd32(d + o + 4);
  }
  if (o + 4 > len) goto bad;
  uint32_t nt = rd32(d + o);
  o += 4;
  for (uint32_t i = 0; i < nt; i++) {
    if (o + 24 > len) goto bad;
    uint32_t sl = rd32(d + o), g = rd32(d + o + 4), tl = rd32(d + o + 20);
    o += 24;
    if (sl >= nslots || o + tl + 4 > len) goto bad;
    op_tile *t = NULL;
    if (op_tile_load(d + o, tl, &t, NULL) != OP_OK) goto bad;
    s[sl].gen = g;
    slot_set(&s[sl], t);
    op_tile_free(t);
    o += tl;
    uint32_t ne = rd32(d + o);
    o += 4;
    for (uint32_t k = 0; k < ne; k++, o += 8) {
      if (o + 8 > len) goto bad;
      uint32_t p = rd32(d + o);
      if (p >= s[sl].npolys) goto bad;
      s[sl].flags[p] = (uint16_t)(d[o + 4] | d[o + 5] << 8);
      s[sl].area[p] = d[o + 6];
    }
  }
  *out = s;
  return 0;
bad:
  model_free_slots(s, nslots);
  return -1;
}

/* Oracle 3: the snapshot holds exactly the model's state (SNAP-011): the empty slots of
** generation > 1, then the occupied slots, ascending, each with its generation, position,
** tile bytes and edits (the polygons whose flags or area differ from the tile's own). */
static void check_snapshot_vs_model(harness *h, const op_bytes *snap) {
  const uint8_t *d = snap->data;
  size_t len = snap->len, o = 72 + 16;
  const model *m = &h->m;
  if (len < o + 4 || memcmp(d, "OPSN", 4) != 0 || memcmp(d + 72, "SLOT", 4) != 0)
    fail(h, "snapshot_save: no SLOT section (%zu bytes)", len);
  uint32_t nfree = rd32(d + o), k = 0;
  o += 4;
  for (uint32_t i = 0; i < m->nslots; i++) {
    if (m->s[i].tile || m->s[i].gen == 1) continue;
    if (k >= nfree || o + 8 > len || rd32(d + o) != i || rd32(d + o + 4) != m->s[i].gen)
      fail(h, "snapshot_save: empty-slot record %u is not slot %u generation %u", k, i, m->s[i].gen);
    k++;
    o += 8;
  }
  if (k != nfree) fail(h, "snapshot_save: %u empty-slot records, the model has %u", nfree, k);
  if (o + 4 > len) fail(h, "snapshot_save: truncated");
  uint32_t nt = rd32(d + o);
  o += 4;
  k = 0;
  for (uint32_t i = 0; i < m->nslots; i++) {
    const mslot *sl = &m->s[i];
    if (!sl->tile) continue;
    if (k >= nt || o + 24 > len || rd32(d + o) != i || rd32(d + o + 4) != sl->gen ||
        (int32_t)rd32(d + o + 8) != sl->x || (int32_t)rd32(d + o + 12) != sl->z ||
        (int32_t)rd32(d + o + 16) != sl->layer || rd32(d + o + 20) != sl->tb.len)
      fail(h, "snapshot_save: tile record %u is not slot %u generation %u tile %d,%d,%d", k, i,
           sl->gen, sl->x, sl->z, sl->layer);
    o += 24;
    if (o + sl->tb.len + 4 > len || memcmp(d + o, sl->tb.data, sl->tb.len) != 0)
      fail(h, "snapshot_save: slot %u holds other tile bytes than the tile added", i);
    o += sl->tb.len;
    uint32_t ne = rd32(d + o), e = 0;
    o += 4;
    op_tile_desc v;
    op_tile_view(sl->tile, &v);
    for (uint32_t p = 0; p < sl->npolys; p++) {
      if (sl->flags[p] == v.polys[p].flags && sl->area[p] == v.polys[p].area) continue;
      if (e >= ne || o + 8 > len || rd32(d + o) != p || (d[o + 4] | d[o + 5] << 8) != sl->flags[p] ||
          d[o + 6] != sl->area[p] || d[o + 7] != 0)
        fail(h, "snapshot_save: slot %u edit %u is not polygon %u flags %u area %u", i, e, p,
             sl->flags[p], sl->area[p]);
      e++;
      o += 8;
    }
    if (e != ne) fail(h, "snapshot_save: slot %u has %u edit records, the model %u edits", i, ne, e);
    k++;
  }
  if (k != nt || o != len) fail(h, "snapshot_save: %u tile records / %zu bytes, the model has %u tiles / %zu bytes", nt, len, k, o);
}

/* Oracle 4: snapshot round trip into a fresh mesh. */
static void check_round_trip(harness *h, op_mesh *me, const op_bytes *cur, const op_bytes *snap) {
  op_mesh *m2 = NULL;
  op_error err;
  if (op_mesh_create(&h->m.params, &m2, NULL) != OP_OK) fail(h, "cannot create a second mesh");
  if (op_mesh_snapshot_load(m2, snap->data, snap->len, &err) != OP_OK)
    fail(h, "the mesh's own snapshot does not load into a fresh mesh: %s %s = %s",
         op_status_name(err.kind), err.field, err.value);
  op_bytes b2 = mesh_bytes(h, m2), s2 = {0};
  if (!bytes_eq(cur, &b2)) {
    char d[256];
    describe_diff(cur, &b2, d, sizeof d);
    fail(h, "snapshot round trip: mesh bytes differ at %s", d);
  }
  if (op_mesh_snapshot_save(m2, &s2, NULL) != OP_OK || !bytes_eq(&s2, snap))
    fail(h, "snapshot round trip: the reloaded mesh saves a different snapshot");
  op_bytes_free(&b2);
  op_bytes_free(&s2);
  op_mesh_free(m2);
  (void)me;
}

/* A wall-only one-quad tile at the filler position of a slot. */
static op_tile *filler_tile(harness *h, uint32_t slot) {
  const op_tiling *tg = &h->m.params.tiling;
  float w = (float)(tg->tile_cells * tg->cell_size);
  float v[12] = {0, 0, 0, w, 0, 0, w, 0, w, 0, 0, w};
  op_poly_desc p;
  memset(&p, 0, sizeof p);
  p.nverts = 4;
  for (int k = 0; k < 4; k++) p.verts[k] = (uint16_t)k;
  op_tile_desc d;
  memset(&d, 0, sizeof d);
  d.x = FILLER_X0 + (int32_t)slot;
  d.z = FILLER_Z;
  d.tiling = *tg;
  d.nverts = 4;
  d.verts = v;
  d.npolys = 1;
  d.polys = &p;
  op_tile *t = NULL;
  op_error err;
  if (op_tile_create(&d, &t, &err) != OP_OK) return NULL; /* (a tiling too far out) */
  return t;
}

/* Oracle 5: rebuild from scratch in slot order. */
static void check_rebuild(harness *h, const op_bytes *cur) {
  model *m = &h->m;
  uint32_t hi = 0;
  int any = 0;
  for (uint32_t i = 0; i < m->nslots; i++) {
    if (m->s[i].gen > MAX_REBUILD_GEN) return;
    if (m->s[i].tile && m->s[i].z == FILLER_Z) return;
    if (m->s[i].tile || m->s[i].gen > 1) { hi = i; any = 1; }
  }
  for (uint32_t i = 0; any && i < hi; i++)
    if (!m->s[i].tile && m->s[i].gen == 1) return; /* unreachable by add/replace/remove */
  op_mesh *m2 = NULL;
  op_error err;
  if (op_mesh_create(&m->params, &m2, NULL) != OP_OK) fail(h, "cannot create a rebuild mesh");
  op_tile *fill[MAX_MODEL_SLOTS] = {0};
  for (uint32_t i = 0; any && i <= hi; i++) {
    const mslot *sl = &m->s[i];
    const op_tile *t = sl->tile;
    uint32_t target = sl->gen;
    if (!t) {
      t = fill[i] = filler_tile(h, i);
      if (!t) goto out;
      target = sl->gen - 1; /* the remove at the end adds one */
    }
    op_ref r;
    if (op_mesh_add_tile(m2, t, &r, &err) != OP_OK)
      fail(h, "rebuild: adding slot %u failed: %s %s", i, op_status_name(err.kind), err.field);
    if (r != mk_ref(1, i, 0)) fail(h, "rebuild: slot %u got reference %016" PRIx64, i, r);
    for (uint32_t g = 1; g < target; g++)
      if (op_mesh_replace_tile(m2, t, &r, &err) != OP_OK)
        fail(h, "rebuild: replace in slot %u failed: %s %s", i, op_status_name(err.kind), err.field);
  }
  for (uint32_t i = 0; any && i <= hi; i++)
    if (!m->s[i].tile && op_mesh_remove_tile(m2, FILLER_X0 + (int32_t)i, FILLER_Z, 0, &err) != OP_OK)
      fail(h, "rebuild: removing the filler of slot %u failed", i);
  for (uint32_t i = 0; i < m->nslots; i++) {
    const mslot *sl = &m->s[i];
    if (!sl->tile) continue;
    op_tile_desc v;
    op_tile_view(sl->tile, &v);
    for (uint32_t p = 0; p < sl->npolys; p++) {
      op_ref r = mk_ref(sl->gen, i, p);
      if (sl->flags[p] != v.polys[p].flags && op_mesh_set_poly_flags(m2, r, sl->flags[p], NULL))
        fail(h, "rebuild: set flags failed");
      if (sl->area[p] != v.polys[p].area && op_mesh_set_poly_area(m2, r, sl->area[p], NULL))
        fail(h, "rebuild: set area failed");
    }
  }
  op_bytes b2 = mesh_bytes(h, m2);
  if (!bytes_eq(cur, &b2)) {
    char d[256];
    describe_diff(cur, &b2, d, sizeof d);
    fail(h, "MESH-024: the mesh differs from one rebuilt from scratch in slot order, first at %s "
            "(first bytes are the fuzzed mesh's)", d);
  }
  op_bytes_free(&b2);
out:
  for (uint32_t i = 0; i < MAX_MODEL_SLOTS; i++) op_tile_free(fill[i]);
  op_mesh_free(m2);
}

static void check_state(harness *h) {
  op_mesh *me = the_mesh(h);
  if (!me) return;
  op_bytes cur = mesh_bytes(h, me), snap = {0};
  if (op_mesh_snapshot_save(me, &snap, NULL) != OP_OK) fail(h, "snapshot_save failed");
  check_snapshot_vs_model(h, &snap);
  check_round_trip(h, me, &cur, &snap);
  check_rebuild(h, &cur);
  op_bytes_free(&cur);
  op_bytes_free(&snap);
}

/* ------------------------------------------------------------ predictions */

typedef struct pred {
  int known; /* 0: no prediction (only the generic oracles) */
  op_status kind;
  char field[96];
  char value[64];   /* "" = do not compare */
  op_ref ref;       /* ok answers with a ref */
  int slot;         /* add/replace: the slot */
  int has_poly;     /* get_poly: expected values */
  uint16_t flags;
  uint8_t area;
} pred;

static void p_err(pred *p, op_status k, const char *field, const char *fmt, ...) {
  p->known = 1;
  p->kind = k;
  snprintf(p->field, sizeof p->field, "%s", field);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->value, sizeof p->value, fmt, ap);
  va_end(ap);
}

/* MESH-016 */
static int resolve(const model *m, op_ref r, pred *p) {
  uint32_t gen = (uint32_t)(r >> 42), slot = (uint32_t)(r >> 20) & 0x3FFFFFu, poly = r & 0xFFFFFu;
  if (r == 0 || slot >= m->nslots || !m->s[slot].tile || m->s[slot].gen != gen ||
      poly >= m->s[slot].npolys) {
    p_err(p, OP_E_ARGUMENT, "ref", "%016" PRIx64, r);
    return -1;
  }
  return (int)slot;
}

/* MESH-005 */
static const char *tiling_diff(const op_tiling *a, const op_tiling *b) {
  static const char *names[3] = {"tiling.origin[0]", "tiling.origin[1]", "tiling.origin[2]"};
  for (int k = 0; k < 3; k++)
    if (memcmp(&a->origin[k], &b->origin[k], 8) != 0) return names[k];
  if (memcmp(&a->cell_size, &b->cell_size, 8) != 0) return "tiling.cell_size";
  if (memcmp(&a->cell_height, &b->cell_height, 8) != 0) return "tiling.cell_height";
  if (a->tile_cells != b->tile_cells) return "tiling.tile_cells";
  if (a->max_verts_per_poly != b->max_verts_per_poly) return "tiling.max_verts_per_poly";
  return NULL;
}

static int arg_int(const opj *args, const char *k, int64_t lo, int64_t hi, int64_t *v) {
  return opj_int(opj_get(args, k), lo, hi, v);
}

static void predict(harness *h, const char *op, const opj *args, pred *p) {
  memset(p, 0, sizeof *p);
  p->slot = -1;
  model *m = &h->m;
  int64_t mh;
  if (!m->on || strncmp(op, "mesh.", 5) != 0 || strcmp(op, "mesh.create") == 0) return;
  if (arg_int(args, "mesh", INT64_MIN, INT64_MAX, &mh) || mh != m->mesh_h) return;
  if (!strcmp(op, "mesh.add_tile") || !strcmp(op, "mesh.replace_tile")) {
    int64_t th;
    if (arg_int(args, "tile", INT64_MIN, INT64_MAX, &th)) return;
    const op_tile *t = opd_lookup(h->s, OPD_TILE, th);
    if (!t) { p_err(p, OP_E_ARGUMENT, "tile", "%" PRId64, th); return; }
    op_tile_desc v;
    op_tile_view(t, &v);
    const char *f = tiling_diff(&v.tiling, &m->params.tiling);
    if (f) { p_err(p, OP_E_ARGUMENT, f, ""); return; }
    int at = find_pos(m, v.x, v.z, v.layer);
    if (op[5] == 'a') { /* MESH-012 */
      if (at >= 0) { p_err(p, OP_E_ARGUMENT, "tile", "%d,%d,%d", v.x, v.z, v.layer); return; }
      for (uint32_t i = 0; i < m->nslots; i++)
        if (!m->s[i].tile) {
          p->known = 1;
          p->slot = (int)i;
          p->ref = mk_ref(m->s[i].gen, i, 0);
          return;
        }
      p_err(p, OP_E_LIMIT, "max_tiles", "%u", m->nslots);
    } else { /* MESH-015 */
      if (at < 0) { p_err(p, OP_E_ARGUMENT, "tile", "%d,%d,%d", v.x, v.z, v.layer); return; }
      p->known = 1;
      p->slot = at;
      p->ref = mk_ref(gen_next(m->s[at].gen), (uint32_t)at, 0);
    }
  } else if (!strcmp(op, "mesh.remove_tile") || !strcmp(op, "mesh.poly_ref")) {
    int64_t x, z, l, poly = 0;
    if (arg_int(args, "x", INT32_MIN, INT32_MAX, &x) || arg_int(args, "z", INT32_MIN, INT32_MAX, &z) ||
        arg_int(args, "layer", INT32_MIN, INT32_MAX, &l))
      return;
    int poly_op = op[5] == 'p';
    if (poly_op && arg_int(args, "poly", 0, UINT32_MAX, &poly)) return;
    int at = find_pos(m, (int32_t)x, (int32_t)z, (int32_t)l);
    if (at < 0) { /* MESH-014, MESH-017 */
      p_err(p, OP_E_ARGUMENT, "tile", "%d,%d,%d", (int)x, (int)z, (int)l);
      return;
    }
    p->known = 1;
    p->slot = at;
    if (poly_op) {
      if ((uint64_t)poly >= m->s[at].npolys) { p_err(p, OP_E_RANGE, "poly", "%" PRId64, poly); return; }
      p->ref = mk_ref(m->s[at].gen, (uint32_t)at, (uint32_t)poly);
    }
  } else if (!strcmp(op, "mesh.set_poly_flags") || !strcmp(op, "mesh.set_poly_area") ||
             !strcmp(op, "mesh.get_poly")) {
    uint64_t r;
    int64_t v = 0;
    if (opj_u64hex(opj_get(args, "ref"), &r)) return;
    int kind = op[5] == 'g' ? 0 : op[14] == 'f' ? 1 : 2;
    if (kind == 1 && arg_int(args, "flags", 0, 65535, &v)) return;
    if (kind == 2 && arg_int(args, "area", 0, 255, &v)) return;
    int at = resolve(m, r, p);
    if (at < 0) return;
    if (kind == 2 && v > 63) { p_err(p, OP_E_RANGE, "area", "%d", (int)v); return; } /* MESH-030 */
    p->known = 1;
    p->slot = at;
    p->ref = r;
    if (kind == 0) {
      p->has_poly = 1;
      p->flags = m->s[at].flags[r & 0xFFFFF];
      p->area = m->s[at].area[r & 0xFFFFF];
    }
  } else if (!strcmp(op, "mesh.save") || !strcmp(op, "mesh.snapshot_save")) {
    p->known = 1;
  } else if (!strcmp(op, "mesh.snapshot_load")) {
    uint8_t *b = NULL;
    size_t n = 0;
    if (opj_hexbytes(opj_get(args, "bytes"), &b, &n)) return;
    /* Success is predicted only for a snapshot the current mesh saved: one saved by an
    ** earlier (dropped) mesh may carry other parameters (SNAP-006). */
    for (int i = 0; i < h->nsnaps; i++)
      if (h->snap_mesh[i] == h->m.mesh_h && h->snaps[i].len == n &&
          memcmp(h->snaps[i].data, b, n) == 0)
        p->known = 1;
    free(b);
  }
}

/* --------------------------------------------------------- executing a request */

static void hist_add(harness *h, op_ref r) {
  if (!r) return;
  for (int i = 0; i < h->nhist; i++)
    if (h->hist[i] == r) return;
  if (h->nhist < MAX_HIST) h->hist[h->nhist++] = r;
  else h->hist[r % MAX_HIST] = r;
}

/* Whether the request's envelope passes CONF-024..027 (an object with only id, op and args,
** an integral id in [0, 2^53 - 1], a string op, an object args), so that its op runs and
** the model's prediction applies. A text-mode input mutated by the fuzzer may break the
** envelope; then only the op-independent oracles are checked. */
static int envelope_ok(const opj *rq) {
  if (!rq || rq->type != OPJ_OBJ) return 0;
  for (size_t i = 0; i < rq->n; i++)
    if (strcmp(rq->keys[i], "id") && strcmp(rq->keys[i], "op") && strcmp(rq->keys[i], "args"))
      return 0;
  int64_t id;
  const opj *jop = opj_get(rq, "op"), *args = opj_get(rq, "args");
  return opj_int(opj_get(rq, "id"), 0, ((int64_t)1 << 53) - 1, &id) == 0 && jop &&
         jop->type == OPJ_STR && (!args || args->type == OPJ_OBJ);
}

/* Executes one request line with every oracle. Returns the answer's ok object's "handle"
** (or 0) for the generator's bookkeeping. */
static int64_t exec_request(harness *h, const char *req, size_t rlen, const char *note) {
  opj_doc *rd = opj_parse(req, rlen, NULL, 0);
  const opj *rq = rd ? opj_root(rd) : NULL;
  const opj *jop = rq ? opj_get(rq, "op") : NULL;
  const opj *args = rq ? opj_get(rq, "args") : NULL;
  const char *op = jop && jop->type == OPJ_STR ? jop->str : "";
  pred p;
  memset(&p, 0, sizeof p);
  if (envelope_ok(rq) && args) predict(h, op, args, &p);
  op_mesh *me = the_mesh(h);
  op_bytes before = {0};
  if (me) before = mesh_bytes(h, me);

  opj_w aw;
  opj_w_init(&aw);
  optrace_pending(&h->tr, req, rlen);
  opd_execute(h->s, req, rlen, &aw);
  if (aw.oom) abort();
  opj_doc *ad = opj_parse(aw.buf, aw.len, NULL, 0);
  if (!ad) fail(h, "the answer is not JSON: %.200s", aw.buf);
  const opj *ans = opj_root(ad);
  optrace_record(&h->tr, req, rlen, ans, note);
  const opj *ok = opj_get(ans, "ok"), *er = opj_get(ans, "error");
  if (!ok == !er) fail(h, "the answer has neither or both of ok and error");
  int64_t handle = 0;
  if (ok) opj_int(opj_get(ok, "handle"), 1, INT64_MAX, &handle);

  /* Oracle 1: the prediction. */
  if (p.known) {
    if (p.kind != OP_OK) {
      const opj *k = opj_get(er ? er : ans, "kind"), *f = opj_get(er ? er : ans, "field"),
                *v = opj_get(er ? er : ans, "value");
      if (!er || !k || strcmp(k->str, op_status_name(p.kind)) != 0 || !f || strcmp(f->str, p.field) ||
          (p.value[0] && (!v || strcmp(v->str, p.value) != 0)))
        fail(h, "%s: expected error %s %s = %s, got %s", op, op_status_name(p.kind), p.field,
             p.value, aw.buf);
    } else if (!ok) {
      fail(h, "%s: expected success, got %s", op, aw.buf);
    } else {
      uint64_t r;
      if (p.ref && !(strcmp(op, "mesh.add_tile") && strcmp(op, "mesh.replace_tile") &&
                     strcmp(op, "mesh.poly_ref")) &&
          (opj_u64hex(opj_get(ok, "ref"), &r) || r != p.ref))
        fail(h, "%s: expected ref %016" PRIx64 ", got %s", op, p.ref, aw.buf);
      int64_t fl, ar;
      if (p.has_poly && (opj_int(opj_get(ok, "flags"), 0, 65535, &fl) ||
                         opj_int(opj_get(ok, "area"), 0, 255, &ar) || fl != p.flags || ar != p.area))
        fail(h, "get_poly: expected flags %u area %u, got %s", p.flags, p.area, aw.buf);
    }
  }
  if (er) {
    const opj *k = opj_get(er, "kind"), *f = opj_get(er, "field");
    if (!k || k->type != OPJ_STR || !f || f->type != OPJ_STR)
      fail(h, "an error answer without kind or field: %s", aw.buf);
  }

  /* Oracle 2: a failed request changes nothing. */
  if (me && er) {
    op_mesh *me2 = the_mesh(h);
    if (me2 != me) fail(h, "a failed request replaced the mesh object");
    op_bytes after = mesh_bytes(h, me);
    if (!bytes_eq(&before, &after)) {
      char d[256];
      describe_diff(&before, &after, d, sizeof d);
      fail(h, "%s failed (%s) but changed the mesh: first difference %s", op, aw.buf, d);
    }
    op_bytes_free(&after);
    if (!strcmp(op, "mesh.snapshot_load")) {
      const opj *k = opj_get(er, "kind");
      if (strcmp(k->str, "format") && strcmp(k->str, "out_of_memory") && strcmp(k->str, "argument"))
        fail(h, "snapshot_load failed with kind %s (SNAP: every load error is format)", k->str);
    }
  }

  /* Model updates on success. */
  int changed = 0;
  model *m = &h->m;
  if (ok && !strcmp(op, "mesh.create") && !m->on && handle > 0) {
    op_mesh *nm = opd_lookup(h->s, OPD_MESH, handle);
    /* parameters as the mesh stores them (-0.0 becomes +0.0, MESH-002): read its header */
    op_bytes b = {0};
    if (nm && op_mesh_save(nm, &b, NULL) == OP_OK && b.len >= 72 && rd32(b.data + 64) <= MAX_MODEL_SLOTS) {
      op_mesh_params *q = &m->params;
      memcpy(q->tiling.origin, b.data + 8, 24);
      memcpy(&q->tiling.cell_size, b.data + 32, 8);
      memcpy(&q->tiling.cell_height, b.data + 40, 8);
      q->tiling.tile_cells = rd32(b.data + 48);
      q->tiling.max_verts_per_poly = rd32(b.data + 52);
      memcpy(&q->walkable_climb, b.data + 56, 8);
      q->max_tiles = rd32(b.data + 64);
      m->nslots = q->max_tiles;
      m->s = calloc(m->nslots, sizeof *m->s);
      if (!m->s) abort();
      for (uint32_t i = 0; i < m->nslots; i++) m->s[i].gen = 1;
      m->mesh_h = handle;
      m->on = 1;
      changed = 1;
    }
    op_bytes_free(&b);
  } else if (ok && p.known && m->on) {
    if (!strcmp(op, "mesh.add_tile") || !strcmp(op, "mesh.replace_tile")) {
      int64_t th = 0;
      arg_int(args, "tile", INT64_MIN, INT64_MAX, &th);
      mslot *sl = &m->s[p.slot];
      if (op[5] == 'r') {
        hist_add(h, mk_ref(sl->gen, (uint32_t)p.slot, 0));
        sl->gen = gen_next(sl->gen);
      }
      slot_set(sl, opd_lookup(h->s, OPD_TILE, th));
      hist_add(h, p.ref);
      changed = 1;
    } else if (!strcmp(op, "mesh.remove_tile")) {
      mslot *sl = &m->s[p.slot];
      hist_add(h, mk_ref(sl->gen, (uint32_t)p.slot, sl->npolys > 1 ? 1 : 0));
      slot_clear(sl);
      sl->gen = gen_next(sl->gen);
      changed = 1;
    } else if (!strcmp(op, "mesh.poly_ref")) {
      hist_add(h, p.ref);
    } else if (!strcmp(op, "mesh.set_poly_flags") || !strcmp(op, "mesh.set_poly_area")) {
      int64_t v = 0;
      uint32_t poly = p.ref & 0xFFFFF;
      if (op[14] == 'f') {
        arg_int(args, "flags", 0, 65535, &v);
        m->s[p.slot].flags[poly] = (uint16_t)v;
      } else {
        arg_int(args, "area", 0, 255, &v);
        m->s[p.slot].area[poly] = (uint8_t)v;
      }
      changed = 1;
    }
  }
  if (ok && m->on && !strcmp(op, "mesh.snapshot_save") && h->nsnaps < MAX_SNAPS) {
    int64_t mh = 0;
    uint8_t *b = NULL;
    size_t n = 0;
    if (!arg_int(args, "mesh", INT64_MIN, INT64_MAX, &mh) && mh == m->mesh_h &&
        !opj_hexbytes(opj_get(ok, "bytes"), &b, &n)) {
      h->snaps[h->nsnaps].data = b;
      h->snap_mesh[h->nsnaps] = mh;
      h->snaps[h->nsnaps++].len = n;
    }
  }
  if (ok && m->on && !strcmp(op, "mesh.snapshot_load")) {
    int64_t mh = 0;
    uint8_t *b = NULL;
    size_t n = 0;
    if (!arg_int(args, "mesh", INT64_MIN, INT64_MAX, &mh) && mh == m->mesh_h &&
        !opj_hexbytes(opj_get(args, "bytes"), &b, &n)) {
      mslot *s = NULL;
      if (parse_snapshot(b, n, m->nslots, &s)) fail(h, "a snapshot that loaded does not parse");
      for (uint32_t i = 0; i < m->nslots; i++)
        if (m->s[i].tile) hist_add(h, mk_ref(m->s[i].gen, i, 0));
      model_free_slots(m->s, m->nslots);
      m->s = s;
      changed = 1;
    }
    free(b);
  }
  if (ok && m->on && !strcmp(op, "drop")) {
    int64_t dh = 0;
    if (!arg_int(args, "handle", INT64_MIN, INT64_MAX, &dh) && dh == m->mesh_h) {
      model_free_slots(m->s, m->nslots);
      memset(m, 0, sizeof *m);
    }
  }
  if (ok && p.ref) hist_add(h, p.ref);

  /* Oracles 3-5 after every successful change. */
  if (changed) check_state(h);

  op_bytes_free(&before);
  opj_free(ad);
  opj_w_free(&aw);
  opj_free(rd);
  return handle;
}

/* ------------------------------------------------------- binary-mode generator */

/* Starts a request {"id":N,"op":OP,"args":{ ... the caller writes the args and ends. */
static void req_begin(harness *h, opj_w *w, const char *op) {
  opj_w_init(w);
  opj_w_obj_begin(w);
  opj_w_key(w, "id");
  opj_w_int(w, ++h->next_id);
  opj_w_key(w, "op");
  opj_w_str(w, op);
  opj_w_key(w, "args");
  opj_w_obj_begin(w);
}

static int64_t req_end(harness *h, opj_w *w, const char *note) {
  opj_w_obj_end(w);
  opj_w_obj_end(w);
  if (w->oom) abort();
  int64_t r = exec_request(h, w->buf, w->len, note);
  opj_w_free(w);
  return r;
}

static void w_tiling(opj_w *w, const op_tiling *t) {
  opj_w_key(w, "tiling");
  opj_w_obj_begin(w);
  opj_w_key(w, "origin");
  opj_w_arr_begin(w);
  for (int k = 0; k < 3; k++) opj_w_double(w, t->origin[k]);
  opj_w_arr_end(w);
  opj_w_key(w, "cell_size");
  opj_w_double(w, t->cell_size);
  opj_w_key(w, "cell_height");
  opj_w_double(w, t->cell_height);
  opj_w_key(w, "tile_cells");
  opj_w_int(w, t->tile_cells);
  opj_w_key(w, "max_verts_per_poly");
  opj_w_int(w, t->max_verts_per_poly);
  opj_w_obj_end(w);
}

static void gen_mesh_create(harness *h, fdp *f) {
  static const double origins[4][3] = {{0, 0, 0}, {-2.5, 1.25, 3}, {1000, -7, -1000}, {0.125, 0, -0.375}};
  static const double cs[3] = {0.5, 1, 0.25}, ch[3] = {0.25, 0.5, 1}, climb[5] = {0.5, 0, 0.25, 2, 1e-3};
  static const uint32_t tc[4] = {4, 2, 3, 6}, mvp[3] = {6, 4, 3};
  op_mesh_params p;
  memset(&p, 0, sizeof p);
  memcpy(p.tiling.origin, origins[fdp_choice(f, 4)], sizeof p.tiling.origin);
  p.tiling.cell_size = cs[fdp_choice(f, 3)];
  p.tiling.cell_height = ch[fdp_choice(f, 3)];
  p.tiling.tile_cells = tc[fdp_choice(f, 4)];
  p.tiling.max_verts_per_poly = mvp[fdp_choice(f, 3)];
  p.walkable_climb = climb[fdp_choice(f, 5)];
  p.max_tiles = 4 + (uint32_t)fdp_range(f, 0, 4) - 3 * (uint32_t)fdp_bool(f); /* 1..8 */
  opj_w w;
  req_begin(h, &w, "mesh.create");
  w_tiling(&w, &p.tiling);
  opj_w_key(&w, "walkable_climb");
  opj_w_double(&w, p.walkable_climb);
  opj_w_key(&w, "max_tiles");
  opj_w_int(&w, p.max_tiles);
  req_end(h, &w, "");
}

/* tile.create of a small valid tile at (x, z, layer): a grid of ncols x nrows rectangles on
** cell boundaries, each a quad or two triangles, some left out; boundary edges on the tile
** sides are portals or walls per side; internal edges link the two polygons. */
static int64_t gen_tile(harness *h, fdp *f, int32_t x, int32_t z, int32_t layer, int bad_tiling,
                        char *note, size_t ncap) {
  op_tiling tg = h->m.params.tiling;
  uint32_t tc = tg.tile_cells;
  int ncols = 1 + (int)fdp_range(f, 0, tc < 3 ? tc - 1 : 2), nrows = 1 + (int)fdp_range(f, 0, tc < 3 ? tc - 1 : 2);
  int cx[4], cz[4];
  cx[0] = cz[0] = 0;
  for (int i = 1; i < ncols; i++) cx[i] = cx[i - 1] + 1 + (int)fdp_range(f, 0, (uint64_t)(tc - cx[i - 1] - (ncols - i) - 1));
  for (int i = 1; i < nrows; i++) cz[i] = cz[i - 1] + 1 + (int)fdp_range(f, 0, (uint64_t)(tc - cz[i - 1] - (nrows - i) - 1));
  cx[ncols] = cz[nrows] = (int)tc;
  int hmode = (int)fdp_choice(f, 4); /* flat (twice as likely), per vertex, slope */
  if (hmode == 3) hmode = 0;
  double hy[4][4];
  int base = (int)fdp_range(f, 0, 2);
  for (int r = 0; r <= nrows; r++)
    for (int c = 0; c <= ncols; c++)
      hy[r][c] = hmode == 0 ? base * 0.25 : hmode == 1 ? (double)fdp_range(f, 0, 8) * 0.25 - 1.0 : (c + r) * 0.25;
  int portal[4];
  for (int s = 0; s < 4; s++) portal[s] = fdp_choice(f, 4) != 3; /* mostly portals */
  int present[3][3], split[3][3];
  unsigned holes = (unsigned)fdp_range(f, 0, 511), hole_mode = (unsigned)fdp_choice(f, 4);
  int npresent = 0;
  for (int r = 0; r < nrows; r++)
    for (int c = 0; c < ncols; c++) {
      present[r][c] = hole_mode != 3 || !((holes >> (r * 3 + c)) & 1);
      split[r][c] = tg.max_verts_per_poly < 4 ? 1 + (int)fdp_choice(f, 2) : (int)fdp_choice(f, 3);
      npresent += present[r][c];
    }
  if (!npresent) present[0][0] = 1;
  uint16_t area_set[4] = {0, 1, 5, 63};
  uint16_t flags = (uint16_t)fdp_range(f, 0, 3);
  uint8_t area = (uint8_t)area_set[fdp_choice(f, 4)];
  /* vertex indices of used grid points, and polygon ids per cell side */
  int vid[4][4], nv = 0;
  for (int r = 0; r <= nrows; r++)
    for (int c = 0; c <= ncols; c++) vid[r][c] = -1;
  int owner[3][3][4]; /* side 0 bottom, 1 right, 2 top, 3 left */
  int first[3][3], np = 0;
  for (int r = 0; r < nrows; r++)
    for (int c = 0; c < ncols; c++) {
      if (!present[r][c]) continue;
      first[r][c] = np;
      int t0 = np, t1 = split[r][c] ? np + 1 : np;
      np += split[r][c] ? 2 : 1;
      if (split[r][c] == 1) { /* diagonal a-c: t0 = (a,b,c), t1 = (a,c,d) */
        owner[r][c][0] = t0; owner[r][c][1] = t0; owner[r][c][2] = t1; owner[r][c][3] = t1;
      } else if (split[r][c] == 2) { /* diagonal b-d: t0 = (a,b,d), t1 = (b,c,d) */
        owner[r][c][0] = t0; owner[r][c][3] = t0; owner[r][c][1] = t1; owner[r][c][2] = t1;
      } else {
        for (int s = 0; s < 4; s++) owner[r][c][s] = t0;
      }
      int pts[4][2] = {{r, c}, {r, c + 1}, {r + 1, c + 1}, {r + 1, c}};
      for (int k = 0; k < 4; k++)
        if (vid[pts[k][0]][pts[k][1]] < 0) vid[pts[k][0]][pts[k][1]] = nv++;
    }
  opj_w w;
  req_begin(h, &w, "tile.create");
  opj_w_key(&w, "x"); opj_w_int(&w, x);
  opj_w_key(&w, "z"); opj_w_int(&w, z);
  opj_w_key(&w, "layer"); opj_w_int(&w, layer);
  if (bad_tiling) tg.origin[1] += 1.0;
  w_tiling(&w, &tg);
  opj_w_key(&w, "origin_y");
  opj_w_double(&w, layer * 4.0 + (fdp_choice(f, 4) == 3 ? 0.5 : 0.0));
  opj_w_key(&w, "verts");
  opj_w_arr_begin(&w);
  for (int i = 0; i < nv; i++)
    for (int r = 0; r <= nrows; r++)
      for (int c = 0; c <= ncols; c++)
        if (vid[r][c] == i) {
          opj_w_arr_begin(&w);
          opj_w_double(&w, (double)(float)(cx[c] * tg.cell_size));
          opj_w_double(&w, hy[r][c]);
          opj_w_double(&w, (double)(float)(cz[r] * tg.cell_size));
          opj_w_arr_end(&w);
        }
  opj_w_arr_end(&w);
  opj_w_key(&w, "polys");
  opj_w_arr_begin(&w);
  for (int r = 0; r < nrows; r++)
    for (int c = 0; c < ncols; c++) {
      if (!present[r][c]) continue;
      int a = vid[r][c], b = vid[r][c + 1], cc = vid[r + 1][c + 1], d = vid[r + 1][c];
      /* code of each rectangle side (FMT-019): internal neighbour, portal, or wall */
      int code[4];
      int nb[4][2] = {{r - 1, c}, {r, c + 1}, {r + 1, c}, {r, c - 1}};
      int tside[4] = {3, 2, 1, 0}; /* bottom = -z (3), right = +x (2), top = +z (1), left = -x (0) */
      for (int s = 0; s < 4; s++) {
        int rr = nb[s][0], c2 = nb[s][1];
        if (rr < 0 || c2 < 0 || rr >= nrows || c2 >= ncols) code[s] = portal[tside[s]] ? (int)(0x8000 | tside[s]) : 0;
        else if (present[rr][c2]) code[s] = owner[rr][c2][(s + 2) % 4] + 1;
        else code[s] = 0;
      }
      int t0 = first[r][c];
      int pv[2][4], pn[2][4], cnt[2], npoly = 1;
      if (split[r][c] == 0) {
        int v4[4] = {a, b, cc, d};
        memcpy(pv[0], v4, sizeof v4);
        memcpy(pn[0], code, sizeof code);
        cnt[0] = 4;
      } else if (split[r][c] == 1) {
        int v0[3] = {a, b, cc}, n0[3] = {code[0], code[1], t0 + 2};
        int v1[3] = {a, cc, d}, n1[3] = {t0 + 1, code[2], code[3]};
        memcpy(pv[0], v0, sizeof v0); memcpy(pn[0], n0, sizeof n0);
        memcpy(pv[1], v1, sizeof v1); memcpy(pn[1], n1, sizeof n1);
        cnt[0] = cnt[1] = 3;
        npoly = 2;
      } else {
        int v0[3] = {a, b, d}, n0[3] = {code[0], t0 + 2, code[3]};
        int v1[3] = {b, cc, d}, n1[3] = {code[1], code[2], t0 + 1};
        memcpy(pv[0], v0, sizeof v0); memcpy(pn[0], n0, sizeof n0);
        memcpy(pv[1], v1, sizeof v1); memcpy(pn[1], n1, sizeof n1);
        cnt[0] = cnt[1] = 3;
        npoly = 2;
      }
      for (int q = 0; q < npoly; q++) {
        opj_w_obj_begin(&w);
        opj_w_key(&w, "verts");
        opj_w_arr_begin(&w);
        for (int k = 0; k < cnt[q]; k++) opj_w_int(&w, pv[q][k]);
        opj_w_arr_end(&w);
        opj_w_key(&w, "neis");
        opj_w_arr_begin(&w);
        for (int k = 0; k < cnt[q]; k++) opj_w_int(&w, pn[q][k]);
        opj_w_arr_end(&w);
        opj_w_key(&w, "area"); opj_w_int(&w, area);
        opj_w_key(&w, "flags"); opj_w_int(&w, flags);
        opj_w_obj_end(&w);
      }
    }
  opj_w_arr_end(&w);
  snprintf(note, ncap, "tile %d,%d,%d: %dx%d rectangles, %d polygons, portals -x%c +z%c +x%c -z%c%s", x, z,
           layer, ncols, nrows, np, portal[0] ? '+' : '-', portal[1] ? '+' : '-', portal[2] ? '+' : '-',
           portal[3] ? '+' : '-', bad_tiling ? ", tiling.origin[1] off by one" : "");
  int64_t th = req_end(h, &w, note);
  if (th > 0 && h->ntiles < MAX_HIST) h->tiles[h->ntiles++] = th;
  return th;
}

static void pick_pos(harness *h, fdp *f, int existing, int32_t pos[3]) {
  const model *m = &h->m;
  if (existing) {
    int occ[MAX_MODEL_SLOTS], n = 0;
    for (uint32_t i = 0; i < m->nslots; i++)
      if (m->s[i].tile) occ[n++] = (int)i;
    if (n) {
      const mslot *sl = &m->s[occ[fdp_choice(f, (size_t)n)]];
      pos[0] = sl->x; pos[1] = sl->z; pos[2] = sl->layer;
      return;
    }
  }
  if (fdp_choice(f, 4) != 0) { /* mostly a 2 x 2 block of one layer, so that tiles stitch */
    pos[0] = (int32_t)fdp_range(f, 0, 1);
    pos[1] = (int32_t)fdp_range(f, 0, 1);
    pos[2] = 0;
    return;
  }
  pos[0] = (int32_t)fdp_srange(f, -1, 1);
  pos[1] = (int32_t)fdp_srange(f, -1, 1);
  pos[2] = (int32_t)fdp_range(f, 0, 1);
}

static op_ref pick_ref(harness *h, fdp *f, char *note, size_t ncap) {
  const model *m = &h->m;
  switch (fdp_choice(f, 6)) {
    case 0: case 1: { /* a valid reference */
      int occ[MAX_MODEL_SLOTS], n = 0;
      for (uint32_t i = 0; i < m->nslots; i++)
        if (m->s[i].tile) occ[n++] = (int)i;
      if (!n) break;
      int s = occ[fdp_choice(f, (size_t)n)];
      uint32_t p = (uint32_t)fdp_range(f, 0, m->s[s].npolys - 1);
      snprintf(note, ncap, "valid ref: slot %d polygon %u", s, p);
      return mk_ref(m->s[s].gen, (uint32_t)s, p);
    }
    case 2: /* a reference seen earlier (often stale now) */
      if (!h->nhist) break;
      {
        op_ref r = h->hist[fdp_choice(f, (size_t)h->nhist)];
        snprintf(note, ncap, "earlier ref (may be stale)");
        return r;
      }
    case 3: { /* polygon index beyond the tile */
      for (uint32_t i = 0; i < m->nslots; i++)
        if (m->s[i].tile) {
          snprintf(note, ncap, "bogus ref: slot %u polygon %u of %u", i, m->s[i].npolys, m->s[i].npolys);
          return mk_ref(m->s[i].gen, i, m->s[i].npolys + (uint32_t)fdp_range(f, 0, 2));
        }
      break;
    }
    case 4:
      snprintf(note, ncap, "bogus ref: slot beyond max_tiles or generation 0");
      return fdp_bool(f) ? mk_ref(1, m->nslots + (uint32_t)fdp_range(f, 0, 3), 0)
                         : mk_ref(0, (uint32_t)fdp_range(f, 0, 3), 0);
    default:
      snprintf(note, ncap, "bogus ref: fuzzed u64");
      return fdp_u64(f);
  }
  snprintf(note, ncap, "null ref");
  return 0;
}

static void gen_snapshot_load(harness *h, fdp *f, int mutate) {
  if (!h->nsnaps) return;
  int k = (int)fdp_choice(f, (size_t)h->nsnaps);
  op_bytes s = h->snaps[k];
  size_t len = s.len;
  uint8_t *b = malloc(len + 64);
  if (!b) abort();
  memcpy(b, s.data, len);
  char note[512];
  int off = snprintf(note, sizeof note, "snapshot %d (%zu bytes)", k, len);
  if (mutate) {
    int nm = 1 + (int)fdp_range(f, 0, 3);
    for (int i = 0; i < nm && len > 0; i++) {
      size_t at = (size_t)fdp_range(f, 0, len - 1);
      int kind = (int)fdp_choice(f, 5);
      const char *what = "";
      if (kind == 0) {
        uint8_t x = (uint8_t)fdp_range(f, 1, 255);
        b[at] ^= x;
        what = "xor";
      } else if (kind == 1 && at + 4 <= len) {
        static const uint32_t special[8] = {0, 1, 2, 0xFFFFFFFFu, 0x3FFFFFu, 0x400000u, 7, 0x80000000u};
        uint32_t v = special[fdp_choice(f, 8)];
        for (int q = 0; q < 4; q++) b[at + q] = (uint8_t)(v >> (8 * q));
        what = "u32 set";
      } else if (kind == 2) {
        len = at;
        what = "truncated";
      } else if (kind == 3 && len + 8 <= s.len + 64) {
        size_t add = 1 + (size_t)fdp_range(f, 0, 7);
        fdp_bytes(f, b + len, add);
        len += add;
        what = "appended";
      } else {
        b[at] = (uint8_t)(b[at] + 1);
        what = "increment";
      }
      if (off < (int)sizeof note - 40) off += snprintf(note + off, sizeof note - (size_t)off, "; %s at %zu", what, at);
    }
  }
  opj_w w;
  req_begin(h, &w, "mesh.snapshot_load");
  opj_w_key(&w, "mesh"); opj_w_int(&w, h->m.mesh_h);
  opj_w_key(&w, "bytes"); opj_w_hexbytes(&w, b, len);
  req_end(h, &w, note);
  free(b);
}

static void gen_step(harness *h, fdp *f) {
  char note[256] = "";
  int32_t pos[3];
  opj_w w;
  int64_t mh = h->m.mesh_h;
  switch (fdp_choice(f, 18)) {
    case 0: case 1: case 16: case 17: { /* new tile, added */
      pick_pos(h, f, 0, pos);
      int64_t th = gen_tile(h, f, pos[0], pos[1], pos[2], 0, note, sizeof note);
      req_begin(h, &w, "mesh.add_tile");
      opj_w_key(&w, "mesh"); opj_w_int(&w, mh);
      opj_w_key(&w, "tile"); opj_w_int(&w, th);
      req_end(h, &w, "");
      break;
    }
    case 2: { /* add an earlier tile handle (often a duplicate position, or dropped) */
      if (!h->ntiles) break;
      req_begin(h, &w, "mesh.add_tile");
      opj_w_key(&w, "mesh"); opj_w_int(&w, mh);
      opj_w_key(&w, "tile"); opj_w_int(&w, h->tiles[fdp_choice(f, (size_t)h->ntiles)]);
      req_end(h, &w, "earlier tile handle");
      break;
    }
    case 3: case 4: /* remove */
      pick_pos(h, f, fdp_choice(f, 4) != 0, pos);
      req_begin(h, &w, "mesh.remove_tile");
      opj_w_key(&w, "mesh"); opj_w_int(&w, mh);
      opj_w_key(&w, "x"); opj_w_int(&w, pos[0]);
      opj_w_key(&w, "z"); opj_w_int(&w, pos[1]);
      opj_w_key(&w, "layer"); opj_w_int(&w, pos[2]);
      req_end(h, &w, "");
      break;
    case 5: { /* new tile at a position in use, replacing */
      pick_pos(h, f, fdp_choice(f, 4) != 0, pos);
      int64_t th = gen_tile(h, f, pos[0], pos[1], pos[2], 0, note, sizeof note);
      req_begin(h, &w, "mesh.replace_tile");
      opj_w_key(&w, "mesh"); opj_w_int(&w, mh);
      opj_w_key(&w, "tile"); opj_w_int(&w, th);
      req_end(h, &w, "");
      break;
    }
    case 6: /* replace with an earlier handle */
      if (!h->ntiles) break;
      req_begin(h, &w, "mesh.replace_tile");
      opj_w_key(&w, "mesh"); opj_w_int(&w, mh);
      opj_w_key(&w, "tile"); opj_w_int(&w, h->tiles[fdp_choice(f, (size_t)h->ntiles)]);
      req_end(h, &w, "earlier tile handle");
      break;
    case 7: case 8: { /* set flags */
      op_ref r = pick_ref(h, f, note, sizeof note);
      req_begin(h, &w, "mesh.set_poly_flags");
      opj_w_key(&w, "mesh"); opj_w_int(&w, mh);
      opj_w_key(&w, "ref"); opj_w_u64hex(&w, r);
      opj_w_key(&w, "flags"); opj_w_int(&w, fdp_bool(f) ? (int64_t)fdp_u16(f) : (int64_t)fdp_range(f, 0, 3));
      req_end(h, &w, note);
      break;
    }
    case 9: { /* set area, 64..70 out of range */
      op_ref r = pick_ref(h, f, note, sizeof note);
      req_begin(h, &w, "mesh.set_poly_area");
      opj_w_key(&w, "mesh"); opj_w_int(&w, mh);
      opj_w_key(&w, "ref"); opj_w_u64hex(&w, r);
      opj_w_key(&w, "area"); opj_w_int(&w, (int64_t)fdp_range(f, 0, 70));
      req_end(h, &w, note);
      break;
    }
    case 10: { /* get_poly or poly_ref */
      if (fdp_bool(f)) {
        pick_pos(h, f, fdp_choice(f, 4) != 0, pos);
        req_begin(h, &w, "mesh.poly_ref");
        opj_w_key(&w, "mesh"); opj_w_int(&w, mh);
        opj_w_key(&w, "x"); opj_w_int(&w, pos[0]);
        opj_w_key(&w, "z"); opj_w_int(&w, pos[1]);
        opj_w_key(&w, "layer"); opj_w_int(&w, pos[2]);
        opj_w_key(&w, "poly"); opj_w_int(&w, (int64_t)fdp_range(f, 0, 20));
        req_end(h, &w, "");
      } else {
        op_ref r = pick_ref(h, f, note, sizeof note);
        req_begin(h, &w, "mesh.get_poly");
        opj_w_key(&w, "mesh"); opj_w_int(&w, mh);
        opj_w_key(&w, "ref"); opj_w_u64hex(&w, r);
        req_end(h, &w, note);
      }
      break;
    }
    case 11: /* snapshot_save, or mesh.save: a checkpoint of the mesh bytes for op-conform */
      req_begin(h, &w, fdp_choice(f, 4) ? "mesh.snapshot_save" : "mesh.save");
      opj_w_key(&w, "mesh"); opj_w_int(&w, mh);
      req_end(h, &w, "");
      break;
    case 12: gen_snapshot_load(h, f, 0); break;
    case 13: gen_snapshot_load(h, f, 1); break;
    case 14: /* drop a tile object (the mesh holds its own copy, MESH-012) */
      if (!h->ntiles) break;
      req_begin(h, &w, "drop");
      opj_w_key(&w, "handle"); opj_w_int(&w, h->tiles[fdp_choice(f, (size_t)h->ntiles)]);
      req_end(h, &w, "tile object dropped; the mesh keeps its copy");
      break;
    case 15: { /* a tile of another tiling, or a bogus tile handle */
      int64_t th;
      if (fdp_bool(f)) {
        pick_pos(h, f, 0, pos);
        th = gen_tile(h, f, pos[0], pos[1], pos[2], 1, note, sizeof note);
      } else {
        th = 1000 + (int64_t)fdp_range(f, 0, 9);
      }
      req_begin(h, &w, fdp_bool(f) ? "mesh.replace_tile" : "mesh.add_tile");
      opj_w_key(&w, "mesh"); opj_w_int(&w, mh);
      opj_w_key(&w, "tile"); opj_w_int(&w, th);
      req_end(h, &w, "");
      break;
    }
  }
}

/* --------------------------------------------------------------- entry */

static void exec_text_request(void *ctx, const char *req, size_t len, const char *note) {
  exec_request((harness *)ctx, req, len, note);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  harness h;
  memset(&h, 0, sizeof h);
  h.s = opd_session_new();
  if (!h.s) return 0;
  optrace_init(&h.tr, "mesh_ops",
               "fuzz_mesh_ops trace: one protocol request per line with the reference's answer",
               "[\"MESH-001\",\"MESH-012\",\"MESH-014\",\"MESH-015\",\"MESH-016\",\"MESH-024\","
               "\"MESH-030\",\"SNAP-008\",\"SNAP-009\",\"SNAP-011\"]");
  if (optrace_is_text(data, size)) {
    optrace_each_request(data, size, exec_text_request, &h);
  } else {
    fdp f;
    fdp_init(&f, data, size);
    gen_mesh_create(&h, &f);
    for (int i = 0; i < MAX_STEPS && fdp_left(&f) > 0 && h.m.on; i++) gen_step(&h, &f);
  }
  model_free_slots(h.m.s, h.m.nslots);
  for (int i = 0; i < h.nsnaps; i++) op_bytes_free(&h.snaps[i]);
  optrace_free(&h.tr);
  opd_session_free(h.s);
  return 0;
}
