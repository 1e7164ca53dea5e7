//===- ManifestCheck.h - Checks shared by both manifest readers -*- C++ -*-===//
#ifndef COREAI_PLAN_LIB_MANIFEST_MANIFESTCHECK_H
#define COREAI_PLAN_LIB_MANIFEST_MANIFESTCHECK_H

#include "coreai-plan/Manifest.h"

namespace coreai::detail {

/// The error for a manifest whose format version this build cannot read.
llvm::Error versionMismatch(llvm::StringRef source, uint64_t version);

/// Checks what a decoder cannot: sizes, offsets and intervals in range,
/// powers of two, and the recorded bundle heap equal to the entries' max.
llvm::Error checkManifest(const Manifest &manifest, llvm::StringRef source);

} // namespace coreai::detail

#endif // COREAI_PLAN_LIB_MANIFEST_MANIFESTCHECK_H
