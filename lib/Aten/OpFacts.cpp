//===- OpFacts.cpp - What the planner knows about each ATen op ------------===//
//
// Reads the two X-macro tables once, at first use, into facts per op and
// overload: AtenOpFacts.def (generated from torch's schemas; its header
// describes the fields) and AtenOpFactsManual.def (hand-kept, tags).
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Aten/OpFacts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

namespace coreai::aten {
namespace {

struct GeneratedRow {
  const char *name, *overload, *returns, *mutated;
  int random;
  const char *twin;
  int composite;
  const char *origin;
};

const GeneratedRow generatedRows[] = {
#define ATEN_OP(name, overload, returns, mutated, random, twin, composite,   \
                origin)                                                        \
  {#name, #overload, returns, mutated, random, twin, composite, #origin},
#include "AtenOpFacts.def"
#undef ATEN_OP
};

struct ManualRow {
  const char *key, *tags, *why;
};

const ManualRow manualRows[] = {
#define ATEN_FACT(key, tags, why) {#key, tags, why},
#include "AtenOpFactsManual.def"
#undef ATEN_FACT
};

/// `position:name:operand[:kw]`; std::nullopt when malformed (the
/// generator never writes one: a unit test reads every row).
std::optional<ArgumentRef> parseArgument(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  text.split(parts, ':');
  if (parts.size() < 3 || parts.size() > 4 ||
      (parts.size() == 4 && parts[3] != "kw"))
    return std::nullopt;
  ArgumentRef argument;
  argument.name = parts[1];
  argument.keywordOnly = parts.size() == 4;
  int operand;
  if (parts[0].getAsInteger(10, argument.position))
    return std::nullopt;
  if (parts[2] != "?") {
    if (parts[2].getAsInteger(10, operand))
      return std::nullopt;
    argument.operand = operand;
  }
  return argument;
}

std::optional<ReturnFacts> parseReturn(llvm::StringRef text) {
  ReturnFacts result;
  result.list = text.consume_back("[]");
  if (text == "n") {
    result.tensor = false;
    return result;
  }
  if (text == "-")
    return result;
  result.aliases = parseArgument(text);
  if (!result.aliases)
    return std::nullopt;
  return result;
}

/// `ARG@POS:V|V` (`absent` among the values: the default satisfies it;
/// POS `kw`: a keyword-only argument).
std::optional<ArgumentCondition> parseCondition(llvm::StringRef text) {
  auto [argument, rest] = text.split('@');
  auto [position, values] = rest.split(':');
  ArgumentCondition condition;
  condition.argument = argument;
  condition.keywordOnly = position == "kw";
  if (argument.empty() || values.empty() ||
      (!condition.keywordOnly &&
       position.getAsInteger(10, condition.position)))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 4> listed;
  values.split(listed, '|');
  for (llvm::StringRef value : listed) {
    if (value == "absent")
      condition.absentSatisfies = true;
    else
      condition.values.push_back(value);
  }
  return condition;
}

/// Applies one manual tag; false when the tag is not one this reader knows.
bool applyTag(llvm::StringRef tag, OpFacts &facts) {
  if (tag.consume_front("random_unless=")) {
    facts.random = true;
    facts.randomUnless = parseCondition(tag);
    return facts.randomUnless.has_value();
  }
  if (tag.consume_front("elementwise_if=")) {
    std::optional<ArgumentCondition> condition = parseCondition(tag);
    if (condition)
      facts.elementwiseIf.push_back(*condition);
    return condition.has_value();
  }
  if (tag.consume_front("writes_unless=")) {
    facts.writesUnless = parseCondition(tag);
    return facts.writesUnless.has_value();
  }
  bool OpFacts::*flag = llvm::StringSwitch<bool OpFacts::*>(tag)
                            .Case("elementwise", &OpFacts::elementwise)
                            .Case("keeps_layout", &OpFacts::keepsLayout)
                            .Case("row_in_place", &OpFacts::rowInPlace)
                            .Case("replaces_elements",
                                  &OpFacts::replacesElements)
                            .Case("may_alias", &OpFacts::mayAlias)
                            .Case("random", &OpFacts::random)
                            .Case("asserts", &OpFacts::asserts)
                            .Case("metadata_only", &OpFacts::metadataOnly)
                            .Case("reduction", &OpFacts::reduction)
                            .Case("normalisation", &OpFacts::normalisation)
                            .Case("matmul", &OpFacts::matmul)
                            .Case("attention", &OpFacts::attention)
                            .Case("fill", &OpFacts::fill)
                            .Case("copy", &OpFacts::copy)
                            .Case("elementwise_by_equation",
                                  &OpFacts::elementwiseByEquation)
                            .Default(nullptr);
  if (tag == "aliases_self") {
    // A view of self whatever the schema says: every tensor return.
    ArgumentRef self{"self", 0, 0, false};
    for (ReturnFacts &result : facts.returns)
      if (result.tensor)
        result.aliases = self;
    return true;
  }
  if (!flag)
    return false;
  facts.*flag = true;
  return true;
}

class Table {
public:
  Table() {
    facts.reserve(std::size(generatedRows));
    for (const GeneratedRow &row : generatedRows)
      addGenerated(row);
    for (auto [index, op] : llvm::enumerate(facts)) {
      byKey[(op.name + "." + op.overload).str()] = index;
      byName[op.name].push_back(index);
    }
    for (const ManualRow &row : manualRows)
      applyManual(row);
  }

