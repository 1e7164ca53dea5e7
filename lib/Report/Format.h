//===- Format.h - Number formatting shared by the reports -------*- C++ -*-===//
#ifndef COREAI_PLAN_LIB_REPORT_FORMAT_H
#define COREAI_PLAN_LIB_REPORT_FORMAT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace coreai::report {

/// 98304 -> "96.0 KiB"; exact byte counts stay in titles and tables.
std::string humanBytes(int64_t bytes);

/// A stable colour per op name, so the same op kind looks the same in every
/// picture of every entry point.
std::string colourFor(llvm::StringRef opName);

} // namespace coreai::report

#endif
