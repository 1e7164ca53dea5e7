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

/// The search of one step's variants keeps at most this many partial
/// choices (each the least cost for its bytes); past it, the ops not yet
/// decided take their least-workspace variants, which always fit. Steps of
/// one op, or of ops with equal rules, keep a handful.
constexpr size_t kMaxPartialChoices = 4096;

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

/// The most bytes one workspace may take during the step: the largest gap
/// at the step's alignment, and no more than the target's largest buffer
/// (`maxBuffer`, 0: unlimited).
int64_t roomDuring(const std::vector<Gap> &gaps, int64_t alignment,
                   int64_t maxBuffer) {
  int64_t room = 0;
  for (const Gap &gap : gaps)
    room = std::max(room, gap.offset + gap.size - alignTo(gap.offset, alignment));
  return maxBuffer > 0 ? std::min(room, maxBuffer) : room;
}

/// The index of the op's least-workspace variant (the cheapest among
/// equals): what liveness sized the op's step with before the choice.
size_t leastWorkspace(const OpChoices &op) {
  size_t least = 0;
  for (size_t v = 1; v < op.variants.size(); ++v) {
    const OpVariant &variant = op.variants[v];
    const OpVariant &best = op.variants[least];
    if (variant.bytes < best.bytes ||
        (variant.bytes == best.bytes &&
         variant.variant->cost < best.variant->cost))
      least = v;
  }
  return least;
}

/// The variants picked for a step's first ops, with their total cost and
/// bytes.
struct PartialChoice {
  double cost = 0;
  int64_t bytes = 0;
  std::vector<size_t> pick;
};

/// The variant index per op of `step` with the least total cost whose
/// workspace, all ops together, takes at most `room` bytes (ties: fewer
/// bytes). Exact: costs and bytes add up over the ops, so the search
/// extends, op by op, only the partial choices no other beats in both
/// cost and bytes and that still fit with the least workspace of the ops
/// after them. Bounded: past kMaxPartialChoices, the ops left take their
/// least-workspace variants. Empty when even the least workspace of every
/// op is above `room`.
std::vector<size_t> cheapestWithin(const Step &step, int64_t room) {
  size_t count = step.ops.size();
  std::vector<int64_t> leastAfter(count + 1, 0); // least bytes of ops o..
  for (size_t o = count; o-- > 0;)
    leastAfter[o] = leastAfter[o + 1] +
                    step.ops[o].variants[leastWorkspace(step.ops[o])].bytes;
  if (leastAfter[0] > room)
    return {};
  std::vector<PartialChoice> front(1);
  size_t decided = 0;
  for (; decided < count; ++decided) {
    const OpChoices &op = step.ops[decided];
    if (front.size() * op.variants.size() > kMaxPartialChoices)
      break;
    std::vector<PartialChoice> next;
    for (const PartialChoice &partial : front)
      for (size_t v = 0; v < op.variants.size(); ++v) {
        int64_t bytes = partial.bytes + op.variants[v].bytes;
        if (bytes + leastAfter[decided + 1] > room)
          continue;
        PartialChoice extended = partial;
        extended.cost += op.variants[v].variant->cost;
        extended.bytes = bytes;
        extended.pick.push_back(v);
        next.push_back(std::move(extended));
      }
    // Fewest bytes first; a choice is kept only where it costs less than
    // every choice with fewer (or as few) bytes.
    llvm::stable_sort(next, [](const PartialChoice &a, const PartialChoice &b) {
      return a.bytes != b.bytes ? a.bytes < b.bytes : a.cost < b.cost;
    });
    front.clear();
    for (PartialChoice &partial : next)
      if (front.empty() || partial.cost < front.back().cost)
        front.push_back(std::move(partial));
  }
  // Kept choices cost less the more bytes they take: the last is the
  // cheapest, with the fewest bytes among the cheapest.
  std::vector<size_t> best = std::move(front.back().pick);
  for (size_t o = decided; o < count; ++o)
    best.push_back(leastWorkspace(step.ops[o]));
  return best;
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

LogicalResult nameLeastWorkspaceVariants(func::FuncOp func,
                                        const WorkspaceRules &rules) {
  for (Operation &op : func.getBody().front()) {
    const WorkspaceRule *rule = workspaceRuleOf(&op, rules);
    if (!rule || rule->variants.size() < 2 || op.hasAttr(attr::variant))
      continue;
    FailureOr<llvm::SmallVector<OpVariant, 2>> variants =
        opVariants(&op, *rule, rules.splitK);
    if (failed(variants))
      return failure();
    OpChoices choices{&op, rule, std::move(*variants)};
    if (differInWorkspace(choices))
      op.setAttr(attr::variant,
                 StringAttr::get(func.getContext(),
                                 choices.variants[leastWorkspace(choices)]
                                     .variant->name));
  }
  return success();
}

std::vector<PlannedEntry::VariantChoice>
namedVariants(func::FuncOp func, const WorkspaceRules &rules) {
  std::vector<PlannedEntry::VariantChoice> named;
  ScopedDiagnosticHandler quiet(func.getContext(),
                                [](Diagnostic &) { return success(); });
  for (Operation &op : func.getBody().front()) {
    auto name = op.getAttrOfType<StringAttr>(attr::variant);
    const WorkspaceRule *rule = workspaceRuleOf(&op, rules);
    if (!name || !rule || rule->variants.size() < 2)
      continue;
    FailureOr<llvm::SmallVector<OpVariant, 2>> variants =
        opVariants(&op, *rule, rules.splitK);
    if (failed(variants))
      continue;
    OpChoices choices{&op, rule, std::move(*variants)};
    if (!differInWorkspace(choices))
      continue;
    for (size_t v = 0; v < choices.variants.size(); ++v)
      if (choices.variants[v].variant->name == name.getValue())
        named.push_back(record(choices, v));
  }
  return named;
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
               int64_t heapLimit, int64_t maxBuffer) {
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
    std::vector<size_t> picked = cheapestWithin(
        step, roomDuring(gaps, step.alignment, maxBuffer));
    bool asPacked = picked.empty();
    if (asPacked) // the least workspace, where the plan packed it
      for (const OpChoices &op : step.ops)
        picked.push_back(leastWorkspace(op));
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
    if (asPacked) {
      // No room beside the packed plan (a plan packed with other variants
      // named, or a workspace above the largest buffer): the least
      // workspace stays where the packing put that step's, which holds it.
      if (own && buffers.problem.buffers[*own].size >= bytes) {
        if (bytes > 0)
          buffers.problem.buffers[*own].size = bytes;
        continue;
      }
      if (bytes > 0)
        return func.emitError("internal error: the least-workspace "
                              "variants of the kernel at ")
               << locationString(last->getLoc())
               << " need " << bytes << " bytes the plan did not pack";
      continue;
    }
    std::optional<Gap> gap =
        bytes == 0 ? std::optional<Gap>(Gap{})
                   : fitting(gaps, bytes, step.alignment);
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
