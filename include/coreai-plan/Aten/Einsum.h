//===- Einsum.h - What an einsum equation reads -----------------*- C++ -*-===//
//
// `einsum`'s subscripts decide whether it is elementwise, a permutation or
// a product: the op facts tag it `elementwise_by_equation` and the op
// classes ask this parser. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_ATEN_EINSUM_H
#define COREAI_PLAN_ATEN_EINSUM_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace coreai::aten {

/// An equation's subscripts: a label per dimension (a letter, or `...` for
/// the dimensions an ellipsis stands for), per operand and for the result
/// (implicit results are spelled out as torch does: the ellipsis, then the
/// letters used once, in alphabetical order).
struct EinsumEquation {
  std::vector<std::vector<std::string>> operands;
  std::vector<std::string> result;

  /// Some label of an operand is not in the result: it is summed over.
  bool sums() const;
  /// Operand `k`'s labels are exactly the result's: result element i reads
  /// its element i.
  bool readsAtResultIndex(unsigned k) const;
  /// Operand `k`'s labels are the result's with some left out, in the
  /// result's order, none repeated: it is read at the result's index or
  /// broadcast along the labels it lacks.
  bool readsInResultOrder(unsigned k) const;
};

/// Parses `'bij,bjk->bik'` (quotes optional, spaces ignored). std::nullopt
/// for anything else: characters other than letters, `,`, `->` and `...`,
/// two ellipses in one term, a result label no operand has, or a result
/// label written twice.
std::optional<EinsumEquation> parseEinsumEquation(llvm::StringRef text);

} // namespace coreai::aten

#endif // COREAI_PLAN_ATEN_EINSUM_H
