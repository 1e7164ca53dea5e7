//===- Target.cpp - Target descriptions read from targets/*.json ----------===//
#include "coreai-plan/Target/Target.h"
#include "TargetJson.h"
#include "coreai-plan/Options.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace coreai {
namespace json = llvm::json;

bool Target::runsInPlace(llvm::StringRef opClass) const {
  return llvm::is_contained(inPlaceOpClasses, opClass);
}

bool Target::fuses(llvm::StringRef pattern) const {
  return llvm::is_contained(fusionPatterns, pattern);
}

static bool fromJSON(const json::Value &value, RecomputeRules &rules,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  if (!(o && o.map("roles", rules.roles) && o.map("max_ops", rules.maxOps)))
    return false;
  for (const std::string &role : rules.roles)
    if (!llvm::is_contained({"fill", "elementwise", "cast", "view",
                             "outer_product", "concat"},
                            llvm::StringRef(role))) {
      path.field("roles").report("unknown role (known: fill, elementwise, "
                                 "cast, view, outer_product, concat)");
      return false;
    }
  if (rules.maxOps < 1) {
    path.field("max_ops").report("must be at least 1");
    return false;
  }
  return true;
}

// Found by argument-dependent lookup from json::ObjectMapper.
static bool fromJSON(const json::Value &value, Target &target,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  // heap_limit is null or absent for an unlimited heap.
  std::optional<int64_t> heapLimit, maxHeapBytes, maxBufferBytes, splitK;
  std::optional<std::string> kernelOpOrder;
  if (!(o && o.map("name", target.name) &&
        o.mapOptional("description", target.description) &&
        o.map("alignment", target.alignment) &&
        o.mapOptional("heap_limit", heapLimit) &&
        o.map("in_place_op_classes", target.inPlaceOpClasses) &&
        o.map("outputs_bound_before_call", target.outputsBoundBeforeCall) &&
        o.map("state_bound_before_call", target.stateBoundBeforeCall) &&
        o.mapOptional("outputs_borrowable", target.outputsBorrowable) &&
        o.mapOptional("fusion", target.fusionPatterns) &&
        o.mapOptional("max_heap_bytes", maxHeapBytes) &&
        o.mapOptional("max_buffer_bytes", maxBufferBytes) &&
        o.mapOptional("split_k", splitK) &&
        o.mapOptional("kernel_op_order", kernelOpOrder) &&
        o.mapOptional("recompute", target.recompute)))
    return false;
  if (kernelOpOrder && *kernelOpOrder != "ir" && *kernelOpOrder != "dataflow") {
    path.field("kernel_op_order")
        .report("must be \"dataflow\" (a kernel's ops run in any order its "
                "data allows) or \"ir\" (in IR order)");
    return false;
  }
  target.kernelsRunInIrOrder = kernelOpOrder && *kernelOpOrder == "ir";
  if (heapLimit && maxHeapBytes && *heapLimit != *maxHeapBytes) {
    path.field("max_heap_bytes").report("differs from heap_limit");
    return false;
  }
  target.heapLimit = maxHeapBytes.value_or(heapLimit.value_or(0));
  target.maxBufferBytes = maxBufferBytes.value_or(0);
  target.workspace.splitK = splitK.value_or(1);
  if (target.maxBufferBytes < 0) {
    path.field("max_buffer_bytes").report("must not be negative");
    return false;
  }
  if (target.workspace.splitK < 1) {
    path.field("split_k").report("must be at least 1");
    return false;
  }
  if (!isValidAlignment(target.alignment)) {
    path.field("alignment").report("must be a positive power of two");
    return false;
  }
  if (target.heapLimit < 0) {
    path.field("heap_limit").report("must not be negative");
    return false;
  }
  for (const std::string &opClass : target.inPlaceOpClasses)
    if (opClass != "elementwise" && opClass != "softmax") {
      path.field("in_place_op_classes")
          .report("unknown op class (known: elementwise, softmax)");
      return false;
    }
  static constexpr llvm::StringLiteral patterns[] = {
      "elementwise", "reduction", "cast", "attention"};
  for (const std::string &pattern : target.fusionPatterns)
    if (!llvm::is_contained(patterns, pattern)) {
      path.field("fusion").report(
          "unknown fusion pattern (known: elementwise, reduction, cast, "
          "attention)");
      return false;
    }
  return true;
}

