/*
** tilecache_snapshot.c -- the tile cache's snapshots (spec/build3d-runtime.md section 9,
** RT-130, RT-132 .. RT-134; spec/navmesh-snapshot.md section 6, SNAP-016 .. SNAP-022):
** TileCache.SaveState (the mesh snapshot plus a TCAC section: fingerprint, next ids,
** obstacles, volumes, queue) and TileCache.RestoreState, which parses and checks everything
** into temporaries first and then commits without a failure point (SNAP-021).
** The header, the section framing and the SLOT payload are ref/navmesh/snapshot.c's
** (ref/navmesh/snapshot_internal.h); the cache's state is ref/build3d/runtime/tilecache.h's,
** its fingerprint (RT-131) ref/build3d/runtime/fingerprint.c's. Calls down into
** ref/build3d/runtime/tilecache.c (find, queue, forget); nothing there calls up into here.
*/
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "navmesh/snapshot_internal.h"
#include "build3d/runtime/tilecache.h"
#include "build3d/spans/volumes.h"

#define TC_OBST_MIN 48u /* SNAP-017: the smallest obstacle record (a cylinder: id, shape, 5 f64) */
#define TC_VOL_MIN 76u  /* SNAP-017: the smallest volume record (3 points) */
#define F64_NEG_ZERO 0x8000000000000000ull

/* ------------------------------------------------------------ save (SNAP-016 .. SNAP-018) */

/* SNAP-017: the shape's values in record order. Returns the count (5, 6 or 7). */
static int obstacle_values(const op_obstacle *o, double v[7]) {
  switch (o->shape) {
    case OP_OBSTACLE_CYLINDER:
      for (int k = 0; k < 3; k++) v[k] = o->center[k];
      v[3] = o->radius;
      v[4] = o->height;
      return 5;
    case OP_OBSTACLE_BOX:
      for (int k = 0; k < 3; k++) v[k] = o->bmin[k], v[3 + k] = o->bmax[k];
      return 6;
    default:
      for (int k = 0; k < 3; k++) v[k] = o->center[k], v[3 + k] = o->half[k];
      v[6] = o->yaw;
      return 7;
  }
}

static void put_obstacle(opc_buf *b, const optc_obstacle *t) {
  double v[7];
  int n = obstacle_values(&t->o, v);
  opc_put_u32(b, t->id);
  opc_put_u32(b, (uint32_t)t->o.shape);
  for (int k = 0; k < n; k++) opc_put_f64(b, v[k]);
}

static void put_volume(opc_buf *b, const optc_volume *t) {
  const op_convex_volume *v = &t->v;
  opc_put_u32(b, t->id);
  opc_put_u32(b, v->npoints);
  for (uint32_t j = 0; j < v->npoints; j++) {
    opc_put_f64(b, v->points[j][0]);
    opc_put_f64(b, v->points[j][1]);
  }
  opc_put_f64(b, v->ymin);
  opc_put_f64(b, v->ymax);
  opc_put_u32(b, v->area);
}

/* SNAP-016, SNAP-018: the TCAC payload. */
static void put_tcac(opc_buf *b, const op_tilecache *c) {
  opc_put_u64(b, c->fingerprint);
  opc_put_u32(b, c->next_obstacle_id);
  opc_put_u32(b, c->next_volume_id);
  opc_put_u32(b, optc_live_obstacles(c)); /* live obstacles, ascending id */
  for (uint32_t i = 0; i < c->nobst; i++)
    if (!c->obst[i].dead) put_obstacle(b, &c->obst[i]);
  opc_put_u32(b, optc_live_volumes(c)); /* live volumes, ascending id */
  for (uint32_t i = 0; i < c->nvols; i++)
    if (!c->vols[i].dead) put_volume(b, &c->vols[i]);
  opc_put_u32(b, c->nqueue); /* queue order */
  for (uint32_t i = 0; i < c->nqueue; i++) {
    const optc_tile *t = &c->tiles[c->queue[i]];
    opc_put_u32(b, (uint32_t)t->k.tx);
    opc_put_u32(b, (uint32_t)t->k.tz);
  }
}

