//===- Memory.cpp - Live ranges of a method's planned tensors -------------===//
//
// Which instruction reads or writes each tensor follows the way ExecuTorch
// emits calls: a kernel's arguments come first and the values it returns
// last, and a returned value is one of its arguments (the `out` tensor of
// an out-variant op, `self` of an in-place op). So the trailing arguments
// that name a value already named before them are what the kernel writes.
// Anything not shown to be written is taken as read, the safe side: a
// tensor whose first use is a read either aliases bytes written before
// (a view the program placed over another tensor) or holds state.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Pte/Memory.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>

namespace coreai::pte {
namespace {

/// Union-find over placed tensors.
struct Groups {
  std::vector<int64_t> parent;
  explicit Groups(size_t n) : parent(n) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  int64_t find(int64_t x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  bool join(int64_t a, int64_t b) {
    a = find(a), b = find(b);
    if (a == b)
      return false;
    parent[std::max(a, b)] = std::min(a, b);
    return true;
  }
};

/// What the instructions do to each placed tensor.
struct Uses {
  std::vector<std::vector<int64_t>> touches; ///< ascending, repeats removed
  std::vector<std::vector<int64_t>> writes;  ///< ascending
  std::vector<std::pair<int64_t, int64_t>> aliases; ///< placed pairs
  bool controlFlow = false;
};

/// The values a kernel call writes: its trailing arguments that repeat an
/// earlier one (the returned `out` or `self`), a returned list repeating
/// the tensors of earlier ones (a multi-output op's `out` tensors).
std::vector<int64_t> writtenByKernel(const Method &method,
                                     const Instruction &call) {
  std::vector<int64_t> written;
  const std::vector<int64_t> &args = call.args;
  for (size_t i = args.size(); i-- > 0;) {
    auto earlier = llvm::ArrayRef<int64_t>(args).take_front(i);
    const std::vector<int64_t> &tensors = method.tensorsOf[args[i]];
    bool repeats = llvm::is_contained(earlier, args[i]);
    if (!repeats && !tensors.empty())
      repeats = llvm::all_of(tensors, [&](int64_t tensor) {
        return llvm::any_of(earlier, [&](int64_t arg) {
          return llvm::is_contained(method.tensorsOf[arg], tensor);
        });
      });
    if (!repeats)
      break;
    written.push_back(args[i]);
  }
  return written;
}

class UseCollector {
public:
  explicit UseCollector(const Method &method) : method(method) {
    uses.touches.resize(method.placed.size());
    uses.writes.resize(method.placed.size());
    aliasOf.resize(method.tensorsOf.size());
    std::iota(aliasOf.begin(), aliasOf.end(), 0);
  }

  Uses collect() {
    for (size_t t = 0; t < method.instructions.size(); ++t)
      visit(method.instructions[t], int64_t(t));
    for (std::vector<int64_t> &list : uses.touches)
      list.erase(std::unique(list.begin(), list.end()), list.end());
    return std::move(uses);
  }

private:
  const Method &method;
  Uses uses;
  /// An unplanned value that stands for another's bytes from some point
  /// on (the destination of a move, the result of et_view).
  std::vector<int64_t> aliasOf;

  int64_t resolve(int64_t value) {
    while (aliasOf[value] != value)
      value = aliasOf[value];
    return value;
  }

  /// The placed tensors a value stands for.
  std::vector<int64_t> placedOf(int64_t value) {
    std::vector<int64_t> result;
    for (int64_t tensor : method.tensorsOf[value]) {
      int64_t p = method.placedIndex[resolve(tensor)];
      if (p >= 0)
        result.push_back(p);
    }
    return result;
  }

  void touch(int64_t value, int64_t time, bool write) {
    for (int64_t p : placedOf(value)) {
      uses.touches[p].push_back(time);
      if (write)
        uses.writes[p].push_back(time);
    }
  }

  /// `to` shares `from`'s bytes from now on.
  void alias(int64_t to, int64_t from) {
    if (method.placedIndex[to] < 0) {
      if (resolve(from) != to)
        aliasOf[to] = from;
      return;
    }
    for (int64_t p : placedOf(from))
      uses.aliases.push_back({method.placedIndex[to], p});
  }

