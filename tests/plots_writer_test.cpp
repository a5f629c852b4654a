#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "plots/chart_writer.h"
#include "plots/charts.h"
#include "plots/gnuplot_available.h"
#include "tests/plots_lu_mz_data.h"
#include "tests/plots_test_util.h"
#include "util/atomic_file.h"

namespace fs = std::filesystem;
using qnm::plots::ChartScript;
using qnm::plots::PlotOptions;
using qnm::plots::PlotResult;
using qnm::plots::testutil::FileNames;
using qnm::plots::testutil::IsPng;
using qnm::plots::testutil::ScratchDir;
using qnm::plots::testutil::Written;
using qnm::plots::testutil::WriteInto;

namespace {

/// Runs `gnuplot <args>` inside `dir` as a user would; returns the exit status.
int RunGnuplotIn(const fs::path& dir, const std::string& args) {
  const std::string command = "cd '" + dir.string() + "' && gnuplot " + args + " 2>/dev/null";
  return std::system(command.c_str());
}

/// Sets PATH for its lifetime and restores it afterwards.
class ScopedPath {
 public:
  explicit ScopedPath(const std::string& path) {
    const char* old = std::getenv("PATH");
    had_old_ = old != nullptr;
    if (had_old_) old_ = old;
    ::setenv("PATH", path.c_str(), 1);
  }
  ~ScopedPath() {
    if (had_old_) ::setenv("PATH", old_.c_str(), 1);
    else ::unsetenv("PATH");
  }

 private:
  bool had_old_ = false;
  std::string old_;
};

}  // namespace

TEST_CASE("The .gp and .dat beside each chart re-draw it with plain gnuplot", "[plots]") {
  ScratchDir dir("reproduce");
  const Written written = WriteInto(qnm::plots::testdata::LuMzClassC(), dir.path.string());
  const PlotResult& result = written.result;
  const std::string& error = written.error;
  INFO(error);
  REQUIRE(written.ok);
  for (const char* chart : {"validation", "components", "inputs", "speedup", "error"}) {
    const std::string stem = std::string("lu-mz.C.th16_") + chart;
    INFO(stem);
    const fs::path png = dir.path / (stem + ".png"), svg = dir.path / (stem + ".svg");
    const std::string original_svg = qnm::ReadFile(svg.string());
    fs::remove(png);
    fs::remove(svg);
    CHECK(RunGnuplotIn(dir.path, stem + ".gp") == 0);  // default format: PNG
    REQUIRE(fs::exists(png));
    CHECK(IsPng(qnm::ReadFile(png.string())));
    CHECK(fs::file_size(png) > 20 * 1024);
    CHECK(RunGnuplotIn(dir.path, "-e \"fmt='svg'\" " + stem + ".gp") == 0);
    REQUIRE(fs::exists(svg));
    CHECK(qnm::ReadFile(svg.string()) == original_svg);  // the very same chart
  }
}

TEST_CASE("PDF charts are written when gnuplot has pdfcairo", "[plots]") {
  const std::string gnuplot = qnm::plots::FindGnuplot();
  REQUIRE(!gnuplot.empty());
  if (!qnm::plots::HasTerminal(qnm::plots::GnuplotTerminals(gnuplot), "pdfcairo")) return;
  ScratchDir dir("pdf");
  const Written written = WriteInto(qnm::plots::testdata::LuMzClassC(), dir.path.string(), false, false, true);
  const PlotResult& result = written.result;
  const std::string& error = written.error;
  INFO(error);
  REQUIRE(written.ok);
  CHECK(result.files.size() == 5 * 3);  // .pdf, .gp, .dat per chart
  const std::string pdf = qnm::ReadFile((dir.path / "lu-mz.C.th16_validation.pdf").string());
  CHECK(pdf.compare(0, 5, "%PDF-") == 0);
  CHECK(pdf.size() > 5 * 1024);
}

TEST_CASE("gnuplot's terminal list is read", "[plots]") {
  const std::string gnuplot = qnm::plots::FindGnuplot();
  REQUIRE(!gnuplot.empty());
  const std::string terminals = qnm::plots::GnuplotTerminals(gnuplot);
  CHECK(qnm::plots::HasTerminal(terminals, "svg"));
  CHECK(qnm::plots::HasTerminal(terminals, "png"));
  CHECK_FALSE(qnm::plots::HasTerminal(terminals, "sv"));  // whole words only
  CHECK(qnm::plots::GnuplotTerminals("").empty());
}

TEST_CASE("Without gnuplot on PATH no chart is written and the message says why", "[plots]") {
  ScratchDir empty_bin("no-gnuplot-bin");
  ScratchDir dir("no-gnuplot");
  bool available = true;
  Written written;
  {
    ScopedPath path(empty_bin.path.string());
    available = qnm::plots::GnuplotAvailable();
    written = WriteInto(qnm::plots::testdata::LuMzClassC(), dir.path / "charts");
  }
  CHECK_FALSE(available);
  CHECK_FALSE(written.ok);
  CHECK(written.error == "gnuplot not found; install gnuplot-nox — charts skipped");
  CHECK_FALSE(fs::exists(dir.path / "charts"));
  CHECK(qnm::plots::GnuplotAvailable());  // PATH restored
}

