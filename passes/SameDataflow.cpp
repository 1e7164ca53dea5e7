//===- SameDataflow.cpp - Did planning keep the function's meaning? -------===//
//
// Planning may reorder ops and adds attributes; nothing else. This checks
// that from the two functions alone: every planned op is matched with an
// op of the original of the same name, attributes, regions and operands
// (operands compared through the matching so far, so the match follows
// the dataflow, whatever the order), the same values are returned, and
// the ops with effects keep their relative order.
//
//===----------------------------------------------------------------------===//
#include "Effects.h"
#include "OpClasses.h"
#include "Printing.h"

#include "coreai-plan/Passes/VerifyReplay.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/TypeUtilities.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include "coreai-plan/Dialect/CoreAI.h"

using namespace mlir;

namespace coreai {
namespace {

/// The attributes planning writes on ops (placements, workspaces, and the kernels
/// fusion groups them into: grouping does not change what an op
/// computes); everything else must be as in the original.
bool isPlanAnnotation(StringRef name) {
  return name == attr::placement || name == attr::kernel ||
         name == attr::workspace;
}

SmallVector<NamedAttribute> semanticAttrs(Operation *op) {
  SmallVector<NamedAttribute> kept;
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (!isPlanAnnotation(attr.getName().getValue()))
      kept.push_back(attr);
  return kept;
}

/// A planned type may be a specialisation of the original's (dynamic
/// dimensions bound to a chunk size).
bool sameType(Type planned, Type original) {
  return planned == original ||
         (isa<ShapedType>(planned) && isa<ShapedType>(original) &&
          getElementTypeOrSelf(planned) == getElementTypeOrSelf(original) &&
          succeeded(verifyCompatibleShape(planned, original)));
}

std::string describe(Operation *op) {
  return llvm::formatv("'{0}' at {1}", op->getName(),
                       locationString(op->getLoc()))
      .str();
}

class DataflowMatcher {
public:
  DataflowMatcher(func::FuncOp planned, func::FuncOp original)
      : planned(planned), original(original) {}

  /// The first difference, or std::nullopt.
  std::optional<std::string> run();

private:
  std::optional<std::string> matchSignature();
  std::optional<std::string> matchOp(Operation *op, unsigned position);
  bool equivalent(Operation *plannedOp, Operation *originalOp);
  std::optional<std::string> checkEffectOrder();
  std::optional<std::string> checkMutationSides();
  std::string keyOf(StringRef name, ArrayRef<Value> operands) const {
    std::string key = name.str();
    llvm::raw_string_ostream os(key);
    for (Value operand : operands)
      os << '|' << operand.getAsOpaquePointer();
    return key;
  }

