#pragma once
// What Extra-P reads from an experiment, before qnm-predict chooses the
// process count: any number of parameters, points as coordinates, and per
// call path x metric every repetition's value at every point. The readers
// follow Extra-P 4.2's (github.com/extra-p/extrap, extrap/fileio/file_reader/):
// text, JSON (current and legacy id-based), JSON Lines and TALPas; cube sets
// are in cube_set.h. docs/formats/extrap.md cites each grammar.
#include <string>
#include <string_view>
#include <vector>

#include "extrap/extrap_experiment.h"

namespace qnm {

struct ExtrapData {
  std::vector<std::string> parameters;       // "p", "n"
  std::vector<std::vector<double>> points;   // [point][parameter], first-appearance order
  std::vector<ExtrapMeasurement> measurements;  // values [point][repetition], aligned with points

  /// Index of `callpath` x `metric`, or -1.
  int Find(const std::string& callpath, const std::string& metric) const;
};

/// Readers; throw InputError(path, line, why) where Extra-P refuses the input
/// (and for what qnm-predict cannot hold: a non-finite number, a binary file).
ExtrapData ParseExtrapTextData(std::string_view text, const std::string& path);
/// JSON: {"parameters": [...], "measurements": {...}} or the legacy id-based
/// {"parameters", "callpaths", "metrics", "coordinates", "measurements"}.
ExtrapData ParseExtrapJsonData(std::string_view text, const std::string& path);
/// JSON Lines: {"params": {...}, "callpath": ..., "metric": ..., "value": ...} per line.
ExtrapData ParseExtrapJsonLinesData(std::string_view text, const std::string& path);
/// TALPas: JSON objects with ';' between members, {"parameters": {...}, ...}.
ExtrapData ParseTalpasData(std::string_view text, const std::string& path);

/// True for TALPas lines ({"parameters":{...};"metric":...}).
bool LooksLikeTalpas(std::string_view text);

/// Extra-P's io_helper.validate_experiment: every call path x metric has a
/// value list at every point, and every point one coordinate per parameter.
void ValidateExtrapData(const ExtrapData& data, const std::string& path);

}  // namespace qnm
