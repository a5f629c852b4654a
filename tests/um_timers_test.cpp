// The Unified Model's timer output (app_outputs/um_timers.h) on the test inputs of ACCESS-NRI's
// access-profiling UM parsers (tests/data/um-timers/SOURCES.md): every routine's mean, median, SD, max
// and min and their PEs, and the whole run's time, as that parser's tests expect them; its malformed
// inputs refused or read as it does; the record of a log with both ends of the timer output.
#include "app_outputs/um_timers.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kFolder = std::string(QNM_TEST_DATA_DIR) + "/um-timers";


struct Expected {
  std::vector<std::string> region;
  std::vector<double> mean, median, sd, max;
  std::vector<int> max_pe;
  std::vector<double> min;
  std::vector<int> min_pe;
};

void CheckTimers(const qnm::UmRun& run, const Expected& e) {
  REQUIRE(run.timers.size() == e.region.size());
  for (std::size_t i = 0; i < e.region.size(); ++i) {
    INFO(e.region[i]);
    const qnm::UmTimer& t = run.timers[i];
    CHECK(t.name == e.region[i]);
    CHECK(t.mean_s == e.mean[i]);
    CHECK(t.median_s == e.median[i]);
    CHECK(t.sd_s == e.sd[i]);
    CHECK(t.max_s == e.max[i]);
    CHECK(t.max_pe == e.max_pe[i]);
    CHECK(t.min_s == e.min[i]);
    CHECK(t.min_pe == e.min_pe[i]);
  }
}

// access-profiling's um7_parsed_profile_data.
const Expected kUm7 = {{"AS3 Atmos_Phys2", "AP2 Boundary Layer", "AS5-8 Updates", "AS2 S-L Advection",
                        "AS1 Atmos_Phys1", "AP2 Convection"},
                       {1308.3, 956.5, 884.63, 746.73, 561.27, 493.73},
                       {1308.3, 956.14, 885.53, 746.73, 562.54, 493.82},
                       {0.02, 3.26, 2.89, 0.01, 10.63, 0.18},
                       {1308.33, 981.28, 889.49, 746.74, 580.32, 493.93},
                       {118, 136, 48, 47, 42, 76},
                       {1308.26, 953.28, 879.37, 746.71, 538.58, 493.34},
                       {221, 43, 212, 181, 212, 20}};

