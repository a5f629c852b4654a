// hyperfine's JSON and CSV exports (hyperfine_export.h).
#include "timing_tools/hyperfine_export.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "launch/launch_command.h"
#include "reader/experiment_factors.h"
#include "tables/document_tables.h"
#include "tables/table_column_aliases.h"
#include "textio/text_lines.h"
#include "textio/time_units.h"
#include "launch/launch_layout.h"
#include "util/atomic_file.h"
#include "util/input_error.h"
#include "util/json_input.h"

namespace qnm {
namespace {

using Json = nlohmann::json;

constexpr std::string_view kCsvHeader = "command,mean,stddev,median,user,system,min,max";

// `text` after blanks, consuming `token` when it comes next.
bool Next(std::string_view* text, std::string_view token) {
  *text = Trim(*text);
  if (!StartsWith(*text, token)) return false;
  text->remove_prefix(token.size());
  return true;
}

[[noreturn]] void Fail(const std::string& path, int line, const std::string& why) {
  throw InputError(path, line, "hyperfine export: " + why);
}

double Seconds(const Json& result, const char* key, const std::string& path, int line, bool required) {
  const Json* value = JsonMember(result, key);
  if (!value) {
    if (required) Fail(path, line, std::string("a result without \"") + key + "\"");
    return -1;
  }
  if (!value->is_number() || !std::isfinite(value->get<double>()) || value->get<double>() < 0)
    Fail(path, line, std::string("\"") + key + "\" is no time in seconds >= 0: " + value->dump().substr(0, 40));
  return value->get<double>();
}

// The parameter's text (hyperfine writes strings; a number written by another tool is taken too).
std::string ParameterText(const Json& value, const std::string& path, int line) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_number_integer()) return std::to_string(value.get<long long>());
  Fail(path, line, "a parameter value that is no text: " + value.dump().substr(0, 40));
}

// One CSV number cell.
double CsvSeconds(const std::string& cell, const char* column, const std::string& path, int line) {
  const std::optional<double> value = ParseDouble(cell);
  if (!value || !std::isfinite(*value) || *value < 0)
    Fail(path, line, std::string("column ") + column + " holds no time in seconds >= 0: '" + cell.substr(0, 40) + "'");
  return *value;
}

// The layout the parameters name, by the statistics tables' names (np, procs, ranks, threads, nodes, ppn):
// our column -> the parameter's name.
std::map<std::string, std::string> LayoutParameters(const HyperfineResult& result, const std::string& path) {
  std::vector<std::string> header;
  for (const auto& [name, value] : result.parameters)
    if (!name.empty()) header.push_back(name);
  std::map<std::string, std::string> layout;
  if (header.empty()) return layout;
  header.push_back("time_s");
  TableColumnAliases aliases;
  std::string error;
  if (!ResolveTableColumnAliases(header, &aliases, &error)) Fail(path, result.line, "parameters " + error);
  for (const auto& [ours, theirs] : aliases.renamed)
    if (ours == "procs" || ours == "threads" || ours == "nodes" || ours == "ranks_per_node") layout[ours] = theirs;
  for (const char* ours : {"procs", "threads", "nodes", "ranks_per_node"})  // a parameter named as ours
    for (const std::string& name : header)
      if (NormalizedColumnName(name) == ours) layout[ours] = name;
  return layout;
}

// The value of the parameter the aliases named `name` (which they give without the blanks around it).
const std::string* ParameterValue(const HyperfineResult& result, const std::string& name) {
  for (const auto& [key, value] : result.parameters)
    if (Trim(key) == name) return &value;
  return nullptr;
}

int ParameterCount(const HyperfineResult& result, const std::string& name, const std::string& path) {
  const std::string* found = ParameterValue(result, name);
  if (!found) Fail(path, result.line, "parameter " + name + " not found");  // (the aliases name only parameters)
  const std::string& value = *found;
  const std::optional<long long> n = AllDigits(value) ? ParseInteger(value) : std::nullopt;
  if (!n || *n < 1 || *n > (1 << 24))
    Fail(path, result.line, "parameter " + name + " = '" + value.substr(0, 40) + "' is no whole number >= 1");
  return static_cast<int>(*n);
}

