//===- PteTest.cpp - ExecuTorch programs: read, live ranges, re-planned ---===//
#include "PteTesting.h"

#include "coreai-plan/Pte/Memory.h"
#include "coreai-plan/Pte/ProgramPlan.h"
#include "coreai-plan/Verify.h"

#include <catch2/catch.hpp>

using namespace coreai;
using namespace coreai::pte;
using namespace coreai::pte::testing;

namespace {

Program read(const std::string &bytes) {
  llvm::Expected<Program> program = readProgram(bytes, "test.pte");
  if (!program)
    FAIL(llvm::toString(program.takeError()));
  return std::move(*program);
}

std::string readError(const std::string &bytes) {
  llvm::Expected<Program> program = readProgram(bytes, "test.pte");
  REQUIRE(!program);
  return llvm::toString(program.takeError());
}

template <typename T> T take(llvm::Expected<T> value) {
  if (!value)
    FAIL(llvm::toString(value.takeError()));
  return std::move(*value);
}

/// The error's message, empty for success.
std::string messageOf(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : std::string();
}

/// The storage holding value `value` of the method.
const Storage &storageOf(const Method &method, const MethodMemory &memory,
                         int64_t value) {
  return memory.storages[memory.storageOf[method.placedIndex[value]]];
}

/// x -> a = f(x) -> b = g(a) -> output b; 16 floats (64 bytes) each.
TestMethod chain() {
  TestMethod m;
  int32_t x = m.tensor(0, 16), a = m.tensor(64, 16), b = m.tensor(0, 16);
  m.inputs = {x};
  m.outputs = {b};
  m.call("aten::relu.out", {x, a, a});
  m.call("aten::neg.out", {a, b, b});
  m.arenaSizes = {0, 128};
  return m;
}

} // namespace

TEST_CASE("pte: a tensor lives from the instruction writing it to its last "
          "use, inputs from the start, outputs to the end",
          "[pte]") {
  Program program = read(buildProgram({chain()}));
  const Method &m = program.methods[0];
  MethodMemory memory = analyseMemory(m);
  REQUIRE(memory.steps == 2);
  REQUIRE(memory.storages.size() == 3);
  CHECK(storageOf(m, memory, 0).start == 0);
  CHECK(storageOf(m, memory, 0).end == 1);
  CHECK(storageOf(m, memory, 0).input);
  CHECK(storageOf(m, memory, 1).start == 0);
  CHECK(storageOf(m, memory, 1).end == 2);
  CHECK(storageOf(m, memory, 1).writer == 0);
  CHECK(storageOf(m, memory, 2).start == 1);
  CHECK(storageOf(m, memory, 2).end == 2);
  CHECK(storageOf(m, memory, 2).output);
}

TEST_CASE("pte: a view the program placed over a tensor is one storage with "
          "it, live until the view's last read",
          "[pte]") {
  TestMethod m;
  int32_t x = m.tensor(0, 16), a = m.tensor(64, 16), other = m.tensor(0, 16);
  int32_t view = m.tensor(64, 8); // read, never written: a's bytes
  int32_t out = m.tensor(0, 8);
  m.inputs = {x};
  m.outputs = {out};
  m.call("aten::relu.out", {x, a, a});
  m.call("aten::neg.out", {a, other, other});
  m.call("aten::neg.out", {other, m.scalar(), m.scalar()}); // reads other
  m.call("aten::abs.out", {view, out, out});
  m.arenaSizes = {0, 128};
  Program program = read(buildProgram({m}));
  MethodMemory memory = analyseMemory(program.methods[0]);
  const Storage &s = storageOf(program.methods[0], memory, a);
  CHECK(memory.storageOf[program.methods[0].placedIndex[view]] ==
        memory.storageOf[program.methods[0].placedIndex[a]]);
  CHECK(s.members.size() == 2);
  CHECK(s.start == 0);
  CHECK(s.end == 4); // through the view's read at instruction 3
  CHECK(!s.state);
}

