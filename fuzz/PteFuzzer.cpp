//===- PteFuzzer.cpp - ExecuTorch programs under libFuzzer ----------------===//
//
// Any bytes go into the .pte reader. What it accepts must come out whole
// at every step: the program's own plan verifies under the live ranges
// derived from its instructions (overlaps are joined, so it always can);
// a re-plan (with and without shared mutable buffers) verifies; the
// rewrite refuses only a program whose tables overlap the fields it
// rewrites, and otherwise reads back to exactly that plan
// (pte::checkRewritten). `check` and the warnings about mutable buffers
// run on every program read, tensors past their arenas included.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Pte/ProgramPlan.h"

#include "FuzzCheck.h"

#include <cstdio>

using namespace coreai;
using namespace coreai::pte;

namespace {

void failWith(llvm::Error error, const char *what) {
  std::fprintf(stderr, "%s\n", llvm::toString(std::move(error)).c_str());
  fuzz::check(false, what);
}

} // namespace

/// What `check` and the warnings read: the program with tensors past their
/// arena kept. Whatever they find, they must not crash.
void checkAndAdvise(llvm::StringRef bytes) {
  ReadOptions options;
  options.keepTensorsOutsideArenas = true;
  llvm::Expected<Program> program = readProgram(bytes, "fuzz.pte", options);
  if (!program) {
    llvm::consumeError(program.takeError());
    return;
  }
  std::vector<MethodMemory> memories;
  for (const Method &method : program->methods)
    memories.push_back(analyseMemory(method));
  for (const PlanFinding &finding : checkProgramPlan(*program, memories))
    fuzz::check(!finding.text.empty(), "an empty finding");
  for (bool share : {false, true})
    (void)mutableBufferAdvice(*program, memories, share);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  checkAndAdvise(bytes);
  llvm::Expected<Program> program = readProgram(bytes, "fuzz.pte");
  if (!program) {
    llvm::consumeError(program.takeError());
    return 0;
  }
  std::vector<MethodMemory> memories;
  for (const Method &method : program->methods)
    memories.push_back(analyseMemory(method));
  if (auto arenas = programArenas(*program, memories); !arenas)
    failWith(arenas.takeError(), "the program's own plan fails the verifier");
  for (bool share : {false, true}) {
    ReplanOptions options;
    options.solve.timeLimitMs = 5;
    options.shareMutableBuffers = share;
    llvm::Expected<ReplanResult> replan =
        replanProgram(*program, memories, options);
    if (!replan)
      failWith(replan.takeError(), "re-planning failed");
    llvm::Expected<std::string> rewritten =
        rewriteProgram(bytes, *program, replan->placements);
    if (!rewritten) {
      // Only a corrupt program whose tables overlap the rewritten fields,
      // or whose methods share a tensor record, may be refused here.
      std::string message = llvm::toString(rewritten.takeError());
      fuzz::check(message.find("not rewritten") != std::string::npos,
                  "rewriting failed");
      return 0;
    }
    if (llvm::Error error =
            checkRewritten(*rewritten, *program, memories, *replan))
      failWith(std::move(error), "the rewritten program is not the plan");
  }
  return 0;
}
