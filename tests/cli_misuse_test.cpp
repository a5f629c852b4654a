// The command line misused as a careless or hostile user would (issue 13):
// every row runs qnm-predict and asserts its exit code, exactly one line on
// stderr naming the problem (none on success), no temporary left behind and
// the device nodes /dev/null and /dev/full still devices (CI runs as root:
// an atomic rename over them would replace the system's devices).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "command_runner.h"
#include "plots/charts.h"
#include "util/atomic_directory.h"
#include "util/atomic_file.h"
#include "util/temp_registry.h"

namespace fs = std::filesystem;

namespace {

const std::string kSeries = std::string(QNM_SOURCE_DIR) + "/data/default-series";

/// A scratch folder with the inputs the table refers to as {tmp}/...
class Sandbox {
 public:
  Sandbox() {
    std::string pattern = (fs::temp_directory_path() / "qnm-misuse-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    root_ = pattern;
    fs::create_directory(root_ / "empty");
    fs::create_directory(root_ / "a-folder");
    fs::create_directory(root_ / "many");
    for (int i = 0; i < 10000; ++i)  // unrelated files: no known format among them
      std::ofstream(root_ / "many" / ("note" + std::to_string(i) + ".bin")) << "unrelated " << i << "\n";
    fs::create_symlink("loop", root_ / "loop");  // a link to itself
    fs::create_directory(root_ / "with-loop");
    fs::create_symlink("../with-loop", root_ / "with-loop" / "up");  // a folder cycle
    fs::copy_file(std::string(QNM_TEST_DATA_DIR) + "/tables/lu_b_g5k_median.csv", root_ / "input.csv");
    std::ofstream(root_ / "empty.dat");  // an NPB output name, no contents
    // The bundled series without its P = 2 run: leave-one-out with few points.
    fs::create_directory(root_ / "no-p2");
    for (const auto& entry : fs::directory_iterator(kSeries))
      if (entry.path().filename().string().find(".C.2.2.") == std::string::npos)
        fs::copy_file(entry.path(), root_ / "no-p2" / entry.path().filename());
  }
  ~Sandbox() {
    std::error_code ignored;
    fs::remove_all(root_, ignored);
  }
  const fs::path& root() const { return root_; }

 private:
  fs::path root_;
};

Sandbox& TheSandbox() {
  static Sandbox sandbox;
  return sandbox;
}

std::string Expand(std::string text) {
  const std::pair<std::string, std::string> keys[] = {
      {"{tmp}", TheSandbox().root().string()}, {"{data}", QNM_TEST_DATA_DIR}, {"{series}", kSeries}};
  for (const auto& [key, value] : keys)
    for (std::size_t at; (at = text.find(key)) != std::string::npos;) text.replace(at, key.size(), value);
  return text;
}

struct CliRun {
  int exit_code = -1;
  std::string out, err;
};

CliRun RunCli(const std::string& args) {
  const fs::path err_file = TheSandbox().root() / "stderr.txt";
  CliRun run;
  run.exit_code = qnm::testing::RunCommand(
      std::string(QNM_CLI_PATH) + " " + Expand(args) + " 2>" + err_file.string(), &run.out);
  std::ifstream in(err_file);
  std::stringstream text;
  text << in.rdbuf();
  run.err = text.str();
  return run;
}

int Lines(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n';
  if (!text.empty() && text.back() != '\n') ++lines;
  return lines;
}

bool IsCharacterDevice(const char* path) {
  struct stat st;
  return ::lstat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

/// Temporaries of our naming anywhere in the sandbox (not inside "many").
std::vector<std::string> Leftovers() {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(TheSandbox().root())) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp.") != std::string::npos || name.rfind(".qnm-charts-", 0) == 0)
      found.push_back(name);
  }
  return found;
}

struct Misuse {
  const char* args;
  int exit_code;
  const char* message;  // a substring of the one line on stderr; "" = stderr empty
};

// clang-format off
const Misuse kMisuses[] = {
    // Process counts and interval levels.
    {"predict --procs 0", 1, "--procs"},
    {"predict --procs 5..1", 1, "--procs"},
    {"predict --procs 1..1e9", 1, "--procs"},
    {"predict --procs :x1", 1, "--procs"},
    {"predict --procs 1..8:x1", 1, "--procs"},
    {"predict --procs -4", 1, "--procs"},
    {"predict --procs ''", 105, "--procs: an empty value"},
    {"validate --train 0", 1, "--train"},
    {"predict --level 0", 1, "--level"},
    {"predict --level 1", 1, "--level"},
    {"predict --level 1.5", 1, "--level"},
    {"predict --level -0.5", 1, "--level"},
    {"predict --level nan", 1, "--level"},
    {"predict --level x", 105, "--level: 'x' is not a decimal number"},
    {"predict --format yaml", 105, "--format"},
    {"predict --no-such-flag", 109, "--no-such-flag"},
    // Empty option values are refused by every command, never read as 0 or
    // "not given" (issue 19: --scale-computation "$F" with F unset).
    {"whatif {data}/otf2/synthetic-patterns-4rank --scale-computation ''", 105, "--scale-computation: an empty value"},
    {"whatif {data}/otf2/synthetic-patterns-4rank --scale-mpi ''", 105, "--scale-mpi: an empty value"},
    {"whatif {data}/otf2/synthetic-patterns-4rank --scale-transfer ''", 105, "--scale-transfer: an empty value"},
    {"whatif {data}/otf2/synthetic-patterns-4rank --scale-computation 0.5 --write-trace ''", 105, "--write-trace: an empty value"},
    {"whatif {data}/otf2/synthetic-patterns-4rank --config ''", 105, "--config: an empty value"},
    {"trace analyze {data}/otf2/synthetic-patterns-4rank --cube ''", 105, "--cube: an empty value"},
    {"imbalance {data}/mpip --threshold ''", 105, "--threshold: an empty value"},
    {"predict --machine '' {series}", 105, "--machine: an empty value"},
    {"ingest -q {series} -o ''", 105, "--output: an empty value"},
    {"predict ''", 105, "an empty value"},
    // --pattern FIELD=REGEX: what is wrong with one, said before any file is read.
    {"predict --pattern 'time=(a)(b)' {series}", 1, "--pattern: time: '(a)(b)' has 2 capture groups"},
    {"ingest -q --pattern 'speed=(\\d+)' {series}", 1, "--pattern: unknown field 'speed'"},
    {"validate --pattern 'time=(' {series}", 1, "is not a regular expression"},
    {"report -o {tmp}/r.html --pattern 'no-field' {series}", 1, "is not FIELD=REGEX"},
    {"plot -o {tmp}/p --pattern 'procs:sum=(\\d+)' {series}", 1, "--pattern: procs: takes no reduction"},
    {"efficiency --pattern 'mpi_time:median=(\\S+)' {series}", 1, "--pattern: mpi_time: unknown reduction 'median'"},
    {"ingest -q --pattern-file {tmp}/none.patterns {series}", 1, "none.patterns: cannot open"},
    {"predict --pattern-file {tmp} {series}", 1, "cannot read: is a directory"},
    {"validate --pattern-file {data}/../../data/patterns/pennant.patterns --pattern-file {data}/../../data/patterns/pennant.patterns {series}", 1,
     "pennant.patterns: time: an earlier --pattern-file gives its field too"},
    // Numbers are decimal on the command line too (CLI11 reads "0x10" as 16).
    {"whatif {data}/otf2/synthetic-patterns-4rank --scale-computation 0x10", 105, "--scale-computation: '0x10' is not a decimal number"},
    {"whatif {data}/otf2/synthetic-patterns-4rank --top 0x5", 105, "--top: '0x5' is not a decimal number"},
    {"whatif {data}/otf2/synthetic-patterns-4rank --scale main=0x10", 1, "not '0x10'"},
    // Tolerances that stop an approximate solver before it is near the answer.
    {"mva {data}/mva-vectors/balanced_K5_N10_exact.json --algorithm schweitzer --tolerance 1e6", 105, "--tolerance"},
    {"mva {data}/mva-vectors/balanced_K5_N10_exact.json --algorithm schweitzer --tolerance 0.1", 105, "--tolerance"},
    {"mva {data}/mva-vectors/balanced_K5_N10_exact.json --algorithm linearizer --tolerance 0", 105, "--tolerance"},
    {"mva {data}/mva-vectors/balanced_K5_N10_exact.json --algorithm schweitzer --tolerance nan", 105, "--tolerance"},
    // Missing, unreadable and empty inputs.
    {"predict {tmp}/missing.mpiP", 1, "no such file"},
    {"validate {tmp}/missing", 1, "no such file"},
    {"mva {tmp}/a-folder", 1, "is a directory"},
    {"predict --machine {tmp}/a-folder {series}", 1, "a-folder"},
    {"whatif {tmp}/a-folder", 1, "a-folder"},
    {"predict {tmp}/empty", 1, "no runs found"},
    {"validate {tmp}/empty", 1, "no runs found"},
    {"imbalance {tmp}/empty", 1, "empty"},
    {"ingest -q {tmp}/empty", 1, "no runs"},
    {"predict {tmp}/many", 1, "no runs found"},
    {"ingest -q {tmp}/many", 1, "no runs"},
    {"predict {tmp}/loop", 1, "loop"},
    {"ingest -q {tmp}/with-loop", 1, "no runs"},
    {"predict {tmp}/empty.dat", 1, "empty.dat"},
    {"predict --format csv {tmp}/empty.dat {series}", 1, "empty.dat"},
    {"validate --format json {tmp}/empty.dat {series}", 1, "empty.dat"},
    {"ingest --show {tmp}/a-folder", 1, "is a directory"},
    {"imbalance --threshold nan {data}/mpip", 1, "--threshold"},
    {"imbalance --threshold -1 {data}/mpip", 1, "--threshold"},
    {"imbalance --threshold inf {data}/mpip", 1, "--threshold"},
    // Outputs: folders, links, inputs, devices.
    {"predict --format csv -o {tmp}/a-folder {series}", 1, "is a directory"},
    {"ingest -q {series} -o {tmp}/a-folder", 1, "is a directory"},
    {"predict --format csv -o {tmp}/loop {series}", 1, "symbolic links"},
    {"predict --format csv -o {tmp}/no-such-dir/out.csv {series}", 1, "no-such-dir"},
    {"ingest -q {tmp}/input.csv -o {tmp}/input.csv", 1, "over an input"},
    {"predict --format csv {tmp}/input.csv -o {tmp}/input.csv", 1, "over an input"},
    {"ingest -q {tmp}/no-p2 -o {tmp}/no-p2/tpatki-npbmz__bt-mz.C.1.1.29898.1.mpiP", 1, "over an input"},
    {"predict --format csv -o /dev/null {series}", 0, ""},
    {"ingest -q {series} -o /dev/null", 0, ""},
    {"predict --format csv -o /dev/full {series}", 1, "No space left"},
    {"validate --format json -o /dev/full {series}", 1, "No space left"},
    {"mva {data}/mva-vectors/balanced_K5_N10_exact.json -o /dev/full", 1, "No space left"},
    {"predict --format csv {series} > /dev/full", 1, "standard output"},
    {"ingest -q {series} > /dev/full", 1, "standard output"},
    // Results that must never print NaN, inf or [0, inf]: the forward-validated
    // model bounds every interval here, so no note either.
    {"validate --format csv -o /dev/null {tmp}/no-p2", 0, ""},
};
// clang-format on

}  // namespace

