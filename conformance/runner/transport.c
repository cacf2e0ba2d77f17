/*
** transport.c -- how op-conform reaches an implementation: in process (opd_execute on a
** fresh session) or a port process spawned with pipes on its stdin and stdout
** (spec/conformance.md "Framing", CONF-020). A port answer must arrive within
** TR_TIMEOUT_MS; a port that exits or hangs fails the scenario, not the runner.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conform.h"
#include "dispatch.h"

#define TR_TIMEOUT_MS 60000

struct transport {
  opd_session *s; /* in-process */
  pid_t pid;      /* port process, or 0 */
  int to, from;   /* pipe ends */
  char *buf;      /* read buffer: [0, blen) received, answer lines cut from it */
  size_t blen, bcap, consumed;
  opj_w ans;      /* in-process answer */
};

transport *tr_open_inproc(void) {
  transport *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->s = opd_session_new();
  if (!t->s) { free(t); return NULL; }
  opj_w_init(&t->ans);
  return t;
}

transport *tr_open_port(const char *exe, char *msg, size_t msglen) {
  int in[2], out[2];
  signal(SIGPIPE, SIG_IGN); /* a port that exits must not kill the runner */
  if (pipe(in)) { snprintf(msg, msglen, "pipe: %s", strerror(errno)); return NULL; }
  if (pipe(out)) {
    snprintf(msg, msglen, "pipe: %s", strerror(errno));
    close(in[0]); close(in[1]);
    return NULL;
  }
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(msg, msglen, "fork: %s", strerror(errno));
    close(in[0]); close(in[1]); close(out[0]); close(out[1]);
    return NULL;
  }
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[0]); close(in[1]); close(out[0]); close(out[1]);
    char *argv[] = {(char *)exe, NULL};
    execv(exe, argv);
    fprintf(stderr, "op-conform: cannot run %s: %s\n", exe, strerror(errno));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  fcntl(in[1], F_SETFD, FD_CLOEXEC);
  fcntl(out[0], F_SETFD, FD_CLOEXEC);
  transport *t = calloc(1, sizeof *t);
  if (!t) {
    close(in[1]); close(out[0]);
    waitpid(pid, NULL, 0);
    snprintf(msg, msglen, "out of memory");
    return NULL;
  }
  t->pid = pid;
  t->to = in[1];
  t->from = out[0];
  opj_w_init(&t->ans);
  return t;
}

static int write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

/* Reads until the buffer holds a '\n' after `consumed`; returns the line length. */
static int read_line(transport *t, size_t *linelen, char *msg, size_t msglen) {
  if (t->consumed) { /* drop the previous answer */
    memmove(t->buf, t->buf + t->consumed, t->blen - t->consumed);
    t->blen -= t->consumed;
    t->consumed = 0;
  }
  size_t scanned = 0;
  for (;;) {
    char *nl = t->blen > scanned ? memchr(t->buf + scanned, '\n', t->blen - scanned) : NULL;
    if (nl) { *linelen = (size_t)(nl - t->buf); return 0; }
    scanned = t->blen;
    if (t->blen > (size_t)OPJ_MAX_TEXT + 1024) {
      snprintf(msg, msglen, "port answer longer than %d bytes", OPJ_MAX_TEXT);
      return -1;
    }
    if (t->bcap - t->blen < 65536) {
      size_t nc = t->bcap ? t->bcap * 2 : 131072;
      char *nb = realloc(t->buf, nc);
      if (!nb) { snprintf(msg, msglen, "out of memory"); return -1; }
      t->buf = nb;
      t->bcap = nc;
    }
    struct pollfd pf = {t->from, POLLIN, 0};
    int pr = poll(&pf, 1, TR_TIMEOUT_MS);
    if (pr < 0 && errno == EINTR) continue;
    if (pr == 0) { snprintf(msg, msglen, "port gave no answer within %d ms", TR_TIMEOUT_MS); return -1; }
    ssize_t k = read(t->from, t->buf + t->blen, t->bcap - t->blen);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) { snprintf(msg, msglen, "port closed its output (exited?)"); return -1; }
    t->blen += (size_t)k;
  }
}

