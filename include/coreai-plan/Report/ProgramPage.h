//===- ProgramPage.h - The offline page of an ExecuTorch program -*- C++ -*-===//
//
// A program is not a bundle: it has no chunk size S, no shared heap and no
// outputs lent to the plan. Its memory is one arena per method and memory
// id, laid out over the method's instructions, and some of its tensors are
// mutable buffers (a KV cache) kept between calls. The page shows, on its
// first screen, each method's arena as the program plans it and as
// re-planned, on the instruction axis, at one byte scale, with the lower
// bound and the mutable buffers drawn and listed as state. Plain data in
// (the tool fills it from lib/Pte), text out. No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_REPORT_PROGRAMPAGE_H
#define COREAI_PLAN_REPORT_PROGRAMPAGE_H

#include "coreai-plan/Entry.h"

#include <cstdint>
#include <string>
#include <vector>

namespace coreai {

/// One method's arena (one memory id): the same buffers planned twice.
struct ProgramArena {
  std::string method;
  int64_t memoryId = 1;
  int64_t instructions = 0;
  /// Per instruction, what it runs (`aten::mm.out`, `delegate 0`): what a
  /// click on the instruction axis names.
  std::vector<std::string> instructionOps;
  /// Planned tensors in the arena (a buffer may hold several: views).
  int64_t tensors = 0;
  /// The program's own plan (offsets from the file) and the re-plan; the
  /// same buffers in the same order. Each plan's heap is the highest byte
  /// a buffer reaches, its lowerBound the arena's lower bound.
  PlannedEntry before, after;
  /// The sizes the program records for the arena, before and after.
  int64_t arenaBefore = 0, arenaAfter = 0;
  /// Per buffer: a mutable buffer (kept between calls, live throughout);
  /// its name is the buffer's origin value.
  std::vector<bool> state;
  /// The re-plan kept the program's own plan (a new one was not smaller).
  bool kept = false;
};

struct ProgramPage {
  std::string file;     ///< the program's file name
  int64_t alignment = 16;
  /// The command whose re-plan the page shows (`coreai-plan plan x.pte`).
  std::string replanCommand;
  std::vector<ProgramArena> arenas; ///< by memory id, then method
  /// Lines said under the table: what the re-plan kept or shared, and
  /// warnings about the program's mutable buffers.
  std::vector<std::string> notes;
};

/// One offline HTML page (no network, no external script) for a program:
/// a table of every arena (tensors, mutable buffers and their bytes, lower
/// bound, the program's arena, the re-planned one), then per arena its two
/// plans side by side on the instruction axis at one byte scale, the
/// arena's size and lower bound marked, the mutable buffers drawn as state
/// and listed with their bytes and offsets. Hovers, clicks and the search
/// answer as on the bundle page.
std::string renderProgramHtml(const ProgramPage &page);

/// One plan of an arena as the page draws it, alone (`inspect PROGRAM.pte
/// --svg`): each rectangle's <title> names its tensor. Standalone SVG.
std::string renderProgramArenaSvg(const ProgramArena &arena,
                                  bool replanned = false);

} // namespace coreai

#endif // COREAI_PLAN_REPORT_PROGRAMPAGE_H
