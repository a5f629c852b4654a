#include "models/extrapolation_prior.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <set>

#include "models/runtime_model.h"
#include <nlohmann/json.hpp>
#include "util/text_format.h"

namespace qnm {
double ExtrapolationPrior::WeightOf(const std::string& candidate) const {
  auto it = candidate_weights.find(candidate);
  return it == candidate_weights.end() ? unlisted_weight : it->second;
}

std::string ExtrapolationPrior::Summary() const {
  std::vector<std::pair<double, std::string>> sorted;
  for (const auto& [name, weight] : candidate_weights) sorted.emplace_back(weight, name);
  std::sort(sorted.rbegin(), sorted.rend());
  std::string out;
  for (std::size_t k = 0; k < sorted.size() && k < 3; ++k)
    out += (out.empty() ? "" : ", ") + sorted[k].second + " " + FormatDouble("%.2f", sorted[k].first);
  return out;
}

bool ExtrapolationPriorOptions::IsValid(std::string* error) const {
  if (!(pseudo_count > 0)) {
    *error = "extrapolation prior pseudo_count must be > 0";
    return false;
  }
  if (!(interval_level > 0 && interval_level < 1)) {
    *error = "extrapolation prior interval_level must be in (0, 1)";
    return false;
  }
  return true;
}

std::string ExtrapolationPriorSummary::BriefReport() const {
  return std::string("extrapolation prior: ") + (termination == Termination::kLearned ? "learned" : "no series") +
         " from " + std::to_string(series) + " series, " + std::to_string(held_out_points) +
         " held-out points, in-sample interval coverage " + FormatDouble("%.3f", coverage);
}

bool FitExtrapolationPrior(const std::vector<PriorSeries>& series, const RuntimeModelOptions& runtime,
                           const ExtrapolationPriorOptions& options, ExtrapolationPrior* prior,
                           ExtrapolationPriorSummary* summary) {
  *prior = ExtrapolationPrior();
  *summary = ExtrapolationPriorSummary();
  std::string error;
  if (!options.IsValid(&error)) return false;
  std::vector<std::vector<ScalingTerm>> candidates =
      runtime.candidates.empty() ? DefaultRuntimeCandidates() : runtime.candidates;

  // 1. How often each candidate, fitted to a series' training points, comes closest at its
  //    largest held-out P.
  std::vector<double> counts(candidates.size(), options.pseudo_count);
  std::set<std::string> sources;
  int used = 0;
  for (const PriorSeries& s : series) {
    if (s.training.size() < 2 || s.held_out.empty()) continue;
    std::vector<double> procs, values;
    for (const auto& [p, t] : s.training) {
      procs.push_back(p);
      values.push_back(t);
    }
    const auto [p_far, t_far] = s.held_out.back();
    int best = -1;
    double best_error = 0;
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      if (candidates[c].size() > procs.size()) continue;
      ScalingModel model;
      if (!FitTermsRelative(candidates[c], procs, values, static_cast<int>(procs.size()), &model)) continue;
      double v = model.Evaluate(p_far);
      double e = v > 0 && std::isfinite(v) ? std::fabs(std::log(v / t_far)) : kFailedLogError;
      if (best < 0 || e < best_error) {
        best = static_cast<int>(c);
        best_error = e;
      }
    }
    if (best < 0) continue;
    counts[best] += 1;
    ++used;
    sources.insert(s.source);
  }
  if (used == 0) return false;
  double total = 0;
  for (double c : counts) total += c;
  for (std::size_t c = 0; c < candidates.size(); ++c)
    prior->candidate_weights[CandidateName(candidates[c])] = counts[c] / total;
  prior->unlisted_weight = options.pseudo_count / total;
  prior->known = true;
  prior->series = used;
  for (const std::string& s : sources) prior->learned_from += (prior->learned_from.empty() ? "" : ", ") + s;

  // 2. Interval rate: the smallest per-octave sd whose z-interval covers the prior-weighted
  //    model's errors at the level, every series weighing one in all.
  RuntimeModelOptions with_prior = runtime;
  with_prior.prior = *prior;
  struct Rate {
    double rate, weight;
  };
  std::vector<Rate> rates;
  for (const PriorSeries& s : series) {
    if (s.training.size() < 2 || s.held_out.empty()) continue;
    RuntimeModel model;
    if (!FitRuntimeModel(s.training, with_prior, &model, &error)) continue;
    const double p_last = s.training.back().first;
    for (const auto& [p, t] : s.held_out) {
      double v = model.Evaluate(p);
      double e = v > 0 && std::isfinite(v) ? std::fabs(std::log(v / t)) : kFailedLogError;
      rates.push_back({e / std::log2(p / p_last), 1.0 / s.held_out.size()});
    }
  }
  std::sort(rates.begin(), rates.end(), [](const Rate& a, const Rate& b) { return a.rate < b.rate; });
  double weight_total = 0;
  for (const Rate& r : rates) weight_total += r.weight;
  double covered = 0, quantile_rate = rates.empty() ? 0 : rates.back().rate;
  for (const Rate& r : rates) {
    covered += r.weight;
    if (covered >= options.interval_level * weight_total) {
      quantile_rate = r.rate;
      break;
    }
  }
  const double z = boost::math::quantile(boost::math::normal(), 0.5 + 0.5 * options.interval_level);
  // |e| <= z * sd_per_octave * d at the level; never below 0.05 per octave (a handful of
  // well-behaved series must not promise more than the corpus can show).
  prior->per_octave_log_sd = std::max(0.05, quantile_rate / z);
  summary->termination = ExtrapolationPriorSummary::Termination::kLearned;
  summary->series = used;
  summary->held_out_points = static_cast<int>(rates.size());
  // Measured, not assumed: the floor can make the interval hold more than the level.
  double inside = 0;
  for (const Rate& r : rates)
    if (r.rate <= z * prior->per_octave_log_sd) inside += r.weight;
  summary->coverage = weight_total > 0 ? inside / weight_total : 0.0;
  return true;
}

std::string ExtrapolationPriorToJson(const ExtrapolationPrior& prior) {
  nlohmann::json json;
  json["format"] = "qnm-predict extrapolation prior 1";
  json["candidate_weights"] = prior.candidate_weights;
  json["unlisted_weight"] = prior.unlisted_weight;
  json["per_octave_log_sd"] = prior.per_octave_log_sd;
  json["series"] = prior.series;
  json["learned_from"] = prior.learned_from;
  return json.dump(2) + "\n";
}

}  // namespace qnm
