// LAMMPS logs read into the run record (tests/data/lammps: LAMMPS's own example
// logs, SOURCES.md there). The values below are copied from the logs by hand,
// so a reader that reads the wrong line, column or run fails.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "command_runner.h"
#include "app_outputs/app_output_readers.h"
#include "app_outputs/lammps_log.h"
#include "ingest/ingest.h"
#include "reader/experiment_factors.h"
#include "reader/series_identity.h"
#include "textio/text_lines.h"
#include "ingest_test_util.h"
#include "temp_dir.h"
#include "util/atomic_file.h"

using namespace qnm;

namespace {

const std::string kLammps = std::string(QNM_TEST_DATA_DIR) + "/lammps";

RunStats ReadOneRun(const std::string& name) {
  std::vector<RunStats> runs = testing::IngestPath(kLammps + "/" + name);
  REQUIRE(runs.size() == 1);
  return runs[0];
}

double Detail(const RunStats& run, const std::string& key) { return testing::DetailNumber(run, key); }
using qnm::testing::RunCli;

}  // namespace

TEST_CASE("LAMMPS log: procs, loop time, Comm and compute from the timing breakdown", "[ingest][lammps]") {
  // examples/melt at P = 4: "Loop time of 0.490832 on 4 procs for 250 steps with 4000 atoms",
  // "4 MPI tasks x 1 OpenMP threads", Comm 0.053452 | 0.068917 | 0.08485.
  RunStats run = ReadOneRun("log.8Apr21.melt.g++.4");
  CHECK(run.app == "lammps");
  CHECK(run.tool_version == "LAMMPS 8 Apr 2021");
  CHECK(run.procs == 4);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.wall_time_s == 0.490832);
  CHECK(run.TotalTimeSeconds() == 0.490832);
  CHECK(run.mpi_time_mean_s == 0.068917);
  CHECK(run.mpi_time_max_s == 0.08485);
  // Pair + Neigh + Output + Modify + Other averages.
  CHECK(run.compute_time_mean_s == Approx(0.37256 + 0.038449 + 0.00023746 + 0.0097951 + 0.0008721).epsilon(1e-12));
  CHECK(Detail(run, "lammps_compute_max_bound_s") ==
        Approx(0.38746 + 0.042344 + 0.00047684 + 0.0098989 + 0.0008721).epsilon(1e-12));
  CHECK(Detail(run, "lammps_atoms") == 4000);
  CHECK(Detail(run, "lammps_steps") == 250);
  CHECK(run.iterations == 250);
  CHECK(run.details.at("lammps_total_wall_time") == "0:00:00");
  CHECK(run.problem_class == "lj atomic lj/cut 4000 atoms 250 steps");
  CHECK(run.machine.empty());

  RunStats one = ReadOneRun("log.8Apr21.melt.g++.1");
  CHECK(one.procs == 1);
  CHECK(one.wall_time_s == 1.61045);
  CHECK(one.mpi_time_mean_s == 0.037732);
  CHECK(Detail(one, "lammps_total_wall_time_s") == 1);
  CHECK(one.problem_class == run.problem_class);
}

TEST_CASE("LAMMPS log: a run and a minimize in one log are summed", "[ingest][lammps]") {
  // examples/min at P = 4: run 1000 (0.0730537 s, Comm avg 0.01775, max 0.018055), then
  // minimize (0.055995 s, 300 iterations, Comm avg 0.011703, max 0.012587).
  RunStats run = ReadOneRun("log.27Nov18.min.g++.4");
  CHECK(run.procs == 4);
  CHECK(run.wall_time_s == Approx(0.0730537 + 0.055995).epsilon(1e-12));
  CHECK(run.mpi_time_mean_s == Approx(0.01775 + 0.011703).epsilon(1e-12));
  CHECK(run.mpi_time_max_s == Approx(0.018055 + 0.012587).epsilon(1e-12));
  CHECK(run.details.at("lammps_runs") == "2");
  CHECK(run.details.at("lammps_loop_times_s") == "0.0730537 0.055995");
  CHECK(run.iterations == 1300);
  // At P = 1 the minimization took 475 iterations, not 300: it is named, not counted, in the problem.
  RunStats one = ReadOneRun("log.27Nov18.min.g++.1");
  CHECK(one.wall_time_s == Approx(0.206744 + 0.233542).epsilon(1e-12));
  CHECK(one.iterations == 1475);
  CHECK(run.problem_class == "lj atomic lj/cut 800 atoms 1000 steps + minimize");
  CHECK(one.problem_class == run.problem_class);
}

