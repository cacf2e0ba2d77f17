/*
** shapes.c -- the obstacles and volumes of the command line (docs/cli.md): --cylinder
** X,Y,Z,R,H, --box MINX,MINY,MINZ,MAXX,MAXY,MAXZ, --obox CX,CY,CZ,HX,HY,HZ,YAW and
** --volume AREA,YMIN,YMAX,X1,Z1,... for Mesh3DPipeline.Obstacles (SPAN-004) and
** Regions.Spans.Volumes (SPAN-003), checked by SPAN-031 / SPAN-033 through
** op_settings_validate; also the run-time shapes of `onepath tilecache` (RT-020, RT-040).
*/
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_shapes_free(cli_shapes *sh) {
  for (uint32_t i = 0; i < sh->nobst; i++) free(sh->obst_text[i]);
  for (uint32_t i = 0; i < sh->nvol; i++) free(sh->vol_text[i]);
  free(sh->obst);
  free(sh->obst_text);
  free(sh->vol);
  free(sh->vol_text);
  memset(sh, 0, sizeof *sh);
}

/* Comma-separated numbers: between lo and hi of them into out; the count, or -1. */
static int parse_numbers(const char *v, int lo, int hi, double *out) {
  char buf[1024];
  if (strlen(v) >= sizeof buf) return -1;
  snprintf(buf, sizeof buf, "%s", v);
  int n = 0;
  char *p = buf;
  for (;;) {
    char *comma = strchr(p, ',');
    if (comma) *comma = 0;
    if (n == hi || cli_parse_double(p, &out[n])) return -1;
    n++;
    if (!comma) break;
    p = comma + 1;
  }
  return n < lo ? -1 : n;
}

static char *dup_text(const char *opt, const char *v) {
  size_t l = strlen(opt) + strlen(v) + 2;
  char *t = malloc(l);
  if (t) snprintf(t, l, "%s %s", opt, v);
  return t;
}

/* --volume AREA,YMIN,YMAX,X1,Z1,X2,Z2,X3,Z3[,...] into sh (SPAN-003). */
static int volume_parse(cli_ctx *ctx, const char *opt, const char *v, cli_shapes *sh) {
  double x[3 + 2 * OP_VOLUME_MAX_POINTS];
  int n = parse_numbers(v, 9, 3 + 2 * OP_VOLUME_MAX_POINTS, x);
  if (n < 0 || (n - 3) % 2)
    return cli_usage_error(ctx, "--volume '%s': expected AREA,YMIN,YMAX,X1,Z1,X2,Z2,X3,Z3[,...] "
                           "(3 to %d points)", v, OP_VOLUME_MAX_POINTS);
  if (!(x[0] >= 0 && x[0] <= 255 && x[0] == (double)(int)x[0]))
    return cli_usage_error(ctx, "--volume '%s': area '%g' is not an integer in [0, 255]", v, x[0]);
  if (sh->nvol == sh->capv) {
    uint32_t nc = sh->capv ? 2 * sh->capv : 8;
    op_convex_volume *nv = realloc(sh->vol, nc * sizeof *nv);
    if (nv) sh->vol = nv;
    char **nt = realloc(sh->vol_text, nc * sizeof *nt);
    if (nt) sh->vol_text = nt;
    if (!nv || !nt) return cli_fail(ctx, "out of memory");
    sh->capv = nc;
  }
  op_convex_volume *cv = &sh->vol[sh->nvol];
  memset(cv, 0, sizeof *cv);
  cv->area = (uint8_t)x[0];
  cv->ymin = x[1];
  cv->ymax = x[2];
  cv->npoints = (uint32_t)(n - 3) / 2;
  for (uint32_t k = 0; k < cv->npoints; k++) {
    cv->points[k][0] = x[3 + 2 * k];
    cv->points[k][1] = x[4 + 2 * k];
  }
  if (!(sh->vol_text[sh->nvol] = dup_text(opt, v))) return cli_fail(ctx, "out of memory");
  sh->nvol++;
  return 0;
}

