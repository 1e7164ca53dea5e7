//===- ManifestTest.cpp - Manifest encodings agree and reject bad files ---===//
#include "coreai-plan/Manifest/Manifest.h"
#include "coreai-plan/Manifest/plan_manifest_generated.h"
#include "PlanChecks.h"
#include "coreai-plan/Verify.h"

#include <catch2/catch.hpp>

using namespace coreai;

namespace {

PlannedEntry makeEntry(std::string name, int64_t chunk, int64_t scale) {
  PlannedEntry e;
  e.entry = std::move(name);
  e.chunk = chunk;
  e.alignment = 64;
  e.problem.buffers = {{"b0", 0, 2, 100 * scale, 64},
                       {"b1", 1, 3, 64 * scale, 64},
                       {"b2", 2, 4, 10 * scale, 64}};
  e.origins = {{"%0", "torch.aten.mm", "m.mlir:3:5", 0},
               {"%1#1", "torch.aten.add", "m.mlir:4:5", 2},
               {"%2", "torch.aten.tanh", "", 0}};
  e.plan.offsets = {0, alignTo(100 * scale, 64), 0};
  e.plan.heap = heapOf(e.problem, e.plan.offsets);
  e.plan.lowerBound = lowerBound(e.problem);
  e.plan.optimal = e.plan.heap == e.plan.lowerBound;
  e.plan.algorithm = "best-fit";
  REQUIRE(violationOf(verifyPlan(e.problem, e.plan)) == "");
  return e;
}

Manifest makeManifest() {
  Manifest m;
  m.toolVersion = "coreai-plan 0.1.0";
  m.target = {"h18p", 256, 0};
  m.inputs = {{"bundle.mlir", sha256Hex("module {}")},
              {"other.mlir", sha256Hex("module {\n}")}};
  m.entries = {
      {makeEntry("main", 1, 1), 0, "main__s1", "bundle.planned.mlir"},
      {makeEntry("prefill", 32, 32), 1, "prefill__s32", "other.planned.mlir"}};
  m.bundleHeap = bundleHeapOf(m.entries);
  return m;
}

/// makeManifest() with two kernels in prefill: kernel 3 keeps %5 and %6
/// inside and writes b1; kernel 7 keeps nothing and writes b0 and b2.
Manifest makeKernelManifest() {
  Manifest m = makeManifest();
  PlannedEntry &e = m.entries[1].planned;
  e.kernelSource = "target";
  PlannedEntry::Kernel mulAdd;
  mulAdd.id = 3;
  mulAdd.ops = 3;
  mulAdd.firstOp = "torch.aten.mul";
  mulAdd.lastOp = "torch.aten.add";
  mulAdd.location = "m.mlir:7:5";
  mulAdd.fused = {{"%5", "torch.aten.mul", "m.mlir:5:5", 0},
                  {"%6#1", "torch.aten.exp", "", 0}};
  mulAdd.fusedSizes = {4096, 512};
  mulAdd.fusedBytes = 4608;
  mulAdd.writes = {1};
  PlannedEntry::Kernel twoOps;
  twoOps.id = 7;
  twoOps.ops = 2;
  twoOps.firstOp = "torch.aten.tanh";
  twoOps.lastOp = "torch.aten.tanh";
  twoOps.writes = {0, 2};
  e.kernels = {mulAdd, twoOps};
  return m;
}


std::string errorOf(llvm::Expected<Manifest> result) {
  REQUIRE_FALSE(bool(result));
  return llvm::toString(result.takeError());
}

} // namespace

TEST_CASE("bundle heap is the largest entry heap", "[manifest]") {
  Manifest m = makeManifest();
  CHECK(m.bundleHeap == m.entries[1].planned.plan.heap);
  CHECK(m.bundleHeap > m.entries[0].planned.plan.heap);
}

