// What-if x scaling (whatif_scaling/): the series predicted with hypotheses
// beside the unchanged one. Profiles: hand-computed re-timing of a small
// record; neutral hypotheses change nothing at any P; balancing all compute
// never predicts a slower run. Traces: at every traced P the what-if
// prediction is the simulation's run time (whatif/whatif_simulation.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "pipeline/series_loading.h"
#include "trace/otf2_reader.h"
#include "trace/trace_run_stats.h"
#include "util/input_error.h"
#include "whatif/region_list.h"
#include "whatif/whatif_simulation.h"
#include "whatif_scaling/profile_whatif.h"
#include "whatif_scaling/suggestions_at_scale.h"
#include "whatif_scaling/whatif_prediction.h"

using namespace qnm;

namespace {

std::string Data(const std::string& path) { return std::string(QNM_TEST_DATA_DIR) + "/" + path; }

std::vector<int> Procs1To1024() {
  std::vector<int> procs;
  for (int p = 1; p <= 1024; p *= 2) procs.push_back(p);
  return procs;
}

trace::Hypothesis Line(const std::string& text) {
  trace::Hypothesis h;
  REQUIRE(trace::ParseHypothesisLine(text, "test", 1, &h));
  return h;
}

/// The bundled mpiP + NPB series (bt-mz.C, P = 1..16).
Series BundledSeries() {
  std::string origin;
  std::vector<Series> series = LoadSeries({}, "", &origin);
  REQUIRE(series.size() == 1);
  return series.front();
}

/// Traces of the same code at several P as one series (their folder names differ).
Series TraceSeries(const std::vector<std::string>& paths) {
  std::vector<RunStats> runs;
  for (const std::string& path : paths) runs.push_back(trace::ReadTraceRunStats(Data(path)));
  const SeriesKey key = KeyOf(runs.front());
  return GroupIntoSeries(std::move(runs), [&key](const RunStats&) { return key; }).front();
}

SeriesWhatifPrediction PredictWith(const Series& series, const std::vector<std::string>& lines,
                                   const std::vector<int>& procs) {
  WhatifScalingOptions options;
  for (const std::string& line : lines) options.hypotheses.push_back(Line(line));
  std::vector<SeriesWhatifPrediction> results = RunWhatifPredict({series}, procs, options);
  REQUIRE(results.size() == 1);
  REQUIRE(results[0].unchanged.predictions.size() == results[0].whatif.predictions.size());
  return results[0];
}

/// Two ranks: app {10, 8} s, MPI {2, 4} s (compute {8, 4}), wall 11 s; one
/// Allreduce site holding all MPI time and one Barrier site of 0 s.
RunStats TwoRankProfile() {
  RunStats run;
  run.app = "hand";
  run.procs = 2;
  run.sources = {"hand.mpiP"};
  run.wall_time_s = 11;
  run.app_time_s_per_rank = {10, 8};
  run.mpi_time_s_per_rank = {2, 4};
  CallSiteStats allreduce;
  allreduce.mpi_function = "Allreduce";
  allreduce.source_location = "solver.c:10 step";
  allreduce.activity = MpiActivity::kCollective;
  allreduce.time_s_per_rank = {2, 4};
  allreduce.total_time_s = 6;
  CallSiteStats barrier;
  barrier.mpi_function = "Barrier";
  barrier.activity = MpiActivity::kSynchronization;
  barrier.time_s_per_rank = {0, 0};
  barrier.total_time_s = 0;
  run.call_sites = {allreduce, barrier};
  run.Derive();
  return run;
}

}  // namespace

