/*
** test_levels.c -- the level generators and the canonical triangle bytes
** (spec/levels.md): byte layout by hand, terrain recomputed independently from the
** spec's formulas, counts derived from the spec's rules (replaying the PRNG draws),
** winding of every floor, bounds, outward box faces, dungeon connectivity, determinism
** across two runs, and the errors of Levels.Generate.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onepath_build3d.h"
#include "optest.h"

#define DEG 0x1.1df46a2529d39p-6
#define TWO_PI 0x1.921fb54442d18p+2
#define PI_ 3.14159265358979323846

/* SPAN-053: y component of (v1 - v0) x (v2 - v0). */
static double tri_ny(const op_trimesh *m, uint32_t t) {
  const double *a = &m->verts[3 * m->tris[3 * t]], *b = &m->verts[3 * m->tris[3 * t + 1]],
               *c = &m->verts[3 * m->tris[3 * t + 2]];
  return (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]);
}

static void tri_normal(const op_trimesh *m, uint32_t t, double n[3]) {
  const double *a = &m->verts[3 * m->tris[3 * t]], *b = &m->verts[3 * m->tris[3 * t + 1]],
               *c = &m->verts[3 * m->tris[3 * t + 2]];
  double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  double e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
}

static int gen(const char *name, uint64_t seed, uint32_t size, const op_settings *s,
               op_trimesh *m) {
  op_error e;
  memset(m, 0, sizeof *m);
  op_status st = op_level_generate(name, seed, size, s, m, &e);
  if (st != OP_OK) fprintf(stderr, "  generate %s: %s %s\n", name, e.field, e.message);
  return st == OP_OK;
}

/* LVL-010: the byte layout, by hand. */
OPT_TEST(soup_bytes, "LVL-010") {
  double v[6] = {1.0, -0.0, 2.5, 0, 0, 0};
  uint32_t t[3] = {1, 0, 1};
  op_soup s = {2, v, 1, t};
  op_bytes b = {NULL, 0};
  op_error e;
  OPT_CHECK(op_soup_save(&s, &b, &e) == OP_OK);
  OPT_CHECK(b.len == 16 + 48 + 12);
  static const uint8_t head[16] = {'O', 'P', 'T', 'S', 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0};
  OPT_CHECK(b.data && memcmp(b.data, head, 16) == 0);
  /* 1.0 = 0x3ff0000000000000, -0.0 = 0x8000000000000000, 2.5 = 0x4004000000000000 */
  static const uint8_t v0[24] = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x80,
                                 0, 0, 0, 0, 0, 0, 0x04, 0x40};
  OPT_CHECK(b.data && memcmp(b.data + 16, v0, 24) == 0);
  static const uint8_t tr[12] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
  OPT_CHECK(b.data && memcmp(b.data + 64, tr, 12) == 0);
  op_bytes_free(&b);
  t[2] = 2;
  OPT_CHECK(op_soup_save(&s, &b, &e) == OP_E_RANGE && b.data == NULL);
}

/* LVL-030 .. LVL-032: recomputed here from the spec's steps. */
OPT_TEST(terrain_formula, "LVL-031") {
  enum { N = 6 };
  op_trimesh m;
  OPT_CHECK(gen("terrain", 0x1234, N, NULL, &m));
  OPT_CHECK(m.nverts == (N + 1) * (N + 1) && m.ntris == 2 * N * N);
  op_prng r;
  op_prng_seed(&r, 0x1234);
  double fx[4], fz[4], amp[4], ph[4];
  for (int k = 0; k < 4; k++) {
    double u[4];
    for (int q = 0; q < 4; q++) u[q] = op_prng_unit(&r);
    double s, c, f = TWO_PI / (8 + u[1] * 24);
    op_sincos(u[0] * TWO_PI, &s, &c, NULL);
    fx[k] = f * c;
    fz[k] = f * s;
    amp[k] = 0.25 + u[2] * 1.25;
    ph[k] = u[3] * TWO_PI;
  }
  int same = 1;
  for (int j = 0; j <= N; j++)
    for (int i = 0; i <= N; i++) {
      double y = 0;
      for (int k = 0; k < 4; k++) {
        double s, c;
        op_sincos(fx[k] * i + fz[k] * j + ph[k], &s, &c, NULL);
        y += amp[k] * s;
      }
      const double *v = &m.verts[3 * (j * (N + 1) + i)];
      same &= v[0] == i && v[2] == j && v[1] == y;
      same &= fabs(y) <= 6; /* four amplitudes of at most 1.5 */
    }
  OPT_CHECK(same);
  int up = 1;
  for (uint32_t t = 0; t < m.ntris; t++) up &= tri_ny(&m, t) == 1; /* LVL-032 */
  OPT_CHECK(up);
  OPT_CHECK(m.tris[0] == 0 && m.tris[1] == N + 1 && m.tris[2] == N + 2); /* (a, d, c) */
  OPT_CHECK(m.tris[3] == 0 && m.tris[4] == N + 2 && m.tris[5] == 1);     /* (a, c, b) */
  op_trimesh_free(&m);
}

