#include "pipeline/prediction_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unordered_map>

#include "util/json_cells.h"
#include "util/text_format.h"

namespace qnm {
namespace {

std::string Num(double value, const char* format = "%.4g") { return FormatKnown(format, value, "-"); }

std::string WithInterval(const Interval& interval) {
  if (!Known(interval.value_s)) return "-";
  std::string out = Num(interval.value_s);
  if (Known(interval.lower_s))
    out += " [" + Num(interval.lower_s) + ", " + Num(interval.upper_s) + "]";
  return out;
}

nlohmann::json JsonInterval(const Interval& interval) {
  return {{"value_s", JsonNumber(interval.value_s)},
          {"lower_s", JsonNumber(interval.lower_s)},
          {"upper_s", JsonNumber(interval.upper_s)}};
}

nlohmann::json JsonModel(const SeriesModel& model) {
  nlohmann::json inputs = nlohmann::json::array();
  for (const InputCurve& input : model.inputs)
    inputs.push_back({{"name", input.name},
                      {"key", input.key},
                      {"unit", input.unit},
                      {"formula", input.formula},
                      {"fit_note", input.fit_note},
                      {"forward_log_rms", JsonNumber(input.forward_log_rms)}});
  nlohmann::json out = {{"kind", ToString(model.kind)},
                        {"training_procs", nlohmann::json::array()},
                        {"inputs", inputs},
                        {"interval_level", model.level},
                        {"extrapolatable", model.summary.extrapolatable},
                        {"forward_log_rms", JsonNumber(model.summary.forward_log_rms)},
                        {"per_octave_log_sd", JsonNumber(model.summary.per_octave_log_sd)},
                        {"noise_log_sd", JsonNumber(model.summary.noise_log_sd)},
                        {"notes", model.summary.notes}};
  for (const ProcsObservation& o : model.training) out["training_procs"].push_back(o.procs);
  // Measured at a training P but not fitted: no MPI profile there (the queueing model's others).
  if (!model.unprofiled.empty()) {
    out["unprofiled_procs"] = nlohmann::json::array();
    for (const ProcsObservation& o : model.unprofiled) out["unprofiled_procs"].push_back(o.procs);
  }
  // Runtime-only: the configuration fitted, chosen per series or given (models/runtime_configuration.h).
  if (const RuntimeConfigurationChoice& c = model.summary.configuration; !c.chosen.empty()) {
    nlohmann::json backcast = nlohmann::json::object();
    for (std::size_t k = 0; k < c.names.size(); ++k) backcast[c.names[k]] = JsonNumber(c.backcast_log_error[k]);
    out["configuration"] = {{"name", c.chosen},
                            {"chosen_per_series", c.made},
                            {"default", c.by_default},
                            {"forecast_procs", c.made ? nlohmann::json(c.forecast_procs) : nlohmann::json()},
                            {"backcast_log_error", backcast}};
  }
  if (model.kind == ModelKind::kQueueing)
    out["machine"] = {{"name", model.machine.name},
                      {"latency_s", JsonNumber(model.machine.latency_s)},
                      {"bandwidth_bytes_per_s", JsonNumber(model.machine.bandwidth_bytes_per_s)},
                      {"allocation", ToString(model.machine.allocation)},
                      {"estimated", model.machine.estimated},
                      {"source", model.machine.source}};
  return out;
}

nlohmann::json JsonPrediction(const ProcsPrediction& p) {
  return {{"procs", p.procs},
          {"total", JsonInterval(p.total)},
          {"compute", JsonInterval(p.compute)},
          {"imbalance", JsonInterval(p.imbalance)},
          {"switch_delay", JsonInterval(p.switch_delay)},
          {"mpi_active", JsonInterval(p.mpi_active)},
          {"contention", JsonInterval(p.contention)},
          {"messages_per_rank", JsonNumber(p.messages_per_rank)},
          {"bytes_per_message", JsonNumber(p.bytes_per_message)},
          {"service_s_per_message", JsonNumber(p.service_s_per_message)},
          {"mpi_stations", p.mpi_stations},
          {"extrapolation_log2", p.extrapolation},
          {"termination", ToString(p.termination)},
          {"message", p.message},
          {"flags", p.flags}};
}

std::string ModelHeader(const SeriesModel& model) {
  std::ostringstream out;
  out << "series " << model.series_name << ": " << model.summary.BriefReport() << "\n";
  if (model.kind == ModelKind::kQueueing)
    out << "  machine " << model.machine.name << ": latency " << Num(model.machine.latency_s)
        << " s, bandwidth "
        << (model.machine.bandwidth_bytes_per_s >= 1e299 ? std::string("unbounded")
                                                          : Num(model.machine.bandwidth_bytes_per_s) + " B/s")
        << ", "
        << ToString(model.machine.allocation)
        << (model.machine.estimated ? " (ESTIMATED from the series)" : "") << "\n";
  for (const InputCurve& input : model.inputs)
    out << "  fit " << input.name << " [" << input.unit << "] = " << input.formula
        << (Known(input.forward_log_rms)
                ? std::string(input.averaged_curves > 1 ? "  (best curve's " : "  (") +
                      "forward-validation RMS log error " + Num(input.forward_log_rms, "%.3f") + ")"
            : input.formula == "none"        ? std::string()
            : model.summary.extrapolatable   ? std::string("  (one fit over all runs, not forward-validated)")
                                             : std::string("  (not forward-validated: one process count)"))
        << (input.fit_note.empty() ? "" : "; " + input.fit_note) << "\n";
  for (const std::string& note : model.summary.notes) out << "  note: " << note << "\n";
  return out.str();
}

const char* kCsvPredictionHeader =
    "series,procs,measured_s,total_s,total_lower_s,total_upper_s,compute_s,compute_lower_s,"
    "compute_upper_s,imbalance_s,imbalance_lower_s,imbalance_upper_s,switch_delay_s,switch_delay_lower_s,switch_delay_upper_s,mpi_active_s,"
    "mpi_active_lower_s,mpi_active_upper_s,contention_s,contention_lower_s,contention_upper_s,"
    "messages_per_rank,bytes_per_message,service_s_per_message,extrapolation_log2,termination,flags";

std::string CsvNum(double value) { return FormatKnown("%.6g", value, ""); }

std::string CsvPrediction(const std::string& series, const ProcsPrediction& p, double measured) {
  std::string out = CsvQuote(series) + "," + std::to_string(p.procs) + "," + CsvNum(measured);
  for (const Interval* i : {&p.total, &p.compute, &p.imbalance, &p.switch_delay, &p.mpi_active, &p.contention})
    out += "," + CsvNum(i->value_s) + "," + CsvNum(i->lower_s) + "," + CsvNum(i->upper_s);
  out += "," + CsvNum(p.messages_per_rank) + "," + CsvNum(p.bytes_per_message) + "," +
         CsvNum(p.service_s_per_message) + "," + CsvNum(p.extrapolation);
  std::string flags;
  for (const std::string& flag : p.flags) flags += (flags.empty() ? "" : "; ") + flag;
  std::string termination = ToString(p.termination);
  if (!p.Ok()) termination += ": " + p.message;
  out += "," + CsvQuote(termination) + "," + CsvQuote(flags);
  return out + "\n";
}

/// Measured time by process count (the first observation of a count), built
/// once per series: a lookup per printed row was quadratic in a series of
/// 100,000 process counts (issue 19).
class MeasuredTimes {
 public:
  explicit MeasuredTimes(const std::vector<ProcsObservation>& observed) {
    for (const ProcsObservation& o : observed) by_procs_.emplace(o.procs, o.measured_time_s);
  }
  double At(int procs) const {
    auto found = by_procs_.find(procs);
    return found == by_procs_.end() ? kUnknown : found->second;
  }

