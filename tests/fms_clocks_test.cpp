// FMS timing tables (app_outputs/fms_clocks.h) on the test inputs of ACCESS-NRI's access-profiling FMS
// parser (tests/data/fms-clocks/SOURCES.md): every region's name, tmin, tmax, tavg and tstd equal what that
// parser's tests expect it to read; its refused input is refused; older FMS without the PE count.
#include "app_outputs/fms_clocks.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kFolder = std::string(QNM_TEST_DATA_DIR) + "/fms-clocks";


struct Expected {
  std::vector<std::string> region;
  std::vector<double> tmin, tmax, tavg, tstd;
};

void CheckClocks(const qnm::FmsClockTable& table, const Expected& expected) {
  REQUIRE(table.clocks.size() == expected.region.size());
  for (std::size_t i = 0; i < expected.region.size(); ++i) {
    INFO(expected.region[i]);
    CHECK(table.clocks[i].name == expected.region[i]);
    CHECK(table.clocks[i].tmin_s == expected.tmin[i]);
    CHECK(table.clocks[i].tmax_s == expected.tmax[i]);
    CHECK(table.clocks[i].tavg_s == expected.tavg[i]);
    CHECK(table.clocks[i].tstd_s == expected.tstd[i]);
  }
}

std::string Refusal(const std::string& text, const std::string& path = "ocean.stdout") {
  try {
    for (const qnm::FmsClockTable& table : qnm::ParseFmsClocks(text, path)) qnm::FmsClockTableToRunStats(table, path);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("FMS timing table without hits (MOM5, ACCESS-OM2, 49 PEs): what access-profiling reads", "[fms]") {
  const std::string path = kFolder + "/mom5-access-om2-49pes.stdout";
  const std::string text = qnm::ReadFile(path);
  REQUIRE(qnm::LooksLikeFmsClocks(text));
  const std::vector<qnm::FmsClockTable> tables = qnm::ParseFmsClocks(text, path);
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].line == 3);
  CHECK(tables[0].npes == 49);
  // access-profiling's fms_nohits_profiling.
  CheckClocks(tables[0], {{"Total runtime", "Ocean", "(Ocean initialization)", "(Ocean ODA)",
                           "(Red Sea/Gulf Bay salinity fix)", "OASIS init", "oasis_recv", "oasis_send"},
                          {16282.797785, 15969.542784, 4.288529, 0.0, 0.024143, 0.231678, 168.797136, 2.468914},
                          {16282.797792, 16000.704550, 4.296586, 0.0, 0.077235, 0.232671, 171.648384, 2.756777},
                          {16282.797789, 15986.765795, 4.291991, 0.0, 0.040902, 0.232397, 170.460762, 2.593809},
                          {0.000001, 8.643639, 0.001470, 0.0, 0.013836, 0.000242, 0.650894, 0.079459}});
  CHECK(tables[0].clocks[0].hits == -1);
  CHECK(tables[0].clocks[0].pemax == 48);

  const qnm::RunStats run = qnm::FmsClockTableToRunStats(tables[0], path);
  CHECK(run.procs == 49);
  CHECK(run.wall_time_s == 16282.797792);
  CHECK(run.app_time_mean_s == 16282.797789);
  CHECK(run.app.str() == "mom");  // the first word of the file name
  CHECK(run.derivations.at("wall_time_s") == "FMS 'Total runtime' tmax over the PEs (line 6)");
}

TEST_CASE("FMS timing table with hits (MOM6, 1 PE): what access-profiling reads", "[fms]") {
  const std::string path = kFolder + "/mom6-1pe-hits.stdout";
  const std::vector<qnm::FmsClockTable> tables = qnm::ParseFmsClocks(qnm::ReadFile(path), path);
  REQUIRE(tables.size() == 1);
  CHECK(tables[0].npes == 1);
  const std::vector<double> times = {100.641190, 0.987726,  98.930085, 0.718969, 1.529830, 98.279247,
                                     84.799971,  11.512013, 0.0,       1.710326, 4.427230};
  // access-profiling's fms_hits_profiling: one PE, so tmin = tmax = tavg.
  CheckClocks(tables[0], {{"Total runtime", "Initialization", "Main loop", "Termination", "Ocean Initialization",
                           "Ocean", "Ocean dynamics", "Ocean thermodynamics and tracers",
                           "Ocean grid generation and remapp", "Ocean Other", "(Ocean tracer advection)"},
                          times,
                          times,
                          times,
                          std::vector<double>(11, 0.0)});
  const std::vector<double> hits = {1, 1, 1, 1, 2, 24, 192, 72, 0, 192, 48};
  for (std::size_t i = 0; i < hits.size(); ++i) CHECK(tables[0].clocks[i].hits == hits[i]);

  const qnm::RunStats run = qnm::FmsClockTableToRunStats(tables[0], path);
  CHECK(run.procs == 1);
  CHECK(run.wall_time_s == 100.641190);
  CHECK(run.details.at("fms_main_loop_s") == "98.930085");
  CHECK(run.details.at("fms_initialization_s") == "0.987726");
  CHECK(run.details.at("fms_clocks") == "11");
}

