/*
** artifact.c -- checkpoint artifacts: XXH3-64 (seed 0) of the bytes and of each part
** (spec/conformance.md CONF-060 .. CONF-063), and the first difference between two
** artifacts named by part and field through the walkers of port/artifact.h.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "artifact.h"
#include "conform.h"

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

/* Walks p with the walker of `kind`: parts for mesh/snapshot, fields for tile. */
static int walk(const char *kind, int fields, const uint8_t *p, size_t n, collect *c) {
  memset(c, 0, sizeof *c);
  if (strcmp(kind, "mesh") == 0 && !fields) return opa_mesh_parts(p, n, collect_cb, c);
  if (strcmp(kind, "snapshot") == 0 && !fields) return opa_snapshot_parts(p, n, collect_cb, c);
  if (strcmp(kind, "tile") == 0 && fields) return opa_tile_fields(p, n, collect_cb, c);
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
  walk(kind, 0, p, n, &c); /* a malformed tail only ends the part list */
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

static size_t first_byte_diff(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  size_t n = an < bn ? an : bn, i = 0;
  while (i < n && a[i] == b[i]) i++;
  return i;
}

/* Fields of two tile serializations; names the first field that differs. */
static void tile_difference(const uint8_t *e, size_t en, const uint8_t *a, size_t an, char *out,
                            size_t outlen, const char *where) {
  collect ce, ca;
  walk("tile", 1, e, en, &ce);
  walk("tile", 1, a, an, &ca);
  size_t n = ce.n < ca.n ? ce.n : ca.n;
  int done = 0;
  for (size_t i = 0; i < n && !done; i++) {
    opc_part *fe = &ce.v[i], *fa = &ca.v[i];
    int bad_e = fe->off > en || fe->len > en - fe->off;
    int bad_a = fa->off > an || fa->len > an - fa->off;
    if (bad_e || bad_a) break;
    if (strcmp(fe->name, fa->name) != 0) {
      snprintf(out, outlen, "%sfield %zu is \"%s\" in the port but \"%s\" in the reference", where, i,
               fa->name, fe->name);
      done = 1;
    } else if (fe->len != fa->len || memcmp(e + fe->off, a + fa->off, fe->len) != 0) {
      char he[40] = "", ha[40] = "";
      for (size_t k = 0; k < fe->len && k < 8; k++) sprintf(he + 2 * k, "%02x", e[fe->off + k]);
      for (size_t k = 0; k < fa->len && k < 8; k++) sprintf(ha + 2 * k, "%02x", a[fa->off + k]);
      snprintf(out, outlen, "%sfirst differing field %s (byte %zu of the tile): port %s, reference %s", where,
               fe->name, fe->off, ha, he);
      done = 1;
    }
  }
  if (!done) {
    size_t b = first_byte_diff(e, en, a, an);
    snprintf(out, outlen, "%sfirst differing byte %zu (lengths: port %zu, reference %zu)", where, b,
             an, en);
  }
  free(ce.v);
  free(ca.v);
}

void opc_first_difference(const char *kind, const uint8_t *exp, size_t elen, const uint8_t *act,
                          size_t alen, char *out, size_t outlen) {
  if (elen == alen && memcmp(exp, act, elen) == 0) {
    snprintf(out, outlen, "no difference");
    return;
  }
  if (strcmp(kind, "tile") == 0) {
    tile_difference(exp, elen, act, alen, out, outlen, "");
    return;
  }
  if (strcmp(kind, "mesh") && strcmp(kind, "snapshot")) {
    snprintf(out, outlen, "first differing byte %zu (lengths: port %zu, reference %zu)",
             first_byte_diff(exp, elen, act, alen), alen, elen);
    return;
  }
  collect ce, ca;
  walk(kind, 0, exp, elen, &ce);
  walk(kind, 0, act, alen, &ca);
  size_t n = ce.n < ca.n ? ce.n : ca.n;
  int done = 0;
  for (size_t i = 0; i < n && !done; i++) {
    opc_part *pe = &ce.v[i], *pa = &ca.v[i];
    if (pe->off > elen || pe->len > elen - pe->off || pa->off > alen || pa->len > alen - pa->off)
      break;
    if (strcmp(pe->name, pa->name) != 0) {
      snprintf(out, outlen, "part %zu is \"%s\" in the port but \"%s\" in the reference", i,
               pa->name, pe->name);
      done = 1;
    } else if (pe->len != pa->len || memcmp(exp + pe->off, act + pa->off, pe->len) != 0) {
      char where[160];
      snprintf(where, sizeof where, "part \"%s\": ", pe->name);
      if (strncmp(pe->name, "tile ", 5) == 0) {
        size_t se = opa_tile_record_skip(exp + pe->off, pe->len);
        size_t sa = opa_tile_record_skip(act + pa->off, pa->len);
        if (se <= pe->len && sa <= pa->len) {
          tile_difference(exp + pe->off + se, pe->len - se, act + pa->off + sa, pa->len - sa, out,
                          outlen, where);
          done = 1;
        }
      }
      if (!done) {
        snprintf(out, outlen, "%sfirst differing byte %zu of the part (part lengths: port %zu, "
                 "reference %zu)", where,
                 first_byte_diff(exp + pe->off, pe->len, act + pa->off, pa->len), pa->len, pe->len);
        done = 1;
      }
    }
  }
  if (!done)
    snprintf(out, outlen, "first differing byte %zu (lengths: port %zu, reference %zu; %zu/%zu parts "
             "named)", first_byte_diff(exp, elen, act, alen), alen, elen, ca.n, ce.n);
  free(ce.v);
  free(ca.v);
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
