#include "bench/accuracy/leave_one_source_out.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "bench/accuracy/tables.h"
#include "util/atomic_file.h"

namespace accuracy {
namespace {

// Every (configuration, temperature) pair is scored; a configuration's cell shows its best
// temperature's objective.
constexpr std::size_t kPairs = std::size(kConfigs) * std::size(kTemperatures);
const Config& PairConfig(std::size_t k) { return kConfigs[k / std::size(kTemperatures)]; }
double PairTemperature(std::size_t k) { return kTemperatures[k % std::size(kTemperatures)]; }
/// The pair of configuration c at its best temperature under `objective`.
std::size_t BestPairOf(std::size_t c, const std::vector<double>& objective) {
  return ArgMin(objective, c * std::size(kTemperatures), (c + 1) * std::size(kTemperatures));
}

/// The ways of predicting scored at the largest P, one row each: every configuration fixed for
/// every source (rows 0 .. size(kConfigs) - 1), then these.
enum Way : std::size_t {
  kAverage = std::size(kConfigs),  // geometric mean of every configuration: no choice at all
  kPerSource,                      // a configuration chosen per source (rounds 4-14's headline)
  kPerSeries,                      // the configuration that forecast the last training point best
  kPerSeriesNoCost,                // the same among the configurations without the cost laws
  kWeighted,                       // every configuration weighted by the likelihood of that forecast
  kChecked,                        // the choice per source unless its own forecast leaves its 90% interval
  kTool,                           // the choice per series among the tool's 4 configurations (rounds 15-23's tool)
  kNoHold,                         // the headline without the hold after an unevidenced minimum (rounds 18-24)
  kWays
};

std::vector<std::string> WayLabels(std::size_t forced) {
  std::vector<std::string> labels;
  for (std::size_t k = 0; k < std::size(kConfigs); ++k)
    labels.push_back(k == forced ? std::string("**fixed: ") + kConfigs[k].name + "** (the headline" +
                                       (k == ShippedConfigIndex() ? ": what the tool does)" : ", forced)")
                                 : std::string("fixed: ") + kConfigs[k].name);
  labels.push_back("**average of every configuration**");
  labels.push_back(forced == std::size(kConfigs)
                       ? "chosen per source (the headline of rounds 4-14)"
                       : "chosen per source (the headline of rounds 4-14): the forced one, as every source gets it; "
                         "`--force per-series` for the choice");
  labels.push_back("chosen per series: the configuration that forecast its last training point best");
  labels.push_back("chosen per series: last training point, configurations without the cost laws");
  labels.push_back("weighted per series: every configuration, by the likelihood of its last-point forecast");
  labels.push_back("chosen per source, switched per series when its last-point forecast leaves its own 90% interval");
  labels.push_back(forced == std::size(kConfigs)
                       ? "**chosen per series by the tool of rounds 15-23** (its 4 configurations; the headline)"
                       : "chosen per series among the tool's 4 configurations (`--configuration per-series`, the tool of "
                         "rounds 15-23)");
  labels.push_back("the headline without holding at an unevidenced minimum (`--no-hold`, rounds 18-24)");
  return labels;
}

/// The configuration whose backcast error is least; errors.size() when none could be tried or
/// every configuration forecast the point alike (nothing to choose by).
std::size_t LeastBackcast(const std::vector<double>& errors) {
  const std::size_t best = ArgMin(errors);
  for (double error : errors)
    if (best < errors.size() && !std::isnan(error) && error > errors[best] + 1e-12) return best;
  return errors.size();
}

class Protocol {
 public:
  Protocol(const std::vector<Entry>& corpus, const ChoiceOptions& options) : corpus_(corpus), options_(options) {
    for (const Entry& e : corpus) samples_.push_back(AsPriorSeries(e));
  }

  /// Options of pair k, its prior learned without `leave_out`.
  qnm::PredictionOptions PairOptions(std::size_t k, const std::set<std::string>& leave_out) {
    return ConfigOptions(PairConfig(k), PairTemperature(k), leave_out, samples_, &cache_);
  }

  /// The objective's summary of a set of series' values: their median or mean.
  double Summarise(const std::vector<double>& values) const {
    if (values.empty()) return 0.0;
    if (options_.objective == "median") return Median(values);
    double sum = 0;
    int n = 0;
    for (double v : values)
      if (!std::isnan(v)) sum += v, ++n;
    return n ? sum / n : 0.0;
  }

