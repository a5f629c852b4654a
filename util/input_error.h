#pragma once
// One kind of error for bad input anywhere in the project: it names the file
// and, where there is one, the line, so the CLI prints "file:line: message".
#include <stdexcept>
#include <string>

namespace qnm {

class InputError : public std::runtime_error {
 public:
  /// `line` is 1-based; 0 means "no line" (e.g. a missing file).
  InputError(std::string file, int line, const std::string& message)
      : std::runtime_error(Format(file, line, message)),
        file_(std::move(file)),
        line_(line),
        message_(message) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  /// The message without the "file:line: " prefix.
  const std::string& message() const { return message_; }

 private:
  static std::string Format(const std::string& file, int line, const std::string& message) {
    std::string out = file;
    if (line > 0) out += ":" + std::to_string(line);
    if (!out.empty()) out += ": ";
    return OneLine(out + message);
  }
  /// Control characters (a quoted piece of a damaged file may hold '\n',
  /// '\r' or escape sequences) become '?', so the message stays one line.
  static std::string OneLine(std::string text) {
    for (char& c : text)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return text;
  }
  std::string file_;
  int line_;
  std::string message_;
};

}  // namespace qnm
