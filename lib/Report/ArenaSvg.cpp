//===- ArenaSvg.cpp - One plan of a program's arena, as a picture ---------===//
//
// Drawn small enough that two plans of an arena sit side by side and two
// methods fit the page's first screen: the frame is the shared byte scale,
// so the re-planned arena is visibly lower than the exported one, and the
// band between them is marked as saved.
//
//===----------------------------------------------------------------------===//
#include "ArenaSvg.h"

#include "Format.h"
#include "coreai-plan/Report/Regions.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

namespace coreai::report {
namespace {

constexpr double width = 500, left = 70, plotWidth = 414, top = 50;
/// Below the plot: the instruction axis, its ticks and its name.
constexpr double axisHeight = 36;
/// A name is written inside a mutable buffer at least this high (px).
constexpr double labelHeight = 10;

struct Scale {
  int64_t span = 1, bytes = 1;
  double plotHeight = 176;
  double bottom() const { return top + plotHeight; }
  double x(int64_t time) const {
    return left + plotWidth * double(std::clamp<int64_t>(time, 0, span)) /
                      double(span);
  }
  double y(int64_t address) const {
    double clamped = std::min<double>(double(address), double(bytes));
    return bottom() - plotHeight * clamped / double(bytes);
  }
};

/// 1, 2 or 5 times a power of ten, near a fifth of `span`.
int64_t tickStep(int64_t span) {
  double raw = std::max(1.0, double(span) / 5);
  double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= raw)
      return std::max<int64_t>(1, int64_t(m * power));
  return int64_t(10 * power);
}

/// In the picture, so that it reads alike alone (`inspect --svg`) and in
/// the page; labels get a white halo over the rectangles they cross.
void writeStyle(llvm::raw_ostream &os) {
  os << "<style>.arena-picture text{font:11px sans-serif;fill:#222}"
        ".arena-picture .heading{font-size:13px;font-weight:bold}"
        ".arena-picture .frame{fill:#fbfbfb;stroke:#999}"
        ".arena-picture .grid{stroke:#e4e4e4;stroke-width:0.5}"
        ".arena-picture .buf{stroke:#333;stroke-width:0.2}"
        ".arena-picture .buf.state{stroke:#5b2a9e;stroke-width:0.8}"
        ".arena-picture .state-name{font-size:10px;fill:#3b1470;"
        "font-weight:bold}"
        ".arena-picture .arena-size{stroke:#c00;stroke-width:1.5}"
        ".arena-picture .arena-size-label{fill:#c00}"
        ".arena-picture .lower-bound{stroke:#06c;stroke-width:1.2;"
        "stroke-dasharray:6 4}"
        ".arena-picture .lower-bound-label{fill:#06c}"
        ".arena-picture .saved{fill:#e3f3e3;stroke:none}"
        ".arena-picture .saved-label{fill:#070}"
        ".arena-picture .arena-size-label,.arena-picture .lower-bound-label,"
        ".arena-picture .saved-label,.arena-picture .state-name{paint-order:"
        "stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}"
        "</style>\n";
}

/// A rectangle's hover text in a picture seen alone.
std::string titleOf(const PlannedEntry &entry, size_t b, bool state) {
  const Buffer &buffer = entry.problem.buffers[b];
  BufferOrigin origin;
  if (b < entry.origins.size())
    origin = entry.origins[b];
  return llvm::formatv("{0} = {1}{2}\n{3} bytes at offset {4}\nlive [{5}, "
                       "{6}){7}",
                       origin.value.empty() ? buffer.id : origin.value,
                       origin.op, state ? " (state)" : "", buffer.size,
                       entry.plan.offsets[b], buffer.start, buffer.end,
                       origin.location.empty() ? "" : "\n" + origin.location);
}

void writeAxes(llvm::raw_ostream &os, const Scale &scale) {
  int64_t step = tickStep(scale.span);
  for (int64_t t = 0; t <= scale.span; t += step)
    os << llvm::formatv("<line class=\"grid\" x1=\"{0:F1}\" x2=\"{0:F1}\" "
                        "y1=\"{1}\" y2=\"{2}\"/><text class=\"tick\" "
                        "x=\"{0:F1}\" y=\"{3}\" text-anchor=\"middle\">{4}"
                        "</text>\n",
                        scale.x(t), top, scale.bottom() + 4,
                        scale.bottom() + 16, t);
  os << llvm::formatv("<text class=\"axis\" x=\"{0}\" y=\"{1}\" "
                      "text-anchor=\"middle\">instruction</text>\n",
                      left + plotWidth / 2, scale.bottom() + 32);
  for (int64_t bytes : {int64_t(0), scale.bytes / 2, scale.bytes})
    os << llvm::formatv("<text class=\"tick\" x=\"{0}\" y=\"{1:F1}\" "
                        "text-anchor=\"end\">{2}</text>\n",
                        left - 6, scale.y(bytes) + 4, humanBytes(bytes));
}

/// The arena's size (solid) and lower bound (dashed) across the frame,
/// each labelled at the right (mutable buffers' names are at the left);
/// labels of lines closer than a text line go either side of them.
void writeLines(llvm::raw_ostream &os, const Scale &scale,
                const PlannedEntry &entry, int64_t arenaBytes) {
  double arenaY = scale.y(arenaBytes), boundY = scale.y(entry.plan.lowerBound);
  os << llvm::formatv("<line class=\"arena-size\" data-bytes=\"{5}\" "
                      "x1=\"{0}\" x2=\"{6}\" y1=\"{2:F1}\" y2=\"{2:F1}\"/>"
                      "<text class=\"arena-size-label\" x=\"{1}\" "
                      "y=\"{3:F1}\" text-anchor=\"end\">arena {4}</text>\n",
                      left, left + plotWidth - 4, arenaY, arenaY - 3,
                      humanBytes(arenaBytes), arenaBytes, left + plotWidth);
  double labelY = std::abs(boundY - arenaY) < 12 ? boundY + 11 : boundY - 3;
  os << llvm::formatv("<line class=\"lower-bound\" data-bytes=\"{6}\" "
                      "x1=\"{0}\" x2=\"{1}\" y1=\"{2:F1}\" y2=\"{2:F1}\"/>"
                      "<text class=\"lower-bound-label\" x=\"{3}\" "
                      "y=\"{4:F1}\" text-anchor=\"end\">lower bound {5}"
                      "</text>\n",
                      left, left + plotWidth, boundY, left + plotWidth - 4,
                      labelY,
                      humanBytes(entry.plan.lowerBound), entry.plan.lowerBound);
}

/// Mutable buffers too thin to name one by one, where they lie next to
/// each other in the arena: one name for the block ("12 mutable buffers").
void writeStateBlocks(llvm::raw_ostream &os, const Scale &scale,
                      const PlannedEntry &entry,
                      const ArenaSvgOptions &options) {
  std::vector<std::pair<int64_t, int64_t>> spans; // [offset, end) by offset
  for (size_t b = 0; b < entry.problem.buffers.size(); ++b)
    if (options.state && b < options.state->size() && (*options.state)[b])
      spans.push_back({entry.plan.offsets[b],
                       entry.plan.offsets[b] + entry.problem.buffers[b].size});
  std::sort(spans.begin(), spans.end());
  int64_t gap = std::max<int64_t>(entry.alignment, 1);
  for (size_t first = 0; first < spans.size();) {
    size_t last = first;
    int64_t end = spans[first].second;
    bool thin = scale.y(spans[first].first) - scale.y(end) < labelHeight;
    while (last + 1 < spans.size() && spans[last + 1].first < end + gap) {
      ++last;
      thin = thin || scale.y(spans[last].first) -
                             scale.y(spans[last].second) <
                         labelHeight;
      end = std::max(end, spans[last].second);
    }
    double y0 = scale.y(end), y1 = scale.y(spans[first].first);
    if (last > first && thin && y1 - y0 >= labelHeight)
      os << llvm::formatv("<text class=\"state-name state-block\" "
                          "x=\"{0:F1}\" y=\"{1:F1}\">{2} mutable buffers "
                          "(state), {3}</text>\n",
                          left + 4, (y0 + y1) / 2 + 3.5, last - first + 1,
                          humanBytes(end - spans[first].first));
    first = last + 1;
  }
}

void writeBuffers(llvm::raw_ostream &os, const Scale &scale,
                  const PlannedEntry &entry, const ArenaSvgOptions &options,
                  const std::string &hatch) {
  // Names after every rectangle, so that no neighbour's edge crosses them.
  std::string names;
  llvm::raw_string_ostream nameOs(names);
  for (size_t b = 0; b < entry.problem.buffers.size(); ++b) {
    const Buffer &buffer = entry.problem.buffers[b];
    int64_t offset = entry.plan.offsets[b];
    bool state = options.state && b < options.state->size() &&
                 (*options.state)[b];
    llvm::StringRef op =
        b < entry.origins.size() ? llvm::StringRef(entry.origins[b].op) : "";
    double x0 = scale.x(buffer.start), x1 = scale.x(buffer.end);
    double y0 = scale.y(offset + buffer.size), y1 = scale.y(offset);
    double h = std::max(y1 - y0, 0.6);
    os << llvm::formatv("<rect class=\"buf{0}\" data-b=\"{1}\" x=\"{2:F2}\" "
                        "y=\"{3:F2}\" width=\"{4:F2}\" height=\"{5:F2}\" "
                        "fill=\"{6}\"",
                        state ? " state" : "", b, x0, y1 - h,
                        std::max(x1 - x0, 0.6), h,
                        state ? "url(#" + hatch + ")" : colourFor(op));
    if (options.titles)
      os << "><title>" << escapeXml(titleOf(entry, b, state))
         << "</title></rect>\n";
    else
      os << "/>\n";
    if (state && h >= labelHeight && b < entry.origins.size())
      nameOs << llvm::formatv("<text class=\"state-name\" x=\"{0:F1}\" "
                              "y=\"{1:F1}\">{2} (state, {3})</text>\n",
                              x0 + 4, y1 - h / 2 + 3.5,
                              escapeXml(entry.origins[b].value),
                              humanBytes(buffer.size));
  }
  os << names;
  writeStateBlocks(os, scale, entry, options);
}

} // namespace

