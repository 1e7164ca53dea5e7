//===- ImportProgram.cpp - A torch.export program as a func.func ----------===//
//
// One pass over the graph's nodes in order. Each FX name maps to its current
// value; views remember the node that made them, so that after an in-place
// op writes their storage they are made again from the new value
// (functionalisation, docs/IMPORT.md).
//
//===----------------------------------------------------------------------===//
#include "ImportProgram.h"

#include "AtenOps.h"
#include "JsonSplit.h"
#include "Sympy.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

#include "coreai-plan/Import/ExportArchive.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <charconv>
#include <cmath>

using namespace mlir;
using llvm::json::Array;
using llvm::json::Object;

namespace coreai::import {
namespace {

/// A tensor's metadata from `tensor_values`.
struct TensorMeta {
  RankedTensorType type;
  /// Per dim: the size as text (an integer or an infix expression).
  llvm::SmallVector<std::string> dims;
  /// Sizes and strides at the example inputs (the `hint`), when known.
  llvm::SmallVector<int64_t> hintSizes, hintStrides;
  bool hinted = false;
  bool dynamic = false;
  std::string symShape() const { return llvm::join(dims, ","); }
};

/// What an FX name currently stands for.
struct Tensor {
  Value current;
  std::string meta; ///< the FX name whose metadata describes it
  std::string root; ///< the FX name owning the storage
  unsigned version = 0; ///< `versions[root]` when `current` was made
  /// For views: the node that made it, its result index and its source.
  llvm::StringRef viewNode; ///< its JSON text, parsed again when needed
  unsigned viewResult = 0;
  std::string parent;
  /// A reshape that may have been a view in torch but is imported as a
  /// copy: writing it in place would not reach its source.
  bool uncertainCopy = false;
};

/// The Python `repr` of a float, as `coreai.args` prints numbers.
std::string pythonFloat(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                 std::chars_format::scientific);
  std::string sci(buffer, end);
  size_t e = sci.find('e');
  std::string mantissa = sci.substr(0, e);
  int exponent = std::stoi(sci.substr(e + 1));
  bool negative = mantissa[0] == '-';
  std::string digits;
  for (char c : mantissa)
    if (llvm::isDigit(c))
      digits += c;
  std::string out = negative ? "-" : "";
  if (exponent >= -5 && exponent < 16) {
    int point = exponent + 1; // digits before the decimal point
    if (point <= 0)
      out += "0." + std::string(-point, '0') + digits;
    else if (size_t(point) >= digits.size())
      out += digits + std::string(point - digits.size(), '0') + ".0";
    else
      out += digits.substr(0, point) + "." + digits.substr(point);
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1)
    out += "." + digits.substr(1);
  char exp[16];
  std::snprintf(exp, sizeof(exp), "e%c%02d", exponent < 0 ? '-' : '+',
                std::abs(exponent));
  return out + exp;
}

const char *scalarTypeName(int64_t code) {
  switch (code) {
  case 1: return "torch.uint8";
  case 2: return "torch.int8";
  case 3: return "torch.int16";
  case 4: return "torch.int32";
  case 5: return "torch.int64";
  case 6: return "torch.float16";
  case 7: return "torch.float32";
  case 8: return "torch.float64";
  case 9: return "torch.complex32";
  case 10: return "torch.complex64";
  case 11: return "torch.complex128";
  case 12: return "torch.bool";
  case 13: return "torch.bfloat16";
  case 28: return "torch.uint16";
  case 29: return "torch.float8_e4m3fn";
  case 30: return "torch.float8_e5m2";
  case 31: return "torch.float8_e4m3fnuz";
  case 32: return "torch.float8_e5m2fnuz";
  default: return nullptr;
  }
}

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

  /// `tensor_values`: each entry's JSON text, parsed when first needed.
  llvm::StringMap<llvm::StringRef> tensorValues;
  llvm::StringMap<std::string> symInts; ///< sym_int name -> infix text
  llvm::StringMap<TensorMeta> metas;
  llvm::StringMap<Tensor> tensors;
  llvm::StringMap<std::string> redirects; ///< in-place results -> self
  llvm::StringMap<unsigned> versions;     ///< per root
  /// Placeholders: FX name -> argument index; and their spec kinds.
  llvm::StringMap<unsigned> argumentIndex;
  llvm::StringMap<std::string> inputKind; ///< parameter, buffer, ...
  /// Roots written in place, in first-write order, with the first writer.
  llvm::SmallVector<std::string> mutatedRoots;
  llvm::StringMap<Location> firstWriter;

  InFlightDiagnostic error(const llvm::Twine &message) {
    return emitError(archiveLoc) << memberName << ": " << message;
  }
  Location nodeLoc(const Object &node);
  FailureOr<TensorMeta> readMeta(llvm::StringRef name, Location loc);
  FailureOr<const TensorMeta *> meta(llvm::StringRef name, Location loc);
  std::string canonical(llvm::StringRef name) const;
  FailureOr<Value> resolve(llvm::StringRef name, Location loc);
  FailureOr<std::string> repr(const llvm::json::Value &arg, Location loc);
  FailureOr<std::string> argsRepr(const Array &inputs, Location loc);
  LogicalResult collectOperands(const Array &inputs, Location loc,
                                llvm::SmallVectorImpl<Value> &operands,
                                llvm::SmallVectorImpl<std::string> &names);
  Operation *build(Location loc, llvm::StringRef op, llvm::StringRef overload,
                   llvm::StringRef args, llvm::StringRef node,
                   ValueRange operands, llvm::ArrayRef<const TensorMeta *> results,
                   std::optional<int64_t> aliasOperand);
  FailureOr<Operation *> buildNode(const Object &node, llvm::StringRef op,
                                   llvm::StringRef overload,
                                   llvm::ArrayRef<const TensorMeta *> results,
                                   std::optional<int64_t> aliasOperand);
  LogicalResult importNode(const Object &node, llvm::StringRef text);
  FailureOr<llvm::json::Value> parseNode(llvm::StringRef text, Location loc);
  FailureOr<bool> mayAliasIsView(llvm::StringRef op, const Object &node,
                                 llvm::StringRef self,
                                 llvm::StringRef result);
  LogicalResult writeBack(llvm::StringRef name, Value value, Location loc);
  LogicalResult checkNoHiddenWrites(const Object &node,
                                    const aten::ArgumentCondition &condition,
                                    llvm::StringRef target);
  FailureOr<Value> scatterInto(const Tensor &view, Value source,
                               Value written, Location loc);
};

