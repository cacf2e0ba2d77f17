/*
** cmd_path.c -- `onepath path` (docs/cli.md): FindPath and FindStraightPath (spec/query.md,
** QRY-061 .. QRY-069, QRY-080 .. QRY-085) between two world points on a mesh, tile-cache-free:
** a mesh or snapshot file (--mesh FILE) or a 3D build (the input and settings of build).
** Prints the answer (found, or no_path with its reason and the partial route; the accepted
** endpoints; the polygons by canonical id; the corners) and, with --svg FILE, draws the
** corridor and the straight path over the mesh picture of `onepath svg --mesh`
** (draw_mesh.c, cli_svg_mesh_draw_ex).
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "onepath_query.h"

typedef struct path_opts {
  cli_input3d in;
  const char *mesh, *svg, *color;
  double from[3], to[3];
  int have_from, have_to;
  uint32_t max_nodes, max_path;
  op_crossings crossings;
} path_opts;

/* What the picture draws: the corridor (or partial route) and the straight path. */
typedef struct path_pic {
  const op_mesh *m;
  const op_query_poly *polys;
  uint32_t npolys;
  const op_query_corner *corners;
  uint32_t ncorners;
  int found;
  double from[3], to[3];
} path_pic;

/* X,Y,Z: exactly three numbers. */
static int parse_point(const char *v, double p[3]) {
  char buf[200];
  if (strlen(v) >= sizeof buf) return -1;
  snprintf(buf, sizeof buf, "%s", v);
  char *s = buf;
  for (int k = 0; k < 3; k++) {
    char *c = strchr(s, ',');
    if ((k < 2) != (c != NULL)) return -1; /* two commas, no third */
    if (c) *c = 0;
    if (cli_parse_double(s, &p[k])) return -1;
    if (c) s = c + 1;
  }
  return 0;
}

static int parse_u32(cli_ctx *ctx, const char *opt, const char *v, long long hi, uint32_t *out) {
  long long n;
  if (cli_parse_i64(v, 1, hi, &n))
    return cli_usage_error(ctx, "%s '%s': expected an integer in 1..%lld", opt, v, hi);
  *out = (uint32_t)n;
  return 0;
}

