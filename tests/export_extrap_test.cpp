// `export` for Extra-P (issue 18): strong scaling writes time x p (what
// Extra-P's docs ask for, and what its CUBE reader does with --scaling
// strong), the call tree is consistent (children never above the parent),
// every metric the records hold is written, and the series' identity too.
// The model Extra-P 4.2 fits to this export is in docs/formats/extrap.md.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "ingest/series_identity.h"
#include "pipeline/extrap_export.h"

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
