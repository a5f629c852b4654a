#pragma once
// The renderers of `predict` and `validate`: predictions and validations as a
// table for people, CSV or JSON (beside the other *_report files of the house).
// The writers format one series at a time, so that a run over many series can
// hand each piece to its output and free the series before the next (issue 19:
// memory bounded by a series, not by the input); FormatPredictions and
// FormatValidations are the same text in one string.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "models/validation.h"
#include "pipeline/prediction_runner.h"

namespace qnm {

/// Receives the pieces of a report in order (e.g. OutputStream::Write).
using ReportSink = std::function<void(std::string_view text)>;

/// `predict`'s report written series by series. `format` is "table", "csv" or
/// "json"; `origin` says what was read (LoadSeries). The constructor writes
/// what precedes the first series.
class PredictionWriter {
 public:
  PredictionWriter(std::string format, const std::string& origin, ReportSink write);
  /// Writes one series (guarded: no non-finite or negative time is printed).
  void Add(SeriesPrediction result);
  /// Writes what follows the last series.
  void Finish();

 private:
  std::string format_;
  ReportSink write_;
  std::size_t series_ = 0;
};

/// `validate`'s report written series by series, as PredictionWriter.
class ValidationWriter {
 public:
  ValidationWriter(std::string format, const std::string& origin, ReportSink write);
  void Add(ValidationResult result);
  /// Writes what follows the last series (the table's median over series).
  void Finish();

 private:
  std::string format_;
  ReportSink write_;
  std::size_t series_ = 0;
  std::vector<double> medians_;  // each series' median |error|, for the table's last line
};

/// `format` is "table", "csv" or "json"; `origin` says what was read (LoadSeries).
std::string FormatPredictions(const std::vector<SeriesPrediction>& results, const std::string& format,
                              const std::string& origin);
std::string FormatValidations(const std::vector<ValidationResult>& results, const std::string& format,
                              const std::string& origin);

}  // namespace qnm
