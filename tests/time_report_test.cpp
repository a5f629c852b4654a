// Reports of `time` (timing_tools/time_report.h) on real outputs of an MPI program timed by bash's `time`,
// GNU time 1.9 (default, -p and -v), zsh 5.9 and tcsh 6.24 on Debian 12 (tests/data/time-report/SOURCES.md):
// each report's elapsed time, the processes from the command timed, the user's pattern or the file's name,
// repetitions in one file, failed commands, refusals, and the user's --pattern of the run time taking over.
#include "timing_tools/time_report.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "reader/file_name_info.h"
#include "reader/output_patterns.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kFolder = std::string(QNM_TEST_DATA_DIR) + "/time-report";

std::vector<qnm::TimeReport> Reports(const std::string& relative) {
  return qnm::ParseTimeReports(qnm::ReadFile(kFolder + "/" + relative), relative);
}

qnm::ReaderOutput Read(const std::string& path, const std::string& text, const qnm::RunSelection* selection = nullptr) {
  qnm::ReaderInput input;
  input.path = path;
  input.text = text;
  input.name = qnm::ParseFileName(path);
  input.selection = selection;
  return qnm::ReadTimeReport(input);
}

std::string Refusal(const std::string& path, const std::string& text) {
  try {
    Read(path, text);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("time reports: each shell's and GNU time's report as it prints it", "[time-report]") {
  std::vector<qnm::TimeReport> r = Reports("bash/stencil_np4.log");
  REQUIRE(r.size() == 1);
  CHECK(r[0].style == qnm::TimeReportStyle::kBash);
  CHECK(r[0].line == 3);
  CHECK(r[0].elapsed_s == Approx(0.646).epsilon(1e-12));
  CHECK(r[0].user_s == Approx(0.241).epsilon(1e-12));
  CHECK(r[0].system_s == Approx(0.213).epsilon(1e-12));
  CHECK(r[0].command.empty());
  r = Reports("gnu-verbose/job-2.out");
  REQUIRE(r.size() == 1);
  CHECK(r[0].style == qnm::TimeReportStyle::kGnuVerbose);
  CHECK(r[0].elapsed_s == Approx(0.63).epsilon(1e-12));
  CHECK(r[0].command == "mpirun --allow-run-as-root --oversubscribe -np 2 ./stencil 2000000 100");
  CHECK(r[0].exit_status == 0);
  r = Reports("gnu/stencil-np1.txt");
  REQUIRE(r.size() == 1);
  CHECK(r[0].style == qnm::TimeReportStyle::kGnu);
  CHECK(r[0].elapsed_s == Approx(0.46).epsilon(1e-12));
  CHECK(r[0].user_s == Approx(0.15).epsilon(1e-12));
  r = Reports("posix/stencil_np2.log");
  REQUIRE(r.size() == 1);
  CHECK(r[0].style == qnm::TimeReportStyle::kPosix);
  CHECK(r[0].elapsed_s == Approx(0.60).epsilon(1e-12));
  r = Reports("zsh/run4.log");
  REQUIRE(r.size() == 1);
  CHECK(r[0].style == qnm::TimeReportStyle::kZsh);
  CHECK(r[0].elapsed_s == Approx(0.605).epsilon(1e-12));
  CHECK(r[0].command == "mpirun --allow-run-as-root --oversubscribe -np 4 ./stencil 2000000 100");
  r = Reports("tcsh/stencil_np2.log");
  REQUIRE(r.size() == 1);
  CHECK(r[0].style == qnm::TimeReportStyle::kTcsh);
  CHECK(r[0].elapsed_s == Approx(0.57).epsilon(1e-12));
  CHECK(r[0].user_s == Approx(0.320).epsilon(1e-12));
  r = Reports("fish/stencil_np4.log");  // fish's rule, "Executed in  545.04 millis", usr and sys time
  REQUIRE(r.size() == 1);
  CHECK(r[0].style == qnm::TimeReportStyle::kFish);
  CHECK(r[0].line == 4);
  CHECK(r[0].elapsed_s == Approx(0.54504).epsilon(1e-12));
  CHECK(r[0].user_s == Approx(0.19469).epsilon(1e-12));
  CHECK(r[0].system_s == Approx(0.14719).epsilon(1e-12));
  r = Reports("failed/fish_false_np2.log");  // two reports of mpirun -np 2 /bin/false, in seconds
  REQUIRE(r.size() == 2);
  CHECK(r[1].elapsed_s == Approx(2.05).epsilon(1e-12));
  CHECK(r[1].failure_line == 12);  // Open MPI's line after the first report
  CHECK(qnm::ParseTimeReports("Executed in  1.00 secs    fish   external\n", "t.log").empty());  // no rule above
  r = qnm::ParseTimeReports(std::string(40, '_') + "\nExecuted in   15.03 mins    fish   external\n", "t.log");
  REQUIRE(r.size() == 1);
  CHECK(r[0].elapsed_s == Approx(901.8).epsilon(1e-12));
  CHECK(r[0].user_s == -1);
  CHECK_THROWS_WITH(qnm::ParseTimeReports(std::string(40, '_') + "\nExecuted in  1.x secs\n", "t.log"),
                    Catch::StartsWith("t.log:2: "));
  r = Reports("loop/stencil_np2.log");  // for i in 1 2 3; do time mpirun ...; done
  REQUIRE(r.size() == 3);
  CHECK(r[1].line == 8);
  CHECK(r[2].elapsed_s == Approx(0.560).epsilon(1e-12));
  r = Reports("failed/job.err");  // GNU time -v of a command that failed
  REQUIRE(r.size() == 1);
  CHECK(r[0].exit_status == 1);
  r = Reports("failed/stencil_np2.log");  // GNU time's "Command exited with non-zero status 1"
  REQUIRE(r.size() == 1);
  CHECK(r[0].exit_status == 1);
  // Durations of an hour and more, and a locale's decimal comma.
  r = qnm::ParseTimeReports("real\t62m3,500s\nuser\t1m0,000s\nsys\t0m1,000s\n", "t.log");
  REQUIRE(r.size() == 1);
  CHECK(r[0].elapsed_s == Approx(3723.5).epsilon(1e-12));
  r = qnm::ParseTimeReports("1.00user 0.50system 1:02:03elapsed 99%CPU (0avgtext+0avgdata 1maxresident)k\n", "t.log");
  REQUIRE(r.size() == 1);
  CHECK(r[0].elapsed_s == Approx(3723).epsilon(1e-12));
  CHECK(qnm::ParseTimeReports("the real question\nuser manual\nsys admin\n", "t.log").empty());
  CHECK_FALSE(qnm::HasTimeReport("real 5 apples\nused 3\n"));
  // zsh's trace ("+zsh:1> ..."), and a traced line that runs no launcher.
  r = qnm::ParseTimeReports("+zsh:1> mpirun -np 3 ./a\n+ cd run\nreal 1.5\nuser 1.0\nsys 0.1\n", "t.log");
  REQUIRE(r.size() == 1);
  CHECK(r[0].command == "mpirun -np 3 ./a");
  CHECK(r[0].traced_line == 1);
  r = qnm::ParseTimeReports("+ ./prepare.sh\nreal 1.5\nuser 1.0\nsys 0.1\n", "t.log");
  REQUIRE(r.size() == 1);
  CHECK(r[0].command.empty());
}

TEST_CASE("time reports: runs, their processes from the command, the pattern or the name", "[time-report]") {
  // GNU time -v names the command: mpirun -np 4.
  qnm::ReaderOutput output =
      Read(kFolder + "/gnu-verbose/job-4.out", qnm::ReadFile(kFolder + "/gnu-verbose/job-4.out"));
  REQUIRE(output.runs.size() == 1);
  CHECK(output.runs[0].procs == 4);
  CHECK(output.runs[0].app.str() == "stencil");
  CHECK(output.runs[0].details.at("command.arguments") == "2000000 100");
  CHECK(output.runs[0].derivations.at("procs") == "GNU time -v command: mpirun -np 4");
  CHECK(output.runs[0].derivations.at("wall_time_s") ==
        "GNU time -v report, line 6: the elapsed (real) time of the command timed, the launcher's start-up included");
  // bash's report names no command: the file's name says np4; the program is the name's first word.
  output = Read(kFolder + "/bash/stencil_np4.log", qnm::ReadFile(kFolder + "/bash/stencil_np4.log"));
  REQUIRE(output.runs.size() == 1);
  CHECK(output.runs[0].procs == 4);
  CHECK(output.runs[0].wall_time_s == Approx(0.646).epsilon(1e-12));
  CHECK(output.runs[0].app.str() == "stencil");
  CHECK(output.runs[0].derivations.at("procs") == "the file's name (stencil_np4.log)");
  // Three reports of a loop: three repetitions at P = 2.
  output = Read(kFolder + "/loop/stencil_np2.log", qnm::ReadFile(kFolder + "/loop/stencil_np2.log"));
  REQUIRE(output.runs.size() == 3);
  CHECK(output.runs[2].procs == 2);
  CHECK(output.runs[2].origin == "line 13");
  // The folder a run's process count names: the user's `procs@path` pattern.
  qnm::RunSelection selection;
  selection.output_patterns.push_back(qnm::ParseOutputPattern("procs@path=runs/(\\d+)/"));
  const std::string in_folder = kFolder + "/patterns/runs/4/out.log";
  output = Read(in_folder, qnm::ReadFile(in_folder), &selection);
  REQUIRE(output.runs.size() == 1);
  CHECK(output.runs[0].procs == 4);
  CHECK(output.runs[0].derivations.at("procs") == "--pattern procs@path, the file's path");
  CHECK(output.runs[0].app.str() == "output");  // "out.log" and "4" name no program (an `app` pattern would)
  // ... or a line of the program's own output.
  qnm::RunSelection by_line;
  by_line.output_patterns.push_back(qnm::ParseOutputPattern("procs=ranks=(\\d+)"));
  output = Read(in_folder, qnm::ReadFile(in_folder), &by_line);
  CHECK(output.runs[0].derivations.at("procs") == "--pattern procs, line 1");
  // `set -x` traced each command of a loop before its report: each report's processes from its trace.
  output = Read(kFolder + "/traced/job.log", qnm::ReadFile(kFolder + "/traced/job.log"));
  REQUIRE(output.runs.size() == 3);
  CHECK(output.runs[1].procs == 2);
  CHECK(output.runs[2].procs == 4);
  CHECK(output.runs[2].wall_time_s == Approx(0.684).epsilon(1e-12));
  CHECK(output.runs[1].derivations.at("procs") == "the shell's trace of the command timed (line 9): mpirun -np 2");
  CHECK(output.runs[1].app.str() == "stencil");
  // The whole folder through ingest: 18 runs of one program, the failed ones and the refused ones skipped.
  qnm::IngestOptions options;
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({kFolder}, options, &summary);
  CHECK(runs.size() == 21);
  CHECK(summary.skipped.size() == 11);  // 5 failed, 3 patterns/ without their pattern, 2 refused/, SOURCES.md
  const std::vector<qnm::Series> series = qnm::GroupIntoSeries(runs);
  REQUIRE(series.size() == 1);
  CHECK(series[0].name == "stencil");
  CHECK(series[0].groups.size() == 3);
}

TEST_CASE("time reports: refusals, and the user's pattern of the run time taking over", "[time-report]") {
  CHECK(Refusal("refused/stencil.log", qnm::ReadFile(kFolder + "/refused/stencil.log")) ==
        "refused/stencil.log:3: bash time names no command, and neither a --pattern procs nor the file's name (np16, "
        "64ranks) says the processes: --pattern 'procs@path=np(\\d+)' reads them from the path");
  CHECK(Refusal("refused/malformed_np2.log", qnm::ReadFile(kFolder + "/refused/malformed_np2.log")) ==
        "refused/malformed_np2.log:3: bash time report whose time is no duration: '0m0.4x2s'");
  CHECK(Refusal("failed/job.err", qnm::ReadFile(kFolder + "/failed/job.err")) ==
        "failed/job.err:10: the command exited with status 1");
  CHECK(Refusal("t_np2.log", "real\t0m0.000s\nuser\t0m0.000s\nsys\t0m0.000s\n") == "t_np2.log:1: an elapsed time of 0");
  // bash's report has no exit status: what mpirun printed before it says the job failed.
  CHECK(Refusal("failed/false_np2.log", qnm::ReadFile(kFolder + "/failed/false_np2.log")) ==
        "failed/false_np2.log:6: the job failed (line 2: Primary job  terminated normally, but 1 process returned)");
  CHECK(Refusal("failed/segv_np2.log", qnm::ReadFile(kFolder + "/failed/segv_np2.log")) ==
        "failed/segv_np2.log:21: the job failed (line 3: [vm:23685] *** Process received signal ***)");
  // ... and only the report after it: a loop's next run is read.
  const qnm::ReaderOutput next = Read("loop_np2.log",
                                      "srun: error: task 1: Exited with exit code 1\nreal 2.0\nuser 0.1\nsys 0.1\n"
                                      "ok\nreal 3.0\nuser 2.9\nsys 0.1\n");
  REQUIRE(next.runs.size() == 1);
  CHECK(next.runs[0].wall_time_s == 3.0);
  REQUIRE(next.notes.size() == 1);
  // GNU time's own exit status is the word on its report.
  CHECK(
      Read("t_np2.log", "srun: error: a warning\n0.10user 0.01system 0:03.00elapsed 3%CPU (0avgtext)\n").runs.size() ==
      1);
  CHECK(
      Refusal("t.log", "\tCommand being timed: \"mpirun -np 2 ./a\"\n\tUser time (seconds): 0.1\n\tExit status: 0\n") ==
      "t.log:1: GNU time -v report without its \"Elapsed (wall clock) time\"");
  CHECK(Refusal("t.log", "mpirun -np zero ./a  0.22s user 0.13s system 75% cpu 0.482 total\n") ==
        "t.log:1: the command timed, 'mpirun -np zero ./a': -np zero: not a whole number of at least 1");
  // A --pattern of the run time: the user said where the time is; the report is left to it.
  qnm::RunSelection selection;
  selection.output_patterns.push_back(qnm::ParseOutputPattern("time=^real\\s+0m(\\S+)s"));
  CHECK_THROWS_WITH(Read("bash/stencil_np4.log", qnm::ReadFile(kFolder + "/bash/stencil_np4.log"), &selection),
                    "bash/stencil_np4.log: a report of time, left to the --pattern time of the run time");
  qnm::IngestOptions options;
  options.selection = selection;
  options.selection.output_patterns.push_back(qnm::ParseOutputPattern("procs@path=runs/(\\d+)/"));
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({kFolder + "/patterns"}, options, &summary);
  REQUIRE(runs.size() == 3);
  CHECK(runs[0].derivations.at("wall_time_s").find("--pattern time") != std::string::npos);
}

TEST_CASE("time reports: a run's output with its report pairs with the mpiP report beside it", "[time-report]") {
  // One run's folder: its mpiP report (4 processes, a real report of tests/data/mpip) and its job output
  // with GNU time -v's report of the same run.
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / "qnm-time-report-pairing";
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::filesystem::copy_file(std::string(QNM_TEST_DATA_DIR) + "/mpip/nunatak__mpi_workload.4.2586003.1.mpiP",
                             folder / "mpi_workload.4.2586003.1.mpiP");
  std::ofstream(folder / "job.out") << "workload done\n"
                                       "\tCommand being timed: \"mpirun -np 4 ./mpi_workload\"\n"
                                       "\tUser time (seconds): 3.10\n"
                                       "\tSystem time (seconds): 0.20\n"
                                       "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:01.25\n"
                                       "\tExit status: 0\n";
  qnm::IngestOptions options;
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = qnm::IngestPaths({folder.string()}, options, &summary);
  REQUIRE(runs.size() == 1);
  CHECK(summary.files_paired == 1);
  CHECK(runs[0].procs == 4);
  CHECK(runs[0].wall_time_s == Approx(1.25).epsilon(1e-12));
  CHECK(runs[0].mpi_time_s_per_rank.size() == 4);  // the profile's per-rank data
  CHECK(runs[0].derivations.at("pairing").find("the application's output paired with the MPI profile") == 0);
  std::filesystem::remove_all(folder);
}
