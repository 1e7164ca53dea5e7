//===- Kernels.cpp - The fused kernels of a function ----------------------===//
#include "Kernels.h"

#include "Effects.h"
#include "ElementAccess.h"
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

/// Whether `op` computes element i of what it writes from element i of
/// the kernel's values only: an elementwise op or copy, a fill, a view
/// that keeps the element order (ElementAccess.h, OpClasses.h).
static bool elementwiseInKernel(Operation *op, FusionRole role) {
  if (role == FusionRole::View) {
    FailureOr<ResultClass> cls = classifyResult(op, 0);
    return succeeded(cls) && cls->keepsLayout;
  }
  return role == FusionRole::Fill ||
         ((role == FusionRole::Elementwise || role == FusionRole::Cast) &&
          elementAccessOf(op) == ElementAccess::Elementwise);
}

KernelInPlaceRule::KernelInPlaceRule(ArrayRef<Operation *> ops,
                                     bool runsInIrOrder)
    : ops(ops.begin(), ops.end()), inKernel(ops.begin(), ops.end()),
      runsInIrOrder(runsInIrOrder) {
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
    if (!elementwiseInKernel(op, role))
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
  // The operands from outside, in the order first read, with the ops
  // reading each and whether one reads it other than at the result's own
  // index (a view, a broadcast einsum term).
  for (Operation *op : ops) {
    if (fusionRoleOf(op) == FusionRole::MetadataCheck)
      continue; // reads the type, not the bytes
    bool view = fusionRoleOf(op) == FusionRole::View;
    for (OpOperand &use : op->getOpOperands()) {
      Value operand = use.get();
      if (isInternal(operand))
        continue;
      auto [it, fresh] = external.try_emplace(operand);
      if (fresh)
        readOrder.push_back(operand);
      it->second.readers.push_back(op);
      it->second.notAtIndex |=
          view || !readsAtResultIndex(op, use.getOperandNumber());
    }
  }
}

/// The kernel's ops `definer` depends on, itself included.
llvm::DenseSet<Operation *>
KernelInPlaceRule::ancestors(Operation *definer) const {
  llvm::DenseSet<Operation *> reached{definer};
  llvm::SmallVector<Operation *, 8> work{definer};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp();
          def && inKernel.contains(def) && reached.insert(def).second)
        work.push_back(def);
  }
  return reached;
}

SmallVector<Value, 2> KernelInPlaceRule::operandsFor(Value result) const {
  SmallVector<Value, 2> candidates;
  Operation *definer = result.getDefiningOp();
  if (!elements || !definer || !inKernel.contains(definer) ||
      elementCount(result.getType()) != *elements)
    return candidates;
  // Every op reading the operand must have read it before the result is
  // written: in IR order, where the target runs a kernel's ops so; else in
  // every order the data allows, so each reader is one the result's op
  // depends on (docs/FUSION.md, "The order of a kernel's ops").
  unsigned definedAt = unsigned(llvm::find(ops, definer) - ops.begin());
  llvm::DenseSet<Operation *> before;
  if (runsInIrOrder)
    before.insert(ops.begin(), ops.begin() + definedAt + 1);
  else
    before = ancestors(definer);
  for (Value operand : readOrder) {
    const Read &read = external.find(operand)->second;
    if (operand.getType() == result.getType() && !read.notAtIndex &&
        llvm::all_of(read.readers,
                     [&](Operation *reader) { return before.contains(reader); }))
      candidates.push_back(operand);
  }
  return candidates;
}

SmallVector<Value, 2> kernelInPlaceOperands(ArrayRef<Operation *> ops,
                                            Value result, bool runsInIrOrder) {
  return KernelInPlaceRule(ops, runsInIrOrder).operandsFor(result);
}

} // namespace coreai
