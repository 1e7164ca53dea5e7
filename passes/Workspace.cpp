//===- Workspace.cpp - The target's workspace rules over a function -------===//
#include "Workspace.h"

#include "AtenArgs.h"
#include "Effects.h"
#include "ElementAccess.h"
#include "OpClasses.h"
#include "Printing.h"

#include "coreai-plan/Passes/PlanFunction.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace coreai {
namespace {

/// The op class a rule may name, as the op's fusion role (OpClasses.h)
/// gives it for the classes rules name: asked for every op of every step
/// at every S, so from the op facts directly.
llvm::StringRef ruleClassOf(Operation *op) {
  const aten::OpFacts *facts = atenFactsOf(op);
  if (!facts)
    return "";
  if (facts->elementwiseByEquation &&
      elementAccessOf(op) == ElementAccess::Contracts)
    return op->getNumOperands() > 1 ? "matmul" : "reduction";
  if (facts->reduction)
    return "reduction";
  if (facts->normalisation)
    return "normalisation";
  if (facts->matmul)
    return "matmul";
  if (facts->attention)
    return "attention";
  return "";
}

/// The op's dim argument: keyword `dim`, else its second positional one.
/// A reduction given none (or `[]`, `None`) reduces every dimension.
std::vector<int64_t> dimsOf(Operation *op, const WorkspaceOp &described) {
  std::optional<AtenArgs> args = atenArgsOf(op);
  std::optional<std::vector<int64_t>> dims;
  if (args) {
    if (std::optional<llvm::StringRef> dim = args->keyword("dim"))
      dims = parseIntegerList(*dim, /*bare=*/true);
    else if (args->positional.size() > 1)
      dims = parseIntegerList(args->positional[1], /*bare=*/true);
  }
  // A hand-written graph without `coreai.args`: a softmax or norm takes
  // its last dimension, as every exported one of the shared graphs does
  // (docs/WORKSPACE.md).
  if (!args && fusionRoleOf(op) == FusionRole::Normalisation)
    return {-1};
  if ((!dims || dims->empty()) &&
      fusionRoleOf(op) == FusionRole::Reduction &&
      !described.operands.empty()) {
    std::vector<int64_t> all;
    for (size_t d = 0; d < described.operands.front().shape.size(); ++d)
      all.push_back(d);
    return all;
  }
  return dims.value_or(std::vector<int64_t>());
}

} // namespace

std::optional<WorkspaceTensor> tensorOf(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  WorkspaceTensor tensor;
  tensor.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
  tensor.elementSize = (elementBits(shaped.getElementType()) + 7) / 8;
  return tensor;
}

const WorkspaceRule *workspaceRuleOf(Operation *op,
                                     const WorkspaceRules &rules) {
  llvm::StringRef name = op->getName().getStringRef();
  if (rules.empty() || !name.consume_front("torch."))
    return nullptr; // the rules name ATen ops
  auto overload = op->getAttrOfType<StringAttr>("coreai.overload");
  llvm::StringRef overloadName = overload ? overload.getValue() : "default";
  const WorkspaceRule *rule = rules.find(name, overloadName, "");
  if (!rule && rules.hasClassRules())
    rule = rules.find(name, overloadName, ruleClassOf(op));
  return rule;
}

FailureOr<llvm::SmallVector<OpVariant, 2>>
opVariants(Operation *op, const WorkspaceRule &rule, int64_t splitK) {
  WorkspaceOp described;
  described.name = op->getName().getStringRef().drop_front(6).str();
  described.splitK = splitK;
  for (Value operand : op->getOperands())
    if (std::optional<WorkspaceTensor> tensor = tensorOf(operand.getType()))
      described.operands.push_back(*tensor);
  for (Value result : op->getResults())
    if (std::optional<WorkspaceTensor> tensor = tensorOf(result.getType()))
      described.results.push_back(*tensor);
  described.dims = dimsOf(op, described);
  llvm::SmallVector<OpVariant, 2> variants;
  for (const WorkspaceVariant &variant : rule.variants) {
    llvm::Expected<int64_t> bytes = evaluate(variant.bytes, described);
    if (!bytes)
      return op->emitError("workspace rule '")
             << variant.bytesText << "' ("
             << (rule.op.empty() ? "class " + rule.opClass : rule.op)
             << ") cannot be evaluated: " << llvm::toString(bytes.takeError());
    if (*bytes < 0)
      return op->emitError("workspace rule '")
             << variant.bytesText << "' gives " << *bytes << " bytes";
    variants.push_back({&variant, *bytes});
  }
  return variants;
}

/// The variant an op runs: the one its `coreai.variant` names, else the
/// one with the least workspace (the cheapest among equals): the heap's
/// own choice, before the planner spends free bytes on faster ones.
static FailureOr<OpVariant> chosenVariant(Operation *op,
                                          const WorkspaceRule &rule,
                                          int64_t splitK) {
  FailureOr<llvm::SmallVector<OpVariant, 2>> variants =
      opVariants(op, rule, splitK);
  if (failed(variants))
    return failure();
  if (auto named = op->getAttrOfType<StringAttr>(attr::variant)) {
    for (const OpVariant &variant : *variants)
      if (variant.variant->name == named.getValue())
        return variant;
    std::string known;
    for (const WorkspaceVariant &variant : rule.variants)
      known += (known.empty() ? "" : ", ") + variant.name;
    return op->emitError("'coreai.variant' names '")
           << named.getValue() << "', which the target's workspace rule ("
           << (rule.op.empty() ? "class " + rule.opClass : rule.op)
           << ") does not list (its variants: " << known << ")";
  }
  const OpVariant *least = &variants->front();
  for (const OpVariant &variant : *variants)
    if (variant.bytes < least->bytes ||
        (variant.bytes == least->bytes &&
         variant.variant->cost < least->variant->cost))
      least = &variant;
  return *least;
}

