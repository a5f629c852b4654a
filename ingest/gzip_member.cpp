#include "ingest/gzip_member.h"

#include <zlib.h>

#include <climits>

#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {
bool IsGzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

// Member after member (RFC 1952 §2.2: a gzip file is a series of members, as
// `cat a.gz b.gz` and pigz write it), each checked against its CRC-32 and
// length by zlib; zero bytes after the last member are padding (as gzip(1)
// and Python's gzip skip them), any other trailing byte is refused.
std::string Gunzip(std::string_view bytes, const std::string& path, const std::string& member, std::size_t max_bytes) {
  if (bytes.size() > UINT_MAX) throw InputError(path, 0, member + " is too large to unpack in one piece");
  z_stream stream{};
  // 16 + MAX_WBITS: expect the gzip wrapper (header and CRC), not raw zlib.
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) throw InputError(path, 0, "cannot start zlib for " + member);
  auto fail = [&](const std::string& why) {
    inflateEnd(&stream);
    throw InputError(path, 0, member + " is gzip-compressed but " + why);
  };
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char chunk[65536];
  while (true) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof chunk;
    const int status = inflate(&stream, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END)
      fail(status == Z_BUF_ERROR ? "cut short"
                                 : "corrupt (" + std::string(stream.msg ? stream.msg : "bad zlib data") + ")");
    out.append(chunk, sizeof chunk - stream.avail_out);
    if (out.size() > max_bytes) {
      inflateEnd(&stream);
      throw InputError(path, 0, member + " unpacks to more than " + FormatByteSize(static_cast<double>(max_bytes)) +
                                    " (--max-file-size)");
    }
    if (status != Z_STREAM_END) continue;
    std::string_view rest(reinterpret_cast<const char*>(stream.next_in), stream.avail_in);
    if (IsGzip(rest)) {  // the next member
      inflateReset(&stream);
      continue;
    }
    if (rest.find_first_not_of('\0') != std::string_view::npos)
      fail("has " + std::to_string(rest.size()) + " bytes after its last member that are not gzip");
    break;
  }
  inflateEnd(&stream);
  return out;
}

}  // namespace qnm
