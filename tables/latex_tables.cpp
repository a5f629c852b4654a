#include "tables/latex_tables.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "textio/text_lines.h"

namespace qnm {
namespace {

// The document without its comments ('%' to the line's end, "\%" kept), its lines kept, and where each
// line starts in it.
struct CleanText {
  std::string text;
  std::vector<std::size_t> line_starts;

  int LineAt(std::size_t offset) const {
    return static_cast<int>(std::upper_bound(line_starts.begin(), line_starts.end(), offset) - line_starts.begin());
  }
};

CleanText WithoutComments(std::string_view text) {
  CleanText clean;
  for (std::string_view line : SplitLines(text)) {
    clean.line_starts.push_back(clean.text.size());
    std::size_t cut = line.size();
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\\') {
        ++i;  // an escaped character, "\%" among them
      } else if (line[i] == '%') {
        cut = i;
        break;
      }
    }
    clean.text.append(line.substr(0, cut));
    clean.text += '\n';
  }
  return clean;
}

bool At(const std::string& text, std::size_t pos, std::string_view word) {
  return text.compare(pos, word.size(), word) == 0;
}

// The longest argument looked for: a title, a caption, a column spec (an unclosed brace is not searched for
// to the document's end at every command).
constexpr std::size_t kMaxArgumentChars = 4096;

// The text of the brace group at `*pos` (blanks before it skipped), nested groups kept; `*pos` moves past it.
// False when there is none.
bool BraceGroup(const std::string& text, std::size_t* pos, std::string* content) {
  std::size_t i = *pos;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i >= text.size() || text[i] != '{') return false;
  int depth = 0;
  const std::size_t stop = std::min(text.size(), i + kMaxArgumentChars);
  for (std::size_t j = i; j < stop; ++j) {
    if (text[j] == '\\') {
      ++j;
    } else if (text[j] == '{') {
      ++depth;
    } else if (text[j] == '}' && --depth == 0) {
      if (content) *content = text.substr(i + 1, j - i - 1);
      *pos = j + 1;
      return true;
    }
  }
  return false;
}

// Skips an optional argument ("[t]", "[2pt]") at `*pos`.
void SkipOptional(const std::string& text, std::size_t* pos) {
  std::size_t i = *pos;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i >= text.size() || text[i] != '[') return;
  const std::size_t end = std::string_view(text).substr(i, kMaxArgumentChars).find(']');
  if (end != std::string_view::npos) *pos = i + end + 1;
}

// A cell's text without LaTeX's marks: math shifts, braces, spacing commands, the commands that only dress
// their argument (\textbf{12.5} is 12.5, \multicolumn{2}{c}{Time} is Time), escaped characters.
std::string PlainLatex(std::string_view cell) {
  std::string out;
  for (std::size_t i = 0; i < cell.size(); ++i) {
    const char c = cell[i];
    if (c == '$' || c == '{' || c == '}') continue;
    if (c == '~') {
      out += ' ';
      continue;
    }
    if (c != '\\') {
      out += c;
      continue;
    }
    if (i + 1 < cell.size() && !std::isalpha(static_cast<unsigned char>(cell[i + 1]))) {
      const char escaped = cell[++i];
      if (escaped == '%' || escaped == '&' || escaped == '_' || escaped == '#')
        out += escaped;
      else if (escaped == ',' || escaped == ' ' || escaped == ';')
        out += ' ';
      continue;
    }
    std::size_t end = i + 1;
    while (end < cell.size() && std::isalpha(static_cast<unsigned char>(cell[end]))) ++end;
    const std::string_view command = cell.substr(i + 1, end - i - 1);
    i = end - 1;
    // \multicolumn{n}{spec}{text}, \multirow{n}{width}{text}: their first two arguments are layout.
    if (command == "multicolumn" || command == "multirow") {
      std::string rest(cell.substr(end, 3 * kMaxArgumentChars)), ignored;
      std::size_t pos = 0;
      if (BraceGroup(rest, &pos, &ignored) && BraceGroup(rest, &pos, &ignored)) i = end + pos - 1;
    } else if (command == "si" || command == "SI") {
      // siunitx's unit in a header ("Time [\si{\second}]"): its words are a unit's.
      std::string rest(cell.substr(end, kMaxArgumentChars)), unit;
      std::size_t pos = 0;
      if (BraceGroup(rest, &pos, &unit)) {
        if (unit.find("second") != std::string::npos) out += unit.find("milli") != std::string::npos ? "ms" : "s";
        i = end + pos - 1;
      }
    } else if (command == "times")
      out += 'x';  // "3600 $\times$ 1800"
    // Any other command: dropped, its argument (the braces' text) kept.
  }
  std::string collapsed;  // blanks where commands were: one
  for (char c : out)
    if (!(std::isspace(static_cast<unsigned char>(c)) && !collapsed.empty() && collapsed.back() == ' '))
      collapsed += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
  return std::string(Trim(collapsed));
}

constexpr std::string_view kRules[] = {"\\hline",        "\\toprule", "\\midrule",     "\\bottomrule",  "\\endhead",
                                       "\\endfirsthead", "\\endfoot", "\\endlastfoot", "\\addlinespace"};
constexpr std::string_view kRulesWithArgument[] = {"\\cline", "\\cmidrule", "\\noalign"};

