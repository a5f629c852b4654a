#include "textio/content_digest.h"

#include <cstdio>

namespace qnm {

std::string ContentDigester::Digest() const {
  // The four lanes' hashes and the size, byte by byte through FNV-1a.
  std::uint64_t hash = 1469598103934665603ull;
  auto mix_word = [&](std::uint64_t word) {
    for (int b = 0; b < 8; ++b) hash = (hash ^ ((word >> (8 * b)) & 0xffu)) * 1099511628211ull;
  };
  for (std::uint64_t lane : lanes_) mix_word(lane);
  mix_word(size_);
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return std::string(text) + ":" + std::to_string(size_);
}

std::string ContentDigest(std::string_view bytes) {
  ContentDigester digester;
  digester.Add(bytes);
  return digester.Digest();
}

}  // namespace qnm
