//===- BestFit.cpp - Best-fit decreasing, XLA heap-simulator style --------===//
//
// XLA's GlobalDecreasingSizeBestFitHeap sorts buffers by decreasing size
// (longer live range first on ties) and puts each into the smallest free
// chunk among the buffers live at the same time, growing the heap only when
// no chunk fits. Tight fits keep large gaps open for large buffers later.
//
//===----------------------------------------------------------------------===//
#include "Solvers.h"

namespace coreai::solvers {

Offsets bestFit(const BufferProblem &problem) {
  return placeInOrder(problem, orderBySize(problem), Fit::Tightest);
}

} // namespace coreai::solvers
