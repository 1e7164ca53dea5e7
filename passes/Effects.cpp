//===- Effects.cpp - Which ops have effects beyond their results ----------===//
#include "Effects.h"

#include "AtenArgs.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <mutex>

#include "coreai-plan/Aten/OpFacts.h"

using namespace mlir;

namespace coreai {
namespace {

using aten::ArgumentRef;
using aten::OpFacts;

/// Operands the tensors of the call's arguments are, in order: positional
/// ones first, then keywords as written (`coreai.args`, AtenArgs.h).
unsigned tensorsIn(llvm::StringRef value) { return llvm::count(value, 'T'); }

/// The operands argument `argument` gives in this call: from the call's
/// arguments when the op has them, else its fixed place in the schema;
/// std::nullopt when neither tells.
std::optional<std::pair<unsigned, unsigned>>
operandsOf(const ArgumentRef &argument, const std::optional<AtenArgs> &args,
           unsigned operands) {
  if (args) {
    unsigned first = 0;
    if (!argument.keywordOnly && argument.position < args->positional.size()) {
      for (unsigned i = 0; i < argument.position; ++i)
        first += tensorsIn(args->positional[i]);
      return std::pair(first, tensorsIn(args->positional[argument.position]));
    }
    for (const std::string &value : args->positional)
      first += tensorsIn(value);
    for (const auto &[key, value] : args->keywords) {
      if (key == argument.name)
        return std::pair(first, tensorsIn(value));
      first += tensorsIn(value);
    }
    return std::pair(0u, 0u); // not given: a defaulted optional tensor
  }
  if (!argument.operand)
    return std::nullopt;
  int index = *argument.operand < 0 ? int(operands) + *argument.operand
                                    : *argument.operand;
  if (index < 0 || index >= int(operands))
    return std::nullopt;
  return std::pair(unsigned(index), 1u);
}

void markAllOperandsMutated(Operation *op, OpEffects &effects) {
  effects.mutated.clear();
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    effects.mutated.push_back(i);
  if (effects.mutated.empty())
    effects.unknown = true;
}

/// The operands the op writes (its schema's `Tensor(a!)` arguments); where
/// the call does not say which operands those are, all of them.
void addWrites(Operation *op, llvm::ArrayRef<ArgumentRef> written,
               const std::optional<AtenArgs> &args, OpEffects &effects) {
  for (const ArgumentRef &argument : written) {
    auto operands = operandsOf(argument, args, op->getNumOperands());
    if (!operands || operands->first + operands->second > op->getNumOperands())
      return markAllOperandsMutated(op, effects);
    for (unsigned i = 0; i < operands->second; ++i)
      effects.mutated.push_back(operands->first + i);
  }
  llvm::sort(effects.mutated);
  effects.mutated.erase(llvm::unique(effects.mutated), effects.mutated.end());
}

/// Whether the conditional effect is off in this call: only when the
/// call's arguments can be read and say so.
bool conditionHolds(const std::optional<aten::ArgumentCondition> &condition,
                    const std::optional<AtenArgs> &args, bool present) {
  if (!condition)
    return false;
  if (!args)
    return !present && condition->absentSatisfies;
  return condition->satisfiedBy(conditionArgument(*condition, *args));
}

/// `torch.aten.X` ops from the ATen op facts (lib/Aten): writes from the
/// schemas' `(a!)` annotations and the manual list's conditional ones,
/// randomness, asserts; an op the table does not know has unknown effects.
void classifyAten(Operation *op, OpEffects &effects) {
  bool agreed = true;
  const OpFacts *facts = atenFactsOf(op, &agreed);
  if (!facts) {
    effects.unknown = true;
    return;
  }
  bool present = false;
  std::optional<AtenArgs> args = atenArgsOf(op, &present);
  if (!agreed)
    markAllOperandsMutated(op, effects);
  addWrites(op, facts->mutated, args, effects);
  if (facts->writesUnless &&
      !conditionHolds(facts->writesUnless, args, present))
    markAllOperandsMutated(op, effects);
  if (effects.mutates() || effects.unknown)
    return;
  if (facts->asserts) {
    effects.asserts = true;
    return;
  }
  if (facts->random && !conditionHolds(facts->randomUnless, args, present)) {
    effects.random = true;
    return;
  }
  // Arguments we cannot read, or no result: nothing to compute from them.
  if ((present && !args) || op->getNumResults() == 0)
    effects.unknown = true;
}

} // namespace

/// torch's naming of out= overloads (`out`, `Tensor_out`, `out_int`).
static bool mayBeOutVariant(StringRef overload) {
  return overload == "out" || overload.ends_with("_out") ||
         overload.starts_with("out_");
}

/// lookupAnyOverload, merged once per name the table knows (so bounded by
/// the table) and kept for the program's life.
static const aten::AnyOverloadFacts *anyOverloadFacts(StringRef name) {
  static std::mutex mutex;
  static llvm::StringMap<std::unique_ptr<aten::AnyOverloadFacts>> merged;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = merged.find(name);
  if (found != merged.end())
    return found->second.get();
  std::optional<aten::AnyOverloadFacts> any = aten::lookupAnyOverload(name);
  if (!any)
    return nullptr;
  auto &slot = merged[name];
  slot = std::make_unique<aten::AnyOverloadFacts>(std::move(*any));
  return slot.get();
}

const aten::OpFacts *atenFactsOf(Operation *op, bool *writesAgree,
                                 bool *returnsAgree) {
  StringRef name = op->getName().getStringRef();
  if (!name.consume_front("torch.aten."))
    return nullptr;
  if (auto overload = op->getAttrOfType<StringAttr>("coreai.overload")) {
    if (const OpFacts *facts = aten::lookup(name, overload.getValue()))
      return facts;
    // An overload no torch names (hand-written IR says `add.default`) is
    // read like a missing one, but an out= variant's name never is: its
    // writes would go unseen.
    if (mayBeOutVariant(overload.getValue()))
      return nullptr;
  }
  const aten::AnyOverloadFacts *any = anyOverloadFacts(name);
  if (!any)
    return nullptr;
  if (writesAgree)
    *writesAgree = any->writesAgree;
  if (returnsAgree)
    *returnsAgree = any->returnsAgree;
  return &any->facts;
}

OpEffects effectsOf(Operation *op) {
  OpEffects effects;
  StringRef name = op->getName().getStringRef();
  if (name.consume_front("torch.aten.")) {
    classifyAten(op, effects);
    return effects;
  }
  if (!op->isRegistered())
    effects.unknown = true;
  else if (!isMemoryEffectFree(op))
    effects.declared = true;
  return effects;
}

} // namespace coreai
