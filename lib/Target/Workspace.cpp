//===- Workspace.cpp - Workspace expressions: parse and evaluate ----------===//
#include "coreai-plan/Target/Workspace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <tuple>

namespace coreai {

enum class Kind {
  Integer, Negate, Add, Sub, Mul, Div, Min, Max, Cdiv, Align,
  Less, LessEqual, Greater, GreaterEqual, Equal,
  // Names. Tensor fields read `operand` (results when `result`).
  Numel, Bytes, Rank, ElementSize, Dim,
  Rows, Reduced, ArgDim, SplitK,
};

struct WorkspaceExpr::Node {
  Kind kind = Kind::Integer;
  int64_t value = 0;
  bool result = false; ///< tensor fields: out/outK rather than inK
  int64_t index = -1;  ///< tensor fields: K; -1 for the op-wide elem_size
  std::shared_ptr<const Node> lhs, rhs;
};

namespace {
using Node = WorkspaceExpr::Node;
using NodeRef = std::shared_ptr<const Node>;

llvm::Error parseError(size_t column, const llvm::Twine &what) {
  return llvm::createStringError(
      llvm::formatv("{0} at column {1}", what.str(), column + 1).str());
}

class Parser {
public:
  explicit Parser(llvm::StringRef text) : text(text) {}

  llvm::Expected<NodeRef> parseAll() {
    llvm::Expected<NodeRef> root = parseCompare();
    if (!root)
      return root;
    skipSpace();
    if (at < text.size())
      return parseError(at, llvm::formatv("unexpected '{0}'", text[at]));
    return root;
  }

private:
  void skipSpace() {
    while (at < text.size() && llvm::isSpace(text[at]))
      ++at;
  }
  bool consume(llvm::StringRef token) {
    skipSpace();
    if (!text.substr(at).starts_with(token))
      return false;
    at += token.size();
    return true;
  }
  llvm::Error expect(llvm::StringRef token) {
    if (consume(token))
      return llvm::Error::success();
    skipSpace();
    return parseError(at, llvm::formatv("expected '{0}'", token));
  }
  static NodeRef binary(Kind kind, NodeRef lhs, NodeRef rhs) {
    auto node = std::make_shared<Node>();
    node->kind = kind;
    node->lhs = std::move(lhs);
    node->rhs = std::move(rhs);
    return node;
  }

  llvm::Expected<NodeRef> parseCompare() {
    llvm::Expected<NodeRef> lhs = parseSum();
    if (!lhs)
      return lhs;
    // Two-character operators first.
    static const std::pair<llvm::StringLiteral, Kind> operators[] = {
        {"<=", Kind::LessEqual}, {">=", Kind::GreaterEqual},
        {"==", Kind::Equal},     {"<", Kind::Less},
        {">", Kind::Greater}};
    for (const auto &[token, kind] : operators)
      if (consume(token)) {
        llvm::Expected<NodeRef> rhs = parseSum();
        if (!rhs)
          return rhs;
        return binary(kind, *lhs, *rhs);
      }
    return lhs;
  }

  llvm::Expected<NodeRef> parseSum() {
    llvm::Expected<NodeRef> lhs = parseProduct();
    if (!lhs)
      return lhs;
    NodeRef node = *lhs;
    while (true) {
      Kind kind;
      if (consume("+"))
        kind = Kind::Add;
      else if (consume("-"))
        kind = Kind::Sub;
      else
        return node;
      llvm::Expected<NodeRef> rhs = parseProduct();
      if (!rhs)
        return rhs;
      node = binary(kind, node, *rhs);
    }
  }

  llvm::Expected<NodeRef> parseProduct() {
    llvm::Expected<NodeRef> lhs = parseUnary();
    if (!lhs)
      return lhs;
    NodeRef node = *lhs;
    while (true) {
      Kind kind;
      if (consume("*"))
        kind = Kind::Mul;
      else if (consume("/"))
        kind = Kind::Div;
      else
        return node;
      llvm::Expected<NodeRef> rhs = parseUnary();
      if (!rhs)
        return rhs;
      node = binary(kind, node, *rhs);
    }
  }

