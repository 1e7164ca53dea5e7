//===- SpecializeShapes.cpp - The coreai-specialize-shapes pass -----------===//
//
// Dynamic dims are bound from the shape expressions torch.export recorded,
// not inferred from op semantics: the graph's ops are unregistered
// (`torch.aten.*`), so their shape functions are not available here.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Passes/SpecializeShapes.h"
#include "coreai-plan/Passes/Passes.h"

#include "coreai-plan/Dialect/CoreAI.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

#include <set>

namespace coreai {
#define GEN_PASS_DEF_COREAISPECIALIZESHAPES
#include "coreai-plan/Passes/Passes.h.inc"

namespace {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Symbol names in an expression, for reporting which ones need binding.
/// The symbols a shape's text names (nothing when it does not parse: the
/// dialect has refused such a file already).
void collectSymbols(llvm::StringRef shape, std::set<std::string> &symbols) {
  llvm::Expected<std::vector<SymExpr>> dims = parseSymShape(shape);
  if (!dims) {
    llvm::consumeError(dims.takeError());
    return;
  }
  for (const SymExpr &dim : *dims)
    dim.collectSymbols(symbols);
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool isDynamic(mlir::Type type) {
  auto shaped = llvm::dyn_cast<mlir::ShapedType>(type);
  return shaped && shaped.hasRank() && !shaped.hasStaticShape();
}

/// A shape's text parsed, or why it does not parse.
struct ParsedShape {
  std::vector<SymExpr> dims;
  std::string error;
};

/// `text` parsed once per thread: every clone of a graph (a parametric
/// plan makes one per S) holds the same texts. Keyed by the text, not the
/// attribute, so that nothing outlives its context.
const ParsedShape &parsedShape(llvm::StringRef text) {
  thread_local llvm::StringMap<ParsedShape> parsed;
  if (parsed.size() > 100000) // a fuzzer's texts: no unbounded growth
    parsed.clear();
  auto [it, fresh] = parsed.try_emplace(text);
  if (fresh) {
    llvm::Expected<std::vector<SymExpr>> dims = parseSymShape(text);
    if (dims)
      it->second.dims = std::move(*dims);
    else
      it->second.error = llvm::toString(dims.takeError());
  }
  return it->second;
}

/// The static type `shape` ("1,s58,1536") gives `type`, or an error.
llvm::Expected<mlir::Type> bindType(mlir::Type type, llvm::StringRef shape,
                                    const SymbolBindings &bindings) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "only ranked tensors can be bound");
  const ParsedShape &parsed = parsedShape(shape);
  if (!parsed.error.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   parsed.error);
  const std::vector<SymExpr> &exprs = parsed.dims;
  if (int64_t(exprs.size()) != tensor.getRank())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("shape '{0}' has {1} dims, the type has {2}", shape,
                      exprs.size(), tensor.getRank())
            .str());
  llvm::SmallVector<int64_t> dims;
  for (auto [index, expr] : llvm::enumerate(exprs)) {
    llvm::Expected<int64_t> dim = expr.evaluate(bindings);
    if (!dim)
      return dim.takeError();
    if (*dim < 0)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("dim {0} = '{1}' is negative ({2})", index, expr.text(),
                        *dim)
              .str());
    int64_t declared = tensor.getDimSize(index);
    if (!mlir::ShapedType::isDynamic(declared) && declared != *dim)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("dim {0} = '{1}' is {2} but the type says {3}", index,
                        expr.text(), *dim, declared)
              .str());
    dims.push_back(*dim);
  }
  return mlir::RankedTensorType::get(dims, tensor.getElementType(),
                                     tensor.getEncoding());
}

/// Binds one value's type from `shape` (a StringAttr), reporting at `op`.
mlir::LogicalResult bindValue(mlir::Value value, mlir::Attribute shape,
                              const SymbolBindings &bindings,
                              mlir::Operation *op, const llvm::Twine &what) {
  auto text = llvm::dyn_cast_or_null<mlir::StringAttr>(shape);
  if (!text) {
    if (!isDynamic(value.getType()))
      return mlir::success();
    return op->emitError() << what << " has a dynamic type " << value.getType()
                           << " but no shape expression";
  }
  llvm::Expected<mlir::Type> bound =
      bindType(value.getType(), text.getValue(), bindings);
  if (!bound)
    return op->emitError() << "cannot bind " << what << ": "
                           << llvm::toString(bound.takeError());
  value.setType(*bound);
  return mlir::success();
}

mlir::LogicalResult bindOp(mlir::Operation *op,
                           const SymbolBindings &bindings) {
  auto shapes = op->getAttrOfType<mlir::ArrayAttr>(attr::symShapes);
  if (shapes && shapes.size() != op->getNumResults())
    return op->emitError() << "coreai.sym_shapes has " << shapes.size()
                           << " entries for " << op->getNumResults()
                           << " results";
  for (auto [index, result] : llvm::enumerate(op->getResults()))
    if (failed(bindValue(result, shapes ? shapes[index] : mlir::Attribute(),
                         bindings, op, "result #" + llvm::Twine(index))))
      return mlir::failure();
  return mlir::success();
}

/// Arguments from `coreai.sym_shape`; the block's argument types are the
/// function's, so both are rewritten.
mlir::LogicalResult bindArguments(mlir::func::FuncOp func,
                                  const SymbolBindings &bindings) {
  for (auto [index, arg] : llvm::enumerate(func.getArguments()))
    if (failed(bindValue(arg, func.getArgAttr(index, attr::symShape),
                         bindings, func, "argument #" + llvm::Twine(index))))
      return mlir::failure();
  return mlir::success();
}

