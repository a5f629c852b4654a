// A campaign of one folder per run where some runs have no mpiP report (the job died before
// mpiP wrote it, the file was lost): the queueing model is fitted to the profiled process counts
// when at least three have a report, the largest training P among them, and the others' measured
// times are shown beside the model, not fitted (models/prediction.cpp, SelectTraining). Real
// runs: SP-MZ class C, 8 threads per process, on LLNL cab (bench/data/mpip-scaling).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "models/prediction.h"
#include "tests/support/model_notes.h"
#include <nlohmann/json.hpp>

#include "pipeline/prediction_report.h"
#include "pipeline/prediction_runner.h"
#include "pipeline/series_loading.h"

namespace fs = std::filesystem;

namespace {

using qnm::testing::HasNoteContaining;

fs::path SpMz() { return fs::path(QNM_TEST_DATA_DIR) / ".." / ".." / "bench" / "data" / "mpip-scaling" / "SP-MZ-th8"; }

/// The P of a run folder, from its mpiP report's name (sp-mz.C.<P>.<P>.<pid>.1.mpiP).
int ProcsOfRunFolder(const fs::path& folder) {
  for (const fs::directory_entry& file : fs::directory_iterator(folder)) {
    const std::string name = file.path().filename().string();
    if (file.path().extension() == ".mpiP") return std::stoi(name.substr(std::string("sp-mz.C.").size()));
  }
  return 0;
}

/// Folders removed with their contents when the test program ends.
struct TempFolders {
  std::vector<fs::path> paths;
  ~TempFolders() {
    std::error_code ignored;
    for (const fs::path& path : paths) fs::remove_all(path, ignored);
  }
};

/// The campaign's runs at P <= 16 copied into a fresh folder, the mpiP reports of the runs at
/// `without_report` left out (their NPB output and info files stay).
fs::path CampaignWithout(const std::set<int>& without_report, const std::string& tag) {
  static TempFolders made;
  const fs::path out = fs::temp_directory_path() / ("qnm-unprofiled-" + tag);
  made.paths.push_back(out);
  fs::remove_all(out);
  fs::create_directories(out);
  for (const fs::directory_entry& run : fs::directory_iterator(SpMz())) {
    if (!run.is_directory()) continue;
    const int procs = ProcsOfRunFolder(run.path());
    if (procs == 0 || procs > 16) continue;
    const fs::path copy = out / run.path().filename();
    fs::create_directories(copy);
    for (const fs::directory_entry& file : fs::directory_iterator(run.path()))
      if (!(file.path().extension() == ".mpiP" && without_report.count(procs)))
        fs::copy_file(file.path(), copy / file.path().filename());
  }
  return out;
}

qnm::SeriesModel Fit(const fs::path& campaign) {
  std::vector<qnm::Series> series = qnm::LoadSeries({campaign.string()}, "", nullptr);
  REQUIRE(series.size() == 1);
  REQUIRE(series[0].groups.size() == 5);
  qnm::SeriesModel model;
  std::string error;
  REQUIRE(qnm::FitSeriesModel(series[0], {}, qnm::PredictionOptions(), &model, &error));
  return model;
}

}  // namespace

TEST_CASE("a run without its mpiP report leaves the queueing model fitted to the others", "[predict][real]") {
  const qnm::SeriesModel full = Fit(CampaignWithout({}, "none"));
  const qnm::SeriesModel partial = Fit(CampaignWithout({4}, "p4"));
  REQUIRE(full.kind == qnm::ModelKind::kQueueing);
  REQUIRE(partial.kind == qnm::ModelKind::kQueueing);
  CHECK(full.unprofiled.empty());
  REQUIRE(partial.training.size() == 4);
  REQUIRE(partial.unprofiled.size() == 1);
  CHECK(partial.unprofiled[0].procs == 4);
  CHECK(partial.unprofiled[0].measured_time_s == Approx(28.63));  // out.dat's "Time in seconds"
  CHECK_FALSE(partial.unprofiled[0].has_components);
  CHECK(HasNoteContaining(partial, "P=4 has no MPI profile: the queueing model is fitted to the 4 training"));
  // The four profiled runs say what the five did: within 2% at P = 32..128 (4.35, 2.52, 1.63 s;
  // SP-MZ's imbalance is fitted over every run, so leaving P = 4's out moves P = 128 by 1.2%).
  for (int procs : {32, 64, 128}) {
    INFO("P=" << procs);
    const qnm::ProcsPrediction a = full.Predict(procs), b = partial.Predict(procs);
    REQUIRE(a.Ok());
    REQUIRE(b.Ok());
    CHECK(std::fabs(std::log(b.total.value_s / a.total.value_s)) < 0.02);
    CHECK(b.compute.value_s > 0);
    CHECK(b.mpi_active.value_s > 0);
  }
  // A user sees the unprofiled P's measured time beside the model's (predict's table and JSON).
  std::vector<qnm::Series> series = qnm::LoadSeries({CampaignWithout({4}, "p4-run").string()}, "", nullptr);
  const std::vector<qnm::SeriesPrediction> runs = qnm::RunPredict(series, {4, 32}, qnm::PredictionOptions());
  REQUIRE(runs.size() == 1);
  std::vector<int> observed;
  for (const qnm::ProcsObservation& o : runs[0].observed) observed.push_back(o.procs);
  CHECK(observed == std::vector<int>{1, 2, 4, 8, 16});
  const auto at4 = std::find_if(runs[0].predictions.begin(), runs[0].predictions.end(),
                                [](const qnm::ProcsPrediction& p) { return p.procs == 4; });
  REQUIRE(at4 != runs[0].predictions.end());
  CHECK(std::fabs(at4->total.value_s / 28.63 - 1) < 0.05);  // the model, not the measurement
  // JSON: fitted on 1, 2, 8, 16; P = 4 measured and named as not fitted.
  const nlohmann::json json = nlohmann::json::parse(qnm::FormatPredictions(runs, "json", "test"));
  const nlohmann::json& model = json["series"][0]["model"];
  CHECK(model["training_procs"] == nlohmann::json({1, 2, 8, 16}));
  CHECK(model["unprofiled_procs"] == nlohmann::json({4}));
}

TEST_CASE("without a report at the largest training P, or with fewer than three, the runtime-only model",
          "[predict][real]") {
  for (const std::set<int>& missing : {std::set<int>{16}, std::set<int>{1, 2, 4}}) {
    const qnm::SeriesModel model = Fit(CampaignWithout(missing, "fallback"));
    INFO("without the reports of " << missing.size() << " runs");
    CHECK(model.kind == qnm::ModelKind::kRuntimeOnly);
    CHECK(model.training.size() == 5);  // every measured time is a training point
    CHECK(model.unprofiled.empty());
    CHECK(HasNoteContaining(model, "some training process counts have no MPI profile"));
  }
}
