#include "textio/line_reader.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "textio/content_digest.h"
#include "textio/streamed_file.h"
#include "util/input_error.h"
#include "util/text_format.h"

namespace qnm {

LineReader::LineReader(Source source, std::string path, std::size_t max_line_bytes)
    : source_(std::move(source)), path_(std::move(path)), max_line_bytes_(max_line_bytes) {}

LineReader::LineReader(std::string_view text) : rest_(text), ended_(true) {}

int LineReader::ErrorLine() const {
  return static_cast<int>(std::min<long long>(number_, std::numeric_limits<int>::max()));
}

LineReader::Source LineReader::PiecesOf(std::string_view text, std::size_t step) {
  return [text, step](std::string_view* piece) mutable {
    if (text.empty()) return false;
    *piece = text.substr(0, step);
    text.remove_prefix(piece->size());
    return true;
  };
}

bool LineReader::Next(std::string_view* line) {
  carry_.clear();
  for (;;) {
    const std::size_t newline = rest_.find('\n');
    if (newline != std::string_view::npos) {
      std::string_view piece = rest_.substr(0, newline);
      rest_.remove_prefix(newline + 1);
      if (!carry_.empty()) {
        carry_.append(piece);
        piece = carry_;
      }
      *line = piece;
      ++number_;
      return true;
    }
    if (ended_) break;
    carry_.append(rest_);  // the line goes on in the next piece
    rest_ = {};
    if (carry_.size() > max_line_bytes_)
      throw InputError(path_, static_cast<int>(std::min<long long>(number_ + 1, std::numeric_limits<int>::max())),
                       "a line longer than " + FormatByteSize(static_cast<double>(max_line_bytes_)) +
                           ": not a text file of this format");
    if (!source_(&rest_)) {
      ended_ = true;
      rest_ = {};
    }
  }
  // The last line, without a '\n' after it.
  if (!rest_.empty()) {
    carry_.append(rest_);
    rest_ = {};
  }
  if (carry_.empty()) return false;
  *line = carry_;
  ++number_;
  return true;
}

void ReadLinesOfFile(const std::string& path, long long max_bytes, std::size_t max_line_bytes,
                     const std::function<void(LineReader& lines)>& read, std::string* digest) {
  StreamedFile file(path, max_bytes);
  ContentDigester digester;
  LineReader lines(
      [&](std::string_view* piece) {
        if (!file.Next(piece)) return false;
        digester.Add(*piece);
        return true;
      },
      path, max_line_bytes);
  read(lines);
  std::string_view rest;  // what a reader that stopped early left: the digest names every byte
  while (file.Next(&rest)) digester.Add(rest);
  if (digest) *digest = digester.Digest();
}

}  // namespace qnm
