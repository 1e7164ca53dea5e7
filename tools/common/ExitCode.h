//===- ExitCode.h - The exit codes of every coreai-plan tool ----*- C++ -*-===//
#ifndef COREAI_PLAN_TOOLS_EXITCODE_H
#define COREAI_PLAN_TOOLS_EXITCODE_H

namespace coreai::cli {

/// Documented in docs/CLI.md; scripts rely on them.
enum ExitCode : int {
  Success = 0,
  InputError = 1,    ///< Bad input or usage: nothing was written.
  AnswerNo = 2,      ///< Well-formed question, answer "no": no packing within
                     ///< the capacity, heap overflow in check-heap, ...
  InternalError = 3, ///< A plan failed verification: a bug, never output.
};

} // namespace coreai::cli

#endif // COREAI_PLAN_TOOLS_EXITCODE_H
