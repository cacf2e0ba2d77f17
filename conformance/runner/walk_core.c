/*
** walk_core.c -- the layout table (CONF-200), detection by magic (CONF-202), the first
** field-level difference (CONF-201) and the value text of a field.
**
** The difference walks the first artifact only. Every layout puts a count before the
** elements it counts, so while every field so far is byte-equal in both artifacts the two
** walks are the same walk: the first field whose bytes differ has the same name and offset
** in both, and its bytes are compared directly (a shorter second artifact ends inside it).
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "walk.h"

uint16_t opw_rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
uint32_t opw_rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
uint64_t opw_rd64(const uint8_t *p) { return (uint64_t)opw_rd32(p) | (uint64_t)opw_rd32(p + 4) << 32; }

int opw_put(opw *w, opw_type t, size_t len, const char *fmt, ...) {
  if (w->stop || w->n - w->off < len) return -1;
  if (w->cb) {
    char name[256];
    size_t k = (size_t)snprintf(name, sizeof name, "%s", w->prefix);
    if (k >= sizeof name) k = sizeof name - 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name + k, sizeof name - k, fmt, ap);
    va_end(ap);
    opw_field f = {name, w->off, len, t};
    if (w->cb(w->ud, &f)) {
      w->stop = 1;
      return -1;
    }
  }
  w->off += len;
  return 0;
}

typedef int (*walker)(opw *w);
static const struct {
  const char *name;
  walker fn;
} LAYOUTS[] = {
    {"soup", opw_soup},           {"chf", opw_chf},
    {"spans", opw_spans},         {"spans-header", opw_spans_header},
    {"spans-tile", opw_spans_tile}, {"regions", opw_regions},
    {"contours", opw_contours},   {"polys", opw_polys},
    {"tile", opw_tile},           {"mesh", opw_mesh},
    {"snapshot", opw_snapshot},
};
#define NLAYOUTS (sizeof LAYOUTS / sizeof *LAYOUTS)

const char *const opw_layout_names[] = {"soup", "chf", "spans", "spans-header", "spans-tile",
                                        "regions", "contours", "polys", "tile", "mesh",
                                        "snapshot", NULL};

int opw_layout_known(const char *name) {
  for (size_t i = 0; i < NLAYOUTS; i++)
    if (name && !strcmp(name, LAYOUTS[i].name)) return 1;
  return 0;
}

/* CONF-202: the magic at the start (or, for a SPAN-172 tile piece, after its 12 bytes). */
const char *opw_detect(const uint8_t *p, size_t n) {
  if (n >= 8 && !memcmp(p, "OPCHF001", 8)) return "chf";
  if (n >= 8 && !memcmp(p, "OPSPB001", 8)) return n == 20 ? "spans-header" : "spans";
  if (n >= 8 && !memcmp(p, "OPREG001", 8)) return "regions";
  if (n >= 8 && !memcmp(p, "OPCTR001", 8)) return "contours";
  if (n >= 4 && !memcmp(p, "POLY", 4)) return "polys";
  if (n >= 4 && !memcmp(p, "OPTS", 4)) return "soup";
  if (n >= 4 && !memcmp(p, "OPTL", 4)) return "tile";
  if (n >= 4 && !memcmp(p, "OPMS", 4)) return "mesh";
  if (n >= 4 && !memcmp(p, "OPSN", 4)) return "snapshot";
  if (n >= 20 && !memcmp(p + 12, "OPCHF001", 8)) return "spans-tile";
  return NULL;
}

int opw_walk(const char *layout, const uint8_t *p, size_t n, opw_cb cb, void *ud) {
  for (size_t i = 0; i < NLAYOUTS; i++) {
    if (strcmp(layout, LAYOUTS[i].name)) continue;
    opw w;
    memset(&w, 0, sizeof w);
    w.p = p;
    w.n = p ? n : 0;
    w.cb = cb;
    w.ud = ud;
    if (LAYOUTS[i].fn(&w)) return -1;
    return w.off == w.n ? 0 : -1;
  }
  return -2;
}

