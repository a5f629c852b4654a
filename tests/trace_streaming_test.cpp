// The streaming, threaded analysis (AnalyzeTraceStreaming, `trace analyze
// --jobs N`) against the stored-trace analysis (ReadOtf2Trace +
// AnalyzeWaitStates): byte-identical reports for every number of threads on
// every real trace, on generated stencil traces with unmatched messages and a
// missing collective participant, and the same error on damaged copies.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "record/run_stats_json.h"
#include "tests/command_runner.h"
#include "tests/file_bytes.h"
#include "tests/support/synthetic_trace.h"
#include "tests/temp_dir.h"
#include "trace/cube_writer.h"
#include "trace/otf2_reader.h"
#include "trace/streaming_analysis.h"
#include "trace/trace_run_stats.h"
#include "trace/wait_state_report.h"
#include "trace/wait_states.h"
#include "util/input_error.h"

namespace fs = std::filesystem;
using namespace qnm::trace;

namespace {

const char* const kRealTraces[] = {"pipit-ping-pong-otf2",       "pipit-ping-pong-otf2-papi",
                                   "sstelements-emberotf2-test", "sstmacro-mpi-coverage-test",
                                   "synthetic-patterns-4rank",   "tracer-stencil4d-32",
                                   "tracer-stencil4d-64"};

std::string TraceDir(const std::string& tag) { return std::string(QNM_TEST_DATA_DIR) + "/otf2/" + tag; }

/// Every report of an analysed trace: JSON and table (all rows), and the cube.
std::string Reports(const Trace& trace, const WaitStateResult& result) {
  TraceReportInput input;
  input.trace = &trace;
  input.result = &result;
  input.top = 0;
  return RenderTraceReport(input, ReportFormat::kJson) + RenderTraceReport(input, ReportFormat::kTable) +
         CubeReport(trace, result);
}

/// The report of the stored-trace analysis, or "error: <message>".
std::string StoredOutcome(const std::string& dir) {
  try {
    Trace trace = ReadOtf2Trace(dir);
    WaitStateResult result = AnalyzeWaitStates(trace);
    return Reports(trace, result);
  } catch (const qnm::InputError& e) {
    return std::string("error: ") + e.what();
  }
}

std::string StreamingOutcome(const std::string& dir, int jobs) {
  try {
    StreamingAnalysisOptions options;
    options.jobs = jobs;
    StreamingAnalysis analysis = AnalyzeTraceStreaming(dir, options);
    if (analysis.trace.EventCount() != 0) return "events were stored";
    return Reports(analysis.trace, analysis.result);
  } catch (const qnm::InputError& e) {
    return std::string("error: ") + e.what();
  }
}

using qnm::testing::ReadBytes;
using qnm::testing::WriteBytes;

}  // namespace

TEST_CASE("trace streaming: every real trace gives the stored analysis' reports with 1-64 threads", "[trace]") {
  for (const char* tag : kRealTraces) {
    const std::string stored = StoredOutcome(TraceDir(tag));
    REQUIRE(stored.rfind("error", 0) != 0);
    for (int jobs : {1, 2, 3, 64}) {
      INFO(tag << " with " << jobs << " threads");
      CHECK(StreamingOutcome(TraceDir(tag), jobs) == stored);
    }
  }
}

TEST_CASE("trace streaming: the analysis keeps no events and counts every record", "[trace]") {
  Trace stored = ReadOtf2Trace(TraceDir("sstmacro-mpi-coverage-test"));
  StreamingAnalysisOptions options;
  options.jobs = 4;
  StreamingAnalysis analysis = AnalyzeTraceStreaming(TraceDir("sstmacro-mpi-coverage-test"), options);
  CHECK(analysis.threads == 4);
  CHECK(analysis.trace.EventCount() == 0);
  CHECK(analysis.trace.RawEventCount() == stored.RawEventCount());
  CHECK(analysis.trace.RawEventCount() == 22180);
  CHECK(analysis.trace.warnings == stored.warnings);
  CHECK(analysis.trace.repaired_leaves == stored.repaired_leaves);
  for (std::size_t r = 0; r < stored.ranks.size(); ++r) {
    CHECK(analysis.trace.ranks[r].first_ticks == stored.ranks[r].first_ticks);
    CHECK(analysis.trace.ranks[r].last_ticks == stored.ranks[r].last_ticks);
  }
  // What is kept: records per message and MPI call, far less than the events.
  CHECK(analysis.record_bytes > 0);
  CHECK(analysis.record_bytes < stored.MemoryBytes());
}

TEST_CASE("trace streaming: generated stencils with unmatched messages and a missing participant", "[trace]") {
  qnm::testing::TempDir temp("qnm-trace-streaming", "stencil");
  StencilTraceOptions plain;
  plain.ranks = 7;
  plain.iterations = 40;
  StencilTraceOptions dropped = plain;
  dropped.drop_first_receive = true;
  StencilTraceOptions missing = plain;
  missing.skip_last_allreduce_on = 5;
  int index = 0;
  for (const StencilTraceOptions& options : {plain, dropped, missing}) {
    const std::string dir = (temp.path / std::to_string(index++)).string();
    WriteStencilTrace(dir, options);
    const std::string stored = StoredOutcome(dir);
    REQUIRE(stored.rfind("error", 0) != 0);
    for (int jobs : {1, 2, 3, 7, 9}) {
      INFO("stencil " << index << " with " << jobs << " threads");
      CHECK(StreamingOutcome(dir, jobs) == stored);
    }
  }
}

