//===- Program.cpp - Reading an ExecuTorch program ------------------------===//
//
// The program's FlatBuffers buffer is verified (bounds, offsets, the fields
// the schema subset declares), then copied into plain structs: values as
// tensors or lists of tensors, instructions with their arguments, planned
// tensors with their arena, offset and bytes. Every index is checked here,
// so the analyses above may trust them.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Pte/Program.h"

#include "FileLayout.h"

#include "coreai-plan/Pte/InputKind.h"

#include "coreai-plan/Pte/executorch_program_generated.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <limits>

namespace coreai::pte {
namespace {

/// The format's element types (ScalarType numbers): name and bytes.
struct ElementType {
  int number;
  const char *name;
  int64_t bytes;
};
constexpr ElementType kElementTypes[] = {
    {0, "u8", 1},       {1, "i8", 1},        {2, "i16", 2},
    {3, "i32", 4},      {4, "i64", 8},       {5, "f16", 2},
    {6, "f32", 4},      {7, "f64", 8},       {11, "bool", 1},
    {12, "qi8", 1},     {13, "qu8", 1},      {14, "qi32", 4},
    {15, "bf16", 2},    {16, "qu4x2", 1},    {17, "qu2x4", 1},
    {22, "bits16", 2},  {23, "f8e5m2", 1},   {24, "f8e4m3fn", 1},
    {25, "f8e5m2fnuz", 1}, {26, "f8e4m3fnuz", 1}, {27, "u16", 2},
    {28, "u32", 4},     {29, "u64", 8},
};

const ElementType *elementType(int number) {
  for (const ElementType &type : kElementTypes)
    if (type.number == number)
      return &type;
  return nullptr;
}

/// Reads one method, checking every index it holds.
class MethodReader {
public:
  MethodReader(const fb::ExecutionPlan &plan, llvm::StringRef bytes,
               llvm::StringRef source, bool keepOutside)
      : plan(plan), base(bytes.data()), source(source),
        keepOutside(keepOutside) {}

  llvm::Expected<Method> read() {
    method.name = plan.name() ? plan.name()->str() : "";
    size_t count = plan.values() ? plan.values()->size() : 0;
    method.tensorsOf.resize(count);
    method.placedIndex.assign(count, -1);
    for (size_t v = 0; v < count; ++v)
      if (llvm::Error error = readValue(v, *plan.values()->Get(v)))
        return error;
    if (llvm::Error error = readIndices(plan.inputs(), "input", method.inputs))
      return error;
    if (llvm::Error error =
            readIndices(plan.outputs(), "output", method.outputs))
      return error;
    // The verifier checks a vector's length field for 4-byte alignment
    // only: a corrupt file's 64-bit sizes may sit misaligned, so they are
    // copied out bytewise rather than loaded.
    if (const auto *sizes = plan.arena_sizes())
      for (size_t m = 0; m < sizes->size(); ++m) {
        int64_t size;
        std::memcpy(&size, sizes->Data() + m * sizeof(int64_t), sizeof size);
        size = int64_t(llvm::support::endian::byte_swap<uint64_t>(
            uint64_t(size), llvm::endianness::little));
        if (size < 0)
          return fail(llvm::formatv("an arena of {0} bytes", size));
        method.arenaSizes.push_back(size);
      }
    if (plan.delegates())
      for (const fb::BackendDelegate *delegate : *plan.delegates())
        method.delegates.push_back(
            delegate && delegate->id() ? delegate->id()->str() : "");
    if (plan.chains())
      for (const fb::Chain *chain : *plan.chains())
        if (llvm::Error error = readChain(*chain))
          return error;
    if (llvm::Error error = checkPlacements())
      return error;
    return std::move(method);
  }

private:
  const fb::ExecutionPlan &plan;
  const char *base; ///< the file's first byte
  llvm::StringRef source;
  bool keepOutside; ///< tensors past their arena's end are kept
  Method method;

  int64_t positionOf(const void *table) const {
    return int64_t(static_cast<const char *>(table) - base);
  }

  llvm::Error fail(const llvm::Twine &what) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   source + ": method '" + method.name +
                                       "': " + what);
  }

  bool inRange(int64_t value) const {
    return value >= 0 && value < int64_t(method.tensorsOf.size());
  }

  llvm::Error readValue(size_t v, const fb::EValue &value) {
    if (const fb::Tensor *tensor = value.value_as_Tensor()) {
      method.tensorsOf[v] = {int64_t(v)};
      return readTensor(v, *tensor);
    }
    const flatbuffers::Vector<int32_t> *items = nullptr;
    if (const fb::TensorList *list = value.value_as_TensorList())
      items = list->items();
    else if (const fb::OptionalTensorList *list =
                 value.value_as_OptionalTensorList())
      items = list->items();
    if (!items)
      return llvm::Error::success();
    bool optional = value.value_type() == fb::Value::OptionalTensorList;
    for (int32_t item : *items) {
      if (optional && item == -1)
        continue;
      if (!inRange(item))
        return fail(llvm::formatv("tensor list {0} names value {1}, but the "
                                  "method has {2} values",
                                  v, item, method.tensorsOf.size()));
      method.tensorsOf[v].push_back(item);
    }
    return llvm::Error::success();
  }