TEST_CASE("sha256 matches a known digest", "[manifest]") {
  CHECK(sha256Hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("binary -> model -> JSON equals the model's JSON", "[manifest]") {
  Manifest m = makeManifest();
  std::string binary = writeManifestBinary(m);
  auto back = readManifestBinary(binary, "m.manifest");
  REQUIRE(bool(back));
  CHECK(writeManifestJson(*back) == writeManifestJson(m));
  CHECK(back->entries[1].planned.origins[1].value == "%1#1");
  CHECK(back->entries[1].planned.origins[1].viewCount == 2);
  CHECK(back->entries[1].plannedFunction == "prefill__s32");
  CHECK(back->entries[1].plannedFile == "other.planned.mlir");
  CHECK(back->entries[1].input == 1);
  CHECK(back->inputs[1].file == "other.mlir");
}

TEST_CASE("JSON -> model -> binary equals the model's binary", "[manifest]") {
  Manifest m = makeManifest();
  auto back = readManifestJson(writeManifestJson(m), "plan.json");
  REQUIRE(bool(back));
  CHECK(writeManifestBinary(*back) == writeManifestBinary(m));
  // readManifest tells the encodings apart.
  auto viaJson = readManifest(writeManifestJson(m), "plan.json");
  REQUIRE(bool(viaJson));
  auto viaBinary = readManifest(writeManifestBinary(m), "plan.manifest");
  REQUIRE(bool(viaBinary));
  CHECK(writeManifestBinary(*viaJson) == writeManifestBinary(*viaBinary));
}

TEST_CASE("read plans still verify", "[manifest]") {
  auto back = readManifestBinary(writeManifestBinary(makeManifest()), "m");
  REQUIRE(bool(back));
  for (const ManifestEntry &entry : back->entries)
    CHECK(violationOf(verifyPlan(entry.planned.problem, entry.planned.plan)) ==
          "");
}

TEST_CASE("every truncation of a manifest is rejected", "[manifest]") {
  std::string binary = writeManifestBinary(makeManifest());
  for (size_t size = 0; size < binary.size(); ++size) {
    auto result = readManifestBinary(binary.substr(0, size), "t.manifest");
    INFO("truncated to " << size << " of " << binary.size() << " bytes");
    REQUIRE_FALSE(bool(result));
    std::string message = llvm::toString(result.takeError());
    CHECK_THAT(message, Catch::Contains("t.manifest: not a valid coreai-plan "
                                        "manifest"));
  }
}

TEST_CASE("another format version is named, not called corrupt", "[manifest]") {
  Manifest m = makeManifest();
  m.formatVersion = kManifestFormatVersion + 1;
  CHECK_THAT(errorOf(readManifestBinary(writeManifestBinary(m), "v.manifest")),
             Catch::Contains("v.manifest: manifest format version " +
                             std::to_string(kManifestFormatVersion + 1) +
                             " is not supported"));
  CHECK_THAT(errorOf(readManifestJson(writeManifestJson(m), "v.json")),
             Catch::Contains("v.json: manifest format version " +
                             std::to_string(kManifestFormatVersion + 1) +
                             " is not supported"));
  // The versions before regions (1) and before regions in parametric
  // plans (2) are refused the same way.
  for (uint32_t old : {1u, 2u}) {
    m.formatVersion = old;
    std::string name = "v" + std::to_string(old);
    CHECK_THAT(errorOf(readManifestBinary(writeManifestBinary(m),
                                          name + ".manifest")),
               Catch::Contains(name + ".manifest: manifest format version " +
                               std::to_string(old) +
                               " is not supported (this coreai-plan reads "
                               "version 3)"));
  }
}

TEST_CASE("other files and inconsistent manifests are rejected", "[manifest]") {
  CHECK_THAT(errorOf(readManifest("module {}\n", "g.mlir")),
             Catch::Contains("no 'CAPM' file identifier"));
  CHECK_THAT(errorOf(readManifest("{\"format_version\": 3}", "x.json")),
             Catch::Contains("x.json: invalid manifest"));
  Manifest m = makeManifest();
  m.bundleHeap -= 1;
  CHECK_THAT(errorOf(readManifestBinary(writeManifestBinary(m), "b")),
             Catch::Contains("bundle heap"));
  m = makeManifest();
  m.entries[1].input = 2;
  CHECK_THAT(errorOf(readManifestBinary(writeManifestBinary(m), "i")),
             Catch::Contains("input 2 of 2"));
  m = makeManifest();
  m.entries[0].planned.origins[2].op = "bad\xff";
  CHECK_THAT(errorOf(readManifestBinary(writeManifestBinary(m), "u")),
             Catch::Contains("not valid UTF-8"));
  m = makeManifest();
  m.entries[0].planned.problem.buffers[0].size = -1;
  CHECK_THAT(errorOf(readManifestJson(writeManifestJson(m), "n.json")),
             Catch::Contains("buffer 'b0'"));
}

TEST_CASE("mutated manifests are rejected or read consistently",
          "[manifest]") {
  // A cheap in-tree cousin of fuzz/ManifestFuzzer.cpp: flip bytes of a
  // valid manifest; whatever the reader accepts must survive both
  // encodings unchanged, and nothing may crash.
  for (const Manifest &valid : {makeManifest(), makeKernelManifest()}) {
    std::string binary = writeManifestBinary(valid);
    uint64_t state = 0x9E3779B97F4A7C15ull;
    auto next = [&] {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      return state;
    };
    int accepted = 0;
    for (int round = 0; round < 3000; ++round) {
      std::string mutated = binary;
      int flips = 1 + next() % 4;
      for (int i = 0; i < flips; ++i)
        mutated[next() % mutated.size()] = char(next());
      auto manifest = readManifestBinary(mutated, "m");
      if (!manifest) {
        llvm::consumeError(manifest.takeError());
        continue;
      }
      ++accepted;
      auto viaJson = readManifestJson(writeManifestJson(*manifest), "j");
      REQUIRE(bool(viaJson));
      REQUIRE(writeManifestBinary(*viaJson) == writeManifestBinary(*manifest));
    }
    // Flips in offsets and sizes stay valid manifests: some must be read.
    CHECK(accepted > 0);
  }
}

namespace {

/// makeManifest() with prefill's b0 and b2 borrowed in output 1 (256
/// bytes per scale unit, written at op 3) and a chain placed in output 0.
Manifest makeBorrowedManifest() {
  Manifest m = makeManifest();
  PlannedEntry &e = m.entries[1].planned;
  e.outputBins = {{1, 100 * 32, 2}, {3, 64 * 32, 4}};
  e.binOf = {0, -1, 1};
  e.plan.offsets = {0, 0, 0};
  e.plan.heap = e.problem.buffers[1].size;
  PlannedEntry::Placed chain;
  chain.origin = {"%9", "torch.aten.mul", "m.mlir:9:5", 0};
  chain.size = 4096;
  chain.index = 0;
  chain.start = 1;
  chain.end = 5;
  PlannedEntry::Placed state = chain;
  state.origin.value = "%10";
  state.inState = true;
  state.index = 7;
  e.placed = {chain, state};
  m.bundleHeap = bundleHeapOf(m.entries);
  return m;
}

} // namespace

TEST_CASE("regions round-trip through both encodings", "[manifest][borrow]") {
  Manifest m = makeBorrowedManifest();
  for (bool binary : {true, false}) {
    llvm::Expected<Manifest> read =
        binary ? readManifestBinary(writeManifestBinary(m), "r.manifest")
               : readManifestJson(writeManifestJson(m), "r.json");
    REQUIRE(bool(read));
    const PlannedEntry &e = read->entries[1].planned;
    CHECK(e.binOf == m.entries[1].planned.binOf);
    CHECK(e.borrowedOutput(0) == 1);
    CHECK(e.borrowedOutput(1) == -1);
    CHECK(e.borrowedOutput(2) == 3);
    REQUIRE(e.outputBins.size() == 2);
    CHECK(e.outputBins[1].availableUntil == 4);
    REQUIRE(e.placed.size() == 2);
    CHECK(e.placed[0].origin.value == "%9");
    CHECK_FALSE(e.placed[0].inState);
    CHECK(e.placed[0].start == 1);
    CHECK(e.placed[0].end == 5);
    CHECK(e.placed[1].inState);
    CHECK(e.placed[1].index == 7);
    CHECK(read->entries[0].planned.binOf.empty());
    CHECK(writeManifestJson(*read) == writeManifestJson(m));
  }
}

TEST_CASE("a borrowed plan that is unsound or names no borrowed output is "
          "rejected", "[manifest][borrow]") {
  Manifest m = makeBorrowedManifest();
  // b2 [2, 4) in output 1, which is written at op 2.
  m.entries[1].planned.binOf = {0, -1, 0};
  CHECK_THAT(errorOf(readManifestBinary(writeManifestBinary(m), "late")),
             Catch::Contains("whose own value is written at 2"));
  m = makeBorrowedManifest();
  // Two buffers live together at the same offset of one output.
  m.entries[1].planned.outputBins[0].availableUntil = 4;
  m.entries[1].planned.binOf = {0, -1, 0};
  m.entries[1].planned.problem.buffers[2].start = 1;
  CHECK_THAT(errorOf(readManifestJson(writeManifestJson(m), "overlap")),
             Catch::Contains("overlaps"));
  // A buffer in an output that is not lent: the JSON says output 5.
  m = makeBorrowedManifest();
  std::string json = writeManifestJson(m);
  std::string lent = "\"region_index\": 3";
  size_t at = json.find(lent);
  REQUIRE(at != std::string::npos);
  json.replace(at, lent.size(), "\"region_index\": 5");
  CHECK_THAT(errorOf(readManifestJson(json, "unlent")),
             Catch::Contains("is in output 5, which is not borrowed"));
}

TEST_CASE("kernels round-trip through both encodings", "[manifest][kernels]") {
  Manifest m = makeKernelManifest();
  for (bool binary : {true, false}) {
    llvm::Expected<Manifest> read =
        binary ? readManifestBinary(writeManifestBinary(m), "k.manifest")
               : readManifestJson(writeManifestJson(m), "k.json");
    REQUIRE(bool(read));
    const PlannedEntry &e = read->entries[1].planned;
    CHECK(e.kernelSource == "target");
    REQUIRE(e.kernels.size() == 2);
    const PlannedEntry::Kernel &k = e.kernels[0];
    CHECK(k.id == 3);
    CHECK(k.ops == 3);
    CHECK(k.firstOp == "torch.aten.mul");
    CHECK(k.lastOp == "torch.aten.add");
    CHECK(k.location == "m.mlir:7:5");
    REQUIRE(k.fused.size() == 2);
    CHECK(k.fused[1].value == "%6#1");
    CHECK(k.fused[1].op == "torch.aten.exp");
    CHECK(k.fused[0].location == "m.mlir:5:5");
    CHECK(k.fusedSizes == std::vector<int64_t>{4096, 512});
    CHECK(k.fusedBytes == 4608);
    CHECK(k.writes == std::vector<int64_t>{1});
    CHECK(e.kernels[1].fused.empty());
    CHECK(e.kernels[1].writes == std::vector<int64_t>{0, 2});
    CHECK(e.fusedBytes() == 4608);
    CHECK(e.fusedValues() == 2);
    // The entry without kernels stays without.
    CHECK(read->entries[0].planned.kernels.empty());
    CHECK(read->entries[0].planned.kernelSource.empty());
    CHECK(writeManifestJson(*read) == writeManifestJson(m));
    CHECK(writeManifestBinary(*read) == writeManifestBinary(m));
  }
}

TEST_CASE("a manifest without kernels reads as before they were recorded",
          "[manifest][kernels]") {
  // The binary of a manifest without kernels has neither field, as before
  // they existed; its JSON without the two keys still reads.
  Manifest m = makeManifest();
  std::string binary = writeManifestBinary(m);
  const fb::Entry *entry =
      fb::GetSizePrefixedManifest(binary.data())->entries()->Get(1);
  CHECK(entry->kernel_source() == nullptr);
  CHECK(entry->kernels() == nullptr);
  std::string withKernels = writeManifestBinary(makeKernelManifest());
  entry = fb::GetSizePrefixedManifest(withKernels.data())->entries()->Get(1);
  REQUIRE(entry->kernels() != nullptr);
  CHECK(entry->kernels()->size() == 2);
  std::string json = writeManifestJson(m);
  for (llvm::StringRef key : {"\"kernel_source\": \"\",", "\"kernels\": [],"})
    for (size_t at = json.find(key.str()); at != std::string::npos;
         at = json.find(key.str()))
      json.erase(at, key.size());
  REQUIRE(json.find("kernel") == std::string::npos);
  llvm::Expected<Manifest> read = readManifestJson(json, "old.json");
  REQUIRE(bool(read));
  CHECK(writeManifestBinary(*read) == binary);
}

TEST_CASE("inconsistent kernels are rejected", "[manifest][kernels]") {
  Manifest m = makeKernelManifest();
  m.entries[1].planned.kernels[0].fusedBytes = 4607;
  CHECK_THAT(errorOf(readManifestBinary(writeManifestBinary(m), "sum")),
             Catch::Contains("entry 'prefill' S=32: kernel 3: fused bytes "
                             "4607 are not the sum 4608 of its values' "
                             "sizes"));
  m = makeKernelManifest();
  m.entries[1].planned.kernels[1].writes = {0, 3};
  CHECK_THAT(errorOf(readManifestJson(writeManifestJson(m), "writes")),
             Catch::Contains("kernel 7: writes buffer 3 of 3"));
  m = makeKernelManifest();
  m.entries[1].planned.kernels[1].id = 3;
  CHECK_THAT(errorOf(readManifestBinary(writeManifestBinary(m), "twice")),
             Catch::Contains("kernel 3: the id is used twice"));
  m = makeKernelManifest();
  m.entries[1].planned.kernelSource = "compiler";
  CHECK_THAT(errorOf(readManifestJson(writeManifestJson(m), "source")),
             Catch::Contains("kernel source 'compiler' is not input or "
                             "target"));
  m = makeKernelManifest();
  m.entries[1].planned.kernels[0].fused[0].op = "bad\xff";
  CHECK_THAT(errorOf(readManifestBinary(writeManifestBinary(m), "utf8")),
             Catch::Contains("not valid UTF-8"));
}
