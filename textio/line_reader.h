#pragma once
// The lines of a text that arrives in pieces (a StreamedFile, streamed_file.h)
// or whole: each line without its '\n', numbered from 1, held only until the
// next line is asked for. A line longer than `max_line_bytes` is refused (a
// binary file under a text format's name would otherwise be held whole).
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace qnm {

class LineReader {
 public:
  /// Gives the next piece of the text; false after the last.
  using Source = std::function<bool(std::string_view* piece)>;

  LineReader(Source source, std::string path, std::size_t max_line_bytes);
  /// A Source giving `text` (which must outlive it) `step` bytes at a time, as a file would stream.
  static Source PiecesOf(std::string_view text, std::size_t step);
  /// The lines of `text`, which is whole (no line limit, no copy).
  explicit LineReader(std::string_view text);

  /// The next line (valid until the next call); false after the last. A text
  /// ending in '\n' has no empty line after it.
  bool Next(std::string_view* line);
  /// The number of the line Next gave last (1-based; 0 before the first).
  long long number() const { return number_; }
  /// number() as InputError names a line (an int: a text of more than 2^31 lines names its last ones so).
  int ErrorLine() const;

 private:
  Source source_;
  std::string path_;
  std::size_t max_line_bytes_ = 0;
  std::string carry_;      // a line begun in one piece and continued in the next
  std::string_view rest_;  // what is left of the current piece (or the whole text)
  bool ended_ = false;     // the source gave its last piece
  long long number_ = 0;
};

/// Calls `read` with the lines of the file at `path` as it streams from disk
/// (StreamedFile: plain or compressed; `max_bytes` > 0 a limit on its content),
/// and sets `*digest` (optional) to the ContentDigest of every byte of that
/// content: a reader that sums records as they go reads a file of any size in
/// the memory of its sums.
void ReadLinesOfFile(const std::string& path, long long max_bytes, std::size_t max_line_bytes,
                     const std::function<void(LineReader& lines)>& read, std::string* digest);

}  // namespace qnm
