#pragma once
// A tar archive of runs (`tar czf campaign.tar.gz campaign/`): ingest reads it
// as the folder it packs. Each regular member is a file named
// "<archive path>/<member path>" (runs/campaign.tar.gz/campaign/run1/x.mpiP),
// read by the same readers as a file on disk, so its folder names, its NPB
// stdout and mpiP report pairing and the info file beside it count as they
// would unpacked. A CUBE4 profile is also a tar archive; it stays the CUBE
// reader's (its first member is anchor.xml, a .index or .data member, or the
// file is named .cubex).
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace qnm {

struct ArchivedFile {
  std::string path;   // "<archive path>/<member path>"
  std::string bytes;  // as stored (a member may itself be compressed: compressed_file.h)
};

/// True when `head` (the first bytes of the file, unpacked when the file is
/// compressed) is a tar archive that is not a CUBE4 profile, and `path` is
/// not named like one.
bool IsArchiveOfRuns(const std::string& path, std::string_view head);

/// Calls `visit` with each regular-file member of the tar archive `bytes`
/// (plain or compressed), in archive order, without its leading "./"; one
/// member is held at a time. The files of an OTF2 trace other than its anchor
/// are left out, and an archive of runs inside the archive is named in
/// `notes` and not opened. Throws InputError naming `path` for a damaged
/// archive, a member larger than `max_member_bytes`, or more unpacked bytes
/// than 64 times the archive's (members visited before stay visited).
void ForEachArchivedFile(std::string_view bytes, const std::string& path, long long max_member_bytes,
                         std::vector<std::string>* notes, const std::function<void(ArchivedFile)>& visit);

}  // namespace qnm
