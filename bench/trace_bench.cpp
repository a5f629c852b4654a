// Trace analysis speed and memory. Every measurement is one fresh process
// (this program re-run with --stage), so that its first run is what one
// `qnm-predict trace analyze` call pays (page faults on fresh memory, thread
// start-up) and its peak RSS is the stage's own. CPU time is user + system of
// the child (all its threads; getrusage via wait4), the fair figure on a
// shared machine; wall time is reported beside it with the load average.
//
// Stages on each trace:
//   decode         libotf2 decoding with no callbacks, one thread (the floor)
//   decodes        as many decode processes at once as there are cores: what the
//                  machine's cores deliver together, the yardstick of the threaded rows
//   stored         ReadOtf2Trace + AnalyzeWaitStates + t_ijp (the in-memory trace)
//   stream -j 1    AnalyzeTraceStreaming with one thread + t_ijp
//   stream -j all  the same with every core available (and with 16 threads, one
//                  per rank of the generated trace: its critical path, the slowest
//                  reading thread's CPU time, the slowest thread of each
//                  point-to-point step and the serial part, is the wall time on
//                  16 idle cores)
//   stream blocks  the same with --window 0: each thread reads its block of
//                  ranks whole and every record is held until the end (the
//                  analysis before matching while reading; the default for
//                  traces under 32 MB of event files per rank)
//   stream windows the same with --window 65536: a reader per rank in
//                  lock-step windows, records freed as they are analysed (the
//                  default from 32 MB of event files per rank)
//   replay R       mpirun -np R qnm-replay-mpi (--replay PATH; R = 1..4)
//
// The runs go in rounds, every stage once per round after that round's
// decode-only run; beside the best and first runs, each stage's median ratio to
// the decode of its own round (a paired comparison, fair when the machine's
// speed drifts between minutes). --idle S lets the machine idle S seconds
// before every run: one command after a pause, as a user runs it.
//
//   trace_bench [--events N[,N...]] [--runs K] [--idle SECONDS] [--dir DIR] [--keep] [--replay PATH] [--no-stored]
//   trace_bench --generate-only --dir DIR --events N   (writes DIR/stencil-N and stops)
//   trace_bench --stage decode|stored|stream [--jobs N] [--window EVENTS] TRACE   (one measurement; used internally)
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/synthetic_trace.h"
#include "trace/activity_times.h"
#include "trace/otf2_reader.h"
#include "trace/streaming_analysis.h"
#include "trace/wait_states.h"
#include "util/cpu_clock.h"
#include "util/statistics.h"

namespace fs = std::filesystem;
using namespace qnm::trace;
using Clock = std::chrono::steady_clock;
using qnm::ThreadCpuSeconds;

