//===- ReplayProgram.cpp - A replay program from an annotated function ----===//
//
// Builds the replay program (coreai-plan/Replay.h) of a planned function
// from the IR alone, and checks on the way what needs no shadow: sizes
// recomputed from the types, offsets aligned, one place per intermediate,
// returned values and state updates in the storage the runtime reads.
// Nothing the planner computed is trusted that can be computed again: not
// `coreai.sizes`, not `coreai.in_place` (which operand a result may be
// written over comes from the op class), not the live ranges.
//
//===----------------------------------------------------------------------===//
#include "Effects.h"
#include "Kernels.h"
#include "OpClasses.h"
#include "Printing.h"

#include "coreai-plan/Dialect/CoreAI.h"
#include "coreai-plan/Options.h"
#include "coreai-plan/Passes/VerifyReplay.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace coreai {
namespace {

/// The function's return op: its last op when that is a terminator (an
/// unregistered op may end a block too; it returns nothing).
Operation *returnOf(func::FuncOp func) {
  Block &body = func.getBody().front();
  if (body.empty() || !body.back().hasTrait<OpTrait::IsTerminator>())
    return nullptr;
  return &body.back();
}

/// What the replay knows of a value beyond replay::Value.
struct ValueFacts {
  unsigned root;    ///< the value whose bytes these are (through views)
  bool keepsLayout; ///< element i is element i of the root's bytes
};

class ProgramBuilder {
public:
  /// Without `named`, values and steps have no names (their messages name
  /// none): naming them walks and verifies the whole function, which was
  /// most of a replay that passes (a parametric plan replays every S).
  ProgramBuilder(func::FuncOp func, const ReplayOptions &options,
                 bool named = true)
      : func(func), options(options), named(named) {}

  /// The program, or a violation found without running it (in
  /// `violation`), or failure when the annotations do not fit the IR.
  FailureOr<replay::Program> build(std::optional<std::string> &violation);

private:
  LogicalResult addArguments();
  LogicalResult addStep(llvm::ArrayRef<Operation *> ops);
  LogicalResult define(Operation *op, unsigned index, replay::Step &step);
  std::optional<replay::Location> locate(Operation *op, Value value,
                                         int64_t bytes,
                                         const Placement &placement);
  void addOverwritable(Operation *op, replay::Step &step);
  void addWorkspace(Operation *op, const Placement &workspace,
                    replay::Step &step);
  Placement placementOfResult(Operation *op, unsigned index) const;
  std::optional<Placement> workspaceOf(Operation *op) const;
  void addFirstWrites(Operation *top, replay::Step &step,
                      llvm::SetVector<unsigned> &reads);
  void checkPlaceless();
  void checkReturned();
  unsigned outputStorage(unsigned position);
  unsigned addStorage(std::string name, int64_t size, bool writable) {
    program.storages.push_back({std::move(name), size, writable});
    return program.storages.size() - 1;
  }
  unsigned addValue(Value value, replay::Location at,
                    std::optional<unsigned> writer = std::nullopt,
                    std::optional<ValueFacts> viewOf = std::nullopt) {
    unsigned id = program.values.size();
    program.values.push_back({nameOf(value), at, writer ? *writer : id});
    facts.push_back(viewOf ? *viewOf : ValueFacts{id, true});
    ids[value] = id;
    return id;
  }
  std::string nameOf(Value value) {
    if (!named)
      return std::string();
    if (!names)
      names.emplace(func);
    std::string text;
    llvm::raw_string_ostream os(text);
    value.printAsOperand(os, *names);
    return text;
  }
  /// Records the first violation (later ones are consequences or noise).
  void violate(Operation *op, const llvm::Twine &what) {
    if (violation)
      return;
    violation = op ? llvm::formatv("'{0}' at {1}: {2}", op->getName(),
                                   locationString(op->getLoc()), what.str())
                         .str()
                   : what.str();
  }

