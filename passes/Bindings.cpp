//===- Bindings.cpp - The function's state bindings, checked --------------===//
#include "Bindings.h"

#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;

namespace coreai {

LogicalResult checkStateBindings(func::FuncOp func) {
  // The name the user wrote: the CLI plans clones named per chunk size.
  auto entry = func->getAttrOfType<StringAttr>("coreai.entry");
  StringRef functionName = entry ? entry.getValue() : func.getSymName();
  auto argString = [&](unsigned index, StringRef attr) {
    auto value = func.getArgAttrOfType<StringAttr>(index, attr);
    return value ? value.getValue() : StringRef();
  };
  // Every argument by name (the first one of each name), and the states.
  llvm::StringMap<unsigned> argumentNamed, stateNamed;
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    StringRef name = argString(i, "coreai.name");
    if (argString(i, "coreai.kind") == "state") {
      if (name.empty())
        return func.emitError("argument #")
               << i << " of @" << functionName
               << " is a 'state' without a 'coreai.name': no state_update "
                  "can be bound to it";
      auto [it, inserted] = stateNamed.try_emplace(name, i);
      if (!inserted)
        return func.emitError("arguments #")
               << it->second << " and #" << i << " of @" << functionName
               << " are both the state '" << name
               << "': the runtime's write-back would be ambiguous";
    }
    if (!name.empty())
      argumentNamed.try_emplace(name, i);
  }
  llvm::StringMap<unsigned> updated; // state name -> result position
  for (unsigned r = 0; r < func.getNumResults(); ++r) {
    auto kind = func.getResultAttrOfType<StringAttr>(r, "coreai.kind");
    if (!kind || kind.getValue() != "state_update")
      continue;
    auto name = func.getResultAttrOfType<StringAttr>(r, "coreai.name");
    if (!name || name.getValue().empty())
      return func.emitError("result #")
             << r << " of @" << functionName
             << " is a 'state_update' without a 'coreai.name': it names no "
                "state argument";
    auto state = stateNamed.find(name.getValue());
    if (state == stateNamed.end()) {
      auto other = argumentNamed.find(name.getValue());
      if (other != argumentNamed.end()) {
        StringRef otherKind = argString(other->second, "coreai.kind");
        return func.emitError("result #")
               << r << " of @" << functionName << " updates '"
               << name.getValue() << "', which is argument #" << other->second
               << " of kind '" << (otherKind.empty() ? "none" : otherKind)
               << "', not a 'state': the function may not change it";
      }
      return func.emitError("result #")
             << r << " of @" << functionName << " updates '"
             << name.getValue() << "', but no 'state' argument has that name";
    }
    auto [it, inserted] = updated.try_emplace(name.getValue(), r);
    if (!inserted)
      return func.emitError("results #")
             << it->second << " and #" << r << " of @" << functionName
             << " both update the state '" << name.getValue()
             << "': the runtime's write-back would be ambiguous";
    if (func.getArgument(state->second).getType() != func.getResultTypes()[r])
      return func.emitError("result #")
             << r << " of @" << functionName << " updates the state '"
             << name.getValue() << "' with type " << func.getResultTypes()[r]
             << ", but the state is "
             << func.getArgument(state->second).getType();
  }
  return success();
}

} // namespace coreai
