//===- SymShape.h - The exporter's symbolic shapes and ranges ---*- C++ -*-===//
//
// torch.export writes a dynamic dimension as sympy text: `coreai.sym_shape`
// on arguments and results, `coreai.sym_shapes` (one per result) on ops,
// each a comma-separated list of dimensions ("1,s58,1536"), and the
// symbols' ranges in the module's `coreai.sym_ranges` (JSON:
// {"s58": ["1", "64"]}). The grammar of one dimension:
//
//   sum     ::= product { ('+' | '-') product }
//   product ::= unary { ('*' | '//') unary }        (// floors, as Python)
//   unary   ::= '-' unary | atom
//   atom    ::= integer | symbol | '(' sum ')'      (symbol: [A-Za-z_]\w*)
//
// Function calls (`Max(1, s0)`) are refused. Each text is parsed once into
// a SymExpr, at the boundary (the dialect's verifier refuses what does not
// parse, with its location); evaluation binds the symbols.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_EXPORTER_SYMSHAPE_H
#define COREAI_PLAN_EXPORTER_SYMSHAPE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace coreai {

/// Symbol name -> value. Ordered, so anything printed from it is stable.
using SymbolBindings = std::map<std::string, int64_t>;

/// One dimension as a tree of integers, symbols and operations.
class SymExpr {
public:
  /// Parses `text` (one dimension); an error names the text and the why.
  static llvm::Expected<SymExpr> parse(llvm::StringRef text);

  /// The value with `bindings`; an unbound symbol, a division by zero or a
  /// value that overflows 64 bits is an error.
  llvm::Expected<int64_t> evaluate(const SymbolBindings &bindings) const;

  /// Adds the symbols the expression names to `symbols`.
  void collectSymbols(std::set<std::string> &symbols) const;

  /// The text it was parsed from.
  const std::string &text() const { return source; }

  enum class Kind : uint8_t { Integer, Symbol, Add, Sub, Mul, FloorDiv, Negate };
  struct Node {
    Kind kind;
    int64_t value = 0; ///< Integer
    std::string name;  ///< Symbol
    int lhs = -1, rhs = -1; ///< operands (Negate: lhs)
  };

private:
  friend class SymExprParser;
  std::vector<Node> nodes;
  int root = -1;
  std::string source;
};

/// Evaluates one dimension's text: SymExpr::parse, then evaluate.
llvm::Expected<int64_t> evaluateSymExpr(llvm::StringRef expr,
                                        const SymbolBindings &bindings);

/// The dimensions of a shape's text ("1,s58,1536"; empty: rank 0), split
/// at the commas outside parentheses and parsed.
llvm::Expected<std::vector<SymExpr>> parseSymShape(llvm::StringRef shape);

/// An inclusive range [min, max] of one symbol; max is INT64_MAX when the
/// graph gives no upper bound.
struct SymRange {
  int64_t min = 0;
  int64_t max = 0;
};

/// The symbols' ranges from `coreai.sym_ranges`' JSON: an object of symbol
/// to [min, max], each bound an integer or its decimal string, `oo` or
/// `int_oo` for no upper bound.
llvm::Expected<std::map<std::string, SymRange>>
parseSymRanges(llvm::StringRef json);

} // namespace coreai

#endif // COREAI_PLAN_EXPORTER_SYMSHAPE_H