/// Result types follow the returned values; a result's own
/// `coreai.sym_shape` must agree with them.
mlir::LogicalResult bindResults(mlir::func::FuncOp func,
                                const SymbolBindings &bindings,
                                llvm::SmallVectorImpl<mlir::Type> &types) {
  auto ret = llvm::dyn_cast<mlir::func::ReturnOp>(
      func.getBody().back().getTerminator());
  if (!ret)
    return func.emitError("expected a func.return terminator");
  for (auto [index, operand] : llvm::enumerate(ret.getOperands())) {
    mlir::Type type = operand.getType();
    if (auto shape = func.getResultAttrOfType<mlir::StringAttr>(
            index, attr::symShape)) {
      llvm::Expected<mlir::Type> bound =
          bindType(func.getResultTypes()[index], shape.getValue(), bindings);
      if (!bound)
        return func.emitError() << "cannot bind result #" << index << ": "
                                << llvm::toString(bound.takeError());
      if (*bound != type)
        return ret.emitError()
               << "returned value #" << index << " has type " << type
               << " but coreai.sym_shape gives " << *bound;
    }
    types.push_back(type);
  }
  return mlir::success();
}

} // namespace

mlir::FailureOr<std::map<std::string, SymRange>>
readSymRanges(mlir::ModuleOp module) {
  auto attr = module->getAttrOfType<mlir::StringAttr>(attr::symRanges);
  if (!attr)
    return std::map<std::string, SymRange>{};
  llvm::Expected<std::map<std::string, SymRange>> ranges =
      parseSymRanges(attr.getValue());
  if (!ranges) {
    module.emitError() << llvm::toString(ranges.takeError());
    return mlir::failure();
  }
  return std::move(*ranges);
}

bool hasDynamicShapes(mlir::func::FuncOp func) {
  auto type = func.getFunctionType();
  if (llvm::any_of(type.getInputs(), isDynamic) ||
      llvm::any_of(type.getResults(), isDynamic))
    return true;
  return func
      .walk([](mlir::Operation *op) {
        return llvm::any_of(op->getResultTypes(), isDynamic)
                   ? mlir::WalkResult::interrupt()
                   : mlir::WalkResult::advance();
      })
      .wasInterrupted();
}

std::vector<std::string> shapeSymbols(mlir::func::FuncOp func) {
  std::set<std::string> symbols;
  auto collect = [&](mlir::Attribute attr) {
    if (auto text = llvm::dyn_cast_or_null<mlir::StringAttr>(attr))
      collectSymbols(text.getValue(), symbols);
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    collect(func.getArgAttr(i, attr::symShape));
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    collect(func.getResultAttr(i, attr::symShape));
  func.walk([&](mlir::Operation *op) {
    if (auto shapes = op->getAttrOfType<mlir::ArrayAttr>(attr::symShapes))
      for (mlir::Attribute shape : shapes)
        collect(shape);
  });
  return {symbols.begin(), symbols.end()};
}

mlir::LogicalResult specializeShapes(mlir::func::FuncOp func,
                                     const SymbolBindings &bindings) {
  if (func.isExternal())
    return mlir::success();
  if (failed(bindArguments(func, bindings)))
    return mlir::failure();
  mlir::WalkResult walk = func.walk([&](mlir::Operation *op) {
    if (op == func.getOperation())
      return mlir::WalkResult::advance();
    return failed(bindOp(op, bindings)) ? mlir::WalkResult::interrupt()
                                        : mlir::WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return mlir::failure();
  llvm::SmallVector<mlir::Type> results;
  if (failed(bindResults(func, bindings, results)))
    return mlir::failure();
  func.setFunctionType(mlir::FunctionType::get(
      func.getContext(), func.getBody().getArgumentTypes(), results));
  return mlir::success();
}

namespace {

struct SpecializeShapesPass
    : impl::CoreAISpecializeShapesBase<SpecializeShapesPass> {
  using CoreAISpecializeShapesBase::CoreAISpecializeShapesBase;

  void runOnOperation() override {
    mlir::func::FuncOp func = getOperation();
    SymbolBindings bindings;
    if (failed(parseBindings(bindings)) ||
        failed(checkRanges(func, bindings)) ||
        failed(specializeShapes(func, bindings)))
      signalPassFailure();
  }

  mlir::LogicalResult parseBindings(SymbolBindings &bindings) {
    for (const std::string &item : bind) {
      auto [name, value] = llvm::StringRef(item).split('=');
      int64_t number;
      if (name.trim().empty() || value.trim().getAsInteger(10, number))
        return getOperation().emitError()
               << "bad binding '" << item << "', expected SYMBOL=INTEGER";
      bindings[name.trim().str()] = number;
    }
    return mlir::success();
  }

  mlir::LogicalResult checkRanges(mlir::func::FuncOp func,
                                  const SymbolBindings &bindings) {
    auto module = func->getParentOfType<mlir::ModuleOp>();
    if (!module)
      return mlir::success();
    auto ranges = readSymRanges(module);
    if (failed(ranges))
      return mlir::failure();
    for (const auto &[name, value] : bindings) {
      auto it = ranges->find(name);
      if (it != ranges->end() &&
          (value < it->second.min || value > it->second.max))
        return func.emitError()
               << name << "=" << value << " is outside the range ["
               << it->second.min << ", " << it->second.max
               << "] given by coreai.sym_ranges";
    }
    return mlir::success();
  }
};

} // namespace
} // namespace coreai