  /// A series' value under the objective: its loss against Extra-P, or its |log error|.
  double Value(const Entry& e, const LastPoint& last) const {
    return options_.objective == "wins" ? LossAgainstPeer(e, last) : LastLogError(last);
  }

  /// Every pair's objective on the series of the sources other than `left_out`.
  std::vector<double> Objective(const std::string& left_out) {
    std::vector<double> objective(kPairs, 0.0);
    // Each other source's summary per pair, for "balanced" and "regret".
    std::map<std::string, std::vector<double>> source_means;
    for (std::size_t k = 0; k < kPairs; ++k) {
      std::vector<double> values;
      std::map<std::string, std::vector<double>> per_source;
      for (const Entry& e : corpus_) {
        if (e.source == left_out) continue;
        values.push_back(Value(e, LastPrediction(e, PairOptions(k, {left_out, e.source}))));
        per_source[e.source].push_back(values.back());
      }
      objective[k] = Summarise(values);
      for (const auto& [other, v] : per_source) source_means[other].push_back(Summarise(v));
    }
    if (options_.objective == "balanced")  // every other source's mean weighs one, whatever its series
      for (std::size_t k = 0; k < kPairs; ++k) {
        double sum = 0;
        for (const auto& [other, means] : source_means) sum += means[k];
        objective[k] = source_means.empty() ? 0.0 : sum / source_means.size();
      }
    if (options_.objective == "regret")  // minimax regret: every source alike
      for (std::size_t k = 0; k < kPairs; ++k) {
        double worst = 0;
        for (const auto& [other, means] : source_means) {
          const double least = *std::min_element(means.begin(), means.end());
          if (least > 0) worst = std::max(worst, means[k] / least);
        }
        objective[k] = worst;
      }
    return objective;
  }

  std::size_t Choose(const std::vector<double>& objective) const {
    if (options_.forced == std::size(kConfigs)) return ArgMin(objective);
    return BestPairOf(options_.forced, objective);
  }

  static void PrintRow(const std::string& label, const std::vector<double>& objective, std::size_t chosen) {
    std::printf("| %s |", label.c_str());
    for (std::size_t c = 0; c < std::size(kConfigs); ++c) {
      const std::size_t best = BestPairOf(c, objective);
      std::printf(" %.4f (%.1f) |", objective[best], PairTemperature(best));
    }
    std::printf(" %s, temperature %.1f |\n", PairConfig(chosen).name, PairTemperature(chosen));
  }

  /// What the tool does (PredictionOptions::choose_configuration): its standard configurations, each
  /// at its temperature chosen under `objective` (on the sources other than the scored one),
  /// chosen per series by the forecast of its last training point; the interval rate chosen on
  /// the sources other than `left_out` by the coverage of this very procedure.
  qnm::PredictionOptions ToolOptions(const std::vector<double>& objective, const std::string& left_out,
                                     const std::string& label, std::string* rate_table) {
    qnm::PredictionOptions options;
    options.configurations = qnm::StandardRuntimeConfigurations(options.runtime);
    for (qnm::RuntimeConfiguration& c : options.configurations)
      for (std::size_t k = 0; k < std::size(kConfigs); ++k)
        if (c.name == kConfigs[k].name) c.runtime.weight_temperature = PairTemperature(BestPairOf(k, objective));
    std::vector<double> coverage;
    const double rate = ChooseRateFor(
        corpus_, left_out,
        [&options](const Entry&, double r) {
          qnm::PredictionOptions o = options;
          SetIntervalRate(r, &o);
          return o;
        },
        &coverage, options_.coverage_weight == "source");
    SetIntervalRate(rate, &options);
    *rate_table += "| " + label + " |";
    for (double c : coverage) *rate_table += " " + Pct(c) + " |";
    char chosen[32];
    std::snprintf(chosen, sizeof chosen, " %.2f |\n", options.runtime.error.prior_log_sd_per_octave);
    *rate_table += chosen;
    return options;
  }

