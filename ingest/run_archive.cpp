#include "ingest/run_archive.h"

#include <utility>

#include "ingest/compressed_file.h"
#include "ingest/cube_archive.h"
#include "ingest/cube_profile.h"
#include "ingest/text_lines.h"

namespace qnm {

bool IsArchiveOfRuns(const std::string& path, std::string_view head) {
  const std::string lower = ToLower(WithoutCompressionSuffix(path));
  return IsTarHead(head) && !LooksLikeCubeProfile(head) && !EndsWith(lower, ".cubex");
}

void ForEachArchivedFile(std::string_view bytes, const std::string& path, long long max_member_bytes,
                         std::vector<std::string>* notes, const std::function<void(ArchivedFile)>& visit) {
  ArchiveLimits limits;
  limits.max_member_bytes = static_cast<std::size_t>(max_member_bytes);
  // First the names (no member is kept): an OTF2 trace is read through its anchor X.otf2, and X.def and
  // the X/ folder are its own, not runs (as ingest's walk of a folder on disk has it).
  std::vector<std::string> trace_stems;
  VisitTarMembers(bytes, path, limits, [&](const std::string& name) {
    if (EndsWith(ToLower(name), ".otf2")) trace_stems.push_back(name.substr(0, name.size() - 5));
    return false;
  }, {});
  auto of_a_trace = [&](const std::string& name) {
    for (const std::string& stem : trace_stems)
      if (name == stem + ".def" || name == stem + ".qnm-manifest" || StartsWith(name, stem + "/")) return true;
    return false;
  };
  VisitTarMembers(bytes, path, limits, [&](const std::string& name) { return !of_a_trace(name); },
                  [&](const std::string& name, std::string contents) {
                    std::string_view inner = name;
                    while (StartsWith(inner, "./")) inner.remove_prefix(2);
                    while (StartsWith(inner, "/")) inner.remove_prefix(1);
                    if (inner.empty()) return;
                    ArchivedFile file{path + "/" + std::string(inner), std::move(contents)};
                    const std::string head = CompressionOf(file.bytes).empty() ? file.bytes.substr(0, 512)
                                                                               : UnpackedHead(file.bytes, 512);
                    if (IsArchiveOfRuns(file.path, head)) {
                      notes->push_back(file.path + ": an archive inside an archive, not opened (unpack the outer one)");
                      return;
                    }
                    visit(std::move(file));
                  });
}

}  // namespace qnm
