#include "paraver/extrae_files.h"

#include <array>
#include <cctype>
#include <filesystem>
#include <string_view>

#include "textio/compressed_file.h"
#include "textio/text_lines.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

// Extrae's per-thread files: "<app>@<host>.<10-digit pid><6-digit task><6-digit thread><ext>".
constexpr std::array<std::string_view, 8> kPerThreadExtensions = {".mpit", ".sym",  ".sample", ".online",
                                                                  ".cbk",  ".ttmp", ".stmp",   ".otmp"};
constexpr std::size_t kIdDigits = 22;
// A folder scanned for a merged trace holds the run's files, not set-N's thousands; past this many
// entries it is no traced run's folder.
constexpr int kMaxScannedEntries = 10000;

// The application name of a per-thread file ("TRACE" of "TRACE@node12.0000012345000003000000.mpit"), or empty.
std::string PerThreadApp(const std::string& name) {
  for (std::string_view extension : kPerThreadExtensions) {
    if (!EndsWith(name, extension)) continue;
    const std::string_view stem = std::string_view(name).substr(0, name.size() - extension.size());
    const std::size_t at = stem.find('@'), dot = stem.rfind('.');
    if (at == std::string_view::npos || at == 0 || dot == std::string_view::npos || dot < at ||
        stem.size() - dot - 1 != kIdDigits)
      return "";
    for (char c : stem.substr(dot + 1))
      if (!std::isdigit(static_cast<unsigned char>(c))) return "";
    return std::string(stem.substr(0, at));
  }
  return "";
}

bool IsRunList(const std::string& name) {
  return (EndsWith(name, ".mpits") && name.size() > 6) || (EndsWith(name, ".spawn") && name.size() > 6);
}

// True when `folder` holds a Paraver trace (X.prv, or compressed).
bool HoldsParaverTrace(const fs::path& folder) {
  std::error_code error;
  int seen = 0;
  for (fs::directory_iterator it(folder, error), end; !error && it != end && seen < kMaxScannedEntries;
       it.increment(error), ++seen)
    if (EndsWith(ToLower(WithoutCompressionSuffix(it->path().filename().string())), ".prv")) return true;
  return false;
}

}  // namespace

bool IsExtraeIntermediateFile(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  return IsRunList(name) || !PerThreadApp(name).empty();
}

bool IsPartOfExtraeRun(const std::string& path, const std::string& walk_root) {
  const fs::path file(path);
  const fs::path folder = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  const std::string name = file.filename().string();
  // X.spawn and the run's symbols X.sym go with the list X.mpits beside them.
  for (std::string_view extension : {std::string_view(".spawn"), std::string_view(".sym")})
    if (EndsWith(name, extension) && name.size() > extension.size() && PerThreadApp(name).empty()) {
      std::error_code error;
      return fs::exists(folder / (name.substr(0, name.size() - extension.size()) + ".mpits"), error);
    }
  if (!IsExtraeIntermediateFile(path)) return false;
  if (IsRunList(name)) return HoldsParaverTrace(folder);  // the list stands for the run until it is merged
  const std::string list = PerThreadApp(name) + ".mpits";
  // Within the walk: a list above it that the walk does not meet says nothing for it.
  const std::string root = fs::path(walk_root).lexically_normal().string();
  for (const fs::path& where : {folder, folder.parent_path()}) {
    if (where.empty() || (!walk_root.empty() && !StartsWith(where.lexically_normal().string(), root))) continue;
    std::error_code error;
    if (fs::exists(where / list, error) || (where != folder && HoldsParaverTrace(where))) return true;
  }
  return false;
}

std::string ExtraeIntermediateReason(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  if (IsRunList(name))
    return "Extrae's list of a traced run's files, not yet merged into a Paraver trace: `mpi2prv -f " + name +
           " -o " + name.substr(0, name.size() - 6) + ".prv` merges them, and the .prv is read";
  return "an Extrae intermediate trace file (" + fs::path(path).extension().string() +
         "), not a trace of its own: Extrae's mpi2prv merges a run's files into a Paraver trace (.prv), which is read";
}

}  // namespace qnm
