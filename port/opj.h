/*
** opj.h -- the small JSON reader and writer of the port protocol (docs/porting.md).
**
** Reader: opj_parse builds a tree owned by one opj_doc; values are read-only.
** Writer: opj_w appends JSON text to a growing buffer; an allocation failure
** sets w->oom and turns every later call into a no-op.
**
** Protocol value conventions (CONF section "Protocol values"):
**   doubles   JSON numbers (shortest round-trip form, "-0" kept), or the strings
**             "NaN", "Infinity", "-Infinity";
**   u64       strings of exactly 16 lower-case hex digits (refs, hashes, ids);
**   bytes     strings of lower-case hex, two digits a byte.
*/
#ifndef OPJ_H
#define OPJ_H

#include <stddef.h>
#include <stdint.h>

typedef enum opj_type { OPJ_NULL, OPJ_BOOL, OPJ_NUM, OPJ_STR, OPJ_ARR, OPJ_OBJ } opj_type;

typedef struct opj opj;
struct opj {
  opj_type type;
  int b;          /* OPJ_BOOL */
  double num;     /* OPJ_NUM */
  const char *str; /* OPJ_STR: NUL-terminated, decoded; len bytes */
  size_t len;
  size_t n;        /* OPJ_ARR / OPJ_OBJ: number of items */
  opj **items;
  const char **keys; /* OPJ_OBJ only */
};

typedef struct opj_doc opj_doc;

/* Reader limits (CONF-021, CONF-023, CONF-037). */
#define OPJ_MAX_DEPTH 64
#define OPJ_MAX_TEXT (64 * 1024 * 1024)
#define OPJ_MAX_VALUES (1 << 21) /* JSON values in one text (CONF-037) */
/* The most bytes the reader holds per value begun, beside the text (CONF-037 note;
** checked by tests/test_opj.c through opj_stats.bytes_peak). */
#define OPJ_VALUE_BYTES 128

/* Parse len bytes of JSON. Returns NULL on error with a message in err (may be NULL). */
opj_doc *opj_parse(const char *text, size_t len, char *err, size_t errlen);
/* Same, also giving the byte offset of the error and whether a limit (depth, size,
** memory) was hit rather than a syntax error. Number nodes keep their source text in
** str/len. (Added by the protocol engineer; additive.) */
opj_doc *opj_parse_ex(const char *text, size_t len, char *err, size_t errlen, size_t *err_off,
                      int *is_limit);
/* What one parse cost (counted, never timed; tests/test_opj.c keeps them bounded). */
typedef struct opj_stats {
  size_t values;       /* JSON values begun (CONF-037) */
  size_t key_compares; /* member-name comparisons of the duplicate check (CONF-022) */
  size_t bytes_peak;   /* the most bytes the reader held at once: nodes, texts, work arrays */
} opj_stats;
/* opj_parse_ex that also fills *stats (may be NULL), on success and on error alike. */
opj_doc *opj_parse_stats(const char *text, size_t len, char *err, size_t errlen, size_t *err_off,
                         int *is_limit, opj_stats *stats);
const opj *opj_root(const opj_doc *d);
void opj_free(opj_doc *d);

const opj *opj_get(const opj *obj, const char *key); /* NULL if absent or not an object */
const opj *opj_at(const opj *arr, size_t i);         /* NULL if out of range */

/* Typed reads following the conventions above; each returns 0 on success and -1
** when the value is absent or of the wrong form. */
int opj_double(const opj *v, double *out);
int opj_int(const opj *v, int64_t lo, int64_t hi, int64_t *out); /* integral number in [lo, hi] */
int opj_u64hex(const opj *v, uint64_t *out);
int opj_hexbytes(const opj *v, uint8_t **out, size_t *len); /* *out malloc'd */

typedef struct opj_w {
  char *buf;
  size_t len, cap;
  int oom;
  int need_comma; /* internal */
} opj_w;

void opj_w_init(opj_w *w);
void opj_w_free(opj_w *w);
void opj_w_obj_begin(opj_w *w);
void opj_w_obj_end(opj_w *w);
void opj_w_arr_begin(opj_w *w);
void opj_w_arr_end(opj_w *w);
void opj_w_key(opj_w *w, const char *key);
void opj_w_null(opj_w *w);
void opj_w_bool(opj_w *w, int b);
void opj_w_int(opj_w *w, int64_t v);
void opj_w_double(opj_w *w, double v);
void opj_w_str(opj_w *w, const char *s);
void opj_w_strn(opj_w *w, const char *s, size_t n);
void opj_w_u64hex(opj_w *w, uint64_t v);
void opj_w_hexbytes(opj_w *w, const uint8_t *p, size_t n);
/* Writes a parsed value (numbers keep their source text). */
void opj_w_value(opj_w *w, const opj *v);
/* Appends n bytes of already-formed JSON text as they are (no separator). */
void opj_w_raw(opj_w *w, const char *s, size_t n);
/* Shortest round-trip text of a double (CONF-030) into buf (>= 32 bytes); returns its
** length. "NaN", "Infinity", "-Infinity" for the non-finite values. */
size_t opj_format_double(char *buf, size_t size, double v);

#endif
