#include "cube/cube_archive.h"

#include <archive.h>
#include <archive_entry.h>

#include <cstring>
#include <memory>

#include "textio/compressed_file.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::size_t kTarBlock = 512;

struct Budget {
  std::size_t max_member, left;
  std::size_t* shared = nullptr;  // ArchiveLimits::shared_left
  void Take(std::size_t bytes, const std::string& path, const std::string& name) {
    if (bytes > max_member || bytes > left)
      throw InputError(path, 0, "archive member '" + name + "' unpacks to more than the archive can hold (" +
                                    std::to_string(bytes) + " bytes)");
    if (shared && bytes > *shared)
      throw InputError(path, 0, "archive member '" + name + "' unpacks to more than the outermost archive can hold (" +
                                    std::to_string(bytes) + " bytes)");
    left -= bytes;
    if (shared) *shared -= bytes;
  }
};

// Octal number field of a ustar header (NUL/space padded).
bool ParseOctalField(const char* field, std::size_t width, std::size_t* value) {
  std::size_t i = 0, result = 0;
  while (i < width && field[i] == ' ') ++i;
  bool any = false;
  for (; i < width && field[i] >= '0' && field[i] <= '7'; ++i) {
    if (result > (SIZE_MAX >> 3)) return false;
    result = result * 8 + static_cast<std::size_t>(field[i] - '0');
    any = true;
  }
  for (; i < width; ++i)
    if (field[i] != '\0' && field[i] != ' ') return false;
  *value = result;
  return any;
}

// Walks ustar headers without checking their checksums, as Cube's own reader
// does; used only when libarchive refuses an archive for its checksums.
// `already`: wanted members libarchive visited before it refused a later header; not visited twice.
void VisitUstarIgnoringChecksums(std::string_view bytes, const std::string& path, Budget budget,
                                 const std::function<bool(const std::string&)>& wanted, const TarMemberVisitor& visit,
                                 std::size_t already) {
  std::size_t offset = 0;
  while (true) {
    if (offset + kTarBlock > bytes.size())
      throw InputError(path, 0, "truncated tar archive (header at byte " + std::to_string(offset) + ")");
    const char* header = bytes.data() + offset;
    bool zero = true;
    for (std::size_t i = 0; i < kTarBlock && zero; ++i) zero = header[i] == '\0';
    if (zero) return;
    if (std::memcmp(header + 257, "ustar", 5) != 0)
      throw InputError(path, 0, "not a tar archive (no ustar header at byte " + std::to_string(offset) + ")");
    std::size_t size = 0;
    if (!ParseOctalField(header + 124, 12, &size))
      throw InputError(path, 0, "bad size field in tar header at byte " + std::to_string(offset));
    std::string name(header, strnlen(header, 100));
    std::string prefix(header + 345, strnlen(header + 345, 155));
    if (!prefix.empty()) name = prefix + "/" + name;
    offset += kTarBlock;
    if (size > bytes.size() - offset)
      throw InputError(path, 0, "truncated tar archive (member '" + name + "' runs past the end)");
    char type = header[156];
    if ((type == '0' || type == '\0') && (!wanted || wanted(name))) {
      if (already > 0) {
        --already;  // taken from the budget when libarchive visited it
      } else {
        budget.Take(size, path, name);
        visit(name, std::string(bytes.substr(offset, size)));
      }
    }
    offset += (size + kTarBlock - 1) / kTarBlock * kTarBlock;
  }
}

struct ArchiveDeleter {
  void operator()(archive* a) const { archive_read_free(a); }
};

// libarchive refuses a bad header checksum as "Damaged tar archive" or, when
// the first header is the bad one, as an unrecognised format; either way the
// headers carry the ustar magic.
bool IsChecksumRefusal(const char* message, std::string_view bytes) {
  bool ustar = bytes.size() >= kTarBlock && bytes.substr(257, 5) == "ustar";
  return ustar && message &&
         (std::strstr(message, "checksum") || std::strstr(message, "Damaged tar archive") ||
          std::strstr(message, "Unrecognized archive format"));
}

}  // namespace