int tr_exchange(transport *t, const char *req, size_t len, const char **ans, size_t *alen,
                char *msg, size_t msglen) {
  if (t->s) {
    opj_w_free(&t->ans);
    opj_w_init(&t->ans);
    opd_execute(t->s, req, len, &t->ans);
    if (t->ans.oom || !t->ans.buf) { snprintf(msg, msglen, "out of memory"); return -1; }
    *ans = t->ans.buf;
    *alen = t->ans.len;
    return 0;
  }
  if (t->to < 0) { snprintf(msg, msglen, "port is gone"); return -1; }
  if (write_all(t->to, req, len) || write_all(t->to, "\n", 1)) {
    snprintf(msg, msglen, "cannot write to the port: %s", strerror(errno));
    return -1;
  }
  size_t n;
  if (read_line(t, &n, msg, msglen)) return -1;
  t->buf[n] = '\0'; /* replaces the '\n' */
  t->consumed = n + 1;
  *ans = t->buf;
  *alen = n;
  return 0;
}

int names_has(const name_list *l, const char *name) {
  for (size_t i = 0; l && i < l->n; i++)
    if (strcmp(l->v[i], name) == 0) return 1;
  return 0;
}

int names_add(name_list *l, const char *name) {
  char **nv = realloc(l->v, (l->n + 1) * sizeof *nv);
  if (!nv) return -1;
  l->v = nv;
  l->v[l->n] = NULL;
  str_appendf(&l->v[l->n], "%s", name);
  if (!l->v[l->n]) return -1;
  l->n++;
  return 0;
}

void names_free(name_list *l) {
  for (size_t i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  l->v = NULL;
  l->n = 0;
}

/* CONF-050: the op list of a server's hello. */
int tr_hello_ops(transport *t, name_list *ops, char *protocol, size_t plen, char *msg,
                 size_t msglen) {
  static const char req[] = "{\"args\":{},\"id\":1,\"op\":\"hello\"}";
  const char *a;
  size_t alen;
  ops->v = NULL;
  ops->n = 0;
  if (plen) protocol[0] = '\0';
  if (tr_exchange(t, req, sizeof req - 1, &a, &alen, msg, msglen)) return -1;
  opj_doc *d = opj_parse(a, alen, msg, msglen);
  if (!d) return -1;
  const opj *ok = opj_get(opj_root(d), "ok");
  const opj *list = ok ? opj_get(ok, "ops") : NULL, *pr = ok ? opj_get(ok, "protocol") : NULL;
  int rc = 0;
  if (!list || list->type != OPJ_ARR) {
    snprintf(msg, msglen, "hello gave no ops list: %.200s", a);
    rc = -1;
  }
  if (pr && pr->type == OPJ_STR && plen) snprintf(protocol, plen, "%s", pr->str);
  for (size_t i = 0; !rc && i < list->n; i++) {
    const opj *e = list->items[i];
    if (e->type != OPJ_STR) {
      snprintf(msg, msglen, "hello's ops[%zu] is not a string", i);
      rc = -1;
    } else if (names_add(ops, e->str)) {
      snprintf(msg, msglen, "out of memory");
      rc = -1;
    }
  }
  if (rc) names_free(ops);
  opj_free(d);
  return rc;
}

void tr_close(transport *t) {
  if (!t) return;
  if (t->s) opd_session_free(t->s);
  if (t->pid > 0) {
    close(t->to);
    close(t->from);
    int st;
    /* closing stdin is the port's signal to exit (CONF-020); give it a moment */
    for (int i = 0; i < 200; i++) {
      pid_t w = waitpid(t->pid, &st, WNOHANG);
      if (w == t->pid || w < 0) goto done;
      struct timespec ts = {0, 10 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
    kill(t->pid, SIGKILL);
    waitpid(t->pid, &st, 0);
  }
done:
  free(t->buf);
  opj_w_free(&t->ans);
  free(t);
}