/* RT-132, SNAP-018 */
op_status op_tilecache_snapshot_save(const op_tilecache *c, op_bytes *out, op_error *err) {
  if (!c) return op_fail(err, OP_E_ARGUMENT, "cache", "NULL", "cache is required");
  if (!out) return op_fail(err, OP_E_ARGUMENT, "out", "NULL", "output is required");
  opc_buf b = {NULL, 0, 0, 0};
  opsn_put_header(&b, &c->mesh->params, 2);
  size_t at = opsn_section_begin(&b, OPSN_TAG_SLOT);
  op_status st = opsn_put_slots(&b, c->mesh, err);
  if (st) {
    free(b.p);
    return st;
  }
  opsn_section_end(&b, at);
  at = opsn_section_begin(&b, OPSN_TAG_TCAC);
  put_tcac(&b, c);
  opsn_section_end(&b, at);
  return opsn_finish(&b, out, err);
}

/* ------------------------------------------------------------ restore: parsed state */

/* Everything a restore takes from the TCAC payload, owned until the commit. */
typedef struct tc_new {
  uint32_t next_obst, next_vol;
  optc_obstacle *obst;
  uint32_t nobst;
  optc_volume *vols;
  uint32_t nvols;
  uint32_t *queue; /* indices into c->tiles, queue order */
  uint32_t nqueue;
  uint8_t *seen;   /* c->ntiles flags: queued already */
} tc_new;

static void tc_new_free(tc_new *t) {
  free(t->obst);
  free(t->vols);
  free(t->queue);
  free(t->seen);
  memset(t, 0, sizeof *t);
}

/* SNAP-019 3, 4: a record's check that SPAN-031 / SPAN-033 report as another kind becomes
** a format error with the same field and value. */
static op_status as_format(opsn_rd *r, const op_error *e) {
  if (r->err) {
    *r->err = *e; /* its field, value and sentence */
    r->err->kind = OP_E_FORMAT;
  }
  return OP_E_FORMAT;
}

/* An f64 as it is read: SNAP-003 for its 8 bytes, then not -0.0 (SNAP-019 3, 4). */
static op_status read_f64(opsn_rd *r, double *v, const char *field) {
  op_status st = opsn_need(r, 8, "%s", field);
  if (st) return st;
  uint64_t u = opc_rd_u64(r->p + r->off);
  if (u == F64_NEG_ZERO) return opsn_fail(r, "-0", "-0.0 is stored as +0.0", "%s", field);
  *v = opc_rd_f64(r->p + r->off);
  r->off += 8;
  return OP_OK;
}

/* SNAP-019 3, 4: record i's id (field `what`[i].id): at least 1, below next, above prev. */
static op_status read_id(opsn_rd *r, const char *what, uint32_t i, uint32_t next, uint32_t prev,
                         uint32_t *id) {
  op_status st = opsn_read_u32(r, id, "%s[%u].id", what, i);
  if (st) return st;
  if (*id < 1 || *id >= next || (i > 0 && *id <= prev))
    return opsn_fail_u(r, *id, "ids ascend from 1 and stay below the next id", "%s[%u].id",
                       what, i);
  return OP_OK;
}

/* ------------------------------------------------------------ restore: obstacles */

static const char *const obst_names[3][7] = {
    {"center.x", "center.y", "center.z", "radius", "height", NULL, NULL},
    {"bmin.x", "bmin.y", "bmin.z", "bmax.x", "bmax.y", "bmax.z", NULL},
    {"center.x", "center.y", "center.z", "half.x", "half.y", "half.z", "yaw"}};

/* SNAP-017, SNAP-019 3: obstacle record i into *out, prepared for the cache's grid as
** the cache prepares an added obstacle (RT-020, RT-025). */
static op_status read_obstacle(opsn_rd *r, const op_tilecache *c, uint32_t next, uint32_t i,
                               uint32_t prev, optc_obstacle *out) {
  uint32_t id, shape;
  op_status st = read_id(r, "obstacles", i, next, prev, &id);
  if (st) return st;
  if ((st = opsn_read_u32(r, &shape, "obstacles[%u].shape", i))) return st;
  if (shape > OP_OBSTACLE_ORIENTED_BOX)
    return opsn_fail_u(r, shape, "shape must be 0 (cylinder), 1 (box) or 2 (oriented box)",
                       "obstacles[%u].shape", i);
  double v[7];
  int n = shape == OP_OBSTACLE_CYLINDER ? 5 : shape == OP_OBSTACLE_BOX ? 6 : 7;
  char f[96];
  for (int k = 0; k < n; k++) {
    snprintf(f, sizeof f, "obstacles[%u].%s", i, obst_names[shape][k]);
    if ((st = read_f64(r, &v[k], f))) return st;
  }
  op_obstacle o;
  memset(&o, 0, sizeof o);
  o.shape = (op_obstacle_shape)shape;
  if (shape == OP_OBSTACLE_CYLINDER) {
    for (int k = 0; k < 3; k++) o.center[k] = v[k];
    o.radius = v[3];
    o.height = v[4];
  } else if (shape == OP_OBSTACLE_BOX) {
    for (int k = 0; k < 3; k++) o.bmin[k] = v[k], o.bmax[k] = v[3 + k];
  } else {
    for (int k = 0; k < 3; k++) o.center[k] = v[k], o.half[k] = v[3 + k];
    o.yaw = v[6];
  }
  char prefix[40];
  snprintf(prefix, sizeof prefix, "obstacles[%u].", i);
  op_error e;
  if (opob_validate(&o, prefix, &e)) return as_format(r, &e); /* SPAN-033's order */
  out->id = id;
  out->o = o;
  out->dead = 0;
  /* SNAP-020: grown and boxed as AddObstacle does (RT-020, RT-025); validated above by
  ** SPAN-033 only, as AddObstacle validates (RT-023), so no stricter rule applies here */
  opob_prepare_valid(&o, c->ctx.cell.walkable_radius, c->ctx.s.cell_size, &out->prep);
  return OP_OK;
}

