#pragma once
// Parsing untrusted JSON text: every failure (syntax, number overflow such as
// 1e309, nesting deeper than any of our formats uses) becomes one InputError
// naming the file and, where nlohmann reports a byte offset, the line.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace qnm {

/// Deepest array/object nesting accepted; our formats need fewer than 8.
constexpr int kMaxJsonDepth = 64;

/// Parses `text` (read from `file`). Throws InputError("file:line: invalid JSON: ...").
nlohmann::json ParseJsonDocument(std::string_view text, const std::string& file);

/// The member `key` of a JSON object, or nullptr when `object` is no object, has no such member or
/// holds null there (readers of records whose writers leave unset fields out or null).
const nlohmann::json* JsonMember(const nlohmann::json& object, const char* key);

/// One line of a file that is JSON by itself (a JSON-lines record, an eventlog's event), at `line`
/// of `file`: throws InputError(file, line, "<what> line that is not JSON: ...") otherwise.
nlohmann::json ParseJsonLine(std::string_view text, const std::string& file, int line, const std::string& what);

/// The 1-based line of the '{' of each object of an array, for messages (nlohmann gives no
/// positions): the document's own array when `key` is empty, else the array under `key` of the
/// top-level object ({"runs": [...]}, sacct's {"jobs": [...]}). A string-aware scan of `text`.
std::vector<int> JsonArrayObjectLines(std::string_view text, std::string_view key);

}  // namespace qnm
