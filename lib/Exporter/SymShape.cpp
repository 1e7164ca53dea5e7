//===- SymShape.cpp - The exporter's symbolic shapes and ranges -----------===//
#include "coreai-plan/Exporter/SymShape.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

#include <initializer_list>
#include <limits>
#include <optional>
#include <utility>

namespace coreai {

namespace {

llvm::Error errorIn(llvm::StringRef text, const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "in '" + text.str() + "': " + why.str());
}

} // namespace

/// Recursive descent over the grammar in SymShape.h, building the nodes;
/// the first error stops it.
class SymExprParser {
public:
  explicit SymExprParser(llvm::StringRef text) : rest(text) {
    expr.source = text.str();
  }

  llvm::Expected<SymExpr> parse() {
    expr.root = parseSum();
    skipSpace();
    if (error.empty() && !rest.empty())
      error = "unexpected '" + rest.take_front(1).str() + "'";
    if (!error.empty())
      return errorIn(expr.source, error);
    return std::move(expr);
  }

private:
  SymExpr expr;
  llvm::StringRef rest;
  std::string error;

  void skipSpace() { rest = rest.ltrim(); }
  bool consume(llvm::StringRef token) {
    skipSpace();
    return rest.consume_front(token);
  }
  int fail(const std::string &why) {
    if (error.empty())
      error = why;
    return -1;
  }
  int add(SymExpr::Node node) {
    expr.nodes.push_back(std::move(node));
    return int(expr.nodes.size()) - 1;
  }
  int binary(SymExpr::Kind kind, int lhs, int rhs) {
    return add({kind, 0, {}, lhs, rhs});
  }

  using Operator = std::pair<llvm::StringRef, SymExpr::Kind>;

  /// Operands joined by left-associative operators of one precedence, the
  /// operators tried in order (`//` before `*`).
  int parseChain(int (SymExprParser::*operand)(),
                 std::initializer_list<Operator> operators) {
    int value = (this->*operand)();
    while (error.empty()) {
      const Operator *op = llvm::find_if(
          operators, [&](const Operator &o) { return consume(o.first); });
      if (op == operators.end())
        break;
      value = binary(op->second, value, (this->*operand)());
    }
    return value;
  }

  int parseSum() {
    return parseChain(&SymExprParser::parseProduct,
                      {{"+", SymExpr::Kind::Add}, {"-", SymExpr::Kind::Sub}});
  }

  int parseProduct() {
    return parseChain(
        &SymExprParser::parseUnary,
        {{"//", SymExpr::Kind::FloorDiv}, {"*", SymExpr::Kind::Mul}});
  }

  int parseUnary() {
    if (consume("-"))
      return add({SymExpr::Kind::Negate, 0, {}, parseUnary(), -1});
    return parseAtom();
  }

  int parseAtom() {
    skipSpace();
    if (consume("(")) {
      int value = parseSum();
      if (!consume(")"))
        return fail("expected ')'");
      return value;
    }
    if (!rest.empty() && llvm::isDigit(rest.front())) {
      llvm::StringRef digits = rest.take_while(llvm::isDigit);
      rest = rest.drop_front(digits.size());
      int64_t value = 0;
      if (digits.getAsInteger(10, value))
        return fail("integer '" + digits.str() + "' is too large");
      return add({SymExpr::Kind::Integer, value, {}, -1, -1});
    }
    llvm::StringRef name =
        rest.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
    if (name.empty() || llvm::isDigit(name.front()))
      return fail(rest.empty() ? "unexpected end"
                               : "unexpected '" + rest.take_front(1).str() +
                                     "'");
    rest = rest.drop_front(name.size());
    skipSpace();
    if (rest.starts_with("("))
      return fail("function '" + name.str() + "' is not supported");
    return add({SymExpr::Kind::Symbol, 0, name.str(), -1, -1});
  }
};

llvm::Expected<SymExpr> SymExpr::parse(llvm::StringRef text) {
  return SymExprParser(text).parse();
}

namespace {

/// Python's floor division, or std::nullopt when it overflows.
std::optional<int64_t> floorDivide(int64_t value, int64_t divisor) {
  if (value == INT64_MIN && divisor == -1)
    return std::nullopt;
  int64_t quotient = value / divisor;
  if ((value % divisor != 0) && ((value < 0) != (divisor < 0)))
    --quotient;
  return quotient;
}

} // namespace