// The record of one timed run of `result` (time `seconds`, the `run`-th of the result's).
RunStats ToRunStats(const HyperfineResult& result, const LaunchCommand& launch,
                    const std::map<std::string, std::string>& layout, double seconds, std::size_t run,
                    const std::string& path) {
  RunStats stats;
  stats.sources.push_back(path + ":" + std::to_string(result.line));
  stats.origin = (result.summary_only ? "row " : "result ") + std::to_string(result.line) +
                 (result.summary_only ? "" : " run " + std::to_string(run + 1));
  stats.wall_time_s = seconds;
  stats.derivations["wall_time_s"] =
      result.summary_only
          ? "hyperfine's mean over its timed runs of the command (its " + result.summary_export +
                " export holds no single run)"
          : "hyperfine: timed run " + std::to_string(run + 1) + " of " + std::to_string(result.times_s.size()) +
                " of the command, its wall-clock time (the launcher's start-up included)";
  RunLayout by_parameter;  // the layout the parameters give, for what the command does not say
  for (auto [ours, count] :
       {std::pair{"procs", &by_parameter.procs}, std::pair{"threads", &by_parameter.threads},
        std::pair{"nodes", &by_parameter.nodes}, std::pair{"ranks_per_node", &by_parameter.ranks_per_node}})
    if (const auto named = layout.find(ours); named != layout.end())
      *count = {ParameterCount(result, named->second, path), "hyperfine parameter " + named->second};
  ApplyLaunchLayout(launch, "hyperfine command: ", by_parameter, &stats);
  if (!ApplyLaunchProgram(launch, "hyperfine command: ", &stats)) {
    stats.app = std::string("hyperfine");
    stats.derivations["app"] = "hyperfine export: the command names no program";
  }
  for (const auto& [name, value] : result.parameters) {
    bool is_layout = false;
    for (const auto& [ours, theirs] : layout) is_layout = is_layout || theirs == Trim(name);
    if (!is_layout && !name.empty()) stats.details[std::string(kDeclaredSettingPrefix) + DetailKey(name)] = value;
  }
  stats.details["hyperfine_command"] = result.command.substr(0, 400);
  if (result.user_s >= 0) stats.details["hyperfine_user_s"] = std::to_string(result.user_s);
  if (result.system_s >= 0) stats.details["hyperfine_system_s"] = std::to_string(result.system_s);
  if (result.summary_only && result.stddev_s >= 0)
    stats.details["hyperfine_stddev_s"] = std::to_string(result.stddev_s);
  return stats;
}

// True when a JSON export of hyperfine of the same name lies beside the CSV at `path`.
bool JsonExportBeside(const std::string& path) {
  std::error_code error;
  const std::filesystem::path json = std::filesystem::path(path).replace_extension(".json");
  if (!std::filesystem::is_regular_file(json, error)) return false;
  try {
    return LooksLikeHyperfineJson(ReadFileHead(json.string(), 512));
  } catch (const InputError&) {  // unreadable: the CSV is read on its own
    return false;
  }
}

// The markup exports (markup.rs of hyperfine): which one, and its table's cells, row by row.
enum class Markup { kNone, kMarkdown, kOrg, kAsciiDoc };

const char* MarkupName(Markup markup) {
  return markup == Markup::kMarkdown ? "Markdown" : markup == Markup::kOrg ? "Org" : "AsciiDoc";
}

// The unit's seconds of a header cell "<word> [<unit>]" (hyperfine's s, ms, µs); 0 when it is not one.
double HeaderUnitSeconds(const std::string& cell, std::string_view word) {
  const std::string prefix = std::string(word) + " [";
  if (!StartsWith(cell, prefix) || cell.back() != ']') return 0;
  return SecondsPerTimeUnit(std::string_view(cell).substr(prefix.size(), cell.size() - prefix.size() - 1));
}

// The seconds per unit of a markup export's header, 0 when the cells are not hyperfine's header.
double MarkupHeaderSeconds(const std::vector<std::string>& header) {
  if (header.size() != 5 || header[0] != "Command" || header[4] != "Relative") return 0;
  const double seconds = HeaderUnitSeconds(header[1], "Mean");
  const bool same = seconds > 0 && HeaderUnitSeconds(header[2], "Min") == seconds &&
                    HeaderUnitSeconds(header[3], "Max") == seconds && header[2].substr(3) == header[1].substr(4) &&
                    header[3].substr(3) == header[1].substr(4);
  return same ? seconds : 0;
}

