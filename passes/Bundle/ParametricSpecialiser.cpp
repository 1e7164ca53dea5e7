//===- ParametricSpecialiser.cpp - A function at one S, in one op order ---===//
#include "ParametricSpecialiser.h"

#include "coreai-plan/Passes/Reorder.h"

#include "llvm/Support/FormatVariadic.h"

namespace coreai {

mlir::func::FuncOp Specialiser::unboundClone(llvm::StringRef name) const {
  mlir::func::FuncOp clone = source.clone();
  clone.setSymName(name);
  planned.push_back(clone);
  clone->setAttr("coreai.entry", mlir::Builder(clone.getContext())
                                     .getStringAttr(source.getSymName()));
  return clone;
}

mlir::LogicalResult Specialiser::bind(mlir::func::FuncOp clone,
                                      int64_t s) const {
  clone->setAttr("coreai.seq_len",
                 mlir::Builder(clone.getContext()).getI64IntegerAttr(s));
  SymbolBindings bindings = job.bindings;
  bindings[symbol] = s;
  return specializeShapes(clone, bindings);
}

mlir::FailureOr<mlir::func::FuncOp>
Specialiser::cloneAt(int64_t s, llvm::StringRef name) const {
  mlir::func::FuncOp clone = unboundClone(name);
  if (mlir::failed(bind(clone, s))) {
    clone.erase();
    return mlir::failure();
  }
  return clone;
}

Specialiser::Rebindable Specialiser::rebindable(llvm::StringRef name) const {
  Rebindable clone;
  clone.func = unboundClone(name);
  clone.type = clone.func.getFunctionType();
  for (mlir::BlockArgument argument : clone.func.getArguments())
    clone.types.emplace_back(argument, argument.getType());
  clone.func.walk([&](mlir::Operation *op) {
    for (mlir::Value result : op->getResults())
      clone.types.emplace_back(result, result.getType());
  });
  order(clone.func);
  return clone;
}

mlir::LogicalResult Specialiser::rebind(Rebindable &clone, int64_t s) const {
  for (auto &[value, type] : clone.types)
    value.setType(type);
  clone.func.setFunctionType(clone.type);
  return bind(clone.func, s);
}

llvm::Error sameBuffers(const FunctionBuffers &reference,
                        const FunctionBuffers &other) {
  if (reference.bins.size() != other.bins.size())
    return llvm::createStringError(
        llvm::formatv("{0} outputs are lent instead of {1}", other.bins.size(),
                      reference.bins.size()));
  for (size_t k = 0; k < reference.bins.size(); ++k)
    if (reference.bins[k].output != other.bins[k].output ||
        reference.bins[k].availableUntil != other.bins[k].availableUntil)
      return llvm::createStringError(
          llvm::formatv("output {0} is available until op {1} instead of {2}",
                        other.bins[k].output, other.bins[k].availableUntil,
                        reference.bins[k].availableUntil));
  const auto &a = reference.problem.buffers, &b = other.problem.buffers;
  if (a.size() != b.size())
    return llvm::createStringError(
        llvm::formatv("{0} buffers instead of {1}", b.size(), a.size()));
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].id != b[i].id || a[i].start != b[i].start ||
        a[i].end != b[i].end || a[i].alignment != b[i].alignment ||
        reference.origins[i].value != other.origins[i].value ||
        reference.owners[i] != other.owners[i])
      return llvm::createStringError(
          llvm::formatv("buffer {0} ({1}) is not the same buffer", a[i].id,
                        reference.origins[i].value));
  }
  return llvm::Error::success();
}


} // namespace coreai
