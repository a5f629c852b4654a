// Speed of the Calzarossa et al. 2004 indices: ComputeDissimilarity on a trace-sized t_ijp
// (activities x regions x ranks) and the mpiP front end on real reports.
// Usage: dissimilarity_bench [regions] [ranks] [mpiP report...]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "imbalance/dissimilarity.h"
#include "imbalance/dissimilarity_mpip.h"
#include "ingest/ingest.h"

namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int regions = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int ranks = argc > 2 ? std::atoi(argv[2]) : 1024;
  if (regions < 1 || ranks < 1) {
    std::fprintf(stderr, "usage: dissimilarity_bench [regions >= 1] [ranks >= 1] [mpiP report...]\n");
    return 1;
  }
  qnm::ActivityRegionTimes times;
  times.activities = {"computation", "p2p", "collective", "synchronization", "rma", "other"};
  for (int r = 0; r < regions; ++r) times.regions.push_back("region " + std::to_string(r));
  times.Resize(times.activities.size(), times.regions.size(), ranks);
  unsigned state = 1;
  for (double& t : times.time_s) {  // ~1/3 of the cells empty, the rest noisy
    state = state * 1103515245u + 12345u;
    unsigned draw = (state >> 8) % 3000;
    t = draw < 1000 ? 0.0 : 1e-3 * draw;
  }
  const double values = static_cast<double>(times.time_s.size());
  double best_s = 1e300;
  qnm::DissimilarityResult result;
  for (int repeat = 0; repeat < 3; ++repeat) {
    auto start = std::chrono::steady_clock::now();
    result = qnm::ComputeDissimilarity(times, {});
    best_s = std::min(best_s, SecondsSince(start));
  }
  std::printf("ComputeDissimilarity: %zu activities x %d regions x %d ranks = %.3g values (%.0f MB): "
              "best of 3 %.3f s, %.3g values/s; %zu cells, most imbalanced %s\n",
              times.activities.size(), regions, ranks, values, values * 8 / 1e6, best_s, values / best_s,
              result.cells.size(), result.summary.most_imbalanced_region.c_str());

  for (int k = 3; k < argc; ++k) {
    auto start = std::chrono::steady_clock::now();
    qnm::IngestSummary summary;
    std::vector<qnm::RunStats> runs = qnm::IngestPaths({argv[k]}, {}, &summary);
    const double ingest_s = SecondsSince(start);
    for (const qnm::RunStats& run : runs) {
      start = std::chrono::steady_clock::now();
      qnm::MpipActivityRegionTimes built = qnm::ActivityRegionTimesFromMpip(run, {});
      qnm::DissimilarityResult mpip = qnm::ComputeDissimilarity(built.times, {});
      std::printf("%s: %zu call sites, %d ranks -> %zu regions: ingest %.3f s, t_ijp + indices %.4f s\n",
                  argv[k], run.call_sites.size(), built.times.ranks, built.times.regions.size(), ingest_s,
                  SecondsSince(start));
      (void)mpip;
    }
  }
  return 0;
}
