#pragma once
// A file's content piece by piece, unpacked as it is read when the file is
// compressed as a whole (compressed_file.h: gzip through zlib, every member's
// CRC checked; the others through libarchive's raw format), so that a reader
// that sums its records as they go holds one piece at a time, never the file:
// a Paraver trace of tens of GB is read in the memory of its sums.
#include <memory>
#include <string>
#include <string_view>

namespace qnm {

class StreamedFile {
 public:
  /// Opens `path` (a regular file: a FIFO, device or directory is refused);
  /// `max_bytes` > 0 refuses a content larger than that (--max-file-size).
  StreamedFile(const std::string& path, long long max_bytes);
  ~StreamedFile();
  StreamedFile(const StreamedFile&) = delete;
  StreamedFile& operator=(const StreamedFile&) = delete;

  /// The next piece of the content (valid until the next call); false after
  /// the last. Throws InputError naming the file when it is corrupt or cut
  /// short, or larger than `max_bytes`.
  bool Next(std::string_view* piece);

  /// The file's size on disk when it was opened.
  long long size_bytes() const;
  /// Its compression (CompressionOf: "gzip", "xz", ...), or empty.
  const std::string& compression() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace qnm
