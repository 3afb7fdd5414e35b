# Builds and runs one consumer project (cmake -P). Variables:
#   MODE           find_package | add_subdirectory | find_package_cuda | find_package_mpi | package
#   CPACK, PACKAGE_CONFIG  with package: cpack and the enclosing build's CPackConfig.cmake
#   MPIEXEC        with find_package_mpi: mpirun (the consumer runs on 2 ranks)
#   PREFIX         optional, find_package modes: an installed ufx to use (consumer.find_package's, for
#                  find_package_mpi: one build and install of ufx serves both) instead of installing one
#   INSTALL_FROM   optional, find_package modes: the enclosing build of ufx, installed with `cmake --install
#                  --prefix` (the package that build made) instead of a configure, build and install of its own
#   UFX_SOURCE_DIR ufx's source tree
#   WORK_DIR       scratch directory (emptied first)
#   GENERATOR, BUILD_TYPE, CXX_COMPILER, ENABLE_CUDA, CUDA_COMPILER (may be empty)
#                  mirrored from the enclosing build
# find_package: configure, build and install ufx into WORK_DIR/prefix, then build the consumer
# against that prefix. add_subdirectory: build the consumer, which adds ufx's source tree.
# find_package_cuda: as find_package, with a .cu consumer (ENABLE_CUDA on); then checks the flags
# nvcc got from ufx::ufx and the default CUDA architectures (cmake/UfxCudaArchitectures.cmake).
foreach(v MODE UFX_SOURCE_DIR WORK_DIR GENERATOR BUILD_TYPE CXX_COMPILER ENABLE_CUDA)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_consumer.cmake: -D${v}=... is required")
  endif()
endforeach()

if(MODE STREQUAL "add_subdirectory")
  # ufx's sources compile here as a part of the consumer (libufx and the program): without optimisation (Debian's
  # CMAKE_BUILD_TYPE None: no flags of a configuration), which is what this test checks faster than at -O3 (152 s of
  # CI's test time at -O3)
  set(BUILD_TYPE None)
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(common_args -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
                -DUFX_ENABLE_CUDA=${ENABLE_CUDA})
if(ENABLE_CUDA AND CUDA_COMPILER)
  list(APPEND common_args -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER})
endif()

function(step)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "consumer.${MODE}: ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "consumer.${MODE}: step failed (${rc}): ${shown}")
  endif()
endfunction()

set(consumer_dir "${CMAKE_CURRENT_LIST_DIR}/${MODE}")
if(MODE STREQUAL "package")
  # the packages cpack makes of the enclosing build: the .deb's fields, its files unpacked into a root (dpkg-deb -x, as
  # dpkg would install them under /usr) and the tarball's; then the find_package consumer against <root>/usr
  set(consumer_dir "${CMAKE_CURRENT_LIST_DIR}/find_package")
  step(${CPACK} --config "${PACKAGE_CONFIG}" -B "${WORK_DIR}/packages") # DEB and TGZ (CPACK_GENERATOR)
  file(GLOB deb "${WORK_DIR}/packages/*.deb")
  file(GLOB tgz "${WORK_DIR}/packages/*.tar.gz")
  if(NOT deb OR NOT tgz)
    message(FATAL_ERROR "consumer.${MODE}: cpack made no .deb or no .tar.gz in ${WORK_DIR}/packages")
  endif()
  file(READ "${UFX_SOURCE_DIR}/include/ufx/version.hpp" header)
  string(REGEX MATCH "UFX_VERSION_MAJOR ([0-9]+)" _ "${header}")
  set(version ${CMAKE_MATCH_1})
  foreach(part MINOR PATCH)
    string(REGEX MATCH "UFX_VERSION_${part} ([0-9]+)" _ "${header}")
    string(APPEND version ".${CMAKE_MATCH_1}")
  endforeach()
  execute_process(COMMAND dpkg-deb -f "${deb}" Package Version Depends Section OUTPUT_VARIABLE fields RESULT_VARIABLE rc)
  message(STATUS "consumer.${MODE}: ${deb}:\n${fields}")
  foreach(want "Package: libufx-dev\n" "Version: ${version}\n" "Depends: libthrust-dev" "Section: libdevel")
    string(FIND "${fields}" "${want}" at)
    if(NOT rc EQUAL 0 OR at EQUAL -1)
      message(FATAL_ERROR "consumer.${MODE}: the .deb's fields lack '${want}':\n${fields}")
    endif()
  endforeach()
  step(dpkg-deb -x "${deb}" "${WORK_DIR}/root")
  file(ARCHIVE_EXTRACT INPUT "${tgz}" DESTINATION "${WORK_DIR}/tgz")
  foreach(f include/ufx/ufx.hpp include/ufx/version.hpp lib*/cmake/ufx/ufxConfig.cmake lib*/cmake/ufx/ufxConfigVersion.cmake
            lib*/libufx.a)
    file(GLOB in_deb "${WORK_DIR}/root/usr/${f}")
    file(GLOB in_tgz "${WORK_DIR}/tgz/${f}")
    if(NOT in_deb OR NOT in_tgz)
      message(FATAL_ERROR "consumer.${MODE}: ${f} is not in the .deb's /usr or at the tarball's top")
    endif()
  endforeach()
  set(PREFIX "${WORK_DIR}/root/usr")
