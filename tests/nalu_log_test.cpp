// Logs of Nalu-Wind (app_outputs/nalu_log.h): three logs of one case at 24, 48 and 96 ranks
// (tests/data/nalu-wind-log/SOURCES.md) read as a series, a rerun appended to a log, and what is refused.
#include "app_outputs/nalu_log.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kFolder = std::string(QNM_TEST_DATA_DIR) + "/nalu-wind-log";


// The last lines of a log: the main() timing of `procs` processes.
std::string Timing(int procs, const std::string& main_line) {
  return "Timing for Simulation: nprocs= " + std::to_string(procs) + "\n" + main_line + "\n";
}

const char kBanner[] =
    "   Nalu-Wind Version: v1.2.0\n   Trilinos Version: 13.1-g53550bee94b\nRealm Options Review: realm_1\n";

std::string Refusal(const std::string& text, const std::string& path = "run.log") {
  try {
    for (const qnm::NaluRun& run : qnm::ParseNaluLog(text, path)) {
      int line = 0;
      if (std::string why = qnm::NaluRunUnfinished(run, &line); !why.empty()) return why;
      qnm::NaluRunToRunStats(run, path);
    }
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("Nalu-Wind log: processes, main()'s slowest process, the version, the time loop and the equations") {
  const std::string path = kFolder + "/abl_5km_48.log";
  const std::string text = qnm::ReadFile(path);
  REQUIRE(qnm::LooksLikeNaluLog(text));
  const std::vector<qnm::NaluRun> runs = qnm::ParseNaluLog(text, path);
  REQUIRE(runs.size() == 1);
  const qnm::NaluRun& run = runs[0];
  CHECK(run.line == 7);  // the banner's version line
  CHECK(run.program == "Nalu-Wind");
  CHECK(run.version == "v2.0.0");
  CHECK(run.trilinos_version == "15.0-g0000000");
  CHECK(run.procs == 48);
  CHECK(run.main_avg_s == Approx(214.3));
  CHECK(run.main_min_s == Approx(214.2));
  CHECK(run.main_max_s == Approx(214.4));
  CHECK(run.time_steps == 4);
  CHECK(run.step_time_sum_s == Approx(4 * 52.075));
  CHECK(run.completed);
  // MomentumEQS init + assemble + solve, ContinuityEQS assemble + solve; linear iterations are counts.
  CHECK(run.solver_avg_s == Approx(0.11 + 64.29 + 85.72 + 21.43 + 32.145));
  CHECK(run.solver_max_s == Approx(0.12 + 72.862 + 87.863 + 25.716 + 32.3593));

  const qnm::RunStats record = qnm::NaluRunToRunStats(run, path);
  CHECK(record.app.str() == "nalu-wind");
  CHECK(record.procs == 48);
  CHECK(record.wall_time_s == Approx(214.4));
  CHECK(record.app_time_mean_s == Approx(214.3));
  CHECK(record.tool_version.str() == "Nalu-Wind v2.0.0");
  CHECK(record.details.at("nalu_time_steps") == "4");
  CHECK(record.derivations.at("wall_time_s").find("line 106") != std::string::npos);
}

TEST_CASE("Nalu-Wind logs of one case at three process counts ingest as one series") {
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({kFolder}, qnm::IngestOptions(), &summary);
  REQUIRE(runs.size() == 3);
  std::vector<int> procs;
  for (const qnm::RunStats& run : runs) {
    procs.push_back(run.procs);
    CHECK(run.app.str() == "nalu-wind");
    CHECK(qnm::KeyOf(run) == qnm::KeyOf(runs[0]));
  }
  std::sort(procs.begin(), procs.end());
  CHECK(procs == std::vector<int>{24, 48, 96});
}

TEST_CASE("Nalu-Wind log: a rerun appended after the first run's timing is a second run") {
  const std::string text = std::string(kBanner) + Timing(8, "main() -- \tavg: 10.5 \tmin: 10.4 \tmax: 10.6") + kBanner +
                           Timing(16, "main() -- \tavg: 5.5 \tmin: 5.25 \tmax: 5.75");
  const std::vector<qnm::NaluRun> runs = qnm::ParseNaluLog(text, "two.log");
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].procs == 8);
  CHECK(runs[1].procs == 16);
  CHECK(runs[1].line == 6);
  CHECK(qnm::NaluRunToRunStats(runs[1], "two.log").wall_time_s == Approx(5.75));
}

TEST_CASE("Nalu-Wind log: a run without its timing, and malformed timing lines, are refused with their line") {
  // Killed at its wall-time limit after two time steps: the banner only, refused with why.
  const std::string killed = std::string(kBanner) +
                             "WallClockTime: 1 Pre: 0.002 NLI: 2.7 Post: 0.0001 Total: 2.702\n"
                             "WallClockTime: 2 Pre: 0.002 NLI: 2.6 Post: 0.0001 Total: 2.602\n";
  REQUIRE(qnm::LooksLikeNaluLog(killed));
  CHECK_THAT(Refusal(killed), Catch::Contains("did not finish") && Catch::Contains("2 time steps logged"));
  CHECK_THAT(Refusal(std::string(kBanner) + "Timing for Simulation: nprocs= 4\n"),
             Catch::Contains("without its 'main() --' line"));
  CHECK_THAT(Refusal(std::string(kBanner) + Timing(4, "main() -- \tavg: 2.0 \tmin: 3.0 \tmax: 2.5")),
             Catch::Contains("run.log:5") && Catch::Contains("min <= avg <= max"));
  CHECK_THAT(Refusal(std::string(kBanner) + Timing(4, "main() -- \tavg: nan \tmin: 1 \tmax: 2")),
             Catch::Contains("run.log:5") && Catch::Contains("non-negative number"));
  CHECK_THAT(Refusal(std::string(kBanner) + Timing(4, "main() -- \tavg: 2.0 \tmin: 1.0")),
             Catch::Contains("without its 'max:'"));
  CHECK_THAT(Refusal(std::string(kBanner) + "Timing for Simulation: nprocs= 0\nmain() -- avg: 1 min: 1 max: 1\n"),
             Catch::Contains("run.log:4"));
  CHECK_THAT(Refusal(std::string(kBanner) + "main() -- avg: 1 min: 1 max: 1\n"),
             Catch::Contains("without 'Timing for"));
  CHECK_THAT(Refusal(std::string(kBanner) + "WallClockTime: 1 Pre: 0.1 Total: -3\n" +
                     Timing(2, "main() -- avg: 1 min: 1 max: 1")),
             Catch::Contains("run.log:4"));
  // Neither a banner nor the timing lines: not a Nalu log (AMR-Wind prints "WallClockTime:" too).
  CHECK_FALSE(qnm::LooksLikeNaluLog("WallClockTime: 20 Pre: 0.01 Solve: 0.5 Post: 0.02 Total: 0.53\n"));
}
