// NPB reader on the 759 real logs of tests/data/npb (SOURCES.md there) and the
// 60 NPB-MZ stdout files of tests/data/mpip/npb-stdout.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "app_outputs/npb_output.h"
#include "ingest/ingest.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kNpbDir = std::string(QNM_TEST_DATA_DIR) + "/npb";

std::vector<qnm::RunStats> Runs(const std::string& name) {
  std::string path = kNpbDir + "/" + name;
  return qnm::NpbToRunStats(qnm::ParseNpbOutput(qnm::ReadFile(path), path));
}

std::string Category(const std::string& reason) {
  std::string kind = reason.substr(reason.find(": ") + 2);
  return kind.substr(0, kind.find(" ("));
}

}  // namespace

TEST_CASE("every real NPB log is read or skipped with a stated reason", "[ingest][npb]") {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = qnm::IngestPaths({kNpbDir}, qnm::IngestOptions{}, &summary);
  CHECK(summary.files_seen == 763);  // 759 logs + 2 CSV tables + SOURCES.md + a SimGrid XML
  CHECK(summary.files_read == 705);  // 703 logs + 2 tables
  std::map<std::string, int> skipped;
  for (const qnm::SkippedFile& file : summary.skipped) ++skipped[Category(file.reason)];
  CHECK(skipped["empty file"] == 9);
  CHECK(skipped["no run in it: the job failed before its program printed one, or it is no NPB output"] == 38);  // MPI start-up failures
  CHECK(skipped["no NPB results banner"] == 8);   // killed (OOM, time limit) or truncated runs
  CHECK(skipped["not a recognised format"] == 2); // SOURCES.md, st-g5k_platform_graphene_pmbs13.xml
  CHECK(summary.skipped.size() == 58);  // and vc-ozmpc2_mpi_64_S.out (Time in seconds = 0.00)
  int from_logs = 0, from_tables = 0;
  for (const qnm::RunStats& run : runs) {
    bool table = run.sources.front().find(".csv:") != std::string::npos;
    (table ? from_tables : from_logs) += 1;
    CHECK(run.procs >= 1);
    CHECK(run.wall_time_s >= 0);
  }
  CHECK(from_logs == 789);  // banners; npb_runs.csv has one row per banner too
  // npb_runs.csv rows cite their log and fold into it; npb_series_median.csv rows
  // summarise logs read (or cite the same CCPE table as the npb_runs.csv rows):
  // the 10 CCPE times of npb_runs.csv, which have no log, stay table rows, and so
  // do 4 summary rows that no longer fold since vc-ozmpc2_mpi_64_S.out is refused
  // whole (one of its banners prints "Time in seconds = 0.00"; measured count).
  CHECK(from_tables == 10 + 4);
  CHECK(summary.duplicates.citations == 789 + 10);
  CHECK(summary.duplicates.summaries == 334 - 10 - 4);
  CHECK(summary.duplicates.copies == 0);
}

TEST_CASE("NPB values equal the banner's: every log banner against npb_runs.csv", "[ingest][npb]") {
  // npb_runs.csv (SOURCES.md) tabulates time, procs and Mop/s of each banner by file name.
  std::multimap<std::string, qnm::RunStats> table;
  std::string csv = kNpbDir + "/npb_runs.csv";
  qnm::IngestSummary summary;
  for (qnm::RunStats& row : qnm::IngestPaths({csv}, qnm::IngestOptions{true, false}, &summary))
    table.emplace(row.sources.back(), std::move(row));
  int compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kNpbDir)) {
    std::string name = entry.path().filename().string();
    if (!qnm::EndsWith(name, ".out") || table.count(name) == 0) continue;
    std::vector<qnm::RunStats> runs = Runs(name);
    auto range = table.equal_range(name);
    REQUIRE(static_cast<long>(runs.size()) == std::distance(range.first, range.second));
    auto row = range.first;
    for (const qnm::RunStats& run : runs) {
      INFO(name << " " << run.app);
      CHECK(run.app == row->second.app);
      CHECK(run.problem_class == row->second.problem_class);
      CHECK(run.wall_time_s == row->second.wall_time_s);
      CHECK((run.procs == row->second.procs || run.procs_requested == row->second.procs));
      if (qnm::Known(row->second.mops_total)) CHECK(run.mops_total == row->second.mops_total);
      ++row;
      ++compared;
    }
  }
  CHECK(compared == 789);
}

