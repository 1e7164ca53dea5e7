//===- Replay.cpp - Replaying a planned function on a shadow heap ---------===//
#include "coreai-plan/Replay.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <optional>
#include <tuple>

namespace coreai::replay {
namespace {

constexpr int64_t unwritten = -1;

/// Which value last wrote each byte of one storage, as runs of bytes with
/// the same writer: a map from a run's first byte to its end and writer.
class Shadow {
public:
  explicit Shadow(int64_t size) {
    if (size > 0)
      runs[0] = {size, unwritten};
  }

  void write(int64_t begin, int64_t end, int64_t writer) {
    split(begin);
    split(end);
    runs.erase(runs.lower_bound(begin), runs.lower_bound(end));
    runs[begin] = {end, writer};
  }

  /// The first run in [begin, end) not written by `writer`, as (first
  /// byte, end, its writer).
  std::optional<std::tuple<int64_t, int64_t, int64_t>>
  firstForeign(int64_t begin, int64_t end, int64_t writer) const {
    auto it = runs.upper_bound(begin);
    if (it != runs.begin())
      --it;
    for (; it != runs.end() && it->first < end; ++it)
      if (it->second.writer != writer)
        return std::make_tuple(std::max(it->first, begin),
                               std::min(it->second.end, end),
                               it->second.writer);
    return std::nullopt;
  }

private:
  struct Run {
    int64_t end;
    int64_t writer;
  };

  /// Makes `at` the first byte of a run (no-op at a boundary or past the end).
  void split(int64_t at) {
    auto it = runs.upper_bound(at);
    if (it == runs.begin())
      return;
    --it;
    if (it->first == at || it->second.end <= at)
      return;
    Run tail = it->second;
    it->second.end = at;
    runs[at] = tail;
  }

  std::map<int64_t, Run> runs;
};

class Replayer {
public:
  explicit Replayer(const Program &program) : program(program) {
    for (const Storage &storage : program.storages)
      shadows.emplace_back(storage.size);
    writtenAt.assign(program.values.size(), -1);
  }

  llvm::Error run() {
    for (unsigned value : program.initial)
      if (llvm::Error error = write(value, -1))
        return error;
    for (size_t s = 0; s < program.steps.size(); ++s) {
      const Step &step = program.steps[s];
      for (unsigned value : step.reads)
        if (llvm::Error error = read(value, s))
          return error;
      for (unsigned value : step.mutates)
        if (llvm::Error error = mutate(value, s))
          return error;
      for (unsigned value : step.writes)
        if (llvm::Error error = overwritesRead(step, value, s))
          return error;
      if (llvm::Error error = resultsOverlap(step, s))
        return error;
      for (unsigned value : step.scratch)
        if (llvm::Error error = scratchOverlaps(step, value, s))
          return error;
      for (unsigned value : step.scratch)
        if (llvm::Error error = write(value, s))
          return error;
      for (unsigned value : step.writes)
        if (llvm::Error error = write(value, s))
          return error;
    }
    return llvm::Error::success();
  }

private:
  std::string describeStep(int64_t s) const {
    if (s < 0)
      return "function entry";
    const Step &step = program.steps[s];
    return llvm::formatv("step {0} ('{1}' at {2})", s, step.op, step.location)
        .str();
  }

  std::string describe(const Location &at) const {
    return llvm::formatv("{0} bytes [{1}, {2})",
                         program.storages[at.storage].name, at.offset,
                         at.offset + at.size)
        .str();
  }

  llvm::Error write(unsigned v, int64_t s) {
    const Value &value = program.values[v];
    const Location &at = value.location;
    if (at.size == 0)
      return llvm::Error::success();
    const Storage &storage = program.storages[at.storage];
    if (at.offset < 0 || at.size < 0 || at.offset > storage.size - at.size)
      return llvm::createStringError(llvm::formatv(
          "{0} writes {1} at {2}, outside {3} of {4} bytes", describeStep(s),
          value.name, describe(at), storage.name, storage.size));
    if (s >= 0 && !storage.writable)
      return llvm::createStringError(
          llvm::formatv("{0} writes {1} into {2}, which the caller does "
                        "not let the function change",
                        describeStep(s), value.name, storage.name));
    shadows[at.storage].write(at.offset, at.offset + at.size, v);
    writtenAt[v] = s;
    return llvm::Error::success();
  }

  /// A write into an operand under its own name: the bytes stay that
  /// value's, but the storage must be one the function may change.
  llvm::Error mutate(unsigned v, int64_t s) const {
    const Value &value = program.values[v];
    const Storage &storage = program.storages[value.location.storage];
    if (value.location.size == 0 || storage.writable)
      return llvm::Error::success();
    return llvm::createStringError(
        llvm::formatv("{0} writes into {1} ({2}), which the caller does "
                      "not let the function change",
                      describeStep(s), value.name, describe(value.location)));
  }

