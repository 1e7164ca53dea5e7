//===- Fusion.cpp - Kernels from the target's fusion rules ----------------===//
//
// Greedy producer-into-consumer grouping of a function's top-level ops, as
// a fusing runtime (or Inductor's scheduler) does: a consumer's kernel
// takes in the op that produces one of its operands when that value has no
// reader outside the kernel (so it need never be stored) and the target's
// rules allow the pair. Attention is found first, as a pattern: a
// softmax between two matrix products. The rules are in docs/FUSION.md.
//
//===----------------------------------------------------------------------===//
#include "Effects.h"
#include "Kernels.h"
#include "OpClasses.h"
#include "Recompute.h"

#include "coreai-plan/Dialect/CoreAI.h"
#include "coreai-plan/Passes/Fusion.h"
#include "coreai-plan/Passes/Reorder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace coreai {

llvm::StringRef kernelSourceName(KernelSource source) {
  switch (source) {
  case KernelSource::Input:
    return "input";
  case KernelSource::Target:
    return "target";
  case KernelSource::None:
    break;
  }
  return "none";
}

bool fusesAnything(const LivenessOptions &options) {
  return options.fuseElementwise || options.fuseReductions ||
         options.fuseCasts || options.fuseAttention;
}

namespace {

/// What a group of ops amounts to, for the rules.
enum class KernelKind { Pointwise, Cast, Reduction, Matmul, Attention };

/// A kernel is kept compact: a producer further than this many ops before
/// its consumer's kernel is not pulled in (it would keep the producer's
/// operands alive across everything in between).
constexpr unsigned maxKernelSpan = 256;

bool computes(FusionRole role) {
  return role != FusionRole::None && role != FusionRole::View &&
         role != FusionRole::MetadataCheck;
}

class KernelFormer {
public:
  KernelFormer(func::FuncOp func, const LivenessOptions &options)
      : options(options) {
    for (Operation &op : func.getBody().front()) {
      position[&op] = ops.size();
      ops.push_back(&op);
      roles.push_back(isPointwiseWhenRecomputed(&op) ? FusionRole::Elementwise
                                                     : fusionRoleOf(&op));
      setOf.push_back(ops.size() - 1);
      sets.push_back(Set{{unsigned(ops.size() - 1)}, false});
    }
  }

  /// Groups the ops; returns the kernels (two or more computing ops each),
  /// each as its op positions in body order.
  std::vector<std::vector<unsigned>> run();

private:
  struct Set {
    std::vector<unsigned> members;
    bool attention = false;
  };
  struct Producer {
    unsigned op;                   ///< position of the producing op
    std::vector<unsigned> views;   ///< view ops between it and the reader
  };

  std::optional<unsigned> topLevelPosition(Operation *op) const {
    for (; op; op = op->getParentOp())
      if (auto it = position.find(op); it != position.end())
        return it->second;
    return std::nullopt;
  }
  KernelKind kindOf(unsigned set) const;
  bool narrows(unsigned set) const;
  bool allowed(unsigned producer, unsigned consumer) const;
  std::optional<Producer> producerOf(Value value) const;
  bool tryMerge(unsigned consumerSet, const Producer &producer);
  int64_t bytesReadFromOutside(unsigned set) const;
  bool worthMerging(unsigned from, unsigned consumer, unsigned producerOp) const;
  bool mergeIfConvex(unsigned into, llvm::ArrayRef<unsigned> extra);
  void absorbProducers(unsigned set);
  void seedAttention(unsigned softmax);
  std::optional<unsigned> matmulBefore(Value value, unsigned depth,
                                       std::vector<unsigned> &path) const;
  std::optional<unsigned> matmulAfter(Value value, unsigned depth,
                                      std::vector<unsigned> &path) const;

