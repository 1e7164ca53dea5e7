//===- CoreAIDialect.cpp - The coreai dialect and its verification --------===//
//
// Every `coreai.*` attribute is checked here when a file is parsed, so a
// malformed annotation is a diagnostic at its location in every tool,
// before any pass runs. The checks need only the op and its function: the
// replay (passes/ReplayProgram.cpp) later checks what needs the plan.
//
//===----------------------------------------------------------------------===//
#include "coreai-plan/Dialect/CoreAI.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

#include "coreai-plan/Dialect/CoreAIDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "coreai-plan/Dialect/CoreAIAttrs.cpp.inc"

namespace coreai {

void CoreAIDialect::initialize() { registerAttributes(); }

void CoreAIDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "coreai-plan/Dialect/CoreAIAttrs.cpp.inc"
      >();
}

namespace {

LogicalResult checkNotNegative(function_ref<InFlightDiagnostic()> emitError,
                               StringRef field, int64_t value) {
  if (value < 0)
    return emitError() << "'" << field << "' must not be negative, got "
                       << value;
  return success();
}

LogicalResult checkInPlace(function_ref<InFlightDiagnostic()> emitError,
                           std::optional<int64_t> inPlace) {
  return inPlace ? checkNotNegative(emitError, "in_place", *inPlace)
                 : success();
}

} // namespace

LogicalResult HeapAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t offset, int64_t size,
                               std::optional<int64_t> inPlace) {
  if (failed(checkNotNegative(emitError, "offset", offset)) ||
      failed(checkNotNegative(emitError, "size", size)))
    return failure();
  return checkInPlace(emitError, inPlace);
}

LogicalResult LentAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t output, int64_t offset, int64_t size,
                               std::optional<int64_t> inPlace) {
  if (failed(checkNotNegative(emitError, "output", output)) ||
      failed(checkNotNegative(emitError, "offset", offset)) ||
      failed(checkNotNegative(emitError, "size", size)))
    return failure();
  return checkInPlace(emitError, inPlace);
}

LogicalResult OutputAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t position) {
  return checkNotNegative(emitError, "output", position);
}

LogicalResult StateAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t arg) {
  return checkNotNegative(emitError, "arg", arg);
}

LogicalResult FusedAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t kernel) {
  return checkNotNegative(emitError, "kernel", kernel);
}

LogicalResult PlanAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t heap, int64_t lowerBound,
                               int64_t alignment, int64_t buffers,
                               StringRef algorithm, BoolAttr optimal,
                               std::optional<int64_t> inPlaceSaved,
                               std::optional<int64_t> borrowedBytes,
                               BoolAttr reordered,
                               std::optional<int64_t> kernels,
                               std::optional<int64_t> fusedBytes,
                               std::optional<int64_t> workspaceBytes,
                               BoolAttr kernelsInIrOrder) {
  for (auto [field, value] :
       {std::pair<StringRef, int64_t>{"heap", heap},
        {"lower_bound", lowerBound},
        {"buffers", buffers},
        {"in_place_saved", inPlaceSaved.value_or(0)},
        {"borrowed_bytes", borrowedBytes.value_or(0)},
        {"kernels", kernels.value_or(0)},
        {"fused_bytes", fusedBytes.value_or(0)},
        {"workspace_bytes", workspaceBytes.value_or(0)}})
    if (failed(checkNotNegative(emitError, field, value)))
      return failure();
  if (alignment <= 0 || (alignment & (alignment - 1)) != 0)
    return emitError() << "'alignment' must be a power of two, got "
                       << alignment;
  if (!optimal)
    return emitError() << "'optimal' must be true or false";
  return success();
}

namespace {
/// A placement at an offset of a region (the heap, a lent output): the
/// attributes of both kinds carry the same three fields.
template <typename RegionAttr>
Placement atOffset(Placement::Kind kind, RegionAttr attr) {
  Placement placement;
  placement.kind = kind;
  placement.offset = attr.getOffset();
  placement.size = attr.getSize();
  placement.inPlaceOperand = attr.getInPlace();
  return placement;
}
} // namespace