TEST_CASE("CLI misuse: one clean line, the right exit code, nothing destroyed", "[cli][misuse]") {
  REQUIRE(IsCharacterDevice("/dev/null"));
  REQUIRE(IsCharacterDevice("/dev/full"));
  const std::string input_before = qnm::ReadFile((TheSandbox().root() / "input.csv").string());
  for (const Misuse& misuse : kMisuses) {
    INFO("qnm-predict " << misuse.args);
    CliRun run = RunCli(misuse.args);
    INFO("stderr: " << run.err);
    CHECK(run.exit_code == misuse.exit_code);
    if (misuse.message[0] == 0) {
      CHECK(run.err.empty());
    } else {
      CHECK(Lines(run.err) == 1);
      CHECK(run.err.find(misuse.message) != std::string::npos);
    }
    CHECK(Leftovers().empty());
    CHECK(IsCharacterDevice("/dev/null"));
    CHECK(IsCharacterDevice("/dev/full"));
  }
  CHECK(qnm::ReadFile((TheSandbox().root() / "input.csv").string()) == input_before);
  CHECK(fs::is_directory(TheSandbox().root() / "a-folder"));
  CHECK(fs::is_symlink(TheSandbox().root() / "loop"));
}

TEST_CASE("validate without the P = 2 run prints no unbounded interval", "[cli][misuse]") {
  for (const char* format : {"table", "csv", "json"}) {
    INFO(format);
    CliRun run = RunCli(std::string("validate --format ") + format + " {tmp}/no-p2");
    REQUIRE(run.exit_code == 0);
    CHECK(run.out.find("inf") == std::string::npos);
    CHECK(run.out.find("nan") == std::string::npos);
    CHECK(run.out.find("NaN") == std::string::npos);
  }
}