 private:
  std::unordered_map<int, double> by_procs_;
};

/// The final guard of every report: a time that is not finite and
/// non-negative is never printed. It becomes unknown ("-", null, empty) and a
/// flag says where; an interval with an infinite or negative bound (e.g. too
/// few points for a Student t quantile) is dropped the same way.
class ResultGuard {
 public:
  void Time(double* value_s, const char* what, int procs) {
    if (!Known(*value_s) || (std::isfinite(*value_s) && *value_s >= 0)) return;
    *value_s = kUnknown;
    flagged_[std::string(what) + " is not a finite non-negative time"].push_back(procs);
  }
  void Bounds(Interval* interval, const char* what, int procs) {
    Time(&interval->value_s, what, procs);
    const bool bad = BadBound(interval->lower_s) || BadBound(interval->upper_s);
    if (!Known(interval->value_s) || bad) {
      if (bad) flagged_[std::string("interval of ") + what + " is unbounded, not shown"].push_back(procs);
      interval->lower_s = interval->upper_s = kUnknown;
    }
  }
  void Prediction(ProcsPrediction* p) {
    Bounds(&p->total, "the total", p->procs);
    Bounds(&p->compute, "compute", p->procs);
    Bounds(&p->imbalance, "load imbalance", p->procs);
    Bounds(&p->switch_delay, "switch delay", p->procs);
    Bounds(&p->mpi_active, "MPI service A", p->procs);
    Bounds(&p->contention, "contention", p->procs);
    for (double* v : {&p->messages_per_rank, &p->bytes_per_message, &p->service_s_per_message})
      if (!std::isfinite(*v)) *v = kUnknown;
  }
  /// One note per kind of flag, with the process counts it applies to.
  void AppendNotes(std::vector<std::string>* notes) {
    for (const auto& [what, procs] : flagged_) {
      std::string note = what + " at P =";
      for (std::size_t i = 0; i < procs.size() && i < 8; ++i) note += " " + std::to_string(procs[i]);
      if (procs.size() > 8) note += " ... (" + std::to_string(procs.size()) + " process counts)";
      notes->push_back(note);
    }
    flagged_.clear();
  }

