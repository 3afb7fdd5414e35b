# CPack's per-generator settings (CPACK_PROJECT_CONFIG_FILE, read by cpack for each generator it runs): the .deb
# installs under /usr, the tarball holds the tree itself (include/, lib/), to unpack into any prefix.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
else()
  set(CPACK_PACKAGING_INSTALL_PREFIX "")
endif()
