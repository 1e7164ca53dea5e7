//===- ArgsRepr.cpp - A node's arguments as `coreai.args` text ------------===//
#include "ArgsRepr.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <charconv>
#include <cmath>

namespace coreai::import {

using llvm::json::Array;
using llvm::json::Object;

namespace {

llvm::Error malformed(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "malformed " + what);
}

std::string pythonBool(bool value) { return value ? "True" : "False"; }

/// `[a, b]` from each item's text.
template <typename Each>
llvm::Expected<std::string> listRepr(const llvm::json::Value &value,
                                     llvm::StringRef kind, Each &&each) {
  const Array *items = value.getAsArray();
  if (!items)
    return malformed("'" + kind + "' argument");
  std::string out = "[";
  for (auto [i, item] : llvm::enumerate(*items)) {
    llvm::Expected<std::string> one = each(item);
    if (!one)
      return one.takeError();
    out += (i ? ", " : "") + *one;
  }
  return out + "]";
}

llvm::Expected<std::string> symbolicRepr(const llvm::json::Value &item,
                                         const SymIntTexts &symInts) {
  const Object *sym = item.getAsObject();
  if (!sym)
    return malformed("symbolic argument");
  if (auto name = sym->getString("as_name")) {
    auto found = symInts.find(*name);
    return found != symInts.end() ? found->second : name->str();
  }
  if (auto i = sym->getInteger("as_int"))
    return std::to_string(*i);
  if (auto f = sym->getNumber("as_float"))
    return pythonFloat(*f);
  if (auto b = sym->getBoolean("as_bool"))
    return pythonBool(*b);
  return malformed("symbolic argument");
}

/// JSON does not tell 2.0 from 2: the argument's kind does.
llvm::Expected<std::string> numberRepr(const llvm::json::Value &item,
                                       bool floating) {
  if (auto i = item.getAsInteger(); i && !floating)
    return std::to_string(*i);
  if (auto f = item.getAsNumber())
    return pythonFloat(*f);
  if (auto s = item.getAsString()) // "Infinity", "-Infinity", "NaN"
    return s->starts_with("-") ? std::string("-inf")
           : *s == "NaN"       ? std::string("nan")
                               : std::string("inf");
  return malformed("number");
}

std::string optionalTensorRepr(const llvm::json::Value &item) {
  const Object *o = item.getAsObject();
  return o && o->get("as_tensor") ? "T" : "None";
}

std::string memoryFormatRepr(int64_t code) {
  switch (code) {
  case 1: return "torch.contiguous_format";
  case 2: return "torch.channels_last";
  case 3: return "torch.channels_last_3d";
  case 4: return "torch.preserve_format";
  default: return "None";
  }
}

std::string deviceRepr(const llvm::json::Value &value) {
  const Object *device = value.getAsObject();
  std::string out =
      "device(type='" +
      (device ? device->getString("type").value_or("") : "").str() + "'";
  if (device)
    if (auto index = device->getInteger("index"))
      out += ", index=" + std::to_string(*index);
  return out + ")";
}

/// Arguments that are not lists of numbers or symbols; std::nullopt for
/// the other kinds.
std::optional<std::string> plainRepr(llvm::StringRef kind,
                                     const llvm::json::Value &value) {
  if (kind == "as_tensor")
    return std::string("T");
  if (kind == "as_optional_tensor")
    return optionalTensorRepr(value);
  if (kind == "as_none")
    return std::string("None");
  if (kind == "as_bool")
    return pythonBool(value.getAsBoolean().value_or(false));
  if (kind == "as_string")
    return "'" + value.getAsString().value_or("").str() + "'";
  if (kind == "as_scalar_type") {
    const char *name = scalarTypeName(value.getAsInteger().value_or(0));
    return std::string(name ? name : "torch.unknown_dtype");
  }
  if (kind == "as_layout")
    return std::string(value.getAsInteger() == 7 ? "torch.strided"
                                                 : "torch.non_strided");
  if (kind == "as_memory_format")
    return memoryFormatRepr(value.getAsInteger().value_or(0));
  if (kind == "as_device")
    return deviceRepr(value);
  return std::nullopt;
}

} // namespace