TEST_CASE("NPB 3.4.3 MPI banner: active processes, compile options", "[ingest][npb]") {
  std::vector<qnm::RunStats> runs = Runs("pi4-ntua_cg-C-16-4.out");
  REQUIRE(runs.size() == 1);
  const qnm::RunStats& run = runs[0];
  CHECK(run.app == "cg");
  CHECK(run.problem_class == "C");
  CHECK(run.problem_size == "150000");
  CHECK(run.iterations == 75);
  CHECK(run.wall_time_s == 308.78);
  CHECK(run.procs == 16);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.mops_total == 464.25);
  CHECK(run.mops_per_proc == 29.02);
  CHECK(run.verification == "SUCCESSFUL");
  CHECK(run.npb_version == "3.4.3");
  CHECK(run.details.at("npb.Compile date") == "29 Sep 2025");
  CHECK(run.details.count("npb.compile.MPIFC") == 1);
}

TEST_CASE("NPB-MZ banner: threads per process from Total threads", "[ingest][npb]") {
  std::string path = std::string(QNM_TEST_DATA_DIR) + "/mpip/npb-stdout/tpatki-npbmz__bt-mz.C.16.16.31948.1.out.dat";
  qnm::NpbOutput output = qnm::ParseNpbOutput(qnm::ReadFile(path), path);
  CHECK(output.mpip_report == "bt-mz.C.16.16.31948.1.mpiP");
  CHECK(output.mpip_version == "3.3.0");
  std::vector<qnm::RunStats> runs = qnm::NpbToRunStats(output);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].app == "bt-mz");
  CHECK(runs[0].problem_size == "480x  320x 28");
  CHECK(runs[0].iterations == 100);
  CHECK(runs[0].wall_time_s == 4.45);
  CHECK(runs[0].procs == 16);
  CHECK(runs[0].threads_per_proc == 8);  // Total threads 128 / 16 processes
  CHECK(runs[0].mops_total == 272649.80);
  CHECK(runs[0].verification == "UNSUCCESSFUL");
  CHECK(runs[0].details.at("npb.note1") == "NITER does not match the reference value of   200");
}

TEST_CASE("NPB-MZ single-process OpenMP run and serial banner", "[ingest][npb]") {
  std::vector<qnm::RunStats> runs = Runs("llnl-cab_lu-mz.C.np1.th4.omp.out");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 1);
  CHECK(runs[0].threads_per_proc == 4);
  CHECK(runs[0].wall_time_s == 99.69);
  CHECK(runs[0].iterations == 150);
  runs = Runs("uminho-search_ser_652_is.A.x.O3.out");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].app == "is");
  CHECK(runs[0].procs == 1);
  CHECK(runs[0].derivations.at("procs").find("serial") != std::string::npos);
}

TEST_CASE("a log with several banners and crashed runs gives one record per banner", "[ingest][npb]") {
  std::string path = kNpbDir + "/vc-ozmpc2_mpi_1_D.out";
  qnm::NpbOutput output = qnm::ParseNpbOutput(qnm::ReadFile(path), path);
  REQUIRE(output.banners.size() == 2);
  CHECK(output.banners[0].benchmark == "CG");
  CHECK(output.banners[0].line == 118);
  CHECK(output.banners[1].benchmark == "EP");
  CHECK_FALSE(output.problems.empty());  // FT/MG segmentation faults, IS process-range error
}

