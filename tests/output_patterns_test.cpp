// --pattern FIELD=REGEX (reader/output_patterns.h, app_outputs/pattern_output.h): any program's
// output read by where it says its values. Real outputs of a program no reader of ours knows:
// LANL's PENNANT, its own sample outputs from NERSC Edison and LLNL Vulcan, and three runs made
// here (tests/data/pennant/SOURCES.md). Values come from the files' own digits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "app_outputs/pattern_output.h"
#include "ingest/ingest.h"
#include "record/run_stats.h"
#include "reader/output_patterns.h"

namespace {

const std::string kPennant = std::string(QNM_TEST_DATA_DIR) + "/pennant";

// PENNANT prints "Running on 16 MPI PE(s)", "Running on 4 thread(s)" (OpenMP builds only),
// "Zones:  259200" and, at the end, "hydro cycle run time=   1.162704e+02".
std::vector<std::string> PennantPatterns() {
  return {R"(time=hydro cycle run time=\s*(\S+))", R"(procs=Running on (\d+) MPI PE)",
          R"(threads=Running on (\d+) thread)", R"(class=^Zones:\s+(\d+))"};
}

std::vector<qnm::RunStats> Ingest(const std::vector<std::string>& paths, const std::vector<std::string>& patterns,
                                  qnm::IngestSummary* summary) {
  qnm::IngestOptions options;
  for (const std::string& spec : patterns) options.selection.output_patterns.push_back(qnm::ParseOutputPattern(spec));
  return qnm::IngestPaths(paths, options, summary);
}

std::map<std::string, const qnm::RunStats*> ByFile(const std::vector<qnm::RunStats>& runs) {
  std::map<std::string, const qnm::RunStats*> by;
  for (const qnm::RunStats& run : runs) by[run.sources.front().substr(run.sources.front().rfind('/') + 1)] = &run;
  return by;
}

}  // namespace

