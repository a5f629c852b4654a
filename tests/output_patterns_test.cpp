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
#include "models/decomposition.h"
#include "reader/output_patterns.h"
#include "record/run_stats.h"
#include "record/run_stats_json.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

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
  // The measured values, by the statistics table's column names, with a unit and a reduction.
  const qnm::OutputPattern mpi = qnm::ParseOutputPattern("mpi_time_ms:sum=MPI (\\S+) ms");
  CHECK(mpi.field == "mpi_time_s");
  CHECK(mpi.seconds_per_unit == Approx(1e-3));
  CHECK(mpi.reduction == qnm::PatternReduction::kSum);
  CHECK(mpi.IsMeasure());
  CHECK_FALSE(mpi.IsRunTime());
  CHECK(qnm::ParseOutputPattern("mpi_time_max_us=(\\S+)").field == "mpi_time_max_s");
  CHECK(qnm::ParseOutputPattern("mpi_time_max_us=(\\S+)").seconds_per_unit == Approx(1e-6));
  CHECK(qnm::ParseOutputPattern("app_time=(\\S+)").field == "app_time_s");
  CHECK(qnm::ParseOutputPattern("messages:first=(\\S+)").reduction == qnm::PatternReduction::kFirst);
  CHECK(qnm::ParseOutputPattern("bytes:max=(\\S+)").IsMeasure());
  CHECK(qnm::ParseOutputPattern("time:min=(\\S+)").IsRunTime());
  CHECK_FALSE(qnm::ParseOutputPattern("procs=(\\d+)").IsMeasure());
  CHECK(refusal("mpi_time:median=(\\S+)").find("mpi_time: unknown reduction 'median' (first, last, sum, mean or avg, "
                                               "min, max)") != std::string::npos);
  CHECK(qnm::ParseOutputPattern("mpi_time:avg=(\\S+)").reduction == qnm::PatternReduction::kMean);  // JUBE's name
  CHECK(refusal("procs:first=(\\d+)").find("procs: takes no reduction") != std::string::npos);
  CHECK(refusal("mpi_time_fortnights=(\\S+)").find("unknown field 'mpi_time_fortnights'") != std::string::npos);
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
  // A `*.out` that NPB's reader takes by its name and refuses, and that the user's time pattern does not
  // match either ("Total Time: (\S+)" where the program pads with spaces): both are said, not only NPB's
  // reason, which read as if the patterns had not been tried (round 42's held-out SCC logs).
  CHECK(Ingest({kPennant + "/sample_outputs/vulcan/sedovflat.out"}, {R"(time=hydro cycle run time=(\S+))"}, &summary)
            .empty());
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].reason.find("sedovflat.out") != std::string::npos);
  CHECK(summary.skipped[0].reason.find("; no line matches the --pattern of the run time either") != std::string::npos);
}

