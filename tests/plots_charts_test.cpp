#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

#include "plots/charts.h"
#include "tests/plots_lu_mz_data.h"
#include "util/atomic_file.h"

namespace fs = std::filesystem;
using qnm::plots::ChartSet;
using qnm::plots::PlotOptions;
using qnm::plots::PlotResult;

namespace {

/// A fresh empty directory under the system temp dir, removed on scope exit.
struct ScratchDir {
  explicit ScratchDir(const std::string& tag) {
    std::string pattern = (fs::temp_directory_path() / ("qnm-plots-" + tag + "-XXXXXX")).string();
    path = ::mkdtemp(pattern.data());
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
  fs::path path;
};

std::set<std::string> FileNames(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.insert(entry.path().filename());
  return names;
}

bool IsPng(const std::string& bytes) {
  return bytes.size() > 8 && bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

}  // namespace

TEST_CASE("Every chart of the LU-MZ class C series is drawn as PNG, SVG, script and data",
          "[plots]") {
  REQUIRE(qnm::plots::GnuplotAvailable());
  ScratchDir dir("all");
  const ChartSet set = qnm::plots::testdata::LuMzClassC();
  PlotOptions options;
  options.output_dir = (dir.path / "charts").string();
  PlotResult result;
  std::string error;
  const bool written = qnm::plots::WriteCharts(set, options, &result, &error);
  INFO(error);
  REQUIRE(written);
  CHECK(error.empty());
  CHECK(result.files.size() == 5 * 4);

  const std::set<std::string> names = FileNames(options.output_dir);
  CHECK(names.size() == 5 * 4);  // no temporary directory or log left behind
  for (const char* chart : {"validation", "components", "inputs", "speedup", "error"}) {
    const std::string stem = std::string("lu-mz.C.th16_") + chart;
    INFO(stem);
    for (const char* ext : {".png", ".svg", ".gp", ".dat"}) CHECK(names.count(stem + ext) == 1);
    const std::string png = qnm::ReadFile(options.output_dir + "/" + stem + ".png");
    CHECK(IsPng(png));
    CHECK(png.size() > 20 * 1024);
    const std::string svg = qnm::ReadFile(options.output_dir + "/" + stem + ".svg");
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(svg.find("lu-mz.C th=16 on LLNL cab") != std::string::npos);  // title names series, machine
    CHECK(svg.find("processes P") != std::string::npos);                 // x axis label
  }
}

// Hidden (run explicitly with `qnm_tests "[.gallery]"`): renders the PNGs of
// docs/charts/ from the same real LU-MZ data, so the gallery can be refreshed.
TEST_CASE("Gallery of the LU-MZ class C charts", "[.gallery]") {
  PlotOptions options;
  options.output_dir = std::string(QNM_SOURCE_DIR) + "/docs/charts";
  options.svg = false;
  PlotResult result;
  std::string error;
  const bool written =
      qnm::plots::WriteCharts(qnm::plots::testdata::LuMzClassC(), options, &result, &error);
  INFO(error);
  REQUIRE(written);
  for (const std::string& file : result.files) {  // the gallery keeps the images only
    if (fs::path(file).extension() != ".png") fs::remove(file);
  }
}