/* CONF-201: integers in decimal, floats as the shortest round-trip text with their bits
** (-0 keeps its sign: "%g" writes it),
** byte fields as text when printable ASCII, else lower-case hex. */
void opw_value(const opw_field *f, const uint8_t *p, size_t n, char *out, size_t outlen) {
  if (f->off > n || f->len > n - f->off) {
    snprintf(out, outlen, "(ends inside the field)");
    return;
  }
  const uint8_t *q = p + f->off;
  switch (f->type) {
    case OPW_U8: snprintf(out, outlen, "%u", q[0]); return;
    case OPW_U16: snprintf(out, outlen, "%u", opw_rd16(q)); return;
    case OPW_U32: snprintf(out, outlen, "%lu", (unsigned long)opw_rd32(q)); return;
    case OPW_U64: snprintf(out, outlen, "%llu", (unsigned long long)opw_rd64(q)); return;
    case OPW_I32: snprintf(out, outlen, "%ld", (long)(int32_t)opw_rd32(q)); return;
    case OPW_I64: snprintf(out, outlen, "%lld", (long long)(int64_t)opw_rd64(q)); return;
    case OPW_F32: {
      uint32_t b = opw_rd32(q);
      float x;
      memcpy(&x, &b, 4);
      char t[40];
      for (int prec = 1; prec <= 9; prec++) { /* the shortest text that reads back */
        snprintf(t, sizeof t, "%.*g", prec, (double)x);
        if (strtof(t, NULL) == x || x != x) break;
      }
      snprintf(out, outlen, "%s (0x%08lx)", t, (unsigned long)b);
      return;
    }
    case OPW_F64: {
      uint64_t b = opw_rd64(q);
      double x;
      memcpy(&x, &b, 8);
      char t[40];
      for (int prec = 1; prec <= 17; prec++) {
        snprintf(t, sizeof t, "%.*g", prec, x);
        if (strtod(t, NULL) == x || x != x) break;
      }
      snprintf(out, outlen, "%s (0x%016llx)", t, (unsigned long long)b);
      return;
    }
    case OPW_RAW: break;
  }
  int text = f->len > 0 && f->len <= 16;
  for (size_t i = 0; i < f->len && text; i++) text = q[i] >= 0x20 && q[i] < 0x7f && q[i] != '"';
  size_t k = 0;
  if (text) {
    snprintf(out, outlen, "\"%.*s\"", (int)f->len, (const char *)q);
    return;
  }
  out[0] = '\0';
  for (size_t i = 0; i < f->len && i < 32 && k + 3 < outlen; i++) k += (size_t)snprintf(out + k, outlen - k, "%02x", q[i]);
  if (f->len > 32 && k + 4 < outlen) snprintf(out + k, outlen - k, "...");
}

typedef struct diffst {
  const uint8_t *a, *b;
  size_t an, bn;
  const char *la, *lb;
  char *out;
  size_t outlen;
  int found;
  size_t nfields;
  char last[256];
} diffst;

static int diff_cb(void *ud, const opw_field *f) {
  diffst *d = ud;
  d->nfields++;
  int b_short = f->off > d->bn || f->len > d->bn - f->off;
  if (b_short || memcmp(d->a + f->off, d->b + f->off, f->len) != 0) {
    char va[160], vb[160];
    opw_value(f, d->a, d->an, va, sizeof va);
    opw_value(f, d->b, d->bn, vb, sizeof vb);
    if (b_short)
      snprintf(d->out, d->outlen, "first differing field %s (byte %zu): %s %s, %s ends inside it "
               "(lengths: %s %zu, %s %zu)", f->name, f->off, d->la, va, d->lb, d->la, d->an, d->lb,
               d->bn);
    else
      snprintf(d->out, d->outlen, "first differing field %s (byte %zu): %s %s, %s %s", f->name,
               f->off, d->lb, vb, d->la, va);
    d->found = 1;
    return 1;
  }
  snprintf(d->last, sizeof d->last, "%s", f->name);
  return 0;
}

int opw_difference(const char *layout, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
                   const char *la, const char *lb, char *out, size_t outlen) {
  if (an == bn && (an == 0 || memcmp(a, b, an) == 0)) {
    snprintf(out, outlen, "no difference");
    return 0;
  }
  diffst d;
  memset(&d, 0, sizeof d);
  d.a = a, d.b = b, d.an = an, d.bn = bn, d.la = la, d.lb = lb, d.out = out, d.outlen = outlen;
  int rc = layout ? opw_walk(layout, a, an, diff_cb, &d) : -2;
  if (d.found) return 1;
  size_t n = an < bn ? an : bn, i = 0;
  while (i < n && a[i] == b[i]) i++;
  if (rc == 0) /* every field of a equal: b is longer */
    snprintf(out, outlen, "every field of the %s layout is equal; %s has %zu bytes after the last "
             "field %s (lengths: %s %zu, %s %zu)", layout, lb, bn - an, d.last[0] ? d.last : "(none)",
             lb, bn, la, an);
  else if (rc == -2)
    snprintf(out, outlen, "first differing byte %zu (lengths: %s %zu, %s %zu)", i, lb, bn, la, an);
  else
    snprintf(out, outlen, "first differing byte %zu (lengths: %s %zu, %s %zu; the %s's bytes are "
             "not of the %s layout after field %s)", i, lb, bn, la, an, la, layout,
             d.last[0] ? d.last : "(none)");
  return 2;
}