  void visit(const Instruction &call, int64_t time) {
    using Kind = Instruction::Kind;
    std::vector<int64_t> written;
    if (call.kind == Kind::Kernel) {
      written = writtenByKernel(method, call);
      // et_view(self, sizes, out): `out` becomes a view of `self`.
      if (llvm::StringRef(call.op).starts_with("executorch_prim::et_view") &&
          call.args.size() == 3) {
        alias(call.args[2], call.args[0]);
        written = {call.args[2]};
      }
    } else if (call.kind == Kind::Move) {
      alias(call.args[1], call.args[0]);
      written = {call.args[1]};
    } else if (call.kind == Kind::JumpFalse) {
      uses.controlFlow = true;
    }
    for (int64_t value : call.args)
      touch(value, time, llvm::is_contained(written, value));
  }
};

/// Placed tensors overlapping `p`'s bytes that were written (or hold data
/// from before the call) before `time`, latest first, each with the time
/// of its last such write (-1: before the call).
std::vector<std::pair<int64_t, int64_t>>
writersBefore(const Method &method, const Uses &uses,
              const std::vector<bool> &holdsDataAtStart, int64_t p,
              int64_t time) {
  const PlacedTensor &me = method.placed[p];
  std::vector<std::pair<int64_t, int64_t>> found; // (write time, tensor)
  for (size_t q = 0; q < method.placed.size(); ++q) {
    const PlacedTensor &other = method.placed[q];
    if (int64_t(q) == p || other.memoryId != me.memoryId || !other.bytes ||
        other.offset >= me.offset + me.bytes ||
        me.offset >= other.offset + other.bytes)
      continue;
    const std::vector<int64_t> &writes = uses.writes[q];
    auto before = std::lower_bound(writes.begin(), writes.end(), time);
    if (before != writes.begin())
      found.push_back({*std::prev(before), int64_t(q)});
    else if (holdsDataAtStart[q])
      found.push_back({-1, int64_t(q)});
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto &a, const auto &b) { return a.first > b.first; });
  return found;
}

/// A read-first tensor takes its bytes' content from the tensors that last
/// wrote them: joined with each whose share of those bytes no later
/// writer covered. Returns false when nothing wrote them (state).
bool joinProviders(const Method &method, const Uses &uses,
                   const std::vector<bool> &holdsDataAtStart, int64_t p,
                   int64_t time, Groups &groups) {
  const PlacedTensor &me = method.placed[p];
  std::vector<std::pair<int64_t, int64_t>> covered; // byte ranges
  bool any = false;
  for (const auto &writer :
       writersBefore(method, uses, holdsDataAtStart, p, time)) {
    int64_t q = writer.second;
    const PlacedTensor &other = method.placed[q];
    int64_t lo = std::max(me.offset, other.offset);
    int64_t hi = std::min(me.offset + me.bytes, other.offset + other.bytes);
    int64_t reach = lo;
    for (auto [a, b] : covered) // sorted by start
      if (a <= reach)
        reach = std::max(reach, b);
    if (reach >= hi)
      continue; // later writers overwrote its share
    groups.join(p, q);
    any = true;
    covered.push_back({lo, hi});
    std::sort(covered.begin(), covered.end());
  }
  return any;
}

bool bytesOverlap(const PlacedTensor &a, const PlacedTensor &b) {
  return a.memoryId == b.memoryId && a.bytes && b.bytes &&
         a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
}

/// Groups whose live ranges meet while their bytes overlap in the
/// program's own plan must be one storage (a sound plan shares live bytes
/// only between aliases): joined until none are left.
void joinOverlapping(const Method &method, const std::vector<int64_t> &start,
                     const std::vector<int64_t> &end,
                     const std::vector<int64_t> &checkStart,
                     const std::vector<int64_t> &checkEnd, Groups &groups,
                     std::vector<PlanConflict> &conflicts) {
  size_t n = method.placed.size();
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<int64_t> lo(n, INT64_MAX), hi(n, INT64_MIN);
    std::vector<std::vector<int64_t>> members(n);
    for (size_t p = 0; p < n; ++p) {
      int64_t g = groups.find(p);
      lo[g] = std::min(lo[g], start[p]);
      hi[g] = std::max(hi[g], end[p]);
      members[g].push_back(int64_t(p));
    }
    // Sweep: at each group's start, compare with the groups still live.
    std::vector<int64_t> order;
    for (size_t g = 0; g < n; ++g)
      if (!members[g].empty() && lo[g] < hi[g])
        order.push_back(int64_t(g));
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return lo[a] < lo[b]; });
    std::vector<int64_t> live;
    for (int64_t g : order) {
      llvm::erase_if(live, [&](int64_t h) { return hi[h] <= lo[g]; });
      for (int64_t h : live)
        for (int64_t a : members[g])
          for (int64_t b : members[h]) {
            if (!bytesOverlap(method.placed[a], method.placed[b]))
              continue;
            // Two tensors of different storages, live together on their
            // own: the plan overlaps them (unsound, unless an instruction
            // means it, which none declares).
            int64_t from = std::max(checkStart[a], checkStart[b]);
            if (from < std::min(checkEnd[a], checkEnd[b]))
              conflicts.push_back(
                  {std::min(a, b), std::max(a, b), from,
                   std::max(method.placed[a].offset, method.placed[b].offset),
                   std::min(method.placed[a].offset + method.placed[a].bytes,
                            method.placed[b].offset +
                                method.placed[b].bytes)});
            if (groups.join(a, b))
              changed = true;
          }
      live.push_back(g);
    }
  }
}

} // namespace

