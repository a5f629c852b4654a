#include "report/study_report.h"

#include <exception>

#include "pipeline/series_loading.h"
#include "report/trace_section.h"

namespace qnm::report {

Study BuildStudy(const StudyOptions& options) {
  Study study;
  study.paths = options.paths;
  study.group_by = options.group_by;
  study.procs_spec = options.procs_spec;
  study.series = LoadSeries(options.paths, options.series_filter, &study.origin, options.group,
                            options.selection, &study.ingest);
  study.predictions = RunPredict(study.series, options.procs, options.prediction);
  for (const Series& series : study.series) study.efficiencies.push_back(PopEfficienciesOfSeries(series));
  try {
    study.validations = RunValidate(study.series, {}, options.prediction);
  } catch (const std::exception& e) {
    // A study of one series at one P cannot be validated; the report still
    // shows its inputs and predictions, and says why.
    study.notes.push_back(std::string("no series validated: ") + e.what());
  }
  if (!options.whatif.empty()) {
    WhatifScalingOptions whatif;
    whatif.hypotheses = options.whatif;
    whatif.prediction = options.prediction;
    study.whatifs = RunWhatifPredict(study.series, options.procs, whatif);
  }
  if (options.has_target) {
    // Each transferred prediction right after its source's, so the two sections sit side by side.
    std::vector<SeriesPrediction> moved =
        RunTransferPredict(study.series, options.target, options.procs, options.prediction, options.transfer);
    std::vector<SeriesPrediction> merged;
    for (std::size_t i = 0; i < study.predictions.size(); ++i) {
      merged.push_back(std::move(study.predictions[i]));
      if (i < moved.size()) merged.push_back(std::move(moved[i]));
    }
    study.predictions = std::move(merged);
    if (!options.target.series.empty()) {
      try {
        for (ValidationResult& v :
             RunTransferValidate(study.series, options.target, options.prediction, options.transfer))
          study.validations.push_back(std::move(v));
      } catch (const std::exception& e) {
        study.notes.push_back(std::string("transfer not validated: ") + e.what());
      }
    }
  }
  study.trace_paths = options.traces;
  for (std::size_t i = 0; i < options.traces.size(); ++i)
    study.trace_sections.push_back(TraceSection(i, options.traces[i]));
  return study;
}

}  // namespace qnm::report
