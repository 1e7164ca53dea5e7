//===- PlanCommand.cpp - coreai-plan plan ---------------------------------===//
//
// The AOT build step: every entry point of a bundle at every chunk size is
// cloned, specialised, planned and verified; then the manifest (binary and
// JSON) and the annotated graph are written into OUTDIR together, or not
// at all.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "TextTable.h"

#include "coreai-plan/Passes/Dialects.h"
#include "coreai-plan/Manifest.h"
#include "coreai-plan/Passes/PlanFunction.h"
#include "coreai-plan/Passes/SpecializeShapes.h"
#include "coreai-plan/Target.h"
#include "coreai-plan/Verify.h"
#include "coreai-plan/Version.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <variant>

namespace coreai::cli {

llvm::cl::SubCommand
    planCommand("plan",
                "Plan every entry point of a bundle at every chunk size and "
                "write the heap-size manifest");

namespace {
namespace cl = llvm::cl;

cl::list<std::string> inputPaths(cl::Positional, cl::OneOrMore,
                                 cl::desc("<MODEL.mlir>... (the graphs of "
                                          "one bundle)"),
                                 cl::sub(planCommand));
cl::opt<std::string> outputDir("o", cl::Required,
                               cl::desc("Directory for plan.manifest, "
                                        "plan.json, MODEL.planned.mlir"),
                               cl::value_desc("OUTDIR"), cl::sub(planCommand));
cl::opt<std::string> targetName("target", cl::Required,
                                cl::desc("Target description (targets/"
                                         "<name>.json): h18p, generic, ..."),
                                cl::sub(planCommand));
cl::opt<std::string> targetsDir("targets-dir",
                                cl::desc("Read target descriptions from DIR"),
                                cl::value_desc("DIR"), cl::sub(planCommand));
cl::opt<std::string>
    chunksOption("chunks",
                 cl::desc("Chunk sizes S to specialise dynamic functions "
                          "for (default 1,16,32,64)"),
                 cl::value_desc("S,S,..."), cl::init("1,16,32,64"),
                 cl::sub(planCommand));
cl::list<std::string> entryNames("entry",
                                 cl::desc("Plan only this entry point "
                                          "(repeatable; default: every "
                                          "public function)"),
                                 cl::value_desc("NAME"), cl::sub(planCommand));
cl::list<std::string>
    bindOptions("bind",
                cl::desc("SYMBOL=S: the symbol that is the chunk size; "
                         "SYMBOL=INTEGER: a fixed value (repeatable)"),
                cl::value_desc("SYMBOL=S"), cl::sub(planCommand));
cl::opt<std::string> algorithmOption(
    "algorithm",
    cl::desc("naive | greedy-by-size | greedy-by-breadth | best-fit | best"),
    cl::init("best"), cl::sub(planCommand));
cl::opt<int64_t> timeLimitMs("time-limit-ms",
                             cl::desc("Budget of the exact search per entry "
                                      "and chunk size"),
                             cl::init(1000), cl::sub(planCommand));
// Reuse techniques are on where the target allows them; each can be
// switched off to compare or to work around a runtime.
cl::opt<bool> noInPlace("no-in-place",
                        cl::desc("Give every result its own buffer even "
                                 "where the target runs the op in place"),
                        cl::sub(planCommand));
cl::opt<bool> noOutputPlacement(
    "no-output-placement",
    cl::desc("Keep chains that end in a returned value in the heap"),
    cl::sub(planCommand));
cl::opt<bool> noStatePlacement(
    "no-state-placement",
    cl::desc("Do not write state updates into the state's own storage"),
    cl::sub(planCommand));
cl::opt<bool> noReorder("no-reorder",
                        cl::desc("Keep the exported op order"),
                        cl::sub(planCommand));

/// A failure whose diagnostic was already printed, with its exit code.
struct Failed {
  ExitCode code;
};
template <typename T> using OrFailed = std::variant<T, Failed>;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

/// Sorted, unique, positive chunk sizes.
llvm::Expected<std::vector<int64_t>> parseChunks(llvm::StringRef text) {
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

/// --bind: which symbol is S, and the fixed values of the others.
struct Bindings {
  std::string chunkSymbol;
  SymbolBindings fixed;
};

llvm::Expected<Bindings> parseBindings() {
  Bindings bindings;
  for (const std::string &item : bindOptions) {
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

//===----------------------------------------------------------------------===//
// Entry points and chunk sizes
//===----------------------------------------------------------------------===//

/// One function to plan at one S, with the bindings that make it static.
struct PlanJob {
  mlir::func::FuncOp source;
  int64_t chunk = 0;
  bool dynamic = false;
  SymbolBindings bindings;
  std::string plannedName;
};

/// The public functions of `module`, or those of them named by --entry
/// (which need not all be in this one module).
std::vector<mlir::func::FuncOp> selectEntries(mlir::ModuleOp module,
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

llvm::Expected<std::vector<PlanJob>>
makeJobs(mlir::ModuleOp module, llvm::ArrayRef<mlir::func::FuncOp> entries,
         llvm::ArrayRef<int64_t> chunks, bool chunksGiven,
         const Bindings &bindings) {
  auto ranges = readSymRanges(module);
  if (failed(ranges))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot read coreai.sym_ranges");
  std::vector<PlanJob> jobs;
  for (mlir::func::FuncOp func : entries) {
    if (!hasDynamicShapes(func)) {
      int64_t chunk = sequenceLengthOf(func);
      if (chunksGiven && chunk != 0 && !llvm::is_contained(chunks, chunk))
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            llvm::formatv("@{0} is static with S={1}; cannot plan it at "
                          "S={2} (from --chunks)",
                          func.getSymName(), chunk,
                          llvm::join(llvm::map_range(chunks,
                                                     [](int64_t c) {
                                                       return std::to_string(c);
                                                     }),
                                     ","))
                .str());
      jobs.push_back({func, chunk, false, {}, ""});
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
    for (int64_t chunk : chunks) {
      if (llvm::Error error = checkRange(func, *symbol, chunk, *ranges))
        return error;
      SymbolBindings all = bindings.fixed;
      all[*symbol] = chunk;
      jobs.push_back({func, chunk, true, std::move(all), ""});
    }
  }
  std::set<std::string> names;
  for (PlanJob &job : jobs) {
    job.plannedName =
        llvm::formatv("{0}__s{1}", job.source.getSymName(), job.chunk).str();
    if (!names.insert(job.plannedName).second)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "two entries would be planned as @" +
                                         job.plannedName);
  }
  return jobs;
}

//===----------------------------------------------------------------------===//
// Planning
//===----------------------------------------------------------------------===//

ExitCode exitCodeOf(PlanFailure why) {
  switch (why) {
  case PlanFailure::BadInput:
    return InputError;
  case PlanFailure::OverLimit:
    return NotFound;
  case PlanFailure::Internal:
    return InternalError;
  }
  return InternalError;
}

/// Clones the job's function into `planned` under its planned name,
/// specialises and plans it. Diagnostics go to the context's handler.
OrFailed<ManifestEntry> planJob(PlanJob job, mlir::ModuleOp planned,
                                const FunctionPlanOptions &baseOptions) {
  mlir::func::FuncOp clone = job.source.clone();
  clone.setSymName(job.plannedName);
  planned.push_back(clone);
  mlir::Builder builder(clone.getContext());
  clone->setAttr("coreai.entry",
                 builder.getStringAttr(job.source.getSymName()));
  clone->setAttr("coreai.seq_len", builder.getI64IntegerAttr(job.chunk));
  if (job.dynamic && failed(specializeShapes(clone, job.bindings)))
    return Failed{InputError};

  FunctionPlanOptions options = baseOptions;
  options.chunk = job.chunk;
  PlanFailure why = PlanFailure::Internal;
  mlir::FailureOr<PlannedEntry> entry = planFunction(clone, options, &why);
  if (failed(entry))
    return Failed{exitCodeOf(why)};
  entry->entry = job.source.getSymName().str();
  entry->chunk = job.chunk;
  // Every plan that leaves the tool is checked here, whoever made it.
  if (auto violation = verifyPlan(entry->problem, entry->plan)) {
    fail(InternalError,
         "plan of @" + job.plannedName + " failed verification: " + *violation);
    return Failed{InternalError};
  }
  ManifestEntry result;
  result.planned = std::move(*entry);
  result.plannedFunction = job.plannedName;
  return result;
}

void printTable(const Manifest &manifest, llvm::raw_ostream &os) {
  std::vector<std::string> files;
  for (const ManifestInput &input : manifest.inputs)
    files.push_back(input.file);
  os << llvm::formatv("target {0} (alignment {1}), input {2}\n",
                      manifest.target.name, manifest.target.alignment,
                      llvm::join(files, ", "));
  TextTable table({"entry", "S", "buffers", "lower bound", "heap", "heap/LB",
                   "solver", "optimal", "solver time"},
                  {false, true, true, true, true, true, false, false, true});
  const ManifestEntry *largest = nullptr;
  for (const ManifestEntry &entry : manifest.entries) {
    const PlannedEntry &e = entry.planned;
    if (!largest || e.plan.heap > largest->planned.plan.heap)
      largest = &entry;
    table.add({"@" + e.entry, std::to_string(e.chunk),
               std::to_string(e.problem.buffers.size()),
               std::to_string(e.plan.lowerBound), std::to_string(e.plan.heap),
               llvm::formatv("{0:F4}", gap(e.plan.heap, e.plan.lowerBound)),
               e.plan.algorithm, e.plan.optimal ? "yes" : "no",
               llvm::formatv("{0:F3} s", e.plan.seconds)});
  }
  table.print(os);
  os << "bundle heap " << bytesWithMiB(manifest.bundleHeap);
  if (largest)
    os << llvm::formatv(", set by @{0} at S={1}", largest->planned.entry,
                        largest->planned.chunk);
  os << "\n";
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

/// Writes files into a directory all or nothing: each goes to a temporary
/// name first, and only when every one is written are they renamed. A
/// directory this created is removed again on failure.
class OutputSet {
public:
  explicit OutputSet(std::string dir) : dir(std::move(dir)) {}
  ~OutputSet() { discard(); }

  llvm::Error prepare() {
    createdDir = !llvm::sys::fs::exists(dir);
    if (std::error_code ec = llvm::sys::fs::create_directories(dir))
      return cannotWrite(dir, ec);
    if (!llvm::sys::fs::is_directory(dir))
      return cannotWrite(dir, std::make_error_code(std::errc::not_a_directory));
    return llvm::Error::success();
  }

  llvm::Error add(llvm::StringRef name, llvm::StringRef bytes) {
    llvm::SmallString<256> model(dir);
    llvm::sys::path::append(model, "." + name + "-%%%%%%.tmp");
    int fd;
    llvm::SmallString<256> temp;
    if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, temp))
      return cannotWrite(dir, ec);
    temps.push_back({temp.str().str(), name.str()});
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << bytes;
    os.close();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      return cannotWrite(temp, ec);
    }
    return llvm::Error::success();
  }

  llvm::Error commit() {
    for (const auto &[temp, name] : temps) {
      llvm::SmallString<256> final(dir);
      llvm::sys::path::append(final, name);
      if (std::error_code ec = llvm::sys::fs::rename(temp, final))
        return cannotWrite(final, ec);
    }
    temps.clear();
    createdDir = false;
    return llvm::Error::success();
  }

private:
  std::string dir;
  bool createdDir = false;
  std::vector<std::pair<std::string, std::string>> temps;

  static llvm::Error cannotWrite(llvm::StringRef path, std::error_code ec) {
    return llvm::createStringError(ec, "cannot write to '%s': %s",
                                   path.str().c_str(), ec.message().c_str());
  }
  void discard() {
    for (const auto &temp : temps)
      llvm::sys::fs::remove(temp.first);
    temps.clear();
    if (createdDir)
      llvm::sys::fs::remove(dir); // only succeeds while empty
  }
};

void registerDialects(mlir::MLIRContext &context) {
  mlir::DialectRegistry registry;
  coreai::registerInputDialects(registry);
  context.appendDialectRegistry(registry);
  // Exported graphs are `torch.aten.*` ops in generic form.
  context.allowUnregisteredDialects();
  // An error at a function must not print the whole (huge) function.
  context.printOpOnDiagnostic(false);
}

std::string plannedModelName(llvm::StringRef input) {
  llvm::StringRef file = llvm::sys::path::filename(input);
  llvm::StringRef stem = file.ends_with(".mlir") ? file.drop_back(5) : file;
  return (stem + ".planned.mlir").str();
}

/// A runtime looks plans up by entry point and S, so each pair may be
/// planned only once in a bundle.
llvm::Error checkUnique(const Manifest &manifest) {
  std::map<std::pair<std::string, int64_t>, uint32_t> seen;
  for (const ManifestEntry &entry : manifest.entries) {
    auto key = std::make_pair(entry.planned.entry, entry.planned.chunk);
    auto [it, inserted] = seen.emplace(key, entry.input);
    if (!inserted)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("@{0} at S={1} is planned from both '{2}' and '{3}'",
                        key.first, key.second, manifest.inputs[it->second].file,
                        manifest.inputs[entry.input].file)
              .str());
  }
  return llvm::Error::success();
}

/// Parses one graph, plans its entry points into `manifest` and returns
/// the text of its planned module. Diagnostics point into the file.
OrFailed<std::string>
planInput(llvm::StringRef path, mlir::MLIRContext &context,
          const FunctionPlanOptions &options, llvm::ArrayRef<int64_t> chunks,
          bool chunksGiven, const Bindings &bindings,
          std::set<std::string> &found, Manifest &manifest) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file) {
    fail(InputError,
         "cannot read '" + path + "': " + file.getError().message());
    return Failed{InputError};
  }
  uint32_t inputIndex = manifest.inputs.size();
  manifest.inputs.push_back(
      {llvm::sys::path::filename(path).str(), sha256Hex((*file)->getBuffer())});
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return Failed{InputError};

