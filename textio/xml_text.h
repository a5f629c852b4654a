#pragma once
// An XML input read with pugixml (an IPM log, HPCToolkit's experiment.xml;
// CUBE4's anchor.xml uses LineOfOffset): errors name the file and the line of
// the element, which pugixml reports as a byte offset. pugixml's tree costs
// about 64 bytes per element whatever the text: a file of more elements than
// kXmlMaxElements is refused before it is parsed (as CUBE's anchor.xml,
// cube_memory_budget.h), so 256 MB of "<a/>" cannot take 4 GB.
#include <pugixml.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace qnm {

/// The 1-based line of byte `offset` of `text`; 0 for a negative offset (none known).
int LineOfOffset(std::string_view text, std::ptrdiff_t offset);

/// Elements ('<' counted) an XML reader builds a tree of: 8 million are about 0.5 GB of tree, and
/// more than the largest real HPCToolkit experiment.xml a 256 MiB file holds at ~50 bytes each.
inline constexpr std::size_t kXmlMaxElements = 8'000'000;

struct XmlText {
  std::string_view text;
  const std::string& path;

  /// Parses `text` into `document`; InputError(path, line, "not XML: ...") when it does not parse,
  /// InputError(path, 0, ...) when it holds more than kXmlMaxElements elements.
  void Load(pugi::xml_document* document) const;
  /// InputError(path, line of `node`, why).
  [[noreturn]] void Fail(const pugi::xml_node& node, const std::string& why) const;
};

}  // namespace qnm