  llvm::Expected<NodeRef> parseUnary() {
    if (!consume("-"))
      return parseAtom();
    llvm::Expected<NodeRef> operand = parseUnary();
    if (!operand)
      return operand;
    return binary(Kind::Negate, *operand, nullptr);
  }

  llvm::Expected<NodeRef> parseAtom() {
    skipSpace();
    if (at >= text.size())
      return parseError(at, "expected a number, a name or '('");
    if (consume("(")) {
      llvm::Expected<NodeRef> inner = parseCompare();
      if (!inner)
        return inner;
      if (llvm::Error error = expect(")"))
        return llvm::Expected<NodeRef>(std::move(error));
      return inner;
    }
    if (llvm::isDigit(text[at])) {
      size_t begin = at;
      while (at < text.size() && llvm::isDigit(text[at]))
        ++at;
      auto node = std::make_shared<Node>();
      if (text.slice(begin, at).getAsInteger(10, node->value))
        return parseError(begin, "integer too large");
      return NodeRef(node);
    }
    size_t begin = at;
    while (at < text.size() &&
           (llvm::isAlnum(text[at]) || text[at] == '_' || text[at] == '.'))
      ++at;
    llvm::StringRef name = text.slice(begin, at);
    if (name.empty())
      return parseError(begin, llvm::formatv("unexpected '{0}'", text[begin]));
    return parseName(name, begin);
  }

  llvm::Expected<NodeRef> parseCall(Kind kind) {
    if (llvm::Error error = expect("("))
      return llvm::Expected<NodeRef>(std::move(error));
    llvm::Expected<NodeRef> lhs = parseCompare();
    if (!lhs)
      return lhs;
    if (llvm::Error error = expect(","))
      return llvm::Expected<NodeRef>(std::move(error));
    llvm::Expected<NodeRef> rhs = parseCompare();
    if (!rhs)
      return rhs;
    if (llvm::Error error = expect(")"))
      return llvm::Expected<NodeRef>(std::move(error));
    return binary(kind, *lhs, *rhs);
  }

  llvm::Expected<NodeRef> parseName(llvm::StringRef name, size_t column);

  llvm::StringRef text;
  size_t at = 0;
};

llvm::Expected<NodeRef> Parser::parseName(llvm::StringRef name,
                                          size_t column) {
  static const std::pair<llvm::StringLiteral, Kind> functions[] = {
      {"min", Kind::Min}, {"max", Kind::Max},
      {"cdiv", Kind::Cdiv}, {"align", Kind::Align}};
  for (const auto &[function, kind] : functions)
    if (name == function)
      return parseCall(kind);
  auto node = std::make_shared<Node>();
  static const std::pair<llvm::StringLiteral, Kind> opWide[] = {
      {"elem_size", Kind::ElementSize}, {"rows", Kind::Rows},
      {"reduced", Kind::Reduced},       {"arg.dim", Kind::ArgDim},
      {"split_k", Kind::SplitK}};
  for (const auto &[word, kind] : opWide)
    if (name == word) {
      node->kind = kind;
      return NodeRef(node);
    }
  // Not a structured binding: a lambda below captures `field`.
  llvm::StringRef tensor, field;
  std::tie(tensor, field) = name.split('.');
  bool known = true;
  if (tensor == "out") {
    node->result = true;
    node->index = 0;
  } else if (tensor.consume_front("out")) {
    node->result = true;
    known = !tensor.empty() && !tensor.getAsInteger(10, node->index);
  } else if (tensor.consume_front("in")) {
    known = !tensor.empty() && !tensor.getAsInteger(10, node->index);
  } else {
    known = false;
  }
  static const std::pair<llvm::StringLiteral, Kind> fields[] = {
      {"numel", Kind::Numel}, {"bytes", Kind::Bytes}, {"rank", Kind::Rank},
      {"elem_size", Kind::ElementSize}, {"dim", Kind::Dim},
      {"shape", Kind::Dim}};
  const auto *found = llvm::find_if(
      fields, [&](const auto &entry) { return entry.first == field; });
  if (!known || found == std::end(fields))
    return parseError(column, llvm::formatv("unknown name '{0}'", name));
  node->kind = found->second;
  if (node->kind == Kind::Dim) {
    bool bracket = field == "shape";
    if (llvm::Error error = expect(bracket ? "[" : "("))
      return llvm::Expected<NodeRef>(std::move(error));
    llvm::Expected<NodeRef> dim = parseCompare();
    if (!dim)
      return dim;
    if (llvm::Error error = expect(bracket ? "]" : ")"))
      return llvm::Expected<NodeRef>(std::move(error));
    node->lhs = *dim;
  }
  return NodeRef(node);
}

/// Evaluation with overflow and domain checks.
class Evaluator {
public:
  explicit Evaluator(const WorkspaceOp &op) : op(op) {}

