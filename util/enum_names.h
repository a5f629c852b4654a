#pragma once
// Enum <-> name tables: one `{value, "name"}` array per enum gives both
// ToString() and Parse...() so the two directions cannot drift apart.
#include <cstddef>
#include <string_view>

namespace qnm {

template <typename Enum>
struct EnumName {
  Enum value;
  const char* name;
};

/// The name of `value` in `table`, or `missing` when it has none.
template <typename Enum, std::size_t N>
const char* NameOf(const EnumName<Enum> (&table)[N], Enum value, const char* missing = "?") {
  for (const EnumName<Enum>& entry : table)
    if (entry.value == value) return entry.name;
  return missing;
}

/// Sets `*value` to the entry named `text` (exact match); false when none is.
template <typename Enum, std::size_t N>
bool ValueOf(const EnumName<Enum> (&table)[N], std::string_view text, Enum* value) {
  for (const EnumName<Enum>& entry : table)
    if (text == entry.name) {
      *value = entry.value;
      return true;
    }
  return false;
}

}  // namespace qnm
