// CIME timing profiles (app_outputs/cime_timing.h): CIME's own documented example of a CESM 2.0 run on
// Cheyenne (tests/data/cime-timing/SOURCES.md), a CESM 1 profile's older form, and what is refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "app_outputs/cime_timing.h"
#include "ingest/ingest.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace {

const std::string kFolder = std::string(QNM_TEST_DATA_DIR) + "/cime-timing";
const std::string kCheyenne =
    kFolder + "/cesm_timing.b.e20.BHIST.f09_g17.20thC.297_02.9459679.chadmin1.180517-114852";


// CESM 1's form (ccsm_timing.*): no instances column, "pes per node", "CCSM Tag"; layout and times of a
// 56-task run whose atmosphere spans two nodes of 28 and the other components one.
const char kCesm1[] = R"(
---------------- CCSM TIMING PROFILE ---------------------

  Case        : f19_cam
  LID         : 190515-100256
  Machine     : torque-cluster
  CCSM User   : someone
  CCSM Tag    : cesm1_2_2  (best guess)

  grid        : a%1.9x2.5_l%1.9x2.5_oi%1.9x2.5_r%r05_m%gx1v6_g%null_w%null
  compset     : GEOS_CAM4%TMOZ_CLM40%CN_CICE%PRES_DOCN%DOM_RTM_SGLC_SWAV
  run_type    : startup, continue_run = FALSE (inittype = TRUE)
  stop_option : ndays, stop_n = 5
  run_length  : 5 days (4.97916666666667 for ocean)

  component       comp_pes    root_pe   tasks  x threads (stride)
  ---------        ------     -------   ------   ------  ------
  cpl = cpl        28          0        28     x 1       (1     )
  atm = cam        56          0        56     x 1       (1     )
  lnd = clm        28          0        28     x 1       (1     )

  total pes active           : 56
  pes per node               : 28
  pe count for cost estimate : 56

  Overall Metrics:
    Model Cost:           15957.30   pe-hrs/simulated_year
    Model Throughput:         0.08   simulated_years/day

    Init Time   :     407.483 seconds
    Run Time    :    2810.483 seconds      562.097 seconds/day
    Final Time  :       0.114 seconds
)";

}  // namespace

TEST_CASE("CIME's documented timing profile: the MPI tasks from the layout, the run loop's time", "[cime]") {
  const std::string text = qnm::ReadFile(kCheyenne);
  REQUIRE(qnm::LooksLikeCimeTiming(text));
  const qnm::CimeTimingProfile profile = qnm::ParseCimeTiming(text, kCheyenne);
  CHECK(profile.header == "TIMING PROFILE");
  REQUIRE(profile.components.size() == 9);
  CHECK(profile.components[4].name == "ocn");
  CHECK(profile.components[4].root_pe == 1152);
  CHECK(profile.components[4].tasks == 256);
  CHECK(profile.total_pes_active == 12960);
  CHECK(profile.pe_cost_count == 4320);
  CHECK(profile.tasks_per_node == 36);
  CHECK(profile.run_s == Approx(2951.082).epsilon(1e-12));
  const qnm::RunStats run = qnm::CimeTimingToRunStats(profile, kCheyenne);
  // wav = ww at root_pe 1408 with 32 tasks: tasks 0..1439 are used; 1440 x 3 threads = the cost's 4320 pes.
  CHECK(run.procs == 1440);
  CHECK(run.threads_per_proc == 3);
  CHECK(static_cast<long long>(run.procs) * run.threads_per_proc == profile.pe_cost_count);
  CHECK(run.ranks_per_node == 36);
  CHECK(run.nodes == 40);
  CHECK(run.wall_time_s == Approx(2951.082).epsilon(1e-12));
  CHECK(run.app.str() == "cesm");
  CHECK(run.machine.str() == "cheyenne");
  CHECK(run.problem_class.str() ==
        "HIST_CAM60_CLM50%BGC-CROP_CICE_POP2%ECO_MOSART_CISM2%NOEVOLVE_WW3_BGC%BDRD "
        "a%0.9x1.25_l%0.9x1.25_oi%gx1v7_r%r05_g%gland4_w%ww3a_m%gx1v7 nyears=1");
  CHECK(run.details.at("cime_init_time_s") == "242.045");
  CHECK(run.details.at("cime_throughput_sypd") == "29.28");
  CHECK(run.details.at("cime_layout").rfind("cpl=1152x3 atm=1152x3", 0) == 0);
  CHECK(run.derivations.at("wall_time_s").find("CIME 'Run Time' (line 36)") == 0);
}

TEST_CASE("CIME timing profiles are read by ingest, and the disagreeing total of pes is said", "[cime][ingest]") {
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({kFolder}, qnm::IngestOptions(), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 1440);
  CHECK(std::any_of(summary.notes.begin(), summary.notes.end(), [](const std::string& note) {
    return note.find("'total pes active' 12960 is not the layout's 1440 MPI tasks x 3 threads") != std::string::npos;
  }));
}

TEST_CASE("CESM 1's profile: no instances column, pes per node", "[cime]") {
  const std::string path = "timing/ccsm_timing.f19_cam.190515-100256";
  REQUIRE(qnm::LooksLikeCimeTiming(kCesm1));
  const qnm::RunStats run = qnm::CimeTimingToRunStats(qnm::ParseCimeTiming(kCesm1, path), path);
  CHECK(run.procs == 56);
  CHECK(run.threads_per_proc == 1);
  CHECK(run.ranks_per_node == 28);
  CHECK(run.nodes == 2);
  CHECK(run.wall_time_s == Approx(2810.483).epsilon(1e-12));
  CHECK(run.app.str() == "ccsm");
  CHECK(run.details.at("cime_tag") == "cesm1_2_2");
  CHECK(run.problem_class.str().find(" ndays=5") != std::string::npos);
}

TEST_CASE("a CIME timing profile that says too little is refused with its line", "[cime]") {
  const std::string path = "ccsm_timing.cut";
  auto refusal = [&](const std::string& text) {
    try {
      qnm::ParseCimeTiming(text, path);
    } catch (const qnm::InputError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  const std::string full = kCesm1;
  // Cut before the overall metrics' run time: the run did not finish.
  CHECK(refusal(full.substr(0, full.find("    Run Time"))).find("without 'Run Time'") != std::string::npos);
  // A layout row that is not one.
  std::string bad = full;
  bad.replace(bad.find("x 1       (1     )\n  lnd"), 3, "x ?");
  CHECK(refusal(bad).find("ccsm_timing.cut:19:") != std::string::npos);
  // No layout table: the tasks are unknown.
  std::string no_layout = full;
  no_layout.erase(no_layout.find("  component"), no_layout.find("  total pes") - no_layout.find("  component"));
  CHECK(refusal(no_layout).find("without its layout table") != std::string::npos);
  CHECK_FALSE(qnm::LooksLikeCimeTiming("---------------- TIMING PROFILE ---------------------\n"));
}
