//===- GrowthChart.cpp - An entry point's bytes against S -----------------===//
//
// Two charts side by side on a true S axis (S = 0 at the left edge, every
// S at its proportional place): the heap with its lower bound, and the
// bytes the plan places (heap + borrowed in outputs + states written in
// place). Planned entries are points; a parametric plan is drawn at every
// S of its range, with a dashed line where one piece ends and the next
// begins.
//
//===----------------------------------------------------------------------===//
#include "Format.h"
#include "coreai-plan/Report/Report.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

namespace coreai {
namespace {

using report::humanBytes;

constexpr double chartLeft = 80, chartWidth = 420, chartHeight = 190,
                 chartTop = 34, chartGap = 110;

/// One curve: (S, bytes) pairs in S order.
using Curve = std::vector<std::pair<int64_t, int64_t>>;

struct Series {
  const char *cssClass, *label;
  std::vector<Curve> curves; ///< a piece each (entries: one)
  bool points = false;       ///< draw a point per S (planned entries)
};

/// A round step near span / 4: 1, 2 or 5 times a power of ten.
int64_t niceStep(int64_t span) {
  int64_t step = 1;
  while (step * 10 <= span / 4)
    step *= 10;
  if (step * 5 <= span / 4)
    return step * 5;
  if (step * 2 <= span / 4)
    return step * 2;
  return step;
}

class Chart {
public:
  Chart(llvm::raw_ostream &os, double left, int64_t maxS, int64_t maxBytes)
      : os(os), left(left), maxS(std::max<int64_t>(maxS, 1)),
        maxBytes(std::max<int64_t>(maxBytes, 1)) {}
  double x(int64_t s) const {
    return left + chartWidth * double(s) / double(maxS);
  }
  double y(int64_t bytes) const {
    return chartTop + chartHeight -
           chartHeight * double(bytes) / double(maxBytes);
  }
  void writeFrame(llvm::StringRef title, llvm::StringRef entry) {
    os << llvm::formatv("<g class=\"chart\"><text class=\"chart-title\" "
                        "x=\"{0}\" y=\"16\">{1}</text>\n<rect class=\"chart-frame\" x=\"{0}\" "
                        "y=\"{2}\" width=\"{3}\" height=\"{4}\"/>\n",
                        left, escapeXml(title), chartTop, chartWidth,
                        chartHeight);
    for (int64_t bytes : {int64_t(0), maxBytes / 2, maxBytes})
      os << llvm::formatv("<text class=\"tick\" x=\"{0}\" y=\"{1:F1}\" "
                          "text-anchor=\"end\">{2}</text>\n",
                          left - 6, y(bytes) + 4, humanBytes(bytes));
    for (int64_t s = 0, step = niceStep(maxS); s <= maxS; s += step)
      os << llvm::formatv("<line class=\"s-grid\" x1=\"{0:F1}\" y1=\"{1}\" "
                          "x2=\"{0:F1}\" y2=\"{2}\"/><text class=\"tick "
                          "s-tick\" x=\"{0:F1}\" y=\"{3}\" text-anchor=\""
                          "middle\" data-s=\"{4}\">{4}</text>\n",
                          x(s), chartTop, chartTop + chartHeight,
                          chartTop + chartHeight + 14, s);
    os << llvm::formatv("<text class=\"axis\" x=\"{0:F1}\" y=\"{1}\" "
                        "text-anchor=\"middle\">S (tokens per call of @{2})"
                        "</text>\n",
                        left + chartWidth / 2, chartTop + chartHeight + 30,
                        escapeXml(entry));
  }
  void writeSeries(const Series &series) {
    for (const Curve &curve : series.curves) {
      os << "<polyline class=\"" << series.cssClass << "\" points=\"";
      for (const auto &[s, bytes] : curve)
        os << llvm::formatv("{0:F1},{1:F1} ", x(s), y(bytes));
      os << "\"/>\n";
      if (!series.points)
        continue;
      for (const auto &[s, bytes] : curve)
        os << llvm::formatv("<circle class=\"point {0}-point\" cx=\"{1:F1}\" "
                            "cy=\"{2:F1}\" r=\"3.5\" data-s=\"{3}\" data-bytes"
                            "=\"{4}\"><title>S={3}: {5} {4} bytes ({6})"
                            "</title></circle>\n",
                            series.cssClass, x(s), y(bytes), s, bytes,
                            series.label, humanBytes(bytes));
    }
  }
  void writeCuts(llvm::ArrayRef<const ParametricPiece *> pieces) {
    for (size_t i = 0; i + 1 < pieces.size(); ++i) {
      int64_t hi = pieces[i]->plan->hi, lo = pieces[i + 1]->plan->lo;
      double at = (x(hi) + x(lo)) / 2;
      // Labels inside the frame, on three staggered rows: cuts at small S
      // are a few pixels apart.
      os << llvm::formatv("<line class=\"cut\" x1=\"{0:F1}\" y1=\"{1}\" "
                          "x2=\"{0:F1}\" y2=\"{2}\" data-s=\"{3}\"><title>"
                          "a piece ends at S={3}, the next begins at S={5}"
                          "</title></line><text class=\"cut-label\" x=\"{6:F1}"
                          "\" y=\"{4}\">cut {3}|{5}</text>\n",
                          at, chartTop, chartTop + chartHeight, hi,
                          chartTop + 12 + 11 * double(i % 3), lo, at + 3);
    }
  }
  void writeLegend(llvm::ArrayRef<Series> series) {
    double at = left;
    for (const Series &s : series) {
      if (s.curves.empty())
        continue;
      os << llvm::formatv("<text class=\"legend {0}-label\" x=\"{1:F1}\" "
                          "y=\"{2}\">{3}</text>\n",
                          s.cssClass, at, chartTop + chartHeight + 48,
                          s.label);
      at += 8 + 6.5 * double(llvm::StringRef(s.label).size());
    }
    os << "</g>\n"; // the legend closes the chart
  }

private:
  llvm::raw_ostream &os;
  double left;
  int64_t maxS, maxBytes;
};

/// Each piece's heap and planned bytes at every S of its range: the
/// borrowed bytes are each lent output's high-water mark at S, the states
/// those of the entries planned (when they agree).
void addPieces(llvm::ArrayRef<const ParametricPiece *> pieces,
               std::optional<int64_t> stateBytes, Series &heap,
               Series &total) {
  for (const ParametricPiece *piece : pieces) {
    const ParametricPlan &plan = *piece->plan;
    Curve heapCurve, totalCurve;
    for (int64_t s = plan.lo; s <= plan.hi; ++s) {
      int64_t heapBytes = plan.heapAt(s);
      heapCurve.push_back({s, heapBytes});
      if (!stateBytes)
        continue;
      std::vector<int64_t> offsets = plan.offsetsAt(s);
      std::vector<int64_t> top(plan.bins.size(), 0);
      for (size_t i = 0; i < plan.buffers.size(); ++i)
        if (int32_t bin = plan.buffers[i].bin; bin >= 0)
          top[bin] = std::max(top[bin],
                              offsets[i] + plan.buffers[i].size.at(s));
      int64_t lent = 0;
      for (int64_t bytes : top)
        lent += bytes;
      totalCurve.push_back({s, heapBytes + lent + *stateBytes});
    }
    heap.curves.push_back(std::move(heapCurve));
    if (!totalCurve.empty())
      total.curves.push_back(std::move(totalCurve));
  }
}

} // namespace

std::string renderGrowthChart(llvm::ArrayRef<const PlannedEntry *> entries,
                              llvm::ArrayRef<const ParametricPiece *> pieces) {
  Series heap{"heap", "heap", {}, true}, bound{"bound", "lower bound", {}, true};
  Series total{"total", "total", {}, true};
  Series lent{"lent", "borrowed", {}, true};
  Series state{"state", "states", {}, true};
  Series pieceHeap{"piece-heap", "heap(S), parametric", {}, false};
  Series pieceTotal{"piece-total", "total(S), parametric", {}, false};
  Curve heapAt, boundAt, totalAt, lentAt, stateAt;
  std::optional<int64_t> stateBytes;
  bool statesAgree = true;
  for (const PlannedEntry *e : entries) {
    PlannedBytes bytes = plannedBytesOf(*e);
    heapAt.push_back({e->chunk, e->plan.heap});
    boundAt.push_back({e->chunk, e->plan.lowerBound});
    totalAt.push_back({e->chunk, bytes.total});
    lentAt.push_back({e->chunk, bytes.lent});
    stateAt.push_back({e->chunk, bytes.state});
    if (e == entries.front())
      stateBytes = bytes.state;
    else if (stateBytes && *stateBytes != bytes.state)
      statesAgree = false;
  }
  if (!statesAgree)
    stateBytes.reset();
  for (auto [series, curve] :
       {std::pair{&heap, &heapAt}, {&bound, &boundAt}, {&total, &totalAt},
        {&lent, &lentAt}, {&state, &stateAt}})
    if (!curve->empty())
      series->curves.push_back(*curve);
  addPieces(pieces, stateBytes, pieceHeap, pieceTotal);

  int64_t maxS = 1, maxHeap = 1, maxTotal = 1;
  for (const Series *series : {&heap, &bound, &pieceHeap})
    for (const Curve &curve : series->curves)
      for (const auto &[s, bytes] : curve) {
        maxS = std::max(maxS, s);
        maxHeap = std::max(maxHeap, bytes);
      }
  for (const Series *series : {&total, &pieceTotal})
    for (const Curve &curve : series->curves)
      for (const auto &[s, bytes] : curve)
        maxTotal = std::max(maxTotal, bytes);

  std::string svg;
  llvm::raw_string_ostream os(svg);
  double width = 2 * (chartLeft + chartWidth) + chartGap - chartLeft + 20;
  os << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\""
                      "growth\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 "
                      "{0} {1}\">\n",
                      width, chartTop + chartHeight + 60);
  llvm::StringRef name = entries.empty() ? llvm::StringRef(pieces.front()->entry)
                                         : llvm::StringRef(entries.front()->entry);
  Chart left(os, chartLeft, maxS, maxHeap * 21 / 20);
  left.writeFrame("heap against S", name);
  left.writeCuts(pieces);
  for (const Series *series : {&pieceHeap, &bound, &heap})
    left.writeSeries(*series);
  left.writeLegend({heap, bound, pieceHeap});
  Chart right(os, 2 * chartLeft + chartWidth + chartGap - chartLeft, maxS,
              maxTotal * 21 / 20);
  right.writeFrame("planned bytes against S (heap + borrowed + states)",
                   name);
  right.writeCuts(pieces);
  for (const Series *series : {&pieceTotal, &state, &lent, &total})
    right.writeSeries(*series);
  right.writeLegend({total, lent, state, pieceTotal});
  os << "</svg>\n";
  return svg;
}

} // namespace coreai
