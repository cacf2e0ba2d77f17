/*
** levels.c -- level generators (terrain, city, stairs, dungeon, hills) and the canonical
** triangle bytes. Implements spec/levels.md (LVL-010 .. LVL-060). Every binary64
** operation is written in the order the spec gives it; PRNG draws are one call per
** value in the spec's order (MATH-046).
*/
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "onepath_build3d.h"
#include "core/bytes.h"
#include "core/internal.h"

/* ------------------------------------------------------------ canonical bytes */

/* LVL-010 */
op_status op_soup_save(const op_soup *s, op_bytes *out, op_error *err) {
  op_status st = op_soup_validate(s, err);
  if (st != OP_OK) return st;
  size_t len = 16 + 24 * (size_t)s->nverts + 12 * (size_t)s->ntris;
  opc_buf b = {NULL, 0, 0, 0};
  if (opc_buf_reserve(&b, len)) return opc_nomem(err, "soup"); /* exact size: no put reallocates */
  opc_put(&b, "OPTS", 4); /* LVL-010: "OPTS", distinct from the tile magic "OPTL" */
  opc_put_u32(&b, 1);
  opc_put_u32(&b, s->nverts);
  opc_put_u32(&b, s->ntris);
  for (size_t i = 0; i < 3 * (size_t)s->nverts; i++) opc_put_f64(&b, s->verts[i]);
  for (size_t i = 0; i < 3 * (size_t)s->ntris; i++) opc_put_u32(&b, s->tris[i]);
  assert(!b.oom && b.len == len);
  out->data = b.p;
  out->len = b.len;
  return OP_OK;
}

/* LVL-011 */
op_status op_soup_load(const uint8_t *data, size_t len, op_trimesh *out, op_error *err) {
  if (len < 16) return op_fail_i(err, OP_E_FORMAT, "length", (long long)len, "shorter than the header");
  if (memcmp(data, "OPTS", 4) != 0) { /* LVL-011: the value is the four bytes read, in hex */
    static const char dig[] = "0123456789abcdef";
    char hex[9];
    for (int k = 0; k < 4; k++) {
      hex[2 * k] = dig[data[k] >> 4];
      hex[2 * k + 1] = dig[data[k] & 15];
    }
    hex[8] = '\0';
    return op_fail(err, OP_E_FORMAT, "magic", hex, "not OPTS (4f505453)");
  }
  uint32_t ver = opc_rd_u32(data + 4), nv = opc_rd_u32(data + 8), nt = opc_rd_u32(data + 12);
  if (ver != 1) return op_fail_i(err, OP_E_FORMAT, "version", ver, "version must be 1");
  if (nv > OP_SOUP_MAX_VERTS) return op_fail_i(err, OP_E_LIMIT, "verts", nv, "at most 2^24 vertices");
  if (nt > OP_SOUP_MAX_TRIS) return op_fail_i(err, OP_E_LIMIT, "tris", nt, "at most 2^24 triangles");
  if (len != 16 + 24 * (size_t)nv + 12 * (size_t)nt)
    return op_fail_i(err, OP_E_FORMAT, "length", (long long)len, "length must be 16 + 24 nverts + 12 ntris");
  op_trimesh m;
  memset(&m, 0, sizeof m);
  m.verts = malloc(24 * (size_t)nv + 1);
  m.tris = malloc(12 * (size_t)nt + 1);
  if (!m.verts || !m.tris) {
    op_trimesh_free(&m);
    return opc_nomem(err, "soup");
  }
  m.nverts = m.cap_verts = nv;
  m.ntris = m.cap_tris = nt;
  const uint8_t *q = data + 16;
  for (size_t i = 0; i < 3 * (size_t)nv; i++, q += 8) m.verts[i] = opc_rd_f64(q);
  for (size_t i = 0; i < 3 * (size_t)nt; i++, q += 4) m.tris[i] = opc_rd_u32(q);
  op_soup s = op_trimesh_soup(&m);
  op_status st = op_soup_validate(&s, err); /* SPAN-052 */
  if (st != OP_OK) {
    op_trimesh_free(&m);
    return st;
  }
  *out = m;
  return OP_OK;
}