  llvm::Error readTensor(size_t v, const fb::Tensor &tensor) {
    const fb::Placement *placement = tensor.placement();
    if (!placement)
      return llvm::Error::success();
    const ElementType *type = elementType(tensor.element_type());
    if (!type)
      return fail(llvm::formatv("tensor value {0} has element type {1}, "
                                "which this reader does not know",
                                v, int(tensor.element_type())));
    PlacedTensor placed;
    placed.value = int64_t(v);
    placed.memoryId = placement->memory_id();
    placed.offset = int64_t(placement->offset_low()) |
                    (int64_t(placement->offset_high()) << 32);
    int64_t elements = 1;
    std::vector<std::string> dims;
    if (tensor.sizes())
      for (int32_t size : *tensor.sizes()) {
        if (size < 0 ||
            (size > 0 && elements > std::numeric_limits<int64_t>::max() /
                                        (size * type->bytes)))
          return fail(llvm::formatv("tensor value {0} has size {1}", v, size));
        elements *= size;
        dims.push_back(std::to_string(size));
      }
    placed.bytes = elements * type->bytes;
    placed.type = std::string(type->name) + "[" + llvm::join(dims, ", ") + "]";
    if (tensor.extra() && tensor.extra()->name())
      placed.name = tensor.extra()->name()->str();
    placed.initialData = tensor.constant_index() > 0;
    placed.record = positionOf(&tensor);
    placed.placementRecord = positionOf(placement);
    method.placedIndex[v] = int64_t(method.placed.size());
    method.placed.push_back(std::move(placed));
    return llvm::Error::success();
  }

  llvm::Error readIndices(const flatbuffers::Vector<int32_t> *indices,
                          llvm::StringRef what, std::vector<int64_t> &out) {
    if (!indices)
      return llvm::Error::success();
    for (int32_t index : *indices) {
      if (!inRange(index))
        return fail(llvm::formatv("{0} names value {1}, but the method has "
                                  "{2} values",
                                  what, index, method.tensorsOf.size()));
      out.push_back(index);
    }
    return llvm::Error::success();
  }

  std::string operatorName(int32_t index) const {
    const fb::Operator *op = plan.operators()->Get(index);
    std::string name = op->name() ? op->name()->str() : "?";
    if (op->overload() && op->overload()->size())
      name += "." + op->overload()->str();
    return name;
  }

  llvm::Error readChain(const fb::Chain &chain) {
    if (!chain.instructions())
      return llvm::Error::success();
    const auto *traces = chain.stacktrace();
    for (size_t i = 0; i < chain.instructions()->size(); ++i) {
      Instruction instruction;
      if (llvm::Error error =
              readInstruction(*chain.instructions()->Get(i), instruction))
        return error;
      if (traces && i < traces->size())
        instruction.location = userFrame(traces->Get(i));
      method.instructions.push_back(std::move(instruction));
    }
    return llvm::Error::success();
  }

  /// The user's line: the innermost frame outside installed packages
  /// (torch's own modules are frames too), else the innermost.
  static std::string userFrame(const fb::FrameList *list) {
    if (!list || !list->frames() || list->frames()->size() == 0)
      return "";
    const auto &frames = *list->frames();
    const fb::Frame *chosen = frames.Get(frames.size() - 1);
    for (size_t k = frames.size(); k-- > 0;) {
      llvm::StringRef file =
          frames.Get(k)->file() ? frames.Get(k)->file()->string_view() : "";
      if (!file.contains("site-packages/") && !file.contains("dist-packages/")) {
        chosen = frames.Get(k);
        break;
      }
    }
    return (chosen->file() ? chosen->file()->str() : std::string("?")) + ":" +
           std::to_string(chosen->line());
  }

  llvm::Error readInstruction(const fb::Instruction &from, Instruction &to) {
    size_t position = method.instructions.size();
    std::vector<int64_t> args;
    if (const fb::KernelCall *call = from.call_as_KernelCall()) {
      int32_t index = call->operator_index();
      if (!plan.operators() || index < 0 ||
          index >= int32_t(plan.operators()->size()))
        return fail(llvm::formatv("instruction {0} calls operator {1}, but "
                                  "the method lists {2}",
                                  position, index,
                                  plan.operators() ? plan.operators()->size()
                                                   : 0));
      to.kind = Instruction::Kind::Kernel;
      to.op = operatorName(index);
      if (call->args())
        args.assign(call->args()->begin(), call->args()->end());
    } else if (const fb::DelegateCall *call = from.call_as_DelegateCall()) {
      to.kind = Instruction::Kind::Delegate;
      int32_t index = call->delegate_index();
      to.op = "delegate " + std::to_string(index);
      if (index >= 0 && index < int32_t(method.delegates.size()))
        to.op += " (" + printable(method.delegates[index]) + ")";
      if (call->args())
        args.assign(call->args()->begin(), call->args()->end());
    } else if (const fb::MoveCall *call = from.call_as_MoveCall()) {
      to.kind = Instruction::Kind::Move;
      to.op = "move";
      args = {call->from(), call->to()};
    } else if (const fb::JumpFalseCall *call = from.call_as_JumpFalseCall()) {
      to.kind = Instruction::Kind::JumpFalse;
      to.op = "jump";
      args = {call->condition()};
    } else if (const fb::FreeCall *call = from.call_as_FreeCall()) {
      to.kind = Instruction::Kind::Free;
      to.op = "free";
      args = {call->value()};
    } else {
      return fail(llvm::formatv("instruction {0} is of a kind this reader "
                                "does not know (type {1})",
                                position, int(from.call_type())));
    }
    for (int64_t arg : args)
      if (!inRange(arg))
        return fail(llvm::formatv("instruction {0} ({1}) names value {2}, "
                                  "but the method has {3} values",
                                  position, to.op, arg,
                                  method.tensorsOf.size()));
    to.args = std::move(args);
    return llvm::Error::success();
  }

