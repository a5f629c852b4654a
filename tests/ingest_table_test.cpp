// Statistics tables (CSV and JSON) and the `qnm-predict ingest` command line.
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "ingest/ingest.h"
#include "record/run_stats_json.h"
#include "tables/statistics_table.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kTables = std::string(QNM_TEST_DATA_DIR) + "/tables";

std::string ErrorOf(const std::string& name) {
  std::string path = kTables + "/" + name;
  std::string text = qnm::ReadFile(path);
  try {
    if (name.find(".json") != std::string::npos) qnm::ReadStatisticsJson(text, path);
    else qnm::ReadStatisticsCsv(text, path);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "accepted";
}

struct Command {
  int status;
  std::string out, err;
};

Command RunCli(const std::string& arguments) {
  std::string dir = std::filesystem::temp_directory_path() / "qnm_ingest_cli";
  std::filesystem::create_directories(dir);
  std::string command = std::string(QNM_CLI_PATH) + " " + arguments + " > " + dir + "/out 2> " + dir + "/err";
  int status = std::system(command.c_str());
  return {status, qnm::ReadFile(dir + "/out"), qnm::ReadFile(dir + "/err")};
}

}  // namespace

TEST_CASE("CSV statistics table: series, procs, time_s and optional columns", "[ingest][table]") {
  std::string path = kTables + "/lu_b_g5k_median.csv";
  std::vector<qnm::RunStats> runs = qnm::ReadStatisticsCsv(qnm::ReadFile(path), path);
  REQUIRE(runs.size() == 6);
  CHECK(runs[0].series == "lu.B g5k td");
  CHECK(runs[0].procs == 4);
  CHECK(runs[0].wall_time_s == 65.57);
  CHECK(runs[0].mops_total == 7607.26);
  CHECK(runs[0].machine == "g5k-graphene");
  CHECK(runs[5].procs == 128);
  CHECK(runs[0].sources[0] == path + ":3");  // comment line, header, first row
  std::vector<qnm::Series> series = qnm::GroupIntoSeries(runs);
  REQUIRE(series.size() == 1);
  CHECK(series[0].name == "lu.B g5k td");
  CHECK(series[0].groups.size() == 6);
}

TEST_CASE("JSON statistics table with per-rank summaries and repeats", "[ingest][table]") {
  std::string path = kTables + "/bt_mz_cab.json";
  std::vector<qnm::RunStats> runs = qnm::ReadStatisticsJson(qnm::ReadFile(path), path);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].threads_per_proc == 16);
  CHECK(runs[0].mpi_time_mean_s == 0.2625);
  CHECK(runs[0].compute_time_mean_s == Approx(11.0 - 0.2625));
  CHECK(runs[0].bytes_per_message == Approx(2.5e8 / 3190));
  CHECK(runs[2].details.at("run") == "repeat 2");
  std::vector<qnm::Series> series = qnm::GroupIntoSeries(runs);
  REQUIRE(series.size() == 1);
  REQUIRE(series[0].groups.size() == 2);
  CHECK(series[0].groups[1].median_time_s == Approx(2.88));
}

TEST_CASE("the NPB data set's npb_runs.csv reads with its own column names", "[ingest][table]") {
  std::string path = std::string(QNM_TEST_DATA_DIR) + "/npb/npb_runs.csv";
  std::vector<qnm::RunStats> runs = qnm::ReadStatisticsCsv(qnm::ReadFile(path), path);
  CHECK(runs.size() == 799);
  CHECK(runs[0].app == "lu");
  CHECK(runs[0].procs == 8);
  CHECK(runs[0].wall_time_s == 39.68);
}

TEST_CASE("extra table columns are ignored with one note naming them", "[ingest][table]") {
  // Other tools' tables carry columns of their own (issue 18: n_runs, a
  // second time); they are read, not refused, and the note says what was left out.
  std::vector<std::string> notes;
  std::string csv = kTables + "/extra_column.csv";
  std::vector<qnm::RunStats> runs = qnm::ReadStatisticsCsv(qnm::ReadFile(csv), csv, &notes);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].wall_time_s == 1.0);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] == csv + ": column 'wallclock' ignored (not a record field; docs/statistics-table.md lists them)");
  notes.clear();
  std::string json = kTables + "/extra_key.json";
  runs = qnm::ReadStatisticsJson(qnm::ReadFile(json), json, &notes);
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].procs == 4);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("column 'cores' ignored") != std::string::npos);
}

