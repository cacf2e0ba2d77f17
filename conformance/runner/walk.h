/*
** walk.h -- typed field walkers of the artifact layouts, the first field-level difference
** between two artifacts, and SVG pictures of a difference (spec/conformance.md CONF-200 ..).
**
**   walk_core.c      the layout table, detection by magic, the difference engine, values
**   walk_build3d.c   soup (LVL-010), chf (SPAN-170), spans (SPAN-171), spans-header and
**                    spans-tile (SPAN-172), regions (REG-160), contours (REG-222),
**                    polys (POLY-090)
**   walk_navmesh.c   tile (FMT-040 .. FMT-043), mesh (MESH-040 .. MESH-043), snapshot
**                    (SNAP-002 .. SNAP-017, the tile cache's TCAC section included)
**   svg.c            the picture of a differing tile or stage artifact
**
** A walker reads the counts it needs to find its way and never validates values. It
** reports every field in byte order with its name (the layout table's name, with the
** element it belongs to), offset, length and type.
*/
#ifndef OPC_WALK_H
#define OPC_WALK_H

#include <stddef.h>
#include <stdint.h>

typedef enum opw_type {
  OPW_RAW, /* bytes: shown as ASCII when printable, else hex */
  OPW_U8, OPW_U16, OPW_U32, OPW_U64, OPW_I32, OPW_I64, OPW_F32, OPW_F64
} opw_type;

typedef struct opw_field {
  const char *name; /* valid during the callback only */
  size_t off, len;
  opw_type type;
} opw_field;

/* Returns non-zero to stop the walk. */
typedef int (*opw_cb)(void *ud, const opw_field *f);

typedef struct opw {
  const uint8_t *p;
  size_t n, off;
  opw_cb cb;
  void *ud;
  int stop;          /* the callback asked to stop */
  char prefix[128];  /* prepended to every name (the element being walked) */
} opw;

/* Reports one field of len bytes at w->off named prefix + printf(fmt). 0, or -1 when it
** does not fit (malformed) or the callback stopped the walk. */
int opw_put(opw *w, opw_type t, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
uint32_t opw_rd32(const uint8_t *p);
uint16_t opw_rd16(const uint8_t *p);
uint64_t opw_rd64(const uint8_t *p);

/* Walkers: 0 when the whole input was walked, -1 when it is malformed or stopped. */
int opw_soup(opw *w);
int opw_chf(opw *w);
int opw_spans(opw *w);
int opw_spans_header(opw *w);
int opw_spans_tile(opw *w);
int opw_regions(opw *w);
int opw_contours(opw *w);
int opw_polys(opw *w);
int opw_tile(opw *w);
int opw_mesh(opw *w);
int opw_snapshot(opw *w);

/* The layout names (CONF-200), NULL-terminated, and the clause of each. */
extern const char *const opw_layout_names[];
/* 1 when name is a layout. */
int opw_layout_known(const char *name);
/* The layout whose magic the bytes carry (CONF-202), or NULL. */
const char *opw_detect(const uint8_t *p, size_t n);
/* Walks p as layout; -2 for an unknown layout. */
int opw_walk(const char *layout, const uint8_t *p, size_t n, opw_cb cb, void *ud);

/* The first field-level difference (CONF-201): writes a sentence into out naming the
** first differing field with both values, labelled la (bytes a) and lb (bytes b).
** Returns 0 when equal, 1 when a field was named, 2 when only a byte could be named. */
int opw_difference(const char *layout, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
                   const char *la, const char *lb, char *out, size_t outlen);

/* The value text of a field (CONF-201). */
void opw_value(const opw_field *f, const uint8_t *p, size_t n, char *out, size_t outlen);

/* svg.c: writes an SVG of the two versions of an artifact (ref, port) overlaid, the
** differing elements highlighted (CONF-205). 0, or -1 with msg (layout without a
** picture, or the file cannot be written). */
int opc_svg_write(const char *path, const char *title, const char *layout, const uint8_t *ref,
                  size_t rn, const uint8_t *port, size_t pn, char *msg, size_t msglen);

#endif