static op_status read_obstacles(opsn_rd *r, const op_tilecache *c, tc_new *t) {
  uint32_t n;
  op_status st = opsn_read_u32(r, &n, "nobstacles");
  if (st) return st;
  if (n > OPTC_MAX_LIVE)
    return opsn_fail_u(r, n, "at most 65536 live obstacles", "nobstacles");
  size_t fit = (r->n - r->off) / TC_OBST_MIN; /* records that can be whole: no more memory */
  size_t cap = n < fit ? n : fit;
  if (cap && !(t->obst = opc_malloc(c->alloc, cap * sizeof *t->obst))) /* CONF-059 */
    return opc_nomem(r->err, "snapshot");
  for (uint32_t i = 0; i < n; i++) {
    optc_obstacle o;
    uint32_t prev = i ? t->obst[i - 1].id : 0;
    if ((st = read_obstacle(r, c, t->next_obst, i, prev, &o))) return st;
    t->obst[i] = o; /* i < cap: a whole record took at least TC_OBST_MIN bytes */
    t->nobst = i + 1;
  }
  return OP_OK;
}

/* ------------------------------------------------------------ restore: volumes */

/* SNAP-017, SNAP-019 4: volume record i into *out, with its box (RT-042). */
static op_status read_volume(opsn_rd *r, uint32_t next, uint32_t i, uint32_t prev,
                             optc_volume *out) {
  uint32_t id, np, area;
  op_status st = read_id(r, "volumes", i, next, prev, &id);
  if (st) return st;
  if ((st = opsn_read_u32(r, &np, "volumes[%u].npoints", i))) return st;
  if (np < 3 || np > OP_VOLUME_MAX_POINTS)
    return opsn_fail_u(r, np, "a volume has 3 to 12 points", "volumes[%u].npoints", i);
  op_convex_volume v;
  memset(&v, 0, sizeof v);
  v.npoints = np;
  char f[96];
  for (uint32_t j = 0; j < np; j++)
    for (int k = 0; k < 2; k++) {
      snprintf(f, sizeof f, "volumes[%u].points[%u].%c", i, j, k ? 'z' : 'x');
      if ((st = read_f64(r, &v.points[j][k], f))) return st;
    }
  snprintf(f, sizeof f, "volumes[%u].ymin", i);
  if ((st = read_f64(r, &v.ymin, f))) return st;
  snprintf(f, sizeof f, "volumes[%u].ymax", i);
  if ((st = read_f64(r, &v.ymax, f))) return st;
  if ((st = opsn_read_u32(r, &area, "volumes[%u].area", i))) return st;
  v.area = (uint8_t)(area > 63 ? 0 : area); /* the area is SPAN-031's last check */
  snprintf(f, sizeof f, "volumes[%u].", i);
  op_error e;
  if (opv_validate(&v, f, &e)) return as_format(r, &e); /* SPAN-031's order */
  if (area > 63) return opsn_fail_u(r, area, "an area id is 0..63", "volumes[%u].area", i);
  out->id = id;
  out->v = v;
  out->dead = 0;
  opv_box(&v, out->bmin, out->bmax); /* RT-042, as the cache computes it */
  return OP_OK;
}