Location ProgramImporter::nodeLoc(const Object &node) {
  llvm::StringRef name = node.getString("name").value_or("");
  Location where = archiveLoc;
  if (const Object *metadata = node.getObject("metadata"))
    if (auto trace = metadata->getString("stack_trace")) {
      // The innermost frame (the last `File "...", line N`) is the user's.
      size_t at = trace->rfind("File \"");
      if (at != llvm::StringRef::npos) {
        llvm::StringRef rest = trace->drop_front(at + 6);
        size_t quote = rest.find('"');
        llvm::StringRef file = rest.take_front(quote);
        rest = rest.drop_front(quote + 1).ltrim(", ");
        unsigned line = 0;
        if (quote != llvm::StringRef::npos && rest.consume_front("line ")) {
          rest.take_while(llvm::isDigit).getAsInteger(10, line);
          where = FileLineColLoc::get(ctx, file, line, 0);
        }
      }
    }
  return NameLoc::get(StringAttr::get(ctx, name), where);
}

FailureOr<TensorMeta> ProgramImporter::readMeta(llvm::StringRef name,
                                                Location loc) {
  auto text = tensorValues.find(name);
  if (text == tensorValues.end())
    return emitError(loc) << "no tensor metadata for '" << name << "'";
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text->second);
  if (!parsed)
    return emitError(loc) << "tensor metadata of '" << name
                          << "' is not valid JSON: "
                          << llvm::toString(parsed.takeError());
  const Object *value = parsed->getAsObject();
  if (!value)
    return emitError(loc) << "tensor metadata of '" << name
                          << "' is not an object";
  TensorMeta meta;
  auto dtype = value->getInteger("dtype");
  Type element = dtype ? elementType(ctx, *dtype) : Type();
  if (!element)
    return emitError(loc) << "tensor '" << name << "' has dtype "
                          << (dtype ? std::to_string(*dtype) : "(missing)")
                          << ", which the importer does not know";
  const Array *sizes = value->getArray("sizes");
  const Array *strides = value->getArray("strides");
  if (!sizes)
    return emitError(loc) << "tensor '" << name << "' has no sizes";
  llvm::SmallVector<int64_t> shape;
  meta.hinted = true;
  auto readSymInt = [&](const llvm::json::Value &entry, int64_t &hint,
                        std::string *text) -> LogicalResult {
    const Object *symInt = entry.getAsObject();
    if (!symInt)
      return failure();
    if (auto fixed = symInt->getInteger("as_int")) {
      hint = *fixed;
      if (text)
        *text = std::to_string(*fixed);
      return success();
    }
    const Object *expr = symInt->getObject("as_expr");
    if (!expr || !expr->getString("expr_str"))
      return failure();
    if (text) {
      auto infix = sympyToInfix(*expr->getString("expr_str"));
      if (!infix) {
        emitError(loc) << "tensor '" << name
                       << "': " << llvm::toString(infix.takeError());
        return failure();
      }
      *text = *infix;
    }
    std::optional<int64_t> value;
    if (const Object *h = expr->getObject("hint"))
      value = h->getInteger("as_int");
    if (value)
      hint = *value;
    else
      meta.hinted = false;
    return success();
  };
  for (auto [dim, entry] : llvm::enumerate(*sizes)) {
    int64_t hint = 0;
    std::string text;
    if (failed(readSymInt(entry, hint, &text)))
      return emitError(loc) << "tensor '" << name << "' has a malformed size "
                            << "in dim " << dim;
    bool symbolic = entry.getAsObject()->getObject("as_expr") != nullptr;
    if (!symbolic && hint < 0)
      return emitError(loc) << "tensor '" << name << "' has negative size "
                            << hint << " in dim " << dim;
    shape.push_back(symbolic ? ShapedType::kDynamic : hint);
    meta.dynamic |= symbolic;
    meta.dims.push_back(text);
    meta.hintSizes.push_back(hint);
  }
  if (strides && strides->size() == sizes->size()) {
    for (const llvm::json::Value &entry : *strides) {
      int64_t hint = 0;
      if (failed(readSymInt(entry, hint, nullptr)))
        return emitError(loc) << "tensor '" << name << "' has a malformed "
                              << "stride";
      meta.hintStrides.push_back(hint);
    }
  } else {
    meta.hinted = false;
  }
  meta.type = RankedTensorType::get(shape, element);
  return meta;
}

FailureOr<const TensorMeta *> ProgramImporter::meta(llvm::StringRef name,
                                                    Location loc) {
  auto found = metas.find(name);
  if (found != metas.end())
    return &found->second;
  FailureOr<TensorMeta> read = readMeta(name, loc);
  if (failed(read))
    return failure();
  return &metas.try_emplace(name, std::move(*read)).first->second;
}

std::string ProgramImporter::canonical(llvm::StringRef name) const {
  std::string current = name.str();
  for (auto found = redirects.find(current); found != redirects.end();
       found = redirects.find(current))
    current = found->second;
  return current;
}

FailureOr<Value> ProgramImporter::resolve(llvm::StringRef fxName,
                                          Location loc) {
  std::string name = canonical(fxName);
  auto found = tensors.find(name);
  if (found == tensors.end())
    return emitError(loc) << "uses '" << fxName
                          << "', which no earlier node or input defines";
  Tensor &tensor = found->second;
  if (tensor.viewNode.empty() || tensor.version == versions[tensor.root])
    return tensor.current;
  // Its storage was written since this view was made: make it again.
  FailureOr<llvm::json::Value> parsed = parseNode(tensor.viewNode, loc);
  if (failed(parsed))
    return failure();
  const Object &node = *parsed->getAsObject();
  llvm::StringRef target = node.getString("target").value_or("");
  llvm::StringRef opName = target.drop_front(strlen("torch.ops.aten."));
  auto [op, overload] = opName.rsplit('.');
  FailureOr<const TensorMeta *> resultMeta = meta(tensor.meta, loc);
  if (failed(resultMeta))
    return failure();
  const Array *outputs = node.getArray("outputs");
  if (!outputs || outputs->size() != 1 || !(*outputs)[0].getAsObject() ||
      !(*outputs)[0].getAsObject()->getObject("as_tensor"))
    return emitError(loc) << "reads '" << fxName
                          << "', one of several views made by one op, after "
                             "its storage was written in place: not supported";
  llvm::SmallVector<const TensorMeta *> results(1, *resultMeta);
  FailureOr<Operation *> remade = buildNode(node, op, overload, results, 0);
  if (failed(remade))
    return failure();
  Tensor &again = tensors[name]; // buildNode may have grown the map
  again.current = (*remade)->getResult(0);
  again.version = versions[again.root];
  return again.current;
}