/// One variant's `bytes` expression, read into `variant`.
static llvm::Error parseVariantBytes(const json::Object &object,
                                     const std::string &where,
                                     llvm::StringRef source,
                                     WorkspaceVariant &variant) {
  std::optional<llvm::StringRef> bytes = object.getString("bytes");
  if (!bytes)
    return targetError(source, where + ".bytes: missing (an expression, "
                                       "docs/WORKSPACE.md)");
  variant.bytesText = bytes->str();
  llvm::Expected<WorkspaceExpr> expr = parseWorkspaceExpr(*bytes);
  if (!expr)
    return targetError(source,
                       where + ".bytes: " + llvm::toString(expr.takeError()));
  variant.bytes = *expr;
  return llvm::Error::success();
}

/// A rule's kernels: its `bytes` (one, named `default`), or its
/// `variants`, each `{name, bytes, cost, doc}` with a name of its own and a
/// positive cost.
static llvm::Error parseVariants(const json::Object &entry,
                                 const std::string &where,
                                 llvm::StringRef source, WorkspaceRule &rule) {
  const json::Value *list = entry.get("variants");
  if (!list) {
    WorkspaceVariant variant;
    variant.name = "default";
    if (llvm::Error error = parseVariantBytes(entry, where, source, variant))
      return error;
    rule.variants.push_back(std::move(variant));
    return llvm::Error::success();
  }
  const json::Array *array = list->getAsArray();
  if (entry.get("bytes") || !array || array->empty())
    return targetError(source, where + ": give either 'bytes' or a non-empty "
                                       "list of 'variants'");
  for (size_t k = 0; k < array->size(); ++k) {
    std::string at = llvm::formatv("{0}.variants[{1}]", where, k).str();
    const json::Object *object = (*array)[k].getAsObject();
    if (!object)
      return targetError(source, at + ": must be an object");
    if (llvm::Error unknown = onlyKnownFields(
            *object, {"name", "bytes", "cost", "doc"}, source, at))
      return unknown;
    WorkspaceVariant variant;
    std::optional<llvm::StringRef> name = object->getString("name");
    if (!name || name->empty() || rule.variant(*name))
      return targetError(source, at + ".name: missing, empty or used twice");
    variant.name = name->str();
    std::optional<double> cost = object->getNumber("cost");
    if (!cost || !(*cost > 0))
      return targetError(source, at + ".cost: must be a positive number (the "
                                      "variant's run time relative to the "
                                      "others)");
    variant.cost = *cost;
    variant.doc = object->getString("doc").value_or("").str();
    if (llvm::Error error = parseVariantBytes(*object, at, source, variant))
      return error;
    rule.variants.push_back(std::move(variant));
  }
  return llvm::Error::success();
}

/// The "workspace" list, read apart from the mapper so that a bad
/// expression is reported as `workspace[i].bytes: what at column N`.
static llvm::Error parseWorkspaceRules(const json::Value &value,
                                       WorkspaceRules &rules,
                                       llvm::StringRef source) {
  const json::Object *object = value.getAsObject();
  const json::Value *list = object ? object->get("workspace") : nullptr;
  if (!list)
    return llvm::Error::success();
  const json::Array *array = list->getAsArray();
  if (!array)
    return targetError(source, "workspace: must be a list of rules");
  for (size_t i = 0; i < array->size(); ++i) {
    std::string where = llvm::formatv("workspace[{0}]", i).str();
    const json::Object *entry = (*array)[i].getAsObject();
    if (!entry)
      return targetError(source, where + ": must be an object");
    if (llvm::Error unknown = onlyKnownFields(
            *entry, {"op", "class", "bytes", "variants", "alignment", "doc"},
            source, where))
      return unknown;
    WorkspaceRule rule;
    std::optional<llvm::StringRef> op = entry->getString("op");
    std::optional<llvm::StringRef> opClass = entry->getString("class");
    if (bool(op) == bool(opClass))
      return targetError(source, where + ": give exactly one of 'op' (an ATen "
                                         "op, aten.NAME[.OVERLOAD]) and "
                                         "'class'");
    if (op && !op->starts_with("aten."))
      return targetError(source, where + ".op: '" + *op +
                                     "' is not an ATen op (aten.NAME or "
                                     "aten.NAME.OVERLOAD)");
    if (opClass && !llvm::is_contained(workspaceOpClasses(), *opClass))
      return targetError(source, where + ".class: unknown op class '" +
                                     *opClass + "' (known: " +
                                     llvm::join(workspaceOpClasses(), ", ") +
                                     ")");
    rule.op = op.value_or("").str();
    rule.opClass = opClass.value_or("").str();
    if (llvm::Error error = parseVariants(*entry, where, source, rule))
      return error;
    if (const json::Value *alignment = entry->get("alignment")) {
      std::optional<int64_t> number = alignment->getAsInteger();
      if (!number || !isValidAlignment(*number))
        return targetError(source, where + ".alignment: must be a positive "
                                           "power of two");
      rule.alignment = *number;
    }
    rule.doc = entry->getString("doc").value_or("").str();
    rules.rules.push_back(std::move(rule));
  }
  return llvm::Error::success();
}

