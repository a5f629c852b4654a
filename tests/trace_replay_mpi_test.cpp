// qnm-replay-mpi (parallel replay over MPI, Geimer et al. 2009) against the sequential
// `qnm-predict trace analyze`: the JSON reports must agree at R = 1, 2, 4.
// Skips (with a warning) when mpirun or the MPI executable is not available.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/command_runner.h"

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

std::string TraceDir(const std::string& tag) { return std::string(QNM_TEST_DATA_DIR) + "/otf2/" + tag; }

using qnm::testing::RunCommand;

/// The mpirun command line, or "" when this build or machine cannot run MPI.
std::string Mpirun(int processes) {
#ifdef QNM_REPLAY_MPI_PATH
  std::string ignored;
  if (!fs::exists(QNM_REPLAY_MPI_PATH) || RunCommand("command -v mpirun >/dev/null 2>&1", &ignored) != 0) return "";
  // Root in containers needs --allow-run-as-root; shared memory without CMA.
  return "OMPI_MCA_btl_vader_single_copy_mechanism=none mpirun --allow-run-as-root --oversubscribe "
         "--mca btl self,vader -np " + std::to_string(processes) + " " + QNM_REPLAY_MPI_PATH;
#else
  (void)processes;
  return "";
#endif
}

/// Equal structure and strings; numbers equal up to summation order (1e-12 relative).
bool SameReport(const nlohmann::json& a, const nlohmann::json& b, const std::string& where, std::string* diff) {
  if (a.is_number() && b.is_number()) {
    double x = a.get<double>(), y = b.get<double>();
    if (std::fabs(x - y) <= 1e-12 * std::max(std::fabs(x), std::fabs(y)) + 1e-300) return true;
  } else if (a.type() == b.type() && (a.is_object() || a.is_array()) && a.size() == b.size()) {
    if (a.is_object()) {
      for (auto it = a.begin(); it != a.end(); ++it)
        if (!b.contains(it.key()) || !SameReport(it.value(), b[it.key()], where + "/" + it.key(), diff))
          return false;
      return true;
    }
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!SameReport(a[i], b[i], where + "/" + std::to_string(i), diff)) return false;
    return true;
  } else if (a == b) {
    return true;
  }
  *diff = where + ": " + a.dump().substr(0, 200) + " vs " + b.dump().substr(0, 200);
  return false;
}

void CompareWithSequential(const std::string& tag) {
  if (Mpirun(1).empty()) {
    WARN("mpirun or qnm-replay-mpi not available: parallel replay not tested");
    return;
  }
  std::string sequential;
  REQUIRE(RunCommand(std::string(QNM_CLI_PATH) + " trace analyze " + TraceDir(tag) + " --format json 2>/dev/null",
              &sequential) == 0);
  nlohmann::json expected = nlohmann::json::parse(sequential);
  // mpirun's own messages, kept to say why a run failed (it once did under a load of 4+ on 2 cores).
  const fs::path errors = fs::temp_directory_path() / ("qnm_replay_stderr_" + std::to_string(::getpid()));
  for (int processes : {1, 2, 4}) {
    INFO(tag << " with " << processes << " processes");
    std::string parallel;
    const int code = RunCommand(Mpirun(processes) + " " + TraceDir(tag) + " --format json 2>" + errors.string(), &parallel);
    std::ifstream error_stream(errors);
    const std::string error_text((std::istreambuf_iterator<char>(error_stream)), std::istreambuf_iterator<char>());
    INFO("stderr: " << error_text.substr(0, 2000));
    REQUIRE(code == 0);
    nlohmann::json actual = nlohmann::json::parse(parallel);
    std::string diff;
    bool same = SameReport(expected, actual, "", &diff);
    INFO(diff);
    CHECK(same);
  }
  fs::remove(errors);
}

}  // namespace

TEST_CASE("replay mpi: synthetic trace equals the sequential analysis", "[trace][mpi]") {
  CompareWithSequential("synthetic-patterns-4rank");
}