FailureOr<std::string> ProgramImporter::repr(const llvm::json::Value &arg,
                                             Location loc) {
  const Object *object = arg.getAsObject();
  if (!object || object->size() != 1)
    return emitError(loc) << "malformed argument";
  // Named, not a structured binding: the lambdas below capture them
  // (capturing structured bindings is C++20).
  const auto &member = *object->begin();
  const auto &kind = member.first;
  const auto &value = member.second;
  auto list = [&](auto &&each) -> FailureOr<std::string> {
    const Array *items = value.getAsArray();
    if (!items)
      return emitError(loc) << "malformed '" << kind.str() << "' argument";
    std::string out = "[";
    for (auto [i, item] : llvm::enumerate(*items)) {
      FailureOr<std::string> one = each(item);
      if (failed(one))
        return failure();
      out += (i ? ", " : "") + *one;
    }
    return out + "]";
  };
  auto symbolic = [&](const llvm::json::Value &item) -> FailureOr<std::string> {
    const Object *sym = item.getAsObject();
    if (!sym)
      return emitError(loc) << "malformed symbolic argument";
    if (auto name = sym->getString("as_name")) {
      auto found = symInts.find(*name);
      return found != symInts.end() ? found->second : name->str();
    }
    if (auto i = sym->getInteger("as_int"))
      return std::to_string(*i);
    if (auto f = sym->getNumber("as_float"))
      return pythonFloat(*f);
    if (auto b = sym->getBoolean("as_bool"))
      return std::string(*b ? "True" : "False");
    return emitError(loc) << "malformed symbolic argument";
  };
  // JSON does not tell 2.0 from 2: the argument's kind does.
  bool floating = kind == "as_float" || kind == "as_floats";
  auto number = [&](const llvm::json::Value &item) -> FailureOr<std::string> {
    if (auto i = item.getAsInteger(); i && !floating)
      return std::to_string(*i);
    if (auto f = item.getAsNumber())
      return pythonFloat(*f);
    if (auto s = item.getAsString()) // "Infinity", "-Infinity", "NaN"
      return s->starts_with("-") ? std::string("-inf")
             : *s == "NaN"       ? std::string("nan")
                                 : std::string("inf");
    return emitError(loc) << "malformed number";
  };
  if (kind == "as_tensor")
    return std::string("T");
  if (kind == "as_tensors")
    return list([](const llvm::json::Value &) { return std::string("T"); });
  if (kind == "as_optional_tensors")
    return list([](const llvm::json::Value &item) {
      const Object *o = item.getAsObject();
      return std::string(o && o->get("as_tensor") ? "T" : "None");
    });
  if (kind == "as_optional_tensor") {
    const Object *o = value.getAsObject();
    return std::string(o && o->get("as_tensor") ? "T" : "None");
  }
  if (kind == "as_none")
    return std::string("None");
  if (kind == "as_int" || kind == "as_float")
    return number(value);
  if (kind == "as_ints" || kind == "as_floats")
    return list(number);
  if (kind == "as_bool")
    return std::string(value.getAsBoolean().value_or(false) ? "True" : "False");
  if (kind == "as_bools")
    return list([](const llvm::json::Value &item) {
      return std::string(item.getAsBoolean().value_or(false) ? "True"
                                                             : "False");
    });
  if (kind == "as_string")
    return "'" + value.getAsString().value_or("").str() + "'";
  if (kind == "as_sym_int" || kind == "as_sym_float" || kind == "as_sym_bool")
    return symbolic(value);
  if (kind == "as_sym_ints" || kind == "as_sym_floats" ||
      kind == "as_sym_bools")
    return list(symbolic);
  if (kind == "as_scalar_type") {
    const char *name = scalarTypeName(value.getAsInteger().value_or(0));
    return std::string(name ? name : "torch.unknown_dtype");
  }
  if (kind == "as_layout")
    return std::string(value.getAsInteger() == 7 ? "torch.strided"
                                                 : "torch.non_strided");
  if (kind == "as_memory_format") {
    switch (value.getAsInteger().value_or(0)) {
    case 1: return std::string("torch.contiguous_format");
    case 2: return std::string("torch.channels_last");
    case 3: return std::string("torch.channels_last_3d");
    case 4: return std::string("torch.preserve_format");
    default: return std::string("None");
    }
  }
  if (kind == "as_device") {
    const Object *device = value.getAsObject();
    std::string out = "device(type='" +
                      (device ? device->getString("type").value_or("") : "")
                          .str() +
                      "'";
    if (device)
      if (auto index = device->getInteger("index"))
        out += ", index=" + std::to_string(*index);
    return out + ")";
  }
  return "<" + kind.str() + ">";
}

FailureOr<std::string> ProgramImporter::argsRepr(const Array &inputs,
                                                 Location loc) {
  std::string out = "(";
  for (auto [i, input] : llvm::enumerate(inputs)) {
    const Object *named = input.getAsObject();
    const llvm::json::Value *arg = named ? named->get("arg") : nullptr;
    if (!arg)
      return emitError(loc) << "malformed node input " << i;
    FailureOr<std::string> text = repr(*arg, loc);
    if (failed(text))
      return failure();
    if (i)
      out += ", ";
    if (named->getInteger("kind") == 2)
      out += named->getString("name").value_or("").str() + "=";
    out += *text;
  }
  return out + ")";
}

