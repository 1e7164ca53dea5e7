//===- SameDataflow.cpp - Did planning keep the function's meaning? -------===//
//
// Planning may reorder ops and adds attributes; nothing else. This checks
// that from the two functions alone: every planned op is matched with an
// op of the original of the same name, attributes, regions and operands
// (operands compared through the matching so far, so the match follows
// the dataflow, whatever the order), the same values are returned, and
// the ops with effects keep their relative order. Identical ops without
// effects compute one value, so they are interchangeable: a plan may run
// either first (issue 41).
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
#include "llvm/ADT/DenseSet.h"
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
         name == attr::workspace || name == attr::variant ||
         name == attr::recompute || name == attr::resultDtypes;
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

/// The effects of a top-level op and the ops nested in it, as the checks
/// need them.
struct EffectsSummary {
  bool ordered = false; ///< it keeps its place among the ops with effects
  bool writes = false;  ///< it writes into an operand
};

EffectsSummary summariseEffects(Operation *op) {
  EffectsSummary summary;
  op->walk([&](Operation *nested) {
    if (nested->hasTrait<OpTrait::IsTerminator>())
      return;
    OpEffects effects = effectsOf(nested);
    summary.ordered |= effects.ordered();
    summary.writes |= effects.mutates();
  });
  return summary;
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
  void addOriginalOp(Operation *op, bool valuesAreImmutable);
  std::optional<std::string> matchOp(Operation *op, unsigned position);
  bool sameComputation(Operation *op, Operation *originalOp,
                       llvm::function_ref<Value(Value)> originalOf);
  bool equivalent(Operation *plannedOp, Operation *originalOp) {
    return sameComputation(plannedOp, originalOp, [&](Value value) {
      return counterpart.lookup(value);
    });
  }
  /// The first of the original values equal to `value` (results of
  /// identical ops without effects), `value` where none is earlier.
  Value classOf(Value value) const {
    auto it = firstOfClass.find(value);
    return it == firstOfClass.end() ? value : it->second;
  }
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
  llvm::DenseMap<Value, Value> firstOfClass; // original -> first equal one
  /// The first original op of each class of identical ops, by name,
  /// operand classes, attributes and result types.
  llvm::StringMap<SmallVector<Operation *, 1>> firstOfKind;
  llvm::StringMap<SmallVector<Operation *, 1>> unmatched; // by key
  /// Original ops already matched, by key: a recomputed op (`coreai.recompute`,
  /// Recompute.h) repeats one of them.
  llvm::StringMap<SmallVector<Operation *, 1>> matched;
  /// Original ops a recomputed op repeats: the plan may compute them only
  /// where they are read (Recompute.h erases the original chain).
  llvm::DenseSet<Operation *> repeatedByClone;
  /// No op of the original writes into an operand: a value is one content
  /// for its whole life, so an op computing it again computes the same.
  bool valuesAreImmutable = true;
  llvm::DenseMap<Operation *, unsigned> originalPosition;
  llvm::DenseSet<Operation *> orderedOps; // original ops with effects
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

/// Whether `op` computes what `originalOp` does, given the original value
/// each value from outside `op` stands for (`originalOf`; null where there
/// is none). Operands of `op` itself are compared by the caller's key,
/// except in regions.
bool DataflowMatcher::sameComputation(
    Operation *op, Operation *originalOp,
    llvm::function_ref<Value(Value)> originalOf) {
  if (op->getNumResults() != originalOp->getNumResults() ||
      op->getNumRegions() != originalOp->getNumRegions() ||
      op->getPropertiesAsAttribute() !=
          originalOp->getPropertiesAsAttribute() ||
      semanticAttrs(op) != semanticAttrs(originalOp))
    return false;
  for (auto [a, b] :
       llvm::zip(op->getResultTypes(), originalOp->getResultTypes()))
    if (!sameType(a, b))
      return false;
  if (op->getNumRegions() == 0)
    return true;
  // Regions: compared op by op on a copy without plan annotations, values
  // from outside through `originalOf`.
  Operation *copy = op->clone();
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
          expected = originalOf(a);
        return success(expected && classOf(expected) == classOf(b));
      },
      [&](Value a, Value b) { inside[a] = b; },
      OperationEquivalence::IgnoreLocations);
  copy->destroy();
  return same;
}

/// Files an original op for matching. Where no op writes into an operand,
/// a value is one content for its whole life, so an op without effects
/// identical to an earlier one (same name, attributes, regions and
/// operands up to equal values) computes the same values: its results join
/// that op's classes, and a planned op may match either. With a write,
/// one name holds two contents, and identical ops on either side of it
/// differ.
void DataflowMatcher::addOriginalOp(Operation *op, bool valuesAreImmutable) {
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(classOf(operand));
  std::string key = keyOf(op->getName().getStringRef(), operands);
  unmatched[key].push_back(op);
  if (!valuesAreImmutable || orderedOps.contains(op))
    return;
  std::string kind = key;
  llvm::raw_string_ostream os(kind);
  os << '|'
     << DictionaryAttr::get(op->getContext(), semanticAttrs(op))
            .getAsOpaquePointer();
  for (Type type : op->getResultTypes())
    os << '|' << type.getAsOpaquePointer();
  SmallVector<Operation *, 1> &firsts = firstOfKind[kind];
  for (Operation *first : firsts)
    if (sameComputation(op, first, [](Value value) { return value; })) {
      for (auto [result, firstResult] :
           llvm::zip(op->getResults(), first->getResults()))
        firstOfClass[result] = firstResult;
      return;
    }
  firsts.push_back(op);
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
    operands.push_back(classOf(it->second));
  }
  std::string key = keyOf(op->getName().getStringRef(), operands);
  // A recomputed op (Recompute.h) repeats an original op without effects,
  // matched or not: it leaves that op to the planned op that computes it
  // first.
  if (op->hasAttr(attr::recompute) && valuesAreImmutable)
    for (auto *ops : {&unmatched, &matched}) {
      auto found = ops->find(key);
      if (found == ops->end())
        continue;
      for (Operation *candidate : found->second)
        if (!orderedOps.contains(candidate) && equivalent(op, candidate)) {
          for (auto [a, b] :
               llvm::zip(op->getResults(), candidate->getResults()))
            counterpart[a] = b;
          repeatedByClone.insert(candidate);
          return std::nullopt;
        }
    }
  // Identical ops are filed in the original's order, so the first left is
  // matched: ops with effects pair up in order, which checkEffectOrder
  // then holds the plan to.
  auto bucket = unmatched.find(key);
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
      matched[bucket->first()].push_back(candidate);
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
    if (!orderedOps.contains(op))
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
    EffectsSummary effects = summariseEffects(&op);
    if (effects.ordered)
      orderedOps.insert(&op);
    valuesAreImmutable &= !effects.writes;
  }
  for (Operation *op : originalOps)
    if (!op->hasTrait<OpTrait::IsTerminator>())
      addOriginalOp(op, valuesAreImmutable);
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
    for (Operation *op : bucket.second)
      if (!repeatedByClone.contains(op))
        return llvm::formatv("the original's {0} is missing", describe(op))
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
    if (classOf(counterpart.lookup(returned)) !=
        classOf(originalTerminator->getOperand(index)))
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
