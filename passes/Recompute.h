//===- Recompute.h - Cheap chains computed again at each reader -*- C++ -*-===//
//
// A value that a short chain of cheap ops computes from the function's
// arguments alone (a causal or sliding-window mask from cache_position, an
// iota, a fill) and that every layer reads is stored once and kept live
// across the whole function. A fusing compiler computes it inside each
// consumer's kernel instead. Where the target allows it (its "recompute"
// rules: which fusion roles, how many ops), the chain is cloned in front of
// each reader, whose kernel may then take it in (docs/FUSION.md,
// "Recompute"): the value no longer lives across the function. The clones
// carry `coreai.recompute = N` (N the chain), so the planned IR says what
// the runtime computes again; the dataflow check matches each clone with
// the op of the original it repeats.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PASSES_RECOMPUTE_H
#define COREAI_PLAN_PASSES_RECOMPUTE_H

#include "coreai-plan/Entry.h"
#include "coreai-plan/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/SmallBitVector.h"

namespace coreai {

/// The groups of chains `func` could recompute: the chains that compute
/// the same (the same ops in order, one type: each layer's view of one
/// RoPE table, a mask read by every layer), numbered in body order. 0
/// where nothing may be recomputed.
unsigned recomputeGroups(mlir::func::FuncOp func, const RecomputeRules &rules);

/// Clones, in front of each reader, every chain the rules allow whose value
/// two or more ops read and no longer chain extends (those of the groups in
/// `only`, when given); marks the clones, rewires the readers and erases
/// the original ops nothing reads any more. Nothing happens in a function
/// with an op that writes into an operand (a value must be one content for
/// a clone to repeat it). Returns the chains cloned.
int64_t recomputeChains(mlir::func::FuncOp func, const RecomputeRules &rules,
                        const llvm::SmallBitVector *only = nullptr);

/// Whether `op` is a recomputed outer product or concat (a clone carrying
/// `coreai.recompute`): a kernel that computes it again computes each
/// element from its indices (inv_freq[i] * position[j], the concatenated
/// source's element), so fusion takes it into its reader's kernel as a
/// pointwise op. The op computed once, as the graph has it, keeps its own
/// role (a matrix product, a copy).
bool isPointwiseWhenRecomputed(mlir::Operation *op);

/// What the clones of `func` (`coreai.recompute`) compute again: chains,
/// ops, and the elements their results hold (views count none).
PlannedEntry::Recomputed recomputedIn(mlir::func::FuncOp func);

} // namespace coreai

#endif // COREAI_PLAN_PASSES_RECOMPUTE_H