MethodMemory analyseMemory(const Method &method) {
  size_t n = method.placed.size();
  Uses uses = UseCollector(method).collect();
  MethodMemory memory;
  memory.steps = std::max<int64_t>(1, int64_t(method.instructions.size()));
  memory.controlFlow = uses.controlFlow;

  std::vector<bool> isInput(n), isOutput(n);
  for (int64_t value : method.inputs)
    for (int64_t tensor : method.tensorsOf[value])
      if (method.placedIndex[tensor] >= 0)
        isInput[method.placedIndex[tensor]] = true;
  for (int64_t value : method.outputs)
    for (int64_t tensor : method.tensorsOf[value])
      if (method.placedIndex[tensor] >= 0)
        isOutput[method.placedIndex[tensor]] = true;
  // Bytes that hold data when the call starts: inputs, and buffers with an
  // initial value or a name (mutable buffers).
  std::vector<bool> holdsDataAtStart(n), state(n);
  for (size_t p = 0; p < n; ++p) {
    const PlacedTensor &t = method.placed[p];
    holdsDataAtStart[p] = isInput[p] || t.initialData || !t.name.empty();
    state[p] = !isInput[p] && (t.initialData || !t.name.empty());
  }

  std::vector<bool> delegateOutput(n);
  Groups groups(n);
  for (auto [a, b] : uses.aliases)
    groups.join(a, b);
  // Values sharing one tensor record, or one placement record, are one
  // tensor's bytes.
  std::map<int64_t, int64_t> byRecord, byPlacement;
  for (size_t p = 0; p < n; ++p) {
    groups.join(int64_t(p),
                byRecord.emplace(method.placed[p].record, p).first->second);
    groups.join(int64_t(p), byPlacement.emplace(method.placed[p].placementRecord,
                                                p)
                                .first->second);
  }
  // A tensor no instruction writes first takes its bytes from whatever
  // wrote them last (it is a view the program placed over them); an
  // output nothing names, at the end of the call. Nothing: it is state.
  for (size_t p = 0; p < n; ++p) {
    const std::vector<int64_t> &touches = uses.touches[p];
    if (isInput[p] || state[p])
      continue;
    // A tensor of no bytes shares none: its own storage, its own range.
    if (method.placed[p].bytes == 0)
      continue;
    if (touches.empty() && !isOutput[p]) {
      state[p] = true; // named by no instruction: kept whole, to be safe
      continue;
    }
    if (!touches.empty() && !uses.writes[p].empty() &&
        uses.writes[p].front() == touches.front())
      continue;
    int64_t readAt = touches.empty() ? int64_t(method.instructions.size())
                                     : touches.front();
    if (!joinProviders(method, uses, holdsDataAtStart, int64_t(p), readAt,
                       groups)) {
      state[p] = true;
      // First named by a delegate call, holding nothing before it: most
      // likely one of the delegate's outputs (its arguments list inputs,
      // then outputs, and which are which the program does not say).
      delegateOutput[p] =
          !touches.empty() && !holdsDataAtStart[p] &&
          method.instructions[touches.front()].kind ==
              Instruction::Kind::Delegate;
    }
  }

  int64_t steps = memory.steps;
  std::vector<int64_t> start(n), end(n);
  for (size_t p = 0; p < n; ++p) {
    bool whole = state[p] || uses.controlFlow;
    const std::vector<int64_t> &touches = uses.touches[p];
    start[p] = whole || isInput[p] || touches.empty() ? 0 : touches.front();
    end[p] = whole || isOutput[p] ? steps
             : touches.empty()    ? 1
                                  : touches.back() + 1;
  }
  // A state's group is kept whole: extend before joining by overlap.
  std::vector<bool> ownState = state;
  for (size_t p = 0; p < n; ++p)
    if (state[p])
      state[groups.find(p)] = true;
  for (size_t p = 0; p < n; ++p)
    if (state[groups.find(p)])
      start[p] = 0, end[p] = steps;
  // The check's ranges: a delegate's likely output lives from that call on
  // (the plan keeps it live throughout, the safe side; a conflict is only
  // reported where the program cannot be read as sound).
  memory.start = start;
  memory.end = end;
  for (size_t p = 0; p < n; ++p)
    if (delegateOutput[p] && !uses.controlFlow) {
      memory.start[p] = uses.touches[p].front();
      memory.end[p] = isOutput[p] ? steps : uses.touches[p].back() + 1;
    }
  joinOverlapping(method, start, end, memory.start, memory.end, groups,
                  memory.conflicts);

  // One storage per group, in the order of their first member.
  memory.storageOf.assign(n, -1);
  for (size_t p = 0; p < n; ++p) {
    int64_t root = groups.find(p);
    if (memory.storageOf[root] < 0) {
      memory.storageOf[root] = int64_t(memory.storages.size());
      memory.storages.push_back(Storage{});
      memory.storages.back().start = INT64_MAX;
      memory.storages.back().delegateOutput = true; // until a member says no
      memory.storages.back().base = INT64_MAX;
    }
    memory.storageOf[p] = memory.storageOf[root];
    Storage &s = memory.storages[memory.storageOf[p]];
    const PlacedTensor &t = method.placed[p];
    s.memoryId = t.memoryId;
    s.members.push_back(int64_t(p));
    s.start = std::min(s.start, start[p]);
    s.end = std::max(s.end, end[p]);
    s.base = std::min(s.base, t.offset);
    s.input = s.input || isInput[p];
    s.output = s.output || isOutput[p];
    s.state = s.state || state[p];
    if (ownState[p] && !delegateOutput[p])
      s.delegateOutput = false; // a state of its own: not only a delegate's
    if (s.name.empty())
      s.name = t.name;
    if (!uses.writes[p].empty() &&
        (s.writer < 0 || uses.writes[p].front() < s.writer))
      s.writer = uses.writes[p].front();
  }
  for (Storage &s : memory.storages) {
    s.delegateOutput = s.delegateOutput && s.state;
    for (int64_t p : s.members)
      s.bytes = std::max(s.bytes, method.placed[p].offset +
                                      method.placed[p].bytes - s.base);
    if (s.state || s.input)
      s.writer = -1;
    if (s.state || memory.controlFlow)
      s.start = 0, s.end = steps;
  }
  return memory;
}

} // namespace coreai::pte
