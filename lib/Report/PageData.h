//===- PageData.h - What the bundle page says about each plan ---*- C++ -*-===//
//
// The parts of the bundle page (BundleHtml.cpp) that describe one plan:
// where its bytes go (tables by region and by op kind, what fusion kept
// out of memory), what is live at its peak, and the data the page's
// script reads to answer hovers, clicks and searches.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_REPORT_PAGEDATA_H
#define COREAI_PLAN_LIB_REPORT_PAGEDATA_H

#include "coreai-plan/Entry.h"

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

} // namespace coreai::report

#endif
