//===- SpecializeShapes.cpp - The coreai-specialize-shapes pass -----------===//
//
// Dynamic dims are bound from the shape expressions torch.export recorded,
// not inferred from op semantics: the graph's ops are unregistered
// (`torch.aten.*`), so their shape functions are not available here.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Passes/SpecializeShapes.h"
#include "coreai-plan/Passes/Passes.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

#include <limits>
#include <set>

namespace coreai {
#define GEN_PASS_DEF_COREAISPECIALIZESHAPES
#include "coreai-plan/Passes/Passes.h.inc"

namespace {

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Recursive descent over `expr := term (('+'|'-') term)*`,
/// `term := unary (('*'|'//') unary)*`, `unary := '-' unary | atom`,
/// `atom := integer | symbol | '(' expr ')'`. The text comes from the graph:
/// every operation is checked for overflow (an error, never wrapped).
class ExprParser {
public:
  ExprParser(llvm::StringRef text, const SymbolBindings &bindings)
      : text(text), rest(text), bindings(bindings) {}

  llvm::Expected<int64_t> parse() {
    int64_t value = parseSum();
    skipSpace();
    if (!error.empty())
      return fail(error);
    if (!rest.empty())
      return fail("unexpected '" + rest.take_front(1).str() + "'");
    return value;
  }

private:
  llvm::StringRef text, rest;
  const SymbolBindings &bindings;
  std::string error;

  llvm::Error fail(const std::string &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "in '" + text.str() + "': " + why);
  }
  void skipSpace() { rest = rest.ltrim(); }
  bool consume(llvm::StringRef token) {
    skipSpace();
    return rest.consume_front(token);
  }
  int64_t setError(const std::string &why) {
    if (error.empty())
      error = why;
    return 0;
  }

  /// Applies `op` (an llvm::*Overflow) to `lhs` and `rhs`: the result, or
  /// an error when it overflowed.
  template <typename Op> int64_t checked(Op op, int64_t lhs, int64_t rhs) {
    int64_t result;
    if (op(lhs, rhs, result))
      return setError("the value overflows 64 bits");
    return result;
  }

  int64_t parseSum() {
    int64_t value = parseProduct();
    while (error.empty()) {
      if (consume("+")) {
        int64_t term = parseProduct();
        value = checked(llvm::AddOverflow<int64_t>, value, term);
      } else if (consume("-")) {
        int64_t term = parseProduct();
        value = checked(llvm::SubOverflow<int64_t>, value, term);
      } else {
        break;
      }
    }
    return value;
  }

  int64_t parseProduct() {
    int64_t value = parseUnary();
    while (error.empty()) {
      if (consume("//")) {
        int64_t divisor = parseUnary();
        if (divisor == 0)
          return setError("division by zero");
        if (value == INT64_MIN && divisor == -1)
          return setError("the value overflows 64 bits");
        // Python's // rounds toward negative infinity.
        int64_t quotient = value / divisor;
        if ((value % divisor != 0) && ((value < 0) != (divisor < 0)))
          --quotient;
        value = quotient;
      } else if (consume("*")) {
        int64_t factor = parseUnary();
        value = checked(llvm::MulOverflow<int64_t>, value, factor);
      } else {
        break;
      }
    }
    return value;
  }

  int64_t parseUnary() {
    if (consume("-"))
      return checked(llvm::SubOverflow<int64_t>, 0, parseUnary());
    return parseAtom();
  }

  int64_t parseAtom() {
    skipSpace();
    if (consume("(")) {
      int64_t value = parseSum();
      if (!consume(")"))
        return setError("expected ')'");
      return value;
    }
    if (!rest.empty() && llvm::isDigit(rest.front())) {
      llvm::StringRef digits = rest.take_while(llvm::isDigit);
      rest = rest.drop_front(digits.size());
      int64_t value = 0;
      if (digits.getAsInteger(10, value))
        return setError("integer '" + digits.str() + "' is too large");
      return value;
    }
    llvm::StringRef name =
        rest.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
    if (name.empty() || llvm::isDigit(name.front()))
      return setError(rest.empty()
                          ? "unexpected end"
                          : "unexpected '" + rest.take_front(1).str() + "'");
    rest = rest.drop_front(name.size());
    skipSpace();
    if (rest.starts_with("("))
      return setError("function '" + name.str() + "' is not supported");
    auto it = bindings.find(name.str());
    if (it == bindings.end())
      return setError("symbol '" + name.str() + "' is not bound");
    return it->second;
  }
};

/// Symbol names in an expression, for reporting which ones need binding.
void collectSymbols(llvm::StringRef expr, std::set<std::string> &symbols) {
  while (!expr.empty()) {
    if (llvm::isAlpha(expr.front()) || expr.front() == '_') {
      llvm::StringRef name =
          expr.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
      symbols.insert(name.str());
      expr = expr.drop_front(name.size());
    } else {
      expr = expr.drop_front();
    }
  }
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool isDynamic(mlir::Type type) {
  auto shaped = llvm::dyn_cast<mlir::ShapedType>(type);
  return shaped && shaped.hasRank() && !shaped.hasStaticShape();
}

/// Splits "1,Max(1, s0),8" at the commas outside parentheses.
llvm::SmallVector<llvm::StringRef> splitDims(llvm::StringRef shape) {
  llvm::SmallVector<llvm::StringRef> dims;
  if (shape.trim().empty())
    return dims;
  int depth = 0;
  size_t begin = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == '(')
      ++depth;
    else if (shape[i] == ')')
      --depth;
    else if (shape[i] == ',' && depth == 0) {
      dims.push_back(shape.slice(begin, i));
      begin = i + 1;
    }
  }
  dims.push_back(shape.drop_front(begin));
  return dims;
}