namespace {

enum class Container { kTar, kZip };

// The members of an archive libarchive has opened, each taken from `budget` as it unpacks. When
// libarchive refuses a tar header for its checksum, the ustar headers are walked again
// (VisitUstarIgnoringChecksums), from the member after the ones already visited.
void VisitOpenArchive(archive* reader, std::string_view bytes, const std::string& path, Container container,
                      Budget budget, const std::function<bool(const std::string&)>& wanted,
                      const TarMemberVisitor& visit) {
  const char* kind = container == Container::kTar ? "tar" : "zip";
  archive_entry* entry = nullptr;
  std::size_t visited = 0;
  while (true) {
    int status = archive_read_next_header(reader, &entry);
    if (status == ARCHIVE_EOF) break;
    if (status < ARCHIVE_WARN) {
      const char* message = archive_error_string(reader);
      if (container == Container::kTar && IsChecksumRefusal(message, bytes))
        return VisitUstarIgnoringChecksums(bytes, path, budget, wanted, visit, visited);
      throw InputError(path, 0, std::string("bad ") + kind + " archive: " + (message ? message : "unreadable header"));
    }
    if (archive_entry_filetype(entry) != AE_IFREG) continue;
    std::string name = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
    if (wanted && !wanted(name)) continue;  // the next header skips its data
    if (archive_entry_is_encrypted(entry))
      throw InputError(path, 0, "archive member '" + name + "' is encrypted: not read (unpack it with its password)");
    const bool size_known = archive_entry_size_is_set(entry);
    la_int64_t declared = size_known ? archive_entry_size(entry) : 0;
    if (declared < 0) throw InputError(path, 0, "negative size of archive member '" + name + "'");
    budget.Take(static_cast<std::size_t>(declared), path, name);
    std::string contents(static_cast<std::size_t>(declared), '\0');
    std::size_t filled = 0;
    while (true) {
      if (size_known && filled == contents.size()) break;
      if (!size_known && contents.size() - filled < (1u << 16)) {  // a streamed member: grow within the budget
        budget.Take(1u << 16, path, name);
        contents.resize(filled + (1u << 16));
      }
      la_ssize_t got = archive_read_data(reader, contents.data() + filled, contents.size() - filled);
      if (got < 0) {
        const char* message = archive_error_string(reader);
        throw InputError(path, 0, "cannot unpack '" + name + "': " + (message ? message : "read error"));
      }
      if (got == 0) {
        if (!size_known) break;
        throw InputError(path, 0, std::string("truncated ") + kind + " archive (member '" + name + "' is cut short)");
      }
      filled += static_cast<std::size_t>(got);
    }
    contents.resize(filled);
    visit(name, std::move(contents));
    ++visited;
  }
}

Budget BudgetOf(const ArchiveLimits& limits, std::size_t archive_bytes) {
  return {limits.max_member_bytes,
          static_cast<std::size_t>(limits.max_expansion * static_cast<double>(archive_bytes)) + (1u << 20),
          limits.shared_left};
}

}  // namespace

void VisitTarMembers(std::string_view bytes, const std::string& path, const ArchiveLimits& limits,
                     const std::function<bool(const std::string&)>& wanted, const TarMemberVisitor& visit) {
  const Budget budget = BudgetOf(limits, bytes.size());
  std::unique_ptr<archive, ArchiveDeleter> reader(archive_read_new());
  if (!reader) throw InputError(path, 0, "cannot create an archive reader");
  archive_read_support_format_tar(reader.get());
  SupportCompressionFilters(reader.get());  // tar.gz (a .cubex); archives of runs (run_archive.h) in any
  if (archive_read_open_memory(reader.get(), bytes.data(), bytes.size()) != ARCHIVE_OK) {
    const char* message = archive_error_string(reader.get());
    if (IsChecksumRefusal(message, bytes)) return VisitUstarIgnoringChecksums(bytes, path, budget, wanted, visit, 0);
    throw InputError(path, 0, std::string("not a tar archive: ") + (message ? message : "unknown format"));
  }
  VisitOpenArchive(reader.get(), bytes, path, Container::kTar, budget, wanted, visit);
}

void VisitZipMembers(std::string_view bytes, const std::string& path, const ArchiveLimits& limits,
                     const std::function<bool(const std::string&)>& wanted, const TarMemberVisitor& visit) {
  std::unique_ptr<archive, ArchiveDeleter> reader(archive_read_new());
  if (!reader) throw InputError(path, 0, "cannot create an archive reader");
  // Seekable: the central directory at the end names the members and their sizes (a streamed
  // read would trust the local headers, which may say less, and miss members only it lists).
  archive_read_support_format_zip_seekable(reader.get());
  if (archive_read_open_memory(reader.get(), bytes.data(), bytes.size()) != ARCHIVE_OK) {
    const char* message = archive_error_string(reader.get());
    throw InputError(path, 0, std::string("not a complete zip archive (cut short or damaged: no central directory at its end; ") +
                                  (message ? message : "unknown format") + ")");
  }
  VisitOpenArchive(reader.get(), bytes, path, Container::kZip, BudgetOf(limits, bytes.size()), wanted, visit);
}

std::map<std::string, std::string> ReadTarMembers(std::string_view bytes, const std::string& path,
                                                  const ArchiveLimits& limits,
                                                  const std::function<bool(const std::string&)>& wanted) {
  std::map<std::string, std::string> members;
  VisitTarMembers(bytes, path, limits, wanted,
                  [&](const std::string& name, std::string contents) { members[name] = std::move(contents); });
  return members;
}

}  // namespace qnm
