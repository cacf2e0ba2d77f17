/*
** test_detail.c -- the detail mesh (build3d-polys.md section 4) and NavTileAssembler
** (section 5.1). Hand-made polygon meshes and heightfields with the expected values
** derived in the comments from the clauses; on the generated levels, every property of
** POLY-256 checked against an independent reading of section 4 (heights from the spans,
** edge samples, interior candidates and the hull's Delaunay triangulation recomputed
** here; only the exact in-circle sign of the 2D builder is shared).
*/
#include <math.h>
#include <stdlib.h>

#include "build3d/polys/assembly.h"
#include "build2d/geometry/g2d.h"
#include "core/internal.h"
#include "optest.h"
#include "onepath_pipeline.h"
#include "build3d/regions/regions.h"

static op_settings no_sampling(void) {
  op_settings s;
  op_error e;
  op_settings_preset("Humanoid", &s, &e);
  s.detail_sample_distance = 0;
  return s;
}

/* A hand-made tile: TileSize 8, Border 2 (grid 12 x 12), one square polygon over the whole
** tile with rows 5, 7, 5, 6 at its corners, portal codes on all four sides. */
typedef struct hand {
  op_hf_grid grid;
  op_tiling tiling;
  op_pmesh pm;
  int32_t verts[3 * 4];
  uint16_t polys[6], neis[6], regs[1], flags[1];
  uint8_t areas[1];
} hand;

static void hand_init(hand *h, double cs, double ch) {
  op_error e;
  memset(h, 0, sizeof *h);
  h->grid.origin[0] = 10;
  h->grid.origin[1] = 3;
  h->grid.origin[2] = -4;
  h->grid.cs = cs;
  h->grid.ch = ch;
  h->grid.gx0 = -2;
  h->grid.gz0 = -2;
  h->grid.width = 12;
  h->grid.depth = 12;
  h->grid.height = 100;
  h->tiling.origin[0] = 10;
  h->tiling.origin[1] = 3;
  h->tiling.origin[2] = -4;
  h->tiling.cell_size = cs;
  h->tiling.cell_height = ch;
  h->tiling.tile_cells = 8;
  h->tiling.max_verts_per_poly = 6;
  op_tilemap_init(&h->pm.map, &h->grid, 2, &e);
  static const int32_t v[12] = {0, 5, 0, 8, 7, 0, 8, 5, 8, 0, 6, 8};
  memcpy(h->verts, v, sizeof v);
  static const uint16_t p[6] = {0, 1, 2, 3, OP_PMESH_NULL, OP_PMESH_NULL};
  static const uint16_t n[6] = {0x8003, 0x8002, 0x8001, 0x8000, 0, 0};
  memcpy(h->polys, p, sizeof p);
  memcpy(h->neis, n, sizeof n);
  h->regs[0] = 1;
  h->areas[0] = 63;
  h->flags[0] = 0; /* POLY-076: the polygon stage leaves flags 0 */
  h->pm.nvp = 6;
  h->pm.nverts = 4;
  h->pm.verts = h->verts;
  h->pm.npolys = 1;
  h->pm.polys = h->polys;
  h->pm.neis = h->neis;
  h->pm.regs = h->regs;
  h->pm.areas = h->areas;
  h->pm.flags = h->flags;
}

OPT_TEST(no_detail_mesh, "POLY-201") {
  hand h;
  hand_init(&h, 0.5, 0.25);
  op_settings s = no_sampling();
  op_detail_mesh d;
  memset(&d, 0xff, sizeof d);
  op_error e;
  OPT_CHECK(op_detail_build(&s, &h.pm, NULL, &d, &e) == OP_OK);
  OPT_CHECK(d.ndetail == 0 && d.nverts == 0 && d.ntris == 0 && !d.detail && !d.verts && !d.tris);
  s.detail_sample_distance = 0.9; /* SPAN-025: at or below 0.9 cells, no sampling */
  memset(&d, 0xff, sizeof d);
  OPT_CHECK(op_detail_build(&s, &h.pm, NULL, &d, &e) == OP_OK && d.ndetail == 0);
  s.detail_sample_distance = 6; /* sampling reads the heightfield: none given */
  memset(&d, 0x5a, sizeof d);
  OPT_CHECK(op_detail_build(&s, &h.pm, NULL, &d, &e) == OP_E_ARGUMENT);
  OPT_CHECK(d.ndetail == 0x5a5a5a5au); /* a failed call changes nothing */
}

/* Dyadic sizes: every value exact. ymin = 5, Y = 1.25, origin_y = 3 + 1.25 = 4.25; local y
** = (row - 5) * 0.25: 0, 0.5, 0, 0.25; x, z = cells * 0.5: 0 or 4 (= fW = 8 * 0.5). */
/* (POLY-216: the tile's flags are 1 whatever the polygon mesh holds.) */
OPT_TEST(assemble_exact, "POLY-212") {
  hand h;
  hand_init(&h, 0.5, 0.25);
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 3, -1, 0, &h.tiling, 3.0, &t, &e) == OP_OK);
  OPT_CHECK(t != NULL);
  if (!t) return;
  op_tile_desc v;
  op_tile_view(t, &v);
  OPT_CHECK(v.x == 3 && v.z == -1 && v.layer == 0 && v.origin_y == 4.25);
  static const float want[12] = {0, 0, 0, 4, 0.5f, 0, 4, 0, 4, 0, 0.25f, 4};
  OPT_CHECK(v.nverts == 4 && memcmp(v.verts, want, sizeof want) == 0);
  OPT_CHECK(v.npolys == 1 && v.polys[0].nverts == 4 && v.polys[0].area == 63 &&
            v.polys[0].flags == 1);
  OPT_CHECK(v.polys[0].neis[0] == 0x8003 && v.polys[0].neis[1] == 0x8002 &&
            v.polys[0].neis[2] == 0x8001 && v.polys[0].neis[3] == 0x8000);
  OPT_CHECK(v.ndetail == 0 && v.noffmesh == 0);
  /* the same tile written by hand through NavTile.Create has the same content id */
  op_tile_desc d;
  memset(&d, 0, sizeof d);
  d.x = 3;
  d.z = -1;
  d.tiling = h.tiling;
  d.origin_y = 4.25;
  d.nverts = 4;
  d.verts = want;
  op_poly_desc p;
  memset(&p, 0, sizeof p);
  p.nverts = 4;
  p.area = 63;
  p.flags = 1;
  for (int j = 0; j < 4; j++) p.verts[j] = (uint16_t)j;
  p.neis[0] = 0x8003;
  p.neis[1] = 0x8002;
  p.neis[2] = 0x8001;
  p.neis[3] = 0x8000;
  d.npolys = 1;
  d.polys = &p;
  op_tile *t2 = NULL;
  OPT_CHECK(op_tile_create(&d, &t2, &e) == OP_OK);
  OPT_CHECK(t2 && op_tile_content_id(t2) == op_tile_content_id(t));
  op_tile_free(t2);
  op_tile_free(t);
}

/* Non-dyadic sizes: the roundings of POLY-212 and POLY-213 written out. cs = 0.3,
** ch = 0.2: Y = fl(5 * 0.2); local y of row 7 = f32(fl(-Y + fl(7 * 0.2))); x of 8 cells =
** f32(fl(8 * 0.3)) which is fW itself (FMT-008). */
OPT_TEST(assemble_roundings, "POLY-213") {
  hand h;
  hand_init(&h, 0.3, 0.2);
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 3.0, &t, &e) == OP_OK);
  if (!t) return;
  op_tile_desc v;
  op_tile_view(t, &v);
  volatile double five = 5, seven = 7, six = 6, eight = 8, ch = 0.2, cs = 0.3;
  double Y = five * ch;
  OPT_CHECK(v.origin_y == 3.0 + Y);
  OPT_CHECK(v.verts[4] == (float)(-Y + seven * ch));
  OPT_CHECK(v.verts[10] == (float)(-Y + six * ch));
  OPT_CHECK(v.verts[1] == 0.0f && !signbit(v.verts[1]));
  OPT_CHECK(v.verts[3] == (float)(eight * cs) && v.verts[3] == (float)(8 * 0.3));
  op_tile_free(t);
}

OPT_TEST(assemble_empty, "POLY-211") {
  hand h;
  hand_init(&h, 0.5, 0.25);
  h.pm.npolys = 0;
  op_tile *t = (op_tile *)&h; /* overwritten with NULL */
  op_error e;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 0, &t, &e) == OP_OK && t == NULL);
}

OPT_TEST(assemble_outside, "POLY-213") {
  hand h;
  hand_init(&h, 0.5, 0.25);
  h.verts[2 * 3 + 2] = 9; /* vertex 2's z: 9 > TileSize 8 */
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 0, &t, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "pmesh.verts[2].z") == 0 && strcmp(e.value, "9") == 0 && !t);
  h.verts[2 * 3 + 2] = 8;
  h.verts[1 * 3 + 0] = -1;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 0, &t, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "pmesh.verts[1].x") == 0 && strcmp(e.value, "-1") == 0);
}

/* cs = 2^-10: FMT-011's bound is 16384 * 2^-10 = 16 world units; with ch = 1 a tile whose
** rows span 5 .. 25 has a vertex 20 above its origin: limit naming cell_size. Rows 5 .. 21
** (16 above) pass: the bound is inclusive. */
OPT_TEST(assemble_height_limit, "POLY-215") {
  hand h;
  hand_init(&h, 1.0 / 1024, 1.0);
  h.verts[1 * 3 + 1] = 25;
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 0, &t, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "cell_size") == 0 && strcmp(e.value, "0.0009765625") == 0);
  h.verts[1 * 3 + 1] = 21;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 0, &t, &e) == OP_OK && t);
  op_tile_free(t);
}

