//===- PlanRecords.cpp - What a plan records for the manifest -------------===//
#include "PlanRecords.h"

#include "Kernels.h"
#include "Printing.h"

#include "coreai-plan/Dialect/CoreAI.h"

#include "mlir/IR/AsmState.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace coreai {

/// The kernels of `func` as the manifest lists them: each kernel's ops,
/// the values that stay inside it and the planned buffers it writes.
std::vector<PlannedEntry::Kernel> kernelRecords(func::FuncOp func,
                                               const FunctionBuffers &buffers) {
  std::vector<PlannedEntry::Kernel> records;
  FailureOr<FunctionKernels> kernels = readKernels(func);
  if (failed(kernels) || kernels->empty())
    return records;
  llvm::DenseMap<int64_t, size_t> recordOf; // kernel id -> record
  for (const llvm::SmallVector<Operation *, 4> &ops : kernelOps(func, *kernels)) {
    PlannedEntry::Kernel record;
    record.id = *kernelOf(ops.front());
    record.ops = ops.size();
    record.firstOp = ops.front()->getName().getStringRef().str();
    record.lastOp = ops.back()->getName().getStringRef().str();
    record.location = locationString(ops.back()->getLoc());
    recordOf[record.id] = records.size();
    records.push_back(std::move(record));
  }
  AsmState state(func, OpPrintingFlags().assumeVerified());
  for (const FunctionBuffers::Fused &fused : buffers.fused) {
    auto found = recordOf.find(fused.kernel);
    if (found == recordOf.end())
      continue;
    PlannedEntry::Kernel &record = records[found->second];
    BufferOrigin origin;
    llvm::raw_string_ostream os(origin.value);
    fused.value.printAsOperand(os, state);
    Operation *op = fused.value.getDefiningOp();
    origin.op = op->getName().getStringRef().str();
    origin.location = locationString(op->getLoc());
    record.fused.push_back(std::move(origin));
    int64_t bytes = bytesOf(fused.value.getType()).value_or(0);
    record.fusedSizes.push_back(bytes);
    record.fusedBytes += bytes;
  }
  for (size_t b = 0; b < buffers.values.size(); ++b)
    for (unsigned owner = 0; owner < buffers.owners[b]; ++owner)
      if (Operation *op = buffers.values[b][owner].getDefiningOp())
        if (std::optional<int64_t> id = kernelOf(op))
          if (auto found = recordOf.find(*id); found != recordOf.end()) {
            std::vector<int64_t> &writes = records[found->second].writes;
            if (writes.empty() || writes.back() != int64_t(b))
              writes.push_back(b);
          }
  return records;
}

/// The values output and state placement put into storage the runtime
/// binds, described for the manifest.
std::vector<PlannedEntry::Placed> placedValues(func::FuncOp func,
                                               const FunctionBuffers &buffers) {
  std::vector<PlannedEntry::Placed> placed;
  if (buffers.external.empty())
    return placed;
  // Only the values' names are needed: the function was verified when
  // it was parsed, and verifying it again here is one more walk (with
  // every exporter string parsed) per plan.
  AsmState state(func, OpPrintingFlags().assumeVerified());
  // Time is the op's position in the body (docs/ARCHITECTURE.md).
  Block &body = func.getBody().front();
  llvm::DenseMap<Operation *, int64_t> position;
  for (Operation &op : body)
    position.try_emplace(&op, int64_t(position.size()));
  for (const FunctionBuffers::External &value : buffers.external) {
    auto result = dyn_cast<OpResult>(value.value);
    std::optional<int64_t> bytes = bytesOf(value.value.getType());
    if (!result || !bytes || *bytes == 0)
      continue;
    Operation *top = body.findAncestorOpInBlock(*result.getOwner());
    PlannedEntry::Placed entry;
    std::string name;
    llvm::raw_string_ostream os(name);
    value.value.printAsOperand(os, state);
    entry.origin.value = name;
    entry.origin.op = result.getOwner()->getName().getStringRef().str();
    entry.origin.location = locationString(result.getOwner()->getLoc());
    entry.size = *bytes;
    entry.inState = value.inState;
    entry.index = value.index;
    entry.start = top ? position.lookup(top) : 0;
    entry.end = int64_t(position.size());
    placed.push_back(std::move(entry));
  }
  // A chain in one storage: each value until the op writing the next one
  // over it starts, so that no two values of the storage are live at once.
  for (PlannedEntry::Placed &value : placed)
    for (const PlannedEntry::Placed &next : placed)
      if (next.inState == value.inState && next.index == value.index &&
          next.start > value.start && next.start < value.end)
        value.end = next.start;
  return placed;
}

} // namespace coreai
