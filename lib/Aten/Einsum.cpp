//===- Einsum.cpp - What an einsum equation reads -------------------------===//
#include "coreai-plan/Aten/Einsum.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>

namespace coreai::aten {
namespace {

/// One term's labels; std::nullopt on a character no equation has or a
/// second ellipsis.
std::optional<std::vector<std::string>> parseTerm(llvm::StringRef term) {
  std::vector<std::string> labels;
  bool ellipsis = false;
  while (!term.empty()) {
    if (term.consume_front("...")) {
      if (ellipsis)
        return std::nullopt;
      ellipsis = true;
      labels.push_back("...");
      continue;
    }
    char c = term.front();
    term = term.drop_front();
    if (c == ' ')
      continue;
    if (!llvm::isAlpha(c))
      return std::nullopt;
    labels.push_back(std::string(1, c));
  }
  return labels;
}

bool hasRepeats(const std::vector<std::string> &labels) {
  std::vector<std::string> sorted = labels;
  llvm::sort(sorted);
  return std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
}

} // namespace

bool EinsumEquation::sums() const {
  return llvm::any_of(operands, [&](const std::vector<std::string> &term) {
    return llvm::any_of(term, [&](const std::string &label) {
      return !llvm::is_contained(result, label);
    });
  });
}

bool EinsumEquation::readsAtResultIndex(unsigned k) const {
  return k < operands.size() && operands[k] == result && !hasRepeats(result);
}

bool EinsumEquation::readsInResultOrder(unsigned k) const {
  if (k >= operands.size() || hasRepeats(operands[k]))
    return false;
  size_t at = 0; // the next result label the operand's may match
  for (const std::string &label : operands[k]) {
    while (at < result.size() && result[at] != label)
      ++at;
    if (at == result.size())
      return false;
    ++at;
  }
  return true;
}

std::optional<EinsumEquation> parseEinsumEquation(llvm::StringRef text) {
  text = text.trim();
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') &&
      text.back() == text.front())
    text = text.drop_front().drop_back();
  auto [inputs, output] = text.split("->");
  bool explicitResult = inputs.size() != text.size();
  EinsumEquation equation;
  llvm::SmallVector<llvm::StringRef, 4> terms;
  inputs.split(terms, ',');
  for (llvm::StringRef term : terms) {
    std::optional<std::vector<std::string>> labels = parseTerm(term);
    if (!labels)
      return std::nullopt;
    equation.operands.push_back(std::move(*labels));
  }
  if (explicitResult) {
    std::optional<std::vector<std::string>> labels = parseTerm(output);
    if (!labels || hasRepeats(*labels))
      return std::nullopt;
    equation.result = std::move(*labels);
  } else {
    // torch's implicit result: the ellipsis, then each letter used once.
    std::map<std::string, unsigned> uses;
    bool ellipsis = false;
    for (const std::vector<std::string> &term : equation.operands)
      for (const std::string &label : term) {
        if (label == "...")
          ellipsis = true;
        else
          ++uses[label];
      }
    if (ellipsis)
      equation.result.push_back("...");
    for (const auto &[label, count] : uses)
      if (count == 1)
        equation.result.push_back(label);
  }
  for (const std::string &label : equation.result)
    if (llvm::none_of(equation.operands, [&](const auto &term) {
          return llvm::is_contained(term, label);
        }))
      return std::nullopt;
  return equation;
}

} // namespace coreai::aten
