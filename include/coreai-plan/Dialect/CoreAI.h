//===- CoreAI.h - The coreai dialect: placements and plans ------*- C++ -*-===//
//
// The contract of the planned IR (CoreAI.td): one placement per planned
// result, one plan summary per function, and the names of every `coreai.*`
// attribute the project reads or writes, spelled once.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_DIALECT_COREAI_H
#define COREAI_PLAN_DIALECT_COREAI_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Operation.h"

#include <optional>

#include "coreai-plan/Dialect/CoreAIDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "coreai-plan/Dialect/CoreAIAttrs.h.inc"

namespace coreai {

/// Names of the attributes the planner writes.
namespace attr {
inline constexpr llvm::StringLiteral placement = "coreai.placement";
inline constexpr llvm::StringLiteral plan = "coreai.plan";
inline constexpr llvm::StringLiteral workspace = "coreai.workspace";
inline constexpr llvm::StringLiteral planTarget = "coreai.plan.target";
inline constexpr llvm::StringLiteral planHeap = "coreai.plan.heap";
inline constexpr llvm::StringLiteral kernel = "coreai.kernel";
inline constexpr llvm::StringLiteral variant = "coreai.variant";
inline constexpr llvm::StringLiteral resultDtypes = "coreai.result_dtypes";
inline constexpr llvm::StringLiteral recompute = "coreai.recompute";
inline constexpr llvm::StringLiteral entry = "coreai.entry";
inline constexpr llvm::StringLiteral seqLen = "coreai.seq_len";
inline constexpr llvm::StringLiteral arena = "coreai.arena";
inline constexpr llvm::StringLiteral scratch = "coreai.scratch";
// The exporter's conventions (the input format; docs/LIVENESS.md).
inline constexpr llvm::StringLiteral args = "coreai.args";
inline constexpr llvm::StringLiteral kind = "coreai.kind";
inline constexpr llvm::StringLiteral name = "coreai.name";
inline constexpr llvm::StringLiteral overload = "coreai.overload";
inline constexpr llvm::StringLiteral node = "coreai.node";
inline constexpr llvm::StringLiteral aliasOf = "coreai.alias_of";
inline constexpr llvm::StringLiteral symShape = "coreai.sym_shape";
inline constexpr llvm::StringLiteral symShapes = "coreai.sym_shapes";
inline constexpr llvm::StringLiteral symRanges = "coreai.sym_ranges";
} // namespace attr

/// Where one result lives, whichever placement attribute says it.
struct Placement {
  enum class Kind { None, Heap, Lent, Output, State, Fused };
  Kind kind = Kind::None;
  int64_t offset = 0;   ///< heap or lent: the first byte
  int64_t size = 0;     ///< heap or lent: the bytes
  int64_t output = -1;  ///< lent or output: the function result's position
  int64_t argument = -1; ///< state: the function argument's position
  int64_t kernel = -1;   ///< fused: the kernel it stays inside
  std::optional<int64_t> inPlaceOperand; ///< heap or lent: overwritten operand
};

/// The placement a `coreai.placement` entry states, or std::nullopt when
/// `attr` is no placement attribute.
std::optional<Placement> placementFrom(mlir::Attribute attr);

/// The placement attribute for `placement`.
mlir::Attribute placementAttr(mlir::MLIRContext *context,
                              const Placement &placement);

/// The placement of result `index` of `op` (Kind::None when the op has no
/// `coreai.placement`). The verifier has checked the attribute's form.
Placement placementOf(mlir::Operation *op, unsigned index);

/// The type the runtime's kernel writes result `index` of `op` in: the
/// result's type, with the element type `coreai.result_dtypes` names where
/// the plan's target says its kernel writes another dtype than the graph
/// (docs/LIVENESS.md); the result's own type when the op has none.
mlir::Type writtenTypeOf(mlir::Operation *op, unsigned index);

/// Bytes of a statically shaped tensor or memref type, or std::nullopt
/// (dynamic, unknown element size, overflow).
std::optional<int64_t> bytesOf(mlir::Type type);

/// Bits of one element (index: 64; complex and vector elements whole), or 0
/// when unknown.
int64_t elementBits(mlir::Type type);

} // namespace coreai

#endif // COREAI_PLAN_DIALECT_COREAI_H
