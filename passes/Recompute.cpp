//===- Recompute.cpp - Cheap chains computed again at each reader ---------===//
#include "Recompute.h"

#include "Effects.h"
#include "OpClasses.h"

#include "coreai-plan/Dialect/CoreAI.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace coreai {
namespace {

llvm::StringRef roleName(FusionRole role) {
  switch (role) {
  case FusionRole::Fill:
    return "fill";
  case FusionRole::Elementwise:
    return "elementwise";
  case FusionRole::Cast:
    return "cast";
  case FusionRole::View:
    return "view";
  default:
    return "";
  }
}

/// Whether `op` is a matrix product over a contracted dimension of one:
/// `[.., M, 1] x [.., 1, N]`, one multiply per result element (RoPE's
/// angles, inv_freq times the positions).
bool isOuterProduct(Operation *op) {
  if (fusionRoleOf(op) != FusionRole::Matmul || op->getNumOperands() != 2 ||
      op->getNumResults() != 1)
    return false;
  auto lhs = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto rhs = dyn_cast<RankedTensorType>(op->getOperand(1).getType());
  return lhs && rhs && lhs.getRank() >= 2 && rhs.getRank() >= 2 &&
         lhs.getShape().back() == 1 &&
         rhs.getShape()[rhs.getRank() - 2] == 1;
}

/// What the target's recompute rules call the op: its fusion role, or
/// "outer_product" and "concat", which fusion has no role for but a
/// kernel computes as cheaply as a broadcast multiply or a copy.
llvm::StringRef recomputeKindOf(Operation *op) {
  if (isOuterProduct(op))
    return "outer_product";
  llvm::StringRef name = op->getName().getStringRef();
  if (name == "torch.aten.cat" || name == "torch.aten.concat" ||
      name == "torch.aten.concatenate")
    return "concat";
  return roleName(fusionRoleOf(op));
}

/// The chains of one function: which top-level ops may be cloned, and the
/// chain (its ops in body order) behind each value, memoised.
class Chains {
public:
  Chains(func::FuncOp func, const RecomputeRules &rules)
      : func(func), rules(rules) {
    unsigned position = 0;
    for (Operation &op : func.getBody().front())
      positions[&op] = position++;
  }

  /// The ops computing `value` from arguments only, in body order, or
  /// std::nullopt when some op on the way may not be cloned or there are
  /// more than the rules allow.
  std::optional<llvm::SmallVector<Operation *, 8>> of(Value value) {
    Operation *def = value.getDefiningOp();
    if (!def || !positions.count(def))
      return std::nullopt;
    auto known = memo.find(def);
    if (known != memo.end())
      return known->second;
    llvm::SetVector<Operation *> ops;
    llvm::SmallVector<Operation *, 8> work{def};
    bool fits = true;
    while (fits && !work.empty()) {
      Operation *op = work.pop_back_val();
      if (!ops.insert(op))
        continue;
      fits = clonable(op) && int64_t(ops.size()) <= rules.maxOps;
      for (Value operand : op->getOperands())
        if (Operation *producer = operand.getDefiningOp())
          work.push_back(producer);
        else if (cast<BlockArgument>(operand).getOwner() !=
                 &func.getBody().front())
          fits = false;
    }
    std::optional<llvm::SmallVector<Operation *, 8>> chain;
    if (fits) {
      chain.emplace(ops.begin(), ops.end());
      llvm::sort(*chain, [&](Operation *a, Operation *b) {
        return positions.lookup(a) < positions.lookup(b);
      });
    }
    memo[def] = chain;
    return chain;
  }

private:
  bool clonable(Operation *op) {
    if (!positions.count(op) || op->getNumRegions() > 0 ||
        op->getNumResults() == 0 || effectsOf(op).ordered())
      return false;
    llvm::StringRef kind = recomputeKindOf(op);
    return !kind.empty() && llvm::is_contained(rules.roles, kind);
  }

