//===- ImportProgram.cpp - A torch.export program as a func.func ----------===//
//
// One pass over the graph's nodes in order, building the program as it is
// written: each FX name maps to the value that names its storage, in-place
// ops stay in-place ops, views remember their source. The one
// functionalisation (passes/Functionalize.cpp) then makes it functional.
// The schema is read by lib/Import (ExportSchema, ArgsRepr), without MLIR.
//
//===----------------------------------------------------------------------===//
#include "ImportProgram.h"

#include "ArgsRepr.h"
#include "AtenOps.h"
#include "ExportSchema.h"
#include "JsonSplit.h"

#include "coreai-plan/Passes/Functionalize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using llvm::json::Array;
using llvm::json::Object;

namespace coreai::import {
namespace {

Type elementType(MLIRContext *ctx, int64_t code) {
  Builder b(ctx);
  switch (code) {
  case 1: return IntegerType::get(ctx, 8, IntegerType::Unsigned);
  case 2: return b.getIntegerType(8);
  case 3: return b.getIntegerType(16);
  case 4: return b.getIntegerType(32);
  case 5: return b.getIntegerType(64);
  case 6: return b.getF16Type();
  case 7: return b.getF32Type();
  case 8: return b.getF64Type();
  case 9: return ComplexType::get(b.getF16Type());
  case 10: return ComplexType::get(b.getF32Type());
  case 11: return ComplexType::get(b.getF64Type());
  case 12: return b.getI1Type();
  case 13: return b.getBF16Type();
  case 28: return IntegerType::get(ctx, 16, IntegerType::Unsigned);
  case 29: return b.getType<Float8E4M3FNType>();
  case 30: return b.getType<Float8E5M2Type>();
  case 31: return b.getType<Float8E4M3FNUZType>();
  case 32: return b.getType<Float8E5M2FNUZType>();
  default: return {};
  }
}

RankedTensorType tensorType(MLIRContext *ctx, const TensorMeta &meta) {
  llvm::SmallVector<int64_t> shape;
  for (int64_t size : meta.sizes)
    shape.push_back(size == kSymbolicSize ? ShapedType::kDynamic : size);
  return RankedTensorType::get(shape, elementType(ctx, meta.dtype));
}

/// What an FX name stands for in the program as written.
struct Tensor {
  Value value;      ///< the value naming its storage
  std::string meta; ///< the FX name whose metadata describes it
  std::string parent; ///< for views: the source's FX name
  /// A result that may be an operand itself or a copy (a decomposed op, a
  /// reshape without example strides): a write into it is refused, since
  /// the importer cannot tell which storage torch wrote.
  bool uncertainCopy = false;
};

class ProgramImporter {
public:
  ProgramImporter(ModuleOp module, llvm::StringRef archive,
                  llvm::StringRef member)
      : ctx(module.getContext()), module(module), builder(ctx),
        archiveLoc(FileLineColLoc::get(ctx, archive, 0, 0)),
        memberName(member.str()) {}

  LogicalResult run(const Object &program, llvm::StringRef graphModule,
                    llvm::StringRef funcName);

private:
  MLIRContext *ctx;
  ModuleOp module;
  OpBuilder builder;
  Location archiveLoc;
  std::string memberName;

  ExportGraph graph;
  llvm::StringMap<TensorMeta> metas;
  llvm::StringMap<Tensor> tensors;
  llvm::StringMap<std::string> redirects; ///< in-place results -> self
  llvm::StringMap<unsigned> argumentIndex;
  /// Buffers written in place: `state`, their last value the state update.
  llvm::StringSet<> writtenBuffers;

