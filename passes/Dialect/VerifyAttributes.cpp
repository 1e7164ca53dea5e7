//===- VerifyAttributes.cpp - Checks of every coreai.* attribute ----------===//
//
// MLIR calls these hooks for each attribute whose name starts with
// `coreai.`, on ops, function arguments and function results, when a file
// is parsed and after every pass. A placement must be one per result, in
// range of its op and function, with the byte size of the result's type
// (in the dtype `coreai.result_dtypes` says the kernel writes); the
// exporter's conventions must parse with their one parser each
// (coreai-plan/Exporter/);
// the old placement arrays and unknown names are refused by name.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Dialect/CoreAI.h"
#include "coreai-plan/Exporter/AtenArgs.h"
#include "coreai-plan/Exporter/SymShape.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace coreai {
namespace {

/// The names of the placement arrays this project wrote before the
/// dialect (one `array<i64>` slot per result).
bool isOldPlacementName(StringRef name) {
  return llvm::is_contained({"coreai.offsets", "coreai.sizes",
                             "coreai.in_place", "coreai.output",
                             "coreai.state", "coreai.borrow"},
                            name);
}

LogicalResult refuseOldPlacement(Operation *op, StringRef name) {
  return op->emitError("'")
         << name
         << "' is the old placement form (one array slot per result); this "
            "coreai-plan reads one 'coreai.placement' per op: plan the "
            "graph again";
}

template <typename AttrT>
LogicalResult expect(Operation *op, NamedAttribute attribute,
                     StringRef what) {
  if (isa<AttrT>(attribute.getValue()))
    return success();
  return op->emitError("'") << attribute.getName().getValue() << "' must be "
                            << what << ", got " << attribute.getValue();
}

/// Checks one result's placement against the op and its function.
LogicalResult checkPlacement(Operation *op, unsigned index,
                             const Placement &placement) {
  auto function = op->getParentOfType<FunctionOpInterface>();
  int64_t results = function ? int64_t(function.getResultTypes().size()) : 0;
  int64_t arguments = function ? int64_t(function.getArgumentTypes().size())
                               : 0;
  auto fail = [&]() {
    return op->emitError("'coreai.placement' of result ") << index << ": ";
  };
  if (placement.output >= 0 && placement.output >= results)
    return fail() << "names output " << placement.output
                  << ", but the function has " << results;
  if (placement.argument >= 0 && placement.argument >= arguments)
    return fail() << "names argument " << placement.argument
                  << ", but the function has " << arguments;
  if (placement.inPlaceOperand &&
      *placement.inPlaceOperand >= int64_t(op->getNumOperands()))
    return fail() << "is in place over operand " << *placement.inPlaceOperand
                  << ", but the op has " << op->getNumOperands();
  if (placement.kind == Placement::Kind::Fused) {
    auto kernel = op->getAttrOfType<IntegerAttr>(attr::kernel);
    if (!kernel || kernel.getInt() != placement.kernel)
      return fail() << "stays inside kernel " << placement.kernel
                    << ", but the op is not in that kernel ('coreai.kernel' "
                    << (kernel ? "is " + std::to_string(kernel.getInt())
                               : std::string("is absent"))
                    << ")";
  }
  bool hasBytes = placement.kind == Placement::Kind::Heap ||
                  placement.kind == Placement::Kind::Lent;
  Type type = op->getResult(index).getType();
  Type written = writtenTypeOf(op, index);
  std::optional<int64_t> bytes = bytesOf(written);
  if (hasBytes && bytes && *bytes != placement.size) {
    auto diagnostic = fail() << "gives " << placement.size
                             << " bytes, but its type " << type;
    if (written != type)
      diagnostic << " written as " << written << " ('coreai.result_dtypes')";
    return diagnostic << " takes " << *bytes;
  }
  return success();
}

/// `coreai.result_dtypes`: per result, the type the target's kernel writes
/// it in, where one result's differs from the graph's (docs/LIVENESS.md).
/// A tensor result's entry is an integer or float element type; any other
/// result's is its own type.
LogicalResult checkResultDtypes(Operation *op, Attribute value) {
  auto dtypes = dyn_cast<ArrayAttr>(value);
  if (!dtypes || dtypes.size() != op->getNumResults())
    return op->emitError("'coreai.result_dtypes' must be an array with one "
                         "type per result (")
           << op->getNumResults() << "), got " << value;
  for (auto [index, entry] : llvm::enumerate(dtypes)) {
    auto written = dyn_cast<TypeAttr>(entry);
    Type type = op->getResult(index).getType();
    auto shaped = dyn_cast<ShapedType>(type);
    if (!written)
      return op->emitError("'coreai.result_dtypes' of result ")
             << index << " must be a type, got " << entry;
    if (shaped && !written.getValue().isIntOrFloat())
      return op->emitError("'coreai.result_dtypes' of result ")
             << index << " must be an integer or float element type (the "
             << "dtype the kernel writes " << type << " in), got " << entry;
    if (!shaped && written.getValue() != type)
      return op->emitError("'coreai.result_dtypes' of result ")
             << index << " must be its own type " << type << ", got "
             << entry;
  }
  return success();
}

LogicalResult checkPlacements(Operation *op, Attribute value) {
  auto placements = dyn_cast<ArrayAttr>(value);
  if (!placements || placements.size() != op->getNumResults())
    return op->emitError("'coreai.placement' must be an array with one "
                         "placement per result (")
           << op->getNumResults() << "), got " << value;
  for (auto [index, entry] : llvm::enumerate(placements)) {
    std::optional<Placement> placement = placementFrom(entry);
    if (!placement)
      return op->emitError("'coreai.placement' of result ")
             << index << " must be #coreai.heap, #coreai.lent, "
             << "#coreai.output, #coreai.state, #coreai.fused or #coreai.none, "
             << "got " << entry;
    if (failed(checkPlacement(op, index, *placement)))
      return failure();
  }
  return success();
}

/// `coreai.workspace`: the scratch the op's kernel (the op, or the fused
/// kernel it ends) uses while it runs, at an offset of the heap
/// (#coreai.heap) or of an output lent as scratch (#coreai.lent); never in
/// place over an operand (docs/WORKSPACE.md).
LogicalResult checkWorkspace(Operation *op, Attribute value) {
  std::optional<Placement> placement = placementFrom(value);
  if (!placement || (placement->kind != Placement::Kind::Heap &&
                     placement->kind != Placement::Kind::Lent))
    return op->emitError("'coreai.workspace' must be #coreai.heap or "
                         "#coreai.lent, got ")
           << value;
  auto fail = [&] { return op->emitError("'coreai.workspace' "); };
  if (placement->inPlaceOperand)
    return fail() << "cannot be in place: a workspace is written by its op "
                     "while it reads its operands";
  if (placement->size <= 0)
    return fail() << "must have a positive size, got " << placement->size;
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (placement->kind == Placement::Kind::Lent && func &&
      placement->output >= int64_t(func.getNumResults()))
    return fail() << "names output " << placement->output << " of a function "
                  << "with " << func.getNumResults() << " results";
  return success();
}

/// `coreai.kernel = N`: the op belongs to fused kernel N of its function.
/// Only a function body's own ops are grouped (a kernel is a step of the
/// function); contiguity is checked where kernels are read (Kernels.cpp).
LogicalResult checkKernel(Operation *op, NamedAttribute attribute) {
  auto id = dyn_cast<IntegerAttr>(attribute.getValue());
  if (!id || id.getInt() < 0)
    return op->emitError("'coreai.kernel' must be a non-negative integer "
                         "(the kernel's id in its function), got ")
           << attribute.getValue();
  if (!isa_and_nonnull<FunctionOpInterface>(op->getParentOp()) ||
      op->hasTrait<OpTrait::IsTerminator>())
    return op->emitError("'coreai.kernel' groups ops of a function body; "
                         "a nested op or a terminator cannot be in a kernel");
  return success();
}

LogicalResult checkSymRanges(Operation *op, NamedAttribute attribute) {
  if (failed(expect<StringAttr>(op, attribute, "a JSON string")))
    return failure();
  llvm::Expected<std::map<std::string, SymRange>> ranges =
      parseSymRanges(cast<StringAttr>(attribute.getValue()).getValue());
  if (!ranges)
    return op->emitError() << llvm::toString(ranges.takeError());
  return success();
}

/// One shape's text against the grammar of coreai-plan/Exporter/SymShape.h.
LogicalResult checkSymShape(Operation *op, StringRef name, Attribute value) {
  auto text = dyn_cast<StringAttr>(value);
  if (!text)
    return op->emitError("'") << name << "' must be a string, got " << value;
  llvm::Expected<std::vector<SymExpr>> dims = parseSymShape(text.getValue());
  if (!dims)
    return op->emitError("'")
           << name << "' is not a symbolic shape: "
           << llvm::toString(dims.takeError());
  return success();
}

LogicalResult checkSymShapes(Operation *op, NamedAttribute attribute) {
  auto array = dyn_cast<ArrayAttr>(attribute.getValue());
  if (!array)
    return op->emitError("'coreai.sym_shapes' must be an array of strings, "
                         "one per result");
  for (Attribute shape : array)
    if (failed(checkSymShape(op, attr::symShapes, shape)))
      return failure();
  return success();
}

LogicalResult checkArgs(Operation *op, NamedAttribute attribute) {
  auto text = dyn_cast<StringAttr>(attribute.getValue());
  if (text && parseAtenArgs(text.getValue()))
    return success();
  return op->emitError("'coreai.args' must be the call's arguments as a "
                       "Python tuple (\"(T, 2, dim=-1)\"), got ")
         << attribute.getValue();
}

LogicalResult checkKind(Operation *op, NamedAttribute attribute,
                        ArrayRef<StringRef> kinds, StringRef where) {
  auto kind = dyn_cast<StringAttr>(attribute.getValue());
  if (kind && llvm::is_contained(kinds, kind.getValue()))
    return success();
  auto diagnostic = op->emitError("'coreai.kind' of ")
                    << where << " must be one of";
  for (StringRef known : kinds)
    diagnostic << " \"" << known << "\"";
  return diagnostic << ", got " << attribute.getValue();
}

/// Attributes of function arguments and results: kind, name, symbolic
/// shape (the exporter's), scratch (the arena rewrite's).
LogicalResult checkValueAttribute(Operation *op, NamedAttribute attribute,
                                  bool isArgument) {
  StringRef name = attribute.getName().getValue();
  if (name == attr::kind)
    return isArgument ? checkKind(op, attribute,
                                  {"weight", "input", "state", "constant"},
                                  "an argument")
                      : checkKind(op, attribute, {"output", "state_update"},
                                  "a result");
  if (name == attr::symShape)
    return checkSymShape(op, name, attribute.getValue());
  if (name == attr::name)
    return expect<StringAttr>(op, attribute, "a string");
  if (name == attr::scratch && isArgument)
    return expect<UnitAttr>(op, attribute, "a unit attribute");
  return op->emitError("unknown ")
         << (isArgument ? "argument" : "result") << " attribute '" << name
         << "' (docs/LIVENESS.md lists the coreai attributes)";
}

} // namespace

