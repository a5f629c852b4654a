#include "textio/xml_text.h"

#include <algorithm>

#include "util/input_error.h"

namespace qnm {

int LineOfOffset(std::string_view text, std::ptrdiff_t offset) {
  if (offset < 0) return 0;
  const std::size_t end = std::min(text.size(), static_cast<std::size_t>(offset));
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
}

void XmlText::Load(pugi::xml_document* document) const {
  const std::size_t elements = static_cast<std::size_t>(std::count(text.begin(), text.end(), '<'));
  if (elements > kXmlMaxElements)
    throw InputError(path, 0, "holds " + std::to_string(elements) + " XML elements, more than the " +
                                  std::to_string(kXmlMaxElements) + " a reader builds a tree of (about 64 bytes each)");
  const pugi::xml_parse_result parsed = document->load_buffer(text.data(), text.size());
  if (!parsed)
    throw InputError(path, LineOfOffset(text, parsed.offset), std::string("not XML: ") + parsed.description());
}

void XmlText::Fail(const pugi::xml_node& node, const std::string& why) const {
  throw InputError(path, LineOfOffset(text, node.offset_debug()), why);
}

}  // namespace qnm