TEST_CASE("a configuration only the file's path says is read by a pattern on the path", "[patterns][ingest]") {
  // Users' own layouts: a folder per process count (`sedov/2/run.log`) and a name of their own
  // (`sedov_1n_2c.log`, where nodes and cores per job are spelled out). PENNANT's own outputs, renamed.
  const std::filesystem::path root = std::filesystem::temp_directory_path() / "qnm_path_patterns";
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "sedov" / "1");
  std::filesystem::create_directories(root / "sedov" / "2");
  std::filesystem::copy_file(kPennant + "/sedovbig-c300/pennant-np1.out", root / "sedov" / "1" / "run.log");
  std::filesystem::copy_file(kPennant + "/sedovbig-c300/pennant-np2.out", root / "sedov" / "2" / "run.log");
  std::filesystem::copy_file(kPennant + "/sedovbig-c300/pennant-np2.out", root / "sedov_1n_2c.log");
  const std::string time = R"(time=hydro cycle run time=\s*(\S+))";
  qnm::IngestSummary summary;
  const auto by_folder = Ingest({(root / "sedov").string()},
                                {time, R"(procs@path=/(\d+)/run\.log$)", R"(app@path=([a-z]+)/\d+/run)"}, &summary);
  REQUIRE(by_folder.size() == 2);
  std::map<int, const qnm::RunStats*> by_procs;
  for (const qnm::RunStats& run : by_folder) by_procs[run.procs] = &run;
  REQUIRE(by_procs.count(1) == 1);
  REQUIRE(by_procs.count(2) == 1);
  CHECK(by_procs[2]->wall_time_s == Approx(18.10886).epsilon(1e-12));  // "hydro cycle run time=   1.810886e+01"
  CHECK(by_procs[2]->derivations.at("procs") == "--pattern procs@path, the file's path");
  CHECK(by_procs[2]->app.str() == "sedov");  // without app@path: "output" ("run" and "2" name no program)
  const auto by_name = Ingest({(root / "sedov_1n_2c.log").string()},
                              {time, R"(nodes@path=_(\d+)n_)", R"(procs@path=_(\d+)c\.log$)"}, &summary);
  REQUIRE(by_name.size() == 1);
  CHECK(by_name[0].procs == 2);
  CHECK(by_name[0].nodes == 1);
  CHECK(by_name[0].ranks_per_node == 2);
  // A path the pattern does not match: the file is skipped with its reason, never read without it.
  CHECK(Ingest({(root / "sedov_1n_2c.log").string()}, {time, R"(procs@path=/np(\d+)/)"}, &summary).empty());
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].reason.find("sedov_1n_2c.log: the file's path matches no --pattern procs@path") !=
        std::string::npos);
  // What a pattern on the path may not be.
  auto refusal = [](const std::string& spec) {
    try {
      std::vector<qnm::OutputPattern> patterns;
      qnm::AddOutputPattern(qnm::ParseOutputPattern(R"(procs=Running on (\d+) MPI PE)"), &patterns);
      qnm::AddOutputPattern(qnm::ParseOutputPattern(spec), &patterns);
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK(refusal(R"(time@path=_(\d+)s)").find("time@path: a path says a run's configuration") != std::string::npos);
  CHECK(refusal(R"(threads@file=_(\d+)t)").find("unknown scope '@file'") != std::string::npos);
  CHECK(refusal(R"(procs@path=_(\d+)c)").find("its field is given twice") != std::string::npos);
  CHECK(refusal(R"(threads@path=_(\d+)t)").empty());
  std::filesystem::remove_all(root);
}

TEST_CASE("rows of nodes and ranks per node are runs of their product", "[patterns][ingest]") {
  // 2DECOMP&FFT's scalability files: "# Nodes, Ptile, Forward, Back" and one row per node count, the fifth
  // column (forward + back) unlabelled; each row is a run (its configuration printed again).
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "qnm_ptile_rows.dat";
  {
    std::ofstream out(file);
    out << "# Nodes, Ptile,    Forward,    Back\n"
           "1, 128, 6.22259025293985, 7.389253360985163, 13.611843613925013\n"
           "2, 128, 3.1624003807687457, 3.7157309512625063, 6.878131332031252\n";
  }
  qnm::IngestSummary summary;
  const auto runs = Ingest({file.string()},
                           {R"(nodes=^(\d+),)", R"(ranks_per_node=^\d+,\s*(\d+),)",
                            R"(time=^\d+,\s*\d+,\s*\S+,\s*\S+,\s*(\S+)$)"},
                           &summary);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].procs == 128);
  CHECK(runs[1].procs == 256);
  CHECK(runs[1].nodes == 2);
  CHECK(runs[1].wall_time_s == Approx(6.878131332031252).epsilon(1e-12));
  CHECK(runs[1].derivations.at("procs") == "nodes x ranks per node (--pattern nodes, --pattern ranks_per_node)");
  std::filesystem::remove(file);
}

TEST_CASE("a pattern-read run is named for its program", "[patterns]") {
  CHECK(qnm::ApplicationFromPath("runs/sedovflat.out") == "sedovflat");
  CHECK(qnm::ApplicationFromPath("runs/leblancx16.thr1024.out") == "leblancx");
  CHECK(qnm::ApplicationFromPath("campaign/pennant/slurm-12345.out") == "pennant");  // slurm names no program
  CHECK(qnm::ApplicationFromPath("miniweather/MPI-16_slurm-10943290.out") == "miniweather");  // how it ran
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
    noted = noted || note.find("4 runs: each run-time line after a line of its configuration") != std::string::npos;
  CHECK(noted);
  // The same configuration run twice (a repetition): the second printed its "Running on" lines
  // again, so it is a second run, not a later line of the first.
  std::ofstream(file) << texts[0] << texts[0];
  auto twice = Ingest({file.string()}, PennantPatterns(), &summary);
  REQUIRE(twice.size() == 2);
  std::sort(twice.begin(), twice.end(),
            [&](const qnm::RunStats& a, const qnm::RunStats& b) { return line_of(a) < line_of(b); });
  CHECK(line_of(twice[1]) == lines(texts[0]) + line_of(twice[0]));
  for (const qnm::RunStats& run : twice) {
    CHECK(run.procs == 1);
    CHECK(run.wall_time_s == Approx(35.96972).epsilon(1e-12));
  }
  // Time lines with no configuration line between them are one run: PENNANT's "wall = " every 100
  // cycles, with its process count's line printed once before them.
  const auto steps = Ingest({kPennant + "/sedovbig-c300/pennant-np2.out"},
                            {R"(time=, wall = (\S+))", R"(procs=Running on (\d+) MPI PE)"}, &summary);
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].derivations.at("wall_time_s").find("(the last of 4 matching lines)") != std::string::npos);
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