LogicalResult CoreAIDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute named) {
  StringRef name = named.getName().getValue();
  if (name == attr::placement)
    return checkPlacements(op, named.getValue());
  if (name == attr::workspace)
    return checkWorkspace(op, named.getValue());
  if (name == attr::resultDtypes)
    return checkResultDtypes(op, named.getValue());
  if (name == attr::plan)
    return expect<PlanAttr>(op, named, "a #coreai.plan");
  if (name == attr::kernel)
    return checkKernel(op, named);
  if (isOldPlacementName(name))
    return refuseOldPlacement(op, name);
  if (name == attr::symRanges)
    return checkSymRanges(op, named);
  if (name == attr::symShapes)
    return checkSymShapes(op, named);
  if (name == attr::args)
    return checkArgs(op, named);
  if (name == attr::seqLen || name == attr::planHeap ||
      name == attr::recompute)
    return expect<IntegerAttr>(op, named, "an integer");
  if (name == attr::aliasOf)
    return expect<ArrayAttr>(op, named, "an array of operand positions");
  if (name == attr::arena)
    return expect<DictionaryAttr>(op, named, "a dictionary");
  static const llvm::StringSet<> strings = {
      attr::kind,       attr::name,  attr::overload,
      attr::node,     attr::entry,      attr::planTarget, attr::variant,
      "coreai.source", "coreai.model", "coreai.config", "coreai.bundle"};
  if (strings.contains(name))
    return expect<StringAttr>(op, named, "a string");
  return op->emitError("unknown attribute '")
         << name << "' (docs/LIVENESS.md lists the coreai attributes)";
}

LogicalResult CoreAIDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                      unsigned,
                                                      NamedAttribute named) {
  return checkValueAttribute(op, named, /*isArgument=*/true);
}

LogicalResult CoreAIDialect::verifyRegionResultAttribute(
    Operation *op, unsigned, unsigned, NamedAttribute named) {
  return checkValueAttribute(op, named, /*isArgument=*/false);
}

} // namespace coreai
