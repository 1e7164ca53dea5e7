//===- ResultDtypes.cpp - The dtypes a target's kernels write -------------===//
#include "coreai-plan/Target/ResultDtypes.h"
#include "coreai-plan/Target/Workspace.h"

#include "TargetJson.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace coreai {
namespace json = llvm::json;

llvm::ArrayRef<llvm::StringLiteral> knownResultDtypes() {
  static constexpr llvm::StringLiteral dtypes[] = {
      "f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64"};
  return dtypes;
}

int64_t resultDtypeBits(llvm::StringRef dtype) {
  return llvm::StringSwitch<int64_t>(dtype)
      .Cases({"f16", "bf16", "i16"}, 16)
      .Cases({"f32", "i32"}, 32)
      .Cases({"f64", "i64"}, 64)
      .Case("i8", 8)
      .Default(0);
}

std::optional<llvm::StringRef>
ResultDtypeRules::kernelDtype(llvm::StringRef name, llvm::StringRef overload,
                              int64_t index,
                              llvm::StringRef graphDtype) const {
  for (const ResultDtypeRule &rule : rules) {
    if (!namesAtenOp(rule.op, name, overload) ||
        !llvm::is_contained(rule.results, index))
      continue;
    if (!rule.graphDtypes.empty() &&
        !llvm::is_contained(rule.graphDtypes, graphDtype))
      continue;
    if (rule.dtype == graphDtype)
      return std::nullopt;
    return llvm::StringRef(rule.dtype);
  }
  return std::nullopt;
}

namespace {

std::string knownDtypesText() { return llvm::join(knownResultDtypes(), ", "); }

bool isKnownDtype(llvm::StringRef dtype) {
  return llvm::is_contained(knownResultDtypes(), dtype);
}

/// One rule `{op, results, dtype, graph_dtypes, doc}` at `where`.
llvm::Error parseRule(const json::Object &entry, const std::string &where,
                      llvm::StringRef source, ResultDtypeRule &rule) {
  if (llvm::Error unknown = onlyKnownFields(
          entry, {"op", "results", "dtype", "graph_dtypes", "doc"}, source,
          where))
    return unknown;
  std::optional<llvm::StringRef> op = entry.getString("op");
  if (!op || !op->starts_with("aten.") || op->size() <= 5)
    return targetError(source, where + ".op: must be an ATen op (aten.NAME "
                                       "or aten.NAME.OVERLOAD)");
  rule.op = op->str();
  const json::Array *results = entry.getArray("results");
  if (!results || results->empty())
    return targetError(source, where + ".results: must be a non-empty list "
                                       "of result positions");
  for (const json::Value &result : *results) {
    std::optional<int64_t> index = result.getAsInteger();
    if (!index || *index < 0 || llvm::is_contained(rule.results, *index))
      return targetError(source, where + ".results: each must be a result "
                                         "position (0, 1, ...), once");
    rule.results.push_back(*index);
  }
  std::optional<llvm::StringRef> dtype = entry.getString("dtype");
  if (!dtype || !isKnownDtype(*dtype))
    return targetError(source, where + ".dtype: must be one of " +
                                   knownDtypesText());
  rule.dtype = dtype->str();
  if (const json::Value *graph = entry.get("graph_dtypes")) {
    const json::Array *list = graph->getAsArray();
    if (!list || list->empty())
      return targetError(source, where + ".graph_dtypes: must be a non-empty "
                                         "list of dtypes");
    for (const json::Value &item : *list) {
      std::optional<llvm::StringRef> name = item.getAsString();
      if (!name || !isKnownDtype(*name))
        return targetError(source, where + ".graph_dtypes: each must be one "
                                           "of " +
                                           knownDtypesText());
      rule.graphDtypes.push_back(name->str());
    }
  }
  std::optional<llvm::StringRef> doc = entry.getString("doc");
  if (!doc || doc->trim().empty())
    return targetError(source, where + ".doc: missing (say what the kernel "
                                       "writes and where that was measured)");
  rule.doc = doc->str();
  return llvm::Error::success();
}

} // namespace

llvm::Error parseResultDtypeRules(const json::Value &target,
                                  ResultDtypeRules &rules,
                                  llvm::StringRef source) {
  const json::Object *object = target.getAsObject();
  const json::Value *list = object ? object->get("result_dtypes") : nullptr;
  if (!list)
    return llvm::Error::success();
  const json::Array *array = list->getAsArray();
  if (!array)
    return targetError(source, "result_dtypes: must be a list of rules");
  for (size_t i = 0; i < array->size(); ++i) {
    std::string where = llvm::formatv("result_dtypes[{0}]", i).str();
    const json::Object *entry = (*array)[i].getAsObject();
    if (!entry)
      return targetError(source, where + ": must be an object");
    ResultDtypeRule rule;
    if (llvm::Error error = parseRule(*entry, where, source, rule))
      return error;
    rules.rules.push_back(std::move(rule));
  }
  return llvm::Error::success();
}

} // namespace coreai
