// The bundle page, the growth chart and a program's page as text: what the
// browser tests (test/lit/report/browser*.test, test/lit/pte/browser.test)
// cannot pin to a number.
#include "coreai-plan/Report/ProgramPage.h"
#include "coreai-plan/Report/Report.h"

#include <catch2/catch.hpp>

#include <regex>
#include <string>

using namespace coreai;

namespace {

PlannedEntry oneBuffer(int64_t chunk) {
  PlannedEntry entry;
  entry.entry = "main";
  entry.chunk = chunk;
  entry.problem.buffers = {{"a", 0, 2, 100 * chunk, 1}};
  entry.origins = {{"%1", "torch.aten.mm", "model.py:3"}};
  entry.plan.offsets = {0};
  entry.plan.heap = entry.plan.lowerBound = 100 * chunk;
  entry.plan.algorithm = "best";
  return entry;
}

/// The x of each heap point, by S.
std::map<int64_t, double> heapPoints(const std::string &svg) {
  std::map<int64_t, double> points;
  std::regex point("class=\"point heap-point\" cx=\"([0-9.]+)\" cy=\"[0-9.]+\" "
                   "r=\"3.5\" data-s=\"([0-9]+)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), point);
       it != std::sregex_iterator(); ++it)
    points[std::stoll((*it)[2])] = std::stod((*it)[1]);
  return points;
}

ParametricPlan linearPiece(int64_t lo, int64_t hi) {
  ParametricBuffer buffer;
  buffer.id = "a";
  buffer.start = 0;
  buffer.end = 2;
  buffer.size.coefficients = {0, 100};
  llvm::Expected<ParametricPlan> plan =
      buildParametricPlan(lo, hi, {buffer}, {0});
  REQUIRE(bool(plan));
  return std::move(*plan);
}

} // namespace

TEST_CASE("the growth chart places S proportionally", "[report][page]") {
  PlannedEntry s1 = oneBuffer(1), s16 = oneBuffer(16), s64 = oneBuffer(64);
  std::string svg = renderGrowthChart({&s1, &s16, &s64}, {});
  std::map<int64_t, double> x = heapPoints(svg);
  REQUIRE(x.size() == 3);
  double perS = (x[64] - x[1]) / 63;
  CHECK(perS > 1);
  CHECK(x[16] - x[1] == Approx(15 * perS).margin(0.1));
  // S = 0 is the left edge: S=1 is one step in, not at the edge.
  CHECK(x[1] == Approx(80 + perS).margin(0.1));
}

TEST_CASE("the growth chart draws parametric pieces and their cuts",
          "[report][page]") {
  ParametricPlan low = linearPiece(1, 8), high = linearPiece(9, 64);
  ParametricPiece a{"main", &low, "s0", ""}, b{"main", &high, "s0", ""};
  PlannedEntry s64 = oneBuffer(64);
  std::string svg = renderGrowthChart({&s64}, {&a, &b});
  CHECK(svg.find("cut 8|9") != std::string::npos);
  std::regex polyline("<polyline class=\"piece-heap\" points=\"([^\"]*)\"");
  std::smatch match;
  REQUIRE(std::regex_search(svg, match, polyline));
  // Every S of the first piece, one point each.
  std::string points = match[1];
  CHECK(std::count(points.begin(), points.end(), ',') == 8);
}

