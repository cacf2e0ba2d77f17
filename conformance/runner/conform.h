/*
** conform.h -- shared declarations of op-conform, the conformance runner
** (spec/conformance.md; docs/porting.md). One C file per concern:
**   main.c       command line, scenario loop (host)
**   lua_api.c    the Lua state and the "opc" module the scenario DSL uses
**   transport.c  in-process session or a port process over pipes
**   artifact.c   hashing, parts and first-difference of artifacts
**   golden.c     golden files: read, compare, write
**   report.c     the text and Markdown report
**   traces.c     flat traces: export and check
**   selftest.c   checks of the runner's own comparison rules
*/
#ifndef OP_CONFORM_H
#define OP_CONFORM_H

#include <stddef.h>
#include <stdint.h>

#include "opj.h"

/* ------------------------------------------------------------ transport.c */

typedef struct transport transport;

/* A list of malloc'd names (op names, scenario names). */
typedef struct name_list {
  char **v;
  size_t n;
} name_list;
int names_has(const name_list *l, const char *name);
/* Appends a copy of name; 0 or -1 (out of memory). */
int names_add(name_list *l, const char *name);
void names_free(name_list *l);

/* CONF-050: asks a session for hello's ops and protocol. 0, or -1 with msg when the answer
** is not an ok answer with a list of strings. */
int tr_hello_ops(transport *t, name_list *ops, char *protocol, size_t plen, char *msg,
                 size_t msglen);
/* An in-process reference session (opd_execute). */
transport *tr_open_inproc(void);
/* Spawns exe (no shell) and talks to it over pipes. NULL with msg on failure. */
transport *tr_open_port(const char *exe, char *msg, size_t msglen);
/* Sends one request line (no '\n' inside) and reads the one-line answer into *ans
** (owned by the transport, valid until the next call). 0, or -1 with msg. */
int tr_exchange(transport *t, const char *req, size_t len, const char **ans, size_t *alen,
                char *msg, size_t msglen);
void tr_close(transport *t);

/* ------------------------------------------------------------ artifact.c */

#define OPC_MAX_PARTS 4096

typedef struct opc_part {
  char name[96];
  size_t off, len;
  uint64_t hash;
} opc_part;

typedef struct opc_art {
  size_t len;
  uint64_t hash;
  size_t nparts;
  opc_part *parts; /* malloc'd */
} opc_art;

/* kind: tile, mesh, snapshot, table. 0, or -1 with msg (unknown kind). A walker that
** stops early (malformed bytes) leaves the parts found so far and notes it in msg. */
int opc_artifact(const char *kind, const uint8_t *p, size_t n, opc_art *out, char *msg,
                 size_t msglen);
void opc_art_free(opc_art *a);
/* Describes the first difference between expected and actual bytes of one artifact:
** the first differing part and, for tile parts, the first differing field. Writes a
** sentence into out. */
void opc_first_difference(const char *kind, const uint8_t *exp, size_t elen, const uint8_t *act,
                          size_t alen, char *out, size_t outlen);
/* The same with an explicit layout (CONF-200; NULL or "" for none) and the labels of the
** two sides; 0 equal, 1 a field named, 2 a byte only (walk.h opw_difference). */
int opc_difference(const char *kind, const char *layout, const uint8_t *exp, size_t elen,
                   const uint8_t *act, size_t alen, const char *lexp, const char *lact, char *out,
                   size_t outlen);
/* The layout that names a difference's fields (CONF-202), or NULL. */
const char *opc_layout_of(const char *kind, const char *layout, const uint8_t *ref, size_t rn);
/* `op-conform diff A B [--kind K] [--layout L]` (CONF-204): 0 equal, 1 different, 2 error. */
int opc_diff_main(int argc, char **argv);
/* hex text -> bytes (malloc'd); -1 if not lower-case hex of even length. */
int opc_unhex(const char *hex, size_t hlen, uint8_t **out, size_t *len);

/* ------------------------------------------------------------ svg.c */

struct runner;
/* run --svg DIR (CONF-205): writes DIR/<scenario>/<checkpoint>.svg of a differing checkpoint
** and appends "; picture: PATH" (or why there is none) to the sentence in out. */
void opc_svg_checkpoint(struct runner *r, const char *cp, const char *kind, const char *layout,
                        const uint8_t *ref, size_t rn, const uint8_t *port, size_t pn, char *out,
                        size_t outlen);

/* ------------------------------------------------------------ golden.c */

typedef struct golden_cp {
  char name[96];
  char kind[16];
  size_t len;
  uint64_t hash;
  size_t nparts;
  opc_part *parts;
} golden_cp;

typedef struct golden {
  size_t n;
  golden_cp *cps;
} golden;