TEST_CASE("output: -o onto a symbolic link replaces the link's target, not the link", "[cli][output]") {
  const fs::path root = TheSandbox().root() / "link-case";
  fs::create_directories(root / "real");
  std::ofstream(root / "real" / "out.csv") << "old\n";
  fs::create_symlink("real/out.csv", root / "out.csv");
  CliRun run = RunCli("predict --format csv -o " + (root / "out.csv").string() + " {series}");
  REQUIRE(run.exit_code == 0);
  CHECK(fs::is_symlink(root / "out.csv"));
  const std::string written = qnm::ReadFile((root / "real" / "out.csv").string());
  CHECK(written.rfind("series,procs,", 0) == 0);
  // A dangling link: the file it names is created.
  fs::create_symlink("real/new.csv", root / "new.csv");
  REQUIRE(RunCli("predict --format csv -o " + (root / "new.csv").string() + " {series}").exit_code == 0);
  CHECK(fs::is_symlink(root / "new.csv"));
  CHECK(fs::is_regular_file(root / "real" / "new.csv"));
}

TEST_CASE("output: -o onto a FIFO writes into it and leaves the FIFO", "[cli][output]") {
  const fs::path fifo = TheSandbox().root() / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] {
    std::ifstream in(fifo);
    std::stringstream text;
    text << in.rdbuf();
    received = text.str();
  });
  CliRun run = RunCli("predict --format csv -o " + fifo.string() + " {series}");
  reader.join();
  CHECK(run.exit_code == 0);
  CHECK(received.rfind("series,procs,", 0) == 0);
  struct stat st;
  REQUIRE(::lstat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  // Reading a FIFO as an input is refused at once instead of blocking.
  CliRun ingest = RunCli("ingest -q --strict " + fifo.string());
  CHECK(ingest.exit_code == 1);
  CHECK(Lines(ingest.err) == 1);
  CHECK(ingest.err.find("not a regular file") != std::string::npos);
  // Named on the command line, it is an error without --strict too: one line
  // naming it, no summary (a FIFO met while walking a folder is skipped).
  CliRun lenient = RunCli("ingest " + fifo.string());
  CHECK(lenient.exit_code == 1);
  CHECK(Lines(lenient.err) == 1);
  CHECK(lenient.err == "qnm-predict: " + fifo.string() + ": cannot read: not a regular file (a FIFO, device or socket)\n");
}

