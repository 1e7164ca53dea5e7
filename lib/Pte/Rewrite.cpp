//===- Rewrite.cpp - A program with new offsets and arena sizes -----------===//
//
// Only placements and arena sizes change; the rest of the file keeps its
// bytes. FlatBuffers stores a scalar field only when it differs from its
// default, so an offset of 0 often has no bytes to overwrite. Such a
// tensor gets a new placement record appended to the program's data (a
// table holding all three fields, behind one shared vtable), and its
// placement field, an offset forward to a table, is pointed at it; the
// old record stays, unreferenced. A record two tensors share is never
// overwritten. The arena sizes vector always holds every entry. When
// records were appended, the segments after the program move to the next
// position with their old alignment, and the extended header says where.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Pte/Program.h"

#include "FileLayout.h"

#include "coreai-plan/Pte/executorch_program_generated.h"

#include "llvm/Support/FormatVariadic.h"

#include <map>

namespace coreai::pte {
namespace {

/// Bytes of an appended placement record: the vtable (4 + 3 slots, padded
/// to 4), and each table (its vtable offset and three 32-bit fields).
constexpr size_t kVtableBytes = 12;
constexpr size_t kTableBytes = 16;

const flatbuffers::Table &asTable(const void *table) {
  return *reinterpret_cast<const flatbuffers::Table *>(table);
}

size_t alignUp(size_t value, size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// Appends placement records after the program's data.
class RecordAppender {
public:
  explicit RecordAppender(size_t at) : start(alignUp(at, 8)) {}

  /// Appends a record and returns where it starts (in the new file).
  size_t append(uint32_t memoryId, uint64_t offset) {
    if (records.empty())
      writeVtable();
    size_t table = start + records.size();
    auto put32 = [&](uint32_t value) {
      for (int i = 0; i < 4; ++i)
        records.push_back(char((value >> (8 * i)) & 0xff));
    };
    put32(uint32_t(table - start)); // soffset: the vtable is at `start`
    put32(memoryId);
    put32(uint32_t(offset & 0xffffffffu));
    put32(uint32_t(offset >> 32));
    return table;
  }

  bool empty() const { return records.empty(); }
  size_t begin() const { return start; }
  const std::string &bytes() const { return records; }

private:
  size_t start;
  std::string records;

  void writeVtable() {
    // Its size, the table's, the three fields' positions, padding to 4.
    const uint16_t vtable[] = {10, uint16_t(kTableBytes), 4, 8, 12, 0};
    static_assert(sizeof(vtable) == kVtableBytes);
    for (uint16_t half : vtable) {
      records.push_back(char(half & 0xff));
      records.push_back(char(half >> 8));
    }
  }
};

/// A little-endian scalar to write at a byte of the program.
struct Write {
  size_t at;
  uint64_t value;
  size_t width = 4;
};

/// How many tensors point at each placement record.
std::map<const void *, int>
placementUses(const fb::Program &root) {
  std::map<const void *, int> uses;
  for (const fb::ExecutionPlan *plan : *root.methods())
    if (plan->values())
      for (const fb::EValue *value : *plan->values())
        if (const fb::Tensor *tensor = value->value_as_Tensor())
          if (tensor->placement())
            ++uses[tensor->placement()];
  return uses;
}

/// Everything the reader takes from a program but the offsets and the
/// arena sizes.
bool sameButPlacements(const Program &a, const Program &b) {
  if (a.methods.size() != b.methods.size())
    return false;
  for (size_t i = 0; i < a.methods.size(); ++i) {
    const Method &x = a.methods[i], &y = b.methods[i];
    if (x.name != y.name || x.tensorsOf != y.tensorsOf ||
        x.placedIndex != y.placedIndex || x.inputs != y.inputs ||
        x.outputs != y.outputs ||
        x.arenaSizes.size() != y.arenaSizes.size() ||
        x.instructions.size() != y.instructions.size() ||
        x.placed.size() != y.placed.size())
      return false;
    for (size_t k = 0; k < x.instructions.size(); ++k) {
      const Instruction &p = x.instructions[k], &q = y.instructions[k];
      if (p.kind != q.kind || p.op != q.op || p.args != q.args ||
          p.location != q.location)
        return false;
    }
    for (size_t k = 0; k < x.placed.size(); ++k) {
      const PlacedTensor &p = x.placed[k], &q = y.placed[k];
      if (p.value != q.value || p.memoryId != q.memoryId ||
          p.bytes != q.bytes || p.type != q.type || p.name != q.name ||
          p.initialData != q.initialData)
        return false;
    }
  }
  return true;
}

/// A valid program's tables never share bytes, but the FlatBuffers
/// verifier does not check that: in a corrupt one a field rewritten here
/// may also be part of another table. Read back, the program must say
/// what it said before, but for its placements.
llvm::Error checkNothingElseChanged(llvm::StringRef rewritten,
                                    uint64_t fileSize, const Program &program) {
  ReadOptions options;
  options.fileSize = fileSize;
  llvm::Expected<Program> reread =
      readProgram(rewritten, program.source, options);
  if (reread && sameButPlacements(program, *reread))
    return llvm::Error::success();
  if (!reread)
    llvm::consumeError(reread.takeError());
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      program.source + ": the program's tables share bytes with the "
                       "placements being rewritten (a corrupt program); "
                       "not rewritten");
}

/// The new file's first bytes (the program patched, records appended,
/// padding up to where the rest of the old file now starts) and where in
/// the old file that rest starts.
RewrittenHead assemble(const FileLayout &layout, uint64_t fileSize,
                       std::string out, const RecordAppender &appended);

} // namespace

llvm::Expected<RewrittenHead>
rewriteProgramHead(llvm::StringRef bytes, uint64_t fileSize,
                   const Program &program, const Placements &placements) {
  llvm::Expected<FileLayout> layout =
      readFileLayout(bytes, fileSize, program.source);
  if (!layout)
    return layout.takeError();
  // Where to write is read from the original bytes, never from the bytes
  // being changed: the writes are collected first, then made.
  const auto *base = reinterpret_cast<const uint8_t *>(bytes.data());
  const fb::Program *root = fb::GetProgram(bytes.data());
  std::map<const void *, int> uses = placementUses(*root);
  std::vector<Write> writes;
  RecordAppender appended(layout->programSize);
  // A tensor record two methods share gets one offset or none.
  std::map<const void *, uint64_t> offsetOfRecord;
  for (size_t i = 0; i < program.methods.size(); ++i) {
    const fb::ExecutionPlan *plan = root->methods()->Get(i);
    const Method &method = program.methods[i];
    for (size_t p = 0; p < method.placed.size(); ++p) {
      uint64_t offset = placements.offsets[i][p];
      // A placed tensor's value is a tensor (readProgram saw it).
      const fb::Tensor *tensor =
          plan->values()->Get(method.placed[p].value)->value_as_Tensor();
      auto [decided, first] = offsetOfRecord.emplace(tensor, offset);
      if (!first && decided->second != offset)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            program.source + ": methods share a tensor record their plans "
                             "place apart (value " +
                llvm::Twine(method.placed[p].value) + " of '" + method.name +
                "'); not rewritten");
      if (int64_t(offset) == method.placed[p].offset)
        continue;
      const fb::Placement *placement = tensor->placement();
      const flatbuffers::Table &record = asTable(placement);
      auto low = record.GetOptionalFieldOffset(fb::Placement::VT_OFFSET_LOW);
      auto high = record.GetOptionalFieldOffset(fb::Placement::VT_OFFSET_HIGH);
      const auto *at = reinterpret_cast<const uint8_t *>(placement);
      if (uses[placement] == 1 && low && (high || offset >> 32 == 0)) {
        writes.push_back({size_t(at + low - base), offset & 0xffffffffu});
        if (high)
          writes.push_back({size_t(at + high - base), offset >> 32});
        continue;
      }
      size_t table = appended.append(placement->memory_id(), offset);
      size_t field = size_t(
          asTable(tensor).GetAddressOf(fb::Tensor::VT_PLACEMENT) - base);
      writes.push_back({field, uint64_t(table - field)});
    }
    if (const auto *sizes = plan->arena_sizes())
      for (size_t m = 0; m < sizes->size(); ++m)
        writes.push_back({size_t(reinterpret_cast<const uint8_t *>(
                                     sizes->Data() + 8 * m) -
                                 base),
                          uint64_t(placements.arenaSizes[i][m]), 8});
  }
  std::string out = bytes.substr(0, layout->programSize).str();
  for (const Write &write : writes)
    writeLittleEndian(out, write.at, write.width, write.value);
  RewrittenHead result = assemble(*layout, fileSize, std::move(out), appended);
  if (llvm::Error error = checkNothingElseChanged(
          result.bytes, result.bytes.size() + (fileSize - result.tailFrom),
          program))
    return error;
  return result;
}