TEST_CASE("whatif scaling: profile hypotheses re-time a hand-made record", "[whatif_scaling]") {
  const RunStats run = TwoRankProfile();
  REQUIRE(run.app_time_mean_s == 9);
  SECTION("scale computation 0.5: compute {4, 2}, app {6, 6}, wall 11 * 6/10") {
    RunStats out = ApplyProfileWhatif(run, {Line("SCALE COMPUTATION 0.5")}, nullptr);
    CHECK(out.app_time_s_per_rank == std::vector<double>{6, 6});
    CHECK(out.mpi_time_s_per_rank == std::vector<double>{2, 4});
    CHECK(out.wall_time_s == Approx(6.6));
    CHECK(out.app_time_mean_s == Approx(6));
    CHECK(out.compute_time_mean_s == Approx(3));
  }
  SECTION("scale MPI 0.5: MPI {1, 2}, app {9, 6}; the site follows") {
    std::vector<std::string> notes;
    RunStats out = ApplyProfileWhatif(run, {Line("SCALE MPI 0.5")}, &notes);
    CHECK(out.app_time_s_per_rank == std::vector<double>{9, 6});
    CHECK(out.call_sites[0].time_s_per_rank == std::vector<double>{1, 2});
    CHECK(out.call_sites[0].total_time_s == Approx(3));
    CHECK(out.wall_time_s == Approx(11 * 0.9));
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].find("waiting") != std::string::npos);
  }
  SECTION("scale region by MPI function name, with or without MPI_") {
    RunStats a = ApplyProfileWhatif(run, {Line("SCALE REGION \"MPI_Allreduce\" 0")}, nullptr);
    RunStats b = ApplyProfileWhatif(run, {Line("SCALE REGION \"allreduce\" 0")}, nullptr);
    CHECK(a.app_time_s_per_rank == std::vector<double>{8, 4});
    CHECK(a.mpi_time_s_per_rank == std::vector<double>{0, 0});
    CHECK(b.app_time_s_per_rank == a.app_time_s_per_rank);
  }
  SECTION("balance computation: every rank's compute the mean (6), the wait for the slowest leaves its MPI") {
    // rank 0: compute 8 = max, MPI stays 2 -> app 8; rank 1: waited 8 - 4 = 4 of its 4 s MPI -> app 6.
    RunStats out = ApplyProfileWhatif(run, {Line("BALANCE REGION \"computation\"")}, nullptr);
    CHECK(out.app_time_s_per_rank == std::vector<double>{8, 6});
    CHECK(out.mpi_time_s_per_rank == std::vector<double>{2, 0});
    CHECK(out.call_sites[0].time_s_per_rank == std::vector<double>{2, 0});
    CHECK(out.wall_time_s == Approx(11 * 0.8));
  }
  SECTION("balance a call site: max -> mean over ranks") {
    RunStats out = ApplyProfileWhatif(run, {Line("BALANCE REGION \"Allreduce\"")}, nullptr);
    CHECK(out.call_sites[0].time_s_per_rank == std::vector<double>{3, 3});
    CHECK(out.app_time_s_per_rank == std::vector<double>{11, 7});
  }
  SECTION("what a profile cannot express is refused, naming the file") {
    CHECK_THROWS_WITH(ApplyProfileWhatif(run, {Line("CUT MESSAGE SIZE >= 1024")}, nullptr),
                      Catch::Contains("hand.mpiP") && Catch::Contains("needs a trace"));
    CHECK_THROWS_WITH(ApplyProfileWhatif(run, {Line("CUT REGION \"solve\"")}, nullptr),
                      Catch::Contains("needs a trace"));
    CHECK_THROWS_WITH(ApplyProfileWhatif(run, {Line("SCALE REGION \"solve\" 0.5")}, nullptr),
                      Catch::Contains("no MPI call site") && Catch::Contains("Allreduce, Barrier"));
    RunStats table;
    table.sources = {"runs.csv"};
    table.procs = 4;
    table.wall_time_s = 3;
    CHECK_THROWS_WITH(ApplyProfileWhatif(table, {Line("SCALE COMPUTATION 0.5")}, nullptr),
                      Catch::Contains("runs.csv") && Catch::Contains("only its run time"));
  }
}

TEST_CASE("whatif scaling: neutral hypotheses change nothing at any P (bundled series)", "[whatif_scaling]") {
  const Series series = BundledSeries();
  // Balancing twice: the second balances an already balanced compute.
  const SeriesWhatifPrediction once = PredictWith(series, {"BALANCE REGION \"computation\""}, Procs1To1024());
  const std::vector<std::vector<std::string>> neutral = {
      {"SCALE COMPUTATION 1"}, {"SCALE MPI 1"}, {"SCALE TRANSFER 1"}, {"SCALE REGION \"Barrier\" 1"},
      {"BALANCE REGION \"Waitall\" OPTION \"mode\" \"process-local\""}};
  for (const std::vector<std::string>& lines : neutral) {
    INFO(lines[0]);
    const SeriesWhatifPrediction r = PredictWith(series, lines, Procs1To1024());
    for (std::size_t i = 0; i < r.unchanged.predictions.size(); ++i) {
      INFO("P = " << r.unchanged.predictions[i].procs);
      REQUIRE(r.whatif.predictions[i].Ok() == r.unchanged.predictions[i].Ok());
      if (!r.unchanged.predictions[i].Ok()) continue;  // beyond the NPB-MZ zones: neither predicts
      CHECK(r.whatif.predictions[i].total.value_s == Approx(r.unchanged.predictions[i].total.value_s).epsilon(1e-12));
      CHECK(r.gains[i].gain.value_s == Approx(0).margin(1e-12 * r.unchanged.predictions[i].total.value_s));
    }
  }
  const SeriesWhatifPrediction twice =
      PredictWith(series, {"BALANCE REGION \"computation\"", "BALANCE REGION \"computation\""}, Procs1To1024());
  for (std::size_t i = 0; i < once.whatif.predictions.size(); ++i)
    if (once.whatif.predictions[i].Ok())
      CHECK(twice.whatif.predictions[i].total.value_s == Approx(once.whatif.predictions[i].total.value_s).epsilon(1e-12));
}