LogicalResult ProgramImporter::collectOperands(
    const Array &inputs, Location loc, llvm::SmallVectorImpl<Value> &operands,
    llvm::SmallVectorImpl<std::string> &names) {
  auto add = [&](const llvm::json::Value &tensorArg) -> LogicalResult {
    const Object *tensor = tensorArg.getAsObject();
    auto name = tensor ? tensor->getString("name") : std::nullopt;
    if (!name)
      return emitError(loc) << "malformed tensor argument";
    FailureOr<Value> value = resolve(*name, loc);
    if (failed(value))
      return failure();
    operands.push_back(*value);
    names.push_back(canonical(*name));
    return success();
  };
  for (const llvm::json::Value &input : inputs) {
    const Object *named = input.getAsObject();
    const Object *arg = named ? named->getObject("arg") : nullptr;
    if (!arg)
      return emitError(loc) << "malformed node input";
    if (const llvm::json::Value *tensor = arg->get("as_tensor")) {
      if (failed(add(*tensor)))
        return failure();
    } else if (const Array *list = arg->getArray("as_tensors")) {
      for (const llvm::json::Value &tensor : *list)
        if (failed(add(tensor)))
          return failure();
    } else if (const Array *list = arg->getArray("as_optional_tensors")) {
      for (const llvm::json::Value &item : *list)
        if (const Object *o = item.getAsObject())
          if (const llvm::json::Value *tensor = o->get("as_tensor"))
            if (failed(add(*tensor)))
              return failure();
    } else if (const Object *optional = arg->getObject("as_optional_tensor")) {
      if (const llvm::json::Value *tensor = optional->get("as_tensor"))
        if (failed(add(*tensor)))
          return failure();
    } else if (arg->get("as_nested_tensors") || arg->get("as_graph") ||
               arg->get("as_custom_obj") || arg->get("as_string_to_argument")) {
      return emitError(loc) << "argument '"
                            << named->getString("name").value_or("")
                            << "' is of a kind the importer does not read";
    }
  }
  return success();
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
    state.addTypes(result->type);
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
  llvm::SmallVector<Value> operands;
  llvm::SmallVector<std::string> names;
  if (failed(collectOperands(*inputs, loc, operands, names)))
    return failure();
  FailureOr<std::string> args = argsRepr(*inputs, loc);
  if (failed(args))
    return failure();
  if (aliasOperand && operands.empty())
    return emitError(loc) << "view op '" << op << "' has no tensor operand";
  return build(loc, op, overload, *args,
               node.getString("name").value_or(""), operands, results,
               aliasOperand);
}

/// A fresh result is sized as its element count; strides that spread its
/// elements over more storage (`empty_strided` with gaps) would overflow
/// the buffer planned for it.
LogicalResult checkDense(const TensorMeta &meta, llvm::StringRef name,
                         Location loc) {
  if (!meta.hinted)
    return success();
  int64_t elements = 1, extent = 1;
  for (auto [size, stride] : llvm::zip(meta.hintSizes, meta.hintStrides)) {
    int64_t span;
    if (llvm::MulOverflow(elements, size, elements) ||
        (size > 0 && (stride < 0 || llvm::MulOverflow(size - 1, stride, span) ||
                      llvm::AddOverflow(extent, span, extent))))
      return emitError(loc) << "tensor '" << name
                            << "' has strides the planner cannot size";
  }
  if (elements > 0 && extent > elements)
    return emitError(loc) << "tensor '" << name << "' spreads " << elements
                          << " elements over " << extent
                          << " by its strides: only dense results are planned";
  return success();
}

/// Dense row-major strides at the example sizes.
bool isContiguous(const TensorMeta &meta) {
  if (!meta.hinted)
    return false;
  int64_t expected = 1;
  for (int64_t dim = meta.hintSizes.size() - 1; dim >= 0; --dim) {
    if (meta.hintSizes[dim] != 1 && meta.hintStrides[dim] != expected)
      return false;
    if (llvm::MulOverflow(expected, meta.hintSizes[dim], expected))
      return false;
  }
  return true;
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
    for (const llvm::json::Value &input : *node.getArray("inputs"))
      if (const Object *named = input.getAsObject())
        if (named->getString("name") == "copy")
          if (const Object *arg = named->getObject("arg"))
            if (arg->getBoolean("as_bool") == true)
              return false;
    return (*in)->type.getElementType() == (*out)->type.getElementType() &&
           (*in)->hinted && (*out)->hinted &&
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
  std::optional<llvm::StringRef> literal;
  const Array *inputs = node.getArray("inputs");
  for (const llvm::json::Value &input : *inputs)
    if (const Object *named = input.getAsObject())
      if (named->getString("name") == condition.argument)
        if (const Object *arg = named->getObject("arg"))
          if (std::optional<bool> flag = arg->getBoolean("as_bool"))
            literal = *flag ? "True" : "False";
  if (condition.satisfiedBy(literal))
    return success();
  return emitError(nodeLoc(node))
         << "'aten." << target << "' writes its running statistics unless '"
         << condition.argument
         << "' is False; export the model in eval mode or with "
            "`run_decompositions()`";
}

