//===- ParametricSpecialiser.cpp - A function at one S, in one op order ---===//
#include "ParametricSpecialiser.h"

#include "coreai-plan/Passes/Reorder.h"

#include "../Printing.h"

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

namespace {

/// An op as a message names it, and as it is matched across two clones:
/// its name and source location (a clone's ops keep both).
std::string describe(mlir::Operation *op) {
  return llvm::formatv("'{0}' at {1}", op->getName(),
                       locationString(op->getLoc()))
      .str();
}

/// The first of `ours` that `theirs` lacks.
std::optional<std::string> firstMissing(const std::vector<std::string> &ours,
                                        const std::vector<std::string> &theirs) {
  for (const std::string &op : ours)
    if (!llvm::is_contained(theirs, op))
      return op;
  return std::nullopt;
}

/// Why two clones have other buffers, in the terms a user can act on: a
/// workspace the target's rules give at one S only, a value fusion keeps
/// inside a kernel at one S only, or else the first buffer one has alone.
std::string whatDiffers(const FunctionBuffers &reference,
                        const FunctionBuffers &other) {
  // Only the origins' strings: the reference's clone may be gone.
  auto workspaceOps = [](const FunctionBuffers &buffers) {
    std::vector<std::string> ops;
    for (const FunctionBuffers::Workspace &workspace : buffers.workspaces) {
      const BufferOrigin &origin = buffers.origins[workspace.buffer];
      ops.push_back(llvm::formatv("the step ending at '{0}' at {1}",
                                  origin.op, origin.location));
    }
    return ops;
  };
  auto bufferOps = [](const FunctionBuffers &buffers) {
    std::vector<std::string> ops;
    for (const BufferOrigin &origin : buffers.origins)
      ops.push_back(llvm::formatv("'{0}' at {1}", origin.op, origin.location));
    return ops;
  };
  auto oneSide = [](const std::vector<std::string> &here,
                    const std::vector<std::string> &there,
                    llvm::StringRef what) -> std::optional<std::string> {
    if (auto op = firstMissing(here, there))
      return llvm::formatv("{0} {1} at this S, not at the reference S", *op,
                           what)
          .str();
    if (auto op = firstMissing(there, here))
      return llvm::formatv("{0} {1} at the reference S, not at this S", *op,
                           what)
          .str();
    return std::nullopt;
  };
  if (auto why = oneSide(workspaceOps(other), workspaceOps(reference),
                         "has a workspace (the target's workspace rules "
                         "depend on S)"))
    return *why;
  if (other.fused.size() != reference.fused.size()) {
    std::string here;
    if (!other.fused.empty())
      here = ", the first " + describe(other.fused.front().value.getDefiningOp());
    return llvm::formatv("{0} values stay inside fused kernels at this S{1}, "
                         "{2} at the reference S (fusion depends on S)",
                         other.fused.size(), here, reference.fused.size());
  }
  if (auto why = oneSide(bufferOps(other), bufferOps(reference),
                         "has a buffer of its own (reuse depends on S)"))
    return *why;
  return "the same ops, grouped otherwise";
}

} // namespace

llvm::Error sameBuffers(const FunctionBuffers &reference,
                        const FunctionBuffers &other) {
  if (reference.bins.size() != other.bins.size())
    return llvm::createStringError(
        llvm::formatv("{0} outputs are lent instead of {1} (reuse depends on "
                      "S)",
                      other.bins.size(), reference.bins.size()));
  for (size_t k = 0; k < reference.bins.size(); ++k)
    if (reference.bins[k].output != other.bins[k].output ||
        reference.bins[k].availableUntil != other.bins[k].availableUntil)
      return llvm::createStringError(
          llvm::formatv("output {0} is available until op {1} instead of {2} "
                        "(reuse depends on S)",
                        other.bins[k].output, other.bins[k].availableUntil,
                        reference.bins[k].availableUntil));
  const auto &a = reference.problem.buffers, &b = other.problem.buffers;
  if (a.size() != b.size() || reference.fused.size() != other.fused.size())
    return llvm::createStringError(
        llvm::formatv("{0} buffers instead of {1}: {2}", b.size(), a.size(),
                      whatDiffers(reference, other)));
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].id != b[i].id || a[i].start != b[i].start ||
        a[i].end != b[i].end || a[i].alignment != b[i].alignment ||
        reference.origins[i].value != other.origins[i].value ||
        reference.owners[i] != other.owners[i])
      return llvm::createStringError(
          llvm::formatv("buffer {0} ({1} of '{2}' at {3}) is not the same "
                        "buffer (its live range or reuse depends on S)",
                        a[i].id, reference.origins[i].value,
                        reference.origins[i].op, reference.origins[i].location));
  }
  return llvm::Error::success();
}


} // namespace coreai
