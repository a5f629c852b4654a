#pragma once
// The digest that names a measurement by its bytes (RunStats::origin): one
// file read under two names is one measurement and two files never are.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace qnm {

/// FNV-1a (64 bit) in four interleaved lanes (byte k goes to lane k mod 4), the lanes' hashes
/// then FNV-1a'd together with the size: each lane is FNV-1a's one-byte-at-a-time mixing, but the
/// four multiplications run side by side, so a large file is hashed about 3x faster than by one
/// lane (a byte-serial FNV-1a was a third of reading 180 MB of VASP OUTCARs). Bytes may be given
/// piece by piece, for a file read as it streams by: the digest depends on the bytes alone.
class ContentDigester {
 public:
  void Add(std::string_view bytes) {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(bytes.data());
    std::size_t n = bytes.size(), k = 0;
    for (; k < n && (size_ + k) % 4 != 0; ++k) Mix(&lanes_[(size_ + k) % 4], p[k]);  // to a lane boundary
    for (; k + 4 <= n; k += 4) {
      Mix(&lanes_[0], p[k]);
      Mix(&lanes_[1], p[k + 1]);
      Mix(&lanes_[2], p[k + 2]);
      Mix(&lanes_[3], p[k + 3]);
    }
    for (; k < n; ++k) Mix(&lanes_[(size_ + k) % 4], p[k]);
    size_ += n;
  }
  /// The hash in hex, then ":" and the number of bytes.
  std::string Digest() const;

 private:
  static void Mix(std::uint64_t* lane, unsigned char c) { *lane = (*lane ^ c) * 1099511628211ull; }
  std::array<std::uint64_t, 4> lanes_ = {1469598103934665603ull, 1469598103934665603ull, 1469598103934665603ull,
                                         1469598103934665603ull};
  std::uint64_t size_ = 0;
};

/// The digest of `bytes` (ContentDigester) in hex, then ":" and their size.
std::string ContentDigest(std::string_view bytes);

}  // namespace qnm
