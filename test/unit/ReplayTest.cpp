//===- ReplayTest.cpp - The shadow-heap replay catches clobbered reads ----===//
#include "coreai-plan/Replay.h"
#include "PlanChecks.h"

#include <catch2/catch.hpp>

using namespace coreai::replay;

namespace {

/// A heap of 64 bytes and one read-only argument of 16 bytes (value 0).
struct Builder {
  Program program;

  Builder() {
    program.storages = {{"heap", 64, true}, {"argument 0 (w)", 16, false}};
    add("%arg0", 1, 0, 16);
    program.initial = {0};
  }

  /// An owner value at [offset, offset + size) of `storage`.
  unsigned add(std::string name, unsigned storage, int64_t offset,
               int64_t size) {
    unsigned id = program.values.size();
    program.values.push_back({std::move(name), {storage, offset, size}, id});
    return id;
  }
  /// A view of `source`: same bytes, same writer.
  unsigned view(std::string name, unsigned source) {
    Value copy = program.values[source];
    copy.name = std::move(name);
    program.values.push_back(copy);
    return program.values.size() - 1;
  }
  /// A step of an op that may write its results over any operand (an
  /// elementwise op: every read is overwritable).
  void step(std::string op, std::vector<unsigned> reads,
            std::vector<unsigned> writes) {
    std::vector<unsigned> overwritable = reads;
    program.steps.push_back({std::move(op), "f.py:1:1", std::move(reads),
                             std::move(writes), std::move(overwritable),
                             {}, {}, {}, {}});
  }
  /// A step whose results may overwrite none of its reads (a matmul).
  void opaqueStep(std::string op, std::vector<unsigned> reads,
                  std::vector<unsigned> writes) {
    program.steps.push_back({std::move(op), "f.py:1:1", std::move(reads),
                             std::move(writes), {}, {}, {}, {}, {}});
  }
  std::string error() const { return coreai::violationOf(replay(program)); }
};

/// The replay's error for one step `op` that reads the argument and writes
/// %0 at [offset, offset + size) of `storage` (the argument's made
/// `writable` or not).
std::string errorWriting(std::string op, unsigned storage, int64_t offset,
                         int64_t size, bool writable = false) {
  Builder b;
  b.program.storages[1].writable = writable;
  unsigned x = b.add("%0", storage, offset, size);
  b.step(std::move(op), {0}, {x});
  return b.error();
}

} // namespace

TEST_CASE("an in-place chain reads each value before the next overwrites it",
          "[replay]") {
  Builder b;
  unsigned x = b.add("%0", 0, 0, 16);
  unsigned y = b.add("%1", 0, 0, 16); // written over %0
  unsigned z = b.add("%2", 0, 16, 16);
  b.step("neg", {0}, {x});
  b.step("tanh", {x}, {y});
  b.step("mul", {y, 0}, {z});
  CHECK(b.error().empty());
}

TEST_CASE("a read of a value overwritten since fails and names the writer",
          "[replay]") {
  Builder b;
  unsigned x = b.add("%0", 0, 0, 16);
  unsigned y = b.add("%1", 0, 8, 16); // overlaps the upper half of %0
  b.step("neg", {0}, {x});
  b.step("tanh", {0}, {y});
  b.step("add", {x}, {});
  std::string error = b.error();
  CHECK_THAT(error, Catch::Contains("step 2 ('add' at f.py:1:1) reads %0"));
  CHECK_THAT(error, Catch::Contains("bytes [8, 16) hold %1, written at "
                                    "step 1 ('tanh'"));
}

TEST_CASE("a view reads the bytes its source's writer left", "[replay]") {
  Builder b;
  unsigned x = b.add("%0", 0, 0, 16);
  unsigned v = b.view("%v", x);
  unsigned y = b.add("%1", 0, 0, 16);
  b.step("neg", {0}, {x});
  b.step("use", {v}, {});
  CHECK(b.error().empty());
  b.step("tanh", {x}, {y});
  b.step("use", {v}, {});
  CHECK_THAT(b.error(), Catch::Contains("step 3 ('use' at f.py:1:1) reads %v"));
}

TEST_CASE("reading bytes nothing wrote fails", "[replay]") {
  Builder b;
  unsigned x = b.add("%0", 0, 32, 16);
  b.step("use", {x}, {});
  CHECK_THAT(b.error(), Catch::Contains("bytes [32, 48) were never written"));
}

TEST_CASE("a write outside its storage fails", "[replay]") {
  CHECK_THAT(errorWriting("neg", 0, 56, 16),
             Catch::Contains("writes %0 at heap bytes [56, 72), outside heap "
                             "of 64 bytes"));
  CHECK_THAT(errorWriting("neg", 0, -8, 8), Catch::Contains("outside heap"));
}

TEST_CASE("a write into a read-only argument fails", "[replay]") {
  CHECK_THAT(errorWriting("index_put", 1, 0, 16),
             Catch::Contains("writes %0 into argument 0 (w), which the caller "
                             "does not let the function change"));
  // A state argument.
  CHECK(errorWriting("index_put", 1, 0, 16, /*writable=*/true).empty());
}

TEST_CASE("a malformed program is reported, not replayed", "[replay]") {
  Builder b;
  b.step("use", {7}, {});
  CHECK_THAT(b.error(), Catch::Contains("malformed replay program"));
}

