/*
** optest.h -- the unit-test harness: one executable per test_*.c file.
**
** A test names the clause it proves:   OPT_TEST(fmt_magic, "FMT-003") { ... }
** and registers it in main():          OPT_RUN(fmt_magic);
** OPT_CHECK(cond) records a failure (file, line, the condition) and goes on.
** OPT_MAIN_END prints the plain closing line "N passed, N failed" and returns the
** exit status (non-zero when any check failed).
*/
#ifndef OPTEST_H
#define OPTEST_H

#include <stdio.h>
#include <string.h>

typedef struct opt_state {
  int passed, failed, cur_failed;
  const char *cur_name, *cur_clause;
} opt_state;

#define OPT_TEST(name, clause)                                               \
  static const char *opt_clause_##name = clause;                            \
  static void opt_body_##name(opt_state *opt_s_)

#define OPT_CHECK(cond)                                                      \
  do {                                                                       \
    if (!(cond)) {                                                           \
      opt_s_->cur_failed++;                                                  \
      fprintf(stderr, "%s:%d: [%s %s] check failed: %s\n", __FILE__,          \
              __LINE__, opt_s_->cur_name, opt_s_->cur_clause, #cond);        \
    }                                                                        \
  } while (0)

#define OPT_MAIN_BEGIN                                                       \
  int main(void) {                                                           \
    opt_state opt_st_ = {0, 0, 0, NULL, NULL};                               \
    opt_state *opt_s_ = &opt_st_;

#define OPT_RUN(name)                                                        \
  do {                                                                       \
    opt_s_->cur_name = #name;                                                \
    opt_s_->cur_clause = opt_clause_##name;                                  \
    opt_s_->cur_failed = 0;                                                  \
    opt_body_##name(opt_s_);                                                 \
    if (opt_s_->cur_failed) {                                                \
      opt_s_->failed++;                                                      \
      printf("FAIL %s (%s)\n", #name, opt_clause_##name);                    \
    } else {                                                                 \
      opt_s_->passed++;                                                      \
      printf("ok   %s (%s)\n", #name, opt_clause_##name);                    \
    }                                                                        \
  } while (0)

#define OPT_MAIN_END                                                         \
  printf("%d passed, %d failed\n", opt_s_->passed, opt_s_->failed);          \
  return opt_s_->failed ? 1 : 0;                                             \
  }

#endif
