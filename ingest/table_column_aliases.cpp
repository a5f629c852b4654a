#include "ingest/table_column_aliases.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <string_view>
#include <utility>

namespace qnm {
namespace {

std::string Lower(std::string_view text) {
  std::string out;
  for (char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view TrimView(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

/// Seconds per unit of a unit word; 0 when it is none.
double SecondsPerUnit(std::string_view unit) {
  struct Unit {
    std::array<std::string_view, 5> words;
    double seconds;
  };
  static constexpr Unit kUnits[] = {
      {{"s", "sec", "secs", "second", "seconds"}, 1.0},
      {{"ms", "msec", "msecs", "millisecond", "milliseconds"}, 1e-3},
      {{"us", "usec", "usecs", "microsecond", "microseconds"}, 1e-6},
      {{"min", "mins", "minute", "minutes", ""}, 60.0},
      {{"h", "hr", "hrs", "hour", "hours"}, 3600.0},
  };
  if (unit.empty()) return 0.0;
  for (const Unit& u : kUnits)
    if (std::find(u.words.begin(), u.words.end(), unit) != u.words.end()) return u.seconds;
  return 0.0;
}

/// A header name split into its base and its unit: "time [ms]", "runtime (s)", "elapsed_ms".
std::pair<std::string, std::string> BaseAndUnit(const std::string& header) {
  const std::string name = Lower(TrimView(header));
  for (auto [open, close] : {std::pair{'[', ']'}, std::pair{'(', ')'}}) {
    const std::size_t at = name.rfind(open);
    if (!name.empty() && name.back() == close && at != std::string::npos)
      return {std::string(TrimView(std::string_view(name).substr(0, at))),
              std::string(TrimView(std::string_view(name).substr(at + 1, name.size() - at - 2)))};
  }
  const std::size_t underscore = name.rfind('_');
  if (underscore != std::string::npos && SecondsPerUnit(std::string_view(name).substr(underscore + 1)) > 0)
    return {name.substr(0, underscore), name.substr(underscore + 1)};
  return {name, ""};
}

bool OneOf(const std::string& name, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool IsProcsName(const std::string& header) {
  return OneOf(Lower(TrimView(header)),
               {"np", "nprocs", "n_procs", "num_procs", "nproc", "processes", "nprocesses", "num_processes",
                "mpi_procs", "mpi_processes", "ranks", "nranks", "n_ranks", "num_ranks", "mpi_ranks", "tasks",
                "ntasks", "p"});
}

/// Seconds per unit when `header` names a run time ("runtime", "time [ms]", "seconds"), else 0.
double TimeNameSeconds(const std::string& header) {
  auto [base, unit] = BaseAndUnit(header);
  if (unit.empty() && SecondsPerUnit(base) > 0 && base.size() > 1) return SecondsPerUnit(base);  // "seconds", "ms"
  if (!OneOf(base, {"time", "runtime", "run_time", "wall_time", "walltime", "wallclock", "wall_clock",
                    "wall_clock_time", "wallclock_time", "elapsed", "elapsed_time", "execution_time", "exec_time",
                    "total_time", "time_total"}))
    return 0.0;
  if (unit.empty()) return 1.0;
  return SecondsPerUnit(unit);
}

bool IsSeriesName(const std::string& header) {
  return OneOf(Lower(TrimView(header)), {"series_name", "name", "experiment"});
}

bool IsAppName(const std::string& header) {
  return OneOf(Lower(TrimView(header)), {"application", "code", "program"});
}

bool Has(const std::vector<std::string>& header, std::initializer_list<std::string_view> names) {
  return std::any_of(header.begin(), header.end(), [&](const std::string& h) { return OneOf(std::string(TrimView(h)), names); });
}

/// The one header name `matches` accepts, into `found`; false with `error` when two do.
template <typename Match>
bool FindAlias(const std::vector<std::string>& header, const Match& matches, const std::string& what,
               const std::string& column, std::string* found, std::string* error) {
  for (const std::string& h : header) {
    if (!matches(h)) continue;
    if (!found->empty()) {
      *error = "columns '" + *found + "' and '" + h + "' could each be the " + what + " (" + column +
               "): rename one of them to " + column;
      return false;
    }
    *found = std::string(TrimView(h));
  }
  return true;
}

}  // namespace

std::string TableColumnAliases::TimeDerivation() const {
  if (time.empty()) return "";
  return "statistics table column '" + time + "'" + (time_unit == "s" ? std::string() : " (" + time_unit + ")");
}

std::string TableColumnAliases::Note(const std::string& path) const {
  std::string parts;
  auto add = [&](const std::string& header, const std::string& as) {
    if (header.empty()) return;
    parts += (parts.empty() ? "column '" : ", '") + header + "' read as " + as;
  };
  add(procs, "procs");
  add(time, "time_s" + (time_unit == "s" ? std::string() : " (" + time_unit + ")"));
  add(series, "series");
  add(app, "app");
  return parts.empty() ? "" : path + ": " + parts + " (docs/statistics-table.md, other names)";
}

bool ResolveTableColumnAliases(const std::vector<std::string>& header, TableColumnAliases* aliases,
                               std::string* error) {
  TableColumnAliases out;
  if (!Has(header, {"procs"}) && !FindAlias(header, IsProcsName, "number of processes", "procs", &out.procs, error))
    return false;
  if (!Has(header, {"time_s"})) {
    auto is_time = [](const std::string& h) { return TimeNameSeconds(h) > 0; };
    if (!FindAlias(header, is_time, "run time", "time_s", &out.time, error)) return false;
    if (!out.time.empty()) {
      out.seconds_per_time_unit = TimeNameSeconds(out.time);
      const auto [base, unit] = BaseAndUnit(out.time);
      const std::string word = !unit.empty() ? unit : SecondsPerUnit(base) > 0 ? base : "s";
      out.time_unit = out.seconds_per_time_unit == 1.0 ? "s" : word;
    }
  }
  if (!Has(header, {"series", "app", "benchmark"})) {
    if (!FindAlias(header, IsSeriesName, "series name", "series", &out.series, error)) return false;
    if (out.series.empty() && !FindAlias(header, IsAppName, "application", "app", &out.app, error)) return false;
  }
  *aliases = std::move(out);
  return true;
}

std::string SeriesNameOfTableFile(const std::string& path) {
  const std::string stem = std::filesystem::path(path).stem().string();
  return stem.empty() ? "table" : stem;
}

}  // namespace qnm
