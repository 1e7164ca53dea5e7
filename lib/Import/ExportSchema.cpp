//===- ExportSchema.cpp - torch.export's program JSON as plain structs ----===//
#include "ExportSchema.h"

#include "JsonSplit.h"
#include "Sympy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai::import {

using llvm::json::Array;
using llvm::json::Object;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// One SymInt of a size or stride: its example value (`hint`) and, when
/// `text` is given, its text. False when it is malformed.
llvm::Expected<bool> readSymInt(const llvm::json::Value &entry, int64_t &hint,
                                std::string *text, bool &hinted,
                                llvm::StringRef name) {
  const Object *symInt = entry.getAsObject();
  if (!symInt)
    return false;
  if (auto fixed = symInt->getInteger("as_int")) {
    hint = *fixed;
    if (text)
      *text = std::to_string(*fixed);
    return true;
  }
  const Object *expr = symInt->getObject("as_expr");
  if (!expr || !expr->getString("expr_str"))
    return false;
  if (text) {
    auto infix = sympyToInfix(*expr->getString("expr_str"));
    if (!infix)
      return fail("tensor '" + name + "': " + llvm::toString(infix.takeError()));
    *text = *infix;
  }
  std::optional<int64_t> value;
  if (const Object *h = expr->getObject("hint"))
    value = h->getInteger("as_int");
  if (value)
    hint = *value;
  else
    hinted = false;
  return true;
}

llvm::Error readSizes(const Array &sizes, const Array *strides,
                      llvm::StringRef name, TensorMeta &meta) {
  meta.hinted = true;
  for (auto [dim, entry] : llvm::enumerate(sizes)) {
    int64_t hint = 0;
    std::string text;
    llvm::Expected<bool> read =
        readSymInt(entry, hint, &text, meta.hinted, name);
    if (!read)
      return read.takeError();
    if (!*read)
      return fail(llvm::formatv("tensor '{0}' has a malformed size in dim {1}",
                                name, dim));
    bool symbolic = entry.getAsObject()->getObject("as_expr") != nullptr;
    if (!symbolic && hint < 0)
      return fail(llvm::formatv("tensor '{0}' has negative size {1} in dim {2}",
                                name, hint, dim));
    meta.sizes.push_back(symbolic ? kSymbolicSize : hint);
    meta.dynamic |= symbolic;
    meta.dims.push_back(text);
    meta.hintSizes.push_back(hint);
  }
  if (!strides || strides->size() != sizes.size()) {
    meta.hinted = false;
    return llvm::Error::success();
  }
  for (const llvm::json::Value &entry : *strides) {
    int64_t hint = 0;
    llvm::Expected<bool> read =
        readSymInt(entry, hint, nullptr, meta.hinted, name);
    if (!read)
      return read.takeError();
    if (!*read)
      return fail("tensor '" + name + "' has a malformed stride");
    meta.hintStrides.push_back(hint);
  }
  return llvm::Error::success();
}

/// The schema version decides how everything else reads.
llvm::Error checkSchemaVersion(const Object &program) {
  const Object *version = program.getObject("schema_version");
  auto major = version ? version->getInteger("major") : std::nullopt;
  auto minor = version ? version->getInteger("minor") : std::nullopt;
  if (!major)
    return fail("no schema_version: not a torch.export program");
  if (*major != kSupportedExportSchemaMajor)
    return fail(llvm::formatv(
        "torch.export schema version {0}.{1} is not supported: this importer "
        "reads major version {2} (torch 2.5 and later; re-save the program "
        "with a torch of that range)",
        *major, minor.value_or(0), kSupportedExportSchemaMajor));
  return llvm::Error::success();
}

llvm::Error parsePart(const JsonMember &part, Object &into) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(part.value);
  if (!value)
    return fail("'" + part.key + "' is not valid JSON: " +
                llvm::toString(value.takeError()));
  into[part.key] = std::move(*value);
  return llvm::Error::success();
}

