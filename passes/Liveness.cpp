//===- Liveness.cpp - From a func.func to a BufferProblem -----------------===//
//
// One pass over the function body in program order. Every value that has
// memory belongs to a group: a root buffer and everything aliasing it
// (views) or, with in-place reuse, written over it. A group lives from its
// root's op to the last op using any of its values. Uses inside nested
// regions count at the enclosing top-level op. The rules and why they are
// sound are in docs/LIVENESS.md.
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"
#include "Effects.h"
#include "Kernels.h"
#include "OpClasses.h"
#include "Printing.h"
#include "ResultDtypes.h"
#include "Workspace.h"

#include "coreai-plan/Passes/PlanFunction.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace coreai {
namespace {

/// Where a group's bytes are.
enum class Storage {
  Heap,      ///< planned in the scratch heap
  Outside,   ///< function arguments, returned values, memrefs we do not own
  Constant,  ///< constant data
  Undefined, ///< tensor.empty: no bytes anyone may read
  Fused,     ///< read only inside the kernel that computes it: no bytes
};

struct Group {
  int64_t start = 0;
  int64_t end = 0; ///< one past the last op using any of its values
  int64_t size = 0;
  Storage storage = Storage::Heap;
  /// In-place reuse wrote this group's root over that group's bytes.
  int64_t mergedInto = -1;
  /// The function argument whose storage this is (its own group each).
  int64_t argument = -1;
  /// The result position whose storage holds this group's bytes: it is
  /// returned as itself or through a reshape, at exactly one position.
  int64_t output = -1;
  /// Returned at several positions or through several values: no one
  /// output storage holds it.
  bool outputShared = false;
  /// State placement put this group into that state argument's storage.
  int64_t stateArgument = -1;
  /// The first op after the root's own that uses the group (-1: none yet).
  int64_t firstUse = -1;
  /// The root is a fresh allocation of the function (not a global, an
  /// alloca or another memref it does not own).
  bool allocated = false;
  /// The kernel (index into FunctionKernels::kernels) whose op computes the
  /// root, or -1; whether any value of the group is read outside it.
  int kernel = -1;
  bool escapesKernel = false;
};

struct ValueInfo {
  unsigned group;
  bool isView;
  /// Element i of the value is element i of its group's bytes.
  bool keepsLayout;
};

class LivenessBuilder {
public:
  LivenessBuilder(func::FuncOp func, const LivenessOptions &options)
      : func(func), options(options) {}

  FailureOr<FunctionBuffers> run();

private:
  LogicalResult visitTopLevel(Operation *op, int64_t time);
  LogicalResult refuseMutation(Operation *op);
  void recordUses(Operation *op, int64_t time, int kernel);
  LogicalResult defineResults(Operation *op, int64_t time, int kernel);
  void markReturned(Operation *terminator);
  void keepInsideKernels();
  bool canOverwrite(Operation *op, unsigned operandIndex, int64_t time,
                    unsigned target) const;
  bool canOverwriteInKernel(llvm::ArrayRef<Operation *> ops, Value operand,
                            int64_t time, unsigned target) const;
  bool takesStorageOf(unsigned resultIndex, bool &intoHeap) const;
  void writeOver(unsigned resultIndex, unsigned target, bool intoHeap);
  void reuseInPlace(Operation *op, int64_t time);
  void reuseInKernel(llvm::ArrayRef<Operation *> ops, int64_t time);
  void reuseBufferInPlace(Operation *op, int64_t time);
  void placeInState(Operation *op, int64_t time,
                    llvm::ArrayRef<Operation *> kernelOps);
  std::vector<OutputBin> outputBins(Operation *terminator) const;
  FunctionBuffers buildProblem();

  unsigned newGroup(int64_t time, Storage storage, int64_t size = 0) {
    Group group;
    group.start = time;
    group.end = time + 1;
    group.size = size;
    group.storage = storage;
    groups.push_back(group);
    return groups.size() - 1;
  }
  unsigned find(unsigned group) const {
    while (groups[group].mergedInto >= 0)
      group = groups[group].mergedInto;
    return group;
  }
  const ValueInfo *lookup(Value value) const {
    auto it = info.find(value);
    return it == info.end() ? nullptr : &it->second;
  }

