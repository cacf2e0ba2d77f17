/*
** snapshot_internal.h -- the pieces of the snapshot writer and reader (spec/navmesh-snapshot.md)
** shared by ref/navmesh/snapshot.c (mesh snapshots, SNAP-001 .. SNAP-015) and
** ref/build3d/runtime/tilecache_snapshot.c (tile cache snapshots, SNAP-016 .. SNAP-022), and
** the tile records of ref/navmesh/mesh_load.c (MESH-067 ..): the header, section framing, the
** SLOT payload both ways, and the bounds-checked reader whose errors name the
** field and, for a short read, the offset where the available bytes end (SNAP-003).
** Not part of the public API.
*/
#ifndef OP_SNAPSHOT_INTERNAL_H
#define OP_SNAPSHOT_INTERNAL_H

#include "navmesh/mesh_internal.h"

#define OPSN_VERSION 1u          /* SNAP-002 */
#define OPSN_TAG_SLOT 0x544f4c53u /* "SLOT" read as a little-endian u32 (SNAP-010) */
#define OPSN_TAG_TCAC 0x43414354u /* "TCAC" read as a little-endian u32 (SNAP-016) */
#define OPSN_SECTION_VERSION 1u  /* SLOT and TCAC version 1 */
#define OPSN_MAX_SECTIONS 16u    /* SNAP-004 */

/* ------------------------------------------------------------ save */

/* SNAP-002: magic, version, the parameter block, nsections. */
void opsn_put_header(opc_buf *b, const op_mesh_params *p, uint32_t nsections);
/* SNAP-005: a section header with a zero length; returns where the length is. */
size_t opsn_section_begin(opc_buf *b, uint32_t tag);
/* Patches the section's length to the bytes written since opsn_section_begin. */
void opsn_section_end(opc_buf *b, size_t len_at);
/* SNAP-010, SNAP-011: the SLOT payload of m. On error (a tile that does not serialize) err
** is set and its kind returned; b is then to be freed. */
op_status opsn_put_slots(opc_buf *b, const op_mesh *m, op_error *err);
/* Hands b's bytes to out, or frees them and fails with out_of_memory `snapshot`. */
op_status opsn_finish(opc_buf *b, op_bytes *out, op_error *err);

/* ------------------------------------------------------------ load */

/* A reader over p[0 .. n): off the next byte; offsets count from the snapshot's first byte
** also inside a section (a section's reader has the same p and n = the payload's end). */
typedef struct opsn_rd {
  const uint8_t *p;
  size_t n, off;
  op_error *err;
} opsn_rd;

/* Format error naming the field printf(fmt, ...) with the given value text. */
op_status opsn_fail(opsn_rd *r, const char *value, const char *why, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Format error with an unsigned decimal value. */
op_status opsn_fail_u(opsn_rd *r, uint64_t v, const char *why, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* SNAP-003: OP_OK when k bytes remain, else a format error naming the field, whose value is
** the offset where the available bytes end (r->n). */
op_status opsn_need(opsn_rd *r, size_t k, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Reads a u32 (opsn_need first). */
op_status opsn_read_u32(opsn_rd *r, uint32_t *v, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* SNAP-003: reads the 60-byte parameter block `params` whole into *got (no checks). */
op_status opsn_read_params_block(opsn_rd *r, op_mesh_params *got);
/* SNAP-015 / MESH-067: the 4 magic bytes (else format error `magic`, lower-case hex; why the
** sentence), then `version` 1. */
op_status opsn_read_magic_version(opsn_rd *r, const char *magic, const char *why);
/* SNAP-015 up to nsections: magic, version, params against want (SNAP-006), nsections in
** [1, 16] (SNAP-004). */
op_status opsn_read_header(opsn_rd *r, const op_mesh_params *want, uint32_t *nsec);
/* Reads sections[k].tag (the caller checks it, SNAP-005). */
op_status opsn_read_tag(opsn_rd *r, uint32_t k, uint32_t *tag);
/* After the tag: sections[k].version (must be 1) and sections[k].length (at most the bytes
** after the section header); *sub becomes the payload's reader. */
op_status opsn_open_section(opsn_rd *r, uint32_t k, opsn_rd *sub);
/* After the payload: its content ends exactly at its end (else format error
** sections[k].length with the length); r moves past the section. */
op_status opsn_close_section(opsn_rd *r, const opsn_rd *sub, uint32_t k);
/* SNAP-004: no bytes after the last section (else format error `length`, total length). */
op_status opsn_check_end(opsn_rd *r);

/* A parsed SLOT payload: tmp holds the tiles (with edits, without links) in ascending slot
** order; the empty-slot records, checked, stay in the input until opsn_slots_finish. */
typedef struct opsn_slots {
  op_mesh tmp;
  const uint8_t *free_p;
  uint32_t nfree;
} opsn_slots;

/* An empty parse state for a mesh with parameters p. */
void opsn_slots_init(opsn_slots *s, const op_mesh_params *p);
/* SNAP-010, SNAP-012 .. SNAP-014: parses and checks the SLOT payload of sub. */
op_status opsn_read_slots(opsn_rd *sub, opsn_slots *s);
/* SNAP-013 steps 1 .. 5 (MESH-068): tile record i, after a record of slot prev (-1: none):
** slot, generation, not an empty-slot record of empties (NULL: none; *j the cursor into
** them, 0 at the first record), the tile, its edits. Installs it as the last stored slot of
** tmp (without links); *slot its slot. Out of memory is out_of_memory `nomem`. */
op_status opsn_read_tile_record(opsn_rd *r, op_mesh *tmp, uint32_t i, int64_t prev,
                                const opsn_slots *empties, uint32_t *j, uint32_t *slot,
                                const char *nomem);
/* SNAP-007: computes every tile's links and adds the empty-slot records. After it, s->tmp is
** the complete mesh state. Fails only for memory (out_of_memory `snapshot`). */
op_status opsn_slots_finish(opsn_slots *s, op_error *err);
/* SNAP-008: replaces m's whole state by s->tmp (finished) and frees the old one; m keeps its
** cache_owned flag (RT-018). Cannot fail; s is empty afterwards. */
void opsn_slots_commit(opsn_slots *s, op_mesh *m);
/* Frees what s holds (a failed load). */
void opsn_slots_free(opsn_slots *s);

#endif
