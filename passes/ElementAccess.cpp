//===- ElementAccess.cpp - Which operand elements an op's result reads ----===//
#include "ElementAccess.h"

#include "AtenArgs.h"
#include "Effects.h"

#include "coreai-plan/Aten/Einsum.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/OpDefinition.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace coreai {
namespace {

/// dtypes as the exporter writes them (`torch.float16`): a conversion's
/// target, which moves no element.
bool isDtype(llvm::StringRef value) {
  static const llvm::StringSet<> dtypes = {
      "torch.float16",   "torch.float32",  "torch.float64", "torch.bfloat16",
      "torch.half",      "torch.float",    "torch.double",  "torch.int8",
      "torch.uint8",     "torch.int16",    "torch.int32",   "torch.int64",
      "torch.long",      "torch.int",      "torch.bool",    "torch.complex64",
      "torch.complex128"};
  return dtypes.contains(value.trim());
}

/// Keywords of elementwise ATen ops whose values are scalars (and, for a
/// copy, its dtype and flags): none moves an element.
bool isPlainKeyword(const aten::OpFacts &facts, llvm::StringRef key) {
  static const llvm::StringSet<> keys = {
      "alpha", "rounding_mode", "approximate", "negative_slope", "min",
      "max",   "value",         "other",       "exponent",       "scalar"};
  return keys.contains(key) ||
         (facts.copy && llvm::is_contained({"dtype", "non_blocking", "copy"},
                                           key));
}

bool isPlainValue(const aten::OpFacts &facts, llvm::StringRef value) {
  return value == "T" || isScalarArgument(value) ||
         (facts.copy && isDtype(value));
}

/// A literal number or flag: what a copy's positional arguments past self
/// hold besides a dtype (dropout's p and train, `to`'s non_blocking and
/// copy). A symbolic size there says the call is not one the facts know.
bool isNumberOrFlag(llvm::StringRef value) {
  value = value.trim();
  double number;
  return llvm::is_contained({"True", "False", "None"}, value) ||
         !value.getAsDouble(number);
}

/// A keyword's value as a plain one: a dtype where the keyword is one.
bool isPlainKeywordValue(const aten::OpFacts &facts, llvm::StringRef key,
                         llvm::StringRef value) {
  if (key == "dtype")
    return isDtype(value) || value.trim() == "None";
  return isPlainValue(facts, value);
}

/// A copy whose every condition names a keyword-only argument (`clone`,
/// `_to_copy`, `contiguous`) takes self alone by position.
bool takesSelfAlone(const aten::OpFacts &facts) {
  return facts.copy && !facts.elementwiseIf.empty() &&
         llvm::all_of(facts.elementwiseIf,
                      [](const aten::ArgumentCondition &condition) {
                        return condition.keywordOnly;
                      });
}

bool namesCondition(const aten::OpFacts &facts, llvm::StringRef key) {
  return llvm::any_of(facts.elementwiseIf,
                      [&](const aten::ArgumentCondition &condition) {
                        return condition.argument == key;
                      });
}

/// A copy's list of sizes (`reshape`'s shape, integers or symbols): it
/// says the result's shape, not where an element goes.
bool isShapeList(const aten::OpFacts &facts, llvm::StringRef value) {
  value = value.trim();
  return facts.copy && value.starts_with("[") && value.ends_with("]") &&
         !value.contains('T');
}

/// The arguments apart from the conditions' (which those check) are plain.
bool otherArgumentsPlain(const aten::OpFacts &facts, const AtenArgs &args) {
  if (takesSelfAlone(facts) && args.positional.size() > 1)
    return false;
  for (size_t position = 0; position < args.positional.size(); ++position) {
    llvm::StringRef value = args.positional[position];
    bool conditioned = llvm::any_of(
        facts.elementwiseIf, [&](const aten::ArgumentCondition &condition) {
          return !condition.keywordOnly && condition.position == position;
        });
    if (!conditioned && !isPlainValue(facts, value) &&
        !isShapeList(facts, value))
      return false; // a list, a device, a memory format: not elementwise
    if (facts.copy && position > 0 && !conditioned && !isDtype(value) &&
        !isNumberOrFlag(value) && !isShapeList(facts, value) && value != "T")
      return false;
  }
  for (const auto &[key, value] : args.keywords)
    if (!namesCondition(facts, key) &&
        (!isPlainKeyword(facts, key) ||
         !isPlainKeywordValue(facts, key, value)))
      return false;
  return true;
}

/// The tensors a call names: each `T`, alone or in a list. A call naming
/// other tensors than the op's operands does not describe it.
unsigned tensorsNamed(const AtenArgs &args) {
  unsigned count = 0;
  auto inValue = [&](llvm::StringRef value) {
    value = value.trim();
    if (value == "T") {
      ++count;
      return;
    }
    if (!value.consume_front("[") || !value.consume_back("]"))
      return;
    llvm::SmallVector<llvm::StringRef, 4> items;
    value.split(items, ',');
    for (llvm::StringRef item : items)
      count += item.trim() == "T" ? 1 : 0;
  };
  for (const std::string &value : args.positional)
    inValue(value);
  for (const auto &keyword : args.keywords)
    inValue(keyword.second);
  return count;
}

/// An op tagged `elementwise`: its conditions (a copy's memory format,
/// layout, device) and the plainness of its other arguments decide.
ElementAccess elementwiseCall(Operation *op, const aten::OpFacts &facts) {
  bool present = false;
  std::optional<AtenArgs> args = atenArgsOf(op, &present);
  if (!args) // no conditions can be checked without the call's arguments
    return present || !facts.elementwiseIf.empty() ? ElementAccess::Unknown
                                                  : ElementAccess::Elementwise;
  if (tensorsNamed(*args) != op->getNumOperands() ||
      (facts.copy && (args->positional.empty() || args->positional[0] != "T")))
    return ElementAccess::Unknown; // not a call the facts describe
  for (const aten::ArgumentCondition &condition : facts.elementwiseIf)
    if (!condition.satisfiedBy(conditionArgument(condition, *args)))
      // Another memory format lays a copy's elements out again; another
      // layout or device is not this heap's business: unknown.
      return facts.copy && condition.argument == "memory_format"
                 ? ElementAccess::Moves
                 : ElementAccess::Unknown;
  return otherArgumentsPlain(facts, *args) ? ElementAccess::Elementwise
                                           : ElementAccess::Unknown;
}

/// `einsum(equation, [T, ...])`, parsed; std::nullopt when the call says
/// anything else.
std::optional<aten::EinsumEquation> equationOf(Operation *op) {
  std::optional<AtenArgs> args = atenArgsOf(op);
  if (!args || args->positional.size() != 2 ||
      llvm::any_of(args->keywords,
                   [](const auto &keyword) { return keyword.first != "path"; }))
    return std::nullopt;
  std::optional<aten::EinsumEquation> equation =
      aten::parseEinsumEquation(args->positional[0]);
  if (!equation || equation->operands.size() != op->getNumOperands())
    return std::nullopt;
  return equation;
}

ElementAccess equationAccess(Operation *op) {
  std::optional<aten::EinsumEquation> equation = equationOf(op);
  if (!equation)
    return ElementAccess::Unknown;
  if (equation->sums())
    return ElementAccess::Contracts;
  for (unsigned k = 0; k < equation->operands.size(); ++k)
    if (!equation->readsInResultOrder(k))
      return ElementAccess::Moves;
  return ElementAccess::Elementwise;
}

} // namespace

ElementAccess elementAccessOf(Operation *op) {
  if (op->getNumResults() == 0)
    return ElementAccess::Unknown;
  const aten::OpFacts *facts = atenFactsOf(op);
  if (!facts)
    return op->hasTrait<OpTrait::Elementwise>() ||
                   op->hasTrait<OpTrait::tosa::TosaElementwiseOperator>()
               ? ElementAccess::Elementwise
               : ElementAccess::Unknown;
  if (facts->elementwiseByEquation)
    return equationAccess(op);
  if (facts->elementwise)
    return elementwiseCall(op, *facts);
  return ElementAccess::Unknown;
}

bool readsAtResultIndex(Operation *op, unsigned operand) {
  const aten::OpFacts *facts = atenFactsOf(op);
  if (!facts || !facts->elementwiseByEquation)
    return true;
  std::optional<aten::EinsumEquation> equation = equationOf(op);
  return equation && equation->readsAtResultIndex(operand);
}

bool atenArgumentsPlain(Operation *op) {
  bool present = false;
  std::optional<AtenArgs> args = atenArgsOf(op, &present);
  if (!args)
    return !present;
  return otherArgumentsPlain(aten::OpFacts(), *args);
}

} // namespace coreai
