#pragma once
// Names read from binary or damaged files end up in JSON reports, and a JSON
// writer refuses invalid UTF-8; readers pass such text through ValidUtf8.
#include <string>
#include <string_view>

namespace qnm {

/// `text` with every byte that is not part of a well-formed UTF-8 sequence
/// (and every control character but tab) replaced by '?'.
std::string ValidUtf8(std::string_view text);

}  // namespace qnm
