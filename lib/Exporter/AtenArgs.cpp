//===- AtenArgs.cpp - The grammar of an exported op's `coreai.args` -------===//
#include "coreai-plan/Exporter/AtenArgs.h"

#include "llvm/ADT/StringExtras.h"

namespace coreai {

std::optional<llvm::StringRef> AtenArgs::keyword(llvm::StringRef name) const {
  for (const auto &[key, value] : keywords)
    if (key == name)
      return llvm::StringRef(value);
  return std::nullopt;
}

namespace {

/// Whether `text` is a Python identifier (a keyword argument's name).
bool isIdentifier(llvm::StringRef text) {
  if (text.empty() || llvm::isDigit(text.front()))
    return false;
  return llvm::all_of(
      text, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

} // namespace

std::optional<AtenArgs> parseAtenArgs(llvm::StringRef text) {
  text = text.trim();
  if (!text.consume_front("(") || !text.consume_back(")"))
    return std::nullopt;
  AtenArgs args;
  llvm::SmallVector<char, 8> open; // brackets not yet closed
  char quote = 0;
  size_t begin = 0;
  auto addArgument = [&](llvm::StringRef piece) -> bool {
    piece = piece.trim();
    if (piece.empty())
      return false;
    // `name=value` at top level (not `==`, not inside brackets or quotes:
    // the pieces come from top-level commas, and the name must be an
    // identifier before any bracket or quote).
    size_t eq = piece.find('=');
    if (eq != llvm::StringRef::npos && piece.substr(eq).size() > 1 &&
        piece[eq + 1] != '=' && isIdentifier(piece.take_front(eq).trim())) {
      args.keywords.emplace_back(piece.take_front(eq).trim().str(),
                                 piece.drop_front(eq + 1).trim().str());
      return true;
    }
    if (!args.keywords.empty())
      return false; // a positional argument after a keyword one
    args.positional.push_back(piece.str());
    return true;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    switch (c) {
    case '\'':
    case '"':
      quote = c;
      break;
    case '(':
    case '[':
    case '{':
      open.push_back(c);
      break;
    case ')':
    case ']':
    case '}': {
      char expected = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (open.empty() || open.back() != expected)
        return std::nullopt;
      open.pop_back();
      break;
    }
    case ',':
      if (open.empty()) {
        if (!addArgument(text.slice(begin, i)))
          return std::nullopt;
        begin = i + 1;
      }
      break;
    default:
      break;
    }
  }
  if (quote || !open.empty())
    return std::nullopt;
  llvm::StringRef last = text.drop_front(begin).trim();
  // `(T,)`: a one-element tuple's trailing comma; `()`: no arguments.
  if (!last.empty() && !addArgument(last))
    return std::nullopt;
  return args;
}

bool isScalarArgument(llvm::StringRef value) {
  value = value.trim();
  if (value.empty() || value == "T")
    return false;
  if (value == "None" || value == "True" || value == "False")
    return true;
  if (value.front() == '\'' || value.front() == '"')
    return value.size() >= 2 && value.back() == value.front();
  // Numbers (`2`, `-0.5`, `1e-06`, `inf`) and sympy sizes (`s58`, `2*s58 +
  // 1`): identifiers, digits and arithmetic, nothing that names a dtype,
  // device or layout (`torch.float16`, `device(type='cpu')`) or a list.
  if (value.contains("torch.") || value.contains("device"))
    return false;
  return llvm::all_of(value, [](char c) {
    return llvm::isAlnum(c) || llvm::StringRef("_.+-*/ ").contains(c);
  });
}

std::optional<std::vector<int64_t>> parseIntegerList(llvm::StringRef text,
                                                     bool bare) {
  text = text.trim();
  bool list = text.consume_front("[");
  if (list ? !text.consume_back("]") : !bare)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 4> parts;
  if (!text.trim().empty())
    text.split(parts, ',');
  if (!list && parts.size() != 1)
    return std::nullopt;
  std::vector<int64_t> values;
  for (llvm::StringRef part : parts) {
    int64_t value;
    if (part.trim().getAsInteger(10, value))
      return std::nullopt;
    values.push_back(value);
  }
  return values;
}

} // namespace coreai