TEST_CASE("headless banners of post-processed logs take the benchmark from the file name", "[ingest][npb]") {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs =
      qnm::IngestPaths({kNpbDir + "/st-g5k_lu.B.64.ti.V.out"}, qnm::IngestOptions{true, false}, &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].app == "lu");
  CHECK(runs[0].problem_class == "B");
  CHECK(runs[0].procs == 64);
  CHECK(runs[0].wall_time_s == 17.00);
  CHECK(runs[0].machine.empty());  // the data-set tag "st-g5k" of the file name names no machine
  CHECK(runs[0].variant == "ti");
}

TEST_CASE("failed NPB runs are skipped with the reason quoted", "[ingest][npb]") {
  auto reason = [](const std::string& name) {
    std::string path = kNpbDir + "/" + name;
    try {
      qnm::ParseNpbOutput(qnm::ReadFile(path), path);
    } catch (const qnm::InputError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  CHECK(reason("pi4-ntua_cg-A-10.out").find("ERROR determining processor topology for 10 processes") !=
        std::string::npos);
  CHECK(reason("pi4-ntua_cg-A-10.out").find("pi4-ntua_cg-A-10.out:1:") != std::string::npos);
  CHECK(reason("pi4-ntua_lu-D-4-1.out").find("no NPB results banner") != std::string::npos);
  CHECK(reason("pi4-ntua_is-D-4-1.out").find("empty file") != std::string::npos);
  CHECK(reason("uminho-search_mpi_662_ep.A_eth_2.out").find("no run in it: the job failed before its program printed "
                                                            "one, or it is no NPB output (line ") != std::string::npos);
}

TEST_CASE("NPB versions, flavours and classes seen across the real logs", "[ingest][npb]") {
  qnm::IngestSummary summary;
  std::set<std::string> versions, apps;
  int unsuccessful = 0, threaded = 0;
  for (const qnm::RunStats& run : qnm::IngestPaths({kNpbDir}, qnm::IngestOptions{}, &summary)) {
    if (run.sources.front().find(".csv:") != std::string::npos) continue;
    versions.insert(run.npb_version);
    apps.insert(run.app);
    unsuccessful += run.verification == "UNSUCCESSFUL";
    threaded += run.threads_per_proc > 1;
  }
  CHECK(versions == std::set<std::string>{"3.3", "3.3.1", "3.4.2", "3.4.3"});
  CHECK(apps == std::set<std::string>{"bt", "bt-mz", "cg", "ep", "ft", "is", "lu", "lu-mz", "mg", "sp", "sp-mz"});
  CHECK(unsuccessful > 0);
  CHECK(threaded > 0);
}

TEST_CASE("NPB-MZ 'Number of zones' becomes the run's work units", "[ingest][npb][work-units]") {
  for (auto [file, zones] : {std::pair{"tpatki-npbmz__bt-mz.C.1.1.29993.1.out.dat", 256},
                             std::pair{"tpatki-npbmz__lu-mz.C.2.2.15941.1.out.dat", 16}}) {
    const std::string path = std::string(QNM_TEST_DATA_DIR) + "/mpip/npb-stdout/" + file;
    qnm::NpbOutput output = qnm::ParseNpbOutput(qnm::ReadFile(path), path);
    CHECK(output.zones == zones);
    std::vector<qnm::RunStats> runs = qnm::NpbToRunStats(output);
    REQUIRE(runs.size() == 1);
    CHECK(runs[0].work_units == zones);
    // LU-MZ's zones are of one size, BT-MZ's are not (granularity applies to the former only).
    CHECK(runs[0].work_units_equal == (runs[0].app == "lu-mz"));
  }
  // Plain NPB (no zones line): unknown.
  const std::string plain = std::string(QNM_TEST_DATA_DIR) + "/mpip/npb-stdout/tpatki-npbmz__bt-mz.C.1.1.29993.1.out.dat";
  qnm::NpbOutput damaged = qnm::ParseNpbOutput(
      [&] {
        std::string text = qnm::ReadFile(plain);
        text.replace(text.find("Number of zones:"), 16, "Number of zonez:");
        return text;
      }(),
      plain);
  CHECK(damaged.zones == 0);
}