TEST_CASE("pte: a tensor read before anything writes it is state, live "
          "throughout; an in-place write returns it",
          "[pte]") {
  TestMethod m;
  int32_t x = m.tensor(0, 16), cache = m.tensor(64, 16);
  int32_t updated = m.tensor(128, 16), out = m.tensor(0, 16);
  int32_t unnamed = m.tensor(192, 4); // read first, no name: state too
  m.inputs = {x};
  m.outputs = {out};
  m.call("aten::index_put.out", {cache, x, updated, updated});
  m.call("aten::add.out", {updated, unnamed, out, out});
  m.call("aten::copy_", {cache, updated, cache}); // in place: returns self
  m.arenaSizes = {0, 256};
  m.values[cache].tensor.name = "k_cache";
  Program program = read(buildProgram({m}));
  const Method &method = program.methods[0];
  MethodMemory memory = analyseMemory(method);
  const Storage &state = storageOf(method, memory, cache);
  CHECK(state.state);
  CHECK(state.name == "k_cache");
  CHECK(state.start == 0);
  CHECK(state.end == 3);
  CHECK(storageOf(method, memory, unnamed).state);
  // `updated` is written first, and read by the copy back at the end.
  const Storage &u = storageOf(method, memory, updated);
  CHECK(!u.state);
  CHECK(u.start == 0);
  CHECK(u.end == 3);
}

TEST_CASE("pte: a kernel returning a list writes the list's tensors",
          "[pte]") {
  TestMethod m;
  int32_t x = m.tensor(0, 16), a = m.tensor(64, 4), b = m.tensor(80, 4);
  int32_t outs = m.list({a, b});
  int32_t returned = m.list({a, b}); // another value with the same tensors
  int32_t y = m.tensor(0, 4);
  m.inputs = {x};
  m.outputs = {y};
  m.call("aten::split_copy.out", {x, m.scalar(), outs, returned});
  m.call("aten::add.out", {a, b, y, y});
  m.arenaSizes = {0, 128};
  Program program = read(buildProgram({m}));
  MethodMemory memory = analyseMemory(program.methods[0]);
  for (int32_t v : {a, b}) {
    const Storage &s = storageOf(program.methods[0], memory, v);
    CHECK(!s.state);
    CHECK(s.writer == 0);
    CHECK(s.start == 0);
    CHECK(s.end == 2);
  }
}

TEST_CASE("pte: an unplaced et_view extends its base's life; a jump makes "
          "every tensor live throughout",
          "[pte]") {
  TestMethod m;
  int32_t x = m.tensor(0, 16), a = m.tensor(64, 16);
  int32_t view = m.tensor(-1, 16); // bound at run time to a's bytes
  int32_t y = m.tensor(128, 16), z = m.tensor(0, 16);
  m.inputs = {x};
  m.outputs = {z};
  m.call("aten::relu.out", {x, a, a});
  m.call("executorch_prim::et_view.default", {a, m.scalar(), view});
  m.call("aten::neg.out", {x, y, y});
  m.call("aten::add.out", {view, y, z, z});
  m.arenaSizes = {0, 192};
  {
    Program program = read(buildProgram({m}));
    MethodMemory memory = analyseMemory(program.methods[0]);
    CHECK(!memory.controlFlow);
    CHECK(storageOf(program.methods[0], memory, a).end == 4);
  }
  m.call("jump", {m.scalar()});
  Program program = read(buildProgram({m}));
  MethodMemory memory = analyseMemory(program.methods[0]);
  CHECK(memory.controlFlow);
  for (const Storage &s : memory.storages) {
    CHECK(s.start == 0);
    CHECK(s.end == memory.steps);
  }
}

TEST_CASE("pte: malformed programs are refused with the reason", "[pte]") {
  std::string bytes = buildProgram({chain()});
  CHECK(readError(bytes.substr(0, bytes.size() / 2))
            .find("the FlatBuffers verifier rejects it") != std::string::npos);
  std::string other = bytes;
  other[6] = '1', other[7] = '1';
  CHECK(readError(other).find("format 'ET11' is not supported") !=
        std::string::npos);
  other[4] = 'X';
  CHECK(readError(other).find("not an ExecuTorch program") !=
        std::string::npos);
  TestMethod small = chain();
  small.arenaSizes = {0, 100};
  CHECK(readError(buildProgram({small}))
            .find("lies outside arena 1 (100 bytes)") != std::string::npos);
  TestMethod badIndex = chain();
  badIndex.call("aten::neg.out", {2, 99, 99});
  CHECK(readError(buildProgram({badIndex})).find("names value 99") !=
        std::string::npos);
}

