//===- Functionalize.cpp - In-place ATen ops as their functional twins ----===//
//
// One walk over the body in order. Every value names a storage: an in-place
// op's result is its `self`, and a view's results (`coreai.alias_of`) are
// windows on its source. Each storage holds its current value; each root
// (an argument or a fresh result) a version that grows with every write, so
// a view made before its root's latest write is made again, from the new
// value, before its next reader (docs/IMPORT.md, "Non-functional programs").
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Passes/Functionalize.h"
#include "coreai-plan/Passes/Passes.h"

#include "AtenOps.h"
#include "coreai-plan/Dialect/CoreAI.h"
#include "coreai-plan/Exporter/AtenArgs.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InterleavedRange.h"

#include <limits>

namespace coreai {
#define GEN_PASS_DEF_COREAIFUNCTIONALIZE
#include "coreai-plan/Passes/Passes.h.inc"

namespace {

using namespace mlir;

/// What an in-place op becomes: nothing (`detach_` writes no data) or its
/// functional twin from the ATen op facts.
struct InPlaceRewrite {
  bool metadataOnly = false;
  std::string functional, overload;
};

std::optional<InPlaceRewrite> inPlaceRewrite(Operation *op) {
  llvm::StringRef name = op->getName().getStringRef();
  if (!name.consume_front("torch.aten."))
    return std::nullopt;
  auto overload = op->getAttrOfType<StringAttr>(attr::overload);
  std::optional<import::AtenOp> known =
      import::classifyAtenOp(name, overload ? overload.getValue() : "");
  if (!known)
    return std::nullopt;
  if (known->role == import::OpRole::DetachInPlace)
    return InPlaceRewrite{true, {}, {}};
  if (known->role == import::OpRole::InPlace)
    return InPlaceRewrite{false, known->functional, known->functionalOverload};
  return std::nullopt;
}

llvm::StringRef stringAttr(Operation *op, llvm::StringRef name) {
  auto value = op->getAttrOfType<StringAttr>(name);
  return value ? value.getValue() : llvm::StringRef();
}

/// The size of each dim as text: the symbolic shape's expression where the
/// value has one (`coreai.sym_shape(s)`), the integer otherwise.
llvm::SmallVector<std::string> dimTexts(Value value) {
  llvm::StringRef symShape;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (auto func = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp()))
      if (auto text = func.getArgAttrOfType<StringAttr>(
              argument.getArgNumber(), attr::symShape))
        symShape = text.getValue();
  } else if (auto shapes = value.getDefiningOp()->getAttrOfType<ArrayAttr>(
                 attr::symShapes)) {
    unsigned index = cast<OpResult>(value).getResultNumber();
    if (index < shapes.size())
      if (auto text = dyn_cast<StringAttr>(shapes[index]))
        symShape = text.getValue();
  }
  llvm::SmallVector<std::string> dims;
  if (!symShape.empty()) {
    llvm::SmallVector<llvm::StringRef> parts;
    symShape.split(parts, ',');
    for (llvm::StringRef part : parts)
      dims.push_back(part.trim().str());
    return dims;
  }
  for (int64_t dim : cast<RankedTensorType>(value.getType()).getShape())
    dims.push_back(std::to_string(dim));
  return dims;
}

/// The arguments of a view op by schema position: `None` or an absent
/// argument is its default; std::nullopt when it is not a literal integer.
class ViewArguments {
public:
  explicit ViewArguments(Operation *view)
      : args(parseAtenArgs(stringAttr(view, attr::args))) {}

  std::optional<llvm::StringRef> text(unsigned position,
                                      llvm::StringRef name) const {
    if (!args)
      return std::nullopt;
    if (position < args->positional.size())
      return llvm::StringRef(args->positional[position]);
    return args->keyword(name);
  }

  std::optional<int64_t> integer(unsigned position, llvm::StringRef name,
                                 int64_t fallback) const {
    std::optional<llvm::StringRef> value = text(position, name);
    if (!value || value->trim() == "None")
      return fallback;
    int64_t number;
    if (value->trim().getAsInteger(10, number))
      return std::nullopt;
    return number;
  }

private:
  std::optional<AtenArgs> args;
};

