// FMS timing tables (fms_clocks.h, docs/formats/fms-clocks.md).
#include "app_outputs/fms_clocks.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app_outputs/app_output_readers.h"
#include "app_outputs/pattern_output.h"
#include "reader/run_stats_check.h"
#include "textio/log_numbers.h"
#include "textio/text_lines.h"
#include "util/input_error.h"

namespace qnm {
namespace {

constexpr std::string_view kTabulating = "Tabulating mpp_clock statistics across";
constexpr std::string_view kTotal = "Total runtime";

// The columns of a table's header line ("hits tmin tmax tavg tstd tfrac grain pemin pemax"), with where
// each one this reader needs sits; false when the line is no such header.
struct Header {
  std::size_t count = 0;
  int hits = -1, tmin = -1, tmax = -1, tavg = -1, tstd = -1, pemin = -1, pemax = -1;
};

bool ReadHeader(std::string_view t, Header* header, const std::string& path, int line) {
  const std::vector<std::string_view> words = SplitWhitespace(t);
  if (words.empty() || std::find(words.begin(), words.end(), "tfrac") == words.end()) return false;
  header->count = words.size();
  for (std::size_t i = 0; i < words.size(); ++i) {
    const int at = static_cast<int>(i);
    if (words[i] == "hits") header->hits = at;
    if (words[i] == "tmin") header->tmin = at;
    if (words[i] == "tmax") header->tmax = at;
    if (words[i] == "tavg") header->tavg = at;
    if (words[i] == "tstd") header->tstd = at;
    if (words[i] == "pemin") header->pemin = at;
    if (words[i] == "pemax") header->pemax = at;
  }
  for (auto [at, name] : {std::pair{header->tmin, "tmin"}, {header->tmax, "tmax"}, {header->tavg, "tavg"}})
    if (at < 0)
      throw InputError(path, line,
                       std::string("FMS timing table header without its '") + name + "' column: '" +
                           std::string(t).substr(0, 100) + "'");
  return true;
}

// A clock's row: its name, then as many numbers as the header has columns. False when the line is no
// row (the table ended); throws for a Total runtime row whose numbers do not read.
bool ReadRow(std::string_view t, const Header& header, FmsClock* clock, const std::string& path, int line) {
  const std::vector<std::string_view> words = SplitWhitespace(t);
  const bool total = StartsWith(t, kTotal);
  if (words.size() <= header.count || t.find('=') != std::string_view::npos) {
    if (total)
      throw InputError(path, line,
                       "FMS 'Total runtime' row without the header's " + std::to_string(header.count) + " numbers");
    return false;
  }
  const std::size_t first = words.size() - header.count;
  std::vector<double> values(header.count);
  for (std::size_t i = 0; i < header.count; ++i) {
    const auto value = ParseDouble(words[first + i]);
    if (!value || !std::isfinite(*value) || *value < 0) {
      if (total) NonNegativeNumber(words[first + i], path, line, "FMS 'Total runtime' row");
      return false;
    }
    values[i] = *value;
  }
  clock->name = JoinWords(words, 0, first);
  clock->line = line;
  auto at = [&](int column) { return column >= 0 ? values[static_cast<std::size_t>(column)] : 0.0; };
  clock->hits = header.hits >= 0 ? at(header.hits) : -1;
  clock->tmin_s = at(header.tmin);
  clock->tmax_s = at(header.tmax);
  clock->tavg_s = at(header.tavg);
  clock->tstd_s = at(header.tstd);
  // PE numbers are whole and at most 2^24 (WholeCount's bound): a row whose are not is no clock's row.
  for (int column : {header.pemin, header.pemax}) {
    const double pe = at(column);
    if (pe > (1 << 24) || pe != static_cast<double>(static_cast<long long>(pe))) {
      if (total)
        throw InputError(path, line,
                         "FMS 'Total runtime': pemin and pemax need PE numbers, got '" + NumberText(pe) + "'");
      return false;
    }
  }
  clock->pemin = static_cast<int>(at(header.pemin));
  clock->pemax = static_cast<int>(at(header.pemax));
  if (total && !(clock->tmin_s <= clock->tavg_s * (1 + 1e-6) && clock->tavg_s <= clock->tmax_s * (1 + 1e-6)))
    throw InputError(path, line, "FMS 'Total runtime': tmin <= tavg <= tmax does not hold");
  return true;
}

const FmsClock* Find(const FmsClockTable& table, std::string_view name) {
  for (const FmsClock& clock : table.clocks)
    if (clock.name == name) return &clock;
  return nullptr;
}

}  // namespace

bool LooksLikeFmsClocks(std::string_view text) { return BeginsALine(text, kTabulating); }

std::vector<FmsClockTable> ParseFmsClocks(std::string_view text, const std::string& path) {
  std::vector<FmsClockTable> tables;
  const std::vector<std::string_view> lines = SplitLines(text);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view t = Trim(lines[i]);
    if (!StartsWith(t, kTabulating)) continue;
    FmsClockTable table;
    table.line = static_cast<int>(i + 1);
    // "across     49 PEs..." (older FMS: "across PEs...").
    const std::vector<std::string_view> words = SplitWhitespace(t.substr(kTabulating.size()));
    if (words.size() >= 2 && StartsWith(words[1], "PEs"))
      table.npes = WholeCount(words[0], path, table.line, "FMS 'Tabulating mpp_clock statistics across N PEs'", 1);
    // The header: the first line after, past blanks and FMS's "... see mpp_clock.out.####" note.
    Header header;
    std::size_t k = i + 1;
    for (; k < lines.size() && k <= i + 4; ++k)
      if (ReadHeader(Trim(lines[k]), &header, path, static_cast<int>(k + 1))) break;
    if (header.count == 0)
      throw InputError(path, table.line, "FMS timing table without its header (tmin, tmax, tavg, tstd, tfrac...)");
    for (++k; k < lines.size(); ++k) {
      const std::string_view row = Trim(lines[k]);
      if (row.empty()) break;
      FmsClock clock;
      if (!ReadRow(row, header, &clock, path, static_cast<int>(k + 1))) break;
      table.clocks.push_back(std::move(clock));
    }
    if (!Find(table, kTotal)) throw InputError(path, table.line, "FMS timing table without its 'Total runtime' row");
    tables.push_back(std::move(table));
    i = k;
  }
  if (tables.empty()) throw InputError(path, 0, "no FMS timing table in it ('Tabulating mpp_clock statistics')");
  return tables;
}