/* ------------------------------------------------------------ building blocks */

typedef struct gen {
  op_trimesh m;
  int oom;
} gen;

static void add_vert(gen *g, double x, double y, double z) {
  op_trimesh *m = &g->m;
  if (g->oom) return;
  if (m->nverts == m->cap_verts) {
    uint32_t nc = m->cap_verts ? m->cap_verts * 2 : 256;
    double *nv = realloc(m->verts, 3 * (size_t)nc * sizeof *nv);
    if (!nv) { g->oom = 1; return; }
    m->verts = nv;
    m->cap_verts = nc;
  }
  double *v = &m->verts[3 * (size_t)m->nverts++];
  v[0] = x;
  v[1] = y;
  v[2] = z;
}

static void add_tri(gen *g, uint32_t a, uint32_t b, uint32_t c) {
  op_trimesh *m = &g->m;
  if (g->oom) return;
  if (m->ntris == m->cap_tris) {
    uint32_t nc = m->cap_tris ? m->cap_tris * 2 : 256;
    uint32_t *nt = realloc(m->tris, 3 * (size_t)nc * sizeof *nt);
    if (!nt) { g->oom = 1; return; }
    m->tris = nt;
    m->cap_tris = nc;
  }
  uint32_t *t = &m->tris[3 * (size_t)m->ntris++];
  t[0] = a;
  t[1] = b;
  t[2] = c;
}

typedef struct p3 {
  double x, y, z;
} p3;

static p3 P(double x, double y, double z) {
  p3 p = {x, y, z};
  return p;
}

/* LVL-020 */
static void quad(gen *g, p3 a, p3 b, p3 c, p3 d) {
  if (g->oom) return;
  uint32_t m = g->m.nverts;
  add_vert(g, a.x, a.y, a.z);
  add_vert(g, b.x, b.y, b.z);
  add_vert(g, c.x, c.y, c.z);
  add_vert(g, d.x, d.y, d.z);
  add_tri(g, m, m + 1, m + 2);
  add_tri(g, m, m + 2, m + 3);
}

/* LVL-021: the faces of a box. */
static void face_top(gen *g, double x0, double z0, double x1, double z1, double y) {
  quad(g, P(x0, y, z0), P(x0, y, z1), P(x1, y, z1), P(x1, y, z0));
}

static void face_bottom(gen *g, double x0, double z0, double x1, double z1, double y) {
  quad(g, P(x0, y, z0), P(x1, y, z0), P(x1, y, z1), P(x0, y, z1));
}

static void box5(gen *g, double x0, double y0, double z0, double x1, double y1, double z1) {
  face_top(g, x0, z0, x1, z1, y1);
  quad(g, P(x0, y0, z0), P(x0, y0, z1), P(x0, y1, z1), P(x0, y1, z0)); /* -x */
  quad(g, P(x1, y0, z0), P(x1, y1, z0), P(x1, y1, z1), P(x1, y0, z1)); /* +x */
  quad(g, P(x0, y0, z0), P(x0, y1, z0), P(x1, y1, z0), P(x1, y0, z0)); /* -z */
  quad(g, P(x0, y0, z1), P(x1, y0, z1), P(x1, y1, z1), P(x0, y1, z1)); /* +z */
}

static void box6(gen *g, double x0, double y0, double z0, double x1, double y1, double z1) {
  box5(g, x0, y0, z0, x1, y1, z1);
  face_bottom(g, x0, z0, x1, z1, y0);
}

/* ------------------------------------------------------------ terrain */

#define TWO_PI 0x1.921fb54442d18p+2
#define DEG 0x1.1df46a2529d39p-6

static op_status sincos_ok(double a, double *s, double *c, op_error *err) {
  return op_sincos(a, s, c, err);
}

