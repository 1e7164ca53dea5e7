//===- OpClasses.cpp - What liveness needs to know about an op ------------===//
#include "OpClasses.h"

#include "AtenArgs.h"
#include "Effects.h"
#include "ElementAccess.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace coreai {
namespace {

// Non-ATen views whose element i is element i of their source (reshapes,
// casts); ATen's come from the op facts (AtenOpFactsManual.def).
const llvm::StringSet<> &layoutKeepingViews() {
  static const llvm::StringSet<> names = {
      "tensor.reshape",        "tensor.expand_shape",
      "tensor.collapse_shape", "tensor.cast",
      "tosa.reshape",          "bufferization.to_tensor",
      "bufferization.to_buffer"};
  return names;
}

/// Whether the ATen op's results alias its operand 0 by its schema (only a
/// fallback: `coreai.alias_of` is the ground truth). May-alias ops
/// (`reshape`, `to`) are decided per node by the exporter, so not here.
bool isAtenView(Operation *op) {
  bool returnsAgree = true;
  const aten::OpFacts *facts = atenFactsOf(op, nullptr, &returnsAgree);
  if (!facts || !returnsAgree || facts->mayAlias)
    return false;
  std::optional<aten::ArgumentRef> source = facts->viewSource();
  return source && source->operand == 0;
}

/// A manual fact (AtenOpFactsManual.def) of the ATen op `op`.
bool atenFact(Operation *op, bool aten::OpFacts::*fact) {
  const aten::OpFacts *facts = atenFactsOf(op);
  return facts && (*facts).*fact;
}

bool oneOf(llvm::StringRef value, std::initializer_list<llvm::StringRef> allowed) {
  return llvm::is_contained(allowed, value);
}

std::string printed(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

std::string valueName(Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  value.printAsOperand(os, OpPrintingFlags());
  return text;
}

/// Types that live in registers, not in memory.
bool isScalarType(Type type) {
  return isa<IntegerType, FloatType, IndexType, ComplexType, VectorType,
             NoneType, tosa::shapeType>(type);
}

/// `coreai.alias_of` for result `index`: the aliased operand, -1 for a
/// fresh result, std::nullopt when the op has no such attribute.
FailureOr<std::optional<int64_t>> aliasOf(Operation *op, unsigned index) {
  Attribute attr = op->getAttr("coreai.alias_of");
  if (!attr)
    return std::optional<int64_t>();
  std::optional<int64_t> operand;
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    if (array.size() == op->getNumResults())
      if (auto entry = dyn_cast<IntegerAttr>(array[index]))
        operand = entry.getInt();
  } else if (auto dense = dyn_cast<DenseI64ArrayAttr>(attr)) {
    if (dense.size() == int64_t(op->getNumResults()))
      operand = dense[index];
  }
  if (!operand || *operand < -1 || *operand >= int64_t(op->getNumOperands()))
    return op->emitError("'coreai.alias_of' must hold one operand index (or "
                         "-1) per result; this op has ")
           << op->getNumOperands() << " operands and " << op->getNumResults()
           << " results";
  return operand;
}

ResultClass only(ResultKind kind) { return {kind, Value(), false}; }

ResultClass viewOf(Operation *op, Value source) {
  return {ResultKind::View, source,
          layoutKeepingViews().contains(op->getName().getStringRef()) ||
              atenFact(op, &aten::OpFacts::keepsLayout)};
}

bool isMemRefAllocation(Operation *op) {
  return isa<memref::AllocOp, bufferization::CloneOp>(op);
}

} // namespace

