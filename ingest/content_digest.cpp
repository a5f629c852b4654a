#include "ingest/content_digest.h"

#include <cstdio>

namespace qnm {

std::string ContentDigester::Digest() const {
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash_));
  return std::string(text) + ":" + std::to_string(size_);
}

std::string ContentDigest(std::string_view bytes) {
  ContentDigester digester;
  digester.Add(bytes);
  return digester.Digest();
}

}  // namespace qnm