TEST_CASE("whatif scaling: removing all compute imbalance never predicts a slower run", "[whatif_scaling]") {
  const SeriesWhatifPrediction r = PredictWith(BundledSeries(), {"BALANCE REGION \"computation\""}, Procs1To1024());
  bool some_gain = false;
  for (std::size_t i = 0; i < r.gains.size(); ++i) {
    INFO("P = " << r.gains[i].procs);
    if (!r.unchanged.predictions[i].Ok()) continue;  // beyond the NPB-MZ zones
    REQUIRE(std::isfinite(r.gains[i].gain.value_s));
    CHECK(r.gains[i].gain.value_s >= 0);
    CHECK(r.gains[i].gain.lower_s <= r.gains[i].gain.value_s);
    CHECK(r.gains[i].gain.upper_s >= r.gains[i].gain.value_s);
    some_gain = some_gain || r.gains[i].gain.value_s > 0;
  }
  CHECK(some_gain);
  // Every measured run: the re-timed time is no longer than the measured one.
  for (const WhatifRun& run : r.runs) CHECK(run.whatif_s <= run.unchanged_s);
}

TEST_CASE("whatif scaling: at every traced P the what-if prediction is the simulation", "[whatif_scaling]") {
  const std::vector<std::string> traces = {"otf2/tracer-stencil4d-32", "otf2/tracer-stencil4d-64"};
  const Series series = TraceSeries(traces);
  REQUIRE(series.groups.size() == 2);
  const std::vector<std::string> lines = {"SCALE COMPUTATION 0.5", "CUT MESSAGE SIZE == 0"};
  const SeriesWhatifPrediction r = PredictWith(series, lines, {32, 64, 1024});
  for (const std::string& path : traces) {
    const trace::Trace trace = trace::ReadOtf2Trace(Data(path));
    trace::WhatifOptions options;
    for (const std::string& line : lines) options.hypotheses.push_back(Line(line));
    options.analyze_wait_states = false;
    const trace::WhatifResult simulated = trace::SimulateWhatif(trace, options);
    const int procs = static_cast<int>(trace.ranks.size());
    bool found = false;
    for (std::size_t i = 0; i < r.gains.size(); ++i) {
      if (r.gains[i].procs != procs) continue;
      found = true;
      INFO("P = " << procs);
      CHECK(r.whatif.predictions[i].total.value_s == Approx(simulated.summary.simulated_runtime_s).epsilon(1e-9));
      CHECK(r.unchanged.predictions[i].total.value_s == Approx(simulated.summary.original_runtime_s).epsilon(1e-9));
      CHECK(r.gains[i].gain.value_s == Approx(simulated.summary.gain_s).epsilon(1e-6));
    }
    CHECK(found);
  }
  for (const WhatifRun& run : r.runs) CHECK(run.method == WhatifMethod::kTraceSimulation);
  // Beyond the traces the what-if is predicted too, with an interval.
  REQUIRE(r.gains.back().procs == 1024);
  CHECK(std::isfinite(r.gains.back().gain.value_s));
  CHECK(std::isfinite(r.gains.back().gain.lower_s));
}

