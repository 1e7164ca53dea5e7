//===- ReplayInPlace.cpp - What the replay lets a result overwrite --------===//
//
// Each list below was reviewed against what the op computes; none is read
// from lib/Aten. The argument checks accept the forms the exporter writes
// for these ops and nothing else (a list, a device, an unknown keyword or
// memory format: refused).
//
//===----------------------------------------------------------------------===//
#include "ReplayInPlace.h"

#include "AtenArgs.h"
#include "OpClasses.h"

#include "coreai-plan/Dialect/CoreAI.h"
#include "coreai-plan/Exporter/AtenArgs.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace coreai::replaylist {
namespace {

/// Element i of the result from element i of each tensor operand (others
/// broadcast), with scalar arguments only.
const llvm::StringSet<> &elementwiseAten() {
  static const llvm::StringSet<> names = {
      // one tensor
      "abs", "neg", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "silu",
      "relu", "gelu", "cos", "sin", "reciprocal", "erf", "logical_not",
      "bitwise_not", "hardtanh", "leaky_relu", "hardswish", "hardsigmoid",
      "clamp", "clamp_min", "clamp_max",
      // two or three tensors, broadcast
      "add", "sub", "mul", "div", "pow", "minimum", "maximum", "eq", "ne",
      "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor",
      "__and__", "__or__", "__xor__", "where", "masked_fill"};
  return names;
}

/// Scalar keywords of the ops above.
const llvm::StringSet<> &scalarKeywords() {
  static const llvm::StringSet<> names = {
      "alpha", "rounding_mode", "approximate", "negative_slope", "min", "max",
      "min_val", "max_val", "value", "other", "exponent", "scalar"};
  return names;
}

/// Values from scalars and shapes only: they read no element.
const llvm::StringSet<> &fillsAten() {
  static const llvm::StringSet<> names = {
      "full_like", "zeros_like", "ones_like", "scalar_tensor", "full",
      "arange",    "zeros",      "ones",      "new_zeros",     "new_ones",
      "new_full",  "linspace"};
  return names;
}

/// Views whose element i is element i of their source's bytes.
const llvm::StringSet<> &orderKeepingViews() {
  static const llvm::StringSet<> names = {
      "torch.aten.view",          "torch.aten._unsafe_view",
      "torch.aten.reshape",       "torch.aten.reshape_as",
      "torch.aten.flatten",       "torch.aten.unflatten",
      "torch.aten.unsqueeze",     "torch.aten.squeeze",
      "torch.aten.alias",         "torch.aten.detach",
      "torch.aten.lift_fresh",    "torch.aten.view_as",
      "torch.aten.contiguous",    "torch.aten.to",
      "torch.aten.type_as",       "tensor.reshape",
      "tensor.expand_shape",      "tensor.collapse_shape",
      "tensor.cast",              "tosa.reshape",
      "bufferization.to_tensor",  "bufferization.to_buffer"};
  return names;
}

/// A literal the exporter writes for a scalar: a number, a bool, None, a
/// quoted string or a symbolic size; not a list, a tensor, a dtype, a
/// device or a memory format.
bool isScalar(llvm::StringRef value) {
  value = value.trim();
  if (value.empty() || value == "T" || value.starts_with("[") ||
      value.starts_with("(") || value.starts_with("torch.") ||
      value.starts_with("device"))
    return false;
  return true;
}

/// The call's `coreai.args`, split (the exporter's grammar: a parser,
/// not a judgement, so the planner's cached one, AtenArgs.h).
std::optional<AtenArgs> argsOf(Operation *op, bool &present) {
  return atenArgsOf(op, &present);
}

/// The ATen op's name without `torch.aten.`, or empty.
llvm::StringRef atenName(Operation *op) {
  llvm::StringRef name = op->getName().getStringRef();
  return name.consume_front("torch.aten.") ? name : llvm::StringRef();
}

bool plainElementwiseCall(Operation *op) {
  bool present = false;
  std::optional<AtenArgs> args = argsOf(op, present);
  if (!args)
    return !present; // hand-written IR: its other arguments are scalars
  for (const std::string &value : args->positional)
    if (value != "T" && !isScalar(value))
      return false;
  for (const auto &[key, value] : args->keywords)
    if (!scalarKeywords().contains(key) || (value != "T" && !isScalar(value)))
      return false;
  return true;
}

/// A memory format, layout, device or dtype argument that keeps every
/// element at its index (in the contiguous order of every planned value).
bool keepsOrder(llvm::StringRef key, llvm::StringRef value) {
  value = value.trim();
  if (key == "memory_format")
    return llvm::is_contained({"None", "torch.preserve_format",
                               "torch.contiguous_format"},
                              value);
  if (key == "layout")
    return llvm::is_contained({"None", "torch.strided"}, value);
  if (key == "device")
    return llvm::is_contained({"None", "device(type='cpu')"}, value);
  if (key == "pin_memory")
    return llvm::is_contained({"None", "False"}, value);
  if (key == "non_blocking" || key == "copy")
    return llvm::is_contained({"False", "True"}, value);
  if (key == "dtype")
    return value.starts_with("torch.") && !value.ends_with("_format") &&
           !value.starts_with("torch.channels_last");
  return false;
}

/// A positional argument of `to` after self: a dtype, a CPU device or a
/// flag (non_blocking, copy), never a memory format.
bool plainToArgument(llvm::StringRef value) {
  return keepsOrder("dtype", value) || keepsOrder("device", value) ||
         keepsOrder("copy", value) || value == "None";
}

/// Copies whose element i is operand 0's element i, converted: `_to_copy`,
/// `clone`, `lift_fresh_copy`, `copy`, `to`, `contiguous` in the default
/// memory format, on the CPU; reshapes made copies; dropout not training.
/// Their arguments must say so (a copy's memory format must be known).
bool orderKeepingCopy(Operation *op) {
  llvm::StringRef name = atenName(op);
  bool present = false;
  std::optional<AtenArgs> args = argsOf(op, present);
  if (!args || args->positional.empty() || args->positional[0] != "T")
    return false;
  auto keywordsKeepOrder = [&] {
    return llvm::all_of(args->keywords, [](const auto &keyword) {
      return keepsOrder(keyword.first, keyword.second);
    });
  };
  llvm::ArrayRef<std::string> rest =
      llvm::ArrayRef(args->positional).drop_front();
  if (name == "_to_copy" || name == "clone" || name == "contiguous" ||
      name == "lift_fresh_copy")
    return rest.empty() && keywordsKeepOrder();
  if (name == "copy") // (self, src[, non_blocking])
    return !rest.empty() && rest[0] == "T" && rest.size() <= 2 &&
           (rest.size() == 1 || keepsOrder("non_blocking", rest[1])) &&
           args->keywords.empty();
  if (name == "to")
    return llvm::all_of(rest, [](const std::string &value) {
             return value == "T" || plainToArgument(value);
           }) &&
           keywordsKeepOrder();
  if (llvm::is_contained({"dropout", "feature_dropout", "alpha_dropout",
                          "feature_alpha_dropout"},
                         name)) // (input, p, train): the input itself
    return rest.size() == 2 && rest[1] == "False" && args->keywords.empty();
  if (llvm::is_contained({"reshape", "reshape_as", "flatten", "type_as"},
                         name)) // row-major order, other read for its type
    return args->keywords.empty() &&
           llvm::none_of(rest, [](const std::string &value) {
             return llvm::StringRef(value).starts_with("torch.") ||
                    llvm::StringRef(value).starts_with("device");
           });
  return false;
}

/// An einsum's terms, its result's last: `('ij,j->ij', [T, T])` gives
/// {"ij", "j", "ij"}. Empty unless the equation is explicit (`->`), made
/// of letters only and names one term per operand.
llvm::SmallVector<std::string, 3> einsumTerms(Operation *op) {
  if (atenName(op) != "einsum")
    return {};
  bool present = false;
  std::optional<AtenArgs> args = argsOf(op, present);
  if (!args || args->positional.size() != 2)
    return {};
  std::string equation;
  for (char c : llvm::StringRef(args->positional[0]).trim("'\""))
    if (c != ' ')
      equation += c;
  auto [inputs, result] = llvm::StringRef(equation).split("->");
  llvm::SmallVector<llvm::StringRef, 3> parts;
  inputs.split(parts, ',');
  if (result.size() == equation.size() || parts.size() != op->getNumOperands())
    return {};
  parts.push_back(result);
  llvm::SmallVector<std::string, 3> terms;
  for (llvm::StringRef term : parts) {
    if (!llvm::all_of(term, llvm::isAlpha))
      return {};
    terms.push_back(term.str());
  }
  return terms;
}

/// An einsum that sums nothing and reads every term in the result's order
/// (a product or scale per element, broadcast terms allowed).
bool elementwiseEinsum(Operation *op) {
  llvm::SmallVector<std::string, 3> terms = einsumTerms(op);
  if (terms.empty())
    return false;
  llvm::StringRef result = terms.back();
  for (llvm::StringRef term : llvm::ArrayRef(terms).drop_back()) {
    size_t at = 0;
    for (char label : term) { // in the result's order, each once
      size_t found = result.find(label, at);
      if (found == llvm::StringRef::npos)
        return false;
      at = found + 1;
    }
  }
  return true;
}

/// Whether result element i reads element i of operand `k`: any operand
/// of the list's elementwise ops; an einsum term equal to the result's.
bool readAtResultIndex(Operation *op, unsigned k) {
  llvm::SmallVector<std::string, 3> terms = einsumTerms(op);
  if (terms.empty())
    return atenName(op) != "einsum";
  return k + 1 < terms.size() && terms[k] == terms.back();
}

/// Whether `op` computes each element of its result from the elements at
/// that index of its tensor operands (or from none): the list's ops.
bool elementwise(Operation *op) {
  llvm::StringRef name = atenName(op);
  if (!name.empty())
    return (elementwiseAten().contains(name) && plainElementwiseCall(op)) ||
           fillsAten().contains(name) || orderKeepingCopy(op) ||
           elementwiseEinsum(op);
  return op->hasTrait<OpTrait::Elementwise>() ||
         op->hasTrait<OpTrait::tosa::TosaElementwiseOperator>();
}

/// A linalg op on tensors with only parallel loops whose input is read
/// through the output's own (permutation) map, and only so.
llvm::SmallVector<unsigned, 2> linalgOverwritable(linalg::LinalgOp op) {
  llvm::SmallVector<unsigned, 2> candidates;
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return candidates;
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!map.isPermutation())
    return candidates;
  Type type = op->getResult(0).getType();
  for (OpOperand *input : op.getDpsInputOperands()) {
    bool onlyThere = llvm::all_of(op->getOpOperands(), [&](OpOperand &use) {
      return use.get() != input->get() ||
             op.getMatchingIndexingMap(&use) == map;
    });
    if (input->get().getType() == type && onlyThere)
      candidates.push_back(input->getOperandNumber());
  }
  return candidates;
}

