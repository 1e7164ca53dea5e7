//===- AtenOps.cpp - What the importer knows about each ATen op -----------===//
//
// Alias facts come from the ATen schemas (native_functions.yaml): an op
// whose return is annotated `Tensor(a)` like its `self` is a view; a name
// ending in one `_` mutates `self`; `.out` overloads write their `out=`
// argument. The functional list is what the importer has seen or what core
// ATen contains; anything else is refused rather than guessed.
//
//===----------------------------------------------------------------------===//
#include "AtenOps.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

namespace coreai::import {
namespace {

const llvm::StringSet<> &viewOps() {
  static const llvm::StringSet<> names = {
      "view",        "alias",        "permute",      "expand",
      "expand_as",   "unsqueeze",    "squeeze",      "slice",
      "select",      "t",            "transpose",    "narrow",
      "diagonal",    "as_strided",   "detach",       "unfold",
      "split",       "split_with_sizes", "chunk",    "tensor_split",
      "unbind",      "view_as",      "view_as_real", "view_as_complex",
      "movedim",     "moveaxis",     "swapaxes",     "swapdims",
      "unflatten",   "_unsafe_view", "lift_fresh",   "_reshape_alias",
      "numpy_T",     "mT",           "mH",           "adjoint",
      "real",        "imag"};
  return names;
}

const llvm::StringSet<> &mayAliasOps() {
  static const llvm::StringSet<> names = {
      "to", "type_as", "reshape", "reshape_as", "flatten", "contiguous"};
  return names;
}

const llvm::StringSet<> &checkOps() {
  static const llvm::StringSet<> names = {
      "_assert_tensor_metadata", "_assert_async", "_assert_scalar",
      "sym_constrain_range", "sym_constrain_range_for_size",
      "_functional_assert_async"};
  return names;
}

const llvm::StringSet<> &functionalOps() {
  static const llvm::StringSet<> names = {
      "abs", "acos", "acosh", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
      "_adaptive_avg_pool2d", "add", "addmm", "addmv", "addbmm", "baddbmm",
      "all", "amax", "amin", "any", "arange", "argmax", "argmin", "asin",
      "asinh", "atan", "atan2", "atanh", "avg_pool1d", "avg_pool2d",
      "avg_pool3d", "batch_norm", "_native_batch_norm_legit",
      "_native_batch_norm_legit_no_training", "native_batch_norm",
      "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "__and__",
      "__or__", "__xor__", "__lshift__", "__rshift__", "bmm", "cat",
      "ceil", "clamp", "clamp_max", "clamp_min", "clone", "constant_pad_nd",
      "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
      "convolution", "copy", "cos", "cosh", "cumprod", "cumsum", "div",
      "dropout", "native_dropout", "einsum", "elu", "embedding", "empty",
      "empty_like", "empty_strided", "eq", "erf", "exp", "expm1", "fill",
      "flip", "floor", "floor_divide", "fmod", "full", "full_like",
      "gather", "ge", "gelu", "glu", "group_norm", "native_group_norm",
      "gt", "hardsigmoid", "hardswish", "hardtanh", "index", "index_add",
      "index_copy", "index_fill", "index_put", "index_select",
      "_unsafe_index", "_unsafe_index_put", "isinf", "isnan", "layer_norm",
      "native_layer_norm", "le", "leaky_relu", "lerp", "lift_fresh_copy",
      "linear", "linalg_vector_norm", "log", "log10", "log1p", "log2",
      "log_softmax", "_log_softmax", "logical_and", "logical_not",
      "logical_or", "logical_xor", "logsumexp", "lt", "masked_fill",
      "masked_scatter", "matmul", "max", "max_pool2d",
      "max_pool2d_with_indices", "maximum", "mean", "min", "minimum", "mm",
      "mul", "ne", "neg", "new_empty", "new_full", "new_ones", "new_zeros",
      "norm", "ones", "ones_like", "pad", "pixel_shuffle", "pow", "prod",
      "reciprocal", "reflection_pad1d", "reflection_pad2d", "relu",
      "remainder", "repeat", "repeat_interleave", "replication_pad2d",
      "rms_norm", "roll", "round", "rsqrt", "rsub", "scalar_tensor",
      "scaled_dot_product_attention", "scatter", "scatter_add",
      "scatter_reduce", "select_scatter", "slice_scatter",
      "diagonal_scatter", "as_strided_scatter", "sigmoid", "sign", "silu",
      "sin", "sinh", "softmax", "_softmax", "_safe_softmax", "softplus",
      "sort", "sqrt", "square", "std", "sub", "sum", "tan", "tanh", "tile",
      "topk", "tril", "triu", "trunc", "upsample_bilinear2d",
      "upsample_nearest2d", "var", "var_mean", "where", "zeros",
      "zeros_like", "_to_copy", "one_hot", "outer", "mish", "erfinv",
      "exponential", "uniform", "normal", "bernoulli", "zero"};
  return names;
}

} // namespace

std::optional<AtenOp> classifyAtenOp(llvm::StringRef name,
                                     llvm::StringRef overload) {
  // `add.out(self, other, *, out)` writes `out`, not a fresh result.
  if (overload == "out" || overload.ends_with("_out"))
    return std::nullopt;
  if (viewOps().contains(name))
    return AtenOp{OpRole::View, {}};
  if (mayAliasOps().contains(name))
    return AtenOp{OpRole::MayAlias, {}};
  if (checkOps().contains(name))
    return AtenOp{OpRole::Check, {}};
  if (functionalOps().contains(name))
    return AtenOp{OpRole::Functional, {}};
  if (name == "detach_")
    return AtenOp{OpRole::DetachInPlace, {}};
  // `add_`, `index_copy_`, but not dunder names like `__and__`.
  if (name.size() > 1 && name.ends_with("_") && !name.ends_with("__")) {
    llvm::StringRef base = name.drop_back();
    if (functionalOps().contains(base))
      return AtenOp{OpRole::InPlace, base.str()};
  }
  return std::nullopt;
}

bool isLayoutKeepingView(llvm::StringRef name) {
  static const llvm::StringSet<> names = {
      "view",     "alias",   "unsqueeze", "squeeze",    "detach",
      "_unsafe_view", "lift_fresh", "reshape", "reshape_as", "flatten",
      "unflatten", "view_as", "contiguous", "to",        "type_as"};
  return names.contains(name);
}

/// Whether a tensor of `sizes` and `strides` can be viewed with
/// `newSizes` without a copy: torch's rule for `reshape` (ATen's
/// `computeStride`). Runs of old dims that are contiguous with each other
/// must be split into new dims of the same element count.
bool viewStridesExist(llvm::ArrayRef<int64_t> sizes,
                      llvm::ArrayRef<int64_t> strides,
                      llvm::ArrayRef<int64_t> newSizes) {
  int64_t elements = 1;
  for (int64_t size : sizes)
    if (size < 0 || llvm::MulOverflow(elements, size, elements))
      return false;
  for (int64_t size : newSizes)
    if (size < 0)
      return false;
  if (elements == 0 || sizes.empty())
    return true;
  int64_t viewDim = int64_t(newSizes.size()) - 1;
  int64_t chunkBaseStride = strides.back();
  int64_t tensorElements = 1, viewElements = 1;
  for (int64_t dim = int64_t(sizes.size()) - 1; dim >= 0; --dim) {
    tensorElements *= sizes[dim]; // at most `elements`: no overflow
    int64_t chunkStride;
    if (llvm::MulOverflow(tensorElements, chunkBaseStride, chunkStride))
      return false;
    bool chunkEnds = dim == 0 ||
                     (sizes[dim - 1] != 1 && strides[dim - 1] != chunkStride);
    if (!chunkEnds)
      continue;
    while (viewDim >= 0 &&
           (viewElements < tensorElements || newSizes[viewDim] == 1)) {
      if (llvm::MulOverflow(viewElements, newSizes[viewDim], viewElements))
        return false;
      --viewDim;
    }
    if (viewElements != tensorElements)
      return false;
    if (dim > 0) {
      chunkBaseStride = strides[dim - 1];
      tensorElements = 1;
      viewElements = 1;
    }
  }
  return viewDim == -1;
}

} // namespace coreai::import