  const OpFacts *find(llvm::StringRef name, llvm::StringRef overload) const {
    // Asked for every op of every clone: the key is built on the stack.
    llvm::SmallString<64> key;
    (name + "." + overload).toVector(key);
    auto found = byKey.find(key);
    return found == byKey.end() ? nullptr : &facts[found->second];
  }
  llvm::ArrayRef<size_t> overloads(llvm::StringRef name) const {
    auto found = byName.find(name);
    return found == byName.end() ? llvm::ArrayRef<size_t>()
                                 : llvm::ArrayRef<size_t>(found->second);
  }
  const OpFacts &at(size_t index) const { return facts[index]; }
  size_t size() const { return facts.size(); }
  const std::vector<std::string> &manualProblems() const { return problems; }

private:
  /// Parses each comma-separated item of `list` into `out`; an item that
  /// does not parse is a problem the table's test reports.
  template <typename Parse, typename Item>
  void parseList(llvm::StringRef list, Parse parse,
                 llvm::SmallVectorImpl<Item> &out, const OpFacts &op,
                 llvm::StringRef what) {
    llvm::SmallVector<llvm::StringRef, 4> parts;
    list.split(parts, ',', -1, false);
    for (llvm::StringRef part : parts)
      if (std::optional<Item> item = parse(part))
        out.push_back(*item);
      else
        problems.push_back(llvm::formatv("{0}.{1}: malformed {2} '{3}'",
                                         op.name, op.overload, what, part));
  }

  void addGenerated(const GeneratedRow &row) {
    OpFacts op;
    op.name = row.name;
    op.overload = row.overload;
    op.random = row.random != 0;
    op.twin = row.twin;
    op.composite = row.composite != 0;
    op.fromSupplement = llvm::StringRef(row.origin) == "supplement";
    parseList(row.returns, parseReturn, op.returns, op, "return");
    parseList(row.mutated, parseArgument, op.mutated, op, "argument");
    facts.push_back(std::move(op));
  }

  void applyManual(const ManualRow &row) {
    auto [name, overload] = llvm::StringRef(row.key).split('.');
    llvm::SmallVector<size_t, 4> targets;
    if (overload.empty())
      llvm::append_range(targets, overloads(name));
    else if (auto found = byKey.find(row.key); found != byKey.end())
      targets.push_back(found->second);
    if (targets.empty())
      problems.push_back(
          llvm::formatv("manual entry '{0}' names no op of the table", row.key));
    llvm::SmallVector<llvm::StringRef, 4> tags;
    llvm::StringRef(row.tags).split(tags, ' ', -1, false);
    for (size_t index : targets)
      for (llvm::StringRef tag : tags)
        if (!applyTag(tag, facts[index]))
          problems.push_back(llvm::formatv(
              "manual entry '{0}': unknown or malformed tag '{1}'", row.key,
              tag));
  }

