//===- Planner.cpp - Planning a bundle: entries x S -> manifest -----------===//
#include "coreai-plan/Bundle/Planner.h"

#include "coreai-plan/Dialect/CoreAI.h"

#include "ParametricFunction.h"

#include "coreai-plan/Import/ExportArchive.h"
#include "coreai-plan/Passes/Dialects.h"
#include "coreai-plan/Verify.h"
#include "coreai-plan/Version.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <map>

namespace coreai {

char BundleError::ID = 0;

llvm::Error bundleError(PlanFailure kind, const llvm::Twine &message) {
  return llvm::make_error<BundleError>(kind, message.str());
}

PlanObserver::~PlanObserver() = default;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

llvm::Expected<std::vector<int64_t>> parseChunkList(llvm::StringRef text) {
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "bad --chunks '" + text + "': " + why);
  };
  if (text.trim().empty())
    return bad("the list is empty");
  llvm::SmallVector<llvm::StringRef> items;
  text.split(items, ',');
  std::set<int64_t> chunks;
  for (llvm::StringRef item : items) {
    int64_t value;
    if (item.trim().getAsInteger(10, value))
      return bad("'" + item.trim() + "' is not an integer");
    if (value <= 0)
      return bad("chunk sizes must be positive, got " + llvm::Twine(value));
    chunks.insert(value);
  }
  return std::vector<int64_t>(chunks.begin(), chunks.end());
}

llvm::Expected<Bindings> parseBindings(llvm::ArrayRef<std::string> items) {
  Bindings bindings;
  for (const std::string &item : items) {
    auto [name, value] = llvm::StringRef(item).split('=');
    name = name.trim();
    value = value.trim();
    int64_t number;
    bool isChunk = value == "S";
    if (name.empty() || (!isChunk && value.getAsInteger(10, number)))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "bad --bind '" + item +
                                         "': expected SYMBOL=S or "
                                         "SYMBOL=INTEGER");
    if (isChunk) {
      if (!bindings.chunkSymbol.empty() && bindings.chunkSymbol != name)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "--bind names two chunk symbols, '" +
                                           bindings.chunkSymbol + "' and '" +
                                           name + "'");
      bindings.chunkSymbol = name.str();
    } else {
      bindings.fixed[name.str()] = number;
    }
  }
  return bindings;
}

FunctionPlanOptions planOptionsFor(const Target &target,
                                   const ReuseSwitches &reuse,
                                   const SolveOptions &solve) {
  FunctionPlanOptions options;
  options.solve = solve;
#define COREAI_TARGET_DEFAULT(MEMBER, VALUE) options.MEMBER = VALUE;
#include "coreai-plan/Passes/PlanningOptions.inc"
  if (options.liveness.workspace)
    options.liveness.workspaceRules =
        std::make_shared<const WorkspaceRules>(target.workspace);
  if (!target.resultDtypes.empty())
    options.liveness.resultDtypeRules =
        std::make_shared<const ResultDtypeRules>(target.resultDtypes);
  if (options.recompute)
    options.recomputeRules =
        std::make_shared<const RecomputeRules>(target.recompute);
  return options;
}

std::string plannedModelName(llvm::StringRef input) {
  llvm::StringRef file = llvm::sys::path::filename(input);
  llvm::StringRef stem = file.ends_with(".mlir") ? file.drop_back(5) : file;
  return (stem + ".planned.mlir").str();
}

//===----------------------------------------------------------------------===//
// Entry points and chunk sizes
//===----------------------------------------------------------------------===//

namespace {

llvm::Error inputError(const llvm::Twine &message) {
  return bundleError(PlanFailure::BadInput, message);
}

/// The public functions of `module`, or those of them named by --entry
/// (which need not all be in this one module).
std::vector<mlir::func::FuncOp>
selectEntries(mlir::ModuleOp module, llvm::ArrayRef<std::string> entryNames,
              std::set<std::string> &found) {
  std::vector<mlir::func::FuncOp> selected;
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    bool named = llvm::any_of(entryNames, [&](const std::string &name) {
      return llvm::StringRef(name).ltrim('@') == func.getSymName();
    });
    if (!entryNames.empty() && !named)
      continue;
    found.insert(func.getSymName().str());
    selected.push_back(func);
  }
  return selected;
}

