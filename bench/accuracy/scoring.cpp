#include "bench/accuracy/scoring.h"

#include <cmath>
#include <cstdio>
#include <map>

#include "models/scaling_fit.h"

namespace accuracy {
namespace {

bool Validate(const Entry& e, const qnm::PredictionOptions& prediction, qnm::ValidationResult* result,
              std::string* error) {
  qnm::ValidationOptions options;
  options.train_procs = e.train;
  options.prediction = prediction;
  return qnm::ValidateSeries(*e.series, options, result, error);
}

/// The row of the series' largest predicted (not training) P; null when there is none.
const qnm::ValidationRow* LastPredictedRow(const qnm::ValidationResult& result) {
  for (auto row = result.rows.rbegin(); row != result.rows.rend(); ++row)
    if (!row->training) return &*row;
  return nullptr;
}

/// The LastPoint of a validation of the series (`result` null: the validation refused it).
LastPoint LastPointOf(const Entry& e, const qnm::ValidationResult* result) {
  LastPoint out{e.source};
  if (!result) return out;
  out.validated = true;
  const qnm::ValidationRow* row = LastPredictedRow(*result);
  if (!row) return out;
  out.procs = row->procs;
  out.predicted = row->predicted.total.value_s;
  out.measured = row->measured_s;
  if (e.peer) {
    auto it = e.peer->find(row->procs);
    if (it != e.peer->end()) out.peer = it->second;
  }
  return out;
}

}  // namespace

double AmdahlPrediction(const std::vector<std::pair<int, double>>& train, int procs) {
  std::vector<std::vector<double>> columns(2);
  std::vector<double> rhs;
  for (const auto& [p, t] : train) {
    columns[0].push_back(1.0 / t);
    columns[1].push_back(1.0 / (p * t));
    rhs.push_back(1.0);
  }
  std::vector<double> c;
  double residual = qnm::SmallNonnegativeLeastSquares(columns, rhs, true, &c);
  if (!std::isfinite(residual)) return NAN;
  return c[0] + c[1] / procs;
}

double RelativeError(double predicted, double measured) {
  return predicted > 0 && std::isfinite(predicted) ? std::fabs(predicted / measured - 1) : NAN;
}

SeriesResult Score(const Entry& e, const qnm::PredictionOptions& shipped,
                   const qnm::PredictionOptions& uniform) {
  SeriesResult out;
  out.source = e.source;
  out.name = e.series->name;
  for (int p : e.train) out.train += (out.train.empty() ? "" : ",") + std::to_string(p);
  qnm::ValidationResult ours, plain;
  std::string error;
  const bool validated = Validate(e, shipped, &ours, &error);
  out.last = LastPointOf(e, validated ? &ours : nullptr);
  if (!validated || !Validate(e, uniform, &plain, &error)) {
    out.failure = error;
    return out;
  }
  std::map<int, double> truth;
  for (const qnm::RunGroup& g : e.series->groups) truth[g.procs] = e.truth ? e.truth(g) : g.median_time_s;
  std::vector<std::pair<int, double>> train_times;
  for (int p : e.train) train_times.emplace_back(p, truth[p]);
  const auto [p_last, t_last] = train_times.back();
  out.training = train_times;
  for (std::size_t k = 0; k < ours.rows.size(); ++k) {
    const qnm::ValidationRow& row = ours.rows[k];
    if (row.training) continue;
    PointResult point;
    point.procs = row.procs;
    point.measured_s = truth[row.procs];
    point.ours = RelativeError(row.predicted.total.value_s, point.measured_s);
    point.ours_s = row.predicted.total.value_s;
    point.lower_s = row.predicted.total.lower_s;
    point.upper_s = row.predicted.total.upper_s;
    point.amdahl_s = AmdahlPrediction(train_times, row.procs);
    point.naive_s = t_last * p_last / row.procs;
    point.inside = row.predicted.total.lower_s <= point.measured_s && point.measured_s <= row.predicted.total.upper_s;
    point.flagged = !row.predicted.flags.empty();
    const qnm::ValidationRow& a = plain.rows[k];
    point.uniform = RelativeError(a.predicted.total.value_s, point.measured_s);
    point.uniform_inside = a.predicted.total.lower_s <= point.measured_s && point.measured_s <= a.predicted.total.upper_s;
    point.amdahl = RelativeError(AmdahlPrediction(train_times, row.procs), point.measured_s);
    point.naive = RelativeError(t_last * p_last / row.procs, point.measured_s);
    if (e.peer) {
      auto it = e.peer->find(row.procs);
      if (it != e.peer->end()) {
        point.peer = RelativeError(it->second, point.measured_s);
        point.peer_s = it->second;
      }
    }
    out.points.push_back(point);
  }
  if (out.points.empty()) out.failure = "no process count beyond the training set";
  return out;
}

LastPoint LastPrediction(const Entry& e, const qnm::PredictionOptions& options) {
  qnm::ValidationResult result;
  std::string error;
  return LastPointOf(e, Validate(e, options, &result, &error) ? &result : nullptr);
}

double LastLogError(const LastPoint& last) {
  const double v = last.predicted;
  return last.procs > 0 && v > 0 && std::isfinite(v) ? std::fabs(std::log(v / last.measured))
                                                     : qnm::kFailedLogError;
}

double LossAgainstPeer(const Entry& e, const LastPoint& last) {
  if (!e.peer) return NAN;
  if (!last.validated) return 1;
  if (last.procs == 0 || std::isnan(last.peer)) return NAN;
  double ours = RelativeError(last.predicted, last.measured);
  double peer = RelativeError(last.peer, last.measured);
  return std::isfinite(ours) && !(ours >= peer) ? 0 : 1;
}

double BackcastLogError(const Entry& e, const qnm::PredictionOptions& options) {
  if (e.train.size() < 3) return NAN;
  Entry shorter = e;
  shorter.train.pop_back();
  const int target = e.train.back();
  qnm::ValidationResult result;
  std::string error;
  if (!Validate(shorter, options, &result, &error)) return NAN;
  for (const qnm::ValidationRow& row : result.rows) {
    if (row.training || row.procs != target) continue;
    const double v = row.predicted.total.value_s;
    return v > 0 && std::isfinite(v) && row.measured_s > 0 ? std::fabs(std::log(v / row.measured_s)) : NAN;
  }
  return NAN;
}

void CountInside(const Entry& e, const qnm::PredictionOptions& options, int* inside, int* points) {
  qnm::ValidationResult result;
  std::string error;
  if (!Validate(e, options, &result, &error)) return;
  for (const qnm::ValidationRow& row : result.rows) {
    if (row.training) continue;
    ++*points;
    *inside += row.predicted.total.lower_s <= row.measured_s && row.measured_s <= row.predicted.total.upper_s;
  }
}

std::string RiseNote(const Entry& e, const qnm::PredictionOptions& options) {
  qnm::SeriesModel model;
  std::string error;
  if (!qnm::FitSeriesModel(*e.series, e.train, options, &model, &error)) return "";
  double base = model.Predict(model.max_train_procs).total.value_s;
  double worst = 0;
  int at = 0;
  std::string flags;
  for (int p = model.max_train_procs; p <= 1024; ++p) {
    qnm::ProcsPrediction q = model.Predict(p);
    if (!q.Ok()) {
      if (flags.empty()) flags = "P=" + std::to_string(p) + ": " + q.message;
      continue;
    }
    if (q.total.value_s / base > worst) {
      worst = q.total.value_s / base;
      at = p;
    }
  }
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, "largest predicted T(P<=1024) / T(P=%d): %.2f at P=%d",
                model.max_train_procs, worst, at);
  return buffer + (flags.empty() ? "" : "; first refused " + flags);
}

}  // namespace accuracy
