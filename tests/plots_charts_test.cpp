#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "plots/chart_builders.h"
#include "plots/charts.h"
#include "tests/plots_lu_mz_data.h"
#include "tests/plots_test_util.h"
#include "util/atomic_file.h"

namespace fs = std::filesystem;
using qnm::plots::ChartSet;
using qnm::plots::MeasuredPoint;
using qnm::plots::PlotOptions;
using qnm::plots::PlotResult;

using qnm::plots::testutil::FileNames;
using qnm::plots::testutil::IsPng;
using qnm::plots::testutil::ScratchDir;
using qnm::plots::testutil::Written;
using qnm::plots::testutil::WriteInto;

TEST_CASE("Every chart of the LU-MZ class C series is drawn as PNG, SVG, script and data",
          "[plots]") {
  REQUIRE(qnm::plots::GnuplotAvailable());
  ScratchDir dir("all");
  const ChartSet set = qnm::plots::testdata::LuMzClassC();
  const fs::path charts = dir.path / "charts";
  const Written written = WriteInto(set, charts);
  const PlotResult& result = written.result;
  INFO(written.error);
  REQUIRE(written.ok);
  CHECK(written.error.empty());
  CHECK(result.warnings.empty());  // gnuplot had nothing to complain about
  CHECK(result.files.size() == 5 * 4);

  const std::set<std::string> names = FileNames(charts);
  CHECK(names.size() == 5 * 4);  // no temporary directory or log left behind
  // Each chart with its y-axis label and one series name from its key.
  const std::vector<std::array<std::string, 3>> expected = {
      {"validation", "run time (s)", "measured, held out"},
      {"components", "time per rank (s)", "modeled contention"},
      {"inputs", "bytes per message (bytes)", "fit: 1.74e+06 * P^-1.03"},
      {"speedup", "parallel efficiency S(P) / P", "Amdahl bound, serial fraction f = 0.00844"},
      {"error", "relative error, (modeled - measured) / measured (%)", "held out"}};
  for (const auto& [chart, ylabel, series] : expected) {
    const std::string stem = "lu-mz.C.th16_" + chart;
    INFO(stem);
    for (const char* ext : {".png", ".svg", ".gp", ".dat"}) CHECK(names.count(stem + ext) == 1);
    const std::string png = qnm::ReadFile((charts / (stem + ".png")).string());
    CHECK(IsPng(png));
    CHECK(png.size() > 20 * 1024);
    const std::string svg = qnm::ReadFile((charts / (stem + ".svg")).string());
    CHECK(svg.find("<svg") != std::string::npos);
    CHECK(svg.find("lu-mz.C th=16 on LLNL cab") != std::string::npos);  // title names series, machine
    CHECK(svg.find("processes P") != std::string::npos);                 // x axis label
    CHECK(svg.find(ylabel) != std::string::npos);
    CHECK(svg.find(series) != std::string::npos);
  }
}

// Hidden (run explicitly with `qnm_tests "[.gallery]"`): renders the PNGs of
// docs/charts/ from the same real LU-MZ data, so the gallery can be refreshed.
TEST_CASE("Gallery of the LU-MZ class C charts", "[.gallery]") {
  const Written written = WriteInto(qnm::plots::testdata::LuMzClassC(),
                                   fs::path(QNM_SOURCE_DIR) / "docs" / "charts", true, false);
  INFO(written.error);
  REQUIRE(written.ok);
  for (const std::string& file : written.result.files) {  // the gallery keeps the images only
    if (fs::path(file).extension() != ".png") fs::remove(file);
  }
}

