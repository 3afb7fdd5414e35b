# Doc tests: every ```cpp block of docs/*.md and README.md is a complete program. At configure time each block
# is written to <current binary dir>/docs/<page>_<n>.cpp, built against ufx::ufx and registered as the CTest
# docs.<page>.<n>; a block that returns non-zero or throws fails its test. Editing or adding a page
# re-runs the configure step (CMAKE_CONFIGURE_DEPENDS / CONFIGURE_DEPENDS).
#
# Blocks fenced as ```cpp are compiled; use ```c++ or ```text for fragments that are not programs.
# A block that includes <Eigen/...> is skipped when Eigen was not found. A block that includes
# <ufx/mpi.hpp> links ufx::mpi and runs under mpirun on 2 and on 3 ranks (docs.<page>.<n>.np2,
# .np3); it is skipped when MPI was not found.

# ufx_add_doc_tests(<dir or .md file>...): one executable and one CTest per ```cpp block of each
# named .md file and of each directory's *.md.
function(ufx_add_doc_tests)
  set(pages "")
  foreach(arg IN LISTS ARGN)
    if(IS_DIRECTORY "${arg}")
      file(GLOB found CONFIGURE_DEPENDS "${arg}/*.md")
      list(SORT found)
      list(APPEND pages ${found})
    else()
      list(APPEND pages "${arg}")
    endif()
  endforeach()
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/docs")
  file(GLOB stale "${out_dir}/*.cpp" "${out_dir}/*.cpp.tmp") # blocks deleted since the last run
  foreach(md IN LISTS pages)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${md}")
    get_filename_component(page "${md}" NAME_WE)
    file(READ "${md}" text)
    set(n 0)
    set(page_so_far "") # the part of the page before `text`
    while(TRUE)
      # an opening fence at the start of a line: ```cpp, optionally followed by spaces
      string(REGEX MATCH "(^|\n)```cpp[ \t]*\n" fence "${text}")
      if(NOT fence)
        break()
      endif()
      string(FIND "${text}" "${fence}" at)
      string(LENGTH "${fence}" fence_len)
      math(EXPR body_at "${at} + ${fence_len}")
      string(SUBSTRING "${text}" 0 ${body_at} before)
      string(SUBSTRING "${text}" ${body_at} -1 rest)
      string(FIND "${rest}" "\n```" close)
      if(close EQUAL -1)
        message(FATAL_ERROR "${md}: a ```cpp block is not closed")
      endif()
      math(EXPR n "${n} + 1")
      math(EXPR body_len "${close} + 1")
      string(SUBSTRING "${rest}" 0 ${body_len} body)
      string(SUBSTRING "${rest}" ${body_len} -1 text)

      # the line of the page where the block's code starts, so compiler errors point into the .md
      string(REGEX MATCHALL "\n" newlines "${page_so_far}${before}")
      list(LENGTH newlines line)
      math(EXPR line "${line} + 1")
      string(APPEND page_so_far "${before}${body}")

      set(name "docs.${page}.${n}")
      if(NOT Eigen3_FOUND AND body MATCHES "#include <Eigen/")
        message(STATUS "ufx: ${name} skipped (needs Eigen)")
        continue()
      endif()
      set(mpi_block OFF)
      if(body MATCHES "#include <ufx/mpi.hpp>")
        if(NOT TARGET ufx::mpi)
          message(STATUS "ufx: ${name} skipped (needs MPI)")
          continue()
        endif()
        set(mpi_block ON)
      endif()
      set(src "${out_dir}/${page}_${n}.cpp")
      list(REMOVE_ITEM stale "${src}" "${src}.tmp")
      # write through a scratch file so an unchanged block keeps its timestamp (no rebuild)
      file(WRITE "${src}.tmp" "#line ${line} \"${md}\"\n${body}")
      configure_file("${src}.tmp" "${src}" COPYONLY)
      set(exe "docs_${page}_${n}")
      add_executable(${exe} "${src}")
      target_link_libraries(${exe} PRIVATE ufx::ufx)
      # the blocks check their results with assert, so keep it on in Release builds
      target_compile_options(${exe} PRIVATE -UNDEBUG)
      if(PROJECT_IS_TOP_LEVEL)
        target_compile_options(${exe} PRIVATE -Wall -Wextra)
      endif()
      if(mpi_block)
        include(UfxMpiTest)
        target_link_libraries(${exe} PRIVATE ufx::mpi)
        ufx_mpi_test(${name}.np2 2 $<TARGET_FILE:${exe}>)
        ufx_mpi_test(${name}.np3 3 $<TARGET_FILE:${exe}>)
      else()
        add_test(NAME ${name} COMMAND ${exe})
      endif()
    endwhile()
  endforeach()
  if(stale)
    file(REMOVE ${stale})
  endif()
endfunction()
