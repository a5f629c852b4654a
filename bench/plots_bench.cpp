// Time to draw the five charts of one series (LU-MZ class C test data) with
// gnuplot, per output-format combination. Usage: plots_bench [repetitions]
#include <stdlib.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "plots/charts.h"
#include "tests/plots_lu_mz_data.h"

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 3;
  if (repetitions <= 0 || !qnm::plots::GnuplotAvailable()) {
    std::fprintf(stderr, "usage: plots_bench [repetitions > 0]; needs gnuplot on PATH\n");
    return 1;
  }
  std::string pattern = (std::filesystem::temp_directory_path() / "qnm-plots-bench-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) return 1;
  const qnm::plots::ChartSet set = qnm::plots::testdata::LuMzClassC();
  struct Case {
    const char* name;
    bool png, svg, pdf;
  };
  const Case cases[] = {{"png", true, false, false},
                        {"svg", false, true, false},
                        {"png+svg", true, true, false},
                        {"png+svg+pdf", true, true, true}};
  std::printf("%-12s %12s %10s\n", "formats", "s/series", "files");
  for (const Case& c : cases) {
    qnm::plots::PlotOptions options;
    options.output_dir = pattern;
    options.png = c.png;
    options.svg = c.svg;
    options.pdf = c.pdf;
    std::size_t files = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < repetitions; ++i) {
      qnm::plots::PlotResult result;
      std::string error;
      if (!qnm::plots::WriteCharts(set, options, &result, &error)) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
      }
      files = result.files.size();
    }
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    std::printf("%-12s %12.3f %10zu\n", c.name, elapsed.count() / repetitions, files);
  }
  std::filesystem::remove_all(pattern);
  return 0;
}
