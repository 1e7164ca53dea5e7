//===- RewriteToArena.cpp - Planned allocations become views of one arena -===//
//
// The coreai-rewrite-to-arena pass. Per function: liveness (computeBuffers)
// gives every memref.alloc a live range, the core solver packs the ones that
// can move into one arena, the verifier checks the packing, and each such
// allocation becomes `memref.view %arena[offset]`. Whatever cannot move
// stays a plain allocation and is reported. Rules in docs/ARENA.md.
//
//===----------------------------------------------------------------------===//
#include "OpClasses.h"
#include "coreai-plan/Passes/Passes.h"
#include "coreai-plan/Passes/PlanFunction.h"
#include "coreai-plan/Verify.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace coreai {
#define GEN_PASS_DEF_COREAIREWRITETOARENA
#include "coreai-plan/Passes/Passes.h.inc"

namespace {

enum class ArenaForm { Alloc, Argument };

/// An allocation the arena takes over and the buffer liveness gave it
/// (with in-place reuse, several allocations may share one buffer).
struct ArenaSlot {
  memref::AllocOp alloc;
  size_t bufferIndex;
  Buffer buffer;
};

/// The values that name the memory of `root`: itself and its views,
/// transitively (expand/collapse_shape, subview, cast, ...).
SmallVector<Value> aliasesOf(Value root) {
  SmallVector<Value> aliases{root};
  for (size_t i = 0; i < aliases.size(); ++i)
    for (Operation *user : aliases[i].getUsers())
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == aliases[i])
          llvm::append_range(aliases, user->getResults());
  return aliases;
}

/// Why `user`, an op using `alias` (the allocation or a view of it), could
/// let the bytes be read after the live range liveness computed for them,
/// or nullopt if it cannot. Liveness ends a buffer at the last use of its
/// views; a value it does not know as a view (a call or select result, a
/// value yielded out of a region) would read the bytes later under another
/// name, so such buffers keep their own memory.
std::optional<std::string> escapeThrough(Operation *user, Value alias,
                                         ModuleOp module) {
  if (auto view = dyn_cast<ViewLikeOpInterface>(user))
    if (view.getViewSource() == alias)
      return std::nullopt; // followed by aliasesOf
  if (isa<func::ReturnOp>(user))
    return std::string("it escapes the function (returned)");
  if (user->hasTrait<OpTrait::IsTerminator>())
    return "it flows out of a region through '" +
           user->getName().getStringRef().str() + "'";
  if (llvm::none_of(user->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
    return std::nullopt;
  if (auto call = dyn_cast<func::CallOp>(user)) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCalleeAttr());
    if (!mayReturnArgument(callee))
      return std::nullopt;
    return ("it is passed to @" + call.getCallee() +
            ", whose memref result may alias it")
        .str();
  }
  return "'" + user->getName().getStringRef().str() +
         "' may return it under another name";
}

/// Why `alloc` cannot become a view of the arena, or nullopt if it can.
/// `planned` says whether liveness gave it a buffer of the scratch heap.
std::optional<std::string> whyKept(memref::AllocOp alloc, bool planned,
                                   func::FuncOp func, ModuleOp module) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape())
    return std::string("it has a dynamic size and no binding for it");
  if (!type.getLayout().isIdentity())
    return std::string("its layout is not the identity");
  if (type.getMemorySpace())
    return std::string("it is in a non-default memory space");
  if (alloc->getBlock() != &func.getBody().front())
    return std::string("it is allocated inside a region (each iteration of "
                       "a loop may need its own copy)");
  for (Value alias : aliasesOf(alloc.getResult()))
    for (Operation *user : alias.getUsers())
      if (std::optional<std::string> why = escapeThrough(user, alias, module))
        return why;
  if (!planned)
    return std::string("liveness left it outside the scratch heap");
  return std::nullopt;
}