  llvm::Expected<int64_t> eval(const Node &node) {
    switch (node.kind) {
    case Kind::Integer:
      return node.value;
    case Kind::Numel: case Kind::Bytes: case Kind::Rank:
    case Kind::ElementSize: case Kind::Dim:
      return tensorField(node);
    case Kind::Rows: case Kind::Reduced:
      return rowsOrReduced(node.kind == Kind::Rows);
    case Kind::ArgDim:
      if (op.dims.empty())
        return fail("it has no dim argument");
      return op.dims.front();
    case Kind::SplitK:
      return op.splitK;
    default:
      return arithmetic(node);
    }
  }

private:
  llvm::Error fail(const llvm::Twine &why) const {
    return llvm::createStringError(
        llvm::formatv("'{0}': {1}", op.name, why.str()).str());
  }

  llvm::Expected<int64_t> arithmetic(const Node &node) {
    llvm::Expected<int64_t> a = eval(*node.lhs);
    if (!a)
      return a;
    if (node.kind == Kind::Negate)
      return -*a;
    llvm::Expected<int64_t> b = eval(*node.rhs);
    if (!b)
      return b;
    int64_t result = 0;
    switch (node.kind) {
    case Kind::Add:
      if (llvm::AddOverflow(*a, *b, result))
        return fail("overflow");
      return result;
    case Kind::Sub:
      if (llvm::SubOverflow(*a, *b, result))
        return fail("overflow");
      return result;
    case Kind::Mul:
      if (llvm::MulOverflow(*a, *b, result))
        return fail("overflow");
      return result;
    case Kind::Div: case Kind::Cdiv: case Kind::Align:
      if (*b <= 0)
        return fail(llvm::formatv("division by {0}", *b));
      if (node.kind == Kind::Div)
        return llvm::divideFloorSigned(*a, *b);
      if (node.kind == Kind::Cdiv)
        return llvm::divideCeilSigned(*a, *b);
      if (llvm::MulOverflow(llvm::divideCeilSigned(*a, *b), *b, result))
        return fail("overflow");
      return result;
    case Kind::Min:
      return std::min(*a, *b);
    case Kind::Max:
      return std::max(*a, *b);
    case Kind::Less:
      return int64_t(*a < *b);
    case Kind::LessEqual:
      return int64_t(*a <= *b);
    case Kind::Greater:
      return int64_t(*a > *b);
    case Kind::GreaterEqual:
      return int64_t(*a >= *b);
    case Kind::Equal:
      return int64_t(*a == *b);
    default:
      return fail("malformed expression");
    }
  }

  llvm::Expected<const WorkspaceTensor *> tensor(const Node &node) {
    const std::vector<WorkspaceTensor> &list =
        node.result ? op.results : op.operands;
    if (node.index < 0 || size_t(node.index) >= list.size())
      return fail(llvm::formatv("it has no {0}{1} (it has {2} {3})",
                                node.result ? "out" : "in", node.index,
                                list.size(),
                                node.result ? "results" : "tensor operands"));
    return &list[node.index];
  }

  llvm::Expected<int64_t> numel(const WorkspaceTensor &t) {
    int64_t count = 1;
    for (int64_t extent : t.shape)
      if (llvm::MulOverflow(count, extent, count))
        return fail("overflow");
    return count;
  }

  llvm::Expected<int64_t> axis(int64_t dim, int64_t rank) {
    if (dim < -rank || dim >= rank)
      return fail(llvm::formatv("dimension {0} is out of range for rank {1}",
                                dim, rank));
    return dim < 0 ? dim + rank : dim;
  }

