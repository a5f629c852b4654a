// `export` for Extra-P (issue 18): strong scaling writes time x p (what
// Extra-P's docs ask for, and what its CUBE reader does with --scaling
// strong), the call tree is consistent (children never above the parent),
// every metric the records hold is written, and the series' identity too.
// The model Extra-P 4.2 fits to this export is in docs/formats/extrap.md.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "command_runner.h"
#include "extrap/extrap_readers.h"
#include "ingest/ingest.h"
#include "pipeline/extrap_export.h"
#include "reader/series_identity.h"
#include "util/atomic_file.h"

using namespace qnm;

namespace {

std::vector<Series> BundledSeries() {
  IngestSummary summary;
  return GroupIntoSeries(IngestPaths({std::string(QNM_SOURCE_DIR) + "/data/default-series"}, {}, &summary),
                         GroupBy::kContent);
}

const ExportedMeasurement* Find(const ExtrapExport& experiment, const std::string& callpath, const std::string& metric) {
  for (const ExportedMeasurement& m : experiment.measurements)
    if (m.callpath == callpath && m.metric == metric) return &m;
  return nullptr;
}

}  // namespace

TEST_CASE("export: strong scaling writes time x p, a consistent tree, all metrics, the identity", "[export][extrap]") {
  std::vector<Series> series = BundledSeries();
  REQUIRE(series.size() == 1);
  const Series& bt = series[0];
  ExtrapExport strong = BuildExtrapExport(bt, ExtrapExportOptions{true});
  ExtrapExport plain = BuildExtrapExport(bt, ExtrapExportOptions{false});
  CHECK(strong.points == std::vector<int>{1, 2, 4, 8, 16});
  const ExportedMeasurement* root = Find(strong, "bt-mz", "time");
  const ExportedMeasurement* root_plain = Find(plain, "bt-mz", "time");
  REQUIRE(root != nullptr);
  REQUIRE(root_plain != nullptr);
  for (std::size_t g = 0; g < bt.groups.size(); ++g) {
    INFO("p = " << bt.groups[g].procs);
    REQUIRE(root->values[g].size() == bt.groups[g].runs.size());
    for (std::size_t r = 0; r < root->values[g].size(); ++r) {
      double time = bt.groups[g].runs[r].TotalTimeSeconds();
      CHECK(root_plain->values[g][r] == time);
      CHECK(root->values[g][r] == Approx(time * bt.groups[g].procs).epsilon(1e-15));
    }
  }
  // The bundled series: time x p grows with p (1 -> 16: 1.4x) while the time falls.
  CHECK(root->values[4][0] > root->values[0][0]);
  CHECK(root_plain->values[4][0] < root_plain->values[0][0]);

  // Consistent tree: MPI + compute = the root; the MPI functions add up to at most MPI.
  for (const ExtrapExport* experiment : {&strong, &plain}) {
    const ExportedMeasurement* total = Find(*experiment, "bt-mz", "time");
    const ExportedMeasurement* mpi = Find(*experiment, "bt-mz->MPI", "time");
    const ExportedMeasurement* compute = Find(*experiment, "bt-mz->compute", "time");
    REQUIRE(mpi != nullptr);
    REQUIRE(compute != nullptr);
    std::map<std::size_t, double> functions_s;
    int function_paths = 0;
    for (const ExportedMeasurement& m : experiment->measurements)
      if (m.metric == "time" && m.callpath.rfind("bt-mz->MPI->MPI_", 0) == 0) {
        ++function_paths;
        for (std::size_t g = 0; g < m.values.size(); ++g) functions_s[g] += m.values[g][0];
      }
    CHECK(function_paths == 4);  // Barrier, Bcast, Comm_split, Reduce: the functions called at every p
    for (std::size_t g = 0; g < total->values.size(); ++g) {
      CHECK(mpi->values[g][0] + compute->values[g][0] == Approx(total->values[g][0]).epsilon(1e-12));
      CHECK(compute->values[g][0] >= 0);
      CHECK(functions_s[g] <= mpi->values[g][0] * (1 + 1e-12));
    }
  }
  // The counts the records hold: visits and bytes per MPI function (summed over
  // the processes when strong: 16 x the per-process mean at p = 16).
  int visits = 0, bytes = 0;
  for (const ExportedMeasurement& m : strong.measurements) {
    visits += m.metric == "visits";
    bytes += m.metric == "bytes_sent";
  }
  CHECK(visits >= 5);
  CHECK(bytes >= 1);
  for (const ExportedMeasurement& m : strong.measurements) {
    if (m.metric != "visits" || m.callpath.find("->MPI->") == std::string::npos) continue;
    const ExportedMeasurement* per_process = Find(plain, m.callpath, "visits");
    REQUIRE(per_process != nullptr);
    CHECK(m.values[4][0] == Approx(16 * per_process->values[4][0]));
  }
  // The series' identity.
  std::map<std::string, std::string> identity(strong.identity.begin(), strong.identity.end());
  CHECK(identity["series"] == bt.name);
  CHECK(identity["app"] == "bt-mz");
  CHECK(identity["class"] == "C");
  CHECK(identity["threads_per_proc"] == std::to_string(bt.key.threads_per_proc));
  CHECK(identity["machine"] == (bt.key.machine.empty() ? "unknown" : bt.key.machine));
  CHECK(identity["scaling"] == "strong");

  std::string text = WriteExportText(strong);
  CHECK(text.find("# scaling: strong\n") != std::string::npos);
  CHECK(text.find("\nPARAMETER p\nPOINTS (1) (2) (4) (8) (16)\n\nREGION bt-mz\nMETRIC time\nDATA ") != std::string::npos);
  std::string jsonl = WriteExportJsonLines(strong);
  CHECK(jsonl.find("\"experiment\":{") != std::string::npos);
  CHECK(jsonl.find("\"scaling\":\"strong\"") != std::string::npos);
}

