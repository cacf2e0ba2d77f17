/*
** artifact.h -- walks the canonical byte layouts of checkpoint artifacts, naming their
** parts (tiles of a mesh or snapshot) and fields (of a tile), so the runner can say
** which tile and which field of a port's answer first differs from the reference.
*/
#ifndef OPA_ARTIFACT_H
#define OPA_ARTIFACT_H

#include <stddef.h>
#include <stdint.h>

/* Called once per part or field, in byte order: name, offset and length in the input. */
typedef void (*opa_cb)(void *ud, const char *name, size_t off, size_t len);

/* Fields of one tile serialization (navmesh-format.md), e.g. "header.magic",
** "verts[3].y", "polys[2].neis[1]". Returns 0 when the whole input was walked, -1 when
** it is malformed (fields up to that point were reported). (port/artifact_tile.c) */
int opa_tile_fields(const uint8_t *p, size_t n, opa_cb cb, void *ud);

/* Parts of a whole-mesh serialization (navmesh-mesh.md): "header", then one part per
** stored tile named "tile X,Z,L" covering that tile's record, then any trailing state
** parts. `tile_off`/`tile_len` of each tile part are also passed to opa_tile_fields
** by the runner, so the tile part must contain the tile's own serialization; report it
** with a name that starts with "tile ". Returns 0 or -1 as above. (port/artifact_mesh.c) */
int opa_mesh_parts(const uint8_t *p, size_t n, opa_cb cb, void *ud);

/* Same for a mesh snapshot (navmesh-snapshot.md). (port/artifact_mesh.c) */
int opa_snapshot_parts(const uint8_t *p, size_t n, opa_cb cb, void *ud);

/* Where inside a part the tile serialization starts: tile parts of meshes and
** snapshots may carry a record header before the tile bytes. Returns the offset of
** the tile bytes relative to the part's start. (port/artifact_mesh.c) */
size_t opa_tile_record_skip(const uint8_t *part, size_t len);

#endif
