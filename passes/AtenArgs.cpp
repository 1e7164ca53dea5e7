//===- AtenArgs.cpp - Reading an exported op's `coreai.args` --------------===//
#include "AtenArgs.h"

#include "coreai-plan/Dialect/CoreAI.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace coreai {

std::optional<AtenArgs> atenArgsOf(mlir::Operation *op, bool *present) {
  auto attr = op->getAttrOfType<mlir::StringAttr>(attr::args);
  if (present)
    *present = attr != nullptr;
  if (!attr)
    return std::nullopt;
  return parseAtenArgs(attr.getValue());
}

} // namespace coreai