namespace {


/// One measured stage in a child process: prints the records it saw (and,
/// for the streaming analysis, its critical-path CPU seconds).
int RunStage(const std::string& stage, int jobs, long long window_events, const std::string& path) {
  uint64_t records = 0;
  if (stage == "decode") {
    records = DecodeOtf2EventsOnly(path);
  } else if (stage == "stored") {
    Trace trace = ReadOtf2Trace(path);
    WaitStateResult result = AnalyzeWaitStates(trace);
    qnm::ActivityRegionTimes times = ActivityTimesFromTrace(trace, result);
    if (times.time_s.empty()) return 1;
    records = trace.RawEventCount();
  } else if (stage == "stream") {
    StreamingAnalysisOptions options;
    options.jobs = jobs;
    if (window_events >= 0) {
      options.window_events = static_cast<uint64_t>(window_events);
      options.window_min_rank_bytes = 0;
    }
    StreamingAnalysis analysis = AnalyzeTraceStreaming(path, options);
    const double start = ThreadCpuSeconds();
    qnm::ActivityRegionTimes times = ActivityTimesFromTrace(analysis.trace, analysis.result);
    if (times.time_s.empty()) return 1;
    records = analysis.trace.RawEventCount();
    // The critical path: the slowest reading thread, the slowest thread of
    // each point-to-point step, then the serial rest.
    const double read_s = *std::max_element(analysis.read_cpu_s.begin(), analysis.read_cpu_s.end());
    const double serial_s = analysis.serial_cpu_s + ThreadCpuSeconds() - start;
    std::printf("%llu %.6f %.6f %.6f %.6f\n", static_cast<unsigned long long>(records),
                read_s + analysis.parallel_cpu_s + serial_s, read_s, analysis.parallel_cpu_s, serial_s);
    return 0;
  } else {
    std::fprintf(stderr, "trace_bench: unknown stage '%s'\n", stage.c_str());
    return 2;
  }
  std::printf("%llu\n", static_cast<unsigned long long>(records));
  return 0;
}

struct Run {
  double cpu_s = 0, wall_s = 0;
  double critical_cpu_s = 0;  // streaming: slowest reading thread + parallel steps + serial part (0 = not reported)
  double read_cpu_s = 0, parallel_cpu_s = 0, serial_cpu_s = 0;  // its three parts
  double peak_rss_mb = 0;  // the child's (for mpirun: the largest process's)
  bool ok = false;
};

/// Writes the stencil trace in a child process and returns its record count (0 on failure).
/// The child's memory goes with it: a child measured later is forked from this process, and
/// Linux counts the memory it had when forked into that child's peak (ru_maxrss).
uint64_t WriteStencilTraceApart(const std::string& path, const StencilTraceOptions& options) {
  int out[2];
  if (pipe(out) != 0) return 0;
  std::fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    close(out[0]);
    uint64_t written = 0;
    try {
      written = WriteStencilTrace(path, options);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "trace_bench: %s\n", e.what());
    }
    ssize_t n = write(out[1], &written, sizeof written);
    _exit(n == static_cast<ssize_t>(sizeof written) && written > 0 ? 0 : 1);
  }
  close(out[1]);
  uint64_t written = 0;
  if (child < 0 || read(out[0], &written, sizeof written) != static_cast<ssize_t>(sizeof written)) written = 0;
  close(out[0]);
  int status = 0;
  if (child > 0) waitpid(child, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? written : 0;
}

