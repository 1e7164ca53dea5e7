//===- Printing.cpp - How the passes name IR in their output --------------===//
#include "Printing.h"

#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/Support/raw_ostream.h"

namespace coreai {

std::string locationString(mlir::Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    loc.print(os);
  return text;
}

} // namespace coreai