  func::FuncOp func;
  const LivenessOptions &options;
  FunctionKernels kernels;
  std::vector<Group> groups;
  llvm::DenseMap<Value, ValueInfo> info;
  /// Values with a group, in program order (roots before their views).
  std::vector<Value> defined;
};

LogicalResult LivenessBuilder::visitTopLevel(Operation *top, int64_t time) {
  // A kernel is one step: what its ops read is read until its last op,
  // what they write is written from its first.
  int kernel = kernels.kernelAt[time];
  int64_t useTime = kernels.stepEnd(time), defineTime = kernels.stepStart(time);
  // Pre-order, uses before definitions: a nested op's operands defined
  // earlier in the same region are known by the time it is visited.
  WalkResult walk = top->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (failed(refuseMutation(op)))
      return WalkResult::interrupt();
    recordUses(op, useTime, kernel);
    return failed(defineResults(op, defineTime, kernel))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// A write into an operand changes a value under its SSA name: every
/// reader's position relative to the write would matter, and the write
/// would land in whatever storage the operand has (an input, a weight, a
/// view's base). Graphs are planned functional; torch.export functionalises
/// in-place ops itself.
LogicalResult LivenessBuilder::refuseMutation(Operation *op) {
  OpEffects effects = effectsOf(op);
  if (!effects.mutates())
    return success();
  unsigned index = effects.mutated.front();
  Value operand = op->getOperand(index);
  std::string name;
  llvm::raw_string_ostream os(name);
  operand.printAsOperand(os, OpPrintingFlags());
  auto diag = op->emitError("'")
              << op->getName() << "' writes into its operand #" << index
              << " (" << name;
  if (auto argument = dyn_cast<BlockArgument>(operand);
      argument && argument.getOwner() == &func.getBody().front()) {
    auto kind = func.getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                                  "coreai.kind");
    diag << ", function argument #" << argument.getArgNumber();
    if (kind)
      diag << " of kind '" << kind.getValue() << "'";
  }
  diag << "): only functional graphs are planned; functionalise the "
          "exported program first (`ep = ep.run_decompositions()` turns "
          "in-place ops into functional ones and buffer mutations into "
          "state updates)";
  return failure();
}

void LivenessBuilder::recordUses(Operation *op, int64_t time, int kernel) {
  if (onlyFrees(op))
    return;
  bool renames = mayRenameMemRefs(op);
  for (Value operand : op->getOperands())
    if (const ValueInfo *used = lookup(operand)) {
      Group &group = groups[used->group];
      if (group.kernel != kernel)
        group.escapesKernel = true;
      group.end = std::max(group.end, time + 1);
      if (group.firstUse < 0 && time > group.start)
        group.firstUse = time;
      if (renames && isa<BaseMemRefType>(operand.getType()) &&
          group.storage == Storage::Heap)
        group.storage = Storage::Outside;
    }
}

LogicalResult LivenessBuilder::defineResults(Operation *op, int64_t time,
                                             int kernel) {
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
    Value result = op->getResult(i);
    FailureOr<ResultClass> cls = classifyResult(op, i);
    if (failed(cls))
      return failure();
    ValueInfo value{0, false, true};
    switch (cls->kind) {
    case ResultKind::Scalar:
      continue;
    case ResultKind::View: {
      const ValueInfo *source = lookup(cls->source);
      if (!source) // a block argument of a nested region: not ours to track
        continue;
      value = {source->group, true, cls->keepsLayout && source->keepsLayout};
      break;
    }
    case ResultKind::Buffer: {
      FailureOr<int64_t> size = byteSize(op, result);
      if (failed(size))
        return failure();
      // Sized as the target's kernel writes it, where that differs from
      // the graph's dtype (docs/WORKSPACE.md, "Result dtypes").
      if (options.resultDtypeRules)
        if (std::optional<int64_t> written = bytesOf(
                kernelTypeOf(op, i, *options.resultDtypeRules)))
          size = *written;
      value.group = newGroup(time, Storage::Heap, *size);
      groups[value.group].allocated = true;
      groups[value.group].kernel = kernel;
      break;
    }
    case ResultKind::Constant:
      value.group = newGroup(time, Storage::Constant);
      break;
    case ResultKind::NoStorage:
      value.group = newGroup(time, Storage::Undefined);
      break;
    case ResultKind::Unplanned:
      value.group = newGroup(time, Storage::Outside);
      break;
    }
    info.try_emplace(result, value);
    defined.push_back(result);
  }
  return success();
}