llvm::Expected<int64_t>
SymExpr::evaluate(const SymbolBindings &bindings) const {
  std::vector<int64_t> values(nodes.size());
  // Operands precede the nodes that use them: one pass in order.
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node &node = nodes[i];
    int64_t lhs = node.lhs >= 0 ? values[node.lhs] : 0;
    int64_t rhs = node.rhs >= 0 ? values[node.rhs] : 0;
    bool overflow = false;
    switch (node.kind) {
    case Kind::Integer:
      values[i] = node.value;
      break;
    case Kind::Symbol: {
      auto it = bindings.find(node.name);
      if (it == bindings.end())
        return errorIn(source, "symbol '" + node.name + "' is not bound");
      values[i] = it->second;
      break;
    }
    case Kind::Add:
      overflow = llvm::AddOverflow(lhs, rhs, values[i]);
      break;
    case Kind::Sub:
      overflow = llvm::SubOverflow(lhs, rhs, values[i]);
      break;
    case Kind::Mul:
      overflow = llvm::MulOverflow(lhs, rhs, values[i]);
      break;
    case Kind::Negate:
      overflow = llvm::SubOverflow(int64_t(0), lhs, values[i]);
      break;
    case Kind::FloorDiv: {
      if (rhs == 0)
        return errorIn(source, "division by zero");
      std::optional<int64_t> quotient = floorDivide(lhs, rhs);
      overflow = !quotient;
      values[i] = quotient.value_or(0);
      break;
    }
    }
    if (overflow)
      return errorIn(source, "the value overflows 64 bits");
  }
  return values[root];
}

void SymExpr::collectSymbols(std::set<std::string> &symbols) const {
  for (const Node &node : nodes)
    if (node.kind == Kind::Symbol)
      symbols.insert(node.name);
}

llvm::Expected<int64_t> evaluateSymExpr(llvm::StringRef expr,
                                        const SymbolBindings &bindings) {
  llvm::Expected<SymExpr> parsed = SymExpr::parse(expr);
  if (!parsed)
    return parsed.takeError();
  return parsed->evaluate(bindings);
}

llvm::Expected<std::vector<SymExpr>> parseSymShape(llvm::StringRef shape) {
  std::vector<SymExpr> dims;
  if (shape.trim().empty())
    return dims;
  std::vector<llvm::StringRef> texts;
  int depth = 0;
  size_t begin = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == '(')
      ++depth;
    else if (shape[i] == ')')
      --depth;
    else if (shape[i] == ',' && depth == 0) {
      texts.push_back(shape.slice(begin, i));
      begin = i + 1;
    }
  }
  texts.push_back(shape.drop_front(begin));
  for (llvm::StringRef text : texts) {
    llvm::Expected<SymExpr> dim = SymExpr::parse(text.trim());
    if (!dim)
      return dim.takeError();
    dims.push_back(std::move(*dim));
  }
  return dims;
}

namespace {

/// A bound as sympy prints it: an integer (or its string), `oo`/`int_oo`
/// for none.
std::optional<int64_t> rangeBound(const llvm::json::Value &value) {
  if (auto integer = value.getAsInteger())
    return *integer;
  if (auto text = value.getAsString()) {
    if (*text == "oo" || *text == "int_oo")
      return std::numeric_limits<int64_t>::max();
    int64_t parsed;
    if (!text->getAsInteger(10, parsed))
      return parsed;
  }
  return std::nullopt;
}

} // namespace

llvm::Expected<std::map<std::string, SymRange>>
parseSymRanges(llvm::StringRef json) {
  auto malformed = [](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "malformed coreai.sym_ranges: " + why);
  };
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed)
    return malformed(llvm::toString(parsed.takeError()));
  const llvm::json::Object *object = parsed->getAsObject();
  if (!object)
    return malformed("expected an object");
  std::map<std::string, SymRange> ranges;
  for (const auto &[name, value] : *object) {
    const llvm::json::Array *pair = value.getAsArray();
    std::optional<int64_t> lo, hi;
    if (pair && pair->size() == 2) {
      lo = rangeBound((*pair)[0]);
      hi = rangeBound((*pair)[1]);
    }
    if (!lo || !hi || *lo > *hi)
      return malformed("symbol '" + name.str() + "' needs [min, max]");
    ranges[name.str()] = {*lo, *hi};
  }
  return ranges;
}

} // namespace coreai