TEST_CASE("plot -o onto an existing regular file is an error", "[cli][output]") {
  if (!qnm::plots::GnuplotAvailable()) {
    WARN("gnuplot not installed: plot draws nothing and cannot fail on the output");
    return;
  }
  const fs::path file = TheSandbox().root() / "charts-file";
  std::ofstream(file) << "keep\n";
  CliRun run = RunCli("plot -o " + file.string() + " {series}");
  CHECK(run.exit_code == 1);
  CHECK(Lines(run.err) == 1);
  CHECK(qnm::ReadFile(file.string()) == "keep\n");
  CHECK(Leftovers().empty());
}

namespace {

/// The id of a process that has exited (and been reaped).
pid_t DeadPid() {
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

}  // namespace

TEST_CASE("files named like a temporary are never removed by a later run (issue 19)", "[cli][output]") {
  // Before issue 19 a run deleted any "out.csv.tmp.<N>" whose N was no running
  // process, whoever wrote it; now only what this process created and recorded goes.
  const fs::path root = TheSandbox().root() / "stale";
  fs::create_directories(root);
  const std::string dead = std::to_string(DeadPid());
  std::ofstream(root / ("out.csv.tmp." + dead)) << "precious user data";
  std::ofstream(root / "out.csv.tmp.99999") << "precious user data";
  fs::create_directories(root / (".qnm-charts-" + dead + "-abcdef"));
  std::ofstream(root / (".qnm-charts-" + dead + "-abcdef") / "x.png") << "png";
  REQUIRE(RunCli("predict --format csv -o " + (root / "out.csv").string() + " {series}").exit_code == 0);
  CHECK(qnm::ReadFile((root / ("out.csv.tmp." + dead)).string()) == "precious user data");
  CHECK(qnm::ReadFile((root / "out.csv.tmp.99999").string()) == "precious user data");
  qnm::TempDirectory charts(root.string(), ".qnm-charts-");
  CHECK(fs::exists(root / (".qnm-charts-" + dead + "-abcdef") / "x.png"));
  // Our own temporaries carry a random token: two names for one output differ.
  CHECK(qnm::TempFileFor("out.csv") != qnm::TempFileFor("out.csv"));
  CHECK(qnm::TempFileFor("out.csv").rfind("out.csv.tmp." + std::to_string(::getpid()) + ".", 0) == 0);
  // Nothing of ours is left beside the output after a successful write.
  int ours = 0;
  for (const auto& entry : fs::directory_iterator(root))
    ours += entry.path().filename().string().rfind("out.csv.tmp." + std::to_string(::getpid()), 0) == 0;
  CHECK(ours == 0);
}

TEST_CASE("a fatal signal removes the registered temporaries", "[cli][output]") {
  const fs::path root = TheSandbox().root() / "signal";
  fs::create_directories(root);
  const fs::path file = root / "out.tmp.1";
  const fs::path dir = root / "charts.tmp";
  pid_t child = ::fork();
  if (child == 0) {
    ::signal(SIGTERM, SIG_DFL);  // Catch2's own handler would report a failure instead
    qnm::InstallTempCleanupHandlers();
    std::ofstream(file) << "half";
    fs::create_directories(dir / "sub");
    std::ofstream(dir / "a.png") << "png";
    std::ofstream(dir / "sub" / "b.dat") << "dat";
    qnm::RegisterTemp(file.string(), qnm::TempKind::kFile);
    qnm::RegisterTemp(dir.string(), qnm::TempKind::kDirectory);
    ::raise(SIGTERM);
    ::_exit(0);  // not reached: the handler re-raises with the default action
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK_FALSE(fs::exists(file));
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("an atomic folder appears whole or not at all", "[output]") {
  const fs::path root = TheSandbox().root() / "folders";
  fs::create_directories(root / "full");
  std::ofstream(root / "full" / "old.txt") << "old";
  {
    qnm::AtomicDirectory folder((root / "full").string());
    std::ofstream(fs::path(folder.path()) / "new.txt") << "new";
    CHECK(fs::exists(root / "full" / "old.txt"));  // nothing visible before Commit
    folder.Commit();
  }
  CHECK(fs::exists(root / "full" / "new.txt"));
  CHECK_FALSE(fs::exists(root / "full" / "old.txt"));
  {
    qnm::AtomicDirectory abandoned((root / "never").string());
    std::ofstream(fs::path(abandoned.path()) / "x") << "x";
  }
  CHECK_FALSE(fs::exists(root / "never"));
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(root)) left.push_back(entry.path().filename().string());
  CHECK(left == std::vector<std::string>{"full"});
  std::ofstream(root / "a-file") << "x";
  qnm::AtomicDirectory onto_file((root / "a-file").string());
  CHECK_THROWS_WITH(onto_file.Commit(), Catch::Contains("a-file"));
}