std::string pythonFloat(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char buffer[64];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                 std::chars_format::scientific);
  std::string sci(buffer, end);
  size_t e = sci.find('e');
  std::string mantissa = sci.substr(0, e);
  int exponent = std::stoi(sci.substr(e + 1));
  bool negative = mantissa[0] == '-';
  std::string digits;
  for (char c : mantissa)
    if (llvm::isDigit(c))
      digits += c;
  std::string out = negative ? "-" : "";
  if (exponent >= -5 && exponent < 16) {
    int point = exponent + 1; // digits before the decimal point
    if (point <= 0)
      out += "0." + std::string(-point, '0') + digits;
    else if (size_t(point) >= digits.size())
      out += digits + std::string(point - digits.size(), '0') + ".0";
    else
      out += digits.substr(0, point) + "." + digits.substr(point);
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1)
    out += "." + digits.substr(1);
  std::string power = std::to_string(std::abs(exponent));
  if (power.size() < 2)
    power.insert(0, 2 - power.size(), '0'); // Python writes `1e-06`
  return out + (exponent < 0 ? "e-" : "e+") + power;
}

const char *scalarTypeName(int64_t code) {
  switch (code) {
  case 1: return "torch.uint8";
  case 2: return "torch.int8";
  case 3: return "torch.int16";
  case 4: return "torch.int32";
  case 5: return "torch.int64";
  case 6: return "torch.float16";
  case 7: return "torch.float32";
  case 8: return "torch.float64";
  case 9: return "torch.complex32";
  case 10: return "torch.complex64";
  case 11: return "torch.complex128";
  case 12: return "torch.bool";
  case 13: return "torch.bfloat16";
  case 28: return "torch.uint16";
  case 29: return "torch.float8_e4m3fn";
  case 30: return "torch.float8_e5m2";
  case 31: return "torch.float8_e4m3fnuz";
  case 32: return "torch.float8_e5m2fnuz";
  default: return nullptr;
  }
}

llvm::Expected<std::string> argumentRepr(const llvm::json::Value &arg,
                                         const SymIntTexts &symInts) {
  const Object *object = arg.getAsObject();
  if (!object || object->size() != 1)
    return malformed("argument");
  const auto &[kindKey, value] = *object->begin();
  llvm::StringRef kind = kindKey;
  if (std::optional<std::string> text = plainRepr(kind, value))
    return *text;
  bool floating = kind == "as_float" || kind == "as_floats";
  auto number = [floating](const llvm::json::Value &item) {
    return numberRepr(item, floating);
  };
  auto symbolic = [&symInts](const llvm::json::Value &item) {
    return symbolicRepr(item, symInts);
  };
  if (kind == "as_tensors")
    return listRepr(value, kind, [](const llvm::json::Value &) {
      return llvm::Expected<std::string>(std::string("T"));
    });
  if (kind == "as_optional_tensors")
    return listRepr(value, kind, [](const llvm::json::Value &item) {
      return llvm::Expected<std::string>(optionalTensorRepr(item));
    });
  if (kind == "as_int" || kind == "as_float")
    return number(value);
  if (kind == "as_ints" || kind == "as_floats")
    return listRepr(value, kind, number);
  if (kind == "as_bools")
    return listRepr(value, kind, [](const llvm::json::Value &item) {
      return llvm::Expected<std::string>(
          pythonBool(item.getAsBoolean().value_or(false)));
    });
  if (kind == "as_sym_int" || kind == "as_sym_float" || kind == "as_sym_bool")
    return symbolic(value);
  if (kind == "as_sym_ints" || kind == "as_sym_floats" ||
      kind == "as_sym_bools")
    return listRepr(value, kind, symbolic);
  return "<" + kind.str() + ">";
}

llvm::Expected<std::string> argumentsRepr(const Array &inputs,
                                          const SymIntTexts &symInts) {
  std::string out = "(";
  for (auto [i, input] : llvm::enumerate(inputs)) {
    const Object *named = input.getAsObject();
    const llvm::json::Value *arg = named ? named->get("arg") : nullptr;
    if (!arg)
      return malformed("node input " + llvm::Twine(i));
    llvm::Expected<std::string> text = argumentRepr(*arg, symInts);
    if (!text)
      return text.takeError();
    if (i)
      out += ", ";
    if (named->getInteger("kind") == 2)
      out += named->getString("name").value_or("").str() + "=";
    out += *text;
  }
  return out + ")";
}

} // namespace coreai::import