void LivenessBuilder::markReturned(Operation *terminator) {
  for (OpOperand &returned : terminator->getOpOperands()) {
    const ValueInfo *value = lookup(returned.get());
    if (!value)
      continue;
    Group &group = groups[value->group];
    group.escapesKernel = true;
    if (group.argument >= 0 || group.storage == Storage::Constant ||
        group.storage == Storage::Undefined)
      continue;
    if (!options.outputsInHeap && group.storage == Storage::Heap)
      group.storage = Storage::Outside;
    // The output's storage holds the group's bytes in order only when the
    // value is the group's root (or an in-place result over it) or a
    // reshape of it; a slice or permutation is copied out by the runtime.
    bool sameBytes = value->keepsLayout &&
                     bytesOf(returned.get().getType()) == group.size;
    if (!sameBytes || group.output >= 0)
      group.outputShared = true;
    else if (!group.outputShared)
      group.output = returned.getOperandNumber();
  }
}

/// Whether `op` may write its result over the group `target` that its
/// operand `operandIndex` reads: nothing reads the group after this op and
/// no other operand (nor anything in the op's regions) reads it here.
bool LivenessBuilder::canOverwrite(Operation *op, unsigned operandIndex,
                                   int64_t time, unsigned target) const {
  Value operand = op->getOperand(operandIndex);
  const ValueInfo *source = lookup(operand);
  if (!source || !source->keepsLayout)
    return false; // a slice or permutation would be overwritten out of order
  if (groups[target].end != time + 1)
    return false; // read later
  bool sharedWithOtherOperand = false;
  op->walk([&](Operation *nested) {
    for (OpOperand &other : nested->getOpOperands())
      if (nested != op || other.getOperandNumber() != operandIndex)
        if (const ValueInfo *otherInfo = lookup(other.get()))
          sharedWithOtherOperand |= find(otherInfo->group) == target;
  });
  return !sharedWithOtherOperand;
}

/// The result of an elementwise op takes over an operand's buffer when
/// nothing reads that buffer after this op: the kernel reads element i
/// before it writes element i, and no other reader remains. With output
/// placement, a returned result instead pulls the dying operand's buffer
/// (the whole chain that built it) into its output's storage.
void LivenessBuilder::reuseInPlace(Operation *op, int64_t time) {
  llvm::SmallVector<unsigned, 2> candidates;
  if (options.inPlace)
    candidates = inPlaceOperands(op);
  if (options.inPlaceSoftmax && candidates.empty())
    candidates = softmaxInPlaceOperands(op);
  if (candidates.empty())
    return;
  const ValueInfo *result = lookup(op->getResult(0));
  if (!result || result->isView)
    return;
  bool intoHeap = false;
  if (!takesStorageOf(result->group, intoHeap))
    return;
  for (unsigned index : candidates) {
    const ValueInfo *source = lookup(op->getOperand(index));
    if (!source)
      continue;
    unsigned target = find(source->group);
    if (groups[target].storage != Storage::Heap ||
        groups[target].size != groups[result->group].size ||
        !canOverwrite(op, index, time, target))
      continue; // an argument, an output, another size, or read later
    return writeOver(result->group, target, intoHeap);
  }
}

/// Whether the group of a result may be written over a dying operand's
/// storage: it is in the heap, or (output placement) it is an output's
/// own value. `intoHeap` says which.
bool LivenessBuilder::takesStorageOf(unsigned resultIndex,
                                     bool &intoHeap) const {
  const Group &resultGroup = groups[resultIndex];
  intoHeap = resultGroup.storage == Storage::Heap;
  bool intoOutput = options.outputPlacement &&
                    resultGroup.storage == Storage::Outside &&
                    resultGroup.output >= 0 && !resultGroup.outputShared &&
                    resultGroup.stateArgument < 0;
  return (intoHeap || intoOutput) && resultGroup.size != 0;
}

/// The result's group is written over `target`'s bytes: in the heap it
/// joins the operand's buffer; as an output it pulls the operand's buffer
/// (the whole chain that built it) into the output's storage.
void LivenessBuilder::writeOver(unsigned resultIndex, unsigned target,
                                bool intoHeap) {
  Group &resultGroup = groups[resultIndex];
  Group &targetGroup = groups[target];
  if (intoHeap) {
    resultGroup.mergedInto = target;
    targetGroup.end = std::max(targetGroup.end, resultGroup.end);
  } else {
    targetGroup.mergedInto = resultIndex;
    resultGroup.start = std::min(resultGroup.start, targetGroup.start);
  }
}