OPT_TEST(assemble_nvp, "POLY-210") {
  hand h;
  hand_init(&h, 0.5, 0.25);
  h.tiling.max_verts_per_poly = 5;
  op_tile *t = NULL;
  op_error e;
  OPT_CHECK(op_tile_assemble(&h.pm, NULL, 0, 0, 0, &h.tiling, 0, &t, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "pmesh.nvp") == 0);
}

/* ------------------------------------------------------------------ sampling */

/* An independent reading of section 4 for the checks below: points in detail units
** (POLY-204) recovered from the stored binary32 values, the height rule (POLY-205), the
** edge samples (POLY-206), the interior candidates (POLY-250) and the hull triangulation
** (POLY-252) by a recursive Delaunay triangulation of the convex hull chain with the tie
** rule of G2D-203 written out here; only the exact in-circle sign is shared. */
typedef struct ipt {
  int64_t x, z, y;
} ipt;


/* nearest integer of a non-negative value */
static int64_t iround(double v) { return (int64_t)(v + 0.5); }

static int64_t io(ipt a, ipt b, ipt c) {
  return (b.x - a.x) * (c.z - a.z) - (b.z - a.z) * (c.x - a.x);
}

static int ilater(ipt a, ipt b) { return a.x != b.x ? a.x > b.x : a.z > b.z; } /* G2D-010 */

/* G2D-203 from its text: does d count as inside the circle of a, b, c (counter-clockwise)? */
static int iinside(ipt a, ipt b, ipt c, ipt d) {
  g2_point A = {a.x, a.z}, B = {b.x, b.z}, C = {c.x, c.z}, D = {d.x, d.z};
  int s = g2_incircle(A, B, C, D);
  if (s) return s > 0;
  ipt m = a;
  int which = 0;
  if (ilater(b, m)) { m = b; which = 1; }
  if (ilater(c, m)) { m = c; which = 2; }
  if (ilater(d, m)) return 1;
  if (which == 0) return io(d, b, c) < 0;
  if (which == 1) return io(a, d, c) < 0;
  return io(a, b, d) < 0;
}

typedef struct itri {
  int a, b, c;
} itri;

/* Delaunay triangulation of the convex chain L[i..j] closed by L[j] -> L[i]. */
static void ichain(const ipt *L, int i, int j, itri *out, int *nt) {
  if (j - i < 2) return;
  int k = -1;
  for (int d = i + 1; d < j; d++) {
    if (io(L[j], L[i], L[d]) <= 0) continue;
    if (k < 0 || iinside(L[j], L[i], L[k], L[d])) k = d;
  }
  if (k < 0) return;
  out[*nt].a = j;
  out[*nt].b = i;
  out[*nt].c = k;
  (*nt)++;
  ichain(L, i, k, out, nt);
  ichain(L, k, j, out, nt);
}

/* POLY-205 read independently: the floor nearest to num / den around the nearest corner. */
static int iheight(const op_chf *chf, int32_t border, int64_t X, int64_t Z, int64_t num,
                   int64_t den, int64_t *y) {
  int64_t cx = (X + 8) / 16, cz = (Z + 8) / 16;
  int found = 0;
  int64_t by = 0, bd = 0;
  for (int64_t gz = cz - 1; gz <= cz; gz++)
    for (int64_t gx = cx - 1; gx <= cx; gx++) {
      int64_t bx = gx + border, bz = gz + border;
      if (bx < 0 || bz < 0 || bx >= chf->grid.width || bz >= chf->grid.depth) continue;
      size_t col = (size_t)bz * chf->grid.width + (size_t)bx;
      for (uint32_t s = 0; s < chf->cell_count[col]; s++) {
        int64_t fy = chf->spans[chf->cell_index[col] + s].y;
        int64_t d = fy * den - num;
        d = d < 0 ? -d : d;
        if (!found || d < bd || (d == bd && fy < by)) { found = 1; bd = d; by = fy; }
      }
    }
  *y = by;
  return found;
}

/* height of the triangles T (over points P) at p: num / den; 0 when no triangle holds p */
static int isurface(const ipt *P, const itri *T, int nt, ipt p, int64_t *num, int64_t *den) {
  for (int t = 0; t < nt; t++) {
    ipt a = P[T[t].a], b = P[T[t].b], c = P[T[t].c];
    int64_t wa = io(b, c, p), wb = io(c, a, p), wc = io(a, b, p);
    if (wa < 0 || wb < 0 || wc < 0) continue;
    *num = wa * a.y + wb * b.y + wc * c.y;
    *den = wa + wb + wc;
    return 1;
  }
  return 0;
}

static int on_seg(ipt a, ipt b, ipt p) { /* p on the closed segment a b */
  if (io(a, b, p) != 0) return 0;
  return (p.x - a.x) * (p.x - b.x) <= 0 && (p.z - a.z) * (p.z - b.z) <= 0;
}

typedef struct dstats {
  long polys, verts, tris, edge_samples, cands, inserted, full, checked_samples;
} dstats;

