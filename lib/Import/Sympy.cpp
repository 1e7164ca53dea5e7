//===- Sympy.cpp - torch.export's symbolic sizes as infix text ------------===//
#include "Sympy.h"

#include "llvm/ADT/StringExtras.h"

namespace coreai::import {
namespace {

class SreprParser {
public:
  explicit SreprParser(llvm::StringRef text) : text(text), rest(text) {}

  llvm::Expected<std::string> parse() {
    std::string out = parseTerm();
    rest = rest.ltrim();
    if (error.empty() && !rest.empty())
      error = "unexpected '" + rest.take_front(8).str() + "'";
    if (!error.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "symbolic size '" + text.str() +
                                         "': " + error);
    return out;
  }

private:
  llvm::StringRef text, rest;
  std::string error;

  std::string fail(const std::string &why) {
    if (error.empty())
      error = why;
    return "";
  }

  /// A quoted name or an integer literal; keyword arguments are skipped.
  std::string parseLeaf() {
    rest = rest.ltrim();
    if (rest.consume_front("'")) {
      size_t end = rest.find('\'');
      if (end == llvm::StringRef::npos)
        return fail("unterminated name");
      std::string name = rest.take_front(end).str();
      rest = rest.drop_front(end + 1);
      return name;
    }
    llvm::StringRef number = rest.take_while(
        [](char c) { return llvm::isDigit(c) || c == '-'; });
    if (number.empty())
      return fail("expected a name or an integer");
    rest = rest.drop_front(number.size());
    return number.str();
  }

  std::string parseTerm() {
    rest = rest.ltrim();
    llvm::StringRef head = rest.take_while(
        [](char c) { return llvm::isAlnum(c) || c == '_'; });
    rest = rest.drop_front(head.size());
    if (!rest.consume_front("("))
      return fail("expected '(' after '" + head.str() + "'");
    std::vector<std::string> args;
    bool leaf = head == "Symbol" || head == "Integer";
    while (error.empty()) {
      rest = rest.ltrim();
      if (rest.consume_front(")"))
        break;
      if (!args.empty() && !rest.consume_front(","))
        return fail("expected ',' or ')'");
      rest = rest.ltrim();
      // `positive=True` and the like describe the symbol, not its value.
      llvm::StringRef word = rest.take_while(
          [](char c) { return llvm::isAlnum(c) || c == '_'; });
      if (rest.drop_front(word.size()).starts_with("=")) {
        rest = rest.drop_front(word.size() + 1);
        rest = rest.drop_while([](char c) { return c != ',' && c != ')'; });
        args.push_back("");
        continue;
      }
      args.push_back(leaf ? parseLeaf() : parseTerm());
    }
    if (!error.empty())
      return "";
    if (head == "Symbol" || head == "Integer") {
      if (args.empty() || args[0].empty())
        return fail(head.str() + " without a value");
      return args[0];
    }
    auto join = [&](llvm::StringRef separator) {
      std::string out = "(";
      for (size_t i = 0; i < args.size(); ++i)
        out += (i ? separator.str() : "") + args[i];
      return out + ")";
    };
    if (head == "Mul" && !args.empty())
      return join("*");
    if (head == "Add" && !args.empty())
      return join(" + ");
    if (head == "FloorDiv" && args.size() == 2)
      return join("//");
    return fail("'" + head.str() +
                "' is not evaluated by the planner (only +, * and //)");
  }
};

} // namespace

llvm::Expected<std::string> sympyToInfix(llvm::StringRef expr) {
  expr = expr.trim();
  if (!expr.empty() && llvm::isUpper(expr.front()))
    return SreprParser(expr).parse();
  bool plain = llvm::all_of(expr, [](char c) {
    return llvm::isAlnum(c) || llvm::is_contained("_*+-/() ", c);
  });
  if (expr.empty() || !plain)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "symbolic size '" + expr.str() +
                                       "' is not an expression over +, *, //");
  return expr.str();
}

} // namespace coreai::import
