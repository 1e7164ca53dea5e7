//===- AtenOps.h - What the importer knows about each ATen op ---*- C++ -*-===//
#ifndef COREAI_PLAN_LIB_IMPORT_ATENOPS_H
#define COREAI_PLAN_LIB_IMPORT_ATENOPS_H

#include "coreai-plan/Aten/OpFacts.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace coreai::import {

enum class OpRole {
  /// Fresh results; reads its operands only.
  Functional,
  /// Fresh results by its schema, but implemented by a decomposition or
  /// known to return an operand itself at times (`dropout` in eval,
  /// `type_as`, CompositeImplicitAutograd ops): imported as functional,
  /// and a later write into a result is refused (it may reach an operand).
  MaybeShared,
  /// Results alias operand 0 (schema `Tensor(a) self -> Tensor(a)`).
  View,
  /// Returns `self` itself when no conversion is needed (`to`, `reshape`,
  /// `contiguous`, ...): the importer decides per node from the metadata.
  MayAlias,
  /// Mutates operand 0 (`add_`, `copy_`, `index_copy_`): imported as the
  /// functional twin named in `functional` / `functionalOverload`.
  InPlace,
  /// `detach_`: mutates only autograd metadata; its result is `self`.
  DetachInPlace,
  /// No result; reads its operands (`_assert_tensor_metadata`).
  Check,
};

struct AtenOp {
  OpRole role;
  std::string functional;         ///< for InPlace: the functional op's name
  std::string functionalOverload; ///< and its overload
  /// Writes operands its schema does not annotate unless this argument is
  /// literally the given value (batch norm's `training`): the importer
  /// checks the node.
  std::optional<coreai::aten::ArgumentCondition> writesUnless;
};

/// What the op `aten::<name>.<overload>` does to memory, from the ATen op
/// facts (lib/Aten), or std::nullopt when the importer cannot import it:
/// an op the table does not know (it could alias or mutate its operands),
/// out= variants, in-place ops without a functional twin, writes into
/// arguments other than `self`.
std::optional<AtenOp> classifyAtenOp(llvm::StringRef name,
                                     llvm::StringRef overload);

/// True for views whose element i is element i of their source (reshapes):
/// a write through one is a write of the same elements of the source.
bool isLayoutKeepingView(llvm::StringRef name, llvm::StringRef overload);

/// Whether a tensor of `sizes` and `strides` can be viewed with `newSizes`
/// without a copy: torch's rule for `reshape` (ATen's `computeStride`).
bool viewStridesExist(llvm::ArrayRef<int64_t> sizes,
                      llvm::ArrayRef<int64_t> strides,
                      llvm::ArrayRef<int64_t> newSizes);

} // namespace coreai::import

#endif // COREAI_PLAN_LIB_IMPORT_ATENOPS_H