  /// A result written over bytes of a value the same step reads. The one
  /// sound case is the documented in place: an overwritable operand whose
  /// bytes the result covers exactly. A result shifted over it (in the
  /// heap, an output or a state) or over any other operand fails.
  llvm::Error overwritesRead(const Step &step, unsigned w, int64_t s) const {
    const Location &at = program.values[w].location;
    for (unsigned r : step.reads) {
      const Location &read = program.values[r].location;
      std::optional<std::pair<int64_t, int64_t>> shared = sharedBytes(at, read);
      if (!shared)
        continue;
      bool inPlace = llvm::is_contained(step.overwritable, r) ||
                     llvm::is_contained(step.overwritableBy,
                                        std::make_pair(w, r));
      if (inPlace && read.offset == at.offset && read.size == at.size)
        continue;
      std::string why =
          inPlace ? llvm::formatv("in place, a result must lie exactly on "
                                  "its operand's bytes ({0}), not shifted "
                                  "over them",
                                  describe(read))
                        .str()
                  : std::string("the op does not compute its result element "
                                "by element from that operand");
      return llvm::createStringError(
          llvm::formatv("{0} writes {1} ({2}) over bytes [{3}, {4}) of "
                        "{5}, which it reads: {6}",
                        describeStep(s), program.values[w].name, describe(at),
                        shared->first, shared->second, program.values[r].name,
                        why));
    }
    return llvm::Error::success();
  }

  /// Two results of one op (a group of `Step::together`) sharing bytes:
  /// the kernel writes both, so one clobbers the other.
  llvm::Error resultsOverlap(const Step &step, int64_t s) const {
    for (const std::vector<unsigned> &group : step.together)
      for (size_t i = 0; i < group.size(); ++i)
        for (size_t j = i + 1; j < group.size(); ++j) {
          const Value &a = program.values[group[i]];
          const Value &b = program.values[group[j]];
          auto shared = sharedBytes(a.location, b.location);
          if (!shared)
            continue;
          return llvm::createStringError(llvm::formatv(
              "{0} writes {1} ({2}) and {3} ({4}), which share bytes [{5}, "
              "{6}): two results of one op may not overlap",
              describeStep(s), a.name, describe(a.location), b.name,
              describe(b.location), shared->first, shared->second));
        }
    return llvm::Error::success();
  }

  /// A workspace sharing bytes with a value its op reads or writes: the
  /// kernel uses all three at once.
  llvm::Error scratchOverlaps(const Step &step, unsigned w, int64_t s) const {
    const Value &scratch = program.values[w];
    for (bool reads : {true, false})
      for (unsigned v : reads ? step.reads : step.writes) {
        const Value &value = program.values[v];
        auto shared = sharedBytes(scratch.location, value.location);
        if (!shared)
          continue;
        return llvm::createStringError(llvm::formatv(
            "{0} uses {1} ({2}) over bytes [{3}, {4}) of {5} ({6}), which it "
            "{7}: a kernel's workspace may share no byte with its operands "
            "or results",
            describeStep(s), scratch.name, describe(scratch.location),
            shared->first, shared->second, value.name,
            describe(value.location), reads ? "reads" : "writes"));
      }
    for (unsigned other : step.scratch)
      if (other < w && sharedBytes(scratch.location,
                                   program.values[other].location))
        return llvm::createStringError(llvm::formatv(
            "{0} uses {1} and {2}, which share bytes", describeStep(s),
            program.values[other].name, scratch.name));
    return llvm::Error::success();
  }

  /// The bytes two locations share, if any.
  static std::optional<std::pair<int64_t, int64_t>>
  sharedBytes(const Location &a, const Location &b) {
    if (a.storage != b.storage || a.size <= 0 || b.size <= 0)
      return std::nullopt;
    int64_t begin = std::max(a.offset, b.offset);
    int64_t end = std::min(a.offset + a.size, b.offset + b.size);
    if (begin >= end)
      return std::nullopt;
    return std::make_pair(begin, end);
  }

  llvm::Error read(unsigned v, int64_t s) const {
    const Value &value = program.values[v];
    const Location &at = value.location;
    if (at.size == 0)
      return llvm::Error::success();
    auto foreign =
        shadows[at.storage].firstForeign(at.offset, at.offset + at.size,
                                         value.writer);
    if (!foreign)
      return llvm::Error::success();
    auto [begin, end, writer] = *foreign;
    std::string what =
        writer == unwritten
            ? std::string("were never written")
            : llvm::formatv("hold {0}, written at {1}",
                            program.values[writer].name,
                            describeStep(writtenAt[writer]))
                  .str();
    return llvm::createStringError(llvm::formatv(
        "{0} reads {1} ({2}), but bytes [{3}, {4}) {5}", describeStep(s),
        value.name, describe(at), begin, end, what));
  }

  const Program &program;
  std::vector<Shadow> shadows;
  std::vector<int64_t> writtenAt;
};

} // namespace

llvm::Error replay(const Program &program) {
  for (const Value &value : program.values)
    if (value.location.storage >= program.storages.size() ||
        value.writer >= program.values.size())
      return llvm::createStringError("malformed replay program: " + value.name +
                                     " names a storage or writer that does "
                                     "not exist");
  for (const Step &step : program.steps) {
    std::vector<const std::vector<unsigned> *> lists = {
        &step.reads, &step.writes, &step.overwritable, &step.mutates,
        &step.scratch};
    for (const std::vector<unsigned> &group : step.together)
      lists.push_back(&group);
    std::vector<unsigned> paired;
    for (auto [result, read] : step.overwritableBy)
      paired.insert(paired.end(), {result, read});
    lists.push_back(&paired);
    for (const std::vector<unsigned> *list : lists)
      for (unsigned v : *list)
        if (v >= program.values.size())
          return llvm::createStringError("malformed replay program: step '" +
                                         step.op +
                                         "' names a value that does not exist");
  }
  return Replayer(program).run();
}

} // namespace coreai::replay
