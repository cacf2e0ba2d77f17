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

int cli_read_file(const char *path, uint8_t **data, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return cli_fail("cannot open '%s': %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap + 1);
  for (;;) {
    if (!buf) { fclose(f); return cli_fail("out of memory reading '%s'", path); }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    cap *= 2;
    uint8_t *nb = realloc(buf, cap + 1);
    if (!nb) free(buf);
    buf = nb;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) { free(buf); return cli_fail("cannot read '%s'", path); }
  buf[n] = 0; /* text readers may treat it as a string */
  *data = buf;
  *len = n;
  return 0;
}

int cli_write_file(const char *path, const uint8_t *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f) return cli_fail("cannot create '%s': %s", path, strerror(errno));
  size_t put = fwrite(data, 1, len, f);
  if (fclose(f) != 0 || put != len) return cli_fail("cannot write '%s'", path);
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
