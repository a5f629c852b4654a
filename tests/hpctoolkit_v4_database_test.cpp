// HPCToolkit databases of format 4 (hpctoolkit/hpctoolkit_v4_database.h: meta.db
// and profile.db). Acceptance: Hatchet's own format-4 test database
// (tests/data/hpctoolkit/hatchet-cpi-v4-database: cpi, 4 ranks x 4 threads)
// read as Hatchet's v4 reader reads it (hatchet_reads.json, written by
// scripts/compare_hpctoolkit_reads_with_hatchet.py). Damage: copies changed
// field by field (FORMATS.md, beside the database) in a temporary folder.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hpctoolkit/hpctoolkit_database.h"
#include "hpctoolkit/hpctoolkit_v4_database.h"
#include "ingest/ingest.h"
#include "tests/ingest_test_util.h"
#include "tests/temp_dir.h"
#include "util/atomic_file.h"

namespace fs = std::filesystem;
using qnm::testing::IngestErrorOf;
using qnm::testing::IngestPath;
using qnm::testing::SameAsPeer;

namespace {

const std::string kHpctoolkit = std::string(QNM_TEST_DATA_DIR) + "/hpctoolkit";
const std::string kDatabase = "hatchet-cpi-v4-database";

fs::path CopyOf(const fs::path& dir) {
  fs::create_directories(dir);
  fs::copy(kHpctoolkit + "/" + kDatabase, dir / kDatabase, fs::copy_options::recursive);
  return dir / kDatabase;
}

// Little-endian fields of a file held in memory, as FORMATS.md lays them out.
std::uint64_t Get(const std::string& bytes, std::uint64_t at, int size) {
  std::uint64_t value = 0;
  for (int k = size - 1; k >= 0; --k) value = (value << 8) | static_cast<unsigned char>(bytes.at(at + k));
  return value;
}
void Put(std::string* bytes, std::uint64_t at, int size, std::uint64_t value) {
  for (int k = 0; k < size; ++k) bytes->at(at + k) = static_cast<char>((value >> (8 * k)) & 0xff);
}

}  // namespace

TEST_CASE("Hatchet's format-4 HPCToolkit database reads as Hatchet reads it", "[ingest][hpctoolkit][acceptance]") {
  std::ifstream file(kHpctoolkit + "/hatchet_reads.json");
  const nlohmann::json expected = nlohmann::json::parse(file).at(kDatabase);
  const std::vector<qnm::RunStats> runs = IngestPath(kHpctoolkit + "/" + kDatabase);
  REQUIRE(runs.size() == 1);
  const qnm::RunStats& run = runs.front();
  CHECK(run.procs == expected.at("procs").get<int>());
  CHECK(SameAsPeer(run.app_time_s_per_rank, expected.at("app_time_s_per_rank")));
  CHECK(SameAsPeer(run.mpi_time_s_per_rank, expected.at("mpi_time_s_per_rank")));
  REQUIRE(run.call_sites.size() == expected.at("time_s_per_routine").size());
  for (const qnm::CallSiteStats& site : run.call_sites) {
    INFO(site.mpi_function);
    REQUIRE(expected.at("time_s_per_routine").contains(site.mpi_function));
    CHECK(SameAsPeer(site.time_s_per_rank, expected.at("time_s_per_routine").at(site.mpi_function)));
    CHECK(std::isnan(site.total_calls));  // sampled: no calls
  }
  // Rank 2 spent its whole run in MPI_Finalize (0.0169 s); ranks 0, 1 in Reduce, rank 3 in Bcast.
  CHECK(run.app_time_s_per_rank[2] == Approx(0.016902).epsilon(1e-12));
  CHECK(run.threads_per_proc == 4);  // thread 0 and three UCX helper threads per rank
  CHECK(run.app.str() == "cpi");
  CHECK(run.nodes == 1);  // one NODE identifier
  CHECK(run.tool_version.rfind("HPCToolkit database format 4.", 0) == 0);
  REQUIRE(run.sources.size() == 2);
  CHECK(run.sources[0] == kHpctoolkit + "/" + kDatabase + "/meta.db");
  CHECK(run.sources[1] == kHpctoolkit + "/" + kDatabase + "/profile.db");
  CHECK(run.derivations.at("procs") == "HPCToolkit: one thread-0 profile per MPI rank in profile.db");
}

