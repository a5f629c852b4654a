// Issue 19: outputs replace only what this program wrote. `whatif
// --write-trace DIR` keeps a manifest and refuses a folder holding anything
// it does not list; two outputs of one command naming one file are refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "command_runner.h"
#include "temp_dir.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/output_manifest.h"

namespace fs = std::filesystem;

namespace {

const std::string kTrace = std::string(QNM_TEST_DATA_DIR) + "/otf2/synthetic-patterns-4rank";

int Cli(const std::string& args, std::string* err_text) {
  std::string out;
  const std::string err_file = (fs::temp_directory_path() / ("qnm-ownership-err-" + std::to_string(::getpid()))).string();
  int code = qnm::testing::RunCommand(std::string(QNM_CLI_PATH) + " " + args + " 2>" + err_file, &out);
  *err_text = qnm::ReadFile(err_file);
  fs::remove(err_file);
  return code;
}

}  // namespace

TEST_CASE("whatif --write-trace replaces only what it wrote before", "[whatif][output][robustness]") {
  qnm::testing::TempDir dir("qnm-ownership", "trace");
  const std::string target = (dir.path / "wt").string();
  std::string err;
  REQUIRE(Cli("whatif " + kTrace + " --scale-computation 0.5 --write-trace " + target + " >/dev/null", &err) == 0);
  CHECK(fs::exists(dir.path / "wt" / "traces.qnm-manifest"));
  CHECK(qnm::FirstUnlistedEntry(target, "traces.qnm-manifest").empty());
  // A user's file inside the archive's event folder: the rewrite refuses and keeps it.
  std::ofstream(dir.path / "wt" / "traces" / "notes.txt") << "my notes";
  CHECK(Cli("whatif " + kTrace + " --scale-computation 0.7 --write-trace " + target + " >/dev/null", &err) == 1);
  CHECK_THAT(err, Catch::Contains("traces/notes.txt") && Catch::Contains("refusing to replace"));
  CHECK(qnm::ReadFile((dir.path / "wt" / "traces" / "notes.txt").string()) == "my notes");
  // Without it, the folder is ours again and is replaced.
  fs::remove(dir.path / "wt" / "traces" / "notes.txt");
  CHECK(Cli("whatif " + kTrace + " --scale-computation 0.7 --write-trace " + target + " >/dev/null", &err) == 0);
  CHECK(err.empty());
}

TEST_CASE("a folder without a manifest lists its first entry as unlisted", "[util][output]") {
  qnm::testing::TempDir dir("qnm-ownership", "manifest");
  std::ofstream(dir.path / "a.txt") << "a";
  CHECK(qnm::FirstUnlistedEntry(dir.path.string(), "m") == "a.txt");
  qnm::WriteFolderManifest(dir.path.string(), "m");
  CHECK(qnm::FirstUnlistedEntry(dir.path.string(), "m").empty());
  fs::create_directories(dir.path / "sub");
  CHECK(qnm::FirstUnlistedEntry(dir.path.string(), "m") == "sub/");
}

TEST_CASE("trace analyze -o F --cube F is refused and writes nothing", "[trace][output][robustness]") {
  qnm::testing::TempDir dir("qnm-ownership", "same");
  const std::string file = (dir.path / "r").string();
  std::string err;
  CHECK(Cli("trace analyze " + kTrace + " --format json -o " + file + " --cube " + file, &err) == 1);
  CHECK_THAT(err, Catch::Contains("-o and --cube name the same file"));
  CHECK_FALSE(fs::exists(file));
  CHECK_THROWS_AS(qnm::RefuseOneFileForTwoOutputs("x/../r", "-o", "r", "--cube"), qnm::InputError);
  CHECK_NOTHROW(qnm::RefuseOneFileForTwoOutputs("-", "-o", "-", "--cube"));
}
