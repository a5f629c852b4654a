// Files compressed as a whole (textio/compressed_file.h): read as the file they
// hold, as zcat/xzcat would show it. Fixtures: tests/data/compressed/, written
// by its make-fixtures.sh from other fixtures (tests/data/layouts/per-run, the
// Extra-P JSON Lines example, a CUBE4 profile), so every compressed run has its
// plain twin to compare with.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "ingest/ingest.h"
#include "tests/command_runner.h"
#include "textio/compressed_file.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace {

namespace fs = std::filesystem;
const std::string kData = QNM_TEST_DATA_DIR;
const std::string kCompressed = kData + "/compressed";

std::vector<qnm::RunStats> Read(const std::vector<std::string>& paths, long long max_file_bytes = 0) {
  qnm::IngestOptions options;
  options.strict = true;
  options.max_file_bytes = max_file_bytes;
  return qnm::IngestPaths(paths, options, nullptr);
}

// What a run says, without the names of the files it was read from.
using Fingerprint = std::tuple<std::string, std::string, int, int, double, double, double, double, std::size_t>;
std::map<int, Fingerprint> ByProcs(const std::vector<qnm::RunStats>& runs) {
  auto known = [](double value) { return std::isnan(value) ? -1.0 : value; };  // unknown (NaN) compares equal
  std::map<int, Fingerprint> out;
  for (const qnm::RunStats& run : runs)
    out[run.procs] = {run.app, run.machine, run.threads_per_proc, run.nodes, known(run.wall_time_s),
                      known(run.mpi_time_max_s), known(run.messages_per_rank), known(run.bytes_per_message),
                      run.app_time_s_per_rank.size()};
  return out;
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string ErrorOf(const std::string& path) {
  try {
    Read({path});
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("compression is known by its magic bytes, the format by the name under the suffix", "[ingest][compressed]") {
  CHECK(qnm::CompressionOf(std::string("\x1f\x8b\x08\x00", 4)) == "gzip");
  CHECK(qnm::CompressionOf(std::string("\xfd" "7zXZ\x00\x00", 7)) == "xz");
  CHECK(qnm::CompressionOf(std::string("BZh91AY&SY", 10)) == "bzip2");
  CHECK(qnm::CompressionOf(std::string("\x28\xb5\x2f\xfd\x00", 5)) == "zstd");
  CHECK(qnm::CompressionOf(std::string("\x04\x22\x4d\x18\x64", 5)) == "lz4");
  // Text that starts like bzip2's "BZh" is text: a block's magic must follow.
  CHECK(qnm::CompressionOf("BZh9 is not a header\n") == "");
  CHECK(qnm::CompressionOf("@ mpiP\n") == "");
  CHECK(qnm::WithoutCompressionSuffix("runs/bt-mz.C.4.4.1.1.mpiP.gz") == "runs/bt-mz.C.4.4.1.1.mpiP");
  CHECK(qnm::WithoutCompressionSuffix("a/out.dat.XZ") == "a/out.dat");
  CHECK(qnm::WithoutCompressionSuffix("table.csv.zst") == "table.csv");
  CHECK(qnm::WithoutCompressionSuffix("table.csv") == "table.csv");
  CHECK(qnm::WithoutCompressionSuffix(".gz") == ".gz");
}

TEST_CASE("a campaign compressed file by file reads as the plain campaign", "[ingest][compressed]") {
  // Five runs, their mpiP reports compressed with gzip, xz, bzip2, zstd and lz4,
  // their NPB stdout as two-member gzip (one with zero padding), the info files plain.
  qnm::IngestSummary summary;
  qnm::IngestOptions options;
  options.strict = true;
  std::vector<qnm::RunStats> compressed = qnm::IngestPaths({kCompressed + "/per-run"}, options, &summary);
  REQUIRE(compressed.size() == 5);
  CHECK(summary.files_paired == 5);      // each stdout found its report under the report's own name
  CHECK(summary.files_beside_used == 5);  // and each folder's info file
  std::vector<std::string> plain_runs;
  for (const auto& entry : fs::directory_iterator(kCompressed + "/per-run"))
    plain_runs.push_back(kData + "/layouts/per-run/" + entry.path().filename().string());
  const std::vector<qnm::RunStats> plain = Read(plain_runs);
  REQUIRE(plain.size() == 5);
  CHECK(ByProcs(compressed) == ByProcs(plain));
  for (const qnm::RunStats& run : compressed) {
    CHECK(run.threads_per_proc == 16);
    CHECK(run.app_time_s_per_rank.size() == static_cast<std::size_t>(run.procs));  // the mpiP report was read
    CHECK(Contains(run.sources.front(), "out.dat.gz"));             // the file as it is on disk
  }
}

TEST_CASE("a report compressed by compress(1) (.Z, LZW) reads as the plain one", "[ingest][compressed]") {
  const std::vector<qnm::RunStats> compressed = Read({kCompressed + "/single/bt-mz.C.1.1.29898.1.mpiP.Z"});
  const std::vector<qnm::RunStats> plain =
      Read({kData + "/layouts/per-run/2012_07_06_13_36_28_629332850/bt-mz.C.1.1.29898.1.mpiP"});
  REQUIRE(compressed.size() == 1);
  REQUIRE(plain.size() == 1);
  // What the report says (the plain one also has the info file of its run folder beside it).
  CHECK(compressed[0].procs == plain[0].procs);
  CHECK(compressed[0].app_time_max_s == plain[0].app_time_max_s);
  CHECK(compressed[0].mpi_time_max_s == plain[0].mpi_time_max_s);
  CHECK(compressed[0].messages_per_rank == plain[0].messages_per_rank);
  CHECK(compressed[0].app_time_s_per_rank == plain[0].app_time_s_per_rank);
  CHECK(qnm::CompressionOf(qnm::ReadFile(kCompressed + "/single/bt-mz.C.1.1.29898.1.mpiP.Z")) == "compress");
}

TEST_CASE("a compressed file and its plain twin are one measurement", "[ingest][compressed]") {
  const std::string run = "/2012_07_06_13_36_28_629332850/";
  const std::vector<qnm::RunStats> runs = Read({kCompressed + "/per-run" + run + "bt-mz.C.1.1.29898.1.mpiP.gz",
                                                kData + "/layouts/per-run" + run + "bt-mz.C.1.1.29898.1.mpiP"});
  CHECK(runs.size() == 1);  // the same bytes once unpacked: counted once
}

TEST_CASE("an Extra-P experiment under .gz keeps its layout and its name", "[ingest][compressed]") {
  const std::vector<qnm::RunStats> compressed = Read({kCompressed + "/extrap/jsonl_example.jsonl.gz"});
  const std::vector<qnm::RunStats> plain = Read({kData + "/extrap/jsonl_example.jsonl"});
  REQUIRE(compressed.size() == plain.size());
  REQUIRE(!plain.empty());
  for (std::size_t r = 0; r < plain.size(); ++r) {
    CHECK(compressed[r].series.str() == plain[r].series.str());  // "jsonl_example", not "jsonl_example.jsonl"
    CHECK(compressed[r].procs == plain[r].procs);
    CHECK(compressed[r].wall_time_s == plain[r].wall_time_s);
  }
}

TEST_CASE("a CUBE4 profile compressed as a tar.gz stays the CUBE reader's", "[ingest][compressed]") {
  const std::string folder = "/kripke.p8.d2.g32.r1/";
  const std::vector<qnm::RunStats> compressed = Read({kCompressed + "/cube" + folder + "profile.cubex.gz"});
  const std::vector<qnm::RunStats> plain = Read({kData + "/cube" + folder + "profile.cubex"});
  REQUIRE(compressed.size() == 1);
  REQUIRE(plain.size() == 1);
  CHECK(ByProcs(compressed) == ByProcs(plain));
  CHECK(compressed.front().app == "kripke");
}

TEST_CASE("a damaged compressed file is one line naming it, never a record", "[ingest][compressed]") {
  const std::string bad = kCompressed + "/bad/";
  // The CRC-32 is checked: the data inflate cleanly, only the trailer says they changed.
  CHECK_THAT(ErrorOf(bad + "bit-flip.mpiP.gz"),
             Catch::Contains("bit-flip.mpiP.gz") && Catch::Contains("gzip-compressed but corrupt (incorrect data check)"));
  CHECK_THAT(ErrorOf(bad + "cut-short.mpiP.gz"), Catch::Contains("gzip-compressed but cut short"));
  CHECK_THAT(ErrorOf(bad + "cut-short.mpiP.xz"), Catch::Contains("xz-compressed but corrupt or cut short"));
  CHECK_THAT(ErrorOf(bad + "trailing-text.mpiP.gz"),
             Catch::Contains("20 bytes after its last member that are not gzip"));
  CHECK_THAT(ErrorOf(bad + "traces.otf2.gz"), Catch::Contains("a compressed OTF2 anchor"));
  for (const auto& entry : fs::directory_iterator(bad)) {
    const std::string message = ErrorOf(entry.path().string());
    CHECK(Contains(message, entry.path().filename().string()));
    CHECK(message.find('\n') == std::string::npos);
  }
}

TEST_CASE("what a compressed file unpacks to meets the limit of the format it holds", "[ingest][compressed]") {
  const std::string report = kCompressed + "/per-run/2012_07_06_13_36_28_629332850/bt-mz.C.1.1.29898.1.mpiP.gz";
  // The compressed report is 1.3 KB and unpacks to 9.4 KB: a 4 KB limit refuses it as it unpacks.
  REQUIRE(fs::file_size(report) < 4 * 1024);
  CHECK_THROWS_WITH(Read({report}, 4 * 1024), Catch::Contains("unpacks to more than"));
  CHECK(Read({report}, 64 * 1024).size() == 1);
}

TEST_CASE("the CLI predicts from a compressed campaign", "[ingest][compressed][cli]") {
  std::string out;
  const int status = qnm::testing::RunCommand(
      std::string(QNM_CLI_PATH) + " predict " + kCompressed + "/per-run --procs 32 --format csv 2>/dev/null", &out);
  CHECK(status == 0);
  CHECK(Contains(out, "bt-mz.C"));
  CHECK(Contains(out, "@cab,32,"));  // the first P beyond the runs, predicted
}
