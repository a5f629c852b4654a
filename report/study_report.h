#pragma once
// `qnm-predict report`: a whole study (every series read from RUNS) as one
// self-contained HTML page: the inputs found, per series the model, its
// fitted inputs, predictions, leave-one-out validation and components.
#include <string>
#include <vector>

#include "efficiency/pop_efficiency.h"
#include "ingest/ingest.h"
#include "models/validation.h"
#include "pipeline/prediction_runner.h"
#include "pipeline/transfer_runner.h"
#include "reader/run_selection.h"
#include "reader/series_identity.h"
#include "whatif/whatif_hypothesis.h"
#include "whatif_scaling/whatif_prediction.h"

namespace qnm::report {

/// Everything the page shows; BuildStudy fills it, RenderStudyHtml draws it.
struct Study {
  std::vector<std::string> paths;  // as given (empty: the bundled series)
  std::string origin;              // LoadSeries' one-line account of what was read
  std::string group_by;            // "content", "folder" or "file-prefix"
  std::string procs_spec;          // --procs as given
  IngestSummary ingest;
  std::vector<Series> series;
  std::vector<SeriesPrediction> predictions;  // one per series, same order
  std::vector<ValidationResult> validations;  // leave-one-out; series that could not be validated are absent
  std::vector<std::string> notes;             // e.g. why validation was not possible
  std::vector<std::string> trace_paths;       // --trace, in order
  std::vector<std::string> trace_sections;    // their rendered sections (report/trace_section.h)
  std::vector<SeriesWhatifPrediction> whatifs; // --whatif: one per series, same order; empty without
  std::vector<std::vector<PopEfficiency>> efficiencies;  // one per series, same order: its measured runs' POP factors
};

struct StudyOptions {
  std::vector<std::string> paths;
  std::string series_filter;
  std::string group_by = "content";
  GroupBy group = GroupBy::kContent;
  RunSelection selection;
  std::string procs_spec = "1..1024:x2";
  std::vector<int> procs;
  PredictionOptions prediction;
  std::vector<std::string> traces;  // OTF2 traces: wait states, imbalance, region names, what-if suggestions
  std::vector<trace::Hypothesis> whatif;  // --whatif: every series also predicted with these
  // --target: each series' model moved to machine B is shown beside it ("A -> B"),
  // validated by calibrating on B's smallest P (pipeline/transfer_runner.h).
  bool has_target = false;
  TransferTarget target;
  TransferOptions transfer;
};

/// Reads, fits, predicts and validates (leave-one-out) every series. Throws
/// InputError as `predict` does (nothing read, a named file skipped, ...).
Study BuildStudy(const StudyOptions& options);

/// The page: one HTML document with inline CSS, SVG and a few lines of script.
std::string RenderStudyHtml(const Study& study);

}  // namespace qnm::report
