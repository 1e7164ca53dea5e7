//===- Csv.cpp - MiniMalloc's CSV problem format --------------------------===//
#include "coreai-plan/Csv.h"
#include "coreai-plan/Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace coreai {
namespace {

enum Column { Id, Lower, Upper, Size, Offset, NumColumns };
constexpr const char *columnNames[NumColumns] = {"id", "lower", "upper",
                                                 "size", "offset"};

class CsvReader {
public:
  CsvReader(llvm::StringRef sourceName, int64_t alignment)
      : sourceName(sourceName), alignment(alignment) {}

  llvm::Expected<BufferProblem> read(llvm::StringRef text,
                                     std::vector<int64_t> *offsets);

private:
  llvm::Error error(size_t line, const llvm::Twine &message) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   sourceName + ":" + llvm::Twine(line) +
                                       ": " + message);
  }
  llvm::Error readHeader(llvm::StringRef line, size_t lineNo);
  llvm::Error readRow(llvm::StringRef line, size_t lineNo,
                      BufferProblem &problem, std::vector<int64_t> *offsets);
  llvm::Expected<int64_t> field(llvm::ArrayRef<llvm::StringRef> fields,
                                Column column, size_t lineNo) const;

  std::string sourceName;
  int64_t alignment;
  int columnIndex[NumColumns] = {-1, -1, -1, -1, -1};
  size_t numFields = 0;
  llvm::StringSet<> seenIds;
  int64_t totalSize = 0;
};

void splitFields(llvm::StringRef line,
                 llvm::SmallVectorImpl<llvm::StringRef> &fields) {
  line.split(fields, ',');
  for (llvm::StringRef &f : fields)
    f = f.trim();
}

llvm::Error CsvReader::readHeader(llvm::StringRef line, size_t lineNo) {
  llvm::SmallVector<llvm::StringRef> fields;
  splitFields(line, fields);
  numFields = fields.size();
  for (size_t i = 0; i < fields.size(); ++i)
    for (int c = 0; c < NumColumns; ++c)
      if (fields[i] == columnNames[c]) {
        if (columnIndex[c] >= 0)
          return error(lineNo, llvm::Twine("column '") + columnNames[c] +
                                   "' appears twice");
        columnIndex[c] = int(i);
      }
  for (int c = Id; c <= Size; ++c)
    if (columnIndex[c] < 0)
      return error(lineNo, llvm::Twine("missing column '") + columnNames[c] +
                               "' (expected header id,lower,upper,size)");
  return llvm::Error::success();
}

llvm::Expected<int64_t>
CsvReader::field(llvm::ArrayRef<llvm::StringRef> fields, Column column,
                 size_t lineNo) const {
  llvm::StringRef text = fields[columnIndex[column]];
  int64_t value;
  if (text.getAsInteger(10, value))
    return error(lineNo, llvm::Twine("'") + columnNames[column] +
                             "' is not a 64-bit integer: '" + text + "'");
  return value;
}

llvm::Error CsvReader::readRow(llvm::StringRef line, size_t lineNo,
                               BufferProblem &problem,
                               std::vector<int64_t> *offsets) {
  llvm::SmallVector<llvm::StringRef> fields;
  splitFields(line, fields);
  if (fields.size() != numFields)
    return error(lineNo, llvm::formatv("expected {0} fields, found {1}",
                                       numFields, fields.size()));
  Buffer buffer;
  buffer.id = fields[columnIndex[Id]].str();
  if (buffer.id.empty())
    return error(lineNo, "empty id");
  if (!seenIds.insert(buffer.id).second)
    return error(lineNo, "duplicate id '" + buffer.id + "'");
  auto lower = field(fields, Lower, lineNo);
  if (!lower)
    return lower.takeError();
  auto upper = field(fields, Upper, lineNo);
  if (!upper)
    return upper.takeError();
  auto size = field(fields, Size, lineNo);
  if (!size)
    return size.takeError();
  if (*lower < 0)
    return error(lineNo, llvm::formatv("lower {0} is negative", *lower));
  if (*upper <= *lower)
    return error(lineNo, llvm::formatv("upper {0} must be greater than lower "
                                       "{1} (intervals are [lower, upper))",
                                       *upper, *lower));
  if (*size <= 0)
    return error(lineNo, llvm::formatv("size {0} must be positive", *size));
  if (*size > INT64_MAX - alignment ||
      llvm::AddOverflow(totalSize, alignTo(*size, alignment), totalSize))
    return error(lineNo, "the sizes summed so far overflow 64 bits");
  buffer.start = *lower;
  buffer.end = *upper;
  buffer.size = *size;
  buffer.alignment = alignment;
  if (columnIndex[Offset] >= 0 && offsets) {
    auto offset = field(fields, Offset, lineNo);
    if (!offset)
      return offset.takeError();
    offsets->push_back(*offset);
  }
  problem.buffers.push_back(std::move(buffer));
  return llvm::Error::success();
}

llvm::Expected<BufferProblem> CsvReader::read(llvm::StringRef text,
                                              std::vector<int64_t> *offsets) {
  BufferProblem problem;
  bool haveHeader = false;
  size_t lineNo = 0;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    ++lineNo;
    line = line.trim();
    if (line.empty())
      continue;
    llvm::Error err = haveHeader
                          ? readRow(line, lineNo, problem, offsets)
                          : readHeader(line, lineNo);
    if (err)
      return err;
    haveHeader = true;
  }
  if (!haveHeader)
    return error(1, "empty input: expected header id,lower,upper,size");
  return problem;
}

} // namespace

llvm::Expected<BufferProblem> readProblemCsv(llvm::StringRef text,
                                             llvm::StringRef sourceName,
                                             int64_t alignment,
                                             std::vector<int64_t> *offsets) {
  if (llvm::Error error = checkAlignment(alignment))
    return error;
  return CsvReader(sourceName, alignment).read(text, offsets);
}

std::string writeProblemCsv(const BufferProblem &problem, const Plan *plan) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "id,lower,upper,size" << (plan ? ",offset" : "") << "\n";
  for (size_t i = 0; i < problem.buffers.size(); ++i) {
    const Buffer &b = problem.buffers[i];
    os << b.id << "," << b.start << "," << b.end << "," << b.size;
    if (plan)
      os << "," << plan->offsets[i];
    os << "\n";
  }
  return text;
}

} // namespace coreai