  func::FuncOp planned, original;
  llvm::DenseMap<Value, Value> counterpart; // planned value -> original
  llvm::StringMap<SmallVector<Operation *, 1>> unmatched; // by key
  llvm::DenseMap<Operation *, unsigned> originalPosition;
  /// Original op -> the planned position of its match, and the match.
  llvm::DenseMap<Operation *, unsigned> plannedPosition;
  llvm::DenseMap<Operation *, Operation *> plannedOp;
  /// The planned op matched with `op` of the original, as the messages
  /// name it (the planned graph is what the reader has open).
  std::string describeMatch(Operation *op) {
    return describe(plannedOp.lookup(op) ? plannedOp.lookup(op) : op);
  }
  std::vector<Operation *> originalOps;
};

std::optional<std::string> DataflowMatcher::matchSignature() {
  if (planned.getNumArguments() != original.getNumArguments() ||
      planned.getNumResults() != original.getNumResults())
    return llvm::formatv("it has {0} arguments and {1} results, the original "
                         "{2} and {3}",
                         planned.getNumArguments(), planned.getNumResults(),
                         original.getNumArguments(), original.getNumResults())
        .str();
  // The kinds and names decide what the function may write (a state) and
  // what the runtime binds: planning must not change them, nor the types.
  auto differs = [](llvm::StringRef what, unsigned i, Type plannedType,
                    Type originalType, DictionaryAttr plannedAttrs,
                    DictionaryAttr originalAttrs) -> std::optional<std::string> {
    if (!sameType(plannedType, originalType))
      return llvm::formatv("{0} {1} has another type than the original's",
                           what, i)
          .str();
    if (plannedAttrs != originalAttrs)
      return llvm::formatv("{0} {1} has other attributes than the "
                           "original's (coreai.kind, coreai.name, ...)",
                           what, i)
          .str();
    return std::nullopt;
  };
  for (unsigned i = 0; i < planned.getNumArguments(); ++i) {
    if (auto why = differs("argument", i, planned.getArgument(i).getType(),
                           original.getArgument(i).getType(),
                           planned.getArgAttrDict(i),
                           original.getArgAttrDict(i)))
      return why;
    counterpart[planned.getArgument(i)] = original.getArgument(i);
  }
  for (unsigned i = 0; i < planned.getNumResults(); ++i)
    if (auto why = differs("result", i, planned.getResultTypes()[i],
                           original.getResultTypes()[i],
                           planned.getResultAttrDict(i),
                           original.getResultAttrDict(i)))
      return why;
  return std::nullopt;
}

bool DataflowMatcher::equivalent(Operation *plannedOp, Operation *originalOp) {
  if (plannedOp->getNumResults() != originalOp->getNumResults() ||
      plannedOp->getNumRegions() != originalOp->getNumRegions() ||
      plannedOp->getPropertiesAsAttribute() !=
          originalOp->getPropertiesAsAttribute() ||
      semanticAttrs(plannedOp) != semanticAttrs(originalOp))
    return false;
  for (auto [a, b] :
       llvm::zip(plannedOp->getResultTypes(), originalOp->getResultTypes()))
    if (!sameType(a, b))
      return false;
  if (plannedOp->getNumRegions() == 0)
    return true;
  // Regions: compared op by op on a copy without plan annotations, values
  // from outside through the matching.
  Operation *copy = plannedOp->clone();
  copy->walk([](Operation *nested) {
    for (NamedAttribute attr : llvm::to_vector(nested->getDiscardableAttrs()))
      if (isPlanAnnotation(attr.getName().getValue()))
        nested->removeDiscardableAttr(attr.getName());
  });
  llvm::DenseMap<Value, Value> inside; // block arguments, nested results
  bool same = OperationEquivalence::isEquivalentTo(
      copy, originalOp,
      [&](Value a, Value b) {
        Value expected = inside.lookup(a);
        if (!expected)
          expected = counterpart.lookup(a);
        return success(expected && expected == b);
      },
      [&](Value a, Value b) { inside[a] = b; },
      OperationEquivalence::IgnoreLocations);
  copy->destroy();
  return same;
}

std::optional<std::string> DataflowMatcher::matchOp(Operation *op,
                                                    unsigned position) {
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    auto it = counterpart.find(operand);
    if (it == counterpart.end())
      return llvm::formatv("{0} reads a value that has no counterpart in the "
                           "original",
                           describe(op))
          .str();
    operands.push_back(it->second);
  }
  auto bucket = unmatched.find(keyOf(op->getName().getStringRef(), operands));
  if (bucket != unmatched.end())
    for (auto it = bucket->second.begin(); it != bucket->second.end(); ++it) {
      Operation *candidate = *it;
      if (!equivalent(op, candidate))
        continue;
      for (auto [a, b] :
           llvm::zip(op->getResults(), candidate->getResults()))
        counterpart[a] = b;
      plannedPosition[candidate] = position;
      plannedOp[candidate] = op;
      bucket->second.erase(it);
      return std::nullopt;
    }
  return llvm::formatv("{0} has no counterpart in the original (same op, "
                       "attributes and operands by dataflow)",
                       describe(op))
      .str();
}

/// Ops with effects (any nested op counts) keep their relative order.
std::optional<std::string> DataflowMatcher::checkEffectOrder() {
  Operation *previous = nullptr;
  for (Operation *op : originalOps) {
    bool ordered = false;
    op->walk([&](Operation *nested) {
      ordered |= !nested->hasTrait<OpTrait::IsTerminator>() &&
                 effectsOf(nested).ordered();
    });
    if (!ordered)
      continue;
    if (previous && plannedPosition[previous] > plannedPosition[op])
      return llvm::formatv("{0} and {1} have effects and run in the other "
                           "order than in the original",
                           describeMatch(previous), describeMatch(op))
          .str();
    previous = op;
  }
  return std::nullopt;
}

/// Every op using a value that some op writes in place (through any view
/// of the same storage) stays on its side of that write.
std::optional<std::string> DataflowMatcher::checkMutationSides() {
  llvm::DenseMap<Value, Value> rootOf;
  auto root = [&](Value value) {
    auto it = rootOf.find(value);
    return it == rootOf.end() ? value : it->second;
  };
  llvm::DenseMap<Value, SmallVector<Operation *>> usersOfRoot;
  for (Operation *top : originalOps)
    top->walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        usersOfRoot[root(operand)].push_back(top);
      for (unsigned i = 0; i < op->getNumResults(); ++i) {
        FailureOr<ResultClass> cls = classifyResult(op, i);
        if (succeeded(cls) && cls->kind == ResultKind::View)
          rootOf[op->getResult(i)] = root(cls->source);
      }
    });
  for (Operation *writer : originalOps) {
    OpEffects effects = effectsOf(writer);
    for (unsigned index : effects.mutated)
      for (Operation *user : usersOfRoot[root(writer->getOperand(index))]) {
        if (user == writer)
          continue;
        bool before = originalPosition[user] < originalPosition[writer];
        bool plannedBefore =
            plannedPosition[user] < plannedPosition[writer];
        if (before != plannedBefore)
          return llvm::formatv("{0} moved to the other side of {1}, which "
                               "writes into operand #{2} it uses",
                               describeMatch(user), describeMatch(writer),
                               index)
              .str();
      }
  }
  return std::nullopt;
}

