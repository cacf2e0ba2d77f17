/*
** fuzz_protocol_request.c -- untrusted protocol request lines (conformance.md).
**
** The input is split at newlines into request lines, all executed in one session (so
** handles made by earlier lines are used by later ones). Oracle: every line gets exactly
** one answer, which is itself valid JSON with an "ok" or an "error" member (CONF answer
** shape); nothing crashes or leaks.
*/
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "opj.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_answer(const opj_w *w) {
  if (w->oom) return;
  opj_doc *d = opj_parse(w->buf, w->len, NULL, 0);
  if (!d) abort();
  const opj *root = opj_root(d);
  if (!opj_get(root, "ok") && !opj_get(root, "error")) abort();
  opj_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  opd_session *s = opd_session_new();
  if (!s) return 0;
  size_t start = 0;
  for (size_t i = 0; i <= size; i++) {
    if (i == size || data[i] == '\n') {
      opj_w w;
      opj_w_init(&w);
      opd_execute(s, (const char *)data + start, i - start, &w);
      check_answer(&w);
      opj_w_free(&w);
      start = i + 1;
    }
  }
  opd_session_free(s);
  return 0;
}
