#pragma once
// Outputs never destroy and never lie about success. A regular file (or a
// path where nothing is yet) is written atomically: to "<path>.tmp.<pid>"
// beside it, fsync, rename over it, so a failure or a kill never leaves a
// half-written output. A symbolic link is followed and its target replaced (the
// link stays a link). A FIFO, a device (/dev/null, /dev/full) or a socket is
// written directly and never replaced or removed. A directory is an error.
// Every failed write, flush or rename is an InputError naming the path.
#include <string>
#include <cstddef>
#include <string_view>
#include <vector>

namespace qnm {

/// Writes `contents` to `path` as described above. Throws InputError naming
/// `path` on failure; a regular target is untouched then.
void WriteFileAtomically(const std::string& path, std::string_view contents);

/// Writes a command's output: to standard output when `path` is empty or "-"
/// (a failed write or flush throws, e.g. `> /dev/full`), else WriteFileAtomically.
void WriteOutput(const std::string& path, std::string_view contents);

/// A command's output written piece by piece, with WriteOutput's guarantees:
/// to standard output when `path` is empty or "-", else to a temporary beside
/// the target that Commit() fsyncs and renames over it (a FIFO or device is
/// written in place). Pieces are kept in memory up to `buffer_bytes` and only
/// then written, so an output shorter than that reaches its destination whole
/// at Commit() or not at all, as with WriteOutput; a longer one streams, and
/// memory stays bounded by the buffer, not by the output. Destroyed without
/// Commit() (an error while producing it), the temporary is removed and the
/// target untouched; what a FIFO or standard output already received stays.
class OutputStream {
 public:
  explicit OutputStream(std::string path, std::size_t buffer_bytes = kDefaultBufferBytes);
  ~OutputStream();
  OutputStream(const OutputStream&) = delete;
  OutputStream& operator=(const OutputStream&) = delete;

  /// Appends `text`. Throws InputError naming the path when a write fails.
  void Write(std::string_view text);
  /// Writes what is buffered and puts the output in place. Throws InputError.
  void Commit();

  static constexpr std::size_t kDefaultBufferBytes = 32u << 20;

 private:
  void Open();
  void WriteNow(std::string_view text);  // opens on first use; throws InputError
  void Flush();
  void Discard() noexcept;

  std::string path_;           // as given ("" or "-": standard output)
  std::string target_, temp_;  // the resolved target; its temporary ("" when written in place)
  std::size_t buffer_bytes_;
  std::string buffer_;
  int fd_ = -1;
  int slot_ = -1;   // util/temp_registry.h slot of temp_
  bool opened_ = false, committed_ = false;
};

/// Flushes standard output; throws InputError when anything written to it failed.
void FlushStandardOutput();

/// The path writes to `path` land on: symbolic links followed (relative ones
/// against their directory). Throws InputError on a link loop.
std::string ResolveOutputPath(const std::string& path);

/// Throws InputError when the output `path` (not "-"/empty) is one of `inputs`
/// or an existing file inside an input directory: writing it would overwrite
/// what is being read.
void RefuseOutputOverInputs(const std::string& path, const std::vector<std::string>& inputs);

/// Throws InputError when two outputs of one command name the same file
/// (after symbolic links; "-"/empty never clash): the second write would
/// silently replace the first (`trace analyze -o F --cube F`).
void RefuseOneFileForTwoOutputs(const std::string& first, const char* first_option, const std::string& second,
                                const char* second_option);

/// Reads a whole regular file into a string without blocking: a FIFO, device
/// or directory is refused by name. Throws InputError naming `path` on failure,
/// and when the file holds (or grows while it is read to) more than `max_bytes`:
/// memory stays bounded by the caller's limit, not by what is on disk.
std::string ReadFile(const std::string& path, long long max_bytes = -1);

/// The first `max_bytes` of a regular file (fewer when it is shorter), with
/// ReadFile's refusals; for sniffing a format before reading a file whole.
std::string ReadFileHead(const std::string& path, std::size_t max_bytes);

/// A regular file read piece by piece, with ReadFile's refusals (a FIFO,
/// device or directory is refused by name before it is opened); closed when
/// the reader goes. For formats summed as they stream by, whatever their size.
class RegularFileReader {
 public:
  explicit RegularFileReader(const std::string& path);  // throws InputError naming `path`
  ~RegularFileReader();
  RegularFileReader(const RegularFileReader&) = delete;
  RegularFileReader& operator=(const RegularFileReader&) = delete;

  /// Up to `capacity` more bytes into `buffer`; 0 at the end of the file. Throws InputError on a read error.
  std::size_t Read(char* buffer, std::size_t capacity);
  long long size_bytes() const { return size_bytes_; }  // when it was opened

 private:
  std::string path_;
  int fd_ = -1;
  long long size_bytes_ = 0;
};

/// The size in bytes of what `path` names (stat, symbolic links followed), or
/// -1 when it cannot be stat'ed.
long long FileSizeBytes(const std::string& path);

}  // namespace qnm