TEST_CASE("A chart that gnuplot rejects leaves no output at all, not even the good ones",
          "[plots]") {
  ScratchDir dir("broken");
  ChartScript good;
  good.name = "good";
  good.title = "good chart";
  good.body = "plot datafile using 1:2 with lines title 'ok'\n";
  good.data = "# points\n# P value\n1 1\n2 4\n";
  ChartScript broken = good;
  broken.name = "broken";
  broken.body = "plot datafile using 1:(no_such_variable) with lines\n";
  PlotOptions options;
  options.output_dir = dir.path.string();
  PlotResult result;
  std::string error;
  CHECK_FALSE(qnm::plots::RenderCharts({good, broken}, "s", options, &result, &error));
  CHECK(error.rfind(dir.path.string() + ": gnuplot: \"s_broken.gp\" line ", 0) == 0);
  CHECK(error.find("undefined variable: no_such_variable") != std::string::npos);
  CHECK(FileNames(dir.path).empty());  // neither the good chart nor a temporary directory
  CHECK(result.files.empty());

  // The same good chart alone renders, replacing nothing but its own files.
  REQUIRE(qnm::plots::RenderCharts({good}, "s", options, &result, &error));
  CHECK(FileNames(dir.path) ==
        std::set<std::string>{"s_good.dat", "s_good.gp", "s_good.png", "s_good.svg"});
}

TEST_CASE("Titles, names and numbers are escaped for gnuplot and file names", "[plots]") {
  using qnm::plots::ChartContext;
  CHECK(qnm::plots::GnuplotQuote("it's") == "'it''s'");
  CHECK(qnm::plots::GnuplotQuote("a\nb") == "'a b'");
  CHECK(qnm::plots::FormatValue(std::nan("")) == "NaN");
  CHECK(qnm::plots::FormatValue(37.14) == "37.14");
  CHECK(qnm::plots::FormatValue(9.84004984e8) == "984004984");
  CHECK(qnm::plots::SeriesStem(ChartContext{"lu-mz.C th=16", "", ""}) == "lu-mz.C_th_16");
  CHECK(qnm::plots::SeriesStem(ChartContext{"x", "", "../evil/stem"}) == "_._evil_stem");
  CHECK(qnm::plots::SeriesStem(ChartContext{"", "", ""}) == "series");
  CHECK(qnm::plots::ChartTitle(ChartContext{"cg.C", "", ""}, "speedup") == "cg.C: speedup");
  CHECK(qnm::plots::ChartTitle(ChartContext{"cg.C", "MCR", ""}, "speedup") == "cg.C on MCR: speedup");
  // A title longer than the plot is wide: the series and what the chart shows on two lines, a series
  // name longer than a line shortened in its middle (a ReFrame test name and partition run to 80+).
  CHECK(qnm::plots::GnuplotTitle("cg.C: speedup", 90) == "'cg.C: speedup'");
  const std::string series = "WRF_12km_run_csd3_cclake_ib_icc19_impi19_ucx @csd3:cclake-ib-icc19-impi19-ucx (wrf)";
  CHECK(qnm::plots::GnuplotTitle(series + ": modeled vs measured run time", 90) ==
        "\"" + series + ":\\nmodeled vs measured run time\"");
  const std::string quoted = qnm::plots::GnuplotTitle("a \"b\" \\ " + series + series + ": speedup", 90);
  CHECK(quoted.find("...") != std::string::npos);
  CHECK(quoted.find("\\\"b\\\"") != std::string::npos);  // a double quote escaped inside the double quotes
  CHECK(quoted.substr(0, quoted.find("\\n")).size() <= 90 + 4);  // the first line, its quote and escapes
  CHECK(quoted.find("\\nspeedup\"") != std::string::npos);
  // A multi-byte character is never cut: the middle goes, whole characters stay.
  std::string accents;
  for (int i = 0; i < 60; ++i) accents += "\u00e9";  // 2 bytes each
  const std::string cut = qnm::plots::GnuplotTitle(accents + ": what", 20);
  CHECK(cut.find("...") != std::string::npos);
  CHECK((cut.size() - cut.find("...")) % 2 == 1);  // "...", whole 2-byte characters, then the rest
  CHECK(qnm::plots::PlotCommand({"x notitle", "'' index 'a' using 1:2", "'' index 'b' using 1:2"}) ==
        "plot x notitle, \\\n     datafile index 'a' using 1:2, \\\n     '' index 'b' using 1:2\n");
}

TEST_CASE("A series name with quotes and markup still draws and shows in the SVG", "[plots]") {
  ScratchDir dir("quotes");
  auto set = qnm::plots::testdata::LuMzClassC();
  set.context = {"Bob's run <x> & y_z", "MCR", ""};
  const Written written = WriteInto(set, dir.path.string(), false);
  const PlotResult& result = written.result;
  const std::string& error = written.error;
  INFO(error);
  REQUIRE(written.ok);
  const std::string svg = qnm::ReadFile((dir.path / "Bob_s_run__x____y_z_validation.svg").string());
  CHECK(svg.find("Bob's run &lt;x> &amp; y_z on MCR") != std::string::npos);
}

TEST_CASE("An output directory that is a file is reported, not crashed on", "[plots]") {
  ScratchDir dir("file-as-dir");
  const fs::path file = dir.path / "charts";
  qnm::WriteFileAtomically(file.string(), "not a directory\n");
  const Written written = WriteInto(qnm::plots::testdata::LuMzClassC(), file);
  CHECK_FALSE(written.ok);
  CHECK(written.error.rfind(file.string() + ": cannot create directory", 0) == 0);
  CHECK(qnm::ReadFile(file.string()) == "not a directory\n");
}
