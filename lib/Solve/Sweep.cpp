//===- Sweep.cpp - Placing buffers in the order they come alive -----------===//
//
// The sweeps between the peak sweep's cores (PeakSweep.cpp says why): a
// sweep visits its buffers in the order they come alive, moving away from
// its core, and puts each into a free gap among the buffers live then and
// the obstacles (buffers placed before the sweep) that come alive during
// its life, preferring the gap next to a buffer that dies when it does.
// Where no gap fits, a window of arrivals around it is taken back and
// packed by the exact search, wider while it does not pack.
//
//===----------------------------------------------------------------------===//
#include "Solvers.h"

#include <algorithm>
#include <map>

namespace coreai::solvers {
namespace {

int64_t alignDown(int64_t value, int64_t alignment) {
  return value / alignment * alignment;
}

/// What a buffer may not overlap at its arrival: one of the live buffers,
/// by offset, or an obstacle arriving during its life.
struct Blocked {
  int64_t offset, end;
  int leave;
  size_t index;
  bool operator<(const Blocked &other) const { return offset < other.offset; }
};

class Sweep {
public:
  Sweep(const SweepSpace &space, bool forward, std::vector<size_t> todo,
        std::vector<size_t> obstacles)
      : buffers(space.buffers), spans(space.spans), offsets(space.offsets),
        capacity(space.capacity), options(space.options), forward(forward),
        todo(std::move(todo)), obstacles(std::move(obstacles)),
        marks(this->todo.size(), 0) {
    std::stable_sort(this->todo.begin(), this->todo.end(),
                     [&](size_t a, size_t b) {
                       if (arrive(a) != arrive(b))
                         return arrive(a) < arrive(b);
                       return buffers[a].size > buffers[b].size;
                     });
    std::stable_sort(this->obstacles.begin(), this->obstacles.end(),
                     [&](size_t a, size_t b) { return arrive(a) < arrive(b); });
  }

  /// Places every buffer of the sweep; false if a repair did not pack
  /// (failedAt: the segment of that arrival) or time ran out.
  bool run(int &failedAt);

private:
  // Time as the sweep moves: a buffer arrives when it comes alive and
  // leaves when it dies, in the sweep's direction.
  int arrive(size_t i) const {
    return forward ? spans[i].first : -(spans[i].second - 1);
  }
  int leave(size_t i) const {
    return forward ? spans[i].second : -spans[i].first + 1;
  }
  Blocked blocked(size_t i) const {
    return {offsets[i], offsets[i] + buffers[i].size, leave(i), i};
  }
  bool timeLeft() const { return Clock::now() < options.deadline; }

  void insert(size_t i);
  void erase(size_t i);
  void advanceTo(int t);
  void undoTo(size_t mark);
  const std::vector<Blocked> &blockedDuring(size_t x);
  std::optional<int64_t> bestGap(size_t x);
  bool placeGreedily(size_t k);
  void placeAt(size_t k, int64_t offset);
  std::optional<size_t> repair(size_t next, int from, int to, int64_t nodes);

  const std::vector<Buffer> &buffers;
  const std::vector<std::pair<int, int>> &spans;
  Offsets &offsets;
  const int64_t capacity;
  const PeakSweepOptions &options;
  const bool forward;
  /// The buffers to place, by arrival (larger first at one time).
  std::vector<size_t> todo;
  /// Everything already placed that these buffers can meet, by arrival.
  std::vector<size_t> obstacles;