/* LVL-035: hills is terrain with wavelength 10 + u2 * 20 and amplitude 1 + u3 * 2, the same
** draws in the same order: recomputed from the spec's formulas. */
OPT_TEST(hills_formula, "LVL-035") {
  enum { N = 6 };
  op_trimesh m;
  OPT_CHECK(gen("hills", 0x1234, N, NULL, &m));
  OPT_CHECK(m.nverts == (N + 1) * (N + 1) && m.ntris == 2 * N * N);
  op_prng r;
  op_prng_seed(&r, 0x1234);
  double fx[4], fz[4], amp[4], ph[4];
  for (int k = 0; k < 4; k++) {
    double u[4];
    for (int q = 0; q < 4; q++) u[q] = op_prng_unit(&r);
    double s, c, f = TWO_PI / (10 + u[1] * 20);
    op_sincos(u[0] * TWO_PI, &s, &c, NULL);
    fx[k] = f * c;
    fz[k] = f * s;
    amp[k] = 1 + u[2] * 2;
    ph[k] = u[3] * TWO_PI;
  }
  int same = 1;
  for (int j = 0; j <= N; j++)
    for (int i = 0; i <= N; i++) {
      double y = 0;
      for (int k = 0; k < 4; k++) {
        double s, c;
        op_sincos(fx[k] * i + fz[k] * j + ph[k], &s, &c, NULL);
        y += amp[k] * s;
      }
      const double *v = &m.verts[3 * (j * (N + 1) + i)];
      same &= v[0] == i && v[2] == j && v[1] == y;
      same &= fabs(y) <= 12; /* four amplitudes of at most 3 */
    }
  OPT_CHECK(same);
  int up = 1;
  for (uint32_t t = 0; t < m.ntris; t++) up &= tri_ny(&m, t) == 1; /* LVL-032 */
  OPT_CHECK(up);
  op_trimesh t;
  OPT_CHECK(gen("terrain", 0x1234, N, NULL, &t));
  OPT_CHECK(t.nverts == m.nverts && memcmp(t.tris, m.tris, 3 * sizeof *t.tris * t.ntris) == 0);
  op_trimesh_free(&t);
  op_trimesh_free(&m);
}

