//===- Workspace.h - Kernel workspace rules of a target ---------*- C++ -*-===//
//
// A target's kernels may need scratch memory of their own (a softmax's row
// maxima and sums, a split-K matmul's partial tiles). The target says how
// many bytes per op as an expression over the op's shapes and arguments
// (docs/WORKSPACE.md); this file parses those expressions when the target
// is read and evaluates them for one op. No MLIR: passes/Workspace.cpp
// describes each op as a WorkspaceOp.
//
// Grammar (integers only, evaluated in int64_t with overflow checks):
//   expr    ::= cmp
//   cmp     ::= sum [ ('<' | '<=' | '>' | '>=' | '==') sum ]   (1 or 0)
//   sum     ::= product { ('+' | '-') product }
//   product ::= unary { ('*' | '/') unary }                    (/ floors)
//   unary   ::= '-' unary | atom
//   atom    ::= INTEGER | '(' expr ')' | FUNC '(' expr ',' expr ')' | ref
//   FUNC    ::= min | max | cdiv | align
//   ref     ::= TENSOR '.' ( numel | bytes | rank | elem_size
//                          | dim '(' expr ')' | shape '[' expr ']' )
//             | elem_size | rows | reduced | arg.dim | split_k
//   TENSOR  ::= out | outK | inK       (out = out0; K a result or operand)
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TARGET_WORKSPACE_H
#define COREAI_PLAN_TARGET_WORKSPACE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coreai {

/// A parsed workspace expression (immutable, cheap to copy).
class WorkspaceExpr {
public:
  struct Node;
  WorkspaceExpr() = default;
  explicit WorkspaceExpr(std::shared_ptr<const Node> root)
      : root(std::move(root)) {}
  bool empty() const { return !root; }
  const Node *get() const { return root.get(); }

private:
  std::shared_ptr<const Node> root;
};

/// Parses `text`; errors say what is wrong and at which column (from 1).
llvm::Expected<WorkspaceExpr> parseWorkspaceExpr(llvm::StringRef text);

/// One tensor operand or result of an op, as the rules see it.
struct WorkspaceTensor {
  std::vector<int64_t> shape;
  int64_t elementSize = 0;
};

/// One op, as the rules see it.
struct WorkspaceOp {
  std::string name; ///< "aten._softmax", for messages
  std::vector<WorkspaceTensor> operands;
  std::vector<WorkspaceTensor> results;
  /// The op's dimension argument(s) (softmax's `dim`, a reduction's
  /// `dim` list), as written (may be negative); empty when it has none.
  std::vector<int64_t> dims;
  /// The target's split-K factor (1 when it declares none).
  int64_t splitK = 1;
};

/// Evaluates `expr` for `op`. Errors name what the op lacks (an operand, a
/// dim argument, a dimension out of range) or an overflow.
llvm::Expected<int64_t> evaluate(const WorkspaceExpr &expr,
                                 const WorkspaceOp &op);

/// One kernel the runtime may run for a rule's ops, with the workspace it
/// needs and its run time relative to the rule's other variants, as the
/// target states it (a model, docs/WORKSPACE.md "Kernel variants").
struct WorkspaceVariant {
  std::string name; ///< `split_k`, `direct`; `default` for a rule of one
  std::string bytesText;
  WorkspaceExpr bytes;
  double cost = 1;
  std::string doc;
};

/// One rule of targets/*.json's "workspace" list: the ops it applies to
/// (an ATen op, `aten.NAME` any overload or `aten.NAME.OVERLOAD`, or an op
/// class) and the kernels that may run them: one (`bytes`), or several
/// (`variants`), of which the planner picks one per op.
struct WorkspaceRule {
  std::string op;      ///< empty when `opClass` is given
  /// normalisation, reduction, matmul, attention; attention_kernel (fusion's
  /// attention kernel as one call, passes/AttentionWorkspace.cpp)
  std::string opClass;
  /// In the order the target lists them; at least one.
  std::vector<WorkspaceVariant> variants;
  int64_t alignment = 0; ///< 0: the target's
  std::string doc;

  /// The variant named `name`, or null.
  const WorkspaceVariant *variant(llvm::StringRef name) const;
  /// The variant with the lowest cost (the first listed among equals).
  const WorkspaceVariant &cheapest() const;
};

/// Whether a rule's `op` (`aten.NAME`, any overload, or
/// `aten.NAME.OVERLOAD`) names ATen op `name` (`aten.mm`) with `overload`.
bool namesAtenOp(llvm::StringRef ruleOp, llvm::StringRef name,
                 llvm::StringRef overload);

/// The op classes a rule may name.
llvm::ArrayRef<llvm::StringLiteral> workspaceOpClasses();

/// The workspace part of a target.
struct WorkspaceRules {
  std::vector<WorkspaceRule> rules;
  int64_t splitK = 1;

  bool empty() const { return rules.empty(); }
  /// Some rule names an op class (not one op).
  bool hasClassRules() const {
    for (const WorkspaceRule &rule : rules)
      if (rule.op.empty())
        return true;
    return false;
  }
  /// The first rule for ATen op `name` (`aten.mm`) with `overload`
  /// (`default`), else the first rule for `opClass` (may be empty).
  const WorkspaceRule *find(llvm::StringRef name, llvm::StringRef overload,
                            llvm::StringRef opClass) const;
};

} // namespace coreai

#endif // COREAI_PLAN_TARGET_WORKSPACE_H
