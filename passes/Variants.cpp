//===- Variants.cpp - Which kernel variant each op runs -------------------===//
#include "Variants.h"

#include "Kernels.h"
#include "Printing.h"
#include "Workspace.h"

#include "coreai-plan/Dialect/CoreAI.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <algorithm>

using namespace mlir;

namespace coreai {
namespace {

/// Steps enumerate at most this many combinations of their ops' variants;
/// beyond, each op takes its least-workspace variant (a kernel of that many
/// ops with choices has not been seen).
constexpr size_t kMaxCombinations = 256;

/// An op of a step and the variants it may run (one when it has no choice).
struct OpChoices {
  Operation *op;
  const WorkspaceRule *rule;
  llvm::SmallVector<OpVariant, 2> variants;
};

/// One step of the body (an op, or a fused kernel) with workspace rules.
struct Step {
  unsigned first = 0, last = 0; ///< body positions
  std::vector<OpChoices> ops;
  int64_t alignment = 1;
};

/// A free range of bytes during a step: in the heap (`region` -1) or in
/// a lent output's storage (bin `region`).
struct Gap {
  int32_t region = -1;
  int64_t offset = 0, size = 0;
};

/// The steps of `func` whose ops have workspace rules, in body order.
FailureOr<std::vector<Step>> stepsWithRules(func::FuncOp func,
                                            const FunctionKernels &kernels,
                                            const WorkspaceRules &rules,
                                            int64_t alignment) {
  std::vector<Step> steps;
  unsigned position = 0;
  for (Operation &op : func.getBody().front()) {
    unsigned at = position++;
    const WorkspaceRule *rule = workspaceRuleOf(&op, rules);
    if (!rule)
      continue;
    FailureOr<llvm::SmallVector<OpVariant, 2>> variants =
        opVariants(&op, *rule, rules.splitK);
    if (failed(variants))
      return failure();
    unsigned first = kernels.stepStart(at);
    if (steps.empty() || steps.back().first != first)
      steps.push_back({first, kernels.stepEnd(at), {}, alignment});
    steps.back().ops.push_back({&op, rule, std::move(*variants)});
    steps.back().alignment =
        std::max(steps.back().alignment, rule->alignment);
  }
  return steps;
}

/// The free ranges of each region during [first, last + 1), the step's
/// own workspace `own` (if any) aside: the heap up to `heapLimit`, and
/// every lent output still free of its own value then.
std::vector<Gap> freeDuring(const FunctionBuffers &buffers, const Plan &plan,
                            const BinAssignment &binOf, unsigned first,
                            unsigned last, std::optional<size_t> own,
                            int64_t heapLimit) {
  Buffer step;
  step.start = first;
  step.end = last + 1;
  std::vector<std::pair<int32_t, int64_t>> regions{{-1, heapLimit}};
  for (size_t k = 0; k < buffers.bins.size(); ++k)
    if (step.end <= buffers.bins[k].availableUntil)
      regions.push_back({int32_t(k), buffers.bins[k].capacity});
  std::vector<Gap> gaps;
  for (auto [region, capacity] : regions) {
    std::vector<std::pair<int64_t, int64_t>> taken; // [begin, end)
    for (size_t b = 0; b < buffers.problem.buffers.size(); ++b) {
      const Buffer &buffer = buffers.problem.buffers[b];
      int32_t in = binOf.empty() ? -1 : binOf[b];
      if (b == own || in != region || buffer.size == 0 ||
          !buffer.overlapsInTime(step))
        continue;
      taken.push_back({plan.offsets[b], plan.offsets[b] + buffer.size});
    }
    llvm::sort(taken);
    int64_t at = 0;
    for (auto [begin, end] : taken) {
      if (begin > at)
        gaps.push_back({region, at, begin - at});
      at = std::max(at, end);
    }
    if (capacity > at)
      gaps.push_back({region, at, capacity - at});
  }
  return gaps;
}

/// The lowest-placed gap holding `bytes` at `alignment`: heap first.
std::optional<Gap> fitting(const std::vector<Gap> &gaps, int64_t bytes,
                           int64_t alignment) {
  for (const Gap &gap : gaps) {
    int64_t offset = alignTo(gap.offset, alignment);
    if (offset + bytes <= gap.offset + gap.size)
      return Gap{gap.region, offset, bytes};
  }
  return std::nullopt;
}

/// The variant index per op of `step` with the least total cost whose
/// workspace fits a gap (ties: fewer bytes), and where it goes. The
/// least-workspace combination always fits: the plan was packed with it.
std::pair<std::vector<size_t>, std::optional<Gap>>
cheapestFitting(const Step &step, const std::vector<Gap> &gaps) {
  size_t combinations = 1;
  for (const OpChoices &op : step.ops)
    combinations = std::min(kMaxCombinations + 1,
                            combinations * op.variants.size());
  std::vector<size_t> best;
  std::optional<Gap> bestGap;
  double bestCost = 0;
  int64_t bestBytes = 0;
  std::vector<size_t> pick(step.ops.size(), 0);
  for (size_t index = 0; index < std::min(combinations, kMaxCombinations);
       ++index) {
    size_t rest = index;
    double cost = 0;
    int64_t bytes = 0;
    for (size_t o = 0; o < step.ops.size(); ++o) {
      pick[o] = rest % step.ops[o].variants.size();
      rest /= step.ops[o].variants.size();
      cost += step.ops[o].variants[pick[o]].variant->cost;
      bytes += step.ops[o].variants[pick[o]].bytes;
    }
    std::optional<Gap> gap =
        bytes == 0 ? std::optional<Gap>(Gap{}) : fitting(gaps, bytes,
                                                         step.alignment);
    if (!gap || (!best.empty() && (cost > bestCost ||
                                   (cost == bestCost && bytes >= bestBytes))))
      continue;
    best = pick;
    bestGap = gap;
    bestCost = cost;
    bestBytes = bytes;
  }
  return {best, bestGap};
}

/// The step's workspace buffer: resized and moved to `gap`, or added.
void placeWorkspace(FunctionBuffers &buffers, Plan &plan, BinAssignment &binOf,
                    const Step &step, Operation *last, std::optional<size_t> own,
                    int64_t bytes, const Gap &gap) {
  if (!own) {
    Buffer buffer;
    buffer.id = "ws@" + std::to_string(step.last);
    buffer.start = step.first;
    buffer.end = step.last + 1;
    buffer.alignment = step.alignment;
    BufferOrigin origin;
    origin.value = buffer.id;
    origin.op = last->getName().getStringRef().str();
    origin.location = locationString(last->getLoc());
    own = buffers.problem.buffers.size();
    buffers.workspaces.push_back({*own, last});
    buffers.problem.buffers.push_back(std::move(buffer));
    buffers.origins.push_back(std::move(origin));
    buffers.values.emplace_back();
    buffers.owners.push_back(0);
    plan.offsets.push_back(0);
    if (!binOf.empty())
      binOf.push_back(-1);
  }
  buffers.problem.buffers[*own].size = bytes;
  plan.offsets[*own] = gap.offset;
  if (!binOf.empty())
    binOf[*own] = gap.region;
  if (gap.region < 0)
    plan.heap = std::max(plan.heap, gap.offset + bytes);
}

PlannedEntry::VariantChoice record(const OpChoices &op, size_t chosen) {
  PlannedEntry::VariantChoice choice;
  choice.op.op = op.op->getName().getStringRef().str();
  choice.op.location = locationString(op.op->getLoc());
  const OpVariant &picked = op.variants[chosen];
  const WorkspaceVariant &cheapest = op.rule->cheapest();
  choice.variant = picked.variant->name;
  choice.bytes = picked.bytes;
  choice.cost = picked.variant->cost;
  choice.cheapest = cheapest.name;
  choice.cheapestCost = cheapest.cost;
  for (const OpVariant &variant : op.variants)
    if (variant.variant == &cheapest)
      choice.cheapestBytes = variant.bytes;
  return choice;
}

/// Whether the op's variants need different workspace here: a choice the
/// plan must write down. (Where all need the same bytes, the op runs the
/// cheapest, which is what an op without `coreai.variant` runs.)
bool differInWorkspace(const OpChoices &op) {
  return llvm::any_of(op.variants, [&](const OpVariant &variant) {
    return variant.bytes != op.variants.front().bytes;
  });
}

/// The workspace buffer of the step whose last op is `last`, if any.
std::optional<size_t> workspaceOf(const FunctionBuffers &buffers,
                                  Operation *last) {
  for (const FunctionBuffers::Workspace &workspace : buffers.workspaces)
    if (workspace.op == last)
      return workspace.buffer;
  return std::nullopt;
}

} // namespace

LogicalResult nameCheapestVariants(func::FuncOp func,
                                   const WorkspaceRules &rules,
                                   bool cheapest) {
  WalkResult walk = func.walk([&](Operation *op) {
    op->removeAttr(attr::variant);
    const WorkspaceRule *rule = workspaceRuleOf(op, rules);
    if (!cheapest || !rule || rule->variants.size() < 2)
      return WalkResult::advance();
    FailureOr<llvm::SmallVector<OpVariant, 2>> variants =
        opVariants(op, *rule, rules.splitK);
    if (failed(variants))
      return WalkResult::interrupt();
    if (differInWorkspace({op, rule, std::move(*variants)}))
      op->setAttr(attr::variant, StringAttr::get(func.getContext(),
                                                 rule->cheapest().name));
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

bool hasVariantChoices(func::FuncOp func, const WorkspaceRules &rules) {
  bool found = false;
  func.walk([&](Operation *op) {
    if (const WorkspaceRule *rule = workspaceRuleOf(op, rules))
      found |= rule->variants.size() > 1;
  });
  return found;
}

FailureOr<std::vector<PlannedEntry::VariantChoice>>
chooseVariants(func::FuncOp func, FunctionBuffers &buffers, Plan &plan,
               BinAssignment &binOf, const LivenessOptions &options,
               int64_t heapLimit) {
  std::vector<PlannedEntry::VariantChoice> choices;
  if (!options.workspace || !options.workspaceRules)
    return choices;
  FailureOr<FunctionKernels> kernels = readKernels(func);
  if (failed(kernels))
    return failure();
  FailureOr<std::vector<Step>> steps = stepsWithRules(
      func, *kernels, *options.workspaceRules, options.alignment);
  if (failed(steps))
    return failure();
  std::vector<Operation *> body;
  for (Operation &op : func.getBody().front())
    body.push_back(&op);
  for (const Step &step : *steps) {
    if (llvm::none_of(step.ops, differInWorkspace))
      continue;
    Operation *last = body[step.last];
    std::optional<size_t> own = workspaceOf(buffers, last);
    std::vector<Gap> gaps = freeDuring(buffers, plan, binOf, step.first,
                                       step.last, own,
                                       std::max(heapLimit, plan.heap));
    auto [picked, gap] = cheapestFitting(step, gaps);
    if (picked.empty())
      return func.emitError("internal error: no variant of the kernel at ")
             << locationString(last->getLoc())
             << " fits the bytes its least-workspace plan left";
    int64_t bytes = 0;
    for (size_t o = 0; o < step.ops.size(); ++o) {
      const OpChoices &op = step.ops[o];
      bytes += op.variants[picked[o]].bytes;
      if (!differInWorkspace(op))
        continue; // the least-workspace rule picks the cheapest anyway
      op.op->setAttr(attr::variant,
                     StringAttr::get(func.getContext(),
                                     op.variants[picked[o]].variant->name));
      choices.push_back(record(op, picked[o]));
    }
    if (bytes > 0 && (!own || buffers.problem.buffers[*own].size != bytes ||
                      plan.offsets[*own] != gap->offset))
      placeWorkspace(buffers, plan, binOf, step, last, own, bytes, *gap);
  }
  // The bound of the problem the chosen kernels make: a heap a budget let
  // grow for faster kernels is judged against what they need.
  plan.lowerBound = std::max(
      plan.lowerBound, borrowingLowerBound(buffers.problem, buffers.bins));
  return choices;
}

} // namespace coreai