/* Everything POLY-256 promises for polygon p of a tile, from the stored detail mesh. */
static void check_poly(opt_state *opt_s_, const op_pmesh *pm, const op_chf *chf,
                       const op_settings *s, const op_detail_mesh *dm, uint32_t p, double Y,
                       dstats *st) {
  int32_t S = op_detail_step(s);
  double E = s->detail_sample_max_error, cs = pm->map.cs, ch = pm->map.ch;
  float fw = (float)((double)pm->map.width * cs);
  const uint16_t *pv = pm->polys + (size_t)p * pm->nvp;
  int n = (int)op_pmesh_poly_nverts(pm, p);
  const op_detail_desc *r = &dm->detail[p];
  int np = n + r->vert_count;
  OPT_CHECK(np <= 128 && r->tri_count >= 1);
  ipt P[128];
  for (int k = 0; k < n; k++) {
    const int32_t *v = pm->verts + 3 * (size_t)pv[k];
    P[k] = (ipt){16 * (int64_t)v[0], 16 * (int64_t)v[2], v[1]};
  }
  /* POLY-254: stored binary32 values map back to integers that map forward to them */
  for (int k = n; k < np; k++) {
    const float *f = dm->verts + 3 * (size_t)(r->vert_base + (k - n));
    int64_t q[3];
    for (int c = 0; c < 3; c += 2) {
      q[c] = iround((double)f[c] * 16.0 / cs);
      float g = (float)(((double)q[c] * cs) / 16.0);
      if ((double)g <= cs / 1024) g = 0;
      else if ((double)fw - (double)g <= cs / 1024) g = fw;
      OPT_CHECK(g == f[c]);
    }
    q[1] = iround(((double)f[1] + Y) / ch);
    OPT_CHECK((float)(-Y + (double)q[1] * ch) == f[1]);
    P[k] = (ipt){q[0], q[2], q[1]};
  }
  /* on which polygon edge each point lies (-1: inside), strictly inside otherwise */
  int edge_of[128];
  for (int k = 0; k < np; k++) {
    edge_of[k] = -1;
    int inside = 1;
    for (int e = 0; e < n; e++) {
      int64_t o = io(P[e], P[(e + 1) % n], P[k]);
      if (k >= n && on_seg(P[e], P[(e + 1) % n], P[k])) edge_of[k] = e;
      if (o <= 0) inside = 0;
    }
    if (k >= n) OPT_CHECK(edge_of[k] >= 0 || inside);
    if (k >= n) OPT_CHECK(P[k].x != P[0].x || P[k].z != P[0].z);
  }
  /* triangles: counter-clockwise, indices in range, area sum, edges matched, flags */
  itri T[256];
  int nt = r->tri_count;
  int64_t area = 0, parea = 0;
  for (int k = 0; k < n; k++) parea += io(P[0], P[k], P[(k + 1) % n]);
  int used[128] = {0};
  for (int t = 0; t < nt; t++) {
    const uint8_t *q = dm->tris + 4 * (size_t)(r->tri_base + t);
    OPT_CHECK(q[0] < np && q[1] < np && q[2] < np);
    if (q[0] >= np || q[1] >= np || q[2] >= np) return;
    T[t] = (itri){q[0], q[1], q[2]};
    int64_t o = io(P[q[0]], P[q[1]], P[q[2]]);
    OPT_CHECK(o > 0); /* POLY-255: counter-clockwise, not degenerate */
    OPT_CHECK(q[0] < q[1] && q[0] < q[2]);
    area += o;
    used[q[0]] = used[q[1]] = used[q[2]] = 1;
    for (int i = 0; i < 3; i++) {
      ipt u = P[q[i]], w = P[q[(i + 1) % 3]];
      int bnd = 0;
      for (int e = 0; e < n; e++)
        if (on_seg(P[e], P[(e + 1) % n], u) && on_seg(P[e], P[(e + 1) % n], w)) bnd = 1;
      OPT_CHECK(((q[3] >> (2 * i)) & 1) == bnd);
      int rev = 0, same = 0;
      for (int t2 = 0; t2 < nt; t2++) {
        const uint8_t *q2 = dm->tris + 4 * (size_t)(r->tri_base + t2);
        for (int i2 = 0; i2 < 3; i2++) {
          if (q2[i2] == q[(i + 1) % 3] && q2[(i2 + 1) % 3] == q[i]) rev++;
          if (q2[i2] == q[i] && q2[(i2 + 1) % 3] == q[(i + 1) % 3]) same++;
        }
      }
      OPT_CHECK(same == 1 && rev == (bnd ? 0 : 1));
      /* POLY-209: every inner edge locally Delaunay under G2D-203 */
      for (int t2 = 0; t2 < nt; t2++) {
        const uint8_t *q2 = dm->tris + 4 * (size_t)(r->tri_base + t2);
        for (int i2 = 0; i2 < 3; i2++)
          if (q2[i2] == q[(i + 1) % 3] && q2[(i2 + 1) % 3] == q[i])
            OPT_CHECK(!iinside(P[q[i]], P[q[(i + 1) % 3]], P[q[(i + 2) % 3]],
                               P[q2[(i2 + 2) % 3]]));
      }
    }
    OPT_CHECK((q[3] & 0xEA) == 0);
    if (t) { /* sorted by (v0, v1, v2) */
      const uint8_t *pq = q - 4;
      OPT_CHECK(pq[0] < q[0] || (pq[0] == q[0] && (pq[1] < q[1] || (pq[1] == q[1] && pq[2] < q[2]))));
    }
  }
  OPT_CHECK(area == parea); /* POLY-256: the triangles cover the polygon */
  for (int k = 0; k < np; k++) OPT_CHECK(used[k]);
  st->polys++;
  st->verts += r->vert_count;
  st->tris += nt;
  if (np == 128) st->full++;
  /* POLY-206, POLY-207: every edge sample kept with its row, or within E of the edge */
  for (int e = 0; e < n; e++) {
    ipt a = P[e], b = P[(e + 1) % n];
    int lesser = a.x < b.x || (a.x == b.x && a.z < b.z);
    ipt A = lesser ? a : b, B = lesser ? b : a;
    int64_t dx = (B.x - A.x) / 16, dz = (B.z - A.z) / 16;
    int64_t g = dx < 0 ? -dx : dx, h = dz < 0 ? -dz : dz;
    while (h) { int64_t t = g % h; g = h; h = t; }
    int64_t G = 16 * g, m = 0;
    while (((m + 1) * S) * ((m + 1) * S) <= dx * dx + dz * dz) m++;
    m += 1;
    if (m > 32) m = 32;
    if (m > G) m = G;
    for (int64_t j = 1; j < m; j++) {
      int64_t kj = (2 * j * G + m) / (2 * m);
      ipt q = {A.x + kj * dx / g, A.z + kj * dz / g, 0};
      int64_t hy;
      if (!iheight(chf, pm->map.border, q.x, q.z, A.y * G + (B.y - A.y) * kj, G, &hy)) continue;
      st->checked_samples++;
      int found = -1;
      for (int k = n; k < np; k++)
        if (P[k].x == q.x && P[k].z == q.z) found = k;
      if (found >= 0) {
        OPT_CHECK(P[found].y == hy && edge_of[found] == e);
        continue;
      }
      /* the kept points of the edge around q */
      ipt lo = A, hi = B;
      for (int k = n; k < np; k++) {
        if (edge_of[k] != e) continue;
        int64_t t = lesser ? 0 : 0;
        (void)t;
        int64_t pk = (P[k].x - A.x) * (B.x - A.x) + (P[k].z - A.z) * (B.z - A.z);
        int64_t pq = (q.x - A.x) * (B.x - A.x) + (q.z - A.z) * (B.z - A.z);
        int64_t pl = (lo.x - A.x) * (B.x - A.x) + (lo.z - A.z) * (B.z - A.z);
        int64_t ph = (hi.x - A.x) * (B.x - A.x) + (hi.z - A.z) * (B.z - A.z);
        if (pk < pq && pk > pl) lo = P[k];
        if (pk > pq && pk < ph) hi = P[k];
      }
      int64_t D = (hi.x - lo.x) * (hi.x - lo.x) + (hi.z - lo.z) * (hi.z - lo.z);
      int64_t t = (q.x - lo.x) * (hi.x - lo.x) + (q.z - lo.z) * (hi.z - lo.z);
      double lerp = (double)lo.y + (double)(hi.y - lo.y) * ((double)t / (double)D);
      if (np < 128) OPT_CHECK(((double)hy - lerp <= E + 1e-9 && lerp - (double)hy <= E + 1e-9));
    }
  }
  /* POLY-250 .. POLY-253: interior candidates against the hull triangulation */
  ipt L[128];
  int nl = 0, idx[128];
  for (int e = 0; e < n; e++) {
    idx[nl] = e;
    L[nl++] = P[e];
    int first = nl;
    for (int k = n; k < np; k++)
      if (edge_of[k] == e) { idx[nl] = k; L[nl++] = P[k]; }
    for (int i = first + 1; i < nl; i++) /* order along the edge from P[e] */
      for (int j = i; j > first; j--) {
        int64_t dj = llabs(L[j].x - P[e].x) + llabs(L[j].z - P[e].z);
        int64_t di = llabs(L[j - 1].x - P[e].x) + llabs(L[j - 1].z - P[e].z);
        if (dj >= di) break;
        ipt tp = L[j]; L[j] = L[j - 1]; L[j - 1] = tp;
        int ti = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = ti;
      }
  }
  itri T0[256];
  int nt0 = 0;
  ichain(L, 0, nl - 1, T0, &nt0);
  OPT_CHECK(nt0 == nl - 2);
  int64_t x0 = P[0].x, x1 = P[0].x, z0 = P[0].z, z1 = P[0].z;
  for (int k = 1; k < n; k++) {
    if (P[k].x < x0) x0 = P[k].x;
    if (P[k].x > x1) x1 = P[k].x;
    if (P[k].z < z0) z0 = P[k].z;
    if (P[k].z > z1) z1 = P[k].z;
  }
  int ninserted = 0;
  for (int k = n; k < np; k++) ninserted += edge_of[k] < 0;
  int matched = 0;
  for (int64_t z = 0; z <= z1 / 16; z += S) {
    if (16 * z < z0) continue;
    for (int64_t x = 0; x <= x1 / 16; x += S) {
      if (16 * x < x0) continue;
      int ok = 1;
      for (int e = 0; e < n && ok; e++) {
        ipt a = {P[e].x / 16, P[e].z / 16, 0}, b = {P[(e + 1) % n].x / 16, P[(e + 1) % n].z / 16, 0};
        int64_t o = io(a, b, (ipt){x, z, 0});
        int64_t L2 = (b.x - a.x) * (b.x - a.x) + (b.z - a.z) * (b.z - a.z);
        if (o <= 0 || 4 * o * o < (int64_t)S * S * L2) ok = 0;
      }
      if (!ok) continue;
      ipt q = {16 * x, 16 * z, 0};
      int64_t num, den, hy;
      OPT_CHECK(isurface(L, T0, nt0, q, &num, &den));
      if (!iheight(chf, pm->map.border, q.x, q.z, num, den, &hy)) continue;
      st->cands++;
      int found = -1;
      for (int k = n; k < np; k++)
        if (P[k].x == q.x && P[k].z == q.z) found = k;
      if (found >= 0) {
        OPT_CHECK(P[found].y == hy && edge_of[found] < 0);
        matched++;
        continue;
      }
      OPT_CHECK(isurface(P, T, nt, q, &num, &den));
      double err = (double)llabs(hy * den - num) / (double)den;
      if (np < 128) OPT_CHECK(err <= E);
    }
  }
  OPT_CHECK(matched == ninserted); /* every inserted point is a candidate */
  st->inserted += ninserted;
  st->edge_samples += r->vert_count - ninserted;
}

/* Checks of a whole tile's detail mesh: records, every polygon, shared edges. */
static void check_detail(opt_state *opt_s_, const op_pmesh *pm, const op_chf *chf,
                         const op_settings *s, const op_detail_mesh *dm, dstats *st) {
  OPT_CHECK(dm->ndetail == pm->npolys);
  if (dm->ndetail != pm->npolys) return;
  int32_t ymin = 0;
  for (uint32_t i = 0; i < pm->nverts; i++)
    if (i == 0 || pm->verts[3 * i + 1] < ymin) ymin = pm->verts[3 * i + 1];
  double Y = (double)ymin * pm->map.ch;
  uint32_t vb = 0, tb = 0;
  for (uint32_t p = 0; p < pm->npolys; p++) {
    OPT_CHECK(dm->detail[p].vert_base == vb && dm->detail[p].tri_base == tb);
    vb += dm->detail[p].vert_count;
    tb += dm->detail[p].tri_count;
    check_poly(opt_s_, pm, chf, s, dm, p, Y, st);
  }
  OPT_CHECK(vb == dm->nverts && tb == dm->ntris);
  /* POLY-207: a shared edge carries the same detail vertices in both polygons */
  for (uint32_t p = 0; p < pm->npolys; p++) {
    uint32_t n = op_pmesh_poly_nverts(pm, p);
    for (uint32_t j = 0; j < n; j++) {
      uint16_t code = pm->neis[(size_t)p * pm->nvp + j];
      if (code == 0 || (code & 0x8000) || code - 1u < p) continue;
      uint32_t q = code - 1u;
      const int32_t *a = pm->verts + 3 * (size_t)pm->polys[(size_t)p * pm->nvp + j];
      const int32_t *b = pm->verts + 3 * (size_t)pm->polys[(size_t)p * pm->nvp + (j + 1) % n];
      ipt A = {a[0] * 16, a[2] * 16, 0}, B = {b[0] * 16, b[2] * 16, 0};
      long cnt[2] = {0, 0};
      double sum[2] = {0, 0};
      for (int side = 0; side < 2; side++) {
        const op_detail_desc *r = &dm->detail[side ? q : p];
        for (uint32_t k = 0; k < r->vert_count; k++) {
          const float *f = dm->verts + 3 * (size_t)(r->vert_base + k);
          ipt P = {iround((double)f[0] * 16 / pm->map.cs),
                   iround((double)f[2] * 16 / pm->map.cs), 0};
          if (io(A, B, P) == 0 && on_seg(A, B, P)) {
            cnt[side]++;
            sum[side] += (double)f[0] * 3 + (double)f[1] * 5 + (double)f[2] * 7;
          }
        }
      }
      OPT_CHECK(cnt[0] == cnt[1] && sum[0] == sum[1]);
    }
  }
}

/* Builds every tile of a generated level with the settings s and runs fn on each. */
typedef void (*tile_fn)(opt_state *opt_s_, const op_settings *s, const op_pmesh *pm,
                        const op_chf *chf, int32_t tx, int32_t tz, void *ud);