/// The graph's small parts are parsed whole (into `graph`); its nodes and
/// tensor metadata are kept as text, parsed one at a time (JsonSplit.h says
/// why).
llvm::Error splitGraph(llvm::StringRef graphText, ExportGraph &decoded,
                       Object &graph, bool &haveValues, bool &haveNodes) {
  auto graphParts = splitObject(graphText);
  if (!graphParts)
    return fail("graph: " + llvm::toString(graphParts.takeError()));
  for (const JsonMember &graphPart : *graphParts) {
    if (graphPart.key == "tensor_values") {
      auto values = splitObject(graphPart.value);
      if (!values)
        return fail("tensor_values: " + llvm::toString(values.takeError()));
      for (const JsonMember &value : *values)
        decoded.tensorValues[value.key] = value.value;
      haveValues = true;
    } else if (graphPart.key == "nodes") {
      auto list = splitArray(graphPart.value);
      if (!list)
        return fail("nodes: " + llvm::toString(list.takeError()));
      decoded.nodes = std::move(*list);
      haveNodes = true;
    } else if (graphPart.key == "inputs" || graphPart.key == "outputs" ||
               graphPart.key == "sym_int_values") {
      if (llvm::Error error = parsePart(graphPart, graph))
        return error;
    }
  }
  return llvm::Error::success();
}

llvm::Error readSymInts(const Object &graph, SymIntTexts &symInts) {
  const Object *syms = graph.getObject("sym_int_values");
  if (!syms)
    return llvm::Error::success();
  for (const auto &[name, value] : *syms) {
    const Object *symInt = value.getAsObject();
    const Object *expr = symInt ? symInt->getObject("as_expr") : nullptr;
    if (auto fixed = symInt ? symInt->getInteger("as_int") : std::nullopt) {
      symInts[name] = std::to_string(*fixed);
    } else if (expr && expr->getString("expr_str")) {
      auto infix = sympyToInfix(*expr->getString("expr_str"));
      if (!infix)
        return infix.takeError();
      symInts[name] = *infix;
    }
  }
  return llvm::Error::success();
}

/// A signature spec: an object of one member, its kind (`user_input`,
/// `buffer_mutation`, ...) and that kind's details.
struct Spec {
  llvm::StringRef kind;
  const llvm::json::Value *details;
};
llvm::Expected<Spec> readSpec(const llvm::json::Value &entry,
                              llvm::StringRef what) {
  const Object *spec = entry.getAsObject();
  if (!spec || spec->size() != 1)
    return fail("malformed " + what + " spec");
  return Spec{spec->begin()->first, &spec->begin()->second};
}

llvm::Expected<Placeholder> readInputSpec(const llvm::json::Value &entry) {
  llvm::Expected<Spec> spec = readSpec(entry, "input");
  if (!spec)
    return spec.takeError();
  llvm::StringRef kind = spec->kind;
  const Object *detail = spec->details->getAsObject();
  const Object *arg = detail ? detail->getObject("arg") : nullptr;
  if (!arg)
    return fail("malformed '" + kind + "' input spec");
  Placeholder p;
  p.specKind = kind.str();
  if (kind == "user_input") {
    const Object *tensor = arg->getObject("as_tensor");
    if (!tensor)
      return fail("a user input is not a tensor: only tensor inputs are "
                  "imported");
    p.fxName = tensor->getString("name").value_or("").str();
    p.name = p.fxName;
    return p;
  }
  if (kind != "parameter" && kind != "buffer" && kind != "tensor_constant")
    return fail("input of kind '" + kind +
                "' is not supported (tensor inputs only)");
  p.fxName = arg->getString("name").value_or("").str();
  llvm::StringRef key = kind == "parameter" ? "parameter_name"
                        : kind == "buffer"  ? "buffer_name"
                                            : "tensor_constant_name";
  p.name = detail->getString(key).value_or(p.fxName).str();
  p.persistent = detail->getBoolean("persistent").value_or(true);
  return p;
}

