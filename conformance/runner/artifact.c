/*
** artifact.c -- checkpoint artifacts: XXH3-64 (seed 0) of the bytes and of each part
** (spec/conformance.md CONF-060 .. CONF-063), and the first difference between two
** artifacts named by element and field through the typed walkers of walk.h (walk_*.c).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "artifact.h"
#include "conform.h"
#include "walk.h"

typedef struct collect {
  opc_part *v;
  size_t n, cap;
  int oom;
} collect;

static void collect_cb(void *ud, const char *name, size_t off, size_t len) {
  collect *c = ud;
  if (c->oom || c->n >= OPC_MAX_PARTS * 64) return;
  if (c->n == c->cap) {
    size_t nc = c->cap ? 2 * c->cap : 64;
    opc_part *nv = realloc(c->v, nc * sizeof *nv);
    if (!nv) { c->oom = 1; return; }
    c->v = nv;
    c->cap = nc;
  }
  opc_part *p = &c->v[c->n++];
  snprintf(p->name, sizeof p->name, "%s", name);
  p->off = off;
  p->len = len;
  p->hash = 0;
}

/* The parts of a mesh or snapshot (CONF-062, port/artifact.h); none for tile and table. */
static int walk(const char *kind, const uint8_t *p, size_t n, collect *c) {
  memset(c, 0, sizeof *c);
  if (strcmp(kind, "mesh") == 0) return opa_mesh_parts(p, n, collect_cb, c);
  if (strcmp(kind, "snapshot") == 0) return opa_snapshot_parts(p, n, collect_cb, c);
  return 0;
}

static int known_kind(const char *kind) {
  return !strcmp(kind, "tile") || !strcmp(kind, "mesh") || !strcmp(kind, "snapshot") ||
         !strcmp(kind, "table");
}

/* CONF-060, CONF-062 */
int opc_artifact(const char *kind, const uint8_t *p, size_t n, opc_art *out, char *msg,
                 size_t msglen) {
  memset(out, 0, sizeof *out);
  if (!known_kind(kind)) {
    snprintf(msg, msglen, "unknown artifact kind \"%s\" (tile, mesh, snapshot, table)", kind);
    return -1;
  }
  out->len = n;
  out->hash = XXH3_64bits(p, n);
  collect c;
  walk(kind, p, n, &c); /* a malformed tail only ends the part list */
  if (c.n > OPC_MAX_PARTS) c.n = OPC_MAX_PARTS;
  size_t k = 0;
  for (size_t i = 0; i < c.n; i++) {
    if (c.v[i].off > n || c.v[i].len > n - c.v[i].off) break; /* walker out of bounds */
    c.v[i].hash = XXH3_64bits(p + c.v[i].off, c.v[i].len);
    k++;
  }
  out->parts = c.v;
  out->nparts = k;
  return 0;
}

void opc_art_free(opc_art *a) {
  free(a->parts);
  memset(a, 0, sizeof *a);
}

/* CONF-200, CONF-201, CONF-202: the layout that names the fields of a difference: the one
** a table checkpoint gives, the kind's own for tile, mesh and snapshot, else the layout
** whose magic a table's reference bytes carry (NULL: bytes only). */
const char *opc_layout_of(const char *kind, const char *layout, const uint8_t *ref, size_t rn) {
  if (layout && layout[0]) return layout;
  if (!strcmp(kind, "tile") || !strcmp(kind, "mesh") || !strcmp(kind, "snapshot")) return kind;
  return opw_detect(ref, rn);
}

int opc_difference(const char *kind, const char *layout, const uint8_t *exp, size_t elen,
                   const uint8_t *act, size_t alen, const char *lexp, const char *lact, char *out,
                   size_t outlen) {
  const char *l = opc_layout_of(kind, layout, exp, elen);
  char body[900];
  int rc = opw_difference(l, exp, elen, act, alen, lexp, lact, body, sizeof body);
  if (rc == 0 || !l || (!strcmp(kind, l) && !(layout && layout[0])))
    snprintf(out, outlen, "%s", body);
  else
    snprintf(out, outlen, "%s layout%s: %s", l, layout && layout[0] ? "" : " (by its magic)", body);
  return rc;
}

void opc_first_difference(const char *kind, const uint8_t *exp, size_t elen, const uint8_t *act,
                          size_t alen, char *out, size_t outlen) {
  opc_difference(kind, NULL, exp, elen, act, alen, "reference", "port", out, outlen);
}

