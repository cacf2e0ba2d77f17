/*
** test_obj.c -- the Wavefront OBJ reader (spec/build3d-spans.md SPAN-080 .. SPAN-088):
** fans, negative indices, reference forms, comments and ignored lines, line endings,
** number syntax and rounding, and every error with its line number.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onepath_build3d.h"
#include "optest.h"

static op_status parse(const char *text, op_trimesh *m, op_error *e) {
  memset(m, 0, sizeof *m);
  return op_obj_parse(text, strlen(text), m, e);
}

static int tri_is(const op_trimesh *m, uint32_t t, uint32_t a, uint32_t b, uint32_t c) {
  return t < m->ntris && m->tris[3 * t] == a && m->tris[3 * t + 1] == b && m->tris[3 * t + 2] == c;
}

static int fails(const char *text, op_status kind, const char *field, const char *value) {
  op_trimesh m;
  op_error e;
  memset(&m, 0x5a, sizeof m); /* a failed call leaves *out as it was */
  op_status st = op_obj_parse(text, strlen(text), &m, &e);
  int ok = st == kind && e.kind == kind && strcmp(e.field, field) == 0 &&
           (!value || strcmp(e.value, value) == 0) && ((unsigned char *)&m)[0] == 0x5a;
  if (!ok)
    fprintf(stderr, "  '%s': got %d '%s' '%s'\n", text, (int)st, e.field, e.value);
  return ok;
}

/* SPAN-085: a polygon fans from its first reference, in order. */
OPT_TEST(obj_fan, "SPAN-085") {
  op_trimesh m;
  op_error e;
  OPT_CHECK(parse("v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nv -1 0 0.5\nf 1 4 3 2\nf 1 5 4\n", &m,
                  &e) == OP_OK);
  OPT_CHECK(m.nverts == 5 && m.ntris == 3);
  OPT_CHECK(tri_is(&m, 0, 0, 3, 2)); /* (r0, r1, r2) */
  OPT_CHECK(tri_is(&m, 1, 0, 2, 1)); /* (r0, r2, r3) */
  OPT_CHECK(tri_is(&m, 2, 0, 4, 3));
  OPT_CHECK(m.verts[3 * 4] == -1 && m.verts[3 * 4 + 2] == 0.5);
  op_trimesh_free(&m);
}

/* SPAN-083: negative indices count back from the latest vertex; the forms i/t, i//n, i/t/n. */
OPT_TEST(obj_refs, "SPAN-083") {
  op_trimesh m;
  op_error e;
  OPT_CHECK(parse("v 0 0 0\nv 1 0 0\nv 0 0 1\nf -3 -1 -2\nv 5 5 5\nf -1 -4 -3\n"
                  "f 1/1 2/2 3/3\nf 1//7 2//8 3//9\nf 1/2/3 +2/5/6 -2/-1/-1\n",
                  &m, &e) == OP_OK);
  OPT_CHECK(m.nverts == 4 && m.ntris == 5);
  OPT_CHECK(tri_is(&m, 0, 0, 2, 1));
  OPT_CHECK(tri_is(&m, 1, 3, 0, 1)); /* after 4 vertices: -1 = 3, -4 = 0, -3 = 1 */
  OPT_CHECK(tri_is(&m, 2, 0, 1, 2));
  OPT_CHECK(tri_is(&m, 3, 0, 1, 2));
  OPT_CHECK(tri_is(&m, 4, 0, 1, 2));
  op_trimesh_free(&m);
}

/* SPAN-080, SPAN-081: comments, blank lines, CRLF, tabs, ignored keywords, no final LF. */
OPT_TEST(obj_lines, "SPAN-081") {
  op_trimesh m;
  op_error e;
  const char *t = "# a level\r\n\r\nmtllib x.mtl\no thing\ng group\ns off\nusemtl stone\n"
                  "v\t1 2 3 # trailing comment\r\nvt 0.5 0.5\nvn 0 1 0\nvp 1\n"
                  "v 4 5 6 1.0\nv 7 8 9 0.1 0.2 0.3\nl 1 2\nfoo bar baz\n#f 9 9 9\n  \n"
                  "f 1 2 3\r";
  OPT_CHECK(parse(t, &m, &e) == OP_OK);
  OPT_CHECK(m.nverts == 3 && m.ntris == 1 && tri_is(&m, 0, 0, 1, 2));
  OPT_CHECK(m.verts[0] == 1 && m.verts[4] == 5 && m.verts[8] == 9);
  op_trimesh_free(&m);
  OPT_CHECK(parse("", &m, &e) == OP_OK && m.nverts == 0 && m.ntris == 0);
  op_trimesh_free(&m);
}