 private:
  static bool BadBound(double bound_s) { return Known(bound_s) && !(std::isfinite(bound_s) && bound_s >= 0); }
  std::map<std::string, std::vector<int>> flagged_;
};

/// Guards one result in place: flags go into the model's notes (shown by
/// table and JSON) and, for CSV, which has no place for them, on stderr.
void Guard(SeriesPrediction* r, const std::string& format) {
  ResultGuard guard;
  for (ProcsPrediction& p : r->predictions) guard.Prediction(&p);
  for (ProcsObservation& o : r->observed) guard.Time(&o.measured_time_s, "the measured time", o.procs);
  std::vector<std::string> notes;
  guard.AppendNotes(&notes);
  for (const std::string& note : notes) {
    if (format == "csv") std::cerr << "qnm-predict: series " << r->model.series_name << ": " << note << "\n";
    r->model.summary.notes.push_back(note);
  }
}

void Guard(ValidationResult* r, const std::string& format) {
  ResultGuard guard;
  for (ValidationRow& row : r->rows) {
    guard.Prediction(&row.predicted);
    guard.Time(&row.measured_s, "the measured time", row.procs);
    if (!std::isfinite(row.relative_error)) row.relative_error = kUnknown;
  }
  std::vector<std::string> notes;
  guard.AppendNotes(&notes);
  for (const std::string& note : notes) {
    if (format == "csv") std::cerr << "qnm-predict: series " << r->series_name << ": " << note << "\n";
    r->model.summary.notes.push_back(note);
  }
}

std::string Pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

// JSON reports are {"origin": ..., "series": [...]} as nlohmann's dump(2)
// prints it; each series is dumped alone and indented to its place in the array.
std::string JsonOpening(const std::string& origin) {
  return "{\n  \"origin\": " + nlohmann::json(origin).dump() + ",\n  \"series\": [";
}

std::string JsonArrayElement(const nlohmann::json& element, std::size_t index) {
  std::string text = element.dump(2);
  std::string out = index == 0 ? "\n    " : ",\n    ";
  out.reserve(out.size() + text.size() + text.size() / 8);
  for (char c : text) {
    out += c;
    if (c == '\n') out += "    ";
  }
  return out;
}

std::string JsonClosing(std::size_t elements) { return elements == 0 ? "]\n}\n" : "\n  ]\n}\n"; }

const char* kCsvValidationHeader =
    "series,procs,training,measured_s,predicted_s,lower_s,upper_s,relative_error,within_10,"
    "within_30,inside_interval\n";

nlohmann::json PredictionJson(const SeriesPrediction& r) {
  nlohmann::json series = {{"name", r.model.series_name},
                           {"model", JsonModel(r.model)},
                           {"measured", nlohmann::json::array()},
                           {"predictions", nlohmann::json::array()}};
  for (const ProcsObservation& o : r.observed) {
    nlohmann::json m = {{"procs", o.procs}, {"runs", o.runs}, {"time_s", JsonNumber(o.measured_time_s)},
                        {"min_s", JsonNumber(o.min_time_s)}, {"max_s", JsonNumber(o.max_time_s)}};
    if (o.has_components)
      m["components"] = {{"compute_s", JsonNumber(o.components.compute_s)},
                         {"imbalance_s", JsonNumber(o.components.imbalance_s)},
                         {"switch_delay_s", JsonNumber(o.components.switch_delay_s)},
                         {"mpi_active_s", JsonNumber(o.components.mpi_active_s)},
                         {"contention_s", JsonNumber(o.components.contention_s)}};
    series["measured"].push_back(m);
  }
  for (const ProcsPrediction& p : r.predictions) series["predictions"].push_back(JsonPrediction(p));
  return series;
}

// The flags of a row not printed under an earlier row of its table: a flag shared by many rows ("may
// leave the node") is written out once, where it first applies; later rows carry only its '!'.
std::vector<std::string> FlagsNotYetShown(const std::vector<std::string>& flags, std::set<std::string>* shown) {
  std::vector<std::string> fresh;
  for (const std::string& flag : flags)
    if (shown->insert(flag).second) fresh.push_back(flag);
  return fresh;
}

std::string PredictionTable(const SeriesPrediction& r) {
  const MeasuredTimes measured(r.observed);
  std::string level = Num(100 * r.model.level, "%.0f") + "% interval";
  // Column widths from the widest cell of this series: a fixed width let
  // "2.059e-05 [1.993e-05, 2.128e-05]" push every later column to the right.
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"P", "measured s", "total s [" + level + "]"};
  if (r.model.kind == ModelKind::kQueueing)
    header.insert(header.end(), {"compute W s", "imbalance I s", "switch delay S s", "MPI service A s",
                                 "contention C s"});  // docs/glossary.md
  rows.push_back(header);
  std::vector<std::string> trailers(1);  // what follows a row: its flags, or why it has no value
  std::set<std::string> shown_flags;
  for (const ProcsPrediction& p : r.predictions) {
    std::vector<std::string> cells = {std::to_string(p.procs), Num(measured.At(p.procs))};
    std::string trailer;
    if (!p.Ok()) {
      trailer = ToString(p.termination) + std::string(": ") + p.message;
    } else {
      cells.push_back(WithInterval(p.total) + (p.flags.empty() ? "" : " !"));
      if (r.model.kind == ModelKind::kQueueing)
        for (const Interval* i : {&p.compute, &p.imbalance, &p.switch_delay, &p.mpi_active, &p.contention})
          cells.push_back(WithInterval(*i));
      for (const std::string& flag : FlagsNotYetShown(p.flags, &shown_flags)) trailer += "\n       ! " + flag;
    }
    rows.push_back(cells);
    trailers.push_back(trailer);
  }
  return "\n" + ModelHeader(r.model) + "\n" + AlignedTable(rows, trailers);
}

nlohmann::json ValidationJson(const ValidationResult& r) {
  nlohmann::json rows = nlohmann::json::array();
  for (const ValidationRow& row : r.rows)
    rows.push_back({{"procs", row.procs},
                    {"training", row.training},
                    {"measured_s", JsonNumber(row.measured_s)},
                    {"predicted", JsonPrediction(row.predicted)},
                    {"relative_error", JsonNumber(row.relative_error)},
                    {"within_10", row.within_10},
                    {"within_30", row.within_30},
                    {"inside_interval", row.inside_interval}});
  const ValidationSummary& s = r.summary;
  return {{"name", r.series_name},
          {"model", JsonModel(r.model)},
          {"rows", rows},
          {"summary",
           {{"mode", s.mode},
            {"predicted_points", s.predicted_points},
            {"median_abs_relative_error", JsonNumber(s.median_abs_relative_error)},
            {"max_abs_relative_error", JsonNumber(s.max_abs_relative_error)},
            {"within_10_fraction", JsonNumber(s.within_10_fraction)},
            {"within_30_fraction", JsonNumber(s.within_30_fraction)},
            {"interval_coverage", JsonNumber(s.interval_coverage)},
            {"interval_level", s.level}}},
          {"notes", r.notes}};
}

std::string ValidationCsv(const ValidationResult& r) {
  std::string out;
  for (const ValidationRow& row : r.rows)
    out += CsvQuote(r.series_name) + "," + std::to_string(row.procs) + "," + (row.training ? "1" : "0") + "," +
           CsvNum(row.measured_s) + "," + CsvNum(row.predicted.total.value_s) + "," +
           CsvNum(row.predicted.total.lower_s) + "," + CsvNum(row.predicted.total.upper_s) + "," +
           CsvNum(row.relative_error) + "," + (row.within_10 ? "1" : "0") + "," + (row.within_30 ? "1" : "0") +
           "," + (row.inside_interval ? "1" : "0") + "\n";
  return out;
}

std::string ValidationTable(const ValidationResult& r) {
  std::ostringstream out;
  out << "\n" << ModelHeader(r.model);
  out << "  validation " << r.summary.BriefReport() << "\n\n";
  out << Pad("P", 7) << Pad("measured s", 12) << Pad("predicted s [interval]", 34) << Pad("error", 9)
      << Pad("<=10%", 7) << Pad("<=30%", 7) << "inside\n";
  std::set<std::string> shown_flags;
  for (const ValidationRow& row : r.rows) {
    out << Pad(std::to_string(row.procs), 7) << Pad(Num(row.measured_s), 12)
        << Pad(WithInterval(row.predicted.total), 34)
        << Pad(Known(row.relative_error) ? Num(100 * row.relative_error, "%+.1f%%") : "-", 9);
    if (row.training) {
      out << "(training)\n";
      continue;
    }
    out << Pad(row.within_10 ? "yes" : "no", 7) << Pad(row.within_30 ? "yes" : "no", 7)
        << (row.inside_interval ? "yes" : "no") << (row.predicted.flags.empty() ? "" : "  !") << "\n";
    if (!row.predicted.Ok())
      out << "       " << ToString(row.predicted.termination) << ": " << row.predicted.message << "\n";
    for (const std::string& flag : FlagsNotYetShown(row.predicted.flags, &shown_flags))
      out << "       ! " << flag << "\n";
  }
  return out.str();
}

/// What precedes the first series of a report: JSON's opening, the CSV header or the table's origin line.
std::string ReportOpening(const std::string& format, const std::string& origin, const std::string& csv_header) {
  if (format == "json") return JsonOpening(origin);
  if (format == "csv") return csv_header;
  return "# " + origin + "\n";
}

}  // namespace

