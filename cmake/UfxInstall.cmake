# Install rules and a package config, so that find_package(ufx) gives ufx::ufx (and
# find_package(ufx COMPONENTS mpi dlpack python) gives ufx::mpi, ufx::dlpack and ufx::python too, when they were
# built).
include(CMakePackageConfigHelpers)
install(TARGETS ufx ufx_deps EXPORT ufxTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(UFX_WITH_MPI)
  # its own export set: ufxConfig.cmake loads it (and finds MPI) only for find_package(ufx COMPONENTS mpi)
  install(TARGETS ufx_mpi EXPORT ufxMpiTargets)
  install(EXPORT ufxMpiTargets NAMESPACE ufx:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ufx)
endif()
if(UFX_WITH_DLPACK)
  # find_package(ufx COMPONENTS dlpack) loads it, after finding <dlpack/dlpack.h> on that machine
  install(TARGETS ufx_dlpack EXPORT ufxDlpackTargets)
  install(EXPORT ufxDlpackTargets NAMESPACE ufx:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ufx)
endif()
if(UFX_WITH_PYTHON)
  # find_package(ufx COMPONENTS python) loads it, after finding Python 3 with NumPy, pybind11 and DLPack on that machine
  install(TARGETS ufx_python EXPORT ufxPythonTargets)
  install(EXPORT ufxPythonTargets NAMESPACE ufx:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ufx)
endif()
install(DIRECTORY include/ufx DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT ufxTargets NAMESPACE ufx:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ufx)
configure_package_config_file(cmake/ufxConfig.cmake.in "${CMAKE_CURRENT_BINARY_DIR}/ufxConfig.cmake"
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ufx)
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/ufxConfigVersion.cmake" COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/ufxConfig.cmake" "${CMAKE_CURRENT_BINARY_DIR}/ufxConfigVersion.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/UfxFindThrust.cmake" "${CMAKE_CURRENT_LIST_DIR}/UfxCudaArchitectures.cmake"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/ufx)
include(UfxPackage)