TEST_CASE("FMS timing tables are read by ingest; the input access-profiling refuses is refused", "[fms][ingest]") {
  qnm::IngestSummary summary;
  qnm::IngestOptions options;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({kFolder + "/mom6-1pe-hits.stdout"}, options, &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 1);

  const std::string incorrect = qnm::ReadFile(kFolder + "/refused/incorrect-header.stdout");
  REQUIRE(qnm::LooksLikeFmsClocks(incorrect));
  CHECK_THAT(Refusal(incorrect), Catch::Contains("ocean.stdout:5") && Catch::Contains("without its 'tmin' column"));
  options.strict = true;
  CHECK_THROWS_WITH(qnm::IngestPaths({kFolder + "/refused"}, options, &summary),
                    Catch::Contains("incorrect-header.stdout:5"));
}

TEST_CASE("FMS timing tables: an older FMS without the PE count, two runs, and what is refused", "[fms]") {
  // FMS before 2016 said "across PEs..."; the Total runtime row's pemin..pemax gives the count. A rerun
  // appended to the output prints a second table.
  const std::string older =
      "Tabulating mpp_clock statistics across PEs...\n\n"
      "                                          tmin          tmax          tavg          tstd  tfrac grain pemin "
      "pemax\n"
      "Total runtime                       20.500000     21.000000     20.750000      0.100000  1.000     0     0    "
      "15\n"
      "Main loop                           18.000000     18.500000     18.250000      0.100000  0.880     0     0    "
      "15\n"
      " MPP_STACK high water mark=          0\n"
      "Tabulating mpp_clock statistics across     32 PEs...\n\n"
      "                                          tmin          tmax          tavg          tstd  tfrac grain pemin "
      "pemax\n"
      "Total runtime                       11.000000     11.250000     11.100000      0.050000  1.000     0     0    "
      "31\n";
  const std::vector<qnm::FmsClockTable> tables = qnm::ParseFmsClocks(older, "run/ocean.stdout");
  REQUIRE(tables.size() == 2);
  const qnm::RunStats first = qnm::FmsClockTableToRunStats(tables[0], "run/ocean.stdout");
  CHECK(first.procs == 16);
  CHECK(first.derivations.at("procs").find("pemin..pemax") != std::string::npos);
  CHECK(first.wall_time_s == 21.0);
  CHECK(qnm::FmsClockTableToRunStats(tables[1], "run/ocean.stdout").procs == 32);

  const std::string head =
      "Tabulating mpp_clock statistics across      4 PEs...\n\n"
      "                                          tmin          tmax          tavg          tstd  tfrac grain pemin "
      "pemax\n";
  CHECK_THAT(Refusal(head + "Main loop   1.0 1.0 1.0 0.0 1.000 0 0 3\n"),
             Catch::Contains("without its 'Total runtime' row"));
  CHECK_THAT(Refusal(head + "Total runtime   1.0 nan 1.0 0.0 1.000 0 0 3\n"),
             Catch::Contains("ocean.stdout:4") && Catch::Contains("non-negative number"));
  CHECK_THAT(Refusal(head + "Total runtime   1.0 2.0\n"), Catch::Contains("ocean.stdout:4"));
  CHECK_THAT(Refusal(head + "Total runtime   3.0 2.0 1.0 0.0 1.000 0 0 3\n"), Catch::Contains("tmin <= tavg <= tmax"));
  // A PE number past any machine (a damaged row: the fuzzer's 1e43) is refused, not converted.
  CHECK_THAT(Refusal(head + "Total runtime   1.0 1.0 1.0 0.0 1.000 0 0 1e43\n"),
             Catch::Contains("ocean.stdout:4") && Catch::Contains("PE numbers"));
  CHECK_THAT(Refusal(head + "Total runtime   1.0 1.0 1.0 0.0 1.000 0 0 2.5\n"), Catch::Contains("PE numbers"));
  CHECK_THAT(Refusal("Tabulating mpp_clock statistics across      0 PEs...\n"), Catch::Contains("ocean.stdout:1"));
  CHECK_THAT(Refusal("Tabulating mpp_clock statistics across      4 PEs...\n\nno table here\n"),
             Catch::Contains("without its header"));
  // Quoted in a sentence, not at a line's start: no FMS output.
  CHECK_FALSE(qnm::LooksLikeFmsClocks("the log ends with 'Tabulating mpp_clock statistics across N PEs'\n"));
}