PredictionWriter::PredictionWriter(std::string format, const std::string& origin, ReportSink write)
    : format_(std::move(format)), write_(std::move(write)) {
  write_(ReportOpening(format_, origin, std::string(kCsvPredictionHeader) + "\n"));
}

void PredictionWriter::Add(SeriesPrediction r) {
  Guard(&r, format_);
  if (format_ == "json") {
    write_(JsonArrayElement(PredictionJson(r), series_));
  } else if (format_ == "csv") {
    const MeasuredTimes measured(r.observed);
    // In pieces of ~1 MiB: a series of a million P is ~100 MB of text (issue 19).
    std::string out;
    for (const ProcsPrediction& p : r.predictions) {
      out += CsvPrediction(r.model.series_name, p, measured.At(p.procs));
      if (out.size() >= (1 << 20)) {
        write_(out);
        out.clear();
      }
    }
    if (!out.empty() || r.predictions.empty()) write_(out);
  } else {
    write_(PredictionTable(r));
  }
  ++series_;
}

void PredictionWriter::Finish() {
  if (format_ == "json") write_(JsonClosing(series_));
}

ValidationWriter::ValidationWriter(std::string format, const std::string& origin, ReportSink write)
    : format_(std::move(format)), write_(std::move(write)) {
  write_(ReportOpening(format_, origin, kCsvValidationHeader));
}

