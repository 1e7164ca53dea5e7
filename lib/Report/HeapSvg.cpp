//===- HeapSvg.cpp - The heap of one plan as an SVG picture ---------------===//
//
// Time runs left to right, addresses bottom to top, so a buffer is a
// rectangle and a good plan looks like a tightly filled box under the
// lower-bound line. Each output whose storage the plan borrows gets a band
// of its own below the heap, on the same time axis, up to the op that
// writes the output's own value.
//
//===----------------------------------------------------------------------===//
#include "Format.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace coreai {
namespace {

using report::colourFor;
using report::humanBytes;

constexpr double plotLeft = 96, plotTop = 48, plotWidth = 880,
                 plotHeight = 420, legendWidth = 230;
constexpr double totalWidth = plotLeft + plotWidth + 24 + legendWidth;
constexpr double bandHeight = 90, bandGap = 40;

/// Maps op positions and byte addresses to picture coordinates: the heap's
/// plot, or an output's band (`top`, `height`).
class Axes {
public:
  Axes(int64_t timeSpan, int64_t addressSpan, double top = plotTop,
       double height = plotHeight)
      : timeSpan(std::max<int64_t>(timeSpan, 1)),
        addressSpan(std::max<int64_t>(addressSpan, 1)), top(top),
        height(height) {}
  double x(int64_t time) const {
    return plotLeft + plotWidth * double(time) / double(timeSpan);
  }
  double y(int64_t address) const {
    return top + height - height * double(address) / double(addressSpan);
  }
  int64_t timeSpan, addressSpan;
  double top, height;
};

/// Labels sit at the right end (heap) or the left end (lower bound), so
/// they stay readable when the two lines coincide.
void writeHorizontalLine(llvm::raw_ostream &os, const Axes &axes,
                         int64_t address, llvm::StringRef cssClass,
                         llvm::StringRef label, bool labelAtRight) {
  double y = axes.y(address);
  os << llvm::formatv("<line class=\"{0}\" x1=\"{1:F1}\" y1=\"{2:F1}\" "
                      "x2=\"{3:F1}\" y2=\"{2:F1}\"/>\n",
                      cssClass, plotLeft, y, plotLeft + plotWidth);
  os << llvm::formatv("<text class=\"{0}-label\" x=\"{1:F1}\" y=\"{2:F1}\" "
                      "text-anchor=\"{3}\">{4}</text>\n",
                      cssClass,
                      labelAtRight ? plotLeft + plotWidth - 4 : plotLeft + 4,
                      y - 4, labelAtRight ? "end" : "start",
                      escapeXml(label));
}

void writeAxes(llvm::raw_ostream &os, const Axes &axes) {
  os << llvm::formatv("<rect class=\"frame\" x=\"{0}\" y=\"{1}\" "
                      "width=\"{2}\" height=\"{3}\"/>\n",
                      plotLeft, plotTop, plotWidth, plotHeight);
  for (int i = 0; i <= 4; ++i) {
    int64_t address = axes.addressSpan * i / 4;
    os << llvm::formatv("<text class=\"tick\" x=\"{0:F1}\" y=\"{1:F1}\" "
                        "text-anchor=\"end\">{2}</text>\n",
                        plotLeft - 6, axes.y(address) + 4,
                        humanBytes(address));
    int64_t time = axes.timeSpan * i / 4;
    os << llvm::formatv("<text class=\"tick\" x=\"{0:F1}\" y=\"{1:F1}\" "
                        "text-anchor=\"middle\">{2}</text>\n",
                        axes.x(time), plotTop + plotHeight + 16, time);
  }
  os << llvm::formatv("<text class=\"axis\" x=\"{0:F1}\" y=\"{1:F1}\" "
                      "text-anchor=\"middle\">op position (time)</text>\n",
                      plotLeft + plotWidth / 2, plotTop + plotHeight + 36);
  os << llvm::formatv("<text class=\"axis\" x=\"16\" y=\"{0:F1}\" "
                      "transform=\"rotate(-90 16 {0:F1})\" "
                      "text-anchor=\"middle\">heap address</text>\n",
                      plotTop + plotHeight / 2);
}

/// The buffers of one region: the heap (`bin` -1) or output bin `bin`.
void writeBuffers(llvm::raw_ostream &os, const PlannedEntry &entry,
                  const Axes &axes, int64_t bin = -1) {
  const BufferProblem &problem = entry.problem;
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    int64_t region = entry.binOf.empty() ? -1 : entry.binOf[i];
    if (region != bin)
      continue;
    const Buffer &b = problem.buffers[i];
    const BufferOrigin *origin =
        i < entry.origins.size() ? &entry.origins[i] : nullptr;
    llvm::StringRef op = origin ? llvm::StringRef(origin->op) : "";
    int64_t offset = entry.plan.offsets[i];
    double x = axes.x(b.start), y = axes.y(offset + b.size);
    double width = std::max(axes.x(b.end) - x, 0.6);
    double height = std::max(axes.y(offset) - y, 0.6);
    std::string title = llvm::formatv(
        "{0} = {1}\n{2} bytes at offset {3}{7}\nlive [{4}, {5})\n{6}",
        origin ? origin->value : b.id, op, b.size, offset, b.start, b.end,
        origin ? origin->location : "",
        bin < 0 ? std::string()
                : " of output " + std::to_string(entry.outputBins[bin].output));
    os << llvm::formatv("<rect class=\"buf\" x=\"{0:F2}\" y=\"{1:F2}\" "
                        "width=\"{2:F2}\" height=\"{3:F2}\" fill=\"{4}\">"
                        "<title>{5}</title></rect>\n",
                        x, y, width, height, colourFor(op), escapeXml(title));
  }
}