/// The static type `shape` ("1,s58,1536") gives `type`, or an error.
llvm::Expected<mlir::Type> bindType(mlir::Type type, llvm::StringRef shape,
                                    const SymbolBindings &bindings) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "only ranked tensors can be bound");
  llvm::SmallVector<llvm::StringRef> exprs = splitDims(shape);
  if (int64_t(exprs.size()) != tensor.getRank())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("shape '{0}' has {1} dims, the type has {2}", shape,
                      exprs.size(), tensor.getRank())
            .str());
  llvm::SmallVector<int64_t> dims;
  for (auto [index, expr] : llvm::enumerate(exprs)) {
    llvm::Expected<int64_t> dim = evaluateSymExpr(expr.trim(), bindings);
    if (!dim)
      return dim.takeError();
    if (*dim < 0)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("dim {0} = '{1}' is negative ({2})", index, expr.trim(),
                        *dim)
              .str());
    int64_t declared = tensor.getDimSize(index);
    if (!mlir::ShapedType::isDynamic(declared) && declared != *dim)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("dim {0} = '{1}' is {2} but the type says {3}", index,
                        expr.trim(), *dim, declared)
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
  auto shapes = op->getAttrOfType<mlir::ArrayAttr>("coreai.sym_shapes");
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
    if (failed(bindValue(arg, func.getArgAttr(index, "coreai.sym_shape"),
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
            index, "coreai.sym_shape")) {
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

llvm::Expected<int64_t> evaluateSymExpr(llvm::StringRef expr,
                                        const SymbolBindings &bindings) {
  return ExprParser(expr, bindings).parse();
}

mlir::FailureOr<std::map<std::string, SymRange>>
readSymRanges(mlir::ModuleOp module) {
  std::map<std::string, SymRange> ranges;
  auto attr = module->getAttrOfType<mlir::StringAttr>("coreai.sym_ranges");
  if (!attr)
    return ranges;
  auto malformed = [&](const llvm::Twine &why) {
    module.emitError() << "malformed coreai.sym_ranges: " << why;
    return mlir::failure();
  };
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(attr.getValue());
  if (!json)
    return malformed(llvm::toString(json.takeError()));
  const llvm::json::Object *object = json->getAsObject();
  if (!object)
    return malformed("expected an object");
  // Bounds are sympy integers printed as strings (or JSON integers); an
  // unbounded max prints as `oo` / `int_oo`.
  auto bound = [](const llvm::json::Value &v) -> std::optional<int64_t> {
    if (auto i = v.getAsInteger())
      return *i;
    if (auto s = v.getAsString()) {
      if (*s == "oo" || *s == "int_oo")
        return std::numeric_limits<int64_t>::max();
      int64_t value;
      if (!s->getAsInteger(10, value))
        return value;
    }
    return std::nullopt;
  };
  for (const auto &[name, value] : *object) {
    const llvm::json::Array *pair = value.getAsArray();
    std::optional<int64_t> lo, hi;
    if (pair && pair->size() == 2) {
      lo = bound((*pair)[0]);
      hi = bound((*pair)[1]);
    }
    if (!lo || !hi || *lo > *hi)
      return malformed("symbol '" + name.str() + "' needs [min, max]");
    ranges[name.str()] = {*lo, *hi};
  }
  return ranges;
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
    collect(func.getArgAttr(i, "coreai.sym_shape"));
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    collect(func.getResultAttr(i, "coreai.sym_shape"));
  func.walk([&](mlir::Operation *op) {
    if (auto shapes = op->getAttrOfType<mlir::ArrayAttr>("coreai.sym_shapes"))
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
