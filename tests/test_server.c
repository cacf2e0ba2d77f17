/*
** test_server.c -- the protocol server onepath-port as a process (spec/conformance.md
** "Framing" CONF-020, CONF-021, and the session rule CONF-028): line framing, empty lines,
** a last line without a line feed, the answer before the next read, the exit status, and
** the 2^26-byte line limit, the 2^21-value limit of CONF-037 and the server's memory there. The server is the onepath-port executable built next to this
** test (onepath-port_asan for test_server_asan). Expected answers are written from the
** clauses.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "optest.h"

typedef struct server {
  pid_t pid;
  int to, from;
  char buf[65536];
  size_t n;
} server;

/* The onepath-port of this build: same directory, same variant suffix as this test. */
static int server_path(char *out, size_t len) {
  char self[PATH_MAX];
  ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
  if (k <= 0) return -1;
  self[k] = '\0';
  char *slash = strrchr(self, '/');
  if (!slash) return -1;
  int asan = strstr(slash, "_asan") != NULL;
  *slash = '\0';
  snprintf(out, len, "%s/onepath-port%s", self, asan ? "_asan" : "");
  return access(out, X_OK);
}

static int start(server *s) {
  char exe[PATH_MAX + 32];
  memset(s, 0, sizeof *s);
  if (server_path(exe, sizeof exe)) {
    fprintf(stderr, "  cannot find onepath-port next to this test\n");
    return -1;
  }
  int in[2], out[2];
  if (pipe(in) || pipe(out)) return -1;
  signal(SIGPIPE, SIG_IGN);
  s->pid = fork();
  if (s->pid < 0) return -1;
  if (s->pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    char *argv[] = {exe, NULL};
    execv(exe, argv);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  s->to = in[1];
  s->from = out[0];
  return 0;
}

static int send_bytes(server *s, const char *p, size_t n) {
  while (n) {
    ssize_t k = write(s->to, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

static int send_str(server *s, const char *p) { return send_bytes(s, p, strlen(p)); }

/* Reads one answer line (without its '\n') into line; waits at most ms. 1 got a line,
** 0 end of output, -1 timeout or error. */
static int read_answer(server *s, char *line, size_t len, int ms) {
  for (;;) {
    char *nl = memchr(s->buf, '\n', s->n);
    if (nl) {
      size_t k = (size_t)(nl - s->buf);
      snprintf(line, len, "%.*s", (int)k, s->buf);
      memmove(s->buf, nl + 1, s->n - k - 1);
      s->n -= k + 1;
      return 1;
    }
    if (s->n == sizeof s->buf) return -1;
    struct pollfd pf = {s->from, POLLIN, 0};
    int pr = poll(&pf, 1, ms);
    if (pr < 0 && errno == EINTR) continue;
    if (pr == 0) return -1;
    ssize_t k = read(s->from, s->buf + s->n, sizeof s->buf - s->n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return -1;
    if (k == 0) return s->n ? -1 : 0;
    s->n += (size_t)k;
  }
}

/* Closes stdin and returns the exit status (or -1). */
static int finish(server *s) {
  if (s->to >= 0) close(s->to);
  s->to = -1;
  int st = 0;
  for (int i = 0; i < 1000; i++) {
    pid_t w = waitpid(s->pid, &st, WNOHANG);
    if (w == s->pid) {
      close(s->from);
      return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  kill(s->pid, SIGKILL);
  waitpid(s->pid, &st, 0);
  close(s->from);
  return -1;
}

static int starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

OPT_TEST(framing, "CONF-020") {
  server s;
  char a[4096];
  OPT_CHECK(start(&s) == 0);
  if (s.pid <= 0) return;
  /* an empty line gets no answer; the request after it does */
  OPT_CHECK(send_str(&s, "\n{\"id\":1,\"op\":\"hello\"}\n") == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 1 && starts(a, "{\"id\":1,\"ok\":{"));
  /* the answer comes before the next request is written: nothing more is sent until read */
  OPT_CHECK(send_str(&s, "{\"id\":2,\"op\":\"echo\",\"args\":{\"i64\":[7]}}\n") == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 1 &&
            strcmp(a, "{\"id\":2,\"ok\":{\"i64\":[7]}}") == 0);
  /* several requests in one write: answers in request order, one line each */
  OPT_CHECK(send_str(&s, "{\"id\":3,\"op\":\"echo\",\"args\":{\"i64\":[3]}}\n\n\n"
                         "{\"id\":4,\"op\":\"echo\",\"args\":{\"i64\":[4]}}\n") == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 1 && strcmp(a, "{\"id\":3,\"ok\":{\"i64\":[3]}}") == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 1 && strcmp(a, "{\"id\":4,\"ok\":{\"i64\":[4]}}") == 0);
  /* a last line without a line feed is a request; at end of input the server exits 0 */
  OPT_CHECK(send_str(&s, "{\"id\":5,\"op\":\"echo\",\"args\":{\"i64\":[5]}}") == 0);
  close(s.to);
  s.to = -1;
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 1 && strcmp(a, "{\"id\":5,\"ok\":{\"i64\":[5]}}") == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 0); /* no further line: the empty lines got none */
  OPT_CHECK(finish(&s) == 0);
}

OPT_TEST(empty_input_exits_zero, "CONF-020") {
  server s;
  char a[256];
  OPT_CHECK(start(&s) == 0);
  if (s.pid <= 0) return;
  OPT_CHECK(send_str(&s, "\n\n") == 0);
  close(s.to);
  s.to = -1;
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 0);
  OPT_CHECK(finish(&s) == 0);
}

OPT_TEST(session_in_one_process, "CONF-028") {
  server s;
  char a[4096];
  OPT_CHECK(start(&s) == 0);
  if (s.pid <= 0) return;
  OPT_CHECK(send_str(&s, "{\"id\":1,\"op\":\"prng.new\",\"args\":{\"seed\":\"0000000000000000\"}}\n") == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 1 && strcmp(a, "{\"id\":1,\"ok\":{\"handle\":1}}") == 0);
  /* error answers do not end the session */
  OPT_CHECK(send_str(&s, "{\"id\":2,\"op\":\"nope\"}\nnot json\n") == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 1 && starts(a, "{\"id\":2,\"error\":{\"kind\":\"argument\",\"field\":\"op\""));
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 1 && starts(a, "{\"id\":null,\"error\":{\"kind\":\"argument\",\"field\":\"request\""));
  /* the PRNG of request 1 is still there (MATH-043 from the seed-0 state of MATH-042:
  ** rotl(0x6e789e6aa1b965f4 * 5, 7) * 9, computed below), and the next handle is 2 */
  uint64_t s1 = 0x6e789e6aa1b965f4ULL, m = s1 * 5;
  uint64_t first = ((m << 7) | (m >> 57)) * 9;
  char want[128];
  snprintf(want, sizeof want, "{\"id\":3,\"ok\":{\"values\":[\"%016llx\"]}}", (unsigned long long)first);
  OPT_CHECK(send_str(&s, "{\"id\":3,\"op\":\"prng.next_u64\",\"args\":{\"prng\":1,\"count\":1}}\n") == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 1 && strcmp(a, want) == 0);
  OPT_CHECK(send_str(&s, "{\"id\":4,\"op\":\"prng.new\",\"args\":{\"seed\":\"0000000000000000\"}}\n") == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 1 && strcmp(a, "{\"id\":4,\"ok\":{\"handle\":2}}") == 0);
  OPT_CHECK(finish(&s) == 0);
}

/* Sends a line of n bytes: `head`, then `fill` bytes up to n, then '\n'. */
static int send_long_line(server *s, const char *head, char fill, size_t n) {
  static char block[1 << 16];
  memset(block, fill, sizeof block);
  size_t h = strlen(head);
  if (send_bytes(s, head, h)) return -1;
  for (size_t left = n - h; left;) {
    size_t k = left < sizeof block ? left : sizeof block;
    if (send_bytes(s, block, k)) return -1;
    left -= k;
  }
  return send_bytes(s, "\n", 1);
}

OPT_TEST(line_limit, "CONF-021") {
  server s;
  char a[4096];
  const size_t LIMIT = (size_t)1 << 26; /* 67108864 */
  OPT_CHECK(start(&s) == 0);
  if (s.pid <= 0) return;
  /* one byte too many: not parsed, limit error with the byte count, id null */
  OPT_CHECK(send_long_line(&s, "{\"id\":1,\"op\":\"hello\"}", ' ', LIMIT + 1) == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 60000) == 1 &&
            starts(a, "{\"id\":null,\"error\":{\"kind\":\"limit\",\"field\":\"request\",\"value\":\"67108865\","));
  /* the server goes on with the next line */
  OPT_CHECK(send_str(&s, "{\"id\":2,\"op\":\"echo\",\"args\":{\"i64\":[2]}}\n") == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 1 && strcmp(a, "{\"id\":2,\"ok\":{\"i64\":[2]}}") == 0);
  /* exactly 2^26 bytes is a request: trailing spaces are JSON whitespace */
  OPT_CHECK(send_long_line(&s, "{\"id\":3,\"op\":\"echo\",\"args\":{\"i64\":[3]}}", ' ', LIMIT) == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 60000) == 1 && strcmp(a, "{\"id\":3,\"ok\":{\"i64\":[3]}}") == 0);
  /* a much longer line: its full length is the value */
  OPT_CHECK(send_long_line(&s, "x", 'y', LIMIT + 70000) == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 60000) == 1 &&
            starts(a, "{\"id\":null,\"error\":{\"kind\":\"limit\",\"field\":\"request\",\"value\":\"67178864\","));
  OPT_CHECK(finish(&s) == 0);
}

/* CONF-037: a 63 MB line of 31.5 million values is refused at the 2^21 + 1-th value and the
** server holds memory in proportion to the values it read, not to the line (it held 3.3 GB
** before; the peak resident size of the server process is counted, never timed). */
OPT_TEST(values_limit, "CONF-037") {
  server s;
  char a[4096];
  OPT_CHECK(start(&s) == 0);
  if (s.pid <= 0) return;
  static const char head[] = "{\"id\":1,\"op\":\"echo\",\"args\":{\"i64\":[";
  size_t n = (63u * 1000u * 1000u) / 2, len = strlen(head) + 2 * n + 4;
  char *line = malloc(len);
  OPT_CHECK(line != NULL);
  if (!line) return;
  memcpy(line, head, strlen(head));
  char *p = line + strlen(head);
  for (size_t i = 0; i < n; i++) { *p++ = i ? ',' : '0'; *p++ = i ? '0' : ' '; }
  memcpy(p, "]}}\n", 4);
  OPT_CHECK(send_bytes(&s, line, len) == 0);
  free(line);
  OPT_CHECK(read_answer(&s, a, sizeof a, 120000) == 1 &&
            starts(a, "{\"id\":null,\"error\":{\"kind\":\"limit\",\"field\":\"request\",\"value\":\"\","));
  /* the session goes on */
  OPT_CHECK(send_str(&s, "{\"id\":2,\"op\":\"echo\",\"args\":{\"i64\":[2]}}\n") == 0);
  OPT_CHECK(read_answer(&s, a, sizeof a, 10000) == 1 && strcmp(a, "{\"id\":2,\"ok\":{\"i64\":[2]}}") == 0);
  OPT_CHECK(finish(&s) == 0);
  /* the largest child so far (this and the earlier servers of this test) */
  struct rusage ru;
  OPT_CHECK(getrusage(RUSAGE_CHILDREN, &ru) == 0);
  char exe[PATH_MAX + 32];
  int asan = server_path(exe, sizeof exe) == 0 && strstr(exe, "_asan") != NULL;
  long bound_kb = asan ? 1536L * 1024 : 512L * 1024; /* measured: 211 MB plain */
  OPT_CHECK(ru.ru_maxrss < bound_kb);
  if (ru.ru_maxrss >= bound_kb) fprintf(stderr, "  server peak %ld kB\n", ru.ru_maxrss);
}

OPT_MAIN_BEGIN
OPT_RUN(framing);
OPT_RUN(empty_input_exits_zero);
OPT_RUN(session_in_one_process);
OPT_RUN(line_limit);
OPT_RUN(values_limit);
OPT_MAIN_END