/// Placeholders: their kinds and names come from the signature.
llvm::Error readPlaceholders(const Array &specs, const Array &graphInputs,
                             std::vector<Placeholder> &placeholders) {
  llvm::StringMap<Placeholder> byName;
  for (const llvm::json::Value &entry : specs) {
    llvm::Expected<Placeholder> p = readInputSpec(entry);
    if (!p)
      return p.takeError();
    byName[p->fxName] = *p;
  }
  for (const llvm::json::Value &input : graphInputs) {
    const Object *arg = input.getAsObject();
    const Object *tensor = arg ? arg->getObject("as_tensor") : nullptr;
    if (!tensor || !tensor->getString("name"))
      return fail("a graph input is not a tensor: only tensor inputs are "
                  "imported");
    llvm::StringRef name = *tensor->getString("name");
    auto spec = byName.find(name);
    if (spec == byName.end())
      return fail("graph input '" + name + "' has no input spec");
    placeholders.push_back(spec->second);
  }
  return llvm::Error::success();
}

llvm::Error readOutputs(const Array &specs, const Array &graphOutputs,
                        std::vector<GraphOutput> &outputs) {
  if (specs.size() != graphOutputs.size())
    return fail(llvm::formatv("the signature has {0} output specs for {1} "
                              "graph outputs",
                              specs.size(), graphOutputs.size()));
  for (auto [spec, output] : llvm::zip(specs, graphOutputs)) {
    llvm::Expected<Spec> decodedSpec = readSpec(spec, "output");
    if (!decodedSpec)
      return decodedSpec.takeError();
    llvm::StringRef kind = decodedSpec->kind;
    const Object *out = output.getAsObject();
    const Object *tensor = out ? out->getObject("as_tensor") : nullptr;
    GraphOutput decoded;
    decoded.specKind = kind.str();
    if (kind == "user_output") {
      if (tensor && tensor->getString("name"))
        decoded.tensor = tensor->getString("name")->str();
      else if (tensor)
        return fail("a buffer mutation output is not a tensor");
      outputs.push_back(std::move(decoded));
      continue;
    }
    if (kind != "buffer_mutation")
      return fail("output of kind '" + kind +
                  "' is not supported (user outputs and buffer mutations "
                  "only)");
    if (!tensor || !tensor->getString("name"))
      return fail("a buffer mutation output is not a tensor");
    decoded.tensor = tensor->getString("name")->str();
    const Object *body = decodedSpec->details->getAsObject();
    auto buffer = body ? body->getString("buffer_name") : std::nullopt;
    if (!buffer)
      return fail("buffer mutation without a buffer_name");
    decoded.bufferName = buffer->str();
    outputs.push_back(std::move(decoded));
  }
  return llvm::Error::success();
}

} // namespace

std::string TensorMeta::symShape() const { return llvm::join(dims, ","); }

llvm::Expected<TensorMeta> parseTensorMeta(llvm::StringRef name,
                                           llvm::StringRef json) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    return fail("tensor metadata of '" + name + "' is not valid JSON: " +
                llvm::toString(parsed.takeError()));
  const Object *value = parsed->getAsObject();
  if (!value)
    return fail("tensor metadata of '" + name + "' is not an object");
  TensorMeta meta;
  auto dtype = value->getInteger("dtype");
  if (!dtype || !scalarTypeName(*dtype))
    return fail("tensor '" + name + "' has dtype " +
                (dtype ? std::to_string(*dtype) : "(missing)") +
                ", which the importer does not know");
  meta.dtype = *dtype;
  const Array *sizes = value->getArray("sizes");
  if (!sizes)
    return fail("tensor '" + name + "' has no sizes");
  if (llvm::Error error =
          readSizes(*sizes, value->getArray("strides"), name, meta))
    return error;
  return meta;
}

