#pragma once
// The values of a document of key-value lines (miniFE's YAML document, HPCG's report) by key path, each
// with the line it was read from, so a reader's error names where a value was, or that it was missing.
#include <map>
#include <string>

namespace qnm {

/// One value of a document: its text and 1-based line.
struct KeyedValue {
  std::string text;
  int line = 0;
};

struct KeyedValues {
  std::map<std::string, KeyedValue> values;

  /// The value at `key`, or nullptr.
  const KeyedValue* Find(const std::string& key) const;
  /// The value at `key`; throws InputError(path, line, "<document> without its '<key>'") without it.
  const KeyedValue& Require(const std::string& key, const std::string& path, int line,
                            const std::string& document) const;
};

}  // namespace qnm