static op_status read_volumes(opsn_rd *r, op_alloc_count *al, tc_new *t) {
  uint32_t n;
  op_status st = opsn_read_u32(r, &n, "nvolumes");
  if (st) return st;
  if (n > OPTC_MAX_LIVE) return opsn_fail_u(r, n, "at most 65536 live volumes", "nvolumes");
  size_t fit = (r->n - r->off) / TC_VOL_MIN, cap = n < fit ? n : fit;
  if (cap && !(t->vols = opc_malloc(al, cap * sizeof *t->vols))) /* CONF-059 */
    return opc_nomem(r->err, "snapshot");
  for (uint32_t i = 0; i < n; i++) {
    optc_volume v;
    uint32_t prev = i ? t->vols[i - 1].id : 0;
    if ((st = read_volume(r, t->next_vol, i, prev, &v))) return st;
    t->vols[i] = v;
    t->nvols = i + 1;
  }
  return OP_OK;
}

/* ------------------------------------------------------------ restore: TCAC payload */

/* SNAP-019 5: the queue, each entry a cached tile not queued before. */
static op_status read_queue(opsn_rd *r, const op_tilecache *c, tc_new *t) {
  uint32_t n;
  op_status st = opsn_read_u32(r, &n, "nqueue");
  if (st) return st;
  if (n > c->ntiles) return opsn_fail_u(r, n, "more queued tiles than cached tiles", "nqueue");
  if (n && (!(t->queue = opc_malloc(c->alloc, n * sizeof *t->queue)) || /* CONF-059 */
            !(t->seen = opc_calloc(c->alloc, c->ntiles, 1))))
    return opc_nomem(r->err, "snapshot");
  for (uint32_t i = 0; i < n; i++) {
    uint32_t x, z;
    if ((st = opsn_read_u32(r, &x, "queue[%u].x", i))) return st;
    if ((st = opsn_read_u32(r, &z, "queue[%u].z", i))) return st;
    int64_t k = optc_find_tile(c, (int32_t)x, (int32_t)z);
    if (k < 0 || t->seen[k]) {
      char buf[32];
      snprintf(buf, sizeof buf, "%ld,%ld", (long)(int32_t)x, (long)(int32_t)z);
      return opsn_fail(r, buf, k < 0 ? "not a cached tile" : "queued twice", "queue[%u].x", i);
    }
    t->seen[k] = 1;
    t->queue[i] = (uint32_t)k;
    t->nqueue = i + 1;
  }
  return OP_OK;
}

/* SNAP-016, SNAP-019 (d): steps 1 to 5, in byte order. */
static op_status read_tcac(opsn_rd *r, const op_tilecache *c, tc_new *t) {
  op_status st = opsn_need(r, 8, "fingerprint");
  if (st) return st;
  uint64_t fp = opc_rd_u64(r->p + r->off);
  r->off += 8;
  if (fp != c->fingerprint) { /* RT-131: another level or other settings */
    char hex[24];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)fp);
    return opsn_fail(r, hex, "the snapshot was saved from a cache of other geometry or settings",
                     "fingerprint");
  }
  if ((st = opsn_read_u32(r, &t->next_obst, "next_obstacle_id"))) return st;
  if (t->next_obst < 1) return opsn_fail_u(r, 0, "ids start at 1", "next_obstacle_id");
  if ((st = opsn_read_u32(r, &t->next_vol, "next_volume_id"))) return st;
  if (t->next_vol < 1) return opsn_fail_u(r, 0, "ids start at 1", "next_volume_id");
  if ((st = read_obstacles(r, c, t))) return st;
  if ((st = read_volumes(r, c->alloc, t))) return st;
  return read_queue(r, c, t);
}

/* SNAP-019 6: every tile record lies on a unit of the cache (RT-081). */
static op_status check_units(opsn_rd *r, const op_tilecache *c, const op_mesh *tmp) {
  uint32_t i = 0; /* the tile record's index: tmp holds only the tiles, ascending slot */
  for (uint32_t k = 0; k < tmp->nslots; k++) {
    const opm_occ *o = tmp->slots[k].occ;
    if (!o) continue;
    int64_t t = optc_find_tile(c, o->view.x, o->view.z);
    if (t < 0 || o->view.layer < 0 || (uint32_t)o->view.layer >= c->tiles[t].k.nunits) {
      char buf[64];
      snprintf(buf, sizeof buf, "%ld,%ld,%ld", (long)o->view.x, (long)o->view.z,
               (long)o->view.layer);
      return opsn_fail(r, buf, "the tile lies on no unit of the cache", "tiles[%u].x", i);
    }
    i++;
  }
  return OP_OK;
}

