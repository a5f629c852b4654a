#pragma once
// The digest that names a measurement by its bytes (RunStats::origin): one
// file read under two names is one measurement and two files never are.
#include <cstdint>
#include <string>
#include <string_view>

namespace qnm {

/// FNV-1a (64 bit) of bytes given piece by piece, for a file read as it streams by.
class ContentDigester {
 public:
  void Add(std::string_view bytes) {
    for (unsigned char c : bytes) hash_ = (hash_ ^ c) * 1099511628211ull;
    size_ += bytes.size();
  }
  /// The hash in hex, then ":" and the number of bytes.
  std::string Digest() const;

 private:
  std::uint64_t hash_ = 1469598103934665603ull;
  std::uint64_t size_ = 0;
};

/// FNV-1a (64 bit) of `bytes` in hex, then ":" and their size.
std::string ContentDigest(std::string_view bytes);

}  // namespace qnm
