/*
** test_shrink.c -- the shrink by the agent radius (spec/build2d-geometry.md section 5).
** Expected values are worked out by hand from the clauses (step counts, the rounded
** rectangles and polygons) or bounded by the exact erosion area.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "build2d/geometry/g2d.h"
#include "optest.h"

static int ring_is(const g2_region *r, size_t k, const int64_t *xy, size_t n) {
  if (k >= r->nrings || r->ring_start[k + 1] - r->ring_start[k] != n) return 0;
  for (size_t i = 0; i < n; i++) {
    g2_point p = r->pts[r->ring_start[k] + i];
    if (p.x != xy[2 * i] || p.y != xy[2 * i + 1]) return 0;
  }
  return 1;
}

static op_status region_of(const double *xy, size_t n, int sb, g2_region *r) {
  g2_outline o = {xy, n};
  return g2_region_from_outlines(&o, 1, sb, r, NULL);
}

OPT_TEST(arc_steps, "G2D-123") {
  /* radius 0.6, cell 0.3 (Humanoid): tol = max(0.075, min(0.0495, 0.15)) = 0.075;
  ** 8 tol / r = 1, pi/2 / 1 = 1.57 -> m = 2 -> 8 */
  OPT_CHECK(g2_arc_steps(0.6, 0.3) == 8);
  /* Large: r 1.5, cell 0.5: tol = 0.125, 1/1.5 -> sqrt 0.8165, 1.9238 -> 2 -> 8 */
  OPT_CHECK(g2_arc_steps(1.5, 0.5) == 8);
  /* r 10, cell 0.3: tol = max(0.075, min(0.825, 0.15)) = 0.15; 1.2 / 10 = 0.12,
  ** sqrt 0.34641, 1.5708 / 0.34641 = 4.534 -> 5 -> 20 (sagitta 10 (1 - cos(pi/20)) =
  ** 0.123 <= 0.15) */
  OPT_CHECK(g2_arc_steps(10, 0.3) == 20);
  /* r 1000, cell 0.001: tol 0.0005, w = 785 > 256 -> 1024 */
  OPT_CHECK(g2_arc_steps(1000, 0.001) == 1024);
  /* tiny radius: 8 tol / r large -> w < 2 -> 8 */
  OPT_CHECK(g2_arc_steps(0.001, 1) == 8);
}

OPT_TEST(square_shrinks_exactly, "G2D-126") {
  /* [0,10]^2 at snap 0, radius 1: all corners convex, no polygons; each edge's
  ** rectangle has offsets (0, -1) etc. exactly -> [1,9]^2 */
  static const double sq[] = {0, 0, 10, 0, 10, 10, 0, 10};
  static const int64_t want[] = {1, 1, 9, 1, 9, 9, 1, 9};
  g2_region r = {0}, s = {0};
  OPT_CHECK(region_of(sq, 4, 0, &r) == OP_OK);
  OPT_CHECK(g2_region_shrink(&r, 1.0, 1.0, &s, NULL) == OP_OK);
  OPT_CHECK(s.nrings == 1 && ring_is(&s, 0, want, 4));
  g2_region_free(&s);
  /* radius 0 copies (G2D-121) */
  OPT_CHECK(g2_region_shrink(&r, 0.0, 1.0, &s, NULL) == OP_OK);
  OPT_CHECK(s.nrings == 1 && s.npts == 4 && s.pts[2].x == 10 && s.pts[2].y == 10);
  g2_region_free(&s);
  /* radius 5 or more removes everything */
  OPT_CHECK(g2_region_shrink(&r, 5.0, 1.0, &s, NULL) == OP_OK && s.nrings == 0);
  g2_region_free(&s);
  g2_region_free(&r);
}

OPT_TEST(reflex_corner_coarse, "G2D-125") {
  /* L: (0,0) (10,0) (10,4) (4,4) (4,10) (0,10), reflex at (4,4); snap 0, radius 1,
  ** cell 1 -> n = 8 (tol 0.25, 8 tol / r = 2, 1.5708 / 1.414 = 1.11 -> 2). rho =
  ** sqrt((pi/4) / sin(pi/4)) = 1.0539; the octagon's vertices round to the square
  ** [3,5]^2 (4 + 1.0539 -> 5, 4 + 0.745 -> 5, ...), which adds nothing beyond the two
  ** rectangles' corner: result (1,1) (9,1) (9,3) (3,3) (3,9) (1,9). */
  static const double L[] = {0, 0, 10, 0, 10, 4, 4, 4, 4, 10, 0, 10};
  static const int64_t want[] = {1, 1, 9, 1, 9, 3, 3, 3, 3, 9, 1, 9};
  g2_region r = {0}, s = {0};
  OPT_CHECK(region_of(L, 6, 0, &r) == OP_OK);
  OPT_CHECK(g2_region_shrink(&r, 1.0, 1.0, &s, NULL) == OP_OK);
  OPT_CHECK(s.nrings == 1 && ring_is(&s, 0, want, 6));
  g2_region_free(&s);
  g2_region_free(&r);
}

