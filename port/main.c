/*
** main.c -- onepath-port, the protocol server of the reference implementation
** (spec/conformance.md "Framing" CONF-020, CONF-021; docs/porting.md).
**
** Reads one request per line on stdin, writes one answer per line on stdout and
** flushes after each; exits with status 0 at end of input. One session per process.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch.h"

/* CONF-021: a request line holds at most OPJ_MAX_TEXT bytes before its '\n'. */
#define MAX_LINE ((size_t)OPJ_MAX_TEXT)

typedef struct reader {
  char block[65536];
  size_t pos, end;
  int eof;
} reader;

/* Reads one line (without '\n') into *line (grown as needed). Returns 1 with *len
** set, 2 when the line was longer than MAX_LINE (its bytes counted in *len and
** discarded), 0 at end of input, -1 when out of memory. */
static int read_line(reader *r, char **line, size_t *cap, size_t *len) {
  size_t n = 0;
  int too_long = 0, any = 0;
  for (;;) {
    if (r->pos == r->end) {
      if (r->eof) break;
      /* read(2), not fread: a request must be answered before more input arrives */
      ssize_t k = read(0, r->block, sizeof r->block);
      if (k < 0 && errno == EINTR) continue;
      r->pos = 0;
      r->end = k > 0 ? (size_t)k : 0;
      if (k <= 0) { r->eof = 1; break; }
    }
    any = 1;
    char *nl = memchr(r->block + r->pos, '\n', r->end - r->pos);
    size_t take = nl ? (size_t)(nl - (r->block + r->pos)) : r->end - r->pos;
    if (!too_long && n + take > MAX_LINE) too_long = 1;
    if (!too_long) {
      if (n + take + 1 > *cap) {
        size_t nc = *cap ? *cap : 4096;
        while (nc < n + take + 1) nc *= 2;
        char *nb = realloc(*line, nc);
        if (!nb) return -1;
        *line = nb;
        *cap = nc;
      }
      memcpy(*line + n, r->block + r->pos, take);
    }
    n += take;
    r->pos += take + (nl ? 1 : 0);
    if (nl) { *len = n; return too_long ? 2 : 1; }
  }
  *len = n;
  if (!any || n == 0) return 0;
  return too_long ? 2 : 1;
}

int main(void) {
  opd_session *s = opd_session_new();
  if (!s) return 2;
  reader *r = calloc(1, sizeof *r);
  if (!r) { opd_session_free(s); return 2; }
  char *line = NULL;
  size_t cap = 0, len = 0;
  int rc = 0, got;
  while ((got = read_line(r, &line, &cap, &len)) > 0) {
    if (got == 1 && len == 0) continue; /* CONF-020: empty lines are ignored */
    opj_w out;
    opj_w_init(&out);
    if (got == 2) {
      op_error e;
      char v[32];
      snprintf(v, sizeof v, "%zu", len);
      op_fail(&e, OP_E_LIMIT, "request", v, "request line longer than %zu bytes", MAX_LINE);
      opj_w_obj_begin(&out);
      opj_w_key(&out, "id");
      opj_w_null(&out);
      opj_w_key(&out, "error");
      opj_w_obj_begin(&out);
      opj_w_key(&out, "kind");
      opj_w_str(&out, op_status_name(e.kind));
      opj_w_key(&out, "field");
      opj_w_str(&out, e.field);
      opj_w_key(&out, "value");
      opj_w_str(&out, e.value);
      opj_w_key(&out, "message");
      opj_w_str(&out, e.message);
      opj_w_obj_end(&out);
      opj_w_obj_end(&out);
    } else {
      opd_execute(s, line, len, &out);
    }
    if (out.oom) {
      static const char oom[] = "{\"id\":null,\"error\":{\"kind\":\"out_of_memory\",\"field\":"
                                "\"answer\",\"value\":\"\",\"message\":\"out of memory\"}}";
      fputs(oom, stdout);
    } else {
      fwrite(out.buf, 1, out.len, stdout);
    }
    fputc('\n', stdout);
    opj_w_free(&out);
    if (fflush(stdout) != 0) { rc = 1; break; }
  }
  if (got < 0) rc = 2;
  free(line);
  free(r);
  opd_session_free(s);
  return rc;
}