void ValidationWriter::Add(ValidationResult r) {
  Guard(&r, format_);
  if (format_ == "json") {
    write_(JsonArrayElement(ValidationJson(r), series_));
  } else if (format_ == "csv") {
    write_(ValidationCsv(r));
  } else {
    write_(ValidationTable(r));
    if (Known(r.summary.median_abs_relative_error)) medians_.push_back(r.summary.median_abs_relative_error);
  }
  ++series_;
}

void ValidationWriter::Finish() {
  if (format_ == "json") {
    write_(JsonClosing(series_));
  } else if (format_ != "csv" && series_ > 1 && !medians_.empty()) {
    std::sort(medians_.begin(), medians_.end());
    write_("\n" + std::to_string(series_) + " series; median over series of the median |error|: " +
           Num(100 * medians_[medians_.size() / 2], "%.1f%%") + "\n");
  }
}

namespace {

/// The whole report in one string: every result through `Writer`.
template <class Writer, class Result>
std::string Collected(const std::vector<Result>& results, const std::string& format, const std::string& origin) {
  std::string out;
  Writer writer(format, origin, [&out](std::string_view text) { out.append(text); });
  for (const Result& r : results) writer.Add(r);
  writer.Finish();
  return out;
}

}  // namespace

std::string FormatPredictions(const std::vector<SeriesPrediction>& results, const std::string& format,
                              const std::string& origin) {
  return Collected<PredictionWriter>(results, format, origin);
}

std::string FormatValidations(const std::vector<ValidationResult>& results, const std::string& format,
                              const std::string& origin) {
  return Collected<ValidationWriter>(results, format, origin);
}

}  // namespace qnm
