#include "bench/accuracy/configurations.h"

#include <algorithm>
#include <cmath>

#include "bench/accuracy/scoring.h"

namespace accuracy {

std::size_t ArgMin(const std::vector<double>& v, std::size_t from, std::size_t to) {
  to = std::min(to, v.size());
  std::size_t best = to;
  for (std::size_t k = from; k < to; ++k)
    if (!std::isnan(v[k]) && (best == to || v[k] < v[best] - 1e-12)) best = k;
  return best;
}

qnm::PriorSeries AsPriorSeries(const Entry& e) {
  qnm::PriorSeries s;
  s.source = e.source;
  s.name = e.series->name;
  for (const auto& [p, t] : Times(*e.series)) {
    if (std::find(e.train.begin(), e.train.end(), p) != e.train.end()) s.training.emplace_back(p, t);
    else if (!e.train.empty() && p > e.train.back()) s.held_out.emplace_back(p, t);
  }
  return s;
}

std::size_t ShippedConfigIndex() {
  for (std::size_t k = 0; k < std::size(kConfigs); ++k)
    if (std::string(kConfigs[k].name) == qnm::kShippedRuntimeConfiguration) return k;
  return std::size(kConfigs);
}

qnm::ExtrapolationPrior LearnPrior(const std::vector<qnm::PriorSeries>& corpus, const std::set<std::string>& leave_out,
                                   const qnm::RuntimeModelOptions& runtime) {
  std::vector<qnm::PriorSeries> kept;
  for (const qnm::PriorSeries& s : corpus)
    if (!leave_out.count(s.source)) kept.push_back(s);
  qnm::ExtrapolationPrior prior;
  qnm::ExtrapolationPriorSummary summary;
  qnm::FitExtrapolationPrior(kept, runtime, qnm::ExtrapolationPriorOptions(), &prior, &summary);
  return prior;
}

qnm::PredictionOptions ConfigOptions(const Config& c, double temperature, const std::set<std::string>& leave_out,
                                     const std::vector<qnm::PriorSeries>& corpus,
                                     PriorCache* cache) {
  qnm::PredictionOptions options;
  options.choose_configuration = false;  // this configuration alone
  options.runtime.weight_temperature = temperature;
  options.runtime.more_terms_gain = c.occam ? 0.8 : 1.0;
  options.runtime.node_terms = c.nodes;
  options.split_at_node_boundary = c.split;
  options.runtime.cost_law_share = c.cost;
  options.runtime.cost_law_adaptive = c.adaptive;
  options.runtime.saturating_cost = c.saturating;
  if (c.saturating_at_edge_only) options.runtime.saturating_cost_max_edge_slope = qnm::kScalingEdgeSlope;
  if (c.amdahl_only) options.runtime.candidates = {{qnm::ScalingTerm{0, 0}, qnm::ScalingTerm{-1, 0}}};
  if (c.prior) {
    std::string key = std::string(c.name) + "|" + std::to_string(temperature);
    for (const std::string& s : leave_out) key += "|" + s;
    auto it = cache->find(key);
    if (it == cache->end()) it = cache->emplace(key, LearnPrior(corpus, leave_out, options.runtime)).first;
    options.runtime.prior = it->second;
  }
  return options;
}

double ChooseRate(const std::vector<Entry>& corpus, const std::string& left_out, const Config& config,
                  double temperature, const std::vector<qnm::PriorSeries>& samples,
                  PriorCache* cache, std::vector<double>* coverage, bool per_source) {
  return ChooseRateFor(
      corpus, left_out,
      [&](const Entry& e, double rate) {
        qnm::PredictionOptions options = ConfigOptions(config, temperature, {left_out, e.source}, samples, cache);
        options.runtime.error.prior_log_sd_per_octave = rate;
        return options;
      },
      coverage, per_source);
}

double ChooseRateFor(const std::vector<Entry>& corpus, const std::string& left_out,
                     const std::function<qnm::PredictionOptions(const Entry&, double rate)>& options_at,
                     std::vector<double>* coverage, bool per_source) {
  coverage->clear();
  std::vector<double> gaps;
  for (double rate : kPooledRates) {
    std::map<std::string, std::pair<int, int>> by_source;  // inside, points
    for (const Entry& e : corpus)
      if (e.source != left_out) CountInside(e, options_at(e, rate), &by_source[e.source].first,
                                            &by_source[e.source].second);
    int inside = 0, points = 0, sources = 0;
    double shares = 0;
    for (const auto& [source, counts] : by_source) {
      inside += counts.first;
      points += counts.second;
      if (counts.second > 0) {
        shares += double(counts.first) / counts.second;
        ++sources;
      }
    }
    const double share = per_source ? (sources ? shares / sources : NAN) : (points ? double(inside) / points : NAN);
    coverage->push_back(share);
    gaps.push_back(std::fabs(share - qnm::PredictionOptions().interval_level));
  }
  const std::size_t best = ArgMin(gaps);
  return best < gaps.size() ? kPooledRates[best] : 0.3;
}

}  // namespace accuracy
