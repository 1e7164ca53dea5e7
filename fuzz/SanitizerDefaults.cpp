//===- SanitizerDefaults.cpp - ASan options built into each fuzzer -------===//
//
// Debian's libMLIR is not instrumented. LLVM's bump allocator is inline
// code: our instrumented copy poisons a fresh slab when it opens one (for a
// coreai attribute's storage), and the library's uninstrumented copy then
// hands out pieces of that slab (MLIR's own attributes) without unpoisoning
// them, so reading them is a false use-after-poison. scripts/dev and the
// ctest fuzz runs set the same options in ASAN_OPTIONS; built in, a fuzzer
// run by hand on a crash input behaves as it did in CI. Leaks: the fuzzers'
// MLIR context lives until exit on purpose. Container overflow: the same
// mismatch for std::vector's annotations.
//
//===----------------------------------------------------------------------===//

extern "C" const char *__asan_default_options() {
  return "detect_leaks=0:detect_container_overflow=0:allow_user_poisoning=0";
}
