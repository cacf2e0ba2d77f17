/* fixture.c -- input of tests/mutation/selftest.lua (not built): each line says which
** mutants scripts/lib/mutants.lua must find on it. a < b in this comment: none. */
#include <stdlib.h>
#define TWICE(x) ((x) + (x))

typedef struct pt { int x; } pt;

static int f(const pt *p, int n, int *out) {
  char name[16] = "a<b && c";         /* none: declaration size, string */
  int s = p->x + n;                   /* + -> -, and nothing for the pointer */
  assert(n > 0);                      /* none: assert( */
  if (s >= 3 || !out) return 0;       /* >= -> >, 3 -> 4, 3 -> 2, || -> &&, ! removed, 0 -> 1 (literal), return 0 -> 1 */
  int *q = malloc((size_t)n * 4);     /* none: allocation size */
  *out = s * 2;                       /* * -> /, 2 -> 3, 2 -> 1, statement deleted */
  free(q);                            /* none: free */
  return s;                           /* return s -> 0 */
}