FailureOr<Value> ProgramImporter::scatterInto(const Tensor &view,
                                              Value source, Value written,
                                              Location loc) {
  FailureOr<llvm::json::Value> parsed = parseNode(view.viewNode, loc);
  if (failed(parsed))
    return failure();
  const Object &node = *parsed->getAsObject();
  llvm::StringRef target = node.getString("target").value_or("");
  llvm::StringRef opName = target.drop_front(strlen("torch.ops.aten."));
  auto [op, opOverload] = opName.rsplit('.');
  FailureOr<const TensorMeta *> sourceMeta = meta(view.parent, loc);
  if (failed(sourceMeta))
    return failure();
  const TensorMeta &to = **sourceMeta;
  llvm::StringRef nodeName = node.getString("name").value_or("");
  std::string name = (nodeName + "_scatter").str();
  auto intArg = [&](llvm::StringRef argName,
                    int64_t fallback) -> std::optional<int64_t> {
    for (const llvm::json::Value &input : *node.getArray("inputs"))
      if (const Object *named = input.getAsObject())
        if (named->getString("name") == argName) {
          const Object *arg = named->getObject("arg");
          if (arg && arg->get("as_none"))
            return fallback;
          if (auto i = arg ? arg->getInteger("as_int") : std::nullopt)
            return *i;
          return std::nullopt;
        }
    return fallback;
  };
  int64_t rank = to.type.getRank();
  auto normalise = [&](int64_t dim) { return dim < 0 ? dim + rank : dim; };
  if (isLayoutKeepingView(op, opOverload)) {
    if (written.getType() == to.type)
      return written;
    std::string args = "(T, [" + llvm::join(to.dims, ", ") + "])";
    return build(loc, "view", "default", args, name, written, {&to}, 0)
        ->getResult(0);
  }
  if (op == "transpose" || op == "swapaxes" || op == "swapdims" || op == "t") {
    std::optional<int64_t> d0 = intArg(op == "transpose" ? "dim0" : "axis0", 0);
    std::optional<int64_t> d1 = intArg(op == "transpose" ? "dim1" : "axis1", 1);
    if (d0 && d1) {
      std::string args = llvm::formatv("(T, {0}, {1})", *d0, *d1).str();
      return build(loc, "transpose", "int", args, name, written, {&to}, 0)
          ->getResult(0);
    }
  }
  if (op == "permute") {
    const Array *dims = nullptr;
    for (const llvm::json::Value &input : *node.getArray("inputs"))
      if (const Object *named = input.getAsObject())
        if (named->getString("name") == "dims")
          if (const Object *arg = named->getObject("arg"))
            dims = arg->getArray("as_ints");
    if (dims && int64_t(dims->size()) == rank) {
      llvm::SmallVector<int64_t> inverse(rank, -1);
      bool valid = true;
      for (auto [i, d] : llvm::enumerate(*dims)) {
        int64_t dim = normalise(d.getAsInteger().value_or(-rank - 1));
        if (dim < 0 || dim >= rank || inverse[dim] != -1)
          valid = false;
        else
          inverse[dim] = i;
      }
      if (valid) {
        std::string args = "(T, [" +
                           llvm::join(llvm::map_range(inverse, [](int64_t d) {
                                        return std::to_string(d);
                                      }),
                                      ", ") +
                           "])";
        return build(loc, "permute", "default", args, name, written, {&to}, 0)
            ->getResult(0);
      }
    }
  }
  auto text = [](std::optional<int64_t> v) {
    return v ? std::to_string(*v) : std::string("None");
  };
  if (op == "slice") {
    std::optional<int64_t> dim = intArg("dim", 0), step = intArg("step", 1);
    std::optional<int64_t> start = intArg("start", 0);
    std::optional<int64_t> end = intArg("end", INT64_MAX);
    if (dim && step && start && end) {
      std::string args = "(T, T, " + std::to_string(*dim) + ", " +
                         text(start) + ", " + text(end) + ", " + text(step) +
                         ")";
      return build(loc, "slice_scatter", "default", args, name,
                   {source, written}, {&to}, std::nullopt)
          ->getResult(0);
    }
  }
  if (op == "select") {
    std::optional<int64_t> dim = intArg("dim", 0), index = intArg("index", 0);
    if (dim && index) {
      std::string args = "(T, T, " + std::to_string(*dim) + ", " +
                         std::to_string(*index) + ")";
      return build(loc, "select_scatter", "default", args, name,
                   {source, written}, {&to}, std::nullopt)
          ->getResult(0);
    }
  }
  return emitError(loc)
         << "writes in place through '" << nodeName << "' (aten." << opName
         << "), a view the importer cannot write back functionally; export "
            "with `run_decompositions()` to get a functional program";
}

LogicalResult ProgramImporter::writeBack(llvm::StringRef name, Value value,
                                         Location loc) {
  auto found = tensors.find(name);
  assert(found != tensors.end() && "written tensors were resolved first");
  Tensor tensor = found->second;
  if (tensor.uncertainCopy)
    return emitError(loc) << "writes in place into '" << name
                          << "', which torch may have made as a view or as "
                             "a copy (a reshape, a decomposed op): the "
                             "importer cannot tell which storage the write "
                             "reaches";
  if (tensor.viewNode.empty()) {
    if (!firstWriter.count(name)) {
      firstWriter.try_emplace(name, loc);
      mutatedRoots.push_back(name.str());
    }
    ++versions[name];
    Tensor &root = tensors[name];
    root.current = value;
    root.version = versions[name];
    return success();
  }
  FailureOr<Value> source = resolve(tensor.parent, loc);
  if (failed(source))
    return failure();
  FailureOr<Value> written = scatterInto(tensor, *source, value, loc);
  if (failed(written) || failed(writeBack(tensor.parent, *written, loc)))
    return failure();
  Tensor &view = tensors[name];
  view.current = value;
  view.version = versions[view.root];
  return success();
}

FailureOr<llvm::json::Value> ProgramImporter::parseNode(llvm::StringRef text,
                                                       Location loc) {
  llvm::Expected<llvm::json::Value> node = llvm::json::parse(text);
  if (!node)
    return emitError(loc) << "node is not valid JSON: "
                          << llvm::toString(node.takeError());
  if (!node->getAsObject())
    return emitError(loc) << "node is not a JSON object";
  return std::move(*node);
}

