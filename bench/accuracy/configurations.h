#pragma once
// The model configurations the leave-one-source-out protocol chooses among
// (bench/README.md, "Prediction accuracy, round 4"), the weight temperatures
// and interval rates chosen with them, and how a configuration becomes
// prediction options: its corpus prior learned without the sources left out.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bench/accuracy/corpus.h"
#include "models/extrapolation_prior.h"
#include "models/prediction.h"

namespace accuracy {

struct Config {
  const char* name;
  bool occam;  // Occam's window over the candidate curves (RuntimeModelOptions::more_terms_gain)
  bool prior;  // the corpus prior over candidates (learned without the left-out sources)
  bool nodes;  // candidates with overhead terms in nodes (RuntimeModelOptions::node_terms)
  bool amdahl_only = false;  // Amdahl's law as the only candidate (the two-parameter baseline as a modeler)
  bool split = false;  // fit the multi-node runs alone when the time rises across the node boundary
  double cost = 0;     // share of Extra-P's cost laws in the average (RuntimeModelOptions::cost_law_share)
  bool adaptive = false;  // that share as a prior, the families weighed by forward errors (cost_law_adaptive)
  bool saturating = false;  // a cost rising to a ceiling among the candidates (RuntimeModelOptions::saturating_cost)
  bool saturating_at_edge_only = false;  // ... only where the last training step scales (qnm::kScalingEdgeSlope)
};
inline constexpr Config kConfigs[] = {{"uniform", false, false, false},
                                      {"nodes", false, false, true},
                                      {"Occam", true, false, false},
                                      {"Occam + nodes", true, false, true},
                                      {"prior", false, true, false},
                                      {"prior + nodes", false, true, true},
                                      {"prior + Occam", true, true, false},
                                      {"prior + Occam + nodes", true, true, true},
                                      {"Amdahl alone", false, false, false, true},
                                      {"nodes + split", false, false, true, false, true},
                                      {"Occam + nodes + split", true, false, true, false, true},
                                      {"nodes + split + cost 0.25", false, false, true, false, true, 0.25},
                                      {"nodes + split + cost 0.5", false, false, true, false, true, 0.5},
                                      {"nodes + split + cost 0.75", false, false, true, false, true, 0.75},
                                      {"nodes + split + adaptive cost", false, false, true, false, true, 0.5, true},
                                      {"nodes + split + saturating cost", false, false, true, false, true, 0, false, true},
                                      {"nodes + split + cost 0.5 + saturating cost", false, false, true, false, true, 0.5, false, true},
                                      {"nodes + split + cost 0.5 + saturating cost at the edge", false, false, true, false,
                                       true, 0.5, false, true, true}};

/// The index in kConfigs of the configuration the tool fits by default (kShippedRuntimeConfiguration).
std::size_t ShippedConfigIndex();

/// The pooled per-octave rate the forward errors are shrunk towards
/// (ExtrapolationErrorOptions::prior_log_sd_per_octave) is chosen like the
/// configuration: the one whose 90% intervals hold closest to 90% of the other
/// sources' held-out points.
inline constexpr double kPooledRates[] = {0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5};
/// The candidates' weight temperature (RuntimeModelOptions::weight_temperature), chosen
/// jointly with the configuration.
inline constexpr double kTemperatures[] = {0.5, 1.0, 2.0};

/// The index in [from, to) of the smallest value of `v`, the earlier of two within 1e-12, NaN
/// skipped; `to` when there is none.
std::size_t ArgMin(const std::vector<double>& v, std::size_t from = 0, std::size_t to = SIZE_MAX);

/// The series as the prior learns from it: training points and the larger, held-out ones.
qnm::PriorSeries AsPriorSeries(const Entry& e);
/// The corpus prior learned on the series of `corpus` not from a source in `leave_out`.
qnm::ExtrapolationPrior LearnPrior(const std::vector<qnm::PriorSeries>& corpus, const std::set<std::string>& leave_out,
                                   const qnm::RuntimeModelOptions& runtime);

/// Priors learned so far, by configuration, temperature and the sources left out.
using PriorCache = std::map<std::string, qnm::ExtrapolationPrior>;
/// Prediction options of a configuration, its prior learned without `leave_out` (cached).
qnm::PredictionOptions ConfigOptions(const Config& c, double temperature, const std::set<std::string>& leave_out,
                                     const std::vector<qnm::PriorSeries>& corpus, PriorCache* cache);
/// The rate of kPooledRates whose coverage on the series of `corpus` not from `left_out` is closest to
/// the level (ties: the narrower); `coverage` gets each rate's share: of every held-out point, or
/// with `per_source` the mean of each source's share (every source weighs one, whatever its points).
double ChooseRate(const std::vector<Entry>& corpus, const std::string& left_out, const Config& config,
                  double temperature, const std::vector<qnm::PriorSeries>& samples, PriorCache* cache,
                  std::vector<double>* coverage, bool per_source = false);
/// The same for any way of predicting: `options_at(e, rate)` predicts series `e` with that rate.
double ChooseRateFor(const std::vector<Entry>& corpus, const std::string& left_out,
                     const std::function<qnm::PredictionOptions(const Entry&, double rate)>& options_at,
                     std::vector<double>* coverage, bool per_source = false);

}  // namespace accuracy