/// The chunk symbol of a dynamic function, or an error.
llvm::Expected<std::string> chunkSymbolOf(mlir::func::FuncOp func,
                                          const Bindings &bindings) {
  std::vector<std::string> symbols = shapeSymbols(func);
  auto err = [&](const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "@" + func.getSymName() + " " + message);
  };
  if (!bindings.chunkSymbol.empty()) {
    if (!llvm::is_contained(symbols, bindings.chunkSymbol))
      return err("has no symbol '" + bindings.chunkSymbol +
                 "' (its symbols: " + llvm::join(symbols, ", ") + ")");
    return bindings.chunkSymbol;
  }
  std::vector<std::string> free;
  for (const std::string &s : symbols)
    if (!bindings.fixed.count(s))
      free.push_back(s);
  if (free.size() == 1)
    return free.front();
  if (free.empty())
    return err("has dynamic dims but no coreai.sym_shapes symbol to bind "
               "to S");
  return err("has several symbols (" + llvm::join(free, ", ") +
             "): name the chunk size with --bind SYMBOL=S");
}

llvm::Error checkRange(mlir::func::FuncOp func, llvm::StringRef symbol,
                       int64_t value,
                       const std::map<std::string, SymRange> &ranges) {
  auto it = ranges.find(symbol.str());
  if (it == ranges.end() ||
      (value >= it->second.min && value <= it->second.max))
    return llvm::Error::success();
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      llvm::formatv("@{0} cannot take {1}={2}: coreai.sym_ranges limits {1} "
                    "to [{3}, {4}]",
                    func.getSymName(), symbol, value, it->second.min,
                    it->second.max)
          .str());
}

std::string joinChunks(llvm::ArrayRef<int64_t> chunks) {
  return llvm::join(
      llvm::map_range(chunks, [](int64_t c) { return std::to_string(c); }),
      ",");
}

llvm::Expected<std::vector<PlanJob>>
makeJobs(mlir::ModuleOp module, llvm::ArrayRef<mlir::func::FuncOp> entries,
         const PlanRequest &request) {
  auto ranges = readSymRanges(module);
  if (failed(ranges))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot read coreai.sym_ranges");
  const Bindings &bindings = request.bindings;
  std::vector<PlanJob> jobs;
  for (mlir::func::FuncOp func : entries) {
    if (!hasDynamicShapes(func)) {
      int64_t chunk = chunkSizeOf(func);
      bool listed = request.parametric
                        ? chunk >= request.chunks.front() &&
                              chunk <= request.chunks.back()
                        : llvm::is_contained(request.chunks, chunk);
      if (request.chunksGiven && chunk != 0 && !listed)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            llvm::formatv("@{0} is static with S={1}; cannot plan it at "
                          "S={2} (from --chunks)",
                          func.getSymName(), chunk, joinChunks(request.chunks))
                .str());
      PlanJob job;
      job.source = func;
      job.chunk = chunk;
      jobs.push_back(std::move(job));
      continue;
    }
    llvm::Expected<std::string> symbol = chunkSymbolOf(func, bindings);
    if (!symbol)
      return symbol.takeError();
    for (const std::string &other : shapeSymbols(func))
      if (other != *symbol && !bindings.fixed.count(other))
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "@" + func.getSymName() + " also uses symbol '" + other +
                "' (the chunk size is '" + *symbol + "'): fix it with --bind " +
                other + "=N");
    for (const auto &[name, value] : bindings.fixed)
      if (llvm::Error error = checkRange(func, name, value, *ranges))
        return error;
    if (request.parametric) {
      PlanJob job;
      job.source = func;
      job.chunk = request.chunks.back();
      job.dynamic = true;
      job.bindings = bindings.fixed;
      job.parametric = true;
      job.lo = request.chunks.front();
      job.hi = request.chunks.back();
      job.chunkSymbol = *symbol;
      if (job.hi - job.lo >= kMaxParametricSpan)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            llvm::formatv("--chunks {0}..{1} spans more than {2} sizes, the "
                          "most one plan for every S may cover",
                          job.lo, job.hi, kMaxParametricSpan)
                .str());
      for (int64_t end : {job.lo, job.hi})
        if (llvm::Error error = checkRange(func, *symbol, end, *ranges))
          return error;
      for (int64_t s : request.instances)
        if (s < job.lo || s > job.hi)
          return llvm::createStringError(
              llvm::inconvertibleErrorCode(),
              llvm::formatv("--instances {0} is outside the range [{1}, {2}]",
                            s, job.lo, job.hi)
                  .str());
      job.instances = request.instances;
      job.maxPieces = request.maxPieces;
      if (job.instances.empty())
        job.instances.push_back(job.hi);
      jobs.push_back(std::move(job));
      continue;
    }
    for (int64_t chunk : request.chunks) {
      if (llvm::Error error = checkRange(func, *symbol, chunk, *ranges))
        return error;
      SymbolBindings all = bindings.fixed;
      all[*symbol] = chunk;
      PlanJob job;
      job.source = func;
      job.chunk = chunk;
      job.dynamic = true;
      job.bindings = std::move(all);
      jobs.push_back(std::move(job));
    }
  }
  std::set<std::string> names;
  for (PlanJob &job : jobs) {
    job.plannedName =
        job.parametric
            ? llvm::formatv("{0}__s{1}_{2}", job.source.getSymName(), job.lo,
                            job.hi)
                  .str()
            : llvm::formatv("{0}__s{1}", job.source.getSymName(), job.chunk)
                  .str();
    if (!names.insert(job.plannedName).second)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "two entries would be planned as @" +
                                         job.plannedName);
  }
  return jobs;
}

