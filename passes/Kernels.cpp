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

SmallVector<Value, 2> kernelInPlaceOperands(ArrayRef<Operation *> ops,
                                            Value result) {
  SmallVector<Value, 2> candidates;
  Operation *definer = result.getDefiningOp();
  if (ops.size() < 2 || !definer || !llvm::is_contained(ops, definer))
    return candidates;
  int64_t elements = elementCount(result.getType());
  if (elements <= 0)
    return candidates;
  llvm::DenseSet<Operation *> inKernel(ops.begin(), ops.end());
  auto isInternal = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def && inKernel.contains(def);
  };
  // Every op elementwise over `elements` elements: element i of each value
  // the kernel computes reads element i of the kernel's own values (only
  // operands from outside, such as a weight, may be broadcast).
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
      return candidates;
    for (Value value : op->getResults())
      if (elementCount(value.getType()) != elements)
        return candidates;
    for (Value operand : op->getOperands())
      if (isInternal(operand) && elementCount(operand.getType()) != elements)
        return candidates;
  }
  // The candidates: operands from outside with the result's exact type,
  // read directly by elementwise ops up to the result's own op.
  llvm::SmallVector<Value, 4> seen;
  bool pastDefiner = false;
  llvm::DenseSet<Value> readLate, readByView;
  for (Operation *op : ops) {
    if (fusionRoleOf(op) == FusionRole::MetadataCheck)
      continue; // reads the type, not the bytes
    for (Value operand : op->getOperands()) {
      if (isInternal(operand))
        continue;
      if (!llvm::is_contained(seen, operand))
        seen.push_back(operand);
      if (pastDefiner)
        readLate.insert(operand);
      if (fusionRoleOf(op) == FusionRole::View)
        readByView.insert(operand);
    }
    if (op == definer)
      pastDefiner = true;
  }
  for (Value operand : seen)
    if (operand.getType() == result.getType() && !readLate.contains(operand) &&
        !readByView.contains(operand))
      candidates.push_back(operand);
  return candidates;
}

} // namespace coreai