OPT_TEST(reflex_corner_area, "G2D-124") {
  /* The same L at snap 8, radius 1, cell 0.25 (n = 4 ceil(1.5708 / sqrt(8 * 0.0825)) =
  ** 4 * 2 = 8). Exact erosion: [1,9]x[1,3] U [1,3]x[3,9] U ([3,4]^2 minus the unit disk
  ** at (4,4)): area 16 + 12 + 1 - pi/4 = 28.2146. The polygon has the disk's area and
  ** quarter symmetry, so only rounding (half a unit of 1/256 along ~40 units of
  ** boundary, about 0.08) separates the result from it. */
  static const double L[] = {0, 0, 10, 0, 10, 4, 4, 4, 4, 10, 0, 10};
  g2_region r = {0}, s = {0};
  OPT_CHECK(region_of(L, 6, 8, &r) == OP_OK);
  OPT_CHECK(g2_arc_steps(1.0, 0.25) == 8);
  OPT_CHECK(g2_region_shrink(&r, 1.0, 0.25, &s, NULL) == OP_OK);
  double area = (double)g2_region_area2(&s) / 2.0 / 65536.0;
  double exact = 29.0 - 3.14159265358979 / 4;
  OPT_CHECK(s.nrings == 1);
  OPT_CHECK(fabs(area - exact) < 0.02);
  /* every vertex of the result is at least the radius (minus a unit) away from the
  ** reflex vertex (4,4) = (1024, 1024) on the grid */
  for (size_t i = 0; i < s.npts; i++) {
    double dx = (double)(s.pts[i].x - 1024), dy = (double)(s.pts[i].y - 1024);
    OPT_CHECK(sqrt(dx * dx + dy * dy) >= 256.0 - 1.0);
  }
  g2_region_free(&s);
  g2_region_free(&r);
}

OPT_TEST(thin_parts_vanish, "G2D-128") {
  /* a 10 x 1.5 bar shrunk by 1 is empty; a dumbbell keeps two squares apart */
  static const double bar[] = {0, 0, 10, 0, 10, 1.5, 0, 1.5};
  static const double db[] = {0, 0, 6, 0, 6, 2, 10, 2, 10, 0, 16, 0,
                              16, 6, 10, 6, 10, 4, 6, 4, 6, 6, 0, 6};
  g2_region r = {0}, s = {0};
  OPT_CHECK(region_of(bar, 4, 4, &r) == OP_OK);
  OPT_CHECK(g2_region_shrink(&r, 1.0, 0.5, &s, NULL) == OP_OK && s.nrings == 0);
  g2_region_free(&s);
  g2_region_free(&r);
  /* two 6 x 6 squares joined by a neck [6,10]x[2,4], snap 0, radius 1, n = 8: the neck
  ** (2 high) erodes to nothing; the octagons at the reflex corners (6,2), (6,4), (10,2),
  ** (10,4) round to the squares [5,7]x[1,3], [5,7]x[3,5], ... which with the rectangles
  ** of the edges x = 6 and x = 10 cover x in [5,7] and [9,11] completely: what is left is
  ** [1,5]x[1,5] and [11,15]x[1,5]. */
  OPT_CHECK(region_of(db, 12, 0, &r) == OP_OK);
  OPT_CHECK(g2_region_shrink(&r, 1.0, 1.0, &s, NULL) == OP_OK);
  static const int64_t w0[] = {1, 1, 5, 1, 5, 5, 1, 5};
  static const int64_t w1[] = {11, 1, 15, 1, 15, 5, 11, 5};
  OPT_CHECK(s.nrings == 2 && ring_is(&s, 0, w0, 4) && ring_is(&s, 1, w1, 4));
  g2_region_free(&s);
  g2_region_free(&r);
}