namespace {

/// The data rows (as numbers) of the block named `block` in a chart's .dat file.
std::vector<std::vector<double>> BlockRows(const std::string& dat, const std::string& block) {
  std::vector<std::vector<double>> rows;
  std::istringstream lines(dat);
  std::string line;
  bool inside = false;
  while (std::getline(lines, line)) {
    if (line.rfind("# ", 0) == 0 && !inside) {
      inside = line == "# " + block;
      continue;
    }
    if (line.empty()) {
      if (inside && !rows.empty()) break;
      continue;
    }
    if (!inside || line[0] == '#') continue;
    std::istringstream fields(line);
    std::vector<double> row;
    std::string field;
    while (fields >> field) row.push_back(field == "NaN" ? std::nan("") : std::stod(field));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("Chart data files carry the measured and modeled numbers", "[plots]") {
  ScratchDir dir("data");
  const ChartSet set = qnm::plots::testdata::LuMzClassC();
  const Written written = WriteInto(set, dir.path.string(), true, false);
  const PlotResult& result = written.result;
  const std::string& error = written.error;
  INFO(error);
  REQUIRE(written.ok);
  const std::string base = dir.path.string() + "/lu-mz.C.th16_";

  const std::string validation = qnm::ReadFile(base + "validation.dat");
  const auto training = BlockRows(validation, "training");
  REQUIRE(training.size() == 4);  // P = 1, 2, 4, 8
  CHECK(training[0] == std::vector<double>{1, 37.14, 37.00, 37.28});  // two P=1 runs
  CHECK(training[3] == std::vector<double>{8, 4.73, 4.73, 4.73});
  const auto heldout = BlockRows(validation, "heldout");
  REQUIRE(heldout.size() == 1);
  CHECK(heldout[0][0] == 16);
  CHECK(heldout[0][1] == 2.37);
  const auto extrapolated = BlockRows(validation, "extrapolated");
  REQUIRE(extrapolated.size() == 3);
  CHECK(extrapolated[0][0] == 32);
  CHECK(extrapolated[2][0] == 128);
  CHECK(extrapolated[2][2] < extrapolated[2][1]);  // lower end of the interval
  CHECK(extrapolated[2][3] > extrapolated[2][1]);
  CHECK(BlockRows(validation, "modeled").size() == 8);

  // Relative error at the held-out P=16: the stand-in model (Amdahl with the
  // Karp-Flatt serial fraction 0.00844) predicts 2.77 s against 2.37 s measured (+16.9%).
  const auto error_rows = BlockRows(qnm::ReadFile(base + "error.dat"), "heldout");
  REQUIRE(error_rows.size() == 1);
  CHECK(error_rows[0][0] == 16);
  CHECK(error_rows[0][2] == 2.37);
  CHECK(error_rows[0][3] == Approx(2.770).margin(0.001));
  CHECK(error_rows[0][1] == Approx(16.9).margin(0.05));
  CHECK(error_rows[0][1] == Approx(100.0 * (error_rows[0][3] - 2.37) / 2.37));

  // Speedup relative to P=1 (37.14 s): S(16) = 37.14 / 2.37, efficiency S/16.
  const auto speedup = BlockRows(qnm::ReadFile(base + "speedup.dat"), "measured");
  REQUIRE(speedup.size() == 5);
  CHECK(speedup[4][1] == Approx(37.14 / 2.37));
  CHECK(speedup[4][2] == Approx(37.14 / 2.37 / 16));
  CHECK(qnm::ReadFile(base + "speedup.gp").find("f = 0.00843") != std::string::npos);

  // Components per rank from the mpiP totals: P=16 compute (38.8-1.97)/16, MPI 1.97/16.
  const auto components = BlockRows(qnm::ReadFile(base + "components.dat"), "components");
  REQUIRE(components.size() == 8);  // measured P = 1..16 and predicted up to 128
  CHECK(components[4][1] == 16);
  CHECK(components[4][2] == Approx((38.8 - 1.97) / 16));
  CHECK(components[4][3] == Approx(1.97 / 16));
  CHECK(std::isnan(components[7][2]));  // nothing measured at P=128

  // Every hatched part of the stacked bars lies on a white box of the same
  // height, or the taller part beneath shows through the SVG terminal's
  // transparent hatching.
  const std::string script = qnm::ReadFile(base + "components.gp");
  auto using_part = [&](std::size_t line) {  // "using X:Y:(0.38)" of the plot element on that line
    const std::size_t from = script.find("using ", line), to = script.find(" with boxes", line);
    return from < to ? script.substr(from, to - from) : std::string();
  };
  int hatched = 0;
  for (std::size_t at = script.find(" with boxes fs pattern"); at != std::string::npos;
       at = script.find(" with boxes fs pattern", at + 1)) {
    const std::size_t line = script.rfind('\n', at) + 1;
    if (script.find("keyentry", line) < at) continue;
    const std::size_t previous = script.rfind('\n', line - 2) + 1;
    CHECK(using_part(previous) == using_part(line));
    CHECK(script.substr(previous, line - previous).find("with boxes fs solid 1.0 noborder fc rgb '#ffffff' notitle") !=
          std::string::npos);
    ++hatched;
  }
  CHECK(hatched == 3);  // measured MPI, modeled load imbalance, modeled MPI service
}

TEST_CASE("A series with measurements only draws the charts that need no model", "[plots]") {
  ScratchDir dir("measured-only");
  ChartSet set = qnm::plots::testdata::LuMzClassC();
  set.predicted.clear();
  set.measured_components.clear();
  set.inputs.clear();
  const Written written = WriteInto(set, dir.path.string(), true, false);
  const PlotResult& result = written.result;
  const std::string& error = written.error;
  INFO(error);
  REQUIRE(written.ok);
  CHECK(FileNames(dir.path) == std::set<std::string>{
                                   "lu-mz.C.th16_speedup.dat", "lu-mz.C.th16_speedup.gp",
                                   "lu-mz.C.th16_speedup.png", "lu-mz.C.th16_validation.dat",
                                   "lu-mz.C.th16_validation.gp", "lu-mz.C.th16_validation.png"});
  CHECK(result.warnings.size() == 3);  // components, inputs and error skipped
  CHECK(result.warnings[0] == "no data for the components chart; skipped");
}

TEST_CASE("A series with nothing drawable is an error and writes nothing", "[plots]") {
  ScratchDir dir("empty");
  ChartSet set;
  set.context.series_name = "empty";
  MeasuredPoint bad;
  bad.procs = 4;  // no time: cannot be drawn
  set.measured.push_back(bad);
  const Written written = WriteInto(set, dir.path / "out");
  CHECK_FALSE(written.ok);
  CHECK(written.error == "nothing to chart for series 'empty'");
  CHECK_FALSE(fs::exists(dir.path / "out"));
}

TEST_CASE("The components key lists only the parts that are drawn", "[plots]") {
  ScratchDir dir("modeled-only");
  ChartSet set = qnm::plots::testdata::LuMzClassC();
  set.measured_components.clear();
  const Written written = WriteInto(set, dir.path, false, true);
  INFO(written.error);
  REQUIRE(written.ok);
  const std::string svg = qnm::ReadFile((dir.path / "lu-mz.C.th16_components.svg").string());
  CHECK(svg.find("modeled contention") != std::string::npos);
  CHECK(svg.find("modeled switch delay") != std::string::npos);
  CHECK(svg.find("measured MPI") == std::string::npos);
  CHECK(svg.find("measured compute") == std::string::npos);
}

TEST_CASE("The run-time chart says why the predicted curve ends (work units)", "[plots][work-units]") {
  ChartSet set = qnm::plots::testdata::LuMzClassC();
  qnm::plots::ChartScript chart;
  REQUIRE(qnm::plots::BuildValidationChart(set, &chart));
  CHECK(chart.body.find("set label") == std::string::npos);
  set.context.caveat = {"No prediction beyond P = 16:", "the problem has 16 units of work (NPB-MZ zones)."};
  REQUIRE(qnm::plots::BuildValidationChart(set, &chart));
  CHECK(chart.body.find("set label 1 'No prediction beyond P = 16:'") != std::string::npos);
  CHECK(chart.body.find("set label 2 'the problem has 16 units of work (NPB-MZ zones).'") != std::string::npos);
}

TEST_CASE("A sweep of 255 predicted P keeps the components bars and the P axis readable", "[plots]") {
  ChartSet set = qnm::plots::testdata::LuMzClassC();
  // Measured P = 1..16 stay; the prediction becomes every P from 2 to 256.
  const qnm::plots::PredictedPoint model = set.predicted.back();
  set.predicted.clear();
  for (int p = 2; p <= 256; ++p) {
    qnm::plots::PredictedPoint point = model;
    point.procs = p;
    point.time_s = point.compute_s = 100.0 / p;
    set.predicted.push_back(point);
  }
  qnm::plots::ChartScript components;
  REQUIRE(qnm::plots::BuildComponentsChart(set, &components));
  const auto rows = BlockRows(components.data, "components");
  CHECK(rows.size() <= 24);
  std::set<double> procs;
  for (const auto& row : rows) procs.insert(row[1]);
  for (double measured : {1.0, 2.0, 4.0, 8.0, 16.0}) CHECK(procs.count(measured) == 1);  // every measured P
  CHECK(*procs.rbegin() == 256);  // and the largest predicted one
  CHECK(components.body.find("of the 251 predicted P, evenly in log P") != std::string::npos);

  qnm::plots::ChartScript speedup;
  REQUIRE(qnm::plots::BuildSpeedupChart(set, &speedup));
  const std::size_t at = speedup.body.find("set xtics (");
  REQUIRE(at != std::string::npos);
  const std::string tics = speedup.body.substr(at, speedup.body.find(')', at) - at);
  CHECK(std::count(tics.begin(), tics.end(), ',') + 1 <= 17);
  CHECK(tics.find("256") != std::string::npos);
}

TEST_CASE("An interval far beyond every time drawn runs off the run-time chart and the chart says so", "[plots]") {
  ChartSet set = qnm::plots::testdata::LuMzClassC();
  qnm::plots::ChartScript chart;
  REQUIRE(qnm::plots::BuildValidationChart(set, &chart));
  CHECK(chart.body.find("set yrange") == std::string::npos);  // autoscaled to what is drawn
  CHECK(chart.body.find("runs off the chart") == std::string::npos);
  // Gray-Scott on Bebop extrapolated from P = 37..44 (bench/README.md, round 38): 3e-11 .. 5e17 s.
  REQUIRE(!set.predicted.empty());
  set.predicted.back().lower_s = 3e-11;
  set.predicted.back().upper_s = 5e17;
  REQUIRE(qnm::plots::BuildValidationChart(set, &chart));
  const std::size_t at = chart.body.find("set yrange [");
  REQUIRE(at != std::string::npos);
  const double low = std::stod(chart.body.substr(at + 12));
  const double high = std::stod(chart.body.substr(chart.body.find(':', at) + 1));
  CHECK(low > 1e-4);  // a decade below the smallest time drawn, not 3e-11
  CHECK(high < 1e5);
  CHECK(chart.body.find("interval runs off the chart") != std::string::npos);
}