TEST_CASE("pte: a re-planned program reads back at the new offsets, "
          "verified, arenas no larger, nothing else changed",
          "[pte]") {
  // b at offset 64 wastes the bytes x leaves free: the re-plan packs it.
  TestMethod m = chain();
  m.values[2].tensor.offset = 128;
  m.arenaSizes = {0, 192};
  std::string bytes = buildProgram({m});
  Program program = read(bytes);
  std::vector<MethodMemory> memories{analyseMemory(program.methods[0])};
  ReplanResult replan =
      take(replanProgram(program, memories, ReplanOptions{}));
  CHECK(replan.arenaSizes.at(1) == 128);
  std::string rewritten =
      take(rewriteProgram(bytes, program, replan.placements));
  CHECK(messageOf(checkRewritten(rewritten, program, memories, replan)) ==
        "");
  Program after = read(rewritten);
  CHECK(after.methods[0].arenaSizes == std::vector<int64_t>{0, 128});
  for (size_t p = 0; p < after.methods[0].placed.size(); ++p) {
    CHECK(after.methods[0].placed[p].offset ==
          replan.placements.offsets[0][p]);
    CHECK(after.methods[0].placed[p].type == program.methods[0].placed[p].type);
  }
  CHECK(after.methods[0].instructions.size() == 2);
  CHECK(after.methods[0].instructions[1].op == "aten::neg.out");
  // The same plan written again changes no byte of the rewritten program.
  CHECK(take(rewriteProgram(rewritten, after, replan.placements)) ==
        rewritten);
}

TEST_CASE("pte: methods get one arena size; mutable buffers of one name "
          "share an offset only when asked",
          "[pte]") {
  auto method = [](std::string name, int64_t cacheAt, int64_t arena) {
    TestMethod m;
    m.name = std::move(name);
    int32_t x = m.tensor(0, 16), cache = m.tensor(cacheAt, 16, "cache");
    int32_t y = m.tensor(64, 16);
    m.inputs = {x};
    m.outputs = {y};
    m.call("aten::add.out", {x, cache, y, y});
    m.call("aten::copy_", {cache, y, cache});
    m.arenaSizes = {0, arena};
    return m;
  };
  std::vector<TestMethod> methods{method("decode", 128, 192),
                                  method("prefill", 512, 576)};
  std::string bytes = buildProgram(methods);
  Program program = read(bytes);
  std::vector<MethodMemory> memories;
  for (const Method &m : program.methods)
    memories.push_back(analyseMemory(m));
  auto cacheOffset = [&](const ReplanResult &r, size_t i) {
    return r.placements.offsets[i][program.methods[i].placedIndex[1]];
  };
  ReplanOptions options;
  ReplanResult apart = take(replanProgram(program, memories, options));
  CHECK(apart.shared.empty());
  CHECK(apart.placements.arenaSizes[0] == apart.placements.arenaSizes[1]);
  options.shareMutableBuffers = true;
  ReplanResult shared = take(replanProgram(program, memories, options));
  REQUIRE(shared.shared.size() == 1);
  CHECK(cacheOffset(shared, 0) == cacheOffset(shared, 1));
  std::string rewritten =
      take(rewriteProgram(bytes, program, shared.placements));
  CHECK(messageOf(checkRewritten(rewritten, program, memories, shared)) ==
        "");
  // A check that looks: a slot moved in one method is caught.
  ReplanResult moved = shared;
  moved.placements.offsets[1][program.methods[1].placedIndex[1]] += 64;
  moved.placements.arenaSizes[1][1] += 64;
  std::string wrong = take(rewriteProgram(bytes, program, moved.placements));
  CHECK(messageOf(checkRewritten(wrong, program, memories, moved)) != "");
}

TEST_CASE("pte: the program's own plan is kept where a re-plan is not "
          "smaller",
          "[pte]") {
  Program program = read(buildProgram({chain()}));
  std::vector<MethodMemory> memories{analyseMemory(program.methods[0])};
  ReplanOptions options;
  options.alignment = 256; // every buffer then takes 256 bytes
  ReplanResult replan = take(replanProgram(program, memories, options));
  CHECK(replan.kept == std::vector<int64_t>{1});
  CHECK(replan.placements.arenaSizes[0][1] == 128);
  CHECK(replan.placements.offsets[0] == std::vector<int64_t>{0, 64, 0});
}

TEST_CASE("pte: an offset the file does not store gets a record of its own; "
          "one it stores is overwritten",
          "[pte]") {
  TestMethod m = chain(); // x at 0 (no bytes for it), a at 64, b at 0
  m.arenaSizes = {0, 192};
  std::string bytes = buildProgram({m});
  Program program = read(bytes);
  Placements placements{{{64, 0, 128}}, {{0, 192}}};
  std::string rewritten = take(rewriteProgram(bytes, program, placements));
  // Two records appended (x, b: their old offset 0 was not stored), with
  // a vtable; a's offset overwritten where it was.
  CHECK(rewritten.size() >= bytes.size() + 12 + 2 * 16);
  Program after = read(rewritten);
  std::vector<int64_t> offsets;
  for (const PlacedTensor &t : after.methods[0].placed) {
    offsets.push_back(t.offset);
    CHECK(t.memoryId == 1);
  }
  CHECK(offsets == std::vector<int64_t>{64, 0, 128});
  // Offsets beyond 32 bits keep their high half.
  placements.offsets[0][1] = (int64_t(1) << 33) + 64;
  placements.arenaSizes[0][1] = (int64_t(1) << 33) + 128;
  Program far = read(take(rewriteProgram(bytes, program, placements)));
  CHECK(far.methods[0].placed[1].offset == (int64_t(1) << 33) + 64);
  CHECK(far.methods[0].arenaSizes[1] == (int64_t(1) << 33) + 128);
}

