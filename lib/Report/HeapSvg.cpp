//===- HeapSvg.cpp - Where one plan's bytes are, as an SVG picture --------===//
//
// Time runs left to right on one axis shared by every region; addresses run
// bottom to top, so a buffer is a rectangle. Each region is drawn at the
// scale of the bytes the plan uses in it: the heap at the heap's size, an
// output the plan borrows at the highest byte a borrowed buffer reaches
// (its capacity marked beside it), and each storage written in place (the
// states, the outputs built in place) as a lane of its own. The heap's peak
// is marked across all regions, with what is live there in each.
//
//===----------------------------------------------------------------------===//
#include "Format.h"
#include "SvgPanels.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace coreai {
namespace {

using namespace report::svg;
using report::colourFor;
using report::humanBytes;

constexpr double lineHeight = 16, panelsTop = 100;
constexpr size_t legendRows = 16;

void writeStyle(llvm::raw_ostream &os) {
  os << "<style>.frame{fill:#fbfbfb;stroke:#999}.lane{fill:#f4f4f4;"
        "stroke:#ccc;stroke-width:0.5}.buf,.placed{stroke:#333;"
        "stroke-width:0.2}.own{stroke:#333;stroke-width:0.4;"
        "stroke-dasharray:2 1;fill-opacity:0.55}.agg{fill:#777}"
        ".heap-total{stroke:#c00;stroke-width:1.5}"
        ".lower-bound{stroke:#06c;stroke-width:1.2;stroke-dasharray:6 4}"
        ".capacity{stroke:#080;stroke-width:1.2}.gauge{fill:#e4efe4;"
        "stroke:#080;stroke-width:0.5}.gauge-used{fill:#080}"
        ".peak{stroke:#e80;stroke-width:1.2;stroke-dasharray:3 3}"
        ".grid{stroke:#ddd;stroke-width:0.5}"
        "text{font:12px sans-serif;fill:#222}.tick{font-size:11px}"
        ".lane-label{font-size:8px;fill:#555}.title{font-size:15px;"
        "font-weight:bold}.heap-total-label{fill:#c00}"
        ".lower-bound-label{fill:#06c}.capacity-label{fill:#080}"
        ".peak-label{fill:#b60}.live{font-size:11px}"
        ".written{stroke:#c00;stroke-width:1.5}</style>\n";
}

/// The title and the lines under it: what the plan places where, and
/// what fusion kept out of memory.
void writeHeader(llvm::raw_ostream &os, const PlannedEntry &entry) {
  os << llvm::formatv(
      "<text class=\"title\" x=\"{0}\" y=\"24\">@{1} at S={2}: heap {3} "
      "({4} bytes), lower bound {5}, {6} buffers, {7}</text>\n",
      plotLeft, escapeXml(entry.entry), entry.chunk,
      humanBytes(entry.plan.heap), entry.plan.heap,
      humanBytes(entry.plan.lowerBound), entry.problem.buffers.size(),
      escapeXml(entry.plan.algorithm));
  PlannedBytes bytes = plannedBytesOf(entry);
  os << llvm::formatv("<text class=\"planned\" x=\"{0}\" y=\"{1}\">planned: "
                      "heap {2} + borrowed in outputs {3} + states written in "
                      "place {4} = {5}</text>\n",
                      plotLeft, 24 + lineHeight + 4, humanBytes(bytes.heap),
                      humanBytes(bytes.lent), humanBytes(bytes.state),
                      humanBytes(bytes.total));
  // What fusion kept out of this picture.
  if (!entry.kernels.empty())
    os << llvm::formatv("<text class=\"kernels\" x=\"{0}\" y=\"{1}\">{2}"
                        "</text>\n",
                        plotLeft, 24 + 2 * lineHeight + 4,
                        escapeXml(kernelSummary(entry)));
}

void writeLegend(llvm::raw_ostream &os, const PlannedEntry &entry) {
  std::vector<OpBytes> ops = bytesByOp(entry);
  double x = plotLeft + plotWidth + 24, y = panelsTop;
  os << llvm::formatv("<text class=\"axis\" x=\"{0}\" y=\"{1}\">"
                      "op kind (bytes written)</text>\n",
                      x, y - 6);
  for (size_t i = 0; i < std::min(ops.size(), legendRows); ++i) {
    double rowY = y + 14 + 20 * double(i);
    os << llvm::formatv("<rect class=\"swatch\" x=\"{0}\" y=\"{1}\" "
                        "width=\"12\" height=\"12\" fill=\"{2}\"/>"
                        "<text class=\"legend\" x=\"{3}\" y=\"{4}\">{5} "
                        "({6})</text>\n",
                        x, rowY - 10, colourFor(ops[i].op), x + 18, rowY,
                        escapeXml(ops[i].op), humanBytes(ops[i].total()));
  }
}

/// Op numbers under the last region, light lines through all of them.
void writeTimeAxis(llvm::raw_ostream &os, const TimeAxis &axis, double top,
                   double bottom) {
  for (int i = 0; i <= 4; ++i) {
    int64_t time = axis.span * i / 4;
    os << llvm::formatv("<line class=\"grid\" x1=\"{0:F1}\" y1=\"{1:F1}\" "
                        "x2=\"{0:F1}\" y2=\"{2:F1}\"/><text class=\"tick\" "
                        "x=\"{0:F1}\" y=\"{3:F1}\" text-anchor=\"middle\">{4}"
                        "</text>\n",
                        axis.x(time), top, bottom, bottom + 14, time);
  }
  os << llvm::formatv("<text class=\"axis\" x=\"{0:F1}\" y=\"{1:F1}\" "
                      "text-anchor=\"middle\">op position (time)</text>\n",
                      plotLeft + plotWidth / 2, bottom + 30);
}

/// The heap's peak across every region, and (with captions) what is live
/// there.
double writePeak(llvm::raw_ostream &os, const PlannedEntry &entry,
                 const std::vector<Region> &regions, const TimeAxis &axis,
                 double top, double bottom, bool captions) {
  Peak peak = findPeak(entry.problem, &entry.binOf);
  double x = axis.x(peak.time) + axis.x(peak.time + 1);
  x /= 2;
  os << llvm::formatv("<line class=\"peak\" x1=\"{0:F1}\" y1=\"{1:F1}\" "
                      "x2=\"{0:F1}\" y2=\"{2:F1}\"/>\n<text class=\"peak-"
                      "label\" x=\"{3:F1}\" y=\"{4:F1}\" text-anchor=\"middle"
                      "\">peak at op {5}</text>\n",
                      x, top - 18, bottom,
                      std::clamp(x, plotLeft + 50, plotLeft + plotWidth - 50),
                      top - 22, peak.time);
  double y = bottom + 36;
  if (!captions)
    return y;
  y += 16;
  os << llvm::formatv("<text class=\"live\" x=\"{0}\" y=\"{1:F1}\">live at "
                      "the peak (op {2}):</text>\n",
                      plotLeft, y, peak.time);
  for (const std::string &line : describeLiveAt(entry, regions, peak.time)) {
    y += lineHeight;
    os << llvm::formatv("<text class=\"live\" x=\"{0}\" y=\"{1:F1}\">{2}"
                        "</text>\n",
                        plotLeft + 12, y, escapeXml(line));
  }
  return y;
}

} // namespace