TEST_CASE("export: a strong-scaling export reads back as the series it came from", "[export][extrap][ingest]") {
  // Extra-P gets time x p; our reader divides by p again (the export names its
  // scaling) and takes the series' identity from the experiment.
  std::vector<Series> series = BundledSeries();
  REQUIRE(series.size() == 1);
  ExtrapExport strong = BuildExtrapExport(series[0], ExtrapExportOptions{true});
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "qnm-export-reread-test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string text = (dir / "bt.txt").string(), jsonl = (dir / "bt.jsonl").string();
  WriteFileAtomically(text, WriteExportText(strong));
  WriteFileAtomically(jsonl, WriteExportJsonLines(strong));
  for (const std::string& file : {text, jsonl}) {
    INFO(file);
    IngestSummary summary;
    std::vector<Series> again = GroupIntoSeries(IngestPaths({file}, IngestOptions{true, false}, &summary), GroupBy::kContent);
    REQUIRE(again.size() == 1);
    CHECK(again[0].name == series[0].name);
    CHECK(again[0].key.threads_per_proc == series[0].key.threads_per_proc);
    REQUIRE(again[0].groups.size() == series[0].groups.size());
    for (std::size_t g = 0; g < again[0].groups.size(); ++g) {
      CHECK(again[0].groups[g].procs == series[0].groups[g].procs);
      CHECK(again[0].groups[g].median_time_s == Approx(series[0].groups[g].median_time_s).epsilon(1e-14));
      const RunStats& read = again[0].groups[g].runs[0];
      const RunStats& original = series[0].groups[g].runs[0];
      CHECK(read.mpi_time_mean_s == Approx(original.mpi_time_mean_s).epsilon(1e-14));
      // The counts come back too (until issue 18 a re-read export had run times only).
      CHECK(read.messages_per_rank == Approx(original.messages_per_rank).epsilon(1e-14));
      CHECK(read.bytes_sent_per_rank == Approx(original.bytes_sent_per_rank).epsilon(1e-14));
      CHECK(read.mpi_calls_per_rank == Approx(original.mpi_calls_per_rank).epsilon(1e-14));
      CHECK(read.call_sites.size() >= 4);
    }
  }
  // predict on the re-read export still fits the queueing model.
  std::string out;
  REQUIRE(testing::RunCommand(std::string(QNM_CLI_PATH) + " predict --format json --procs 32 " + text + " 2>&1", &out) == 0);
  CHECK(out.find("\"kind\": \"queueing\"") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("export: a damaged export fails with one line naming file and line", "[export][extrap][robustness]") {
  std::vector<Series> series = BundledSeries();
  REQUIRE(series.size() == 1);
  std::string text = WriteExportText(BuildExtrapExport(series[0], ExtrapExportOptions{true}));
  REQUIRE(SniffQnmExport("bt.txt", text));
  std::string bad = text;
  bad.replace(bad.find("DATA 42.85"), 10, "DATA 42.8x");
  const int line = static_cast<int>(std::count(text.begin(), text.begin() + text.find("DATA 42.85"), '\n')) + 1;
  ReaderInput input{"bt.txt", bad, {}};
  CHECK_THROWS_WITH(ReadQnmExport(input), "bt.txt:" + std::to_string(line) + ": DATA needs non-negative numbers, got '42.8x'");
  std::string strange = text;
  strange.replace(strange.find("# scaling: strong"), 17, "# scaling: sideways");
  ReaderInput sideways{"bt.txt", strange, {}};
  CHECK_THROWS_WITH(ReadQnmExport(sideways), Catch::Contains("bt.txt:1: export names scaling 'sideways'"));
  std::string extra = text + "DATA 1\n";  // one DATA line more than POINTS
  ReaderInput more{"bt.txt", extra, {}};
  CHECK_THROWS_WITH(ReadQnmExport(more), Catch::Contains("more DATA lines than POINTS"));
}