  static void SetIntervalRate(double rate, qnm::PredictionOptions* options) {
    options->runtime.error.prior_log_sd_per_octave = rate;
    for (qnm::RuntimeConfiguration& c : options->configurations) c.runtime.error.prior_log_sd_per_octave = rate;
  }

  /// The chosen pair's options with its interval rate chosen on the sources other than
  /// `left_out` ("" for every source); adds the rate's row to `rate_table`.
  qnm::PredictionOptions WithRate(std::size_t pair, const std::string& left_out, const std::string& label,
                                  std::string* rate_table) {
    qnm::PredictionOptions options = PairOptions(pair, left_out.empty() ? std::set<std::string>{}
                                                                         : std::set<std::string>{left_out});
    std::vector<double> coverage;
    options.runtime.error.prior_log_sd_per_octave =
        ChooseRate(corpus_, left_out, PairConfig(pair), PairTemperature(pair), samples_, &cache_, &coverage,
                   options_.coverage_weight == "source");
    *rate_table += "| " + label + " |";
    for (double c : coverage) *rate_table += " " + Pct(c) + " |";
    char chosen[32];
    std::snprintf(chosen, sizeof chosen, " %.2f |\n", options.runtime.error.prior_log_sd_per_octave);
    *rate_table += chosen;
    return options;
  }

  /// The series of the left-out source `e` under every way of predicting (one LastPoint per
  /// way into `ways`); `headline` is the choice per source's own, `options` its options.
  void ScoreWays(const Entry& e, const std::vector<double>& objective, const qnm::PredictionOptions& options,
                 const LastPoint& headline, const LastPoint& tool, std::vector<std::vector<LastPoint>>* ways,
                 std::vector<std::vector<double>>* values) {
    const std::set<std::string> left_out = {e.source};
    std::vector<LastPoint> at_pair;  // every (configuration, temperature) pair on the series
    for (std::size_t k = 0; k < kPairs; ++k) at_pair.push_back(LastPrediction(e, PairOptions(k, left_out)));
    for (std::size_t k = 0; k < kPairs; ++k) (*values)[k].push_back(Value(e, at_pair[k]));
    // Every configuration at its own temperature chosen on the other sources, alone and averaged.
    double log_sum = 0;
    int averaged = 0;
    std::vector<double> backcast, backcast_no_cost;  // per configuration at its temperature
    for (std::size_t c = 0; c < std::size(kConfigs); ++c) {
      const std::size_t k = BestPairOf(c, objective);
      const LastPoint& point = at_pair[k];
      if (point.predicted > 0 && std::isfinite(point.predicted)) {
        log_sum += std::log(point.predicted);
        ++averaged;
      }
      (*ways)[c].push_back(point);
      backcast.push_back(BackcastLogError(e, PairOptions(k, left_out)));
      backcast_no_cost.push_back(PairConfig(k).cost > 0 ? NAN : backcast.back());
    }
    auto configuration = [&](std::size_t c) -> const LastPoint& {
      return c < std::size(kConfigs) ? (*ways)[c].back() : headline;
    };
    LastPoint average = headline;
    average.predicted = averaged == static_cast<int>(std::size(kConfigs)) ? std::exp(log_sum / averaged) : NAN;
    (*ways)[kAverage].push_back(average);
    (*ways)[kPerSource].push_back(headline);
    // The configuration that forecast the series' own last training point best from the points
    // before it (no choice across sources; where nothing tells them apart, the choice per source).
    const std::size_t own = LeastBackcast(backcast);
    (*ways)[kPerSeries].push_back(configuration(own));
    (*ways)[kPerSeriesNoCost].push_back(configuration(LeastBackcast(backcast_no_cost)));
    // The configurations weighted by how likely their backcast error is under the interval's own
    // spread at that distance (a normal likelihood of log sd rate x octaves, the rate chosen on
    // the other sources): Bayesian averaging over the configurations instead of a hard choice.
    const double octaves =
        e.train.size() >= 2 ? std::log2(static_cast<double>(e.train.back()) / e.train[e.train.size() - 2]) : NAN;
    const double sd = options.runtime.error.prior_log_sd_per_octave * octaves;
    double weight_sum = 0, weighted_log = 0;
    for (std::size_t c = 0; c < backcast.size(); ++c) {
      const double v = (*ways)[c].back().predicted;
      if (std::isnan(backcast[c]) || !(v > 0) || !std::isfinite(v) || !(sd > 0)) continue;
      const double w = std::exp(-0.5 * backcast[c] * backcast[c] / (sd * sd));
      weight_sum += w;
      weighted_log += w * std::log(v);
    }
    LastPoint soft = headline;
    if (weight_sum > 0) soft.predicted = std::exp(weighted_log / weight_sum);
    (*ways)[kWeighted].push_back(soft);
    // The choice per source, unless its forecast of the last training point falls outside its own
    // 90% interval for that step; then the configuration that forecast that point best.
    const double own_error = BackcastLogError(e, options);
    const bool failed_check = sd > 0 && std::isfinite(own_error) && own_error > 1.6448536 * sd;
    (*ways)[kChecked].push_back(failed_check ? configuration(own) : headline);
    (*ways)[kTool].push_back(tool);
    qnm::PredictionOptions rising = options;
    rising.hold_after_unevidenced_turn = false;
    (*ways)[kNoHold].push_back(LastPrediction(e, rising));
  }

