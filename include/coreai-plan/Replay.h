//===- Replay.h - Replaying a planned function on a shadow heap -*- C++ -*-===//
//
// The interval verifier (Verify.h) trusts the live ranges it is given. With
// reuse (a result written over its operand, a chain placed in an output, a
// state update written into the state) the ranges are no longer the whole
// story, so a plan is also replayed: the function's steps run in their
// planned order against a shadow of every storage that records which value
// last wrote each byte. A step that reads a value whose bytes another value
// has overwritten since, or that writes outside its storage, fails the
// replay. No MLIR here: passes/VerifyReplay.cpp builds the program from an
// annotated function.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_REPLAY_H
#define COREAI_PLAN_REPLAY_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace coreai::replay {

/// A contiguous memory the function's values live in: the scratch heap, an
/// argument's buffer, an output's buffer.
struct Storage {
  std::string name; ///< for messages: "heap", "argument 506 (key_cache_0)"
  int64_t size = 0;
  /// Steps may write into it (the heap, outputs, state arguments); writing
  /// a weight or an input is an error.
  bool writable = true;
};

/// Where a value's bytes are.
struct Location {
  unsigned storage = 0;
  int64_t offset = 0;
  int64_t size = 0;
};

struct Value {
  std::string name; ///< SSA name, for messages
  Location location;
  /// The value whose write produced these bytes: the value itself when it
  /// owns them, its source's writer when it is a view.
  unsigned writer = 0;
};

/// One op in the planned order: it reads its operands, then writes its
/// results (so a result may be written over an operand it read).
struct Step {
  std::string op;       ///< op name, for messages
  std::string location; ///< source location, for messages
  std::vector<unsigned> reads;
  std::vector<unsigned> writes;
  /// Reads whose bytes the results may be written over: operands the op
  /// computes element i of its result from element i of (its in-place
  /// class, recomputed from the op, not taken from the plan). A result may
  /// share bytes with one only when it lies exactly on it (same storage,
  /// offset and size): shifted, element i of the result would land on
  /// another element of the operand, one a parallel kernel may not have
  /// read yet. A result overlapping any other read is a violation, even if
  /// the read came first: the kernel may read the operand after writing
  /// the result.
  std::vector<unsigned> overwritable;
  /// Values the op writes into under their own name (ATen `add_`,
  /// `out=`): their storage must be writable.
  std::vector<unsigned> mutates;
  /// The writes one op makes at once (its results; the fresh buffers a
  /// linalg op first writes), one group per op with two or more: no two
  /// of a group may share a byte.
  std::vector<std::vector<unsigned>> together;
  /// The same for one result only: (result, read) pairs. A fused kernel
  /// lets a result lie on an operand only when the kernel reads that
  /// operand no later than it writes that result (docs/FUSION.md).
  std::vector<std::pair<unsigned, unsigned>> overwritableBy;
  /// The kernel's workspace (docs/WORKSPACE.md): values the op writes and
  /// reads only while it runs. Each may share no byte with a read or a
  /// write of the step, and is written (clobbering its bytes) before the
  /// results, so a value live across the step in those bytes is caught
  /// when it is next read.
  std::vector<unsigned> scratch;
};

struct Program {
  std::vector<Storage> storages;
  std::vector<Value> values;
  /// Values that hold their bytes when the function starts (arguments).
  std::vector<unsigned> initial;
  std::vector<Step> steps;
};

/// Runs `program` on a shadow of its storages. Returns the first violation
/// (its message names the step, op, value, storage and bytes), or success
/// when every read finds the bytes its writer left, every write stays
/// inside a writable storage, no result shares a byte with another result
/// of its op, and a result shares bytes with an operand only when it lies
/// exactly on an overwritable one.
llvm::Error replay(const Program &program);

} // namespace coreai::replay

#endif // COREAI_PLAN_REPLAY_H