/// One storage's state during the walk.
struct Storage {
  Value current;
  Value root;
  unsigned version = 0; ///< the root's version when `current` was made
  /// For views: the op that made it and its operands (as storages).
  Operation *viewOp = nullptr;
  llvm::SmallVector<Value, 2> viewOperands;
  Value parent;
};

class Functionalizer {
public:
  explicit Functionalizer(func::FuncOp func)
      : func(func), builder(func.getContext()) {}

  LogicalResult run();

private:
  func::FuncOp func;
  OpBuilder builder;
  llvm::DenseMap<Value, Value> selfOf; ///< in-place results -> their self
  llvm::DenseMap<Value, Storage> storages;
  llvm::DenseMap<Value, unsigned> versions; ///< per root
  /// Roots written, in first-write order, with their first writer.
  llvm::SmallVector<std::pair<Value, Location>> writtenRoots;
  llvm::DenseSet<Value> written;

  Value canonical(Value value) const;
  Storage &storage(Value canonicalValue);
  FailureOr<Value> resolve(Value value, Location loc);
  FailureOr<Value> remakeView(Value canonicalValue, Location loc);
  LogicalResult writeBack(Value canonicalValue, Value value, Location loc);
  FailureOr<Value> scatterInto(const Storage &view, Value source,
                               Value newValue, Location loc);
  Value build(Location loc, llvm::StringRef op, llvm::StringRef overload,
              llvm::StringRef args, Operation *view, ValueRange operands,
              Value like, bool alias);
  LogicalResult visit(Operation *op);
  LogicalResult rewriteInPlace(Operation *op, const InPlaceRewrite &rewrite);
  LogicalResult returnStates(func::ReturnOp ret);
};

Value Functionalizer::canonical(Value value) const {
  for (auto found = selfOf.find(value); found != selfOf.end();
       found = selfOf.find(value))
    value = found->second;
  return value;
}

Storage &Functionalizer::storage(Value canonicalValue) {
  auto [found, inserted] = storages.try_emplace(canonicalValue);
  if (inserted) {
    found->second.current = canonicalValue;
    found->second.root = canonicalValue;
  }
  return found->second;
}

FailureOr<Value> Functionalizer::resolve(Value value, Location loc) {
  Value name = canonical(value);
  Storage &tensor = storage(name);
  if (!tensor.viewOp || tensor.version == versions.lookup(tensor.root))
    return tensor.current;
  return remakeView(name, loc);
}

FailureOr<Value> Functionalizer::remakeView(Value name, Location loc) {
  Operation *view = storage(name).viewOp;
  llvm::SmallVector<Value, 2> sources = storage(name).viewOperands;
  if (view->getNumResults() != 1)
    return emitError(loc) << "reads a view made by '"
                          << stringAttr(view, attr::node)
                          << "', one of several views made by one op, after "
                             "its storage was written in place: not supported";
  llvm::SmallVector<Value, 2> operands;
  for (Value source : sources) {
    FailureOr<Value> current = resolve(source, loc);
    if (failed(current))
      return failure();
    operands.push_back(*current);
  }
  Operation *again = builder.clone(*view);
  again->setOperands(operands);
  Storage &tensor = storage(name); // resolve may have grown the map
  tensor.current = again->getResult(0);
  tensor.version = versions.lookup(tensor.root);
  return tensor.current;
}

LogicalResult Functionalizer::writeBack(Value name, Value value,
                                        Location loc) {
  Storage tensor = storage(name);
  if (tensor.viewOp && !isa<RankedTensorType>(tensor.parent.getType()))
    return emitError(loc) << "writes in place through '"
                          << stringAttr(tensor.viewOp, attr::node)
                          << "', a view of a value that is no ranked tensor";
  if (!tensor.viewOp) {
    if (written.insert(name).second)
      writtenRoots.push_back({name, loc});
    unsigned version = ++versions[name];
    Storage &root = storage(name);
    root.current = value;
    root.version = version;
    return success();
  }
  FailureOr<Value> source = resolve(tensor.parent, loc);
  if (failed(source))
    return failure();
  FailureOr<Value> sourceValue = scatterInto(tensor, *source, value, loc);
  if (failed(sourceValue) || failed(writeBack(tensor.parent, *sourceValue, loc)))
    return failure();
  Storage &view = storage(name);
  view.current = value;
  view.version = versions.lookup(view.root);
  return success();
}

