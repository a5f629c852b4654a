#pragma once
// Parsing untrusted JSON text: every failure (syntax, number overflow such as
// 1e309, nesting deeper than any of our formats uses) becomes one InputError
// naming the file and, where nlohmann reports a byte offset, the line.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace qnm {

/// Deepest array/object nesting accepted; our formats need fewer than 8.
constexpr int kMaxJsonDepth = 64;

/// Parses `text` (read from `file`). Throws InputError("file:line: invalid JSON: ...").
nlohmann::json ParseJsonDocument(std::string_view text, const std::string& file);

}  // namespace qnm
