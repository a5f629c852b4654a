#pragma once
// The ways of fitting a runtime-only series, and the choice among them per series.
//
// Five training points rarely say whether a code keeps scaling or flattens beyond them, and
// no way of averaging candidate curves is best on every code: chosen on five sources of real
// series and applied to the sixth, the best configuration of the others is often the wrong one
// (bench/README.md, rounds 10-15). What a series does say is how well each configuration
// forecasts its own last training point from the points before it (a backcast one step out,
// the only held-out point a user's data always has). The series gets the configuration that
// forecast it best; where every configuration forecasts it alike, or the series has fewer than
// five training points (forecast from three, every configuration but the cost laws' is Amdahl's
// law), the default configuration.
// Leaving one source out on the 164 series of bench/accuracy, this choice per series is better
// than Extra-P on 121 series (the configuration chosen per source: 109); corpus-learned ways of
// choosing, nested, reach 110-120 and none is better than it (bench/README.md, round 15).
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
/// validation, interval rate): nodes + split (the default); Occam + nodes + split; Amdahl alone;
/// nodes + split + cost 0.5 (bench/accuracy's names).
std::vector<RuntimeConfiguration> StandardRuntimeConfigurations(const RuntimeModelOptions& base);
/// The index of "nodes + split" in StandardRuntimeConfigurations.
inline constexpr int kDefaultRuntimeConfiguration = 0;

/// What the choice per series found (RuntimeConfigurationChoice in SeriesModel's summary).
struct RuntimeConfigurationChoice {
  bool made = false;           // false: one configuration was fitted (no choice asked or possible)
  std::string chosen;          // the configuration fitted: chosen, or given (made false); empty: the default
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
