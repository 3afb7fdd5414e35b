# ufx_mpi_test(<name> <ranks> <command...>): a CTest that runs the command under mpirun with <ranks>
# ranks (tests/mpi, examples/mpi_sum.cpp, the ```cpp blocks of docs/mpi.md). Needs find_package(MPI).
include_guard(GLOBAL)
if(NOT DEFINED UFX_MPIEXEC_IS_OPEN_MPI)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE ufx_mpiexec_version ERROR_QUIET)
  if(ufx_mpiexec_version MATCHES "Open MPI|OpenRTE")
    set(UFX_MPIEXEC_IS_OPEN_MPI ON CACHE INTERNAL "mpiexec is Open MPI's")
  else()
    set(UFX_MPIEXEC_IS_OPEN_MPI OFF CACHE INTERNAL "mpiexec is Open MPI's")
  endif()
endif()
function(ufx_mpi_test name ranks)
  set(oversubscribe "")
  if(UFX_MPIEXEC_IS_OPEN_MPI) # more ranks than cores (3 on a 2-core machine): Open MPI refuses without it
    set(oversubscribe --oversubscribe)
  endif()
  add_test(NAME ${name}
           COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${oversubscribe} ${MPIEXEC_PREFLAGS}
                   ${ARGN} ${MPIEXEC_POSTFLAGS})
  # Open MPI refuses to run as root without these two (CI runs as root); other MPIs ignore them. A
  # rank that waits for the others forever fails the test at the timeout instead of hanging CTest.
  set(env "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
  if(CMAKE_CXX_FLAGS MATCHES "sanitize=address")
    # Open MPI leaks its own start-up allocations (libmpi and its dlopen'ed components, never ufx's
    # frames: checked on the cpu-asan preset); AddressSanitizer's other checks stay on
    list(APPEND env "ASAN_OPTIONS=detect_leaks=0")
  endif()
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "${env}"
    TIMEOUT 300 PROCESSORS ${ranks} LABELS mpi)
endfunction()
