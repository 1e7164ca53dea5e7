//===- OpFacts.h - What the planner knows about each ATen op ----*- C++ -*-===//
//
// The one table of ATen op facts: lib/Aten/AtenOpFacts.def, generated from
// torch's operator schemas by scripts/gen-aten-op-facts.py (aliasing,
// mutation, randomness, functional twins), and lib/Aten/AtenOpFactsManual.def,
// the facts no schema states (elementwise, layout, conditional effects),
// each with why. The importer, the effect model, the op classes and the
// executor read it; no MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_ATEN_OPFACTS_H
#define COREAI_PLAN_ATEN_OPFACTS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace coreai::aten {

/// One argument of an op's schema.
struct ArgumentRef {
  llvm::StringRef name;
  unsigned position = 0; ///< in the schema, keyword-only ones included
  /// The IR operand (tensors only, in argument order) it is whatever the
  /// call; negative counts from the last operand (-1 is the last);
  /// std::nullopt when it depends on the call (optional or list tensors
  /// before and after it): count the call's tensors (`coreai.args`).
  std::optional<int> operand;
  bool keywordOnly = false;

  bool operator==(const ArgumentRef &other) const {
    return name == other.name && position == other.position &&
           operand == other.operand && keywordOnly == other.keywordOnly;
  }
};

/// One return of the schema.
struct ReturnFacts {
  bool tensor = true;
  bool list = false; ///< `Tensor[]`: every IR result it gives
  /// The argument it aliases (`Tensor(a)` like it), std::nullopt when fresh.
  std::optional<ArgumentRef> aliases;

  bool operator==(const ReturnFacts &other) const {
    return tensor == other.tensor && list == other.list &&
           aliases == other.aliases;
  }
};

/// An effect that depends on one argument's literal value (`dropout`'s
/// `train`): absent unless the argument is one of `values`.
struct ArgumentCondition {
  llvm::StringRef argument;
  unsigned position = 0;
  bool keywordOnly = false; ///< `ARG@kw`: never positional, `position` unused
  llvm::SmallVector<llvm::StringRef, 4> values;
  bool absentSatisfies = false; ///< the argument's default is one of them

  /// Whether the literal `value` (std::nullopt: not given) is one of them.
  bool satisfiedBy(std::optional<llvm::StringRef> value) const;
};

struct OpFacts {
  llvm::StringRef name;     ///< `add_`, as in `torch.aten.add_`
  llvm::StringRef overload; ///< `Tensor`; `default` for the unnamed one
  llvm::SmallVector<ReturnFacts, 1> returns;
  llvm::SmallVector<ArgumentRef, 1> mutated; ///< `Tensor(a!)` arguments
  /// For an in-place or out= variant: `name.overload` of the functional op
  /// computing the same values; empty when there is none.
  llvm::StringRef twin;
  bool fromSupplement = false; ///< newer than torch 1.13
  /// Implemented by a decomposition (CompositeImplicitAutograd): the
  /// schema's fresh results are not a kernel's promise.
  bool composite = false;

  // From the schema or the manual list.
  bool random = false; ///< draws random numbers (unless randomUnless)
  std::optional<ArgumentCondition> randomUnless;
  /// Writes operands its schema does not annotate unless the condition.
  std::optional<ArgumentCondition> writesUnless;

  // From the manual list only.
  bool elementwise = false;
  /// Conditions on the call's arguments under which `elementwise` holds
  /// (every one must): a copy's memory format, layout, device.
  llvm::SmallVector<ArgumentCondition, 1> elementwiseIf;
  /// `einsum`: elementwise only where its equation says so.
  bool elementwiseByEquation = false;
  bool copy = false; ///< result: operand 0's elements converted or relaid
  bool keepsLayout = false;      ///< as a view: element i is source's i
  bool rowInPlace = false;       ///< softmax-like: a row read, then written
  bool replacesElements = false; ///< operand 0 with some elements replaced
  bool mayAlias = false;         ///< result may be an operand or a copy
  bool asserts = false;
  bool metadataOnly = false;     ///< its write changes no bytes
  // What a fused kernel may make of it (the fusion rules, docs/FUSION.md).
  bool reduction = false;     ///< reduces dimensions (`mean`, `amax`)
  bool normalisation = false; ///< reads rows, writes them scaled (`softmax`)
  bool matmul = false;        ///< a matrix product (`mm`, `bmm`)
  bool attention = false;     ///< the whole attention (`scaled_dot_product_attention`)
  bool fill = false;          ///< values from scalars and shapes (`full_like`)

  bool mutates() const { return !mutated.empty(); }
  /// The argument every tensor result aliases when the op is a view (no
  /// writes, every tensor return aliases that one argument); std::nullopt
  /// otherwise.
  std::optional<ArgumentRef> viewSource() const;
  /// Fresh results only, no writes (random or not).
  bool isFunctional() const;
  /// Some return is a list (`split`): result counts depend on the call.
  bool hasListReturn() const;
  /// The twin's name and overload, split at the first dot.
  std::pair<llvm::StringRef, llvm::StringRef> twinParts() const;
};

/// The facts of `aten::name.overload` (empty overload: `default`), or
/// nullptr when the table does not know it.
const OpFacts *lookup(llvm::StringRef name, llvm::StringRef overload);

/// The facts of an op spelled as in the IR (`torch.aten.add`, with
/// `overload` from `coreai.overload`) or as in a `.pt2`
/// (`aten::add.Tensor`, `torch.ops.aten.add.Tensor`; overload ignored).
const OpFacts *lookupQualified(llvm::StringRef qualified,
                               llvm::StringRef overload = {});

/// For an op whose overload is not known (hand-written IR without
/// `coreai.overload`): the facts all of its overloads that are not out=
/// variants share. Where they disagree on writes, `writesAgree` is false
/// and `mutated` empty (assume any operand written); on returns,
/// `returnsAgree` is false and `returns` empty (no view known).
struct AnyOverloadFacts {
  OpFacts facts;
  bool writesAgree = true;
  bool returnsAgree = true;
};
std::optional<AnyOverloadFacts> lookupAnyOverload(llvm::StringRef name);

/// Every op and overload in the table, sorted by name then overload.
std::vector<const OpFacts *> allOpFacts();

/// Manual entries (AtenOpFactsManual.def) naming no op of the table, or
/// with tags this reader does not know: each as a message.
std::vector<std::string> manualFactProblems();

} // namespace coreai::aten

#endif // COREAI_PLAN_ATEN_OPFACTS_H
