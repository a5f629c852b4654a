#pragma once
// The container of a CUBE4 profile (.cubex): a tar archive, optionally gzip-
// compressed, read from memory with libarchive. Early Cube 4.8 writers put a
// wrong checksum into every ustar header; Cube's own reader does not check it,
// so for that one refusal the headers are walked directly (docs/formats/cube4.md).
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace qnm {

/// Limits that keep a hostile archive from exhausting memory.
struct ArchiveLimits {
  std::size_t max_member_bytes = std::size_t{1} << 32;  // one member, unpacked
  double max_expansion = 64;  // unpacked total <= max_expansion * archive size + 1 MiB
  // Unpacked bytes left for an outermost archive of runs and the archives inside it, taken from
  // as members unpack (an archive inside an archive: run_archive.h); none when null.
  std::size_t* shared_left = nullptr;
};

/// The regular-file members of the tar archive `bytes` for which `wanted`
/// (all when empty) is true, by name; the others are skipped unread. Throws
/// InputError naming `path` when it is not a (complete) tar archive.
/// Called with each wanted regular-file member, in archive order, as it is unpacked.
using TarMemberVisitor = std::function<void(const std::string& name, std::string contents)>;

/// The same members one at a time: only one member's bytes are held at once
/// (an archive of runs, run_archive.h). A checksum-refused walk may have
/// visited members before a later header fails.
void VisitTarMembers(std::string_view bytes, const std::string& path, const ArchiveLimits& limits,
                     const std::function<bool(const std::string&)>& wanted, const TarMemberVisitor& visit);

/// The same for a zip archive (read through its central directory): a member
/// that is encrypted, or stored with a method libarchive cannot unpack, is
/// refused naming it, as is a damaged archive.
void VisitZipMembers(std::string_view bytes, const std::string& path, const ArchiveLimits& limits,
                     const std::function<bool(const std::string&)>& wanted, const TarMemberVisitor& visit);

std::map<std::string, std::string> ReadTarMembers(std::string_view bytes, const std::string& path,
                                                  const ArchiveLimits& limits = {},
                                                  const std::function<bool(const std::string&)>& wanted = {});

}  // namespace qnm
