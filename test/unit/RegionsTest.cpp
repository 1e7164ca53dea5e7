#include "coreai-plan/Report/Regions.h"
#include "coreai-plan/Report/Report.h"

#include <catch2/catch.hpp>

using namespace coreai;

namespace {

using Interval = std::pair<int64_t, int64_t>;

/// Four buffers: h0 [0,3) and h1 [2,5) in the heap, b0 [0,2) and b1 [1,3)
/// borrowed in output 7 (lent until op 4, 4096 bytes); output 7's own
/// value %o written at 4, then %o2 over it at 5; state 3 written at op 2;
/// output 9 lent but holding nothing.
PlannedEntry borrowingEntry() {
  PlannedEntry entry;
  entry.entry = "main";
  entry.chunk = 8;
  entry.problem.buffers = {{"h0", 0, 3, 100, 1},
                           {"b0", 0, 2, 64, 1},
                           {"h1", 2, 5, 50, 1},
                           {"b1", 1, 3, 32, 1}};
  entry.origins = {{"%h0", "torch.aten.mm", "m.py:1"},
                   {"%b0", "torch.aten.add", "m.py:2"},
                   {"%h1", "torch.aten.mm", "m.py:3"},
                   {"%b1", "torch.aten.mul", "m.py:4"}};
  entry.plan.offsets = {0, 0, 100, 64};
  entry.plan.heap = 150;
  entry.plan.lowerBound = 150;
  entry.outputBins = {{9, 16, 1}, {7, 4096, 4}};
  entry.binOf = {-1, 1, -1, 1};
  PlannedEntry::Placed own;
  own.origin = {"%o", "torch.aten.mm", "m.py:5"};
  own.size = 4096;
  own.index = 7;
  own.start = 4;
  own.end = 7;
  PlannedEntry::Placed over = own;
  over.origin.value = "%o2";
  over.start = 5;
  PlannedEntry::Placed state;
  state.origin = {"%s", "torch.aten.index_put", "m.py:6"};
  state.size = 1000;
  state.inState = true;
  state.index = 3;
  state.start = 2;
  state.end = 7;
  entry.placed = {over, state, own};
  return entry;
}

} // namespace

TEST_CASE("regions: the heap, outputs borrowed in, states written in place",
          "[report][regions]") {
  PlannedEntry entry = borrowingEntry();
  std::vector<Region> regions = regionsOf(entry);
  REQUIRE(regions.size() == 3);
  CHECK(regions[0].name() == "heap");
  CHECK(regions[0].used == 150);
  CHECK(regions[0].buffers == std::vector<size_t>{0, 2});
  CHECK(regions[1].name() == "output 7");
  CHECK(regions[1].bin == 1);
  CHECK(regions[1].capacity == 4096);
  CHECK(regions[1].used == 96); // b1 at 64 + 32: drawn at that scale
  CHECK(regions[1].availableUntil == 4);
  CHECK(regions[1].buffers == std::vector<size_t>{1, 3});
  CHECK(regions[1].placed == std::vector<size_t>{0, 2});
  CHECK(regions[2].name() == "state 3");
  CHECK(regions[2].used == 1000);
  CHECK(timeSpanOf(entry) == 7);

  // A chain in one storage: each value until the next one is written.
  CHECK(placedInterval(entry, regions[1], 2, 7) == Interval{4, 5});
  CHECK(placedInterval(entry, regions[1], 0, 7) == Interval{5, 7});
  // Without recorded times: from the output's first write to the end.
  PlannedEntry old = entry;
  for (PlannedEntry::Placed &p : old.placed)
    p.start = p.end = 0;
  CHECK(placedInterval(old, regions[1], 0, 9) == Interval{4, 9});
  CHECK(placedInterval(old, regions[2], 1, 9) == Interval{0, 9});

  PlannedBytes bytes = plannedBytesOf(entry);
  CHECK(bytes.heap == 150);
  CHECK(bytes.lent == 96);
  CHECK(bytes.state == 1000);
  CHECK(bytes.total == 1246);
}

TEST_CASE("regions: what is live at an op, region by region",
          "[report][regions]") {
  PlannedEntry entry = borrowingEntry();
  std::vector<Region> regions = regionsOf(entry);
  std::vector<LiveInRegion> live = liveAt(entry, regions, 2);
  REQUIRE(live.size() == 3);
  CHECK(live[0].bytes == 150);
  CHECK(live[0].buffers == std::vector<size_t>{0, 2}); // largest first
  CHECK(live[1].bytes == 32);
  CHECK(live[1].buffers == std::vector<size_t>{3});
  CHECK(live[2].placed == std::vector<size_t>{1});
  live = liveAt(entry, regions, 5);
  REQUIRE(live.size() == 2);
  CHECK(live[0].region == 1);
  CHECK(live[0].placed == std::vector<size_t>{0});
  CHECK(live[1].region == 2);
}

