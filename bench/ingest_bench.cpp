// Ingest throughput on the real files: IngestPaths over tests/data/mpip and
// tests/data/npb (read + parse + pair), and the parsers alone on in-memory
// text. Prints MB/s and files/s (best of N rounds). Compare with `cat` of the
// same files: bench/ingest_bench.sh runs both.
// Usage: ingest_bench [rounds] [paths...]
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "app_outputs/npb_output.h"
#include "ingest/ingest.h"
#include "profiles/mpip_report.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Process CPU time: the fair measure on a shared, loaded machine.
double CpuSeconds(std::clock_t start) { return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC; }

}  // namespace

int main(int argc, char** argv) {
  int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  std::vector<std::string> paths;
  for (int a = 2; a < argc; ++a) paths.push_back(argv[a]);
  if (paths.empty()) {
    paths = {std::string(QNM_SOURCE_DIR) + "/tests/data/mpip", std::string(QNM_SOURCE_DIR) + "/tests/data/npb"};
  }
  double best = 1e30, best_cpu = 1e30;
  qnm::IngestSummary summary;
  std::size_t runs = 0;
  for (int r = 0; r < rounds; ++r) {
    auto start = std::chrono::steady_clock::now();
    std::clock_t cpu_start = std::clock();
    runs = qnm::IngestPaths(paths, qnm::IngestOptions{}, &summary).size();
    best = std::min(best, Seconds(start));
    best_cpu = std::min(best_cpu, CpuSeconds(cpu_start));
  }
  std::printf("IngestPaths: %d files, %.2f MB, %zu runs, best of %d: wall %.3f s = %.1f MB/s, %.0f files/s; "
              "cpu %.3f s = %.1f MB/s, %.0f files/s\n",
              summary.files_seen, summary.bytes_read / 1e6, runs, rounds, best, summary.bytes_read / 1e6 / best,
              summary.files_seen / best, best_cpu, summary.bytes_read / 1e6 / best_cpu, summary.files_seen / best_cpu);

  // Parsers alone (no disk, no pairing): the same files held in memory.
  std::vector<std::pair<std::string, std::string>> texts;
  for (const std::string& root : paths)
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root))
      if (entry.is_regular_file()) texts.emplace_back(entry.path().string(), qnm::ReadFile(entry.path().string()));
  double parse_best = 1e30, parse_cpu = 1e30, bytes = 0;
  for (int r = 0; r < rounds; ++r) {
    bytes = 0;
    auto start = std::chrono::steady_clock::now();
    std::clock_t cpu_start = std::clock();
    for (const auto& [path, text] : texts) {
      bytes += static_cast<double>(text.size());
      try {
        if (qnm::LooksLikeMpipReport(text)) qnm::MpipToRunStats(qnm::ParseMpipReport(text, path));
        else if (qnm::LooksLikeNpbOutput(text)) qnm::NpbToRunStats(qnm::ParseNpbOutput(text, path));
      } catch (const qnm::InputError&) {
      }
    }
    parse_best = std::min(parse_best, Seconds(start));
    parse_cpu = std::min(parse_cpu, CpuSeconds(cpu_start));
  }
  std::printf("parse only (in memory): %zu files, %.2f MB, best of %d: wall %.3f s = %.1f MB/s, %.0f files/s; "
              "cpu %.3f s = %.1f MB/s\n",
              texts.size(), bytes / 1e6, rounds, parse_best, bytes / 1e6 / parse_best, texts.size() / parse_best,
              parse_cpu, bytes / 1e6 / parse_cpu);
  return 0;
}