static void each_tile(opt_state *opt_s_, const char *name, uint32_t size, const op_settings *s,
                      tile_fn fn, void *ud) {
  op_cell_settings cell;
  OPT_CHECK(op_settings_derive(s, &cell, NULL) == OP_OK);
  op_trimesh m;
  memset(&m, 0, sizeof m);
  OPT_CHECK(op_level_generate(name, 11, size, s, &m, NULL) == OP_OK);
  op_soup soup = op_trimesh_soup(&m);
  double o[3], ymax;
  OPT_CHECK(op_soup_frame(&soup, o, &ymax, NULL) == OP_OK);
  int32_t nx = 0, nz = 0;
  OPT_CHECK(op_spans_tile_range(s, &soup, &nx, &nz, NULL) == OP_OK);
  for (int32_t tz = 0; tz < nz; tz++)
    for (int32_t tx = 0; tx < nx; tx++) {
      op_chf *c = NULL;
      OPT_CHECK(op_spans_build_tile(s, &soup, o, o[1], ymax, tx, tz, &c, NULL) == OP_OK);
      if (!c) continue;
      op_regions rg;
      memset(&rg, 0, sizeof rg);
      op_error e;
      if (op_regions_build(c, s->partition, cell.border, s->min_region_area,
                           s->merge_region_area, &rg, &e) == OP_OK) {
        op_contour_params p;
        p.border = cell.border;
        p.max_error = s->max_simplification_error;
        p.max_edge_len = cell.max_edge_len;
        op_contour_set cs;
        if (op_contours_build(c, rg.reg, &p, &cs, &e) == OP_OK) {
          op_pmesh pm;
          if (op_pmesh_build(&cs, &c->grid, cell.border, s->max_verts_per_poly, &pm, &e) ==
              OP_OK) {
            fn(opt_s_, s, &pm, c, tx, tz, ud);
            op_pmesh_free(&pm);
          }
          op_contour_set_free(&cs);
        }
        op_regions_free(&rg);
      }
      op_chf_free(c);
    }
  op_trimesh_free(&m);
}

typedef struct prop_ud {
  dstats st;
  double t_detail;
  long tiles;
} prop_ud;

static void prop_tile(opt_state *opt_s_, const op_settings *s, const op_pmesh *pm,
                      const op_chf *chf, int32_t tx, int32_t tz, void *ud) {
  prop_ud *u = ud;
  op_detail_mesh dm, dm2;
  op_error e;
  OPT_CHECK(op_detail_build(s, pm, chf, &dm, &e) == OP_OK);
  OPT_CHECK(op_detail_build(s, pm, chf, &dm2, &e) == OP_OK); /* determinism */
  OPT_CHECK(dm.nverts == dm2.nverts && dm.ntris == dm2.ntris &&
            (dm.nverts == 0 || memcmp(dm.verts, dm2.verts, 12 * (size_t)dm.nverts) == 0) &&
            memcmp(dm.tris, dm2.tris, 4 * (size_t)dm.ntris) == 0 &&
            memcmp(dm.detail, dm2.detail, sizeof *dm.detail * dm.ndetail) == 0);
  op_detail_free(&dm2);
  if (pm->npolys) check_detail(opt_s_, pm, chf, s, &dm, &u->st);
  /* FMT-022 .. FMT-026: the tile that carries it passes NavTile.Create */
  op_tiling t;
  memset(&t, 0, sizeof t);
  t.cell_size = s->cell_size;
  t.cell_height = s->cell_height;
  t.tile_cells = s->tile_cells;
  t.max_verts_per_poly = s->max_verts_per_poly;
  op_tile *tile = NULL;
  OPT_CHECK(op_tile_assemble(pm, &dm, tx, tz, 0, &t, chf->grid.origin[1], &tile, &e) == OP_OK);
  if (tile) {
    op_tile_desc v;
    op_tile_view(tile, &v);
    OPT_CHECK(v.ndetail == pm->npolys && v.ndetail_verts == dm.nverts &&
              v.ndetail_tris == dm.ntris);
  }
  op_tile_free(tile);
  op_detail_free(&dm);
  u->tiles++;
}

static op_settings sampled(const char *preset, int part, double dist, double err) {
  op_settings s;
  op_settings_preset(preset, &s, NULL);
  s.partition = (op_partition)part;
  s.detail_sample_distance = dist;
  s.detail_sample_max_error = err;
  return s;
}

/* POLY-256: two tiles side by side whose polygons have a portal edge with the same two
** ends carry the same detail vertices on it (positions along the side, rows): the samples
** of an edge depend only on its ends and on the spans within a cell of it, and both tiles
** rasterize the same spans there. */
typedef struct seam_tiles {
  op_tile *t[256];
  int32_t x[256], z[256];
  int n;
} seam_tiles;
static void seam_hook(void *ud, int32_t tx, int32_t tz, const op_tile *t) {
  seam_tiles *s = ud;
  op_bytes b;
  if (s->n == 256 || op_tile_save(t, &b, NULL) != OP_OK) return;
  if (op_tile_load(b.data, b.len, &s->t[s->n], NULL) == OP_OK) {
    s->x[s->n] = tx;
    s->z[s->n] = tz;
    s->n++;
  }
  op_bytes_free(&b);
}

/* the detail vertices of polygon p of tile v on its edge j: along-side position in detail
** units and row, sorted by position; returns the count (at most 64) */
static int seam_list(const op_tile_desc *v, uint32_t p, uint32_t j, double y0, int64_t out[][2],
                     int64_t ends[2]) {
  const op_poly_desc *pd = &v->polys[p];
  double cs = v->tiling.cell_size, ch = v->tiling.cell_height;
  int side = pd->neis[j] & 3;
  int along = (side == 0 || side == 2) ? 2 : 0; /* x sides: positions along z */
  const float *a = v->verts + 3 * (size_t)pd->verts[j];
  const float *b = v->verts + 3 * (size_t)pd->verts[(j + 1) % pd->nverts];
  ends[0] = iround((double)a[along] * 16 / cs);
  ends[1] = iround((double)b[along] * 16 / cs);
  if (ends[0] > ends[1]) { int64_t t = ends[0]; ends[0] = ends[1]; ends[1] = t; }
  int n = 0;
  const op_detail_desc *r = &v->detail[p];
  for (uint32_t k = 0; k < r->vert_count && n < 64; k++) {
    const float *d = v->detail_verts + 3 * (size_t)(r->vert_base + k);
    if (d[2 - along] != a[2 - along]) continue; /* not on the side's line */
    int64_t u = iround((double)d[along] * 16 / cs);
    if (u <= ends[0] || u >= ends[1]) continue;
    out[n][0] = u;
    out[n][1] = iround((v->origin_y + (double)d[1] - y0) / ch);
    n++;
  }
  for (int i = 1; i < n; i++)
    for (int k = i; k > 0 && out[k][0] < out[k - 1][0]; k--) {
      int64_t t0 = out[k][0], t1 = out[k][1];
      out[k][0] = out[k - 1][0]; out[k][1] = out[k - 1][1];
      out[k - 1][0] = t0; out[k - 1][1] = t1;
    }
  return n;
}

static void seam_level(opt_state *opt_s_, const char *name, uint32_t size, const char *preset,
                       int part, long *pairs, long *verts) {
  op_settings s = sampled(preset, part, 6, 1);
  op_trimesh m;
  memset(&m, 0, sizeof m);
  OPT_CHECK(op_level_generate(name, 11, size, &s, &m, NULL) == OP_OK);
  op_soup soup = op_trimesh_soup(&m);
  double o[3], ymax;
  OPT_CHECK(op_soup_frame(&soup, o, &ymax, NULL) == OP_OK);
  seam_tiles st;
  memset(&st, 0, sizeof st);
  op_pipeline_hooks h = {&st, NULL, seam_hook};
  op_pipeline_result res;
  op_error e;
  OPT_CHECK(op_pipeline_build_soup(&s, &soup, &h, &res, &e) == OP_OK);
  op_pipeline_result_free(&res);
  for (int i = 0; i < st.n; i++)
    for (int k = 0; k < st.n; k++) {
      int dx = st.x[k] - st.x[i], dz = st.z[k] - st.z[i];
      if (!((dx == 1 && dz == 0) || (dx == 0 && dz == 1))) continue;
      int sa = dx ? 2 : 1, sb = dx ? 0 : 3; /* A's side, B's side */
      op_tile_desc va, vb;
      op_tile_view(st.t[i], &va);
      op_tile_view(st.t[k], &vb);
      for (uint32_t p = 0; p < va.npolys; p++)
        for (uint32_t j = 0; j < va.polys[p].nverts; j++) {
          if (va.polys[p].neis[j] != (0x8000 | sa)) continue;
          int64_t la[64][2], ea[2];
          int na = seam_list(&va, p, j, o[1], la, ea);
          for (uint32_t q = 0; q < vb.npolys; q++)
            for (uint32_t jj = 0; jj < vb.polys[q].nverts; jj++) {
              if (vb.polys[q].neis[jj] != (0x8000 | sb)) continue;
              int64_t lb[64][2], eb[2];
              int nb = seam_list(&vb, q, jj, o[1], lb, eb);
              if (ea[0] != eb[0] || ea[1] != eb[1]) continue;
              /* the same interval: same floor? the ends' rows decide */
              const op_poly_desc *pa = &va.polys[p], *pb = &vb.polys[q];
              double ya = va.origin_y + va.verts[3 * (size_t)pa->verts[j] + 1];
              double yb0 = vb.origin_y + vb.verts[3 * (size_t)pb->verts[jj] + 1];
              double yb1 = vb.origin_y + vb.verts[3 * (size_t)pb->verts[(jj + 1) % pb->nverts] + 1];
              double tol = 0.5 * s.cell_height;
              if (!((ya - yb0 < tol && yb0 - ya < tol) || (ya - yb1 < tol && yb1 - ya < tol)))
                continue;
              (*pairs)++;
              *verts += na;
              OPT_CHECK(na == nb);
              for (int t = 0; t < na && t < nb; t++)
                OPT_CHECK(la[t][0] == lb[t][0] && la[t][1] == lb[t][1]);
            }
        }
    }
  for (int i = 0; i < st.n; i++) op_tile_free(st.t[i]);
  op_trimesh_free(&m);
}