std::string Refusal(const std::string& path) {
  try {
    qnm::UmRunToRunStats(qnm::ParseUmTimers(qnm::ReadFile(path), path), path);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("UM 7 timer output: what access-profiling reads, processors and their layout", "[um]") {
  const std::string path = kFolder + "/um7-timers.fort6";
  const std::string text = qnm::ReadFile(path);
  REQUIRE(qnm::LooksLikeUmTimers(text));
  const qnm::UmRun run = qnm::ParseUmTimers(text, path);
  CheckTimers(run, kUm7);
  CHECK(run.procs == 240);
  CHECK(run.nproc_x == 16);
  CHECK(run.nproc_y == 15);
  // Neither "Maximum Elapsed Wallclock Time" nor a U_MODEL timer: no whole run's time (that parser's total
  // runtime reader refuses this input too).
  CHECK_THAT(Refusal(path), Catch::Contains("without the whole run's time"));
}

TEST_CASE("UM 13 timer output: what access-profiling reads; without a processor count it gives no record", "[um]") {
  const std::string path = kFolder + "/um13-timers.fort6";
  const qnm::UmRun run = qnm::ParseUmTimers(qnm::ReadFile(path), path);
  // access-profiling's um13_parsed_profile_data.
  CheckTimers(run, {{"U_MODEL_4A", "Atm_Step_4A (AS)", "AS Atmos_Phys1 (AP1)", "AS S-L Advect (AA)", "AS UKCA_MAIN1",
                     "AS Atmos_Phys2 (AP2)"},
                    {1314.55, 1272.16, 466.83, 180.79, 173.52, 144.45},
                    {1314.55, 1273.09, 466.81, 181.45, 174.45, 144.33},
                    {0.06, 4.6, 0.21, 1.67, 4.6, 2.71},
                    {1315.88, 1279.04, 467.36, 183.17, 180.4, 150.18},
                    {0, 240, 83, 104, 240, 390},
                    {1314.55, 1257.69, 466.37, 175.98, 159.06, 138.25},
                    {433, 27, 377, 21, 27, 160}});
  CHECK_THAT(Refusal(path), Catch::Contains("without its processor count") && Catch::Contains("--pattern"));
}

TEST_CASE("UM end-of-run timer output and a whole log: the run's record", "[um][ingest]") {
  const qnm::UmRun total =
      qnm::ParseUmTimers(qnm::ReadFile(kFolder + "/um7-total-runtime.fort6"), kFolder + "/um7-total-runtime.fort6");
  CHECK(total.max_elapsed_s == 3944.07699399998);  // access-profiling's UMTotalRuntimeParser
  CHECK(total.max_elapsed_line == 8);
  CHECK(total.pe0_elapsed_s == 3943.80157899974);

  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({kFolder + "/um7-run"}, qnm::IngestOptions(), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].app.str() == "um");
  CHECK(runs[0].procs == 240);
  CHECK(runs[0].wall_time_s == 3944.07699399998);
  CHECK(runs[0].details.at("um_decomposition") == "16 x 15");
  CHECK(runs[0].details.at("um_timers") == "6");
  CHECK(runs[0].derivations.at("wall_time_s").find("line 8") != std::string::npos);

  // UM 10+ without UM 7's maximum: the U_MODEL timer's slowest process, threads from the OMP line.
  const std::string um13 =
      "MPP Timing information :\n576 processors in atmosphere configuration 24 x 24\nNumber of OMP threads : 2\n\n" +
      qnm::ReadFile(kFolder + "/um13-timers.fort6");
  const qnm::RunStats run = qnm::UmRunToRunStats(qnm::ParseUmTimers(um13, "atm.fort6.pe0"), "atm.fort6.pe0");
  CHECK(run.procs == 576);
  CHECK(run.threads_per_proc == 2);
  CHECK(run.wall_time_s == 1315.88);
  CHECK(run.app_time_mean_s == 1314.55);
}

TEST_CASE("UM timer output: access-profiling's malformed inputs", "[um]") {
  const std::string dir = kFolder + "/malformed/";
  // Refused by that parser, refused here with the row's line.
  CHECK_THAT(Refusal(dir + "extra-final-column.fort6"),
             Catch::Contains("fort6:6") && Catch::Contains("MAX (PE) MIN (PE)"));
  CHECK_THAT(Refusal(dir + "extra-middle-column.fort6"), Catch::Contains("fort6:6"));
  CHECK_THAT(Refusal(dir + "extra-front-column-with-float-data.fort6"),
             Catch::Contains("fort6:6") && Catch::Contains("begin with a letter"));
  CHECK_THAT(Refusal(dir + "extra-front-column-with-string-data.fort6"), Catch::Contains("begin with a letter"));
  CHECK_THAT(Refusal(dir + "bad-columndata.fort6"), Catch::Contains("fort6:6") && Catch::Contains("MEDIAN"));
  // No table (no WALLCLOCK TIMES heading, or no rows under it): nothing read, and no record.
  CHECK(qnm::ParseUmTimers(qnm::ReadFile(dir + "missing-header.fort6"), "h").timers.empty());
  CHECK(qnm::ParseUmTimers(qnm::ReadFile(dir + "missing-profiling-section.fort6"), "s").timers.empty());
  CHECK_FALSE(Refusal(dir + "missing-header.fort6").empty());
  // Read as that parser reads it: the leading integer column is no part of the routine's name.
  CheckTimers(qnm::ParseUmTimers(qnm::ReadFile(dir + "extra-front-column-with-integer-data.fort6"), "i"), kUm7);
  // That parser refuses a table without the CPU times' heading after it; its row is whole, and read here.
  CHECK(qnm::ParseUmTimers(qnm::ReadFile(dir + "missing-footer.fort6"), "f").timers.size() == 1);
}
