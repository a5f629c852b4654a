#include "efficiency/pop_efficiency_table.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

#include "util/text_format.h"

namespace qnm {
namespace {

struct Factor {
  const char* label;    // the table's row, indented as modelfactors nests the factors
  const char* key;      // the CSV column and JSON key
  double PopEfficiency::*value;
  bool percent;         // a factor (a fraction; percent in the table), else a number as it is
  bool counters = false;  // from hardware counters: a row only when some run has them
};

constexpr Factor kFactors[] = {
    {"Global efficiency", "global_efficiency", &PopEfficiency::global_efficiency, true},
    {"  Parallel efficiency", "parallel_efficiency", &PopEfficiency::parallel_efficiency, true},
    {"    Load balance", "load_balance", &PopEfficiency::load_balance, true},
    {"    Communication efficiency", "communication_efficiency", &PopEfficiency::communication_efficiency, true},
    {"  Computation scalability", "computation_scalability", &PopEfficiency::computation_scalability, true},
    {"    IPC scalability", "ipc_scalability", &PopEfficiency::ipc_scalability, true, true},
    {"    Instruction scalability", "instruction_scalability", &PopEfficiency::instruction_scalability, true, true},
    {"    Frequency scalability", "frequency_scalability", &PopEfficiency::frequency_scalability, true, true},
    {"Speedup", "speedup", &PopEfficiency::speedup, false},
    {"Average IPC", "ipc", &PopEfficiency::ipc, false, true},
    {"Average frequency (GHz)", "frequency_ghz", &PopEfficiency::frequency_ghz, false, true},
    {"Runtime (s)", "runtime_s", &PopEfficiency::runtime_s, false},
    {"Useful computation, mean (s)", "compute_mean_s", &PopEfficiency::compute_mean_s, false},
    {"Useful computation, max (s)", "compute_max_s", &PopEfficiency::compute_max_s, false},
};

std::string Cell(const Factor& factor, double value) {
  if (!Known(value)) return "-";
  if (factor.percent) return FormatDouble("%.2f", 100.0 * value);
  const std::string key = factor.key;
  if (key == "ipc" || key == "frequency_ghz") return FormatDouble("%.3f", value);
  return FormatDouble(key == "speedup" ? "%.2f" : "%#.4g", value);
}

// True when some run of `series` has the factor (a counters' row is left out of a table without them).
bool AnyKnown(const SeriesEfficiencies& series, const Factor& factor) {
  if (!factor.counters) return true;
  for (const PopEfficiency& run : series.runs)
    if (Known(run.*factor.value)) return true;
  return false;
}

std::string Padded(const std::string& text, std::size_t width, bool right) {
  if (text.size() >= width) return text;
  const std::string pad(width - text.size(), ' ');
  return right ? pad + text : text + pad;
}

std::string Table(const std::vector<SeriesEfficiencies>& all) {
  std::string out;
  std::size_t label_width = 0;
  for (const Factor& factor : kFactors) label_width = std::max(label_width, std::string(factor.label).size());
  for (const SeriesEfficiencies& series : all) {
    if (series.runs.empty()) continue;
    if (!out.empty()) out += "\n";
    out += "series " + series.series + ": POP efficiencies (%) of the measured runs; compute = " +
           series.runs.front().compute_from + "\n";
    out += Padded("P", label_width, false);
    for (const PopEfficiency& run : series.runs) out += Padded(std::to_string(run.procs), 11, true);
    out += "\n";
    for (const Factor& factor : kFactors) {
      if (!AnyKnown(series, factor)) continue;
      out += Padded(factor.label, label_width, false);
      for (const PopEfficiency& run : series.runs) out += Padded(Cell(factor, run.*factor.value), 11, true);
      out += "\n";
    }
  }
  return out;
}

std::string Csv(const std::vector<SeriesEfficiencies>& all) {
  std::string out = "series,procs";
  for (const Factor& factor : kFactors) out += std::string(",") + factor.key;
  out += ",compute_from\n";
  for (const SeriesEfficiencies& series : all)
    for (const PopEfficiency& run : series.runs) {
      out += CsvQuote(series.series) + "," + std::to_string(run.procs);
      for (const Factor& factor : kFactors) {
        const double value = run.*factor.value;
        out += "," + (Known(value) ? FormatDouble("%.12g", value) : std::string());
      }
      out += "," + CsvQuote(run.compute_from) + "\n";
    }
  return out;
}

std::string Json(const std::vector<SeriesEfficiencies>& all) {
  nlohmann::json document = {{"series", nlohmann::json::array()}};
  for (const SeriesEfficiencies& series : all) {
    if (series.runs.empty()) continue;
    nlohmann::json runs = nlohmann::json::array();
    for (const PopEfficiency& run : series.runs) {
      nlohmann::json row = {{"procs", run.procs}};
      for (const Factor& factor : kFactors) {
        const double value = run.*factor.value;
        row[factor.key] = Known(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
      }
      runs.push_back(std::move(row));
    }
    document["series"].push_back(
        {{"name", series.series}, {"compute_from", series.runs.front().compute_from}, {"runs", std::move(runs)}});
  }
  return document.dump(1) + "\n";
}

}  // namespace

bool ParseEfficiencyFormat(const std::string& text, EfficiencyFormat* format) {
  if (text == "table") *format = EfficiencyFormat::kTable;
  else if (text == "csv") *format = EfficiencyFormat::kCsv;
  else if (text == "json") *format = EfficiencyFormat::kJson;
  else return false;
  return true;
}

std::string RenderPopEfficiencies(const std::vector<SeriesEfficiencies>& series, EfficiencyFormat format) {
  switch (format) {
    case EfficiencyFormat::kCsv: return Csv(series);
    case EfficiencyFormat::kJson: return Json(series);
    case EfficiencyFormat::kTable:
    default: return Table(series);
  }
}

}  // namespace qnm
