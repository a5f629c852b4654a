#pragma once
// A single file compressed as a whole (x.mpiP.gz, bt.C.64.out.xz, runs.csv.bz2,
// perflog.log.zst): ingest reads it as the file it holds, under its name
// without the compression suffix, as `zcat`/`xzcat` would show it. The bytes
// are unpacked by libarchive's "raw" format with every filter it has (gzip,
// including concatenated members, bzip2, xz, lzma, zstd, lz4).
//
// A compressed tar archive (a .cubex written as tar.gz) is not such a file:
// it stays for the CUBE reader, which unpacks it member by member.
#include <string>
#include <string_view>

struct archive;  // libarchive's reader

namespace qnm {

/// Lets the libarchive reader `reader` unpack the compressions named below,
/// each by its library; never a filter that runs an external program (lrzip,
/// lzop, grzip), which archive_read_support_filter_all would add.
void SupportCompressionFilters(archive* reader);

/// The compression whose magic bytes `bytes` start with ("gzip", "bzip2",
/// "xz", "zstd", "lz4"), or empty.
std::string CompressionOf(std::string_view bytes);

/// `path` without its compression suffix (.gz, .bz2, .xz, .lzma, .zst, .lz4;
/// case-insensitive): the name whose extension says what the file holds.
/// `path` itself when it has none.
std::string WithoutCompressionSuffix(const std::string& path);

/// Up to `max_bytes` of what `bytes` (compressed by CompressionOf) unpack
/// to, without reading past them: enough to sniff (a tar header, a format's
/// first lines). A corrupt stream gives what came before the damage.
std::string UnpackedHead(std::string_view bytes, std::size_t max_bytes);

/// True when the unpacked head `head` is a tar archive (ustar magic).
bool IsTarHead(std::string_view head);
/// True when `head` starts like a zip archive (a local file header, or the end
/// record of an empty archive: PKWARE APPNOTE 6.3.10, §4.3.7 and §4.3.16).
bool IsZipHead(std::string_view head);

/// Everything `bytes` unpack to. Throws InputError naming `path` when the
/// stream is corrupt or cut short, or when it unpacks to more than
/// `max_bytes` (the limit of the format it holds, input_size_limits.h).
std::string Unpack(std::string_view bytes, const std::string& path, long long max_bytes);

}  // namespace qnm
