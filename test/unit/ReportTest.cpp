#include "coreai-plan/Report/Report.h"

#include <catch2/catch.hpp>

#include <string>

using namespace coreai;

namespace {

size_t countOf(const std::string &text, const std::string &needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1))
    ++count;
  return count;
}

/// a [0,2) 100 B, b [1,3) 300 B, c [2,4) 200 B: peak at t=2 with b and c.
PlannedEntry threeBuffers(int64_t chunk, int64_t scale) {
  PlannedEntry entry;
  entry.entry = "prefill";
  entry.chunk = chunk;
  entry.problem.buffers = {{"a", 0, 2, 100 * scale, 1},
                           {"b", 1, 3, 300 * scale, 1},
                           {"c", 2, 4, 200 * scale, 1}};
  entry.origins = {{"%1", "torch.aten.mm", "model.mlir:3:5"},
                   {"%2", "torch.aten.div", "model.mlir:4:5"},
                   {"%3", "torch.aten.tanh<&>", "model.mlir:5:5"}};
  entry.plan.offsets = {0, 200 * scale, 0};
  entry.plan.heap = 500 * scale;
  entry.plan.lowerBound = 500 * scale;
  entry.plan.algorithm = "best";
  return entry;
}

} // namespace

TEST_CASE("findPeak returns the busiest time and its buffers, largest first",
          "[report]") {
  Peak peak = findPeak(threeBuffers(1, 1).problem);
  CHECK(peak.time == 2);
  CHECK(peak.liveBytes == 500);
  REQUIRE(peak.buffers.size() == 2);
  CHECK(peak.buffers[0] == 1);
  CHECK(peak.buffers[1] == 2);
}

TEST_CASE("heap SVG has one rectangle per buffer and escapes titles",
          "[report]") {
  std::string svg = renderHeapSvg(threeBuffers(32, 1));
  CHECK(countOf(svg, "class=\"buf\"") == 3);
  CHECK(countOf(svg, "class=\"heap-total\"") == 1);
  CHECK(countOf(svg, "class=\"lower-bound\"") == 1);
  CHECK(svg.find("peak at op 2") != std::string::npos);
  CHECK(svg.find("tanh&lt;&amp;&gt;") != std::string::npos);
  CHECK(svg.find("tanh<&>") == std::string::npos);
}

TEST_CASE("bundle page groups entry points and reports the bundle heap",
          "[report]") {
  PlannedEntry decode = threeBuffers(1, 1);
  decode.entry = "main";
  std::vector<PlannedEntry> entries = {decode, threeBuffers(16, 16),
                                       threeBuffers(32, 32)};
  std::string html = renderBundleHtml(entries, "tiny <bundle>");
  CHECK(countOf(html, "<svg") == 2 + 3); // two curves, three heaps
  CHECK(countOf(html, "class=\"entry\"") == 2);
  CHECK(html.find("<b>16000 bytes</b>") != std::string::npos);
  CHECK(html.find("tiny &lt;bundle&gt;") != std::string::npos);
}

TEST_CASE("explain names the peak op, its buffers and their growth with S",
          "[report]") {
  std::vector<PlannedEntry> entries = {threeBuffers(1, 1),
                                       threeBuffers(32, 32)};
  std::string text = explainPlans(entries);
  CHECK(text.find("peak at op 2 (torch.aten.tanh<&>, model.mlir:5:5): 500 "
                  "bytes live in 2 buffers") != std::string::npos);
  CHECK(text.find("300 -> 9600 bytes (x32.0)") != std::string::npos);
  CHECK(text.find("2 of the 2 buffers live at the S=32 peak scale with S") !=
        std::string::npos);
  CHECK(text.find("fragmentation: 0 bytes") != std::string::npos);
}

namespace {

/// threeBuffers() with two kernels: kernel 4 writes c (born at the peak)
/// and keeps three values inside, kernel 9 writes a and keeps none.
PlannedEntry withKernels() {
  PlannedEntry entry = threeBuffers(1, 1);
  entry.kernelSource = "target";
  PlannedEntry::Kernel peak;
  peak.id = 4;
  peak.ops = 4;
  peak.firstOp = "torch.aten.mul";
  peak.lastOp = "torch.aten.tanh<&>";
  peak.location = "model.mlir:5:5";
  peak.fused = {{"%20", "torch.aten.mul", "model.mlir:4:9"},
                {"%21", "torch.aten.exp", "model.mlir:4:10"},
                {"%22", "torch.aten.add", "model.mlir:4:11"}};
  peak.fusedSizes = {64, 256, 128};
  peak.fusedBytes = 448;
  peak.writes = {2};
  PlannedEntry::Kernel other;
  other.id = 9;
  other.ops = 2;
  other.writes = {0};
  entry.kernels = {peak, other};
  return entry;
}

} // namespace

TEST_CASE("explain says what kernels keep out of memory and the peak op's "
          "kernel", "[report][kernels]") {
  std::string text = explainPlans({withKernels()});
  CHECK(text.find("  fused: 2 kernels keep 3 values (448 bytes) out of "
                  "memory (formed by the target's fusion rules)\n") !=
        std::string::npos);
  size_t at = text.find("the peak op is in kernel 4: 4 ops, torch.aten.mul .. "
                        "torch.aten.tanh<&> (at model.mlir:5:5), keeping 3 "
                        "values (448 bytes) inside\n");
  REQUIRE(at != std::string::npos);
  // Largest first.
  size_t exp = text.find("256  %21", at), add = text.find("128  %22", at),
         mul = text.find("64  %20", at);
  CHECK(exp < add);
  CHECK(add < mul);
  CHECK(mul != std::string::npos);
  // Without kernels, not a word about them.
  CHECK(explainPlans({threeBuffers(1, 1)}).find("kernel") ==
        std::string::npos);
  // A peak op in no kernel is said to be.
  PlannedEntry outside = withKernels();
  outside.kernels[0].writes = {1};
  CHECK(explainPlans({outside}).find("the peak op is in no kernel") !=
        std::string::npos);
}

TEST_CASE("the heap SVG counts what kernels keep out of memory",
          "[report][kernels]") {
  PlannedEntry entry = withKernels();
  entry.kernels[1].fused = {{"%30", "torch.aten.neg", ""}};
  entry.kernels[1].fusedSizes = {1};
  entry.kernels[1].fusedBytes = 1;
  CHECK(renderHeapSvg(entry).find(">2 kernels keep 4 values (449 bytes) out "
                                  "of memory</text>") != std::string::npos);
  CHECK(renderHeapSvg(threeBuffers(1, 1)).find("kernels keep") ==
        std::string::npos);
  entry.kernels.pop_back();
  CHECK(kernelSummary(entry) ==
        "1 kernel keeps 3 values (448 bytes) out of memory");
}