TEST_CASE("whatif scaling: neutral and balancing hypotheses on traces", "[whatif_scaling]") {
  const Series series = TraceSeries({"otf2/tracer-stencil4d-32", "otf2/tracer-stencil4d-64"});
  const SeriesWhatifPrediction same = PredictWith(series, {"SCALE COMPUTATION 1"}, Procs1To1024());
  for (std::size_t i = 0; i < same.gains.size(); ++i) {
    INFO("P = " << same.gains[i].procs);
    CHECK(same.whatif.predictions[i].total.value_s == Approx(same.unchanged.predictions[i].total.value_s).epsilon(1e-12));
  }
  // Every computation region that several ranks enter balanced (SILAS global
  // mode: every instance on every rank the mean): no slower at any P. Not the
  // measurement-off pseudo region (the tool's own pauses; moving them makes
  // the simulated run 0.3 ms slower) nor a region one rank enters alone
  // (balancing it only moves time between that rank's instances).
  std::vector<std::string> balance_all;
  const trace::Trace trace = trace::ReadOtf2Trace(Data("otf2/tracer-stencil4d-32"));
  for (const trace::RegionListing& region : trace::ListRegions(trace))
    if (!region.is_mpi && !region.is_paused && region.ranks_entering >= 2)
      balance_all.push_back("BALANCE REGION \"" + region.name + "\" OPTION \"mode\" \"global\"");
  REQUIRE(!balance_all.empty());
  const SeriesWhatifPrediction balanced = PredictWith(series, balance_all, Procs1To1024());
  // At P = 64 the simulation itself is 0.23 us slower (of 1.566 s): balancing the
  // exclusive time of TRACER_Loop, which calls MPI, moves a little of it from
  // after a rank's last send to before it. Timer-level, so a 1e-6 tolerance.
  for (std::size_t i = 0; i < balanced.gains.size(); ++i) {
    INFO("P = " << balanced.gains[i].procs);
    CHECK(balanced.gains[i].gain.value_s >= -1e-6 * balanced.unchanged.predictions[i].total.value_s);
  }
}

TEST_CASE("whatif scaling: one trace is predicted at its own P only", "[whatif_scaling]") {
  const Series series = TraceSeries({"otf2/synthetic-patterns-4rank"});
  const SeriesWhatifPrediction r = PredictWith(series, {"BALANCE REGION \"main\""}, {4, 64});
  // The unchanged series says it cannot be extrapolated and predicts its own P only.
  const trace::Trace trace = trace::ReadOtf2Trace(Data("otf2/synthetic-patterns-4rank"));
  trace::WhatifOptions options;
  options.hypotheses = {Line("BALANCE REGION \"main\"")};
  const trace::WhatifResult simulated = trace::SimulateWhatif(trace, options);
  REQUIRE(r.gains.size() == 1);
  CHECK(r.gains[0].procs == 4);
  CHECK(r.whatif.predictions[0].total.value_s == Approx(simulated.summary.simulated_runtime_s).epsilon(1e-9));
  CHECK(r.gains[0].gain.value_s == Approx(simulated.summary.gain_s).epsilon(1e-6));
  CHECK(r.gains[0].gain.value_s > 0);
  CHECK(!r.unchanged.model.summary.extrapolatable);
}

TEST_CASE("whatif suggest at scale: the planted imbalance's fix ranks first", "[whatif_scaling]") {
  const ScaledSuggestionReport report =
      RankSuggestionsAtScale(Data("otf2/synthetic-patterns-4rank"), {}, 4, PredictionOptions());
  REQUIRE(!report.ranked.empty());
  CHECK(report.ranked[0].suggestion.hypothesis.kind == trace::HypothesisKind::kBalanceRegion);
  CHECK(report.ranked[0].suggestion.hypothesis.region == "main");
  for (const ScaledSuggestion& s : report.ranked)  // at the traced P, the predicted gain is the simulated one
    CHECK(s.at_procs.gain.value_s == Approx(s.suggestion.gain_s).margin(1e-9 * report.original_runtime_s));
  for (std::size_t i = 1; i < report.ranked.size(); ++i)
    CHECK(report.ranked[i - 1].at_procs.gain.value_s >= report.ranked[i].at_procs.gain.value_s);
  // Another P from one trace cannot be extrapolated: refused, naming the way out.
  CHECK_THROWS_WITH(RankSuggestionsAtScale(Data("otf2/synthetic-patterns-4rank"), {}, 64, PredictionOptions()),
                    Catch::Contains("two or more process counts") && Catch::Contains("--scaling-trace"));
}

TEST_CASE("whatif suggest at scale: two traced process counts rank by the gain at 1024", "[whatif_scaling]") {
  const ScaledSuggestionReport report = RankSuggestionsAtScale(
      Data("otf2/tracer-stencil4d-32"), {Data("otf2/tracer-stencil4d-64")}, 1024, PredictionOptions());
  CHECK(report.traced_procs == std::vector<int>{32, 64});
  REQUIRE(!report.ranked.empty());
  for (std::size_t i = 1; i < report.ranked.size(); ++i) {
    const double a = report.ranked[i - 1].at_procs.gain.value_s, b = report.ranked[i].at_procs.gain.value_s;
    if (std::isfinite(b)) CHECK(a >= b);
  }
  CHECK(std::isfinite(report.ranked[0].at_procs.gain.value_s));
}
