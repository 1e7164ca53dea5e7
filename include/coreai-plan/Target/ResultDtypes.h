//===- ResultDtypes.h - The dtypes a target's kernels write -----*- C++ -*-===//
//
// A graph exported on one device states each result's dtype as that
// device's kernel wrote it; another runtime's kernel may write another.
// CUDA's layer norm writes its mean and rstd in float32 where a CPU export
// says float16. A target lists where its kernels differ
// (`"result_dtypes"` in targets/*.json, docs/WORKSPACE.md "Result
// dtypes"); the planner sizes those results by the kernel's dtype and the
// replay checks the plan against the same list. No MLIR: the passes look
// a result up by op name, overload, result index and the graph's dtype.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TARGET_RESULTDTYPES_H
#define COREAI_PLAN_TARGET_RESULTDTYPES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm::json {
class Value;
} // namespace llvm::json

namespace coreai {

/// The element dtypes a rule may name, as MLIR spells them (f16, bf16,
/// f32, f64, i8, i16, i32, i64).
llvm::ArrayRef<llvm::StringLiteral> knownResultDtypes();

/// Bits of one element of a dtype of knownResultDtypes(), 0 for another.
int64_t resultDtypeBits(llvm::StringRef dtype);

/// One rule: results `results` of the ATen op `op` (`aten.NAME`, any
/// overload, or `aten.NAME.OVERLOAD`) are written by the target's kernel
/// as `dtype`, wherever the graph types them as one of `graphDtypes`
/// (empty: whatever the graph says).
struct ResultDtypeRule {
  std::string op;
  std::vector<int64_t> results;
  std::string dtype;
  std::vector<std::string> graphDtypes;
  std::string doc;
};

struct ResultDtypeRules {
  std::vector<ResultDtypeRule> rules;

  bool empty() const { return rules.empty(); }
  /// The dtype the target's kernel writes result `index` of ATen op
  /// `name` (`aten.native_layer_norm`) with `overload` (`default`) in,
  /// where the graph says `graphDtype`: the first rule naming the op and
  /// the result whose graph dtypes hold `graphDtype`; none when no rule
  /// applies or it names the graph's own dtype.
  std::optional<llvm::StringRef> kernelDtype(llvm::StringRef name,
                                             llvm::StringRef overload,
                                             int64_t index,
                                             llvm::StringRef graphDtype) const;
};

/// Reads the `"result_dtypes"` list of a target description (absent:
/// none). Errors name `source`, the rule and the field
/// (`t.json: result_dtypes[0].dtype: ...`).
llvm::Error parseResultDtypeRules(const llvm::json::Value &target,
                                  ResultDtypeRules &rules,
                                  llvm::StringRef source);

} // namespace coreai

#endif // COREAI_PLAN_TARGET_RESULTDTYPES_H