TEST_CASE("pte: values sharing one tensor record are one storage, and a "
          "re-plan moves them together",
          "[pte]") {
  // Values 1 and 2 point at one tensor record (the format allows it): the
  // same bytes, whatever the instructions say of each.
  flatbuffers::FlatBufferBuilder fbb;
  auto tensor = [&](int64_t offset) {
    std::vector<int32_t> sizes{16};
    auto placement = fb::CreatePlacement(fbb, 1, uint32_t(offset), 0);
    auto sizesOffset = fbb.CreateVector(sizes);
    fb::TensorBuilder t(fbb);
    t.add_element_type(6);
    t.add_sizes(sizesOffset);
    t.add_placement(placement);
    return t.Finish();
  };
  auto x = tensor(0), shared = tensor(128), y = tensor(64);
  std::vector<flatbuffers::Offset<fb::EValue>> values{
      fb::CreateEValue(fbb, fb::Value::Tensor, x.Union()),
      fb::CreateEValue(fbb, fb::Value::Tensor, shared.Union()),
      fb::CreateEValue(fbb, fb::Value::Tensor, shared.Union()),
      fb::CreateEValue(fbb, fb::Value::Tensor, y.Union())};
  std::vector<int32_t> inputs{0}, outputs{3};
  std::vector<std::vector<int32_t>> args{{0, 1, 1}, {0, 2, 2}, {2, 3, 3}};
  std::vector<flatbuffers::Offset<fb::Instruction>> instructions;
  for (const std::vector<int32_t> &a : args)
    instructions.push_back(fb::CreateInstruction(
        fbb, fb::Call::KernelCall, fb::CreateKernelCallDirect(fbb, 0, &a).Union()));
  std::vector<flatbuffers::Offset<fb::Chain>> chains{
      fb::CreateChainDirect(fbb, &instructions)};
  std::vector<flatbuffers::Offset<fb::Operator>> operators{
      fb::CreateOperatorDirect(fbb, "aten::neg", "out")};
  std::vector<int64_t> arenas{0, 192};
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans{
      fb::CreateExecutionPlanDirect(fbb, "forward", &values, &inputs, &outputs,
                                    &chains, &operators, nullptr, &arenas)};
  fb::FinishProgramBuffer(fbb, fb::CreateProgramDirect(fbb, 0, &plans));
  std::string bytes(reinterpret_cast<const char *>(fbb.GetBufferPointer()),
                    fbb.GetSize());
  Program program = read(bytes);
  std::vector<MethodMemory> memories{analyseMemory(program.methods[0])};
  const Method &m = program.methods[0];
  CHECK(memories[0].storageOf[m.placedIndex[1]] ==
        memories[0].storageOf[m.placedIndex[2]]);
  ReplanResult replan = take(replanProgram(program, memories, ReplanOptions{}));
  CHECK(replan.placements.offsets[0][m.placedIndex[1]] ==
        replan.placements.offsets[0][m.placedIndex[2]]);
  std::string rewritten =
      take(rewriteProgram(bytes, program, replan.placements));
  CHECK(messageOf(checkRewritten(rewritten, program, memories, replan)) ==
        "");
}

namespace {

/// chain() with tensors of 12, 20 and 12 bytes, in an arena of 256.
TestMethod oddChain() {
  TestMethod m;
  int32_t x = m.tensor(0, 3), a = m.tensor(16, 5), b = m.tensor(0, 3);
  m.inputs = {x};
  m.outputs = {b};
  m.call("aten::relu.out", {x, a, a});
  m.call("aten::neg.out", {a, b, b});
  m.arenaSizes = {0, 256};
  return m;
}

int64_t replannedArena(const TestMethod &method) {
  Program program = read(buildProgram({method}));
  std::vector<MethodMemory> memories{analyseMemory(program.methods[0])};
  ReplanResult replan =
      take(replanProgram(program, memories, ReplanOptions{}));
  return replan.placements.arenaSizes[0][1];
}

} // namespace