/// A runtime looks plans up by entry point and S, so each pair may be
/// planned only once in a bundle.
llvm::Error checkUnique(const Manifest &manifest) {
  std::map<std::pair<std::string, int64_t>, uint32_t> seen;
  for (const ManifestEntry &entry : manifest.entries) {
    auto key = std::make_pair(entry.planned.entry, entry.planned.chunk);
    auto [it, inserted] = seen.emplace(key, entry.input);
    if (!inserted)
      return inputError(
          llvm::formatv("@{0} at S={1} is planned from both '{2}' and '{3}'",
                        key.first, key.second, manifest.inputs[it->second].file,
                        manifest.inputs[entry.input].file)
              .str());
  }
  return llvm::Error::success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Planner
//===----------------------------------------------------------------------===//

/// The input being planned: its parsed module, the module its planned
/// clones go to, and the handler that points diagnostics into its text.
struct Planner::Current {
  std::string path;
  uint32_t manifestInput = 0;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> diagnostics;
  /// Registered after `diagnostics`, so it runs first: it tells the
  /// observer and passes the diagnostic on.
  std::unique_ptr<mlir::ScopedDiagnosticHandler> interrupter;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::OwningOpRef<mlir::ModuleOp> planned;
  int64_t plannedHeap = 0; ///< the largest heap planned into `planned`
  size_t plannedCount = 0;
};

Planner::Planner(const PlanRequest &request, PlanObserver *observer)
    : request(request), observer(observer),
      // An error at a function must not print the whole (huge) function.
      context(makeContext({/*threading=*/true,
                           /*printOpOnDiagnostic=*/false})) {
  result.toolVersion = "coreai-plan " COREAI_PLAN_VERSION;
  result.target = {request.target.name, request.target.alignment,
                   request.target.heapLimit,
                   request.options.liveness.kernelsInIrOrder};
}

Planner::~Planner() = default;

llvm::Expected<std::vector<PlanJob>> Planner::read(size_t index) {
  current.reset();
  const std::string &path = request.inputs[index];
  if (observer)
    observer->reading(path);
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return inputError("cannot read '" + path +
                      "': " + file.getError().message());
  current = std::make_unique<Current>();
  current->path = path;
  current->manifestInput = result.inputs.size();
  // An archive is known by its zip directory (with every member's CRC):
  // hashing its gigabytes of weights would cost more than planning.
  llvm::StringRef bytes = (*file)->getBuffer();
  std::string identity;
  if (looksLikeExportArchive(bytes))
    identity = exportArchiveIdentity((*file)->getMemBufferRef());
  result.inputs.push_back({llvm::sys::path::filename(path).str(),
                           sha256Hex(identity.empty() ? bytes : identity)});
  current->sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  current->diagnostics = std::make_unique<mlir::SourceMgrDiagnosticHandler>(
      current->sourceMgr, context.get());
  if (observer)
    current->interrupter = std::make_unique<mlir::ScopedDiagnosticHandler>(
        context.get(), [observer = observer](mlir::Diagnostic &) {
          observer->interrupt();
          return mlir::failure();
        });
  current->module = readModel(current->sourceMgr, context.get());
  if (!current->module)
    return bundleError(PlanFailure::BadInput, ""); // the parser said where

  mlir::ModuleOp module = *current->module;
  std::vector<mlir::func::FuncOp> entries =
      selectEntries(module, request.entries, foundEntries);
  auto jobs = makeJobs(module, entries, request);
  if (!jobs)
    return inputError(path + ": " + llvm::toString(jobs.takeError()));
  current->planned = mlir::ModuleOp::create(module.getLoc());
  (*current->planned)->setAttrs(module->getAttrDictionary());
  return jobs;
}

llvm::Expected<const ManifestEntry *>
Planner::planParametric(const PlanJob &job) {
  auto started = std::chrono::steady_clock::now();
  FunctionPlanOptions options = request.options;
  if (observer)
    options.solve.onImprovement = [&](int64_t heap, int64_t bound) {
      observer->improved(job, heap, bound);
    };
  llvm::Expected<ParametricFunction> planned =
      planParametricFunction(job, options, *current->planned, observer);
  if (!planned)
    return llvm::handleErrors(
        planned.takeError(), [&](const BundleError &error) -> llvm::Error {
          if (error.message.empty()) // printed at the op already
            return bundleError(error.kind, "");
          return bundleError(error.kind, current->path + ": " + error.message);
        });
  mlir::func::FuncOp source = job.source;
  // Lowest range first, as a runtime would search them.
  for (size_t i = planned->pieces.size(); i-- > 0;) {
    ManifestParametric parametric;
    parametric.entry = source.getSymName().str();
    parametric.input = current->manifestInput;
    parametric.symbol = planned->symbol;
    parametric.alignment = options.liveness.alignment;
    parametric.plan = std::move(planned->pieces[i]);
    parametric.cut = std::move(planned->cuts[i]);
    current->plannedHeap =
        std::max(current->plannedHeap, maxHeapOf(parametric.plan));
    result.parametric.push_back(std::move(parametric));
  }
  for (auto &[entry, function] : planned->instances)
    record(std::move(entry), function);
  return finished(started);
}

void Planner::record(PlannedEntry entry, std::string plannedFunction) {
  ManifestEntry planned;
  current->plannedHeap = std::max(current->plannedHeap, entry.plan.heap);
  planned.planned = std::move(entry);
  planned.plannedFunction = std::move(plannedFunction);
  planned.input = current->manifestInput;
  planned.plannedFile = plannedModelName(current->path);
  ++current->plannedCount;
  result.entries.push_back(std::move(planned));
}

const ManifestEntry *
Planner::finished(std::chrono::steady_clock::time_point started) const {
  if (observer)
    observer->planned(result.entries.back(),
                      std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - started)
                          .count());
  return &result.entries.back();
}