/* 1 loaded, 0 no such file, -1 malformed (msg). */
int golden_load(const char *path, golden *g, char *msg, size_t msglen);
/* Appends a text for the first mismatch between g and the actual checkpoints to msg;
** returns the number of checkpoints that match (in order, up to the first mismatch). */
size_t golden_compare(const golden *want, const golden *got, char *msg, size_t msglen);
/* Writes atomically (temp file + rename). Returns 0 or -1. */
int golden_write(const char *path, const char *scenario, const golden *g);
/* Canonical text of g (the file's content), malloc'd. */
char *golden_text(const char *scenario, const golden *g);
void golden_free(golden *g);

/* ------------------------------------------------------------ report.c */

typedef struct scen_result {
  char name[160];    /* group/name */
  int passed;
  size_t cps_ok, cps_total;
  size_t errors_checked;
  size_t calls;
  double ms;
  char *details;     /* malloc'd failure text, lines separated by '\n', or NULL */
  char *ops;         /* CONF-054: the ops it needs, sorted, one space between (malloc'd) */
  char *needs;       /* CONF-055: skipped: the needed ops the port lacks, ", " between */
  int expected;      /* CONF-057: named in the expected-failures file */
} scen_result;

/* CONF-056, CONF-057: the verdict of one scenario. */
enum { V_PASS, V_FAIL, V_SKIP, V_XFAIL, V_XPASS };
int scen_verdict(const scen_result *res);

typedef struct report {
  scen_result *r;
  size_t n, cap;
  int quiet;
} report;

void report_add(report *rep, scen_result *res); /* takes res->details, ops, needs */
/* Prints the scenario line (and details on failure) as it is added. */
void report_print_line(const report *rep, const scen_result *res);
/* Summary and the final "N passed, N failed" line; returns the number failed. */
size_t report_finish(const report *rep, const char *mode);
int report_markdown(const report *rep, const char *path, const char *mode);
void report_free(report *rep);
/* Appends printf text to a malloc'd string (*s may be NULL). */
void str_appendf(char **s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ------------------------------------------------------------ lua_api.c */

typedef struct lua_State lua_State;

typedef struct runner {
  const char *src;      /* source tree (OP_SOURCE_DIR or the working directory) */
  transport *primary;   /* the implementation under test */
  transport *shadow;    /* in-process reference when primary is a port, else NULL */
  int trace;            /* collect flat trace lines */
  const char *ref_ops;  /* CONF-054: the reference's ops (hello), one space between */
  const char *svg_dir;  /* run --svg DIR: pictures of differing artifacts (CONF-205), or NULL */
  const char *scenario; /* the scenario running (group/name), set by opc_lua_run */
  int svg_count;        /* pictures written for it (CONF-205: at most 20 a scenario) */
} runner;

lua_State *opc_lua_open(runner *r, char *msg, size_t msglen);
void opc_lua_close(lua_State *L);
/* Lists the scenarios: fills names ("group/name"), paths, and clause lists (text). */
typedef struct scen_entry {
  char *name, *path, *title, *clauses;
} scen_entry;
int opc_lua_list(lua_State *L, scen_entry **out, size_t *n, char *msg, size_t msglen);
void opc_entries_free(scen_entry *e, size_t n);

/* Runs one scenario (transports already set in r). Fills res (name, counts, details,
** pass/fail except the golden comparison), got (its checkpoints) and, when r->trace,
** *trace (malloc'd JSON lines). Returns 0, or -1 when the scenario could not run. */
int opc_lua_run(lua_State *L, const scen_entry *e, scen_result *res, golden *got, char **trace);

/* ------------------------------------------------------------ traces.c */

int traces_write(const char *dir, const char *scenario, const char *text);
/* Replays every DIR/<group>/<name>.jsonl against the port; returns failures. A trace whose
** header lists an op missing from port_ops (when port_ops is not NULL) is skipped
** (CONF-083); a name in `expected` (may be NULL) is an expected failure (CONF-057). */
int traces_check(const char *dir, const char *port, const char *filter, report *rep,
                 const name_list *port_ops, const name_list *expected);
/* Compares an answer with an expectation (trace form); NULL if it matches, else a
** malloc'd description. */
char *answer_mismatch(const opj *expect, const opj *answer);
/* The trace expectation of an answer: {"ok": X'} where big hex strings become
** {"$bytes": n, "$xxh3": h}, {"ok": null} when any ok answer is acceptable, or
** {"error": {kind, field, value}}. */
void expect_of_answer(opj_w *w, const opj *answer, int any_ok);

/* ------------------------------------------------------------ selftest.c */

/* `op-conform selftest`: the runner's comparison rules on hand-made inputs. */
int selftest_main(void);

#endif