OPT_TEST(detail_tile_seams, "POLY-256") {
  long pairs = 0, verts = 0;
  for (int part = 0; part < 2; part++) {
    seam_level(opt_s_, "terrain", 24, "Humanoid", part, &pairs, &verts);
    seam_level(opt_s_, "terrain", 24, "Small", part, &pairs, &verts);
    seam_level(opt_s_, "stairs", 10, "Humanoid", part, &pairs, &verts);
  }
  printf("     %ld portal edges with the same ends in two tiles, %ld detail vertices on them\n",
         pairs, verts);
  OPT_CHECK(pairs > 0 && verts > 0);
}

/* POLY-256 on the generated levels, three partitions, the presets' sampling (6 cells, 1
** row) and a denser one (2 cells, 0.5 rows) */
OPT_TEST(detail_properties_levels, "POLY-256") {
  static const char *const NAMES[4] = {"terrain", "stairs", "city", "dungeon"};
  static const uint32_t SIZES[4] = {24, 10, 2, 12};
  static const double DIST[2][2] = {{6, 1}, {2, 0.5}};
  for (int k = 0; k < 2; k++) {
    prop_ud u;
    memset(&u, 0, sizeof u);
    for (int li = 0; li < 4; li++)
      for (int part = 0; part < 3; part++) {
        op_settings s = sampled("Humanoid", part, DIST[k][0], DIST[k][1]);
        each_tile(opt_s_, NAMES[li], SIZES[li], &s, prop_tile, &u);
      }
    printf("     S %g, E %g: %ld tiles, %ld polygons, %ld detail verts (%ld edge, %ld inner), "
           "%ld tris, %ld candidates, %ld edge samples checked, %ld polygons at 128 points\n",
           DIST[k][0], DIST[k][1], u.tiles, u.st.polys, u.st.verts, u.st.edge_samples,
           u.st.inserted, u.st.tris, u.st.cands, u.st.checked_samples, u.st.full);
    OPT_CHECK(u.st.polys > 0 && u.st.inserted > 0 && u.st.edge_samples > 0);
  }
}

/* ------------------------------------------------------- hand-made heightfields */

/* A compact heightfield on the grid of a hand-made tile (own size w x w, border b): up to
** two spans per column, floors from f (second floor 0 = none). Links are not read by the
** detail stage and stay "not connected". */
typedef int32_t (*floor_fn)(int32_t x, int32_t z, int second);

typedef struct hchf {
  op_chf chf;
  uint32_t idx[80 * 80];
  uint8_t cnt[80 * 80];
  op_chf_span spans[2 * 80 * 80];
  uint8_t areas[2 * 80 * 80];
} hchf;

static void hchf_make(hchf *h, const op_hf_grid *g, int32_t border, floor_fn f) {
  memset(h, 0, sizeof *h);
  h->chf.grid = *g;
  h->chf.cell_index = h->idx;
  h->chf.cell_count = h->cnt;
  h->chf.spans = h->spans;
  h->chf.areas = h->areas;
  uint32_t n = 0;
  for (int32_t z = 0; z < g->depth; z++)
    for (int32_t x = 0; x < g->width; x++) {
      size_t c = (size_t)z * g->width + x;
      h->idx[c] = n;
      for (int k = 0; k < 2; k++) {
        int32_t y = f(x - border, z - border, k);
        if (k == 1 && y == 0) break;
        h->spans[n].y = (uint16_t)y;
        h->spans[n].h = 40;
        memset(h->spans[n].link, OP_CHF_NOT_CONNECTED, 4);
        h->areas[n] = 63;
        n++;
        h->cnt[c]++;
      }
    }
  h->chf.nspans = n;
}

static int32_t flat5(int32_t x, int32_t z, int k) { (void)x; (void)z; return k ? 0 : 5; }
static int32_t bump9(int32_t x, int32_t z, int k) {
  if (k) return 0;
  return x >= 3 && x <= 4 && z >= 3 && z <= 4 ? 9 : 5;
}
static int32_t tie37(int32_t x, int32_t z, int k) {
  if (k) return 0;
  if (x >= 3 && x <= 4 && z == 3) return 3;
  if (x >= 3 && x <= 4 && z == 4) return 7;
  return 5;
}

static op_settings sampling(double dist, double err) {
  op_settings s = no_sampling();
  s.detail_sample_distance = dist;
  s.detail_sample_max_error = err;
  return s;
}

static void flat_rows(hand *h) {
  for (int i = 0; i < 4; i++) h->verts[3 * i + 1] = 5;
}

/* The hand-made tile (cs 0.5, ch 0.25) with every corner on row 5, over the floors of f
** (border 2). */
static void flat_hand(hand *h, hchf *c, floor_fn f) {
  hand_init(h, 0.5, 0.25);
  flat_rows(h);
  hchf_make(c, &h->grid, 2, f);
}

/* POLY-212: 1 when the hand-made tile's polygon with detail d assembles into a tile (FMT-022
** .. FMT-026) with origin y0. */
static int carries(const hand *h, const op_detail_mesh *d, double y0) {
  op_tile *t = NULL;
  op_error e;
  int ok = op_tile_assemble(&h->pm, d, 0, 0, 0, &h->tiling, y0, &t, &e) == OP_OK && t;
  op_tile_free(t);
  return ok;
}

OPT_TEST(detail_rule, "POLY-202") {
  op_settings s = no_sampling();
  op_error e;
  OPT_CHECK(op_detail_check(&s, &e) == OP_OK);
  s.detail_sample_distance = 0.9000000000000001; /* samples: accepted */
  OPT_CHECK(op_detail_check(&s, &e) == OP_OK);
  op_settings_preset("Humanoid", &s, &e); /* the presets sample, 6 cells: accepted */
  OPT_CHECK(op_detail_check(&s, &e) == OP_OK);
  OPT_CHECK(op_detail_check(NULL, &e) == OP_E_ARGUMENT && strcmp(e.field, "settings") == 0);
}

OPT_TEST(detail_step, "POLY-203") {
  op_settings s = no_sampling();
  static const double D[7] = {0, 0.9, 0.9000000000000001, 0.95, 2.9, 6, 65536};
  static const int32_t W[7] = {0, 0, 1, 1, 2, 6, 65536}; /* max(1, floor(d)); 0 at or below 0.9 */
  for (int i = 0; i < 7; i++) {
    s.detail_sample_distance = D[i];
    OPT_CHECK(op_detail_step(&s) == W[i]);
  }
}

/* Flat floor at the vertices' row: no sample leaves the plane, so no detail vertex; the
** square's four corners lie on one circle and G2D-203 gives the diagonal through the last
** point in (x, z) order, (8, 8) (vertex 2), and so through vertex 0: triangles (0, 1, 2)
** and (0, 2, 3), flags 0x05 (edges 0->1, 1->2 on the square) and 0x14 (2->3, 3->0). */
OPT_TEST(detail_flat_square, "POLY-209") {
  hand h;
  hchf c;
  flat_hand(&h, &c, flat5);
  op_settings s = sampling(6, 1);
  op_detail_mesh d;
  op_error e;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK);
  OPT_CHECK(d.ndetail == 1 && d.nverts == 0 && d.ntris == 2);
  static const uint8_t want[8] = {0, 1, 2, 0x05, 0, 2, 3, 0x14};
  OPT_CHECK(d.ntris == 2 && memcmp(d.tris, want, 8) == 0);
  OPT_CHECK(d.detail[0].vert_base == 0 && d.detail[0].tri_base == 0 &&
            d.detail[0].vert_count == 0 && d.detail[0].tri_count == 2);
  /* the tile carries it (FMT-022 .. FMT-026) */
  OPT_CHECK(carries(&h, &d, 3.0));
  op_detail_free(&d);
}

/* A bump of row 9 on the four cells around corner (4, 4), S = 2, E = 1: the candidates are
** the even points 2..6 (at least 1 cell inside); all but (4, 4) see only row 5 (error 0
** against the flat hull), (4, 4) sees four columns of row 9 (error 4 > 1): it is inserted
** first, so detail vertex 0 is (4, 4) at row 9: local (2, (9 - 5) * 0.25, 2). */
OPT_TEST(detail_bump, "POLY-253") {
  hand h;
  hchf c;
  flat_hand(&h, &c, bump9);
  op_settings s = sampling(2, 1);
  op_detail_mesh d;
  op_error e;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK);
  OPT_CHECK(d.nverts >= 1);
  if (d.nverts >= 1) OPT_CHECK(d.verts[0] == 2.0f && d.verts[1] == 1.0f && d.verts[2] == 2.0f);
  dstats st;
  memset(&st, 0, sizeof st);
  check_detail(opt_s_, &h.pm, &c.chf, &s, &d, &st);
  OPT_CHECK(st.inserted == (long)d.nverts); /* no edge sample leaves the flat sides */
  op_detail_free(&d);
}