  std::vector<mlir::func::FuncOp> entries = selectEntries(*module, found);
  auto jobs = makeJobs(*module, entries, chunks, chunksGiven, bindings);
  if (!jobs) {
    fail(InputError, path + ": " + llvm::toString(jobs.takeError()));
    return Failed{InputError};
  }
  mlir::OwningOpRef<mlir::ModuleOp> planned =
      mlir::ModuleOp::create(module->getLoc());
  (*planned)->setAttrs((*module)->getAttrDictionary());
  std::string plannedFile = plannedModelName(path);
  int64_t moduleHeap = 0;
  for (PlanJob &job : *jobs) {
    OrFailed<ManifestEntry> entry = planJob(job, *planned, options);
    if (auto *failed = std::get_if<Failed>(&entry))
      return *failed;
    ManifestEntry &result = std::get<ManifestEntry>(entry);
    result.input = inputIndex;
    result.plannedFile = plannedFile;
    moduleHeap = std::max(moduleHeap, result.planned.plan.heap);
    manifest.entries.push_back(std::move(result));
  }
  mlir::Builder builder(&context);
  (*planned)->setAttr("coreai.plan.target",
                      builder.getStringAttr(manifest.target.name));
  (*planned)->setAttr("coreai.plan.heap",
                      builder.getI64IntegerAttr(moduleHeap));
  if (failed(mlir::verify(*planned))) {
    fail(InternalError, "the planned module of '" + path + "' does not verify");
    return Failed{InternalError};
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  (*planned)->print(os);
  os << "\n";
  return text;
}

} // namespace

