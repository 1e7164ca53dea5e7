//===- SvgPanels.cpp - The regions of one plan drawn on one time axis -----===//
#include "SvgPanels.h"

#include "Format.h"

#include "llvm/Support/FormatVariadic.h"

#include <map>

namespace coreai::report::svg {
namespace {

constexpr double panelGap = 40, minPanel = 120, maxPanel = 520;
constexpr double lanePitch = 9, laneHeight = 7;
/// Regions with more buffers than this merge the ones smaller than a
/// pixel or so into cells of `cell` pixels.
constexpr size_t aggregateAbove = 3000;
constexpr double tiny = 1.5, cell = 3;

/// Tall enough that 60% of the region's buffers are at least 2.5 pixels
/// high, within bounds.
double panelHeight(const PlannedEntry &entry, const Region &region,
                   int64_t scale) {
  std::vector<int64_t> sizes;
  for (size_t b : region.buffers)
    sizes.push_back(entry.problem.buffers[b].size);
  // The outputs borrowed in hold most buffers: more room than the heap.
  double least = region.kind == Region::Kind::Heap ? minPanel : 1.5 * minPanel;
  if (sizes.empty())
    return least;
  std::sort(sizes.begin(), sizes.end());
  int64_t size = std::max<int64_t>(sizes[sizes.size() * 2 / 5], 1);
  return std::clamp(2.5 * double(scale) / double(size), least, maxPanel);
}

/// The byte scale of a panel: the bytes the plan uses, with room above
/// the heap line; an output's capacity when the plan uses most of it.
int64_t scaleOf(const Region &region) {
  int64_t used = std::max<int64_t>(region.used, 1);
  if (region.kind == Region::Kind::Heap)
    return used * 21 / 20 + 1;
  if (region.capacity > 0 && region.capacity * 4 <= used * 5)
    return region.capacity;
  return used * 21 / 20 + 1;
}

std::string plural(size_t count, llvm::StringRef word) {
  return std::to_string(count) + " " + word.str() + (count == 1 ? "" : "s");
}

} // namespace

double PanelWriter::writeAll(double top) {
  double bottom = top;
  for (const Region &region : regions)
    if (region.kind == Region::Kind::Heap || region.borrows()) {
      bottom = writePanel(region, top);
      top = bottom + panelGap;
    }
  for (Region::Kind kind : {Region::Kind::Output, Region::Kind::State}) {
    double end = writeLanes(kind, top);
    if (end > top) {
      bottom = end;
      top = bottom + panelGap;
    }
  }
  return bottom;
}

double PanelWriter::writePanel(const Region &region, double top) {
  Frame frame{top, 0, scaleOf(region)};
  frame.height = panelHeight(entry, region, frame.scale);
  os << llvm::formatv("<g class=\"region\" data-region=\"{0}\">\n",
                      region.name());
  os << llvm::formatv("<rect class=\"frame\" x=\"{0}\" y=\"{1:F1}\" "
                      "width=\"{2}\" height=\"{3:F1}\"/>\n",
                      plotLeft, top, plotWidth, frame.height);
  writePanelHeading(region, frame);
  writeYTicks(frame);
  writeBuffers(region, frame);
  if (region.kind == Region::Kind::Heap) {
    writeHeapLines(frame);
  } else {
    writeCapacity(region, frame);
    writePlaced(region, frame, "own");
  }
  os << "</g>\n";
  return top + frame.height;
}

void PanelWriter::writePanelHeading(const Region &region, const Frame &frame) {
  std::string text;
  if (region.kind == Region::Kind::Heap) {
    text = llvm::formatv("heap: {0} ({1} bytes), lower bound {2}, {3}",
                         humanBytes(entry.plan.heap), entry.plan.heap,
                         humanBytes(entry.plan.lowerBound),
                         plural(region.buffers.size(), "buffer"));
  } else {
    double share = region.capacity
                       ? 100.0 * double(region.used) / double(region.capacity)
                       : 0.0;
    text = llvm::formatv("{0}: {1} borrowed, using {2} of its {3} ({4:F1}%) "
                         "until op {5}, where its own value is written",
                         region.name(), plural(region.buffers.size(), "buffer"),
                         humanBytes(region.used), humanBytes(region.capacity),
                         share, region.availableUntil);
  }
  os << llvm::formatv("<text class=\"region-title\" x=\"{0}\" y=\"{1:F1}\">"
                      "{2}</text>\n",
                      plotLeft, frame.top - 6, escapeXml(text));
}

void PanelWriter::writeYTicks(const Frame &frame) {
  for (int i = 0; i <= 2; ++i) {
    int64_t address = frame.scale * i / 2;
    os << llvm::formatv("<text class=\"tick\" x=\"{0:F1}\" y=\"{1:F1}\" "
                        "text-anchor=\"end\">{2}</text>\n",
                        plotLeft - 14, frame.y(address) + 4,
                        humanBytes(address));
  }
}

/// The heap's size and lower bound; labels at opposite ends so both stay
/// readable when the lines coincide.
void PanelWriter::writeHeapLines(const Frame &frame) {
  struct Line {
    int64_t address;
    const char *cssClass, *label;
    bool right;
  };
  for (const Line &line :
       {Line{entry.plan.heap, "heap-total", "heap ", true},
        Line{entry.plan.lowerBound, "lower-bound", "lower bound ", false}}) {
    double y = frame.y(line.address);
    os << llvm::formatv("<line class=\"{0}\" x1=\"{1}\" y1=\"{2:F1}\" "
                        "x2=\"{3}\" y2=\"{2:F1}\"/>\n<text class=\"{0}-label\" "
                        "x=\"{4}\" y=\"{5:F1}\" text-anchor=\"{6}\">{7}{8}"
                        "</text>\n",
                        line.cssClass, plotLeft, y, plotLeft + plotWidth,
                        line.right ? plotLeft + plotWidth - 4 : plotLeft + 4,
                        y - 4, line.right ? "end" : "start", line.label,
                        humanBytes(line.address));
  }
}

/// How much of the output the plan uses: a gauge at the left (its height
/// the output's capacity), the capacity line when it is on the scale, and
/// the op that writes the output's own value.
void PanelWriter::writeCapacity(const Region &region, const Frame &frame) {
  double usedShare =
      region.capacity ? double(region.used) / double(region.capacity) : 1.0;
  double bottom = frame.top + frame.height;
  os << llvm::formatv("<rect class=\"gauge\" x=\"{0}\" y=\"{1:F1}\" width=\"6\""
                      " height=\"{2:F1}\"><title>uses {3} of its {4}</title>"
                      "</rect><rect class=\"gauge-used\" x=\"{0}\" y=\"{5:F1}\""
                      " width=\"6\" height=\"{6:F1}\"/>\n",
                      plotLeft - 10, frame.top, frame.height,
                      humanBytes(region.used), humanBytes(region.capacity),
                      bottom - std::max(1.0, frame.height * usedShare),
                      std::max(1.0, frame.height * usedShare));
  if (region.capacity <= frame.scale) {
    double y = frame.y(region.capacity);
    os << llvm::formatv("<line class=\"capacity\" x1=\"{0}\" y1=\"{1:F1}\" "
                        "x2=\"{2}\" y2=\"{1:F1}\"/>\n<text class=\"capacity-"
                        "label\" x=\"{3}\" y=\"{4:F1}\" text-anchor=\"end\">"
                        "capacity {5}</text>\n",
                        plotLeft, y, plotLeft + plotWidth,
                        plotLeft + plotWidth - 4, y - 4,
                        humanBytes(region.capacity));
  }
  double x = axis.x(region.availableUntil);
  os << llvm::formatv("<line class=\"written\" x1=\"{0:F1}\" y1=\"{1:F1}\" "
                      "x2=\"{0:F1}\" y2=\"{2:F1}\"/>\n",
                      x, frame.top, bottom);
}

void PanelWriter::writeRect(double x0, double x1, double y0, double y1,
                            llvm::StringRef cssClass, llvm::StringRef fill,
                            const std::string &title,
                            const std::string &data) {
  os << llvm::formatv("<rect class=\"{0}\" x=\"{1:F2}\" y=\"{2:F2}\" "
                      "width=\"{3:F2}\" height=\"{4:F2}\" fill=\"{5}\"{6}",
                      cssClass, x0, y0, std::max(x1 - x0, 1.0),
                      std::max(y1 - y0, 0.6), fill, data);
  if (options.titles && !title.empty())
    os << "><title>" << escapeXml(title) << "</title></rect>\n";
  else
    os << "/>\n";
}

std::string PanelWriter::bufferTitle(size_t b, const Region &region) const {
  const Buffer &buffer = entry.problem.buffers[b];
  const BufferOrigin *origin =
      b < entry.origins.size() ? &entry.origins[b] : nullptr;
  // A workspace holds no value: the kernel's scratch (docs/WORKSPACE.md).
  std::string what = entry.isWorkspace(b) ? "workspace of " : "";
  return llvm::formatv("{0} = {8}{1}\n{2} bytes at offset {3} in {4}\nlive "
                       "[{5}, {6})\n{7}",
                       origin ? origin->value : buffer.id,
                       origin ? origin->op : "", buffer.size,
                       entry.plan.offsets[b],
                       region.kind == Region::Kind::Heap ? "the heap"
                                                         : region.name(),
                       buffer.start,
                       buffer.end, origin ? origin->location : "", what);
}

std::string
PanelWriter::placedTitle(size_t p, const Region &region,
                         std::pair<int64_t, int64_t> live) const {
  const PlannedEntry::Placed &value = entry.placed[p];
  return llvm::formatv("{0} = {1}\n{2} bytes written in place at offset 0 in "
                       "{3}\nlive [{4}, {5})\n{6}",
                       value.origin.value, value.origin.op, value.size,
                       region.name(), live.first, live.second,
                       value.origin.location);
}

void PanelWriter::writeBuffers(const Region &region, const Frame &frame) {
  bool merge = region.buffers.size() > aggregateAbove;
  struct Cell {
    int64_t count = 0, bytes = 0;
    std::string fill;
  };
  std::map<std::pair<int64_t, int64_t>, Cell> cells;
  for (size_t b : region.buffers) {
    const Buffer &buffer = entry.problem.buffers[b];
    llvm::StringRef op =
        b < entry.origins.size() ? llvm::StringRef(entry.origins[b].op) : "";
    double x0 = axis.x(buffer.start), x1 = axis.x(buffer.end);
    double y1 = frame.y(entry.plan.offsets[b]);
    double y0 = frame.y(entry.plan.offsets[b] + buffer.size);
    if (merge && x1 - x0 < tiny && y1 - y0 < tiny) {
      Cell &c = cells[{int64_t(x0 / cell), int64_t(y0 / cell)}];
      if (c.count++ == 0)
        c.fill = colourFor(op);
      c.bytes += buffer.size;
      continue;
    }
    std::string data =
        options.indices ? llvm::formatv(" data-b=\"{0}\"", b).str() : "";
    // Workspaces apart from values: their own class and one grey.
    bool workspace = entry.isWorkspace(b);
    writeRect(x0, x1, y0, y1, workspace ? "buf ws" : "buf",
              workspace ? "#9e9e9e" : colourFor(op), bufferTitle(b, region),
              data);
  }
  for (const auto &[at, c] : cells)
    writeRect(double(at.first) * cell, double(at.first + 1) * cell,
              double(at.second) * cell, double(at.second + 1) * cell, "agg",
              c.fill,
              llvm::formatv("{0} small buffers, {1} bytes", c.count, c.bytes),
              llvm::formatv(" data-n=\"{0}\"", c.count).str());
}

void PanelWriter::writePlaced(const Region &region, const Frame &frame,
                              llvm::StringRef cssClass) {
  for (size_t p : region.placed) {
    const PlannedEntry::Placed &value = entry.placed[p];
    std::pair<int64_t, int64_t> live =
        placedInterval(entry, region, p, axis.span);
    std::string data =
        options.indices ? llvm::formatv(" data-p=\"{0}\"", p).str() : "";
    writeRect(axis.x(live.first), axis.x(live.second), frame.y(value.size),
              frame.y(0), cssClass, colourFor(value.origin.op),
              placedTitle(p, region, live), data);
  }
}

/// The storages of one kind written in place, a lane each: the values
/// written there, each at the lane's scale (the storage's bytes).
double PanelWriter::writeLanes(Region::Kind kind, double top) {
  std::vector<const Region *> lanes;
  int64_t bytes = 0;
  for (const Region &region : regions)
    if (region.kind == kind && !region.borrows() &&
        region.kind != Region::Kind::Heap) {
      lanes.push_back(&region);
      bytes += region.capacity;
    }
  if (lanes.empty())
    return top;
  os << llvm::formatv(
      "<text class=\"region-title\" x=\"{0}\" y=\"{1:F1}\">{2}: {3} ({4}), "
      "one lane each at its own size</text>\n",
      plotLeft, top - 6,
      kind == Region::Kind::State ? "states written in place"
                                  : "outputs built in place",
      lanes.size(), humanBytes(bytes));
  double y = top;
  for (const Region *region : lanes) {
    Frame frame{y, laneHeight, std::max<int64_t>(region->capacity, 1)};
    os << llvm::formatv("<g class=\"region lane-region\" data-region=\"{0}\">"
                        "<rect class=\"lane\" x=\"{1}\" y=\"{2:F1}\" "
                        "width=\"{3}\" height=\"{4}\"/><text class=\"lane-"
                        "label\" x=\"{5}\" y=\"{6:F1}\" text-anchor=\"end\">"
                        "{0} ({7})</text>\n",
                        region->name(), plotLeft, y, plotWidth, laneHeight,
                        plotLeft - 4, y + laneHeight, humanBytes(region->capacity));
    writePlaced(*region, frame, "placed");
    os << "</g>\n";
    y += lanePitch;
  }
  return y - (lanePitch - laneHeight);
}

} // namespace coreai::report::svg