std::string renderArenaSvg(const PlannedEntry &entry,
                           const ArenaSvgOptions &options) {
  Scale scale;
  scale.span = std::max<int64_t>(1, timeSpanOf(entry));
  scale.bytes = std::max<int64_t>(1, options.scale);
  scale.plotHeight = options.plotHeight;
  double height = top + scale.plotHeight + axisHeight;
  std::string hatch = options.idPrefix + "-state";
  std::string svg;
  llvm::raw_string_ostream os(svg);
  os << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                      "class=\"arena-picture\" width=\"{0}\" height=\"{1}\" "
                      "viewBox=\"0 0 {0} {1}\" data-left=\"{2}\" "
                      "data-width=\"{3}\" data-top=\"{4}\" data-bottom=\"{6}\" "
                      "data-span=\"{5}\">\n",
                      width, height, left, plotWidth, top, scale.span,
                      scale.bottom());
  os << llvm::formatv("<defs><pattern id=\"{0}\" width=\"6\" height=\"6\" "
                      "patternUnits=\"userSpaceOnUse\" patternTransform="
                      "\"rotate(45)\"><rect width=\"6\" height=\"6\" "
                      "fill=\"#d9c8f2\"/><line x1=\"0\" y1=\"0\" x2=\"0\" "
                      "y2=\"6\" stroke=\"#7a4cc2\" stroke-width=\"2.5\"/>"
                      "</pattern></defs>\n",
                      hatch);
  writeStyle(os);
  os << llvm::formatv("<text class=\"heading\" x=\"{0}\" y=\"16\">{1}</text>\n"
                      "<text class=\"sizes\" x=\"{0}\" y=\"34\">arena {2} "
                      "({3} bytes), its tensors reach {4}; {5} buffers</text>\n",
                      left, escapeXml(options.heading),
                      humanBytes(options.arenaBytes), options.arenaBytes,
                      humanBytes(entry.plan.heap), entry.problem.buffers.size());
  os << llvm::formatv("<rect class=\"frame\" x=\"{0}\" y=\"{1}\" width=\"{2}\" "
                      "height=\"{3}\"/>\n",
                      left, top, plotWidth, scale.plotHeight);
  writeAxes(os, scale);
  if (options.arenaBefore > options.arenaBytes) {
    double y0 = scale.y(options.arenaBefore), y1 = scale.y(options.arenaBytes);
    os << llvm::formatv("<rect class=\"saved\" x=\"{0}\" y=\"{1:F1}\" "
                        "width=\"{2}\" height=\"{3:F1}\"/>\n",
                        left, y0, plotWidth, y1 - y0);
    // Inside the band when it is a text line high, else above it.
    double labelY = y1 - y0 >= 14 ? (y0 + y1) / 2 + 4 : y0 - 3;
    os << llvm::formatv("<text class=\"saved-label\" x=\"{0}\" y=\"{1:F1}\" "
                        "text-anchor=\"middle\">saved {2} against the "
                        "exported arena</text>\n",
                        left + plotWidth / 2, labelY,
                        humanBytes(options.arenaBefore - options.arenaBytes));
  }
  writeBuffers(os, scale, entry, options, hatch);
  writeLines(os, scale, entry, options.arenaBytes);
  os << "</svg>\n";
  return svg;
}

} // namespace coreai::report