TEST_CASE("a pattern is FIELD=REGEX with one group; what is wrong with one is said", "[patterns]") {
  const qnm::OutputPattern time = qnm::ParseOutputPattern(R"(time=hydro cycle run time=\s*(\S+))");
  CHECK(time.field == "time_s");
  CHECK(time.seconds_per_unit == 1.0);
  CHECK(time.text == R"(hydro cycle run time=\s*(\S+))");  // the first '=' ends the field
  CHECK(qnm::ParseOutputPattern("time_ms=took (\\d+) ms").seconds_per_unit == Approx(1e-3));
  CHECK(qnm::ParseOutputPattern("time_min=(\\S+) minutes").seconds_per_unit == 60.0);
  CHECK(qnm::ParseOutputPattern("procs=on (\\d+) ranks").field == "procs");
  CHECK(qnm::ParseOutputPattern("app=^program: (\\w+)").IsText());
  auto refusal = [](const std::string& spec) {
    try {
      qnm::ParseOutputPattern(spec);
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK(refusal("speed=(\\d+)").find("unknown field 'speed'") != std::string::npos);
  CHECK(refusal("time_weeks=(\\d+)").find("unknown field 'time_weeks'") != std::string::npos);
  CHECK(refusal("no equals sign").find("is not FIELD=REGEX") != std::string::npos);
  CHECK(refusal("=(\\d+)").find("is not FIELD=REGEX") != std::string::npos);
  CHECK(refusal("time=").find("empty regular expression") != std::string::npos);
  CHECK(refusal("time=(").find("is not a regular expression") != std::string::npos);
  CHECK(refusal("time=\\d+ s").find("has 0 capture groups; it needs exactly one") != std::string::npos);
  CHECK(refusal("time=(\\d+)\\.(\\d+)").find("has 2 capture groups") != std::string::npos);
  CHECK(refusal("time=(?:real|user) (\\S+)").empty());  // a group that captures nothing is not counted
}

TEST_CASE("PENNANT's own sample outputs read by four patterns", "[patterns][ingest]") {
  qnm::IngestSummary summary;
  const auto runs = Ingest({kPennant + "/sample_outputs"}, PennantPatterns(), &summary);
  REQUIRE(runs.size() == 11);
  CHECK(summary.skipped.empty());
  const auto by = ByFile(runs);
  // Vulcan (BG/Q), 16 MPI PEs x 4 threads, 259,200 zones.
  const qnm::RunStats& sedov = *by.at("sedovflat.out");
  CHECK(sedov.procs == 16);
  CHECK(sedov.threads_per_proc == 4);
  CHECK(sedov.wall_time_s == Approx(116.2704).epsilon(1e-12));
  CHECK(sedov.problem_class.str() == "259200");
  CHECK(sedov.app.str() == "sedovflat");
  CHECK(sedov.derivations.at("wall_time_s").rfind("--pattern time, line ", 0) == 0);
  CHECK(sedov.derivations.at("app") == "the file's or its folder's name (no --pattern app)");
  // Edison, a pure-MPI build: no threads line, so one thread; 49,152 PEs.
  const qnm::RunStats& big = *by.at("leblancx64.mpi2048.out");
  CHECK(big.procs == 49152);
  CHECK(big.threads_per_proc == 1);
  CHECK(big.wall_time_s == Approx(3760.46).epsilon(1e-12));
  CHECK(big.problem_class.str() == "943718400");
  // BG/Q's runjob warnings after the results made NPB's reader (which takes every *.out by its
  // name) refuse these as failed jobs; the patterns read them.
  const qnm::RunStats& vulcan = *by.at("leblancx16.out");
  CHECK(vulcan.procs == 65536);
  CHECK(vulcan.wall_time_s == Approx(166.1431).epsilon(1e-12));
  REQUIRE(summary.readings.size() == 1);
  CHECK(summary.readings.front() == "11 files: read by --pattern: time procs threads class");
}

TEST_CASE("without patterns, the outputs no reader knows stay unread", "[patterns][ingest]") {
  qnm::IngestSummary summary;
  CHECK(Ingest({kPennant + "/sample_outputs"}, {}, &summary).empty());
  CHECK(summary.skipped.size() == 11);
}

TEST_CASE("patterns never change how a known format is read", "[patterns][ingest]") {
  // A pattern that matches NPB's own lines: NPB's reader still reads NPB outputs.
  const std::vector<std::string> greedy = {R"(time=Time in seconds =\s*(\S+))", R"(procs=Total processes =\s*(\d+))"};
  for (const std::string& folder : {"/npb", "/lammps", "/mpip"}) {
    qnm::IngestSummary plain_summary, patterned_summary;
    const auto plain = Ingest({std::string(QNM_TEST_DATA_DIR) + folder}, {}, &plain_summary);
    const auto patterned = Ingest({std::string(QNM_TEST_DATA_DIR) + folder}, greedy, &patterned_summary);
    REQUIRE(plain.size() == patterned.size());
    CHECK(plain_summary.skipped.size() == patterned_summary.skipped.size());
    for (std::size_t i = 0; i < plain.size(); ++i) {
      CHECK(plain[i].sources == patterned[i].sources);
      CHECK(plain[i].TotalTimeSeconds() == patterned[i].TotalTimeSeconds());
      CHECK(plain[i].procs == patterned[i].procs);
      CHECK(plain[i].derivations.count("wall_time_s") == patterned[i].derivations.count("wall_time_s"));
    }
  }
}

TEST_CASE("the last matching line is the value; the file name gives the processes the lines do not",
          "[patterns][ingest]") {
  // PENNANT prints "wall = ..." every 100 cycles: the last of them, the file name's np2 as P.
  qnm::IngestSummary summary;
  const auto runs = Ingest({kPennant + "/sedovbig-c300/pennant-np2.out"}, {R"(time=, wall = (\S+))"}, &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].procs == 2);
  CHECK(runs[0].derivations.at("procs") == "the file name");
  CHECK(runs[0].wall_time_s == Approx(5.96206).epsilon(1e-12));  // "End cycle    300, ..., wall = 5.96206e+00"
  CHECK(runs[0].derivations.at("wall_time_s").find("(the last of 4 matching lines)") != std::string::npos);
  CHECK(runs[0].app.str() == "pennant");
  // In milliseconds: the same digits, a thousandth of the seconds.
  const auto in_ms = Ingest({kPennant + "/sedovbig-c300/pennant-np2.out"},
                            {R"(time_ms=hydro cycle run time=\s*(\S+))"}, &summary);
  REQUIRE(in_ms.size() == 1);
  CHECK(in_ms[0].wall_time_s == Approx(18.10886e-3).epsilon(1e-12));
}

TEST_CASE("a pattern-read file that says too little is skipped with its reason", "[patterns][ingest]") {
  qnm::IngestSummary summary;
  // The run time found, no process count in the lines or in the name "sedovflat.out".
  CHECK(Ingest({kPennant + "/sample_outputs/vulcan/sedovflat.out"}, {R"(time=hydro cycle run time=\s*(\S+))"},
               &summary).empty());
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].reason.find("the run time is found (--pattern) but no process count") != std::string::npos);
  // A value that is not a number, named with its line.
  CHECK(Ingest({kPennant + "/sample_outputs/vulcan/sedovflat.out"},
               {R"(time=hydro cycle run (time)=)", R"(procs=Running on (\d+) MPI PE)"}, &summary).empty());
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].reason.find("sedovflat.out:") != std::string::npos);
  CHECK(summary.skipped[0].reason.find("--pattern time matched 'time', which is not a number") != std::string::npos);
  // Hexadecimal is no number here: BG/Q's runjob lines carry "[0x400033af950]".
  CHECK(Ingest({kPennant + "/sample_outputs/vulcan/leblancx16.out"},
               {R"(time=hydro cycle run time=\s*(\S+))", R"(procs=\[(0x[0-9a-f]+)\])"}, &summary).empty());
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].reason.find("matched '0x400033af950', which is not a number") != std::string::npos);
  // A process count that is no whole number ("kinetic =   2.244475e-01").
  CHECK(Ingest({kPennant + "/sample_outputs/vulcan/sedovflat.out"},
               {R"(time=hydro cycle run time=\s*(\S+))", R"(procs=kinetic =\s+([0-9.e+-]+))"}, &summary).empty());
  CHECK(summary.skipped[0].reason.find("not a whole number >= 1") != std::string::npos);
  // No line with the run time: counted with the files no reader knows, the reason saying why, even
  // where another pattern matched something that is no number ("meshtype rect").
  for (const std::string& procs : {std::string(R"(procs=Running on (\d+) MPI PE)"), std::string(R"(procs=meshtype (\S+))")}) {
    CHECK(Ingest({kPennant + "/sedovbig-c300/sedovbig-c300.pnt"}, {R"(time=hydro cycle run time=\s*(\S+))", procs},
                 &summary).empty());
    REQUIRE(summary.skipped.size() == 1);
    CHECK(summary.skipped[0].Unrecognised());
    CHECK(summary.skipped[0].reason.find("no line matches the --pattern of the run time") != std::string::npos);
  }
}

