/*
** mkcorpus.c -- writes the seed corpus of the obstacle-history harness,
** fuzz/corpus/tilecache_history/, deterministically (issue 7).
**
**   cc -std=c11 fuzz/history/mkcorpus.c -o mkcorpus && ./mkcorpus fuzz/corpus/tilecache_history
**   (or the build target fuzz-mkcorpus-tilecache_history; ctest fuzz/corpus-tilecache_history
**   checks that the committed corpus is what this program writes)
**
** The seeds are binary inputs of fuzz_tilecache_history.c: byte strings that its fdp.h
** decoder turns into the histories of spec/build3d-runtime.md section 11 (the scenario
** shapes of `build3d/tilecache`): a level built with a cache, a cylinder, a box, an oriented
** box at a yaw that is not a multiple of pi/2, a volume of area 0 and one of another area,
** a sliced update (Update(1) twice), UpdateAll, a snapshot, more changes (remove an obstacle,
** add another, remove the volume), an update, the restore of the snapshot, and at the end
** everything removed (RT-027); the same on the city (several layers per tile) and on the
** general path; and the error cases of issue 6 (NaN, an infinity, beyond +-2^21, zero and
** negative sizes, unknown and removed ids, a mutated snapshot, the refused tile changes on
** the cache's mesh, a max_tiles beyond u32). Plus a few pseudo-random byte strings.
**
** The encoder below emits, in the generator's order, the bytes of each decision (one byte
** per decision of fewer than 256 outcomes, none for a one-outcome choice): it mirrors
** gen_history / gen_step / gen_obstacle / gen_volume / gen_id / gen_load of the harness and
** must follow them when their decision order changes (the trace of a seed, written with
** OP_FUZZ_TRACE=FILE, shows what it decodes to: its notes name every choice).
** No dependencies; standard C only.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct enc {
  uint8_t b[4096];
  size_t n;
  int nobs, nvols, nsnaps; /* what the generator's model holds, for choices over them */
} enc;

static void put(enc *e, unsigned v) {
  if (e->n >= sizeof e->b) abort();
  e->b[e->n++] = (uint8_t)v;
}

/* A choice of k among n (no byte when n is 1). */
static void choice(enc *e, unsigned k, unsigned n) {
  if (n > 1) put(e, k);
}

/* g_num: a valid value lo + (hi - lo) * k / 64 (choice 5 of 24: the default branch). */
static void num(enc *e, unsigned k64) {
  put(e, 5);
  put(e, k64);
}

/* g_num's special classes: 0 NaN, 1 +-infinity, 2 beyond 2^21, 3 zero size / -0.0,
** 4 huge size. */
static void special(enc *e, unsigned cls, int size_like, unsigned flag) {
  put(e, cls);
  if (cls == 1 || cls == 2 || (cls >= 3 && size_like)) put(e, flag);
  if (cls == 4 && !size_like) put(e, 32);
}

/* The level (0 city 1, 1 dungeon 10, 2 terrain 12, 3 city 2), partition (0/1 layers,
** 2 watershed, 3 monotone), min_region_area index, seed - 1, options byte (bits 0-2 all set:
** repair off; bits 3-5 all set: settings volume and obstacle; bit 6: slicing twin at
** checkpoints; bit 7: remove everything at the end). */
static void level(enc *e, unsigned lv, unsigned part, unsigned mra, unsigned seed, unsigned opts) {
  put(e, lv);
  put(e, part);
  put(e, mra);
  put(e, seed);
  put(e, opts);
}

enum { S_OBST = 0, S_VOL = 3, S_REMOVE = 5, S_UPDATE = 7, S_SAVE = 10, S_LOAD = 11, S_LOADMUT = 12, S_DIRECT = 13,
       S_QUEUE = 14, S_EDIT = 15 };

/* A cylinder with centre (x, y, z), radius, height as k/64 fractions of the harness's ranges. */
static void cylinder(enc *e, unsigned x, unsigned y, unsigned z, unsigned r, unsigned hgt) {
  put(e, S_OBST);
  put(e, 0);
  num(e, x); num(e, y); num(e, z); num(e, r); num(e, hgt);
  e->nobs++;
}

static void box(enc *e, unsigned x, unsigned y, unsigned z, unsigned sx, unsigned sy, unsigned sz) {
  put(e, S_OBST);
  put(e, 1);
  num(e, x); num(e, y); num(e, z); num(e, sx); num(e, sy); num(e, sz);
  e->nobs++;
}

