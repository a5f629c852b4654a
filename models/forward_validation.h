#pragma once
// Forward validation (rolling origin): fit on the smallest process counts,
// predict the larger ones that were held back, and record how wrong the
// prediction was as a function of how far it extrapolated (Tashman 2000,
// "Out-of-sample tests of forecasting accuracy", §2: rolling-origin
// evaluation). Unlike leave-one-out, which mostly scores interpolation, every
// error here is an extrapolation, the use the models are chosen for.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace qnm {

/// One held-back prediction: log(predicted / measured) at `distance_log2`
/// octaves beyond the largest process count of the fit.
struct ForwardError {
  double distance_log2 = 0.0;
  double log_error = 0.0;
};

/// A prediction function fitted to a prefix of the points; empty when the fit failed.
using Predictor = std::function<double(double procs)>;

struct ForwardValidationOptions {
  // Origins (number of points in a fit) start here; below it a fit is not
  // determined. Raised by callers to the candidate's number of parameters.
  int first_origin = 2;
  // Origins lie in the upper half of the range in log2 P (a fit ending at or
  // beyond the geometric middle of the process counts: shorter fits say little
  // about the full one), at most this many of them, spread evenly and always
  // including the last, and at least two when the series has them, so the cost is linear in the number of points.
  int max_origins = 4;
  bool IsValid(std::string* error) const;
};

/// A prediction at the point of a given index (procs[k]) fitted to a prefix; empty when the fit failed.
using IndexPredictor = std::function<double(int index)>;

/// The origins (numbers of points in a fit) that forward validation fits, ascending.
std::vector<int> ForwardOrigins(const std::vector<double>& procs, const ForwardValidationOptions& options);

/// Fits `fit_prefix(count)` on the first `count` points (sorted by procs) for
/// every origin and predicts every later point. A predicted value <= 0 or not
/// finite counts as a log error of `kFailedLogError`.
std::vector<ForwardError> RollingOriginErrors(const std::vector<double>& procs,
                                              const std::vector<double>& values,
                                              const ForwardValidationOptions& options,
                                              const std::function<Predictor(int count)>& fit_prefix);
/// The same with predictions by point index (a caller holding per-point values, e.g. the
/// terms of a curve at every process count); `expected_errors` reserves the result.
std::vector<ForwardError> RollingOriginErrorsAt(const std::vector<double>& procs, const std::vector<double>& values,
                                                const ForwardValidationOptions& options,
                                                const std::function<IndexPredictor(int count)>& fit_prefix,
                                                std::size_t expected_errors = 0);

/// The log error charged for a prediction that is not a positive number (a factor e^3 = 20).
constexpr double kFailedLogError = 3.0;

/// Root mean square of the log errors (NaN when empty).
double RmsLogError(const std::vector<ForwardError>& errors);

struct ExtrapolationErrorOptions {
  // Log-space standard deviation per octave of extrapolation assumed before
  // any forward-validation error is seen, and how many errors it is worth.
  // 0.25 per octave: of 0.15..0.5, the rate whose 90% intervals hold closest
  // to 90% of the held-out points of the 164 runtime series with the shipped
  // configuration, chosen like it leaving each source out (0.20-0.30) and on
  // all of them (bench/accuracy, bench/README.md "Prediction accuracy, round
  // 4"; round 3 had chosen 0.3 on its development set); the forward errors of
  // the training ranges alone run at ~0.11-0.19 per octave and underestimate
  // what happens further out.
  double prior_log_sd_per_octave = 0.25;
  double prior_weight = 2.0;
  // How the per-octave rate is read from the forward errors. The interval's own model is
  // sd(d)^2 = noise^2 + (rate d)^2; kNone takes every error as growth (rate^2 = the mean of
  // (error / d)^2, so an error of 0.2 at a tenth of an octave reads as 2 per octave), the others
  // fit the rate by maximum likelihood under that model, the noise either the in-sample log RMS
  // (kInSample) or fitted too, at least that (kFitted). With no noise the likelihood's maximum is
  // kNone's estimate. kFitted: registered before held-out set M (125 series of 31 sources) against
  // kNone (rounds 1-38) and kInSample, and shipped by its rule there (interval score 2.027 -> 1.969,
  // coverage 95.8% -> 95.5%; on set L 9.069 -> 2.462; bench/README.md, round 39).
  enum class Noise { kNone, kInSample, kFitted };
  Noise noise = Noise::kFitted;
  bool IsValid(std::string* error) const;
};

