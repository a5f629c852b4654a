#include "ingest/content_digest.h"

#include <cstdint>
#include <cstdio>

namespace qnm {

std::string ContentDigest(std::string_view bytes) {
  std::uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return std::string(text) + ":" + std::to_string(bytes.size());
}

}  // namespace qnm