TEST_CASE("a spreadsheet's CSV UTF-8 export (a byte-order mark first) reads as the same table", "[ingest][table]") {
  // tests/data/tables/sizes_two_problems.csv as a spreadsheet saves it: the mark is no part of the
  // first column's name (`size`, or `nprocs` read as procs).
  const std::string plain = qnm::ReadFile(kTables + "/sizes_two_problems.csv");
  std::vector<std::string> notes, readings;
  const std::vector<qnm::RunStats> runs =
      qnm::ReadStatisticsCsv("\xEF\xBB\xBF" + plain, "marked.csv", &notes, nullptr, &readings);
  REQUIRE(runs.size() == 6);
  CHECK(runs[1].problem_size == "2000000000");
  CHECK(runs[1].wall_time_s == 3.2911);
  CHECK(notes.empty());
  const std::string renamed = "\xEF\xBB\xBFnprocs,runtime\n1,10\n2,5\n";
  const std::vector<qnm::RunStats> aliased = qnm::ReadStatisticsCsv(renamed, "runs.csv");
  REQUIRE(aliased.size() == 2);
  CHECK(aliased[1].procs == 2);
  CHECK(aliased[1].wall_time_s == 5.0);
}

TEST_CASE("blank lines in a table are skipped, as comments are", "[ingest][table]") {
  // hpx_fft's FFTW-MPI timings end in an empty line (the last of 402): it was "too few columns".
  const std::string text = "procs;time_s;series;\n\n1;6.97;fft;\n  \n2;3.5;fft;\n# note\n4;1.8;fft;\n\n";
  const std::vector<qnm::RunStats> runs = qnm::ReadStatisticsCsv(text, "fft.csv");
  REQUIRE(runs.size() == 3);
  CHECK(runs[2].procs == 4);
  CHECK(runs[2].sources[0] == "fft.csv:7");
}

TEST_CASE("bad statistics tables fail with file:line and the column", "[ingest][table]") {
  CHECK(ErrorOf("bad_value.csv").find("bad_value.csv:3: column 'procs' needs a positive integer") !=
        std::string::npos);
  CHECK_THROWS_AS(qnm::ReadStatisticsCsv("series,procs\na,2\n", "x.csv"), qnm::InputError);
  CHECK_THROWS_AS(qnm::ReadStatisticsJson("[{\"series\": \"a\", \"procs\": 2, \"time_s\": ", "x.json"),
                  qnm::InputError);
}

TEST_CASE("CSV output reads back as a statistics table", "[ingest][table]") {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs =
      qnm::IngestPaths({std::string(QNM_TEST_DATA_DIR) + "/mpip/npb-stdout",
                        std::string(QNM_TEST_DATA_DIR) + "/mpip/tpatki-npbmz__sp-mz.C.8.8.107849.1.mpiP"},
                       qnm::IngestOptions{}, &summary);
  std::string csv = qnm::RunsToCsv(runs);
  std::vector<qnm::RunStats> back = qnm::ReadStatisticsCsv(csv, "roundtrip.csv");
  REQUIRE(back.size() == runs.size());
  for (std::size_t k = 0; k < runs.size(); ++k) {
    CHECK(back[k].procs == runs[k].procs);
    CHECK(back[k].threads_per_proc == runs[k].threads_per_proc);
    CHECK(back[k].wall_time_s == runs[k].TotalTimeSeconds());
    CHECK(qnm::KeyOf(back[k]) == qnm::KeyOf(runs[k]));
  }
}

TEST_CASE("qnm-predict ingest: formats, summary, strict mode, show", "[ingest][cli]") {
  Command table = RunCli("ingest " + std::string(QNM_TEST_DATA_DIR) + "/mpip --series");
  CHECK(table.status == 0);
  CHECK(table.out.find("bt-mz.C th=12 @cab") != std::string::npos);
  CHECK(table.err.find("ingest: read 151 of 152 files") != std::string::npos);
  CHECK(table.err.find("60 files paired") != std::string::npos);
  CHECK(table.err.find("SOURCES.md: not a recognised format\n") != std::string::npos);
  // The formats read are listed once, on the count of such files, not after each of them.
  const std::size_t list = table.err.find("x not a recognised format (mpiP report, ");
  CHECK(list != std::string::npos);
  CHECK(table.err.find("(mpiP report, ", list + 30) == std::string::npos);

  std::string out = std::filesystem::temp_directory_path() / "qnm_ingest_cli" / "runs.json";
  Command json = RunCli("ingest " + std::string(QNM_TEST_DATA_DIR) + "/mpip/npb-stdout -o " + out);
  CHECK(json.status == 0);
  nlohmann::json document = nlohmann::json::parse(qnm::ReadFile(out));
  CHECK(document["runs"].size() == 60);

  Command strict = RunCli("ingest --strict " + kTables);
  CHECK(strict.status != 0);
  CHECK(strict.err.find("bad_value.csv:3: column 'procs' needs a positive integer") != std::string::npos);

  Command show = RunCli("ingest --show " + std::string(QNM_TEST_DATA_DIR) + "/mpip/nunatak__mpi_workload.4.2586003.1.mpiP");
  CHECK(show.status == 0);
  CHECK(show.out.find("Collector PID: 2586003") != std::string::npos);
  CHECK(show.out.find("0x79d9e602208c [unknown] -> Send") != std::string::npos);
  CHECK(show.out.find("\"derivations\"") != std::string::npos);

  Command missing = RunCli("ingest /nonexistent/dir");
  CHECK(missing.status != 0);
  CHECK(missing.err.find("/nonexistent/dir: no such file or directory") != std::string::npos);
}

