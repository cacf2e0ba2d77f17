/*
** mkcorpus_bytes.c -- writes the seed corpora of the byte harnesses fuzz_tilecache_snapshot
** and fuzz_obj_text, deterministically (the same files, byte for byte, on every run):
**
**   fuzz-mkcorpus-bytes TILECACHE_SNAPSHOT_DIR OBJ_TEXT_DIR
**
** tilecache_snapshot: snapshots saved (TileCache.SaveState, SNAP-018) from the harness's
** fixture cache (tilecache_fixture.h; a seed from any other cache stops at `fingerprint`)
** in a few states: fresh; one obstacle queued; obstacles of the three shapes (one added and
** removed), two volumes and a partly worked queue; the same after UpdateAll; a 12-point
** volume of area 0 and everything removed again (next ids above every live id); plus two
** rejected ones: the cache mesh's plain snapshot (`nsections` 1, SNAP-020) and a busy
** snapshot cut inside its TCAC section.
** obj_text: small generated levels written as OBJ (v lines %.17g, f lines 1-based; a few
** with quads, negative and i/t/n references, comments, CRLF), and hand-written texts for
** each rule of SPAN-080 .. SPAN-087 (valid and invalid).
** Files are named after what they hold. Run by the target fuzz-mkcorpus-bytes; the ctest
** fuzz/corpus-bytes checks the committed corpora are what this writes.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onepath.h"
#include "onepath_build3d.h"
#include "onepath_pipeline.h"
#include "onepath_tilecache.h"
#include "tilecache_fixture.h"

static int failed;

static void put(const char *dir, const char *name, const void *data, size_t len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || (len && fwrite(data, 1, len, f) != len)) {
    fprintf(stderr, "mkcorpus: cannot write %s\n", path);
    failed = 1;
  }
  if (f) fclose(f);
}

static void check(op_status st, const op_error *e, const char *what) {
  if (st == OP_OK) return;
  fprintf(stderr, "mkcorpus: %s: %s %s %s\n", what, op_status_name(e->kind), e->field, e->message);
  failed = 1;
}

static void save_snap(const char *dir, const char *name, op_tilecache *c) {
  op_bytes b = {0};
  op_error e;
  op_status st = op_tilecache_snapshot_save(c, &b, &e);
  check(st, &e, name);
  if (st == OP_OK) put(dir, name, b.data, b.len);
  op_bytes_free(&b);
}

static op_obstacle cylinder(double x, double y, double z, double r, double h) {
  op_obstacle o;
  memset(&o, 0, sizeof o);
  o.shape = OP_OBSTACLE_CYLINDER;
  o.center[0] = x, o.center[1] = y, o.center[2] = z, o.radius = r, o.height = h;
  return o;
}

static op_obstacle box(const double lo[3], const double hi[3]) {
  op_obstacle o;
  memset(&o, 0, sizeof o);
  o.shape = OP_OBSTACLE_BOX;
  memcpy(o.bmin, lo, sizeof o.bmin);
  memcpy(o.bmax, hi, sizeof o.bmax);
  return o;
}

static op_obstacle obox(double x, double y, double z, double hx, double hy, double hz, double yaw) {
  op_obstacle o;
  memset(&o, 0, sizeof o);
  o.shape = OP_OBSTACLE_ORIENTED_BOX;
  o.center[0] = x, o.center[1] = y, o.center[2] = z;
  o.half[0] = hx, o.half[1] = hy, o.half[2] = hz, o.yaw = yaw;
  return o;
}

static uint32_t add_ob(op_tilecache *c, op_obstacle o) {
  uint32_t id = 0;
  op_error e;
  check(op_tilecache_add_obstacle(c, &o, &id, &e), &e, "add_obstacle");
  return id;
}

static uint32_t add_vol(op_tilecache *c, const double m[3], uint32_t np, double r, uint8_t area) {
  op_convex_volume v;
  memset(&v, 0, sizeof v);
  v.npoints = np;
  /* a convex polygon around the centre: the points of a 12-gon, np of them spread evenly */
  static const double ring[12][2] = {{4, 0}, {3.5, 2}, {2, 3.5}, {0, 4}, {-2, 3.5}, {-3.5, 2},
                                     {-4, 0}, {-3.5, -2}, {-2, -3.5}, {0, -4}, {2, -3.5}, {3.5, -2}};
  for (uint32_t j = 0; j < np; j++) {
    const double *p = ring[(j * 12) / np];
    v.points[j][0] = m[0] + r * p[0] / 4, v.points[j][1] = m[2] + r * p[1] / 4;
  }
  v.ymin = m[1] - 1, v.ymax = m[1] + 50, v.area = area;
  uint32_t id = 0;
  op_error e;
  check(op_tilecache_add_volume(c, &v, &id, &e), &e, "add_volume");
  return id;
}