FailureOr<ResultClass> classifyResult(Operation *op, unsigned index) {
  Value result = op->getResult(index);
  Type type = result.getType();
  if (isScalarType(type))
    return only(ResultKind::Scalar);
  if (!isa<RankedTensorType, MemRefType>(type))
    return op->emitError("result #")
           << index << " of '" << op->getName() << "' has type " << type
           << ", not a ranked tensor or memref: the planner cannot size it";

  FailureOr<std::optional<int64_t>> alias = aliasOf(op, index);
  if (failed(alias))
    return failure();
  if (*alias)
    return **alias < 0 ? only(ResultKind::Buffer)
                       : viewOf(op, op->getOperand(**alias));

  if (op->hasTrait<OpTrait::ConstantLike>())
    return only(ResultKind::Constant);
  if (auto view = dyn_cast<ViewLikeOpInterface>(op))
    if (Value source = view.getViewSource())
      return viewOf(op, source);
  llvm::StringRef name = op->getName().getStringRef();
  bool namedView = layoutKeepingViews().contains(name) || isAtenView(op) ||
                   isa<tensor::ExtractSliceOp>(op);
  if (namedView && op->getNumOperands() > 0)
    return viewOf(op, op->getOperand(0));
  if (isa<tensor::EmptyOp>(op))
    return only(ResultKind::NoStorage);
  if (isa<MemRefType>(type) && !isMemRefAllocation(op))
    return only(ResultKind::Unplanned);
  return only(ResultKind::Buffer);
}

FailureOr<int64_t> byteSize(Operation *op, Value value) {
  auto type = cast<ShapedType>(value.getType());
  if (!type.hasStaticShape()) {
    auto diag = op->emitError()
                << valueName(value) << " of type " << printed(type)
                << " has a dynamic dimension";
    // Name the symbol when the exporter recorded it (`coreai.sym_shapes`).
    unsigned resultIndex = cast<OpResult>(value).getResultNumber();
    auto symShapes = op->getAttrOfType<ArrayAttr>("coreai.sym_shapes");
    llvm::SmallVector<llvm::StringRef> dims;
    if (symShapes && resultIndex < symShapes.size())
      if (auto shape = dyn_cast<StringAttr>(symShapes[resultIndex]))
        shape.getValue().split(dims, ',');
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d)) {
        diag << " (dim " << d;
        if (dims.size() == size_t(type.getRank()))
          diag << " = " << dims[d].trim();
        diag << ")";
        break;
      }
    diag << " and no binding for it: specialise the graph to static shapes "
            "first (`coreai-plan plan --chunks/--bind`)";
    return failure();
  }
  if (auto memref = dyn_cast<MemRefType>(type); memref &&
                                               !memref.getLayout().isIdentity())
    return op->emitError() << valueName(value) << " of type " << printed(type)
                           << " has a non-identity layout: only contiguous "
                              "allocations are planned";
  int64_t bits = elementBits(type.getElementType());
  if (bits <= 0)
    return op->emitError() << valueName(value) << " has element type "
                           << type.getElementType()
                           << " of unknown size: the planner cannot size it";
  std::optional<int64_t> bytes = bytesOf(type);
  if (!bytes)
    return op->emitError() << valueName(value) << " of type " << printed(type)
                           << " is too large to plan";
  return *bytes;
}