  const LivenessOptions &options;
  std::vector<Operation *> ops;
  std::vector<FusionRole> roles;
  llvm::DenseMap<Operation *, unsigned> position;
  std::vector<unsigned> setOf;
  std::vector<Set> sets;
};

KernelKind KernelFormer::kindOf(unsigned set) const {
  if (sets[set].attention)
    return KernelKind::Attention;
  bool castsOnly = true, reduces = false;
  for (unsigned member : sets[set].members) {
    switch (roles[member]) {
    case FusionRole::Matmul:
    case FusionRole::Attention:
      return KernelKind::Matmul; // a library kernel: takes casts only
    case FusionRole::Reduction:
    case FusionRole::Normalisation:
      reduces = true;
      castsOnly = false;
      break;
    case FusionRole::Elementwise:
    case FusionRole::Fill:
      castsOnly = false;
      break;
    default:
      break;
    }
  }
  if (reduces)
    return KernelKind::Reduction;
  return castsOnly ? KernelKind::Cast : KernelKind::Pointwise;
}

/// Whether a cast of the set writes fewer bytes than it reads.
bool KernelFormer::narrows(unsigned set) const {
  return llvm::any_of(sets[set].members, [&](unsigned member) {
    Operation *op = ops[member];
    if ((roles[member] != FusionRole::Cast &&
         roles[member] != FusionRole::LayoutCopy) ||
        op->getNumOperands() == 0)
      return false;
    std::optional<int64_t> in = bytesOf(op->getOperand(0).getType());
    std::optional<int64_t> out = bytesOf(op->getResult(0).getType());
    return in && out && *out < *in;
  });
}

/// The rules: which producer kernel may become part of which consumer's.
bool KernelFormer::allowed(unsigned producer, unsigned consumer) const {
  KernelKind from = kindOf(producer), to = kindOf(consumer);
  bool pointwiseTo = to == KernelKind::Pointwise || to == KernelKind::Cast;
  switch (from) {
  case KernelKind::Cast:
    // A widening cast or a layout copy is read converted by any consumer;
    // a narrowing one is better written narrow by its producer's kernel.
    if (options.fuseCasts && !narrows(producer))
      return true;
    [[fallthrough]];
  case KernelKind::Pointwise:
    return (pointwiseTo && options.fuseElementwise) ||
           (to == KernelKind::Reduction && options.fuseReductions) ||
           (to == KernelKind::Attention && options.fuseAttention);
  case KernelKind::Reduction:
    return (pointwiseTo && options.fuseReductions) ||
           (to == KernelKind::Reduction && options.fuseReductions) ||
           (to == KernelKind::Attention && options.fuseAttention);
  case KernelKind::Matmul:
  case KernelKind::Attention:
    return false; // library products write their results
  }
  return false;
}

/// The top-level op whose fresh result `value` is, seen through views of
/// the body (whose ops come along), when that op may be fused at all.
std::optional<KernelFormer::Producer>
KernelFormer::producerOf(Value value) const {
  Producer producer;
  while (true) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return std::nullopt; // an argument
    auto at = position.find(def);
    if (at == position.end())
      return std::nullopt;
    if (roles[at->second] != FusionRole::View) {
      if (!computes(roles[at->second]))
        return std::nullopt;
      FailureOr<ResultClass> cls =
          classifyResult(def, cast<OpResult>(value).getResultNumber());
      if (failed(cls) || cls->kind != ResultKind::Buffer)
        return std::nullopt;
      producer.op = at->second;
      return producer;
    }
    FailureOr<ResultClass> cls =
        classifyResult(def, cast<OpResult>(value).getResultNumber());
    if (failed(cls) || cls->kind != ResultKind::View)
      return std::nullopt;
    producer.views.push_back(at->second);
    value = cls->source;
  }
}

/// Moves `extra` (ops and their sets) into set `into` when the result can
/// run as one step: every reader of a member outside the set comes after
/// the set's last op, and no op with effects sits among its ops.
bool KernelFormer::mergeIfConvex(unsigned into, llvm::ArrayRef<unsigned> extra) {
  llvm::DenseSet<unsigned> merged(sets[into].members.begin(),
                                  sets[into].members.end());
  for (unsigned op : extra)
    for (unsigned member : sets[setOf[op]].members)
      merged.insert(member);
  unsigned first = *llvm::min_element(merged), last = *llvm::max_element(merged);
  if (last - first > maxKernelSpan)
    return false;
  // Metadata checks among the ops come along, so that the checks keep
  // their order when the kernel's ops move to its last op; any other op
  // with effects there keeps the ops apart.
  for (unsigned between = first; between < last; ++between) {
    if (merged.contains(between))
      continue;
    if (roles[between] == FusionRole::MetadataCheck &&
        sets[setOf[between]].members.size() == 1) {
      merged.insert(between);
      continue;
    }
    if (!ops[between]->hasTrait<OpTrait::IsTerminator>() &&
        effectsOf(ops[between]).ordered())
      return false;
  }
  for (unsigned member : merged)
    for (Value result : ops[member]->getResults())
      for (Operation *user : result.getUsers()) {
        std::optional<unsigned> at = topLevelPosition(user);
        if (at && !merged.contains(*at) && *at <= last)
          return false;
      }
  bool attention = sets[into].attention;
  for (unsigned member : merged)
    if (setOf[member] != into) {
      attention |= sets[setOf[member]].attention;
      sets[setOf[member]].members.clear();
      setOf[member] = into;
    }
  sets[into].members.assign(merged.begin(), merged.end());
  llvm::sort(sets[into].members);
  sets[into].attention = attention;
  return true;
}

