//===- TextTable.h - Column-aligned text tables for the CLI -----*- C++ -*-===//
#ifndef COREAI_PLAN_TOOLS_TEXTTABLE_H
#define COREAI_PLAN_TOOLS_TEXTTABLE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <string>
#include <vector>

namespace coreai::cli {

/// Rows of cells printed with every column as wide as its widest cell;
/// columns flagged numeric are right-aligned.
class TextTable {
public:
  TextTable(std::vector<std::string> header, std::vector<bool> numeric)
      : numeric(std::move(numeric)) {
    rows.push_back(std::move(header));
  }
  void add(std::vector<std::string> row) { rows.push_back(std::move(row)); }

  void print(llvm::raw_ostream &os) const {
    std::vector<size_t> widths(rows.front().size(), 0);
    for (const auto &row : rows)
      for (size_t i = 0; i < row.size() && i < widths.size(); ++i)
        widths[i] = std::max(widths[i], row[i].size());
    for (const auto &row : rows) {
      std::string line;
      for (size_t i = 0; i < row.size() && i < widths.size(); ++i) {
        if (i)
          line += "  ";
        std::string pad(widths[i] - row[i].size(), ' ');
        line += i < numeric.size() && numeric[i] ? pad + row[i] : row[i] + pad;
      }
      os << llvm::StringRef(line).rtrim() << "\n";
    }
  }

private:
  std::vector<bool> numeric;
  std::vector<std::vector<std::string>> rows;
};

/// `12345678 (11.77 MiB)`: bytes for scripts, MiB for people.
inline std::string bytesWithMiB(int64_t bytes) {
  return llvm::formatv("{0} ({1:F2} MiB)", bytes, double(bytes) / 1048576.0)
      .str();
}

} // namespace coreai::cli

#endif // COREAI_PLAN_TOOLS_TEXTTABLE_H
