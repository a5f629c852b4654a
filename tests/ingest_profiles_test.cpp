// Arm (Linaro Forge) Performance Reports text and OTF-CPT output read into
// the run record (tests/data/profiles, SOURCES.md there): the values below
// are copied from the files by hand, so a reader that reads the wrong line
// or the wrong unit fails.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "command_runner.h"
#include "ingest/ingest.h"
#include "profiles/profile_readers.h"
#include "reader/series_identity.h"
#include "textio/text_lines.h"
#include "ingest_test_util.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

using namespace qnm;

namespace {

const std::string kProfiles = std::string(QNM_TEST_DATA_DIR) + "/profiles";

RunStats ReadOneRun(const std::string& path) {
  std::vector<RunStats> runs = IngestPaths({path}, IngestOptions{true, false}, nullptr);
  REQUIRE(runs.size() == 1);
  return runs[0];
}

double Detail(const RunStats& run, const std::string& key) { return testing::DetailNumber(run, key); }
using qnm::testing::RunCli;

}  // namespace

TEST_CASE("Arm Performance Reports: wall time, compute/MPI/I-O shares, collective vs point-to-point",
          "[ingest][profiles]") {
  // benchmark_parconnect_44p_1n_2016-10-28_18-32.txt: "Total time: 183 seconds",
  // Compute 63.6%, MPI 36.4%, I/O 0.0%, collective 97.9% / point-to-point 2.1% of MPI.
  RunStats run = ReadOneRun(kProfiles + "/arm-performance-reports/benchmark_parconnect_44p_1n_2016-10-28_18-32.txt");
  CHECK(run.procs == 44);
  CHECK(run.nodes == 1);
  CHECK(run.ranks_per_node == 44);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.app == "benchmark_parconnect");
  CHECK(run.problem_class == "--input dbg --file 20000000.fastq");
  CHECK(run.hosts == std::vector<std::string>{"node5"});
  CHECK(run.wall_time_s == 183);
  CHECK(run.app_time_mean_s == 183);
  CHECK(run.compute_time_mean_s == Approx(183 * 0.636));
  CHECK(run.mpi_time_mean_s == Approx(183 * 0.364));
  CHECK(Detail(run, "io_time_mean_s") == 0);
  CHECK(Detail(run, "mpi_collective_time_mean_s") == Approx(183 * 0.364 * 0.979).epsilon(1e-9));
  CHECK(Detail(run, "mpi_p2p_time_mean_s") == Approx(183 * 0.364 * 0.021).epsilon(1e-9));
  CHECK(Detail(run, "Effective process collective rate (bytes/s)") == 2.75e8);
  CHECK(Detail(run, "Peak process memory usage (bytes)") == 1.63e9);

  // "input/20,000,000.fastq" is the same input as "input/20000000.fastq": one series.
  RunStats spelled = ReadOneRun(kProfiles + "/arm-performance-reports/benchmark_parconnect_12p_1n_2016-10-29_13-55.txt");
  CHECK(spelled.problem_class == run.problem_class);
  CHECK(spelled.procs == 12);
  CHECK(spelled.wall_time_s == 222);
  CHECK(spelled.mpi_time_mean_s == Approx(222 * 0.336));
  // One process: "Tasks: 1 process", no MPI time.
  RunStats one = ReadOneRun(kProfiles + "/arm-performance-reports/benchmark_parconnect_1p_1n_2016-10-29_14-18.txt");
  CHECK(one.procs == 1);
  CHECK(one.wall_time_s == 1105);
  CHECK(one.mpi_time_mean_s == 0);
  // 8 nodes of 40 ranks.
  RunStats eight = ReadOneRun(kProfiles + "/arm-performance-reports/benchmark_parconnect_320p_8n_2016-11-05_10-14.txt");
  CHECK(eight.nodes == 8);
  CHECK(eight.ranks_per_node == 40);
  CHECK(eight.problem_class == "--input dbg --file 40000000.fastq");
  CHECK(eight.mpi_time_mean_s == Approx(118 * 0.714));
}

TEST_CASE("Arm Performance Reports: the folder ingests into series by input", "[ingest][profiles]") {
  IngestSummary summary;
  std::vector<Series> series =
      GroupIntoSeries(IngestPaths({kProfiles + "/arm-performance-reports"}, IngestOptions{}, &summary), GroupBy::kContent);
  CHECK(summary.runs == 23);
  REQUIRE(series.size() == 3);  // inputs 20M, 30M, 40M (machine: the host stem "node")
  const Series* small = nullptr;
  for (const Series& one : series)
    if (one.key.problem_class.find("20000000") != std::string::npos) small = &one;
  REQUIRE(small != nullptr);
  std::vector<int> procs;
  for (const RunGroup& group : small->groups) procs.push_back(group.procs);
  CHECK(procs == std::vector<int>{1, 4, 12, 24, 44});
  CHECK(small->groups.back().runs.size() == 6);  // six 44-rank runs of the 20M input
  for (const RunGroup& group : small->groups)
    for (const RunStats& run : group.runs) {
      CHECK(Known(run.compute_time_mean_s));
      CHECK(Known(run.mpi_time_mean_s));
    }
}

