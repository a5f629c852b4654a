// Reader-table row for HPCToolkit databases (hpctoolkit_database.h):
// `experiment.xml` stands for the database folder it opens; the metric-db
// files and the `src/` copies of the sources beside it are its own (ingest's
// walk leaves them out, as the files of an OTF2 trace).
#include <cstdio>
#include <filesystem>
#include <map>

#include "hpctoolkit/hpctoolkit_database.h"
#include "hpctoolkit/hpctoolkit_readers.h"
#include "hpctoolkit/hpctoolkit_v4_database.h"
#include "reader/routine_call_sites.h"
#include "textio/content_digest.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm {

namespace fs = std::filesystem;

namespace {

// A database whose program is not named (experiment.xml's header, meta.db's title) is its folder's.
constexpr const char* kNamedAfterFolder = "HPCToolkit: the database's folder name";
// The thread numbers HPCToolkit gives GPU streams start here (Hatchet's reader, HPCToolkit 2021.05).
constexpr int kFirstGpuStream = 500;
// One metric-db file: nodes x metrics doubles (1e6 call-tree nodes x 64 metrics).
constexpr long long kMaxMetricDbBytes = 512LL << 20;

bool HasExperimentBeside(const fs::path& path) {
  std::error_code error;
  return fs::exists(path.parent_path() / "experiment.xml", error);
}

/// A format-4 database's meta.db in `folder`, HPCToolkit's by its first bytes.
bool HasMetaDbIn(const fs::path& folder) {
  std::error_code error;
  const fs::path meta = folder / "meta.db";
  if (!fs::is_regular_file(meta, error)) return false;
  try {
    return LooksLikeHpctoolkitMeta(ReadFileHead(meta.string(), 16));
  } catch (const std::exception&) {
    return false;  // unreadable: the walk offers the files, and their readers say why
  }
}

// The files of a format-4 database beside its meta.db: the values by thread and by context, the
// traces, hpcprof's description of the format; metrics/ and src/ below it.
bool IsPartOfFormat4Database(const fs::path& file) {
  const std::string name = file.filename().string();
  if ((name == "profile.db" || name == "cct.db" || name == "trace.db" || name == "FORMATS.md") &&
      HasMetaDbIn(file.parent_path()))
    return true;
  for (fs::path folder = file.parent_path(); !folder.empty() && folder.has_filename(); folder = folder.parent_path())
    if ((folder.filename() == "src" || folder.filename() == "metrics") && HasMetaDbIn(folder.parent_path()))
      return true;
  return false;
}

}  // namespace

bool IsPartOfHpctoolkitDatabase(const std::string& path) {
  const fs::path file(path);
  if (IsPartOfFormat4Database(file)) return true;
  MetricDbName name;
  if (ParseMetricDbName(path, &name)) return HasExperimentBeside(file);
  // The copies of the sources hpcprof puts into <database>/src/ (beside an experiment.xml that is
  // HPCToolkit's: a project's own src/ beside another experiment.xml is walked).
  for (fs::path folder = file.parent_path(); !folder.empty() && folder.has_filename(); folder = folder.parent_path())
    if (folder.filename() == "src" && HasExperimentBeside(folder)) {
      try {
        return LooksLikeHpctoolkitExperiment(ReadFileHead((folder.parent_path() / "experiment.xml").string(), 4096));
      } catch (const std::exception&) {
        return false;  // an unreadable experiment.xml: the walk offers the file, and its reader says why
      }
    }
  return false;
}

bool SniffHpctoolkitExperiment(const std::string&, std::string_view text) {
  return LooksLikeHpctoolkitExperiment(text);
}

ReaderOutput ReadHpctoolkitExperiment(const ReaderInput& input) {
  const HpctoolkitExperiment experiment = ParseHpctoolkitExperiment(input.text, input.path);
  const fs::path folder = fs::path(input.path).parent_path();
  std::map<int, std::pair<std::string, std::string>> rank_files;  // rank -> (thread-0 file, host id)
  std::vector<std::string> other_threads;  // their values are not read; their headers and sizes are checked
  int threads = 1;
  bool gpu_streams = false;
  std::error_code error;
  for (fs::directory_iterator it(folder.empty() ? "." : folder, error), end; !error && it != end; it.increment(error)) {
    MetricDbName name;
    if (!ParseMetricDbName(it->path().string(), &name)) continue;
    if (name.thread >= kFirstGpuStream) {
      gpu_streams = true;
      continue;
    }
    if (name.thread == 0) {
      if (rank_files.count(name.rank))
        throw InputError(it->path().string(), 0, "a second metric-db of rank " + std::to_string(name.rank) +
                                                     ", thread 0 (two runs in one database?)");
      rank_files[name.rank] = {it->path().string(), name.host_id};
    } else {
      other_threads.push_back(it->path().string());
    }
    if (name.rank == 0) threads = std::max(threads, name.thread + 1);
  }
  if (error) throw InputError(folder.string(), 0, "cannot list the metric-db files (" + error.message() + ")");
  if (rank_files.empty())
    throw InputError(input.path, 0, "no *.metric-db beside it (an experiment.xml database is read; not the newer "
                                    "meta.db/profile.db format)");
  if (const int missing = FirstMissingRank(rank_files); missing >= 0)
    throw InputError(folder.string(), 0, "no metric-db of rank " + std::to_string(missing) + ", thread 0: the "
                                         "database holds ranks up to " + std::to_string(rank_files.rbegin()->first));
  double bytes_beside = 0;
  for (const std::string& file : other_threads) {
    bytes_beside += 32;
    std::error_code size_error;
    const auto size = fs::file_size(file, size_error);
    if (size_error) throw InputError(file, 0, "cannot read (" + size_error.message() + ")");
    CheckMetricDbHeader(ReadFileHead(file, 32), static_cast<std::size_t>(size), file, experiment);
  }
  std::vector<HpctoolkitRankTimes> ranks;
  std::vector<std::string> paths, hosts;
  std::string digests;  // the measurement is in the metric-db files: two runs may share an experiment.xml
  for (const auto& [rank, file] : rank_files) {
    const std::string bytes = ReadFile(file.first, kMaxMetricDbBytes);
    ranks.push_back(ReadMetricDb(bytes, file.first, experiment));
    digests += ContentDigest(bytes);
    bytes_beside += static_cast<double>(bytes.size());
    paths.push_back(file.first);
    hosts.push_back(file.second);
  }
  RunStats run = HpctoolkitToRunStats(experiment, ranks, paths, threads, hosts);
  run.sources.insert(run.sources.begin(), input.path);
  run.origin = "metric-db " + ContentDigest(digests);
  ReaderOutput output = FolderRunOutput(std::move(run), input.name, folder.filename().string(),
                                        kNamedAfterFolder, bytes_beside);
  if (gpu_streams) output.notes.push_back(input.path + ": GPU streams' metric-db files (thread >= 500) left out");
  return output;
}