TEST_CASE("the bundle page keeps its data and pictures inert until shown",
          "[report][page]") {
  PlannedEntry small = oneBuffer(1), large = oneBuffer(64);
  large.origins[0].value = "%</script><b>";
  std::string html = renderBundleHtml({small, large}, "page");
  // One tab per S; the largest S shown first, the others hidden.
  std::regex tab("<button class=\"tab( active)?\" data-plan=\"([0-9])\">");
  std::vector<std::string> active;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), tab);
       it != std::sregex_iterator(); ++it)
    active.push_back((*it)[1]);
  CHECK(active == std::vector<std::string>{"", " active"});
  CHECK(html.find("<div class=\"plan\" id=\"plan-0\" data-plan=\"0\" "
                  "data-entry=\"main\" data-s=\"1\" hidden>") !=
        std::string::npos);
  // A name cannot end the data's <script> element.
  size_t data = html.find("id=\"plan-data\">");
  REQUIRE(data != std::string::npos);
  size_t end = html.find("</script>", data);
  CHECK(html.substr(data, end - data).find("\\u003c/script>\\u003cb>") !=
        std::string::npos);
  // No network: nothing is fetched from anywhere.
  CHECK_FALSE(std::regex_search(html, std::regex("(src|href)=")));
  CHECK_FALSE(std::regex_search(
      html, std::regex("https?://(?!www\\.w3\\.org/2000/svg)")));
}

TEST_CASE("a program's page shows its arenas and state, nothing of S",
          "[report][page]") {
  // A cache (state, live throughout) and a tensor live at instruction 1:
  // exported with a gap between them, re-planned without one.
  ProgramArena arena;
  arena.method = "decode";
  arena.instructions = 4;
  arena.tensors = 2;
  PlannedEntry &before = arena.before;
  before.entry = "decode";
  before.problem.buffers = {{"v0", 0, 4, 64, 16}, {"v1", 1, 2, 64, 16}};
  before.origins = {{"k</script>", "mutable buffer", ""},
                    {"v1", "aten::mm.out", "model.py:3"}};
  before.plan.offsets = {128, 0};
  before.plan.heap = 192;
  before.plan.lowerBound = 128;
  arena.after = before;
  arena.after.plan.offsets = {0, 64};
  arena.after.plan.heap = 128;
  arena.arenaBefore = 192;
  arena.arenaAfter = 128;
  arena.state = {true, false};
  ProgramPage page;
  page.file = "m.pte";
  page.replanCommand = "coreai-plan plan m.pte";
  page.arenas = {arena};
  std::string html = renderProgramHtml(page);
  // What the page says: after its style, before its script.
  size_t body = html.find("</style>");
  REQUIRE(body != std::string::npos);
  std::string shown = html.substr(body, html.find("<script") - body);
  // Nothing of chunk sizes or bundles.
  CHECK(shown.find("S=") == std::string::npos);
  CHECK_FALSE(std::regex_search(shown, std::regex("[Bb]undle")));
  CHECK(shown.find("class=\"growth") == std::string::npos);
  // Both plans, each with the arena's size and its lower bound.
  CHECK(std::regex_search(shown, std::regex("class=\"arena-size\" "
                                            "data-bytes=\"192\"")));
  CHECK(std::regex_search(shown, std::regex("class=\"arena-size\" "
                                            "data-bytes=\"128\"")));
  std::regex bound("class=\"lower-bound\" data-bytes=\"128\"");
  CHECK(std::distance(std::sregex_iterator(shown.begin(), shown.end(), bound),
                      std::sregex_iterator()) == 2);
  CHECK(shown.find("saved 64 B") != std::string::npos);
  // The cache hatched in both plans and listed as state, its name escaped.
  std::regex hatched("<rect class=\"buf state\" data-b=\"0\"");
  CHECK(std::distance(
            std::sregex_iterator(shown.begin(), shown.end(), hatched),
            std::sregex_iterator()) == 2);
  CHECK(shown.find("state: 1 mutable buffer, 64 B (64 bytes)") !=
        std::string::npos);
  CHECK(shown.find("k&lt;/script&gt;") != std::string::npos);
  size_t data = html.find("id=\"plan-data\">");
  REQUIRE(data != std::string::npos);
  CHECK(html.substr(data, html.find("</script>", data) - data)
            .find("k\\u003c/script>") != std::string::npos);
  CHECK_FALSE(std::regex_search(html, std::regex("(src|href)=")));
}