/// Output bin `bin`'s band: its bytes bottom to top, the borrowed buffers,
/// and the op that writes the output's own value (nothing borrowed after).
void writeOutputBand(llvm::raw_ostream &os, const PlannedEntry &entry,
                     int64_t timeSpan, size_t bin, double top) {
  const OutputBin &output = entry.outputBins[bin];
  Axes band(timeSpan, output.capacity, top, bandHeight);
  os << llvm::formatv("<rect class=\"frame\" x=\"{0}\" y=\"{1}\" "
                      "width=\"{2}\" height=\"{3}\"/>\n",
                      plotLeft, top, plotWidth, bandHeight);
  os << llvm::formatv("<text class=\"axis\" x=\"{0}\" y=\"{1:F1}\">"
                      "output {2} ({3}), borrowed until op {4}</text>\n",
                      plotLeft, top - 6, output.output,
                      humanBytes(output.capacity), output.availableUntil);
  for (int64_t address : {int64_t(0), output.capacity})
    os << llvm::formatv("<text class=\"tick\" x=\"{0:F1}\" y=\"{1:F1}\" "
                        "text-anchor=\"end\">{2}</text>\n",
                        plotLeft - 6, band.y(address) + 4,
                        humanBytes(address));
  writeBuffers(os, entry, band, int64_t(bin));
  double writtenX = band.x(output.availableUntil);
  os << llvm::formatv("<line class=\"written\" x1=\"{0:F1}\" y1=\"{1:F1}\" "
                      "x2=\"{0:F1}\" y2=\"{2:F1}\"/>\n",
                      writtenX, top, top + bandHeight);
}

