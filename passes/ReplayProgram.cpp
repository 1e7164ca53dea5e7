//===- ReplayProgram.cpp - A replay program from an annotated function ----===//
#include "OpClasses.h"
#include "Printing.h"

#include "coreai-plan/Passes/VerifyReplay.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace coreai {
namespace {

/// One result's placement as the annotations state it.
struct Placement {
  int64_t offset = -1, size = -1, output = -1, state = -1;
};

class ProgramBuilder {
public:
  explicit ProgramBuilder(func::FuncOp func) : func(func), names(func) {}

  FailureOr<replay::Program> build();

private:
  LogicalResult addArguments();
  LogicalResult addStep(Operation *top);
  FailureOr<Placement> placementOf(Operation *op, unsigned index);
  LogicalResult define(Operation *op, unsigned index, replay::Step &step);
  std::optional<replay::Location> locate(Value value,
                                         const Placement &placement);
  unsigned outputStorage(unsigned position);
  unsigned addStorage(std::string name, int64_t size, bool writable) {
    program.storages.push_back({std::move(name), size, writable});
    return program.storages.size() - 1;
  }
  unsigned addValue(Value value, replay::Location at,
                    std::optional<unsigned> writer = std::nullopt) {
    unsigned id = program.values.size();
    program.values.push_back({nameOf(value), at, writer ? *writer : id});
    ids[value] = id;
    return id;
  }
  std::string nameOf(Value value) {
    std::string text;
    llvm::raw_string_ostream os(text);
    value.printAsOperand(os, names);
    return text;
  }

  func::FuncOp func;
  AsmState names;
  replay::Program program;
  llvm::DenseMap<Value, unsigned> ids;
  /// Storage index of output k, created on first use.
  llvm::DenseMap<unsigned, unsigned> outputs;
  /// First position each value is returned at.
  llvm::DenseMap<Value, unsigned> returnedAt;
};

LogicalResult ProgramBuilder::addArguments() {
  for (BlockArgument argument : func.getArguments()) {
    std::optional<int64_t> bytes = bytesOf(argument.getType());
    if (!bytes || *bytes == 0)
      continue; // scalars live in registers
    unsigned index = argument.getArgNumber();
    auto kind = func.getArgAttrOfType<StringAttr>(index, "coreai.kind");
    auto name = func.getArgAttrOfType<StringAttr>(index, "coreai.name");
    std::string label = "argument " + std::to_string(index);
    if (name)
      label += " (" + name.getValue().str() + ")";
    bool writable = kind && kind.getValue() == "state";
    unsigned storage = addStorage(label, *bytes, writable);
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

FailureOr<Placement> ProgramBuilder::placementOf(Operation *op,
                                                 unsigned index) {
  Placement placement;
  for (auto [name, field] :
       {std::pair<StringRef, int64_t *>{"coreai.offsets", &placement.offset},
        {"coreai.sizes", &placement.size},
        {"coreai.output", &placement.output},
        {"coreai.state", &placement.state}}) {
    Attribute attr = op->getAttr(name);
    if (!attr)
      continue;
    auto array = dyn_cast<DenseI64ArrayAttr>(attr);
    if (!array || array.size() != int64_t(op->getNumResults()))
      return op->emitError("'")
             << name << "' must be an array<i64> with one entry per result ("
             << op->getNumResults() << ")";
    *field = array[index];
  }
  return placement;
}

std::optional<replay::Location>
ProgramBuilder::locate(Value value, const Placement &placement) {
  std::optional<int64_t> bytes = bytesOf(value.getType());
  if (placement.offset >= 0)
    return replay::Location{0, placement.offset, placement.size};
  if (!bytes || *bytes == 0)
    return std::nullopt;
  if (placement.output >= 0)
    return replay::Location{outputStorage(placement.output), 0, *bytes};
  if (placement.state >= 0) {
    auto argument = func.getArgument(placement.state);
    auto it = ids.find(argument);
    if (it == ids.end())
      return std::nullopt;
    return program.values[it->second].location;
  }
  auto returned = returnedAt.find(value);
  if (returned != returnedAt.end() &&
      bytesOf(func.getResultTypes()[returned->second]) == bytes)
    return replay::Location{outputStorage(returned->second), 0, *bytes};
  // Outside the heap with no place named: memory only it uses.
  return replay::Location{
      addStorage("outside storage of " + nameOf(value), *bytes, true), 0,
      *bytes};
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
      addValue(result, of.location, of.writer);
    }
    return success();
  }
  if (cls->kind != ResultKind::Buffer)
    return success(); // scalars, constants, tensor.empty, foreign memrefs
  FailureOr<Placement> placement = placementOf(op, index);
  if (failed(placement))
    return failure();
  if (placement->state >= 0 &&
      placement->state >= int64_t(func.getNumArguments()))
    return op->emitError("'coreai.state' names argument ")
           << placement->state << ", but the function has "
           << func.getNumArguments();
  if (placement->output >= 0 &&
      placement->output >= int64_t(func.getNumResults()))
    return op->emitError("'coreai.output' names result ")
           << placement->output << ", but the function has "
           << func.getNumResults();
  if (std::optional<replay::Location> at = locate(result, *placement))
    step.writes.push_back(addValue(result, *at));
  return success();
}

LogicalResult ProgramBuilder::addStep(Operation *top) {
  replay::Step step;
  step.op = top->getName().getStringRef().str();
  step.location = locationString(top->getLoc());
  llvm::SetVector<unsigned> reads;
  top->walk([&](Operation *op) {
    if (onlyFrees(op))
      return;
    for (Value operand : op->getOperands()) {
      auto it = ids.find(operand);
      if (it != ids.end())
        reads.insert(it->second); // only values defined before `top`
    }
  });
  step.reads.assign(reads.begin(), reads.end());
  WalkResult walk = top->walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (unsigned i = 0; i < op->getNumResults(); ++i)
      if (failed(define(op, i, step)))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  program.steps.push_back(std::move(step));
  return success();
}

FailureOr<replay::Program> ProgramBuilder::build() {
  auto plan = func->getAttrOfType<DictionaryAttr>("coreai.plan");
  auto heap = plan ? plan.getAs<IntegerAttr>("heap") : IntegerAttr();
  if (!heap)
    return func.emitError("@")
           << func.getSymName()
           << " has no 'coreai.plan' with a heap: plan it first";
  if (!func.getBody().hasOneBlock())
    return func.emitError("@") << func.getSymName()
                               << " has more than one block";
  addStorage("heap", heap.getInt(), true);
  Block &body = func.getBody().front();
  if (Operation *terminator = body.getTerminator())
    for (OpOperand &returned : terminator->getOpOperands())
      returnedAt.try_emplace(returned.get(), returned.getOperandNumber());
  if (failed(addArguments()))
    return failure();
  for (Operation &op : body)
    if (failed(addStep(&op)))
      return failure();
  return std::move(program);
}

} // namespace

FailureOr<replay::Program> replayProgramOf(func::FuncOp func) {
  return ProgramBuilder(func).build();
}

LogicalResult verifyReplay(func::FuncOp func) {
  FailureOr<replay::Program> program = replayProgramOf(func);
  if (failed(program))
    return failure();
  if (std::optional<std::string> violation = replay::replay(*program))
    return func.emitError("the plan of @")
           << func.getSymName() << " fails the replay: " << *violation;
  return success();
}

} // namespace coreai