/// Takes `producer`'s kernel into `consumer`'s when the value between them
/// (and every view of it) is read only by the consumer's kernel, the
/// producer's own, or metadata checks, and the rules allow the pair.
bool KernelFormer::tryMerge(unsigned consumer, const Producer &producer) {
  unsigned from = setOf[producer.op];
  if (from == consumer || !allowed(from, consumer))
    return false;
  std::vector<unsigned> extra{producer.op};
  // Every value derived from the producer's results through views.
  llvm::SmallVector<Value, 8> values(ops[producer.op]->getResults());
  for (size_t i = 0; i < values.size(); ++i)
    for (OpOperand &use : values[i].getUses()) {
      std::optional<unsigned> at = topLevelPosition(use.getOwner());
      if (!at)
        return false;
      if (setOf[*at] == consumer || setOf[*at] == from ||
          roles[*at] == FusionRole::MetadataCheck) {
        extra.push_back(*at);
        continue;
      }
      if (roles[*at] != FusionRole::View)
        return false; // read elsewhere, or returned: it must be stored
      extra.push_back(*at);
      llvm::append_range(values, ops[*at]->getResults());
    }
  if (!worthMerging(from, consumer, producer.op))
    return false;
  return mergeIfConvex(consumer, extra);
}

/// Bytes of the values the ops of `set` read from outside it that the
/// plan stores (not arguments, constants or views of them).
int64_t KernelFormer::bytesReadFromOutside(unsigned set) const {
  llvm::DenseSet<Value> counted;
  int64_t bytes = 0;
  for (unsigned member : sets[set].members)
    for (Value operand : ops[member]->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || (position.count(def) && setOf[position.lookup(def)] == set))
        continue;
      Value root = viewRoot(operand);
      if (isa<BlockArgument>(root) || !counted.insert(root).second)
        continue;
      if (root.getDefiningOp() &&
          root.getDefiningOp()->hasTrait<OpTrait::ConstantLike>())
        continue;
      bytes += bytesOf(root.getType()).value_or(0);
    }
  return bytes;
}

/// Fusing keeps what the producer reads alive until the consumer's kernel
/// ends, instead of the value between them: worth it when the producer
/// reads no more stored bytes than that value holds. A product's or an
/// attention's kernel holds its operands long: only then. A short kernel
/// (elementwise, a norm) may also take a producer computed right before
/// it, with nothing computed in between (a norm's reduction reads the full
/// rows to write a column: its rows are the kernel's anyway).
bool KernelFormer::worthMerging(unsigned from, unsigned consumer,
                                unsigned producerOp) const {
  int64_t saved = 0;
  for (Value result : ops[producerOp]->getResults())
    saved += bytesOf(result.getType()).value_or(0);
  if (bytesReadFromOutside(from) <= saved)
    return true;
  KernelKind kind = kindOf(consumer);
  if (kind == KernelKind::Matmul || kind == KernelKind::Attention)
    return false;
  unsigned producerLast = sets[from].members.back();
  unsigned consumerFirst = sets[consumer].members.front();
  for (unsigned between = producerLast + 1; between < consumerFirst; ++between)
    if (computes(roles[between]) || roles[between] == FusionRole::None)
      return false;
  return true;
}

/// Pulls in producers of the set's operands until none more fits.
void KernelFormer::absorbProducers(unsigned set) {
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<unsigned> members = sets[set].members;
    for (unsigned member : members) {
      if (roles[member] == FusionRole::View ||
          roles[member] == FusionRole::MetadataCheck)
        continue;
      for (Value operand : ops[member]->getOperands()) {
        std::optional<Producer> producer = producerOf(operand);
        if (producer && tryMerge(set, *producer))
          changed = true;
      }
    }
  }
}