TEST_CASE("regions: bytes by op kind, heap, borrowed and in place",
          "[report][regions]") {
  std::vector<OpBytes> ops = bytesByOp(borrowingEntry());
  REQUIRE(ops.size() == 4);
  CHECK(ops[0].op == "torch.aten.mm");
  CHECK(ops[0].values == 4);
  CHECK(ops[0].heap == 150);
  CHECK(ops[0].inPlace == 8192);
  CHECK(ops[1].op == "torch.aten.index_put");
  CHECK(ops[2].op == "torch.aten.add");
  CHECK(ops[2].borrowed == 64);
  CHECK(ops[3].total() == 32);
}

namespace {

size_t countOf(const std::string &text, const std::string &needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1))
    ++count;
  return count;
}

} // namespace

TEST_CASE("the heap SVG draws each region on its own scale, one time axis",
          "[report][regions]") {
  std::string svg = renderHeapSvg(borrowingEntry());
  CHECK(countOf(svg, "<g class=\"region") == 3);
  CHECK(svg.find("data-region=\"output 7\"") != std::string::npos);
  CHECK(svg.find("data-region=\"state 3\"") != std::string::npos);
  CHECK(countOf(svg, "class=\"buf\"") == 4);
  CHECK(countOf(svg, "class=\"own\"") == 2);    // %o, then %o2 over it
  CHECK(countOf(svg, "class=\"placed\"") == 1); // the state's lane
  CHECK(svg.find("output 7: 2 buffers borrowed, using 96 B of its 4.0 KiB "
                 "(2.3%) until op 4") != std::string::npos);
  CHECK(svg.find("planned: heap 150 B + borrowed in outputs 96 B + states "
                 "written in place 1000 B = 1.2 KiB") != std::string::npos);
  CHECK(svg.find("32 bytes at offset 64 in output 7") != std::string::npos);
  // Without titles but with indices, for the page's script.
  HeapSvgOptions page;
  page.titles = false;
  page.indices = true;
  std::string bare = renderHeapSvg(borrowingEntry(), page);
  CHECK(countOf(bare, "<title>") == 1); // the gauge's
  CHECK(countOf(bare, "data-b=\"") == 4);
  CHECK(countOf(bare, "data-p=\"") == 3);
}

TEST_CASE("the heap SVG merges thousands of buffers too small to see",
          "[report][regions]") {
  PlannedEntry entry;
  entry.entry = "main";
  const int64_t count = 6000;
  for (int64_t i = 0; i < count; ++i) {
    entry.problem.buffers.push_back(
        {"b" + std::to_string(i), i, i + 1, 1, 1});
    entry.origins.push_back({"%" + std::to_string(i), "torch.aten.add", ""});
    entry.plan.offsets.push_back(0);
  }
  // One large buffer sets the scale: the others are a pixel or less.
  entry.problem.buffers.push_back({"big", 0, count, 100000, 1});
  entry.origins.push_back({"%big", "torch.aten.mm", ""});
  entry.plan.offsets.push_back(1);
  entry.plan.heap = entry.plan.lowerBound = 100001;
  std::string svg = renderHeapSvg(entry);
  CHECK(countOf(svg, "class=\"buf\"") == 1);
  size_t cells = countOf(svg, "class=\"agg\"");
  CHECK(cells > 0);
  CHECK(cells < 600);
}

TEST_CASE("explain says what the pictures show: planned bytes, what is live "
          "at the peak in every region",
          "[report][regions]") {
  std::string text = explainPlans({borrowingEntry()});
  CHECK(text.find("  planned bytes: heap 150 + borrowed in outputs 96 + "
                  "states written in place 1000 = 1246 (1.2 KiB)\n") !=
        std::string::npos);
  // The heap peaks at op 2 (h0 and h1); the lines are describeLiveAt's.
  std::string lines = "  live at op 2 in every region:\n";
  for (const std::string &line :
       describeLiveAt(borrowingEntry(), regionsOf(borrowingEntry()), 2))
    lines += "    " + line + "\n";
  CHECK(text.find(lines) != std::string::npos);
  CHECK(lines.find("output 7: 32 bytes (32 B) in 1 value: %b1 torch.aten.mul "
                   "(32)") != std::string::npos);
  CHECK(lines.find("states written in place: 1000 bytes (1000 B) in 1 value "
                   "of 1 storage") != std::string::npos);
}
