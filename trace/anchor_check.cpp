#include "trace/anchor_check.h"

#include <otf2/otf2.h>

#include <cstdint>
#include <string_view>

#include "util/atomic_file.h"
#include "util/input_error.h"

namespace qnm::trace {
namespace {

// The buffer's byte-order marks (libotf2's internal OTF2_EndiannessMode).
constexpr unsigned char kLittleEndian = 0x42, kBigEndian = 0x23;

class AnchorBytes {
 public:
  AnchorBytes(std::string path, std::string_view bytes) : path_(std::move(path)), bytes_(bytes) {}

  [[noreturn]] void Fail(const std::string& message) const {
    throw InputError(path_, 0, "damaged OTF2 anchor file: " + message);
  }
  std::size_t Remaining() const { return bytes_.size() - at_; }
  void Need(std::size_t count, const char* what) const {
    if (Remaining() < count) Fail(std::string("ends before ") + what);
  }
  uint8_t Byte(const char* what) {
    Need(1, what);
    return static_cast<uint8_t>(bytes_[at_++]);
  }
  uint64_t Unsigned(int width, const char* what) {  // OTF2's "full" integers, in the file's byte order
    Need(width, what);
    uint64_t value = 0;
    for (int i = 0; i < width; ++i) {
      uint64_t byte = static_cast<uint8_t>(bytes_[at_ + i]);
      value |= big_endian_ ? byte << (8 * (width - 1 - i)) : byte << (8 * i);
    }
    at_ += width;
    return value;
  }
  std::string_view String(const char* what) {
    std::size_t end = bytes_.find('\0', at_);
    if (end == std::string_view::npos) Fail(std::string("ends inside ") + what);
    std::string_view text = bytes_.substr(at_, end - at_);
    at_ = end + 1;
    return text;
  }
  void SetBigEndian(bool big) { big_endian_ = big; }

 private:
  std::string path_;
  std::string_view bytes_;
  std::size_t at_ = 0;
  bool big_endian_ = false;
};

}  // namespace

void CheckAnchorFile(const std::string& anchor, const std::string& definitions) {
  if (FileSizeBytes(anchor) > (1 << 20)) throw InputError(anchor, 0, "damaged OTF2 anchor file: larger than 1 MB");
  const std::string text = ReadFile(anchor);
  AnchorBytes in(anchor, text);
  in.Byte("the buffer header");
  uint8_t order = in.Byte("the byte-order mark");
  if (order != kLittleEndian && order != kBigEndian) in.Fail("unknown byte-order mark");
  in.SetBigEndian(order == kBigEndian);
  if (in.String("the magic string") != "OTF2") in.Fail("no OTF2 magic string");
  uint8_t anchor_format = in.Byte("the anchor format");
  in.Need(38, "the archive parameters");
  in.Byte("trace format");
  for (const char* part : {"major version", "minor version", "bugfix version"}) in.Byte(part);
  for (const char* what : {"event chunk size", "definition chunk size"}) {
    uint64_t chunk = in.Unsigned(8, what);
    if (chunk < OTF2_CHUNK_SIZE_MIN || chunk > OTF2_CHUNK_SIZE_MAX)
      in.Fail(std::string(what) + " " + std::to_string(chunk) + " outside OTF2's 256 KiB to 16 MiB");
  }
  uint8_t substrate = in.Byte("file substrate"), compression = in.Byte("compression");
  uint64_t locations = in.Unsigned(8, "number of locations");
  uint64_t global_defs = in.Unsigned(8, "number of global definitions");
  if (locations > global_defs)
    in.Fail(std::to_string(locations) + " locations but " + std::to_string(global_defs) +
            " global definitions (each location is one)");
  if (substrate == OTF2_SUBSTRATE_POSIX && compression == OTF2_COMPRESSION_NONE) {
    // A global definition record takes at least two bytes of traces.def.
    long long def_bytes = FileSizeBytes(definitions);
    if (def_bytes >= 0 && global_defs > static_cast<uint64_t>(def_bytes) / 2)
      in.Fail(std::to_string(global_defs) + " global definitions cannot fit in the " + std::to_string(def_bytes) +
              "-byte definition file");
  }
  for (const char* what : {"the machine name", "the creator", "the description"}) in.String(what);
  if (anchor_format > 1) {
    uint64_t properties = in.Unsigned(4, "the number of properties");
    if (properties > in.Remaining() / 2)  // a name and a value, each at least its terminating NUL
      in.Fail(std::to_string(properties) + " properties cannot fit in the " + std::to_string(in.Remaining()) +
              " bytes left");
    for (uint64_t i = 0; i < properties; ++i) {
      in.String("a property name");
      in.String("a property value");
    }
    in.Need(8, "the trace identifier");
  }
}

}  // namespace qnm::trace
