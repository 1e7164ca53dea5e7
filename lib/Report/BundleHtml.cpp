//===- BundleHtml.cpp - One offline page for a whole bundle ---------------===//
//
// Everything is inline (style, script, pictures, data), so the page works
// from a file:// URL on a machine without network, as a build artefact
// people download. The style and script are page/page.css and page/page.js,
// compiled in. Each entry point's section holds its growth chart and a tab
// per S; a tab's picture is kept in a <template> (inert: not laid out) until
// the tab is first shown, so a page of many large plans draws only what is
// looked at.
//
//===----------------------------------------------------------------------===//
#include "Format.h"
#include "PageData.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace coreai {
namespace {

#include "Page_css.inc"
#include "Page_js.inc"

using report::humanBytes;

void writeSummary(llvm::raw_ostream &os,
                  llvm::ArrayRef<const PlannedEntry *> plans) {
  os << "<table class=\"summary\"><tr><th>entry</th><th>S</th><th>buffers"
        "</th><th>lower bound</th><th>heap</th><th>heap / LB</th><th>"
        "borrowed</th><th>states</th><th>planned</th><th>fused away</th>"
        "</tr>\n";
  for (const PlannedEntry *e : plans) {
    PlannedBytes bytes = plannedBytesOf(*e);
    std::string fused =
        e->kernels.empty()
            ? std::string("-")
            : llvm::formatv("{0} kernels, {1} values, {2}", e->kernels.size(),
                            e->fusedValues(), humanBytes(e->fusedBytes()))
                  .str();
    os << llvm::formatv("<tr class=\"entry-row\"><td>@{0}</td><td>{1}</td>"
                        "<td>{2}</td><td>{3}</td><td>{4}</td><td>{5:F4}</td>"
                        "<td>{6}</td><td>{7}</td><td>{8}</td><td>{9}</td>"
                        "</tr>\n",
                        escapeXml(e->entry), e->chunk,
                        e->problem.buffers.size(), e->plan.lowerBound,
                        e->plan.heap, heapRatio(e->plan.heap, e->plan.lowerBound),
                        humanBytes(bytes.lent), humanBytes(bytes.state),
                        humanBytes(bytes.total), fused);
  }
  os << "</table>\n";
}

void writePieces(llvm::raw_ostream &os,
                 llvm::ArrayRef<const ParametricPiece *> pieces) {
  for (const ParametricPiece *piece : pieces) {
    const ParametricPlan &plan = *piece->plan;
    std::optional<SizeExpr> heap = plan.heapPolynomial();
    os << llvm::formatv("<p class=\"piece\">one plan for every S in [{0}, "
                        "{1}]: heap {2} ({3} at S={0}, {4} at S={1})</p>\n",
                        plan.lo, plan.hi,
                        heap ? "= " + heap->str() + " bytes"
                             : std::string("is not one polynomial"),
                        plan.heapAt(plan.lo), plan.heapAt(plan.hi));
  }
}

/// One S of an entry point: where its bytes go, its picture (drawn when
/// the tab is first shown), what is live at the peak, the details pinned.
void writePlan(llvm::raw_ostream &os, const PlannedEntry &entry, size_t id,
               bool shown) {
  os << llvm::formatv("<div class=\"plan\" id=\"plan-{0}\" data-plan=\"{0}\" "
                      "data-entry=\"{1}\" data-s=\"{2}\"{3}>\n",
                      id, escapeXml(entry.entry), entry.chunk,
                      shown ? "" : " hidden");
  os << report::whereBytesGoHtml(entry);
  HeapSvgOptions options;
  options.titles = false;
  options.indices = true;
  options.captions = false;
  os << "<div class=\"picture-row\"><div class=\"picture\"></div>"
        "<template class=\"picture-src\">"
     << renderHeapSvg(entry, options) << "</template>\n<div class=\"side\">"
     << report::liveAtPeakHtml(entry)
     << "<div class=\"details\">Point at a rectangle for its value; click "
        "one to keep its details here, click an empty place for what is "
        "live at that op.</div></div></div>\n</div>\n";
}

} // namespace

std::string renderBundleHtml(llvm::ArrayRef<PlannedEntry> entries,
                             llvm::StringRef title,
                             llvm::ArrayRef<ParametricPiece> pieces) {
  // Entry points in first-seen order (entries, then parametric plans),
  // each one's entries sorted by S.
  llvm::MapVector<llvm::StringRef, std::vector<const PlannedEntry *>> groups;
  llvm::MapVector<llvm::StringRef, std::vector<const ParametricPiece *>>
      piecesOf;
  for (const PlannedEntry &entry : entries)
    groups[entry.entry].push_back(&entry);
  for (const ParametricPiece &piece : pieces) {
    groups[piece.entry];
    piecesOf[piece.entry].push_back(&piece);
  }
  std::vector<const PlannedEntry *> plans;
  int64_t bundleHeap = 0;
  for (auto &[name, group] : groups) {
    std::stable_sort(group.begin(), group.end(),
                     [](const PlannedEntry *a, const PlannedEntry *b) {
                       return a->chunk < b->chunk;
                     });
    plans.insert(plans.end(), group.begin(), group.end());
    for (const PlannedEntry *e : group)
      bundleHeap = std::max(bundleHeap, e->plan.heap);
  }
  for (auto &[name, list] : piecesOf)
    std::stable_sort(list.begin(), list.end(), [](auto *a, auto *b) {
      return a->plan->lo < b->plan->lo;
    });

  std::string html;
  llvm::raw_string_ostream os(html);
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
     << "<title>" << escapeXml(title) << "</title>\n<style>" << page_css
     << "</style></head>\n<body>\n<h1>" << escapeXml(title) << "</h1>\n";
  os << llvm::formatv("<p class=\"bundle-heap\">Bundle heap (largest entry "
                      "heap; every entry point shares it): <b>{0} bytes</b> "
                      "({1})</p>\n",
                      bundleHeap, humanBytes(bundleHeap));
  os << "<div class=\"search\"><input id=\"search\" type=\"search\" "
        "placeholder=\"find a value or an op: %5316, softmax\" "
        "autocomplete=\"off\"><div id=\"results\"></div></div>\n";
  writeSummary(os, plans);
  size_t id = 0;
  for (auto &[name, group] : groups) {
    os << "<section class=\"entry\" data-entry=\"" << escapeXml(name)
       << "\"><h2>@" << escapeXml(name) << "</h2>\n";
    auto it = piecesOf.find(name);
    llvm::ArrayRef<const ParametricPiece *> own;
    if (it != piecesOf.end())
      own = it->second;
    os << "<div class=\"growth-row\">" << renderGrowthChart(group, own)
       << "</div>\n";
    writePieces(os, own);
    os << "<div class=\"tabs\">";
    for (size_t i = 0; i < group.size(); ++i)
      os << llvm::formatv("<button class=\"tab{0}\" data-plan=\"{1}\">S={2}"
                          "</button>",
                          i + 1 == group.size() ? " active" : "", id + i,
                          group[i]->chunk);
    os << "</div>\n";
    for (size_t i = 0; i < group.size(); ++i)
      writePlan(os, *group[i], id++, i + 1 == group.size());
    os << "</section>\n";
  }
  os << "<div id=\"tip\" hidden></div>\n<script type=\"application/json\" "
        "id=\"plan-data\">"
     << report::pageDataJson(plans) << "</script>\n<script>" << page_js
     << "</script>\n</body></html>\n";
  return html;
}

} // namespace coreai