LogicalResult ProgramImporter::importNode(const Object &node,
                                          llvm::StringRef text) {
  Location loc = nodeLoc(node);
  llvm::StringRef target = node.getString("target").value_or("");
  const Array *inputs = node.getArray("inputs");
  const Array *outputs = node.getArray("outputs");
  if (!inputs || !outputs)
    return emitError(loc) << "node '" << target
                          << "' lacks its inputs or outputs";

  // Result FX names, flattened; symbolic and None outputs have no storage.
  llvm::SmallVector<std::string> resultNames;
  bool onlySymbolic = !outputs->empty();
  for (const llvm::json::Value &output : *outputs) {
    const Object *out = output.getAsObject();
    if (!out)
      return emitError(loc) << "malformed node output";
    if (const Object *tensor = out->getObject("as_tensor")) {
      resultNames.push_back(tensor->getString("name").value_or("").str());
      onlySymbolic = false;
    } else if (const Array *list = out->getArray("as_tensors")) {
      for (const llvm::json::Value &item : *list)
        if (const Object *tensor = item.getAsObject())
          resultNames.push_back(tensor->getString("name").value_or("").str());
      onlySymbolic = false;
    } else if (!out->get("as_sym_int") && !out->get("as_sym_bool") &&
               !out->get("as_sym_float") && !out->get("as_none") &&
               !out->get("as_int")) {
      return emitError(loc) << "node '" << target
                            << "' has an output of a kind the importer does "
                               "not read";
    }
  }
  // Size arithmetic (`sym_size`, `operator.mul` on SymInts) holds no tensor.
  if (onlySymbolic)
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
  llvm::StringRef nodeName = node.getString("name").value_or("");

  llvm::SmallVector<const TensorMeta *> results;
  for (const std::string &name : resultNames) {
    if (tensors.count(name) || redirects.count(name))
      return emitError(loc) << "defines '" << name << "' a second time";
    FailureOr<const TensorMeta *> m = meta(name, loc);
    if (failed(m))
      return failure();
    results.push_back(*m);
  }
  auto selfName = [&]() -> std::optional<std::string> {
    if (inputs->empty())
      return std::nullopt;
    const Object *first = (*inputs)[0].getAsObject();
    const Object *arg = first ? first->getObject("arg") : nullptr;
    const Object *tensor = arg ? arg->getObject("as_tensor") : nullptr;
    if (!tensor || !tensor->getString("name"))
      return std::nullopt;
    return canonical(*tensor->getString("name"));
  };

  auto freshResults = [&](Operation *built) {
    for (auto [name, result] : llvm::zip(resultNames, results))
      if (failed(checkDense(*result, name, loc)))
        return failure();
    for (auto [i, name] : llvm::enumerate(resultNames)) {
      Tensor &t = tensors[name];
      t.current = built->getResult(i);
      t.meta = name;
      t.root = name;
    }
    return success();
  };

  switch (known->role) {
  case OpRole::Check: {
    FailureOr<Operation *> built = buildNode(node, op, overload, {}, {});
    return failure(failed(built));
  }
  case OpRole::Functional:
  case OpRole::MaybeShared: {
    if (known->writesUnless && failed(checkNoHiddenWrites(
                                   node, *known->writesUnless, target)))
      return failure();
    FailureOr<Operation *> built =
        buildNode(node, op, overload, results, std::nullopt);
    if (failed(built) || failed(freshResults(*built)))
      return failure();
    // torch may have returned an operand itself: a write into the result
    // could reach that operand's storage.
    if (known->role == OpRole::MaybeShared)
      for (const std::string &name : resultNames)
        tensors[name].uncertainCopy = true;
    return success();
  }
  case OpRole::View:
  case OpRole::MayAlias: {
    std::optional<std::string> self = selfName();
    if (!self)
      return emitError(loc) << "view op 'aten." << target
                            << "' has no tensor `self`";
    bool view = true;
    if (known->role == OpRole::MayAlias) {
      if (resultNames.size() != 1)
        return emitError(loc) << "expected one result from 'aten." << target
                              << "'";
      FailureOr<bool> isView = mayAliasIsView(op, node, *self, resultNames[0]);
      if (failed(isView))
        return failure();
      view = *isView;
    }
    FailureOr<Operation *> built = buildNode(
        node, op, overload, results,
        view ? std::optional<int64_t>(0) : std::nullopt);
    if (failed(built))
      return failure();
    if (!view) {
      if (failed(freshResults(*built)))
        return failure();
      // Without example strides torch's choice is unknown.
      if (op != "to" && op != "type_as" && op != "contiguous" &&
          !(metas.find(*self)->second.hinted &&
            metas.find(resultNames[0])->second.hinted))
        tensors[resultNames[0]].uncertainCopy = true;
      return success();
    }
    std::string root = tensors[*self].root;
    for (auto [i, name] : llvm::enumerate(resultNames)) {
      Tensor &t = tensors[name];
      t.current = (*built)->getResult(i);
      t.meta = name;
      t.root = root;
      t.version = versions[root];
      t.viewNode = text;
      t.viewResult = i;
      t.parent = *self;
    }
    return success();
  }
  case OpRole::DetachInPlace:
  case OpRole::InPlace: {
    std::optional<std::string> self = selfName();
    if (!self || resultNames.size() != 1)
      return emitError(loc) << "in-place op 'aten." << target
                            << "' must write one tensor `self` and return it";
    if (!tensors.count(*self))
      return emitError(loc) << "writes '" << *self
                            << "', which no earlier node or input defines";
    redirects[resultNames[0]] = *self;
    if (known->role == OpRole::DetachInPlace)
      return success(succeeded(resolve(*self, loc)));
    FailureOr<const TensorMeta *> selfMeta =
        meta(tensors.count(*self) ? tensors[*self].meta : *self, loc);
    if (failed(selfMeta))
      return failure();
    FailureOr<Operation *> built =
        buildNode(node, known->functional, known->functionalOverload,
                  {*selfMeta},
                  std::nullopt);
    if (failed(built))
      return failure();
    (void)nodeName;
    return writeBack(*self, (*built)->getResult(0), loc);
  }
  }
  return success();
}

