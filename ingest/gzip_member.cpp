#include "ingest/gzip_member.h"

#include <zlib.h>

#include "util/input_error.h"

namespace qnm {

bool IsGzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string Gunzip(std::string_view bytes, const std::string& path, const std::string& member, std::size_t max_bytes) {
  z_stream stream{};
  // 16 + MAX_WBITS: expect the gzip wrapper (header and CRC), not raw zlib.
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) throw InputError(path, 0, "cannot start zlib for " + member);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  stream.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char chunk[65536];
  int status = Z_OK;
  while (status != Z_STREAM_END) {
    stream.next_out = reinterpret_cast<Bytef*>(chunk);
    stream.avail_out = sizeof chunk;
    status = inflate(&stream, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END) {
      inflateEnd(&stream);
      throw InputError(path, 0, member + " is gzip-compressed but corrupt (" +
                                    (status == Z_BUF_ERROR ? std::string("cut short") : std::string("bad zlib data")) + ")");
    }
    out.append(chunk, sizeof chunk - stream.avail_out);
    if (out.size() > max_bytes) {
      inflateEnd(&stream);
      throw InputError(path, 0, member + " unpacks to more than " + std::to_string(max_bytes) + " bytes");
    }
  }
  inflateEnd(&stream);
  return out;
}

}  // namespace qnm