  llvm::Expected<int64_t> tensorField(const Node &node) {
    if (node.kind == Kind::ElementSize && node.index < 0) {
      const std::vector<WorkspaceTensor> &list =
          op.results.empty() ? op.operands : op.results;
      if (list.empty())
        return fail("it has no tensor to take elem_size from");
      return list.front().elementSize;
    }
    llvm::Expected<const WorkspaceTensor *> t = tensor(node);
    if (!t)
      return t.takeError();
    switch (node.kind) {
    case Kind::Numel:
      return numel(**t);
    case Kind::Bytes: {
      llvm::Expected<int64_t> count = numel(**t);
      if (!count)
        return count;
      int64_t bytes = 0;
      if (llvm::MulOverflow(*count, (*t)->elementSize, bytes))
        return fail("overflow");
      return bytes;
    }
    case Kind::Rank:
      return int64_t((*t)->shape.size());
    case Kind::ElementSize:
      return (*t)->elementSize;
    default: {
      llvm::Expected<int64_t> dim = eval(*node.lhs);
      if (!dim)
        return dim;
      llvm::Expected<int64_t> index = axis(*dim, (*t)->shape.size());
      if (!index)
        return index;
      return (*t)->shape[*index];
    }
    }
  }

  /// Over in0 and the op's dims: the product of the reduced extents, or
  /// the number of rows (everything else).
  llvm::Expected<int64_t> rowsOrReduced(bool rows) {
    if (op.operands.empty())
      return fail("it has no tensor operand");
    if (op.dims.empty())
      return fail("it has no dim argument");
    const WorkspaceTensor &in = op.operands.front();
    std::vector<bool> reduced(in.shape.size(), false);
    for (int64_t dim : op.dims) {
      llvm::Expected<int64_t> index = axis(dim, in.shape.size());
      if (!index)
        return index;
      reduced[*index] = true;
    }
    int64_t product = 1;
    for (size_t i = 0; i < in.shape.size(); ++i)
      if (reduced[i] != rows && llvm::MulOverflow(product, in.shape[i], product))
        return fail("overflow");
    return product;
  }

  const WorkspaceOp &op;
};

} // namespace

llvm::Expected<WorkspaceExpr> parseWorkspaceExpr(llvm::StringRef text) {
  llvm::Expected<NodeRef> root = Parser(text).parseAll();
  if (!root)
    return root.takeError();
  return WorkspaceExpr(*root);
}

llvm::Expected<int64_t> evaluate(const WorkspaceExpr &expr,
                                 const WorkspaceOp &op) {
  if (expr.empty())
    return 0;
  return Evaluator(op).eval(*expr.get());
}

llvm::ArrayRef<llvm::StringLiteral> workspaceOpClasses() {
  static constexpr llvm::StringLiteral classes[] = {
      "normalisation", "reduction", "matmul", "attention", "attention_kernel"};
  return classes;
}

const WorkspaceVariant *WorkspaceRule::variant(llvm::StringRef name) const {
  for (const WorkspaceVariant &candidate : variants)
    if (candidate.name == name)
      return &candidate;
  return nullptr;
}

const WorkspaceVariant &WorkspaceRule::cheapest() const {
  const WorkspaceVariant *best = &variants.front();
  for (const WorkspaceVariant &candidate : variants)
    if (candidate.cost < best->cost)
      best = &candidate;
  return *best;
}

bool namesAtenOp(llvm::StringRef ruleOp, llvm::StringRef name,
                 llvm::StringRef overload) {
  // Asked for every op of every clone: `name.overload` is matched in
  // place, not built.
  if (ruleOp == name)
    return true;
  return ruleOp.size() == name.size() + 1 + overload.size() &&
         ruleOp.starts_with(name) && ruleOp[name.size()] == '.' &&
         ruleOp.ends_with(overload);
}

const WorkspaceRule *WorkspaceRules::find(llvm::StringRef name,
                                          llvm::StringRef overload,
                                          llvm::StringRef opClass) const {
  for (const WorkspaceRule &rule : rules)
    if (!rule.op.empty() && namesAtenOp(rule.op, name, overload))
      return &rule;
  if (opClass.empty())
    return nullptr;
  for (const WorkspaceRule &rule : rules)
    if (rule.op.empty() && rule.opClass == opClass)
      return &rule;
  return nullptr;
}

} // namespace coreai
