/*
** test_hash.c -- op_hash64, the checkpoint and content-id hash (spec/conformance.md CONF-060),
** against the test vectors of CONF-065. The expected values are copied from the spec's table,
** which was computed with the xxHash library (XXH3_64bits) and with the Lua port's
** independent XXH3 (conformance/ports/lua/xxh3.lua); they are not output of op_hash64.
*/
#include <stdint.h>
#include <stdlib.h>

#include "onepath.h"
#include "optest.h"

/* CONF-065: the pattern input b_i = (31 i + 7) mod 256 and its hashes. */
static const struct {
  size_t n;
  uint64_t hash;
} vectors[] = {
    {0, 0x2d06800538d394c2ULL},    {1, 0x4c5cca45d0f4811fULL},   {3, 0x15f7093b173d005cULL},
    {4, 0xdca012f95811b6b9ULL},    {8, 0xdec6a9a43575982eULL},   {9, 0xcbe393399f17ffbdULL},
    {16, 0x7e484c18d74895d0ULL},   {17, 0x208bde5ee2bed407ULL},  {128, 0xf92b70eaa21a6288ULL},
    {129, 0xf8f76713f2bb60faULL},  {240, 0xccc7375172c41f03ULL}, {241, 0x0b3b630948ce4a00ULL},
    {1024, 0x23bc880ebf0d29c6ULL}, {100000, 0xccf90df7e7e37036ULL},
};

OPT_TEST(xxh3_vectors, "CONF-060, CONF-065") {
  enum { N = 100000 };
  uint8_t *b = malloc(N);
  OPT_CHECK(b != NULL);
  if (!b) return;
  for (size_t i = 0; i < N; i++) b[i] = (uint8_t)((31 * i + 7) % 256);
  OPT_CHECK(b[0] == 0x07 && b[1] == 0x26 && b[2] == 0x45 && b[3] == 0x64 && b[4] == 0x83);
  for (size_t k = 0; k < sizeof vectors / sizeof vectors[0]; k++) {
    uint64_t h = op_hash64(b, vectors[k].n);
    if (h != vectors[k].hash)
      fprintf(stderr, "  n = %zu: got %016llx, want %016llx\n", vectors[k].n, (unsigned long long)h,
              (unsigned long long)vectors[k].hash);
    OPT_CHECK(h == vectors[k].hash);
  }
  /* the input is read from its own address: an unaligned start hashes the same bytes alike */
  uint8_t *u = malloc(1025);
  OPT_CHECK(u != NULL);
  if (u) {
    memcpy(u + 1, b, 1024);
    OPT_CHECK(op_hash64(u + 1, 1024) == 0x23bc880ebf0d29c6ULL);
    free(u);
  }
  free(b);
}

OPT_MAIN_BEGIN
OPT_RUN(xxh3_vectors);
OPT_MAIN_END