TEST_CASE("meta.db: the time metric, the entry points, the outermost MPI functions", "[ingest][hpctoolkit]") {
  const std::string path = kHpctoolkit + "/" + kDatabase + "/meta.db";
  const qnm::HpctoolkitMeta meta = qnm::ParseHpctoolkitMeta(qnm::ReadFile(path), path);
  CHECK(meta.time_metric == "CPUTIME (sec)");
  CHECK(meta.seconds_per_unit == 1.0);
  CHECK(meta.title == "cpi");
  CHECK(meta.entry_points.size() == 2);  // main thread, application thread
  std::vector<std::string> routines;
  for (const auto& frame : meta.mpi_frames) routines.push_back(frame.routine);
  std::sort(routines.begin(), routines.end());
  // "PMPI_Bcast [libmpi.so.40.30.1]": hpcprof names a function without sources with its load
  // module; the functions libmpi calls below it are no frames of their own.
  CHECK(routines == std::vector<std::string>{"Bcast", "Finalize", "Reduce"});
  CHECK(qnm::MpiRoutineOf("PMPI_Allreduce [libmpi.so.40]") == "Allreduce");
  CHECK(qnm::MpiRoutineOf("ompi_coll_base_bcast_intra_generic [libmpi.so.40.30.1]").empty());
  CHECK(qnm::LooksLikeHpctoolkitMeta(qnm::ReadFile(path)));
  CHECK_FALSE(qnm::LooksLikeHpctoolkitMeta(qnm::ReadFile(kHpctoolkit + "/" + kDatabase + "/profile.db")));
}

TEST_CASE("a format-4 database is one run: profile.db, cct.db, FORMATS.md, metrics/ and src/ are its own",
          "[ingest][hpctoolkit]") {
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = IngestPath(kHpctoolkit + "/" + kDatabase, &summary);
  CHECK(runs.size() == 1);
  CHECK(summary.skipped.empty());
  // "MB read": meta.db, and profile.db's header, profile list and the four thread-0 value blocks.
  CHECK(summary.bytes_read > static_cast<double>(fs::file_size(kHpctoolkit + "/" + kDatabase + "/meta.db")));
  CHECK(summary.bytes_read < static_cast<double>(fs::file_size(kHpctoolkit + "/" + kDatabase + "/meta.db") +
                                                 fs::file_size(kHpctoolkit + "/" + kDatabase + "/profile.db")));

  qnm::testing::TempDir dir("qnm", "hpctoolkit-v4-archive");
  const std::string archive = (dir.path / "database.tar.gz").string();
  REQUIRE(std::system(("tar --format=ustar -czf " + archive + " -C " + kHpctoolkit + " " + kDatabase).c_str()) == 0);
  qnm::IngestSummary archived_summary;
  const std::vector<qnm::RunStats> archived = IngestPath(archive, &archived_summary);
  REQUIRE(archived.size() == 1);
  CHECK(archived[0].app_time_s_per_rank == runs[0].app_time_s_per_rank);
  CHECK(archived[0].mpi_time_s_per_rank == runs[0].mpi_time_s_per_rank);
  CHECK(archived[0].sources.front() == archive + "/" + kDatabase + "/meta.db");
  CHECK(archived_summary.skipped.empty());
}

TEST_CASE("a format-4 database's GPU streams are left out with a note", "[ingest][hpctoolkit]") {
  qnm::testing::TempDir dir("qnm", "hpctoolkit-v4-gpu");
  const fs::path copy = CopyOf(dir.path);
  const std::string profile_path = (copy / "profile.db").string();
  std::string profile = qnm::ReadFile(profile_path);
  // Rank 0's thread 3 told as a GPU stream: its THREAD identifier's kind (3) made GPUSTREAM (6).
  const std::uint64_t tuples = Get(profile, 0x28, 8), tuples_end = tuples + Get(profile, 0x20, 8);
  int changed = 0;
  for (std::uint64_t at = tuples; at < tuples_end;) {
    const std::uint64_t ids = Get(profile, at, 2);
    bool rank0 = false;
    for (std::uint64_t k = 0; k < ids; ++k)
      rank0 |= profile[at + 8 + 16 * k] == 2 && Get(profile, at + 8 + 16 * k + 4, 4) == 0;
    for (std::uint64_t k = 0; k < ids && rank0; ++k) {
      const std::uint64_t id = at + 8 + 16 * k;
      if (profile[id] == 3 && Get(profile, id + 4, 4) == 3) {
        profile[id] = 6;
        ++changed;
      }
    }
    at += 8 + 16 * ids;
  }
  REQUIRE(changed == 1);
  qnm::WriteFileAtomically(profile_path, profile);
  qnm::IngestSummary summary;
  const std::vector<qnm::RunStats> runs = IngestPath(copy.string(), &summary);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].threads_per_proc == 3);  // rank 0's CPU threads 0, 1, 2
  CHECK(runs[0].procs == 4);
  bool noted = false;
  for (const std::string& note : summary.notes)
    noted |= note == profile_path + ": GPU contexts' and streams' profiles left out";
  CHECK(noted);
}

