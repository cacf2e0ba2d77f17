/*
** bench_threads.c -- times one level's bake (spec/build3d-polys.md POLY-228) with a given
** thread count: wall clock, the process's CPU time and the calling thread's CPU time over
** the build call, best wall of REPS runs, and the mesh hash. The calling thread's share is
** what stays serial (begin, validation, the triangle index, adding tiles in order), so
** bench-threads.sh can also estimate the speed-up of an idle machine from CPU times when the
** machine is busy. A benchmark, not a test. Public headers only.
**   bench_threads LEVEL SIZE PARTITION SAMPLING THREADS REPS
**   bench_threads --spin N      (the machine's available parallelism, see spin_main)
*/
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "onepath.h"
#include "onepath_build3d.h"
#include "onepath_pipeline.h"

static double now(clockid_t c) {
  struct timespec t;
  clock_gettime(c, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The calibration: a fixed busy loop per thread. */
static void *spin(void *arg) {
  volatile double x = 1;
  for (long i = 0; i < 100000000L; i++) x = x * 1.0000001 + 1e-9;
  (void)arg;
  return NULL;
}

/* bench_threads --spin N: N threads each run the same busy loop; prints the wall time. With
** N = 1 and N = 2, 2 * t1 / t2 is the parallelism the machine gives right now (2.0 idle on
** two cores; near 1.0 when other work holds a core). */
static int spin_main(int n) {
  pthread_t t[64];
  if (n < 1 || n > 64) return 2;
  double w0 = now(CLOCK_MONOTONIC);
  int k = 0;
  while (k < n && pthread_create(&t[k], NULL, spin, NULL) == 0) k++;
  for (int i = 0; i < k; i++) pthread_join(t[i], NULL);
  printf("%.4f\n", now(CLOCK_MONOTONIC) - w0);
  return k == n ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--spin")) return spin_main(atoi(argv[2]));
  if (argc != 7) {
    fprintf(stderr, "usage: bench_threads LEVEL SIZE PARTITION SAMPLING THREADS REPS\n");
    return 2;
  }
  op_settings s;
  op_error e;
  if (op_settings_preset("Humanoid", &s, &e)) return 1;
  const char *pn[3] = {"watershed", "monotone", "layers"};
  for (int p = 0; p < 3; p++)
    if (!strcmp(argv[3], pn[p])) s.partition = (op_partition)p;
  if (!atoi(argv[4])) s.detail_sample_distance = 0;
  op_trimesh m;
  memset(&m, 0, sizeof m);
  if (op_level_generate(argv[1], 1, (uint32_t)atoi(argv[2]), &s, &m, &e)) {
    fprintf(stderr, "%s\n", e.message);
    return 1;
  }
  op_soup soup = op_trimesh_soup(&m);
  op_pipeline_options o;
  memset(&o, 0, sizeof o);
  o.threads = (uint32_t)atoi(argv[5]);
  int reps = atoi(argv[6]);
  double bw = 1e30, bc = 0, bm = 0;
  uint64_t hash = 0;
  int32_t ntx = 0, ntz = 0;
  for (int r = 0; r < (reps < 1 ? 1 : reps); r++) {
    op_pipeline_result res;
    double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID),
           m0 = now(CLOCK_THREAD_CPUTIME_ID);
    op_status st = op_pipeline_build_soup_opt(&s, &soup, &o, NULL, &res, &e);
    double w = now(CLOCK_MONOTONIC) - w0, c = now(CLOCK_PROCESS_CPUTIME_ID) - c0,
           mm = now(CLOCK_THREAD_CPUTIME_ID) - m0;
    if (st) {
      fprintf(stderr, "%s\n", e.message);
      return 1;
    }
    op_bytes b = {NULL, 0};
    if (op_mesh_save(res.mesh, &b, &e)) return 1;
    hash = op_hash64(b.data, b.len);
    ntx = res.ntx;
    ntz = res.ntz;
    op_bytes_free(&b);
    op_pipeline_result_free(&res);
    if (w < bw) {
      bw = w;
      bc = c;
      bm = mm;
    }
  }
  /* wall_s cpu_s main_thread_cpu_s hash grid */
  printf("%.4f %.4f %.4f %016" PRIx64 " %" PRId32 "x%" PRId32 "\n", bw, bc, bm, hash, ntx, ntz);
  op_trimesh_free(&m);
  return 0;
}