  InFlightDiagnostic error(const llvm::Twine &message) {
    return emitError(archiveLoc) << memberName << ": " << message;
  }
  Location nodeLoc(const Object &node);
  FailureOr<const TensorMeta *> meta(llvm::StringRef name, Location loc);
  std::string canonical(llvm::StringRef name) const;
  FailureOr<Value> valueOf(llvm::StringRef name, Location loc);
  Operation *build(Location loc, llvm::StringRef op, llvm::StringRef overload,
                   llvm::StringRef args, llvm::StringRef node,
                   ValueRange operands,
                   llvm::ArrayRef<const TensorMeta *> results,
                   std::optional<int64_t> aliasOperand);
  FailureOr<Operation *> buildNode(const Object &node, llvm::StringRef op,
                                   llvm::StringRef overload,
                                   llvm::ArrayRef<const TensorMeta *> results,
                                   std::optional<int64_t> aliasOperand);
  LogicalResult importNode(const Object &node);
  LogicalResult freshResults(Operation *built,
                             llvm::ArrayRef<std::string> names,
                             llvm::ArrayRef<const TensorMeta *> results,
                             Location loc);
  LogicalResult importView(const Object &node, const AtenOp &known,
                           llvm::StringRef op, llvm::StringRef overload,
                           llvm::ArrayRef<std::string> names,
                           llvm::ArrayRef<const TensorMeta *> results);
  LogicalResult importInPlace(const Object &node, const AtenOp &known,
                              llvm::StringRef op, llvm::StringRef overload,
                              llvm::ArrayRef<std::string> names);
  LogicalResult noteWrite(const std::string &self, Location loc);
  FailureOr<bool> mayAliasIsView(llvm::StringRef op, const Object &node,
                                 llvm::StringRef self, llvm::StringRef result);
  LogicalResult checkNoHiddenWrites(const Object &node,
                                    const aten::ArgumentCondition &condition,
                                    llvm::StringRef target);
  FailureOr<func::FuncOp> buildFunction(llvm::StringRef funcName);
  LogicalResult buildReturn(func::FuncOp func);
};

Location ProgramImporter::nodeLoc(const Object &node) {
  llvm::StringRef name = node.getString("name").value_or("");
  Location where = archiveLoc;
  if (std::optional<SourceLine> line = sourceLineOf(node))
    where = FileLineColLoc::get(ctx, line->file, line->line, 0);
  return NameLoc::get(StringAttr::get(ctx, name), where);
}

FailureOr<const TensorMeta *> ProgramImporter::meta(llvm::StringRef name,
                                                    Location loc) {
  auto found = metas.find(name);
  if (found != metas.end())
    return &found->second;
  auto text = graph.tensorValues.find(name);
  if (text == graph.tensorValues.end())
    return emitError(loc) << "no tensor metadata for '" << name << "'";
  llvm::Expected<TensorMeta> read = parseTensorMeta(name, text->second);
  if (!read)
    return emitError(loc) << llvm::toString(read.takeError());
  return &metas.try_emplace(name, std::move(*read)).first->second;
}

std::string ProgramImporter::canonical(llvm::StringRef name) const {
  std::string current = name.str();
  for (auto found = redirects.find(current); found != redirects.end();
       found = redirects.find(current))
    current = found->second;
  return current;
}

FailureOr<Value> ProgramImporter::valueOf(llvm::StringRef fxName,
                                          Location loc) {
  auto found = tensors.find(canonical(fxName));
  if (found == tensors.end())
    return emitError(loc) << "uses '" << fxName
                          << "', which no earlier node or input defines";
  return found->second.value;
}

Operation *ProgramImporter::build(Location loc, llvm::StringRef op,
                                  llvm::StringRef overload,
                                  llvm::StringRef args, llvm::StringRef node,
                                  ValueRange operands,
                                  llvm::ArrayRef<const TensorMeta *> results,
                                  std::optional<int64_t> aliasOperand) {
  OperationState state(loc, ("torch.aten." + op).str());
  state.addOperands(operands);
  bool dynamic = false;
  for (const TensorMeta *result : results) {
    state.addTypes(tensorType(ctx, *result));
    dynamic |= result->dynamic;
  }
  state.addAttribute("coreai.overload", builder.getStringAttr(overload));
  state.addAttribute("coreai.args", builder.getStringAttr(args));
  state.addAttribute("coreai.node", builder.getStringAttr(node));
  if (aliasOperand && !results.empty())
    state.addAttribute(
        "coreai.alias_of",
        builder.getArrayAttr(llvm::SmallVector<Attribute>(
            results.size(), builder.getI64IntegerAttr(*aliasOperand))));
  if (dynamic) {
    llvm::SmallVector<Attribute> shapes;
    for (const TensorMeta *result : results)
      shapes.push_back(builder.getStringAttr(result->symShape()));
    state.addAttribute("coreai.sym_shapes", builder.getArrayAttr(shapes));
  }
  return builder.create(state);
}

FailureOr<Operation *>
ProgramImporter::buildNode(const Object &node, llvm::StringRef op,
                           llvm::StringRef overload,
                           llvm::ArrayRef<const TensorMeta *> results,
                           std::optional<int64_t> aliasOperand) {
  Location loc = nodeLoc(node);
  const Array *inputs = node.getArray("inputs");
  if (!inputs)
    return emitError(loc) << "node has no inputs list";
  llvm::Expected<std::vector<std::string>> names = tensorArgumentNames(*inputs);
  if (!names)
    return emitError(loc) << llvm::toString(names.takeError());
  llvm::SmallVector<Value> operands;
  for (const std::string &name : *names) {
    FailureOr<Value> value = valueOf(name, loc);
    if (failed(value))
      return failure();
    operands.push_back(*value);
  }
  llvm::Expected<std::string> args = argumentsRepr(*inputs, graph.symInts);
  if (!args)
    return emitError(loc) << llvm::toString(args.takeError());
  if (aliasOperand && operands.empty())
    return emitError(loc) << "view op '" << op << "' has no tensor operand";
  return build(loc, op, overload, *args, node.getString("name").value_or(""),
               operands, results, aliasOperand);
}

FailureOr<bool> ProgramImporter::mayAliasIsView(llvm::StringRef op,
                                                const Object &node,
                                                llvm::StringRef self,
                                                llvm::StringRef result) {
  Location loc = nodeLoc(node);
  FailureOr<const TensorMeta *> in = meta(self, loc);
  FailureOr<const TensorMeta *> out = meta(result, loc);
  if (failed(in) || failed(out))
    return failure();
  if (op == "to" || op == "type_as") {
    // `to` returns `self` unless the dtype, layout or `copy=True` ask for
    // a new tensor.
    if (boolArgument(*node.getArray("inputs"), "copy") == true)
      return false;
    return (*in)->dtype == (*out)->dtype && (*in)->hinted && (*out)->hinted &&
           (*in)->hintStrides == (*out)->hintStrides;
  }
  if (op == "contiguous")
    return isContiguous(**in);
  // reshape, flatten: a view whenever torch can find strides for one.
  return (*in)->hinted && (*out)->hinted &&
         viewStridesExist((*in)->hintSizes, (*in)->hintStrides,
                          (*out)->hintSizes);
}

/// Batch norms write their running statistics in training without a
/// schema annotation (AtenOpFactsManual.def): imported only where the
/// node's argument says they do not (`training=False`).
LogicalResult
ProgramImporter::checkNoHiddenWrites(const Object &node,
                                     const aten::ArgumentCondition &condition,
                                     llvm::StringRef target) {
  std::optional<bool> flag =
      boolArgument(*node.getArray("inputs"), condition.argument);
  std::optional<llvm::StringRef> literal;
  if (flag)
    literal = *flag ? "True" : "False";
  if (condition.satisfiedBy(literal))
    return success();
  return emitError(nodeLoc(node))
         << "'aten." << target << "' writes its running statistics unless '"
         << condition.argument
         << "' is False; export the model in eval mode or with "
            "`run_decompositions()`";
}

LogicalResult ProgramImporter::freshResults(
    Operation *built, llvm::ArrayRef<std::string> names,
    llvm::ArrayRef<const TensorMeta *> results, Location loc) {
  for (auto [name, result] : llvm::zip(names, results))
    if (llvm::Error dense = checkDense(*result, name))
      return emitError(loc) << llvm::toString(std::move(dense));
  for (auto [i, name] : llvm::enumerate(names)) {
    Tensor &t = tensors[name];
    t.value = built->getResult(i);
    t.meta = name;
  }
  return success();
}

LogicalResult ProgramImporter::importView(
    const Object &node, const AtenOp &known, llvm::StringRef op,
    llvm::StringRef overload, llvm::ArrayRef<std::string> names,
    llvm::ArrayRef<const TensorMeta *> results) {
  Location loc = nodeLoc(node);
  std::optional<std::string> self =
      selfArgumentName(*node.getArray("inputs"));
  if (!self)
    return emitError(loc) << "view op 'aten." << op << "." << overload
                          << "' has no tensor `self`";
  *self = canonical(*self);
  bool view = true;
  if (known.role == OpRole::MayAlias) {
    if (names.size() != 1)
      return emitError(loc) << "expected one result from 'aten." << op << "."
                            << overload << "'";
    FailureOr<bool> isView = mayAliasIsView(op, node, *self, names[0]);
    if (failed(isView))
      return failure();
    view = *isView;
  }
  FailureOr<Operation *> built =
      buildNode(node, op, overload, results,
                view ? std::optional<int64_t>(0) : std::nullopt);
  if (failed(built))
    return failure();
  if (!view) {
    if (failed(freshResults(*built, names, results, loc)))
      return failure();
    // Without example strides torch's choice is unknown.
    if (op != "to" && op != "type_as" && op != "contiguous" &&
        !(metas.find(*self)->second.hinted &&
          metas.find(names[0])->second.hinted))
      tensors[names[0]].uncertainCopy = true;
    return success();
  }
  for (auto [i, name] : llvm::enumerate(names)) {
    Tensor &t = tensors[name];
    t.value = (*built)->getResult(i);
    t.meta = name;
    t.parent = *self;
  }
  return success();
}

/// A write reaches the root of `self`'s views: a buffer argument becomes
/// state; any other argument may not change (the functionalisation would
/// refuse it too, but in the IR's words, not the signature's).
LogicalResult ProgramImporter::noteWrite(const std::string &self,
                                         Location loc) {
  std::string name = self;
  while (true) {
    const Tensor &tensor = tensors.find(name)->second;
    if (tensor.uncertainCopy)
      return emitError(loc) << "writes in place into '" << name
                            << "', which torch may have made as a view or as "
                               "a copy (a reshape, a decomposed op): the "
                               "importer cannot tell which storage the write "
                               "reaches";
    if (tensor.parent.empty())
      break;
    name = tensor.parent;
  }
  auto index = argumentIndex.find(name);
  if (index == argumentIndex.end())
    return success(); // an intermediate: nothing outlives the call
  const Placeholder &p = graph.placeholders[index->second];
  if (p.specKind != "buffer")
    return emitError(loc) << "writes in place into " << p.specKind << " '"
                          << p.name
                          << "': only buffers are state a program may update";
  writtenBuffers.insert(p.name);
  return success();
}

LogicalResult ProgramImporter::importInPlace(const Object &node,
                                             const AtenOp &known,
                                             llvm::StringRef op,
                                             llvm::StringRef overload,
                                             llvm::ArrayRef<std::string> names) {
  Location loc = nodeLoc(node);
  std::optional<std::string> self =
      selfArgumentName(*node.getArray("inputs"));
  if (!self || names.size() != 1)
    return emitError(loc) << "in-place op 'aten." << op << "." << overload
                          << "' must write one tensor `self` and return it";
  *self = canonical(*self);
  if (!tensors.count(*self))
    return emitError(loc) << "writes '" << *self
                          << "', which no earlier node or input defines";
  redirects[names[0]] = *self;
  if (known.role == OpRole::InPlace && failed(noteWrite(*self, loc)))
    return failure();
  FailureOr<const TensorMeta *> selfMeta = meta(tensors[*self].meta, loc);
  if (failed(selfMeta))
    return failure();
  // Built as written; functionalize() makes it the functional twin.
  return failure(failed(buildNode(node, op, overload, {*selfMeta}, {})));
}

LogicalResult ProgramImporter::importNode(const Object &node) {
  Location loc = nodeLoc(node);
  llvm::StringRef target = node.getString("target").value_or("");
  const Array *inputs = node.getArray("inputs");
  const Array *outputs = node.getArray("outputs");
  if (!inputs || !outputs)
    return emitError(loc) << "node '" << target
                          << "' lacks its inputs or outputs";
  llvm::Expected<NodeResults> decoded = nodeResults(*outputs, target);
  if (!decoded)
    return emitError(loc) << llvm::toString(decoded.takeError());
  // Size arithmetic (`sym_size`, `operator.mul` on SymInts) holds no tensor.
  if (decoded->onlySymbolic)
    return success();
  if (!target.consume_front("torch.ops.aten."))
    return emitError(loc) << "unknown op '"
                          << node.getString("target").value_or("")
                          << "': only ATen ops (torch.ops.aten.*) are imported";
  auto [op, overload] = target.rsplit('.');
  std::optional<AtenOp> known = classifyAtenOp(op, overload);
  if (!known || overload.empty())
    return emitError(loc) << "unknown op 'aten." << target
                          << "': the importer does not know whether it "
                             "aliases or writes its operands";
  llvm::ArrayRef<std::string> names = decoded->names;
  llvm::SmallVector<const TensorMeta *> results;
  for (const std::string &name : names) {
    if (tensors.count(name) || redirects.count(name))
      return emitError(loc) << "defines '" << name << "' a second time";
    FailureOr<const TensorMeta *> m = meta(name, loc);
    if (failed(m))
      return failure();
    results.push_back(*m);
  }
  switch (known->role) {
  case OpRole::Check:
    return failure(failed(buildNode(node, op, overload, {}, {})));
  case OpRole::Functional:
  case OpRole::MaybeShared: {
    if (known->writesUnless && failed(checkNoHiddenWrites(
                                   node, *known->writesUnless, target)))
      return failure();
    FailureOr<Operation *> built =
        buildNode(node, op, overload, results, std::nullopt);
    if (failed(built) || failed(freshResults(*built, names, results, loc)))
      return failure();
    // torch may have returned an operand itself: a write into the result
    // could reach that operand's storage.
    if (known->role == OpRole::MaybeShared)
      for (const std::string &name : names)
        tensors[name].uncertainCopy = true;
    return success();
  }
  case OpRole::View:
  case OpRole::MayAlias:
    return importView(node, *known, op, overload, names, results);
  case OpRole::DetachInPlace:
  case OpRole::InPlace:
    return importInPlace(node, *known, op, overload, names);
  }
  return success();
}

FailureOr<func::FuncOp>
ProgramImporter::buildFunction(llvm::StringRef funcName) {
  llvm::SmallVector<Type> argumentTypes;
  for (const Placeholder &p : graph.placeholders) {
    FailureOr<const TensorMeta *> m = meta(p.fxName, archiveLoc);
    if (failed(m))
      return failure();
    argumentIndex[p.fxName] = argumentTypes.size();
    argumentTypes.push_back(tensorType(ctx, **m));
  }
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, archiveLoc, funcName,
                                   builder.getFunctionType(argumentTypes, {}));
  Block *body = func.addEntryBlock();
  for (auto [index, p] : llvm::enumerate(graph.placeholders)) {
    Tensor &t = tensors[p.fxName];
    t.value = body->getArgument(index);
    t.meta = p.fxName;
  }
  builder.setInsertionPointToEnd(body);
  return func;
}

/// The signature's outputs as written, and the arguments' kinds; the state
/// updates of buffers written in place are functionalize()'s to add.
LogicalResult ProgramImporter::buildReturn(func::FuncOp func) {
  struct Result {
    Value value;
    std::string kind, name, meta;
  };
  llvm::SmallVector<Result> results;
  llvm::StringSet<> stateBuffers = writtenBuffers;
  for (const GraphOutput &output : graph.outputs) {
    if (!output.tensor)
      continue; // a constant or None output holds no memory
    FailureOr<Value> value = valueOf(*output.tensor, archiveLoc);
    if (failed(value))
      return failure();
    if (output.specKind == "user_output") {
      results.push_back({*value, "output", "", canonical(*output.tensor)});
      continue;
    }
    if (!stateBuffers.insert(output.bufferName).second)
      return error("buffer '") << output.bufferName
                               << "' is both written in place and returned "
                                  "as a buffer mutation";
    results.push_back({*value, "state_update", output.bufferName,
                       canonical(*output.tensor)});
  }
  llvm::SmallVector<Value> returned;
  for (const Result &r : results)
    returned.push_back(r.value);
  func::ReturnOp::create(builder, archiveLoc, returned);
  func.setType(builder.getFunctionType(func.getArgumentTypes(),
                                       ValueRange(returned).getTypes()));
  for (auto [index, p] : llvm::enumerate(graph.placeholders)) {
    llvm::StringRef kind = p.specKind == "parameter" ? "weight"
                           : p.specKind == "tensor_constant" ? "constant"
                           : p.specKind == "user_input"      ? "input"
                           : stateBuffers.contains(p.name)   ? "state"
                           : p.persistent                    ? "weight"
                                                             : "constant";
    func.setArgAttr(index, "coreai.kind", builder.getStringAttr(kind));
    func.setArgAttr(index, "coreai.name", builder.getStringAttr(p.name));
    const TensorMeta &m = metas.find(p.fxName)->second;
    if (m.dynamic)
      func.setArgAttr(index, "coreai.sym_shape",
                      builder.getStringAttr(m.symShape()));
  }
  for (auto [index, r] : llvm::enumerate(results)) {
    func.setResultAttr(index, "coreai.kind", builder.getStringAttr(r.kind));
    if (!r.name.empty())
      func.setResultAttr(index, "coreai.name", builder.getStringAttr(r.name));
    auto m = metas.find(tensors.count(r.meta) ? tensors[r.meta].meta : r.meta);
    if (m != metas.end() && m->second.dynamic)
      func.setResultAttr(index, "coreai.sym_shape",
                         builder.getStringAttr(m->second.symShape()));
  }
  return success();
}

LogicalResult ProgramImporter::run(const Object &program,
                                   llvm::StringRef graphModule,
                                   llvm::StringRef funcName) {
  llvm::Expected<ExportGraph> decoded = decodeGraph(program, graphModule);
  if (!decoded)
    return error(llvm::toString(decoded.takeError()));
  graph = std::move(*decoded);
  FailureOr<func::FuncOp> func = buildFunction(funcName);
  if (failed(func))
    return failure();
  for (auto [index, text] : llvm::enumerate(graph.nodes)) {
    llvm::Expected<llvm::json::Value> node = llvm::json::parse(text);
    if (!node)
      return error("node ") << index << " is not valid JSON: "
                            << llvm::toString(node.takeError());
    const Object *object = node->getAsObject();
    if (!object)
      return error("node ") << index << " is not an object";
    if (failed(importNode(*object)))
      return failure();
  }
  if (failed(buildReturn(*func)))
    return failure();
  return functionalize(*func);
}

/// The module's attributes describe the first program.
void describeModule(ModuleOp module, const Object &program,
                    llvm::StringRef archive, llvm::StringRef member) {
  if (module->hasAttr("coreai.source"))
    return;
  Builder b(module.getContext());
  module->setAttr("coreai.source", b.getStringAttr("torch.export"));
  llvm::StringRef model = member.split('/').first;
  if (model == "models")
    model = llvm::sys::path::stem(archive);
  module->setAttr("coreai.model", b.getStringAttr(model));
  module->setAttr("coreai.config",
                  b.getStringAttr(programConfig(program, archive, member)));
  if (std::optional<std::string> ranges = symbolRanges(program))
    module->setAttr("coreai.sym_ranges", b.getStringAttr(*ranges));
}

} // namespace