bool softmaxOverInput(Operation *op) {
  llvm::StringRef name = atenName(op);
  if (!llvm::is_contained({"_softmax", "softmax", "_log_softmax",
                           "log_softmax"},
                          name))
    return false;
  bool present = false;
  std::optional<AtenArgs> args = argsOf(op, present);
  if (!args)
    return !present;
  return args->positional.size() >= 2 && args->positional.size() <= 3 &&
         args->positional[0] == "T" && isScalar(args->positional[1]) &&
         (args->positional.size() == 2 ||
          llvm::is_contained({"False", "None"}, args->positional[2])) &&
         llvm::all_of(args->keywords, [](const auto &keyword) {
           return keyword.first == "dtype" && keyword.second == "None";
         });
}

int64_t elementsOf(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasStaticShape() ? shaped.getNumElements() : -1;
}

} // namespace

llvm::SmallVector<unsigned, 2> overwritableOperands(Operation *op) {
  llvm::SmallVector<unsigned, 2> candidates;
  if (op->getNumResults() == 0 || op->getNumOperands() == 0)
    return candidates;
  Type type = op->getResult(0).getType();
  llvm::StringRef name = atenName(op);
  if (name == "_native_batch_norm_legit_no_training") {
    // A per-channel affine map of operand 0; its other results are empty.
    bool emptyStatistics =
        llvm::all_of(op->getResults().drop_front(),
                     [](Value result) { return elementsOf(result.getType()) == 0; });
    if (emptyStatistics && op->getOperand(0).getType() == type &&
        plainElementwiseCall(op))
      candidates.push_back(0);
    return candidates;
  }
  if (op->getNumResults() != 1)
    return candidates;
  bool replacesElements = llvm::is_contained(
      {"index_put", "index_copy", "slice_scatter", "select_scatter", "scatter"},
      name);
  if ((replacesElements || softmaxOverInput(op)) &&
      op->getNumOperands() > 0 && op->getOperand(0).getType() == type)
    candidates.push_back(0);
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOverwritable(linalgOp);
  if (!elementwise(op) || fillsAten().contains(name))
    return candidates;
  for (OpOperand &operand : op->getOpOperands())
    if (operand.get().getType() == type &&
        readAtResultIndex(op, operand.getOperandNumber()) &&
        !llvm::is_contained(candidates, operand.getOperandNumber()))
      candidates.push_back(operand.getOperandNumber());
  return candidates;
}

