/*
** io.c -- files, the clock and the progress bar of the onepath tool (docs/cli.md: a bar
** on stderr when it is a terminal and the build takes more than a quarter second). Not
** normative: no spec clause is implemented here (spec/README.md: tools).
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

double cli_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ files */

/* Reads at most max bytes: one byte more is an error naming the cap (docs/cli.md), so
** /dev/zero or a huge file cannot exhaust memory. */
int cli_read_file_max(cli_ctx *ctx, const char *path, uint64_t max, uint8_t **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return cli_fail(ctx, "cannot open '%s': %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  if ((uint64_t)cap > max + 1) cap = (size_t)max + 1;
  uint8_t *buf = malloc(cap + 1);
  for (;;) {
    if (!buf) { fclose(f); return cli_fail(ctx, "out of memory reading '%s'", path); }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if ((uint64_t)n > max) {
      fclose(f);
      free(buf);
      return cli_fail(ctx, "'%s' is larger than the file size cap of %" PRIu64 " bytes (raise it "
                      "with --max-file-size BYTES)", path, max);
    }
    if (n < cap) break;
    size_t nc = cap * 2;
    if ((uint64_t)nc > max + 1) nc = (size_t)max + 1; /* one byte over the cap is enough */
    cap = nc;
    uint8_t *nb = realloc(buf, cap + 1);
    if (!nb) free(buf);
    buf = nb;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) { free(buf); return cli_fail(ctx, "cannot read '%s'", path); }
  buf[n] = 0; /* text readers may treat it as a string */
  *data = buf;
  *len = n;
  return 0;
}

int cli_read_file(cli_ctx *ctx, const char *path, uint8_t **data, size_t *len) {
  return cli_read_file_max(ctx, path, ctx->max_file, data, len);
}

/* --max-file-size BYTES: a byte count, K, M or G (binary) allowed; 0 or -1. */
int cli_parse_size(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  if (!(*s >= '0' && *s <= '9')) return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || errno) return -1;
  unsigned sh = 0;
  if (*end == 'K' || *end == 'k') sh = 10, end++;
  else if (*end == 'M' || *end == 'm') sh = 20, end++;
  else if (*end == 'G' || *end == 'g') sh = 30, end++;
  if (*end || v > (UINT64_C(1) << 40) >> sh) return -1;
  *out = (uint64_t)v << sh;
  return 0;
}

int cli_write_file(cli_ctx *ctx, const char *path, const uint8_t *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return cli_fail(ctx, "cannot create '%s': %s", path, strerror(errno));
  size_t put = fwrite(data, 1, len, f);
  if (fclose(f) != 0 || put != len) return cli_fail(ctx, "cannot write '%s'", path);
  return 0;
}

void cli_progress_init(cli_progress *p) {
  p->on = isatty(2);
  p->start = cli_now();
  p->last_pct = -1;
}
void cli_progress_update(cli_progress *p, uint64_t done, uint64_t total, const char *what) {
  if (!p->on || total == 0) return;
  /* only long builds get a bar: nothing is drawn in the first quarter second */
  if (p->last_pct < 0 && cli_now() - p->start < 0.25) return;
  int pct = (int)(done * 100 / total);
  if (pct == p->last_pct && done != total) return;
  p->last_pct = pct;
  char bar[41];
  int fill = (int)(done * 40 / total);
  for (int i = 0; i < 40; i++) bar[i] = i < fill ? '#' : '.';
  bar[40] = 0;
  fprintf(stderr, "\r[%s] %3d%% %" PRIu64 "/%" PRIu64 " %s %.1fs", bar, pct, done, total, what,
          cli_now() - p->start);
  fflush(stderr);
}
void cli_progress_done(cli_progress *p) {
  if (p->on && p->last_pct >= 0) fputc('\n', stderr);
}

void cli_on_progress(void *ud, uint64_t done, uint64_t total) {
  cli_progress_update((cli_progress *)ud, done, total, "tiles");
}
