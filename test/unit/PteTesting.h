//===- PteTesting.h - Small ExecuTorch programs built in tests --*- C++ -*-===//
//
// Builds programs with the schema subset's own builders (so the bytes are
// what a FlatBuffers writer of the format would produce for those fields):
// f32 tensors placed at given offsets, kernel calls over value indices.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_TEST_PTETESTING_H
#define COREAI_PLAN_TEST_PTETESTING_H

#include "coreai-plan/Pte/executorch_program_generated.h"

#include <cstdint>
#include <string>
#include <vector>

namespace coreai::pte::testing {

struct TestTensor {
  int64_t offset = -1;  ///< -1: not placed
  int32_t elements = 1; ///< f32 elements
  int64_t memoryId = 1;
  std::string name; ///< a mutable buffer's name
};

struct TestValue {
  enum Kind { Tensor, List, Int } kind = Tensor;
  TestTensor tensor;
  std::vector<int32_t> items; ///< a list's value indices
};

struct TestCall {
  std::string op; ///< `aten::add.out`; "move", "jump" for those kinds
  std::vector<int32_t> args;
};

struct TestMethod {
  std::string name = "forward";
  std::vector<TestValue> values;
  std::vector<int32_t> inputs, outputs;
  std::vector<TestCall> calls;
  std::vector<int64_t> arenaSizes{0, 0};
  /// The backends' ids (`XnnpackBackend`); a call with op "delegate" calls
  /// the first.
  std::vector<std::string> delegates;

  int32_t tensor(int64_t offset, int32_t elements, std::string name = "") {
    TestValue value;
    value.tensor = {offset, elements, 1, std::move(name)};
    values.push_back(value);
    return int32_t(values.size() - 1);
  }
  int32_t list(std::vector<int32_t> items) {
    TestValue value;
    value.kind = TestValue::List;
    value.items = std::move(items);
    values.push_back(value);
    return int32_t(values.size() - 1);
  }
  int32_t scalar() {
    TestValue value;
    value.kind = TestValue::Int;
    values.push_back(value);
    return int32_t(values.size() - 1);
  }
  void call(std::string op, std::vector<int32_t> args) {
    calls.push_back({std::move(op), std::move(args)});
  }
};

inline flatbuffers::Offset<fb::EValue>
buildValue(flatbuffers::FlatBufferBuilder &fbb, const TestValue &value) {
  if (value.kind == TestValue::List)
    return fb::CreateEValue(
        fbb, fb::Value::TensorList,
        fb::CreateTensorListDirect(fbb, &value.items).Union());
  if (value.kind == TestValue::Int)
    return fb::CreateEValue(fbb, fb::Value::Int,
                            fb::CreateInt(fbb, 1).Union());
  const TestTensor &t = value.tensor;
  std::vector<int32_t> sizes{t.elements};
  flatbuffers::Offset<fb::Placement> placement;
  if (t.offset >= 0)
    placement = fb::CreatePlacement(fbb, uint32_t(t.memoryId),
                                    uint32_t(t.offset & 0xffffffff),
                                    uint32_t(t.offset >> 32));
  flatbuffers::Offset<fb::TensorExtra> extra;
  if (!t.name.empty())
    extra = fb::CreateTensorExtraDirect(fbb, t.name.c_str());
  auto sizesOffset = fbb.CreateVector(sizes);
  fb::TensorBuilder tensor(fbb);
  tensor.add_element_type(6); // f32
  tensor.add_sizes(sizesOffset);
  if (t.offset >= 0)
    tensor.add_placement(placement);
  if (!t.name.empty())
    tensor.add_extra(extra);
  return fb::CreateEValue(fbb, fb::Value::Tensor, tensor.Finish().Union());
}

inline flatbuffers::Offset<fb::ExecutionPlan>
buildMethod(flatbuffers::FlatBufferBuilder &fbb, const TestMethod &method) {
  std::vector<flatbuffers::Offset<fb::EValue>> values;
  for (const TestValue &value : method.values)
    values.push_back(buildValue(fbb, value));
  std::vector<std::string> opNames;
  std::vector<flatbuffers::Offset<fb::Instruction>> instructions;
  for (const TestCall &call : method.calls) {
    if (call.op == "move") {
      instructions.push_back(fb::CreateInstruction(
          fbb, fb::Call::MoveCall,
          fb::CreateMoveCall(fbb, call.args[0], call.args[1]).Union()));
      continue;
    }
    if (call.op == "jump") {
      instructions.push_back(fb::CreateInstruction(
          fbb, fb::Call::JumpFalseCall,
          fb::CreateJumpFalseCall(fbb, call.args[0], 0).Union()));
      continue;
    }
    if (call.op == "delegate") {
      instructions.push_back(fb::CreateInstruction(
          fbb, fb::Call::DelegateCall,
          fb::CreateDelegateCallDirect(fbb, 0, &call.args).Union()));
      continue;
    }
    int32_t index = int32_t(opNames.size());
    opNames.push_back(call.op);
    instructions.push_back(fb::CreateInstruction(
        fbb, fb::Call::KernelCall,
        fb::CreateKernelCallDirect(fbb, index, &call.args).Union()));
  }
  std::vector<flatbuffers::Offset<fb::Operator>> operators;
  for (const std::string &name : opNames) {
    size_t dot = name.rfind('.');
    operators.push_back(fb::CreateOperatorDirect(
        fbb, name.substr(0, dot).c_str(),
        dot == std::string::npos ? "" : name.substr(dot + 1).c_str()));
  }
  std::vector<flatbuffers::Offset<fb::Chain>> chains{
      fb::CreateChainDirect(fbb, &instructions)};
  std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates;
  for (const std::string &id : method.delegates)
    delegates.push_back(fb::CreateBackendDelegateDirect(fbb, id.c_str()));
  return fb::CreateExecutionPlanDirect(
      fbb, method.name.c_str(), &values, &method.inputs, &method.outputs,
      &chains, &operators, &delegates, &method.arenaSizes);
}

/// The program's bytes (no extended header, no segments).
inline std::string buildProgram(const std::vector<TestMethod> &methods) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans;
  for (const TestMethod &method : methods)
    plans.push_back(buildMethod(fbb, method));
  fb::FinishProgramBuffer(fbb, fb::CreateProgramDirect(fbb, 0, &plans));
  return std::string(reinterpret_cast<const char *>(fbb.GetBufferPointer()),
                     fbb.GetSize());
}

} // namespace coreai::pte::testing

#endif // COREAI_PLAN_TEST_PTETESTING_H