Value Functionalizer::build(Location loc, llvm::StringRef op,
                            llvm::StringRef overload, llvm::StringRef args,
                            Operation *view, ValueRange operands, Value like,
                            bool alias) {
  OperationState state(loc, ("torch.aten." + op).str());
  state.addOperands(operands);
  state.addTypes(like.getType());
  state.addAttribute(attr::overload, builder.getStringAttr(overload));
  state.addAttribute(attr::args, builder.getStringAttr(args));
  llvm::StringRef node = stringAttr(view, attr::node);
  if (!node.empty())
    state.addAttribute(attr::node, builder.getStringAttr(node + "_scatter"));
  if (alias)
    state.addAttribute(attr::aliasOf,
                       builder.getArrayAttr({builder.getI64IntegerAttr(0)}));
  if (!cast<RankedTensorType>(like.getType()).hasStaticShape())
    state.addAttribute(attr::symShapes,
                       builder.getArrayAttr({builder.getStringAttr(
                           llvm::join(dimTexts(like), ","))}));
  return builder.create(state)->getResult(0);
}

/// The inverse of a permutation written as `[2, 0, 1]` (negative dims
/// counted from the end), or std::nullopt when it is not one of `rank`.
std::optional<llvm::SmallVector<int64_t>>
inversePermutation(llvm::StringRef text, int64_t rank) {
  std::optional<std::vector<int64_t>> dims = parseIntegerList(text);
  if (!dims || int64_t(dims->size()) != rank)
    return std::nullopt;
  llvm::SmallVector<int64_t> inverse(rank, -1);
  for (auto [position, dim] : llvm::enumerate(*dims)) {
    dim = dim < 0 ? dim + rank : dim;
    if (dim < 0 || dim >= rank || inverse[dim] != -1)
      return std::nullopt;
    inverse[dim] = position;
  }
  return inverse;
}

FailureOr<Value> Functionalizer::scatterInto(const Storage &view,
                                             Value source, Value newValue,
                                             Location loc) {
  Operation *viewOp = view.viewOp;
  llvm::StringRef op = viewOp->getName().getStringRef();
  op.consume_front("torch.aten.");
  llvm::StringRef overload = stringAttr(viewOp, attr::overload);
  Value like = view.parent; // the source's type and symbolic shape
  auto sourceType = cast<RankedTensorType>(like.getType());
  int64_t rank = sourceType.getRank();
  ViewArguments args(viewOp);
  if (import::isLayoutKeepingView(op, overload)) {
    if (newValue.getType() == sourceType)
      return newValue;
    std::string text =
        llvm::formatv("(T, [{0}])", llvm::join(dimTexts(like), ", ")).str();
    return build(loc, "view", "default", text, viewOp, newValue, like, true);
  }
  if (llvm::is_contained({"transpose", "swapaxes", "swapdims", "t"}, op)) {
    std::optional<int64_t> first = args.integer(1, "dim0", 0);
    std::optional<int64_t> second = args.integer(2, "dim1", 1);
    if (first && second)
      return build(loc, "transpose", "int",
                   llvm::formatv("(T, {0}, {1})", *first, *second).str(),
                   viewOp, newValue, like, true);
  }
  if (op == "permute")
    if (std::optional<llvm::StringRef> dims = args.text(1, "dims"))
      if (auto inverse = inversePermutation(*dims, rank))
        return build(loc, "permute", "default",
                     llvm::formatv("(T, [{0}])",
                                   llvm::interleaved(*inverse, ", "))
                         .str(),
                     viewOp, newValue, like, true);
  if (op == "slice") {
    std::optional<int64_t> dim = args.integer(1, "dim", 0);
    std::optional<int64_t> start = args.integer(2, "start", 0);
    std::optional<int64_t> end =
        args.integer(3, "end", std::numeric_limits<int64_t>::max());
    std::optional<int64_t> step = args.integer(4, "step", 1);
    if (dim && start && end && step)
      return build(loc, "slice_scatter", "default",
                   llvm::formatv("(T, T, {0}, {1}, {2}, {3})", *dim, *start,
                                 *end, *step)
                       .str(),
                   viewOp, {source, newValue}, like, false);
  }
  if (op == "select") {
    std::optional<int64_t> dim = args.integer(1, "dim", 0);
    std::optional<int64_t> index = args.integer(2, "index", 0);
    if (dim && index)
      return build(loc, "select_scatter", "default",
                   llvm::formatv("(T, T, {0}, {1})", *dim, *index).str(),
                   viewOp, {source, newValue}, like, false);
  }
  return emitError(loc)
         << "writes in place through '" << stringAttr(viewOp, attr::node)
         << "' (aten." << op << "." << overload
         << "), a view that cannot be written back functionally (slices, "
            "selects, reshapes, permutes and transposes can); export with "
            "`run_decompositions()` to get a functional program";
}