/// "none", "in-sample" or "fitted" (the command line's names of the noise modes), and back.
const char* IntervalNoiseName(ExtrapolationErrorOptions::Noise noise);
bool ParseIntervalNoise(const std::string& text, ExtrapolationErrorOptions::Noise* noise);

/// How uncertain a prediction is as a function of its extrapolation distance d:
/// log-space sd = sqrt(base^2 + (per_octave * d)^2).
struct ExtrapolationError {
  double base_log_sd = 0.02;        // inside the training range (in-sample fit error)
  double per_octave_log_sd = 0.3;   // growth per octave beyond it
  int forward_errors = 0;           // forward-validation errors behind per_octave_log_sd
  double LogSd(double distance_log2) const;
};

/// The two sums CalibrateExtrapolationError takes from the weighted errors,
/// added error by error in the caller's order (the same additions as the
/// vector form, so the same result to the last bit). A runtime model of a
/// million process counts scores 15 candidates on ~2 million forward errors
/// each: it adds them here one candidate at a time instead of concatenating
/// them all (issue 19, one long series).
struct ForwardErrorSums {
  double weighted_rate_squares = 0;  // sum of w * (log_error / distance_log2)^2
  double weights = 0;                // sum of w
  /// The sums of one bin of distances (1/kBinsPerOctave octave wide), what the likelihood of a
  /// noise term needs: it is not a function of the two sums above.
  struct DistanceBin {
    double weights = 0;                   // sum of w
    double weighted_squares = 0;          // sum of w * log_error^2
    double weighted_distance_squares = 0;  // sum of w * distance_log2^2
  };
  static constexpr int kBinsPerOctave = 16;
  static constexpr int kMaxBins = 64 * kBinsPerOctave;  // distances beyond 64 octaves share the last
  std::vector<DistanceBin> bins;
  void Add(const ForwardError& e, double w) {
    if (!(e.distance_log2 > 0)) return;
    double rate = e.log_error / e.distance_log2;
    weighted_rate_squares += w * rate * rate;
    weights += w;
    std::size_t k = static_cast<std::size_t>(
        std::min<double>(kMaxBins - 1, std::floor(e.distance_log2 * kBinsPerOctave)));
    if (bins.size() <= k) bins.resize(k + 1);
    bins[k].weights += w;
    bins[k].weighted_squares += w * e.log_error * e.log_error;
    bins[k].weighted_distance_squares += w * e.distance_log2 * e.distance_log2;
  }
};

/// CalibrateExtrapolationError from the sums of the errors.
ExtrapolationError CalibrateExtrapolationError(const ForwardErrorSums& sums, int independent_errors,
                                               double in_sample_log_rms, const ExtrapolationErrorOptions& options);

/// The noise (`out->base_log_sd`, at least its value on entry) and the per-octave rate of
/// sd(d)^2 = noise^2 + (rate d)^2 of largest likelihood given the forward errors (counting
/// `count` errors) and the prior of `options`; what `options.noise` asks (not kNone).
void FitNoiseAndRate(const ForwardErrorSums& sums, double count, const ExtrapolationErrorOptions& options,
                     ExtrapolationError* out);

/// Shrinks the observed per-octave error rate of `errors` (weighted, e.g. the
/// errors of several averaged candidates) towards the prior: a mean of squares
/// where the observations count `independent_errors` times and the prior
/// `prior_weight` times.
ExtrapolationError CalibrateExtrapolationError(const std::vector<ForwardError>& errors,
                                               const std::vector<double>& weights,
                                               int independent_errors, double in_sample_log_rms,
                                               const ExtrapolationErrorOptions& options);

}  // namespace qnm