/// A kernel's result over one of its operands (the kernel in-place rule,
/// kernelInPlaceOperands): the operand dies with the kernel, and the
/// kernel reads its buffer through that operand only.
bool LivenessBuilder::canOverwriteInKernel(llvm::ArrayRef<Operation *> ops,
                                           Value operand, int64_t time,
                                           unsigned target) const {
  const ValueInfo *source = lookup(operand);
  if (!source || !source->keepsLayout || groups[target].end != time + 1)
    return false;
  for (Operation *op : ops) {
    bool otherRead = false;
    op->walk([&](Operation *nested) {
      for (Value other : nested->getOperands())
        if (other != operand)
          if (const ValueInfo *otherInfo = lookup(other))
            otherRead |= find(otherInfo->group) == target;
    });
    if (otherRead)
      return false;
  }
  return true;
}

/// In-place reuse for a kernel of several ops, at its last op (`time`).
void LivenessBuilder::reuseInKernel(llvm::ArrayRef<Operation *> ops,
                                    int64_t time) {
  if (!options.inPlace)
    return;
  KernelInPlaceRule rule(ops, options.kernelsInIrOrder);
  for (Operation *op : ops)
    for (Value value : op->getResults()) {
      const ValueInfo *result = lookup(value);
      bool intoHeap = false;
      if (!result || result->isView ||
          !takesStorageOf(result->group, intoHeap))
        continue;
      for (Value operand : rule.operandsFor(value)) {
        const ValueInfo *source = lookup(operand);
        if (!source)
          continue;
        unsigned target = find(source->group);
        if (target == find(result->group) ||
            groups[target].storage != Storage::Heap ||
            groups[target].size != groups[result->group].size ||
            !canOverwriteInKernel(ops, operand, time, target))
          continue;
        writeOver(result->group, target, intoHeap);
        break;
      }
    }
}

/// A value computed inside a kernel and read by no op outside it (nor
/// returned) never leaves the kernel: it needs no bytes of the plan.
void LivenessBuilder::keepInsideKernels() {
  for (Group &group : groups)
    if (group.kernel >= 0 && !group.escapesKernel &&
        group.storage == Storage::Heap && group.mergedInto < 0)
      group.storage = Storage::Fused;
}

/// The memref form of in-place reuse: a linalg op writing a fresh
/// allocation (this op is the first to touch it) elementwise from an input
/// buffer that dies here writes into that input's bytes instead; the
/// allocation joins the input's buffer.
void LivenessBuilder::reuseBufferInPlace(Operation *op, int64_t time) {
  std::optional<BufferInPlace> candidates = inPlaceBufferOperands(op);
  if (!candidates)
    return;
  const ValueInfo *init = lookup(op->getOperand(candidates->init));
  if (!init || !init->keepsLayout)
    return;
  unsigned written = find(init->group);
  Group &writtenGroup = groups[written];
  if (writtenGroup.storage != Storage::Heap || writtenGroup.firstUse != time)
    return; // not a fresh allocation first written here
  for (unsigned index : candidates->inputs) {
    const ValueInfo *source = lookup(op->getOperand(index));
    if (!source)
      continue;
    unsigned target = find(source->group);
    Group &targetGroup = groups[target];
    if (target == written || targetGroup.storage != Storage::Heap ||
        targetGroup.size != writtenGroup.size ||
        !canOverwrite(op, index, time, target))
      continue;
    writtenGroup.mergedInto = target;
    targetGroup.end = std::max(targetGroup.end, writtenGroup.end);
    return;
  }
}

