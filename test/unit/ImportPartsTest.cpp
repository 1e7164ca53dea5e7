//===- ImportPartsTest.cpp - The MLIR-free parts of the .pt2 importer -----===//
//
// Argument rendering (ArgsRepr: Python's own text for every argument kind
// torch.export writes) and schema decoding (ExportSchema: tensor metadata,
// density), each checked against what Python and torch would say.
//
//===----------------------------------------------------------------------===//
#include "ArgsRepr.h"
#include "ExportSchema.h"

#include "llvm/Support/FormatVariadic.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace coreai::import;

namespace {

/// The text of one serialized argument, or "error: ..." when refused.
std::string repr(llvm::StringRef json, const SymIntTexts &symInts = {}) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(json);
  REQUIRE(static_cast<bool>(value));
  llvm::Expected<std::string> text = argumentRepr(*value, symInts);
  if (!text)
    return "error: " + llvm::toString(text.takeError());
  return *text;
}

/// The metadata of a `tensor_values` entry, or its error message.
llvm::Expected<TensorMeta> meta(llvm::StringRef json) {
  return parseTensorMeta("t", json);
}

std::string errorOf(llvm::Error error) {
  return error ? llvm::toString(std::move(error)) : "";
}

} // namespace

TEST_CASE("floats are written as Python's repr writes them", "[import]") {
  CHECK(pythonFloat(0.5) == "0.5");
  CHECK(pythonFloat(1.0) == "1.0");
  CHECK(pythonFloat(1e-06) == "1e-06");
  CHECK(pythonFloat(1e16) == "1e+16");
  CHECK(pythonFloat(-2.5) == "-2.5");
  CHECK(pythonFloat(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(pythonFloat(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(pythonFloat(std::nan("")) == "nan");
}

TEST_CASE("each argument kind is rendered as Python text", "[import]") {
  CHECK(repr(R"({"as_int": 2})") == "2");
  CHECK(repr(R"({"as_float": 2})") == "2.0"); // JSON cannot tell 2.0 from 2
  CHECK(repr(R"({"as_ints": [1, -1]})") == "[1, -1]");
  CHECK(repr(R"({"as_floats": [0.5, 1]})") == "[0.5, 1.0]");
  CHECK(repr(R"({"as_float": "-Infinity"})") == "-inf");
  CHECK(repr(R"({"as_bool": true})") == "True");
  CHECK(repr(R"({"as_bools": [true, false]})") == "[True, False]");
  CHECK(repr(R"({"as_none": true})") == "None");
  CHECK(repr(R"({"as_tensor": {"name": "x"}})") == "T");
  CHECK(repr(R"({"as_tensors": [{"name": "x"}, {"name": "y"}]})") ==
        "[T, T]");
  CHECK(repr(R"({"as_optional_tensors": [{"as_tensor": {"name": "x"}},
                                          {"as_none": true}]})") ==
        "[T, None]");
  CHECK(repr(R"({"as_scalar_type": 7})") == "torch.float32");
  CHECK(repr(R"({"as_scalar_type": 6})") == "torch.float16");
  CHECK(repr(R"({"as_scalar_type": 5})") == "torch.int64");
  CHECK(repr(R"({"as_memory_format": 1})") == "torch.contiguous_format");
  CHECK(repr(R"({"as_device": {"type": "cuda", "index": 0}})") ==
        "device(type='cuda', index=0)");
}

TEST_CASE("symbolic arguments are written as their expressions",
          "[import]") {
  SymIntTexts symInts;
  symInts["sym_size_int_1"] = "(s58 + 1)";
  CHECK(repr(R"({"as_sym_int": {"as_name": "sym_size_int_1"}})", symInts) ==
        "(s58 + 1)");
  CHECK(repr(R"({"as_sym_int": {"as_name": "s58"}})", symInts) == "s58");
  CHECK(repr(R"({"as_sym_ints": [{"as_int": 1},
                                  {"as_name": "sym_size_int_1"}]})",
             symInts) == "[1, (s58 + 1)]");
}

TEST_CASE("malformed arguments are refused, not guessed", "[import]") {
  CHECK(repr(R"({"as_ints": 3})").find("error: malformed 'as_ints'") == 0);
  CHECK(repr(R"({"as_int": 1, "as_float": 2})") ==
        "error: malformed argument");
  CHECK(repr(R"({"as_sym_int": {"as_what": 1}})") ==
        "error: malformed symbolic argument");
}

TEST_CASE("a node's inputs become the coreai.args tuple, keywords named",
          "[import]") {
  llvm::Expected<llvm::json::Value> inputs = llvm::json::parse(R"([
    {"name": "self", "arg": {"as_tensor": {"name": "x"}}, "kind": 1},
    {"name": "dim", "arg": {"as_int": -1}, "kind": 1},
    {"name": "dtype", "arg": {"as_scalar_type": 7}, "kind": 2}])");
  REQUIRE(static_cast<bool>(inputs));
  llvm::Expected<std::string> text =
      argumentsRepr(*inputs->getAsArray(), SymIntTexts());
  REQUIRE(static_cast<bool>(text));
  CHECK(*text == "(T, -1, dtype=torch.float32)");
}

TEST_CASE("tensor metadata: sizes, strides, density", "[import]") {
  // A 2x3 f32 tensor with the given strides.
  auto twoByThree = [](int64_t outer, int64_t inner) {
    llvm::Expected<TensorMeta> parsed = meta(llvm::formatv(
        R"({{"dtype": 7, "sizes": [{{"as_int": 2}, {{"as_int": 3}],
            "strides": [{{"as_int": {0}}, {{"as_int": {1}}]})",
        outer, inner).str());
    REQUIRE(static_cast<bool>(parsed));
    return *parsed;
  };
  TensorMeta rowMajor = twoByThree(3, 1);
  CHECK(rowMajor.sizes == llvm::SmallVector<int64_t>{2, 3});
  CHECK_FALSE(rowMajor.dynamic);
  CHECK(isContiguous(rowMajor));
  CHECK(errorOf(checkDense(rowMajor, "t")).empty());
  // A transpose is dense but not row-major.
  TensorMeta transposed = twoByThree(1, 2);
  CHECK_FALSE(isContiguous(transposed));
  CHECK(errorOf(checkDense(transposed, "t")).empty());
  // Strides with gaps spread 6 elements over 9: not plannable as 6.
  CHECK(errorOf(checkDense(twoByThree(6, 1), "t")) ==
        "tensor 't' spreads 6 elements over 9 by its strides: only dense "
        "results are planned");
}

TEST_CASE("bad tensor metadata is refused with the tensor's name",
          "[import]") {
  auto message = [](llvm::StringRef json) {
    llvm::Expected<TensorMeta> parsed = meta(json);
    return parsed ? std::string("accepted")
                  : llvm::toString(parsed.takeError());
  };
  CHECK(message(R"({"dtype": 99, "sizes": []})").find(
            "tensor 't' has dtype 99, which the importer does not know") !=
        std::string::npos);
  CHECK(message(R"({"dtype": 7})").find("tensor 't' has no sizes") !=
        std::string::npos);
  CHECK(message(R"({"dtype": 7, "sizes": [{"as_int": -2}]})")
            .find("tensor 't' has negative size -2 in dim 0") !=
        std::string::npos);
  CHECK(message("{").find("tensor metadata of 't' is not valid JSON") !=
        std::string::npos);
}