bool SniffHpctoolkitMeta(const std::string&, std::string_view text) { return LooksLikeHpctoolkitMeta(text); }

ReaderOutput ReadHpctoolkitMeta(const ReaderInput& input) {
  const HpctoolkitMeta meta = ParseHpctoolkitMeta(input.text, input.path);
  const fs::path folder = fs::path(input.path).parent_path();
  const std::string profile_path = (folder / "profile.db").string();
  std::error_code error;
  if (!fs::exists(profile_path, error))
    throw InputError(input.path, 0, "no profile.db beside it (hpcprof writes meta.db and profile.db together)");
  const HpctoolkitProfileDb profiles(profile_path, meta);
  std::map<int, const HpctoolkitV4Profile*> by_rank;  // thread 0 of each rank
  int threads = 1;
  bool gpu = false;
  for (const HpctoolkitV4Profile& profile : profiles.Profiles()) {
    if (profile.gpu) {
      gpu = true;
      continue;
    }
    if (profile.rank == 0) threads = std::max(threads, profile.thread + 1);
    if (profile.thread != 0) continue;
    if (!by_rank.emplace(profile.rank, &profile).second)
      throw InputError(profile_path, 0, "a second profile of rank " + std::to_string(profile.rank) +
                                            ", thread 0 (two runs in one database?)");
  }
  if (by_rank.empty()) throw InputError(profile_path, 0, "no profile of a CPU thread 0 (only summaries or GPU streams)");
  if (const int missing = FirstMissingRank(by_rank); missing >= 0)
    throw InputError(profile_path, 0, "no profile of rank " + std::to_string(missing) + ", thread 0: the database "
                                      "holds ranks up to " + std::to_string(by_rank.rbegin()->first));
  HpctoolkitExperiment experiment;  // what the record takes of either format
  experiment.program = meta.title;
  experiment.version = meta.version;
  experiment.time_metric = meta.time_metric;
  for (const HpctoolkitMeta::MpiFrame& frame : meta.mpi_frames)
    experiment.mpi_frames.push_back({static_cast<int>(frame.context), frame.routine});
  std::vector<HpctoolkitRankTimes> ranks;
  std::vector<std::string> paths, hosts;
  for (const auto& [rank, profile] : by_rank) {
    ranks.push_back(profiles.Times(*profile));
    if (!(ranks.back().app_s > 0))
      throw InputError(profile_path, 0, "rank " + std::to_string(rank) + ": no time at the entry points " + input.path +
                                            " names: the two files are not of one database, or one is damaged");
    paths.push_back(profile_path + " (rank " + std::to_string(rank) + ")");
    char host[24] = "";
    if (profile->has_node) std::snprintf(host, sizeof host, "%llx", static_cast<unsigned long long>(profile->node));
    hosts.push_back(host);
  }
  HpctoolkitWording wording;
  wording.per_rank = "one thread-0 profile per MPI rank in profile.db";
  wording.threads = "profile.db's CPU-thread profiles of rank 0";
  wording.program = "meta.db title";
  wording.version = "database format";
  wording.hosts = "distinct NODE identifiers of the profiles in profile.db";
  wording.sources = {input.path, profile_path};
  RunStats run = HpctoolkitToRunStats(experiment, ranks, paths, threads, hosts, wording);
  run.origin = "profile.db " + ContentDigest(profiles.Digests());
  ReaderOutput output = FolderRunOutput(std::move(run), input.name, folder.filename().string(),
                                        kNamedAfterFolder, profiles.BytesRead());
  if (gpu) output.notes.push_back(profile_path + ": GPU contexts' and streams' profiles left out");
  return output;
}

}  // namespace qnm
