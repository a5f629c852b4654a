#pragma once
// How accuracy_bench scores a series: validated on its training process counts
// (models/validation.h), every larger P predicted, and the errors of ours,
// the plain uniform average, Amdahl's law, the naive "last training point x
// P_last / P" and Extra-P kept per point and at the series' largest P.
#include <string>
#include <utility>
#include <vector>

#include "bench/accuracy/corpus.h"
#include "models/validation.h"

namespace accuracy {

struct PointResult {
  int procs = 0;
  double measured_s = 0;
  double ours = NAN, uniform = NAN, amdahl = NAN, naive = NAN, peer = NAN;  // |relative error|
  double ours_s = NAN, lower_s = NAN, upper_s = NAN, amdahl_s = NAN, naive_s = NAN, peer_s = NAN;  // predicted
  bool inside = false, uniform_inside = false, flagged = false;
};

/// A prediction at the series' largest predicted P, what was measured there and Extra-P's.
struct LastPoint {
  std::string source;
  bool validated = false;  // the validation ran (false: it refused the series)
  int procs = 0;           // the largest predicted P; 0 when nothing was predicted
  double predicted = NAN, measured = NAN, peer = NAN;
};

struct SeriesResult {
  std::string source, name, train;
  std::vector<PointResult> points;  // predicted points, ascending P
  std::string failure;              // why nothing was predicted
  std::string note;                 // e.g. the largest rise of the prediction
  std::vector<std::pair<int, double>> training;  // the training points' measured times
  LastPoint last;                                 // "ours" at the largest predicted P
};

/// |predicted / measured - 1|; NaN when the prediction is not a positive number.
double RelativeError(double predicted, double measured);
/// Amdahl's law fitted to the training totals: T = a + b/P, a, b >= 0, relative least squares.
double AmdahlPrediction(const std::vector<std::pair<int, double>>& train, int procs);

/// Scores a configuration ("ours") and, beside it, the plain uniform average.
SeriesResult Score(const Entry& e, const qnm::PredictionOptions& shipped, const qnm::PredictionOptions& uniform);
/// The configuration's LastPoint of the series (NaN values when nothing was predicted).
LastPoint LastPrediction(const Entry& e, const qnm::PredictionOptions& options);
/// |log(predicted / measured)| at the series' largest predicted P (kFailedLogError without a prediction).
double LastLogError(const LastPoint& last);
/// 1 when the configuration is not better than Extra-P at the series' largest predicted P, 0 when
/// it is; NaN without a peer prediction there.
double LossAgainstPeer(const Entry& e, const LastPoint& last);
/// |log(predicted / measured)| at the series' last training P, predicted from the training points
/// before it (NaN when that cannot be predicted): how well a configuration forecasts the series' own
/// last step, known without any held-out point.
double BackcastLogError(const Entry& e, const qnm::PredictionOptions& options);
/// Adds the series' held-out points inside their interval to `inside` and all of them to `points`.
void CountInside(const Entry& e, const qnm::PredictionOptions& options, int* inside, int* points);
/// The largest predicted time at P <= 1024 relative to the prediction at the last training P, and where.
std::string RiseNote(const Entry& e, const qnm::PredictionOptions& options);

}  // namespace accuracy