llvm::Expected<std::string> rewriteProgram(llvm::StringRef bytes,
                                           const Program &program,
                                           const Placements &placements) {
  llvm::Expected<RewrittenHead> head =
      rewriteProgramHead(bytes, bytes.size(), program, placements);
  if (!head)
    return head.takeError();
  return head->bytes + bytes.substr(head->tailFrom).str();
}

namespace {

RewrittenHead assemble(const FileLayout &layout, uint64_t fileSize,
                       std::string out, const RecordAppender &appended) {
  if (appended.empty())
    return {std::move(out), layout.programSize};
  out.resize(appended.begin(), '\0');
  out += appended.bytes();
  if (!layout.extendedHeader)
    return {std::move(out), fileSize};
  uint64_t programSize = out.size();
  writeLittleEndian(out, kProgramSizeAt, 8, programSize);
  if (layout.segmentBase == 0)
    return {std::move(out), layout.programSize};
  // The segments keep the alignment their old start had.
  uint64_t alignment = 1;
  while (alignment < 65536 && layout.segmentBase % (alignment * 2) == 0)
    alignment *= 2;
  uint64_t segmentBase = alignUp(programSize, alignment);
  writeLittleEndian(out, kSegmentBaseAt, 8, segmentBase);
  out.resize(segmentBase, '\0');
  return {std::move(out), layout.segmentBase};
}

} // namespace

} // namespace coreai::pte
