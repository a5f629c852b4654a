// JUBE result tables (jube_result.h; docs/formats/jube-result.md). The layout is what JUBE 2.5 writes
// (jube/result_types/table.py's styles, jube/result.py's result folder) and `jube result` prints.
#include "tables/jube_result.h"

#include <filesystem>
#include <system_error>

#include "tables/document_tables.h"
#include "tables/statistics_table.h"
#include "textio/text_lines.h"
#include "textio/xml_text.h"
#include "util/input_error.h"

namespace qnm {
namespace {

namespace fs = std::filesystem;

// "<name>:" alone on a line: the title JUBE's pretty style writes above its table.
bool IsTitleLine(std::string_view line) {
  const std::string_view t = Trim(line);
  return t.size() >= 2 && t.back() == ':' && t.find(' ') == std::string_view::npos && t.front() != '|';
}

std::string Joined(const std::string& benchmark, const std::string& table) {
  if (benchmark.empty()) return table;
  return table.empty() || table == "result" ? benchmark : benchmark + ": " + table;
}

}  // namespace

bool LooksLikeJubePrettyTable(std::string_view text) {
  const std::vector<std::string_view> lines = SplitLines(text.substr(0, 4096));
  std::size_t i = 0;
  while (i < lines.size() && Trim(lines[i]).empty()) ++i;
  return i + 2 < lines.size() && IsTitleLine(lines[i]) && StartsWith(Trim(lines[i + 1]), "|") &&
         StartsWith(Trim(lines[i + 2]), "|-");
}

bool IsJubeResultFile(const std::string& path) {
  const fs::path file(path);
  return file.extension() == ".dat" && file.parent_path().filename() == "result";
}

std::string JubeBenchmarkName(const std::string& result_path) {
  const fs::path configuration = fs::path(result_path).parent_path().parent_path() / "configuration.xml";
  std::error_code error;
  if (!fs::is_regular_file(configuration, error) || fs::file_size(configuration, error) > (16u << 20)) return "";
  pugi::xml_document document;
  if (!document.load_file(configuration.c_str())) return "";  // the run's identity only: a damaged one is none
  return std::string(Trim(document.child("jube").child("benchmark").attribute("name").as_string()));
}

ReaderOutput ReadJubeResult(const ReaderInput& input) {
  const std::string& path = input.path;
  const std::string benchmark = IsJubeResultFile(path) ? JubeBenchmarkName(path) : "";
  ReaderOutput output;
  StatisticsTableOptions options = TableOptionsFor(input, &output);
  if (!benchmark.empty())
    output.readings.push_back(path + ": a JUBE result table of benchmark '" + benchmark + "' (its run's " +
                              "configuration.xml)");
  if (!LooksLikeJubePrettyTable(input.text)) {  // the csv and aligned styles: the file is the table
    options.rows_series = Joined(benchmark, fs::path(path).stem().string());
    output.runs = ReadStatisticsCsv(input.text, path, options);
    return output;
  }
  // The pretty style: each table under its "<name>:" line (`jube result` prints one after another).
  const std::vector<std::string_view> lines = SplitLines(input.text);
  const std::vector<DocumentTable> tables = FindDocumentTables(input.text, DocumentKind::kMarkdown);
  int read = 0;
  std::string passed_over;
  for (const DocumentTable& table : tables) {
    if (table.header_line < 2 || !IsTitleLine(lines[table.header_line - 2])) continue;  // untitled: no JUBE table
    const std::string_view title = Trim(lines[table.header_line - 2]);                 // the line above the header
    if (!NamesProcsAndTime(table.header)) {
      passed_over += (passed_over.empty() ? "" : ", ") + std::string(title.substr(0, title.size() - 1)) + " (line " +
                     std::to_string(table.header_line) + ")";
      continue;
    }
    options.rows_series = Joined(benchmark, std::string(title.substr(0, title.size() - 1)));
    std::vector<RunStats> runs = ReadDocumentTable(table, path, options);
    output.runs.insert(output.runs.end(), std::make_move_iterator(runs.begin()), std::make_move_iterator(runs.end()));
    ++read;
  }
  if (read == 0)
    throw InputError(path, 1,
                     "no JUBE result table whose columns name a run's processes and time (such as tasks "
                     "and runtime; docs/formats/jube-result.md)");
  if (!passed_over.empty())
    output.notes.push_back(path +
                           ": JUBE tables passed over (no columns of a run's processes and time): " + passed_over);
  return output;
}

}  // namespace qnm
