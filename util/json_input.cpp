#include "util/json_input.h"

#include <algorithm>

#include "util/input_error.h"

namespace qnm {
namespace {

int LineOfByte(std::string_view text, std::size_t byte) {
  byte = std::min(byte, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte), '\n'));
}

/// nlohmann's message without its "[json.exception.x.N] " tag and position.
std::string Reason(const nlohmann::json::exception& e) {
  std::string message = e.what();
  std::size_t column = message.find("column");
  std::size_t colon = message.find(": ", column == std::string::npos ? 0 : column);
  if (colon != std::string::npos) return message.substr(colon + 2);
  std::size_t bracket = message.find("] ");
  return bracket == std::string::npos ? message : message.substr(bracket + 2);
}

/// Byte offset where the nesting first exceeds kMaxJsonDepth, or npos.
std::size_t TooDeep(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string_view::npos;
}

}  // namespace

nlohmann::json ParseJsonDocument(std::string_view text, const std::string& file) {
  if (std::size_t deep = TooDeep(text); deep != std::string_view::npos)
    throw InputError(file, LineOfByte(text, deep),
                     "invalid JSON: nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(file, LineOfByte(text, e.byte), "invalid JSON: " + Reason(e));
  } catch (const nlohmann::json::exception& e) {  // e.g. out_of_range 406: number overflow (1e309)
    throw InputError(file, 0, "invalid JSON: " + Reason(e));
  }
}

std::vector<int> JsonArrayObjectLines(std::string_view text, std::string_view key) {
  // The array opens at depth 0 (the document) or at depth 1 after `key`; its objects open one deeper.
  const int array_depth = key.empty() ? 0 : 1;
  std::vector<int> lines;
  int line = 1, depth = 0;
  bool in_string = false, escaped = false, in_array = false, key_seen = key.empty();
  std::size_t string_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') {
        in_string = false;
        if (!key.empty() && depth == 1 && !in_array) key_seen = text.substr(string_start, i - string_start) == key;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      string_start = i + 1;
    } else if (c == '[' || c == '{') {
      if (c == '[' && depth == array_depth && key_seen && !in_array) in_array = true;
      else if (c == '{' && depth == array_depth + 1 && in_array) lines.push_back(line);
      ++depth;
    } else if (c == ']' || c == '}') {
      --depth;
      if (depth == array_depth && in_array) in_array = false, key_seen = key.empty();
    } else if (c == ',' && depth == 1 && !key.empty()) {
      key_seen = false;
    }
  }
  return lines;
}

nlohmann::json ParseJsonLine(std::string_view text, const std::string& file, int line, const std::string& what) {
  try {
    return ParseJsonDocument(text, file);
  } catch (const InputError& error) {
    throw InputError(file, line, what + " line that is not JSON: " + error.message());
  }
}

const nlohmann::json* JsonMember(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

}  // namespace qnm