/* Every triangle of a Box5/Box6 faces away from the box: check it on the stairs level,
** whose boxes are known. Here: all normals of a city point away from the centre of the
** box their quad belongs to (quads come in vertex groups of 4, boxes after the ground). */
static int boxes_outward(const op_trimesh *m, uint32_t first_vert, uint32_t nfaces_per_box,
                         uint32_t nboxes) {
  int ok = 1;
  for (uint32_t b = 0; b < nboxes; b++) {
    uint32_t v0 = first_vert + b * 4 * nfaces_per_box;
    double mn[3] = {1e30, 1e30, 1e30}, mx[3] = {-1e30, -1e30, -1e30};
    for (uint32_t i = v0; i < v0 + 4 * nfaces_per_box; i++)
      for (int k = 0; k < 3; k++) {
        if (m->verts[3 * i + k] < mn[k]) mn[k] = m->verts[3 * i + k];
        if (m->verts[3 * i + k] > mx[k]) mx[k] = m->verts[3 * i + k];
      }
    double ctr[3] = {(mn[0] + mx[0]) / 2, (mn[1] + mx[1]) / 2, (mn[2] + mx[2]) / 2};
    for (uint32_t t = 0; t < m->ntris; t++) {
      if (m->tris[3 * t] < v0 || m->tris[3 * t] >= v0 + 4 * nfaces_per_box) continue;
      double n[3];
      tri_normal(m, t, n);
      const double *a = &m->verts[3 * m->tris[3 * t]];
      double d = n[0] * (a[0] - ctr[0]) + n[1] * (a[1] - ctr[1]) + n[2] * (a[2] - ctr[2]);
      ok &= d > 0;
    }
  }
  return ok;
}

/* LVL-040: counts from the spec's draws, replayed; bounds; floors up. */
OPT_TEST(city_counts, "LVL-040") {
  for (uint32_t B = 1; B <= 4; B++) {
    op_trimesh m;
    OPT_CHECK(gen("city", 77 + B, B, NULL, &m));
    op_prng r;
    op_prng_seed(&r, 77 + B);
    int h[4][4], buildings = 0, decks = 0;
    for (uint32_t j = 0; j < B; j++)
      for (uint32_t i = 0; i < B; i++) {
        h[j][i] = 0;
        if (op_prng_below(&r, 4) == 0) continue;
        h[j][i] = 3 * (1 + (int)op_prng_below(&r, 6));
        buildings++;
      }
    for (uint32_t j = 0; j < B; j++)
      for (uint32_t i = 0; i < B; i++) {
        if (i + 1 < B && h[j][i] && h[j][i + 1] && op_prng_below(&r, 3) == 0) decks++;
        if (j + 1 < B && h[j][i] && h[j + 1][i] && op_prng_below(&r, 3) == 0) decks++;
      }
    OPT_CHECK(m.ntris == (uint32_t)(2 + 10 * buildings + 12 * decks));
    OPT_CHECK(m.nverts == (uint32_t)(4 + 20 * buildings + 24 * decks));
    double E = 24.0 * B + 8;
    int inb = 1;
    for (uint32_t i = 0; i < m.nverts; i++)
      inb &= m.verts[3 * i] >= 0 && m.verts[3 * i] <= E && m.verts[3 * i + 1] >= 0 &&
             m.verts[3 * i + 1] <= 18 && m.verts[3 * i + 2] >= 0 && m.verts[3 * i + 2] <= E;
    OPT_CHECK(inb);
    OPT_CHECK(tri_ny(&m, 0) > 0 && tri_ny(&m, 1) > 0); /* the ground */
    OPT_CHECK(boxes_outward(&m, 4, 5, (uint32_t)buildings));
    OPT_CHECK(boxes_outward(&m, 4 + 20 * (uint32_t)buildings, 6, (uint32_t)decks));
    op_trimesh_free(&m);
  }
  /* a seed with a deck somewhere among 4 x 4 blocks: several layers (deck over street) */
  int found = 0;
  for (uint64_t seed = 1; seed < 20 && !found; seed++) {
    op_trimesh m;
    if (!gen("city", seed, 4, NULL, &m)) break;
    found = m.ntris > 2 && (m.ntris - 2) % 10 != 0; /* 12 * decks breaks the multiple of 10 */
    op_trimesh_free(&m);
  }
  OPT_CHECK(found);
}

