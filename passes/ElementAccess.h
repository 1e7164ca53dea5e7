//===- ElementAccess.h - Which operand elements an op's result reads -*- C++ -*-===//
//
// The one judgement behind the planner's in-place rules (an op's, a fused
// kernel's, an output's, a state's) and the fusion roles of copies: does
// element i of the result read element i of an operand, from what the op
// computes and the call's arguments (a copy's memory format, an einsum's
// equation), as the ATen op facts say (lib/Aten/AtenOpFactsManual.def:
// `elementwise`, `elementwise_if`, `elementwise_by_equation`, `copy`).
// The replay does not ask this: it keeps its own list (ReplayInPlace.h).
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_ELEMENTACCESS_H
#define COREAI_PLAN_PASSES_ELEMENTACCESS_H

#include "mlir/IR/Operation.h"

namespace coreai {

enum class ElementAccess {
  Unknown,     ///< the facts cannot decide: never in place
  Elementwise, ///< result element i reads operand elements at i (or broadcast)
  Moves,       ///< puts elements elsewhere: a channels_last copy, a transpose
  Contracts,   ///< sums over operand elements (an einsum product)
};

/// How result 0 of `op` reads its operands. MLIR ops with the Elementwise
/// trait (arith, math) and TOSA's elementwise operators are elementwise;
/// ATen ops as their facts and arguments say; anything else is Unknown.
ElementAccess elementAccessOf(mlir::Operation *op);

/// For an elementwise `op`: whether result element i reads element i of
/// operand `operand` (false where it is broadcast, or for an einsum term
/// with other subscripts than the result's).
bool readsAtResultIndex(mlir::Operation *op, unsigned operand);

/// Whether the ATen call's arguments are all ones whose meaning the op
/// classes know (tensors, scalars, dtypes, the keywords of elementwise
/// ops): false for a list, a device or an unknown keyword; true when the
/// op has no `coreai.args` (hand-written IR: scalars only).
bool atenArgumentsPlain(mlir::Operation *op);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_ELEMENTACCESS_H