/* One option of path that is not an input option; 0 or the exit code. */
static int path_option(cli_ctx *ctx, cli_args *a, path_opts *o) {
  const char *w = a->argv[a->i], *v;
  int pt = !strcmp(w, "--from") ? 1 : !strcmp(w, "--to") ? 2 : 0;
  if (pt) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    if (parse_point(v, pt == 1 ? o->from : o->to))
      return cli_usage_error(ctx, "%s '%s': expected X,Y,Z (three numbers)", w, v);
    *(pt == 1 ? &o->have_from : &o->have_to) = 1;
  } else if (!strcmp(w, "--mesh")) {
    if (!(o->mesh = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
  } else if (!strcmp(w, "--svg")) {
    if (!(o->svg = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
  } else if (!strcmp(w, "--color")) {
    if (!(o->color = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    if (strcmp(o->color, "area") && strcmp(o->color, "poly") && strcmp(o->color, "tile"))
      return cli_usage_error(ctx, "--color '%s': expected area, poly or tile", o->color);
  } else if (!strcmp(w, "--crossings")) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    if (!strcmp(v, "none")) o->crossings = OP_CROSS_NONE;
    else if (!strcmp(v, "area")) o->crossings = OP_CROSS_AREA;
    else if (!strcmp(v, "all")) o->crossings = OP_CROSS_ALL;
    else return cli_usage_error(ctx, "--crossings '%s': expected none, area or all", v);
  } else if (!strcmp(w, "--max-nodes")) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    return parse_u32(ctx, w, v, OP_QUERY_MAX_NODES, &o->max_nodes);
  } else if (!strcmp(w, "--max-path")) {
    if (!(v = cli_opt_value(ctx, a))) return CLI_EXIT_USAGE;
    return parse_u32(ctx, w, v, OP_QUERY_MAX_PATH, &o->max_path);
  } else {
    return cli_usage_error(ctx, "unknown argument '%s'", w);
  }
  return 0;
}

static int path_check(cli_ctx *ctx, path_opts *o) {
  const cli_input3d *in = &o->in;
  if (o->mesh && (in->obj || in->level || in->nsets))
    return cli_usage_error(ctx, "--mesh reads a file: it takes no --obj, --level or --set");
  if (!o->mesh && !in->obj && !in->level)
    return cli_usage_error(ctx, "give --mesh FILE, or --obj FILE / --level NAME to build one");
  if (!o->have_from || !o->have_to)
    return cli_usage_error(ctx, "give --from X,Y,Z and --to X,Y,Z");
  return o->mesh ? 0 : cli_input_finish(ctx, &o->in);
}

static void print_id(const op_query_poly *p) {
  printf("(%" PRId32 ",%" PRId32 ",%" PRId32 ",%" PRIu32 ")", p->id.x, p->id.z, p->id.layer,
         p->id.poly);
}

static void print_point(const double p[3]) {
  printf("%.9g,%.9g,%.9g", p[0], p[1], p[2]);
}

static void print_endpoint(const char *name, const op_query_poly *p, const double pt[3]) {
  printf("%s: polygon ", name);
  print_id(p);
  printf(" ref %016" PRIx64 ", point ", p->ref);
  print_point(pt);
  printf("\n");
}

static void print_polys(const char *name, const op_query_poly *p, uint32_t n) {
  printf("%s (%" PRIu32 " polygon%s):", name, n, n == 1 ? "" : "s");
  for (uint32_t i = 0; i < n; i++) {
    printf(i % 8 == 0 ? "\n  " : " ");
    print_id(&p[i]);
  }
  printf("\n");
}

static void print_corners(const op_query_corner *c, uint32_t n) {
  printf("corners (%" PRIu32 "):\n", n);
  for (uint32_t i = 0; i < n; i++) {
    printf("  %3" PRIu32 "  ", i);
    print_point(c[i].point);
    printf("  %s%s%s  polygon ", c[i].flags & OP_CORNER_START ? "START" : "",
           (c[i].flags & OP_CORNER_START) && (c[i].flags & OP_CORNER_END) ? "|" : "",
           c[i].flags & OP_CORNER_END ? "END" : c[i].flags ? "" : "-");
    print_id(&c[i].poly);
    printf("\n");
  }
}

/* ------------------------------------------------------------------ the picture */

static void pic_legend(svg_scene *sc, const void *ud) {
  const path_pic *pp = ud;
  svg_legend_add(sc, pp->found ? "#ffd400" : "#ff8c00", 0,
                 pp->found ? "path corridor" : "partial route (no path)");
  svg_legend_add(sc, "#0033cc", 1, "straight path, corners");
  svg_legend_add(sc, "#00a000", 0, "--from");
  svg_legend_add(sc, "#cc0000", 0, "--to");
}

/* The world (x, z) outline of polygon p; its layer in *layer; the vertex count or 0. */
static int poly_outline(const op_mesh *m, const op_query_poly *p, double *xz, int32_t *layer) {
  op_mesh_tile te;
  if (op_mesh_tile_by_ref(m, p->ref, &te, NULL) != OP_OK) return 0;
  op_tile_desc v;
  op_tile_view(te.tile, &v);
  double x0, z0;
  cli_tile_world_origin(&v, &x0, &z0);
  const op_poly_desc *pd = &v.polys[p->id.poly];
  for (int j = 0; j < pd->nverts; j++) {
    const float *l = &v.verts[3 * pd->verts[j]];
    xz[2 * j] = x0 + (double)l[0];
    xz[2 * j + 1] = z0 + (double)l[2];
  }
  *layer = te.layer;
  return pd->nverts;
}

static void pic_draw(svg_scene *sc, int panel, int32_t layer, const void *ud) {
  const path_pic *pp = ud;
  double xz[2 * OP_MAX_VERTS_PER_POLY];
  for (uint32_t i = 0; i < pp->npolys; i++) {
    int32_t ly;
    int n = poly_outline(pp->m, &pp->polys[i], xz, &ly);
    if (n && ly == layer)
      svg_path(sc, panel, xz, n, 1, pp->found ? "#ffd400" : "#ff8c00", 0.55, "#7a5c00", 1.2, 0);
  }
  for (uint32_t i = 0; i + 1 < pp->ncorners; i++) {
    const double *a = pp->corners[i].point, *b = pp->corners[i + 1].point;
    svg_line(sc, panel, a[0], a[2], b[0], b[2], "#0033cc", 2.5, 0);
  }
  for (uint32_t i = 0; i < pp->ncorners; i++)
    svg_dot(sc, panel, pp->corners[i].point[0], pp->corners[i].point[2], 3.0, "#0033cc");
  svg_dot(sc, panel, pp->from[0], pp->from[2], 5.0, "#00a000");
  svg_dot(sc, panel, pp->to[0], pp->to[2], 5.0, "#cc0000");
}

static int write_svg(cli_ctx *ctx, const path_opts *o, const cli_mesh *l, const path_pic *pp) {
  FILE *f = fopen(o->svg, "w");
  if (!f) return cli_fail(ctx, "cannot create '%s': %s", o->svg, strerror(errno));
  char title[200];
  snprintf(title, sizeof title, "onepath path on %.24s %.80s: %s, %" PRIu32 " polygons, %" PRIu32
           " corners", l->kind, o->mesh ? o->mesh : o->in.label,
           pp->found ? "found" : "no path", pp->npolys, pp->ncorners);
  cli_layer_pick pk;
  memset(&pk, 0, sizeof pk);
  pk.hi = 255;
  cli_drawing dr = {pic_legend, pic_draw, pp};
  int rc = cli_svg_mesh_draw_ex(ctx, l, title, o->color, &pk, NULL, &dr, f);
  if (fclose(f) && !rc) rc = cli_fail(ctx, "cannot write '%s'", o->svg);
  if (!rc) printf("svg: %s\n", o->svg);
  return rc;
}

/* ------------------------------------------------------------------ the query */

/* FindPath, then FindStraightPath over the path (or the partial route); prints and draws. */
static int run_query(cli_ctx *ctx, const path_opts *o, const cli_mesh *l) {
  op_query *q = NULL;
  op_error e;
  if (op_query_create(l->mesh, o->max_nodes, &q, &e)) return cli_fail_op(ctx, "Create", &e);
  op_query_path r;
  int rc = 0;
  if (op_query_find_path(q, o->from, o->to, NULL, o->max_path, &r, &e)) {
    rc = cli_fail_op(ctx, "FindPath", &e);
    op_query_free(q);
    return rc;
  }
  int found = r.status == OP_PATH_FOUND;
  print_endpoint("start", &r.start_poly, r.start_point);
  print_endpoint("end", &r.end_poly, r.end_point);
  if (found) printf("status: found, cost %.9g, nodes %" PRIu32 "\n", r.cost, r.nodes);
  else printf("status: no_path, reason %s, nodes %" PRIu32 "\n", op_path_reason_name(r.reason),
              r.nodes);
  print_polys(found ? "path" : "partial", r.polys, r.npolys);
  op_query_poly *polys = malloc(sizeof *polys * (r.npolys ? r.npolys : 1));
  op_ref *refs = malloc(sizeof *refs * (r.npolys ? r.npolys : 1));
  if (!polys || !refs) rc = cli_fail(ctx, "out of memory");
  const op_query_corner *c = NULL;
  uint32_t nc = 0;
  for (uint32_t i = 0; !rc && i < r.npolys; i++) polys[i] = r.polys[i], refs[i] = r.polys[i].ref;
  if (!rc && op_query_straight_path(q, o->from, o->to, refs, r.npolys, o->crossings,
                                    OP_QUERY_DEFAULT_CORNERS, &c, &nc, &e))
    rc = cli_fail_op(ctx, "FindStraightPath", &e);
  if (!rc) {
    if (!found) printf("straight path over the partial route, to its closest point to --to\n");
    print_corners(c, nc);
  }
  path_pic pp = {l->mesh, polys, r.npolys, c, nc, found, {0}, {0}};
  memcpy(pp.from, o->from, sizeof pp.from);
  memcpy(pp.to, o->to, sizeof pp.to);
  if (!rc && o->svg) rc = write_svg(ctx, o, l, &pp);
  free(polys);
  free(refs);
  op_query_free(q);
  return rc;
}

/* The mesh of the input: the file, or a BuildSoup of the level or OBJ. */
static int path_mesh(cli_ctx *ctx, path_opts *o, cli_mesh *l, op_pipeline_result *res) {
  if (o->mesh) {
    cli_ctx mesh_ctx = *ctx;
    mesh_ctx.max_file = CLI_MAX_FILE_DEFAULT;
    if (cli_mesh_load(&mesh_ctx, o->mesh, l)) return CLI_EXIT_FAIL;
    if (!l->mesh) {
      cli_mesh_free(l);
      return cli_fail(ctx, "'%s' is a %s file: path needs a mesh or a snapshot", o->mesh, l->kind);
    }
    printf("mesh: %s %s, %" PRIu32 " tiles\n", l->kind, o->mesh, l->ntiles);
    return 0;
  }
  op_soup soup = op_trimesh_soup(&o->in.m);
  op_error e;
  if (op_pipeline_build_soup_opt(&o->in.s, &soup, NULL, NULL, res, &e))
    return cli_fail_op(ctx, "BuildSoup", &e);
  if (cli_mesh_view(ctx, res->mesh, "mesh", l)) return CLI_EXIT_FAIL;
  printf("mesh: built from %s (preset %s), %" PRIu32 " tiles\n", o->in.label, o->in.preset,
         l->ntiles);
  return 0;
}

int cli_cmd_path(cli_ctx *ctx, int argc, char **argv) {
  path_opts o;
  memset(&o, 0, sizeof o);
  o.color = "area";
  o.max_nodes = OP_QUERY_DEFAULT_NODES;
  o.max_path = OP_QUERY_DEFAULT_PATH;
  int rc = cli_input_init(ctx, &o.in, argc);
  cli_args a = {argc, argv, 0};
  for (a.i = 0; a.i < argc && !rc; a.i++) {
    int st = 0, r = cli_input_option(ctx, &a, &o.in, &st);
    if (r < 0) rc = st;
    else if (r == 0) rc = path_option(ctx, &a, &o);
  }
  if (!rc) rc = path_check(ctx, &o);
  cli_mesh l;
  memset(&l, 0, sizeof l);
  op_pipeline_result res;
  memset(&res, 0, sizeof res);
  int have = 0;
  if (!rc && !(rc = path_mesh(ctx, &o, &l, &res))) have = 1;
  if (!rc) rc = run_query(ctx, &o, &l);
  if (have) cli_mesh_free(&l);
  op_pipeline_result_free(&res);
  cli_input_free(&o.in);
  return rc;
}
