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

/// `window_events`: events per rank and lock-step window of the matching
/// while reading, however small the trace (0: blocks of ranks read whole);
/// -1: the defaults (small traces are read in blocks).
std::string StreamingOutcome(const std::string& dir, int jobs, long long window_events = -1) {
  try {
    StreamingAnalysisOptions options;
    options.jobs = jobs;
    if (window_events >= 0) {
      options.window_events = static_cast<uint64_t>(window_events);
      options.window_min_rank_bytes = 0;
    }
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
    // Windows of a few events: most receives wait for their sends, most
    // sends for their receives' Late Sender, across many windows.
    for (long long window : {0, 1, 13, 500}) {
      for (int jobs : {1, 2, 3}) {
        INFO(tag << " with " << jobs << " threads, windows of " << window << " events");
        CHECK(StreamingOutcome(TraceDir(tag), jobs, window) == stored);
      }
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
      for (long long window : {-1, 0, 1, 5, 64}) {
        INFO("stencil " << index << " with " << jobs << " threads, windows of " << window << " events");
        CHECK(StreamingOutcome(dir, jobs, window) == stored);
      }
    }
  }
}

TEST_CASE("trace streaming: matching while reading holds a window's records, not the trace's", "[trace]") {
  qnm::testing::TempDir temp("qnm-trace-streaming", "windows");
  StencilTraceOptions stencil;
  stencil.ranks = 16;
  stencil.iterations = 400;
  const std::string dir = (temp.path / "stencil").string();
  const uint64_t records = WriteStencilTrace(dir, stencil);
  StreamingAnalysisOptions options;
  options.jobs = 2;
  options.window_events = 0;
  const StreamingAnalysis whole = AnalyzeTraceStreaming(dir, options);
  options.window_events = 200;
  options.window_min_rank_bytes = 0;
  const StreamingAnalysis windows = AnalyzeTraceStreaming(dir, options);
  // Whole blocks: 8.4 bytes per record (docs/streaming-analysis.md).
  CHECK(whole.record_bytes > 8 * records);
  // Windows of 200 events per rank: a few windows' records at a time (plus
  // the collective records and the profile, kept whole in both), whatever
  // the trace's length.
  CHECK(windows.record_bytes < whole.record_bytes / 5);
  CHECK(Reports(windows.trace, windows.result) == Reports(whole.trace, whole.result));
}

/// `trace analyze` in a fresh process: its exit status, output and JSON report.
struct CliOutcome {
  int status = 0;
  std::string output, json;
};
CliOutcome CliAnalyze(const std::string& dir, const std::string& flags, const fs::path& json) {
  CliOutcome outcome;
  fs::remove(json);
  outcome.status = qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " trace analyze " + dir + " " + flags +
                                                " --format json -o " + json.string() + " 2>&1",
                                            &outcome.output);
  if (fs::exists(json)) outcome.json = ReadBytes(json);
  return outcome;
}

TEST_CASE("trace streaming: damaged copies fail or succeed as the stored reader does", "[trace]") {
  // The streaming runs are fresh processes: on a truncated event file
  // libotf2 parses the rest of its chunk buffer, whose bytes a long-running
  // process's reader threads may have used before (malloc arenas are handed
  // from finished threads to new ones), so in-process runs after other
  // analyses can read stale events there instead of failing the same way.
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
    const bool failed = stored.rfind("error: ", 0) == 0;
    errors += failed;
    std::string first_json;
    for (const char* flags : {"--jobs 1", "--jobs 2", "--jobs 5", "--jobs 2 --window 0", "--jobs 5 --window 0",
                              "--jobs 1 --window 7", "--jobs 2 --window 7"}) {
      INFO("truncated to " << fraction << " with " << flags);
      const CliOutcome outcome = CliAnalyze(dir.string(), flags, temp.path / "report.json");
      if (failed) {
        CHECK(outcome.status != 0);
        CHECK(outcome.output.find(stored.substr(7)) != std::string::npos);
        CHECK(outcome.json.empty());  // no half-written report
      } else {
        CHECK(outcome.status == 0);
        if (first_json.empty()) first_json = outcome.json;
        CHECK(outcome.json == first_json);
        CHECK(outcome.json.size() > 1000);
      }
    }
  }
  fs::remove(rank7);
  WriteBytes(rank3, original3);
  const std::string stored = StoredOutcome(dir.string());
  CHECK(stored.find("7.evt: missing event file") != std::string::npos);
  CHECK(StreamingOutcome(dir.string(), 3) == stored);
  CHECK(StreamingOutcome(dir.string(), 3, 5) == stored);
  CHECK(StreamingOutcome(dir.string(), 3, 0) == stored);
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

TEST_CASE("trace streaming: trace analyze --jobs 1, --jobs 2 and --window write byte-identical files", "[trace]") {
  qnm::testing::TempDir temp("qnm-trace-streaming", "cli");
  for (const char* tag : kRealTraces) {
    INFO(tag);
    std::string out;
    const std::vector<std::pair<std::string, std::string>> runs = {
        {"1", "--jobs 1"}, {"2", "--jobs 2"}, {"w", "--jobs 2 --window 9"}, {"b", "--jobs 2 --window 0"}};
    for (const auto& [name, flags] : runs) {
      const std::string base = (temp.path / (std::string(tag) + "-" + name)).string();
      REQUIRE(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " trace analyze " + TraceDir(tag) +
                                           " --format json " + flags + " -o " + base + ".json --cube " + base +
                                           ".cubex 2>&1",
                                       &out) == 0);
    }
    const std::string one = (temp.path / (std::string(tag) + "-1")).string();
    CHECK(ReadBytes(one + ".json").size() > 1000);
    for (const char* name : {"2", "w", "b"}) {
      const std::string other = (temp.path / (std::string(tag) + "-" + name)).string();
      CHECK(ReadBytes(one + ".json") == ReadBytes(other + ".json"));
      CHECK(ReadBytes(one + ".cubex") == ReadBytes(other + ".cubex"));
    }
  }
  std::string out;
  CHECK(qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " trace analyze " + TraceDir("pipit-ping-pong-otf2") +
                                     " --jobs -3 2>&1",
                                 &out) != 0);
  CHECK(out.find("--jobs") != std::string::npos);
}
