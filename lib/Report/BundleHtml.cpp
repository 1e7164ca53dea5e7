//===- BundleHtml.cpp - One offline page for a whole bundle ---------------===//
//
// Everything is inline (styles, SVG), so the page works from a file:// URL
// on a machine without network, as a build artefact people download.
//
//===----------------------------------------------------------------------===//
#include "Format.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace coreai {
namespace {

using report::humanBytes;

/// Heap and lower bound against S for the entries of one entry point.
std::string renderHeapCurve(llvm::ArrayRef<const PlannedEntry *> entries) {
  constexpr double left = 90, top = 20, width = 360, height = 180;
  int64_t maxBytes = 1;
  for (const PlannedEntry *e : entries)
    maxBytes = std::max({maxBytes, e->plan.heap, e->plan.lowerBound});
  auto x = [&](size_t i) {
    return entries.size() == 1
               ? left + width / 2
               : left + width * double(i) / double(entries.size() - 1);
  };
  auto y = [&](int64_t bytes) {
    return top + height - height * double(bytes) / double(maxBytes);
  };
  std::string svg;
  llvm::raw_string_ostream os(svg);
  os << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                      "class=\"curve\" width=\"{0}\" height=\"{1}\">\n",
                      left + width + 30, top + height + 40);
  os << llvm::formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" "
                      "fill=\"#fbfbfb\" stroke=\"#999\"/>\n",
                      left, top, width, height);
  os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" text-anchor=\"end\">{2}"
                      "</text><text x=\"{0}\" y=\"{3}\" text-anchor=\"end\">0"
                      "</text>\n",
                      left - 6, top + 10, humanBytes(maxBytes), top + height);
  auto polyline = [&](auto bytesOf, llvm::StringRef style) {
    os << "<polyline fill=\"none\" " << style << " points=\"";
    for (size_t i = 0; i < entries.size(); ++i)
      os << llvm::formatv("{0:F1},{1:F1} ", x(i), y(bytesOf(entries[i])));
    os << "\"/>\n";
  };
  polyline([](const PlannedEntry *e) { return e->plan.lowerBound; },
           "stroke=\"#06c\" stroke-dasharray=\"6 4\"");
  polyline([](const PlannedEntry *e) { return e->plan.heap; },
           "stroke=\"#c00\" stroke-width=\"2\"");
  for (size_t i = 0; i < entries.size(); ++i) {
    const PlannedEntry *e = entries[i];
    os << llvm::formatv(
        "<circle class=\"point\" cx=\"{0:F1}\" cy=\"{1:F1}\" r=\"4\" "
        "fill=\"#c00\"><title>S={2}: heap {3} bytes, lower bound {4} bytes"
        "</title></circle>\n<text x=\"{0:F1}\" y=\"{5}\" "
        "text-anchor=\"middle\">S={2}</text>\n",
        x(i), y(e->plan.heap), e->chunk, e->plan.heap, e->plan.lowerBound,
        top + height + 18);
  }
  os << llvm::formatv("<text x=\"{0}\" y=\"{1}\" fill=\"#c00\">heap</text>"
                      "<text x=\"{2}\" y=\"{1}\" fill=\"#06c\">lower bound"
                      "</text>\n",
                      left, top + height + 36, left + 60);
  os << "</svg>\n";
  return svg;
}

} // namespace

std::string renderBundleHtml(llvm::ArrayRef<PlannedEntry> entries,
                             llvm::StringRef title) {
  // Group by entry point, first-seen order, each group sorted by S.
  llvm::MapVector<llvm::StringRef, std::vector<const PlannedEntry *>> groups;
  for (const PlannedEntry &entry : entries)
    groups[entry.entry].push_back(&entry);
  int64_t bundleHeap = 0;
  for (const PlannedEntry &entry : entries)
    bundleHeap = std::max(bundleHeap, entry.plan.heap);

  std::string html;
  llvm::raw_string_ostream os(html);
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
     << "<title>" << escapeXml(title) << "</title>\n<style>"
     << "body{font:14px sans-serif;margin:24px;color:#222}"
     << ".row{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}"
     << ".heap{width:100%;max-width:760px;height:auto;border:1px solid #ddd}"
     << "table{border-collapse:collapse}td,th{padding:2px 10px;"
     << "text-align:right;border-bottom:1px solid #eee}</style></head>\n<body>"
     << "<h1>" << escapeXml(title) << "</h1>\n";
  os << llvm::formatv("<p class=\"bundle-heap\">Bundle heap (largest entry "
                      "heap; every entry point shares it): <b>{0} bytes</b> "
                      "({1})</p>\n",
                      bundleHeap, humanBytes(bundleHeap));
  os << "<table><tr><th>entry</th><th>S</th><th>buffers</th>"
        "<th>lower bound</th><th>heap</th><th>heap / LB</th></tr>\n";
  for (const PlannedEntry &e : entries)
    os << llvm::formatv("<tr class=\"entry-row\"><td>@{0}</td><td>{1}</td>"
                        "<td>{2}</td><td>{3}</td><td>{4}</td>"
                        "<td>{5:F4}</td></tr>\n",
                        escapeXml(e.entry), e.chunk, e.problem.buffers.size(),
                        e.plan.lowerBound, e.plan.heap,
                        heapRatio(e.plan.heap, e.plan.lowerBound));
  os << "</table>\n";
  for (auto &[name, group] : groups) {
    std::stable_sort(group.begin(), group.end(),
                     [](const PlannedEntry *a, const PlannedEntry *b) {
                       return a->chunk < b->chunk;
                     });
    os << "<section class=\"entry\"><h2>@" << escapeXml(name) << "</h2>\n"
       << "<div class=\"row\">" << renderHeapCurve(group) << "</div>\n"
       << "<div class=\"row\">\n";
    for (const PlannedEntry *e : group)
      os << renderHeapSvg(*e);
    os << "</div></section>\n";
  }
  os << "</body></html>\n";
  return html;
}

} // namespace coreai