void writeLegend(llvm::raw_ostream &os, const PlannedEntry &entry) {
  llvm::StringMap<int64_t> bytesByOp;
  for (size_t i = 0; i < entry.origins.size(); ++i)
    bytesByOp[entry.origins[i].op] += entry.problem.buffers[i].size;
  std::vector<std::pair<std::string, int64_t>> ops;
  for (const auto &item : bytesByOp)
    ops.emplace_back(item.getKey().str(), item.getValue());
  std::sort(ops.begin(), ops.end(), [](const auto &a, const auto &b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  double x = plotLeft + plotWidth + 24, y = plotTop;
  os << llvm::formatv("<text class=\"axis\" x=\"{0}\" y=\"{1}\">"
                      "op kind (bytes produced)</text>\n",
                      x, y + 4);
  for (size_t i = 0; i < std::min<size_t>(ops.size(), 16); ++i) {
    double rowY = y + 20 + 20 * double(i);
    os << llvm::formatv("<rect class=\"swatch\" x=\"{0}\" y=\"{1}\" "
                        "width=\"12\" height=\"12\" fill=\"{2}\"/>"
                        "<text class=\"legend\" x=\"{3}\" y=\"{4}\">{5} "
                        "({6})</text>\n",
                        x, rowY - 10, colourFor(ops[i].first), x + 18, rowY,
                        escapeXml(ops[i].first), humanBytes(ops[i].second));
  }
}

} // namespace

std::string renderHeapSvg(const PlannedEntry &entry) {
  const BufferProblem &problem = entry.problem;
  int64_t timeSpan = 0;
  for (const Buffer &b : problem.buffers)
    timeSpan = std::max(timeSpan, b.end);
  for (const OutputBin &bin : entry.outputBins)
    timeSpan = std::max(timeSpan, bin.availableUntil);
  Axes axes(timeSpan, std::max(entry.plan.heap, entry.plan.lowerBound) * 21 /
                          20);
  Peak peak = findPeak(problem, &entry.binOf);
  // A band for each output that holds borrowed bytes (of the outputs lent
  // to the plan, those too small or written too early hold none).
  std::vector<size_t> usedBins;
  for (size_t bin = 0; bin < entry.outputBins.size(); ++bin)
    if (llvm::is_contained(entry.binOf, int32_t(bin)))
      usedBins.push_back(bin);
  double bandsTop = plotTop + plotHeight + 56 + bandGap;
  double totalHeight = plotTop + plotHeight + 56 +
                       double(usedBins.size()) * (bandHeight + bandGap) +
                       (usedBins.empty() ? 0 : 16);

  std::string svg;
  llvm::raw_string_ostream os(svg);
  os << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                      "class=\"heap\" width=\"{0}\" height=\"{1}\" "
                      "viewBox=\"0 0 {0} {1}\">\n",
                      totalWidth, totalHeight);
  os << "<style>.frame{fill:#fbfbfb;stroke:#999}.buf{stroke:#333;"
        "stroke-width:0.2}.heap-total{stroke:#c00;stroke-width:1.5}"
        ".lower-bound{stroke:#06c;stroke-width:1.2;stroke-dasharray:6 4}"
        ".peak{stroke:#e80;stroke-width:1.2;stroke-dasharray:3 3}"
        "text{font:12px sans-serif;fill:#222}.tick{font-size:11px}"
        ".title{font-size:15px;font-weight:bold}"
        ".heap-total-label{fill:#c00}.lower-bound-label{fill:#06c}"
        ".peak-label{fill:#b60}.written{stroke:#c00;stroke-width:1.5}"
        "</style>\n";
  os << llvm::formatv(
      "<text class=\"title\" x=\"{0}\" y=\"24\">@{1} at S={2}: heap {3} "
      "({4} bytes), lower bound {5}, {6} buffers, {7}</text>\n",
      plotLeft, escapeXml(entry.entry), entry.chunk,
      humanBytes(entry.plan.heap), entry.plan.heap,
      humanBytes(entry.plan.lowerBound), problem.buffers.size(),
      escapeXml(entry.plan.algorithm));
  writeAxes(os, axes);
  writeBuffers(os, entry, axes);
  writeHorizontalLine(os, axes, entry.plan.heap, "heap-total",
                      "heap " + humanBytes(entry.plan.heap),
                      /*labelAtRight=*/true);
  writeHorizontalLine(os, axes, entry.plan.lowerBound, "lower-bound",
                      "lower bound " + humanBytes(entry.plan.lowerBound),
                      /*labelAtRight=*/false);
  double peakX = axes.x(peak.time);
  os << llvm::formatv("<line class=\"peak\" x1=\"{0:F1}\" y1=\"{1}\" "
                      "x2=\"{0:F1}\" y2=\"{2}\"/>\n"
                      "<text class=\"peak-label\" x=\"{0:F1}\" y=\"{3}\" "
                      "text-anchor=\"middle\">peak at op {4}</text>\n",
                      peakX, plotTop, plotTop + plotHeight, plotTop - 6,
                      peak.time);
  for (size_t i = 0; i < usedBins.size(); ++i)
    writeOutputBand(os, entry, timeSpan, usedBins[i],
                    bandsTop + double(i) * (bandHeight + bandGap));
  writeLegend(os, entry);
  // What fusion kept out of this picture, under the time axis at the left.
  if (!entry.kernels.empty())
    os << llvm::formatv("<text class=\"kernels\" x=\"{0}\" y=\"{1}\">{2}"
                        "</text>\n",
                        plotLeft, plotTop + plotHeight + 36,
                        escapeXml(kernelSummary(entry)));
  os << "</svg>\n";
  return svg;
}

} // namespace coreai
