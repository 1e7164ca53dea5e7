//===- ReplayPlaces.cpp - Where a replayed function's values live ---------===//
//
// The replay program's storages and locations: the heap, the arguments,
// the outputs, a fused value's private storage; each result's placement
// read from the IR (or the plan handed over) and checked against its type
// and the alignment; and what the runtime reads back: the value in an
// output's or a state's storage must be the one returned there.
//
//===----------------------------------------------------------------------===//
#include "ReplayBuilder.h"
#include "OpClasses.h"

namespace coreai::replaybuild {

Operation *returnOf(func::FuncOp func) {
  Block &body = func.getBody().front();
  if (body.empty() || !body.back().hasTrait<OpTrait::IsTerminator>())
    return nullptr;
  return &body.back();
}

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
                       const Placement &placement, Type written) {
  std::string name = nameOf(value);
  bool inBytes = placement.kind == Placement::Kind::Heap ||
                 placement.kind == Placement::Kind::Lent;
  if (inBytes && placement.size != bytes)
    violate(op, llvm::formatv("'coreai.placement' gives {0} {1} bytes, but "
                              "its type {2} takes {3}{4}",
                              name, placement.size, value.getType(), bytes,
                              written == value.getType()
                                  ? std::string()
                                  : llvm::formatv(" written as {0}", written)
                                        .str()));
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

} // namespace coreai::replaybuild