LogicalResult ProgramImporter::run(const Object &program,
                                   llvm::StringRef graphModuleText,
                                   llvm::StringRef funcName) {
  // The schema version decides how everything else reads.
  const Object *version = program.getObject("schema_version");
  auto major = version ? version->getInteger("major") : std::nullopt;
  auto minor = version ? version->getInteger("minor") : std::nullopt;
  if (!major)
    return error("no schema_version: not a torch.export program");
  if (*major != kSupportedExportSchemaMajor)
    return error("torch.export schema version ")
           << *major << "." << minor.value_or(0)
           << " is not supported: this importer reads major version "
           << kSupportedExportSchemaMajor
           << " (torch 2.5 and later; re-save the program with a torch of "
              "that range)";
  // The graph's small parts are parsed whole; its nodes and tensor
  // metadata one at a time (JsonSplit.h says why).
  Object graph, signatureObject;
  std::vector<llvm::StringRef> nodes;
  bool haveValues = false, haveNodes = false;
  auto parsePart = [&](const JsonMember &part, Object &into) -> LogicalResult {
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(part.value);
    if (!value)
      return error("'") << part.key << "' is not valid JSON: "
                        << llvm::toString(value.takeError());
    into[part.key] = std::move(*value);
    return success();
  };
  auto moduleParts = splitObject(graphModuleText);
  if (!moduleParts)
    return error("graph_module: ") << llvm::toString(moduleParts.takeError());
  for (const JsonMember &part : *moduleParts) {
    if (part.key == "signature") {
      Object holder;
      if (failed(parsePart(part, holder)))
        return failure();
      if (Object *sig = holder.getObject("signature"))
        signatureObject = std::move(*sig);
      continue;
    }
    if (part.key != "graph")
      continue;
    auto graphParts = splitObject(part.value);
    if (!graphParts)
      return error("graph: ") << llvm::toString(graphParts.takeError());
    for (const JsonMember &graphPart : *graphParts) {
      if (graphPart.key == "tensor_values") {
        auto values = splitObject(graphPart.value);
        if (!values)
          return error("tensor_values: ") << llvm::toString(values.takeError());
        for (const JsonMember &value : *values)
          tensorValues[value.key] = value.value;
        haveValues = true;
      } else if (graphPart.key == "nodes") {
        auto list = splitArray(graphPart.value);
        if (!list)
          return error("nodes: ") << llvm::toString(list.takeError());
        nodes = std::move(*list);
        haveNodes = true;
      } else if (graphPart.key == "inputs" || graphPart.key == "outputs" ||
                 graphPart.key == "sym_int_values") {
        if (failed(parsePart(graphPart, graph)))
          return failure();
      }
    }
  }
  const Array *graphInputs = graph.getArray("inputs");
  const Array *graphOutputs = graph.getArray("outputs");
  const Array *inputSpecs = signatureObject.getArray("input_specs");
  const Array *outputSpecs = signatureObject.getArray("output_specs");
  if (!haveValues || !graphInputs || !graphOutputs || !haveNodes ||
      !inputSpecs || !outputSpecs)
    return error("the graph lacks inputs, outputs, nodes, tensor_values or "
                 "its signature");
  if (const Object *syms = graph.getObject("sym_int_values"))
    for (const auto &[name, value] : *syms) {
      const Object *symInt = value.getAsObject();
      const Object *expr = symInt ? symInt->getObject("as_expr") : nullptr;
      if (auto fixed = symInt ? symInt->getInteger("as_int") : std::nullopt) {
        symInts[name] = std::to_string(*fixed);
      } else if (expr && expr->getString("expr_str")) {
        auto infix = sympyToInfix(*expr->getString("expr_str"));
        if (!infix)
          return error(llvm::toString(infix.takeError()));
        symInts[name] = *infix;
      }
    }

  // Placeholders: their kinds and names come from the signature.
  struct Placeholder {
    std::string fxName, specKind, name;
    bool persistent = true;
  };
  llvm::StringMap<Placeholder> specs;
  for (const llvm::json::Value &entry : *inputSpecs) {
    const Object *spec = entry.getAsObject();
    if (!spec || spec->size() != 1)
      return error("malformed input spec");
    auto &[kind, body] = *spec->begin();
    const Object *detail = body.getAsObject();
    const Object *arg = detail ? detail->getObject("arg") : nullptr;
    if (!arg)
      return error("malformed '") << kind.str() << "' input spec";
    Placeholder p;
    p.specKind = kind.str();
    if (kind == "user_input") {
      const Object *tensor = arg->getObject("as_tensor");
      if (!tensor)
        return error("a user input is not a tensor: only tensor inputs are "
                     "imported");
      p.fxName = tensor->getString("name").value_or("").str();
      p.name = p.fxName;
    } else if (kind == "parameter" || kind == "buffer" ||
               kind == "tensor_constant") {
      p.fxName = arg->getString("name").value_or("").str();
      llvm::StringRef key = kind == "parameter"  ? "parameter_name"
                            : kind == "buffer"   ? "buffer_name"
                                                 : "tensor_constant_name";
      p.name = detail->getString(key).value_or(p.fxName).str();
      p.persistent = detail->getBoolean("persistent").value_or(true);
    } else {
      return error("input of kind '")
             << kind.str() << "' is not supported (tensor inputs only)";
    }
    specs[p.fxName] = p;
  }

  llvm::SmallVector<Type> argumentTypes;
  llvm::SmallVector<Placeholder> placeholders;
  for (const llvm::json::Value &input : *graphInputs) {
    const Object *arg = input.getAsObject();
    const Object *tensor = arg ? arg->getObject("as_tensor") : nullptr;
    if (!tensor || !tensor->getString("name"))
      return error("a graph input is not a tensor: only tensor inputs are "
                   "imported");
    std::string name = tensor->getString("name")->str();
    auto spec = specs.find(name);
    if (spec == specs.end())
      return error("graph input '") << name << "' has no input spec";
    FailureOr<const TensorMeta *> m = meta(name, archiveLoc);
    if (failed(m))
      return failure();
    argumentIndex[name] = placeholders.size();
    placeholders.push_back(spec->second);
    argumentTypes.push_back((*m)->type);
  }

  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(
      builder, archiveLoc, funcName, builder.getFunctionType(argumentTypes, {}));
  Block *body = func.addEntryBlock();
  for (auto [index, p] : llvm::enumerate(placeholders)) {
    Tensor &t = tensors[p.fxName];
    t.current = body->getArgument(index);
    t.meta = p.fxName;
    t.root = p.fxName;
  }
  builder.setInsertionPointToEnd(body);
  for (auto [index, text] : llvm::enumerate(nodes)) {
    llvm::Expected<llvm::json::Value> node = llvm::json::parse(text);
    if (!node)
      return error("node ") << index << " is not valid JSON: "
                            << llvm::toString(node.takeError());
    const Object *object = node->getAsObject();
    if (!object)
      return error("node ") << index << " is not an object";
    if (failed(importNode(*object, text)))
      return failure();
  }

  // Results: functionalised buffer writes first, then the signature's
  // outputs (buffer mutations before user outputs, as exported).
  struct Result {
    Value value;
    std::string kind, name, meta;
  };
  llvm::SmallVector<Result> results;
  llvm::StringSet<> stateBuffers;
  // In the order of the buffers, as torch.export lists mutations.
  llvm::stable_sort(mutatedRoots, [&](const std::string &a,
                                      const std::string &b) {
    auto index = [&](const std::string &name) {
      auto found = argumentIndex.find(name);
      return found == argumentIndex.end() ? ~0u : found->second;
    };
    return index(a) < index(b);
  });
  for (const std::string &root : mutatedRoots) {
    auto index = argumentIndex.find(root);
    if (index == argumentIndex.end())
      continue; // an intermediate written in place: nothing outlives the call
    const Placeholder &p = placeholders[index->second];
    Location writer = firstWriter.find(root)->second;
    if (p.specKind != "buffer")
      return emitError(writer)
             << "writes in place into " << p.specKind << " '" << p.name
             << "': only buffers are state a program may update";
    FailureOr<Value> value = resolve(root, writer);
    if (failed(value))
      return failure();
    results.push_back({*value, "state_update", p.name, root});
    stateBuffers.insert(p.name);
  }
  if (outputSpecs->size() != graphOutputs->size())
    return error("the signature has ")
           << outputSpecs->size() << " output specs for "
           << graphOutputs->size() << " graph outputs";
  for (auto [spec, output] : llvm::zip(*outputSpecs, *graphOutputs)) {
    const Object *specObject = spec.getAsObject();
    if (!specObject || specObject->size() != 1)
      return error("malformed output spec");
    auto &[kind, detail] = *specObject->begin();
    const Object *out = output.getAsObject();
    const Object *tensor = out ? out->getObject("as_tensor") : nullptr;
    if (kind == "user_output") {
      if (!tensor)
        continue; // a constant or None output holds no memory
    } else if (kind != "buffer_mutation") {
      return error("output of kind '")
             << kind.str()
             << "' is not supported (user outputs and buffer mutations only)";
    }
    if (!tensor || !tensor->getString("name"))
      return error("a buffer mutation output is not a tensor");
    std::string fxName = tensor->getString("name")->str();
    FailureOr<Value> value = resolve(fxName, archiveLoc);
    if (failed(value))
      return failure();
    if (kind == "user_output") {
      results.push_back({*value, "output", "", canonical(fxName)});
      continue;
    }
    const Object *body = detail.getAsObject();
    auto buffer = body ? body->getString("buffer_name") : std::nullopt;
    if (!buffer)
      return error("buffer mutation without a buffer_name");
    if (!stateBuffers.insert(*buffer).second)
      return error("buffer '") << *buffer
                               << "' is both written in place and returned "
                                  "as a buffer mutation";
    results.push_back({*value, "state_update", buffer->str(),
                       canonical(fxName)});
  }

  llvm::SmallVector<Value> returned;
  llvm::SmallVector<Type> resultTypes;
  for (const Result &r : results) {
    returned.push_back(r.value);
    resultTypes.push_back(r.value.getType());
  }
  func::ReturnOp::create(builder, archiveLoc, returned);
  func.setType(builder.getFunctionType(argumentTypes, resultTypes));

  for (auto [index, p] : llvm::enumerate(placeholders)) {
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

} // namespace

LogicalResult importProgram(ModuleOp module, llvm::StringRef archive,
                            const ModelMember &member,
                            llvm::StringRef funcName) {
  MLIRContext *ctx = module.getContext();
  Location loc = FileLineColLoc::get(ctx, archive, 0, 0);
  // Everything but the graph module is small and parsed whole.
  auto parts = splitObject(member.json);
  if (!parts)
    return emitError(loc) << member.path << ": not valid JSON: "
                          << llvm::toString(parts.takeError());
  Object top;
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
    top[part.key] = std::move(*value);
  }
  const Object *program = &top;
  if (failed(ProgramImporter(module, archive, member.path)
                 .run(*program, graphModule, funcName)))
    return failure();
  // What was built must hold the IR's contract (the coreai dialect checks
  // every attribute, the exporter's strings included): a program whose
  // strings the planner could not read is refused here, at its node.
  if (failed(mlir::verify(module)))
    return failure();

  // Module attributes describe the first program.
  if (module->hasAttr("coreai.source"))
    return success();
  Builder b(ctx);
  module->setAttr("coreai.source", b.getStringAttr("torch.export"));
  llvm::StringRef model = llvm::StringRef(member.path).split('/').first;
  if (model == "models")
    model = llvm::sys::path::stem(archive);
  module->setAttr("coreai.model", b.getStringAttr(model));
  Object config;
  // Names come from the file system and the zip directory, not from JSON:
  // they may be any bytes, and a JSON string must be UTF-8.
  config["archive"] = llvm::json::fixUTF8(llvm::sys::path::filename(archive));
  config["member"] = llvm::json::fixUTF8(member.path);
  if (auto torch = program->getString("torch_version"))
    config["torch_version"] = torch->str();
  if (const Object *version = program->getObject("schema_version"))
    config["schema_version"] =
        llvm::formatv("{0}.{1}", version->getInteger("major").value_or(0),
                      version->getInteger("minor").value_or(0))
            .str();
  if (const Object *opsets = program->getObject("opset_version"))
    config["opset_version"] = Object(*opsets);
  std::string configText;
  llvm::raw_string_ostream(configText) << llvm::json::Value(std::move(config));
  module->setAttr("coreai.config", b.getStringAttr(configText));

  if (const Object *ranges = program->getObject("range_constraints");
      ranges && !ranges->empty()) {
    Object symRanges;
    for (const auto &[symbol, range] : *ranges) {
      const Object *bounds = range.getAsObject();
      auto lo = bounds ? bounds->getInteger("min_val") : std::nullopt;
      auto hi = bounds ? bounds->getInteger("max_val") : std::nullopt;
      symRanges[symbol] = Array{
          lo ? llvm::json::Value(std::to_string(*lo)) : llvm::json::Value("0"),
          hi ? llvm::json::Value(std::to_string(*hi))
             : llvm::json::Value("int_oo")};
    }
    std::string text;
    llvm::raw_string_ostream(text) << llvm::json::Value(std::move(symRanges));
    module->setAttr("coreai.sym_ranges", b.getStringAttr(text));
  }
  return success();
}

} // namespace coreai::import
