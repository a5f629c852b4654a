#pragma once
// The section of one series in the report (study_html.cpp assembles the page).
#include <string>

#include "efficiency/pop_efficiency.h"
#include "models/validation.h"
#include "pipeline/prediction_runner.h"
#include "whatif_scaling/whatif_prediction.h"

namespace qnm::report {

/// The anchor of series number `index` ("series-3"): from the index, never from the name.
std::string SeriesAnchor(std::size_t index);

/// `<section class="series">`: model and fitted inputs, predictions, validation, components.
/// `validation` is null when the series could not be validated (`why` says so);
/// `whatif` (may be null) adds the series predicted with the what-if hypotheses; `efficiencies`
/// (may be null or empty) the measured runs' POP factors.
std::string SeriesSection(std::size_t index, const SeriesPrediction& prediction, const ValidationResult* validation,
                          const SeriesWhatifPrediction* whatif = nullptr,
                          const std::vector<PopEfficiency>* efficiencies = nullptr);

}  // namespace qnm::report