TEST_CASE("pte: arenas are multiples of the alignment, with ExecuTorch's "
          "64 bytes for an XNNPACK delegate",
          "[pte]") {
  // x (12 bytes) and a (20) are live together: 16 + 32, not 12 + 20.
  CHECK(replannedArena(oddChain()) == 48);
  TestMethod xnnpack = oddChain();
  xnnpack.delegates = {"XnnpackBackend"};
  CHECK(replannedArena(xnnpack) == 48 + 64);
  TestMethod other = oddChain();
  other.delegates = {"VulkanBackend"};
  CHECK(replannedArena(other) == 48);
}

TEST_CASE("pte: mutable buffers pair by name only, and a program that keeps "
          "one name apart is warned about",
          "[pte]") {
  auto method = [](std::string name, std::string buffer, int64_t cacheAt) {
    TestMethod m;
    m.name = std::move(name);
    int32_t x = m.tensor(0, 16), cache = m.tensor(cacheAt, 16, buffer);
    int32_t y = m.tensor(64, 16);
    m.inputs = {x};
    m.outputs = {y};
    m.call("aten::add.out", {x, cache, y, y});
    m.call("aten::copy_", {cache, y, cache});
    m.arenaSizes = {0, 256};
    return m;
  };
  auto plan = [](const std::vector<TestMethod> &methods, bool share) {
    Program program = read(buildProgram(methods));
    std::vector<MethodMemory> memories;
    for (const Method &m : program.methods)
      memories.push_back(analyseMemory(m));
    ReplanOptions options;
    options.shareMutableBuffers = share;
    return std::make_pair(
        take(replanProgram(program, memories, options)),
        mutableBufferAdvice(program, memories, share));
  };
  // Unnamed, at one offset in both methods: nothing is paired, and the
  // note says why.
  auto [unnamed, unnamedAdvice] =
      plan({method("decode", "", 128), method("prefill", "", 128)}, true);
  CHECK(unnamed.shared.empty());
  REQUIRE(unnamedAdvice.size() == 1);
  CHECK(llvm::StringRef(unnamedAdvice[0]).contains("without names"));
  // Named, apart: warned about unless shared; named at one place: quiet.
  auto [apart, apartAdvice] = plan(
      {method("decode", "cache", 128), method("prefill", "cache", 192)},
      false);
  REQUIRE(apartAdvice.size() == 1);
  CHECK(llvm::StringRef(apartAdvice[0]).contains("--share-mutable-buffers"));
  auto [fixed, fixedAdvice] = plan(
      {method("decode", "cache", 128), method("prefill", "cache", 192)},
      true);
  CHECK(fixed.shared.size() == 1);
  CHECK(fixedAdvice.empty());
  auto [together, togetherAdvice] = plan(
      {method("decode", "cache", 128), method("prefill", "cache", 128)},
      false);
  CHECK(together.shared.size() == 1);
  CHECK(togetherAdvice.empty());
}

TEST_CASE("pte: check finds live tensors sharing bytes, not a delegate's "
          "output reused after its last read",
          "[pte]") {
  auto findings = [](const TestMethod &m) {
    Program program = read(buildProgram({m}));
    std::vector<MethodMemory> memories{analyseMemory(program.methods[0])};
    return checkProgramPlan(program, memories);
  };
  CHECK(findings(chain()).empty());
  // b moved onto a, which the instruction writing b reads.
  TestMethod planted = chain();
  planted.values[2].tensor.offset = 64;
  std::vector<PlanFinding> found = findings(planted);
  REQUIRE(found.size() == 1);
  CHECK(found[0].kind == PlanFinding::Kind::UndeclaredAlias);
  CHECK(found[0].instruction == 1);
  // A delegate writes d (first named there); after relu reads it, e takes
  // its bytes: sound, though the re-plan keeps d live throughout.
  TestMethod delegated;
  delegated.delegates = {"XnnpackBackend"};
  int32_t x = delegated.tensor(0, 16), d = delegated.tensor(64, 16);
  int32_t r = delegated.tensor(128, 16), e = delegated.tensor(64, 16);
  delegated.inputs = {x};
  delegated.outputs = {e};
  delegated.call("delegate", {x, d});
  delegated.call("aten::relu.out", {d, r, r});
  delegated.call("aten::neg.out", {r, e, e});
  delegated.arenaSizes = {0, 192};
  CHECK(findings(delegated).empty());
  // Negative control: e over d while relu still reads d.
  TestMethod early = delegated;
  early.calls = {{"delegate", {x, d}},
                 {"aten::neg.out", {x, e, e}},
                 {"aten::relu.out", {d, r, r}}};
  early.outputs = {e, r};
  CHECK(!findings(early).empty());
}