std::optional<std::string> DataflowMatcher::run() {
  if (!planned.getBody().hasOneBlock() || !original.getBody().hasOneBlock())
    return std::string("only single-block functions are compared");
  if (auto difference = matchSignature())
    return difference;
  for (Operation &op : original.getBody().front()) {
    originalPosition[&op] = originalOps.size();
    originalOps.push_back(&op);
    if (op.hasTrait<OpTrait::IsTerminator>())
      continue;
    SmallVector<Value> operands(op.getOperands());
    unmatched[keyOf(op.getName().getStringRef(), operands)].push_back(&op);
  }
  Operation *plannedTerminator = nullptr;
  unsigned position = 0;
  for (Operation &op : planned.getBody().front()) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      plannedTerminator = &op;
      continue;
    }
    if (auto difference = matchOp(&op, position++))
      return difference;
  }
  for (auto &bucket : unmatched)
    if (!bucket.second.empty())
      return llvm::formatv("the original's {0} is missing",
                           describe(bucket.second.front()))
          .str();
  Operation *originalTerminator = &original.getBody().front().back();
  if (!originalTerminator->hasTrait<OpTrait::IsTerminator>())
    originalTerminator = nullptr;
  if (!plannedTerminator && !originalTerminator)
    return checkEffectOrder();
  if (!plannedTerminator || !originalTerminator ||
      plannedTerminator->getName() != originalTerminator->getName() ||
      plannedTerminator->getNumOperands() !=
          originalTerminator->getNumOperands())
    return std::string("it returns other values than the original");
  for (auto [index, returned] :
       llvm::enumerate(plannedTerminator->getOperands()))
    if (counterpart.lookup(returned) != originalTerminator->getOperand(index))
      return llvm::formatv("result {0} is not the value the original "
                           "returns there",
                           index)
          .str();
  plannedPosition[originalTerminator] = position;
  if (auto difference = checkEffectOrder())
    return difference;
  return checkMutationSides();
}

} // namespace

LogicalResult verifySameDataflow(func::FuncOp planned, func::FuncOp original) {
  if (std::optional<std::string> difference =
          DataflowMatcher(planned, original).run())
    return planned.emitError("@")
           << planned.getSymName()
           << " does not compute what the original @"
           << original.getSymName() << " does: " << *difference;
  return success();
}

} // namespace coreai