TEST_CASE("a result over an operand the op is not in place for fails, even "
          "when read first",
          "[replay]") {
  Builder b;
  unsigned x = b.add("%0", 0, 0, 16);
  unsigned y = b.add("%1", 0, 8, 16); // over the upper half of %0
  b.step("neg", {0}, {x});
  b.opaqueStep("mm", {x, 0}, {y});
  CHECK_THAT(b.error(),
             Catch::Contains("step 1 ('mm' at f.py:1:1) writes %1 (heap "
                             "bytes [8, 24)) over bytes [8, 16) of %0, which "
                             "it reads"));
  // An op in place over %0 must lie exactly on it: shifted, element i of
  // the result lands on element i + 2 of %0, which a parallel kernel may
  // not have read yet.
  b.program.steps.back().overwritable = {x};
  CHECK_THAT(b.error(),
             Catch::Contains("step 1 ('mm' at f.py:1:1) writes %1 (heap "
                             "bytes [8, 24)) over bytes [8, 16) of %0, which "
                             "it reads: in place, a result must lie exactly "
                             "on its operand's bytes (heap bytes [0, 16))"));
  // Exactly on it, the documented in-place case, is sound.
  b.program.values[y].location.offset = 0;
  CHECK(b.error().empty());
}

TEST_CASE("a result over a larger operand it is in place for fails",
          "[replay]") {
  // A view of a larger root covers the root's extent: the replay cannot
  // say which of its bytes the op reads.
  Builder b;
  unsigned x = b.add("%0", 0, 0, 32);
  unsigned y = b.add("%1", 0, 0, 16);
  b.step("neg", {0}, {x});
  b.step("tanh", {x}, {y});
  CHECK_THAT(b.error(), Catch::Contains("writes %1 (heap bytes [0, 16)) over "
                                        "bytes [0, 16) of %0, which it reads: "
                                        "in place, a result must lie exactly"));
}

TEST_CASE("two results of one op sharing bytes fail", "[replay]") {
  Builder b;
  unsigned x = b.add("%0#0", 0, 0, 16);
  unsigned y = b.add("%0#1", 0, 8, 16);
  b.opaqueStep("max", {0}, {x, y});
  CHECK(b.error().empty()); // not declared together: no check
  b.program.steps.back().together = {{x, y}};
  CHECK_THAT(b.error(),
             Catch::Contains("step 0 ('max' at f.py:1:1) writes %0#0 (heap "
                             "bytes [0, 16)) and %0#1 (heap bytes [8, 24)), "
                             "which share bytes [8, 16): two results of one "
                             "op may not overlap"));
  b.program.values[y].location.offset = 16;
  CHECK(b.error().empty());
}

TEST_CASE("a write into an operand under its own name needs a writable "
          "storage",
          "[replay]") {
  Builder b;
  b.opaqueStep("add_", {0}, {});
  b.program.steps.back().mutates = {0};
  CHECK_THAT(b.error(),
             Catch::Contains("step 0 ('add_' at f.py:1:1) writes into %arg0 "
                             "(argument 0 (w) bytes [0, 16)), which the "
                             "caller does not let the function change"));
  b.program.storages[1].writable = true; // a state argument
  CHECK(b.error().empty());
}

TEST_CASE("a workspace is written by its step: never over a live value",
          "[replay][workspace]") {
  // %0 at [0, 16) written, then an op reading %0 writes %1 at [16, 32)
  // with its workspace W; %0 is read again after it.
  auto run = [](int64_t workspaceOffset) {
    Builder b;
    unsigned x = b.add("%0", 0, 0, 16);
    unsigned y = b.add("%1", 0, 16, 16);
    unsigned w = b.add("ws@1", 0, workspaceOffset, 16);
    unsigned z = b.add("%2", 0, 48, 16);
    b.opaqueStep("mm", {0}, {x});
    b.opaqueStep("softmax", {x}, {y});
    b.program.steps.back().scratch = {w};
    b.opaqueStep("add", {x, y}, {z});
    return b.error();
  };
  CHECK(run(32) == "");
  CHECK(run(0) == "step 1 ('softmax' at f.py:1:1) uses ws@1 (heap bytes [0, "
                  "16)) over bytes [0, 16) of %0 (heap bytes [0, 16)), which "
                  "it reads: a kernel's workspace may share no byte with its "
                  "operands or results");
  CHECK(run(16) == "step 1 ('softmax' at f.py:1:1) uses ws@1 (heap bytes "
                   "[16, 32)) over bytes [16, 32) of %1 (heap bytes [16, "
                   "32)), which it writes: a kernel's workspace may share no "
                   "byte with its operands or results");
}

TEST_CASE("a workspace clobbers a value live across its step",
          "[replay][workspace]") {
  Builder b;
  unsigned x = b.add("%0", 0, 0, 16);
  unsigned y = b.add("%1", 0, 16, 16);
  unsigned w = b.add("ws@2", 0, 0, 16); // over %0, which it does not read
  unsigned z = b.add("%2", 0, 32, 16);
  b.opaqueStep("mm", {0}, {x});
  b.opaqueStep("mm", {0}, {y});
  b.opaqueStep("mean", {y}, {z});
  b.program.steps.back().scratch = {w};
  b.opaqueStep("add", {x, z}, {});
  CHECK(b.error() == "step 3 ('add' at f.py:1:1) reads %0 (heap bytes [0, "
                     "16)), but bytes [0, 16) hold ws@2, written at step 2 "
                     "('mean' at f.py:1:1)");
}