std::string renderHeapSvg(const PlannedEntry &entry,
                          const HeapSvgOptions &options) {
  std::vector<Region> regions = regionsOf(entry);
  TimeAxis axis{timeSpanOf(entry)};
  std::string body;
  llvm::raw_string_ostream os(body);
  PanelWriter panels(os, entry, regions, axis, options);
  double bottom = panels.writeAll(panelsTop);
  writeTimeAxis(os, axis, panelsTop, bottom);
  double end =
      writePeak(os, entry, regions, axis, panelsTop, bottom, options.captions);
  double width = totalWidth, height = end + lineHeight;
  if (options.captions) {
    writeLegend(os, entry);
    double legendEnd = panelsTop + 14 + 20 * double(legendRows);
    height = std::max(end, legendEnd) + 2 * lineHeight;
  } else {
    width = plotLeft + plotWidth + 24;
  }

  std::string svg;
  llvm::raw_string_ostream out(svg);
  out << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                       "class=\"heap\" width=\"{0}\" height=\"{1:F0}\" "
                       "viewBox=\"0 0 {0} {1:F0}\" data-left=\"{2}\" "
                       "data-width=\"{3}\" data-span=\"{4}\">\n",
                       width, height, plotLeft, plotWidth, axis.span);
  writeStyle(out);
  writeHeader(out, entry);
  out << body << "</svg>\n";
  return svg;
}

} // namespace coreai