/* LVL-030 .. LVL-032; `hills` (LVL-035) is the same with other wave ranges: wavelength
** lam0 + u2 * lam1, amplitude amp0 + u3 * amp1. */
static op_status gen_waves(gen *g, op_prng *r, uint32_t n, double lam0, double lam1,
                           double amp0, double amp1, op_error *err) {
  double fx[4], fz[4], amp[4], phase[4];
  for (int k = 0; k < 4; k++) { /* LVL-030 */
    double u1 = op_prng_unit(r);
    double u2 = op_prng_unit(r);
    double u3 = op_prng_unit(r);
    double u4 = op_prng_unit(r);
    double theta = u1 * TWO_PI;
    double lambda = lam0 + u2 * lam1;
    double f = TWO_PI / lambda;
    double s, c;
    op_status st = sincos_ok(theta, &s, &c, err);
    if (st != OP_OK) return st;
    fx[k] = f * c;
    fz[k] = f * s;
    amp[k] = amp0 + u3 * amp1;
    phase[k] = u4 * TWO_PI;
  }
  for (uint32_t j = 0; j <= n; j++) /* LVL-031 */
    for (uint32_t i = 0; i <= n; i++) {
      double x = (double)i, z = (double)j, y = 0;
      for (int k = 0; k < 4; k++) {
        double a = ((fx[k] * x) + (fz[k] * z)) + phase[k];
        double s, c;
        op_status st = sincos_ok(a, &s, &c, err);
        if (st != OP_OK) return st;
        y = y + amp[k] * s;
      }
      add_vert(g, x, y, z);
    }
  uint32_t w = n + 1;
  for (uint32_t j = 0; j < n; j++) /* LVL-032 */
    for (uint32_t i = 0; i < n; i++) {
      uint32_t a = j * w + i, b = j * w + i + 1, c = (j + 1) * w + i + 1, d = (j + 1) * w + i;
      add_tri(g, a, d, c);
      add_tri(g, a, c, b);
    }
  return OP_OK;
}

/* LVL-030 */
static op_status gen_terrain(gen *g, op_prng *r, uint32_t n, op_error *err) {
  return gen_waves(g, r, n, 8, 24, 0.25, 1.25, err);
}

/* LVL-035 */
static op_status gen_hills(gen *g, op_prng *r, uint32_t n, op_error *err) {
  return gen_waves(g, r, n, 10, 20, 1, 2, err);
}

/* ------------------------------------------------------------ city */

/* LVL-040 */
static op_status gen_city(gen *g, op_prng *r, uint32_t nb, op_error *err) {
  double E = 24.0 * nb + 8;
  int h[16][16];
  face_top(g, 0, 0, E, E, 0); /* step 1 */
  for (uint32_t bj = 0; bj < nb; bj++) /* step 2 */
    for (uint32_t bi = 0; bi < nb; bi++) {
      double X0 = 24.0 * bi + 8, Z0 = 24.0 * bj + 8;
      h[bj][bi] = 0;
      if (op_prng_below(r, 4) == 0) continue;
      int floors = 1 + (int)op_prng_below(r, 6);
      h[bj][bi] = 3 * floors;
      box5(g, X0 + 1, 0, Z0 + 1, X0 + 15, (double)h[bj][bi], Z0 + 15);
    }
  for (uint32_t bj = 0; bj < nb; bj++) /* step 3 */
    for (uint32_t bi = 0; bi < nb; bi++) {
      double X0 = 24.0 * bi + 8, Z0 = 24.0 * bj + 8;
      for (int dir = 0; dir < 2; dir++) {
        uint32_t ni = bi + (dir == 0), nj = bj + (dir == 1);
        if (ni >= nb || nj >= nb) continue;
        int ha = h[bj][bi], hb = h[nj][ni];
        if (ha == 0 || hb == 0) continue;
        if (op_prng_below(r, 3) != 0) continue;
        double top = (double)(ha < hb ? ha : hb);
        if (dir == 0) box6(g, X0 + 15, top - 0.5, Z0 + 6, X0 + 33, top, Z0 + 10);
        else box6(g, X0 + 6, top - 0.5, Z0 + 15, X0 + 10, top, Z0 + 33);
      }
    }
  (void)err;
  return OP_OK;
}

/* ------------------------------------------------------------ stairs */

