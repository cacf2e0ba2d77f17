# scripts/tests.cmake -- traceability tests, included by the top CMakeLists.txt.
# All run from the source dir with the lua5.4 interpreter found there (LUA_EXE).
#
#   clauses/check     spec/clauses.tsv matches the spec text; no duplicate, malformed or
#                     undefined clause ids (scripts/clauses.lua check)
#   clauses/matrix    the clause x evidence matrix builds, one row per clause
#                     (written into the build dir, not into out/)
#   clauses/selftest  the tools themselves, on the fixtures in tests/fixtures/clauses/
#   port-lua/GROUP    the independent pure-Lua port (conformance/ports/lua) passes the
#                     scenario groups it covers: conformance, math, format (CONF-090)
#   port-lua/xxh3-vectors  its XXH3 reproduces the test vectors of CONF-065
#   house/deps        ref/ obeys the layer order of ref/README.md: includes resolve and go
#                     down only, no include or call circle (from nm -A of libonepath),
#                     port/ tools/ fuzz/ bench/ use include/ only (scripts/deps.lua)
#   house/deps-selftest  deps.lua itself, and clauses.lua's sections table, on the
#                     fixture trees of tests/fixtures/deps/

add_test(NAME clauses/check
         COMMAND ${LUA_EXE} scripts/clauses.lua check
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME clauses/matrix
         COMMAND ${LUA_EXE} scripts/matrix.lua --check ${CMAKE_BINARY_DIR}/matrix
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME clauses/selftest
         COMMAND ${LUA_EXE} tests/fixtures/clauses/selftest.lua
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

# The independent pure-Lua port (conformance/ports/lua), written from the spec text alone,
# driven through the protocol like any port (CONF-090): evidence that the spec is portable.
# One test per scenario group the port covers; plain build only; skipped (exit 77) when the
# lua5.4 interpreter is not on PATH at test time.
foreach(group conformance math format)
  add_test(NAME port-lua/${group}
           COMMAND sh -c "command -v lua5.4 >/dev/null 2>&1 || { echo 'lua5.4 not found: skipped'; exit 77; }; exec \"$0\" run --quiet --port \"$1\" --filter \"$2\""
                   $<TARGET_FILE:op-conform> ${CMAKE_SOURCE_DIR}/conformance/ports/lua/onepath-port-lua ${group}/
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(port-lua/${group} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
# The test vectors of CONF-065, read from the spec text, against the port's own XXH3.
add_test(NAME port-lua/xxh3-vectors
         COMMAND ${LUA_EXE} conformance/ports/lua/xxh3_vectors.lua ${CMAKE_SOURCE_DIR}
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

# MATH-004: the reference library and the port layer call no function of the C math
# library except sqrt and the classification tests (scripts/check-libm.sh reads the
# archives' undefined symbols with nm). Skipped (77) when nm or libm.so.6 is not found.
add_test(NAME math/libm-calls
         COMMAND sh scripts/check-libm.sh $<TARGET_FILE:onepath> $<TARGET_FILE:opport>
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(math/libm-calls PROPERTIES SKIP_RETURN_CODE 77)

# The house's dependency rules (ref/README.md, "Rules" and "Layers"): include order and
# resolution, include and call circles among ref/'s files (nm -A of the built library),
# nothing from ref/ in port/, tools/, fuzz/, bench/. Needs nm (binutils).
add_test(NAME house/deps
         COMMAND ${LUA_EXE} scripts/deps.lua --lib $<TARGET_FILE:onepath>
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME house/deps-selftest
         COMMAND ${LUA_EXE} tests/fixtures/deps/selftest.lua
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
