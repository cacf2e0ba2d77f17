# ctest fuzz/corpus-tilecache_history: runs fuzz/history/mkcorpus.c's program (GEN) into a
# fresh directory (OUT) and checks that every seed it writes is in DIR with the same bytes,
# so a change of the harness's decision order that forgets the generator is noticed.
# Files in DIR that the generator does not write (minimised finds, traces) are allowed.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${GEN} ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mkcorpus failed (${rc})")
endif()
file(GLOB seeds RELATIVE ${OUT} ${OUT}/*)
set(bad)
foreach(s ${seeds})
  if(NOT EXISTS ${DIR}/${s})
    list(APPEND bad "${s} (missing)")
  else()
    file(SHA256 ${OUT}/${s} h1)
    file(SHA256 ${DIR}/${s} h2)
    if(NOT h1 STREQUAL h2)
      list(APPEND bad "${s} (differs)")
    endif()
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "fuzz/corpus/tilecache_history is not what fuzz/history/mkcorpus.c writes: ${bad}; "
                      "run: cmake --build BUILD --target fuzz-mkcorpus-tilecache_history")
endif()
list(LENGTH seeds n)
message(STATUS "${n} seeds up to date")
