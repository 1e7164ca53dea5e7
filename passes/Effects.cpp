//===- Effects.cpp - Which ops have effects beyond their results ----------===//
#include "Effects.h"

#include "AtenArgs.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace coreai {
namespace {

// Functional core ATen ops: results computed from operands and arguments
// alone (schemas without `(a!)` annotations or generators). An ATen op not
// named here, nor below, has unknown effects.
const llvm::StringSet<> &pureAtenOps() {
  static const llvm::StringSet<> names = {
      // views and copies
      "view", "alias", "permute", "expand", "unsqueeze", "squeeze", "slice",
      "select", "t", "transpose", "narrow", "diagonal", "as_strided",
      "detach", "unfold", "split", "split_with_sizes", "chunk", "unbind",
      "view_as_real", "view_as_complex", "_unsafe_view", "reshape",
      "flatten", "contiguous", "clone", "_to_copy", "copy", "to", "lift_fresh_copy",
      "view_copy", "permute_copy", "expand_copy", "slice_copy",
      "select_copy", "unsqueeze_copy", "squeeze_copy", "transpose_copy",
      // elementwise
      "abs", "add", "sub", "rsub", "mul", "div", "neg", "rsqrt", "sqrt", "pow",
      "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "tanh",
      "gelu", "sigmoid", "silu", "relu", "relu6", "elu", "hardtanh",
      "hardswish", "hardsigmoid", "leaky_relu", "softplus", "mish", "cos",
      "sin", "tan", "acos", "asin", "atan", "atan2", "cosh", "sinh", "erf",
      "erfc", "erfinv", "where", "clamp", "clamp_min", "clamp_max",
      "minimum", "maximum", "fmod", "remainder", "reciprocal", "sign",
      "floor", "ceil", "round", "trunc", "frac", "bitwise_and", "bitwise_or",
      "bitwise_xor", "bitwise_not", "logical_and", "logical_or",
      "logical_xor", "logical_not", "le", "lt", "ge", "gt", "eq", "ne",
      "isnan", "isinf", "masked_fill", "lerp", "floor_divide", "square",
      "_native_batch_norm_legit_no_training", "native_layer_norm",
      "native_group_norm", "layer_norm",
      // reductions, scans, sorts, softmax
      "mean", "sum", "prod", "amax", "amin", "max", "min", "argmax", "argmin",
      "var", "var_mean", "std", "any", "all", "norm", "linalg_vector_norm",
      "logsumexp", "cumsum", "cumprod", "sort", "topk", "_softmax",
      "softmax", "_log_softmax", "log_softmax",
      // layout and data movement
      "cat", "stack", "flip", "roll", "gather", "scatter", "scatter_add",
      "scatter_reduce", "index", "index_select", "index_put", "index_copy",
      "index_add", "slice_scatter", "select_scatter", "diagonal_scatter",
      "embedding", "repeat", "tril", "triu", "constant_pad_nd", "pad",
      "tile", "masked_scatter", "nonzero",
      // linear algebra and convolution
      "mm", "bmm", "addmm", "matmul", "linear", "baddbmm", "convolution",
      "_convolution", "max_pool2d_with_indices", "avg_pool2d",
      "adaptive_avg_pool2d", "_adaptive_avg_pool2d", "upsample_nearest2d",
      "upsample_bilinear2d",
      // factories (deterministic)
      "arange", "full", "full_like", "zeros", "zeros_like", "ones",
      "ones_like", "empty", "empty_like", "empty_strided", "scalar_tensor",
      "fill", "new_zeros", "new_ones", "new_full", "new_empty", "eye",
      "linspace"};
  return names;
}

// ATen ops drawing from the random generator.
const llvm::StringSet<> &randomAtenOps() {
  static const llvm::StringSet<> names = {
      "rand",        "randn",       "rand_like",  "randn_like",
      "randint",     "randint_like", "randperm",  "bernoulli",
      "normal",      "uniform",     "multinomial", "poisson",
      "exponential", "geometric",   "cauchy",     "log_normal",
      "random",      "rrelu",       "rrelu_with_noise", "_fused_dropout",
      "_standard_gamma", "binomial"};
  return names;
}

// Dropouts: random when their `train` argument (positional 2) is not
// literally False.
const llvm::StringSet<> &dropoutAtenOps() {
  static const llvm::StringSet<> names = {
      "dropout", "native_dropout", "feature_dropout", "alpha_dropout",
      "feature_alpha_dropout"};
  return names;
}

bool isOutVariant(StringRef overload) {
  return overload == "out" || overload.ends_with("_out") ||
         overload.starts_with("out_");
}

/// `torch.aten.X` ATen ops by their schema naming conventions: a trailing
/// `_` (`add_`, `copy_`, `index_put_`, `detach_`) writes `self`;
/// `__iX__` dunders (`__iand__`) too; an `out` overload or an `out=`
/// keyword writes the tensors passed for it (keyword-only, so the trailing
/// operands).
void classifyAten(Operation *op, StringRef name, OpEffects &effects) {
  bool dunder = name.starts_with("__") && name.ends_with("__");
  if ((dunder && name.starts_with("__i")) ||
      (!dunder && name.ends_with("_"))) {
    if (op->getNumOperands() > 0)
      effects.mutated.push_back(0);
    else
      effects.unknown = true;
    return;
  }
  auto overload = op->getAttrOfType<StringAttr>("coreai.overload");
  bool present = false;
  std::optional<AtenArgs> args = atenArgsOf(op, &present);
  unsigned outTensors = 0;
  if (args)
    for (const auto &[key, value] : args->keywords)
      if (key == "out" || key == "values" || key == "indices")
        outTensors += llvm::count(StringRef(value), 'T');
  if (overload && isOutVariant(overload.getValue()) && outTensors == 0)
    outTensors = 1;
  if (outTensors > 0) {
    unsigned operands = op->getNumOperands();
    for (unsigned i = operands - std::min(outTensors, operands); i < operands;
         ++i)
      effects.mutated.push_back(i);
    if (effects.mutated.empty())
      effects.unknown = true;
    return;
  }
  if (name.starts_with("_assert") || name == "sym_constrain_range" ||
      name == "sym_constrain_range_for_size" ||
      name == "_functional_assert_async") {
    effects.asserts = true;
    return;
  }
  if (randomAtenOps().contains(name)) {
    effects.random = true;
    return;
  }
  if (dropoutAtenOps().contains(name)) {
    std::optional<StringRef> train = args ? args->keyword("train")
                                          : std::optional<StringRef>();
    if (!train && args && args->positional.size() > 2)
      train = StringRef(args->positional[2]);
    effects.random = !(train && *train == "False");
    return;
  }
  if (present && !args) {
    effects.unknown = true; // arguments we cannot read
    return;
  }
  if (!pureAtenOps().contains(name) || op->getNumResults() == 0)
    effects.unknown = true;
}

} // namespace

OpEffects effectsOf(Operation *op) {
  OpEffects effects;
  StringRef name = op->getName().getStringRef();
  if (name.consume_front("torch.aten.")) {
    classifyAten(op, name, effects);
    return effects;
  }
  if (!op->isRegistered())
    effects.unknown = true;
  else if (!isMemoryEffectFree(op))
    effects.declared = true;
  return effects;
}

} // namespace coreai
