// hyperfine's exports (timing_tools/hyperfine_export.h) on real exports of hyperfine 1.15.0 (Debian 12)
// timing a strong-scaling MPI program under Open MPI 4.1 (tests/data/hyperfine/SOURCES.md): every timed
// run of the JSON export as a run, the CSV's means, the processes from the command's launcher or a
// parameter, a scanned problem size as a second series, failed runs noted, and the refusals.
#include "timing_tools/hyperfine_export.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "ingest/ingest.h"
#include "reader/file_name_info.h"
#include "record/run_stats.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kFolder = std::string(QNM_TEST_DATA_DIR) + "/hyperfine";

qnm::ReaderOutput Read(const std::string& path, const std::string& text) {
  qnm::ReaderInput input;
  input.path = path;
  input.text = text;
  input.name = qnm::ParseFileName(path);
  return qnm::ReadHyperfineExport(input);
}

std::string Refusal(const std::string& path) {
  const std::string text = qnm::ReadFile(path);
  try {
    Read(path, text);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

std::vector<qnm::RunStats> Ingest(const std::string& path, qnm::IngestSummary* summary) {
  qnm::IngestOptions options;
  return qnm::IngestPaths({path}, options, summary);
}

}  // namespace

TEST_CASE("hyperfine: a JSON export's every timed run, processes from mpirun -np", "[hyperfine]") {
  const std::string path = kFolder + "/scan/stencil.json";
  const std::string text = qnm::ReadFile(path);
  CHECK(qnm::LooksLikeHyperfineJson(text));
  CHECK_FALSE(qnm::LooksLikeHyperfineCsv(text));
  const qnm::ReaderOutput output = Read(path, text);
  REQUIRE(output.runs.size() == 12);          // 4 process counts x 3 runs (the warm-up run is not exported)
  const qnm::RunStats& run = output.runs[3];  // the first run at P = 2
  CHECK(run.procs == 2);
  CHECK(run.wall_time_s == 0.6439995226);
  CHECK(run.app.str() == "stencil");
  CHECK(run.threads_per_proc == 1);
  CHECK(run.derivations.at("procs") == "hyperfine command: mpirun -np 2");
  CHECK(run.derivations.at("wall_time_s") ==
        "hyperfine: timed run 1 of 3 of the command, its wall-clock time (the launcher's start-up included)");
  CHECK(run.details.at("command.arguments") == "4000000 100");  // the words after the program
  CHECK(run.details.count("setting.np") == 0);                  // the parameter that is the process count is no setting
  CHECK(run.sources.front() == path + ":26");
  CHECK(run.origin == "result 26 run 1");
  CHECK(output.runs[11].procs == 4);
  CHECK(output.runs[11].wall_time_s == 0.6904345946);
  REQUIRE(output.readings.size() == 1);
  CHECK(output.readings[0] == path +
                                  ": hyperfine JSON export, 4 commands, 12 timed runs; processes from the "
                                  "commands' launcher");
  // hyperfine before 1.11 wrote one unnamed "parameter" and no exit codes: the same runs.
  const qnm::ReaderOutput old =
      Read(kFolder + "/hyperfine-1.10/stencil.json", qnm::ReadFile(kFolder + "/hyperfine-1.10/stencil.json"));
  REQUIRE(old.runs.size() == 12);
  CHECK(old.runs[3].wall_time_s == run.wall_time_s);
  CHECK(old.runs[3].procs == 2);
}

TEST_CASE("hyperfine: the CSV export's means, and the CSV beside its JSON read once", "[hyperfine]") {
  const std::string path = kFolder + "/csv-only/stencil.csv";
  const std::string text = qnm::ReadFile(path);
  CHECK(qnm::LooksLikeHyperfineCsv(text));
  const qnm::ReaderOutput output = Read(path, text);
  REQUIRE(output.runs.size() == 2);
  CHECK(output.runs[0].procs == 1);
  CHECK(output.runs[0].wall_time_s == 0.44881020724);
  CHECK(output.runs[1].procs == 2);
  CHECK(output.runs[1].wall_time_s == 0.39267362524000005);
  CHECK(output.runs[1].details.at("hyperfine_stddev_s") == "0.001042");
  CHECK(output.runs[1].derivations.at("wall_time_s") ==
        "hyperfine's mean over its timed runs of the command (its CSV export holds no single run)");
  // A folder of the JSON and CSV exports of one benchmark: the JSON's runs, once.
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = Ingest(kFolder + "/scan", &summary);
  CHECK(runs.size() == 12);
  CHECK(summary.skipped.empty());
  bool noted = false;
  for (const std::string& note : summary.notes)
    noted = noted || note.find(
                         "stencil.csv: hyperfine's CSV export of the benchmarks whose every run the JSON "
                         "export beside it holds: read there, not here") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("hyperfine: a parameter as the process count, a scanned size as a series, failed runs", "[hyperfine]") {
  // sh -c '<launcher>': the launcher inside the shell's command.
  qnm::ReaderOutput output = Read(kFolder + "/shell/stencil.json", qnm::ReadFile(kFolder + "/shell/stencil.json"));
  REQUIRE(output.runs.size() == 6);
  CHECK(output.runs[4].procs == 3);
  CHECK(output.runs[4].app.str() == "stencil");
  // `--command-name` replaces the command by its name: the parameter `np` is the process count.
  output = Read(kFolder + "/named/stencil.json", qnm::ReadFile(kFolder + "/named/stencil.json"));
  REQUIRE(output.runs.size() == 4);
  CHECK(output.runs[2].procs == 2);
  CHECK(output.runs[2].wall_time_s == 0.39076820058000006);
  CHECK(output.runs[2].derivations.at("procs") == "hyperfine parameter np");
  CHECK(output.readings[0].find("processes from a parameter") != std::string::npos);
  // -L np 1,2,4 -L n 1000000,4000000: two problem sizes, two series of three process counts.
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> sized = Ingest(kFolder + "/sizes", &summary);
  REQUIRE(sized.size() == 18);
  const std::vector<qnm::Series> series = qnm::GroupIntoSeries(sized);
  REQUIRE(series.size() == 2);
  CHECK(series[0].groups.size() == 3);
  CHECK(series[0].groups[0].runs.size() == 3);
  CHECK(series[0].name == "stencil (arguments=1000000 100)");
  CHECK(series[1].name == "stencil (arguments=4000000 100)");
  int small = 0;
  for (const qnm::RunStats& run : sized) small += run.details.at("setting.n") == "1000000";  // the other parameter
  CHECK(small == 9);
  // A failed command (hyperfine -i): its runs noted, the others read.
  output = Read(kFolder + "/failed/mixed.json", qnm::ReadFile(kFolder + "/failed/mixed.json"));
  REQUIRE(output.runs.size() == 2);
  REQUIRE(output.notes.size() == 1);
  CHECK(output.notes[0] == kFolder +
                               "/failed/mixed.json: 2 of its 4 timed runs of hyperfine (the first at line 21: run "
                               "1 of 'mpirun --allow-run-as-root --oversubscribe -np 2 /bin/false' exited with "
                               "code 1): not read");
}

TEST_CASE("hyperfine: the Markdown, Org and AsciiDoc exports' means, alike", "[hyperfine]") {
  // One campaign exported three ways (-u second): the same four means, their standard deviations, and the
  // commands without their code marks.
  for (const char* name : {"stencil.md", "stencil.org", "stencil.adoc"}) {
    INFO(name);
    const std::string path = kFolder + "/markup/" + name;
    const std::string text = qnm::ReadFile(path);
    CHECK(qnm::LooksLikeHyperfineMarkup(text));
    CHECK_FALSE(qnm::LooksLikeHyperfineJson(text));
    CHECK_FALSE(qnm::LooksLikeHyperfineCsv(text));
    const qnm::ReaderOutput output = Read(path, text);
    REQUIRE(output.runs.size() == 4);
    for (int k = 0; k < 4; ++k) CHECK(output.runs[k].procs == k + 1);
    CHECK(output.runs[0].wall_time_s == 0.601);
    CHECK(output.runs[1].wall_time_s == 0.517);
    CHECK(output.runs[3].wall_time_s == 0.526);
    CHECK(output.runs[3].details.at("hyperfine_stddev_s") == "0.014000");
    CHECK(output.runs[0].app.str() == "stencil");
    CHECK(output.runs[0].details.at("hyperfine_command") ==
          "mpirun --allow-run-as-root --oversubscribe -np 1 ./stencil 4000000 100");
    REQUIRE(output.readings.size() == 1);
    CHECK_THAT(output.readings[0], Catch::Contains("4 commands, 4 means of their runs"));
  }
  const qnm::ReaderOutput org = Read(kFolder + "/markup/stencil.org", qnm::ReadFile(kFolder + "/markup/stencil.org"));
  CHECK(org.runs[2].derivations.at("wall_time_s") ==
        "hyperfine's mean over its timed runs of the command (its Org export holds no single run)");
  CHECK(org.runs[2].sources.front() == kFolder + "/markup/stencil.org:5");
  const std::string adoc = kFolder + "/markup/stencil.adoc";
  CHECK(Read(adoc, qnm::ReadFile(adoc)).runs[1].sources.front() == adoc + ":15");  // its command's line
  // A command with a pipe, which hyperfine writes as "\|" in the table: the whole command, read by its launcher.
  const std::string pipe = kFolder + "/markup/pipe.md";
  const qnm::ReaderOutput piped = Read(pipe, qnm::ReadFile(pipe));
  REQUIRE(piped.runs.size() == 2);
  CHECK(piped.runs[1].procs == 2);
  CHECK(piped.runs[1].wall_time_s == Approx(0.3497).epsilon(1e-12));
  CHECK(piped.runs[1].details.at("hyperfine_command") ==
        "mpirun --allow-run-as-root --oversubscribe -np 2 ./stencil 1000000 50 | tail -1");
  // The Markdown export beside the JSON export of the same benchmarks: the JSON's every run, once.
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = Ingest(kFolder + "/markup-beside-json", &summary);
  CHECK(runs.size() == 12);
  CHECK(summary.skipped.empty());
  bool noted = false;
  for (const std::string& note : summary.notes)
    noted = noted || note.find(
                         "both.md: hyperfine's Markdown export of the benchmarks whose every run the JSON "
                         "export beside it holds: read there, not here") != std::string::npos;
  CHECK(noted);
  // ingest takes the three exports as hyperfine's, not as a document's tables.
  qnm::IngestSummary markup;
  CHECK(Ingest(kFolder + "/markup", &markup).size() == 14);
  CHECK(markup.skipped.empty());
}

TEST_CASE("hyperfine: refusals", "[hyperfine]") {
  CHECK(Refusal(kFolder + "/refused/all-failed.json") ==
        kFolder +
            "/refused/all-failed.json:3: run 1 of 'mpirun --allow-run-as-root --oversubscribe -np 2 /bin/false' "
            "exited with code 1");
  CHECK(Refusal(kFolder + "/refused/no-procs.json") ==
        kFolder +
            "/refused/no-procs.json:3: hyperfine export: command './stencil 2000000 100' names no process "
            "count (mpirun -np N, srun -n N, ...) and no parameter does (np, procs, ranks, ...; hyperfine -P "
            "np 1 16 'mpirun -np {np} ...')");
  CHECK(Refusal(kFolder + "/refused/negative-time.json") ==
        kFolder +
            "/refused/negative-time.json:26: hyperfine export: a time in \"times\" that is no number of "
            "seconds >= 0: -0.5");
  CHECK(Refusal(kFolder + "/refused/truncated.json").find("truncated.json:") != std::string::npos);
  auto refusal_of = [](const std::string& text, const std::string& path = "t.json") {
    try {
      Read(path, text);
    } catch (const qnm::InputError& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK(refusal_of(R"({"results": [{"command": "mpirun -np x ./a", "mean": 1.0, "times": [1.0]}]})") ==
        "t.json:1: hyperfine export: command 'mpirun -np x ./a': -np x: not a whole number of at least 1");
  CHECK(refusal_of(R"({"results": [{"command": "mpirun -np 2 ./a", "times": [1.0]}]})") ==
        "t.json:1: hyperfine export: a result without \"mean\"");
  CHECK(
      refusal_of(R"({"results": [{"command": "mpirun -np 2 ./a", "mean": 1, "times": [1, 2], "exit_codes": [0]}]})") ==
      "t.json:1: hyperfine export: \"exit_codes\" does not hold one code per time of \"times\"");
  CHECK(refusal_of(R"({"results": []})") == "t.json:1: hyperfine export: no benchmark results");
  CHECK(refusal_of(R"({"results": [{"command": "mpirun -np 2 ./a", "mean": 1, "times": []}]})") ==
        "t.json:1: hyperfine export: no timed run in any result (\"times\" are empty)");
  // Commands without a process count beside ones with: noted, with how many.
  const qnm::ReaderOutput some =
      Read("t.json", R"({"results": [{"command": "mpirun -np 2 ./a", "mean": 1, "times": [1]},
    {"command": "./a", "mean": 2, "times": [2]}, {"command": "./b", "mean": 2, "times": [2]}]})");
  REQUIRE(some.runs.size() == 1);
  REQUIRE(some.notes.size() == 1);
  CHECK_THAT(some.notes[0], Catch::EndsWith("not read (nor 1 more such commands)"));
  CHECK(refusal_of(R"({"results": [{"command": "./a", "mean": 1, "times": [1], "parameters": {"np": "four"}}]})") ==
        "t.json:1: hyperfine export: parameter np = 'four' is no whole number >= 1");
  // Found by timing_tools_fuzz: a parameter named with blanks around it (" np") is the process count too.
  const qnm::ReaderOutput blanks =
      Read("t.json", R"({"results": [{"command": "./a", "mean": 1, "times": [1], "parameters": {" np": "3"}}]})");
  REQUIRE(blanks.runs.size() == 1);
  CHECK(blanks.runs[0].procs == 3);
  CHECK(blanks.runs[0].details.count("setting.np") == 0);
  CHECK(Refusal(kFolder + "/refused/named.md") ==
        kFolder +
            "/refused/named.md:3: hyperfine export: command 'stencil np=1' names no process count (mpirun -np N, "
            "srun -n N, ...) and no parameter does (np, procs, ranks, ...; hyperfine -P np 1 16 'mpirun -np {np} "
            "...'); hyperfine's Markdown export keeps no parameter, its JSON export does");
  const std::string header = "| Command | Mean [ms] | Min [ms] | Max [ms] | Relative |\n|:---|---:|---:|---:|---:|\n";
  CHECK(refusal_of(header + "| `mpirun -np 2 ./a` | 1.0 ± x | 1 | 1 | 1.00 |\n", "t.md") ==
        "t.md:3: hyperfine export: column Mean holds no time >= 0 (with its '\u00b1 deviation'): '1.0 \u00b1 x'");
  CHECK(refusal_of(header + "| `mpirun -np 2 ./a` | 1.0 | 1 |\n", "t.md") ==
        "t.md:3: hyperfine export: a row of 3 cells under a header of 5");
  CHECK(refusal_of(header + "| `mpirun -np 2 ./a` | 1.0 | 1 | 1 | 1.00 |\nnotes\n", "t.md") ==
        "t.md:4: hyperfine export: text after the table of hyperfine's Markdown export (a document with more in it "
        "is read as a document's tables)");
  CHECK(refusal_of("[cols=\"<,>,>,>,>\"]\n|===\n| Command\n| Mean [s]\n| Min [s]\n| Max [s]\n| Relative\n\n"
                   "| `mpirun -np 2 ./a`\n| 1.0\n",
                   "t.adoc") == "t.adoc:10: hyperfine export: the AsciiDoc table has no closing |===");
  CHECK_FALSE(qnm::LooksLikeHyperfineMarkup("| Command | Mean [ms] | Min [s] | Max [ms] | Relative |\n|:---|\n"));
  CHECK_FALSE(qnm::LooksLikeHyperfineMarkup("| procs | Mean [ms] |\n|---|---|\n| 2 | 1.0 |\n"));
  CHECK_FALSE(qnm::LooksLikeHyperfineJson(R"({"runs": [{"command": "x"}]})"));
  CHECK_FALSE(qnm::LooksLikeHyperfineCsv("command,mean\n"));
}