std::optional<Placement> placementFrom(Attribute attr) {
  Placement placement;
  return llvm::TypeSwitch<Attribute, std::optional<Placement>>(attr)
      .Case([&](HeapAttr heap) {
        return atOffset(Placement::Kind::Heap, heap);
      })
      .Case([&](LentAttr lent) {
        placement = atOffset(Placement::Kind::Lent, lent);
        placement.output = lent.getOutput();
        return placement;
      })
      .Case([&](OutputAttr output) {
        placement.kind = Placement::Kind::Output;
        placement.output = output.getPosition();
        return placement;
      })
      .Case([&](StateAttr state) {
        placement.kind = Placement::Kind::State;
        placement.argument = state.getArg();
        return placement;
      })
      .Case([&](FusedAttr fused) {
        placement.kind = Placement::Kind::Fused;
        placement.kernel = fused.getKernel();
        return placement;
      })
      .Case([&](UnplacedAttr) { return placement; })
      .Default([](Attribute) { return std::nullopt; });
}

Attribute placementAttr(MLIRContext *context, const Placement &placement) {
  switch (placement.kind) {
  case Placement::Kind::Heap:
    return HeapAttr::get(context, placement.offset, placement.size,
                         placement.inPlaceOperand);
  case Placement::Kind::Lent:
    return LentAttr::get(context, placement.output, placement.offset,
                         placement.size, placement.inPlaceOperand);
  case Placement::Kind::Output:
    return OutputAttr::get(context, placement.output);
  case Placement::Kind::State:
    return StateAttr::get(context, placement.argument);
  case Placement::Kind::Fused:
    return FusedAttr::get(context, placement.kernel);
  case Placement::Kind::None:
    break;
  }
  return UnplacedAttr::get(context);
}

Placement placementOf(Operation *op, unsigned index) {
  auto placements = op->getAttrOfType<ArrayAttr>(attr::placement);
  if (!placements || index >= placements.size())
    return Placement{};
  return placementFrom(placements[index]).value_or(Placement{});
}

int64_t elementBits(Type type) {
  if (isa<IndexType>(type))
    return 64; // the targets we plan for have 64-bit index
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * elementBits(complex.getElementType());
  if (auto vector = dyn_cast<VectorType>(type)) {
    int64_t bits = elementBits(vector.getElementType());
    for (int64_t dim : vector.getShape())
      if (ShapedType::isDynamic(dim) || llvm::MulOverflow(bits, dim, bits))
        return 0;
    return bits;
  }
  return 0;
}

Type writtenTypeOf(Operation *op, unsigned index) {
  Type type = op->getResult(index).getType();
  auto dtypes = op->getAttrOfType<ArrayAttr>(attr::resultDtypes);
  auto shaped = dyn_cast<ShapedType>(type);
  if (!dtypes || !shaped || index >= dtypes.size())
    return type;
  auto written = dyn_cast<TypeAttr>(dtypes[index]);
  if (!written || !written.getValue().isIntOrFloat())
    return type;
  return shaped.clone(written.getValue());
}

std::optional<int64_t> bytesOf(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  int64_t bits = elementBits(shaped.getElementType());
  if (bits <= 0)
    return std::nullopt;
  int64_t elements = 1;
  for (int64_t dim : shaped.getShape())
    if (llvm::MulOverflow(elements, dim, elements))
      return std::nullopt;
  int64_t bytes;
  if (bits == 1)
    return elements; // i1 is stored a byte per element
  if (bits < 8)
    return llvm::MulOverflow(elements, bits, bytes)
               ? std::nullopt
               : std::optional<int64_t>((bytes + 7) / 8);
  if (llvm::MulOverflow(elements, (bits + 7) / 8, bytes))
    return std::nullopt;
  return bytes;
}

} // namespace coreai