namespace {

const std::string kMiniAmr = std::string(QNM_TEST_DATA_DIR) + "/miniamr";

// miniAMR's profile prints its block communication four times (the whole exchange, then the X, Y
// and Z directions); the first of each is the whole's (tests/data/miniamr/SOURCES.md).
std::vector<std::string> MiniAmrPatterns() {
  return {R"(time=^Summary: .* time (\S+))", R"(procs=^Summary: ranks (\d+))",
          R"(mpi_time:first=^\s+Wait time\s+:\s*(\S+))", R"(messages:first=^\s+Messages sent\s+:\s*(\S+))",
          R"(bytes:first=^\s+Bytes sent\s+:\s*(\S+))"};
}


}  // namespace

TEST_CASE("a program's own MPI time and messages, read by patterns, are the queueing model's inputs",
          "[patterns][ingest]") {
  qnm::IngestSummary summary;
  const auto runs = Ingest({kMiniAmr}, MiniAmrPatterns(), &summary);
  REQUIRE(runs.size() == 2);
  const auto by = ByFile(runs);
  const qnm::RunStats& one = *by.at("np1.out");
  const qnm::RunStats& two = *by.at("np2.out");
  // "Summary: ranks 2 ts 40 time 42.456614 calc 21.089362 comm 18.133432 red 2.345690 ..."
  CHECK(two.procs == 2);
  CHECK(two.wall_time_s == Approx(42.456614).epsilon(1e-12));
  // "     Wait time              : 2.789556 0.818965 1.970590 3.608521" (the whole exchange's, line 249)
  CHECK(two.mpi_time_mean_s == Approx(2.789556).epsilon(1e-12));
  CHECK(two.derivations.at("mpi_time_mean_s") == "--pattern mpi_time:first, line 249 (the first of 4 matching lines)");
  CHECK(two.messages_per_rank == 2000.0);
  CHECK(two.bytes_sent_per_rank == 1019392000.0);
  CHECK(two.bytes_per_message == Approx(509696.0).epsilon(1e-12));
  // No --pattern app_time: the run time is the time the MPI time is part of.
  CHECK(two.app_time_mean_s == two.wall_time_s);
  CHECK(two.derivations.at("app_time_mean_s") == "the run time (--pattern time, line 445; no --pattern app_time)");
  CHECK(two.compute_time_mean_s == Approx(42.456614 - 2.789556).epsilon(1e-12));
  CHECK(qnm::HasMpiProfile(two));
  CHECK(one.procs == 1);
  CHECK(one.wall_time_s == Approx(62.594959).epsilon(1e-12));
  CHECK(one.mpi_time_mean_s == Approx(0.000129).epsilon(1e-12));
  CHECK(one.messages_per_rank == 0.0);  // one rank sends no message
  CHECK(qnm::HasMpiProfile(one));
  // Without the MPI patterns the same files are runtime-only runs.
  const auto plain = Ingest({kMiniAmr}, {MiniAmrPatterns()[0], MiniAmrPatterns()[1]}, &summary);
  REQUIRE(plain.size() == 2);
  for (const qnm::RunStats& run : plain) CHECK_FALSE(qnm::HasMpiProfile(run));
}