static int hexdig(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

int opc_unhex(const char *hex, size_t hlen, uint8_t **out, size_t *len) {
  if (hlen % 2) return -1;
  uint8_t *b = malloc(hlen / 2 + 1);
  if (!b) return -1;
  for (size_t i = 0; i < hlen / 2; i++) {
    int h = hexdig(hex[2 * i]), l = hexdig(hex[2 * i + 1]);
    if (h < 0 || l < 0) { free(b); return -1; }
    b[i] = (uint8_t)(h * 16 + l);
  }
  *out = b;
  *len = hlen / 2;
  return 0;
}

/* ------------------------------------------------------------ op-conform diff (CONF-204) */

/* CONF-204: a file's bytes: lower-case hex text (whitespace anywhere is ignored) when every
** other byte is a hex digit 0-9a-f (an odd count of them is an error), else the file's raw
** bytes (an empty file: no bytes). */
static int read_artifact(const char *path, uint8_t **out, size_t *len, const char **form) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  uint8_t *b = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (cap - n < 65536) {
      size_t nc = cap ? cap * 2 : 1 << 20;
      uint8_t *nb = realloc(b, nc);
      if (!nb) { free(b); fclose(f); return -1; }
      b = nb, cap = nc;
    }
    size_t k = fread(b + n, 1, cap - n, f);
    n += k;
    if (!k) break;
  }
  int err = ferror(f);
  fclose(f);
  if (err) { free(b); return -1; }
  size_t h = 0, hex = 1;
  for (size_t i = 0; i < n && hex; i++) {
    uint8_t c = b[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (hexdig((char)c) < 0) hex = 0;
    else h++;
  }
  if (hex && n && h % 2) { /* CONF-204: odd-length hex text is an error */
    free(b);
    return -1;
  }
  if (hex && n) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
      if (hexdig((char)b[i]) >= 0) b[k++] = b[i];
    uint8_t *bytes;
    size_t blen;
    if (opc_unhex((const char *)b, k, &bytes, &blen)) { free(b); return -1; }
    free(b);
    *out = bytes, *len = blen, *form = "hex";
    return 0;
  }
  *out = b, *len = n, *form = "binary";
  return 0;
}

int opc_diff_main(int argc, char **argv) {
  const char *files[2] = {NULL, NULL}, *kind = NULL, *layout = NULL, *svg = NULL;
  int nf = 0;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--kind") && i + 1 < argc) kind = argv[++i];
    else if (!strcmp(argv[i], "--layout") && i + 1 < argc) layout = argv[++i];
    else if (!strcmp(argv[i], "--svg") && i + 1 < argc) svg = argv[++i];
    else if (argv[i][0] != '-' && nf < 2) files[nf++] = argv[i];
    else nf = 3;
  }
  if (nf != 2) {
    fprintf(stderr, "usage: op-conform diff A B [--kind tile|mesh|snapshot|table] [--layout L] [--svg FILE]\n"
                    "  A and B are artifact files, lower-case hex text or raw bytes; A is read as the\n"
                    "  reference. Exit status: 0 equal, 1 different, 2 error.\n");
    return 2;
  }
  if (kind && strcmp(kind, "tile") && strcmp(kind, "mesh") && strcmp(kind, "snapshot") && strcmp(kind, "table")) {
    fprintf(stderr, "op-conform diff: unknown kind \"%s\" (tile, mesh, snapshot, table)\n", kind);
    return 2;
  }
  if (layout && !opw_layout_known(layout)) {
    fprintf(stderr, "op-conform diff: unknown layout \"%s\" (", layout);
    for (int i = 0; opw_layout_names[i]; i++) fprintf(stderr, "%s%s", i ? ", " : "", opw_layout_names[i]);
    fprintf(stderr, ")\n");
    return 2;
  }
  uint8_t *b[2] = {NULL, NULL};
  size_t n[2] = {0, 0};
  const char *form[2] = {"", ""};
  for (int i = 0; i < 2; i++)
    if (read_artifact(files[i], &b[i], &n[i], &form[i])) {
      fprintf(stderr, "op-conform diff: cannot read %s (or odd-length hex text)\n", files[i]);
      free(b[0]);
      return 2;
    }
  if (!kind) {
    const char *d = opw_detect(b[0], n[0]);
    kind = d && (!strcmp(d, "tile") || !strcmp(d, "mesh") || !strcmp(d, "snapshot")) ? d : "table";
  }
  if (layout && strcmp(kind, "table") && strcmp(layout, kind)) layout = NULL; /* the kind's own */
  const char *l = opc_layout_of(kind, layout, b[0], n[0]);
  printf("A %s: %zu bytes (%s), B %s: %zu bytes (%s); kind %s, layout %s\n", files[0], n[0], form[0],
         files[1], n[1], form[1], kind, l ? l : "none (bytes only)");
  char out[1200];
  int rc = opc_difference(kind, layout, b[0], n[0], b[1], n[1], "A", "B", out, sizeof out);
  if (rc == 0) printf("equal: XXH3-64 %016llx\n", (unsigned long long)XXH3_64bits(b[0], n[0]));
  else printf("%s\n", out);
  if (rc && svg) {
    char msg[300];
    if (opc_svg_write(svg, "op-conform diff: A (blue) is drawn as the reference, B (red) as the port", l,
                      b[0], n[0], b[1], n[1], msg, sizeof msg))
      printf("no picture: %s\n", msg);
    else
      printf("picture: %s\n", svg);
  }
  free(b[0]);
  free(b[1]);
  return rc ? 1 : 0;
}
