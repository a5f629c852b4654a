#pragma once
// The renderers of `predict` and `validate`: predictions and validations as a
// table for people, CSV or JSON (beside the other *_report files of the house).
#include <string>
#include <vector>

#include "models/validation.h"
#include "pipeline/prediction_runner.h"

namespace qnm {

/// `format` is "table", "csv" or "json"; `origin` says what was read (LoadSeries).
std::string FormatPredictions(const std::vector<SeriesPrediction>& results, const std::string& format,
                              const std::string& origin);
std::string FormatValidations(const std::vector<ValidationResult>& results, const std::string& format,
                              const std::string& origin);

}  // namespace qnm