llvm::Expected<Target> parseTarget(llvm::StringRef text,
                                   llvm::StringRef source) {
  llvm::Expected<json::Value> value = json::parse(text);
  if (!value)
    return targetError(source,
                       "invalid JSON: " + llvm::toString(value.takeError()));
  if (const json::Object *object = value->getAsObject())
    if (llvm::Error unknown = onlyKnownFields(
            *object,
            {"name", "description", "alignment", "heap_limit",
             "max_heap_bytes", "max_buffer_bytes", "in_place_op_classes",
             "outputs_bound_before_call", "state_bound_before_call",
             "outputs_borrowable", "fusion", "kernel_op_order", "recompute",
             "split_k", "workspace", "result_dtypes"},
            source, ""))
      return llvm::Expected<Target>(std::move(unknown));
  Target target;
  json::Path::Root root("target");
  if (!fromJSON(*value, target, root))
    return targetError(source, "invalid target description: " +
                                   llvm::toString(root.getError()));
  if (llvm::Error error =
          parseWorkspaceRules(*value, target.workspace, source))
    return llvm::Expected<Target>(std::move(error));
  if (llvm::Error error =
          parseResultDtypeRules(*value, target.resultDtypes, source))
    return llvm::Expected<Target>(std::move(error));
  return target;
}

// COREAI_INSTALLED_TARGETS_DIR is where cmake/Install.cmake puts targets/,
// relative to the installed tools (../share/coreai-plan/targets). A tool
// run from the build tree finds nothing there (build/bin/../share) and
// reads the source tree's, so both work without --targets-dir.
llvm::StringRef defaultTargetsDir() {
  static const std::string dir = [] {
    // Any function's address names this binary (argv[0] is not needed
    // where /proc/self/exe is).
    std::string executable = llvm::sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&defaultTargetsDir));
    llvm::SmallString<256> installed(llvm::sys::path::parent_path(executable));
    llvm::sys::path::append(installed, COREAI_INSTALLED_TARGETS_DIR);
    llvm::sys::path::remove_dots(installed, /*remove_dot_dot=*/true);
    if (!executable.empty() && llvm::sys::fs::is_directory(installed))
      return std::string(installed);
    return std::string(COREAI_TARGETS_DIR);
  }();
  return dir;
}

std::vector<std::string> knownTargets(llvm::StringRef dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".json")
      names.push_back(llvm::sys::path::stem(it->path()).str());
  llvm::sort(names);
  return names;
}

llvm::Expected<Target> loadTarget(llvm::StringRef name, llvm::StringRef dir) {
  std::vector<std::string> known = knownTargets(dir);
  if (!llvm::is_contained(known, name))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "unknown target '" + name + "' (known targets: " +
            (known.empty() ? std::string("none, in ") + dir.str()
                           : llvm::join(known, ", ")) +
            ")");
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name + ".json");
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return targetError(path, file.getError().message());
  llvm::Expected<Target> target = parseTarget((*file)->getBuffer(), path);
  if (target && target->name != name)
    return targetError(path, "names target '" + target->name + "', expected '" +
                                 name + "'");
  return target;
}

} // namespace coreai
