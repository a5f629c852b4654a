// Trace commands on an archive holding one trace (ingest/archived_trace.h):
// the trace is read from a private unpacked copy, removed afterwards, and
// everything printed names the archive member. Archives are written with tar
// into a temporary folder from tests/data/otf2; the zip fixture holds a trace
// and a CUBE4 profile (tests/data/compressed/archives).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "ingest/archived_trace.h"
#include "tests/command_runner.h"
#include "tests/temp_dir.h"
#include "trace/trace_run_stats.h"
#include "util/input_error.h"

namespace fs = std::filesystem;
using qnm::testing::RunCommand;

namespace {

const std::string kData = QNM_TEST_DATA_DIR;
std::string Cli() { return QNM_CLI_PATH; }

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// `folders` of tests/data/otf2 as one tar.gz in `dir`.
std::string TarOf(const fs::path& dir, const std::string& name, const std::string& folders) {
  const std::string archive = (dir / name).string();
  const std::string command = "tar --format=ustar -czf " + archive + " -C " + kData + "/otf2 " + folders;
  REQUIRE(std::system(command.c_str()) == 0);
  return archive;
}

}  // namespace

TEST_CASE("a tar.gz holding one trace reads as the trace, named as its member", "[trace][archive]") {
  qnm::testing::TempDir dir("qnm", "archived-trace");
  const std::string archive = TarOf(dir.path, "patterns.tar.gz", "synthetic-patterns-4rank");
  std::string unpacked;
  {
    const qnm::TraceInput input(archive);
    CHECK(input.ShownPath() == archive + "/synthetic-patterns-4rank/traces.otf2");
    unpacked = input.ReadPath();
    REQUIRE(fs::exists(unpacked));
    CHECK(!Contains(unpacked, archive));
    const qnm::RunStats archived = qnm::trace::ReadTraceRunStats(input.ReadPath());
    const qnm::RunStats plain = qnm::trace::ReadTraceRunStats(kData + "/otf2/synthetic-patterns-4rank");
    CHECK(archived.procs == plain.procs);
    CHECK(archived.app_time_s_per_rank == plain.app_time_s_per_rank);
    CHECK(archived.mpi_time_s_per_rank == plain.mpi_time_s_per_rank);
    CHECK(archived.messages_per_rank == plain.messages_per_rank);
    CHECK(input.Told("cannot read " + unpacked) == "cannot read " + input.ShownPath());
  }
  CHECK(!fs::exists(unpacked));  // the private copy is gone with the input
  // A folder or an anchor is taken as it is.
  const qnm::TraceInput folder(kData + "/otf2/synthetic-patterns-4rank");
  CHECK(folder.ReadPath() == kData + "/otf2/synthetic-patterns-4rank");
  CHECK(folder.ShownPath() == folder.ReadPath());
}

TEST_CASE("an archive with no trace or two traces is one line naming it", "[trace][archive]") {
  qnm::testing::TempDir dir("qnm", "archived-traces");
  const std::string two = TarOf(dir.path, "two.tar.gz", "synthetic-patterns-4rank pipit-ping-pong-otf2");
  CHECK_THROWS_WITH(qnm::TraceInput(two), Catch::Contains("two.tar.gz: the archive holds 2 OTF2 traces") &&
                                              Catch::Contains("pipit-ping-pong-otf2/traces.otf2") &&
                                              Catch::Contains("unpack it and name one"));
  CHECK_THROWS_WITH(qnm::TraceInput(kData + "/compressed/archives/campaign.zip"),
                    Catch::Contains("campaign.zip: the archive holds no OTF2 trace"));
}

TEST_CASE("errors thrown while an archived trace is read name its member", "[trace][archive]") {
  const std::string archive = kData + "/compressed/archives/trace-and-profile.zip";
  const qnm::TraceInput input(archive);
  const std::string read = input.ReadPath();
  CHECK_THROWS_WITH(qnm::RunTellingArchiveMembers({&input}, [&] { throw qnm::InputError(read, 3, "bad " + read); }),
                    archive + "/pipit-ping-pong-otf2/traces.otf2:3: bad " + archive +
                        "/pipit-ping-pong-otf2/traces.otf2");
}

TEST_CASE("trace analyze, trace stats and whatif take an archive", "[trace][archive][cli]") {
  const std::string archive = kData + "/compressed/archives/trace-and-profile.zip";
  const std::string plain = kData + "/otf2/pipit-ping-pong-otf2";
  std::string from_archive, from_folder;
  REQUIRE(RunCommand(Cli() + " trace analyze " + archive + " 2>&1", &from_archive) == 0);
  REQUIRE(RunCommand(Cli() + " trace analyze " + plain + " 2>&1", &from_folder) == 0);
  CHECK(Contains(from_archive, "Trace " + archive + "/pipit-ping-pong-otf2/traces.otf2\n"));
  // The report below its first line is the folder's.
  CHECK(from_archive.substr(from_archive.find('\n')) == from_folder.substr(from_folder.find('\n')));
  CHECK(!Contains(from_archive, "qnm-archived-trace-"));
  REQUIRE(RunCommand(Cli() + " trace stats --format json " + archive + " 2>&1", &from_archive) == 0);
  CHECK(Contains(from_archive, "\"" + archive + "/pipit-ping-pong-otf2/traces.otf2\""));
  CHECK(!Contains(from_archive, "qnm-archived-trace-"));
  REQUIRE(RunCommand(Cli() + " whatif --list-regions " + archive + " 2>&1", &from_archive) == 0);
  CHECK(Contains(from_archive, "Regions of " + archive + "/pipit-ping-pong-otf2/traces.otf2"));
  CHECK(RunCommand(Cli() + " whatif --balance no-such-region " + archive + " 2>&1", &from_archive) != 0);
  CHECK(Contains(from_archive, "in " + archive + "/pipit-ping-pong-otf2/traces.otf2"));
  CHECK(!Contains(from_archive, "qnm-archived-trace-"));
}
