/*
** replay_main.c -- runs a fuzz harness over files and directories given on the command
** line, so the corpora and regressions run as ordinary ctest tests with the normal
** compiler (no libFuzzer needed). Prints "N passed, N failed"; a crash is a failure of
** the whole run, as it should be.
*/
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "cannot open %s\n", path); return -1; }
  size_t cap = 1 << 16, len = 0;
  unsigned char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      unsigned char *nb = realloc(buf, cap * 2);
      if (!nb) { free(buf); buf = NULL; break; }
      buf = nb;
      cap *= 2;
    }
  }
  fclose(f);
  if (!buf) return -1;
  LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  return 0;
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path, int *ok, int *bad) {
  struct stat st;
  if (stat(path, &st) != 0) { (*bad)++; fprintf(stderr, "missing %s\n", path); return; }
  if (!S_ISDIR(st.st_mode)) {
    if (run_file(path) == 0) (*ok)++; else (*bad)++;
    return;
  }
  DIR *d = opendir(path);
  if (!d) { (*bad)++; return; }
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char **nn = realloc(names, (n + 1) * sizeof *names);
    if (!nn) break;
    names = nn;
    names[n] = malloc(strlen(path) + strlen(e->d_name) + 2);
    if (!names[n]) break;
    sprintf(names[n], "%s/%s", path, e->d_name);
    n++;
  }
  closedir(d);
  qsort(names, n, sizeof *names, compare_names);
  for (size_t i = 0; i < n; i++) {
    run_path(names[i], ok, bad);
    free(names[i]);
  }
  free(names);
}

int main(int argc, char **argv) {
  int ok = 0, bad = 0;
  for (int i = 1; i < argc; i++) run_path(argv[i], &ok, &bad);
  printf("%d passed, %d failed\n", ok, bad);
  return bad ? 1 : 0;
}