int runPlan() {
  // Everything the user typed is checked before the graph is read.
  llvm::Expected<std::vector<int64_t>> chunks = parseChunks(chunksOption);
  if (!chunks)
    return fail(InputError, chunks.takeError());
  bool chunksGiven = chunksOption.getNumOccurrences() > 0;
  llvm::Expected<Bindings> bindings = parseBindings();
  if (!bindings)
    return fail(InputError, bindings.takeError());
  auto algorithm = parseAlgorithmOption(algorithmOption);
  if (!algorithm)
    return fail(InputError, algorithm.takeError());
  if (timeLimitMs < 0)
    return fail(InputError, "--time-limit-ms must not be negative");
  llvm::Expected<Target> target = loadTarget(
      targetName, targetsDir.empty() ? defaultTargetsDir() : targetsDir);
  if (!target)
    return fail(InputError, target.takeError());

  FunctionPlanOptions options;
  options.liveness.alignment = target->alignment;
  options.liveness.inPlace = target->runsInPlace("elementwise") && !noInPlace;
  options.liveness.outputsInHeap = !target->outputsBoundBeforeCall;
  options.liveness.outputPlacement =
      target->outputsBoundBeforeCall && !noOutputPlacement;
  options.liveness.statePlacement =
      target->stateBoundBeforeCall && !noStatePlacement;
  options.reorder = !noReorder;
  options.solve = {*algorithm, timeLimitMs};
  options.maxHeap = target->heapLimit;

  Manifest manifest;
  manifest.toolVersion = "coreai-plan " COREAI_PLAN_VERSION;
  manifest.target = {target->name, target->alignment, target->heapLimit};
  mlir::MLIRContext context;
  registerDialects(context);
  std::set<std::string> found;
  std::vector<std::pair<std::string, std::string>> plannedFiles;
  for (const std::string &path : inputPaths) {
    size_t entriesBefore = manifest.entries.size();
    OrFailed<std::string> planned =
        planInput(path, context, options, *chunks, chunksGiven, *bindings,
                  found, manifest);
    if (auto *failed = std::get_if<Failed>(&planned))
      return failed->code;
    if (manifest.entries.size() == entriesBefore)
      continue; // --entry selected nothing here: no planned file
    std::string name = plannedModelName(path);
    if (llvm::any_of(plannedFiles,
                     [&](const auto &f) { return f.first == name; }))
      return fail(InputError,
                  "two inputs would both be written as '" + name + "'");
    plannedFiles.emplace_back(name, std::move(std::get<std::string>(planned)));
  }
  for (const std::string &name : entryNames)
    if (!found.count(llvm::StringRef(name).ltrim('@').str()))
      return fail(InputError, "no public function @" +
                                  llvm::StringRef(name).ltrim('@') +
                                  " in the input");
  if (manifest.entries.empty())
    return fail(InputError, "no public func.func to plan in the input");
  if (llvm::Error error = checkUnique(manifest))
    return fail(InputError, std::move(error));
  manifest.bundleHeap = bundleHeapOf(manifest.entries);

  OutputSet outputs(outputDir);
  if (llvm::Error error = outputs.prepare())
    return fail(InputError, std::move(error));
  llvm::Error error = llvm::joinErrors(
      outputs.add("plan.manifest", writeManifestBinary(manifest)),
      outputs.add("plan.json", writeManifestJson(manifest)));
  for (const auto &[name, text] : plannedFiles)
    error = llvm::joinErrors(std::move(error), outputs.add(name, text));
  if (error)
    return fail(InputError, std::move(error));
  if (llvm::Error error = outputs.commit())
    return fail(InputError, std::move(error));

  printTable(manifest, llvm::outs());
  std::vector<std::string> written = {"plan.manifest", "plan.json"};
  for (const auto &file : plannedFiles)
    written.push_back(file.first);
  llvm::outs() << "wrote " << llvm::join(written, ", ") << " to " << outputDir
               << "\n";
  return Success;
}

} // namespace coreai::cli
