#include "textio/compressed_file.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <array>
#include <memory>

#include "textio/gzip_member.h"
#include "textio/text_lines.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {

struct Magic {
  const char* compression;
  std::string_view bytes;
};

// The streams' own magic numbers (gzip RFC 1952 §2.3.1, xz file format §2.1.1.1,
// zstd RFC 8878 §3.1.1, LZ4 frame format, compress(1)); bzip2 has no
// specification: "BZh", the block size digit, then the magic of a block
// (pi, 0x314159265359) or of the end of an empty stream (sqrt(pi)).
constexpr std::array<Magic, 5> kMagics{{
    {"gzip", std::string_view("\x1f\x8b", 2)},
    {"xz", std::string_view("\xfd" "7zXZ\x00", 6)},
    {"zstd", std::string_view("\x28\xb5\x2f\xfd", 4)},
    {"lz4", std::string_view("\x04\x22\x4d\x18", 4)},
    {"compress", std::string_view("\x1f\x9d", 2)},
}};

bool IsBzip2(std::string_view bytes) {
  if (bytes.size() < 10 || bytes.substr(0, 3) != "BZh" || bytes[3] < '1' || bytes[3] > '9') return false;
  std::string_view block = bytes.substr(4, 6);
  return block == "\x31\x41\x59\x26\x53\x59" || block == "\x17\x72\x45\x38\x50\x90";
}

struct ArchiveDeleter {
  void operator()(archive* a) const { archive_read_free(a); }
};

// An open reader positioned on the one entry of the raw format, or null with
// libarchive's message in `error`.
std::unique_ptr<archive, ArchiveDeleter> OpenRaw(std::string_view bytes, std::string* error) {
  std::unique_ptr<archive, ArchiveDeleter> reader(archive_read_new());
  if (!reader) {
    *error = "cannot create a decompressor";
    return nullptr;
  }
  SupportCompressionFilters(reader.get());
  archive_read_support_format_raw(reader.get());
  archive_entry* entry = nullptr;
  if (archive_read_open_memory(reader.get(), bytes.data(), bytes.size()) != ARCHIVE_OK ||
      archive_read_next_header(reader.get(), &entry) != ARCHIVE_OK) {
    const char* message = archive_error_string(reader.get());
    *error = message ? message : "unreadable stream";
    return nullptr;
  }
  return reader;
}

}  // namespace

void SupportCompressionFilters(archive* reader) {
  archive_read_support_filter_gzip(reader);
  archive_read_support_filter_bzip2(reader);
  archive_read_support_filter_xz(reader);
  archive_read_support_filter_zstd(reader);
  archive_read_support_filter_lz4(reader);
  archive_read_support_filter_compress(reader);
}

std::string CompressionOf(std::string_view bytes) {
  for (const Magic& magic : kMagics)
    if (bytes.substr(0, magic.bytes.size()) == magic.bytes) return magic.compression;
  return IsBzip2(bytes) ? "bzip2" : "";
}

std::string WithoutCompressionSuffix(const std::string& path) {
  const std::string lower = ToLower(path);
  for (const char* suffix : {".gz", ".bz2", ".xz", ".zst", ".lz4", ".z"})
    if (EndsWith(lower, suffix) && lower.size() > std::string_view(suffix).size())
      return path.substr(0, path.size() - std::string_view(suffix).size());
  return path;
}

std::string UnpackedHead(std::string_view bytes, std::size_t max_bytes) {
  std::string error;
  auto reader = OpenRaw(bytes, &error);
  std::string head;
  if (!reader) return head;
  head.resize(max_bytes);
  std::size_t filled = 0;
  while (filled < max_bytes) {
    la_ssize_t got = archive_read_data(reader.get(), head.data() + filled, max_bytes - filled);
    if (got <= 0) break;
    filled += static_cast<std::size_t>(got);
  }
  head.resize(filled);
  return head;
}

bool IsTarHead(std::string_view head) { return head.size() >= 262 && head.substr(257, 5) == "ustar"; }

bool IsZipHead(std::string_view head) {
  return head.size() >= 4 && (head.substr(0, 4) == std::string_view("PK\x03\x04", 4) ||
                              head.substr(0, 4) == std::string_view("PK\x05\x06", 4));
}

std::string Unpack(std::string_view bytes, const std::string& path, long long max_bytes) {
  const std::string compression = CompressionOf(bytes);
  const std::size_t limit = static_cast<std::size_t>(std::max(0LL, max_bytes));
  // gzip through zlib, which checks every member's CRC-32 (libarchive's
  // filter does not): a flipped bit is refused, not read as other numbers.
  if (compression == "gzip") return Gunzip(bytes, path, "the file", limit);
  std::string error;
  auto reader = OpenRaw(bytes, &error);
  if (!reader)
    throw InputError(path, 0, "the file is " + compression + "-compressed but corrupt or cut short (" + error + ")");
  std::string out;
  std::array<char, 1 << 16> chunk;
  while (true) {
    la_ssize_t got = archive_read_data(reader.get(), chunk.data(), chunk.size());
    if (got == 0) break;
    if (got < 0) {
      const char* message = archive_error_string(reader.get());
      throw InputError(path, 0, "the file is " + compression + "-compressed but corrupt or cut short (" +
                                    (message ? message : "read error") + ")");
    }
    if (out.size() + static_cast<std::size_t>(got) > limit)
      throw InputError(path, 0, "the file unpacks to more than " + FormatByteSize(static_cast<double>(limit)) +
                                    " (--max-file-size)");
    out.append(chunk.data(), static_cast<std::size_t>(got));
  }
  return out;
}

}  // namespace qnm
