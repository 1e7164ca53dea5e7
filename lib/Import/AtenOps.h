//===- AtenOps.h - What the importer knows about each ATen op ---*- C++ -*-===//
#ifndef COREAI_PLAN_LIB_IMPORT_ATENOPS_H
#define COREAI_PLAN_LIB_IMPORT_ATENOPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace coreai::import {

enum class OpRole {
  /// Fresh results; reads its operands only.
  Functional,
  /// Results alias operand 0 (schema `Tensor(a) self -> Tensor(a)`).
  View,
  /// Returns `self` itself when no conversion is needed (`to`, `reshape`,
  /// `contiguous`, ...): the importer decides per node from the metadata.
  MayAlias,
  /// Mutates operand 0 (`add_`, `copy_`, `index_copy_`): imported as the
  /// functional op named in `functional`.
  InPlace,
  /// `detach_`: mutates only autograd metadata; its result is `self`.
  DetachInPlace,
  /// No result; reads its operands (`_assert_tensor_metadata`).
  Check,
};

struct AtenOp {
  OpRole role;
  std::string functional; ///< for InPlace: the functional op's name
};

/// What the op `aten::<name>.<overload>` does to memory, or std::nullopt
/// when the importer does not know it (then it refuses the graph: an
/// unknown op could alias or mutate its operands).
std::optional<AtenOp> classifyAtenOp(llvm::StringRef name,
                                     llvm::StringRef overload);

/// True for views whose element i is element i of their source (reshapes):
/// a write through one is a write of the same elements of the source.
bool isLayoutKeepingView(llvm::StringRef name);

/// Whether a tensor of `sizes` and `strides` can be viewed with `newSizes`
/// without a copy: torch's rule for `reshape` (ATen's `computeStride`).
bool viewStridesExist(llvm::ArrayRef<int64_t> sizes,
                      llvm::ArrayRef<int64_t> strides,
                      llvm::ArrayRef<int64_t> newSizes);

} // namespace coreai::import

#endif // COREAI_PLAN_LIB_IMPORT_ATENOPS_H