TEST_CASE("a measured value's lines reduced: first, last, sum, min, max", "[patterns][ingest]") {
  qnm::IngestSummary summary;
  const std::string np2 = kMiniAmr + "/np2.out";
  auto read = [&](const std::string& pattern) {
    const auto runs = Ingest({np2}, {MiniAmrPatterns()[0], MiniAmrPatterns()[1], pattern}, &summary);
    REQUIRE(runs.size() == 1);
    return runs[0];
  };
  // "Messages sent" per direction after the whole's 2000: 800 (X), 600 (Y), 600 (Z); "Bytes sent"
  // 1019392000, then 886272000, 87040000, 46080000.
  CHECK(read(R"(messages=^\s+Messages sent\s+:\s*(\S+))").messages_per_rank == 600.0);  // last: Z's
  const qnm::RunStats least = read(R"(messages:min=^\s+Messages sent\s+:\s*(\S+))");
  CHECK(least.messages_per_rank == 600.0);
  CHECK(least.derivations.at("messages_per_rank") == "--pattern messages:min, line 313 (the min of 4 matching lines)");
  CHECK(read(R"(messages:max=^\s+Messages sent\s+:\s*(\S+))").messages_per_rank == 2000.0);
  const qnm::RunStats sum = read(R"(bytes:sum=^\s+Bytes sent\s+:\s*(\S+))");
  CHECK(sum.bytes_sent_per_rank == 1019392000.0 + 886272000.0 + 87040000.0 + 46080000.0);
  CHECK(sum.derivations.at("bytes_sent_per_rank") ==
        "--pattern bytes:sum, the sum of 4 matching lines (lines 262-340)");
  // With a unit, summed: the whole's wait and its three directions' (lines 249, 278, 304, 330), read
  // as milliseconds.
  const qnm::RunStats waits = read(R"(mpi_time_ms:sum=^\s+Wait time\s+:\s*(\S+))");
  CHECK(waits.mpi_time_mean_s == Approx((2.789556 + 1.322747 + 0.593002 + 0.873806) * 1e-3).epsilon(1e-12));
  // Their mean (a program printing one line per rank: the mean over the ranks).
  const qnm::RunStats mean = read(R"(mpi_time:mean=^\s+Wait time\s+:\s*(\S+))");
  CHECK(mean.mpi_time_mean_s == Approx((2.789556 + 1.322747 + 0.593002 + 0.873806) / 4).epsilon(1e-12));
  CHECK(mean.derivations.at("mpi_time_mean_s") == "--pattern mpi_time:mean, the mean of 4 matching lines (lines 249-330)");
  // A measured value must be a number >= 0; a sum's value that is not names its line.
  CHECK(Ingest({np2}, {MiniAmrPatterns()[0], MiniAmrPatterns()[1], R"(mpi_time:sum=^\s+Wait (time))"}, &summary)
            .empty());
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].reason.find("np2.out:249: --pattern mpi_time:sum matched 'time', which is not a number") !=
        std::string::npos);
  CHECK(Ingest({np2}, {MiniAmrPatterns()[0], MiniAmrPatterns()[1], R"(bytes=^Center starting at (\S+))"}, &summary)
            .empty());
  REQUIRE(summary.skipped.size() == 1);
  CHECK(summary.skipped[0].reason.find("--pattern bytes gave -1.1: not a measured value >= 0") != std::string::npos);
}

TEST_CASE("in a job of appended runs each run's measured values are its own lines'", "[patterns][ingest]") {
  // np1's output, then np2's, as a job running both would write them: the first of np2's "Wait
  // time" lines is after np1's run-time line, so it is np2's, not np1's.
  const std::string first = qnm::ReadFile(kMiniAmr + "/np1.out"), second = qnm::ReadFile(kMiniAmr + "/np2.out");
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "qnm-patterns-miniamr-job.log";
  std::ofstream(file) << first << second;
  qnm::IngestSummary summary;
  auto runs = Ingest({file.string()}, MiniAmrPatterns(), &summary);
  REQUIRE(runs.size() == 2);
  std::sort(runs.begin(), runs.end(), [](const qnm::RunStats& a, const qnm::RunStats& b) { return a.procs < b.procs; });
  const int lines_of_first = static_cast<int>(std::count(first.begin(), first.end(), '\n'));
  CHECK(runs[0].mpi_time_mean_s == Approx(0.000129).epsilon(1e-12));
  CHECK(runs[0].messages_per_rank == 0.0);
  CHECK(runs[1].mpi_time_mean_s == Approx(2.789556).epsilon(1e-12));
  CHECK(runs[1].derivations.at("mpi_time_mean_s") ==
        "--pattern mpi_time:first, line " + std::to_string(lines_of_first + 249) + " (the first of 4 matching lines)");
  CHECK(runs[1].messages_per_rank == 2000.0);
  CHECK(runs[1].sources.front() == file.string() + ":" + std::to_string(lines_of_first + 445));
  std::filesystem::remove(file);
}