TEST_CASE("a pattern-read run is named for its program", "[patterns]") {
  CHECK(qnm::ApplicationFromPath("runs/sedovflat.out") == "sedovflat");
  CHECK(qnm::ApplicationFromPath("runs/leblancx16.thr1024.out") == "leblancx");
  CHECK(qnm::ApplicationFromPath("campaign/pennant/slurm-12345.out") == "pennant");  // slurm names no program
  CHECK(qnm::ApplicationFromPath("np16/out.log") == "output");
  CHECK(qnm::ApplicationFromPath("Nek5000-run/np16.log") == "nek");
}

TEST_CASE("a program's long log is read by the patterns up to 64 MiB", "[patterns][ingest]") {
  // PENNANT's sedovflat output with its cycle lines repeated past the 16 MiB that a file no reader
  // knows may have: with --pattern it is a run; without, refused before it is read.
  std::ifstream in(kPennant + "/sample_outputs/vulcan/sedovflat.out");
  std::stringstream whole;
  whole << in.rdbuf();
  const std::string text = whole.str();
  const std::size_t cycles = text.find("End cycle"), done = text.find("Run complete");
  REQUIRE(cycles != std::string::npos);
  REQUIRE(done != std::string::npos);
  const std::string middle = text.substr(cycles, done - cycles);
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "qnm-patterns-long-run-np16";  // no reader claims the name
  {
    std::ofstream out(file);
    out << text.substr(0, done);
    for (std::size_t written = text.size(); written < (20u << 20); written += middle.size()) out << middle;
    out << text.substr(done);
  }
  qnm::IngestSummary summary;
  const auto runs = Ingest({file.string()}, PennantPatterns(), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].wall_time_s == Approx(116.2704).epsilon(1e-12));
  CHECK(Ingest({file.string()}, {}, &summary).empty());
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].reason.find("larger than the 16 MiB limit for a file whose first 256 KB no reader") !=
        std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("a job that ran the program several times, appending, is as many runs", "[patterns][ingest]") {
  // The three runs made here, one after the other in one file, as `for np in ...; do mpirun ...; done`
  // writes them: each run-time line closes a run when the process count or threads changed.
  std::vector<std::string> texts;
  std::string joined;
  for (const char* name : {"pennant-np1.out", "pennant-np2.out", "pennant-np1-th2.out", "pennant-np2.out"}) {
    std::ifstream in(kPennant + "/sedovbig-c300/" + name);
    std::stringstream whole;
    whole << in.rdbuf();
    texts.push_back(whole.str());
    joined += texts.back();
  }
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "qnm-patterns-appended.log";
  std::ofstream(file) << joined;
  qnm::IngestSummary summary;
  auto runs = Ingest({file.string()}, PennantPatterns(), &summary);
  REQUIRE(runs.size() == 4);
  // In the file's order (ingest orders records by their source text, "file:141" before "file:35").
  auto line_of = [](const qnm::RunStats& run) {
    return std::stoi(run.sources.front().substr(run.sources.front().rfind(':') + 1));
  };
  std::sort(runs.begin(), runs.end(),
            [&](const qnm::RunStats& a, const qnm::RunStats& b) { return line_of(a) < line_of(b); });
  CHECK(runs[0].procs == 1);
  CHECK(runs[0].threads_per_proc == 1);
  CHECK(runs[0].wall_time_s == Approx(35.96972).epsilon(1e-12));
  CHECK(runs[1].procs == 2);
  CHECK(runs[1].wall_time_s == Approx(18.10886).epsilon(1e-12));
  CHECK(runs[2].procs == 1);
  CHECK(runs[2].threads_per_proc == 2);
  CHECK(runs[2].wall_time_s == Approx(17.0978).epsilon(1e-12));
  CHECK(runs[3].procs == 2);
  // Each run names its run-time line: the fourth is in the fourth text.
  auto lines = [](const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); };
  const std::string& last = texts[3];
  const int time_line = lines(texts[0]) + lines(texts[1]) + lines(texts[2]) +
                        lines(last.substr(0, last.find("hydro cycle run time"))) + 1;
  CHECK(runs[3].sources.front() == file.string() + ":" + std::to_string(time_line));
  bool noted = false;
  for (const std::string& note : summary.notes)
    noted = noted || note.find("4 runs, one per change of the other patterns' values") != std::string::npos;
  CHECK(noted);
  // The same run appended twice is one configuration: the last of its run-time lines.
  std::ofstream(file) << texts[0] << texts[0];
  const auto twice = Ingest({file.string()}, PennantPatterns(), &summary);
  REQUIRE(twice.size() == 1);
  CHECK(twice[0].derivations.at("wall_time_s").find("(the last of 2 matching lines)") != std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("a user's expression never crashes or hangs the reading", "[patterns][ingest]") {
  // A 60,000-character line (std::regex recursed per character there and overflowed the stack) and
  // an expression that backtracks without bound (Boost.Regex gives up and says so, at its line).
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "qnm-patterns-hard-np4.log";
  std::ofstream(file) << std::string(60000, 'x') << "\n" << std::string(40, 'a') << "c\n"
                      << "hydro cycle run time=   1.162704e+02\n";
  qnm::IngestSummary summary;
  const auto whole_lines = Ingest({file.string()}, {R"(time=^hydro cycle run time=\s*(.*)$)"}, &summary);
  REQUIRE(whole_lines.size() == 1);
  CHECK(whole_lines[0].wall_time_s == Approx(116.2704).epsilon(1e-12));
  CHECK(whole_lines[0].procs == 4);  // the file name's np4
  CHECK(Ingest({file.string()}, {R"(time=^(.*)$)"}, &summary).empty());  // every line matches: the last is no number
  CHECK(summary.skipped[0].reason.find(":3: --pattern time matched 'hydro cycle run time=") != std::string::npos);
  CHECK(Ingest({file.string()}, {R"(time=(a+)+b)"}, &summary).empty());
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].reason.find(":2: --pattern time gave up on this line (The complexity of matching the "
                                       "regular expression exceeded predefined bounds): write the expression so "
                                       "that it backtracks less") != std::string::npos);
  std::filesystem::remove(file);
}