OPT_TEST(shrink_errors, "G2D-120") {
  static const double sq[] = {0, 0, 10, 0, 10, 10, 0, 10};
  g2_region r = {0}, s = {0};
  op_error e;
  OPT_CHECK(region_of(sq, 4, 0, &r) == OP_OK);
  OPT_CHECK(g2_region_shrink(&r, -1.0, 1.0, &s, &e) == OP_E_RANGE &&
            strcmp(e.field, "AgentRadius") == 0 && s.pts == NULL);
  OPT_CHECK(g2_region_shrink(&r, 0.0 / 0.0, 1.0, &s, &e) == OP_E_RANGE &&
            strcmp(e.field, "AgentRadius") == 0);
  OPT_CHECK(g2_region_shrink(&r, 1.0, 0.0, &s, &e) == OP_E_RANGE &&
            strcmp(e.field, "CellSize") == 0);
  g2_region_free(&r);
  /* a region at the edge of the grid: its shrink reaches beyond 2^37 */
  static const double edge[] = {2097150, 0, 2097152, 0, 2097152, 4, 2097150, 4};
  OPT_CHECK(region_of(edge, 4, 16, &r) == OP_OK);
  OPT_CHECK(g2_region_shrink(&r, 1.0, 1.0, &s, &e) == OP_E_RANGE &&
            strcmp(e.field, "AgentRadius") == 0 && s.pts == NULL);
  g2_region_free(&r);
}

static uint64_t rng_next(uint64_t *s) {
  *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
  return *s;
}

/* winding of the rings around (x + 1/2, y + 1/2) (grid units), by a ray to the right */
static int wind_at(const g2_region *r, int64_t px, int64_t py) {
  int w = 0;
  for (size_t k = 0; k < r->nrings; k++) {
    size_t a = r->ring_start[k], b = r->ring_start[k + 1];
    for (size_t i = a; i < b; i++) {
      g2_point p = r->pts[i], q = r->pts[i + 1 < b ? i + 1 : a];
      int64_t y2 = 2 * py + 1, x2 = 2 * px + 1, py2 = 2 * p.y, qy2 = 2 * q.y;
      if ((py2 < y2) == (qy2 < y2)) continue;
      g2_i128 num = (g2_i128)(y2 - py2) * (2 * (q.x - p.x)) + (g2_i128)(2 * p.x - x2) * (qy2 - py2);
      if ((qy2 > py2) ? num > 0 : num < 0) w += (qy2 > py2) ? 1 : -1;
    }
  }
  return w;
}

static double seg_dist(double px, double py, g2_point a, g2_point b) {
  double dx = (double)(b.x - a.x), dy = (double)(b.y - a.y);
  double t = ((px - (double)a.x) * dx + (py - (double)a.y) * dy) / (dx * dx + dy * dy);
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  double ex = (double)a.x + t * dx - px, ey = (double)a.y + t * dy - py;
  return sqrt(ex * ex + ey * ey);
}

OPT_TEST(random_shrink_properties, "G2D-128") {
  /* random polygons at snap 4 (unit 1/16), radius 0.75, cell 0.5: the result lies inside
  ** the region, and every result vertex is at least radius - tol - 2 units from every
  ** boundary edge of the region (tol = max(0.125, min(0.061875, 0.25)) = 0.125) */
  uint64_t seed = 0x7777aaaa5555ccccull;
  int nonempty = 0;
  for (int trial = 0; trial < 25; trial++) {
    double xy[2 * 9];
    size_t n = 4 + rng_next(&seed) % 6;
    for (size_t j = 0; j < 2 * n; j++) xy[j] = (double)(rng_next(&seed) % 161) / 16.0;
    g2_region r = {0}, s = {0};
    OPT_CHECK(region_of(xy, n, 4, &r) == OP_OK);
    OPT_CHECK(g2_region_shrink(&r, 0.75, 0.5, &s, NULL) == OP_OK);
    int outside = 0;
    for (int64_t x = -2; x < 164; x += 3)
      for (int64_t y = -2; y < 164; y += 3)
        if (wind_at(&s, x, y) != 0 && wind_at(&r, x, y) == 0) outside++;
    OPT_CHECK(outside == 0);
    double need = 0.75 * 16 - 0.125 * 16 - 2;
    int close = 0;
    for (size_t i = 0; i < s.npts; i++)
      for (size_t k = 0; k < r.nrings; k++) {
        size_t a = r.ring_start[k], b = r.ring_start[k + 1];
        for (size_t e = a; e < b; e++)
          if (seg_dist((double)s.pts[i].x, (double)s.pts[i].y, r.pts[e],
                       r.pts[e + 1 < b ? e + 1 : a]) < need) close++;
      }
    OPT_CHECK(close == 0);
    OPT_CHECK(g2_region_area2(&s) <= g2_region_area2(&r));
    nonempty += s.nrings > 0;
    g2_region_free(&s);
    g2_region_free(&r);
  }
  OPT_CHECK(nonempty >= 10); /* the test is not vacuous */
}

OPT_MAIN_BEGIN
OPT_RUN(arc_steps);
OPT_RUN(square_shrinks_exactly);
OPT_RUN(reflex_corner_coarse);
OPT_RUN(reflex_corner_area);
OPT_RUN(thin_parts_vanish);
OPT_RUN(shrink_errors);
OPT_RUN(random_shrink_properties);
OPT_MAIN_END
