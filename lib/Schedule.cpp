//===- Schedule.cpp - Choosing an op order that keeps memory low ----------===//
#include "coreai-plan/Schedule.h"

#include <algorithm>
#include <cassert>
#include <set>

namespace coreai {
namespace {

/// Per node, the tensors it produces and the tensors it reads.
struct Incidence {
  std::vector<std::vector<unsigned>> produces, reads;

  explicit Incidence(const ScheduleGraph &graph)
      : produces(graph.predecessors.size()),
        reads(graph.predecessors.size()) {
    for (unsigned t = 0; t < graph.tensors.size(); ++t) {
      produces[graph.tensors[t].producer].push_back(t);
      for (unsigned user : graph.tensors[t].users)
        reads[user].push_back(t);
    }
    for (std::vector<unsigned> &list : reads) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
    }
  }
};

/// Users of each tensor that have not run yet.
std::vector<unsigned> userCounts(const ScheduleGraph &graph,
                                 const Incidence &incidence) {
  std::vector<unsigned> pending(graph.tensors.size(), 0);
  for (const std::vector<unsigned> &reads : incidence.reads)
    for (unsigned t : reads)
      ++pending[t];
  return pending;
}

} // namespace

int64_t peakBytes(const ScheduleGraph &graph,
                  const std::vector<unsigned> &order) {
  Incidence incidence(graph);
  std::vector<unsigned> pending = userCounts(graph, incidence);
  int64_t live = 0, peak = 0;
  for (unsigned node : order) {
    for (unsigned t : incidence.produces[node])
      live += graph.tensors[t].size;
    peak = std::max(peak, live);
    for (unsigned t : incidence.reads[node])
      if (--pending[t] == 0)
        live -= graph.tensors[t].size;
    for (unsigned t : incidence.produces[node])
      if (pending[t] == 0) // never read: freed right after its producer
        live -= graph.tensors[t].size;
  }
  return peak;
}

namespace {

std::vector<std::vector<unsigned>> successorsOf(const ScheduleGraph &graph) {
  std::vector<std::vector<unsigned>> successors(graph.predecessors.size());
  for (unsigned node = 0; node < graph.predecessors.size(); ++node)
    for (unsigned before : graph.predecessors[node])
      successors[before].push_back(node);
  return successors;
}

/// Moves single ops in `order` where that lowers the live bytes over the
/// whole stretch it moves across and the op's own step stays under the
/// order's peak, so the peak never rises: an op that makes more than it
/// frees sinks to just before its first successor; one that frees more
/// than it makes rises to just after the last op it must follow (and after
/// the other readers of what it frees).
class LocalMoves {
public:
  LocalMoves(const ScheduleGraph &graph, std::vector<unsigned> order)
      : graph(graph), incidence(graph), successors(successorsOf(graph)),
        order(std::move(order)), position(this->order.size()) {
    renumber(0, this->order.size());
    measure();
  }

  std::vector<unsigned> run(int rounds) {
    for (int round = 0; round < rounds; ++round) {
      bool moved = false;
      for (size_t i = order.size(); i-- > 0;)
        moved |= sink(order[i]);
      for (size_t i = 0; i < order.size(); ++i)
        moved |= hoist(order[i]);
      if (!moved)
        break;
    }
    return order;
  }

private:
  /// `after[k]`: live bytes once the op at position k has run; `peak`: the
  /// largest live bytes during any step (its results and operands live).
  void measure() {
    std::vector<unsigned> pending = userCounts(graph, incidence);
    after.assign(order.size(), 0);
    int64_t live = 0;
    peak = 0;
    for (size_t k = 0; k < order.size(); ++k) {
      peak = std::max(peak, live + allMade(order[k]));
      for (unsigned t : incidence.reads[order[k]])
        if (--pending[t] == 0)
          live -= graph.tensors[t].size;
      live += kept(order[k]);
      after[k] = live;
    }
  }
  void renumber(size_t from, size_t to) {
    for (size_t i = from; i < to; ++i)
      position[order[i]] = i;
  }
  int64_t levelBefore(size_t k) const { return k == 0 ? 0 : after[k - 1]; }
  /// Moves the op at `from` to `to`; the ops it passes see `delta` more
  /// live bytes, and it leaves `levelAfter` behind.
  void move(size_t from, size_t to, int64_t delta, int64_t levelAfter) {
    unsigned node = order[from];
    size_t low = std::min(from, to), high = std::max(from, to);
    for (size_t k = low; k <= high; ++k)
      if (k != from)
        after[k] += delta;
    order.erase(order.begin() + from);
    order.insert(order.begin() + to, node);
    after.erase(after.begin() + from);
    after.insert(after.begin() + to, levelAfter);
    renumber(low, high + 1);
  }
  int64_t allMade(unsigned node) const {
    int64_t bytes = 0;
    for (unsigned t : incidence.produces[node])
      bytes += graph.tensors[t].size;
    return bytes;
  }
  /// Bytes `node` makes that outlive its step (someone reads them).
  int64_t kept(unsigned node) const {
    int64_t bytes = 0;
    for (unsigned t : incidence.produces[node])
      if (!graph.tensors[t].users.empty())
        bytes += graph.tensors[t].size;
    return bytes;
  }
  /// Bytes `node` frees at its position: tensors it reads last. With
  /// `lastOther`, raises it to the latest other reader of those tensors.
  int64_t freed(unsigned node, int64_t *lastOther = nullptr) const {
    int64_t bytes = 0;
    for (unsigned t : incidence.reads[node]) {
      int64_t other = -1;
      for (unsigned user : graph.tensors[t].users)
        if (user != node)
          other = std::max<int64_t>(other, position[user]);
      if (other < int64_t(position[node])) {
        bytes += graph.tensors[t].size;
        if (lastOther)
          *lastOther = std::max(*lastOther, other);
      }
    }
    return bytes;
  }

