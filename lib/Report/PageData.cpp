//===- PageData.cpp - What the bundle page says about each plan -----------===//
#include "PageData.h"

#include "Format.h"
#include "coreai-plan/Report/Regions.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace coreai::report {
namespace {

constexpr size_t shownOps = 12;

/// A table row with a bar `share` (0..1) of the column's width.
std::string barCell(double share) {
  return llvm::formatv("<td class=\"bar\"><span style=\"width:{0:F1}%\">"
                       "</span></td>",
                       100.0 * std::clamp(share, 0.0, 1.0));
}

void writeRegionTable(llvm::raw_ostream &os, const PlannedEntry &entry) {
  std::vector<Region> regions = regionsOf(entry);
  struct Row {
    std::string name;
    int64_t values = 0, used = 0, capacity = 0;
  };
  std::vector<Row> rows;
  Row inPlace[2] = {{"outputs built in place"}, {"states written in place"}};
  for (const Region &region : regions) {
    int64_t values = int64_t(region.buffers.size() + region.placed.size());
    if (region.kind == Region::Kind::Heap || region.borrows()) {
      rows.push_back({region.name(), values, region.used, region.capacity});
      continue;
    }
    Row &row = inPlace[region.kind == Region::Kind::State ? 1 : 0];
    row.values += values;
    row.used += region.used;
    row.capacity += region.capacity;
  }
  for (const Row &row : inPlace)
    if (row.values > 0)
      rows.push_back(row);
  int64_t most = 1;
  for (const Row &row : rows)
    most = std::max(most, row.used);
  os << "<table class=\"by-region\"><caption>by region</caption><tr><th>"
        "region</th><th>values</th><th>bytes used</th><th>of capacity</th>"
        "<th></th></tr>\n";
  for (const Row &row : rows)
    os << llvm::formatv("<tr><td>{0}</td><td>{1}</td><td title=\"{2} bytes\">"
                        "{3}</td><td>{4}</td>{5}</tr>\n",
                        escapeXml(row.name), row.values, row.used,
                        humanBytes(row.used), humanBytes(row.capacity),
                        barCell(double(row.used) / double(most)));
  os << "</table>\n";
}

void writeOpTable(llvm::raw_ostream &os, const PlannedEntry &entry) {
  std::vector<OpBytes> ops = bytesByOp(entry);
  if (ops.size() > shownOps) {
    OpBytes others;
    others.op = llvm::formatv("{0} other op kinds", ops.size() - shownOps);
    for (size_t i = shownOps; i < ops.size(); ++i) {
      others.values += ops[i].values;
      others.heap += ops[i].heap;
      others.borrowed += ops[i].borrowed;
      others.inPlace += ops[i].inPlace;
    }
    ops.resize(shownOps);
    ops.push_back(others);
  }
  int64_t most = 1;
  for (const OpBytes &op : ops)
    most = std::max(most, op.total());
  os << "<table class=\"by-op\"><caption>by op kind (bytes written, sizes "
        "summed)</caption><tr><th>op</th><th>values</th><th>heap</th><th>"
        "borrowed</th><th>in place</th><th></th></tr>\n";
  for (const OpBytes &op : ops)
    os << llvm::formatv("<tr><td><i class=\"swatch\" style=\"background:{0}\">"
                        "</i>{1}</td><td>{2}</td><td>{3}</td><td>{4}</td><td>"
                        "{5}</td>{6}</tr>\n",
                        colourFor(op.op), escapeXml(op.op), op.values,
                        humanBytes(op.heap), humanBytes(op.borrowed),
                        humanBytes(op.inPlace),
                        barCell(double(op.total()) / double(most)));
  os << "</table>\n";
}

/// Interns strings into a table, for the script's data.
class Strings {
public:
  int64_t operator()(const std::string &text) {
    auto [it, inserted] = index.try_emplace(text, int64_t(table.size()));
    if (inserted)
      table.push_back(text);
    return it->second;
  }
  llvm::json::Array array() const {
    llvm::json::Array out;
    for (const std::string &text : table)
      out.push_back(text);
    return out;
  }

private:
  llvm::StringMap<int64_t> index;
  std::vector<std::string> table;
};

llvm::json::Object planJson(const PlannedEntry &entry, Strings &ops,
                            Strings &locations) {
  std::vector<Region> regions = regionsOf(entry);
  int64_t span = timeSpanOf(entry);
  llvm::DenseMap<int64_t, int64_t> kernelOf;
  for (const PlannedEntry::Kernel &kernel : entry.kernels)
    for (int64_t b : kernel.writes)
      kernelOf.try_emplace(b, kernel.id);
  llvm::json::Array names, kinds, buffers, placed;
  std::vector<int64_t> regionOfBuffer(entry.problem.buffers.size(), 0);
  // Placed values in entry.placed's order (the pictures' data-p): the
  // region and the interval drawn.
  std::vector<std::pair<int64_t, std::pair<int64_t, int64_t>>> byPlaced(
      entry.placed.size());
  for (size_t r = 0; r < regions.size(); ++r) {
    const Region &region = regions[r];
    names.push_back(region.name());
    kinds.push_back(region.kind == Region::Kind::Heap ? "heap"
                    : region.borrows()                ? "borrowed"
                    : region.kind == Region::Kind::State ? "state"
                                                         : "output");
    for (size_t b : region.buffers)
      regionOfBuffer[b] = int64_t(r);
    for (size_t p : region.placed)
      byPlaced[p] = {int64_t(r), placedInterval(entry, region, p, span)};
  }
  for (size_t b = 0; b < entry.problem.buffers.size(); ++b) {
    const Buffer &buffer = entry.problem.buffers[b];
    BufferOrigin origin;
    if (b < entry.origins.size())
      origin = entry.origins[b];
    else
      origin.value = buffer.id;
    auto kernel = kernelOf.find(int64_t(b));
    buffers.push_back(llvm::json::Array{
        origin.value, ops(origin.op), locations(origin.location), buffer.size,
        buffer.start, buffer.end, regionOfBuffer[b], entry.plan.offsets[b],
        kernel == kernelOf.end() ? -1 : kernel->second});
  }
  for (size_t p = 0; p < entry.placed.size(); ++p) {
    const PlannedEntry::Placed &value = entry.placed[p];
    placed.push_back(llvm::json::Array{
        value.origin.value, ops(value.origin.op),
        locations(value.origin.location), value.size, byPlaced[p].second.first,
        byPlaced[p].second.second, byPlaced[p].first});
  }
  return llvm::json::Object{
      {"entry", entry.entry},
      {"s", entry.chunk},
      {"span", span},
      {"peak", findPeak(entry.problem, &entry.binOf).time},
      {"regions", std::move(names)},
      {"kinds", std::move(kinds)},
      {"b", std::move(buffers)},
      {"p", std::move(placed)},
  };
}

} // namespace

