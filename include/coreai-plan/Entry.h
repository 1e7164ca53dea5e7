//===- Entry.h - One planned entry point at one chunk size -----*- C++ -*-===//
//
// What the manifest, the tables and the pictures need to know about a plan,
// without any MLIR: the buffer problem, where each buffer came from in the
// graph, and the verified plan.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_ENTRY_H
#define COREAI_PLAN_ENTRY_H

#include "coreai-plan/OutputBins.h"
#include "coreai-plan/Problem.h"

#include <algorithm>
#include <string>
#include <vector>

namespace coreai {

/// Where a buffer comes from in the source graph.
struct BufferOrigin {
  /// The SSA name of the root value as printed (`%30`, `%52#1`), or for
  /// memref.alloc the allocation's result name.
  std::string value;
  /// The producing op's name (`torch.aten.mm`, `tosa.matmul`).
  std::string op;
  /// The op's source location as `file:line:col`, or a printed Location.
  std::string location;
  /// Values that are views of this buffer (reported, not planned).
  int64_t viewCount = 0;
};

/// One function planned at one chunk size S.
struct PlannedEntry {
  std::string entry;  ///< function symbol name, without '@'
  int64_t chunk = 0;  ///< sequence length S (0 if the graph has none)
  BufferProblem problem;
  std::vector<BufferOrigin> origins; ///< parallel to problem.buffers
  Plan plan;                         ///< verified
  int64_t alignment = 1;
  /// Bytes in-place reuse saved against planning without it (0 when off).
  int64_t inPlaceSavedBytes = 0;
  /// Outputs whose storage the plan may borrow, and which region holds
  /// each buffer (empty: every buffer is in the heap). plan.offsets are
  /// relative to each buffer's region.
  std::vector<OutputBin> outputBins;
  BinAssignment binOf;
  /// Values that live at offset 0 of storage the runtime binds: an
  /// in-place chain built in output `index`, or a state update written
  /// into state argument `index`. Not in the heap problem. `start` is the
  /// op position that writes the value, `end` the op that writes the next
  /// value of its chain over it, else one past the function's last op (no
  /// two values of one storage are live at once); both 0 in manifests that
  /// predate them.
  struct Placed {
    BufferOrigin origin;
    int64_t size = 0;
    bool inState = false;
    int64_t index = 0;
    int64_t start = 0;
    int64_t end = 0;
  };
  std::vector<Placed> placed;
  /// The fused kernels (docs/FUSION.md): where they came from ("input",
  /// "target"; empty: none) and, per kernel of two or more ops, its ops
  /// and the values that stay inside it (no bytes in the plan).
  struct Kernel {
    int64_t id = 0;
    int64_t ops = 0;
    std::string firstOp, lastOp; ///< op names, for tables
    std::string location;        ///< of its last op
    std::vector<BufferOrigin> fused;
    /// Parallel to `fused`: the bytes each value would take if planned.
    std::vector<int64_t> fusedSizes;
    int64_t fusedBytes = 0; ///< the sum of fusedSizes
    /// Buffers of the plan (indices into problem.buffers) its ops write.
    std::vector<int64_t> writes;
  };
  std::string kernelSource;
  std::vector<Kernel> kernels;
  int64_t fusedBytes() const {
    int64_t bytes = 0;
    for (const Kernel &kernel : kernels)
      bytes += kernel.fusedBytes;
    return bytes;
  }
  /// Values kept inside kernels, over all of them.
  int64_t fusedValues() const {
    int64_t count = 0;
    for (const Kernel &kernel : kernels)
      count += int64_t(kernel.fused.size());
    return count;
  }

  /// The kernels' workspaces (docs/WORKSPACE.md): indices into
  /// problem.buffers, ascending, of buffers that hold no value but the
  /// scratch of the op `origins[b]` names, live only while it runs.
  std::vector<int64_t> workspaces;
  bool isWorkspace(size_t b) const {
    return std::binary_search(workspaces.begin(), workspaces.end(),
                              int64_t(b));
  }
  /// Bytes of every workspace of the entry (wherever each is placed).
  int64_t workspaceBytes() const {
    int64_t bytes = 0;
    for (int64_t b : workspaces)
      bytes += problem.buffers[b].size;
    return bytes;
  }

  /// The kernel variant each op with several runs (docs/WORKSPACE.md,
  /// "Kernel variants"), in body order: the chosen one, and the target's
  /// cheapest, with the workspace each needs there and their costs (the
  /// target's model).
  struct VariantChoice {
    BufferOrigin op; ///< `value` empty: the op, its location
    std::string variant, cheapest;
    int64_t bytes = 0, cheapestBytes = 0;
    double cost = 1, cheapestCost = 1;
    bool downgraded() const { return variant != cheapest; }
  };
  std::vector<VariantChoice> variants;
  /// Ops run slower than their cheapest variant, the workspace that saved
  /// at their steps, and the extra cost (the target's model), summed.
  struct Downgrades {
    int64_t ops = 0, savedBytes = 0;
    double extraCost = 0;
  };
  Downgrades downgrades() const {
    Downgrades total;
    for (const VariantChoice &choice : variants)
      if (choice.downgraded()) {
        ++total.ops;
        total.savedBytes += choice.cheapestBytes - choice.bytes;
        total.extraCost += choice.cost - choice.cheapestCost;
      }
    return total;
  }

  /// What the plan computes again instead of keeping (docs/FUSION.md,
  /// "Recompute"): chains cloned in front of their readers, the ops cloned,
  /// and the elements the clones' results hold (extra work, in those
  /// terms).
  struct Recomputed {
    int64_t chains = 0, ops = 0, elements = 0;
  };
  Recomputed recomputed;

  /// Results the target's kernels write in another dtype than the graph
  /// says (docs/WORKSPACE.md, "Result dtypes"), sized by the kernel's:
  /// per op name and pair of dtypes, in order of first appearance.
  struct KernelDtype {
    std::string op; ///< `torch.aten.native_layer_norm`
    std::string graphDtype, kernelDtype; ///< `f16`, `f32`
    int64_t results = 0;
    /// The kernel's bytes less the graph type's, over those results.
    int64_t extraBytes = 0;
  };
  std::vector<KernelDtype> kernelDtypes;

  /// -1 when buffer b is in the heap, else the output whose storage holds it.
  int64_t borrowedOutput(size_t b) const {
    return binOf.empty() || binOf[b] < 0 ? -1 : outputBins[binOf[b]].output;
  }
};

} // namespace coreai

#endif // COREAI_PLAN_ENTRY_H