llvm::Error checkDense(const TensorMeta &meta, llvm::StringRef name) {
  if (!meta.hinted)
    return llvm::Error::success();
  int64_t elements = 1, extent = 1;
  for (auto [size, stride] : llvm::zip(meta.hintSizes, meta.hintStrides)) {
    int64_t span;
    if (llvm::MulOverflow(elements, size, elements) ||
        (size > 0 && (stride < 0 || llvm::MulOverflow(size - 1, stride, span) ||
                      llvm::AddOverflow(extent, span, extent))))
      return fail("tensor '" + name + "' has strides the planner cannot size");
  }
  if (elements > 0 && extent > elements)
    return fail(llvm::formatv("tensor '{0}' spreads {1} elements over {2} by "
                              "its strides: only dense results are planned",
                              name, elements, extent));
  return llvm::Error::success();
}

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

llvm::Expected<ExportGraph> decodeGraph(const Object &program,
                                        llvm::StringRef graphModule) {
  if (llvm::Error error = checkSchemaVersion(program))
    return error;
  ExportGraph decoded;
  Object graph, signature;
  bool haveValues = false, haveNodes = false;
  auto moduleParts = splitObject(graphModule);
  if (!moduleParts)
    return fail("graph_module: " + llvm::toString(moduleParts.takeError()));
  for (const JsonMember &part : *moduleParts) {
    if (part.key == "signature") {
      Object holder;
      if (llvm::Error error = parsePart(part, holder))
        return error;
      if (Object *sig = holder.getObject("signature"))
        signature = std::move(*sig);
    } else if (part.key == "graph") {
      if (llvm::Error error =
              splitGraph(part.value, decoded, graph, haveValues, haveNodes))
        return error;
    }
  }
  const Array *graphInputs = graph.getArray("inputs");
  const Array *graphOutputs = graph.getArray("outputs");
  const Array *inputSpecs = signature.getArray("input_specs");
  const Array *outputSpecs = signature.getArray("output_specs");
  if (!haveValues || !graphInputs || !graphOutputs || !haveNodes ||
      !inputSpecs || !outputSpecs)
    return fail("the graph lacks inputs, outputs, nodes, tensor_values or "
                "its signature");
  if (llvm::Error error = readSymInts(graph, decoded.symInts))
    return error;
  if (llvm::Error error =
          readPlaceholders(*inputSpecs, *graphInputs, decoded.placeholders))
    return error;
  if (llvm::Error error =
          readOutputs(*outputSpecs, *graphOutputs, decoded.outputs))
    return error;
  return decoded;
}

std::optional<SourceLine> sourceLineOf(const Object &node) {
  const Object *metadata = node.getObject("metadata");
  auto trace = metadata ? metadata->getString("stack_trace") : std::nullopt;
  if (!trace)
    return std::nullopt;
  // The innermost frame (the last `File "...", line N`) is the user's.
  size_t at = trace->rfind("File \"");
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef rest = trace->drop_front(at + 6);
  size_t quote = rest.find('"');
  llvm::StringRef file = rest.take_front(quote);
  rest = rest.drop_front(quote + 1).ltrim(", ");
  if (quote == llvm::StringRef::npos || !rest.consume_front("line "))
    return std::nullopt;
  SourceLine where{file.str(), 0};
  rest.take_while(llvm::isDigit).getAsInteger(10, where.line);
  return where;
}

llvm::Expected<NodeResults> nodeResults(const Array &outputs,
                                        llvm::StringRef target) {
  NodeResults results;
  results.onlySymbolic = !outputs.empty();
  for (const llvm::json::Value &output : outputs) {
    const Object *out = output.getAsObject();
    if (!out)
      return fail("malformed node output");
    if (const Object *tensor = out->getObject("as_tensor")) {
      results.names.push_back(tensor->getString("name").value_or("").str());
      results.onlySymbolic = false;
    } else if (const Array *list = out->getArray("as_tensors")) {
      for (const llvm::json::Value &item : *list)
        if (const Object *tensor = item.getAsObject())
          results.names.push_back(
              tensor->getString("name").value_or("").str());
      results.onlySymbolic = false;
    } else if (!out->get("as_sym_int") && !out->get("as_sym_bool") &&
               !out->get("as_sym_float") && !out->get("as_none") &&
               !out->get("as_int")) {
      return fail("node '" + target +
                  "' has an output of a kind the importer does not read");
    }
  }
  return results;
}

