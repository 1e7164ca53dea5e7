//===- Manifest.h - The heap-size manifest of a bundle ----------*- C++ -*-===//
//
// What `coreai-plan plan` writes and `inspect` / `check-heap` read: every
// entry point of a bundle at every chunk size with its verified plan, and
// the one heap size the bundle must carry. Two encodings of one model:
// FlatBuffers (lib/Manifest/plan_manifest.fbs) for runtimes and JSON for
// people and scripts; both are documented in docs/MANIFEST.md.
//
//===----------------------------------------------------------------------===//
#ifndef COREAI_PLAN_MANIFEST_H
#define COREAI_PLAN_MANIFEST_H

#include "coreai-plan/Entry.h"
#include "coreai-plan/Parametric.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace coreai {

/// Bumped whenever a reader of the previous version would misread a file.
/// 3: parametric plans may borrow outputs (each buffer's region, the
/// outputs' sizes as expressions of S); a version 2 reader would take the
/// borrowed buffers for heap buffers. The entries' kernels (kernel_source,
/// kernels) are optional fields of version 3: a reader that predates them
/// skips them, and a manifest without them reads as one without kernels.
constexpr uint32_t kManifestFormatVersion = 3;

struct ManifestTarget {
  std::string name;
  int64_t alignment = 1;
  int64_t heapLimit = 0; ///< 0: unlimited
  /// The plan relies on kernels running their ops in IR order.
  bool kernelsInIrOrder = false;
};

/// One graph file of the bundle.
struct ManifestInput {
  std::string file;   ///< file name, without directories
  std::string sha256; ///< lower-case hex SHA-256 of the file's bytes
};

/// One planned entry point at one S, as recorded. Solver time is left out
/// on purpose: the same input must give byte-identical manifests.
struct ManifestEntry {
  PlannedEntry planned;
  uint32_t input = 0; ///< index into Manifest::inputs
  /// The planned function (`main__s16`) and the file holding it.
  std::string plannedFunction;
  std::string plannedFile;
};

/// One entry point planned once for every S in a range: the parametric
/// plan, whose buffers are those of the entry's planned instances (same
/// ids, in the same order).
struct ManifestParametric {
  std::string entry;  ///< function symbol name, without '@'
  uint32_t input = 0; ///< index into Manifest::inputs
  std::string symbol; ///< the shape symbol bound to S (`s58`)
  int64_t alignment = 1;
  ParametricPlan plan;
  /// Why the planner cut the range below plan.lo (empty for the lowest
  /// piece): for reports (`plan`, `explain`); no reader at run time needs
  /// it.
  std::string cut;
};

struct Manifest {
  uint32_t formatVersion = kManifestFormatVersion;
  std::string toolVersion;
  ManifestTarget target;
  std::vector<ManifestInput> inputs;
  int64_t bundleHeap = 0; ///< max over entries of their heap
  std::vector<ManifestEntry> entries;
  /// Entry points planned for a whole range of S (optional).
  std::vector<ManifestParametric> parametric;
};

/// The bundle heap: the largest heap of any entry, and of any parametric
/// plan at any S of its range.
int64_t bundleHeapOf(const Manifest &manifest);

/// Max of the heap over the range of S.
int64_t maxHeapOf(const ParametricPlan &plan);

/// The parametric plan of `entry` instantiated at S as a planned entry
/// (origins from an entry of the manifest at another S, when it has one);
/// nullopt when the manifest has none for `entry` or S is outside its
/// range.
std::optional<PlannedEntry> instantiate(const Manifest &manifest,
                                        const ManifestParametric &parametric,
                                        int64_t s);

/// The heap every entry of a bundle fits into: the largest entry heap.
int64_t bundleHeapOf(const std::vector<ManifestEntry> &entries);

/// Lower-case hex SHA-256 of `bytes`.
std::string sha256Hex(llvm::StringRef bytes);

/// FlatBuffers encoding (file identifier "CAPM").
std::string writeManifestBinary(const Manifest &manifest);
/// Rejects, naming `source`: a file that is not a manifest, a truncated or
/// corrupt one (flatbuffers::Verifier), and one of another format version.
llvm::Expected<Manifest> readManifestBinary(llvm::StringRef bytes,
                                            llvm::StringRef source);

/// JSON encoding: the same content, keys in a fixed order.
llvm::json::Value manifestToJson(const Manifest &manifest);
/// Pretty-printed JSON text ending in a newline.
std::string writeManifestJson(const Manifest &manifest);
llvm::Expected<Manifest> readManifestJson(llvm::StringRef text,
                                          llvm::StringRef source);

/// Reads either encoding: JSON if the first non-blank byte is '{'.
llvm::Expected<Manifest> readManifest(llvm::StringRef bytes,
                                      llvm::StringRef source);
/// Reads a file with readManifest(); errors name the path.
llvm::Expected<Manifest> readManifestFile(llvm::StringRef path);

} // namespace coreai

#endif // COREAI_PLAN_MANIFEST_H