/// Walks back from `value` through elementwise ops and views to a matrix
/// product, recording the ops passed.
std::optional<unsigned>
KernelFormer::matmulBefore(Value value, unsigned depth,
                           std::vector<unsigned> &path) const {
  Operation *def = value.getDefiningOp();
  auto at = def ? position.find(def) : position.end();
  if (depth == 0 || at == position.end())
    return std::nullopt;
  FusionRole role = roles[at->second];
  if (role == FusionRole::Matmul)
    return at->second;
  if (role != FusionRole::View && role != FusionRole::Elementwise &&
      role != FusionRole::Cast && role != FusionRole::LayoutCopy)
    return std::nullopt;
  path.push_back(at->second);
  for (Value operand : def->getOperands())
    if (auto found = matmulBefore(operand, depth - 1, path))
      return found;
  path.pop_back();
  return std::nullopt;
}

/// Walks forward from `value` through elementwise ops and views to a
/// matrix product that reads it as its left operand.
std::optional<unsigned>
KernelFormer::matmulAfter(Value value, unsigned depth,
                          std::vector<unsigned> &path) const {
  if (depth == 0)
    return std::nullopt;
  for (OpOperand &use : value.getUses()) {
    auto at = position.find(use.getOwner());
    if (at == position.end())
      continue;
    FusionRole role = roles[at->second];
    if (role == FusionRole::Matmul && use.getOperandNumber() == 0)
      return at->second;
    if (role != FusionRole::View && role != FusionRole::Elementwise &&
        role != FusionRole::Cast && role != FusionRole::LayoutCopy)
      continue;
    path.push_back(at->second);
    for (Value result : use.getOwner()->getResults())
      if (auto found = matmulAfter(result, depth - 1, path))
        return found;
    path.pop_back();
  }
  return std::nullopt;
}