/// Runs `argv` as a child process and measures it.
Run Measure(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  std::fflush(stdout);  // or the child would write our buffered lines again
  int out[2];
  if (pipe(out) != 0) return Run{};
  Clock::time_point start = Clock::now();
  pid_t child = fork();
  if (child == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(out[1]);
  Run run;
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  close(out[0]);
  if (child < 0) return run;
  std::istringstream fields(text);
  unsigned long long records = 0;
  fields >> records >> run.critical_cpu_s >> run.read_cpu_s >> run.parallel_cpu_s >> run.serial_cpu_s;
  int status = 0;
  rusage usage{};
  if (wait4(child, &status, 0, &usage) != child) return run;
  run.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  run.cpu_s = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
              1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  run.peak_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;
  run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return run;
}

struct Row {
  std::string label;
  std::vector<std::string> argv;
  Run first, best;  // best = least CPU time over the runs
  double best_wall_s = 1e300;
  double best_critical_s = 1e300;  // streaming only
  Run best_critical;               // the run with the shortest critical path (its parts)
  // This row's CPU and wall time over the decode-only run of the same round: rounds run every row
  // once in turn, so that a machine whose speed drifts between minutes (this project's virtual
  // machine: 1.6x within ten minutes, bench/README.md) slows both sides of a pair alike.
  std::vector<double> paired_cpu, paired_wall;
};

void AddRun(Row* row, const Run& run, const Run& decode, int round) {
  if (!run.ok) throw std::runtime_error("failed: " + row->label);
  if (round == 0) row->first = row->best = run;
  if (run.cpu_s < row->best.cpu_s) row->best = run;
  if (run.critical_cpu_s > 0 && run.critical_cpu_s < row->best_critical_s) {
    row->best_critical_s = run.critical_cpu_s;
    row->best_critical = run;
  }
  row->best_wall_s = std::min(row->best_wall_s, run.wall_s);
  row->best.peak_rss_mb = std::max(row->best.peak_rss_mb, run.peak_rss_mb);
  row->paired_cpu.push_back(run.cpu_s / decode.cpu_s);
  row->paired_wall.push_back(run.wall_s / decode.wall_s);
}

/// Measures every row `runs` times, round by round (the first row, decode only, first in each).
/// With `idle_s` > 0 the machine idles that long before every run: what one command
/// after a pause pays. On this project's virtual machine memory freed for a few
/// seconds goes back to the host, and the next process to touch it pays about
/// 1.8 ms per MB of fresh memory (bench/README.md, round 12).
void MeasureRounds(std::vector<Row>* rows, int runs, int idle_s) {
  auto measure = [idle_s](const Row& row) {
    if (idle_s > 0) ::sleep(static_cast<unsigned>(idle_s));
    return Measure(row.argv);
  };
  for (int round = 0; round < runs; ++round) {
    const Run decode = measure(rows->front());
    AddRun(&rows->front(), decode, decode, round);
    for (std::size_t k = 1; k < rows->size(); ++k) AddRun(&(*rows)[k], measure((*rows)[k]), decode, round);
  }
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five;
  in >> one >> five;
  return one + " / " + five;
}

void PrintRows(const std::string& trace, uint64_t records, const std::vector<Row>& rows) {
  const double decode_first = rows.front().first.cpu_s, decode_best = rows.front().best.cpu_s;
  const double decode_wall = rows.front().best_wall_s;
  std::printf("\n%s: %llu records, %d cores available, load average (1 / 5 min) %s\n", trace.c_str(),
              static_cast<unsigned long long>(records), AvailableCores(), LoadAverage().c_str());
  std::printf("| stage | CPU s first | CPU s best | x decode (first / best) | wall s first | wall s best | "
              "wall / 1-thread decode wall | paired x decode, median over rounds: CPU / wall | "
              "critical path CPU s (x decode) = read + p2p + rest | peak RSS MB | bytes/record |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const Row& row : rows) {
    char critical[128] = "–";
    if (row.best_critical_s < 1e300)
      std::snprintf(critical, sizeof critical, "%.3f (%.2fx) = %.3f + %.3f + %.3f", row.best_critical_s,
                    row.best_critical_s / decode_best, row.best_critical.read_cpu_s, row.best_critical.parallel_cpu_s,
                    row.best_critical.serial_cpu_s);
    std::printf("| %s | %.3f | %.3f | %.2f / %.2f | %.3f | %.3f | %.2f | %.2f / %.2f | %s | %.0f | %.1f |\n",
                row.label.c_str(), row.first.cpu_s, row.best.cpu_s, row.first.cpu_s / decode_first,
                row.best.cpu_s / decode_best, row.first.wall_s, row.best_wall_s, row.best_wall_s / decode_wall,
                qnm::MedianOfKnown(row.paired_cpu), qnm::MedianOfKnown(row.paired_wall), critical, row.best.peak_rss_mb,
                row.best.peak_rss_mb * 1048576.0 / static_cast<double>(records));
  }
  std::fflush(stdout);
}

std::vector<uint64_t> ParseSizes(const std::string& text) {
  std::vector<uint64_t> sizes;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) sizes.push_back(std::strtoull(item.c_str(), nullptr, 10));
  return sizes;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<uint64_t> sizes = {10'500'000};
  std::string dir = (fs::temp_directory_path() / ("qnm-trace-bench-" + std::to_string(::getpid()))).string();
  std::string real = std::string(QNM_SOURCE_DIR) + "/tests/data/otf2/sstmacro-mpi-coverage-test";
  std::string replay, stage, stage_path;
  int runs = 3, jobs = 0, idle_s = 0;
  long long window_events = -1;  // --window: events per rank and window (0 = blocks read whole); -1 = default
  bool keep = false, stored = true, generate_only = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--events" && i + 1 < argc) sizes = ParseSizes(argv[++i]);
    else if (arg == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (arg == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--idle" && i + 1 < argc) idle_s = std::clamp(std::atoi(argv[++i]), 0, 600);
    else if (arg == "--replay" && i + 1 < argc) replay = argv[++i];
    else if (arg == "--stage" && i + 1 < argc) stage = argv[++i];
    else if (arg == "--jobs" && i + 1 < argc) jobs = std::atoi(argv[++i]);
    else if (arg == "--window" && i + 1 < argc) window_events = std::atoll(argv[++i]);
    else if (arg == "--keep") keep = true;
    else if (arg == "--no-stored") stored = false;
    else if (arg == "--generate-only") generate_only = keep = true;
    else if (!stage.empty() && stage_path.empty() && arg[0] != '-') stage_path = arg;
    else {
      std::fprintf(stderr,
                   "usage: trace_bench [--events N[,N...]] [--runs K] [--idle SECONDS] [--dir DIR] [--keep] "
                   "[--replay PATH] [--no-stored]\n"
                   "       trace_bench --generate-only --dir DIR --events N[,N...]\n"
                   "       trace_bench --stage decode|stored|stream [--jobs N] [--window EVENTS] TRACE\n");
      return 2;
    }
  }
  try {
    if (!stage.empty()) return RunStage(stage, jobs, window_events, stage_path);
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    const std::string all = std::to_string(AvailableCores());
    auto measure = [&](const std::string& path, uint64_t records, int repeats) {
      std::vector<Row> rows;
      auto add = [&](const std::string& label, std::vector<std::string> argv) {
        rows.push_back(Row{label, std::move(argv)});
      };
      add("decode only (libotf2, 1 thread)", {self, "--stage", "decode", path});
      // The machine's yardstick for the threaded rows: as many decodes at once as there are cores,
      // each of the whole trace. Its wall time over one decode's is what the cores deliver together
      // (1.00: each as fast as one alone; on this project's virtual machine up to 1.6 at times).
      if (AvailableCores() > 1) {
        std::string many;
        for (int k = 0; k < AvailableCores(); ++k)
          many += (k ? " & " : "") + std::string("'") + self + "' --stage decode '" + path + "' >/dev/null";
        add(all + " decodes at once (processes; the machine's yardstick)", {"/bin/sh", "-c", many + "; wait"});
      }
      if (stored) add("stored trace: read + wait states + t_ijp", {self, "--stage", "stored", path});
      add("streaming, 1 thread", {self, "--stage", "stream", "--jobs", "1", path});
      add("streaming, " + all + " threads", {self, "--stage", "stream", "--jobs", all, path});
      // The two ways of reading, whichever the default picks for this trace:
      // each thread reads its block of ranks whole (all records held until
      // the end), or a reader per rank in lock-step windows.
      add("streaming in whole blocks (--window 0), " + all + " threads",
          {self, "--stage", "stream", "--jobs", all, "--window", "0", path});
      add("streaming in windows (--window 65536), " + all + " threads",
          {self, "--stage", "stream", "--jobs", all, "--window", "65536", path});
      // One thread per rank of the generated trace: its critical path is the
      // wall time a machine with that many idle cores would take.
      add("streaming, 16 threads", {self, "--stage", "stream", "--jobs", "16", path});
      if (!replay.empty())
        for (int r = 1; r <= 4; ++r)
          add("qnm-replay-mpi, R = " + std::to_string(r),
              {"mpirun", "--allow-run-as-root", "--oversubscribe", "--mca", "btl", "self,vader", "-np",
               std::to_string(r), replay, path, "--format", "json", "-o", "/dev/null"});
      MeasureRounds(&rows, repeats, idle_s);
      PrintRows(path, records, rows);
    };
    if (!generate_only) measure(real, 22180, runs);
    for (uint64_t target : sizes) {
      StencilTraceOptions options;
      options.ranks = 16;
      // 20 records per rank and iteration plus 4 per Allreduce (every 10 iterations).
      options.iterations = static_cast<int>(target / (options.ranks * 20.4)) + 1;
      const std::string path = dir + "/stencil-" + std::to_string(target);
      uint64_t written = 0;
      if (fs::exists(path + "/traces.otf2")) {
        written = DecodeOtf2EventsOnly(path);
        std::printf("\nReusing %s\n", path.c_str());
      } else {
        fs::remove_all(path);
        Clock::time_point start = Clock::now();
        written = WriteStencilTraceApart(path, options);
        if (written == 0) {
          std::fprintf(stderr, "trace_bench: %s: could not write the generated trace\n", path.c_str());
          return 1;
        }
        std::printf("\nGenerated %llu records (%d ranks x %d iterations) in %.1f s into %s\n",
                    static_cast<unsigned long long>(written), options.ranks, options.iterations,
                    std::chrono::duration<double>(Clock::now() - start).count(), path.c_str());
      }
      if (!generate_only) measure(path, written, runs);
      if (!keep) fs::remove_all(path);
    }
    if (!keep) fs::remove_all(dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "trace_bench: %s\n", e.what());
    if (!keep) fs::remove_all(dir);
    return 1;
  }
  return 0;
}