endif()
if(MODE STREQUAL "find_package_cuda" AND NOT (ENABLE_CUDA AND CUDA_COMPILER))
  message(FATAL_ERROR "consumer.${MODE}: needs ENABLE_CUDA and CUDA_COMPILER")
endif()
if(MODE MATCHES "^(find_package|package)" AND PREFIX)
  if(NOT EXISTS "${PREFIX}/include/ufx/ufx.hpp")
    message(FATAL_ERROR "consumer.${MODE}: no ufx installed under ${PREFIX}")
  endif()
  step(${CMAKE_COMMAND} -S "${consumer_dir}" -B "${WORK_DIR}/consumer-build" ${common_args}
       -DCMAKE_PREFIX_PATH=${PREFIX})
elseif(MODE MATCHES "^find_package")
  set(prefix "${WORK_DIR}/prefix")
  if(INSTALL_FROM)
    step(${CMAKE_COMMAND} --install "${INSTALL_FROM}" --prefix "${prefix}")
  else()
    step(${CMAKE_COMMAND} -S "${UFX_SOURCE_DIR}" -B "${WORK_DIR}/ufx-build" ${common_args}
         -DCMAKE_INSTALL_PREFIX=${prefix} -DUFX_BUILD_TESTS=OFF -DUFX_BUILD_EXAMPLES=OFF -DUFX_BUILD_BENCH=OFF
         -DUFX_INSTALL=ON) # the README's install recipe
    step(${CMAKE_COMMAND} --build "${WORK_DIR}/ufx-build" --parallel 2)
    step(${CMAKE_COMMAND} --install "${WORK_DIR}/ufx-build")
  endif()
  # the installed targets name no dependency path of the build machine: Thrust is found again by
  # ufxConfig.cmake where the package is used
  file(GLOB targets_files "${prefix}/lib*/cmake/ufx/ufxTargets*.cmake")
  foreach(f ${targets_files})
    file(READ "${f}" text)
    if(text MATCHES "thrust|cccl")
      message(FATAL_ERROR "consumer.${MODE}: ${f} bakes in a Thrust path")
    endif()
  endforeach()
  step(${CMAKE_COMMAND} -S "${consumer_dir}" -B "${WORK_DIR}/consumer-build" ${common_args}
       -DCMAKE_PREFIX_PATH=${prefix})
  if(MODE STREQUAL "find_package")
    # the package's version file (SameMinorVersion): the installed minor version is found, a minor version before or
    # after it is not
    file(READ "${UFX_SOURCE_DIR}/include/ufx/version.hpp" header)
    string(REGEX MATCH "UFX_VERSION_MAJOR ([0-9]+)" _ "${header}")
    set(major ${CMAKE_MATCH_1})
    string(REGEX MATCH "UFX_VERSION_MINOR ([0-9]+)" _ "${header}")
    set(minor ${CMAKE_MATCH_1})
    math(EXPR next "${minor} + 1")
    set(cases "${major}.${minor}" found "${major}.${next}" refused)
    if(minor GREATER 0)
      math(EXPR before "${minor} - 1")
      list(APPEND cases "${major}.${before}" refused)
    endif()
    while(cases)
      list(POP_FRONT cases want expect)
      execute_process(COMMAND ${CMAKE_COMMAND} -S "${CMAKE_CURRENT_LIST_DIR}/find_package_version"
                              -B "${WORK_DIR}/version-${want}" -DWANT=${want} -DCMAKE_PREFIX_PATH=${prefix}
                      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
      if(expect STREQUAL "found" AND NOT (rc EQUAL 0 AND out MATCHES "found ufx ${major}\\.${minor}\\."))
        message(FATAL_ERROR "consumer.${MODE}: find_package(ufx ${want}) did not find the installed ufx:\n${out}")
      elseif(expect STREQUAL "refused" AND (rc EQUAL 0 OR NOT out MATCHES "requested version \"${want}\""))
        message(FATAL_ERROR "consumer.${MODE}: find_package(ufx ${want}) did not refuse ufx ${major}.${minor}:\n${out}")
      endif()
    endwhile()
    message(STATUS "consumer.${MODE}: find_package(ufx ${major}.${minor}) finds the package; other minor versions do not")
  endif()
elseif(MODE STREQUAL "add_subdirectory")
  step(${CMAKE_COMMAND} -S "${consumer_dir}" -B "${WORK_DIR}/consumer-build" ${common_args}
       -DUFX_SOURCE_DIR=${UFX_SOURCE_DIR})
else()
  message(FATAL_ERROR "run_consumer.cmake: unknown MODE '${MODE}'")
endif()
step(${CMAKE_COMMAND} --build "${WORK_DIR}/consumer-build" --parallel 2)
if(MODE STREQUAL "find_package_mpi")
  # the consumer's own mpirun check: an installed ufx without the mpi component fails find_package first
  step(${MPIEXEC} -n 2 "${WORK_DIR}/consumer-build/consumer")
else()
  step("${WORK_DIR}/consumer-build/consumer")
endif()

# Builds `target` of the consumer, which must fail with ufx's static_assert `expected`: a
# compile-time error met through the installed package (headers as -isystem).
function(expect_compile_fail target expected what)
  execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/consumer-build" --target ${target}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    message(FATAL_ERROR "consumer.${MODE}: ${target} compiled; ${what} must not")
  endif()
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "consumer.${MODE}: ${target} failed without ufx's message:\n${out}")
  endif()
  message(STATUS "consumer.${MODE}: ${target} fails with ufx's static_assert, as it should")