LogicalResult Functionalizer::visit(Operation *op) {
  llvm::SmallVector<Value, 4> names;
  for (Value operand : op->getOperands())
    names.push_back(canonical(operand));
  builder.setInsertionPoint(op);
  for (auto [index, name] : llvm::enumerate(names)) {
    FailureOr<Value> current = resolve(name, op->getLoc());
    if (failed(current))
      return failure();
    op->setOperand(index, *current);
  }
  auto aliasOf = op->getAttrOfType<ArrayAttr>(attr::aliasOf);
  if (!aliasOf)
    return success();
  for (auto [result, entry] : llvm::zip(op->getResults(), aliasOf)) {
    auto source = dyn_cast<IntegerAttr>(entry);
    if (!source || source.getInt() < 0 ||
        source.getInt() >= int64_t(names.size()))
      continue;
    Value parent = names[source.getInt()];
    Value root = storage(parent).root;
    Storage &view = storage(result);
    view.root = root;
    view.version = versions.lookup(root);
    view.viewOp = op;
    view.viewOperands.assign(names.begin(), names.end());
    view.parent = parent;
  }
  return success();
}

LogicalResult Functionalizer::rewriteInPlace(Operation *op,
                                             const InPlaceRewrite &rewrite) {
  Location loc = op->getLoc();
  if (op->getNumOperands() == 0 || op->getNumResults() != 1 ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return emitError(loc) << "in-place op '" << op->getName()
                          << "' must write one tensor `self` and return it";
  Value self = canonical(op->getOperand(0));
  selfOf[op->getResult(0)] = self;
  builder.setInsertionPoint(op);
  if (rewrite.metadataOnly)
    return failure(failed(resolve(self, loc)));
  llvm::SmallVector<Value, 4> operands;
  for (Value operand : op->getOperands()) {
    FailureOr<Value> current = resolve(operand, loc);
    if (failed(current))
      return failure();
    operands.push_back(*current);
  }
  OperationState state(loc, "torch.aten." + rewrite.functional);
  state.addOperands(operands);
  state.addTypes(op->getResultTypes());
  state.addAttributes(op->getAttrs());
  state.attributes.erase(attr::aliasOf);
  state.attributes.set(attr::overload, builder.getStringAttr(rewrite.overload));
  Operation *functional = builder.create(state);
  return writeBack(self, functional->getResult(0), loc);
}

/// How an error names argument `index`: its kind and name.
std::string describeArgument(func::FuncOp func, unsigned index) {
  auto kind = func.getArgAttrOfType<StringAttr>(index, attr::kind);
  auto name = func.getArgAttrOfType<StringAttr>(index, attr::name);
  return llvm::formatv("{0} argument {1}",
                       kind ? kind.getValue() : "unmarked",
                       name ? "'" + name.getValue().str() + "'"
                            : "#" + std::to_string(index))
      .str();
}

LogicalResult Functionalizer::returnStates(func::ReturnOp ret) {
  builder.setInsertionPoint(ret);
  auto argumentIndex = [](Value root) {
    auto argument = dyn_cast<BlockArgument>(root);
    return argument ? argument.getArgNumber()
                    : std::numeric_limits<unsigned>::max();
  };
  // In the arguments' order, as torch.export lists buffer mutations.
  llvm::stable_sort(writtenRoots, [&](const auto &a, const auto &b) {
    return argumentIndex(a.first) < argumentIndex(b.first);
  });
  struct StateUpdate {
    Value value;
    unsigned argument;
    Location writer;
  };
  llvm::SmallVector<StateUpdate> updates;
  for (auto [root, writer] : writtenRoots) {
    unsigned index = argumentIndex(root);
    if (index == std::numeric_limits<unsigned>::max())
      continue; // an intermediate written in place: nothing outlives the call
    auto kind = func.getArgAttrOfType<StringAttr>(index, attr::kind);
    if (!kind || kind.getValue() != "state")
      return emitError(writer)
             << "writes in place into " << describeArgument(func, index)
             << ": only a state argument (coreai.kind = \"state\") may be "
                "updated by a call";
    FailureOr<Value> value = resolve(root, writer);
    if (failed(value))
      return failure();
    updates.push_back({*value, index, writer});
  }
  llvm::SmallVector<Value> returned;
  for (Value operand : ret.getOperands()) {
    FailureOr<Value> current = resolve(operand, ret.getLoc());
    if (failed(current))
      return failure();
    returned.push_back(*current);
  }

  llvm::SmallVector<Value> operands;
  llvm::SmallVector<DictionaryAttr> resultAttrs;
  for (const StateUpdate &update : updates) {
    auto name = func.getArgAttrOfType<StringAttr>(update.argument, attr::name);
    std::optional<unsigned> existing;
    for (unsigned result = 0; result < func.getNumResults(); ++result)
      if (func.getResultAttrOfType<StringAttr>(result, attr::kind) ==
              builder.getStringAttr("state_update") &&
          func.getResultAttrOfType<StringAttr>(result, attr::name) == name)
        existing = result;
    if (existing) {
      if (returned[*existing] == update.value)
        continue; // the graph returns the written value itself
      return emitError(update.writer)
             << "writes in place into "
             << describeArgument(func, update.argument)
             << " and returns another value as its state_update";
    }
    llvm::SmallVector<NamedAttribute, 3> attrs = {
        builder.getNamedAttr(attr::kind, builder.getStringAttr("state_update"))};
    if (name)
      attrs.push_back(builder.getNamedAttr(attr::name, name));
    if (auto symShape = func.getArgAttrOfType<StringAttr>(update.argument,
                                                          attr::symShape))
      attrs.push_back(builder.getNamedAttr(attr::symShape, symShape));
    operands.push_back(update.value);
    resultAttrs.push_back(builder.getDictionaryAttr(attrs));
  }
  for (auto [index, value] : llvm::enumerate(returned)) {
    operands.push_back(value);
    resultAttrs.push_back(func.getResultAttrDict(index)
                              ? func.getResultAttrDict(index)
                              : builder.getDictionaryAttr({}));
  }
  ret->setOperands(operands);
  func.setType(builder.getFunctionType(func.getArgumentTypes(),
                                       ValueRange(operands).getTypes()));
  func.setAllResultAttrs(resultAttrs);
  return success();
}

LogicalResult Functionalizer::run() {
  if (!func.getBody().hasOneBlock())
    return func.emitError("has in-place ops and more than one block: "
                          "functionalisation follows one block in order");
  Block &body = func.getBody().front();
  llvm::SmallVector<Operation *> ops =
      llvm::to_vector(llvm::map_range(body, [](Operation &op) { return &op; }));
  llvm::SmallVector<Operation *> replaced;
  for (Operation *op : ops) {
    LogicalResult done = success();
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      done = returnStates(ret);
    } else if (std::optional<InPlaceRewrite> rewrite = inPlaceRewrite(op)) {
      done = rewriteInPlace(op, *rewrite);
      replaced.push_back(op);
    } else {
      done = visit(op);
    }
    if (failed(done))
      return failure();
  }
  for (Operation *op : llvm::reverse(replaced)) {
    if (!op->use_empty())
      return op->emitError("its result is used inside a nested region, "
                           "which functionalisation does not follow");
    op->erase();
  }
  return success();
}

struct FunctionalizePass
    : impl::CoreAIFunctionalizeBase<FunctionalizePass> {
  void runOnOperation() override {
    if (failed(functionalize(getOperation())))
      signalPassFailure();
  }
};

} // namespace

bool hasInPlaceOps(func::FuncOp func) {
  if (func.isExternal())
    return false;
  for (Operation &op : func.getBody().front())
    if (inPlaceRewrite(&op))
      return true;
  return false;
}

LogicalResult functionalize(func::FuncOp func) {
  if (!hasInPlaceOps(func))
    return success();
  return Functionalizer(func).run();
}

} // namespace coreai