// The markup of `lines` and the index of its header's first line (Markdown and Org: the header row;
// AsciiDoc: the line after `|===`), from the first line that is not blank.
Markup MarkupOf(const std::vector<std::string_view>& lines, std::size_t* header) {
  std::size_t i = 0;
  while (i < lines.size() && Trim(lines[i]).empty()) ++i;
  if (i + 1 >= lines.size()) return Markup::kNone;
  const std::string_view first = Trim(lines[i]);
  if (StartsWith(first, "[cols=")) {
    if (Trim(lines[i + 1]) != "|===") return Markup::kNone;
    std::vector<std::string> cells;  // the header's five cells, a line each (or together on one)
    std::size_t k = i + 2;
    for (; k < lines.size() && cells.size() < 5; ++k) {
      if (Trim(lines[k]).empty()) continue;
      for (std::string& cell : PipeRowCells(lines[k])) cells.push_back(std::move(cell));
    }
    *header = i + 2;
    return MarkupHeaderSeconds(cells) > 0 ? Markup::kAsciiDoc : Markup::kNone;
  }
  if (MarkupHeaderSeconds(PipeRowCells(first)) == 0) return Markup::kNone;
  const std::string_view rule = Trim(lines[i + 1]);
  *header = i;
  if (StartsWith(rule, "|:---|") || StartsWith(rule, "|---:|")) return Markup::kMarkdown;
  if (StartsWith(rule, "|--+")) return Markup::kOrg;
  return Markup::kNone;
}

// The markup export that `text` opens with (its first 4 KB: the header), kNone when none.
Markup MarkupOfText(std::string_view text) {
  if (StartsWith(text, "\xEF\xBB\xBF")) text.remove_prefix(3);
  std::size_t header = 0;
  return MarkupOf(SplitLines(text.substr(0, 4096)), &header);
}

// A number cell of a markup row: "382.0", or "382.0 ± 3.3" (the mean and its standard deviation).
bool MarkupNumber(const std::string& cell, double* value, double* spread) {
  const std::size_t plus_minus = cell.find("\u00b1");
  const std::optional<double> number = ParseDouble(Trim(std::string_view(cell).substr(0, plus_minus)));
  if (!number || !std::isfinite(*number) || *number < 0) return false;
  *value = *number;
  if (plus_minus == std::string::npos) return true;
  const std::optional<double> deviation = ParseDouble(Trim(std::string_view(cell).substr(plus_minus + 2)));
  if (!deviation || !std::isfinite(*deviation) || *deviation < 0) return false;
  if (spread) *spread = *deviation;
  return true;
}

// A command cell without the export's code marks (`cmd`, Org's =cmd=).
std::string UnmarkedCommand(const std::string& cell, Markup markup) {
  const char mark = markup == Markup::kOrg ? '=' : '`';
  if (cell.size() >= 2 && cell.front() == mark && cell.back() == mark) return cell.substr(1, cell.size() - 2);
  return cell;
}

}  // namespace

bool LooksLikeHyperfineJson(std::string_view text) {
  if (StartsWith(text, "\xEF\xBB\xBF")) text.remove_prefix(3);
  if (!Next(&text, "{") || !Next(&text, "\"results\"") || !Next(&text, ":") || !Next(&text, "[")) return false;
  return Next(&text, "{") && Next(&text, "\"command\"");
}

bool LooksLikeHyperfineCsv(std::string_view text) {
  if (StartsWith(text, "\xEF\xBB\xBF")) text.remove_prefix(3);
  if (!StartsWith(text, kCsvHeader)) return false;
  const std::string_view rest = text.substr(kCsvHeader.size());
  return rest.empty() || rest[0] == ',' || rest[0] == '\n' || rest[0] == '\r';
}

bool LooksLikeHyperfineMarkup(std::string_view text) { return MarkupOfText(text) != Markup::kNone; }

