// Key-value documents' values (keyed_values.h).
#include "textio/keyed_values.h"

#include "util/input_error.h"

namespace qnm {

const KeyedValue* KeyedValues::Find(const std::string& key) const {
  const auto found = values.find(key);
  return found == values.end() ? nullptr : &found->second;
}

const KeyedValue& KeyedValues::Require(const std::string& key, const std::string& path, int line,
                                       const std::string& document) const {
  if (const KeyedValue* value = Find(key)) return *value;
  throw InputError(path, line, document + " without its '" + key + "'");
}

}  // namespace qnm