llvm::SmallVector<unsigned, 2> inPlaceOperands(Operation *op) {
  llvm::SmallVector<unsigned, 2> candidates;
  // Inference batch norm is a per-channel affine map of its input: result
  // element i reads input element i and per-channel parameters. Its two
  // other results are empty statistics (tensor<0xf32>).
  if (op->getName().getStringRef() ==
          "torch.aten._native_batch_norm_legit_no_training" &&
      atenArgumentsPlain(op) &&
      op->getNumOperands() > 0 && op->getNumResults() > 0 &&
      op->getOperand(0).getType() == op->getResult(0).getType() &&
      llvm::all_of(op->getResults().drop_front(), [](Value statistic) {
        return bytesOf(statistic.getType()) == 0;
      }))
    return {0};
  if (op->getNumResults() != 1)
    return candidates;
  Type resultType = op->getResult(0).getType();
  if (!isa<RankedTensorType>(resultType))
    return candidates;
  auto sameTypeOperands = [&] {
    for (OpOperand &operand : op->getOpOperands())
      if (operand.get().getType() == resultType &&
          readsAtResultIndex(op, operand.getOperandNumber()))
        candidates.push_back(operand.getOperandNumber());
  };

  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    // All loops parallel and the operand indexed exactly like the result
    // through a permutation: each output element reads its own input
    // element once, so writing it afterwards cannot be observed.
    if (!linalgOp.hasPureTensorSemantics() || linalgOp.getNumDpsInits() != 1 ||
        linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
      return candidates;
    AffineMap resultMap =
        linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0));
    if (!resultMap.isPermutation())
      return candidates;
    // Every occurrence of the value must be read through that same map
    // (ins(%x, %x) with a transposed second map reads other elements).
    auto readsOnlyInPlace = [&](Value value) {
      return llvm::all_of(op->getOpOperands(), [&](OpOperand &use) {
        return use.get() != value ||
               linalgOp.getMatchingIndexingMap(&use) == resultMap;
      });
    };
    for (OpOperand *input : linalgOp.getDpsInputOperands())
      if (input->get().getType() == resultType &&
          readsOnlyInPlace(input->get()))
        candidates.push_back(input->getOperandNumber());
    return candidates;
  }
  if (elementAccessOf(op) == ElementAccess::Elementwise)
    sameTypeOperands();
  return candidates;
}

std::optional<BufferInPlace> inPlaceBufferOperands(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      linalgOp.getNumDpsInits() != 1 ||
      linalgOp.getNumParallelLoops() != linalgOp.getNumLoops())
    return std::nullopt;
  OpOperand *init = linalgOp.getDpsInitOperand(0);
  AffineMap map = linalgOp.getMatchingIndexingMap(init);
  if (!map.isPermutation() || linalgOp.payloadUsesValueFromOperand(init))
    return std::nullopt;
  BufferInPlace candidates{init->getOperandNumber(), {}};
  for (OpOperand *input : linalgOp.getDpsInputOperands()) {
    Value value = input->get();
    bool readInPlace = llvm::all_of(op->getOpOperands(), [&](OpOperand &use) {
      return use.get() != value || &use == init ||
             linalgOp.getMatchingIndexingMap(&use) == map;
    });
    if (value.getType() == init->get().getType() && readInPlace)
      candidates.inputs.push_back(input->getOperandNumber());
  }
  if (candidates.inputs.empty())
    return std::nullopt;
  return candidates;
}

llvm::SmallVector<unsigned, 2> softmaxInPlaceOperands(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumOperands() == 0 ||
      !atenFact(op, &aten::OpFacts::rowInPlace) ||
      op->getOperand(0).getType() != op->getResult(0).getType())
    return {};
  // (self, dim, half_to_float) or (self, dim, dtype=None): a row along
  // `dim` is read whole before it is written; a half_to_float or dtype
  // conversion is refused (the types differ too), anything else unknown.
  bool present = false;
  std::optional<AtenArgs> args = atenArgsOf(op, &present);
  if (!args)
    return present ? llvm::SmallVector<unsigned, 2>()
                   : llvm::SmallVector<unsigned, 2>{0};
  bool understood =
      args->positional.size() >= 2 && args->positional.size() <= 3 &&
      args->positional[0] == "T" && isScalarArgument(args->positional[1]) &&
      (args->positional.size() == 2 ||
       oneOf(args->positional[2], {"False", "None"})) &&
      llvm::all_of(args->keywords, [](const auto &keyword) {
        return keyword.first == "dtype" && keyword.second == "None";
      });
  if (!understood)
    return {};
  return {0};
}

llvm::SmallVector<unsigned, 2> stateUpdateOperands(Operation *op) {
  bool present = false;
  bool argumentsRead = atenArgsOf(op, &present) || !present;
  if (op->getNumResults() == 1 && op->getNumOperands() > 0 && argumentsRead &&
      atenFact(op, &aten::OpFacts::replacesElements) &&
      op->getOperand(0).getType() == op->getResult(0).getType())
    return {0};
  return inPlaceOperands(op);
}