/* POLY-205 ties: around corner (4, 4) two columns have row 3 and two row 7, the reference
** (the flat hull) is row 5: both at distance 2, the lower row wins: (4, 4) gets row 3, a
** local y of (3 - 5) * 0.25 = -0.5 (below the tile's origin: FMT-011 allows it). */
OPT_TEST(detail_height_tie, "POLY-205") {
  hand h;
  hchf c;
  flat_hand(&h, &c, tie37);
  op_settings s = sampling(2, 1);
  op_detail_mesh d;
  op_error e;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK);
  OPT_CHECK(d.nverts >= 1);
  if (d.nverts >= 1) OPT_CHECK(d.verts[0] == 2.0f && d.verts[1] == -0.5f && d.verts[2] == 2.0f);
  OPT_CHECK(carries(&h, &d, 3.0));
  op_detail_free(&d);
}

/* POLY-206 on the edge from (8, 0) to (0, 7) of triangle (0, 0), (8, 0), (0, 7), S = 2:
** lesser end A = (0, 7), g = 1, G = 16; (2q)^2 <= 113 gives q = 5, m = 6; sample 1 is step
** floor((2 * 16 + 6) / 12) = 3: detail point (0, 112) + 3 * (8, -7) = (24, 91), nearest
** corner (2, 6). Those four columns have row 9, every other row 5 (the vertices' row): the
** sample's error against the edge is 4 > E = 3.5, so it is kept. The other samples (steps
** 5, 8, 11, 13, row 5) then lie below the lines from it to the ends by at most
** 4 * (16 - 5) / 13 = 3.38 rows, within E: it is the polygon's only edge sample and its
** first detail vertex: x = f32(fl(24 * 0.3) / 16), z = f32(fl(91 * 0.3) / 16), y = 4 * 0.25. */
static int32_t edge8(int32_t x, int32_t z, int k) {
  if (k) return 0;
  return (x == 1 || x == 2) && (z == 5 || z == 6) ? 9 : 5;
}
OPT_TEST(detail_edge_sample, "POLY-206") {
  hand h;
  hand_init(&h, 0.3, 0.25);
  static const int32_t v[9] = {0, 5, 0, 8, 5, 0, 0, 5, 7};
  memcpy(h.verts, v, sizeof v);
  h.pm.nverts = 3;
  static const uint16_t p[6] = {0, 1, 2, OP_PMESH_NULL, OP_PMESH_NULL, OP_PMESH_NULL};
  static const uint16_t n[6] = {0x8003, 0, 0x8000, 0, 0, 0};
  memcpy(h.polys, p, sizeof p);
  memcpy(h.neis, n, sizeof n);
  hchf c;
  hchf_make(&c, &h.grid, 2, edge8);
  op_settings s = sampling(2, 3.5);
  op_detail_mesh d;
  op_error e;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK);
  volatile double cs = 0.3;
  OPT_CHECK(d.nverts >= 1);
  if (d.nverts >= 1)
    OPT_CHECK(d.verts[0] == (float)((24 * cs) / 16) && d.verts[2] == (float)((91 * cs) / 16) &&
              d.verts[1] == 1.0f);
  dstats st;
  memset(&st, 0, sizeof st);
  check_detail(opt_s_, &h.pm, &c.chf, &s, &d, &st);
  OPT_CHECK(st.edge_samples == 1);
  op_detail_free(&d);
}

/* POLY-207 ties and the strict comparison. The square's edge from (0, 0) to (8, 0), S = 2:
** m = 1 + 4 = 5, G = 128, steps floor((256 j + 5) / 10) = 26, 51, 77, 102 (j = 1 .. 4). The
** columns around the corners nearest to steps 26 and 102, (2, 0) and (6, 0), have row 9,
** every other row 5: samples 1 and 4 both have error 4 against the edge, samples 2 and 3
** (reference 5) keep row 5. With E = 3.5 the first, sample 1, is kept; sample 4 then lies
** 9 - 4 * 76 / 102 = 6.02 rows high, 2.98 from the new line: within E. So the only edge
** sample is (26, 0): local x = f32(fl(26 * 0.5) / 16) = 0.8125, y = 4 * 0.25. With E = 4
** no error exceeds E and nothing is kept. */
static int32_t twin9(int32_t x, int32_t z, int k) {
  if (k) return 0;
  return (x == 1 || x == 2 || x == 5 || x == 6) && (z == -1 || z == 0) ? 9 : 5;
}
OPT_TEST(detail_edge_tie, "POLY-207") {
  hand h;
  hchf c;
  flat_hand(&h, &c, twin9);
  op_settings s = sampling(2, 3.5);
  op_detail_mesh d;
  op_error e;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK);
  OPT_CHECK(d.nverts >= 1);
  if (d.nverts >= 1) OPT_CHECK(d.verts[0] == 0.8125f && d.verts[1] == 1.0f && d.verts[2] == 0.0f);
  dstats st;
  memset(&st, 0, sizeof st);
  check_detail(opt_s_, &h.pm, &c.chf, &s, &d, &st);
  OPT_CHECK(st.edge_samples == 1);
  op_detail_free(&d);
  s.detail_sample_max_error = 4;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK && d.nverts == 0);
  op_detail_free(&d);
}

/* POLY-253 ties and the strict comparison: bumps of row 9 around corners (2, 4) and (6, 4),
** S = 2: both candidates have error 4 against the flat hull; the first in (z, x) order,
** (2, 4), is inserted first: detail vertex 0 at local (1, 1, 2). With E = 4 none is. */
static int32_t twinbump(int32_t x, int32_t z, int k) {
  if (k) return 0;
  return (x == 1 || x == 2 || x == 5 || x == 6) && (z == 3 || z == 4) ? 9 : 5;
}
OPT_TEST(detail_insert_tie, "POLY-253") {
  hand h;
  hchf c;
  flat_hand(&h, &c, twinbump);
  op_settings s = sampling(2, 1);
  op_detail_mesh d;
  op_error e;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK);
  OPT_CHECK(d.nverts >= 2);
  if (d.nverts >= 2) OPT_CHECK(d.verts[0] == 1.0f && d.verts[1] == 1.0f && d.verts[2] == 2.0f);
  op_detail_free(&d);
  s.detail_sample_max_error = 4;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK && d.nverts == 0);
  op_detail_free(&d);
}

/* POLY-208: a pentagon with edges of 30 to 60 cells sampled every cell (m = 31 or 32 per
** edge, 150 samples) on floors of scattered rows with E = 0 keeps more than 128 hull
** points: limit naming detail_sample_distance with its value; nothing is written. */
static int32_t scattered(int32_t x, int32_t z, int k) {
  if (k) return 0;
  uint32_t u = (uint32_t)(x + 100) * 2654435761u ^ (uint32_t)(z + 100) * 40503u;
  u ^= u >> 13;
  u *= 2246822519u;
  u ^= u >> 16;
  return 10 + (int32_t)(u % 1000);
}
OPT_TEST(detail_hull_limit, "POLY-208") {
  hand h;
  hand_init(&h, 0.5, 0.25);
  h.grid.width = h.grid.depth = 70;
  h.grid.gx0 = h.grid.gz0 = -3;
  op_error e;
  op_tilemap_init(&h.pm.map, &h.grid, 3, &e);
  int32_t v[15] = {0, 500, 0, 60, 500, 0, 63, 500, 30, 30, 500, 63, 0, 500, 40};
  int32_t vv[15];
  memcpy(vv, v, sizeof v);
  h.pm.verts = vv;
  h.pm.nverts = 5;
  static const uint16_t p[6] = {0, 1, 2, 3, 4, OP_PMESH_NULL};
  memcpy(h.polys, p, sizeof p);
  memset(h.neis, 0, sizeof h.neis);
  for (int i = 0; i < 5; i++) { /* the pentagon is convex and counter-clockwise */
    const int32_t *a = vv + 3 * i, *b = vv + 3 * ((i + 1) % 5), *c2 = vv + 3 * ((i + 2) % 5);
    OPT_CHECK((int64_t)(b[0] - a[0]) * (c2[2] - a[2]) - (int64_t)(b[2] - a[2]) * (c2[0] - a[0]) > 0);
  }
  static hchf c;
  hchf_make(&c, &h.grid, 3, scattered);
  op_settings s = sampling(1, 0);
  op_detail_mesh d;
  memset(&d, 0x5a, sizeof d);
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "detail_sample_distance") == 0 && strcmp(e.value, "1") == 0);
  OPT_CHECK(d.ndetail == 0x5a5a5a5au);
  /* with a tolerance of 2000 rows nothing is kept and the polygon builds */
  s.detail_sample_max_error = 2000;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK && d.nverts == 0 &&
            d.ntris == 3);
  op_detail_free(&d);
}

/* POLY-254: cs = 2^-10, ch = 1: FMT-011's bound is 16 rows above or below the origin (row
** 5); a bump at row 22 (17 above) is a limit naming cell_size; at row 21 it passes. */
static int32_t bump22(int32_t x, int32_t z, int k) {
  if (k) return 0;
  return x >= 3 && x <= 4 && z >= 3 && z <= 4 ? 22 : 5;
}
static int32_t bump21(int32_t x, int32_t z, int k) {
  if (k) return 0;
  return x >= 3 && x <= 4 && z >= 3 && z <= 4 ? 21 : 5;
}
OPT_TEST(detail_height_limit, "POLY-254") {
  hand h;
  hand_init(&h, 1.0 / 1024, 1.0);
  flat_rows(&h);
  hchf c;
  hchf_make(&c, &h.grid, 2, bump22);
  op_settings s = sampling(2, 1);
  op_detail_mesh d;
  op_error e;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "cell_size") == 0 && strcmp(e.value, "0.0009765625") == 0);
  hchf_make(&c, &h.grid, 2, bump21);
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK && d.nverts >= 1);
  op_detail_free(&d);
}