TEST_CASE("LAMMPS log: Bond and Kspace rows, and the 2025 format", "[ingest][lammps]") {
  RunStats run = ReadOneRun("log.14Jul25.peptide.g++.4");
  CHECK(run.tool_version == "LAMMPS 12 Jun 2025 - Development - patch_12Jun2025-739-g2644e7f6fa-modified");
  CHECK(run.procs == 4);
  CHECK(run.wall_time_s == 0.696717);
  CHECK(run.mpi_time_mean_s == 0.01563);
  CHECK(Detail(run, "lammps_kspace_avg_s") == 0.061467);
  CHECK(Detail(run, "lammps_bond_avg_s") == 0.0012869);
  CHECK(run.compute_time_mean_s ==
        Approx(0.53288 + 0.0012869 + 0.061467 + 0.069998 + 0.00013174 + 0.014275 + 0.001049).epsilon(1e-12));
  CHECK(run.problem_class == "real full lj/charmm/coul/long +bond +kspace 2004 atoms 300 steps");
  // The long-range solver's settings, a setting of the input that keys series when runs differ in it
  // (reader/experiment_factors.h): "PPPM initialization ..." and its indented block.
  REQUIRE(run.details.count("setting.kspace") == 1);
  CHECK(run.details.at("setting.kspace") == "pppm G 0.26872465 grid 15 15 15 order 5");
  CHECK(IsRunSetting("setting.kspace"));
}

TEST_CASE("LAMMPS logs of one system at two long-range accuracies are two series", "[ingest][lammps][series]") {
  // The peptide logs at P = 1 and 4, each also as if run with a finer PPPM grid.
  testing::TempDir dir("lammps", "kspace");
  for (const char* name : {"log.14Jul25.peptide.g++.1", "log.14Jul25.peptide.g++.4"}) {
    std::ifstream in(kLammps + "/" + name);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t at = text.find("grid = 15 15 15");
    REQUIRE(at != std::string::npos);
    std::ofstream(dir.path / (std::string("coarse.") + name)) << text;
    std::ofstream(dir.path / (std::string("fine.") + name)) << text.substr(0, at) << "grid = 30 30 30"
                                                             << text.substr(at + 15);
  }
  IngestSummary summary;
  const std::vector<Series> series =
      GroupIntoSeries(IngestPaths({dir.path.string()}, IngestOptions{}, &summary), GroupBy::kContent);
  REQUIRE(series.size() == 2);
  CHECK(series[0].name.find("kspace=pppm G 0.26872465 grid 15 15 15") != std::string::npos);
  CHECK(series[1].name.find("kspace=pppm G 0.26872465 grid 30 30 30") != std::string::npos);
  for (const Series& one : series) CHECK(one.groups.size() == 2);  // P = 1 and 4
}

TEST_CASE("LAMMPS log: 2014 format with OpenMP threads on the Loop time line", "[ingest][lammps]") {
  // "Loop time of 0.983697 on 4 procs (1 MPI x 4 OpenMP) for 100 steps with 32000 atoms",
  // "Comm  time (%) = 0.041466 (4.21532)": averages only, no max.
  RunStats run = ReadOneRun("log.lj.1Feb14.kokkos.omp.4");
  CHECK(run.procs == 1);
  CHECK(run.threads_per_proc == 4);
  CHECK(run.wall_time_s == 0.983697);
  CHECK(run.mpi_time_mean_s == 0.041466);
  CHECK_FALSE(Known(run.mpi_time_max_s));
  CHECK(run.compute_time_mean_s == Approx(0.767155 + 0.14734 + 0.000172138 + 0.0275636).epsilon(1e-12));
  CHECK(Detail(run, "lammps_output_avg_s") == 0.000172138);  // "Outpt" read as Output
  CHECK(run.details.at("lammps_total_wall_time").find("not printed") == 0);
  CHECK(run.problem_class == "lj atomic lj/cut 32000 atoms 100 steps");
  RunStats one = ReadOneRun("log.lj.1Feb14.kokkos.omp.1");
  CHECK(one.procs == 1);
  CHECK(one.threads_per_proc == 1);
  CHECK(one.wall_time_s == 2.29105);
}