/* An oriented box; yaw_k < 8 picks the harness's yaw table (1: 0.5 rad, 2: -pi/4, 6: 100). */
static void obox(enc *e, unsigned x, unsigned y, unsigned z, unsigned hx, unsigned hy, unsigned hz, unsigned yaw_k) {
  put(e, S_OBST);
  put(e, 2);
  num(e, x); num(e, y); num(e, z); num(e, hx); num(e, hy); num(e, hz);
  put(e, 1);
  put(e, yaw_k);
  e->nobs++;
}

/* A volume of n points (3..8) around (cx, cz), offsets pts[i] in 0..32 (-4..4 world units),
** area index 0..7 (area 9 * index). */
static void volume(enc *e, unsigned n, unsigned cx, unsigned cz, const unsigned *pts, unsigned y0, unsigned dy,
                   unsigned area) {
  put(e, S_VOL);
  put(e, n - 3);
  put(e, 5); /* not one of the odd cases */
  num(e, cx); num(e, cz);
  for (unsigned i = 0; i < 2 * n; i++) put(e, pts[i]);
  num(e, y0); num(e, dy);
  put(e, area);
  e->nvols++;
}

/* Removes the k-th live obstacle (volume). */
static void remove_live(enc *e, int vol, unsigned k) {
  put(e, S_REMOVE);
  put(e, vol ? 0 : 1);
  put(e, 0);
  choice(e, k, (unsigned)(vol ? e->nvols : e->nobs));
  if (vol) e->nvols--;
  else e->nobs--;
}

/* Removes by an id that is not live: 5 the next id, 6 + k one of {0, 2^32-1, 2^32, -1}, 7 other. */
static void remove_bad(enc *e, int vol, unsigned how, unsigned k) {
  put(e, S_REMOVE);
  put(e, vol ? 0 : 1);
  put(e, how);
  if (how == 6) put(e, k);
  if (how == 7) put(e, k);
}

/* Update: k 0..2 budgets 1, 2, 3; 3 budget 0; 4 2^32-1; 5 2^32 (not a u32); 6 null; 7 absent. */
static void update(enc *e, unsigned k) {
  put(e, S_UPDATE);
  put(e, k);
}

static void save(enc *e) {
  put(e, S_SAVE);
  e->nsnaps++;
}

static void load(enc *e, unsigned k) {
  put(e, S_LOAD);
  choice(e, k, (unsigned)e->nsnaps);
}

/* A mutated restore of snapshot k: one mutation in the TCAC section at offset `at` of it
** (bytes of at most 256 mean that offset), kind 1 u32 set (value index v) or 2 f64 set. */
static void load_mutated(enc *e, unsigned k, unsigned kind, unsigned at, unsigned v) {
  put(e, S_LOADMUT);
  choice(e, k, (unsigned)e->nsnaps);
  put(e, 0); /* one mutation */
  put(e, 1); /* in the TCAC section */
  put(e, at);
  put(e, kind);
  put(e, v);
}

/* A tile change on the cache's mesh (RT-018): 0 add_tile, 1 remove_tile, 2 replace_tile,
** 3 snapshot_load (of the first snapshot). */
static void direct(enc *e, unsigned k) {
  put(e, S_DIRECT);
  put(e, k);
  if (k == 0 || k == 2) put(e, 0);
  if (k == 1) put(e, 1), put(e, 1);
  if (k == 3) choice(e, 0, (unsigned)e->nsnaps);
}

static void write_seed(const char *dir, const char *name, const enc *e) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(e->b, 1, e->n, f) != e->n || fclose(f) != 0) {
    fprintf(stderr, "mkcorpus: cannot write %s\n", path);
    exit(1);
  }
}