/// Testing only: gives the later of the two buffers that are live together
/// for longest the offset of the earlier one, so they overwrite each other.
/// Returns the pair, or nullopt when no two buffers are ever live together.
std::optional<std::pair<size_t, size_t>> corrupt(const BufferProblem &problem,
                                                 Plan &plan) {
  std::optional<std::pair<size_t, size_t>> worst;
  int64_t longest = 0;
  for (size_t a = 0; a < problem.buffers.size(); ++a)
    for (size_t b = a + 1; b < problem.buffers.size(); ++b) {
      const Buffer &x = problem.buffers[a], &y = problem.buffers[b];
      int64_t together =
          std::min(x.end, y.end) - std::max(x.start, y.start);
      if (together > longest)
        longest = together, worst = {a, b};
    }
  if (!worst)
    return std::nullopt;
  auto [a, b] = *worst;
  size_t later = problem.buffers[a].start <= problem.buffers[b].start ? b : a;
  size_t earlier = later == a ? b : a;
  plan.offsets[later] = plan.offsets[earlier];
  plan.heap = heapOf(problem, plan.offsets);
  return worst;
}

struct RewriteToArenaPass
    : impl::CoreAIRewriteToArenaBase<RewriteToArenaPass> {
  using CoreAIRewriteToArenaBase::CoreAIRewriteToArenaBase;

  void runOnOperation() override;

private:
  LogicalResult rewriteFunction(func::FuncOp func, ArenaForm form,
                                const SolveOptions &solveOptions);
  FailureOr<SmallVector<ArenaSlot>> collectSlots(func::FuncOp func,
                                                 bool &refused);
  Value createArena(func::FuncOp func, ArenaForm form, int64_t heap,
                    int64_t arenaAlignment);
  LogicalResult passArenaAtCallSites(func::FuncOp func, int64_t heap,
                                     int64_t arenaAlignment);
};

/// The allocations of `func` the arena can take, each with its buffer
/// (live range, size, alignment). Reports every allocation it leaves;
/// `refused` is set when liveness refused the whole function.
FailureOr<SmallVector<ArenaSlot>>
RewriteToArenaPass::collectSlots(func::FuncOp func, bool &refused) {
  LivenessOptions liveness;
  liveness.alignment = alignment.getValue();
  liveness.inPlace = inPlace;
  // Liveness refuses a whole function it cannot size (dynamic shapes).
  // That is not an error here: the function keeps its allocations, and the
  // reason is reported as a warning at the op liveness pointed at.
  std::optional<Diagnostic> refusal;
  FailureOr<FunctionBuffers> buffers = [&] {
    ScopedDiagnosticHandler capture(&getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error || refusal)
        return failure(); // let it through
      refusal.emplace(std::move(diag));
      return success();
    });
    return computeBuffers(func, liveness);
  }();
  if (failed(buffers)) {
    mlir::emitWarning(refusal ? refusal->getLocation() : func.getLoc())
        << "@" << func.getSymName()
        << " keeps all its allocations (not rewritten to an arena): "
        << (refusal ? refusal->str() : std::string("liveness failed"));
    refused = true;
    return SmallVector<ArenaSlot>();
  }

  // Every owner: an allocation written in place joins another's buffer.
  llvm::DenseMap<Value, size_t> bufferOfRoot;
  for (size_t b = 0; b < buffers->values.size(); ++b)
    for (unsigned owner = 0; owner < buffers->owners[b]; ++owner)
      bufferOfRoot[buffers->values[b][owner]] = b;

  SmallVector<ArenaSlot> slots;
  WalkResult walk = func.walk([&](memref::AllocOp alloc) {
    auto found = bufferOfRoot.find(alloc.getResult());
    bool planned = found != bufferOfRoot.end();
    if (std::optional<std::string> why =
            whyKept(alloc, planned, func, getOperation())) {
      // Dynamic sizes are a missed saving worth a warning; the rest are
      // allocations that must not move.
      InFlightDiagnostic diag = alloc.getType().hasStaticShape()
                                    ? alloc.emitRemark()
                                    : alloc.emitWarning();
      diag << "allocation stays outside the arena: " << *why;
      return WalkResult::advance();
    }
    ArenaSlot slot{alloc, found->second,
                   buffers->problem.buffers[found->second]};
    // An allocation that asks for more alignment than the plan's keeps it.
    if (std::optional<uint64_t> own = alloc.getAlignment())
      slot.buffer.alignment =
          std::max<int64_t>(slot.buffer.alignment, int64_t(*own));
    for (Value alias : aliasesOf(alloc.getResult()))
      for (Operation *user : alias.getUsers())
        if (isa<bufferization::DeallocOp>(user)) {
          user->emitError("bufferization.dealloc of a planned buffer: run "
                          "--bufferization-lower-deallocations first");
          return WalkResult::interrupt();
        }
    slots.push_back(slot);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return slots;
}

Value RewriteToArenaPass::createArena(func::FuncOp func, ArenaForm form,
                                      int64_t heap, int64_t arenaAlignment) {
  Block &entry = func.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  auto type = MemRefType::get({heap}, builder.getI8Type());
  Location loc = func.getLoc();
  Value arena;
  if (form == ArenaForm::Argument) {
    auto attrs = builder.getDictionaryAttr(
        builder.getNamedAttr("coreai.scratch", builder.getUnitAttr()));
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(index, type, attrs, loc)))
      return Value();
    arena = func.getArgument(index);
  } else {
    arena = memref::AllocOp::create(builder, loc, type,
                                    builder.getI64IntegerAttr(arenaAlignment));
    for (Operation &op : entry)
      if (isa<func::ReturnOp>(op)) {
        OpBuilder atReturn(&op);
        memref::DeallocOp::create(atReturn, loc, arena);
      }
  }
  if (poison) {
    Value ones = arith::ConstantOp::create(builder, loc,
                                           builder.getI8IntegerAttr(-1));
    linalg::FillOp::create(builder, loc, ValueRange{ones}, ValueRange{arena});
  }
  return arena;
}