TEST_CASE("trace streaming: damaged copies fail or succeed as the stored reader does", "[trace]") {
  qnm::testing::TempDir temp("qnm-trace-streaming", "damaged");
  fs::path dir = temp.path / "sstmacro";
  qnm::testing::CopyWritable(TraceDir("sstmacro-mpi-coverage-test"), dir);
  int errors = 0;
  // Ranks 3 and 7 damaged at once: the threads holding them fail, and the
  // error reported is rank 3's, the first a sequential read meets.
  const fs::path rank3 = dir / "traces" / "3.evt", rank7 = dir / "traces" / "7.evt";
  const std::string original3 = ReadBytes(rank3), original7 = ReadBytes(rank7);
  for (double fraction : {0.0, 0.3, 0.77}) {
    WriteBytes(rank3, original3.substr(0, static_cast<std::size_t>(fraction * original3.size())));
    WriteBytes(rank7, original7.substr(0, static_cast<std::size_t>(fraction * original7.size())));
    const std::string stored = StoredOutcome(dir.string());
    errors += stored.rfind("error", 0) == 0;
    for (int jobs : {1, 2, 5}) {
      INFO("truncated to " << fraction << " with " << jobs << " threads");
      CHECK(StreamingOutcome(dir.string(), jobs) == stored);
    }
  }
  fs::remove(rank7);
  WriteBytes(rank3, original3);
  const std::string stored = StoredOutcome(dir.string());
  CHECK(stored.find("7.evt: missing event file") != std::string::npos);
  CHECK(StreamingOutcome(dir.string(), 3) == stored);
  CHECK(errors >= 1);
}

/// The run statistics of the stored trace (bytes summed over its events) as JSON.
std::string StoredRunStats(const std::string& dir) {
  Trace trace = ReadOtf2Trace(dir);
  return qnm::RunToJson(RunStatsFromTrace(trace, AnalyzeWaitStates(trace))).dump(1);
}

TEST_CASE("trace streaming: trace stats gives the stored trace's run statistics with 1-16 threads", "[trace]") {
  qnm::testing::TempDir temp("qnm-trace-streaming", "stats");
  std::vector<std::string> dirs;
  for (const char* tag : kRealTraces) dirs.push_back(TraceDir(tag));
  StencilTraceOptions stencil;
  stencil.ranks = 7;
  stencil.iterations = 30;
  stencil.drop_first_receive = true;
  dirs.push_back((temp.path / "stencil").string());
  WriteStencilTrace(dirs.back(), stencil);
  for (const std::string& dir : dirs) {
    const std::string stored = StoredRunStats(dir);
    CHECK(stored.find("\"p2p_bytes_sent\"") != std::string::npos);
    for (int jobs : {1, 2, 3, 16}) {
      INFO(dir << " with " << jobs << " threads");
      CHECK(qnm::RunToJson(ReadTraceRunStats(dir, jobs)).dump(1) == stored);
    }
  }
}

TEST_CASE("trace streaming: options are checked", "[trace]") {
  StreamingAnalysisOptions options;
  std::string error;
  CHECK(options.IsValid(&error));
  options.jobs = -1;
  CHECK_FALSE(options.IsValid(&error));
  CHECK(error.find("jobs must be 0") != std::string::npos);
  CHECK(AvailableCores() >= 1);
}

TEST_CASE("trace streaming: trace analyze --jobs 1 and --jobs 2 write byte-identical files", "[trace]") {
  qnm::testing::TempDir temp("qnm-trace-streaming", "cli");
  for (const char* tag : kRealTraces) {
    INFO(tag);
    std::string out;
    for (const char* jobs : {"1", "2"}) {
      const std::string base = (temp.path / (std::string(tag) + "-" + jobs)).string();
      REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " trace analyze " + TraceDir(tag) +
                                           " --format json --jobs " + jobs + " -o " + base + ".json --cube " +
                                           base + ".cubex 2>&1",
                                       &out) == 0);
    }
    const std::string one = (temp.path / (std::string(tag) + "-1")).string();
    const std::string two = (temp.path / (std::string(tag) + "-2")).string();
    CHECK(ReadBytes(one + ".json") == ReadBytes(two + ".json"));
    CHECK(ReadBytes(one + ".cubex") == ReadBytes(two + ".cubex"));
    CHECK(ReadBytes(one + ".json").size() > 1000);
  }
  std::string out;
  CHECK(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " trace analyze " + TraceDir("pipit-ping-pong-otf2") +
                                     " --jobs -3 2>&1",
                                 &out) != 0);
  CHECK(out.find("--jobs") != std::string::npos);
}