FailureOr<int64_t> opWorkspace(Operation *op, const WorkspaceRules &rules,
                               int64_t *alignment) {
  const WorkspaceRule *rule = workspaceRuleOf(op, rules);
  if (!rule)
    return 0;
  FailureOr<OpVariant> variant = chosenVariant(op, *rule, rules.splitK);
  if (failed(variant))
    return failure();
  if (alignment)
    *alignment = std::max<int64_t>(*alignment, rule->alignment);
  return variant->bytes;
}

std::optional<std::string> unnamedVariant(Operation *op,
                                          const WorkspaceRules &rules) {
  const WorkspaceRule *rule = workspaceRuleOf(op, rules);
  if (!rule || rule->variants.size() < 2 || op->hasAttr(attr::variant))
    return std::nullopt;
  // A rule that cannot be evaluated is the step's own check's error.
  ScopedDiagnosticHandler quiet(op->getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<llvm::SmallVector<OpVariant, 2>> variants =
      opVariants(op, *rule, rules.splitK);
  if (failed(variants) ||
      llvm::all_of(*variants, [&](const OpVariant &variant) {
        return variant.bytes == variants->front().bytes;
      }))
    return std::nullopt;
  std::string offered;
  for (const OpVariant &variant : *variants)
    offered += llvm::formatv("{0}{1} ({2} bytes)", offered.empty() ? "" : ", ",
                             variant.variant->name, variant.bytes)
                   .str();
  return llvm::formatv("it names no variant ('coreai.variant'), but the "
                       "target's workspace rule ({0}) offers variants "
                       "needing different workspace here: {1}",
                       rule->op.empty() ? "class " + rule->opClass : rule->op,
                       offered)
      .str();
}

llvm::Expected<int64_t> stepWorkspaceBytes(llvm::ArrayRef<Operation *> ops,
                                           const WorkspaceRules &rules) {
  if (ops.empty() || rules.empty())
    return 0;
  std::string first; // the first error, as the caller's message
  ScopedDiagnosticHandler capture(ops.front()->getContext(),
                                  [&](Diagnostic &diagnostic) {
                                    if (first.empty())
                                      first = diagnostic.str();
                                    return success();
                                  });
  int64_t bytes = 0;
  for (Operation *op : ops) {
    FailureOr<int64_t> opBytes = opWorkspace(op, rules);
    if (failed(opBytes))
      return llvm::createStringError(llvm::inconvertibleErrorCode(), first);
    bytes += *opBytes;
  }
  FailureOr<int64_t> attention = attentionKernelWorkspace(ops, rules);
  if (failed(attention))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), first);
  return bytes + *attention;
}

FailureOr<std::vector<StepWorkspace>>
stepWorkspaces(func::FuncOp func, const FunctionKernels &kernels,
               const WorkspaceRules &rules) {
  std::vector<StepWorkspace> steps;
  if (rules.empty())
    return steps;
  std::vector<Operation *> order;
  for (Operation &op : func.getBody().front())
    order.push_back(&op);
  for (unsigned position = 0; position < order.size(); ++position) {
    unsigned first = kernels.stepStart(position);
    unsigned last = kernels.stepEnd(position);
    int64_t alignment = 1;
    FailureOr<int64_t> bytes =
        opWorkspace(order[position], rules, &alignment);
    if (failed(bytes))
      return failure();
    // The kernel run as one attention call: its scratch, with its last op.
    if (position == last && first < last) {
      FailureOr<int64_t> attention = attentionKernelWorkspace(
          llvm::ArrayRef(order).slice(first, last - first + 1), rules,
          &alignment);
      if (failed(attention))
        return failure();
      *bytes += *attention;
    }
    if (*bytes == 0)
      continue;
    // A kernel's ops add up into one workspace, on its last op.
    if (!steps.empty() && steps.back().first == first) {
      steps.back().bytes += *bytes;
      steps.back().alignment = std::max(steps.back().alignment, alignment);
      continue;
    }
    steps.push_back({first, last, *bytes, alignment, order[last]});
  }
  return steps;
}

LogicalResult addWorkspaces(func::FuncOp func, const FunctionKernels &kernels,
                            const WorkspaceRules &rules, int64_t alignment,
                            FunctionBuffers &buffers) {
  FailureOr<std::vector<StepWorkspace>> steps =
      stepWorkspaces(func, kernels, rules);
  if (failed(steps))
    return failure();
  for (const StepWorkspace &step : *steps) {
    Buffer buffer;
    buffer.id = "ws@" + std::to_string(step.last);
    buffer.start = step.first;
    buffer.end = step.last + 1;
    buffer.size = step.bytes;
    buffer.alignment = std::max(alignment, step.alignment);
    BufferOrigin origin;
    origin.value = buffer.id;
    origin.op = step.op->getName().getStringRef().str();
    origin.location = locationString(step.op->getLoc());
    buffers.workspaces.push_back({buffers.problem.buffers.size(), step.op});
    buffers.problem.buffers.push_back(std::move(buffer));
    buffers.origins.push_back(std::move(origin));
    buffers.values.emplace_back();
    buffers.owners.push_back(0);
  }
  return success();
}

} // namespace coreai