  // The sweep's state, with a trail so that a repair can take arrivals
  // back.
  std::vector<Blocked> liveByOffset;
  std::multimap<int, size_t> byLeave;
  size_t admitted = 0; // Obstacles already in liveByOffset (or gone).
  enum class Op { Add, Depart, Admit };
  std::vector<std::pair<Op, size_t>> trail;
  /// The trail's length when each arrival of `todo` was placed.
  std::vector<size_t> marks;
  /// Scratch for blockedDuring.
  std::vector<Blocked> withObstacles;
};

void Sweep::insert(size_t i) {
  Blocked entry = blocked(i);
  liveByOffset.insert(
      std::upper_bound(liveByOffset.begin(), liveByOffset.end(), entry), entry);
  byLeave.emplace(leave(i), i);
}

void Sweep::erase(size_t i) {
  auto at = std::lower_bound(liveByOffset.begin(), liveByOffset.end(),
                             Blocked{offsets[i], 0, 0, 0});
  for (; at != liveByOffset.end() && at->offset == offsets[i]; ++at)
    if (at->index == i) {
      liveByOffset.erase(at);
      break;
    }
  auto [lo, hi] = byLeave.equal_range(leave(i));
  for (auto it = lo; it != hi; ++it)
    if (it->second == i) {
      byLeave.erase(it);
      break;
    }
}

/// Moves sweep time to `t`: the live buffers that left by then depart,
/// the obstacles that arrived by then are admitted.
void Sweep::advanceTo(int t) {
  while (!byLeave.empty() && byLeave.begin()->first <= t) {
    size_t i = byLeave.begin()->second;
    erase(i);
    trail.push_back({Op::Depart, i});
  }
  for (; admitted < obstacles.size() && arrive(obstacles[admitted]) <= t;
       ++admitted) {
    size_t i = obstacles[admitted];
    trail.push_back({Op::Admit, i});
    if (leave(i) > t)
      insert(i);
  }
}

void Sweep::undoTo(size_t mark) {
  while (trail.size() > mark) {
    auto [op, i] = trail.back();
    trail.pop_back();
    if (op == Op::Depart) {
      insert(i);
      continue;
    }
    erase(i);
    if (op == Op::Admit)
      --admitted;
    else
      offsets[i] = -1;
  }
}

/// What `x` may not overlap, by offset: the live buffers, and the
/// obstacles that arrive before it leaves.
const std::vector<Blocked> &Sweep::blockedDuring(size_t x) {
  if (admitted >= obstacles.size() || arrive(obstacles[admitted]) >= leave(x))
    return liveByOffset;
  withObstacles = liveByOffset;
  for (size_t k = admitted;
       k < obstacles.size() && arrive(obstacles[k]) < leave(x); ++k)
    withObstacles.push_back(blocked(obstacles[k]));
  std::sort(withObstacles.begin(), withObstacles.end());
  return withObstacles;
}

/// The offset for `x` among the gaps under the capacity: an exact fit
/// first, else the gap whose neighbour leaves closest to when `x` does,
/// the lowest offset among equals.
std::optional<int64_t> Sweep::bestGap(size_t x) {
  const std::vector<Blocked> &blocked = blockedDuring(x);
  const Buffer &b = buffers[x];
  int64_t size = b.size, alignment = std::max<int64_t>(b.alignment, 1);
  int dies = leave(x);
  constexpr int64_t none = std::numeric_limits<int64_t>::max();
  int64_t bestOffset = -1, bestScore = none;
  auto consider = [&](int64_t offset, int64_t score) {
    if (bestOffset < 0 || score < bestScore ||
        (score == bestScore && offset < bestOffset)) {
      bestScore = score;
      bestOffset = offset;
    }
  };
  int64_t floor = 0;
  int64_t belowLeave = none; // Nothing below: no neighbour to match.
  for (size_t k = 0; k <= blocked.size(); ++k) {
    bool top = k == blocked.size();
    int64_t ceiling = top ? capacity : std::min(capacity, blocked[k].offset);
    int64_t low = alignment == 1 ? floor : alignTo(floor, alignment);
    if (low + size <= ceiling) {
      // An exact fit leaves no sliver at all: it wins outright.
      bool exact = !top && low + size == ceiling;
      int64_t below = belowLeave == none ? none : std::abs(dies - belowLeave);
      consider(low, exact ? -1 : below);
      if (!top) {
        int64_t high = alignDown(ceiling - size, alignment);
        consider(high, std::abs(dies - int64_t(blocked[k].leave)));
      }
    }
    if (top || blocked[k].offset >= capacity)
      break;
    if (blocked[k].end > floor) {
      floor = blocked[k].end;
      belowLeave = blocked[k].leave;
    }
  }
  if (bestOffset < 0)
    return std::nullopt;
  return bestOffset;
}

bool Sweep::placeGreedily(size_t k) {
  marks[k] = trail.size();
  size_t x = todo[k];
  advanceTo(arrive(x));
  std::optional<int64_t> offset = bestGap(x);
  if (!offset)
    return false;
  offsets[x] = *offset;
  insert(x);
  trail.push_back({Op::Add, x});
  return true;
}

void Sweep::placeAt(size_t k, int64_t offset) {
  marks[k] = trail.size();
  size_t x = todo[k];
  advanceTo(arrive(x));
  offsets[x] = offset;
  insert(x);
  trail.push_back({Op::Add, x});
}

/// Takes back the arrivals in [from, to] (sweep time) and packs them with
/// the exact search; `next` arrivals are placed so far. The new count of
/// placed arrivals, or nothing (state unchanged) if the window did not
/// pack.
std::optional<size_t> Sweep::repair(size_t next, int from, int to,
                                    int64_t nodes) {
  size_t first = next, last = next;
  while (first > 0 && arrive(todo[first - 1]) >= from)
    --first;
  while (last < todo.size() && arrive(todo[last]) <= to)
    ++last;
  Offsets kept;
  for (size_t k = first; k < next; ++k)
    kept.push_back(offsets[todo[k]]);
  undoTo(marks[first]);
  BufferProblem window;
  ExactOptions exact;
  exact.deadline = options.deadline;
  exact.nodeLimit = nodes;
  int freeLeave = arrive(todo[first]);
  for (size_t k = first; k < last; ++k)
    freeLeave = std::max(freeLeave, leave(todo[k]));
  auto fix = [&](size_t i) {
    window.buffers.push_back(buffers[i]);
    exact.fixedOffsets.push_back(offsets[i]);
  };
  for (const Blocked &live : liveByOffset)
    if (live.leave > arrive(todo[first]))
      fix(live.index);
  for (size_t k = admitted;
       k < obstacles.size() && arrive(obstacles[k]) < freeLeave; ++k)
    fix(obstacles[k]);
  size_t numFixed = window.buffers.size();
  for (size_t k = first; k < last; ++k) {
    window.buffers.push_back(buffers[todo[k]]);
    exact.fixedOffsets.push_back(-1);
  }
  ExactResult packed = searchWithinCapacity(window, capacity, exact);
  if (packed.offsets) {
    if (options.stats)
      ++options.stats->repairs;
    for (size_t k = first; k < last; ++k)
      placeAt(k, (*packed.offsets)[numFixed + k - first]);
    return last;
  }
  for (size_t k = first; k < next; ++k)
    placeAt(k, kept[k - first]);
  return std::nullopt;
}

bool Sweep::run(int &failedAt) {
  for (size_t k = 0; k < todo.size();) {
    if (placeGreedily(k)) {
      ++k;
      continue;
    }
    undoTo(marks[k]);
    int t = arrive(todo[k]);
    std::optional<size_t> next;
    for (int grow = 0; grow <= options.repairGrowth && !next; ++grow) {
      if (!timeLeft())
        return false;
      next = repair(k, t - (options.repairBefore << grow),
                    t + (options.repairAfter << grow), options.repairNodes);
    }
    if (!next) {
      failedAt = forward ? t : -t;
      return false;
    }
    k = *next;
  }
  return true;
}

} // namespace

bool sweepInArrivalOrder(const SweepSpace &space, bool forward,
                         std::vector<size_t> todo,
                         std::vector<size_t> obstacles, int &failedAt) {
  return Sweep(space, forward, std::move(todo), std::move(obstacles))
      .run(failedAt);
}

} // namespace coreai::solvers