/* SNAP-019 (a) to (f), in byte order: header, SLOT section (payload before the second
** section's tag), TCAC section, trailing bytes, then step 6 (units). */
static op_status parse(opsn_rd *r, const op_tilecache *c, opsn_slots *s, tc_new *t) {
  static const uint32_t tags[2] = {OPSN_TAG_SLOT, OPSN_TAG_TCAC};
  uint32_t nsec;
  op_status st = opsn_read_header(r, &c->mesh->params, &nsec);
  if (st) return st;
  if (nsec != 2) /* SNAP-019 (a), SNAP-020: a plain mesh snapshot is not one (value 1) */
    return opsn_fail_u(r, nsec, "a tile cache snapshot has two sections", "nsections");
  for (uint32_t k = 0; k < 2; k++) {
    uint32_t tag;
    if ((st = opsn_read_tag(r, k, &tag))) return st;
    if (tag != tags[k])
      return opsn_fail_u(r, tag,
                         k ? "the second section must be TCAC" : "the first section must be SLOT",
                         "sections[%u].tag", k);
    opsn_rd sub;
    if ((st = opsn_open_section(r, k, &sub))) return st;
    st = k ? read_tcac(&sub, c, t) : opsn_read_slots(&sub, s);
    if (st || (st = opsn_close_section(r, &sub, k))) return st;
  }
  if ((st = opsn_check_end(r))) return st;
  return check_units(r, c, &s->tmp);
}

/* ------------------------------------------------------------ restore: commit */

/* Puts n new records into *arr (capacity *cap): into the old array when it is large
** enough (the new one is freed), else the new array replaces it. Cannot fail. */
static void take_array(void **arr, uint32_t *cap, void **fresh, uint32_t n, size_t size) {
  if (n <= *cap) {
    if (n) memcpy(*arr, *fresh, (size_t)n * size);
    free(*fresh);
  } else {
    free(*arr);
    *arr = *fresh;
    *cap = n;
  }
  *fresh = NULL;
}

/* RT-133, SNAP-020: no failure point from here on. */
static void commit(op_tilecache *c, opsn_slots *s, tc_new *t) {
  opsn_slots_commit(s, c->mesh); /* keeps cache_owned (RT-018) */
  void *o = c->obst, *v = c->vols, *fo = t->obst, *fv = t->vols;
  take_array(&o, &c->capobst, &fo, t->nobst, sizeof *t->obst);
  take_array(&v, &c->capvols, &fv, t->nvols, sizeof *t->vols);
  c->obst = o;
  c->vols = v;
  t->obst = NULL;
  t->vols = NULL;
  c->nobst = t->nobst;
  c->nvols = t->nvols;
  c->ndead_obst = c->ndead_vols = 0; /* the restored entries are all live */
  c->next_obstacle_id = t->next_obst;
  c->next_volume_id = t->next_vol;
  for (uint32_t i = 0; i < c->nobst; i++) /* tilecache.h: ascending, below the next id */
    assert(c->obst[i].id >= 1 && c->obst[i].id < c->next_obstacle_id &&
           (i == 0 || c->obst[i - 1].id < c->obst[i].id));
  for (uint32_t i = 0; i < c->nvols; i++)
    assert(c->vols[i].id >= 1 && c->vols[i].id < c->next_volume_id &&
           (i == 0 || c->vols[i - 1].id < c->vols[i].id));
  optc_queue_clear(c);
  for (uint32_t i = 0; i < t->nqueue; i++) optc_queue_push(c, t->queue[i]);
  optc_forget_last(c);
}

/* RT-133, SNAP-019 .. SNAP-021 */
op_status op_tilecache_snapshot_load(op_tilecache *c, const uint8_t *data, size_t len,
                                     op_error *err) {
  if (!c) return op_fail(err, OP_E_ARGUMENT, "cache", "NULL", "cache is required");
  if (!data && len) return op_fail(err, OP_E_ARGUMENT, "data", "NULL", "data is required");
  static const uint8_t empty[1] = {0};
  opsn_rd r = {data ? data : empty, len, 0, err};
  opsn_slots s;
  opsn_slots_init(&s, &c->mesh->params);
  s.tmp.alloc = c->alloc; /* CONF-059: the restore's mesh part counts there too */
  tc_new t;
  memset(&t, 0, sizeof t);
  op_status st = parse(&r, c, &s, &t);
  if (!st) st = opsn_slots_finish(&s, err); /* SNAP-007: links, empty slots */
  if (st) {
    opsn_slots_free(&s);
    tc_new_free(&t);
    return st;
  }
  commit(c, &s, &t);
  tc_new_free(&t);
  op_clear(err);
  return OP_OK;
}