  /// Every planned tensor inside an arena the method sizes.
  llvm::Error checkPlacements() const {
    for (const PlacedTensor &t : method.placed) {
      if (t.memoryId < 1 || t.memoryId >= int64_t(method.arenaSizes.size()))
        return fail(llvm::formatv(
            "tensor value {0} is placed in memory id {1}, but the method "
            "sizes arenas 1..{2}",
            t.value, t.memoryId, int64_t(method.arenaSizes.size()) - 1));
      int64_t arena = method.arenaSizes[t.memoryId];
      // Kept or not, offsets and sizes stay far from overflowing a sum.
      constexpr int64_t kFar = int64_t(1) << 60;
      if (t.offset < 0 || t.offset > kFar || t.bytes > kFar ||
          (!keepOutside && (t.bytes > arena || t.offset > arena - t.bytes)))
        return fail(llvm::formatv(
            "tensor value {0} ({1}, {2} bytes at offset {3}) lies outside "
            "arena {4} ({5} bytes)",
            t.value, t.type, t.bytes, t.offset, t.memoryId, arena));
    }
    return llvm::Error::success();
  }
};

} // namespace

int64_t arenaPadding(const Method &method) {
  // ExecuTorch's rule (exir/memory_planning.py): a delegate whose backend
  // id contains `xnnpack`, in any case, pads each arena by 64 bytes.
  constexpr int64_t kXnnpackPadding = 64;
  return llvm::any_of(method.delegates,
                      [](const std::string &id) {
                        return llvm::StringRef(id).contains_insensitive(
                            "xnnpack");
                      })
             ? kXnnpackPadding
             : 0;
}

bool looksLikeProgram(llvm::StringRef bytes) {
  return bytes.size() >= 8 && bytes.substr(4, 2) == "ET" &&
         llvm::isDigit(bytes[6]) && llvm::isDigit(bytes[7]);
}

llvm::Expected<Program> readProgram(llvm::StringRef bytes,
                                    llvm::StringRef source,
                                    const ReadOptions &options) {
  auto bad = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   source + ": " + why);
  };
  if (!looksLikeProgram(bytes))
    return bad("not an ExecuTorch program (no `ET12` identifier at byte 4)");
  if (!fb::ProgramBufferHasIdentifier(bytes.data()))
    return bad("ExecuTorch program format '" + bytes.substr(4, 4) +
               "' is not supported (this coreai-plan reads ET12)");
  llvm::Expected<FileLayout> layout = readFileLayout(
      bytes, options.fileSize ? options.fileSize : bytes.size(), source);
  if (!layout)
    return layout.takeError();
  if (layout->programSize > bytes.size())
    return bad(llvm::formatv("only {0} of the program's {1} bytes were read",
                             bytes.size(), layout->programSize));
  // Large programs have many tables; depth stays small.
  flatbuffers::Verifier verifier(
      reinterpret_cast<const uint8_t *>(bytes.data()), layout->programSize,
      /*max_depth=*/64, /*max_tables=*/std::numeric_limits<uint32_t>::max());
  if (!fb::VerifyProgramBuffer(verifier))
    return bad("not a valid ExecuTorch program: the FlatBuffers verifier "
               "rejects it (truncated or corrupt)");
  const fb::Program *root = fb::GetProgram(bytes.data());
  Program program;
  program.source = source.str();
  if (!root->methods() || root->methods()->size() == 0)
    return bad("the program has no methods");
  for (const fb::ExecutionPlan *plan : *root->methods()) {
    llvm::Expected<Method> method =
        MethodReader(*plan, bytes, source, options.keepTensorsOutsideArenas)
            .read();
    if (!method)
      return method.takeError();
    program.methods.push_back(std::move(*method));
  }
  return program;
}

llvm::Expected<Program> readProgramFile(llvm::StringRef path) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return llvm::createStringError(file.getError(), "cannot read '%s': %s",
                                   path.str().c_str(),
                                   file.getError().message().c_str());
  return readProgram((*file)->getBuffer(), path);
}

} // namespace coreai::pte
