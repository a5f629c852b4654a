#include "util/utf8_text.h"

namespace qnm {

std::string ValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xE ? 3 : (byte >> 3) == 0x1E ? 4 : 0;
    bool valid = length > 0 && i + length <= text.size();
    for (std::size_t k = 1; valid && k < length; ++k)
      valid = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (valid && length == 2) valid = byte >= 0xC2;  // no overlong forms
    if (valid && length == 3) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      valid = !(byte == 0xE0 && next < 0xA0) && !(byte == 0xED && next >= 0xA0);  // overlong, surrogates
    }
    if (valid && length == 4) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      valid = byte <= 0xF4 && !(byte == 0xF0 && next < 0x90) && !(byte == 0xF4 && next >= 0x90);
    }
    if (!valid) {
      out += '?';
      ++i;
    } else if (length == 1 && ((byte < 0x20 && byte != '\t') || byte == 0x7F)) {
      out += '?';
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

}  // namespace qnm