static void tilecache_seeds(const char *dir) {
  op_trimesh lv;
  op_tilecache *c = NULL;
  op_error e;
  op_status st = tcfix_build(&lv, &c, &e);
  check(st, &e, "fixture");
  if (st != OP_OK) return;
  double m[3];
  tcfix_centre(&lv, m);
  save_snap(dir, "fresh", c);
  op_bytes fresh = {0};
  check(op_tilecache_snapshot_save(c, &fresh, &e), &e, "fresh");
  /* a plain mesh snapshot of the cache's mesh: nsections 1 (rejected, SNAP-020) */
  op_bytes plain = {0};
  if (op_mesh_snapshot_save(op_tilecache_mesh(c), &plain, &e) == OP_OK)
    put(dir, "plain-mesh-snapshot", plain.data, plain.len);
  else check(OP_E_FORMAT, &e, "plain");
  op_bytes_free(&plain);
  add_ob(c, cylinder(m[0] + 2, m[1] - 1, m[2] - 3, 1.25, 40));
  save_snap(dir, "one-cylinder-queued", c);
  /* busy: three shapes, one removed, two volumes, Update(1) */
  uint32_t gone = add_ob(c, cylinder(m[0] - 5, m[1] - 1, m[2] - 3, 1.25, 40));
  const double lo[3] = {m[0] - 6, m[1] - 1, m[2] + 1}, hi[3] = {m[0] - 4, m[1] + 40, m[2] + 2.5};
  add_ob(c, box(lo, hi));
  check(op_tilecache_remove_obstacle(c, gone, &e), &e, "remove_obstacle");
  add_ob(c, obox(m[0], m[1] + 10, m[2] + 5, 2, 30, 0.75, 0.6));
  add_vol(c, m, 4, 3, 7);
  add_vol(c, m, 3, 2, 0);
  uint32_t done = 0;
  check(op_tilecache_update(c, 1, &done, &e), &e, "update");
  save_snap(dir, "busy-queue", c);
  op_bytes busy = {0};
  check(op_tilecache_snapshot_save(c, &busy, &e), &e, "busy");
  if (busy.len > 40) put(dir, "busy-cut-in-tcac", busy.data, busy.len - 40);
  op_bytes_free(&busy);
  check(op_tilecache_update_all(c, &done, &e), &e, "update_all");
  save_snap(dir, "busy-updated", c);
  /* a 12-point volume of area 0 and an oriented box, updated, then everything removed */
  uint32_t v12 = add_vol(c, m, 12, 4, 0);
  uint32_t ob = add_ob(c, obox(m[0] + 3, m[1], m[2] - 2, 1, 5, 2, -2.5));
  check(op_tilecache_update_all(c, &done, &e), &e, "update_all");
  save_snap(dir, "vol12-obox-updated", c);
  for (uint32_t id = 1; id <= ob; id++) op_tilecache_remove_obstacle(c, id, NULL);
  for (uint32_t id = 1; id <= v12; id++) op_tilecache_remove_volume(c, id, NULL);
  save_snap(dir, "all-removed-queued", c);
  check(op_tilecache_update_all(c, &done, &e), &e, "update_all");
  save_snap(dir, "all-removed-updated", c);
  check(op_tilecache_snapshot_load(c, fresh.data, fresh.len, &e), &e, "restore fresh");
  op_bytes_free(&fresh);
  op_tilecache_free(c);
  op_trimesh_free(&lv);
}

/* ------------------------------------------------------------ OBJ */

/* Writes a soup as OBJ: plain (v, f a b c), or "fancy" (CRLF, a comment per 8 lines,
** i/t/n and negative references, vt/vn lines). */
static void write_level(const char *dir, const char *name, const op_trimesh *m, int fancy) {
  size_t cap = 256 + 96 * (size_t)m->nverts + 64 * (size_t)m->ntris, n = 0;
  char *b = malloc(cap);
  if (!b) { failed = 1; return; }
  const char *eol = fancy ? "\r\n" : "\n";
  n += (size_t)snprintf(b + n, cap - n, "# %s%s", name, eol);
  if (fancy) n += (size_t)snprintf(b + n, cap - n, "o level%svt 0 0%svn 0 1 0%s", eol, eol, eol);
  uint32_t done = 0;
  for (uint32_t t = 0; t < m->ntris; t++) { /* each triangle after the vertices it uses */
    uint32_t need = 0;
    for (int k = 0; k < 3; k++) if (m->tris[3 * t + k] + 1 > need) need = m->tris[3 * t + k] + 1;
    for (; done < need; done++)
      n += (size_t)snprintf(b + n, cap - n, "v %.17g %.17g %.17g%s", m->verts[3 * done],
                            m->verts[3 * done + 1], m->verts[3 * done + 2], eol);
    const uint32_t *r = &m->tris[3 * t];
    if (!fancy) n += (size_t)snprintf(b + n, cap - n, "f %u %u %u\n", r[0] + 1, r[1] + 1, r[2] + 1);
    else if (t % 3 == 0) /* negative references */
      n += (size_t)snprintf(b + n, cap - n, "f -%u -%u -%u # t%u%s", done - r[0], done - r[1],
                            done - r[2], t, eol);
    else
      n += (size_t)snprintf(b + n, cap - n, "f\t%u/1/1 %u//1  %u/1%s", r[0] + 1, r[1] + 1, r[2] + 1, eol);
  }
  put(dir, name, b, n);
  free(b);
}

