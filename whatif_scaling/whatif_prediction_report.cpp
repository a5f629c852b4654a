#include "whatif_scaling/whatif_prediction_report.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "util/json_cells.h"
#include "util/text_format.h"

namespace qnm {
namespace {

/// A time is shown only when finite and non-negative (never NaN, inf or a negative time).
double Time(double value_s) { return std::isfinite(value_s) && value_s >= 0 ? value_s : kUnknown; }
/// A gain may be negative (a loss), never NaN or infinite.
double Signed(double value_s) { return std::isfinite(value_s) ? value_s : kUnknown; }

Interval Guard(const Interval& in, double (*guard)(double)) {
  Interval out{guard(in.value_s), guard(in.lower_s), guard(in.upper_s)};
  if (!Known(out.value_s) || !Known(out.lower_s) || !Known(out.upper_s)) out.lower_s = out.upper_s = kUnknown;
  return out;
}

std::string Num(double value) { return FormatKnown("%.4g", value, "-"); }

std::string WithInterval(const Interval& interval) {
  if (!Known(interval.value_s)) return "-";
  std::string out = Num(interval.value_s);
  if (Known(interval.lower_s)) out += " [" + Num(interval.lower_s) + ", " + Num(interval.upper_s) + "]";
  return out;
}

nlohmann::json JsonInterval(const Interval& interval) {
  return {{"value_s", JsonNumber(interval.value_s)},
          {"lower_s", JsonNumber(interval.lower_s)},
          {"upper_s", JsonNumber(interval.upper_s)}};
}

/// One process count of a series, guarded.
struct Row {
  int procs = 0;
  Interval unchanged, whatif, gain;
  double gain_percent = kUnknown;
  std::string why;  // no value: the termination and its message
  std::vector<std::string> flags;
};

std::vector<Row> RowsOf(const SeriesWhatifPrediction& r) {
  std::vector<Row> rows;
  for (std::size_t i = 0; i < r.unchanged.predictions.size(); ++i) {
    const ProcsPrediction& u = r.unchanged.predictions[i];
    const ProcsPrediction& w = r.whatif.predictions[i];
    Row row;
    row.procs = u.procs;
    row.unchanged = Guard(u.total, Time);
    row.whatif = Guard(w.total, Time);
    row.gain = Guard(r.gains[i].gain, Signed);
    row.gain_percent = Signed(r.gains[i].gain_percent);
    if (!Known(row.unchanged.value_s) || !Known(row.whatif.value_s)) {
      row.gain = Interval{};
      row.gain_percent = kUnknown;
    }
    if (!u.Ok()) row.why = std::string(ToString(u.termination)) + ": " + u.message;
    else if (!w.Ok()) row.why = std::string("what-if ") + ToString(w.termination) + ": " + w.message;
    for (const std::string& flag : u.flags) row.flags.push_back("unchanged: " + flag);
    for (const std::string& flag : w.flags) row.flags.push_back("what-if: " + flag);
    rows.push_back(row);
  }
  return rows;
}

std::string CsvNum(double value) { return FormatKnown("%.6g", value, ""); }

}  // namespace

std::string FormatWhatifPredictions(const std::vector<SeriesWhatifPrediction>& results, const std::string& format,
                                    const std::string& origin) {
  if (format == "json") {
    nlohmann::json out = {{"origin", origin}, {"series", nlohmann::json::array()}};
    for (const SeriesWhatifPrediction& r : results) {
      nlohmann::json runs = nlohmann::json::array();
      for (const WhatifRun& run : r.runs)
        runs.push_back({{"procs", run.procs},
                        {"source", run.source},
                        {"method", ToString(run.method)},
                        {"unchanged_s", JsonNumber(Time(run.unchanged_s))},
                        {"whatif_s", JsonNumber(Time(run.whatif_s))}});
      nlohmann::json predictions = nlohmann::json::array();
      for (const Row& row : RowsOf(r))
        predictions.push_back({{"procs", row.procs},
                               {"unchanged", JsonInterval(row.unchanged)},
                               {"whatif", JsonInterval(row.whatif)},
                               {"gain", JsonInterval(row.gain)},
                               {"gain_percent", JsonNumber(row.gain_percent)},
                               {"message", row.why},
                               {"flags", row.flags}});
      out["series"].push_back({{"name", r.unchanged.model.series_name},
                               {"hypotheses", r.hypotheses},
                               {"interval_level", r.unchanged.model.level},
                               {"unchanged_model", r.unchanged.model.summary.BriefReport()},
                               {"whatif_model", r.whatif.model.summary.BriefReport()},
                               {"notes", r.notes},
                               {"runs", runs},
                               {"predictions", predictions}});
    }
    return out.dump(2) + "\n";
  }
  if (format == "csv") {
    std::string out =
        "series,procs,unchanged_s,unchanged_lower_s,unchanged_upper_s,whatif_s,whatif_lower_s,whatif_upper_s,"
        "gain_s,gain_lower_s,gain_upper_s,gain_percent,message\n";
    for (const SeriesWhatifPrediction& r : results)
      for (const Row& row : RowsOf(r)) {
        out += CsvQuote(r.unchanged.model.series_name) + "," + std::to_string(row.procs);
        for (const Interval* i : {&row.unchanged, &row.whatif, &row.gain})
          out += "," + CsvNum(i->value_s) + "," + CsvNum(i->lower_s) + "," + CsvNum(i->upper_s);
        out += "," + CsvNum(row.gain_percent) + "," + CsvQuote(row.why) + "\n";
      }
    return out;
  }
  std::ostringstream out;
  out << "# " << origin << "\n";
  for (const SeriesWhatifPrediction& r : results) {
    out << "\nseries " << r.unchanged.model.series_name << ": what-if";
    for (std::size_t i = 0; i < r.hypotheses.size(); ++i) out << (i ? "; " : " ") << r.hypotheses[i];
    out << "\n  unchanged: " << r.unchanged.model.summary.BriefReport() << "\n";
    out << "  what-if:   " << r.whatif.model.summary.BriefReport() << "\n";
    for (const WhatifRun& run : r.runs)
      out << "  measured P = " << run.procs << ": " << Num(Time(run.unchanged_s)) << " s -> "
          << Num(Time(run.whatif_s)) << " s (" << ToString(run.method) << ", " << run.source << ")\n";
    for (const std::string& note : r.notes) out << "  note: " << note << "\n";
    const std::string level = FormatDouble("%.0f", 100 * r.unchanged.model.level) + "%";
    std::vector<std::vector<std::string>> cells = {{"P", "unchanged s [" + level + "]",
                                                    "with what-if s [" + level + "]", "gain s [" + level + "]",
                                                    "gain %"}};
    std::vector<std::string> trailers(1);
    for (const Row& row : RowsOf(r)) {
      std::string trailer;
      if (!row.why.empty()) {
        cells.push_back({std::to_string(row.procs)});
        trailer = row.why;
      } else {
        cells.push_back({std::to_string(row.procs), WithInterval(row.unchanged), WithInterval(row.whatif),
                         WithInterval(row.gain), FormatKnown("%.1f", row.gain_percent, "-")});
        for (const std::string& flag : row.flags) trailer += "\n       ! " + flag;
      }
      trailers.push_back(trailer);
    }
    out << "\n" << AlignedTable(cells, trailers);
  }
  return out.str();
}

}  // namespace qnm
