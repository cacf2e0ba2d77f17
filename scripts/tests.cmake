# scripts/tests.cmake -- traceability tests, included by the top CMakeLists.txt.
# All run from the source dir with the lua5.4 interpreter found there (LUA_EXE).
#
#   clauses/check     spec/clauses.tsv matches the spec text; no duplicate, malformed or
#                     undefined clause ids (scripts/clauses.lua check)
#   clauses/matrix    the clause x evidence matrix builds, one row per clause
#                     (written into the build dir, not into out/)
#   clauses/spec-html the spec renders to HTML (cmark-gfm), every clause id anchored
#   clauses/spec-html-selftest  its coverage and mutation badges, from reports it writes
#   clauses/selftest  the tools themselves, on the fixtures in tests/fixtures/clauses/
#   port-lua/GROUP    the independent pure-Lua port (conformance/ports/lua) passes the
#                     scenario groups it covers: conformance, math, format, query (CONF-090;
#                     in query/ it runs the hand-made scenarios, corridor-edges, -errors and
#                     -offmesh among them; the rest need builders it lacks)
#   port-lua/query-diff    its query ops answer as the reference on the query/ meshes it
#                     cannot build (built by onepath-port, opened by mesh.load)
#   port-lua/corridor-diff its corridor.* ops (spec/query-corridor.md) answer as the
#                     reference on the same meshes, with flag edits and tile removals
#   port-lua/corridor-selftest  its corridor list rules (merges, cut, splice) on hand-derived lists
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
# Every clause of spec/clauses.tsv gets its anchor in the HTML rendering (scripts/spec-html,
# cmark-gfm, which scripts/setup.sh installs), written into the build dir.
add_test(NAME clauses/spec-html
         COMMAND ${LUA_EXE} scripts/spec-html --check ${CMAKE_BINARY_DIR}/spec-html
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME clauses/spec-html-selftest
         COMMAND ${LUA_EXE} scripts/spec-html-selftest ${CMAKE_BINARY_DIR}/spec-html-selftest
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
add_test(NAME clauses/selftest
         COMMAND ${LUA_EXE} tests/fixtures/clauses/selftest.lua
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

# The independent pure-Lua port (conformance/ports/lua), written from the spec text alone,
# driven through the protocol like any port (CONF-090): evidence that the spec is portable.
# One test per scenario group the port covers; plain build only; skipped (exit 77) when the
# lua5.4 interpreter is not on PATH at test time.
foreach(group conformance math format query)
  add_test(NAME port-lua/${group}
           COMMAND sh -c "command -v lua5.4 >/dev/null 2>&1 || { echo 'lua5.4 not found: skipped'; exit 77; }; exec \"$0\" run --quiet --port \"$1\" --filter \"$2\""
                   $<TARGET_FILE:op-conform> ${CMAKE_SOURCE_DIR}/conformance/ports/lua/onepath-port-lua ${group}/
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(port-lua/${group} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()
# The runner as a port author meets it (spec/conformance.md CONF-050 .. CONF-058):
#   conformance/op-table      CONF-051's op table against the reference's dispatch tables
#                             (both directions), its hello and the Lua port's hello; every
#                             scenario's needed ops within its group's sections (CONF-058)
#   conformance/partial-port  a port with only the session and math.md ops: exit 0, every
#                             conformance/ and math/ scenario passed, every other skipped
#                             (run --port and check-traces), empty known-failures file
#   conformance/expect-fail   --expect-fail: an unexpected pass fails the run, an expected
#                             failure does not, an unknown name stops the runner
# Skipped (77) when lua5.4 is not on PATH (the Lua port runs on it).
foreach(t op-table partial-port expect-fail)
  if(t STREQUAL "op-table")
    set(cmd tests/fixtures/conform/op_table.lua ${CMAKE_SOURCE_DIR} $<TARGET_FILE:onepath-port>
            $<TARGET_FILE:op-conform> ${CMAKE_BINARY_DIR}/conform-${t})
  else()
    string(REPLACE "partial-port" "partial" mode ${t})
    set(cmd tests/fixtures/conform/partial_port.lua ${mode} ${CMAKE_SOURCE_DIR}
            $<TARGET_FILE:op-conform> $<TARGET_FILE:onepath-port> ${CMAKE_BINARY_DIR}/conform-${t})
  endif()
  add_test(NAME conformance/${t}
           COMMAND sh -c "command -v lua5.4 >/dev/null 2>&1 || { echo 'lua5.4 not found: skipped'; exit 77; }; exec \"$0\" \"$@\""
                   ${LUA_EXE} ${cmd}
           WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties(conformance/${t} PROPERTIES SKIP_RETURN_CODE 77)
endforeach()

# The Lua port's query ops (spec/query.md) against the reference on the meshes of the query/
# scenarios it cannot build itself (levels, a 2D tile map, a tile cache's mesh with and without
# an obstacle), opened in the port by mesh.load: every answer equal (query_diff.py).
add_test(NAME port-lua/query-diff
         COMMAND sh -c "command -v lua5.4 >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1 || { echo 'lua5.4 or python3 not found: skipped'; exit 77; }; exec python3 conformance/ports/lua/query_diff.py --ref \"$0\" --pairs 30"
                 $<TARGET_FILE:onepath-port>
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(port-lua/query-diff PROPERTIES SKIP_RETURN_CODE 77)
# Its corridor ops (spec/query-corridor.md) the same way: random corridor sessions on those
# meshes, every answer equal (corridor_diff.py).
add_test(NAME port-lua/corridor-diff
         COMMAND sh -c "command -v lua5.4 >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1 || { echo 'lua5.4 or python3 not found: skipped'; exit 77; }; exec python3 conformance/ports/lua/corridor_diff.py --ref \"$0\" --sessions 15 --steps 20"
                 $<TARGET_FILE:onepath-port>
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(port-lua/corridor-diff PROPERTIES SKIP_RETURN_CODE 77)

# The corridor list rules of the Lua port (QCR-204, QCR-221, QCR-222, QCR-242), hand-derived.
add_test(NAME port-lua/corridor-selftest
         COMMAND ${LUA_EXE} conformance/ports/lua/corridor_selftest.lua
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})

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

# Issue 13, the mutation ratchet: a fixed-seed sample of mutants of ref/ (seed and size in
# tests/mutation/ratchet.txt) run against the conformance matrix in a scratch copy of the
# tree under the build dir (scripts/mutate.lua, docs/mutation.md); fails when the matrix's
# kill score of the sample drops below the committed figure. mutation/selftest checks the
# mutant generator and the sample rule on tests/mutation/fixture.c.
add_test(NAME mutation/ratchet
         COMMAND ${LUA_EXE} scripts/mutate.lua --ratchet tests/mutation/ratchet.txt --no-vendor
                 --work ${CMAKE_BINARY_DIR}/mutation-work --out ${CMAKE_BINARY_DIR}/mutation-ratchet
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties(mutation/ratchet PROPERTIES TIMEOUT 900)
add_test(NAME mutation/selftest
         COMMAND ${LUA_EXE} tests/mutation/selftest.lua
         WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
