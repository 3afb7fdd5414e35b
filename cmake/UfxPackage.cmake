# Packages of an installed ufx (cmake/UfxInstall.cmake's rules), made by CPack: `cpack -G DEB` in a build directory
# writes libufx-dev_<version>_<arch>.deb (installs into /usr: headers, libufx and its components' libraries, the CMake
# package), `cpack -G TGZ` the same files as a tarball to unpack into any prefix. The Debian dependencies are what
# this build found and the installed ufxConfig.cmake looks for again: Thrust, and oneTBB, Boost.Context and Eigen when
# the build used them.
set(CPACK_PACKAGE_NAME "libufx-dev")
set(CPACK_PACKAGE_VENDOR "ufx")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "ufx: array kernels from small C++ functions (headers, library, CMake package)")
set(CPACK_PACKAGE_DESCRIPTION
    "ufx turns small C++ functions into array kernels: vectorize (broadcasting elementwise), guvectorize (NumPy core "
    "signatures), reductions and raw kernels, on one thread, all cores, a simulated GPU and CUDA GPUs. Use it with "
    "find_package(ufx) in CMake.")
set(CPACK_PACKAGE_CONTACT "ufx developers")
set(CPACK_PACKAGE_FILE_NAME "${CPACK_PACKAGE_NAME}_${PROJECT_VERSION}_${CMAKE_SYSTEM_PROCESSOR}")
set(CPACK_GENERATOR "TGZ")
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_CURRENT_LIST_DIR}/UfxPackageGenerators.cmake") # the .deb under /usr
set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY OFF)

set(depends "libthrust-dev")
if(UFX_WITH_TBB)
  string(APPEND depends ", libtbb-dev")
endif()
if(UFX_WITH_BOOST_CONTEXT)
  string(APPEND depends ", libboost-context-dev")
endif()
if(Eigen3_FOUND)
  string(APPEND depends ", libeigen3-dev")
endif()
if(UFX_WITH_CUDA)
  string(APPEND depends ", nvidia-cuda-toolkit | cuda-toolkit") # Debian's, or NVIDIA's repository's
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${depends}")
set(recommends "cmake (>= 3.25), g++ (>= 4:12)")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "${recommends}")
set(suggests "libdlpack-dev")
if(UFX_WITH_MPI)
  string(APPEND suggests ", libopenmpi-dev") # the mpi component
endif()
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "${suggests}")
set(CPACK_DEBIAN_PACKAGE_SECTION "libdevel")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "ufx developers")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
find_program(UFX_DPKG dpkg)
if(UFX_DPKG)
  execute_process(COMMAND ${UFX_DPKG} --print-architecture OUTPUT_VARIABLE arch OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE "${arch}")
  set(CPACK_GENERATOR "DEB;TGZ")
endif()
include(CPack)
