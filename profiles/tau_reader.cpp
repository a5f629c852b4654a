// Reader-table row for TAU profiles (tau_profile.h): `profile.0.0.0` stands
// for the folder of profiles it opens; the other profile.<n>.<c>.<t> files of
// that folder are its own (ingest's walk leaves them out, as the files of an
// OTF2 trace).
#include <filesystem>
#include <map>

#include "profiles/profile_readers.h"
#include "profiles/tau_profile.h"
#include "reader/routine_call_sites.h"
#include "textio/text_lines.h"
#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm {

namespace fs = std::filesystem;

bool IsTauProfileOfAnchor(const std::string& path) {
  int node = 0, context = 0, thread = 0;
  if (!ParseTauProfileName(path, &node, &context, &thread) || (node == 0 && context == 0 && thread == 0))
    return false;
  std::error_code error;
  return fs::exists(fs::path(path).parent_path() / "profile.0.0.0", error);
}

bool SniffTauProfile(const std::string& path, std::string_view text) {
  int node = 0, context = 0, thread = 0;
  return ParseTauProfileName(path, &node, &context, &thread) && LooksLikeTauProfile(text);
}

ReaderOutput ReadTauProfile(const ReaderInput& input) {
  if (BaseName(input.path) != "profile.0.0.0")  // named on the command line: the run is its folder
    throw InputError(input.path, 0, "one rank's or thread's TAU profile: give its folder (or its profile.0.0.0)");
  const fs::path folder = fs::path(input.path).parent_path();
  // Every profile.<n>.<c>.<t> beside the anchor: the ranks (thread 0) and their thread count.
  std::map<int, std::string> rank_files;
  int threads = 1;
  bool other_contexts = false;
  std::error_code error;
  for (fs::directory_iterator it(folder.empty() ? "." : folder, error), end; !error && it != end; it.increment(error)) {
    int node = 0, context = 0, thread = 0;
    if (!ParseTauProfileName(it->path().string(), &node, &context, &thread)) continue;
    if (context != 0) {
      other_contexts = true;
      continue;
    }
    if (thread == 0) rank_files[node] = it->path().string();
    if (node == 0) threads = std::max(threads, thread + 1);
  }
  if (error) throw InputError(folder.string(), 0, "cannot list the TAU profiles (" + error.message() + ")");
  if (const int missing = FirstMissingRank(rank_files); missing >= 0)
    throw InputError((folder / ("profile." + std::to_string(missing) + ".0.0")).string(), 0,
                     "missing: the folder holds TAU profiles of ranks 0.." + std::to_string(rank_files.rbegin()->first));
  std::vector<TauProfile> ranks;
  std::vector<std::string> paths;
  double bytes_beside = 0;
  for (const auto& [rank, file] : rank_files) {
    const std::string text = rank == 0 ? std::string(input.text) : ReadFile(file, 64LL << 20);  // a text format's limit
    if (rank != 0) bytes_beside += static_cast<double>(text.size());
    ranks.push_back(ParseTauProfile(text, rank == 0 ? input.path : file));
    paths.push_back(rank == 0 ? input.path : file);
  }
  RunStats run = TauProfilesToRunStats(ranks, paths, threads);
  // No executable in the metadata: the folder's name (MULTI__TIME: its parent's).
  const fs::path named = folder.filename() == "MULTI__TIME" ? folder.parent_path() : folder;
  ReaderOutput output = FolderRunOutput(std::move(run), input.name, named.filename().string(),
                                        "TAU: the profiles' folder name", bytes_beside);
  if (other_contexts) output.notes.push_back(input.path + ": TAU profiles of contexts other than 0 left out");
  return output;
}

}  // namespace qnm
