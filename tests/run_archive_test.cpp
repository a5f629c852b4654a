// Tar archives of runs (ingest/run_archive.h) read as the folder they pack.
// Fixtures: tests/data/compressed/archives/, written by
// tests/data/compressed/make-fixtures.sh from tests/data/layouts/per-run, the
// compressed campaign beside it, a CUBE4 profile and an OTF2 trace.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ingest/ingest.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace {

const std::string kData = QNM_TEST_DATA_DIR;
const std::string kArchives = kData + "/compressed/archives";

std::vector<qnm::RunStats> Read(const std::vector<std::string>& paths, qnm::IngestSummary* summary,
                                bool strict = true) {
  qnm::IngestOptions options;
  options.strict = strict;
  return qnm::IngestPaths(paths, options, summary);
}

// (threads, procs) -> what the run says, without the names of its files.
using Fingerprint = std::tuple<std::string, std::string, int, double, double, double, std::size_t, std::string>;
std::map<std::pair<int, int>, Fingerprint> ByLayout(const std::vector<qnm::RunStats>& runs) {
  auto known = [](double value) { return std::isnan(value) ? -1.0 : value; };
  std::map<std::pair<int, int>, Fingerprint> out;
  for (const qnm::RunStats& run : runs)
    out[{run.threads_per_proc, run.procs}] = {run.app, run.machine, run.nodes, known(run.wall_time_s),
                                              known(run.mpi_time_max_s), known(run.messages_per_rank),
                                              run.app_time_s_per_rank.size(), run.series.str()};
  return out;
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string TempPath(const std::string& name) {
  return std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/" + name;
}

// The one-line error of reading `path` strictly, or "" when it reads.
std::string ErrorOf(const std::string& path) {
  try {
    Read({path}, nullptr);
  } catch (const qnm::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a tar.gz of a one-folder-per-run campaign reads as the folder", "[ingest][archive]") {
  qnm::IngestSummary archived_summary, plain_summary;
  const std::vector<qnm::RunStats> archived = Read({kArchives + "/campaign.tar.gz"}, &archived_summary);
  const std::vector<qnm::RunStats> plain = Read({kData + "/layouts/per-run"}, &plain_summary);
  REQUIRE(archived.size() == 10);
  CHECK(ByLayout(archived) == ByLayout(plain));
  // Each NPB stdout paired with its report, each info file beside its run used, as on disk.
  CHECK(archived_summary.files_paired == plain_summary.files_paired);
  CHECK(archived_summary.files_beside_used == 10);
  CHECK(archived_summary.skipped.empty());
  for (const qnm::RunStats& run : archived) {
    CHECK(Contains(run.sources.front(), "campaign.tar.gz/per-run/2012_07_06_"));  // the member, named in the archive
    CHECK((run.threads_per_proc == 4 || run.threads_per_proc == 16));  // NPB stdout, not the info file alone
    CHECK(run.machine == "cab");  // the host names of the mpiP report inside
  }
}

TEST_CASE("an archive's members may be compressed themselves", "[ingest][archive]") {
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = Read({kArchives + "/compressed-members.tar"}, &summary);
  REQUIRE(runs.size() == 5);  // gzip, xz, bzip2, zstd and lz4 reports, two-member gzip stdouts
  CHECK(summary.files_paired == 5);
  CHECK(summary.files_beside_used == 5);
  const std::vector<qnm::RunStats> plain = Read({kData + "/compressed/per-run"}, nullptr);
  CHECK(ByLayout(runs) == ByLayout(plain));
}

TEST_CASE("an archive holding a CUBE4 profile, a trace and an archive", "[ingest][archive]") {
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = Read({kArchives + "/mixed.tar"}, &summary, false);
  REQUIRE(runs.size() == 12);  // the profile, the trace and the 10 runs of the campaign.tar.gz inside
  std::vector<qnm::RunStats> profiles, traces, campaign;
  for (const qnm::RunStats& run : runs)
    (run.app == "kripke" ? profiles : run.app == "bt-mz" ? campaign : traces).push_back(run);
  REQUIRE(profiles.size() == 1);
  REQUIRE(traces.size() == 1);
  const qnm::RunStats& profile = profiles.front();
  const qnm::RunStats& trace = traces.front();
  // The profile is read, with its identity from its folder name inside the archive.
  CHECK(profile.app == "kripke");
  CHECK(profile.procs == 8);
  CHECK(ByLayout({profile}) == ByLayout(Read({kData + "/cube/kripke.p8.d2.g32.r1/profile.cubex"}, nullptr)));
  // The trace is unpacked into a private folder for OTF2 and read as on disk, named as the member it was.
  const std::vector<qnm::RunStats> plain_trace = Read({kData + "/otf2/pipit-ping-pong-otf2"}, nullptr, false);
  REQUIRE(plain_trace.size() == 1);
  CHECK(ByLayout({trace}) == ByLayout(plain_trace));
  REQUIRE(!trace.sources.empty());
  CHECK(trace.sources.front() == kArchives + "/mixed.tar/pipit-ping-pong-otf2/traces.otf2");
  // Its definitions and event files are not offered as runs; the other members are, and are skipped.
  for (const qnm::SkippedFile& file : summary.skipped) {
    CHECK(!Contains(file.path, ".evt"));
    CHECK(!Contains(file.path, ".def"));
  }
  // The archive inside the archive is read as its folder: pairing and info files as on disk.
  CHECK(ByLayout(campaign) == ByLayout(Read({kData + "/layouts/per-run"}, nullptr)));
  for (const qnm::RunStats& run : campaign) CHECK(Contains(run.sources.front(), "mixed.tar/campaign.tar.gz/per-run/"));
  CHECK(summary.files_beside_used == 10);
}

TEST_CASE("archives inside archives: two levels read, a third refused, one budget for all", "[ingest][archive]") {
  const std::string dir = TempPath("qnm-nested-archives");
  const std::string setup =
      "rm -rf " + dir + " && mkdir -p " + dir + "/bombs && cd " + dir +
      " && tar -cf level2.tar -C " + kArchives + " campaign.tar.gz && tar -cf level3.tar level2.tar"
      // 40 archives of 1 KB, each holding 1,000,000 zero bytes (within its own 64x + 1 MiB), in one
      // outer tar.gz of a few KB: together 40 MB, far beyond the outermost archive's budget.
      " && head -c 1000000 /dev/zero > x.mpiP && tar -czf inner.tar.gz x.mpiP"
      " && for k in $(seq 1 40); do cp inner.tar.gz bombs/inner$k.tar.gz; done && tar -czf bombs.tar.gz bombs";
  REQUIRE(std::system(setup.c_str()) == 0);
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> two = Read({dir + "/level2.tar"}, &summary);
  CHECK(two.size() == 10);
  CHECK(Contains(ErrorOf(dir + "/level3.tar"), "level3.tar/level2.tar/campaign.tar.gz: an archive inside an archive "
                                               "inside an archive, not opened"));
  qnm::IngestSummary bombs;
  Read({dir + "/bombs.tar.gz"}, &bombs, false);
  std::system(("rm -rf " + dir).c_str());
  int over_budget = 0;  // each inner archive after the first: one line naming it
  for (const qnm::SkippedFile& file : bombs.skipped)
    over_budget += Contains(file.reason, "unpacks to more than the outermost archive can hold") &&
                   Contains(file.path, "bombs.tar.gz/bombs/inner");
  CHECK(over_budget == 39);
}

TEST_CASE("a trace inside an archive: errors name the member, the unpacked copy is gone", "[ingest][archive]") {
  // The anchor of synthetic-patterns-4rank without its event files: OTF2 cannot read the trace.
  const std::string archive = TempPath("qnm-anchor-only.tar");
  const std::string command = "tar --format=ustar -cf " + archive + " -C " + kData +
                              "/otf2/synthetic-patterns-4rank traces.otf2 traces.def 2>/dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  const std::string message = ErrorOf(archive);
  std::remove(archive.c_str());
  CHECK(Contains(message, archive + "/traces.otf2"));
  CHECK(!Contains(message, "qnm-archived-trace-"));  // the private folder is not named
  CHECK(message.find('\n') == std::string::npos);
}

TEST_CASE("a damaged archive of runs is one line naming it", "[ingest][archive]") {
  // The first half of the archive, in the temporary folder (never into the fixtures).
  const std::string bytes = qnm::ReadFile(kArchives + "/campaign.tar.gz");
  const std::string cut = TempPath("qnm-cut-campaign.tar.gz");
  qnm::WriteFileAtomically(cut, std::string_view(bytes).substr(0, bytes.size() / 2));
  const std::string message = ErrorOf(cut);
  std::remove(cut.c_str());
  CHECK(Contains(message, "qnm-cut-campaign.tar.gz"));
  CHECK(message.find('\n') == std::string::npos);
}

TEST_CASE("a zip of the campaign reads as the folder and as its tar.gz", "[ingest][archive][zip]") {
  qnm::IngestSummary zipped_summary, plain_summary;
  const std::vector<qnm::RunStats> zipped = Read({kArchives + "/campaign.zip"}, &zipped_summary);
  const std::vector<qnm::RunStats> plain = Read({kData + "/layouts/per-run"}, &plain_summary);
  REQUIRE(zipped.size() == 10);
  CHECK(ByLayout(zipped) == ByLayout(plain));
  CHECK(ByLayout(zipped) == ByLayout(Read({kArchives + "/campaign.tar.gz"}, nullptr)));
  CHECK(zipped_summary.files_paired == plain_summary.files_paired);
  CHECK(zipped_summary.files_beside_used == 10);
  CHECK(zipped_summary.skipped.empty());
  for (const qnm::RunStats& run : zipped) CHECK(Contains(run.sources.front(), "campaign.zip/per-run/2012_07_06_"));
}

TEST_CASE("a zip holding an OTF2 trace and a CUBE4 profile", "[ingest][archive][zip]") {
  const std::vector<qnm::RunStats> runs = Read({kArchives + "/trace-and-profile.zip"}, nullptr, false);
  REQUIRE(runs.size() == 2);
  const qnm::RunStats& profile = runs[0].app == "kripke" ? runs[0] : runs[1];
  const qnm::RunStats& trace = runs[0].app == "kripke" ? runs[1] : runs[0];
  CHECK(ByLayout({profile}) == ByLayout(Read({kData + "/cube/kripke.p8.d2.g32.r1/profile.cubex"}, nullptr)));
  CHECK(ByLayout({trace}) == ByLayout(Read({kData + "/otf2/pipit-ping-pong-otf2"}, nullptr, false)));
  REQUIRE(!trace.sources.empty());
  CHECK(trace.sources.front() == kArchives + "/trace-and-profile.zip/pipit-ping-pong-otf2/traces.otf2");
}

TEST_CASE("a damaged, encrypted or bomb zip is one line naming it", "[ingest][archive][zip]") {
  const std::string encrypted = ErrorOf(kArchives + "/bad/encrypted.zip");
  CHECK(Contains(encrypted, "bad/encrypted.zip"));
  CHECK(Contains(encrypted, "'bt-mz.C.1.1.29898.1.mpiP' is encrypted"));
  // 64 MiB of zeros in 64 KB: refused by the unpacked-bytes budget before it is held.
  const std::string bomb = ErrorOf(kArchives + "/bad/bomb.zip");
  CHECK(Contains(bomb, "bad/bomb.zip"));
  CHECK(Contains(bomb, "'zeros.mpiP' unpacks to more than the archive can hold"));
  // Cut short: the central directory at the end is gone.
  const std::string bytes = qnm::ReadFile(kArchives + "/campaign.zip");
  const std::string cut = TempPath("qnm-cut-campaign.zip");
  qnm::WriteFileAtomically(cut, std::string_view(bytes).substr(0, bytes.size() - 200));
  const std::string cut_message = ErrorOf(cut);
  // The whole zip under an office document's name is not opened as runs.
  const std::string renamed = TempPath("qnm-campaign.xlsx");
  qnm::WriteFileAtomically(renamed, bytes);
  const std::string renamed_message = ErrorOf(renamed);
  std::remove(cut.c_str());
  std::remove(renamed.c_str());
  CHECK(Contains(cut_message, "qnm-cut-campaign.zip: not a complete zip archive"));
  CHECK(Contains(renamed_message, "qnm-campaign.xlsx: a zip archive not named .zip"));
  for (const std::string& message : {encrypted, bomb, cut_message, renamed_message})
    CHECK(message.find('\n') == std::string::npos);
}
