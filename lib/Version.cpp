//===- Version.cpp - What --version prints ---------------------------------===//
#include "coreai-plan/Version.h"
#include "coreai-plan/GitDescription.h"

const char *coreai::versionDescription() {
  return COREAI_PLAN_VERSION " (git " COREAI_PLAN_GIT_DESCRIPTION ")";
}