llvm::Expected<std::vector<std::string>>
tensorArgumentNames(const Array &inputs) {
  std::vector<std::string> names;
  auto add = [&](const llvm::json::Value &tensorArg) -> llvm::Error {
    const Object *tensor = tensorArg.getAsObject();
    auto name = tensor ? tensor->getString("name") : std::nullopt;
    if (!name)
      return fail("malformed tensor argument");
    names.push_back(name->str());
    return llvm::Error::success();
  };
  for (const llvm::json::Value &input : inputs) {
    const Object *named = input.getAsObject();
    const Object *arg = named ? named->getObject("arg") : nullptr;
    if (!arg)
      return fail("malformed node input");
    llvm::SmallVector<const llvm::json::Value *> tensors;
    if (const llvm::json::Value *tensor = arg->get("as_tensor")) {
      tensors.push_back(tensor);
    } else if (const Array *list = arg->getArray("as_tensors")) {
      for (const llvm::json::Value &tensor : *list)
        tensors.push_back(&tensor);
    } else if (const Array *list = arg->getArray("as_optional_tensors")) {
      for (const llvm::json::Value &item : *list)
        if (const Object *o = item.getAsObject())
          if (const llvm::json::Value *tensor = o->get("as_tensor"))
            tensors.push_back(tensor);
    } else if (const Object *optional = arg->getObject("as_optional_tensor")) {
      if (const llvm::json::Value *tensor = optional->get("as_tensor"))
        tensors.push_back(tensor);
    } else if (arg->get("as_nested_tensors") || arg->get("as_graph") ||
               arg->get("as_custom_obj") || arg->get("as_string_to_argument")) {
      return fail("argument '" + named->getString("name").value_or("") +
                  "' is of a kind the importer does not read");
    }
    for (const llvm::json::Value *tensor : tensors)
      if (llvm::Error error = add(*tensor))
        return error;
  }
  return names;
}

std::optional<std::string> selfArgumentName(const Array &inputs) {
  if (inputs.empty())
    return std::nullopt;
  const Object *first = inputs[0].getAsObject();
  const Object *arg = first ? first->getObject("arg") : nullptr;
  const Object *tensor = arg ? arg->getObject("as_tensor") : nullptr;
  if (!tensor || !tensor->getString("name"))
    return std::nullopt;
  return tensor->getString("name")->str();
}

std::optional<bool> boolArgument(const Array &inputs, llvm::StringRef name) {
  std::optional<bool> literal;
  for (const llvm::json::Value &input : inputs)
    if (const Object *named = input.getAsObject())
      if (named->getString("name") == name)
        if (const Object *arg = named->getObject("arg"))
          if (std::optional<bool> flag = arg->getBoolean("as_bool"))
            literal = *flag;
  return literal;
}

std::string programConfig(const Object &program, llvm::StringRef archive,
                          llvm::StringRef member) {
  Object config;
  // Names come from the file system and the zip directory, not from JSON:
  // they may be any bytes, and a JSON string must be UTF-8.
  config["archive"] = llvm::json::fixUTF8(llvm::sys::path::filename(archive));
  config["member"] = llvm::json::fixUTF8(member);
  if (auto torch = program.getString("torch_version"))
    config["torch_version"] = torch->str();
  if (const Object *version = program.getObject("schema_version"))
    config["schema_version"] =
        llvm::formatv("{0}.{1}", version->getInteger("major").value_or(0),
                      version->getInteger("minor").value_or(0))
            .str();
  if (const Object *opsets = program.getObject("opset_version"))
    config["opset_version"] = Object(*opsets);
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(std::move(config));
  return text;
}

std::optional<std::string> symbolRanges(const Object &program) {
  const Object *ranges = program.getObject("range_constraints");
  if (!ranges || ranges->empty())
    return std::nullopt;
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
  return text;
}

} // namespace coreai::import
