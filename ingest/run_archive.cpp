#include "ingest/run_archive.h"

#include <map>

#include "ingest/compressed_file.h"
#include "ingest/cube_archive.h"
#include "ingest/cube_profile.h"
#include "ingest/text_lines.h"

namespace qnm {

bool IsArchiveOfRuns(const std::string& path, std::string_view head) {
  const std::string lower = ToLower(WithoutCompressionSuffix(path));
  return IsTarHead(head) && !LooksLikeCubeProfile(head) && !EndsWith(lower, ".cubex");
}

std::vector<ArchivedFile> ArchivedFiles(std::string_view bytes, const std::string& path, long long max_member_bytes,
                                        std::vector<std::string>* notes) {
  ArchiveLimits limits;
  limits.max_member_bytes = static_cast<std::size_t>(max_member_bytes);
  std::map<std::string, std::string> members = ReadTarMembers(bytes, path, limits);
  // An OTF2 trace is read through its anchor X.otf2; X.def and the X/ folder are its own, not runs (as
  // ingest's walk of a folder on disk has it).
  std::vector<std::string> trace_stems;
  for (const auto& [name, contents] : members)
    if (EndsWith(ToLower(name), ".otf2")) trace_stems.push_back(name.substr(0, name.size() - 5));
  auto of_a_trace = [&](const std::string& name) {
    for (const std::string& stem : trace_stems)
      if (name == stem + ".def" || name == stem + ".qnm-manifest" || StartsWith(name, stem + "/")) return true;
    return false;
  };
  std::vector<ArchivedFile> files;
  for (auto& [name, contents] : members) {
    if (of_a_trace(name)) continue;
    std::string_view inner = name;
    while (StartsWith(inner, "./")) inner.remove_prefix(2);
    while (StartsWith(inner, "/")) inner.remove_prefix(1);
    if (inner.empty()) continue;
    const std::string member_path = path + "/" + std::string(inner);
    const std::string head = CompressionOf(contents).empty() ? contents.substr(0, 512) : UnpackedHead(contents, 512);
    if (IsArchiveOfRuns(member_path, head)) {
      notes->push_back(member_path + ": an archive inside an archive, not opened (unpack the outer one)");
      continue;
    }
    files.push_back({member_path, std::move(contents)});
  }
  return files;
}

}  // namespace qnm
