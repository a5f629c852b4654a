// Times `predict --procs 1..1024` on the bundled default series: ingest, fit
// (with the leave-one-out refits behind the intervals) and one contention
// network solve per process count. Usage: predict_bench [RUNS...] [--repeat N]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "models/prediction.h"
#include "models/procs_spec.h"
#include "pipeline/series_loading.h"

int main(int argc, char** argv) {
  using Clock = std::chrono::steady_clock;
  std::vector<std::string> paths;
  int repeat = 5;
  for (int k = 1; k < argc; ++k) {
    std::string arg = argv[k];
    if (arg == "--repeat" && k + 1 < argc) repeat = std::max(1, std::atoi(argv[++k]));
    else paths.push_back(arg);
  }
  std::vector<int> procs = qnm::ParseProcsSpec("1..1024");
  double best_ingest = 1e30, best_fit = 1e30, best_predict = 1e30;
  double checksum = 0;
  for (int r = 0; r < repeat; ++r) {
    auto t0 = Clock::now();
    std::vector<qnm::Series> series;
    try {
      series = qnm::LoadSeries(paths, "", nullptr);  // empty paths: the bundled default series
    } catch (const std::exception& error) {
      std::fprintf(stderr, "predict_bench: %s\n", error.what());
      return 1;
    }
    auto t1 = Clock::now();
    if (series.empty()) {
      std::fprintf(stderr, "predict_bench: no series in the input\n");
      return 1;
    }
    qnm::SeriesModel model;
    std::string error;
    if (!qnm::FitSeriesModel(series.front(), {}, qnm::PredictionOptions(), &model, &error)) {
      std::fprintf(stderr, "predict_bench: %s\n", error.c_str());
      return 1;
    }
    auto t2 = Clock::now();
    for (int p : procs) checksum += model.Predict(p).total.value_s;
    auto t3 = Clock::now();
    best_ingest = std::min(best_ingest, std::chrono::duration<double>(t1 - t0).count());
    best_fit = std::min(best_fit, std::chrono::duration<double>(t2 - t1).count());
    best_predict = std::min(best_predict, std::chrono::duration<double>(t3 - t2).count());
    if (r == 0)
      std::printf("series %s (%s model, %zu process counts)\n", series.front().name.c_str(),
                  qnm::ToString(model.kind), model.training.size());
  }
  std::printf("best of %d: ingest %.4f s, fit %.4f s, predict P=1..1024 (%zu MVA solves) %.4f s, "
              "total %.4f s (checksum %.6g)\n",
              repeat, best_ingest, best_fit, procs.size(), best_predict,
              best_ingest + best_fit + best_predict, checksum);
  return 0;
}
