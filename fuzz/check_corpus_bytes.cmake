# ctest fuzz/corpus-bytes: runs fuzz/mkcorpus_bytes.c's program (GEN) into fresh directories
# under OUT and checks that every seed it writes is in fuzz/corpus/tilecache_snapshot/ and
# fuzz/corpus/obj_text/ (DIR is fuzz/corpus) with the same bytes, so a change of the fixture
# (fuzz/tilecache_fixture.h), of the level generators or of the snapshot layout that leaves the
# committed seeds stale is noticed. Files the generator does not write (fuzz finds) are allowed.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT}/tilecache_snapshot ${OUT}/obj_text)
execute_process(COMMAND ${GEN} ${OUT}/tilecache_snapshot ${OUT}/obj_text RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz-mkcorpus-bytes failed (${rc})")
endif()
set(bad)
set(n 0)
foreach(h tilecache_snapshot obj_text)
  file(GLOB seeds RELATIVE ${OUT}/${h} ${OUT}/${h}/*)
  foreach(s ${seeds})
    math(EXPR n "${n} + 1")
    if(NOT EXISTS ${DIR}/${h}/${s})
      list(APPEND bad "${h}/${s} (missing)")
    else()
      file(SHA256 ${OUT}/${h}/${s} h1)
      file(SHA256 ${DIR}/${h}/${s} h2)
      if(NOT h1 STREQUAL h2)
        list(APPEND bad "${h}/${s} (differs)")
      endif()
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "fuzz/corpus is not what fuzz/mkcorpus_bytes.c writes: ${bad}; "
                      "run: cmake --build BUILD --target fuzz-mkcorpus-bytes")
endif()
message(STATUS "${n} seeds up to date")
