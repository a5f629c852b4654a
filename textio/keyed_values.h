#pragma once
// The values of a document of key-value lines (miniFE's YAML document, HPCG's report, Intel APS's
// summary) by key path, each with the line it was read from, so a reader's error names where a value
// was, or that it was missing, or that the document gave it twice.
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
  /// Keys given again with another value (Add): the line of the second.
  std::map<std::string, int> conflicts;

  /// Keeps the first value of `key`; a later, different one is noted in `conflicts`, and refused
  /// only when a reader takes the key (Taken, Require): a document may repeat the keys it does not
  /// (each of HPCG's coarse grids and MG counter levels repeats its own).
  void Add(const std::string& key, std::string text, int line);
  /// The value at `key`, or nullptr.
  const KeyedValue* Find(const std::string& key) const;
  /// Find, for a value the record takes: throws InputError(path, the second line, "<document> gives
  /// '<key>' twice, with two values (first at line N: '<text>')") when Add saw two.
  const KeyedValue* Taken(const std::string& key, const std::string& path, const std::string& document) const;
  /// Taken, and throws InputError(path, line, "<document> without its '<key>'") without it.
  const KeyedValue& Require(const std::string& key, const std::string& path, int line,
                            const std::string& document) const;
};

}  // namespace qnm
