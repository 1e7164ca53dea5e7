//===- Effects.h - Which ops have effects beyond their results --*- C++ -*-===//
//
// The one place that says which ops do more than compute their results
// from their operands (docs/LIVENESS.md, "Effects"): ops that write into
// an operand (ATen's in-place `*_` ops and `out=` variants), ops that draw
// random numbers, asserts, and ops the planner does not know. Reordering
// keeps ops with any effect in their relative order; planning refuses
// writes into operands; the replay models them.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_EFFECTS_H
#define COREAI_PLAN_PASSES_EFFECTS_H

#include "coreai-plan/Aten/OpFacts.h"

#include "mlir/IR/Operation.h"

#include "llvm/ADT/SmallVector.h"

namespace coreai {

struct OpEffects {
  /// Operands whose storage the op writes (ATen `add_`, `copy_`,
  /// `index_put_`, `out=`): the operand's value changes under its name.
  llvm::SmallVector<unsigned, 1> mutated;
  /// Draws from a random generator (rand, bernoulli, dropout in training):
  /// two draws swapped give other numbers.
  bool random = false;
  /// Checks something and may stop the program (`_assert_*`).
  bool asserts = false;
  /// An op whose effects the planner does not know: assume any.
  bool unknown = false;
  /// Registered op with declared memory effects (memref writes, calls).
  bool declared = false;

  bool mutates() const { return !mutated.empty(); }
  /// Whether the op must keep its place relative to every other op with
  /// effects.
  bool ordered() const {
    return mutates() || random || asserts || unknown || declared;
  }
};

/// The ATen op facts (lib/Aten) of a `torch.aten.X` op: of its
/// `coreai.overload`, or, for hand-written IR without one (or naming an
/// overload torch does not have, out= names aside), what all of X's
/// overloads share (`writesAgree` / `returnsAgree` false where they
/// differ). Null for other ops and ones the table does not know.
/// The facts live as long as the program (the any-overload ones are
/// merged once per name), so callers keep a pointer, not a copy.
const aten::OpFacts *atenFactsOf(mlir::Operation *op,
                                         bool *writesAgree = nullptr,
                                         bool *returnsAgree = nullptr);

/// The effects of one op (not counting its nested ops: callers walk).
/// Terminators are not classified here: they stay last anyway.
OpEffects effectsOf(mlir::Operation *op);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_EFFECTS_H
