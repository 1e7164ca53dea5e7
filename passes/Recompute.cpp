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
    llvm::StringRef role = roleName(fusionRoleOf(op));
    return !role.empty() && llvm::is_contained(rules.roles, role);
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

bool writesSomething(func::FuncOp func) {
  WalkResult walk = func.walk([](Operation *op) {
    return effectsOf(op).mutates() ? WalkResult::interrupt()
                                   : WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// Whether `value` ends a chain worth cloning: two or more readers, none
/// of which a chain could take in (then that longer chain is the one).
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

} // namespace

int64_t recomputeChains(func::FuncOp func, const RecomputeRules &rules) {
  if (!rules.enabled() || func.isDeclaration() || writesSomething(func))
    return 0;
  Chains chains(func, rules);
  // Candidates first: cloning changes the readers the test looks at.
  llvm::SmallVector<std::pair<Value, llvm::SmallVector<Operation *, 8>>, 4>
      candidates;
  for (Operation &op : func.getBody().front())
    for (Value result : op.getResults())
      if (isa<RankedTensorType>(result.getType()) &&
          !op.hasAttr(attr::recompute) &&
          fusionRoleOf(&op) != FusionRole::View && // a view takes no bytes
          endsChain(result, chains))
        if (std::optional<llvm::SmallVector<Operation *, 8>> chain =
                chains.of(result))
          candidates.push_back({result, std::move(*chain)});
  MLIRContext *context = func.getContext();
  int64_t index = 0;
  for (auto &[value, chain] : candidates) {
    IntegerAttr id = IntegerAttr::get(IntegerType::get(context, 64), index++);
    for (Operation *reader : readersOf(value)) {
      OpBuilder builder(reader);
      IRMapping mapping;
      for (Operation *op : chain)
        builder.clone(*op, mapping)->setAttr(attr::recompute, id);
      reader->replaceUsesOfWith(value, mapping.lookup(value));
    }
  }
  return index;
}

PlannedEntry::Recomputed recomputedIn(func::FuncOp func) {
  PlannedEntry::Recomputed total;
  llvm::SmallDenseSet<int64_t, 8> chains;
  for (Operation &op : func.getBody().front()) {
    auto id = op.getAttrOfType<IntegerAttr>(attr::recompute);
    if (!id)
      continue;
    chains.insert(id.getInt());
    ++total.ops;
    if (fusionRoleOf(&op) == FusionRole::View)
      continue;
    for (Value result : op.getResults())
      if (auto type = dyn_cast<ShapedType>(result.getType());
          type && type.hasStaticShape())
        total.elements += type.getNumElements();
  }
  total.chains = chains.size();
  return total;
}

} // namespace coreai