/* The history of section 11 on one level. */
static void section11(enc *e, int with_restore) {
  static const unsigned tri[6] = {8, 8, 24, 8, 16, 24}, quad[8] = {0, 0, 32, 0, 32, 32, 0, 32};
  cylinder(e, 20, 0, 24, 20, 64);
  box(e, 36, 0, 20, 20, 64, 16);
  obox(e, 40, 32, 44, 24, 32, 12, 1);
  volume(e, 4, 16, 40, quad, 0, 64, 0);
  volume(e, 3, 48, 48, tri, 0, 64, 2);
  update(e, 0);
  update(e, 0);
  update(e, 7);
  save(e);
  remove_live(e, 0, 1);
  cylinder(e, 44, 0, 12, 12, 64);
  remove_live(e, 1, 0);
  update(e, 6);
  if (with_restore) {
    load(e, 0);
    update(e, 7);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mkcorpus DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  enc e;
  /* section 11 on the terrain, the city, the 2-block city (slicing twin at checkpoints,
  ** repair off), the dungeon on the general path */
  memset(&e, 0, sizeof e); level(&e, 2, 0, 0, 4, 0x80); section11(&e, 1); write_seed(dir, "s11-terrain-layers", &e);
  memset(&e, 0, sizeof e); level(&e, 0, 0, 0, 2, 0x80); section11(&e, 1); write_seed(dir, "s11-city1-layers", &e);
  memset(&e, 0, sizeof e); level(&e, 3, 1, 1, 6, 0xC7); section11(&e, 1); write_seed(dir, "s11-city2-repairoff-atchecks", &e);
  memset(&e, 0, sizeof e); level(&e, 1, 2, 2, 0, 0x80); section11(&e, 1); write_seed(dir, "s11-dungeon-watershed", &e);
  memset(&e, 0, sizeof e); level(&e, 2, 3, 0, 9, 0x38); section11(&e, 0); write_seed(dir, "s11-terrain-monotone-settingshapes", &e);

  /* the error cases of issue 6, each followed by a valid edit and an update */
  memset(&e, 0, sizeof e);
  level(&e, 0, 0, 0, 3, 0);
  put(&e, S_OBST); put(&e, 0); special(&e, 0, 0, 0); num(&e, 0); num(&e, 0); num(&e, 8); num(&e, 8);    /* NaN */
  put(&e, S_OBST); put(&e, 0); num(&e, 8); num(&e, 0); num(&e, 8); special(&e, 1, 1, 0); num(&e, 8);    /* +inf radius */
  put(&e, S_OBST); put(&e, 1); special(&e, 2, 0, 1); num(&e, 0); num(&e, 0); num(&e, 8); num(&e, 8); num(&e, 8); /* beyond 2^21 */
  put(&e, S_OBST); put(&e, 0); num(&e, 8); num(&e, 0); num(&e, 8); special(&e, 3, 1, 0); num(&e, 8);    /* radius 0 */
  put(&e, S_OBST); put(&e, 2); num(&e, 8); num(&e, 0); num(&e, 8); special(&e, 3, 1, 1); num(&e, 8); num(&e, 8);
  put(&e, 0); num(&e, 32);                                                                               /* half.x -0.5 */
  put(&e, S_OBST); put(&e, 1); num(&e, 30); special(&e, 3, 0, 0); num(&e, 30); num(&e, 8); num(&e, 64); num(&e, 8); /* -0.0 */
  e.nobs++;
  put(&e, S_OBST); put(&e, 0); num(&e, 32); num(&e, 0); num(&e, 32); special(&e, 4, 1, 0); num(&e, 64);  /* huge radius */
  e.nobs++;
  update(&e, 7);
  remove_bad(&e, 0, 7, 3);   /* unknown id */
  remove_live(&e, 0, 0);
  remove_bad(&e, 0, 6, 0);   /* id 0 */
  remove_bad(&e, 0, 6, 2);   /* 2^32: not a u32 */
  remove_bad(&e, 1, 5, 0);   /* the next volume id */
  update(&e, 5);             /* max_tiles 2^32 */
  update(&e, 3);             /* max_tiles 0 */
  save(&e);
  load_mutated(&e, 0, 1, 8, 0);  /* TCAC u32 set 0 */
  load_mutated(&e, 0, 2, 40, 0); /* TCAC f64 set NaN */
  load_mutated(&e, 0, 2, 24, 1); /* TCAC f64 set -0.0 */
  direct(&e, 0);
  direct(&e, 1);
  direct(&e, 3);
  update(&e, 4);             /* max_tiles 2^32-1 */
  write_seed(dir, "errors-city1", &e);

  /* a long sliced history on the 2-block city: obstacles across tile borders, Update(1)s */
  memset(&e, 0, sizeof e);
  level(&e, 3, 0, 2, 11, 0x40);
  for (unsigned i = 0; i < 6; i++) {
    cylinder(&e, 8 + 9 * i, 0, 60 - 8 * i, 8 + 4 * i, 64);
    update(&e, i % 3);
  }
  obox(&e, 32, 0, 32, 40, 64, 6, 2);
  save(&e);
  for (unsigned i = 0; i < 4; i++) { remove_live(&e, 0, 0); update(&e, 0); }
  put(&e, S_QUEUE);
  load(&e, 0);
  update(&e, 1);
  put(&e, S_EDIT); put(&e, 1); put(&e, 1); put(&e, 0); put(&e, 0); put(&e, 5);
  update(&e, 7);
  write_seed(dir, "sliced-city2", &e);

  /* pseudo-random inputs (xorshift64, fixed seeds) */
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int k = 0; k < 6; k++) {
    memset(&e, 0, sizeof e);
    size_t n = 24 + 48 * (size_t)k;
    for (size_t i = 0; i < n; i++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      put(&e, (unsigned)(x >> 56));
    }
    char name[32];
    snprintf(name, sizeof name, "random-%d", k);
    write_seed(dir, name, &e);
  }
  return 0;
}