/* SPAN-084: number syntax and correct rounding. */
OPT_TEST(obj_numbers, "SPAN-084") {
  op_trimesh m;
  op_error e;
  OPT_CHECK(parse("v 0.1 -0.2 .3\nv 12. +5 1e-3\nv 2097152 -2097152 2.5E+2\nv -0 0 0\n", &m, &e) ==
            OP_OK);
  OPT_CHECK(m.nverts == 4);
  OPT_CHECK(m.verts[0] == 0.1 && m.verts[1] == -0.2 && m.verts[2] == 0.3);
  OPT_CHECK(m.verts[3] == 12 && m.verts[4] == 5 && m.verts[5] == 0.001);
  OPT_CHECK(m.verts[6] == 2097152 && m.verts[7] == -2097152 && m.verts[8] == 250);
  OPT_CHECK(m.verts[9] == 0 && signbit(m.verts[9])); /* -0 keeps its sign */
  op_trimesh_free(&m);
  /* beyond the +-2^21 domain (SPAN-084): out_of_range, the token as the value */
  OPT_CHECK(fails("v 9007199254740993 0 0\n", OP_E_RANGE, "line 1", "9007199254740993"));
  OPT_CHECK(fails("v 0 0 2097152.0000000005\n", OP_E_RANGE, "line 1", "2097152.0000000005"));
  OPT_CHECK(fails("v 1e400 0 0\n", OP_E_RANGE, "line 1", "1e400"));
  OPT_CHECK(fails("v inf 0 0\n", OP_E_FORMAT, "line 1", "inf"));
  OPT_CHECK(fails("v nan 0 0\n", OP_E_FORMAT, "line 1", "nan"));
  OPT_CHECK(fails("v 0x10 0 0\n", OP_E_FORMAT, "line 1", "0x10"));
  OPT_CHECK(fails("v 1,5 0 0\n", OP_E_FORMAT, "line 1", "1,5"));
  OPT_CHECK(fails("v . 0 0\n", OP_E_FORMAT, "line 1", "."));
  OPT_CHECK(fails("v 1e 0 0\n", OP_E_FORMAT, "line 1", "1e"));
  OPT_CHECK(fails("v 1 2 3 w\n", OP_E_FORMAT, "line 1", "w"));
}

/* SPAN-082, SPAN-083, SPAN-087: malformed lines name their line number. */
OPT_TEST(obj_errors, "SPAN-087") {
  OPT_CHECK(fails("v 1 2\n", OP_E_FORMAT, "line 1", "v"));
  OPT_CHECK(fails("v 0 0 0\nv 1 0 0\nf 1 2\n", OP_E_FORMAT, "line 3", "f"));
  OPT_CHECK(fails("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 0 1 2\n", OP_E_FORMAT, "line 4", "0"));
  OPT_CHECK(fails("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n", OP_E_FORMAT, "line 4", "4"));
  OPT_CHECK(fails("v 0 0 0\nv 1 0 0\nv 0 0 1\nf -4 1 2\n", OP_E_FORMAT, "line 4", "-4"));
  OPT_CHECK(fails("f 1 2 3\nv 0 0 0\nv 1 0 0\nv 0 0 1\n", OP_E_FORMAT, "line 1", "1"));
  OPT_CHECK(fails("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1/ 2 3\n", OP_E_FORMAT, "line 4", "1/"));
  OPT_CHECK(fails("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1/2/ 2 3\n", OP_E_FORMAT, "line 4", "1/2/"));
  OPT_CHECK(fails("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3/a\n", OP_E_FORMAT, "line 4", "3/a"));
  OPT_CHECK(fails("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 x\n", OP_E_FORMAT, "line 4", "x"));
  /* line 17: comments, blank lines and CRLF all count as lines */
  const char *t17 = "# head\r\n\r\nv 0 0 0\r\nv 1 0 0\nv 0 0 1\n# c\n\n\nvt 0 0\ng a\n"
                    "f 1 2 3\n\n\n\n\n\nf 1 2 9\n";
  OPT_CHECK(fails(t17, OP_E_FORMAT, "line 17", "9"));
  /* SPAN-080: a NUL byte; the text goes past it */
  op_trimesh m;
  op_error e;
  const char nul[] = "v 0 0 0\nv 1\0 0 0\n";
  OPT_CHECK(op_obj_parse(nul, sizeof nul - 1, &m, &e) == OP_E_FORMAT);
  OPT_CHECK(strcmp(e.field, "line 2") == 0 && strcmp(e.value, "00") == 0); /* SPAN-087 */
  /* a long token is cut to 63 bytes in the error value */
  char longv[200] = "v 0 0 ";
  memset(longv + 6, '7', 100);
  longv[106] = 'x';
  longv[107] = '\0';
  OPT_CHECK(fails(longv, OP_E_FORMAT, "line 1", NULL));
  OPT_CHECK(op_obj_parse(longv, strlen(longv), &m, &e) == OP_E_FORMAT && strlen(e.value) == 63);
}

OPT_MAIN_BEGIN
OPT_RUN(obj_fan);
OPT_RUN(obj_refs);
OPT_RUN(obj_lines);
OPT_RUN(obj_numbers);
OPT_RUN(obj_errors);
OPT_MAIN_END