  func::FuncOp func;
  const RecomputeRules &rules;
  llvm::DenseMap<Operation *, unsigned> positions;
  llvm::DenseMap<Operation *,
                 std::optional<llvm::SmallVector<Operation *, 8>>>
      memo;
};

/// The top-level ops that read `value` and compute from it (a metadata
/// check reads only its type and stays with the original).
llvm::SmallVector<Operation *, 4> readersOf(Value value) {
  llvm::SmallVector<Operation *, 4> readers;
  for (Operation *user : value.getUsers())
    if (fusionRoleOf(user) != FusionRole::MetadataCheck &&
        !llvm::is_contained(readers, user))
      readers.push_back(user);
  return readers;
}

bool allViews(llvm::ArrayRef<Operation *> chain) {
  return llvm::all_of(chain, [](Operation *op) {
    return fusionRoleOf(op) == FusionRole::View;
  });
}

/// Erases the original chains' ops nothing reads any more (their readers
/// now read the clones): the runtime computes each value where it is read,
/// not once more where the graph first computed it. An op read by some
/// other op (a value also returned, or read where no clone went) stays.
void eraseUnread(const llvm::SetVector<Operation *> &originals) {
  llvm::SmallVector<Operation *, 16> order(originals.begin(), originals.end());
  // Readers before what they read: a chain's ops in reverse body order.
  llvm::sort(order, [](Operation *a, Operation *b) {
    return b->isBeforeInBlock(a);
  });
  for (Operation *op : order)
    if (op->use_empty())
      op->erase();
}

bool writesSomething(func::FuncOp func) {
  WalkResult walk = func.walk([](Operation *op) {
    return effectsOf(op).mutates() ? WalkResult::interrupt()
                                   : WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// Whether `value` ends a chain worth cloning: two or more readers, none
/// of which a chain could take in (then that longer chain is the one). A
/// view ends one too (RoPE's cos unsqueezed once per layer, read by q's and
/// k's products): its clone puts the whole chain in front of each reader.
bool endsChain(Value value, Chains &chains) {
  llvm::SmallVector<Operation *, 4> readers = readersOf(value);
  if (readers.size() < 2)
    return false;
  for (Operation *reader : readers) {
    if (reader->hasTrait<OpTrait::IsTerminator>())
      return false; // returned: it is kept anyway
    for (Value result : reader->getResults())
      if (chains.of(result))
        return false;
  }
  return true;
}

/// What a chain computes, as a key: its ops' names in order and its
/// value's type. Each layer's copy of one table or mask has the same.
std::string computationOf(llvm::ArrayRef<Operation *> chain, Value value) {
  std::string key;
  llvm::raw_string_ostream os(key);
  for (Operation *op : chain)
    os << op->getName() << ' ';
  os << value.getType();
  return key;
}

/// A chain worth cloning: its value, its ops in body order, and its group
/// (chains computing the same, e.g. each layer's view of one RoPE table).
struct Candidate {
  Value value;
  llvm::SmallVector<Operation *, 8> chain;
  unsigned group;
};

/// The candidates of `func` in body order, their groups numbered in order
/// of first appearance; empty where nothing may be recomputed.
std::vector<Candidate> candidatesOf(func::FuncOp func,
                                    const RecomputeRules &rules,
                                    unsigned &groups) {
  groups = 0;
  std::vector<Candidate> candidates;
  if (!rules.enabled() || func.isDeclaration() || writesSomething(func))
    return candidates;
  Chains chains(func, rules);
  llvm::StringMap<unsigned> groupOf;
  for (Operation &op : func.getBody().front())
    for (Value result : op.getResults()) {
      if (!isa<RankedTensorType>(result.getType()) ||
          op.hasAttr(attr::recompute) || !endsChain(result, chains))
        continue;
      std::optional<llvm::SmallVector<Operation *, 8>> chain =
          chains.of(result);
      if (!chain || allViews(*chain)) // views alone take no bytes
        continue;
      auto [at, added] =
          groupOf.try_emplace(computationOf(*chain, result), groupOf.size());
      candidates.push_back({result, std::move(*chain), at->second});
    }
  groups = groupOf.size();
  return candidates;
}

} // namespace

unsigned recomputeGroups(func::FuncOp func, const RecomputeRules &rules) {
  unsigned groups = 0;
  candidatesOf(func, rules, groups);
  return groups;
}

int64_t recomputeChains(func::FuncOp func, const RecomputeRules &rules,
                        const llvm::SmallBitVector *only) {
  unsigned groups = 0;
  // Candidates first: cloning changes the readers the test looks at.
  std::vector<Candidate> candidates = candidatesOf(func, rules, groups);
  llvm::erase_if(candidates, [&](const Candidate &candidate) {
    return only && !only->test(candidate.group);
  });
  MLIRContext *context = func.getContext();
  int64_t index = 0;
  llvm::SetVector<Operation *> originals;
  for (auto &[value, chain, group] : candidates) {
    IntegerAttr id = IntegerAttr::get(IntegerType::get(context, 64), index++);
    for (Operation *reader : readersOf(value)) {
      OpBuilder builder(reader);
      IRMapping mapping;
      for (Operation *op : chain)
        builder.clone(*op, mapping)->setAttr(attr::recompute, id);
      reader->replaceUsesOfWith(value, mapping.lookup(value));
    }
    originals.insert(chain.begin(), chain.end());
  }
  eraseUnread(originals);
  return index;
}

bool isPointwiseWhenRecomputed(Operation *op) {
  if (!op->hasAttr(attr::recompute))
    return false;
  llvm::StringRef kind = recomputeKindOf(op);
  return kind == "outer_product" || kind == "concat";
}

namespace {

/// An op's attributes without the plan's annotations: what it computes.
llvm::SmallVector<NamedAttribute> computedAttrs(Operation *op) {
  llvm::SmallVector<NamedAttribute> kept;
  for (NamedAttribute named : op->getDiscardableAttrs())
    if (!llvm::is_contained({attr::placement, attr::kernel, attr::workspace,
                             attr::variant, attr::recompute,
                             attr::resultDtypes},
                            named.getName().getValue()))
      kept.push_back(named);
  return kept;
}

/// One recomputed chain as the planned IR holds it: its clones' ops and
/// elements, and its ends (clones read by an op outside the chain: one per
/// reader, so one per copy).
struct ChainClones {
  int64_t ops = 0;
  int64_t elements = 0;
  llvm::SmallVector<Operation *, 4> ends;
};

/// Whether the function still computes the chain's value where the graph
/// did (an op like the chain's end, not a clone: kept because something
/// else reads it, e.g. a metadata check).
bool originalKept(func::FuncOp func, Operation *end) {
  llvm::SmallVector<NamedAttribute> attrs = computedAttrs(end);
  for (Operation &op : func.getBody().front())
    if (!op.hasAttr(attr::recompute) && op.getName() == end->getName() &&
        computedAttrs(&op) == attrs)
      return true;
  return false;
}

} // namespace

PlannedEntry::Recomputed recomputedIn(func::FuncOp func) {
  llvm::MapVector<int64_t, ChainClones> chains;
  for (Operation &op : func.getBody().front()) {
    auto id = op.getAttrOfType<IntegerAttr>(attr::recompute);
    if (!id)
      continue;
    ChainClones &chain = chains[id.getInt()];
    ++chain.ops;
    bool end = llvm::any_of(op.getUsers(), [&](Operation *user) {
      return user->getAttr(attr::recompute) != id;
    });
    if (end)
      chain.ends.push_back(&op);
    if (fusionRoleOf(&op) == FusionRole::View)
      continue;
    for (Value result : op.getResults())
      if (auto type = dyn_cast<ShapedType>(result.getType());
          type && type.hasStaticShape())
        chain.elements += type.getNumElements();
  }
  PlannedEntry::Recomputed total;
  for (auto &[id, chain] : chains) {
    total.ops += chain.ops;
    // Each copy computes the same elements; one of them is the work the
    // graph did anyway, unless the original is still computed as well.
    int64_t copies = std::max<int64_t>(1, chain.ends.size());
    int64_t perCopy = chain.elements / copies;
    bool kept = !chain.ends.empty() && originalKept(func, chain.ends.front());
    total.elements += chain.elements - (kept ? 0 : perCopy);
  }
  total.chains = chains.size();
  return total;
}

} // namespace coreai
