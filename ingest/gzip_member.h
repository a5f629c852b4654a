#pragma once
// A gzip stream: a file compressed as a whole (compressed_file.h), or a
// gzip-compressed member of an archive. Cube (cubelib >= 4.5, and pyCubexR)
// accepts a gzip-compressed anchor.xml inside a .cubex; Extra-P's own cube-set
// test data is written that way (docs/formats/cube4.md, "Compressed anchor").
#include <cstddef>
#include <string>
#include <string_view>

namespace qnm {

/// True when `bytes` start with the gzip magic 1f 8b.
bool IsGzip(std::string_view bytes);

/// The inflated bytes of a gzip stream, every member of it, each checked
/// against its CRC; throws InputError(path, 0, ...) naming `member` when the
/// stream is corrupt, cut short, followed by bytes that are neither a member
/// nor zero padding, or would unpack past `max_bytes`.
std::string Gunzip(std::string_view bytes, const std::string& path, const std::string& member, std::size_t max_bytes);

}  // namespace qnm
