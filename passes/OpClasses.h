//===- OpClasses.h - What liveness needs to know about an op ----*- C++ -*-===//
//
// The op-by-op facts behind docs/LIVENESS.md: which results allocate, which
// alias an operand, which hold no bytes of the heap, how many bytes a type
// takes, and which ops may write their result over an operand. Liveness.cpp
// combines them over a function; nothing here looks past one op.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_OPCLASSES_H
#define COREAI_PLAN_PASSES_OPCLASSES_H

#include "coreai-plan/Dialect/CoreAI.h" // bytesOf, elementBits
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace coreai {

/// How the memory of one op result is provided.
enum class ResultKind {
  Scalar,    ///< Not a tensor or memref (index, i64, !tosa.shape): registers.
  Buffer,    ///< A fresh allocation the planner places in the heap.
  View,      ///< Aliases `source`: lives in the source's root buffer.
  Constant,  ///< Constant data (ConstantLike ops): not in the heap.
  NoStorage, ///< tensor.empty: undefined contents nobody may read.
  Unplanned, ///< A memref the planner does not own (alloca, get_global, ...).
};

struct ResultClass {
  ResultKind kind = ResultKind::Buffer;
  /// For views: the aliased value.
  mlir::Value source;
  /// For views: the view keeps the element order of its source (a pure
  /// reshape), so element i of the view is byte-for-byte element i of it.
  bool keepsLayout = false;
};

/// Classifies result `index` of `op`. Emits an error at the op and fails
/// for results the planner cannot reason about (unranked tensors, opaque
/// types, malformed `coreai.alias_of`).
mlir::FailureOr<ResultClass> classifyResult(mlir::Operation *op,
                                            unsigned index);

/// Bytes of `value`'s statically shaped tensor or memref type (0 for zero
/// elements). Emits an error at `op` naming the value and fails on dynamic
/// dimensions, element types of unknown size, non-identity memref layouts
/// and overflow.
mlir::FailureOr<int64_t> byteSize(mlir::Operation *op, mlir::Value value);

/// Operands of the elementwise `op` whose element i is read only to compute
/// element i of its result 0, with that result's exact type: the result may
/// be written over such an operand's buffer once nothing else reads it.
/// Single-result ops, and inference batch norm (whose other results are
/// empty). Empty for anything else.
llvm::SmallVector<unsigned, 2> inPlaceOperands(mlir::Operation *op);

/// A linalg op on buffers that may write its output into an input's bytes.
struct BufferInPlace {
  unsigned init;                          ///< the output operand
  llvm::SmallVector<unsigned, 2> inputs;  ///< inputs it may overwrite
};

/// For a linalg op with buffer semantics, only parallel loops, one output
/// indexed through a permutation whose old contents the body does not
/// read: the inputs of the output's memref type indexed exactly like it.
/// std::nullopt for anything else.
std::optional<BufferInPlace> inPlaceBufferOperands(mlir::Operation *op);

/// {0} for a softmax or log-softmax (ATen) whose input has the result's
/// type: a kernel that finishes reading a row before writing it may run in
/// place. Empty for anything else.
llvm::SmallVector<unsigned, 2> softmaxInPlaceOperands(mlir::Operation *op);

/// Operands of `op` whose storage its single result may take over when
/// the operand dies there: the in-place operands above, and operand 0 of
/// the ATen ops that return it with some elements replaced (`index_put`,
/// `index_copy`, the `*_scatter` ops), which run in place by writing only
/// the replaced elements.
llvm::SmallVector<unsigned, 2> stateUpdateOperands(mlir::Operation *op);

/// What an op can be in a fused kernel (passes/Fusion.cpp, docs/FUSION.md).
enum class FusionRole {
  None,          ///< never fused: effects, regions, unknown ops, terminators
  View,          ///< every result a view: free, goes where its readers go
  MetadataCheck, ///< `_assert_tensor_metadata`: checks static types only
  Elementwise,   ///< result element i from operand elements at i
  Cast,          ///< an elementwise copy: `_to_copy`, `clone`, `copy`
  LayoutCopy,    ///< a copy that moves elements (channels_last, a transpose
                 ///< einsum): fused like a cast, never elementwise
  Fill,          ///< values from scalars and shapes (`full_like`)
  Reduction,     ///< reduces dimensions (`mean`, `amax`, `any`)
  Normalisation, ///< a row-wise reduction and rescale (`_softmax`, norms)
  Matmul,        ///< `mm`, `bmm`, `addmm`, ...
  Attention,     ///< `scaled_dot_product_attention`
};
FusionRole fusionRoleOf(mlir::Operation *op);

/// Operands that only free memory (memref.dealloc): not uses.
bool onlyFrees(mlir::Operation *op);

/// Whether `op` may hand out its memref operands under another name that
/// is not a view liveness follows: a nested terminator (scf.yield: the
/// region's result is the same memory), arith.select, a call whose callee
/// may return an argument, any other op with a memref result that is
/// neither an allocation nor a view. Liveness keeps such memory out of the
/// heap, since its uses under the new name are not tracked.
bool mayRenameMemRefs(mlir::Operation *op);

/// The allocation or argument `value` is a view of (through view chains).
mlir::Value viewRoot(mlir::Value value);

/// Whether a memref `callee` returns may be (a view of) one of its
/// arguments: only a fresh allocation of its own is known not to be;
/// declarations are unknown.
bool mayReturnArgument(mlir::func::FuncOp callee);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_OPCLASSES_H