TEST_CASE("a program's pattern set kept in a file reads as the same patterns on the command line",
          "[patterns][ingest]") {
  const std::string bundled = std::string(QNM_SOURCE_DIR) + "/data/patterns/";
  const std::vector<qnm::OutputPattern> pennant = qnm::ReadOutputPatternFile(bundled + "pennant.patterns");
  REQUIRE(pennant.size() == PennantPatterns().size());
  for (std::size_t k = 0; k < pennant.size(); ++k)
    CHECK(pennant[k].name + "=" + pennant[k].text == PennantPatterns()[k]);
  const std::vector<qnm::OutputPattern> miniamr = qnm::ReadOutputPatternFile(bundled + "miniamr.patterns");
  REQUIRE(miniamr.size() == MiniAmrPatterns().size());
  for (std::size_t k = 0; k < miniamr.size(); ++k)
    CHECK(miniamr[k].name + "=" + miniamr[k].text == MiniAmrPatterns()[k]);
  // The runs they read are the same records.
  qnm::IngestSummary summary;
  qnm::IngestOptions options;
  options.selection.output_patterns = miniamr;
  const auto by_file = qnm::IngestPaths({kMiniAmr}, options, &summary);
  const auto by_specs = Ingest({kMiniAmr}, MiniAmrPatterns(), &summary);
  REQUIRE(by_file.size() == 2);
  CHECK(qnm::RunsToCsv(by_file) == qnm::RunsToCsv(by_specs));

  // A command-line pattern replaces the file's of its field (time and time_ms are one field).
  const auto merged = qnm::WithOverrides(pennant, {qnm::ParseOutputPattern(R"(time_ms=hydro cycle run time=\s*(\S+))")});
  REQUIRE(merged.size() == 4);
  CHECK(merged.back().name == "time_ms");
  CHECK(std::count_if(merged.begin(), merged.end(), [](const qnm::OutputPattern& p) { return p.field == "time_s"; }) ==
        1);
}

TEST_CASE("a pattern file that is wrong is refused with its file and line", "[patterns]") {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "qnm-patterns-file-test.patterns";
  auto refusal = [&](const std::string& text) {
    std::ofstream(file) << text;
    try {
      qnm::ReadOutputPatternFile(file.string());
    } catch (const qnm::InputError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK(refusal("# PENNANT\n\ntime=hydro cycle run time=\\s*(\\S+)\nprocs=Running on \\d+ MPI PE\n")
            .find(file.string() + ":4: procs: 'Running on \\d+ MPI PE' has 0 capture groups") != std::string::npos);
  CHECK(refusal("time=run time (\\S+)\r\n  # a comment after blanks\r\ntime_ms=took (\\d+) ms\r\n")
            .find(":3: time_ms: its field is given twice (time and time_ms); one pattern a field") != std::string::npos);
  CHECK(refusal("# nothing but comments\n\n").find("no pattern in the file") != std::string::npos);
  CHECK(refusal(std::string("time=(\\S+)\n\0\x7f", 13)).find("not a pattern file (binary: a zero byte)") !=
        std::string::npos);
  CHECK(refusal("# long\ntime=" + std::string(5000, 'x') + "(\\S+)\n").find(":2: a line longer than 4 KiB") !=
        std::string::npos);
  CHECK(refusal("time=run time (\\S+)\r\n   procs=on (\\d+) ranks\n").empty());  // CRLF and leading blanks
  std::filesystem::remove(file);
  CHECK_THROWS_AS(qnm::ReadOutputPatternFile(file.string()), qnm::InputError);
  // Twice on the command line, refused as well.
  std::vector<qnm::OutputPattern> patterns;
  qnm::AddOutputPattern(qnm::ParseOutputPattern("mpi_time=(\\S+)"), &patterns);
  CHECK_THROWS_AS(qnm::AddOutputPattern(qnm::ParseOutputPattern("mpi_time_ms:sum=(\\S+)"), &patterns),
                  std::invalid_argument);
}

TEST_CASE("a user whose program's outputs gave no run is told how to read them", "[patterns][ingest]") {
  // miniAMR's outputs are named *.out, which NPB's reader takes; it finds no NPB text and an
  // "Error tolorance for variable sums" line, so it cannot tell a failed job from another program.
  qnm::IngestSummary summary;
  CHECK(Ingest({kMiniAmr}, {}, &summary).empty());
  const std::string why = summary.NoRunsReason(false);
  CHECK(why.find(kMiniAmr + "/np1.out:180: no run in it: the job failed before its program printed one, or it is no "
                            "NPB output (line 180: Error tolorance for variable sums is 10^(-8)); 2 more files "
                            "skipped; ") == 0);
  CHECK(why.find(qnm::kOutputPatternHint) != std::string::npos);
  CHECK(summary.NoRunsReason(true).find("--pattern") == std::string::npos);  // patterns given: no hint
  CHECK(qnm::IngestSummary().NoRunsReason(false).empty());                    // nothing skipped, nothing to say
}