/// A functional update of a state argument (`index_put(state, ...)`, an
/// elementwise op over it) returned as that state's `state_update` writes
/// into the state's own storage when the old value dies at the update: the
/// runtime binds the update to the same buffer, so it needs neither a heap
/// buffer nor an output of its own.
void LivenessBuilder::placeInState(Operation *op, int64_t time,
                                   llvm::ArrayRef<Operation *> kernelOps) {
  if (op->getNumResults() != 1)
    return;
  const ValueInfo *result = lookup(op->getResult(0));
  if (!result || result->isView)
    return;
  Group &resultGroup = groups[result->group];
  if (resultGroup.output < 0 || resultGroup.outputShared ||
      resultGroup.mergedInto >= 0)
    return;
  auto updated = func.getResultAttrOfType<StringAttr>(resultGroup.output,
                                                      "coreai.name");
  auto kind = func.getResultAttrOfType<StringAttr>(resultGroup.output,
                                                   "coreai.kind");
  if (!updated || !kind || kind.getValue() != "state_update")
    return;
  for (unsigned index : stateUpdateOperands(op)) {
    auto state = dyn_cast<BlockArgument>(op->getOperand(index));
    if (!state || state.getOwner() != &func.getBody().front())
      continue;
    unsigned argument = state.getArgNumber();
    auto stateKind = func.getArgAttrOfType<StringAttr>(argument, "coreai.kind");
    auto stateName = func.getArgAttrOfType<StringAttr>(argument, "coreai.name");
    if (!stateKind || stateKind.getValue() != "state" || stateName != updated)
      continue;
    unsigned target = find(lookup(state)->group);
    // Inside a kernel the kernel's own in-place rule decides too, as the
    // replay checks it: the op's rule alone let a copy_ whose source has
    // more elements than the state (a malformed graph) write over it.
    if (!canOverwrite(op, index, time, target) ||
        (!kernelOps.empty() &&
         (!llvm::is_contained(kernelInPlaceOperands(kernelOps, op->getResult(0),
                                                options.kernelsInIrOrder),
                              Value(state)) ||
          !canOverwriteInKernel(kernelOps, state, time, target))))
      continue; // read later, or by another op of its kernel
    if (resultGroup.storage == Storage::Heap)
      resultGroup.storage = Storage::Outside; // outputs-in-heap: now none
    resultGroup.stateArgument = argument;
    resultGroup.output = -1;
    groups[target].end = std::max(groups[target].end, resultGroup.end);
    return;
  }
}

/// The outputs whose storage holds a returned value the function writes
/// there itself (a fresh result, not an argument, a constant, a global or
/// a copy): before that value's
/// first write (the start of its group, chain included) nothing the caller
/// will read is in those bytes.
std::vector<OutputBin>
LivenessBuilder::outputBins(Operation *terminator) const {
  std::vector<OutputBin> bins;
  for (OpOperand &returned : terminator->getOpOperands()) {
    const ValueInfo *value = lookup(returned.get());
    if (!value)
      continue;
    unsigned root = find(value->group);
    const Group &group = groups[root];
    unsigned position = returned.getOperandNumber();
    // Only storage the function itself fills: a returned global or alloca
    // may be what the runtime binds the output to.
    if (group.storage != Storage::Outside || !group.allocated ||
        group.argument >= 0 || group.stateArgument >= 0 || group.outputShared ||
        group.output != int64_t(position) || group.size == 0)
      continue;
    std::optional<int64_t> bytes = bytesOf(returned.get().getType());
    if (!bytes || *bytes != group.size)
      continue;
    bins.push_back({position, *bytes, group.start});
  }
  return bins;
}

FunctionBuffers LivenessBuilder::buildProblem() {
  FunctionBuffers out;
  std::vector<int64_t> bufferOfGroup(groups.size(), -1);
  for (unsigned g = 0; g < groups.size(); ++g) {
    const Group &group = groups[g];
    if (group.mergedInto >= 0 || group.storage != Storage::Heap ||
        group.size == 0)
      continue; // zero-size tensors need no bytes and are left out
    bufferOfGroup[g] = out.problem.buffers.size();
    Buffer buffer;
    buffer.start = group.start;
    buffer.end = group.end;
    buffer.size = group.size;
    buffer.alignment = options.alignment;
    out.problem.buffers.push_back(buffer);
  }
  size_t count = out.problem.buffers.size();
  out.values.resize(count);
  out.owners.assign(count, 0);
  out.origins.resize(count);
  // Owners (roots, then in-place results) first, then views.
  for (bool views : {false, true})
    for (Value value : defined) {
      const ValueInfo &valueInfo = info.find(value)->second;
      int64_t b = bufferOfGroup[find(valueInfo.group)];
      if (b < 0 || valueInfo.isView != views)
        continue;
      out.values[b].push_back(value);
      if (views)
        ++out.origins[b].viewCount;
      else
        ++out.owners[b];
    }

  // Ids are the roots' SSA names as the printer spells them (names only:
  // no second verification of the function).
  AsmState asmState(func, OpPrintingFlags().assumeVerified());
  llvm::StringSet<> ids;
  for (size_t b = 0; b < count; ++b) {
    Value root = out.values[b].front();
    std::string name;
    llvm::raw_string_ostream os(name);
    root.printAsOperand(os, asmState);
    std::string id = name;
    for (int suffix = 1; !ids.insert(id).second; ++suffix)
      id = name + "." + std::to_string(suffix);
    out.problem.buffers[b].id = id;
    BufferOrigin &origin = out.origins[b];
    origin.value = name;
    origin.op = root.getDefiningOp()->getName().getStringRef().str();
    origin.location = locationString(root.getLoc());
  }
  out.kernels = kernels.kernels.size();
  for (Value value : defined) {
    const ValueInfo &valueInfo = info.find(value)->second;
    const Group &group = groups[find(valueInfo.group)];
    if (!valueInfo.isView && group.storage == Storage::Fused) {
      out.fused.push_back({value, kernels.kernels[group.kernel].id});
      out.fusedBytes += group.size;
    }
  }
  for (Value value : defined) {
    const ValueInfo &valueInfo = info.find(value)->second;
    const Group &group = groups[find(valueInfo.group)];
    if (valueInfo.isView || group.storage != Storage::Outside)
      continue;
    if (group.stateArgument >= 0)
      out.external.push_back({value, true, unsigned(group.stateArgument)});
    else if ((options.outputPlacement ||
              (options.borrowOutputs && group.allocated)) &&
             group.output >= 0 && !group.outputShared)
      // With borrowing, the value written into an output's storage is
      // named as such, so the replay writes it over what was borrowed.
      out.external.push_back({value, false, unsigned(group.output)});
  }
  return out;
}