/* POLY-256 on random heightfields: floors drawn per column (one or two spans), three convex
** polygons on the hand-made tile, steps 1 to 3, tolerances 0 to 2 rows: every property of
** check_detail (coverage, Delaunay under G2D-203, flags, rows, tolerance) holds. Grids of
** samples make many points lie on one circle, so the tie rule decides often. */
static uint32_t rnd_state;
static uint32_t rnd(void) {
  rnd_state = rnd_state * 1664525u + 1013904223u;
  return rnd_state >> 8;
}
static int32_t rnd_floor[12][12][2];
static int32_t rnd_fn(int32_t x, int32_t z, int k) { return rnd_floor[z + 2][x + 2][k]; }

OPT_TEST(detail_random_fields, "POLY-256") {
  static const int32_t POLYS[3][12] = {
      {0, 0, 8, 0, 8, 8, 0, 8, -1},           /* square */
      {0, 0, 8, 0, 0, 7, -1},                 /* triangle */
      {3, 0, 8, 1, 7, 8, 1, 6, 0, 2, -1},     /* pentagon */
  };
  static const double ERR[4] = {0, 0.5, 1, 2};
  dstats st;
  memset(&st, 0, sizeof st);
  long builds = 0;
  for (uint32_t seed = 1; seed <= 30; seed++) {
    rnd_state = seed;
    int32_t range = seed % 3 == 0 ? 2 : seed % 3 == 1 ? 6 : 40;
    for (int z = 0; z < 12; z++)
      for (int x = 0; x < 12; x++) {
        rnd_floor[z][x][0] = 5 + (int32_t)(rnd() % (uint32_t)(range + 1));
        rnd_floor[z][x][1] = rnd() % 4 == 0 ? rnd_floor[z][x][0] + 30 : 0;
      }
    hand h;
    hand_init(&h, 0.3, 0.2);
    static hchf c;
    hchf_make(&c, &h.grid, 2, rnd_fn);
    for (int pi = 0; pi < 3; pi++) {
      int n = 0;
      while (n < 6 && POLYS[pi][2 * n] >= 0) n++;
      int32_t vv[18];
      for (int i = 0; i < n; i++) {
        int32_t x = POLYS[pi][2 * i], z = POLYS[pi][2 * i + 1];
        vv[3 * i] = x;
        vv[3 * i + 2] = z;
        vv[3 * i + 1] = rnd_floor[z + 2][x + 2][0]; /* a floor at the corner */
        h.polys[i] = (uint16_t)i;
        h.neis[i] = 0;
      }
      for (int i = n; i < 6; i++) h.polys[i] = OP_PMESH_NULL;
      h.pm.verts = vv;
      h.pm.nverts = (uint32_t)n;
      for (int i = 0; i < n; i++) { /* the polygons are strictly convex, counter-clockwise */
        const int32_t *a = vv + 3 * i, *b = vv + 3 * ((i + 1) % n), *d = vv + 3 * ((i + 2) % n);
        OPT_CHECK((int64_t)(b[0] - a[0]) * (d[2] - a[2]) - (int64_t)(b[2] - a[2]) * (d[0] - a[0]) > 0);
      }
      for (int32_t S = 1; S <= 3; S++)
        for (int ei = 0; ei < 4; ei++) {
          op_settings s = sampling(S == 1 ? 1.5 : (double)S, ERR[ei]);
          op_detail_mesh d;
          op_error e;
          OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK);
          check_detail(opt_s_, &h.pm, &c.chf, &s, &d, &st);
          OPT_CHECK(carries(&h, &d, 0));
          op_detail_free(&d);
          builds++;
        }
    }
  }
  printf("     %ld builds: %ld detail verts (%ld edge, %ld inner), %ld tris, %ld at 128 points\n",
         builds, st.verts, st.edge_samples, st.inserted, st.tris, st.full);
  OPT_CHECK(builds == 30 * 3 * 12 && st.inserted > 0);
}

/* POLY-200: a heightfield of another grid */
OPT_TEST(detail_grid_mismatch, "POLY-200") {
  hand h;
  hand_init(&h, 0.5, 0.25);
  hchf c;
  hchf_make(&c, &h.grid, 2, flat5);
  c.chf.grid.width = 11;
  op_settings s = sampling(6, 1);
  op_detail_mesh d;
  op_error e;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "chf.width") == 0 && strcmp(e.value, "11") == 0);
  c.chf.grid.width = 12;
  c.chf.grid.depth = 13;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "chf.depth") == 0);
  /* a polygon that is not strictly convex: vertex 2 moved onto vertex 1, (8, 0) */
  c.chf.grid.depth = 12;
  h.verts[2 * 3 + 0] = 8;
  h.verts[2 * 3 + 2] = 0;
  op_detail_mesh d2;
  memset(&d2, 0x5a, sizeof d2);
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d2, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "pmesh.polys[0]") == 0 && strcmp(e.value, "0") == 0);
  OPT_CHECK(d2.ndetail == 0x5a5a5a5au);
  /* without sampling the heightfield is not read (POLY-201) */
  s.detail_sample_distance = 0;
  OPT_CHECK(op_detail_build(&s, &h.pm, NULL, &d, &e) == OP_OK && d.ndetail == 0);
}

/* POLY-256: polygons are independent. The polygon mesh of a level tile with its polygons
** in reverse order gives, for each polygon, the same detail vertices and triangles. */
typedef struct shuf_ud {
  long compared;
} shuf_ud;
static void shuffle_tile(opt_state *opt_s_, const op_settings *s, const op_pmesh *pm,
                         const op_chf *chf, int32_t tx, int32_t tz, void *ud) {
  (void)tx;
  (void)tz;
  shuf_ud *u = ud;
  if (pm->npolys < 2) return;
  op_pmesh r = *pm;
  size_t nvp = pm->nvp, np = pm->npolys;
  r.polys = malloc(np * nvp * sizeof *r.polys);
  if (!r.polys) return;
  for (size_t p = 0; p < np; p++)
    memcpy(r.polys + p * nvp, pm->polys + (np - 1 - p) * nvp, nvp * sizeof *r.polys);
  op_detail_mesh a, b;
  op_error e;
  OPT_CHECK(op_detail_build(s, pm, chf, &a, &e) == OP_OK);
  OPT_CHECK(op_detail_build(s, &r, chf, &b, &e) == OP_OK);
  for (size_t p = 0; p < np; p++) {
    const op_detail_desc *x = &a.detail[p], *y = &b.detail[np - 1 - p];
    OPT_CHECK(x->vert_count == y->vert_count && x->tri_count == y->tri_count);
    if (x->vert_count != y->vert_count || x->tri_count != y->tri_count) continue;
    OPT_CHECK(x->vert_count == 0 ||
              memcmp(a.verts + 3 * (size_t)x->vert_base, b.verts + 3 * (size_t)y->vert_base,
                     12 * (size_t)x->vert_count) == 0);
    OPT_CHECK(memcmp(a.tris + 4 * (size_t)x->tri_base, b.tris + 4 * (size_t)y->tri_base,
                     4 * (size_t)x->tri_count) == 0);
    u->compared++;
  }
  op_detail_free(&a);
  op_detail_free(&b);
  free(r.polys);
}
OPT_TEST(detail_polygon_independent, "POLY-256") {
  shuf_ud u = {0};
  op_settings s = sampled("Humanoid", 0, 6, 1);
  each_tile(opt_s_, "terrain", 24, &s, shuffle_tile, &u);
  s = sampled("Small", 1, 3, 0.5);
  each_tile(opt_s_, "stairs", 8, &s, shuffle_tile, &u);
  OPT_CHECK(u.compared > 20);
}

/* ------------------------------------------- the port review's worked example */

/* docs/reviews/port-review-detail.md, "Worked example": expected values are the reviewer's
** derivation from the spec text alone (no reference output seen). CellSize 0.3, CellHeight
** 0.2, TileSize 16, Border 3 (grid 22 x 22), S = 6, E = 1; one square polygon
** v0 (0,10,0), v1 (12,10,0), v2 (12,10,12), v3 (0,10,12); every column one span at row 10
** except: A: cells x, z in {5, 6} at row 20; B: A and cells x in {11, 12}, z in {3, 4} at
** row 14. Detail vertices as binary32 bit patterns (x, y, z). */
static int32_t review_c(int32_t x, int32_t z, int k) { (void)x; (void)z; return k ? 0 : 10; }
static int32_t review_a(int32_t x, int32_t z, int k) {
  if (k) return 0;
  return (x == 5 || x == 6) && (z == 5 || z == 6) ? 20 : 10;
}
static int32_t review_b(int32_t x, int32_t z, int k) {
  if (k) return 0;
  if ((x == 11 || x == 12) && (z == 3 || z == 4)) return 14;
  return review_a(x, z, k);
}
static uint32_t f32bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
typedef struct review_case {
  floor_fn fn;
  uint32_t nverts, ntris;
  uint32_t verts[3][3]; /* binary32 bits */
  uint8_t tris[6][4];
} review_case;

