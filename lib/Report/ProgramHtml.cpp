//===- ProgramHtml.cpp - One offline page for an ExecuTorch program -------===//
//
// The first screen answers what a person exporting a program asks: how
// large is each method's arena, how much of it is state (the mutable
// buffers, a KV cache), what would a re-plan make of it, and how far is
// either from the lower bound. So: a table of the arenas, then each arena's
// two plans side by side at one byte scale, its mutable buffers beside
// them. Nothing about chunk sizes or bundles: a program has neither. The
// style and script are the bundle page's (page/), which answer hovers,
// clicks and the search alike.
//
//===----------------------------------------------------------------------===//
#include "ArenaSvg.h"
#include "Format.h"
#include "PageData.h"
#include "coreai-plan/Report/ProgramPage.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

namespace coreai {
namespace {

#include "Page_css.inc"
#include "Page_js.inc"

using report::humanBytes;

struct StateBytes {
  int64_t count = 0, bytes = 0;
};

StateBytes stateOf(const ProgramArena &arena) {
  StateBytes s;
  for (size_t b = 0; b < arena.before.problem.buffers.size(); ++b)
    if (b < arena.state.size() && arena.state[b]) {
      ++s.count;
      s.bytes += arena.before.problem.buffers[b].size;
    }
  return s;
}

/// "-22.4 %" of `after` against `before`.
std::string change(int64_t before, int64_t after) {
  if (before <= 0 || before == after)
    return "0 %";
  return llvm::formatv("{0}{1:F1} %", after > before ? "+" : "",
                       100.0 * double(after - before) / double(before));
}

void writeSummary(llvm::raw_ostream &os, const ProgramPage &page) {
  os << "<table class=\"arenas\"><tr><th>arena</th><th>memory id</th><th>"
        "instructions</th><th>tensors</th><th>state (mutable buffers)</th>"
        "<th>lower bound</th><th>as exported</th><th>re-planned</th><th>"
        "change</th><th>re-plan uses</th><th>uses / LB</th></tr>\n";
  for (const ProgramArena &arena : page.arenas) {
    StateBytes state = stateOf(arena);
    const Plan &after = arena.after.plan;
    os << llvm::formatv(
        "<tr class=\"arena-row\" data-entry=\"{0}\"><td>@{0}</td><td>{1}</td>"
        "<td>{2}</td><td>{3}</td><td class=\"state-bytes\" data-bytes=\"{4}\">"
        "{5}</td><td title=\"{6} bytes\">{7}</td><td class=\"before\" "
        "title=\"{8} bytes\">{9}</td><td class=\"after\" title=\"{10} bytes\">"
        "{11}</td><td>{12}</td><td title=\"{14} bytes\">{15}</td><td>{13:F4}"
        "</td></tr>\n",
        escapeXml(arena.before.entry), arena.memoryId, arena.instructions,
        arena.tensors, state.bytes,
        state.count ? llvm::formatv("{0} ({1})", humanBytes(state.bytes),
                                    state.count)
                          .str()
                    : std::string("none"),
        after.lowerBound, humanBytes(after.lowerBound), arena.arenaBefore,
        humanBytes(arena.arenaBefore), arena.arenaAfter,
        humanBytes(arena.arenaAfter),
        arena.kept ? std::string("kept")
                   : change(arena.arenaBefore, arena.arenaAfter),
        heapRatio(after.heap, after.lowerBound), after.heap,
        humanBytes(after.heap));
  }
  os << "</table>\n";
}

void writeNotes(llvm::raw_ostream &os, const ProgramPage &page) {
  std::set<int64_t> ids;
  std::set<std::string> methods;
  for (const ProgramArena &arena : page.arenas) {
    ids.insert(arena.memoryId);
    methods.insert(arena.method);
  }
  os << llvm::formatv(
      "<p class=\"lede\">{0} method{1}, {2} memory id{3}, alignment {4}. Each "
      "arena over its method's instructions: <b>as exported</b> (the "
      "offsets the program records) and <b>re-planned</b> (what "
      "<code>{5}</code> writes), at one byte scale. Hatched: mutable "
      "buffers, state kept between calls.</p>\n",
      methods.size(), methods.size() == 1 ? "" : "s", ids.size(),
      ids.size() == 1 ? "" : "s", page.alignment,
      escapeXml(page.replanCommand));
  // Per memory id re-planned: one size for every method's arena, which a
  // method using less sees as growth.
  std::vector<std::string> notes;
  for (int64_t id : ids) {
    int64_t before = 0, after = 0, bound = 0;
    bool kept = false;
    for (const ProgramArena &arena : page.arenas)
      if (arena.memoryId == id) {
        before = std::max(before, arena.arenaBefore);
        after = std::max(after, arena.arenaAfter);
        bound = std::max(bound, arena.after.plan.lowerBound);
        kept = kept || arena.kept;
      }
    if (!kept && methods.size() > 1)
      notes.push_back(llvm::formatv(
          "memory id {0}: re-planned, every method's arena is {1}, the "
          "largest method's (a runtime may hand all methods one arena; the "
          "largest lower bound is {2}); the largest as exported was {3} "
          "({4})",
          id, humanBytes(after), humanBytes(bound), humanBytes(before),
          change(before, after)));
  }
  llvm::append_range(notes, page.notes);
  if (notes.empty())
    return;
  os << "<ul class=\"notes\">";
  for (const std::string &note : notes)
    os << "<li>" << escapeXml(note) << "</li>";
  os << "</ul>\n";
}

/// The arena's mutable buffers: name, bytes, offset in each plan; for an
/// arena without, where the method's are.
void writeStateList(llvm::raw_ostream &os, const ProgramPage &page,
                    const ProgramArena &arena) {
  StateBytes state = stateOf(arena);
  os << "<div class=\"state-box\">";
  if (!state.count) {
    std::vector<std::string> elsewhere;
    for (const ProgramArena &other : page.arenas)
      if (other.method == arena.method && &other != &arena)
        if (StateBytes held = stateOf(other); held.count)
          elsewhere.push_back(llvm::formatv("{0} in memory id {1}", held.count,
                                            other.memoryId));
    os << "<b>state: no mutable buffers in this arena</b>";
    if (!elsewhere.empty())
      os << llvm::formatv(" (@{0} keeps {1})", escapeXml(arena.method),
                          llvm::join(elsewhere, ", "));
    os << "</div>\n";
    return;
  }
  // A scrolling list: a decoder has a cache per layer.
  os << llvm::formatv("<b>state: {0} mutable buffer{1}, {2} ({3} bytes)</b>"
                      "<div class=\"state-list\"><table class=\"states\"><tr>"
                      "<th>name</th><th>bytes</th>"
                      "<th>offset as exported</th><th>re-planned</th></tr>",
                      state.count, state.count == 1 ? "" : "s",
                      humanBytes(state.bytes), state.bytes);
  const PlannedEntry &before = arena.before, &after = arena.after;
  for (size_t b = 0; b < before.problem.buffers.size(); ++b) {
    if (b >= arena.state.size() || !arena.state[b])
      continue;
    os << llvm::formatv(
        "<tr class=\"state-row\"><td>{0}</td><td>{1}</td><td>{2}</td>"
        "<td>{3}</td></tr>",
        escapeXml(b < before.origins.size() ? before.origins[b].value
                                            : before.problem.buffers[b].id),
        before.problem.buffers[b].size, before.plan.offsets[b],
        b < after.plan.offsets.size() ? std::to_string(after.plan.offsets[b])
                                      : std::string("-"));
  }
  os << "</table></div></div>\n";
}

/// Only mutable buffers: nothing changes over the instructions.
bool onlyStateIn(const ProgramArena &arena) {
  size_t buffers = arena.before.problem.buffers.size();
  return buffers > 0 && size_t(stateOf(arena).count) == buffers;
}

/// One plan's picture: both plans of an arena at one byte scale.
report::ArenaSvgOptions pictureOptions(const ProgramArena &arena,
                                       bool after) {
  report::ArenaSvgOptions options;
  options.scale = std::max({arena.arenaBefore, arena.arenaAfter,
                            arena.before.plan.heap, arena.after.plan.heap,
                            arena.after.plan.lowerBound, int64_t(1)});
  options.state = &arena.state;
  // Only mutable buffers: a lane per buffer says it all.
  if (onlyStateIn(arena))
    options.plotHeight = std::clamp(
        18.0 * double(arena.before.problem.buffers.size()), 48.0, 176.0);
  options.heading = after ? (arena.kept ? "re-planned: the program's own "
                                          "plan kept"
                                        : "re-planned by coreai-plan")
                          : "as exported: the program's own plan";
  options.arenaBytes = after ? arena.arenaAfter : arena.arenaBefore;
  options.arenaBefore = after ? arena.arenaBefore : 0;
  return options;
}

void writeArena(llvm::raw_ostream &os, const ProgramPage &page, size_t k) {
  const ProgramArena &arena = page.arenas[k];
  os << llvm::formatv("<section class=\"arena\" data-entry=\"{0}\"><h2>@{0} "
                      "<span class=\"sub\">memory id {1}, {2} instructions, "
                      "{3} tensors</span></h2>\n<div class=\"arena-pair\">",
                      escapeXml(arena.before.entry), arena.memoryId,
                      arena.instructions, arena.tensors);
  bool onlyState = onlyStateIn(arena);
  for (int side = 0; side < 2; ++side) {
    bool after = side == 1;
    report::ArenaSvgOptions options = pictureOptions(arena, after);
    options.idPrefix = llvm::formatv("arena{0}-{1}", k, side);
    os << llvm::formatv("<div class=\"plan {0}\" id=\"plan-{1}\" "
                        "data-plan=\"{1}\" data-entry=\"{2}\" data-label=\""
                        "{3}\"><div class=\"picture\">",
                        after ? "after" : "before", 2 * k + side,
                        escapeXml(arena.before.entry),
                        after ? "re-planned" : "as exported")
       << report::renderArenaSvg(after ? arena.after : arena.before, options)
       << "</div></div>\n";
  }
  os << "<div class=\"side\">";
  writeStateList(os, page, arena);
  // The live box fills when a reader clicks an empty place.
  if (!onlyState) // else everything is live everywhere
    os << "<div class=\"live-box\"></div>";
  os << llvm::formatv("<div class=\"details\">Point at a rectangle for its "
                      "tensor; click one to keep it here{0}.</div></div>"
                      "</div>\n</section>\n",
                      onlyState ? "" : ", or an empty place for what is "
                                       "live at that instruction");
}

} // namespace

std::string renderProgramHtml(const ProgramPage &page) {
  std::string html;
  llvm::raw_string_ostream os(html);
  std::string title = "coreai-plan: " + page.file + " (ExecuTorch program)";
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
     << "<title>" << escapeXml(title) << "</title>\n<style>" << page_css
     << "</style></head>\n<body class=\"program\">\n<h1>" << escapeXml(title)
     << "</h1>\n";
  os << "<div class=\"search\"><input id=\"search\" type=\"search\" "
        "placeholder=\"find a tensor or an op: k_cache, aten::mm\" "
        "autocomplete=\"off\"><div id=\"results\"></div></div>\n";
  writeNotes(os, page);
  writeSummary(os, page);
  for (size_t k = 0; k < page.arenas.size(); ++k)
    writeArena(os, page, k);
  os << "<div id=\"tip\" hidden></div>\n<script type=\"application/json\" "
        "id=\"plan-data\">"
     << report::programDataJson(page) << "</script>\n<script>" << page_js
     << "</script>\n</body></html>\n";
  return html;
}

std::string renderProgramArenaSvg(const ProgramArena &arena, bool replanned) {
  report::ArenaSvgOptions options = pictureOptions(arena, replanned);
  options.idPrefix = "arena";
  options.titles = true;
  options.heading = "@" + arena.before.entry + ", " + options.heading;
  // Alone, the exported plan at its own scale.
  if (!replanned)
    options.scale = std::max({arena.arenaBefore, arena.before.plan.heap,
                              arena.before.plan.lowerBound, int64_t(1)});
  return report::renderArenaSvg(replanned ? arena.after : arena.before,
                                options);
}

} // namespace coreai
