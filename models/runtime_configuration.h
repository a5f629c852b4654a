#pragma once
// The ways of fitting a runtime-only series, the one shipped, and the choice among them per series.
//
// Five training points rarely say whether a code keeps scaling or flattens beyond them, and
// no way of averaging candidate curves is best on every code (bench/README.md, rounds 10-15).
// Rounds 15-23 fitted each series with the configuration that forecast its own last training point
// best from the points before it (a backcast one step out): chosen that way on the 164 development
// series, it was better than Extra-P on 121 of them. On 157 series gathered afterwards from 36
// public sources, with the rule for changing written down before each set was seen, one
// configuration for every series, the candidates with Extra-P's cost laws beside them at an even
// share, was more accurate (mean |log error| at the largest P lower on four of five sets, nearer
// than Extra-P on 108 series against 100): kShippedRuntimeConfiguration (bench/README.md, round 24).
// The choice per series stays (kPerSeriesConfiguration): where every configuration forecasts the
// last point alike, or the series has fewer than five training points (forecast from three, every
// configuration but the cost laws' is Amdahl's law), it falls back on "nodes + split".
#include <string>
#include <vector>

#include "models/runtime_model.h"

namespace qnm {

/// One way of fitting a runtime-only series: the runtime model's options and whether the
/// single-node runs are left out when the time rises across the node boundary.
struct RuntimeConfiguration {
  std::string name;
  RuntimeModelOptions runtime;
  bool split_at_node_boundary = true;
};

/// The configurations chosen among, built on `base` (its weight temperature, forward
/// validation, interval rate): nodes + split (the choice per series' fallback); Occam + nodes + split;
/// Amdahl alone; nodes + split + cost 0.5 (the shipped one) (bench/accuracy's names).
std::vector<RuntimeConfiguration> StandardRuntimeConfigurations(const RuntimeModelOptions& base);
/// Every configuration a caller may name: the standard ones, then those fitted only when named
/// (the saturating cost's, alone and beside the cost laws).
std::vector<std::string> NamedRuntimeConfigurations();
/// The configuration called `name` (standard or named-only), built on `base`; false when none is.
bool StandardRuntimeConfigurationNamed(const std::string& name, const RuntimeModelOptions& base,
                                       RuntimeConfiguration* out);
/// The index of "nodes + split" in StandardRuntimeConfigurations: the configuration the choice
/// per series falls back on, and the one a transfer to another machine fits (pipeline/transfer_runner.h).
inline constexpr int kDefaultRuntimeConfiguration = 0;
/// What a runtime-only series is fitted with unless the caller says otherwise
/// (PredictionOptions::configuration): chosen on held-out series, five sets gathered after every
/// choice of the tool was made, against the choice per series of rounds 15-23, by a rule written
/// down before each set was seen (bench/README.md, round 24).
inline constexpr char kShippedRuntimeConfiguration[] = "nodes + split + cost 0.5";
/// PredictionOptions::configuration: choose among the standard configurations per series.
inline constexpr char kPerSeriesConfiguration[] = "per-series";

/// What the choice per series found (RuntimeConfigurationChoice in SeriesModel's summary).
struct RuntimeConfigurationChoice {
  bool made = false;           // false: one configuration was fitted (no choice asked or possible)
  bool by_default = false;     // the one fitted is kShippedRuntimeConfiguration, not asked for by the caller
  std::string chosen;          // the configuration fitted: chosen, given or the default (made false);
                               // empty: none (the queueing model, or `runtime` as it is)
  int chosen_index = -1;       // its index in `names` when chosen
  int forecast_procs = 0;      // the training point forecast from the ones before it
  std::vector<std::string> names;
  std::vector<double> backcast_log_error;  // |log(forecast / measured)| per configuration (NaN: failed)
  std::string Note() const;    // one line for the model's notes
  /// Configuration k's backcast error as a percentage ("9.2%"), or "failed".
  std::string BackcastPercent(int k) const;
};

/// The configuration whose backcast error is least (the earlier of two within 1e-12, NaN skipped);
/// `fallback` when none could be tried or every configuration forecast the point alike.
int LeastBackcastError(const std::vector<double>& errors, int fallback);

}  // namespace qnm
