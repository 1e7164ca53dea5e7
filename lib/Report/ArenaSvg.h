//===- ArenaSvg.h - One plan of a program's arena, as a picture -*- C++ -*-===//
//
// The program page's picture (ProgramHtml.cpp): a method's instructions on
// x, the arena's addresses on y at a byte scale the page shares between
// the arena's two plans, one rectangle per buffer coloured by the op
// writing it, mutable buffers hatched and named as state, the arena's size
// and lower bound marked. Inline SVG with the attributes the page's script
// reads (data-b per rectangle; the plot's left, width, top and span).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_REPORT_ARENASVG_H
#define COREAI_PLAN_LIB_REPORT_ARENASVG_H

#include "coreai-plan/Entry.h"

#include <cstdint>
#include <string>
#include <vector>

namespace coreai::report {

struct ArenaSvgOptions {
  std::string heading;  ///< "as exported: ExecuTorch's memory plan"
  std::string idPrefix; ///< unique in the page, for the hatch pattern
  int64_t arenaBytes = 0;
  /// The bytes at the top of the frame (both plans of an arena alike).
  int64_t scale = 1;
  /// When larger than arenaBytes: the arena as it was, the band between
  /// the two drawn as saved.
  int64_t arenaBefore = 0;
  const std::vector<bool> *state = nullptr; ///< per buffer
  /// The frame's height in pixels (an arena of mutable buffers only, the
  /// same at every instruction, is drawn lower).
  double plotHeight = 176;
  /// A <title> per rectangle: the hover text of a picture seen alone.
  bool titles = false;
};

std::string renderArenaSvg(const PlannedEntry &entry,
                           const ArenaSvgOptions &options);

} // namespace coreai::report

#endif