TEST_CASE("LAMMPS logs: a folder of P = 1 and 4 groups into one series per input", "[ingest][lammps]") {
  IngestSummary summary;
  // Not strict: SOURCES.md and LICENSE-lammps beside the logs are skipped as no format.
  std::vector<RunStats> runs = testing::IngestPath(kLammps, &summary, /*strict=*/false);
  CHECK(runs.size() == 8);
  std::vector<Series> series = GroupIntoSeries(std::move(runs), GroupBy::kContent);
  // melt, min, peptide at P = 1 and 4; the 2014 lj logs at 1 thread and at 4 threads (one P each).
  REQUIRE(series.size() == 5);
  int scaling = 0;
  for (const Series& one : series) {
    CHECK(one.key.app == "lammps");
    std::vector<int> procs;
    for (const RunGroup& group : one.groups) {
      procs.push_back(group.procs);
      CHECK(group.runs.size() == 1);
    }
    if (procs == std::vector<int>{1, 4}) ++scaling;
    if (one.key.problem_class == "lj atomic lj/cut 4000 atoms 250 steps") {
      REQUIRE(one.groups.size() == 2);
      CHECK(one.groups[0].median_time_s == 1.61045);
      CHECK(one.groups[1].median_time_s == 0.490832);
    }
  }
  CHECK(scaling == 3);
}

TEST_CASE("LAMMPS logs: no completed run, or a table cut short, is one line naming the file", "[ingest][lammps][robustness]") {
  const std::string log = ReadFile(kLammps + "/log.8Apr21.melt.g++.4");
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / "qnm-lammps-log-test";
  std::filesystem::create_directories(folder);
  const std::string crashed = (folder / "log.lammps").string();
  {
    std::ofstream out(crashed, std::ios::binary);
    out << log.substr(0, log.find("Loop time of"));
  }
  std::string error = testing::IngestErrorOf(crashed);
  CHECK(error.find(crashed + ": LAMMPS log without a completed run") == 0);
  CHECK(error.find('\n') == std::string::npos);

  const std::string cut = log.substr(0, log.find("Output  |"));  // the table's last rows lost
  ReaderInput input{"cut.lammps", cut, {}};
  REQUIRE(SniffLammpsLog(input.path, input.text));
  CHECK_THROWS_WITH(ReadLammpsLog(input), Catch::StartsWith("cut.lammps:64: ") &&
                                              Catch::Contains("ends before its 'Other' row"));

  std::string negative = log;
  negative.replace(negative.find("0.490832"), 8, "-0.49083");
  ReaderInput bad{"bad.lammps", negative, {}};
  CHECK_THROWS_WITH(ReadLammpsLog(bad), Catch::StartsWith("bad.lammps:59: ") && Catch::Contains("Loop time needs"));

  // Cut at every 7th byte or one byte flipped: a record or one InputError, never NaN or a crash.
  int records = 0, errors = 0;
  for (std::size_t at = 0; at < log.size(); at += 7) {
    for (const std::string& text : {log.substr(0, at), std::string(log).replace(at, 1, 1, static_cast<char>(log[at] ^ 0x24))}) {
      ReaderInput damaged{"damaged.lammps", text, {}};
      if (!SniffLammpsLog(damaged.path, damaged.text)) continue;
      try {
        ReaderOutput output = ReadLammpsLog(damaged);
        REQUIRE(output.runs.size() == 1);
        CHECK(output.runs[0].procs > 0);
        CHECK(std::isfinite(output.runs[0].wall_time_s));
        ++records;
      } catch (const InputError& caught) {
        CHECK(std::string(caught.what()).find("damaged.lammps:") == 0);
        ++errors;
      }
    }
  }
  CHECK(records > 0);
  CHECK(errors > 0);
  std::filesystem::remove_all(folder);
}

TEST_CASE("LAMMPS logs: ingest --series and predict on the folder", "[ingest][lammps][predict][cli]") {
  std::string out;
  REQUIRE(RunCli("ingest --series " + kLammps, &out) == 0);
  CHECK(out.find("5 series (grouped by content)") != std::string::npos);
  CHECK(out.find("lammps.real full lj/charmm/coul/long +bond +kspace 2004 atoms 300 steps") != std::string::npos);
  CHECK(out.find("threads/process 4: LAMMPS 'Loop time of ... on N procs (P MPI x T OpenMP)'") != std::string::npos);
  REQUIRE(RunCli("predict --format csv --procs 1,4,16 --series '4000 atoms' " + kLammps, &out) == 0);
  CHECK(out.find("lammps.lj atomic lj/cut 4000 atoms 250 steps") != std::string::npos);
  CHECK(out.find("0.490832") != std::string::npos);  // the measured P = 4
  CHECK(out.find("nan") == std::string::npos);
}
