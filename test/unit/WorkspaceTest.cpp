//===- WorkspaceTest.cpp - Workspace expressions and rules ----------------===//
#include "coreai-plan/Target/Target.h"
#include "coreai-plan/Target/Workspace.h"

#include <catch2/catch.hpp>

using namespace coreai;

namespace {

/// A softmax over the last dim of a 2x8x16 f16 tensor.
WorkspaceOp softmaxOp() {
  WorkspaceOp op;
  op.name = "aten._softmax";
  op.operands = {{{2, 8, 16}, 2}};
  op.results = {{{2, 8, 16}, 2}};
  op.dims = {-1};
  op.splitK = 4;
  return op;
}

int64_t eval(const char *text, const WorkspaceOp &op = softmaxOp()) {
  llvm::Expected<WorkspaceExpr> expr = parseWorkspaceExpr(text);
  REQUIRE(bool(expr));
  llvm::Expected<int64_t> value = evaluate(*expr, op);
  if (!value)
    FAIL(llvm::toString(value.takeError()));
  return *value;
}

std::string parseError(const char *text) {
  llvm::Expected<WorkspaceExpr> expr = parseWorkspaceExpr(text);
  REQUIRE_FALSE(bool(expr));
  return llvm::toString(expr.takeError());
}

std::string evalError(const char *text, const WorkspaceOp &op = softmaxOp()) {
  llvm::Expected<WorkspaceExpr> expr = parseWorkspaceExpr(text);
  REQUIRE(bool(expr));
  llvm::Expected<int64_t> value = evaluate(*expr, op);
  REQUIRE_FALSE(bool(value));
  return llvm::toString(value.takeError());
}

} // namespace

TEST_CASE("workspace expressions: arithmetic and precedence",
          "[workspace]") {
  CHECK(eval("1 + 2 * 3") == 7);
  CHECK(eval("(1 + 2) * 3") == 9);
  CHECK(eval("7 / 2") == 3);
  CHECK(eval("-7 / 2") == -4); // floors
  CHECK(eval("cdiv(7, 2)") == 4);
  CHECK(eval("align(100, 64)") == 128);
  CHECK(eval("min(3, 5) + max(3, 5)") == 8);
  CHECK(eval("10 - 2 - 3") == 5); // left associative
  CHECK(eval("(3 <= 4) * 10 + (3 > 4)") == 10);
  CHECK(eval("2 == 2") == 1);
}

TEST_CASE("workspace expressions: shapes, arguments, rows", "[workspace]") {
  CHECK(eval("in0.numel") == 256);
  CHECK(eval("out.bytes") == 512);
  CHECK(eval("out0.bytes") == 512);
  CHECK(eval("in0.rank") == 3);
  CHECK(eval("in0.dim(-1)") == 16);
  CHECK(eval("in0.shape[1]") == 8);
  CHECK(eval("in0.dim(1 - 2)") == 16);
  CHECK(eval("elem_size") == 2);
  CHECK(eval("in0.elem_size") == 2);
  CHECK(eval("arg.dim") == -1);
  CHECK(eval("rows") == 16);
  CHECK(eval("reduced") == 16);
  CHECK(eval("rows * 8") == 128);
  CHECK(eval("split_k * out.numel * 4") == 4096);
  WorkspaceOp mean = softmaxOp();
  mean.dims = {0, 2};
  CHECK(eval("rows", mean) == 8);
  CHECK(eval("reduced", mean) == 32);
}

TEST_CASE("workspace expressions: errors name the column", "[workspace]") {
  CHECK(parseError("rows * foo") == "unknown name 'foo' at column 8");
  CHECK(parseError("in0.size") == "unknown name 'in0.size' at column 1");
  CHECK(parseError("inx.numel") == "unknown name 'inx.numel' at column 1");
  CHECK(parseError("1 +") == "expected a number, a name or '(' at column 4");
  CHECK(parseError("(1 + 2") == "expected ')' at column 7");
  CHECK(parseError("min(1)") == "expected ',' at column 6");
  CHECK(parseError("1 2") == "unexpected '2' at column 3");
  CHECK(parseError("in0.dim[0]") == "expected '(' at column 8");
  CHECK(parseError("99999999999999999999") ==
        "integer too large at column 1");
}