std::string whereBytesGoHtml(const PlannedEntry &entry) {
  std::string html;
  llvm::raw_string_ostream os(html);
  os << "<div class=\"where\">\n";
  writeRegionTable(os, entry);
  writeOpTable(os, entry);
  os << "</div>\n";
  std::string fused = entry.kernels.empty()
                          ? std::string("no fused kernels")
                          : "fused: " + kernelSummary(entry);
  if (std::string source = kernelSourceText(entry.kernelSource);
      !source.empty())
    fused += " (" + source + ")";
  os << llvm::formatv("<p class=\"fused\">{0}</p>\n", escapeXml(fused));
  return html;
}

std::string liveAtPeakHtml(const PlannedEntry &entry) {
  Peak peak = findPeak(entry.problem, &entry.binOf);
  std::string html;
  llvm::raw_string_ostream os(html);
  os << llvm::formatv("<div class=\"live-box\"><b>live at the peak (op {0})</b>"
                      "<ul>",
                      peak.time);
  for (const std::string &line :
       describeLiveAt(entry, regionsOf(entry), peak.time))
    os << "<li>" << escapeXml(line) << "</li>";
  os << "</ul></div>\n";
  return html;
}

namespace {

/// `data` as text safe inside a <script> element.
std::string scriptSafe(const llvm::json::Value &data) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << data;
  // "<" only occurs inside strings: escaped there, no "</script>" or
  // "<!--" can end or confuse the element.
  std::string safe;
  safe.reserve(text.size());
  for (char c : text) {
    if (c == '<')
      safe += "\\u003c";
    else
      safe += c;
  }
  return safe;
}

/// One plan of a program's arena: named by what it is, its one region
/// the arena, each buffer's row marked 1 when it is a mutable buffer.
llvm::json::Object programPlanJson(const ProgramArena &arena,
                                   const PlannedEntry &entry,
                                   llvm::StringRef label, Strings &ops,
                                   Strings &locations) {
  llvm::json::Object plan = planJson(entry, ops, locations);
  plan.erase("s");
  plan["method"] = arena.method;
  plan["label"] = label;
  plan["regions"] = llvm::json::Array{
      llvm::formatv("arena {0}", arena.memoryId).str()};
  llvm::json::Array steps;
  for (const std::string &op : arena.instructionOps)
    steps.push_back(ops(op));
  plan["steps"] = std::move(steps);
  if (llvm::json::Array *rows = plan.getArray("b"))
    for (size_t b = 0; b < rows->size(); ++b)
      if (llvm::json::Array *row = (*rows)[b].getAsArray())
        row->push_back(int64_t(b < arena.state.size() && arena.state[b]));
  return plan;
}

} // namespace

std::string pageDataJson(llvm::ArrayRef<const PlannedEntry *> plans) {
  Strings ops, locations;
  llvm::json::Array planData;
  for (const PlannedEntry *entry : plans)
    planData.push_back(planJson(*entry, ops, locations));
  return scriptSafe(llvm::json::Object{
      {"ops", ops.array()},
      {"locations", locations.array()},
      {"plans", std::move(planData)},
  });
}

std::string programDataJson(const ProgramPage &page) {
  Strings ops, locations;
  llvm::json::Array planData;
  for (const ProgramArena &arena : page.arenas) {
    planData.push_back(
        programPlanJson(arena, arena.before, "as exported", ops, locations));
    planData.push_back(
        programPlanJson(arena, arena.after, "re-planned", ops, locations));
  }
  return scriptSafe(llvm::json::Object{
      {"unit", "instruction"},
      {"ops", ops.array()},
      {"locations", locations.array()},
      {"plans", std::move(planData)},
  });
}

} // namespace coreai::report