bool viewKeepsOrder(Operation *op) {
  return orderKeepingViews().contains(op->getName().getStringRef());
}

KernelOverwrites::KernelOverwrites(llvm::ArrayRef<Operation *> ops,
                                   bool irOrder)
    : ops(ops.begin(), ops.end()), inKernel(ops.begin(), ops.end()),
      irOrder(irOrder) {
  int64_t count = -1;
  auto sameCount = [&](Value value) {
    int64_t n = elementsOf(value.getType());
    if (count < 0)
      count = n;
    return n >= 0 && n == count;
  };
  for (Operation *op : ops) {
    if (op->getName().getStringRef() == "torch.aten._assert_tensor_metadata")
      continue; // reads the type only
    FailureOr<ResultClass> cls = op->getNumResults() == 1
                                     ? classifyResult(op, 0)
                                     : FailureOr<ResultClass>(failure());
    bool view = succeeded(cls) && cls->kind == ResultKind::View;
    if (op->getNumResults() != 1 ||
        (view ? !viewKeepsOrder(op) : !elementwise(op)) ||
        !sameCount(op->getResult(0)))
      return;
    for (OpOperand &use : op->getOpOperands()) {
      Value operand = use.get();
      Operation *def = operand.getDefiningOp();
      if (def && inKernel.contains(def)) {
        if (!sameCount(operand))
          return;
        continue;
      }
      bool atIndex = !view && readAtResultIndex(op, use.getOperandNumber());
      readers[operand].push_back(atIndex ? op : nullptr);
    }
  }
  allElementwise = count > 0;
}

llvm::SmallVector<Value, 2>
KernelOverwrites::operandsFor(Value result) const {
  llvm::SmallVector<Value, 2> candidates;
  Operation *writer = result.getDefiningOp();
  if (!allElementwise || !writer || !inKernel.contains(writer))
    return candidates;
  // The ops that surely ran before the result is written.
  llvm::DenseSet<Operation *> before{writer};
  if (irOrder) {
    for (Operation *op : ops) {
      before.insert(op);
      if (op == writer)
        break;
    }
  } else {
    llvm::SmallVector<Operation *, 8> work{writer};
    while (!work.empty())
      for (Value operand : work.pop_back_val()->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && inKernel.contains(def) && before.insert(def).second)
          work.push_back(def);
  }
  for (const auto &[operand, ops] : readers)
    if (operand.getType() == result.getType() &&
        llvm::all_of(ops, [&](Operation *reader) {
          return reader && before.contains(reader);
        }))
      candidates.push_back(operand);
  return candidates;
}

} // namespace coreai::replaylist
