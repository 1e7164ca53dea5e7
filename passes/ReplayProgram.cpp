//===- ReplayProgram.cpp - A replay program from an annotated function ----===//
//
// Builds the replay program (coreai-plan/Replay.h) of a planned function
// from the IR alone, and checks on the way what needs no shadow: sizes
// recomputed from the types, offsets aligned, one place per intermediate,
// returned values and state updates in the storage the runtime reads.
// Nothing the planner computed is trusted that can be computed again: not
// `coreai.sizes`, not `coreai.in_place` (which operand a result may be
// written over comes from the replay's own list, ReplayInPlace.h, not the
// planner's op facts), not the live ranges, not the workspace (the
// target's rules give each step's).
//
//===----------------------------------------------------------------------===//
#include "ReplayBuilder.h"

#include "Effects.h"
#include "Kernels.h"
#include "OpClasses.h"
#include "ReplayInPlace.h"
#include "ResultDtypes.h"
#include "Workspace.h"

#include "coreai-plan/Options.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace coreai {
namespace replaybuild {


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
                          sourceFacts.keepsLayout &&
                              replaylist::viewKeepsOrder(op)});
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
  Type written = writtenType(op, index);
  std::optional<int64_t> bytes = bytesOf(written);
  if (!bytes)
    return op->emitError("cannot size ")
           << nameOf(result) << " of type " << result.getType();
  std::optional<replay::Location> at =
      locate(op, result, *bytes, placement, written);
  if (options.resultDtypeRules && !options.placements &&
      written != writtenTypeOf(op, index))
    violate(op, llvm::formatv("the target's kernel writes result {0} as {1}, "
                              "but the op's 'coreai.result_dtypes' says {2}",
                              index, written, writtenTypeOf(op, index)));
  if (!at)
    return success();
  unsigned id = addValue(result, *at);
  if (isa<memref::AllocOp>(op))
    unwritten.insert(id);
  else
    step.writes.push_back(id);
  return success();
}

/// The type result `index` is written in: with the target's result dtypes,
/// as its kernel writes it, asked of the target here and not taken from
/// the plan (whose `coreai.result_dtypes` must agree: define checks);
/// without them, as the plan's `coreai.result_dtypes` says (the dialect
/// checked its sizes against it), else the graph's type.
Type ProgramBuilder::writtenType(Operation *op, unsigned index) {
  return options.resultDtypeRules
             ? kernelTypeOf(op, index, *options.resultDtypeRules)
             : writtenTypeOf(op, index);
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

/// The reads a result may be written over: operands the replay's own list
/// accepts (elementwise, softmax, the replaced-elements updates) with the
/// result's type, seen through order-keeping views only.
void ProgramBuilder::addOverwritable(Operation *op, replay::Step &step) {
  for (unsigned index : replaylist::overwritableOperands(op)) {
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
    // Which result may lie on which operand, from the replay's own list
    // (not the planner's kernel rule); the kernel's results are written at
    // once: none may share a byte.
    replaylist::KernelOverwrites rule(ops, kernelsInIrOrder);
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
  checkWorkspace(ops);
  program.steps.push_back(std::move(step));
  return success();
}

/// The step's workspaces hold at least what the target's rules give its
/// ops (docs/WORKSPACE.md).
void ProgramBuilder::checkWorkspace(llvm::ArrayRef<Operation *> ops) {
  if (!options.workspaceRules)
    return;
  int64_t given = 0;
  for (Operation *member : ops)
    if (std::optional<Placement> workspace = workspaceOf(member))
      given += workspace->size;
  llvm::Expected<int64_t> needed =
      stepWorkspaceBytes(ops, *options.workspaceRules);
  if (!needed)
    return violate(ops.back(), llvm::toString(needed.takeError()));
  if (given < *needed)
    violate(ops.back(), llvm::formatv("the target's workspace rules give "
                                      "this step {0} bytes of workspace, the "
                                      "plan {1}",
                                      *needed, given));
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
  workspaceBytes += workspace.size;
}


FailureOr<replay::Program>
ProgramBuilder::build(std::optional<std::string> &found) {
  int64_t heap = 0;
  std::optional<int64_t> statedWorkspace;
  kernelsInIrOrder = options.kernelsInIrOrder;
  if (options.placements) {
    heap = options.placements->heap;
    alignment = options.placements->alignment;
  } else if (auto plan = func->getAttrOfType<PlanAttr>(attr::plan)) {
    heap = plan.getHeap();
    alignment = plan.getAlignment();
    statedWorkspace = plan.getWorkspaceBytes().value_or(0);
    if (BoolAttr ordered = plan.getKernelsInIrOrder())
      kernelsInIrOrder |= ordered.getValue();
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
  // A kernel is one contiguous run of ops without effects (Kernels.h).
  if (failed(readKernels(func)))
    return failure();
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
  if (statedWorkspace && *statedWorkspace != workspaceBytes)
    violate(nullptr, llvm::formatv("'coreai.plan' gives {0} bytes of "
                                   "workspace, its steps' workspaces {1}",
                                   *statedWorkspace, workspaceBytes));
  found = violation;
  return std::move(program);
}

} // namespace replaybuild

using replaybuild::ProgramBuilder;

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
