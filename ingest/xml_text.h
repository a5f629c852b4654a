#pragma once
// An XML input read with pugixml (an IPM log, HPCToolkit's experiment.xml;
// CUBE4's anchor.xml uses LineOfOffset): errors name the file and the line of
// the element, which pugixml reports as a byte offset.
#include <pugixml.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace qnm {

/// The 1-based line of byte `offset` of `text`; 0 for a negative offset (none known).
int LineOfOffset(std::string_view text, std::ptrdiff_t offset);

struct XmlText {
  std::string_view text;
  const std::string& path;

  /// Parses `text` into `document`; InputError(path, line, "not XML: ...") when it does not parse.
  void Load(pugi::xml_document* document) const;
  /// InputError(path, line of `node`, why).
  [[noreturn]] void Fail(const pugi::xml_node& node, const std::string& why) const;
};

}  // namespace qnm
