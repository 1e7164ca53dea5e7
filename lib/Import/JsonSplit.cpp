//===- JsonSplit.cpp - The parts of a JSON document, unparsed -------------===//
#include "JsonSplit.h"

#include "llvm/Support/JSON.h"

namespace coreai::import {
namespace {

class Scanner {
public:
  explicit Scanner(llvm::StringRef text) : text(text) {}

  llvm::Error fail(const llvm::Twine &why) const {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "JSON byte " + llvm::Twine(pos) + ": " +
                                       why);
  }
  void skipSpace() {
    while (pos < text.size() && llvm::is_contained(" \t\r\n", text[pos]))
      ++pos;
  }
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool atEnd() {
    skipSpace();
    return pos == text.size();
  }

  /// Skips one string starting at `pos` (a '"').
  llvm::Error skipString() {
    ++pos;
    while (pos < text.size()) {
      char c = text[pos++];
      if (c == '\\')
        ++pos;
      else if (c == '"')
        return llvm::Error::success();
    }
    return fail("unterminated string");
  }

  /// The extent of the next value: a string, a scalar up to the next
  /// delimiter, or an object or array up to its matching bracket.
  llvm::Expected<llvm::StringRef> value() {
    skipSpace();
    size_t begin = pos;
    if (pos == text.size())
      return fail("expected a value");
    char first = text[pos];
    if (first == '"') {
      if (llvm::Error e = skipString())
        return e;
      return text.slice(begin, pos);
    }
    if (first != '{' && first != '[') {
      while (pos < text.size() &&
             !llvm::is_contained(",:[]{} \t\r\n", text[pos]))
        ++pos;
      if (pos == begin)
        return fail(llvm::Twine("unexpected '") + llvm::Twine(first) + "'");
      return text.slice(begin, pos);
    }
    std::string open;
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '"') {
        if (llvm::Error e = skipString())
          return e;
        continue;
      }
      ++pos;
      if (c == '{' || c == '[') {
        open.push_back(c);
      } else if (c == '}' || c == ']') {
        if (open.back() != (c == '}' ? '{' : '['))
          return fail(llvm::Twine("unbalanced '") + llvm::Twine(c) + "'");
        open.pop_back();
        if (open.empty())
          return text.slice(begin, pos);
      }
    }
    return fail(std::string("unterminated ") +
                (open.back() == '{' ? "object" : "array"));
  }

  size_t pos = 0;

private:
  llvm::StringRef text;
};

} // namespace

llvm::Expected<std::vector<JsonMember>> splitObject(llvm::StringRef text) {
  Scanner scan(text);
  std::vector<JsonMember> members;
  if (!scan.consume('{'))
    return scan.fail("expected an object");
  if (!scan.consume('}')) {
    do {
      llvm::Expected<llvm::StringRef> key = scan.value();
      if (!key)
        return key.takeError();
      llvm::Expected<llvm::json::Value> parsedKey = llvm::json::parse(*key);
      if (!parsedKey || !parsedKey->getAsString()) {
        if (!parsedKey)
          llvm::consumeError(parsedKey.takeError());
        return scan.fail("expected a member name");
      }
      if (!scan.consume(':'))
        return scan.fail("expected ':'");
      llvm::Expected<llvm::StringRef> value = scan.value();
      if (!value)
        return value.takeError();
      members.push_back({parsedKey->getAsString()->str(), *value});
    } while (scan.consume(','));
    if (!scan.consume('}'))
      return scan.fail("expected ',' or '}'");
  }
  if (!scan.atEnd())
    return scan.fail("text after the object");
  return members;
}

llvm::Expected<std::vector<llvm::StringRef>> splitArray(llvm::StringRef text) {
  Scanner scan(text);
  std::vector<llvm::StringRef> elements;
  if (!scan.consume('['))
    return scan.fail("expected an array");
  if (!scan.consume(']')) {
    do {
      llvm::Expected<llvm::StringRef> value = scan.value();
      if (!value)
        return value.takeError();
      elements.push_back(*value);
    } while (scan.consume(','));
    if (!scan.consume(']'))
      return scan.fail("expected ',' or ']'");
  }
  if (!scan.atEnd())
    return scan.fail("text after the array");
  return elements;
}

} // namespace coreai::import
