//===- AtenOps.cpp - What the importer knows about each ATen op -----------===//
//
// The importer's roles, read from the one table of ATen op facts
// (lib/Aten: torch's schemas, the supplement, the manual list). Anything
// the table does not know, or that writes where the importer cannot follow,
// is refused rather than guessed.
//
//===----------------------------------------------------------------------===//
#include "AtenOps.h"

#include "llvm/Support/MathExtras.h"

namespace coreai::import {
namespace {

using aten::OpFacts;

/// May-alias ops whose choice (view or copy) the importer makes per node
/// from the tensors' metadata (ProgramImporter::mayAliasIsView).
bool decidedPerNode(llvm::StringRef name) {
  return llvm::is_contained({"to", "type_as", "reshape", "reshape_as",
                             "flatten", "contiguous"},
                            name);
}

/// `add_` and the like: one write, into `self` (operand 0), returned, and
/// a functional twin with fresh results computing the same values.
std::optional<AtenOp> inPlaceRole(const OpFacts &facts) {
  if (facts.mutated.size() != 1 || facts.mutated[0].position != 0 ||
      facts.mutated[0].operand != 0 || facts.returns.size() != 1 ||
      !facts.returns[0].aliases || facts.returns[0].aliases->position != 0)
    return std::nullopt;
  if (facts.metadataOnly)
    return AtenOp{OpRole::DetachInPlace, {}, {}, {}};
  auto [twinName, twinOverload] = facts.twinParts();
  const OpFacts *twin = aten::lookup(twinName, twinOverload);
  if (!twin || !twin->isFunctional() || twin->mayAlias || twin->writesUnless)
    return std::nullopt;
  return AtenOp{OpRole::InPlace, twinName.str(), twinOverload.str(), {}};
}

} // namespace

std::optional<AtenOp> classifyAtenOp(llvm::StringRef name,
                                     llvm::StringRef overload) {
  const OpFacts *facts = aten::lookup(name, overload);
  if (!facts)
    return std::nullopt;
  if (facts->asserts)
    return AtenOp{OpRole::Check, {}, {}, {}};
  if (facts->mayAlias && decidedPerNode(name))
    return AtenOp{OpRole::MayAlias, {}, {}, {}};
  if (facts->mutates())
    return inPlaceRole(*facts);
  if (std::optional<aten::ArgumentRef> source = facts->viewSource()) {
    if (source->operand != 0 || facts->mayAlias)
      return std::nullopt;
    return AtenOp{OpRole::View, {}, {}, {}};
  }
  if (!facts->isFunctional() && !facts->writesUnless)
    return std::nullopt; // some results alias, others are fresh
  OpRole role = facts->mayAlias || facts->composite ? OpRole::MaybeShared
                                                    : OpRole::Functional;
  return AtenOp{role, {}, {}, facts->writesUnless};
}

bool isLayoutKeepingView(llvm::StringRef name, llvm::StringRef overload) {
  const OpFacts *facts = aten::lookup(name, overload);
  return facts && facts->keepsLayout;
}

/// Whether a tensor of `sizes` and `strides` can be viewed with
/// `newSizes` without a copy: torch's rule for `reshape` (ATen's
/// `computeStride`). Runs of old dims that are contiguous with each other
/// must be split into new dims of the same element count.
bool viewStridesExist(llvm::ArrayRef<int64_t> sizes,
                      llvm::ArrayRef<int64_t> strides,
                      llvm::ArrayRef<int64_t> newSizes) {
  int64_t elements = 1;
  for (int64_t size : sizes)
    if (size < 0 || llvm::MulOverflow(elements, size, elements))
      return false;
  for (int64_t size : newSizes)
    if (size < 0)
      return false;
  if (elements == 0 || sizes.empty())
    return true;
  int64_t viewDim = int64_t(newSizes.size()) - 1;
  int64_t chunkBaseStride = strides.back();
  int64_t tensorElements = 1, viewElements = 1;
  for (int64_t dim = int64_t(sizes.size()) - 1; dim >= 0; --dim) {
    tensorElements *= sizes[dim]; // at most `elements`: no overflow
    int64_t chunkStride;
    if (llvm::MulOverflow(tensorElements, chunkBaseStride, chunkStride))
      return false;
    bool chunkEnds = dim == 0 ||
                     (sizes[dim - 1] != 1 && strides[dim - 1] != chunkStride);
    if (!chunkEnds)
      continue;
    while (viewDim >= 0 &&
           (viewElements < tensorElements || newSizes[viewDim] == 1)) {
      if (llvm::MulOverflow(viewElements, newSizes[viewDim], viewElements))
        return false;
      --viewDim;
    }
    if (viewElements != tensorElements)
      return false;
    if (dim > 0) {
      chunkBaseStride = strides[dim - 1];
      tensorElements = 1;
      viewElements = 1;
    }
  }
  return viewDim == -1;
}

} // namespace coreai::import
