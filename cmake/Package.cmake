# `cpack -G DEB` in the build directory: one coreai-plan_<version>_<arch>.deb
# of everything cmake/Install.cmake installs, under /usr.
set(CPACK_PACKAGE_NAME coreai-plan)
set(CPACK_PACKAGE_VENDOR coreai-plan)
set(CPACK_PACKAGE_CONTACT "coreai-plan maintainers <coreai-plan@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Ahead-of-time memory planner for on-device ML bundles (MLIR/LLVM 22)")
set(CPACK_PACKAGE_DESCRIPTION
  "Plans the scratch heap of every entry point and chunk size of an exported graph bundle and writes a heap manifest; with the C manifest reader a runtime links.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Depends: the Debian 12 packages of the shared libraries the packaged
# binaries load directly (readelf's NEEDED, found with ldd, owner by dpkg -S
# on the real file), at the versions dpkg-shlibdeps derives from their
# symbols. Not CPACK_DEBIAN_PACKAGE_SHLIBDEPS: the tools' RUNPATH finds
# libLLVM.so.22.1 first as llvm-22-dev's symlink in /usr/lib/llvm-22/lib,
# which has no shlibs entry, and CPack runs dpkg-shlibdeps with
# --ignore-missing-info, so libllvm22 came and went from run to run. The
# ctest deb-depends checks this list against the binaries.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libmlir-${LLVM_VERSION_MAJOR} (>= 1:${LLVM_PACKAGE_VERSION}), libllvm${LLVM_VERSION_MAJOR}, libzip4 (>= 1.0), libstdc++6 (>= 11), libgcc-s1 (>= 3.3), libc6 (>= 2.36)")
# The C reader is a shared library: a shlibs entry for packages that link it.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
include(CPack)