/* LVL-050: the stairs level at the Humanoid preset, values from the spec's formulas. */
OPT_TEST(stairs_limits, "LVL-050") {
  enum { n = 3 };
  op_settings s;
  op_settings_preset("Humanoid", &s, NULL);
  op_trimesh m;
  OPT_CHECK(gen("stairs", 0, n, &s, &m));
  OPT_CHECK(m.ntris == 32 + 20 * n && m.nverts == 64 + 40 * n);
  /* lane 0 step i: a Box5 starting at vertex 4 + 20 i; its top face is first, y = 9 (i+1) 0.1 */
  double d = 8 * 0.3;
  int ok = 1;
  for (int i = 0; i < n; i++) {
    const double *top = &m.verts[3 * (4 + 20 * i)];
    ok &= top[1] == (double)(9 * (i + 1)) * 0.1;
    ok &= top[0] == 1 && top[2] == 2 + (double)i * d;
    const double *top1 = &m.verts[3 * (4 + 20 * n + 20 * i)]; /* lane 1: 10 cells a step */
    ok &= top1[1] == (double)(10 * (i + 1)) * 0.1 && top1[0] == 7;
  }
  OPT_CHECK(ok);
  OPT_CHECK(boxes_outward(&m, 4, 5, 2 * n));
  /* lanes 2..4: rises R tan(45), R tan(44), R tan(46) from SinCos */
  double R = n * d;
  static const double ang[3] = {45, 44, 46};
  for (int k = 0; k < 3; k++) {
    const double *q = &m.verts[3 * (4 + 40 * n + 4 * k)];
    double sn, c;
    op_sincos(ang[k] * DEG, &sn, &c, NULL);
    OPT_CHECK(q[3 + 1] == R * (sn / c));
    OPT_CHECK(fabs(q[3 + 1] - R * tan(ang[k] * PI_ / 180)) < 1e-12 * R);
    OPT_CHECK(q[0] == 6 * (k + 2) + 1);
  }
  /* the ramp's slope: the real angle of its normal is the lane's angle */
  for (int k = 0; k < 3; k++) {
    double nn[3];
    tri_normal(&m, 2 + 20 * n + 2 * k, nn);
    double cosang = nn[1] / sqrt(nn[0] * nn[0] + nn[1] * nn[1] + nn[2] * nn[2]);
    OPT_CHECK(fabs(cosang - cos(ang[k] * PI_ / 180)) < 1e-12);
  }
  /* lanes 5, 6: slabs at 20 and 19 cell heights */
  const double *s5 = &m.verts[3 * (4 + 40 * n + 12)];
  const double *s6 = &m.verts[3 * (4 + 40 * n + 12 + 24)];
  OPT_CHECK(s5[1] == 20 * 0.1 + 0.5 && s6[1] == (double)19 * 0.1 + 0.5); /* top face first */
  OPT_CHECK(boxes_outward(&m, 4 + 40 * n + 12, 6, 2));
  op_trimesh_free(&m);
  /* NULL settings mean Humanoid */
  op_trimesh m2;
  OPT_CHECK(gen("stairs", 5, n, NULL, &m2));
  OPT_CHECK(gen("stairs", 0, n, &s, &m));
  OPT_CHECK(m.nverts == m2.nverts && memcmp(m.verts, m2.verts, 24 * m.nverts) == 0);
  op_trimesh_free(&m);
  op_trimesh_free(&m2);
}