TEST_CASE("workspace expressions: evaluation errors", "[workspace]") {
  CHECK(evalError("in3.numel") ==
        "'aten._softmax': it has no in3 (it has 1 tensor operands)");
  CHECK(evalError("in0.dim(3)") ==
        "'aten._softmax': dimension 3 is out of range for rank 3");
  CHECK(evalError("cdiv(1, 0)") == "'aten._softmax': division by 0");
  CHECK(evalError("4611686018427387904 * 4") == "'aten._softmax': overflow");
  WorkspaceOp mm = softmaxOp();
  mm.dims.clear();
  CHECK(evalError("arg.dim", mm) == "'aten._softmax': it has no dim argument");
  CHECK(evalError("rows", mm) == "'aten._softmax': it has no dim argument");
}

TEST_CASE("workspace rules in a target: parsed, found, refused by field",
          "[workspace][target]") {
  auto make = [](const std::string &rules) {
    std::string text = R"({"name": "t", "alignment": 64,
      "in_place_op_classes": [], "outputs_bound_before_call": true,
      "state_bound_before_call": true, "split_k": 2,
      "max_buffer_bytes": 4096, "workspace": )" +
                       rules + "}";
    return parseTarget(text, "t.json");
  };
  auto good = make(R"([{"op": "aten._softmax", "bytes": "rows * 8",
      "alignment": 16, "doc": "max and sum"},
    {"op": "aten.mean.dim", "bytes": "4"},
    {"class": "matmul", "bytes": "split_k * out.bytes"}])");
  REQUIRE(bool(good));
  CHECK(good->workspace.splitK == 2);
  CHECK(good->maxBufferBytes == 4096);
  REQUIRE(good->workspace.rules.size() == 3);
  CHECK(good->workspace.rules[0].alignment == 16);
  const WorkspaceRules &rules = good->workspace;
  CHECK(rules.find("aten._softmax", "default", "normalisation") ==
        &rules.rules[0]);
  CHECK(rules.find("aten.mean", "dim", "reduction") == &rules.rules[1]);
  CHECK(rules.find("aten.mean", "default", "reduction") == nullptr);
  CHECK(rules.find("aten.bmm", "default", "matmul") == &rules.rules[2]);
  CHECK(rules.find("aten.add", "Tensor", "") == nullptr);

  auto refused = [&](const std::string &rules) {
    auto target = make(rules);
    REQUIRE_FALSE(bool(target));
    return llvm::toString(target.takeError());
  };
  CHECK(refused(R"([{"op": "aten.mm", "bytes": "4"},
                    {"op": "aten.mm", "bytes": "4"},
                    {"op": "aten.bmm", "bytes": "out.numel * foo"}])") ==
        "t.json: workspace[2].bytes: unknown name 'foo' at column 13");
  CHECK(refused(R"([{"op": "aten.mm"}])") ==
        "t.json: workspace[0].bytes: missing (an expression, "
        "docs/WORKSPACE.md)");
  CHECK(refused(R"([{"class": "conv", "bytes": "1"}])") ==
        "t.json: workspace[0].class: unknown op class 'conv' (known: "
        "normalisation, reduction, matmul, attention, attention_kernel)");
  CHECK(refused(R"([{"op": "mm", "bytes": "1"}])") ==
        "t.json: workspace[0].op: 'mm' is not an ATen op (aten.NAME or "
        "aten.NAME.OVERLOAD)");
  CHECK(refused(R"([{"op": "aten.mm", "class": "matmul", "bytes": "1"}])")
            .find("workspace[0]: give exactly one of 'op'") !=
        std::string::npos);
  CHECK(refused(R"([{"op": "aten.mm", "bytes": "1", "alignment": 3}])") ==
        "t.json: workspace[0].alignment: must be a positive power of two");
  CHECK(refused(R"([{"op": "aten.mm", "bytes": "1", "size": 3}])")
            .find("workspace[0].size: unknown field") != std::string::npos);
}

TEST_CASE("shipped targets: h18p declares workspace, generic none",
          "[workspace][target]") {
  auto h18p = loadTarget("h18p", defaultTargetsDir());
  REQUIRE(bool(h18p));
  CHECK_FALSE(h18p->workspace.empty());
  CHECK(h18p->workspace.splitK == 4);
  CHECK(h18p->workspace.find("aten._softmax", "default", "normalisation"));
  CHECK(h18p->workspace.find("aten.scaled_dot_product_attention", "default",
                             "attention"));
  auto generic = loadTarget("generic", defaultTargetsDir());
  REQUIRE(bool(generic));
  CHECK(generic->workspace.empty());
}
