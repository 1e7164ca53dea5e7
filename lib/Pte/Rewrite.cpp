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
    const uint16_t vtable[] = {10, uint16_t(kTableBytes), 4, 8, 12, 0};
    for (uint16_t half : vtable) {
      records.push_back(char(half & 0xff));
      records.push_back(char(half >> 8));
    }
  }
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

} // namespace

llvm::Expected<std::string> rewriteProgram(llvm::StringRef bytes,
                                           const Program &program,
                                           const Placements &placements) {
  llvm::Expected<FileLayout> layout = readFileLayout(bytes, program.source);
  if (!layout)
    return layout.takeError();
  std::string out = bytes.substr(0, layout->programSize).str();
  fb::Program *root = fb::GetMutableProgram(out.data());
  std::map<const void *, int> uses = placementUses(*root);
  RecordAppender appended(out.size());
  for (size_t i = 0; i < program.methods.size(); ++i) {
    fb::ExecutionPlan *plan = root->mutable_methods()->GetMutableObject(i);
    const Method &method = program.methods[i];
    for (size_t p = 0; p < method.placed.size(); ++p) {
      uint64_t offset = placements.offsets[i][p];
      if (int64_t(offset) == method.placed[p].offset)
        continue;
      // A placed tensor's value is a tensor (readProgram saw it).
      fb::Tensor *tensor = static_cast<fb::Tensor *>(
          plan->mutable_values()
              ->GetMutableObject(method.placed[p].value)
              ->mutable_value());
      fb::Placement *placement = tensor->mutable_placement();
      const flatbuffers::Table &record = asTable(placement);
      bool inPlace =
          uses[placement] == 1 &&
          record.GetOptionalFieldOffset(fb::Placement::VT_OFFSET_LOW) &&
          (record.GetOptionalFieldOffset(fb::Placement::VT_OFFSET_HIGH) ||
           offset >> 32 == 0);
      if (inPlace) {
        placement->mutate_offset_low(uint32_t(offset & 0xffffffffu));
        placement->mutate_offset_high(uint32_t(offset >> 32));
        continue;
      }
      size_t table = appended.append(placement->memory_id(), offset);
      const uint8_t *field =
          asTable(tensor).GetAddressOf(fb::Tensor::VT_PLACEMENT);
      size_t at = size_t(field - reinterpret_cast<const uint8_t *>(out.data()));
      writeLittleEndian(out, at, 4, uint64_t(table - at));
    }
    auto *sizes = plan->mutable_arena_sizes();
    for (size_t m = 0; sizes && m < sizes->size(); ++m)
      sizes->Mutate(flatbuffers::uoffset_t(m), placements.arenaSizes[i][m]);
  }
  if (appended.empty())
    return out + bytes.substr(layout->programSize).str();

  out.resize(appended.begin(), '\0');
  out += appended.bytes();
  if (!layout->extendedHeader)
    return out;
  uint64_t programSize = out.size();
  writeLittleEndian(out, kProgramSizeAt, 8, programSize);
  if (layout->segmentBase == 0)
    return out + bytes.substr(layout->programSize).str();
  // The segments keep the alignment their old start had.
  uint64_t alignment = 1;
  while (alignment < 65536 && layout->segmentBase % (alignment * 2) == 0)
    alignment *= 2;
  uint64_t segmentBase = alignUp(programSize, alignment);
  writeLittleEndian(out, kSegmentBaseAt, 8, segmentBase);
  out.resize(segmentBase, '\0');
  out += bytes.substr(layout->segmentBase).str();
  return out;
}

} // namespace coreai::pte
