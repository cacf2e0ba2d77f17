/*
** dispatch.h -- executes protocol requests against libonepath (docs/porting.md).
**
** One request is {"id": N, "op": "name", "args": {...}}; the answer is
** {"id": N, "ok": {...}} or {"id": N, "error": {"kind": K, "field": F, "value": V,
** "message": M}}. The in-process conformance run and the protocol server
** (onepath-port) both call opd_execute, so they differ only in transport.
**
** A session owns every object a request created; requests name them by handle
** (a positive integer, allocated 1, 2, 3, ... per session, never reused).
*/
#ifndef OPD_DISPATCH_H
#define OPD_DISPATCH_H

#include "opj.h"
#include "onepath.h"

typedef struct opd_session opd_session;

opd_session *opd_session_new(void);
void opd_session_free(opd_session *s);

/* Executes one request line (JSON text) and appends the one-line answer to out. A failed
** request gives back every handle it allocated (CONF-014): the next request gets them. */
void opd_execute(opd_session *s, const char *line, size_t len, opj_w *out);

/* --- for the op modules (port/ops_*.c) --- */

typedef enum opd_kind { OPD_TILE = 1, OPD_MESH, OPD_PRNG, OPD_TILECACHE, OPD_CORRIDOR } opd_kind;

/* Handle table: store an object (taking ownership) and get its handle; look one up. */
/* (opd_put always takes ownership: when no handle can be allocated -- memory, or the
** CONF-043 limit -- it frees the object and returns OPD_PUT_NOMEM or OPD_PUT_LIMIT.) */
int64_t opd_put(opd_session *s, opd_kind kind, void *obj);
#define OPD_PUT_NOMEM (-1) /* opd_put failed for memory */
#define OPD_PUT_LIMIT (-2) /* opd_put failed: all 2^24 handles used (CONF-043) */
/* The error for a failed opd_put (h < 0): limit or out_of_memory, field "handle". */
op_status opd_put_error(op_error *err, int64_t h);
/* A borrowed object (RT-151: a tile cache's mesh): stored under a handle of `kind` but
** owned by the object of the live handle `owner`. Dropping its handle frees nothing; once
** the owner is dropped it names no live object (opd_lookup NULL, opd_drop -1). Fails as
** opd_put does, but never frees obj. */
int64_t opd_put_borrowed(opd_session *s, opd_kind kind, void *obj, int64_t owner);
void *opd_lookup(opd_session *s, opd_kind kind, int64_t handle);
/* Frees the object and retires the handle; returns 0, or -1 if no such handle. */
int opd_drop(opd_session *s, opd_kind kind, int64_t handle);

/* An op handler reads args and writes the members of the "ok" object into res (the
** object braces are written by the caller). It returns OP_OK, or an error with err
** filled. Argument decoding errors are OP_E_ARGUMENT naming the argument. */
typedef op_status (*opd_handler)(opd_session *s, const opj *args, opj_w *res, op_error *err);

typedef struct opd_op {
  const char *name; /* e.g. "tile.create" */
  opd_handler fn;
} opd_op;

/* Each module exports a table ending with {NULL, NULL}. */
extern const opd_op opd_ops_math[];    /* math.*, prng.* (port/ops_math.c) */
extern const opd_op opd_ops_format[];  /* tile.* (port/ops_tile.c) */
extern const opd_op opd_ops_mesh[];    /* mesh.* (port/ops_mesh.c) */
extern const opd_op opd_ops_session[]; /* "hello", "artifact", "drop" ... */
extern const opd_op opd_ops_build2d[]; /* build2d.* (port/ops_build2d.c; added by 2D TILES) */
extern const opd_op opd_ops_build3d[]; /* settings.*, obj.parse, level.generate (port/ops_build3d.c) */
extern const opd_op opd_ops_spans[];   /* spans.* (port/ops_spans.c) */
extern const opd_op opd_ops_regions[]; /* regions.* (port/ops_regions.c; added by REGIONS) */
extern const opd_op opd_ops_contours[]; /* contours.* (port/ops_contours.c; added by CONTOURS) */
extern const opd_op opd_ops_pipeline[]; /* build3d.soup, .chunk, .heightfield (port/ops_pipeline.c; added by ASSEMBLY) */
extern const opd_op opd_ops_polys[];    /* polys.build_tile (port/ops_polys.c; added by POLYGONS) */
extern const opd_op opd_ops_tilecache[]; /* tilecache.* (port/ops_tilecache.c; RT-150) */

/* CONF-059 (tests only): fail_alloc arms the session so that the next request's
** after-th counted allocation fails (0 disarms); opd_alloc is that request's counter while
** it runs, NULL when the session is not armed (the builds then count nothing). */
void opd_arm_alloc(opd_session *s, uint64_t after);
op_alloc_count *opd_alloc(opd_session *s);
/* The thread count of the session's cached builds (tilecache.soup / chunk / heightfield,
** POLY-228: the same bytes for any count): 0 = the processors online (the default), 1 = one
** tile at a time (a host that runs many small builds, e.g. a fuzz harness); not a request. */
void opd_set_threads(opd_session *s, uint32_t threads);
uint32_t opd_threads(const opd_session *s);

/* Kind-agnostic drop (session op "drop"); 0, or -1 if no such live handle. */
int opd_drop_any(opd_session *s, int64_t handle);
/* The op of that name in the tables (session, math, format, mesh: first wins), or NULL. */
const opd_op *opd_find_op(const char *name);
/* Every op table (CONF-050 lists their ops); *n receives the count. */
const opd_op *const *opd_op_tables(size_t *n);

/* Helper for handlers: set err to an argument error naming `field`. */
op_status opd_arg_error(op_error *err, const char *field, const char *why);
/* Helper for handlers: an allocation failure (CONF-010: never expected by a scenario):
** kind OP_E_NOMEM, the field named, value empty, message "out of memory (FIELD)". */
op_status opd_nomem(op_error *err, const char *field);

#endif
