//===- ExportSchema.h - torch.export's program JSON as plain structs -*- C++ -*-===//
//
// What the importer reads of a `models/*.json` member (PyTorch's
// torch/_export/serde/schema.py, major version 8): the graph's parts, its
// placeholders and outputs with their signature kinds, each tensor's
// metadata, and the few facts of a node the IR builder asks. Errors are
// llvm::Error text; the builder (passes/Import) gives them a location.
// No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_LIB_IMPORT_EXPORTSCHEMA_H
#define COREAI_PLAN_LIB_IMPORT_EXPORTSCHEMA_H

#include "ArgsRepr.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace coreai::import {

/// The major version of torch.export's archive schema
/// (`torch/_export/serde/schema.py`) the importer understands.
constexpr int64_t kSupportedExportSchemaMajor = 8;

/// The size of a symbolic dim in `TensorMeta::sizes`.
inline constexpr int64_t kSymbolicSize = std::numeric_limits<int64_t>::min();

/// A tensor's metadata from `tensor_values`.
struct TensorMeta {
  int64_t dtype = 0; ///< torch's ScalarType code (scalarTypeName knows it)
  llvm::SmallVector<int64_t> sizes; ///< kSymbolicSize where symbolic
  /// Per dim: the size as text (an integer or an infix expression).
  llvm::SmallVector<std::string> dims;
  /// Sizes and strides at the example inputs (the `hint`), when known.
  llvm::SmallVector<int64_t> hintSizes, hintStrides;
  bool hinted = false;
  bool dynamic = false;
  std::string symShape() const;
};

/// The metadata of tensor `name` from its `tensor_values` JSON text.
llvm::Expected<TensorMeta> parseTensorMeta(llvm::StringRef name,
                                           llvm::StringRef json);

/// A fresh result is sized as its element count; strides that spread its
/// elements over more storage (`empty_strided` with gaps) are an error.
llvm::Error checkDense(const TensorMeta &meta, llvm::StringRef name);

/// Dense row-major strides at the example sizes.
bool isContiguous(const TensorMeta &meta);

/// A graph input with its signature kind.
struct Placeholder {
  std::string fxName;
  std::string specKind; ///< user_input, parameter, buffer, tensor_constant
  std::string name;     ///< the parameter's, buffer's or input's name
  bool persistent = true;
};

/// A graph output with its signature kind (user_output, buffer_mutation).
struct GraphOutput {
  std::string specKind;
  std::optional<std::string> tensor; ///< none: a constant or None output
  std::string bufferName;            ///< for buffer mutations
};

/// The graph of one program, its big parts as JSON text parsed on demand.
struct ExportGraph {
  llvm::StringMap<llvm::StringRef> tensorValues; ///< name -> JSON text
  std::vector<llvm::StringRef> nodes;            ///< each node's JSON text
  SymIntTexts symInts;
  std::vector<Placeholder> placeholders; ///< in the graph's input order
  std::vector<GraphOutput> outputs;
};

/// The graph and signature of `program` (its small members, parsed) and
/// `graphModule` (the `graph_module` member's text); the schema version is
/// checked first.
llvm::Expected<ExportGraph> decodeGraph(const llvm::json::Object &program,
                                        llvm::StringRef graphModule);

/// The user's Python line of a node: the innermost frame of its
/// `stack_trace` (`File "model.py", line 12`).
struct SourceLine {
  std::string file;
  unsigned line = 0;
};
std::optional<SourceLine> sourceLineOf(const llvm::json::Object &node);

/// A node's outputs as FX names, flattened; `onlySymbolic` when it makes
/// no tensor (SymInt arithmetic, `None`).
struct NodeResults {
  llvm::SmallVector<std::string> names;
  bool onlySymbolic = false;
};
llvm::Expected<NodeResults> nodeResults(const llvm::json::Array &outputs,
                                        llvm::StringRef target);

/// The FX names of a node's tensor arguments in schema order, lists
/// flattened (the IR operands).
llvm::Expected<std::vector<std::string>>
tensorArgumentNames(const llvm::json::Array &inputs);

/// The FX name of the node's first argument when it is a tensor (`self`).
std::optional<std::string> selfArgumentName(const llvm::json::Array &inputs);

/// The literal bool of the argument `name`, when the node gives one.
std::optional<bool> boolArgument(const llvm::json::Array &inputs,
                                 llvm::StringRef name);

/// The module's `coreai.config` JSON text for the first program.
std::string programConfig(const llvm::json::Object &program,
                          llvm::StringRef archive, llvm::StringRef member);

/// `coreai.sym_ranges` JSON text (`{"s58": ["1", "64"]}`), or std::nullopt
/// when the program has no range constraints.
std::optional<std::string> symbolRanges(const llvm::json::Object &program);

} // namespace coreai::import

#endif // COREAI_PLAN_LIB_IMPORT_EXPORTSCHEMA_H
