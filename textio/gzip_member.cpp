#include "textio/gzip_member.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
namespace {
constexpr std::size_t kInputBytes = 1 << 18;
constexpr std::size_t kOutputBytes = 1 << 20;
}  // namespace

bool IsGzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

GzipInflater::GzipInflater(Input input, std::string path, std::string member, std::size_t max_bytes)
    : input_(std::move(input)), path_(std::move(path)), member_(std::move(member)), max_bytes_(max_bytes),
      in_(kInputBytes), out_(kOutputBytes) {
  // 16 + MAX_WBITS: expect the gzip wrapper (header and CRC), not raw zlib.
  if (inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK) throw InputError(path_, 0, "cannot start zlib for " + member_);
  stream_.next_in = reinterpret_cast<Bytef*>(in_.data());
  stream_.avail_in = 0;
}

GzipInflater::~GzipInflater() { inflateEnd(&stream_); }

void GzipInflater::Fail(const std::string& why) const {
  throw InputError(path_, 0, member_ + " is gzip-compressed but " + why);
}

std::string_view GzipInflater::Unread() const {
  return {reinterpret_cast<const char*>(stream_.next_in), stream_.avail_in};
}

void GzipInflater::Refill() {
  const std::size_t kept = stream_.avail_in;
  std::memmove(in_.data(), stream_.next_in, kept);
  const std::size_t got = input_ended_ || kept == in_.size() ? 0 : input_(in_.data() + kept, in_.size() - kept);
  if (got == 0 && kept < in_.size()) input_ended_ = true;
  stream_.next_in = reinterpret_cast<Bytef*>(in_.data());
  stream_.avail_in = static_cast<uInt>(kept + got);
}

bool GzipInflater::Next(std::string_view* piece) {
  while (!done_) {
    if (member_ended_) {  // the next member, zero padding, or bytes that are not gzip
      if (trailing_ == 0 && stream_.avail_in < 2 && !input_ended_) {
        Refill();
        continue;
      }
      if (trailing_ == 0 && IsGzip(Unread())) {
        inflateReset(&stream_);
        member_ended_ = false;
        continue;
      }
      const std::string_view rest = Unread();
      trailing_ += rest.size();
      trailing_junk_ = trailing_junk_ || rest.find_first_not_of('\0') != std::string_view::npos;
      stream_.avail_in = 0;
      if (!input_ended_) {
        Refill();
        if (stream_.avail_in > 0 || !input_ended_) continue;
      }
      if (trailing_junk_) Fail("has " + std::to_string(trailing_) + " bytes after its last member that are not gzip");
      done_ = true;
      break;
    }
    if (stream_.avail_in == 0 && !input_ended_) Refill();
    stream_.next_out = reinterpret_cast<Bytef*>(out_.data());
    stream_.avail_out = static_cast<uInt>(out_.size());
    const int status = inflate(&stream_, Z_NO_FLUSH);
    const std::size_t produced = out_.size() - stream_.avail_out;
    if (status == Z_STREAM_END) {
      member_ended_ = true;
    } else if (status == Z_BUF_ERROR || (status == Z_OK && produced == 0)) {
      if (stream_.avail_in == 0 && input_ended_) Fail("cut short");
    } else if (status != Z_OK) {
      Fail("corrupt (" + std::string(stream_.msg ? stream_.msg : "bad zlib data") + ")");
    }
    if (produced == 0) continue;
    unpacked_ += produced;
    if (unpacked_ > max_bytes_)
      throw InputError(path_, 0, member_ + " unpacks to more than " + FormatByteSize(static_cast<double>(max_bytes_)) +
                                     " (--max-file-size)");
    *piece = std::string_view(out_.data(), produced);
    return true;
  }
  return false;
}

GzipInflater::Input BytesInSteps(std::string_view bytes, std::size_t step) {
  return [bytes, step](char* buffer, std::size_t capacity) mutable {
    const std::size_t n = std::min({capacity, step, bytes.size()});
    std::memcpy(buffer, bytes.data(), n);
    bytes.remove_prefix(n);
    return n;
  };
}

std::string Gunzip(std::string_view bytes, const std::string& path, const std::string& member, std::size_t max_bytes) {
  GzipInflater inflater(BytesInSteps(bytes), path, member, max_bytes);
  std::string out;
  std::string_view piece;
  while (inflater.Next(&piece)) out.append(piece);
  return out;
}

}  // namespace qnm