OPT_TEST(detail_review_example, "POLY-209") {
  static const review_case CASES[3] = {
      /* C (flat): POLY-209's ranks (G2D-010) give the diagonal v0-v2 (F3) */
      {review_c, 0, 2, {{0}}, {{0, 1, 2, 0x05}, {0, 2, 3, 0x14}}},
      /* A: candidate (6, 6) at row 20, error 10 > 1: inserted (POLY-253) */
      {review_a, 1, 4, {{0x3fe66666, 0x40000000, 0x3fe66666}},
       {{0, 1, 4, 0x01}, {0, 4, 3, 0x10}, {1, 2, 4, 0x01}, {2, 3, 4, 0x01}}},
      /* B: edge 1 keeps (192, 64) row 14 and (192, 128) row 10 (POLY-207), then (6, 6) */
      {review_b, 3, 6,
       {{0x40666666, 0x3f4ccccd, 0x3f99999a}, {0x40666666, 0x00000000, 0x4019999a},
        {0x3fe66666, 0x40000000, 0x3fe66666}},
       {{0, 1, 6, 0x01}, {0, 6, 3, 0x10}, {1, 4, 6, 0x01}, {2, 3, 6, 0x01}, {2, 6, 5, 0x10},
        {4, 5, 6, 0x01}}},
  };
  hand h;
  hand_init(&h, 0.3, 0.2);
  h.grid.width = h.grid.depth = 22;
  h.grid.gx0 = h.grid.gz0 = -3;
  h.tiling.tile_cells = 16;
  op_error e;
  OPT_CHECK(op_tilemap_init(&h.pm.map, &h.grid, 3, &e) == OP_OK);
  static const int32_t v[12] = {0, 10, 0, 12, 10, 0, 12, 10, 12, 0, 10, 12};
  memcpy(h.verts, v, sizeof v);
  memset(h.neis, 0, sizeof h.neis); /* walls: the square does not reach the tile's sides */
  op_settings s = sampling(6, 1);
  for (int ci = 0; ci < 3; ci++) {
    const review_case *rc = &CASES[ci];
    static hchf c;
    hchf_make(&c, &h.grid, 3, rc->fn);
    op_detail_mesh d;
    OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK);
    OPT_CHECK(d.ndetail == 1 && d.nverts == rc->nverts && d.ntris == rc->ntris);
    if (d.ndetail != 1 || d.nverts != rc->nverts || d.ntris != rc->ntris) {
      op_detail_free(&d);
      continue;
    }
    OPT_CHECK(d.detail[0].vert_base == 0 && d.detail[0].tri_base == 0 &&
              d.detail[0].vert_count == rc->nverts && d.detail[0].tri_count == rc->ntris);
    for (uint32_t i = 0; i < rc->nverts; i++)
      for (int k = 0; k < 3; k++) {
        OPT_CHECK(f32bits(d.verts[3 * i + k]) == rc->verts[i][k]);
        if (f32bits(d.verts[3 * i + k]) != rc->verts[i][k])
          fprintf(stderr, "  variant %d vert %u.%d: %08x\n", ci, i, k,
                  (unsigned)f32bits(d.verts[3 * i + k]));
      }
    for (uint32_t t = 0; t < rc->ntris; t++) {
      OPT_CHECK(memcmp(d.tris + 4 * t, rc->tris[t], 4) == 0);
      if (memcmp(d.tris + 4 * t, rc->tris[t], 4) != 0)
        fprintf(stderr, "  variant %d tri %u: %u %u %u %02x\n", ci, t, d.tris[4 * t],
                d.tris[4 * t + 1], d.tris[4 * t + 2], d.tris[4 * t + 3]);
    }
    /* the reviewer's intermediate values (POLY-254): the roundings written out */
    volatile double cs = 0.3, ch = 0.2, X96 = 96, X192 = 192, Z64 = 64, r14 = 14, r10 = 10;
    OPT_CHECK(f32bits((float)((X96 * cs) / 16)) == 0x3fe66666u);
    OPT_CHECK(f32bits((float)((X192 * cs) / 16)) == 0x40666666u);
    OPT_CHECK(f32bits((float)((Z64 * cs) / 16)) == 0x3f99999au);
    OPT_CHECK(f32bits((float)(-(r10 * ch) + r14 * ch)) == 0x3f4ccccdu);
    /* and the tile carries it */
    OPT_CHECK(carries(&h, &d, 0));
    op_detail_free(&d);
  }
}

/* POLY-200: the polygon shape check (strict left turns, once around as FMT-018 counts it,
** vertices on the tile's own cells with rows 0 .. 65535) and the two settings read. The
** pentagram P0 P2 P4 P1 P3 of the pentagon P0..P4 = (8,0) (15,6) (12,15) (4,15) (1,6) turns
** left at every corner (orients 129, 126, 126, 129, 120) but goes around twice: its edges
** are upward, not, upward (dz 0, dx 14), upward, not, so an upward edge follows a
** non-upward one twice (edges 0 and 2): count 2, rejected. The earlier check (turns
** only) accepted it. */
OPT_TEST(detail_polygon_shape, "POLY-200") {
  hand h;
  hand_init(&h, 0.3, 0.2);
  h.grid.width = h.grid.depth = 22;
  h.grid.gx0 = h.grid.gz0 = -3;
  op_error e;
  OPT_CHECK(op_tilemap_init(&h.pm.map, &h.grid, 3, &e) == OP_OK);
  static hchf c;
  hchf_make(&c, &h.grid, 3, review_c);
  op_settings s = sampling(6, 1);
  int32_t star[15] = {8, 10, 0, 12, 10, 15, 1, 10, 6, 15, 10, 6, 4, 10, 15};
  h.pm.verts = star;
  h.pm.nverts = 5;
  static const uint16_t p5[6] = {0, 1, 2, 3, 4, OP_PMESH_NULL};
  memcpy(h.polys, p5, sizeof p5);
  memset(h.neis, 0, sizeof h.neis);
  op_detail_mesh d;
  memset(&d, 0x5a, sizeof d);
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_E_ARGUMENT);
  OPT_CHECK(strcmp(e.field, "pmesh.polys[0]") == 0 && strcmp(e.value, "0") == 0);
  OPT_CHECK(d.ndetail == 0x5a5a5a5au);
  /* the same five points as the pentagon (8,0) (15,6) (12,15) (4,15) (1,6): it builds */
  int32_t pent[15] = {8, 10, 0, 15, 10, 6, 12, 10, 15, 4, 10, 15, 1, 10, 6};
  h.pm.verts = pent;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK && d.ndetail == 1);
  op_detail_free(&d);
  /* a vertex beyond the tile's own cells (x 17 > W_own 16), a row above 65535 */
  pent[3] = 17;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_E_ARGUMENT &&
            strcmp(e.field, "pmesh.polys[0]") == 0);
  pent[3] = 15;
  pent[4] = 65536;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_E_ARGUMENT &&
            strcmp(e.field, "pmesh.polys[0]") == 0);
  pent[4] = 65535;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK);
  op_detail_free(&d);
  pent[4] = 10;
  /* the settings' two fields, by SPAN-030 rows 14 and 15, before anything else */
  s.detail_sample_distance = NAN;
  OPT_CHECK(op_detail_build(&s, &h.pm, NULL, &d, &e) == OP_E_RANGE &&
            strcmp(e.field, "detail_sample_distance") == 0 && strcmp(e.value, "NaN") == 0);
  s.detail_sample_distance = 0; /* no sampling, but the tolerance is still checked */
  s.detail_sample_max_error = -1;
  OPT_CHECK(op_detail_build(&s, &h.pm, NULL, &d, &e) == OP_E_RANGE &&
            strcmp(e.field, "detail_sample_max_error") == 0 && strcmp(e.value, "-1") == 0);
  /* sampling without a heightfield: argument chf */
  s = sampling(6, 1);
  OPT_CHECK(op_detail_build(&s, &h.pm, NULL, &d, &e) == OP_E_ARGUMENT &&
            strcmp(e.field, "chf") == 0);
}

/* POLY-254 (review F5): the height bound is compared with the stored binary32 value. cs =
** ch = 0.3, vertex rows 0 (Y = 0): a bump at row 16384 gives fl(16384 * 0.3), which is the
** bound 16384 * CellSize itself in binary64, but rounds up to the binary32 4915.2001953125
** above it: a limit naming cell_size. (Compared before the rounding it would pass.) Row
** 16383 gives 4914.9 and passes. */
static int32_t bump16384(int32_t x, int32_t z, int k) {
  if (k) return 0;
  return x >= 3 && x <= 4 && z >= 3 && z <= 4 ? 16384 : 0;
}
static int32_t bump16383(int32_t x, int32_t z, int k) {
  if (k) return 0;
  return x >= 3 && x <= 4 && z >= 3 && z <= 4 ? 16383 : 0;
}
OPT_TEST(detail_height_limit_f32, "POLY-254") {
  volatile double cs = 0.3, r = 16384;
  double bound = 16384.0 * cs, v = r * cs;
  OPT_CHECK(v == bound && (double)(float)v > bound && (float)v == 4915.2001953125f);
  hand h;
  hand_init(&h, 0.3, 0.3);
  for (int i = 0; i < 4; i++) h.verts[3 * i + 1] = 0;
  static hchf c;
  hchf_make(&c, &h.grid, 2, bump16384);
  op_settings s = sampling(2, 1);
  op_detail_mesh d;
  op_error e;
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_E_LIMIT);
  OPT_CHECK(strcmp(e.field, "cell_size") == 0 && strcmp(e.value, "0.3") == 0);
  hchf_make(&c, &h.grid, 2, bump16383);
  OPT_CHECK(op_detail_build(&s, &h.pm, &c.chf, &d, &e) == OP_OK && d.nverts >= 1);
  op_detail_free(&d);
}

OPT_MAIN_BEGIN
OPT_RUN(detail_rule);
OPT_RUN(detail_step);
OPT_RUN(no_detail_mesh);
OPT_RUN(detail_flat_square);
OPT_RUN(detail_bump);
OPT_RUN(detail_height_tie);
OPT_RUN(detail_edge_sample);
OPT_RUN(detail_edge_tie);
OPT_RUN(detail_insert_tie);
OPT_RUN(detail_hull_limit);
OPT_RUN(detail_height_limit);
OPT_RUN(detail_grid_mismatch);
OPT_RUN(detail_random_fields);
OPT_RUN(detail_polygon_independent);
OPT_RUN(detail_review_example);
OPT_RUN(detail_polygon_shape);
OPT_RUN(detail_height_limit_f32);
OPT_RUN(detail_properties_levels);
OPT_RUN(detail_tile_seams);
OPT_RUN(assemble_exact);
OPT_RUN(assemble_roundings);
OPT_RUN(assemble_empty);
OPT_RUN(assemble_outside);
OPT_RUN(assemble_height_limit);
OPT_RUN(assemble_nvp);
OPT_MAIN_END