// i1 takes a byte per element, like torch.bool; narrower types pack;
// wider ones take whole bytes each.
Value viewRoot(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

bool mayReturnArgument(func::FuncOp callee) {
  if (!callee || callee.isDeclaration())
    return true;
  WalkResult walk = callee.walk([](func::ReturnOp ret) {
    for (Value value : ret.getOperands())
      if (isa<BaseMemRefType>(value.getType()) &&
          !isa_and_nonnull<memref::AllocOp>(viewRoot(value).getDefiningOp()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

bool mayRenameMemRefs(Operation *op) {
  if (llvm::none_of(op->getOperandTypes(), llvm::IsaPred<BaseMemRefType>))
    return false;
  if (op->hasTrait<OpTrait::IsTerminator>())
    return !isa<func::ReturnOp>(op); // returns are handled as outputs
  if (llvm::none_of(op->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
    return false;
  if (isa<ViewLikeOpInterface>(op) || isMemRefAllocation(op))
    return false; // views are followed; an allocation's result is fresh
  if (auto call = dyn_cast<func::CallOp>(op))
    return mayReturnArgument(SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, call.getCalleeAttr()));
  return true;
}

bool onlyFrees(Operation *op) {
  return isa<memref::DeallocOp, bufferization::DeallocOp,
             bufferization::DeallocTensorOp>(op);
}

/// Whether the op's only result has as many elements as its operand 0,
/// both statically shaped.
static bool sameElementCount(Operation *op) {
  auto in = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  auto out = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return in && out && in.hasStaticShape() && out.hasStaticShape() &&
         in.getNumElements() == out.getNumElements();
}

/// classifyResult without its diagnostics: fusion asks before liveness,
/// which reports a result it cannot classify.
static FailureOr<ResultClass> classifyResultQuietly(Operation *op,
                                                    unsigned index) {
  ScopedDiagnosticHandler quiet(op->getContext(),
                                [](Diagnostic &) { return success(); });
  return classifyResult(op, index);
}

FusionRole fusionRoleOf(Operation *op) {
  llvm::StringRef name = op->getName().getStringRef();
  if (name == "torch.aten._assert_tensor_metadata")
    return FusionRole::MetadataCheck;
  if (op->getNumRegions() > 0 || op->hasTrait<OpTrait::IsTerminator>() ||
      effectsOf(op).ordered())
    return FusionRole::None;
  if (op->getNumResults() > 0 && llvm::all_of(op->getResults(), [&](OpResult r) {
        FailureOr<ResultClass> cls =
            classifyResultQuietly(op, r.getResultNumber());
        return succeeded(cls) && cls->kind == ResultKind::View;
      }))
    return FusionRole::View;
  const aten::OpFacts *facts = atenFactsOf(op);
  ElementAccess access = elementAccessOf(op);
  if (!facts)
    return access == ElementAccess::Elementwise ? FusionRole::Elementwise
                                                : FusionRole::None;
  // A copy (`_to_copy`, `clone`, and `reshape`/`to`/`contiguous` where the
  // exporter made a copy: those that are views returned above) converts
  // element for element, or lays its elements out again.
  bool copy = facts->copy && op->getNumResults() == 1 &&
              op->getNumOperands() >= 1 && sameElementCount(op);
  if (access == ElementAccess::Elementwise)
    return copy ? FusionRole::Cast : FusionRole::Elementwise;
  if (access == ElementAccess::Moves &&
      (copy || (facts->elementwiseByEquation && op->getNumOperands() == 1 &&
                sameElementCount(op))))
    return FusionRole::LayoutCopy;
  if (access == ElementAccess::Contracts)
    return op->getNumOperands() > 1 ? FusionRole::Matmul
                                    : FusionRole::Reduction;
  if (facts->fill)
    return FusionRole::Fill;
  if (facts->reduction)
    return FusionRole::Reduction;
  if (facts->normalisation)
    return FusionRole::Normalisation;
  if (facts->matmul)
    return FusionRole::Matmul;
  if (facts->attention)
    return FusionRole::Attention;
  return FusionRole::None;
}

} // namespace coreai