LogicalResult importProgram(ModuleOp module, llvm::StringRef archive,
                            const ModelMember &member,
                            llvm::StringRef funcName) {
  Location loc = FileLineColLoc::get(module.getContext(), archive, 0, 0);
  // Everything but the graph module is small and parsed whole.
  auto parts = splitObject(member.json);
  if (!parts)
    return emitError(loc) << member.path << ": not valid JSON: "
                          << llvm::toString(parts.takeError());
  Object program;
  llvm::StringRef graphModule;
  for (const JsonMember &part : *parts) {
    if (part.key == "graph_module") {
      graphModule = part.value;
      continue;
    }
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(part.value);
    if (!value)
      return emitError(loc) << member.path << ": '" << part.key
                            << "' is not valid JSON: "
                            << llvm::toString(value.takeError());
    program[part.key] = std::move(*value);
  }
  if (failed(ProgramImporter(module, archive, member.path)
                 .run(program, graphModule, funcName)))
    return failure();
  describeModule(module, program, archive, member.path);
  // What was built must hold the IR's contract (the coreai dialect checks
  // every attribute, the exporter's strings and the module's symbol ranges
  // included): a program whose strings the planner could not read is
  // refused here, at its node, or at the archive for the module's.
  return mlir::verify(module);
}

} // namespace coreai::import