  std::vector<OpFacts> facts;
  llvm::StringMap<size_t> byKey;
  llvm::StringMap<llvm::SmallVector<size_t, 4>> byName;
  std::vector<std::string> problems;
};

const Table &table() {
  static const Table instance;
  return instance;
}

bool isOutVariant(const OpFacts &op) {
  return llvm::any_of(op.mutated,
                      [](const ArgumentRef &arg) { return arg.keywordOnly; });
}

bool sameCondition(const std::optional<ArgumentCondition> &a,
                   const std::optional<ArgumentCondition> &b) {
  if (!a || !b)
    return !a && !b;
  return a->argument == b->argument && a->position == b->position &&
         a->keywordOnly == b->keywordOnly &&
         a->values == b->values && a->absentSatisfies == b->absentSatisfies;
}

/// Folds `other` into `merged` (returns once cleared stay unknown: a later
/// overload compares unequal to the empty list): effects that make an op less movable or
/// less shareable are kept from either, permissions only when both have
/// them.
void mergeOverload(const OpFacts &other, AnyOverloadFacts &merged) {
  OpFacts &facts = merged.facts;
  if (!(facts.returns == other.returns)) {
    merged.returnsAgree = false;
    facts.returns.clear();
  }
  if (!(facts.mutated == other.mutated) ||
      !sameCondition(facts.writesUnless, other.writesUnless)) {
    merged.writesAgree = false;
    facts.mutated.clear();
  }
  if (facts.random != other.random ||
      !sameCondition(facts.randomUnless, other.randomUnless))
    facts.randomUnless.reset(); // random in some overload, unconditionally
  if (facts.twin != other.twin)
    facts.twin = {};
  facts.random |= other.random;
  facts.composite |= other.composite;
  facts.mayAlias |= other.mayAlias;
  facts.asserts |= other.asserts;
  facts.fromSupplement |= other.fromSupplement;
  facts.elementwise &= other.elementwise;
  // Conditions are per overload: an op whose overload is unknown keeps the
  // elementwise fact only where no overload puts a condition on it.
  if (!facts.elementwiseIf.empty() || !other.elementwiseIf.empty())
    facts.elementwise = false;
  facts.elementwiseByEquation &= other.elementwiseByEquation;
  facts.copy &= other.copy;
  facts.keepsLayout &= other.keepsLayout;
  facts.rowInPlace &= other.rowInPlace;
  facts.replacesElements &= other.replacesElements;
  facts.metadataOnly &= other.metadataOnly;
}

} // namespace

bool ArgumentCondition::satisfiedBy(std::optional<llvm::StringRef> value) const {
  if (!value)
    return absentSatisfies;
  return llvm::is_contained(values, value->trim());
}

std::optional<ArgumentRef> OpFacts::viewSource() const {
  if (mutates())
    return std::nullopt;
  std::optional<ArgumentRef> source;
  for (const ReturnFacts &result : returns) {
    if (!result.tensor)
      continue;
    if (!result.aliases || (source && !(*source == *result.aliases)))
      return std::nullopt;
    source = result.aliases;
  }
  return source;
}

bool OpFacts::isFunctional() const {
  return !mutates() && !writesUnless &&
         llvm::none_of(returns, [](const ReturnFacts &result) {
           return result.aliases.has_value();
         });
}

bool OpFacts::hasListReturn() const {
  return llvm::any_of(returns,
                      [](const ReturnFacts &result) { return result.list; });
}

std::pair<llvm::StringRef, llvm::StringRef> OpFacts::twinParts() const {
  return twin.split('.');
}

const OpFacts *lookup(llvm::StringRef name, llvm::StringRef overload) {
  return table().find(name, overload.empty() ? "default" : overload);
}

const OpFacts *lookupQualified(llvm::StringRef qualified,
                               llvm::StringRef overload) {
  if (qualified.consume_front("torch.aten."))
    return lookup(qualified, overload);
  if (!qualified.consume_front("aten::") &&
      !qualified.consume_front("torch.ops.aten."))
    return nullptr;
  auto [name, named] = qualified.split('.');
  return lookup(name, named);
}

std::optional<AnyOverloadFacts> lookupAnyOverload(llvm::StringRef name) {
  llvm::ArrayRef<size_t> overloads = table().overloads(name);
  llvm::SmallVector<const OpFacts *, 4> candidates;
  for (size_t index : overloads)
    if (!isOutVariant(table().at(index)))
      candidates.push_back(&table().at(index));
  if (candidates.empty())
    for (size_t index : overloads)
      candidates.push_back(&table().at(index));
  if (candidates.empty())
    return std::nullopt;
  AnyOverloadFacts merged{*candidates.front(), true, true};
  merged.facts.overload = {};
  for (const OpFacts *other : llvm::drop_begin(candidates))
    mergeOverload(*other, merged);
  return merged;
}

std::vector<const OpFacts *> allOpFacts() {
  std::vector<const OpFacts *> all;
  for (size_t index = 0; index < table().size(); ++index)
    all.push_back(&table().at(index));
  return all;
}

std::vector<std::string> manualFactProblems() {
  return table().manualProblems();
}

} // namespace coreai::aten
