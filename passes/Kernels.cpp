//===- Kernels.cpp - The fused kernels of a function ----------------------===//
#include "Kernels.h"

#include "Effects.h"
#include "OpClasses.h"
#include "Printing.h"

#include "coreai-plan/Dialect/CoreAI.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace coreai {

std::optional<int64_t> kernelOf(Operation *op) {
  if (auto id = op->getAttrOfType<IntegerAttr>(attr::kernel))
    return id.getInt();
  return std::nullopt;
}

unsigned FunctionKernels::stepStart(unsigned position) const {
  int kernel = position < kernelAt.size() ? kernelAt[position] : -1;
  return kernel < 0 ? position : kernels[kernel].first;
}

unsigned FunctionKernels::stepEnd(unsigned position) const {
  int kernel = position < kernelAt.size() ? kernelAt[position] : -1;
  return kernel < 0 ? position : kernels[kernel].last;
}

FailureOr<FunctionKernels> readKernels(func::FuncOp func) {
  FunctionKernels out;
  if (func.isDeclaration())
    return out;
  llvm::DenseMap<int64_t, unsigned> indexOf; // id -> index in kernels
  std::vector<Operation *> firstOp;           // per kernel
  unsigned position = 0;
  std::optional<int64_t> previous;
  for (Operation &op : func.getBody().front()) {
    std::optional<int64_t> id = kernelOf(&op);
    out.kernelAt.push_back(-1);
    if (id) {
      if (op.getNumRegions() > 0 || op.hasTrait<OpTrait::IsTerminator>())
        return op.emitError("'coreai.kernel' ")
               << *id << ": an op with regions or a terminator cannot be "
                  "part of a fused kernel";
      OpEffects effects = effectsOf(&op);
      if (effects.ordered() && fusionRoleOf(&op) != FusionRole::MetadataCheck)
        return op.emitError("'coreai.kernel' ")
               << *id << ": '" << op.getName()
               << "' has effects (it writes, draws random numbers, checks "
                  "or is unknown); a kernel never holds an op with effects";
      auto [it, fresh] = indexOf.try_emplace(*id, out.kernels.size());
      if (fresh) {
        out.kernels.push_back({*id, position, position});
        firstOp.push_back(&op);
      } else if (previous != id) {
        return op.emitError("'coreai.kernel' ")
               << *id << ": the kernel's ops are not contiguous (its first "
               << "op is at " << locationString(firstOp[it->second]->getLoc())
               << ", other ops come between): a kernel is one step";
      }
      out.kernels[it->second].last = position;
      out.kernelAt.back() = it->second;
    }
    previous = id;
    ++position;
  }
  return out;
}

std::vector<llvm::SmallVector<Operation *, 4>>
kernelOps(func::FuncOp func, const FunctionKernels &kernels) {
  std::vector<llvm::SmallVector<Operation *, 4>> ops(kernels.kernels.size());
  unsigned position = 0;
  for (Operation &op : func.getBody().front()) {
    if (position < kernels.kernelAt.size() && kernels.kernelAt[position] >= 0)
      ops[kernels.kernelAt[position]].push_back(&op);
    ++position;
  }
  return ops;
}

namespace {

int64_t elementCount(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return -1;
  return shaped.getNumElements();
}

} // namespace

KernelInPlaceRule::KernelInPlaceRule(ArrayRef<Operation *> ops)
    : ops(ops.begin(), ops.end()), inKernel(ops.begin(), ops.end()) {
  if (ops.size() < 2)
    return;
  auto isInternal = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def && inKernel.contains(def);
  };
  // Every op elementwise over one count of elements: element i of each
  // value the kernel computes reads element i of the kernel's own values
  // (only operands from outside, such as a weight, may be broadcast).
  std::optional<int64_t> count;
  auto same = [&](Value value) {
    int64_t n = elementCount(value.getType());
    if (!count)
      count = n;
    return n == *count;
  };
  for (Operation *op : ops) {
    FusionRole role = fusionRoleOf(op);
    if (role == FusionRole::MetadataCheck)
      continue;
    bool elementwise = role == FusionRole::Elementwise ||
                       role == FusionRole::Cast || role == FusionRole::Fill;
    if (role == FusionRole::View) {
      FailureOr<ResultClass> cls = classifyResult(op, 0);
      elementwise = succeeded(cls) && cls->keepsLayout;
    }
    if (!elementwise)
      return;
    for (Value value : op->getResults())
      if (!same(value))
        return;
    for (Value operand : op->getOperands())
      if (isInternal(operand) && !same(operand))
        return;
  }
  if (!count || *count <= 0)
    return;
  elements = *count;
  // The operands from outside, in the order first read, with the last op
  // reading each directly and whether a view reads it.
  unsigned position = 0;
  for (Operation *op : ops) {
    ++position;
    if (fusionRoleOf(op) == FusionRole::MetadataCheck)
      continue; // reads the type, not the bytes
    for (Value operand : op->getOperands()) {
      if (isInternal(operand))
        continue;
      auto [it, fresh] = external.try_emplace(operand, Read{position, false});
      if (fresh)
        readOrder.push_back(operand);
      it->second.last = position;
      it->second.byView |= fusionRoleOf(op) == FusionRole::View;
    }
  }
}

SmallVector<Value, 2> KernelInPlaceRule::operandsFor(Value result) const {
  SmallVector<Value, 2> candidates;
  Operation *definer = result.getDefiningOp();
  if (!elements || !definer || !inKernel.contains(definer) ||
      elementCount(result.getType()) != *elements)
    return candidates;
  // Read directly by ops up to the result's own op, with its exact type.
  unsigned definedAt = unsigned(llvm::find(ops, definer) - ops.begin()) + 1;
  for (Value operand : readOrder) {
    const Read &read = external.find(operand)->second;
    if (operand.getType() == result.getType() && read.last <= definedAt &&
        !read.byView)
      candidates.push_back(operand);
  }
  return candidates;
}

SmallVector<Value, 2> kernelInPlaceOperands(ArrayRef<Operation *> ops,
                                            Value result) {
  return KernelInPlaceRule(ops).operandsFor(result);
}

} // namespace coreai
