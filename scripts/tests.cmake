# scripts/tests.cmake -- traceability tests, included by the top CMakeLists.txt.
# All run from the source dir with the lua5.4 interpreter found there (LUA_EXE).
#
#   clauses/check     spec/clauses.tsv matches the spec text; no duplicate, malformed or
#                     undefined clause ids (scripts/clauses.lua check)
#   clauses/matrix    the clause x evidence matrix builds, one row per clause
#                     (written into the build dir, not into out/)
#   clauses/selftest  the tools themselves, on the fixtures in tests/fixtures/clauses/

add_test(NAME clauses/check
         COMMAND ${LUA_EXE} scripts/clauses.lua check
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME clauses/matrix
         COMMAND ${LUA_EXE} scripts/matrix.lua --check ${CMAKE_BINARY_DIR}/matrix
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME clauses/selftest
         COMMAND ${LUA_EXE} tests/fixtures/clauses/selftest.lua
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
