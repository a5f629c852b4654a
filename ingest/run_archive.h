#pragma once
// A tar archive of runs (`tar czf campaign.tar.gz campaign/`), or a zip named
// .zip (`zip -r campaign.zip campaign/`): ingest reads it as the folder it
// packs. Each regular member is a file named "<archive path>/<member path>"
// (runs/campaign.tar.gz/campaign/run1/x.mpiP), read by the same readers as a
// file on disk, so its folder names, its NPB stdout and mpiP report pairing
// and the info file beside it count as they would unpacked; an OTF2 trace, a
// Paraver trace (with its .pcf and .row), a TAU profile folder or an HPCToolkit database inside is unpacked to a private
// temporary folder for its reader. An archive inside it is read the same way
// (ingest: one level deep, within the outermost archive's budget). A CUBE4 profile is also a tar
// archive; it stays the CUBE reader's (its first member is anchor.xml, a .index or .data member,
// or the file is named .cubex).
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "util/atomic_directory.h"

namespace qnm {

/// The OTF2 and Paraver traces, TAU profile folders and HPCToolkit databases inside an archive of runs, unpacked
/// member by member into a private temporary folder (their readers read a
/// run's several files from disk) that is removed with this object.
class ArchivedTraces {
 public:
  explicit ArchivedTraces(std::string archive_path) : archive_path_(std::move(archive_path)) {}

  /// Writes the member `name` (a trace's anchor, definitions or event file, a TAU profile);
  /// a name that would leave the folder ("..", absolute) is refused.
  void Add(const std::string& name, std::string bytes);

  struct Anchor {
    std::string archive_path;  // "<archive>/<member>"
    std::string disk_path;     // the unpacked anchor (X.otf2, profile.0.0.0), for its reader
    std::string bytes;         // the anchor's bytes (the record's origin)
  };
  const std::vector<Anchor>& Anchors() const { return anchors_; }

  /// `text` with every unpacked path told as the archive member it was.
  std::string InArchive(const std::string& text) const;

 private:
  std::string archive_path_;
  std::unique_ptr<TempDirectory> folder_;  // created on the first Add
  std::vector<Anchor> anchors_;
};

struct ArchivedFile {
  std::string path;   // "<archive path>/<member path>"
  std::string bytes;  // as stored (a member may itself be compressed: compressed_file.h)
};

/// True when `head` (the first bytes of the file, unpacked when the file is
/// compressed) is a tar archive that is not a CUBE4 profile, and `path` is
/// not named like one; or a zip archive named .zip (an office document or a
/// Java archive is a zip under another name).
bool IsArchiveOfRuns(const std::string& path, std::string_view head);

/// Calls `visit` with each regular-file member of the tar archive `bytes`
/// (plain or compressed) or zip archive, in archive order, without its leading
/// "./"; one member is held at a time. The files of an OTF2 trace (X.otf2,
/// X.def, X/), a Paraver trace (X.prv, X.pcf, X.row), TAU profiles (profile.<n>.<c>.<t>) and HPCToolkit databases go
/// to `traces` (left out when it is null); an archive inside the archive is
/// visited as a file. Throws InputError naming `path` for a damaged archive, a
/// member larger than `max_member_bytes`, more unpacked bytes than 64 times
/// the archive's, or more than `shared_left` (the outermost archive's budget,
/// taken from; none when null); members visited before stay visited.
void ForEachArchivedFile(std::string_view bytes, const std::string& path, long long max_member_bytes,
                         const std::function<void(ArchivedFile)>& visit,
                         ArchivedTraces* traces, std::size_t* shared_left = nullptr);

}  // namespace qnm