// A row's text without its rules and the optional space after the previous row's "\\\\" ("[2pt]"): a suffix of it.
std::string WithoutRules(const std::string& row) {
  std::size_t at = 0;  // where the row's text starts, past what was skipped
  for (;;) {
    while (at < row.size() && std::isspace(static_cast<unsigned char>(row[at]))) ++at;
    if (at < row.size() && row[at] == '[') {
      const std::size_t end = row.find(']', at);
      if (end == std::string::npos) break;
      at = end + 1;
      continue;
    }
    bool removed = false;
    for (std::string_view rule : kRules)
      if (At(row, at, rule) &&
          !(at + rule.size() < row.size() && std::isalpha(static_cast<unsigned char>(row[at + rule.size()])))) {
        at += rule.size();
        removed = true;
        break;
      }
    for (std::string_view rule : kRulesWithArgument)
      if (!removed && At(row, at, rule)) {
        std::size_t pos = at + rule.size();
        if (pos < row.size() && row[pos] == '(') {  // \cmidrule(lr){2-3}
          const std::size_t close = row.find(')', pos);
          pos = close == std::string::npos ? row.size() : close + 1;
        }
        if (!BraceGroup(row, &pos, nullptr)) pos = at + rule.size();
        at = pos;
        removed = true;
      }
    if (!removed) break;
  }
  return row.substr(at);
}

// The cells of a row: split at '&' that is not "\&".
std::vector<std::string> LatexCells(const std::string& row) {
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size()) {
      cell += row[i];
      cell += row[++i];
    } else if (row[i] == '&') {
      cells.push_back(PlainLatex(cell));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  cells.push_back(PlainLatex(cell));
  return cells;
}

// The environments whose body is a table's rows, and how many brace arguments come before its column spec.
int WidthArguments(std::string_view environment) {
  return environment == "tabular*" || environment == "tabularx" || environment == "tabulary" ? 1 : 0;
}

bool IsTabular(std::string_view environment) {
  return environment == "tabular" || environment == "tabular*" || environment == "tabularx" ||
         environment == "tabulary" || environment == "longtable";
}

}  // namespace

std::vector<DocumentTable> FindLatexTables(std::string_view document) {
  const CleanText clean = WithoutComments(document);
  const std::string& text = clean.text;
  std::vector<DocumentTable> tables;
  std::string heading, pending_caption;
  bool in_table_environment = false;
  std::size_t first_table_of_environment = 0;
  std::size_t i = 0;
  while ((i = text.find('\\', i)) != std::string::npos) {
    std::size_t end = i + 1;
    while (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end]))) ++end;
    const std::string command = text.substr(i + 1, end - i - 1);
    if (command.empty()) {
      i = end + 1;  // an escaped character
      continue;
    }
    std::size_t pos = end;
    if (command == "section" || command == "subsection" || command == "subsubsection" || command == "paragraph") {
      if (pos < text.size() && text[pos] == '*') ++pos;
      SkipOptional(text, &pos);
      std::string title;
      if (BraceGroup(text, &pos, &title)) heading = PlainLatex(title);
    } else if (command == "caption" && in_table_environment) {
      SkipOptional(text, &pos);
      std::string caption;
      if (BraceGroup(text, &pos, &caption)) {
        caption = PlainLatex(caption);
        if (tables.size() > first_table_of_environment) {
          for (std::size_t t = first_table_of_environment; t < tables.size(); ++t) tables[t].heading = caption;
        } else {
          pending_caption = caption;
        }
      }
    } else if (command == "begin" || command == "end") {
      std::string environment;
      if (!BraceGroup(text, &pos, &environment)) {
        i = end;
        continue;
      }
      if (environment == "table" || environment == "table*") {
        in_table_environment = command == "begin";
        first_table_of_environment = tables.size();
        pending_caption.clear();
      } else if (command == "begin" && IsTabular(environment)) {
        SkipOptional(text, &pos);
        for (int k = 0; k < WidthArguments(environment); ++k) BraceGroup(text, &pos, nullptr);
        BraceGroup(text, &pos, nullptr);  // the column spec
        const std::size_t body_end = text.find("\\end{" + environment + "}", pos);
        if (body_end == std::string::npos) break;
        DocumentTable table;
        table.heading = !pending_caption.empty() ? pending_caption : heading;
        const std::string_view body = std::string_view(text).substr(0, body_end);  // searches stop at its end
        if (environment == "longtable") {                                          // a longtable's own \caption row
          const std::size_t caption_at = body.find("\\caption", pos);
          if (caption_at != std::string::npos) {
            std::size_t after = caption_at + 8;
            std::string caption;
            if (BraceGroup(text, &after, &caption)) {
              table.heading = PlainLatex(caption);
              pos = body.find("\\\\", after);
              pos = pos == std::string::npos ? after : pos + 2;
            }
          }
        }
        std::size_t row_start = pos;
        while (row_start < body_end) {
          std::size_t row_end = body.find("\\\\", row_start);
          if (row_end == std::string::npos) row_end = body_end;
          const std::string raw = text.substr(row_start, row_end - row_start);
          const std::string row = WithoutRules(raw);  // a suffix of `raw`
          if (!Trim(row).empty()) {
            std::size_t first = row_start + raw.size() - row.size();
            while (std::isspace(static_cast<unsigned char>(text[first]))) ++first;
            const int line = clean.LineAt(first);
            if (table.header.empty()) {
              table.header = LatexCells(row);
              table.header_line = line;
            } else {
              table.rows.emplace_back(line, LatexCells(row));
            }
          }
          row_start = row_end + 2;
        }
        if (!table.header.empty()) tables.push_back(std::move(table));
        pos = body_end;
      }
    }
    i = std::max(pos, end);
  }
  return tables;
}

}  // namespace qnm
