//===- ResultDtypes.cpp - Results sized by the target's kernel's dtype ----===//
#include "ResultDtypes.h"

#include "coreai-plan/Dialect/CoreAI.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace coreai {
namespace {

std::string dtypeName(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The MLIR element type of a dtype of knownResultDtypes().
Type dtypeType(MLIRContext *context, llvm::StringRef dtype) {
  Builder builder(context);
  if (dtype == "f16")
    return builder.getF16Type();
  if (dtype == "bf16")
    return builder.getBF16Type();
  if (dtype == "f32")
    return builder.getF32Type();
  if (dtype == "f64")
    return builder.getF64Type();
  int64_t bits = resultDtypeBits(dtype);
  return bits > 0 && dtype.starts_with("i")
             ? Type(builder.getIntegerType(unsigned(bits)))
             : Type();
}

} // namespace

Type kernelElementType(Operation *op, unsigned index,
                       const ResultDtypeRules &rules) {
  llvm::StringRef name = op->getName().getStringRef();
  if (rules.empty() || index >= op->getNumResults() ||
      !name.consume_front("torch."))
    return Type(); // the rules name ATen ops
  auto shaped = dyn_cast<ShapedType>(op->getResult(index).getType());
  if (!shaped || !shaped.getElementType().isIntOrFloat())
    return Type();
  auto overload = op->getAttrOfType<StringAttr>(attr::overload);
  std::optional<llvm::StringRef> dtype = rules.kernelDtype(
      name, overload ? overload.getValue() : "default", index,
      dtypeName(shaped.getElementType()));
  return dtype ? dtypeType(op->getContext(), *dtype) : Type();
}

Type kernelTypeOf(Operation *op, unsigned index,
                  const ResultDtypeRules &rules) {
  Type type = op->getResult(index).getType();
  Type element = kernelElementType(op, index, rules);
  return element ? cast<ShapedType>(type).clone(element) : type;
}

void annotateResultDtypes(func::FuncOp func, const ResultDtypeRules *rules) {
  func.walk([&](Operation *op) {
    op->removeAttr(attr::resultDtypes);
    if (!rules || rules->empty())
      return;
    llvm::SmallVector<Attribute, 3> written;
    bool differs = false;
    for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
      Type type = op->getResult(i).getType();
      Type element = kernelElementType(op, i, *rules);
      differs |= bool(element);
      if (!element)
        element = isa<ShapedType>(type) ? cast<ShapedType>(type).getElementType()
                                        : type;
      written.push_back(TypeAttr::get(element));
    }
    if (differs)
      op->setAttr(attr::resultDtypes,
                  ArrayAttr::get(op->getContext(), written));
  });
}

std::vector<PlannedEntry::KernelDtype>
kernelDtypeRecords(func::FuncOp func, const ResultDtypeRules *rules) {
  std::vector<PlannedEntry::KernelDtype> records;
  if (!rules || rules->empty())
    return records;
  func.walk([&](Operation *op) {
    for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
      Type element = kernelElementType(op, i, *rules);
      Placement::Kind kind = placementOf(op, i).kind;
      if (!element ||
          (kind != Placement::Kind::Heap && kind != Placement::Kind::Lent))
        continue; // bytes of no planned slot (fused, a view, outside)
      Type type = op->getResult(i).getType();
      std::optional<int64_t> graphBytes = bytesOf(type);
      std::optional<int64_t> kernelBytes =
          bytesOf(cast<ShapedType>(type).clone(element));
      std::string opName = op->getName().getStringRef().str();
      std::string from = dtypeName(cast<ShapedType>(type).getElementType());
      std::string to = dtypeName(element);
      auto record = llvm::find_if(records, [&](const auto &known) {
        return known.op == opName && known.graphDtype == from &&
               known.kernelDtype == to;
      });
      if (record == records.end()) {
        records.push_back({opName, from, to, 0, 0});
        record = std::prev(records.end());
      }
      ++record->results;
      if (graphBytes && kernelBytes)
        record->extraBytes += *kernelBytes - *graphBytes;
    }
  });
  return records;
}

} // namespace coreai