RunStats FmsClockTableToRunStats(const FmsClockTable& table, const std::string& path) {
  const FmsClock& total = *Find(table, kTotal);
  RunStats run;
  run.sources.push_back(path + ":" + std::to_string(table.line));
  run.app = ApplicationFromPath(path);
  if (run.app == "output") run.app = "fms";
  run.derivations["app"] = "the file's or its folder's name (FMS's timing table names no model)";
  if (table.npes > 0) {
    run.procs = table.npes;
    run.derivations["procs"] =
        "FMS 'Tabulating mpp_clock statistics across N PEs' (line " + std::to_string(table.line) + ")";
  } else {
    if (total.pemax < total.pemin) throw InputError(path, total.line, "FMS 'Total runtime': pemax below pemin");
    run.procs = total.pemax - total.pemin + 1;
    run.derivations["procs"] = "FMS 'Total runtime' pemin..pemax (line " + std::to_string(total.line) +
                               "; this FMS does not print the PE count)";
  }
  // Each PE's time from FMS's initialisation to mpp_exit; the run lasts as long as the slowest.
  run.wall_time_s = total.tmax_s;
  run.derivations["wall_time_s"] = "FMS 'Total runtime' tmax over the PEs (line " + std::to_string(total.line) + ")";
  run.app_time_mean_s = total.tavg_s;
  run.app_time_max_s = total.tmax_s;
  run.derivations["app_time_mean_s"] = "FMS 'Total runtime' tavg over the PEs";
  run.details["fms_total_tmin_s"] = NumberText(total.tmin_s);
  for (auto [name, key] : {std::pair{"Main loop", "fms_main_loop_s"}, {"Initialization", "fms_initialization_s"}})
    if (const FmsClock* clock = Find(table, name)) run.details[key] = NumberText(clock->tmax_s);
  run.details["fms_clocks"] = std::to_string(table.clocks.size());
  run.Derive();
  RequirePlausibleRecord(run, path, total.line);
  return run;
}

bool SniffFmsClocks(const std::string&, std::string_view text) { return LooksLikeFmsClocks(text); }

ReaderOutput ReadFmsClocks(const ReaderInput& input) {
  return AppOutputRuns(
      input, ParseFmsClocks(input.text, input.path),
      [](const FmsClockTable& table, int* line) {
        *line = table.line;
        return std::string();
      },
      [&](const FmsClockTable& table) { return FmsClockTableToRunStats(table, input.FormatPath()); },
      "FMS timing tables did not read");
}

}  // namespace qnm
