// Key-value documents' values (keyed_values.h).
#include "textio/keyed_values.h"

#include <utility>

#include "util/input_error.h"

namespace qnm {

void KeyedValues::Add(const std::string& key, std::string text, int line) {
  const auto at = values.find(key);
  if (at == values.end())
    values.emplace(key, KeyedValue{std::move(text), line});
  else if (at->second.text != text)
    conflicts.emplace(key, line);
}

const KeyedValue* KeyedValues::Find(const std::string& key) const {
  const auto found = values.find(key);
  return found == values.end() ? nullptr : &found->second;
}

const KeyedValue* KeyedValues::Taken(const std::string& key, const std::string& path,
                                     const std::string& document) const {
  const KeyedValue* value = Find(key);
  if (const auto conflict = conflicts.find(key); conflict != conflicts.end())
    throw InputError(path, conflict->second,
                     document + " gives '" + key + "' twice, with two values (first at line " +
                         std::to_string(value->line) + ": '" + value->text + "')");
  return value;
}

const KeyedValue& KeyedValues::Require(const std::string& key, const std::string& path, int line,
                                       const std::string& document) const {
  if (const KeyedValue* value = Taken(key, path, document)) return *value;
  throw InputError(path, line, document + " without its '" + key + "'");
}

}  // namespace qnm