/// q k^T, its scale and mask, a softmax, times v: one kernel, as a fused
/// attention runs it (its scores never leave the kernel).
void KernelFormer::seedAttention(unsigned softmax) {
  llvm::StringRef name = ops[softmax]->getName().getStringRef();
  if ((name != "torch.aten._softmax" && name != "torch.aten.softmax" &&
       name != "torch.aten._safe_softmax") ||
      ops[softmax]->getNumOperands() == 0 ||
      ops[softmax]->getNumResults() == 0) // malformed: no scores to follow
    return;
  constexpr unsigned depth = 8;
  std::vector<unsigned> before, after;
  std::optional<unsigned> scores =
      matmulBefore(ops[softmax]->getOperand(0), depth, before);
  std::optional<unsigned> values =
      matmulAfter(ops[softmax]->getResult(0), depth, after);
  if (!scores || !values)
    return;
  // Every op on a path from the scores to the product with v (the mask's
  // guards, a safe softmax's row checks): the scores stay inside.
  auto fusable = [&](unsigned op) {
    return roles[op] != FusionRole::None && roles[op] != FusionRole::Matmul &&
           roles[op] != FusionRole::Attention;
  };
  llvm::DenseSet<unsigned> reached{*scores};
  std::vector<unsigned> work{*scores};
  while (!work.empty()) {
    unsigned op = work.back();
    work.pop_back();
    for (Value result : ops[op]->getResults())
      for (Operation *user : result.getUsers())
        if (std::optional<unsigned> at = topLevelPosition(user))
          if (*at < *values && fusable(*at) && reached.insert(*at).second)
            work.push_back(*at);
  }
  std::vector<unsigned> extra{*scores, *values};
  llvm::DenseSet<unsigned> reaches{*values};
  work.assign({*values});
  while (!work.empty()) {
    unsigned op = work.back();
    work.pop_back();
    for (Value operand : ops[op]->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (std::optional<unsigned> at = topLevelPosition(def))
          if (reached.contains(*at) && reaches.insert(*at).second) {
            work.push_back(*at);
            extra.push_back(*at);
          }
  }
  if (!llvm::is_contained(extra, softmax))
    return;
  unsigned into = setOf[softmax];
  if (mergeIfConvex(into, extra))
    sets[setOf[softmax]].attention = true;
}

std::vector<std::vector<unsigned>> KernelFormer::run() {
  if (options.fuseAttention)
    for (unsigned op = 0; op < ops.size(); ++op)
      if (roles[op] == FusionRole::Normalisation)
        seedAttention(op);
  for (unsigned op = ops.size(); op-- > 0;)
    if (computes(roles[op]) && setOf[op] == op)
      absorbProducers(op);
  for (unsigned op = ops.size(); op-- > 0;)
    if (computes(roles[op]) && setOf[op] != op &&
        sets[setOf[op]].members.size() > 1)
      absorbProducers(setOf[op]);
  std::vector<std::vector<unsigned>> kernels;
  for (const Set &set : sets) {
    unsigned computing = llvm::count_if(
        set.members, [&](unsigned op) { return computes(roles[op]); });
    if (computing >= 2)
      kernels.push_back(set.members);
  }
  llvm::sort(kernels, [](const auto &a, const auto &b) {
    return a.back() < b.back();
  });
  return kernels;
}

/// Marks each kernel's ops and moves them next to its last op.
void applyKernels(func::FuncOp func,
                  const std::vector<std::vector<unsigned>> &kernels) {
  std::vector<Operation *> order = currentOrder(func);
  std::vector<int> kernelAt(order.size(), -1);
  for (auto [id, members] : llvm::enumerate(kernels))
    for (unsigned member : members)
      kernelAt[member] = id;
  Builder builder(func.getContext());
  std::vector<Operation *> moved;
  for (unsigned at = 0; at < order.size(); ++at) {
    int id = kernelAt[at];
    if (id < 0) {
      moved.push_back(order[at]);
      continue;
    }
    if (kernels[id].back() != at)
      continue; // placed with its kernel's last op
    for (unsigned member : kernels[id]) {
      order[member]->setAttr(attr::kernel, builder.getI64IntegerAttr(id));
      moved.push_back(order[member]);
    }
  }
  applyOrder(func, moved);
}

/// The input's kernels win over the rules; where the rules would group
/// the ops differently the difference is reported (a remark at the first
/// op grouped differently), so that a user can tell whose model of the
/// runtime the plan follows.
void reportConflict(func::FuncOp func, const FunctionKernels &given,
                    const LivenessOptions &options) {
  OwningOpRef<func::FuncOp> clone = func.clone();
  clone->walk([](Operation *op) { op->removeAttr(attr::kernel); });
  std::vector<std::vector<unsigned>> rules =
      KernelFormer(*clone, options).run();
  std::vector<int> ruleAt(given.kernelAt.size(), -1);
  for (auto [index, members] : llvm::enumerate(rules))
    for (unsigned member : members)
      ruleAt[member] = index;
  // Two ops are grouped alike when both ways put them in one kernel, or
  // both keep them apart; the first op grouped otherwise is reported.
  std::vector<Operation *> ops = currentOrder(func);
  for (unsigned at = 1; at < ops.size(); ++at) {
    bool givenTogether = given.kernelAt[at] >= 0 &&
                         given.kernelAt[at] == given.kernelAt[at - 1];
    bool rulesTogether = ruleAt[at] >= 0 && ruleAt[at] == ruleAt[at - 1];
    if (givenTogether == rulesTogether)
      continue;
    ops[at]->emitRemark("the input's kernels are used (")
        << given.kernels.size()
        << "); the target's fusion rules would form " << rules.size()
        << " and, here, " << (rulesTogether ? "would" : "would not")
        << " run this op in one kernel with the op before it";
    return;
  }
}

} // namespace

FailureOr<KernelSource> formKernels(func::FuncOp func,
                                    const LivenessOptions &options,
                                    bool reportConflicts) {
  if (func.isDeclaration() || !func.getBody().hasOneBlock())
    return KernelSource::None;
  FailureOr<FunctionKernels> given = readKernels(func);
  if (failed(given))
    return failure();
  if (!given->empty()) {
    if (reportConflicts && fusesAnything(options))
      reportConflict(func, *given, options);
    return KernelSource::Input;
  }
  if (!fusesAnything(options))
    return KernelSource::None;
  std::vector<std::vector<unsigned>> kernels =
      KernelFormer(func, options).run();
  if (kernels.empty())
    return KernelSource::None;
  applyKernels(func, kernels);
  return KernelSource::Target;
}

} // namespace coreai