  const std::vector<qnm::PriorSeries>& samples() const { return samples_; }
  PriorCache* cache() { return &cache_; }

 private:
  const std::vector<Entry>& corpus_;
  const ChoiceOptions& options_;
  std::vector<qnm::PriorSeries> samples_;
  PriorCache cache_;
};

}  // namespace

bool ChoiceOptions::IsValid(std::string* error) const {
  if (objective != "mean" && objective != "median" && objective != "wins" && objective != "balanced" &&
      objective != "regret") {
    *error = "--objective is mean, median, wins, balanced or regret";
    return false;
  }
  if (coverage_weight != "point" && coverage_weight != "source") {
    *error = "--coverage-weight is point or source";
    return false;
  }
  if (forced > std::size(kConfigs)) {
    *error = "no such configuration";
    return false;
  }
  return true;
}

LeaveOneSourceOutResult RunLeaveOneSourceOut(const std::vector<Entry>& corpus, const qnm::PredictionOptions& uniform,
                                             const ChoiceOptions& options) {
  Protocol protocol(corpus, options);
  std::set<std::string> sources;
  for (const Entry& e : corpus) sources.insert(e.source);

  std::printf("## Leave one source out: %zu runtime series of %zu sources\n\n", corpus.size(), sources.size());
  // For each source: every configuration is scored on the other sources (its prior learned
  // without the scored source and without the source of the series it predicts: nested), the
  // best (mean |log error| at the largest P) is chosen, and only then applied to the source.
  std::printf("Configuration and candidate weight temperature (`RuntimeModelOptions::weight_temperature`, "
              "0.5, 1 or 2) chosen for each source on the other sources (mean |log error| at the largest P "
              "of the other sources' series; per configuration at its best temperature):\n\n| left out |");
  for (const Config& c : kConfigs) std::printf(" %s |", c.name);
  std::printf(" chosen |\n|---|");
  for (std::size_t k = 0; k < std::size(kConfigs); ++k) std::printf("---:|");
  std::printf("---|\n");
  LeaveOneSourceOutResult result;
  std::string rate_table;  // printed after the configuration table
  std::vector<std::vector<double>> values(kPairs);  // every series' value per pair: the shipped choice
  std::vector<std::vector<LastPoint>> ways(kWays);
  std::string per_source_rates;  // the interval rate of the choice per source (rounds 4-14's headline)
  for (const std::string& source : sources) {
    const std::vector<double> objective = protocol.Objective(source);
    const std::size_t chosen = protocol.Choose(objective);
    Protocol::PrintRow(source, objective, chosen);
    const qnm::PredictionOptions chosen_options = protocol.WithRate(chosen, source, source, &per_source_rates);
    // The choice per series among the tool's configurations (`--configuration per-series`): a row
    // of the table "Choosing a configuration or not", the headline with --force per-series.
    std::string per_series_rates;
    const qnm::PredictionOptions per_series = protocol.ToolOptions(
        objective, source, source, options.forced == std::size(kConfigs) ? &rate_table : &per_series_rates);
    const qnm::PredictionOptions& headline = options.forced == std::size(kConfigs) ? per_series : chosen_options;
    for (const Entry& e : corpus)
      if (e.source == source) {
        result.by_source[source].push_back(Score(e, headline, uniform));
        const LastPoint per_series_point =
            options.forced == std::size(kConfigs) ? result.by_source[source].back().last : LastPrediction(e, per_series);
        protocol.ScoreWays(e, objective, chosen_options, LastPrediction(e, chosen_options), per_series_point, &ways,
                           &values);
      }
  }
  std::vector<double> all_objective(kPairs);
  for (std::size_t k = 0; k < kPairs; ++k) all_objective[k] = protocol.Summarise(values[k]);
  const std::size_t shipped = protocol.Choose(all_objective);
  const std::string none = "(none: what the tool ships)";
  Protocol::PrintRow(none, all_objective, shipped);
  result.shipped = options.forced == std::size(kConfigs) ? protocol.ToolOptions(all_objective, "", none, &rate_table)
                                                         : protocol.WithRate(shipped, "", none, &rate_table);
  if (options.forced == std::size(kConfigs))
    std::printf("\nThe headline is the tool of rounds 15-23 (`--configuration per-series`): for each series of the "
                "left-out source, the tool's 4 configurations (models/runtime_configuration.h), each at its "
                "temperature chosen above on the other sources, forecast the series' last training point from the "
                "points before it, and the series is predicted with the one that erred least. The configuration "
                "chosen per source, the headline of rounds 4-14, is a row of the table \"Choosing a configuration or "
                "not\" below.\n\nThen, on the same other sources, the headline's pooled per-octave interval rate");
  else if (options.forced == ShippedConfigIndex())
    std::printf("\nThe headline is what the tool does: every series predicted with %s "
                "(`kShippedRuntimeConfiguration`, models/runtime_configuration.h; chosen on held-out series, "
                "bench/README.md round 24) at its temperature chosen above on the other sources. The choice per "
                "series of rounds 15-23 is a row of the table \"Choosing a configuration or not\" below; the "
                "configuration chosen per source of rounds 4-14 is printed with `--force per-series`.\n\nThen, for it and on the same other sources, the "
                "interval's pooled per-octave rate", kConfigs[options.forced].name);
  else
    std::printf("\nThen, for the forced configuration at its temperature and on the same other sources, the "
                "interval's pooled per-octave rate");
  std::printf(" (the log sd the forward errors are shrunk towards, "
              "`ExtrapolationErrorOptions::prior_log_sd_per_octave`): share of the other sources' held-out "
              "points inside their 90%% interval, per rate; the one closest to 90%% is chosen (configurations "
              "with the corpus prior use the prior's own rate):\n\n| left out |");
  for (double rate : kPooledRates) std::printf(" %.2f |", rate);
  std::printf(" chosen |\n|---|");
  for (std::size_t k = 0; k <= std::size(kPooledRates); ++k) std::printf("---:|");
  std::printf("\n%s\n", rate_table.c_str());
  const qnm::ExtrapolationPrior full = LearnPrior(protocol.samples(), {}, protocol.PairOptions(shipped, {}).runtime);
  std::printf("Corpus prior learned on every source: %s; interval log sd %.3f per octave.\n\n", full.Summary().c_str(),
              full.per_octave_log_sd);
  if (!options.write_prior.empty()) qnm::WriteFileAtomically(options.write_prior, qnm::ExtrapolationPriorToJson(full));
  if (!options.dump.empty()) qnm::WriteFileAtomically(options.dump, DumpCsv(result.by_source));

  PrintTotalsHeader();
  Totals all;
  for (const auto& [source, results] : result.by_source) {
    Totals t;
    for (const SeriesResult& s : results) {
      t.Add(s);
      all.Add(s);
    }
    PrintTotals(source, t);
  }
  PrintTotals("**all (leave one source out)**", all);
  PrintWinCount(all);
  PrintIntervalQuality(result.by_source);

  std::printf("\nChoosing a configuration or not: each configuration fixed for every source (at its temperature "
              "chosen on the other sources), the average of all of them (geometric mean of their predictions: no "
              "choice at all), the choice per source above, and a choice per series: the configuration (at its "
              "temperature chosen on the other sources) whose forecast of the series' last training point from "
              "the points before it erred least; at the largest P:\n\n");
  PrintFixed(WayLabels(options.forced), ways, sources);
  return result;
}

}  // namespace accuracy