TEST_CASE("replay mpi: 32-rank stencil equals the sequential analysis", "[trace][mpi]") {
  CompareWithSequential("tracer-stencil4d-32");
}

TEST_CASE("replay mpi: bad input fails on every process without hanging", "[trace][mpi]") {
  if (Mpirun(2).empty()) {
    WARN("mpirun or qnm-replay-mpi not available: parallel replay not tested");
    return;
  }
  fs::path dir = fs::temp_directory_path() / ("qnm_replay_bad_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::copy(TraceDir("tracer-stencil4d-32"), dir, fs::copy_options::recursive);
  // Only the second process's ranks break: rank 31's event file (location 31) is missing.
  REQUIRE(fs::remove(dir / "traces" / "31.evt"));
  std::string out;
  fs::path report = dir / "report.json";
  int code = RunCommand(Mpirun(2) + " " + dir.string() + " --format json -o " + report.string() + " 2>&1", &out);
  CHECK(code != 0);
  CHECK(out.find("qnm-replay-mpi: ") != std::string::npos);
  CHECK(out.find("31.evt") != std::string::npos);
  CHECK_FALSE(fs::exists(report));
  CHECK(RunCommand(Mpirun(2) + " /nonexistent/trace --format json 2>&1", &out) != 0);
  CHECK(out.find("no such trace anchor file") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("replay mpi: a trace in a tar.gz reads as its folder; the unpacked copy is removed", "[trace][mpi][archive]") {
  if (Mpirun(2).empty()) {
    WARN("mpirun or qnm-replay-mpi not available: parallel replay not tested");
    return;
  }
  const fs::path dir = fs::temp_directory_path() / ("qnm_replay_archive_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string archive = (dir / "stencil.tar.gz").string();
  std::string out;
  REQUIRE(RunCommand("tar czf " + archive + " -C " + TraceDir("") + " tracer-stencil4d-32", &out) == 0);
  // A temporary folder of its own (TMPDIR): other tests running beside it unpack archives too.
  const fs::path temp = dir / "tmp";
  fs::create_directories(temp);
  auto unpacked_copies = [&] {  // (Open MPI keeps its session folder there too)
    int count = 0;
    for (const auto& entry : fs::directory_iterator(temp))
      count += entry.path().filename().string().rfind("qnm-archived-trace-", 0) == 0;
    return count;
  };
  const std::string mpirun = "TMPDIR=" + temp.string() + " " + Mpirun(2);
  const auto before = unpacked_copies();
  std::string sequential, parallel;
  REQUIRE(RunCommand(std::string(QNM_CLI_PATH) + " trace analyze " + TraceDir("tracer-stencil4d-32") +
                         " --format json 2>/dev/null", &sequential) == 0);
  REQUIRE(RunCommand(mpirun + " " + archive + " --format json 2>/dev/null", &parallel) == 0);
  nlohmann::json expected = nlohmann::json::parse(sequential), actual = nlohmann::json::parse(parallel);
  // The trace is named as the archive member it was, never the unpacked copy.
  CHECK(actual.at("trace") == archive + "/tracer-stencil4d-32/traces.otf2");
  actual["trace"] = expected.at("trace");
  std::string diff;
  const bool same = SameReport(expected, actual, "", &diff);
  INFO(diff);
  CHECK(same);
  CHECK(unpacked_copies() == before);  // the node's copy is gone once every process is done

  // An archive with no trace: one line naming it, from every process, no hang.
  const std::string empty = (dir / "no-trace.tar").string();
  REQUIRE(RunCommand("tar cf " + empty + " -C " + TraceDir("tracer-stencil4d-32") + " traces.def", &out) == 0);
  CHECK(RunCommand(mpirun + " " + empty + " --format json 2>&1", &out) != 0);
  CHECK(out.find("qnm-replay-mpi: " + empty + ": the archive holds no OTF2 trace") != std::string::npos);
  CHECK(unpacked_copies() == before);
  fs::remove_all(dir);
}