/* --cylinder, --box or --obox (opt names which) into o (SPAN-004); 0 or a usage error. */
static int obstacle_parse(cli_ctx *ctx, const char *opt, const char *v, op_obstacle *o) {
  double x[7];
  memset(o, 0, sizeof *o);
  if (!strcmp(opt, "--cylinder")) {
    if (parse_numbers(v, 5, 5, x) < 0)
      return cli_usage_error(ctx,
          "--cylinder '%s': expected X,Y,Z,R,H (base centre, radius, height)",
                             v);
    o->shape = OP_OBSTACLE_CYLINDER;
    memcpy(o->center, x, sizeof o->center);
    o->radius = x[3];
    o->height = x[4];
  } else if (!strcmp(opt, "--box")) {
    if (parse_numbers(v, 6, 6, x) < 0)
      return cli_usage_error(ctx, "--box '%s': expected MINX,MINY,MINZ,MAXX,MAXY,MAXZ", v);
    o->shape = OP_OBSTACLE_BOX;
    memcpy(o->bmin, x, sizeof o->bmin);
    memcpy(o->bmax, x + 3, sizeof o->bmax);
  } else {
    if (parse_numbers(v, 7, 7, x) < 0)
      return cli_usage_error(ctx,
          "--obox '%s': expected CX,CY,CZ,HX,HY,HZ,YAW (centre, half sizes, "
                             "yaw in radians)", v);
    o->shape = OP_OBSTACLE_ORIENTED_BOX;
    memcpy(o->center, x, sizeof o->center);
    memcpy(o->half, x + 3, sizeof o->half);
    o->yaw = x[6];
  }
  return 0;
}

int cli_shape_parse(cli_ctx *ctx, const char *opt, const char *v, cli_shapes *sh) {
  if (!strcmp(opt, "--volume")) return volume_parse(ctx, opt, v, sh);
  op_obstacle o;
  int rc = obstacle_parse(ctx, opt, v, &o);
  if (rc) return rc;
  if (sh->nobst == sh->capo) {
    uint32_t nc = sh->capo ? 2 * sh->capo : 8;
    op_obstacle *no = realloc(sh->obst, nc * sizeof *no);
    if (no) sh->obst = no;
    char **nt = realloc(sh->obst_text, nc * sizeof *nt);
    if (nt) sh->obst_text = nt;
    if (!no || !nt) return cli_fail(ctx, "out of memory");
    sh->capo = nc;
  }
  sh->obst[sh->nobst] = o;
  if (!(sh->obst_text[sh->nobst] = dup_text(opt, v))) return cli_fail(ctx, "out of memory");
  sh->nobst++;
  return 0;
}

int cli_is_shape_option(const char *o) {
  return !strcmp(o, "--cylinder") || !strcmp(o, "--box") || !strcmp(o, "--obox") ||
         !strcmp(o, "--volume");
}

/* Checks every obstacle and volume of sh by SPAN-031 / SPAN-033 (op_settings_validate on
** a copy of s holding only them); a failure is a usage error naming the option. */
int cli_shapes_validate(cli_ctx *ctx, const op_settings *s, const cli_shapes *sh) {
  op_settings t = *s;
  t.nvolumes = sh->nvol;
  t.volumes = sh->vol;
  t.nobstacles = sh->nobst;
  t.obstacles = sh->obst;
  op_error e;
  if (op_settings_validate(&t, &e) == OP_OK) return 0;
  unsigned long idx;
  if (sscanf(e.field, "obstacles[%lu]", &idx) == 1 && idx < sh->nobst)
    return cli_usage_error(ctx, "'%s': invalid %s (value %s): %s", sh->obst_text[idx], e.field,
                       e.value[0] ? e.value : "-", e.message);
  if (sscanf(e.field, "volumes[%lu]", &idx) == 1 && idx < sh->nvol)
    return cli_usage_error(ctx, "'%s': invalid %s (value %s): %s", sh->vol_text[idx], e.field,
                       e.value[0] ? e.value : "-", e.message);
  return cli_usage_error(ctx,
      "invalid setting '%s' (value %s): %s", e.field, e.value[0] ? e.value : "-",
                     e.message);
}

void cli_print_obstacle(const op_obstacle *o) {
  if (o->shape == OP_OBSTACLE_CYLINDER)
    printf("cylinder centre (%g, %g, %g) radius %g height %g", o->center[0], o->center[1],
           o->center[2], o->radius, o->height);
  else if (o->shape == OP_OBSTACLE_BOX)
    printf("box (%g, %g, %g) .. (%g, %g, %g)", o->bmin[0], o->bmin[1], o->bmin[2], o->bmax[0],
           o->bmax[1], o->bmax[2]);
  else
    printf("oriented box centre (%g, %g, %g) half (%g, %g, %g) yaw %g", o->center[0],
           o->center[1], o->center[2], o->half[0], o->half[1], o->half[2], o->yaw);
}

