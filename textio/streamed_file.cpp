#include "textio/streamed_file.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "textio/compressed_file.h"
#include "textio/gzip_member.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {
constexpr std::size_t kPieceBytes = 1 << 20;
// Enough for every compression's magic (CompressionOf; bzip2's is the longest, 10 bytes).
constexpr std::size_t kMagicBytes = 16;
}  // namespace

struct StreamedFile::Impl {
  std::string path;
  RegularFileReader file;
  std::size_t max_bytes = std::numeric_limits<std::size_t>::max();
  std::string compression;
  std::string head;        // the first bytes, read to tell the compression; given out before the rest
  std::size_t head_given = 0;
  std::vector<char> buffer = std::vector<char>(kPieceBytes);  // the pieces given out
  std::vector<char> packed;  // the compressed bytes libarchive reads (a block of its own, not `buffer`)
  std::size_t unpacked = 0;
  std::optional<GzipInflater> gzip;
  archive* raw = nullptr;  // libarchive's reader of the other compressions
  std::string read_error;  // a read error of the file under libarchive

  explicit Impl(const std::string& p) : path(p), file(p) {}
  ~Impl() {
    if (raw) archive_read_free(raw);
  }

  // The file's bytes as they are on disk: its head first, then the rest.
  std::size_t ReadDisk(char* to, std::size_t capacity) {
    if (head_given < head.size()) {
      const std::size_t n = std::min(capacity, head.size() - head_given);
      std::memcpy(to, head.data() + head_given, n);
      head_given += n;
      return n;
    }
    return file.Read(to, capacity);
  }

  static la_ssize_t ArchiveRead(archive*, void* self, const void** block) {
    Impl* impl = static_cast<Impl*>(self);
    *block = impl->packed.data();
    try {  // no exception through libarchive's C frames: kept, and thrown once it has returned
      return static_cast<la_ssize_t>(impl->ReadDisk(impl->packed.data(), impl->packed.size()));
    } catch (const InputError& error) {
      impl->read_error = error.message();
      archive_set_error(impl->raw, EIO, "%s", error.message().c_str());
      return -1;
    }
  }

  void OpenRaw() {
    packed.resize(kPieceBytes / 4);
    raw = archive_read_new();
    if (!raw) throw InputError(path, 0, "cannot create a decompressor");
    SupportCompressionFilters(raw);
    archive_read_support_format_raw(raw);
    archive_entry* entry = nullptr;
    // The callbacks read through `file` (its refusals), not libarchive's own open of the path.
    if (archive_read_open(raw, this, nullptr, &Impl::ArchiveRead, nullptr) != ARCHIVE_OK ||
        archive_read_next_header(raw, &entry) != ARCHIVE_OK)
      Corrupt();
  }

  [[noreturn]] void Corrupt() const {
    if (!read_error.empty()) throw InputError(path, 0, read_error);
    const char* message = raw ? archive_error_string(raw) : nullptr;
    throw InputError(path, 0, "the file is " + compression + "-compressed but corrupt or cut short (" +
                                  (message ? message : "read error") + ")");
  }

  void Count(std::size_t bytes) {
    unpacked += bytes;
    if (unpacked > max_bytes)
      throw InputError(path, 0, "not read: more than the limit of " + FormatByteSize(static_cast<double>(max_bytes)) +
                                    " (--max-file-size)");
  }
};

StreamedFile::StreamedFile(const std::string& path, long long max_bytes) : impl_(std::make_unique<Impl>(path)) {
  Impl& impl = *impl_;
  if (max_bytes > 0) impl.max_bytes = static_cast<std::size_t>(max_bytes);
  impl.head.resize(kMagicBytes);
  std::size_t filled = 0;
  while (filled < kMagicBytes) {
    const std::size_t n = impl.file.Read(impl.head.data() + filled, kMagicBytes - filled);
    if (n == 0) break;
    filled += n;
  }
  impl.head.resize(filled);
  impl.compression = CompressionOf(impl.head);
  if (impl.compression == "gzip")
    impl.gzip.emplace([&impl](char* to, std::size_t capacity) { return impl.ReadDisk(to, capacity); }, path,
                      "the file", impl.max_bytes);
  else if (!impl.compression.empty())
    impl.OpenRaw();
}

StreamedFile::~StreamedFile() = default;

bool StreamedFile::Next(std::string_view* piece) {
  Impl& impl = *impl_;
  if (impl.gzip) return impl.gzip->Next(piece);
  std::size_t got = 0;
  if (impl.raw) {
    const la_ssize_t n = archive_read_data(impl.raw, impl.buffer.data(), impl.buffer.size());
    if (n < 0) impl.Corrupt();
    got = static_cast<std::size_t>(n);
  } else {
    got = impl.ReadDisk(impl.buffer.data(), impl.buffer.size());
  }
  if (got == 0) return false;
  impl.Count(got);
  *piece = std::string_view(impl.buffer.data(), got);
  return true;
}

long long StreamedFile::size_bytes() const { return impl_->file.size_bytes(); }
const std::string& StreamedFile::compression() const { return impl_->compression; }

}  // namespace qnm