TEST_CASE("JSON output reads back as the same records, per-rank data included", "[ingest][table]") {
  qnm::IngestSummary summary;
  std::vector<qnm::RunStats> runs = qnm::IngestPaths(
      {std::string(QNM_TEST_DATA_DIR) + "/mpip/npb-stdout/tpatki-npbmz__lu-mz.C.4.4.16254.1.out.dat",
       std::string(QNM_TEST_DATA_DIR) + "/mpip/tpatki-npbmz__lu-mz.C.4.4.16254.1.mpiP",
       std::string(QNM_TEST_DATA_DIR) + "/mpip/cenat__CoMD-mpi.64.241516.1.mpiP"},
      qnm::IngestOptions{true, false}, &summary);
  REQUIRE(runs.size() == 2);
  std::vector<qnm::RunStats> back = qnm::ReadStatisticsJson(qnm::RunsToJson(runs), "roundtrip.json");
  REQUIRE(back.size() == 2);
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const qnm::RunStats& a = runs[k];
    const qnm::RunStats& b = back[k];
    CHECK(qnm::KeyOf(a) == qnm::KeyOf(b));
    CHECK(a.procs == b.procs);
    CHECK(a.TotalTimeSeconds() == b.TotalTimeSeconds());
    CHECK((a.wall_time_s == b.wall_time_s || (!qnm::Known(a.wall_time_s) && !qnm::Known(b.wall_time_s))));
    CHECK(a.app_time_s_per_rank == b.app_time_s_per_rank);
    CHECK(a.mpi_time_s_per_rank == b.mpi_time_s_per_rank);
    CHECK(a.p2p_bytes_sent_per_rank == b.p2p_bytes_sent_per_rank);
    CHECK(a.comm_matrix_bytes == b.comm_matrix_bytes);
    REQUIRE(a.call_sites.size() == b.call_sites.size());
    for (std::size_t s = 0; s < a.call_sites.size(); ++s) {
      CHECK(a.call_sites[s].time_s_per_rank == b.call_sites[s].time_s_per_rank);
      CHECK(a.call_sites[s].activity == b.call_sites[s].activity);
      CHECK(a.call_sites[s].source_location == b.call_sites[s].source_location);
    }
    CHECK(a.derivations == b.derivations);
    CHECK(a.details == b.details);
  }
}

TEST_CASE("table: rows of other series are dropped as the table is read (--series)", "[ingest][table][memory]") {
  const std::string csv = "series,procs,time_s\nalpha,1,10\nbeta,1,12\nAlphaBeta,2,6\nbeta,2,6.5\nalpha,2,5.1\n";
  qnm::TableRowFilter filter{"ALPHA", 0};
  std::vector<qnm::RunStats> runs = qnm::ReadStatisticsCsv(csv, "f.csv", nullptr, &filter);
  REQUIRE(runs.size() == 3);
  CHECK(filter.dropped == 2);
  CHECK(runs[0].series == "alpha");
  CHECK(runs[1].series == "AlphaBeta");
  CHECK(runs[2].wall_time_s == Approx(5.1));
  // Rows kept by the filter are the rows the unfiltered reader gives for those series.
  std::vector<qnm::RunStats> all = qnm::ReadStatisticsCsv(csv, "f.csv");
  CHECK(all.size() == 5);
  CHECK(all[2].sources == runs[1].sources);
  // A table whose rows are all of other series reads as no run, not as an error.
  qnm::TableRowFilter none{"gamma", 0};
  CHECK(qnm::ReadStatisticsJson("[{\"series\": \"a\", \"procs\": 1, \"time_s\": 2}]", "g.json", nullptr, &none).empty());
  CHECK(none.dropped == 1);
  // The records of one table share one derivations map until one is changed.
  CHECK(all[0].derivations == all[1].derivations);
  CHECK(all[0].derivations.at("wall_time_s") == "statistics table column time_s");
  all[0].derivations["wall_time_s"] = "changed";
  CHECK(all[1].derivations.at("wall_time_s") == "statistics table column time_s");
}