std::vector<HyperfineResult> ParseHyperfineMarkup(std::string_view text, const std::string& path) {
  if (StartsWith(text, "\xEF\xBB\xBF")) text.remove_prefix(3);
  const std::vector<std::string_view> lines = SplitLines(text);
  std::size_t header = 0;
  const Markup markup = MarkupOf(lines, &header);
  if (markup == Markup::kNone) Fail(path, 1, "no table of hyperfine's Markdown, Org or AsciiDoc export");
  // The table's cells after its header, each with its line: a row a line (Markdown, Org), or five
  // cells a row, a line each (AsciiDoc, up to the closing |===).
  std::vector<std::pair<int, std::string>> cells;
  std::vector<std::string> header_cells;
  std::size_t l = header;
  if (markup == Markup::kAsciiDoc) {
    for (; l < lines.size(); ++l) {
      const std::string_view line = Trim(lines[l]);
      if (line == "|===") break;
      if (line.empty()) continue;
      if (!StartsWith(line, "|")) Fail(path, static_cast<int>(l) + 1, "a line in the AsciiDoc table that is no cell");
      for (std::string& cell : PipeRowCells(line)) {
        if (header_cells.size() < 5)
          header_cells.push_back(std::move(cell));
        else
          cells.emplace_back(static_cast<int>(l) + 1, std::move(cell));
      }
    }
    if (l == lines.size()) Fail(path, static_cast<int>(lines.size()), "the AsciiDoc table has no closing |===");
    if (cells.size() % 5 != 0)
      Fail(path, cells.empty() ? static_cast<int>(l) + 1 : cells.back().first,
           "the last row of the AsciiDoc table has " + std::to_string(cells.size() % 5) + " of its 5 cells");
  } else {
    for (l = header + 2; l < lines.size(); ++l) {
      const std::string_view line = Trim(lines[l]);
      if (!StartsWith(line, "|")) break;
      std::vector<std::string> row = PipeRowCells(line);
      if (row.size() != 5)
        Fail(path, static_cast<int>(l) + 1, "a row of " + std::to_string(row.size()) + " cells under a header of 5");
      for (std::string& cell : row) cells.emplace_back(static_cast<int>(l) + 1, std::move(cell));
    }
    for (std::size_t k = l; k < lines.size(); ++k)
      if (!Trim(lines[k]).empty())
        Fail(path, static_cast<int>(k) + 1,
             "text after the table of hyperfine's " + std::string(MarkupName(markup)) +
                 " export (a document with more in it is read as a document's tables)");
  }
  const double seconds =
      MarkupHeaderSeconds(markup == Markup::kAsciiDoc ? header_cells : PipeRowCells(lines[header]));
  std::vector<HyperfineResult> out;
  for (std::size_t c = 0; c + 5 <= cells.size(); c += 5) {
    HyperfineResult result;
    result.line = cells[c].first;
    result.summary_only = true;
    result.summary_export = MarkupName(markup);
    result.command = UnmarkedCommand(cells[c].second, markup);
    double mean = 0, spread = -1, bound = 0;
    if (!MarkupNumber(cells[c + 1].second, &mean, &spread))
      Fail(path, cells[c + 1].first,
           "column Mean holds no time >= 0 (with its '\u00b1 deviation'): '" + cells[c + 1].second.substr(0, 40) + "'");
    for (std::size_t k : {c + 2, c + 3})
      if (!MarkupNumber(cells[k].second, &bound, nullptr) || cells[k].second.find("\u00b1") != std::string::npos)
        Fail(path, cells[k].first, "columns Min and Max hold no time >= 0: '" + cells[k].second.substr(0, 40) + "'");
    result.mean_s = mean * seconds;
    result.stddev_s = spread < 0 ? -1 : spread * seconds;
    result.times_s.push_back(result.mean_s);
    out.push_back(std::move(result));
  }
  return out;
}