TEST_CASE("OTF-CPT: runtime, computation average and maximum, collectives, POP factors", "[ingest][profiles]") {
  RunStats run = ReadOneRun(kProfiles + "/otf-cpt/data-64x12.txt");
  CHECK(run.procs == 64);
  CHECK(run.threads_per_proc == 12);
  CHECK(run.app == "data");
  CHECK(run.wall_time_s == 40.009749);
  CHECK(run.compute_time_mean_s == 32.554688);
  CHECK(Detail(run, "compute_time_max_s") == 33.338641);
  CHECK(Detail(run, "compute_load_balance") == Approx(32.554688 / 33.338641).margin(1e-6));
  CHECK(Detail(run, "pop_load_balance") == 0.976485);  // OTF-CPT's own: the same ratio
  CHECK(Detail(run, "pop_parallel_efficiency") == 0.813669);
  CHECK(Detail(run, "pop_omp_transfer_efficiency") == 0.999768);
  CHECK(run.mpi_time_mean_s == Approx(40.009749 * (1 - 0.834923)));
  CHECK(Detail(run, "mpi_collective_calls_total") == 196224);
  CHECK(Detail(run, "mpi_collective_calls_per_proc") == 3066);
  // MPI and compute never exceed the run time (the rest is OpenMP overhead).
  CHECK(run.mpi_time_mean_s + run.compute_time_mean_s <= run.wall_time_s);

  IngestSummary summary;
  std::vector<Series> series =
      GroupIntoSeries(IngestPaths({kProfiles + "/otf-cpt"}, IngestOptions{}, &summary), GroupBy::kContent);
  REQUIRE(series.size() == 1);
  std::vector<int> procs;
  for (const RunGroup& group : series[0].groups) procs.push_back(group.procs);
  CHECK(procs == std::vector<int>{64, 128, 256, 512, 1024});
  CHECK(series[0].groups.back().runs[0].wall_time_s == 17.400619);
  CHECK(series[0].groups.back().runs[0].mpi_time_mean_s == Approx(17.400619 * (1 - 0.172767)));
}

TEST_CASE("damaged profiles fail with one line naming the file and line", "[ingest][profiles][robustness]") {
  std::string arm = ReadFile(kProfiles + "/arm-performance-reports/benchmark_parconnect_44p_1n_2016-10-28_18-32.txt");
  std::string bad_share = arm;
  bad_share.replace(bad_share.find("63.6%"), 5, "6x.6%");
  ReaderInput input{"bad.txt", bad_share, {}};
  REQUIRE(SniffArmPerformanceReport(input.path, input.text));
  try {
    ReadArmPerformanceReport(input);
    FAIL("a bad share was read");
  } catch (const InputError& error) {
    CHECK(std::string(error.what()).find("bad.txt:14: 'Compute' needs a percentage") == 0);
  }
  std::string no_time = arm;
  no_time.replace(no_time.find("Total time:"), 11, "Total tim3:");
  ReaderInput missing{"missing.txt", no_time, {}};
  CHECK(SniffArmPerformanceReport(missing.path, missing.text) == false);  // not taken as a report at all

  std::string cpt = ReadFile(kProfiles + "/otf-cpt/data-64x12.txt");
  std::string bad_number = cpt;
  bad_number.replace(bad_number.find("40.009749\n"), 9, "40.0o9749");
  ReaderInput cpt_input{"bad-64x12.txt", bad_number, {}};
  REQUIRE(SniffOtfCptReport(cpt_input.path, cpt_input.text));
  CHECK_THROWS_WITH(ReadOtfCptReport(cpt_input), Catch::Contains("bad-64x12.txt:") &&
                                                     Catch::Contains("'Total runtime (in s)' needs a non-negative number"));
}

TEST_CASE("predict uses the profiles' compute and MPI time", "[ingest][profiles][predict][cli]") {
  std::string out;
  REQUIRE(RunCli("predict --format json --procs 2048 " + kProfiles + "/otf-cpt", &out) == 0);
  CHECK(out.find("\"kind\": \"queueing\"") != std::string::npos);
  REQUIRE(RunCli("predict --format json --procs 88 --series 20000000 " + kProfiles + "/arm-performance-reports", &out) == 0);
  CHECK(out.find("\"kind\": \"queueing\"") != std::string::npos);
}

TEST_CASE("truncated and bit-flipped profiles and exports give records or one InputError, nothing else",
          "[ingest][profiles][robustness]") {
  // The same kind of damage the robustness campaign applies (tests/robustness):
  // cut at many lengths, one byte flipped at many places.
  struct Case {
    std::string path;
    bool (*sniff)(const std::string&, std::string_view);
    ReaderOutput (*read)(const ReaderInput&);
  };
  const std::vector<Case> cases = {
      {kProfiles + "/arm-performance-reports/benchmark_parconnect_88p_2n_2016-11-05_02-24.txt",
       SniffArmPerformanceReport, ReadArmPerformanceReport},
      {kProfiles + "/otf-cpt/data-1024x12.txt", SniffOtfCptReport, ReadOtfCptReport},
  };
  int records = 0, errors = 0;
  for (const Case& one : cases) {
    const std::string original = ReadFile(one.path);
    std::vector<std::string> damaged;
    for (std::size_t cut = 0; cut < original.size(); cut += 7) damaged.push_back(original.substr(0, cut));
    for (std::size_t at = 0; at < original.size(); at += 5) {
      std::string flipped = original;
      flipped[at] = static_cast<char>(flipped[at] ^ 0x24);
      damaged.push_back(flipped);
    }
    for (const std::string& text : damaged) {
      ReaderInput input{one.path, text, {}};
      if (!one.sniff(input.path, input.text)) continue;
      try {
        ReaderOutput output = one.read(input);
        REQUIRE(output.runs.size() == 1);
        CHECK(output.runs[0].procs > 0);
        ++records;
      } catch (const InputError& error) {
        CHECK(std::string(error.what()).find('\n') == std::string::npos);
        ++errors;
      }
    }
  }
  CHECK(records > 0);
  CHECK(errors > 0);
}