/* LVL-050 */
static op_status gen_stairs(gen *g, uint32_t n, const op_settings *s, op_error *err) {
  op_cell_settings cs;
  op_status st = op_settings_derive(s, &cs, err);
  if (st != OP_OK) return st;
  double d = 8 * s->cell_size;
  double R = (double)n * d;
  double ch = s->cell_height;
  face_top(g, 0, 0, 42, R + 6, 0); /* step 1 */
  for (int lane = 0; lane < 2; lane++) { /* steps 2 and 3 */
    int64_t climb = cs.walkable_climb + lane;
    double x0 = 6.0 * lane + 1, x1 = 6.0 * lane + 5;
    for (uint32_t i = 0; i < n; i++) {
      double za = 2 + (double)i * d, zb = 2 + (double)(i + 1) * d;
      double yt = (double)((int64_t)(i + 1) * climb) * ch;
      box5(g, x0, 0, za, x1, yt, zb);
    }
  }
  for (int k = 2; k <= 4; k++) { /* step 4 */
    double alpha = k == 2 ? s->max_slope : k == 3 ? s->max_slope - 1 : s->max_slope + 1;
    double sn, c;
    st = sincos_ok(alpha * DEG, &sn, &c, err);
    if (st != OP_OK) return st;
    double rise = R * (sn / c);
    double x0 = 6.0 * k + 1, x1 = 6.0 * k + 5;
    quad(g, P(x0, 0, 2), P(x0, rise, 2 + R), P(x1, rise, 2 + R), P(x1, 0, 2));
  }
  for (int k = 5; k <= 6; k++) { /* step 5 */
    int64_t m = k == 5 ? cs.walkable_height : cs.walkable_height - 1;
    double yb = (double)m * ch;
    box6(g, 6.0 * k + 1, yb, 2, 6.0 * k + 5, yb + 0.5, 2 + R);
  }
  return OP_OK;
}

/* ------------------------------------------------------------ dungeon */

typedef struct room {
  uint32_t x, z, w, h;
} room;

static void carve_x(uint8_t *fl, uint32_t G, uint32_t xa, uint32_t xb, uint32_t z) {
  uint32_t lo = xa < xb ? xa : xb, hi = xa < xb ? xb : xa;
  for (uint32_t x = lo; x <= hi; x++) fl[z * G + x] = 1;
}

static void carve_z(uint8_t *fl, uint32_t G, uint32_t za, uint32_t zb, uint32_t x) {
  uint32_t lo = za < zb ? za : zb, hi = za < zb ? zb : za;
  for (uint32_t z = lo; z <= hi; z++) fl[z * G + x] = 1;
}

/* LVL-060 */
static op_status gen_dungeon(gen *g, op_prng *r, uint32_t G, op_error *err) {
  uint8_t *fl = calloc((size_t)G * G, 1);
  if (!fl) return opc_nomem(err, "size");
  room rooms[16];
  uint32_t nr = 0;
  for (uint32_t a = 0; a < G && nr < 16; a++) { /* step 1 */
    uint32_t w = 3 + (uint32_t)op_prng_below(r, 5);
    uint32_t h = 3 + (uint32_t)op_prng_below(r, 5);
    uint32_t x = 1 + (uint32_t)op_prng_below(r, G - w - 1);
    uint32_t z = 1 + (uint32_t)op_prng_below(r, G - h - 1);
    int free_ = 1;
    for (uint32_t zz = z - 1; zz <= z + h && free_; zz++)
      for (uint32_t xx = x - 1; xx <= x + w; xx++)
        if (fl[zz * G + xx]) { free_ = 0; break; }
    if (!free_) continue;
    for (uint32_t zz = z; zz < z + h; zz++)
      for (uint32_t xx = x; xx < x + w; xx++) fl[zz * G + xx] = 1;
    rooms[nr].x = x;
    rooms[nr].z = z;
    rooms[nr].w = w;
    rooms[nr].h = h;
    nr++;
  }
  for (uint32_t k = 1; k < nr; k++) { /* step 2 */
    uint32_t xa = rooms[k - 1].x + rooms[k - 1].w / 2, za = rooms[k - 1].z + rooms[k - 1].h / 2;
    uint32_t xb = rooms[k].x + rooms[k].w / 2, zb = rooms[k].z + rooms[k].h / 2;
    if (op_prng_below(r, 2) == 0) {
      carve_x(fl, G, xa, xb, za);
      carve_z(fl, G, za, zb, xb);
    } else {
      carve_z(fl, G, za, zb, xa);
      carve_x(fl, G, xa, xb, zb);
    }
  }
  for (uint32_t z = 0; z < G; z++) /* step 3: floors and ceilings */
    for (uint32_t x = 0; x < G; x++)
      if (fl[z * G + x]) {
        double x0 = 2.0 * x, z0 = 2.0 * z;
        face_top(g, x0, z0, x0 + 2, z0 + 2, 0);
        face_bottom(g, x0, z0, x0 + 2, z0 + 2, 3);
      }
  for (uint32_t z = 0; z < G; z++) /* step 3: wall pillars */
    for (uint32_t x = 0; x < G; x++) {
      if (fl[z * G + x]) continue;
      int near = 0;
      for (int dz = -1; dz <= 1 && !near; dz++)
        for (int dx = -1; dx <= 1; dx++) {
          int64_t xx = (int64_t)x + dx, zz = (int64_t)z + dz;
          if (xx < 0 || zz < 0 || xx >= G || zz >= G) continue;
          if (fl[zz * G + xx]) { near = 1; break; }
        }
      if (near) box5(g, 2.0 * x, 0, 2.0 * z, 2.0 * x + 2, 3, 2.0 * z + 2);
    }
  free(fl);
  return OP_OK;
}