llvm::Expected<const ManifestEntry *> Planner::plan(const PlanJob &job) {
  assert(current && "plan() before read()");
  if (job.parametric)
    return planParametric(job);
  auto started = std::chrono::steady_clock::now();
  mlir::func::FuncOp source = job.source;
  mlir::func::FuncOp clone = source.clone();
  clone.setSymName(job.plannedName);
  current->planned->push_back(clone);
  mlir::Builder builder(context.get());
  clone->setAttr(coreai::attr::entry, builder.getStringAttr(source.getSymName()));
  clone->setAttr(coreai::attr::seqLen, builder.getI64IntegerAttr(job.chunk));
  if (job.dynamic) {
    if (observer)
      observer->stage(job, "specialising");
    if (failed(specializeShapes(clone, job.bindings)))
      return bundleError(PlanFailure::BadInput, "");
  }

  if (observer)
    observer->stage(job, "planning");
  FunctionPlanOptions options = request.options;
  options.chunk = job.chunk;
  if (observer)
    options.solve.onImprovement = [&](int64_t heap, int64_t bound) {
      observer->improved(job, heap, bound);
    };
  PlanFailure why = PlanFailure::Internal;
  mlir::FailureOr<PlannedEntry> entry = planFunction(clone, options, &why);
  if (failed(entry))
    return bundleError(why, "");
  entry->entry = source.getSymName().str();
  entry->chunk = job.chunk;
  // Every plan that leaves the tool is checked here, whoever made it.
  if (observer)
    observer->stage(job, "verifying");
  if (llvm::Error violation =
          entry->binOf.empty()
              ? verifyPlan(entry->problem, entry->plan)
              : verifyBorrowedPlan(entry->problem, entry->outputBins,
                                   entry->binOf, entry->plan))
    return bundleError(
        PlanFailure::Internal,
        "plan of @" + job.plannedName +
            " failed verification: " + llvm::toString(std::move(violation)));
  record(std::move(*entry), job.plannedName);
  return finished(started);
}

