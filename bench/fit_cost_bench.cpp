// Cost of fitting and validating one series as the number of measured process
// counts grows (issue 13, "Cost that grows too fast"): a runtime-only series
// and a queueing (mpiP-like) series with N measured counts P = 1..N, times
// from a smooth law with a deterministic wobble. Prints the wall time of
// FitSeriesModel (forward validation and intervals included) per N.
// Usage: fit_cost_bench [N...]   (default 10 100 1000 for runtime-only, 10 100 for queueing)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "models/prediction.h"

namespace {

double Wobble(int p) { return 1.0 + 0.03 * std::sin(1.7 * p); }

qnm::Series RuntimeSeries(int n) {
  std::vector<qnm::RunStats> runs;
  for (int p = 1; p <= n; ++p) {
    qnm::RunStats run;
    run.series = "runtime-only";
    run.procs = p;
    run.wall_time_s = (2.0 + 400.0 / p + 0.05 * std::log2(p)) * Wobble(p);
    runs.push_back(run);
  }
  return qnm::GroupIntoSeries(runs).front();
}

qnm::Series QueueingSeries(int n) {
  std::vector<qnm::RunStats> runs;
  for (int p = 1; p <= n; ++p) {
    qnm::RunStats run;
    run.series = "queueing";
    run.procs = p;
    double compute = (1.0 + 300.0 / p) * Wobble(p);
    double messages = 100 + 50 * std::log2(p);
    double bytes = 1e6 / p + 1000;
    double mpi = messages * (2e-5 + bytes * 1e-9);
    run.app_time_mean_s = compute + mpi;
    run.mpi_time_mean_s = mpi;
    run.messages_per_rank = messages;
    run.bytes_per_message = bytes;
    run.wall_time_s = run.app_time_mean_s;
    runs.push_back(run);
  }
  return qnm::GroupIntoSeries(runs).front();
}

double TimeFit(const qnm::Series& series, std::string* kind) {
  auto t0 = std::chrono::steady_clock::now();
  qnm::SeriesModel model;
  std::string error;
  if (!qnm::FitSeriesModel(series, {}, qnm::PredictionOptions(), &model, &error)) {
    std::fprintf(stderr, "fit_cost_bench: %s\n", error.c_str());
    std::exit(1);
  }
  double checksum = model.Predict(2 * static_cast<int>(series.groups.size())).total.value_s;
  auto t1 = std::chrono::steady_clock::now();
  *kind = std::string(qnm::ToString(model.kind)) + " (prediction at 2N " + std::to_string(checksum) + " s)";
  return std::chrono::duration<double>(t1 - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> runtime_sizes = {10, 100, 1000}, queueing_sizes = {10, 100};
  if (argc > 1) {
    runtime_sizes.clear();
    for (int k = 1; k < argc; ++k) runtime_sizes.push_back(std::atoi(argv[k]));
    queueing_sizes = runtime_sizes;
  }
  std::string kind;
  for (int n : runtime_sizes) {
    double s = TimeFit(RuntimeSeries(n), &kind);
    std::printf("runtime-only, %5d measured process counts: fit %.3f s  %s\n", n, s, kind.c_str());
  }
  for (int n : queueing_sizes) {
    double s = TimeFit(QueueingSeries(n), &kind);
    std::printf("queueing,     %5d measured process counts: fit %.3f s  %s\n", n, s, kind.c_str());
  }
  return 0;
}