/* LVL-060: counts, winding, and every floor cell reachable from every other. */
OPT_TEST(dungeon_shape, "LVL-060") {
  for (uint64_t seed = 1; seed <= 3; seed++) {
    enum { G = 24 };
    op_trimesh m;
    OPT_CHECK(gen("dungeon", seed, G, NULL, &m));
    uint8_t cell[G][G];
    memset(cell, 0, sizeof cell);
    uint32_t floors = 0, ceilings = 0, wall_tops = 0;
    for (uint32_t t = 0; t < m.ntris; t++) {
      const double *a = &m.verts[3 * m.tris[3 * t]];
      double ny = tri_ny(&m, t);
      int flat0 = 1, flat3 = 1;
      for (int k = 0; k < 3; k++) {
        double y = m.verts[3 * m.tris[3 * t + k] + 1];
        flat0 &= y == 0;
        flat3 &= y == 3;
      }
      if (flat0 && ny > 0) {
        floors++;
        cell[(int)(a[2] / 2)][(int)(a[0] / 2)] = 1;
      }
      if (flat3 && ny < 0) ceilings++;
      if (flat3 && ny > 0) wall_tops++;
    }
    OPT_CHECK(floors == ceilings && floors % 2 == 0 && wall_tops % 2 == 0);
    uint32_t F = floors / 2, W = wall_tops / 2;
    OPT_CHECK(F > 0);
    OPT_CHECK(m.ntris == 4 * F + 10 * W && m.nverts == 8 * F + 20 * W);
    /* connectivity by flood fill over 4-neighbours */
    int stack[G * G][2], sp = 0, seen = 0, total = 0;
    uint8_t vis[G][G];
    memset(vis, 0, sizeof vis);
    for (int z = 0; z < G; z++)
      for (int x = 0; x < G; x++) {
        total += cell[z][x];
        if (cell[z][x] && sp == 0 && seen == 0) {
          stack[sp][0] = x;
          stack[sp][1] = z;
          sp++;
          vis[z][x] = 1;
          seen = 1;
        }
      }
    while (sp > 0) {
      sp--;
      int x = stack[sp][0], z = stack[sp][1];
      static const int dx[4] = {-1, 0, 1, 0}, dz[4] = {0, 1, 0, -1};
      for (int k = 0; k < 4; k++) {
        int xx = x + dx[k], zz = z + dz[k];
        if (xx < 0 || zz < 0 || xx >= G || zz >= G || !cell[zz][xx] || vis[zz][xx]) continue;
        vis[zz][xx] = 1;
        seen++;
        stack[sp][0] = xx;
        stack[sp][1] = zz;
        sp++;
      }
    }
    OPT_CHECK(seen == total && (uint32_t)total == F);
    /* no floor cell touches the grid's edge (LVL-060: rooms keep a ring of rock) */
    int edge = 0;
    for (int i = 0; i < G; i++) edge |= cell[0][i] | cell[G - 1][i] | cell[i][0] | cell[i][G - 1];
    OPT_CHECK(!edge);
    op_trimesh_free(&m);
  }
}

