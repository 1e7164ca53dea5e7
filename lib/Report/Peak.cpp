//===- Peak.cpp - The time with the most live bytes -----------------------===//
#include "coreai-plan/Report/Report.h"

#include <algorithm>
#include <map>

namespace coreai {

Peak findPeak(const BufferProblem &problem, const BinAssignment *binOf) {
  auto borrowed = [&](size_t i) {
    return binOf && !binOf->empty() && (*binOf)[i] >= 0;
  };
  std::map<int64_t, int64_t> delta;
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &b = problem.buffers[i];
    if (b.start >= b.end || borrowed(i))
      continue;
    delta[b.start] += paddedSize(b);
    delta[b.end] -= paddedSize(b);
  }
  Peak peak;
  int64_t live = 0;
  for (const auto &[time, change] : delta) {
    live += change;
    if (live > peak.liveBytes) {
      peak.liveBytes = live;
      peak.time = time;
    }
  }
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &b = problem.buffers[i];
    if (b.start <= peak.time && peak.time < b.end && !borrowed(i))
      peak.buffers.push_back(i);
  }
  std::stable_sort(peak.buffers.begin(), peak.buffers.end(),
                   [&](size_t a, size_t b) {
                     return problem.buffers[a].size > problem.buffers[b].size;
                   });
  return peak;
}

std::string escapeXml(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&apos;"; break;
    default:
      // XML 1.0 forbids most control characters even when escaped.
      if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n')
        out += c;
    }
  }
  return out;
}

} // namespace coreai
