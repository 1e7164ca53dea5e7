//===- Program.h - An ExecuTorch program (.pte) as the planner sees it -*- C++ -*-===//
//
// What coreai-plan reads of an ExecuTorch program: per method its values
// (which are tensors, which are lists of them), its instructions in the
// order the runtime runs them, its planned tensors (arena, offset, bytes)
// and its arenas' sizes; and how to write the same program back with new
// offsets and arena sizes and nothing else changed. The format is read
// with a schema written here (lib/Pte/executorch_program.fbs); docs/PTE.md
// says what is read and why. No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_PTE_PROGRAM_H
#define COREAI_PLAN_PTE_PROGRAM_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace coreai::pte {

/// A tensor the program's memory plan places: arena `memoryId` (1 and up),
/// `offset` bytes into it.
struct PlacedTensor {
  int64_t value = 0; ///< index into the method's values
  int64_t memoryId = 0;
  int64_t offset = 0;
  int64_t bytes = 0; ///< elements × element size (sizes are upper bounds
                     ///< for bounded dynamic shapes)
  std::string type;  ///< element type and sizes, e.g. `f32[2, 16]`
  std::string name;  ///< a mutable buffer's name, when the program has it
  /// The file holds an initial value the runtime copies in at load.
  bool initialData = false;
  /// Where the tensor's record and its placement record start in the file:
  /// values sharing either are one tensor's bytes (a valid program gives
  /// each value its own, but nothing in the format forbids sharing).
  int64_t record = 0, placementRecord = 0;
};

/// One instruction, as the runtime runs it.
struct Instruction {
  enum class Kind { Kernel, Delegate, Move, JumpFalse, Free };
  Kind kind = Kind::Kernel;
  /// `aten::mm.out` for a kernel, `delegate 0`, `move`, `jump`, `free`.
  std::string op;
  /// The values it names, in order (a kernel's arguments, then the values
  /// it returns; a move's source and destination; ...).
  std::vector<int64_t> args;
  /// Where the op came from in the exported model (`model.py:42`), when
  /// the program carries stack traces.
  std::string location;
};

struct Method {
  std::string name;
  /// Per value: the tensors it stands for. A tensor is itself; a tensor
  /// list its items (None items left out); anything else, nothing.
  std::vector<std::vector<int64_t>> tensorsOf;
  /// Per value: its index into `placed`, or -1.
  std::vector<int64_t> placedIndex;
  std::vector<int64_t> inputs, outputs; ///< value indices
  std::vector<Instruction> instructions; ///< every chain's, in order
  /// Bytes of each arena by memory id (entry 0, the constants', unused).
  std::vector<int64_t> arenaSizes;
  /// The backends the method delegates to, by their ids (`XnnpackBackend`).
  std::vector<std::string> delegates;
  std::vector<PlacedTensor> placed; ///< in value order
};

/// Bytes ExecuTorch adds to the end of every arena of `method`: 64 when
/// it delegates to XNNPACK (whose kernels may read past a tensor's last
/// byte; ExecuTorch's memory planning pads for it), else 0.
int64_t arenaPadding(const Method &method);

struct Program {
  std::string source; ///< the file, for messages
  std::vector<Method> methods;
};

/// Whether `bytes` start like an ExecuTorch program: a FlatBuffers root
/// offset, then `ET` and two characters (the format's identifier).
bool looksLikeProgram(llvm::StringRef bytes);

struct ReadOptions {
  /// The file's size when `bytes` are only its first bytes (the program,
  /// without the segments after it: readProgramHead()); 0 when `bytes`
  /// are the whole file.
  uint64_t fileSize = 0;
  /// Keep a tensor that reaches past its arena (for `check`, which
  /// reports it) instead of refusing the program.
  bool keepTensorsOutsideArenas = false;
};

/// Reads an ExecuTorch program. Errors name `source` and say what is wrong:
/// another format version than ET12, a truncated file (its extended header
/// promises more bytes than there are), a buffer the FlatBuffers verifier
/// rejects, a value index out of range, an unknown element type, a planned
/// tensor outside its arena.
llvm::Expected<Program> readProgram(llvm::StringRef bytes,
                                    llvm::StringRef source,
                                    const ReadOptions &options = {});
/// readProgram() of a file; errors name the path.
llvm::Expected<Program> readProgramFile(llvm::StringRef path);

/// New offsets for a program: per method, an offset per placed tensor
/// (parallel to Method::placed) and the arenas' sizes by memory id
/// (parallel to Method::arenaSizes).
struct Placements {
  std::vector<std::vector<int64_t>> offsets;
  std::vector<std::vector<int64_t>> arenaSizes;
};

/// A re-planned program file: its new first bytes, then the old file's
/// bytes from `tailFrom` to its end (the segments, unchanged). When
/// `bytes.size() == tailFrom` the rest of the file stays where it was:
/// the new file is the old one with its first bytes overwritten.
struct RewrittenHead {
  std::string bytes;
  uint64_t tailFrom = 0;
};

/// rewriteProgram() on the first bytes of a file of `fileSize` bytes (at
/// least the program: readProgramHead()), the segments after them left
/// unread.
llvm::Expected<RewrittenHead>
rewriteProgramHead(llvm::StringRef bytes, uint64_t fileSize,
                   const Program &program, const Placements &placements);

/// The program `bytes` (read as `program`) with every placed tensor at its
/// new offset and every arena at its new size; every other byte keeps its
/// meaning (docs/PTE.md: offsets are rewritten where the file stores them,
/// else a placement record is appended to the program's data and the
/// tensor pointed at it; the segments after the program move with it).
llvm::Expected<std::string> rewriteProgram(llvm::StringRef bytes,
                                           const Program &program,
                                           const Placements &placements);

} // namespace coreai::pte

#endif // COREAI_PLAN_PTE_PROGRAM_H
