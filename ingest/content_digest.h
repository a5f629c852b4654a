#pragma once
// The digest that names a measurement by its bytes (RunStats::origin): one
// file read under two names is one measurement and two files never are.
#include <string>
#include <string_view>

namespace qnm {

/// FNV-1a (64 bit) of `bytes` in hex, then ":" and their size.
std::string ContentDigest(std::string_view bytes);

}  // namespace qnm
