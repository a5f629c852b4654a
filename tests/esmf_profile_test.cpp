// ESMF profile summaries (app_outputs/esmf_profile.h) on the test inputs of ACCESS-NRI's access-profiling
// ESMF summary parser (tests/data/esmf-profile/SOURCES.md): every region's name, count, mean, min and max,
// and which PET had them, as that parser's tests expect it to read them; the input it refuses is refused.
#include "app_outputs/esmf_profile.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kFolder = std::string(QNM_TEST_DATA_DIR) + "/esmf-profile";


std::string Refusal(const std::string& text, const std::string& path = "run/ESMF_Profile.summary") {
  try {
    qnm::EsmfProfileToRunStats(qnm::ParseEsmfProfileSummary(text, path), path);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

const char kHeader[] =
    "Region                         PETs   PEs    Count    Mean (s)    Min (s)     Min PET Max (s)     Max PET\n";

}  // namespace

TEST_CASE("ESMF profile summary: what access-profiling reads, and the record of the whole run", "[esmf]") {
  const std::string path = kFolder + "/ESMF_Profile.summary";
  const std::string text = qnm::ReadFile(path);
  REQUIRE(qnm::LooksLikeEsmfProfileSummary(text));
  const std::vector<qnm::EsmfRegion> regions = qnm::ParseEsmfProfileSummary(text, path);
  // access-profiling's flat_esmf_summary_profiling.
  const std::vector<std::string> names = {"[ESMF]",          "[ICE] RunPhase1", "cice_run_total",
                                          "cice_run_import", "cice_run_export", "[MED-TO-OCN] RunPhase1"};
  const std::vector<double> count = {1, 960, 960, 960, 960, 960};
  const std::vector<double> mean = {2558.5684, 155.8202, 155.4648, 3.7565, 1.1015, 16.7498};
  const std::vector<double> min = {2555.1450, 154.7637, 154.3687, 3.5426, 0.8846, 0.4588};
  const std::vector<double> max = {2559.5801, 160.2443, 159.8980, 8.3892, 1.3607, 23.2875};
  const std::vector<int> depth = {1, 2, 3, 4, 4, 2};
  REQUIRE(regions.size() == names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    INFO(names[i]);
    CHECK(regions[i].name == names[i]);
    CHECK(regions[i].count == count[i]);
    CHECK(regions[i].mean_s == mean[i]);
    CHECK(regions[i].min_s == min[i]);
    CHECK(regions[i].max_s == max[i]);
    CHECK(regions[i].depth == depth[i]);
  }
  CHECK(regions[0].line == 9);
  CHECK(regions[0].pets == 1664);
  CHECK(regions[1].pets == 364);

  const qnm::RunStats run = qnm::EsmfProfileToRunStats(regions, path);
  CHECK(run.procs == 1664);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.wall_time_s == 2559.5801);
  CHECK(run.app_time_mean_s == 2558.5684);
  CHECK(run.details.at("esmf_regions") == "6");
  CHECK(run.app.str() == "esmf");  // ESMF_Profile.summary names no model
}

TEST_CASE("ESMF profile summaries are read by ingest; a region listed twice; the refused input", "[esmf][ingest]") {
  qnm::IngestSummary summary;
  qnm::IngestOptions options;
  const std::vector<qnm::RunStats> runs =
      qnm::IngestPaths({kFolder + "/ESMF_Profile.summary", kFolder + "/duplicate-region"}, options, &summary);
  REQUIRE(runs.size() == 2);
  // access-profiling's duplicate_region_profiling: [ESMF] 10 s mean, 9 s min, 11 s max on 1,664 PETs.
  const std::vector<qnm::EsmfRegion> duplicate =
      qnm::ParseEsmfProfileSummary(qnm::ReadFile(kFolder + "/duplicate-region/ESMF_Profile.summary"), "d");
  REQUIRE(duplicate.size() == 3);
  CHECK(duplicate[1].name == "[NEST1] region1");
  CHECK(duplicate[2].name == "[NEST1] region1");
  CHECK(duplicate[1].count + duplicate[2].count == 2880);
  const qnm::RunStats whole = qnm::EsmfProfileToRunStats(duplicate, "d");
  CHECK(whole.wall_time_s == 11.0);
  CHECK(whole.app_time_mean_s == 10.0);

  // Without its header the rows are no summary (access-profiling refuses them too).
  CHECK_FALSE(qnm::LooksLikeEsmfProfileSummary(qnm::ReadFile(kFolder + "/refused/ESMF_Profile.summary")));
}

TEST_CASE("ESMF profile summary: ESMF before 8.1 (no PEs), threads from PEs, and what is refused", "[esmf]") {
  // ESMF 8.0's header has no PEs column.
  const std::string older =
      "Region              PETs   Count    Mean (s)    Min (s)     Min PET Max (s)     Max PET\n"
      "  [ESMF]            96     1        812.5000    810.2500    3       815.7500    95\n"
      "    [ATM] RunPhase1 96     480      700.1000    699.0000    0       702.0000    17\n";
  const std::vector<qnm::EsmfRegion> regions = qnm::ParseEsmfProfileSummary(older, "atm/ESMF_Profile.summary");
  REQUIRE(regions.size() == 2);
  CHECK(regions[0].pes == 0);
  const qnm::RunStats run = qnm::EsmfProfileToRunStats(regions, "atm/ESMF_Profile.summary");
  CHECK(run.procs == 96);
  CHECK(run.wall_time_s == 815.75);
  CHECK(run.app.str() == "esmf");

  // 4 OpenMP threads per PET: PEs = 4 x PETs.
  const std::string hybrid = std::string(kHeader) + "  [ESMF]   128   512   1   100.0   99.0   0   101.0   5\n";
  const qnm::RunStats threaded =
      qnm::EsmfProfileToRunStats(qnm::ParseEsmfProfileSummary(hybrid, "h/ESMF_Profile.summary"), "h");
  CHECK(threaded.procs == 128);
  CHECK(threaded.threads_per_proc == 4);

  CHECK_THAT(Refusal(std::string(kHeader) + "  [ATM] RunPhase1  4  4  1  1.0  1.0  0  1.0  0\n"),
             Catch::Contains("without its [ESMF] row"));
  CHECK_THAT(Refusal(std::string(kHeader) + "  [ESMF]  4  4  1  1.0  1.0  0\n"),
             Catch::Contains("ESMF_Profile.summary:2") && Catch::Contains("without the header's 8 values"));
  CHECK_THAT(Refusal(std::string(kHeader) + "  [ESMF]  4  4  1  nan  1.0  0  1.0  0\n"),
             Catch::Contains("ESMF_Profile.summary:2") && Catch::Contains("non-negative number"));
  CHECK_THAT(Refusal(std::string(kHeader) + "  [ESMF]  0  0  1  1.0  1.0  0  1.0  0\n"),
             Catch::Contains("ESMF_Profile.summary:2"));
  CHECK_THAT(Refusal(std::string(kHeader) + "  [ESMF]  4  4  1  5.0  1.0  0  2.0  0\n"),
             Catch::Contains("Min (s) <= Mean (s) <= Max (s)"));
  CHECK_THAT(Refusal("Region  PETs  Count  Min (s)  Min PET\n  [ESMF]  4  1  1.0  0\n"),
             Catch::Contains("ESMF_Profile.summary:1") && Catch::Contains("without 'Mean (s)'"));
}