std::vector<HyperfineResult> ParseHyperfineJson(std::string_view text, const std::string& path) {
  const Json document = ParseJsonDocument(text, path);
  const Json* results = JsonMember(document, "results");
  if (!results || !results->is_array()) Fail(path, 1, "no \"results\" array");
  const std::vector<int> lines = JsonArrayObjectLines(text, "results");
  std::vector<HyperfineResult> out;
  for (std::size_t r = 0; r < results->size(); ++r) {
    const Json& item = (*results)[r];
    HyperfineResult result;
    result.line = r < lines.size() ? lines[r] : 1;
    if (!item.is_object()) Fail(path, result.line, "a result that is no object");
    const Json* command = JsonMember(item, "command");
    if (!command || !command->is_string()) Fail(path, result.line, "a result without its \"command\" text");
    result.command = command->get<std::string>();
    result.mean_s = Seconds(item, "mean", path, result.line, true);
    result.user_s = Seconds(item, "user", path, result.line, false);
    result.system_s = Seconds(item, "system", path, result.line, false);
    if (const Json* times = JsonMember(item, "times")) {
      if (!times->is_array()) Fail(path, result.line, "\"times\" is no array");
      for (const Json& time : *times) {
        if (!time.is_number() || !std::isfinite(time.get<double>()) || time.get<double>() < 0)
          Fail(path, result.line,
               "a time in \"times\" that is no number of seconds >= 0: " + time.dump().substr(0, 40));
        result.times_s.push_back(time.get<double>());
      }
    } else {  // an export without the single runs (a tool writing hyperfine's format): its mean is one run
      result.times_s.push_back(result.mean_s);
      result.summary_only = true;
      result.summary_export = "JSON";
    }
    if (const Json* codes = JsonMember(item, "exit_codes")) {
      if (!codes->is_array() || codes->size() != result.times_s.size())
        Fail(path, result.line, "\"exit_codes\" does not hold one code per time of \"times\"");
      for (const Json& code : *codes) {
        if (code.is_null())
          result.exit_codes.push_back(std::nullopt);  // ended by a signal
        else if (code.is_number_integer())
          result.exit_codes.push_back(static_cast<int>(code.get<long long>()));
        else
          Fail(path, result.line, "an exit code that is no whole number: " + code.dump().substr(0, 40));
      }
    }
    if (const Json* parameters = JsonMember(item, "parameters")) {
      if (!parameters->is_object()) Fail(path, result.line, "\"parameters\" is no object");
      for (const auto& [name, value] : parameters->items())
        result.parameters.emplace_back(name, ParameterText(value, path, result.line));
    } else if (const Json* parameter = JsonMember(item, "parameter")) {  // hyperfine before 1.11
      result.parameters.emplace_back("", ParameterText(*parameter, path, result.line));
    }
    out.push_back(std::move(result));
  }
  return out;
}

std::vector<HyperfineResult> ParseHyperfineCsv(std::string_view text, const std::string& path) {
  const std::vector<std::string_view> lines = SplitLines(text);
  std::string header_line(lines.empty() ? std::string_view() : lines[0]);
  if (StartsWith(header_line, "\xEF\xBB\xBF")) header_line.erase(0, 3);
  const std::vector<std::string> header = SplitCsvCells(header_line, ',');
  std::vector<HyperfineResult> out;
  for (std::size_t l = 1; l < lines.size(); ++l) {
    if (Trim(lines[l]).empty()) continue;
    const int line = static_cast<int>(l) + 1;
    const std::vector<std::string> cells = SplitCsvCells(lines[l], ',');
    if (cells.size() != header.size())
      Fail(path, line,
           "a row of " + std::to_string(cells.size()) + " cells under a header of " + std::to_string(header.size()));
    HyperfineResult result;
    result.line = line;
    result.summary_only = true;
    result.summary_export = "CSV";
    result.command = cells[0];
    result.mean_s = CsvSeconds(cells[1], "mean", path, line);
    result.stddev_s = cells[2].empty() ? -1 : CsvSeconds(cells[2], "stddev", path, line);
    result.user_s = CsvSeconds(cells[4], "user", path, line);
    result.system_s = CsvSeconds(cells[5], "system", path, line);
    result.times_s.push_back(result.mean_s);
    for (std::size_t c = 8; c < header.size(); ++c) {
      std::string name = header[c];
      if (StartsWith(name, "parameter_"))
        name.erase(0, 10);
      else if (name == "parameter")
        name.clear();
      else
        continue;  // a column of a later hyperfine (memory): not a parameter
      result.parameters.emplace_back(name, cells[c]);
    }
    out.push_back(std::move(result));
  }
  return out;
}

