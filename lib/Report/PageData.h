//===- PageData.h - What the pages say about each plan ----------*- C++ -*-===//
//
// The parts of the pages (BundleHtml.cpp, ProgramHtml.cpp) that describe
// one plan: where its bytes go (tables by region and by op kind, what
// fusion kept out of memory), what is live at its peak, and the data the
// page's script reads to answer hovers, clicks and searches.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_REPORT_PAGEDATA_H
#define COREAI_PLAN_LIB_REPORT_PAGEDATA_H

#include "coreai-plan/Entry.h"
#include "coreai-plan/Report/ProgramPage.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace coreai::report {

/// Tables of where the plan's bytes go, by region and by op kind, and a
/// line for what fusion kept out of memory.
std::string whereBytesGoHtml(const PlannedEntry &entry);

/// The list under a picture: what is live at the heap's peak, region by
/// region (the script rewrites it for the op clicked).
std::string liveAtPeakHtml(const PlannedEntry &entry);

/// Every plan's buffers and placed values for the script, as JSON safe to
/// put inside a <script> element: {"ops": [...], "locations": [...],
/// "plans": [{"entry", "s", "span", "peak", "regions": [names], "kinds",
/// "b": [[value, op, location, size, start, end, region, offset, kernel]],
/// "p": [[value, op, location, size, start, end, region]]}]}, op and
/// location as indices into the shared tables, region into "regions".
std::string pageDataJson(llvm::ArrayRef<const PlannedEntry *> plans);

/// The same for a program's page: per arena its plan as exported, then
/// as re-planned (plans 2k and 2k+1), each with "method" and "label"
/// instead of "s", its one region the arena, "steps" (per instruction its
/// op, an index into "ops"), and a tenth column in "b": 1 for a mutable
/// buffer. "unit": what the time axis counts.
std::string programDataJson(const ProgramPage &page);

} // namespace coreai::report

#endif