/// Callers inside the module give the callee a fresh arena of its size;
/// they may be planned themselves, which then places it in theirs.
LogicalResult RewriteToArenaPass::passArenaAtCallSites(func::FuncOp func,
                                                       int64_t heap,
                                                       int64_t arenaAlignment) {
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, getOperation());
  if (!uses)
    return success();
  auto type = MemRefType::get({heap}, IntegerType::get(&getContext(), 8));
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = dyn_cast<func::CallOp>(use.getUser());
    if (!call)
      return use.getUser()->emitError("@")
             << func.getSymName()
             << " gets a scratch arena argument, but this use of it is not a "
                "func.call that could pass one";
    OpBuilder builder(call);
    Value scratch = memref::AllocOp::create(
        builder, call.getLoc(), type,
        builder.getI64IntegerAttr(arenaAlignment));
    call->insertOperands(call->getNumOperands(), scratch);
    builder.setInsertionPointAfter(call);
    memref::DeallocOp::create(builder, call.getLoc(), scratch);
  }
  return success();
}

LogicalResult
RewriteToArenaPass::rewriteFunction(func::FuncOp func, ArenaForm form,
                                    const SolveOptions &solveOptions) {
  if (!func.getBody().hasOneBlock()) {
    func.emitWarning("@") << func.getSymName()
                          << " has several blocks: its allocations stay";
    return success();
  }
  bool refused = false;
  FailureOr<SmallVector<ArenaSlot>> slots = collectSlots(func, refused);
  if (failed(slots))
    return failure();
  if (refused)
    return success();

  // One buffer per liveness buffer that has a movable allocation.
  BufferProblem problem;
  llvm::DenseMap<size_t, size_t> problemIndex;
  int64_t requested = 0, arenaAlignment = alignment.getValue();
  for (const ArenaSlot &slot : *slots) {
    auto [it, inserted] =
        problemIndex.try_emplace(slot.bufferIndex, problem.buffers.size());
    if (inserted)
      problem.buffers.push_back(slot.buffer);
    Buffer &buffer = problem.buffers[it->second];
    buffer.alignment = std::max(buffer.alignment, slot.buffer.alignment);
    requested += slot.buffer.size;
    arenaAlignment = std::max(arenaAlignment, slot.buffer.alignment);
  }
  SolveResult solved = solve(problem, solveOptions);
  if (!solved.plan)
    return func.emitError("the solver found no plan for @")
           << func.getSymName();
  Plan plan = *solved.plan;
  if (llvm::Error bad = verifyPlan(problem, plan))
    return func.emitError("internal error: the plan for @")
           << func.getSymName()
           << " fails verification: " << llvm::toString(std::move(bad));
  if (testCorruptPlan)
    if (auto pair = corrupt(problem, plan))
      func.emitWarning("test-corrupt-plan: ")
          << problem.buffers[pair->first].id << " and "
          << problem.buffers[pair->second].id
          << " are live together but now share offset "
          << plan.offsets[pair->first];

  Builder attrs(&getContext());
  func->setAttr("coreai.arena",
                attrs.getDictionaryAttr({
                    attrs.getNamedAttr("alignment",
                                       attrs.getI64IntegerAttr(arenaAlignment)),
                    attrs.getNamedAttr("allocs", attrs.getI64IntegerAttr(
                                                     slots->size())),
                    attrs.getNamedAttr("allocs_bytes",
                                       attrs.getI64IntegerAttr(requested)),
                    attrs.getNamedAttr("lower_bound", attrs.getI64IntegerAttr(
                                                          plan.lowerBound)),
                    attrs.getNamedAttr("size",
                                       attrs.getI64IntegerAttr(plan.heap)),
                }));
  if (slots->empty())
    return success();

  Value arena = createArena(func, form, plan.heap, arenaAlignment);
  if (!arena)
    return func.emitError("cannot add a scratch argument to @")
           << func.getSymName();
  if (form == ArenaForm::Argument &&
      failed(passArenaAtCallSites(func, plan.heap, arenaAlignment)))
    return failure();

  for (const ArenaSlot &slot : *slots) {
    memref::AllocOp alloc = slot.alloc;
    int64_t offset = plan.offsets[problemIndex.lookup(slot.bufferIndex)];
    for (Value alias : aliasesOf(alloc.getResult()))
      for (Operation *user : llvm::make_early_inc_range(alias.getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
    OpBuilder builder(alloc);
    Value shift =
        arith::ConstantIndexOp::create(builder, alloc.getLoc(), offset);
    Value view = memref::ViewOp::create(builder, alloc.getLoc(),
                                        alloc.getType(), arena, shift,
                                        ValueRange{});
    alloc.replaceAllUsesWith(view);
    alloc.erase();
  }
  return success();
}

void RewriteToArenaPass::runOnOperation() {
  std::optional<ArenaForm> form =
      llvm::StringSwitch<std::optional<ArenaForm>>(arena)
          .Case("alloc", ArenaForm::Alloc)
          .Case("argument", ArenaForm::Argument)
          .Default(std::nullopt);
  if (!form) {
    mlir::emitError(getOperation().getLoc(),
                    "arena must be 'alloc' or 'argument', not '")
        << arena.getValue() << "'";
    return signalPassFailure();
  }
  if (llvm::Error error = llvm::joinErrors(
          checkAlignment(alignment),
          checkNotNegative("time-limit-ms", timeLimitMs))) {
    mlir::emitError(getOperation().getLoc(), llvm::toString(std::move(error)));
    return signalPassFailure();
  }
  SolveOptions solveOptions;
  solveOptions.timeLimitMs = timeLimitMs;
  solveOptions.algorithm = algorithm;

  for (const std::string &name : functions) {
    auto func = getOperation().lookupSymbol<func::FuncOp>(name);
    if (!func || func.isDeclaration()) {
      mlir::emitError(getOperation().getLoc(), "functions= names @")
          << name << ", which is not a function defined in this module";
      return signalPassFailure();
    }
  }
  // Module order, so output and diagnostics are deterministic.
  SmallVector<func::FuncOp> funcs;
  for (auto func : getOperation().getOps<func::FuncOp>())
    if (!func.isDeclaration() &&
        (functions.empty() || llvm::is_contained(functions, func.getSymName())))
      funcs.push_back(func);
  for (func::FuncOp func : funcs)
    if (failed(rewriteFunction(func, *form, solveOptions)))
      return signalPassFailure();
}

} // namespace
} // namespace coreai
