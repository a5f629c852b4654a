#pragma once
// A gzip stream: a file compressed as a whole (compressed_file.h), or a
// gzip-compressed member of an archive. Cube (cubelib >= 4.5, and pyCubexR)
// accepts a gzip-compressed anchor.xml inside a .cubex; Extra-P's own cube-set
// test data is written that way (docs/formats/cube4.md, "Compressed anchor").
#include <zlib.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace qnm {

/// True when `bytes` start with the gzip magic 1f 8b.
bool IsGzip(std::string_view bytes);

/// A gzip stream unpacked piece by piece as its compressed bytes arrive: member
/// after member (RFC 1952 §2.2: a gzip file is a series of members, as
/// `cat a.gz b.gz` and pigz write it), each checked against its CRC-32 and
/// length by zlib; zero bytes after the last member are padding (as gzip(1)
/// and Python's gzip skip them), any other trailing byte is refused.
class GzipInflater {
 public:
  /// Copies up to `capacity` more compressed bytes into `buffer`; 0 at their end.
  using Input = std::function<std::size_t(char* buffer, std::size_t capacity)>;

  /// `path` and `member` name the stream in errors ("the file", "anchor.xml");
  /// more than `max_bytes` unpacked is refused.
  GzipInflater(Input input, std::string path, std::string member, std::size_t max_bytes);
  ~GzipInflater();
  GzipInflater(const GzipInflater&) = delete;
  GzipInflater& operator=(const GzipInflater&) = delete;

  /// The next unpacked piece (valid until the next call); false after the
  /// last. Throws InputError(path, 0, ...) naming the member when the stream
  /// is corrupt, cut short, followed by bytes that are neither a member nor
  /// zero padding, or unpacks past `max_bytes`.
  bool Next(std::string_view* piece);

 private:
  void Refill();  // keeps the unread input, appends more; sets input_ended_ at its end
  [[noreturn]] void Fail(const std::string& why) const;
  std::string_view Unread() const;

  Input input_;
  std::string path_, member_;
  std::size_t max_bytes_, unpacked_ = 0;
  z_stream stream_{};
  std::vector<char> in_, out_;
  bool input_ended_ = false;
  bool member_ended_ = false;   // a member's end seen; what follows not yet known
  std::size_t trailing_ = 0;    // bytes after the last member (padding, or not)
  bool trailing_junk_ = false;  // one of them not zero
  bool done_ = false;
};

/// An Input giving `bytes` (which must outlive it), at most `step` at a time.
GzipInflater::Input BytesInSteps(std::string_view bytes, std::size_t step = static_cast<std::size_t>(-1));

/// The inflated bytes of the gzip stream `bytes`, every member of it
/// (GzipInflater's checks), at most `max_bytes`.
std::string Gunzip(std::string_view bytes, const std::string& path, const std::string& member, std::size_t max_bytes);

}  // namespace qnm
