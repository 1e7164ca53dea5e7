//===- Target.cpp - Target descriptions read from targets/*.json ----------===//
#include "coreai-plan/Target/Target.h"
#include "coreai-plan/Options.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace coreai {
namespace json = llvm::json;

bool Target::runsInPlace(llvm::StringRef opClass) const {
  return llvm::is_contained(inPlaceOpClasses, opClass);
}

bool Target::fuses(llvm::StringRef pattern) const {
  return llvm::is_contained(fusionPatterns, pattern);
}

static llvm::Error targetError(llvm::StringRef source,
                               const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 source + ": " + message);
}

// Found by argument-dependent lookup from json::ObjectMapper.
static bool fromJSON(const json::Value &value, Target &target,
                     json::Path path) {
  json::ObjectMapper o(value, path);
  // heap_limit is null or absent for an unlimited heap.
  std::optional<int64_t> heapLimit;
  if (!(o && o.map("name", target.name) &&
        o.mapOptional("description", target.description) &&
        o.map("alignment", target.alignment) &&
        o.mapOptional("heap_limit", heapLimit) &&
        o.map("in_place_op_classes", target.inPlaceOpClasses) &&
        o.map("outputs_bound_before_call", target.outputsBoundBeforeCall) &&
        o.map("state_bound_before_call", target.stateBoundBeforeCall) &&
        o.mapOptional("outputs_borrowable", target.outputsBorrowable) &&
        o.mapOptional("fusion", target.fusionPatterns)))
    return false;
  target.heapLimit = heapLimit.value_or(0);
  if (!isValidAlignment(target.alignment)) {
    path.field("alignment").report("must be a positive power of two");
    return false;
  }
  if (target.heapLimit < 0) {
    path.field("heap_limit").report("must not be negative");
    return false;
  }
  for (const std::string &opClass : target.inPlaceOpClasses)
    if (opClass != "elementwise" && opClass != "softmax") {
      path.field("in_place_op_classes")
          .report("unknown op class (known: elementwise, softmax)");
      return false;
    }
  static constexpr llvm::StringLiteral patterns[] = {
      "elementwise", "reduction", "cast", "attention"};
  for (const std::string &pattern : target.fusionPatterns)
    if (!llvm::is_contained(patterns, pattern)) {
      path.field("fusion").report(
          "unknown fusion pattern (known: elementwise, reduction, cast, "
          "attention)");
      return false;
    }
  return true;
}

llvm::Expected<Target> parseTarget(llvm::StringRef text,
                                   llvm::StringRef source) {
  llvm::Expected<json::Value> value = json::parse(text);
  if (!value)
    return targetError(source,
                       "invalid JSON: " + llvm::toString(value.takeError()));
  Target target;
  json::Path::Root root("target");
  if (!fromJSON(*value, target, root))
    return targetError(source, "invalid target description: " +
                                   llvm::toString(root.getError()));
  return target;
}

// COREAI_INSTALLED_TARGETS_DIR is where cmake/Install.cmake puts targets/,
// relative to the installed tools (../share/coreai-plan/targets). A tool
// run from the build tree finds nothing there (build/bin/../share) and
// reads the source tree's, so both work without --targets-dir.
llvm::StringRef defaultTargetsDir() {
  static const std::string dir = [] {
    // Any function's address names this binary (argv[0] is not needed
    // where /proc/self/exe is).
    std::string executable = llvm::sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&defaultTargetsDir));
    llvm::SmallString<256> installed(llvm::sys::path::parent_path(executable));
    llvm::sys::path::append(installed, COREAI_INSTALLED_TARGETS_DIR);
    llvm::sys::path::remove_dots(installed, /*remove_dot_dot=*/true);
    if (!executable.empty() && llvm::sys::fs::is_directory(installed))
      return std::string(installed);
    return std::string(COREAI_TARGETS_DIR);
  }();
  return dir;
}

std::vector<std::string> knownTargets(llvm::StringRef dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (llvm::sys::path::extension(it->path()) == ".json")
      names.push_back(llvm::sys::path::stem(it->path()).str());
  llvm::sort(names);
  return names;
}

llvm::Expected<Target> loadTarget(llvm::StringRef name, llvm::StringRef dir) {
  std::vector<std::string> known = knownTargets(dir);
  if (!llvm::is_contained(known, name))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "unknown target '" + name + "' (known targets: " +
            (known.empty() ? std::string("none, in ") + dir.str()
                           : llvm::join(known, ", ")) +
            ")");
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name + ".json");
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return targetError(path, file.getError().message());
  llvm::Expected<Target> target = parseTarget((*file)->getBuffer(), path);
  if (target && target->name != name)
    return targetError(path, "names target '" + target->name + "', expected '" +
                                 name + "'");
  return target;
}

} // namespace coreai