static void level_seed(const char *dir, const char *gen, uint64_t seed, uint32_t size, int fancy) {
  op_trimesh m;
  op_error e;
  memset(&m, 0, sizeof m);
  op_status st = op_level_generate(gen, seed, size, NULL, &m, &e);
  check(st, &e, gen);
  if (st != OP_OK) return;
  char name[96];
  snprintf(name, sizeof name, "level-%s-%u%s.obj", gen, size, fancy ? "-fancy" : "");
  write_level(dir, name, &m, fancy);
  op_trimesh_free(&m);
}

static const struct { const char *name, *text; } OBJ_TEXTS[] = {
  {"quad.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 4 3 2\n"},
  {"pentagon-crlf.obj", "v 0 0 0\r\nv 2 0 0\r\nv 3 0 2\r\nv 1 0 3\r\nv -1 0 2\r\nf 1 5 4 3 2\r\n"},
  {"refs-forms.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nvt 0 0\nvn 0 1 0\nf 1/1 2/1/1 3//1\nf -3 -1 -2\n"},
  {"numbers.obj", "v +1.5 -.25 3.\nv 1e2 -2.5E-1 0.1\nv -0 2097152 -2097152\nv 1 2 3 1.0 0.5 0.25\nf 1 2 3 4\n"},
  {"comments-ignored.obj", "# header\ng group\ns off\nusemtl m\nmtllib x.mtl\nl 1 2\np 1\nv 0 0 0 # c\n"
                           "v 1 0 0\n\n   \t\nv 0 0 1\nf 1 2 3#end"},
  {"no-final-newline-cr.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\r"},
  {"degenerate.obj", "v 0 0 0\nv 0 0 0\nv 0 0 0\nf 1 1 1\nf 1 2 3\n"},
  {"err-v-short.obj", "v 1 2\n"},
  {"err-v-word.obj", "v 1 2 z\n"},
  {"err-inf.obj", "v inf 0 0\n"},
  {"err-hex.obj", "v 0x10 0 0\n"},
  {"err-range.obj", "v 2097152.0000000005 0 0\nv 1e400 0 0\n"},
  {"err-f-short.obj", "v 0 0 0\nf 1 1\n"},
  {"err-f-forward.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 0 1\n"},
  {"err-f-zero.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 0 1 2\n"},
  {"err-f-neg.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf -4 1 2\n"},
  {"err-f-form.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1/ 2 3\nf 1/2/3/4 2 3\n"},
  {"err-comma.obj", "v 0,5 0 0\n"},
  {"err-vertical-tab.obj", "v 0 0\v0 0\n"},
  {"err-big-ref.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 99999999999999999999\n"},
};

static void obj_seeds(const char *dir) {
  for (size_t i = 0; i < sizeof OBJ_TEXTS / sizeof OBJ_TEXTS[0]; i++)
    put(dir, OBJ_TEXTS[i].name, OBJ_TEXTS[i].text, strlen(OBJ_TEXTS[i].text));
  static const char nul[] = "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2\0 3\n";
  put(dir, "err-nul.obj", nul, sizeof nul - 1);
  static const char high[] = "# caf\xc3\xa9\nv 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\nv 1 0 \xc3\xa9\n";
  put(dir, "err-non-ascii.obj", high, sizeof high - 1);
  /* a v line of 4097 tokens: limit (SPAN-086) */
  size_t cap = 8 + 2 * 4097, n = 0;
  char *b = malloc(cap);
  if (b) {
    n += (size_t)snprintf(b + n, cap - n, "v");
    for (int k = 0; k < 4096; k++) n += (size_t)snprintf(b + n, cap - n, " 1");
    put(dir, "err-4097-tokens.obj", b, n);
    free(b);
  }
  level_seed(dir, "terrain", 1, 2, 0);
  level_seed(dir, "terrain", 7, 4, 1);
  level_seed(dir, "city", 3, 2, 0);
  level_seed(dir, "stairs", 2, 3, 1);
  level_seed(dir, "dungeon", 4, 10, 0);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: fuzz-mkcorpus-bytes TILECACHE_SNAPSHOT_DIR OBJ_TEXT_DIR\n");
    return 2;
  }
  tilecache_seeds(argv[1]);
  obj_seeds(argv[2]);
  return failed;
}