/* LVL-022: determinism across runs, different seeds differ; errors. */
OPT_TEST(generate_contract, "LVL-022") {
  static const char *names[5] = {"terrain", "city", "stairs", "dungeon", "hills"};
  static const uint32_t sizes[5] = {8, 3, 4, 16, 8};
  for (int i = 0; i < 5; i++) {
    op_trimesh a, b, c;
    OPT_CHECK(gen(names[i], 99, sizes[i], NULL, &a));
    OPT_CHECK(gen(names[i], 99, sizes[i], NULL, &b));
    OPT_CHECK(gen(names[i], 100, sizes[i], NULL, &c));
    op_soup sa = op_trimesh_soup(&a), sb = op_trimesh_soup(&b), sc = op_trimesh_soup(&c);
    op_bytes ba = {0}, bb = {0}, bc = {0};
    op_error e;
    OPT_CHECK(op_soup_save(&sa, &ba, &e) == OP_OK && op_soup_save(&sb, &bb, &e) == OP_OK &&
              op_soup_save(&sc, &bc, &e) == OP_OK);
    OPT_CHECK(ba.len == bb.len && memcmp(ba.data, bb.data, ba.len) == 0);
    if (i != 2) /* stairs ignores the seed */
      OPT_CHECK(ba.len != bc.len || memcmp(ba.data, bc.data, ba.len) != 0);
    else
      OPT_CHECK(ba.len == bc.len && memcmp(ba.data, bc.data, ba.len) == 0);
    OPT_CHECK(op_soup_validate(&sa, &e) == OP_OK);
    op_bytes_free(&ba);
    op_bytes_free(&bb);
    op_bytes_free(&bc);
    op_trimesh_free(&a);
    op_trimesh_free(&b);
    op_trimesh_free(&c);
  }
  op_trimesh m;
  op_error e;
  memset(&m, 0x5a, sizeof m);
  OPT_CHECK(op_level_generate("maze", 1, 4, NULL, &m, &e) == OP_E_ARGUMENT &&
            strcmp(e.field, "name") == 0 && strcmp(e.value, "maze") == 0);
  OPT_CHECK(op_level_generate("terrain", 1, 0, NULL, &m, &e) == OP_E_RANGE &&
            strcmp(e.field, "size") == 0 && strcmp(e.value, "0") == 0);
  OPT_CHECK(op_level_generate("terrain", 1, 1025, NULL, &m, &e) == OP_E_RANGE); /* LVL-030 */
  OPT_CHECK(op_level_generate("city", 1, 17, NULL, &m, &e) == OP_E_RANGE);
  OPT_CHECK(op_level_generate("stairs", 1, 65, NULL, &m, &e) == OP_E_RANGE);
  OPT_CHECK(op_level_generate("dungeon", 1, 9, NULL, &m, &e) == OP_E_RANGE);
  OPT_CHECK(op_level_generate("dungeon", 1, 129, NULL, &m, &e) == OP_E_RANGE);
  OPT_CHECK(op_level_generate("hills", 1, 0, NULL, &m, &e) == OP_E_RANGE);
  OPT_CHECK(op_level_generate("hills", 1, 257, NULL, &m, &e) == OP_E_RANGE &&
            strcmp(e.field, "size") == 0 && strcmp(e.value, "257") == 0);
  op_settings s;
  op_settings_preset("Large", &s, NULL);
  s.max_slope = 85;
  OPT_CHECK(op_level_generate("stairs", 1, 4, &s, &m, &e) == OP_E_RANGE &&
            strcmp(e.field, "max_slope") == 0 && strcmp(e.value, "85") == 0);
  s.max_slope = 40;
  s.cell_size = 5;
  OPT_CHECK(op_level_generate("stairs", 1, 4, &s, &m, &e) == OP_E_RANGE &&
            strcmp(e.field, "cell_size") == 0);
  s.cell_size = NAN;
  OPT_CHECK(op_level_generate("stairs", 1, 4, &s, &m, &e) == OP_E_RANGE &&
            strcmp(e.field, "cell_size") == 0 && strcmp(e.value, "NaN") == 0);
  OPT_CHECK(((unsigned char *)&m)[0] == 0x5a); /* failed calls left *out alone */
  /* the Large preset generates (4.2-unit slabs, 4-cell steps of 1.2) */
  op_settings_preset("Large", &s, NULL);
  OPT_CHECK(gen("stairs", 1, 2, &s, &m));
  OPT_CHECK(m.verts[3 * 4 + 1] == 4 * 0.3);
  op_trimesh_free(&m);
}

/* SPAN-053: floors point up (Ny > 0), walls have Ny = 0, ceilings Ny < 0, in every
** generator; the OBJ reader keeps the winding as written. */
OPT_TEST(winding_rule, "SPAN-053") {
  static const char *names[4] = {"terrain", "city", "stairs", "dungeon"};
  static const uint32_t sizes[4] = {5, 3, 2, 14};
  for (int g = 0; g < 4; g++) {
    op_trimesh m;
    OPT_CHECK(gen(names[g], 3, sizes[g], NULL, &m));
    int ok = 1;
    for (uint32_t t = 0; t < m.ntris; t++) {
      double n[3];
      tri_normal(&m, t, n);
      double ny = tri_ny(&m, t);
      ok &= ny == n[1]; /* the SPAN-053 formula is the y of the cross product */
    }
    OPT_CHECK(ok);
    /* the first two triangles are a ground/terrain floor, pointing up */
    OPT_CHECK(tri_ny(&m, 0) > 0 && tri_ny(&m, 1) > 0);
    op_trimesh_free(&m);
  }
  op_trimesh a, b;
  op_error e;
  const char *up = "v 0 0 0\nv 0 0 1\nv 1 0 0\nf 1 2 3\n", *dn = "v 0 0 0\nv 0 0 1\nv 1 0 0\nf 1 3 2\n";
  OPT_CHECK(op_obj_parse(up, strlen(up), &a, &e) == OP_OK && op_obj_parse(dn, strlen(dn), &b, &e) == OP_OK);
  OPT_CHECK(tri_ny(&a, 0) == 1 && tri_ny(&b, 0) == -1);
  op_trimesh_free(&a);
  op_trimesh_free(&b);
}

