//===- BestFit.cpp - Best-fit decreasing, XLA heap-simulator style --------===//
//
// XLA's GlobalDecreasingSizeBestFitHeap sorts buffers by decreasing size
// (longer live range first on ties) and puts each into the smallest free
// chunk among the buffers live at the same time, growing the heap only when
// no chunk fits. Tight fits keep large gaps open for large buffers later.
//
//===----------------------------------------------------------------------===//
#include "Solvers.h"

#include <algorithm>
#include <numeric>

namespace coreai::solvers {

Offsets bestFit(const BufferProblem &problem) {
  std::vector<size_t> order(problem.buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Buffer &x = problem.buffers[a], &y = problem.buffers[b];
    if (paddedSize(x) != paddedSize(y))
      return paddedSize(x) > paddedSize(y);
    return x.end - x.start > y.end - y.start;
  });
  return placeInOrder(problem, order, Fit::Tightest);
}

} // namespace coreai::solvers
