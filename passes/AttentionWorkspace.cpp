//===- AttentionWorkspace.cpp - The workspace of an attention kernel ------===//
//
// A runtime that runs fusion's attention kernel (two products with a
// softmax between them, docs/FUSION.md) as one library call
// (scaled_dot_product_attention) takes the scratch of that call, not of
// the ops it replaces. The target's class `attention_kernel` rule gives it,
// evaluated on the kernel as the call sees it: q, k and v as the kernel
// reads them from outside (through its own views and copies, such as the
// `expand` and `clone` that repeat GQA's KV heads: the call reads the
// cache's KV heads), the mask where the kernel computes it itself (the
// call reads a mask from memory, so the runtime materialises it), and the
// second product's result.
//
//===----------------------------------------------------------------------===//
#include "Workspace.h"

#include "OpClasses.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace coreai {
namespace {

/// The value `value` is read from outside `ops`: followed back through the
/// first operand of views (free, wherever they are: a view goes where its
/// readers go, docs/FUSION.md) and of the kernel's own copies and casts.
Value readFromOutside(Value value, ArrayRef<Operation *> ops) {
  while (Operation *def = value.getDefiningOp()) {
    if (def->getNumOperands() == 0)
      break;
    FusionRole role = fusionRoleOf(def);
    bool copyInside = (role == FusionRole::Cast ||
                       role == FusionRole::LayoutCopy) &&
                      llvm::is_contained(ops, def);
    if (role != FusionRole::View && !copyInside)
      break;
    value = def->getOperand(0);
  }
  return value;
}

/// The mask the scores are added to between the first product and the
/// softmax, as the kernel computes it where it computes it itself (a chain
/// recomputed into the kernel): a call that reads its mask from memory
/// needs it materialised first. An empty tensor where the kernel reads
/// its mask from outside or adds none.
WorkspaceTensor maskComputedInside(ArrayRef<Operation *> ops,
                                   Operation *first, Operation *softmax) {
  llvm::SmallPtrSet<Value, 8> fromScores;
  fromScores.insert(first->getResult(0));
  WorkspaceTensor none;
  none.shape = {0};
  none.elementSize = 1;
  auto at = llvm::find(ops, first);
  for (auto it = std::next(at); it != ops.end() && *it != softmax; ++it) {
    Operation *op = *it;
    if (!llvm::any_of(op->getOperands(),
                      [&](Value v) { return fromScores.contains(v); }))
      continue;
    for (Value result : op->getResults())
      fromScores.insert(result);
    if (fusionRoleOf(op) != FusionRole::Elementwise)
      continue;
    for (Value operand : op->getOperands()) {
      auto shaped = dyn_cast<ShapedType>(operand.getType());
      if (fromScores.contains(operand) || !shaped || shaped.getRank() < 2)
        continue;
      Operation *source = readFromOutside(operand, ops).getDefiningOp();
      if (source && llvm::is_contained(ops, source))
        return tensorOf(operand.getType()).value_or(none);
    }
  }
  return none;
}

} // namespace

std::optional<WorkspaceOp> attentionKernelOf(ArrayRef<Operation *> ops) {
  if (ops.size() < 3)
    return std::nullopt;
  auto isProduct = [](Operation *op) {
    return fusionRoleOf(op) == FusionRole::Matmul && op->getNumOperands() >= 2 &&
           op->getNumResults() == 1;
  };
  auto softmax = llvm::find_if(ops, [](Operation *op) {
    return fusionRoleOf(op) == FusionRole::Normalisation;
  });
  if (softmax == ops.end())
    return std::nullopt;
  auto first = std::find_if(ops.begin(), softmax, isProduct);
  auto second = std::find_if(softmax, ops.end(), isProduct);
  if (first == softmax || second == ops.end())
    return std::nullopt;
  WorkspaceOp op;
  op.name = "attention kernel";
  for (Value value : {(*first)->getOperand(0), (*first)->getOperand(1),
                      (*second)->getOperand(1)}) {
    std::optional<WorkspaceTensor> tensor =
        tensorOf(readFromOutside(value, ops).getType());
    if (!tensor)
      return std::nullopt;
    op.operands.push_back(*tensor);
  }
  op.operands.push_back(maskComputedInside(ops, *first, *softmax));
  std::optional<WorkspaceTensor> result =
      tensorOf((*second)->getResult(0).getType());
  if (!result)
    return std::nullopt;
  op.results.push_back(*result);
  return op;
}

FailureOr<int64_t> attentionKernelWorkspace(ArrayRef<Operation *> ops,
                                            const WorkspaceRules &rules,
                                            int64_t *alignment) {
  const WorkspaceRule *rule = rules.find("", "", "attention_kernel");
  if (!rule || !rule->op.empty())
    return 0;
  std::optional<WorkspaceOp> kernel = attentionKernelOf(ops);
  if (!kernel)
    return 0;
  kernel->splitK = rules.splitK;
  // The least workspace of the rule's variants: the runtime's choice of
  // backend is the target's to state (docs/WORKSPACE.md).
  std::optional<int64_t> least;
  for (const WorkspaceVariant &variant : rule->variants) {
    llvm::Expected<int64_t> bytes = evaluate(variant.bytes, *kernel);
    if (!bytes)
      return ops.back()->emitError("workspace rule '")
             << variant.bytesText << "' (class attention, on the attention "
             << "kernel ending here) cannot be evaluated: "
             << llvm::toString(bytes.takeError());
    if (*bytes < 0)
      return ops.back()->emitError("workspace rule '")
             << variant.bytesText << "' gives " << *bytes << " bytes";
    least = least ? std::min(*least, *bytes) : *bytes;
  }
  if (alignment)
    *alignment = std::max<int64_t>(*alignment, rule->alignment);
  return least.value_or(0);
}

} // namespace coreai