llvm::Expected<std::string> Planner::plannedModuleText() {
  assert(current && "plannedModuleText() before read()");
  if (!current->plannedCount)
    return std::string();
  mlir::ModuleOp planned = *current->planned;
  mlir::Builder builder(context.get());
  planned->setAttr(coreai::attr::planTarget,
                   builder.getStringAttr(result.target.name));
  planned->setAttr(coreai::attr::planHeap,
                   builder.getI64IntegerAttr(current->plannedHeap));
  if (failed(mlir::verify(planned)))
    return bundleError(PlanFailure::Internal, "the planned module of '" +
                                                  current->path +
                                                  "' does not verify");
  std::string text;
  llvm::raw_string_ostream os(text);
  planned->print(os);
  os << "\n";
  return text;
}

llvm::Error Planner::finish() {
  current.reset();
  for (const std::string &name : request.entries)
    if (!foundEntries.count(llvm::StringRef(name).ltrim('@').str()))
      return inputError("no public function @" +
                        llvm::StringRef(name).ltrim('@') + " in the input");
  if (result.entries.empty())
    return inputError("no public func.func to plan in the input");
  if (llvm::Error error = checkUnique(result))
    return error;
  result.bundleHeap = bundleHeapOf(result);
  return llvm::Error::success();
}

llvm::Expected<PlannedBundle> planBundle(const PlanRequest &request,
                                         PlanObserver *observer) {
  Planner planner(request, observer);
  PlannedBundle bundle;
  for (size_t i = 0; i < request.inputs.size(); ++i) {
    auto jobs = planner.read(i);
    if (!jobs)
      return jobs.takeError();
    for (const PlanJob &job : *jobs)
      if (auto entry = planner.plan(job); !entry)
        return entry.takeError();
    auto text = planner.plannedModuleText();
    if (!text)
      return text.takeError();
    if (text->empty())
      continue; // --entry selected nothing here: no planned file
    std::string name = plannedModelName(request.inputs[i]);
    if (llvm::any_of(bundle.plannedFiles,
                     [&](const auto &f) { return f.first == name; }))
      return inputError("two inputs would both be written as '" + name + "'");
    bundle.plannedFiles.emplace_back(name, std::move(*text));
  }
  if (llvm::Error error = planner.finish())
    return error;
  bundle.manifest = planner.takeManifest();
  return bundle;
}

} // namespace coreai