  func::FuncOp func;
  const ReplayOptions &options;
  bool named;
  std::optional<AsmState> names;
  replay::Program program;
  std::vector<ValueFacts> facts;
  llvm::DenseMap<Value, unsigned> ids;
  /// Storage index of output k, created on first use.
  llvm::DenseMap<unsigned, unsigned> outputs;
  /// Storage index of each sized argument.
  llvm::DenseMap<unsigned, unsigned> argumentStorage;
  /// Argument storages some result is placed into (coreai.state).
  llvm::SetVector<unsigned> statesWritten;
  /// Fresh allocations (memref.alloc) not yet written: their bytes become
  /// theirs at the first op that writes them, not at the allocation.
  llvm::DenseSet<unsigned> unwritten;
  /// Results outside the heap with no place named, with their ops.
  std::vector<std::pair<Operation *, unsigned>> placeless;
  /// Values (roots) that stay inside a kernel (#coreai.fused), by kernel.
  llvm::DenseMap<unsigned, int64_t> fusedIn;
  int64_t alignment = 1;
  std::optional<std::string> violation;
};

/// Result `index`'s placement: from the plan handed over, else from the
/// op's coreai.placement.
Placement ProgramBuilder::placementOfResult(Operation *op,
                                            unsigned index) const {
  if (!options.placements)
    return placementOf(op, index);
  auto found = options.placements->results.find(op);
  if (found == options.placements->results.end() ||
      index >= found->second.size())
    return Placement();
  return found->second[index];
}

/// The op's workspace: from the plan handed over, else from its
/// coreai.workspace (the dialect refuses a malformed one when a file is
/// parsed).
std::optional<Placement> ProgramBuilder::workspaceOf(Operation *op) const {
  if (options.placements) {
    auto found = options.placements->workspaces.find(op);
    if (found == options.placements->workspaces.end())
      return std::nullopt;
    return found->second;
  }
  if (Attribute workspace = op->getAttr(attr::workspace))
    return placementFrom(workspace);
  return std::nullopt;
}

LogicalResult ProgramBuilder::addArguments() {
  for (BlockArgument argument : func.getArguments()) {
    std::optional<int64_t> bytes = bytesOf(argument.getType());
    if (!bytes || *bytes == 0)
      continue; // scalars live in registers
    unsigned index = argument.getArgNumber();
    auto kind = func.getArgAttrOfType<StringAttr>(index, attr::kind);
    auto name = func.getArgAttrOfType<StringAttr>(index, attr::name);
    std::string label = "argument " + std::to_string(index);
    if (name)
      label += " (" + name.getValue().str() + ")";
    bool writable = kind && kind.getValue() == "state";
    unsigned storage = addStorage(label, *bytes, writable);
    argumentStorage[index] = storage;
    program.initial.push_back(addValue(argument, {storage, 0, *bytes}));
  }
  return success();
}

unsigned ProgramBuilder::outputStorage(unsigned position) {
  auto [it, inserted] = outputs.try_emplace(position, 0);
  if (inserted) {
    Type type = func.getResultTypes()[position];
    it->second = addStorage("output " + std::to_string(position),
                            bytesOf(type).value_or(0), true);
  }
  return it->second;
}

/// Where the value's `bytes` (from its type) are, checking that the plan
/// names at most one place, aligned, with the type's size.
std::optional<replay::Location>
ProgramBuilder::locate(Operation *op, Value value, int64_t bytes,
                       const Placement &placement) {
  std::string name = nameOf(value);
  bool inBytes = placement.kind == Placement::Kind::Heap ||
                 placement.kind == Placement::Kind::Lent;
  if (inBytes && placement.size != bytes)
    violate(op, llvm::formatv("'coreai.placement' gives {0} {1} bytes, but "
                              "its type {2} takes {3}",
                              name, placement.size, value.getType(), bytes));
  if (bytes == 0)
    return std::nullopt;
  // Lent bytes share the output's shadow with the output's own value
  // (which the plan places there: checkReturned), so that value's first
  // write over a lent value still needed fails the replay.
  if (placement.kind == Placement::Kind::Lent) {
    if (placement.offset % alignment != 0)
      violate(op, llvm::formatv("{0} at offset {1} of output {2} is not "
                                "aligned to {3} bytes",
                                name, placement.offset, placement.output,
                                alignment));
    return replay::Location{outputStorage(placement.output), placement.offset,
                            bytes};
  }
  if (placement.kind == Placement::Kind::Heap) {
    if (placement.offset % alignment != 0)
      violate(op, llvm::formatv("{0} at heap offset {1} is not aligned to "
                                "{2} bytes",
                                name, placement.offset, alignment));
    return replay::Location{0, placement.offset, bytes};
  }
  if (placement.kind == Placement::Kind::Output)
    return replay::Location{outputStorage(placement.output), 0, bytes};
  if (placement.kind == Placement::Kind::Fused) {
    // The kernel's own registers or tiles: private to the value.
    fusedIn[program.values.size()] = placement.kernel;
    return replay::Location{
        addStorage(llvm::formatv("kernel {0}'s own storage of {1}",
                                 placement.kernel, name),
                   bytes, true),
        0, bytes};
  }
  if (placement.kind == Placement::Kind::State) {
    auto storage = argumentStorage.find(placement.argument);
    if (storage == argumentStorage.end()) {
      violate(op, llvm::formatv("{0} is placed in argument {1}, which has "
                                "no storage",
                                name, placement.argument));
      return std::nullopt;
    }
    if (!program.storages[storage->second].writable)
      violate(op, llvm::formatv("{0} is placed in {1}, which the caller does "
                                "not let the function change",
                                name, program.storages[storage->second].name));
    statesWritten.insert(storage->second);
    if (program.storages[storage->second].size != bytes)
      violate(op, llvm::formatv("{0} ({1} bytes) is placed in {2} of {3} "
                                "bytes",
                                name, bytes,
                                program.storages[storage->second].name,
                                program.storages[storage->second].size));
    return replay::Location{storage->second, 0, bytes};
  }
  // Outside the heap with no place named: only a returned value (or the
  // root of one) may be, the runtime's own memory; checkPlaceless.
  placeless.emplace_back(op, program.values.size());
  return replay::Location{
      addStorage("outside storage of " + name, bytes, true), 0, bytes};
}

LogicalResult ProgramBuilder::define(Operation *op, unsigned index,
                                     replay::Step &step) {
  Value result = op->getResult(index);
  FailureOr<ResultClass> cls = classifyResult(op, index);
  if (failed(cls))
    return failure();
  if (cls->kind == ResultKind::View) {
    auto source = ids.find(cls->source);
    if (source != ids.end()) {
      const replay::Value &of = program.values[source->second];
      const ValueFacts &sourceFacts = facts[source->second];
      // A view has its own type: it covers its source's bytes as far as
      // this view's size (a reshape: all; a slice or permute: the replay
      // cannot say which, so it takes the source's whole extent).
      addValue(result, of.location, of.writer,
               ValueFacts{sourceFacts.root,
                          sourceFacts.keepsLayout && cls->keepsLayout});
    }
    return success();
  }
  if (cls->kind != ResultKind::Buffer)
    return success(); // scalars, constants, tensor.empty, foreign memrefs
  // The dialect checks the placement's form when a file is parsed
  // (passes/Dialect/VerifyAttributes.cpp); a plan made in this process was
  // not parsed, so the ranges the storages need are checked again.
  Placement placement = placementOfResult(op, index);
  if (placement.argument >= int64_t(func.getNumArguments()))
    return op->emitError("'coreai.placement' names argument ")
           << placement.argument << ", but the function has "
           << func.getNumArguments();
  if (placement.output >= int64_t(func.getNumResults()))
    return op->emitError("'coreai.placement' names output ")
           << placement.output << ", but the function has "
           << func.getNumResults();
  std::optional<int64_t> bytes = bytesOf(result.getType());
  if (!bytes)
    return op->emitError("cannot size ")
           << nameOf(result) << " of type " << result.getType();
  std::optional<replay::Location> at = locate(op, result, *bytes, placement);
  if (!at)
    return success();
  unsigned id = addValue(result, *at);
  if (isa<memref::AllocOp>(op))
    unwritten.insert(id);
  else
    step.writes.push_back(id);
  return success();
}

/// A memref allocation holds nothing until an op uses it, so its bytes
/// may still hold a value read up to then (the in-place rule on buffers:
/// a linalg op writes its fresh output over an input it reads element by
/// element). The first op of `top` that uses an unwritten allocation
/// (through a view too) defines it there: a write of the whole value, not
/// a read (reading bytes never written is the program's own affair), over
/// the inputs that the op's class lets its output overwrite.
void ProgramBuilder::addFirstWrites(Operation *top, replay::Step &step,
                                    llvm::SetVector<unsigned> &reads) {
  if (unwritten.empty())
    return;
  top->walk([&](Operation *op) {
    if (onlyFrees(op))
      return;
    std::optional<BufferInPlace> inPlace = inPlaceBufferOperands(op);
    size_t first = step.writes.size();
    for (OpOperand &operand : op->getOpOperands()) {
      auto id = ids.find(operand.get());
      if (id == ids.end() || !unwritten.erase(facts[id->second].root))
        continue;
      unsigned root = facts[id->second].root;
      reads.remove(id->second);
      reads.remove(root);
      step.writes.push_back(root);
      if (!inPlace || inPlace->init != operand.getOperandNumber())
        continue;
      for (unsigned input : inPlace->inputs)
        if (auto read = ids.find(op->getOperand(input)); read != ids.end())
          step.overwritable.push_back(read->second);
    }
    if (step.writes.size() > first + 1) // one op's fresh outputs
      step.together.emplace_back(step.writes.begin() + first,
                                 step.writes.end());
  });
}

/// The reads a result may be written over: operands of the op's in-place
/// class (elementwise, softmax, the replaced-elements updates) with the
/// result's type, seen through layout-keeping views only.
void ProgramBuilder::addOverwritable(Operation *op, replay::Step &step) {
  llvm::SmallVector<unsigned, 4> candidates = inPlaceOperands(op);
  llvm::append_range(candidates, softmaxInPlaceOperands(op));
  llvm::append_range(candidates, stateUpdateOperands(op));
  for (unsigned index : candidates) {
    Value operand = op->getOperand(index);
    auto id = ids.find(operand);
    if (id == ids.end() || op->getNumResults() == 0 ||
        operand.getType() != op->getResult(0).getType() ||
        !facts[id->second].keepsLayout)
      continue;
    if (!llvm::is_contained(step.overwritable, id->second))
      step.overwritable.push_back(id->second);
  }
}

/// One step of the planned order: an op, or a fused kernel's ops, which
/// read their operands from outside the kernel across the whole step and
/// write their results during it. A value that stays inside a kernel
/// (#coreai.fused) may be read by that kernel's ops only.
LogicalResult ProgramBuilder::addStep(llvm::ArrayRef<Operation *> ops) {
  Operation *top = ops.back();
  std::optional<int64_t> kernel = ops.size() > 1 ? kernelOf(top) : std::nullopt;
  replay::Step step;
  if (named) { // for messages only, like the values' names
    step.op = top->getName().getStringRef().str();
    if (kernel)
      step.op = llvm::formatv("kernel {0} ({1} ops, {2} .. {3})", *kernel,
                              ops.size(), ops.front()->getName(),
                              top->getName())
                    .str();
    step.location = locationString(top->getLoc());
  }
  llvm::SetVector<unsigned> reads;
  llvm::SetVector<unsigned> mutated;
  size_t before = program.values.size(); // ids of this step's values follow
  for (Operation *member : ops)
    member->walk([&](Operation *op) {
      if (onlyFrees(op))
        return;
      for (Value operand : op->getOperands()) {
        auto it = ids.find(operand);
        if (it == ids.end())
          continue; // defined in a nested region of this op
        auto fused = fusedIn.find(facts[it->second].root);
        if (fused != fusedIn.end() && fused->second != kernelOf(member))
          violate(op, llvm::formatv("{0} stays inside kernel {1} "
                                    "(#coreai.fused), but this op reads it",
                                    program.values[it->second].name,
                                    fused->second));
        if (it->second < before)
          reads.insert(it->second); // from outside this step
      }
      for (unsigned index : effectsOf(op).mutated) {
        auto it = ids.find(op->getOperand(index));
        if (it != ids.end())
          mutated.insert(it->second);
      }
    });
  addFirstWrites(top, step, reads);
  step.reads.assign(reads.begin(), reads.end());
  step.mutates.assign(mutated.begin(), mutated.end());
  if (!kernel)
    addOverwritable(top, step);
  for (Operation *member : ops) {
    WalkResult walk = member->walk<WalkOrder::PreOrder>([&](Operation *op) {
      size_t first = step.writes.size();
      for (unsigned i = 0; i < op->getNumResults(); ++i)
        if (failed(define(op, i, step)))
          return WalkResult::interrupt();
      if (step.writes.size() > first + 1)
        step.together.emplace_back(step.writes.begin() + first,
                                   step.writes.end());
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
  }
  if (kernel) {
    // The kernel in-place rule, recomputed from the ops (Kernels.h); the
    // kernel's results are written at once: none may share a byte.
    KernelInPlaceRule rule(ops);
    for (Operation *member : ops)
      for (Value result : member->getResults()) {
        auto written = ids.find(result);
        if (written == ids.end())
          continue;
        for (Value operand : rule.operandsFor(result))
          if (auto id = ids.find(operand);
              id != ids.end() && facts[id->second].keepsLayout)
            step.overwritableBy.emplace_back(written->second, id->second);
      }
    llvm::SmallVector<unsigned, 4> written;
    for (unsigned id : step.writes)
      if (!fusedIn.contains(id))
        written.push_back(id);
    step.writes.assign(written.begin(), written.end());
    step.together.clear();
    if (written.size() > 1)
      step.together.emplace_back(written.begin(), written.end());
  }
  for (Operation *member : ops)
    if (std::optional<Placement> workspace = workspaceOf(member))
      addWorkspace(member, *workspace, step);
  program.steps.push_back(std::move(step));
  return success();
}

/// The op's `coreai.workspace`: a value of the step nobody else reads,
/// written by it (docs/WORKSPACE.md).
void ProgramBuilder::addWorkspace(Operation *op, const Placement &workspace,
                                  replay::Step &step) {
  std::string name;
  if (named)
    name = llvm::formatv("the workspace of '{0}' at {1}", op->getName(),
                         locationString(op->getLoc()))
               .str();
  bool lent = workspace.kind == Placement::Kind::Lent;
  if (workspace.offset % alignment != 0)
    violate(op, llvm::formatv("its workspace at offset {0} of {1} is not "
                              "aligned to {2} bytes",
                              workspace.offset,
                              lent ? "an output" : "the heap", alignment));
  unsigned storage = lent ? outputStorage(workspace.output) : 0;
  unsigned id = program.values.size();
  program.values.push_back(
      {name, replay::Location{storage, workspace.offset, workspace.size},
       id});
  facts.push_back(ValueFacts{id, true});
  step.scratch.push_back(id);
}

/// A result with no place of its own is the runtime's memory only when
/// the caller receives it: it is returned, or viewed by a returned value.
/// Memrefs handed to an op liveness cannot follow (scf.yield, select,
/// calls) stay out of the heap as well (docs/LIVENESS.md).
void ProgramBuilder::checkPlaceless() {
  llvm::DenseSet<unsigned> escaping;
  Block &body = func.getBody().front();
  Operation *terminator = returnOf(func);
  body.walk([&](Operation *op) {
    bool returns = op == terminator;
    if (!returns && !mayRenameMemRefs(op))
      return;
    for (Value operand : op->getOperands()) {
      auto id = ids.find(operand);
      if (id != ids.end() &&
          (returns || isa<BaseMemRefType>(operand.getType())))
        escaping.insert(facts[id->second].root);
    }
  });
  for (auto [op, id] : placeless)
    if (!escaping.contains(id))
      violate(op, llvm::formatv("{0} ({1} bytes) has no place: no heap "
                                "offset, output or state, and it is not "
                                "returned",
                                program.values[id].name,
                                program.values[id].location.size));
}

/// The runtime reads output k from output k's storage when the plan
/// placed anything there, and writes back state X from state X's storage
/// when anything was written into it: the returned value must be the one
/// in that storage, and a value in an output's or state's storage must be
/// returned at that position, as that state's update.
void ProgramBuilder::checkReturned() {
  Operation *terminator = returnOf(func);
  if (!terminator || terminator->getNumOperands() != func.getNumResults())
    return;
  llvm::DenseMap<unsigned, unsigned> outputPosition; // storage -> position
  for (auto [position, storage] : outputs)
    outputPosition[storage] = position;
  llvm::DenseMap<unsigned, unsigned> stateArgument; // storage -> argument
  for (auto [argument, storage] : argumentStorage)
    stateArgument[storage] = argument;
  llvm::DenseSet<unsigned> readBack; // output and state storages accounted
  for (OpOperand &returned : terminator->getOpOperands()) {
    unsigned position = returned.getOperandNumber();
    auto id = ids.find(returned.get());
    if (id == ids.end())
      continue;
    const replay::Value &value = program.values[id->second];
    unsigned storage = value.location.storage;
    auto kind = func.getResultAttrOfType<StringAttr>(position, attr::kind);
    auto name = func.getResultAttrOfType<StringAttr>(position, attr::name);
    bool isUpdate = kind && kind.getValue() == "state_update";
    if (auto output = outputPosition.find(storage);
        output != outputPosition.end()) {
      readBack.insert(storage);
      if (output->second != position)
        violate(terminator,
                llvm::formatv("result {0} is {1}, which sits in the storage "
                              "of output {2}",
                              position, value.name, output->second));
    }
    if (statesWritten.contains(storage)) {
      unsigned argument = stateArgument.lookup(storage);
      auto stateName =
          func.getArgAttrOfType<StringAttr>(argument, attr::name);
      if (!isUpdate || !name || name != stateName)
        violate(terminator,
                llvm::formatv("result {0} ({1}) is {2}, which sits in the "
                              "storage of state argument {3} ({4})",
                              position,
                              isUpdate && name
                                  ? "the update of '" + name.getValue().str() +
                                        "'"
                                  : std::string("an output"),
                              value.name, argument,
                              stateName ? stateName.getValue() : "unnamed"));
      else
        readBack.insert(storage);
    }
  }
  for (auto [position, storage] : outputs)
    if (!readBack.contains(storage))
      violate(terminator,
              llvm::formatv("output {0}'s storage holds a value the function "
                            "does not return there",
                            position));
  for (unsigned storage : statesWritten)
    if (!readBack.contains(storage))
      violate(terminator,
              llvm::formatv("{0} is written, but the value returned as its "
                            "update is not the one in it",
                            program.storages[storage].name));
}

FailureOr<replay::Program>
ProgramBuilder::build(std::optional<std::string> &found) {
  int64_t heap = 0;
  if (options.placements) {
    heap = options.placements->heap;
    alignment = options.placements->alignment;
  } else if (auto plan = func->getAttrOfType<PlanAttr>(attr::plan)) {
    heap = plan.getHeap();
    alignment = plan.getAlignment();
  } else {
    return func.emitError("@")
           << func.getSymName()
           << " has no 'coreai.plan' (#coreai.plan): plan it first";
  }
  if (!func.getBody().hasOneBlock())
    return func.emitError("@") << func.getSymName()
                               << " has more than one block";
  if (!isValidAlignment(alignment))
    violate(nullptr, llvm::formatv("its alignment {0} is not a power of two",
                                   alignment));
  else if (options.alignment > alignment) {
    violate(nullptr, llvm::formatv("it is aligned to {0} bytes, the target "
                                   "needs {1}",
                                   alignment, options.alignment));
  }
  alignment = std::max<int64_t>(alignment, std::max<int64_t>(
                                               options.alignment, 1));
  addStorage("heap", heap, true);
  Block &body = func.getBody().front();
  program.steps.reserve(body.getOperations().size());
  if (failed(addArguments()))
    return failure();
  // A kernel (a run of ops with one coreai.kernel id) is one step.
  llvm::SmallVector<Operation *, 4> stepOps;
  for (Operation &op : body) {
    if (!stepOps.empty() &&
        (!kernelOf(&op) || kernelOf(&op) != kernelOf(stepOps.back()))) {
      if (failed(addStep(stepOps)))
        return failure();
      stepOps.clear();
    }
    stepOps.push_back(&op);
  }
  if (!stepOps.empty() && failed(addStep(stepOps)))
    return failure();
  checkPlaceless();
  checkReturned();
  found = violation;
  return std::move(program);
}

} // namespace

FailureOr<replay::Program> replayProgramOf(func::FuncOp func,
                                           const ReplayOptions &options) {
  std::optional<std::string> violation;
  FailureOr<replay::Program> program =
      ProgramBuilder(func, options).build(violation);
  if (succeeded(program) && violation)
    return func.emitError("the plan of @")
           << func.getSymName() << " fails the replay: " << *violation;
  return program;
}

LogicalResult verifyReplay(func::FuncOp func, const ReplayOptions &options) {
  // First without names; only a failure is replayed again with them, to
  // write its message.
  std::optional<std::string> found;
  FailureOr<replay::Program> unnamed =
      ProgramBuilder(func, options, /*named=*/false).build(found);
  if (failed(unnamed)) // reported at the op, no value named
    return failure();
  bool passes = !found;
  if (passes) {
    llvm::Error violation = replay::replay(*unnamed);
    passes = !violation;
    llvm::consumeError(std::move(violation));
  }
  if (!passes) {
    FailureOr<replay::Program> program = replayProgramOf(func, options);
    if (failed(program))
      return failure();
    if (llvm::Error violation = replay::replay(*program))
      return func.emitError("the plan of @")
             << func.getSymName()
             << " fails the replay: " << llvm::toString(std::move(violation));
  }
  if (options.original)
    return verifySameDataflow(func, options.original);
  return success();
}

} // namespace coreai
