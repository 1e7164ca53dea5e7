//===- AtenArgs.cpp - Reading an exported op's `coreai.args` --------------===//
#include "AtenArgs.h"

#include "coreai-plan/Dialect/CoreAI.h"

#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/StringMap.h"

namespace coreai {

std::optional<AtenArgs> atenArgsOf(mlir::Operation *op, bool *present) {
  auto attr = op->getAttrOfType<mlir::StringAttr>(attr::args);
  if (present)
    *present = attr != nullptr;
  if (!attr)
    return std::nullopt;
  // The op classes ask for an op's arguments many times over, and every
  // clone of a graph (a parametric plan makes one per S) holds the same
  // texts: each is parsed once. Keyed by the text, not the attribute, so
  // that nothing can outlive its context; per thread, as passes may run
  // on functions in parallel.
  thread_local llvm::StringMap<std::optional<AtenArgs>> parsed;
  if (parsed.size() > 100000) // a fuzzer's texts: no unbounded growth
    parsed.clear();
  auto [it, fresh] = parsed.try_emplace(attr.getValue());
  if (fresh)
    it->second = parseAtenArgs(attr.getValue());
  return it->second;
}

std::optional<llvm::StringRef>
conditionArgument(const aten::ArgumentCondition &condition,
                  const AtenArgs &args) {
  if (std::optional<llvm::StringRef> keyword = args.keyword(condition.argument))
    return keyword;
  if (!condition.keywordOnly && condition.position < args.positional.size())
    return llvm::StringRef(args.positional[condition.position]);
  return std::nullopt;
}

} // namespace coreai