/* SPAN-054: triangle order is the input's: OBJ faces in file order, generator triangles
** in the order of their steps (the ground of the city first, then its buildings). */
OPT_TEST(triangle_order, "SPAN-054") {
  op_trimesh m;
  op_error e;
  const char *t = "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 1 0 1\nf 4 3 2\nf 1 3 2\nf 2 3 4 1\n";
  OPT_CHECK(op_obj_parse(t, strlen(t), &m, &e) == OP_OK && m.ntris == 4);
  OPT_CHECK(m.tris[0] == 3 && m.tris[3] == 0 && m.tris[6] == 1 && m.tris[9] == 1);
  OPT_CHECK(m.tris[11] == 0);
  op_trimesh_free(&m);
  OPT_CHECK(gen("city", 8, 2, NULL, &m));
  OPT_CHECK(m.verts[1] == 0 && m.verts[3 * 2] > 50); /* ground quad: (0,0,0), (0,0,E), (E,0,E) */
  op_trimesh_free(&m);
}

/* LVL-011: reading the bytes back, every layout error in order, then SPAN-052. */
OPT_TEST(soup_load, "LVL-011") {
  op_trimesh g, m;
  op_error e;
  OPT_CHECK(gen("dungeon", 4, 12, NULL, &g));
  op_soup s = op_trimesh_soup(&g);
  op_bytes b = {NULL, 0};
  OPT_CHECK(op_soup_save(&s, &b, &e) == OP_OK);
  OPT_CHECK(op_soup_load(b.data, b.len, &m, &e) == OP_OK);
  OPT_CHECK(m.nverts == g.nverts && m.ntris == g.ntris);
  OPT_CHECK(memcmp(m.verts, g.verts, 24 * (size_t)g.nverts) == 0);
  OPT_CHECK(memcmp(m.tris, g.tris, 12 * (size_t)g.ntris) == 0);
  op_trimesh_free(&m);
  memset(&m, 0x5a, sizeof m);
  OPT_CHECK(op_soup_load(b.data, 15, &m, &e) == OP_E_FORMAT && strcmp(e.field, "length") == 0 &&
            strcmp(e.value, "15") == 0);
  OPT_CHECK(op_soup_load(b.data, b.len - 1, &m, &e) == OP_E_FORMAT && strcmp(e.field, "length") == 0);
  b.data[3] = 'M';
  OPT_CHECK(op_soup_load(b.data, b.len, &m, &e) == OP_E_FORMAT && strcmp(e.field, "magic") == 0);
  b.data[3] = 'S';
  b.data[4] = 2;
  OPT_CHECK(op_soup_load(b.data, b.len, &m, &e) == OP_E_FORMAT && strcmp(e.field, "version") == 0);
  b.data[4] = 1;
  b.data[11] = 0x01; /* nverts + 2^24 */
  OPT_CHECK(op_soup_load(b.data, b.len, &m, &e) == OP_E_LIMIT && strcmp(e.field, "verts") == 0);
  b.data[11] = 0;
  /* the first triangle's second index -> nverts: out of range */
  size_t off = 16 + 24 * (size_t)g.nverts + 4;
  uint32_t nv = g.nverts;
  memcpy(b.data + off, &nv, 4); /* little-endian host */
  OPT_CHECK(op_soup_load(b.data, b.len, &m, &e) == OP_E_RANGE && strcmp(e.field, "tris[0][1]") == 0);
  OPT_CHECK(((unsigned char *)&m)[0] == 0x5a);
  op_bytes_free(&b);
  op_trimesh_free(&g);
}

OPT_MAIN_BEGIN
OPT_RUN(soup_bytes);
OPT_RUN(soup_load);
OPT_RUN(terrain_formula);
OPT_RUN(hills_formula);
OPT_RUN(city_counts);
OPT_RUN(stairs_limits);
OPT_RUN(dungeon_shape);
OPT_RUN(generate_contract);
OPT_RUN(winding_rule);
OPT_RUN(triangle_order);
OPT_MAIN_END