FailureOr<FunctionBuffers> LivenessBuilder::run() {
  // Front ends check the user's value (checkPlanOptions).
  assert(isValidAlignment(options.alignment) && "alignment not checked");
  if (func.isDeclaration())
    return func.emitError("@") << func.getSymName()
                               << " is a declaration: nothing to plan";
  if (!func.getBody().hasOneBlock())
    return func.emitError("@")
           << func.getSymName() << " has "
           << func.getBody().getBlocks().size()
           << " blocks: only single-block functions are planned (structured "
              "control flow only)";

  if (failed(checkStateBindings(func)))
    return failure();
  FailureOr<FunctionKernels> read = readKernels(func);
  if (failed(read))
    return failure();
  kernels = std::move(*read);
  Block &body = func.getBody().front();
  // One group per argument: state placement needs to know when each dies.
  for (BlockArgument argument : body.getArguments()) {
    unsigned group = newGroup(0, Storage::Outside);
    groups[group].argument = argument.getArgNumber();
    info.try_emplace(argument, ValueInfo{group, false, true});
  }

  std::vector<Operation *> order;
  for (Operation &op : body)
    order.push_back(&op);
  for (size_t time = 0; time < order.size(); ++time)
    if (failed(visitTopLevel(order[time], time)))
      return failure();
  Operation *terminator =
      !order.empty() && order.back()->hasTrait<OpTrait::IsTerminator>()
          ? order.back()
          : nullptr;
  if (terminator)
    markReturned(terminator);
  keepInsideKernels();
  std::vector<llvm::SmallVector<Operation *, 4>> opsOfKernel =
      kernelOps(func, kernels);
  // Program order: a chain's earlier links have merged by the time a later
  // op asks whether its operand's buffer dies there.
  for (size_t time = 0; time < order.size(); ++time) {
    int kernel = kernels.kernelAt[time];
    int64_t end = kernels.stepEnd(time);
    if (options.statePlacement)
      placeInState(order[time], end,
                   kernel >= 0 ? llvm::ArrayRef<Operation *>(
                                     opsOfKernel[kernel])
                               : llvm::ArrayRef<Operation *>());
    if (kernel >= 0) {
      if (int64_t(time) == end)
        reuseInKernel(opsOfKernel[kernel], end);
      continue;
    }
    if (options.inPlace || options.inPlaceSoftmax)
      reuseInPlace(order[time], time);
    if (options.inPlace)
      reuseBufferInPlace(order[time], time);
  }
  FunctionBuffers buffers = buildProblem();
  if (options.workspace && options.workspaceRules &&
      failed(addWorkspaces(func, kernels, *options.workspaceRules,
                           options.alignment, buffers)))
    return failure();
  if (options.borrowOutputs && !options.outputsInHeap && terminator)
    buffers.bins = outputBins(terminator);
  return buffers;
}

} // namespace

FailureOr<FunctionBuffers> computeBuffers(func::FuncOp func,
                                          const LivenessOptions &options) {
  return LivenessBuilder(func, options).run();
}

} // namespace coreai