endfunction()
if(EXISTS "${WORK_DIR}/consumer-build/dlpack_compile_fail")
  expect_compile_fail(consumer_dlpack_lvalue "static assertion failed: ufx::to_dlpack: pass the array as an rvalue"
                      "ufx::to_dlpack of an lvalue")
endif()
if(EXISTS "${WORK_DIR}/consumer-build/python_check")
  # the python component's module, imported and called by the interpreter the component found
  file(STRINGS "${WORK_DIR}/consumer-build/python_check" python_check)
  list(GET python_check 0 python)
  list(GET python_check 1 module_dir)
  step(${CMAKE_COMMAND} -E env "PYTHONPATH=${module_dir}" ${python} "${CMAKE_CURRENT_LIST_DIR}/check_python.py")
  expect_compile_fail(consumer_python_no_dtype "static assertion failed: ufx::python: NumPy has no dtype for this element type"
                      "a ufunc loop of ufx::bfloat16")
endif()
if(EXISTS "${WORK_DIR}/consumer-build/cast_compile_fail") # NumPy's safe casting into a typed parameter
  expect_compile_fail(consumer_cast_narrowing
                      "input_cast<1, double, float, ufx::casting::safe_t>.*static assertion failed: ufx: an array operand's elements do not convert safely"
                      "float64 elements into a float parameter")
endif()

if(MODE STREQUAL "find_package_cuda")
  # what nvcc compiled consumer.cu with: ufx::ufx's flags and ufx's default architectures
  set(build "${WORK_DIR}/consumer-build")
  file(READ "${build}/compile_commands.json" commands)
  string(REGEX MATCH "[^\n]*\"command\": *\"[^\n]*consumer\\.cu[^\n]*" line "${commands}")
  if(NOT line)
    message(FATAL_ERROR "consumer.${MODE}: consumer.cu is not in ${build}/compile_commands.json")
  endif()
  message(STATUS "consumer.${MODE}: ${line}")
  set(want --extended-lambda -std=c++20 --diag-error=20011,20014 -Xcudafe=--diag_suppress=20012)
  file(READ "${build}/cuda_architectures.txt" archs)
  file(READ "${build}/cuda_architectures_native.txt" native)
  if(native)
    set(want_archs native) # a GPU was visible
  else()
    set(want_archs "80-real;90")
    list(APPEND want "--generate-code=arch=compute_80,code=[sm_80]" "--generate-code=arch=compute_90,code=[compute_90,sm_90]")
  endif()
  if(NOT archs STREQUAL want_archs)
    message(FATAL_ERROR "consumer.${MODE}: the target's CUDA_ARCHITECTURES is '${archs}', not ufx's default '${want_archs}'")
  endif()
  foreach(flag IN LISTS want)
    string(FIND "${line}" "${flag}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "consumer.${MODE}: nvcc did not get ${flag} for consumer.cu")
    endif()
  endforeach()
  message(STATUS "consumer.${MODE}: CUDA architectures ${archs}; nvcc got ${want}")
endif()