/* ------------------------------------------------------------ entry point */

/* LVL-022 */
op_status op_level_generate(const char *name, uint64_t seed, uint32_t size,
                            const op_settings *settings, op_trimesh *out, op_error *err) {
  int kind = -1;
  static const char *names[5] = {"terrain", "city", "stairs", "dungeon", "hills"};
  static const uint32_t lo[5] = {1, 1, 1, 10, 1}, hi[5] = {1024, 16, 64, 128, 256}; /* LVL-030 .. LVL-060, LVL-035 */
  for (int i = 0; i < 5; i++)
    if (name && strcmp(name, names[i]) == 0) kind = i;
  if (kind < 0)
    return op_fail(err, OP_E_ARGUMENT, "name", name ? name : "",
                   "level name must be terrain, city, stairs, dungeon or hills");
  if (size < lo[kind] || size > hi[kind])
    return op_fail_i(err, OP_E_RANGE, "size", size, "size outside the generator's range");
  op_settings hum;
  if (kind == 2) {
    if (!settings) {
      op_settings_preset("Humanoid", &hum, NULL);
      settings = &hum;
    }
    op_status st = op_settings_validate(settings, err);
    if (st != OP_OK) return st;
    if (!(settings->cell_size <= 4))
      return op_fail_d(err, OP_E_RANGE, "cell_size", settings->cell_size,
                       "stairs needs cell_size <= 4");
    if (!(settings->cell_height <= 4))
      return op_fail_d(err, OP_E_RANGE, "cell_height", settings->cell_height,
                       "stairs needs cell_height <= 4");
    if (!(settings->max_slope >= 1 && settings->max_slope <= 80))
      return op_fail_d(err, OP_E_RANGE, "max_slope", settings->max_slope,
                       "stairs needs max_slope in [1, 80]");
  }
  gen g;
  memset(&g, 0, sizeof g);
  op_prng r;
  op_prng_seed(&r, seed);
  op_status st = OP_OK;
  switch (kind) {
  case 0: st = gen_terrain(&g, &r, size, err); break;
  case 1: st = gen_city(&g, &r, size, err); break;
  case 2: st = gen_stairs(&g, size, settings, err); break;
  case 3: st = gen_dungeon(&g, &r, size, err); break;
  default: st = gen_hills(&g, &r, size, err); break;
  }
  if (st == OP_OK && g.oom) st = opc_nomem(err, "size");
  if (st != OP_OK) {
    op_trimesh_free(&g.m);
    return st;
  }
  *out = g.m;
  return OP_OK;
}