TEST_CASE("a damaged format-4 database is one line naming the file", "[ingest][hpctoolkit]") {
  qnm::testing::TempDir dir("qnm", "hpctoolkit-v4-damage");
  const fs::path copy = CopyOf(dir.path);
  const std::string meta_path = (copy / "meta.db").string(), profile_path = (copy / "profile.db").string();
  const std::string meta = qnm::ReadFile(meta_path), profile = qnm::ReadFile(profile_path);
  auto error_with = [&](const std::string& path, const std::string& bytes) {
    qnm::WriteFileAtomically(path, bytes);
    const std::string message = IngestErrorOf(copy.string());
    qnm::WriteFileAtomically(meta_path, meta);
    qnm::WriteFileAtomically(profile_path, profile);
    CHECK(message.find('\n') == std::string::npos);
    return message;
  };

  CHECK_THAT(error_with(meta_path, meta.substr(0, meta.size() - 100)),
             Catch::Contains(meta_path) && Catch::Contains("cut short"));
  std::string version5 = meta;
  version5[0x0e] = 5;
  CHECK_THAT(error_with(meta_path, version5),
             Catch::Contains(meta_path) && Catch::Contains("format version 5.") && Catch::Contains("knows version 4"));
  std::string no_time = meta;
  for (std::size_t at = no_time.find("CPUTIME"); at != std::string::npos; at = no_time.find("CPUTIME", at))
    no_time.replace(at, 7, "CYCLES_");
  CHECK_THAT(error_with(meta_path, no_time), Catch::Contains("no time metric") && Catch::Contains("CYCLES_ (sec)"));

  // The first entry point's first child made to hold the entry point's own children again: a loop.
  std::string loop = meta;
  const std::uint64_t context_section = Get(meta, 0x48, 8);
  const std::uint64_t entry = Get(meta, context_section, 8);
  const std::uint64_t first_child = Get(meta, entry + 8, 8);
  Put(&loop, first_child, 8, Get(meta, entry, 8));
  Put(&loop, first_child + 8, 8, first_child);
  CHECK_THAT(error_with(meta_path, loop), Catch::Contains(meta_path) && Catch::Contains("(a loop)"));

  CHECK_THAT(error_with(profile_path, profile.substr(0, profile.size() - 8)),
             Catch::Contains(profile_path) && Catch::Contains("_prof.db footer"));
  CHECK_THAT(error_with(profile_path, profile.substr(0, profile.size() / 2) + "_prof.db"),
             Catch::Contains(profile_path) && Catch::Contains("cut short"));

  // Every value of every profile a NaN: the first thread-0 profile read says so.
  std::string nan = profile;
  const std::uint64_t infos = Get(profile, 0x18, 8), list = Get(profile, infos, 8);
  const std::uint64_t count = Get(profile, infos + 8, 4), stride = Get(profile, infos + 0x0c, 1);
  for (std::uint64_t p = 0; p < count; ++p) {
    const std::uint64_t values = Get(profile, list + p * stride, 8), at = Get(profile, list + p * stride + 8, 8);
    for (std::uint64_t v = 0; v < values; ++v) {
      const double bad = std::numeric_limits<double>::quiet_NaN();
      std::uint64_t bits;
      std::memcpy(&bits, &bad, sizeof bits);
      Put(&nan, at + 10 * v + 2, 8, bits);
    }
  }
  CHECK_THAT(error_with(profile_path, nan), Catch::Contains(profile_path) && Catch::Contains("not a time"));

  // Rank 1's profiles told as rank 0's: two thread-0 profiles of rank 0.
  std::string twice = profile;
  const std::uint64_t tuples = Get(profile, 0x28, 8), tuples_end = tuples + Get(profile, 0x20, 8);
  int changed = 0;
  for (std::uint64_t at = tuples; at < tuples_end;) {
    const std::uint64_t ids = Get(profile, at, 2);
    for (std::uint64_t k = 0; k < ids; ++k) {
      const std::uint64_t id = at + 8 + 16 * k;
      if (Get(profile, id + 4, 4) == 1 && profile[id] == 2) {  // kind 2: RANK in this database's names
        Put(&twice, id + 4, 4, 0);
        ++changed;
      }
    }
    at += 8 + 16 * ids;
  }
  REQUIRE(changed > 0);
  CHECK_THAT(error_with(profile_path, twice),
             Catch::Contains(profile_path) && Catch::Contains("a second profile of rank 0, thread 0"));

  fs::remove(profile_path);
  CHECK_THAT(IngestErrorOf(copy.string()), Catch::Contains(meta_path) && Catch::Contains("no profile.db beside it"));
}
