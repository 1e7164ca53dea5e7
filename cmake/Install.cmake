# `cmake --install`, the CMake package, the pkg-config file and `cpack -G
# DEB`. The layout (GNUInstallDirs):
#   bin/                         coreai-plan, coreai-plan-opt, coreai-solve
#   lib/                         libcoreai-plan-manifest.so (the C reader)
#   include/coreai-plan/c/       manifest.h
#   share/coreai-plan/           targets/*.json, plan_manifest.fbs
#   share/doc/coreai-plan/       CLI.md, MANIFEST.md
#   lib/cmake/CoreAIPlan/        find_package(CoreAIPlan CONFIG)
#   lib/pkgconfig/               coreai-plan-manifest.pc
# Every installed file names other installed files relative to its own
# place, so the tree can be moved after installing.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(COREAI_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/coreai-plan)
set(COREAI_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/CoreAIPlan)
set(COREAI_TOOLS coreai-plan coreai-plan-opt coreai-solve)

# The tools read the installed targets/ relative to where they run
# (lib/Target/Target.cpp, defaultTargetsDir).
file(RELATIVE_PATH COREAI_INSTALLED_TARGETS_DIR /${CMAKE_INSTALL_BINDIR}
  /${COREAI_INSTALL_DATADIR}/targets)
target_compile_definitions(CoreAIPlanTarget PRIVATE
  COREAI_INSTALLED_TARGETS_DIR="${COREAI_INSTALLED_TARGETS_DIR}")

# libMLIR.so lives in LLVM's private directory (/usr/lib/llvm-22/lib), not
# on the loader's path: the installed tools keep the directories of the
# libraries they link outside the build tree as their RUNPATH.
set_target_properties(${COREAI_TOOLS} PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)

install(TARGETS ${COREAI_TOOLS} coreai-plan-manifest EXPORT CoreAIPlanTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/coreai-plan/c/manifest.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/coreai-plan/c)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/targets/
  DESTINATION ${COREAI_INSTALL_DATADIR}/targets FILES_MATCHING PATTERN "*.json")
install(FILES ${PROJECT_SOURCE_DIR}/lib/Manifest/plan_manifest.fbs
  DESTINATION ${COREAI_INSTALL_DATADIR})
install(FILES ${PROJECT_SOURCE_DIR}/docs/CLI.md ${PROJECT_SOURCE_DIR}/docs/MANIFEST.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR})

# find_package(CoreAIPlan CONFIG): CoreAIPlan::manifest and the tools as
# imported targets (CoreAIPlan::coreai-plan, ...), and their paths.
install(EXPORT CoreAIPlanTargets NAMESPACE CoreAIPlan::
  DESTINATION ${COREAI_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/CoreAIPlanConfig.cmake.in
  ${PROJECT_BINARY_DIR}/CoreAIPlanConfig.cmake
  INSTALL_DESTINATION ${COREAI_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR COREAI_INSTALL_DATADIR)
# 0.x: a new minor version may change the manifest format or the C ABI.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/CoreAIPlanConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/CoreAIPlanConfig.cmake
  ${PROJECT_BINARY_DIR}/CoreAIPlanConfigVersion.cmake
  DESTINATION ${COREAI_INSTALL_CMAKEDIR})

# pkg-config finds the prefix from the .pc file's own directory.
file(RELATIVE_PATH COREAI_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(${CMAKE_CURRENT_LIST_DIR}/coreai-plan-manifest.pc.in
  ${PROJECT_BINARY_DIR}/coreai-plan-manifest.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/coreai-plan-manifest.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

include(${CMAKE_CURRENT_LIST_DIR}/Package.cmake)
