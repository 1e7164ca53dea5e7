//===- Regions.cpp - Where an entry's bytes are, region by region ---------===//
#include "coreai-plan/Report/Regions.h"

#include "Format.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>

namespace coreai {

std::string Region::name() const {
  switch (kind) {
  case Kind::Heap:
    return "heap";
  case Kind::Output:
    return "output " + std::to_string(index);
  case Kind::State:
    return "state " + std::to_string(index);
  }
  return "";
}

std::vector<Region> regionsOf(const PlannedEntry &entry) {
  Region heap;
  heap.capacity = entry.plan.heap;
  heap.used = std::max(entry.plan.heap, entry.plan.lowerBound);
  // Outputs and states by number, so the order does not depend on the
  // order buffers or placed values were recorded in.
  std::map<int64_t, Region> outputs, states;
  for (size_t bin = 0; bin < entry.outputBins.size(); ++bin) {
    const OutputBin &lent = entry.outputBins[bin];
    Region &output = outputs[lent.output];
    output.kind = Region::Kind::Output;
    output.index = lent.output;
    output.bin = int64_t(bin);
    output.capacity = lent.capacity;
    output.availableUntil = lent.availableUntil;
  }
  for (size_t b = 0; b < entry.problem.buffers.size(); ++b) {
    int64_t bin = entry.binOf.empty() ? -1 : entry.binOf[b];
    const Buffer &buffer = entry.problem.buffers[b];
    if (bin < 0) {
      heap.buffers.push_back(b);
      continue;
    }
    Region &output = outputs[entry.outputBins[bin].output];
    output.buffers.push_back(b);
    output.used = std::max(output.used, entry.plan.offsets[b] + buffer.size);
  }
  for (size_t p = 0; p < entry.placed.size(); ++p) {
    const PlannedEntry::Placed &value = entry.placed[p];
    Region &region = (value.inState ? states : outputs)[value.index];
    region.kind = value.inState ? Region::Kind::State : Region::Kind::Output;
    region.index = value.index;
    region.placed.push_back(p);
    if (region.bin < 0)
      region.capacity = std::max(region.capacity, value.size);
  }
  std::vector<Region> regions = {std::move(heap)};
  for (bool borrowing : {true, false})
    for (auto &[index, output] : outputs)
      if (output.borrows() == borrowing && (borrowing || !output.placed.empty()))
        regions.push_back(output);
  for (auto &[index, state] : states)
    regions.push_back(std::move(state));
  for (Region &region : regions)
    if (region.kind != Region::Kind::Heap && !region.borrows())
      region.used = region.capacity;
  return regions;
}

int64_t timeSpanOf(const PlannedEntry &entry) {
  int64_t span = 1;
  for (const Buffer &b : entry.problem.buffers)
    span = std::max(span, b.end);
  for (const OutputBin &bin : entry.outputBins)
    span = std::max(span, bin.availableUntil + 1);
  for (const PlannedEntry::Placed &p : entry.placed)
    span = std::max(span, p.end);
  return span;
}

std::pair<int64_t, int64_t> placedInterval(const PlannedEntry &entry,
                                           const Region &region, size_t p,
                                           int64_t timeSpan) {
  const PlannedEntry::Placed &value = entry.placed[p];
  if (value.end <= value.start) // recorded before times were
    return {region.availableUntil >= 0 ? region.availableUntil : 0, timeSpan};
  int64_t end = value.end;
  for (size_t other : region.placed) {
    const PlannedEntry::Placed &next = entry.placed[other];
    if (next.start > value.start && next.start < end)
      end = next.start;
  }
  return {value.start, end};
}

PlannedBytes plannedBytesOf(const PlannedEntry &entry) {
  PlannedBytes bytes;
  bytes.heap = entry.plan.heap;
  for (const Region &region : regionsOf(entry)) {
    if (region.borrows())
      bytes.lent += region.used;
    else if (region.kind == Region::Kind::State)
      bytes.state += region.used;
  }
  bytes.total = bytes.heap + bytes.lent + bytes.state;
  return bytes;
}

std::vector<LiveInRegion> liveAt(const PlannedEntry &entry,
                                 const std::vector<Region> &regions,
                                 int64_t time) {
  std::vector<LiveInRegion> live;
  int64_t span = timeSpanOf(entry);
  for (size_t r = 0; r < regions.size(); ++r) {
    LiveInRegion here;
    here.region = r;
    for (size_t b : regions[r].buffers) {
      const Buffer &buffer = entry.problem.buffers[b];
      if (buffer.start <= time && time < buffer.end) {
        here.buffers.push_back(b);
        here.bytes += buffer.size;
      }
    }
    for (size_t p : regions[r].placed) {
      auto [start, end] = placedInterval(entry, regions[r], p, span);
      if (start <= time && time < end) {
        here.placed.push_back(p);
        here.bytes += entry.placed[p].size;
      }
    }
    std::stable_sort(here.buffers.begin(), here.buffers.end(),
                     [&](size_t a, size_t b) {
                       return entry.problem.buffers[a].size >
                              entry.problem.buffers[b].size;
                     });
    if (!here.buffers.empty() || !here.placed.empty())
      live.push_back(std::move(here));
  }
  return live;
}

namespace {

constexpr size_t namedPerLine = 3;

std::string plural(size_t count, llvm::StringRef word) {
  return std::to_string(count) + " " + word.str() + (count == 1 ? "" : "s");
}

/// "heap: 196608 bytes (192.0 KiB) in 1 buffer: %5316 torch.aten.mm
/// (196608)", the largest values named.
std::string describeRegion(const PlannedEntry &entry, const Region &region,
                           const LiveInRegion &live) {
  std::vector<std::pair<const BufferOrigin *, int64_t>> values;
  for (size_t b : live.buffers)
    values.push_back({b < entry.origins.size() ? &entry.origins[b] : nullptr,
                      entry.problem.buffers[b].size});
  for (size_t p : live.placed)
    values.push_back({&entry.placed[p].origin, entry.placed[p].size});
  std::string line = llvm::formatv("{0}: {1} bytes ({2}) in {3}",
                                   region.name(), live.bytes,
                                   report::humanBytes(live.bytes),
                                   plural(values.size(), "value"));
  for (size_t i = 0; i < std::min(values.size(), namedPerLine); ++i) {
    const BufferOrigin *origin = values[i].first;
    line += llvm::formatv("{0} {1} {2} ({3})", i == 0 ? ":" : ",",
                          origin ? origin->value : "?",
                          origin ? origin->op : "", values[i].second);
  }
  if (values.size() > namedPerLine)
    line += llvm::formatv(", and {0} more", values.size() - namedPerLine);
  return line;
}

} // namespace

std::vector<std::string> describeLiveAt(const PlannedEntry &entry,
                                        const std::vector<Region> &regions,
                                        int64_t time) {
  std::vector<std::string> lines;
  // Storages written in place, summed by kind: there are dozens.
  int64_t count[2] = {0, 0}, bytes[2] = {0, 0}, storages[2] = {0, 0};
  for (const LiveInRegion &live : liveAt(entry, regions, time)) {
    const Region &region = regions[live.region];
    if (region.kind == Region::Kind::Heap || region.borrows()) {
      lines.push_back(describeRegion(entry, region, live));
      continue;
    }
    int kind = region.kind == Region::Kind::State ? 1 : 0;
    count[kind] += int64_t(live.placed.size());
    bytes[kind] += live.bytes;
    ++storages[kind];
  }
  const char *names[2] = {"outputs built in place", "states written in place"};
  for (int kind : {0, 1})
    if (storages[kind] > 0)
      lines.push_back(llvm::formatv("{0}: {1} bytes ({2}) in {3} of {4}",
                                    names[kind], bytes[kind],
                                    report::humanBytes(bytes[kind]),
                                    plural(count[kind], "value"),
                                    plural(storages[kind], "storage")));
  return lines;
}

std::vector<OpBytes> bytesByOp(const PlannedEntry &entry) {
  llvm::StringMap<OpBytes> byOp;
  for (size_t b = 0; b < entry.problem.buffers.size(); ++b) {
    OpBytes &item =
        byOp[b < entry.origins.size() ? entry.origins[b].op : std::string()];
    ++item.values;
    (entry.borrowedOutput(b) < 0 ? item.heap : item.borrowed) +=
        entry.problem.buffers[b].size;
  }
  for (const PlannedEntry::Placed &p : entry.placed) {
    OpBytes &item = byOp[p.origin.op];
    ++item.values;
    item.inPlace += p.size;
  }
  std::vector<OpBytes> ops;
  for (const auto &item : byOp) {
    ops.push_back(item.getValue());
    ops.back().op = item.getKey().str();
  }
  std::sort(ops.begin(), ops.end(), [](const OpBytes &a, const OpBytes &b) {
    return a.total() != b.total() ? a.total() > b.total() : a.op < b.op;
  });
  return ops;
}

} // namespace coreai