  size_t lastReader(unsigned t) const {
    size_t last = 0;
    for (unsigned user : graph.tensors[t].users)
      last = std::max<size_t>(last, position[user]);
    return last;
  }

  bool sink(unsigned node) {
    int64_t delta = freed(node) - kept(node);
    if (delta >= 0)
      return false;
    size_t first = order.size();
    for (unsigned next : successors[node])
      first = std::min<size_t>(first, position[next]);
    // Nor past the last other reader of a tensor it reads but does not
    // free: it would become the last reader and keep that tensor alive.
    for (unsigned t : incidence.reads[node])
      for (unsigned user : graph.tensors[t].users)
        if (position[user] > position[node])
          first = std::min<size_t>(first, lastReader(t));
    size_t from = position[node];
    if (first == order.size() || first <= from + 1)
      return false;
    size_t to = first - 1;
    if (after[to] + delta + allMade(node) > peak)
      return false; // its own step would set a new peak
    move(from, to, delta, after[to]);
    return true;
  }

  bool hoist(unsigned node) {
    int64_t bound = -1;
    int64_t delta = kept(node) - freed(node, &bound);
    if (delta >= 0)
      return false;
    for (unsigned before : graph.predecessors[node])
      bound = std::max<int64_t>(bound, position[before]);
    size_t from = position[node], to = bound + 1;
    if (int64_t(to) >= int64_t(from))
      return false;
    if (levelBefore(to) + allMade(node) > peak)
      return false;
    move(from, to, delta, levelBefore(to) + delta);
    return true;
  }

  const ScheduleGraph &graph;
  Incidence incidence;
  std::vector<std::vector<unsigned>> successors;
  std::vector<unsigned> order;
  std::vector<unsigned> position;
  std::vector<int64_t> after;
  int64_t peak = 0;
};

std::vector<unsigned> greedyOrder(const ScheduleGraph &graph) {
  size_t count = graph.predecessors.size();
  Incidence incidence(graph);
  std::vector<unsigned> pending = userCounts(graph, incidence);
  std::vector<std::vector<unsigned>> successors = successorsOf(graph);
  std::vector<unsigned> waitingFor(count, 0);
  for (unsigned node = 0; node < count; ++node)
    waitingFor[node] = graph.predecessors[node].size();

  auto growth = [&](unsigned node) {
    int64_t bytes = 0;
    for (unsigned t : incidence.produces[node])
      if (pending[t] > 0) // a result nobody reads dies at once
        bytes += graph.tensors[t].size;
    for (unsigned t : incidence.reads[node])
      if (pending[t] == 1)
        bytes -= graph.tensors[t].size;
    return bytes;
  };

  std::set<unsigned> ready;
  for (unsigned node = 0; node < count; ++node)
    if (waitingFor[node] == 0)
      ready.insert(node);
  std::vector<unsigned> order;
  order.reserve(count);
  while (!ready.empty()) {
    unsigned best = *ready.begin();
    int64_t bestGrowth = growth(best);
    for (unsigned node : ready) {
      int64_t g = growth(node);
      if (g < bestGrowth)
        best = node, bestGrowth = g;
    }
    ready.erase(best);
    order.push_back(best);
    for (unsigned t : incidence.reads[best])
      --pending[t];
    for (unsigned next : successors[best])
      if (--waitingFor[next] == 0)
        ready.insert(next);
  }
  assert(order.size() == count && "predecessors must form a DAG");
  return order;
}

} // namespace

std::vector<unsigned> memoryAwareOrder(const ScheduleGraph &graph) {
  std::vector<unsigned> given(graph.predecessors.size());
  for (unsigned node = 0; node < given.size(); ++node)
    given[node] = node;
  constexpr int rounds = 4;
  std::vector<unsigned> best = LocalMoves(graph, given).run(rounds);
  int64_t bestPeak = peakBytes(graph, best);
  std::vector<unsigned> greedy =
      LocalMoves(graph, greedyOrder(graph)).run(rounds);
  if (peakBytes(graph, greedy) < bestPeak)
    best = std::move(greedy);
  return best;
}

} // namespace coreai
