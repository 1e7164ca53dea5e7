//===- ManifestCheck.h - Checks shared by both manifest readers -*- C++ -*-===//
#ifndef COREAI_PLAN_LIB_MANIFEST_MANIFESTCHECK_H
#define COREAI_PLAN_LIB_MANIFEST_MANIFESTCHECK_H

#include "coreai-plan/Manifest/Manifest.h"

namespace coreai::detail {

/// A buffer's region as recorded: 0 heap, 1 output, 2 state (the values
/// of fb::Region), and the output position or state argument.
struct RecordedRegion {
  int64_t kind = 0;
  int64_t index = 0;
};

/// Sets `e.binOf` from the regions recorded for its buffers (parallel to
/// e.problem.buffers) and its outputBins: a buffer in an output names one
/// of the borrowed outputs; none is in a state.
llvm::Error assignRegions(PlannedEntry &e,
                          const std::vector<RecordedRegion> &regions,
                          llvm::StringRef source);

/// Sets each parametric buffer's bin from the regions recorded for it
/// (parallel to p.plan.buffers) and the plan's bins: a buffer in an output
/// names one of the outputs the plan borrows; none is in a state.
llvm::Error assignParametricRegions(ManifestParametric &p,
                                    const std::vector<RecordedRegion> &regions,
                                    llvm::StringRef source);

/// The error for a manifest whose format version this build cannot read.
llvm::Error versionMismatch(llvm::StringRef source, uint64_t version);

/// Checks what a decoder cannot: sizes, offsets and intervals in range,
/// powers of two, and the recorded bundle heap equal to the entries' max.
llvm::Error checkManifest(const Manifest &manifest, llvm::StringRef source);

} // namespace coreai::detail

#endif // COREAI_PLAN_LIB_MANIFEST_MANIFESTCHECK_H