bool SniffHyperfineExport(const std::string&, std::string_view text) {
  return LooksLikeHyperfineJson(text) || LooksLikeHyperfineCsv(text) || LooksLikeHyperfineMarkup(text);
}

ReaderOutput ReadHyperfineExport(const ReaderInput& input) {
  ReaderOutput output;
  const bool csv = LooksLikeHyperfineCsv(input.text), markup = !csv && LooksLikeHyperfineMarkup(input.text);
  const bool json = !csv && !markup;
  const std::string kind = json ? "JSON" : csv ? "CSV" : MarkupName(MarkupOfText(input.text));
  if (!json && JsonExportBeside(input.path)) {
    output.notes.push_back(input.path + ": hyperfine's " + kind +
                           " export of the benchmarks whose every run the JSON export beside it holds: read there, "
                           "not here");
    return output;
  }
  const std::vector<HyperfineResult> results = json  ? ParseHyperfineJson(input.text, input.path)
                                               : csv ? ParseHyperfineCsv(input.text, input.path)
                                                     : ParseHyperfineMarkup(input.text, input.path);
  UnfinishedRuns failed;
  std::size_t timed = 0;
  int from_command = 0, from_parameter = 0;
  std::string no_procs_command;  // the first command without a process count, and how many
  int no_procs_line = 0, no_procs = 0;
  for (const HyperfineResult& result : results) {
    const LaunchCommand launch = ParseLaunchCommand(result.command);
    if (!launch.error.empty())
      Fail(input.path, result.line, "command '" + result.command.substr(0, 120) + "': " + launch.error);
    const std::map<std::string, std::string> layout = LayoutParameters(result, input.path);
    if (launch.procs == 0 && !layout.count("procs")) {
      if (no_procs_command.empty()) no_procs_command = result.command, no_procs_line = result.line;
      ++no_procs;
      continue;
    }
    (launch.procs > 0 ? from_command : from_parameter) += 1;
    for (std::size_t t = 0; t < result.times_s.size(); ++t) {
      ++timed;
      if (t < result.exit_codes.size() && result.exit_codes[t] != 0) {
        failed.Add(result.line, "run " + std::to_string(t + 1) + " of '" + result.command.substr(0, 120) + "' " +
                                    (result.exit_codes[t] ? "exited with code " + std::to_string(*result.exit_codes[t])
                                                          : std::string("was ended by a signal")));
        continue;
      }
      RunStats run = ToRunStats(result, launch, layout, result.times_s[t], t, input.path);
      ApplyFileName(input.name, &run);
      output.runs.push_back(std::move(run));
    }
  }
  if (!no_procs_command.empty()) {
    const std::string why =
        "command '" + no_procs_command.substr(0, 120) +
        "' names no process count (mpirun -np N, srun -n N, ...) and no parameter does (np, procs, "
        "ranks, ...; hyperfine -P np 1 16 'mpirun -np {np} ...')" +
        (json || csv ? "" : "; hyperfine's " + kind + " export keeps no parameter, its JSON export does");
    if (output.runs.empty() && failed.count == 0) Fail(input.path, no_procs_line, why);
    output.notes.push_back(input.path + ":" + std::to_string(no_procs_line) + ": " + why + ": not read" +
                           (no_procs > 1 ? " (nor " + std::to_string(no_procs - 1) + " more such commands)" : ""));
  }
  if (results.empty()) Fail(input.path, 1, "no benchmark results");
  if (timed == 0) Fail(input.path, results.front().line, "no timed run in any result (\"times\" are empty)");
  failed.Finish(input.path, timed, "timed runs of hyperfine", &output);
  output.readings.push_back(input.path + ": hyperfine " + kind + " export, " + std::to_string(results.size()) +
                            " commands, " + std::to_string(output.runs.size()) +
                            (json ? " timed runs" : " means of their runs") + "; processes from " +
                            (from_parameter == 0 ? "the commands' launcher"
                             : from_command == 0 ? "a parameter"
                                                 : "the launcher, else a parameter"));
  return output;
}

}  // namespace qnm
